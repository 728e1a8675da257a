"""Readers' comment threads: which parts of a page are comments rather than the article.

`comment_roots` finds the elements that hold a comment thread or one comment: an ``id`` or
a class that names one (``comments``, ``commentlist``, ``comment-123``, ``disqus_thread``,
``respond``, ``commentbody``, ``comments-body``, ``jc_commentsDiv``...), or a heading that
counts or invites comments ("12 Comments", "Leave a Reply") together with the elements that
follow it in its container, up to the next heading of its level. A named element that is only
such a title (``<h2 class="comments">Comments</h2>``) heads the thread after it in the same
way. An element that holds the page's ``<h1>`` or its ``<article>``/``<main>`` is never a
comment root, so a wrapper whose class merely mentions comments (``comments-open`` on a page's
wrapper) does not swallow the article. `comment_mask` marks the blocks under those roots,
unless the page is a discussion, whose comments are its content: its address names a forum, a
thread or a question (`discussion_page`), or its comments would be most of what it keeps
after a short post, with no title that opens them after an article.

On a page that offers a product, its customers' reviews are comments too (`review_roots`,
`review_mask`): what buyers said, not the product's description.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Iterable, Sequence

import numpy as np
from lxml import etree

from .block import Block
from .metadata import product_page
from .threads import says_when
from .words import SENT_END, title_words

__all__ = ["COMMENT_TOKENS", "MAX_COMMENT_SHARE", "MIN_BESIDE_REVIEWS_CHARS", "comment_mask", "comment_roots",
           "discussion_page", "may_have_comments", "page_tokens", "readers_comments", "readers_text",
           "review_mask", "review_roots"]

#: an id naming a comment thread or one comment
_ID = re.compile(r"^(?:comments?|comment[-_]?(?:list|section|area|thread|s?wrap(?:per)?|container|form)?"
                 r"|(?:li-)?comment[-_]\d+|disqus_thread|respond|replies|dsq-\w+|reply[-_]?\w*|discussion)$",
                 re.IGNORECASE)
#: a class naming a comment thread or one comment (each class name is tested alone)
_CLASS = re.compile(r"^(?:comments?|comment[-_](?:list|body|content|text|section|area|thread|wrap(?:per)?|"
                    r"container|respond|form|reply|item|entry)|commentlist|comments[-_](?:area|list|section|wrap"
                    r"(?:per)?|container|block|thread)|comment-respond|disqus|dsq-\w+|replies|reply-list)$",
                    re.IGNORECASE)
#: a class or id made of "comment(s)" and a word for a part of a thread, run together or joined
#: by ``-``/``_``, after any prefix: ``commentbody``, ``comments-body``, ``comments_head``,
#: ``jc_commentsDiv``, ``comment_tpl``, ``written_comments_title``, ``wp-block-comment-template``;
#: or "comments" after a word for where they hang (``post-comments``, ``blogComments``,
#: ``wp-block-comments``) or for a widget of the site's latest ones (``recentcomments``,
#: ``widget_recent_comments``). A word that says something else about comments (``comments-open``,
#: ``comment-count``, ``no-comments``, ``disablecomments``, ``commentary``) does not make a thread
_PART = (r"(?:body|content|text|list|listing|section|area|thread|wrap(?:per)?|container|holder|block|box|div|"
         r"inner|outer|head(?:er)?|title|item|entry|tpl|template|respond|form|reply|main|panel|widget)")
_COMPOUND = re.compile(rf"^(?:[a-z0-9]+[-_])*comments?[-_]?{_PART}(?:[-_]?\d+)?$"
                       r"|^(?:[a-z0-9]+[-_])*(?:post|article|entry|story|blog|user|reader|page|node|block|fb|wp|jc"
                       r"|recent|latest)[-_]?comments?(?:[-_]?\d+)?$", re.IGNORECASE)
#: names longer than this are not read as compounds, nor as naming reviews
_COMPOUND_CHARS = 60
#: the word for comments in the languages whose blogs are most common after English (German,
#: French, Spanish, Italian, Portuguese, Dutch), as their blog themes write it: alone only in
#: the plural, since the singular also names an opinion piece ("Kommentar", "Commento")
_COMMENTS_WORD = r"(?:kommentare|commentaires|comentarios|commenti|comentários|reacties)"
_COMMENT_WORD = rf"(?:{_COMMENTS_WORD}|kommentar|commentaire|comentario|commento|comentário|reactie)"
#: a heading that counts or invites comments
_HEADING = re.compile(r"^\s*(?:\d+\s+(?:comments?|responses?|replies|reactions)|comments?(?:\s*\(\d+\))?"
                      r"|(?:\d+|one|no)\s+(?:comments?|responses?|repl(?:y|ies))\s+(?:to|on)\s+[\"'“«„‘].*"
                      r"|(?:leave|post|add|write)\s+an?\s+(?:comment|reply|response)|(?:\d+\s+)?thoughts? on\b.*"
                      r"|join the discussion|discussion|reader comments"
                      rf"|\d+\s+{_COMMENT_WORD}|{_COMMENTS_WORD}(?:\s*\(\d+\))?"
                      r"|(?:schreibe|hinterlasse)\s+einen\s+kommentar|laisser\s+un\s+commentaire"
                      r"|deja\s+un\s+comentario|lascia\s+un\s+commento|deixe\s+um\s+comentário"
                      r"|(?:geef|laat)\s+een\s+reactie(?:\s+achter)?)\s*:?\s*$", re.IGNORECASE)
_HEADINGS = ("h1", "h2", "h3", "h4", "h5", "h6")
_NEVER = frozenset({"html", "body", "head", "main", "article"})
#: a thread's title is this short
_TITLE_CHARS = 80


def _holds_article(el: etree._Element) -> bool:
    """Whether an element holds the page's headline or its article: it is more than a thread."""
    for _ in el.iter("h1", "article", "main"):
        return True
    return False


