"""A metadata value as text: folded to one line with its character references read, compared
by tokens, and dates parsed to ISO 8601 (the page's own local time and offset when it gives
them). Every reader of a page's metadata (`jsonld`, `byline`, `headline`, `language`,
`metadata`) goes through these."""

from __future__ import annotations

import re
import warnings
from collections import Counter
from collections.abc import Sequence
from datetime import date, datetime
from html import unescape
from typing import Any
from urllib.parse import urlsplit

from dateutil import parser as dateparser
from lxml import etree

from .metrics import tokens

__all__ = ["ICON_CHARS", "OTHER_DATE_WORDS", "clean_value", "first_line", "is_url", "parse_date",
           "time_element_date", "token_overlap", "url_date"]

_WS = re.compile(r"\s+")
#: an icon font's glyphs, Unicode's private use area (a character class's range): drawn as
#: icons, never words
ICON_CHARS = "\ue000-\uf8ff"
_ICONS = re.compile(f"[{ICON_CHARS}]+")
#: half of a character: a JSON string's escape of a lone surrogate (``"\\ud83d"``, an emoji cut
#: in two) reads as one, which UTF-8 cannot hold and strict JSON readers refuse
_HALF = re.compile("[\ud800-\udfff]")


#: a character reference left in a value: JSON-LD strings are not HTML, yet many sites write
#: their headlines there HTML-escaped (``&#8216;illogical&#8217;``), and some escape a meta
#: tag's content twice
_ENTITY = re.compile(r"&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});")
#: markup that a value turns out to hold, escaped or not (``&lt;a href=&quot;…&quot;&gt;Sanjay
#: Gupta&lt;/a&gt;``, ``<B>Steve Kroft</B> talks to...``); read as markup only when a closing tag
#: shows it is (an element's name, as in "<div>: the content division element", is text)
_CLOSING_TAG = re.compile(r"</[A-Za-z][A-Za-z0-9]*\s*>")
#: a line break written against a word, which only markup does ("Antidote <br/>to DEI", "AL
#: ALEXANDER<BR>The Patriot Ledger"); spaced on both sides it is a title naming the element
#: ("30 Years of <br> Tags")
_BREAK = re.compile(r"(?<=\S)<br\s*/?>|<br\s*/?>(?=\S)", re.IGNORECASE)
_TAG = re.compile(r"</?([A-Za-z][A-Za-z0-9]*)(?:\s[^<>]*)?/?>")
_INLINE_TAGS = frozenset("a abbr b cite code em font i mark q s small span strong sub sup u".split())
#: in a description, also a tag it was cut off in (a broken attribute's "... MORE INFO <script")
_CUT_TAG = re.compile(r"<[A-Za-z/!][^<>]*$")


def _tag_gap(m: re.Match[str]) -> str:
    """What a tag leaves in a value's text: nothing for an inline one ("<strong>Mini</strong>,"
    reads "Mini,"), a space for one that parts words (``<br/>``, ``<p>``)."""
    return "" if m.group(1).lower() in _INLINE_TAGS else " "


def clean_value(value: Any, limit: int = 1000, prose: bool = False) -> str | None:
    """A string value folded to one line, character references read, markup it holds dropped
    (`_CLOSING_TAG`, `_BREAK`), or None when it is not a non-empty string.

    ``prose``: the value is sentences (a description), so markup it opens with ("<p>This week,
    we're...", written as HTML) or is cut off in (`_CUT_TAG`) goes too; a title may name an
    element ("<div>: the content division element").
    """
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        value = str(value)
    if not isinstance(value, str):
        return None
    value = value[: limit * 4]
    if "&" in value and _ENTITY.search(value):
        value = unescape(value)
    if "<" in value:
        if _CLOSING_TAG.search(value) or _BREAK.search(value) or (prose and _TAG.match(value.lstrip())):  # HTML
            value = _TAG.sub(_tag_gap, value)
        if prose:
            value = _CUT_TAG.sub("", value)
    if not value.isascii():
        value = _HALF.sub("\ufffd", _ICONS.sub(" ", value))  # as a character reference to one reads
    value = _WS.sub(" ", value).strip()
    return value[:limit] or None


