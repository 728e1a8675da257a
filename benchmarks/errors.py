"""Why the worst pages score badly: each one put down to a single cause.

For the ``--worst`` lowest-F1 pages of each dataset (pages at F1 1.0 are never counted), in
this order of checks:

- ``no main content``: the gold is empty, so any extracted text scores 0;
- ``text not in blocks``: under 80% of the gold's tokens occur in the page's blocks at all
  (parsing or segmentation lost them, or the gold holds text the HTML does not);
- ``label alignment``: the text is there, but the best selection of whole blocks (the
  alignment labels training uses) still scores under 0.8 F1: gold and blocks do not line
  up, so neither training labels nor any classifier can do well on this page;
- ``threshold``: the model's scores order the blocks well enough that some threshold
  reaches an F1 at least 0.2 higher on this page than the mode's threshold does;
- ``block scores``: no threshold separates content from boilerplate on this page: the
  model ranks blocks wrongly, which is where new features or training data would help.

F1 here is DESIGN section 4's (the extracted text against the gold text); the threshold
check estimates F1 from the alignment labels, as `blockclf train` does.

    python benchmarks/errors.py ../shared/benchmark --split test --worst 50 [--favor balanced]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections import Counter
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout without installing

from blockclf import load_model
from blockclf.data import read_index
from blockclf.evaluate import score_records, tokens
from blockclf.labels import from_gold
from blockclf.train import FAVOR_BETA, page_scores

CAUSES = ("no main content", "text not in blocks", "label alignment", "threshold", "block scores")
GRID = np.round(np.arange(0.02, 0.99, 0.02), 2)


class _Page:
    """What `page_scores` reads of a labelled page."""

    def __init__(self, labels) -> None:
        self.labels = labels


def cause(res, gold: str, f1: float, favor: str) -> tuple[str, dict[str, float]]:
    gold_toks = tokens(gold)
    if not gold_toks:
        return "no main content", {}
    have = Counter(t for b in res.blocks for t in tokens(b.text))
    want = Counter(gold_toks)
    coverage = sum((want & have).values()) / len(gold_toks)
    labels = from_gold(res.blocks, gold)
    info = {"coverage": round(coverage, 3), "ceiling": round(labels.quality, 3)}
    if coverage < 0.8:
        return "text not in blocks", info
    if labels.quality < 0.8:
        return "label alignment", info
    page = [_Page(labels)]
    beta = FAVOR_BETA[favor]
    at_mode = float(page_scores(page, [res.scores], res.threshold, beta)[0])
    curve = [float(page_scores(page, [res.scores], t, beta)[0]) for t in GRID]
    best = max(curve)
    info.update(estimated=round(at_mode, 3), best_threshold_estimate=round(best, 3),
                best_threshold=float(GRID[int(np.argmax(curve))]), threshold=res.threshold,
                kept_ratio=res.stats.get("kept_ratio"), max_score=round(float(res.scores.max()), 3))
    if best - at_mode >= 0.2:
        return "threshold", info
    return "block scores", info


def _markdown(df: pd.DataFrame) -> str:
    head = "| dataset | " + " | ".join(df.columns) + " |"
    rule = "|---|" + "---:|" * len(df.columns)
    body = ["| " + str(i) + " | " + " | ".join(f"{v:g}" for v in row) + " |" for i, row in df.iterrows()]
    return "\n".join([head, rule, *body])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("bench", type=Path, nargs="?",
                    default=Path(os.environ.get("BLOCKCLF_BENCH", "../shared/benchmark")))
    ap.add_argument("--split", default="test")
    ap.add_argument("--worst", type=int, default=50)
    ap.add_argument("--favor", default="balanced")
    ap.add_argument("--model")
    ap.add_argument("--out", type=Path, help="write one JSON line per page examined")
    args = ap.parse_args(argv)
    model = load_model(args.model)
    rows = []
    records = read_index(args.bench, [args.split])
    for dataset in sorted({r.dataset for r in records}):
        subset = [r for r in records if r.dataset == dataset]
        df, results, golds = score_records(subset, model, favor=args.favor)
        by_name = {res.name: res for res in results}
        df = df.assign(key=df["dataset"] + "/" + df["id"]).sort_values("f1")
        for _, row in df[df["f1"] < 1.0].head(args.worst).iterrows():
            res = by_name.get(row["key"])
            if res is None:  # could not be read at all
                what, info = "text not in blocks", {"coverage": 0.0}
            else:
                what, info = cause(res, golds[row["key"]], row["f1"], args.favor)
            rows.append({"dataset": dataset, "page": row["key"], "page_type": row["page_type"],
                         "f1": round(float(row["f1"]), 3), "cause": what, **info})
    out = pd.DataFrame(rows)
    if args.out:
        args.out.write_text("".join(json.dumps(r) + "\n" for r in rows))
    out["lost"] = 1 - out["f1"]
    pages = out.pivot_table(index="dataset", columns="cause", values="page", aggfunc="count", fill_value=0)
    lost = out.pivot_table(index="dataset", columns="cause", values="lost", aggfunc="sum", fill_value=0.0)
    pages = pages.reindex(columns=[c for c in CAUSES if c in pages.columns])
    lost = lost.reindex(columns=pages.columns)
    pages.loc["all"] = pages.sum()
    lost.loc["all"] = lost.sum()
    n_split = len(records)
    print(f"{len(out)} pages examined ({args.split}, {args.favor}); pages per cause:")
    print(_markdown(pages))
    print(f"\nF1 points lost per cause (sum of 1 - F1; the split's mean F1 moves by points / {n_split}):")
    print(_markdown(lost.round(1)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
