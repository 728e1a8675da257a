"""Checks blockclf runs on its own decisions: page verdicts and over-removal warnings.

Scoring (`blockclf.predict`) runs them on a page's blocks and decisions before it builds the
page's `Result`, which then holds their verdict, warnings and statistics; per-site stats
files and drift between runs are `blockclf.drift`.

Every figure here is computed from the result's blocks, so it can be recomputed from the
JSON output: ``page_chars`` is the sum of all blocks' text lengths, ``kept_chars`` that of the
kept blocks, ``kept_ratio`` their quotient, ``page_link_density`` the share of page characters
inside links, and ``boilerplate_share`` is ``1 - kept_ratio``. The ``index`` verdict also reads
the page's URL, its headline and whether it names a date or an author, all in the JSON output
too (`index_score`).
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING
from urllib.parse import unquote, urlsplit

import numpy as np

from .block import Block
from .html import FLAG_WARNINGS
from .words import paired_tokens, spaced_length, title_parts, title_words

if TYPE_CHECKING:
    from .result import Result

__all__ = [
    "ERROR_REASONS",
    "LOW_KEPT_RATIO",
    "MIN_KEPT_CHARS",
    "PageChecks",
    "body_chars",
    "card_share",
    "error_reason",
    "index_score",
    "link_units",
    "page_checks",
    "page_flags",
    "repeat_units",
    "site_checks",
    "slug_words",
    "title_words",
    "verdict_flag",
]

#: fewer kept characters than this and the page is flagged "too-short"
MIN_KEPT_CHARS = 200
#: kept/page character ratio under this, on a page with real text, flags likely over-removal
LOW_KEPT_RATIO = 0.05
#: page text (characters) above which a low kept ratio is suspicious
SUBSTANTIAL_PAGE = 2000
_WORD = re.compile(r"\w+")

# --- what the verdicts count (docs/page-signals.md) --------------------------------------
#: a block of at least this many characters (its `words.spaced_length`: Chinese and Japanese
#: paragraphs are a third as long as English ones that say as much), under
#: `PROSE_MAX_LINK_SHARE` of them in links, is prose
PROSE_MIN_CHARS = 150
PROSE_MAX_LINK_SHARE = 0.2
#: a block of this many characters (inclusive), at least `TITLE_MIN_LINK_SHARE` of them in links, is a link title
LINK_TITLE_CHARS = (10, 200)
TITLE_MIN_LINK_SHARE = 0.8
#: index: the page is an index when its *index score* is over 0; the score adds up, each times
#: its weight, what says "list of links or teasers" (positive weights) or "one text" (negative):
INDEX_BIAS = 3.75
#: ... ``page_link_density`` (0 to 1)
INDEX_W_LINK_DENSITY = 1.8
#: ... ``card_share`` (0 to 1): the share of the page's text inside repeated link cards
INDEX_W_CARDS = 1.7
#: ... ``ln(1 + repeat_units)``: one unit holding a link (a teaser, a product card) repeated many times
INDEX_W_REPEAT_UNITS = 0.27
#: ... ``kept_prose_chars / kept_chars`` (0 to 1): the kept text is prose rather than titles and snippets
INDEX_W_PROSE_SHARE = -1.1
#: ... ``ln(1 + kept_body_chars)``: the kept prose of one container, an article's body
INDEX_W_BODY = -0.23
#: ... ``min(slug_words, SLUG_WORDS_CAP)``: articles live at slugs, sections at one word
INDEX_W_SLUG = -0.55
#: ... 1 when the page names a publication date or an author (its ``date`` or ``author``)
INDEX_W_DATED = -1.15
#: ... ``ln(1 + title_words)``: an article's headline is longer than a section's name
INDEX_W_TITLE = -1.15
#: a page whose body (``kept_body_chars``) holds this many characters or more is never an index;
#: nor is one that keeps a code block (``kept_code_blocks``) or a term that reads as code
#: (``kept_code_terms``): documentation splits its prose into short sections whose links and
#: short titles read like a section page's, and an API reference its entries into short terms
#: and definitions, but a list of links or teasers carries no code
INDEX_MAX_BODY = 4000
#: an index page is read again at this share of the threshold: a listing's items, a thread's
#: short posts score under articles' paragraphs but above the page's menus (chosen on dev)
INDEX_THRESHOLD_SHARE = 0.6
#: slug words count up to this many
SLUG_WORDS_CAP = 4
#: the slug words of a page without a URL (between a section's one word and an article's slug)
SLUG_WORDS_NO_URL = 3
#: the headline words of a page without a headline (no ``<title>``, no ``<h1>`` read as one):
#: between a listing's (4, the median over wcxb's train and dev listings and collections) and
#: an article's (8); counted as none, such a page lost the headline term's whole pull toward a
#: document, and 19 of 23 untitled news articles of l3s_gn1's train and dev pages were indexes
TITLE_WORDS_NO_TITLE = 6
#: a group of link titles is a list of cards when its units (distinct parents) are at least this many;
#: a group of blocks repeats a unit (`repeat_units`) when it has at least this many units
CARD_MIN_UNITS = 5
#: error: the title or headline says so and under this many characters were kept
ERROR_MAX_KEPT_CHARS = 2000
#: why a page is an error page, the warning its verdict comes with (`error_reason`)
ERROR_REASONS = ("not-found", "blocked", "server-error")
_NOT_FOUND = re.compile(
    r"not found|no longer (?:exists|available)|(?:does not|doesn't|did not) exist"
    r"|nicht gefunden|introuvable|no encontrada|non trovata|niet gevonden|não encontrada|nie znaleziono",
    re.IGNORECASE)
#: not found in other words, said beside a page, an apology or an exclamation (`_APOLOGY`): "Oops!
#: That page can’t be found." (WordPress's own), "Whoops, we couldn't find that."; a headline may
#: say the words alone of anything ("Missing hikers cannot be found")
_CANNOT_FIND = re.compile(r"(?:can(?:not|'t|’t)|could(?: not|n't|n’t)) be found"
                          r"|(?:can(?:not|'t|’t)|could(?: not|n't|n’t)|unable to) find\b", re.IGNORECASE)
_APOLOGY = re.compile(r"\b(?:page|oops|whoops|sorry|uh[- ]oh)\b", re.IGNORECASE)
#: the reader may not see the page: a crawler blocked by the site ("Access Denied", with a reference
#: number; "Sorry, you have been blocked"), a bot check standing in for it (Cloudflare's "Just a
#: moment...", "Are you a robot?", "Pardon Our Interruption"), a consent wall in its place
#: (Google's "Before you continue to YouTube"), a login wall ("401 Unauthorized")
_BLOCKED = re.compile(
    r"access (?:to (?:this|the) (?:page|site|website|resource) )?(?:is |has been )?denied|access forbidden"
    r"|\b40[13] (?:forbidden|unauthori[sz]ed)|permission denied|zugriff verweigert|accès refusé|acceso denegado"
    r"|you(?: have|'ve|’ve) been blocked|^just a moment[.…]*$"
    r"|checking (?:if the site connection is secure|your browser)"
    r"|verify (?:that )?you are (?:a )?human|are you a robot|robot or human|pardon our interruption"
    r"|^before you continue(?: to [^.!?]{1,60})?$",
    re.IGNORECASE)
_SERVER_ERROR = re.compile(
    r"internal server error|service (?:temporarily )?unavailable|bad gateway|gateway time-?out|server error",
    re.IGNORECASE)
#: an HTTP status code that says not found, forbidden or server error, as a number of its own (not
#: "$2,500", "2.500", "500%")...
_STATUS = re.compile(r"(?<![\d.,$€£¥])\b(401|403|404|410|500|502|503|504)\b(?![.,]?\d|%)")
#: ...counts beside a word for an error or a page ("Error 404", "404 Page", "HTTP 503"), or alone in
#: a part of the title ("404 | Example"): titles name prices and counts too ("Espresso Machines
#: Under 500", "Indianapolis 500", "Cut Nearly 500 Jobs")
_ERROR_WORD = re.compile(r"\b(?:error|errore|erreur|fehler|fout|erro|http|status|oops|page|seite|página|pagina)\b",
                         re.IGNORECASE)
#: a definition's term that reads as code (`kept_code_terms`), as an API reference writes its
#: entries: a call's signature, a name and its arguments with no space between, after the words
#: that declare it if any ("json.dumps(obj, *, skipkeys=False)", "class
#: celery.result.AsyncResult(id, backend=None)[source]"), an assignment ("name = 'Mingle'"),
#: or a name joined by underscores, as code names a parameter or a setting
#: ("allow_release_in_dry_cells<class 'bool'>", "broker_connection_timeout");
#: not a product's or a field's name ("iPhone 15 (128 GB)", "Size (cm)", "Price: $5")
CODE_TERM = re.compile(r"(?:(?:class|exception|async|static|abstract|classmethod|staticmethod|property|function"
                       r"|def|method|attribute|data)\s+)*[A-Za-z_][\w.]*\(.*\)|[A-Za-z_][\w.]*\s*=\s*\S"
                       r"|[A-Za-z][A-Za-z0-9]*_[A-Za-z0-9_]*[A-Za-z0-9]\b")
_POSITION = re.compile(r"\[\d+\]")
_SLUG_SPLIT = re.compile(r"[-_+\s]")


def _prose_length(b: Block) -> int:
    """The block's `words.spaced_length` when it is prose, else 0."""
    n = len(b.text)
    if b.link_chars >= PROSE_MAX_LINK_SHARE * n:
        return 0
    length = spaced_length(b.text)
    return length if length >= PROSE_MIN_CHARS else 0


