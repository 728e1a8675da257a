"""What every subcommand shares: usage errors, the exit-status text, reading inputs, naming skips.

A subcommand reads pages through `collect_inputs` (which files, see `blockclf.inputs`) and
`read_pages` (parsed as ``blockclf extract`` parses them, every failure of one page a named
skip); it names each skipped input on stderr with `report_skip`, control characters escaped.
"""

from __future__ import annotations

import argparse
import importlib.util
import itertools
import sys
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from ..data import PageRecord
from ..files import OutputError, is_stream, printable
from ..html import PageError
from ..inputs import is_jsonl, list_pages
from ..model import FAVORS
from ..predict import prepare_or_error
from ..result import Page

if TYPE_CHECKING:
    from ..batch import Item

__all__ = [
    "ARCHIVE_FILES",
    "EXIT_CODES",
    "PAGE_KINDS",
    "WARC_FILES",
    "UsageError",
    "check_threshold",
    "collect_inputs",
    "iter_pages",
    "jobs_value",
    "labelled_records",
    "make_output_folder",
    "model_options",
    "nothing_found",
    "output_skip",
    "page_items",
    "read_pages",
    "report_skip",
    "report_skips",
    "report_unread",
    "whole_number",
]

#: the exit status of every command, as the ``--help`` epilogs and docs/robustness.md state it
EXIT_CODES = ("Exit status: 0 every page processed; 1 some pages skipped (each named on stderr with its reason, "
              "then a summary line); 2 usage error or unusable model or profile file; 3 an output could not be "
              "written (full disk, no permission, -o naming a file); 130 interrupted (Ctrl-C or SIGTERM); "
              "141 the reader of standard output stopped early (| head), quietly.")


class UsageError(Exception):
    """A command line that cannot be carried out as given."""


def collect_inputs(paths: Sequence[str], skipped: list[tuple[str, PageError]] | None = None,
                   unread: list[str] | None = None, output: str | Path | None = None,
                   distinct: bool = True, archives: list[tuple[Path, str]] | None = None,
                   jsonl: bool = False) -> list[tuple[Path, str]]:
    """Pages named by ``paths`` as ``(file, output stem)`` pairs; see `blockclf.inputs.list_pages`.

    Inputs that are not read (FIFOs, devices, unlistable folders, output-name collisions) go
    to ``skipped``; a path that does not exist is a `UsageError`. The ``output`` folder is not
    read where it lies inside a folder given, and stderr says so. ``distinct``: the stems name
    outputs, so two inputs never share one (`list_pages`). ``archives``, for a command that reads
    WARC files, gets those given or found in the folders given, each with its folder relative to
    its argument (and files of JSON lines of pages too, with ``jsonl``).
    """
    passed: list[str] = []
    own = unread is None  # the caller names the files it did not read itself, or they are named here
    unread = [] if unread is None else unread
    try:
        found = list_pages(paths, skipped, unread, Path(output) if output else None, passed, distinct, archives,
                           jsonl)
    except FileNotFoundError as exc:
        if str(exc.filename).lower().startswith(("http://", "https://")):
            raise UsageError(f"{exc.filename}: blockclf reads pages from files and does not fetch URLs; save the "
                             "page and give its file, or pipe it to 'blockclf extract -'") from None
        raise UsageError(f"{exc.filename}: no such file or directory") from None
    for folder in passed:
        print(f"blockclf: {printable(folder)} not read: it is the output folder", file=sys.stderr)
    if own:
        report_unread(unread, None if archives is None else ARCHIVE_FILES if jsonl else WARC_FILES)
    return found


#: what a page-reading command takes for a page inside a folder (`blockclf.inputs.list_pages`)
PAGE_KINDS = "named .html, .htm, .html.gz, .htm.gz, .mhtml, .mht, or beginning as HTML does"
#: what else a command may read, as ``(one, several)``: WARC files, and JSONL files of pages
WARC_FILES = ("a WARC file", "WARC files")
ARCHIVE_FILES = ("a WARC or JSONL file", "WARC or JSONL files")


