"""An ad slot's label ("Advertisement") between an article's paragraphs is never kept."""

from __future__ import annotations

import numpy as np
import pytest

from blockclf.ads import (
    contents_decision,
    contents_runs,
    is_ad_label,
    is_toc_label,
    label_kind,
    label_mask,
    rail_mask,
    toc_mask,
)
from blockclf.explain import explain_html
from blockclf.html import parse
from blockclf.predict import extract
from blockclf.render import removal_log
from blockclf.segment import segment

PARAS = [f"Paragraph {i} of the story: the river cut a new channel through the soft plain after the flood, "
         "and the town that had stood on its bank for two centuries moved uphill, stone by stone." for i in range(8)]


def _page(label: str) -> str:
    body = ""
    for i, p in enumerate(PARAS):
        body += f"<p>{p}</p>"
        if i % 2:  # an ad slot inside the article's own container, as news sites set them
            body += f'<div class="article-body__slot"><div class="label">{label}</div><div id="slot-{i}"></div></div>'
    return (f"<html><head><title>Why Rivers Meander</title></head><body><nav><a href='/'>Home</a></nav>"
            f'<article class="article-body"><h1>Why Rivers Meander</h1>{body}'
            "<p>Advertising paid for the town's new bridge, the mayor said at the opening.</p>"
            "<h2>Sponsored</h2><p>The survey of the plain was paid for by the county's farmers, who wanted "
            "to know where the river would go next and which of their fields it would take.</p></article>"
            "<footer>© Example News</footer></body></html>")


@pytest.mark.parametrize("text", ["Advertisement", "ADVERTISEMENT", "- Advertisement -", "Anzeige",
                                  "Story continues below advertisement", "広告", "Continue reading the main story"])
def test_ad_labels_are_recognised_in_any_case_and_punctuation(text):
    assert is_ad_label(text)


@pytest.mark.parametrize("text", ["Advertising", "Advertisement for the new bridge", "Ads by the county", "",
                                  "Advertisement " * 20])
def test_text_about_advertising_is_not_a_label(text):
    assert not is_ad_label(text)


@pytest.mark.parametrize("label", ["Advertisement", "Anzeige", "Story continues below advertisement"])
def test_an_ad_slots_label_is_removed_and_logged(label):
    _assert_labels_removed(_page(label), label, "ad-label", "an ad slot&#x27;s label", 4,
                           "Advertising paid for the town's new bridge")  # a paragraph on advertising is text


def _assert_labels_removed(html: str, label: str, reason: str, note: str, n: int, kept_text: str) -> None:
    """The article is kept whole but its ``n`` labels, each logged with ``reason`` and noted in the
    explain view; the paragraph ``kept_text`` that uses the label's word stays."""
    res = extract(html)
    assert PARAS[0] in res.text and PARAS[-1] in res.text
    assert label not in res.text.splitlines()
    assert kept_text in res.text
    log = [rec for rec in removal_log(res) if rec.get("reason") == reason]
    assert [rec["text"] for rec in log] == [label] * n
    assert explain_html(res).count(note) == n


def test_the_model_alone_keeps_some_ad_labels():
    """What the rule is for: the labels sit where the model keeps short blocks."""
    res = extract(_page("Advertisement"))
    labels = label_mask(res.blocks)
    assert labels.sum() == 4
    assert (res.scores[labels] >= res.threshold).any()
    assert not (res.kept & labels).any()


def test_a_heading_that_says_sponsored_is_not_a_label():
    blocks = [b for b in segment(parse(_page("Advertisement"))) if not b.hidden]
    heading = [b for b in blocks if b.text == "Sponsored"]
    assert heading and heading[0].heading_level == 2
    assert not label_mask(heading)[0]
    assert label_mask(blocks).dtype == np.bool_


