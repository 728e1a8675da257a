"""Page bytes to text, in an order that can be explained.

Byte-order mark, the caller's encoding, the page's own ``<meta charset>`` declaration, strict
UTF-8, UTF-8 with single stray bytes read as Windows-1252 (pages that mix the two), then
charset-normalizer's detection. `decode` returns the text and the name of what it used.
ISO-8859-1 and ASCII are read as Windows-1252, as browsers read them (the WHATWG Encoding
Standard): their bytes 0x80-0x9F are a page's quotes, dashes and euro signs, not control
characters.
"""

from __future__ import annotations

import codecs
import re
from collections.abc import Iterable
from typing import Any

__all__ = ["decode", "repair_mojibake", "web_encoding"]

BOMS = (
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF32_LE, "utf-32-le"),
    (codecs.BOM_UTF32_BE, "utf-32-be"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)
_META_CHARSET = re.compile(
    rb"""<meta[^>]+charset\s*=\s*["']?\s*([a-zA-Z0-9_:.\-]+)""", re.IGNORECASE
)
#: single-byte encodings (`codecs` names, by prefix): text in one of them is almost never valid
#: UTF-8 with multi-byte characters by accident, so a page declaring one that is such UTF-8 is UTF-8
_SINGLE_BYTE = ("iso8859", "cp125", "cp874", "koi8", "mac-", "tis-620", "ascii")
#: what a browser reads as Windows-1252 (with the five bytes it leaves undefined as Latin-1)
_AS_WINDOWS_1252 = frozenset(("iso8859-1", "ascii", "cp1252"))
_HIGH_RUN = re.compile(rb"[\x80-\xff]+")
_UTF8_MULTI = re.compile(rb"[\xc2-\xdf][\x80-\xbf]|[\xe0-\xef][\x80-\xbf]{2}|[\xf0-\xf4][\x80-\xbf]{3}")


def _lookup(name: str | None) -> str | None:
    if not name:
        return None
    try:
        return codecs.lookup(name).name
    except LookupError:
        return None


#: the encodings of the web (the WHATWG Encoding Standard's), by the name Python's codecs give
#: them: a page's declaration of anything else (UTF-7, ``unicode_escape``, ``punycode``...) is
#: ignored, as browsers ignore it; read by such a codec, "+ADw-b+AD4-" or "\\x3cb\\x3e" became
#: markup that no browser shows
_WEB_CODECS = frozenset((
    "utf-8", "utf-16", "utf-16-le", "utf-16-be", "cp866", "iso8859-1", "ascii", "iso8859-2", "iso8859-3", "iso8859-4",
    "iso8859-5", "iso8859-6", "iso8859-7", "iso8859-8", "iso8859-10", "iso8859-13", "iso8859-14", "iso8859-15",
    "iso8859-16", "koi8-r", "koi8-u", "mac-roman", "mac-cyrillic", "cp874", "cp1250", "cp1251", "cp1252", "cp1253",
    "cp1254", "cp1255", "cp1256", "cp1257", "cp1258", "gbk", "gb18030", "big5hkscs", "euc_jp", "iso2022_jp", "cp932",
    "cp949"))
#: where the standard reads a label as a superset of the codec Python names it for (a page that
#: declares GB2312 is read as GBK, Shift_JIS as Windows-31J, Latin-5 as Windows-1254...)
_WEB_SUPERSETS = {"gb2312": "gbk", "big5": "big5hkscs", "shift_jis": "cp932", "euc_kr": "cp949",
                  "iso8859-9": "cp1254", "iso8859-11": "cp874", "tis-620": "cp874"}
#: the standard's labels that Python's codecs do not know
_WEB_LABELS = {
    "windows-874": "cp874", "dos-874": "cp874", "x-gbk": "gbk", "windows-31j": "cp932", "x-sjis": "cp932",
    "cn-big5": "big5hkscs", "x-x-big5": "big5hkscs", "cseuckr": "cp949", "windows-949": "cp949",
    "x-euc-jp": "euc_jp", "iso-8859-8-i": "iso8859-8", "csiso88598i": "iso8859-8", "logical": "iso8859-8",
    "x-mac-cyrillic": "mac-cyrillic", "x-mac-ukrainian": "mac-cyrillic",
    **{f"x-cp125{i}": f"cp125{i}" for i in range(9)},
}


def web_encoding(label: str | None) -> str | None:
    """The Python codec a page's declared encoding ``label`` names, read as browsers read it;
    None for a label that names no encoding of the web."""
    if not label:
        return None
    label = label.strip().lower()
    name = _WEB_LABELS.get(label) or _lookup(label)
    name = _WEB_SUPERSETS.get(name, name) if name else None
    return name if name in _WEB_CODECS else None


def looks_utf16(data: bytes) -> str | None:
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


