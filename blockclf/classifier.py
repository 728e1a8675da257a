"""`BlockClassifier`: LightGBM behind the scikit-learn estimator contract, for training.

Extraction never needs this module: a model read from a file is scored by
`blockclf.model.TreeScorer` through LightGBM's native library alone, so the command line
starts without LightGBM's Python package, scikit-learn or pandas. Training, fine-tuning and
reports import them here.
"""

from __future__ import annotations

from typing import Any

import lightgbm as lgb
import numpy as np
import pandas as pd
from sklearn.base import BaseEstimator, ClassifierMixin

from .model import TreeScoring

__all__ = ["BlockClassifier", "lightgbm_booster"]


class BlockClassifier(TreeScoring, ClassifierMixin, BaseEstimator):
    """Gradient-boosted trees over the block feature table; predicts P(block is content).

    Early stopping watches ``eval_set`` (pass held-out *sites*, never the training pages).

    It follows scikit-learn's conventions where training needs them (``get_params`` and
    ``set_params``, `sklearn.base.clone`, no logic in ``__init__``, learned attributes ending
    in ``_``), and no further: it is not a general scikit-learn estimator and does not pass
    ``sklearn.utils.estimator_checks``. ``fit`` takes the feature table of
    `blockclf.featurize` (a DataFrame with the `blockclf.features.FEATURES` columns) and 0/1
    labels; ``predict`` cuts P(content) at 0.5, where extraction cuts at the model's favor
    threshold (`blockclf.model.Model.threshold`); a classifier read from a model file
    (`from_booster`) keeps the default parameters, its tree count is ``best_iteration_``.
    """

    def __init__(self, n_estimators: int = 3000, learning_rate: float = 0.1, num_leaves: int = 127,
                 min_child_samples: int = 100, colsample_bytree: float = 0.5, subsample: float = 0.8,
                 reg_lambda: float = 1.0, early_stopping_rounds: int = 100, random_state: int = 0,
                 n_jobs: int = 2) -> None:
        self.n_estimators = n_estimators
        self.learning_rate = learning_rate
        self.num_leaves = num_leaves
        self.min_child_samples = min_child_samples
        self.colsample_bytree = colsample_bytree
        self.subsample = subsample
        self.reg_lambda = reg_lambda
        self.early_stopping_rounds = early_stopping_rounds
        self.random_state = random_state
        self.n_jobs = n_jobs

    def lightgbm_params(self) -> dict[str, Any]:
        """The LightGBM training parameters these hyperparameters stand for."""
        return {
            "objective": "binary",
            "learning_rate": self.learning_rate,
            "num_leaves": self.num_leaves,
            "min_child_samples": self.min_child_samples,
            "feature_fraction": self.colsample_bytree,
            "bagging_fraction": self.subsample,
            "bagging_freq": 1 if self.subsample < 1 else 0,
            "lambda_l2": self.reg_lambda,
            "seed": self.random_state,
            "deterministic": True,
            "force_row_wise": True,
            "num_threads": self.n_jobs,
            "verbosity": -1,
        }

    def fit(self, X: pd.DataFrame, y: np.ndarray, sample_weight: np.ndarray | None = None,
            eval_set: tuple[pd.DataFrame, np.ndarray] | None = None,
            eval_sample_weight: np.ndarray | None = None) -> BlockClassifier:
        """Fit on the feature table ``X`` and 0/1 labels ``y``."""
        y = np.asarray(y).astype(int)
        self.classes_ = np.array([0, 1])
        self.feature_names_in_ = np.asarray(list(X.columns), dtype=object)
        self.n_features_in_ = X.shape[1]
        train = lgb.Dataset(X, y, weight=sample_weight, free_raw_data=True)
        callbacks: list[Any] = []
        valid_sets = []
        if eval_set is not None:
            valid_sets = [lgb.Dataset(eval_set[0], np.asarray(eval_set[1]).astype(int),
                                      weight=eval_sample_weight, reference=train)]
            callbacks.append(lgb.early_stopping(self.early_stopping_rounds, verbose=False))
        self.booster_ = lgb.train(self.lightgbm_params(), train, num_boost_round=self.n_estimators,
                                  valid_sets=valid_sets, callbacks=callbacks)
        self.best_iteration_ = self.booster_.best_iteration or self.booster_.current_iteration()
        return self

    @classmethod
    def from_booster(cls, booster: lgb.Booster) -> BlockClassifier:
        """Wrap an already trained booster (as read from a model file)."""
        clf = cls()
        clf.booster_ = booster
        clf.classes_ = np.array([0, 1])
        clf.feature_names_in_ = np.asarray(booster.feature_name(), dtype=object)
        clf.n_features_in_ = booster.num_feature()
        # a booster read from text reports best_iteration -1: every stored tree is used
        clf.best_iteration_ = booster.best_iteration if booster.best_iteration > 0 else booster.current_iteration()
        return clf

    def predict(self, X: pd.DataFrame | np.ndarray) -> np.ndarray:
        return (self.predict_proba(X)[:, 1] >= 0.5).astype(int)


def lightgbm_booster(scorer: TreeScoring) -> lgb.Booster:
    """``scorer``'s trees as a LightGBM booster (to continue boosting, or read split gains)."""
    booster = scorer.booster_
    if isinstance(booster, lgb.Booster):
        return booster
    return lgb.Booster(model_str=booster.model_to_string())
