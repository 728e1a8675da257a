"""What a page says about itself: headline, author, dates, description, site, language, URL, tags.

`page_metadata` reads a parsed page (`blockclf.html.Document`) and, where given, its blocks,
and returns a frozen `Metadata`. Each field is taken from the most trusted source that has
it, in this order:

1. JSON-LD (``<script type="application/ld+json">``): the article-like object (``Article``,
   ``NewsArticle``, ``BlogPosting``...), then page-like ones (``WebPage``), then any other;
   ``@graph`` containers and ``@id`` references to ``Person``/``Organization`` are followed.
2. OpenGraph and ``<meta>`` tags (``og:title``, ``article:published_time``, ``author``,
   Dublin Core, ``keywords``...).
3. Microdata (``itemprop="author"``, ``itemprop="datePublished"`` on any element).
4. The page itself: its ``<h1>`` against ``<title>``; around the headline, ``rel=author``
   links, byline and author boxes, then links to author pages and links after a "by";
   byline blocks (class or id tokens ``byline``/``author``), a "By Jane Doe" line after the
   ``<h1>``; ``<time datetime>``, a date in the URL path, a date in an element marked as one.

An author, from any source, is cleaned to the name: "By", dates, job titles, agencies,
contacts and editors' credits around it are dropped (`_author_text`).

The headline is cleaned of site-name parts (``"Using the Fetch API - Web APIs | MDN"`` →
``"Using the Fetch API"``): a title part that matches the page's ``<h1>`` wins; otherwise
parts naming the site (its site name or domain) are dropped. Dates are parsed with
``python-dateutil`` and given as ISO 8601 (the page's own local time and offset when it
gives them). The language is the primary subtag of the page's declaration (``<html lang>``,
``Content-Language``, ``og:locale``, JSON-LD ``inLanguage``); it is checked against the
script of the page's text, and identified from the text (CLD2, by ``pycld2``) when the page
declares none, its declaration does not fit the text's script, or CLD2 is sure that a long
enough text is in another language (a theme's ``lang="en"`` on a Swahili news site).

Metadata is read on every page, so the reading is bounded: JSON-LD scripts over
`MAX_JSONLD_CHARS` are skipped, and the walk of the parsed JSON visits at most
`MAX_JSONLD_NODES` values at depth at most `MAX_JSONLD_DEPTH`. Nothing here raises on
hostile input: a source that cannot be read leaves its fields to the next source, or None.
"""

from __future__ import annotations

import json
import logging
import re
import threading
import warnings
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass
from datetime import date, datetime
from html import unescape
from itertools import chain, islice
from typing import Any
from urllib.parse import urlsplit

try:
    import pycld2
except ImportError:  # no wheel for this platform (Python 3.14, Linux on ARM): py3langid instead
    pycld2 = None
from dateutil import parser as dateparser
from lxml import etree

from .block import Block
from .data import host_domain
from .html import Document, join_url
from .words import is_spaced, title_parts

__all__ = ["MAX_JSONLD_CHARS", "MAX_JSONLD_DEPTH", "MAX_JSONLD_NODES", "MAX_PAGE_PRODUCTS", "Metadata", "clean_title",
           "page_metadata", "product_page"]

log = logging.getLogger("blockclf")

#: a JSON-LD script longer than this (characters) is not read
MAX_JSONLD_CHARS = 500_000
#: JSON values visited in all of a page's JSON-LD, and their deepest nesting
MAX_JSONLD_NODES = 5_000
MAX_JSONLD_DEPTH = 24
#: at most this many tags or categories are kept, each at most this long
MAX_TERMS = 50
_MAX_TERM_CHARS = 100
#: characters of page text read to check or identify its language
LANG_SAMPLE_CHARS = 400
#: an identified language replaces a declared one that does not fit the text's script at this
#: confidence or above; with no declaration, at 0.5 (see `_identify`)
LANG_MIN_CONFIDENCE = 0.7
#: the confidence of an answer CLD2 marks as unreliable is scaled by this
LANG_UNRELIABLE = 0.75
#: CLD2's answer speaks for the share of the text it could place in a language (percent); under
#: this share, its confidence is scaled down in proportion: Chinese specifications full of
#: Latin part names and numbers leave 5% placed, as Scots
LANG_MIN_PLACED = 33
#: a declared language in the text's script yields to the one CLD2 identifies in at least this
#: many characters of sample, at this confidence or above: a theme's ``lang="en"`` left on a
#: Zulu, Swahili or German site
LANG_OVERRULE_CHARS = 200
LANG_OVERRULE_CONFIDENCE = 0.9


@dataclass(frozen=True)
class Metadata:
    """The page's own description of itself; a field the page does not give is None (or empty)."""

    title: str | None = None
    author: str | None = None
    date: str | None = None
    modified: str | None = None
    description: str | None = None
    sitename: str | None = None
    #: the page's language (BCP 47 primary subtag): the declared one when it fits the text's
    #: script, else the one identified from the text
    lang: str | None = None
    url: str | None = None
    categories: tuple[str, ...] = ()
    tags: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready fields (tuples become lists)."""
        d = asdict(self)
        d["categories"], d["tags"] = list(self.categories), list(self.tags)
        return d


# --- small helpers ----------------------------------------------------------------------

_WS = re.compile(r"\s+")
_WORD = re.compile(r"\w+")


#: a character reference left in a value: JSON-LD strings are not HTML, yet many sites write
#: their headlines there HTML-escaped (``&#8216;illogical&#8217;``), and some escape a meta
#: tag's content twice
_ENTITY = re.compile(r"&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});")
#: markup that an escaped value turns out to hold (``&lt;a href=&quot;…&quot;&gt;Sanjay Gupta&lt;/a&gt;``);
#: read as markup only when a closing tag shows it is (an element's name, as in "<div>: the
#: content division element", is text)
_CLOSING_TAG = re.compile(r"</[A-Za-z][A-Za-z0-9]*\s*>")
_TAG = re.compile(r"</?[A-Za-z][A-Za-z0-9]*(?:\s[^<>]*)?/?>")


def _clean(value: Any, limit: int = 1000) -> str | None:
    """A string value folded to one line, character references read, or None when it is not
    a non-empty string."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        value = str(value)
    if not isinstance(value, str):
        return None
    value = value[: limit * 4]
    if "&" in value and _ENTITY.search(value):
        value = unescape(value)
        if _CLOSING_TAG.search(value):
            value = _TAG.sub(" ", value)
    value = _WS.sub(" ", value).strip()
    return value[:limit] or None


def _words(text: str) -> list[str]:
    return _WORD.findall(text.lower())


def _overlap(a: str, b: str) -> float:
    """Token F1 of two strings (lower-cased ``\\w+``, multiset)."""
    ta, tb = _words(a), _words(b)
    if not ta or not tb:
        return 0.0
    rest = list(tb)
    m = 0
    for t in ta:
        if t in rest:
            rest.remove(t)
            m += 1
    return 2 * m / (len(ta) + len(tb))


def _is_url(text: str) -> bool:
    return text.startswith(("http://", "https://", "//", "www.")) or ("/" in text and " " not in text)


# --- JSON-LD ----------------------------------------------------------------------------

_ARTICLE_TYPES = ("article", "posting", "report", "review", "recipe", "howto", "question", "creativework")
_PAGE_TYPES = ("webpage", "itempage", "aboutpage", "profilepage", "collectionpage", "qapage", "mediaobject",
               "videoobject")


def _types(obj: dict[str, Any]) -> list[str]:
    t = obj.get("@type")
    if isinstance(t, str):
        return [t.rsplit("/", 1)[-1].lower()]
    if isinstance(t, list):
        return [x.rsplit("/", 1)[-1].lower() for x in t[:10] if isinstance(x, str)]
    return []


def _rank(obj: dict[str, Any]) -> int:
    """0 for an article-like object, 1 for a page-like one, 2 otherwise."""
    types = _types(obj)
    if any(k in t for t in types for k in _ARTICLE_TYPES):
        return 0
    if any(t in _PAGE_TYPES for t in types):
        return 1
    return 2


