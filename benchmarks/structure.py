"""How much of a page's structure survives in Markdown output, per kind, blockclf beside trafilatura.

Gold structure comes from the element that holds a page's main content: for the
sphinx_sites pages, the element index.jsonl's ``main_selector`` names; for the readability
pages, ``readability/gold_html/<id>.html`` (Readability.js's expected output). Page furniture
(heading anchor glyphs, copy buttons, line-number gutters) is taken out of the gold first.
Each kind is the share of gold items found in the output:

- code blocks: a ``<pre>`` found as a fenced block with every line, in order, with the same
  relative indentation (trailing spaces and blank lines around the block aside);
  (the same with blank lines inside the block left out of both: "blank lines aside");
- headings: an ``h1``-``h6`` found as a Markdown heading line with its text;
- list items: an ``li`` found as a list line (``-``/``*``/``+`` or ``N.``) with its first
  paragraph's text, numbered as on the page in an ``ol`` (sphinx_sites only: the expected
  HTML of readability drops some items of the page's lists, so its counts are not the
  page's numbers), indented when nested; an ``li`` in a cell of a table whose rows are
  scored is left to its row (Markdown has no list inside a table cell: the cell's items
  are joined in the cell);
- table rows: a ``tr`` (of tables without code or nested tables) found as a ``|`` row whose
  non-empty cells are the row's non-empty cells;
- inline code: a ``code``/``kbd``/``samp``/``tt`` outside ``<pre>`` found in backticks.

Texts are compared with Markdown syntax (links, emphasis, backslash escapes, code
backticks) taken off and whitespace ignored; code blocks are compared line by line.

    python benchmarks/structure.py ../shared/benchmark --out /tmp/structure
    python benchmarks/structure.py ../shared/benchmark --out /tmp/structure --score-only

Outputs are written to ``OUT/<tool>/<dataset>/<id>.md`` and scored from there, so any tool's
Markdown folder laid out that way can be scored with ``--score-only --tools NAME``.
"""

from __future__ import annotations

import argparse
import gzip
import os
import re
import sys
import textwrap
import time
from collections import Counter
from pathlib import Path
from typing import Any

from lxml import etree

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout without installing

from blockclf.data import PageRecord, read_index
from blockclf.elements import ANCHOR_GLYPHS, FURNITURE_CLASSES
from blockclf.html import parse

KINDS = ("code blocks verbatim", "code blocks, blank lines aside", "headings", "list items", "table rows",
         "inline code")
_BLOCKS = {"p", "div", "ul", "ol", "dl", "pre", "table", "blockquote", "h1", "h2", "h3", "h4", "h5", "h6",
           "figure", "section"}


# ---- gold ------------------------------------------------------------------------------------

def _strip_furniture(root: etree._Element) -> None:
    doomed = []
    for el in root.iter():
        if not isinstance(el.tag, str):
            continue
        tag = el.tag.lower()
        cls = set((el.get("class") or "").lower().split())
        href = el.get("href") or ""
        if (tag in ("script", "style", "button", "template") or cls & FURNITURE_CLASSES
                or (tag == "a" and href.startswith("#") and (_text(el) or "").strip() in ANCHOR_GLYPHS)):
            doomed.append(el)
    for el in doomed:
        parent = el.getparent()
        if parent is None:
            continue
        tail = el.tail
        if tail:  # the text after the element stays
            prev = el.getprevious()
            if prev is not None:
                prev.tail = (prev.tail or "") + tail
            else:
                parent.text = (parent.text or "") + tail
        parent.remove(el)


def _tag(el: etree._Element) -> str:
    return el.tag.lower() if isinstance(el.tag, str) else ""


def _text(el: etree._Element) -> str:
    return "".join(t for t in el.itertext() if isinstance(t, str))


def _fold(text: str) -> str:
    return re.sub(r"\s+", "", text)


def _code_lines(text: str) -> tuple[str, ...]:
    lines = [line.rstrip() for line in text.replace("\r\n", "\n").split("\n")]
    while lines and not lines[0]:
        lines.pop(0)
    while lines and not lines[-1]:
        lines.pop()
    return tuple(textwrap.dedent("\n".join(lines)).split("\n")) if lines else ()


def _lead(li: etree._Element) -> str:
    """An item's first paragraph: its text up to the first block child (or that child's text)."""
    parts = [li.text or ""]
    for child in li:
        tag = _tag(child)
        if tag in _BLOCKS:
            if not "".join(parts).strip() and tag in ("p", "div"):
                return _text(child)
            break
        parts.append(_text(child) if tag else "")
        parts.append(child.tail or "")
    return "".join(parts)


def _scored_table(table: etree._Element) -> bool:
    """Whether a table's rows are scored as table rows (no code and no table inside it)."""
    return table.find(".//pre") is None and table.find(".//table") is None


