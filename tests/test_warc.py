"""WARC input: HTML responses of a crawl extracted to JSONL keyed by record URL, sites pooled."""

from __future__ import annotations

import gzip
import io
import json
import sys
import zlib
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
    # each WARC's image and 404 page are counted, its request record is not
    err = capsys.readouterr().err
    for warc in (crawl / "a.warc.gz", crawl / "2026-12-02" / "a.warc.gz"):
        assert f"blockclf: {warc}: 2 records not read as pages: image/png 1, status 404 1\n" in err
    assert err.count("not read") == 2
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


def raw_record(uri: bytes, body: bytes, http_head: bytes = b"Content-Type: text/html; charset=utf-8\r\n",
               length: bytes | None = None) -> bytes:
    """One uncompressed WARC response record, written by hand so that any of its fields can be wrong."""
    block = b"HTTP/1.1 200 OK\r\n" + http_head + b"\r\n" + body
    return (b"WARC/1.0\r\nWARC-Type: response\r\nWARC-Record-ID: <urn:uuid:" + uri.hex()[:32].encode() + b">\r\n"
            b"WARC-Target-URI: " + uri + b"\r\nContent-Type: application/http; msgtype=response\r\n"
            b"Content-Length: " + (length if length is not None else str(len(block)).encode()) + b"\r\n\r\n"
            + block + b"\r\n\r\n")


def page_records(n: int) -> list[bytes]:
    return [raw_record(f"https://site.example.org/{i}".encode(), f"<p>Page {i} of the site</p>".encode())
            for i in range(n)]


def read_all(path: Path) -> tuple[list[str], dict]:
    damage: dict = {}
    return [it.name for it in read_warc(path, damage=damage)], damage


def test_a_body_whose_decoder_fails_costs_only_its_record(tmp_path, monkeypatch):
    from warcio.bufferedreaders import BufferedReader

    def broken():  # a decompressing library that cannot be set up, as brotli 1.2 fails under warcio
        raise AttributeError("'Decompressor' object has no attribute 'unused_data'")

    monkeypatch.setitem(BufferedReader.DECOMPRESSORS, "deflate", broken)
    pages = page_records(3)
    pages[1] = raw_record(b"https://site.example.org/1", zlib.compress(b"<p>Page 1</p>"),
                          b"Content-Type: text/html\r\nContent-Encoding: deflate\r\n")
    warc = tmp_path / "c.warc"
    warc.write_bytes(b"".join(pages))
    names, damage = read_all(warc)
    assert names == ["https://site.example.org/0", "https://site.example.org/2"]
    error = damage["https://site.example.org/1"]
    assert error.reason == "warc-corrupt" and "Content-Encoding: deflate) cannot be decoded" in str(error)
    assert "AttributeError" not in str(error)


def test_brotli_bodies_are_decoded_and_a_damaged_one_costs_only_itself(tmp_path):
    brotli = pytest.importorskip("brotli")
    pages = page_records(4)
    br = b"Content-Type: text/html; charset=utf-8\r\nContent-Encoding: br\r\n"
    pages[1] = raw_record(b"https://site.example.org/1", brotli.compress(b"<p>Page one, squeezed</p>"), br)
    pages[2] = raw_record(b"https://site.example.org/2", b"\xff not brotli at all \xff" * 4, br)
    for gz in (False, True):
        warc = tmp_path / ("b.warc.gz" if gz else "b.warc")
        warc.write_bytes(b"".join(gzip.compress(p) for p in pages) if gz else b"".join(pages))
        items = list(read_warc(warc, damage=(damage := {})))
        assert [it.name for it in items] == [f"https://site.example.org/{i}" for i in (0, 1, 3)]
        assert items[1].source == b"<p>Page one, squeezed</p>"
        error = damage["https://site.example.org/2"]
        assert error.reason == "warc-corrupt" and "(Content-Encoding: br) cannot be decoded" in str(error)


