"""Kept blocks as Markdown: headings, nested and numbered lists, tables, fenced code, quotes,
definition lists, links, inline code, bold and italic, with the page's own text escaped.

Lists nest by the items' element paths, ordered items keep their numbers, a table's rows
become ``|`` rows (a cell's paragraphs or list joined in the cell), code keeps every line and
its indentation, fenced with the language the page names.
"""

from __future__ import annotations

import re
from html import unescape
from typing import TYPE_CHECKING

from .inline import block_markdown, escape_line_start, images_markdown, md_escape
from .structure import (
    COMMENTS_HEADING,
    LIST_ELEMENTS,
    Item,
    cell_gap,
    comments_apart,
    kept_items,
    titled,
    without_empty_columns,
)

if TYPE_CHECKING:
    from .block import Block
    from .result import Result

__all__ = ["to_markdown"]


def _fence(code: str, lang: str) -> list[str]:
    runs = [len(r) for r in re.findall(r"^\s*(`{3,})", code, re.MULTILINE)]
    fence = "`" * max(3, max(runs, default=0) + 1)
    return [fence + lang, *code.split("\n"), fence]


def _code(item: Item) -> str:
    b = item.block
    return unescape(b.rich) if b.rich is not None else b.text


def _table(items: list[Item], table: str, base: str | None, images: bool) -> list[str]:
    """A data table's items as Markdown table rows (a caption, if any, as a line before it)."""
    caption: list[str] = []
    rows: dict[str, dict[str, list]] = {}
    for it in items:
        inner = it.chain[[p for p, _ in it.chain].index(table):]
        cell = next(((p, t) for p, t in reversed(inner) if t in ("td", "th")), None)
        text = block_markdown(it.block, base, images, cell=cell is not None)
        if images and it.images_before and (pictures := images_markdown(it.images_before, base)):
            text = f"{pictures} {text}"  # a photo set before the cell's text, at its start
        if cell is None:
            caption.append(text)
            continue
        row = next((p for p, t in reversed(inner) if t == "tr"), table)
        cells = rows.setdefault(row, {})
        entry = cells.setdefault(cell[0], [[], 1, 0])
        entry[0].append(text)
        entry[1] = max(entry[1], it.block.colspan)
        entry[2] = it.block.column
    lines = [" ".join(caption)] if caption else []
    out_rows = []
    for cells in rows.values():
        row_cells: list[str] = []
        for texts, span, column in cells.values():
            row_cells += [""] * cell_gap(column, span, len(row_cells))[0]  # empty cells before it keep its column
            row_cells.append(" ".join(texts).replace("|", "\\|"))
            row_cells += [""] * (span - 1)
        out_rows.append(row_cells)
    out_rows = without_empty_columns(out_rows)
    width = max(len(r) for r in out_rows) if out_rows else 0
    for n, r in enumerate(out_rows):
        if n == 0:
            r = r + [""] * (width - len(r))
        lines.append("| " + " | ".join(r) + " |")
        if n == 0:
            lines.append("|" + " --- |" * width)
    return lines


#: lines, kind (``list``: a list's first item, ``item``: a later item, ``dt``, ``dd``, ``other``),
#: quote depth
_Chunk = tuple[list[str], str, int]
#: the markers of a list's items, and those of a list written right after another one: Markdown
#: reads items of one marker as one list, so two lists in a row tell themselves apart by theirs
_LIST_MARKERS = (("- ", ". "), ("* ", ") "))


def _table_end(items: list[Item], i: int, table: str) -> int:
    """The index after the last of the consecutive items, from ``i``, inside the element ``table``."""
    j = i
    while j < len(items) and any(p == table for p, _ in items[j].chain):
        j += 1
    return j


def _around(chain: tuple[tuple[str, str], ...]) -> tuple[list[tuple[str, str]], int, int]:
    """What surrounds a block whose structural elements are ``chain``: its list items, outermost
    first, each with the kind of its list (``ul``, ``ol``); the quotes outside the outermost
    item (written at the line's start); and those inside it (written after the item's marker or
    indentation, so that the list goes on)."""
    items_in = [(p, chain[n - 1][1] if n and chain[n - 1][1] in LIST_ELEMENTS else "ul")
                for n, (p, t) in enumerate(chain) if t == "li"]
    tags = [t for _, t in chain]
    outside = tags.index("li") if "li" in tags else len(tags)
    return items_in, tags[:outside].count("blockquote"), tags[outside:].count("blockquote")


