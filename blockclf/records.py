"""JSON lines of pages as input, and what a file of many pages shares with a WARC: one JSONL out.

A scraper's export or a dataset of crawled pages is often one JSON object a line, the page's
HTML in one field (``{"url": ..., "html": ...}``). `read_jsonl` reads such a file (``.jsonl``,
``.ndjson``, gzipped or not) line by line, as `blockclf.warc.read_warc` reads a crawl: each
page a batch item, each line that is not one named with a reason, the file read once a pass
and never held in memory. `extract_items` runs such items through the streaming batch and
writes one JSON line a page, for both kinds of file.
"""

from __future__ import annotations

import contextlib
import gzip
import itertools
import logging
import sys
import zlib
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import IO, Any

import orjson

from .batch import BatchOptions, Item, Outcome, run_batch
from .checks import page_flags
from .files import OutputError, fitting_path, resumable_open
from .html import Limits, PageError
from .inputs import JSONL_SUFFIXES
from .jsonout import line as json_line
from .jsonout import lines as json_lines
from .render import Form, removal_log
from .result import Result

__all__ = ["DEFAULT_HTML_FIELD", "DEFAULT_URL_FIELD", "extract_items", "extract_jsonl", "field_value", "json_objects",
           "jsonl_output", "page_line", "read_jsonl"]

log = logging.getLogger("blockclf")

#: the field of a line that holds the page's HTML, and the one that holds its address, unless
#: the caller names others
DEFAULT_HTML_FIELD = "html"
DEFAULT_URL_FIELD = "url"
#: the fields a line may name the page by (its output's ``name``), in this order; else its URL,
#: else the file's name and the line's number
_ID_FIELDS = ("id", "key")
_CHUNK = 1 << 20
#: a file whose first this many lines hold no JSON object, before any page, is not read further:
#: a binary file or a text of another kind named ``.jsonl`` would name each of its lines
NOT_JSONL_LINES = 5


def _stem(path: Path) -> str:
    name = path.name
    return next((name[: -len(s)] for s in JSONL_SUFFIXES if name.lower().endswith(s)), name)


def jsonl_output(path: str | Path, output: str | Path) -> Path:
    """The JSONL file `extract_jsonl` writes for the input ``path`` into the folder ``output``."""
    return fitting_path(Path(output) / f"{_stem(Path(path))}.jsonl")


@contextlib.contextmanager
def _open(path: Path) -> Iterator[IO[bytes]]:
    """The file's bytes, un-gzipped as they are read when it is gzipped (whatever its name)."""
    with open(path, "rb") as raw:
        if raw.read(2) != b"\x1f\x8b":
            raw.seek(0)
            yield raw
            return
        raw.seek(0)
        with gzip.GzipFile(fileobj=raw, mode="rb") as unzipped:
            yield unzipped  # type: ignore[misc]


def _lines(fh: IO[bytes], max_bytes: int) -> Iterator[tuple[int, bytes | None]]:
    """``(line number, line)`` pairs; a line over ``max_bytes`` is read past and given as None."""
    for number in itertools.count(1):
        line = fh.readline(max_bytes + 1)
        if not line:
            return
        if len(line) > max_bytes and not line.endswith(b"\n"):
            while line and not line.endswith(b"\n"):  # the rest of the long line, a chunk at a time
                line = fh.readline(_CHUNK)
            yield number, None
            continue
        yield number, line


def json_objects(path: str | Path, max_bytes: int | None = None) -> Iterator[tuple[int, Any]]:
    """``(line number, JSON value)`` for each non-empty line of a file of JSON lines, gzipped or
    not, read as `read_jsonl` reads it; the value is None for a line that is not JSON or holds
    over ``max_bytes``, and a stream that cannot be read further ends with its last line
    number and None (a file of `extract`'s outputs, which `blockclf site stats` reads)."""
    max_bytes = max_bytes or Limits().max_bytes
    number = 0
    with _open(Path(path)) as fh:
        try:
            for number, line in _lines(fh, max_bytes):
                if line is not None and not line.strip():
                    continue
                try:
                    yield number, orjson.loads(line) if line is not None else None
                except orjson.JSONDecodeError:
                    yield number, None
        except (OSError, EOFError, zlib.error):  # a damaged or cut gzip stream
            yield number, None


def _name(row: dict[str, Any], url: str | None, path: Path, number: int) -> str:
    for key in _ID_FIELDS:
        value = row.get(key)
        if isinstance(value, (str, int)) and not isinstance(value, bool) and str(value):
            return str(value)
    return url or f"{path.name}:{number}"


#: what `field_value` gives for a field a line does not have (a null is a field with no page)
_ABSENT = object()


def field_value(row: dict[str, Any], name: str, absent: Any = None) -> Any:
    """The value of ``name`` in a line's object: a key of its own, else a dotted path into the
    objects it holds (``response.body`` for ``{"response": {"body": ...}}``); ``absent`` if
    there is none."""
    if name in row:
        return row[name]
    value: Any = row
    for part in name.split("."):
        if not isinstance(value, dict) or part not in value:
            return absent
        value = value[part]
    return value