def record(uri: bytes, body: bytes, head: bytes, status: bytes = b"200 OK", kind: bytes = b"response") -> bytes:
    """One uncompressed WARC record of any type and HTTP status (a resource record holds ``body`` alone)."""
    block = body if kind == b"resource" else b"HTTP/1.1 " + status + b"\r\n" + head + b"\r\n" + body
    own = head if kind == b"resource" else b"Content-Type: application/http; msgtype=response\r\n"
    return (b"WARC/1.0\r\nWARC-Type: " + kind + b"\r\nWARC-Record-ID: <urn:uuid:" + uri.hex()[:32].encode()
            + b">\r\nWARC-Target-URI: " + uri + b"\r\n" + own + b"Content-Length: " + str(len(block)).encode()
            + b"\r\n\r\n" + block + b"\r\n\r\n")


def test_every_response_is_read_as_a_page_or_counted_with_why_it_is_not(tmp_path, tiny_model_file, capsys):
    """A crawl's pages without a Content-Type were dropped, and its redirects, errors, images and
    revisits went unmentioned: the pages written did not add up to what the file held."""
    page = b"<!DOCTYPE html><html><body><p>A page of the site, with its text.</p></body></html>"
    html = b"Content-Type: text/html; charset=utf-8\r\n"
    records = [
        record(b"https://site.example.org/a", page, html),
        record(b"https://site.example.org/untyped", b"\n  " + page, b"Server: x\r\n"),  # browsers sniff it: HTML
        record(b"https://site.example.org/unknown", page, b"Content-Type: unknown/unknown\r\n"),
        record(b"https://site.example.org/data", b"\x00\x01 binary, no type", b"Server: x\r\n"),
        record(b"https://site.example.org/saved.html", page, html, kind=b"resource"),
        record(b"https://site.example.org/logo.png", b"\x89PNG\r\n", b"Content-Type: image/png\r\n"),
        record(b"https://site.example.org/file", page, b"Content-Type: application/octet-stream\r\n"),
        record(b"https://site.example.org/old", b"", b"Location: /a\r\n", status=b"301 Moved Permanently"),
        record(b"https://site.example.org/gone", page, html, status=b"404 Not Found"),
        record(b"https://site.example.org/a", b"", html, kind=b"revisit"),
        record(b"https://site.example.org/b", b"GET /b HTTP/1.1\r\n\r\n", b"", kind=b"request"),
    ]
    warc = tmp_path / "crawl.warc"
    warc.write_bytes(b"".join(records))
    not_pages: dict[int, str] = {}
    items = list(read_warc(warc, damage=(damage := {}), not_pages=not_pages))
    assert [it.name for it in items] == [f"https://site.example.org/{p}" for p in ("a", "untyped", "unknown",
                                                                                     "saved.html")]
    assert items[3].source == page and not damage
    assert not_pages == {4: "no type, not HTML", 6: "image/png", 7: "application/octet-stream", 8: "status 301",
                         9: "status 404", 10: "revisit"}
    assert main(["extract", str(warc), "-o", str(tmp_path / "o"), "--model", str(tiny_model_file)]) == 0
    assert (f"blockclf: {warc}: 6 records not read as pages: no type, not HTML 1, image/png 1, "
            "application/octet-stream 1, status 301 1, status 404 1, revisit 1\n") in capsys.readouterr().err
    assert len((tmp_path / "o" / "crawl.jsonl").read_text(encoding="utf-8").splitlines()) == 4


