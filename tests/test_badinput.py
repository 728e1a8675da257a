"""Bad input: every page a crawler can bring back ends in a result, a flagged result or a named skip.

Library level: `prepare` returns a page (possibly with warning codes) or raises `PageError`
with a reason code, never anything else. Command level: a batch with bad pages exits 1,
names each skipped page on one stderr line, ends with a summary line, and never prints a
traceback; an unusable model file exits 2 with one line.
"""

from __future__ import annotations

import codecs
import gzip
import json
import pickle
import random
import time
from pathlib import Path

import pytest

from blockclf.cli import main
from blockclf.files import OutputError, partial_path, resumable_open, write_atomic
from blockclf.html import Limits, PageError, parse
from blockclf.model import default_model_path
from blockclf.predict import prepare
from blockclf.segment import segment

ARTICLE = "<p>The river bends slowly through the valley and carries sediment to the delta.</p>"
PAGE = f"<html><head><title>Rivers</title></head><body>{ARTICLE}<p>Second paragraph of the story.</p></body></html>"


def text_of(source, **kw) -> str:
    page = prepare(source, **kw)
    return "\n".join(b.text for b in page.blocks)


def reason(source, **kw) -> str:
    with pytest.raises(PageError) as info:
        prepare(source, **kw)
    assert "\n" not in str(info.value)  # one line
    return info.value.reason


# --- refused input: a named skip --------------------------------------------------------

