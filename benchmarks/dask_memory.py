"""Peak memory of Dask workers extracting a benchmark split under a stated memory limit.

A ``LocalCluster`` of two worker processes, one thread each, with ``--limit`` memory each,
extracts the split's pages (``--repeat`` times over, to see whether memory grows with the
batch) through `blockclf.distributed.iter_dask` with the shipped model. Worker memory is
sampled every 50 ms; the line printed says how many pages failed and why, and the peaks.

    python benchmarks/dask_memory.py [../shared/benchmark] --limit 1GB --repeat 3
"""

from __future__ import annotations

import argparse
import os
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from blockclf.batch import BatchOptions, Item
from blockclf.data import read_index


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("bench", type=Path, nargs="?",
                    default=Path(os.environ.get("BLOCKCLF_BENCH", Path(__file__).resolve().parents[2] / "shared"
                                                / "benchmark")))
    ap.add_argument("--split", default="test")
    ap.add_argument("--limit", default="1GB", help="memory_limit of each worker")
    ap.add_argument("--repeat", type=int, default=1, help="extract the pages this many times over, as one batch")
    args = ap.parse_args()
    import psutil
    from dask.distributed import Client, LocalCluster

    from blockclf.distributed import iter_dask

    records = read_index(args.bench, [args.split]) * args.repeat
    items = [Item(f"{i}:{r.key}", r.html_path, url=r.url) for i, r in enumerate(records)]
    with LocalCluster(n_workers=2, threads_per_worker=1, memory_limit=args.limit, processes=True,
                      dashboard_address=None) as cluster, Client(cluster) as client:
        procs = [psutil.Process(pid) for pid in client.run(os.getpid).values()]
        peak = {p.pid: 0 for p in procs}
        done = threading.Event()

        def sample() -> None:
            while not done.is_set():
                for p in procs:
                    try:
                        peak[p.pid] = max(peak[p.pid], p.memory_info().rss)
                    except psutil.Error:
                        pass
                time.sleep(0.05)

        sampler = threading.Thread(target=sample)
        sampler.start()
        t0 = time.perf_counter()
        failed: dict[str, int] = {}
        n = 0
        for outcome in iter_dask(items, BatchOptions(), client=client):
            n += 1
            if outcome.error is not None:
                failed[outcome.error.reason] = failed.get(outcome.error.reason, 0) + 1
        done.set()
        sampler.join()
        alive = sum(p.is_running() for p in procs)
    print(f"limit {args.limit}: {n} pages, {sum(failed.values())} failed {failed or ''}, "
          f"{time.perf_counter() - t0:.1f} s, worker peak RSS MB {[round(v / 2**20) for v in peak.values()]}, "
          f"first workers still alive: {alive} of {len(procs)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
