"""The ``blockclf`` command: ``extract``, ``train``, ``evaluate`` and the others.

Exit codes mean one thing each (`EXIT_CODES`): 0 every page processed; 1 some pages skipped,
each named on stderr with its reason; 2 usage error, unusable model or site profile file, or
a failure that stopped the command (one ``blockclf: error:`` line, no traceback); 3 an output
could not be written (full disk, no permission, ``-o`` naming a file); 130 interrupted.
"""

from __future__ import annotations

import argparse
import logging
import os
import signal
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from . import __version__
from .files import OutputError, printable, write_atomic
from .html import Limits, PageError
from .inputs import SUFFIXES, list_pages  # noqa: F401 - SUFFIXES stays importable from here
from .model import FAVORS, Model, ModelError, load_model

if TYPE_CHECKING:
    from .predict import Page

__all__ = ["main"]

log = logging.getLogger("blockclf")

#: the exit status of every command, as the ``--help`` epilogs and docs/robustness.md state it
EXIT_CODES = ("Exit status: 0 every page processed; 1 some pages skipped (each named on stderr with its reason, "
              "then a summary line); 2 usage error or unusable model or profile file; 3 an output could not be "
              "written (full disk, no permission, -o naming a file); 130 interrupted (Ctrl-C or SIGTERM); "
              "141 the reader of standard output stopped early (| head), quietly.")


class UsageError(Exception):
    """A command line that cannot be carried out as given."""


def collect_inputs(paths: Sequence[str], skipped: list[tuple[str, PageError]] | None = None,
                   unread: list[str] | None = None) -> list[tuple[Path, str]]:
    """Pages named by ``paths`` as ``(file, output stem)`` pairs; see `blockclf.inputs.list_pages`.

    Inputs that are not read (FIFOs, devices, unlistable folders, output-name collisions) go
    to ``skipped``; a path that does not exist is a `UsageError`.
    """
    try:
        return list_pages(paths, skipped, unread)
    except FileNotFoundError as exc:
        if str(exc.filename).lower().startswith(("http://", "https://")):
            raise UsageError(f"{exc.filename}: blockclf reads pages from files and does not fetch URLs; save the "
                             "page and give its file, or pipe it to 'blockclf extract -'") from None
        raise UsageError(f"{exc.filename}: no such file or directory") from None


#: kept for modules that import it from here; the one helper is `blockclf.files.write_atomic`
_write_atomic = write_atomic


def cmd_extract(args: argparse.Namespace) -> int:
    from .extractcmd import extract_command

    return extract_command(args)


def cmd_label(args: argparse.Namespace) -> int:
    from .labelcmd import label_site, read_edits, warc_pages

    if not args.content and args.gold_suffix is None:
        raise UsageError("give --content SELECTOR, or gold text files next to the pages (--gold-suffix)")
    from .warc import is_warc

    listing: list[tuple[str, PageError]] = []
    inputs: list = collect_inputs([p for p in args.pages if not is_warc(p)], skipped=listing)
    for warc in (p for p in args.pages if is_warc(p)):
        inputs.extend(warc_pages(warc, damage=listing))
    if not inputs and not listing:
        raise UsageError("no .html/.htm/.html.gz files or HTML records in .warc files found in the given paths")
    rep = label_site(inputs, args.output, content=args.content, exclude=args.exclude or (),
                     dataset=args.dataset, site=args.site, gold_suffix=args.gold_suffix,
                     edits=read_edits(args.edits) if args.edits else None, dev=args.dev, test=args.test)
    rep.failed[:0] = [(name, str(err)) for name, err in listing]
    for path in rep.no_match:
        print(f"blockclf: skipped {printable(path)}: the selector matched nothing", file=sys.stderr)
    for path, why in rep.failed:
        print(f"blockclf: skipped {printable(path)}: {printable(why)}", file=sys.stderr)
    splits = ", ".join(f"{k} {rep.written.get(k, 0)}" for k in ("train", "dev", "test"))
    sources = ", ".join(f"{k} {v}" for k, v in sorted(rep.by_source.items()))
    print(f"labelled {rep.n_written} pages into {args.output} as dataset '{args.dataset}' ({splits}; "
          f"labels from: {sources or 'none'}); {len(rep.no_match)} with no selector match, {len(rep.failed)} failed")
    if args.edits:
        print(f"block edits changed {rep.edited_blocks} block labels; {rep.unused_edits} edits named no labelled page")
    return 1 if rep.no_match or rep.failed else 0