def _jsonld_objects(scripts: Iterable[str]) -> list[dict[str, Any]]:
    """Every JSON object with an ``@type`` in the page's JSON-LD scripts, within the reading bounds."""
    out: list[dict[str, Any]] = []
    budget = MAX_JSONLD_NODES
    for raw in scripts:
        if not raw.strip() or len(raw) > MAX_JSONLD_CHARS:
            continue
        # the JSON proper, without wrappers such as <![CDATA[ ... ]]>, <!-- ... --> or a trailing ';'
        raw = raw.replace("<![CDATA[", "").replace("]]>", "")
        start = min((i for i in (raw.find("{"), raw.find("[")) if i >= 0), default=-1)
        end = max(raw.rfind("}"), raw.rfind("]"))
        if start < 0 or end < start:
            continue
        try:
            data = json.loads(raw[start:end + 1])
        except (ValueError, RecursionError):
            continue
        stack: list[tuple[Any, int]] = [(data, 0)]
        while stack and budget > 0:
            value, depth = stack.pop()
            budget -= 1
            if depth > MAX_JSONLD_DEPTH:
                continue
            if isinstance(value, dict):
                if "@type" in value:
                    out.append(value)
                stack.extend((v, depth + 1) for v in reversed(list(value.values())[:200])
                             if isinstance(v, (dict, list)))
            elif isinstance(value, list):
                stack.extend((v, depth + 1) for v in reversed(value[:200]) if isinstance(v, (dict, list)))
    return out


def _names(value: Any, ids: dict[str, dict[str, Any]], limit: int = 10) -> list[str]:
    """Names in a JSON-LD person/organisation value: a string, an object, a reference or a list."""
    out: list[str] = []
    items = value[:limit] if isinstance(value, list) else [value]
    for item in items:
        if isinstance(item, dict):
            if "name" not in item and isinstance(item.get("@id"), str) and item["@id"] in ids:
                item = ids[item["@id"]]
            name = item.get("name")
            if isinstance(name, list):
                name = name[0] if name else None
            if isinstance(name, dict):
                name = name.get("@value")
            if name is None and ("givenName" in item or "familyName" in item):
                name = f"{_clean(item.get('givenName')) or ''} {_clean(item.get('familyName')) or ''}"
            text = _clean(name, 200)
        else:
            text = _clean(item, 200)
        if text and not _is_url(text) and text not in out:
            out.append(text)
    return out


def _terms(value: Any) -> list[str]:
    """Keywords or sections: a comma-separated string or a list of strings."""
    if isinstance(value, str):
        parts: Iterable[Any] = value.split(",")
    elif isinstance(value, list):
        parts = value[: MAX_TERMS * 2]
    else:
        return []
    out = []
    for p in parts:
        if isinstance(p, dict):
            p = p.get("name")
        t = _clean(p, _MAX_TERM_CHARS)
        if t and t not in out:
            out.append(t)
    return out[:MAX_TERMS]


def _jsonld(scripts: Iterable[str]) -> dict[str, Any]:
    """The fields JSON-LD gives, from its best-ranked object that has each."""
    objs = _jsonld_objects(scripts)
    if not objs:
        return {}
    ids = {o["@id"]: o for o in objs if isinstance(o.get("@id"), str)}
    found: dict[str, Any] = {}
    for obj in sorted(objs, key=_rank):  # stable: document order within a rank
        rank = _rank(obj)
        types = _types(obj)
        if rank < 2:
            for key, field in (("headline", "title"), ("datePublished", "date"), ("dateModified", "modified"),
                               ("description", "description"), ("inLanguage", "lang")):
                if field not in found:
                    v = _clean(obj.get(key), 2000)
                    if v:
                        found[field] = v
            if "title" not in found and rank == 0:
                v = _clean(obj.get("name"), 2000)
                if v:
                    found["title"] = v
            if "author" not in found:
                # each name cleaned as a byline is ("By Ana Lopez, Staff Writer" gives "Ana Lopez")
                names = list(dict.fromkeys(_author_text(n) or n for n in
                                           _names(obj.get("author") or obj.get("creator"), ids)))
                if names:
                    found["author"] = ", ".join(names)
            if "sitename" not in found:
                names = _names(obj.get("publisher"), ids, 1)
                if names:
                    found["sitename"] = names[0]
            if "categories" not in found:
                found["categories"] = _terms(obj.get("articleSection"))
            if "tags" not in found:
                found["tags"] = _terms(obj.get("keywords"))
            if "url" not in found and rank == 0:
                v = _clean(obj.get("url"), 2000)
                if v:
                    found["url"] = v
        elif "website" in types and "sitename" not in found:
            v = _clean(obj.get("name"), 200)
            if v:
                found["sitename"] = v
    for key in ("categories", "tags"):
        if not found.get(key):
            found.pop(key, None)
    return found


# --- meta tags --------------------------------------------------------------------------

#: a page that types more products than this lists them (a shop's category, a buyers' guide)
MAX_PAGE_PRODUCTS = 3
#: microdata items typed as a product (or a product group, a product model)
_PRODUCT_ITEMTYPE = "//@itemtype[contains(translate(., 'PRODUCT', 'product'), 'schema.org/product')]"


def product_page(root: etree._Element) -> bool:
    """Whether the page offers one product: ``og:type`` says ``product``, or (unless it says
    ``article`` or another kind of page) its JSON-LD or microdata types a product group or up to
    `MAX_PAGE_PRODUCTS` products. Read as `page_metadata` reads the page (`_scan`,
    `_jsonld_objects`); never raises."""
    try:
        scan = _scan(root)
        kind = next(iter(scan.metas.get("og:type", ())), "").strip().lower().removeprefix("og:")
        if kind.startswith("product"):
            return True
        if kind in ("article", "blog", "book", "profile") or kind.startswith(("video", "music")):
            return False
        kinds = [t for obj in _jsonld_objects(scan.jsonld) for t in _types(obj)]
        typed = root.xpath(_PRODUCT_ITEMTYPE)
        kinds += [str(t).strip().rsplit("/", 1)[-1].lower() for t in (typed if isinstance(typed, list) else ())]
    except Exception:  # a page it cannot read offers nothing: its reviews stay to the model
        log.debug("product markup could not be read", exc_info=True)
        return False
    return "productgroup" in kinds or 0 < kinds.count("product") <= MAX_PAGE_PRODUCTS



@dataclass
class _Scan:
    """What one pass over the tree's ``meta``, ``script``, ``time`` and ``h1`` elements found."""

    metas: dict[str, list[str]]
    http_lang: str | None
    jsonld: list[str]
    times: list[etree._Element]
    h1: list[etree._Element]


def _scan(root: etree._Element) -> _Scan:
    """``<meta>`` contents by lower-cased name, property or itemprop, and the other elements read here.

    One pass of lxml's own iterator over the whole tree; everything else is read from what it found.
    """
    out = _Scan({}, None, [], [], [])
    metas = out.metas
    for el in root.iter("meta", "script", "time", "h1"):
        tag = el.tag
        if tag == "meta":
            content = el.get("content")
            if content is None:
                continue
            equiv = el.get("http-equiv")
            if equiv and equiv.lower() == "content-language":
                out.http_lang = content
                continue
            for attr in ("property", "name", "itemprop"):
                key = el.get(attr)
                if key:
                    for k in key.lower().split()[:3]:
                        vals = metas.setdefault(k, [])
                        if len(vals) < MAX_TERMS:
                            vals.append(content)
        elif tag == "script":
            if "ld+json" in (el.get("type") or "").lower() and el.text and len(out.jsonld) < 20:
                out.jsonld.append(el.text)
        elif tag == "time":
            if len(out.times) < 50 and el.get("datetime"):
                out.times.append(el)
        elif len(out.h1) < 3:
            out.h1.append(el)
    return out


def _meta_author(metas: dict[str, list[str]]) -> str | None:
    """The first author ``<meta>`` that reads as a name (not a link, not empty).

    Citation and Dublin Core metadata give one element per author, written "Family, Given":
    all of them are read (up to `MAX_LISTED_AUTHORS`), each as "Given Family" (``DC.Creator``
    "Doe, Jane" and "Roe, John" give "Jane Doe, John Roe"). Other author ``<meta>`` elements
    beyond the first are as often a photo credit or the site as a second author.
    """
    for key in _AUTHOR_KEYS:
        names: list[str] = []
        for v in metas.get(key, ()):
            text = _clean(v, 2000)
            name = _author_text(text) if text and not _is_url(text) else None
            if name and key not in _LISTED_AUTHOR_KEYS:
                return name
            if name and _given_family(name) not in names:
                names.append(_given_family(name))
                if len(names) == MAX_LISTED_AUTHORS:
                    break
        if names:
            return ", ".join(names)
    return None


#: the author ``<meta>`` elements that list every author, one element each
_LISTED_AUTHOR_KEYS = frozenset({"citation_author", "dc.creator", "dcterms.creator"})
#: at most this many of them are read
MAX_LISTED_AUTHORS = 10
#: what after a comma is a degree or a suffix, not the given name: "Brenda Goodman, MA"
_DEGREE = re.compile(r"(?:m\.?a|m\.?d|ph\.?d|m\.?sc?|b\.?sc?|b\.?a|mba|mph|rn|do|jr|sr|ii|iii|iv)\.?", re.IGNORECASE)


