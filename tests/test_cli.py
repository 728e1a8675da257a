"""The command-line contract of DESIGN §2: outputs, file naming, exit codes, train, evaluate."""

from __future__ import annotations

import gzip
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from blockclf.cli import main
from blockclf.cli.extract import EXT, HTML_CHARSET
from blockclf.model import load_model

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def pages_dir(tmp_path: Path, synthetic_page) -> Path:
    """IN/a/b.html.gz, IN/c.htm, IN/d.HTML, IN/notes.txt (ignored)."""
    src = tmp_path / "IN"
    (src / "a").mkdir(parents=True)
    (src / "a" / "b.html.gz").write_bytes(gzip.compress(synthetic_page(20, 0).html.encode("utf-8")))
    (src / "c.htm").write_text(synthetic_page(20, 1).html, encoding="utf-8")
    (src / "d.HTML").write_text(synthetic_page(20, 2).html, encoding="utf-8")
    (src / "notes.txt").write_text("not a page", encoding="utf-8")
    return src


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_extract_one_file_to_stdout(capsys, tiny_model_file: Path, synthetic_page, tmp_path: Path):
    page = synthetic_page(21, 0)
    path = tmp_path / "page.html"
    path.write_text(page.html, encoding="utf-8")
    code, out, err = run(capsys, "extract", str(path), "--model", str(tiny_model_file))
    assert code == 0, err
    assert out.startswith(page.title + "\n")
    assert "All rights reserved" not in out
    code, md, _ = run(capsys, "extract", str(path), "--model", str(tiny_model_file), "--format", "markdown")
    assert code == 0 and md.startswith(f"# {page.title}\n")
    code, js, _ = run(capsys, "extract", str(path), "--model", str(tiny_model_file), "--format", "json")
    assert code == 0 and json.loads(js)["title"].startswith(page.title)


@pytest.mark.parametrize("fmt, ext", [("text", ".txt"), ("markdown", ".md"), ("json", ".json")])
def test_extract_directory_names_outputs_by_relative_path(capsys, tiny_model_file, pages_dir, tmp_path, fmt, ext):
    out_dir = tmp_path / "OUT"
    code, out, err = run(capsys, "extract", str(pages_dir), "-o", str(out_dir), "--format", fmt,
                         "--model", str(tiny_model_file))
    assert code == 0, err
    assert out == ""
    written = sorted(str(p.relative_to(out_dir)) for p in out_dir.rglob("*") if p.is_file())
    assert written == sorted([f"a/b{ext}", f"c{ext}", f"d{ext}"])
    assert "3 processed, 0 skipped" in err


def test_extract_named_files_with_output_dir(capsys, tiny_model_file, pages_dir, tmp_path):
    out_dir = tmp_path / "OUT"
    code, _, err = run(capsys, "extract", str(pages_dir / "a" / "b.html.gz"), str(pages_dir / "c.htm"),
                       "-o", str(out_dir), "--model", str(tiny_model_file))
    assert code == 0, err
    assert sorted(p.name for p in out_dir.iterdir()) == ["b.txt", "c.txt"]


def test_extract_follows_symlinked_directories(capsys, tiny_model_file, pages_dir, tmp_path):
    linked = tmp_path / "LINKED"
    linked.mkdir()
    os.symlink(pages_dir / "a", linked / "via")
    out_dir = tmp_path / "OUT"
    code, _, err = run(capsys, "extract", str(linked), "-o", str(out_dir), "--model", str(tiny_model_file))
    assert code == 0, err
    assert (out_dir / "via" / "b.txt").exists()


def test_skipped_page_exits_1_and_is_named(capsys, tiny_model_file, pages_dir, tmp_path):
    bad = pages_dir / "broken.html"
    bad.write_bytes(b"%PDF-1.7 not html at all")
    empty = pages_dir / "a" / "empty.html"
    empty.write_bytes(b"")
    out_dir = tmp_path / "OUT"
    code, _, err = run(capsys, "extract", str(pages_dir), "-o", str(out_dir), "--model", str(tiny_model_file))
    assert code == 1
    assert "broken.html" in err and "empty.html" in err
    assert (out_dir / "c.txt").exists() and not (out_dir / "broken.txt").exists()
    assert "3 processed, 2 skipped" in err


@pytest.mark.parametrize("argv", [
    ["extract"],
    ["extract", "--favor", "fastest", "x.html"],
    ["extract", "/no/such/file.html"],
    ["frobnicate"],
    [],
])
def test_usage_errors_exit_2(capsys, argv):
    assert main(argv) == 2
    assert capsys.readouterr().err


def test_bad_threshold_exits_2(capsys, tiny_model_file, pages_dir):
    code, _, err = run(capsys, "extract", str(pages_dir / "c.htm"), "--threshold", "1.5",
                       "--model", str(tiny_model_file))
    assert code == 2 and "threshold" in err


@pytest.mark.parametrize("content", [b"not a model", b'{"format": "blockclf-model", "format_version": 99}', None])
def test_unusable_model_file_exits_2_with_one_line(capsys, pages_dir, tmp_path, content):
    model = tmp_path / "model.json"
    if content is not None:
        model.write_bytes(content)
    code, out, err = run(capsys, "extract", str(pages_dir / "c.htm"), "--model", str(model))
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "model" in err


