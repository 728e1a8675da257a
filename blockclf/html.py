"""Bytes, text or a path in; a decoded, parsed lxml tree out, with resource guards.

Decoding (`blockclf.encoding.decode`, re-exported here) follows a fixed order so that the
chosen encoding is explainable; the chosen encoding is recorded on the document.

Every way a page can be unusable ends in a `PageError` whose ``reason`` is a short code
(``empty``, ``binary``, ``bad-gzip``, ``not-html``, ``too-large``, ``too-many-nodes``,
``timeout``, ``no-text``...), so a batch can skip the page, name the reason and go on. A
page that can be read only in part is returned with a warning code in
`Document.warnings` instead (``flattened-deep-nesting``, ``truncated-gzip``, ...). A file's
bytes are read within bounds by `blockclf.reading`, which also holds `PageError` and
`Limits` (both re-exported here).
"""

from __future__ import annotations

import json
import logging
import re
import time
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import islice
from pathlib import Path
from urllib.parse import urljoin

from lxml import etree

from .encoding import decode, repair_mojibake
from .mhtml import html_part, is_mhtml
from .reading import (
    GZIP_MAGIC,
    Limits,
    PageError,
    Source,
    check_binary,
    gunzip,
    gunzip_bounded,
    read_file_source,
    read_source,
)
from .streamed import drop_fallbacks, place_streamed_parts, put_content

__all__ = ["ABSOLUTE_URL", "FLAG_WARNINGS", "Document", "Limits", "PageError", "Source", "check_deadline", "decode",
           "gunzip_bounded", "join_url", "most_attributes", "parse", "read_source"]

log = logging.getLogger("blockclf")

_DTD_SUBSET = re.compile(r"<!DOCTYPE[^\[>]*\[.*?\]\s*>", re.IGNORECASE | re.DOTALL)
_PROLOG = re.compile(r"\s*(?:<\?[^>]*\?>\s*|<!--.*?-->\s*|<!DOCTYPE[^\[>]*(?:\[.*?\])?\s*>\s*)*",
                     re.IGNORECASE | re.DOTALL)
_DOCTYPE_NAME = re.compile(r"<!DOCTYPE\s+([\w:.\-]+)", re.IGNORECASE)
_HTML_TAG = re.compile(
    r"<(?:html|head|body|p|div|span|a|br|table|ul|ol|li|h[1-6]|img|script|style|meta|form|pre|b|i|em|strong|"
    r"font|center|section|article|nav|header|footer|main|iframe|frameset|noscript|blockquote|td|tr)[\s/>]",
    re.IGNORECASE)
_FIRST_TAG = re.compile(r"<([A-Za-z][\w:.\-]*)")
_TAG = re.compile(r"<(/?)([A-Za-z][\w:.\-]*)[^<>]*>")
_VOID = frozenset("area base br col embed hr img input link meta param source track wbr frame keygen".split())
#: warning codes meaning the page was read only in part or lost its structure; a batch names them
FLAG_WARNINGS = frozenset({"truncated-gzip", "truncated-record", "flattened-deep-nesting", "too-deep",
                           "parse-truncated", "no-text"})
# libxml2 stops parsing a document nested deeper than this (without its "huge" option)
_LIBXML_DEPTH = 255


@dataclass
class Document:
    """A parsed page: the tree and what the page says about itself.

    ``deadline`` is the `time.monotonic` instant after which work on the page should stop
    (from `Limits.max_seconds`); `check_deadline` raises once it has passed.
    """

    root: etree._Element
    encoding: str
    title: str = ""
    url: str | None = None
    lang: str | None = None
    n_bytes: int = 0
    warnings: list[str] = field(default_factory=list)
    deadline: float | None = None


def check_deadline(doc: Document) -> None:
    """Raise `PageError` ``timeout`` when the page's time budget is spent."""
    if doc.deadline is not None and time.monotonic() > doc.deadline:
        raise PageError("timeout", "page took longer than its time budget")


