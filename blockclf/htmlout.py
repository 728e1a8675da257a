"""Kept blocks as clean, minimal HTML that is safe to embed.

Only structural elements (headings, paragraphs, lists, definition lists, tables, quotes,
code) and inline ``a``, ``code``, ``strong``, ``em``, ``del`` (and ``img`` on request) are written,
with no attributes but ``href``/``src``/``alt``, ``value`` of ordered items, ``colspan`` and
the code language's class; all page text is escaped and script addresses never reach an
``href``. The nesting comes from the blocks' structural chains (`blockclf.structure`).
"""

from __future__ import annotations

from html import escape
from typing import TYPE_CHECKING

from .inline import block_html, images_html
from .structure import COMMENTS_HEADING, HEADING_TAGS, LIST_ELEMENTS, cell_gap, comments_apart, kept_items, titled

if TYPE_CHECKING:
    from .block import Block
    from .result import Result

__all__ = ["to_html"]


def _open(tag: str, block: Block, innermost: bool) -> str:
    if tag in LIST_ELEMENTS:
        return "<ol>" if tag == "ol" else "<ul>"
    if tag == "li" and innermost and block.number:
        return f'<li value="{block.number}">'
    if tag in ("td", "th") and innermost and block.colspan > 1:
        return f'<{tag} colspan="{block.colspan}">'
    if tag == "pre":
        lang = f' class="language-{escape(block.lang)}"' if block.lang else ""
        return f"<pre><code{lang}>"
    return f"<{tag}>"


def _close(tag: str) -> str:
    if tag in LIST_ELEMENTS:
        return "</ol>" if tag == "ol" else "</ul>"
    return "</code></pre>" if tag == "pre" else f"</{tag}>"


#: the parts of lists and tables, which a paragraph does not stand between
_ITEMS = frozenset(("li", "dt", "dd", "td", "th"))
#: a table's cells (and its caption), without which text in it is no table's; its other parts
_CELLS = frozenset(("td", "th", "caption"))
_ROWS = frozenset(("table", "thead", "tbody", "tfoot", "tr"))
_BREAK_AFTER = frozenset(("ul", "ol", "dl", "table", "thead", "tbody", "tfoot", "tr", "blockquote"))


def _html_chain(chain: tuple[tuple[str, str], ...]) -> tuple[tuple[str, str], ...]:
    """``chain`` as valid HTML nests it: a list holds items only, so a list around anything
    else of the page's (text before its first ``<li>``, as a recipe sets its first step; a list
    or a definition list set straight in it) is left out, and that text is a paragraph beside
    the list, as Markdown writes it; an item a page set in no list (``<li>`` in a ``<div>``,
    which browsers show with its marker) gets one, shared by the items side by side in one
    element; text in a table but in no cell is no table's; a table set in a heading is written
    after it (`HEADING_TAGS`)."""
    chain = tuple(step for n, step in enumerate(chain)
                  if step[1] not in LIST_ELEMENTS or (n + 1 < len(chain) and chain[n + 1][1] == "li"))
    if any(t == "table" for _, t in chain) and not any(t in _CELLS for _, t in chain):
        # text a page set in a table but in no cell: no table's, as Markdown writes it (a table
        # holds rows, and a parser moves such text out before it)
        chain = tuple(step for step in chain if step[1] not in _ROWS)
    table = next((n for n, (_, t) in enumerate(chain) if t == "table"), None)
    if table is not None and any(t in HEADING_TAGS for _, t in chain[:table]):
        # a table set in a heading: an HTML parser closes the heading before the table, so
        # the heading's words are written before it and the table after it, as parsers read it
        chain = tuple(step for n, step in enumerate(chain) if n > table or step[1] not in HEADING_TAGS)
    if not any(t == "li" for _, t in chain):
        return chain
    out: list[tuple[str, str]] = []
    for path, tag in chain:
        if tag == "li" and not (out and out[-1][1] in LIST_ELEMENTS):
            out.append((path.rsplit("/", 1)[0] + "/#list", "ul"))
        out.append((path, tag))
    return tuple(out)


