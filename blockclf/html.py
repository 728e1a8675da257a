"""Bytes, text or a path in; a decoded, parsed lxml tree out, with resource guards.

Decoding follows a fixed order so that the chosen encoding is explainable: byte-order mark,
the caller's encoding, the page's own ``<meta charset>`` declaration, strict UTF-8, then
charset-normalizer's detection. The chosen encoding is recorded on the document.
"""

from __future__ import annotations

import codecs
import gzip
import re
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Union

from lxml import etree

__all__ = ["Document", "Limits", "PageError", "decode", "parse", "read_source"]

Source = Union[bytes, str, Path]

_BOMS = (
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF32_LE, "utf-32-le"),
    (codecs.BOM_UTF32_BE, "utf-32-be"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)
_META_CHARSET = re.compile(
    rb"""<meta[^>]+charset\s*=\s*["']?\s*([a-zA-Z0-9_:.\-]+)""", re.IGNORECASE
)
_MAGIC = (
    (b"%PDF", "a PDF document"),
    (b"\x89PNG", "a PNG image"),
    (b"\xff\xd8\xff", "a JPEG image"),
    (b"GIF8", "a GIF image"),
    (b"PK\x03\x04", "a ZIP archive"),
    (b"\x1f\x8b", "gzip data"),
    (b"RIFF", "a RIFF media file"),
    (b"\x00\x00\x01\x00", "an icon"),
    (b"WEBP", "a WebP image"),
)
_LATIN1_NAMES = {"iso-8859-1", "latin-1", "latin1", "windows-1252", "cp1252", "us-ascii", "ascii"}


class PageError(ValueError):
    """A page that cannot be turned into blocks; ``reason`` is a short machine-readable code."""

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason


@dataclass(frozen=True)
class Limits:
    """Per-page resource guards. A page over a limit is refused with a `PageError`.

    ``max_bytes`` bounds the decoded input, ``max_nodes`` the elements of the parsed tree and
    ``max_depth`` its nesting; deeper subtrees are cut and the result is flagged.
    """

    max_bytes: int = 16 * 1024 * 1024
    max_nodes: int = 400_000
    max_depth: int = 250


@dataclass
class Document:
    """A parsed page: the tree and what the page says about itself."""

    root: etree._Element
    encoding: str
    title: str = ""
    url: str | None = None
    lang: str | None = None
    n_bytes: int = 0
    warnings: list[str] = field(default_factory=list)


def read_source(path: str | Path) -> bytes:
    """Read a page's bytes from a file, transparently un-gzipping ``.gz`` files."""
    p = Path(path)
    raw = p.read_bytes()
    if p.suffix == ".gz" or raw[:2] == b"\x1f\x8b":
        try:
            return gzip.decompress(raw)
        except (OSError, EOFError, zlib.error) as exc:
            raise PageError("bad-gzip", f"{p.name}: not a readable gzip file ({exc})") from None
    return raw


def _lookup(name: str | None) -> str | None:
    if not name:
        return None
    try:
        return codecs.lookup(name).name
    except LookupError:
        return None


def _looks_utf16(data: bytes) -> str | None:
    """UTF-16 without a BOM shows as ASCII interleaved with NULs."""
    head = data[:512]
    if len(head) < 8:
        return None
    even, odd = head[0::2], head[1::2]
    if odd.count(0) > 0.8 * len(odd) and even.count(0) < 0.2 * len(even):
        return "utf-16-le"
    if even.count(0) > 0.8 * len(even) and odd.count(0) < 0.2 * len(odd):
        return "utf-16-be"
    return None


