"""Train on the user's own labelled pages: fine-tune a base model or retrain, mixing in public data.

``blockclf train MYDATA --base default`` continues boosting the base model's
trees on the user's pages (LightGBM ``init_model``): the base model's knowledge of the web
stays, and new trees correct it where the user's site differs. Without ``--base`` a model is
trained from scratch. Either way, public labelled pages (``--extra-data``, e.g. the benchmark's
train split) can be mixed in so the model does not forget other sites; ``weight`` is the share
of the total training weight that the user's pages carry (every page weighs the same within
its group, as in `train`).

Early stopping and the favor thresholds use the user's ``dev`` pages; the user's ``test``
pages are never trained or tuned on and give the before/after comparison.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

import lightgbm as lgb
import numpy as np
import pandas as pd

from .classifier import BlockClassifier, lightgbm_booster
from .data import PageRecord, read_index
from .evaluate import evaluate_records
from .features import FEATURES
from .model import Model, load_model
from .thresholds import check_targets
from .train import (
    MIN_QUALITY,
    LabelledPage,
    Stacked,
    check_both_labels,
    data_digest,
    favor_thresholds,
    fit_first_pass,
    fit_refiner,
    label_pages,
    stack_pages,
    usable,
)

__all__ = ["FinetuneConfig", "compare", "finetune", "read_user_data"]

log = logging.getLogger("blockclf")


@dataclass
class FinetuneConfig:
    """How to train: rounds, learning rate and tree size, the user-data share, public-page cap.

    ``weight`` is the share of all training weight carried by the user's pages (ignored when
    there is no public data). ``extra_pages`` caps how many public pages are mixed in (a
    seeded sample; None for all of them). ``targets`` sets the precision and recall the favor
    modes aim at (`blockclf.thresholds`; None keeps 0.95 and 0.97). ``refine`` fits a
    refining pass (`blockclf.refine`) for a model trained from scratch; a base model's own
    refining pass is always kept.
    """

    weight: float = 0.5
    extra_pages: int | None = 800
    rounds: int = 400
    learning_rate: float = 0.05
    num_leaves: int = 31
    min_child_samples: int = 20
    early_stopping_rounds: int = 40
    seed: int = 0
    n_jobs: int = 2
    targets: dict[str, float] | None = None
    refine: bool = False

    def classifier(self) -> BlockClassifier:
        return BlockClassifier(n_estimators=self.rounds, learning_rate=self.learning_rate, num_leaves=self.num_leaves,
                               min_child_samples=self.min_child_samples,
                               early_stopping_rounds=self.early_stopping_rounds,
                               random_state=self.seed, n_jobs=self.n_jobs)


def read_user_data(dirs: Sequence[str | Path], split: str) -> list[PageRecord]:
    """The pages of ``split`` in every dataset directory of ``dirs``."""
    out: list[PageRecord] = []
    for d in dirs:
        out.extend(read_index(d, [split]))
    return out


def _public_sample(extra: str | Path, exclude_sites: set[str], cap: int | None, seed: int) -> list[PageRecord]:
    recs = [r for r in read_index(extra, ["train"]) if r.site not in exclude_sites]
    if cap is not None and len(recs) > cap:
        rng = np.random.default_rng(seed)
        pick = np.sort(rng.choice(len(recs), size=cap, replace=False))
        recs = [recs[i] for i in pick]
    return recs


def _mixed(user: Sequence[LabelledPage], public: Sequence[LabelledPage], weight: float) -> Stacked:
    Xu, yu, wu = stack_pages(user)
    if not public:
        return Stacked(Xu, yu, wu)
    Xp, yp, wp = stack_pages(public)
    total = wu.sum() + wp.sum()
    wu = wu * (weight * total / wu.sum())
    wp = wp * ((1 - weight) * total / wp.sum())
    return Stacked(pd.concat([Xu, Xp], ignore_index=True), np.concatenate([yu, yp]), np.concatenate([wu, wp]))


def _continue(base: Model, cfg: FinetuneConfig, data: Stacked, dev: Stacked) -> BlockClassifier:
    """Add trees to ``base``'s booster, early-stopping on the dev pages."""
    params = cfg.classifier().lightgbm_params()
    train = lgb.Dataset(data.X[FEATURES], data.y, weight=data.w, free_raw_data=True)
    valid = lgb.Dataset(dev.X[FEATURES], dev.y, weight=dev.w, reference=train)
    booster = lgb.train(params, train, num_boost_round=cfg.rounds, init_model=lightgbm_booster(base.classifier),
                        valid_sets=[valid], callbacks=[lgb.early_stopping(cfg.early_stopping_rounds, verbose=False)])
    clf = BlockClassifier.from_booster(booster)
    clf.feature_names_in_ = np.asarray(FEATURES, dtype=object)
    return clf


