"""Cut a parsed page into `Block` records, one per run of visible text.

A block boundary is the start or end of a block-level element (or a ``<br>``); text inside
inline elements joins the block of its innermost block-level ancestor. Text that a browser
would not show (script, style, template, hidden elements, ``<title>``) never becomes a block,
and every other text character lands in exactly one block, so the blocks reproduce the
page's visible text.
"""

from __future__ import annotations

import logging
import re
from dataclasses import replace
from functools import lru_cache
from html import escape
from typing import Final, cast
from urllib.parse import urlsplit

from lxml import etree

from .block import Block
from .elements import (
    CONSENT,
    DOT,
    NOTICE,
    SKIP_TAGS,
    class_tokens,
    code_lang,
    image_source,
    is_anchor_glyph,
    is_badge,
    is_disclosure_panel,
    is_edit_link,
    is_furniture,
    is_furniture_button,
    is_hidden,
    is_hidden_dialog,
    is_small_image,
    is_top_link,
    overlay_kind,
)
from .formulas import formula, is_fallback_image, is_tex_script, twin_of_script
from .html import ABSOLUTE_URL, Document, Limits, PageError, check_deadline, join_url
from .inline import block_plain
from .words import is_spaced

__all__ = ["BLOCK_TAGS", "LIST_TAGS", "SKIP_TAGS", "segment"]

log = logging.getLogger("blockclf")

BLOCK_TAGS: Final = frozenset(
    """address article aside blockquote body caption center dd details dialog dir div dl dt
    fieldset figcaption figure footer form frameset h1 h2 h3 h4 h5 h6 header hgroup hr html li
    main menu nav ol p pre section summary table tbody td tfoot th thead tr ul legend noscript
    textarea select option""".split()
)
_HEADINGS: Final = {"h1": 1, "h2": 2, "h3": 3, "h4": 4, "h5": 5, "h6": 6}
#: elements that open a list level (``Block.list_depth``)
LIST_TAGS: Final = frozenset(("ul", "ol", "dl", "menu", "dir"))
_MAX_TOKENS: Final = 48
#: elements of prose: a furniture-named element holding one is page layout, not furniture
_PROSE_TAGS: Final = ("p", "h1", "h2", "h3", "h4", "h5", "h6", "li", "article", "section", "blockquote")
#: an element with more attributes than this costs enough to read (lxml finds each value by a
#: search from the first) that the page's time budget is checked after it, not only every 256
#: elements: a page of fewer such elements went unchecked past its first (199 tags of 9,999
#: attributes were read for 57 s against a 30 s budget)
_MANY_ATTRIBUTES: Final = 256

#: the attributes of an element that has none (never changed)
_NO_ATTRIBUTES: Final[dict[str, str]] = {}
#: inline elements the renderers keep, by the tag they are written as in `Block.rich` (struck-out
#: text, a corrected word or an old price, as ``del``)
_INLINE: Final = {"a": "a", "code": "code", "kbd": "code", "samp": "code", "tt": "code", "strong": "strong",
                  "b": "strong", "em": "em", "i": "em", "del": "del", "s": "del", "strike": "del", "img": "img",
                  "base": "base", "button": "button"}
#: an absolute web address with a host, its scheme in lower case
_PLAIN_ABSOLUTE: Final = re.compile(r"https?://[^/?#\s]")
#: what urljoin may rewrite in an absolute address: tabs, line breaks, parameters (;), an empty
#: query or fragment
_REWRITTEN: Final = re.compile(r"[\t\r\n;]|\?#|[?#]$")
_SAFE_URL: Final = re.compile(r"^(?:https?:|mailto:|ftp:|[^:/?#]*(?:[/?#]|$))", re.IGNORECASE)


