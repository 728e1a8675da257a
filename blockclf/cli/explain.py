"""``blockclf explain``: an HTML view of each page, kept blocks highlighted, removed ones struck through."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from ..files import OutputError, fitting_path, printable, write_atomic
from ..html import PageError
from ..model import load_model
from ..predict import extract_batch
from .common import EXIT_CODES, UsageError, collect_inputs, model_options, read_pages, report_skip

__all__ = ["add_parser", "run"]


def run(args: argparse.Namespace) -> int:
    """Write one view per page (to stdout for one page and no ``-o``); exit 1 when a page was skipped."""
    from ..explain import explain_html  # deliberately lazy: the view's templates are this command's own

    model = load_model(args.model)
    listing: list[tuple[str, PageError]] = []
    inputs = collect_inputs(args.paths, skipped=listing, output=args.output)
    if not inputs and not listing:
        raise UsageError("no .html/.htm/.html.gz files found in the given paths")
    one_file = len(inputs) + len(listing) == 1 and not (args.output and Path(args.output).is_dir())
    if not one_file and not args.output:
        raise UsageError(f"{len(inputs) + len(listing)} pages found: give -o OUTDIR to write one view per page")
    stems = {str(path): stem for path, stem in inputs}
    if not one_file:
        try:  # made first: a folder that cannot be made is the run's error, not each view's
            Path(args.output).mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise OutputError(f"cannot write to {printable(args.output)}: {exc.strerror or exc}") from None
    failed: list[str] = []  # every failure of one page is a named skip, as in extract
    pages = read_pages(inputs, listing, args.site, failed)
    for res in extract_batch(pages, model=model, favor=args.favor, threshold=args.threshold, explain=True,
                             top_reasons=args.reasons):
        view = explain_html(res)
        if one_file and not args.output:
            sys.stdout.write(view)
        else:
            out = Path(args.output)
            target = out if one_file else fitting_path(out / (stems[str(res.name)] + ".html"))
            try:
                write_atomic(target, view)
            except OutputError as exc:
                if not exc.only_this_output:  # a full or read-only disk: no other view would fare better
                    raise
                report_skip(str(res.name), PageError("unwritable", str(exc)))
                failed.append(str(res.name))
                continue
            print(f"view of {printable(res.name)} written to {printable(target)}", file=sys.stderr)
    return 1 if failed else 0


def add_parser(sub: Any) -> None:
    """Register ``blockclf explain`` on the main parser's subparsers."""
    xp = sub.add_parser("explain", help="an HTML view of a page: kept blocks highlighted, removed struck through",
                        epilog=EXIT_CODES,
                        description="Explain decisions. Example: blockclf explain page.html -o view.html "
                                    "(hover a block in the view to see its score and reasons)")
    xp.add_argument("paths", nargs="+", metavar="PATH", help=".html/.htm/.html.gz files or directories")
    xp.add_argument("-o", "--output", metavar="FILE|OUTDIR",
                    help="view file for one page (default stdout), or a directory")
    model_options(xp, "model file, or 'refined' (default: the shipped default model)")
    xp.add_argument("--reasons", type=int, default=4, help="reasons shown per block (default 4)")
    xp.set_defaults(func=run)
