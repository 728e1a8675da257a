"""The page structure around each kept block, rebuilt from the block records alone.

A block knows its element path and its ancestors' tags; the structural ones among them
(lists and items, definition lists, tables, rows and cells, quotes, code, headings) are its
*chain*, outermost first, each named by its element path. Blocks that share an element in
their chains sat in the same list, table or quote on the page, so the renderers can rebuild
it without the parsed tree (which a streaming batch no longer holds at render time).

Tables that lay out a page rather than hold data (a heading, code or another table inside,
or a cell with a whole article in it) are left out of the chains: their content is written
as ordinary blocks.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from html import escape
from typing import TYPE_CHECKING

from .block import Block
from .metrics import tokens
from .readers import readers_comments
from .threads import BODY, HEADER

if TYPE_CHECKING:
    from .result import Result

__all__ = ["COMMENTS_HEADING", "HEADING_TAGS", "LIST_ELEMENTS", "STRUCTURAL", "Item", "cell_gap", "comments_apart",
           "headline", "kept_items", "pictures_before", "post_breaks", "ruled", "titled", "without_empty_columns"]

LIST_ELEMENTS = frozenset(("ul", "ol", "menu", "dir"))
_TABLE_PARTS = frozenset(("table", "thead", "tbody", "tfoot", "tr", "td", "th", "caption"))
#: the heading elements
HEADING_TAGS = frozenset(("h1", "h2", "h3", "h4", "h5", "h6"))
STRUCTURAL = LIST_ELEMENTS | _TABLE_PARTS | HEADING_TAGS | frozenset(("li", "dl", "dt", "dd", "blockquote", "pre"))
#: elements that `_without` leaves out of a chain by their own path (a table by its parts)
_LAYOUT_PARTS = LIST_ELEMENTS | frozenset(("blockquote", "li"))
#: a table cell with more text than this holds an article, not a value
_LAYOUT_CELL_CHARS = 1500
#: a table of at most this many cells with text, one of them holding two paragraphs of prose
#: (`_prose`), or one of `_PROSE_CELL_CHARS`, and half the table's text, lays out an article or
#: a post; a table of more cells holds data, whatever one cell says (a product's features in a
#: row of its specifications)
_PROSE_TABLE_CELLS = 3
_PROSE_CHARS = 80
#: a cell holding one paragraph of prose this long holds an article's paragraph, not a value
_PROSE_CELL_CHARS = 300
#: a ``<blockquote>`` holding this share of a page's kept text, when that is this long or
#: longer, indents the page rather than quotes (`_layout_quotes`); so does a list's only kept
#: item holding paragraphs of prose (`_layout_items`)
_LAYOUT_SHARE = 0.9
_LAYOUT_MIN_CHARS = 500
#: paragraphs of prose (`_prose`) that a list's only kept item holds when it lays out the page
_LAYOUT_ITEM_PROSE = 2
#: a heading this long ending as a sentence does, or any heading of `_LONG_HEADING_CHARS`, is
#: written as a paragraph (`_paragraph_heading`)
_SENTENCE_HEADING_CHARS = 120
_LONG_HEADING_CHARS = 250
_SENTENCE_END = frozenset(".!?\"”。！？")
#: a block repeating the headline outside a heading is not written again when at most this
#: many short lines (`_LEAD_WORDS` words or fewer: a kicker, a date, a byline) come before it
_LEAD_LINES = 3
_LEAD_WORDS = 12
#: an ``<h1>`` that does not say the headline heads the document only when at most this much
#: kept text comes before it (a kicker, a date, a standfirst) and under half of it (`headline`)
_LEAD_CHARS = 600


@dataclass(frozen=True, slots=True)
class Item:
    """A kept block to write, with the structural elements around it (``(path, tag)`` pairs)."""

    block: Block
    chain: tuple[tuple[str, str], ...]
    #: a rule goes before the block: it opens the next post of a thread page (`post_breaks`),
    #: or the page draws one between it and the kept text before it (`ruled`)
    post_break: bool = False
    #: images (`Block.images` markup) that stand between a removed block and this one, the
    #: first kept after it: an article's photo set before its first paragraph, or before its
    #: headline, goes with the removed kicker or byline before it (`pictures_before`)
    images_before: str | None = None

    @property
    def own(self) -> bool:
        """True when the block's own element is the innermost structural one (a ``li``, ``td``...)."""
        return bool(self.chain) and self.chain[-1][0] == self.block.xpath


