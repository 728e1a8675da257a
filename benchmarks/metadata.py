"""Page metadata against the readability pages' expected metadata, blockclf beside trafilatura.

Each field is scored on the pages whose expected metadata has it: ``title`` and ``author``
count a page when the token F1 (DESIGN section 4 tokens) against the expected title or byline
is at least 0.8, ``date`` when the publication date falls on the same calendar day (the
page's own local date), ``lang`` when the primary language subtags are equal (Norwegian Bokmål
``nb`` and Nynorsk ``nn`` counted as Norwegian, ``no``). trafilatura is
``bare_extraction(html, url=url, with_metadata=True)`` (it reports no language unless asked to
filter on one). ``--cost N`` also times `blockclf.metadata.page_metadata` alone on N pages
spread over the datasets' test splits (parsing and segmenting not counted).

``--fundus DIR`` scores the fundus pages as well, against what the fundus project's own
parsers read from each page (a checkout of its repository: the title, authors and publishing
date in ``tests/resources/parser/test_data/<country>/<Publisher>.json``, the parser version the
index names; the authors joined with ", "), and the index's language: news pages of 138
publishers in 20+ languages, where the readability pages are mostly English.

    python benchmarks/metadata.py [../shared/benchmark] [--split all|train+dev|test] [--cost 200] [--show]
                                  [--fundus DIR]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout without installing

from dateutil import parser as dateparser

from blockclf import extract
from blockclf.data import read_index
from blockclf.html import PageError, read_source
from blockclf.metadata import page_metadata
from blockclf.predict import prepare

FIELDS = ("title", "author", "date", "lang")
EXPECTED = {"title": "title", "author": "byline", "date": "publishedTime", "lang": "lang"}
_WORD = re.compile(r"\w+")


def token_f1(a: str, b: str) -> float:
    ta, tb = _WORD.findall(a.lower()), _WORD.findall(b.lower())
    if not ta or not tb:
        return 0.0
    rest: dict[str, int] = {}
    for t in tb:
        rest[t] = rest.get(t, 0) + 1
    m = 0
    for t in ta:
        if rest.get(t, 0) > 0:
            rest[t] -= 1
            m += 1
    return 2 * m / (len(ta) + len(tb))


def _day(value: Any) -> str | None:
    if not value:
        return None
    try:
        return dateparser.parse(str(value)).date().isoformat()
    except (ValueError, OverflowError, TypeError):
        return None


def hit(field: str, got: Any, want: Any) -> bool:
    if not got:
        return False
    if field in ("title", "author"):
        return token_f1(str(got), str(want)) >= 0.8
    if field == "date":
        return _day(got) is not None and _day(got) == _day(want)
    return _macro(str(got).lower().replace("_", "-").split("-")[0]) == _macro(str(want).lower().split("-")[0])


#: languages counted as their macrolanguage: Norwegian Bokmål and Nynorsk as Norwegian (the
#: fundus index says ``no`` where a Norwegian page declares ``nb``)
_MACRO = {"nb": "no", "nn": "no"}


def _macro(lang: str) -> str:
    return _MACRO.get(lang, lang)


def blockclf_fields(html: bytes, url: str | None) -> dict[str, Any]:
    m = prepare(html, url=url).metadata
    return {"title": m.title, "author": m.author, "date": m.date, "lang": m.lang}


def trafilatura_fields(html: bytes, url: str | None) -> dict[str, Any]:
    from trafilatura import bare_extraction

    doc = bare_extraction(html.decode("utf-8", errors="replace"), url=url, with_metadata=True)
    if doc is None:
        return {}
    d = doc.as_dict() if hasattr(doc, "as_dict") else dict(doc)
    return {"title": d.get("title"), "author": d.get("author"), "date": d.get("date"), "lang": d.get("language")}


def table(rows: list[dict[str, Any]], systems: list[str]) -> str:
    lines = ["| system | " + " | ".join(f"{f} (n={sum(1 for r in rows if r['want'].get(EXPECTED[f]))})"
                                         for f in FIELDS) + " |", "|---" + "|---:" * len(FIELDS) + "|"]
    for sys_name in systems:
        cells = []
        for f in FIELDS:
            scored = [r for r in rows if r["want"].get(EXPECTED[f])]
            good = sum(hit(f, r[sys_name].get(f), r["want"][EXPECTED[f]]) for r in scored)
            cells.append(f"{good / len(scored):.3f}" if scored else "-")
        lines.append(f"| {sys_name} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def cost(bench: Path, n: int) -> float:
    """Mean ms per page of `page_metadata` on ``n`` test pages taken evenly over the datasets.

    The whole pipeline (`extract` of the page's bytes, metadata included) is timed on the same
    pages in the same run, so that the share stands even when the machine's load moves both.
    """
    records = read_index(bench, ["test"])
    by_ds: dict[str, list[Any]] = {}
    for r in records:
        by_ds.setdefault(r.dataset, []).append(r)
    picked: list[Any] = []
    while len(picked) < n and any(by_ds.values()):
        for ds in sorted(by_ds):
            if by_ds[ds] and len(picked) < n:
                picked.append(by_ds[ds].pop(0))
    pages, raw, urls = [], [], []
    for r in picked:
        data = read_source(r.html_path)
        try:
            pages.append(prepare(data, url=r.url))
        except PageError:  # an unusable page is simply not timed
            continue
        raw.append(data)
        urls.append(r.url)
    page_metadata(pages[0].doc, pages[0].blocks, pages[0].url)  # the language model is read once, on first use
    extract(raw[0], url=urls[0])  # and the shipped model
    total = whole = 0.0
    for p, data, url in zip(pages, raw, urls):
        t0 = time.perf_counter()
        for _ in range(3):
            page_metadata(p.doc, p.blocks, p.url)
        t1 = time.perf_counter()
        extract(data, url=url)
        total += (t1 - t0) / 3
        whole += time.perf_counter() - t1
    print(f"page_metadata: {1000 * total / len(pages):.3f} ms/page; whole extract(): {1000 * whole / len(pages):.2f}"
          f" ms/page; share {total / whole:.1%} ({len(pages)} pages)")
    return 1000 * total / len(pages)


def _scored(base: Path, split: str, peer: bool, expected: Callable[[dict[str, Any]], dict[str, Any]]
            ) -> list[dict[str, Any]]:
    """Each page of the dataset folder ``base`` in ``split``: its expected metadata (``expected``
    of its index record) and what each system reads."""
    rows = []
    for line in (base / "index.jsonl").read_text().splitlines():
        rec = json.loads(line)
        if (split == "test" and rec["split"] != "test") or (split == "train+dev" and rec["split"] == "test"):
            continue
        html = read_source(next((base / "html").glob(f"{rec['id']}.*")))
        row = {"id": rec["id"], "split": rec["split"], "want": expected(rec),
               "blockclf": blockclf_fields(html, rec.get("url"))}
        if peer:
            row["trafilatura"] = trafilatura_fields(html, rec.get("url"))
        rows.append(row)
    return rows


def _fundus_expected(repo: Path) -> Callable[[dict[str, Any]], dict[str, Any]]:
    """A fundus page's expected metadata, in the readability pages' keys, from a checkout of the
    fundus repository: page ``de-NTV_2024_08_05`` is ``test_data/de/NTV.json``'s entry for the
    parser version the index names."""
    files: dict[Path, dict[str, Any]] = {}

    def expected(rec: dict[str, Any]) -> dict[str, Any]:
        country, _, rest = rec["id"].partition("-")
        path = repo / "tests" / "resources" / "parser" / "test_data" / country / f"{rest.rsplit('_', 3)[0]}.json"
        if path not in files:
            files[path] = json.loads(path.read_text(encoding="utf-8"))
        want = files[path].get(rec.get("parser_version", "V1"), {})
        return {"title": want.get("title"), "byline": ", ".join(want.get("authors") or []),
                "publishedTime": want.get("publishing_date"), "lang": rec.get("lang")}

    return expected


def _misses(rows: list[dict[str, Any]]) -> None:
    for r in rows:
        for f in FIELDS:
            want = r["want"].get(EXPECTED[f])
            if want and not hit(f, r["blockclf"].get(f), want):
                print(f"{r['id']:28} {r['split']:5} {f:6} got {r['blockclf'].get(f)!r:.80} want {want!r:.80}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("bench", type=Path, nargs="?",
                    default=Path(os.environ.get("BLOCKCLF_BENCH", "../shared/benchmark")))
    ap.add_argument("--split", default="all", choices=["all", "train+dev", "test"])
    ap.add_argument("--no-peer", action="store_true", help="blockclf only")
    ap.add_argument("--show", action="store_true", help="print each page's misses")
    ap.add_argument("--cost", type=int, default=0, metavar="N", help="also time page_metadata on N test pages")
    ap.add_argument("--fundus", type=Path, metavar="DIR",
                    help="a checkout of the fundus repository: score the fundus pages too")
    args = ap.parse_args(argv)
    systems = ["blockclf"] + ([] if args.no_peer else ["trafilatura"])
    base = args.bench / "readability"
    rows = _scored(base, args.split, not args.no_peer,
                   lambda rec: json.loads((base / "meta" / f"{rec['id']}.json").read_text()))
    print(f"readability pages, split {args.split}: {len(rows)} pages; share of pages right, per field\n")
    print(table(rows, systems))
    if args.show:
        _misses(rows)
    if args.fundus:
        if not (args.fundus / "tests" / "resources" / "parser" / "test_data").is_dir():
            ap.error(f"{args.fundus} is not a checkout of the fundus repository (no tests/resources/parser/test_data)")
        rows = _scored(args.bench / "fundus", args.split, not args.no_peer, _fundus_expected(args.fundus))
        print(f"\nfundus pages, split {args.split}: {len(rows)} pages (expected: the fundus parsers' own reading)\n")
        print(table(rows, systems))
        if args.show:
            _misses(rows)
    if args.cost:
        print()
        cost(args.bench, args.cost)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
