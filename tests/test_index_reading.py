"""An index page, or a reference, is read again at a lower threshold (docs/page-signals.md); other pages are not."""

from __future__ import annotations

import copy

import numpy as np
import pytest

from blockclf.checks import INDEX_THRESHOLD_SHARE
from blockclf.model import cached_model
from blockclf.predict import extract_batch, prepare

NAV = "".join(f'<a href="/s{i}">Section {i}</a> ' for i in range(8))
PROSE = "The river cut a new channel through the soft plain after the flood, and the town moved uphill. "
TEASERS = "".join(f'<div class="card"><h3><a href="/story-{i}">Story number {i} about the river</a></h3>'
                  f"<p>A short teaser for story {i}.</p></div>" for i in range(12))
LISTING = f"<title>River news</title><nav>{NAV}</nav><h1>River news</h1>{TEASERS}"


def _teaser(text: str) -> bool:
    return text.startswith(("Story number", "A short teaser"))


def _scored(html: str, score_of, threshold: float | None = None):
    """The page's `Result` when the shipped model gives each block ``score_of(block)``."""
    page = prepare(html.encode(), url="https://example.org/stories/")
    scores = np.array([score_of(b) for b in page.blocks])
    model = copy.copy(cached_model(None))
    model.score = lambda X, boxes=None, sure=False: (scores, X)  # type: ignore[method-assign]
    return extract_batch([page], model=model, threshold=threshold)[0]


def test_listing_items_under_the_threshold_are_kept_on_an_index_page():
    thr = cached_model(None).threshold("balanced")
    res = _scored(LISTING, lambda b: 0.9 if b.text == "River news" else 0.75 * thr if _teaser(b.text) else 0.02)
    assert res.verdict == "index" and "read-as-index" in res.warnings
    assert res.threshold == pytest.approx(thr * INDEX_THRESHOLD_SHARE)
    kept = [b.text for b, k in zip(res.blocks, res.kept) if k]
    assert sum(_teaser(t) for t in kept) == 24 and not any(t.startswith("Section") for t in kept)
    # what the JSON says is recomputable: every kept block scored at least the page's threshold
    assert (res.scores[res.kept] >= res.threshold).all() and (res.scores[~res.kept] < res.threshold).all()


def test_a_threshold_given_explicitly_is_applied_as_given():
    thr = cached_model(None).threshold("balanced")
    res = _scored(LISTING, lambda b: 0.9 if b.text == "River news" else 0.75 * thr if _teaser(b.text) else 0.02,
                     threshold=thr)
    assert res.threshold == thr and "read-as-index" not in res.warnings
    assert not any(k for b, k in zip(res.blocks, res.kept) if _teaser(b.text))


def test_a_document_keeps_its_threshold():
    thr = cached_model(None).threshold("balanced")
    html = f"<title>River cut a channel</title><h1>River cut a channel</h1><p>{PROSE * 40}</p>{TEASERS}"
    res = _scored(html, lambda b: 0.95 if b.text.startswith(("The river", "River cut")) else 0.75 * thr
                     if _teaser(b.text) else 0.02)
    assert res.verdict == "document" and res.threshold == thr
    assert not any(k for b, k in zip(res.blocks, res.kept) if _teaser(b.text))


def test_a_second_reading_that_is_no_index_is_not_taken():
    """Blocks just under the threshold that would make the page an article are left out."""
    thr = cached_model(None).threshold("balanced")
    body = "".join(f"<p>{PROSE * 2}(part {i})</p>" for i in range(25))  # distinct: a copy is written once
    html = LISTING + f'<div class="more">{body}</div>'
    res = _scored(html, lambda b: 0.9 if _teaser(b.text) else 0.75 * thr if b.text.startswith("The river")
                     else 0.02)
    assert res.verdict == "index" and res.threshold == thr and "read-as-index" not in res.warnings
    assert not any(k for b, k in zip(res.blocks, res.kept) if b.text.startswith("The river"))


def test_a_page_that_kept_nothing_is_read_again_whatever_its_second_verdict():
    """A story whose headline and paragraphs all score just under the threshold is not written
    empty: its lower reading stands though it is an article, not an index."""
    thr = cached_model(None).threshold("balanced")
    story = "".join(f"<p>{PROSE * 2}(part {i})</p>" for i in range(6))
    html = f"<title>River cut a channel</title><nav>{NAV}</nav><h1>River cut a channel</h1>{story}"
    res = _scored(html, lambda b: 0.8 * thr if b.text.startswith(("The river", "River cut")) else 0.02)
    assert res.verdict == "document" and "read-lower" in res.warnings and "read-as-index" not in res.warnings
    assert res.threshold == pytest.approx(thr * INDEX_THRESHOLD_SHARE)
    kept = [b.text for b, k in zip(res.blocks, res.kept) if k]
    assert len(kept) == 7 and not any(t.startswith("Section") for t in kept)
    assert (res.scores[res.kept] >= res.threshold).all() and (res.scores[~res.kept] < res.threshold).all()


def test_a_page_with_nothing_near_the_threshold_stays_empty():
    thr = cached_model(None).threshold("balanced")
    html = f"<title>Menu</title><nav>{NAV}</nav><p>{PROSE}</p>"
    res = _scored(html, lambda b: 0.3 * thr)
    assert not res.kept.any() and res.threshold == thr and "read-lower" not in res.warnings


def test_a_reference_is_read_again_and_called_a_document():
    """An API reference's entries score as a listing's items do: its terms that read as code
    make it a document, read again at the lower threshold as an index is."""
    thr = cached_model(None).threshold("balanced")
    entries = "".join(f"<dt>draw_{i}(river, width=None)</dt><dd>Draws the river with option {i}.</dd>"
                      for i in range(10))
    html = f"<title>Fields</title><nav>{NAV}</nav><h1>Fields</h1><dl>{entries}</dl>"
    res = _scored(html, lambda b: 0.9 if b.text == "Fields" or b.tag == "dt" else 0.75 * thr
                     if b.text.startswith("Draws") else 0.02)
    assert res.verdict == "document" and "read-as-reference" in res.warnings and "read-as-index" not in res.warnings
    assert res.threshold == pytest.approx(thr * INDEX_THRESHOLD_SHARE) and res.stats["kept_code_terms"] == 10
    kept = [b.text for b, k in zip(res.blocks, res.kept) if k]
    assert sum(t.startswith("Draws") for t in kept) == 10 and not any(t.startswith("Section") for t in kept)
    # terms that are names make the same page an index, read again the same way
    listing = _scored(html.replace("(river, width=None)", " river map").replace("draw_", "Draw "),
                      lambda b: 0.9 if b.text == "Fields" or b.tag == "dt" else 0.75 * thr
                      if b.text.startswith("Draws") else 0.02)
    assert listing.verdict == "index" and "read-as-index" in listing.warnings
