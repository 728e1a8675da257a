"""A page's bytes, read within bounds: files, gzip, and input that is no page at all.

Every way a page can be unusable ends in a `PageError` with a short ``reason`` code, raised
here for what reading alone shows (``not-a-file``, ``too-large``, ``bad-gzip``, ``binary``)
and by `blockclf.html` for what decoding and parsing show. `Limits` holds the per-page budgets
both honour. A file is read without blocking and never past ``max_bytes + 1`` bytes whatever
it claims, gzip data is inflated only that far, and media, archives and executables are
refused by their first bytes before any decoder sees them.
"""

from __future__ import annotations

import logging
import os
import stat
import zlib
from dataclasses import dataclass
from pathlib import Path

from .encoding import BOMS, looks_utf16

__all__ = ["GZIP_MAGIC", "Limits", "PageError", "Source", "check_binary", "gunzip", "gunzip_bounded",
           "read_file_source", "read_source"]

log = logging.getLogger("blockclf")

#: what a page can be read from: its bytes, its markup as text, or the path of its file
Source = bytes | str | Path

_MAGIC = (
    (b"%PDF", "a PDF document"),
    (b"\x89PNG", "a PNG image"),
    (b"\xff\xd8\xff", "a JPEG image"),
    (b"GIF8", "a GIF image"),
    (b"PK\x03\x04", "a ZIP archive"),
    (b"RIFF", "a RIFF media file"),
    (b"\x00\x00\x01\x00", "an icon"),
    (b"WEBP", "a WebP image"),
    (b"\x7fELF", "an executable"),
    (b"\x80\x04\x95", "a Python pickle"),
    (b"\x80\x05\x95", "a Python pickle"),
)
GZIP_MAGIC = b"\x1f\x8b"
#: the input given to zlib at a time when a damaged member is read up to its damage
_SALVAGE_PIECE = 4096
# control bytes other than tab, newline, form feed, carriage return and escape
_CONTROL = bytes(b for b in range(32) if b not in (9, 10, 12, 13, 27))
class PageError(ValueError):
    """A page that cannot be turned into blocks; ``reason`` is a short machine-readable code."""

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason

    def __reduce__(self) -> tuple[type, tuple[str, str]]:  # survives pickling to worker processes
        return PageError, (self.reason, str(self))


@dataclass(frozen=True)
class Limits:
    """Per-page resource guards.

    ``max_bytes`` bounds the input (compressed and decompressed) and ``max_nodes`` the
    elements of the parsed tree: a page over either is refused with a `PageError`. The
    elements bound a page's memory: 99,000 paragraphs, each its own block, peak at 560 MB
    in a whole ``blockclf extract`` run (390,000 took 2 GB); the most elements on any of the
    benchmark's 6,977 pages is 24,126.
    ``max_depth`` bounds nesting: deeper elements are read as plain text of the element at
    the limit and the page is flagged (``too-deep``), so no text is lost. ``max_seconds``
    bounds the time from the start of `parse` to the end of segmentation (checked as the
    tree is walked); ``None`` means no time limit. ``max_attributes`` bounds the attributes
    of one tag, counted by a byte scan before parsing: libxml2's time grows faster than the
    square of the distinct attribute names on one element (10,000 take 0.4 s, 40,000 take
    20 s, 500,000 would take hours), and parsing cannot be interrupted, so a page over it is
    refused (``too-many-attributes``) before the parser sees it. The most on one tag over the
    benchmark's 6,977 pages is 1,682 (an SVG path whose quotes were escaped). The same scan
    refuses (``timeout``) a page whose many-attributed tags would take longer than
    ``max_seconds`` to parse and read.

    A value of the wrong type raises `TypeError`, one below 1 (or a time not above 0)
    `ValueError`, both naming the field.
    """

    max_bytes: int = 16 * 1024 * 1024
    max_nodes: int = 100_000
    max_depth: int = 250
    max_seconds: float | None = 30.0
    max_attributes: int = 10_000

    def __post_init__(self) -> None:
        for name in ("max_bytes", "max_nodes", "max_depth", "max_attributes"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int):
                raise TypeError(f"Limits.{name} must be an int, not {type(value).__name__}")
            if value < 1:
                raise ValueError(f"Limits.{name} must be at least 1, got {value}")
        if self.max_seconds is not None:
            if isinstance(self.max_seconds, bool) or not isinstance(self.max_seconds, (int, float)):
                raise TypeError(f"Limits.max_seconds must be a number or None, not {type(self.max_seconds).__name__}")
            if not self.max_seconds > 0:
                raise ValueError(f"Limits.max_seconds must be above 0 (or None for no limit), got {self.max_seconds}")


def _salvaged(data: bytes, limit: int) -> bytes:
    """What one damaged gzip member gives before its damage, up to ``limit`` bytes: zlib gives
    nothing of a call that meets an error, so the member is given in small pieces, and first
    without its 8-byte trailer (a wrong checksum or length spoils nothing before it)."""
    d = zlib.decompressobj(wbits=31)
    try:
        return d.decompress(data[:-8], limit)
    except zlib.error:
        pass
    d = zlib.decompressobj(wbits=31)
    parts: list[bytes] = []
    size = 0
    for at in range(0, len(data), _SALVAGE_PIECE):
        try:
            part = d.decompress(data[at:at + _SALVAGE_PIECE], limit - size)
        except zlib.error:
            break
        parts.append(part)
        size += len(part)
        if size >= limit or d.eof:
            break
    return b"".join(parts)


