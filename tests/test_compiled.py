"""The compiled modules (built by setup.py where mypyc and a compiler are at hand) do
exactly what their Python source does.

pytest imports blockclf from the checkout, where every module is Python source; the
compiled modules exist only in an installed package. A child process started in isolated
mode (``-I``: neither the checkout nor ``PYTHONPATH`` on its path) imports the installed
package. It loads the segmenter's Python source installed beside the compiled module and
compares the two on hand-made pages of every construct the segmenter treats apart, on the
synthetic site pages, and on benchmark pages of every dataset when the benchmark is present.
It also extracts those pages whole, alone and as batches sharing site evidence, and the
result of every page (text, Markdown, scores, decisions, verdict, warnings, statistics,
metadata, thread roles) must be the one this process gets from the checkout's source: a
compiled module checks the types its source declares as it runs, and a value of another
type (a numpy scalar where a ``bool`` is declared) fails the page there and nowhere else.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import make_page
from test_quality_floor import BENCH

import blockclf.features
from blockclf.data import read_index


def _installed(module: str) -> str:
    """The start of a child's code: the installed ``blockclf.<module>`` as ``compiled`` and its
    Python source installed beside it as ``source``; a module that is not compiled says so
    and ends the child."""
    return f"""
import importlib.util, json, sys
from pathlib import Path
import blockclf.{module}
compiled = sys.modules["blockclf.{module}"]
if not compiled.__file__.endswith((".so", ".pyd")):
    print(json.dumps({{"compiled": False, "file": compiled.__file__}}))
    raise SystemExit(0)
spec = importlib.util.spec_from_file_location("blockclf._{module}_source", Path(compiled.__file__).with_name("{module}.py"))
source = sys.modules[spec.name] = importlib.util.module_from_spec(spec)  # where pickle finds what it defines
spec.loader.exec_module(source)
"""


#: run in the child: compare the installed compiled module with its installed source
CHILD = _installed("segment") + r"""
import dataclasses, gzip
from blockclf.html import PageError, parse
differ, pages, blocks = [], 0, 0
for name in sys.argv[1:]:
    data = Path(name).read_bytes()
    if name.endswith(".gz"):
        data = gzip.decompress(data)
    got = []
    for module in (compiled, source):
        try:
            got.append([dataclasses.astuple(b) for b in module.segment(parse(data))])
        except PageError as exc:
            got.append(("PageError", exc.reason))
    pages += 1
    blocks += len(got[1])
    if got[0] != got[1]:
        differ.append(name)
print(json.dumps({"compiled": True, "pages": pages, "blocks": blocks, "differ": differ}))
"""

#: run in the child: the installed `Block` record, compiled, against its installed source
BLOCK_CHILD = _installed("block") + r"""
import copy, dataclasses, pickle
values = [7, "t", "td", "/html/body/table/tr/td[2]", 5, ("H",), 2, 1, 1, 3, 1, 90, ("c",), ("html", "td"), False, True,
          "<b>t</b>", "py", 4, 2, 3, True, True, '<img src="a.jpg" alt="">', True, ("/html/body",)]
records = {}
for name, module in (("native", compiled), ("source", source)):
    cls = module.Block
    b, few = cls(*values), cls(0, "x", "p", "/html/body/p", 2)
    refused = []
    for change in (lambda: setattr(b, "text", "u"), lambda: delattr(b, "text"), lambda: setattr(b, "colour", 1)):
        try:
            change()
        except AttributeError as exc:
            refused.append(type(exc).__name__)
    records[name] = {"fields": [f.name for f in dataclasses.fields(cls)], "values": [getattr(b, f) for f in cls.__match_args__],
                 "defaults": dataclasses.astuple(few), "repr": repr(b), "hash": hash(b) == hash(cls(*values)),
                 "equal": b == cls(*values) and b != few, "refused": refused, "dict": hasattr(b, "__dict__"),
                 "pickled": pickle.loads(pickle.dumps(b)) == b and copy.copy(b) == b == copy.deepcopy(b),
                 "replaced": dataclasses.astuple(dataclasses.replace(b, text="u", index=1)),
                 "parent": b.parent_xpath}
