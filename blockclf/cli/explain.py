"""``blockclf explain``: an HTML view of each page, kept blocks highlighted, removed ones struck through."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any

from ..files import OutputError, fitting_path, printable, write_atomic
from ..html import PageError
from ..inputs import is_jsonl, is_warc
from ..model import cached_model
from .common import (
    EXIT_CODES,
    UsageError,
    check_threshold,
    collect_inputs,
    make_output_folder,
    model_options,
    nothing_found,
    output_skip,
    page_items,
    report_skip,
    report_skips,
    whole_number,
)

__all__ = ["add_parser", "run"]


def run(args: argparse.Namespace) -> int:
    """Write one view per page (to stdout for one page and no ``-o``); exit 1 when a page was skipped."""
    from ..batch import BatchOptions, run_batch  # the batch engine, as extract loads it: when used
    from ..explain import explain_html  # deliberately lazy: the view's templates are this command's own
    from ..workers import auto_jobs

    check_threshold(args.threshold)
    cached_model(args.model)  # read before any page: a bad file is one error line; forked workers find it read
    many = next((p for p in args.paths if (is_warc(p) or is_jsonl(p)) and not Path(p).is_dir()), None)
    if many is not None:
        raise UsageError(f"{printable(many)} holds many pages: explain shows one page's blocks; extract its pages "
                         "(blockclf extract), or give a saved page")
    listing: list[tuple[str, PageError]] = []
    inputs = collect_inputs(args.paths, skipped=listing, output=args.output)
    if not inputs and not listing:
        raise nothing_found()
    one_file = len(inputs) + len(listing) == 1 and not (args.output and _names_folder(args.output))
    if not one_file and not args.output:
        raise UsageError(f"{len(inputs) + len(listing)} pages found: give -o OUTDIR to write one view per page")
    stems = {str(path): stem for path, stem in inputs}
    if not one_file:
        make_output_folder(Path(args.output))
    failed: list[str] = []  # every failure of one page is a named skip, as in extract
    if args.output:
        inputs = _writable(inputs, Path(args.output), one_file, args.overwrite, failed)
    report_skips(listing, failed)
    # a streaming batch, as extract runs: each page's view made where it was scored (every
    # block's contributions take about a second a page) and the page let go once written
    opts = BatchOptions(model=args.model, favor=args.favor, threshold=args.threshold, explain=True,
                        top_reasons=args.reasons, transform=explain_html)
    items = list(page_items(inputs, args.site, (), {}))
    for outcome in run_batch(items, opts, jobs=auto_jobs(len(items))):
        name = outcome.name
        if outcome.error is not None:
            report_skip(name, outcome.error)
            failed.append(name)
        elif one_file and not args.output:
            sys.stdout.write(outcome.result)
        else:
            target = _view_path(Path(args.output), stems[name], one_file)
            try:
                write_atomic(target, outcome.result)
            except OutputError as exc:
                if not exc.only_this_output:  # a full or read-only disk: no other view would fare better
                    raise
                report_skip(name, PageError("unwritable", str(exc)))
                failed.append(name)
                continue
            print(f"view of {printable(name)} written to {printable(target)}", file=sys.stderr)
    return 1 if failed else 0


def _names_folder(output: str) -> bool:
    """Whether ``-o`` names a folder for one page's view: one that exists, or a path ending in
    a slash (``-o views/``), which names a folder to make, never a file of that name."""
    return output.endswith(("/", os.sep)) or Path(output).is_dir()


def _view_path(output: Path, stem: str, one_file: bool) -> Path:
    """Where a page's view goes: the ``-o`` file for one page, else ``<stem>.html`` under the folder."""
    return output if one_file else fitting_path(output / (stem + ".html"))


def _writable(inputs: list[tuple[Path, str]], output: Path, one_file: bool, overwrite: bool,
              failed: list[str]) -> list[tuple[Path, str]]:
    """The inputs whose view may be written, as extract decides for its outputs: never over a
    page the run reads (a view is ``.html``: ``-o`` the folder read would replace the pages),
    and over an existing file only with ``--overwrite``; the others are named skips."""
    pages = frozenset(path.resolve() for path, _ in inputs)
    kept = []
    for path, stem in inputs:
        why = output_skip(_view_path(output, stem, one_file), "view", overwrite, pages)
        if why is None:
            kept.append((path, stem))
        else:
            report_skip(str(path), why)
            failed.append(str(path))
    return kept


def _reasons_value(value: str) -> int:
    """``--reasons``: how many of a block's reasons its hover lists, 0 or more (a negative count
    would be read as a slice from the end: all its reasons but the last)."""
    return whole_number(value, 0)


def add_parser(sub: Any) -> None:
    """Register ``blockclf explain`` on the main parser's subparsers."""
    xp = sub.add_parser("explain", help="an HTML view of a page: kept blocks highlighted, removed struck through",
                        epilog=EXIT_CODES,
                        description="Explain decisions. Example: blockclf explain page.html -o view.html "
                                    "(hover a block in the view to see its score and reasons)")
    xp.add_argument("paths", nargs="+", metavar="PATH",
                    help=".html/.htm/.html.gz files or directories (their files that begin as HTML are pages too)")
    xp.add_argument("-o", "--output", metavar="FILE|OUTDIR",
                    help="view file for one page (default stdout), or a directory")
    model_options(xp, "model file, or 'refined' (default: the shipped default model)")
    xp.add_argument("--reasons", type=_reasons_value, default=4,
                    help="reasons shown per block (default 4; 0: score and threshold only)")
    xp.add_argument("--overwrite", action="store_true", help="replace views that exist (else those pages are skipped)")
    xp.set_defaults(func=run)