def _in_scored_table(node: etree._Element) -> bool:
    """Whether ``node`` sits in a cell of a table whose rows are scored: Markdown has no list
    inside a table cell, so such a list's text is joined in its cell and found in the row."""
    cell = next((a for a in node.iterancestors() if _tag(a) in ("td", "th")), None)
    table = next((a for a in cell.iterancestors() if _tag(a) == "table"), None) if cell is not None else None
    return table is not None and _scored_table(table)


def gold_structure(el: etree._Element) -> dict[str, list]:
    """The structure items of a content element, by kind."""
    _strip_furniture(el)
    out: dict[str, list] = {k: [] for k in KINDS}
    for node in el.iter():
        tag = _tag(node)
        if tag == "pre":
            for br in node.iter("br"):  # a line break in code is a new line
                br.tail = "\n" + (br.tail or "")
            lines = _code_lines(_text(node))
            if lines:
                out["code blocks verbatim"].append(lines)
                out["code blocks, blank lines aside"].append(tuple(line for line in lines if line.strip()))
        elif tag in ("h1", "h2", "h3", "h4", "h5", "h6"):
            text = _fold(_text(node))
            if text:
                out["headings"].append(text)
        elif tag == "li":
            text = _fold(_lead(node))
            if not text or _in_scored_table(node):  # a table cell's list is scored with its row
                continue
            parent = node.getparent()
            number = 0
            if parent is not None and _tag(parent) == "ol":
                items = [c for c in parent if _tag(c) == "li"]
                start = (parent.get("start") or "1").strip()
                number = (int(start) if start.isdigit() else 1) + items.index(node)
            depth = sum(1 for a in node.iterancestors() if _tag(a) == "li")
            out["list items"].append((text, number, depth))
        elif tag == "tr":
            table = next((a for a in node.iterancestors() if _tag(a) == "table"), None)
            if table is None or not _scored_table(table):
                continue
            cells = [_fold(_text(c)) for c in node if _tag(c) in ("td", "th")]
            cells = [c for c in cells if c]
            if cells:
                out["table rows"].append(tuple(cells))
        elif tag in ("code", "kbd", "samp", "tt"):
            if any(_tag(a) in ("pre", "code", "kbd", "samp", "tt") for a in node.iterancestors()):
                continue
            text = _fold(_text(node))
            if text:
                out["inline code"].append(text)
    return out


def gold_for(rec: PageRecord, bench: Path) -> dict[str, list] | None:
    if rec.dataset == "readability":
        path = bench / "readability" / "gold_html" / f"{rec.id}.html"
        if not path.exists():
            return None
        root = parse(path.read_bytes()).root
        body = root.find(".//body")
        gold = gold_structure(body if body is not None else root)
        # the expected HTML leaves out some items of a page's lists, so its count of an ordered
        # list's items is not the page's numbering: only text and nesting are checked there
        gold["list items"] = [(text, 0, depth) for text, _, depth in gold["list items"]]
        return gold
    selector = rec.extra.get("main_selector")
    if not selector:
        return None
    found = parse(rec.html_path).root.xpath(selector)
    return gold_structure(found[0]) if found else None


# ---- output ----------------------------------------------------------------------------------

_FENCE = re.compile(r"^(\s*)(`{3,}|~{3,})(.*)$")
#: a fence that opens a list item ("- ```"): the code is indented by the marker's width
_ITEM_FENCE = re.compile(r"^(\s*(?:[-*+]|\d+[.)])\s+)(`{3,}|~{3,})(.*)$")
_HEADING = re.compile(r"^ {0,3}(#{1,6})\s+(.*?)(?:\s+#+)?\s*$")
_ITEM = re.compile(r"^(\s*)([-*+]|\d+[.)])\s+(.*)$")
_GLYPH_RE = re.compile(r"[¶§🔗]")
_QUOTE = re.compile(r"^(?:> ?)*")
#: quote markers after a list item's indentation: a quote inside the item
_INNER_QUOTE = re.compile(r"^( +)((?:> ?)+)")
_CODE_SPAN = re.compile(r"(?<![`\\])(`+)(?!`)(.+?)(?<!`)\1(?!`)")


def plain(md: str) -> str:
    """Markdown inline text with its syntax taken off, whitespace removed."""
    spans: list[str] = []

    def keep(m: re.Match) -> str:
        spans.append(m.group(2))
        return f"\x00{len(spans) - 1}\x00"

    md = _CODE_SPAN.sub(keep, md)
    for _ in range(2):  # an image inside a link
        md = re.sub(r"(?<!\\)!?\[((?:\\.|[^\[\]\\])*)\]\((?:<[^>]*>|[^)\s]*)(?: \"[^\"]*\")?\)", r"\1", md)
    md = re.sub(r"(?<!\\)(\*\*|__|\*|~~)", "", md)
    md = re.sub(r"\\([!-/:-@\[-`{-~])", r"\1", md)
    md = re.sub(r"\x00(\d+)\x00", lambda m: spans[int(m.group(1))], md)
    return _fold(md)


