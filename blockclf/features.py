"""Blocks of one page → a feature table (one row per block, stable column names).

`FEATURES` is the one documented list of columns, in the order the model reads them. The
families are: text and link density, lengths, punctuation and function words, tag context
(own tag, landmark ancestors, class/id vocabulary), position, container aggregates,
neighbour context, cross-page repetition (NaN without site evidence), and where a block
sits against the page's main region (`region`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from . import region
from .block import Block
from .site import Repetition
from .words import SENT_END, WORD, is_spaced, tokens, unspaced_counts

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["FAMILIES", "FEATURES", "Repetition", "feature_matrix", "featurize"]

OWN_TAGS = ("p", "li", "td", "th", "div", "dd", "dt", "pre", "blockquote", "figcaption",
            "caption", "option", "section", "article", "body", "span", "form", "header", "footer", "tr")
ANCESTOR_TAGS = ("nav", "header", "footer", "aside", "form", "main", "article", "section", "table",
                 "figure", "blockquote", "button", "label", "select", "a", "ul", "ol", "dl",
                 "noscript", "iframe", "center", "font", "strong", "em", "b", "i", "time", "address")
CLASS_TOKENS = (
    "nav", "navbar", "navigation", "menu", "footer", "header", "sidebar", "side", "widget", "comment",
    "comments", "share", "social", "related", "recommended", "cookie", "consent", "gdpr", "banner",
    "breadcrumb", "breadcrumbs", "pagination", "pager", "ad", "ads", "advert", "advertisement",
    "sponsor", "sponsored", "promo", "newsletter", "subscribe", "signup", "login", "search", "tags",
    "tag", "meta", "byline", "author", "date", "time", "caption", "content", "main", "article", "post",
    "entry", "body", "text", "story", "blog", "modal", "popup", "skip", "toolbar", "copyright",
    "legal", "disclaimer", "title", "headline", "summary", "lead", "teaser", "card", "list", "item",
    "thumb", "more", "next", "prev", "links", "top", "bottom", "col", "row", "clearfix", "rich",
    "prose", "markdown", "section", "hero", "intro", "description", "detail", "details", "product",
    "price", "review", "faq", "toc", "footnote", "note", "doc", "document", "highlight", "code",
    "hidden", "visually", "sr", "only", "screen", "reader", "print", "message", "alert", "notice",
)
# Prose is dense in function words, menus and lists are not. Besides English, the most
# frequent ones of the languages most common on the web, so that prose in them does not read
# as a list. Chinese and Japanese ones are single characters, as their tokens are.
_FUNCTION_WORDS = frozenset(
    """the of and to a in is that for it was on with as by be at this are from or an not have
    has but which were their they been he she his her its we you our will would can there
    all also more one when who than into about said after some these other had what so if
    no up out only them then could may new like how over such"""
    # es, pt, fr, it, de, nl
    """ de la que el en y los las del se por un una con para es al lo como más pero sus le ya
    não uma com os em do da dos das no na ao ou mas foi ser são pelo pela
    les des et du est une pas dans sur qui ce il elle au aux ont sont mais avec par pour nous
    il di che della delle con per non sono una gli dei nel alla anche come più
    der die und das ist nicht mit sich auf ein eine zu den dem von des im für auch wird sind
    het een van en op te dat zijn voor niet met ook door maar bij"""
    # id, ru, pl, sv
    """ yang dan di ini itu dengan untuk dari dalam tidak akan pada juga adalah
    и в не на что с по как это к из за от у же он она они был было но
    się nie na że jest do od jak ale po tak są
    och att det som är för med inte på av till har"""
    # zh (simplified and traditional), ja
    """ 的 了 是 在 和 与 與 及 也 就 都 而 之 其 所 以 于 於 为 為 被 把 从 從 对 對 但 或 并 並 又 这 這 那 着 著
    个 個 们 們 不 有 我 你 他 她 它 一 の に は を が で と も た て だ な か し る い す ま れ""".split()
)
_DIGIT = re.compile(r"\d")
_UPPER_WORD = re.compile(r"(?<!\S)[A-Z]")  # a capital at the start or after a space
_SEPARATORS = re.compile(r"[|»·•›/]")
_NEIGHBOUR_BASE = ("log_chars", "link_density", "text_density", "ends_punct", "fw_share", "is_p",
                   "is_heading", "list_depth", "rel_container_words")

_END_PUNCT = frozenset(".!?:;。！？\"”")
_IS_FUNCTION_WORD = _FUNCTION_WORDS.__contains__


#: `_text_stats` of short texts seen in this process: menus, footers and buttons repeat across
#: the pages of a site and within a page (15-70% of the blocks of a test folder), and their
#: counts are the same each time. 10,000 texts hold about 10 MB (50,000 held 26 MB a worker)
_STATS_CACHE: dict[str, tuple] = {}
_STATS_CACHE_SIZE = 10_000
_STATS_CACHED_CHARS = 200


def _text_stats(text: str) -> tuple:
    """Tokens and the per-block text counts, in one pass over the block (featurize's hot loop).

    Words, tokens and sentences are counted as `words` says: in scripts written without
    spaces (not `words.is_spaced`) by `words.unspaced_counts`.
    """
    hit = _STATS_CACHE.get(text)
    if hit is not None:
        return hit
    low = text.lower()
    n_words: int | float  # fractional in scripts written without spaces
    n_tokens: int | float
    if text.isascii() or is_spaced(text):  # most blocks are ASCII: no call for them
        toks = tuple(WORD.findall(low))
        n_words, n_tokens = len(text.split()), len(toks)
        n_sentences, n_commas = len(SENT_END.findall(text)), text.count(",") + text.count("，")
    else:
        toks, n_words, n_tokens, n_sentences, n_commas = unspaced_counts(text, low)
    stats = (toks, len(text), n_words, n_tokens, sum(map(_IS_FUNCTION_WORD, toks)), n_sentences, n_commas,
             text[-1] in _END_PUNCT, len(_DIGIT.findall(text)), len(_UPPER_WORD.findall(text)),
             len(_SEPARATORS.findall(text)), "©" in text or "copyright" in low)
    if len(text) <= _STATS_CACHED_CHARS:
        if len(_STATS_CACHE) >= _STATS_CACHE_SIZE:
            _STATS_CACHE.clear()
        _STATS_CACHE[text] = stats
    return stats


def _columns() -> list[str]:
    cols = [
        "n_chars", "log_chars", "n_words", "n_tokens", "avg_word_len", "n_sentences", "n_commas",
        "ends_punct", "digit_share", "upper_word_share", "separator_count", "fw_share", "has_copyright",
        "link_chars", "link_density", "n_links", "links_per_word", "text_density", "log_markup",
        "heading_level", "is_heading", "list_depth", "table_depth", "depth", "rel_depth", "starts_element",
        "title_overlap", "title_cover",
    ]
    cols += [f"tag_{t}" for t in OWN_TAGS]
    cols += [f"in_{t}" for t in ANCESTOR_TAGS]
    cols += [f"cls_{t}" for t in CLASS_TOKENS]
    cols += ["n_class_tokens", "rel_index", "rel_char_pos", "page_blocks", "page_log_chars",
             "peak_distance", "abs_peak_distance", "after_first_heading"]
    for lvl in ("parent", "grand", "great"):
        cols += [f"{lvl}_word_share", f"{lvl}_link_density", f"{lvl}_n_blocks", f"{lvl}_fw_share"]
    cols += ["rel_container_words", "same_shape_share", "same_shape_link_density"]
    for off in ("p1", "n1", "p2", "n2"):
        cols += [f"{off}_{f}" for f in _NEIGHBOUR_BASE]
    cols += ["win3_words_share", "win3_link_density", "win3_fw_share"]
    cols += ["rep_text", "rep_path", "site_pages"]
    cols += region.COLUMNS
    return cols


#: every feature column, in model order
FEATURES: list[str] = _columns()


def _families() -> dict[str, list[str]]:
    named = {
        "length": ["n_chars", "log_chars", "n_words", "n_tokens", "avg_word_len", "n_sentences", "n_commas"],
        "prose": ["ends_punct", "fw_share", "digit_share", "upper_word_share", "separator_count", "has_copyright"],
        "links": ["link_chars", "link_density", "n_links", "links_per_word"],
        "density": ["text_density", "log_markup"],
        "structure": ["heading_level", "is_heading", "list_depth", "table_depth", "depth", "rel_depth",
                      "starts_element"],
        "title": ["title_overlap", "title_cover"],
        "own tag": [f"tag_{t}" for t in OWN_TAGS],
        "landmarks": [f"in_{t}" for t in ANCESTOR_TAGS],
        "class/id": [f"cls_{t}" for t in CLASS_TOKENS] + ["n_class_tokens"],
        "position": ["rel_index", "rel_char_pos", "page_blocks", "page_log_chars", "peak_distance",
                     "abs_peak_distance", "after_first_heading"],
        "site": ["rep_text", "rep_path", "site_pages"],
        "region": list(region.COLUMNS),
    }
    named["neighbours"] = [c for c in FEATURES if c[:3] in ("p1_", "n1_", "p2_", "n2_") or c.startswith("win3_")]
    named["containers"] = [f"{lvl}_{f}" for lvl in ("parent", "grand", "great")
                           for f in ("word_share", "link_density", "n_blocks", "fw_share")]
    named["containers"] += ["rel_container_words", "same_shape_share", "same_shape_link_density"]
    return named


#: the feature families of docs/features.md: each column belongs to exactly one
FAMILIES: dict[str, list[str]] = _families()

_SHAPE = re.compile(r"\[\d+\]")


def _codes(keys: list[str]) -> np.ndarray:
    first: dict[str, int] = {}
    return np.fromiter((first.setdefault(k, len(first)) for k in keys), np.intp, len(keys))


def _aggregate(codes: np.ndarray, words: np.ndarray, links: np.ndarray, chars: np.ndarray,
               fw: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Per block, the sums over all blocks sharing its code: words, link density, blocks, function-word share."""
    m = int(codes.max()) + 1
    w = np.bincount(codes, weights=words, minlength=m)
    lk = np.bincount(codes, weights=links, minlength=m)
    ch = np.bincount(codes, weights=chars, minlength=m)
    cnt = np.bincount(codes, minlength=m)
    f = np.bincount(codes, weights=fw, minlength=m)
    return w[codes], lk[codes] / np.maximum(ch[codes], 1), cnt[codes].astype(float), f[codes] / np.maximum(w[codes], 1)


def _shift(a: np.ndarray, k: int, fill: float = np.nan) -> np.ndarray:
    out = np.full(a.shape, fill, dtype=float)
    if k > 0:
        out[k:] = a[:-k]
    elif k < 0:
        out[:k] = a[-k:]
    else:
        out[:] = a
    return out


def _window(a: np.ndarray, half: int = 3) -> np.ndarray:
    """Sum of ``a`` over the window [i-half, i+half], clipped at the page edges."""
    c = np.concatenate(([0.0], np.cumsum(a)))
    i = np.arange(len(a))
    return c[np.minimum(i + half + 1, len(a))] - c[np.maximum(i - half, 0)]


_N_FLAGS = len(OWN_TAGS) + len(ANCESTOR_TAGS) + len(CLASS_TOKENS)
_TAG_AT = {t: j for j, t in enumerate(OWN_TAGS)}
_ANCESTOR_AT = {t: len(OWN_TAGS) + j for j, t in enumerate(ANCESTOR_TAGS)}
_CLASS_AT = {t: len(OWN_TAGS) + len(ANCESTOR_TAGS) + j for j, t in enumerate(CLASS_TOKENS)}


def _flag_columns(b: Block) -> list[int]:
    """The flag columns (in `_flag_grid`'s order) that are set for the block."""
    cols = [] if (j := _TAG_AT.get(b.tag)) is None else [j]
    cols += [j for t in b.ancestors[:-1] if (j := _ANCESTOR_AT.get(t)) is not None]
    cols += [j for t in b.tokens if (j := _CLASS_AT.get(t)) is not None]
    return cols


def _flag_grid(blocks: Sequence[Block]) -> np.ndarray:
    """Own-tag, ancestor-tag and class/id-token flags, one row computed per distinct context.

    Blocks under the same element share their ancestor and token tuples, so a page has far
    fewer distinct contexts than blocks; each is looked up once, the set flags of all contexts
    written into one table at once, and rows gathered.
    """
    n = len(blocks)
    rows: dict[tuple[str, tuple[str, ...], tuple[str, ...]], int] = {}
    index = np.empty(n, dtype=np.intp)
    at_row: list[int] = []  # (row, column) of every set flag, as two lists
    at_col: list[int] = []
    for i, b in enumerate(blocks):
        key = (b.tag, b.ancestors, b.tokens)
        k = rows.get(key)
        if k is None:
            k = rows[key] = len(rows)
            cols = _flag_columns(b)
            at_row += [k] * len(cols)
            at_col += cols
        index[i] = k
    table = np.zeros((len(rows), _N_FLAGS))
    table[at_row, at_col] = 1.0
    return table[index]


_COLUMN_AT = {c: j for j, c in enumerate(FEATURES)}
_FLAGS_AT = _COLUMN_AT[f"tag_{OWN_TAGS[0]}"]  # the flag columns are contiguous, in _flag_columns' order


def featurize(blocks: Sequence[Block], title: str = "", repetition: Repetition | None = None,
              ancestors: region.Ancestors | None = None) -> pd.DataFrame:
    """Return the feature table of one page's blocks (columns = `FEATURES`).

    ``repetition`` is what `SiteProfile.repetition` returns for these blocks; without it the
    repetition columns are NaN, which the model reads as "no site evidence". ``ancestors`` is
    `region.page_ancestors` of the blocks when the caller needs it too (the refining pass).
    Training reads the table; extraction reads `feature_matrix` and never imports pandas.
    """
    import pandas as pd  # training's table: extraction starts without pandas

    return pd.DataFrame(feature_matrix(blocks, title, repetition, ancestors), columns=FEATURES)


def feature_matrix(blocks: Sequence[Block], title: str = "", repetition: Repetition | None = None,
                   ancestors: region.Ancestors | None = None) -> np.ndarray:
    """`featurize` as a bare float64 array (one row per block, columns in `FEATURES` order).

    Scoring reads this directly: a page is scored in a few milliseconds, and building a
    DataFrame only to take the array back out of it was a noticeable share of that. Each step
    below fills one group of columns from the blocks' counts, read once.
    """
    n = len(blocks)
    out = np.full((n, len(FEATURES)), np.nan)  # a column left unfilled shows as NaN, which tests catch
    if n == 0:
        return out
    title_toks = frozenset(tokens(title))
    rows, in_title = [], []
    for b in blocks:  # each block's tokens go once counted: a page's together outweighed its table
        st = _text_stats(b.text)
        rows.append(st[1:])
        in_title.append(len(title_toks.intersection(st[0])) if title_toks else 0)
    counts = np.array(rows, dtype=float)
    fw_count = counts[:, 3]
    out[:, _FLAGS_AT:_FLAGS_AT + _N_FLAGS] = _flag_grid(blocks)
    is_p = out[:, _FLAGS_AT + _TAG_AT["p"]].copy()
    f = _block_columns(counts, _given(blocks))
    f.update(_title_columns(len(title_toks), np.array(in_title, dtype=float), f["n_tokens"]))
    f.update(_position_columns(f))
    total_words = max(f["n_words"].sum(), 1)
    xpaths = [b.xpath for b in blocks]
    if ancestors is None:  # shared with the region vote below
        ancestors = region.page_ancestors(xpaths)
    f.update(_container_columns(f, fw_count, xpaths, ancestors, total_words))
    f.update(_neighbour_columns(f, is_p, fw_count, total_words))
    f.update(region.region_columns(xpaths, [b.tag for b in blocks], f["n_chars"], f["link_chars"], f["n_words"],
                                   f["n_commas"], f["depth"], ancestors))
    f.update(_site_columns(repetition, n))
    for name, col in f.items():
        out[:, _COLUMN_AT[name]] = col
    return out


def _given(blocks: Sequence[Block]) -> np.ndarray:
    """What segmentation recorded on each block, one row per block, in `_block_columns`'s order."""
    return np.array([(b.link_chars, b.markup_bytes, b.depth, b.heading_level, b.n_links, b.list_depth,
                      b.table_depth, b.starts_element, len(b.tokens)) for b in blocks], dtype=float)


def _median(values: np.ndarray) -> float:
    """``np.median`` of a non-empty array, without the masked-array module that call imports
    (a hundredth of a second in every process)."""
    s = np.sort(values)
    return float(s[(len(s) - 1) // 2] + s[len(s) // 2]) / 2


def _block_columns(counts: np.ndarray, given: np.ndarray) -> dict[str, np.ndarray]:
    """Each block's own columns: the length, prose, link, density and structure families.

    ``counts`` holds `_text_stats`'s counts and ``given`` `_given`'s, one row per block.
    """
    n_chars, n_words, n_tokens, fw_count = counts[:, 0], counts[:, 1], counts[:, 2], counts[:, 3]
    link_chars, markup, depth, heading = given[:, 0], given[:, 1], given[:, 2], given[:, 3]
    f: dict[str, np.ndarray] = {}
    f["n_chars"] = n_chars
    f["log_chars"] = np.log1p(n_chars)
    f["n_words"] = n_words
    f["n_tokens"] = n_tokens
    f["avg_word_len"] = n_chars / np.maximum(n_words, 1)
    f["n_sentences"] = counts[:, 4]
    f["n_commas"] = counts[:, 5]
    f["ends_punct"] = counts[:, 6]
    f["digit_share"] = counts[:, 7] / np.maximum(n_chars, 1)
    f["upper_word_share"] = counts[:, 8] / np.maximum(n_words, 1)
    f["separator_count"] = counts[:, 9]
    f["fw_share"] = fw_count / np.maximum(n_tokens, 1)
    f["has_copyright"] = counts[:, 10]
    f["link_chars"] = link_chars
    f["link_density"] = link_chars / np.maximum(n_chars, 1)
    f["n_links"] = given[:, 4]
    f["links_per_word"] = f["n_links"] / np.maximum(n_words, 1)
    f["text_density"] = n_chars / np.maximum(markup, 1)
    f["log_markup"] = np.log1p(markup)
    f["heading_level"] = heading
    f["is_heading"] = (heading > 0).astype(float)
    f["list_depth"] = given[:, 5]
    f["table_depth"] = given[:, 6]
    f["depth"] = depth
    f["rel_depth"] = depth - _median(depth)
    f["starts_element"] = given[:, 7]
    f["n_class_tokens"] = given[:, 8]
    return f


def _title_columns(n_title: int, in_title: np.ndarray, n_tokens: np.ndarray) -> dict[str, np.ndarray]:
    """How much of each block is title words, and how much of the title it holds (NaN without a
    title): ``in_title`` counts each block's distinct title words, ``n_title`` the title's."""
    if not n_title:
        return {"title_overlap": np.full(len(in_title), np.nan), "title_cover": np.full(len(in_title), np.nan)}
    return {"title_overlap": in_title / np.maximum(n_tokens, 1), "title_cover": in_title / n_title}


def _position_columns(f: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """Where each block sits in the page: its rank, the text before it, the first heading, and
    its distance to the densest stretch of prose (from the block columns ``f``)."""
    n_chars = f["n_chars"]
    n = len(n_chars)
    idx = np.arange(n, dtype=float)
    total_chars = n_chars.sum()
    p: dict[str, np.ndarray] = {}
    p["rel_index"] = idx / max(n - 1, 1)
    p["rel_char_pos"] = (np.cumsum(n_chars) - n_chars) / max(total_chars, 1)
    p["page_blocks"] = np.full(n, float(n))
    p["page_log_chars"] = np.full(n, np.log1p(total_chars))
    # the densest region: a window sum of non-link words weighted by function-word use
    weight = f["n_words"] * (1 - f["link_density"]) * (0.5 + f["fw_share"])
    peak = int(np.argmax(_window(weight)))
    p["peak_distance"] = (idx - peak) / max(n, 1)
    p["abs_peak_distance"] = np.abs(p["peak_distance"])
    first_h = np.flatnonzero(f["heading_level"] > 0)
    p["after_first_heading"] = (idx >= first_h[0]).astype(float) if len(first_h) else np.zeros(n)
    return p


def _container_columns(f: dict[str, np.ndarray], fw_count: np.ndarray, xpaths: list[str],
                       ancestors: region.Ancestors, total_words: float) -> dict[str, np.ndarray]:
    """What the elements one to three levels above each block hold, and how the blocks of the
    same shape look (paths equal but for sibling positions: the rows of one menu or list)."""
    n_words, link_chars, n_chars = f["n_words"], f["link_chars"], f["n_chars"]
    c: dict[str, np.ndarray] = {}
    for lvl, codes in zip(("parent", "grand", "great"), ancestors[0]):
        w, ld, cnt, fw = _aggregate(codes, n_words, link_chars, n_chars, fw_count)
        c[f"{lvl}_word_share"] = w / total_words
        c[f"{lvl}_link_density"] = ld
        c[f"{lvl}_n_blocks"] = cnt
        c[f"{lvl}_fw_share"] = fw
    c["rel_container_words"] = c["grand_word_share"] / max(c["grand_word_share"].max(), 1e-9)
    shapes = _SHAPE.sub("", "\n".join(xpaths)).split("\n")  # one pass: an element path holds no newline
    _, s_ld, s_cnt, _ = _aggregate(_codes(shapes), n_words, link_chars, n_chars, fw_count)
    c["same_shape_share"] = s_cnt / len(xpaths)
    c["same_shape_link_density"] = s_ld
    return c


def _neighbour_columns(f: dict[str, np.ndarray], is_p: np.ndarray, fw_count: np.ndarray,
                       total_words: float) -> dict[str, np.ndarray]:
    """Some columns of the two blocks before and after each block (`_NEIGHBOUR_BASE`; ``is_p``
    is the ``tag_p`` flag), and word, link and function-word sums over a window of seven."""
    c: dict[str, np.ndarray] = {}
    for off, k in (("p1", 1), ("n1", -1), ("p2", 2), ("n2", -2)):
        for name in _NEIGHBOUR_BASE:
            c[f"{off}_{name}"] = _shift(is_p if name == "is_p" else f[name], k)
    c["win3_words_share"] = _window(f["n_words"]) / total_words
    c["win3_link_density"] = _window(f["link_chars"]) / np.maximum(_window(f["n_chars"]), 1)
    c["win3_fw_share"] = _window(fw_count) / np.maximum(_window(f["n_tokens"]), 1)
    return c


def _site_columns(repetition: Repetition | None, n: int) -> dict[str, np.ndarray]:
    """The repetition columns: NaN without site evidence, which the model reads as "none"."""
    if repetition is None:
        return {"rep_text": np.full(n, np.nan), "rep_path": np.full(n, np.nan), "site_pages": np.zeros(n)}
    rep_text, rep_path, n_other = repetition
    return {"rep_text": rep_text, "rep_path": rep_path, "site_pages": np.full(n, float(n_other))}
