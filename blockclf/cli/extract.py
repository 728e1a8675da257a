"""``blockclf extract``: many pages through the streaming batch, outputs written atomically.

Each output file, and the removed-blocks log, appears complete or not at all: files are
written under a temporary name and renamed into place (`blockclf.files`). An output that
cannot be written stops the run with exit status 3 and a summary of what was written; a
page that cannot be read is skipped and named, exit status 1. Names are printed with
control characters escaped, so no file name can forge a line of the report.
"""

from __future__ import annotations

import argparse
import ctypes
import errno
import shutil
import sys
from collections import Counter
from collections.abc import Iterable, Iterator
from contextlib import ExitStack
from dataclasses import dataclass, field, replace
from functools import partial
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

import orjson

from ..checks import page_flags
from ..data import host_site
from ..encoding import web_encoding
from ..files import (
    NAME_MAX,
    OutputError,
    atomic_open,
    fitting_path,
    is_stream,
    partial_path,
    printable,
    resumable_open,
    write_atomic,
)
from ..html import ABSOLUTE_URL, Limits, PageError, join_url
from ..inputs import is_jsonl
from ..jsonout import document
from ..jsonout import lines as json_lines
from ..model import FAVORS, Model, cached_model
from ..result import BLOCK_RECORDS, Result
from ..site import MIN_OTHER_PAGES, SiteProfile
from .common import (
    ARCHIVE_FILES,
    EXIT_CODES,
    UsageError,
    check_threshold,
    collect_inputs,
    jobs_value,
    make_output_folder,
    nothing_found,
    output_skip,
    readable_archives,
    report_unread,
)

if TYPE_CHECKING:
    from ..batch import BatchOptions, Outcome
    from ..render import Form

__all__ = ["EXT", "add_parser", "run"]

EXT = {"text": ".txt", "markdown": ".md", "json": ".json", "html": ".html"}
#: the first line of the command's HTML output: a fragment declares no encoding, and a reader
#: that does not guess one reads the file as Latin-1 (libxml2, hence lxml: "CafÃ©"); browsers
#: and parsers look for this declaration in a file's first bytes wherever it stands, and a page
#: that embeds the fragment ignores it (`render.to_html` returns the fragment alone)
HTML_CHARSET = '<meta charset="utf-8">\n'


def _render(res: Result, form: Form) -> str:
    """The page's output as a file holds it: text ending with a line break, HTML declaring
    its encoding (`HTML_CHARSET`), Markdown, or the JSON document. A page of which nothing
    was kept is an empty file in every form but JSON, so that a size of 0 finds it."""
    if form.fmt == "json":
        return _json(res, form).decode("utf-8")
    text = form.text(res)
    if form.fmt == "text":
        return text + ("\n" if text else "")
    return HTML_CHARSET + text if form.fmt == "html" and text else text


def _json(res: Result, form: Form) -> bytes:
    """The page's JSON document, in UTF-8 (`blockclf.jsonout`)."""
    return document(form.document(res))


def _render_page(res: Result, form: Form, with_log: bool, jsonl: bool = False,
                 encoded: bool = False) -> tuple[str | bytes, str, list[str]]:
    """A result's output (a JSON line with ``jsonl``; UTF-8 bytes with ``encoded``, as a file
    takes them: they are half the size of most pages' text held in memory, where a batch
    holds outputs waiting for their turn), the removal log's JSON lines (encoded here, in the
    worker: in the process that writes every output they took a fifteenth of a run) and flag
    warnings (runs in batch workers, so module level)."""
    from ..render import removal_log  # lazy, as the batch engine (`run`)

    flags = page_flags(res)  # an error or empty page, or one with nothing kept, is named on stderr
    if jsonl:
        from ..warc import warc_line  # lazy, as the batch engine (`run`)

        return (*warc_line(res, form, with_log, key="name"), flags)
    if encoded and form.fmt == "json":
        out: str | bytes = _json(res, form)
    else:
        out = _render(res, form)
        out = out.encode("utf-8", "backslashreplace") if encoded else out
    return out, (json_lines(removal_log(res)) if with_log else ""), flags


def _read_stdin(max_bytes: int) -> bytes | PageError:
    """One page from standard input, refused past ``max_bytes`` like a file would be."""
    data = sys.stdin.buffer.read(max_bytes + 1)
    if len(data) > max_bytes:
        return PageError("too-large", f"standard input holds more than --max-bytes ({max_bytes} bytes)")
    return data