def _unquoted(line: str) -> str:
    """``line`` without its quote markers, those at its start and those after a list item's indentation
    (which stays, so that the item goes on)."""
    line = _QUOTE.sub("", line)
    inner = _INNER_QUOTE.match(line)
    return inner.group(1) + line[inner.end():] if inner else line


def _quote_markers(line: str) -> tuple[int, int, int]:
    """Quote markers at the start of ``line``, then the indentation after them, then the
    quote markers after that indentation (a quote inside a list item)."""
    outer = _QUOTE.match(line).group(0)  # type: ignore[union-attr]
    rest = line[len(outer):]
    inner = _INNER_QUOTE.match(rest)
    return outer.count(">"), len(inner.group(1)) if inner else 0, inner.group(2).count(">") if inner else 0


def output_structure(md: str) -> dict[str, list]:
    """The structure items found in a Markdown text, by kind."""
    out: dict[str, Any] = {k: [] for k in KINDS}
    out["anchor glyphs"] = 0
    raw = md.split("\n")
    lines = [_unquoted(line) for line in raw]
    prose: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        fence = _FENCE.match(line) or _ITEM_FENCE.match(line)
        if fence:
            indent, mark = len(fence.group(1)), fence.group(2)
            depth, spaces, inner_depth = _quote_markers(raw[i])
            code = []
            i += 1
            while i < len(lines) and not lines[i].strip().startswith(mark[0] * len(mark)):
                inner = re.sub(r"^" + r"> ?" * depth, "", raw[i]) if depth else raw[i]
                if inner_depth:  # a quote inside a list item: its markers follow the item's indentation
                    inner = inner[:spaces] + re.sub(r"^" + r"> ?" * inner_depth, "", inner[spaces:])
                code.append(inner[indent:] if inner[:indent].strip() == "" else inner)
                i += 1
            i += 1
            block = _code_lines("\n".join(code))
            out["code blocks verbatim"].append(block)
            out["code blocks, blank lines aside"].append(tuple(line for line in block if line.strip()))
            continue
        i += 1
        prose.append(line)
        in_item = _ITEM.match(line)  # a heading may open a list item ("2. ### Name") or sit inside one
        heading = _HEADING.match(_QUOTE.sub("", in_item.group(3)) if in_item else line.lstrip(" "))
        if heading:
            text = plain(heading.group(2))
            out["headings"].append(_GLYPH_RE.sub("", text))
            out["anchor glyphs"] += text != _GLYPH_RE.sub("", text)
            continue
        item = _ITEM.match(line)
        if item:
            marker = item.group(2)
            text = _QUOTE.sub("", item.group(3))  # "- > text": an item whose text is quoted
            j, prev = i, line
            # the item's paragraph goes on after a hard line break (a line ending in a backslash
            # or two spaces, the next line indented), as Markdown reads it
            while (j < len(lines) and lines[j].strip() and (prev.endswith(("\\", "  ")))
                   and lines[j].startswith(" ") and not (_ITEM.match(lines[j]) or _FENCE.match(lines[j]))):
                text = text.rstrip("\\") + " " + lines[j].strip()
                prev = lines[j]
                j += 1
            text = text.rstrip("\\")
            out["list items"].append((plain(text), int(marker[:-1]) if marker[0].isdigit() else 0,
                                      len(item.group(1).expandtabs(4))))
        stripped = line.strip()
        if stripped.startswith("|") and stripped.endswith("|") and not re.fullmatch(r"\|[\s:|-]+\|", stripped):
            cells = [plain(c) for c in re.split(r"(?<!\\)\|", stripped[1:-1])]
            out["table rows"].append(tuple(c for c in cells if c))
    text = "\n".join(prose)
    out["inline code"] = [_fold(m.group(2)) for m in _CODE_SPAN.finditer(text) if _fold(m.group(2))]
    return out


def matches(gold: dict[str, list], found: dict[str, list]) -> dict[str, tuple[int, int]]:
    """Per kind: (gold items found, gold items)."""
    res: dict[str, tuple[int, int]] = {}
    for kind in KINDS:
        if kind == "list items":
            continue
        pool = Counter(found[kind])
        hit = 0
        for g in gold[kind]:
            if pool[g] > 0:
                pool[g] -= 1
                hit += 1
        res[kind] = (hit, len(gold[kind]))
    items = list(found["list items"])
    used = [False] * len(items)
    hit = 0
    for text, number, depth in gold["list items"]:
        for j, (t, n, indent) in enumerate(items):
            if used[j] or t != text:
                continue
            if number and n != number:
                continue
            if depth and indent < 2 * depth:
                continue
            used[j] = True
            hit += 1
            break
    res["list items"] = (hit, len(gold["list items"]))
    return res


