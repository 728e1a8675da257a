"""WARC input: the HTML responses of a crawl, extracted as one JSONL file keyed by record URL.

Crawls arrive as WARC files rather than folders of pages. Reading them needs ``warcio``
(install the ``warc`` extra). Only ``response`` records with a 2xx status and an HTML
content type are read; their HTTP ``charset`` is tried before the page's own declaration.
The records go through the streaming batch (`blockclf.batch`) like files do, so the pages
of one site inside the WARC are each other's site evidence; the WARC is read once per pass
and never held in memory.
"""

from __future__ import annotations

import contextlib
import io
import logging
import os
import re
from collections.abc import Callable, Generator, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .batch import BatchOptions, Item, Outcome
from .encoding import web_encoding
from .files import fitting_path
from .html import Limits, PageError
from .inputs import is_warc
from .records import extract_items
from .records import page_line as warc_line
from .render import Form

__all__ = ["extract_warc", "is_warc", "read_warc", "warc_line", "warc_output"]

log = logging.getLogger("blockclf")

_HTML_TYPES = ("text/html", "application/xhtml+xml")
_CHARSET = re.compile(r"charset\s*=\s*[\"']?([\w.:-]+)", re.IGNORECASE)
_GZIP_MAGIC = b"\x1f\x8b"


def _require_warcio() -> Any:
    try:
        from warcio.archiveiterator import ArchiveIterator
    except ImportError:
        raise ValueError("reading WARC files needs warcio: pip install 'blockclf[warc]'") from None
    return ArchiveIterator


@contextlib.contextmanager
def _quiet(lines: list[str]) -> Iterator[None]:
    """Collect what warcio writes to stderr (decompression errors, bad record lines) into ``lines``.

    Used only around warcio's own calls, never across a ``yield`` to the caller, so nothing
    else's stderr is caught.
    """
    buf = io.StringIO()
    try:
        with contextlib.redirect_stderr(buf):
            yield
    finally:
        lines += [line.strip() for line in buf.getvalue().splitlines() if line.strip()]


def _damage(damage: dict[str, PageError] | None, name: str, reason: str, message: str) -> None:
    if damage is not None:
        damage.setdefault(name, PageError(reason, message))
    else:
        log.warning("skipped %s: %s", name, message)


@dataclass
class _Reading:
    """Where the reading of one WARC file has got to, across its restarts at gzip members."""

    path: Path
    fh: Any
    size: int
    gzipped: bool
    damage: dict[str, PageError] | None
    noise: list[str] = field(default_factory=list)  # what warcio wrote to stderr, not yet reported
    end: int = 0  # where the last complete record ended
    n_records: int = 0


def read_warc(path: str | Path, site: str | None = None, max_bytes: int | None = None,
              damage: dict[str, PageError] | None = None) -> Iterator[Item]:
    """Yield one `Item` per HTML response record, named and keyed by its target URL.

    A record's content is decoded (chunked transfer, ``Content-Encoding``) up to ``max_bytes``
    (default `Limits.max_bytes`) and no further: a record over it is not read. Records that
    cannot be read, and damage to the file itself, are not yielded: each goes into ``damage``
    (name → `PageError`, or is logged without it) with reason ``warc-truncated`` (the file
    ends inside a record), ``warc-corrupt`` (unreadable gzip member or record headers, or not
    a WARC file at all) or ``too-large``. In a gzipped WARC, reading resumes at the next gzip
    member after a damaged one, so one damaged record costs only itself.
    """
    archive_iterator = _require_warcio()
    max_bytes = max_bytes or Limits().max_bytes
    path = Path(path)
    with open(path, "rb") as fh:
        size = os.fstat(fh.fileno()).st_size
        state = _Reading(path, fh, size, fh.read(2) == _GZIP_MAGIC, damage)
        resume: int | None = 0
        last = -1
        while resume is not None:
            if resume <= last:  # never read the same place twice: a damaged member found again ends the file
                break
            last = resume
            fh.seek(resume)
            try:
                resume = yield from _records(state, archive_iterator, site, max_bytes)
            except Exception as exc:
                resume = _failed(state, exc)
                if resume is None:
                    return
    _check_end(state)


def _records(state: _Reading, archive_iterator: Any, site: str | None,
             max_bytes: int) -> Generator[Item, None, int | None]:
    """Yield the readable HTML records from the file's current position; return where to
    resume after a damaged gzip member, or None at the end.

    warcio's stderr is caught only around its own calls, never across a ``yield``.
    """
    noise = state.noise
    with _quiet(noise):
        archive = archive_iterator(state.fh)
        records = iter(archive)
    while True:
        with _quiet(noise):
            record = next(records, None)
            if record is None:
                return None
            item = _item(record, site, max_bytes, state.damage)
            archive.read_to_end()
            offset = archive.get_record_offset()
            state.end = offset + archive.get_record_length()
        state.n_records += 1
        if getattr(record.raw_stream, "limit", 0) and not noise:  # the file ended inside the record
            url = record.rec_headers.get_header("WARC-Target-URI") or f"{state.path.name} record {state.n_records}"
            _damage(state.damage, url, "warc-truncated",
                    f"record {state.n_records} of {state.path.name} is cut short by the end of the file")
            continue
        if not record.rec_type:  # the headers were damaged: the record's kind and URL are unknown
            noise.append("its WARC headers name no record type")
        if noise:
            resume = _skip_damaged(state, item, offset)
            if resume is not None:
                return resume
            continue
        if item is not None:
            yield item


