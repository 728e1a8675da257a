"""The evaluation report: metrics, per-page scores, PR curve, feature importance, worst pages.

``blockclf evaluate BENCH --report DIR`` writes

```
DIR/metrics.json      mean P/R/F1 per dataset and overall, thresholds, the PR curve points
DIR/pages.csv         one row per page: dataset, id, site, P, R, F1, verdict, kept_ratio...
DIR/pr_curve.png      mean page precision against mean page recall over thresholds, with the
                      model's three favor thresholds marked
DIR/importance.png    the features with the largest total gain in the model
DIR/worst_pages.png   P/R/F1 of the lowest-F1 pages
DIR/worst/<id>.html   an explain view (kept/removed blocks with reasons) of each worst page
DIR/report.html       all of the above in one self-contained file (images inlined)
```

The PR curve uses the scoring of DESIGN §4 at every threshold of a grid: per page, the kept
text is the blocks scoring at or above the threshold, P and R are token overlaps with the
gold, and the curve plots their means over pages. Plots need matplotlib (``pip install
'blockclf[report]'``); without it the report has tables only.
"""

from __future__ import annotations

import base64
import html
import io
import json
import logging
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from .classifier import lightgbm_booster
from .data import PageRecord
from .evaluate import score_records, summary
from .explain import explain_html, feature_words
from .files import write_atomic
from .metrics import tokens
from .model import Model
from .predict import extract_batch, prepare
from .site import SiteProfile
from .thresholds import f1, page_curve

if TYPE_CHECKING:
    from .result import Result

__all__ = ["evaluate_pages", "explain_pages", "feature_importance", "pr_curve", "write_report"]

log = logging.getLogger("blockclf")

GRID = np.round(np.arange(0.0, 1.0001, 0.02), 2)


def evaluate_pages(records: Sequence[PageRecord], model: Model, favor: str = "balanced",
                   threshold: float | None = None, use_site: bool = True,
                   explain: bool = False) -> tuple[pd.DataFrame, list[Result], dict[str, str]]:
    """`evaluate.score_records`: the per-page table, the results and gold texts for the report."""
    return score_records(records, model, favor, threshold, use_site, explain)


def explain_pages(records: Sequence[PageRecord], keys: Sequence[str], model: Model, favor: str = "balanced",
                  threshold: float | None = None, use_site: bool = True) -> dict[str, Result]:
    """Re-extract the pages ``keys`` of ``records`` with their reasons.

    Reasons (LightGBM ``pred_contrib``) cost about 70 times a plain prediction, so the report
    computes them only for the pages it shows. Each page gets the same repetition evidence as
    in the whole batch: a profile of the other pages of its site in ``records``.
    """
    by_key = {r.key: r for r in records}
    blocks: dict[str, list] = {}

    def page_blocks(r: PageRecord) -> list:
        if r.key not in blocks:
            try:
                blocks[r.key] = prepare(r.html_path, url=r.url, site=r.site, name=r.key).blocks
            except Exception:
                blocks[r.key] = []
        return blocks[r.key]

    out: dict[str, Result] = {}
    for key in keys:
        rec = by_key[key]
        try:
            page = prepare(rec.html_path, url=rec.url, site=rec.site, name=rec.key)
        except Exception:
            continue
        profile = None
        if use_site:
            others = [page_blocks(o) for o in records if o.site == rec.site and o.key != key]
            profile = SiteProfile.from_pages([b for b in others if b], rec.site) if any(others) else None
        out[key] = extract_batch([page], model=model, favor=favor, threshold=threshold, site_profile=profile,
                                 use_site=use_site, explain=True)[0]
    return out


def pr_curve(results: Sequence[Result], golds: dict[str, str], grid: np.ndarray = GRID) -> pd.DataFrame:
    """Mean page precision, recall and F1 at each threshold of ``grid``."""
    P = np.zeros(len(grid))
    R = np.zeros(len(grid))
    F = np.zeros(len(grid))
    for res in results:
        p, r = page_curve(res, golds[res.name or ""], grid)
        P += p
        R += r
        F += f1(p, r)
    n = max(len(results), 1)
    return pd.DataFrame({"threshold": grid, "precision": P / n, "recall": R / n, "f1": F / n})


