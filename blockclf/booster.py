"""Score a stored LightGBM model through LightGBM's own native library, nothing else.

Extraction only ever reads a model file and scores feature rows. LightGBM's Python package
imports scikit-learn and pandas when they are installed, which costs a command over a second
of start-up before it reads its first page; this module opens the same native library with
`ctypes` and calls the four functions scoring needs (load a text model, count its features
and trees, predict a matrix, and per-feature contributions), so `blockclf extract` starts
without them. Training still uses the Python package (`blockclf.classifier`).

The native library's log lines are routed to the ``blockclf`` logger at debug level: they
never reach standard output, where the extracted text goes.
"""

from __future__ import annotations

import ctypes
import importlib.util
import logging
import sys
import threading
from pathlib import Path

import numpy as np

__all__ = ["NativeBooster", "NativeError", "fork_safe"]

log = logging.getLogger("blockclf")

_DTYPE_FLOAT64 = 1
_PREDICT_NORMAL = 0
_PREDICT_CONTRIB = 3
_LOCK = threading.Lock()
_LOAD_LOCK = threading.Lock()
_LIB: ctypes.CDLL | None = None
#: set once the library may have run OpenMP on more than one thread in this process (`fork_safe`)
_THREADED = False
_LOG_CALLBACK = ctypes.CFUNCTYPE(None, ctypes.c_char_p)


class NativeError(RuntimeError):
    """LightGBM's native library refused a call (its own message, first line)."""


def _library_path() -> Path:
    spec = importlib.util.find_spec("lightgbm")  # finds the package without importing it
    roots = list(spec.submodule_search_locations or []) if spec is not None else []
    names = {"win32": "lib_lightgbm.dll", "darwin": "lib_lightgbm.dylib"}
    name = names.get(sys.platform, "lib_lightgbm.so")
    for root in roots:
        for sub in ("lib", "bin", "."):
            candidate = Path(root, sub, name)
            if candidate.is_file():
                return candidate
    raise NativeError("LightGBM's native library was not found: is the lightgbm package installed?")


def _native_log(message: bytes) -> None:
    text = message.decode("utf-8", "replace").strip()
    if text:
        log.debug("lightgbm: %s", text)


_on_log = _LOG_CALLBACK(_native_log)  # kept referenced for as long as the library may call it


def fork_safe() -> bool:
    """True while this process cannot have started an OpenMP thread pool, so that a process
    forked from it may score.

    GNU OpenMP's thread pool does not survive ``fork``: a child that runs OpenMP after its
    parent did waits forever. Models are read on one thread and pages are scored on one
    unless a large batch asks for more; LightGBM's Python package (training) may use many.
    """
    return not _THREADED and "lightgbm" not in sys.modules


def _lib() -> ctypes.CDLL:
    global _LIB
    with _LOCK:
        if _LIB is None:
            lib = ctypes.cdll.LoadLibrary(str(_library_path()))
            lib.LGBM_GetLastError.restype = ctypes.c_char_p
            lib.LGBM_RegisterLogCallback(_on_log)
            _LIB = lib
        return _LIB


def _check(ret: int) -> None:
    if ret != 0:
        msg = (_lib().LGBM_GetLastError() or b"unknown error").decode("utf-8", "replace")
        raise NativeError(msg.splitlines()[0] if msg else "unknown error")


def _parameters(**params: float | int | bool) -> bytes:
    """LightGBM's parameter string (``key=value`` pairs, booleans as ``true``/``false``)."""
    return " ".join(f"{k}={str(v).lower() if isinstance(v, bool) else v}" for k, v in params.items()).encode()


