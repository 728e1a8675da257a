"""Pages per second of blockclf and its peers on the same pages, side by side in one run.

Every system gets the page's raw bytes (decoding and parsing are part of the timed call) and
returns plain text. Systems are interleaved page by page, each one before and after each other
one equally often, so a load spike on a shared machine hits all of them alike and none gains
from caches another one warmed; the ratios are the figures to compare.
Peers that are not installed are reported and skipped (install them with the ``bench``
extra). Peak memory is measured separately: each system runs alone over the pages in a
fresh process, and the table shows that process's peak resident memory.

Usage::

    python benchmarks/speed.py                       # test split of ../shared/benchmark
    python benchmarks/speed.py --pages DIR --limit 300
    python benchmarks/speed.py --json speed.json --no-memory
"""

from __future__ import annotations

import argparse
import json
import logging
import multiprocessing as mp
import os
import resource
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

Runner = Callable[[bytes], str]


# -- the systems -------------------------------------------------------------------------------

def _blockclf(model: str | None = None) -> Runner:
    import blockclf

    mdl = blockclf.load_model(model)
    blockclf.extract(b"<html><body><p>warm up the model</p></body></html>", model=mdl)

    def run(data: bytes) -> str:
        try:
            return blockclf.extract(data, model=mdl).text
        except blockclf.PageError:
            return ""

    return run


def _trafilatura() -> Runner:
    import trafilatura

    def run(data: bytes) -> str:
        return trafilatura.extract(data, include_comments=False, include_tables=True) or ""

    return run


def _resiliparse() -> Runner:
    from resiliparse.extract.html2text import extract_plain_text
    from resiliparse.parse.encoding import bytes_to_str, detect_encoding

    def run(data: bytes) -> str:
        return extract_plain_text(bytes_to_str(data, detect_encoding(data)), main_content=True)

    return run


def _readability() -> Runner:
    import lxml.html
    from readability import Document

    def run(data: bytes) -> str:
        summary = Document(data).summary()
        return lxml.html.fromstring(summary).text_content() if summary.strip() else ""

    return run


def _justext() -> Runner:
    import justext

    stoplist = justext.get_stoplist("English")

    def run(data: bytes) -> str:
        return "\n".join(p.text for p in justext.justext(data, stoplist) if not p.is_boilerplate)

    return run


def _blockclf_batch(model: str | None = None) -> Callable[[list[bytes]], list[str]]:
    """The command line's path: a streaming batch, one LightGBM call per chunk, site evidence on."""
    from blockclf import load_model
    from blockclf.batch import BatchOptions, Item, run_batch

    opts = BatchOptions(model=load_model(model), transform=lambda res: res.text)

    def run(chunk: list[bytes]) -> list[str]:
        items = [Item(str(i), data) for i, data in enumerate(chunk)]
        return [o.result or "" for o in run_batch(items, opts)]

    return run


#: systems that take a chunk of pages at once, by the system whose batch they are; timed per
#: chunk, interleaved with the others
BATCH_SYSTEMS: dict[str, tuple[str, Callable[[], Callable[[list[bytes]], list[str]]]]] = {
    "blockclf": ("blockclf (batch)", _blockclf_batch),
    "blockclf-refined": ("blockclf-refined (batch)", lambda: _blockclf_batch("refined")),
}

SYSTEMS: dict[str, Callable[[], Runner]] = {
    "blockclf": _blockclf,
    "blockclf-refined": lambda: _blockclf("refined"),
    "trafilatura": _trafilatura,
    "resiliparse": _resiliparse,
    "readability-lxml": _readability,
    "justext": _justext,
}


# -- pages -------------------------------------------------------------------------------------

def default_bench() -> Path:
    return Path(os.environ.get("BLOCKCLF_BENCH") or ROOT.parent / "shared" / "benchmark")


def page_paths(pages: Path | None, bench: Path, split: str, limit: int | None) -> list[Path]:
    """The page files: a folder of HTML files, or one split of a benchmark."""
    from blockclf.cli import collect_inputs
    from blockclf.data import read_index

    if pages is not None:
        paths = [p for p, _ in collect_inputs([str(pages)])]
    else:
        paths = [r.html_path for r in read_index(bench, None if split == "all" else [split])]
    return paths[:limit] if limit else paths