def feature_importance(model: Model, top: int = 20) -> pd.DataFrame:
    """The ``top`` columns of the final scoring pass by total split gain, with their share of
    all gain and a description."""
    booster = lightgbm_booster(model.refiner or model.classifier)
    gain = booster.feature_importance(importance_type="gain")
    df = pd.DataFrame({"feature": booster.feature_name(), "gain": gain})
    df["share"] = df["gain"] / max(df["gain"].sum(), 1e-12)
    df = df.sort_values("gain", ascending=False).head(top).reset_index(drop=True)
    df["description"] = [feature_words(f) for f in df["feature"]]
    return df


def _plots(curve: pd.DataFrame, model: Model, imp: pd.DataFrame, worst: pd.DataFrame) -> dict[str, bytes]:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        log.warning("matplotlib is not installed: the report has no plots (pip install 'blockclf[report]')")
        return {}
    out: dict[str, bytes] = {}

    def save(fig: Any, name: str) -> None:
        buf = io.BytesIO()
        fig.savefig(buf, format="png", dpi=100, bbox_inches="tight")
        plt.close(fig)
        out[name] = buf.getvalue()

    fig, ax = plt.subplots(figsize=(6, 5))
    ax.plot(curve["recall"], curve["precision"], "-", color="#336", lw=1.5, label="thresholds 0 to 1")
    for favor, marker in zip(("precision", "balanced", "recall"), ("^", "o", "s")):
        t = model.thresholds[favor]
        k = int(np.argmin(np.abs(curve["threshold"].to_numpy() - t)))
        ax.plot(curve["recall"][k], curve["precision"][k], marker, ms=9,
                label=f"{favor} (t={t:.2f}): P {curve['precision'][k]:.3f} R {curve['recall'][k]:.3f}")
    ax.set_xlabel("mean page recall")
    ax.set_ylabel("mean page precision")
    ax.set_title("Precision-recall over thresholds")
    ax.grid(alpha=0.3)
    ax.legend(loc="lower left", fontsize=8)
    save(fig, "pr_curve.png")

    fig, ax = plt.subplots(figsize=(7, 0.3 * len(imp) + 1))
    ax.barh([f"{f}: {d}"[:72] for f, d in zip(imp["feature"], imp["description"])][::-1], imp["share"][::-1],
            color="#4a7")
    ax.set_xlabel("share of total split gain")
    ax.set_title("Feature importance")
    save(fig, "importance.png")

    if len(worst):
        fig, ax = plt.subplots(figsize=(7, 0.3 * len(worst) + 1))
        y = np.arange(len(worst))[::-1]
        for k, (col, color) in enumerate((("precision", "#c55"), ("recall", "#55c"), ("f1", "#333"))):
            ax.barh(y + (k - 1) * 0.27, worst[col], height=0.27, color=color, label=col)
        ax.set_yticks(y, [str(i)[:50] for i in worst["id"]])
        ax.set_xlim(0, 1)
        ax.legend(fontsize=8, loc="lower right")
        ax.set_title("Lowest-F1 pages")
        save(fig, "worst_pages.png")
    return out


def _diff(res: Result, gold: str) -> tuple[list[str], list[str]]:
    """The largest blocks that cost recall (missed) and precision (extra) on this page.

    A removed block is "missed" when most of its tokens are gold tokens the kept text lacks;
    a kept block is "extra" when most of its tokens are in excess of the gold's counts.
    """
    ref = Counter(tokens(gold))
    kept = Counter(t for b, k in zip(res.blocks, res.kept) if k for t in tokens(b.text))
    lacking, excess = ref - kept, kept - ref
    missed: list[str] = []
    extra: list[str] = []
    for b, k in zip(res.blocks, res.kept):
        toks = tokens(b.text)
        pool = excess if k else lacking
        hits = 0
        for t in toks:
            if pool[t] > 0:
                pool[t] -= 1
                hits += 1
        if toks and hits >= 0.8 * len(toks):
            (extra if k else missed).append(b.text)
    return sorted(missed, key=len, reverse=True)[:3], sorted(extra, key=len, reverse=True)[:3]


def _table(df: pd.DataFrame) -> str:
    return df.to_html(float_format=lambda v: f"{v:.3f}", border=0, classes="t", escape=True)