def test_zstandard_bodies_are_decoded_within_the_limit_and_a_damaged_one_costs_only_itself(tmp_path, monkeypatch):
    """Browsers ask for zstd and servers send it; warcio passed such a body on undecoded, and
    the page was refused as binary."""
    zstandard = pytest.importorskip("zstandard")
    pages = page_records(5)
    zst = b"Content-Type: text/html; charset=utf-8\r\nContent-Encoding: zstd\r\n"
    two_frames = zstandard.ZstdCompressor().compress(b"<p>Page one, ") + zstandard.ZstdCompressor().compress(
        b"in two frames</p>")
    pages[1] = raw_record(b"https://site.example.org/1", two_frames, zst)
    pages[2] = raw_record(b"https://site.example.org/2", b"\x28\xb5\x2f\xfd not zstd after all" * 4, zst)
    pages[3] = raw_record(b"https://site.example.org/3", zstandard.ZstdCompressor().compress(b"<p>x</p>" * 400_000), zst)
    warc = tmp_path / "z.warc.gz"
    warc.write_bytes(b"".join(gzip.compress(p) for p in pages))
    items = list(read_warc(warc, damage=(damage := {}), max_bytes=1_000_000))
    assert [it.name for it in items] == [f"https://site.example.org/{i}" for i in (0, 1, 4)]
    assert items[1].source == b"<p>Page one, in two frames</p>"
    assert damage["https://site.example.org/2"].reason == "warc-corrupt"
    assert "(Content-Encoding: zstd) cannot be decoded" in str(damage["https://site.example.org/2"])
    assert damage["https://site.example.org/3"].reason == "too-large"  # 3.2 MB from 300 bytes, read no further
    # without the package, such a record is a named skip and the others are read
    monkeypatch.setitem(sys.modules, "zstandard", None)
    damage = {}
    names = [it.name for it in read_warc(warc, damage=damage)]
    assert names == [f"https://site.example.org/{i}" for i in (0, 4)]
    assert {damage[f"https://site.example.org/{i}"].reason for i in (1, 2, 3)} == {"needs-zstandard"}
    assert "pip install zstandard" in str(damage["https://site.example.org/1"])


