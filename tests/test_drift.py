"""Checks on blockclf's own output: page verdicts, over-removal warnings, per-site drift."""

from __future__ import annotations

import json

import numpy as np
import pytest
from test_site import site_page

from blockclf.block import Block
from blockclf.checks import PageChecks, page_checks, site_checks
from blockclf.cli import main
from blockclf.drift import (
    DRIFT_MIN_PAGES,
    drift,
    page_record,
    read_stats,
    site_drift,
    site_stats,
)
from blockclf.predict import Result, extract_batch, prepare


def _result(html: str, kept: list[bool] | None = None) -> Result:
    page = prepare(html.encode())
    n = len(page.blocks)
    k = np.array(kept if kept is not None else [True] * n, bool)
    checks = page_checks(page.blocks, k, page.doc.title, None)
    return Result(blocks=page.blocks, scores=k.astype(float), kept=k, threshold=0.5, favor=None,
                  title=page.doc.title, name="p", warnings=list(checks.warnings), verdict=checks.verdict,
                  stats=checks.stats)


ARTICLE = "<p>" + "The river cut a new channel through the soft plain after the flood. " * 40 + "</p>"


def test_page_verdicts_and_warnings():
    doc = _result(f"<title>River cut channel plain</title>{ARTICLE}")
    assert doc.verdict == "document" and doc.warnings == []
    assert doc.stats["kept_ratio"] == 1.0 and doc.stats["n_kept"] == 1
    assert _result("<p>Hi there</p>").verdict == "too-little-text"
    links = "".join(f'<li><a href="/{i}">Link number {i} to another page of the site</a></li>' for i in range(60))
    index = _result(f"<ul>{links}</ul>", kept=[False] * 60)
    assert index.verdict == "index" and "too-short" in index.warnings
    over = _result(f"<title>Glaciers retreat quickly uphill</title>{ARTICLE}<p>tiny</p>", kept=[False, True])
    assert {"low-kept-ratio", "too-short", "title-missing"} <= set(over.warnings)


def _site_stats(pages: range, template: int) -> dict:
    prepared = [prepare(site_page(n, template=template).encode(), name=f"story{n}") for n in pages]
    return site_stats(page_record(r) for r in extract_batch(prepared))


def test_template_change_trips_drift_alarm():
    before = _site_stats(range(8), template=1)
    same = _site_stats(range(8, 16), template=1)
    redesign = _site_stats(range(8, 16), template=2)
    assert list(read_stats(before)) == ["example-news.com"]
    quiet = drift(before, same)
    assert len(quiet) == 1 and not quiet[0].alarm
    (report,) = drift(before, redesign)
    assert report.alarm and report.n_old == report.n_new == 8
    shifted = {m.metric for m in report.metrics if m.alarm}
    assert shifted & {"removed_chars", "removed_blocks"}
    assert len(report.moved) == 5 and report.moved[0]["old_is_site_median"]  # no page in both runs
    # the same pages re-extracted after the redesign: ranked by their own change
    again = drift(_site_stats(range(8, 16), template=1), redesign)[0]
    assert again.alarm and not again.moved[0]["old_is_site_median"]
    assert again.to_dict()["alarm"] is True


def test_too_few_pages_are_not_tested():
    old = [{"name": str(i), "kept_ratio": 0.5, "kept_chars": 1000} for i in range(DRIFT_MIN_PAGES - 1)]
    new = [{"name": str(i), "kept_ratio": 0.1, "kept_chars": 100} for i in range(10)]
    rep = site_drift("s", old, new)
    assert not rep.alarm and all(np.isnan(m.p_value) for m in rep.metrics)
    assert rep.moved[0]["new"] == pytest.approx(0.1)


def test_stats_file_is_checked():
    with pytest.raises(ValueError, match="not a blockclf stats file"):
        read_stats({"format": "blockclf-site"})
    with pytest.raises(ValueError, match="version"):
        read_stats({"format": "blockclf-stats", "version": 7, "sites": {}})