def _check_kind(text: str, warnings: list[str]) -> str:
    """Refuse JSON and non-HTML XML; flag plain text; drop an inline DTD (its entities are never expanded)."""
    head = text[:1000].lstrip("\ufeff \t\r\n")
    if head.startswith(("{", "[")):
        try:
            json.loads(text)
        except ValueError:
            pass
        except RecursionError:  # nested deeper than the JSON reader goes: still JSON, not a page
            raise PageError("not-html", "input is deeply nested JSON, not HTML") from None
        else:
            raise PageError("not-html", "input is JSON, not HTML")
    prolog = _PROLOG.match(text[:100_000])
    start = prolog.end() if prolog else 0
    doctype = _DOCTYPE_NAME.search(text, 0, start)
    xml_like = head[:5].lower() == "<?xml" or (doctype and not doctype.group(1).lower().startswith("htm"))
    # damaged prologs are common on real pages: only a document with no HTML element at all is refused
    if xml_like and not _HTML_TAG.search(text[:200_000]):
        first = _FIRST_TAG.search(text, start)
        name = first.group(1) if first else "none"
        raise PageError("not-html", f"input is an XML document (root element <{name}>), not HTML")
    if _DTD_SUBSET.search(text[:100_000]):
        warnings.append("dtd-subset")
        text = _DTD_SUBSET.sub("", text[:100_000], count=1) + text[100_000:]
    if "<" not in text:
        warnings.append("no-markup")
    return text


def _flatten(text: str, max_depth: int) -> str:
    """Drop start and end tags nested deeper than ``max_depth`` (their text stays).

    The depth is counted from the tags alone (implicitly closed elements count as open), so
    this is used only when the parser itself gave up on the nesting.
    """
    out: list[str] = []
    pos = depth = 0
    for m in _TAG.finditer(text):
        name = m.group(2).lower()
        if name in _VOID:
            continue
        if m.group(1):
            depth -= 1
            drop = depth >= max_depth
        else:
            depth += 1
            drop = depth > max_depth
        if drop:
            out.append(text[pos:m.start()])
            pos = m.end()
    out.append(text[pos:])
    return "".join(out)


# Where a tag with many attributes could be: a tag long enough to hold more than a few
# dozen, or a script, style or comment to jump over (their text is not markup).
_LONG_TAG = re.compile(r"<(?:(script|style)\b[^<>]*>?|!--|[A-Za-z][^<>]{400,}>?)", re.IGNORECASE)
_END_RAW = {name: re.compile(f"</{name}", re.IGNORECASE) for name in ("script", "style")}
_ATTRIBUTE = re.compile(r"""[^\s"'=<>/]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'>]*))?""")


@lru_cache(maxsize=8)
def _long_tag(max_attributes: int) -> re.Pattern[str]:
    """A tag long enough to hold more than ``max_attributes`` attributes (each takes at least
    a name and a space): pages without one skip `most_attributes`, five times its cost."""
    return re.compile(rf"<[^>]{{{2 * max_attributes}}}")


#: seconds a page takes per pair of attributes on one tag, measured on the reference machine:
#: libxml2 checks each attribute against those before it, and lxml finds each value by a
#: search from the first, so a tag of n attributes costs about n² of these, in parsing and in
#: the passes that read them (a tag of 9,999: 0.43 s; a page of 199 such tags, 86 s)
SECONDS_PER_ATTRIBUTE_PAIR = 4.3e-9


def most_attributes(text: str) -> int:
    """The most attributes on one tag of ``text``, found by a scan that runs before any parsing."""
    return max(_attribute_counts(text), default=0)


def _attribute_counts(text: str) -> list[int]:
    """The attributes on each long tag of ``text``, counted by a scan that runs before any parsing.

    Only tags of 400 characters or more are counted (a shorter tag cannot hold a costly
    number); scripts, styles and comments are jumped over when they are closed, as the
    parser reads them as text. Linear in the length of the text: an end that is not found
    once is not searched for again.
    """
    counts: list[int] = []
    pos = 0
    unclosed: set[str] = set()  # "--", "script", "style": no end after some point, so none after any later one
    while True:
        m = _LONG_TAG.search(text, pos)
        if m is None:
            return counts
        tag = m.group()
        pos = m.end()
        if tag.startswith("<!--"):
            end = -1 if "--" in unclosed else text.find("-->", pos)
            if end < 0:
                unclosed.add("--")
            else:
                pos = end + 3
            continue
        if len(tag) >= 400:
            counts.append(sum(1 for _ in _ATTRIBUTE.finditer(tag, 1)) - 1)
        name = (m.group(1) or "").lower()
        if name and name not in unclosed:  # the raw text of a script or style ends at its end tag
            end_tag = _END_RAW[name].search(text, pos)
            if end_tag is None:
                unclosed.add(name)
            else:
                pos = end_tag.start()