def _is_link_title(b: Block) -> bool:
    n = len(b.text)
    return LINK_TITLE_CHARS[0] <= n <= LINK_TITLE_CHARS[1] and b.link_chars >= TITLE_MIN_LINK_SHARE * n


def _path_groups(blocks: Iterable[Block]) -> dict[str, list[Block]]:
    """The blocks grouped by their element path with the ``[n]`` positions removed."""
    blocks = list(blocks)
    groups: dict[str, list[Block]] = {}
    # one pass over all the paths (an element path holds no newline)
    for key, b in zip(_POSITION.sub("", "\n".join([b.xpath for b in blocks])).split("\n"), blocks):
        groups.setdefault(key, []).append(b)
    return groups


def _title_groups(blocks: Iterable[Block], by_path: dict[str, list[Block]] | None = None) -> dict[str, list[str]]:
    """The element paths of the link-title blocks, grouped by path with ``[n]`` positions removed.

    ``by_path``: the blocks' `_path_groups`, when already made.
    """
    if by_path is None:
        by_path = _path_groups(blocks)
    groups: dict[str, list[str]] = {}
    for key, group in by_path.items():
        paths = [b.xpath for b in group if _is_link_title(b)]
        if paths:
            groups[key] = paths
    return groups


def link_units(blocks: Iterable[Block], groups: dict[str, list[str]] | None = None) -> int:
    """How many times the page repeats one unit holding a link title (a teaser card, a list entry).

    Link titles are grouped by their element path with the ``[n]`` positions removed; a
    group's units are its distinct parent elements. The largest group's count is returned.
    The entries of one list share their parent, so a list counts once: menus are lists, and
    what sets a listing apart is the same card repeated (``div/h3/a`` in each of N ``div``).
    ``groups``: the blocks' `_title_groups`, when already made.
    """
    if groups is None:
        groups = _title_groups(blocks)
    return max((len({x.rsplit("/", 1)[0] for x in paths}) for paths in groups.values()), default=0)


