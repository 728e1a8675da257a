"""Checks blockclf runs on its own output: page verdicts, over-removal warnings, site drift.

Every figure here is computed from the result's blocks, so it can be recomputed from the
JSON output: ``page_chars`` is the sum of all blocks' text lengths, ``kept_chars`` that of the
kept blocks, ``kept_ratio`` their quotient, ``page_link_density`` the share of page characters
inside links, and ``boilerplate_share`` is ``1 - kept_ratio``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

import numpy as np

from .block import Block

if TYPE_CHECKING:
    from .predict import Result

__all__ = [
    "LOW_KEPT_RATIO",
    "error_reason",
    "link_units",
    "section_address",
    "verdict_flag",
    "MIN_KEPT_CHARS",
    "MetricShift",
    "SiteDrift",
    "drift",
    "page_checks",
    "page_record",
    "quantiles",
    "read_stats",
    "site_checks",
    "site_drift",
    "site_stats",
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


def error_reason(res: Result) -> str | None:
    """``not-found`` or ``server-error`` when the page's title or a kept ``<h1>`` says so, else None."""
    heads = [res.title] + [b.text for b, k in zip(res.blocks, res.kept) if k and b.heading_level == 1][:3]
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


def page_checks(res: Result) -> None:
    """Fill ``res.stats``, ``res.verdict`` and add warnings to ``res.warnings``.

    Verdicts, the first that holds (docs/page-signals.md says exactly what each counts):
    ``empty`` (no visible text), ``error`` (the title or headline says not found or server
    error, and little was kept; the reason is added as a warning, ``not-found`` or
    ``server-error``), ``too-little-text`` (under `MIN_KEPT_CHARS` on the page), ``index``
    (the main content is a list of links or teasers), otherwise ``document``.
    """
    # hidden text counts as page text only where it was read as content
    shown = [b for b, k in zip(res.blocks, res.kept) if k or not b.hidden]
    kept_blocks = [b for b, k in zip(res.blocks, res.kept) if k]
    page_chars = sum(len(b.text) for b in shown)
    kept_chars = sum(len(b.text) for b in kept_blocks)
    link_chars = sum(b.link_chars for b in shown)
    ratio = kept_chars / page_chars if page_chars else 0.0
    link_density = round(link_chars / page_chars, 4) if page_chars else 0.0  # as the JSON gives it
    prose = sum(len(b.text) for b in kept_blocks if _is_prose(b))
    titles = sum(1 for b in kept_blocks if _is_link_title(b))
    units = link_units(shown)
    res.stats = {
        "page_chars": page_chars,
        "kept_chars": kept_chars,
        "kept_ratio": round(ratio, 4),
        "boilerplate_share": round(1 - ratio, 4) if page_chars else 0.0,
        "page_link_density": link_density,
        "n_blocks": len(shown),
        "n_kept": int(res.kept.sum()),
        "kept_prose_chars": prose,
        "kept_link_titles": titles,
        "link_units": units,
    }
    reason = error_reason(res) if kept_chars < ERROR_MAX_KEPT_CHARS else None
    if page_chars == 0:
        res.verdict = "empty"
    elif reason is not None:
        res.verdict = "error"
        res.warnings.append(reason)
    elif page_chars < MIN_KEPT_CHARS:
        res.verdict = "too-little-text"
    elif (prose < INDEX_MAX_PROSE and ((link_density > INDEX_LINK_DENSITY and units >= INDEX_MIN_UNITS)
                                       or kept_chars < INDEX_CHARS_PER_TITLE * max(titles, 1))) or (
            prose < SECTION_MAX_PROSE and link_density > SECTION_LINK_DENSITY and section_address(res.url)):
        res.verdict = "index"
    else:
        res.verdict = "document"
    if page_chars and kept_chars < MIN_KEPT_CHARS:
        res.warnings.append("too-short")
    if page_chars >= SUBSTANTIAL_PAGE and ratio < LOW_KEPT_RATIO:
        res.warnings.append("low-kept-ratio")
    title = set(_WORD.findall(res.title.lower()))
    if len(title) >= 3 and kept_chars:
        found: set[str] = set()
        for b, k in zip(res.blocks, res.kept):
            if k:
                found.update(title.intersection(_WORD.findall(b.text.lower())))
                if len(found) >= 0.5 * len(title):  # enough already: the rest of the page need not be read
                    break
        if len(found) < 0.5 * len(title):
            res.warnings.append("title-missing")