# ---- tools -----------------------------------------------------------------------------------

def run_blockclf(records: list[PageRecord], out: Path) -> float:
    from blockclf.predict import extract_batch, prepare
    from blockclf.render import to_markdown

    t0 = time.perf_counter()
    pages = []
    for r in records:
        try:
            pages.append(prepare(r.html_path, url=r.url, site=r.site, name=r.key))
        except Exception as exc:
            print(f"blockclf: {r.key}: {exc}", file=sys.stderr)
    for res in extract_batch(pages):
        path = out / f"{res.name}.md"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(to_markdown(res), encoding="utf-8")
    return time.perf_counter() - t0


def run_trafilatura(records: list[PageRecord], out: Path) -> float:
    import trafilatura

    t0 = time.perf_counter()
    for r in records:
        try:
            raw = r.html_path.read_bytes()
            page = gzip.decompress(raw) if r.html_path.suffix == ".gz" else raw
            md = trafilatura.extract(page, url=r.url, output_format="markdown", include_formatting=True,
                                     include_tables=True, include_links=True, include_comments=False) or ""
        except Exception:
            md = ""
        path = out / f"{r.key}.md"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(md, encoding="utf-8")
    return time.perf_counter() - t0


RUNNERS = {"blockclf": run_blockclf, "trafilatura": run_trafilatura}


def score(records: list[PageRecord], golds: dict[str, dict], folder: Path) -> dict[str, dict[str, tuple[int, int]]]:
    """Per dataset and kind, (found, gold) summed over pages, for the Markdown files in ``folder``."""
    totals: dict[str, dict[str, list[int]]] = {}
    for r in records:
        gold = golds.get(r.key)
        if gold is None:
            continue
        path = folder / f"{r.key}.md"
        md = path.read_text(encoding="utf-8") if path.exists() else ""
        per = totals.setdefault(r.dataset, {k: [0, 0] for k in (*KINDS, "anchor glyphs")})
        found = output_structure(md)
        for kind, (hit, n) in matches(gold, found).items():
            per[kind][0] += hit
            per[kind][1] += n
        per["anchor glyphs"][0] += found["anchor glyphs"]
    return {d: {k: (v[0], v[1]) for k, v in per.items()} for d, per in totals.items()}


def table(scores: dict[str, dict], pages: Counter) -> str:
    tools = list(scores)
    lines = []
    for dataset in sorted(pages):
        lines += [f"**{dataset}** ({pages[dataset]} pages)", "",
                  "| kind | gold items | " + " | ".join(tools) + " |", "|---|---:|" + "---:|" * len(tools)]
        for kind in KINDS:
            n = scores[tools[0]].get(dataset, {}).get(kind, (0, 0))[1]
            cells = []
            for tool in tools:
                hit, total = scores[tool].get(dataset, {}).get(kind, (0, 0))
                cells.append(f"{hit / total:.3f}".lstrip("0") if total and hit < total else "1.000" if total else "–")
            lines.append(f"| {kind} | {n} | " + " | ".join(cells) + " |")
        glyphs = [str(scores[t].get(dataset, {}).get("anchor glyphs", (0, 0))[0]) for t in tools]
        lines.append("| headings written with an anchor glyph (count) | | " + " | ".join(glyphs) + " |")
        lines.append("")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("bench", type=Path, nargs="?",
                    default=Path(os.environ.get("BLOCKCLF_BENCH", "../shared/benchmark")))
    ap.add_argument("--out", type=Path, required=True, help="folder for each tool's Markdown outputs")
    ap.add_argument("--tools", default="blockclf,trafilatura", help="comma-separated (default: %(default)s)")
    ap.add_argument("--sphinx-splits", default="dev", help="sphinx_sites splits (default: %(default)s)")
    ap.add_argument("--readability-splits", default="train,dev", help="readability splits (default: %(default)s)")
    ap.add_argument("--score-only", action="store_true", help="score the outputs already in --out")
    args = ap.parse_args(argv)
    records = (read_index(args.bench, args.sphinx_splits.split(","), ["sphinx_sites"])
               + read_index(args.bench, args.readability_splits.split(","), ["readability"]))
    golds = {}
    for r in records:
        gold = gold_for(r, args.bench)
        if gold is not None:
            golds[r.key] = gold
    records = [r for r in records if r.key in golds]
    pages = Counter(r.dataset for r in records)
    scores = {}
    for tool in args.tools.split(","):
        folder = args.out / tool
        if not args.score_only:
            seconds = RUNNERS[tool](records, folder)
            print(f"{tool}: {len(records)} pages in {seconds:.1f} s", file=sys.stderr)
        scores[tool] = score(records, golds, folder)
    print(table(scores, pages))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
