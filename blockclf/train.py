"""Training: labelled pages → feature table with labels → `BlockClassifier` → model file.

Pages are featurised in parallel; cross-page repetition is computed among the pages of the
same site *within one split*, exactly as batch extraction does it at prediction time.
Early stopping and the favor thresholds (`blockclf.thresholds`) use the dev split, whose
sites are disjoint from the training sites.

The refining pass (`blockclf.refine`) learns from first-pass scores of training pages that
first pass did not see: the train sites are split into `REFINE_FOLDS` groups and each group
is scored by a first pass fitted on the others, with the full first pass's number of trees.
"""

from __future__ import annotations

import hashlib
import json
import logging
import time
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np
import pandas as pd
from joblib import Parallel, delayed
from sklearn.base import clone

from . import refine, region
from .classifier import BlockClassifier
from .data import PageRecord
from .features import FEATURES, featurize
from .html import PageError, parse
from .labels import Labels, from_annotations, from_gold
from .metrics import f_beta
from .model import FAVORS, Model, TreeScoring
from .segment import segment
from .site import SiteProfile, block_keys
from .thresholds import GRID, check_targets, dev_set_warnings, for_classifier

__all__ = ["LabelledPage", "check_both_labels", "choose_thresholds", "fit_model", "fit_refiner", "label_pages",
           "page_scores", "refine_table", "site_folds"]

log = logging.getLogger("blockclf")

#: pages whose labels score below this against their own gold are not trained on
MIN_QUALITY = 0.8
#: site-grouped folds that give the refining pass first-pass scores of unseen pages
REFINE_FOLDS = 3
FAVOR_BETA = {"precision": 0.5, "balanced": 1.0, "recall": 2.0}


@dataclass
class LabelledPage:
    """One page's feature table, labels and site keys, ready for training or tuning."""

    record: PageRecord
    X: pd.DataFrame
    labels: Labels
    text_keys: np.ndarray
    path_keys: np.ndarray
    boxes: np.ndarray | None = None  # `refine.containers` of the blocks


def _annotated_runs(record: PageRecord) -> list[tuple[str, bool]] | None:
    if record.blocks_path is None:
        return None
    data = json.loads(record.blocks_path.read_text(encoding="utf-8"))
    return [(b["text"], bool(b.get("content")) and not b.get("invisible")) for b in data["blocks"]]


def _label_one(record: PageRecord) -> LabelledPage | None:
    """``record`` featurised and labelled, or None when it cannot be (`_read_labelled` says why)."""
    page = _read_labelled(record)
    return page if isinstance(page, LabelledPage) else None


def _read_labelled(record: PageRecord) -> LabelledPage | str:
    """``record`` featurised and labelled, or why it cannot be: a page that cannot be read or
    parsed, has no visible block, or whose gold text or block labels cannot be read. One such
    file stopped a whole training run, after the work, with an error naming no file."""
    if record.gold_path is None and record.blocks_path is None:  # read as empty gold, every block would be boilerplate
        return "no gold text or block labels"
    try:
        doc = parse(record.html_path)
        blocks = [b for b in segment(doc) if not b.hidden]  # the model scores visible blocks
    except (PageError, OSError) as exc:
        return f"its page cannot be read ({exc})"
    if not blocks:
        return "its page has no visible text"
    try:
        gold = record.read_gold()
        runs = _annotated_runs(record)
    except (OSError, ValueError, KeyError, TypeError) as exc:  # not UTF-8, not JSON, not the blocks' form
        what = "gold text" if not isinstance(exc, (KeyError, TypeError)) else "block labels"
        return f"its {what} cannot be read ({type(exc).__name__ if isinstance(exc, KeyError) else exc})"
    labels = from_annotations(blocks, runs, gold) if runs is not None else from_gold(blocks, gold)
    xpaths = [b.xpath for b in blocks]
    ancestors = region.page_ancestors(xpaths)
    X = featurize(blocks, doc.title, ancestors=ancestors).astype(np.float32)
    texts, paths = block_keys(blocks)
    return LabelledPage(record, X, labels, texts, paths, refine.containers(xpaths, ancestors))


