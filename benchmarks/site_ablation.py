"""Does cross-page site evidence help? F1 with and without it, same model, same pages.

For each split, pages are grouped into subsets: the multi-page datasets (utomo_big9,
cleanportaleval, sphinx_sites), dragnet pages whose site has at least ``--min-pages`` pages in
the split, small sites (2 to ``--min-pages - 1`` pages, any dataset) and single-page sites
(any dataset, a seeded sample). Each subset is extracted as one batch twice with
`blockclf.evaluate.evaluate_records`: ``use_site=True`` (pages of a site are each other's
evidence) and ``use_site=False`` (repetition features left NaN). Scores follow DESIGN §4.

It also extracts the utomo_big9 test pages as one batch (site from the index, as with
``--site``; and site only from URLs found in the pages, as a bare ``blockclf extract DIR``
sees them) and one page at a time.

    python benchmarks/site_ablation.py ../shared/benchmark --splits dev test --out site_ablation.json
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout without installing

from blockclf import load_model
from blockclf.data import PageRecord, read_index
from blockclf.evaluate import evaluate_records, score_text
from blockclf.predict import extract_batch, prepare

MULTI = ("utomo_big9", "cleanportaleval", "sphinx_sites")


def subsets(records: list[PageRecord], min_pages: int, sample: int, seed: int) -> dict[str, list[PageRecord]]:
    """Named groups of whole sites (a site is never split between groups)."""
    size = Counter(r.site for r in records)
    out: dict[str, list[PageRecord]] = {}
    for name in MULTI:
        out[name] = [r for r in records if r.dataset == name]
    out[f"dragnet sites >={min_pages} pages"] = [
        r for r in records if r.dataset == "dragnet" and size[r.site] >= min_pages]
    rest = [r for r in records if r.dataset not in MULTI]
    small_sites = sorted({r.site for r in rest if 2 <= size[r.site] < min_pages})
    rng = random.Random(seed)
    rng.shuffle(small_sites)
    keep: set[str] = set()
    n = 0
    for s in small_sites:
        if n >= sample:
            break
        keep.add(s)
        n += size[s]
    out[f"small sites 2-{min_pages - 1} pages (sample)"] = [r for r in rest if r.site in keep]
    single = [r for r in rest if size[r.site] == 1]
    rng.shuffle(single)
    out["single-page sites (sample)"] = sorted(single[:sample], key=lambda r: r.key)
    return {k: v for k, v in out.items() if v}


def ablation(records: list[PageRecord], model, favor: str) -> dict:
    with_site = evaluate_records(records, model, favor=favor, use_site=True)
    without = evaluate_records(records, model, favor=favor, use_site=False)
    merged = with_site.merge(without, on=["dataset", "id"], suffixes=("_site", "_nosite"))
    delta = merged["f1_site"] - merged["f1_nosite"]
    return {
        "pages": len(merged),
        "sites": int(with_site["site"].nunique()),
        "f1_site": float(merged["f1_site"].mean()),
        "f1_nosite": float(merged["f1_nosite"].mean()),
        "p_site": float(merged["precision_site"].mean()),
        "p_nosite": float(merged["precision_nosite"].mean()),
        "r_site": float(merged["recall_site"].mean()),
        "r_nosite": float(merged["recall_nosite"].mean()),
        "pages_better": int((delta > 0.005).sum()),
        "pages_worse": int((delta < -0.005).sum()),
    }


def batch_vs_alone(records: list[PageRecord], model, favor: str) -> dict:
    """Mean F1 of the pages extracted as one batch vs each page alone."""
    pages = [prepare(r.html_path, url=r.url, site=r.site, name=r.key) for r in records]
    # as `blockclf extract DIR` without --site sees them: the site only from URLs in the page
    own_url = [prepare(r.html_path, name=r.key) for r in records]
    gold = {r.key: r.read_gold() for r in records}

    def mean_f1(results) -> float:
        return sum(score_text(res.text, gold[res.name]).f1 for res in results) / len(results)

    return {"pages": len(pages), "sites_from_page_urls": len({p.site for p in own_url if p.site}),
            "pages_without_site_from_page_urls": sum(not p.site for p in own_url),
            "f1_batch": mean_f1(extract_batch(pages, model=model, favor=favor)),
            "f1_batch_page_urls_only": mean_f1(extract_batch(own_url, model=model, favor=favor)),
            "f1_alone": mean_f1([extract_batch([p], model=model, favor=favor)[0] for p in pages])}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("bench", help="benchmark directory (index.jsonl)")
    ap.add_argument("--model", help="model file (default: the shipped model)")
    ap.add_argument("--favor", default="balanced")
    ap.add_argument("--splits", nargs="+", default=["dev", "test"])
    ap.add_argument("--min-pages", type=int, default=5, help="a dragnet site needs this many pages in the split")
    ap.add_argument("--sample", type=int, default=150, help="pages sampled for the small/single-page groups")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", help="write the numbers as JSON here")
    args = ap.parse_args(argv)
    model = load_model(args.model)
    report: dict = {"model": args.model or "default", "favor": args.favor, "splits": {}}
    print(f"{'split':5} {'subset':34} {'pages':>5} {'sites':>5} {'F1 site':>8} {'F1 none':>8} {'delta':>7} {'+/-':>7}")
    for split in args.splits:
        records = read_index(args.bench, [split])
        rows = {}
        for name, recs in subsets(records, args.min_pages, args.sample, args.seed).items():
            t0 = time.perf_counter()
            r = ablation(recs, model, args.favor)
            r["seconds"] = round(time.perf_counter() - t0, 1)
            rows[name] = r
            print(f"{split:5} {name:34} {r['pages']:5d} {r['sites']:5d} {r['f1_site']:8.4f} {r['f1_nosite']:8.4f} "
                  f"{r['f1_site'] - r['f1_nosite']:+7.4f} {r['pages_better']:3d}/{r['pages_worse']:<3d}", flush=True)
        report["splits"][split] = rows
    utomo = read_index(args.bench, ["test"], ["utomo_big9"])
    if utomo:
        bva = batch_vs_alone(utomo, model, args.favor)
        report["utomo_big9_test_batch_vs_alone"] = bva
        print(f"utomo_big9 test, {bva['pages']} pages: one batch F1 {bva['f1_batch']:.4f} (site from the index, "
              f"as with --site), one batch with sites from page URLs only {bva['f1_batch_page_urls_only']:.4f} "
              f"({bva['pages_without_site_from_page_urls']} pages without a URL), "
              f"each page alone {bva['f1_alone']:.4f}")
    if args.out:
        Path(args.out).write_text(json.dumps(report, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
