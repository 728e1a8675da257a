"""Dask: the batch's page functions on a local cluster give the single-process results."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("dask.bag", reason="Dask extraction needs the 'dask' extra")
distributed = pytest.importorskip("dask.distributed", reason="Dask extraction needs the 'dask' extra")

from blockclf.batch import BatchOptions, Item, run_batch  # noqa: E402
from blockclf.distributed import extract_dask  # noqa: E402


@pytest.fixture(scope="module")
def client():
    # threads in this process, talking over in-process queues: no port is opened
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False,
                                  dashboard_address=None) as cluster, distributed.Client(cluster) as c:
        yield c


def _items(make_page) -> list[Item]:
    items = [Item(f"s{s}p{p}", make_page(s, p).html.encode("utf-8")) for p in range(3) for s in (8, 9, 10)]
    items.insert(4, Item("empty", b"  "))
    return items


@pytest.mark.parametrize("use_site", [True, False])
def test_dask_equals_single_process(client, synthetic_page, tiny_model, use_site):
    items = _items(synthetic_page)
    opts = BatchOptions(model=tiny_model, use_site=use_site, chunk_size=3)
    local = list(run_batch(items, opts))
    remote = extract_dask(items, opts, client=client, partition_size=2)
    assert [o.name for o in remote] == [it.name for it in items]
    assert remote[4].error is not None and remote[4].error.reason == "empty"
    for a, b in zip(local, remote):
        assert (a.error is None) == (b.error is None)
        if a.error is None:
            assert np.array_equal(a.result.scores, b.result.scores)
            assert a.result.text == b.result.text


def test_pages_read_only_as_evidence_on_dask_give_what_one_batch_gives(client, synthetic_page):
    items = [it for it in _items(synthetic_page) if it.name != "empty"]
    opts = BatchOptions(chunk_size=3)  # the shipped model, which reads the evidence
    whole = {o.name: o for o in run_batch(items, opts)}
    resumed = [Item(it.name, it.source, evidence_only=n < 6) for n, it in enumerate(items)]
    remote = extract_dask(resumed, opts, client=client, partition_size=2)
    assert [o.name for o in remote] == [it.name for it in items[6:]]
    for o in remote:
        assert np.array_equal(o.result.scores, whole[o.name].result.scores) and o.result.text == whole[o.name].result.text
    alone = extract_dask(items[6:], opts, client=client, partition_size=2)  # one page a site: no evidence
    assert not all(np.array_equal(a.result.scores, o.result.scores) for a, o in zip(alone, remote))


def test_cli_dask_writes_the_same_files(client, tmp_path, synthetic_page, tiny_model_file):
    from blockclf.cli import main

    pages = tmp_path / "in"
    pages.mkdir()
    for s in (8, 9):
        for p in range(3):
            (pages / f"s{s}p{p}.html").write_text(synthetic_page(s, p).html, encoding="utf-8")
    common = ["extract", str(pages), "--model", str(tiny_model_file)]
    assert main([*common, "-o", str(tmp_path / "local")]) == 0
    assert main([*common, "-o", str(tmp_path / "dask"), "--dask", client.scheduler.address]) == 0
    local = {p.name: p.read_text(encoding="utf-8") for p in (tmp_path / "local").iterdir()}
    remote = {p.name: p.read_text(encoding="utf-8") for p in (tmp_path / "dask").iterdir()}
    assert len(local) == 6 and local == remote


def test_cli_dask_decides_the_pages_a_local_run_decides_together(client, tmp_path, synthetic_page, tiny_model_file):
    """The pages scored together are those a local run scores together, so that what a site's
    pages say of each other (its median kept ratio, the pages far under it) is the same: a
    folder of 40 pages of two sites is cut into the same chunks on the cluster."""
    import json

    from blockclf.cli import main

    pages = tmp_path / "in"
    pages.mkdir()
    for s in (8, 9):
        for p in range(20):
            (pages / f"s{s}p{p:02d}.html").write_text(synthetic_page(s, p).html, encoding="utf-8")
    common = ["extract", str(pages), "--model", str(tiny_model_file), "--format", "json"]
    assert main([*common, "-o", str(tmp_path / "local")]) == 0
    assert main([*common, "-o", str(tmp_path / "dask"), "--dask", client.scheduler.address]) == 0
    local = {p.name: json.loads(p.read_text(encoding="utf-8")) for p in (tmp_path / "local").iterdir()}
    remote = {p.name: json.loads(p.read_text(encoding="utf-8")) for p in (tmp_path / "dask").iterdir()}
    assert len(local) == 40
    assert {n: d["stats"] for n, d in remote.items()} == {n: d["stats"] for n, d in local.items()}
    assert local == remote

def test_outcomes_come_partition_by_partition(client, synthetic_page, tiny_model):
    """Outcomes come lazily, in input order, and nothing of the batch is left on the cluster
    once they are read."""
    import time

    from blockclf.distributed import iter_dask

    items = _items(synthetic_page)
    stream = iter_dask(items, BatchOptions(model=tiny_model), client=client, partition_size=2)
    first = next(stream)
    assert first.name == items[0].name and first.error is None
    rest = list(stream)
    assert [o.name for o in [first, *rest]] == [it.name for it in items]
    scheduler = client.cluster.scheduler
    deadline = time.monotonic() + 10
    while scheduler.tasks and time.monotonic() < deadline:  # releases reach the scheduler asynchronously
        time.sleep(0.05)
    assert not scheduler.tasks


def test_local_scheduler_gives_the_same_outcomes(synthetic_page, tiny_model):
    from blockclf.distributed import iter_dask

    items = _items(synthetic_page)
    local = list(run_batch(items, BatchOptions(model=tiny_model)))
    threaded = list(iter_dask(items, BatchOptions(model=tiny_model), client=None, partition_size=2))
    assert [o.name for o in threaded] == [it.name for it in items]
    for a, b in zip(local, threaded):
        assert (a.error is None) == (b.error is None)
        if a.error is None:
            assert a.result.text == b.result.text


def _die_on(res, name: str, parent: int):
    """A transform that kills the Dask worker process rendering page ``name``."""
    import os

    if res.name == name and os.getpid() != parent:
        os._exit(1)
    return res.text


def test_a_page_that_kills_its_worker_costs_only_itself(synthetic_page, tiny_model_file):
    import os
    from functools import partial

    import dask

    from blockclf.distributed import iter_dask

    items = _items(synthetic_page)
    opts = BatchOptions(model=str(tiny_model_file), transform=partial(_die_on, name="s9p1", parent=os.getpid()))
    with dask.config.set({"distributed.scheduler.allowed-failures": 0}), \
            distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True,
                                     dashboard_address=None) as cluster, distributed.Client(cluster) as c:
        out = list(iter_dask(items, opts, client=c, partition_size=3))
    assert [o.name for o in out] == [it.name for it in items]
    failed = {o.name: o.error.reason for o in out if o.error is not None}
    assert failed == {"s9p1": "worker-died", "empty": "empty"}
    assert all(isinstance(o.result, str) and o.result for o in out if o.error is None)


def test_dask_drops_the_title_parts_a_sites_pages_share(client, synthetic_page, tiny_model):
    from test_batch import _suffixed  # one site's pages whose titles end "| Everywhere"

    items = _suffixed(synthetic_page)
    remote = extract_dask(items, BatchOptions(model=tiny_model, chunk_size=2), client=client, partition_size=2)
    assert [o.result.title for o in remote] == [f"Story number {p} told" for p in range(len(items))]
