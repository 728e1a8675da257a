"""From a page (or a batch of pages) to a `Result`: per-block scores, decisions, warnings.

The favor mode picks the threshold stored in the model (``balanced``: best F1 on held-out
sites; ``precision`` and ``recall``: aimed at mean page precision 0.95 and recall 0.97, see
`blockclf.thresholds`); a raw ``threshold`` overrides it. In a batch,
pages of the same site are profiled together so that each page gets cross-page repetition
evidence from the others, and are scored a run of blocks at a time (`SCORE_BLOCKS`).
"""

from __future__ import annotations

import logging
import time
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from . import refine, region, threads
from .ads import contents_decision, label_kind, label_mask, rail_mask, toc_mask
from .block import Block
from .checks import INDEX_THRESHOLD_SHARE, MIN_KEPT_CHARS, PageChecks, page_checks, site_checks
from .comments import (
    comment_mask,
    comment_roots,
    discussion_page,
    may_have_comments,
    page_tokens,
)
from .data import registered_domain
from .explain import NEVER_KEPT, hidden_kind
from .features import FEATURES, feature_matrix
from .headline import site_free_headline
from .headline import site_titles as batch_site_titles
from .html import Document, Limits, PageError, Source, parse
from .metadata import page_metadata
from .model import SURE_RANGE, Model, cached_model
from .repeats import repeat_mask
from .result import Page, Reason, Result
from .reviews import review_mask, review_roots
from .segment import segment
from .site import (
    SiteProfile,
    batch_repetition,
    block_keys,
    cap_headline_repetition,
    cap_label_repetition,
    keep_labels,
    label_value_pairs,
    may_get_evidence,
)
from .tables import keep_whole_tables

__all__ = ["Page", "Result", "extract", "extract_batch", "prepare"]

log = logging.getLogger("blockclf")

#: what `extract_batch` may do with readers' comment threads
COMMENT_MODES = ("remove", "keep", "separate")


def prepare(source: Source, *, encoding: str | None = None, url: str | None = None, site: str | None = None,
            name: str | None = None, limits: Limits | None = None) -> Page:
    """Parse and segment one page. Raises `PageError` for unusable input.

    ``<noscript>`` text is read like any other (the model weighs it); a page with no text
    outside ``<noscript>`` is flagged ``noscript-only``, and one whose only text is hidden,
    ``hidden-only``.
    """
    doc = parse(source, encoding=encoding, limits=limits)
    blocks = segment(doc, limits, page_url=url)
    visible = [b for b in blocks if not b.hidden]
    hidden = [b for b in blocks if b.hidden] if len(visible) < len(blocks) else []
    if visible and all("noscript" in b.ancestors for b in visible):
        doc.warnings.append("noscript-only")
    if blocks and not visible:  # the page shows nothing until its scripts run
        doc.warnings.append("hidden-only")
    if not blocks and doc.root.find(".//frameset") is not None:
        frames = [src for f in doc.root.iter("frame", "iframe") if (src := f.get("src"))]
        raise PageError("frameset", "page is a frameset with no text of its own; its content is in "
                        + (f"the frames {', '.join(frames[:5])}" if frames else "frame documents"))
    if not blocks:
        doc.warnings.append("no-text")
    revealed = _revealed(doc, limits, url) if hidden and sum(len(b.text) for b in visible) < MIN_KEPT_CHARS else None
    page_url = url or doc.url
    meta = page_metadata(doc, visible, url)
    tokens = page_tokens(blocks)
    roots = tuple(comment_roots(doc.root, blocks)) if may_have_comments(blocks, tokens) else ()
    reviews = tuple(review_roots(doc.root, blocks, tokens))
    left = doc.deadline - time.monotonic() if doc.deadline is not None else None
    return Page(doc, visible, name=name, url=page_url, site=site or registered_domain(page_url), hidden=hidden,
                metadata=meta, comment_roots=roots, review_roots=reviews, budget_left=left, revealed=revealed)


def _revealed(doc: Document, limits: Limits | None, url: str | None) -> list[Block] | None:
    """The page read with its hidden elements shown (`segment` with ``reveal``): a page whose
    visible text cannot reach `MIN_KEPT_CHARS` is read with its hidden blocks (`_with_hidden`),
    and so they keep their structure. None when that second walk runs out of the page's time
    or node budget: the hidden blocks are then read as they are."""
    try:
        return segment(doc, limits, page_url=url, reveal=True)
    except PageError:
        return None


