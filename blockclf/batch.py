"""Streaming batch extraction: many pages, bounded memory, optional worker processes.

Site evidence needs every page of a site before any of them is scored, but holding every
parsed page would make memory grow with the batch. A batch therefore runs in two passes:

1. a light pass parses and segments each page and keeps its site and `block_keys` (16 bytes
   per block), then `batch_repetition` turns them into per-page repetition evidence, exactly
   as `extract_batch` would over the whole batch (a page is never evidence for itself);
2. the scoring pass takes the pages in chunks, in input order, and scores each chunk as one
   batch (a LightGBM call per `blockclf.predict.SCORE_BLOCKS` blocks), handing it the
   evidence from pass 1.

Pass 1 keeps each segmented page for pass 2. The process that read it holds it as it is,
and pass 2 sends the page's scoring back to that process, while a quarter of
`BatchOptions.cache_bytes` lasts (shared among the processes); past that, the page comes
back packed (`blockclf.carry`; pickled, compressed: about a fifth of its size in objects, read back in a
tenth of the time it takes to parse and segment it again) while half of it lasts, and a
chunk of packed pages is scored by whichever process is free; only pages beyond both are
parsed twice, as are held pages whose process died. A page that
names no site can get no evidence: with a ``transform`` (the command line's writers), pass
1 scores it at once and keeps its output instead, so it is neither kept nor sent back (or,
where outcomes need not come in input order, gives it at once, so it is not kept either). A
batch without site evidence is read in a single pass. A page that cannot be read, parsed
or scored, or that runs over its time budget, is reported as an `Outcome` with an error
and skipped; it never stops the batch. Outcomes come back in input order whatever ``jobs``
is (a writer that needs no order can have those the first pass settles at once: `run_batch`).
"""

from __future__ import annotations

import dataclasses
import itertools
import logging
import os
import sys
import time
from collections import deque
from collections.abc import Callable, Generator, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Union

from .carry import NO_TREE, Held, hold_page, pack, plain_size, release, squeezed, take_page, unpack, unsqueezed
from .headline import site_titles
from .html import Limits, PageError, Source
from .model import Model, cached_model
from .predict import extract_batch, page_error, prepare
from .result import Page, Result
from .site import SiteProfile, batch_repetition, block_keys
from .workers import Workers, available_cores, plan_workers

__all__ = ["BatchOptions", "Item", "Outcome", "PageRead", "SiteReport", "available_cores", "page_keys", "plan_workers",
           "run_batch", "score_chunk", "site_evidence"]

log = logging.getLogger("blockclf")

#: a batch's items, or a function giving them afresh (a WARC file is read once per pass)
Items = Union[Sequence["Item"], Callable[[], Iterable["Item"]]]  # noqa: UP007 (a runtime alias on 3.10)
#: a batch of known length is cut into about this many chunks (of at most ``chunk_size`` pages),
#: however many workers score it: the pages scored together, and so what their site's median
#: kept ratio says of them (`blockclf.checks.site_checks`), never depend on ``--jobs``. Many
#: tasks let workers finish together, as each pass ends waiting for its last one (on two
#: workers, 8 tasks each against 4: the wcxb test folder 4.9 s against 5.2)
BATCH_CHUNKS = 16
#: a chunk of pages given as their bytes or text (a WARC's records, a JSONL file's lines) holds
#: at most about this much of them: a few chunks of each worker are under way at once, and 64
#: pages of 150 KB held a file of JSON lines at 480 MB in the process that reads it
CHUNK_SOURCE_BYTES = 8 << 20
#: numbers this process's batches, so that the pages each holds are filed apart
_BATCHES = itertools.count()


@dataclass(frozen=True)
class Item:
    """One page of a batch: a name for its output, its source, and what is known of its origin.

    ``site`` overrides the site the page's URL gives; ``fallback_site`` is used only when the
    page gives none (no URL, no canonical link), e.g. the host folder of a mirrored site.
    ``evidence_only``: the page is read as site evidence for the batch's other pages, never
    scored, and no `Outcome` is given for it (its output exists from an earlier run: the pages
    extracted now get the evidence they would have had in one run with it).
    """

    name: str
    source: Source
    url: str | None = None
    site: str | None = None
    encoding: str | None = None
    fallback_site: str | None = None
    evidence_only: bool = False
    #: what the source says of the page before it is read (a WARC record its crawler cut
    #: short: ``truncated-record``), added to the page's warnings
    warnings: tuple[str, ...] = ()