def _shared_page(label: str) -> str:
    """An article whose header and end carry a share bar: its label, then icon links."""
    bar = (f'<div class="article-share"><span>{label}</span><a href="https://x.com/share"><img src="x.svg" alt=""></a>'
           '<a href="https://facebook.com/share"><img src="f.svg" alt=""></a></div>')
    body = "".join(f"<p>{p}</p>" for p in PARAS)
    return (f"<html><head><title>Why Rivers Meander</title></head><body><nav><a href='/'>Home</a></nav>"
            f'<article class="article-body"><h1>Why Rivers Meander</h1>{bar}{body}'
            "<p>Readers who share the town's photos of the flood may send them to the county.</p>"
            f"{bar}<h2>Share</h2><p>The county's share of the cost of the new bridge was a third, the "
            "mayor said, and the farmers paid the rest over ten years.</p></article>"
            "<footer>© Example News</footer></body></html>")


@pytest.mark.parametrize("label", ["Share:", "Share this article", "Folgen auf:", "Partager", "シェア"])
def test_a_share_bars_label_is_removed_and_logged(label):
    _assert_labels_removed(_shared_page(label), label, "share-label", "a share bar&#x27;s label", 2,
                           "Readers who share the town's photos")  # a paragraph on sharing is text


@pytest.mark.parametrize("text, kind", [("Share:", "share-label"), ("- SHARE -", "share-label"),
                                        ("Follow us", "share-label"), ("Advertisement", "ad-label"),
                                        ("Email", None), ("Print", None), ("Share the cost", None)])
def test_label_kinds(text, kind):
    blocks = [b for b in segment(parse(f"<html><body><div><span>{text}</span></div></body></html>"))]
    assert [label_kind(b) for b in blocks] == [kind]


def test_a_heading_that_says_share_is_not_a_label():
    blocks = [b for b in segment(parse(_shared_page("Share:"))) if b.text == "Share" and not b.hidden]
    assert blocks and blocks[0].heading_level == 2
    assert label_kind(blocks[0]) is None


@pytest.mark.parametrize("markup, kind", [
    ('Related: <a href="/chicago">Chicago is America\'s most segregated city</a>', "related-link"),
    ('<strong>READ MORE:</strong> <a href="/texas">Texas police arrest protesters in Austin</a>', "related-link"),
    ('Also read: <a href="/japan">10 Days in Japan: an itinerary</a>', "related-link"),
    ('Related: the council will vote on the bridge next week.', None),  # no link: a sentence of the story
    ('Read more about ad blocking <a href="/ab">here</a>.', None),  # no label
    ('More: <a href="http://bookletpress.org">http://bookletpress.org</a>', None),  # a reference
    ('Related: <a href="/r"> </a>', "related-label"),  # a label and nothing after it: a rail's label
    ('Related: <a href="/a">the council</a> will vote on the bridge next week, the mayor said.', None),
])
def test_a_link_to_another_story_behind_a_label_is_a_label(markup, kind):
    blocks = segment(parse(f"<html><body><p>{markup}</p></body></html>"))
    assert [label_kind(b) for b in blocks] == [kind]


def test_a_link_to_another_story_is_removed_and_logged():
    html = _page("Advertisement").replace(
        f"<p>{PARAS[2]}</p>", f'<p>{PARAS[2]}</p><p>Related: <a href="/dams">How dams change a river</a></p>')
    res = extract(html)
    assert PARAS[2] in res.text and "How dams change a river" not in res.text
    assert [rec["text"] for rec in removal_log(res) if rec.get("reason") == "related-link"] == [
        "Related: How dams change a river"]
    assert "a link to another story" in explain_html(res)


@pytest.mark.parametrize("text, kind", [("Related posts:", "related-label"), ("RELATED ARTICLES", "related-label"),
                                        ("You may also like", "related-label"), ("Lesen Sie auch:", "related-label"),
                                        ("関連記事", "related-label"), ("Related to this, the council voted.", None),
                                        ("Recommended dose", None), ("More stories from the flood", None),
                                        ("Don't Miss:", "related-label"), ("Auch interessant", "related-label"),
                                        ("Don't miss a thing", None)])
def test_a_rails_label(text, kind):
    blocks = segment(parse(f"<html><body><div><span>{text}</span></div></body></html>"))
    assert [label_kind(b) for b in blocks] == [kind]