def load_pages(pages: Path | None, bench: Path, split: str, limit: int | None) -> list[tuple[str, bytes]]:
    """``(name, raw bytes)`` of every page."""
    from blockclf.html import read_source

    return [(str(p), read_source(p)) for p in page_paths(pages, bench, split, limit)]


# -- measuring ---------------------------------------------------------------------------------

def time_interleaved(runners: dict[str, Runner], pages: list[tuple[str, bytes]],
                     batch_runners: dict[str, Callable[[list[bytes]], list[str]]] | None = None,
                     chunk: int = 64) -> dict[str, dict]:
    """Per system: the wall time of each page, and the pages that raised.

    Per-page systems rotate order page by page, and each order is used twice running, once
    reversed, so that every system follows every other one equally often: a system run right
    after another on the same page finds the page, and any code the two share, warm in the
    processor's caches.
    Batch systems run on each chunk of pages right after the per-page systems did, in an
    order reversed from chunk to chunk, and each page is charged the chunk's mean time.
    """
    batch_runners = batch_runners or {}
    names = list(runners)
    times: dict[str, list[float]] = {n: [] for n in [*names, *batch_runners]}
    failed: dict[str, int] = {n: 0 for n in times}
    for start in range(0, len(pages), chunk):
        part = pages[start:start + chunk]
        for i, (_, data) in enumerate(part, start):
            k = (i // 2) % len(names) if names else 0
            order = names[k:] + names[:k]
            for name in order[::-1] if i % 2 else order:
                t0 = time.perf_counter()
                try:
                    runners[name](data)
                except Exception:
                    failed[name] += 1
                times[name].append(time.perf_counter() - t0)
        batch_order = list(batch_runners.items())
        for name, run in batch_order[::-1] if (start // chunk) % 2 else batch_order:
            t0 = time.perf_counter()
            texts = run([data for _, data in part])
            mean = (time.perf_counter() - t0) / len(part)
            times[name].extend([mean] * len(part))
            failed[name] += len(part) - len(texts)
    return {n: {"times": times[n], "failed": failed[n]} for n in times}


def peak_rss_mb() -> float:
    """This process's peak resident memory in MB.

    Linux's ``VmHWM`` starts afresh at exec; ``ru_maxrss`` would carry over the parent's peak
    into a spawned child, so it is only the fallback.
    """
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _peak_child(name: str, pages: list[tuple[str, bytes]], queue: mp.Queue) -> None:
    logging.disable(logging.CRITICAL)
    base = peak_rss_mb()
    run = SYSTEMS[name]()
    for _, data in pages:
        try:
            run(data)
        except Exception:
            pass
    queue.put((base, peak_rss_mb()))


def peak_memory(name: str, pages: list[tuple[str, bytes]]) -> tuple[float, float]:
    """Peak RSS (MB) of a fresh process running only ``name`` over ``pages``; and at start."""
    ctx = mp.get_context("spawn")
    queue = ctx.Queue()
    proc = ctx.Process(target=_peak_child, args=(name, pages, queue))
    proc.start()
    base, peak = queue.get()
    proc.join()
    return peak, base


def _rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def stream_memory(paths: list[Path], n: int, every: int = 500) -> int:
    """Run the streaming batch over ``n`` pages (cycling through ``paths``); print RSS as it goes."""
    from blockclf.batch import BatchOptions, Item, run_batch

    items = [Item(f"{i}:{paths[i % len(paths)]}", paths[i % len(paths)]) for i in range(n)]
    opts = BatchOptions(transform=lambda res: len(res.text))
    t0 = time.perf_counter()
    print(f"streaming batch over {n} pages ({len(paths)} distinct, cycled), site evidence on", file=sys.stderr)
    print("| pages scored | RSS MB | peak RSS MB | seconds |\n|---|---|---|---|")
    failed = 0
    for done, o in enumerate(run_batch(items, opts), start=1):
        failed += o.error is not None
        if done % every == 0 or done == n:
            print(f"| {done} | {_rss_mb():.0f} | {peak_rss_mb():.0f} | {time.perf_counter() - t0:.0f} |", flush=True)
    print(f"\n{failed} pages skipped; peak RSS over the whole run (both passes): {peak_rss_mb():.0f} MB")
    return 0


def table(stats: dict[str, dict], n_pages: int, memory: dict[str, tuple[float, float]]) -> str:
    rate = {n: n_pages / sum(s["times"]) for n, s in stats.items()}
    head = "| system | pages/s | × trafilatura | × resiliparse | ms/page p50 | ms/page p95 | failed | peak RSS MB |"
    rows = [head, "|" + "---|" * 8]
    for name, s in sorted(stats.items(), key=lambda kv: -rate[kv[0]]):
        ms = sorted(t * 1000 for t in s["times"])
        p95 = ms[min(len(ms) - 1, round(0.95 * (len(ms) - 1)))]
        ratio = {p: f"{rate[name] / rate[p]:.2f}" if p in rate else "–" for p in ("trafilatura", "resiliparse")}
        mem = f"{memory[name][0]:.0f}" if name in memory else "–"
        rows.append(f"| {name} | {rate[name]:.1f} | {ratio['trafilatura']} | {ratio['resiliparse']} | "
                    f"{statistics.median(ms):.1f} | {p95:.1f} | {s['failed']} | {mem} |")
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--pages", type=Path, help="a folder of .html/.htm/.html.gz pages (default: a benchmark split)")
    ap.add_argument("--bench", type=Path, default=default_bench(),
                    help="benchmark folder (default ../shared/benchmark)")
    ap.add_argument("--split", default="test", help="benchmark split, or 'all' (default test)")
    ap.add_argument("--limit", type=int, help="only the first N pages")
    ap.add_argument("--systems", nargs="+", default=list(SYSTEMS), choices=list(SYSTEMS))
    ap.add_argument("--no-batch", action="store_true", help="skip the blockclf batch row")
    ap.add_argument("--chunk", type=int, default=64, help="pages per chunk for the batch row (default 64)")
    ap.add_argument("--no-memory", action="store_true", help="skip the per-system peak memory runs")
    ap.add_argument("--memory-pages", type=int, default=300, help="pages for each memory run (default 300)")
    ap.add_argument("--json", type=Path, help="also write the raw figures here")
    ap.add_argument("--stream", type=int, metavar="N",
                    help="instead: memory of one streaming batch over N pages (the pages repeated)")
    args = ap.parse_args(argv)

    if args.pages is None and not (args.bench / "index.jsonl").exists():
        print(f"no benchmark at {args.bench}: give --pages DIR or --bench DIR", file=sys.stderr)
        return 2
    logging.disable(logging.CRITICAL)  # peers log every page they cannot handle
    if args.stream:
        return stream_memory(page_paths(args.pages, args.bench, args.split, args.limit), args.stream)
    pages = load_pages(args.pages, args.bench, args.split, args.limit)
    runners: dict[str, Runner] = {}
    for name in args.systems:
        try:
            runners[name] = SYSTEMS[name]()
        except ImportError as exc:
            print(f"{name}: not installed, skipped ({exc.name}); pip install 'blockclf[bench]'", file=sys.stderr)
    if not pages or not runners:
        print("nothing to measure", file=sys.stderr)
        return 2
    print(f"{len(pages)} pages ({sum(len(d) for _, d in pages) / 1e6:.1f} MB of HTML), "
          f"systems interleaved page by page, one process, wall time per call", file=sys.stderr)
    batch = {} if args.no_batch else {BATCH_SYSTEMS[n][0]: BATCH_SYSTEMS[n][1]() for n in runners if n in BATCH_SYSTEMS}
    stats = time_interleaved(runners, pages, batch, args.chunk)
    memory = {} if args.no_memory else {n: peak_memory(n, pages[: args.memory_pages]) for n in runners}
    print(table(stats, len(pages), memory))
    if memory:
        print(f"\npeak RSS: a fresh process running one system over {min(len(pages), args.memory_pages)} pages "
              "(includes the interpreter, the libraries and the pages' bytes)")
    if args.json:
        args.json.write_text(json.dumps({"pages": len(pages), "stats": stats, "memory": memory}), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
