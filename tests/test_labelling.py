"""Labelling a site by selector: selectors, exclusions, gold files, block edits, splits, layout."""

from __future__ import annotations

import gzip
import json

import pytest

from blockclf.cli import main
from blockclf.data import read_index
from blockclf.html import parse
from blockclf.labelling import assign_split, compile_selector, label_site, read_edits
from blockclf.labels import from_annotations
from blockclf.segment import segment
from blockclf.train import _annotated_runs

PAGE = """<html><head><title>{t}</title></head><body>
<nav><a href="/">Home</a> <a href="/b">Blog</a></nav>
<div id="main" class="post"><h1>{t}</h1><p>The first paragraph of {t} explains the idea in full sentences.</p>
<p class="share"><a href="#">Share this</a></p><p>A second paragraph about {t} closes the article.</p></div>
<footer><p>Copyright 2026 Example</p></footer></body></html>"""


def _pages(tmp_path, n=4):
    site = tmp_path / "site"
    site.mkdir()
    for i in range(n):
        (site / f"p{i}.html").write_text(PAGE.format(t=f"Article {i}"), encoding="utf-8")
    (site / "empty.html").write_text("<html><body><p>No article on this page at all.</p></body></html>")
    return site


def _inputs(site):
    return [(p, p.name[:-5]) for p in sorted(site.glob("*.html"))]


def test_css_selector_labels_blocks_inside_content_and_reports_no_match(tmp_path):
    site = _pages(tmp_path)
    out = tmp_path / "ds"
    rep = label_site(_inputs(site), out, content="div.post", exclude=[".share"], dataset="blog")
    assert rep.no_match == [str(site / "empty.html")]
    assert rep.n_written == 4
    gold = (out / "blog" / "gold" / "p1.txt").read_text()
    assert "Article 1" in gold and "second paragraph" in gold
    assert "Home" not in gold and "Share this" not in gold and "Copyright" not in gold
    raw = gzip.decompress((out / "blog" / "html" / "p1.html.gz").read_bytes())
    assert raw == (site / "p1.html").read_bytes()


def test_xpath_selector_gives_the_same_labels_as_css(tmp_path):
    site = _pages(tmp_path, 2)
    a = label_site(_inputs(site), tmp_path / "a", content="#main", dataset="d")
    b = label_site(_inputs(site), tmp_path / "b", content="//div[@id='main']", dataset="d")
    assert a.n_written == b.n_written == 2
    assert (tmp_path / "a/d/gold/p0.txt").read_text() == (tmp_path / "b/d/gold/p0.txt").read_text()


def test_blocks_file_is_read_by_training_and_reproduces_the_labels(tmp_path):
    site = _pages(tmp_path, 2)
    out = tmp_path / "ds"
    label_site(_inputs(site), out, content="div.post", exclude=[".share"], dataset="d")
    rec = next(r for r in read_index(out) if r.id == "p0")
    assert rec.blocks_path is not None
    runs = _annotated_runs(rec)
    doc = parse(rec.html_path)
    blocks = segment(doc)
    labels = from_annotations(blocks, runs, rec.read_gold())
    want = [b.xpath.startswith("/html/body/div") and "Share" not in b.text for b in blocks]
    assert list(labels.content) == want
    assert labels.quality == pytest.approx(1.0)


def test_gold_file_next_to_page_wins_over_selector(tmp_path):
    site = _pages(tmp_path, 2)
    (site / "p0.txt").write_text("Article 0\nThe first paragraph of Article 0 explains the idea in full sentences.\n")
    out = tmp_path / "ds"
    rep = label_site(_inputs(site), out, content="div.post", dataset="d")
    assert rep.by_source == {"gold file": 1, "selector": 1}
    assert "second paragraph" not in (out / "d/gold/p0.txt").read_text()
    assert not (out / "d/blocks/p0.json").exists()  # training aligns the gold text itself


def test_block_edits_override_selector_labels(tmp_path):
    site = _pages(tmp_path, 2)
    edits = tmp_path / "edits.jsonl"
    edits.write_text(json.dumps({"page": "p0", "xpath": "/html/body/footer", "label": "content"}) + "\n"
                     + json.dumps({"page": "p0.html", "xpath": "/html/body/div/h1", "label": "boilerplate"}) + "\n")
    out = tmp_path / "ds"
    rep = label_site(_inputs(site), out, content="div.post", dataset="d", edits=read_edits(edits))
    gold = (out / "d/gold/p0.txt").read_text()
    assert "Copyright" in gold and not gold.startswith("Article 0")
    assert rep.edited_blocks == 2 and rep.unused_edits == 0
    assert "Copyright" not in (out / "d/gold/p1.txt").read_text()


