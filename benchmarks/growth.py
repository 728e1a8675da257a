"""Hostile pages: does a page's cost grow with its size, or faster?

Each kind of page below is built at ``--size`` and at four times it, extracted with the
library's defaults and written as Markdown, text and JSON; the script prints both times and
their ratio. Work that grows with the page gives about 4; work that grows with its square
gives about 16, and a page of a few hundred kilobytes then takes seconds to minutes. The
kinds are what real pages carry in bulk (keyword-stuffed titles, paragraphs of bold words,
thousands of comments, posts, table cells, list items, headings, dates, bylines, images, rules).
The exit status is 1 when a ratio is over ``--max-ratio`` (default 6).

    python benchmarks/growth.py                 # sizes 2,000 and 8,000
    python benchmarks/growth.py --size 5000 --only emphasis
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from blockclf import extract
from blockclf.render import to_markdown, to_text

PROSE = "<p>Some text of the article that is long enough to be kept as prose, with commas, and more words.</p>"


def _ld(obj: object) -> str:
    return f'<script type="application/ld+json">{json.dumps(obj)}</script>'


#: each kind: a page body of ``n`` repeated items (a title of n / 16 parts: a title is cut at 1,000
#: characters, 500 such parts)
KINDS: dict[str, Callable[[int], str]] = {
    "title of many parts": lambda n: "<title>" + "|".join(["a"] * min(n // 16, 500)) + "</title><h1>a a</h1>" + PROSE,
    "emphasis in one paragraph": lambda n: "<title>T</title><h1>T</h1><p>"
    + "<b>*x*</b><i>_y_</i><code>`z`</code><s>~w~</s>[a](b) " * n + "</p>",
    "h1 headings": lambda n: "<title>A | B</title>" + "".join(f"<h1>Head {i}</h1>{PROSE}" for i in range(n)),
    "headings beside a long title": lambda n: "<title>" + " | ".join(f"w{i}" for i in range(150)) + "</title>"
    + "".join(f"<h2>w0 w1 x{i}</h2>" for i in range(n)) + PROSE,
    "dated elements": lambda n: "<title>T</title><h1>T</h1>"
    + "".join(f"<span class='date published'>Updated January {i % 28 + 1}, 2020</span>" for i in range(n)) + PROSE,
    "bylines": lambda n: "<title>T</title><h1>T</h1>"
    + "".join(f"<p>By Jane Doe {i} on January 5, 2020 at 9:30 am</p>" for i in range(n)) + PROSE,
    "meta tags": lambda n: "<title>T</title>"
    + "".join(f"<meta name='author' content='Jane {i}'><meta property='article:tag' content='t{i}'>" for i in range(n))
    + "<h1>T</h1>" + PROSE,
    "JSON-LD blocks": lambda n: "<title>T</title>"
    + "".join(_ld({"@type": "NewsArticle", "headline": f"H{i}", "author": {"name": f"A{i}"}}) for i in range(n // 10))
    + "<h1>T</h1>" + PROSE,
    "comments": lambda n: "<title>T</title><h1>T</h1>" + PROSE * 5 + "<h3>Comments</h3><ol class='commentlist'>"
    + "".join(f"<li class='comment'><div class='comment-author'>User{i} says:</div><div class='comment-meta'>"
              f"January 5, 2020 at 9:30 am</div><p>Great post number {i}, thanks for sharing it.</p></li>"
              for i in range(n)) + "</ol>",
    "forum posts": lambda n: "<title>T</title><h1>Thread</h1>"
    + "".join(f"<div class='post'><div class='postauthor'>user{i}</div><div class='postdate'>Jan 5, 2020</div>"
              f"<div class='postbody'>Reply {i}: I think so too, and here is why.</div></div>" for i in range(n)),
    "table cells": lambda n: "<title>T</title><h1>T</h1><table>"
    + "".join("<tr>" + "".join(f"<td colspan='{1 + j % 3}'>c{i}.{j}</td>" for j in range(20)) + "</tr>"
              for i in range(n // 10)) + "</table>" + PROSE,
    "list items": lambda n: "<title>T</title><h1>T</h1><ol start='5'>"
    + "".join(f"<li>Item {i} <a href='/x{i}'>link</a></li>" for i in range(n)) + "</ol>" + PROSE,
    "code blocks": lambda n: "<title>T</title><h1>T</h1>"
    + "".join(f"<pre><code class='language-python'>def f{i}():\n    return {i}\n</code></pre>" for i in range(n)),
    "images": lambda n: "<title>T</title><h1>T</h1>"
    + "".join(f"<figure><img src='/i{i}.jpg' alt='pic {i}'><figcaption>Caption {i}</figcaption></figure>"
              for i in range(n)) + PROSE,
    "rules in boxes of their own": lambda n: "<title>T</title><h1>T</h1>" + PROSE + "<div><hr></div>" * (n * 4)
    + PROSE + "".join(f"<div><hr><p>Part {i} of the essay, set apart by a rule.</p></div>" for i in range(n)),
}


def seconds(body: str) -> float:
    """Extracting a page and writing it as Markdown, text and JSON, in seconds."""
    t0 = time.perf_counter()
    res = extract(f"<html><head></head><body>{body}</body></html>")
    to_markdown(res)
    to_text(res)
    res.to_dict()
    return time.perf_counter() - t0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size", type=int, default=2000, help="items of each kind at the smaller size (default 2000)")
    ap.add_argument("--only", action="append", help="only kinds whose name holds this (repeatable)")
    ap.add_argument("--max-ratio", type=float, default=6.0, help="a ratio above this fails the run (default 6)")
    args = ap.parse_args()
    seconds("<p>warm up</p>")
    worst = 0.0
    print("| kind | size | seconds | 4x size | seconds | ratio |\n|---|---:|---:|---:|---:|---:|")
    for name, build in KINDS.items():
        if args.only and not any(o in name for o in args.only):
            continue
        small, large = build(args.size), build(4 * args.size)
        t_small, t_large = seconds(small), seconds(large)
        ratio = t_large / max(t_small, 1e-3)
        worst = max(worst, ratio)
        print(f"| {name} | {len(small) / 1e6:.2f} MB | {t_small:.2f} | {len(large) / 1e6:.2f} MB | {t_large:.2f} "
              f"| {ratio:.1f} |", flush=True)
    print(f"\nlargest ratio {worst:.1f} (work in proportion to the page: about 4)")
    return 1 if worst > args.max_ratio else 0


if __name__ == "__main__":
    raise SystemExit(main())
