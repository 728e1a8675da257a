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

On a page that offers a product, its customers' reviews are comments too
(`blockclf.reviews`); the comments of a thread given apart, one by one, are read by
`blockclf.readers`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Iterable, Sequence

import numpy as np
from lxml import etree

from .block import Block

__all__ = ["COMMENT_TOKENS", "COMPOUND_CHARS", "LINKBACK_TOKENS", "MAX_COMMENT_SHARE", "THREAD_TITLE", "ElementPaths",
           "FoundPaths", "comment_mask", "comment_roots", "discussion_page", "is_paper", "may_have_comments",
           "outermost_named", "outermost_paths", "page_tokens", "titled_section", "under_roots"]

#: an id naming a comment thread or one comment, or the list of the blogs that link to the post
#: (its trackbacks and pingbacks, which a blog lists with its comments or beside them)
_ID = re.compile(r"^(?:comments?|comment[-_]?(?:list|section|area|thread|s?wrap(?:per)?|container|form)?"
                 r"|(?:li-)?comment[-_]\d+|disqus_thread|respond|replies|dsq-\w+|reply[-_]?\w*|discussion"
                 r"|trackbacks?|pingbacks?|pings)$",
                 re.IGNORECASE)
#: a class naming a comment thread or one comment, or a post's trackbacks (each class name is tested alone)
_CLASS = re.compile(r"^(?:comments?|comment[-_](?:list|body|content|text|section|area|thread|wrap(?:per)?|"
                    r"container|respond|form|reply|item|entry)|commentlist|comments[-_](?:area|list|section|wrap"
                    r"(?:per)?|container|block|thread)|comment-respond|disqus|dsq-\w+|replies|reply-list"
                    r"|trackbacks|pingbacks|(?:trackback|pingback)s?[-_]list)$",
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
COMPOUND_CHARS = 60
#: the word for comments in the languages whose blogs are most common after English (German,
#: French, Spanish, Italian, Portuguese, Dutch), as their blog themes write it: alone only in
#: the plural, since the singular also names an opinion piece ("Kommentar", "Commento")
_COMMENTS_WORD = r"(?:kommentare|commentaires|comentarios|commenti|comentários|reacties)"
_COMMENT_WORD = rf"(?:{_COMMENTS_WORD}|kommentar|commentaire|comentario|commento|comentário|reactie)"
def _thread_title(discussion: bool) -> re.Pattern[str]:
    """A heading that counts or invites comments, alone or in braces ("{ 2 comments… read them
    below or add one }", as a widely used blog theme counts them); with ``discussion``, a bare
    "Discussion" too."""
    return re.compile(r"^\s*(?:[{\[]\s*)?"
                      r"(?:\d+\s+(?:comments?|responses?|replies|reactions|trackbacks?|pingbacks?)"
                      r"|comments?(?:\s*\(\d+\))?"
                      r"|(?:\d+|one|no)\s+comments?\s*(?:…|\.\.\.)\s*(?:read (?:them|it) below(?:\s+or\s+add one)?"
                      r"|add one(?:\s+now)?)"
                      r"|(?:\d+|one|no)\s+(?:comments?|responses?|repl(?:y|ies))\s+(?:to|on)\s+[\"'“«„‘].*"
                      r"|(?:leave|post|add|write)\s+an?\s+(?:comment|reply|response)|(?:\d+\s+)?thoughts? on\b.*"
                      r"|join the discussion" + (r"|discussion" if discussion else "") + r"|reader comments"
                      r"|discussion about this (?:post|article|story|episode)"
                      r"|discuss this (?:blog )?(?:post|article|story)"
                      rf"|\d+\s+{_COMMENT_WORD}|{_COMMENTS_WORD}(?:\s*\(\d+\))?"
                      r"|(?:schreibe|hinterlasse)\s+einen\s+kommentar|laisser\s+un\s+commentaire"
                      r"|deja\s+un\s+comentario|lascia\s+un\s+commento|deixe\s+um\s+comentário"
                      r"|(?:geef|laat)\s+een\s+reactie(?:\s+achter)?)\s*:?(?:\s*[}\]])?\s*$", re.IGNORECASE)


#: a heading that counts or invites comments (`_thread_title`)
THREAD_TITLE = _thread_title(True)
#: the same on a paper's or a manual's page (`is_paper`), whose "Discussion" is its own section
_PAPER_THREAD_TITLE = _thread_title(False)
#: the section headings of a scholarly paper or a manual page, numbered or not
_PAPER_SECTION = re.compile(r"^\s*(?:[\dIVX]+(?:\.\d+)*\.?\s+)?(?:abstract|introduction|background|methods?"
                            r"|materials and methods|methodology|results|results and discussion|conclusions?"
                            r"|references|bibliography|limitations|acknowledge?ments|synopsis|see also)\s*:?\s*$",
                            re.IGNORECASE)
#: a page with this many of them as headings is a paper's or a manual's
PAPER_MIN_SECTIONS = 2


def is_paper(blocks: Sequence[Block]) -> bool:
    """Whether the page is a scholarly paper or a manual page: `PAPER_MIN_SECTIONS` of its
    headings name such a page's sections (Introduction, Methods, Results, Conclusions,
    References; Synopsis, See also: not a shop's "Description" and "Options"). A "Discussion"
    there is the paper's own section after its results, or the manual's after its options,
    not a readers' thread: scientific articles and git's manual pages lost theirs as comments."""
    n = 0
    for b in blocks:
        if b.heading_level and len(b.text) <= _TITLE_CHARS and _PAPER_SECTION.match(b.text):
            n += 1
            if n >= PAPER_MIN_SECTIONS:
                return True
    return False


_HEADINGS = ("h1", "h2", "h3", "h4", "h5", "h6")
_NEVER = frozenset({"html", "body", "head", "main", "article"})
#: a thread's title is this short
_TITLE_CHARS = 80


def _holds_article(el: etree._Element) -> bool:
    """Whether an element holds the page's headline or its article: it is more than a thread."""
    for _ in el.iter("h1", "article", "main"):
        return True
    return False


#: class and id words of a post's trackbacks and pingbacks (other blogs' links to it): part of its
#: thread, though no reader wrote them
LINKBACK_TOKENS = frozenset({"trackback", "trackbacks", "pingback", "pingbacks"})
#: class or id tokens (as blocks carry them) that may name a comment thread; a token holding
#: "comment" (``commentbody``, ``commentsdiv``) is a hint too
COMMENT_TOKENS = frozenset({"comment", "comments", "commentlist", "disqus", "respond", "replies", "reply", "dsq",
                            "discussion"}) | LINKBACK_TOKENS


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
            or any(b.heading_level and THREAD_TITLE.match(b.text) for b in blocks))


