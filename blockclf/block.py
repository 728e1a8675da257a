"""The `Block` record: one run of visible text under one block-level element.

Every stage of blockclf reads this record and none changes it: features become columns of a
table indexed like the block list, predictions become fields of the result.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import MISSING, FrozenInstanceError, dataclass, fields
from operator import attrgetter
from types import FunctionType
from typing import Any, TypeVar

_T = TypeVar("_T")


def _quick_init(cls: type[_T]) -> type[_T]:
    """``cls`` with an ``__init__`` that sets its slots through their own setters.

    For the record as plain Python (an editable install, or where nothing could be compiled),
    whose written ``__init__`` would meet its own refusal to change a field; compiled, that
    ``__init__`` stores each field directly, in about a tenth of a microsecond. A frozen
    dataclass's ``__init__`` sets each field through ``object.__setattr__`` (1.9 µs for a
    record of 23 fields; the segmenter makes a few hundred a page); a slot's own setter takes
    half that. The signature, the defaults (all immutable), equality and the refusal to change
    a field after construction are the class's own.
    """
    params, body, names = [], [], {}
    for f in fields(cls):  # type: ignore[arg-type]
        if f.default is MISSING:
            params.append(f.name)
        else:
            names[f"_default_{f.name}"] = f.default
            params.append(f"{f.name}=_default_{f.name}")
        names[f"_set_{f.name}"] = cls.__dict__[f.name].__set__
        body.append(f"    _set_{f.name}(self, {f.name})")
    exec(f"def __init__(self, {', '.join(params)}):\n" + "\n".join(body), names)  # our own field names only
    init = names["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    cls.__init__ = init  # type: ignore[method-assign]
    return cls


@dataclass(init=False, unsafe_hash=True, slots=True)
class Block:
    """A run of visible text between two block boundaries, with where it sat in the page.

    A frozen record: a field cannot be set or deleted once it is built (`FrozenInstanceError`),
    and two blocks of the same fields are equal and hash alike. It is a dataclass
    (`dataclasses.fields`, `dataclasses.replace`) whose ``__init__`` and refusals are written
    out, so that the installed package compiles it to a native record that the compiled
    segmenter builds, and the compiled stages after it read, without a Python call (the
    command takes about 4% less time: benchmarks/README.md). Compiled, it holds each field as
    the type declared: another type (a list where a tuple is declared, a numpy integer for an
    ``int``) is refused with `TypeError`, as the compiled stages refuse it.

    Attributes:
        index: position in document order (0-based, dense).
        text: the visible text, whitespace folded (lines kept for ``pre``).
        tag: the innermost block-level element holding the text (``p``, ``li``, ``td``...).
        xpath: the element path of that element, as lxml writes it.
        depth: number of element ancestors of that element.
        heading_path: the headings in force here, outermost first, as they read (a heading's
            permalink glyph, such as documentation's ``¶``, left out; its own ``text`` keeps it).
        heading_level: 1-6 when the block is itself a heading, else 0.
        list_depth: number of ``ul``/``ol``/``dl`` ancestors.
        table_depth: number of ``table`` ancestors.
        link_chars: characters of ``text`` that sit inside ``<a href>``.
        n_links: number of ``<a>`` elements contributing text.
        markup_bytes: estimated bytes of markup spent on this block (tags, attributes, text).
        tokens: class and id tokens of the element and its ancestors, lower-cased.
        ancestors: tag names of the ancestors, root first (the block element included).
        starts_element: True when the block is the first text of its element (not a tail).
        hidden: True for the text of an element the page hides (``hidden``, ``aria-hidden``,
            ``display:none``, ``visibility:hidden``); scripts often reveal such content (tabs,
            accordions, product details), so it is read as one block per hidden element
            and left to the model, which sees the flag.
        consent: True for the text of a consent manager's dialog (a cookie banner, its
            settings), which is read as hidden text too: shown over the page, never part of it.
        notice: True for the text of a notice a site lays over every page until a reader
            dismisses it (a forum's staff banner), or of a hidden dialog a script opens over
            the page on request, read as hidden text in the same way.
        rich: the block's content as minimal HTML for the renderers, or None when that is just
            ``text`` escaped: escaped text with ``a``, ``code``, ``strong``, ``em`` and ``img``
            tags (links resolved against ``<base>``), without page furniture (heading anchors
            such as a ``¶`` link, copy buttons, line numbers); for code (``pre``) its escaped
            text line for line with indentation and blank lines. ``""``: nothing but furniture.
            The features never read it: what is kept does not depend on it.
        lang: the language a ``pre`` block's code is marked with (``language-python``...).
        number: the number of the innermost ordered list item holding the block, else 0.
        colspan: the column span of the innermost table cell holding the block.
        column: that cell's first column in its row (1-based, counting the spans of the
            cells before it, empty ones included), or 0 outside a cell; the renderers keep
            a row's cells under their columns when cells before them hold no text.
        images: the ``img`` tags (as in ``rich``) of the elements right after the block that
            hold an image and no text (a photo in its ``<figure>`` or ``<div>``), which no
            block of their own carries; written after the block's text when images are asked
            for (after a heading, on a line of their own). None when there are none. Nothing
            but the renderers reads it.
        gap: a blank line stands before the block inside its element (two line breaks with no
            text between, ``<br><br>``, as older pages and forums end a paragraph): the writers
            start a new paragraph there rather than a broken line. Nothing else reads it.
        rules: the element paths of the elements that hold the rules (``<hr>``) the page draws
            between the block and the block before it; the writers draw one between kept text
            that such an element holds (`structure.ruled`: not an ad box's own rules). Nothing
            else reads it.
    """

    index: int
    text: str
    tag: str
    xpath: str
    depth: int
    heading_path: tuple[str, ...] = ()
    heading_level: int = 0
    list_depth: int = 0
    table_depth: int = 0
    link_chars: int = 0
    n_links: int = 0
    markup_bytes: int = 0
    tokens: tuple[str, ...] = ()
    ancestors: tuple[str, ...] = ()
    starts_element: bool = True
    hidden: bool = False
    rich: str | None = None
    lang: str = ""
    number: int = 0
    colspan: int = 1
    column: int = 0
    consent: bool = False
    notice: bool = False
    images: str | None = None
    gap: bool = False
    rules: tuple[str, ...] = ()

    def __init__(self, index: int, text: str, tag: str, xpath: str, depth: int, heading_path: tuple[str, ...] = (),
                 heading_level: int = 0, list_depth: int = 0, table_depth: int = 0, link_chars: int = 0,
                 n_links: int = 0, markup_bytes: int = 0, tokens: tuple[str, ...] = (), ancestors: tuple[str, ...] = (),
                 starts_element: bool = True, hidden: bool = False, rich: str | None = None, lang: str = "",
                 number: int = 0, colspan: int = 1, column: int = 0, consent: bool = False, notice: bool = False,
                 images: str | None = None, gap: bool = False, rules: tuple[str, ...] = ()) -> None:
        self.index = index
        self.text = text
        self.tag = tag
        self.xpath = xpath
        self.depth = depth
        self.heading_path = heading_path
        self.heading_level = heading_level
        self.list_depth = list_depth
        self.table_depth = table_depth
        self.link_chars = link_chars
        self.n_links = n_links
        self.markup_bytes = markup_bytes
        self.tokens = tokens
        self.ancestors = ancestors
        self.starts_element = starts_element
        self.hidden = hidden
        self.rich = rich
        self.lang = lang
        self.number = number
        self.colspan = colspan
        self.column = column
        self.consent = consent
        self.notice = notice
        self.images = images
        self.gap = gap
        self.rules = rules

    def __setattr__(self, name: str, value: Any) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}")

    def __reduce__(self) -> tuple[type[Block], tuple[Any, ...]]:
        """Pickled as its fields, rebuilt through ``__init__`` (unpickling that sets them one by
        one would be refused)."""
        return (Block, field_values(self))

    @property
    def parent_xpath(self) -> str:
        """Element path of the block element's parent (the block's container)."""
        return self.xpath.rsplit("/", 1)[0]


#: a block's fields in order, as ``__init__`` takes them
field_values: Callable[[Block], tuple[Any, ...]] = attrgetter(*(f.name for f in fields(Block)))

if isinstance(vars(Block)["__init__"], FunctionType):  # plain Python: the written __init__ would be refused
    _quick_init(Block)
