"""The second pass: each block scored again beside the first pass's scores around it.

The first pass judges a block by its own evidence and its near surroundings. What the rest
of the page came out as is evidence it cannot see: a short list inside a container whose
other blocks all scored as content is most likely part of the article, and a lone confident
paragraph among blocks scored as furniture (a consent dialog, a teaser) most likely is not.
The refining model reads, next to the block's own features, the first-pass scores of its
neighbours (three each side, and windows of 2, 5 and 10 blocks), of the other blocks in the
elements one to four levels above it, and the page's score distribution.

Training gives the refining model first-pass scores of pages the first pass was not fitted
on (site-grouped folds, `blockclf.train`), so it learns how far to trust them on new sites.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .region import LEVELS as _REGION_LEVELS
from .region import Ancestors, page_ancestors

__all__ = ["COLUMNS", "LEVELS", "columns", "containers", "table"]

_OFFSETS = (-3, -2, -1, 1, 2, 3)
_WINDOWS = (2, 5, 10)
#: container levels (elements 1..LEVELS above the block) whose other blocks' scores are read
LEVELS = 4
_HIGH, _SOME = 0.5, 0.2
_FAR = 50  # distances to the nearest confident block are capped here
assert LEVELS <= _REGION_LEVELS, "the region walk must reach as far up as the refining pass reads"

COLUMNS = (["first_score"] + [f"first_{'p' if o < 0 else 'n'}{abs(o)}" for o in _OFFSETS]
           + [f"first_win{k}" for k in _WINDOWS]
           + ["first_page_mean", "first_page_max", "first_share_high", "first_share_some", "first_rank",
              "first_rel_max", "first_high_before", "first_high_after", "first_dist_prev", "first_dist_next",
              "first_log_high"]
           + [f"first_{stat}_up{level}" for level in range(1, LEVELS + 1) for stat in ("others", "high", "words")])


def columns(scores: np.ndarray, n_words: np.ndarray, containers: np.ndarray) -> np.ndarray:
    """`COLUMNS` for one page: ``scores`` of the first pass, words per block, and
    ``containers[i, k]`` the code of the element k+1 levels above block i (`region.ancestor_codes`).

    Scores are weighed by words + 1, so a long paragraph counts for more than a one-word link.
    Neighbours past the page edges read -1; a container with no other block reads NaN. Each
    family of columns comes from its own function, in the order of `COLUMNS`.
    """
    s = np.asarray(scores, dtype=np.float64)
    n = len(s)
    if n == 0:
        return np.empty((0, len(COLUMNS)))
    w = np.asarray(n_words, dtype=np.float64) + 1.0
    high = s >= _HIGH
    hw = np.where(high, w, 0.0)
    out = np.column_stack([s, *_neighbours(s), *_windows(s, w), *_page(s, w, high, hw),
                           *_containers(s, w, hw, containers)])
    assert out.shape[1] == len(COLUMNS)
    return out


def _neighbours(s: np.ndarray) -> list[np.ndarray]:
    """``first_p3`` ... ``first_n3``: the scores of the blocks at `_OFFSETS` (-1 past the page edges)."""
    n = len(s)
    pad = np.concatenate([np.full(3, -1.0), s, np.full(3, -1.0)])
    return [pad[3 + o:3 + o + n] for o in _OFFSETS]


def _windows(s: np.ndarray, w: np.ndarray) -> list[np.ndarray]:
    """``first_win<k>``: the word-weighted mean score of the k blocks each side, the block itself left out."""
    n = len(s)
    ws = w * s
    cum_ws = np.concatenate([[0.0], np.cumsum(ws)])
    cum_w = np.concatenate([[0.0], np.cumsum(w)])
    idx = np.arange(n)
    out = []
    for k in _WINDOWS:
        lo, hi = np.maximum(idx - k, 0), np.minimum(idx + k + 1, n)
        num, den = cum_ws[hi] - cum_ws[lo] - ws, cum_w[hi] - cum_w[lo] - w
        out.append(np.where(den > 0, num / np.maximum(den, 1e-9), -1.0))
    return out


def _page(s: np.ndarray, w: np.ndarray, high: np.ndarray, hw: np.ndarray) -> list[np.ndarray]:
    """``first_page_mean`` ... ``first_log_high``: the block against its whole page."""
    n = len(s)
    idx = np.arange(n)
    total = w.sum()
    top = s.max()
    order = np.argsort(-s, kind="stable")
    ahead = np.cumsum(w[order]) - w[order]
    rank = np.empty(n)
    rank[order] = ahead / total  # share of the page's words scored above the block
    cum_h = np.cumsum(hw)
    h_total = cum_h[-1]
    last = np.maximum.accumulate(np.concatenate([[-_FAR], np.where(high, idx, -_FAR)[:-1]]))
    nxt = np.minimum.accumulate(np.concatenate([[n + _FAR], np.where(high, idx, n + _FAR)[::-1][:-1]]))[::-1]
    full = np.full(n, 1.0)
    return [
        full * ((w * s).sum() / total),                               # first_page_mean
        full * top,                                                   # first_page_max
        full * (w[high].sum() / total),                               # first_share_high
        full * (w[s >= _SOME].sum() / total),                         # first_share_some
        rank,                                                         # first_rank
        s / max(top, 1e-9),                                           # first_rel_max
        (cum_h - hw) / max(h_total, 1e-9),                            # first_high_before
        (h_total - cum_h) / h_total if h_total > 0 else full * 0.0,   # first_high_after
        np.minimum(idx - last, _FAR).astype(np.float64),              # first_dist_prev
        np.minimum(nxt - idx, _FAR).astype(np.float64),               # first_dist_next
        full * np.log1p(high.sum()),                                  # first_log_high
    ]


def _containers(s: np.ndarray, w: np.ndarray, hw: np.ndarray, containers: np.ndarray) -> list[np.ndarray]:
    """``first_{others,high,words}_up<level>``: the block's container at each level up."""
    ws = w * s
    total = w.sum()
    h_total = np.cumsum(hw)[-1]  # summed as `_page` sums it, to the last bit
    out = []
    for k in range(LEVELS):
        c = containers[:, k]
        m = int(c.max()) + 1
        sum_ws, sum_w, sum_h = np.bincount(c, ws, m), np.bincount(c, w, m), np.bincount(c, hw, m)
        rest = sum_w[c] - w
        with np.errstate(invalid="ignore", divide="ignore"):
            out.append(np.where(rest > 0, (sum_ws[c] - ws) / rest, np.nan))
        out.append(sum_h[c] / h_total if h_total > 0 else np.full(len(s), np.nan))
        out.append(sum_w[c] / total)
    return out


