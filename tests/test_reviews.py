"""Customers' reviews on a shop's product page: found only where the page offers one product,
removed as comments by default, kept or given apart on request."""

from __future__ import annotations

import numpy as np
import pytest

from blockclf.html import parse
from blockclf.metadata import product_page
from blockclf.predict import extract
from blockclf.render import removal_log
from blockclf.reviews import MIN_BESIDE_REVIEWS_CHARS, review_mask, review_roots
from blockclf.segment import segment

PRODUCT_LD = '<script type="application/ld+json">{"@context": "https://schema.org", "@type": "Product", "name": "Shelf"}</script>'
DESCRIPTION = "A sturdy shelf unit of particleboard and paint, built to stand upright or lie on its side. " * 6
OPINION = "I bought two of these for the playroom and they are easy to assemble and very solid indeed."


def _shop(head: str, reviews: str) -> str:
    return (f"<html><head>{head}</head><body><main><h1>KALLAX shelf</h1><p>{DESCRIPTION}</p>"
            f"<h2>Product details</h2><p>{DESCRIPTION}</p></main>{reviews}</body></html>")


REVIEWS = ('<section class="customer-reviews"><h2>Customer Reviews (2)</h2>'
           f'<div class="review"><p>Ann, May 2</p><p>{OPINION}</p></div>'
           f'<div class="review"><p>Bob, May 3</p><p>{OPINION} Five stars.</p></div></section>')


@pytest.mark.parametrize("head", [PRODUCT_LD, '<meta property="og:type" content="product">',
                                  '<meta property="og:type" content="og:product">'])
def test_a_product_page_says_so(head):
    assert product_page(parse(_shop(head, "")).root)


@pytest.mark.parametrize("head", [
    "",  # says nothing
    '<meta property="og:type" content="article">' + PRODUCT_LD,  # a review of a product is an article
    '<script type="application/ld+json">{"@type": "ItemList", "itemListElement": ['  # a buyers' guide
    + ", ".join(f'{{"@type": "Product", "name": "P{i}"}}' for i in range(5)) + "]}</script>",
])
def test_pages_that_are_not_one_product(head):
    assert not product_page(parse(_shop(head, "")).root)


def test_microdata_product_and_its_variants():
    item = '<div itemscope itemtype="https://schema.org/{}"><span itemprop="name">Shelf</span></div>'
    assert product_page(parse(f"<html><body>{item.format('Product')}</body></html>").root)
    assert product_page(parse(f"<html><body>{item.format('ProductGroup')}</body></html>").root)
    assert not product_page(parse(f"<html><body>{item.format('Product') * 4}</body></html>").root)


def test_customer_reviews_are_removed_as_comments_on_a_product_page():
    result = extract(_shop(PRODUCT_LD, REVIEWS))
    assert "Customer Reviews (2)" in {b.text for b in result.blocks}
    assert OPINION not in result.text and "Product details" in result.text
    logged = {r["text"]: r["reason"] for r in removal_log(result)}
    assert logged[OPINION] == "comment"
    kept = extract(_shop(PRODUCT_LD, REVIEWS), comments="keep")  # marked, but left to the model
    assert kept.comment is not None and kept.comment.sum() == result.comment.sum() > 0
    assert "comment" not in {r.get("reason") for r in removal_log(kept)}  # the model may drop a line
    apart = extract(_shop(PRODUCT_LD, REVIEWS), comments="separate")
    assert [c.splitlines() for c in apart.comment_texts] == [["Ann, May 2", OPINION],
                                                             ["Bob, May 3", OPINION + " Five stars."]]


def test_reviews_are_left_alone_where_the_page_is_no_product():
    # the same markup on a page that declares no product: a review section of an article
    result = extract(_shop("", REVIEWS))
    assert result.comment is not None and not result.comment.any()


