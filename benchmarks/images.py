"""Images written with ``--images`` against the images of the expected structure, by file name.

The readability dataset ships ``gold_html/<id>.html``, Readability.js's output, which keeps an
article's images. Each page is extracted one at a time with the default model and written
as Markdown with images; an image counts as right when the expected HTML holds an image of
the same file name (the last part of its address's path: the expected HTML resolves addresses
against a stand-in host). An expected image without a ``src`` (Readability drops a lazy-loading
page's inline stand-in and keeps the element) is named by the addresses of its ``data-src``,
``srcset`` and ``data-srcset``: any of them matches it. Precision and recall are over all
images of the split's pages.

    python benchmarks/images.py [../shared/benchmark] [--split test|dev|train|train+dev]
"""

from __future__ import annotations

import argparse
import html
import os
import re
import sys
from pathlib import Path
from urllib.parse import unquote, urlsplit

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout without installing

from blockclf.data import read_index
from blockclf.predict import extract
from blockclf.render import to_markdown

_GOLD_IMAGE = re.compile(r"<img\b[^>]*>")
_ATTR = re.compile(r'([\w-]+)="([^"]*)"')
_MARKDOWN_IMAGE = re.compile(r"!\[[^\]]*\]\(([^)\s]*)\)")


def file_name(url: str) -> str:
    """The last part of an address's path, decoded and lower-cased: what the comparison keys on."""
    return unquote(urlsplit(url.strip()).path).rsplit("/", 1)[-1].lower()


def gold_names(gold_html: str) -> list[set[str]]:
    """Each expected image as the file names that match it: its ``src``'s, or where it has
    none, those of its lazy-loading addresses."""
    images = []
    for tag in _GOLD_IMAGE.findall(gold_html):
        attrs = dict(_ATTR.findall(tag))
        if attrs.get("src"):
            names = {file_name(html.unescape(attrs["src"]))}
        else:
            names = {file_name(html.unescape(attrs[a])) for a in ("data-src", "data-lazy-src") if attrs.get(a)}
            for a in ("srcset", "data-srcset"):
                names |= {file_name(html.unescape(c.strip().split(" ")[0]))
                          for c in re.split(r",\s+", attrs.get(a, "")) if c.strip()}
        if names - {""}:
            images.append(names - {""})
    return images


def matched(gold: list[set[str]], got: list[str]) -> int:
    """How many written images match an expected one, each expected image matched once."""
    left = list(gold)
    right = 0
    for name in got:
        i = next((i for i, names in enumerate(left) if name in names), None)
        if i is not None:
            left.pop(i)
            right += 1
    return right


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
        gold = gold_names(gold_path.read_text(encoding="utf-8"))
        res = extract(r.html_path, url=r.url)
        got = [file_name(u) for u in _MARKDOWN_IMAGE.findall(to_markdown(res, images=True))]
        right += matched(gold, got)
        written += len(got)
        expected += len(gold)
        pages += 1
    precision = right / written if written else 0.0
    recall = right / expected if expected else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    print(f"{args.split}: {pages} pages, {expected} images expected, {written} written, {right} right: "
          f"precision {precision:.3f}, recall {recall:.3f}, F1 {f1:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