def decode(data: bytes, encoding: str | None = None) -> tuple[str, str]:
    """Decode page bytes to text; return ``(text, encoding_used)``.

    A page that declares Latin-1 (or Windows-1252) but is valid UTF-8 with multi-byte
    characters is read as UTF-8: that mislabelling is common and the reverse is vanishingly
    rare, because Latin-1 text is almost never valid multi-byte UTF-8 by accident.
    """
    for bom, name in _BOMS:
        if data.startswith(bom):
            return data[len(bom):].decode(name, errors="replace"), name
    utf16 = _looks_utf16(data)
    if utf16:
        return data.decode(utf16, errors="replace"), utf16
    candidates: list[str] = []
    caller = _lookup(encoding)
    if caller:
        candidates.append(caller)
    match = _META_CHARSET.search(data[:4096])
    declared = _lookup(match.group(1).decode("ascii", "ignore")) if match else None
    if declared and declared not in ("utf-16", "utf-16-le", "utf-16-be", "utf-32"):
        if not caller and declared in {_lookup(n) for n in _LATIN1_NAMES}:
            try:
                text = data.decode("utf-8")
            except UnicodeDecodeError:
                pass
            else:
                if any(b > 0x7F for b in data):
                    return text, "utf-8"
        candidates.append(declared)
    candidates.append("utf-8")
    for name in candidates:
        try:
            return data.decode(name), name
        except (UnicodeDecodeError, LookupError):
            continue
    from charset_normalizer import from_bytes

    best = from_bytes(data[:200_000]).best()
    if best is not None and best.encoding:
        name = _lookup(best.encoding) or "utf-8"
        return data.decode(name, errors="replace"), name
    return data.decode("utf-8", errors="replace"), "utf-8"


def _check_binary(data: bytes) -> None:
    stripped = data.lstrip()
    for magic, what in _MAGIC:
        if stripped.startswith(magic) or (magic == b"WEBP" and data[8:12] == magic):
            raise PageError("binary", f"input is {what}, not HTML")
    head = data[:8192]
    if head.count(0) > len(head) // 100 and not _looks_utf16(data):
        raise PageError("binary", "input is binary data (NUL bytes), not HTML")


_PARSER = etree.HTMLParser(
    remove_comments=True, remove_pis=True, no_network=True, encoding="utf-8", huge_tree=False
)


def _meta(root: etree._Element) -> tuple[str, str | None, str | None]:
    title = ""
    t = root.find(".//title")
    if t is not None:
        title = " ".join("".join(t.itertext()).split())
    url = None
    for link in root.iterfind(".//link[@rel]"):
        if "canonical" in (link.get("rel") or "").lower().split() and link.get("href"):
            url = link.get("href")
            break
    if url is None:
        for meta in root.iterfind(".//meta[@property]"):
            if meta.get("property", "").lower() == "og:url" and meta.get("content"):
                url = meta.get("content")
                break
    lang = root.get("lang") if isinstance(root.tag, str) else None
    return title, url, lang


def parse(source: Source, encoding: str | None = None, limits: Limits | None = None) -> Document:
    """Parse a page given as bytes, decoded text, or a path to ``.html``/``.htm``/``.html.gz``.

    Raises `PageError` for input that is empty, binary, over the limits or not parseable.
    """
    limits = limits or Limits()
    if isinstance(source, Path):
        data: bytes | str = read_source(source)
    else:
        data = source
    if isinstance(data, bytes):
        if len(data) > limits.max_bytes:
            raise PageError("too-large", f"page has {len(data)} bytes, over the limit of {limits.max_bytes}")
        if not data.strip():
            raise PageError("empty", "page is empty")
        _check_binary(data)
        text, used = decode(data, encoding)
        n_bytes = len(data)
    else:
        text, used = data, "str"
        n_bytes = len(text)
        if n_bytes > limits.max_bytes:
            raise PageError("too-large", f"page has {n_bytes} characters, over the limit of {limits.max_bytes}")
    if not text.strip():
        raise PageError("empty", "page has only whitespace")
    if "\x00" in text:
        text = text.replace("\x00", "")
    # The parser is fed UTF-8 bytes and told so, which ignores the page's own declaration
    # (already honoured above) and XML encoding declarations that lxml refuses on str input.
    try:
        root = etree.fromstring(text.encode("utf-8", errors="replace"), _PARSER)
    except (etree.XMLSyntaxError, ValueError) as exc:
        raise PageError("unparseable", f"page could not be parsed: {exc}") from None
    if root is None:
        raise PageError("empty", "page has no elements")
    title, url, lang = _meta(root)
    return Document(root=root, encoding=used, title=title, url=url, lang=lang, n_bytes=n_bytes)