def test_removed_log(capsys, tiny_model_file, pages_dir, tmp_path):
    log = tmp_path / "removed.jsonl"
    code, _, _ = run(capsys, "extract", str(pages_dir / "c.htm"), "--model", str(tiny_model_file),
                     "--removed-log", str(log))
    assert code == 0
    records = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    assert records and all({"page", "xpath", "text", "score", "threshold"} <= set(r) for r in records)
    assert any("All rights reserved" in r["text"] for r in records)
    assert not [f for f in tmp_path.iterdir() if ".tmp" in f.name]  # written under a temporary name, renamed


def test_removed_log_of_several_pages_to_standard_output(capsys, tiny_model_file, pages_dir, tmp_path):
    # several pages and no -o: JSON lines on stdout, and the log still one record a line
    log = tmp_path / "removed.jsonl"
    code, out, _ = run(capsys, "extract", str(pages_dir / "c.htm"), str(pages_dir / "d.HTML"),
                       "--model", str(tiny_model_file), "--removed-log", str(log))
    assert code == 0 and len(out.splitlines()) == 2
    records = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    assert {r["page"] for r in records} == {str(pages_dir / "c.htm"), str(pages_dir / "d.HTML")}
    assert any("All rights reserved" in r["text"] for r in records)


def test_removed_log_not_left_half_written_on_interrupt(capsys, tiny_model_file, pages_dir, tmp_path, monkeypatch):
    import blockclf.cli.extract as extractcmd

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(extractcmd, "write_atomic", interrupted)
    log = tmp_path / "log" / "removed.jsonl"
    log.parent.mkdir()
    code = main(["extract", str(pages_dir), "-o", str(tmp_path / "out"), "--model", str(tiny_model_file),
                 "--removed-log", str(log)])
    assert code == 130 and "interrupted" in capsys.readouterr().err
    assert not log.exists()  # what the stopped run logged stays beside it, in whole lines, for --resume
    assert [p.name for p in log.parent.iterdir()] == [".removed.jsonl.partial"]
    assert all(json.loads(line) for line in (log.parent / ".removed.jsonl.partial").read_text().splitlines())


def test_a_stopped_runs_removal_log_goes_on_with_resume(capsys, synthetic_page, tmp_path, monkeypatch):
    """Stopped after two pages and resumed, the log holds every removed block once, as one run's does."""
    import blockclf.cli.extract as extractcmd

    src = tmp_path / "in"
    src.mkdir()
    for p in range(5):
        (src / f"{p}.html").write_text(synthetic_page(8, p).html, encoding="utf-8")
    args = ["extract", str(src), "--jobs", "1"]
    assert main([*args, "-o", str(tmp_path / "whole"), "--removed-log", str(tmp_path / "whole.jsonl")]) == 0
    whole = (tmp_path / "whole.jsonl").read_text(encoding="utf-8").splitlines()
    real = extractcmd.write_atomic
    written = []

    def stopping(path, data):  # Ctrl-C while the third output is written: its log lines are in
        if len(written) == 2:
            raise KeyboardInterrupt
        written.append(path)
        real(path, data)

    monkeypatch.setattr(extractcmd, "write_atomic", stopping)
    log = tmp_path / "removed.jsonl"
    assert main([*args, "-o", str(tmp_path / "out"), "--removed-log", str(log)]) == 130
    monkeypatch.undo()
    assert main([*args, "-o", str(tmp_path / "out"), "--removed-log", str(log), "--resume"]) == 0
    assert "3 processed, 2 done before" in capsys.readouterr().err
    assert log.read_text(encoding="utf-8").splitlines() == whole and len({json.loads(r)["page"] for r in whole}) == 5