def _rail_page(label: str, tag: str) -> str:
    """An article ending in a rail of other stories under ``label`` (in ``tag``)."""
    rail = "".join(f'<li><a href="/story-{i}">Another story of the river, part {i}</a></li>' for i in range(4))
    body = "".join(f"<p>{p}</p>" for p in PARAS)
    return (f"<html><head><title>Why Rivers Meander</title></head><body><nav><a href='/'>Home</a></nav>"
            f'<article class="article-body"><h1>Why Rivers Meander</h1>{body}'
            "<p>The county's related work on the dams is reported in the spring.</p>"
            f'<div class="post-related"><{tag}>{label}</{tag}><ul>{rail}</ul></div></article>'
            "<footer>© Example News</footer></body></html>")


@pytest.mark.parametrize("label, tag", [("Related Posts:", "strong"), ("Related posts", "h3"),
                                        ("You may also like", "div"), ("Lesen Sie auch", "h4")])
def test_a_rails_label_is_removed_and_logged_heading_or_not(label, tag):
    # read at a low threshold, which keeps the label: the rule removes it whatever it scored
    res = extract(_rail_page(label, tag), threshold=0.05)
    assert PARAS[0] in res.text and PARAS[-1] in res.text
    assert "related work on the dams" in res.text  # a sentence with the word is text
    assert label not in res.text.splitlines()
    [i] = [i for i, b in enumerate(res.blocks) if b.text == label]
    assert res.scores[i] >= res.threshold and res.removed_by[i] == "related-label"
    assert [rec["text"] for rec in removal_log(res) if rec.get("reason") == "related-label"] == [label]
    assert explain_html(res).count("a label over other stories") == 1
    # at the default threshold the model removes the label itself, and the log says so
    res = extract(_rail_page(label, tag))
    assert label not in res.text.splitlines()
    assert [rec["reason"] for rec in removal_log(res) if rec["text"] == label] == ["score"]
    assert "a label over other stories" not in explain_html(res)


def test_a_heading_that_names_a_section_is_not_a_rails_label():
    blocks = [b for b in segment(parse(_rail_page("Related posts", "h3").replace(
        "<h1>Why Rivers Meander</h1>", "<h1>Why Rivers Meander</h1><h2>Related research</h2>"))) if b.heading_level]
    assert [(b.text, label_kind(b)) for b in blocks] == [("Why Rivers Meander", None), ("Related research", None),
                                                         ("Related posts", "related-label")]


def test_a_tables_value_is_not_a_rails_label():
    """A field table's "Recommended" says how much a field is wanted: a value, which stays."""
    rows = "".join(f"<tr><td>field_{i}</td><td>Number</td><td>{level}</td></tr>"
                   for i, level in enumerate(["Required", "Recommended", "Optional", "Recommended"]))
    blocks = segment(parse(f"<html><body><table><tr><th>Field</th><th>Type</th><th>Related</th></tr>{rows}"
                           "</table><p><b>Related posts:</b></p></body></html>"))
    assert [(b.text, label_kind(b)) for b in blocks if label_kind(b) or b.text in ("Recommended", "Related")] == [
        ("Related", None), ("Recommended", None), ("Recommended", None), ("Related posts:", "related-label")]


_PRODUCT = ("<p>A clutch kit for the Iveco Daily, built to the maker's own measure: pressure plate, disc and "
            "release bearing, each tested before it leaves the works, with a two-year warranty on every part.</p>")


def _shop_page(label: str, tag: str = "h2", after: str = "") -> str:
    """A product page whose rails of other products stand under ``label`` (in ``tag``), eBay's way:
    the label in a header of its own, each product a linked title, a price and a seller's rating."""
    items = "".join(f'<li><div><h3><a href="/itm/{i}">Clutch kit {i} for the Iveco Daily, all parts new</a></h3>'
                    f"<div>${100 + i}.99</div><div>Seller 99.{i}% positive</div></div></li>" for i in range(6))
    return (f"<html><head><title>Clutch kit</title></head><body><main><div class='item'><h1>Clutch kit for "
            f"the Iveco Daily</h1><div>EUR 355.58</div>{_PRODUCT}</div>"
            f'<section class="carousel"><div class="head"><div><{tag}>{label}</{tag}></div></div>'
            f"<div><ul>{items}</ul></div></section>{after}</main><footer>© Example Shop</footer></body></html>")


@pytest.mark.parametrize("label", ["Similar items", "People who viewed this item also viewed",
                                   "Customers who bought this item also bought", "Seller's other items"])
