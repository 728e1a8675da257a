"""Hostile or unlucky input and output: every case ends in a named skip or one error line, never a hang.

Each test stands for one row of the attack table in docs/robustness.md: damaged WARC files,
inputs whose outputs would collide, inputs that are not regular files or never end, pages
that would stall the parser, output that cannot be written, planted symlinks, mixed
encodings, other commands' page loops, and the smaller cases (file names that forge lines,
wrong argument types). Exit codes: 0 all processed, 1 some skipped, 2 usage or model error,
3 output could not be written.
"""

from __future__ import annotations

import errno
import gzip
import io
import json
import os
import random
import re
import stat
import time
from pathlib import Path

import pytest

import blockclf
from blockclf import files
from blockclf.cli import collect_inputs, main
from blockclf.encoding import decode
from blockclf.html import Limits, PageError, most_attributes, parse
from blockclf.segment import segment

ARTICLE = "".join(f"<p>Paragraph {i}: the river bends slowly through the valley and carries sediment.</p>"
                  for i in range(4))
PAGE = f"<html><head><title>Rivers</title></head><body>{ARTICLE}</body></html>"


def run(capsys, *argv: str) -> tuple[int, str]:
    code = main(list(argv))
    err = capsys.readouterr().err
    assert "Traceback" not in err
    assert all(line.startswith(("blockclf: ", "view of ")) for line in err.splitlines()), err
    return code, err


def summary(err: str) -> str:
    return [line for line in err.splitlines() if " processed, " in line][-1]


# --- 2. WARC input -----------------------------------------------------------------------

try:
    from warcio.statusandheaders import StatusAndHeaders
    from warcio.warcwriter import WARCWriter
except ImportError:  # the WARC cases need the 'warc' extra; the others run without it
    StatusAndHeaders = WARCWriter = None
needs_warc = pytest.mark.skipif(WARCWriter is None, reason="WARC input needs the 'warc' extra (warcio)")


def write_warc(path: Path, n: int = 20, gz: bool = True, payloads: list[bytes] | None = None,
               encoding: str | None = None) -> Path:
    rng = random.Random(0)
    if payloads is None:  # pages of different sizes, so a cut at half the file falls inside a record
        payloads = [PAGE.replace("Rivers", f"Rivers {i}" + " x" * rng.randint(1, 300)).encode() for i in range(n)]
    with path.open("wb") as fh:
        writer = WARCWriter(fh, gzip=gz)
        for i, payload in enumerate(payloads):
            head = [("Content-Type", "text/html; charset=utf-8")] + ([("Content-Encoding", encoding)] if encoding else [])
            headers = StatusAndHeaders("200 OK", head, protocol="HTTP/1.1")
            writer.write_record(writer.create_warc_record(f"https://site.example.org/{i}", "response",
                                                          payload=io.BytesIO(payload), http_headers=headers))
    return path


