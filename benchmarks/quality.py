"""The tables of benchmarks/quality.md: each favor mode per dataset, wcxb page types, languages.

Scores follow DESIGN section 4 (`blockclf.evaluate`); pages are extracted as one batch per
mode, with site evidence, exactly as ``blockclf evaluate`` does.

    python benchmarks/quality.py ../shared/benchmark --split test [--model FILE] [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout without installing

from blockclf import load_model
from blockclf.data import read_index
from blockclf.evaluate import score_records
from blockclf.model import FAVORS


def _f(v: float) -> str:
    return f"{v:.3f}".lstrip("0") if v < 1 else "1.000"


def mode_table(frames: dict[str, pd.DataFrame]) -> str:
    datasets = sorted(next(iter(frames.values()))["dataset"].unique())
    lines = ["| system | P | R | F1 | " + " | ".join(datasets) + " |", "|---" * (4 + len(datasets)) + "|"]
    for favor, df in frames.items():
        per = df.groupby("dataset")["f1"].mean()
        cells = [_f(df["precision"].mean()), _f(df["recall"].mean()), _f(df["f1"].mean())]
        lines.append(f"| blockclf ({favor}) | " + " | ".join(cells + [_f(per[d]) for d in datasets]) + " |")
    return "\n".join(lines)


def group_table(df: pd.DataFrame, column: str, label: str) -> str:
    g = df.groupby(column)
    out = pd.DataFrame({"pages": g.size(), "P": g["precision"].mean(), "R": g["recall"].mean(), "F1": g["f1"].mean()})
    out = out.sort_values("pages", ascending=False)
    lines = [f"| {label} | pages | P | R | F1 |", "|---|---:|---:|---:|---:|"]
    for name, row in out.iterrows():
        lines.append(f"| {name} | {int(row['pages'])} | {_f(row['P'])} | {_f(row['R'])} | {_f(row['F1'])} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("bench", type=Path, nargs="?",
                    default=Path(os.environ.get("BLOCKCLF_BENCH", "../shared/benchmark")))
    ap.add_argument("--split", default="test")
    ap.add_argument("--model")
    ap.add_argument("--json", type=Path, help="also write the per-page scores of every mode")
    args = ap.parse_args(argv)
    model = load_model(args.model)
    records = read_index(args.bench, [args.split])
    frames = {favor: score_records(records, model, favor=favor)[0] for favor in FAVORS}
    print(f"split {args.split}, {len(records)} pages\n")
    print(mode_table(frames) + "\n")
    balanced = frames["balanced"]
    wcxb = balanced[balanced["dataset"] == "wcxb"]
    if len(wcxb) and wcxb["page_type"].notna().any():
        print(group_table(wcxb, "page_type", "wcxb page type (balanced)") + "\n")
    print(group_table(balanced.fillna({"lang": "unknown"}), "lang", "language (balanced)"))
    if args.json:
        args.json.write_text(json.dumps({f: df.to_dict(orient="records") for f, df in frames.items()}) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
