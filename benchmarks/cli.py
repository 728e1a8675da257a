"""The installed ``blockclf`` command as a user runs it: whole-process speed against trafilatura,
and the quality of the files it writes, on the same folders in one run.

Each dataset's pages of a split are laid out as one folder (links to the benchmark's files,
in a temporary directory). For every folder, ``blockclf extract FOLDER -o OUT`` runs as its
own process (start-up, both passes and writing the outputs included), and so does a Python
process that runs trafilatura over the same files and writes one ``.txt`` per page; the two
take turns going first from folder to folder, so a load spike on a shared machine hits both.
The ratio of the summed wall times is the figure to compare. Then blockclf's written text
files are scored against the gold text (DESIGN section 4), as a user would score them.
A shared host's speed swings by several percent within minutes: ``--rounds N`` times every
folder N times over (each round into fresh output folders, the order still alternating) and
gives each round's ratio and their median; the quality is that of the first round's files.

    python benchmarks/cli.py                               # test split, every dataset
    python benchmarks/cli.py --dataset wcxb --args=--jobs=2
    python benchmarks/cli.py --no-peer --args=--no-site    # quality of other settings only
    python benchmarks/cli.py --peer-jobs 2                 # trafilatura on two processes too
    python benchmarks/cli.py --rounds 3                    # three rounds of timing, their median ratio
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from blockclf.data import read_index  # noqa: E402
from blockclf.evaluate import score_text  # noqa: E402

#: trafilatura over a folder as one process: read, extract, write one .txt per page
PEER = r"""
import gzip, sys
from multiprocessing import Pool
from pathlib import Path
import trafilatura
src, out, jobs = Path(sys.argv[1]), Path(sys.argv[2]), int(sys.argv[3])

def one(f):
    data = gzip.decompress(f.read_bytes())
    text = trafilatura.extract(data, include_comments=False, include_tables=True) or ""
    target = out / f.relative_to(src).with_suffix("").with_suffix(".txt")
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(text + "\n", encoding="utf-8")

files = sorted(src.rglob("*.html.gz"))
if jobs > 1:
    with Pool(jobs) as pool:  # forked after trafilatura is imported, as blockclf's workers are
        pool.map(one, files, chunksize=4)
else:
    for f in files:
        one(f)