def first_line(value: Any) -> Any:
    """A string value's first line where markup breaks it (``<br>``), as a byline in a ``<meta>``
    gives the name there and the paper after it ("AL ALEXANDER<BR>The Patriot Ledger");
    anything else as it is."""
    if not isinstance(value, str) or "<" not in value:
        return value
    return next((line for line in _BREAK.split(value) if line.strip()), value)


def token_overlap(a: str, b: str) -> float:
    """Token F1 of two strings (`metrics.tokens`, multiset, as `metrics.score_text` counts it);
    0 when either has no token."""
    ta, tb = tokens(a), tokens(b)
    if not ta or not tb:
        return 0.0
    return 2 * sum((Counter(ta) & Counter(tb)).values()) / (len(ta) + len(tb))


def is_url(text: str) -> bool:
    return text.startswith(("http://", "https://", "//", "www.")) or ("/" in text and " " not in text)


_URL_DATE = re.compile(r"/((?:19|20)\d\d)[/-](0?[1-9]|1[0-2])[/-](0?[1-9]|[12]\d|3[01])(?:/|[-_]|$)")
_URL_DAY_FOLDERS = re.compile(r"/((?:19|20)\d\d)/(0[1-9]|1[0-2])/(0[1-9]|[12]\d|3[01])/")
_DEFAULT_DAY = datetime(2000, 1, 1)


def parse_date(text: str | None) -> str | None:
    """ISO 8601 for a date string (the page's own local time and offset kept), None when unreadable.

    Only dates from 1990 to 2100 are taken; a date without a time is given as ``YYYY-MM-DD``.
    """
    text = clean_value(text, 80)
    if not text:
        return None
    try:
        dt: datetime | date = dateparser.isoparse(text)
    except (ValueError, OverflowError, TypeError):
        try:
            with warnings.catch_warnings():  # an unknown zone name ("EDT") is read as no zone, silently
                warnings.simplefilter("ignore")
                dt = dateparser.parse(text, default=_DEFAULT_DAY)
        except (ValueError, OverflowError, TypeError, LookupError, dateparser.ParserError):
            return None
        if dt is None:
            return None
    if not 1990 <= dt.year <= 2100:
        return None
    has_time = isinstance(dt, datetime) and (dt.hour or dt.minute or dt.second or dt.tzinfo is not None
                                             or "T" in text or ":" in text)
    try:
        return dt.isoformat() if has_time else dt.date().isoformat() if isinstance(dt, datetime) else dt.isoformat()
    except (ValueError, OverflowError):
        return None


def url_date(url: str | None, strict: bool = False) -> str | None:
    """The date a URL's path gives (``/2024/05/02/``, ``/2024-5-2-``); with ``strict``, only as
    three folders of four, two and two digits (a slug's "2024-4-4" may be a version number)."""
    if not url:
        return None
    try:
        m = (_URL_DAY_FOLDERS if strict else _URL_DATE).search(urlsplit(url).path)
    except ValueError:  # a malformed address
        return None
    if not m:
        return None
    try:
        return date(int(m.group(1)), int(m.group(2)), int(m.group(3))).isoformat()
    except ValueError:
        return None


#: class and ``itemprop`` words of an element that gives a date of something other than the
#: page: an event's ("tribe-events-widget-events-list__event-datetime"), a person's, an
#: offer's expiry (a change's date is the page's, and stands in for its publication's)
OTHER_DATE_WORDS = re.compile(r"bday|birth|death|dtstart|dtend|event|expir|deadline", re.IGNORECASE)


def time_element_date(times: Sequence[etree._Element]) -> str | None:
    """The ``datetime`` of a ``<time pubdate>``, else of the first ``<time datetime>`` that parses
    and is not marked as the date of something else (`OTHER_DATE_WORDS`: an upcoming event's)."""
    first = None
    for el in times:
        value = el.get("datetime")
        if not value or OTHER_DATE_WORDS.search(f"{el.get('class') or ''} {el.get('itemprop') or ''}"):
            continue
        if el.get("pubdate") is not None or "published" in (el.get("class") or "").lower():
            parsed = parse_date(value)
            if parsed:
                return parsed
        if first is None:
            first = parse_date(value)
    return first