def test_python_m_blockclf(tiny_model_file, pages_dir):
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    proc = subprocess.run([sys.executable, "-m", "blockclf", "extract", str(pages_dir / "c.htm"),
                           "--model", str(tiny_model_file)], capture_output=True, text=True, env=env, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "All rights reserved" not in proc.stdout and proc.stdout.strip()


def test_train_and_evaluate_on_a_tiny_dataset(capsys, tiny_dataset, tmp_path):
    model_path = tmp_path / "trained.json"
    code, out, err = run(capsys, "train", str(tiny_dataset), "-o", str(model_path), "--jobs", "1", "--seed", "3")
    assert code == 0, err
    assert "trained on 20 pages" in out and "balanced  threshold" in out and "dev P" in out
    model = load_model(model_path)
    assert model.info["seed"] == 3 and model.info["dev_pages"] == 8

    code, out, err = run(capsys, "evaluate", str(tiny_dataset), "--model", str(model_path), "--split", "test")
    assert code == 0, err
    rows = {line.split()[0]: line.split()[1:] for line in out.splitlines()[2:]}
    assert set(rows) == {"alpha", "beta", "all"}
    header = out.splitlines()[1].split()
    assert header[:3] == ["precision", "recall", "f1"]
    assert float(rows["all"][header.index("f1")]) > 0.9
    assert float(rows["all"][header.index("pages")]) == 6

    code, out, _ = run(capsys, "evaluate", str(tiny_dataset), "--model", str(model_path), "--dataset", "beta")
    assert code == 0 and {line.split()[0] for line in out.splitlines()[2:]} == {"beta", "all"}


def test_train_with_the_refining_pass(capsys, tiny_dataset, tmp_path):
    model_path = tmp_path / "refined.json"
    code, out, err = run(capsys, "train", str(tiny_dataset), "-o", str(model_path), "--jobs", "1", "--refine")
    assert code == 0, err
    assert "refining trees" in out
    assert load_model(model_path).refiner is not None
    code, out, err = run(capsys, "extract", str(tiny_dataset / "alpha" / "html" / "s6p0.html.gz"),
                         "--model", str(model_path))
    assert code == 0 and out.strip(), err


def test_train_without_dev_split_is_a_usage_error(capsys, tiny_dataset, tmp_path):
    code, _, err = run(capsys, "train", str(tiny_dataset), "--dev-split", "nope", "-o", str(tmp_path / "m.json"))
    assert code == 2 and "nope" in err


def test_evaluate_missing_index_exits_2(capsys, tmp_path):
    code, _, err = run(capsys, "evaluate", str(tmp_path))
    assert code == 2 and "index.jsonl" in err


def test_single_bad_file_exits_1_and_is_named(capsys, tiny_model_file, tmp_path):
    bad = tmp_path / "blank.html"
    bad.write_bytes(b"  \n")
    code, out, err = run(capsys, "extract", str(bad), "--model", str(tiny_model_file))
    assert code == 1 and out == ""
    assert "blank.html" in err and "empty" in err


def test_train_takes_the_favor_targets(capsys, tiny_dataset, tmp_path):
    model_path = tmp_path / "targets.json"
    code, out, err = run(capsys, "train", str(tiny_dataset), "-o", str(model_path), "--jobs", "1",
                         "--precision-target", "0.6", "--recall-target", "0.99")
    assert code == 0, err
    scores = load_model(model_path).info["dev_scores"]
    assert scores["precision"]["target"] == 0.6 and scores["recall"]["target"] == 0.99
    assert "aim precision >= 0.60" in out and "aim recall >= 0.99" in out
    code, _, err = run(capsys, "train", str(tiny_dataset), "-o", str(model_path), "--recall-target", "97")
    assert code == 2 and "--recall-target must be between 0 and 1" in err


@pytest.mark.parametrize("flag", ["--version", "-V"])
def test_version_flag_prints_the_version(flag, capsys):
    import blockclf

    assert main([flag]) == 0
    assert capsys.readouterr().out.strip() == f"blockclf {blockclf.__version__}"


def _cli(args, stdin: bytes = b"") -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "blockclf", *args], input=stdin, capture_output=True, timeout=120)


def test_one_page_on_standard_input_goes_to_standard_output(tiny_model_file, synthetic_page):
    page = synthetic_page(8, 1)
    proc = _cli(["extract", "-", "--model", str(tiny_model_file)], page.html.encode("utf-8"))
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.decode("utf-8").strip() and b"Traceback" not in proc.stderr


def test_several_pages_without_an_output_folder_are_json_lines(tmp_path, tiny_model_file, synthetic_page):
    for p in range(3):
        (tmp_path / f"{p}.html").write_text(synthetic_page(8, p).html, encoding="utf-8")
    for out in ([], ["-o", "-"]):
        proc = _cli(["extract", str(tmp_path), "-", "--model", str(tiny_model_file), *out],
                    synthetic_page(9, 0).html.encode("utf-8"))
        assert proc.returncode == 0, proc.stderr
        rows = [json.loads(line) for line in proc.stdout.decode("utf-8").splitlines()]
        assert [r["name"] for r in rows] == ["-"] + [str(tmp_path / f"{p}.html") for p in range(3)]
        assert all(isinstance(r["text"], str) and r["text"] for r in rows)


@pytest.mark.parametrize(("fmt", "choices", "shows"), [
    ("markdown", ["--images"], "![a picture]("),  # the image, which only --images writes
    ("html", ["--images", "--no-title"], "<img src="),
    ("text", ["--title"], None),  # the headline first, which text leaves out unless asked
])
def test_json_lines_of_several_pages_hold_what_their_files_would(tmp_path, tiny_model_file, synthetic_page,
                                                                  fmt, choices, shows):
    pages = tmp_path / "pages"
    pages.mkdir()
    for p in range(2):
        html = synthetic_page(8, p).html.replace("<p>", '<p><img src="/pic.jpg" alt="a picture"> ', 1)
        (pages / f"{p}.html").write_text(html, encoding="utf-8")
    argv = ["extract", str(pages), "--model", str(tiny_model_file), "--format", fmt, *choices]
    files, lines = _cli([*argv, "-o", str(tmp_path / "out")], b""), _cli(argv, b"")
    assert files.returncode == lines.returncode == 0, (files.stderr, lines.stderr)
    rows = [json.loads(line) for line in lines.stdout.decode("utf-8").splitlines()]
    assert len(rows) == 2
    for p, row in enumerate(rows):
        written = (tmp_path / "out" / f"{p}{EXT[fmt]}").read_text(encoding="utf-8")
        assert row[fmt] == {"html": written.removeprefix(HTML_CHARSET), "text": written.removesuffix("\n")}.get(fmt, written)
        if shows is not None:
            assert shows in row[fmt]
        if fmt == "text":
            assert row[fmt].startswith(row["title"] + "\n")


def test_standard_input_over_the_size_limit_is_a_named_skip(tiny_model_file):
    proc = _cli(["extract", "-", "--model", str(tiny_model_file), "--max-bytes", "10"], b"<p>" + b"x" * 100)
    assert proc.returncode == 1 and b"skipped -: " in proc.stderr and b"Traceback" not in proc.stderr


