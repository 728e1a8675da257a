"""A `Result` as plain text, Markdown, HTML, a JSON-ready dict, or removal-log lines."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .explain import HIDDEN_UNREAD, describe, hidden_kind, hidden_note, removal_reasons
from .htmlout import to_html
from .inline import block_images, block_plain
from .markdown import titled_markdown, to_markdown
from .result import BLOCK_RECORDS
from .structure import COMMENTS_HEADING, Item, cell_gap, comments_apart, kept_items, titled, without_empty_columns
from .threads import ROLE_NAMES

if TYPE_CHECKING:
    from .result import Result

__all__ = ["BLOCK_RECORDS", "FORMATS", "HIDDEN_UNREAD", "Form", "removal_log", "to_dict", "to_html", "to_markdown",
           "to_text"]

#: the forms a page is written in
FORMATS = ("text", "markdown", "html", "json")


@dataclass(frozen=True)
class Form:
    """How a page is written, as one record: the format and the choices it offers, so that a
    file, a JSON line of several pages and a WARC's line say the same thing.

    ``images``: images as ``![alt](src)`` in Markdown, ``<img>`` in HTML, and in the Markdown
    a JSON document holds. ``title``: start with the headline; None is each format's own
    default (Markdown and HTML start with it, text does not, as gold text expects), and a
    JSON document holds the text and Markdown with those defaults. ``blocks``: the block
    records a JSON document holds (`BLOCK_RECORDS`).
    """

    fmt: str = "text"
    images: bool = False
    title: bool | None = None
    blocks: str = "all"

    def __post_init__(self) -> None:
        if self.fmt not in FORMATS:
            raise ValueError(f"format must be one of {', '.join(FORMATS)}, not {self.fmt!r}")
        _check_blocks(self.blocks)

    def text(self, res: Result) -> str:
        """The page in this form's text format (``fmt`` text, Markdown or HTML)."""
        if self.fmt == "text":
            return to_text(res, title=bool(self.title))
        if self.fmt == "markdown":
            return to_markdown(res, self.images, title=self.title is not False)
        if self.fmt == "html":
            return to_html(res, self.images, title=self.title is not False)
        raise ValueError("a JSON form is a document: use Form.document")

    def document(self, res: Result) -> dict[str, Any]:
        """The page's JSON document (`to_dict`) with this form's images and block records."""
        return to_dict(res, self.images, self.blocks)


def to_text(res: Result, title: bool = False) -> str:
    """Kept blocks, one per line: a table row on one line with its cells separated by `` | ``,
    code line for line, list items marked ``-`` and indented two spaces a level; page furniture
    (heading anchors, copy buttons, line numbers) left out. Nothing here adds a word to the
    kept text, which token scores read: ordered items are numbered in Markdown and HTML only.
    Comments asked for apart follow under a line saying "Comments" (`structure.comments_apart`).
    """
    return _items_text(res, kept_items(res), title)


def _items_text(res: Result, items: list[Item], title: bool = False, comments: bool = True) -> str:
    head, items = titled(res, items, title)
    out: list[str] = []
    seen_items: set[str] = set()
    row_path: str | None = None
    row: list[tuple[str, str]] = []  # (cell path, text)
    last_cell = 0  # where in the row the last cell with text is
    table_path: str | None = None
    table: list[list[str]] = []  # the rows of the table being written

    def end_row() -> None:
        if row:
            table.append([t for _, t in row])

    def end_table() -> None:  # a row's empty cells after its last text (a cell's span) are not written
        out.extend(" | ".join(r[:max((n + 1 for n, v in enumerate(r) if v), default=0)])
                   for r in without_empty_columns(table))
        table.clear()

    for it in items:
        b, chain = it.block, it.chain
        cell = next(((p, n) for n, (p, t) in enumerate(chain) if t in ("td", "th")), None)
        text = block_plain(b)
        if cell is not None:
            path = next((p for p, t in reversed(chain[:cell[1]]) if t == "tr"), chain[0][0])
            if path != row_path:
                end_row()
                row = []
                where = next((p for p, t in reversed(chain[:cell[1]]) if t == "table"), chain[0][0])
                if where != table_path:
                    end_table()
                    table_path = where
            row_path = path
            if row and chain[cell[1]][0] == row[last_cell][0]:
                row[last_cell] = (row[last_cell][0], row[last_cell][1] + " " + text)
            else:
                # empty cells before it keep its column (a nested table's cell has its own), and a
                # cell spanning columns is followed by empty ones, as in Markdown
                column = b.column if not any(t in ("td", "th") for _, t in chain[cell[1] + 1:]) else 0
                row += [("", "")] * cell_gap(column, b.colspan, len(row))[0]
                last_cell = len(row)
                row.append((chain[cell[1]][0], text))
                row += [("", "")] * (b.colspan - 1)
            continue
        if row:
            end_row()
            end_table()
            row, row_path, table_path = [], None, None
        if it.post_break and out:
            out.append("")  # a blank line between a thread's posts
        lis = [(p, chain[n - 1][1] if n else "ul") for n, (p, t) in enumerate(chain) if t == "li"]
        if lis and b.tag != "pre":  # a heading opening an item is its first line, as in Markdown
            indent = "  " * (len(lis) - 1)
            if lis[-1][0] not in seen_items:
                seen_items.add(lis[-1][0])
                text = f"{indent}- {text}"
            else:
                text = indent + "  " + text
        out.append(text)
    end_row()
    end_table()
    apart = comments_apart(res) if comments else []
    if apart:
        out.append(COMMENTS_HEADING)
        for n, comment in enumerate(apart):
            out += ([""] if n else []) + [block_plain(b) for b in comment]  # a blank line between comments
    return "\n".join([head] + out if head else out)


