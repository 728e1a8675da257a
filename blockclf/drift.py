"""Per-site stats files and drift: has a site's extraction shifted between two runs?

A stats file records, per site, each page's extracted length and kept/total ratio from
one extraction run. Comparing two runs of the same site (last month's crawl and this
month's) tells whether extraction still behaves: a template change shows up as a shift of
the whole distribution, while ordinary pages just vary. Each metric gets a two-sample
Kolmogorov-Smirnov test, and an alarm needs both a small p-value and a shift of the median
large enough to matter, so big crawls do not alarm on trivial differences.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from .result import Result

__all__ = ["DRIFT_MIN_PAGES", "MetricShift", "SiteDrift", "check_record", "drift", "page_record", "quantiles",
           "read_stats", "site_drift", "site_stats"]

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
    sites = data.get("sites")
    if not isinstance(sites, Mapping):
        raise ValueError("its 'sites' is not an object of sites and their pages")
    return {str(site): _site_records(str(site), pages) for site, pages in sites.items()}


def _site_records(site: str, pages: Any) -> list[dict[str, Any]]:
    """One site's page records, each checked (`check_record`): a damaged record would
    otherwise fail the comparison half-way, or be compared as a number it is not."""
    if not isinstance(pages, list):
        raise ValueError(f"site {site!r}: its pages are not a list")
    for number, rec in enumerate(pages, 1):
        try:
            check_record(rec)
        except ValueError as exc:
            raise ValueError(f"site {site!r}, page {number}: {exc}") from None
    return list(pages)


def check_record(rec: Any) -> None:
    """ValueError when ``rec`` is not a page's record in a stats file: an object whose name,
    when given, is text and whose `PAGE_FIELDS` are numbers (a field left out counts as 0)."""
    if not isinstance(rec, Mapping):
        raise ValueError(f"a page record is an object, not {_kind(rec)}")
    if not isinstance(rec.get("name", ""), str):
        raise ValueError(f"its name is {_kind(rec['name'])}, not text")
    for key in PAGE_FIELDS:
        value = rec.get(key, 0)
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
            raise ValueError(f"its {key} is {_kind(value)}, not a number")


def _kind(value: Any) -> str:
    """A JSON value as an error names it: short values as they are, others by their type."""
    text = json.dumps(value, default=str)
    return text if len(text) <= 20 else f"a {type(value).__name__}"


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
    def no_pages(self) -> bool:
        """One run holds none of the site's pages: nothing to compare, and no longer a site that
        behaves (every page of it failed, or its stats were cut), so it alarms."""
        return not self.n_old or not self.n_new

    @property
    def alarm(self) -> bool:
        return self.no_pages or any(m.alarm for m in self.metrics)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: a test not run (too few pages) has null statistics, not NaN, which is not JSON."""
        metrics = [{k: None if isinstance(v, float) and math.isnan(v) else v for k, v in vars(m).items()}
                   for m in self.metrics]
        return {"site": self.site, "n_old": self.n_old, "n_new": self.n_new, "alarm": self.alarm,
                "no_pages": self.no_pages, "metrics": metrics, "moved": self.moved}


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