def test_a_url_is_not_fetched_and_says_so(capsys):
    assert main(["extract", "https://example.org/page.html"]) == 2
    assert "does not fetch URLs" in capsys.readouterr().err


def test_a_mirrors_pages_are_read_by_name_or_content_and_other_files_reported(tmp_path, tiny_model_file, capsys,
                                                                              synthetic_page):
    # a mirror saves /news/story as "story" and /item.php?id=3 as "item.php?id=3": pages all the same
    html = synthetic_page(8, 0).html
    for name in ("a.html", "index.html?p=2", "story", "item.php?id=3"):
        (tmp_path / name).write_text(html, encoding="utf-8")
    (tmp_path / "page.xhtml").write_text('<?xml version="1.0" encoding="utf-8"?>\n' + html, encoding="utf-8")
    (tmp_path / "style.css").write_text("body { color: red }", encoding="utf-8")
    (tmp_path / "app.php").write_text("<?php echo '<html><body>hi</body></html>'; ?>", encoding="utf-8")
    (tmp_path / "feed").write_text('<?xml version="1.0"?><rss><channel><title>x</title></channel></rss>')
    (tmp_path / "logo.png").write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(range(256)))
    out = tmp_path / "out"
    assert main(["extract", str(tmp_path), "-o", str(out), "--model", str(tiny_model_file)]) == 0
    err = capsys.readouterr().err
    assert "4 files in the given folders were not read" in err
    assert all(name in err for name in ("style.css", "app.php", "feed", "logo.png"))
    assert sorted(p.name for p in out.iterdir()) == ["a.txt", "index.html?p=2.txt", "item.php?id=3.txt",
                                                     "page.xhtml.txt", "story.txt"]
    assert (out / "story.txt").read_text(encoding="utf-8") == (out / "a.txt").read_text(encoding="utf-8") != ""
    (tmp_path / "style.css").unlink()  # one file left unread: said in the singular
    for name in ("app.php", "feed", "logo.png"):
        (tmp_path / name).unlink()
    (tmp_path / "notes.txt").write_text("plain notes", encoding="utf-8")
    assert main(["extract", str(tmp_path), "-o", str(out), "--model", str(tiny_model_file), "--overwrite"]) == 0
    assert "1 file in the given folders was not read, as it is neither a page" in capsys.readouterr().err


def test_the_program_exits_with_the_commands_code_once_its_output_is_flushed(monkeypatch, capsys):
    import blockclf.cli as cli

    class Exited(Exception):
        pass

    def exit_now(code: int) -> None:
        raise Exited(code)

    def command() -> int:
        sys.stdout.write("the page's text")  # still buffered when the command returns
        return 1

    monkeypatch.setattr(cli, "main", command)
    monkeypatch.setattr(cli.os, "_exit", exit_now)
    with pytest.raises(Exited) as ended:
        cli.console()
    assert ended.value.args == (1,) and capsys.readouterr().out == "the page's text"


def test_the_program_waits_for_work_still_running(monkeypatch):
    import threading

    import blockclf.cli as cli

    monkeypatch.setattr(cli, "main", lambda: 0)
    monkeypatch.setattr(cli.os, "_exit", lambda code: pytest.fail("exited with a thread at work"))
    release = threading.Event()
    worker = threading.Thread(target=release.wait, args=(30,))  # not a daemon: the interpreter waits for it
    worker.start()
    try:
        with pytest.raises(SystemExit) as ended:
            cli.console()
        assert ended.value.code == 0
    finally:
        release.set()
        worker.join()


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
def test_a_full_disk_behind_standard_output_is_an_error(tmp_path, tiny_model_file, synthetic_page):
    for p in range(12):
        (tmp_path / f"{p}.html").write_text(synthetic_page(8, p % 4).html, encoding="utf-8")
    with open("/dev/full", "wb") as full:
        proc = subprocess.run([sys.executable, "-m", "blockclf", "extract", str(tmp_path), "--model",
                               str(tiny_model_file)], stdout=full, stderr=subprocess.PIPE, text=True, timeout=120)
    assert proc.returncode == 3 and "No space left on device" in proc.stderr and "Traceback" not in proc.stderr


