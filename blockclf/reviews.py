"""Customers' reviews on a shop's product page: what buyers said, not the product's
description, and so comments (removed, kept or given apart as `--comments` says).

`review_roots` finds them on a page that offers one product (`blockclf.metadata.product_page`):
an element whose class or id names reviews (``user_reviews``, a review service's widget), two
elements or more named as one review the same way, or a heading over reviews ("Customer
Reviews (12)") with the elements after it in its container; `review_mask` marks their blocks,
unless the page's kept text beside them is too short to be more than a page of reviews.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence

import numpy as np
from lxml import etree

from .block import Block
from .comments import (
    COMPOUND_CHARS,
    ElementPaths,
    FoundPaths,
    outermost_named,
    outermost_paths,
    page_tokens,
    titled_section,
    under_roots,
)
from .metadata import product_page

__all__ = ["MIN_BESIDE_REVIEWS_CHARS", "review_hinted", "review_mask", "review_roots"]

#: a class name or id naming customers' reviews or one review, after any prefix (``reviews``,
#: ``user_reviews``, ``app_reviews_area``, ``review_ctn``, ``customerReviews``,
#: ``pipf-seo-reviews``), or a review service's widget (Yotpo, Judge.me, Stamped, Okendo,
#: Bazaarvoice, PowerReviews, REVIEWS.io). A word that says something else about reviews does not
#: name them: ``review_summary``, ``reviewCount``, ``review-stars``
_REVIEW_NAME = re.compile(
    r"^(?:[a-z0-9]+[-_]+)*(?:(?:user|customer|product|app|client|buyer|guest|verified|all|recent)[-_]?)?reviews?"
    r"(?:[-_]?(?:list|listing|section|area|container|wrap(?:per)?|holder|block|box|widget|content|items?|panel|"
    r"tab|body|feed|ctn|display|all|recent|responsive|module|root|app))*(?:[-_]?\d+)?$"
    r"|^(?:yotpo-(?:main-widget|reviews?(?:-[a-z]+)?)|jdgm-(?:widget|rev-widg|review-widget)"
    r"|stamped-(?:main-widget|reviews?(?:-[a-z]+)?)|okereviews|bv-reviews?|bvrrcontainer|pr-review-display"
    r"|reviewsio-[a-z-]+)$", re.IGNORECASE)
#: in a name that `_REVIEW_NAME` matches, what says it holds several reviews (else it names one,
#: and counts only where the page has two or more elements so named)
_REVIEW_SET = re.compile(r"reviews|list|section|area|container|wrap|holder|widg|feed|panel|tab|module|root|display")
#: class/id tokens (as blocks carry them) of a review service's widget; a token holding
#: "review" is a hint too
_REVIEW_VENDORS = frozenset({"yotpo", "jdgm", "stamped", "bvrrcontainer"})
#: a heading over customers' reviews: "Customer Reviews", "Reviews (12)", "29 reviews for …",
#: "Ratings & Reviews", "Customer Reviews of the …", "Write a Review". A bare "Reviews" may head
#: the press's (Steam's quotes of critics, part of a game's description): it is not one
_REVIEW_HEADING = re.compile(
    r"^\s*(?:(?:customer|product|user|guest|verified|buyer)s?'?\s+reviews?(?:\s*\(\d[\d,.]*\))?"
    r"|reviews?\s*\(\d[\d,.]*\)|ratings?\s*(?:&|and)\s*reviews?|reviews?\s*(?:&|and)\s*ratings?"
    r"|\d[\d,.]*\s+(?:customer\s+)?(?:reviews?|ratings?))(?:\s+(?:of|for)\s.*)?\s*$"
    r"|^\s*(?:write|add|leave|submit)\s+an?\s+review\s*:?\s*$", re.IGNORECASE)
#: a product page whose kept text beside its reviews is under this is a page of reviews: they
#: are its content, and none is marked
MIN_BESIDE_REVIEWS_CHARS = 300


def review_hinted(tokens: Collection[str]) -> bool:
    """Whether class/id tokens may name reviews (a token holding "review", or a widget's name)."""
    return any("review" in t for t in tokens) or not _REVIEW_VENDORS.isdisjoint(tokens)


def _review_name(el: etree._Element) -> str | None:
    """The element's id or class name that names reviews or one review, lower-cased, or None."""
    names = [(el.get("id") or "").strip(), *(el.get("class") or "").split()]
    for name in names:
        if name and len(name) <= COMPOUND_CHARS and _REVIEW_NAME.match(name):
            return name.lower()
    return None


def review_roots(root: etree._Element, blocks: Sequence[Block], tokens: set[str] | None = None) -> list[str]:
    """Element paths of the customers' reviews of a product page (outermost only); none on
    other pages.

    Reviews that a shop prints under what it sells are its customers' comments, not the
    product's description: an element whose class or id names reviews (``user_reviews``), or
    two elements or more whose class or id names one review the same way (an editor's review
    is one: ``reviewBody``), and a heading over reviews ("Customer Reviews (12)") with the
    elements after it in its container. As for comments, an element that holds the page's
    ``<h1>``, an ``<article>`` or a ``<main>`` is never taken. Pages whose blocks carry no
    review-like token or heading are not read further, and of the others only product pages
    (`metadata.product_page`). ``tokens``: the page's `page_tokens`, when known.
    """
    hint = review_hinted(page_tokens(blocks) if tokens is None else tokens)
    if not hint and not any(b.heading_level and _REVIEW_HEADING.match(b.text) for b in blocks):
        return []
    if not product_page(root):
        return []
    hinted = {t for t in {b.tokens for b in blocks} if review_hinted(t)} if hint else set()
    paths = ElementPaths(root)
    found: list[etree._Element] = []
    taken = FoundPaths()  # the paths of `found`
    single: dict[str, list[etree._Element]] = {}  # elements named as one review, by name
    seen: set[etree._Element] = set()
    for b in blocks:
        if taken.holds(b.xpath):
            continue  # already inside reviews
        if b.tokens in hinted:
            outer, name = outermost_named(paths.element(b.xpath), _review_name, seen)
            if outer is not None:
                if _REVIEW_SET.search(str(name)):
                    found.append(outer)
                    taken.add(paths.path(outer))
                else:
                    single.setdefault(str(name), []).append(outer)
                continue
        for e in titled_section(paths, b, _REVIEW_HEADING):
            found.append(e)
            taken.add(paths.path(e))
    # customers write several: a lone element named as one review is an editor's (``reviewBody``)
    found += [e for group in single.values() if len(group) > 1 for e in group]
    return outermost_paths(paths.path(e) for e in found)


def review_mask(blocks: Sequence[Block], roots: Sequence[str], kept: np.ndarray | None = None) -> np.ndarray:
    """Per block, whether it sits under one of the review roots (`review_roots`); nothing is
    marked, with ``kept`` (the model's decisions), when the kept text beside the reviews is
    under `MIN_BESIDE_REVIEWS_CHARS` (a page that lists a product's reviews)."""
    mask = under_roots(blocks, roots)
    if kept is not None and mask.any():
        beside = sum(len(b.text) for b, k, m in zip(blocks, kept, mask) if k and not m)
        if beside < MIN_BESIDE_REVIEWS_CHARS:
            mask[:] = False
    return mask


#: class/id tokens of a widget that lists the site's latest comments, on any of its pages
#: (WordPress's ``widget_recent_comments``, ``recentcomments``): a thread, but not this page's
