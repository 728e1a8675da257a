"""JSON lines of pages as input: one page a line, its HTML in a field, one JSON line out a page."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from blockclf.batch import BatchOptions
from blockclf.cli import main
from blockclf.records import extract_jsonl, read_jsonl


def _page(title: str) -> str:
    paragraphs = "".join(f"<p>{title}, part {i}: water runs faster on the outside of a bend and wears the bank "
                         f"away, so the bend grows every year.</p>" for i in range(5))
    return (f"<html><body><nav><a href='/'>Home</a> <a href='/news'>News</a></nav><article><h1>{title}</h1>"
            f"{paragraphs}</article><footer>© Example</footer></body></html>")


def _write(path: Path, rows: list, gz: bool = False) -> Path:
    text = "".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in rows)
    path.write_bytes(gzip.compress(text.encode("utf-8")) if gz else text.encode("utf-8"))
    return path


def test_each_line_is_a_page_named_by_its_id_url_or_place(tmp_path):
    path = _write(tmp_path / "pages.jsonl", [
        {"id": "rec-1", "url": "https://news.example.org/a", "html": _page("A")},
        {"url": "https://news.example.org/b", "html": _page("B")},
        {"html": _page("C"), "url": "ftp://not.an.address/c"},
        "",
        {"id": 7, "html": _page("D")},
    ])
    items = list(read_jsonl(path))
    assert [it.name for it in items] == ["rec-1", "https://news.example.org/b", "pages.jsonl:3", "7"]
    assert [it.url for it in items] == ["https://news.example.org/a", "https://news.example.org/b", None, None]
    assert items[0].source == _page("A")


def test_lines_that_hold_no_page_are_named_and_the_others_read(tmp_path, tiny_model_file, capsys):
    src = tmp_path / "in"
    (src / "shards").mkdir(parents=True)
    _write(src / "crawl.jsonl", [
        {"url": f"https://news.example.org/s{i}", "html": _page(f"Story {i}")} for i in range(3)
    ] + [{"url": "https://news.example.org/x", "content": "no HTML"}, "not json", "[1, 2]",
         {"url": "https://news.example.org/s3", "html": _page("Story 3")}])
    _write(src / "shards" / "part-0001.jsonl.gz", [{"url": f"https://blog.example.net/p{i}", "html": _page(f"Post {i}")}
                                                   for i in range(2)], gz=True)
    out = tmp_path / "out"
    assert main(["extract", str(src), "-o", str(out), "--model", str(tiny_model_file)]) == 1
    err = capsys.readouterr().err
    assert "crawl.jsonl:4: line 4 of crawl.jsonl has no 'html' string" in err
    assert "crawl.jsonl:5: line 5 of crawl.jsonl is not JSON" in err and "line 6 of crawl.jsonl is not a JSON object" in err
    assert "6 processed, 3 skipped (jsonl-corrupt 2, no-html 1)" in err
    rows = [json.loads(line) for line in (out / "crawl.jsonl").read_text(encoding="utf-8").splitlines()]
    assert [r["name"] for r in rows] == [f"https://news.example.org/s{i}" for i in range(4)]
    assert all("water runs faster" in r["text"] and "Home" not in r["text"] for r in rows)
    shard = (out / "shards" / "part-0001.jsonl").read_text(encoding="utf-8").splitlines()
    assert [json.loads(line)["name"] for line in shard] == ["https://blog.example.net/p0", "https://blog.example.net/p1"]


def test_a_file_whose_first_line_names_no_html_is_one_skip_or_read_by_the_field_named(tmp_path, tiny_model_file,
                                                                                         capsys):
    path = _write(tmp_path / "export.jsonl", [{"url": f"https://shop.example.com/{i}", "raw_html": _page(f"Item {i}")}
                                              for i in range(50)])
    assert main(["extract", str(path), "-o", str(tmp_path / "o1"), "--model", str(tiny_model_file)]) == 1
    err = capsys.readouterr().err
    assert err.count("blockclf: skipped") == 1 and "its first record has no 'html' string (give --html-field" in err
    assert main(["extract", str(path), "-o", str(tmp_path / "o2"), "--model", str(tiny_model_file),
                 "--html-field", "raw_html", "--format", "json", "--blocks", "none"]) == 0
    rows = [json.loads(line) for line in (tmp_path / "o2" / "export.jsonl").read_text(encoding="utf-8").splitlines()]
    assert len(rows) == 50 and rows[49]["url"] == "https://shop.example.com/49" and "Item 49" in rows[49]["text"]


def test_a_first_line_whose_html_is_null_is_one_skipped_page_not_the_whole_file(tmp_path):
    """A null is a page that was not fetched; the field is there, so the file is read."""
    path = _write(tmp_path / "crawl.jsonl", [{"id": "failed", "html": None}] + [{"id": f"p{i}", "html": _page(f"P{i}")}
                                                                               for i in range(3)])
    damage: dict = {}
    items = list(read_jsonl(path, damage=damage))
    assert [i.name for i in items] == ["p0", "p1", "p2"]
    assert [e.reason for e in damage.values()] == ["no-html"] and "line 1 of crawl.jsonl" in str(*damage.values())


def test_a_jsonl_pages_flags_are_named_on_stderr_as_a_files_are(tmp_path, tiny_model_file, capsys):
    path = _write(tmp_path / "crawl.jsonl", [{"id": "blank", "html": "<html><body><div></div></body></html>"},
                                             {"id": "p0", "html": _page("P0")}])
    assert main(["extract", str(path), "-o", str(tmp_path / "out"), "--model", str(tiny_model_file)]) == 0
    err = capsys.readouterr().err
    assert "blockclf: warning: blank: flagged " in err and "flagged: " in err.splitlines()[-1]


def test_a_long_line_and_a_cut_gzip_stream_are_named_and_what_precedes_them_read(tmp_path, tiny_model):
    long = _write(tmp_path / "long.jsonl", [{"html": _page("A")}, {"html": "<p>" + "x" * 5000 + "</p>"},
                                            {"html": _page("C")}])
    damage: dict = {}
    assert [it.name for it in read_jsonl(long, max_bytes=2000, damage=damage)] == ["long.jsonl:1", "long.jsonl:3"]
    assert damage["long.jsonl:2"].reason == "too-large"
    cut = tmp_path / "cut.jsonl.gz"
    whole = _write(tmp_path / "whole.jsonl.gz", [{"html": _page(f"P{i}")} for i in range(40)], gz=True).read_bytes()
    cut.write_bytes(whole[: len(whole) // 2])
    damage = {}
    opts = BatchOptions(model=tiny_model)
    items = list(read_jsonl(cut, damage=damage))
    assert 0 < len(items) < 40 and [e.reason for e in damage.values()] == ["jsonl-corrupt"]
    target = extract_jsonl(cut, tmp_path / "o", opts)
    assert target is not None and len(target.read_text(encoding="utf-8").splitlines()) == len(items)


def test_without_an_output_folder_the_lines_go_to_standard_output(tmp_path, tiny_model_file, capsys):
    path = _write(tmp_path / "p.jsonl", [{"id": "a", "html": _page("A")}, {"id": "b", "html": _page("B")}])
    assert main(["extract", str(path), "--model", str(tiny_model_file)]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r["name"] for r in rows] == ["a", "b"] and "part 4" in rows[1]["text"]


@pytest.mark.parametrize("name", ["x.jsonl", "x.ndjson"])
def test_a_fifo_named_as_jsonl_is_not_opened(tmp_path, tiny_model_file, capsys, name):
    import os

    os.mkfifo(tmp_path / name)
    assert main(["extract", str(tmp_path), "-o", str(tmp_path / "o"), "--model", str(tiny_model_file)]) == 1
    assert "not-a-file" in capsys.readouterr().err


def test_a_byte_order_mark_opening_the_file_is_not_part_of_its_first_line(tmp_path):
    path = tmp_path / "bom.jsonl"
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps({"id": "a", "html": _page("A")}).encode() + b"\r\n"
                     + json.dumps({"id": "b", "html": _page("B")}).encode() + b"\r\n")
    damage: dict = {}
    assert [it.name for it in read_jsonl(path, damage=damage)] == ["a", "b"] and damage == {}


def test_fields_are_named_by_key_or_by_a_dotted_path_into_nested_objects(tmp_path, tiny_model_file):
    path = _write(tmp_path / "scrapy.jsonl", [
        {"response": {"url": "https://shop.example.com/a", "body": _page("A")}},
        {"response.body": _page("B"), "response": {"url": "https://shop.example.com/b"}},  # a key of its own wins
    ])
    items = list(read_jsonl(path, html_field="response.body", url_field="response.url"))
    assert [it.url for it in items] == ["https://shop.example.com/a", "https://shop.example.com/b"]
    assert [it.source for it in items] == [_page("A"), _page("B")]
    out = tmp_path / "out"
    assert main(["extract", str(path), "-o", str(out), "--model", str(tiny_model_file),
                 "--html-field", "response.body", "--url-field", "response.url"]) == 0
    rows = [json.loads(line) for line in (out / "scrapy.jsonl").read_text(encoding="utf-8").splitlines()]
    assert [r["name"] for r in rows] == ["https://shop.example.com/a", "https://shop.example.com/b"]


def test_a_file_that_is_not_json_lines_is_named_once_not_line_by_line(tmp_path):
    path = tmp_path / "photo.jsonl"
    path.write_bytes(b"\n".join(bytes([i % 251 + 3]) * 40 for i in range(10_000)))  # bytes in lines: no JSON
    damage: dict = {}
    assert list(read_jsonl(path, damage=damage)) == []
    assert len(damage) == 6 and list(damage.values())[-1].reason == "jsonl-corrupt"
    assert "is not a file of JSON lines: its first 5 lines are no JSON object" in str(list(damage.values())[-1])
    # an odd first line before the pages costs only itself
    good = _write(tmp_path / "ok.jsonl", ["# exported 2026-12-05", {"id": "a", "html": _page("A")}, "[1]",
                                          {"id": "b", "html": _page("B")}])
    damage = {}
    assert [it.name for it in read_jsonl(good, damage=damage)] == ["a", "b"] and len(damage) == 2


def test_site_build_counts_the_pages_of_a_jsonl_file_and_explain_refuses_one(tmp_path, capsys, tiny_model_file):
    # a file of many pages was read as one page: its JSON, or a WARC's headers and records, as text
    rows = [{"url": f"https://news.example.org/{w}", "html": _page(f"Story {w}")} for w in ("ash", "elm", "oak", "yew")]
    path = _write(tmp_path / "crawl.jsonl", rows + ["not json"])  # pages told apart by words (digits fold)
    assert main(["site", "build", str(path), "-o", str(tmp_path / "profile.json")]) == 1  # the bad line is a skip
    out = capsys.readouterr()
    assert "crawl.jsonl:5" in out.err and "4 new pages, 4 in profile" in out.out and "site example.org" in out.out
    assert main(["explain", str(path), "-o", str(tmp_path / "view.html"), "--model", str(tiny_model_file)]) == 2
    assert "holds many pages" in capsys.readouterr().err and not (tmp_path / "view.html").exists()


def _site_rows(make_page, n: int = 4) -> list[dict]:
    """Pages of two sites, so that each page's text depends on its site's other pages."""
    return [{"id": f"s{s}p{p}", "url": f"https://www.site{s}.org/story/{p}", "html": make_page(s, p).html}
            for p in range(n) for s in (8, 9)]


@pytest.mark.parametrize("stop_after", [0, 3, 7])
def test_a_file_stopped_halfway_is_resumed_to_what_one_run_writes(tmp_path, synthetic_page, stop_after):
    """The lines written before a stop stay in the partial file; the resumed run scores only
    the rest, with every page as evidence, and the file comes out as one run writes it."""
    path = _write(tmp_path / "pages.jsonl", _site_rows(synthetic_page))
    opts = BatchOptions(chunk_size=3)
    whole = extract_jsonl(path, tmp_path / "whole", opts)
    assert whole is not None
    expected = whole.read_bytes()
    out = tmp_path / "out"

    def stopping(outcomes):  # a run stopped (Ctrl-C, a kill) after some lines were written
        for n, o in enumerate(outcomes):
            if n == stop_after:
                raise KeyboardInterrupt
            yield o.name, o.result[0]

    with pytest.raises(KeyboardInterrupt):
        extract_jsonl(path, out, opts, outcomes=stopping)
    assert not (out / "pages.jsonl").exists()
    partial = out / ".pages.jsonl.partial"
    assert partial.read_bytes() == b"".join(expected.splitlines(keepends=True)[:stop_after])
    with partial.open("ab") as fh:  # a kill can cut the last line short
        fh.write(b'{"name":"s9p')
    scored, told = [], []

    def counting(outcomes):
        for o in outcomes:
            scored.append(o.name)
            yield o.name, o.result[0]

    extract_jsonl(path, out, opts, outcomes=counting, resume=True, on_resumed=told.append)
    assert (out / "pages.jsonl").read_bytes() == expected and not partial.exists()
    assert told == [stop_after] and len(scored) == 8 - stop_after  # the pages written before are not scored again


def test_a_partial_file_is_started_afresh_without_resume(tmp_path, synthetic_page):
    path = _write(tmp_path / "pages.jsonl", _site_rows(synthetic_page, 2))
    out = tmp_path / "out"
    out.mkdir()
    (out / ".pages.jsonl.partial").write_text('{"name": "s8p0", "text": "stale"}\n', encoding="utf-8")
    extract_jsonl(path, out, BatchOptions())
    lines = [json.loads(line) for line in (out / "pages.jsonl").read_text(encoding="utf-8").splitlines()]
    assert [r["name"] for r in lines] == ["s8p0", "s9p0", "s8p1", "s9p1"]
    assert "stale" not in {r["text"] for r in lines}


def test_a_partial_file_written_in_another_format_is_not_mixed_in(tmp_path, synthetic_page):
    """Resumed as JSON, the lines a text run left are not kept: the file holds one format."""
    path = _write(tmp_path / "pages.jsonl", _site_rows(synthetic_page, 2))
    out = tmp_path / "out"

    def stopping(outcomes):
        for n, o in enumerate(outcomes):
            if n == 2:
                raise KeyboardInterrupt
            yield o.name, o.result[0]

    with pytest.raises(KeyboardInterrupt):
        extract_jsonl(path, out, BatchOptions(), form="text", outcomes=stopping)
    told: list[int] = []
    extract_jsonl(path, out, BatchOptions(), form="json", resume=True, on_resumed=told.append)
    rows = [json.loads(line) for line in (out / "pages.jsonl").read_text(encoding="utf-8").splitlines()]
    assert told == [0] and len(rows) == 4 and all("stats" in r and "markdown" in r for r in rows)
