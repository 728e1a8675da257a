"""Checks blockclf runs on its own output: page verdicts and over-removal warnings.

Every figure here is computed from the result's blocks, so it can be recomputed from the
JSON output: ``page_chars`` is the sum of all blocks' text lengths, ``kept_chars`` that of the
kept blocks, ``kept_ratio`` their quotient, ``page_link_density`` the share of page characters
inside links, and ``boilerplate_share`` is ``1 - kept_ratio``.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .predict import Result

__all__ = ["MIN_KEPT_CHARS", "LOW_KEPT_RATIO", "page_checks"]

#: fewer kept characters than this and the page is flagged "too-short"
MIN_KEPT_CHARS = 200
#: kept/page character ratio under this, on a page with real text, flags likely over-removal
LOW_KEPT_RATIO = 0.05
#: page text (characters) above which a low kept ratio is suspicious
SUBSTANTIAL_PAGE = 2000
_WORD = re.compile(r"\w+")


def page_checks(res: Result) -> None:
    """Fill ``res.stats``, ``res.verdict`` and add warnings to ``res.warnings``.

    Verdicts: ``empty`` (no visible text), ``too-little-text`` (under `MIN_KEPT_CHARS` kept
    and on the page), ``index`` (most page text is links and little is kept: a navigation or
    link-list page), otherwise ``document``.
    """
    page_chars = sum(len(b.text) for b in res.blocks)
    kept_chars = sum(len(b.text) for b, k in zip(res.blocks, res.kept) if k)
    link_chars = sum(b.link_chars for b in res.blocks)
    ratio = kept_chars / page_chars if page_chars else 0.0
    link_density = link_chars / page_chars if page_chars else 0.0
    res.stats = {
        "page_chars": page_chars,
        "kept_chars": kept_chars,
        "kept_ratio": round(ratio, 4),
        "boilerplate_share": round(1 - ratio, 4) if page_chars else 0.0,
        "page_link_density": round(link_density, 4),
        "n_blocks": len(res.blocks),
        "n_kept": int(res.kept.sum()),
    }
    if page_chars == 0:
        res.verdict = "empty"
    elif page_chars < MIN_KEPT_CHARS:
        res.verdict = "too-little-text"
    elif link_density > 0.5 and kept_chars < 0.2 * page_chars:
        res.verdict = "index"
    else:
        res.verdict = "document"
    if page_chars and kept_chars < MIN_KEPT_CHARS:
        res.warnings.append("too-short")
    if page_chars >= SUBSTANTIAL_PAGE and ratio < LOW_KEPT_RATIO:
        res.warnings.append("low-kept-ratio")
    title = set(_WORD.findall(res.title.lower()))
    if len(title) >= 3 and kept_chars:
        kept_words = set()
        for b, k in zip(res.blocks, res.kept):
            if k:
                kept_words.update(_WORD.findall(b.text.lower()))
        if len(title & kept_words) < 0.5 * len(title):
            res.warnings.append("title-missing")