def add_repetition(pages: Sequence[LabelledPage]) -> None:
    """Fill the repetition columns from the other pages of each page's site in ``pages``."""
    by_site: dict[str, list[LabelledPage]] = defaultdict(list)
    for p in pages:
        by_site[p.record.site].append(p)
    for site, group in by_site.items():
        prof = SiteProfile(site)
        for p in group:
            prof.add_keys(p.text_keys, p.path_keys)
        for p in group:
            t, s, n_other = prof.repetition_keys(p.text_keys, p.path_keys, counted=True)
            p.X["rep_text"] = t.astype(np.float32)
            p.X["rep_path"] = s.astype(np.float32)
            p.X["site_pages"] = np.float32(n_other)


def label_pages(records: Sequence[PageRecord], n_jobs: int = 2,
                not_read: list[str] | None = None) -> list[LabelledPage]:
    """Featurise and label ``records`` (in parallel), with repetition within their sites; each
    page that cannot be is left out, and named with why in ``not_read`` ("key: why")."""
    out = Parallel(n_jobs=n_jobs, batch_size=16)(delayed(_read_labelled)(r) for r in records)
    pages = [p for p in out if isinstance(p, LabelledPage)]
    if not_read is not None:
        not_read += [f"{r.key}: {p}" for r, p in zip(records, out) if isinstance(p, str)]
    add_repetition(pages)
    return pages


def _labels(pages: Sequence[LabelledPage]) -> tuple[np.ndarray, np.ndarray]:
    """The pages' block labels and training weights, stacked."""
    y = np.concatenate([p.labels.content for p in pages]).astype(int)
    # a block weighs by its tokens (the score counts tokens) and each page weighs the same
    w = np.concatenate([np.log1p(p.labels.n_tokens) / max(np.log1p(p.labels.n_tokens).sum(), 1.0) * 100 for p in pages])
    return y, w


class Stacked(NamedTuple):
    """Pages' feature tables, block labels and training weights, stacked into one of each."""

    X: pd.DataFrame
    y: np.ndarray
    w: np.ndarray


def stack_pages(pages: Sequence[LabelledPage]) -> Stacked:
    """The pages' tables, labels and weights, stacked (`Stacked`)."""
    return Stacked(pd.concat([p.X for p in pages], ignore_index=True), *_labels(pages))


#: the name benchmarks/tune.py imports (the benchmark scripts are not part of the package)
_stack = stack_pages


def usable(pages: Sequence[LabelledPage]) -> list[LabelledPage]:
    """The pages whose labels reproduce their gold text well enough to learn from (`MIN_QUALITY`)."""
    return [p for p in pages if p.labels.quality >= MIN_QUALITY]


def check_both_labels(pages: Sequence[LabelledPage], what: str) -> None:
    """A ValueError when ``pages`` hold blocks of one label only: every gold text empty (or
    every block content) teaches nothing, and the model it gave scored a perfect F1 on a dev
    split of the same kind without a word."""
    kinds = {bool(x) for p in pages for x in np.unique(p.labels.content)}
    if len(kinds) < 2:
        label = "content" if kinds == {True} else "boilerplate"
        raise ValueError(f"every block of the {what} pages is labelled {label} (are their gold texts "
                         f"{'the whole pages' if label == 'content' else 'empty'}?): nothing to learn from")


def fit_first_pass(clf: BlockClassifier, train: Stacked, dev: Stacked) -> BlockClassifier:
    """Fit ``clf`` on the train blocks, early-stopping on the dev blocks (held-out sites)."""
    return clf.fit(train.X[FEATURES], train.y, sample_weight=train.w, eval_set=(dev.X[FEATURES], dev.y),
                   eval_sample_weight=dev.w)