def card_share(blocks: Sequence[Block], groups: dict[str, list[str]] | None = None,
               total: int | None = None) -> float:
    """The share of the blocks' characters inside repeated link cards (a listing's teasers).

    Link titles are grouped as in `link_units`; a group of at least `CARD_MIN_UNITS` units is
    a list of cards. Each title's card is its element path cut after the deepest step at which
    the group's paths differ (``ul/li[3]`` for ``ul/li[3]/div/h4``), so that the teaser text
    next to the title is inside the card. Returns the characters of blocks inside any card
    over all the blocks' characters (0.0 for no text). ``groups`` as for `link_units`;
    ``total``: the blocks' characters, when already counted.
    """
    if groups is None:
        groups = _title_groups(blocks)
    cards: set[str] = set()
    for paths in groups.values():
        if len({x.rsplit("/", 1)[0] for x in paths}) < CARD_MIN_UNITS:
            continue
        steps = [x.split("/") for x in paths]
        # the deepest step at which the paths differ (a group's paths have as many steps)
        last = next((i for i in reversed(range(len(steps[0])))
                     if len({s[i] if i < len(s) else "" for s in steps}) > 1), None)
        if last is not None:
            cards.update("/".join(s[:last + 1]) for s in steps)
    if total is None:
        total = sum(len(b.text) for b in blocks)
    if not total or not cards:
        return 0.0
    seen: dict[str, bool] = {}  # per element path: inside a card (blocks share their parents)
    inside = sum(len(b.text) for b in blocks if _in_any(b.xpath, cards, seen))
    return inside / total