def test_edits_that_change_nothing_are_named_with_their_line(tmp_path, capsys):
    """An edit whose path has a typo, or whose page is none labelled, changed no label and was
    only counted: which of a file's lines to mend was not said."""
    site = _pages(tmp_path, 2)
    edits = tmp_path / "edits.jsonl"
    edits.write_text("\n".join(json.dumps(e) for e in (
        {"page": "p0", "xpath": "/html/body/footer", "label": "content"},
        {"page": "p0", "xpath": "/html/body/fotter", "label": "content"},
        {"page": "p9.html", "xpath": "/html/body/footer", "label": "content"},
        {"page": "p1", "xpath": "/html/body/div/h1", "label": "content"})) + "\n")  # already content: matched
    rep = label_site(_inputs(site), tmp_path / "ds", content="div.post", dataset="d", edits=read_edits(edits))
    assert rep.unmatched_edits == [(2, str(site / "p0.html"), "/html/body/fotter")]
    assert rep.unused_edit_lines == [(3, "p9.html", "/html/body/footer")] and rep.unused_edits == 1
    assert main(["label", str(site), "--content", "div.post", "-o", str(tmp_path / "ds2"), "--dataset", "d",
                 "--edits", str(edits)]) == 1  # the site's empty page matches no selector
    captured = capsys.readouterr()
    assert (f"blockclf: warning: {edits}:2: /html/body/fotter is under no block of {site / 'p0.html'}: "
            "no label changed\n") in captured.err
    assert f"blockclf: warning: {edits}:3: page 'p9.html' is none of the pages labelled: no label changed\n" \
        in captured.err
    assert "block edits changed 1 block labels; 1 edits named no labelled page; 1 matched no block" in captured.out


def test_bad_edits_and_selectors_are_refused(tmp_path):
    bad = tmp_path / "e.jsonl"
    bad.write_text('{"page": "a", "xpath": "/html", "label": "maybe"}\n')
    with pytest.raises(ValueError, match="e.jsonl:1"):
        read_edits(bad)
    with pytest.raises(ValueError, match="CSS"):
        compile_selector("div[")
    with pytest.raises(ValueError, match="XPath"):
        compile_selector("//div[")


def test_split_is_a_stable_hash_and_rerun_replaces_the_dataset_rows(tmp_path):
    assert assign_split("x") == assign_split("x")
    shares = [assign_split(f"page-{i}") for i in range(2000)]
    assert 0.15 < shares.count("test") / 2000 < 0.25 and 0.15 < shares.count("dev") / 2000 < 0.25
    site = _pages(tmp_path, 3)
    out = tmp_path / "ds"
    label_site(_inputs(site), out, content="div.post", dataset="d", site="example.org")
    label_site(_inputs(site), out, content="div.post", dataset="d", site="example.org")
    rows = [json.loads(line) for line in (out / "index.jsonl").read_text().splitlines()]
    assert len(rows) == 3 and {r["domain"] for r in rows} == {"example.org"}
    assert all(r["split"] == assign_split(r["id"]) for r in rows)


def test_cli_label_exit_codes(tmp_path, capsys):
    site = _pages(tmp_path, 2)
    assert main(["label", str(site), "--content", "div.post", "-o", str(tmp_path / "ds")]) == 1
    err = capsys.readouterr()
    assert "empty.html: the selector matched nothing" in err.err and "labelled 2 pages" in err.out
    assert main(["label", str(site / "p0.html"), "--content", "div.post", "-o", str(tmp_path / "ds2")]) == 0
    assert main(["label", str(site), "--content", "div[", "-o", str(tmp_path / "ds3")]) == 2