def _parse_tree(data: bytes, huge: bool) -> tuple[etree._Element | None, list[str]]:
    parser = etree.HTMLParser(remove_comments=True, remove_pis=True, no_network=True, encoding="utf-8",
                              huge_tree=huge)
    root = etree.fromstring(data, parser)
    limits_hit = [e.message for e in parser.error_log if e.type_name == "ERR_RESOURCE_LIMIT"]
    return root, limits_hit


_OPEN_TITLE = re.compile(r"(<title\b[^>]*>[^<]*)", re.IGNORECASE)
_MARKUP = re.compile(r"</?[a-zA-Z][^>]*>")
# Browsers put content after an early </body> or </html> back into the body; libxml2 drops
# it. Removing those end tags (the parser closes both at the end) reads the page as shown.
_END_BODY = re.compile(r"</(?:body|html)\s*>", re.IGNORECASE)


def _first(root: etree._Element, tag: str) -> etree._Element | None:
    """The first ``tag`` element under ``root`` (lxml's C iterator; ``find(".//tag")`` is slower)."""
    return next(root.iter(tag), None)


def _unswallow(root: etree._Element, text: str, warnings: list[str]) -> etree._Element:
    """Re-read a page whose unterminated ``<title>`` swallowed the rest of the document.

    The title element's text runs to the next ``</title>``; without one, the whole page
    becomes title text and no block is left. The page is then parsed again with the title
    closed at its first markup.
    """
    title = _first(root, "title")
    if title is not None and len(title.text or "") > 1000 and _MARKUP.search(title.text or ""):
        alt, _ = _parse_tree(_OPEN_TITLE.sub(r"\1</title>", text, count=1).encode("utf-8", errors="replace"),
                             huge=False)
        if alt is not None:
            warnings.append("title-swallowed-markup")
            return alt
    return root


#: an absolute web address: one a relative link can be resolved against
ABSOLUTE_URL = re.compile(r"^https?://[^/?#\s]+", re.IGNORECASE)


#: a script statement (``getElementById("font");``, ``function goPrint() {``): a ``<title>``
#: whose end tag a damaged page lost runs on into the script after it up to the next tag. A
#: name is tried from its first character only: tried from each, a long run of letters
#: without a parenthesis took time growing with the square of its length (80 KB, 24 s)
_TITLE_SCRIPT = re.compile(r"(?<![\w.$])[\w.$]+\([^()]*\)\s*;|\bfunction\s*[\w$]*\s*\(")


def _meta(root: etree._Element) -> tuple[str, str | None, str | None]:
    title = ""
    t = _first(root, "title")
    if t is not None:
        title = "".join(map(str, t.itertext()))
        code = _TITLE_SCRIPT.search(title)
        title = " ".join((title[:code.start()] if code else title).split())
    canonical = og = None
    for link in root.iter("link"):
        if "canonical" in (link.get("rel") or "").lower().split() and link.get("href"):
            canonical = link.get("href", "").strip()
            break
    for meta in root.iter("meta"):
        # OpenGraph says property="og:url"; many pages write name="og:url", which readers honour too
        if (meta.get("property") or meta.get("name") or "").lower() == "og:url" and meta.get("content"):
            og = meta.get("content", "").strip()
            break
    lang = root.get("lang") if isinstance(root.tag, str) else None
    return title, _page_url(canonical, og), lang


@lru_cache(maxsize=4096)
def join_url(base: str, url: str) -> str | None:
    """``urljoin``, or None for an address it cannot read (a malformed IPv6 host,
    ``https://[x/``): such an address costs its link, never the page. Remembered: the pages
    of a site link to the same addresses from the same menus, and a page's links are joined
    again when its Markdown or HTML is written."""
    try:
        return urljoin(base, url)
    except ValueError:
        return None


