"""Leave one source out: the quality a user should expect on a site of a kind never trained on.

For each benchmark dataset S that has test pages, a model is trained exactly as
``blockclf train`` trains the shipped default (`blockclf.train.fit_model`, seed 0, no
refining pass) but on the train split of every *other* dataset, with early stopping and the
favor thresholds on the dev split of every other dataset. S's test pages are then extracted
as one folder by the installed command, ``blockclf extract DIR -o OUT --model FOLD.json``
(default settings otherwise; ``--jobs 1``, which changes no output), and the written ``.txt``
files are scored against the gold text (DESIGN section 4, `blockclf.evaluate.score_text`).
The same folder goes through the shipped default model with the same command (which saw S's
train and dev pages) and through trafilatura, so the three columns are on the same pages.

Pages are labelled and featurised once (`blockclf.train._label_one`, what `label_pages` runs
for each page) and cached; each fold recomputes the cross-page repetition columns among its
own pages of each split (`add_repetition`, as `label_pages` does), so a site shared with S
gives no evidence from S's pages. sphinx_sites (train/dev only, no test pages) is in every
fold's training data, as it is in the default model's.

    nice -n 19 python benchmarks/loso.py /work/shared/benchmark --cache /work/tmp/loso
    nice -n 19 python benchmarks/loso.py BENCH --cache DIR --source wcxb   # one fold
    nice -n 19 python benchmarks/loso.py BENCH --cache DIR --check-default # nothing held out: the shipped model?
    python benchmarks/loso.py BENCH --cache DIR --report-only              # tables from what is done
    nice -n 19 python benchmarks/loso.py BENCH --cache DIR --source-weight 0.5   # sources weighed alike
    nice -n 19 python benchmarks/loso.py BENCH --cache DIR --set min_child_samples=400  # other settings

``--source-weight P`` weighs each dataset's training pages by (its pages / the mean pages of a
dataset)^-P, so that large sources outweigh small ones less (P = 1: every source alike); its
fold models, outputs and ``loso.json`` go to ``DIR/source-weight-P`` (the labels are shared).

Everything heavy runs on one thread: LightGBM ``n_jobs=1``, labelling in this process,
``blockclf extract --jobs 1``. Per-page scores and all figures go to ``DIR/loso.json``.
"""

from __future__ import annotations

import argparse
import gzip
import json
import logging
import os
import shutil
import subprocess
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

import joblib
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # this checkout's blockclf

from blockclf.classifier import BlockClassifier
from blockclf.data import PageRecord, read_index
from blockclf.evaluate import score_text
from blockclf.features import FEATURES
from blockclf.model import Model, load_model
from blockclf.train import (
    MIN_QUALITY,
    LabelledPage,
    Stacked,
    _label_one,
    add_repetition,
    data_digest,
    favor_thresholds,
    fit_first_pass,
    stack_pages,
    usable,
)

log = logging.getLogger("loso")
SEED = 0


# ---------------------------------------------------------------- labelling, once


def labelled(records: list[PageRecord], cache: Path) -> dict[str, LabelledPage | None]:
    """Every train/dev page labelled and featurised, without repetition columns filled;
    one joblib file per dataset and split under ``cache/labelled`` (resumable)."""
    out: dict[str, LabelledPage | None] = {}
    by_part: dict[tuple[str, str], list[PageRecord]] = defaultdict(list)
    for r in records:
        by_part[(r.dataset, r.split)].append(r)
    (cache / "labelled").mkdir(parents=True, exist_ok=True)
    for (dataset, split), recs in sorted(by_part.items()):
        f = cache / "labelled" / f"{dataset}.{split}.joblib"
        if f.exists():
            part = joblib.load(f)
        else:
            t0 = time.perf_counter()
            part = {r.key: _label_one(r) for r in recs}
            joblib.dump(part, f, compress=3)
            log.info("labelled %s/%s: %d pages in %.0fs", dataset, split, len(recs), time.perf_counter() - t0)
        out.update(part)
    return out


