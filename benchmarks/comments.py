"""Token F1 with readers' comments removed (the default) against kept, per group of pages.

The pages of the chosen datasets and split are prepared once and extracted as one batch in
each mode; dragnet's pages are split by ``has_comments`` (the source gold had a comments
section, which the gold here leaves out).

    python benchmarks/comments.py [../shared/benchmark] [--split test|dev|train|train+dev] [--datasets dragnet,wcxb,...]
        [--pages pages.jsonl]

``--split`` takes one split or several joined by ``+``; ``--pages`` writes one line per page
(dataset, id, group, F1 kept and removed) for looking into the pages a rule changes.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout without installing

from blockclf.data import read_index
from blockclf.evaluate import score_text
from blockclf.html import PageError
from blockclf.predict import extract_batch, prepare


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("bench", type=Path, nargs="?",
                    default=Path(os.environ.get("BLOCKCLF_BENCH", "../shared/benchmark")))
    ap.add_argument("--split", default="test", help="a split, or several joined by + (train+dev)")
    ap.add_argument("--datasets", default="dragnet")
    ap.add_argument("--pages", type=Path, help="write each page's F1 in both modes here (JSON lines)")
    args = ap.parse_args(argv)
    flags = {}
    for line in (args.bench / "index.jsonl").read_text().splitlines():
        row = json.loads(line)
        flags[(row["dataset"], row["id"])] = bool(row.get("has_comments"))
    pages, records = [], []
    for r in read_index(args.bench, args.split.split("+"), args.datasets.split(",")):
        try:
            pages.append(prepare(r.html_path, url=r.url, site=r.site, name=r.key))
        except PageError:
            continue
        records.append(r)
    golds = [r.read_gold() for r in records]
    labels = np.array([f"{r.dataset}, has_comments" if flags[(r.dataset, r.id)] else r.dataset for r in records])
    f1 = {mode: np.array([score_text(res.text, g).f1 for res, g in zip(extract_batch(pages, comments=mode), golds)])
          for mode in ("keep", "remove")}
    print(f"{args.split}: token F1, comments kept vs removed (the default)\n")
    print("| pages | n | keep | remove | pages changed | worse |\n|---|---:|---:|---:|---:|---:|")
    for name in sorted(set(labels)):
        m = labels == name
        diff = f1["remove"][m] - f1["keep"][m]
        print(f"| {name} | {int(m.sum())} | {f1['keep'][m].mean():.4f} | {f1['remove'][m].mean():.4f} | "
              f"{int((np.abs(diff) > 1e-9).sum())} | {int((diff < -1e-9).sum())} |")
    if args.pages:
        with args.pages.open("w", encoding="utf-8") as fh:
            for r, name, keep, remove in zip(records, labels, f1["keep"], f1["remove"]):
                fh.write(json.dumps({"dataset": r.dataset, "id": r.id, "split": r.split, "group": str(name),
                                     "keep": round(float(keep), 4), "remove": round(float(remove), 4)}) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