def _page_url(canonical: str | None, og: str | None) -> str | None:
    """The page's own address from its canonical link and ``og:url``: an absolute one first
    (a canonical link is often written relative, ``/news/a.html``), a relative canonical
    link resolved against an absolute ``og:url``."""
    for url in (canonical, og):
        if url and ABSOLUTE_URL.match(url):
            return url
    joined = join_url(og, canonical) if canonical and og and ABSOLUTE_URL.match(og) else None
    return joined or canonical or og


def _open_noframes(root: etree._Element) -> None:
    """A frameset page shows ``<noframes>`` to browsers without frames; the parser keeps it as raw markup."""
    for nf in root.iter("noframes"):
        if len(nf) == 0 and nf.text and "<" in nf.text:
            frag = etree.fromstring(f"<div>{nf.text}</div>".encode(), etree.HTMLParser(encoding="utf-8"))
            body = frag.find(".//body")
            if body is not None and len(body):
                nf.text = None
                nf.extend(list(body))


def _open_shadow_roots(root: etree._Element) -> None:
    """Put the content of declarative shadow roots (``<template shadowrootmode="open">``, and
    the older ``shadowroot``) in the place of their ``<template>``: browsers draw it as the
    host element's content, and server-rendered web components (Lit, for one) carry their
    text there. Other templates stay unread, as scripts use them."""
    shadows = [t for t in root.iter("template") if t.get("shadowrootmode") is not None or t.get("shadowroot")]
    for t in reversed(shadows):  # innermost last in document order: each moved after those inside it
        if t.getparent() is not None:
            put_content(t, t)


#: a str that names a page file rather than holding a page: one line, no markup, a page suffix
_PATH_LIKE = re.compile(r"^[^<>\n]{1,4096}\.(?:html?|htm|xhtml)(?:\.gz)?$", re.IGNORECASE)
#: a str that is a web address rather than a page: what a fetching library's users pass first
_URL_LIKE = re.compile(r"^\s*https?://[^\s<>]{1,4096}\s*$", re.IGNORECASE)


def _check_arguments(source: object, encoding: object, limits: object) -> None:
    """Refuse arguments of the wrong type, and a str that names a file, before any work is done."""
    if not isinstance(source, (bytes, str, Path)):
        raise TypeError(f"parse() takes bytes, str (HTML text) or pathlib.Path, not {type(source).__name__}")
    if encoding is not None and not isinstance(encoding, str):
        raise TypeError(f"encoding must be a str or None, not {type(encoding).__name__}")
    if limits is not None and not isinstance(limits, Limits):
        raise TypeError(f"limits must be a blockclf.Limits or None, not {type(limits).__name__}")
    if isinstance(source, str) and _URL_LIKE.match(source):
        raise PageError("url-as-text", f"{source.strip()[:200]!r} is a web address, and a str is read as HTML text: "
                        "blockclf does not fetch pages; fetch it and give its bytes (with url=... for its address)")
    if isinstance(source, str) and _PATH_LIKE.match(source):
        raise PageError("path-as-text", f"{source[:200]!r} looks like a file name, and a str is read as HTML "
                        "text: give pathlib.Path(...) to read a file")


def _decoded(source: Source, encoding: str | None, limits: Limits,
             warnings: list[str]) -> tuple[str, str, int, str | None]:
    """The page as text, the encoding used, its size in bytes (characters for a str) and, for
    a page saved as MHTML, the address it was saved from.

    Bytes are read, un-gzipped, bounded and checked for binary content before decoding, so
    the decoder never sees media or a bomb; an MHTML file is read as its HTML part (`mhtml`).
    """
    data: bytes | str = read_file_source(source, limits.max_bytes, warnings) if isinstance(source, Path) else source
    saved_from = None
    if isinstance(data, bytes):
        if data[:2] == GZIP_MAGIC:
            data = gunzip(data, "page", limits.max_bytes, warnings)
        if len(data) > limits.max_bytes:
            raise PageError("too-large", f"page has {len(data)} bytes, over the limit of {limits.max_bytes}")
        if data[:1].isalpha() and is_mhtml(data):  # a page begins with markup, a MIME message with its headers
            data, charset, saved_from = html_part(data)
            encoding = encoding or charset
        if not data or data.isspace():
            raise PageError("empty", "page is empty" if not data else "page has only whitespace")
        check_binary(data)
        text, used = decode(data, encoding)
        if "+" in used:
            warnings.append("mixed-encoding")
        return _repaired(text, warnings), used, len(data), saved_from
    if len(data) > limits.max_bytes:
        raise PageError("too-large", f"page has {len(data)} characters, over the limit of {limits.max_bytes}")
    return _repaired(data, warnings), "str", len(data), saved_from