#: class or id tokens (as blocks carry them) that may name a comment thread; a token holding
#: "comment" (``commentbody``, ``commentsdiv``) is a hint too
COMMENT_TOKENS = frozenset({"comment", "comments", "commentlist", "disqus", "respond", "replies", "reply", "dsq",
                            "discussion"})


def _hinted(tokens: Collection[str]) -> bool:
    return not COMMENT_TOKENS.isdisjoint(tokens) or any("comment" in t for t in tokens)


def page_tokens(blocks: Sequence[Block]) -> set[str]:
    """Every class/id token the page's blocks carry (read once for the comment and review hints)."""
    tokens: set[str] = set()
    for t in {b.tokens for b in blocks}:  # blocks of one element share their tokens
        tokens.update(t)
    return tokens


def may_have_comments(blocks: Sequence[Block], tokens: set[str] | None = None) -> bool:
    """Whether any block's class/id tokens (``tokens``: `page_tokens`, when known) or heading
    hint at comments (else the tree need not be read)."""
    return (_hinted(page_tokens(blocks) if tokens is None else tokens)
            or any(b.heading_level and _HEADING.match(b.text) for b in blocks))


def _named(el: etree._Element) -> bool:
    ident = el.get("id")
    if ident and (_ID.match(ident.strip()) or _compound(ident.strip())):
        return True
    cls = el.get("class")
    return cls is not None and any(_CLASS.match(c) or _compound(c) for c in cls.split())


def _compound(name: str) -> bool:
    return len(name) <= _COMPOUND_CHARS and "omment" in name and bool(_COMPOUND.match(name))


def _text(el: etree._Element, limit: int) -> str | None:
    """The element's text, whitespace folded, or None when it is longer than ``limit``."""
    words: list[str] = []
    n = 0
    for t in el.itertext():
        for w in t.split() if isinstance(t, str) else ():
            n += len(w) + 1
            if n > limit + 1:
                return None
            words.append(w)
    return " ".join(words)


def _is_title(el: etree._Element) -> bool:
    """Whether the element is a thread's title: all its text a heading that counts or invites
    comments, and not a link (a "12 Comments" link in an article's byline is not a title)."""
    if el.tag == "a" or any(a.tag == "a" for a in el.iterancestors()):
        return False
    text = _text(el, _TITLE_CHARS)
    if not text or not _HEADING.match(text):
        return False
    linked = sum(len(_text(a, _TITLE_CHARS) or "") for a in el.iter("a") if a.get("href"))
    return linked * 2 < len(text)


def _rank(el: etree._Element) -> int:
    """The level of the heading an element is or holds (1-6), 6 when it holds none."""
    for h in el.iter(*_HEADINGS):
        return int(str(h.tag)[1])
    return 6