def _named(el: etree._Element) -> bool:
    ident = el.get("id")
    if ident and (_ID.match(ident.strip()) or _compound(ident.strip())):
        return True
    return _class_named(el)


def _class_named(el: etree._Element) -> bool:
    cls = el.get("class")
    return cls is not None and any(_CLASS.match(c) or _compound(c) for c in cls.split())


def _named_in_paper(el: etree._Element) -> bool:
    """`_named` on a paper's or a manual's page (`is_paper`), where an id "discussion" names
    the page's own section: only a class then names a thread there."""
    ident = el.get("id")
    return _class_named(el) if ident and ident.strip().lower() == "discussion" else _named(el)


def _compound(name: str) -> bool:
    return len(name) <= COMPOUND_CHARS and "omment" in name and bool(_COMPOUND.match(name))


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


def _is_title(el: etree._Element, titles: re.Pattern[str] = THREAD_TITLE) -> bool:
    """Whether the element is a thread's title: all its text a heading that counts or invites
    comments, and not a link (a "12 Comments" link in an article's byline is not a title)."""
    if el.tag == "a" or any(a.tag == "a" for a in el.iterancestors()):
        return False
    text = _text(el, _TITLE_CHARS)
    if not text or not titles.match(text):
        return False
    linked = sum(len(_text(a, _TITLE_CHARS) or "") for a in el.iter("a") if a.get("href"))
    return linked * 2 < len(text)


def _rank(el: etree._Element) -> int:
    """The level of the heading an element is or holds (1-6), 6 when it holds none."""
    for h in el.iter(*_HEADINGS):
        return int(str(h.tag)[1])
    return 6


def _title_and_after(el: etree._Element, heading: re.Pattern[str] = THREAD_TITLE) -> list[etree._Element]:
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


class ElementPaths:
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


class FoundPaths:
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


def outermost_named(el: etree._Element | None, name_of: Callable[[etree._Element], object],
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


def titled_section(paths: ElementPaths, b: Block, heading: re.Pattern[str]) -> list[etree._Element]:
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
    paths = ElementPaths(root)
    found = FoundPaths()
    hinted: dict[tuple[str, ...], bool] = {}  # blocks of one element share their tokens
    paper = is_paper(blocks)
    titles, named = (_PAPER_THREAD_TITLE, _named_in_paper) if paper else (THREAD_TITLE, _named)

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
            outer, _ = outermost_named(paths.element(b.xpath), named)
            if outer is not None:
                # a named title (``<h2 class="comments">Comments</h2>``) heads the thread after it
                add(_title_and_after(outer, titles) if _is_title(outer, titles) else [outer])
                continue
        add(titled_section(paths, b, titles))  # a heading and the thread under it in its container
    return outermost_paths(found.paths)


def outermost_paths(paths: Iterable[str]) -> list[str]:
    """The element paths that are under none of the others, sorted."""
    kept: list[str] = []
    for p in sorted(set(paths)):  # sorted: an ancestor comes right before its descendants
        if not kept or not p.startswith(kept[-1] + "/"):
            kept.append(p)
    return kept


def under_roots(blocks: Sequence[Block], roots: Sequence[str]) -> np.ndarray:
    """Per block, whether it is one of the elements ``roots`` or sits under one."""
    if not roots:
        return np.zeros(len(blocks), dtype=bool)
    found = FoundPaths()
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
#: (0 turns the rule off): more than a headline alone, which a question's or a forum topic's
#: replies may follow. On dragnet's dev pages with comments, F1 .938 without it, .965 with it
#: (any value from 1 to 500 characters gives the same, 800 gives .956); over every train and
#: dev page, 100 against 300 changes one, a blog's two-sentence post whose "Comments" came after
#: 250-odd kept characters once the site's repeated lines were gone (F1 .19 → .90)
MIN_TITLED_ARTICLE_CHARS = 100


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
        if len(b.text) <= _TITLE_CHARS and b.link_chars * 2 < len(b.text) and THREAD_TITLE.match(b.text):
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
    mask = under_roots(blocks, roots)
    if kept is not None and mask.any():
        sizes = np.array([len(b.text) for b in blocks])
        thread = sizes[kept & mask].sum()
        outside = sizes[kept & ~mask].sum()
        if (thread > MAX_COMMENT_SHARE * sizes[kept].sum() and outside < MIN_ARTICLE_CHARS
                and not _titled_after_article(blocks, mask, kept, sizes)):
            mask[:] = False
    return mask