def _utf8_cp1252(exc: UnicodeError) -> tuple[str, int]:
    """Decoding error handler: read a byte that is not UTF-8 as Windows-1252 (Latin-1 if unmapped)."""
    assert isinstance(exc, UnicodeDecodeError)
    b = exc.object[exc.start:exc.start + 1]
    try:
        return b.decode("cp1252"), exc.start + 1
    except UnicodeDecodeError:
        return b.decode("latin-1"), exc.start + 1


codecs.register_error("blockclf-cp1252", _utf8_cp1252)


def _latin1(exc: UnicodeError) -> tuple[str, int]:
    """Decoding error handler: the five bytes Windows-1252 leaves undefined read as Latin-1 does."""
    assert isinstance(exc, UnicodeDecodeError)
    return exc.object[exc.start:exc.end].decode("latin-1"), exc.end


codecs.register_error("blockclf-latin1", _latin1)


def _read_as(data: bytes, name: str, errors: str = "strict") -> tuple[str, str]:
    """``data`` read as ``name``, or as Windows-1252 where a browser would (`_AS_WINDOWS_1252`),
    and the name of what was used."""
    if name in _AS_WINDOWS_1252 and not data.isascii():
        return data.decode("cp1252", errors="blockclf-latin1"), "cp1252"
    return data.decode(name, errors=errors), name


def _mixed_utf8(data: bytes, declared_utf8: bool) -> bool:
    """UTF-8 with stray single-byte characters (a template in one encoding, text in another).

    The page must say it is UTF-8 or hold UTF-8 characters. It is then read as UTF-8 with
    stray bytes when the UTF-8 characters outnumber the bytes that are not UTF-8, or when
    those bytes stand alone (at least 80 % of them between ASCII or UTF-8 characters), as
    Windows-1252 quotes, dashes and accented letters do. Legacy multi-byte encodings
    (Shift-JIS, GBK, Big5, EUC-KR, Johab) and Cyrillic or Greek single-byte text put their
    bytes in runs, so they still go to detection.
    """
    sample = data[:1_000_000]
    valid = len(_UTF8_MULTI.findall(sample))
    if not (valid or declared_utf8):
        return False
    invalid, alone = _high_bytes(_UTF8_MULTI.sub(b"_", sample))
    return (valid > 0 and (declared_utf8 or valid > invalid)) or alone >= 0.8 * invalid


def _high_bytes(sample: bytes) -> tuple[int, int]:
    """How many bytes past ASCII ``sample`` holds, and how many of them stand alone between
    ASCII bytes: Windows-1252's quotes, dashes and accented letters stand alone, legacy
    multi-byte and Cyrillic or Greek single-byte text puts its bytes in runs."""
    runs = _HIGH_RUN.findall(sample)
    return sum(len(r) for r in runs), sum(1 for r in runs if len(r) == 1)


def decode(data: bytes, encoding: str | None = None) -> tuple[str, str]:
    """Decode page bytes to text; return ``(text, encoding_used)``.

    A page that declares a single-byte encoding (Latin-1, Windows-1252, Latin-9, Arabic
    Windows-1256...) but is valid UTF-8 with multi-byte characters is read as UTF-8: that
    mislabelling is common and the reverse is vanishingly rare, because single-byte text is
    almost never valid multi-byte UTF-8 by accident. A page
    that is UTF-8 (by its declaration or its characters) with stray single bytes is read as
``utf-8+cp1252`` (see `_mixed_utf8`), never handed to detection, which can take a few
stray bytes for a legacy Asian encoding.
    """
    for bom, name in BOMS:
        if data.startswith(bom):
            return data[len(bom):].decode(name, errors="replace"), name
    utf16 = looks_utf16(data)
    if utf16:
        return data.decode(utf16, errors="replace"), utf16
    candidates: list[str] = []
    caller = _lookup(encoding)
    if caller:
        candidates.append(caller)
    match = _META_CHARSET.search(data[:4096])
    declared = web_encoding(match.group(1).decode("ascii", "ignore")) if match else None
    if declared and declared not in ("utf-16", "utf-16-le", "utf-16-be", "utf-32"):
        if not caller and declared.startswith(_SINGLE_BYTE):
            try:
                text = data.decode("utf-8")
            except UnicodeDecodeError:
                pass
            else:
                if not data.isascii():
                    return text, "utf-8"
        candidates.append(declared)
    candidates.append("utf-8")
    for name in candidates:
        try:
            return _read_as(data, name)
        except (UnicodeDecodeError, LookupError):
            continue
    if _mixed_utf8(data, "utf-8" in (caller, declared)):
        return data.decode("utf-8", errors="blockclf-cp1252"), "utf-8+cp1252"
    from charset_normalizer import from_bytes

    return _read_as(data, _detected(from_bytes(data[:200_000]), data) or "utf-8", errors="replace")