def repeat_units(blocks: Iterable[Block], by_path: dict[str, list[Block]] | None = None) -> int:
    """How many times the page repeats one unit that holds links: a teaser, a product card, a result.

    Blocks are grouped by their element path with the ``[n]`` positions removed. In a group
    of at least `CARD_MIN_UNITS` blocks, at least half of them with text inside a link, the
    *unit step* is the step of the path with the most distinct values (the deepest of those
    tied): each block's unit is its path cut after that step (``div[7]`` for
    ``div[7]/div/a/p``). When the unit step is the block's own element, the blocks are the
    units (a list's entries, an article's paragraphs) and the group does not count; else its
    units are the distinct values at the unit step. Returns the most units of any group that
    has at least `CARD_MIN_UNITS` of them, else 0. Unlike `link_units`, the repeated block
    need not be a link title: a card whose linked name sits next to its price counts too.
    ``by_path``: the blocks' `_path_groups`, when already made.
    """
    if by_path is None:
        by_path = _path_groups(blocks)
    best = 0
    for group in by_path.values():
        if len(group) < max(CARD_MIN_UNITS, best + 1):
            continue  # too few blocks to hold more units than found already
        if 2 * sum(1 for b in group if b.link_chars) < len(group):
            continue
        steps = [b.xpath.split("/") for b in group]
        distinct = [len({s[i] for s in steps}) for i in range(len(steps[0]))]
        most = max(distinct)
        if distinct[-1] < most:  # the unit step is above the blocks' own element
            best = max(best, most)
    return best if best >= CARD_MIN_UNITS else 0


def _in_any(xpath: str, roots: set[str], seen: dict[str, bool]) -> bool:
    """Whether the element path is one of ``roots`` or inside one (``seen``: answers so far)."""
    walked = []
    found = False
    cut = len(xpath)
    while cut > 0:
        path = xpath[:cut]
        if path in seen:
            found = seen[path]
            break
        if path in roots:
            found = True
            break
        walked.append(path)
        cut = xpath.rfind("/", 0, cut)
    for path in walked:
        seen[path] = found
    return found


def body_chars(blocks: Iterable[Block], lengths: Iterable[int] | None = None) -> int:
    """The prose of one container: per parent element, the characters of its prose blocks (their
    `words.spaced_length`); the largest.

    An article's paragraphs are siblings in one container; a listing's teaser texts each sit
    in their own card, so a listing's largest container holds one teaser. ``lengths``: the
    blocks' `_prose_length`, when already measured.
    """
    blocks = list(blocks)
    if lengths is None:
        lengths = map(_prose_length, blocks)
    per_parent: dict[str, int] = {}
    for b, length in zip(blocks, lengths):
        if length:
            per_parent[b.parent_xpath] = per_parent.get(b.parent_xpath, 0) + length
    return max(per_parent.values(), default=0)


def slug_words(url: str | None) -> int | None:
    """The largest number of words in one segment of the URL's path; 0 at the site root, None without a URL.

    A segment is read with its %-escapes decoded and its extension dropped; its words are
    what ``-``, ``_``, ``+`` and spaces separate. Articles live at slugs
    (``/2024/05/how-we-built-it``: 4); sections at one word (``/news``, ``/category/science/``: 1).
    """
    if not url:
        return None
    try:
        path = urlsplit(url).path
    except ValueError:
        return None
    words = 0
    for seg in path.split("/"):
        if seg:
            seg = unquote(seg).rsplit(".", 1)[0]
            words = max(words, len([w for w in _SLUG_SPLIT.split(seg) if w]))
    return words