def _reasons(model: Model, table: np.ndarray, top: int) -> list[list[Reason]]:
    """The ``top`` columns that moved each block's final score most (``table``: what it read)."""
    contrib = model.contributions(table)
    names = model.columns
    out = []
    for row, vals in zip(contrib[:, :-1], table):
        order = np.argsort(-np.abs(row))[:top]
        out.append([Reason(names[j], float(vals[j]), float(row[j])) for j in order])
    return out


def _tables(model: Model, pages_blocks: Sequence[Sequence[Block]], titles: Sequence[str],
            reps: Sequence[Any]) -> tuple[list[np.ndarray], list[np.ndarray] | None]:
    """Each page's feature table, and its container codes when the model refines its scores.

    The features walk the blocks' element paths up anyway; a refining model reuses that walk.
    """
    if model.refiner is None:
        return [feature_matrix(blocks, t, r) for blocks, t, r in zip(pages_blocks, titles, reps)], None
    tables, boxes = [], []
    for blocks, t, r in zip(pages_blocks, titles, reps):
        xpaths = [b.xpath for b in blocks]
        ancestors = region.page_ancestors(xpaths)
        tables.append(feature_matrix(blocks, t, r, ancestors))
        boxes.append(refine.containers(xpaths, ancestors))
    return tables, boxes


@dataclass
class _Decisions:
    """A page's blocks with their scores, decisions and reasons, on the way to its `Result`."""

    blocks: list[Block]
    scores: np.ndarray
    kept: np.ndarray
    reasons: list[list[Reason]] | None
    read_hidden: bool = False
    #: the page's first reading was an index, and its second, at a lower threshold, stands
    read_as_index: bool = False
    #: the page's first reading was an index or a reference, and its second, a reference, stands
    read_as_reference: bool = False
    #: the favor mode's threshold kept nothing visible and the balanced one's reading stands
    read_at_balanced: bool = False
    #: the page kept nothing, and its second reading, at a lower threshold and not an index, stands
    read_lower: bool = False
    #: per block, its part in the page's thread (`threads.Thread.roles`), None on other pages
    post: np.ndarray | None = None
    #: per block, the thread's post it is in (`threads.Thread.numbers`), None on other pages
    post_number: np.ndarray | None = None
    #: per block, whether the thread removes it from every post (`threads.Thread.forced`)
    post_dropped: np.ndarray | None = None
    #: per block, the rule that removed it (`Result.removed_by`), None where the rules left
    #: the model's decision
    removed_by: list[str | None] | None = None
    #: per block, the rule that kept it whatever it scored (`Result.kept_by`), None elsewhere
    kept_by: list[str | None] | None = None


def _mark(why: list[str | None], mask: np.ndarray, reason: str) -> None:
    """Name ``reason`` as what removed the blocks flagged in ``mask`` that no earlier rule removed."""
    for i in np.flatnonzero(mask).tolist():
        if why[i] is None:
            why[i] = reason


def _mark_labels(why: list[str | None], blocks: Sequence[Block], mask: np.ndarray) -> None:
    """Name each label's kind (`ads.label_kind`: ``ad-label``, ``share-label``...) as what removed it."""
    for i in np.flatnonzero(mask).tolist():
        why[i] = label_kind(blocks[i])