def test_a_shops_rail_is_every_block_of_the_element_its_label_opens(label):
    blocks = segment(parse(_shop_page(label, after="<h2>Item description</h2><p>Fits all 2011 models.</p>")))
    rail = [b.text for b, r in zip(blocks, rail_mask(blocks)) if r]
    assert len(rail) == 18 and rail[0].startswith("Clutch kit 0") and rail[-1] == "Seller 99.5% positive"
    assert label_kind(next(b for b in blocks if b.text == label)) == "related-label"


def test_a_rail_ends_at_a_heading_of_its_labels_level_and_at_the_pages_prose():
    blocks = segment(parse(_shop_page("Similar items").replace(
        "<li><div><h3><a href=\"/itm/3\">", f"<h2>Shipping</h2>{_PRODUCT}<li><div><h3><a href=\"/itm/3\">")))
    assert sum(rail_mask(blocks)) == 9  # three products, then a section of the page's own
    text = "<p>" + "The kit fits the Daily of 2011 to 2014, and the first of 2015. " * 4 + "</p>"  # 256 characters
    prose = segment(parse(_shop_page("Similar items", tag="div").replace(
        "<li><div><h3><a href=\"/itm/3\">", f"{text}<li><div><h3><a href=\"/itm/3\">")))
    assert sum(rail_mask(prose)) == 9


@pytest.mark.parametrize("page", [
    # a news page's rail label is read as a label only: articles' own text follows such labels
    _shop_page("Related posts"),
    # the label set inside an element whose blocks come before it: the page's text, not a rail of its own
    "<html><body><div><p>Ours is the best kit.</p><h2>Similar items</h2><p>Made for the Daily.</p></div></body></html>",
    # a table's cell
    "<html><body><table><tr><td>Similar items</td><td>none</td></tr></table></body></html>",
])
def test_what_is_not_a_shops_rail(page):
    assert not rail_mask(segment(parse(page))).any()


def test_a_shops_rail_is_removed_and_logged():
    res = extract(_shop_page("People who viewed this item also viewed"))
    assert "pressure plate, disc and release bearing" in res.text
    assert "Clutch kit 2 for the Iveco Daily" not in res.text and "Seller 99.2% positive" not in res.text
    logged = [rec["text"] for rec in removal_log(res) if rec.get("reason") == "related-rail"]
    assert "Clutch kit 2 for the Iveco Daily, all parts new" in logged and "$102.99" in logged
    assert "rail of other products (under" in explain_html(res)


@pytest.mark.parametrize(("text", "toc"), [("Contents", True), ("Table of Contents", True), ("IN THIS ARTICLE", True),
                                           ("Inhaltsverzeichnis", True), ("目次", True), ("Contents#", True),
                                           ("Contents of the box", False), ("The contents", False)])
def test_a_table_of_contents_title(text, toc):
    assert is_toc_label(text) is toc


def test_a_table_of_contents_title_goes_only_with_its_contents():
    blocks = segment(parse("<html><body><h2>Contents</h2><ul><li><a href='#a'>History</a></li></ul>"
                           "<h2>History</h2><p>It began.</p><h2>Contents</h2></body></html>"))
    assert [b.text for b in blocks] == ["Contents", "History", "History", "It began.", "Contents"]
    assert toc_mask(blocks, np.array([1, 0, 1, 1, 1], bool)).tolist() == [True, False, False, False, True]
    assert toc_mask(blocks, np.array([1, 1, 1, 1, 0], bool)).tolist() == [False] * 5  # its contents kept


def test_a_wikis_contents_title_is_removed_and_logged():
    sections = "".join(f"<h2 id='s{i}'>Section {i}</h2><p>{p}</p>" for i, p in enumerate(PARAS[:4]))
    toc = "".join(f"<li><a href='#s{i}'><span>{i + 1}</span> <span>Section {i}</span></a></li>" for i in range(4))
    res = extract("<html><head><title>Meanders</title></head><body><div id='content'><h1>Meanders</h1>"
                  f"<p>{PARAS[5]}</p><div id='toc' class='toc'><div class='toctitle'><h2>Contents</h2></div>"
                  f"<ul>{toc}</ul></div>{sections}</div></body></html>")
    assert PARAS[0] in res.text and "Contents" not in res.text.splitlines()
    assert [rec["text"] for rec in removal_log(res) if rec.get("reason") == "toc-label"] == ["Contents"]
    assert "the title of a table of contents" in explain_html(res)
    entries = [rec["text"] for rec in removal_log(res) if rec.get("reason") == "toc-entry"]
    assert entries == [f"{i + 1} Section {i}" for i in range(4)]
    assert "an entry of a table of contents" in explain_html(res)