def _given_family(name: str) -> str:
    """A name written "Family, Given" turned to "Given Family" ("Doe, Jane A." gives "Jane A.
    Doe"); a name with a degree or job after its comma, with several commas, or before its
    comma no family name of at most three words ("Department of Primary Industries,
    Queensland") is kept."""
    parts = name.split(",")
    if len(parts) != 2:
        return name
    family, given = parts[0].strip(), parts[1].strip()
    if (not family or not given or len(family.split()) > 3 or not _looks_like_name(family)
            or _DEGREE.fullmatch(given) or _JOB.search(given)):
        return name
    return f"{given} {family}"


def _first_meta(metas: dict[str, list[str]], keys: Sequence[str], *, no_url: bool = False) -> str | None:
    for key in keys:
        for v in metas.get(key, ()):
            text = _clean(v, 2000)
            if text and not (no_url and _is_url(text)):
                return text
    return None


_TITLE_KEYS = ("og:title", "twitter:title", "dc.title", "headline")
_AUTHOR_KEYS = ("author", "article:author", "dc.creator", "dcterms.creator", "byl", "parsely-author",
                "sailthru.author", "citation_author", "book:author", "og:article:author", "creator")
_DATE_KEYS = ("article:published_time", "og:article:published_time", "datepublished", "og:published_time",
              "published_time", "article.published", "dc.date.issued", "dcterms.issued", "dc.date",
              "dcterms.date", "dcterms.created", "dc.date.created", "date", "pubdate", "publishdate",
              "publish-date", "publish_date", "sailthru.date", "parsely-pub-date", "citation_publication_date",
              "citation_date", "release_date", "displaydate", "originalpublicationdate")
_MODIFIED_KEYS = ("article:modified_time", "og:updated_time", "datemodified", "og:article:modified_time",
                  "dcterms.modified", "dc.date.modified", "last-modified", "lastmod", "article.updated")
_DESC_KEYS = ("og:description", "description", "twitter:description", "dc.description")
_SITE_KEYS = ("og:site_name", "application-name", "apple-mobile-web-app-title", "publisher", "dc.publisher")
_LANG_KEYS = ("og:locale", "language", "dc.language", "content-language", "inlanguage")


# --- dates ------------------------------------------------------------------------------

_URL_DATE = re.compile(r"/((?:19|20)\d\d)[/-](0?[1-9]|1[0-2])[/-](0?[1-9]|[12]\d|3[01])(?:/|[-_]|$)")
_DEFAULT_DAY = datetime(2000, 1, 1)


def _parse_date(text: str | None) -> str | None:
    """ISO 8601 for a date string (the page's own local time and offset kept), None when unreadable.

    Only dates from 1990 to 2100 are taken; a date without a time is given as ``YYYY-MM-DD``.
    """
    text = _clean(text, 80)
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


def _url_date(url: str | None) -> str | None:
    if not url:
        return None
    try:
        m = _URL_DATE.search(urlsplit(url).path)
    except ValueError:  # a malformed address
        return None
    if not m:
        return None
    try:
        return date(int(m.group(1)), int(m.group(2)), int(m.group(3))).isoformat()
    except ValueError:
        return None


def _time_element(times: Sequence[etree._Element]) -> str | None:
    """The ``datetime`` of a ``<time pubdate>``, else of the first ``<time datetime>`` that parses."""
    first = None
    for el in times:
        value = el.get("datetime")
        if not value:
            continue
        if el.get("pubdate") is not None or "published" in (el.get("class") or "").lower():
            parsed = _parse_date(value)
            if parsed:
                return parsed
        if first is None:
            first = _parse_date(value)
    return first


# --- microdata and the page's own text ---------------------------------------------------

#: how many levels above the first <h1> the headline's surroundings reach (its header, its article)
NEAR_HEADLINE_LEVELS = 4
#: the surroundings stop growing at this many elements, so that searching them stays cheap
NEAR_HEADLINE_MAX_ELEMENTS = 250
#: the blocks after the first <h1> looked at for a "By Jane Doe" line
BY_BLOCKS_AFTER_H1 = 5
#: the links near the headline looked at for a "by" just before them (a byline sits near the top)
MAX_BY_LINKS = 40
_BYLINE_TOKENS = frozenset({"byline", "author", "authors", "byl", "writer", "autor", "auteur"})
_MONTH = r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?"
#: a date written out in a byline: ISO, "12 March 2026", "March 12, 2026"
_TEXT_DATE = re.compile(rf"\b(?:(?:19|20)\d\d-\d\d-\d\d|\d{{1,2}}\.?\s+{_MONTH}\s+(?:19|20)\d\d"
                        rf"|{_MONTH}\s+\d{{1,2}}(?:st|nd|rd|th)?,?\s+(?:19|20)\d\d)\b", re.IGNORECASE)
_BY_PREFIX = re.compile(r"^(?:by|from|par|von|por|door|di|av|af|autor|auteur"
                        r"|(?:written|posted|published|words|text|story|reported|reporting|analysis|commentary|"
                        r"opinion|review|interview|column|essay)\s+by)\s*:?(?:\s+|$)",
                        re.IGNORECASE)
#: a byline's name ends where a date, a separator, a second line, an editor's credit or a bio sentence starts
_NAME_END = re.compile(r"\s[-|•·–—/»]\s|[|•·»\n]|\b\d|\b(?:updated|published|posted)(?:\s|$)|\b(?:on|am|um|le|el|il)\s"
                       r"|\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?\s+\d"
                       r"|\b(?:edited|reviewed|photos?|photographs?|illustrations?|illustrated|translated|"
                       r"fact[- ]checked|additional reporting|reporting)\s+by\b"
                       r"|\s(?:is|was)\s(?:a|an|the)\s|\babout\s(?:the\s)?author\b"
                       # a desk's or an agency's share: "Jane Doe and agencies", "Special to The Star"
                       r"|\s(?:and|&|with)\s+(?:agencies|wires|wire\s+services|news\s+agencies)\b|\sspecial\s+to\b",
                       re.IGNORECASE)
#: where the reporter was, after the name: "Jane Doe in Karachi"
_PLACE = re.compile(r"\s+in\s+(?=[A-Z])")
#: the address of an author's page
_AUTHOR_HREF = re.compile(r"/(?:authors?|writers?|contributors?|columnists?|journalists?|reporters?)/[^/?#]+"
                          r"|[?&]author=[^&#]", re.IGNORECASE)
#: a "by" that a link to the author follows
_ENDS_WITH_BY = re.compile(r"(?<!\w)(?:by|von|par|por|door)\s*:?\s*$", re.IGNORECASE)
_NOT_NAME = re.compile(r"https?://|@\w+\.\w|\bfollow\b|\bcomments?\b|\bshare\b|\bnote\b|\bview\b|\bupdated\b"
                       r"|\bmin(?:ute)?s?\.?\s+read\b|\w\(|\brequired\b", re.IGNORECASE)
#: a contact written after the name: "(http://ebb.org/bkuhn/)", "<ana@example.org>", a bare address
_CONTACT = re.compile(r"[(<\[]\s*(?:mailto:)?(?:https?://|www\.|[\w.+-]+@)[^)>\]]*[)>\]]"
                      r"|(?:mailto:)?[\w.+-]+@[\w-]+\.[\w.-]+|https?://\S+", re.IGNORECASE)
_MONTHS = (r"(?:january|february|march|april|may|june|july|august|september|october|november|december"
           r"|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec)\.?(?!\w)")
_WEEKDAYS = r"(?:mon|tues?|wed(?:nes)?|thu(?:rs)?|fri|sat(?:ur)?|sun)(?:day)?\.?(?!\w)"
_ZONES = r"(?:utc|gmt|[ecmp][sd]t|bst|cest?|eest?|ist|jst|aest|aedt)"
#: a date or time a byline starts with: "2024 September 12 · Jane Doe", "12/03/2024 at 9:30 am by Jane Doe"
_LEAD_DATE = re.compile(rf"^(?:[\d\s.,:/|•·–—()-]|{_MONTHS}|{_WEEKDAYS}|(?:at|on|am|pm|a\.m\.|p\.m\.|{_ZONES})(?!\w))+",
                        re.IGNORECASE)
#: a "by" inside a byline, the name after it: "Posted on March 3, 2024 by Jane Doe"
_INNER_BY = re.compile(r"(?:^|\s)(?:by|von|par|por|door)\s+(?=\w)", re.IGNORECASE)
#: what may stand before that "by" for the name to follow it: dates, times and the verbs around them
_BEFORE_BY = re.compile(rf"(?:[\d\s.,:/|•·–—()-]|{_MONTHS}|{_WEEKDAYS}|(?:posted|published|written|updated|"
                        rf"last|first|originally|story|article|entry|post|this|was|on|at|am|pm|ago|hours?|minutes?|"
                        rf"days?|weeks?|months?|years?|today|yesterday)(?!\w))*", re.IGNORECASE)