def finetune(user_dirs: Sequence[str | Path], *, base: Model | None = None, extra: str | Path | None = None,
             config: FinetuneConfig | None = None) -> Model:
    """Train a model for the user's pages in ``user_dirs`` (their ``train`` and ``dev`` splits).

    With ``base``, boosting continues from the base model's trees; otherwise it starts from
    scratch. With ``extra``, a sample of that directory's ``train`` pages (never pages of the
    user's own sites) is mixed in at ``config.weight``.
    """
    cfg = config or FinetuneConfig()
    if not 0 < cfg.weight <= 1:
        raise ValueError("weight (the user pages' share of training weight) must be in (0, 1]")
    check_targets(cfg.targets)
    t0 = time.perf_counter()
    user_train, user_dev, public = _records(user_dirs, extra, cfg)
    pages = _label(user_train, user_dev, public, cfg.n_jobs, t0)
    check_both_labels(pages.good_user, "train")
    data = _mixed(pages.good_user, pages.good_public, cfg.weight)
    clf, base_trees = _fit(base, cfg, data, stack_pages(pages.good_dev))
    # a base model's refining pass is kept: it reads first-pass scores, which the added trees
    # adjust to the user's sites
    refiner = base.refiner if base is not None else (
        fit_refiner(clf, pages.good_user + pages.good_public, pages.good_dev, cfg.seed) if cfg.refine else None)
    thresholds, dev_scores = favor_thresholds(clf, user_dev, cfg.seed, cfg.targets, refiner)
    info: dict[str, Any] = {
        "trained_on": sorted({r.dataset for r in user_train} | {r.dataset for r in public}),
        "base": (base.info.get("data_digest") if base is not None else None),
        "base_trees": int(base_trees),
        "user_weight": cfg.weight if public else 1.0,
        "train_pages": len(pages.good_user) + len(pages.good_public),
        "user_train_pages": len(pages.good_user),
        "public_train_pages": len(pages.good_public),
        "train_pages_excluded": len(pages.user) + len(pages.public) - len(pages.good_user) - len(pages.good_public),
        "pages_not_read": pages.not_read,  # train and dev pages left out, and why
        "dev_pages": len(pages.dev),
        "train_blocks": len(data.y),
        "data_digest": data_digest(list(user_train) + list(user_dev) + list(public)),
        "seed": cfg.seed,
        "dev_scores": dev_scores,
        "min_label_quality": MIN_QUALITY,
        "seconds": round(time.perf_counter() - t0, 1),
    }
    return Model(clf, thresholds, list(FEATURES), info, refiner)


class _Labelled(NamedTuple):
    """The labelled user train, public and user dev pages, and of each those `usable` to learn from."""

    user: list[LabelledPage]
    public: list[LabelledPage]
    dev: list[LabelledPage]
    good_user: list[LabelledPage]
    good_public: list[LabelledPage]
    good_dev: list[LabelledPage]
    not_read: list[str]  # pages left out, and why ("key: why")


def _label(user_train: Sequence[PageRecord], user_dev: Sequence[PageRecord], public: Sequence[PageRecord],
           n_jobs: int, t0: float) -> _Labelled:
    """Label the three sets of pages; a ValueError when no user train or dev page is usable.
    The log gives the time since ``t0``, when the run started reading its records."""
    not_read: list[str] = []
    tr_user = label_pages(user_train, n_jobs, not_read)
    tr_public = label_pages(public, n_jobs, not_read) if public else []
    dv = label_pages(user_dev, n_jobs, not_read)
    pages = _Labelled(tr_user, tr_public, dv, usable(tr_user), usable(tr_public), usable(dv), not_read)
    if not pages.good_user or not pages.good_dev:
        raise ValueError(f"too few usable pages: {len(pages.good_user)} train and {len(pages.good_dev)} dev pages "
                         f"have labels that reproduce their gold text (alignment F1 >= {MIN_QUALITY})")
    log.info("labelled %d user train pages, %d public pages, %d dev pages in %.0fs",
             len(tr_user), len(tr_public), len(dv), time.perf_counter() - t0)
    return pages


def _fit(base: Model | None, cfg: FinetuneConfig, data: Stacked, dev: Stacked) -> tuple[BlockClassifier, int]:
    """The first pass, continued from ``base``'s trees or fitted from scratch, and how many of
    its trees come from ``base``."""
    t1 = time.perf_counter()
    if base is not None:
        clf = _continue(base, cfg, data, dev)
        base_trees = base.classifier.booster_.current_iteration()
    else:
        clf = fit_first_pass(cfg.classifier(), data, dev)
        base_trees = 0
    log.info("fitted %d trees (%d from the base model) in %.0fs", clf.best_iteration_, base_trees,
             time.perf_counter() - t1)
    return clf, base_trees


def _records(user_dirs: Sequence[str | Path], extra: str | Path | None,
             cfg: FinetuneConfig) -> tuple[list[PageRecord], list[PageRecord], list[PageRecord]]:
    """The user's train and dev pages, and the public pages mixed in (never of the user's sites)."""
    user_train = read_user_data(user_dirs, "train")
    user_dev = read_user_data(user_dirs, "dev")
    if not user_train:
        raise ValueError("no pages with split 'train' in the given datasets")
    if not user_dev:
        raise ValueError("no pages with split 'dev' in the given datasets (needed for early stopping and thresholds)")
    sites = {r.site for r in user_train + user_dev} | {r.site for r in read_user_data(user_dirs, "test")}
    public = _public_sample(extra, sites, cfg.extra_pages, cfg.seed) if extra is not None and cfg.weight < 1 else []
    return user_train, user_dev, public


def compare(records: Sequence[PageRecord], models: dict[str, Model | str | Path | None],
            favor: str = "balanced") -> pd.DataFrame:
    """Mean P/R/F1 of each named model on ``records`` (one row per model), for before/after tables."""
    rows = []
    for name, m in models.items():
        model = m if isinstance(m, Model) else load_model(m)
        df = evaluate_records(records, model, favor=favor)
        rows.append({"model": name, "precision": df["precision"].mean(), "recall": df["recall"].mean(),
                     "f1": df["f1"].mean(), "pages": len(df)})
    return pd.DataFrame(rows).set_index("model")
