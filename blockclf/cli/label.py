"""``blockclf label``: one site's pages, and the selector of their main content, to a labelled dataset.

The labelling itself is `blockclf.labelling`; this module reads the command line, lists the
pages (files, folders and WARC records) and reports what was written and skipped.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..files import printable
from ..html import PageError
from .common import (
    EXIT_CODES,
    WARC_FILES,
    UsageError,
    collect_inputs,
    make_output_folder,
    nothing_found,
    readable_archives,
)

if TYPE_CHECKING:
    from ..batch import Item
    from ..labelling import LabelReport

__all__ = ["add_parser", "run"]


def run(args: argparse.Namespace) -> int:
    """Label the pages; exit 1 when some had no selector match or could not be read."""
    # deliberately lazy: selectors and alignment are imported by this command only, not at start-up
    from ..labelling import label_site, read_edits, warc_pages

    if not args.content and args.gold_suffix is None:
        raise UsageError("give --content SELECTOR, or gold text files next to the pages (--gold-suffix)")
    if args.dev + args.test >= 1:
        raise UsageError(f"--dev {args.dev} and --test {args.test} leave no pages to train on: their sum must be "
                         "under 1")
    listing: list[tuple[str, PageError]] = []
    warcs: list[tuple[Path, str]] = []
    inputs: list[Any] = collect_inputs(args.pages, skipped=listing, output=args.output, archives=warcs)
    archives = readable_archives(warcs, args.pages, listing)
    if not inputs and not archives and not listing:
        raise nothing_found(WARC_FILES)
    make_output_folder(Path(args.output))  # a dataset folder that cannot be made stops the run before any page is read
    for warc, _folder in archives:
        records: list[Item] = warc_pages(warc, damage=listing)
        inputs.extend(records)
    if not inputs and not listing:
        raise nothing_found(WARC_FILES)
    rep = label_site(inputs, args.output, content=args.content, exclude=args.exclude or (),
                     dataset=args.dataset, site=args.site, gold_suffix=args.gold_suffix,
                     edits=read_edits(args.edits) if args.edits else None, dev=args.dev, test=args.test)
    rep.failed[:0] = [(name, str(err)) for name, err in listing]
    _report(rep, args)
    return 1 if rep.no_match or rep.failed else 0


#: the edits that changed nothing named one a line, up to this many
_EDITS_NAMED = 20


def _report(rep: LabelReport, args: argparse.Namespace) -> None:
    for path in rep.no_match:
        print(f"blockclf: skipped {printable(path)}: the selector matched nothing", file=sys.stderr)
    for path, why in rep.failed:
        print(f"blockclf: skipped {printable(path)}: {printable(why)}", file=sys.stderr)
    for path in rep.no_content:
        print(f"blockclf: warning: {printable(path)}: labelled with no content: every block is boilerplate "
              "(an empty gold file, or an --exclude that takes in what --content selects?)", file=sys.stderr)
    splits = ", ".join(f"{k} {rep.written.get(k, 0)}" for k in ("train", "dev", "test"))
    sources = ", ".join(f"{k} {v}" for k, v in sorted(rep.by_source.items()))
    print(f"labelled {rep.n_written} pages into {args.output} as dataset '{args.dataset}' ({splits}; "
          f"labels from: {sources or 'none'}); {len(rep.no_match)} with no selector match, {len(rep.failed)} failed")
    if args.edits:
        edits = printable(args.edits)
        said = sorted([(line, f"page {printable(page)!r} is none of the pages labelled")
                       for line, page, _ in rep.unused_edit_lines]
                      + [(line, f"{printable(xpath)} is under no block of {printable(page)}")
                         for line, page, xpath in rep.unmatched_edits])
        for line, why in said[:_EDITS_NAMED]:
            print(f"blockclf: warning: {edits}:{line}: {why}: no label changed", file=sys.stderr)
        if len(said) > _EDITS_NAMED:
            print(f"blockclf: warning: {edits}: {len(said) - _EDITS_NAMED} more edits that changed nothing",
                  file=sys.stderr)
        print(f"block edits changed {rep.edited_blocks} block labels; {rep.unused_edits} edits named no labelled "
              f"page; {len(rep.unmatched_edits)} matched no block")


def _dataset_name(value: str) -> str:
    """``--dataset``: one plain name, the dataset's folder inside the output directory."""
    from ..labelling import check_dataset_name  # lazy, as the command's other labelling imports

    try:
        return check_dataset_name(value)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _share(value: str) -> float:
    """``--dev``, ``--test``: a share of the pages, at least 0 and under 1 (NaN is no share:
    every comparison with it is false, and every page would go to one split without a word)."""
    try:
        share = float(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, got {value!r}") from None
    if not 0 <= share < 1:
        raise argparse.ArgumentTypeError(f"must be at least 0 and under 1, got {value}")
    return share


def add_parser(sub: Any) -> None:
    """Register ``blockclf label`` on the main parser's subparsers."""
    lb = sub.add_parser("label", help="label one site's pages by the selector of their main content",
                        epilog=EXIT_CODES,
                        description="Label pages by selector. Example: blockclf label site/ "
                                    "--content 'div.article-body' -o mydata/ && "
                                    "blockclf train mydata/ --base default -o my.json")
    lb.add_argument("pages", nargs="+", metavar="PAGES",
                    help=".html/.htm/.html.gz files or directories of one site (their files that begin as "
                         "HTML, and their .warc/.warc.gz files, are read too), or .warc/.warc.gz files (extra 'warc')")
    lb.add_argument("--content", metavar="SELECTOR", help="CSS selector or XPath (starting with /) of the main content")
    lb.add_argument("--exclude", action="append", metavar="SELECTOR",
                    help="not content even inside --content (repeatable)")
    lb.add_argument("-o", "--output", required=True, metavar="DATASET", help="dataset directory to write")
    lb.add_argument("--dataset", default="mysite", type=_dataset_name,
                    help="dataset name inside DATASET (default mysite): letters, digits, '.', '_' and '-'")
    lb.add_argument("--site", help="site (domain) of the pages; default: from their URLs, else the dataset name")
    lb.add_argument("--gold-suffix", default=".txt",
                    help="gold text file next to a page (a.html + a.txt) wins over the selector")
    lb.add_argument("--edits", metavar="JSONL",
                    help='block edits: {"page": ID, "xpath": PATH, "label": "content"|"boilerplate"}')
    lb.add_argument("--dev", type=_share, default=0.2, help="share of pages in split dev (default 0.2)")
    lb.add_argument("--test", type=_share, default=0.2, help="share of pages held out in split test (default 0.2)")
    lb.set_defaults(func=run)