def _contents(items: str, base: str = "") -> list:
    return segment(parse(f"<html><head>{base}</head><body><p>Intro.</p><ul>{items}</ul><p>End.</p></body></html>"))


@pytest.mark.parametrize(("items", "base", "url", "runs"), [
    # links to the page's own sections, nested entries included
    ("<li><a href='#a'>A</a></li><li><a href='#b'>B</a><ul><li><a href='#c'>C</a></li></ul></li>", "", None, [(1, 4)]),
    # written with the page's address (resolved against its <base>)
    ("<li><a href='#a'>A</a></li><li><a href='#b'>B</a></li>", "<base href='https://x.org/doc/'>",
     "https://x.org/doc", [(1, 3)]),
    # one entry alone is a "jump to" link, not a table of contents
    ("<li><a href='#a'>A</a></li>", "", None, []),
    # places in another document (a reading list's chapters), and a menu of other pages
    ("<li><a href='https://y.org/book#a'>A</a></li><li><a href='https://y.org/book#b'>B</a></li>", "", None, []),
    ("<li><a href='/one'>One</a></li><li><a href='/two'>Two</a></li>", "", None, []),
    # an item with text besides its link, and a hidden one, are no entries
    ("<li><a href='#a'>A</a> and more</li><li><a href='#b'>B</a></li>", "", None, []),
    ("<li hidden><a href='#a'>A</a></li><li><a href='#b'>B</a></li>", "", None, []),
])
def test_a_table_of_contents_is_a_run_of_links_into_the_page(items, base, url, runs):
    assert contents_runs(_contents(items, base), url) == runs


def test_a_table_of_contents_is_kept_whole_or_removed_whole():
    blocks = _contents("".join(f"<li><a href='#s{i}'>Section number {i}</a></li>" for i in range(4)))
    some = np.array([1, 1, 0, 0, 0, 1], bool)  # one entry of four kept: removed
    keep, drop = contents_decision(blocks, some)
    assert not keep.any() and drop.tolist() == [False, True, True, True, True, False]
    most = np.array([1, 1, 1, 0, 1, 1], bool)  # three of four kept: the fourth joins them
    keep, drop = contents_decision(blocks, most)
    assert keep.tolist() == [False, True, True, True, True, False] and not drop.any()


@pytest.mark.parametrize(("text", "prompt"), [
    ("You must be logged in to post a comment.", True),
    ("Create an account or sign in to comment", True),
    ("You need to be a member in order to leave a comment", True),
    ("Log in or register to post comments", True),
    ("Already have an account? Sign in here.", True),
    ("Sign up for a new account in our community. It's easy!", True),
    ("You must login or register to post a new topic", True),
    ("Please login or Register to submit your answer", True),
    # a news site's paywall
    ("Subscribe now to read the latest news in your city and across Canada.", True),
    ("Create an account or sign in to continue with your reading experience.", True),
    ("Sign In or Create an Account", True),
    ("Sign in or register for free", False),
    ("Subscribers read on: how the council voted", False),
    ("Subscribe to our newsletter", False),
    ("You must be registered to vote by 5 October, the clerk said.", False),
    ("Register to join the online events", False),
    ("Users must log in to post, the company said, after a wave of spam hit the forum last week and it "
     "closed comments on every story for two days while its moderators caught up.", False),
])
def test_a_prompt_to_sign_in(text, prompt):
    blocks = segment(parse(f"<html><body><p>{text}</p><h2>{text}</h2></body></html>"))
    assert [label_kind(b) == "login-prompt" for b in blocks] == [prompt, prompt]  # a forum's heading too


