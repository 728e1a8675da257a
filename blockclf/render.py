"""A `Result` as plain text, Markdown, a JSON-ready dict, or removal-log lines."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .segment import LIST_TAGS

if TYPE_CHECKING:
    from .predict import Result

__all__ = ["HIDDEN_UNREAD", "removal_log", "to_dict", "to_markdown", "to_text"]

#: why a hidden block was removed without a score
HIDDEN_UNREAD = "hidden on the page; not read, as the visible text was enough"


def to_text(res: Result) -> str:
    """Kept blocks, one per line."""
    return "\n".join(b.text for b, k in zip(res.blocks, res.kept) if k)


def _md_escape_cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _list_item(ancestors: tuple[str, ...], text: str) -> str:
    """``- text`` or ``1. text`` (Markdown numbers the items), indented under the enclosing items."""
    lists = [t for t in ancestors if t in LIST_TAGS]
    indent = sum(3 if t == "ol" else 2 for t in lists[:-1])
    return " " * indent + ("1. " if lists and lists[-1] == "ol" else "- ") + text


def to_markdown(res: Result) -> str:
    """Kept blocks as Markdown: headings, list items (nested), table rows, code, quotes."""
    out: list[str] = []
    row: list[str] = []
    row_path: str | None = None
    rows_in_table = 0

    def end_row() -> None:
        nonlocal row, row_path, rows_in_table
        if row:
            out.append("| " + " | ".join(row) + " |")
            if rows_in_table == 0:
                out.append("|" + " --- |" * len(row))
            rows_in_table += 1
        row, row_path = [], None

    prev_kind = ""
    for b, k in zip(res.blocks, res.kept):
        if not k:
            continue
        kind = "cell" if b.tag in ("td", "th") else "other"
        if kind == "cell":
            if row_path is not None and b.parent_xpath != row_path:
                end_row()
            if prev_kind != "cell":
                out.append("")
                rows_in_table = 0
            row.append(_md_escape_cell(b.text))
            row_path = b.parent_xpath
            prev_kind = kind
            continue
        end_row()
        if b.heading_level:
            out += ["", "#" * b.heading_level + " " + b.text, ""]
        elif b.tag == "li":
            out.append(_list_item(b.ancestors, b.text))
        elif b.tag == "pre":
            out += ["", "```", b.text, "```", ""]
        elif "blockquote" in b.ancestors:
            out += ["", "> " + b.text, ""]
        else:
            out += ["", b.text, ""]
        prev_kind = kind
    end_row()
    lines: list[str] = []
    for line in out:
        if line == "" and (not lines or lines[-1] == ""):
            continue
        lines.append(line)
    return "\n".join(lines).strip() + "\n"


def _block_dict(res: Result, i: int) -> dict[str, Any]:
    b = res.blocks[i]
    d: dict[str, Any] = {
        "index": b.index,
        "text": b.text,
        "kept": bool(res.kept[i]),
        "score": round(float(res.scores[i]), 4),
        "tag": b.tag,
        "xpath": b.xpath,
        "heading_path": list(b.heading_path),
        "heading_level": b.heading_level,
        "list_depth": b.list_depth,
        "table_depth": b.table_depth,
        "link_chars": b.link_chars,
        "hidden": b.hidden,
        "comment": bool(res.comment[i]) if res.comment is not None and len(res.comment) else False,
    }
    if res.reasons is not None:
        d["reasons"] = [_reason_dict(name, value, c) for name, value, c in res.reasons[i]]
    return d


def _reason_dict(name: str, value: float, contribution: float) -> dict[str, Any]:
    from .explain import describe

    return {"feature": name, "value": round(value, 4), "contribution": round(contribution, 4),
            "text": describe(name, value, contribution)}


def to_dict(res: Result) -> dict[str, Any]:
    """Everything about the page: metadata, verdict, warnings, statistics, every block."""
    meta = res.metadata
    return {
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
        "text": res.text,
        **({"comments": [b.text for b, c in zip(res.blocks, res.comment) if c]}
           if res.comments == "separate" and res.comment is not None else {}),
        "blocks": [_block_dict(res, i) for i in range(len(res.blocks))],
    }


def removal_log(res: Result) -> list[dict[str, Any]]:
    """One record per removed block: page, element path, text, score, threshold, reasons."""
    out = []
    for i, (b, k) in enumerate(zip(res.blocks, res.kept)):
        if k:
            continue
        rec: dict[str, Any] = {
            "page": res.name or res.url,
            "xpath": b.xpath,
            "text": b.text,
            "score": round(float(res.scores[i]), 4),
            "threshold": res.threshold,
        }
        if b.hidden:
            rec["hidden"] = True
        if res.comment is not None and len(res.comment) and res.comment[i] and res.comments != "keep":
            rec["reason"] = "comment"  # part of a readers' comment thread
        if res.reasons is not None:
            rec["reasons"] = [_reason_dict(*r)["text"] for r in res.reasons[i] if r[2] < 0] or [
                _reason_dict(*r)["text"] for r in res.reasons[i]
            ] or ([HIDDEN_UNREAD] if b.hidden else [])
        out.append(rec)
    return out