def read_jsonl(path: str | Path, html_field: str = DEFAULT_HTML_FIELD, site: str | None = None,
               max_bytes: int | None = None, damage: dict[str, PageError] | None = None,
               url_field: str = DEFAULT_URL_FIELD) -> Iterator[Item]:
    """Yield one `Item` per line of ``path`` that holds a page: a JSON object whose
    ``html_field`` is a string. The item's URL is the line's ``url_field`` (an http or https
    address), its name the line's ``id`` or ``key``, else its URL, else ``file:line``. Either
    field may be a dotted path into nested objects (`field_value`).

    Lines that hold no page go into ``damage`` (name → `PageError`), in file order:
    ``jsonl-corrupt`` (not a JSON object, or a gzip stream that cannot be read; the rest of
    the file then is not read), ``no-html`` (no such string field) and ``too-large`` (a
    line over ``max_bytes``). A file whose first object has no such field is one ``no-html``
    (it holds no pages, or names its HTML otherwise: ``--html-field``), not one a line; one
    whose first `NOT_JSONL_LINES` lines hold no JSON object is not read past them.
    Empty lines are passed over.
    """
    path = Path(path)
    max_bytes = max_bytes or Limits().max_bytes
    first, number, bad = True, 0, 0
    with _open(path) as fh:
        try:
            for number, line in _lines(fh, max_bytes):
                where = f"{path.name}:{number}"
                if line is None:
                    _damage(damage, where, "too-large", f"line {number} of {path.name} holds over {max_bytes} bytes, "
                            "the limit")
                    continue
                if number == 1 and line.startswith(b"\xef\xbb\xbf"):  # a UTF-8 byte order mark opens the file
                    line = line[3:]
                if not line.strip():
                    continue
                try:
                    row = orjson.loads(line)
                except orjson.JSONDecodeError as exc:
                    row, why = None, f"is not JSON ({exc})"
                else:
                    why = "is not a JSON object"
                if not isinstance(row, dict):
                    _damage(damage, where, "jsonl-corrupt", f"line {number} of {path.name} {why}")
                    bad += 1
                    if first and bad >= NOT_JSONL_LINES:  # not JSON lines at all (a binary file, one JSON array)
                        _damage(damage, f"{path} (after line {number})", "jsonl-corrupt", f"{path.name} is not a file "
                                f"of JSON lines: its first {bad} lines are no JSON object; the rest is not read")
                        return
                    continue
                html = field_value(row, html_field, _ABSENT)
                if not isinstance(html, str):
                    if first and html is _ABSENT:  # the field is named otherwise; a null is a failed fetch
                        _damage(damage, str(path), "no-html", f"its first record has no '{html_field}' string "
                                "(give --html-field to name the field of the page's HTML): the file is not read")
                        return
                    _damage(damage, where, "no-html", f"line {number} of {path.name} has no '{html_field}' string")
                else:
                    url = field_value(row, url_field)
                    url = url if isinstance(url, str) and url.lower().startswith(("http://", "https://")) else None
                    first = False
                    yield Item(name=_name(row, url, path, number), source=html, url=url, site=site)
        except (OSError, EOFError, zlib.error) as exc:  # a damaged or cut gzip stream
            _damage(damage, f"{path} (after line {number})", "jsonl-corrupt", f"{path.name} cannot be read past "
                    f"line {number} ({type(exc).__name__}: {exc}); the rest is not read")


def _damage(damage: dict[str, PageError] | None, name: str, reason: str, message: str) -> None:
    if damage is None:
        log.warning("skipped %s: %s", name, message)
    elif name not in damage:
        damage[name] = PageError(reason, message)


def extract_jsonl(path: str | Path, output: str | Path | None, opts: BatchOptions, form: Form | str = "text",
                  jobs: int = 1, progress: bool = False, site: str | None = None, with_log: bool = False,
                  outcomes: Callable[[Iterable[Outcome]], Iterable[tuple[str, str]]] | None = None,
                  html_field: str = DEFAULT_HTML_FIELD, url_field: str = DEFAULT_URL_FIELD, resume: bool = False,
                  on_resumed: Callable[[int], None] | None = None) -> Path | None:
    """Extract every page of a file of JSON lines into ``output/<name>.jsonl`` (stdout without
    output): one line a page, keyed ``name`` (see `read_jsonl`), in input order, as
    `blockclf.warc.extract_warc` writes a WARC's. ``resume``, ``on_resumed``: see
    `extract_items`. Returns the path written, if any."""
    path = Path(path)
    max_bytes = opts.limits.max_bytes
    return extract_items(lambda damage: read_jsonl(path, html_field, site, max_bytes, damage, url_field),
                         jsonl_output(path, output) if output is not None else None, opts, form, jobs=jobs,
                         progress=progress, with_log=with_log, outcomes=outcomes, key="name", resume=resume,
                         on_resumed=on_resumed)