@needs_warc
@pytest.mark.parametrize("gz", [True, False])
def test_truncated_warc_is_a_named_skip_and_exit_1(capsys, tmp_path, tiny_model_file, gz):
    full = write_warc(tmp_path / "full.warc", gz=gz).read_bytes()
    for name, data in (("half", full[: len(full) // 2 + 301]), ("fifty", full[:50])):
        warc = tmp_path / f"{name}.warc"
        warc.write_bytes(data)
        code, err = run(capsys, "extract", str(warc), "-o", str(tmp_path / "out"), "--model", str(tiny_model_file))
        assert code == 1
        assert "warc-truncated 1" in summary(err)
        done = int(summary(err).split()[1])
        assert done < 20 and (name == "half") == (done > 0)


@needs_warc
def test_corrupt_gzip_member_is_a_named_skip_without_library_noise(capsys, tmp_path, tiny_model_file):
    rng = random.Random(1)
    big = "".join(f"<p>{rng.getrandbits(64):x} {rng.getrandbits(64):x}</p>" for _ in range(6000)).encode()
    payloads = [PAGE.encode(), PAGE.replace("Rivers", "Lakes").encode() + big, PAGE.replace("Rivers", "Seas").encode()]
    data = bytearray(write_warc(tmp_path / "w.warc.gz", payloads=payloads).read_bytes())
    # damage the middle of the second member's deflate stream, past warcio's first read block
    start = data.find(b"\x1f\x8b", 10)
    for i in range(start + 60_000, start + 60_400):
        data[i] ^= 0x5A
    (tmp_path / "w.warc.gz").write_bytes(bytes(data))
    code, err = run(capsys, "extract", str(tmp_path / "w.warc.gz"), "-o", str(tmp_path / "out"),
                    "--model", str(tiny_model_file))
    assert code == 1
    assert summary(err) == "blockclf: 2 processed, 1 skipped (warc-corrupt 1)"  # reading resumed after it
    assert "skipped https://site.example.org/1: " in err
    assert sum("Error -3" in line for line in err.splitlines()) == 1  # quoted once, in the skip line


@needs_warc
def test_not_a_warc_file_is_a_named_skip(capsys, tmp_path, tiny_model_file):
    fake = tmp_path / "fake.warc"
    fake.write_text("<html><body><p>not a crawl</p></body></html>\n" * 20, encoding="utf-8")
    code, err = run(capsys, "extract", str(fake), "-o", str(tmp_path / "out"), "--model", str(tiny_model_file))
    assert code == 1
    assert "not a WARC file" in err and "warc-corrupt 1" in summary(err)


@needs_warc
def test_warc_rerun_honours_overwrite(capsys, tmp_path, tiny_model_file):
    warc = write_warc(tmp_path / "crawl.warc.gz", n=3)
    out = tmp_path / "out"
    args = ["extract", str(warc), "-o", str(out), "--model", str(tiny_model_file)]
    assert run(capsys, *args)[0] == 0
    (out / "crawl.jsonl").write_text("keep me\n", encoding="utf-8")
    code, err = run(capsys, *args)
    assert code == 1 and "exists 1" in summary(err)
    assert (out / "crawl.jsonl").read_text(encoding="utf-8") == "keep me\n"
    assert run(capsys, *args, "--overwrite")[0] == 0
    assert len((out / "crawl.jsonl").read_text(encoding="utf-8").splitlines()) == 3


@needs_warc
def test_resume_passes_over_a_warc_whose_output_exists(capsys, tmp_path, tiny_model_file):
    warc = write_warc(tmp_path / "crawl.warc.gz", n=3)
    other = write_warc(tmp_path / "later.warc.gz", n=2)
    out = tmp_path / "out"
    assert run(capsys, "extract", str(warc), "-o", str(out), "--model", str(tiny_model_file))[0] == 0
    written = (out / "crawl.jsonl").read_bytes()
    code, err = run(capsys, "extract", str(warc), str(other), "-o", str(out), "--model", str(tiny_model_file),
                    "--resume")
    assert code == 0 and "2 processed, 0 skipped" in err
    assert f"crawl.warc.gz: its output {out / 'crawl.jsonl'} is complete: not read again (--resume)" in err
    assert (out / "crawl.jsonl").read_bytes() == written
    assert len((out / "later.jsonl").read_text(encoding="utf-8").splitlines()) == 2


@needs_warc
def test_a_warc_run_stopped_halfway_says_where_its_pages_are_and_resume_finishes_it(capsys, tmp_path, tiny_model_file,
                                                                                    monkeypatch):
    import blockclf.cli.extract as extract

    warc = write_warc(tmp_path / "crawl.warc.gz", n=6)
    args = ["extract", str(warc), "--model", str(tiny_model_file), "--format", "json"]
    assert run(capsys, *args, "-o", str(tmp_path / "whole"))[0] == 0
    whole = (tmp_path / "whole" / "crawl.jsonl").read_bytes()
    real = extract._Run.outcomes

    def stopped(self, batch):  # Ctrl-C once four pages are written
        for n, pair in enumerate(real(self, batch)):
            if n == 4:
                raise KeyboardInterrupt
            yield pair

    monkeypatch.setattr(extract._Run, "outcomes", stopped)
    out = tmp_path / "out"
    code, err = run(capsys, *args, "-o", str(out))
    kept = out / ".crawl.jsonl.partial"
    assert code == 130 and f"kept in {kept}: run the same command with --resume" in err
    assert len(kept.read_bytes().splitlines()) == 4 and not (out / "crawl.jsonl").exists()
    monkeypatch.undo()
    code, err = run(capsys, *args, "-o", str(out))  # a rerun without --resume does not throw them away
    assert code == 1 and "holds the pages a stopped run wrote (give --resume" in err and "exists 1" in err
    assert len(kept.read_bytes().splitlines()) == 4
    code, err = run(capsys, *args, "-o", str(out), "--resume")
    assert code == 0 and "2 processed, 4 done before, 0 skipped" in err and not kept.exists()

    def pages(data: bytes) -> list[dict]:  # a site's median kept ratio is that of the pages scored together
        rows = [json.loads(line) for line in data.splitlines()]
        for row in rows:
            row["stats"].pop("site_median_kept_ratio", None)
        return rows

    resumed = (out / "crawl.jsonl").read_bytes()
    assert resumed.splitlines()[:4] == whole.splitlines()[:4] and pages(resumed) == pages(whole)


@needs_warc
def test_content_encoding_bomb_is_bounded(capsys, tmp_path, tiny_model_file):
    bomb = gzip.compress(b"<p>" + b"a" * 8_000_000 + b"</p>")  # 8 MB from about 8 KB
    warc = write_warc(tmp_path / "bomb.warc.gz", payloads=[PAGE.encode(), bomb], encoding="gzip")
    # the first record is plain HTML marked gzip: warcio falls back to the raw bytes
    code, err = run(capsys, "extract", str(warc), "-o", str(tmp_path / "out"), "--model", str(tiny_model_file),
                    "--max-bytes", "1000000")
    assert code == 1
    assert "too-large 1" in summary(err) and "https://site.example.org/1" in err


# --- 3. different inputs, one output ---------------------------------------------------------

def test_inputs_with_one_output_name_get_distinct_names(capsys, tmp_path, tiny_model_file):
    src = tmp_path / "IN"
    src.mkdir()
    for name in ("a.html", "a.htm", "a.HTML"):
        (src / name).write_text(PAGE.replace("Rivers", name), encoding="utf-8")
    out = tmp_path / "OUT"
    code, err = run(capsys, "extract", str(src), "-o", str(out), "--model", str(tiny_model_file))
    assert code == 0 and "3 processed, 0 skipped" in err
    # in sorted order a.HTML comes first and keeps the stem; the others keep their whole names
    assert sorted(p.name for p in out.iterdir()) == ["a.htm.txt", "a.html.txt", "a.txt"]


def test_same_name_in_folders_given_as_arguments(capsys, tmp_path, tiny_model_file):
    for d in ("d1", "d2", "d3"):
        (tmp_path / d).mkdir()
        (tmp_path / d / "a.html").write_text(PAGE, encoding="utf-8")
    out = tmp_path / "OUT"
    code, err = run(capsys, "extract", *(str(tmp_path / d / "a.html") for d in ("d1", "d2", "d3")),
                    "-o", str(out), "--model", str(tiny_model_file))
    # the third keeps the stem and a digest of its path: no page is lost to a name (it was skipped)
    assert code == 0 and "3 processed, 0 skipped" in err
    names = sorted(p.name for p in out.iterdir())
    assert names[:2] == ["a.html.txt", "a.txt"] and len(names) == 3 and re.fullmatch(r"a~[0-9a-f]{8}\.txt", names[2])
    code, err = run(capsys, "extract", *(str(tmp_path / d / "a.html") for d in ("d1", "d2", "d3")),
                    "-o", str(out), "--model", str(tiny_model_file))
    assert "0 processed, 3 skipped (exists 3)" in err  # the same names on a second run


def test_names_as_long_as_a_file_system_takes_are_written_under_names_that_fit(capsys, tmp_path, tiny_model_file):
    # a name of 255 bytes is legal; its output's ('.htm' -> '.json') and the temporary's were
    # not, and the write failed and stopped the batch (exit 3, the pages after it not written)
    src = tmp_path / "IN"
    src.mkdir()
    long_ascii = "a" * 251 + ".htm"  # 255 bytes
    long_cjk = "新闻" * 40 + ".html"  # 245 bytes: its output fits, its temporary's name did not
    for name in (long_ascii, long_cjk, "b.html"):
        (src / name).write_text(PAGE.replace("Rivers", name[:20]), encoding="utf-8")
    out = tmp_path / "OUT"
    code, err = run(capsys, "extract", str(src), "-o", str(out), "--format", "json", "--model", str(tiny_model_file))
    assert code == 0 and "3 processed, 0 skipped" in err
    written = sorted(p.name for p in out.iterdir())
    assert "b.json" in written and "新闻" * 40 + ".json" in written
    shortened = [n for n in written if n.startswith("aaa")]
    assert len(shortened) == 1 and len(os.fsencode(shortened[0])) <= files.NAME_MAX
    assert shortened[0].endswith(".json") and "~" in shortened[0]
    assert f"output name over {files.NAME_MAX} bytes, written as {shortened[0]}" in err
    assert json.loads((out / shortened[0]).read_text())["name"].endswith(long_ascii)
    assert not [p for p in out.iterdir() if p.name.endswith(".tmp")]
    # the same name is shortened the same way: a second run finds every output
    code, err = run(capsys, "extract", str(src), "-o", str(out), "--format", "json", "--model", str(tiny_model_file))
    assert code == 1 and "0 processed, 3 skipped (exists 3)" in err


def test_an_output_a_file_stands_in_the_way_of_is_skipped_and_the_batch_goes_on(capsys, tmp_path, tiny_model_file):
    # text output: b.html writes OUT/b.txt, and the folder b.txt/ of inputs needs OUT/b.txt/
    src = tmp_path / "IN"
    (src / "b.txt").mkdir(parents=True)
    for name in ("b.html", "b.txt/inner.html", "c.html"):
        (src / name).write_text(PAGE, encoding="utf-8")
    out = tmp_path / "OUT"
    code, err = run(capsys, "extract", str(src), "-o", str(out), "--model", str(tiny_model_file))
    assert code == 1 and "2 processed, 1 skipped (unwritable 1)" in summary(err)
    assert "skipped " in err and "inner.html: cannot write" in err
    assert (out / "b.txt").is_file() and (out / "c.txt").is_file()
    assert not [p for p in out.rglob("*") if p.name.endswith(".tmp")]


def test_a_view_a_file_stands_in_the_way_of_is_skipped_and_explain_goes_on(capsys, tmp_path, tiny_model_file):
    src = tmp_path / "IN"
    (src / "x.html").mkdir(parents=True)  # x.htm's view is OUT/x.html, the folder's views go in OUT/x.html/
    for name in ("x.htm", "x.html/inner.html", "c.html"):
        (src / name).write_text(PAGE, encoding="utf-8")
    out = tmp_path / "OUT"
    code, err = run(capsys, "explain", str(src), "-o", str(out), "--model", str(tiny_model_file))
    assert code == 1 and "inner.html: cannot write" in err
    assert (out / "x.html").is_file() and (out / "c.html").is_file()


def test_an_output_folder_inside_the_input_folder_is_not_read(capsys, tmp_path, tiny_model_file):
    # HTML outputs are pages: read again, a rerun extracted its own outputs into clean/clean/
    src = tmp_path / "IN"
    src.mkdir()
    for name in ("a.html", "b.html"):
        (src / name).write_text(PAGE, encoding="utf-8")
    out = src / "clean"
    for _ in range(2):
        code, err = run(capsys, "extract", str(src), "-o", str(out), "--format", "html", "--overwrite",
                        "--model", str(tiny_model_file))
        assert code == 0 and "2 processed, 0 skipped" in summary(err)
    assert sorted(p.relative_to(out).as_posix() for p in out.rglob("*")) == ["a.html", "b.html"]
    assert f"{out} not read: it is the output folder" in err


def test_explain_replaces_no_file_without_overwrite_and_never_a_page_it_reads(capsys, tmp_path, tiny_model_file):
    src = tmp_path / "IN"
    src.mkdir()
    (src / "b.html").write_text(PAGE, encoding="utf-8")
    # -o the folder read: a view is b.html, the page itself
    code, err = run(capsys, "explain", str(src), "-o", str(src), "--overwrite", "--model", str(tiny_model_file))
    assert code == 1 and "is a page this run reads" in err and (src / "b.html").read_text(encoding="utf-8") == PAGE
    out = tmp_path / "OUT"
    out.mkdir()
    (out / "b.html").write_text("precious", encoding="utf-8")
    code, err = run(capsys, "explain", str(src), "-o", str(out), "--model", str(tiny_model_file))
    assert code == 1 and "exists (give --overwrite" in err and (out / "b.html").read_text(encoding="utf-8") == "precious"
    code, err = run(capsys, "explain", str(src), "-o", str(out), "--overwrite", "--model", str(tiny_model_file))
    assert code == 0 and (out / "b.html").read_text(encoding="utf-8").startswith("<!DOCTYPE html>")


def test_a_name_that_does_not_fit_is_cut_with_a_digest_of_the_whole():
    assert files.fit_name("page.json", suffix=".json") == "page.json"
    one, two = ("x" * 300 + "1.json"), ("x" * 300 + "2.json")
    a, b = files.fit_name(one, suffix=".json"), files.fit_name(two, suffix=".json")
    assert a != b and a == files.fit_name(one, suffix=".json")
    assert all(len(os.fsencode(n)) <= files.NAME_MAX and n.endswith(".json") for n in (a, b))
    cjk = files.fit_name("新" * 100 + ".txt", suffix=".txt")  # 304 bytes, cut between characters
    assert len(os.fsencode(cjk)) <= files.NAME_MAX and cjk.startswith("新" * 80) and cjk.endswith(".txt")
    undecodable = os.fsdecode(b"\xff" * 300 + b".md")  # a name that is not UTF-8, read as Python reads it
    assert len(os.fsencode(files.fit_name(undecodable, suffix=".md"))) <= files.NAME_MAX
    assert files.fitting_path(Path("out") / one).parent == Path("out")
    from blockclf.warc import warc_output  # ".warc" becomes ".jsonl": a byte longer

    assert len(os.fsencode(warc_output("c" * 250 + ".warc", "out").name)) <= files.NAME_MAX


# --- 4. inputs that stall ------------------------------------------------------------------

def test_fifo_and_device_are_skipped_unread(capsys, tmp_path, tiny_model_file):
    src = tmp_path / "IN"
    src.mkdir()
    (src / "good.html").write_text(PAGE, encoding="utf-8")
    os.mkfifo(src / "a.html")  # reading it would block forever
    os.symlink("/dev/zero", src / "zero.html")  # reading it would never end
    code, err = run(capsys, "extract", str(src), "-o", str(tmp_path / "OUT"), "--model", str(tiny_model_file))
    assert code == 1 and "1 processed, 2 skipped (not-a-file 2)" in err
    code, err = run(capsys, "extract", str(src / "a.html"), "--model", str(tiny_model_file))
    assert code == 1 and "not-a-file" in err


def test_a_fifo_of_no_page_name_is_not_opened_to_see_if_it_is_a_page(capsys, tmp_path, tiny_model_file):
    src = tmp_path / "IN"
    src.mkdir()
    (src / "good.html").write_text(PAGE, encoding="utf-8")
    os.mkfifo(src / "story")  # a file of another name is read to see if it begins as HTML: not a FIFO
    code, err = run(capsys, "extract", str(src), "-o", str(tmp_path / "OUT"), "--model", str(tiny_model_file))
    assert code == 0 and "1 processed" in err and "1 file in the given folders was not read" in err


def test_fifo_is_refused_by_the_reader_too(tmp_path):
    os.mkfifo(tmp_path / "late.html")  # created after a listing: the reader checks the open descriptor
    with pytest.raises(PageError) as info:
        parse(tmp_path / "late.html")
    assert info.value.reason == "not-a-file"


def test_symlink_loops_end_and_each_file_is_read_once(tmp_path):
    src = tmp_path / "IN"
    (src / "sub").mkdir(parents=True)
    (src / "a.html").write_text(PAGE, encoding="utf-8")
    (src / "sub" / "b.html").write_text(PAGE, encoding="utf-8")
    os.symlink(".", src / "self")
    os.symlink("..", src / "sub" / "up")
    os.symlink("a.html", src / "again.html")
    skipped: list = []
    found = collect_inputs([str(src)], skipped=skipped)
    assert sorted(stem for _, stem in found) == ["a", "sub/b"] and skipped == []


def test_unlistable_directory_is_a_named_skip(capsys, tmp_path, tiny_model_file, monkeypatch):
    src = tmp_path / "IN"
    (src / "locked").mkdir(parents=True)
    (src / "a.html").write_text(PAGE, encoding="utf-8")
    real = os.scandir

    def scandir(path="."):
        if str(path).endswith("locked"):
            raise PermissionError(errno.EACCES, "Permission denied", str(path))
        return real(path)

    monkeypatch.setattr(os, "scandir", scandir)
    code, err = run(capsys, "extract", str(src), "-o", str(tmp_path / "OUT"), "--model", str(tiny_model_file))
    assert code == 1 and "locked" in err and "cannot be listed" in err and "unreadable 1" in err


def heavy_tag(n: int, tag: str = "span") -> str:
    return f"<{tag} " + " ".join(f"a{i}=1" for i in range(n)) + ">x</" + tag + ">"


def test_many_tags_of_many_attributes_are_refused_before_parsing_when_reading_them_outlasts_the_budget(
        capsys, tmp_path, tiny_model_file):
    """Neither libxml2 nor lxml's reading of an element stops for a budget, and both take time
    growing with the square of a tag's attributes: 199 tags of 9,999 held a page 86 s against
    its 30 s budget. Their reading time is estimated from the scan before parsing."""
    page = "<html><body><h1>Title</h1><p>Text of the page.</p>" + heavy_tag(3_000) * 40 + "</body></html>"
    with pytest.raises(PageError) as err:
        parse(page, limits=Limits(max_seconds=0.5))
    assert err.value.reason == "timeout"
    assert "tags hold 120,000 attributes, up to 3,000 on one: reading them would take about 2 s" in str(err.value)
    # a page of a few such tags is read, and so is this one without a time budget
    assert parse(page.replace(heavy_tag(3_000) * 40, heavy_tag(3_000) * 4), limits=Limits(max_seconds=0.5))
    assert parse(page, limits=Limits(max_seconds=None)).root.find(".//h1").text == "Title"
    many = tmp_path / "many.html"
    many.write_text(page, encoding="utf-8")
    code, err_text = run(capsys, "extract", str(many), "--model", str(tiny_model_file), "--time-budget", "0.5")
    assert code == 1 and "timeout 1" in err_text and "would take about" in err_text


@pytest.mark.parametrize("around", ["<div>{}</div>", "<div hidden>{}</div>"])
def test_the_budget_is_checked_after_reading_an_element_of_many_attributes(around):
    """Fewer than 256 elements were never checked against the budget past the first, however
    long their attributes took to read (a visible element, or one inside hidden text)."""
    page = "<html><body><p>First paragraph.</p>" + around.format(heavy_tag(20_000)) + "</body></html>"
    doc = parse(page, limits=Limits(max_attributes=50_000, max_seconds=None))
    doc.deadline = time.monotonic() + 0.05  # its reading alone takes some tenths of a second
    with pytest.raises(PageError) as err:
        segment(doc)
    assert err.value.reason == "timeout"
    doc.deadline = None
    assert any(b.text == "First paragraph." for b in segment(doc))


def test_half_a_million_attributes_are_refused_before_parsing(capsys, tmp_path, tiny_model_file):
    attrs = " ".join(f"a{i}=1" for i in range(500_000))
    page = tmp_path / "attrs.html"
    page.write_text(f"<html><body><div {attrs}><p>hello</p></div></body></html>", encoding="utf-8")
    code, err = run(capsys, "extract", str(page), "--model", str(tiny_model_file))
    assert code == 1 and "too-many-attributes" in err
    # the scan skips scripts and comments, and counts what libxml2 would see as attributes
    assert most_attributes("<script>" + "<x " + "a=1 " * 20_000 + "></script><p>x</p>") == 0
    assert most_attributes("<div " + " ".join(f'k{i}="v w"' for i in range(500)) + ">") == 500
    # unclosed scripts and comments by the hundred thousand: each end is searched for once, not once per tag
    assert most_attributes("<script>" * 100_000 + "<!--" * 100_000) == 0
    with pytest.raises(PageError):
        parse("<div " + "b " * 300 + ">x</div>", limits=Limits(max_attributes=100))


# --- 6. output failures ------------------------------------------------------------------------

def test_output_naming_a_file_exits_3(capsys, tmp_path, tiny_model_file):
    (tmp_path / "a.html").write_text(PAGE, encoding="utf-8")
    (tmp_path / "out").write_text("a file", encoding="utf-8")
    code, err = run(capsys, "extract", str(tmp_path / "a.html"), "-o", str(tmp_path / "out"),
                    "--model", str(tiny_model_file))
    assert code == 3 and err.count("\n") == 1 and "not a directory" in err


def test_an_output_folder_under_a_file_exits_3_once_not_a_skip_per_page(capsys, tmp_path, tiny_model_file):
    # every page's write would fail ("Not a directory"): one error for the run, not one skip per page
    src = tmp_path / "IN"
    src.mkdir()
    for name in ("a.html", "b.html"):
        (src / name).write_text(PAGE, encoding="utf-8")
    (tmp_path / "afile").write_text("a file", encoding="utf-8")
    code, err = run(capsys, "extract", str(src), "-o", str(tmp_path / "afile" / "sub"), "--model", str(tiny_model_file))
    assert code == 3 and err.count("\n") == 1 and "Not a directory" in err


def test_unwritable_folder_exits_3(capsys, tmp_path, tiny_model_file, monkeypatch):
    (tmp_path / "a.html").write_text(PAGE, encoding="utf-8")

    def denied(path, named):
        raise PermissionError(errno.EACCES, "Permission denied")

    monkeypatch.setattr(files, "_temporary", denied)
    code, err = run(capsys, "extract", str(tmp_path / "a.html"), "-o", str(tmp_path / "out"),
                    "--model", str(tiny_model_file))
    assert code == 3 and "Permission denied" in err and "stopped: an output could not be written" in err


class _FullDisk(io.RawIOBase):
    """A writable file that is always out of space."""

    def writable(self) -> bool:
        return True

    def write(self, b) -> int:
        raise OSError(errno.ENOSPC, "No space left on device")


def _full_disk(monkeypatch) -> None:
    real = os.fdopen

    def fdopen(fd, mode="r", *args, **kwargs):
        if "w" not in mode:
            return real(fd, mode, *args, **kwargs)
        os.close(fd)
        raw = _FullDisk()
        return raw if "b" in mode else io.TextIOWrapper(io.BufferedWriter(raw), encoding="utf-8")

    monkeypatch.setattr(files.os, "fdopen", fdopen)


class _FillingDisk(io.RawIOBase):
    """A file that takes ``room`` bytes, then is out of space."""

    def __init__(self, fd: int, room: int) -> None:
        self.fd, self.room = fd, room

    def writable(self) -> bool:
        return True

    def write(self, b) -> int:
        if len(b) > self.room:
            raise OSError(errno.ENOSPC, "No space left on device")
        self.room -= len(b)
        return os.write(self.fd, b)

    def close(self) -> None:
        if not self.closed:
            os.close(self.fd)
        super().close()


@needs_warc
def test_a_warc_run_that_fills_the_disk_keeps_its_lines_and_resume_finishes_it(capsys, tmp_path, tiny_model_file,
                                                                               monkeypatch):
    warc = write_warc(tmp_path / "crawl.warc.gz", n=5)
    args = ["extract", str(warc), "--model", str(tiny_model_file)]
    assert run(capsys, *args, "-o", str(tmp_path / "whole"))[0] == 0
    whole = (tmp_path / "whole" / "crawl.jsonl").read_bytes()
    room = len(b"".join(whole.splitlines(keepends=True)[:2])) + 10  # two lines and a little
    real = os.fdopen

    def fdopen(fd, mode="r", *a, **k):
        if "w" not in mode:
            return real(fd, mode, *a, **k)
        return io.TextIOWrapper(io.BufferedWriter(_FillingDisk(fd, room)), encoding="utf-8", newline="")

    monkeypatch.setattr(files.os, "fdopen", fdopen)
    out = tmp_path / "out"
    code, err = run(capsys, *args, "-o", str(out))
    assert code == 3 and "No space left on device" in err and "--resume to go on from them" in err
    assert (out / ".crawl.jsonl.partial").read_bytes() == b"".join(whole.splitlines(keepends=True)[:2])
    monkeypatch.undo()
    code, err = run(capsys, *args, "-o", str(out), "--resume")
    assert code == 0 and "3 processed, 2 done before, 0 skipped" in err
    assert (out / "crawl.jsonl").read_bytes() == whole


def test_full_disk_exits_3_and_leaves_no_temporary(capsys, tmp_path, tiny_model_file, monkeypatch):
    src = tmp_path / "IN"
    src.mkdir()
    for i in range(3):
        (src / f"p{i}.html").write_text(PAGE, encoding="utf-8")
    out = tmp_path / "OUT"
    out.mkdir()
    _full_disk(monkeypatch)
    code, err = run(capsys, "extract", str(src), "-o", str(out), "--model", str(tiny_model_file))
    assert code == 3 and "No space left on device" in err
    assert summary(err).endswith("stopped: an output could not be written (3 pages not written)")
    assert list(out.iterdir()) == []


@pytest.mark.parametrize("log", ["OUT/b.txt", "IN/c.html"])
def test_a_removal_log_named_like_an_output_or_an_input_is_refused(capsys, tmp_path, tiny_model_file, log):
    # written last, the log replaced that page's output (or an input page) without a word
    src = tmp_path / "IN"
    src.mkdir()
    for name in ("b.html", "c.html"):
        (src / name).write_text(PAGE, encoding="utf-8")
    code = main(["extract", str(src), "-o", str(tmp_path / "OUT"), "--removed-log", str(tmp_path / log),
                 "--model", str(tiny_model_file)])
    err = capsys.readouterr().err
    assert code == 2 and "--removed-log" in err and "give the log another name" in err
    assert (src / "c.html").read_text(encoding="utf-8") == PAGE and not (tmp_path / "OUT").exists()


def test_an_output_that_would_replace_a_page_of_the_run_is_skipped(capsys, tmp_path, tiny_model_file):
    # HTML output into the folder read: b.html's output is b.html itself, even with --overwrite
    src = tmp_path / "IN"
    src.mkdir()
    (src / "b.html").write_text(PAGE, encoding="utf-8")
    (src / "c.htm").write_text(PAGE, encoding="utf-8")
    code, err = run(capsys, "extract", str(src), "-o", str(src), "--format", "html", "--overwrite",
                    "--model", str(tiny_model_file))
    assert code == 1 and "1 processed, 1 skipped (collision 1)" in summary(err) and "is a page this run reads" in err
    assert (src / "b.html").read_text(encoding="utf-8") == PAGE  # the page is as it was
    assert (src / "c.html").read_text(encoding="utf-8").startswith('<meta charset="utf-8">')


def test_fail_fast_keeps_the_removal_log_of_the_pages_done(capsys, tmp_path, tiny_model_file):
    src = tmp_path / "IN"
    src.mkdir()
    (src / "a.html").write_text(PAGE.replace("</body>", "<footer><p>All rights reserved</p></footer></body>"),
                                encoding="utf-8")
    (src / "b.html").write_bytes(b"")
    log = tmp_path / "removed.jsonl"
    code, err = run(capsys, "extract", str(src), "-o", str(tmp_path / "OUT"), "--model", str(tiny_model_file),
                    "--removed-log", str(log), "--fail-fast")
    assert code == 1 and "--fail-fast" in summary(err)
    assert log.read_text(encoding="utf-8").strip()


def test_site_build_update_on_a_full_disk_keeps_the_old_profile(capsys, tmp_path, monkeypatch):
    src = tmp_path / "IN"
    src.mkdir()
    (src / "a.html").write_text(PAGE, encoding="utf-8")
    prof = tmp_path / "site.json"
    assert run(capsys, "site", "build", str(src), "-o", str(prof), "--site", "example.org")[0] == 0
    before = prof.read_text(encoding="utf-8")
    (src / "b.html").write_text(PAGE.replace("Rivers", "Lakes"), encoding="utf-8")
    _full_disk(monkeypatch)
    code, err = run(capsys, "site", "build", str(src), "-o", str(prof), "--update", "--site", "example.org")
    assert code == 3 and "No space left" in err
    assert prof.read_text(encoding="utf-8") == before and json.loads(before)
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


def test_non_utf8_file_name_with_json_and_removed_log(capsys, tmp_path, tiny_model_file):
    src = tmp_path / "IN"
    src.mkdir()
    name = os.fsdecode(b"caf\xe9.html")  # not UTF-8: held as a lone surrogate
    (src / name).write_text(PAGE.replace("</body>", "<footer><p>All rights reserved</p></footer></body>"),
                            encoding="utf-8")
    log = tmp_path / "removed.jsonl"
    code, err = run(capsys, "extract", str(src), "-o", str(tmp_path / "OUT"), "--format", "json",
                    "--model", str(tiny_model_file), "--removed-log", str(log))
    assert code == 0, err
    records = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    assert records and all(r["page"].endswith(name) for r in records)  # the escape reads back as the name
    out = json.loads((tmp_path / "OUT" / (name[:-5] + ".json")).read_text(encoding="utf-8"))
    assert out["name"].endswith(name)
    assert "reasons" not in records[0]  # 10: the log alone is cheap, reasons need --explain


# --- 7. planted symlinks ----------------------------------------------------------------------------

def test_planted_temporary_symlink_is_never_followed(tmp_path, monkeypatch):
    victim = tmp_path / "victim.txt"
    victim.write_text("precious", encoding="utf-8")
    out = tmp_path / "out"
    out.mkdir()
    monkeypatch.setattr(files.secrets, "token_hex", lambda n: "guessed")
    os.symlink(victim, out / ".a.txt.guessed.tmp")
    with pytest.raises(files.OutputError):
        files.write_atomic(out / "a.txt", "attacker-controlled")
    assert victim.read_text(encoding="utf-8") == "precious"
    assert not (out / "a.txt").exists()


def test_an_interrupt_while_a_temporary_is_made_leaves_none(tmp_path, monkeypatch):
    """A Ctrl-C or SIGTERM that lands right after the temporary is created, before the code that
    removes it on an interrupt, left an empty temporary that no later run removed."""
    import signal

    real_open = os.open

    def interrupted_open(*args, **kwargs):
        fd = real_open(*args, **kwargs)
        os.kill(os.getpid(), signal.SIGINT)  # arrives as the temporary exists
        return fd

    monkeypatch.setattr(files.os, "open", interrupted_open)
    with pytest.raises(KeyboardInterrupt):
        files.write_atomic(tmp_path / "a.txt", "text")
    monkeypatch.undo()
    assert list(tmp_path.iterdir()) == []


def test_a_temporary_that_cannot_be_created_is_not_removed_after(tmp_path, monkeypatch):
    """A temporary the system refused to create is not ours to remove: its name is forgotten, so
    the failure is told as the output's, not as a second failure to remove what is not there
    (a folder that denies creating also denies removing)."""
    def refused(*args, **kwargs):
        raise PermissionError(errno.EACCES, "Permission denied")

    removed: list = []
    monkeypatch.setattr(files.os, "open", refused)
    monkeypatch.setattr(Path, "unlink", lambda self, missing_ok=False: removed.append(self))
    with pytest.raises(files.OutputError, match="Permission denied"):
        files.write_atomic(tmp_path / "a.txt", "text")
    assert removed == []


def test_an_interrupt_raised_as_a_temporary_is_created_leaves_none(tmp_path, monkeypatch):
    """A batch's worker pool keeps threads in the main process. A signal that one of them
    receives is not held back by the main thread's signal mask, and Python raises it in the
    main thread at once: right after the temporary is created, before its name is returned."""
    real_open = os.open

    def open_then_interrupted(*args, **kwargs):
        real_open(*args, **kwargs)
        raise KeyboardInterrupt  # as Python raises, here, a Ctrl-C that another thread received

    monkeypatch.setattr(files.os, "open", open_then_interrupted)
    with pytest.raises(KeyboardInterrupt):
        files.write_atomic(tmp_path / "a.txt", "text")
    monkeypatch.undo()
    assert list(tmp_path.iterdir()) == []


def test_old_temporary_names_and_output_symlinks_do_not_redirect_writes(capsys, tmp_path, tiny_model_file):
    victim = tmp_path / "victim.txt"
    victim.write_text("precious", encoding="utf-8")
    src = tmp_path / "IN"
    src.mkdir()
    (src / "a.html").write_text(PAGE, encoding="utf-8")
    out = tmp_path / "out"
    out.mkdir()
    os.symlink(victim, out / f".a.txt.tmp{os.getpid()}")  # the names used before
    os.symlink(victim, out / "a.txt")  # an output that is a symlink to outside
    code, err = run(capsys, "extract", str(src), "-o", str(out), "--model", str(tiny_model_file), "--overwrite")
    assert code == 0, err
    assert victim.read_text(encoding="utf-8") == "precious"
    assert not (out / "a.txt").is_symlink() and "Paragraph 1" in (out / "a.txt").read_text(encoding="utf-8")


FURNISHED = PAGE.replace("<body>", "<body><nav><a href='/'>Home</a> <a href='/about'>About</a></nav>").replace(
    "</body>", "<footer><p>Copyright 2024. All rights reserved.</p></footer></body>")


def _log_run(capsys, tmp_path, tiny_model_file, log) -> tuple[int, str]:
    page = tmp_path / "a.html"
    page.write_text(FURNISHED, encoding="utf-8")
    return run(capsys, "extract", str(page), "-o", str(tmp_path / "out"), "--model", str(tiny_model_file),
               "--removed-log", str(log))


def test_removed_log_into_a_pipe_is_read_by_its_reader_and_the_pipe_stays(capsys, tmp_path, tiny_model_file):
    pipe = tmp_path / "log.pipe"
    os.mkfifo(pipe)
    link = tmp_path / "stderr-like"  # as /dev/stderr links to the descriptor it stands for
    os.symlink(pipe, link)
    reader = os.open(pipe, os.O_RDONLY | os.O_NONBLOCK)  # a reader, there before the writer
    try:
        code, err = _log_run(capsys, tmp_path, tiny_model_file, link)
        lines = os.read(reader, 1 << 16).decode("utf-8").splitlines()
    finally:
        os.close(reader)
    assert code == 0, err
    assert any("All rights reserved" in json.loads(line)["text"] for line in lines)
    assert stat.S_ISFIFO(os.lstat(pipe).st_mode) and link.is_symlink()


def test_removed_log_into_a_pipe_nobody_reads_is_refused_not_waited_on(capsys, tmp_path, tiny_model_file):
    pipe = tmp_path / "log.pipe"
    os.mkfifo(pipe)
    code, err = _log_run(capsys, tmp_path, tiny_model_file, pipe)
    assert code == 3 and "a pipe nobody reads" in err
    assert stat.S_ISFIFO(os.lstat(pipe).st_mode)


def test_removed_log_through_a_link_to_the_null_device_leaves_both(capsys, tmp_path, tiny_model_file):
    link = tmp_path / "null"
    os.symlink(os.devnull, link)
    code, err = _log_run(capsys, tmp_path, tiny_model_file, link)
    assert code == 0, err
    assert link.is_symlink() and stat.S_ISCHR(os.stat(link).st_mode)
    assert (tmp_path / "out" / "a.txt").exists()


def test_one_pages_output_named_as_a_stream_is_written_into_it(capsys, tmp_path, tiny_model_file):
    page = tmp_path / "a.html"
    page.write_text(FURNISHED, encoding="utf-8")
    link = tmp_path / "null"  # no file suffix: a stream is the page's output whatever its name
    os.symlink(os.devnull, link)
    code, err = run(capsys, "extract", str(page), "-o", str(link), "--model", str(tiny_model_file))
    assert code == 0, err
    assert link.is_symlink() and stat.S_ISCHR(os.stat(link).st_mode)
    page.with_name("b.html").write_text(FURNISHED, encoding="utf-8")  # two pages: -o names a folder
    code, err = run(capsys, "extract", str(page), str(page.with_name("b.html")), "-o", str(link),
                    "--model", str(tiny_model_file))
    assert code == 3 and "it is a device or pipe, not a directory" in err


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="making a device node needs root")
def test_an_output_that_is_a_disk_device_is_refused_never_opened(capsys, tmp_path, tiny_model_file):
    disk = tmp_path / "disk"
    os.mknod(disk, 0o600 | stat.S_IFBLK, os.makedev(7, 250))  # a loop device's numbers; never opened
    code, err = _log_run(capsys, tmp_path, tiny_model_file, disk)
    assert code == 3 and "it is a device, not a file" in err
    assert stat.S_ISBLK(os.lstat(disk).st_mode)


# --- 8. mis-decoding ---------------------------------------------------------------------------

@pytest.mark.parametrize("page", [
    "<html><body><p>Caf\u00e9 opens \udc93soon\udc94 then</p><p>more \udc96 text</p></body></html>",
    '<html><head><meta charset="utf-8"></head><body><p>He said \udc93hello\udc94 then</p></body></html>',
])
def test_utf8_with_stray_cp1252_bytes_is_utf8_plus_cp1252(page):
    text, used = decode(page.encode("utf-8", "surrogateescape"))
    assert used == "utf-8+cp1252"
    assert "\u201c" in text and "\u201d" in text and "then</p>" in text


def test_legacy_multibyte_pages_still_go_to_detection():
    page = "<html><body><p>" + "日本語のテキストです。川が谷をゆっくり流れる。" * 20 + "</p></body></html>"
    text, used = decode(page.encode("shift_jis"))
    assert used != "utf-8+cp1252" and "日本語" in text


# --- 9. other commands read pages as extract does ------------------------------------------------

def test_explain_and_site_build_skip_a_page_that_breaks(capsys, tmp_path, tiny_model_file, monkeypatch):
    from blockclf import batch, predict

    src = tmp_path / "IN"
    src.mkdir()
    (src / "good.html").write_text(PAGE, encoding="utf-8")
    (src / "bad.html").write_text(PAGE, encoding="utf-8")
    (src / "nested.html").write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    real = predict.prepare

    def prepare(source, **kw):
        if str(source).endswith("bad.html"):
            raise RecursionError("maximum recursion depth exceeded")
        return real(source, **kw)

    monkeypatch.setattr(predict, "prepare", prepare)  # site build's reader
    monkeypatch.setattr(batch, "prepare", prepare)  # explain's, which is extract's batch
    code, err = run(capsys, "explain", str(src), "-o", str(tmp_path / "views"), "--model", str(tiny_model_file))
    assert code == 1 and "bad.html: RecursionError" in err and "nested.html: input is deeply nested JSON" in err
    assert [p.name for p in (tmp_path / "views").iterdir()] == ["good.html"]
    code, err = run(capsys, "site", "build", str(src), "-o", str(tmp_path / "site.json"))
    assert code == 1 and "bad.html: RecursionError" in err and (tmp_path / "site.json").exists()


def test_label_skips_a_gzip_bomb_and_a_page_that_breaks(capsys, tmp_path, monkeypatch):
    from blockclf import labelling as labelcmd

    src = tmp_path / "IN"
    src.mkdir()
    (src / "good.html").write_text(PAGE, encoding="utf-8")
    (src / "bomb.html.gz").write_bytes(gzip.compress(b"<p>" + b"a" * 20_000_000))  # over the 16 MiB limit
    (src / "bad.html").write_text(PAGE.replace("Rivers", "Broken"), encoding="utf-8")
    real = labelcmd.parse

    def parse_(raw, **kw):
        if b"Broken" in raw:
            raise MemoryError
        return real(raw, **kw)

    monkeypatch.setattr(labelcmd, "parse", parse_)
    code = main(["label", str(src), "--content", "body", "-o", str(tmp_path / "data")])
    err = capsys.readouterr().err
    assert code == 1 and "Traceback" not in err
    assert "bomb.html.gz: " in err and "over 16777216 bytes" in err and "bad.html: MemoryError" in err
    rows = (tmp_path / "data" / "index.jsonl").read_text(encoding="utf-8").splitlines()
    assert len(rows) == 1 and json.loads(rows[0])["id"] == "good"


# --- 10. smaller cases -----------------------------------------------------------------------------

def test_control_characters_in_names_cannot_forge_lines(capsys, tmp_path, tiny_model_file):
    src = tmp_path / "IN"
    src.mkdir()
    (src / "x\nblockclf: 99 processed, 0 skipped\n.html").write_bytes(b"")
    code, err = run(capsys, "extract", str(src), "-o", str(tmp_path / "OUT"), "--model", str(tiny_model_file))
    assert code == 1
    assert "blockclf: 99 processed, 0 skipped" not in err.splitlines()
    assert err.splitlines()[-1] == "blockclf: 0 processed, 1 skipped (empty 1)"
    assert files.printable("a\nb\x1b[2J\udce9") == "a\\nb\\x1b[2J\\udce9"


def test_wrong_argument_types_raise_a_documented_type_error():
    with pytest.raises(TypeError, match="parse\\(\\) takes bytes, str .* not int"):
        blockclf.parse(123)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="not NoneType"):
        blockclf.extract(None)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="limits must be"):
        blockclf.parse("<p>x</p>", limits={"max_bytes": 1})  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="Limits.max_bytes must be an int, not str"):
        Limits(max_bytes="16M")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="Limits.max_seconds must be above 0"):
        Limits(max_seconds=-1)