def _with_hidden(dec: _Decisions, page: Page, mdl: Model, threshold: float, explain: bool, top: int,
                 sure: bool = False) -> _Decisions:
    """The decisions with the page's hidden blocks put in, in document order.

    Normally they are removed unscored (score 0): hidden text is mostly menus, dialogs and
    templates. When the visible blocks keep under `MIN_KEPT_CHARS`, the page likely hides
    its content until scripts run (tabs, product details, pages revealed by script), so the
    whole page is scored again with its hidden blocks read like visible ones (without site
    evidence; from `Page.revealed`, where the hidden elements keep their headings and
    paragraphs, when the page's visible text was that short) and flagged ``read-hidden``. A
    consent dialog, a site's notice or a hidden button's label is never kept then either
    (`explain.NEVER_KEPT`): a dialog lies over the page until dismissed, and on such a page it
    is often the only text in view.
    """
    merged = sorted(page.blocks + page.hidden, key=lambda b: b.index)
    kept_chars = sum(len(b.text) for b, k in zip(dec.blocks, dec.kept) if k)
    if kept_chars < MIN_KEPT_CHARS:
        shown_all = page.revealed if page.revealed is not None else merged  # hidden text with its structure
        tables, boxes = _tables(mdl, [shown_all], [page.doc.title], [None])
        scores, table = mdl.score(tables[0], boxes, sure=sure)
        read_by: list[str | None] = [None] * len(shown_all)
        kept = _kept_with(shown_all, scores >= threshold, label_value_pairs(shown_all), read_by)
        kept &= np.array([hidden_kind(b) not in NEVER_KEPT for b in shown_all], dtype=bool)
        if any(b.hidden for b, k in zip(shown_all, kept) if k):  # else the visible reading stands
            return _Decisions(shown_all, scores, kept, _reasons(mdl, table, top) if explain else None,
                              read_hidden=True, kept_by=read_by)
    # the visible blocks keep their order among the merged ones: their results drop into place
    shown = np.array([not b.hidden for b in merged])
    scores, kept = np.zeros(len(merged)), np.zeros(len(merged), dtype=bool)
    scores[shown], kept[shown] = dec.scores, dec.kept
    reasons = None
    if dec.reasons is not None:
        given = iter(dec.reasons)
        reasons = [next(given) if s else [] for s in shown]
    kept_by: list[str | None] | None = None
    if dec.kept_by is not None:
        rules = iter(dec.kept_by)
        kept_by = [next(rules) if s else None for s in shown]
    return _Decisions(merged, scores, kept, reasons, kept_by=kept_by)


#: seconds that features and scoring take per block, with a margin (22 us measured on the
#: 2-core machine the benchmarks run on): what a page's time budget must still hold
SCORING_SECONDS_PER_BLOCK = 30e-6


def _kept_with(blocks: Sequence[Block], over: np.ndarray, pairs: Sequence[tuple[int, int]],
               kept_by: list[str | None]) -> np.ndarray:
    """The blocks kept when those ``over`` the threshold are: with the labels of kept values
    (`site.keep_labels`) and the data tables half kept made whole (`tables.keep_whole_tables`),
    each named in ``kept_by`` (``label-value``, ``table-whole``) where it was not over."""
    labelled = keep_labels(over, pairs)
    kept = keep_whole_tables(blocks, labelled)
    _mark(kept_by, labelled & ~over, "label-value")
    _mark(kept_by, kept & ~labelled, "table-whole")
    return kept


def _check_scoring_budget(page: Page) -> None:
    """Raise `PageError` ``timeout`` when what is left of the page's time budget (from
    `Limits.max_seconds`) cannot cover featurising and scoring its blocks."""
    left = page.budget_left
    if left is None:  # a page made without `prepare`: the budget runs from its parse
        deadline = page.doc.deadline
        if deadline is None:
            return
        left = deadline - time.monotonic()
    need = (len(page.blocks) + len(page.hidden)) * SCORING_SECONDS_PER_BLOCK
    if need > left:
        raise PageError("timeout", f"page would take longer than its time budget: {len(page.blocks)} blocks "
                        "left to score")


#: at most this many blocks are scored in one LightGBM call (feature tables: 2 KB a block, and
#: a copy while they are stacked), while a batch's decisions (and what each site's pages say
#: of each other, `checks.site_checks`) span all its pages. One folder of 5,000 pages, in all
#: processes: 463 MB (491 with the removal log) against 488 (510) at 6,000, at the same speed
SCORE_BLOCKS = 4_000


def score_runs(pages: Sequence[Page], limit: int) -> Iterator[list[int]]:
    """Indices of ``pages`` in runs of at most ``limit`` blocks (a larger page runs alone); a
    page's hidden blocks are scored on their own, page by page, and count for nothing here."""
    run: list[int] = []
    size = 0
    for i, page in enumerate(pages):
        n = len(page.blocks)
        if run and size + n > limit:
            yield run
            run, size = [], 0
        run.append(i)
        size += n
    if run:
        yield run


