"""Site-grouped tuning and a feature-family ablation, on the train and dev splits only.

Both studies featurise and label the pages once (cached, see ``--cache``) and score models
with the page F-beta that `blockclf.train.page_scores` estimates from the alignment labels,
the same estimate `blockclf train` uses to choose the favor thresholds.

    python benchmarks/tune.py cv ../shared/benchmark --folds 3
        Pages of train+dev are cut into folds by site (no site in two folds). For each
        LightGBM setting and fold: fit on the other folds, early-stop and choose the
        thresholds on a site-disjoint fifth of those, then score the held-out fold.

    python benchmarks/tune.py ablation ../shared/benchmark [--test]
        The shipped training protocol (fit on train, early-stop and thresholds on dev) with
        each feature family of `blockclf.features.FAMILIES` left out in turn, plus the full
        model with a few seeds to show how much a retrain moves on its own. ``--test`` adds
        each model's real test F1 (whole pipeline, DESIGN section 4) for the record; choices
        are made on the dev column.

    python benchmarks/tune.py more-data ../shared/benchmark
        Would training on more sites help? The dev sites are cut in three parts: one is
        added to the training pages, one early-stops and sets thresholds, one is scored.
        The same model is fitted with and without the added part, for each rotation of
        the three parts.

    python benchmarks/tune.py unseen-languages ../shared/benchmark
        Does the model carry to languages it never saw? Fitted on the English (and
        language-less) train pages only, sites with other-language pages left out entirely,
        early-stopped and thresholded on dev; then the held-out other-language train pages
        are extracted and scored (DESIGN section 4), per language, next to the same model's
        dev English pages.

The test split is never read by ``cv``, ``more-data`` or ``unseen-languages``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import logging
import os
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout without installing

import blockclf
from blockclf.classifier import BlockClassifier
from blockclf.data import read_index
from blockclf.evaluate import score_records
from blockclf.features import FAMILIES, FEATURES
from blockclf.model import Model
from blockclf.train import (
    FAVOR_BETA,
    MIN_QUALITY,
    LabelledPage,
    _stack,
    choose_thresholds,
    label_pages,
    page_scores,
    site_folds,
)

log = logging.getLogger("tune")

#: LightGBM settings compared by ``cv``; ``base`` is what `BlockClassifier` defaults to
GRID: dict[str, dict[str, float]] = {
    "base": {},
    "learning_rate=0.1": {"learning_rate": 0.1},
    "num_leaves=31": {"num_leaves": 31},
    "num_leaves=127,min_child=100": {"num_leaves": 127, "min_child_samples": 100},
    "min_child=20": {"min_child_samples": 20},
    "colsample=0.3": {"colsample_bytree": 0.3},
}


def _source_digest() -> str:
    """Labels and features depend on these modules: a change invalidates the cache."""
    h = hashlib.sha256()
    pkg = Path(blockclf.__file__).parent
    for name in ("html.py", "encoding.py", "segment.py", "features.py", "region.py", "refine.py", "labels.py",
                 "site.py", "train.py"):
        h.update((pkg / name).read_bytes())
    return h.hexdigest()[:12]


def labelled(bench: Path, split: str, cache: Path) -> list[LabelledPage]:
    """The split's pages featurised and labelled, from the cache when the code is unchanged."""
    import joblib

    records = read_index(bench, [split])
    key = hashlib.sha256("\n".join(sorted(r.key for r in records)).encode()).hexdigest()[:12]
    path = cache / f"labelled-{split}-{key}-{_source_digest()}.joblib"
    if path.exists():
        return joblib.load(path)
    t0 = time.perf_counter()
    pages = label_pages(records)
    log.info("labelled %d %s pages in %.0fs", len(pages), split, time.perf_counter() - t0)
    cache.mkdir(parents=True, exist_ok=True)
    joblib.dump(pages, path)
    return pages


def _good(pages: Sequence[LabelledPage]) -> list[LabelledPage]:
    return [p for p in pages if p.labels.quality >= MIN_QUALITY]