def _chain(block: Block) -> tuple[tuple[str, str], ...]:
    steps = block.xpath.split("/")[1:]
    tags = block.ancestors
    if len(steps) != len(tags):  # a path lxml wrote differently (namespaces): no structure known
        return ()
    out = []
    end = 0  # where the path of the step read so far ends in the block's own
    in_table = False
    for step, tag in zip(steps, tags):
        end += len(step) + 1
        if tag not in STRUCTURAL:
            continue
        if tag == "table":
            in_table = True
        elif tag in _TABLE_PARTS and not in_table:
            continue  # a row or cell whose table a broken tag swallowed: a browser shows no table
        out.append((block.xpath[:end], tag))
    return tuple(out)


def _prose(block: Block) -> bool:
    """The block reads as a paragraph of prose: long, and ending as a sentence does."""
    text = block.text.rstrip()
    return len(text) >= _PROSE_CHARS and text[-1] in _SENTENCE_END


def _layout_tables(items: list[tuple[Block, tuple[tuple[str, str], ...]]]) -> set[str]:
    """Paths of the tables that lay the page out rather than hold data: a heading, code or
    another table inside, a cell holding an article, or a single column (each row's text in
    its first cell: a photo's caption boxed in a table, a teaser list laid out in rows), or a
    single kept cell, wherever it stands (a byline set beside an empty cell); or a
    table of a few cells, one of which holds paragraphs of prose and most of its text (an
    article set in a cell beside an empty one, a forum post beside its poster's name)."""
    layout: set[str] = set()
    cell_chars: dict[str, int] = {}
    cell_prose: dict[str, int] = {}
    cells: dict[str, set[str]] = {}  # per table, its cells with text
    row_cells: dict[str, dict[str, str]] = {}  # per table, the first cell of each row with text
    wide: set[str] = set()  # tables with a row of two cells or more with text
    for block, chain in items:
        tables = [i for i, (_, tag) in enumerate(chain) if tag == "table"]
        if not tables:
            continue
        layout.update(chain[i][0] for i in tables[:-1])  # a table holding a table
        table = chain[tables[-1]][0]
        inner = chain[tables[-1]:]
        if block.heading_level or block.tag == "pre" or any(tag == "pre" for _, tag in inner):
            layout.add(table)
        cell = next((path for path, tag in reversed(inner) if tag in ("td", "th")), None)
        if cell is not None:
            cell_chars[cell] = cell_chars.get(cell, 0) + len(block.text)
            cell_prose[cell] = cell_prose.get(cell, 0) + _prose(block)
            cells.setdefault(table, set()).add(cell)
            if cell_chars[cell] > _LAYOUT_CELL_CHARS:
                layout.add(table)
            row = next((path for path, tag in reversed(inner) if tag == "tr"), table)
            first = row_cells.setdefault(table, {}).setdefault(row, cell)
            if first != cell or block.column > 1:  # a second cell with text, or one after an empty cell
                wide.add(table)
    layout.update(t for t in row_cells if t not in wide)
    for table, in_table in cells.items():
        if len(in_table) == 1:  # one cell kept (a byline boxed beside an empty cell): nothing to tabulate
            layout.add(table)
        elif len(in_table) <= _PROSE_TABLE_CELLS:
            total = sum(cell_chars[c] for c in in_table)
            if any((cell_prose[c] >= 2 or (cell_prose[c] and cell_chars[c] >= _PROSE_CELL_CHARS))
                   and 2 * cell_chars[c] >= total for c in in_table):
                layout.add(table)
    return layout


def _layout_quotes(items: list[tuple[Block, tuple[tuple[str, str], ...]]]) -> set[str]:
    """Paths of the ``<blockquote>`` elements that indent the page rather than quote: one that
    holds a heading and text under it (not a pull quote set as a heading), or
    `_LAYOUT_SHARE` of the kept text of a page that keeps `_LAYOUT_MIN_CHARS` or
    more (old pages indent their whole body so; a quote stands apart from the text around it,
    and a quote that is the page's whole text marks nothing)."""
    total = 0
    chars: dict[str, int] = {}
    headed: set[str] = set()
    told: set[str] = set()  # those holding text other than headings
    for block, chain in items:
        total += len(block.text)
        for path, tag in chain:
            if tag == "blockquote":
                chars[path] = chars.get(path, 0) + len(block.text)
                (headed if block.heading_level else told).add(path)
    return {path for path, n in chars.items() if (path in headed and path in told)
            or (total >= _LAYOUT_MIN_CHARS and n >= _LAYOUT_SHARE * total)}


