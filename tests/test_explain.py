"""Plain-word reasons and the HTML explain view, including a real headless-browser screenshot."""

from __future__ import annotations

import html
import json
import math
import re
import shutil
import struct
import subprocess

import numpy as np
import pytest

from blockclf.block import Block
from blockclf.cli import main
from blockclf.explain import describe, explain_html, feature_words
from blockclf.features import FEATURES
from blockclf.html import parse
from blockclf.predict import Result
from blockclf.segment import segment

PAGE = """<html><head><title>Rivers and their bends</title></head><body>
<nav><ul><li><a href="/">Home</a></li><li><a href="/r">Rivers</a></li><li><a href="/m">Mountains</a></li></ul></nav>
<article><h1>Rivers and their bends</h1>
<p>Look at any lowland river from the air and you will see it swing from side to side in long curves.
Hardly any natural river runs straight for more than ten times its own width, and the loops grow slowly.</p>
<p>Erosion on the outer bank and deposition on the inner bank push each bend outwards, year after year,
until a flood cuts through the narrow neck and leaves an oxbow lake behind.</p></article>
<footer><p>Copyright 2026 The Field Notebook. <a href="/privacy">Privacy</a></p></footer></body></html>"""


def test_every_feature_has_words_without_raw_underscore_names():
    for name in FEATURES:
        words = feature_words(name)
        assert words and "_" not in words.replace("'", ""), name


def test_every_refining_column_has_its_own_words():
    from blockclf.refine import COLUMNS

    said = [feature_words(name) for name in COLUMNS]
    assert all("_" not in w and w != name.replace("_", " ") for w, name in zip(said, COLUMNS))
    assert len(set(said)) == len(COLUMNS)  # no two columns read the same
    assert feature_words("first_others_up1") == "mean first-pass score of the other blocks in its parent element"


def test_describe_reads_as_a_sentence():
    assert describe("link_density", 0.92, -1.3) == \
        "link density (share of the text inside links): 0.92, pushed towards boilerplate"
    assert describe("in_nav", 1.0, -2.0) == "inside <nav>: yes, pushed towards boilerplate"
    assert describe("p1_is_heading", 0.0, 0.4).startswith("previous block's is a heading: no")
    assert "unknown" in describe("rep_text", math.nan, 0.1)
    assert describe("some_new_feature", 3.0, 0.2) == "some new feature: 3, pushed towards content"


def _result(reasons=True):
    blocks = [Block(0, "Home <menu>", "li", "/html/body/nav/ul/li[1]", 4, link_chars=4),
              Block(1, "A long paragraph of text.", "p", "/html/body/article/p", 3)]
    r = [[("in_nav", 1.0, -2.0)], [("fw_share", 0.4, 1.1)]] if reasons else None
    return Result(blocks=blocks, scores=np.array([0.1, 0.9]), kept=np.array([False, True]), threshold=0.5,
                  favor="balanced", title="T & co", reasons=r, stats={"kept_ratio": 0.7}, verdict="document")


def test_view_marks_kept_and_removed_blocks_with_reasons_on_hover():
    view = explain_html(_result())
    assert view.count('<div class="blk removed') == 1 and view.count('<div class="blk kept') == 1
    assert "Home &lt;menu&gt;" in view and "T &amp; co" in view
    assert 'title="removed: score 0.100 &lt; threshold 0.50\n- inside &lt;nav&gt;: yes' in view
    assert "<script" not in view and "http" not in view  # self-contained, nothing to fetch
    assert "score 0.900" in explain_html(_result(reasons=False))


def test_view_marks_hidden_blocks():
    res = _result()
    res.blocks.append(Block(2, "Sign up now", "div", "/html/body/div", 2, hidden=True))
    res.scores, res.kept = np.append(res.scores, 0.0), np.append(res.kept, False)
    res.reasons.append([])
    view = explain_html(res)
    assert view.count(" hidden\"") == 1 and "not read, as the visible text was enough" in view