def fold_pages(recs: list[PageRecord], cache: dict[str, LabelledPage | None]) -> list[LabelledPage]:
    """``label_pages(recs)`` from the cache: the pages that could be read, repetition among
    the pages of each site in ``recs``."""
    pages = [cache[r.key] for r in recs if cache.get(r.key) is not None]
    add_repetition(pages)  # overwrites the three repetition columns of every page given
    return pages


# ---------------------------------------------------------------- one fold: fit_model without S


def balanced(stacked: Stacked, pages: list[LabelledPage], power: float) -> Stacked:
    """``stacked`` (of ``pages``) with each page's weights times (its dataset's pages / the
    mean pages of a dataset)^-``power``, the total weight unchanged."""
    if not power:
        return stacked
    n = Counter(p.record.dataset for p in pages)
    mean = sum(n.values()) / len(n)
    factor = np.concatenate([np.full(len(p.labels.content), (n[p.record.dataset] / mean) ** -power) for p in pages])
    w = stacked.w * factor
    return stacked._replace(w=w * (stacked.w.sum() / w.sum()))


def fit_fold(held: str, records: list[PageRecord], cache: dict[str, LabelledPage | None],
             source_weight: float = 0.0, settings: dict[str, float] | None = None) -> Model:
    """`blockclf.train.fit_model` (seed 0, default targets, no refining) on every dataset but
    ``held``; ``source_weight``: see `balanced`; ``settings``: `BlockClassifier` arguments
    other than the shipped ones."""
    t0 = time.perf_counter()
    train = [r for r in records if r.split == "train" and r.dataset != held]
    dev = [r for r in records if r.split == "dev" and r.dataset != held]
    tr = fold_pages(train, cache)
    dv = fold_pages(dev, cache)
    tr_good, dv_good = usable(tr), usable(dv)
    stacked = balanced(stack_pages(tr_good), tr_good, source_weight)
    n_blocks = len(stacked.y)
    clf = BlockClassifier(random_state=SEED, n_jobs=1, **(settings or {}))
    t1 = time.perf_counter()
    fit_first_pass(clf, stacked, balanced(stack_pages(dv_good), dv_good, source_weight))
    fit_s = time.perf_counter() - t1
    del stacked
    log.info("%s held out: %d trees on %d blocks of %d train pages in %.0fs", held, clf.best_iteration_, n_blocks,
             len(tr_good), fit_s)
    t2 = time.perf_counter()
    thresholds, dev_scores = favor_thresholds(clf, dev, SEED, None, None)
    log.info("%s held out: thresholds %s on %d dev pages in %.0fs", held, thresholds, len(dev),
             time.perf_counter() - t2)
    info = {
        "trained_on": sorted({r.dataset for r in train}),
        "held_out": held,
        "train_pages": len(tr_good),
        "train_pages_excluded": len(tr) - len(tr_good),
        "dev_pages": len(dv),
        "train_blocks": int(n_blocks),
        "data_digest": data_digest(list(train) + list(dev)),
        "seed": SEED,
        "source_weight": source_weight,
        "settings": settings or {},
        "dev_scores": dev_scores,
        "min_label_quality": MIN_QUALITY,
        "fit_seconds": round(fit_s, 1),
        "seconds": round(time.perf_counter() - t0, 1),
    }
    return Model(clf, thresholds, list(FEATURES), info)


# ---------------------------------------------------------------- scoring S's test pages


def page_folder(held: str, tests: list[PageRecord], cache: Path) -> Path:
    """S's test pages as a folder of links named ``<id>.html.gz``, as ``benchmarks/cli.py`` lays them out."""
    folder = cache / "pages" / held
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    for r in tests:
        os.symlink(r.html_path.resolve(), folder / f"{r.id}.html.gz")
    return folder


def run_cli(folder: Path, out: Path, model: str | None) -> dict:
    """``blockclf extract FOLDER -o OUT [--model M] --jobs 1`` as its own process."""
    if out.exists():
        shutil.rmtree(out)
    exe = shutil.which("blockclf")
    if exe is None:
        raise SystemExit("the blockclf command is not installed")
    cmd = [exe, "extract", str(folder), "-o", str(out), "--jobs", "1", "--progress", "off"]
    if model is not None:
        cmd += ["--model", model]
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if proc.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(cmd)} failed ({proc.returncode}): {proc.stderr[-500:]}")
    return {"seconds": round(time.perf_counter() - t0, 1), "exit": proc.returncode,
            "stderr": proc.stderr.strip().splitlines()[-3:]}