def _write_stdout(text: str) -> None:
    try:
        sys.stdout.write(text)
    except BrokenPipeError:  # the reader stopped early: the command ends quietly (blockclf.cli.main)
        raise
    except OSError as exc:  # a full disk behind a redirection
        raise OutputError(f"cannot write to standard output: {exc.strerror or exc}") from None


def _summary(n_done: int, skipped: Counter[str], flagged: Counter[str], tail: str, before: int = 0) -> None:
    """The run's last line: pages processed, outputs written before (``--resume``), pages
    skipped by reason, and pages processed but flagged, by flag (an error or empty page,
    nothing kept, a damaged file read in part)."""
    detail = ", ".join(f"{k} {v}" for k, v in sorted(skipped.items()))
    marks = ", ".join(f"{k} {v}" for k, v in sorted(flagged.items()))
    print(f"blockclf: {n_done} processed, " + (f"{before} done before, " if before else "")
          + f"{sum(skipped.values())} skipped" + (f" ({detail})" if detail else "")
          + (f"; flagged: {marks}" if marks else "") + tail, file=sys.stderr)


class _FailFast(Exception):
    """Raised on the first skipped page under ``--fail-fast``."""


@dataclass
class _Inputs:
    """What one run reads: listed files (with output stems and sources), WARC and JSONL files of
    pages, standard input, and the inputs already skipped while listing."""

    files: list[tuple[Path, str]]
    #: WARC and JSONL files, each with the folder its JSONL goes to inside the output folder ("" for its top)
    archives: list[tuple[Path, str]]
    stdin: bool
    listing: list[tuple[str, PageError]]
    stems: dict[str, str] = field(default_factory=dict)
    sources: dict[str, Path | bytes] = field(default_factory=dict)


#: an ``-o`` path with one of these suffixes names the output file of a single page
FILE_SUFFIXES = frozenset((*EXT.values(), ".text", ".markdown", ".htm"))


def _output_file(args: argparse.Namespace, inputs: _Inputs) -> Path | None:
    """The file ``-o`` names when one page is extracted (``-o page.txt``, or a stream such as
    ``-o /dev/null`` whatever its name), else None: ``-o`` then names a folder. A path that is
    an existing folder stays a folder whatever its name."""
    if args.output is None or len(inputs.files) + inputs.stdin != 1 or inputs.listing or inputs.archives:
        return None
    path = Path(args.output)
    if (path.suffix.lower() not in FILE_SUFFIXES or path.is_dir()) and not is_stream(path):
        return None
    return path


def _check(args: argparse.Namespace) -> None:
    check_threshold(args.threshold)
    if args.jobs < 0:
        raise UsageError("--jobs must be at least 1")
    if min(args.max_bytes, args.max_nodes, args.max_depth) < 1:
        raise UsageError("--max-bytes, --max-nodes and --max-depth must be at least 1")
    if args.resume and args.overwrite:
        raise UsageError("--resume keeps the outputs an earlier run wrote, --overwrite replaces them: give one")
    if args.resume and args.output in (None, "-"):
        raise UsageError("--resume continues a run into the output folder it wrote: give it as -o")


def _output_path(out_dir: Path | None, out_file: Path | None, stem: str, fmt: str) -> Path:
    """Where a page's output goes: the file ``-o`` names for one page, else under the folder
    (its name fitted to `NAME_MAX` bytes)."""
    if out_file is not None:
        return out_file
    assert out_dir is not None
    return fitting_path(out_dir / (stem + EXT[fmt]))


def _check_log_path(args: argparse.Namespace, inputs: _Inputs, out_dir: Path | None, out_file: Path | None) -> None:
    """Refuse a ``--removed-log`` that names an input page or a page's output: written last, it
    replaced that file without a word."""
    if not args.removed_log:
        return
    log = Path(args.removed_log).resolve()
    for path, stem in inputs.files:
        target = _output_path(out_dir, out_file, stem, args.format) if out_dir or out_file else None
        if log == path.resolve() or (target is not None and log == target.resolve()):
            what = "the input" if log == path.resolve() else "the output of"
            raise UsageError(f"--removed-log {printable(args.removed_log)} is {what} {printable(path)}: "
                             "give the log another name")


