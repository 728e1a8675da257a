"""Images written with ``--images`` against the images of the expected structure, by file name.

The readability dataset ships ``gold_html/<id>.html``, Readability.js's output, which keeps an
article's images. Each page is extracted one at a time with the default model and written
as Markdown with images; an image counts as right when the expected HTML holds an image of
the same file name (the last part of its address's path: the expected HTML resolves addresses
against a stand-in host). Precision and recall are over all images of the split's pages.

    python benchmarks/images.py [../shared/benchmark] [--split test|dev|train|train+dev]
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from collections import Counter
from pathlib import Path
from urllib.parse import unquote, urlsplit

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout without installing

from blockclf.data import read_index  # noqa: E402
from blockclf.predict import extract  # noqa: E402
from blockclf.render import to_markdown  # noqa: E402

_GOLD_IMAGE = re.compile(r"<img[^>]*\bsrc=\"([^\"]*)\"")
_MARKDOWN_IMAGE = re.compile(r"!\[[^\]]*\]\(([^)\s]*)\)")


def file_name(url: str) -> str:
    """The last part of an address's path, decoded and lower-cased: what the comparison keys on."""
    return unquote(urlsplit(url.strip()).path).rsplit("/", 1)[-1].lower()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("bench", type=Path, nargs="?",
                    default=Path(os.environ.get("BLOCKCLF_BENCH", "../shared/benchmark")))
    ap.add_argument("--split", default="test", help="a split, or several joined by + (train+dev)")
    args = ap.parse_args(argv)
    right = written = expected = pages = 0
    for r in read_index(args.bench, args.split.split("+"), ["readability"]):
        gold_path = args.bench / "readability" / "gold_html" / f"{r.id}.html"
        if not gold_path.exists():
            continue
        gold = Counter(file_name(u) for u in _GOLD_IMAGE.findall(gold_path.read_text(encoding="utf-8")))
        res = extract(r.html_path, url=r.url)
        got = Counter(file_name(u) for u in _MARKDOWN_IMAGE.findall(to_markdown(res, images=True)))
        right += sum((gold & got).values())
        written += sum(got.values())
        expected += sum(gold.values())
        pages += 1
    precision = right / written if written else 0.0
    recall = right / expected if expected else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    print(f"{args.split}: {pages} pages, {expected} images expected, {written} written, {right} right: "
          f"precision {precision:.3f}, recall {recall:.3f}, F1 {f1:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