#: an element's edge just before the next text: a word break in the text itself (``<time>``,
#: ``<button>``: "2024September 12" is two words), or a space in the written output only where
#: a small letter or a closing mark meets a capital ("color</span><span>Dorothy", a kicker's
#: '"Es wird bald beginnen"</span><span>Trump spricht') or a letter meets a digit
#: ("Item Weight</span><span>12 Oz"); the model reads the text as it was trained on. Where
#: ``<sup>`` or ``<sub>`` (or an element a style raises or lowers like them) or a formula's
#: variable (``<i>``, ``<var>``) starts or ends, where a link's text is a number, or where an
#: ordinal's letters follow a number, only a small letter and a capital are parted:
#: "29<sup>th</sup>", "CO<span style="vertical-align: sub">2</span>", "2<i>n</i>", a
#: footnote's mark ("preference<a href=#fn1>1</a>") and "3<span>rd</span>" stay joined
_SHOWN_EDGE, _WORD_EDGE = 1, 2
_JOINING_TAGS: Final = frozenset(("sup", "sub", "i", "var"))
#: the most rule holders a block records (`Block.rules`): those nearest the block
_MAX_RULES: Final = 4
_ORDINAL: Final = re.compile(r"(?:st|nd|rd|th)(?![^\W\d_])", re.IGNORECASE)
#: marks that end a phrase, after which a capital starts another one (`_shown_apart`). Not the
#: full stop, nor "::", which join the parts of a name in code ("celery.exceptions.</span><span>
#: Reject", "std::</span><span>String")
_CLOSING: Final = frozenset("!?:;)]")
#: quotes that close one only after a letter or a mark (Swedish opens with "”" too); the
#: guillemets and "“", which open quotes in some languages and close them in others, never do
_QUOTES: Final = frozenset("\"'\u201d\u2019")
#: a tag in the pending markup is written between these (private-use characters, taken out of
#: page text), so that page text is escaped once per block rather than piece by piece
_OPEN, _CLOSE, _QUOTE = "\ue000", "\ue001", "\ue002"
_MARKERS: Final = str.maketrans("", "", _OPEN + _CLOSE + _QUOTE)
#: how an image's tag starts in the pending markup
_IMG_OPEN: Final = _OPEN + "img "
#: characters no browser draws and no reader types, dropped from blocks' text: the zero-width
#: space (a line-break hint), the word joiner and a byte-order mark inside the page (as the
#: zero-width no-break space). They would split a word for any tokenizer ("foo\u200bbar"). Joiners
#: that shape letters (U+200C, U+200D) and soft hyphens stay
_UNDRAWN: Final = str.maketrans("", "", "\u200b\u2060\ufeff")


def _drawn(text: str) -> str:
    """``text`` without the characters of `_UNDRAWN`."""
    if text.isascii() or ("\u200b" not in text and "\u2060" not in text and "\ufeff" not in text):
        return text
    return text.translate(_UNDRAWN)


#: characters that shape or break the letters around them and are nothing at a block's edge,
#: where there is no letter on one side: an empty paragraph of a site's editor holds a lone
#: joiner (``<p>&zwj;</p>``), which would be written as a line that looks blank
_EDGE_MARKS: Final = "\u200c\u200d\u00ad "


def _folded(text: str) -> str:
    """``text`` with its runs of white space folded to one space and without `_EDGE_MARKS`
    at its two ends."""
    text = " ".join(text.split())
    return text if text.isascii() else text.strip(_EDGE_MARKS)


#: an inline style that sets an element as a subscript or superscript
_SHIFTED: Final = re.compile(r"vertical-align\s*:\s*(?:sub|super)", re.IGNORECASE)


def _is_shifted(style: str | None) -> bool:
    """True for an inline style that sets an element as a subscript or superscript ("CO<span
    style="vertical-align: sub">2</span>")."""
    return style is not None and "vertical-align" in style and _SHIFTED.search(style) is not None


#: punctuation that closes what comes before it: the space before a left-out badge is not kept before it
_CLOSING_PUNCTUATION = frozenset(".,;:!?)")


def _strip_before(rich: list[str]) -> None:
    """Drop the spaces that end the last text of ``rich`` (its tags, `_OPEN`..., passed over):
    they stood before furniture left out of it, a link's count of clicks or a badge."""
    for k in range(len(rich) - 1, -1, -1):
        if not rich[k].startswith(_OPEN):
            rich[k] = rich[k].rstrip(" ")
            return


def _shown_apart(end: str, text: str, joining: bool) -> bool:
    """True where the text before an element edge (its last two characters ``end``) and ``text``
    after it are written apart (`_SHOWN_EDGE`; ``joining``: an edge of `_JOINING_TAGS` or of a
    shifted element is there too, or ``text`` is a footnote's number). A letter and a digit are
    never parted in a script written without spaces ("玉峰村6鄰")."""
    after, before = text[:1], end[-1:]
    if after.isupper():
        if before in _QUOTES:
            return len(end) == 2 and not end[0].isspace() and end[0] not in "([{"
        return before.islower() or (before in _CLOSING and end != "::")
    if joining or not (before.isalnum() and after.isalnum()) or before.isdigit() == after.isdigit():
        return False
    return is_spaced(before + after) and not (before.isdigit() and _ORDINAL.match(text))


def _attr(value: str) -> str:
    """An attribute value for the pending markup (`_markup` escapes it)."""
    if not value.isascii():
        value = value.translate(_MARKERS)
    return value.replace('"', _QUOTE) if '"' in value else value


def _markup(raw: str) -> str:
    """The pending markup as `Block.rich`: page text escaped, the tags made tags."""
    text = escape(raw, False)
    if _OPEN in text:
        text = text.replace(_OPEN, "<").replace(_CLOSE, ">").replace(_QUOTE, "&quot;")
    return text


def _verbatim(code: str) -> str:
    """A code block's text without the blank lines around it and trailing spaces on lines."""
    lines = [line.rstrip() for line in code.replace("\r\n", "\n").replace("\r", "\n").split("\n")]
    while lines and not lines[0]:
        lines.pop(0)
    while lines and not lines[-1]:
        lines.pop()
    return "\n".join(lines)