def _title_and_after(el: etree._Element, heading: re.Pattern[str] = _HEADING) -> list[etree._Element]:
    """A thread's title and the elements after it in its container, up to the next heading of
    the same or a higher level that is not itself about comments (a section "Comments" in a
    document ends where the next section starts). When the title is alone in a wrapper
    (``<div class="comments-title"><h3>12 Comments</h3></div>``), what follows the wrapper."""
    text = _text(el, _TITLE_CHARS)
    rank = _rank(el)
    parent = el.getparent()
    while (parent is not None and parent.tag not in _NEVER and not _holds_article(parent)
           and _text(parent, _TITLE_CHARS) == text):
        el, parent = parent, parent.getparent()
    out = [el]
    for sib in el.itersiblings():
        if not isinstance(sib.tag, str):
            continue
        if sib.tag in _HEADINGS and int(sib.tag[1]) <= rank and not heading.match(_text(sib, _TITLE_CHARS) or ""):
            break
        if not _holds_article(sib):
            out.append(sib)
    return out


class _Paths:
    """Elements by the paths `segment` gives blocks (lxml's ``getpath``), and paths by element.

    Resolving a path with XPath, or asking lxml for an element's path, scans the earlier
    siblings at every step: under a parent of 10,000 comments, finding each comment's element
    took over ten seconds. Here each parent's children are read once.
    """

    def __init__(self, root: etree._Element) -> None:
        self.root = root
        self.root_path = root.getroottree().getpath(root)
        self._by_tag: dict[etree._Element, dict[str, list[etree._Element]]] = {}
        self._paths: dict[etree._Element, str] = {root: self.root_path}

    def _children(self, parent: etree._Element) -> dict[str, list[etree._Element]]:
        got = self._by_tag.get(parent)
        if got is None:
            got = self._by_tag[parent] = {}
            for child in parent:
                if isinstance(child.tag, str):
                    got.setdefault(child.tag, []).append(child)
        return got

    def element(self, path: str) -> etree._Element | None:
        """The element at ``path``, or None."""
        root_path = self.root_path
        if not path.startswith(root_path) or path[len(root_path):len(root_path) + 1] not in ("", "/"):
            return None
        el = self.root
        for step in path[len(root_path) + 1:].split("/") if len(path) > len(root_path) else ():
            tag, bracket, index = step.partition("[")  # "div[3]": the third div; "div": the only one
            position = 1
            if bracket:
                if not (index.endswith("]") and index[:-1].isdigit()):
                    return None
                position = int(index[:-1])
            same = self._children(el).get(tag)
            if not same or not 1 <= position <= len(same):
                return None
            el = same[position - 1]
        return el

    def path(self, el: etree._Element) -> str:
        """``el``'s path, as lxml's ``getpath`` writes it."""
        got = self._paths.get(el)
        if got is not None:
            return got
        parent = el.getparent()
        if parent is None:
            got = el.getroottree().getpath(el)
        else:
            same = self._children(parent)[str(el.tag)]
            if len(same) == 1:
                got = f"{self.path(parent)}/{el.tag}"
            else:
                for i, sibling in enumerate(same, 1):  # every sibling's path at once
                    self._paths.setdefault(sibling, f"{self.path(parent)}/{el.tag}[{i}]")
                got = self._paths[el]
        self._paths[el] = got
        return got


class _Found:
    """Element paths found so far, and whether a path is one of them or under one."""

    #: up to this many paths, a prefix test beats looking up each ancestor of the path
    FEW = 8

    def __init__(self) -> None:
        self.paths: set[str] = set()
        self._prefixes: tuple[str, ...] = ()

    def add(self, path: str) -> None:
        self.paths.add(path)
        self._prefixes = tuple(p + "/" for p in self.paths) if len(self.paths) <= self.FEW else ()

    def holds(self, path: str) -> bool:
        paths = self.paths
        if not paths:
            return False
        if path in paths:
            return True
        if self._prefixes:
            return path.startswith(self._prefixes)
        i = path.find("/", 1)
        while i > 0:
            if path[:i] in paths:
                return True
            i = path.find("/", i + 1)
        return False


