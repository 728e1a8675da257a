"""Label one site's pages by the selector of their main content (the library of ``blockclf label``).

A user rarely has gold text for their pages, but they can usually name the element that
holds the main content (``div.article-body``, ``//main``). This module turns a folder of pages
plus that selector into the labelled layout that ``blockclf train`` reads (DESIGN §3):

```
OUT/index.jsonl                 one line per page: dataset, id, url, domain, lang, split
OUT/<dataset>/html/<id>.html.gz the page's original bytes
OUT/<dataset>/gold/<id>.txt     the text of the content blocks, one block per line
OUT/<dataset>/blocks/<id>.json  one entry per block: text, xpath, content (exact labels)
```

A block is content when its element lies inside an element the selector matches and not
inside one that ``exclude`` matches. Because the labels are exact per block, the blocks file
is written and training uses it instead of re-aligning the gold text.

Two other sources of labels are accepted: a gold text file next to a page (``a.html`` +
``a.txt``), used instead of the selector and aligned with the blocks at training time; and
block-level edits, a JSONL file of ``{"page": ..., "xpath": ..., "label": "content" |
"boilerplate"}`` lines that override the label of every block at or under that element path.

Each page gets a split from a hash of its id (``train``/``dev``/``test``), so the same page
always lands in the same split and held-out pages exist without bookkeeping.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import logging
import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple
from urllib.parse import urlsplit

import numpy as np
from lxml import etree
from lxml.cssselect import CSSSelector, SelectorError

from .batch import Item
from .block import Block
from .data import registered_domain
from .files import NAME_MAX, fit_name, write_atomic
from .html import Document, Limits, PageError, gunzip_bounded, parse, read_source
from .inputs import strip_suffix
from .labels import from_gold
from .predict import page_error
from .segment import segment
from .warc import read_warc

__all__ = ["BLOCKS_FORMAT", "Edit", "LabelReport", "assign_split", "check_dataset_name", "compile_selector",
           "label_blocks", "label_site", "read_edits", "warc_pages"]

log = logging.getLogger("blockclf")

#: format name written into ``blocks/<id>.json``
BLOCKS_FORMAT = "blockclf-blocks/1"
_ID_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")
_XPATH_START = ("/", "(", "./")


def warc_pages(path: str | Path, damage: list[tuple[str, PageError]] | None = None) -> list[Item]:
    """The HTML response records of a WARC file (needs the ``warc`` extra), named by URL.

    Records that cannot be read, and damage to the file, are appended to ``damage`` as
    ``(name, PageError)`` pairs (reasons ``warc-truncated``, ``warc-corrupt``, ``too-large``).
    """
    found: dict[str, PageError] = {}
    items = list(read_warc(path, damage=found))
    if damage is not None:
        damage.extend(found.items())
    return items


@dataclass
class LabelReport:
    """What ``label_site`` did: pages written per split, and pages it could not label."""

    written: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    by_source: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    no_match: list[str] = field(default_factory=list)
    failed: list[tuple[str, str]] = field(default_factory=list)
    no_content: list[str] = field(default_factory=list)  # written with every block boilerplate
    edited_blocks: int = 0
    #: the edits that changed nothing, as (line of the edits file, page named, path): their path
    #: is under no block of a labelled page (``unmatched_edits``: a typo, or a block the segmenter
    #: reads under another path), or their page is none that was labelled (``unused_edit_lines``)
    unmatched_edits: list[tuple[int, str, str]] = field(default_factory=list)
    unused_edit_lines: list[tuple[int, str, str]] = field(default_factory=list)

    @property
    def n_written(self) -> int:
        return sum(self.written.values())

    @property
    def unused_edits(self) -> int:
        """How many edits named no page that was labelled."""
        return len(self.unused_edit_lines)


def compile_selector(selector: str):
    """A function element → matched elements, for a CSS selector or an XPath expression.

    Expressions starting with ``/``, ``(`` or ``./`` are XPath; anything else is CSS (which
    needs the ``cssselect`` package, as lxml's CSS support does).
    """
    sel = selector.strip()
    if not sel:
        raise ValueError("empty selector")
    if sel.startswith(_XPATH_START):
        try:
            return etree.XPath(sel)
        except etree.XPathError as exc:
            raise ValueError(f"not a valid XPath expression: {selector!r} ({exc})") from None
    try:
        return CSSSelector(sel)
    except SelectorError as exc:
        raise ValueError(f"not a valid CSS selector: {selector!r} ({exc})") from None


def _matched_paths(doc: Document, select) -> list[str]:
    """The element paths a selector matches; an XPath that selects text or attributes
    (``//text()``, ``//article/@class``) is a ValueError that says so."""
    tree = doc.root.getroottree()
    found = select(doc.root)
    if not isinstance(found, list) or any(not isinstance(el, etree._Element) for el in found):
        raise ValueError("the --content or --exclude XPath selects text or attributes, not elements")
    return [tree.getpath(el) for el in found if isinstance(el.tag, str)]


def _under(xpath: str, roots: Sequence[str]) -> bool:
    return any(xpath == r or xpath.startswith(r + "/") for r in roots)


def label_blocks(doc: Document, blocks: Sequence[Block], content: str,
                 exclude: Iterable[str] = ()) -> np.ndarray | None:
    """Per-block content flags from selectors; None when ``content`` matches nothing."""
    roots = _matched_paths(doc, compile_selector(content))
    if not roots:
        return None
    skip = [p for sel in exclude for p in _matched_paths(doc, compile_selector(sel))]
    return np.array([_under(b.xpath, roots) and not _under(b.xpath, skip) for b in blocks], dtype=bool)


def assign_split(page_id: str, dev: float = 0.2, test: float = 0.2) -> str:
    """``train``, ``dev`` or ``test`` from a hash of the page id (stable across runs)."""
    u = int(hashlib.sha1(page_id.encode("utf-8")).hexdigest()[:8], 16) / 0x1_0000_0000
    if u < test:
        return "test"
    if u < test + dev:
        return "dev"
    return "train"


class Edit(NamedTuple):
    """One block edit: every block at or under ``xpath`` is made content or not; a later line wins."""

    xpath: str
    content: bool
    line: int


def read_edits(path: str | Path) -> dict[str, list[Edit]]:
    """Block edits from a JSONL file, by the page they name (id, file name or path).

    A line is ``{"page": "<page id, file name or path>", "xpath": "/html/body/div[2]",
    "label": "content" | "boilerplate"}``; later lines win over earlier ones.
    """
    out: dict[str, list[Edit]] = defaultdict(list)
    with open(path, encoding="utf-8") as fh:
        for n, line in enumerate(fh, 1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
                label = str(row["label"]).lower()
                if label not in ("content", "boilerplate"):
                    raise ValueError(f"label must be 'content' or 'boilerplate', not {label!r}")
                out[str(row["page"])].append(Edit(str(row["xpath"]).rstrip("/"), label == "content", n))
            except (json.JSONDecodeError, KeyError, TypeError, ValueError) as exc:
                raise ValueError(f"{path}:{n}: not a block edit ({exc})") from None
    return dict(out)


def _page_id(stem: str) -> str:
    if "://" in stem:  # a URL: its path and query name the page
        parts = urlsplit(stem)
        stem = (parts.path.strip("/") or "index") + (f"-{parts.query}" if parts.query else "")
    page_id = _ID_UNSAFE.sub("-", stem.replace("\\", "/").replace("/", "--")).strip("-") or "page"
    return fit_name(page_id, NAME_MAX - len(".html.gz"))  # a deep folder's path joined may be too long a name


def _gold_file(path: Path, suffix: str) -> Path | None:
    name = strip_suffix(path.name) or path.name
    cand = path.with_name(name + suffix)
    return cand if cand.is_file() else None


def _apply_edits(blocks: Sequence[Block], content: np.ndarray,
                 edits: Sequence[Edit]) -> tuple[np.ndarray, int, list[Edit]]:
    """The labels with ``edits`` applied, how many changed, and the edits whose path is under no block."""
    content = content.copy()
    changed = 0
    unmatched: list[Edit] = []
    for edit in sorted(edits, key=lambda e: e.line):  # later lines win
        matched = False
        for i, b in enumerate(blocks):
            if _under(b.xpath, [edit.xpath]):
                matched = True
                if content[i] != edit.content:
                    content[i] = edit.content
                    changed += 1
        if not matched:
            unmatched.append(edit)
    return content, changed, unmatched


def _write_page(root: Path, dataset: str, page_id: str, raw: bytes, blocks: Sequence[Block],
                content: np.ndarray | None, gold: str) -> None:
    for sub in ("html", "gold", "blocks"):
        (root / dataset / sub).mkdir(parents=True, exist_ok=True)
    write_atomic(root / dataset / "html" / f"{page_id}.html.gz", gzip.compress(raw, mtime=0))
    write_atomic(root / dataset / "gold" / f"{page_id}.txt", gold)
    bpath = root / dataset / "blocks" / f"{page_id}.json"
    if content is None:
        bpath.unlink(missing_ok=True)
        return
    data = {"format": BLOCKS_FORMAT,
            "blocks": [{"text": b.text, "xpath": b.xpath, "content": bool(c)} for b, c in zip(blocks, content)]}
    write_atomic(bpath, json.dumps(data, ensure_ascii=False, indent=0))


def _merge_index(out: Path, dataset: str, rows: list[dict]) -> None:
    index = out / "index.jsonl"
    kept: list[str] = []
    if index.exists():
        for line in index.read_text(encoding="utf-8").splitlines():
            try:
                if line.strip() and json.loads(line).get("dataset") != dataset:
                    kept.append(line)
            except json.JSONDecodeError:
                kept.append(line)
    kept += [json.dumps(r, ensure_ascii=False) for r in rows]
    write_atomic(index, "".join(line + "\n" for line in kept))


@dataclass
class _Read:
    """One page as labelling reads it: where it came from, its bytes, tree and visible blocks."""

    path: Path | None
    name: str
    where: str
    raw: bytes
    doc: Document
    blocks: list[Block]


def _read(item: tuple[Path, str] | Item, limits: Limits) -> _Read:
    """Read a page as extract reads it (bounded gunzip, regular files only); raises on any failure."""
    path, name = (None, item.name) if isinstance(item, Item) else item
    where = str(path) if path is not None else name
    src = item.source if isinstance(item, Item) else path
    if src is None:
        raise PageError("empty", "no page")
    if isinstance(src, Path):
        raw = read_source(src, limits.max_bytes)
    else:
        raw = src if isinstance(src, bytes) else src.encode("utf-8")
        if raw[:2] == b"\x1f\x8b":
            raw = gunzip_bounded(raw, where, limits.max_bytes)
    doc = parse(raw, encoding=item.encoding if isinstance(item, Item) else None, limits=limits)
    blocks = [b for b in segment(doc, limits) if not b.hidden]  # as training and scoring see the page
    return _Read(path, name, where, raw, doc, blocks)


def _labels(page: _Read, gold_suffix: str | None, content: str | None,
            exclude: Sequence[str]) -> tuple[np.ndarray | None, str, str] | str | None:
    """``(block flags or None, gold text, label source)``; a failure's message; None when the
    selector matched nothing. Flags are None when the labels come from a gold file."""
    gold_path = _gold_file(page.path, gold_suffix) if gold_suffix and page.path is not None else None
    if gold_path is not None:
        try:
            return None, gold_path.read_text(encoding="utf-8"), "gold file"
        except (OSError, UnicodeDecodeError) as exc:
            return f"gold file {gold_path.name} cannot be read ({exc})"
    if not content:
        return "no gold file next to it and no --content selector"
    flags = label_blocks(page.doc, page.blocks, content, exclude)
    return None if flags is None else (flags, "", "selector")


def check_dataset_name(name: str) -> str:
    """``name`` when it can name a dataset: its folder inside the dataset directory, so one name
    of letters, digits, ``.``, ``_`` and ``-`` (not ``.`` or ``..``); raises `ValueError` for
    any other, which as a path (``/abs``, ``../x``) wrote the pages outside the directory."""
    if not name or _ID_UNSAFE.search(name) or name in (".", ".."):
        raise ValueError(f"a dataset name is one word of letters, digits, '.', '_' and '-', not {name!r}")
    return name


def label_site(pages: Sequence[tuple[Path, str] | Item], out: str | Path, *, content: str | None = None,
               exclude: Iterable[str] = (), dataset: str = "mysite", site: str | None = None,
               gold_suffix: str | None = ".txt", edits: dict[str, list[Edit]] | None = None,
               dev: float = 0.2, test: float = 0.2, limits: Limits | None = None) -> LabelReport:
    """Label ``pages`` and write them under ``out`` as ``dataset``.

    ``pages`` are ``(file, name)`` pairs, or batch `Item`s holding bytes (WARC records).
    Pages are read within ``limits`` (default `Limits`), as ``blockclf extract`` reads them:
    a page that cannot be read or parsed, for any reason, is reported in
    `LabelReport.failed` and the run goes on.

    Labels come, per page, from a gold file next to the page (when ``gold_suffix`` finds
    one), else from the ``content`` selector. Pages with neither, or whose selector matches
    nothing, are reported and not written. Rows of other datasets in ``out/index.jsonl`` are
    kept; this dataset's rows are replaced. A ``dataset`` that is not one plain name raises
    `ValueError` (`check_dataset_name`).
    """
    check_dataset_name(dataset)
    exclude = _checked_selectors(content, exclude)
    out = Path(out)
    limits = limits or Limits()
    edits = edits or {}
    used_edit_keys: set[str] = set()
    report = LabelReport()
    rows = []
    seen: set[str] = set()
    for item in pages:
        name = item.name if isinstance(item, Item) else item[1]
        where = str(item[0]) if not isinstance(item, Item) else name
        page_id = _unique_id(name, where, seen)
        read = _read_labelled(item, where, limits, gold_suffix, content, exclude, report)
        if read is None:
            continue
        page, labelled = read
        keys = {page_id, name, where} | ({page.path.name} if page.path is not None else set())
        used_edit_keys.update(k for k in keys if k in edits)
        flags, gold, source = _edited(page, labelled, [e for key in sorted(keys) for e in edits.get(key, [])], report,
                                      where)
        _write_page(out, dataset, page_id, page.raw, page.blocks, flags, gold)
        split = assign_split(page_id, dev, test)
        url = item.url if isinstance(item, Item) and item.url else page.doc.url
        rows.append({"dataset": dataset, "id": page_id, "url": url, "domain": registered_domain(url),
                     "lang": page.doc.lang, "split": split, "source_file": where, "label_source": source})
        report.written[split] += 1
        report.by_source[source] += 1
        if not gold.strip():  # an empty gold file, or an --exclude that takes in all the content
            report.no_content.append(where)
    report.unused_edit_lines = sorted((e.line, k, e.xpath) for k, v in edits.items() if k not in used_edit_keys
                                      for e in v)
    report.unmatched_edits.sort()
    _finish_index(out, dataset, site, rows)
    return report


def _checked_selectors(content: str | None, exclude: Iterable[str]) -> list[str]:
    """The ``exclude`` selectors as a list, once every selector has compiled: a bad one fails
    the run before any page is read."""
    if content:
        compile_selector(content)
    exclude = list(exclude)
    for sel in exclude:
        compile_selector(sel)
    return exclude


def _unique_id(name: str, where: str, seen: set[str]) -> str:
    """The page's id from its name, made unique in ``seen`` (which it joins) by a hash of ``where``."""
    page_id = _page_id(name)
    if page_id in seen:
        page_id = f"{page_id}-{hashlib.sha1(where.encode()).hexdigest()[:6]}"
    seen.add(page_id)
    return page_id


def _read_labelled(item: tuple[Path, str] | Item, where: str, limits: Limits, gold_suffix: str | None,
                   content: str | None, exclude: Sequence[str],
                   report: LabelReport) -> tuple[_Read, tuple[np.ndarray | None, str, str]] | None:
    """The page read and its labels (`_labels`); None, with the reason put in ``report``, when
    it cannot be read or has no labels."""
    try:
        page = _read(item, limits)
    except Exception as exc:  # a bug or a library failure on one page must not end the run
        report.failed.append((where, str(page_error(exc, where))))
        return None
    labelled = _labels(page, gold_suffix, content, exclude)
    if labelled is None:
        report.no_match.append(where)
        return None
    if isinstance(labelled, str):
        report.failed.append((where, labelled))
        return None
    return page, labelled


def _edited(page: _Read, labelled: tuple[np.ndarray | None, str, str], page_edits: list[Edit],
            report: LabelReport, where: str) -> tuple[np.ndarray | None, str, str]:
    """The labels with the page's block edits applied (counted in ``report``), and the gold
    text they give, ending in a newline. A gold file's text is aligned to blocks only when
    edits need block labels."""
    flags, gold, source = labelled
    if page_edits:
        if flags is None:
            flags = from_gold(page.blocks, gold).content
        flags, changed, unmatched = _apply_edits(page.blocks, flags, page_edits)
        report.edited_blocks += changed
        report.unmatched_edits += [(e.line, where, e.xpath) for e in unmatched]
        source += " + edits"
    if flags is not None:
        gold = "\n".join(b.text for b, c in zip(page.blocks, flags) if c)
    gold = gold if gold.endswith("\n") or not gold else gold + "\n"
    return flags, gold, source


def _finish_index(out: Path, dataset: str, site: str | None, rows: list[dict[str, Any]]) -> None:
    """Give every row one site, and merge the rows into ``out/index.jsonl``."""
    # the pages of one run are one site: its repetition evidence must pool them all
    domains = Counter(r["domain"] for r in rows if r["domain"])
    common = site or (domains.most_common(1)[0][0] if domains else dataset)
    for r in rows:
        r["domain"] = common
    if rows:
        _merge_index(out, dataset, rows)