def _repaired(text: str, warnings: list[str]) -> str:
    """``text`` with UTF-8 that was decoded twice put back (`repair_mojibake`), said in a warning."""
    text, repaired = repair_mojibake(text)
    if repaired:
        warnings.append("mojibake-repaired")
    return text


#: a term or a description opened: only pages with one are read for their definition lists
_DEFINITION_OPEN = re.compile(r"<d[dt][\s/>]", re.IGNORECASE)
#: a definition list's tag: ``dl``, a term (``dt``) or a description (``dd``), opening or closing
_DEFINITION_TAG = re.compile(r"<(/?)(d[ldt])(?=[\s/>])[^>]*>", re.IGNORECASE)


def _closed_definitions(text: str) -> str:
    """``text`` with an end tag written where a browser implies one: before a ``<dt>`` or
    ``<dd>`` that follows another still open in the same list.

    HTML lets a page leave terms and descriptions open (``<dt>Powell north of Bush<dt>Sutter
    east of Polk``), and libxml2 reads each as inside the one before it: a list of a few
    hundred terms reached its nesting limit, and the page was read flat, its text lost. A list
    inside a description (``<dd>…<dl>…</dl>``) keeps its own open item apart.
    """
    out: list[str] = []
    at = 0
    open_items: list[str | None] = [None]  # per list, from the outermost: its item still open
    for m in _DEFINITION_TAG.finditer(text):
        closing, tag = m.group(1), m.group(2).lower()
        if tag == "dl":
            if not closing:
                open_items.append(None)
            elif len(open_items) > 1:
                open_items.pop()
        elif closing:
            if open_items[-1] == tag:
                open_items[-1] = None
        else:
            if open_items[-1] is not None:  # the item still open ends before this one
                out += (text[at:m.start()], f"</{open_items[-1]}>")
                at = m.start()
            open_items[-1] = tag
    if not out:
        return text
    out.append(text[at:])
    return "".join(out)


def _check_attributes(counts: list[int], limits: Limits) -> None:
    """Refuse a page whose long tags hold more attributes than it can read: over
    ``max_attributes`` on one tag, or so many on several that reading them would take longer
    than the page's time budget (`SECONDS_PER_ATTRIBUTE_PAIR`). Neither the parser nor lxml's
    reading of one element can be interrupted, so the budget is kept by refusing before."""
    most = max(counts, default=0)
    if most > limits.max_attributes:
        raise PageError("too-many-attributes", f"page has a tag with {most} attributes, over the limit of "
                        f"{limits.max_attributes} (parsing it could take hours)")
    seconds = sum(n * n for n in counts) * SECONDS_PER_ATTRIBUTE_PAIR
    if limits.max_seconds is not None and seconds > limits.max_seconds:
        raise PageError("timeout", f"page's tags hold {sum(counts):,} attributes, up to {most:,} on one: reading them "
                        f"would take about {seconds:.0f} s, over its time budget of {limits.max_seconds:g} s")


def _parseable(text: str, limits: Limits, warnings: list[str]) -> str:
    """The text the parser is given: refused when empty, not HTML or too costly to parse.

    NUL characters and early ``</body>``/``</html>`` end tags are removed, and the end tags a
    definition list leaves implied are written (`_closed_definitions`), so that the parser
    reads the page as a browser shows it.
    """
    if not text or text.isspace():  # a test that copies nothing: most pages are over 100,000 characters
        raise PageError("empty", "page has only whitespace")
    if "\x00" in text:
        warnings.append("nul-bytes")
        text = text.replace("\x00", "")
    text = _check_kind(text, warnings)
    if _long_tag(limits.max_attributes).search(text):
        _check_attributes(_attribute_counts(text), limits)
    text = _END_BODY.sub("", text)
    if "<!--$?-->" in text:
        text = drop_fallbacks(text)
    if _DEFINITION_OPEN.search(text):
        text = _closed_definitions(text)
    return text