print(json.dumps({"compiled": True, **records}))
"""

#: constructs the segmenter handles apart: verbatim code, numbered and nested lists, table
#: cells with spans and block content, hidden text, links resolved against <base>, furniture,
#: entities and comments, marker characters in page text, and nesting past the depth limit
CONSTRUCTS = {
    "code": "<pre><code class='language-python'>def add(x, y):\n\n\treturn x + y\n</code></pre>",
    "lists": "<ol start='3'><li>one<ul><li>inner <b>bold</b></li></ul></li><li value='9'>two</li></ol>"
             "<ol reversed><li>a</li><li>b</li></ol>",
    "table": "<table><tr><th colspan='2'>head</th></tr><tr><td><p>one</p><p>two</p></td><td>"
             "<ul><li>x</li></ul></td></tr></table>",
    "hidden": "<div>before <span style='display:none'>secret</span> after</div>"
              "<div hidden><p>all hidden</p></div><p aria-hidden='true'>aria</p>",
    "links": "<head><base href='https://example.org/docs/'></head><p>See <a href='page.html'>this</a>, "
             "<a href='javascript:alert(1)'>that</a>, <img src='/i.png' alt='pic'> and <code>*args</code>.</p>",
    "furniture": "<h2>Title<a class='headerlink' href='#t'>¶</a></h2><div class='highlight'>"
                 "<button class='copybtn'>Copy</button><pre>x = 1</pre></div>",
    "oddities": "<p>a &amp; b <!-- note --> c\ue000d\ue001</p><p># not a heading</p><br><p>1. no list</p>",
    "deep": "<div>" * 400 + "deep text" + "</div>" * 400,
}


#: one page's result as plain data, the same code in the child and in this process
FINGERPRINT = r"""
import gzip, json
from pathlib import Path
import blockclf
from blockclf.data import read_index


def fingerprint(res):
    return {"text": res.text, "markdown": res.markdown, "scores": res.scores.tolist(), "kept": res.kept.tolist(),
            "threshold": res.threshold, "title": res.title, "verdict": res.verdict, "warnings": list(res.warnings),
            "stats": res.stats, "metadata": res.metadata.to_dict(),
            "post": None if res.post is None else res.post.tolist(),
            "comment": None if res.comment is None else res.comment.tolist()}


def fingerprints(files, bench):
    urls = {str(r.html_path): r.url for r in read_index(bench, ["dev"])} if bench else {}
    out, batch = {}, []
    for name in files:
        data = Path(name).read_bytes()
        if name.endswith(".gz"):
            data = gzip.decompress(data)
        try:
            out[name] = fingerprint(blockclf.extract(data))
            batch.append((name, blockclf.prepare(data, url=urls.get(name) or _synthetic_url(name), name=name)))
        except blockclf.PageError as exc:
            out[name] = ["PageError", exc.reason]
    for page, res in zip([p for _, p in batch], blockclf.extract_batch([p for _, p in batch])):
        out["batch:" + page.name] = fingerprint(res)
    return json.loads(json.dumps(out))  # as the child's print gives it: tuples as lists


def _synthetic_url(name):
    kind, _, numbers = Path(name).stem.partition("-")  # synthetic-SITE-PAGE: one site's pages share evidence
    site, _, page = numbers.partition("-")
    return f"https://www.site{site}.org/story/{page}" if kind == "synthetic" else None