def extract_batch(pages: Sequence[Page], *, model: Model | str | Path | None = None, favor: str = "balanced",
                  threshold: float | None = None, site_profile: SiteProfile | None = None,
                  use_site: bool = True, explain: bool = False, top_reasons: int = 3,
                  repetition: Sequence[Any] | None = None, comments: str = "remove",
                  site_titles: Sequence[frozenset[str]] | None = None, exact_scores: bool = False) -> list[Result]:
    """Score already prepared pages together.

    With ``use_site``, pages sharing a site (and a ``site_profile``, if given) supply each
    other's repetition evidence, from two other pages on (a page with fewer is scored as it
    is alone); a page never counts as evidence for itself. ``repetition``
    gives that evidence ready-made, one `batch_repetition` entry per page (a streaming batch
    computes it over more pages than it scores at once). With ``use_site``, a page's headline
    also loses the title parts that its site's other pages share (`headline.site_titles`:
    the site's name, section or tagline); ``site_titles`` gives them ready-made, one set per
    page, as ``repetition`` does the evidence. ``comments``: blocks of readers'
    comment threads are removed from the main text (``remove``, the default, and ``separate``,
    which `Result.to_dict` gives apart) or left to the model (``keep``).

    A block's score is summed over the model's trees only until it is sure (under 0.018 or
    over 0.982; `blockclf.model.SURE_MARGIN`), where that cannot change what is kept: when
    every threshold the pages are cut at lies inside `blockclf.model.SURE_RANGE` and no
    ``explain`` is asked (whose contributions add up to the full sum). Such a score is within
    `blockclf.model.SURE_DEVIATION` of the full sum; ``exact_scores`` sums every tree (to
    draw a page's curve over all thresholds from its scores, say).
    """
    if comments not in COMMENT_MODES:
        raise ValueError(f"comments must be one of {', '.join(COMMENT_MODES)}, not {comments!r}")
    bad = next((p for p in pages if not isinstance(p, Page)), None)
    if bad is not None:
        raise TypeError(f"extract_batch() takes pages from blockclf.prepare(), not {type(bad).__name__}: "
                        "prepare each page first, or call blockclf.extract() for one")
    mdl = cached_model(model)
    thr = float(threshold) if threshold is not None else mdl.threshold(favor)
    # a favor mode stricter than the balanced one never writes nothing where that one writes something
    balanced = mdl.thresholds.get("balanced")
    fallback = balanced if threshold is None and balanced is not None and balanced < thr else None
    reps: list[Any] = [None] * len(pages)
    if repetition is not None:
        reps = list(repetition)
    elif use_site:
        # hashing every block costs a page ~1 ms: only pages that can get evidence are hashed
        per_site = Counter(p.site for p in pages)
        keys = [block_keys(p.blocks) if may_get_evidence(p.site, per_site, site_profile) else None for p in pages]
        reps = batch_repetition(keys, [p.site for p in pages], site_profile)
    if site_titles is None and use_site:
        site_titles = batch_site_titles([p.site for p in pages], [(p.doc.title, p.metadata.title) for p in pages])
    heads = _headlines(pages, site_titles)
    # form labels repeat by design: a label counts as no more repeated than its value
    pairs = [label_value_pairs(p.blocks) for p in pages]
    # and a page's headline is its own, though its site's rails link to it from other pages
    for i, rep in enumerate(reps):
        if rep is not None:
            text_rep = cap_label_repetition(rep[0], pairs[i]) if pairs[i] else rep[0]
            text_rep = cap_headline_repetition(text_rep, pages[i].blocks, heads[i]) if heads[i] else text_rep
            reps[i] = (text_rep, rep[1], rep[2])
    for p in pages:
        _check_scoring_budget(p)
    # every cut the pages may be read at: the threshold, a balanced fallback, an index page's
    # lower reading of either, a thread's confident posts
    lowest = min(thr, fallback if fallback is not None else thr) * INDEX_THRESHOLD_SHARE
    sure = not (exact_scores or explain) and SURE_RANGE[0] < lowest and max(thr, threads.MIN_CONFIDENT) < SURE_RANGE[1]
    rows: list[int] = []  # per page, its blocks' rows
    parts: list[np.ndarray] = []
    reasons: list[list[Reason]] | None = [] if explain else None
    for run in score_runs(pages, SCORE_BLOCKS):  # feature tables a run at a time: a batch's peak is one run's
        tables, boxes = _tables(mdl, [pages[i].blocks for i in run], [pages[i].doc.title for i in run],
                                [reps[i] for i in run])
        X = tables[0] if len(tables) == 1 else np.vstack(tables) if tables else np.empty((0, len(FEATURES)))
        rows += [len(t) for t in tables]
        if len(X):
            part, final = mdl.score(X, boxes, sure=sure)
            parts.append(part)
            if reasons is not None:
                reasons += _reasons(mdl, final, top_reasons)
        del tables, boxes, X
    scores = np.concatenate(parts) if parts else np.zeros(0)
    if not len(scores):
        reasons = None
    decided: list[tuple[Page, str, _Decisions, np.ndarray, PageChecks, float]] = []
    start = 0
    for p, n, pp, head in zip(pages, rows, pairs, heads):
        s = scores[start:start + n]
        kept_by: list[str | None] = [None] * n
        kept, page_thr = _kept_with(p.blocks, s >= thr, pp, kept_by), thr
        if fallback is not None and not kept.any():
            lower_by: list[str | None] = [None] * n
            lower = _kept_with(p.blocks, s >= fallback, pp, lower_by)
            if lower.any():
                kept, page_thr, kept_by = lower, fallback, lower_by
        dec = _Decisions(p.blocks, s, kept, reasons[start:start + n] if reasons is not None else None,
                         kept_by=kept_by)
        if p.hidden:
            dec = _with_hidden(dec, p, mdl, page_thr, explain, top_reasons, sure)
        held = dec.kept_by = dec.kept_by if dec.kept_by is not None else [None] * len(dec.blocks)
        dec.read_at_balanced = page_thr != thr
        comment = comment_mask(dec.blocks, p.comment_roots, dec.kept, discussion_page(p.url))
        if p.review_roots:  # a product page's customers' reviews are comments too
            comment |= review_mask(dec.blocks, p.review_roots, dec.kept)
        # what removed each block, where a rule did: a rule over a whole unit (a comment
        # thread, a thread's posts, a rail, a table of contents) names every block of the unit
        # it removes, a rule over single kept blocks (labels, a contents' title, repeats) each
        # block it turned from kept to removed
        why: list[str | None] = [None] * len(dec.blocks)
        if comments != "keep":  # readers' comments are not the article: removed, or returned apart
            dec.kept = dec.kept & ~comment
            _mark(why, comment, "comment")
        # a thread page's posts are its content: each post's body kept, its furniture removed,
        # its header line written in every post or in none
        thread = threads.find_thread(dec.blocks, dec.scores, dec.kept, comment)
        if thread is not None:
            keep, dec.post_dropped = thread.forced()
            for role, reason in threads.POST_KEPT.items():
                _mark(held, keep & ~dec.kept & (thread.roles == role), reason)
            dec.kept = (dec.kept | keep) & ~dec.post_dropped
            dec.post, dec.post_number = thread.roles, thread.numbers
            for role, reason in threads.POST_REASONS.items():
                _mark(why, dec.post_dropped & (thread.roles == role), reason)
        # an ad slot's or a share bar's label is never content, whatever it scored
        labels = label_mask(dec.blocks, dec.kept)
        dec.kept = dec.kept & ~labels
        _mark_labels(why, dec.blocks, labels)
        rail = rail_mask(dec.blocks)
        dec.kept = dec.kept & ~rail  # and a shop's rail of other products
        _mark(why, rail, "related-rail")
        # a table of contents whole or not at all, never joined by what was removed above
        entries, contents = contents_decision(dec.blocks, dec.kept, p.url)
        entries &= ~(rail | comment) if comments != "keep" else ~rail
        _mark(held, entries & ~dec.kept, "toc-entry")
        dec.kept = (dec.kept | entries) & ~contents
        _mark(why, contents, "toc-entry")
        rail |= contents
        toc = toc_mask(dec.blocks, dec.kept)
        dec.kept = dec.kept & ~toc  # and the title of contents not kept
        _mark(why, toc, "toc-label")
        apart = comment | (dec.post != threads.OUTSIDE) if dec.post is not None else comment
        again = repeat_mask(dec.blocks, dec.kept, apart)
        dec.kept = dec.kept & ~again  # and what was just written
        _mark(why, again, "repeat")
        dec.removed_by = why
        dated = bool(p.metadata.date or p.metadata.modified or p.metadata.author)
        checks = page_checks(dec.blocks, dec.kept, head, p.url, dated, thread is not None)
        if (checks.verdict == "index" or checks.reference or not dec.kept.any()) and threshold is None:
            # the label/value pairs are the batch's unless hidden blocks joined the page's blocks
            page_pairs = pp if dec.blocks is p.blocks else label_value_pairs(dec.blocks)
            second = _index_reading(p, head, dec, page_pairs, comment if comments != "keep" else None,
                                   page_thr * INDEX_THRESHOLD_SHARE, dated, rail, apart)
            if second is not None:
                dec.kept, checks, page_thr = second[0], second[1], page_thr * INDEX_THRESHOLD_SHARE
                dec.removed_by, dec.kept_by = second[2], second[3]
                dec.read_as_index = checks.verdict == "index"
                dec.read_as_reference = checks.reference
                dec.read_lower = not (dec.read_as_index or dec.read_as_reference)
        decided.append((p, head, dec, comment, checks, page_thr))
        start += n
    checked = site_checks([(p.site, checks) for p, _head, _dec, _comment, checks, _thr in decided])
    return [_result(p, head, dec, comment, checks, page_thr, None if threshold is not None else favor, comments)
            for (p, head, dec, comment, _checks, page_thr), checks in zip(decided, checked)]



