"""Favor thresholds: what each mode promises, and how that is chosen on held-out dev pages.

- ``balanced``: the threshold with the best mean page F1.
- ``precision``: the best mean F1 among thresholds whose mean precision reaches
  `TARGETS` ``["precision"]`` (0.95) *with a margin*: one standard error below the dev mean
  must still reach it. New sites vary, and a promise met only by the dev sites' average is
  broken on about half the site samples a user will meet. When no threshold gets there, the
  threshold with the best such lower bound whose mean F1 stays at or above `F1_FLOOR`.
- ``recall``: the same with recall and `TARGETS` ``["recall"]`` (0.97).

Users may aim elsewhere (``targets``; ``blockclf train --precision-target/--recall-target``).

The precision threshold is never below the balanced one and the recall threshold never
above it, so the modes order precision and recall as their names say. Standard errors come
from resampling whole dev sites (pages of one site succeed or fail together). The scores are
those of DESIGN section 4 on the pages' own extraction: at each threshold, the tokens of the
blocks scored at or above it against the page's gold text.
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from .batch import BatchOptions, Item, run_batch
from .features import FEATURES
from .metrics import f_beta, score_text, tokens
from .model import FAVORS, Model

if TYPE_CHECKING:
    from .data import PageRecord
    from .model import TreeScoring
    from .result import Result

__all__ = ["DEV_MIN_PAGES", "F1_FLOOR", "GRID", "TARGETS", "Curves", "check_targets", "choose", "dev_curves",
           "dev_set_warnings", "f1", "for_classifier", "page_curve"]

log = logging.getLogger("blockclf")

#: the thresholds tried wherever one is chosen: the favor thresholds here and training's quick
#: estimate (`blockclf.train.choose_thresholds`). It stays 0.05 from either end: on the overlapping
#: scores of tests/test_train.py, that estimate puts all three modes on 0.02 when the grid
#: starts there, and the modes no longer differ
GRID = np.round(np.arange(0.05, 0.951, 0.01), 2)
TARGETS = {"precision": 0.95, "recall": 0.97}
F1_FLOOR = 0.90
#: site resamples behind each standard error
RESAMPLES = 200


@dataclass(frozen=True)
class Curves:
    """Per page (rows) and threshold (columns of ``grid``): precision, recall and F1."""

    grid: np.ndarray
    precision: np.ndarray
    recall: np.ndarray
    f1: np.ndarray
    sites: np.ndarray


def page_curve(res: Result, gold: str, grid: np.ndarray = GRID) -> tuple[np.ndarray, np.ndarray]:
    """Precision and recall of one extracted page at every threshold of ``grid``.

    Blocks are taken in order of score, so each threshold adds to the previous one's tokens
    and the whole curve costs one pass over the page's text.
    """
    ref = Counter(tokens(gold))
    n_ref = sum(ref.values())
    prec = np.zeros(len(grid))
    rec = np.zeros(len(grid))
    order = np.argsort(-np.asarray(res.scores), kind="stable")
    pred: Counter[str] = Counter()
    n_pred = overlap = 0
    j = 0
    for g in range(len(grid) - 1, -1, -1):  # thresholds from high to low: blocks only get added
        while j < len(order) and res.scores[order[j]] >= grid[g]:
            for t in tokens(res.blocks[order[j]].text):
                if pred[t] < ref[t]:
                    overlap += 1
                pred[t] += 1
                n_pred += 1
            j += 1
        if n_ref == 0:
            prec[g], rec[g] = (1.0, 1.0) if n_pred == 0 else (0.0, 1.0)
        elif n_pred:
            prec[g], rec[g] = overlap / n_pred, overlap / n_ref
    return prec, rec


def dev_curves(model: Model, records: Sequence[PageRecord], grid: np.ndarray = GRID,
               batch_pages: int = 64) -> Curves:
    """Extract ``records`` with ``model`` (site evidence on) and score every threshold.

    Pages stream through `blockclf.batch.run_batch` (``batch_pages`` per LightGBM call), so
    memory does not grow with the dev set and every page gets the site evidence of the whole
    set. A page that cannot be read scores as an empty extraction at every threshold. Pages
    that keep too little are read again with their hidden text as they would be at 0.5.
    """
    items = [Item(r.key, r.html_path, url=r.url, site=r.site) for r in records]
    opts = BatchOptions(model=model, threshold=0.5, chunk_size=batch_pages, exact_scores=True)
    P: list[np.ndarray] = []
    R: list[np.ndarray] = []
    for rec, out in zip(records, run_batch(items, opts)):
        gold = rec.read_gold()
        if out.result is not None:
            p, r = page_curve(out.result, gold, grid)
        else:
            s = score_text("", gold)
            p, r = np.full(len(grid), s.precision), np.full(len(grid), s.recall)
        P.append(p)
        R.append(r)
    Pm = np.array(P).reshape(len(P), len(grid))
    Rm = np.array(R).reshape(len(R), len(grid))
    return Curves(grid, Pm, Rm, f1(Pm, Rm), np.asarray([r.site for r in records], dtype=object))


def f1(precision: np.ndarray, recall: np.ndarray) -> np.ndarray:
    """Elementwise F1 of precision and recall arrays (0 where both are 0; `blockclf.metrics.f_beta`)."""
    return np.asarray(f_beta(precision, recall))


def _standard_error(values: np.ndarray, sites: np.ndarray, seed: int) -> np.ndarray:
    """Standard error of the mean page value at each threshold, resampling whole sites."""
    names, site_of = np.unique(sites.astype(str), return_inverse=True)
    sums = np.zeros((len(names), values.shape[1]))
    np.add.at(sums, site_of, values)
    counts = np.bincount(site_of, minlength=len(names)).astype(float)
    rng = np.random.default_rng(seed)
    draws = np.stack([np.bincount(rng.integers(0, len(names), len(names)), minlength=len(names))
                      for _ in range(RESAMPLES)]).astype(float)
    means = (draws @ sums) / np.maximum(draws @ counts, 1.0)[:, None]
    return means.std(axis=0)


def _middle_best(values: np.ndarray, allowed: np.ndarray) -> int:
    """Index of the best allowed value; of a run of equal best values, the middle one.

    One site's pages are often separated equally well over a wide range of thresholds; the
    edge of that range is where other pages of the site start to go wrong.
    """
    masked = np.where(allowed, values, -np.inf)
    best = masked.max()
    j = int(np.argmax(masked))
    end = j
    while end + 1 < len(values) and allowed[end + 1] and masked[end + 1] >= best - 1e-12:
        end += 1
    return (j + end) // 2


def check_targets(targets: dict[str, float] | None) -> dict[str, float]:
    """`TARGETS` with ``targets`` put in; a key other than precision/recall or a value
    outside (0, 1) is a ValueError (training checks before it starts, not after)."""
    aims = dict(TARGETS)
    for favor, value in (targets or {}).items():
        if favor not in aims:
            raise ValueError(f"no target for favor {favor!r}: only {', '.join(aims)} have one")
        if not 0 < float(value) < 1:
            raise ValueError(f"the {favor} target must be between 0 and 1, got {value}")
        aims[favor] = float(value)
    return aims


def choose(curves: Curves, seed: int = 0,
           targets: dict[str, float] | None = None) -> tuple[dict[str, float], dict[str, dict[str, Any]]]:
    """The threshold of each favor mode, and its dev figures (mean P/R/F1, margin, target met).

    ``targets`` replaces any of `TARGETS` (keys ``precision``, ``recall``; values in (0, 1)).
    """
    aims = check_targets(targets)
    grid = curves.grid
    mean = {k: getattr(curves, k).mean(axis=0) for k in ("precision", "recall", "f1")}
    b = _middle_best(mean["f1"], np.ones(len(grid), dtype=bool))
    picks = {"balanced": b}
    met: dict[str, bool | None] = {"balanced": None}
    low: dict[str, np.ndarray] = {}
    for favor, side in (("precision", grid >= grid[b]), ("recall", grid <= grid[b])):
        low[favor] = mean[favor] - _standard_error(getattr(curves, favor), curves.sites, seed)
        reach = side & (low[favor] >= aims[favor])
        met[favor] = bool(reach.any())
        if reach.any():
            picks[favor] = _middle_best(mean["f1"], reach)
        else:
            floor = side & (mean["f1"] >= F1_FLOOR)
            picks[favor] = _middle_best(low[favor], floor) if floor.any() else b
    thresholds = {f: float(grid[picks[f]]) for f in ("precision", "balanced", "recall")}
    report: dict[str, dict[str, Any]] = {}
    for favor, j in picks.items():
        report[favor] = {"threshold": float(grid[j]), **{k: round(float(v[j]), 4) for k, v in mean.items()}}
        if favor in low:
            report[favor].update({f"{favor}_low": round(float(low[favor][j]), 4), "target": aims[favor],
                                  "target_met": met[favor]})
        log.info("%s: threshold %.2f, dev %s", favor, grid[j], report[favor])
    return thresholds, report


#: a dev set of fewer pages than this, or of one site, chooses thresholds that may not hold elsewhere
DEV_MIN_PAGES = 30


def dev_set_warnings(dev: Sequence[PageRecord]) -> list[str]:
    """What to tell a user whose dev set is too small or from one site to choose thresholds on.

    The favor thresholds are chosen to meet their aims on the dev pages; on a few pages of one
    site they fit that site's template, and a "met" aim says little about other sites. Measured:
    a fine-tune on 9 dev pages of one site reported its aim met with a lower bound of 1.000, and
    its thresholds cut mean F1 on unrelated pages from .926 to .862.
    """
    out = []
    sites = {r.site for r in dev}
    if len(dev) < DEV_MIN_PAGES:
        out.append(f"the dev set has {len(dev)} pages (under {DEV_MIN_PAGES}): the favor thresholds chosen on it "
                   "rest on few pages, and an aim reported met may not hold on other pages")
    if len(sites) == 1:
        out.append(f"the dev pages all come from one site ({next(iter(sites)) or 'unknown'}): the favor thresholds "
                   "fit that site and may cut F1 on other sites' pages (in one such fine-tune, from .926 to .862); "
                   "use the model on that site only, or add dev pages of other sites")
    return out


def for_classifier(classifier: TreeScoring, dev: Sequence[PageRecord], seed: int = 0,
                   targets: dict[str, float] | None = None, refiner: TreeScoring | None = None,
                   ) -> tuple[dict[str, float], dict[str, dict[str, Any]]]:
    """`choose` on the ``dev`` pages as ``classifier`` (and its ``refiner``) extract them."""
    model = Model(classifier, dict.fromkeys(FAVORS, 0.5), list(FEATURES), {}, refiner)
    return choose(dev_curves(model, dev), seed, targets)