def test_view_lists_the_pages_metadata_and_marks_comment_threads():
    from blockclf.metadata import Metadata

    res = _result()
    res.metadata = Metadata(title="T & co", author="Ada Marsh", date="2026-03-12", lang="en",
                            sitename="Field Notes", tags=("rivers", "maps"))
    res.blocks.append(Block(2, "Great post, thanks!", "p", "/html/body/div[@id='comments']/p", 3))
    res.scores, res.kept = np.append(res.scores, 0.8), np.append(res.kept, False)
    res.reasons.append([])
    res.comment = np.array([False, False, True])
    view = explain_html(res)
    for label, value in [("author", "Ada Marsh"), ("published", "2026-03-12"), ("language", "en"),
                         ("site name", "Field Notes"), ("tags", "rivers, maps"), ("headline", "T &amp; co")]:
        assert f"<dt>{label}</dt><dd>{value}</dd>" in view
    assert "<dt>modified</dt>" not in view  # a field the page does not give is left out
    assert view.count('<div class="blk removed comment"') == 1
    assert "readers&#x27; comments (a thread, or a product&#x27;s reviews): removed as such" in view
    res.comments = "separate"
    assert "returned apart from the main text" in explain_html(res)


def test_cli_extract_explain_and_explain_view(tmp_path, capsys):
    page = tmp_path / "page.html"
    page.write_text(PAGE, encoding="utf-8")
    assert main(["extract", str(page), "--format", "json", "--explain"]) == 0
    data = json.loads(capsys.readouterr().out)
    reasons = [r for b in data["blocks"] for r in b["reasons"]]
    assert reasons and all("pushed towards" in r["text"] and "_" not in r["text"].split(":")[0] for r in reasons)
    assert main(["explain", str(page), "-o", str(tmp_path / "view.html")]) == 0
    view = (tmp_path / "view.html").read_text()
    assert "blk kept" in view and "blk removed" in view and "pushed towards" in view


def _strict(text: str) -> dict:
    def refuse(name: str) -> None:
        raise ValueError(f"{name} is not JSON")
    return json.loads(text, parse_constant=refuse)


@pytest.mark.parametrize("fast", [True, False])
def test_explained_json_is_strict_json_with_unknown_values_as_null(tmp_path, capsys, monkeypatch, fast):
    # a page alone has no site evidence, and one without a <title> nothing to compare a block with:
    # those features have no value, which JSON writes as null (NaN is not JSON; jq refuses it)
    from blockclf import jsonout

    if not fast:
        monkeypatch.setattr(jsonout, "orjson", None)
    page = tmp_path / "page.html"
    page.write_text("<html><body><p>Hi</p></body></html>", encoding="utf-8")
    assert main(["extract", str(page), "--format", "json", "--explain", "-o", str(tmp_path / "o")]) == 0
    data = _strict((tmp_path / "o" / "page.json").read_text(encoding="utf-8"))
    values = [r["value"] for b in data["blocks"] for r in b["reasons"]]
    assert None in values and all(v is None or isinstance(v, float) for v in values)
    capsys.readouterr()


def _png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", data[16:24])


@pytest.mark.skipif(shutil.which("chromium") is None and shutil.which("chromium-browser") is None,
                    reason="chromium is not installed (apt-get install chromium) - the browser check needs it")
def test_view_renders_in_a_headless_browser(tmp_path):
    page = tmp_path / "page.html"
    page.write_text(PAGE, encoding="utf-8")
    view = tmp_path / "view.html"
    assert main(["explain", str(page), "-o", str(view)]) == 0
    png = tmp_path / "shot.png"
    exe = shutil.which("chromium") or shutil.which("chromium-browser")
    cmd = [exe, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
           "--disable-component-update", "--disable-sync", "--no-first-run", f"--user-data-dir={tmp_path / 'prof'}",
           f"--screenshot={png}", "--window-size=1200,900", view.as_uri()]
    subprocess.run(cmd, capture_output=True, timeout=120, check=False)
    assert png.exists(), "chromium wrote no screenshot"
    data = png.read_bytes()
    assert _png_size(data) == (1200, 900)
    Image = pytest.importorskip("PIL.Image", reason="Pillow is needed to check the screenshot's colours")
    img = Image.open(png).convert("RGB")
    colours = {c for _, c in img.getcolors(maxcolors=1 << 20)}
    assert (0xD9, 0xF7, 0xD9) in colours, "no kept-block highlight in the rendered view"
    assert (0xDD, 0x55, 0x55) in colours, "no removed-block marker in the rendered view"