def _headlines(pages: Sequence[Page], site_titles: Sequence[frozenset[str]] | None) -> list[str]:
    """Each page's headline, without its site's title parts when they are given."""
    if site_titles is None:
        return [_title(p) for p in pages]
    return [site_free_headline(_title(p), p.doc.title, parts) or "" for p, parts in zip(pages, site_titles)]


def _index_reading(page: Page, head: str, dec: _Decisions, pairs: Sequence[tuple[int, int]],
                   comment: np.ndarray | None, threshold: float, dated: bool,
                   rail: np.ndarray, apart: np.ndarray
                   ) -> tuple[np.ndarray, PageChecks, list[str | None], list[str | None]] | None:
    """The decisions of an index page, a reference (`checks.PageChecks.reference`) or a page
    that kept nothing, read again at the lower ``threshold``, their checks, what removed each
    block (`Result.removed_by`) and what kept it whatever it scored (`Result.kept_by`).

    A listing's items, a thread's short posts and a reference's short entries score under an
    article's paragraphs but above the page's menus, so a page whose first reading is an
    `index` (or a reference) keeps, besides what
    it kept, every visible block scored ``threshold`` or more that is not a readers' comment
    (``comment``, when comments are removed) nor what the thread removes from every post (its
    furniture, and its header lines when they are not written) nor an ad slot's or a share
    bar's label (`ads.label_mask`) nor part of a shop's rail of other products (`ads.rail_mask`),
    and no copy of the block kept right before it (`repeats.repeat_mask`). The second reading
    of an index or a reference stands only when it is still one of them (else the first
    reading stands). A first reading that kept nothing gives way to any second one
    that keeps something: an empty output for a page with an article (a news story whose
    paragraphs all scored just under the threshold) is the worst over-removal there is.
    None when the second reading keeps nothing more, or does not stand.
    ``pairs``: the blocks' `label_value_pairs`; ``head``: the page's headline; ``rail``: the
    blocks' `ads.rail_mask` and the tables of contents removed, read once for both readings;
    ``apart``: the blocks `repeat_mask` never compares (readers' comments, a thread's posts).
    """
    kept_by: list[str | None] = [None] * len(dec.blocks)
    more = _kept_with(dec.blocks, dec.scores >= threshold, pairs, kept_by)
    shown = np.fromiter((not b.hidden for b in dec.blocks), bool, len(dec.blocks))
    hidden = more & ~shown & ~dec.kept  # hidden text scored over the lower threshold, not let in
    more &= shown
    if comment is not None:
        more &= ~comment
    if dec.post_dropped is not None:
        more &= ~dec.post_dropped
    labels = label_mask(dec.blocks, more & ~dec.kept)
    more &= ~labels
    more &= ~rail
    kept = dec.kept | more
    toc = toc_mask(dec.blocks, kept)
    kept &= ~toc
    again = repeat_mask(dec.blocks, kept, apart)
    kept &= ~again
    if not (kept & ~dec.kept).any():
        return None
    checks = page_checks(dec.blocks, kept, head, page.url, dated, dec.post is not None)
    if checks.verdict != "index" and not checks.reference and dec.kept.any():
        return None
    # the blocks this reading lets in are decided again by its rules
    why = [None if m else w for w, m in zip(dec.removed_by or [None] * len(dec.blocks), more.tolist())]
    _mark_labels(why, dec.blocks, labels)
    _mark(why, toc, "toc-label")
    _mark(why, again, "repeat")
    _mark(why, hidden, "hidden")
    # the rules of the first reading stand for what it kept (a table of contents, a thread's posts)
    return kept, checks, why, [b if k else a for a, b, k in zip(kept_by, dec.kept_by or kept_by, dec.kept.tolist())]