@pytest.mark.parametrize(("kind", "html", "expected"), [
    ("shop-control", "<p>Add to Cart</p>", True),
    ("shop-control", "<div><button>Compare</button></div>", True),
    ("shop-control", "<p>+ Add to wishlist</p>", True),
    ("shop-control", "<p>Quick view</p>", True),
    ("shop-control", "<p>In den Warenkorb</p>", True),
    ("shop-control", "<h2>Compare</h2>", False),  # a section comparing things
    ("shop-control", "<table><tr><td>Compare</td><td>Buy</td></tr></table>", False),  # a value in a table
    ("shop-control", "<p>Compare.</p>", False),  # "Learn. Compare. Find.": a sentence, each a paragraph
    ("shop-control", "<p>In stock</p>", False),  # a product's state, which expected texts keep now and then
    ("shop-control", "<p>Compare the two plans before you add either of them to your cart.</p>", False),
    ("toggle", "<div>Show More</div>", True),
    ("toggle", "<div><button>See less</button></div>", True),
    ("toggle", "<div>Click to expand...</div>", True),  # a forum's folded quote: its dots are no sentence
    ("toggle", "<div>Reveal hidden contents</div>", True),
    ("toggle", "<div>Mehr anzeigen</div>", True),
    ("toggle", "<p>Read more</p>", False),  # a link to the story, which listing pages' gold texts keep
    ("toggle", "<h3>Expand</h3>", False),  # a heading heads a section
    ("toggle", "<table><tr><td>Expand</td><td>Collapse</td></tr></table>", False),  # values in a table
    ("toggle", "<p>Show more of the valley to the visitors, the council said.</p>", False),
    ("photo-credit", "<p>Mike Marsland/Getty Images</p>", True),
    ("photo-credit", "<figcaption>Carlos Barria / Reuters</figcaption>", True),
    ("photo-credit", "<p>Photo by Michael Hickey/Getty Images</p>", True),
    ("photo-credit", "<p>Credit: iStockphoto/Thinkstock</p>", True),
    ("photo-credit", "<p>Jung Yeon-Je/AFP/Getty Images</p>", True),
    ("photo-credit", "<p>Gabe Ginsberg/Greg Doherty/Stringer/Getty Images</p>", True),  # names and a role first
    ("photo-credit", "<span>Getty Images / Holger Leue</span>", True),
    ("photo-credit", "<p>Reuters/Ipsos</p>", False),  # a poll's name, not a photographer's
    ("photo-credit", "<p>Sensitivity: 25mV/Pa</p>", False),  # a unit
    ("photo-credit", "<h3>Mike Marsland/Getty Images</h3>", False),  # a heading heads a section
    ("photo-credit", "<p>Shares fell 3%, Reuters/Ipsos polling shows, after the vote.</p>", False),
])
def test_a_shops_button_a_control_that_shows_more_and_a_photos_credit(kind, html, expected):
    blocks = segment(parse(f"<html><body>{html}</body></html>"))
    assert [label_kind(b) == kind for b in blocks][:1] == [expected]


@pytest.mark.parametrize(("label", "kind", "gone", "note"), [
    ("Add to Cart", "shop-control", "Add to Cart", "a shop&#x27;s button beside a product"),
    ("Show more", "toggle", "Show more", "a control that shows or hides more of the page"),
    ("Daniele Venturelli/Getty Images", "photo-credit", "Getty", "a photo&#x27;s credit"),
])
def test_a_label_of_these_kinds_is_removed_whatever_its_score_and_logged(label, kind, gone, note):
    res = extract(_page(label), threshold=0.0)  # the model keeps every block at 0
    labels = [i for i, b in enumerate(res.blocks) if b.text == label]
    assert len(labels) == 4 and gone not in res.text and PARAS[7] in res.text
    assert [res.removed_by[i] for i in labels] == [kind] * 4
    assert note in explain_html(res)


def test_a_prompt_to_sign_in_under_a_thread_is_removed_and_logged():
    html = _page("Advertisement").replace(
        "</article>", "<div class='note'><p>You must be logged in to post a comment.</p></div></article>")
    res = extract(html)
    assert PARAS[3] in res.text and "logged in to post" not in res.text
    assert "a prompt to sign in" in explain_html(res)

