"""Streaming batches: the same results as one `extract_batch` call, in input order, failures skipped."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest

from blockclf import carry
from blockclf.batch import BatchOptions, Item, SiteReport, run_batch
from blockclf.cli import main
from blockclf.html import Limits
from blockclf.predict import extract_batch, prepare


def _items(make_page, sites=(8, 9, 10), per_site=3) -> list[Item]:
    return [Item(f"s{s}p{p}", make_page(s, p).html.encode("utf-8")) for p in range(per_site) for s in sites]


def _same(outcomes, reference) -> None:
    assert [o.name for o in outcomes] == [r.name for r in reference]
    for o, r in zip(outcomes, reference):
        assert np.array_equal(o.result.scores, r.scores)
        assert o.result.text == r.text and o.result.title == r.title


@pytest.mark.parametrize("chunk_size,cache_bytes", [(2, 0), (4, 1 << 20), (100, 1 << 20), (2, 6000)])
def test_streaming_equals_one_batch(synthetic_page, tiny_model, chunk_size, cache_bytes):
    items = _items(synthetic_page)
    reference = extract_batch([prepare(it.source, name=it.name) for it in items], model=tiny_model)
    assert any(not np.isnan(r.scores).all() for r in reference)
    opts = BatchOptions(model=tiny_model, chunk_size=chunk_size, cache_bytes=cache_bytes)
    _same(list(run_batch(items, opts)), reference)


@pytest.mark.parametrize("cache_bytes,reads", [(1 << 20, 9), (0, 18)])
def test_pages_kept_from_pass_one_are_parsed_once(synthetic_page, tiny_model, monkeypatch, cache_bytes, reads):
    import blockclf.batch as batch

    calls = []
    real = batch.prepare
    monkeypatch.setattr(batch, "prepare", lambda *a, **k: calls.append(1) or real(*a, **k))
    out = list(run_batch(_items(synthetic_page), BatchOptions(model=tiny_model, chunk_size=4, cache_bytes=cache_bytes)))
    assert len(out) == 9 and all(o.error is None for o in out)
    assert len(calls) == reads


def _mixed(make_page) -> list[Item]:
    """Pages of two sites with canonical links, and pages with no site at all between them."""
    items = _items(make_page, sites=(8, 9), per_site=2)
    for p in range(3):
        html = re.sub(r'<link rel="canonical"[^>]*>', "", make_page(10, p).html)
        items.insert(2 * p, Item(f"nosite{p}", html.encode("utf-8")))
    return items


@pytest.mark.parametrize("jobs,cache_bytes", [(1, 1 << 20), (2, 1 << 20), (1, 3000), (1, 0)])
def test_pages_with_no_site_are_scored_in_pass_one_with_the_same_output(synthetic_page, tiny_model_file,
                                                                        monkeypatch, jobs, cache_bytes):
    """A page that can get no site evidence is scored as soon as it is read (not packed for
    pass 2), in its place in the output, exactly as a batch scores it; past the cache budget
    it is read again in pass 2 like a packed page."""
    import blockclf.batch as batch

    items = _mixed(synthetic_page)
    reference = extract_batch([prepare(it.source, name=it.name) for it in items], model=str(tiny_model_file))
    assert [r.site is None for r in reference] == [it.name.startswith("nosite") for it in items]
    kept = []
    real = batch.pack
    monkeypatch.setattr(batch, "pack", lambda page: kept.append(page.name) or real(page))
    opts = BatchOptions(model=str(tiny_model_file), chunk_size=2, cache_bytes=cache_bytes,
                        transform=lambda res: (res.text, [float(s) for s in res.scores]))
    out = list(run_batch(items, opts, jobs=jobs))
    assert [o.name for o in out] == [it.name for it in items]
    for o, r in zip(out, reference):
        assert o.error is None
        assert o.result == (r.text, [float(s) for s in r.scores])
    assert not any(name.startswith("nosite") for name in kept)  # seen in this process only (jobs 1)
    if jobs == 1 and cache_bytes == 1 << 20:
        reads = batch.page_keys(items, opts, keep=True)
        assert [r.outcome is not None for r in reads] == [it.name.startswith("nosite") for it in items]
        assert all(r.keys is not None and r.packed is not None for r in reads if r.site is not None)


def test_encoded_outputs_kept_from_pass_one_are_held_compressed_and_given_back_whole(synthetic_page, tiny_model_file):
    """An encoded output waiting in the command for its turn takes a fraction of its bytes
    against the cache budget, and comes out byte for byte as the transform made it."""
    import blockclf.batch as batch

    items = _mixed(synthetic_page)

    def transform(res):  # like the command line's writers: encoded text, and a list beside it
        return (res.text.encode() * (1 + carry.SQUEEZE_BYTES // max(len(res.text), 1)), [res.verdict])

    reference = [transform(r) for r in extract_batch([prepare(it.source, name=it.name) for it in items],
                                                     model=str(tiny_model_file))]
    opts = BatchOptions(model=str(tiny_model_file), chunk_size=2, cache_bytes=1 << 20, transform=transform)
    reads = batch.page_keys(items, opts, keep=True)
    held = [r for r in reads if r.outcome is not None]
    assert held and all(r.size < len(ref[0]) / 2 for r, ref in zip(reads, reference) if r.outcome is not None)
    for jobs in (1, 2):
        assert [o.result for o in run_batch(items, opts, jobs=jobs)] == reference



@pytest.mark.parametrize("jobs", [1, 2])
def test_unordered_outcomes_give_pages_scored_in_pass_one_before_pass_two_begins(synthetic_page, tiny_model_file,
                                                                                 monkeypatch, jobs):
    """Not ``ordered``: a page with no site comes out as soon as pass 1 scored it, before any
    page waiting for pass 2, so nothing of it is held meanwhile, and so does a page that
    cannot be read; every page still comes out once, with the same output, and the order
    does not depend on the workers."""
    import blockclf.batch as batch

    items = _mixed(synthetic_page)
    items.insert(4, Item("nosite-broken", b""))
    opts = BatchOptions(model=str(tiny_model_file), chunk_size=2, cache_bytes=1 << 20,
                        transform=lambda res: (res.text, [float(s) for s in res.scores]))
    reference = {o.name: o.result for o in run_batch(items, opts, jobs=jobs)}
    seen: list[str] = []
    real = batch._scored

    def scored(*args, **kwargs):  # pass 2 begins
        seen.append("pass 2")
        yield from real(*args, **kwargs)

    monkeypatch.setattr(batch, "_scored", scored)
    squeezed: list[object] = []  # an outcome given at once is not compressed to wait (seen in this process: jobs 1)
    real_squeeze = batch.squeezed
    monkeypatch.setattr(batch, "squeezed", lambda value: squeezed.append(value) or real_squeeze(value))
    out = []
    for o in run_batch(items, opts, jobs=jobs, ordered=False):
        out.append(o)
        seen.append(o.name)
    nosite = [it.name for it in items if it.name.startswith("nosite")]
    others = [it.name for it in items if not it.name.startswith("nosite")]
    assert seen == [*nosite, "pass 2", *others]
    assert [o.name for o in out if o.error is not None] == ["nosite-broken"]
    assert {o.name: o.result for o in out} == reference
    assert not squeezed
def test_pages_are_scored_in_the_process_that_read_them(synthetic_page, tiny_model_file, monkeypatch, tmp_path):
    """Pass 1 leaves each page in the process that read it and pass 2 scores it there: every
    page is parsed once and none is packed, and the results are those of one batch."""
    import blockclf.batch as batch

    calls = []
    real_prepare, real_pack = batch.prepare, batch.pack
    monkeypatch.setattr(batch, "prepare", lambda *a, **k: calls.append(("prepare", k["name"])) or real_prepare(*a, **k))
    monkeypatch.setattr(batch, "pack", lambda page: calls.append(("pack", page.name)) or real_pack(page))
    items = _items(synthetic_page)
    reference = extract_batch([real_prepare(it.source, name=it.name) for it in items], model=str(tiny_model_file))
    out = list(run_batch(items, BatchOptions(model=str(tiny_model_file), chunk_size=2)))
    _same(out, reference)
    assert sorted(calls) == sorted(("prepare", it.name) for it in items)
    assert not carry._HELD and not carry._HELD_BYTES  # let go of once the batch is done


def _pass_one(reading):
    """What pass 1 read, once it has given its outcomes (none here: they come in order)."""
    try:
        while True:
            raise AssertionError(f"an outcome given in pass 1: {next(reading)}")
    except StopIteration as done:
        return done.value


def test_workers_hold_the_pages_they_read_and_score_them(synthetic_page, tiny_model_file):
    import blockclf.batch as batch

    items = _items(synthetic_page)
    opts = BatchOptions(model=str(tiny_model_file), chunk_size=2)
    workers = batch.Workers(2, lost=batch._lost, alone_args=batch._alone_args)
    try:
        reads = _pass_one(batch._read_sites(items, opts, workers, False, len(items), "b"))
        assert all(r.held and r.packed is None for r in reads) and {r.slot for r in reads} <= {0, 1}
        evidence = batch._evidence(reads, opts, None)
        out = list(batch._scored(items, opts, evidence, reads, workers, False, len(items), "b"))
    finally:
        workers.close()
    reference = extract_batch([prepare(it.source, name=it.name) for it in items], model=str(tiny_model_file))
    _same(out, reference)


def test_workers_let_go_early_leave_no_pool_thread_for_the_interpreters_exit():
    """A batch stopped early (Ctrl-C, a reader that stopped: `| head`) lets its workers finish
    the tasks they hold and returns when they have: a pool's thread still running at exit
    races with the interpreter's exit hook on the pool's wake-up pipe and prints a traceback
    after the command had ended quietly."""
    import threading
    import time

    import blockclf.batch as batch

    workers = batch.Workers(2, lost=batch._lost, alone_args=batch._alone_args)
    outcomes = workers.map(time.sleep, [(None, (0.3,)) for _ in range(8)])
    next(outcomes)  # one task done, the next ones under way
    workers.close(abort=True)
    outcomes.close()
    assert not [t for t in threading.enumerate() if type(t).__name__ == "_ExecutorManagerThread" and t.is_alive()]


def _ran_with_others(i: int, folder: str) -> int:
    """Task ``i`` of a batch: each leaves a mark in ``folder``; task 0 runs until four other
    tasks have left theirs (or 20 seconds pass), and gives how many had."""
    import time

    marks = Path(folder)
    (marks / str(i)).touch()
    if i:
        return 0
    deadline = time.monotonic() + 20
    while len(list(marks.iterdir())) < 5 and time.monotonic() < deadline:
        time.sleep(0.01)
    return len(list(marks.iterdir())) - 1


def test_a_worker_that_finishes_is_given_the_next_task_while_an_earlier_one_runs(tmp_path):
    """A slow task holds back only itself and the task queued behind it: the other worker
    goes on with the tasks after them (they were sent only as results were given, in order,
    and the second worker waited idle for the first one's slow task)."""
    import blockclf.batch as batch

    workers = batch.Workers(2, lost=batch._lost, alone_args=batch._alone_args)
    try:
        out = list(workers.map(_ran_with_others, [(None, (i, str(tmp_path))) for i in range(8)]))
    finally:
        workers.close()
    assert [r for _slot, r in out][1:] == [0] * 7  # in order
    assert out[0][1] >= 4  # four others ran while task 0 did
    assert len(list(tmp_path.iterdir())) == 8


@pytest.mark.parametrize("cache_bytes,bound", [(0, False), (1 << 30, True)])
def test_a_chunk_of_pages_that_come_back_packed_goes_to_whichever_worker_is_free(
        synthetic_page, tiny_model_file, monkeypatch, cache_bytes, bound):
    """Pass 2 sends a chunk to the worker that read it only when that worker holds its pages:
    packed pages can be scored anywhere, and bound to their reader they left the other
    worker idle at the end of a large folder."""
    import blockclf.batch as batch

    slots = []
    real = batch.Workers.map

    def watched(self, fn, tasks):
        def seen():
            for slot, args in tasks:
                if fn is batch.score_chunk:
                    slots.append(slot)
                yield slot, args
        return real(self, fn, seen())

    monkeypatch.setattr(batch.Workers, "map", watched)
    items = _items(synthetic_page)
    opts = BatchOptions(model=str(tiny_model_file), chunk_size=2, cache_bytes=cache_bytes)
    out = list(run_batch(items, opts, jobs=2))
    _same(out, extract_batch([prepare(it.source, name=it.name) for it in items], model=str(tiny_model_file)))
    assert slots and all((s in (0, 1)) if bound else s is None for s in slots)


def test_a_page_past_the_held_budget_comes_back_packed(synthetic_page, tiny_model):
    import blockclf.batch as batch

    items = _items(synthetic_page)
    opts = BatchOptions(model=tiny_model)
    reads = batch.page_keys(items, opts, keep=True, hold=("test", 0, 1))  # one byte: nothing fits
    assert all(not r.held and r.packed for r in reads)
    try:
        reads = batch.page_keys(items, opts, keep=True, hold=("test", 0, 1 << 30))
        assert all(r.held and r.packed is None for r in reads)
        assert len(carry._HELD) == len(items)
    finally:
        batch.release("test")
    assert not carry._HELD


def test_an_output_of_unknown_size_waits_for_pass_two_packed(synthetic_page, tiny_model):
    import blockclf.batch as batch

    items = _mixed(synthetic_page)
    opts = BatchOptions(model=tiny_model, transform=lambda res: res)  # a Result: its size is not known
    reads = batch.page_keys(items, opts, keep=True)
    assert all(r.outcome is None and r.packed is not None for r in reads)
    reference = extract_batch([prepare(it.source, name=it.name) for it in items], model=tiny_model)
    _same(list(run_batch(items, opts)), reference)


def test_large_pages_are_scored_a_few_at_a_time_with_the_same_results(synthetic_page, tiny_model, monkeypatch):
    import blockclf.predict as predict
    from blockclf.model import Model

    items = _items(synthetic_page)
    reference = extract_batch([prepare(it.source, name=it.name) for it in items], model=tiny_model)
    calls = []
    real = Model.score
    monkeypatch.setattr(Model, "score", lambda self, X, *a, **k: calls.append(len(X)) or real(self, X, *a, **k))
    monkeypatch.setattr(predict, "SCORE_BLOCKS", len(reference[0].blocks) + 1)  # one page per call
    _same(list(run_batch(items, BatchOptions(model=tiny_model, chunk_size=4))), reference)
    assert calls and max(calls) <= max(len(r.blocks) for r in reference)


def test_a_sites_pages_in_one_chunk_are_checked_together_however_they_are_scored(synthetic_page, tiny_model,
                                                                                 monkeypatch):
    """What a site's pages say of each other (the median kept ratio, `checks.site_checks`)
    is taken over the pages scored together: a chunk, never where a LightGBM call ends."""
    import blockclf.batch as batch
    import blockclf.predict as predict
    from blockclf.checks import SITE_MIN_PAGES

    items = _items(synthetic_page, sites=(8,), per_site=SITE_MIN_PAGES)
    monkeypatch.setattr(batch, "BATCH_CHUNKS", 1)  # the batch is one chunk
    opts = BatchOptions(model=tiny_model)
    whole = list(run_batch(items, opts))
    assert all("site_median_kept_ratio" in o.result.stats for o in whole)
    monkeypatch.setattr(predict, "SCORE_BLOCKS", 1)  # one page a LightGBM call
    apart = list(run_batch(items, opts))
    assert [o.result.stats for o in apart] == [o.result.stats for o in whole]
    assert [o.result.warnings for o in apart] == [o.result.warnings for o in whole]


def test_without_site_evidence_each_page_stands_alone(synthetic_page, tiny_model):
    items = _items(synthetic_page, sites=(8,))
    alone = [extract_batch([prepare(it.source, name=it.name)], model=tiny_model, use_site=False)[0] for it in items]
    _same(list(run_batch(items, BatchOptions(model=tiny_model, use_site=False, chunk_size=2))), alone)


def test_failures_are_skipped_in_place(synthetic_page, tiny_model):
    good = _items(synthetic_page, sites=(8,))
    items = [good[0], Item("empty", b"   "), good[1], Item("png", b"\x89PNG\r\n\x1a\n...."), good[2]]
    out = list(run_batch(items, BatchOptions(model=tiny_model, chunk_size=2)))
    assert [o.name for o in out] == [it.name for it in items]
    assert [o.error.reason if o.error else None for o in out] == [None, "empty", None, "binary", None]
    reference = extract_batch([prepare(it.source, name=it.name) for it in good], model=tiny_model)
    _same([o for o in out if o.error is None], reference)


def test_time_budget_skips_a_slow_page(synthetic_page, tiny_model):
    items = _items(synthetic_page, sites=(8,), per_site=1)
    out = list(run_batch(items, BatchOptions(model=tiny_model, limits=Limits(max_seconds=1e-6))))
    assert out[0].error is not None and out[0].error.reason == "timeout"


def test_transform_runs_on_each_result_and_its_failure_is_a_skip(synthetic_page, tiny_model):
    items = _items(synthetic_page, sites=(8,), per_site=2)
    out = list(run_batch(items, BatchOptions(model=tiny_model, transform=lambda res: len(res.blocks))))
    assert all(isinstance(o.result, int) for o in out)

    def broken(res):
        raise RuntimeError("disk full")

    out = list(run_batch(items, BatchOptions(model=tiny_model, transform=broken)))
    assert all(o.error is not None and "disk full" in str(o.error) for o in out)


def test_generator_source_is_read_once_per_pass(synthetic_page, tiny_model):
    items = _items(synthetic_page, sites=(8,))
    reads = []

    def source():
        reads.append(1)
        return iter(items)

    out = list(run_batch(source, BatchOptions(model=tiny_model, cache_bytes=0)))
    assert len(reads) == 2 and [o.name for o in out] == [it.name for it in items]


def test_cli_jobs_give_the_same_files(tmp_path, synthetic_page, tiny_model_file, capsys):
    pages = tmp_path / "in"
    for s in (8, 9):
        for p in range(3):
            (pages / f"site{s}").mkdir(parents=True, exist_ok=True)
            (pages / f"site{s}" / f"{p}.html").write_text(synthetic_page(s, p).html, encoding="utf-8")
    (pages / "bad.html").write_bytes(b"")
    (pages / "blank.html").write_text("<html><body><div> </div></body></html>", encoding="utf-8")  # no blocks
    outs = {}
    for jobs in (1, 2):
        out = tmp_path / f"out{jobs}"
        code = main(["extract", str(pages), "-o", str(out), "--model", str(tiny_model_file), "--jobs", str(jobs),
                     "--format", "json"])
        assert code == 1  # the empty page is skipped and named
        err = capsys.readouterr().err
        assert "skipped" in err and "bad.html" in err and "7 processed, 1 skipped" in err
        assert "extracting" not in err  # no progress bar when stderr is not a terminal
        outs[jobs] = {p.relative_to(out): p.read_text(encoding="utf-8") for p in sorted(out.rglob("*.json"))}
    assert len(outs[1]) == 7 and outs[1] == outs[2]


def test_progress_bar_when_asked(synthetic_page, tiny_model, capsys):
    pytest.importorskip("tqdm", reason="the progress bar needs the 'progress' extra (tqdm)")
    items = _items(synthetic_page, sites=(8,), per_site=2)
    out = list(run_batch(items, BatchOptions(model=tiny_model), progress=True))
    assert len(out) == 2
    err = capsys.readouterr().err
    assert "reading sites" in err and "extracting" in err


def test_cli_says_how_many_pages_got_no_site_evidence(tmp_path, synthetic_page, tiny_model_file, capsys):
    pages = tmp_path / "in"
    (pages / "www.site8.org").mkdir(parents=True)
    (pages / "www.site9.org").mkdir()
    (pages / "loose").mkdir()
    for p in range(3):  # synthetic pages name no URL: the host folder gives their site
        html = synthetic_page(8, p).html.replace('<link rel="canonical"', '<link rel="x"')
        (pages / "www.site8.org" / f"{p}.html").write_text(html, encoding="utf-8")
        (pages / "loose" / f"{p}.html").write_text(html, encoding="utf-8")
    for p in range(2):  # two pages of a site: one other page is no repetition to count
        html = synthetic_page(9, p).html.replace('<link rel="canonical"', '<link rel="x"')
        (pages / "www.site9.org" / f"{p}.html").write_text(html, encoding="utf-8")
    assert main(["extract", str(pages), "-o", str(tmp_path / "out"), "--model", str(tiny_model_file)]) == 0
    err = capsys.readouterr().err
    assert ("5 of 8 pages got no site evidence: 3 name no URL or site (give --site, or keep pages in "
            "host-named folders); 2 have fewer than 2 other pages of their site in the batch") in err


def test_cli_writes_pages_with_no_site_before_the_others_are_scored(tmp_path, synthetic_page, tiny_model_file,
                                                                    monkeypatch, capsys):
    """A folder's page that can get no site evidence is written, with its removal-log lines,
    as soon as it is scored: the command holds none of those outputs until pass 2 reaches
    them, and a run stopped in pass 2 has them on disk."""
    import blockclf.batch as batch

    pages = tmp_path / "in"
    (pages / "www.site8.org").mkdir(parents=True)
    for p in range(3):
        html = synthetic_page(8, p).html.replace('<link rel="canonical"', '<link rel="x"')
        (pages / "www.site8.org" / f"{p}.html").write_text(html, encoding="utf-8")
        (pages / f"loose{p}.html").write_text(html, encoding="utf-8")  # no URL, no host folder: no site
    out, log = tmp_path / "out", tmp_path / "removed.jsonl"
    at_pass_two: list[list[str]] = []
    real = batch._scored

    def scored(*args, **kwargs):
        at_pass_two.append(sorted(str(p.relative_to(out)) for p in out.rglob("*.txt")))
        yield from real(*args, **kwargs)

    monkeypatch.setattr(batch, "_scored", scored)
    assert main(["extract", str(pages), "-o", str(out), "--model", str(tiny_model_file), "--jobs", "1",
                 "--removed-log", str(log)]) == 0
    assert at_pass_two == [["loose0.txt", "loose1.txt", "loose2.txt"]]
    assert "6 processed, 0 skipped" in capsys.readouterr().err
    assert len(list(out.rglob("*.txt"))) == 6
    logged = [json.loads(line)["page"] for line in log.read_text(encoding="utf-8").splitlines()]
    assert {Path(p).name for p in logged} == {"loose0.html", "loose1.html", "loose2.html", "0.html", "1.html",
                                              "2.html"}


def test_time_budget_covers_scoring_and_survives_packing(synthetic_page, tiny_model, monkeypatch):
    import blockclf.predict as predict

    items = _items(synthetic_page, sites=(8,), per_site=3)
    opts = BatchOptions(model=tiny_model, limits=Limits(max_seconds=5))
    assert all(o.error is None for o in run_batch(items, opts))  # a budget a page fits in
    monkeypatch.setattr(predict, "SCORING_SECONDS_PER_BLOCK", 10.0)  # scoring would outrun any budget
    out = list(run_batch(items, opts))
    assert [o.error.reason if o.error else None for o in out] == ["timeout"] * 3


def _die_in_worker(res, name: str, parent: int):
    """A transform that kills the worker process scoring page ``name`` (never the test's own)."""
    import os
    import signal

    if res.name == name and os.getpid() != parent:
        os.kill(os.getpid(), signal.SIGKILL)
    return res.text


def test_a_killed_worker_costs_only_its_page(synthetic_page, tiny_model_file):
    import os
    from functools import partial

    items = _items(synthetic_page, sites=(8, 9), per_site=3)
    opts = BatchOptions(model=str(tiny_model_file), chunk_size=2,
                        transform=partial(_die_in_worker, name="s9p1", parent=os.getpid()))
    out = list(run_batch(items, opts, jobs=2))
    assert [o.name for o in out] == [it.name for it in items]
    failed = {o.name: o.error.reason for o in out if o.error is not None}
    assert failed == {"s9p1": "worker-died"}
    assert all(isinstance(o.result, str) and o.result for o in out if o.error is None)


def test_a_batch_gets_as_many_workers_as_it_is_worth():
    from blockclf.workers import PAGES_PER_WORKER, plan_workers

    assert plan_workers(8, 1) == 1  # one page: no worker is started
    assert plan_workers(8, 2 * PAGES_PER_WORKER - 1) == 1
    assert plan_workers(8, 2 * PAGES_PER_WORKER) == 2
    assert plan_workers(2, 10_000) == 2  # never more than the cores given
    assert plan_workers(1, 10_000) == 1


@pytest.mark.parametrize("threaded", [False, True])
def test_workers_give_what_one_process_gives(synthetic_page, tiny_model_file, monkeypatch, threaded):
    """Workers forked from this process, or from a fork server once this process may have
    started OpenMP threads (which a forked child cannot use), score exactly as this process."""
    import blockclf.booster as booster

    monkeypatch.setattr(booster, "_THREADED", threaded)
    assert booster.fork_safe() is (not threaded and "lightgbm" not in __import__("sys").modules)
    items = _items(synthetic_page)
    opts = BatchOptions(model=str(tiny_model_file), chunk_size=2)
    one = list(run_batch(items, opts))
    two = list(run_batch(items, opts, jobs=2))
    assert [o.name for o in two] == [it.name for it in items]
    for a, b in zip(one, two):
        assert a.error is None and b.error is None
        assert a.result.text == b.result.text and np.array_equal(a.result.scores, b.result.scores)


def test_a_batch_left_unread_stops_its_workers(synthetic_page, tiny_model_file):
    import multiprocessing
    import time

    batch = run_batch(_items(synthetic_page), BatchOptions(model=str(tiny_model_file), chunk_size=1), jobs=2)
    first = next(batch)
    assert first.error is None and multiprocessing.active_children()
    batch.close()  # e.g. --fail-fast, or a closed pipe: the tasks not started are dropped
    deadline = time.monotonic() + 30
    while [p for p in multiprocessing.active_children() if p.is_alive()] and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not [p for p in multiprocessing.active_children() if p.is_alive()]


def test_cli_forks_workers_in_a_fresh_process(tmp_path, synthetic_page, tiny_model_file):
    """In a fresh command the workers are forked (no model has been scored yet): same files
    as one process, and no worker is left behind."""
    import subprocess
    import sys

    pages = tmp_path / "in"
    pages.mkdir()
    for s in (8, 9):
        for p in range(20):
            (pages / f"s{s}p{p}.html").write_text(synthetic_page(s, p).html, encoding="utf-8")
    outs = {}
    for jobs in ("1", "2"):
        out = tmp_path / f"out{jobs}"
        proc = subprocess.run([sys.executable, "-m", "blockclf", "extract", str(pages), "-o", str(out),
                               "--model", str(tiny_model_file), "--jobs", jobs], capture_output=True, text=True,
                              timeout=120)
        assert proc.returncode == 0, proc.stderr
        assert "40 processed, 0 skipped" in proc.stderr
        outs[jobs] = {p.name: p.read_text(encoding="utf-8") for p in sorted(out.iterdir())}
    assert len(outs["1"]) == 40 and outs["1"] == outs["2"]


def test_waiting_for_the_rest_of_a_batch_does_not_spend_a_pages_budget(synthetic_page, tiny_model):
    """Pages prepared one after the other and scored together (as `blockclf evaluate` does):
    the time a page waits for the others is not its own, so no page runs over its budget."""
    import time

    pages = [prepare(synthetic_page(8, p).html.encode(), name=str(p), limits=Limits(max_seconds=0.3))
             for p in range(3)]
    time.sleep(0.5)  # longer than the whole budget
    results = extract_batch(pages, model=tiny_model)
    assert [r.name for r in results] == ["0", "1", "2"] and all(r.text for r in results)


def test_a_pool_found_broken_when_a_task_is_sent_runs_that_task_again(synthetic_page, tiny_model_file, monkeypatch):
    """A worker can die between two results: the pool then refuses the next task outright.
    That task is run again like those the dead worker held, and no page is lost."""
    from concurrent.futures.process import BrokenProcessPool

    from blockclf.workers import Workers

    real = Workers._submit
    calls = []

    def submit(self, fn, args, pool=None, slot=0):
        calls.append(1)
        if pool is None and len(calls) == 3:
            raise BrokenProcessPool("a child process terminated abruptly")
        return real(self, fn, args, pool, slot)

    monkeypatch.setattr(Workers, "_submit", submit)
    items = _items(synthetic_page)
    out = list(run_batch(items, BatchOptions(model=str(tiny_model_file), chunk_size=2), jobs=2))
    assert [o.name for o in out] == [it.name for it in items]
    assert all(o.error is None for o in out)


def test_what_a_page_says_does_not_depend_on_the_number_of_workers(synthetic_page, tiny_model_file):
    """Pages are scored together in chunks cut the same way whatever the number of workers, so
    each page's statistics, its site's median kept ratio among them, and its warnings are too."""
    items = _items(synthetic_page, sites=(8,), per_site=96)
    opts = BatchOptions(model=str(tiny_model_file))
    one = list(run_batch(items, opts, jobs=1))
    two = list(run_batch(items, opts, jobs=2))
    assert any("site_median_kept_ratio" in o.result.stats for o in one)
    assert [o.result.stats for o in one] == [o.result.stats for o in two]
    assert [o.result.warnings for o in one] == [o.result.warnings for o in two]


def _collector_threshold(res) -> tuple[int, ...]:
    import gc

    return gc.get_threshold()


def test_workers_run_the_collector_set_for_a_batch_and_the_caller_keeps_its_own(synthetic_page, tiny_model_file):
    """Worker processes are the batch's own: their garbage collector runs less often
    (`GC_THRESHOLDS`); the calling process's setting is not touched."""
    import gc

    from blockclf.workers import GC_THRESHOLDS

    saved = gc.get_threshold()  # tests that ran the command in this process left its setting here
    gc.set_threshold(700, 10, 10)  # Python's defaults: what a forked worker inherits from this caller
    try:
        items = _items(synthetic_page, sites=(8, 9), per_site=12)
        out = list(run_batch(items, BatchOptions(model=str(tiny_model_file), transform=_collector_threshold), jobs=2))
        assert {o.result for o in out} == {GC_THRESHOLDS}
        assert gc.get_threshold() == (700, 10, 10)
    finally:
        gc.set_threshold(*saved)


def test_the_command_run_from_python_gives_the_callers_collector_back(tmp_path, synthetic_page, capsys):
    """`blockclf.cli.main` in a caller's process (a notebook) sets the collector for its batch
    and puts the caller's thresholds back, with nothing left frozen, when it returns."""
    import gc

    src = tmp_path / "pages"
    src.mkdir()
    for p in range(3):
        (src / f"p{p}.html").write_text(synthetic_page(8, p).html, encoding="utf-8")
    saved = gc.get_threshold()
    gc.set_threshold(700, 10, 10)
    gc.unfreeze()
    try:
        assert main(["extract", str(src), "-o", str(tmp_path / "out")]) == 0
        assert gc.get_threshold() == (700, 10, 10) and gc.get_freeze_count() == 0
        assert len(list((tmp_path / "out").iterdir())) == 3
    finally:
        gc.set_threshold(*saved)


def _suffixed(make_page, n=4, site=8) -> list[Item]:
    """One site's pages whose titles end with the site's name and which give no ``<h1>``."""
    items = []
    for p in range(n):
        html = make_page(site, p).html
        html = re.sub(r"<h1>.*?</h1>", "", re.sub(r"<title>.*?</title>", f"<title>Story number {p} told | Everywhere</title>",
                                                  html))
        items.append(Item(f"s{site}p{p}", html.encode("utf-8")))
    return items


def test_a_title_part_that_a_sites_pages_share_leaves_their_headlines(synthetic_page, tiny_model, tiny_model_file):
    """A part that most of a site's other titles share names the site ("… | Everywhere"): the
    headline drops it in one batch, in a streaming batch (one process or two) and on the
    command line alike; a page alone, or a batch without site evidence, keeps its title."""
    items = _suffixed(synthetic_page)
    want = [f"Story number {p} told" for p in range(len(items))]
    pages = [prepare(it.source, name=it.name) for it in items]
    assert [r.title for r in extract_batch(pages, model=tiny_model)] == want
    for jobs in (1, 2):
        outcomes = list(run_batch(items, BatchOptions(model=str(tiny_model_file), chunk_size=2), jobs=jobs))
        assert [o.result.title for o in outcomes] == want
    assert extract_batch(pages[:1], model=tiny_model)[0].title == "Story number 0 told | Everywhere"
    alone = extract_batch(pages, model=tiny_model, use_site=False)
    assert [r.title for r in alone] == [f"{w} | Everywhere" for w in want]
    # two other pages of the site are the least that counts, as for site evidence
    assert [r.title for r in extract_batch(pages[:2], model=tiny_model)] == [f"{w} | Everywhere" for w in want[:2]]


def test_chunks_of_pages_given_as_bytes_hold_a_bounded_size():
    # a WARC's records or a JSONL file's lines travel with their bytes: 64 of 150 KB and more,
    # a few chunks a worker under way, held a reading process at 480 MB
    from blockclf.batch import CHUNK_SOURCE_BYTES, item_chunks  # the cut itself: no batch shows it but in memory

    items = [Item(name=str(i), source=b"x" * (3 << 20)) for i in range(10)]
    assert [len(c) for c in item_chunks(items, 64)] == [3, 3, 3, 1] and CHUNK_SOURCE_BYTES <= 3 * (3 << 20)
    texts = [Item(name=str(i), source="y" * 1000) for i in range(130)]
    assert [len(c) for c in item_chunks(texts, 64)] == [64, 64, 2]
    paths = [Item(name=str(i), source=Path(f"{i}.html")) for i in range(100)]
    assert [len(c) for c in item_chunks(paths, 64)] == [64, 36]


@pytest.mark.parametrize("jobs,cache_bytes", [(1, 1 << 20), (2, 1 << 20), (1, 0)])
def test_pages_read_only_as_evidence_give_the_others_what_one_batch_gives(synthetic_page, tiny_model_file, jobs,
                                                                          cache_bytes, monkeypatch):
    """A page whose output an earlier run wrote is read for its site's evidence and never
    given back: the pages extracted now get the evidence and scores of one batch with it."""
    import blockclf.batch as batch

    given: list[list] = []  # the evidence of each batch, as the main process works it out
    real = batch.site_evidence
    monkeypatch.setattr(batch, "site_evidence", lambda *a: given.append(real(*a)) or given[-1])
    items = _items(synthetic_page, sites=(8, 9), per_site=4)
    opts = BatchOptions(model=str(tiny_model_file), chunk_size=3, cache_bytes=cache_bytes)
    reference = {o.name: o for o in run_batch(items, opts)}
    done = {it.name for it in items[:6]}  # three pages of each site
    resumed = [Item(it.name, it.source, evidence_only=it.name in done) for it in items]
    report = SiteReport()
    out = list(run_batch(resumed, opts, jobs=jobs, report=report))
    assert [o.name for o in out] == [it.name for it in items if it.name not in done]
    _same(out, [reference[o.name].result for o in out])
    assert report.pages == 2 and report.alone == 0  # only the pages extracted now are told of
    full, resumed_evidence = given
    for i in (6, 7):  # the pages extracted now: the same evidence as in one batch, from their sites' other three
        assert resumed_evidence[i] is not None and resumed_evidence[i][2] == full[i][2] == 3
        assert np.array_equal(resumed_evidence[i][0], full[i][0])
    list(run_batch([it for it in items if it.name not in done], opts, jobs=jobs))
    assert given[-1] == [None, None]  # alone, one page a site has no evidence


def test_pages_read_only_as_evidence_without_site_evidence_are_not_read(synthetic_page, tiny_model, monkeypatch):
    import blockclf.batch as batch

    calls = []
    real = batch.prepare
    monkeypatch.setattr(batch, "prepare", lambda *a, **k: calls.append(a[1] if len(a) > 1 else k["name"])
                        or real(*a, **k))
    items = [Item(it.name, it.source, evidence_only=i % 2 == 0) for i, it in enumerate(_items(synthetic_page))]
    out = list(run_batch(items, BatchOptions(model=tiny_model, use_site=False)))
    assert [o.name for o in out] == [it.name for it in items if not it.evidence_only]
    assert sorted(calls) == sorted(o.name for o in out)


_KILLED_PARENT = """
import sys, time
from blockclf.batch import BatchOptions, Item, run_batch

def slow(res):  # the workers are busy when their parent is killed
    time.sleep(60)
    return res.name

if __name__ == "__main__":
    html = open(sys.argv[2], encoding="utf-8").read()
    items = [Item(f"p{i}", html) for i in range(4)]
    opts = BatchOptions(model=sys.argv[1], transform=slow, use_site=False, chunk_size=1)
    for outcome in run_batch(items, opts, jobs=2):
        print(outcome.name, flush=True)
"""


def _children(pid: int) -> set[int]:
    try:
        return {int(c) for c in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()}
    except OSError:
        return set()


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="Linux: workers end with their parent there")
def test_workers_end_when_their_parent_is_killed(tmp_path, synthetic_page, tiny_model_file):
    """A main process killed outright (SIGKILL, the out-of-memory killer) left its workers
    waiting forever, with their memory and its open files (a WARC's locked partial output)."""
    import os
    import signal
    import subprocess
    import sys
    import time

    script = tmp_path / "killed.py"
    script.write_text(_KILLED_PARENT, encoding="utf-8")
    page = tmp_path / "page.html"
    page.write_text(synthetic_page(8, 0).html, encoding="utf-8")
    proc = subprocess.Popen([sys.executable, str(script), str(tiny_model_file), str(page)],
                            env=dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parents[1])))
    workers: set[int] = set()
    try:
        deadline = time.monotonic() + 60
        while len(workers := _children(proc.pid)) < 2 and time.monotonic() < deadline:
            time.sleep(0.1)
        assert len(workers) == 2
        time.sleep(1)  # the workers are in their tasks
        proc.send_signal(signal.SIGKILL)
        proc.wait(10)
        deadline = time.monotonic() + 10
        while any(Path(f"/proc/{w}").exists() for w in workers) and time.monotonic() < deadline:
            time.sleep(0.1)
        alive = [w for w in workers if Path(f"/proc/{w}").exists()]
        assert not alive
    finally:  # nothing left behind, whatever the outcome
        proc.kill()
        for w in workers:
            if Path(f"/proc/{w}").exists():
                os.kill(w, signal.SIGKILL)
