"""WARC input: the HTML responses of a crawl, extracted as one JSONL file keyed by record URL.

Crawls arrive as WARC files rather than folders of pages. Reading them needs ``warcio``
(install the ``warc`` extra). Only ``response`` records with a 2xx status and an HTML
content type are read; their HTTP ``charset`` is tried before the page's own declaration.
The records go through the streaming batch (`blockclf.batch`) like files do, so the pages
of one site inside the WARC are each other's site evidence; the WARC is read once per pass
and never held in memory.
"""

from __future__ import annotations

import gzip
import io
import logging
import os
import re
import zlib
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
from .warcbody import decoded, http_headers, looks_like_html, not_page, quiet, sniffed, words

__all__ = ["extract_warc", "is_warc", "read_warc", "warc_line", "warc_output"]

log = logging.getLogger("blockclf")

_CHARSET = re.compile(r"charset\s*=\s*[\"']?([\w.:-]+)", re.IGNORECASE)
_GZIP_MAGIC = b"\x1f\x8b"
_MEMBER = _GZIP_MAGIC + b"\x08"  # how a gzip member begins (deflate is gzip's one method)
_RECORD_LINE = b"\nWARC/1."  # a line that begins a WARC record, with the end of the line before it


def _require_warcio() -> Any:
    try:
        from warcio.archiveiterator import ArchiveIterator
    except ImportError:
        raise ValueError("reading WARC files needs warcio: pip install 'blockclf[warc]'") from None
    return ArchiveIterator


def _damage(damage: dict[str, PageError] | None, name: str, reason: str, message: str) -> None:
    if damage is not None:
        damage.setdefault(name, PageError(reason, message))
    else:
        log.warning("skipped %s: %s", name, message)


class _Tail(io.RawIOBase):
    """A file from ``start`` on, as a file of its own: a gzip stream that begins there is read from it."""

    def __init__(self, fh: Any, start: int) -> None:
        super().__init__()
        self._fh, self._start = fh, start

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        data = self._fh.read(len(buffer))
        buffer[: len(data)] = data
        return len(data)

    def seek(self, offset: int, whence: int = io.SEEK_SET) -> int:
        return self._fh.seek(offset + self._start if whence == io.SEEK_SET else offset, whence) - self._start

    def tell(self) -> int:
        return self._fh.tell() - self._start


class _Gunzipped:
    """The decompressed content of the gzip data from ``start`` on in ``fh``: what a WARC gzipped
    whole is read from. The content ends early where the gzip data is cut short or followed by
    bytes that are not gzip, and ``cut`` says which (a plain read would lose what came before)."""

    def __init__(self, fh: Any, start: int) -> None:
        fh.seek(start)
        self._gz = gzip.GzipFile(fileobj=_Tail(fh, start), mode="rb")
        self.cut = ""  # what ends the content early, in words
        self._error: Exception | None = None  # damage met after some content: raised at the next read

    def read(self, size: int = -1) -> bytes:
        if self._error is not None:
            error, self._error = self._error, None
            raise error
        parts: list[bytes] = []
        left = size if size >= 0 else 1 << 62
        while left > 0:
            try:
                part = self._gz.read1(min(left, 1 << 16))
            except EOFError:  # the gzip data ends before its end marker
                self.cut = "is cut short: its gzip data ends early"
                break
            except (OSError, zlib.error) as exc:
                if str(exc).startswith("Not a gzipped file"):  # after the last member
                    self.cut = "ends with bytes that are not gzip data"
                    break
                if not parts:
                    raise
                self._error = exc
                break
            if not part:
                break
            parts.append(part)
            left -= len(part)
        return b"".join(parts)

    def seek(self, offset: int, whence: int = io.SEEK_SET) -> int:
        self._error = None
        return self._gz.seek(offset, whence)

    def tell(self) -> int:
        return self._gz.tell()