def test_a_reader_that_stops_early_ends_the_command_quietly(tmp_path, tiny_model_file, synthetic_page):
    for p in range(40):
        (tmp_path / f"{p}.html").write_text(synthetic_page(8, p % 4).html, encoding="utf-8")
    cmd = (f"{sys.executable} -m blockclf extract {tmp_path} --model {tiny_model_file} --progress off "
           "--format json 2>err.txt | head -c 10 > /dev/null; echo ${PIPESTATUS[0]}")
    proc = subprocess.run(["bash", "-c", cmd], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert proc.stdout.strip() == "141"  # as a Unix tool ended by SIGPIPE
    assert "Traceback" not in (tmp_path / "err.txt").read_text() and "Broken pipe" not in (tmp_path / "err.txt").read_text()


@pytest.mark.parametrize("value", ["0", "-2", "many"])
def test_jobs_takes_a_number_or_auto(capsys, tmp_path: Path, value: str):
    try:
        code = main(["extract", str(tmp_path), "--jobs", value])
    except SystemExit as exc:
        code = exc.code
    assert code == 2
    assert "--jobs" in capsys.readouterr().err


def test_jobs_auto_is_the_default_and_starts_no_worker_for_one_page(capsys, tiny_model_file: Path, synthetic_page,
                                                                     tmp_path: Path, monkeypatch):
    from blockclf.workers import Workers

    started = []
    monkeypatch.setattr(Workers, "_executor", lambda self, jobs: started.append(jobs))
    path = tmp_path / "page.html"
    path.write_text(synthetic_page(21, 0).html, encoding="utf-8")
    code, out, _ = run(capsys, "extract", str(path), "--model", str(tiny_model_file))
    assert code == 0 and out.strip() and not started
    code, out, _ = run(capsys, "extract", "--help")
    assert code == 0 and "auto (default)" in " ".join(out.split())


def _page_keys_dying_once(marker: Path, parent: int, real):
    """`batch.page_keys`, but the first worker process to call it dies (never the test's own)."""
    def keys(*args, **kwargs):
        if os.getpid() != parent and not marker.exists():
            marker.touch()
            os.kill(os.getpid(), 9)
        return real(*args, **kwargs)
    return keys


def test_a_worker_that_died_is_said_without_verbose(capsys, tiny_model_file: Path, synthetic_page, tmp_path: Path,
                                                    monkeypatch):
    """A worker process that dies (killed, out of memory) costs nothing: its tasks run again;
    but the user is told, as the package's other warnings are, with or without -v."""
    import logging

    import blockclf.batch as batch

    before = list(logging.getLogger("blockclf.workers").handlers)
    monkeypatch.setattr(batch, "page_keys", _page_keys_dying_once(tmp_path / "died", os.getpid(), batch.page_keys))
    folder = tmp_path / "pages"
    folder.mkdir()
    for p in range(6):
        (folder / f"{p}.html").write_text(synthetic_page(8, p).html, encoding="utf-8")
    code, _, err = run(capsys, "extract", str(folder), "-o", str(tmp_path / "out"), "--jobs", "2",
                       "--model", str(tiny_model_file))
    assert code == 0 and (tmp_path / "died").exists()
    assert "blockclf: warning: a worker process died: running its tasks again" in err
    assert sorted(f.name for f in (tmp_path / "out").iterdir()) == [f"{p}.txt" for p in range(6)]
    assert logging.getLogger("blockclf.workers").handlers == before  # a caller's Python may call main again


def test_a_host_named_folder_given_on_the_command_line_names_its_pages_site(capsys, tmp_path: Path,
                                                                          tiny_model_file: Path, synthetic_page):
    mirror = tmp_path / "crawl.data" / "www.example.org"  # the folder above the named one never counts
    mirror.mkdir(parents=True)
    for p in range(3):  # pages that name no URL of their own
        html = synthetic_page(8, p).html
        html = re.sub(r"<link[^>]*canonical[^>]*>|<meta[^>]*og:url[^>]*>", "", html)
        (mirror / f"{p}.html").write_text(html, encoding="utf-8")
    code, _, err = run(capsys, "extract", str(mirror), "-o", str(tmp_path / "out"), "--format", "json",
                       "--model", str(tiny_model_file))
    assert code == 0 and "no site evidence" not in err
    sites = {json.loads(p.read_text(encoding="utf-8"))["site"] for p in (tmp_path / "out").iterdir()}
    assert sites == {"example.org"}
    code, _, err = run(capsys, "extract", str(tmp_path / "crawl.data"), "-o", str(tmp_path / "out2"),
                       "--format", "json", "--model", str(tiny_model_file))
    assert {json.loads(p.read_text(encoding="utf-8"))["site"] for p in (tmp_path / "out2").rglob("*.json")} == {"example.org"}


@pytest.mark.parametrize("argv,wanted", [
    (["train"], ["-o MODEL, --output MODEL", "model file to write (default model.json)", "(default train)",
                 "(default dev)", "--seed", "--jobs"]),
    (["evaluate"], ["BENCH", "directory in the benchmark layout", "split to score (default test)",
                    "overrides --favor", "same site as evidence"]),
    (["site", "inspect"], ["profile written by 'blockclf site build'"]),
    (["site", "stats"], ["stats file to write"]),
])
def test_every_option_says_what_it_does(capsys, argv: list[str], wanted: list[str]):
    code, out, _ = run(capsys, *argv, "--help")
    text = " ".join(out.split())
    assert code == 0
    for phrase in wanted:
        assert " ".join(phrase.split()) in text, phrase
    # no option line without a help text after it (argparse prints the flags alone on such a line)
    options = text.split("options:")[1]
    for flag in ("--split SPLIT --dev-split", "--seed SEED --jobs", "--model FILE --split"):
        assert flag not in options


@pytest.mark.parametrize("alias,first", [("txt", "Why Rivers Meander"), ("md", "# Why Rivers Meander"),
                                         ("TEXT", "Why Rivers Meander")])
def test_format_is_taken_by_its_file_suffix_too(capsys, alias: str, first: str):
    code, out, _ = run(capsys, "extract", str(ROOT / "data" / "example.html"), "--format", alias)
    assert code == 0 and out.splitlines()[0] == first


def test_explain_with_an_output_that_cannot_show_it_says_so(capsys):
    code, out, err = run(capsys, "extract", str(ROOT / "data" / "example.html"), "--explain")
    assert code == 0 and out.strip()
    assert "--explain adds each block's reasons to JSON output" in err
    code, _, err = run(capsys, "extract", str(ROOT / "data" / "example.html"), "--explain", "--format", "json")
    assert code == 0 and "warning" not in err


def test_blocks_option_sets_which_block_records_json_holds(capsys, tiny_model_file, pages_dir, tmp_path):
    docs = {}
    for blocks in ("all", "kept", "none"):
        out_dir = tmp_path / blocks
        code, _, err = run(capsys, "extract", str(pages_dir), "-o", str(out_dir), "--format", "json", "--blocks",
                           blocks, "--model", str(tiny_model_file))
        assert code == 0 and "warning" not in err, err
        docs[blocks] = {p.name: json.loads(p.read_text(encoding="utf-8")) for p in out_dir.rglob("*.json")}
    assert len(docs["all"]) == 3
    for name, every in docs["all"].items():
        kept, bare = docs["kept"][name], docs["none"][name]
        assert every["stats"]["n_blocks"] == len(every["blocks"]) > len(kept["blocks"]) > 0
        assert kept["blocks"] == [b for b in every["blocks"] if b["kept"]]
        assert "blocks" not in bare and bare["text"] == every["text"] and bare["markdown"] == every["markdown"]
    # several pages to standard output: one JSON line each, without their records
    code, out, _ = run(capsys, "extract", str(pages_dir), "--format", "json", "--blocks", "none",
                       "--model", str(tiny_model_file))
    rows = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and len(rows) == 3 and all("blocks" not in r and r["text"] for r in rows)


def test_blocks_option_with_an_output_that_holds_no_records_says_so(capsys):
    page = str(ROOT / "data" / "example.html")
    code, out, err = run(capsys, "extract", page, "--blocks", "none")
    assert code == 0 and out.startswith("Why Rivers Meander")
    assert "--blocks says which block records JSON output holds; text output holds none" in err
    code, out, err = run(capsys, "extract", page, "--format", "json", "--blocks", "none", "--explain")
    assert code == 0 and "blocks" not in json.loads(out)
    assert "JSON without block records (--blocks none) shows none of them" in err
    code, _, err = run(capsys, "extract", page, "--format", "json", "--blocks", "kept", "--explain")
    assert code == 0 and "warning" not in err
    code, _, err = run(capsys, "extract", page, "--blocks", "removed")
    assert code == 2 and "invalid choice: 'removed'" in err


def test_an_encoding_no_browser_reads_is_a_usage_error(capsys, tiny_model_file):
    page = str(ROOT / "data" / "example.html")
    code, out, err = run(capsys, "extract", page, "--model", str(tiny_model_file), "--encoding", "no-such-codec")
    assert code == 2 and out == "" and "'no-such-codec' names no encoding a browser reads" in err
    code, out, _ = run(capsys, "extract", page, "--model", str(tiny_model_file), "--encoding", "Windows-1252")
    assert code == 0 and out


def test_o_naming_a_file_for_one_page_writes_that_file(capsys, tmp_path: Path):
    page = ROOT / "data" / "example.html"
    target = tmp_path / "result.txt"
    code, _, _ = run(capsys, "extract", str(page), "-o", str(target))
    assert code == 0 and target.is_file() and target.read_text(encoding="utf-8").startswith("Why Rivers Meander")
    code, _, err = run(capsys, "extract", str(page), "-o", str(target))  # a rerun does not replace it
    assert code == 1 and "exists" in err
    assert run(capsys, "extract", str(page), "-o", str(target), "--overwrite")[0] == 0
    folder = tmp_path / "out.md"
    folder.mkdir()  # an existing folder stays a folder, whatever its name
    assert run(capsys, "extract", str(page), "-o", str(folder), "--format", "markdown")[0] == 0
    assert (folder / "example.md").is_file()
    several = tmp_path / "several.txt"  # several pages: -o names a folder
    pages = tmp_path / "in"
    pages.mkdir()
    for n in range(2):
        (pages / f"{n}.html").write_bytes(page.read_bytes())
    assert run(capsys, "extract", str(pages), "-o", str(several))[0] == 0
    assert several.is_dir() and len(list(several.iterdir())) == 2


def test_the_output_file_s_name_gives_the_format_unless_format_is_given(capsys, tmp_path: Path):
    page = ROOT / "data" / "example.html"
    for name, first in (("a.md", "# Why Rivers Meander"), ("b.json", "{"), ("c.html", '<meta charset="utf-8">'),
                        ("d.markdown", "# Why Rivers Meander"), ("e.txt", "Why Rivers Meander")):
        assert run(capsys, "extract", str(page), "-o", str(tmp_path / name))[0] == 0
        assert (tmp_path / name).read_text(encoding="utf-8").splitlines()[0] == first, name
    assert run(capsys, "extract", str(page), "-o", str(tmp_path / "f.md"), "--format", "text")[0] == 0
    assert (tmp_path / "f.md").read_text(encoding="utf-8").startswith("Why Rivers Meander")  # asked for, given
    folder = tmp_path / "g.md"
    folder.mkdir()  # a folder's name says nothing of its files' format
    assert run(capsys, "extract", str(page), "-o", str(folder))[0] == 0
    assert [p.name for p in folder.iterdir()] == ["example.txt"]
    code, _, err = run(capsys, "extract", str(page), "-o", str(tmp_path / "h.txt"), "--explain")
    assert code == 0 and "--explain adds each block's reasons" in err
    code, _, err = run(capsys, "extract", str(page), "-o", str(tmp_path / "i.json"), "--explain")
    assert code == 0 and "warning" not in err


def test_url_gives_one_page_its_address_for_links_and_site(capsys, tmp_path: Path):
    page = tmp_path / "p.html"
    page.write_text('<html><body><article><h1>River</h1><p>The river cut a new channel through the plain, as '
                    'rivers do, and <a href="../maps/delta.html">the delta map</a> shows where it went.</p>'
                    '</article></body></html>', encoding="utf-8")
    code, out, _ = run(capsys, "extract", str(page), "--format", "json", "--url", "https://www.example.org/a/b.html")
    d = json.loads(out)
    assert code == 0 and d["url"] == "https://www.example.org/a/b.html" and d["site"] == "example.org"
    assert "[the delta map](https://www.example.org/maps/delta.html)" in d["markdown"]
    code, out, _ = run(capsys, "extract", str(page), "--format", "md")
    assert code == 0 and "[the delta map](../maps/delta.html)" in out  # no address: as written
    (tmp_path / "q.html").write_bytes(page.read_bytes())
    code, _, err = run(capsys, "extract", str(tmp_path), "--url", "https://www.example.org/")
    assert code == 2 and "--url names one page's address" in err
    for bad in ("javascript:alert(1)", "www.example.org/a", "http://[::1", "ftp://example.org/x", "https:///x"):
        code, _, err = run(capsys, "extract", str(page), "--url", bad)
        assert code == 2 and "--url must be an absolute http or https address" in err, bad


@pytest.mark.parametrize("head, page", [
    (b"<!DOCTYPE html><html><body>", True),
    (b"\n\n  <html lang='en'>", True),
    (b"\xef\xbb\xbf<!doctype HTML>", True),
    ('<?xml version="1.0" encoding="utf-16"?><!DOCTYPE html>'.encode("utf-16"), True),
    (b'<?xml version="1.0"?>\n<html xmlns="http://www.w3.org/1999/xhtml">', True),
    (b"<!-- saved from url=(0042)https://example.org/ --><html>", True),
    (b"<head><meta charset='utf-8'>", True),
    (b"<div class='post'>a fragment", True),
    (b"<P>A paragraph", True),
    (b"<?php echo 1; ?>", False),
    (b'<?xml version="1.0"?><rss version="2.0">', False),
    (b'<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg">', False),
    (b"body { color: red }", False),
    (b'{"html": "<html>"}', False),
    (b"function f() { return '<html>'; }", False),
    (b"\x89PNG\r\n\x1a\n", False),
    (b"\x1f\x8b\x08\x00", False),
    (b"<article-list>", False),  # a tag of another name that starts like one of HTML's
    (b"", False),
])
def test_a_file_is_a_page_by_how_it_begins(head, page):
    from blockclf.inputs import looks_like_html

    assert looks_like_html(head) is page


def test_without_warcio_a_folders_warc_files_are_named_skips_and_a_named_one_stops_the_run(
        tmp_path, tiny_model_file, capsys, monkeypatch, synthetic_page):
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "warcio" else real(name, *a))
    (tmp_path / "a.html").write_text(synthetic_page(8, 0).html, encoding="utf-8")
    (tmp_path / "crawl.warc.gz").write_bytes(b"never read")
    out = tmp_path / "out"
    assert main(["extract", str(tmp_path), "-o", str(out), "--model", str(tiny_model_file)]) == 1
    err = capsys.readouterr().err
    assert "skipped" in err and "crawl.warc.gz: reading WARC files needs warcio" in err and "needs-warcio 1" in err
    assert sorted(p.name for p in out.iterdir()) == ["a.txt"]
    assert main(["extract", str(tmp_path / "crawl.warc.gz"), "-o", str(tmp_path / "o2"),
                 "--model", str(tiny_model_file)]) == 2
    assert "needs warcio" in capsys.readouterr().err and not (tmp_path / "o2").exists()