def _outermost_named(el: etree._Element | None, name_of: Callable[[etree._Element], object],
                     seen: set[etree._Element] | None = None) -> tuple[etree._Element | None, object]:
    """The outermost element from ``el`` up (below ``body``, ``main`` and ``article``) that
    ``name_of`` names and that holds no article (`_holds_article`), with its name; ``seen``:
    elements walked from before, where the walk stops (each is read once)."""
    outer: etree._Element | None = None
    outer_name: object = None
    while el is not None and el.tag not in _NEVER and (seen is None or el not in seen):
        if seen is not None:
            seen.add(el)
        name = name_of(el)
        if name and not _holds_article(el):
            outer, outer_name = el, name
        el = el.getparent()
    return outer, outer_name


def _titled(paths: _Paths, b: Block, heading: re.Pattern[str]) -> list[etree._Element]:
    """A heading block that ``heading`` matches, with what follows it in its container
    (`_title_and_after`); none for other blocks or a heading that holds the article."""
    if not (b.heading_level and len(b.text) <= _TITLE_CHARS and heading.match(b.text)):
        return []
    el = paths.element(b.xpath)
    return _title_and_after(el, heading) if el is not None and not _holds_article(el) else []


def comment_roots(root: etree._Element, blocks: Sequence[Block]) -> list[str]:
    """Element paths of the page's comment threads and comments (outermost only).

    Only the elements above blocks whose class/id tokens hint at comments, and headings that
    count or invite them, are read: the rest of the tree is not walked.
    """
    paths = _Paths(root)
    found = _Found()
    hinted: dict[tuple[str, ...], bool] = {}  # blocks of one element share their tokens

    def add(elements: Sequence[etree._Element]) -> None:
        for e in elements:
            found.add(paths.path(e))

    for b in blocks:
        if found.holds(b.xpath):
            continue  # already inside a thread
        hint = hinted.get(b.tokens)
        if hint is None:
            hint = hinted[b.tokens] = _hinted(b.tokens)
        if hint:  # an element above it may name a thread
            outer, _ = _outermost_named(paths.element(b.xpath), _named)
            if outer is not None:
                # a named title (``<h2 class="comments">Comments</h2>``) heads the thread after it
                add(_title_and_after(outer) if _is_title(outer) else [outer])
                continue
        add(_titled(paths, b, _HEADING))  # a heading and the thread under it in its container
    return _outermost(found.paths)


def _outermost(paths: Iterable[str]) -> list[str]:
    """The element paths that are under none of the others, sorted."""
    kept: list[str] = []
    for p in sorted(set(paths)):  # sorted: an ancestor comes right before its descendants
        if not kept or not p.startswith(kept[-1] + "/"):
            kept.append(p)
    return kept


def _under(blocks: Sequence[Block], roots: Sequence[str]) -> np.ndarray:
    """Per block, whether it is one of the elements ``roots`` or sits under one."""
    if not roots:
        return np.zeros(len(blocks), dtype=bool)
    found = _Found()
    for r in roots:
        found.add(r)
    return np.array([found.holds(b.xpath) for b in blocks], dtype=bool)


#: a page whose comments would be over this share of its kept text, and whose kept text
#: outside them is under `MIN_ARTICLE_CHARS`, is a discussion (a forum thread, a questions
#: page): its comments are its content and none is marked
MAX_COMMENT_SHARE = 0.5
#: an article this long is an article whatever the length of the thread under it (a short
#: post under a long thread: on dragnet's dev pages with comments, F1 .926 with the share
#: rule alone, .934 with this; magic_html's forum pages unchanged)
MIN_ARTICLE_CHARS = 2000
#: a thread that opens with its title ("Comments", "12 Comments", "Comments (5)") after this
#: much kept text is a thread under an article, however short the article and long the thread
#: (0 turns the rule off). On dragnet's dev pages with comments, F1 .938 without it, .965 with
#: it; any value from 1 to 500 characters gives the same, 800 gives .956
MIN_TITLED_ARTICLE_CHARS = 300


#: an address whose host or a folder names a forum, a thread, a discussion, a community or a
#: question, or that numbers a topic: a discussion page (``forum.example.org/t/1``, ``/forums/...``,
#: ``/questions/42/...``, ``/topic/1571202-editing-pc-build``, ``/topics/43661``; a site's
#: ``/topic/cloud/`` or ``/topics/sports/`` is a section, not a thread)
_DISCUSSION_URL = re.compile(r"^(?:[a-z][a-z0-9+.-]*://)?(?:forums?|community|bbs|discuss|discussions?)\.[^/]*"
                             r"|/(?:forums?|threads?|discussions?|questions?|viewtopic|showthread|community)"
                             r"(?:[/?#.]|$)|/topics?/\d+(?:[-/?#.]|$)", re.IGNORECASE)


