"""Extraction on a Dask cluster: the batch's page functions, site evidence by a groupby over sites.

Beyond one machine blockclf uses an existing engine rather than its own. The two passes of
`blockclf.batch` map onto a ``dask.bag``:

1. each partition runs `page_keys` (parse, segment, block keys) on its pages;
2. the keyed pages are grouped by site (``Bag.groupby``) and each group gets its repetition
   evidence from `site_evidence`, and its pages the title parts they share
   (`headline.site_titles`), exactly as one `extract_batch` over all pages would give;
3. the pages are scored partition by partition with `score_chunk`, each decided as one batch:
   the partitions are cut as a local batch cuts its chunks (`blockclf.batch.item_chunks`), so
   that the same pages are decided together and each page's outcome is the local one, what
   its site's other pages say of it included (`checks.site_checks`).

Results come back to the client in input order, partition by partition as they are ready
(`iter_dask`), each already passed through
``opts.transform`` when one is set (the command line renders there, on the workers). Item
sources must be readable by the workers: paths on a shared file system, or bytes. Needs the
``dask`` extra. Recipe::

    from dask.distributed import Client
    from blockclf.batch import BatchOptions, Item
    from blockclf.distributed import iter_dask

    client = Client("tcp://scheduler:8786")
    items = [Item(str(p), p) for p in sorted(Path("pages").rglob("*.html"))]
    for outcome in iter_dask(items, BatchOptions(model="my-model.json"), client=client):
        ...
"""

from __future__ import annotations

import logging
from collections.abc import Iterator, Sequence
from typing import Any

from .batch import BatchOptions, Item, Outcome, chunk_size, item_chunks, page_keys, score_chunk, site_evidence
from .headline import site_titles
from .html import PageError

__all__ = ["extract_dask", "iter_dask"]

#: partitions computed together on the local scheduler (no client) before their outcomes are given
_LOCAL_WINDOW = 8

log = logging.getLogger("blockclf")


def _keys_partition(part: list[tuple[int, Item]], opts: BatchOptions) -> list[tuple[Any, ...]]:
    """Pass 1 on a worker: ``(index, site, keys, titles)`` per page, or ``(index, PageError)``."""
    rows = page_keys([item for _, item in part], opts)
    return [(i, row.site, row.keys, row.titles) if row.error is None else (i, row.error)
            for (i, _), row in zip(part, rows)]


def _group(row: tuple[Any, ...], profile_site: str | None) -> str | None:
    """The group `batch_repetition` puts a page in: its site, else the given profile's site."""
    return row[1] if row[1] else profile_site


def _group_evidence(group: tuple[Any, list[tuple[Any, ...]]], opts: BatchOptions) -> list[tuple[int, Any]]:
    """Evidence for the pages of one site, from each other (and the profile, if any), and the
    title parts they share: ``(index, (evidence, parts))`` per page."""
    _, rows = group
    sites = [r[1] for r in rows]
    reps = site_evidence(sites, [r[2] for r in rows], opts)
    return [(r[0], (rep, parts)) for r, rep, parts in zip(rows, reps, site_titles(sites, [r[3] for r in rows]))]


def _score_partition(part: list[tuple[Item, Any, PageError | None]], opts: BatchOptions) -> list[Outcome]:
    items = [p[0] for p in part]
    if not opts.use_site:
        return score_chunk(items, opts, None, [p[2] for p in part])
    found: list[tuple[Any, frozenset[str]]] = [p[1] or (None, frozenset()) for p in part]
    return score_chunk(items, opts, [f[0] for f in found], [p[2] for p in part], [f[1] for f in found])


def extract_dask(items: Sequence[Item], opts: BatchOptions | None = None, client: Any = None,
                 partition_size: int | None = None) -> list[Outcome]:
    """Extract ``items`` on Dask (``client``, or the current default scheduler); outcomes in input order.

    ``client`` may be a ``distributed.Client`` or a scheduler address. Give ``opts.model``
    as a path (or None for the shipped model) so each worker loads it itself. `iter_dask`
    gives the same outcomes as they are ready, without holding them all. ``partition_size``:
    pages a partition holds; by default those of a local batch's chunks (`batch.chunk_size`),
    which gives the local outcomes, what a site's pages say of each other included.
    """
    return list(iter_dask(items, opts, client, partition_size))