#: a page keeping under this share of its site's median kept ratio is flagged
SITE_RATIO_FACTOR = 0.3
#: pages of a site (in the same batch) needed before a site median means anything
SITE_MIN_PAGES = 5


def site_checks(results: Sequence[Result]) -> None:
    """Flag pages that kept far less than their site usually does (``below-site-kept-ratio``).

    Within one batch, the median ``kept_ratio`` of each site's ``document`` pages is the
    site's usual; a page of at least `SUBSTANTIAL_PAGE` characters whose ratio is under
    `SITE_RATIO_FACTOR` times that median is flagged, and every page of such a site carries
    the median as ``stats["site_median_kept_ratio"]``.
    """
    by_site: dict[str, list[Result]] = {}
    for res in results:
        if res.site:
            by_site.setdefault(res.site, []).append(res)
    for group in by_site.values():
        ratios = [r.stats["kept_ratio"] for r in group if r.verdict == "document"]
        if len(ratios) < SITE_MIN_PAGES:
            continue
        median = float(np.median(ratios))
        for r in group:
            r.stats["site_median_kept_ratio"] = round(median, 4)
            if r.stats["page_chars"] >= SUBSTANTIAL_PAGE and r.stats["kept_ratio"] < SITE_RATIO_FACTOR * median:
                r.warnings.append("below-site-kept-ratio")


# --- per-site drift ---------------------------------------------------------------------
#
# A stats file records, per site, each page's extracted length and kept/total ratio from
# one extraction run. Comparing two runs of the same site (last month's crawl and this
# month's) tells whether extraction still behaves: a template change shows up as a shift of
# the whole distribution, while ordinary pages just vary. Each metric gets a two-sample
# Kolmogorov-Smirnov test, and an alarm needs both a small p-value and a shift of the median
# large enough to matter, so big crawls do not alarm on trivial differences.

STATS_FORMAT = "blockclf-stats"
STATS_VERSION = 1
#: drift alarm: KS p-value under this ...
DRIFT_ALPHA = 0.01
#: ... and a median shift of at least this much kept ratio, or this factor of the counts
DRIFT_RATIO_SHIFT = 0.1
DRIFT_FACTOR = 1.5
#: fewer pages than this on either side and no test is made
DRIFT_MIN_PAGES = 5
PAGE_FIELDS = ("kept_chars", "page_chars", "kept_ratio", "n_blocks", "n_kept")


def _num(r: Mapping[str, Any], key: str) -> float:
    return float(r.get(key) or 0)


#: what drift compares. Article lengths vary from page to page, but the removed part (menus,
#: footers: the template) is nearly constant across a site's pages, so a template change
#: moves ``removed_chars``/``removed_blocks`` sharply even when kept lengths barely move.
DRIFT_METRICS: dict[str, Callable[[Mapping[str, Any]], float]] = {
    "kept_ratio": lambda r: _num(r, "kept_ratio"),
    "kept_chars": lambda r: _num(r, "kept_chars"),
    "removed_chars": lambda r: _num(r, "page_chars") - _num(r, "kept_chars"),
    "removed_blocks": lambda r: _num(r, "n_blocks") - _num(r, "n_kept"),
}


def page_record(res: Result) -> dict[str, Any]:
    """One page's line in a stats file (run `page_checks` first; extraction does)."""
    rec: dict[str, Any] = {"name": res.name or res.url or "", "site": res.site or ""}
    rec.update({k: res.stats.get(k, 0) for k in PAGE_FIELDS})
    return rec


def site_stats(records: Iterable[Mapping[str, Any]]) -> dict[str, Any]:
    """A stats file body from page records (`page_record`, or a JSON output's fields)."""
    sites: dict[str, list[dict[str, Any]]] = {}
    for r in records:
        rec = {"name": str(r.get("name") or ""), **{k: r.get(k, 0) for k in PAGE_FIELDS}}
        sites.setdefault(str(r.get("site") or ""), []).append(rec)
    return {"format": STATS_FORMAT, "version": STATS_VERSION, "sites": sites}


def read_stats(data: Mapping[str, Any]) -> dict[str, list[dict[str, Any]]]:
    """The per-site page records of a stats file; ValueError when it is not one."""
    if not isinstance(data, Mapping) or data.get("format") != STATS_FORMAT:
        raise ValueError("not a blockclf stats file")
    if data.get("version") != STATS_VERSION:
        raise ValueError(f"stats file version {data.get('version')} is not supported (expected {STATS_VERSION})")
    return {str(k): list(v) for k, v in data["sites"].items()}