def _attributes(el: etree._Element, doc: Document) -> dict[str, str]:
    """``el``'s attributes, read once; the page's time budget is checked after an element of
    many (`_MANY_ATTRIBUTES`), whose reading takes time growing with their square."""
    items = el.items()
    if not items:
        return _NO_ATTRIBUTES
    if len(items) > _MANY_ATTRIBUTES:
        check_deadline(doc)
    return cast("dict[str, str]", dict(items))  # an HTML tree's values are str


def _flat_text(el: etree._Element, skip_tags: frozenset[str], doc: Document, counts: list[int] | None = None) -> str:
    """Text of a subtree read without its structure, iteratively (past `Limits.max_depth`, and for
    a hidden element, whose own hiding is ignored; hidden elements inside it are left out, but not
    the parts of a consent dialog, which are seen whenever the dialog is).

    ``counts``, if given, receives ``[elements read, links, characters of link text]``. The
    page's time budget (``doc``) is checked after reading an element of many attributes.
    """
    out: list[str] = []
    todo: list[tuple[etree._Element | str, bool]] = [(el, False)]
    while todo:
        item, in_link = todo.pop()
        if isinstance(item, str):
            out.append(item)
            if in_link and counts is not None:
                counts[2] += len(" ".join(item.split()))
            continue
        if item is not el and item.tail:
            todo.append((item.tail, in_link))
        tag = item.tag.lower() if isinstance(item.tag, str) else None
        if tag is None or tag in skip_tags:
            continue
        if item is not el:
            attrib = _attributes(item, doc)
            if attrib and is_hidden(item, attrib, attrib.get("style")):
                continue
        link = in_link
        if tag == "a" and item.get("href") is not None:
            link = True
            if counts is not None:
                counts[1] += 1
        if counts is not None:
            counts[0] += 1
        sep = " " if tag in BLOCK_TAGS or tag == "br" else ""
        todo.append((sep, False))
        todo.extend((child, link) for child in reversed(item))
        todo.append((sep + (item.text or ""), link))  # a block-level element is set apart on both sides
    return "".join(out)


@lru_cache(maxsize=256)
def _origin(base: str) -> str | None:
    """``scheme://host`` of an absolute address, as urljoin writes it (None if unreadable)."""
    try:
        parts = urlsplit(base)
    except ValueError:
        return None
    return f"{parts.scheme}://{parts.netloc}" if parts.scheme and parts.netloc else None


#: a cell's column is counted up to this (a row of thousands of empty cells is not data to line up)
MAX_COLUMN: Final = 1000


def _span(cell: etree._Element) -> int:
    """A table cell's column span (1 to 100)."""
    span = cell.get("colspan")
    return min(max(int(span), 1), 100) if span and span.strip().isdigit() else 1


def _placed_cells(row: etree._Element) -> dict[etree._Element, tuple[int, int]]:
    """Each cell of a table row with its first column (spans of the cells before it counted,
    up to `MAX_COLUMN`) and its span."""
    placed: dict[etree._Element, tuple[int, int]] = {}
    column = 1
    for cell in row:
        if isinstance(cell.tag, str) and cell.tag.lower() in ("td", "th"):
            span = _span(cell)
            placed[cell] = (min(column, MAX_COLUMN), span)
            column += span
    return placed


def _footer_last(table: etree._Element) -> list[etree._Element]:
    """A table's children in the order a browser shows them: HTML lets ``<tfoot>`` come before
    the body's rows, and it is drawn below them (a long table repeating its header row at the
    foot would otherwise be written with the header twice at the top)."""
    children = list(table)
    tags = [c.tag.lower() if isinstance(c.tag, str) else "" for c in children]
    feet = [i for i, t in enumerate(tags) if t == "tfoot"]
    if not feet or not {"tbody", "tr"}.intersection(tags[feet[-1]:]):
        return children
    return [c for c, t in zip(children, tags) if t != "tfoot"] + [children[i] for i in feet]


class _Owner:
    """An open block-level element: what its blocks inherit, and its path once asked for."""

    __slots__ = ("ancestors", "column", "el", "heading", "lists", "number", "pre", "tables", "tag", "tokens", "xpath")

    def __init__(self, el: etree._Element, tag: str, tokens: tuple[str, ...], ancestors: tuple[str, ...],
                 heading: int, lists: int, tables: int, pre: bool) -> None:
        self.el = el
        self.tag = tag
        self.tokens = tokens
        self.ancestors = ancestors
        self.heading = heading
        self.lists = lists
        self.tables = tables
        self.pre = pre
        self.xpath: str | None = None
        self.number: int | None = None  # item number (li) or column span (td, th), once asked for
        self.column = 0  # a cell's first column in its row (td, th; 1-based), with its span


