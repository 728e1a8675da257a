"""Checks blockclf runs on its own decisions: page verdicts and over-removal warnings.

Scoring (`blockclf.predict`) runs them on a page's blocks and decisions before it builds the
page's `Result`, which then holds their verdict, warnings and statistics; per-site stats
files and drift between runs are `blockclf.drift`.

Every figure here is computed from the result's blocks, so it can be recomputed from the
JSON output: ``page_chars`` is the sum of all blocks' text lengths, ``kept_chars`` that of the
kept blocks, ``kept_ratio`` their quotient, ``page_link_density`` the share of page characters
inside links, and ``boilerplate_share`` is ``1 - kept_ratio``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

import numpy as np

from .block import Block

if TYPE_CHECKING:
    from .result import Result

__all__ = [
    "LOW_KEPT_RATIO",
    "MIN_KEPT_CHARS",
    "PageChecks",
    "error_reason",
    "link_units",
    "page_checks",
    "section_address",
    "site_checks",
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
#: a block of at least this many characters, under `PROSE_MAX_LINK_SHARE` of them in links, is prose
PROSE_MIN_CHARS = 150
PROSE_MAX_LINK_SHARE = 0.2
#: a block of this many characters (inclusive), at least `TITLE_MIN_LINK_SHARE` of them in links, is a link title
LINK_TITLE_CHARS = (10, 200)
TITLE_MIN_LINK_SHARE = 0.8
#: index: kept prose under this (characters) ...
INDEX_MAX_PROSE = 3000
#: ... and the page mostly links, its link titles repeated in at least this many units ...
INDEX_LINK_DENSITY = 0.4
INDEX_MIN_UNITS = 10
#: ... or under this many kept characters per kept link title (per page, when it kept none)
INDEX_CHARS_PER_TITLE = 500
#: index, at a section's address (site root, or a one-word last path segment): kept prose
#: under this and page link density over the next
SECTION_MAX_PROSE = 6000
SECTION_LINK_DENSITY = 0.2
#: error: the title or headline says so and under this many characters were kept
ERROR_MAX_KEPT_CHARS = 2000
_NOT_FOUND = re.compile(
    r"\b(?:404|410)\b|not found|no longer (?:exists|available)|(?:does not|doesn't|did not) exist"
    r"|nicht gefunden|introuvable|no encontrada|non trovata|niet gevonden|não encontrada|nie znaleziono",
    re.IGNORECASE)
_SERVER_ERROR = re.compile(
    r"\b(?:500|502|503|504)\b|internal server error|service (?:temporarily )?unavailable|bad gateway"
    r"|gateway time-?out|server error",
    re.IGNORECASE)
_POSITION = re.compile(r"\[\d+\]")
_SLUG_SPLIT = re.compile(r"[-_+]")


def _is_prose(b: Block) -> bool:
    return len(b.text) >= PROSE_MIN_CHARS and b.link_chars < PROSE_MAX_LINK_SHARE * len(b.text)


def _is_link_title(b: Block) -> bool:
    n = len(b.text)
    return LINK_TITLE_CHARS[0] <= n <= LINK_TITLE_CHARS[1] and b.link_chars >= TITLE_MIN_LINK_SHARE * n


def link_units(blocks: Iterable[Block]) -> int:
    """How many times the page repeats one unit holding a link title (a teaser card, a list entry).

    Link titles are grouped by their element path with the ``[n]`` positions removed; a
    group's units are its distinct parent elements. The largest group's count is returned.
    The entries of one list share their parent, so a list counts once: menus are lists, and
    what sets a listing apart is the same card repeated (``div/h3/a`` in each of N ``div``).
    """
    parents: dict[str, set[str]] = {}
    for b in blocks:
        if _is_link_title(b):
            parents.setdefault(_POSITION.sub("", b.xpath), set()).add(b.parent_xpath)
    return max((len(v) for v in parents.values()), default=0)


def section_address(url: str | None) -> bool:
    """Whether a URL is a section's address: the site root, or a last path segment of one word.

    Articles live at slugs (``/2024/05/how-we-built-it``); listings at ``/``, ``/news``,
    ``/category/science/``. A page without a URL is not a section address.
    """
    if not url:
        return False
    try:
        path = urlsplit(url).path
    except ValueError:
        return False
    segments = [s for s in path.split("/") if s]
    if not segments:
        return True
    last = segments[-1].rsplit(".", 1)[0]
    return len([w for w in _SLUG_SPLIT.split(last) if w]) <= 1


def error_reason(blocks: Sequence[Block], kept: Iterable[bool], title: str) -> str | None:
    """``not-found`` or ``server-error`` when the page's title or a kept ``<h1>`` says so, else None."""
    heads = [title] + [b.text for b, k in zip(blocks, kept) if k and b.heading_level == 1][:3]
    for text in heads:
        if text and len(text) <= 200:
            if _NOT_FOUND.search(text):
                return "not-found"
            if _SERVER_ERROR.search(text):
                return "server-error"
    return None