#: a part after a comma that is a job, a desk or an agency, not another name: "Jane Doe, Senior Editor"
_JOB = re.compile(r"\b(?:editor|editorial|reporter|correspondent|columnist|contributor|contributing|journalist|"
                  r"writer|producer|photographer|critic|analyst|staff|senior|chief|freelance|intern|professor|"
                  r"director|president|founder|co-founder|ceo|cto|cfo|manager|officer|fellow|researcher|engineer|head\s+of|"
                  r"developer|scientist|student|host|anchor|bureau|desk|team|news|press|agency|wire|magazine|"
                  r"newspaper|times|post|journal|tribune|herald|reuters|afp|university|college|institute|school|"
                  r"hospital|inc|ltd|llc|corp|corporation|company)s?\b", re.IGNORECASE)
#: what alone is a role or a section's name, not the author: "Staff", "Columnists"
_ROLE_ONLY = re.compile(r"(?:staff|admin|administrator|editors?|authors?|writers?|columnists?|contributors?|"
                        r"reporters?|correspondents?|journalists?|bloggers?|guest|anonymous|unknown"
                        # a label that names no one: "About the author", "Posted on", "More from"
                        r"|about\s+(?:the\s+)?authors?|(?:posted|written|published)(?:\s+(?:on|in|at))?"
                        r"|more\s+from|show\s+more|read\s+more|(?:all\s+|more\s+)?posts(?:\s+by\s+author)?)",
                        re.IGNORECASE)
#: a job title written right after the name, without a comma: "Jane Doe Senior Editor"
_JOB_AFTER_NAME = re.compile(r"\s(?:(?:senior|chief|staff|contributing|freelance|associate|managing|executive|"
                             r"deputy|education|science|health|political|politics|business|technology|tech|sports?|"
                             r"crime|legal|arts?|music|film|food|travel|environment(?:al)?|economics|economy|"
                             r"foreign|national|world|local|medical|security|defen[cs]e|energy|climate|markets?|"
                             r"financial|finance|entertainment|fashion|style)\s+)*"
                             r"(?:editor|reporter|correspondent|columnist|contributor|journalist|"
                             r"staff writer|staff reporter)\b.*$", re.IGNORECASE)
#: what a name is written with besides letters and spaces
_NAME_PUNCT = frozenset(".,'’‘-‐()&/")