@dataclass
class _Reading:
    """Where the reading of one WARC file has got to, across its restarts after damage."""

    path: Path
    fh: Any
    size: int
    gzipped: bool  # one gzip member a record: offsets are the file's, and reading resumes at a member
    damage: dict[str, PageError] | None
    not_pages: dict[int, str] | None = None  # record number → why it is not read as a page
    stream: Any = None  # what warcio reads: the file, or the decompressed rest of a WARC gzipped as a whole
    noise: list[str] = field(default_factory=list)  # what warcio wrote to stderr, not yet reported
    end: int = 0  # where the last complete record ended, in ``stream``
    n_records: int = 0  # the records met, read or lost
    last: int = -1  # where reading last started in ``stream``: it never starts twice at one place
    ended: bool = False  # what ends the file is reported: nothing after it could be read


def read_warc(path: str | Path, site: str | None = None, max_bytes: int | None = None,
              damage: dict[str, PageError] | None = None, not_pages: dict[int, str] | None = None) -> Iterator[Item]:
    """Yield one `Item` per HTML page a record holds, named and keyed by its target URL: a
    response of status 2xx and an HTML type, or of no type and a body that begins as HTML, or
    a resource record of an HTML type. The other responses, and revisits, go into ``not_pages``
    (record number → why, `warcbody.not_page`: "status 404", "image/png", "revisit"), the
    same on every reading; requests, metadata and the like are not counted.

    A record's content is decoded (chunked transfer, ``Content-Encoding``) up to ``max_bytes``
    (default `Limits.max_bytes`) and no further: a record over it is not read. Records that
    cannot be read, and damage to the file itself, are not yielded: each goes into ``damage``
    (name → `PageError`, or is logged without it) with reason ``warc-truncated`` (the file
    ends inside a record), ``warc-corrupt`` (a damaged gzip member, record headers or body, a
    wrong Content-Length, or not a WARC file at all), ``too-large``, ``needs-brotli`` or
    ``needs-zstandard`` (a body compressed with brotli or Zstandard, without the package that
    reads it) or ``unreadable`` (the file cannot be
    read). A damaged record costs only itself: reading resumes at the next gzip member that
    holds a record, or in an uncompressed WARC at the next line that begins one. A WARC gzipped
    as a whole rather than a record at a time is read as it decompresses.
    """
    archive_iterator = _require_warcio()
    max_bytes = max_bytes or Limits().max_bytes
    path = Path(path)
    try:
        fh = open(path, "rb")  # noqa: SIM115 -- closed below, and a failure to open is the file's, not the output's
    except OSError as exc:
        _damage(damage, str(path), "unreadable", f"{path.name} cannot be read: {exc.strerror or exc}")
        return
    with fh:
        state = _Reading(path, fh, os.fstat(fh.fileno()).st_size, fh.read(2) == _GZIP_MAGIC, damage, not_pages,
                         stream=fh)
        resume: int | None = 0
        while resume is not None and resume > state.last:
            state.last = at = resume
            try:
                state.stream.seek(at)
                resume = yield from _records(state, archive_iterator, site, max_bytes)
            except Exception as exc:  # the file cannot be read on from here
                _stop(state, at, exc)
                resume = None
        _check_end(state)


def _records(state: _Reading, archive_iterator: Any, site: str | None,
             max_bytes: int) -> Generator[Item, None, int | None]:
    """Yield the readable HTML records from the stream's current position; return where to
    resume after a damaged record, or None at the end of the file.

    warcio's stderr is caught only around its own calls, never across a ``yield``.
    """
    noise = state.noise
    with quiet(noise):
        archive = archive_iterator(state.stream)
        records = iter(archive)
    while True:
        start = archive.offset  # where the next record begins
        try:
            with quiet(noise):
                record = next(records, None)
                if record is None:
                    break
                headers = http_headers(record)
                passed = not_page(record, headers)
                raw = record.raw_stream.read(max_bytes + 1) if passed is None else None
                archive.read_to_end()
        except Exception as exc:  # what warcio complained of first is the cause
            why = ("warc-corrupt", f"is damaged: {_noise_words(noise[0])}") if noise else _failure(state, exc, start)
            return _lost(state, start, why)
        if state.gzipped and archive.next_line and not noise:  # the gzip member goes on past the record
            return _read_as_one_stream(state, start)
        cut = getattr(record.raw_stream, "limit", 0) > 0  # the record ends before its Content-Length
        if noise or cut or not record.rec_type:
            return _lost(state, start, _flaw(state, record), record)
        state.n_records += 1
        state.end = archive.get_record_offset() + archive.get_record_length()
        if passed and state.not_pages is not None:
            state.not_pages[state.n_records] = passed
        item = _item(state, record, headers, raw, site, max_bytes) if raw is not None else None
        if item is not None:
            yield item
    return _lost(state, start, ("warc-corrupt", f"is damaged: {_noise_words(noise[0])}")) if noise else None


