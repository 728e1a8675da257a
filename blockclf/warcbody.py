"""An HTML response as a WARC record holds it: its HTTP status and headers, and its body with
the transfer and content encodings undone.

Apart from reading the WARC file (`blockclf.warc`): a record whose body cannot be decoded
costs only itself, as its body is in hand when it is decoded. warcio reads HTTP headers only
for http(s) target URIs and decodes brotli bodies with an interface brotli 1.2 refuses; both
are read here.
"""

from __future__ import annotations

import contextlib
import importlib
import io
import re
from collections.abc import Iterator
from typing import Any

from .html import PageError

__all__ = ["decoded", "http_headers", "looks_like_html", "not_page", "quiet", "sniffed", "words"]

_HTML_TYPES = ("text/html", "application/xhtml+xml")
#: Content-Types under which browsers read a body's first bytes to tell its type
_SNIFFED = frozenset(("", "unknown/unknown", "application/unknown", "*/*"))
_HTML_START = re.compile(rb"<(?:!doctype html|html|head|script|iframe|h1|div|font|table|a|style|title|b|body|br|p|!--)"
                         rb"[ >]", re.IGNORECASE)
_STATUS_LINE = 1 << 12  # the longest HTTP status line looked for in a record warcio did not parse


@contextlib.contextmanager
def quiet(lines: list[str]) -> Iterator[None]:
    """Collect what warcio writes to stderr (decompression errors, bad record lines) into ``lines``.

    Used only around warcio's own calls, never across a ``yield`` to the caller, so nothing
    else's stderr is caught. warcio's warning that it mended a target URI holding spaces is
    not damage, and is left out.
    """
    buf = io.StringIO()
    try:
        with contextlib.redirect_stderr(buf):
            yield
    finally:
        lines += [line.strip() for line in buf.getvalue().splitlines()
                  if line.strip() and not line.startswith("Replacing spaces in invalid WARC-Target-URI")]


def words(text: str, limit: int = 100) -> str:
    """``text`` fit for a message: its first line, control and undecodable characters as ``?``, cut to ``limit``."""
    line = text.strip().splitlines()[0] if text.strip() else ""
    line = "".join(c if c.isprintable() and c != "\ufffd" else "?" for c in line)
    return line if len(line) <= limit else line[: limit - 1] + "…"


def http_headers(record: Any) -> Any:
    """A response record's HTTP status and headers, or None when it holds no HTTP response.

    warcio reads them only for http(s) target URIs; a response to another (``urn:``, ``file:``,
    a relative or undecodable one) can hold an HTTP response too, and is read the same way.
    """
    if record.rec_type != "response" or record.http_headers is not None:
        return record.http_headers if record.rec_type == "response" else None
    from warcio.statusandheaders import StatusAndHeadersParser

    first = record.raw_stream.readline(_STATUS_LINE)
    if not first.startswith((b"HTTP/1.0 ", b"HTTP/1.1 ")):
        return None
    return StatusAndHeadersParser(["HTTP/1.0", "HTTP/1.1"], verify=False).parse(record.raw_stream, first)


def not_page(record: Any, headers: Any) -> str | None:
    """Why a record is not read as a page, in a few words ("status 404", "image/png",
    "revisit"); "" for a record that is no response at all (a request, metadata, the file's
    warcinfo), None for an HTML page or one that may be (`sniffed`).

    A response is a page when its status is 2xx and its Content-Type an HTML type, or when it
    names none (or one that says it does not know), as browsers then tell HTML by its first
    bytes. A ``resource`` record is a page when its own Content-Type is HTML.
    """
    kind = record.rec_type
    if kind == "revisit":
        return "revisit"
    if kind == "resource":
        mime = _mime(record.rec_headers.get_header("Content-Type"))
        return None if mime.startswith(_HTML_TYPES) else words(mime or "resource of no type", 40)
    if kind != "response":
        return ""
    if headers is None:
        return "no HTTP response"
    status = headers.get_statuscode() or ""
    if not status.startswith("2"):
        return f"status {words(status, 3)}"
    mime = _mime(headers.get_header("Content-Type"))
    return None if mime.startswith(_HTML_TYPES) or mime in _SNIFFED else words(mime, 40)


