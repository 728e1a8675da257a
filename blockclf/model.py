"""`BlockClassifier` (LightGBM behind the scikit-learn estimator contract) and model files.

A model file is one JSON text file: a format name and version, the LightGBM model string,
the feature list, the thresholds of each favor mode, library versions, a digest of the
training data and the dev metrics; from version 2, optionally the refining model that scores
blocks again beside the first pass's scores (`blockclf.refine`), with its own column list.
Loading parses JSON and LightGBM's own text format; it never unpickles and never executes
anything from the file. Every part is checked before it is used: the JSON by type and shape,
the LightGBM text by `blockclf.modelcheck` before LightGBM's parser sees it (a damaged model
string would otherwise crash the process), so any damage is one `ModelError` line.
"""

from __future__ import annotations

import json
import math
import os
import platform
import stat
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

import lightgbm as lgb
import numpy as np
import pandas as pd
from sklearn.base import BaseEstimator, ClassifierMixin

from . import refine
from .features import FEATURES
from .modelcheck import ModelTextError, checked_text

__all__ = ["FORMAT", "FORMAT_VERSION", "SHIPPED", "BlockClassifier", "Model", "ModelError", "default_model_path",
           "load_model", "shipped_name"]

FORMAT = "blockclf-model"
FORMAT_VERSION = 2
FAVORS = ("precision", "balanced", "recall")
#: predictions over fewer rows than this run on one thread
SINGLE_THREAD_ROWS = 20_000
#: largest model file read (the shipped ones are 2-4 MB)
MAX_MODEL_BYTES = 1 << 30
#: deepest nesting accepted in a model file's JSON (``info`` is a few levels deep)
MAX_JSON_DEPTH = 32


class ModelError(ValueError):
    """A model file that cannot be used; the message names the problem in one line."""