def _parsed(text: str, limits: Limits, warnings: list[str]) -> tuple[etree._Element, str]:
    """The tree of ``text``, and the text it was parsed from (flattened if it nested too deep).

    libxml2 stops at its nesting limit and at its text-node size limit and drops the rest
    of the page; the page is parsed again past either, so no text is lost silently.
    """
    # The parser is fed UTF-8 bytes and told so, which ignores the page's own declaration
    # (already honoured above) and XML encoding declarations that lxml refuses on str input.
    try:
        root, hit = _parse_tree(text.encode("utf-8", errors="replace"), huge=False)
        if any("depth" in m for m in hit):
            # libxml2 stops at its nesting limit and drops the rest of the page: flatten instead
            warnings.append("flattened-deep-nesting")
            log.warning("page nests deeper than %d elements; deeper tags are read as text", _LIBXML_DEPTH)
            text = _flatten(text, min(limits.max_depth, _LIBXML_DEPTH - 5))
            root, hit = _parse_tree(text.encode("utf-8", errors="replace"), huge=False)
        if hit:  # a text node over libxml2's 10 MB default: the input is already bounded by max_bytes
            root, hit = _parse_tree(text.encode("utf-8", errors="replace"), huge=True)
            if hit:
                warnings.append("parse-truncated")
                log.warning("parser stopped early: %s", hit[0].strip())
    except (etree.XMLSyntaxError, ValueError) as exc:
        raise PageError("unparseable", f"page could not be parsed: {exc}") from None
    if root is None:
        raise PageError("empty", "page has no elements")
    return root, text


def _check_nodes(root: etree._Element, text: str, limits: Limits) -> None:
    """Refuse a tree of over ``max_nodes`` elements; the elements are counted only when the
    text has room for that many, so a usual page is never walked for it."""
    # every element but the few the parser implies (html, head, body, p) starts with a '<'
    if len(text) + 16 > limits.max_nodes and text.count("<") + 16 > limits.max_nodes and sum(
            1 for _ in islice(root.iter(), limits.max_nodes + 1)) > limits.max_nodes:
        raise PageError("too-many-nodes", f"page has over {limits.max_nodes} elements")


def parse(source: Source, encoding: str | None = None, limits: Limits | None = None) -> Document:
    """Parse a page given as bytes, decoded text, or a path to ``.html``/``.htm``/``.html.gz``
    (or a browser's single-file ``.mhtml``, read as its page's HTML part).

    Raises `PageError` for input that is empty, binary, JSON or XML, over the limits or not
    parseable, and `TypeError` (with a message naming the argument) for arguments of the
    wrong type. A ``str`` is HTML text: one that looks like a file name (``"page.html"``) is
    refused with reason ``path-as-text``; wrap a path in `pathlib.Path`. One that is a web address
    is refused with reason ``url-as-text``: pages are not fetched. A page the parser
    could read only by flattening its nesting, or that had to be
    cut short, comes back with a warning code in `Document.warnings`.
    """
    _check_arguments(source, encoding, limits)
    limits = limits or Limits()
    started = time.monotonic()
    warnings: list[str] = []
    text, used, n_bytes, saved_from = _decoded(source, encoding, limits, warnings)
    root, text = _parsed(_parseable(text, limits, warnings), limits, warnings)
    root = _unswallow(root, text, warnings)
    _check_nodes(root, text, limits)
    if root.find(".//frameset") is not None:
        _open_noframes(root)
    if "shadowroot" in text:
        _open_shadow_roots(root)
    if "S:" in text:
        place_streamed_parts(root)
    title, url, lang = _meta(root)
    url = url or saved_from  # the address an MHTML file was saved from, when the page names none
    deadline = started + limits.max_seconds if limits.max_seconds else None
    doc = Document(root=root, encoding=used, title=title, url=url, lang=lang, n_bytes=n_bytes,
                   warnings=warnings, deadline=deadline)
    check_deadline(doc)
    return doc