def sniffed(record: Any, headers: Any) -> bool:
    """Whether a page candidate's body must show it is HTML: a response naming no type, or a type
    that says it does not know (`not_page`)."""
    return record.rec_type == "response" and _mime(headers.get_header("Content-Type")) in _SNIFFED


def looks_like_html(data: bytes) -> bool:
    """Whether a body begins as browsers take for HTML when no type is given (the WHATWG MIME
    sniffing patterns: a doctype, a comment or one of 15 tags after whitespace)."""
    return _HTML_START.match(data[:512].removeprefix(b"\xef\xbb\xbf").lstrip(b"\t\n\x0c\r ")) is not None


def _mime(content_type: str | None) -> str:
    return (content_type or "").split(";")[0].strip().lower()


def decoded(headers: Any, raw: bytes, max_bytes: int) -> bytes:
    """A response body with its HTTP transfer and content encodings undone, up to ``max_bytes + 1``
    bytes (a resource record's content, with no HTTP ``headers``, as it is).

    Read as warcio reads it: a Content-Encoding it does not know is taken for none, and a body
    that does not begin as its encoding says is taken as it is. Brotli and Zstandard bodies,
    which browsers ask for and warcio does not read (or not with brotli 1.2), are decoded here.
    Raises `PageError` for a body whose encoding cannot be undone; the body is in hand, so this
    costs only its record.
    """
    from warcio.bufferedreaders import BufferedReader, ChunkedDataReader

    if headers is None:  # a resource record: its content as it was stored
        return bytes(raw[: max_bytes + 1])
    coding = (headers.get_header("Content-Encoding") or "").strip().lower()
    chunked = (headers.get_header("Transfer-Encoding") or "").strip().lower() == "chunked"
    known = coding if coding in BufferedReader.get_supported_decompressors() and coding != "br" else None
    body = io.BytesIO(raw)
    noise: list[str] = []  # warcio writes a body's decompression errors to stderr
    try:
        with quiet(noise):
            reader = (ChunkedDataReader(body, decomp_type=known) if chunked
                      else BufferedReader(body, decomp_type=known) if known else body)
            data = reader.read(max_bytes + 1)
        if coding == "br":
            data = _unbrotli(data, max_bytes)
        elif coding == "zstd":
            data = _unzstd(bytes(data), max_bytes)
    except PageError:
        raise
    except Exception as exc:
        noise.append(words(str(exc)) or "its decoder failed")
    if noise:
        raise PageError("warc-corrupt", f"is damaged: its body (Content-Encoding: {words(coding, 30)}) cannot be "
                        f"decoded ({words(noise[0])})")
    return bytes(data)


def _unbrotli(data: bytes, max_bytes: int) -> bytes:
    """Brotli-compressed ``data`` decoded, up to about ``max_bytes + 1`` bytes: enough to tell a body over the limit.

    Done here rather than by warcio, whose brotli decoding fails with brotli 1.2 (it sets an
    attribute the decompressor refuses) and is not bounded.
    """
    try:
        brotli = importlib.import_module("brotli")
    except ImportError:
        raise PageError("needs-brotli", "is compressed with brotli (Content-Encoding: br), which needs the brotli "
                        "package: pip install brotli") from None
    decompressor = brotli.Decompressor()
    try:
        return bytes(decompressor.process(data, output_buffer_limit=max_bytes + 1))
    except TypeError:  # a brotli before 1.2, which cannot bound its output
        return bytes(decompressor.process(data))


def _unzstd(data: bytes, max_bytes: int) -> bytes:
    """Zstandard-compressed ``data`` (every frame) decoded, up to ``max_bytes + 1`` bytes.

    Browsers ask for ``zstd`` besides gzip and brotli, and servers send it: a crawl that records
    what a browser got holds such bodies, which warcio passes on undecoded.
    """
    try:
        zstandard = importlib.import_module("zstandard")
    except ImportError:
        raise PageError("needs-zstandard", "is compressed with Zstandard (Content-Encoding: zstd), which needs "
                        "the zstandard package: pip install zstandard") from None
    out = bytearray()
    with zstandard.ZstdDecompressor().stream_reader(io.BytesIO(data), read_across_frames=True) as reader:
        while len(out) <= max_bytes:
            chunk = reader.read(max_bytes + 1 - len(out))
            if not chunk:
                break
            out += chunk
    return bytes(out)
