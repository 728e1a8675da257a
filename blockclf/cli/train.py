"""``blockclf train``: a model from labelled pages, from scratch or fine-tuned from a shipped one.

Training needs LightGBM's Python package, scikit-learn and pandas, over a second of start-up:
`blockclf.train` and `blockclf.finetune` are imported when a model is trained, not when the
command line starts (``blockclf extract`` and ``--version`` never pay for them).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from typing import Any

from ..data import PageRecord, read_index
from ..files import printable
from ..model import Model, load_model
from .common import EXIT_CODES, UsageError, labelled_records, whole_number

__all__ = ["add_parser", "run"]


def run(args: argparse.Namespace) -> int:
    """Train (or fine-tune) and write the model; print its thresholds with their dev figures."""
    if args.base or args.extra_data or args.compare or len(args.data) > 1:
        return _finetune(args)
    from ..classifier import BlockClassifier  # deliberately lazy: LightGBM, scikit-learn and pandas
    from ..train import fit_model

    data = args.data[0]
    t0 = time.perf_counter()
    problems: list[str] = []
    listed = read_index(data, [args.split], problems=problems)
    train = labelled_records(listed, problems, need_gold=False)
    listed_dev = read_index(data, [args.dev_split])
    dev = labelled_records(listed_dev, [], need_gold=True)  # its thresholds are chosen on gold text
    if not train:
        raise UsageError(f"no pages with split '{args.split}' in {data}/index.jsonl")
    if not dev:
        raise UsageError(f"no pages with split '{args.dev_split}' in {data}/index.jsonl "
                         "(needed for early stopping and thresholds)")
    _warn_about_dev(dev)
    # --rounds caps the trees; without it the classifier's own cap, which early stopping never reaches
    clf = BlockClassifier(n_estimators=args.rounds, random_state=args.seed, n_jobs=args.jobs) if args.rounds else None
    model = fit_model(train, dev, seed=args.seed, n_jobs=args.jobs, targets=_targets(args), refining=args.refine,
                      classifier=clf)
    model.save(args.output)
    not_read = _name_not_read(model)
    secs = time.perf_counter() - t0
    print(f"trained on {model.info['train_pages']} pages ({model.info['train_pages_excluded']} excluded for poor "
          f"label alignment), {_trees(model)}, in {secs:.0f}s")
    _print_thresholds(model)
    print(f"model written to {args.output}")
    return 1 if problems or not_read or len(train) < len(listed) or len(dev) < len(listed_dev) else 0


def _rounds(value: str) -> int:
    """``--rounds``: a number of trees, at least one (0 and negative counts were taken and ignored)."""
    return whole_number(value, 1, "a number of trees")


def _name_not_read(model: Model) -> list[str]:
    """Name on stderr each page training left out as unreadable (its page, gold or labels), as
    extract names a page it skips; the pages it names."""
    not_read: list[str] = model.info.get("pages_not_read", [])
    for line in not_read:
        print(f"blockclf: skipped {printable(line)}", file=sys.stderr)
    return not_read


def _finetune(args: argparse.Namespace) -> int:
    from ..finetune import FinetuneConfig, compare, finetune  # deliberately lazy: as fit_model

    t0 = time.perf_counter()
    cfg = FinetuneConfig(weight=args.weight, extra_pages=args.extra_pages or None, rounds=args.rounds or 400,
                         seed=args.seed, n_jobs=args.jobs, targets=_targets(args), refine=args.refine)
    base = load_model(args.base) if args.base else None
    problems: list[str] = []
    listed = [r for d in args.data for r in read_index(d, ["train"], problems=problems)]
    unlabelled = len(listed) - len(labelled_records(listed, problems, need_gold=False))  # training leaves them out
    _warn_about_dev([r for d in args.data for r in read_index(d, ["dev"])])
    model = finetune(args.data, base=base, extra=args.extra_data, config=cfg)
    model.save(args.output)
    not_read = _name_not_read(model)
    info = model.info
    print(f"{'fine-tuned ' + args.base if base else 'trained from scratch'}: {info['user_train_pages']} of your pages"
          f" + {info['public_train_pages']} public pages (your share of weight {info['user_weight']:.2f}), "
          f"{_trees(model)} ({info['base_trees']} first-pass trees from the base), "
          f"{info['train_pages_excluded']} pages excluded for poor label alignment, in {time.perf_counter() - t0:.0f}s")
    _print_thresholds(model)
    print(f"model written to {args.output}")
    skipped = 1 if problems or unlabelled or not_read else 0
    held = [r for d in args.data for r in read_index(d, ["test"]) if r.gold_path is not None]
    if not held:
        print("no held-out pages with gold text (split 'test') in the given datasets: no before/after table")
        return skipped
    table = compare(held, {f"before ({args.base or 'default model'})": base, f"after ({args.output})": model})
    print(f"on your {len(held)} held-out pages (split test, favor balanced):")
    print(table.round(3).to_string())
    return skipped


def _warn_about_dev(dev: Sequence[PageRecord]) -> None:
    """Say so before training when the dev set is too small or one-site to choose thresholds on."""
    from ..thresholds import dev_set_warnings  # deliberately lazy, as fit_model

    for warning in dev_set_warnings(dev):
        print(f"blockclf: warning: {warning}", file=sys.stderr)


def _targets(args: argparse.Namespace) -> dict[str, float]:
    from ..thresholds import check_targets  # deliberately lazy, as fit_model

    targets = {k: v for k, v in (("precision", args.precision_target), ("recall", args.recall_target)) if v is not None}
    for favor, value in targets.items():
        try:
            check_targets({favor: value})
        except ValueError:  # the only way a flag's value can be wrong: out of range
            raise UsageError(f"--{favor}-target must be between 0 and 1, got {value}") from None
    return targets


def _trees(model: Model) -> str:
    first = f"{model.classifier.best_iteration_} trees"
    return first if model.refiner is None else f"{first} + {model.refiner.best_iteration_} refining trees"


def _print_thresholds(model: Model) -> None:
    """Each favor threshold with its dev figures and whether its aim was met."""
    scores = model.info.get("dev_scores", {})
    for favor, t in model.thresholds.items():
        d = scores.get(favor)
        line = f"{favor:9s} threshold {t:.2f}"
        if d:
            line += f"  dev P {d['precision']:.3f} R {d['recall']:.3f} F1 {d['f1']:.3f}"
            if "target" in d:
                line += (f"  (aim {favor} >= {d['target']:.2f} with a margin: "
                         f"{'met' if d['target_met'] else 'not met'}, lower bound {d[favor + '_low']:.3f})")
        print(line)


def add_parser(sub: Any) -> None:
    """Register ``blockclf train`` on the main parser's subparsers."""
    tr = sub.add_parser("train", help="train a model on labelled pages",
                        epilog=EXIT_CODES,
                        description="Train a model. Examples: blockclf train ../shared/benchmark -o my-model.json ; "
                                    "blockclf train mydata/ --base default -o my-model.json "
                                    "(fine-tune on your labelled pages, see 'blockclf label')")
    tr.add_argument("data", metavar="DATA", nargs="+",
                    help="directory in the benchmark layout (index.jsonl, <dataset>/html, <dataset>/gold)")
    tr.add_argument("-o", "--output", default="model.json", metavar="MODEL",
                    help="model file to write (default %(default)s)")
    tr.add_argument("--split", default="train", help="index.jsonl split to train on (default %(default)s)")
    tr.add_argument("--dev-split", default="dev",
                    help="split for early stopping and the favor thresholds, on other sites (default %(default)s)")
    tr.add_argument("--seed", type=int, default=0, help="random seed: the same data and seed give the same model "
                    "(default %(default)s)")
    tr.add_argument("--jobs", type=int, default=2, help="processes for labelling, threads for LightGBM "
                    "(default %(default)s)")
    tr.add_argument("--base", metavar="MODEL",
                    help="fine-tune this model (add trees to it) instead of starting from scratch")
    tr.add_argument("--extra-data", metavar="DIR", help="mix in the train split of this public dataset directory")
    tr.add_argument("--weight", type=float, default=0.5,
                    help="share of the training weight your pages carry when mixed with --extra-data (default 0.5)")
    tr.add_argument("--extra-pages", type=int, default=800, help="at most this many public pages (0: all; default 800)")
    tr.add_argument("--rounds", type=_rounds, default=None,
                    help="at most this many new trees (default 400 when fine-tuning; from scratch, as many as "
                         "early stopping on the dev split keeps)")
    tr.add_argument("--compare", action="store_true", help="train as for your own pages (as with --base) and print "
                    "a before/after table on the test split; implied by --base and --extra-data")
    tr.add_argument("--refine", action="store_true",
                    help="add the refining pass, which scores every block again beside the first pass's scores "
                         "around it (models/refined.json): more accurate on the sources trained on, slower to "
                         "train and to extract")
    tr.add_argument("--precision-target", type=float, metavar="P",
                    help="mean page precision the precision mode aims at on the dev pages (default 0.95)")
    tr.add_argument("--recall-target", type=float, metavar="R",
                    help="mean page recall the recall mode aims at on the dev pages (default 0.97)")
    tr.set_defaults(func=run)