def test_review_roots_by_name_and_heading():
    by_heading = ('<div><h2>Customer Reviews</h2>'
                  f'<p>{OPINION}</p><p>{OPINION} Again.</p></div><div><h2>Shipping</h2><p>{DESCRIPTION}</p></div>')
    doc = parse(_shop(PRODUCT_LD, by_heading))
    blocks = segment(doc)
    marked = {b.text for b, m in zip(blocks, review_mask(blocks, review_roots(doc.root, blocks))) if m}
    assert marked == {"Customer Reviews", OPINION, OPINION + " Again."}  # not the next section
    widget = f'<div id="reviews-1"><div class="yotpo-main-widget"><p>{OPINION}</p></div></div>'
    doc = parse(_shop(PRODUCT_LD, widget))
    assert review_roots(doc.root, segment(doc)) == ["/html/body/div"]
    # named like a summary or a count, not like reviews: not a thread
    summary = f'<div class="review-summary"><p>4.5 stars</p></div><div class="reviewCount"><p>{OPINION}</p></div>'
    doc = parse(_shop(PRODUCT_LD, summary))
    assert review_roots(doc.root, segment(doc)) == []


def test_a_wrapper_named_reviews_never_takes_the_product():
    doc = parse(_shop(PRODUCT_LD, "").replace("<body>", '<body><div class="product-reviews">').replace(
        "</body>", "</div></body>"))
    assert review_roots(doc.root, segment(doc)) == []


def test_a_page_of_reviews_keeps_them():
    # beside the reviews the page keeps under MIN_BESIDE_REVIEWS_CHARS: they are its content
    page = (f"<html><head>{PRODUCT_LD}</head><body><h1>Reviews of the shelf</h1>"
            f'<div class="reviews">{"".join(f"<div class=review><p>{OPINION} {i}</p></div>" for i in range(8))}'
            "</div></body></html>")
    doc = parse(page)
    blocks = segment(doc)
    roots = review_roots(doc.root, blocks)
    assert roots
    assert review_mask(blocks, roots).any()
    kept = np.ones(len(blocks), dtype=bool)
    assert sum(len(b.text) for b in blocks if not b.xpath.startswith(roots[0])) < MIN_BESIDE_REVIEWS_CHARS
    assert not review_mask(blocks, roots, kept).any()
    assert OPINION in extract(page).text


def test_one_review_is_an_editors_and_stays():
    # a car site's page says og:type product and holds its editor's review in a reviewBody
    review = f'<div class="reviewBody"><p>{DESCRIPTION}</p><p>{OPINION}</p></div>'
    doc = parse(_shop('<meta property="og:type" content="product">', review))
    assert review_roots(doc.root, segment(doc)) == []
    # two or more elements named as one review the same way are customers'
    two = "".join(f'<div class="review"><p>{OPINION} {i}</p></div>' for i in range(2))
    doc = parse(_shop(PRODUCT_LD, two))
    assert review_roots(doc.root, segment(doc)) == ["/html/body/div[1]", "/html/body/div[2]"]


def test_undated_reviews_are_given_apart_one_by_one():
    # a shop's reviews often say no date: each element named as a review is one
    items = "".join(f'<div class="review"><div class="review-title">Sturdy and easy to build {i}</div>'
                    f'<div class="review-text">{OPINION} {i}</div></div>' for i in range(3))
    page = _shop(PRODUCT_LD, f'<div class="reviews">{items}</div>')
    apart = extract(page, comments="separate")
    assert [c.splitlines() for c in apart.comment_texts] == [[f"Sturdy and easy to build {i}", f"{OPINION} {i}"]
                                                             for i in range(3)]


def test_comments_given_apart_read_as_the_text_does():
    # words the page shows apart (a name in its own span) are apart in the comments too
    items = "".join(f'<div class="review"><span>Great shelf</span><span>Ann</span>{OPINION} {i}</div>'
                    for i in range(2))
    apart = extract(_shop(PRODUCT_LD, f'<div class="reviews">{items}</div>'), comments="separate")
    assert apart.comment_texts[0].startswith("Great shelf Ann I bought")
