"""The page's main-content region: a page-level view of where the prose concentrates.

Reading-mode tools pick one element as the article: each paragraph votes for the elements
above it, nearer ones more, and an element's votes shrink with the share of its text held
in links. The element with most votes is the main region. No block's own neighbourhood
shows this, so `features` turns it into columns (where a block sits against the region)
and leaves the decision to the model: on listing pages or pages with several articles the
region is one signal among many, not a cut.
"""

from __future__ import annotations

import numpy as np

__all__ = ["COLUMNS", "LEVELS", "Ancestors", "ancestor_codes", "page_ancestors", "region_columns"]

#: the feature columns this module fills, in model order
COLUMNS = ("region_in_top", "region_in_top_parent", "region_best", "region_top_share", "region_depth_gap",
           "region_sibling", "region_log_top", "region_second")

# a block's vote for the element 1, 2, ... 5 levels above it
_LEVEL_WEIGHTS = (1.0, 0.5, 1 / 6, 1 / 9, 1 / 12)
#: how many levels up the vote reaches
LEVELS = len(_LEVEL_WEIGHTS)
# blocks that can hold an article's text: paragraphs, and list items (on listing pages the list
# is the content); options, header cells, captions and h1 do not vote
_VOTING_TAGS = frozenset(("p", "li", "pre", "td", "div", "section", "article", "blockquote", "dd", "span", "body",
                          "h2", "h3", "h4", "h5", "h6"))
_MIN_CHARS = 25
# a sibling of the region that holds this share of its votes (and at least this many) is kept with it
_SIBLING_SHARE, _SIBLING_MIN = 0.2, 10.0


#: `ancestor_codes`: per level, each block's element code; and each code's element path
Ancestors = tuple[list[np.ndarray], list[str]]


def ancestor_codes(xpaths: list[str], levels: int) -> Ancestors:
    """The elements 1..``levels`` levels above each block, as integer codes.

    ``codes[k][i]`` is the code of the element k+1 levels above block i and ``paths[code]``
    its element path. Codes are shared across levels, so an element has one code whatever
    block it is seen from. The container columns of `features` and the region vote both
    read these: the page's paths are walked up once, over the distinct paths only.
    """
    n = len(xpaths)
    index: dict[str, int] = {}
    codes = []
    level: dict[str, int] = {}
    at = np.fromiter((level.setdefault(x, len(level)) for x in xpaths), np.intp, n)
    for _ in range(levels):
        up: dict[str, int] = {}
        step = np.fromiter((up.setdefault(p.rsplit("/", 1)[0], len(up)) for p in level), np.intp, len(level))
        at, level = step[at], up
        codes.append(np.fromiter((index.setdefault(p, len(index)) for p in level), np.intp, len(level))[at])
    return codes, list(index)


def page_ancestors(xpaths: list[str]) -> Ancestors:
    """`ancestor_codes` over the levels every reader of them needs (`LEVELS`)."""
    return ancestor_codes(xpaths, LEVELS)


def region_columns(xpaths: list[str], tags: list[str], n_chars: np.ndarray, link_chars: np.ndarray,
                   n_words: np.ndarray, commas: np.ndarray, depth: np.ndarray,
                   ancestors: Ancestors | None = None) -> dict[str, np.ndarray]:
    """Columns of `COLUMNS` for one page's blocks (arrays indexed like the blocks).

    ``ancestors`` is `ancestor_codes` of ``xpaths`` over at least five levels, when the
    caller has it already.

    A block votes when it is a paragraph-like element or a list item of at least 25
    characters: one point, one per comma, one per hundred characters (at most three). All NaN
    when nothing votes (a page of menus and short lines has no region to speak of).
    """
    n = len(xpaths)
    if n == 0:
        return {name: np.empty(0) for name in COLUMNS}
    codes, paths = ancestors or page_ancestors(xpaths)
    codes = codes[:LEVELS]
    score = _element_scores(codes, len(paths), _votes(tags, n_chars, commas), n_chars, link_chars)
    top = int(np.argmax(score))
    best = float(score[top])
    if best <= 0:
        return {name: np.full(n, np.nan) for name in COLUMNS}
    top_path = paths[top]
    parent = top_path.rsplit("/", 1)[0]
    inside = np.fromiter((x == top_path or x.startswith(top_path + "/") for x in xpaths), float, n)
    sibling, second = _rivals(score, paths, top_path, best)
    return {
        "region_in_top": inside,
        "region_in_top_parent": np.fromiter((x.startswith(parent + "/") for x in xpaths), float, n),
        # the strongest element among the block's five nearest ancestors, against the region
        "region_best": np.max(np.stack([score[c] for c in codes]), axis=0) / best,
        "region_top_share": np.full(n, (n_words * inside).sum() / max(n_words.sum(), 1)),
        "region_depth_gap": depth - (top_path.count("/") - 1),  # levels below the region element
        "region_sibling": np.any(np.stack([sibling[c] for c in codes]), axis=0).astype(float),
        "region_log_top": np.full(n, np.log1p(best)),
        # a strong element outside the region's line of ancestors: a second article, or a rail
        "region_second": np.full(n, second),
    }


def _votes(tags: list[str], n_chars: np.ndarray, commas: np.ndarray) -> np.ndarray:
    """Each block's vote (0 for blocks that do not vote; the rule is `region_columns`'s)."""
    voting = np.fromiter((t in _VOTING_TAGS for t in tags), bool, len(tags)) & (n_chars >= _MIN_CHARS)
    return np.where(voting, 1 + commas + np.minimum(n_chars // 100, 3), 0.0)


def _element_scores(codes: list[np.ndarray], m: int, votes: np.ndarray, n_chars: np.ndarray,
                    link_chars: np.ndarray) -> np.ndarray:
    """Per element code (``m`` of them): the votes it gets from the blocks below it, nearer
    ones weighing more, shrunk by the share of its text held in links."""
    raw, chars, links = np.zeros(m), np.zeros(m), np.zeros(m)
    for c, w in zip(codes, _LEVEL_WEIGHTS):
        raw += np.bincount(c, weights=votes * w, minlength=m)
        chars += np.bincount(c, weights=n_chars, minlength=m)
        links += np.bincount(c, weights=link_chars, minlength=m)
    return raw * (1 - links / np.maximum(chars, 1))


def _rivals(score: np.ndarray, paths: list[str], top_path: str, best: float) -> tuple[np.ndarray, float]:
    """The region's strong siblings (a flag per element code), and the runner-up's score against
    the region's: the best element outside its line of ancestors and descendants (0 if none)."""
    parent = top_path.rsplit("/", 1)[0]

    def nested(p: str) -> bool:
        return p == top_path or p.startswith(top_path + "/") or top_path.startswith(p + "/")

    # only strong elements can be siblings or the runner-up: look at those alone
    sibling = np.zeros(len(paths), bool)
    for j in np.flatnonzero(score >= max(_SIBLING_MIN, _SIBLING_SHARE * best)):
        sibling[j] = paths[j].rsplit("/", 1)[0] == parent and not nested(paths[j])
    for j in np.argsort(-score):
        if score[j] <= 0:
            break
        if not nested(paths[j]):
            return sibling, float(score[j]) / best
    return sibling, 0.0