def _lost(state: _Reading, start: int, why: tuple[str, str], record: Any = None) -> int | None:
    """Report the record at ``start`` as lost (``why``: its reason, and what is wrong with it in
    words); return where the next record begins, or None when none does."""
    state.noise.clear()
    reason, words = why
    resume = None if state.ended else _after(state, start)
    if resume is None and state.stream is state.fh and state.size - start <= 4:
        return None  # the blank lines or the few stray bytes that may end a file: `_check_end` judges them
    if reason == "warc-truncated" and resume is not None:  # not the end of the file: the record's length is wrong
        reason, words = "warc-corrupt", "is damaged: its content ends before its Content-Length says"
    state.n_records += 1
    url = record.rec_headers.get_header("WARC-Target-URI") if record is not None else None
    name, file = url or f"{state.path.name} record {state.n_records}", state.path.name
    if reason == "warc-corrupt" and record is None and start == 0 and state.n_records == 1 and not state.ended \
            and resume is None:
        name, message = f"{state.path} @0", (f"{file} is not a WARC file, or its first gzip member is damaged: it does "
                                             "not decompress to a WARC record" if state.gzipped else
                                             f"{file} is not a WARC file (it does not begin with a WARC record)")
    else:
        message = f"record {state.n_records} of {file} (offset {start}) {words}"
        if resume is not None:
            message += f"; reading goes on at offset {resume}"
        elif reason != "warc-truncated":
            message += "; the rest is not read" if state.ended else "; no record follows it"
    _damage(state.damage, name, reason, message)
    if resume is None:
        state.ended = True
    else:
        state.end = resume
    return resume


def _flaw(state: _Reading, record: Any) -> tuple[str, str]:
    """The reason and the words for a record warcio complained about, or that ends before its length."""
    length = record.rec_headers.get_header("Content-Length")
    if not record.rec_type:
        return "warc-corrupt", "is damaged: its WARC headers name no record type"
    if state.noise and "Content-Length" not in state.noise[0]:  # a damaged gzip member, most often
        return "warc-corrupt", f"is damaged: {_noise_words(state.noise[0])}"
    if length is None or not (length.strip().isascii() and length.strip().isdigit()):
        return "warc-corrupt", f"is damaged: its Content-Length ({words(length or 'none', 30)}) is not a length"
    if state.noise:  # warcio found no blank line where the record ends
        return "warc-corrupt", f"is damaged: its Content-Length ({length.strip()}) does not match its content"
    return "warc-truncated", "is cut short by the end of the file"


def _noise_words(line: str) -> str:
    """What is wrong, in words, from a line warcio wrote to stderr."""
    if "decompressing" in line:  # zlib, on a damaged gzip member
        return f"its gzip member is damaged ({words(line)})"
    return words(line)


def _after(state: _Reading, start: int) -> int | None:
    """Where the first record after ``start`` begins: the next gzip member that holds one in a WARC
    gzipped a record at a time, else the next line that begins one; None when no record follows."""
    try:
        if state.gzipped:
            return _next_member(state.stream, start + 1)
        found = _find(state.stream, _RECORD_LINE, start)
        while found is not None and not _record_head(state.stream, found + 1):
            found = _find(state.stream, _RECORD_LINE, found + 1)  # a line of a body that names a version
        return found + 1 if found is not None else None
    except (OSError, EOFError, zlib.error):  # the rest cannot be read: no record can be found in it
        return None