def _settle_format(args: argparse.Namespace, out_file: Path | None) -> None:
    """Without ``--format``, a single page's output file says it by its name (``-o page.md``);
    anything else is text. ``--explain`` with an output that shows no reasons, and ``--blocks``
    with one that holds no block records, are warned of."""
    if args.format is None:
        args.format = FORMATS.get(out_file.suffix.lower().lstrip("."), "text") if out_file is not None else "text"
    if args.explain and not args.removed_log and (args.format != "json" or args.blocks == "none"):
        shown = f"{args.format} output" if args.format != "json" else "JSON without block records (--blocks none)"
        print(f"blockclf: warning: --explain adds each block's reasons to JSON output and to --removed-log; "
              f"{shown} shows none of them (try blockclf explain PAGE for a view)", file=sys.stderr)
    if args.blocks != "all" and args.format != "json":
        print(f"blockclf: warning: --blocks says which block records JSON output holds; {args.format} output "
              "holds none", file=sys.stderr)


def _list_inputs(args: argparse.Namespace) -> _Inputs:
    """The run's inputs; files in the given folders that are neither pages nor WARC or JSONL files are named on
    stderr."""
    if args.paths.count("-") > 1:
        raise UsageError("standard input ('-') can be read once")
    stdin = "-" in args.paths
    archives: list[tuple[Path, str]] = []
    listing: list[tuple[str, PageError]] = []
    unread: list[str] = []
    files = collect_inputs([p for p in args.paths if p != "-"], skipped=listing, unread=unread, archives=archives,
                           output=args.output if args.output not in (None, "-") else None, jsonl=True)
    report_unread(unread, ARCHIVE_FILES)
    archives = readable_archives(archives, args.paths, listing)
    if not files and not archives and not listing and not stdin:
        raise nothing_found(ARCHIVE_FILES)
    return _Inputs(files, archives, stdin, listing)


def _form(args: argparse.Namespace) -> Form:
    """How the run writes each page (`blockclf.render.Form`), from its settled ``--format``."""
    from ..render import Form  # lazy, as the batch engine (`run`)

    return Form(args.format, images=getattr(args, "images", False), title=getattr(args, "title", None),
                blocks=args.blocks)


def _options(args: argparse.Namespace, inputs: _Inputs, jsonl: bool, model: Model,
             profile: SiteProfile | None) -> BatchOptions:
    """The batch options of the run; ``--jobs auto`` is settled here (``args.jobs``)."""
    from ..batch import BatchOptions  # lazy, see `run`
    from ..workers import auto_jobs

    if args.url is not None and (len(inputs.files) + inputs.stdin + len(inputs.listing) != 1 or inputs.archives):
        raise UsageError("--url names one page's address: give one page (a file or -), not several or a WARC")
    # the address the segmenter takes as a base, and one links can be joined to ("http://[::1" cannot)
    if args.url is not None and not (ABSOLUTE_URL.match(args.url) and join_url(args.url, "x") is not None):
        raise UsageError(f"--url must be an absolute http or https address, not {args.url[:200]!r}")
    if args.dask and (inputs.archives or inputs.stdin):
        raise UsageError("--dask reads files the workers can open; extract WARC files and standard input without it")
    if args.jobs == 0:  # auto: the free cores, as many as the batch is worth (a WARC's size is not known)
        args.jobs = auto_jobs(None if inputs.archives else len(inputs.files) + inputs.stdin)
    limits = Limits(max_bytes=args.max_bytes, max_nodes=args.max_nodes, max_depth=args.max_depth,
                    max_seconds=args.time_budget or None)
    transform = partial(_render_page, form=_form(args), with_log=bool(args.removed_log), jsonl=jsonl,
                        encoded=args.output is not None)
    return BatchOptions(model=model if args.jobs == 1 else args.model, favor=args.favor, threshold=args.threshold,
                        site_profile=profile, use_site=not args.no_site, explain=args.explain,
                        encoding=args.encoding, limits=limits, transform=transform, comments=args.comments,
                        exact_scores=args.exact_scores)


