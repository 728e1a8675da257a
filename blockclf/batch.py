"""Streaming batch extraction: many pages, bounded memory, optional worker processes.

Site evidence needs every page of a site before any of them is scored, but holding every
parsed page would make memory grow with the batch. A batch therefore runs in two passes:

1. a light pass parses each page and keeps only its site and `block_keys` (16 bytes per
   block), then `batch_repetition` turns them into per-page repetition evidence, exactly as
   `extract_batch` would over the whole batch (a page is never evidence for itself);
2. the scoring pass takes the pages in chunks, in input order, and scores each chunk with
   one LightGBM call, handing it the evidence from pass 1.

Pages parsed in pass 1 are kept for pass 2 up to a fixed budget of blocks, so small batches
are parsed once and large ones have a memory ceiling. A batch that fits in one chunk, or
runs without site evidence, is read in a single pass. A page that cannot be read, parsed or
scored, or that runs over its time budget, is reported as an `Outcome` with an error and
skipped; it never stops the batch. Outcomes come back in input order whatever ``jobs`` is.
"""

from __future__ import annotations

import copyreg
import dataclasses
import logging
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Union

from lxml import etree

from .html import Limits, PageError
from .model import Model, load_model
from .predict import Page, Result, extract_batch, prepare
from .site import SiteProfile, batch_repetition, block_keys, may_get_evidence

__all__ = ["BatchOptions", "Item", "Outcome", "page_keys", "run_batch", "score_chunk", "site_evidence"]

log = logging.getLogger("blockclf")

Source = Union[bytes, str, Path]
#: a batch's items, or a function giving them afresh (a WARC file is read once per pass)
Items = Union[Sequence["Item"], Callable[[], Iterable["Item"]]]
_NO_TREE = etree.Element("html")  # stands in for a dropped tree: scoring reads no element


def _reduce_page_error(exc: PageError) -> tuple[Any, tuple[str, str]]:
    return PageError, (exc.reason, str(exc))


# outcomes cross process boundaries; PageError's two-argument constructor needs this to pickle
copyreg.pickle(PageError, _reduce_page_error)


@dataclass(frozen=True)
class Item:
    """One page of a batch: a name for its output, its source, and what is known of its origin."""

    name: str
    source: Source
    url: str | None = None
    site: str | None = None
    encoding: str | None = None


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
    scored per LightGBM call; ``cache_blocks`` bounds the blocks kept from pass 1 for pass 2.
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
    cache_blocks: int = 30_000
    transform: Callable[[Result], Any] | None = None
    comments: str = "remove"


_MODELS: dict[str, Model] = {}


def _resolve_model(model: Model | str | Path | None) -> Model:
    """Load a model once per process (workers receive a path, not a pickled booster)."""
    if isinstance(model, Model):
        return model
    key = str(model or "")
    if key not in _MODELS:
        _MODELS[key] = load_model(model)
    return _MODELS[key]


def _prepare(item: Item, opts: BatchOptions) -> Page | PageError:
    """Parse and segment one page, turning every failure into a `PageError`."""
    try:
        return prepare(item.source, name=item.name, url=item.url, site=item.site,
                       encoding=item.encoding or opts.encoding, limits=opts.limits)
    except PageError as exc:
        return exc
    except OSError as exc:
        return PageError("unreadable", f"cannot read ({exc.strerror or exc})")
    except Exception as exc:  # a bug or a library failure on one page must not stop the batch
        log.debug("%s: unexpected failure", item.name, exc_info=True)
        return PageError("error", f"{type(exc).__name__}: {exc}")


def _light(page: Page) -> Page:
    """The page without its parsed tree, which scoring does not read."""
    return dataclasses.replace(page, doc=dataclasses.replace(page.doc, root=_NO_TREE))


def page_keys(items: Sequence[Item], opts: BatchOptions, keep_blocks: int = 0) -> list[tuple[Any, ...]]:
    """Pass 1 over some items: per item ``(site, keys_or_None, page_or_None)`` or ``(PageError,)``.

    Up to ``keep_blocks`` blocks' worth of prepared pages are returned for reuse in pass 2;
    their keys are left for later (None), since hashing a page whose site turns out to have
    no other page in the batch is wasted. A page that can never get evidence (no site, no
    profile) is not hashed either.
    """
    out: list[tuple[Any, ...]] = []
    for item in items:
        page = _prepare(item, opts)
        if isinstance(page, PageError):
            out.append((page,))
            continue
        keep = 0 < keep_blocks and len(page.blocks) <= keep_blocks  # never sent between processes
        if keep:
            keep_blocks -= len(page.blocks)
        hashed = not keep and (page.site is not None or opts.site_profile is not None)
        out.append((page.site, block_keys(page.blocks) if hashed else None, _light(page) if keep else None))
    return out


def site_evidence(sites: Sequence[str | None], keys: Sequence[Any], opts: BatchOptions) -> list[Any]:
    """Per page, the repetition evidence `extract_batch` would give it in the whole batch."""
    if not opts.use_site:
        return [None] * len(keys)
    return batch_repetition(keys, sites, opts.site_profile)


