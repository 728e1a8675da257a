"""Scoring of extracted text against gold text (token P/R/F1) and benchmark reports.

The convention is fixed so that every figure blockclf reports is comparable: tokens are
lower-cased Unicode ``\\w+`` matches, overlap is the multiset intersection, scores are
computed per page and averaged over pages.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pandas is imported when a table is built, not when scoring text
    import pandas as pd

__all__ = ["Score", "evaluate_records", "score_records", "score_text", "summary", "tokens"]

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
    f = 2 * p * r / (p + r) if overlap else 0.0
    return Score(p, r, f)


def score_records(records, model=None, favor: str = "balanced", threshold: float | None = None,
                  use_site: bool = True, explain: bool = False):
    """Extract every page of ``records`` as one batch and score it against its gold.

    Returns ``(pages, results, golds)``: a DataFrame with one row per page (dataset, id, site,
    lang, page type, precision, recall, f1, verdict, kept ratio, warnings), the `Result` of
    each page that could be read, and the gold texts by page key. Pages that cannot be read
    score 0 (an extractor that fails has extracted nothing) with verdict ``failed``.
    """
    import pandas as pd

    from .predict import Page, extract_batch, prepare

    pages: list[Page] = []
    failed: list = []
    for r in records:
        try:
            pages.append(prepare(r.html_path, url=r.url, site=r.site, name=r.key))
        except Exception:  # noqa: BLE001 - a failing page is scored, not fatal
            failed.append(r)
    by_key = {r.key: r for r in records}
    golds = {r.key: r.read_gold() for r in records}
    results = extract_batch(pages, model=model, favor=favor, threshold=threshold, use_site=use_site,
                            explain=explain)
    rows = []
    for res in results:
        row = _row(by_key[res.name], score_text(res.text, golds[res.name]))
        row.update(verdict=res.verdict, kept_ratio=res.stats.get("kept_ratio"), warnings=";".join(res.warnings))
        rows.append(row)
    rows += [{**_row(r, score_text("", golds[r.key])), "verdict": "failed"} for r in failed]
    return pd.DataFrame(rows), results, golds


def evaluate_records(records, model=None, favor: str = "balanced", threshold: float | None = None,
                     use_site: bool = True):
    """The per-page score table of `score_records` (one row per page)."""
    return score_records(records, model, favor, threshold, use_site)[0]


def _row(r, s: Score) -> dict:
    return {"dataset": r.dataset, "id": r.id, "site": r.site, "lang": r.lang,
            "page_type": r.extra.get("page_type"), "precision": s.precision, "recall": s.recall, "f1": s.f1}


def summary(df: pd.DataFrame) -> pd.DataFrame:
    """Mean P/R/F1 and page count per dataset, with an ``all`` row over every page."""
    import pandas as pd

    per = df.groupby("dataset")[["precision", "recall", "f1"]].mean()
    per["pages"] = df.groupby("dataset").size()
    overall = pd.DataFrame([{**df[["precision", "recall", "f1"]].mean().to_dict(), "pages": len(df)}], index=["all"])
    return pd.concat([per, overall])