@dataclass
class MetricShift:
    """One metric compared between two runs of a site."""

    metric: str
    median_old: float
    median_new: float
    ks: float
    p_value: float
    alarm: bool


@dataclass
class SiteDrift:
    """The comparison of one site between two runs, with the pages that moved most."""

    site: str
    n_old: int
    n_new: int
    metrics: list[MetricShift] = field(default_factory=list)
    moved: list[dict[str, Any]] = field(default_factory=list)

    @property
    def alarm(self) -> bool:
        return any(m.alarm for m in self.metrics)

    def to_dict(self) -> dict[str, Any]:
        return {"site": self.site, "n_old": self.n_old, "n_new": self.n_new, "alarm": self.alarm,
                "metrics": [vars(m) for m in self.metrics], "moved": self.moved}


def quantiles(values: Sequence[float]) -> dict[str, float]:
    """10th, 50th and 90th percentiles (the distribution's summary in reports)."""
    if not len(values):
        return {"p10": 0.0, "p50": 0.0, "p90": 0.0}
    q = np.percentile(np.asarray(values, float), [10, 50, 90])
    return {"p10": float(q[0]), "p50": float(q[1]), "p90": float(q[2])}


def _shift(metric: str, old: np.ndarray, new: np.ndarray, tested: bool) -> MetricShift:
    from scipy.stats import ks_2samp

    m_old, m_new = float(np.median(old)), float(np.median(new))
    if not tested:
        return MetricShift(metric, m_old, m_new, float("nan"), float("nan"), False)
    res = ks_2samp(old, new)
    if metric == "kept_ratio":
        big = abs(m_new - m_old) >= DRIFT_RATIO_SHIFT
    else:
        lo, hi = sorted((max(m_old, 0.0) + 1, max(m_new, 0.0) + 1))
        big = hi / lo >= DRIFT_FACTOR
    alarm = bool(res.pvalue < DRIFT_ALPHA and big)
    return MetricShift(metric, m_old, m_new, float(res.statistic), float(res.pvalue), alarm)


def site_drift(site: str, old: Sequence[Mapping[str, Any]], new: Sequence[Mapping[str, Any]],
               top: int = 5) -> SiteDrift:
    """Compare one site's page records from two runs.

    Pages are ranked on the metric that moved most: pages found in both runs (same name) by
    their own change, otherwise new pages by their distance from the old run's median.
    """
    out = SiteDrift(site, len(old), len(new))
    if not old or not new:
        return out
    tested = len(old) >= DRIFT_MIN_PAGES and len(new) >= DRIFT_MIN_PAGES
    for metric, value in DRIFT_METRICS.items():
        a = np.array([value(r) for r in old], float)
        b = np.array([value(r) for r in new], float)
        out.metrics.append(_shift(metric, a, b, tested))
    # rank pages on the metric that moved most (smallest p-value among the alarms)
    alarms = [m for m in out.metrics if m.alarm]
    metric = min(alarms, key=lambda m: m.p_value).metric if alarms else "kept_ratio"
    value = DRIFT_METRICS[metric]

    def distance(a: float, b: float) -> float:
        return abs(a - b) if metric == "kept_ratio" else abs(np.log1p(max(a, 0)) - np.log1p(max(b, 0)))

    before = {r.get("name"): r for r in old if r.get("name")}
    common = [(before[r["name"]], r) for r in new if r.get("name") in before]
    median = float(np.median([value(r) for r in old]))
    pairs: list[tuple[Mapping[str, Any] | None, Mapping[str, Any]]] = list(common) or [(None, r) for r in new]
    moved = [{"name": n.get("name", ""), "metric": metric, "old": value(o) if o is not None else median,
              "old_is_site_median": o is None, "new": value(n)} for o, n in pairs]
    moved.sort(key=lambda d: -distance(d["old"], d["new"]))
    out.moved = moved[:top]
    return out


def drift(old: Mapping[str, Any], new: Mapping[str, Any], top: int = 5) -> list[SiteDrift]:
    """Per site present in both stats files, the drift report (alarms first)."""
    a, b = read_stats(old), read_stats(new)
    reports = [site_drift(site, a[site], b[site], top) for site in sorted(set(a) & set(b))]
    reports.sort(key=lambda d: (not d.alarm, d.site))
    return reports