"""


def _run(cmd: list[str]) -> tuple[float, int, str]:
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    return time.perf_counter() - t0, proc.returncode, proc.stderr


def written_text(folder: Path, page_id: str) -> str | None:
    """The text written for a page in ``folder``: its ``.txt`` file, or the ``text`` field of
    its ``.json`` (``--format json``); "" when nothing was written (a skipped page); None when
    it was written only as Markdown or HTML, which are not scored as text."""
    txt, js = folder / f"{page_id}.txt", folder / f"{page_id}.json"
    if txt.exists():
        return txt.read_text(encoding="utf-8")
    if js.exists():
        return json.loads(js.read_text(encoding="utf-8")).get("text") or ""
    if any((folder / f"{page_id}{ext}").exists() for ext in (".md", ".html")):
        return None
    return ""


#: per-language tables are printed for the datasets with pages in at least this many languages
MANY_LANGUAGES = 5


def _group_tables(records: list, work: Path, systems: list[str]) -> dict[str, dict[str, dict]]:
    """Print, and return, mean F1 by page type (where the index gives one) and by language
    (for datasets in many languages), for every system whose outputs are in ``work``."""
    def f1(system: str, r) -> float:
        return score_text(written_text(work / system / r.dataset, r.id) or "", r.read_gold()).f1

    langs = defaultdict(set)
    for r in records:
        langs[r.dataset].add(r.lang)
    keys = {"page type": lambda r: r.extra.get("page_type"),
            "language": lambda r: (r.lang or "unknown") if len(langs[r.dataset]) >= MANY_LANGUAGES else None}
    tables: dict[str, dict[str, dict]] = {}
    for title, key in keys.items():
        groups = defaultdict(list)
        for r in records:
            if key(r) is not None:
                groups[f"{r.dataset} {key(r)}"].append(r)
        if not groups:
            continue
        print(f"\n| dataset {title} | pages | " + " | ".join(f"{s} F1" for s in systems) + " |")
        print("|---|---:|" + "---:|" * len(systems))
        for name, recs in sorted(groups.items(), key=lambda g: (g[0].split()[0], -len(g[1]), g[0])):
            means = {s: sum(f1(s, r) for r in recs) / len(recs) for s in systems}
            tables.setdefault(title, {})[name] = {"pages": len(recs), **{s: round(v, 4) for s, v in means.items()}}
            print(f"| {name} | {len(recs)} | " + " | ".join(f"{means[s]:.3f}" for s in systems) + " |")
    return tables


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("bench", type=Path, nargs="?", default=Path(os.environ.get("BLOCKCLF_BENCH", ROOT.parent / "shared"
                                                                                 / "benchmark")))
    ap.add_argument("--split", default="test")
    ap.add_argument("--dataset", action="append", help="only this dataset (repeatable)")
    ap.add_argument("--args", default="", help="extra arguments for blockclf extract, e.g. --args='--jobs 2'")
    ap.add_argument("--no-peer", action="store_true", help="run blockclf only (quality of other settings)")
    ap.add_argument("--peer-jobs", type=int, default=1,
                    help="run trafilatura in this many processes (default 1: a loop, as a script calls it)")
    ap.add_argument("--rounds", type=int, default=1, help="time every folder this many times (default 1)")
    ap.add_argument("--keep", type=Path, help="keep the outputs in this folder")
    ap.add_argument("--json", type=Path, help="write the figures here")
    args = ap.parse_args(argv)
    records = read_index(args.bench, [args.split], args.dataset)
    exe = shutil.which("blockclf")
    if exe is None:
        print("the blockclf command is not installed (pip install .)", file=sys.stderr)
        return 2
    peer = not args.no_peer
    if peer:
        try:
            import trafilatura  # noqa: F401
        except ImportError:
            print("trafilatura is not installed (pip install '.[bench]'); use --no-peer", file=sys.stderr)
            return 2
    work = Path(tempfile.mkdtemp(prefix="blockclf-cli-"))
    by_set: dict[str, list] = defaultdict(list)
    for r in records:
        by_set[r.dataset].append(r)
    for dataset, recs in by_set.items():
        folder = work / "pages" / dataset
        folder.mkdir(parents=True)
        for r in recs:
            os.symlink(r.html_path.resolve(), folder / f"{r.id}.html.gz")
    rounds: list[dict[str, float]] = []
    for round_ in range(max(args.rounds, 1)):
        seconds: dict[str, float] = defaultdict(float)
        for n, dataset in enumerate(sorted(by_set)):
            folder = work / "pages" / dataset
            outs = {name: work / (name if round_ == 0 else f"{name}-round{round_ + 1}") / dataset
                    for name in ("blockclf", "trafilatura")}
            runs = {"blockclf": [exe, "extract", str(folder), "-o", str(outs["blockclf"]), *shlex.split(args.args)]}
            if peer:
                runs["trafilatura"] = [sys.executable, "-c", PEER, str(folder), str(outs["trafilatura"]),
                                       str(args.peer_jobs)]
            order = list(runs) if n % 2 == 0 else list(reversed(runs))
            for name in order:
                secs, code, err = _run(runs[name])
                seconds[name] += secs
                if code not in (0, 1):
                    print(f"{name} failed on {dataset} (exit {code}): {err.strip()[-300:]}", file=sys.stderr)
                    return 1
            print(f"{dataset}: {len(by_set[dataset])} pages, "
                  + ", ".join(f"{k} {seconds[k]:.1f}s so far" for k in order), file=sys.stderr)
        rounds.append(seconds)
        if round_ > 0:  # only the first round's files are scored
            for name in ("blockclf", "trafilatura"):
                shutil.rmtree(work / f"{name}-round{round_ + 1}", ignore_errors=True)
    seconds = rounds[0]
    figures: dict[str, dict] = {"pages": {"n": len(records)}}
    for name, secs in seconds.items():
        figures[name] = {"seconds": round(secs, 2), "pages_per_s": round(len(records) / secs, 2)}
    if len(rounds) > 1:
        figures["rounds"] = {"seconds": [{k: round(v, 2) for k, v in r.items()} for r in rounds]}
    # quality of what the command wrote (its text files, or the text of its JSON)
    texts = [written_text(work / "blockclf" / r.dataset, r.id) for r in records]
    if any(t is None for t in texts):
        print("\nquality not scored: the pages were written as Markdown or HTML (score text or JSON output)")
        return _finish(args, figures, seconds, work)
    rows = defaultdict(list)
    for r, text in zip(records, texts):
        s = score_text(text or "", r.read_gold())
        rows[r.dataset].append((s.precision, s.recall, s.f1))
    print(f"\nsplit {args.split}, {len(records)} pages, blockclf extract DIR -o OUT {args.args}".rstrip())
    print("| dataset | pages | P | R | F1 |\n|---|---:|---:|---:|---:|")
    every = []
    for dataset, vals in sorted(rows.items()):
        every += vals
        p, r_, f = (sum(v[i] for v in vals) / len(vals) for i in range(3))
        print(f"| {dataset} | {len(vals)} | {p:.3f} | {r_:.3f} | {f:.3f} |")
        figures.setdefault("quality", {})[dataset] = {"pages": len(vals), "precision": round(p, 4),
                                                      "recall": round(r_, 4), "f1": round(f, 4)}
    p, r_, f = (sum(v[i] for v in every) / len(every) for i in range(3))
    print(f"| all | {len(every)} | {p:.3f} | {r_:.3f} | {f:.3f} |")
    figures.setdefault("quality", {})["all"] = {"pages": len(every), "precision": round(p, 4), "recall": round(r_, 4),
                                                "f1": round(f, 4)}
    figures["groups"] = _group_tables(records, work, list(seconds))
    return _finish(args, figures, seconds, work)


def _finish(args: argparse.Namespace, figures: dict[str, dict], seconds: dict[str, float], work: Path) -> int:
    """Print the speed figures, write them (``--json``), keep the outputs (``--keep``), clean up."""
    print()
    for name in seconds:
        print(f"{name}: {figures[name]['pages_per_s']:.1f} pages/s ({figures[name]['seconds']:.1f} s, whole processes)")
    if "trafilatura" in seconds:
        ratio = figures["blockclf"]["pages_per_s"] / figures["trafilatura"]["pages_per_s"]
        figures["ratio"] = round(ratio, 3)
        print(f"blockclf x trafilatura: {ratio:.2f}")
        if "rounds" in figures:
            ratios = [r["trafilatura"] / r["blockclf"] for r in figures["rounds"]["seconds"]]
            figures["rounds"]["ratios"] = [round(x, 3) for x in ratios]
            figures["rounds"]["median_ratio"] = round(statistics.median(ratios), 3)
            print(f"each round's ratio: {', '.join(f'{x:.2f}' for x in ratios)}; "
                  f"median of {len(ratios)}: {statistics.median(ratios):.2f}")
    if args.json:
        args.json.write_text(json.dumps(figures, indent=1) + "\n")
    if args.keep:
        shutil.copytree(work, args.keep, dirs_exist_ok=True)
    shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