class _Run:
    """One ``blockclf extract`` run: pages through the batch, outputs written, skips counted."""

    def __init__(self, args: argparse.Namespace, inputs: _Inputs, opts: BatchOptions, out_dir: Path | None) -> None:
        self.args, self.inputs, self.opts, self.out_dir = args, inputs, opts, out_dir
        self.out_file: Path | None = None  # ``-o page.txt`` for a single page
        # each folder named on the command line, with its own name ('.' is the working folder's)
        self.folders = [(Path(p), Path(p).resolve().name) for p in args.paths if p != "-" and Path(p).is_dir()]
        self.progress = args.progress == "on" or (args.progress == "auto" and sys.stderr.isatty())
        self.skipped: Counter[str] = Counter()
        self.flagged: Counter[str] = Counter()  # pages processed but named on stderr, by flag
        self.counts: Counter[str] = Counter()  # pages of file inputs written, and failed in the batch
        self.n_done = 0
        self.log_fh: IO[str] | None = None
        from ..batch import SiteReport  # lazy, see `run`

        self.sites: SiteReport = SiteReport()

    def skip(self, name: str, error: PageError) -> None:
        print(f"blockclf: skipped {printable(name)}: {printable(error)}", file=sys.stderr)
        self.skipped[error.reason] += 1
        if self.args.fail_fast:
            raise _FailFast

    def outcomes(self, batch: Iterable[Outcome]) -> Iterator[tuple[str, Any]]:
        """Each page's output by name; failed pages are skipped, flags and removal-log lines written."""
        for o in batch:
            if o.error is not None:
                self.counts["failed"] += 1
                self.skip(o.name, o.error)
                continue
            self.n_done += 1
            out, records, *flags = o.result
            if flags and flags[0]:
                self.flagged.update(flags[0])
                print(f"blockclf: warning: {printable(o.name)}: flagged {', '.join(flags[0])}", file=sys.stderr)
            if self.log_fh is not None and records:  # JSON lines, encoded where the page was scored
                self.log_fh.write(records)
                self.log_fh.flush()  # in the file before the page's output: a stopped run's log misses no page
            yield o.name, out

    def unwritable(self, name: str, exc: OutputError) -> None:
        """Skip a page whose output its own name or place keeps from being written (a folder
        of the inputs named like another page's output, ``b.txt/`` beside ``b.html``); the
        batch goes on."""
        self.n_done -= 1  # counted when it came out of the batch
        self.counts["failed"] += 1
        self.skip(name, PageError("unwritable", str(exc)))

    def _folder_site(self, path: Path, stem: str) -> str | None:
        """The site a page without a URL takes from the folders it sits in: the innermost one
        named like a host, from the folder named on the command line (itself included) down."""
        for folder, name in self.folders:
            try:
                below = path.relative_to(folder)
            except ValueError:
                continue
            return host_site(Path(name) / below)
        return host_site(stem)

    def extract_all(self) -> None:
        for name, err in self.inputs.listing:
            self.skip(name, err)
        self._extract_files()
        self._extract_archives()

    def _target(self, stem: str) -> Path:
        return _output_path(self.out_dir, self.out_file, stem, self.args.format)

    def _extract_files(self) -> None:
        args, inputs, out_dir = self.args, self.inputs, self.out_dir
        done: set[str] = set()  # pages whose output an earlier run wrote (`Item.evidence_only`)
        if out_dir is not None or self.out_file is not None:
            # only an HTML output or a named file can be a page: pages end in .html, .htm, .html.gz
            can_be_page = args.format == "html" or self.out_file is not None
            pages = frozenset(path.resolve() for path, _ in inputs.files) if can_be_page else frozenset()
            for path, stem in list(inputs.files):
                target = self._target(stem)
                why = output_skip(target, "output", args.overwrite, pages)
                if why is not None and why.reason == "exists":  # written before: still the others' evidence
                    done.add(str(path))
                    if args.resume:
                        self.counts["before"] += 1
                    else:
                        self.skip(str(path), why)
                elif why is not None:
                    inputs.files.remove((path, stem))
                    self.skip(str(path), why)
                elif self.out_file is None and target.name != Path(stem + EXT[args.format]).name:
                    print(f"blockclf: warning: {printable(path)}: output name over {NAME_MAX} bytes, written as "
                          f"{printable(target.name)}", file=sys.stderr)
        if done and not args.resume:
            print(f"blockclf: {len(done)} {'output exists' if len(done) == 1 else 'outputs exist'} from an earlier "
                  "run: --resume counts them as done, --overwrite replaces them", file=sys.stderr)
        if args.no_site:  # nothing to read a page written before for
            inputs.files = [(path, stem) for path, stem in inputs.files if str(path) not in done]
            done = set()
        if len(inputs.files) == len(done):
            return
        if done and not args.no_site:  # what a resumed run spends its first minutes on
            print(f"blockclf: {len(done)} {'page' if len(done) == 1 else 'pages'} written before "
                  f"{'is' if len(done) == 1 else 'are'} read again as site evidence for the "
                  f"{len(inputs.files) - len(done)} extracted now (--no-site: not read)", file=sys.stderr)
        from ..batch import Item, run_batch  # lazy, see `run`
        from ..distributed import iter_dask
        from ..render import removal_log  # noqa: F401  (the renderers: loaded before workers fork, or each loads them)

        items = [Item(str(path), inputs.sources[str(path)], url=args.url, site=args.site,
                      fallback_site=self._folder_site(path, stem), evidence_only=str(path) in done)
                 for path, stem in inputs.files]
        self.counts["files"] = len(items) - len(done)
        batch: Iterable[Outcome]
        if args.dask:
            batch = iter_dask(items, replace(self.opts, model=args.model), client=args.dask)
        else:
            # a file a page: pages that can get no site evidence are written as soon as they are
            # scored, so that a large folder's outputs are not held until their turn (unless the
            # run stops at its first skipped page: every page before it is written, none after)
            batch = run_batch(items, self.opts, jobs=args.jobs, progress=self.progress, report=self.sites,
                              ordered=out_dir is None or args.fail_fast)
        self.counts["failed"] = 0
        for name, out in self.outcomes(batch):
            if out_dir is None and self.out_file is None:
                _write_stdout(out)
            else:
                try:
                    write_atomic(self._target(inputs.stems[name]), out)
                except OutputError as exc:
                    if not exc.only_this_output:  # a full or read-only disk: no other output would fare better
                        raise
                    self.unwritable(name, exc)
                    continue
            self.counts["written"] += 1
        self.counts["files"] = 0

    def _extract_archives(self) -> None:
        """Each WARC or JSONL file of pages into one JSONL file, where it lies in the folders given."""
        from ..records import extract_jsonl, jsonl_output
        from ..warc import extract_warc, warc_output  # lazy, see `run`

        targets: set[Path] = set()
        for archive, folder in self.inputs.archives:
            out_dir = self.out_dir / folder if self.out_dir is not None else None  # a folder's archives keep its layout
            jsonl = is_jsonl(archive)
            target: Path | None = None
            if out_dir is not None:
                target = jsonl_output(archive, out_dir) if jsonl else warc_output(archive, out_dir)
                if target in targets:
                    self.skip(str(archive), PageError("collision", f"its output {target} is taken by another file's"))
                    continue
                targets.add(target)
                exists = output_skip(target, "output", self.args.overwrite)
                if exists is not None and self.args.resume:
                    print(f"blockclf: {printable(archive)}: its output {printable(target)} is complete: not read "
                          "again (--resume)", file=sys.stderr)
                    continue
                if exists is not None:
                    self.skip(str(archive), exists)
                    continue
                stopped = partial_path(target)
                if not (self.args.resume or self.args.overwrite) and stopped.is_file() and stopped.stat().st_size:
                    self.skip(str(archive), PageError("exists", f"{stopped} holds the pages a stopped run wrote "
                                                      "(give --resume to go on from them, --overwrite to start again)"))
                    continue
            not_pages: dict[int, str] = {}
            try:
                run = (partial(extract_jsonl, html_field=self.args.html_field, url_field=self.args.url_field) if jsonl
                       else partial(extract_warc, not_pages=not_pages))
                run(archive, out_dir, self.opts, _form(self.args), jobs=self.args.jobs, progress=self.progress,
                    site=self.args.site, with_log=bool(self.args.removed_log), outcomes=self.outcomes,
                    resume=self.args.resume, on_resumed=self._resumed)
                _report_not_pages(archive, not_pages)
            except OutputError as exc:
                if exc.errno != errno.EBUSY:  # another run's partial file is not ours to offer
                    _kept(archive, target)
                if not exc.only_this_output:
                    raise
                self.skip(str(archive), PageError("unwritable", str(exc)))
            except KeyboardInterrupt:
                _kept(archive, target)
                raise

    def logged_before(self, line: bytes) -> bool:
        """Whether a line of a stopped run's removal log is of a page whose output that run
        wrote; the others' lines are left out (the page being written when the run stopped, or
        one whose output could not be written: each is logged again when it is extracted)."""
        try:
            page = orjson.loads(line).get("page")
        except (orjson.JSONDecodeError, AttributeError):
            return False
        stem = self.inputs.stems.get(page) if isinstance(page, str) else None
        return stem is None or self._target(stem).exists()  # a record of a WARC or JSONL file: kept

    def _resumed(self, n: int) -> None:
        """An archive's output continued from the pages a stopped run wrote (``--resume``)."""
        self.counts["before"] += n

    def report_sites(self) -> None:
        """Name the pages that got no site evidence (one page alone never has any)."""
        sites = self.sites
        if sites.pages > 1 and (sites.no_site or sites.alone):
            why = [f"{sites.no_site} {'names' if sites.no_site == 1 else 'name'} no URL or site "
                   "(give --site, or keep pages in host-named folders)"] if sites.no_site else []
            why += [f"{sites.alone} {'has' if sites.alone == 1 else 'have'} fewer than {MIN_OTHER_PAGES} other pages "
                    f"of {'its' if sites.alone == 1 else 'their'} site in the batch"] \
                if sites.alone else []
            print(f"blockclf: {sites.no_site + sites.alone} of {sites.pages} pages got no site evidence: "
                  + "; ".join(why), file=sys.stderr)