def favor_thresholds(clf: BlockClassifier, dev: Sequence[PageRecord], seed: int, targets: dict[str, float] | None,
                     refiner: TreeScoring | None) -> tuple[dict[str, float], dict[str, dict[str, Any]]]:
    """The favor thresholds and their dev figures, as ``clf`` (and ``refiner``) extract the dev pages;
    a dev set too small or from one site is warned about (`dev_set_warnings`)."""
    for warning in dev_set_warnings(dev):
        log.warning("%s", warning)
    return for_classifier(clf, dev, seed, targets, refiner)


def page_scores(pages: Sequence[LabelledPage], probas: Sequence[np.ndarray], threshold: float,
                beta: float = 1.0) -> np.ndarray:
    """Estimated per-page F-beta at ``threshold`` from the labels' aligned-token counts."""
    out = np.empty(len(pages))
    for i, (p, pr) in enumerate(zip(pages, probas)):
        kept = pr >= threshold
        pred = float(p.labels.n_tokens[kept].sum())
        m = float(p.labels.matched[kept].sum())
        gold = p.labels.gold_tokens
        if gold == 0:
            out[i] = 1.0 if pred == 0 else 0.0
            continue
        out[i] = 0.0 if pred == 0 or m == 0 else f_beta(m / pred, m / gold, beta)
    return out


def choose_thresholds(pages: Sequence[LabelledPage],
                      probas: Sequence[np.ndarray]) -> tuple[dict[str, float], dict[str, float]]:
    """For each favor mode, the threshold maximising mean page F-beta (estimated) on ``pages``.

    A quick stand-in for tuning studies, which fit many models: it reads only the labels.
    Shipped models take their thresholds from `blockclf.thresholds` (real extraction, targets);
    both try the thresholds of `blockclf.thresholds.GRID`.
    """
    grid = GRID
    thresholds: dict[str, float] = {}
    best_scores: dict[str, float] = {}
    for favor in FAVORS:
        beta = FAVOR_BETA[favor]
        means = [page_scores(pages, probas, t, beta).mean() for t in grid]
        k = int(np.argmax(means))
        thresholds[favor] = float(grid[k])
        best_scores[favor] = float(means[k])
    return thresholds, best_scores


def site_folds(pages: Sequence[LabelledPage], k: int, seed: int) -> np.ndarray:
    """Fold number of each page, whole sites to a fold, folds about equal in pages."""
    sizes: dict[str, int] = defaultdict(int)
    for p in pages:
        sizes[p.record.site] += 1
    rng = np.random.default_rng(seed)
    sites = sorted(sizes)
    rng.shuffle(sites)
    load, fold_of = [0] * k, {}
    for site in sorted(sites, key=lambda s: -sizes[s]):  # biggest first, each to the lightest fold
        f = int(np.argmin(load))
        fold_of[site] = f
        load[f] += sizes[site]
    return np.array([fold_of[p.record.site] for p in pages])


def refine_table(pages: Sequence[LabelledPage], first: Sequence[np.ndarray]) -> pd.DataFrame:
    """The refining model's input for ``pages``, given each page's first-pass scores."""
    X = np.vstack([p.X[FEATURES].to_numpy(np.float64) for p in pages])
    boxes = [p.boxes if p.boxes is not None else np.zeros((0, refine.LEVELS), dtype=np.intp) for p in pages]
    T = refine.table(np.concatenate(first), X, boxes, FEATURES.index("n_words"))
    return pd.DataFrame(T, columns=list(refine.COLUMNS) + list(FEATURES))


def fit_refiner(first: BlockClassifier, train: Sequence[LabelledPage], dev: Sequence[LabelledPage],
                seed: int = 0) -> BlockClassifier | None:
    """The refining pass over ``first``'s scores: fitted on out-of-fold first-pass scores of
    ``train``, early-stopped on ``dev`` as ``first`` scores it. None with too few train sites."""
    folds = site_folds(train, REFINE_FOLDS, seed)
    if len(set(folds.tolist())) < REFINE_FOLDS:
        log.warning("refining pass skipped: the training pages come from fewer than %d sites", REFINE_FOLDS)
        return None
    held: list[np.ndarray] = [np.empty(0)] * len(train)
    for f in range(REFINE_FOLDS):
        rest = [p for p, g in zip(train, folds) if g != f]
        X, y, w = stack_pages(rest)
        part = clone(first).set_params(n_estimators=int(first.best_iteration_), random_state=seed)
        part.fit(X[FEATURES], y, sample_weight=w)
        for i in np.flatnonzero(folds == f).tolist():
            held[i] = part.predict_proba(train[i].X[FEATURES])[:, 1]
    y, w = _labels(train)  # the tables come from refine_table, not the feature frames
    ydv, wdv = _labels(dev)
    T = refine_table(train, held)
    Tdv = refine_table(dev, [first.predict_proba(p.X[FEATURES])[:, 1] for p in dev])
    return clone(first).set_params(random_state=seed).fit(T, y, sample_weight=w, eval_set=(Tdv, ydv),
                                                          eval_sample_weight=wdv)