def _layout_items(items: list[tuple[Block, tuple[tuple[str, str], ...]]]) -> set[str]:
    """Paths of the list items (and the lists holding them) that lay the page out rather than
    list: a list's only kept item holding `_LAYOUT_SHARE` of the kept text of a page that
    keeps `_LAYOUT_MIN_CHARS` or more, among it paragraphs of prose (a theme that sets each
    post in an ``<li>`` of its own: the whole article, or a forum's whole thread, written as
    one bullet). A table of contents, whose root item holds every entry, holds no prose."""
    total = 0
    chars: dict[str, int] = {}
    prose: dict[str, int] = {}
    lists: dict[str | None, set[str]] = {}  # per list (None: an item in no list), its kept items
    list_of: dict[str, str | None] = {}
    for block, chain in items:
        total += len(block.text)
        for n, (path, tag) in enumerate(chain):
            if tag == "li":
                chars[path] = chars.get(path, 0) + len(block.text)
                prose[path] = prose.get(path, 0) + _prose(block)
                owner = chain[n - 1][0] if n and chain[n - 1][1] in LIST_ELEMENTS else None
                lists.setdefault(owner, set()).add(path)
                list_of[path] = owner
    if total < _LAYOUT_MIN_CHARS:
        return set()
    out: set[str] = set()
    for path, n in chars.items():
        owner = list_of[path]
        if (n >= _LAYOUT_SHARE * total and prose[path] >= _LAYOUT_ITEM_PROSE
                and (owner is None or len(lists[owner]) == 1)):
            out.add(path)
            if owner is not None:
                out.add(owner)
    return out


def _without(chain: tuple[tuple[str, str], ...], layout: set[str]) -> tuple[tuple[str, str], ...]:
    """``chain`` without the parts of the layout tables, quotes and list items in ``layout``."""
    out = []
    skipping = False
    for path, tag in chain:
        if tag == "table":
            skipping = path in layout
        if (skipping and tag in _TABLE_PARTS) or (tag in _LAYOUT_PARTS and path in layout):
            continue
        out.append((path, tag))
    return tuple(out)


def _joined_headings(blocks: list[Block]) -> list[Block]:
    """Blocks with a heading cut by ``<br>`` into lines joined into one heading: a browser
    shows one heading on two lines, and a Markdown heading cannot hold a line break."""
    out: list[Block] = []
    run: list[Block] = []  # the lines of the heading being read

    def end_run() -> None:
        if len(run) > 1:
            rich = None if all(b.rich is None for b in run) else " ".join(map(_rich, run))
            out.append(replace(run[0], text=" ".join(b.text for b in run), rich=rich, index=run[-1].index))
        else:
            out.extend(run)
        run.clear()

    for b in blocks:
        last = run[-1] if run else None
        if not (last is not None and b.heading_level == last.heading_level and b.xpath == last.xpath
                and b.index == last.index + 1):
            end_run()
        if b.heading_level:
            run.append(b)
        else:
            out.append(b)
    end_run()
    return out


def _paragraph_heading(block: Block) -> bool:
    """A heading element that holds a paragraph: sentences of `_SENTENCE_HEADING_CHARS` or
    more (a story's first sentence, an SEO page's blurb set in an ``<h1>``), or a text of
    `_LONG_HEADING_CHARS` or more. No headline is that long, and a Markdown heading of it
    reads as a shout."""
    text = block.text.rstrip()
    return len(text) >= _LONG_HEADING_CHARS or (len(text) >= _SENTENCE_HEADING_CHARS and text[-1] in _SENTENCE_END)


def _as_paragraph(block: Block) -> tuple[Block, tuple[tuple[str, str], ...]]:
    """A `_paragraph_heading` as a paragraph, with its chain: no heading level, no heading element."""
    return replace(block, heading_level=0), tuple((p, t) for p, t in _chain(block) if t not in HEADING_TAGS)