def test_a_folder_of_views_is_the_views_of_one_batch(tmp_path, capsys, synthetic_page, tiny_model_file):
    """The command explains a folder as extract reads one (worker processes, pages let go once
    their view is written) and writes the views one batch of them gives, but for a site's
    median kept ratio, which is that of the pages scored together, as in extract's outputs."""
    import re

    def same(view: str) -> str:
        return re.sub(r", site_median_kept_ratio [0-9.]+", "", view)
    from blockclf.predict import extract_batch, prepare

    src = tmp_path / "in"
    src.mkdir()
    for s in (8, 9):
        for p in range(13):  # 26 pages: two workers on two cores
            (src / f"s{s}p{p}.html").write_text(synthetic_page(s, p).html, encoding="utf-8")
    assert main(["explain", str(src), "-o", str(tmp_path / "views"), "--model", str(tiny_model_file),
                 "--reasons", "2"]) == 0
    assert capsys.readouterr().err.count("view of ") == 26
    files = sorted(src.iterdir())
    results = extract_batch([prepare(f, name=str(f)) for f in files], model=str(tiny_model_file), explain=True,
                            top_reasons=2)
    for f, res in zip(files, results):
        assert same((tmp_path / "views" / f.name).read_text(encoding="utf-8")) == same(explain_html(res))


def test_o_ending_in_a_slash_names_a_folder_for_one_pages_view(tmp_path, capsys, tiny_model_file):
    (tmp_path / "page.html").write_text(PAGE, encoding="utf-8")
    views = tmp_path / "views"
    assert main(["explain", str(tmp_path / "page.html"), "-o", f"{views}/", "--model", str(tiny_model_file)]) == 0
    assert views.is_dir() and "<html" in (views / "page.html").read_text(encoding="utf-8")
    assert f"written to {views / 'page.html'}" in capsys.readouterr().err


def test_reasons_per_block_are_zero_or_more(tmp_path, capsys, tiny_model_file):
    (tmp_path / "page.html").write_text(PAGE, encoding="utf-8")
    argv = ["explain", str(tmp_path / "page.html"), "--model", str(tiny_model_file)]
    assert main([*argv, "-o", str(tmp_path / "v.html"), "--reasons", "-1"]) == 2
    assert "argument --reasons: must be at least 0" in capsys.readouterr().err
    assert not (tmp_path / "v.html").exists()
    assert main([*argv, "--reasons", "0"]) == 0  # score and threshold only
    assert "score" in capsys.readouterr().out


def test_view_says_what_kept_a_block_under_the_threshold():
    """The notes read `Result.kept_by`, the record scoring makes (`tests/test_predict.py`)."""
    blocks = segment(parse("<html><body><ul><li><a href='#a'>Origins</a></li><li><a href='#b'>Course</a></li>"
                           "<li><a href='#c'>Mouth</a></li></ul>"
                           "<table><tr><td>Length</td><td>42 km</td></tr><tr><td>Basin</td><td>300 km2</td></tr>"
                           "</table><dl><dt>Author:</dt><dd>Jane Doe, who walked the river</dd></dl>"
                           "<p>A paragraph the model kept over the threshold.</p></body></html>"))
    assert [b.tag for b in blocks] == ["li", "li", "li", "td", "td", "td", "td", "dt", "dd", "p"]
    scores = np.array([0.1, 0.9, 0.9, 0.2, 0.9, 0.9, 0.9, 0.1, 0.9, 0.9])
    kept_by = ["toc-entry", None, None, "table-whole", None, None, None, "label-value", None, None]
    res = Result(blocks=blocks, scores=scores, kept=np.ones(len(blocks), bool), threshold=0.5, favor="balanced",
                 kept_by=kept_by)
    tips = [html.unescape(t) for t in re.findall(r'title="([^"]*)"', explain_html(res))]
    assert "table of contents the model kept most of" in tips[0]
    assert "data table the model kept half of or more" in tips[3]
    assert "a label beside a value that was kept" in tips[7]
    # a block kept over the threshold needs no such note
    assert not any(w in tips[i] for i in (1, 8, 9) for w in ("kept whole", "kept with it"))