def to_html(res: Result, images: bool = False, title: bool = True) -> str:
    """The kept blocks as an HTML fragment (``images``: keep ``<img>`` in the text), headed
    by the page's headline as ``<h1>`` (``title``), written once, as Markdown does."""
    base = res.url
    head, items = titled(res, kept_items(res), title)
    out: list[str] = [f"<h1>{escape(head)}</h1>\n"] if head else []
    stack: list[tuple[str, str]] = []
    filled: dict[str, int] = {}  # per table row written, the columns its cells so far take
    last_xpath = None
    # the images after a heading (an article's lead photo), written once the heading closes,
    # and how many elements stay open then
    pictures, pictures_at = "", 0
    para = None  # the element whose paragraph is open: its next line (after a <br>) goes on in it
    for it in items:
        b, chain = it.block, _html_chain(it.chain)
        k = 0
        while k < len(stack) and k < len(chain) and stack[k] == chain[k] and not it.post_break:
            k += 1
        own = bool(chain) and chain[-1][0] == b.xpath  # the block's own element is the innermost written
        # headings hold a line's words, no paragraph: an HTML parser that meets ``<h2><p>``
        # closes the heading first (lxml reads ``<h2></h2><p>...</p>``) and loses its text
        headed = any(t in HEADING_TAGS for _, t in chain)
        # more text of the same paragraph after a line break, as Markdown writes it broken (a
        # blank line between, `Block.gap`, or a photo set before it, starts a new paragraph)
        broken = (para == b.xpath and not b.gap and not own and not headed and not it.post_break
                  and k == len(chain) == len(stack) and not (images and it.images_before))
        if para is not None and not broken:
            out.append("</p>\n")
            para = None
        while len(stack) > k:
            out.append(_close(stack.pop()[1]))
            out.append("\n")
            if pictures and len(stack) == pictures_at:
                out.append(pictures)
                pictures = ""
        if it.post_break and out:
            out.append("<hr>\n")  # a rule between posts, or the page's own
        # a photo set before the kept text starts: a paragraph of its own, or at the start of
        # the item or cell it comes before (a list goes on), never in code
        before = images_html(it.images_before, base) if images and it.images_before and not b.heading_level else ""
        if before and not any(t in _ITEMS for _, t in chain):
            out.append(f"<p>{before}</p>\n")
            before = ""
        for path, tag in chain[k:]:
            inner = next((p for p, t in reversed(chain) if t == tag), None)
            if tag in ("td", "th") and path == inner and stack and stack[-1][1] == "tr":
                gap, filled[stack[-1][0]] = cell_gap(b.column, b.colspan, filled.get(stack[-1][0], 0))
                out.append("<td></td>" * gap)  # empty cells before it keep its column
            out.append(_open(tag, b, path == inner))
            if tag in _BREAK_AFTER:
                out.append("\n")
            stack.append((path, tag))
        apart = bool(images and b.heading_level and b.images)
        content = block_html(b, base, images, images_after=not apart)
        if before and b.tag != "pre" and not any(t == "pre" for _, t in chain):
            content = f"{before} {content}"
        # a heading opened before this block: a line of it is written already (each block
        # in a heading is a line of it, as the page shows it)
        in_heading = any(t in HEADING_TAGS for _, t in stack[:k])
        if own:
            if k == len(chain) and (last_xpath == b.xpath or in_heading):  # more text of the same element
                out.append("<br>" if b.tag != "pre" else "\n\n" if b.gap else "\n")  # a blank line of code kept
            out.append(content)
        elif headed:
            out.append(("<br>" if in_heading else "") + content)
        else:
            out.append(f"<br>{content}" if broken else f"<p>{content}")
            para = b.xpath
        if images and b.heading_level and (line := images_html((it.images_before or "") + (b.images or ""), base)):
            # written once the heading closes (never a paragraph in a heading), or the element
            # the block is
            at = next((n for n, (_, t) in enumerate(stack) if t in HEADING_TAGS), len(stack) - 1 if own else None)
            if at is not None and at >= 0:
                pictures, pictures_at = pictures + f"<p>{line}</p>\n", at
            else:
                out.append(f"<p>{line}</p>\n")
        last_xpath = b.xpath
    if para is not None:
        out.append("</p>\n")
    while stack:
        out.append(_close(stack.pop()[1]))
        out.append("\n")
        if pictures and len(stack) == pictures_at:
            out.append(pictures)
            pictures = ""
    out.append(pictures)
    comments = comments_apart(res)
    if comments:
        out.append(f"<h2>{COMMENTS_HEADING}</h2>\n")
        for n, comment in enumerate(comments):
            out += (["<hr>\n"] if n else []) + [f"<p>{block_html(b, base, images)}</p>\n" for b in comment]
    return "".join(out).lstrip("\n")