def fit(train: Sequence[LabelledPage], stop: Sequence[LabelledPage], columns: Sequence[str],
        seed: int = 0, **params: float) -> tuple[BlockClassifier, dict[str, float]]:
    """Fit on ``train``; early-stop and choose thresholds on ``stop`` (as `blockclf train` does)."""
    Xtr, ytr, wtr = _stack(_good(train))
    Xst, yst, wst = _stack(_good(stop))
    clf = BlockClassifier(random_state=seed, **params)
    clf.fit(Xtr[list(columns)], ytr, sample_weight=wtr, eval_set=(Xst[list(columns)], yst), eval_sample_weight=wst)
    probas = [clf.predict_proba(p.X[list(columns)])[:, 1] for p in stop]
    thresholds, _ = choose_thresholds(stop, probas)
    return clf, thresholds


def held_out(clf: BlockClassifier, thresholds: dict[str, float], pages: Sequence[LabelledPage],
             columns: Sequence[str]) -> dict[str, float]:
    """Mean estimated page F-beta of each favor mode on ``pages``."""
    probas = [clf.predict_proba(p.X[list(columns)])[:, 1] for p in pages]
    return {favor: float(page_scores(pages, probas, thresholds[favor], FAVOR_BETA[favor]).mean())
            for favor in thresholds}


def _site_folds(pages: Sequence[LabelledPage], k: int, seed: int) -> list[np.ndarray]:
    """Per fold, which pages are in it (the folds the refining pass trains with)."""
    folds = site_folds(pages, k, seed)
    return [folds == f for f in range(k)]


def run_cv(pages: list[LabelledPage], folds: int, settings: Sequence[str], seed: int) -> list[dict]:
    rows = []
    masks = _site_folds(pages, folds, seed)
    for name in settings:
        params = GRID[name]
        per_fold = []
        for f, mask in enumerate(masks):
            held = [p for p, m in zip(pages, mask) if m]
            rest = [p for p, m in zip(pages, mask) if not m]
            inner = _site_folds(rest, 5, seed + 1 + f)[0]
            stop = [p for p, m in zip(rest, inner) if m]
            train = [p for p, m in zip(rest, inner) if not m]
            t0 = time.perf_counter()
            clf, thr = fit(train, stop, FEATURES, seed=seed, **params)
            scores = held_out(clf, thr, held, FEATURES)
            per_fold.append({**scores, "trees": clf.best_iteration_, "seconds": time.perf_counter() - t0})
            log.info("%s fold %d: %s", name, f, json.dumps(per_fold[-1]))
        f1 = [r["balanced"] for r in per_fold]
        rows.append({"setting": name, "balanced": float(np.mean(f1)), "balanced_sd": float(np.std(f1)),
                     "precision": float(np.mean([r["precision"] for r in per_fold])),
                     "recall": float(np.mean([r["recall"] for r in per_fold])),
                     "trees": float(np.mean([r["trees"] for r in per_fold])), "folds": per_fold})
        print(f"{name:32s} F1 {rows[-1]['balanced']:.4f} ±{rows[-1]['balanced_sd']:.4f}  "
              f"F0.5 {rows[-1]['precision']:.4f}  F2 {rows[-1]['recall']:.4f}  trees {rows[-1]['trees']:.0f}",
              flush=True)
    return rows


def run_ablation(bench: Path, train: list[LabelledPage], dev: list[LabelledPage], test: bool,
                 seeds: Sequence[int]) -> list[dict]:
    records = read_index(bench, ["test"]) if test else []
    variants: list[tuple[str, list[str], int]] = [(f"all features, seed {s}", list(FEATURES), s) for s in seeds]
    variants += [(f"without {fam}", [c for c in FEATURES if c not in cols], seeds[0]) for fam, cols in FAMILIES.items()]
    rows = []
    for name, columns, seed in variants:
        t0 = time.perf_counter()
        clf, thr = fit(train, dev, columns, seed=seed)
        row: dict = {"variant": name, "columns": len(columns), "trees": clf.best_iteration_,
                     **{f"dev_{k}": v for k, v in held_out(clf, thr, dev, columns).items()}}
        if test:
            df = score_records(records, Model(clf, thr, list(columns), {}))[0]
            row["test_f1"] = float(df["f1"].mean())
        row["seconds"] = round(time.perf_counter() - t0)
        rows.append(row)
        print(json.dumps(row), flush=True)
    return rows