def _add_stdin(args: argparse.Namespace, inputs: _Inputs) -> None:
    """Read standard input, if named, as the first page (or a skip when it is too large)."""
    inputs.stems = {str(path): stem for path, stem in inputs.files}
    inputs.sources = {str(path): path for path, _ in inputs.files}
    if inputs.stdin:
        data = _read_stdin(args.max_bytes)
        if isinstance(data, PageError):
            inputs.listing.append(("-", data))
        else:
            inputs.files.insert(0, (Path("-"), "stdin"))
            inputs.stems["-"], inputs.sources["-"] = "stdin", data


def _steady_heap() -> None:
    """Keep large short-lived buffers (a page's text, its feature table, a JSON output) out of
    the heap, so that this process and the workers it forks give their memory back.

    glibc raises its mmap threshold to the size of each large buffer freed, up to 32 MB, and
    from then on such buffers come from a heap that fragments and does not shrink. Over a
    folder of 5,000 pages written as JSON (78 KB a page) the command and its two workers
    peaked at 508 MB, against 461-487 MB with the threshold kept at its initial 128 KB. It
    costs about 0.7 ms of CPU a page, so it is done for JSON only: text output
    peaks at 460-465 MB either way. Elsewhere (another C library, another system) nothing is
    changed.
    """
    if not sys.platform.startswith("linux"):
        return
    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):
        return
    mallopt(_M_MMAP_THRESHOLD, 128 * 1024)


