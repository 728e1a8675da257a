"""Site evidence on the command line: one site's test pages as one batch, laid out as a user
might have them, against the same pages extracted one by one.

For utomo_big9 and cleanportaleval (each test split is one site's pages), the pages are
linked into a plain folder and into a folder named after the site's host, then extracted
with ``blockclf extract`` as one batch (plain folder, host-named folder, ``--site``,
``--no-site``) and one process per page; the written text is scored against the gold.

    python benchmarks/site_folder.py [../shared/benchmark]
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from blockclf.evaluate import score_text  # noqa: E402


def main() -> int:
    bench = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(
        os.environ.get("BLOCKCLF_BENCH", Path(__file__).resolve().parents[2] / "shared" / "benchmark"))
    bench = bench.resolve()  # the pages are linked from a temporary folder: a relative path would not reach them
    index = [json.loads(line) for line in open(bench / "index.jsonl", encoding="utf-8")]
    for ds in ("utomo_big9", "cleanportaleval"):
        recs = [r for r in index if r["dataset"] == ds and r["split"] == "test"]
        with tempfile.TemporaryDirectory() as tmp_name:
            tmp = Path(tmp_name)
            plain, hosted = tmp / "pages", tmp / f"www.{recs[0]['domain']}"
            for folder in (plain, hosted):
                folder.mkdir()
                for r in recs:
                    (folder / f"{r['id']}.html.gz").symlink_to(bench / ds / "html" / f"{r['id']}.html.gz")

            def score(out: Path) -> float:
                return sum(score_text((out / f"{r['id']}.txt").read_text(encoding="utf-8"),
                                      (bench / ds / "gold" / f"{r['id']}.txt").read_text(encoding="utf-8")).f1
                           for r in recs) / len(recs)

            runs = {"batch, plain folder": (plain, []), "batch, host-named folder": (hosted, []),
                    "batch, --site": (plain, ["--site", recs[0]["domain"]]), "batch, --no-site": (plain, ["--no-site"])}
            for name, (folder, extra) in runs.items():
                out = tmp / f"out{len(extra)}{folder.name}"
                subprocess.run(["blockclf", "extract", str(folder), "-o", str(out), *extra], capture_output=True)
                print(f"{ds:16s} {name:26s} F1 {score(out):.4f}")
            one = tmp / "one"
            for r in recs:
                subprocess.run(["blockclf", "extract", str(plain / f"{r['id']}.html.gz"), "-o", str(one)],
                               capture_output=True)
            print(f"{ds:16s} {'page by page':26s} F1 {score(one):.4f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