def test_site_stats_and_drift_commands(tmp_path, capsys):
    for name, pages, template in (("old", range(8), 1), ("new", range(8, 16), 2)):
        d = tmp_path / name
        d.mkdir()
        for n in pages:
            (d / f"story{n}.html").write_text(site_page(n, template=template))
    # stats from HTML pages, and from the JSON outputs of a previous extraction
    assert main(["site", "stats", str(tmp_path / "old"), "-o", str(tmp_path / "old.json")]) == 0
    assert main(["extract", str(tmp_path / "new"), "-o", str(tmp_path / "out"), "--format", "json"]) == 0
    assert main(["site", "stats", str(tmp_path / "out"), "-o", str(tmp_path / "new.json")]) == 0
    assert "8 pages of 1 sites" in capsys.readouterr().out
    assert main(["site", "drift", str(tmp_path / "old.json"), str(tmp_path / "old.json"), "--check"]) == 0
    assert "example-news.com: ok" in capsys.readouterr().out
    assert main(["site", "drift", str(tmp_path / "old.json"), str(tmp_path / "new.json"), "--check"]) == 1
    out = capsys.readouterr().out
    assert "ALARM" in out and "pages that moved most" in out and "story" in out
    assert main(["site", "drift", str(tmp_path / "old.json"), str(tmp_path / "new.json"), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)[0]["alarm"] is True
    assert main(["site", "drift", str(tmp_path / "old.json"), str(tmp_path / "missing.json")]) == 2
    capsys.readouterr()
    # a run series: each run against the one before; only the redesign step alarms
    series = [str(tmp_path / f) for f in ("old.json", "old.json", "new.json", "new.json")]
    assert main(["site", "drift", *series, "--json"]) == 0
    steps = json.loads(capsys.readouterr().out)
    assert [step["sites"][0]["alarm"] for step in steps] == [False, True, False]


def test_drift_json_of_a_site_too_small_to_test_is_strict_json(tmp_path, capsys):
    # under DRIFT_MIN_PAGES pages a run no test is made: its statistics are null, not NaN
    for name, pages in (("old", range(2)), ("new", range(2, 4))):
        d = tmp_path / name
        d.mkdir()
        for n in pages:
            (d / f"story{n}.html").write_text(site_page(n))
        assert main(["site", "stats", str(d), "-o", str(tmp_path / f"{name}.json")]) == 0
    capsys.readouterr()
    assert main(["site", "drift", str(tmp_path / "old.json"), str(tmp_path / "new.json"), "--json"]) == 0

    def refuse(name: str) -> None:
        raise ValueError(f"{name} is not JSON")

    sites = json.loads(capsys.readouterr().out, parse_constant=refuse)
    metrics = sites[0]["metrics"]
    assert metrics and all(m["ks"] is None and m["p_value"] is None and m["alarm"] is False for m in metrics)


def test_page_keeping_far_less_than_its_site_usually_does_is_flagged():
    def result(kept_share: float) -> tuple[str, PageChecks]:
        blocks = [Block(index=i, text="word " * 60, tag="p", xpath=f"/html/body/p[{i + 1}]", depth=2) for i in range(10)]
        kept = np.arange(10) < round(kept_share * 10)
        return "example.org", page_checks(blocks, kept, "", None)

    *usual, odd = site_checks([result(0.6) for _ in range(6)] + [result(0.1)])
    assert "below-site-kept-ratio" in odd.warnings
    assert odd.stats["site_median_kept_ratio"] == 0.6
    assert all("below-site-kept-ratio" not in r.warnings for r in usual)
    # too few pages of the site: no median, no flag
    few = site_checks([result(0.6), result(0.1)])
    assert "site_median_kept_ratio" not in few[1].stats and "below-site-kept-ratio" not in few[1].warnings


def test_site_stats_reads_the_json_lines_extract_wrote(tmp_path, capsys):
    pages = tmp_path / "pages"
    pages.mkdir()
    for n in range(6):
        (pages / f"story{n}.html").write_text(site_page(n))
    assert main(["site", "stats", str(pages), "-o", str(tmp_path / "from-pages.json")]) == 0
    capsys.readouterr()
    # several pages written to standard output are JSON lines, as a WARC's or a JSONL file's pages are
    assert main(["extract", str(pages), "--format", "json"]) == 0
    run = tmp_path / "out" / "run.jsonl"
    run.parent.mkdir()
    run.write_text(capsys.readouterr().out, encoding="utf-8")
    for given in (run, run.parent):
        assert main(["site", "stats", str(given), "-o", str(tmp_path / "from-lines.json")]) == 0
        assert "6 pages of 1 sites" in capsys.readouterr().out
        lines = json.loads((tmp_path / "from-lines.json").read_text())["sites"]
        assert lines == json.loads((tmp_path / "from-pages.json").read_text())["sites"]
    # a line cut short is named and counted; the others are read
    run.write_text(run.read_text(encoding="utf-8") + '{"name": "cut', encoding="utf-8")
    assert main(["site", "stats", str(run), "-o", str(tmp_path / "cut.json")]) == 1
    captured = capsys.readouterr()
    assert "6 pages of 1 sites" in captured.out and "skipped 1 line of" in captured.err


def test_site_stats_names_json_lines_without_statistics(tmp_path, capsys):
    pages = tmp_path / "pages"
    pages.mkdir()
    for n in range(3):
        (pages / f"story{n}.html").write_text(site_page(n))
    assert main(["extract", str(pages)]) == 0  # text: each line holds the page's text, not its statistics
    text = tmp_path / "text.jsonl"
    text.write_text(capsys.readouterr().out, encoding="utf-8")
    assert main(["site", "stats", str(text), str(pages), "-o", str(tmp_path / "s.json")]) == 1
    captured = capsys.readouterr()
    assert "3 pages of 1 sites" in captured.out and "written without --format json" in captured.err


def test_site_stats_reads_a_json_lines_file_of_pages_as_pages(tmp_path, capsys):
    rows = [{"id": f"p{n}", "url": f"https://example-news.com/story{n}", "html": site_page(n)} for n in range(4)]
    (tmp_path / "pages.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    assert main(["site", "stats", str(tmp_path / "pages.jsonl"), "-o", str(tmp_path / "s.json")]) == 0
    assert "4 pages of 1 sites" in capsys.readouterr().out


def _stats_body(n_pages: int = 6) -> dict:
    """A stats file's content: one site of ``n_pages`` pages, as ``site stats`` writes it."""
    return site_stats({"name": f"p{n}", "site": "example.org", "kept_chars": 900 + n, "page_chars": 1500,
                       "kept_ratio": 0.6, "n_blocks": 30, "n_kept": 12} for n in range(n_pages))


@pytest.mark.parametrize(("damage", "what"), [
    (lambda d: d.update(sites=[1, 2]), "'sites' is not an object"),
    (lambda d: d["sites"].update({"example.org": "many"}), "its pages are not a list"),
    (lambda d: d["sites"]["example.org"].__setitem__(0, None), "page 1: a page record is an object, not null"),
    (lambda d: d["sites"]["example.org"][2].update(kept_ratio="lots"), 'page 3: its kept_ratio is "lots", not a'),
    (lambda d: d["sites"]["example.org"][0].update(n_kept=None), "its n_kept is null, not a number"),
    (lambda d: d["sites"]["example.org"][0].update(kept_chars=True), "its kept_chars is true, not a number"),
    (lambda d: d["sites"]["example.org"][0].update(page_chars=float("nan")), "its page_chars is NaN"),
    (lambda d: d["sites"]["example.org"][0].update(name=["a"]), 'its name is ["a"], not text'),
])
def test_a_damaged_stats_file_is_refused_naming_what_is_wrong(damage, what):
    data = _stats_body()
    damage(data)
    with pytest.raises(ValueError, match=what.replace("[", r"\[").replace("(", r"\(")):
        read_stats(data)


def test_site_drift_names_the_stats_file_it_cannot_use(tmp_path, capsys):
    good = tmp_path / "good.json"
    good.write_text(json.dumps(_stats_body()), encoding="utf-8")
    damaged = _stats_body()
    damaged["sites"]["example.org"][0]["kept_ratio"] = "lots"
    files = {"lots.json": json.dumps(damaged).encode(), "list.json": b'{"format": "blockclf-stats", "version": 1, '
             b'"sites": []}', "bytes.json": bytes(range(128, 256)) * 4}
    for name, content in files.items():
        (tmp_path / name).write_bytes(content)
        assert main(["site", "drift", str(good), str(tmp_path / name)]) == 2
        captured = capsys.readouterr()
        assert captured.out == ""
        assert captured.err.count("\n") == 1 and f"{tmp_path / name}: not a" in captured.err
        assert "unexpected" not in captured.err


def test_a_run_holding_none_of_a_sites_pages_alarms(tmp_path, capsys):
    old, new = tmp_path / "old.json", tmp_path / "new.json"
    old.write_text(json.dumps(_stats_body()), encoding="utf-8")
    empty = _stats_body()
    empty["sites"]["example.org"] = []
    new.write_text(json.dumps(empty), encoding="utf-8")
    assert main(["site", "drift", str(old), str(new), "--check"]) == 1
    out = capsys.readouterr().out
    assert f"example.org: ALARM (no pages in {new}" in out and "6 -> 0 pages" in out and ": ok" not in out
    assert main(["site", "drift", str(new), str(old), "--json"]) == 0
    (site,) = json.loads(capsys.readouterr().out)
    assert site["alarm"] is True and site["no_pages"] is True and site["n_old"] == 0
    assert main(["site", "drift", str(old), str(old), "--check"]) == 0


def test_site_stats_skips_an_output_whose_statistics_are_not_numbers(tmp_path, capsys):
    outputs = tmp_path / "out"
    outputs.mkdir()
    good = {"name": "b", "site": "example.org", "verdict": "document",
            "stats": {"kept_chars": 5, "page_chars": 10, "kept_ratio": 0.5, "n_blocks": 2, "n_kept": 1}}
    (outputs / "b.json").write_text(json.dumps(good), encoding="utf-8")
    (outputs / "a.json").write_text(json.dumps({**good, "name": "a", "stats": {"kept_chars": "lots"}}),
                                    encoding="utf-8")
    lines = [{**good, "name": "c", "stats": {"kept_ratio": None}}, {**good, "name": "d"}]
    (outputs / "run.jsonl").write_text("".join(json.dumps(r) + "\n" for r in lines), encoding="utf-8")
    stats = tmp_path / "stats.json"
    assert main(["site", "stats", str(outputs), "-o", str(stats)]) == 1
    captured = capsys.readouterr()
    assert "2 pages of 1 sites" in captured.out
    assert f"skipped {outputs / 'a.json'}: not a blockclf JSON output (its kept_chars is \"lots\"" in captured.err
    assert f"skipped 1 line of {outputs / 'run.jsonl'}" in captured.err
    assert [r["name"] for r in read_stats(json.loads(stats.read_text()))["example.org"]] == ["b", "d"]