_M_MMAP_THRESHOLD = -3  # glibc's malloc.h


def run(args: argparse.Namespace) -> int:
    """``blockclf extract``: pages, directories and WARC files to text, Markdown or JSON.

    The batch engine, the renderers, WARC reading and Dask are imported where they are used,
    not with this module: every command builds this module's parser, and ``blockclf --version``
    or ``blockclf site ...`` should not pay for them.
    """
    _check(args)
    model = cached_model(args.model)  # forked workers find it read: sent as a path, not read again
    from ..workers import batch_collector  # lazy, see `run`

    with batch_collector():  # forked workers inherit the setting; a caller's Python gets its own back
        return _extract(args, model)


def _extract(args: argparse.Namespace, model: Model) -> int:
    """`run` once the model is read."""
    profile = SiteProfile.load(args.site_profile) if args.site_profile else None
    inputs = _list_inputs(args)
    if args.output == "-":
        args.output = None
    # several pages and no output folder: one JSON object per page on standard output
    jsonl = args.output is None and (len(inputs.files) + len(inputs.listing) + inputs.stdin > 1
                                     or bool(inputs.archives and (inputs.files or inputs.stdin)))
    out_file = _output_file(args, inputs)
    _settle_format(args, out_file)
    if args.format == "json":
        _steady_heap()
    opts = _options(args, inputs, jsonl, model, profile)
    out_dir = Path(args.output) if args.output is not None and out_file is None else None
    _check_log_path(args, inputs, out_dir, out_file)
    if out_dir is not None and out_dir.exists() and not out_dir.is_dir():
        what = "a file" if out_dir.is_file() else "a device or pipe"
        raise OutputError(f"cannot write to {printable(out_dir)}: it is {what}, not a directory")
    if out_dir is not None and (inputs.files or inputs.archives):
        make_output_folder(out_dir)
    _add_stdin(args, inputs)
    job = _Run(args, inputs, opts, out_dir)
    job.out_file = out_file
    stopped = ""
    try:
        with ExitStack() as stack:
            if args.removed_log:  # streamed to a partial file, renamed into place when the run ends
                log = Path(args.removed_log)
                going_on = args.resume and partial_path(log).exists()  # the log of a stopped run
                # kept after a stop where --resume can go on from it: a run that writes files
                job.log_fh = stack.enter_context(resumable_open(log, going_on, job.logged_before, drop=True)
                                                 if args.output is not None else atomic_open(log))
                if args.resume and not going_on:
                    _carry_log(log, job.log_fh)
            try:
                job.extract_all()
            except _FailFast:  # the log of the pages done so far is kept
                stopped = "; stopped at the first skipped page (--fail-fast)"
    except OutputError as exc:
        print(f"blockclf: error: {exc}", file=sys.stderr)
        lost = job.counts["files"] - job.counts["written"] - job.counts["failed"]
        _summary(job.n_done, job.skipped, job.flagged, "; stopped: an output could not be written"
                 + (f" ({lost} pages not written)" if lost > 0 else ""), job.counts["before"])
        return 3
    n_skipped = sum(job.skipped.values())
    job.report_sites()
    if args.output is not None or n_skipped:
        _summary(job.n_done, job.skipped, job.flagged, stopped, job.counts["before"])
    return 1 if n_skipped else 0