def verdict_flag(res: Result) -> str | None:
    """``error:<reason>`` or ``empty:<reason>`` for a page whose verdict a user must hear of, else None.

    The reason is the warning that says why: ``not-found``/``server-error`` for an error page,
    ``no-text``/``hidden-only`` (else ``no-visible-text``) for an empty one.
    """
    if res.verdict == "error":
        return "error:" + next((w for w in res.warnings if w in ("not-found", "server-error")), "error-page")
    if res.verdict == "empty":
        return "empty:" + next((w for w in res.warnings if w in ("no-text", "hidden-only")), "no-visible-text")
    return None


@dataclass(frozen=True)
class PageChecks:
    """What the checks found on one page: its statistics, verdict and warnings (in order)."""

    stats: dict[str, float]
    verdict: str
    warnings: tuple[str, ...] = ()


def page_checks(blocks: Sequence[Block], kept: np.ndarray, title: str, url: str | None) -> PageChecks:
    """Statistics, verdict and warnings of a page from its blocks and decisions.

    Verdicts, the first that holds (docs/page-signals.md says exactly what each counts):
    ``empty`` (no visible text), ``error`` (the title or headline says not found or server
    error, and little was kept; the reason is added as a warning, ``not-found`` or
    ``server-error``), ``too-little-text`` (under `MIN_KEPT_CHARS` on the page), ``index``
    (the main content is a list of links or teasers), otherwise ``document``.
    """
    stats = _page_stats(blocks, kept)
    page_chars, kept_chars = stats["page_chars"], stats["kept_chars"]
    warnings: list[str] = []
    reason = error_reason(blocks, kept, title) if kept_chars < ERROR_MAX_KEPT_CHARS else None
    if reason is not None and page_chars:
        warnings.append(reason)
    verdict = _verdict(stats, reason, url)
    if page_chars and kept_chars < MIN_KEPT_CHARS:
        warnings.append("too-short")
    if page_chars >= SUBSTANTIAL_PAGE and kept_chars / page_chars < LOW_KEPT_RATIO:
        warnings.append("low-kept-ratio")
    if kept_chars and _title_missing(blocks, kept, title):
        warnings.append("title-missing")
    return PageChecks(stats, verdict, tuple(warnings))


def _page_stats(blocks: Sequence[Block], kept: np.ndarray) -> dict[str, float]:
    # hidden text counts as page text only where it was read as content
    shown = [b for b, k in zip(blocks, kept) if k or not b.hidden]
    kept_blocks = [b for b, k in zip(blocks, kept) if k]
    page_chars = sum(len(b.text) for b in shown)
    kept_chars = sum(len(b.text) for b in kept_blocks)
    link_chars = sum(b.link_chars for b in shown)
    ratio = kept_chars / page_chars if page_chars else 0.0
    return {
        "page_chars": page_chars,
        "kept_chars": kept_chars,
        "kept_ratio": round(ratio, 4),
        "boilerplate_share": round(1 - ratio, 4) if page_chars else 0.0,
        "page_link_density": round(link_chars / page_chars, 4) if page_chars else 0.0,  # as the JSON gives it
        "n_blocks": len(shown),
        "n_kept": int(kept.sum()),
        "kept_prose_chars": sum(len(b.text) for b in kept_blocks if _is_prose(b)),
        "kept_link_titles": sum(1 for b in kept_blocks if _is_link_title(b)),
        "link_units": link_units(shown),
    }


def _verdict(stats: dict[str, float], reason: str | None, url: str | None) -> str:
    page_chars, kept_chars = stats["page_chars"], stats["kept_chars"]
    prose, titles = stats["kept_prose_chars"], stats["kept_link_titles"]
    link_density = stats["page_link_density"]
    if page_chars == 0:
        return "empty"
    if reason is not None:
        return "error"
    if page_chars < MIN_KEPT_CHARS:
        return "too-little-text"
    if (prose < INDEX_MAX_PROSE and ((link_density > INDEX_LINK_DENSITY and stats["link_units"] >= INDEX_MIN_UNITS)
                                     or kept_chars < INDEX_CHARS_PER_TITLE * max(titles, 1))) or (
            prose < SECTION_MAX_PROSE and link_density > SECTION_LINK_DENSITY and section_address(url)):
        return "index"
    return "document"


def _title_missing(blocks: Sequence[Block], kept: np.ndarray, title: str) -> bool:
    """Whether under half the words of a title of three words or more are in the kept text."""
    words = set(_WORD.findall(title.lower()))
    if len(words) < 3:
        return False
    found: set[str] = set()
    for b, k in zip(blocks, kept):
        if k:
            found.update(words.intersection(_WORD.findall(b.text.lower())))
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
        median = float(np.median(ratios))
        for i in group:
            c = out[i]
            low = c.stats["page_chars"] >= SUBSTANTIAL_PAGE and c.stats["kept_ratio"] < SITE_RATIO_FACTOR * median
            out[i] = PageChecks({**c.stats, "site_median_kept_ratio": round(median, 4)}, c.verdict,
                                c.warnings + (("below-site-kept-ratio",) if low else ()))
    return out