def test_every_command_names_the_files_of_a_folder_it_does_not_read(tmp_path, tiny_model_file, capsys,
                                                                      synthetic_page):
    src = tmp_path / "site"
    src.mkdir()
    for p in range(3):
        (src / f"p{p}.html").write_text(synthetic_page(8, p).html, encoding="utf-8")
    (src / "style.css").write_text("body { color: red }", encoding="utf-8")
    assert main(["site", "build", str(src), "-o", str(tmp_path / "profile.json")]) == 0
    err = capsys.readouterr().err
    assert "1 file in the given folders was not read, as it is neither a page" in err
    assert "nor a WARC or JSONL file: " in err and "style.css" in err
    assert main(["explain", str(src), "-o", str(tmp_path / "views"), "--model", str(tiny_model_file)]) == 0
    err = capsys.readouterr().err
    assert "1 file in the given folders was not read, as it is not a page" in err and "style.css" in err
    code = main(["label", str(src), "--content", "body", "-o", str(tmp_path / "ds")])
    err = capsys.readouterr().err
    assert code == 0 and "was not read, as it is neither a page (named .html" in err and "nor a WARC file" in err


def test_exact_scores_sum_every_tree_and_change_no_decision(capsys):
    from blockclf import extract

    page = ROOT / "data" / "example.html"
    docs = {}
    for flags in ([], ["--exact-scores"]):
        assert main(["extract", str(page), "--format", "json", *flags]) == 0
        docs[bool(flags)] = json.loads(capsys.readouterr().out)
    exact = extract(page, exact_scores=True).scores
    assert [b["score"] for b in docs[True]["blocks"]] == [round(float(s), 4) for s in exact]
    assert [b["score"] for b in docs[False]["blocks"]] != [b["score"] for b in docs[True]["blocks"]]
    assert [b["kept"] for b in docs[False]["blocks"]] == [b["kept"] for b in docs[True]["blocks"]]
    assert docs[False]["text"] == docs[True]["text"]