def _report_not_pages(archive: Path, not_pages: dict[int, str]) -> None:
    """Say how many of a WARC's responses were not read as pages, and why: a crawl's redirects,
    errors, images and duplicates, counted so that the pages written add up to what it holds."""
    if not not_pages:
        return
    kinds = Counter(not_pages.values()).most_common()
    listed = ", ".join(f"{why} {n:,}" for why, n in kinds[:8])
    if len(kinds) > 8:
        listed += f", {len(kinds) - 8} other kinds {sum(n for _, n in kinds[8:]):,}"
    n = len(not_pages)
    print(f"blockclf: {printable(archive)}: {n:,} {'record' if n == 1 else 'records'} not read as pages: {listed}",
          file=sys.stderr)


def _kept(archive: Path, target: Path | None) -> None:
    """Say where the lines of an archive's stopped extraction are, and how to go on."""
    if target is None:
        return
    kept = partial_path(target)
    try:
        if kept.stat().st_size == 0:
            return
    except OSError:
        return
    print(f"blockclf: the pages of {printable(archive)} written so far are kept in {printable(kept)}: run the "
          "same command with --resume to go on from them", file=sys.stderr)


def _carry_log(path: Path, fh: IO[str]) -> None:
    """Start a resumed run's removal log with the earlier run's lines: the file is replaced
    only when this run ends, so a run stopped again leaves the earlier log as it was. A
    stream (``/dev/stderr``) kept nothing to carry."""
    if is_stream(path):
        return
    try:
        with open(path, "rb") as old:
            fh.flush()
            shutil.copyfileobj(old, fh.buffer)  # type: ignore[attr-defined]
    except FileNotFoundError:
        return
    except OSError as exc:
        raise OutputError(f"cannot read {printable(path)} to continue it: {exc.strerror or exc}") from None


#: output formats, and the other names they are asked for by
FORMATS = {"text": "text", "txt": "text", "markdown": "markdown", "md": "markdown", "json": "json", "html": "html",
           "htm": "html"}


def _encoding(value: str) -> str:
    """``--encoding``: a name of an encoding of the web, as a page may declare it; any other was
    ignored without a word, and every page read by its own declaration."""
    if web_encoding(value) is None:
        raise argparse.ArgumentTypeError(f"{value!r} names no encoding a browser reads "
                                         "(utf-8, windows-1252, iso-8859-2, shift_jis, gb18030, ...)")
    return value


def _format(value: str) -> str:
    """``--format``: one of the formats, by name or file suffix (``txt``, ``md``)."""
    try:
        return FORMATS[value.lower()]
    except KeyError:
        raise argparse.ArgumentTypeError(f"expected text, markdown, json or html, got {value!r}") from None