def _title(page: Page) -> str:
    return page.metadata.title or page.doc.title


def _result(page: Page, head: str, dec: _Decisions, comment: np.ndarray, checks: PageChecks, threshold: float,
            favor: str | None, comments: str) -> Result:
    """A page's `Result`, built once from its decisions and checks."""
    warnings = (list(page.doc.warnings) + (["read-hidden"] if dec.read_hidden else [])
                + (["read-as-index"] if dec.read_as_index else [])
                + (["read-as-reference"] if dec.read_as_reference else [])
                + (["read-at-balanced"] if dec.read_at_balanced else [])
                + (["read-lower"] if dec.read_lower else []) + list(checks.warnings))
    return Result(blocks=dec.blocks, scores=dec.scores, kept=dec.kept, threshold=threshold, favor=favor,
                  title=head, url=page.url, site=page.site, name=page.name, encoding=page.doc.encoding,
                  warnings=warnings, verdict=checks.verdict, stats=checks.stats, reasons=dec.reasons,
                  metadata=page.metadata, comment=comment, comments=comments, post=dec.post,
                  post_number=dec.post_number,
                  removed_by=[None if k else w for w, k in zip(dec.removed_by, dec.kept.tolist())]
                  if dec.removed_by is not None else None,
                  kept_by=[w if k and s < threshold else None
                           for w, k, s in zip(dec.kept_by, dec.kept.tolist(), dec.scores.tolist())]
                  if dec.kept_by is not None else None)