def test_a_stopped_runs_log_keeps_the_pages_after_one_it_must_log_again(capsys, synthetic_page, tmp_path,
                                                                        monkeypatch):
    """A page in the middle of a stopped run's log whose output is not there (it could not be
    written, or was removed to be extracted again) is logged again; the pages after it keep
    their lines, which --resume will not write again."""
    import blockclf.cli.extract as extractcmd

    src = tmp_path / "in"
    src.mkdir()
    for p in range(5):
        (src / f"{p}.html").write_text(synthetic_page(8, p).html, encoding="utf-8")
    args = ["extract", str(src), "--jobs", "1", "-o", str(tmp_path / "out"), "--removed-log", str(tmp_path / "r.jsonl")]
    real = extractcmd.write_atomic
    written = []

    def stopping(path, data):  # Ctrl-C at the fifth output
        if len(written) == 4:
            raise KeyboardInterrupt
        written.append(path)
        real(path, data)

    monkeypatch.setattr(extractcmd, "write_atomic", stopping)
    assert main(args) == 130
    monkeypatch.undo()
    (tmp_path / "out" / "1.txt").unlink()  # to be extracted again
    before = (tmp_path / ".r.jsonl.partial").read_text(encoding="utf-8").splitlines()
    assert main([*args, "--resume"]) == 0
    assert "2 processed, 3 done before" in capsys.readouterr().err
    lines = (tmp_path / "r.jsonl").read_text(encoding="utf-8").splitlines()
    pages = [Path(json.loads(line)["page"]).name for line in lines]
    assert pages.count("2.html") == sum('2.html"' in line for line in before) > 0  # kept, not logged twice
    assert sorted(set(pages)) == ["0.html", "1.html", "2.html", "3.html", "4.html"]
    assert len(lines) == len(set(lines))


