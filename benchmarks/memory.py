"""Peak memory of the installed ``blockclf`` command over one large folder, as a corpus builder
runs it: the index's first N pages (all splits, 5,000 by default) linked into one folder,
``blockclf extract DIR -o OUT`` as one process with its workers.

Every 0.3 s the proportional set sizes (PSS: shared pages split among the processes that
share them, so forked workers are not counted twice) of the command and all its descendants
are read from ``/proc`` and summed; the peak is the figure (target: under 500 MB). Wall time
and the CPU time of the whole process tree are printed too (psutil, the ``bench`` extra).
Linux only: other systems give no PSS.

    python benchmarks/memory.py [../shared/benchmark] [--pages 5000] [--args="--format json"]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import psutil  # the bench extra


def link_pages(bench: Path, n: int, folder: Path) -> int:
    """Link the index's first ``n`` pages that have HTML into ``folder``; how many were linked."""
    done = 0
    with open(bench / "index.jsonl", encoding="utf-8") as fh:
        for line in fh:
            rec = json.loads(line)
            src = bench / rec["dataset"] / "html" / f"{rec['id']}.html.gz"
            if not src.exists():
                continue
            os.symlink(src.resolve(), folder / f"{rec['dataset']}__{rec['id']}.html.gz")
            done += 1
            if done >= n:
                break
    return done


def tree_pss_kb(pid: int) -> int:
    """Summed PSS of ``pid`` and all its descendants, in kB (a process that ends meanwhile counts 0)."""
    try:
        root = psutil.Process(pid)
        procs = [root, *root.children(recursive=True)]
    except psutil.Error:
        return 0
    total = 0
    for proc in procs:
        try:
            total += proc.memory_full_info().pss
        except psutil.Error:
            pass
    return total // 1024


def run_sampled(cmd: list[str], every: float = 0.3) -> dict[str, float]:
    """Run ``cmd``; its exit status, peak summed PSS (MB), wall and CPU seconds of its tree."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    peak = 0
    while proc.poll() is None:
        peak = max(peak, tree_pss_kb(proc.pid))
        time.sleep(every)
    wall = time.perf_counter() - start
    stderr = proc.stderr.read().decode("utf-8", "replace") if proc.stderr else ""
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return {"status": proc.returncode, "peak_mb": peak / 1024, "wall_s": wall,
            "user_s": after.ru_utime - before.ru_utime, "sys_s": after.ru_stime - before.ru_stime,
            "stderr_tail": stderr.strip().splitlines()[-1] if stderr.strip() else ""}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("bench", type=Path, nargs="?", default=Path(
        os.environ.get("BLOCKCLF_BENCH", Path(__file__).resolve().parents[2] / "shared" / "benchmark")))
    ap.add_argument("--pages", type=int, default=5000, help="the index's first N pages (default 5000)")
    ap.add_argument("--args", default="", help="extra arguments for blockclf extract, e.g. --args='--format json'")
    args = ap.parse_args()
    if not sys.platform.startswith("linux"):
        print("memory.py sums proportional set sizes, which only Linux gives", file=sys.stderr)
        return 2
    exe = shutil.which("blockclf")
    if exe is None:
        print("no blockclf command on PATH: install the package first", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="blockclf-memory-") as tmp:
        folder, out = Path(tmp) / "pages", Path(tmp) / "out"
        folder.mkdir()
        n = link_pages(args.bench.resolve(), args.pages, folder)
        cmd = [exe, "extract", str(folder), "-o", str(out), *shlex.split(args.args)]
        res = run_sampled(cmd)
    print(f"{n} pages, blockclf extract DIR -o OUT {args.args}".rstrip())
    print(f"exit status {res['status']}; peak {res['peak_mb']:.0f} MB (PSS of the command and its workers, summed); "
          f"wall {res['wall_s']:.1f} s; CPU {res['user_s'] + res['sys_s']:.1f} s "
          f"(user {res['user_s']:.1f}, system {res['sys_s']:.1f})")
    if res["stderr_tail"]:
        print(f"stderr: {res['stderr_tail']}")
    return 0 if res["status"] in (0, 1) else 1


if __name__ == "__main__":
    raise SystemExit(main())
