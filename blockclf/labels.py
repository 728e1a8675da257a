"""Block labels for training: from block annotations, or by aligning gold text to blocks.

Labelling a block "content" because its words occur somewhere in the gold text makes menus
look like content (common words are everywhere). Instead the page's token stream is aligned
in order with the gold token stream, and a block is content when most of its tokens align.
The oracle F1 of the resulting labels (the score a perfect classifier would get) is the
page's alignment quality; pages that align badly are excluded from training.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher

import numpy as np

from .block import Block
from .metrics import score_text, tokens

__all__ = ["Labels", "from_annotations", "from_gold"]

#: share of a block's tokens that must align for the block to count as content
CONTENT_SHARE = 0.5


@dataclass(frozen=True)
class Labels:
    """Per-block labels of one page and how trustworthy they are.

    ``matched`` and ``n_tokens`` give, per block, its tokens aligned with the gold and its
    token count; they let threshold search estimate page P/R without re-tokenising.
    ``quality`` is the F1 the labelled-content blocks score against the gold.
    """

    content: np.ndarray
    matched: np.ndarray
    n_tokens: np.ndarray
    gold_tokens: int
    quality: float


def _stream(blocks: Sequence[Block], vocab: dict[str, int]) -> tuple[list[int], np.ndarray]:
    ids: list[int] = []
    owner: list[int] = []
    for i, b in enumerate(blocks):
        toks = tokens(b.text)
        ids.extend(vocab.setdefault(t, len(vocab)) for t in toks)
        owner.extend([i] * len(toks))
    return ids, np.asarray(owner, dtype=np.int64)


def _align(page: list[int], ref: list[int]) -> np.ndarray:
    """Index into ``ref`` of each aligned page token, -1 where it does not align."""
    out = np.full(len(page), -1, dtype=np.int64)
    if not page or not ref:
        return out
    sm = SequenceMatcher(None, page, ref, autojunk=False)
    for a, b, n in sm.get_matching_blocks():
        if n:
            out[a:a + n] = np.arange(b, b + n)
    return out


def _finish(blocks: Sequence[Block], owner: np.ndarray, hit: np.ndarray, gold: str) -> Labels:
    n = len(blocks)
    n_tok = np.bincount(owner, minlength=n).astype(np.int64) if len(owner) else np.zeros(n, np.int64)
    matched = np.bincount(owner, weights=hit, minlength=n).astype(np.int64) if len(owner) else np.zeros(n, np.int64)
    content = (n_tok > 0) & (matched >= CONTENT_SHARE * np.maximum(n_tok, 1))
    predicted = "\n".join(b.text for b, c in zip(blocks, content) if c)
    quality = score_text(predicted, gold).f1
    return Labels(content, matched, n_tok, len(tokens(gold)), quality)


def from_gold(blocks: Sequence[Block], gold: str) -> Labels:
    """Label blocks by in-order token alignment of the page with its gold main text."""
    vocab: dict[str, int] = {}
    ref = [vocab.setdefault(t, len(vocab)) for t in tokens(gold)]
    page, owner = _stream(blocks, vocab)
    hit = (_align(page, ref) >= 0).astype(np.float64)
    return _finish(blocks, owner, hit, gold)


def from_annotations(blocks: Sequence[Block], annotated: Sequence[tuple[str, bool]], gold: str) -> Labels:
    """Label blocks from annotated text runs ``(text, is_content)`` of the same page.

    The annotated runs may come from a re-serialised copy of the page, so they are aligned
    by text; a block is content when most of its tokens align with content runs.
    """
    vocab: dict[str, int] = {}
    ref: list[int] = []
    ref_content: list[bool] = []
    for text, is_content in annotated:
        toks = tokens(text)
        ref.extend(vocab.setdefault(t, len(vocab)) for t in toks)
        ref_content.extend([is_content] * len(toks))
    page, owner = _stream(blocks, vocab)
    where = _align(page, ref)
    flags = np.asarray(ref_content + [False], dtype=bool)
    hit = flags[where].astype(np.float64)  # -1 picks the trailing False
    return _finish(blocks, owner, hit, gold)