def _skip_damaged(state: _Reading, item: Item | None, offset: int) -> int | None:
    """Report a record warcio complained about; the next gzip member to resume at, if any."""
    where = item.name if item is not None else f"{state.path.name} record {state.n_records}"
    _damage(state.damage, where, "warc-corrupt", f"record {state.n_records} of {state.path.name} is damaged "
            f"({state.noise[0]})")
    state.noise.clear()
    resume = _next_member(state.fh, offset + 1, state.size) if state.gzipped else None
    if resume is not None:
        state.end = resume
    return resume


def _failed(state: _Reading, exc: Exception) -> int | None:
    """Report an error warcio raised mid-file; the next gzip member to resume at, or None to stop."""
    path, end, n_records = state.path, state.end, state.n_records
    # warcio says ArchiveLoadFailed on bytes that are not a record; other errors come from a file cut short
    cut = type(exc).__name__ != "ArchiveLoadFailed"
    what = ("ends inside a record" if cut else "is not a WARC file" if n_records == 0 and end == 0
            else "is damaged")
    resume = _next_member(state.fh, end + 1, state.size) if state.gzipped and not cut else None
    _damage(state.damage, f"{path} @{end}", "warc-truncated" if cut else "warc-corrupt",
            f"{path.name} {what} (after record {n_records}, offset {end}): {type(exc).__name__}: "
            f"{str(exc).splitlines()[0][:120] if str(exc) else ''}; "
            + (f"reading resumes at offset {resume}" if resume is not None else "the rest is not read"))
    state.noise.clear()
    if resume is not None:
        state.end = resume
    return resume


def _check_end(state: _Reading) -> None:
    """Report damage after the last record: warcio's complaints, or bytes no record took."""
    path, end, n_records, size = state.path, state.end, state.n_records, state.size
    if state.noise:
        _damage(state.damage, f"{path} @{end}", "warc-corrupt", f"{path.name} is damaged after record {n_records} "
                f"(offset {end}: {state.noise[0]}); the rest is not read")
    elif size - end > 4 or (size and not n_records):  # more than the blank lines that close a record
        _damage(state.damage, f"{path} @{end}", "warc-truncated", f"{path.name} ends inside a record: {size - end} "
                f"bytes after the last complete record (offset {end}, record {n_records}) could not be read")


def _next_member(fh: Any, start: int, size: int) -> int | None:
    """The offset of the next gzip member header at or after ``start``, or None."""
    header = _GZIP_MAGIC + b"\x08"
    pos = start
    while pos < size:
        fh.seek(pos)
        chunk = fh.read(1 << 20)
        if len(chunk) < len(header):  # the end of the file: too short to hold a header
            return None
        found = chunk.find(header)
        if found >= 0:
            return pos + found
        pos += len(chunk) - len(header) + 1  # the next read overlaps this one by a header less a byte
    return None


def _item(record: Any, site: str | None, max_bytes: int, damage: dict[str, PageError] | None) -> Item | None:
    """The batch item of one WARC record, or None for a record that is not an HTML page or cannot be read."""
    if record.rec_type != "response" or record.http_headers is None:
        return None
    status = record.http_headers.get_statuscode() or ""
    ctype = (record.http_headers.get_header("Content-Type") or "").lower()
    if not status.startswith("2") or not ctype.startswith(_HTML_TYPES):
        return None
    url = record.rec_headers.get_header("WARC-Target-URI")
    if not url:
        return None
    data = record.content_stream().read(max_bytes + 1)
    if len(data) > max_bytes:
        _damage(damage, url, "too-large", f"record decodes to over {max_bytes} bytes, the limit")
        return None
    charset = _CHARSET.search(ctype)
    # the header's charset, when it names an encoding of the web (as browsers read it)
    return Item(name=url, source=data, url=url, site=site,
                encoding=web_encoding(charset.group(1)) if charset else None)


def _stem(path: Path) -> str:
    name = path.name
    for suffix in (".warc.gz", ".warc"):
        if name.lower().endswith(suffix):
            return name[: -len(suffix)]
    return name


def warc_output(path: str | Path, output: str | Path) -> Path:
    """The JSONL file `extract_warc` writes for the WARC ``path`` into the folder ``output``."""
    return fitting_path(Path(output) / f"{_stem(Path(path))}.jsonl")


def extract_warc(path: str | Path, output: str | Path | None, opts: BatchOptions, form: Form | str = "text",
                 jobs: int = 1, progress: bool = False, site: str | None = None, with_log: bool = False,
                 outcomes: Callable[[Iterable[Outcome]], Iterable[tuple[str, str]]] | None = None,
                 resume: bool = False, on_resumed: Callable[[int], None] | None = None) -> Path | None:
    """Extract every HTML response of a WARC into ``output/<name>.jsonl`` (stdout without output).

    ``outcomes`` filters the batch's outcomes into ``(name, line)`` pairs (the command line
    uses it to report skipped records and write the removal log); by default failed records
    are logged and skipped. Damaged records, and damage to the file, come after the records
    as failed outcomes (reasons ``warc-truncated``, ``warc-corrupt``, ``too-large``), so they
    are named and counted like any skipped page. The JSONL file appears when it is complete,
    and a run stopped halfway is continued with ``resume`` (`blockclf.records.extract_items`;
    `blockclf.files.OutputError` when it cannot be written). Returns the JSONL path written, if
    any. ``form``: how each record's page is written (`blockclf.render.Form`: its format,
    images, headline and block records), or a format's name.
    """
    path = Path(path)
    _require_warcio()
    return extract_items(lambda damage: read_warc(path, site, max_bytes=opts.limits.max_bytes, damage=damage),
                         warc_output(path, output) if output is not None else None, opts, form, jobs=jobs,
                         progress=progress, with_log=with_log, outcomes=outcomes, key="url", resume=resume,
                         on_resumed=on_resumed)
