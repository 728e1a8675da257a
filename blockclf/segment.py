"""Cut a parsed page into `Block` records, one per run of visible text.

A block boundary is the start or end of a block-level element (or a ``<br>``); text inside
inline elements joins the block of its innermost block-level ancestor. Text that a browser
would not show (script, style, template, hidden elements, ``<head>``) never becomes a block,
and every other text character lands in exactly one block, so the blocks reproduce the
page's visible text.
"""

from __future__ import annotations

import logging
import re

from lxml import etree

from .block import Block
from .html import Document, Limits, PageError

__all__ = ["BLOCK_TAGS", "SKIP_TAGS", "segment"]

log = logging.getLogger("blockclf")

BLOCK_TAGS = frozenset(
    """address article aside blockquote body caption center dd details dialog dir div dl dt
    fieldset figcaption figure footer form frameset h1 h2 h3 h4 h5 h6 header hgroup hr html li
    main menu nav ol p pre section summary table tbody td tfoot th thead tr ul legend noscript
    iframe textarea select option""".split()
)
SKIP_TAGS = frozenset(
    "script style template head svg math object embed canvas audio video map datalist".split()
)
_HEADINGS = {"h1": 1, "h2": 2, "h3": 3, "h4": 4, "h5": 5, "h6": 6}
_LISTS = frozenset(("ul", "ol", "dl", "menu", "dir"))
_TOKEN_SPLIT = re.compile(r"[^a-z0-9]+")
_HIDDEN_STYLE = re.compile(r"display\s*:\s*none|visibility\s*:\s*hidden", re.IGNORECASE)
_MAX_TOKENS = 48


def _is_hidden(el: etree._Element) -> bool:
    attrib = el.attrib
    if not attrib:
        return False
    if "hidden" in attrib or attrib.get("aria-hidden", "").lower() == "true":
        return True
    style = attrib.get("style")
    if style and _HIDDEN_STYLE.search(style):
        return True
    return el.tag == "input" and attrib.get("type", "").lower() == "hidden"


def _tokens(el: etree._Element) -> tuple[str, ...]:
    attrib = el.attrib
    cls = attrib.get("class")
    ident = attrib.get("id")
    if not cls and not ident:
        return ()
    raw = f"{cls or ''} {ident or ''}".lower()
    return tuple(t for t in _TOKEN_SPLIT.split(raw) if t)


class _Frame:
    __slots__ = ("el", "tag", "tokens", "ancestors", "heading", "lists", "tables", "link", "pre", "skip", "xpath")

    def __init__(self, el, tag, tokens, ancestors, heading, lists, tables, link, pre, skip):
        self.el = el
        self.tag = tag
        self.tokens = tokens
        self.ancestors = ancestors
        self.heading = heading
        self.lists = lists
        self.tables = tables
        self.link = link
        self.pre = pre
        self.skip = skip
        self.xpath: str | None = None


