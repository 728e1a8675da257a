"""Page verdicts against wcxb's page types: the confusion table (page type × verdict).

Each split's wcxb pages are extracted as one batch with site evidence, exactly as ``blockclf
evaluate`` does, and each page's verdict is counted under its ``page_type`` from the index.
``--split train+dev`` extracts each split as its own batch (as separate runs would) and
counts them together. The verdict rules were chosen on train and dev; report on test.

    python benchmarks/verdicts.py [../shared/benchmark] [--split train+dev] [--show index]
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout without installing

import pandas as pd

from blockclf.data import read_index
from blockclf.evaluate import score_records

VERDICTS = ["document", "index", "error", "too-little-text", "empty", "failed"]


def confusion(df) -> str:
    """The Markdown table: one row per page type, a column per verdict, and the share given ``index``."""
    counts = df.groupby(["page_type", "verdict"]).size().unstack(fill_value=0)
    cols = [v for v in VERDICTS if v in counts.columns] or list(counts.columns)
    lines = ["| page type | pages | " + " | ".join(cols) + " | index share |",
             "|---|---:" + "|---:" * len(cols) + "|---:|"]
    order = counts.sum(axis=1).sort_values(ascending=False).index
    for pt in order:
        row = counts.loc[pt]
        n = int(row.sum())
        cells = [str(int(row.get(c, 0))) for c in cols]
        lines.append(f"| {pt} | {n} | " + " | ".join(cells) + f" | {row.get('index', 0) / n:.1%} |")
    lc = counts.loc[[p for p in ("listing", "collection") if p in counts.index]]
    if len(lc):
        share = lc.get("index", 0).sum() / lc.sum(axis=1).sum()
        lines.append(f"| listing + collection | {int(lc.sum(axis=1).sum())} | " + " | ".join(
            str(int(lc[c].sum())) if c in lc else "0" for c in cols) + f" | {share:.1%} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("bench", type=Path, nargs="?",
                    default=Path(os.environ.get("BLOCKCLF_BENCH", "../shared/benchmark")))
    ap.add_argument("--split", default="test", help="a split, or several joined by '+' (train+dev)")
    ap.add_argument("--model")
    ap.add_argument("--show", metavar="VERDICT", help="list the pages given this verdict, with their page type")
    args = ap.parse_args(argv)
    splits = args.split.split("+")
    frames = []
    for split in splits:
        df = score_records(read_index(args.bench, [split], ["wcxb"]), args.model)[0]
        frames.append(df.assign(split=split))
    df = pd.concat(frames, ignore_index=True)
    print(f"wcxb {args.split}: {len(df)} pages; verdict per page type\n")
    print(confusion(df))
    if len(splits) > 1:
        for split, part in df.groupby("split", sort=False):
            print(f"\nwcxb {split}: {len(part)} pages\n")
            print(confusion(part))
    if args.show:
        for _, r in df[df["verdict"] == args.show].iterrows():
            print(f"{r['split']}\t{r['id']}\t{r['page_type']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
