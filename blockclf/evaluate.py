"""The benchmark harness: extract labelled pages as one batch and score them (`blockclf.metrics`).

Scores are gathered into pandas tables, one row per page, with a summary per dataset and
over all pages; this module is imported by the commands that score (``evaluate``, ``train``),
not at start-up.
"""

from __future__ import annotations

import pandas as pd

from .batch import BatchOptions, Item, run_batch
from .metrics import Score, score_text, tokens
from .model import Model
from .workers import auto_jobs

__all__ = ["Score", "evaluate_records", "score_records", "score_text", "summary", "tokens"]


def score_records(records, model=None, favor: str = "balanced", threshold: float | None = None,
                  use_site: bool = True, explain: bool = False, jobs: int | None = None):
    """Extract every page of ``records`` as one batch and score it against its gold.

    Returns ``(pages, results, golds)``: a DataFrame with one row per page (dataset, id, site,
    lang, page type, precision, recall, f1, verdict, kept ratio, warnings), the `Result` of
    each page that could be read, and the gold texts by page key. Pages that cannot be read
    score 0 (an extractor that fails has extracted nothing) with verdict ``failed`` and, in
    ``warnings``, the reason code and message.

    The pages go through the streaming batch (`blockclf.batch.run_batch`), as ``blockclf
    extract`` reads a folder: each page's tree is let go once it is scored, and a model given
    by name or path is scored in ``jobs`` worker processes (default: the free cores, as many as
    the pages are worth; one for a `Model` object, which each worker would receive whole). A
    site's median kept ratio is then that of the pages scored together (its ``warnings``).
    """
    records = list(records)
    by_key = {r.key: r for r in records}
    golds = {r.key: r.read_gold() for r in records}
    if jobs is None:
        jobs = 1 if isinstance(model, Model) else auto_jobs(len(records))
    # every tree summed: the report draws each page's curve over all thresholds from its scores
    opts = BatchOptions(model=model, favor=favor, threshold=threshold, use_site=use_site, explain=explain,
                        exact_scores=True)
    results = []
    failed: list = []  # (record, why)
    for outcome in run_batch([Item(r.key, r.html_path, url=r.url, site=r.site) for r in records], opts, jobs=jobs):
        if outcome.error is not None:
            failed.append((by_key[outcome.name], outcome.error))
        else:
            results.append(outcome.result)
    rows = []
    for res in results:
        row = _row(by_key[res.name], score_text(res.text, golds[res.name]))
        row.update(verdict=res.verdict, kept_ratio=res.stats.get("kept_ratio"), warnings=";".join(res.warnings))
        rows.append(row)
    rows += [{**_row(r, score_text("", golds[r.key])), "verdict": "failed", "warnings": f"{why.reason}: {why}"}
             for r, why in failed]
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
    per = df.groupby("dataset")[["precision", "recall", "f1"]].mean()
    per["pages"] = df.groupby("dataset").size()
    overall = pd.DataFrame([{**df[["precision", "recall", "f1"]].mean().to_dict(), "pages": len(df)}], index=["all"])
    return pd.concat([per, overall])