def _rich(block: Block) -> str:
    return block.rich if block.rich is not None else escape(block.text, False)


def kept_items(res: Result) -> list[Item]:
    """The kept blocks that have something to show (not only furniture), with their chains."""
    kept = [b for b, k in zip(res.blocks, res.kept) if k and b.rich != ""]
    pairs = [_as_paragraph(b) if b.heading_level and _paragraph_heading(b) else (b, _chain(b))
             for b in _joined_headings(kept)]
    layout = _layout_tables(pairs) | _layout_quotes(pairs) | _layout_items(pairs)
    breaks = post_breaks(res, [b for b, _ in pairs])
    rules = ruled(res)
    before = pictures_before(res)
    items = []
    written: set[str] = set()  # the tables and definition lists written as one around the block before
    for b, chain in pairs:
        if layout:
            chain = _without(chain, layout)
        holders = rules.get(b.index)
        inside = _written_as_one(chain)
        rule = holders is not None and not _cuts(holders, inside)
        # no break inside a table or a definition list written as one (between its rows, or a
        # term and its definition): a thread's post or a page's rule before one of its parts
        brk = (id(b) in breaks or rule) and not (inside & written)
        items.append(Item(b, chain, brk, before.get(b.index)))
        written = inside
    return items


#: the parts of a table or a definition list that a rule drawn inside it would cut apart in
#: Markdown: its cells, a term and its definition (`_cuts`)
_PARTED = frozenset(("td", "th", "dt", "dd"))


def ruled(res: Result) -> dict[int, list[str]]:
    """Per kept block that the page sets apart from the kept text before it by a rule, its
    ``index`` and the element paths of the elements holding those rules (`Block.rules`: an
    ``<hr>`` anywhere between the two, in an element that holds one of them): a break between
    an article's parts, or between the entries of a page of several. The rules of a box
    between them that holds neither (an advertisement's, around its label) draw nothing, nor
    does a rule before the first kept text or after the last."""
    out: dict[int, list[str]] = {}
    pending: list[str] = []
    last: str | None = None  # the element path of the kept block before
    for b, k in zip(res.blocks, res.kept):
        if b.rules:
            pending += b.rules
        if k and b.rich != "":
            if pending and last is not None:
                holders = [p for p in pending if _holds(p, last) or _holds(p, b.xpath)]
                if holders:
                    out[b.index] = holders
            pending, last = [], b.xpath
    return out


def _written_as_one(chain: tuple[tuple[str, str], ...]) -> set[str]:
    """The paths of the tables and definition lists written as one around the block (``chain``,
    laid out: a layout table's parts are gone, and text in a table but in no cell is no table's)."""
    parts = set()
    container = None
    for path, tag in chain:
        if tag == "table" or tag == "dl":
            container = path
        elif container is not None and tag in _PARTED:
            parts.add(container)
    return parts


def _cuts(holders: list[str], parts: set[str]) -> bool:
    """True when every rule of ``holders`` stands inside a table or a definition list that is
    written as one around the block (``parts``, `_written_as_one`), where a rule would part its
    rows, cells, or a term from its definition; a rule before such a list or table is drawn."""
    return bool(parts) and all(any(_holds(part, h) for part in parts) for h in holders)


def _holds(path: str, xpath: str) -> bool:
    """True when the element at ``path`` is the element at ``xpath`` or holds it."""
    return xpath == path or xpath.startswith(path + "/")


def pictures_before(res: Result) -> dict[int, str]:
    """Per kept block's ``index``, the images (`Block.images`) of the removed block right before
    it: an image in an element without text goes with the block before it, and where that block
    is removed (a kicker, a byline, a share bar) while the next is kept, the image stands where
    the kept text starts, which is where a lead photo stands. Not a comment's, a consent
    dialog's or a notice's."""
    out: dict[int, str] = {}
    blocks = res.blocks
    kept = res.kept.tolist()
    comment = res.comment.tolist() if res.comment is not None and len(res.comment) == len(blocks) else None
    for i in range(1, len(blocks)):
        prev = blocks[i - 1]
        if (prev.images and kept[i] and not kept[i - 1] and not prev.consent and not prev.notice
                and not (comment is not None and comment[i - 1])):
            out[blocks[i].index] = prev.images
    return out