def extract(source: Source, *, model: Model | str | Path | None = None, favor: str = "balanced",
            threshold: float | None = None, url: str | None = None, encoding: str | None = None,
            site_profile: SiteProfile | None = None, explain: bool = False,
            limits: Limits | None = None, comments: str = "remove", exact_scores: bool = False) -> Result:
    """Extract the main content of one page (HTML bytes, text, or a path).

    Raises `PageError` when the input is not a usable page and `ModelError` when the model
    file is not usable. ``exact_scores``: see `extract_batch`.
    """
    page = prepare(source, encoding=encoding, url=url, limits=limits,
                   name=str(source) if isinstance(source, Path) else None)
    return extract_batch([page], model=model, favor=favor, threshold=threshold,
                         site_profile=site_profile, explain=explain, comments=comments, exact_scores=exact_scores)[0]


def page_error(exc: Exception, name: str | None = None) -> PageError:
    """Any failure of one page as the `PageError` that skips it: a `PageError` as it is, a read
    failure as ``unreadable``, anything else (a bug, a library failure) as ``error``, logged."""
    if isinstance(exc, PageError):
        return exc
    if isinstance(exc, OSError):
        return PageError("unreadable", f"cannot read ({exc.strerror or exc})")
    log.debug("%s: unexpected failure", name, exc_info=True)
    return PageError("error", f"{type(exc).__name__}: {exc}")


def prepare_or_error(source: Source, name: str, **kwargs: Any) -> Page | PageError:
    """`prepare` one named page, its `PageError` (`page_error`) in place of any failure."""
    try:
        return prepare(source, name=name, **kwargs)
    except Exception as exc:  # a failure of one page must not end the batch
        return page_error(exc, name)


def prepare_many(sources: Iterable[tuple[str, Source]], **kwargs: Any) -> Iterable[tuple[str, Page | PageError]]:
    """Prepare named sources, yielding a `PageError` in place of each unusable page (`page_error`)."""
    for name, src in sources:
        yield name, prepare_or_error(src, name, **kwargs)