def gunzip(raw: bytes, name: str, max_bytes: int, warnings: list[str]) -> bytes:
    """Decompress at most ``max_bytes`` (a gzip bomb is refused, not inflated).

    Every member is read: gzip data may be several members one after the other (files
    joined with ``cat``, a writer that flushes in members), which ``gunzip`` reads as one
    file; reading the first alone lost the rest of the page without a word. Bytes after the
    last member that are not gzip data (padding) are left, as ``gunzip`` leaves them. Data
    cut short or damaged gives what comes before the cut or the damage, flagged
    ``truncated-gzip``: a wrong checksum refused a page whose every byte was there.
    """
    parts: list[bytes] = []
    size = 0
    rest = raw
    damage = ""
    while True:
        d = zlib.decompressobj(wbits=31)
        try:
            out = d.decompress(rest, max_bytes + 1 - size)
        except zlib.error as exc:
            out, damage = _salvaged(rest, max_bytes + 1 - size), str(exc)
        parts.append(out)
        size += len(out)
        if size > max_bytes:
            raise PageError("too-large", f"{name}: decompresses to over {max_bytes} bytes, the limit")
        if damage or not d.eof or not d.unused_data.startswith(GZIP_MAGIC):
            break
        rest = d.unused_data
    data = b"".join(parts)
    if damage or not d.eof:
        if not data.strip():
            if damage and len(parts) == 1:
                raise PageError("bad-gzip", f"{name}: not a readable gzip file ({damage})")
            raise PageError("bad-gzip", f"{name}: gzip data is truncated before any content")
        warnings.append("truncated-gzip")
        what = f"damaged ({damage})" if damage else "truncated"
        log.warning("%s: gzip data is %s; reading the %d bytes before the cut", name, what, len(data))
    return data


def _read_file(path: Path, max_bytes: int) -> bytes:
    """At most ``max_bytes`` of a regular file; anything else (FIFO, device, socket) is refused unread.

    The file is opened without blocking (a FIFO with no writer would wait forever) and
    checked on the open descriptor, so a file swapped for a FIFO after a directory listing
    is caught too. Reading stops after ``max_bytes + 1`` bytes whatever the file claims.
    """
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    with os.fdopen(fd, "rb") as fh:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise PageError("not-a-file", f"{path.name}: not a regular file (a FIFO, device or socket): not read")
        if st.st_size > max_bytes:
            raise PageError("too-large", f"{path.name}: file has {st.st_size} bytes, over the limit of {max_bytes}")
        raw = fh.read(max_bytes + 1)
    if len(raw) > max_bytes:
        raise PageError("too-large", f"{path.name}: file has over {max_bytes} bytes, the limit")
    return raw


def read_file_source(path: Path, max_bytes: int, warnings: list[str]) -> bytes:
    """A page file's bytes, un-gzipped when they are gzip data; what was odd about them (a
    truncated gzip stream, a ``.gz`` name on plain bytes) is added to ``warnings``."""
    raw = _read_file(path, max_bytes)
    if raw[:2] == GZIP_MAGIC:
        return gunzip(raw, path.name, max_bytes, warnings)
    if path.suffix == ".gz":
        warnings.append("not-gzip")
        log.warning("%s: named .gz but not gzip data; reading it as is", path.name)
    return raw


def gunzip_bounded(raw: bytes, name: str, max_bytes: int) -> bytes:
    """Decompress gzip ``raw`` to at most ``max_bytes``.

    Raises `PageError` ``too-large`` beyond it, ``bad-gzip`` if it cannot be read."""
    return gunzip(raw, name, max_bytes, [])


def read_source(path: str | Path, max_bytes: int | None = None) -> bytes:
    """Read a page's bytes from a file, transparently un-gzipping gzip data.

    At most ``max_bytes`` (default `Limits.max_bytes`) are read or decompressed; a truncated
    gzip file gives the bytes before the cut, a ``.gz`` file that is not gzip its raw bytes.
    Raises `PageError` (``not-a-file``, ``too-large``, ``bad-gzip``) or `OSError`. Every
    command that reads pages from files reads them through here or `parse`.
    """
    return read_file_source(Path(path), max_bytes or Limits().max_bytes, [])


def check_binary(data: bytes) -> None:
    """Refuse media, archives and random bytes; a few NUL bytes in a text page are tolerated."""
    stripped = data[:64].lstrip()
    for magic, what in _MAGIC:
        if stripped.startswith(magic) or (magic == b"WEBP" and data[8:12] == magic):
            raise PageError("binary", f"input is {what}, not HTML")
    if any(data.startswith(bom) for bom, _ in BOMS) or looks_utf16(data):
        return
    head = data[:8192]
    controls = len(head) - len(head.translate(None, _CONTROL))
    if controls > 0.05 * len(head):
        raise PageError("binary", f"input is binary data ({controls} control bytes in the first {len(head)}), not HTML")