def index_score(stats: dict[str, float], url: str | None, title: str, dated: bool) -> float:
    """The index score of a page from its statistics, URL, headline and whether it names a date or author.

    Over 0, the page is an index (docs/page-signals.md gives the sum term by term).
    """
    slug = slug_words(url)
    prose_share = stats["kept_prose_chars"] / stats["kept_chars"] if stats["kept_chars"] else 0.0
    return (INDEX_BIAS
            + INDEX_W_LINK_DENSITY * stats["page_link_density"]
            + INDEX_W_CARDS * stats["card_share"]
            + INDEX_W_REPEAT_UNITS * math.log1p(stats["repeat_units"])
            + INDEX_W_PROSE_SHARE * prose_share
            + INDEX_W_BODY * math.log1p(stats["kept_body_chars"])
            + INDEX_W_SLUG * min(SLUG_WORDS_NO_URL if slug is None else slug, SLUG_WORDS_CAP)
            + INDEX_W_DATED * dated
            + INDEX_W_TITLE * math.log1p(title_words(title) if title.strip() else TITLE_WORDS_NO_TITLE))


def error_reason(blocks: Sequence[Block], kept: np.ndarray, title: str) -> str | None:
    """``not-found``, ``blocked`` or ``server-error`` when the page's title or a kept ``<h1>``
    says so in words, or gives the status code as an error's (`_status`), else None."""
    heads = [title] + [b.text for b, k in zip(blocks, kept) if k and b.heading_level == 1][:3]
    for text in heads:
        if text and len(text) <= 200:
            code = _status(text)
            if (_NOT_FOUND.search(text) or code in ("404", "410")
                    or (_CANNOT_FIND.search(text) and _APOLOGY.search(text))):
                return "not-found"
            if _BLOCKED.search(text.strip()) or code in ("401", "403"):
                return "blocked"
            if _SERVER_ERROR.search(text) or code is not None:
                return "server-error"
    return None


def _status(text: str) -> str | None:
    """The HTTP status code (`_STATUS`) a heading gives as an error's, if any."""
    codes = [m.group(1) for m in _STATUS.finditer(text)]
    if not codes:
        return None
    if _ERROR_WORD.search(text):
        return codes[0]
    alone = {part.strip(" !.()[]") for part, _, _ in title_parts(text)}
    return next((code for code in codes if code in alone), None)


def page_flags(res: Result) -> list[str]:
    """What a batch names on stderr of a page it wrote: the warnings a user must hear
    (`FLAG_WARNINGS`: a page cut short, flattened, without text) and `verdict_flag`, each once."""
    flag = verdict_flag(res)
    flags = [w for w in res.warnings if w in FLAG_WARNINGS and not (flag and flag.endswith(":" + w))]
    return flags + ([flag] if flag else [])


def verdict_flag(res: Result) -> str | None:
    """What a user must hear of a page's outcome, else None: ``error:<reason>`` or
    ``empty:<reason>`` for those verdicts, and ``nothing-kept`` for a page with text of which
    no block was kept (its output is empty: the page may be all boilerplate, or the model
    may have missed its content).

    The reason is the warning that says why: `ERROR_REASONS` for an error page,
    ``no-text``/``hidden-only`` (else ``no-visible-text``) for an empty one.
    """
    if res.verdict == "error":
        return "error:" + next((w for w in res.warnings if w in ERROR_REASONS), "error-page")
    if res.verdict == "empty":
        return "empty:" + next((w for w in res.warnings if w in ("no-text", "hidden-only")), "no-visible-text")
    if not res.stats.get("kept_chars") and res.stats.get("page_chars"):
        return "nothing-kept"
    return None