def discussion_page(url: str | None) -> bool:
    """Whether the page's address names a forum, a thread or a question (its comments are its content)."""
    return bool(url and _DISCUSSION_URL.search(url))


def _titled_after_article(blocks: Sequence[Block], mask: np.ndarray, kept: np.ndarray, sizes: np.ndarray) -> bool:
    """Whether the thread opens with its title after an article (kept text before it): the
    title is the first block of a part of the thread or the block right before one, not a link
    (``<div class="header">12 Comments</div>`` above ``<div id="comments_container">``)."""
    if not MIN_TITLED_ARTICLE_CHARS:
        return False
    before = np.cumsum(np.where(kept, sizes, 0)) - np.where(kept, sizes, 0)  # kept text before each block
    starts = np.flatnonzero(mask & ~np.concatenate(([False], mask[:-1])))  # where each part of the thread opens
    for i in sorted({int(j) for s in starts for j in (s - 1, s) if j >= 0}):
        b = blocks[i]
        if before[i] < MIN_TITLED_ARTICLE_CHARS:
            continue
        if len(b.text) <= _TITLE_CHARS and b.link_chars * 2 < len(b.text) and _HEADING.match(b.text):
            return True
    return False


def comment_mask(blocks: Sequence[Block], roots: Sequence[str], kept: np.ndarray | None = None,
                 discussion: bool = False) -> np.ndarray:
    """Per block, whether it sits under one of the comment roots (`comment_roots`).

    Nothing is marked on a ``discussion`` page (`discussion_page`), nor, with ``kept`` (the
    model's decisions), on a page whose comments would be over `MAX_COMMENT_SHARE` of its kept
    text while the rest is under `MIN_ARTICLE_CHARS`, unless the thread opens with its title
    after at least `MIN_TITLED_ARTICLE_CHARS` of kept text.
    """
    if discussion:
        return np.zeros(len(blocks), dtype=bool)
    mask = _under(blocks, roots)
    if kept is not None and mask.any():
        sizes = np.array([len(b.text) for b in blocks])
        thread = sizes[kept & mask].sum()
        outside = sizes[kept & ~mask].sum()
        if (thread > MAX_COMMENT_SHARE * sizes[kept].sum() and outside < MIN_ARTICLE_CHARS
                and not _titled_after_article(blocks, mask, kept, sizes)):
            mask[:] = False
    return mask


# --- customers' reviews on a shop's product page ---------------------------------------------

#: a class name or id naming customers' reviews or one review, after any prefix (``reviews``,
#: ``user_reviews``, ``app_reviews_area``, ``review_ctn``, ``customerReviews``,
#: ``pipf-seo-reviews``), or a review service's widget (Yotpo, Judge.me, Stamped, Okendo,
#: Bazaarvoice, PowerReviews, REVIEWS.io). A word that says something else about reviews does not
#: name them: ``review_summary``, ``reviewCount``, ``review-stars``
_REVIEW_NAME = re.compile(
    r"^(?:[a-z0-9]+[-_]+)*(?:(?:user|customer|product|app|client|buyer|guest|verified|all|recent)[-_]?)?reviews?"
    r"(?:[-_]?(?:list|listing|section|area|container|wrap(?:per)?|holder|block|box|widget|content|items?|panel|"
    r"tab|body|feed|ctn|display|all|recent|responsive|module|root|app))*(?:[-_]?\d+)?$"
    r"|^(?:yotpo-(?:main-widget|reviews?(?:-[a-z]+)?)|jdgm-(?:widget|rev-widg|review-widget)"
    r"|stamped-(?:main-widget|reviews?(?:-[a-z]+)?)|okereviews|bv-reviews?|bvrrcontainer|pr-review-display"
    r"|reviewsio-[a-z-]+)$", re.IGNORECASE)