def test_a_warc_gzipped_whole_is_read(tmp_path, tiny_model_file, capsys):
    # `gzip crawl.warc` makes one gzip member of the whole file, not one a record
    warc = tmp_path / "whole.warc.gz"
    warc.write_bytes(gzip.compress(b"".join(page_records(3))))
    names, damage = read_all(warc)
    assert names == [f"https://site.example.org/{i}" for i in range(3)] and not damage
    assert main(["extract", str(warc), "-o", str(tmp_path / "o"), "--model", str(tiny_model_file)]) == 0
    assert len((tmp_path / "o" / "whole.jsonl").read_text(encoding="utf-8").splitlines()) == 3
    assert sorted(p.name for p in (tmp_path / "o").iterdir()) == ["whole.jsonl"]
    # cut short, it gives the records before the cut and names the cut
    data = gzip.compress(b"".join(page_records(40)), mtime=0)
    warc.write_bytes(data[: len(data) * 3 // 4])
    names, damage = read_all(warc)
    assert 10 < len(names) < 40 and [e.reason for e in damage.values()] == ["warc-truncated"]
    assert "cut short" in str(next(iter(damage.values())))


def test_a_record_its_crawler_cut_short_is_read_and_flagged(tmp_path, tiny_model_file, capsys):
    """WARC-Truncated: the crawler kept less than the server sent; the page is read as it is
    and flagged, as a cut gzip page is."""
    cut, whole = page_records(2)
    cut = cut.replace(b"WARC-Type: response\r\n", b"WARC-Type: response\r\nWARC-Truncated: length\r\n", 1)
    warc = tmp_path / "crawl.warc"
    warc.write_bytes(cut + whole)
    items = list(read_warc(warc))
    assert [it.warnings for it in items] == [("truncated-record",), ()]
    assert main(["extract", str(warc), "-o", str(tmp_path / "o"), "--model", str(tiny_model_file)]) == 0
    err = capsys.readouterr().err
    assert "https://site.example.org/0: flagged truncated-record" in err
    assert "https://site.example.org/1: flagged truncated" not in err and "truncated-record 1" in err.splitlines()[-1]


def test_reading_resumes_after_a_gzip_member_damaged_in_its_headers(tmp_path):
    import random

    from warcio.utils import BUFF_SIZE

    def member(url: str, body: bytes) -> bytes:
        return gzip.compress(raw_record(url.encode(), body), mtime=0)

    # the first member ends a little before warcio's first read does, so that the second one's
    # headers straddle two reads and its damage is met while they are read: warcio then stops
    n, target = 8000, BUFF_SIZE - 150
    for _ in range(60):
        first = member("https://site.example.org/0", b"<p>" + random.Random(n).randbytes(n).hex().encode() + b"</p>")
        if abs(target - len(first)) <= 3:
            break
        n += (target - len(first)) // 2 or 1
    body = b"<p>" + random.Random(1).randbytes(3000).hex().encode() + b"</p>"
    second = bytearray(member("https://site.example.org/1", body))
    for i in range(BUFF_SIZE - len(first) + 10, BUFF_SIZE - len(first) + 210):
        second[i] ^= 0x5A
    warc = tmp_path / "d.warc.gz"
    warc.write_bytes(first + bytes(second) + member("https://site.example.org/2", b"<p>Page 2</p>"))
    names, damage = read_all(warc)
    assert names == ["https://site.example.org/0", "https://site.example.org/2"]
    [error] = damage.values()
    assert error.reason == "warc-corrupt" and "record 2 of d.warc.gz" in str(error) and "gzip member" in str(error)


@pytest.mark.parametrize("length", [b"5", b"300", b"99999999", b"-5", b"twelve", b"1" + b"0" * 30])
def test_a_wrong_content_length_costs_only_its_record(tmp_path, length):
    pages = page_records(4)
    pages[1] = raw_record(b"https://site.example.org/1", b"<p>Page 1 of the site</p>", length=length)
    warc = tmp_path / "l.warc"
    warc.write_bytes(b"".join(pages))
    names, damage = read_all(warc)
    assert names == [f"https://site.example.org/{i}" for i in (0, 2, 3)]
    [error] = damage.values()
    assert error.reason == "warc-corrupt" and "record 2 of l.warc" in str(error) and "reading goes on" in str(error)
    assert "Error" not in str(error) and str(error).isprintable()


def test_html_responses_to_other_than_http_urls_are_read(tmp_path):
    uris = [b"javascript:x", b"file:///srv/a.html", b"urn:x:y", b"ftp://example.org/a", b"/relative/path",
            b"dns:example.org", "https://example.org/caf\u00e9".encode("latin-1")]
    pages = [raw_record(uri, b"<p>A page of its own</p>") for uri in uris]
    warc = tmp_path / "u.warc"
    warc.write_bytes(b"".join(pages) + raw_record(b"urn:not-html", b"x", b"Content-Type: image/png\r\n"))
    names, damage = read_all(warc)
    assert names == [uri.decode("latin-1") for uri in uris] and not damage


def test_a_damaged_records_body_that_names_a_warc_version_is_not_taken_for_a_record(tmp_path):
    """Reading on after a damaged record looks for the next line that begins "WARC/1.": a page
    about the format, or a log, has such lines, and reading went on from one, reporting a
    record that was never there (and numbering every record after it one too many)."""
    body = (b"<pre>Each record starts with its version:\r\nWARC/1.0\r\nand its headers come after it.\r\n"
            b"WARC/1.1 is the newer one.</pre>")
    pages = page_records(4)
    pages[1] = raw_record(b"https://site.example.org/1", body, length=b"40")  # cut short: damaged
    warc = tmp_path / "d.warc"
    warc.write_bytes(b"".join(pages))
    names, damage = read_all(warc)
    assert names == [f"https://site.example.org/{i}" for i in (0, 2, 3)]
    [error] = damage.values()
    assert "record 2 of d.warc" in str(error) and f"reading goes on at offset {sum(map(len, pages[:2]))}" in str(error)