class _Writer:
    """The chunks of one page's Markdown, and what a block needs from those before it.

    A list item's marker width indents what follows inside it; a code block cut by a
    ``<br>`` continues the fence before it; a paragraph broken by a line break continues
    the chunk before it; a list right after another (a page's list, then its contents)
    stays a list of its own. Each block is written by one step, in one pass.
    """

    def __init__(self, base: str | None, images: bool) -> None:
        self.base = base
        self.images = images
        self.chunks: list[_Chunk] = []
        self.widths: dict[str, int] = {}  # list item path -> width of its marker
        self.prev: Block | None = None  # the last block written as a paragraph or list item
        self.lists: dict[str, int] = {}  # outermost list path -> which of `_LIST_MARKERS` its items use
        self.last_list, self.last_kind = "", ""  # the outermost list of the last item written, ul or ol
        self.inner_quote = ""  # the quote markers inside a list item that the last text written opened with
        self.code_path, self.code_at, self.code_text, self.code_lang = "", -2, "", ""  # the last code block written
        self.code_lead = ""  # the list item marker the last code block opened with, if it opened its item

    def code(self, it: Item, at: int, items_in: list[tuple[str, str]], quote: int, inner_quote: int) -> None:
        """A code block fenced, inside its list item (`placed`; quoted there, ``inner_quote``);
        joined to the one before when a ``<br>`` cut it."""
        b = it.block
        code = _code(it)
        if self.code_path == b.xpath and at == self.code_at + 1:  # the same code block, cut at a <br>
            # two <br> in a row (`Block.gap`) leave a blank line, as the browser draws it
            code, lang = self.code_text + ("\n\n" if b.gap else "\n") + code, self.code_lang
            kind, first = self.chunks.pop()[1], self.code_lead
            rest = self.placed(b, it.chain, items_in)[1]
        else:
            lang = b.lang
            first, rest, kind = self.placed(b, it.chain, items_in)
        q = "> " * inner_quote
        lines = [(rest + q + line) if line else (rest + q).rstrip() for line in _fence(code, lang)]
        lines[0] = first + q + lines[0][len(rest + q):]
        self.chunks.append((lines, kind, quote))
        self.code_lead = first
        self.code_path, self.code_at, self.code_text, self.code_lang = b.xpath, at, code, lang

    def continued(self, b: Block, text: str, chain: tuple[tuple[str, str], ...]) -> bool:
        """Append ``text`` to the chunk before as a broken line, when it is more of the same element."""
        chunks = self.chunks
        if not (self.prev is not None and self.prev.xpath == b.xpath and not b.gap
                and chunks[-1][1] in ("list", "item", "other")):
            return False  # (after a blank line, `Block.gap`, a new paragraph)
        # more text of the same element after a line break: the same paragraph, broken
        first, last_line = chunks[-1][0][0], chunks[-1][0][-1]
        pad = len(first) - len(first.lstrip(" "))
        if chunks[-1][1] in ("list", "item"):
            pad += self.widths.get(next((p for p, t in reversed(chain) if t == "li"), ""), 0)
        chunks[-1][0][-1] = last_line + "\\"
        chunks[-1][0].append(" " * pad + self.inner_quote + text)
        return True

    def opened(self, b: Block, chain: tuple[tuple[str, str], ...], li: str, indent: str,
               items_in: list[tuple[str, str]]) -> tuple[str, str]:
        """The marker that opens the list item ``li`` (its width recorded for what follows in
        it), after ``indent``, and the chunk's kind: ``list`` for a list's first item."""
        outer = next(p for p, t in chain if t in LIST_ELEMENTS or t == "li")
        kind = "item"
        if outer not in self.lists:  # a new list: right after another of its kind, the other markers
            after = (bool(self.chunks) and self.chunks[-1][1] in ("list", "item") and self.last_list != outer
                     and self.last_kind == items_in[0][1])
            self.lists[outer] = 1 - self.lists[self.last_list] if after else 0
            kind = "list"
        bullet, number = _LIST_MARKERS[self.lists[outer]]
        marker = f"{b.number or 1}{number}" if items_in[-1][1] == "ol" else bullet
        self.widths[li] = len(marker)
        self.last_list, self.last_kind = outer, items_in[0][1]
        return indent + marker, kind

    def placed(self, b: Block, chain: tuple[tuple[str, str], ...],
               items_in: list[tuple[str, str]]) -> tuple[str, str, str]:
        """Where a block's lines start inside the list item around it: its first line (after
        the item's marker, which the block writes when it is the item's first: `opened`) and
        the others (the item's indentation), with the chunk's kind; outside lists, at the start."""
        if not items_in:
            return "", "", "other"
        indent = " " * sum(self.widths.get(p, 2) for p, _ in items_in[:-1])
        li = items_in[-1][0]
        if li in self.widths:
            rest = indent + " " * self.widths[li]
            return rest, rest, "other"
        first, kind = self.opened(b, chain, li, indent, items_in)
        return first, indent + " " * self.widths[li], kind

    def text(self, b: Block, text: str, chain: tuple[tuple[str, str], ...], items_in: list[tuple[str, str]],
             quote: int, inner_quote: int) -> None:
        """A paragraph, list item (with its marker), definition term or definition; inside a list
        item, where `placed` says, with the quotes inside the item (``inner_quote``)."""
        last = next((t for _, t in reversed(chain) if t in ("li", "dt", "dd")), "")
        last_path = next((p for p, t in reversed(chain) if t in ("li", "dt", "dd")), "")
        if not items_in:
            quote, inner_quote = quote + inner_quote, 0
        self.inner_quote = q = "> " * inner_quote
        lead, _, kind = self.placed(b, chain, items_in)
        if last in ("dt", "dd") and last_path not in self.widths:  # a term, a definition (of a list in an item)
            self.widths[last_path] = 0
            kind = last  # a definition follows its term without a blank line
            text = ": " + text if last == "dd" else text
        self.chunks.append(([lead + q + text], kind, quote))

    def table(self, it: Item, table: str, lines: list[str]) -> None:
        """A table's lines (``it`` its first cell's item, ``table`` its element path), inside the
        list item around the table when there is one (`placed`), as an item's other blocks are."""
        paths = [p for p, _ in it.chain]
        chain = it.chain[:paths.index(table)] if table in paths else ()
        items_in, quote, inner_quote = _around(chain)
        self.prev = None
        if not items_in:
            self.chunks.append((lines, "other", quote + inner_quote))
            return
        first, rest, kind = self.placed(it.block, chain, items_in)
        q = "> " * inner_quote
        self.chunks.append(([first + q + lines[0]] + [rest + q + line for line in lines[1:]], kind, quote))

    def block(self, it: Item, at: int, tags: list[str]) -> None:
        """One block that is not in a table: a heading, code, or text, inside the list items and
        quotes around it (`_around`)."""
        b = it.block
        chain = it.chain
        if b.heading_level or b.tag == "pre" or "pre" in tags:
            self.prev = None
        items_in, quote, inner_quote = _around(chain)
        if b.heading_level:
            # the images after a heading (an article's lead photo) go on a line of their own
            apart = not items_in
            heading = "#" * b.heading_level + " " + block_markdown(b, self.base, self.images, images_after=not apart)
            if items_in:  # a heading in an item: the images before it written in it
                pictures = images_markdown(it.images_before, self.base) if self.images and it.images_before else ""
                self.text(b, f"{heading} {pictures}" if pictures else heading, chain, items_in, quote, inner_quote)
            else:
                self.chunks.append(([heading], "other", quote + inner_quote))
                # a photo set above the headline comes under it: the document starts with its title
                markup = (it.images_before or "") + (b.images or "")
                pictures = images_markdown(markup, self.base) if self.images and markup else ""
                if pictures:
                    self.chunks.append(([pictures], "other", quote + inner_quote))
            return
        code = b.tag == "pre" or "pre" in tags
        pictures = images_markdown(it.images_before, self.base) if self.images and it.images_before else ""
        if pictures and not (items_in and not code):  # in a list item, at its start: the list goes on
            self.chunks.append(([pictures], "other", quote + inner_quote))
            self.prev = None
            pictures = ""
        if code:
            self.code(it, at, items_in, quote, inner_quote)
            return
        text = block_markdown(b, self.base, self.images)
        if pictures:
            text = f"{pictures} {text}"
            self.prev = None
        if not text:
            return
        if not self.continued(b, text, chain):
            self.text(b, text, chain, items_in, quote, inner_quote)
        self.prev = b