def score_chunk(items: Sequence[Item], opts: BatchOptions, evidence: Sequence[Any] | None = None,
                pages: Sequence[Page | PageError | None] | None = None) -> list[Outcome]:
    """Pass 2 over a chunk: prepare (unless ``pages`` has them), score together, transform.

    Without ``evidence`` the chunk is scored like `extract_batch` scores a batch on its own.
    """
    t0 = time.perf_counter()
    prepared = [p if p is not None else _prepare(it, opts) for it, p in zip(items, pages or [None] * len(items))]
    ok = [i for i, p in enumerate(prepared) if not isinstance(p, PageError)]
    outcomes = [Outcome(it.name, error=p if isinstance(p, PageError) else None) for it, p in zip(items, prepared)]
    mdl = _resolve_model(opts.model)
    kwargs: dict[str, Any] = dict(model=mdl, favor=opts.favor, threshold=opts.threshold,
                                  site_profile=opts.site_profile, use_site=opts.use_site, explain=opts.explain,
                                  comments=opts.comments)
    ready = [p for p in prepared if not isinstance(p, PageError)]
    try:
        reps = [evidence[i] for i in ok] if evidence is not None else None
        results: list[Result | PageError] = list(extract_batch(ready, repetition=reps, **kwargs)) if ready else []
    except Exception:  # find the page that breaks the chunk; score the others alone
        log.debug("chunk failed, scoring its pages one by one", exc_info=True)
        results = []
        for j, i in enumerate(ok):
            try:
                rep = [evidence[i]] if evidence is not None else None
                results.append(extract_batch([ready[j]], repetition=rep, **kwargs)[0])
            except Exception as exc:
                results.append(PageError("error", f"scoring failed: {type(exc).__name__}: {exc}"))
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


def _chunks(items: Iterable[Item], size: int) -> Iterator[list[Item]]:
    chunk: list[Item] = []
    for item in items:
        chunk.append(item)
        if len(chunk) >= size:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


class _Progress:
    """A tqdm bar on stderr when enabled; silent otherwise, or when tqdm is not installed.

    The caller decides whether stderr is worth drawing on (the command line: only a terminal).
    """

    def __init__(self, enabled: bool, total: int | None, desc: str) -> None:
        self.bar = None
        if enabled:
            try:
                from tqdm import tqdm
            except ImportError:
                return
            self.bar = tqdm(total=total, desc=desc, unit="page", file=sys.stderr, leave=False)

    def update(self, n: int) -> None:
        if self.bar is not None:
            self.bar.update(n)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


def _map(fn: Callable[..., Any], tasks: Iterable[tuple[Any, ...]], jobs: int) -> Iterator[Any]:
    """Apply ``fn`` to each task tuple, in order; with ``jobs`` > 1 in joblib worker processes."""
    if jobs <= 1:
        for args in tasks:
            yield fn(*args)
        return
    from joblib import Parallel, delayed

    yield from Parallel(n_jobs=jobs, return_as="generator")(delayed(fn)(*args) for args in tasks)


def run_batch(items: Items, opts: BatchOptions | None = None, jobs: int = 1,
              progress: bool = False) -> Iterator[Outcome]:
    """Extract every item, yielding one `Outcome` per item in input order.

    ``items`` is a sequence, or a function returning a fresh iterable (read once per pass).
    ``jobs`` > 1 runs parsing and scoring in that many joblib worker processes.
    """
    opts = opts or BatchOptions()
    if isinstance(opts.model, Model) and jobs > 1:
        log.info("a model object is sent to every worker; pass a model path to load it once per worker")

    def fresh() -> Iterable[Item]:
        return items() if callable(items) else items

    total = None if callable(items) else len(items)
    if not opts.use_site:
        yield from _scored(fresh(), opts, None, None, jobs, progress, total)
        return
    # pass 1: sites and block keys only
    sites: list[str | None] = []
    keys: list[Any] = []
    failed: dict[int, PageError] = {}
    cached: dict[int, Page] = {}
    budget = opts.cache_blocks if jobs <= 1 else 0
    bar = _Progress(progress, total, "reading sites")
    tasks = ((chunk, opts, budget) for chunk in _chunks(fresh(), opts.chunk_size))
    for rows in _map(page_keys, tasks, jobs):
        for row in rows:
            i = len(sites)
            if len(row) == 1:
                failed[i] = row[0]
                sites.append(None)
                keys.append(None)
                continue
            sites.append(row[0])
            keys.append(row[1])
            if row[2] is not None:
                cached[i] = row[2]
                budget -= len(row[2].blocks)
        bar.update(len(rows))
    bar.close()
    per_site = Counter(sites)
    for i, page in cached.items():  # kept pages are hashed only if their site can give evidence
        if keys[i] is None and may_get_evidence(page.site, per_site, opts.site_profile):
            keys[i] = block_keys(page.blocks)
    ok = [i for i in range(len(sites)) if i not in failed]
    evidence: list[Any] = [None] * len(sites)
    for i, rep in zip(ok, site_evidence([sites[i] for i in ok], [keys[i] for i in ok], opts)):
        evidence[i] = rep
    del keys
    yield from _scored(fresh(), opts, evidence, (failed, cached), jobs, progress, len(sites))


def _scored(items: Iterable[Item], opts: BatchOptions, evidence: list[Any] | None,
            known: tuple[dict[int, PageError], dict[int, Page]] | None, jobs: int, progress: bool,
            total: int | None) -> Iterator[Outcome]:
    """Pass 2: score the items chunk by chunk, in order."""
    failed, cached = known or ({}, {})
    bar = _Progress(progress, total, "extracting")

    def tasks() -> Iterator[tuple[Any, ...]]:
        start = 0
        for chunk in _chunks(items, opts.chunk_size):
            idx = range(start, start + len(chunk))
            start += len(chunk)
            pages = [failed.get(i) or cached.pop(i, None) for i in idx]
            yield chunk, opts, [evidence[i] for i in idx] if evidence is not None else None, pages

    try:
        for outcomes in _map(score_chunk, tasks(), jobs):
            bar.update(len(outcomes))
            yield from outcomes
    finally:
        bar.close()