def post_breaks(res: Result, kept: Sequence[Block]) -> set[int]:
    """The ``id`` of each kept block that opens the next post of a thread page: of the posts
    the thread pass found (`Result.post_number`) that hold a body or a written header line (a
    site's header rows laid out like posts do not), a post's first kept block after another
    post's kept text, or after text above the thread (a question above its answers), opens it,
    unless it is a heading (a changelog's dated releases are set apart by their headings).
    Empty on other pages."""
    if res.post is None or res.post_number is None or len(res.post_number) != len(res.blocks):
        return set()
    number = {id(b): int(n) for b, n in zip(res.blocks, res.post_number) if n >= 0}
    bodies = {number[id(b)] for b, r, k in zip(res.blocks, res.post, res.kept) if r == BODY or (r == HEADER and k)}
    out: set[int] = set()
    last = None
    before = False  # kept text before the first post (a question above its answers)
    for b in kept:
        post = number.get(id(b))
        if post is None or post not in bodies:
            before = before or (last is None and not b.heading_level)
            continue
        if post != last and (last is not None or before) and not b.heading_level:
            out.add(id(b))  # a post opening with a heading is set apart by it already
        last = post
    return out


#: the heading of the section that ends a document with its readers' comments (``--comments separate``)
COMMENTS_HEADING = "Comments"


def comments_apart(res: Result) -> list[list[Block]]:
    """The comments to write after the article, in a section of their own, each as its blocks,
    when the page's comments were asked for apart (`readers.readers_comments`); else none."""
    return readers_comments(res.blocks, res.comment) if res.comments == "separate" else []


def headline(res: Result) -> str | None:
    """The page's headline (`Result.title`) to head the document with, unless a kept ``<h1>``
    that says something else heads it already (or nothing was kept); `titled` decides how.
    Such an ``<h1>`` heads it only when what comes before it is a lead: under half the kept
    text and at most `_LEAD_CHARS` characters. Further down it is a section's title ("Deeper
    Dive: Our Top Tested Picks" after a buying guide's introduction), and a document that
    starts with paragraphs and no headline leaves the reader to guess what it is.

    Several kept ``<h1>`` that say other things, and between them under half the headline's
    words, are the document's sections (pages written in Markdown head each part with ``#``):
    the headline goes above them. Where they say it between them (a headline set in two
    ``<h1>``, "What to Wear in Europe" over "Travel Clothes for All Occasions"), it is not
    written again.
    """
    title = " ".join((res.title or "").split())
    if not title or not res.kept.any():  # nothing kept: nothing to head
        return None
    want = tokens(title)
    others: list[list[str]] = []
    before = 0  # kept characters before the first other <h1>
    kept_chars = 0
    for b, k in zip(res.blocks, res.kept):
        if not k:
            continue
        if b.heading_level == 1 and (said := tokens(b.text)) != want:
            if not others:
                before = kept_chars
            others.append(said)
        kept_chars += len(b.text)
    if not others or 2 * before >= kept_chars or before > _LEAD_CHARS:
        # an <h1> after the lead heads no document: a section's title, or a call to share or a
        # sponsor's note after an article ("PIN IT HERE"), over which the headline goes on top
        return title
    if len(others) < 2:
        return None
    words = set(want)
    return title if 2 * len(words & set().union(*others)) < len(words) else None


