"""A page's JSON-LD (``<script type="application/ld+json">``): the article-like object
(``Article``, ``NewsArticle``, ``BlogPosting``...), then page-like ones (``WebPage``), then any
other; ``@graph`` containers and ``@id`` references to ``Person``/``Organization`` are
followed. The reading is bounded: scripts over `MAX_JSONLD_CHARS` are skipped, and the walk of
the parsed JSON visits at most `MAX_JSONLD_NODES` values at depth at most `MAX_JSONLD_DEPTH`."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from html import unescape
from typing import Any

from .byline import author_text
from .metatext import clean_value, is_url

__all__ = ["MAX_JSONLD_CHARS", "MAX_JSONLD_DEPTH", "MAX_JSONLD_NODES", "MAX_TERMS", "jsonld_fields", "jsonld_objects",
           "jsonld_terms", "jsonld_types"]


#: a JSON-LD script longer than this (characters) is not read
MAX_JSONLD_CHARS = 500_000
#: JSON values visited in all of a page's JSON-LD, and their deepest nesting
MAX_JSONLD_NODES = 5_000
MAX_JSONLD_DEPTH = 24
#: at most this many tags or categories are kept, each at most this long
MAX_TERMS = 50
#: what parts the keywords of one string
_TERM_SEPARATOR = re.compile(r"[,;，、；]")
#: a keyword that is an address or a path ("f/4g", a lens's aperture, is neither)
_ADDRESS = re.compile(r"(?:https?:)?//|www\.|/")
#: a keyword or section is at most this long: a longer one is a page's whole keyword string
#: with no separator, or a sentence ("canada vancouver sun news sports business world national
#: regional local classifieds weather entertainment ..."), and cutting it would end on half a word
_MAX_TERM_CHARS = 100
#: a keyword that is a record's identifier, not a word for a reader: a UUID, a number of seven
#: digits or more (a year, a postcode stay), a long hexadecimal digest; or a content system's field
#: written out as ``key: value`` under a key no reader's tag has ("contentId: d9ce...",
#: "hasProduct: true", "content-type: Product Review"): camel case, or joined by a hyphen or
#: an underscore
_IDENTIFIER = re.compile(r"(?i:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|\d{7,}|"
                         r"(?=[a-f]*\d)(?=\d*[a-f])[0-9a-f]{16,})"
                         r"|[a-z]{2,}(?:(?:[A-Z][a-z]+)+|(?:[-_][a-z]{2,})+):\s.*")


#: the keys under which an object describes the page itself ("a WebPage's mainEntity is the
#: Article"); under any other key of an object it is a part of that object (an article's video,
#: a product's review, a list's items, a comment), whose headline, date or author are its own
_WHOLE_KEYS = frozenset(("mainEntity", "mainEntityOfPage", "@graph"))
#: media objects: one alone may be the page (a video's page); several are a rail of them
_MEDIA_TYPES = ("videoobject", "mediaobject", "audioobject")
_ARTICLE_TYPES = ("article", "posting", "report", "review", "recipe", "howto", "question", "creativework")
_PAGE_TYPES = ("webpage", "itempage", "aboutpage", "profilepage", "collectionpage", "qapage", "mediaobject",
               "videoobject")


def jsonld_types(obj: dict[str, Any]) -> list[str]:
    t = obj.get("@type")
    if isinstance(t, str):
        return [t.rsplit("/", 1)[-1].lower()]
    if isinstance(t, list):
        return [x.rsplit("/", 1)[-1].lower() for x in t[:10] if isinstance(x, str)]
    return []


def _rank(obj: dict[str, Any]) -> int:
    """0 for an article-like object, 1 for a page-like one, 2 otherwise."""
    types = jsonld_types(obj)
    if any(k in t for t in types for k in _ARTICLE_TYPES):
        return 0
    if any(t in _PAGE_TYPES for t in types):
        return 1
    return 2


def jsonld_objects(scripts: Iterable[str]) -> list[dict[str, Any]]:
    """Every JSON object with an ``@type`` in the page's JSON-LD scripts, within the reading bounds."""
    return [obj for obj, _ in _objects(scripts)]


def _objects(scripts: Iterable[str]) -> list[tuple[dict[str, Any], bool]]:
    """`jsonld_objects`, each with whether it is a part of another object (`_WHOLE_KEYS`)."""
    out: list[tuple[dict[str, Any], bool]] = []
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
        stack: list[tuple[Any, int, bool]] = [(data, 0, False)]
        while stack and budget > 0:
            value, depth, part = stack.pop()
            budget -= 1
            if depth > MAX_JSONLD_DEPTH:
                continue
            if isinstance(value, dict):
                typed = "@type" in value
                if typed:
                    out.append((value, part))
                stack.extend((v, depth + 1, part or (typed and k not in _WHOLE_KEYS))
                             for k, v in reversed(list(value.items())[:200]) if isinstance(v, (dict, list)))
            elif isinstance(value, list):
                stack.extend((v, depth + 1, part) for v in reversed(value[:200]) if isinstance(v, (dict, list)))
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
                name = f"{clean_value(item.get('givenName')) or ''} {clean_value(item.get('familyName')) or ''}"
            text = clean_value(name, 200)
        else:
            text = clean_value(item, 200)
        if text and not is_url(text) and text not in out:
            out.append(text)
    return out