def to_markdown(res: Result, images: bool = False, title: bool = True) -> str:
    """The kept blocks as Markdown (``images``: write images as ``![alt](src)``), headed by
    the page's headline as ``# Title`` (``title``), written once (`structure.titled`), and
    ended by a ``## Comments`` section when comments were asked for apart."""
    return titled_markdown(res, *titled(res, kept_items(res), title), images)


def titled_markdown(res: Result, head: str | None, items: list[Item], images: bool = False,
                    comments: bool = True) -> str:
    """`to_markdown` of kept items whose headline is already placed (`structure.titled`: ``head``
    to write first, if any, and the items after it), for a caller that writes the page in more
    than one form (``comments``: end with the comments asked for apart)."""
    base = res.url
    writer = _Writer(base, images)
    if head:
        writer.chunks.append((["# " + md_escape(head, brackets=False, line=True)], "other", 0))
    i = 0
    while i < len(items):
        chain = items[i].chain
        tags = [t for _, t in chain]
        if items[i].post_break and writer.chunks:  # never first: a document opening with --- reads as front matter
            writer.chunks.append((["---"], "other", 0))  # a rule between posts, or the page's own
        if "td" in tags or "th" in tags:
            table = next(p for p, t in reversed(chain) if t == "table") if "table" in tags else chain[0][0]
            j = _table_end(items, i, table)
            writer.table(items[i], table, _table(items[i:j], table, base, images))
            i = j
            continue
        writer.block(items[i], i, tags)
        i += 1
    apart = comments_apart(res) if comments else []
    if apart:
        writer.chunks.append((["## " + COMMENTS_HEADING], "other", 0))
        for n, comment in enumerate(apart):
            if n:
                writer.chunks.append((["---"], "other", 0))  # a rule between comments
            writer.chunks += [([block_markdown(b, base, images)], "other", 0) for b in comment]
    return _join(writer.chunks)