def run_more_data(train: list[LabelledPage], dev: list[LabelledPage], seed: int) -> list[dict]:
    parts = _site_folds(dev, 3, seed)
    rows = []
    for r in range(3):
        add, stop, score = ([p for p, m in zip(dev, parts[(r + j) % 3]) if m] for j in range(3))
        row: dict = {"rotation": r, "added_pages": len(add), "scored_pages": len(score)}
        for name, pages in (("train", train), ("train+added", train + add)):
            clf, thr = fit(pages, stop, FEATURES, seed=seed)
            row[name] = {**held_out(clf, thr, score, FEATURES), "trees": clf.best_iteration_}
        rows.append(row)
        print(json.dumps(row), flush=True)
    return rows


def run_unseen_languages(train: list[LabelledPage], dev: list[LabelledPage], seed: int) -> list[dict]:
    foreign_sites = {p.record.site for p in train if p.record.lang not in (None, "en")}
    fit_on = [p for p in train if p.record.site not in foreign_sites]
    held = [p.record for p in train if p.record.site in foreign_sites]
    clf, thr = fit(fit_on, dev, FEATURES, seed=seed)
    model = Model(clf, thr, list(FEATURES), {})
    rows = []
    df = score_records(held, model)[0]
    for lang, g in df.groupby(df["lang"].fillna("none")):
        rows.append({"pages": f"train, {lang} (never trained on)", "n": len(g), "sites": g["site"].nunique(),
                     "precision": g["precision"].mean(), "recall": g["recall"].mean(), "f1": g["f1"].mean()})
    en = score_records([p.record for p in dev if p.record.lang == "en"], model)[0]
    rows.append({"pages": "dev, en", "n": len(en), "sites": en["site"].nunique(), "precision": en["precision"].mean(),
                 "recall": en["recall"].mean(), "f1": en["f1"].mean()})
    for r in rows:
        print(json.dumps(r), flush=True)
    log.info("fitted on %d pages (%d trees); %d pages of %d sites held out", len(fit_on), clf.best_iteration_,
             len(held), len(foreign_sites))
    return rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("study", choices=("cv", "ablation", "more-data", "unseen-languages"))
    ap.add_argument("bench", type=Path, nargs="?",
                    default=Path(os.environ.get("BLOCKCLF_BENCH", "../shared/benchmark")))
    ap.add_argument("--folds", type=int, default=3)
    ap.add_argument("--settings", nargs="*", default=list(GRID), choices=list(GRID))
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--seeds", type=int, nargs="*", default=[0, 1, 2], help="seeds of the full model (ablation)")
    ap.add_argument("--test", action="store_true", help="ablation: also the test F1 of each model")
    ap.add_argument("--cache", type=Path,
                    default=Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "blockclf")
    ap.add_argument("--out", type=Path, help="write the rows as JSON")
    args = ap.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s")
    train = labelled(args.bench, "train", args.cache)
    dev = labelled(args.bench, "dev", args.cache)
    if args.study == "cv":
        rows = run_cv(train + dev, args.folds, args.settings, args.seed)
    elif args.study == "more-data":
        rows = run_more_data(train, dev, args.seed)
    elif args.study == "unseen-languages":
        rows = run_unseen_languages(train, dev, args.seed)
    else:
        rows = run_ablation(args.bench, train, dev, args.test, args.seeds)
    if args.out:
        args.out.write_text(json.dumps(rows, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
