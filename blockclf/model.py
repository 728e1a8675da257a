"""Model files: reading, checking and scoring them (`Model`, `load_model`, `TreeScorer`).

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

import numpy as np

from . import refine
from .booster import NativeBooster, NativeError
from .features import FEATURES
from .files import write_atomic
from .modelcheck import ModelTextError, checked_text

__all__ = ["FORMAT", "FORMAT_VERSION", "SHIPPED", "Model", "ModelError", "TreeScorer", "TreeScoring",
           "cached_model", "default_model_path", "load_model", "reset_caches", "shipped_name"]

FORMAT = "blockclf-model"
FORMAT_VERSION = 2
FAVORS = ("precision", "balanced", "recall")
#: predictions over fewer rows than this run on one thread
SINGLE_THREAD_ROWS = 20_000
#: contributions (TreeSHAP walks every path of every tree) cost about 12 ms a row with the
#: shipped model, so they go to several threads from two rows: 5 rows took 0.059 s on one
#: thread and 0.035 s on two, 124 rows (a page) 1.52 s and 0.97 s
CONTRIB_ROW_COST = 10_000
#: a block whose raw score is past half this margin (P(content) under 0.018 or over 0.982) at
#: one of the checks made every `SURE_EVERY` trees is scored no further (``sure`` scoring;
#: LightGBM's prediction early stop). Over the 229,257 blocks of the 1,169 test pages it cut
#: the final pass's time by 37% (the default model) and 44% (the refined one's refining pass)
#: and moved no score by more than 0.022 (default) or 0.044 (refined): `SURE_DEVIATION`
SURE_MARGIN = 8.0
SURE_EVERY = 10
#: how far a ``sure`` score may lie from the full sum (rounded up from those measurements)
SURE_DEVIATION = 0.05
#: ``sure`` scoring is used only when every cut lies strictly inside this range: of the blocks
#: it stopped early over those pages, none had a full sum between 0.059 and 0.964
SURE_RANGE = (0.1, 0.9)
#: largest model file read (the shipped ones are 2-4 MB)
MAX_MODEL_BYTES = 1 << 30
#: deepest nesting accepted in a model file's JSON (``info`` is a few levels deep)
MAX_JSON_DEPTH = 32


class ModelError(ValueError):
    """A model file that cannot be used; the message names the problem in one line."""


class TreeScoring:
    """Scoring with a LightGBM model: what a trained `BlockClassifier` and a model read from
    a file (`TreeScorer`) share. ``booster_`` is a LightGBM booster or a `NativeBooster`."""

    booster_: Any
    feature_names_in_: np.ndarray
    n_features_in_: int
    best_iteration_: int
    n_jobs: int

    def _matrix(self, X: Any) -> np.ndarray:
        if hasattr(X, "columns"):  # a feature DataFrame
            names = list(self.feature_names_in_)
            if list(X.columns) == names:  # already in model order: no reindexing copy
                return X.to_numpy(dtype=np.float64)
            return X[names].to_numpy(dtype=np.float64)
        X = np.asarray(X, dtype=np.float64)
        if X.ndim == 2 and X.shape[1] == len(FEATURES) != self.n_features_in_:
            # a full feature matrix for a model fitted on some columns (an ablation, say)
            X = X[:, [FEATURES.index(c) for c in self.feature_names_in_]]
        return X

    def predict_proba(self, X: Any, sure: bool = False) -> np.ndarray:
        """Two columns: P(boilerplate), P(content). With ``sure``, a row's trees are summed only
        until its score is sure (`SURE_MARGIN`): exact between 0.018 and 0.982, within
        `SURE_DEVIATION` beyond."""
        if len(X) == 0:
            return np.zeros((0, 2))
        early = dict(pred_early_stop=True, pred_early_stop_freq=SURE_EVERY,
                     pred_early_stop_margin=SURE_MARGIN) if sure else {}
        p = np.asarray(self.booster_.predict(self._matrix(X), num_iteration=self.best_iteration_,
                                             num_threads=self._threads(len(X)), verbosity=-1, **early))
        return np.column_stack([1 - p, p])

    def _threads(self, rows: int) -> int:
        # starting OpenMP threads costs more than a page's worth of trees: one page scores
        # about 3.5x faster on one thread; only large batches gain from more
        return 1 if rows < SINGLE_THREAD_ROWS else max(int(self.n_jobs), 1)

    def contributions(self, X: Any) -> np.ndarray:
        """Per-feature contributions to the raw score (LightGBM ``pred_contrib``); last column is the bias."""
        if len(X) == 0:
            return np.zeros((0, self.n_features_in_ + 1))
        return np.asarray(self.booster_.predict(self._matrix(X), num_iteration=self.best_iteration_, pred_contrib=True,
                                                num_threads=self._threads(len(X) * CONTRIB_ROW_COST), verbosity=-1))


class TreeScorer(TreeScoring):
    """The trees of a model file, scored by LightGBM's native library (`blockclf.booster`).

    A model read from a file is only ever scored, so it needs neither LightGBM's Python
    package nor scikit-learn; `blockclf.classifier.BlockClassifier` trains new ones.
    """

    def __init__(self, booster: NativeBooster, columns: list[str], n_jobs: int = 2) -> None:
        self.booster_ = booster
        self.feature_names_in_ = np.asarray(columns, dtype=object)
        self.n_features_in_ = booster.num_feature()
        self.best_iteration_ = booster.current_iteration()
        self.classes_ = np.array([0, 1])
        self.n_jobs = n_jobs

    def __repr__(self) -> str:
        return f"TreeScorer({self.best_iteration_} trees over {self.n_features_in_} columns)"


def _proba(scorer: TreeScoring, X: np.ndarray, sure: bool) -> np.ndarray:
    """P(content) per row; ``sure`` where the scorer is one of these trees' (a classifier of
    another kind set on a `Model` answers ``predict_proba(X)`` alone)."""
    if sure and isinstance(scorer, TreeScoring):
        return scorer.predict_proba(X, sure=True)[:, 1]
    return scorer.predict_proba(X)[:, 1]


@dataclass
class Model:
    """A trained classifier with the thresholds of each favor mode and its provenance.

    ``refiner``, when present, scores every block again from the ``classifier``'s scores of
    the blocks around it and the block's features (`blockclf.refine`); its scores are final.
    """

    classifier: TreeScoring
    thresholds: dict[str, float]
    features: list[str]
    info: dict[str, Any] = field(default_factory=dict)
    refiner: TreeScoring | None = None

    def __repr__(self) -> str:
        trees = f"{self.classifier.best_iteration_} trees" + (
            f" + {self.refiner.best_iteration_} refining trees" if self.refiner is not None else "")
        modes = ", ".join(f"{k} {v:.2f}" for k, v in self.thresholds.items())
        return f"Model({trees}, {len(self.features)} features, thresholds: {modes})"

    @property
    def columns(self) -> list[str]:
        """Names of the columns the final scoring pass reads (what explanations refer to)."""
        return list(refine.COLUMNS) + list(self.features) if self.refiner is not None else list(self.features)

    def score(self, X: np.ndarray, boxes: list[np.ndarray] | None = None,
              sure: bool = False) -> tuple[np.ndarray, np.ndarray]:
        """P(content) of every row of ``X`` (pages' feature tables stacked in order), and the
        table the final pass read. ``boxes``: each page's `refine.containers`, needed when
        the model has a refiner. With ``sure``, the final pass stops summing a block's trees
        once its score is sure (`TreeScoring.predict_proba`); a refiner's input, the first
        pass's scores, is always exact."""
        if self.refiner is None or not len(X):
            return _proba(self.classifier, X, sure), X
        if boxes is None:
            raise ValueError("this model refines its scores: pass each page's refine.containers")
        first = _proba(self.classifier, X, False)
        final = refine.table(first, np.asarray(X, dtype=np.float64), boxes, self.features.index("n_words"))
        return _proba(self.refiner, final, sure), final

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
            "library_versions": {"lightgbm": _lightgbm_version(), "python": platform.python_version()},
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
        write_atomic(Path(path), json.dumps(self.to_dict(), indent=1))


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


#: models read in this process: the shipped ones by name, files by path, size and modification time
_LOADED: dict[tuple[str, ...], Model] = {}


def cached_model(model: Model | str | Path | None) -> Model:
    """The model to score with, read once per process (`reset_caches` forgets them).

    A `Model` is returned as it is; a shipped model (`SHIPPED`, None for the default) is read
    once by name; a file is read again when its size or modification time changed. Batch
    workers receive a path, not a pickled booster, and read it here.
    """
    if isinstance(model, Model):
        return model
    name = shipped_name(model)
    if name is not None:
        key: tuple[str, ...] = ("shipped", name)
    else:
        try:
            st = os.stat(str(model))
            key = ("file", str(model), str(st.st_size), str(st.st_mtime_ns))
        except OSError:  # load_model names the problem
            return load_model(model)
    if key not in _LOADED:
        _LOADED[key] = load_model(default_model_path(name) if name is not None else model)
    return _LOADED[key]


def reset_caches() -> None:
    """Forget every model `cached_model` has read (tests; a process that replaced a model file)."""
    _LOADED.clear()


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


def _classifier(p: Path, booster_str: Any, columns: list[str], which: str) -> TreeScorer:
    """A `TreeScorer` from a LightGBM model string that must read ``columns``; ``which``
    names the pass in error messages."""
    if not isinstance(booster_str, str) or not booster_str.startswith("tree"):
        raise _fail(p, f"model has no LightGBM text model{which}")
    try:
        text = checked_text(booster_str, len(columns))
    except ModelTextError as exc:
        raise _fail(p, f"LightGBM model string{which} is malformed: {exc}") from None
    try:
        booster = NativeBooster(text)
    except NativeError as exc:  # not expected once checked
        raise _fail(p, f"LightGBM model string{which} is malformed ({str(exc)[:120]})") from None
    if booster.num_feature() != len(columns):
        raise _fail(p, f"LightGBM model{which} has {booster.num_feature()} features, expected {len(columns)}")
    return TreeScorer(booster, columns)


def _lightgbm_version() -> str:
    # read when a model is saved; importing importlib.metadata costs every command 15 ms
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("lightgbm")
    except PackageNotFoundError:
        return "unknown"