class _Segmenter:
    """One pass over ``iterwalk`` events, accumulating text into the open block."""

    def __init__(self, doc: Document, limits: Limits, include_noscript: bool) -> None:
        self.tree = doc.root.getroottree()
        self.doc = doc
        self.limits = limits
        self.skip_tags = SKIP_TAGS if include_noscript else SKIP_TAGS | {"noscript"}
        self.blocks: list[Block] = []
        self.pieces: list[str] = []
        self.link_chars = 0
        self.n_links = 0
        self.markup = 0
        self.owner: list[_Frame] = []  # stack of open block-level frames
        self.headings: list[tuple[int, str]] = []
        self.started = True  # the pending text starts its owner element

    def add(self, text: str, frame: _Frame) -> None:
        self.pieces.append(text)
        self.markup += len(text)
        if frame.link:
            self.link_chars += len(text.strip())

    def flush(self) -> None:
        if not self.pieces:
            self.started = False
            return
        raw = "".join(self.pieces)
        owner = self.owner[-1] if self.owner else None
        if owner is not None and owner.pre:
            lines = [" ".join(line.split()) for line in raw.splitlines()]
            text = "\n".join(line for line in lines if line)
        else:
            text = " ".join(raw.split())
        if text:
            self._emit(text, owner)
        self.pieces = []
        self.link_chars = 0
        self.n_links = 0
        self.markup = 0
        self.started = False

    def _emit(self, text: str, owner: _Frame | None) -> None:
        if owner is None:
            tag, xpath, depth, tokens, ancestors = "html", "/html", 0, (), ("html",)
            heading, lists, tables = 0, 0, 0
        else:
            xpath = owner.xpath
            if xpath is None:
                xpath = owner.xpath = self.tree.getpath(owner.el)
            tag, depth, tokens, ancestors = owner.tag, len(owner.ancestors) - 1, owner.tokens, owner.ancestors
            heading, lists, tables = owner.heading, owner.lists, owner.tables
        if heading:
            while self.headings and self.headings[-1][0] >= heading:
                self.headings.pop()
        path = tuple(h[1] for h in self.headings)
        link_chars = min(self.link_chars, len(text))
        self.blocks.append(
            Block(
                index=len(self.blocks),
                text=text,
                tag=tag,
                xpath=xpath,
                depth=depth,
                heading_path=path,
                heading_level=heading,
                list_depth=lists,
                table_depth=tables,
                link_chars=link_chars,
                n_links=self.n_links,
                markup_bytes=max(self.markup, len(text)),
                tokens=tokens,
                ancestors=ancestors,
                starts_element=self.started,
            )
        )
        if heading:
            self.headings.append((heading, text[:200]))

    def run(self) -> list[Block]:
        limits = self.limits
        stack: list[_Frame] = []
        walker = etree.iterwalk(self.doc.root, events=("start", "end"))
        n_nodes = 0
        for event, el in walker:
            tag = el.tag
            if not isinstance(tag, str):  # comments, entities, processing instructions
                if event == "start":
                    walker.skip_subtree()
                elif el.tail and stack:
                    self.add(el.tail, stack[-1])
                continue
            if event == "start":
                n_nodes += 1
                if n_nodes > limits.max_nodes:
                    raise PageError("too-many-nodes", f"page has over {limits.max_nodes} elements")
                tag = tag.lower()
                parent = stack[-1] if stack else None
                skip = (
                    tag in self.skip_tags
                    or _is_hidden(el)
                    or (parent is not None and len(parent.ancestors) >= limits.max_depth)
                )
                if parent is not None and len(parent.ancestors) >= limits.max_depth:
                    if "too-deep" not in self.doc.warnings:
                        self.doc.warnings.append("too-deep")
                if skip:
                    frame = _Frame(el, tag, (), (), 0, 0, 0, False, False, True)
                    stack.append(frame)
                    walker.skip_subtree()
                    continue
                own = _tokens(el)
                if parent is None:
                    tokens, ancestors = own, (tag,)
                    heading = lists = tables = 0
                    link = pre = False
                else:
                    tokens = (parent.tokens + own)[-_MAX_TOKENS:] if own else parent.tokens
                    ancestors = parent.ancestors + (tag,)
                    heading, lists, tables = parent.heading, parent.lists, parent.tables
                    link, pre = parent.link, parent.pre
                if tag in _HEADINGS:
                    heading = _HEADINGS[tag]
                elif tag in _LISTS:
                    lists += 1
                elif tag == "table":
                    tables += 1
                elif tag == "a":
                    link = True
                    self.n_links += 1
                elif tag == "pre":
                    pre = True
                frame = _Frame(el, tag, tokens, ancestors, heading, lists, tables, link, pre, False)
                stack.append(frame)
                self.markup += 2 * len(tag) + 5 + 12 * len(el.attrib)
                if tag in BLOCK_TAGS or tag == "br":
                    self.flush()
                    self.started = True
                    if tag != "br":
                        self.owner.append(frame)
                if tag == "br" and self.owner and self.owner[-1].pre:
                    self.pieces.append("\n")
                if el.text:
                    self.add(el.text, frame)
            else:
                frame = stack.pop()
                if not frame.skip and (frame.tag in BLOCK_TAGS):
                    self.flush()
                    self.owner.pop()
                if el.tail and stack:
                    self.add(el.tail, stack[-1])
        self.flush()
        return self.blocks


def segment(doc: Document, limits: Limits | None = None, include_noscript: bool = False) -> list[Block]:
    """Return the page's blocks in document order.

    ``include_noscript`` also reads ``<noscript>`` content, for pages whose only text is
    there (a browser with scripts off shows it).
    """
    return _Segmenter(doc, limits or Limits(), include_noscript).run()