class BlockClassifier(ClassifierMixin, BaseEstimator):
    """Gradient-boosted trees over the block feature table; predicts P(block is content).

    Early stopping watches ``eval_set`` (pass held-out *sites*, never the training pages).
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

    def _params(self) -> dict[str, Any]:
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
        self.booster_ = lgb.train(self._params(), train, num_boost_round=self.n_estimators,
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

    def _matrix(self, X: pd.DataFrame | np.ndarray) -> np.ndarray:
        if isinstance(X, pd.DataFrame):
            names = list(self.feature_names_in_)
            if list(X.columns) == names:  # already in model order: no reindexing copy
                return X.to_numpy(dtype=np.float64)
            return X[names].to_numpy(dtype=np.float64)
        X = np.asarray(X, dtype=np.float64)
        if X.ndim == 2 and X.shape[1] == len(FEATURES) != self.n_features_in_:
            # a full feature matrix for a model fitted on some columns (an ablation, say)
            X = X[:, [FEATURES.index(c) for c in self.feature_names_in_]]
        return X

    def predict_proba(self, X: pd.DataFrame | np.ndarray) -> np.ndarray:
        """Two columns: P(boilerplate), P(content)."""
        if len(X) == 0:
            return np.zeros((0, 2))
        p = np.asarray(self.booster_.predict(self._matrix(X), num_iteration=self.best_iteration_,
                                             num_threads=self._threads(len(X)), verbosity=-1))
        return np.column_stack([1 - p, p])

    def _threads(self, rows: int) -> int:
        # starting OpenMP threads costs more than a page's worth of trees: one page scores
        # about 3.5x faster on one thread; only large batches gain from more
        return 1 if rows < SINGLE_THREAD_ROWS else max(int(self.n_jobs), 1)

    def predict(self, X: pd.DataFrame | np.ndarray) -> np.ndarray:
        return (self.predict_proba(X)[:, 1] >= 0.5).astype(int)

    def contributions(self, X: pd.DataFrame | np.ndarray) -> np.ndarray:
        """Per-feature contributions to the raw score (LightGBM ``pred_contrib``); last column is the bias."""
        if len(X) == 0:
            return np.zeros((0, self.n_features_in_ + 1))
        return np.asarray(self.booster_.predict(self._matrix(X), num_iteration=self.best_iteration_,
                                                pred_contrib=True, num_threads=self._threads(len(X)), verbosity=-1))


@dataclass
class Model:
    """A trained classifier with the thresholds of each favor mode and its provenance.

    ``refiner``, when present, scores every block again from the ``classifier``'s scores of
    the blocks around it and the block's features (`blockclf.refine`); its scores are final.
    """

    classifier: BlockClassifier
    thresholds: dict[str, float]
    features: list[str]
    info: dict[str, Any] = field(default_factory=dict)
    refiner: BlockClassifier | None = None

    @property
    def columns(self) -> list[str]:
        """Names of the columns the final scoring pass reads (what explanations refer to)."""
        return list(refine.COLUMNS) + list(self.features) if self.refiner is not None else list(self.features)

    def score(self, X: np.ndarray, boxes: list[np.ndarray] | None = None) -> tuple[np.ndarray, np.ndarray]:
        """P(content) of every row of ``X`` (pages' feature tables stacked in order), and the
        table the final pass read. ``boxes``: each page's `refine.containers`, needed when
        the model has a refiner."""
        first = self.classifier.predict_proba(X)[:, 1]
        if self.refiner is None or not len(X):
            return first, X
        if boxes is None:
            raise ValueError("this model refines its scores: pass each page's refine.containers")
        final = refine.table(first, np.asarray(X, dtype=np.float64), boxes, self.features.index("n_words"))
        return self.refiner.predict_proba(final)[:, 1], final

    def contributions(self, table: np.ndarray) -> np.ndarray:
        """Per-column contributions of the final pass (columns of `columns`, then the bias)."""
        return (self.refiner or self.classifier).contributions(table)

    def threshold(self, favor: str = "balanced") -> float:
        if favor not in self.thresholds:
            raise ValueError(f"favor must be one of {', '.join(FAVORS)}, not {favor!r}")
        return self.thresholds[favor]

    def to_dict(self) -> dict[str, Any]:
        booster = self.classifier.booster_
        out = {
            "format": FORMAT,
            "format_version": FORMAT_VERSION,
            "features": self.features,
            "thresholds": self.thresholds,
            "best_iteration": int(self.classifier.best_iteration_),
            "library_versions": {"lightgbm": lgb.__version__, "python": platform.python_version()},
            "info": self.info,
            "booster": booster.model_to_string(num_iteration=self.classifier.best_iteration_),
        }
        if self.refiner is not None:
            out["refiner"] = {"features": self.columns, "best_iteration": int(self.refiner.best_iteration_),
                              "booster": self.refiner.booster_.model_to_string(
                                  num_iteration=self.refiner.best_iteration_)}
        return out

    def save(self, path: str | Path) -> None:
        """Write the model file atomically (a temporary file renamed into place)."""
        path = Path(path)
        tmp = path.with_name(path.name + ".tmp")
        tmp.write_text(json.dumps(self.to_dict(), indent=1), encoding="utf-8")
        tmp.replace(path)


#: models shipped with the package, by name: the default, and the slower one with the refining pass
SHIPPED = ("default", "refined")


def shipped_name(path: str | Path | None) -> str | None:
    """The shipped model ``path`` names (None: the default), or None when it names a file.

    A file of that name in the working directory wins over the shipped model.
    """
    if path is None:
        return SHIPPED[0]
    return str(path) if str(path) in SHIPPED and not Path(path).exists() else None


def default_model_path(name: str = "default") -> Path:
    """Path of a model shipped with the package (``models/<name>.json`` in a source tree)."""
    if name not in SHIPPED:
        raise ValueError(f"no shipped model {name!r}: the shipped models are {', '.join(SHIPPED)}")
    installed = Path(str(resources.files("blockclf"))) / "models" / f"{name}.json"
    if installed.exists():
        return installed
    return Path(__file__).resolve().parent.parent / "models" / f"{name}.json"


def _fail(path: Path, what: str) -> ModelError:
    return ModelError(f"{path}: {what}")


def _short(value: Any, n: int = 40) -> str:
    """``repr(value)`` cut to ``n`` characters, so a message stays one short line."""
    text = repr(value) if not isinstance(value, int) or abs(value) < 10**20 else "(a number of over 20 digits)"
    return text if len(text) <= n else text[:n] + "..."


def _read(p: Path) -> bytes:
    """The bytes of model file ``p``; only regular files, at most `MAX_MODEL_BYTES`.

    A FIFO would block the read forever and a device never ends: both are refused unread.
    """
    try:
        st = os.stat(p)
        if not stat.S_ISREG(st.st_mode):
            raise _fail(p, "model path is not a regular file")
        if st.st_size > MAX_MODEL_BYTES:
            raise _fail(p, f"model file is {st.st_size:,} bytes, over the {MAX_MODEL_BYTES:,} a model may have")
        return p.read_bytes()
    except OSError as exc:
        hint = f"; the shipped models are {', '.join(SHIPPED)}" if isinstance(exc, FileNotFoundError) else ""
        raise _fail(p, f"cannot read model file ({exc.strerror or exc}){hint}") from None


def _parse(p: Path, raw: bytes) -> Any:
    """The JSON value of a model file's bytes, or a one-line `ModelError`."""
    not_json = _fail(p, "not a blockclf model file (not JSON text; models are never unpickled)")
    try:
        return json.loads(raw.decode("utf-8"))
    except json.JSONDecodeError as exc:
        if raw.lstrip()[:1] == b"{":  # began as a model file: cut short or edited by hand
            raise _fail(p, f"model file is damaged (truncated or edited?): {exc.msg} at line {exc.lineno}") from None
        raise not_json from None
    except UnicodeDecodeError:
        raise not_json from None
    except RecursionError:
        raise _fail(p, "model file is damaged: its JSON is nested too deeply") from None
    except ValueError:  # a number of more digits than Python converts (4300 by default)
        raise _fail(p, "model file is damaged: it holds a number of more digits than can be read") from None


def _plain(value: Any, depth: int = 0) -> bool:
    """Whether JSON ``value`` nests at most `MAX_JSON_DEPTH` deep and holds no integer
    beyond 64 bits or float that is not finite (so code reading ``info`` meets no surprise)."""
    if depth > MAX_JSON_DEPTH:
        return False
    if isinstance(value, dict):
        return all(_plain(v, depth + 1) for v in value.values())
    if isinstance(value, list):
        return all(_plain(v, depth + 1) for v in value)
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return True
    if isinstance(value, int):
        return -(2**63) <= value < 2**64
    return isinstance(value, float) and math.isfinite(value)


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def load_model(path: str | Path | None = None) -> Model:
    """Read a model file written by `Model.save` (default: the shipped default model).

    ``path`` may also name a shipped model (`SHIPPED`) when no file of that name exists.
    Raises `ModelError` with a one-line message for a missing, non-JSON, foreign, newer,
    incomplete or corrupt file; a damaged LightGBM model string is found before LightGBM
    reads it (`blockclf.modelcheck`), so no file can take the process down.
    """
    shipped = shipped_name(path)
    p = default_model_path(shipped) if shipped is not None else Path(str(path))
    data = _parse(p, _read(p))
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise _fail(p, "not a blockclf model file (no 'format: blockclf-model')")
    version = data.get("format_version")
    if not isinstance(version, int) or isinstance(version, bool) or version > FORMAT_VERSION or version < 1:
        raise _fail(p, f"model format version {_short(version)} is not supported by this blockclf "
                       f"(reads up to {FORMAT_VERSION})")
    for key in ("features", "thresholds", "booster"):
        if key not in data:
            raise _fail(p, f"model file has no '{key}'")
    features = data["features"]
    if not isinstance(features, list) or not all(isinstance(f, str) for f in features):
        raise _fail(p, f"model features must be a list of names, not {_short(features)}")
    if features != FEATURES:
        missing = sorted(set(FEATURES) - set(features))
        extra = sorted(set(features) - set(FEATURES))
        raise _fail(p, f"model features do not match this blockclf (missing {missing[:5]}, unknown {extra[:5]})"[:300])
    thresholds = data["thresholds"]
    if not isinstance(thresholds, dict) or any(
        not _number(thresholds.get(f)) or not 0 <= thresholds[f] <= 1 for f in FAVORS
    ):
        raise _fail(p, "model thresholds are missing or outside [0, 1]")
    info = data.get("info")
    if info is not None and (not isinstance(info, dict) or not _plain(info)):
        raise _fail(p, f"model 'info' must be an object of plain values (at most {MAX_JSON_DEPTH} levels deep)")
    clf = _classifier(p, data["booster"], FEATURES, "")
    refiner = None
    if data.get("refiner") is not None:
        part = data["refiner"]
        columns = list(refine.COLUMNS) + list(FEATURES)
        if not isinstance(part, dict) or part.get("features") != columns:
            raise _fail(p, "the refining model's columns do not match this blockclf")
        refiner = _classifier(p, part.get("booster"), columns, " (refining pass)")
    return Model(clf, {f: float(thresholds[f]) for f in FAVORS}, list(features), dict(info or {}), refiner)


def _classifier(p: Path, booster_str: Any, columns: list[str], which: str) -> BlockClassifier:
    """A `BlockClassifier` from a LightGBM model string that must read ``columns``; ``which``
    names the pass in error messages."""
    if not isinstance(booster_str, str) or not booster_str.startswith("tree"):
        raise _fail(p, f"model has no LightGBM text model{which}")
    try:
        text = checked_text(booster_str, len(columns))
    except ModelTextError as exc:
        raise _fail(p, f"LightGBM model string{which} is malformed: {exc}") from None
    try:
        booster = lgb.Booster(model_str=text)
    except Exception as exc:  # noqa: BLE001 - not expected once checked; LightGBM has its own error type
        raise _fail(p, f"LightGBM model string{which} is malformed ({str(exc).splitlines()[0][:120]})") from None
    if booster.num_feature() != len(columns):
        raise _fail(p, f"LightGBM model{which} has {booster.num_feature()} features, expected {len(columns)}")
    clf = BlockClassifier.from_booster(booster)
    clf.feature_names_in_ = np.asarray(columns, dtype=object)
    return clf
