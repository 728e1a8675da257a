"""WARC input: HTML responses of a crawl extracted to JSONL keyed by record URL, sites pooled."""

from __future__ import annotations

import gzip
import io
import json
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("warcio", reason="WARC input needs the 'warc' extra (warcio)")
from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter

from blockclf.batch import BatchOptions
from blockclf.cli import main
from blockclf.predict import extract_batch, prepare
from blockclf.render import Form
from blockclf.warc import extract_warc, is_warc, read_warc


def write_warc(path: Path, pages: list[tuple[str, str]], extra: bool = True) -> Path:
    """A gzipped WARC holding one HTML response per ``(url, html)`` plus records to ignore."""
    with path.open("wb") as fh:
        writer = WARCWriter(fh, gzip=True)
        for url, html in pages:
            headers = StatusAndHeaders("200 OK", [("Content-Type", "text/html; charset=utf-8")], protocol="HTTP/1.1")
            writer.write_record(writer.create_warc_record(url, "response", payload=io.BytesIO(html.encode("utf-8")),
                                                          http_headers=headers))
        if extra:
            img = StatusAndHeaders("200 OK", [("Content-Type", "image/png")], protocol="HTTP/1.1")
            writer.write_record(writer.create_warc_record("https://img.example.org/a.png", "response",
                                                          payload=io.BytesIO(b"\x89PNG...."), http_headers=img))
            gone = StatusAndHeaders("404 Not Found", [("Content-Type", "text/html")], protocol="HTTP/1.1")
            writer.write_record(writer.create_warc_record("https://site8.example.org/missing", "response",
                                                          payload=io.BytesIO(b"<p>not found</p>"), http_headers=gone))
            writer.write_record(writer.create_warc_record("https://site8.example.org/x", "request",
                                                          payload=io.BytesIO(b"GET /x HTTP/1.1\r\n\r\n")))
    return path


@pytest.fixture
def crawl(tmp_path: Path, synthetic_page) -> tuple[Path, list[tuple[str, str]]]:
    pages = [(f"https://site{s}.example.org/story/{p}", synthetic_page(s, p).html) for s in (8, 9) for p in range(3)]
    return write_warc(tmp_path / "crawl.warc.gz", pages), pages


def test_reads_only_html_responses_keyed_by_url(crawl):
    path, pages = crawl
    items = list(read_warc(path))
    assert [it.name for it in items] == [url for url, _ in pages]
    assert all(it.url == it.name and it.encoding == "utf-8" for it in items)
    assert items[0].source == pages[0][1].encode("utf-8")
    assert is_warc(path) and is_warc("a.WARC") and not is_warc("a.html.gz")


def test_jsonl_matches_batch_extraction_with_site_evidence(crawl, tmp_path, tiny_model):
    path, pages = crawl
    out = extract_warc(path, tmp_path / "out", BatchOptions(model=tiny_model), "json")
    rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert [r["url"] for r in rows] == [url for url, _ in pages]
    # the same pages through extract_batch, grouped by the record URLs' sites
    ref = extract_batch([prepare(html.encode("utf-8"), url=url, name=url) for url, html in pages], model=tiny_model)
    for row, res in zip(rows, ref):
        assert row["site"] == res.site == "example.org"  # the records' registered domain
        assert np.allclose([b["score"] for b in row["blocks"]], res.scores, atol=1e-4)  # JSON rounds scores
        assert [b["kept"] for b in row["blocks"]] == res.kept.tolist()


def test_jsonl_lines_hold_the_block_records_asked_for(crawl, tmp_path, tiny_model):
    path, _ = crawl
    rows = {}
    for blocks in ("all", "kept", "none"):
        out = extract_warc(path, tmp_path / blocks, BatchOptions(model=tiny_model), Form("json", blocks=blocks))
        rows[blocks] = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    for every, kept, bare in zip(rows["all"], rows["kept"], rows["none"]):
        assert kept["blocks"] == [b for b in every["blocks"] if b["kept"]] != every["blocks"]
        assert "blocks" not in bare and bare["url"] == every["url"] and bare["text"] == every["text"]


def test_cli_writes_jsonl_and_reports_skips(crawl, tmp_path, tiny_model_file, capsys):
    path, pages = crawl
    assert main(["extract", str(path), "-o", str(tmp_path / "o"), "--model", str(tiny_model_file)]) == 0
    rows = [json.loads(line) for line in (tmp_path / "o" / "crawl.jsonl").read_text(encoding="utf-8").splitlines()]
    assert len(rows) == len(pages) and all(r["text"] for r in rows)
    broken = write_warc(tmp_path / "broken.warc.gz", [("https://site8.example.org/e", " "), pages[0]], extra=False)
    assert main(["extract", str(broken), "--model", str(tiny_model_file)]) == 1
    captured = capsys.readouterr()
    assert "skipped https://site8.example.org/e" in captured.err
    assert json.loads(captured.out.splitlines()[0])["url"] == pages[0][0]