#: characters no keyword holds but markup and script do: "str) ) { document.write('<link href=",
#: an ad slot's parameters ("sz=728x90"); nor does a call, "func()"
_CODE_MARKS = frozenset("<{}=")


def _split_terms(value: str) -> list[str]:
    """A string of terms parted at `_TERM_SEPARATOR`; an entity escaped twice ("Food &amp;amp;
    Drink") is read before the semicolons part them."""
    return _TERM_SEPARATOR.split(unescape(value) if "&" in value else value)


def jsonld_terms(value: Any) -> list[str]:
    """Keywords or sections: a string of them separated by commas (or semicolons, or the
    commas of Chinese and Japanese) or a list of terms; none that holds `_CODE_MARKS` (a
    broken tag's attribute runs on into markup or script), none without a letter or digit, and
    none that is an address or a path (a page's URL given as its keyword, "/news/nation"), none
    that is an identifier (`_IDENTIFIER`), and none longer than `_MAX_TERM_CHARS`."""
    if isinstance(value, str):
        parts: Iterable[Any] = _split_terms(value)
    elif isinstance(value, list):  # an item is one term ("Trump, Donald J", "Unrest, Conflict and War")
        # unless it is too long to be one: several, as a string holds them ("scandal, mistress, ...")
        parts = [q for p in value[: MAX_TERMS * 2]
                 for q in (_split_terms(p) if isinstance(p, str) and len(p) > _MAX_TERM_CHARS else (p,))]
    else:
        return []
    out = []
    for p in parts:
        if isinstance(p, dict):
            p = p.get("name")
        t = clean_value(p, 4 * _MAX_TERM_CHARS)
        if (t and len(t) <= _MAX_TERM_CHARS and t not in out and any(c.isalnum() for c in t)
                and not _CODE_MARKS.intersection(t) and "()" not in t and not _ADDRESS.match(t)
                and not _IDENTIFIER.fullmatch(t)):
            out.append(t)
    return out[:MAX_TERMS]


def jsonld_fields(scripts: Iterable[str]) -> dict[str, Any]:
    """The fields JSON-LD gives, from its best-ranked object that has each.

    Only objects that describe the page give them: not a part of another object (`_WHOLE_KEYS`),
    and not one of several videos (the page's rail of them, each with its own description).
    """
    found_objects = _objects(scripts)
    if not found_objects:
        return {}
    objs = [obj for obj, _ in found_objects]
    ids = {o["@id"]: o for o in objs if isinstance(o.get("@id"), str)}
    whole = [obj for obj, part in found_objects if not part]
    media = {id(obj) for obj in whole if any(t in _MEDIA_TYPES for t in jsonld_types(obj))}
    if len(media) > 1:
        whole = [obj for obj in whole if id(obj) not in media]
    found: dict[str, Any] = {}
    for obj in sorted(whole, key=_rank):  # stable: document order within a rank
        rank = _rank(obj)
        types = jsonld_types(obj)
        if rank < 2:
            for key, field in (("headline", "title"), ("datePublished", "date"), ("dateModified", "modified"),
                               ("description", "description"), ("inLanguage", "lang")):
                if field not in found:
                    v = clean_value(obj.get(key), 2000)
                    if v:
                        found[field] = v
            if "title" not in found and rank == 0:
                v = clean_value(obj.get("name"), 2000)
                if v:
                    found["title"] = v
            if "author" not in found:
                # each name cleaned as a byline is ("By Ana Lopez, Staff Writer" gives "Ana Lopez")
                names = list(dict.fromkeys(author_text(n) or n for n in
                                           _names(obj.get("author") or obj.get("creator"), ids)))
                if names:
                    found["author"] = ", ".join(names)
            if "sitename" not in found:
                names = _names(obj.get("publisher"), ids, 1)
                if names:
                    found["sitename"] = names[0]
            if "categories" not in found:
                found["categories"] = jsonld_terms(obj.get("articleSection"))
            if "tags" not in found:
                found["tags"] = jsonld_terms(obj.get("keywords"))
            if "url" not in found and rank == 0:
                v = clean_value(obj.get("url"), 2000)
                if v:
                    found["url"] = v
        elif "website" in types and "sitename" not in found:
            v = clean_value(obj.get("name"), 200)
            if v:
                found["sitename"] = v
    for key in ("categories", "tags"):
        if not found.get(key):
            found.pop(key, None)
    return found