#: DOS code pages, which web pages are hardly ever written in but which detection picks for
#: Windows text whose bytes 0x80-0x9F are quotes and dashes (letters there)
_DOS = frozenset(("cp437", "cp737", "cp775", "cp850", "cp852", "cp855", "cp857", "cp858", "cp860", "cp861",
                  "cp862", "cp863", "cp865", "cp866", "cp869", "cp1125"))
#: how much more mess (charset-normalizer's chaos) than the best guess Windows-1252 may show
#: and still be read: a browser's default for pages that declare nothing
_CHAOS_SLACK = 0.01


def _detected(results: Iterable[Any], data: bytes) -> str | None:
    """The encoding to read an undeclared page in, from charset-normalizer's guesses: its best,
    unless Windows-1252 reads the page about as cleanly (within `_CHAOS_SLACK`), or the best is
    a DOS code page, at least 80 % of the page's bytes past ASCII stand alone (`_high_bytes`)
    and Windows-1252 reads every one of them. The guesses tie on pages with few bytes past ASCII: English pages
    with a few pound signs and curly quotes were read as Central European ("£5" as "Ł5") or
    Baltic DOS (quotes as "ō" and "ö")."""
    guesses = [(_lookup(r.encoding), r.chaos) for r in results if r.encoding]
    guesses = [(name, chaos) for name, chaos in guesses if name]
    if not guesses:
        return None
    best, least = guesses[0]
    western = next((chaos for name, chaos in guesses if name == "cp1252"), None)
    if western is not None and western <= least + _CHAOS_SLACK:
        return "cp1252"
    if best in _DOS:
        high, alone = _high_bytes(data[:1_000_000])
        if alone >= 0.8 * high:
            try:
                data.decode("cp1252")
            except UnicodeDecodeError:
                return best
            return "cp1252"
    return best


#: what a UTF-8 continuation byte becomes when read as Latin-1 or Windows-1252
_CONTINUATION = "\u0080-\u00bf€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ"
#: what text decoded twice leaves (UTF-8 read as Latin-1 or Windows-1252, then written as UTF-8):
#: a lead byte's letter before a continuation byte's ("Ã©" for "é", "â€”" for "—", "Ð¿" for
#: "п"); ftfy decides what is mojibake
_MARK = re.compile(f"[\u00c2-\u00f4][{_CONTINUATION}]")
#: the lead bytes' letters of the commonest mojibake (Latin, Greek, Cyrillic, Hebrew, Arabic
#: letters; punctuation; emoji): a page with none of them is not looked at further
_LEADS = "ÃÂÄÅÎÏÐÑ×ØÙâð"
#: most characters on either side of a mark given to ftfy with it (a page's script may hold
#: megabytes between two tags), cut at an ASCII character: mojibake holds none
_REACH = 200
_ASCII = re.compile("[\x00-\x7f]")


def _stretch(text: str, at: int, done: int) -> tuple[int, int]:
    """Where the stretch around the mark at ``at`` starts and ends: from the ``<`` before it to
    the ``<`` after it, or about `_REACH` characters either way, at an ASCII character (never
    inside a run of mojibake, which holds none); never before ``done``."""
    start = max(done, text.rfind("<", 0, at) + 1)
    if at - start > _REACH:
        cut = _ASCII.search(text, at - _REACH, at)
        start = cut.start() if cut else start
    end = text.find("<", at, at + _REACH)
    if end < 0:
        cut = _ASCII.search(text, min(len(text), at + _REACH))
        end = cut.start() if cut else len(text)
    return start, end


def repair_mojibake(text: str) -> tuple[str, bool]:
    """``text`` with the characters of UTF-8 that was decoded twice put back (``"flexbox â\x80\x94
    flexibly"`` becomes ``"flexbox — flexibly"``), and whether anything was.

    Pages saved through a tool that decoded them wrongly carry such text in valid UTF-8, so no
    choice of encoding undoes it; ftfy does, sequence by sequence, only where its heuristics
    are sure. It is given only the stretches between two ``<`` (a tag and the text after it)
    that hold a mark of such text (`_MARK`), on pages that hold a lead byte's letter
    (`_LEADS`): a whole page's markup took it 0.1 s for 200 KB.
    """
    if text.isascii() or not any(lead in text for lead in _LEADS):
        return text, False
    mark = _MARK.search(text)
    if mark is None:
        return text, False
    import ftfy

    pieces: list[str] = []
    done = 0
    while mark is not None:  # one search a stretch: a page of mojibake holds millions of marks
        start, end = _stretch(text, mark.start(), done)
        pieces += [text[done:start], ftfy.fix_encoding(text[start:end])]
        done = end
        mark = _MARK.search(text, done)
    pieces.append(text[done:])
    fixed = "".join(pieces)
    return fixed, fixed != text