@dataclass
class SiteReport:
    """How a batch's pages fared for site evidence (filled by `run_batch` after its first pass).

    ``no_site``: pages with no site known (no URL, no canonical link, no ``--site``);
    ``alone``: pages whose site has too few other pages in the batch to count repetition
    over (fewer than `site.MIN_OTHER_PAGES`, and no profile serves them).
    """

    pages: int = 0
    no_site: int = 0
    alone: int = 0


@dataclass
class Outcome:
    """What became of one page: a result (or what ``transform`` made of it), or an error."""

    name: str
    result: Any = None
    error: PageError | None = None
    seconds: float = 0.0


@dataclass(frozen=True)
class BatchOptions:
    """How to extract a batch. ``model`` may be a path, so worker processes load it once each.

    ``limits`` holds the per-page size, node and time budgets. ``chunk_size`` pages are
    scored per LightGBM call; ``cache_bytes`` bounds the pages kept from pass 1 for pass 2:
    a quarter for pages held as they are by the processes that read them (their estimated
    size), half for packed ones (0: every page is parsed again in pass 2). ``exact_scores``,
    ``top_reasons`` (with ``explain``): see `blockclf.predict.extract_batch`.
    """

    model: Model | str | Path | None = None
    favor: str = "balanced"
    threshold: float | None = None
    site_profile: SiteProfile | None = None
    use_site: bool = True
    explain: bool = False
    encoding: str | None = None
    limits: Limits = dataclasses.field(default_factory=Limits)
    chunk_size: int = 64
    cache_bytes: int = 256 << 20
    transform: Callable[[Result], Any] | None = None
    comments: str = "remove"
    exact_scores: bool = False
    top_reasons: int = 3


def _resolve_model(model: Model | str | Path | None) -> Model:
    """Load a model once per process (workers receive a path, not a pickled booster)."""
    return cached_model(model)


def _prepare(item: Item, opts: BatchOptions) -> Page | PageError:
    """Parse and segment one page, turning every failure into a `PageError`."""
    try:
        page = prepare(item.source, name=item.name, url=item.url, site=item.site,
                       encoding=item.encoding or opts.encoding, limits=opts.limits)
        if page.site is None and item.fallback_site:
            page.site = item.fallback_site
        if item.warnings:
            page.doc.warnings.extend(w for w in item.warnings if w not in page.doc.warnings)
        return page
    except Exception as exc:  # a bug or a library failure on one page must not stop the batch
        return page_error(exc, item.name)


@dataclass
class PageRead:
    """What pass 1 learnt of one page: its site, its `block_keys` (None when it can get no
    evidence), and the packed page for pass 2 (None past the cache budget) or, for a page
    scored at once, its `Outcome` and the bytes that outcome holds; or why it cannot be read."""

    site: str | None = None
    keys: Any = None
    packed: bytes | None = None
    error: PageError | None = None
    outcome: Outcome | None = None
    size: int = 0
    #: the page is held by the process that read it (`_HELD`), the worker slot it runs in
    held: bool = False
    slot: int = 0
    #: the page's ``<title>`` and headline, whose parts its site's other pages may share
    #: (`headline.site_titles`)
    titles: tuple[str | None, ...] = ()
    #: the page is the others' evidence only (`Item.evidence_only`): not scored, no outcome
    evidence_only: bool = False
    #: its outcome was given in pass 1 (`run_batch` with ``ordered=False``): none in pass 2
    given: bool = False