def test_a_folder_of_warcs_is_read_and_its_layout_kept(tmp_path, synthetic_page, tiny_model_file, capsys):
    # a crawl's folder of WARC files, one a day: each written where it lies, beside the folder's pages
    crawl = tmp_path / "crawl"
    (crawl / "2026-12-02").mkdir(parents=True)
    day1 = [(f"https://site8.example.org/story/{p}", synthetic_page(8, p).html) for p in range(3)]
    day2 = [(f"https://site9.example.org/story/{p}", synthetic_page(9, p).html) for p in range(2)]
    write_warc(crawl / "a.warc.gz", day1)
    write_warc(crawl / "2026-12-02" / "a.warc.gz", day2)
    (crawl / "2026-12-02" / "b.html").write_text(day2[0][1], encoding="utf-8")
    out = tmp_path / "out"
    assert main(["extract", str(crawl), "-o", str(out), "--model", str(tiny_model_file)]) == 0
    assert "not read" not in capsys.readouterr().err
    for jsonl, pages in ((out / "a.jsonl", day1), (out / "2026-12-02" / "a.jsonl", day2)):
        rows = [json.loads(line) for line in jsonl.read_text(encoding="utf-8").splitlines()]
        assert [r["url"] for r in rows] == [url for url, _ in pages] and all(r["text"] for r in rows)
    assert (out / "2026-12-02" / "b.txt").read_text(encoding="utf-8")
    # a folder and a WARC of it named on one command line: the WARC is read once
    assert main(["extract", str(crawl), str(crawl / "a.warc.gz"), "-o", str(tmp_path / "o2"),
                 "--model", str(tiny_model_file)]) == 0
    assert len((tmp_path / "o2" / "a.jsonl").read_text(encoding="utf-8").splitlines()) == len(day1)
    assert "6 processed, 0 skipped" in capsys.readouterr().err


def test_plain_gzip_is_not_a_warc(tmp_path):
    page = tmp_path / "p.html.gz"
    page.write_bytes(gzip.compress(b"<p>x</p>"))
    assert not is_warc(page)


def test_cli_removed_log_from_a_warc_matches_the_removal_log(crawl, tmp_path, tiny_model_file, tiny_model):
    # the log's lines are encoded where each record is scored; they must be the records themselves
    from blockclf.render import removal_log

    path, pages = crawl
    log = tmp_path / "removed.jsonl"
    assert main(["extract", str(path), "-o", str(tmp_path / "o"), "--model", str(tiny_model_file),
                 "--removed-log", str(log)]) == 0
    got = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    ref = extract_batch([prepare(html.encode("utf-8"), url=url, name=url) for url, html in pages], model=tiny_model)
    want = [rec for res in ref for rec in removal_log(res)]
    assert got and [(r["page"], r["xpath"], r["text"]) for r in got] == [(r["page"], r["xpath"], r["text"]) for r in want]


@pytest.mark.parametrize(("charset", "used"), [("utf-7", None), ("unicode_escape", None), ("gb2312", "gbk"),
                                                ("ISO-8859-1", "iso8859-1"), ("windows-874", "cp874")])
def test_a_records_http_charset_is_read_as_browsers_read_it(tmp_path, charset, used):
    # a charset no browser knows is no charset: the page is read as if its header named none
    path = tmp_path / "c.warc.gz"
    with path.open("wb") as fh:
        writer = WARCWriter(fh, gzip=True)
        headers = StatusAndHeaders("200 OK", [("Content-Type", f"text/html; charset={charset}")], protocol="HTTP/1.1")
        writer.write_record(writer.create_warc_record("https://site.example.org/a", "response",
                                                      payload=io.BytesIO(b"<p>Price +ADw-b+AD4-low</p>"),
                                                      http_headers=headers))
    [item] = read_warc(path)
    assert item.encoding == used
    page = prepare(item.source, encoding=item.encoding)
    assert page.blocks[0].text == "Price +ADw-b+AD4-low"


def test_site_build_counts_a_warcs_pages_not_the_warc_as_one_page(crawl, tmp_path, capsys):
    path, pages = crawl
    assert main(["site", "build", str(path), "-o", str(tmp_path / "p.json"), "--site", "example.org"]) == 0
    assert f"{len(pages)} new pages, {len(pages)} in profile" in capsys.readouterr().out