#: a broken line's list marker as the writer escaped it at a line's start: ``\+``, ``\-``,
#: ``\*``, a bullet character, or a number and its ``\.`` or ``\)``
_LINE_ITEM = re.compile(r"(?:\\[+*-]|[•·▪])\s+|(\d{1,3})\\[.)]\s+")
#: a paragraph needs this many broken lines, each a list item's, to be written as a list
MIN_LINE_ITEMS = 3


def _line_items(lines: list[str]) -> list[str] | None:
    """A paragraph's broken lines as a list's items, when each starts with a list marker the
    page typed (``+ Added slime block<br>+ Fixed …``, ``1. Finland<br>2. Norway``): a bullet
    list, or a numbered one when the numbers follow each other; None otherwise."""
    if len(lines) < MIN_LINE_ITEMS or not _LINE_ITEM.match(lines[0]):  # most chunks: at once
        return None
    if not all(line.endswith("\\") for line in lines[:-1]):  # not one paragraph's broken lines
        return None
    texts = [line[:-1] for line in lines[:-1]] + [lines[-1]]  # each but the last ends with its break's "\\"
    marks = []
    for text in texts:
        m = _LINE_ITEM.match(text)
        if m is None or m.end() == len(text):
            return None
        marks.append(m)
    numbers = [int(m.group(1)) for m in marks if m.group(1)]
    if numbers and numbers != list(range(numbers[0], numbers[0] + len(texts))):
        return None
    # an item's text escaped as a line's start is (`inline.escape_line_start`): "- \\# 1" is no heading
    return [(f"{m.group(1)}. " if m.group(1) else "- ") + escape_line_start(text[m.end():])
            for text, m in zip(texts, marks)]


#: a line of a quote inside a list item: the item's indent, then the quote's marks
_ITEM_QUOTE = re.compile(r" +(?:> )+")


def _between(last: str, first: str, quote: int, prev_quote: int) -> str:
    """The line that parts two chunks: blank, or the marks of the quote both stand in (a
    blank line would end the quote, and its next paragraph would open another)."""
    if quote and prev_quote:
        return ("> " * min(quote, prev_quote)).rstrip()
    a, b = _ITEM_QUOTE.match(last), _ITEM_QUOTE.match(first)
    if a is None or b is None:
        return ""
    x, y = a.group(), b.group()
    n = next((i for i, (c, d) in enumerate(zip(x, y)) if c != d), min(len(x), len(y)))
    shared = x[:n].rstrip()  # the marks both lines share
    return shared if shared.endswith(">") else ""


def _join(chunks: list[_Chunk]) -> str:
    """Chunks separated by blank lines, except items of one list and a term and its definition;
    within a quote, by a line of its marks."""
    out: list[str] = []
    prev_kind, prev_quote = "", 0
    for lines, kind, quote in chunks:
        if kind == "other" and (items := _line_items(lines)) is not None:
            lines, kind = items, "list"
        if out and not ((kind == "item" and prev_kind in ("list", "item")) or (kind == "dd" and prev_kind == "dt")):
            out.append(_between(out[-1], (("> " * quote) + lines[0]) if lines else "", quote, prev_quote))
        prefix = "> " * quote
        out += [(prefix + line) if line else prefix.rstrip() for line in lines]
        prev_kind, prev_quote = kind, quote
    text = "\n".join(out).strip("\n")
    return text + "\n" if text else ""  # nothing kept: nothing written, as the text output writes