def page_keys(items: Sequence[Item], opts: BatchOptions, keep: bool = False,
              hold: tuple[str, int, int] | None = None, squeeze: bool = True) -> list[PageRead]:
    """Pass 1 over some items: one `PageRead` each.

    A page that can get evidence (it has a site, or a profile is given) is hashed here, in
    the worker, not in the process that gathers the batch. With ``keep``, each page is kept
    for pass 2: with ``hold`` (batch name, position of the first item, bytes this process
    may hold) it stays in this process while that lasts, else it comes back packed. A page
    that can get no evidence, when the batch has a ``transform``, is scored now instead,
    exactly as pass 2 would score it, and its outcome comes back (unless that output is not
    plain data: then it is kept like the others), its long parts compressed to wait for their
    turn (`carry.squeezed`) unless ``squeeze`` is false (the outcome is given at once).
    """
    out: list[PageRead] = []
    now: list[tuple[int, Item, Page]] = []  # pages scored in this pass
    for n, item in enumerate(items):
        page = _prepare(item, opts)
        if isinstance(page, PageError):
            out.append(PageRead(error=page, evidence_only=item.evidence_only))
            continue
        hashed = page.site is not None or opts.site_profile is not None
        keep_it = keep and not item.evidence_only  # a page read for the others is neither kept nor scored
        if keep_it and not hashed and opts.transform is not None:
            now.append((len(out), item, page))
            out.append(PageRead())
            continue
        read = PageRead(page.site, block_keys(page.blocks) if hashed else None, evidence_only=item.evidence_only,
                        titles=(page.doc.title, page.metadata.title) if page.site is not None else ())
        if keep_it:
            read.held = hold is not None and hold_page(page, Held(hold[0], hold[1] + n), hold[2])
            read.packed = None if read.held else pack(page)
        out.append(read)
    if now:
        done = score_chunk([n[1] for n in now], opts, [None] * len(now), [n[2] for n in now])
        for (i, _item, page), outcome in zip(now, done):
            if outcome.error is None and squeeze:
                outcome.result = squeezed(outcome.result)
            size = plain_size(outcome.result) if outcome.error is None else 0
            if size is None:  # the output's size is not known: the page waits for pass 2, packed
                out[i].packed = pack(page)
            else:
                out[i].outcome, out[i].size = outcome, size
    return out


def _opened(outcome: Outcome) -> Outcome:
    """The outcome with its output as the transform made it."""
    outcome.result = unsqueezed(outcome.result)
    return outcome


def site_evidence(sites: Sequence[str | None], keys: Sequence[Any], opts: BatchOptions) -> list[Any]:
    """Per page, the repetition evidence `extract_batch` would give it in the whole batch."""
    if not opts.use_site:
        return [None] * len(keys)
    return batch_repetition(keys, sites, opts.site_profile)


def _prepared(item: Item, opts: BatchOptions, known: Page | PageError | bytes | Held | None) -> Page | PageError:
    """A chunk's page ready to score: held here, unpacked, or prepared now and let go of its tree."""
    if isinstance(known, Held):
        known = take_page(known)
    if isinstance(known, bytes):
        return unpack(known)
    page = known if known is not None else _prepare(item, opts)
    if isinstance(page, Page) and page.doc.root is not NO_TREE:  # scoring reads no element
        page.doc = dataclasses.replace(page.doc, root=NO_TREE)
    return page