@dataclass(frozen=True)
class PageChecks:
    """What the checks found on one page: its statistics, verdict and warnings (in order), and
    whether it is a reference (`reference`)."""

    stats: dict[str, float]
    verdict: str
    warnings: tuple[str, ...] = ()
    #: the page reads as a list of short entries, as an index does, but keeps a term that reads
    #: as code: an API reference, a `document` read again at the lower threshold as an index is
    reference: bool = False


def page_checks(blocks: Sequence[Block], kept: np.ndarray, title: str, url: str | None,
                dated: bool = False, thread: bool = False) -> PageChecks:
    """Statistics, verdict and warnings of a page from its blocks and decisions.

    Verdicts, the first that holds (docs/page-signals.md says exactly what each counts):
    ``empty`` (no visible text), ``error`` (the title or headline says not found or server
    error, and little was kept; the reason is added as a warning, one of `ERROR_REASONS`),
    ``too-little-text`` (under `MIN_KEPT_CHARS` on the page), ``index``
    (the main content is a list of links or teasers: `index_score` over 0, a body under
    `INDEX_MAX_BODY` characters, no code block and no term that reads as code kept, and not
    one thread's posts), otherwise ``document``; a document that would be an index but for its
    terms that read as code is a reference (`PageChecks.reference`). ``dated``: the page names
    its publication or modification date, or its author (metadata); ``thread``:
    `blockclf.threads` found the posts of a thread on it.
    """
    stats = _page_stats(blocks, kept)
    stats["index_score"] = round(index_score(stats, url, title, dated), 4)
    page_chars, kept_chars = stats["page_chars"], stats["kept_chars"]
    warnings: list[str] = []
    reason = error_reason(blocks, kept, title) if kept_chars < ERROR_MAX_KEPT_CHARS else None
    if reason is not None and page_chars:
        warnings.append(reason)
    one_thread = thread and thread_address(url)
    verdict = _verdict(stats, reason, one_thread)
    reference = verdict == "document" and bool(stats["kept_code_terms"]) and _list_like(stats, one_thread)
    if page_chars and kept_chars < MIN_KEPT_CHARS:
        warnings.append("too-short")
    if page_chars >= SUBSTANTIAL_PAGE and kept_chars / page_chars < LOW_KEPT_RATIO:
        warnings.append("low-kept-ratio")
    if kept_chars and _title_missing(blocks, kept, title):
        warnings.append("title-missing")
    return PageChecks(stats, verdict, tuple(warnings), reference)


def _page_stats(blocks: Sequence[Block], kept: np.ndarray) -> dict[str, float]:
    # hidden text counts as page text only where it was read as content
    keep = kept.tolist()  # Python booleans: read block by block, a tenth of the cost of NumPy's
    shown = [b for b, k in zip(blocks, keep) if k or not b.hidden]
    kept_blocks = [b for b, k in zip(blocks, keep) if k]
    page_chars = sum(len(b.text) for b in shown)
    kept_chars = sum(len(b.text) for b in kept_blocks)
    prose = [_prose_length(b) for b in kept_blocks]
    link_chars = sum(b.link_chars for b in shown)
    ratio = kept_chars / page_chars if page_chars else 0.0
    by_path = _path_groups(shown)  # read by repeat_units, and as link titles by link_units and card_share
    groups = _title_groups(shown, by_path)
    return {
        "page_chars": page_chars,
        "kept_chars": kept_chars,
        "kept_ratio": round(ratio, 4),
        "boilerplate_share": round(1 - ratio, 4) if page_chars else 0.0,
        "page_link_density": round(link_chars / page_chars, 4) if page_chars else 0.0,  # as the JSON gives it
        "n_blocks": len(shown),
        "n_kept": int(kept.sum()),
        "kept_prose_chars": sum(len(b.text) for b, length in zip(kept_blocks, prose) if length),
        "kept_link_titles": sum(1 for b in kept_blocks if _is_link_title(b)),
        "link_units": link_units(shown, groups),
        "kept_body_chars": body_chars(kept_blocks, prose),
        "card_share": round(card_share(shown, groups, page_chars), 4),
        "repeat_units": repeat_units(shown, by_path),
        "kept_code_blocks": sum(1 for b in kept_blocks if b.tag == "pre"),
        "kept_code_terms": sum(1 for b in kept_blocks if b.tag == "dt" and CODE_TERM.match(b.text)),
    }


