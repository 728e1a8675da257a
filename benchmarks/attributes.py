"""The most attributes on one tag over the benchmark's pages, and what the scan costs.

`blockclf.Limits.max_attributes` refuses a page before parsing when one tag holds more
attributes than it (libxml2's time grows faster than the square of the distinct attribute
names on one element). This prints the figures the limit was set from: the most attributes
on one tag over every page, its 99th percentile, and the scan's time per page.

Usage::

    python benchmarks/attributes.py                  # every page of ../shared/benchmark (or $BLOCKCLF_BENCH)
    python benchmarks/attributes.py --bench DIR
"""

from __future__ import annotations

import argparse
import gzip
import os
import time
from pathlib import Path

from blockclf.encoding import decode
from blockclf.html import Limits, most_attributes


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bench", default=os.environ.get("BLOCKCLF_BENCH", "../shared/benchmark"))
    args = ap.parse_args()
    counts: list[tuple[int, str]] = []
    spent = 0.0
    for path in sorted(Path(args.bench).glob("*/html/*.html.gz")):
        text, _ = decode(gzip.decompress(path.read_bytes()))
        t0 = time.perf_counter()
        counts.append((most_attributes(text), str(path.relative_to(args.bench))))
        spent += time.perf_counter() - t0
    if not counts:
        raise SystemExit(f"no pages under {args.bench}/*/html/")
    counts.sort()
    limit = Limits().max_attributes
    print(f"{len(counts)} pages; most attributes on one tag: {counts[-1][0]} ({counts[-1][1]}); "
          f"p99 {counts[int(0.99 * len(counts))][0]}; limit {limit} "
          f"({sum(c > limit for c, _ in counts)} pages over it); scan {1000 * spent / len(counts):.2f} ms per page")


if __name__ == "__main__":
    main()