class NativeBooster:
    """A LightGBM model read from its text form, scored by the native library.

    It answers the calls the scoring path makes of a LightGBM booster (`predict`, with or
    without ``pred_contrib``; `num_feature`, `current_iteration`, `model_to_string`), so a
    model read from a file scores exactly as the booster that was saved.
    """

    def __init__(self, model_str: str) -> None:
        global _THREADED
        lib = _lib()
        self._handle = ctypes.c_void_p()
        n_iter = ctypes.c_int(0)
        with _LOAD_LOCK:  # read on one thread, so that no OpenMP thread pool is started (`fork_safe`)
            capped = hasattr(lib, "LGBM_SetMaxThreads") and hasattr(lib, "LGBM_GetMaxThreads")
            before = ctypes.c_int(-1)
            if capped:
                lib.LGBM_GetMaxThreads(ctypes.byref(before))
                lib.LGBM_SetMaxThreads(1)
            else:
                _THREADED = True
            try:
                ret = lib.LGBM_BoosterLoadModelFromString(ctypes.c_char_p(model_str.encode("utf-8")),
                                                          ctypes.byref(n_iter), ctypes.byref(self._handle))
            finally:
                if capped:
                    lib.LGBM_SetMaxThreads(before.value)
        _check(ret)
        self._model_str = model_str
        self._iterations = int(n_iter.value)
        n_feat = ctypes.c_int(0)
        _check(lib.LGBM_BoosterGetNumFeature(self._handle, ctypes.byref(n_feat)))
        self._n_features = int(n_feat.value)
        self.best_iteration = -1  # as a booster read from text reports it: every tree is used

    def __del__(self) -> None:
        handle = getattr(self, "_handle", None)
        if handle is not None and handle.value and _LIB is not None:
            _LIB.LGBM_BoosterFree(handle)

    def __getstate__(self) -> dict[str, str]:  # worker processes rebuild it from the text
        return {"model_str": self._model_str}

    def __setstate__(self, state: dict[str, str]) -> None:
        self.__init__(state["model_str"])  # type: ignore[misc]

    def num_feature(self) -> int:
        return self._n_features

    def current_iteration(self) -> int:
        return self._iterations

    def model_to_string(self, num_iteration: int | None = None) -> str:
        """The model's text, as it was read (``num_iteration`` must not cut it shorter)."""
        if num_iteration is not None and 0 < num_iteration < self._iterations:
            raise ValueError("a stored model is saved whole")
        return self._model_str

    def predict(self, X: np.ndarray, num_iteration: int | None = None, num_threads: int = 1,
                pred_contrib: bool = False, verbosity: int = -1, **params: float | int | bool) -> np.ndarray:
        """P(content) per row, or with ``pred_contrib`` each column's contribution and the bias.

        ``params`` are LightGBM prediction parameters (``pred_early_stop=True`` and its
        ``pred_early_stop_freq`` and ``pred_early_stop_margin``), as its Python package takes them."""
        X = np.ascontiguousarray(X, dtype=np.float64)
        if X.ndim != 2 or X.shape[1] != self._n_features:
            raise ValueError(f"expected rows of {self._n_features} features, got shape {X.shape}")
        n_rows = X.shape[0]
        width = self._n_features + 1 if pred_contrib else 1
        out = np.empty(n_rows * width, dtype=np.float64)
        out_len = ctypes.c_int64(0)
        iterations = num_iteration if num_iteration is not None and num_iteration > 0 else -1
        if num_threads > 1:
            global _THREADED
            _THREADED = True
        _check(_lib().LGBM_BoosterPredictForMat(
            self._handle, X.ctypes.data_as(ctypes.c_void_p), ctypes.c_int(_DTYPE_FLOAT64),
            ctypes.c_int32(n_rows), ctypes.c_int32(self._n_features), ctypes.c_int(1),
            ctypes.c_int(_PREDICT_CONTRIB if pred_contrib else _PREDICT_NORMAL), ctypes.c_int(0),
            ctypes.c_int(iterations),
            ctypes.c_char_p(_parameters(num_threads=max(int(num_threads), 1), verbosity=int(verbosity), **params)),
            ctypes.byref(out_len), out.ctypes.data_as(ctypes.POINTER(ctypes.c_double))))
        if out_len.value != n_rows * width:
            raise NativeError(f"LightGBM returned {out_len.value} values for {n_rows} rows")
        return out.reshape(n_rows, width) if pred_contrib else out
