"""``blockclf evaluate``: a model's scores against gold text, per dataset and overall, and reports.

The harness (`blockclf.evaluate`) and the reports (`blockclf.report`) need pandas and the
training libraries: they are imported when a benchmark is scored, not at start-up.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from ..data import read_index
from ..files import printable
from ..model import FAVORS, cached_model
from .common import EXIT_CODES, UsageError, check_threshold, labelled_records, make_output_folder

__all__ = ["add_parser", "run"]


def run(args: argparse.Namespace) -> int:
    """Print P/R/F1 per dataset and overall; with ``--report``, write the report folder."""
    import pandas as pd  # deliberately lazy: pandas and the harness cost the other commands' start-up

    from ..evaluate import score_records, summary
    from ..report import write_report

    check_threshold(args.threshold)
    model = cached_model(args.model)  # read here once: forked workers find it read (they are given its name)
    problems: list[str] = []
    listed = read_index(args.bench, [args.split], args.dataset or None, problems)
    records = labelled_records(listed, problems, need_gold=True)
    if not records:
        raise UsageError(f"no pages with split '{args.split}' and gold text in {args.bench}")
    if args.report:  # a report folder that cannot be made is found before the scoring, not after it
        make_output_folder(Path(args.report))
    df, results, golds = score_records(records, args.model, favor=args.favor, threshold=args.threshold,
                                       use_site=not args.no_site)
    failed = df[df["verdict"] == "failed"]
    for key, why in zip(failed["dataset"] + "/" + failed["id"], failed["warnings"]):
        print(f"blockclf: {printable(key)} could not be read, scored 0: {printable(why)}", file=sys.stderr)
    table = summary(df)
    with pd.option_context("display.width", 120, "display.max_rows", 200):
        print(f"split {args.split}, favor {args.favor if args.threshold is None else f'threshold {args.threshold}'}")
        print(table.round(3).to_string())
    if args.report:
        page = write_report(args.report, df, results, golds, model,
                            {"split": args.split, "favor": args.favor, "threshold": args.threshold,
                             "model": args.model or "default"},
                            records=records, favor=args.favor, threshold=args.threshold, use_site=not args.no_site)
        print(f"report written to {args.report} (open {page})")
    return 1 if problems or len(records) < len(listed) or len(failed) else 0


def add_parser(sub: Any) -> None:
    """Register ``blockclf evaluate`` on the main parser's subparsers."""
    ev = sub.add_parser("evaluate", help="score a model against gold text",
                        epilog=EXIT_CODES, description="Evaluate. Example: "
                                    "blockclf evaluate ../shared/benchmark --split test --report reports/test")
    ev.add_argument("bench", metavar="BENCH",
                    help="directory in the benchmark layout (index.jsonl, <dataset>/html, <dataset>/gold)")
    ev.add_argument("--model", metavar="FILE", help="model file, or 'refined' (default: the shipped default model)")
    ev.add_argument("--split", default="test", help="index.jsonl split to score (default %(default)s)")
    ev.add_argument("--dataset", action="append", metavar="NAME", help="only this dataset (repeatable)")
    ev.add_argument("--favor", choices=FAVORS, default="balanced", help="precision, balanced (default) or recall")
    ev.add_argument("--threshold", type=float, help="raw P(content) threshold, overrides --favor")
    ev.add_argument("--no-site", action="store_true", help="do not use pages of the same site as evidence")
    ev.add_argument("--report", metavar="DIR", help="write metrics.json, pages.csv, PR curve, feature importance, "
                    "worst pages (PNGs) and one self-contained report.html here")
    ev.set_defaults(func=run)
