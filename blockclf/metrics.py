"""The scoring convention every figure blockclf reports uses (token P/R/F1 of a page).

Tokens are lower-cased Unicode ``\\w+`` matches, overlap is the multiset intersection,
scores are computed per page and averaged over pages. An empty gold scores 1/1/1 for an
empty prediction and 0/1/0 otherwise. This module is the one place that says so; the
benchmark harness is `blockclf.evaluate`.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from typing import Any

import numpy as np

__all__ = ["Score", "f_beta", "score_text", "tokens"]

_WORD = re.compile(r"\w+")


def tokens(text: str) -> list[str]:
    """Lower-cased ``\\w+`` tokens of ``text``."""
    return _WORD.findall(text.lower())


@dataclass(frozen=True)
class Score:
    """Precision, recall and F1 of one page."""

    precision: float
    recall: float
    f1: float


def score_text(predicted: str, gold: str) -> Score:
    """Token-level P/R/F1 of ``predicted`` against ``gold``.

    An empty gold scores 1/1/1 for an empty prediction and 0/1/0 otherwise.
    """
    pred = Counter(tokens(predicted))
    ref = Counter(tokens(gold))
    n_pred = sum(pred.values())
    n_ref = sum(ref.values())
    if n_ref == 0:
        return Score(1.0, 1.0, 1.0) if n_pred == 0 else Score(0.0, 1.0, 0.0)
    if n_pred == 0:
        return Score(0.0, 0.0, 0.0)
    overlap = sum((pred & ref).values())
    p = overlap / n_pred
    r = overlap / n_ref
    return Score(p, r, float(f_beta(p, r)) if overlap else 0.0)


def f_beta(precision: Any, recall: Any, beta: float = 1.0) -> Any:
    """F-beta of precision and recall, numbers or arrays elementwise (0 where both are 0).

    ``beta`` 1 is F1 (the ``balanced`` favor), 0.5 weighs precision (``precision``), 2 recall
    (``recall``). Every F-score blockclf computes, per page or over a threshold grid, is this.
    """
    b2 = beta * beta
    denominator = b2 * np.asarray(precision, dtype=float) + recall
    return np.where(denominator > 0, (1 + b2) * precision * recall / np.maximum(denominator, 1e-12), 0.0)