def score_chunk(items: Sequence[Item], opts: BatchOptions, evidence: Sequence[Any] | None = None,
                pages: Sequence[Page | PageError | bytes | Held | None] | None = None,
                titles: Sequence[frozenset[str]] | None = None) -> list[Outcome]:
    """Pass 2 over a chunk: prepare (unless ``pages`` has them: prepared, packed, or held in
    this process), score together, transform. ``titles``: per page, the title parts its site
    shares in the whole batch (`headline.site_titles`), given with ``evidence``.

    The chunk is scored as one batch (`extract_batch`, which stacks the feature tables of at
    most `blockclf.predict.SCORE_BLOCKS` blocks at once), so that what its pages of one site
    say of each other does not depend on where a LightGBM call ends. Without ``evidence`` the
    chunk is scored like `extract_batch` scores a batch on its own.
    """
    t0 = time.perf_counter()
    prepared = [_prepared(it, opts, p) for it, p in zip(items, pages or [None] * len(items))]
    ok = [i for i, p in enumerate(prepared) if not isinstance(p, PageError)]
    outcomes = [Outcome(it.name, error=p if isinstance(p, PageError) else None) for it, p in zip(items, prepared)]
    mdl = _resolve_model(opts.model)
    kwargs: dict[str, Any] = dict(model=mdl, favor=opts.favor, threshold=opts.threshold,
                                  site_profile=opts.site_profile, use_site=opts.use_site, explain=opts.explain,
                                  comments=opts.comments, exact_scores=opts.exact_scores,
                                  top_reasons=opts.top_reasons)
    ready: list[Page] = [p for p in prepared if not isinstance(p, PageError)]
    results: list[Result | PageError] = []
    if ready:
        try:
            reps = [evidence[i] for i in ok] if evidence is not None else None
            parts = [titles[i] for i in ok] if titles is not None else None
            results.extend(extract_batch(ready, repetition=reps, site_titles=parts, **kwargs))
        except Exception:  # find the page that breaks the chunk; score the others alone
            log.debug("scoring failed, scoring the chunk's pages one by one", exc_info=True)
            results = []
            for j in range(len(ready)):
                try:
                    rep = [evidence[ok[j]]] if evidence is not None else None
                    part = [titles[ok[j]]] if titles is not None else None
                    results.append(extract_batch([ready[j]], repetition=rep, site_titles=part, **kwargs)[0])
                except PageError as exc:  # over its time budget
                    results.append(exc)
                except Exception as exc:
                    results.append(PageError("error", f"scoring failed: {type(exc).__name__}: {exc}"))
    del ready, prepared
    for i, res in zip(ok, results):
        if isinstance(res, PageError):
            outcomes[i].error = res
            continue
        try:
            outcomes[i].result = opts.transform(res) if opts.transform is not None else res
        except Exception as exc:
            outcomes[i].error = PageError("error", f"output failed: {type(exc).__name__}: {exc}")
    per_page = (time.perf_counter() - t0) / max(len(items), 1)
    for o in outcomes:
        o.seconds = per_page
    return outcomes