"""

#: run in the child: the installed package's results, and which of its modules are compiled
WHOLE_CHILD = FINGERPRINT + r"""
import sys
compiled = sorted(n for n, m in sys.modules.items() if n.startswith("blockclf.") and (getattr(m, "__file__", "") or "").endswith((".so", ".pyd")))
bench = sys.argv[1] or None
print(json.dumps({"compiled": compiled, "pages": fingerprints(sys.argv[2:], bench)}))
"""


def _pages(tmp_path: Path) -> list[str]:
    files = []
    for name, body in CONSTRUCTS.items():
        path = tmp_path / f"{name}.html"
        path.write_text(f"<html><body>{body}</body></html>", encoding="utf-8")
        files.append(path)
    for site in range(3):
        for page in range(2):
            path = tmp_path / f"synthetic-{site}-{page}.html"
            path.write_text(make_page(site, page).html, encoding="utf-8")
            files.append(path)
    files.append(Path(__file__).resolve().parents[1] / "data" / "example.html")
    if (BENCH / "index.jsonl").exists():  # ten dev pages of every dataset
        per_set: dict[str, int] = {}
        for r in sorted(read_index(BENCH, ["dev"]), key=lambda r: (r.dataset, r.id)):
            if per_set.get(r.dataset, 0) < 10:
                per_set[r.dataset] = per_set.get(r.dataset, 0) + 1
                files.append(r.html_path)
    return [str(f) for f in files]


def _child(code: str, args: list[str], cwd: Path) -> dict:
    """What ``code`` prints last as JSON, run in isolated mode: the installed package, not the checkout."""
    proc = subprocess.run([sys.executable, "-I", "-c", code, *args], capture_output=True, text=True, cwd=cwd,
                          timeout=900)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return json.loads(proc.stdout.strip().splitlines()[-1])


def test_compiled_segmenter_matches_its_source(tmp_path: Path):
    pages = _pages(tmp_path)
    out = _child(CHILD, pages, tmp_path)
    if not out["compiled"]:
        pytest.skip(f"the installed segmenter is not compiled ({out['file']}): an editable or pure install")
    assert out["pages"] == len(pages)
    assert out["blocks"] > 100
    assert out["differ"] == []


def test_compiled_block_record_is_its_source_record(tmp_path: Path):
    """The installed record, compiled to a native class, is the dataclass its source declares:
    the same fields, defaults, equality, hash and repr, frozen (a field neither set nor deleted,
    none added), picklable and copyable, rebuilt by `dataclasses.replace`."""
    out = _child(BLOCK_CHILD, [], tmp_path)
    if not out["compiled"]:
        pytest.skip(f"the installed record is not compiled ({out['file']}): an editable or pure install")
    assert out["compiled"] is True
    assert out["native"] == out["source"]
    assert out["source"]["refused"] == ["FrozenInstanceError", "FrozenInstanceError", "FrozenInstanceError"]
    assert out["source"]["dict"] is False and out["source"]["pickled"] and out["source"]["hash"]
    assert out["source"]["replaced"][:2] == [1, "u"] and out["source"]["values"][1] == "t"

def test_compiled_modules_extract_what_their_source_extracts(tmp_path: Path):
    if blockclf.features.__file__.endswith((".so", ".pyd")):
        pytest.skip("the checkout's own modules are compiled (an in-place build): there is no source to compare with")
    pages = _pages(tmp_path)
    bench = str(BENCH) if (BENCH / "index.jsonl").exists() else ""
    out = _child(WHOLE_CHILD, [bench, *pages], tmp_path)
    if not out["compiled"]:
        pytest.skip("no installed module is compiled: an editable or pure install")
    space: dict = {}
    exec(FINGERPRINT, space)  # this process imports the checkout: every module is its source
    expected = space["fingerprints"](pages, bench or None)
    assert "blockclf.features" in out["compiled"] and "blockclf.segment" in out["compiled"]
    assert sorted(out["pages"]) == sorted(expected)
    assert sum(1 for k in expected if k.startswith("batch:")) > 10
    differ = [name for name in expected if out["pages"][name] != expected[name]]
    assert differ == []