def titled(res: Result, items: list[Item], title: bool = True) -> tuple[str | None, list[Item]]:
    """The line to write as the document's ``# Title`` (``None``: none) and the items to
    write after it, so that the headline comes first, once, as the top heading.

    - A first kept heading that says the headline is that title: it is written at level 1
      (pages often set their headline in an ``<h2>``), with its own links and markup.
    - A kept heading further down that says it moves to the top, at level 1 and with its own
      markup; what was kept above it (a kicker, a date, a banner) follows.
    - A first kept block that only repeats the headline outside a heading (pages often set
      it in a styled paragraph or ``<div>``), or one after a few short lines (a kicker, a
      date, a byline: `_repeated_headline`), is not written again under ``# Title``; one
      inside a list, a table or a quote is kept: there it is part of something else.
    - A kept ``<h1>`` that does not say the headline leaves the page's headings as they are.
    - A heading right after the headline's that says it again (pages laid out twice, for narrow
      and for wide screens, with both kept) is not written twice.
    - A heading that says the headline and a count of its comments (`_counted`) gives way to
      the headline.
    """
    head = headline(res) if title else None
    if not head or not items:
        return None, items
    want = tokens(head)
    if not want:
        return head, items
    for n, item in enumerate(items):
        said = tokens(item.block.text) if item.block.heading_level else None
        if said is not None and _counted(said, want):  # "Steve Jobs' Yacht Revealed 40": its comments counted
            rest = items[n + 1:]
            return head, [*items[:n], *([_with_pictures(rest[0], item, first=True), *rest[1:]] if rest else [])]
        if said == want:  # the heading says the headline (`_says`)
            after = n + 2 if n + 1 < len(items) and _says(items[n + 1], want) else n + 1
            if after == n + 2:  # the images of the copy not written go with the one that is
                item = _with_pictures(item, items[n + 1])
            if n == 0 and item.block.heading_level == 1:
                return None, [item, *items[after:]]
            # moved up, it leaves the list, table or quote it sat in
            top = _top_heading(item, item.chain if n == 0 else tuple(c for c in item.chain if c[1] in HEADING_TAGS))
            return None, [top, *items[:n], *items[after:]]
    at = _repeated_headline(items, want)
    if at is None:
        return head, items
    if at + 1 < len(items):  # its images go before the next
        return head, [*items[:at], _with_pictures(items[at + 1], items[at], first=True), *items[at + 2:]]
    return head, items[:at]


def _repeated_headline(items: list[Item], want: list[str]) -> int | None:
    """Which of the first items only repeats the headline outside a heading (pages often set it
    in a styled paragraph or ``<div>``, under a kicker or a date: "Intelligencer" over "Breakup
    at Tiffany's"), or None. One inside a list, a table or a quote is part of something else."""
    for n, item in enumerate(items[:_LEAD_LINES + 1]):
        if not item.chain and tokens(item.block.text) == want:
            return n
        if len(item.block.text.split()) > _LEAD_WORDS:
            return None
    return None


def _with_pictures(item: Item, dropped: Item, first: bool = False) -> Item:
    """``item`` also carrying the images of ``dropped``, an item not written (before its own
    ``images_before`` when ``first``, after them otherwise)."""
    theirs = (dropped.images_before or "") + (dropped.block.images or "")
    if not theirs:
        return item
    mine = item.images_before or ""
    return replace(item, images_before=theirs + mine if first else mine + theirs)


def _says(item: Item, want: list[str]) -> bool:
    """Whether ``item`` is a heading that says the headline (``want``, its tokens)."""
    return bool(item.block.heading_level) and tokens(item.block.text) == want


def _counted(said: list[str], want: list[str]) -> bool:
    """Whether a heading's tokens (``said``) are the headline's (``want``) and then a number: a
    count of its comments set inside the heading (a news site's ``<span
    class="comments">40</span>``). The headline is written in its place, without the count. A
    headline of three words or more: a number after a shorter one is as often its own ("Apollo"
    beside "Apollo 13")."""
    return len(want) >= 3 and len(said) == len(want) + 1 and said[-1].isdigit() and said[:-1] == want


def _top_heading(item: Item, chain: tuple[tuple[str, str], ...]) -> Item:
    """``item``'s heading at level 1, in ``chain`` with its heading element written as ``h1``."""
    return Item(replace(item.block, heading_level=1),
                tuple((path, "h1" if tag in HEADING_TAGS else tag) for path, tag in chain),
                images_before=item.images_before)


def without_empty_columns(rows: list[list[str]]) -> list[list[str]]:
    """A table's rows less the columns no row has text in (cells are placed under their
    columns, so a column whose cells are all empty, such as one of images, would be blank)."""
    width = max((len(r) for r in rows), default=0)
    empty = [c for c in range(width) if not any(c < len(r) and r[c] for r in rows)]
    if not empty:
        return rows
    gone = set(empty)
    return [[v for c, v in enumerate(r) if c not in gone] for r in rows]


def cell_gap(column: int, span: int, taken: int) -> tuple[int, int]:
    """The empty cells to write before a cell starting at ``column`` (1-based; 0: not known)
    so that it sits under its column, when the row's cells before it take ``taken``
    columns; and the columns taken once it is written (``span`` wide)."""
    gap = max(column - 1 - taken, 0)
    return gap, taken + gap + span