def extract_items(read: Callable[[dict[str, PageError]], Iterator[Item]], target: Path | None, opts: BatchOptions,
                  form: Form | str = "text", jobs: int = 1, progress: bool = False, with_log: bool = False,
                  outcomes: Callable[[Iterable[Outcome]], Iterable[tuple[str, str]]] | None = None,
                  key: str = "url", resume: bool = False,
                  on_resumed: Callable[[int], None] | None = None) -> Path | None:
    """Run the pages ``read`` yields (called once a pass, with where to put what it cannot
    read) through the batch, and write one JSON line each to ``target`` (standard output when
    None). What could not be read comes after the pages, as failed outcomes.

    ``target`` appears when it is complete; until then its lines are in a partial file beside
    it (`blockclf.files.resumable_open`), which a run stopped halfway leaves behind. With
    ``resume``, the pages that file's lines hold (by their ``key``, in input order) are not
    extracted again but read as site evidence only (`Item.evidence_only`), and the lines of the
    rest follow theirs: the file comes out as one uninterrupted run writes it. ``on_resumed``
    is told how many lines were kept.
    """
    form = Form(form) if isinstance(form, str) else form
    opts = replace(opts, transform=partial(flagged_line, form=form, with_log=with_log, key=key))
    damage: dict[str, PageError] = {}  # filled while the items are read; the same on every pass
    done: Counter[str] = Counter()  # how many of the partial file's lines each name has

    def marked() -> Iterator[Item]:
        seen: Counter[str] = Counter()
        for item in read(damage):
            if seen[item.name] < done[item.name]:  # written before: the others' evidence only
                seen[item.name] += 1
                item = replace(item, evidence_only=True)
            yield item

    def batch() -> Iterator[tuple[str, str]]:
        pages = itertools.chain(run_batch(marked, opts, jobs=jobs, progress=progress), _damaged(damage))
        return iter(outcomes(pages) if outcomes is not None else _default_outcomes(pages))

    if target is None:
        lines = batch()
        try:
            for _, line in lines:
                sys.stdout.write(line)
        except BrokenPipeError:  # the reader stopped early: the command ends quietly (cli.main)
            raise
        except OSError as exc:  # a full disk behind a redirection
            raise OutputError(f"cannot write to standard output: {exc.strerror or exc}") from None
        return None

    def written(line: bytes) -> bool:  # a line of the partial file: whose page it holds, if written as now
        try:
            row = orjson.loads(line)
        except orjson.JSONDecodeError:
            return False
        name = row.get(key) if isinstance(row, dict) else None
        if not isinstance(name, str) or not _same_form(row, form):  # a run in another format: not mixed in
            return False
        done[name] += 1
        return True

    with resumable_open(target, resume, written) as fh:
        if resume and on_resumed is not None:
            on_resumed(sum(done.values()))
        for _, line in batch():
            fh.write(line)
            fh.flush()  # each line in the file as soon as it is written: a kill loses none
    return target


def _same_form(row: dict[str, Any], form: Form) -> bool:
    """Whether a line that `page_line` wrote is in ``form``'s format: a JSON document holds the
    page's statistics, a line of text, Markdown or HTML a field of that name and none."""
    return "stats" in row if form.fmt == "json" else form.fmt in row and "stats" not in row


def flagged_line(res: Result, form: Form, with_log: bool, key: str = "url") -> tuple[str, str, list[str]]:
    """`page_line`, and what a batch names on stderr of the page (`blockclf.checks.page_flags`),
    as a page file's output brings it: a page of a WARC or JSONL file was flagged to no one."""
    return (*page_line(res, form, with_log, key), page_flags(res))


def page_line(res: Result, form: Form, with_log: bool, key: str = "url") -> tuple[str, str]:
    """One JSONL line for a result (a WARC record's, keyed by its URL; ``key="name"`` for a
    page file or a JSONL input's line), written in ``form`` as a file of the page would be
    (its images, headline and block records), and its removal log as JSON lines ("" without
    ``with_log``): encoded here, in the worker that scored the page, not in the process that
    writes every output."""
    row: dict[str, Any] = {key: res.name}
    if form.fmt == "json":
        row.update(form.document(res))
        row[key] = res.name
    else:
        row.update(title=res.title, site=res.site, verdict=res.verdict)
        row[form.fmt] = form.text(res)
    return json_line(row), (json_lines(removal_log(res)) if with_log else "")


def _damaged(damage: dict[str, PageError]) -> Iterator[Outcome]:
    """The damage found while reading, as failed outcomes (read only once the batch is done)."""
    for name, error in damage.items():
        yield Outcome(name, error=error)


def _default_outcomes(batch: Iterable[Outcome]) -> Iterator[tuple[str, str]]:
    for o in batch:
        if o.error is not None:
            log.warning("skipped %s: %s", o.name, o.error)
            continue
        yield o.name, o.result[0]