def iter_dask(items: Sequence[Item], opts: BatchOptions | None = None, client: Any = None,
              partition_size: int | None = None) -> Iterator[Outcome]:
    """`extract_dask`'s outcomes, in input order, each partition's as soon as it and those
    before it are scored: the caller can write them while the cluster works on, and neither
    the client nor the workers hold the whole batch's results."""
    try:
        import dask
        import dask.bag as db
    except ImportError:
        raise ValueError("Dask extraction needs dask: pip install 'blockclf[dask]'") from None
    opts = opts or BatchOptions()
    if isinstance(client, str):
        from dask.distributed import Client

        with Client(client) as connected:
            yield from iter_dask(items, opts, connected, partition_size)
        return
    # as `run_batch` cuts the same items, unless told otherwise
    size = partition_size or chunk_size(len(items), opts)
    scheduler: dict[str, Any] = {"scheduler": client} if client is not None else {}
    indexed = list(enumerate(items))
    failed: dict[int, PageError] = {}
    evidence: dict[int, Any] = {}
    if opts.use_site:
        keyed = db.from_sequence(indexed, partition_size=size).map_partitions(_keys_partition, opts)
        bad = keyed.filter(lambda r: len(r) == 2)
        profile_site = opts.site_profile.site if opts.site_profile is not None else None
        grouped = (keyed.filter(lambda r: len(r) == 4 and _group(r, profile_site) is not None)
                   .groupby(lambda r: _group(r, profile_site))
                   .map(_group_evidence, opts)
                   .flatten())
        bad_rows, rep_rows = dask.compute(bad, grouped, **scheduler)
        failed = dict(bad_rows)
        evidence = dict(rep_rows)
    # a page read only as evidence (`Item.evidence_only`) is scored nowhere and gives no outcome
    chunks, start = [], 0
    for cut in item_chunks(items, size):
        part = [(item, evidence.get(i), failed.get(i)) for i, item in enumerate(cut, start) if not item.evidence_only]
        start += len(cut)
        if part:
            chunks.append(part)
    del evidence, failed
    parts = [dask.delayed(_score_partition)(chunk, opts) for chunk in chunks]
    if client is None:  # the local scheduler: a few partitions at a time
        for start in range(0, len(parts), _LOCAL_WINDOW):
            for outcomes in dask.compute(*parts[start:start + _LOCAL_WINDOW]):
                yield from outcomes
        return
    futures = client.compute(parts)
    try:
        for future, chunk in zip(futures, chunks):
            try:
                outcomes = future.result()
            except Exception as exc:  # the partition's worker died (each time Dask tried): page by page
                log.warning("a Dask task failed (%s): scoring its %d pages one by one", type(exc).__name__, len(chunk))
                outcomes = _one_by_one(client, chunk, opts, exc)
            future.release()  # the worker lets go of the partition's results
            yield from outcomes
    finally:
        client.cancel([f for f in futures if not f.done()])


def _one_by_one(client: Any, chunk: list[tuple[Item, Any, PageError | None]], opts: BatchOptions,
                cause: Exception) -> list[Outcome]:
    """A failed partition's pages, each in a task of its own: a page whose task fails again
    when it runs alone comes back failed (reason ``worker-died``), the others scored.

    The pages first run side by side; one whose task fails then is run once more with no
    other task under way, as Dask fails every task a dying worker held, not only the culprit.
    """
    import dask

    def task(triple: tuple[Item, Any, PageError | None]) -> Any:
        return dask.delayed(_score_partition)([triple], opts)

    futures = client.compute([task(triple) for triple in chunk])
    out: list[Outcome] = []
    for future, triple in zip(futures, chunk):
        try:
            out.extend(future.result())
        except Exception:
            alone = client.compute(task(triple))
            try:
                out.extend(alone.result())
            except Exception as exc:
                why = f"{type(exc).__name__}: {str(exc)[:120] or type(cause).__name__}"
                out.append(Outcome(triple[0].name, error=PageError("worker-died",
                                                                  f"the Dask task reading it failed ({why})")))
            alone.release()
        future.release()
    return out