#: a record's first line and the header lines after it, up to the blank line that ends them
_HEAD = re.compile(rb"WARC/1\.[01]\r?\n(?:[!-9;-~]+:[^\r\n]*\r?\n(?:[ \t][^\r\n]*\r?\n)*)+\r?\n")
_TYPE_LINE = re.compile(rb"^WARC-Type:", re.IGNORECASE | re.MULTILINE)


def _record_head(fh: Any, at: int) -> bool:
    """Whether a record begins at ``at``: its version line, then header lines ("Name: value")
    naming its type, up to a blank line. A damaged record's body may hold a line that begins
    "WARC/1." (a page about the format, a log); reading on from it reported a record that
    was never there."""
    fh.seek(at)
    head = _HEAD.match(fh.read(1 << 16))
    return head is not None and _TYPE_LINE.search(head.group()) is not None


def _find(fh: Any, needle: bytes, start: int) -> int | None:
    """The offset of the first ``needle`` at or after ``start`` in ``fh``, or None."""
    pos = max(start, 0)
    while True:
        fh.seek(pos)
        chunk = fh.read(1 << 20)
        if len(chunk) < len(needle):  # the end of the file: too short to hold it
            return None
        found = chunk.find(needle)
        if found >= 0:
            return pos + found
        pos += len(chunk) - len(needle) + 1  # the next read overlaps this one by the needle less a byte


def _next_member(fh: Any, start: int) -> int | None:
    """The offset of the next gzip member at or after ``start`` whose content begins a WARC record, or None.

    The bytes of a member header can turn up inside compressed data: a candidate counts only
    when it decompresses to a record's first line.
    """
    pos = _find(fh, _MEMBER, start)
    while pos is not None:
        fh.seek(pos)
        try:
            head = zlib.decompressobj(16 + zlib.MAX_WBITS).decompress(fh.read(1 << 16), 8)
        except zlib.error:
            head = b""
        if head.startswith(b"WARC/"):
            return pos
        pos = _find(fh, _MEMBER, pos + 1)
    return None


def _read_as_one_stream(state: _Reading, start: int) -> int:
    """Read on from the gzip member at ``start`` as one decompressed stream: it holds more than
    one record, as a WARC gzipped whole does (valid, if unusual: such a file cannot be read a
    record at a time). Returns where reading starts in that stream."""
    state.stream = _Gunzipped(state.fh, start)
    state.gzipped, state.last, state.end = False, -1, 0
    return 0


def _stop(state: _Reading, start: int, exc: Exception) -> None:
    """Report that the file cannot be read on from ``start``, for ``exc``."""
    reason, words = _failure(state, exc, start)
    _damage(state.damage, f"{state.path} @{start}", reason, f"{state.path.name} cannot be read on at offset "
            f"{start}, after record {state.n_records}: what follows {words}; the rest is not read")
    state.ended = True


def _failure(state: _Reading, exc: Exception, start: int) -> tuple[str, str]:
    """The reason and the words for an error (``exc``) reading the record at ``start``."""
    if type(exc).__name__ == "ArchiveLoadFailed":  # warcio: bytes that do not begin a record
        return "warc-corrupt", "is damaged: its WARC headers cannot be read"
    if isinstance(exc, (OverflowError, MemoryError)):
        return "warc-corrupt", "is damaged: its headers give a length too large to read"
    if state.stream is not state.fh and isinstance(exc, (EOFError, OSError, zlib.error)):
        state.ended = True
        if isinstance(exc, EOFError):
            return "warc-truncated", "is cut short: the file's gzip data ends early"
        detail = re.sub(r"\s*\(b['\"].*\)$", "", str(exc))  # not the bytes found, which may be binary
        return "warc-corrupt", f"is damaged: the file's gzip data is damaged ({words(detail)})"
    if isinstance(exc, OSError):
        state.ended = True
        return "unreadable", f"cannot be read ({exc.strerror or words(str(exc))})"
    if not _has_blank_line(state.stream, start):  # its headers run to the end of the file
        return "warc-truncated", "is cut short by the end of the file"
    bug = isinstance(exc, (AttributeError, TypeError, KeyError, IndexError))  # says nothing of the file
    return "warc-corrupt", "is damaged: its headers cannot be parsed" + ("" if bug else f" ({words(str(exc))})")