def cmd_explain(args: argparse.Namespace) -> int:
    from .explain import explain_html
    from .predict import extract_batch, prepare_many

    model = load_model(args.model)
    listing: list[tuple[str, PageError]] = []
    inputs = collect_inputs(args.paths, skipped=listing)
    if not inputs and not listing:
        raise UsageError("no .html/.htm/.html.gz files found in the given paths")
    one_file = len(inputs) + len(listing) == 1 and not (args.output and Path(args.output).is_dir())
    if not one_file and not args.output:
        raise UsageError(f"{len(inputs) + len(listing)} pages found: give -o OUTDIR to write one view per page")
    pages: list[Page] = []
    stems = {str(path): stem for path, stem in inputs}
    for name, err in listing:
        print(f"blockclf: skipped {printable(name)}: {printable(err)}", file=sys.stderr)
    n_skipped = len(listing)
    # every failure of one page is a named skip, as in extract (blockclf.predict.prepare_many)
    for name, page in prepare_many(((str(path), path) for path, _stem in inputs), site=args.site):
        if isinstance(page, PageError):
            print(f"blockclf: skipped {printable(name)}: {printable(page)}", file=sys.stderr)
            n_skipped += 1
        else:
            pages.append(page)
    for res in extract_batch(pages, model=model, favor=args.favor, threshold=args.threshold, explain=True,
                             top_reasons=args.reasons):
        view = explain_html(res)
        if one_file and not args.output:
            sys.stdout.write(view)
        else:
            target = Path(args.output) if one_file else Path(args.output) / (stems[str(res.name)] + ".html")
            write_atomic(target, view)
            print(f"view of {printable(res.name)} written to {printable(target)}", file=sys.stderr)
    return 1 if n_skipped else 0


def _cmd_finetune(args: argparse.Namespace) -> int:
    from .data import read_index
    from .finetune import FinetuneConfig, compare, finetune

    t0 = time.perf_counter()
    cfg = FinetuneConfig(weight=args.weight, extra_pages=args.extra_pages or None, rounds=args.rounds,
                         seed=args.seed, n_jobs=args.jobs, targets=_targets(args), refine=args.refine)
    base = load_model(args.base) if args.base else None
    model = finetune(args.data, base=base, extra=args.extra_data, config=cfg)
    model.save(args.output)
    info = model.info
    print(f"{'fine-tuned ' + args.base if base else 'trained from scratch'}: {info['user_train_pages']} of your pages"
          f" + {info['public_train_pages']} public pages (your share of weight {info['user_weight']:.2f}), "
          f"{_trees(model)} ({info['base_trees']} first-pass trees from the base), "
          f"{info['train_pages_excluded']} pages excluded for poor label alignment, in {time.perf_counter() - t0:.0f}s")
    _print_thresholds(model)
    print(f"model written to {args.output}")
    held = [r for d in args.data for r in read_index(d, ["test"])]
    if not held:
        print("no held-out pages (split 'test') in the given datasets: no before/after table")
        return 0
    table = compare(held, {f"before ({args.base or 'default model'})": base, f"after ({args.output})": model})
    print(f"on your {len(held)} held-out pages (split test, favor balanced):")
    print(table.round(3).to_string())
    return 0


def _targets(args: argparse.Namespace) -> dict[str, float]:
    from .thresholds import check_targets

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


def cmd_train(args: argparse.Namespace) -> int:
    from .data import read_index
    from .train import fit_model

    if args.base or args.extra_data or args.compare or len(args.data) > 1:
        return _cmd_finetune(args)
    args.data = args.data[0]
    t0 = time.perf_counter()
    train = read_index(args.data, [args.split])
    dev = read_index(args.data, [args.dev_split])
    if not train:
        raise UsageError(f"no pages with split '{args.split}' in {args.data}/index.jsonl")
    if not dev:
        raise UsageError(f"no pages with split '{args.dev_split}' in {args.data}/index.jsonl (needed for early stopping and thresholds)")
    model = fit_model(train, dev, seed=args.seed, n_jobs=args.jobs, targets=_targets(args), refining=args.refine)
    model.save(args.output)
    secs = time.perf_counter() - t0
    print(f"trained on {model.info['train_pages']} pages ({model.info['train_pages_excluded']} excluded for poor "
          f"label alignment), {_trees(model)}, in {secs:.0f}s")
    _print_thresholds(model)
    print(f"model written to {args.output}")
    return 0