def add_parser(sub: Any) -> None:
    """Register ``blockclf extract`` on the main parser's subparsers."""
    ex = sub.add_parser("extract", help="extract the main content of pages",
                        description="Extract main content. Example: blockclf extract page.html --format markdown",
                        epilog=EXIT_CODES,
                        formatter_class=argparse.RawDescriptionHelpFormatter)
    ex.add_argument("paths", nargs="+", metavar="PATH",
                    help=".html/.htm/.html.gz/.mhtml files or directories (their files that begin as HTML, such as "
                         "a mirror's 'story' or 'item.php?id=3', are pages too, and their WARC and JSONL files are "
                         "read), .warc/.warc.gz files (extra 'warc'), .jsonl/.jsonl.gz files of one page a line "
                         "(--html-field), or - for one page on standard input")
    ex.add_argument("-o", "--output", metavar="OUTDIR",
                    help="write OUTDIR/<relative path>.{txt,md,json,html}; for a single page, a name ending "
                         ".txt, .md, .json or .html that is not a folder is the output file itself (and, "
                         "without --format, gives the format); without -o "
                         "(or with -o -) one page is written to standard output, several as JSON lines")
    ex.add_argument("--model", metavar="FILE", help="model file, or 'refined' for the shipped model with the refining "
                    "pass (default: the shipped default model)")
    ex.add_argument("--favor", choices=FAVORS, default="balanced", help="precision, balanced (default) or recall")
    ex.add_argument("--threshold", type=float, help="raw P(content) threshold, overrides --favor")
    ex.add_argument("--format", type=_format, default=None, metavar="{text,markdown,json,html}",
                    help="text (default; also 'txt'), markdown ('md'), json (with the Markdown), or html (clean, "
                         "safe to embed)")
    ex.add_argument("--blocks", choices=BLOCK_RECORDS, default="all",
                    help="the block records JSON output holds: every block's, kept or not, with its score, "
                         "element path and structure (default), the kept blocks' only, or none (the page's "
                         "metadata, verdict, text and Markdown: a sixth of the size, on the benchmark's pages)")
    ex.add_argument("--images", action="store_true", help="keep images as ![alt](src) in markdown, <img> in html")
    ex.add_argument("--title", action=argparse.BooleanOptionalAction, default=None,
                    help="start the output with the page's headline, once (default: in markdown and html; not in "
                         "text, which holds only the kept blocks)")
    ex.add_argument("--jobs", type=jobs_value, default="auto", metavar="N|auto",
                    help="worker processes: auto (default) uses the available cores, up to 8 and one per 12 pages "
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
    ex.add_argument("--exact-scores", action="store_true",
                    help="sum every tree of every block's score; by default a block's trees are summed until its "
                    "score is under 0.018 or over 0.982, which changes no decision and leaves such a score within "
                    "0.05 of the full sum (the JSON's and --removed-log's scores)")
    ex.add_argument("--url", help="the http(s) address of the one page given: its links are made absolute against "
                    "it and its site is taken from it (without it, from the page's canonical link, if any)")
    ex.add_argument("--site", help="treat every page as belonging to this site")
    ex.add_argument("--site-profile", metavar="FILE", help="site profile with repetition counts from earlier pages")
    ex.add_argument("--no-site", action="store_true", help="do not use pages of the same site as evidence")
    ex.add_argument("--comments", choices=("remove", "keep", "separate"), default="remove",
                    help="readers' comment threads (and a product page's customer reviews): removed from the "
                         "main text (default), kept in it, or "
                         "removed and given apart (the JSON's 'comments'; a closing Comments section in "
                         "Markdown, HTML and text)")
    ex.add_argument("--encoding", type=_encoding,
                    help="encoding to try before the page's own declaration (a name browsers read: utf-8, "
                         "windows-1252, shift_jis, gb18030...)")
    ex.add_argument("--html-field", default="html", metavar="NAME",
                    help="the field of a JSONL file's lines that holds the page's HTML (default html; a dotted "
                         "path such as response.body reaches into nested objects); a line's id (or key, else its "
                         "address) names its output line")
    ex.add_argument("--url-field", default="url", metavar="NAME",
                    help="the field of a JSONL file's lines that holds the page's address (default url)")
    ex.add_argument("--max-bytes", type=int, default=Limits().max_bytes,
                    help="skip pages larger than this, compressed or not (default %(default)s)")
    ex.add_argument("--max-nodes", type=int, default=Limits().max_nodes,
                    help="skip pages with more elements (default %(default)s)")
    ex.add_argument("--max-depth", type=int, default=Limits().max_depth,
                    help="read elements nested deeper as plain text and flag the page (default %(default)s)")
    ex.add_argument("--fail-fast", action="store_true", help="stop at the first skipped page (exit 1)")
    ex.add_argument("--overwrite", action="store_true",
                    help="replace existing outputs; without it a page whose output exists is skipped "
                         "with reason 'exists' (exit 1), and still read as site evidence for the others")
    ex.add_argument("--resume", action="store_true",
                    help="continue an earlier run into the same -o folder: pages whose output exists are counted "
                         "as done before, not skipped, and read again as site evidence only, so the rest get the "
                         "text one uninterrupted run gives them; a WARC or JSONL file goes on from the lines a "
                         "stopped run kept (.NAME.jsonl.partial), or is passed over when its output is complete; "
                         "--removed-log goes on from the log the earlier run left")
    ex.set_defaults(func=run)