def chunk_size(total: int, opts: BatchOptions) -> int:
    """Pages a chunk of a batch of ``total`` items holds: about `BATCH_CHUNKS` chunks, each of
    at most ``opts.chunk_size`` pages."""
    return max(1, min(opts.chunk_size, -(-total // BATCH_CHUNKS)))


def item_chunks(items: Iterable[Item], size: int) -> Iterator[list[Item]]:
    """The items in runs of at most ``size``, and of at most `CHUNK_SOURCE_BYTES` of sources
    given as bytes or text (a file's path counts nothing), cut the same way on every pass (and
    on a Dask cluster: `blockclf.distributed`), so that the same pages are decided together."""
    chunk: list[Item] = []
    held = 0
    for item in items:
        chunk.append(item)
        held += len(item.source) if isinstance(item.source, (bytes, str)) else 0
        if len(chunk) >= size or held >= CHUNK_SOURCE_BYTES:
            yield chunk
            chunk, held = [], 0
    if chunk:
        yield chunk


class _Progress:
    """A tqdm bar on stderr when enabled; silent otherwise.

    The caller decides whether stderr is worth drawing on (the command line: only a terminal).
    """

    def __init__(self, enabled: bool, total: int | None, desc: str) -> None:
        self.bar = None
        if enabled:
            from tqdm import tqdm  # imported when a bar is drawn: start-up stays short

            self.bar = tqdm(total=total, desc=desc, unit="page", file=sys.stderr, leave=False)

    def update(self, n: int) -> None:
        if self.bar is not None:
            self.bar.update(n)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


def _lost(fn: Callable[..., Any], args: tuple[Any, ...], why: str) -> Any:
    """What a task whose worker process died gives: its pages, each named with the reason."""
    error = PageError("worker-died", f"the worker process reading it died ({why})")
    if fn is page_keys:
        return [PageRead(error=error) for _ in args[0]]
    return [Outcome(item.name, error=error) for item in args[0]]


def _alone_args(fn: Callable[..., Any], args: tuple[Any, ...]) -> tuple[Any, ...]:
    """A task's arguments for a worker of its own: such a worker holds no page for pass 2, so
    pass 1's pages come back packed."""
    return (*args[:3], None, *args[4:]) if fn is page_keys and len(args) > 3 else args


def run_batch(items: Items, opts: BatchOptions | None = None, jobs: int = 1,
              progress: bool = False, report: SiteReport | None = None, ordered: bool = True) -> Iterator[Outcome]:
    """Extract every item, yielding one `Outcome` per item in input order (none for an item
    that is `Item.evidence_only`).

    ``items`` is a sequence, or a function returning a fresh iterable (read once per pass).
    ``jobs`` > 1 runs parsing and scoring in that many worker processes (`plan_workers` says
    how many a batch is worth). ``report`` is filled with how many pages got no site
    evidence, and why, once the first pass ends (before the first outcome, if ``ordered``).

    Not ``ordered``: a page that can get no site evidence, scored as soon as it is read
    (with a ``transform``), is given then, not kept until the pages before it are scored
    (for outputs whose order does not matter, such as a file a page: a large folder's
    writer then holds no outputs of the first pass, and a stopped run has written them);
    so is a page that cannot be read. The others follow in input order; the order is the
    same whatever ``jobs`` is.
    """
    opts = opts or BatchOptions()

    def fresh() -> Iterable[Item]:
        return items() if callable(items) else items

    total = None if callable(items) else len(items)
    if total is not None:  # many tasks, so that the workers finish together
        opts = dataclasses.replace(opts, chunk_size=chunk_size(total, opts))
    if isinstance(opts.model, Model) and jobs > 1:
        log.info("a model object is sent to every worker; pass a model path to load it once per worker")
    workers = Workers(jobs, lost=_lost, alone_args=_alone_args)
    name = f"{os.getpid()}-{next(_BATCHES)}"  # what this batch's held pages are filed under
    try:
        if not opts.use_site:  # pages read only as evidence have nothing to give
            yield from _scored((it for it in fresh() if not it.evidence_only), opts, None, None, workers, progress,
                               total)
        else:
            reads = yield from _read_sites(fresh(), opts, workers, progress, total, name, early=not ordered)
            titles = site_titles([r.site for r in reads], [r.titles for r in reads])
            for r in reads:
                r.titles = ()
            evidence = _evidence(reads, opts, report)
            yield from _scored(fresh(), opts, evidence, reads, workers, progress, len(reads), name, titles)
    except BaseException:  # interrupted, or the caller stopped reading: the workers are stopped, not awaited
        workers.close(abort=True)
        release(name)
        raise
    workers.close()
    release(name)


def _read_sites(items: Iterable[Item], opts: BatchOptions, workers: Workers, progress: bool,
                total: int | None, name: str, early: bool = False) -> Generator[Outcome, None, list[PageRead]]:
    """Pass 1: each page's site, and the page itself (held or packed) while the budget lasts;
    with ``early``, the outcomes of the pages scored now and of those that could not be read,
    as they come (see `run_batch`)."""
    reads: list[PageRead] = []
    budget = opts.cache_bytes // 2  # for packed pages here; a quarter is for held pages
    per_worker = opts.cache_bytes // 4 // max(workers.jobs, 1)
    bar = _Progress(progress, total, "reading sites")
    names: deque[list[str]] = deque()  # per task sent, its pages' names (results come in that order)

    def tasks() -> Iterator[tuple[int | None, tuple[Any, ...]]]:
        start = 0
        for chunk in item_chunks(items, opts.chunk_size):
            if early:
                names.append([it.name for it in chunk])
            # an outcome given at once is not compressed to wait (and opened here at once)
            yield None, (chunk, opts, budget > 0, (name, start, per_worker), not early)
            start += len(chunk)

    try:
        for slot, rows in workers.map(page_keys, tasks()):
            told = names.popleft() if early else []
            for j, row in enumerate(rows):
                row.slot = slot
                if early and row.outcome is not None:
                    outcome, row.outcome, row.size, row.given = row.outcome, None, 0, True
                    yield _opened(outcome)
                elif early and row.error is not None and not row.evidence_only:
                    row.given = True
                    yield Outcome(told[j], error=row.error)
                held = len(row.packed) if row.packed is not None else row.size if row.outcome is not None else 0
                if budget >= held:
                    budget -= held
                else:  # over the budget (kept before that was known): parsed again in pass 2
                    row.packed = row.outcome = None
                reads.append(row)
            bar.update(len(rows))
    finally:
        bar.close()
    return reads


def _evidence(reads: list[PageRead], opts: BatchOptions, report: SiteReport | None) -> list[Any]:
    """Per page, its repetition evidence from the other pages of its site (None: none)."""
    ok = [i for i, r in enumerate(reads) if r.error is None]
    evidence: list[Any] = [None] * len(reads)
    for i, rep in zip(ok, site_evidence([reads[i].site for i in ok], [reads[i].keys for i in ok], opts)):
        evidence[i] = rep
    for r in reads:
        r.keys = None
    if report is not None:
        told = [i for i in ok if not reads[i].evidence_only]
        report.pages = len(told)
        report.no_site = sum(1 for i in told if evidence[i] is None and reads[i].site is None)
        report.alone = sum(1 for i in told if evidence[i] is None and reads[i].site is not None)
    return evidence


#: pass 2's mark of a page read only as evidence (`Item.evidence_only`), or whose outcome pass 1
#: gave: nothing is sent or given
_UNTOLD = Outcome("")


def _scored(items: Iterable[Item], opts: BatchOptions, evidence: list[Any] | None,
            reads: list[PageRead] | None, workers: Workers, progress: bool, total: int | None,
            name: str = "", titles: list[frozenset[str]] | None = None) -> Iterator[Outcome]:
    """Pass 2: score the items chunk by chunk, in order, each in the worker that holds its
    pages (pages scored in pass 1 are not sent)."""
    bar = _Progress(progress, total, "extracting")
    # per chunk, in order: its outcomes known from pass 1 (None where scored now), and
    # whether a task was sent for it
    plans: deque[tuple[list[Outcome | None], bool]] = deque()

    def known(i: int) -> bytes | PageError | Held | None:
        if reads is None:
            return None
        r = reads[i]
        if r.error is not None:
            return r.error
        if r.held:
            return Held(name, i)
        packed, r.packed = r.packed, None  # each packed page is handed on once, then let go
        return packed

    def tasks() -> Iterator[tuple[int | None, tuple[Any, ...]]]:
        start = 0
        for chunk in item_chunks(items, opts.chunk_size):
            idx = range(start, start + len(chunk))
            start += len(chunk)
            done: list[Outcome | None] = [None] * len(chunk)
            if reads is not None:
                for j, i in enumerate(idx):
                    untold = reads[i].evidence_only or reads[i].given
                    done[j], reads[i].outcome = _UNTOLD if untold else reads[i].outcome, None
            todo = [j for j, o in enumerate(done) if o is None]
            plans.append((done, bool(todo)))
            if todo:  # to the worker that holds its pages (chunks are cut the same in both passes); a
                # chunk whose pages all come back packed (or are read again) to whichever is free
                held = (reads[idx[j]] for j in todo if reads[idx[j]].held) if reads is not None else iter(())
                slot = next((r.slot for r in held), None)
                yield slot, ([chunk[j] for j in todo], opts,
                             [evidence[idx[j]] for j in todo] if evidence is not None else None,
                             [known(idx[j]) for j in todo],
                             [titles[idx[j]] for j in todo] if titles is not None else None)

    def finished() -> Iterator[Outcome]:  # chunks whose every page was scored in pass 1
        while plans and not plans[0][1]:
            done, _sent = plans.popleft()
            bar.update(len(done))
            yield from (_opened(o) for o in done if o is not _UNTOLD)

    try:
        for _slot, scored in workers.map(score_chunk, tasks()):
            yield from finished()
            done, _sent = plans.popleft()
            fresh = iter(scored)
            bar.update(len(done))
            yield from (_opened(o) if o is not None else next(fresh) for o in done if o is not _UNTOLD)
        yield from finished()
    finally:
        bar.close()