def write_report(out: str | Path, df: pd.DataFrame, results: Sequence[Result], golds: dict[str, str], model: Model,
                 meta: dict[str, Any], n_worst: int = 10, records: Sequence[PageRecord] | None = None,
                 favor: str = "balanced", threshold: float | None = None, use_site: bool = True) -> Path:
    """Write every report file into ``out``; return the path of ``report.html``.

    With ``records`` (the evaluated pages), the worst pages' views show each block's reasons.
    """
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    table = summary(df)
    curve = pr_curve(results, golds)
    imp = feature_importance(model)
    worst = df.sort_values(["f1", "id"]).head(n_worst).reset_index(drop=True)
    write_atomic(out / "pages.csv", df.to_csv(index=False))
    metrics = {**meta, "thresholds": model.thresholds,
               "datasets": {k: {c: float(v) for c, v in row.items()} for k, row in table.iterrows()},
               "pr_curve": curve.round(4).to_dict(orient="list"),
               "feature_importance": imp[["feature", "share"]].round(4).to_dict(orient="records")}
    write_atomic(out / "metrics.json", json.dumps(metrics, indent=1))
    images = _plots(curve, model, imp, worst)
    for name, data in images.items():
        write_atomic(out / name, data)
    by_name = {r.name: r for r in results}
    if records is not None:
        keys = [f"{w['dataset']}/{w['id']}" for _, w in worst.iterrows()]
        by_name.update(explain_pages(records, keys, model, favor, threshold, use_site))
    rows = _worst_rows(out, worst, by_name, golds)
    write_atomic(out / "report.html", _report_html(meta, model, table, imp, images, rows))
    return out / "report.html"


def _worst_rows(out: Path, worst: pd.DataFrame, by_name: dict[str | None, Result],
                golds: dict[str, str]) -> list[str]:
    """The worst pages' table rows, each page's view written under ``out/worst``."""
    (out / "worst").mkdir(exist_ok=True)
    rows = []
    for _, w in worst.iterrows():
        key = f"{w['dataset']}/{w['id']}"
        res = by_name.get(key)
        missed, extra = _diff(res, golds[key]) if res is not None else ([], [])
        link = ""
        if res is not None:
            view = out / "worst" / f"{w['dataset']}--{w['id']}.html"
            write_atomic(view, explain_html(res))
            link = f'<a href="worst/{html.escape(view.name)}">view</a>'
        rows.append(f"<tr><td>{html.escape(key)}</td><td>{w['precision']:.3f}</td><td>{w['recall']:.3f}</td>"
                    f"<td>{w['f1']:.3f}</td><td>{html.escape(str(w.get('verdict', '')))}</td><td>{link}</td>"
                    f"<td>{'<br>'.join(html.escape(t[:160]) for t in missed)}</td>"
                    f"<td>{'<br>'.join(html.escape(t[:160]) for t in extra)}</td></tr>")
    return rows


def _report_html(meta: dict[str, Any], model: Model, table: pd.DataFrame, imp: pd.DataFrame,
                 images: dict[str, bytes], rows: list[str]) -> str:
    """The self-contained ``report.html``: scores, plots (inlined) and the worst pages."""

    def img(name: str, alt: str) -> str:
        if name not in images:
            return f"<p><i>{alt}: no plot (matplotlib not installed)</i></p>"
        return f'<img alt="{alt}" src="data:image/png;base64,{base64.b64encode(images[name]).decode()}">'

    return f"""<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>blockclf evaluation report</title>
<style>body{{font:14px/1.45 system-ui,sans-serif;max-width:70em;margin:1em auto;padding:0 1em}}
table.t,table.w{{border-collapse:collapse}}td,th{{border-bottom:1px solid #ddd;padding:2px 8px;vertical-align:top}}
img{{max-width:100%}}</style></head><body>
<h1>blockclf evaluation report</h1>
<p>{html.escape(", ".join(f"{k}: {v}" for k, v in meta.items()))}; thresholds:
{html.escape(", ".join(f"{k} {v:.2f}" for k, v in model.thresholds.items()))}</p>
<h2>Scores (mean over pages)</h2>{_table(table)}
<h2>Precision-recall over thresholds</h2>{img("pr_curve.png", "PR curve")}
<h2>Feature importance</h2>{img("importance.png", "feature importance")}{_table(imp)}
<h2>Worst pages</h2>{img("worst_pages.png", "worst pages")}
<p>"Missed": removed blocks whose tokens are mostly gold tokens the kept text lacks (they cost recall);
"extra": kept blocks whose tokens are mostly in excess of the gold (they cost precision).
Each view shows every block with its score and reasons on hover.</p>
<table class="w"><tr><th>page</th><th>P</th><th>R</th><th>F1</th><th>verdict</th><th></th>
<th>missed</th><th>extra</th></tr>
{"".join(rows)}</table></body></html>
"""
