"""Site evidence on the command line: one site's pages as one batch, laid out as a user might
have them, against the same pages extracted with no site evidence.

For every site with at least ``--min-pages`` pages in the split (by default the test split,
where utomo_big9's and cleanportaleval's pages are each one site's), the pages are linked into
a folder named after the site's host and extracted with ``blockclf extract`` as one batch; the
written text is scored against the gold (DESIGN section 4). The same folder is extracted with
``--no-site``, which scores every page as if it were alone, and, with ``--page-by-page``, one
process per page as a shell loop would (the test split's figure in the docs).
Choices about site evidence are made on ``--split dev``.

    python benchmarks/site_folder.py [../shared/benchmark] [--split dev] [--min-pages 10]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from cli import written_text

from blockclf.evaluate import score_text


def _scored_text(out: Path, page_id: str) -> str:
    text = written_text(out, page_id)
    if text is None:
        raise SystemExit("site_folder.py scores text or JSON output, not Markdown or HTML")
    return text


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("bench", type=Path, nargs="?", default=Path(
        os.environ.get("BLOCKCLF_BENCH", Path(__file__).resolve().parents[2] / "shared" / "benchmark")))
    ap.add_argument("--split", default="test")
    ap.add_argument("--min-pages", type=int, default=15, help="sites with at least this many pages (default 15)")
    ap.add_argument("--page-by-page", action="store_true", help="also one process per page")
    ap.add_argument("--args", default="", help="extra arguments for every blockclf extract run")
    args = ap.parse_args()
    bench = args.bench.resolve()  # the pages are linked from a temporary folder: a relative path would not reach them
    with open(bench / "index.jsonl", encoding="utf-8") as fh:
        index = [json.loads(line) for line in fh]
    sites: dict[tuple[str, str], list[dict]] = defaultdict(list)
    for r in index:
        if r["split"] == args.split and r.get("domain"):
            sites[r["dataset"], r["domain"]].append(r)
    extra = args.args.split()
    totals: dict[str, list[float]] = defaultdict(list)
    print(f"| dataset | site | pages | one batch | --no-site | gain |{' page by page |' if args.page_by_page else ''}")
    print(f"|---|---|---:|---:|---:|---:|{'---:|' if args.page_by_page else ''}")
    for (ds, domain), recs in sorted(sites.items()):
        if len(recs) < args.min_pages:
            continue
        with tempfile.TemporaryDirectory() as tmp_name:
            tmp = Path(tmp_name)
            hosted = tmp / f"www.{domain}"
            hosted.mkdir()
            for r in recs:
                (hosted / f"{r['id']}.html.gz").symlink_to(bench / ds / "html" / f"{r['id']}.html.gz")

            def score(out: Path, recs: list[dict] = recs, ds: str = ds) -> list[float]:
                return [score_text(_scored_text(out, r["id"]),
                                   (bench / ds / "gold" / f"{r['id']}.txt").read_text(encoding="utf-8")).f1
                        for r in recs]

            row = {}
            for name, flags in (("batch", []), ("no-site", ["--no-site"])):
                out = tmp / name
                subprocess.run(["blockclf", "extract", str(hosted), "-o", str(out), *flags, *extra],
                               capture_output=True, check=True)
                row[name] = score(out)
            if args.page_by_page:
                one = tmp / "one"
                for r in recs:
                    subprocess.run(["blockclf", "extract", str(hosted / f"{r['id']}.html.gz"), "-o", str(one), *extra],
                                   capture_output=True, check=True)
                row["page by page"] = score(one)
        for name, f1s in row.items():
            totals[name].extend(f1s)
        mean = {name: sum(f1s) / len(f1s) for name, f1s in row.items()}
        print(f"| {ds} | {domain} | {len(recs)} | {mean['batch']:.4f} | {mean['no-site']:.4f} | "
              f"{mean['batch'] - mean['no-site']:+.4f} |"
              + (f" {mean['page by page']:.4f} |" if args.page_by_page else ""))
    if totals:
        mean = {name: sum(f1s) / len(f1s) for name, f1s in totals.items()}
        print(f"| all | | {len(totals['batch'])} | {mean['batch']:.4f} | {mean['no-site']:.4f} | "
              f"{mean['batch'] - mean['no-site']:+.4f} |"
              + (f" {mean['page by page']:.4f} |" if args.page_by_page else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