@pytest.mark.parametrize("name", ["ABSOLUTE", "../outside", "a/b", "..", ""])
def test_a_dataset_name_that_is_a_path_writes_nothing_outside(tmp_path, capsys, name):
    """The name is the dataset's folder inside -o: as a path it wrote the pages where it pointed."""
    site = _pages(tmp_path, 1)
    name = str(tmp_path / "outside") if name == "ABSOLUTE" else name
    out = tmp_path / "sub" / "ds"
    assert main(["label", str(site), "--content", "div.post", "-o", str(out), "--dataset", name]) == 2
    assert "a dataset name is one word" in capsys.readouterr().err
    assert not (tmp_path / "outside").exists() and not out.exists() and not (tmp_path / "sub" / "a").exists()
    with pytest.raises(ValueError):
        label_site(_inputs(site), out, content="div.post", dataset=name)


@pytest.mark.parametrize("xpath", ["//text()", "//div/@class"])
def test_an_xpath_that_selects_text_or_attributes_is_a_usage_error(tmp_path, capsys, xpath):
    site = _pages(tmp_path, 1)
    assert main(["label", str(site), "--content", xpath, "-o", str(tmp_path / "ds")]) == 2
    assert "selects text or attributes, not elements" in capsys.readouterr().err


def test_a_page_labelled_with_no_content_is_warned_of(tmp_path, capsys):
    """An --exclude that takes in all that --content selects wrote pages of empty gold, said nowhere."""
    site = _pages(tmp_path, 2)
    out = tmp_path / "ds"
    rep = label_site(_inputs(site), out, content="div.post", exclude=["div.post *", "div.post"], dataset="d")
    assert sorted(rep.no_content) == [str(site / "p0.html"), str(site / "p1.html")]
    assert main(["label", str(site / "p0.html"), "--content", "div.post", "--exclude", "div.post", "-o",
                 str(tmp_path / "ds2")]) == 0
    assert "p0.html: labelled with no content: every block is boilerplate" in capsys.readouterr().err


def test_pages_from_a_warc_are_labelled_and_named_by_url(tmp_path, capsys):
    pytest.importorskip("warcio", reason="reading WARC files needs the 'warc' extra")
    from io import BytesIO

    from warcio.statusandheaders import StatusAndHeaders
    from warcio.warcwriter import WARCWriter

    (tmp_path / "crawl").mkdir()
    warc = tmp_path / "crawl" / "day1.warc.gz"
    with open(warc, "wb") as fh:
        writer = WARCWriter(fh, gzip=True)
        for i in range(3):
            body = PAGE.format(t=f"Article {i}").encode()
            headers = StatusAndHeaders("200 OK", [("Content-Type", "text/html; charset=utf-8")], protocol="HTTP/1.1")
            writer.write_record(writer.create_warc_record(f"https://blog.example.org/posts/a{i}.html", "response",
                                                          payload=BytesIO(body), http_headers=headers))
    out = tmp_path / "ds"
    assert main(["label", str(warc), "--content", "div.post", "-o", str(out), "--dataset", "blog"]) == 0
    rows = [json.loads(line) for line in (out / "index.jsonl").read_text().splitlines()]
    assert sorted(r["id"] for r in rows) == ["posts--a0.html", "posts--a1.html", "posts--a2.html"]
    assert {r["domain"] for r in rows} == {"example.org"}
    assert "Article 2" in (out / "blog/gold/posts--a2.html.txt").read_text()
    # the crawl's folder, its WARC files in it: the same records
    assert main(["label", str(tmp_path / "crawl"), "--content", "div.post", "-o", str(tmp_path / "ds2"),
                 "--dataset", "blog"]) == 0
    again = [json.loads(line) for line in (tmp_path / "ds2" / "index.jsonl").read_text().splitlines()]
    assert sorted(r["id"] for r in again) == sorted(r["id"] for r in rows)


def test_a_page_in_deep_folders_gets_an_id_that_fits_a_file_name(tmp_path):
    # the folders of a page's path are joined into its id ("a--b--page"): deep ones made a name
    # too long for the file system, and writing the labelled page failed
    site = _pages(tmp_path, 2)
    deep = "/".join(["section-of-the-site"] * 20)  # 399 characters of folders
    inputs = [(p, f"{deep}/{stem}") for p, stem in _inputs(site)]
    rep = label_site(inputs, tmp_path / "ds", content="div.post", dataset="blog")
    assert rep.n_written == 2
    names = sorted(p.name for p in (tmp_path / "ds" / "blog" / "gold").iterdir())
    assert len(names) == 2 and all(len(n.encode()) <= 255 for n in names)
    ids = [rec.id for rec in read_index(tmp_path / "ds")]
    assert sorted(f"{i}.txt" for i in ids) == names