def _block_dicts(res: Result, kept_only: bool = False) -> list[dict[str, Any]]:
    """Every block's record (the kept blocks' with ``kept_only``): its text, decision, what removed
    it (`explain.removal_reasons`, null for a kept block), score and structure."""
    scores = res.scores.tolist()
    comment = res.comment.tolist() if res.comment is not None and len(res.comment) else [False] * len(res.blocks)
    post = res.post.tolist() if res.post is not None and len(res.post) else [0] * len(res.blocks)
    why = [None] * len(res.blocks) if kept_only else removal_reasons(res)  # a kept block has none
    out = []
    for i, (b, kept) in enumerate(zip(res.blocks, res.kept.tolist())):
        if kept_only and not kept:
            continue
        d: dict[str, Any] = {
            "index": b.index,
            "text": b.text,
            "kept": bool(kept),
            "reason": why[i],
            "score": round(scores[i], 4),
            "tag": b.tag,
            "xpath": b.xpath,
            "heading_path": list(b.heading_path),
            "heading_level": b.heading_level,
            "list_depth": b.list_depth,
            "table_depth": b.table_depth,
            "link_chars": b.link_chars,
            "hidden": b.hidden,
            "consent": b.consent,
            "notice": b.notice,
            "comment": bool(comment[i]),
            "post": ROLE_NAMES.get(post[i]),
        }
        if res.reasons is not None:
            d["reasons"] = [_reason_dict(name, value, c) for name, value, c in res.reasons[i]]
        out.append(d)
    return out


def _reason_dict(name: str, value: float, contribution: float) -> dict[str, Any]:
    """A reason as JSON takes it: a feature with no value (no title to compare with, no other
    page of the site) is null, not NaN, which strict JSON readers refuse."""
    return {"feature": name, "value": None if math.isnan(value) else round(value, 4),
            "contribution": round(contribution, 4), "text": describe(name, value, contribution)}


def _check_blocks(blocks: str) -> None:
    if blocks not in BLOCK_RECORDS:
        raise ValueError(f"blocks must be one of {', '.join(BLOCK_RECORDS)}, not {blocks!r}")


def to_dict(res: Result, images: bool = False, blocks: str = "all") -> dict[str, Any]:
    """Everything about the page: metadata, verdict, warnings, statistics, the kept text as
    text and as Markdown, comments asked for apart (``comments``: not in the text), with
    ``images`` the images the Markdown writes as records of their own (``images``: address, alt
    text and the index of the block they go with), and the
    blocks' records under ``blocks``: every block's (``blocks="all"``), the kept blocks'
    (``"kept"``; each keeps its page-wide ``index``), or none (``"none"``: no ``blocks`` key),
    `BLOCK_RECORDS`."""
    _check_blocks(blocks)
    meta = res.metadata
    items = kept_items(res)
    head, written = titled(res, items)  # what the Markdown writes, and the images it lists
    doc: dict[str, Any] = {
        "name": res.name,
        "url": res.url,
        "site": res.site,
        "title": res.title,
        "author": meta.author,
        "date": meta.date,
        "modified": meta.modified,
        "description": meta.description,
        "sitename": meta.sitename,
        "lang": meta.lang,
        "canonical_url": meta.url,
        "categories": list(meta.categories),
        "tags": list(meta.tags),
        "encoding": res.encoding,
        "favor": res.favor,
        "threshold": res.threshold,
        "verdict": res.verdict,
        "warnings": res.warnings,
        "stats": res.stats,
        "text": _items_text(res, items, comments=False),
        "markdown": titled_markdown(res, head, written, images, comments=False),
        **({"comments": res.comment_texts} if res.comments == "separate" else {}),
    }
    if images:  # as the Markdown writes them: after its headline's choice of what is written once
        doc["images"] = [{**image, "block": it.block.index} for it in written
                         for image in block_images(it.block, it.images_before, res.url)]
    if blocks != "none":
        doc["blocks"] = _block_dicts(res, kept_only=blocks == "kept")
    return doc


def removal_log(res: Result) -> list[dict[str, Any]]:
    """One record per removed block: page, element path, text, score, threshold, and its one
    reason (`explain.removal_reasons`: ``score``, or the rule or the kind of hidden text that removed it)."""
    out = []
    why = removal_reasons(res)
    for i, (b, k) in enumerate(zip(res.blocks, res.kept)):
        if k:
            continue
        rec: dict[str, Any] = {
            "page": res.name or res.url,
            "xpath": b.xpath,
            "text": b.text,
            "score": round(float(res.scores[i]), 4),
            "threshold": res.threshold,
            "reason": why[i],
        }
        if b.hidden:
            rec["hidden"] = True
        if res.reasons is not None:
            rec["reasons"] = [_reason_dict(*r)["text"] for r in res.reasons[i] if r[2] < 0] or [
                _reason_dict(*r)["text"] for r in res.reasons[i]
            ] or ([hidden_note(b, False)] if hidden_kind(b) is not None else [])
        out.append(rec)
    return out
