"""What a page says about itself: headline, author, dates, description, site, language, URL, tags.

`page_metadata` reads a parsed page (`blockclf.html.Document`) and, where given, its blocks,
and returns a frozen `Metadata`. Each field is taken from the most trusted source that has
it, in this order:

1. JSON-LD (`blockclf.jsonld`): the article-like object, then page-like ones, then any other.
2. OpenGraph and ``<meta>`` tags (``og:title``, ``article:published_time``, ``author``,
   Dublin Core, ``keywords``...), read here.
3. Microdata, then the page itself (`blockclf.byline`): ``itemprop`` author and date; around
   the headline, byline and author boxes and links; ``<time datetime>``, a date in the URL
   path, a date in an element marked as one.

An author, from any source, is cleaned to the name (`blockclf.byline.author_text`). The
headline is the ``<title>`` cleaned of site-name parts (`blockclf.headline`); dates are given
as ISO 8601 (`blockclf.metatext`); the language is the declared one checked against the
text, or identified from it (`blockclf.language`).

Metadata is read on every page, so the reading is bounded (`MAX_JSONLD_CHARS`,
`MAX_JSONLD_NODES`, `MAX_JSONLD_DEPTH`). Nothing here raises on hostile input: a source that
cannot be read leaves its fields to the next source, or None.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from datetime import date
from typing import Any
from urllib.parse import urlsplit

from lxml import etree

from .block import Block
from .byline import (
    JOB_WORDS,
    author_text,
    by_line_author,
    byline_author,
    dateline,
    is_handle,
    linked_author,
    looks_like_name,
    near_fields,
    near_headline,
)
from .data import registered_domain
from .headline import (
    best_title_run,
    clean_title,
    h1_headline,
    h1_texts,
    lead_heading,
    linked_h1,
    names_site,
    prose_headline,
    site_like,
)
from .html import Document, join_url
from .jsonld import (
    MAX_JSONLD_CHARS,
    MAX_JSONLD_DEPTH,
    MAX_JSONLD_NODES,
    MAX_TERMS,
    jsonld_fields,
    jsonld_objects,
    jsonld_terms,
    jsonld_types,
)
from .language import language_sample, page_language
from .metatext import clean_value, first_line, is_url, parse_date, time_element_date, token_overlap, url_date
from .metrics import tokens
from .words import WORD, title_parts

__all__ = ["MAX_JSONLD_CHARS", "MAX_JSONLD_DEPTH", "MAX_JSONLD_NODES", "MAX_PAGE_PRODUCTS", "Metadata", "clean_title",
           "page_metadata", "product_page"]

log = logging.getLogger("blockclf")


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


# --- meta tags --------------------------------------------------------------------------

#: the most days a page's publication date may fall after the date its URL's folders give
#: (``/2012/07/24/``; a paper's web page is often dated the day before its print edition's, in
#: the URL); later, it is a stamp of when the page was made or changed (a "date" meta tag of
#: the time it was served), and the URL's date stands
URL_DATE_SLACK_DAYS = 2
#: a page that types more products than this lists them (a shop's category, a buyers' guide)
MAX_PAGE_PRODUCTS = 3
#: microdata items typed as a product (or a product group, a product model)
_PRODUCT_ITEMTYPE = "//@itemtype[contains(translate(., 'PRODUCT', 'product'), 'schema.org/product')]"


def product_page(root: etree._Element) -> bool:
    """Whether the page offers one product: ``og:type`` says ``product``, or (unless it says
    ``article`` or another kind of page) its JSON-LD or microdata types a product group or up to
    `MAX_PAGE_PRODUCTS` products. Read as `page_metadata` reads the page (`_scan`,
    `jsonld_objects`); never raises."""
    try:
        scan = _scan(root)
        kind = next(iter(scan.metas.get("og:type", ())), "").strip().lower().removeprefix("og:")
        if kind.startswith("product"):
            return True
        if kind in ("article", "blog", "book", "profile") or kind.startswith(("video", "music")):
            return False
        kinds = [t for obj in jsonld_objects(scan.jsonld) for t in jsonld_types(obj)]
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
    """The first author ``<meta>`` that reads as a name (not a link, not empty, not the
    software's or the site's credit that the ``generator`` ``<meta>`` names too: a forum
    package's "Discuz! Team and Comsenz UI Team" beside its "Discuz! X3.3", a site's "GURUS -
    Drupal" beside "Drupal 10").

    Citation and Dublin Core metadata give one element per author, written "Family, Given":
    all of them are read (up to `MAX_LISTED_AUTHORS`), each as "Given Family" (``DC.Creator``
    "Doe, Jane" and "Roe, John" give "Jane Doe, John Roe"). Other author ``<meta>`` elements
    beyond the first are as often a photo credit or the site as a second author.
    """
    maker = _generator_name(metas)
    for key in _AUTHOR_KEYS:
        names: list[str] = []
        for v in metas.get(key, ()):
            text = clean_value(first_line(v), 2000)
            if not text or is_url(text) or (maker and maker in WORD.findall(text.casefold())):
                continue
            name = author_text(text)
            if name and key not in _LISTED_AUTHOR_KEYS:
                return name
            if name and _given_family(name) not in names:
                names.append(_given_family(name))
                if len(names) == MAX_LISTED_AUTHORS:
                    break
        if names:
            return ", ".join(names)
    return None


def _person_byline(blocks: Sequence[Block], title: str | None, site: str) -> str | None:
    """The name a byline block gives when it reads as people's names, not an organisation's:
    two words or more, each capitalised but particles ("Mary Murray", "A. Pawlowski"), none a
    word of a desk, paper or firm ("NBC News", "The IFTTT Team"), not holding the ``site``'s
    name ("Author: Hardtail Canada", "Help Net Security Sponsored"), nor a label of the links
    beside it ("Full Bio", `_LINK_WORDS`)."""
    name = byline_author(blocks) or by_line_author(blocks, title)
    if name is None or not _people(name) or site.casefold() in name.casefold() or _LINK_WORDS.search(name):
        return None
    return name


#: words of a link's or a form's label that an author box holds beside the name: "Full Bio", "More About Me"
_LINK_WORDS = re.compile(r"\b(?:bio|biography|profile|about|more|terms|conditions|privacy|name|contact|follow)\b",
                         re.IGNORECASE)


def _no_person(author: str, sitename: str | None, domain: str | None) -> bool:
    """Whether an author names no person: the site ("Los Angeles Times", and in one word
    "LTO" on lto.de, "Krautreporter" for "Krautreporter eG"), a desk, a paper or a firm
    ("WIRED Staff", "Media Corp."), or a user name in one word, lower case or run together
    ("andrew.keaveney", "KyreeLeary"; not "Maddy", nor a name in a script without capitals)."""
    if author.casefold() == (clean_value(sitename, 200) or "").casefold() or JOB_WORDS.search(author):
        return True
    if " " not in author:
        capitals = sum(c.isupper() for c in author)
        if author.islower() or "." in author or (capitals >= 2 and not author.isupper()):
            return True
    return site_like(author, sitename, domain)


def _people(names: str) -> bool:
    """Whether a text reads as people's names: two words or more, each capitalised but
    particles, none a word of a job, a desk, a paper or a firm (`byline.JOB_WORDS`)."""
    return len(names.split()) >= 2 and looks_like_name(names) and not JOB_WORDS.search(names)


def _generator_name(metas: dict[str, list[str]]) -> str | None:
    """The first word of what the ``generator`` ``<meta>`` names (the software, or the site
    that made the page), case-folded; None when it names nothing of three letters or more."""
    made = _first_meta(metas, ("generator",))
    words = WORD.findall(made.casefold()) if made else []
    return words[0] if words and len(words[0]) >= 3 and not words[0].isdigit() else None

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
    if (not family or not given or len(family.split()) > 3 or not looks_like_name(family)
            or _DEGREE.fullmatch(given) or JOB_WORDS.search(given)):
        return name
    return f"{given} {family}"


def _first_meta(metas: dict[str, list[str]], keys: Sequence[str], *, no_url: bool = False) -> str | None:
    for key in keys:
        for v in metas.get(key, ()):
            text = clean_value(v, 2000)
            if text and not (no_url and is_url(text)):
                return text
    return None


_TITLE_KEYS = ("og:title", "twitter:title", "dc.title", "headline")
_AUTHOR_KEYS = ("author", "article:author", "dc.creator", "dcterms.creator", "byl", "parsely-author",
                "sailthru.author", "citation_author", "book:author", "og:article:author", "creator")
_DATE_KEYS = ("article:published_time", "og:article:published_time", "datepublished", "og:published_time",
              "published_time", "article.published", "dc.date.issued", "dcterms.issued", "dc.date",
              "dcterms.date", "dcterms.created", "dc.date.created", "date", "pubdate", "publishdate",
              "publish-date", "publish_date", "sailthru.date", "parsely-pub-date", "citation_publication_date",
              "citation_date", "release_date", "displaydate", "originalpublicationdate",
              # older news sites' and some publishers' own ("Mon Jul 23 21:11:10 PDT 2012"); not a
              # magazine's "Issue_Date", its cover's date, a week after the web page's
              "published", "publication_date", "article_date", "doc_date", "published_at", "ms.date")
_MODIFIED_KEYS = ("article:modified_time", "og:updated_time", "datemodified", "og:article:modified_time",
                  "dcterms.modified", "dc.date.modified", "last-modified", "lastmod", "article.updated")
_DESC_KEYS = ("og:description", "description", "twitter:description", "dc.description")
_SITE_KEYS = ("og:site_name", "application-name", "apple-mobile-web-app-title", "publisher", "dc.publisher")
_LANG_KEYS = ("og:locale", "language", "dc.language", "content-language", "inlanguage")


# --- the whole page ---------------------------------------------------------------------

def _absolute(url: str | None, base: str | None) -> str | None:
    """A declared address made absolute against ``base``; ``base`` when it is none or not a
    web address with a plain host ("https://blog.example%2Farticles%2F...": escaped whole)."""
    url = clean_value(url, 4000)
    if not url:
        return base
    full = join_url(base or "", url)
    if full is None or not full.startswith(("http://", "https://")):
        return base
    try:
        host = urlsplit(full).netloc
    except ValueError:
        return base
    return full if host and "%" not in host and " " not in host else base


def _site_root(url: str) -> bool:
    """Whether an address is a site's home page: no path but ``/`` (its query aside: a home
    page's address may carry a tracking parameter)."""
    try:
        return urlsplit(url).path in ("", "/")
    except ValueError:
        return False


def _domain(url: str | None) -> str | None:
    """The name a site's address gives it: its registered domain's first label ("bbc" for
    ``news.bbc.co.uk``, not "co"; an archived copy's site), else the label before the last."""
    if not url:
        return None
    registered = registered_domain(url)
    if registered:
        return registered.split(".")[0]
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
        return Metadata(title=clean_value(getattr(doc, "title", None)), url=url)


def _read_jsonld(scripts: Sequence[str]) -> dict[str, Any]:
    """The page's JSON-LD fields, or none when they cannot be read: an oddity there must not
    cost the other sources."""
    try:
        return jsonld_fields(scripts)
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
        title = h1_headline(page_title, title_parts(page_title), h1, sitename, domain)
    raw_title = page_title or (offered[0] if offered else None)
    if title is None:
        anchors = [t for t in (page_title, *h1) if t]
        agreed = next((t for t in offered if not anchors or any(token_overlap(t, a) >= 0.5 for a in anchors)
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
    run = best_title_run(text, title, spans, sitename, domain, anywhere=True)
    if run is None or run == (0, len(spans)):
        return False
    i, j = run
    rest = [p for k, (p, _, _) in enumerate(spans) if not i <= k < j]
    return len(tokens(" ".join(p for p, _, _ in spans[i:j]))) > 1 or not all(
        site_like(p, sitename, domain) for p in rest)


def _near_best_headline(h1: Sequence[etree._Element], raw_title: str | None, want_date: bool = True
                        ) -> dict[str, str]:
    """Author and dates written around the page's headline.

    The headline is the ``<h1>`` most like the title (the first may be the site's logo, or a
    copy in a hidden header): the surroundings of each, best first, until one names an author;
    links there are looked at only when no marked element around either names one (most
    pages have one, and a logo's surroundings hold section links).
    """
    near: dict[str, str] = {}
    heads = sorted(h1, key=lambda el: -token_overlap(" ".join(el.itertext())[:500], raw_title or ""))
    all_links = []
    for head in heads[:2]:
        fields, links = near_fields(near_headline(head), want_date)
        for key, value in fields.items():
            near.setdefault(key, value)
        if "author" in near:
            return near
        all_links.append(links)
    for links in all_links:
        if linked_author(near, links):
            break
    return near


def _title_site(page_title: str | None, domain: str | None) -> str | None:
    """The site's name as the ``<title>`` writes it at either end, for a page that declares none:
    a part that its address confirms ("Technology | The Guardian" on theguardian.com, "BBC -
    Science & Nature" on bbc.co.uk; `headline.names_site`), never a guess from the words alone."""
    if not page_title or not domain:
        return None
    parts = [p.strip() for p, _, _ in title_parts(page_title)]
    if len(parts) < 2:
        return None
    return next((p for p in (parts[-1], parts[0]) if p and names_site(p, None, domain)), None)


def _without_site(author: str | None, sitename: str | None, domain: str | None) -> str | None:
    """The author without the site's name after a comma ("Dan Merica, CNN", "Julian Seiferth,
    t-online"), after "for" ("Arion McNicoll for CNN"), or after the name where a byline's lines
    were joined ("Ed Hornick CNN", "Helen Briggs BBC News", "Mariko Oi BBC News, Singapore":
    from a word that is the site's whole name or its domain's, with what follows it, the desk
    and the place): the site is `sitename`'s to say. Only after people's names: an office's own
    ("Department of Primary Industries, Queensland") stays whole."""
    if not author:
        return author
    m = _FOR_SITE.match(author)
    if m and _people(m.group(1)) and _names_site(m.group(2), sitename, domain):  # "Arion McNicoll for CNN"
        return m.group(1)
    words = author.split()
    for i in range(2, len(words)):  # a byline's lines joined: "Ed Hornick CNN", "Mariko Oi BBC News, Singapore"
        if _names_site(words[i].rstrip(",;"), sitename, domain) and _people(names := " ".join(words[:i]).rstrip(",;")):
            return names
    if ", " not in author:
        return author
    names, last = author.rsplit(", ", 1)
    return names if site_like(last, sitename, domain) and _people(names) else author


#: a name and the site it wrote for: "Arion McNicoll for CNN"
_FOR_SITE = re.compile(r"(.+?),?\s+for\s+(\S+)$", re.IGNORECASE)


def _names_site(word: str, sitename: str | None, domain: str | None) -> bool:
    """Whether one word is the site's whole name or its domain's ("CNN" on cnn.com)."""
    word = word.casefold()
    label = domain.split(".")[0].casefold() if domain else None
    return word in ((sitename or "").casefold().removesuffix(".com"), label)


#: the blocks read for the heading that says a blog post's title
_POST_HEADING_BLOCKS = 400


def _after_blog_name(title: str | None, blocks: Sequence[Block], h1: Sequence[str]) -> str | None:
    """The headline after a blog's name in a title written "Blog: Post" (a colon, no space
    before it: a separator of blog themes, not of headlines), when a heading says it and none
    says the whole title; None otherwise ("Brexit: what next" beside its own heading stays).
    What an ``<h1>`` says after the colon is the blog's name, in a title written the other way
    ("Preview of my keynote: Church of the Customer Blog")."""
    if not title or ": " not in title:
        return None
    post = title.split(": ", 1)[1].strip()
    if len(post.split()) < 2 or post in h1:
        return None
    said = [b.text.strip() for b in blocks[:_POST_HEADING_BLOCKS] if b.heading_level]
    return post if post in said and title not in said else None


def _days_after(when: str, day: str) -> int:
    """How many days the ISO date or time ``when`` falls after the ISO date ``day`` (0 when unreadable)."""
    try:
        return (date.fromisoformat(when[:10]) - date.fromisoformat(day)).days
    except ValueError:
        return 0


def _page_metadata(doc: Document, blocks: Sequence[Block], url: str | None) -> Metadata:
    """`page_metadata` without its guard: each field from the first source that has it."""
    root = doc.root
    if not isinstance(getattr(root, "tag", None), str):
        return Metadata(title=clean_value(doc.title), url=url)
    scan = _scan(root)
    metas = scan.metas
    ld = _read_jsonld(scan.jsonld)

    page_url = _absolute(ld.get("url"), url) if doc.url is None else _absolute(doc.url, url)
    page_url = page_url or url
    if url and page_url != url and _site_root(page_url) and not _site_root(url):
        page_url = url  # a site that declares its home page the canonical address of every page
    sitename = ld.get("sitename") or _first_meta(metas, _SITE_KEYS, no_url=True)

    author = ld.get("author") or _meta_author(metas)
    published = parse_date(ld.get("date")) or parse_date(_first_meta(metas, _DATE_KEYS))
    modified = parse_date(ld.get("modified")) or parse_date(_first_meta(metas, _MODIFIED_KEYS))
    h1 = h1_texts(scan.h1, blocks)
    page_title = clean_value(doc.title)
    domain = _domain(page_url or url)
    offered = [t for t in (ld.get("title"), _first_meta(metas, _TITLE_KEYS)) if t]
    title, raw_title = _headline(page_title, h1, offered, sitename, domain)
    if title and not any(token_overlap(h, title) >= 0.5 for h in h1):
        title = lead_heading(title, blocks, sitename, domain) or title
    elif (title and raw_title and raw_title.endswith(title)
          and linked_h1([title, *(p for p, _, _ in title_parts(raw_title)[-1:])], blocks)):
        # an <h1> that is the title's last part and a link is as often the blog's logo ("Post
        # « Blog" beside the h1 "Blog" linking home): a heading that says the title's leading
        # parts is the headline
        title = lead_heading(raw_title, blocks, sitename, domain) or title
    title = _after_blog_name(title, blocks, h1) or title
    sitename = sitename or _title_site(page_title, domain)

    near: dict[str, str] = {}
    if author is None or published is None or is_handle(author):
        near = _near_best_headline(scan.h1, raw_title, want_date=published is None)
        published = published or near.get("date")
        modified = modified or near.get("modified") or near.get("marked_modified")
        # a byline's name beats a user name from the page's metadata ("CC7567")
        near_author = near.get("author")
        if author is None or (near_author is not None and is_handle(author) and not is_handle(near_author)):
            author = near_author
    if author is not None and _no_person(author, sitename, domain):
        # the site (or a blog of it) named as its own author ("World News", "Dazed Digital"), a
        # desk, a paper or a firm ("WIRED Staff", "Los Angeles Times") or a user name
        # ("andrew.keaveney"): a person the page's byline names wrote it
        author = _person_byline(blocks, title, clean_value(sitename, 200) or author) or author
    author = _without_site(author or byline_author(blocks) or by_line_author(blocks, title), sitename, domain)
    published = (published or time_element_date(scan.times) or near.get("text_date") or url_date(page_url)
                 or url_date(url) or near.get("marked_date"))
    if published is None:
        published, in_line_modified = dateline(blocks, title)
        modified = modified or in_line_modified
    in_url = published and (url_date(page_url, strict=True) or url_date(url, strict=True))
    if in_url and _days_after(published, in_url) > URL_DATE_SLACK_DAYS:
        published = in_url  # a stamp of when the page was made or changed, not of when it was published
    if title is None and h1:
        title = h1[0]
    if title is None:  # no title, <h1> nor metadata headline: the line above the prose that says it
        title = prose_headline(blocks, doc.root)

    description = ld.get("description") or _first_meta(metas, _DESC_KEYS)
    tags = ld.get("tags") or jsonld_terms(metas.get("article:tag", [])) or jsonld_terms(_first_meta(metas, ("keywords",
                                                                                               "news_keywords")))
    categories = ld.get("categories") or jsonld_terms(metas.get("article:section", []))

    declared = (doc.lang, scan.http_lang, _first_meta(metas, _LANG_KEYS), ld.get("lang"))
    lang = page_language(declared, language_sample(blocks, (title, description)))

    return Metadata(title=_filled(title), author=_filled(author), date=published, modified=modified,
                    description=_filled(clean_value(description, 2000, prose=True)),
                    sitename=_filled(clean_value(sitename, 200)), lang=lang, url=page_url,
                    categories=tuple(categories[:MAX_TERMS]), tags=tuple(tags[:MAX_TERMS]))


#: what a template writes where it had no value: a programming language's empty value, a dash,
#: an ellipsis (compared case-folded)
_PLACEHOLDERS = frozenset(("none", "null", "undefined", "nan", "n/a", "-", "–", "—", "…", "..."))


def _filled(value: str | None) -> str | None:
    """``value``, or None where it is a template's placeholder for a missing value (an author
    "undefined", a description "None" or "…"): no value is better than a false one."""
    return None if value is not None and value.casefold() in _PLACEHOLDERS else value