def _near_headline(h1: etree._Element | None) -> list[etree._Element]:
    """The elements around the headline: its ``<h1>``'s ancestor up to `NEAR_HEADLINE_LEVELS` up.

    Bylines and dates sit next to the headline; searching its surroundings instead of the
    whole tree keeps the search cheap and keeps sidebars' and teasers' authors out.
    """
    if h1 is None:
        return []
    box = h1
    for _ in range(NEAR_HEADLINE_LEVELS):
        up = box.getparent()
        if up is None or up.tag in ("body", "html"):
            break
        if len(list(islice(up.iter(), NEAR_HEADLINE_MAX_ELEMENTS + 1))) > NEAR_HEADLINE_MAX_ELEMENTS:
            break
        box = up
    near = list(box.iter())
    # the byline may follow the headline's box rather than sit in it
    for n, sib in enumerate(box.itersiblings()):
        if n == 3:
            break
        near.extend(islice(sib.iter(), NEAR_HEADLINE_MAX_ELEMENTS // 4))
    return near


def _author_link(el: etree._Element) -> bool:
    """Whether an element is a link to its author's page: ``rel="author"``, or an address like ``/author/ana-lopez``."""
    if el.tag != "a":
        return False
    if "author" in (el.get("rel") or "").lower().split():
        return True
    return bool(_AUTHOR_HREF.search(el.get("href") or ""))


def _text_of(el: etree._Element) -> str:
    return " ".join(" ".join(el.itertext()).split()[:40])


def _box_name(el: etree._Element) -> str | None:
    """The author named by a byline box or author link.

    In a box: its ``itemprop="name"``, else the links in it to author pages when there are
    several ("By <a>Ana Lopez</a> and <a>Ben Ode</a>" gives both), else its first link that
    reads as a name, else its text. An author link brings the author links beside it.
    """
    name_el = next((c for c in el.iter() if c.get("itemprop") == "name"), None)
    if name_el is not None:
        return _author_text(name_el.get("content") or _text_of(name_el))
    if el.tag == "a":
        parent = el.getparent()
        links = [el] if parent is None else [a for a in islice(parent.iterchildren("a"), 10) if _author_link(a)]
    else:
        links = [a for a in islice(el.iter("a"), 20) if _author_text(_text_of(a))]
        authored = [a for a in links if _author_link(a)]
        links = authored if len(authored) >= 2 else links[:1]
    if not links:
        return _author_text(el.get("content") or _text_of(el))
    names: list[str] = []
    for a in links:
        name = _author_text(_text_of(a))
        if name and name not in names:
            names.append(name)
    if names:
        names.extend(n for n in _co_authors(links[-1]) if n not in names)
    return ", ".join(names) or None


#: what joins an author's link to more authors written after it: "and", "with", "avec"... (not a
#: comma: what follows one is as often the author's desk or site, "<a>Jane Doe</a>, Town Sports")
_CO_AUTHORS = re.compile(r"^\s*\(?\s*(?:&|(?:and|with|avec|et|und|mit|y|e|con|com|met|en)\s)\s*", re.IGNORECASE)


def _co_authors(link: etree._Element) -> list[str]:
    """The names written after an author's link, not linked themselves: ``<a>Ana Lopez</a> and
    Ben Ode``, ``<a>Ana Lopez</a> (with Ben Ode and Cleo Park)`` (sites link only their staff's
    pages). Words that are no names ("and agencies", "with additional reporting") give none."""
    tail = (link.tail or "")[:200]
    m = _CO_AUTHORS.match(tail)
    if not m:
        return []
    rest = tail[m.end():]
    if tail.lstrip().startswith("("):
        rest = rest.split(")", 1)[0]
    name = _author_text(rest)
    if not name or not _looks_like_name(name) or _JOB.search(name):
        return []
    return [n.strip() for n in _NAME_JOIN.split(name) if n.strip()]


def _near_fields(near: Sequence[etree._Element], want_date: bool = True
                 ) -> tuple[dict[str, str], list[etree._Element]]:
    """Author and dates near the headline from microdata, ``rel=author`` links and byline
    boxes, in that order, and the date of an element marked as one (when ``want_date``: the
    page gave none elsewhere); and the other links there, for `_linked_author`."""
    found: dict[str, str] = {}
    authors: list[tuple[int, int, etree._Element]] = []
    links: list[etree._Element] = []
    for n, el in enumerate(near):
        attrib = el.attrib
        if not attrib or el.tag in ("script", "style", "meta", "link"):
            continue
        prop = attrib.get("itemprop")
        if prop in ("datePublished", "dateModified"):
            key = "date" if prop == "datePublished" else "modified"
            if key not in found:
                v = _parse_date(el.get("content") or el.get("datetime") or "".join(el.itertext())[:100])
                if v:
                    found[key] = v
            continue
        if prop and "author" in prop.split():
            authors.append((0, n, el))
        elif el.tag == "a" and "author" in (attrib.get("rel") or "").lower().split():
            authors.append((1, n, el))
        else:
            marks = f"{attrib.get('class') or ''} {attrib.get('id') or ''}".lower()
            if _comment_mark(marks):  # a comment's author ("comment-author") is not the page's
                continue
            if want_date and "marked_date" not in found and _date_mark(marks):
                _put_marked_date(found, el)
            if "byline" in marks:
                authors.append((2, n, el))
            elif "author" in marks:
                authors.append((3, n, el))
            elif el.tag == "a":
                links.append(el)
    for _, _, el in sorted(authors, key=lambda t: t[:2])[:40]:
        if not _in_comment(el) and _put_author(found, el):
            break
    return found, links


#: class or id words of an element that holds the page's date: "date", "post-date", "pageDate",
#: "published", "posted", "timestamp", "dateline" (not "updated")
_DATE_MARK = re.compile(r"(?:^|[^a-z])(?:[a-z]*(?<!up)date|published|posted|timestamp|dateline)(?:[^a-z]|$)")
#: words that make it another date: a change's, a person's or an event's ("moddate", "bday dtstart")
_OTHER_DATE = re.compile(r"modif|updat|bday|birth|death|dtstart|dtend|event|expir|deadline")


def _date_mark(marks: str) -> bool:
    """Whether class or id words mark the page's date (`_DATE_MARK`, not `_OTHER_DATE`); most
    elements' marks hold none of its words, which a substring test tells first."""
    return (("date" in marks or "publish" in marks or "posted" in marks or "timestamp" in marks)
            and _DATE_MARK.search(marks) is not None and not _OTHER_DATE.search(marks))


def _put_marked_date(found: dict[str, str], el: etree._Element) -> None:
    """Put the date a short element marked as a date writes (``<p class="date">November 12,
    2012</p>``, ``<span class="post-date">``) into ``found``: blogs write their post's date so,
    without ``<time>`` or metadata. A box that holds more (over 80 characters, or 12 pieces of
    text) is no date's element, and is not read through."""
    pieces = list(islice(el.itertext(), 13))
    text = " ".join(" ".join(pieces).split())
    if len(pieces) > 12 or len(text) > 80:
        return
    m = _TEXT_DATE.search(text)
    written = _parse_date(m.group(0)) if m else None
    if written:
        found["marked_date"] = written


def _put_author(found: dict[str, str], el: etree._Element) -> bool:
    """Put the author a byline box or link names into ``found``, with a date its text gives
    ("By Ada Marsh · 12 March 2026 · 6 min read"); False when it names none."""
    name = _box_name(el)
    if not name:
        return False
    found["author"] = name
    if "date" not in found:
        m = _TEXT_DATE.search(_text_of(el))
        written = _parse_date(m.group(0)) if m else None
        if written:
            found["text_date"] = written
    return True


def _linked_author(found: dict[str, str], links: Sequence[etree._Element]) -> bool:
    """The author named by a link to an author's page, else by a link right after a "by"."""
    by_href = (a for a in links if _AUTHOR_HREF.search(a.get("href") or ""))
    after_by = (a for a in islice(links, MAX_BY_LINKS) if _by_before(a))
    return any(not _in_comment(el) and _put_author(found, el) for el in chain(by_href, after_by))


#: how many levels above a byline a comment's box is looked for
COMMENT_LEVELS = 5


def _comment_mark(marks: str) -> bool:
    """Whether class or id tokens mark a comment: one starts with ``comment`` (``comment``,
    ``comment-author``, ``commentlist``; not ``contributor-and-comments``, a box that holds
    the byline beside the comments' counter)."""
    marks = marks.lower()
    return "comment" in marks and _comment_token(marks.split())


def _comment_token(tokens: Iterable[str]) -> bool:
    """Whether one of an element's class or id tokens starts with ``comment``."""
    return any(t.startswith("comment") for t in tokens)


def _in_comment(el: etree._Element) -> bool:
    """Whether an element is in a comment: it or one of its `COMMENT_LEVELS` nearest ancestors
    is marked as one (`_comment_mark`: ``<li class="comment">``, ``<p class="comment-data">By
    <a>Ana</a></p>``). A comment's author is not the page's."""
    node: etree._Element | None = el
    for _ in range(COMMENT_LEVELS + 1):
        if node is None or not isinstance(node.tag, str):
            return False
        if _comment_mark(f"{node.get('class') or ''} {node.get('id') or ''}"):
            return True
        node = node.getparent()
    return False


def _text_before(el: etree._Element) -> str:
    """The text just before an element, looked for up to three levels up
    (``<span>by</span> <h3><a>Ana Lopez</a></h3>`` gives ``"by"``)."""
    node = el
    for _ in range(3):
        prev = node.getprevious()
        if prev is not None:
            text = prev.tail or ""
            if not text.strip() and isinstance(prev.tag, str):
                text = " ".join(list(islice(prev.itertext(), 50))[-3:])
            return text
        parent = node.getparent()
        if parent is None:
            return ""
        if parent.text and parent.text.strip():
            return parent.text
        node = parent
    return ""


def _by_before(el: etree._Element) -> bool:
    """Whether a "by" stands right before an element, with nothing before it but dates and
    "posted", "written"... ("Posted on 3 March by <a>", not "Portrait by <a>": a credit)."""
    before = _text_before(el)[-120:]
    m = _ENDS_WITH_BY.search(before)
    return m is not None and _BEFORE_BY.fullmatch(before[:m.start()]) is not None


def _handle(name: str | None) -> bool:
    """Whether an author is a user name rather than a person's name: one word with a digit, an
    underscore or an ``@`` ("CC7567", "@ana_l")."""
    return name is not None and " " not in name and any(c.isdigit() or c in "_@" for c in name)


_NAME_JOIN = re.compile(r",|\s(?:and|und|et|y|e|&)\s", re.IGNORECASE)


def _few_words(text: str) -> bool:
    """Whether a text is short enough for a name: at most six words, or several names of at
    most five words each joined by commas or "and" ("Ana de la Cruz and Ben Ode")."""
    if len(text.split()) <= 6 and len(text) <= 80:
        return True
    names = _NAME_JOIN.split(text)
    return len(names) <= 6 and all(1 <= len(n.split()) <= 5 for n in names)


def _author_text(text: str | None) -> str | None:
    """A plausible author name from a byline string: the "By" prefix and what follows the name dropped.

    A date or time before the name goes, as does a contact after it (a link or an e-mail
    address), an editor's or photographer's credit, a bio sentence ("... is a senior
    reporter"), and job titles or agencies after a comma ("Jane Doe, Staff Writer").
    None when what is left does not look like a name (a link, a counter, a call to action,
    mostly symbols, too long).
    """
    if not isinstance(text, str):
        return None
    text = _CONTACT.sub(" ", text[:300]).strip()
    text = _BY_PREFIX.sub("", text)
    if text[:1].isdigit() or _TEXT_DATE.match(text):
        rest = _LEAD_DATE.sub("", text)
        lead = len(text) - len(rest)
        if not (lead and text[lead - 1].isalnum() and rest[:1].isalnum()):  # "37signals" is a name
            text = rest
    for m in _INNER_BY.finditer(text):
        if m.start() > 0 and _BEFORE_BY.fullmatch(text[:m.start()]):
            text = text[m.end():]
        break
    if len(text.split()) > 1:  # a single word is a name or a handle ("CC7567"), kept whole
        cut = _NAME_END.search(text)
        if cut and cut.start() > 0:
            text = text[:cut.start()]
        place = _PLACE.search(text)
        if place and len(text[:place.start()].split()) >= 2:  # one word before it is a title's: "Stories in Focus"
            text = text[:place.start()]
    text = _clean(text, 120)
    if not text:
        return None
    words = text.split()
    half = len(words) // 2
    if half and len(words) % 2 == 0 and [w.casefold() for w in words[:half]] == [w.casefold() for w in words[half:]]:
        text = " ".join(words[:half])  # written twice: the byline's words and a hidden copy for microformats
    text = _BY_PREFIX.sub("", text).strip(" |,;:-–—@／")
    parts = [p.strip() for p in text.split(",")]
    if len(parts) > 1:
        text = ", ".join(p for i, p in enumerate(parts)
                         if p and (i == 0 or not (_JOB.search(p) or _ROLE_ONLY.fullmatch(p))))
    if len(text.split()) > 2:
        text = _JOB_AFTER_NAME.sub("", text).strip(" ,") or text
    if not text or _NOT_NAME.search(text) or _is_url(text) or len(text) > 160 or not _few_words(text):
        return None
    if _ROLE_ONLY.fullmatch(text):
        return None
    if not any(c.isalpha() for c in text):
        return None
    odd = sum(1 for c in text if not (c.isalnum() or c.isspace() or c in _NAME_PUNCT))
    if odd > 0.2 * len(text):  # "*****Notes*****"
        return None
    return text


def _byline(blocks: Sequence[Block]) -> str | None:
    """The first short block whose element or near ancestors are a byline or author box (not a
    comment's: ``<dt class="comment-author">Ana said...</dt>``)."""
    for b in blocks[:400]:
        tokens = b.tokens[-6:]
        if (not b.hidden and len(b.text) <= 120 and _BYLINE_TOKENS.intersection(tokens)
                and not _comment_token(tokens)):
            name = _author_text(b.text)
            if name:
                return name
    return None


#: a byline block without a class: "By Jane Doe" (not "By the numbers", "By 2030, ...")
_BY_LINE = re.compile(r"^(?:by|written by|words by|text by|story by)\s*:?\s+\S", re.IGNORECASE)
#: words a name may hold in lower case
_NAME_PARTICLES = frozenset("and und et y e de del della der den di da do dos du la le van von bin ibn al zu".split())


def _looks_like_name(text: str) -> bool:
    """Whether no word of a text starts in lower case but particles ("Ana de la Cruz and Ben Ode")."""
    words = text.replace(",", " ").split()
    return bool(words) and all(not w[0].islower() or w.lower() in _NAME_PARTICLES for w in words)


def _by_block(blocks: Sequence[Block]) -> str | None:
    """A short "By Jane Doe" block among the few right after the page's first ``<h1>``."""
    start = next((i for i, b in enumerate(blocks[:600]) if b.heading_level == 1 and not b.hidden), None)
    if start is None:
        return None
    for b in blocks[start + 1:start + 1 + BY_BLOCKS_AFTER_H1]:
        if not b.hidden and len(b.text) <= 100 and _BY_LINE.match(b.text):
            name = _author_text(b.text)
            if name and _looks_like_name(name):
                return name
    return None


# --- headline ---------------------------------------------------------------------------

#: an <h1> of at most this many words that is not the headline may be the site's logo
MAX_LOGO_WORDS = 6

def _site_like(part: str, sitename: str | None, domain: str | None, logos: Sequence[str] = ()) -> bool:
    """Whether a title part names the site: its site name, its domain's name, or a logo ``<h1>``
    (most of whose words the part holds: ``"My Hero Academia [Archive of Our Own]"`` beside
    the h1 ``"Archive of Our Own beta"``)."""
    words = _words(part)
    if not words:
        return True
    if _is_host(part):
        return True
    if sitename and (_overlap(part, sitename) >= 0.5 or part.lower() in sitename.lower()):
        return True
    if domain:
        label = re.sub(r"\W", "", domain.lower())
        squeezed = "".join(words)
        if squeezed and (squeezed in label or label in squeezed):
            return True
    for logo in logos:
        logo_words = _words(logo)
        if logo_words and 4 * sum(w in words for w in logo_words) >= 3 * len(logo_words):
            return True
    return False


#: the endings of host names that name a site in a title: a country's, or one of the first
#: generic ones (``"celery.app.events"``, a module's name, ends in a newer one)
_HOST_END = re.compile(r"\.(?:[a-z]{2}|com|org|net|edu|gov|mil|int|info|biz)$")


def _is_host(part: str) -> bool:
    """Whether a title part is a host name (``"FOXNews.com"``): its site's name, whether or not
    the page says its address."""
    part = part.strip().lower()
    return _HOST_END.search(part) is not None and host_domain(part) is not None


def _names_site(text: str, sitename: str | None, domain: str | None) -> bool:
    """Whether a text is the site's name: its site name, a host name, or its domain's name with
    at most a short ending (``"TownDispatch"``, ``"TownDispatch.com"``), not a headline that
    holds it (``"TownDispatch wins a press award"``)."""
    if (sitename and _overlap(text, sitename) >= 0.9) or _is_host(text):
        return True
    if not domain:
        return False
    label = re.sub(r"\W", "", domain.lower())
    squeezed = "".join(_words(text))
    return bool(label) and squeezed.startswith(label) and len(squeezed) - len(label) <= 4


def _best_run(text: str, title: str, spans: Sequence[tuple[str, int, int]], sitename: str | None = None,
              domain: str | None = None, *, anywhere: bool = False, leading: bool = False,
              start: int = 0) -> tuple[int, int] | None:
    """The consecutive title parts a text is, as (first, end) part indices: the run most like it
    (token F1 at least 0.9; the earliest of equals) that does not name the site (`_names_site`).
    For an ``<h1>``, only runs that are the title's start or hold most of its words count (an
    h1 that is neither is a site's logo or a section's name); ``anywhere`` lifts that. The
    title's start is its part ``start``, after the site's name that some titles begin with.
    ``leading``: only runs from the title's start, up to twice the text's words (longer ones
    are less like it), so that a title of hundreds of parts costs no more than a few.

    The run most like the text, not the first one like it: ``"python - Why is X? - Town
    Answers"`` with the h1 ``"Why is X?"`` gives ``"Why is X?"``, not ``"python - Why is X?"``,
    which is nearly as like it.
    """
    parts = [p for p, _, _ in spans]
    n_title = len(_words(title))
    most_words = 2 * len(_words(text)) if leading else n_title
    best, where = 0.0, None
    for i in range(1 if leading else len(parts)):
        for j in range(i + 1, len(parts) + 1):
            run = " ".join(parts[i:j])
            n_run = len(_words(run))
            if leading and n_run > most_words:
                break
            score = _overlap(text, run)
            at_start = i == 0 or (i <= start and n_run > 1)  # not "Site - Shop"'s "Shop"
            if (score >= 0.9 and score > best and (anywhere or at_start or 2 * n_run >= n_title)
                    and not _names_site(run, sitename, domain)):
                best, where = score, (i, j)
    return where


def _h1_headline(title: str, spans: Sequence[tuple[str, int, int]], h1: Sequence[str], sitename: str | None = None,
                 domain: str | None = None) -> str | None:
    """The ``<h1>`` that is the title, or one or more consecutive parts of it (a site's logo h1,
    or one that is its site's name, is not).

    An ``<h1>`` that is the whole title or its start wins over one that is a later part: a
    documentation page's first ``<h1>`` may be its project's name, which ends the title. But a
    one-word ``<h1>`` at the title's start is as often the page's tag or section (``"backup -
    How to back up my system? - Town Answers"`` beside the h1 ``"Backup"``): it is the headline
    only when no other ``<h1>`` is one. A title that begins with its site's name (``"CNN.com -
    Rita growing weaker, slower - Sep 25, 2005"``) starts after it.
    """
    later = single = None
    start = 0
    while start < len(spans) - 1 and _names_site(spans[start][0], sitename, domain):
        start += 1
    for head in h1:
        if _overlap(head, title) >= 0.9:
            return head if len(head) <= len(title) else title
        run = _best_run(head, title, spans, sitename, domain, start=start)
        if run is None:
            continue
        i, j = run
        found = title[spans[i][1]:spans[j - 1][2]]
        if _words(head) == _words(found):
            found = head
        if i <= start and len(_words(found)) > 1:
            return found
        if i <= start:
            single = single or found
        else:
            later = later or found
    return later or single


#: blocks read for a headline set in a lesser heading or in bold, the headings and bold lines
#: among them tried, and the longest such text
_LEAD_BLOCKS = 400
_LEAD_TRIED = 20
_LEAD_CHARS = 300


def _lead_heading(title: str, blocks: Sequence[Block], sitename: str | None, domain: str | None) -> str | None:
    """The headline of a page with no ``<h1>`` to say it, when its title has more parts than it:
    the first title parts (two words or more) that an ``<h2>``–``<h6>`` or a wholly bold line
    says (``"Chelsea hoping to sign Anelka before weekend - Soccer - Sport - Belfast Telegraph"``
    beside the ``<h2>`` ``"Chelsea hoping to sign Anelka before weekend"``). Only a run from the
    title's start counts: a later part that a heading says is as often the page's section
    ("Soccer"). The first `_LEAD_TRIED` headings and bold lines are tried, each against the
    title's leading runs only (`_best_run`'s ``leading``)."""
    spans = title_parts(title)
    if len(spans) < 2:
        return None
    tried = 0
    for b in blocks[:_LEAD_BLOCKS]:
        if b.hidden or len(b.text) > _LEAD_CHARS:
            continue
        rich = b.rich
        if not (b.heading_level or (rich and rich.startswith("<strong>") and rich.endswith("</strong>"))):
            continue
        tried += 1
        if tried > _LEAD_TRIED:
            break
        run = _best_run(b.text, title, spans, sitename, domain, leading=True)
        if run is None or run[1] == len(spans):  # none, or the whole title: nothing to take off
            continue
        found = title[spans[0][1]:spans[run[1] - 1][2]].strip()
        if len(_words(found)) >= 2:
            return b.text if _words(b.text) == _words(found) else found
    return None


def clean_title(title: str | None, *, h1: Sequence[str] = (), sitename: str | None = None,
                domain: str | None = None) -> str | None:
    """The headline in a page title: a part matching an ``<h1>`` wins, else site-name parts go.

    ``"Using the Fetch API - Web APIs | MDN"`` with the h1 ``"Using the Fetch API"`` gives the
    h1's part; with the site name ``"MDN Web Docs"`` and no h1 it gives
    ``"Using the Fetch API - Web APIs"``. A title whose parts are all site-like is kept whole.
    """
    title = _clean(title, 2000)
    if not title:
        return None
    spans = title_parts(title)
    parts = [p for p, _, _ in spans]
    found = _h1_headline(title, spans, h1, sitename, domain)
    if found:
        return found
    if len(parts) < 2:
        return title
    # a short <h1> of a few words that neither is nor starts the title is the site's logo,
    # named at the title's end (a one-word h1 is as often the page's section: "Books")
    title_words = _words(title)
    logos = [h for h in h1 if 2 <= len(_words(h)) <= MAX_LOGO_WORDS and _overlap(h, title) < 0.5
             and title_words[:len(_words(h))] != _words(h)]
    # drop site-like parts from both ends
    lo, hi = 0, len(parts)
    while hi - lo > 1 and _site_like(parts[hi - 1], sitename, domain, logos):
        hi -= 1
    while hi - lo > 1 and _site_like(parts[lo], sitename, domain):
        lo += 1
    if (lo, hi) == (0, len(parts)):
        return title
    kept = title[spans[lo][1]:spans[hi - 1][2]].strip()
    return kept if len(_words(kept)) >= 2 else title


#: permalink glyphs a heading may end with (not "#": "Learn C#")
_GLYPHS = "¶§🔗⚓↩↵↑ \u00a0"


def _h1_texts(h1: Sequence[etree._Element], blocks: Sequence[Block]) -> list[str]:
    """The page's first ``<h1>`` texts (from its blocks when given)."""
    heads = [b.text for b in blocks[:600] if b.heading_level == 1 and not b.hidden][:3]
    if not (heads or blocks):
        heads = [t for t in (_clean("".join(el.itertext()), 500) for el in h1) if t]
    # a heading's permalink glyph ("Evolve: Shared Mutable History¶") is no part of it
    return [h.rstrip(_GLYPHS) or h for h in heads]


# --- language ---------------------------------------------------------------------------

_LANG_TAG = re.compile(r"^([a-zA-Z]{2,3})(?:[-_][a-zA-Z0-9]{1,8})*$")
#: the script a language's text is written in, for the languages whose script is not Latin
_SCRIPT_OF = {
    **dict.fromkeys(["ru", "uk", "be", "bg", "sr", "mk", "kk", "ky", "mn", "tg"], "cyrillic"),
    **dict.fromkeys(["ar", "fa", "ur", "ps", "ug"], "arabic"),
    "he": "hebrew", "yi": "hebrew", "el": "greek", "hy": "armenian", "ka": "georgian",
    **dict.fromkeys(["hi", "mr", "ne"], "devanagari"),
    "bn": "bengali", "ta": "tamil", "te": "telugu", "kn": "kannada", "ml": "malayalam", "gu": "gujarati",
    "pa": "gurmukhi", "th": "thai", "lo": "lao", "km": "khmer", "my": "myanmar", "si": "sinhala", "am": "ethiopic",
    "zh": "han", "ja": "kana", "ko": "hangul",
}
_SCRIPT_RANGES = (
    (0x0400, 0x052F, "cyrillic"), (0x0590, 0x05FF, "hebrew"), (0x0600, 0x06FF, "arabic"), (0x0370, 0x03FF, "greek"),
    (0x0530, 0x058F, "armenian"), (0x10A0, 0x10FF, "georgian"), (0x0900, 0x097F, "devanagari"),
    (0x0980, 0x09FF, "bengali"), (0x0A00, 0x0A7F, "gurmukhi"), (0x0A80, 0x0AFF, "gujarati"),
    (0x0B80, 0x0BFF, "tamil"), (0x0C00, 0x0C7F, "telugu"), (0x0C80, 0x0CFF, "kannada"),
    (0x0D00, 0x0D7F, "malayalam"), (0x0D80, 0x0DFF, "sinhala"), (0x0E00, 0x0E7F, "thai"), (0x0E80, 0x0EFF, "lao"),
    (0x1000, 0x109F, "myanmar"), (0x1200, 0x139F, "ethiopic"), (0x1780, 0x17FF, "khmer"),
    (0x3040, 0x30FF, "kana"), (0x3400, 0x9FFF, "han"), (0xAC00, 0xD7AF, "hangul"), (0x1100, 0x11FF, "hangul"),
)


_NOT_LATIN_LETTER = re.compile(r"[^A-Za-z\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u024f\u1e00-\u1eff]+")
#: what is surely no letter of another script: ASCII, Latin, general punctuation, spaces, digits
_LATIN_OR_NO_LETTER = re.compile(r"[\x00-\u024f\u1e00-\u206f\s\d]+")


def _script(text: str) -> str | None:
    """The dominant script of a text's letters (``latin`` for Latin letters); None with few letters."""
    latin = len(_NOT_LATIN_LETTER.sub("", text))
    other = _LATIN_OR_NO_LETTER.sub("", text)
    if len(other) <= latin:  # the common case, read without a loop in Python
        return "latin" if latin >= 20 else None
    counts: dict[str, int] = {"latin": latin}
    n = latin
    for ch in other:
        if ch.isalpha():
            n += 1
            o = ord(ch)
            s = next((name for lo, hi, name in _SCRIPT_RANGES if lo <= o <= hi), "other")
            counts[s] = counts.get(s, 0) + 1
    if n < 20:
        return None
    best = max(counts, key=counts.__getitem__)
    if best == "han" and counts.get("kana", 0) >= 0.05 * n:
        return "kana"  # Japanese mixes kanji with kana
    if best == "han" and counts.get("hangul", 0) >= 0.05 * n:
        return "hangul"
    return best


def _fits(lang: str, script: str | None) -> bool:
    """Whether a language is written in the text's script (unknown scripts fit anything)."""
    if script is None or script == "other":
        return True
    expected = _SCRIPT_OF.get(lang, "latin")
    return expected == script or (expected == "kana" and script == "han") or (lang == "sr" and script == "latin")


#: withdrawn language codes that CLD2 and some pages still use, and what BCP 47 spells today
_LEGACY_CODES = {"iw": "he", "jw": "jv", "in": "id", "ji": "yi", "mo": "ro", "zh-hant": "zh", "sh": "sr"}
#: characters CLD2 refuses as invalid input (C0 and C1 controls, lone surrogates, non-characters)
_CLD2_REFUSES = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff\ufdd0-\ufdef\ufffe\uffff]")


def _identify(text: str) -> tuple[str, float]:
    """The language of a text and CLD2's confidence in it: that language's share of the text
    CLD2 could place, or of `LANG_MIN_PLACED` percent of it when it placed less (its mark of an
    unreliable answer scales it by `LANG_UNRELIABLE`).

    Where ``pycld2`` has no wheel and could not be built, py3langid answers instead (its
    normalised probability as the confidence): pure Python, but it reads a 68 MB model, about
    a second, in every process that identifies a language."""
    if pycld2 is None:
        return _identify_py3langid(text)
    try:
        reliable, _, details = pycld2.detect(_CLD2_REFUSES.sub(" ", text), isPlainText=True)
    except pycld2.error:  # still refused: the text is left unidentified
        return "un", 0.0
    known = [(code.lower(), percent) for _, code, percent, _ in details if code not in ("un", "xxx") and percent > 0]
    if not known:
        return "un", 0.0
    code, percent = max(known, key=lambda k: k[1])
    share = percent / max(sum(p for _, p in known), LANG_MIN_PLACED) * (1.0 if reliable else LANG_UNRELIABLE)
    return _LEGACY_CODES.get(code, code), share


_PY3LANGID: Any = None
_PY3LANGID_LOCK = threading.Lock()


def _identify_py3langid(text: str) -> tuple[str, float]:
    """`_identify` by py3langid, whose model is read once a process, on first use."""
    global _PY3LANGID
    if _PY3LANGID is None:
        with _PY3LANGID_LOCK:
            if _PY3LANGID is None:
                from py3langid.langid import MODEL_FILE, LanguageIdentifier

                _PY3LANGID = LanguageIdentifier.from_model_file(MODEL_FILE, norm_probs=True)
    lang, prob = _PY3LANGID.classify(_CLD2_REFUSES.sub(" ", text))
    return _LEGACY_CODES.get(str(lang), str(lang)), float(prob)


def _primary(tag: str | None) -> str | None:
    """The primary subtag of a BCP 47 language tag, lower-cased; None for an unusable tag."""
    tag = _clean(tag, 40)
    if not tag:
        return None
    m = _LANG_TAG.match(tag.split(",")[0].strip())
    if not m:
        return None
    lang = m.group(1).lower()
    return None if lang in _NO_LANGUAGE else _LEGACY_CODES.get(lang, lang)


#: what pages put where a language belongs but names none (``"utf-8"`` is a character set)
_NO_LANGUAGE = frozenset({"und", "mul", "zxx", "xx", "utf", "iso", "win", "asc", "cp"})


def _sample(blocks: Sequence[Block], extra: Sequence[str | None]) -> str:
    """Up to `LANG_SAMPLE_CHARS` of the page's prose: its first visible, mostly unlinked, sentence-long blocks."""
    parts = [t for t in extra if t]
    size = sum(len(p) for p in parts)
    for b in blocks:
        if size >= LANG_SAMPLE_CHARS:
            break
        if len(b.text) >= 80 and not b.hidden and b.link_chars < 0.3 * len(b.text):
            parts.append(b.text)
            size += len(b.text)
    return " ".join(parts)[:LANG_SAMPLE_CHARS]


#: languages close enough that CLD2 tells them apart less surely than a page's declaration does
_KIN = (frozenset({"no", "nb", "nn"}), frozenset({"hr", "sr", "bs"}), frozenset({"ms", "id"}))


def _overruled(lang: str, sample: str) -> str | None:
    """The language CLD2 finds ``sample`` written in, when that is surely not the declared
    ``lang`` (`LANG_OVERRULE_CHARS`, `LANG_OVERRULE_CONFIDENCE`, not a close kin); else None.

    Only with CLD2: py3langid, where CLD2 cannot be installed, would read its model (a
    second) in every process for a check that changes a page in a few hundred."""
    if pycld2 is None or len(sample) < LANG_OVERRULE_CHARS:
        return None
    found, confidence = _identify(sample)
    if confidence < LANG_OVERRULE_CONFIDENCE or found in (lang, "un") or any(found in k and lang in k for k in _KIN):
        return None
    return found


def _language(declared: Iterable[str | None], sample: str) -> str | None:
    """The first usable declared language when it fits the script of ``sample`` (the page's
    title, description and first prose) and a long sample does not surely say otherwise
    (`_overruled`); else the language identified from ``sample``, when confident enough
    (`LANG_MIN_CONFIDENCE`, or 0.5 when the page declares none).

    A sample under 40 characters is too short to identify in a spaced script, but not in
    Chinese, Japanese or Thai, whose 20 characters say as much as a sentence."""
    lang = next((p for p in map(_primary, declared) if p), None)
    if lang is not None and _fits(lang, _script(sample)):
        return _overruled(lang, sample) or lang
    if len(sample) < 40 and is_spaced(sample):
        return lang
    found, confidence = _identify(sample)
    if confidence >= LANG_MIN_CONFIDENCE or (lang is None and confidence >= 0.5):
        return found
    return lang


# --- the whole page ---------------------------------------------------------------------


def _absolute(url: str | None, base: str | None) -> str | None:
    url = _clean(url, 4000)
    if not url:
        return base
    full = join_url(base or "", url)
    return full if full is not None and full.startswith(("http://", "https://")) else base


def _domain(url: str | None) -> str | None:
    if not url:
        return None
    try:
        host = urlsplit(url).hostname or ""
    except ValueError:
        return None
    labels = [x for x in host.split(".") if x not in ("www", "m", "amp")]
    return labels[-2] if len(labels) >= 2 else (labels[0] if labels else None)


def page_metadata(doc: Document, blocks: Sequence[Block] = (), url: str | None = None) -> Metadata:
    """Read the page's metadata (see the module docstring); never raises.

    ``blocks`` are the page's blocks (from `blockclf.segment.segment`); they give the ``<h1>``
    headings, byline blocks and the text the language is checked against. ``url`` is where
    the page was fetched from, against which relative canonical URLs are resolved.
    """
    try:
        return _page_metadata(doc, blocks, url)
    except Exception:  # metadata is an extra: a page it cannot read still extracts
        log.debug("metadata could not be read", exc_info=True)
        return Metadata(title=_clean(getattr(doc, "title", None)), url=url)


def _read_jsonld(scripts: Sequence[str]) -> dict[str, Any]:
    """The page's JSON-LD fields, or none when they cannot be read: an oddity there must not
    cost the other sources."""
    try:
        return _jsonld(scripts)
    except Exception:  # a JSON-LD oddity must not cost the other sources
        log.debug("JSON-LD could not be read", exc_info=True)
        return {}


def _headline(page_title: str | None, h1: list[str], offered: list[str], sitename: str | None,
              domain: str | None) -> tuple[str | None, str | None]:
    """The headline a reader sees, and the raw title it was cleaned from.

    The headline is the ``<h1>`` that agrees with the ``<title>``; failing one, a JSON-LD or
    OpenGraph headline (``offered``) that agrees with either (some sites put a description
    or a teaser line there), or is a part of the ``<title>``, however short (`_title_part`);
    then the ``<title>`` itself.
    """
    title = None
    if page_title:
        title = _h1_headline(page_title, title_parts(page_title), h1, sitename, domain)
    raw_title = page_title or (offered[0] if offered else None)
    if title is None:
        anchors = [t for t in (page_title, *h1) if t]
        agreed = next((t for t in offered if not anchors or any(_overlap(t, a) >= 0.5 for a in anchors)
                       or _title_part(t, page_title, sitename, domain)), None)
        raw_title = agreed or page_title or (h1[0] if h1 else None) or (offered[0] if offered else None)
        title = clean_title(raw_title, h1=h1, sitename=sitename, domain=domain)
    return title, raw_title


def _title_part(text: str, title: str | None, sitename: str | None, domain: str | None) -> bool:
    """Whether a text is one or more consecutive parts of the ``<title>``, but not all of it nor
    the site's name, wherever it stands there (``"remoteBudget"`` in
    ``"draft-lopez-remotebudget-04 - remoteBudget"``).

    One word beside nothing but the site's name is the page's generic name (``"Home - Town
    News"``): as `clean_title` does, the title is then kept whole.
    """
    if not title:
        return False
    spans = title_parts(title)
    run = _best_run(text, title, spans, sitename, domain, anywhere=True)
    if run is None or run == (0, len(spans)):
        return False
    i, j = run
    rest = [p for k, (p, _, _) in enumerate(spans) if not i <= k < j]
    return len(_words(" ".join(p for p, _, _ in spans[i:j]))) > 1 or not all(
        _site_like(p, sitename, domain) for p in rest)


def _near_best_headline(h1: Sequence[etree._Element], raw_title: str | None, want_date: bool = True
                        ) -> dict[str, str]:
    """Author and dates written around the page's headline.

    The headline is the ``<h1>`` most like the title (the first may be the site's logo, or a
    copy in a hidden header): the surroundings of each, best first, until one names an author;
    links there are looked at only when no marked element around either names one (most
    pages have one, and a logo's surroundings hold section links).
    """
    near: dict[str, str] = {}
    heads = sorted(h1, key=lambda el: -_overlap(" ".join(el.itertext())[:500], raw_title or ""))
    all_links = []
    for head in heads[:2]:
        fields, links = _near_fields(_near_headline(head), want_date)
        for key, value in fields.items():
            near.setdefault(key, value)
        if "author" in near:
            return near
        all_links.append(links)
    for links in all_links:
        if _linked_author(near, links):
            break
    return near


def _page_metadata(doc: Document, blocks: Sequence[Block], url: str | None) -> Metadata:
    """`page_metadata` without its guard: each field from the first source that has it."""
    root = doc.root
    if not isinstance(getattr(root, "tag", None), str):
        return Metadata(title=_clean(doc.title), url=url)
    scan = _scan(root)
    metas = scan.metas
    ld = _read_jsonld(scan.jsonld)

    page_url = _absolute(ld.get("url"), url) if doc.url is None else _absolute(doc.url, url)
    page_url = page_url or url
    sitename = ld.get("sitename") or _first_meta(metas, _SITE_KEYS, no_url=True)

    author = ld.get("author") or _meta_author(metas)
    published = _parse_date(ld.get("date")) or _parse_date(_first_meta(metas, _DATE_KEYS))
    modified = _parse_date(ld.get("modified")) or _parse_date(_first_meta(metas, _MODIFIED_KEYS))
    h1 = _h1_texts(scan.h1, blocks)
    page_title = _clean(doc.title)
    domain = _domain(page_url or url)
    offered = [t for t in (ld.get("title"), _first_meta(metas, _TITLE_KEYS)) if t]
    title, raw_title = _headline(page_title, h1, offered, sitename, domain)
    if title and not any(_overlap(h, title) >= 0.5 for h in h1):
        title = _lead_heading(title, blocks, sitename, domain) or title

    near: dict[str, str] = {}
    if author is None or published is None or _handle(author):
        near = _near_best_headline(scan.h1, raw_title, want_date=published is None)
        published = published or near.get("date")
        modified = modified or near.get("modified")
        # a byline's name beats a user name from the page's metadata ("CC7567")
        near_author = near.get("author")
        if author is None or (near_author is not None and _handle(author) and not _handle(near_author)):
            author = near_author
    author = author or _byline(blocks) or _by_block(blocks)
    published = (published or _time_element(scan.times) or near.get("text_date") or _url_date(page_url)
                 or _url_date(url) or near.get("marked_date"))
    if title is None and h1:
        title = h1[0]

    description = ld.get("description") or _first_meta(metas, _DESC_KEYS)
    tags = ld.get("tags") or _terms(metas.get("article:tag", [])) or _terms(_first_meta(metas, ("keywords",
                                                                                               "news_keywords")))
    categories = ld.get("categories") or _terms(metas.get("article:section", []))

    declared = (doc.lang, scan.http_lang, _first_meta(metas, _LANG_KEYS), ld.get("lang"))
    lang = _language(declared, _sample(blocks, (title, description)))

    return Metadata(title=title, author=author, date=published, modified=modified,
                    description=_clean(description, 2000), sitename=_clean(sitename, 200), lang=lang, url=page_url,
                    categories=tuple(categories[:MAX_TERMS]), tags=tuple(tags[:MAX_TERMS]))