def data_digest(records: Sequence[PageRecord]) -> str:
    """A digest of the training pages (their keys and file sizes), recorded in the model file."""
    h = hashlib.sha256()
    for r in sorted(records, key=lambda r: r.key):
        h.update(r.key.encode())
        try:
            size = r.html_path.stat().st_size
        except OSError:  # a page its index lists but that is not there: left out of training, named
            size = -1
        h.update(str(size).encode())
    return h.hexdigest()[:16]


def fit_model(train: Sequence[PageRecord], dev: Sequence[PageRecord], seed: int = 0, n_jobs: int = 2,
              classifier: BlockClassifier | None = None, targets: dict[str, float] | None = None,
              refining: bool = False) -> Model:
    """Train a model on ``train`` pages, early-stopping and choosing thresholds on ``dev``.

    ``targets`` sets the precision and recall the favor modes aim at (`blockclf.thresholds`);
    ``refining`` adds the second pass of `blockclf.refine`: better scores, about three times
    the training time and 11-13% more extraction time.
    """
    check_targets(targets)
    t0 = time.perf_counter()
    not_read: list[str] = []
    tr = label_pages(train, n_jobs, not_read)
    dv = label_pages(dev, n_jobs, not_read)
    tr_good, dv_good = usable(tr), usable(dv)
    log.info("labelled %d train pages (%d excluded: alignment F1 < %.2f), %d dev pages (%d excluded) in %.0fs",
             len(tr), len(tr) - len(tr_good), MIN_QUALITY, len(dv), len(dv) - len(dv_good), time.perf_counter() - t0)
    check_both_labels(tr_good, "train")
    stacked = stack_pages(tr_good)
    clf = classifier if classifier is not None else BlockClassifier(random_state=seed, n_jobs=n_jobs)
    clf.set_params(random_state=seed)
    t1 = time.perf_counter()
    fit_first_pass(clf, stacked, stack_pages(dv_good))
    log.info("fitted %d trees on %d blocks in %.0fs", clf.best_iteration_, len(stacked.y), time.perf_counter() - t1)
    refiner = None
    if refining:
        t1 = time.perf_counter()
        refiner = fit_refiner(clf, tr_good, dv_good, seed)
        if refiner is not None:
            log.info("fitted the refining pass (%d trees, %d folds) in %.0fs", refiner.best_iteration_,
                     REFINE_FOLDS, time.perf_counter() - t1)
    t2 = time.perf_counter()
    thresholds, dev_scores = favor_thresholds(clf, dev, seed, targets, refiner)
    log.info("chose the favor thresholds on %d dev pages in %.0fs", len(dev), time.perf_counter() - t2)
    info = {
        "trained_on": sorted({r.dataset for r in train}),
        "train_pages": len(tr_good),
        "train_pages_excluded": len(tr) - len(tr_good),
        "pages_not_read": not_read,  # train and dev pages left out, and why
        "dev_pages": len(dv),
        "train_blocks": len(stacked.y),
        "data_digest": data_digest(list(train) + list(dev)),
        "seed": seed,
        "dev_scores": dev_scores,
        "min_label_quality": MIN_QUALITY,
        "seconds": round(time.perf_counter() - t0, 1),
    }
    return Model(clf, thresholds, list(FEATURES), info, refiner)