#: in a name that `_REVIEW_NAME` matches, what says it holds several reviews (else it names one,
#: and counts only where the page has two or more elements so named)
_REVIEW_SET = re.compile(r"reviews|list|section|area|container|wrap|holder|widg|feed|panel|tab|module|root|display")
#: class/id tokens (as blocks carry them) of a review service's widget; a token holding
#: "review" is a hint too
_REVIEW_VENDORS = frozenset({"yotpo", "jdgm", "stamped", "bvrrcontainer"})
#: a heading over customers' reviews: "Customer Reviews", "Reviews (12)", "29 reviews for …",
#: "Ratings & Reviews", "Customer Reviews of the …", "Write a Review". A bare "Reviews" may head
#: the press's (Steam's quotes of critics, part of a game's description): it is not one
_REVIEW_HEADING = re.compile(
    r"^\s*(?:(?:customer|product|user|guest|verified|buyer)s?'?\s+reviews?(?:\s*\(\d[\d,.]*\))?"
    r"|reviews?\s*\(\d[\d,.]*\)|ratings?\s*(?:&|and)\s*reviews?|reviews?\s*(?:&|and)\s*ratings?"
    r"|\d[\d,.]*\s+(?:customer\s+)?(?:reviews?|ratings?))(?:\s+(?:of|for)\s.*)?\s*$"
    r"|^\s*(?:write|add|leave|submit)\s+an?\s+review\s*:?\s*$", re.IGNORECASE)
#: a product page whose kept text beside its reviews is under this is a page of reviews: they
#: are its content, and none is marked
MIN_BESIDE_REVIEWS_CHARS = 300


def _review_hinted(tokens: Collection[str]) -> bool:
    """Whether class/id tokens may name reviews (a token holding "review", or a widget's name)."""
    return any("review" in t for t in tokens) or not _REVIEW_VENDORS.isdisjoint(tokens)


def _review_name(el: etree._Element) -> str | None:
    """The element's id or class name that names reviews or one review, lower-cased, or None."""
    names = [(el.get("id") or "").strip(), *(el.get("class") or "").split()]
    for name in names:
        if name and len(name) <= _COMPOUND_CHARS and _REVIEW_NAME.match(name):
            return name.lower()
    return None


def review_roots(root: etree._Element, blocks: Sequence[Block], tokens: set[str] | None = None) -> list[str]:
    """Element paths of the customers' reviews of a product page (outermost only); none on
    other pages.

    Reviews that a shop prints under what it sells are its customers' comments, not the
    product's description: an element whose class or id names reviews (``user_reviews``), or
    two elements or more whose class or id names one review the same way (an editor's review
    is one: ``reviewBody``), and a heading over reviews ("Customer Reviews (12)") with the
    elements after it in its container. As for comments, an element that holds the page's
    ``<h1>``, an ``<article>`` or a ``<main>`` is never taken. Pages whose blocks carry no
    review-like token or heading are not read further, and of the others only product pages
    (`metadata.product_page`). ``tokens``: the page's `page_tokens`, when known.
    """
    hint = _review_hinted(page_tokens(blocks) if tokens is None else tokens)
    if not hint and not any(b.heading_level and _REVIEW_HEADING.match(b.text) for b in blocks):
        return []
    if not product_page(root):
        return []
    hinted = {t for t in {b.tokens for b in blocks} if _review_hinted(t)} if hint else set()
    paths = _Paths(root)
    found: list[etree._Element] = []
    taken = _Found()  # the paths of `found`
    single: dict[str, list[etree._Element]] = {}  # elements named as one review, by name
    seen: set[etree._Element] = set()
    for b in blocks:
        if taken.holds(b.xpath):
            continue  # already inside reviews
        if b.tokens in hinted:
            outer, name = _outermost_named(paths.element(b.xpath), _review_name, seen)
            if outer is not None:
                if _REVIEW_SET.search(str(name)):
                    found.append(outer)
                    taken.add(paths.path(outer))
                else:
                    single.setdefault(str(name), []).append(outer)
                continue
        for e in _titled(paths, b, _REVIEW_HEADING):
            found.append(e)
            taken.add(paths.path(e))
    # customers write several: a lone element named as one review is an editor's (``reviewBody``)
    found += [e for group in single.values() if len(group) > 1 for e in group]
    return _outermost(paths.path(e) for e in found)