def run_trafilatura(tests: list[PageRecord], out: Path) -> None:
    """trafilatura on the same bytes, one ``.txt`` per page (the peer code of ``benchmarks/cli.py``)."""
    import trafilatura

    out.mkdir(parents=True, exist_ok=True)
    for r in tests:
        target = out / f"{r.id}.txt"
        if target.exists():
            continue
        data = gzip.decompress(r.html_path.read_bytes())
        text = trafilatura.extract(data, include_comments=False, include_tables=True) or ""
        target.write_text(text + "\n", encoding="utf-8")


def scores(tests: list[PageRecord], out: Path) -> list[tuple[float, float, float]]:
    rows = []
    for r in tests:
        f = out / f"{r.id}.txt"
        text = f.read_text(encoding="utf-8") if f.exists() else ""  # a skipped page extracted nothing
        s = score_text(text, r.read_gold())
        rows.append((s.precision, s.recall, s.f1))
    return rows


# ---------------------------------------------------------------- report


SYSTEMS = ("loso", "default", "trafilatura")


def _f(v: float) -> str:
    return f"{v:.3f}".lstrip("0") if v < 1 else "1.000"


def _mean(pages: list[dict], system: str, i: int) -> float:
    return float(np.mean([p[system][i] for p in pages]))


def report(state: dict) -> str:
    pages = [p for s in state["sources"].values() for p in s["pages"]]
    if not pages:
        return "no fold finished yet"
    lines = ["| held-out source | pages | LOSO P | LOSO R | LOSO F1 | default F1 (saw S) | gap | trafilatura F1 "
             "| LOSO − trafilatura | fold trees | fold balanced threshold |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    macro = defaultdict(list)
    for name, s in sorted(state["sources"].items()):
        ps = s["pages"]
        lo = [_mean(ps, "loso", i) for i in range(3)]
        de, tr = _mean(ps, "default", 2), _mean(ps, "trafilatura", 2)
        for k, v in (("P", lo[0]), ("R", lo[1]), ("F1", lo[2]), ("default", de), ("traf", tr)):
            macro[k].append(v)
        lines.append(f"| {name} | {len(ps)} | {_f(lo[0])} | {_f(lo[1])} | {_f(lo[2])} | {_f(de)} | "
                     f"{lo[2] - de:+.3f} | {_f(tr)} | {lo[2] - tr:+.3f} | {s['fold']['trees']} | "
                     f"{s['fold']['thresholds']['balanced']:.2f} |")
    lo = [_mean(pages, "loso", i) for i in range(3)]
    de, tr = _mean(pages, "default", 2), _mean(pages, "trafilatura", 2)
    lines.append(f"| **all pages** | {len(pages)} | {_f(lo[0])} | {_f(lo[1])} | {_f(lo[2])} | {_f(de)} | "
                 f"{lo[2] - de:+.3f} | {_f(tr)} | {lo[2] - tr:+.3f} | | |")
    m = {k: float(np.mean(v)) for k, v in macro.items()}
    lines.append(f"| **mean over sources** | {len(macro['F1'])} | {_f(m['P'])} | {_f(m['R'])} | {_f(m['F1'])} | "
                 f"{_f(m['default'])} | {m['F1'] - m['default']:+.3f} | {_f(m['traf'])} | {m['F1'] - m['traf']:+.3f} "
                 "| | |")
    # how far the all-pages figures move with the sample of sites: whole sites resampled
    site_of = np.array([f"{p['dataset']}/{p['site']}" for p in pages])
    names, inv = np.unique(site_of, return_inverse=True)
    vals = np.array([[p["loso"][2], p["loso"][2] - p["default"][2], p["loso"][2] - p["trafilatura"][2]]
                     for p in pages])
    sums = np.zeros((len(names), 3))
    np.add.at(sums, inv, vals)
    counts = np.bincount(inv, minlength=len(names)).astype(float)
    rng = np.random.default_rng(SEED)
    draws = np.stack([np.bincount(rng.integers(0, len(names), len(names)), minlength=len(names))
                      for _ in range(1000)]).astype(float)
    boot = (draws @ sums) / (draws @ counts)[:, None]
    lo_, hi_ = np.percentile(boot, [2.5, 97.5], axis=0)
    state["interval"] = {k: [round(float(lo_[i]), 4), round(float(hi_[i]), 4)]
                         for i, k in enumerate(("loso_f1", "loso_minus_default", "loso_minus_trafilatura"))}
    lines.append(f"\n95% intervals over all pages, resampling {len(names)} test sites 1,000 times: LOSO F1 "
                 f"{_f(lo_[0])}–{_f(hi_[0])}; LOSO − default {lo_[1]:+.3f} to {hi_[1]:+.3f}; "
                 f"LOSO − trafilatura {lo_[2]:+.3f} to {hi_[2]:+.3f}.")
    out = "\n".join(lines)
    # page types (wcxb, magic_html) and languages (fundus, magic_html)
    for title, key, sets in (("page type", "page_type", ("wcxb", "magic_html")),
                             ("language", "lang", ("fundus", "magic_html"))):
        groups: dict[tuple[str, str], list[dict]] = defaultdict(list)
        for p in pages:
            if p["dataset"] in sets:
                groups[(p["dataset"], p.get(key) or "unknown")].append(p)
        if not groups:
            continue
        rows = [f"\n| dataset | {title} | pages | LOSO P | LOSO R | LOSO F1 | default F1 | gap | trafilatura F1 |",
                "|---|---|---:|---:|---:|---:|---:|---:|---:|"]
        for (d, g), ps in sorted(groups.items(), key=lambda kv: (kv[0][0], -len(kv[1]), kv[0][1])):
            lo = [_mean(ps, "loso", i) for i in range(3)]
            de = _mean(ps, "default", 2)
            rows.append(f"| {d} | {g} | {len(ps)} | {_f(lo[0])} | {_f(lo[1])} | {_f(lo[2])} | {_f(de)} | "
                        f"{lo[2] - de:+.3f} | {_f(_mean(ps, 'trafilatura', 2))} |")
        out += "\n" + "\n".join(rows)
    return out


# ---------------------------------------------------------------- main


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("bench", type=Path)
    ap.add_argument("--cache", type=Path, required=True, help="labelled pages, fold models, outputs, loso.json")
    ap.add_argument("--source", action="append", help="only this held-out dataset (repeatable)")
    ap.add_argument("--refit", action="store_true", help="fit fold models again even when saved")
    ap.add_argument("--report-only", action="store_true", help="print the tables from loso.json")
    ap.add_argument("--check-default", action="store_true",
                    help="also fit with nothing held out and compare with the shipped default model")
    ap.add_argument("--source-weight", type=float, default=0.0, metavar="P",
                    help="weigh each dataset's pages by (its pages / mean pages)^-P (default 0: every page alike)")
    ap.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                    help="a LightGBM setting of BlockClassifier other than the shipped one, e.g. "
                         "min_child_samples=400 (repeatable); fold models and outputs go to DIR/set-NAME=VALUE...")
    args = ap.parse_args(argv)
    settings = {k: (int(v) if v.lstrip("-").isdigit() else float(v))
                for k, _, v in (item.partition("=") for item in args.set)}
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s", datefmt="%H:%M:%S")
    logging.getLogger("blockclf").setLevel(logging.INFO)
    logging.getLogger("trafilatura").setLevel(logging.ERROR)
    cache = args.cache
    work = cache / f"source-weight-{args.source_weight:g}" if args.source_weight else cache
    if settings:
        work = work / ("set-" + ",".join(f"{k}={v:g}" for k, v in sorted(settings.items())))
    work.mkdir(parents=True, exist_ok=True)
    state_file = work / "loso.json"
    state = json.loads(state_file.read_text()) if state_file.exists() else {"sources": {}}
    if args.report_only:
        print(report(state))  # the report adds the site-resampled intervals to the state
        state_file.write_text(json.dumps(state, indent=1) + "\n")
        return 0

    records = read_index(args.bench, ["train", "dev", "test"])
    fitting = [r for r in records if r.split in ("train", "dev")]
    tests: dict[str, list[PageRecord]] = defaultdict(list)
    for r in records:
        if r.split == "test":
            tests[r.dataset].append(r)
    default = load_model(None)
    digest = data_digest(fitting)
    log.info("train+dev digest %s (default model: %s)", digest, default.info.get("data_digest"))
    state["setup"] = {"bench": str(args.bench), "train_dev_digest": digest,
                      "default_digest": default.info.get("data_digest"),
                      "default_trees": int(default.classifier.best_iteration_),
                      "default_thresholds": default.thresholds}
    t0 = time.perf_counter()
    cache_pages = labelled(fitting, cache)
    log.info("labelled pages ready (%d) in %.0fs", len(cache_pages), time.perf_counter() - t0)

    if args.check_default:  # the chain reproduces the shipped model when nothing is held out
        whole = fit_fold("", fitting, cache_pages, args.source_weight, settings)
        state["check_default"] = {
            "trees": int(whole.classifier.best_iteration_), "thresholds": whole.thresholds,
            "train_pages": whole.info["train_pages"], "train_blocks": whole.info["train_blocks"],
            "shipped": {"trees": int(default.classifier.best_iteration_), "thresholds": default.thresholds,
                        "train_pages": default.info.get("train_pages"),
                        "train_blocks": default.info.get("train_blocks")}}
        log.info("nothing held out: %s", state["check_default"])
        state_file.write_text(json.dumps(state, indent=1) + "\n")

    for held in sorted(args.source or ([] if args.check_default else tests)):
        if held not in tests:
            raise SystemExit(f"{held}: no test pages in {args.bench}")
        t_fold = time.perf_counter()
        model_file = work / "models" / f"{held}.json"
        if model_file.exists() and not args.refit:
            model = load_model(model_file)
        else:
            model = fit_fold(held, fitting, cache_pages, args.source_weight, settings)
            model_file.parent.mkdir(parents=True, exist_ok=True)
            model.save(model_file)
        recs = sorted(tests[held], key=lambda r: r.id)
        folder = page_folder(held, recs, work)
        runs = {"loso": run_cli(folder, work / "out" / "loso" / held, str(model_file)),
                "default": run_cli(folder, work / "out" / "default" / held, None)}
        run_trafilatura(recs, work / "out" / "trafilatura" / held)
        per = {name: scores(recs, work / "out" / name / held) for name in SYSTEMS}
        state["sources"][held] = {
            "fold": {"trees": int(model.classifier.best_iteration_), "thresholds": model.thresholds,
                     **model.info, "runs": runs,
                     "fold_wall_seconds": round(time.perf_counter() - t_fold, 1)},
            "pages": [{"dataset": r.dataset, "id": r.id, "site": r.site, "lang": r.lang,
                       "page_type": r.extra.get("page_type"),
                       **{name: [round(v, 5) for v in per[name][i]] for name in SYSTEMS}}
                      for i, r in enumerate(recs)],
        }
        f1 = {name: float(np.mean([v[2] for v in per[name]])) for name in SYSTEMS}
        log.info("%s: %d pages, LOSO F1 %.3f, default %.3f, trafilatura %.3f (fold %.0fs)", held, len(recs),
                 f1["loso"], f1["default"], f1["trafilatura"], time.perf_counter() - t_fold)
        _save(state_file, state)
    _save(state_file, state)
    text = report(state)
    state_file.write_text(json.dumps(state, indent=1) + "\n")
    print(text)
    return 0


def _save(state_file: Path, state: dict) -> None:
    """Write the state, keeping the folds another process (``--source`` in parallel) wrote meanwhile."""
    if state_file.exists():
        on_disk = json.loads(state_file.read_text()).get("sources", {})
        state["sources"] = {**on_disk, **state["sources"]}
    state_file.write_text(json.dumps(state, indent=1) + "\n")


if __name__ == "__main__":
    raise SystemExit(main())