def containers(xpaths: Sequence[str], ancestors: Ancestors | None = None) -> np.ndarray:
    """Per block, codes of the elements 1..`LEVELS` above it (one page's blocks, in order).

    ``ancestors``: `region.page_ancestors` of ``xpaths`` when the features already walked them.
    """
    if not xpaths:
        return np.zeros((0, LEVELS), dtype=np.intp)
    codes = (ancestors or page_ancestors(list(xpaths)))[0]
    return np.column_stack(codes[:LEVELS])


def table(first: np.ndarray, X: np.ndarray, boxes: Sequence[np.ndarray], n_words_at: int) -> np.ndarray:
    """The refining model's input for pages stacked in ``X``: `COLUMNS`, then the block features.

    ``boxes`` holds each page's `containers`, in the order of the pages' rows in ``X``;
    ``first`` the first pass's scores of those rows; column ``n_words_at`` of ``X`` the words.
    """
    out = np.empty((len(X), len(COLUMNS) + X.shape[1]))
    out[:, len(COLUMNS):] = X
    start = 0
    for box in boxes:
        end = start + len(box)
        out[start:end, :len(COLUMNS)] = columns(first[start:end], X[start:end, n_words_at], box)
        start = end
    if start != len(X):
        raise ValueError(f"container codes cover {start} blocks, the feature table has {len(X)}")
    return out