@pytest.mark.parametrize("data, code", [
    (b"", "empty"),
    (b" \n\t\r\n  ", "empty"),
    (b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 4, "binary"),
    (b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj << /Type /Catalog >> endobj", "binary"),
    (random.Random(0).randbytes(4000), "binary"),
    (pickle.dumps({"a": 1}, protocol=4), "binary"),
    (b'{"title": "Rivers", "body": "<p>text</p>"}', "not-html"),
    (b'<?xml version="1.0"?><rss><channel><item><title>A</title></item></channel></rss>', "not-html"),
    (b"\x1f\x8b\x08\x00garbage that is not deflate data", "bad-gzip"),
])
def test_unusable_bytes_are_refused_with_a_reason(data, code):
    assert reason(data) == code


def test_billion_laughs_is_refused_and_never_expanded():
    lol = "".join(f'<!ENTITY l{i} "{f"&l{i - 1};" * 10}">' for i in range(1, 10))
    doc = f'<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY l0 "lol">{lol}]><lolz>&l9;</lolz>'
    assert reason(doc.encode()) == "not-html"
    # a damaged prolog on a real page is not a reason to refuse it: HTML elements decide
    assert "river bends" in text_of(f'<!DOCTYPE htm\n<?xml version="1.0" encoding="garbage, words"?>{ARTICLE}'.encode())
    # the same entities inside an HTML page: the inline DTD is dropped, nothing is expanded
    html = f"<!DOCTYPE html [<!ENTITY l0 \"lol\">{lol}]><html><body><p>&l9;</p>{ARTICLE}</body></html>"
    page = prepare(html.encode())
    text = "\n".join(b.text for b in page.blocks)
    assert "lollol" not in text and "river bends" in text
    assert "dtd-subset" in page.doc.warnings


def test_fifty_megabyte_page_is_refused_by_max_bytes(tmp_path):
    big = b"<html><body>" + b"<p>word word word word word</p>\n" * 1_600_000 + b"</body></html>"
    assert len(big) > 50_000_000
    assert reason(big) == "too-large"
    path = tmp_path / "big.html"
    path.write_bytes(big)
    assert reason(path) == "too-large"  # refused from its size, before reading
    gz = tmp_path / "big.html.gz"
    gz.write_bytes(gzip.compress(big, compresslevel=1))
    assert reason(gz) == "too-large"  # decompression stops at the limit (a gzip bomb is not inflated)


def test_a_million_siblings_are_refused_by_max_nodes():
    page = b"<html><body>" + b"<p>x</p>" * 1_000_000 + b"</body></html>"
    assert reason(page, limits=Limits(max_bytes=64 * 1024 * 1024)) == "too-many-nodes"
    assert reason(PAGE.encode(), limits=Limits(max_nodes=3)) == "too-many-nodes"


def test_frameset_without_text_names_its_frames():
    page = b'<html><frameset cols="50%,50%"><frame src="menu.html"><frame src="story.html"></frameset></html>'
    with pytest.raises(PageError) as info:
        prepare(page)
    assert info.value.reason == "frameset" and "story.html" in str(info.value)


def test_a_title_of_one_long_word_is_read_in_time_growing_with_its_length(tmp_path):
    """A title's script-statement check tried a name from each of its letters: a 300 KB title of
    one word took minutes, under no time budget, as a search cannot be stopped. Run apart, so
    the check before ends at the limit instead of holding the suite."""
    import os
    import subprocess
    import sys

    page = tmp_path / "t.html"
    page.write_text(f"<html><head><title>{'x' * 300_000}</title></head><body>{ARTICLE}</body></html>")
    root = str(Path(__file__).resolve().parent.parent)
    env = {**os.environ, "PYTHONPATH": root + os.pathsep + os.environ.get("PYTHONPATH", "")}
    code = "import sys; from blockclf.html import parse; print(len(parse(open(sys.argv[1], 'rb').read()).title))"
    proc = subprocess.run([sys.executable, "-c", code, str(page)], check=False, capture_output=True, text=True,
                          env=env, timeout=60)
    assert proc.returncode == 0 and proc.stdout.split() == ["300000"], proc.stderr[-500:]


def test_time_budget_is_a_timeout_skip():
    assert reason(PAGE.encode(), limits=Limits(max_seconds=1e-9)) == "timeout"
    doc = parse(("<html><body>" + "<p>x</p>" * 600 + "</body></html>").encode())
    doc.deadline = time.monotonic() - 1  # spent: segmentation stops at its next check
    with pytest.raises(PageError) as info:
        segment(doc)
    assert info.value.reason == "timeout"


# --- read, possibly flagged -------------------------------------------------------------

def test_plain_text_is_read_as_one_run_of_text():
    # a browser shows a markup-free .html file as its text, so blockclf does too, and flags it
    page = prepare(b"Rivers meander.\n\nThey carry sediment downstream.")
    assert [b.text for b in page.blocks] == ["Rivers meander. They carry sediment downstream."]
    assert "no-markup" in page.doc.warnings


@pytest.mark.parametrize("codec", ["utf-16", "utf-16-le", "utf-16-be", "utf-8-sig", "utf-32"])
def test_unicode_with_and_without_bom(codec):
    assert "Grüße aus Köln" in text_of(f"<html><body><p>Grüße aus Köln</p>{ARTICLE}</body></html>".encode(codec))


def test_misdeclared_and_mixed_encodings():
    utf8_as_latin1 = '<meta charset="iso-8859-1"><p>Grüße aus Köln</p>'.encode()
    assert text_of(utf8_as_latin1) == "Grüße aus Köln"
    cp1252_as_utf8 = '<meta charset="utf-8"><p>Grüße aus Köln – “quoted”</p>'.encode("cp1252")
    assert text_of(cp1252_as_utf8) == "Grüße aus Köln – “quoted”"
    mixed = '<meta charset="utf-8"><p>Grüße</p>'.encode() + "<p>aus Köln</p>".encode("cp1252")
    page = prepare(mixed)
    assert [b.text for b in page.blocks] == ["Grüße", "aus Köln"]
    assert page.doc.encoding == "utf-8+cp1252" and "mixed-encoding" in page.doc.warnings


def test_utf8_decoded_twice_is_repaired_and_flagged():
    """A page saved through a tool that read its UTF-8 as Latin-1 or Windows-1252 carries the
    mojibake in valid UTF-8: no choice of encoding undoes it, the repair does."""
    words = "Canada’s No. 1 story — Grüße aus Köln, 20 °C, привет"
    for wrong in ("latin-1", "cp1252"):
        twice = f'<meta charset="utf-8"><p>{words.encode().decode(wrong, errors="ignore")}</p>'.encode()
        page = prepare(twice)
        assert [b.text for b in page.blocks] == [words]
        assert "mojibake-repaired" in page.doc.warnings and page.doc.encoding == "utf-8"
    # a str a caller decoded wrongly (an HTTP client's Latin-1 default) is repaired the same way
    assert text_of(f"<p>{words.encode().decode('latin-1')}</p>") == words
    # a page that is nothing but mojibake is repaired stretch by stretch, in bounded memory
    dense = prepare(("<p>" + "Ã©" * 200_000 + "</p>").encode())
    assert dense.blocks[0].text == "é" * 200_000
    # text that only looks odd is left as it is, and says nothing
    for fine in ("<p>SÃO PAULO, Ã la carte</p>", "<p>«CAFÉ» et crème, naïve, ±2 °C</p>", "<p>plain ASCII</p>"):
        page = prepare(fine.encode())
        assert "mojibake-repaired" not in page.doc.warnings


def test_nul_bytes_in_a_text_page_are_dropped_and_flagged():
    page = prepare(f"<html><body><p>Riv\x00ers</p>{ARTICLE}\x00</body></html>".encode())
    assert page.blocks[0].text == "Rivers" and "nul-bytes" in page.doc.warnings


def test_gzip_named_but_plain_and_truncated_gzip(tmp_path):
    plain = tmp_path / "plain.html.gz"
    plain.write_text(PAGE, encoding="utf-8")
    page = prepare(plain)
    assert "river bends" in page.blocks[0].text and "not-gzip" in page.doc.warnings
    cut = tmp_path / "cut.html.gz"
    cut.write_bytes(gzip.compress(PAGE.encode() * 20)[:-40])  # lost its end and its checksum
    page = prepare(cut)
    assert "river bends" in page.blocks[0].text and "truncated-gzip" in page.doc.warnings
    head = tmp_path / "head.html.gz"
    head.write_bytes(gzip.compress(PAGE.encode())[:12])
    assert reason(head) == "bad-gzip"


def test_gzip_with_a_wrong_checksum_gives_its_whole_content_flagged(tmp_path):
    """Only the trailer is wrong: every byte of the page is there, read and flagged, not refused."""
    data = gzip.compress(PAGE.encode())
    bad = tmp_path / "crc.html.gz"
    bad.write_bytes(data[:-8] + bytes([data[-8] ^ 1]) + data[-7:])
    page = prepare(bad)
    assert [b.text for b in page.blocks][-1] == "Second paragraph of the story." and "truncated-gzip" in page.doc.warnings


def test_gzip_of_several_members_is_read_whole(tmp_path):
    """Members one after the other (files joined with cat) are one file, as gunzip reads them;
    padding after the last is left, and a damaged later member keeps what came before, flagged."""
    first, second = PAGE.split("<p>Second")
    joined = tmp_path / "joined.html.gz"
    joined.write_bytes(gzip.compress(first.encode()) + gzip.compress(("<p>Second" + second).encode()) + b"\0" * 8)
    page = prepare(joined)
    assert "Second paragraph of the story." in [b.text for b in page.blocks] and not page.doc.warnings
    damaged = tmp_path / "damaged.html.gz"
    damaged.write_bytes(gzip.compress(first.encode()) + gzip.compress(b"<p>Lost</p>")[:10] + b"\xff" * 20)
    page = prepare(damaged)
    assert "river bends" in page.blocks[0].text and "truncated-gzip" in page.doc.warnings


def test_a_long_definition_list_with_its_end_tags_left_out_is_read_as_a_list():
    """HTML lets a page leave ``<dt>`` and ``<dd>`` open; libxml2 reads each inside the one
    before, and four hundred of them reached its nesting limit: the page was read flat and
    nothing of it was kept. A list inside a description stays inside it."""
    terms = "".join(f"<dt>Street {i} north of Bush" for i in range(400))  # terms alone, as a page lists gates
    page = prepare(f"<html><body><h1>Gates</h1><dl>{terms}</dl><p>After the list.</p>"
                   "<dl><dt>Outer<dd>Held<dl><dt>Inner<dd>Inside</dl><dd>Second</dl></body></html>")
    assert "flattened-deep-nesting" not in page.doc.warnings
    texts = [b.text for b in page.blocks]
    assert texts[1:3] == ["Street 0 north of Bush", "Street 1 north of Bush"]
    assert "Street 399 north of Bush" in texts and "After the list." in texts
    dls = page.doc.root.findall(".//body/dl")
    assert len(dls[0]) == 400 and [el.tag for el in dls[1]] == ["dt", "dd", "dd"]
    assert [el.tag for el in dls[1][1]] == ["dl"]  # the inner list, inside the description that holds it


def test_hundred_thousand_deep_nesting_keeps_its_text_and_warns():
    d = 100_000
    page = prepare(b"<html><body>" + b"<div>" * d + b"deep text" + b"</div>" * d + b"<p>after the tower</p></body></html>")
    assert [b.text for b in page.blocks] == ["deep text", "after the tower"]
    assert "flattened-deep-nesting" in page.doc.warnings


def test_nesting_past_max_depth_becomes_text_of_the_block_at_the_limit():
    nested = "<div>" * 30 + "<p>deep <b>bold</b> words</p><p>more</p>" + "</div>" * 30
    page = prepare(f"<html><body>{nested}<p>after</p></body></html>".encode(), limits=Limits(max_depth=10))
    text = " ".join(b.text for b in page.blocks)
    assert "deep bold words" in text and "more" in text and "after" in text
    assert "too-deep" in page.doc.warnings


def test_noscript_and_noframes_only_content_is_read():
    page = prepare(b"<html><body><noscript><p>Enable scripts to read about rivers.</p></noscript></body></html>")
    assert page.blocks[0].text == "Enable scripts to read about rivers."
    frames = b'<html><frameset><frame src="a.html"><noframes><p>Rivers, without frames.</p></noframes></frameset></html>'
    assert text_of(frames) == "Rivers, without frames."


def test_invisible_text_is_not_content():
    page = f"""<html><body>{ARTICLE}
      <p style="display: none">gone1</p><div style="visibility:hidden">gone2</div>
      <div hidden><p>gone3</p></div><span aria-hidden="true">gone4</span>
      <input type="hidden" value="gone5"><script>var gone6 = 1;</script><template><p>gone7</p></template>
    </body></html>"""
    text = text_of(page.encode())
    assert "river bends" in text and "gone" not in text


def test_page_with_markup_but_no_text_is_flagged():
    page = prepare(b"<html><body><div><img src='a.png'></div></body></html>")
    assert page.blocks == [] and "no-text" in page.doc.warnings


def test_a_page_with_nothing_kept_is_an_empty_file_in_every_form_but_json(tmp_path, capsys):
    """A corpus builder finds the pages that gave nothing by their size: 0 bytes, whatever the
    format (Markdown had been one line break, HTML its charset line)."""
    src = tmp_path / "IN"
    src.mkdir()
    (src / "blank.html").write_bytes(b"<html><body><div><img src='a.png'></div></body></html>")
    for fmt, ext in (("text", "txt"), ("markdown", "md"), ("html", "html"), ("json", "json")):
        out = tmp_path / fmt
        assert main(["extract", str(src), "-o", str(out), "--format", fmt]) == 0
        written = (out / f"blank.{ext}").read_bytes()
        if fmt == "json":
            doc = json.loads(written)
            assert doc["text"] == doc["markdown"] == "" and doc["warnings"] == ["no-text"]
        else:
            assert written == b"", fmt
    assert "flagged empty:no-text" in capsys.readouterr().err


@pytest.mark.parametrize("head", [
    '<link rel="canonical" href="https://[bad/x">',
    '<link rel="canonical" href="story"><meta property="og:url" content="https://[bad.org/">',
    '<link rel="canonical" href="https://example.org/2024/01/02/[x">',
    '<base href="//[bad/"><link rel="canonical" href="https://example.org/a/">',
])
def test_malformed_addresses_leave_the_page_whole(head, tiny_model):
    """An address urllib cannot read (a broken IPv6 host) in the page's canonical link, its
    og:url or a link costs at most that address, never the page or its Markdown."""
    from blockclf.predict import extract_batch
    from blockclf.render import to_html, to_markdown

    body = '<p>See <a href="//[bad/x">this</a>, <a href="https://[v6/x">that</a> and <a href="b.html">rel</a>.</p>'
    page = prepare(f"<html><head>{head}</head><body>{ARTICLE}{body}</body></html>")
    res = extract_batch([page], model=tiny_model, threshold=0.0)[0]
    assert "See this, that and rel." in res.text
    md, html = to_markdown(res), to_html(res)
    assert "See this, that and " in md and "See this, that and " in html  # the broken links' text, unlinked


# --- command line -----------------------------------------------------------------------

def write_bad_pages(src: Path, good: str) -> dict[str, str]:
    """A directory of good and bad pages; returns bad file name -> expected reason."""
    src.mkdir(parents=True, exist_ok=True)
    (src / "good1.html").write_text(good, encoding="utf-8")
    (src / "good2.html.gz").write_bytes(gzip.compress(good.encode()))
    bad = {
        "empty.html": b"",
        "blank.html": b"  \n ",
        "image.html": b"\x89PNG\r\n\x1a\n" + bytes(200),
        "noise.html": random.Random(1).randbytes(3000),
        "data.html": b'{"a": [1, 2, 3]}',
        "broken.html.gz": b"\x1f\x8b\x08\x00\xff\xff not deflate",
        "frames.html": b'<frameset><frame src="x.html"></frameset>',
    }
    for name, data in bad.items():
        (src / name).write_bytes(data)
    return {"empty.html": "empty", "blank.html": "empty", "image.html": "binary", "noise.html": "binary",
            "data.html": "not-html", "broken.html.gz": "bad-gzip", "frames.html": "frameset"}


def test_batch_with_bad_pages_skips_each_with_its_reason(capsys, tmp_path, tiny_model_file, synthetic_page):
    expected = write_bad_pages(tmp_path / "IN", synthetic_page(20, 0).html)
    code = main(["extract", str(tmp_path / "IN"), "-o", str(tmp_path / "OUT"), "--model", str(tiny_model_file)])
    err = capsys.readouterr().err
    assert code == 1
    assert "Traceback" not in err
    lines = err.splitlines()
    for name in expected:
        assert sum(name in line and line.startswith("blockclf: skipped") for line in lines) == 1
    assert lines[-1] == ("blockclf: 2 processed, 7 skipped "
                         "(bad-gzip 1, binary 2, empty 2, frameset 1, not-html 1)")
    assert sorted(p.name for p in (tmp_path / "OUT").iterdir()) == ["good1.txt", "good2.txt"]


def test_fail_fast_stops_at_the_first_skipped_page(capsys, tmp_path, tiny_model_file, synthetic_page):
    write_bad_pages(tmp_path / "IN", synthetic_page(20, 0).html)
    code = main(["extract", str(tmp_path / "IN"), "-o", str(tmp_path / "OUT"), "--model", str(tiny_model_file),
                 "--fail-fast"])
    err = capsys.readouterr().err
    assert code == 1
    assert sum(line.startswith("blockclf: skipped") for line in err.splitlines()) == 1
    assert err.splitlines()[-1].endswith("stopped at the first skipped page (--fail-fast)")


def test_fail_fast_writes_every_page_before_the_first_skipped_one_and_none_after(capsys, tmp_path, tiny_model_file,
                                                                                 synthetic_page):
    """A folder's pages with no site are written as soon as they are scored, but not with
    --fail-fast: the pages of a site before the broken one (scored in the second pass) are
    written, and no page after it, though a page with no site is scored in the first."""
    src = tmp_path / "IN"
    (src / "z").mkdir(parents=True)
    for p in range(3):  # the folder's own files come first, in sorted order, then its folders'
        (src / f"a{p}.html").write_text(synthetic_page(8, p).html, encoding="utf-8")  # a site, by its address
        html = synthetic_page(8, p).html.replace('<link rel="canonical"', '<link rel="x"')
        (src / "z" / f"c{p}.html").write_text(html, encoding="utf-8")  # no site: scored in the first pass
    (src / "b.html").write_bytes(b"<html><body>" + bytes(range(256)) * 8)  # read, then found binary
    out = tmp_path / "OUT"
    code = main(["extract", str(src), "-o", str(out), "--model", str(tiny_model_file), "--fail-fast", "--jobs", "1"])
    err = capsys.readouterr().err
    assert code == 1 and "skipped" in err and "b.html" in err
    assert sorted(str(p.relative_to(out)) for p in out.rglob("*.txt")) == ["a0.txt", "a1.txt", "a2.txt"]


def test_existing_output_is_skipped_unless_overwrite(capsys, tmp_path, tiny_model_file, synthetic_page):
    src = tmp_path / "IN"
    src.mkdir()
    (src / "a.html").write_text(synthetic_page(20, 0).html, encoding="utf-8")
    out = tmp_path / "OUT"
    out.mkdir()
    (out / "a.txt").write_text("keep me", encoding="utf-8")
    args = ["extract", str(src), "-o", str(out), "--model", str(tiny_model_file)]
    assert main(args) == 1
    assert "exists 1" in capsys.readouterr().err
    assert (out / "a.txt").read_text(encoding="utf-8") == "keep me"
    assert main(args + ["--overwrite"]) == 0
    assert (out / "a.txt").read_text(encoding="utf-8") != "keep me"


def _stopped_run(tmp_path: Path, make_page, capsys) -> tuple[list[str], dict[str, str], Path]:
    """Four pages of one site extracted with the shipped model, then two of their outputs
    removed, as a run stopped halfway leaves its folder: the arguments, the outputs of the
    whole run, and the output folder."""
    src = tmp_path / "IN"
    src.mkdir()
    for p in range(4):
        (src / f"{p}.html").write_text(make_page(8, p).html, encoding="utf-8")
    out = tmp_path / "OUT"
    args = ["extract", str(src), "-o", str(out), "--removed-log", str(tmp_path / "removed.jsonl")]
    assert main(args) == 0
    whole = {f.name: f.read_text(encoding="utf-8") for f in sorted(out.iterdir())}
    for name in ("1.txt", "3.txt"):
        (out / name).unlink()
    capsys.readouterr()
    return args, whole, out


def test_a_rerun_gives_the_pages_it_extracts_the_text_of_one_whole_run(capsys, tmp_path, synthetic_page):
    """Pages whose outputs exist are skipped, and still read as their site's evidence: the
    pages extracted again get the text they got with them (read alone, 3.txt lost words)."""
    args, whole, out = _stopped_run(tmp_path, synthetic_page, capsys)
    assert main(args) == 1
    err = capsys.readouterr().err
    assert "2 processed, 2 skipped (exists 2)" in err and err.count("exists (give --overwrite") == 2
    assert "2 outputs exist from an earlier run: --resume counts them as done" in err
    assert {f.name: f.read_text(encoding="utf-8") for f in sorted(out.iterdir())} == whole


def test_resume_continues_a_stopped_run_as_one_run(capsys, tmp_path, synthetic_page):
    args, whole, out = _stopped_run(tmp_path, synthetic_page, capsys)
    log = tmp_path / "removed.jsonl"
    earlier = log.read_text(encoding="utf-8").splitlines()
    assert main([*args, "--resume"]) == 0
    err = capsys.readouterr().err
    assert "2 processed, 2 done before, 0 skipped" in err and "exists" not in err
    assert "2 pages written before are read again as site evidence for the 2 extracted now" in err
    assert {f.name: f.read_text(encoding="utf-8") for f in sorted(out.iterdir())} == whole
    lines = log.read_text(encoding="utf-8").splitlines()
    assert lines[:len(earlier)] == earlier and len(lines) > len(earlier)  # the earlier run's log carried on
    names = {json.loads(line)["page"] for line in lines[len(earlier):]}
    assert {Path(n).name for n in names} == {"1.html", "3.html"}
    assert main([*args, "--resume"]) == 0  # nothing left to do: nothing read, the log as it was
    assert "0 processed, 4 done before, 0 skipped" in capsys.readouterr().err
    assert log.read_text(encoding="utf-8").splitlines() == lines


@pytest.mark.parametrize("extra,message", [(["--overwrite"], "give one"), (["-o", "-"], "give it as -o")])
def test_resume_needs_an_output_folder_to_keep(capsys, tmp_path, synthetic_page, extra, message):
    (tmp_path / "a.html").write_text(synthetic_page(8, 0).html, encoding="utf-8")
    assert main(["extract", str(tmp_path / "a.html"), "-o", str(tmp_path / "out"), "--resume", *extra]) == 2
    assert message in capsys.readouterr().err


def test_interrupted_write_leaves_no_half_file(tmp_path, monkeypatch):
    target = tmp_path / "out" / "a.txt"
    write_atomic(target, "old")

    def interrupted(self, other):
        raise KeyboardInterrupt

    monkeypatch.setattr(Path, "replace", interrupted)
    with pytest.raises(KeyboardInterrupt):
        write_atomic(target, "new text " * 1000)
    monkeypatch.undo()
    assert target.read_text(encoding="utf-8") == "old"
    assert [p.name for p in target.parent.iterdir()] == ["a.txt"]  # no temporary left behind


class _Crafted:
    """Unpickling this creates the marker file: proof that a pickle was executed."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self):
        return (Path.touch, (self.marker,))


def _model_variants(tmp_path: Path) -> dict[str, bytes]:
    shipped = json.loads(default_model_path().read_text(encoding="utf-8"))

    def edited(**changes) -> bytes:
        return json.dumps({**shipped, **changes}).encode()

    raw = json.dumps(shipped).encode()
    return {
        "pickle": pickle.dumps(_Crafted(tmp_path / "marker")),
        "truncated": raw[: len(raw) // 2],
        "newer": edited(format_version=99),
        "foreign": edited(format="something-else"),
        "missing-features": edited(features=shipped["features"][:-3]),
        "malformed-booster": edited(booster=shipped["booster"][:2000].replace("tree", "tree\nnum_leaves=x")),
        "bad-thresholds": edited(thresholds={"balanced": 3}),
        "binary": codecs.BOM_UTF16_LE + bytes(range(256)),
    }


@pytest.mark.parametrize("variant", ["pickle", "truncated", "newer", "foreign", "missing-features",
                                     "malformed-booster", "bad-thresholds", "binary"])
def test_bad_model_file_exits_2_with_one_line(capsys, tmp_path, variant):
    model = tmp_path / "model.json"
    model.write_bytes(_model_variants(tmp_path)[variant])
    page = tmp_path / "a.html"
    page.write_text(PAGE, encoding="utf-8")
    code = main(["extract", str(page), "--model", str(model)])
    out, err = capsys.readouterr()
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("blockclf: error:") and "Traceback" not in err
    assert not (tmp_path / "marker").exists()  # the crafted pickle ran nothing


def test_crafted_pickle_really_would_run(tmp_path):
    """The marker test above means something: unpickling the file does create the marker."""
    pickle.loads(_model_variants(tmp_path)["pickle"])
    assert (tmp_path / "marker").exists()


def test_bad_model_file_one_line_at_the_process_level(tmp_path):
    """LightGBM also prints its fatal errors on file descriptor 2; the command still shows one line."""
    import os
    import subprocess
    import sys

    model = tmp_path / "model.json"
    model.write_bytes(_model_variants(tmp_path)["malformed-booster"])
    page = tmp_path / "a.html"
    page.write_text(PAGE, encoding="utf-8")
    root = str(Path(__file__).resolve().parent.parent)
    env = {**os.environ, "PYTHONPATH": root + os.pathsep + os.environ.get("PYTHONPATH", "")}
    proc = subprocess.run([sys.executable, "-m", "blockclf", "extract", str(page), "--model", str(model)],
                          check=False, capture_output=True, text=True, env=env, timeout=120)
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.count("\n") == 1 and "LightGBM model string is malformed" in proc.stderr


def test_flagged_page_is_processed_and_named_on_stderr(capsys, tmp_path, tiny_model_file, synthetic_page):
    src = tmp_path / "IN"
    src.mkdir()
    (src / "cut.html.gz").write_bytes(gzip.compress(synthetic_page(20, 0).html.encode())[:-30])
    code = main(["extract", str(src), "-o", str(tmp_path / "OUT"), "--model", str(tiny_model_file)])
    err = capsys.readouterr().err
    assert code == 0
    assert f"blockclf: warning: {src / 'cut.html.gz'}: flagged truncated-gzip" in err.splitlines()
    assert (tmp_path / "OUT" / "cut.txt").exists()


def test_prepare_many_turns_every_failure_into_a_page_error(tmp_path, monkeypatch):
    from blockclf import predict

    sources = [("good", PAGE.encode()), ("empty", b""), ("missing", tmp_path / "nope.html"), ("bug", b"<p>x</p>")]
    real = predict.prepare

    def flaky(src, **kw):
        if kw.get("name") == "bug":
            raise RuntimeError("a library failure")
        return real(src, **kw)

    monkeypatch.setattr(predict, "prepare", flaky)
    out = dict(predict.prepare_many(sources))
    assert out["good"].blocks
    assert {k: v.reason for k, v in out.items() if isinstance(v, PageError)} == {
        "empty": "empty", "missing": "unreadable", "bug": "error"}


def test_a_resumable_file_appears_whole_and_a_stopped_one_is_continued(tmp_path):
    target = tmp_path / "out" / "crawl.jsonl"
    partial = partial_path(target)
    with pytest.raises(KeyboardInterrupt), resumable_open(target) as fh:
        fh.write("one\ntwo\n")
        fh.flush()
        raise KeyboardInterrupt
    assert not target.exists() and partial.read_text(encoding="utf-8") == "one\ntwo\n"
    with partial.open("a", encoding="utf-8") as fh:
        fh.write("thr")  # cut short by a kill
    seen: list[bytes] = []
    with resumable_open(target, resume=True, on_line=lambda line: seen.append(line) or True) as fh:
        fh.write("three\n")
    assert seen == [b"one", b"two"] and target.read_text(encoding="utf-8") == "one\ntwo\nthree\n"
    assert not partial.exists()
    partial.write_text("one\nBAD\nthree\n", encoding="utf-8")  # a line the caller refuses ends what is kept
    with resumable_open(target, resume=True, on_line=lambda line: line != b"BAD") as fh:
        fh.write("four\n")
    assert target.read_text(encoding="utf-8") == "one\nfour\n"


def test_a_resumable_file_follows_no_link_and_takes_one_writer(tmp_path):
    target = tmp_path / "crawl.jsonl"
    partial = partial_path(target)
    outside = tmp_path / "outside.txt"
    outside.write_text("precious\n", encoding="utf-8")
    for link in (partial.symlink_to, partial.hardlink_to):
        link(outside)
        with resumable_open(target, resume=True) as fh:  # not continued, not written through
            fh.write("new\n")
        assert outside.read_text(encoding="utf-8") == "precious\n"
        assert target.read_text(encoding="utf-8") == "new\n" and not partial.exists()
    with resumable_open(target) as fh, pytest.raises(OutputError, match="another run is writing it") as exc, \
            resumable_open(target):
        fh.write("x\n")
    assert exc.value.only_this_output  # the batch goes on with its other files


def test_resume_without_site_evidence_reads_no_page_written_before(capsys, tmp_path, synthetic_page, monkeypatch):
    """With --no-site the pages written before are no one's evidence: nothing is read for
    them, and a run with nothing left to do starts no batch."""
    import blockclf.batch as batch

    args, _whole, _out = _stopped_run(tmp_path, synthetic_page, capsys)
    read: list[list[str]] = []
    real = batch.run_batch
    monkeypatch.setattr(batch, "run_batch", lambda items, *a, **k: read.append([it.name for it in items])
                        or real(items, *a, **k))
    assert main([*args, "--resume", "--no-site"]) == 0
    assert "2 processed, 2 done before" in capsys.readouterr().err
    assert [sorted(Path(n).name for n in names) for names in read] == [["1.html", "3.html"]]
    assert main([*args, "--resume", "--no-site"]) == 0
    assert "0 processed, 4 done before" in capsys.readouterr().err and len(read) == 1