@pytest.mark.parametrize("threshold", ["nan", "1.5", "-0.1"])
def test_every_command_taking_a_threshold_takes_one_between_0_and_1(capsys, tmp_path: Path, tiny_dataset: Path,
                                                                    tiny_model_file: Path, synthetic_page,
                                                                    threshold: str):
    page = tmp_path / "p.html"
    page.write_text(synthetic_page(8, 0).html, encoding="utf-8")
    profile = tmp_path / "site.json"
    assert main(["site", "build", str(page), "-o", str(profile)]) == 0
    model = ["--model", str(tiny_model_file), "--threshold", threshold]
    commands = (["evaluate", str(tiny_dataset), *model], ["explain", str(page), "-o", str(tmp_path / "v.html"), *model],
                ["site", "inspect", str(profile), "--pages", str(page), *model],
                ["site", "stats", str(page), "-o", str(tmp_path / "stats.json"), *model])
    capsys.readouterr()
    for argv in commands:
        assert run(capsys, *argv) == (2, "", "blockclf: error: --threshold must be between 0 and 1\n"), argv
    assert not (tmp_path / "v.html").exists() and not (tmp_path / "stats.json").exists()


@pytest.mark.parametrize(("shares", "why"), [
    (["--dev", "-1"], "argument --dev: must be at least 0 and under 1"),
    (["--test", "nan"], "argument --test: must be at least 0 and under 1"),
    (["--dev", "1"], "argument --dev: must be at least 0 and under 1"),
    (["--dev", "0.9", "--test", "0.9"], "leave no pages to train on"),
])
def test_label_takes_split_shares_that_leave_pages_to_train_on(capsys, tmp_path: Path, synthetic_page,
                                                               shares: list[str], why: str):
    (tmp_path / "p.html").write_text(synthetic_page(8, 0).html, encoding="utf-8")
    assert main(["label", str(tmp_path / "p.html"), "--content", "article", "-o", str(tmp_path / "ds"), *shares]) == 2
    assert why in capsys.readouterr().err and not (tmp_path / "ds").exists()


def test_label_output_that_is_a_file_is_an_output_error_before_any_page_is_read(capsys, tmp_path: Path,
                                                                                synthetic_page, monkeypatch):
    import blockclf.labelling

    (tmp_path / "p.html").write_text(synthetic_page(8, 0).html, encoding="utf-8")
    (tmp_path / "ds").write_text("notes", encoding="utf-8")
    monkeypatch.setattr(blockclf.labelling, "label_site", lambda *a, **k: pytest.fail("pages read"))
    code, out, err = run(capsys, "label", str(tmp_path / "p.html"), "--content", "article", "-o", str(tmp_path / "ds"))
    assert code == 3 and out == ""
    assert err.count("\n") == 1 and err.startswith(f"blockclf: error: cannot write to {tmp_path / 'ds'}")
    assert (tmp_path / "ds").read_text(encoding="utf-8") == "notes"