def report_unread(unread: Sequence[str], also: tuple[str, str] | None = None) -> None:
    """Name on stderr the files in the given folders that are not read (the first five), and
    why: they are not pages (`PAGE_KINDS`), nor ``also`` (what else the command reads)."""
    if not unread:
        return
    shown = ", ".join(printable(n) for n in unread[:5]) + (", …" if len(unread) > 5 else "")
    one = len(unread) == 1
    page = "a page" if one else "pages"
    what = f"neither {page} ({PAGE_KINDS}) nor {also[0 if one else 1]}" if also else f"not {page} ({PAGE_KINDS})"
    print(f"blockclf: {len(unread)} {'file' if one else 'files'} in the given folders {'was' if one else 'were'} not "
          f"read, as {'it is' if one else 'they are'} {what}: {shown}", file=sys.stderr)


def nothing_found(also: tuple[str, str] | None = None) -> UsageError:
    """The usage error of a command given no page (`PAGE_KINDS`), nor ``also``, to read."""
    return UsageError(f"no pages ({PAGE_KINDS}){' or ' + also[1] if also else ''} found in the given paths")


def labelled_records(records: Sequence[PageRecord], problems: Sequence[str], need_gold: bool) -> list[PageRecord]:
    """The records that have their labels: gold text (``need_gold``: scoring reads it), or gold
    text or block labels (training reads either). The index lines that were no page record,
    and the pages without labels, are named on stderr: read as empty gold, their every block
    would count as boilerplate, a wrong score or a wrong label without a word."""
    for problem in problems:
        print(f"blockclf: skipped {printable(problem)}", file=sys.stderr)
    kept: list[PageRecord] = []
    missing: list[PageRecord] = []
    for r in records:
        if need_gold and r.gold_path is not None and (why := _unreadable_gold(r)):
            print(f"blockclf: skipped {printable(r.key)}: its gold text cannot be read ({printable(why)})",
                  file=sys.stderr)
            continue
        (kept if r.gold_path is not None or (r.blocks_path is not None and not need_gold) else missing).append(r)
    for r in missing[:10]:
        what = "gold text" if need_gold else "gold text or block labels"
        print(f"blockclf: skipped {printable(r.key)}: no {what} ({printable(r.dataset)}/gold/{printable(r.id)}.txt)",
              file=sys.stderr)
    if len(missing) > 10:
        print(f"blockclf: skipped {len(missing) - 10} more pages without labels", file=sys.stderr)
    return kept


def _unreadable_gold(record: PageRecord) -> str | None:
    """Why a page's gold text cannot be read (not UTF-8, a folder), else None: read where it
    is scored, one such file stopped the whole command with an error naming no file."""
    try:
        record.read_gold()
    except (OSError, ValueError) as exc:
        return str(exc)
    return None


def make_output_folder(folder: Path) -> None:
    """Make the folder a run writes its pages' outputs into, before any page is read: one that
    cannot be made is the run's error (`OutputError`, exit 3), not a skip of every page."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise OutputError(f"cannot write to {printable(folder)}: {exc.strerror or exc}") from None


def output_skip(target: Path, what: str, overwrite: bool, pages: frozenset[Path] = frozenset()) -> PageError | None:
    """Why a page's ``what`` ("output", "view") may not be written at ``target``, else None: it
    would replace a page the run reads (``pages``, resolved; ``collision``), or a file that exists
    when ``overwrite`` is off (``exists``)."""
    if pages and target.resolve() in pages:
        return PageError("collision", f"its {what} {target} is a page this run reads (give -o another folder)")
    if not overwrite and (target.exists() or target.is_symlink()) and not is_stream(target):  # /dev/null
        return PageError("exists", f"{what} {target} exists (give --overwrite to replace it)")
    return None


def readable_archives(archives: list[tuple[Path, str]], named: Sequence[str],
                       listing: list[tuple[str, PageError]]) -> list[tuple[Path, str]]:
    """The archives this installation can read. Without warcio (the ``warc`` extra), a WARC file
    named on the command line is a usage error before anything is read, and one found in a
    folder is skipped (``needs-warcio``), named and counted, while the folder's pages are read."""
    warcs = [str(a) for a, _ in archives if not is_jsonl(a)]
    if not warcs or importlib.util.find_spec("warcio") is not None:
        return archives
    why = "reading WARC files needs warcio: pip install 'blockclf[warc]'"
    given = next((w for w in warcs if w in named), None)
    if given is not None:
        raise UsageError(f"{printable(given)}: {why}")
    listing += [(w, PageError("needs-warcio", why)) for w in warcs]
    return [(a, folder) for a, folder in archives if is_jsonl(a)]