def _has_blank_line(stream: Any, start: int) -> bool:
    """Whether a blank line, such as ends a record's headers, comes after ``start``."""
    try:
        return _find(stream, b"\n\r\n", start) is not None or _find(stream, b"\n\n", start) is not None
    except (OSError, EOFError, zlib.error):
        return False


def _check_end(state: _Reading) -> None:
    """Report bytes after the last record that no record took, beyond the blank lines that may close one."""
    if state.ended:
        return
    path, end, n_records = state.path, state.end, state.n_records
    try:  # a WARC gzipped whole: what its stream holds past the end, blank lines aside
        left = state.size - end if state.stream is state.fh else len(_rest(state.stream, end).strip())
    except (OSError, EOFError, zlib.error) as exc:
        _stop(state, end, exc)
        return
    cut = getattr(state.stream, "cut", "")
    if cut:
        _damage(state.damage, f"{path} @{end}", "warc-truncated" if "short" in cut else "warc-corrupt",
                f"{path.name} {cut}, after record {n_records}; what follows it is not read")
    elif left > 4 or (state.size and not n_records):
        _damage(state.damage, f"{path} @{end}", "warc-truncated", f"{path.name} ends inside a record: what follows "
                f"the last complete record (record {n_records}, offset {end}) could not be read")


def _rest(stream: Any, end: int) -> bytes:
    """The first bytes of ``stream`` from ``end`` on."""
    stream.seek(end)
    return bytes(stream.read(1 << 16))


def _item(state: _Reading, record: Any, headers: Any, raw: bytes, site: str | None, max_bytes: int) -> Item | None:
    """The batch item of an HTML page record whose body is ``raw``, or None (reported) when it cannot be
    read or, naming no type, does not begin as HTML."""
    url = record.rec_headers.get_header("WARC-Target-URI")
    try:
        if not url:
            raise PageError("warc-corrupt", "is an HTML page that names no target URI")
        if len(raw) > max_bytes:
            raise PageError("too-large", f"holds over {max_bytes} bytes, the limit")
        data = decoded(headers, raw, max_bytes)
        if len(data) > max_bytes:
            raise PageError("too-large", f"decodes to over {max_bytes} bytes, the limit")
    except PageError as err:
        _damage(state.damage, url or f"{state.path.name} record {state.n_records}", err.reason,
                f"record {state.n_records} of {state.path.name} {err}")
        return None
    if sniffed(record, headers) and not looks_like_html(data):
        if state.not_pages is not None:
            state.not_pages[state.n_records] = "no type, not HTML"
        return None
    charset = _CHARSET.search(((headers or record.rec_headers).get_header("Content-Type") or "").lower())
    # the header's charset, when it names an encoding of the web (as browsers read it)
    # WARC-Truncated: the crawler stored less than the server sent (a size or time limit)
    cut = ("truncated-record",) if record.rec_headers.get_header("WARC-Truncated") else ()
    return Item(name=url, source=data, url=url, site=site,
                encoding=web_encoding(charset.group(1)) if charset else None, warnings=cut)


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
                 resume: bool = False, on_resumed: Callable[[int], None] | None = None,
                 not_pages: dict[int, str] | None = None) -> Path | None:
    """Extract every HTML page of a WARC into ``output/<name>.jsonl`` (stdout without output);
    the responses that are not pages go into ``not_pages`` (`read_warc`).

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
    return extract_items(lambda damage: read_warc(path, site, max_bytes=opts.limits.max_bytes, damage=damage,
                                                  not_pages=not_pages),
                         warc_output(path, output) if output is not None else None, opts, form, jobs=jobs,
                         progress=progress, with_log=with_log, outcomes=outcomes, key="url", resume=resume,
                         on_resumed=on_resumed)