def review_mask(blocks: Sequence[Block], roots: Sequence[str], kept: np.ndarray | None = None) -> np.ndarray:
    """Per block, whether it sits under one of the review roots (`review_roots`); nothing is
    marked, with ``kept`` (the model's decisions), when the kept text beside the reviews is
    under `MIN_BESIDE_REVIEWS_CHARS` (a page that lists a product's reviews)."""
    mask = _under(blocks, roots)
    if kept is not None and mask.any():
        beside = sum(len(b.text) for b, k, m in zip(blocks, kept, mask) if k and not m)
        if beside < MIN_BESIDE_REVIEWS_CHARS:
            mask[:] = False
    return mask


#: class/id tokens of a widget that lists the site's latest comments, on any of its pages
#: (WordPress's ``widget_recent_comments``, ``recentcomments``): a thread, but not this page's
_ELSEWHERE = frozenset({"recentcomments", "latestcomments"})
_ELSEWHERE_WORDS = frozenset({"recent", "latest"})


def _elsewhere(tokens: tuple[str, ...]) -> bool:
    """Whether a block sits in a widget of the site's latest comments (comments on other pages)."""
    return not _ELSEWHERE.isdisjoint(tokens) or (
        not _ELSEWHERE_WORDS.isdisjoint(tokens) and ("comments" in tokens or "comment" in tokens))


def _readers_words(block: Block) -> bool:
    """Whether a block of a comment thread is something a reader wrote about this page, or says
    who and when: not the thread's title ("12 Comments"), a form's fields, a "Reply" link, a
    score widget, nor a widget of the site's latest comments on other pages."""
    if block.hidden or "form" in block.ancestors or _HEADING.match(block.text) or _elsewhere(block.tokens):
        return False
    if says_when(block.text):
        return True
    if block.link_chars > 0.5 * len(block.text):
        return False
    words = title_words(block.text)  # Chinese and Japanese counted by character, as everywhere
    return words >= 4 or (words >= 1 and SENT_END.search(block.text.rstrip()[-1:]) is not None)


def readers_text(blocks: Sequence[Block], mask: np.ndarray | None) -> list[Block]:
    """The blocks of the comment threads (``mask``, `comment_mask`) worth reading apart from
    the article (``--comments separate``): readers' paragraphs (four words or more, or a
    sentence, mostly not links) and the short lines that say who wrote each and when; not
    the threads' titles, forms, buttons, "Reply" links or score widgets, which the block list
    still marks as comments. The model is not asked: its gold keeps comments on some pages
    and leaves them out on others, so its scores inside a thread say little."""
    if mask is None or not len(mask):
        return []
    return [b for b, m in zip(blocks, mask) if m and _readers_words(b)]


#: a line that says who wrote a comment and when is this short ("Posted by: Ann at May 2, 2012
#: 6:31 AM"); a longer one with a date word is a paragraph ("comments are owned by whoever
#: posted them")
_HEAD_WORDS = 15
#: elements that part one comment's paragraphs, not comments ("": the element's own text)
_PARAGRAPHS = frozenset({"", "p", "pre", "blockquote", "table", "h1", "h2", "h3", "h4", "h5", "h6", "br"})


def _paragraph(tag: str, dated: bool) -> bool:
    """Whether an element that blocks part ways at is a paragraph of one comment: a paragraph
    element, or a list that says nothing of who wrote and when (a list of replies does)."""
    return tag in _PARAGRAPHS or (tag in ("ul", "ol") and not dated)


def _tag(step: str) -> str:
    return step.partition("[")[0]


#: where blocks part ways: the depth of the first step of their paths they do not all share,
#: and the runs of blocks (in page order) under each element there, with its step ("" for the
#: text of the element the paths end at)
_Split = tuple[int, list[tuple[str, list[int]]]]


def _split(members: list[int], steps: Sequence[list[str]], start: int) -> _Split:
    """Where the blocks ``members`` (whose paths share their first ``start`` steps) part ways."""
    depth = _common_steps([steps[i] for i in members], start)
    runs: list[tuple[str, list[int]]] = []
    for i in members:
        key = steps[i][depth] if len(steps[i]) > depth else ""
        if not runs or runs[-1][0] != key:
            runs.append((key, []))
        runs[-1][1].append(i)
    return depth, runs