class _Segmenter:
    """One recursive pass over the tree, accumulating text into the open block.

    The walk carries each element's inherited context (class tokens, ancestor tags, heading,
    list and table depth, link and ``pre`` state) as arguments rather than per-element
    objects: segmentation runs on every element of every page, so per-element Python work is
    kept to a few attribute reads and comparisons.
    """

    def __init__(self, doc: Document, limits: Limits, include_noscript: bool, page_url: str | None,
                 reveal: bool = False) -> None:
        self.tree = doc.root.getroottree()
        self.reveal = reveal  # hidden elements (but consent dialogs and notices) read like visible ones
        self.revealing = 0  # depth of such elements around the walk
        self.pending_revealed = False  # the pending block holds text of one
        self.paths: dict[etree._Element, str] = {}
        self.siblings: dict[etree._Element, tuple[dict[etree._Element, int], dict[str, int]]] = {}
        self.doc = doc
        self.limits = limits
        self.skip_tags = SKIP_TAGS if include_noscript else SKIP_TAGS | {"noscript"}
        self.blocks: list[Block] = []
        self.pieces: list[str] = []
        self.link_chars = 0
        self.n_links = 0
        self.markup = 0
        self.n_nodes = 0
        self.owner: list[_Owner] = []  # stack of open block-level elements
        self.hidden: list[Block] = []  # hidden blocks waiting for the visible block around them
        self.headings: list[tuple[int, str]] = []
        self.heading_path: tuple[str, ...] = ()
        self.started = True  # the pending text starts its owner element
        # `Block.rich` of the pending block: None while it is just the escaped text
        self.rich: list[str] | None = None
        self.furniture = 0  # depth of furniture elements around the walk
        # furniture just ended, and its text was left out of `rich` (`add`'s close punctuation)
        self.after_furniture = False
        # links and images resolve against the page's address, or its <base> once one is read
        self.base: str | None = page_url if page_url and ABSOLUTE_URL.match(page_url) else None
        self.base_read = False
        self.numbers: dict[etree._Element, dict[etree._Element, int]] = {}
        #: per table row, each cell's first column and span
        self.cells: dict[etree._Element, dict[etree._Element, tuple[int, int]]] = {}
        # what the edge of an element just before the next text means (`_WORD_EDGE`, `_SHOWN_EDGE`)
        self.edge = 0
        self.joining = False  # an edge among them joins a letter and a digit (`mark_edge`)
        self.in_code = 0  # depth of inline code elements around the walk
        # a blank line, two line breaks with no text between, stands before the next block
        # (`Block.gap`); the blocks there were at the last ``<br>``
        self.gap = False
        self.br_blocks = -1
        self.rules: tuple[str, ...] = ()  # where the rules (``<hr>``) since the last block stand (`Block.rules`)
        #: the ids of the panels that the controls met so far open (`aria-controls` of an element that
        #: says whether it is expanded, or of a tab): an accordion's answers, a tab's content
        self.controlled: set[str] = set()

    def add(self, text: str, link: bool) -> None:
        edge = self.edge
        if edge:
            self.edge = 0
            joining = self.joining
            self.joining = False
            if edge == _WORD_EDGE:
                if text[:1].isalnum() and self.pieces and self.pieces[-1][-1:].isalnum():
                    text = " " + text  # "<time>2024</time><time>September 12</time>" is not "2024September 12"
            elif self.pieces and not self.furniture and _shown_apart(
                    self.pieces[-1][-2:], text, joining or (link and text.isdigit())):
                # shown apart, read as the page's text: the model was trained on the joined words
                if self.rich is None:
                    self.rich = list(self.pieces)
                self.rich.append(" ")
        rich = self.rich
        if rich is not None:
            if not self.furniture:
                if self.after_furniture:
                    self.after_furniture = False
                    if text[:1] in _CLOSING_PUNCTUATION and not self.in_code:
                        _strip_before(rich)  # "the survey <a>here <span>28</span></a>." reads "here."
                rich.append(text)
        elif self.furniture:
            self.rich = list(self.pieces)
        self.pieces.append(text)
        self.markup += len(text)
        if self.revealing:
            self.pending_revealed = True
        if link:
            self.link_chars += len(" ".join(text.split()))  # as the block text folds it

    def mark_edge(self, tag: str, layout: bool, joining: bool) -> None:
        """An element ``tag`` starts or ends before the next text (``layout``: a block element
        or code block, whose edges are not words apart within a line; ``joining``: one whose
        edges part no letter from a digit, `_JOINING_TAGS` or a `_is_shifted` style)."""
        edge = _WORD_EDGE if tag == "time" or tag == "button" else 0 if layout or self.in_code else _SHOWN_EDGE
        if edge and joining:
            self.joining = True
        if edge > self.edge:
            self.edge = edge

    def new_line(self) -> None:
        """Start a new line of the open code block, unless its text is at a line start already."""
        pieces = self.pieces
        if pieces and not pieces[-1].endswith("\n"):
            pieces.append("\n")
            if self.rich is not None:
                self.rich.append("\n")

    def put(self, tag: str) -> None:
        """Put an inline tag (written with `_OPEN` and `_CLOSE`) into the pending block's markup."""
        if self.rich is None:
            self.rich = list(self.pieces)
        self.rich.append(tag)

    def flush(self) -> None:
        if not self.pieces:
            self._images_to_previous()
            self.rich = None
            self.after_furniture = False
            self.started = False
            if self.hidden:
                self._emit_hidden()
            return
        raw = _drawn("".join(self.pieces))
        owner = self.owner[-1] if self.owner else None
        rich = self.rich
        code: str | None
        if rich is not None and (_OPEN in raw or _CLOSE in raw or _QUOTE in raw):
            # page text holding the marker characters: its markup cannot be told from it
            rich = [raw.translate(_MARKERS)]
        if owner is not None and owner.pre:
            lines = [" ".join(line.split()) for line in raw.splitlines()]
            text = "\n".join(line for line in lines if line)
            code = _verbatim(_markup(_drawn("".join(rich))) if rich is not None else escape(raw, False))
        else:
            text = _folded(raw)
            code = _folded(_markup(_drawn("".join(rich)))) if rich is not None else None
        if text:
            self._emit(text, owner, code)
        else:
            self._images_to_previous()
        self.pending_revealed = False
        self.pieces = []
        self.rich = None
        self.after_furniture = False
        self.link_chars = 0
        self.n_links = 0
        self.markup = 0
        self.started = False
        if self.hidden:
            self._emit_hidden()

    def _images_to_previous(self) -> None:
        """Hand the images of an element that ends without text of its own (a photo in its
        ``<figure>`` or ``<div>``) to the block before it (`Block.images`): blocks are runs of
        text, and the image would otherwise be lost to ``--images``. A heading's (an article's
        lead photo after its headline) are written on a line of their own; never to code, a
        hidden block or furniture."""
        rich = self.rich
        if not rich or not self.blocks:
            return
        images = [piece for piece in rich if piece.startswith(_IMG_OPEN)]
        prev = self.blocks[-1]
        if not images or prev.hidden or prev.rich == "" or "pre" in prev.ancestors:
            return
        markup = _markup("".join(images))
        self.blocks[-1] = replace(prev, images=prev.images + markup if prev.images else markup)

    def _emit_hidden(self) -> None:
        for b in self.hidden:
            self.blocks.append(replace(b, index=len(self.blocks), heading_path=self.heading_path))
        self.hidden.clear()

    def _hide(self, el: etree._Element, tag: str, tokens: tuple[str, ...], ancestors: tuple[str, ...],
              lists: int, tables: int, link: bool, consent: bool, notice: bool) -> None:
        """One flagged block for a hidden element's text, placed after the visible block around it.

        The visible text around the element reads exactly as if the element were absent.
        ``consent``: the element is a consent manager's dialog (`Block.consent`); ``notice``: a
        site's notice over the page (`Block.notice`).
        """
        counts = [0, 0, 0]
        text = _folded(_drawn(_flat_text(el, self.skip_tags, self.doc, counts)))
        if not text:
            return
        link_chars = len(text) if link else min(len(text), counts[2])
        self.hidden.append(Block(
            index=-1, text=text, tag=tag, xpath=self._path(el), depth=len(ancestors), list_depth=lists,
            table_depth=tables, link_chars=link_chars, n_links=counts[1], markup_bytes=len(text) + 20 * counts[0],
            tokens=tokens, ancestors=ancestors + (tag,), starts_element=True, hidden=True, consent=consent,
            notice=notice))

    def _number(self, owner: _Owner) -> int:
        """An ``li``'s number in its ordered list (0 in others), a cell's column span (and its
        first column, set on the owner)."""
        el = owner.el
        parent = el.getparent()
        if owner.tag in ("td", "th"):
            spot = None
            if parent is not None:
                placed = self.cells.get(parent)
                if placed is None:  # each row's cells are placed once
                    placed = self.cells[parent] = _placed_cells(parent)
                spot = placed.get(el)
            owner.column, span = spot if spot is not None else (0, _span(el))
            return span
        if parent is None or not isinstance(parent.tag, str) or parent.tag.lower() != "ol":
            return 0
        numbered = self.numbers.get(parent)
        if numbered is None:  # each list's items are numbered once
            items = [c for c in parent if isinstance(c.tag, str) and c.tag.lower() == "li"]
            step = -1 if parent.get("reversed") is not None else 1
            start = parent.get("start", "").strip()
            n = int(start) if start.lstrip("-").isdigit() else (len(items) if step < 0 else 1)
            numbered = self.numbers[parent] = {}
            for item in items:
                value = item.get("value", "").strip()
                if value.lstrip("-").isdigit():
                    n = int(value)
                numbered[item] = n
                n += step
        return numbered.get(el, 0)

    def _item_and_cell(self, want_item: bool, want_cell: bool) -> tuple[int, int, int]:
        """The number of the innermost list item, and the column span and first column of the
        innermost table cell around the pending block (0, 1 and 0 when there is none), each
        counted once."""
        number, colspan, column = 0, 1, 0
        for o in reversed(self.owner):
            if want_item and o.tag == "li":
                if o.number is None:
                    o.number = self._number(o)
                number, want_item = o.number, False
            elif want_cell and o.tag in ("td", "th"):
                if o.number is None:
                    o.number = self._number(o)
                colspan, column, want_cell = o.number, o.column, False
            if not (want_item or want_cell):
                break
        return number, colspan, column

    def _emit(self, text: str, owner: _Owner | None, rich: str | None = None) -> None:
        xpath: str | None
        tokens: tuple[str, ...]
        ancestors: tuple[str, ...]
        if owner is None:
            tag, xpath, depth, tokens, ancestors = "html", "/html", 0, (), ("html",)
            heading, lists, tables = 0, 0, 0
        else:
            xpath = owner.xpath
            if xpath is None:
                xpath = owner.xpath = self._path(owner.el)
            assert xpath is not None
            tag, depth, tokens, ancestors = owner.tag, len(owner.ancestors) - 1, owner.tokens, owner.ancestors
            heading, lists, tables = owner.heading, owner.lists, owner.tables
        number, colspan, column, lang = 0, 1, 0, ""
        if (lists or tables) and owner is not None:
            number, colspan, column = self._item_and_cell(bool(lists), bool(tables))
        if owner is not None and owner.pre and owner.tag == "pre":
            lang = code_lang(owner.el)
        if heading:
            popped = False
            while self.headings and self.headings[-1][0] >= heading:
                self.headings.pop()
                popped = True
            if popped:
                self.heading_path = tuple(h[1] for h in self.headings)
        link_chars = min(self.link_chars, len(text))
        self.blocks.append(
            Block(
                index=len(self.blocks),
                text=text,
                tag=tag,
                xpath=xpath,
                depth=depth,
                heading_path=self.heading_path,
                heading_level=heading,
                list_depth=lists,
                table_depth=tables,
                link_chars=link_chars,
                n_links=self.n_links,
                markup_bytes=max(self.markup, len(text)),
                tokens=tokens,
                ancestors=ancestors,
                starts_element=self.started,
                rich=rich,
                lang=lang,
                number=number,
                colspan=colspan,
                column=column,
                hidden=self.pending_revealed,
                gap=self.gap,
                rules=self.rules,
            )
        )
        self.gap = False
        self.rules = ()
        if heading:  # a section is named as its heading reads, without its permalink's glyph
            name = (block_plain(self.blocks[-1]) if rich else text)[:200] or text[:200]
            self.headings.append((heading, name))
            self.heading_path = self.heading_path + (name,)

    def _path(self, el: etree._Element) -> str:
        """The element path lxml's ``getpath`` writes, built from the parent's path.

        ``getpath`` walks to the root and scans earlier siblings at every level on each call
        (quadratic under a parent with tens of thousands of children); here each parent's
        path is made once and its children are counted once.
        """
        path = self.paths.get(el)
        if path is not None:
            return path
        parent = el.getparent()
        if parent is None:
            path = self.tree.getpath(el)
        else:
            counted = self.siblings.get(parent)
            if counted is None:
                position: dict[etree._Element, int] = {}
                per_tag: dict[str, int] = {}
                for child in parent:
                    if isinstance(child.tag, str):
                        position[child] = per_tag[child.tag] = per_tag.get(child.tag, 0) + 1
                counted = self.siblings[parent] = (position, per_tag)
            position, per_tag = counted
            base = self._path(parent)
            path = f"{base}/{el.tag}[{position[el]}]" if per_tag[el.tag] > 1 else f"{base}/{el.tag}"
        self.paths[el] = path
        return path

    def _href(self, url: str | None) -> str | None:
        """A link or image address resolved against ``<base>``; None when not safe to follow."""
        if not url:
            return None
        url = url.strip()
        if not _SAFE_URL.match(url):
            return None  # javascript:, data:, vbscript: and other schemes
        if not self.base:
            return url
        if not _REWRITTEN.search(url):  # addresses urljoin gives back as they are, or rooted at the origin
            if _PLAIN_ABSOLUTE.match(url):  # most links are absolute already
                return url
            if url[:1] == "/" and url[1:2] != "/" and "/." not in url:
                origin = _origin(self.base)
                if origin is not None:
                    return origin + url
        return join_url(self.base, url)

    def _open(self, attrib: dict[str, str], inline: str, in_table: bool) -> str | None:
        """Open an inline element (its ``attrib``) in `Block.rich`; the closing tag, or None when none is due."""
        if inline == "a":
            href = attrib.get("href")
            # a named anchor, a script address, or "#" (a script's handle: "Select all", "Show more"):
            # the text stays, unlinked
            url = self._href(href) if href is None or href.strip() != "#" else None
            if url is None:
                return None
            self.put(f'{_OPEN}a href="{_attr(url)}"{_CLOSE}')
            return f"{_OPEN}/a{_CLOSE}"
        if inline == "img":
            # an icon in a table cell may be what the cell says (a status, a flag); elsewhere it is furniture
            small = is_small_image(attrib)
            drawn = not small or (small != DOT and in_table)
            src = self._href(image_source(attrib)) if drawn else None
            if src is not None:
                alt = " ".join((attrib.get("alt") or "").split())
                self.put(f'{_OPEN}img src="{_attr(src)}" alt="{_attr(alt)}"{_CLOSE}')
            return None
        self.put(f"{_OPEN}{inline}{_CLOSE}")
        return f"{_OPEN}/{inline}{_CLOSE}"

    def _formula(self, el: etree._Element, tag: str, attrib: dict[str, str], link: bool,
                 parent_link: bool | None, pre: bool) -> None:
        """Read a formula (`blockclf.formulas`) as text where it stands; TeX, between ``$``, is
        marked in `Block.rich` so that Markdown writes it as it is, unescaped."""
        text, tex = formula(el, tag, attrib)
        if text:
            marked = tex and not (pre or self.furniture or self.in_code)
            self.mark_edge(tag, False, False)
            if marked:
                self.put(f"{_OPEN}math{_CLOSE}")
            self.add(text, link)
            if marked:
                self.put(f"{_OPEN}/math{_CLOSE}")
            self.mark_edge(tag, False, False)
        if parent_link is not None:
            tail = el.tail
            if tail:
                self.add(tail, parent_link)

    def run(self) -> list[Block]:
        root = self.doc.root
        if isinstance(root.tag, str):
            try:
                self._element(root, None, (), (), 0, 0, 0, False, False)
            except RecursionError:  # only with a max_depth near the interpreter's recursion limit
                raise PageError("too-deep", "page nesting is deeper than this interpreter can walk") from None
        self.flush()
        return self.blocks

    def _element(self, el: etree._Element, parent_link: bool | None, tokens: tuple[str, ...],
                 ancestors: tuple[str, ...], heading: int, lists: int, tables: int, link: bool,
                 pre: bool) -> None:
        """Walk one element given its parent's context; ``parent_link`` is None at the root."""
        self.n_nodes += 1
        in_pre = pre  # inside <pre>, a block element is a line of the code, not a block of its own
        limits = self.limits
        if self.n_nodes > limits.max_nodes:
            raise PageError("too-many-nodes", f"page has over {limits.max_nodes} elements")
        if not self.n_nodes & 255:
            check_deadline(self.doc)
        tag = el.tag.lower()
        too_deep = len(ancestors) >= limits.max_depth
        if too_deep and "too-deep" not in self.doc.warnings:
            self.doc.warnings.append("too-deep")
        # read once: each lookup through lxml decodes the attribute again, and a page's elements
        # are looked up a dozen times each (hidden, consent, tokens, furniture, links)
        attrib = _attributes(el, self.doc)
        n_attrib = len(attrib)
        skipped = tag in self.skip_tags
        if ((tag == "math" or (skipped and tag == "script" and is_tex_script(attrib))
                or (tag == "img" and n_attrib and is_fallback_image(attrib)))
                and not (n_attrib and tag == "math" and is_hidden(el, attrib, attrib.get("style")))):
            self._formula(el, tag, attrib, link, parent_link, pre)
            return
        if n_attrib and not skipped:
            named = attrib.get("class")
            if named and (("MathJax" in named and twin_of_script(el, named)) or is_edit_link(named)):
                # a formula's drawing (its TeX script, next, is read instead); a wiki's "[edit]"
                # beside each heading, a control for the site's editors
                skipped = True
        if n_attrib and "aria-controls" in attrib and ("aria-expanded" in attrib or attrib.get("role") == "tab"):
            self.controlled.update(attrib["aria-controls"].split())  # a control comes before what it opens
        style = attrib.get("style") if n_attrib and not skipped else None
        overlay = overlay_kind(tag, attrib) if n_attrib and not skipped else 0
        consent, notice = overlay == CONSENT, overlay == NOTICE
        hidden = overlay > 0 or (not skipped and n_attrib and is_hidden(el, attrib, style))
        if hidden and not overlay and is_hidden_dialog(tag, attrib):
            overlay, notice = NOTICE, True
        elif hidden and not overlay and not self.revealing and is_disclosure_panel(
                el, attrib, attrib.get("id", "") in self.controlled):
            hidden = False  # a tab's or an accordion's panel: the page's text behind a click
        revealed = False
        if hidden and self.reveal and not overlay:  # read like a visible element, its blocks flagged hidden
            if self.revealing:  # hidden inside such an element: left out, as its flat reading leaves it
                hidden, skipped = False, True
            else:
                hidden, revealed = False, True
                self.revealing += 1
        if too_deep and not (skipped or hidden):  # nested past the limit: its text joins this block, unstructured
            self.add(_flat_text(el, self.skip_tags, self.doc), link)
        if hidden and not too_deep:
            own = class_tokens(attrib)
            self._hide(el, tag, (tokens + own)[-_MAX_TOKENS:] if parent_link is not None else own, ancestors,
                       lists + (tag in LIST_TAGS), tables + (tag == "table"), link, consent, notice)
        if skipped or hidden or too_deep:
            if revealed:
                self.revealing -= 1
            if parent_link is not None:
                tail = el.tail
                if tail:
                    self.add(tail, parent_link)
            return
        if n_attrib:
            own = class_tokens(attrib)
            if own:
                tokens = (tokens + own)[-_MAX_TOKENS:] if parent_link is not None else own
        ancestors = ancestors + (tag,)
        if tag in _HEADINGS:
            heading = _HEADINGS[tag]
        elif tag in LIST_TAGS:
            lists += 1
        elif tag == "table":
            tables += 1
        elif tag == "a" and attrib.get("href") is not None:  # named anchors are not links
            link = True
            self.n_links += 1
        elif tag == "pre":
            pre = True
        close = None  # what closes this element in `Block.rich`
        furniture = False
        cls = ""
        if n_attrib:
            cls = attrib.get("class") or ""
            if cls:
                furniture = is_furniture(cls)
        inline = _INLINE.get(tag)
        if (furniture and inline is None and next(el.iter(*_PROSE_TAGS), None) is not None
                and not is_badge(cls)):
            furniture = False  # a layout element named like furniture ("gutter" of a grid) holding prose
        if inline is not None and not furniture:
            if inline == "button":
                furniture = is_furniture_button(el)
            elif inline == "base":
                href = attrib.get("href")
                if href and not self.base_read:  # the first <base> counts, as in browsers
                    self.base_read = True
                    base = join_url(self.base, href.strip()) if self.base else href.strip()
                    self.base = base if base and _SAFE_URL.match(base) else self.base
            elif inline == "a" and attrib.get("href", "").startswith("#") and (is_anchor_glyph(el) or is_top_link(el)):
                furniture = True
            elif not pre and not self.furniture:
                close = self._open(attrib, inline, tables > 0)
        if furniture:
            if self.rich is None:
                self.rich = list(self.pieces)
            self.furniture += 1
        self.markup += 2 * len(tag) + 5 + 12 * n_attrib
        block = tag in BLOCK_TAGS
        if in_pre and block:
            block = False
            self.new_line()
        elif block or tag == "br":
            if self.pieces:
                self.flush()
            elif self.hidden:
                self._emit_hidden()
            self.started = True
            if block:
                self.gap, self.br_blocks = False, -1
                if tag == "hr":
                    holder = el.getparent()
                    where = self._path(holder) if holder is not None else ""  # "": the whole page
                    if where not in self.rules:  # the nearest few: a page of 40,000 boxed rules costs no more
                        self.rules = (self.rules + (where,))[-_MAX_RULES:]
            else:  # a second <br> with no text since the first ends a paragraph
                self.gap = self.gap or (self.br_blocks == len(self.blocks) and len(self.blocks) > 0)
                self.br_blocks = len(self.blocks)
            if block:
                self.owner.append(_Owner(el, tag, tokens, ancestors, heading, lists, tables, pre))
            elif self.owner and self.owner[-1].pre:
                self.pieces.append("\n")
                if self.rich is not None:
                    self.rich.append("\n")
        code = inline == "code"
        if code:
            self.in_code += 1
        layout = block or pre
        joining = tag in _JOINING_TAGS or (not layout and _is_shifted(style))
        self.mark_edge(tag, layout, joining)
        text = el.text
        if text:
            self.add(text, link)
        for child in (_footer_last(el) if tag == "table" else el):
            if isinstance(child.tag, str):
                self._element(child, link, tokens, ancestors, heading, lists, tables, link, pre)
            else:  # comments, entities, processing instructions: only their tail is page text
                tail = child.tail
                if tail:
                    self.add(tail, link)
        if close is not None:
            self.put(close)
        if code:
            self.in_code -= 1
        self.mark_edge(tag, layout, joining)
        if furniture:
            self.furniture -= 1
            self.after_furniture = not self.furniture
        if block:
            self.flush()
            self.owner.pop()
        elif in_pre and tag in BLOCK_TAGS:
            self.new_line()
        if revealed:
            self.revealing -= 1
        if parent_link is not None:
            tail = el.tail
            if tail:
                self.add(tail, parent_link)


def segment(doc: Document, limits: Limits | None = None, include_noscript: bool = True,
            page_url: str | None = None, reveal: bool = False) -> list[Block]:
    """Return the page's blocks in document order.

    ``<noscript>`` content is read by default: many pages (forums, old portals) carry their
    main text there for crawlers, and the ``in_noscript`` feature lets the model weigh it.
    ``include_noscript=False`` reads the page as a browser with scripts on shows it.
    Text that the parser put in ``<head>`` (pages whose markup pushes body content there) is
    read like any other; only ``<title>`` is metadata. Links and images in `Block.rich`
    are resolved against the page's ``<base>`` and its address (``page_url``, else the one
    the page gives, `Document.url`), when that is absolute.

    A hidden element is one block of flat text flagged `Block.hidden`, placed after the
    visible block around it. With ``reveal``, hidden elements (but consent dialogs and site
    notices) are read like visible ones, with their headings, paragraphs and lists, and every
    block holding their text is flagged hidden: the reading of a page that hides its content
    until scripts run.
    """
    return _Segmenter(doc, limits or Limits(), include_noscript, page_url or doc.url, reveal).run()