def cmd_evaluate(args: argparse.Namespace) -> int:
    import pandas as pd

    from .data import read_index
    from .evaluate import score_records, summary

    model = load_model(args.model)
    records = read_index(args.bench, [args.split], args.dataset or None)
    if not records:
        raise UsageError(f"no pages with split '{args.split}' in {args.bench}")
    df, results, golds = score_records(records, model, favor=args.favor, threshold=args.threshold,
                                       use_site=not args.no_site)
    table = summary(df)
    with pd.option_context("display.width", 120, "display.max_rows", 200):
        print(f"split {args.split}, favor {args.favor if args.threshold is None else f'threshold {args.threshold}'}")
        print(table.round(3).to_string())
    if args.report:
        from .report import write_report

        page = write_report(args.report, df, results, golds, model,
                            {"split": args.split, "favor": args.favor, "threshold": args.threshold,
                             "model": args.model or "default"},
                            records=records, favor=args.favor, threshold=args.threshold, use_site=not args.no_site)
        print(f"report written to {args.report} (open {page})")
    return 0


def _jobs(value: str) -> int:
    """``--jobs``: a number of worker processes, or ``auto`` (0) for as many as the batch is worth."""
    if value == "auto":
        return 0
    try:
        jobs = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number or 'auto', got {value!r}") from None
    if jobs < 1:
        raise argparse.ArgumentTypeError("must be at least 1")
    return jobs


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="blockclf", description="Remove boilerplate from web pages with a learned block classifier.")
    parser.add_argument("-v", "--verbose", action="store_true", help="log progress to stderr")
    parser.add_argument("-V", "--version", action="version", version=f"blockclf {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)

    ex = sub.add_parser("extract", help="extract the main content of pages",
                        description="Extract main content. Example: blockclf extract page.html --format markdown",
                        epilog=EXIT_CODES,
                        formatter_class=argparse.RawDescriptionHelpFormatter)
    ex.add_argument("paths", nargs="+", metavar="PATH",
                    help=".html/.htm/.html.gz files or directories, .warc/.warc.gz files (extra 'warc'), "
                         "or - for one page on standard input")
    ex.add_argument("-o", "--output", metavar="OUTDIR",
                    help="write OUTDIR/<relative path>.{txt,md,json,html}; without it (or with -o -) one page is "
                         "written to standard output, several as JSON lines, one object per page")
    ex.add_argument("--model", metavar="FILE", help="model file, or 'refined' for the shipped model with the refining "
                    "pass (default: the shipped default model)")
    ex.add_argument("--favor", choices=FAVORS, default="balanced", help="precision, balanced (default) or recall")
    ex.add_argument("--threshold", type=float, help="raw P(content) threshold, overrides --favor")
    ex.add_argument("--format", choices=("text", "markdown", "json", "html"), default="text",
                    help="text (default), markdown, json (with the Markdown), or html (clean, safe to embed)")
    ex.add_argument("--images", action="store_true", help="keep images as ![alt](src) in markdown, <img> in html")
    ex.add_argument("--title", action=argparse.BooleanOptionalAction, default=None,
                    help="start the output with the page's headline (default: in markdown, where a kept heading "
                         "does not already say it; not in text, whose gold usually leaves it out)")
    ex.add_argument("--jobs", type=_jobs, default="auto", metavar="N|auto",
                    help="worker processes: auto (default) uses the available cores, up to 8 and one per 16 pages "
                         "(a shorter batch runs in this process); 1 never starts workers")
    ex.add_argument("--dask", metavar="SCHEDULER_ADDRESS",
                    help="run on a Dask cluster (extra 'dask'); the workers must see the input paths")
    ex.add_argument("--progress", choices=("auto", "on", "off"), default="auto",
                    help="progress bar on stderr: auto (only on a terminal), on, off")
    ex.add_argument("--time-budget", type=float, default=30.0, metavar="SECONDS",
                    help="skip a page whose reading and parsing takes longer (default 30, 0 for none)")
    ex.add_argument("--removed-log", metavar="FILE",
                    help="write one JSON line per removed block (page, xpath, text, score, threshold); "
                         "add --explain for each block's reasons, which costs a model pass per block")
    ex.add_argument("--explain", action="store_true",
                    help="add each block's top reasons to JSON output and to --removed-log (slower)")
    ex.add_argument("--site", help="treat every page as belonging to this site")
    ex.add_argument("--site-profile", metavar="FILE", help="site profile with repetition counts from earlier pages")
    ex.add_argument("--no-site", action="store_true", help="do not use pages of the same site as evidence")
    ex.add_argument("--comments", choices=("remove", "keep", "separate"), default="remove",
                    help="readers' comment threads: removed from the main text (default), kept in it, or "
                         "removed and given apart (the JSON's 'comments')")
    ex.add_argument("--encoding", help="encoding to try before the page's own declaration")
    ex.add_argument("--max-bytes", type=int, default=Limits().max_bytes,
                    help="skip pages larger than this, compressed or not (default %(default)s)")
    ex.add_argument("--max-nodes", type=int, default=Limits().max_nodes,
                    help="skip pages with more elements (default %(default)s)")
    ex.add_argument("--max-depth", type=int, default=Limits().max_depth,
                    help="read elements nested deeper as plain text and flag the page (default %(default)s)")
    ex.add_argument("--fail-fast", action="store_true", help="stop at the first skipped page (exit 1)")
    ex.add_argument("--overwrite", action="store_true",
                    help="replace existing outputs; without it a page whose output exists is skipped "
                         "with reason 'exists' (exit 1)")
    ex.set_defaults(func=cmd_extract)

    tr = sub.add_parser("train", help="train a model on labelled pages",
                        epilog=EXIT_CODES, description="Train a model. Examples: blockclf train ../shared/benchmark -o my-model.json ; "
                                    "blockclf train mydata/ --base default -o my-model.json "
                                    "(fine-tune on your labelled pages, see 'blockclf label')")
    tr.add_argument("data", metavar="DATA", nargs="+",
                    help="directory in the benchmark layout (index.jsonl, <dataset>/html, <dataset>/gold)")
    tr.add_argument("-o", "--output", default="model.json", metavar="MODEL")
    tr.add_argument("--split", default="train")
    tr.add_argument("--dev-split", default="dev")
    tr.add_argument("--seed", type=int, default=0)
    tr.add_argument("--jobs", type=int, default=2)
    tr.add_argument("--base", metavar="MODEL",
                    help="fine-tune this model (add trees to it) instead of starting from scratch")
    tr.add_argument("--extra-data", metavar="DIR", help="mix in the train split of this public dataset directory")
    tr.add_argument("--weight", type=float, default=0.5,
                    help="share of the training weight your pages carry when mixed with --extra-data (default 0.5)")
    tr.add_argument("--extra-pages", type=int, default=800, help="at most this many public pages (0: all; default 800)")
    tr.add_argument("--rounds", type=int, default=400, help="at most this many new trees (default 400)")
    tr.add_argument("--compare", action="store_true", help="train as for your own pages (as with --base) and print "
                    "a before/after table on the test split; implied by --base and --extra-data")
    tr.add_argument("--refine", action="store_true",
                    help="add the refining pass, which scores every block again beside the first pass's scores "
                         "around it (models/refined.json): more accurate, slower to train and to extract")
    tr.add_argument("--precision-target", type=float, metavar="P",
                    help="mean page precision the precision mode aims at on the dev pages (default 0.95)")
    tr.add_argument("--recall-target", type=float, metavar="R",
                    help="mean page recall the recall mode aims at on the dev pages (default 0.97)")
    tr.set_defaults(func=cmd_train)

    lb = sub.add_parser("label", help="label one site's pages by the selector of their main content",
                        epilog=EXIT_CODES, description="Label pages by selector. Example: blockclf label site/ --content 'div.article-body' "
                                    "-o mydata/ && blockclf train mydata/ --base default -o my.json")
    lb.add_argument("pages", nargs="+", metavar="PAGES",
                    help=".html/.htm/.html.gz files or directories of one site, or .warc/.warc.gz files (extra 'warc')")
    lb.add_argument("--content", metavar="SELECTOR", help="CSS selector or XPath (starting with /) of the main content")
    lb.add_argument("--exclude", action="append", metavar="SELECTOR",
                    help="not content even inside --content (repeatable)")
    lb.add_argument("-o", "--output", required=True, metavar="DATASET", help="dataset directory to write")
    lb.add_argument("--dataset", default="mysite", help="dataset name inside DATASET (default mysite)")
    lb.add_argument("--site", help="site (domain) of the pages; default: from their URLs, else the dataset name")
    lb.add_argument("--gold-suffix", default=".txt",
                    help="gold text file next to a page (a.html + a.txt) wins over the selector")
    lb.add_argument("--edits", metavar="JSONL",
                    help='block edits: {"page": ID, "xpath": PATH, "label": "content"|"boilerplate"}')
    lb.add_argument("--dev", type=float, default=0.2, help="share of pages in split dev (default 0.2)")
    lb.add_argument("--test", type=float, default=0.2, help="share of pages held out in split test (default 0.2)")
    lb.set_defaults(func=cmd_label)

    xp = sub.add_parser("explain", help="an HTML view of a page: kept blocks highlighted, removed struck through",
                        epilog=EXIT_CODES, description="Explain decisions. Example: blockclf explain page.html -o view.html "
                                    "(hover a block in the view to see its score and reasons)")
    xp.add_argument("paths", nargs="+", metavar="PATH", help=".html/.htm/.html.gz files or directories")
    xp.add_argument("-o", "--output", metavar="FILE|OUTDIR",
                    help="view file for one page (default stdout), or a directory")
    xp.add_argument("--model", metavar="FILE", help="model file, or 'refined' (default: the shipped default model)")
    xp.add_argument("--favor", choices=FAVORS, default="balanced")
    xp.add_argument("--threshold", type=float, help="raw P(content) threshold, overrides --favor")
    xp.add_argument("--site", help="treat every page as belonging to this site")
    xp.add_argument("--reasons", type=int, default=4, help="reasons shown per block (default 4)")
    xp.set_defaults(func=cmd_explain)

    ev = sub.add_parser("evaluate", help="score a model against gold text",
                        epilog=EXIT_CODES, description="Evaluate. Example: "
                                    "blockclf evaluate ../shared/benchmark --split test --report reports/test")
    ev.add_argument("bench", metavar="BENCH")
    ev.add_argument("--model", metavar="FILE")
    ev.add_argument("--split", default="test")
    ev.add_argument("--dataset", action="append", metavar="NAME", help="only this dataset (repeatable)")
    ev.add_argument("--favor", choices=FAVORS, default="balanced")
    ev.add_argument("--threshold", type=float)
    ev.add_argument("--no-site", action="store_true")
    ev.add_argument("--report", metavar="DIR", help="write metrics.json, pages.csv, PR curve, feature importance, "
                    "worst pages (PNGs) and one self-contained report.html here")
    ev.set_defaults(func=cmd_evaluate)

    from .sitecmd import add_parser as add_site_parser  # late import: sitecmd imports this module
    add_site_parser(sub)
    return parser


def _terminated(signum: int, frame: object) -> None:
    """SIGTERM ends the command like Ctrl-C does: through the cleanup of temporary files."""
    raise KeyboardInterrupt


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit code (see `EXIT_CODES`)."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        return int(exc.code) if isinstance(exc.code, int) else 2
    if args.verbose:
        logging.basicConfig(level=logging.INFO, format="blockclf: %(message)s")
    previous = None
    try:
        previous = signal.signal(signal.SIGTERM, _terminated)
    except ValueError:  # not the main thread: leave signals alone
        pass
    try:
        return int(args.func(args))
    except BrokenPipeError:  # the reader stopped early (| head): end quietly, as Unix tools do
        try:
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # nothing more to flush at exit
        except OSError:
            pass
        return 141
    except OutputError as exc:
        print(f"blockclf: error: {exc}", file=sys.stderr)
        return 3
    except (UsageError, ModelError, FileNotFoundError, ValueError) as exc:
        print(f"blockclf: error: {printable(exc)}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"blockclf: error: {printable(exc.filename or '')}{': ' if exc.filename else ''}"
              f"{exc.strerror or exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("blockclf: interrupted", file=sys.stderr)
        return 130
    except (Exception, RecursionError, MemoryError) as exc:  # a bug: one line, not a traceback
        log.debug("unexpected failure", exc_info=True)
        print(f"blockclf: error: unexpected failure ({type(exc).__name__}: {printable(exc)}); "
              "run with -v to see where", file=sys.stderr)
        if args.verbose:
            import traceback

            traceback.print_exc()
        return 2
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)