def _items(split: _Split, steps: Sequence[list[str]]) -> bool:
    """Whether blocks that part ways as ``split`` says hold a list of comments, though none says
    who wrote it or when: they part at two items of a list or more (``ul > li``), here or in a
    list beside a thread's disclaimer, and some item holds more than a line of text
    (``li > div > div > p``, where a comment's bullet list holds ``li`` or ``li > p``)."""
    depth, runs = split
    if all(_tag(key) == "li" for key, _ in runs):
        return len(runs) > 1 and any(len(steps[i]) > depth + 2 for _, run in runs for i in run)
    return any(_tag(key) in ("ul", "ol") and len(run) > 1 and _items(_split(run, steps, depth + 1), steps)
               for key, run in runs)


def readers_comments(blocks: Sequence[Block], mask: np.ndarray | None) -> list[list[Block]]:
    """The readers' text (`readers_text`) one comment at a time.

    A thread's comments are the elements where the readers' blocks part ways (the ``li`` of a
    comment list, each comment's ``div``); one that holds two lines or more that say who wrote
    and when, or whose blocks part ways at the items of a list, holds several comments (a
    thread's list under a disclaimer, a comment and its replies) and is parted again the same
    way. A lone line that says who and when
    (``<dt>Ann, May 2</dt><dd>…</dd>``) heads the comment after it. Where the blocks part ways
    at paragraphs (``p``, ``pre``, a list), they are one comment's. When every comment says who
    and when, what follows the last of them is not one (a footer that a thread's title took in).
    """
    text = readers_text(blocks, mask)
    if not text:
        return []
    steps = [b.xpath.split("/") for b in text]
    dated = [says_when(b.text) and len(b.text.split()) <= _HEAD_WORDS for b in text]
    # a block in a customer's review carries a class/id token naming reviews
    units = [b.tokens if _review_hinted(b.tokens) else None for b in text]
    comments = _parted(list(range(len(text))), steps, dated, 0, units=units)
    signed = [k for k, c in enumerate(comments) if any(dated[i] for i in c)]
    if len(signed) >= 3 and signed[-1] + 1 == len(signed):
        # every comment says who and when: what follows the last of them is the page's footer
        # under the thread ("Powered by…"), not a comment
        comments = comments[:len(signed)]
    return [[text[i] for i in c] for c in comments]


def _reviews_apart(split: _Split, units: Sequence[tuple[str, ...] | None]) -> bool:
    """Whether blocks that part ways as ``split`` says are customers' reviews, one an element:
    they part at two sibling elements or more of one tag whose first blocks carry the same
    review-naming class/id tokens (a shop's reviews often say no date; a review's title and
    text, named apart, stay one)."""
    _, runs = split
    if len(runs) < 2 or not runs[0][0] or len({_tag(key) for key, _ in runs}) > 1:
        return False
    first = units[runs[0][1][0]]
    return first is not None and all(units[run[0]] == first for _, run in runs)


def _parted(members: list[int], steps: Sequence[list[str]], dated: Sequence[bool], start: int,
            split: _Split | None = None, units: Sequence[tuple[str, ...] | None] = ()) -> list[list[int]]:
    """``members`` (positions of blocks in page order, whose paths share their first ``start``
    steps; ``split``: where they part ways, when known) as comments: see `readers_comments`.
    ``units``: per block, its class/id tokens when they name reviews (`_reviews_apart`)."""
    if len(members) < 2:
        return [members]
    depth, runs = split or _split(members, steps, start)
    if all(_paragraph(_tag(key), any(dated[i] for i in run)) for key, run in runs):
        return [members]  # one comment's paragraphs (or its own text)
    comments: list[list[int]] = []
    heading: list[int] = []
    for _, run in runs:
        if all(dated[i] for i in run):
            heading += run  # who and when, above what was said
            continue
        inner = _split(run, steps, depth + 1) if len(run) > 1 else None
        several = inner is not None and (sum(dated[i] for i in run) > 1 or _items(inner, steps)
                                         or (bool(units) and _reviews_apart(inner, units)))
        parted = _parted(run, steps, dated, depth + 1, inner, units) if several else [run]
        comments += [heading + parted[0]] + parted[1:]
        heading = []
    if heading:
        comments.append(heading)
    return comments


def _common_steps(paths: Sequence[Sequence[str]], start: int = 0) -> int:
    """How many leading steps the element paths (split at ``/``) all share; the first ``start``
    are known to be shared."""
    first = paths[0]
    n = len(first)
    for path in paths[1:]:
        n = min(n, len(path))
        for k in range(start, n):
            if path[k] != first[k]:
                n = k
                break
    return n