def report_skip(name: str, why: object) -> None:
    """One ``blockclf: skipped NAME: WHY`` line on stderr."""
    print(f"blockclf: skipped {printable(name)}: {printable(why)}", file=sys.stderr)


def report_skips(skips: Iterable[tuple[str, PageError]], failed: list[str]) -> None:
    """`report_skip` each ``(name, why)`` and add the name to ``failed`` (the command exits 1)."""
    for name, why in skips:
        report_skip(name, why)
        failed.append(name)


def read_pages(inputs: Sequence[tuple[Path, str]], listing: Sequence[tuple[str, PageError]], site: str | None,
               failed: list[str], archives: Sequence[tuple[Path, str]] = ()) -> list[Page]:
    """Parse the listed pages, then the pages of the WARC and JSONL files given (``archives``,
    their default fields); the inputs `collect_inputs` skipped, damaged records and unusable
    pages are named on stderr and their names appended to ``failed``.

    Pages are read as ``blockclf extract`` reads them (`blockclf.predict.prepare_or_error`): any
    failure of one page, not only a `PageError`, skips that page and the run goes on.
    """
    return list(iter_pages(inputs, listing, site, failed, archives))


def iter_pages(inputs: Sequence[tuple[Path, str]], listing: Sequence[tuple[str, PageError]], site: str | None,
               failed: list[str], archives: Sequence[tuple[Path, str]] = ()) -> Iterator[Page]:
    """`read_pages` one page at a time, for a caller that keeps what it needs of each page and
    lets the page go (a parsed page holds its element tree: about 2 MB for a shop's page)."""
    report_skips(listing, failed)
    damage: dict[str, PageError] = {}
    for item in page_items(inputs, site, archives, damage):
        page = prepare_or_error(item.source, item.name, url=item.url, site=item.site, encoding=item.encoding)
        if isinstance(page, PageError):
            report_skip(item.name, page)
            failed.append(item.name)
        else:
            yield page
    report_skips(damage.items(), failed)


def page_items(inputs: Sequence[tuple[Path, str]], site: str | None, archives: Sequence[tuple[Path, str]],
               damage: dict[str, PageError]) -> Iterator[Item]:
    """The listed pages as batch items, then the pages of the WARC and JSONL files given (their
    default fields); what those files' readers cannot read goes into ``damage``."""
    from ..batch import Item  # a page to read, as the readers of WARC and JSONL files give them

    items: Iterable[Item] = (Item(str(path), path, site=site) for path, _stem in inputs)
    if archives:
        items = itertools.chain(items, _archive_items(archives, site, damage))
    return iter(items)


def _archive_items(archives: Sequence[tuple[Path, str]], site: str | None,
                   damage: dict[str, PageError]) -> Iterator[Item]:
    """The pages of WARC and JSONL files (their default fields), one file after another."""
    from ..records import read_jsonl  # the readers of files of many pages, only when some are given
    from ..warc import read_warc

    for archive, _folder in archives:
        yield from read_jsonl(archive, site=site, damage=damage) if is_jsonl(archive) else read_warc(
            archive, site, damage=damage)


def whole_number(value: str, least: int, what: str = "a whole number") -> int:
    """An option's count (``what``), at least ``least``: argparse's usage error otherwise."""
    try:
        count = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected {what}, got {value!r}") from None
    if count < least:
        raise argparse.ArgumentTypeError(f"must be at least {least}, got {count}")
    return count


def jobs_value(value: str) -> int:
    """``--jobs``: a number of worker processes, or ``auto`` (0) for as many as the batch is worth."""
    return 0 if value == "auto" else whole_number(value, 1, "a number or 'auto'")


def check_threshold(threshold: float | None) -> None:
    """``--threshold``: a P(content) between 0 and 1, as ``extract`` takes it (NaN is none: every
    comparison with it is false, so every block would be removed without a word)."""
    if threshold is not None and not 0 <= threshold <= 1:
        raise UsageError("--threshold must be between 0 and 1")


def model_options(p: argparse.ArgumentParser, model_help: str) -> None:
    """``--model``, ``--favor``, ``--threshold`` and ``--site``, as the scoring subcommands take them."""
    p.add_argument("--model", metavar="FILE", help=model_help)
    p.add_argument("--favor", choices=FAVORS, default="balanced")
    p.add_argument("--threshold", type=float, help="raw P(content) threshold, overrides --favor")
    p.add_argument("--site", help="treat every page as belonging to this site")