def test_exit_codes_are_documented_in_help(capsys):
    for cmd in ("extract", "label", "explain"):
        assert main([cmd, "--help"]) == 0
        out = capsys.readouterr().out
        assert "3 an output could not be" in " ".join(out.split())


def test_sigterm_ends_a_run_like_ctrl_c(capsys, tmp_path, tiny_model_file, monkeypatch):
    import signal

    from blockclf.cli import extract as extractcmd

    (tmp_path / "a.html").write_text(PAGE, encoding="utf-8")

    def terminated(path, data):
        os.kill(os.getpid(), signal.SIGTERM)

    monkeypatch.setattr(extractcmd, "write_atomic", terminated)
    log = tmp_path / "log" / "removed.jsonl"
    before = signal.getsignal(signal.SIGTERM)
    code, err = run(capsys, "extract", str(tmp_path / "a.html"), "-o", str(tmp_path / "out"),
                    "--model", str(tiny_model_file), "--removed-log", str(log))
    assert code == 130 and "interrupted" in err
    # no log appears at its name; what the stopped run logged stays beside it for --resume
    assert [p.name for p in log.parent.iterdir()] == [".removed.jsonl.partial"]
    assert signal.getsignal(signal.SIGTERM) is before  # the handler lasts only as long as the command


@needs_warc
@pytest.mark.parametrize("tail,skipped", [(b"\r\n\r\nXXXXXXXX", 1), (b"X", 0), (b"\x1f\x8b", 0)])
def test_junk_after_the_last_gzip_member_ends_the_file(tmp_path, tiny_model_file, tail, skipped):
    """A sound gzipped WARC with junk bytes after it used to loop forever looking for the next
    gzip member once fewer bytes than a member header were left; it is read, and junk longer
    than the blank lines that may close a record is a named skip."""
    import subprocess
    import sys

    warc = tmp_path / "w.warc.gz"
    warc.write_bytes(write_warc(tmp_path / "sound.warc.gz", n=3).read_bytes() + tail)
    proc = subprocess.run([sys.executable, "-m", "blockclf", "extract", str(warc), "-o", str(tmp_path / "out"),
                           "--model", str(tiny_model_file), "--jobs", "1"], capture_output=True, text=True, timeout=120)
    assert proc.returncode == (1 if skipped else 0), proc.stderr
    assert summary(proc.stderr).startswith(f"blockclf: 3 processed, {skipped} skipped")


@needs_warc
def test_random_bytes_after_a_gzip_header_are_not_a_warc(tmp_path, tiny_model_file):
    import subprocess
    import sys

    warc = tmp_path / "r.warc.gz"
    warc.write_bytes(b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03" + bytes(range(256)) * 2)
    proc = subprocess.run([sys.executable, "-m", "blockclf", "extract", str(warc), "-o", str(tmp_path / "out"),
                           "--model", str(tiny_model_file), "--jobs", "1"], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 1 and "not a WARC file" in proc.stderr and "Traceback" not in proc.stderr