def _verdict(stats: dict[str, float], reason: str | None, one_thread: bool) -> str:
    if stats["page_chars"] == 0:
        return "empty"
    if reason is not None:
        return "error"
    if stats["page_chars"] < MIN_KEPT_CHARS:
        return "too-little-text"
    if _list_like(stats, one_thread) and not stats["kept_code_terms"]:
        return "index"
    return "document"


def _list_like(stats: dict[str, float], one_thread: bool) -> bool:
    """Whether the page reads as a list of links, teasers or short entries: an index, unless it
    keeps a term that reads as code (then a reference)."""
    return (stats["index_score"] > 0 and stats["kept_body_chars"] < INDEX_MAX_BODY and not stats["kept_code_blocks"]
            and not one_thread)


#: an address that names one thread of a forum or one question: a thread's or a topic's path
#: with its name or number after it (``/threads/name.123/``, ``/t/name/42``, ``/topic/356004-…``,
#: ``/questions/42/…``, ``/post/21018364``), or a board's script showing one (``viewtopic.php``,
#: ``showthread.php``, ``?mod=viewthread``). A forum's own index (``/forums/``) is not one.
_THREAD_URL = re.compile(r"/(?:threads?|t|questions?|discussions?)/[^/?#]+|/(?:topics?|posts?)/\d+(?:[-/?#.]|$)"
                         r"|/(?:viewtopic|showthread|viewthread)(?:\.\w+)?(?:[/?#]|$)|[?&]mod=viewthread",
                         re.IGNORECASE)


def thread_address(url: str | None) -> bool:
    """Whether the page's address names one thread or one question (`_THREAD_URL`): with the
    posts of a thread found on it, the page is that thread, however short its posts, not a
    list of links (its replies score under an article's paragraphs, and a board's threads of
    one-line replies read as an index)."""
    return bool(url and _THREAD_URL.search(url))


def _title_missing(blocks: Sequence[Block], kept: np.ndarray, title: str) -> bool:
    """Whether under half the words of a title of three words or more are in the kept text."""
    words = paired_tokens(title)
    if len(words) < 3:
        return False
    found: set[str] = set()
    for b, k in zip(blocks, kept):
        if k:
            found.update(words.intersection(paired_tokens(b.text)))
            if len(found) >= 0.5 * len(words):  # enough already: the rest of the page need not be read
                return False
    return True


#: a page keeping under this share of its site's median kept ratio is flagged
SITE_RATIO_FACTOR = 0.3
#: pages of a site (in the same batch) needed before a site median means anything
SITE_MIN_PAGES = 5


def site_checks(pages: Sequence[tuple[str | None, PageChecks]]) -> list[PageChecks]:
    """The checks of a batch's pages, ``(site, checks)`` each, with what their sites tell added.

    Within one batch, the median ``kept_ratio`` of each site's ``document`` pages is the
    site's usual; a page of at least `SUBSTANTIAL_PAGE` characters whose ratio is under
    `SITE_RATIO_FACTOR` times that median is flagged ``below-site-kept-ratio``, and every page
    of such a site carries the median as ``stats["site_median_kept_ratio"]``.
    """
    by_site: dict[str, list[int]] = {}
    for i, (site, _checks) in enumerate(pages):
        if site:
            by_site.setdefault(site, []).append(i)
    out = [checks for _site, checks in pages]
    for group in by_site.values():
        ratios = [out[i].stats["kept_ratio"] for i in group if out[i].verdict == "document"]
        if len(ratios) < SITE_MIN_PAGES:
            continue
        ordered = sorted(ratios)
        median = (ordered[(len(ordered) - 1) // 2] + ordered[len(ordered) // 2]) / 2
        for i in group:
            c = out[i]
            low = c.stats["page_chars"] >= SUBSTANTIAL_PAGE and c.stats["kept_ratio"] < SITE_RATIO_FACTOR * median
            out[i] = PageChecks({**c.stats, "site_median_kept_ratio": round(median, 4)}, c.verdict,
                                c.warnings + (("below-site-kept-ratio",) if low else ()), c.reference)
    return out
