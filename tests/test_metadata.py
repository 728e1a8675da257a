"""Page metadata: each source in its order of trust, the headline's cleaning, the language check, hostile input."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from blockclf import extract, extract_batch, headline, prepare
from blockclf.headline import site_title_parts, without_site_parts
from blockclf.html import parse
from blockclf.metadata import MAX_JSONLD_CHARS, Metadata, clean_title, page_metadata
from blockclf.metatext import token_overlap
from blockclf.metrics import tokens
from blockclf.segment import segment
from blockclf.words import title_parts

PROSE = ("The committee met on Tuesday to discuss the new budget for the public library, which has seen "
         "a steady rise in visitors over the last three years and now needs more staff and longer hours. ")
GERMAN = ("Der Ausschuss hat sich am Dienstag getroffen, um über den neuen Haushalt der öffentlichen Bibliothek "
          "zu sprechen, die in den letzten drei Jahren immer mehr Besucher hatte und nun mehr Personal braucht. ")


def page(head: str = "", body: str = "", lang: str | None = "en", title: str = "Budget talks | Town News") -> bytes:
    lang_attr = f' lang="{lang}"' if lang is not None else ""
    return (f"<html{lang_attr}><head><title>{title}</title>{head}</head>"
            f"<body>{body}<p>{PROSE * 3}</p></body></html>").encode()


def meta_of(html: bytes | str, url: str | None = None) -> Metadata:
    doc = parse(html)
    return page_metadata(doc, segment(doc), url)


def ld(obj: object) -> str:
    return f'<script type="application/ld+json">{json.dumps(obj)}</script>'


def test_jsonld_article_fields():
    head = ld({"@context": "https://schema.org", "@type": "NewsArticle", "headline": "Budget talks",
               "author": {"@type": "Person", "name": "Ana Lopez"}, "datePublished": "2021-03-04T09:30:00+01:00",
               "dateModified": "2021-03-05", "description": "The library budget.", "articleSection": "Local",
               "keywords": "library, budget", "publisher": {"@type": "Organization", "name": "Town News"}})
    m = meta_of(page(head))
    assert m.title == "Budget talks"
    assert m.author == "Ana Lopez"
    assert m.date == "2021-03-04T09:30:00+01:00" and m.modified == "2021-03-05"
    assert m.description == "The library budget." and m.sitename == "Town News"
    assert m.categories == ("Local",) and m.tags == ("library", "budget")


def test_half_a_character_in_jsonld_becomes_the_replacement_character():
    # "\ud83d" escapes half an emoji: as a value it cannot be UTF-8, and strict JSON readers refuse it
    head = ld({"@type": "NewsArticle", "headline": "Budget \ud83d talks", "author": {"name": "\udc00Ana Lopez"},
               "description": "The library budget \ud83d", "keywords": ["lib\ud800rary", "budget"]})
    m = meta_of(page(head, title="Budget talks"))
    values = [m.author, m.description, *m.tags]
    assert m.author == "\ufffdAna Lopez" and "lib\ufffdrary" in m.tags
    assert all(v.encode("utf-8") for v in values)  # no lone surrogate: every value can be UTF-8


def test_character_references_left_in_values_are_read():
    # JSON-LD written HTML-escaped, a meta tag escaped twice: the reader gets the characters
    head = (ld({"@type": "NewsArticle", "headline": "Budget &#8216;illogical&#8217;, says the mayor",
                "author": {"@type": "Person", "name": "Ana L&oacute;pez"}})
            + '<meta name="description" content="Books &amp;amp; more">')
    m = meta_of(page(head, title="Budget &#8216;illogical&#8217;, says the mayor"))
    assert m.title == "Budget ‘illogical’, says the mayor"
    assert m.author == "Ana López" and m.description == "Books & more"
    # escaped markup is read as markup, and an element's name as text
    m = meta_of(page('<meta name="description" content="Correspondent &amp;lt;a href=&amp;quot;/p&amp;quot;&amp;gt;'
                     'Sanjay Gupta&amp;lt;/a&amp;gt; reports">'
                     + ld({"@type": "TechArticle", "headline": "&lt;div&gt;: the content division element"}),
                     title="&lt;div&gt;: the content division element"))
    assert m.description == "Correspondent Sanjay Gupta reports"
    assert m.title == "<div>: the content division element"
    # a description written as HTML, or cut off inside a tag, reads as its text
    html = '&lt;p&gt;We are excited to introduce &lt;strong&gt;Mini-SGLang&lt;/strong&gt;, a tool'
    assert meta_of(page(f'<meta name="description" content="{html}">')).description == (
        "We are excited to introduce Mini-SGLang, a tool")
    cut = 'Some stories melt your heart and started &lt;a href='
    assert meta_of(page(f'<meta name="description" content="{cut}">')).description == (
        "Some stories melt your heart and started")
    # markup left unescaped in a title
    assert meta_of(page(title="He May Be a Son of a Bitch,&lt;br/&gt; But He's &lt;i&gt;Our&lt;/i&gt; Son")).title == (
        "He May Be a Son of a Bitch, But He's Our Son")
    # an ampersand that starts no character reference is text
    assert meta_of(page(ld({"@type": "NewsArticle", "headline": "Q&A: R&D budget &c"}),
                        title="Q&A: R&D budget &c")).title == "Q&A: R&D budget &c"


def test_jsonld_graph_list_and_references():
    head = ld({"@context": "https://schema.org", "@graph": [
        {"@type": "WebSite", "name": "Town News"},
        {"@type": "Person", "@id": "#ana", "name": "Ana Lopez"},
        {"@type": ["BlogPosting"], "headline": "Budget talks", "author": [{"@id": "#ana"}, "Ben Ode"],
         "datePublished": "2020-01-02"},
    ]})
    m = meta_of(page(head))
    assert m.author == "Ana Lopez, Ben Ode"
    assert m.date == "2020-01-02"
    assert m.sitename == "Town News"


def test_a_jsonld_objects_parts_describe_themselves_not_the_page():
    desc = '<meta name="description" content="The council met on the library budget.">'
    # an article's video: its description and date are the video's
    video = ld({"@type": "NewsArticle", "headline": "Budget talks", "author": {"name": "Ana Lopez"},
                "video": {"@type": "VideoObject", "name": "Clip", "description": "A clip of the vote",
                          "uploadDate": "2020-01-02", "datePublished": "2020-01-02"}})
    m = meta_of(page(video + desc))
    assert m.description == "The council met on the library budget." and m.date is None and m.author == "Ana Lopez"
    # a product's reviews: the reviewer is no author, the review's text no description
    reviews = ld({"@type": "Product", "name": "Desk lamp", "description": "A lamp for a desk",
                  "review": [{"@type": "Review", "name": "Bright", "author": {"name": "Ron B."},
                              "datePublished": "2025-12-31", "reviewBody": "Very bright.",
                              "description": "Pros: bright"}]})
    m = meta_of(page(reviews + desc, title="Desk lamp"))
    assert m.author is None and m.date is None and m.description == "The council met on the library budget."
    # a list of articles: the first item's headline is not the page's
    listing = ld({"@type": "ItemList", "itemListElement": [
        {"@type": "ListItem", "position": 1, "item": {"@type": "NewsArticle", "headline": "Other story",
                                                      "datePublished": "2019-01-01"}}]})
    assert meta_of(page(listing)).date is None
    # the page's own article, as the WebPage's main entity or in a graph, still gives them
    main = ld({"@type": "WebPage", "mainEntity": {"@type": "Article", "headline": "Budget talks",
                                                  "datePublished": "2021-03-04", "author": {"name": "Cleo Park"}}})
    m = meta_of(page(main))
    assert m.date == "2021-03-04" and m.author == "Cleo Park"


def test_an_element_marked_authorized_is_no_author_box():
    body = ('<h1>Desk lamp</h1><div class="authorized-dealer-link">Authorized Dealer</div>'
            '<div class="authority-score">Top Seller</div>')
    assert meta_of(page(body=body, title="Desk lamp")).author is None
    assert meta_of(page(body='<h1>Desk lamp</h1><div class="post-author">Ana Lopez</div>')).author == "Ana Lopez"


def test_a_rail_of_videos_describes_none_of_the_page():
    rail = "".join(ld({"@type": "VideoObject", "name": f"Clip {n}", "description": f"Clip number {n}",
                       "uploadDate": f"2017-03-0{n}"}) for n in range(1, 4))
    desc = '<meta name="description" content="The council met on the library budget.">'
    m = meta_of(page(rail + desc))
    assert m.description == "The council met on the library budget." and m.date is None
    one = ld({"@type": "VideoObject", "name": "Budget talks", "description": "The whole meeting",
              "datePublished": "2017-03-01"})
    m = meta_of(page(one + desc))  # a video's own page
    assert m.description == "The whole meeting" and m.date == "2017-03-01"


def test_jsonld_top_level_list_and_cdata_wrapper():
    body = json.dumps([{"@type": "Article", "author": {"name": "Cleo Park"}, "datePublished": "2019-05-06"}])
    head = f'<script type="application/ld+json">//<![CDATA[\n{body}\n//]]></script>'
    m = meta_of(page(head))
    assert m.author == "Cleo Park" and m.date == "2019-05-06"


def test_jsonld_is_trusted_over_opengraph():
    head = (ld({"@type": "Article", "author": {"name": "Ana Lopez"}, "datePublished": "2021-03-04"})
            + '<meta property="article:published_time" content="2019-01-01"><meta name="author" content="Someone">')
    m = meta_of(page(head))
    assert m.author == "Ana Lopez" and m.date == "2021-03-04"


def test_opengraph_and_meta_tags():
    head = ('<meta property="og:title" content="Budget talks"><meta property="og:site_name" content="Town News">'
            '<meta name="author" content="By Ana Lopez"><meta property="article:published_time" '
            'content="2018-04-05T06:00"><meta property="article:modified_time" content="2018-04-06T07:00:00Z">'
            '<meta property="article:tag" content="library"><meta property="article:tag" content="budget">'
            '<meta property="article:section" content="Local"><meta name="description" content="About it.">'
            '<link rel="canonical" href="/news/budget">')
    m = meta_of(page(head), url="https://town.example/news/budget?utm=x")
    assert m.title == "Budget talks" and m.sitename == "Town News"
    assert m.author == "Ana Lopez"  # the "By" prefix is dropped
    assert m.date == "2018-04-05T06:00:00" and m.modified == "2018-04-06T07:00:00+00:00"
    assert m.tags == ("library", "budget") and m.categories == ("Local",)
    assert m.description == "About it."
    assert m.url == "https://town.example/news/budget"


def test_a_canonical_address_that_is_the_home_page_or_no_address_gives_way():
    """A site that declares its home page the address of every page, or an address escaped
    whole into its host, does not name the page: the address it was read from stands."""
    url = "https://town.example/guide/composition-api"
    assert meta_of(page('<link rel="canonical" href="https://town.example/">'), url=url).url == url
    broken = '<meta property="og:url" content="https://town.example%2Fguide%2Fcomposition-api">'
    assert meta_of(page(broken), url=url).url == url
    assert meta_of(page(broken)).url is None
    # a home page's own address with a tracking parameter: its canonical address stands
    home = meta_of(page('<link rel="canonical" href="https://town.example/">'), url="https://town.example/?srsltid=x")
    assert home.url == "https://town.example/"


def test_author_meta_that_is_a_url_is_not_a_name():
    m = meta_of(page('<meta property="article:author" content="https://facebook.com/ana">'))
    assert m.author is None


def test_microdata_byline_and_time_near_the_headline():
    body = ('<div class="sidebar"><span class="author">Sidebar Person</span></div>'
            '<article><header><h1>Budget talks</h1>'
            '<p class="byline">By <a href="/authors/ana" rel="author">Ana Lopez</a> | '
            '<time datetime="2017-11-03T03:01:00-04:00">Nov 3</time></p></header></article>')
    m = meta_of(page(body=body))
    assert m.author == "Ana Lopez"
    assert m.date == "2017-11-03T03:01:00-04:00"


def test_itemprop_author_name_and_date_published():
    body = ('<article><h1>Budget talks</h1><div itemprop="author" itemscope><span itemprop="name">Dan Gold</span>'
            '<span>Senior writer</span></div><span itemprop="datePublished" content="2015-04-16">April 16</span>'
            '</article>')
    m = meta_of(page(body=body))
    assert m.author == "Dan Gold" and m.date == "2015-04-16"


def test_a_name_element_with_a_tagline_gives_the_name_its_author_link_holds():
    """An author box marked as the name whole: the link to the author's page, then a tagline."""
    body = ('<article><h1>Budget talks</h1><div class="meta-box"><div class="author" itemprop="name">'
            '<a href="https://town.example/author/jessicawang/">Jessica Wang</a><br>'
            '<span class="author-tagline">Editorial Assistant</span></div></div></article>')
    assert meta_of(page(body=body)).author == "Jessica Wang"


def test_byline_text_with_date_keeps_the_name():
    body = '<h1>Budget talks</h1><div class="byline">By Nathan Willis March 25, 2015</div>'
    assert meta_of(page(body=body)).author == "Nathan Willis"


def test_date_from_url_when_the_page_gives_none():
    m = meta_of(page(), url="https://town.example/2016/07/09/budget-talks/")
    assert m.date == "2016-07-09"


def test_a_date_days_after_the_urls_is_when_the_page_was_served():
    """A "date" meta tag that stamps the time the page was served, a week after the day its
    URL's folders give, is not its publication date; a day after is (a print edition's day)."""
    url = "https://news.example/_news/2012/07/24/12909129-budget-talks"
    served = '<meta name="date" content="July 31, 2012, 2:38 pm">'
    assert meta_of(page(served), url=url).date == "2012-07-24"
    assert meta_of(page('<meta name="date" content="2012-07-25">'), url=url).date == "2012-07-25"
    assert meta_of(page('<meta name="date" content="2012-07-23">'), url=url).date == "2012-07-23"
    # a version number in a slug is no date
    slug = "https://forum.example/t/2024-4-4-2024-5-0-stuck-on-starting/724779"
    assert meta_of(page('<meta name="date" content="2024-05-03">'), url=slug).date == "2024-05-03"


@pytest.mark.parametrize("keywords, tags", [
    ("proliant; ProLiant Benchmarks; benchmarks", ("proliant", "ProLiant Benchmarks", "benchmarks")),
    ("科技，互联网、手机", ("科技", "互联网", "手机")),  # the commas of Chinese and Japanese
    ("travel, https://example.org/blog/travel-hacks/, /news/nation", ("travel",)),  # an address, a path
    ("24/7 Wall St. Wire, 9/11 families", ("24/7 Wall St. Wire", "9/11 families")),
    ("Food &amp;amp; Drink, Blog", ("Food & Drink", "Blog")),  # an entity escaped twice is no separator
    ("sport, sz=728x90, func(), &amp;quot;", ("sport",)),  # an ad slot's parameters, a call, a mark alone
])
def test_keywords_are_parted_as_their_page_writes_them(keywords, tags):
    assert meta_of(page(f'<meta name="keywords" content="{keywords}">')).tags == tags


@pytest.mark.parametrize("keywords, tags", [
    # a UUID, an article's number, a digest: a record's identifiers; a year and a postcode stay
    ("26157981-b4f7-4929-adc1-e860c6f03636, Travel, 100312362, 9f86d081884c7d659a2f, 2018, 90402",
     ("Travel", "2018", "90402")),
    # a content system's fields written out; titles and sections with a colon stay
    ("contentId: d9cefeed, hasProduct: true, content-type: Product Review, Running, "
     "Kong: Skull Island, fallout: new vegas, Category: Travel",
     ("Running", "Kong: Skull Island", "fallout: new vegas", "Category: Travel")),
])
def test_keywords_that_are_identifiers_are_no_tags(keywords, tags):
    assert meta_of(page(f'<meta name="keywords" content="{keywords}">')).tags == tags


def test_keywords_that_run_on_into_script_are_dropped():
    """A broken tag's attribute runs on into the page's script: those "keywords" are no tags."""
    junk = "Sport, Birmingham, str) ) { document.write('&lt;link href=, 2007 3:15 PM--&gt; &lt;script language="
    assert meta_of(page(f'<meta name="keywords" content="{junk}">')).tags == ("Sport", "Birmingham")


def test_a_keyword_too_long_to_be_one_is_not_cut_into_a_tag():
    """A whole keyword string without separators ends on half a word when cut to a term's
    length; it is left out. A list item that long holds several terms, parted as a string's
    are; a shorter one is one term, commas and all."""
    blob = ("canada vancouver sun news sports business world national regional local classifieds weather "
            "entertainment")
    assert meta_of(page(f'<meta name="keywords" content="{blob}, Canucks">')).tags == ("Canucks",)
    listed = ld({"@type": "NewsArticle", "headline": "Hall of fame", "keywords": [
        "Trump, Donald J", "rock hall 2017, rock and roll hall of fame 2017, david letterman, pearl jam, "
        "induction speech, eddie vedder"]})
    assert meta_of(page(listed)).tags == ("Trump, Donald J", "rock hall 2017", "rock and roll hall of fame 2017",
                                          "david letterman", "pearl jam", "induction speech", "eddie vedder")


def test_implausible_dates_are_dropped():
    head = '<meta property="article:published_time" content="1066-10-14"><meta name="date" content="soon">'
    assert meta_of(page(head)).date is None


def test_headline_set_in_a_lesser_heading_or_in_bold_when_no_h1_says_it():
    title = "Chelsea hoping to sign Anelka - Soccer - Sport - Belfast Telegraph"
    body = "<h2>Soccer</h2><h2>Chelsea hoping to sign Anelka</h2>"
    assert meta_of(page(body=body, title=title)).title == "Chelsea hoping to sign Anelka"
    bold = "<p><b>Plane's engines 'failed to respond'</b></p><p>Press Association</p>"
    title = "Plane's engines 'failed to respond' | UK Latest | Guardian Unlimited"
    assert meta_of(page(body=bold, title=title)).title == "Plane's engines 'failed to respond'"
    # a later part said by a heading is the section; a bold word within a line is no headline
    assert meta_of(page(body="<h2>Soccer</h2>", title=title)).title == title
    assert meta_of(page(body="<p><b>Plane's engines</b> 'failed to respond' today</p>",
                        title=title)).title == title
    # an <h1> that agrees with the title decides, as before
    h1 = "<h1>Plane's engines 'failed to respond' | UK Latest</h1><h2>Plane's engines 'failed to respond'</h2>"
    assert meta_of(page(body=h1, title=title)).title == "Plane's engines 'failed to respond' | UK Latest"


def untitled(body: str) -> bytes:
    """A page with no <title>, no <h1> and no metadata: an archived body, a fragment."""
    return f"<html><body><div><a href='/'>Home</a> <a href='/news'>News</a></div>{body}<p>{PROSE * 2}</p></body></html>".encode()


def test_a_page_that_names_no_headline_takes_the_marked_line_above_its_prose():
    """No title, <h1> or metadata: the headline is the line nearest above the first paragraph
    of prose that marks itself as the headline (microdata first, then a class or id), else the
    page's first heading there; a date, a byline or a label is never one."""
    assert meta_of(untitled('<div class="storyheader">Rams pay penalty for squandered chance</div>')).title == (
        "Rams pay penalty for squandered chance")
    # a plain heading only when it is the page's first and of its highest rank: a later or a lesser
    # one is as often a section's heading or a deck
    assert meta_of(untitled("<h2>Rams pay penalty for squandered chance</h2>")).title == (
        "Rams pay penalty for squandered chance")
    assert meta_of(untitled("<h2>Top stories from the league</h2><p>Scores</p><h2>Rams pay penalty for it</h2>")).title is None
    assert meta_of(untitled("<h2>Top stories from the league</h2>" + "<p>A line.</p>" * 9
                            + "<h3>Rams pay penalty for it</h3>")).title is None
    marked = ('<span class="mainheadline">Loads of laughs in the city this week</span><p>Shop now</p>'
              '<div class="article_headline"><b>Slammer for Rammer</b></div><p>Fri, January 18, 2008</p>'
              "<h3>Judge sets example in handing out sentence</h3><p>By CP</p>")
    assert meta_of(untitled(marked)).title == "Slammer for Rammer"
    micro = '<div itemprop="headline">Budget talks stall again</div><div class="article-title">The library asks</div>'
    assert meta_of(untitled(micro)).title == "Budget talks stall again"
    sub = '<div class="entry-title">Budget talks stall again</div><div class="subheadline">The library asks more</div>'
    assert meta_of(untitled(sub)).title == "Budget talks stall again"  # a deck names itself no headline
    for text in ("January 18, 2008", "By Jane Roe and Sam Poe", "What the committee said:", "News",
                 "Updated: Aug 21, 2025", "Posted on Monday, March 3, 2014 at 10:15 am"):  # datelines say when
        assert meta_of(untitled(f'<div class="headline">{text}</div>')).title is None, text
    assert meta_of(untitled('<div class="headline"><a href="/other">Another story on this site</a></div>')).title is None
    far = '<div class="headline">Most read stories this week</div>' + "<p>A short line.</p>" * 9
    assert meta_of(untitled(far)).title is None  # too far above the prose to be its headline
    no_prose = b'<html><body><div class="headline">Rams pay penalty for squandered chance</div><p>Short.</p></body></html>'
    assert meta_of(no_prose).title is None
    # a page that has a <title> keeps it
    assert meta_of(page(body='<div class="headline">Rams pay penalty</div>')).title == "Budget talks | Town News"


def test_headline_set_as_a_plain_line_when_no_heading_says_it():
    """Portals write the headline in a styled ``<div>``, no heading and no bold: an unlinked line
    that says the title's leading parts (four words or more) is the headline; a short one is
    as often the site's logo or a section's name."""
    title = "Slow Start Cost the Majors in Ottawa - OurSports Central - Minor League Sports"
    body = '<div class="title">Slow Start Cost the Majors in Ottawa</div>'
    assert meta_of(page(body=body, title=title)).title == "Slow Start Cost the Majors in Ottawa"
    title = "海外留学生看两会：出国前后关注点大不同_教育频道_中国青年网"
    body = '<div class="l_tit">海外留学生看两会：出国前后关注点大不同</div>'
    assert meta_of(page(body=body, title=title, lang="zh")).title == "海外留学生看两会：出国前后关注点大不同"
    title = "The Telegraph - Calcutta (Kolkata) | Sports | Tour to continue for now, says BCCI"
    assert meta_of(page(body="<div>THE TELEGRAPH</div>", title=title)).title == title
    linked = '<div><a href="/">Slow Start Cost the Majors in Ottawa</a></div>'
    title = "Slow Start Cost the Majors in Ottawa - OurSports Central - Minor League Sports"
    assert meta_of(page(body=linked, title=title)).title == title  # a link to another page is no headline


def test_a_title_of_hundreds_of_parts_beside_hundreds_of_headings_is_read_in_bounded_work():
    # each heading tried is compared with the title's leading runs only, and 20 are tried
    title = " | ".join(f"word{i}" for i in range(100))  # 889 characters: under the title's cap
    body = "".join(f"<h2>heading number {i} here</h2>" for i in range(400)) + "<h2>word0 word1</h2>"
    assert meta_of(page(body=body, title=title)).title == title
    assert meta_of(page(body="<h2>word0 | word1</h2>", title=title)).title == "word0 | word1"


def _runs_one_by_one(text, title, spans, sitename=None, domain=None, *, anywhere=False, leading=False, start=0):
    """`best_title_run` by its definition: every run of parts joined and compared with the text."""
    parts = [p for p, _, _ in spans]
    n_title = len(tokens(title))
    most_words = 2 * len(tokens(text)) if leading else n_title
    best, where = 0.0, None
    for i in range(1 if leading else len(parts)):
        for j in range(i + 1, len(parts) + 1):
            run = " ".join(parts[i:j])
            n_run = len(tokens(run))
            if leading and n_run > most_words:
                break
            score = token_overlap(text, run)
            at_start = i == 0 or (i <= start and n_run > 1)
            if (score >= 0.9 and score > best and (anywhere or at_start or 2 * n_run >= n_title)
                    and not headline.names_site(run, sitename, domain)):
                best, where = score, (i, j)
    return where


_WORDS = st.sampled_from(["town", "news", "budget", "talks", "the", "a", "Town", "river", "2024", "élan", "新闻"])
_PART = st.lists(_WORDS, min_size=0, max_size=4).map(" ".join)


@settings(max_examples=300, deadline=None, derandomize=True)
@given(parts=st.lists(_PART, min_size=1, max_size=8), text=st.lists(_WORDS, max_size=6).map(" ".join),
       sep=st.sampled_from([" - ", " | ", ": ", "|"]), anywhere=st.booleans(), leading=st.booleans(),
       start=st.integers(0, 2), sitename=st.sampled_from([None, "Town News"]), domain=st.sampled_from([None, "town.com"]))
def test_the_best_title_run_is_the_one_every_run_compared_in_turn_gives(parts, text, sep, anywhere, leading, start,
                                                                         sitename, domain):
    title = sep.join(parts)
    spans = title_parts(title)
    kwargs = dict(anywhere=anywhere, leading=leading, start=start)
    assert (headline.best_title_run(text, title, spans, sitename, domain, **kwargs)
            == _runs_one_by_one(text, title, spans, sitename, domain, **kwargs))


def test_a_keyword_stuffed_title_is_read_in_work_that_grows_with_its_parts(monkeypatch):
    # every run of a title's parts used to be joined and counted afresh: a title of 500 parts,
    # "a|a|a|…", took 14 seconds a page; the runs are now counted as they grow, as far as a run
    # can still be like the text. The tokens counted are a measure of the work, not a timing.
    counted = []

    def counting(text):
        counted.append(text)
        return tokens(text)

    monkeypatch.setattr(headline, "tokens", counting)
    title = "|".join(["a"] * 500)
    spans = title_parts(title)
    assert len(spans) == 500
    assert headline.best_title_run("a a", title, spans, anywhere=True) == (0, 2)
    assert sum(len(t) for t in counted) < 10 * len(title)
    counted.clear()
    title = "|".join(["Budget talks"] + ["a"] * 400)  # the <h1> is its first part
    assert meta_of(page(body="<h1>Budget talks</h1>", title=title)).title == "Budget talks"
    assert sum(len(t) for t in counted) < 100 * len(title)


def test_headline_from_h1_cleans_site_suffix():
    m = meta_of(page(body="<h1>Using the Fetch API</h1>", title="Using the Fetch API - Web APIs | MDN"))
    assert m.title == "Using the Fetch API"


def test_an_h1_holding_the_whole_title_and_more_gives_it_without_the_sites_names():
    title = "newsobserver.com | Players to be evaluated at the combine"
    m = meta_of(page(body=f"<h1>News &amp; Observer | {title}</h1>", title=title))
    assert m.title == "Players to be evaluated at the combine"
    m = meta_of(page(body="<h1>Budget talks go on: the council and the mayor</h1>", title="Budget talks go on"))
    assert m.title == "Budget talks go on"  # no site's name in it: the title whole


@pytest.mark.parametrize(("title", "want"), [
    ("Philippine president orders evacuations owing to typhoon_English_Xinhua",
     "Philippine president orders evacuations owing to typhoon"),
    ("InterpTriangularNativeGrid_Slayer_and_LSCgrid", "InterpTriangularNativeGrid_Slayer_and_LSCgrid"),
    ("Using snake_case names", "Using snake_case names"),
])
def test_a_sites_words_joined_by_underscores_end_no_headline(title, want):
    assert [p for p, _, _ in title_parts(title)][0] == want
    assert clean_title(title, h1=[want]) == want


@pytest.mark.parametrize(("meta", "want"), [
    ('<meta name="published" content="Mon Jul 23 21:11:10 PDT 2012">', "2012-07-23T21:11:10"),
    ('<meta name="doc_date" content="January 8, 2008 18:17:49">', "2008-01-08T18:17:49"),
    ('<meta name="publication_date" content="2008-01-18">', "2008-01-18"),
    ('<meta name="ms.date" content="2025-03-06T00:00:00Z">', "2025-03-06T00:00:00+00:00"),
    ('<meta name="Issue_Date" content="November 28, 2005">', None),  # a magazine's cover date
])
def test_publishers_own_date_tags(meta, want):
    assert meta_of(page(meta)).date == want


@pytest.mark.parametrize(("author", "site", "want"), [
    ("Dan Merica, CNN", "CNN", "Dan Merica"),
    ("Paul Adepoju and Kieron Monks, CNN", "CNN", "Paul Adepoju and Kieron Monks"),
    ("Julian Seiferth, t-online", "t-online", "Julian Seiferth"),
    ("Department of Primary Industries, Queensland", "Department of Primary Industries, Queensland",
     "Department of Primary Industries, Queensland"),  # an office's own name
    ("Ana Lopez, Ben Ode", "Town News", "Ana Lopez, Ben Ode"),  # another name, not the site's
    ("Ed Hornick CNN", "CNN", "Ed Hornick"),  # a byline's two lines joined
    ("Arion McNicoll for CNN", "CNN", "Arion McNicoll"),
    ("Ana Marie Cox", "Cox Media", "Ana Marie Cox"),  # a word of the site's name is a name's too
    ("Texas Coalition for Heritage Spanish", "Heritage Spanish Network", "Texas Coalition for Heritage Spanish"),
    # the site's name and the desk and place after it, a byline's lines joined
    ("Helen Briggs BBC News", "BBC News", "Helen Briggs"),
    ("Mariko Oi BBC News, Singapore", "BBC News", "Mariko Oi"),
    ("Maryam Maruf BBC World Service", "BBC News", "Maryam Maruf"),
])
def test_the_sites_name_after_the_authors_goes(author, site, want):
    head = f'<meta name="author" content="{author}"><meta property="og:site_name" content="{site}">'
    assert meta_of(page(head), url="https://www.bbc.co.uk/news/world-asia-22036778").author == want


@pytest.mark.parametrize("author, want", [
    ("David Mráz @davidm_ai Development", "David Mráz"),  # a handle and a desk after the name
    ("Nathan Lian @ Maintouch", "Nathan Lian"),  # a firm after "@"
    ('James "Obscurica" Chen @Obscurica', 'James "Obscurica" Chen'),
    ("Ann Lee", "Ann Lee"),
])
def test_a_handle_or_a_firm_after_an_at_sign_leaves_the_authors_name(author, want):
    assert meta_of(page(f"<meta name='author' content='{author}'>"), url="https://blog.example.org/p/1").author == want


def test_a_line_break_written_in_a_meta_value_is_markup():
    """Line breaks a template wrote into a ``content`` attribute are not the value's words: a
    byline's name comes before its paper's, and a title or a description reads on."""
    head = ("<meta name='author' content='AL ALEXANDER&lt;BR&gt;The Patriot Ledger'>"
            "<meta property='og:title' content='The Antidote <br/>to DEI'>"
            "<meta name='description' content='Hansard extract<br>Speakers: Gay, Cohen'>")
    m = meta_of(page(head, title="The Antidote &lt;br/&gt;to DEI"), url="https://news.example.org/a/1")
    assert (m.author, m.title, m.description) == ("AL ALEXANDER", "The Antidote to DEI",
                                                  "Hansard extract Speakers: Gay, Cohen")
    # a title that names an element is left as it is, the line break's too when spaced as a word
    assert meta_of(page(title="&lt;div&gt;: the division element")).title == "<div>: the division element"
    assert meta_of(page(title="30 Years of &lt;br&gt; Tags")).title == "30 Years of <br> Tags"


@pytest.mark.parametrize("placeholder", ["undefined", "None", "null", "-", "…"])
def test_a_templates_placeholder_is_no_value(placeholder):
    """A template that had no value writes one of these; the field is then empty, not false."""
    head = (f"<meta name='author' content='{placeholder}'><meta name='description' content='{placeholder}'>"
            f"<meta property='og:site_name' content='{placeholder}'>")
    m = meta_of(page(head), url="https://blog.example.org/p/1")
    assert (m.author, m.description, m.sitename) == (None, None, None)
    kept = meta_of(page("<meta name='author' content='Ann Lee'><meta name='description' content='A day on the river.'>"))
    assert (kept.author, kept.description) == ("Ann Lee", "A day on the river.")


def test_a_site_under_a_country_suffix_is_named_by_its_own_label():
    """``news.bbc.co.uk`` names the site "bbc", not "co": its title loses "BBC" as a .com site's
    loses its name, and so does a byline "Name BBC, Washington" without an og:site_name."""
    html = page(body="<p class='byline'>By Jane O'Brien<br>BBC, Washington</p>",
                title="BBC - Science &amp; Nature - North Kent Marshes")
    m = meta_of(html, url="http://news.bbc.co.uk/sn/tvradio/x.shtml")
    assert (m.title, m.author) == ("Science & Nature - North Kent Marshes", "Jane O'Brien")
    # an archived copy's site is the site it archives
    m = meta_of(page(title="NY Post - Budget talks"), url="http://web.archive.org/web/2013/http://www.nypost.com/p/x")
    assert m.title == "Budget talks"


def test_an_icon_fonts_glyph_is_no_part_of_a_headline_or_a_name():
    body = ('<h1>Ansible playbooks<a class="headerlink" href="#x">\uf0c1</a></h1>'
            '<h2 class="author">Author\uf0c1</h2>')
    m = meta_of(page(body=body, title="Ansible playbooks \u2014 Docs"))
    assert m.title == "Ansible playbooks" and m.author is None
    assert meta_of(page('<meta name="author" content="Ana Lopez \ue900">')).author == "Ana Lopez"


def test_a_blogs_name_before_a_colon_gives_way_to_the_posts_heading():
    post = ('<h1><a href="/">Town Blog</a></h1><h2>Tuesday, 13 November 2012</h2>'
            '<h3>Budget talks go on</h3>')
    m = meta_of(page(body=post, title="Town Blog: Budget talks go on"))
    assert m.title == "Budget talks go on"
    assert m.date == "2012-11-13"  # the date line over the post's heading, found once the headline is
    # the whole title said by a heading, or the part after the colon the blog's own <h1>: as written
    said = meta_of(page(body="<h1>Brexit: what next for the council</h1><h3>what next for the council</h3>",
                        title="Brexit: what next for the council"))
    assert said.title == "Brexit: what next for the council"
    other_way = meta_of(page(body="<h1>Town Blog</h1><h3>Preview of my keynote</h3>",
                             title="Preview of my keynote: Town Blog"))
    assert other_way.title != "Town Blog"


def test_logo_h1_is_not_the_headline():
    html = page(body="<h1>Salon</h1>", title="The sharing economy is a lie - Salon.com")
    assert meta_of(html, url="https://www.salon.com/2015/a").title == "The sharing economy is a lie"


def test_an_h1_run_together_with_the_blogs_name_in_a_title_part_is_the_headline():
    """A theme that writes "» <post title> <blog name>: — <tagline>" leaves no mark between the
    post's title and the blog's name, so no run of whole parts is the ``<h1>``; the part is that
    h1 and the site's own name (its address's), and the tagline is not the headline."""
    title = "» Books to understand the future Early Retirement Extreme: — a combination of simple living and DIY ethics"
    body = ('<h1><a href="http://earlyretirementextreme.com">Early Retirement Extreme</a></h1>'
            f"<p>— a combination of simple living and DIY ethics</p><h1>Books to understand the future</h1><p>{PROSE}</p>")
    url = "http://earlyretirementextreme.com/books-to-understand-the-future.html"
    assert meta_of(page(title=title, body=body), url=url).title == "Books to understand the future"


@pytest.mark.parametrize("title, h1, url, want", [
    # "Remote" is one of the site's words, not its name
    ("Remote Full-Stack Programming Jobs | We Work Remotely", "Full Stack Programming Jobs",
     "https://weworkremotely.com/categories/remote-full-stack-programming-jobs", "Remote Full-Stack Programming Jobs"),
    # a headline set on two lines is whole, though its first line is the address's name
    ("News Product Management Certification — News Product Alliance", "News Product<br>Management Certification",
     "https://newsproduct.org/news-product-management-certification", "News Product Management Certification"),
])
def test_an_h1_beside_words_that_only_resemble_the_site_is_not_cut_from_its_title(title, h1, url, want):
    assert meta_of(page(title=title, body=f"<h1>{h1}</h1><p>{PROSE}</p>"), url=url).title == want


def test_clean_title_rules():
    assert clean_title("Using the Fetch API - Web APIs | MDN", sitename="MDN Web Docs") == \
        "Using the Fetch API - Web APIs"
    assert clean_title("Budget talks approved | Town News", domain="townnews") == "Budget talks approved"
    assert clean_title("Town News | Budget talks approved", sitename="Town News") == "Budget talks approved"
    assert clean_title("A title without parts") == "A title without parts"
    assert clean_title("Town News", sitename="Town News") == "Town News"  # all site-like: kept whole
    assert clean_title("") is None


@pytest.mark.parametrize("title, want", [
    ("DeepMind新电脑已可利用记忆自学 人工智能迈上新台阶_科技_腾讯网", "DeepMind新电脑已可利用记忆自学 人工智能迈上新台阶"),
    ("李强在新疆调研时强调 彰显特色优势-新华网", "李强在新疆调研时强调 彰显特色优势"),
    ("短视频与大众文化生产_要闻_电影网_1905.com", "短视频与大众文化生产"),
    ("关注青少年心理健康“心成长”服务项目启动--健康·生活--人民网", "关注青少年心理健康“心成长”服务项目启动"),
])
def test_a_chinese_title_parted_without_spaces_loses_its_section_and_site(title, want):
    """Chinese portals write "headline_section_site" and "headline-site" without spaces: the
    page's ``<h1>`` is a part of the title, not all of it."""
    assert meta_of(page(title=title, body=f"<h1>{want}</h1><p>{PROSE}</p>", lang="zh")).title == want
    assert clean_title("co-operative well-known re_use") == "co-operative well-known re_use"  # Latin words stay whole


def test_a_chinese_headline_at_the_titles_start_beats_a_logo_h1_naming_its_end():
    """A Chinese headline is one token but many words: it is no one-word section name that a
    later ``<h1>`` (the site's logo, naming the title's last part) overrules."""
    body = ('<h1 class="logo"><a href="https://news.example/">快资讯</a></h1>'
            f"<h1>美官员否认伊朗直升机事故存在谋杀行为</h1><p>{PROSE}</p>")
    html = page(title="美官员否认伊朗直升机事故存在谋杀行为_【快资讯】", body=body, lang="zh")
    assert meta_of(html).title == "美官员否认伊朗直升机事故存在谋杀行为"


@pytest.mark.parametrize("title, h1, want", [
    # a title that begins with its site's host name: the h1 after it is the headline
    ("CNN.com - Rita growing weaker, slower - Sep 25, 2005", ["Rita growing weaker, slower"],
     "Rita growing weaker, slower"),
    ("FOXNews.com - Paula Abdul Breaks Nose - Celebrity Gossip | Entertainment News", ["Entertainment",
     "Paula Abdul Breaks Nose"], "Paula Abdul Breaks Nose"),
    # a one-word h1 after the site's name is its section, not the headline
    ("The Barn Swallow - Shop", ["The Barn Swallow", "Shop"], "The Barn Swallow - Shop"),
    # a module's dotted name is no host name, nor a file's
    ("celery.app.events - Celery 5.2 documentation", ["celery.app.events"], "celery.app.events"),
    ("Node.js - Run JavaScript Everywhere", [], "Node.js - Run JavaScript Everywhere"),
    # a host name at either end is the site's, with no address to say so
    ("Viator.com | Book London Tours and Day Trips", [], "Book London Tours and Day Trips"),
    # a brand in a headline does not make it the site's name: the site-named h1 ends the title
    ("Xfinity TV and Streaming - Xfinity Entertainment", ["Xfinity Entertainment"], "Xfinity TV and Streaming"),
])
def test_clean_title_after_a_leading_site_name(title, h1, want):
    sitename = {"The Barn Swallow - Shop": "The Barn Swallow"}.get(title, "Xfinity" if "Xfinity" in title else None)
    assert clean_title(title, h1=h1, sitename=sitename) == want

def test_a_blog_title_parted_by_a_guillemet_gives_the_post_headline():
    """Older blog themes write "Post « Blog", as others write "Blog » Post"."""
    html = page(title="Wheels Up… « Joe McNally’s Blog", body="<h2>Wheels Up…</h2><p>" + PROSE + "</p>")
    assert meta_of(html).title == "Wheels Up…"


def test_a_blogs_logo_h1_that_ends_the_title_yields_to_the_posts_heading():
    """The blog's name is its logo's ``<h1>``, a link home, and ends the title as a part of its
    own; the post's title is an ``<h2>`` that says the title's start."""
    body = ('<h1><a href="https://blog.example/">Rand\'s Blog</a></h1><h2><a href="/103/just-keep-going">Just Keep'
            ' Going</a></h2><p>' + PROSE + "</p>")
    assert meta_of(page(title="Just Keep Going « Rand's Blog", body=body)).title == "Just Keep Going"
    # a longer post title, which the logo alone would leave whole
    long_title = "Editorial Guidelines for this Blog"
    body = body.replace("Just Keep Going", long_title)
    assert meta_of(page(title=f"{long_title} « Rand's Blog", body=body)).title == long_title
    # an <h1> that is no link is the headline, even when it ends the title ("Artist – Song")
    song = "<h1>Bodak Yellow</h1><h2>Zhavia Ward</h2><p>" + PROSE + "</p>"
    assert meta_of(page(title="Zhavia Ward – Bodak Yellow", body=song)).title == "Bodak Yellow"



def test_opengraph_title_that_disagrees_with_the_page_is_not_taken():
    head = '<meta property="og:title" content="Wikimedia list article">'
    m = meta_of(page(head, body="<h1>List of films</h1>", title="List of films - Wikipedia"))
    assert m.title == "List of films"


def declared(lang: str) -> str:
    """A page too short for its text to overrule its declared language."""
    return f'<html lang="{lang}"><head><title>Notícias</title></head><body><p>Bom dia.</p></body></html>'


def test_lang_declaration_primary_subtag():
    assert meta_of(page(lang="en-US")).lang == "en"
    assert meta_of(declared("pt_BR")).lang == "pt"


def test_lang_from_text_when_undeclared():
    html = f"<html><head><title>Haushalt</title></head><body><p>{GERMAN * 3}</p></body></html>"
    assert meta_of(html).lang == "de"


def test_lang_of_a_short_chinese_page_without_a_declaration():
    """Twenty Chinese characters identify their language; twenty Latin letters do not."""
    html = "<html><head><title>又双叒要放假了 元旦要来啦！</title></head><body><p>元旦快乐！</p></body></html>"
    assert meta_of(html).lang == "zh"
    assert meta_of("<html><head><title>Holidays soon</title></head><body><p>Yes!</p></body></html>").lang is None


def test_lang_from_other_declarations():
    html = page('<meta http-equiv="Content-Language" content="en-GB">', lang=None)
    assert meta_of(html).lang == "en"
    assert meta_of(page('<meta property="og:locale" content="en_US">', lang=None)).lang == "en"


def test_lang_declaration_checked_against_the_text_script():
    russian = "Комитет собрался во вторник, чтобы обсудить новый бюджет публичной библиотеки города. " * 4
    html = f'<html lang="en"><head><title>Бюджет</title></head><body><p>{russian}</p></body></html>'
    assert meta_of(html).lang == "ru"


SWAHILI = ("Serikali imetangaza mpango mpya wa kuboresha huduma za afya katika vijiji vya mikoa ya kusini, "
           "ambapo zahanati nyingi zitapatiwa dawa na vifaa vya kisasa. Wananchi wameombwa kushiriki katika "
           "mikutano ya hadhara ili kutoa maoni yao kuhusu mpango huo. ")
NORWEGIAN = ("Regjeringen la tirsdag fram et nytt forslag om å styrke bibliotekene i kommunene, som har hatt "
             "stadig flere besøkende de siste tre årene og nå trenger flere ansatte og lengre åpningstider. ")


def test_a_language_placed_in_little_of_the_text_does_not_replace_the_declared_one(monkeypatch):
    """Chinese specifications full of Latin part names read as Latin script, so the declared
    "zh" does not fit; CLD2 then placed 5% of the text, as Scots, which must not stand."""
    import blockclf.language as language

    class FewPlaced:
        error = ValueError

        @staticmethod
        def detect(text: str, isPlainText: bool = True) -> tuple:
            return False, len(text), (("SCOTS", "sco", 5, 8192.0), ("Unknown", "un", 0, 0.0))

    monkeypatch.setattr(language, "pycld2", FewPlaced)
    assert language._identify("Wi-Fi 802.11 b/g/n (150 Mbps)")[1] < 0.2
    specs = "规格 Wi-Fi：802.11 a/b/g/n/ac (433 Mbps)，BLE 5.0，GPIO x 26，I2C/SPI/UART x 2，ADC 12-bit x 6"
    assert language.page_language(["zh-CN"], specs) == "zh"


def test_a_declaration_in_the_texts_script_yields_to_a_sure_reading_of_a_long_text(monkeypatch):
    """A theme's lang="en" left on a Swahili news site: the text's language, when CLD2 is sure
    of at least 200 characters; a short text, or a close kin of the declared language, leaves
    the declaration standing."""
    import blockclf.language as language

    def lang_of(text: str, lang: str = "en") -> str | None:
        return meta_of(f'<html lang="{lang}"><head><title>Habari</title></head><body><p>{text}</p></body></html>').lang

    assert lang_of(SWAHILI) == "sw"
    assert lang_of(SWAHILI, "sw-TZ") == "sw"
    assert lang_of(NORWEGIAN * 2, "nb") == "nb"  # CLD2 reads Bokmål as "no": the declared kin stands
    assert lang_of(NORWEGIAN * 2, "de") == "no"
    assert lang_of(SWAHILI[:150]) == "en"  # too short to overrule
    monkeypatch.setattr(language, "pycld2", None)  # where CLD2 cannot be installed, the declaration stands
    assert lang_of(SWAHILI) == "en"


@pytest.mark.parametrize("script", [
    '{"@type": "Article", "author": 5, "datePublished": ["x"], "headline": {"a": 1}}',
    '{"@type": 7, "author": {"name": ["Ana"]}}',
    '[' * 100_000 + ']' * 100_000,  # nesting deeper than the JSON reader allows
    '{"@type": "Article", "author": {"@id": "#loop"}, "@id": "#loop"}',
    "{not json",
    '"just a string"',
    "null",
])
def test_hostile_jsonld_never_raises(script):
    m = meta_of(page(f'<script type="application/ld+json">{script}</script>'))
    assert isinstance(m, Metadata)
    assert m.lang == "en"  # the other sources are still read


def test_deep_and_wide_jsonld_is_bounded():
    deep: dict = {"@type": "Thing"}
    node = deep
    for _ in range(500):
        node["child"] = {"@type": "Thing"}
        node = node["child"]
    node["@type"], node["author"] = "Article", {"name": "Too Deep"}
    wide = [{"@type": "Thing", "name": str(i)} for i in range(20_000)] + [{"@type": "Article", "author": "Too Far"}]
    big = {"@type": "Article", "author": "Too Big", "x": "y" * MAX_JSONLD_CHARS}
    assert meta_of(page(ld(node))).author == "Too Deep"  # the same object, not nested, is read
    m = meta_of(page(ld(deep) + ld(wide) + ld(big)))
    assert m.author is None  # beyond the depth bound, past the node budget, or in an oversized script


def test_metadata_never_raises_on_a_broken_document():
    doc = parse(page())
    doc.root = None  # type: ignore[assignment]
    m = page_metadata(doc)
    assert isinstance(m, Metadata) and m.title == "Budget talks | Town News"


def test_result_and_json_carry_metadata(tiny_model):
    head = ('<meta name="author" content="Ana Lopez"><meta property="article:published_time" content="2021-03-04">'
            '<meta property="article:tag" content="library">')
    html = page(head, body="<h1>Budget talks</h1>", title="Budget talks | Town News")
    res = extract(html, model=tiny_model, url="https://town.example/a")
    assert res.title == "Budget talks"
    assert res.metadata.author == "Ana Lopez"
    d = res.to_dict()
    assert d["title"] == "Budget talks" and d["author"] == "Ana Lopez" and d["date"] == "2021-03-04"
    assert d["lang"] == "en" and d["tags"] == ["library"] and d["categories"] == []
    assert d["url"] == "https://town.example/a" and d["canonical_url"] == "https://town.example/a"
    for key in ("modified", "description", "sitename"):
        assert key in d
    json.dumps(d)


def test_prepare_carries_metadata_without_the_tree():
    p = prepare(page('<meta name="author" content="Ana Lopez">'))
    assert p.metadata.author == "Ana Lopez"


def test_date_written_in_the_byline():
    body = '<h1>Budget talks</h1><p class="byline">By Ada Marsh · 12 March 2026 · 6 min read</p>'
    m = meta_of(page(body=body))
    assert m.author == "Ada Marsh" and m.date == "2026-03-12"


def test_author_from_meta_and_date_from_time_element():
    m = meta_of(page('<meta name="author" content="Ana Lopez">',
                     body='<h1>Budget talks</h1><time datetime="2014-02-03">Feb 3</time>'))
    assert m.author == "Ana Lopez" and m.date == "2014-02-03"


def test_a_character_set_or_a_withdrawn_code_where_the_language_belongs():
    body = "<p>" + "Der Fluss schlängelt sich in langen Schleifen durch die weite Ebene bis zum Meer. " * 3 + "</p>"
    charset = f'<html><head><meta http-equiv="Content-Language" content="utf-8"></head><body>{body}</body></html>'
    assert meta_of(charset).lang == "de"  # "utf-8" names no language: the text's is identified
    assert meta_of(declared("in")).lang == "id"  # Indonesian's old code


def test_languages_are_identified_where_cld2_cannot_be_installed(monkeypatch):
    import blockclf.language as language

    monkeypatch.setattr(language, "pycld2", None)  # as on a platform pycld2 has no wheel for
    lang, confidence = language._identify("Der Fluss schlängelt sich in langen Schleifen durch die weite Ebene bis zum Meer.")
    assert lang == "de" and confidence > 0.9
    body = "<p>" + "Der Fluss schlängelt sich in langen Schleifen durch die weite Ebene bis zum Meer. " * 3 + "</p>"
    assert meta_of(f"<html><head><title>Der Fluss</title></head><body>{body}</body></html>").lang == "de"


def test_text_the_identifier_refuses_leaves_the_declaration():
    from blockclf.language import _identify

    assert _identify("\x00\x01\ud800\ufffe") == ("un", 0.0)
    text = "\x00".join(["Бюджетные переговоры продолжились в среду в городском совете"] * 3) + "\ud800"
    html = f'<html lang="en"><head><title>Бюджет</title></head><body><p>{text}</p></body></html>'
    assert meta_of(html).lang == "ru"  # control characters and a lone surrogate are read past


# --- bylines: what stands around the name ----------------------------------------------------


@pytest.mark.parametrize("byline, name", [
    ("By Jane Doe, Staff Writer", "Jane Doe"),  # a job title after a comma
    ("Jane Doe, Senior Editor", "Jane Doe"),
    ("By JANE DOE, Associated Press", "JANE DOE"),  # an agency after a comma
    ("By Ana Lopez, Ben Ode", "Ana Lopez, Ben Ode"),  # two names stay
    ("By Brenda Goodman, MA", "Brenda Goodman, MA"),  # a degree is no job title
    ("Jane Doe Senior Editor", "Jane Doe"),  # a job title without a comma
    ("Jane Doe is a senior reporter at Town News.", "Jane Doe"),  # an author box's bio
    ("Written by Rob Ewaschuk Edited by Betsy Beyer", "Rob Ewaschuk"),  # the editor is no author
    ("Words by Jane Doe, photos by John Roe", "Jane Doe"),
    ("Posted on March 3, 2024 by Jane Doe", "Jane Doe"),  # the name after a late "by"
    ("12 March 2024 · Jane Doe", "Jane Doe"),  # a date before the name
    ("Jane Doe (jane@example.org)", "Jane Doe"),  # a contact after it
    ("Judith Burns Education reporter BBC News", "Judith Burns"),  # a beat before the job
    ("Jeremy Straub, Assistant Professor of Computer Science, North Dakota State University", "Jeremy Straub"),
    ("Sharon Weinberger About the author Sharon is a fellow at the Wilson Center", "Sharon Weinberger"),
    ("Nate Johnson @", "Nate Johnson"),
    ("12:30 PM EST Kurt Orzeck", "Kurt Orzeck"),  # a time zone is part of the date
    ("By Jane Doe in Karachi", "Jane Doe"),  # where the reporter was
    ("JANE DOE in Los Angeles and JOHN ROE", "JANE DOE"),
    ("By TPN, in News, Portugal, Business", "TPN"),  # the sections it is filed in, after a comma
    ("Tracey Bible, Read more about Tracey Bible", "Tracey Bible"),  # a link to her page after it
    ("本报记者 王乐文", "王乐文"),  # "this paper's reporter", written without a space
    ("作者：王乐", "王乐"),
    ("文化部", "文化部"),  # a name that starts with the word for "text" keeps it
    ("Jane Doe, special to Town News", "Jane Doe"),  # whom she wrote for
    ("JANE DOE Special to The Star", "JANE DOE"),
    ("By Jane Doe and agencies", "Jane Doe"),  # the agencies' share
    ("Jane Doe and wires", "Jane Doe"),
    ("Analysis by Jane Doe", "Jane Doe"),  # the kind of piece before "by"
    ("This post was written by Nigel", "Nigel"),
    ("Post by mickyd » Wed Mar 03, 2021 9:14 am", "mickyd"),  # a forum's post header
    ("Jane Doe, Head of Marketing", "Jane Doe"),
    ("Jane Doe Published 12:30 PM", "Jane Doe"),
    ("The Associated Press Published: 10/01/2008", "The Associated Press"),  # the date's label, with a colon
    ("Reuters Posted: Jan 9", "Reuters"),
    ("(Rich Smith)", "Rich Smith"),  # a name wholly in brackets
    ("By Sue Pleming and Mark John Sue Pleming And Mark John", "Sue Pleming and Mark John"),  # and a microformat's copy
    # "on", "am", "le", "el", "il" end a name where a date, a time or a network follows them, not
    # inside a name: a couple's brand, an Arabic surname
    ("by White on Rice Couple on November 12, 2012", "White on Rice Couple"),
    ("By HAMZA HENDAWI, SARAH EL DEEB and MAGGIE MICHAEL", "HAMZA HENDAWI, SARAH EL DEEB and MAGGIE MICHAEL"),
    ("By Jane Doe on Monday", "Jane Doe"),
    ("Jane Doe on the 3rd", "Jane Doe"),
    ("Jane Doe on X", "Jane Doe"),
    ("Von Hans Meier am 3. März 2024 um 12:00 Uhr", "Hans Meier"),
    ("Von Hans Meier am Montag", "Hans Meier"),
    ("par Jean Dupont le lundi 3 mars", "Jean Dupont"),
    ("por Juan Pérez el 3 de marzo", "Juan Pérez"),
    ("di Mario Rossi il 3 marzo", "Mario Rossi"),
    ("ROD NORDLAND;MAYY EL SHEIKH", "ROD NORDLAND, MAYY EL SHEIKH"),  # names parted by a semicolon
    # a wire's or a paper's job title without a comma, a desk after a slash, what a cut leaves
    ("Jeff Latzke AP Sports Writer", "Jeff Latzke"),
    ("JASON STRAZIUSO Associated Press Writer", "JASON STRAZIUSO"),
    ("RICHARD HUFF DAILY NEWS TV WRITER", "RICHARD HUFF"),
    ("Tyler Marshall and Alissa J. Rubin Times Staff Writers", "Tyler Marshall and Alissa J. Rubin"),
    ("Michael Goldfarb Writer and broadcaster", "Michael Goldfarb"),
    ("Eliot Caroom/The Star-Ledger", "Eliot Caroom"),
    ("Ed Silverman //", "Ed Silverman"),
    ("By Ed Silverman // November 6th, 2012 // 10:07 am", "Ed Silverman"),  # the date cut off first
    ("M.A.Qudoos and Nada S. Mussallam (Our Staff Reporter)", "M.A.Qudoos and Nada S. Mussallam"),
    ("Jason Ditz is news editor of Antiwar.com.", "Jason Ditz"),
    ("Meaghan Weeden ● March 3", "Meaghan Weeden"),  # a symbol as separator
    ("Pacomasys Search Engine Marketing", "Pacomasys Search Engine Marketing"),  # a firm's, not a search box's
    ("About Becky", "Becky"),  # an author box's heading
    ("ABOUT NICHOLAS GRIFFIN", "NICHOLAS GRIFFIN"),
])
def test_byline_text_is_cleaned_to_the_name(byline, name):
    assert meta_of(page(body=f'<h1>Budget talks</h1><p class="byline">{byline}</p>')).author == name


@pytest.mark.parametrize("byline", ["Staff", "Columnists", "5 min read", "Jan 16 2008 2:48 PM EST",
                                    "postCount('109128363200774996')",
                                    # labels that name no one: a form's, a box's, a "by" with nothing after it
                                    "Name (required)", "About the Author", "Posted by", "Posted on", "Written By",
                                    "More from", "All Posts",
                                    # a date alone, or before a credit whose name is in an empty link
                                    "Jun 2", "Jun 2 Written By", "Published: January 09, 2008",
                                    "Archives by Author...",  # a label cut short
                                    # one word in brackets, a forum's rank
                                    "[www]", "[Archives]", "Member", "Senior Member", "Moderator",
                                    "A Photo Editor", "S",  # a letter alone, after a job title or not
                                    "About Us", "About this blog", "Search Site"])  # the site's links
def test_byline_that_names_no_one(byline):
    assert meta_of(page(body=f'<h1>Budget talks</h1><p class="byline">{byline}</p>')).author is None


@pytest.mark.parametrize("byline", ["Action-packed day for car manufacturers", "please enjoy this skit",
                                    # a footer's legal links in a box the site calls "byline"
                                    '<a href="/terms">Terms of Use</a> <a href="/privacy">Privacy Policy</a>',
                                    '<a href="/p/1">Permalink</a>',
                                    # an editor's credit in Chinese: "responsible editor", "selected by"
                                    "[责任编辑：杜智 PX209]", "选稿：许文杰",
                                    # a mobile-site link in an author box ("mobile version")
                                    '<a href="https://m.site.example/a.html">手机版</a>'])
def test_byline_box_holding_a_phrase_or_links_names_no_one(byline):
    assert meta_of(page(body=f'<h1>Budget talks</h1><p class="byline">{byline}</p>')).author is None


@pytest.mark.parametrize("author", ["集艺术瑰宝，架艺术桥梁——中国艺术品网",  # a site's slogan
                                    "Coming Soon! Plant-Based Food Colors, Holiday Edition (Red & Green) $"])
def test_a_slogan_or_a_price_in_the_author_meta_names_no_one(author):
    assert meta_of(page(head=f'<meta name="author" content="{author}">', body="<h1>Budget talks</h1>")).author is None


def test_an_author_meta_that_credits_the_generator_names_no_one():
    """A forum package writes its makers into every page's author ``<meta>``, beside its own
    name in ``generator``; a site that names itself in both does the same. The byline names the writer."""
    head = '<meta name="generator" content="Discuz! X3.3"><meta name="author" content="Discuz! Team and Comsenz UI Team">'
    assert meta_of(page(head=head, body="<h1>Budget talks</h1>")).author is None
    byline = '<p class="byline">By Ana Lopez</p>'
    assert meta_of(page(head=head, body=f"<h1>Budget talks</h1>{byline}")).author == "Ana Lopez"
    site = '<meta name="generator" content="Drupal 10 (https://www.drupal.org)"><meta name="author" content="GURUS - Drupal">'
    assert meta_of(page(head=site, body="<h1>Budget talks</h1>")).author is None
    # a generator that names no writer leaves the author alone
    own = '<meta name="generator" content="WordPress 6.4"><meta name="author" content="Ana Lopez">'
    assert meta_of(page(head=own, body="<h1>Budget talks</h1>")).author == "Ana Lopez"


def test_an_organisation_named_in_a_byline_box_is_its_author():
    byline = '<p class="byline">Susan G. Komen for the Cure</p>'
    assert meta_of(page(body=f"<h1>Budget talks</h1>{byline}")).author == "Susan G. Komen for the Cure"


@pytest.mark.parametrize("byline, author", [
    ("By Mary Murray", "Mary Murray"),  # a person's byline: she wrote it
    ("By NBC News", "World News"),  # a desk's, a team's or a paper's name: the site stays
    ("By The World News Team", "World News"),
    ("Author: World News", "World News"),  # the site's name again
])
def test_a_site_named_as_its_own_author_gives_way_to_a_persons_byline(byline, author):
    head = ('<meta property="og:site_name" content="World News">'
            + ld({"@type": "NewsArticle", "author": {"@type": "Organization", "name": "World News"}}))
    html = page(head=head, body=f'<h1>Budget talks</h1><p class="byline">{byline}</p>')
    assert meta_of(html).author == author


@pytest.mark.parametrize("named, byline, author", [
    ("Los Angeles Times", "By Ken Bensinger", "Ken Bensinger"),  # the paper, not the site's name
    ("WIRED Staff", "By Scott Rosenberg", "Scott Rosenberg"),  # a desk
    ("Pocket-lint Ltd.", "By Katie Scott", "Katie Scott"),  # a firm
    ("jrobison", "By John Robison", "John Robison"),  # a user name
    ("KyreeLeary", "By Kyree Leary", "Kyree Leary"),
    ("Maddy", "By Jane Smith", "Maddy"),  # one capitalised word is a name
    ("Ana Lopez", "By Jane Smith", "Ana Lopez"),  # a person's name stands
    ("WIRED Staff", "Full Bio", "WIRED Staff"),  # a link's label beside a name is no one
    ("WIRED Staff", "More About Me", "WIRED Staff"),
])
def test_a_desk_firm_or_user_named_as_author_gives_way_to_a_persons_byline(named, byline, author):
    head = f'<meta property="og:site_name" content="Daily Planet"><meta name="author" content="{named}">'
    html = page(head=head, body=f'<h1>Budget talks</h1><p class="byline">{byline}</p><p>{PROSE}</p>')
    assert meta_of(html).author == author


@pytest.mark.parametrize("named, site, url, author", [
    ("LTO", "Legal Tribune Online", "https://www.lto.de/recht/a-1", "Max Kolter"),  # the domain's name
    ("Krautreporter", "Krautreporter eG", "https://krautreporter.de/a-1", "Max Kolter"),  # the site's name
    ("Maddy", "Daily Planet", "https://www.dailyplanet.com/a-1", "Maddy"),  # a name the site does not have
])
def test_a_site_named_in_one_word_as_author_gives_way_to_a_persons_byline(named, site, url, author):
    head = f'<meta property="og:site_name" content="{site}"><meta name="author" content="{named}">'
    html = page(head=head, body=f'<h1>Budget talks</h1><p class="byline">By Max Kolter</p><p>{PROSE}</p>')
    assert meta_of(html, url=url).author == author


def test_a_post_marked_with_its_authors_name_is_no_byline_box():
    """Blog themes mark each post with its author's name ("entry-author-ana_lopez"): the post
    is no byline, and the first link in it that reads as a name is no author."""
    paras = "".join(f"<p>{PROSE} See <a href='/t/{n}'>Lady Gaga</a>.</p>" for n in range(4))
    post = f'<div class="entry-author-ana_lopez entry"><h1>Budget talks</h1>{paras}</div>'
    assert meta_of(page(body=post)).author is None
    byline = '<div class="author-box"><p>By Ana Lopez</p><p>a</p><p>b</p><p>c</p></div>'
    assert meta_of(page(body=f"<h1>Budget talks</h1>{byline}")).author == "Ana Lopez"


def test_a_post_whose_paragraphs_are_line_breaks_is_no_byline_box_either():
    """The same post, its paragraphs parted by ``<br>``: a box of more words than a bio holds."""
    paras = "<br><br>".join(f"{PROSE * 2} See <a href='/t/{n}'>Lady Gaga</a>." for n in range(4))
    post = f'<div class="entry-author-ana_lopez entry"><h1>Budget talks</h1>{paras}</div>'
    assert meta_of(page(body=post)).author is None
    bio = ('<div class="author-box"><a href="/people/ana">Ana Lopez</a> is the presenter of a weekly science show '
           'and has reported from war zones and technology fairs for over a decade.</div>')
    assert meta_of(page(body=f"<h1>Budget talks</h1>{bio}")).author == "Ana Lopez"


def test_a_threads_counters_and_its_question_name_no_author():
    """A question box a site marks "authorContent": its answer counter and the question's own
    link are no names; the asker's link after them is."""
    box = ('<div class="authorContent56435"><span class="rating"><a href="/question?id=2780">'
           '<span class="commentCount">11</span> <br>Answers</a></span>'
           '<a href="/question?id=2780"><p>Lets say A is a friend of B and B is a friend of C then A and C are two '
           'degree friends. How will you implement this function efficiently.</p></a>'
           '<span class="author"> - <a href="/user?id=56435">gauravk.18</a></span></div>')
    assert meta_of(page(body=f"<h1>Budget talks</h1>{box}")).author == "gauravk.18"


def test_by_line_without_a_class_after_the_headline():
    assert meta_of(page(body="<h1>Budget talks</h1><p>By Jane Doe</p>")).author == "Jane Doe"
    assert meta_of(page(body="<h1>Budget talks</h1><p>By Ana de la Cruz and Ben Ode | March 3, 2024</p>")).author \
        == "Ana de la Cruz and Ben Ode"  # several names may be longer than one
    for line in ("By the numbers", "By 2030, the library will need twice the staff"):
        assert meta_of(page(body=f"<h1>Budget talks</h1><h2>{line}</h2>")).author is None


@pytest.mark.parametrize("line, name", [
    ("Von Anna Schmidt", "Anna Schmidt"), ("Por Steven Lee Myers, Keith Bradsher y Tariq Panja",
                                           "Steven Lee Myers, Keith Bradsher y Tariq Panja"),
    ("Par Jean Dupont et Marie Curie", "Jean Dupont et Marie Curie"), ("Door Jan de Vries", "Jan de Vries"),
    ("di Mario Rossi", "Mario Rossi"), ("Av Kari Nordmann", "Kari Nordmann"),
    ("Von Berlin aus fuhr der Zug weiter", None), ("Por qué sube el precio del pan", None),
    ("Par ailleurs, la ville recule", None),  # sentences that open with the word
])
def test_by_line_in_other_languages(line, name):
    assert meta_of(page(body=f"<h1>Haushalt</h1><p>{line}</p>")).author == name


def test_digits_inside_a_word_stay_in_the_name():
    assert meta_of(page('<meta name="author" content="BR24 Redaktion">')).author == "BR24 Redaktion"


def test_byline_with_two_adjacent_time_elements():
    body = ('<h1>Budget talks</h1><div class="byline"><time datetime="2024-09-12">2024</time>'
            "<time>September 12</time> Jane Doe</div>")
    m = meta_of(page(body=body))
    assert m.author == "Jane Doe" and m.date == "2024-09-12"


def test_author_meta_with_a_link_or_address_after_the_name():
    assert meta_of(page('<meta name="author" content="Bradley M. Kuhn (http://ebb.org/bkuhn/)">')).author == \
        "Bradley M. Kuhn"
    assert meta_of(page('<meta name="author" content="Ana Lopez &lt;ana@example.org&gt;">')).author == "Ana Lopez"


def test_author_meta_that_is_no_name_gives_way_to_the_next():
    head = '<meta name="author" content="Follow us!"><meta name="dc.creator" content="Ana Lopez">'
    assert meta_of(page(head)).author == "Ana Lopez"


def test_jsonld_author_is_cleaned_like_a_byline():
    head = ld({"@type": "Article", "author": [{"@type": "Person", "name": "By Ana Lopez, Staff Writer"},
                                               {"@type": "Person", "name": "Ben Ode"}]})
    assert meta_of(page(head)).author == "Ana Lopez, Ben Ode"


def test_symbols_are_no_name():
    body = '<h1>Budget talks</h1><div class="author-note">*****Notes*****</div>'
    assert meta_of(page(body=body)).author is None


def test_user_name_gives_way_to_the_byline_near_the_headline():
    head = ld({"@type": "NewsArticle", "headline": "Budget talks", "creator": "CC7567"})
    body = '<article><h1>Budget talks</h1><div class="byline"><a href="/u/CC7567">James Akinaka</a> • 8h</div></article>'
    assert meta_of(page(head, body=body)).author == "James Akinaka"
    assert meta_of(page(head, body="<h1>Budget talks</h1>")).author == "CC7567"  # no byline: kept


def test_links_to_author_pages_name_the_authors():
    body = ('<article><h1>Budget talks</h1><p>By <a href="/author/jane-doe">Jane Doe</a> and '
            '<a href="/author/john-roe">John Roe</a></p></article>')
    assert meta_of(page(body=body)).author == "Jane Doe, John Roe"
    box = ('<article><h1>Budget talks</h1><p class="byline">By <a href="/authors/ana">Ana Lopez</a>, '
           '<a href="/authors/ben">Ben Ode</a> | <a href="/comments">12 comments</a></p></article>')
    assert meta_of(page(body=box)).author == "Ana Lopez, Ben Ode"


def test_by_before_a_link_names_the_author_but_a_credit_does_not():
    body = ('<div class="head"><h1>Budget talks</h1><h2>Super Supportive</h2><span>by</span> '
            '<h3><a href="/profile/338123">Sleyca</a></h3></div>')
    assert meta_of(page(body=body)).author == "Sleyca"
    credit = '<div><h1>Budget talks</h1><p><em>Portrait by <a href="/studio">George Barr</a></em></p></div>'
    assert meta_of(page(body=credit)).author is None


def test_bylines_near_either_headline_come_before_links():
    """A logo h1's surroundings hold section links (/columnists/); the article's byline wins."""
    body = ('<div class="masthead"><h1>The Town Dispatch</h1><a href="/columnists/ana-lopez">Ana Lopez</a></div>'
            '<nav>Home</nav><nav>Sports</nav><nav>Jobs</nav>'
            '<article><h1>Story tools</h1><div class="byline">By John McGrath</div></article>')
    assert meta_of(page(body=body, title="Seattle QB beats media blitz")).author == "John McGrath"


# --- headline ----------------------------------------------------------------------------------


def test_h1_at_the_title_start_beats_a_project_name_h1():
    body = ('<div class="header"><h1 class="heading"><a href="index.html">evolve extension for Mercurial</a></h1></div>'
            '<div class="body"><h1>Evolve: Shared Mutable History<a class="headerlink" href="#e">¶</a></h1></div>')
    m = meta_of(page(body=body, title="Evolve: Shared Mutable History — evolve extension for Mercurial"))
    assert m.title == "Evolve: Shared Mutable History"  # and without its permalink glyph
    assert meta_of(page(body="<h1>Learn C#</h1>", title="Learn C# | Town News")).title == "Learn C#"


def test_title_part_naming_the_logo_h1_is_dropped():
    title = "Conversations - Chapter 1 - Ana - Hero Academia | My Hero Academia [Archive of Our Own]"
    m = meta_of(page(body='<h1 class="heading">Archive of Our Own beta</h1>', title=title))
    assert m.title == "Conversations - Chapter 1 - Ana - Hero Academia"
    # an <h1> that is nearly the headline is no logo: the title keeps its headline
    m = meta_of(page(body="<h1>Budget talks approved by council on Monday</h1>",
                     title="Budget talks approved by council | Town News"))
    assert m.title == "Budget talks approved by council | Town News"
    # nor is an h1 that starts the title, nor a one-word h1, which is as often the page's section
    m = meta_of(page(body="<h1>Tour de force</h1>", title="Tour de force: Lions tour 2005 | Special reports | Sport"))
    assert m.title == "Tour de force: Lions tour 2005 | Special reports | Sport"
    assert meta_of(page(body="<h1>Books</h1>", title="Scotsman.com Living - Books"),
                   url="https://scotsman.com/b").title == "Scotsman.com Living - Books"


def test_h1_takes_the_title_run_most_like_it():
    """Not the first run nearly like it: a question's tag before it is no part of the headline."""
    m = meta_of(page(body="<h1>Why is a bare except bad practice?</h1>",
                     title="python - Why is a bare except bad practice? - Town Answers"))
    assert m.title == "Why is a bare except bad practice?"
    m = meta_of(page(body="<h1>How a film changed one man's vision</h1>",
                     title="Town News - Future - Health - How a film changed one man's vision"))
    assert m.title == "How a film changed one man's vision"


def test_h1_that_is_the_site_name_is_not_the_headline():
    head = '<meta property="og:site_name" content="Town Dispatch">'
    m = meta_of(page(head, body="<h1>Town Dispatch</h1>", title="Budget talks approved by council - Town Dispatch"))
    assert m.title == "Budget talks approved by council"
    # nor the domain's name, with a short ending; a headline holding that name stays one
    m = meta_of(page(body="<h1>TownDispatch.com</h1>", title="TownDispatch.com – The Briefing, Friday, March 8"),
                url="https://www.towndispatch.com/briefing")
    assert m.title == "The Briefing, Friday, March 8"
    m = meta_of(page(body="<h1>TownDispatch wins a press award</h1>",
                     title="TownDispatch wins a press award | Other News"), url="https://towndispatch.com/a")
    assert m.title == "TownDispatch wins a press award"


def test_one_word_h1_at_the_title_start_yields_to_a_longer_one():
    body = "<h1>How to back up my whole system?</h1><h1>Backup</h1>"
    assert meta_of(page(body=body, title="backup - How to back up my whole system? - Town Answers")).title == \
        "How to back up my whole system?"
    # alone, it is the headline
    assert meta_of(page(body="<h1>Mozilla</h1>", title="Mozilla - Town Wiki")).title == "Mozilla"


def test_metadata_headline_that_is_a_title_part_however_short():
    """Too few of the title's words to agree with it, but plainly one of its parts."""
    head = '<meta name="DC.Title" content="remoteBudget">'
    m = meta_of(page(head, title="draft-lopez-remotebudget-04 - remoteBudget"))
    assert m.title == "remoteBudget"
    head = '<meta property="og:title" content="Pasta for the storm">'
    title = "Pasta for the storm | Sticky, Gooey, Creamy, Chewy | A Blog About Food with a Little Life Stirred In"
    assert meta_of(page(head, title=title)).title == "Pasta for the storm"
    # one word beside the site's name is the page's generic name: the title stays whole
    head = '<meta property="og:title" content="Home"><meta property="og:site_name" content="The Town News Daily">'
    assert meta_of(page(head, title="Home - The Town News Daily")).title == "Home - The Town News Daily"


def test_comment_authors_are_not_the_page_author():
    comments = ('<ol class="commentlist"><li class="comment"><div class="comment-author vcard">'
                '<cite class="fn">Devin</cite> says:</div><p>Nice post.</p></li>'
                '<li class="comment"><p class="comment-data">By <a href="https://ana.example.org">Ana Lopez</a>, at 9:30</p>'
                '</li></ol>')
    assert meta_of(page(body=f"<article><h1>Budget talks</h1>{comments}</article>")).author is None
    assert meta_of(page(body=f'<article><h1>Budget talks</h1><p class="byline">By Jane Doe</p>{comments}</article>'
                        )).author == "Jane Doe"
    # a box that holds the byline beside the comments' counter is no comment
    body = ('<article><h1>Budget talks</h1><section class="contributor-and-comments"><div class="name">by '
            '<a href="/author/jane-doe" rel="author">Jane Doe</a></div><a href="#c">12 comments</a></section></article>')
    assert meta_of(page(body=body)).author == "Jane Doe"


def test_a_name_that_starts_with_digits_keeps_them():
    body = '<h1>Budget talks</h1><p>Posted by <a href="/about">37signals</a></p>'
    assert meta_of(page(body=body)).author == "37signals"


def test_authors_written_after_an_author_link():
    """Sites link only their staff's pages: the other names follow the link as text."""
    def author(byline: str) -> str | None:
        return meta_of(page(body=f"<article><h1>Budget talks</h1>{byline}</article>")).author

    assert author('<p class="byline">By <a href="/staff/ana">Ana Lopez</a> and Ben Ode</p>') == "Ana Lopez, Ben Ode"
    assert author('<span itemprop="author"><a href="/journaliste/ana">Ana Lopez</a> (avec Ben Ode et Cleo Park)</span>'
                  ) == "Ana Lopez, Ben Ode, Cleo Park"
    # no names after it: an agency, the desk after a comma, a credit
    for tail in (" and agencies", ", Town Sports", " with additional reporting by Ben Ode", " | March 3, 2024"):
        assert author(f'<p class="byline">By <a href="/staff/ana">Ana Lopez</a>{tail}</p>') == "Ana Lopez"


def test_citation_and_dublin_core_list_every_author():
    def author(*metas: tuple[str, str]) -> str | None:
        return meta_of(page("".join(f'<meta name="{k}" content="{v}">' for k, v in metas))).author

    assert author(("DC.Creator", "Doe, Jane"), ("DC.Creator", "Roe, John A.")) == "Jane Doe, John A. Roe"
    assert author(("citation_author", "Jane Doe"), ("citation_author", "John Roe"),
                  ("citation_author", "Jane Doe")) == "Jane Doe, John Roe"
    # "Family, Given" only: a degree, or no family name before the comma, stays where it is
    assert author(("DC.Creator", "Brenda Goodman, MA")) == "Brenda Goodman, MA"
    assert author(("DC.Creator", "Department of Primary Industries, Queensland")) == \
        "Department of Primary Industries, Queensland"
    # a second plain author <meta> is as often a photo credit
    assert author(("author", "Jane Doe"), ("author", "Getty Images")) == "Jane Doe"


def test_date_written_in_an_element_marked_as_a_date():
    body = '<article><h1>Budget talks</h1><p class="post-date">Posted on March 3, 2024</p></article>'
    assert meta_of(page(body=body)).date == "2024-03-03"
    # unmarked, a sentence that names a day is no date's element, nor a dateline
    said = body.replace("post-date", "entry-meta").replace("Posted on March 3, 2024",
                                                          "On March 3, 2024 the council met to talk")
    assert meta_of(page(body=said)).date is None
    # a line of its own under the headline that holds only the date is its dateline
    assert meta_of(page(body=body.replace("post-date", "entry-meta"))).date == "2024-03-03"
    # a date in the address comes first; a change's or a person's date is not the page's
    assert meta_of(page(body=body), url="https://example.org/2024/03/04/budget").date == "2024-03-04"
    body = '<article><h1>Budget talks</h1><p>Born <span class="bday dtstart published">1998-02-28</span> here</p></article>'
    assert meta_of(page(body=body)).date is None
    # nor is a line of its own under the headline whose element names an event's date
    assert meta_of(page(body='<h1>Budget talks</h1><div class="event-date">March 3, 2024</div>')).date is None


def test_title_parts_a_sites_other_pages_share():
    """A part names the site when two or more of its other pages, and half of those with a
    title, have it too; a page does not count for itself, and what is left keeps two words."""
    titles = ["FDA approves a drug - Press Announcements", "Press Announcements - FDA warns a firm",
              "FDA recalls a batch - Press Announcements", "About us", None]
    parts = site_title_parts([(t,) for t in titles])
    assert parts[:3] == [frozenset({"press announcements"})] * 3 and parts[3:] == [frozenset(), frozenset()]
    assert [without_site_parts(t, p) for t, p in zip(titles[:3], parts)] == [
        "FDA approves a drug", "FDA warns a firm", "FDA recalls a batch"]
    assert site_title_parts([(t,) for t in titles[:2]]) == [frozenset(), frozenset()]  # one other page is not enough
    few = ["A b - Site", "C d - Site", "E f - Site", "G h", "I j", "K l", "M n"]
    assert site_title_parts([(t,) for t in few])[0] == frozenset()  # under half of the others
    # the headline's parts count with the <title>'s (a page whose og:title adds the section)
    both = site_title_parts([(f"FDA acts {n}", f"Press Announcements - FDA acts {n}") for n in "abc"])
    assert both == [frozenset({"press announcements"})] * 3
    assert without_site_parts("Contacts - Site", frozenset({"site"})) == "Contacts - Site"  # one word left
    # every part the site's: a blog that titles every page with its own names keeps them
    assert without_site_parts("Dana Boyd | Apophenia", frozenset({"dana boyd", "apophenia"})) == "Dana Boyd | Apophenia"


def test_a_headline_that_only_names_the_site_gives_way_to_the_title_without_it():
    """A blog's name in its logo's <h1> taken for the headline ("EDDIE ROSS"): in a batch
    where the site's other pages share that title part, the <title> without it is the headline."""
    posts = ["flower magazine", "On Quadrille Today", "Color Life"]
    pages = [prepare(f"<html><head><title>EDDIE ROSS - {t}</title></head><body><h1><a href='/'>EDDIE ROSS</a></h1>"
                     f"<h3>{t}</h3><p>{PROSE * 3}</p></body></html>".encode(), site="eddieross.com") for t in posts]
    assert all(p.metadata.title == "EDDIE ROSS" for p in pages)  # a page alone cannot tell
    assert [r.title for r in extract_batch(pages)] == posts
    # a title all of whose parts are the site's stays whole
    same = [prepare(f"<html><head><title>EDDIE ROSS</title></head><body><h1>EDDIE ROSS</h1><p>{PROSE * 3}</p>"
                    "</body></html>".encode(), site="eddieross.com") for _ in posts]
    assert [r.title for r in extract_batch(same)] == ["EDDIE ROSS"] * 3


@pytest.mark.parametrize(("line", "published", "modified"), [
    ("Published: Monday, January 14, 2008", "2008-01-14", None),
    ("Posted : Sat, 29 Dec 2007 06:23:36 GMT", "2007-12-29", None),
    ("Friday 28th December, 2007", "2007-12-28", None),
    ('Published: <a href="/archive/2008/01/16/">Wednesday 16 January 2008</a>', "2008-01-16", None),
    ("Last updated at 00:11am on 14th January 2008", None, "2008-01-14"),
    # a byline that gives the date beside the name
    ("By Joel Hruska on August 8, 2012 at 12:56 pm", "2012-08-08", None),
    ("Posted by Shari August 9th, 2012 | 0 Comments »", "2012-08-09", None),
    ("Published August 7, 2023 by Nicole Burke", "2023-08-07", None),
])
def test_a_dateline_near_the_headline_gives_the_date(line, published, modified):
    """Older news pages write their date on a line of its own under the headline, with no
    metadata, <time> or date class: that line gives the date, or, under "updated", the change's."""
    body = f"<div><b>Budget talks</b></div><div>{line}</div>"
    m = meta_of(page(body=body, title="Budget talks"))
    assert (m.date[:10] if m.date else None, m.modified[:10] if m.modified else None) == (published, modified)


@pytest.mark.parametrize(("lead", "published"), [
    ("Feb. 23, 2015 -- Peanut allergies have been on the rise in the past decade.", "2015-02-23"),
    ("16 January 2008 – The Security Council today discussed the mission in Kosovo.", "2008-01-16"),
    ("Feb. 23, 2015 was the day peanut allergies made the news again.", None),  # no dash: a sentence
    ("The study of Feb. 23, 2015 -- and the one before it -- found the same.", None),  # not its opening
])
def test_a_date_that_opens_the_first_paragraph_before_a_dash_gives_the_date(lead, published):
    m = meta_of(page(body=f"<h1>Budget talks</h1><p>{lead} {PROSE}</p>", title="Budget talks"))
    assert (m.date[:10] if m.date else None) == published


def test_a_date_in_a_sentence_or_far_from_the_headline_is_no_dateline():
    caption = "<div>A boat searches the lake for a missing man, Monday Jan. 7, 2008</div>"
    assert meta_of(page(body=f"<div><b>Budget talks</b></div>{caption}", title="Budget talks")).date is None
    far = "".join(f"<p>Line {i} of the story.</p>" for i in range(6)) + "<div>January 14, 2008</div>"
    assert meta_of(page(body=f"<div><b>Budget talks</b></div>{far}", title="Budget talks")).date is None
    # no block says the headline: no line is read as its dateline
    assert meta_of(page(body="<div>January 14, 2008</div>", title="Budget talks")).date is None


def test_a_by_line_under_a_headline_set_without_h1():
    """A page with no <h1> sets its headline in bold or a styled cell: the "By" line after the
    block that says it names the author, as it does after an <h1>."""
    body = "<div><b>Budget talks</b></div><div>By JANE DOE, Associated Press Writer</div>"
    assert meta_of(page(body=body, title="Budget talks")).author == "JANE DOE"
    # no block says the headline: a "By" line elsewhere names no one
    assert meta_of(page(body="<div>By Jane Doe</div>", title="Budget talks")).author is None


def test_a_date_element_that_says_updated_gives_the_change_date():
    """A date after "Updated" is the last change's; one before it, the publication's; and the
    element ends the search, so a teaser's date further on is not taken for the page's."""
    body = ('<article><h1>Budget talks</h1><p class="post-date">Updated: December 09, 2025</p></article>'
            '<div class="teaser"><p class="teaser-date">March 13, 2026</p></div>')
    m = meta_of(page(body=body))
    assert (m.date, m.modified) == (None, "2025-12-09")
    both = ('<article><h1>Budget talks</h1><div class="article-dateline">Health December 22, 2022 '
            'Updated: January 02, 2026</div></article>')
    m = meta_of(page(body=both))
    assert (m.date, m.modified) == ("2022-12-22", "2026-01-02")


def test_a_posted_by_line_under_the_headline_names_the_author():
    body = "<h1>Budget talks</h1><p>Posted by Rudy Galfi, Product Manager</p>"
    assert meta_of(page(body=body)).author == "Rudy Galfi"


def test_the_pages_own_author_class_marks_no_block_as_a_byline():
    """A blog theme marks ``<body>`` (and a wrapper around everything) with the author's login
    ("s-author-admin"): every block then carries the word, so the first short one, the
    site's menu, is no byline."""
    html = ('<html><head><title>At Carven - Paris</title></head><body class="single s-author-admin">'
            '<div id="wrapper"><div id="top"><a href="/">hanneli.com</a> <a href="/about">About / Contact</a></div>'
            f'<div class="post"><h2>At Carven - Paris</h2><p>{PROSE * 3}</p></div></div></body></html>')
    assert meta_of(html).author is None
    byline = html.replace("<h2>At Carven - Paris</h2>", '<h2>At Carven - Paris</h2><p class="byline">By Hanneli Mustaparta</p>')
    assert meta_of(byline).author == "Hanneli Mustaparta"


def test_a_list_of_the_sites_authors_is_no_byline():
    """A sidebar's "Authors" widget lists everyone who writes for the site: none of them is
    the page's author; a byline with two names in a list still is."""
    names = ["nfldotcom", "Michael Fabiano", "Adam Rank", "Kevin Patra", "Gil Brandt", "Marc Sessler"]
    widget = ('<div class="widget widget_authors"><h3>Authors</h3><ul>'
              + "".join(f'<li><a href="/author/{n}"><strong>{n}</strong></a></li>' for n in names) + "</ul></div>")
    body = f"<h2>Fantasy football: Finley could see more targets</h2><p>{PROSE * 3}</p>{widget}"
    assert meta_of(page(body=body)).author is None
    two = ('<ul class="authors"><li><a href="/author/ana">Ana Lopez</a></li>'
           '<li><a href="/author/ben">Ben Ode</a></li></ul>')
    assert meta_of(page(body=f"<h2>Budget talks</h2>{two}<p>{PROSE}</p>")).author == "Ana Lopez"


def test_a_box_with_a_category_link_and_an_author_link_names_the_author():
    box = ('<ul class="author_details"><li>Posted in <a href="/architecture/">Architecture</a></li>'
           '<li>By <a href="/author/lavinia/">Lavinia</a></li></ul>')
    assert meta_of(page(body=f"<h1>Home Revival Project</h1>{box}")).author == "Lavinia"
    feed = ('<div class="byline"><a href="/author/laura-beck/">Laura Beck</a> '
            '<a href="/author/laura-beck/rss">RSS</a></div>')
    assert meta_of(page(body=f"<h1>Budget talks</h1>{feed}")).author == "Laura Beck"


@pytest.mark.parametrize("box", [
    # a footer some sites call "byline": its links are the site's, not a name
    '<div id="byline"><ul><li><a href="/pages/advertise">Advertise</a></li>'
    '<li><a href="/pages/guidelines">Community Guidelines</a></li></ul></div>',
    # a forum member's stats and place, marked "author-…"
    '<div class="author-registered">Joined: <span>Oct 1999</span></div><div class="author-likes">Likes: 52</div>'
    '<div class="author-location"><a href="https://maps.google.com/maps?q=oregon">oregon, spr</a></div>',
])
def test_a_sites_links_a_members_stats_and_a_place_name_no_author(box):
    assert meta_of(page(body=f"<h1>Budget talks</h1>{box}")).author is None


def test_an_h1_that_copies_the_title_loses_the_sites_name_at_its_end():
    head = '<meta property="og:site_name" content="Artlyst">'
    body = "<h1>Critics’ Choice: Best UK Art Exhibitions 2025 – Artlyst</h1>"
    m = meta_of(page(head=head, body=body, title="Critics’ Choice: Best UK Art Exhibitions 2025 – Artlyst - Artlyst"))
    assert m.title == "Critics’ Choice: Best UK Art Exhibitions 2025"
    # a last part that only holds the site's name is the headline's ("Take C.A.R.E. - comwrap auf der DMEXCO")
    body = "<h1>Take C.A.R.E. - comwrap auf der DMEXCO 2018</h1>"
    m = meta_of(page(body=body, title="Take C.A.R.E. - comwrap auf der DMEXCO 2018"), url="https://www.comwrap.com/blog/x")
    assert m.title == "Take C.A.R.E. - comwrap auf der DMEXCO 2018"


def test_an_upcoming_events_time_is_not_the_pages_date():
    widget = ('<ul class="tribe-events-widget"><li><time class="tribe-events-widget-events-list__event-datetime" '
              'datetime="2026-03-16">March 16</time> Spring fair</li></ul>')
    assert meta_of(page(body=f"<h1>Budget talks</h1>{widget}")).date is None
    posted = '<time class="entry-date published updated" datetime="2025-11-08T22:03:19+00:00">Nov 8</time>'
    assert meta_of(page(body=f"<h1>Budget talks</h1>{posted}{widget}")).date == "2025-11-08T22:03:19+00:00"


def test_a_sidebars_link_to_the_post_is_not_where_its_dateline_is_read():
    """The post's title as a linked item of a "Recent posts" list comes before the post: the
    dateline is read under the headline itself, not under the sidebar's link."""
    others = "".join(f'<li><a href="/p/{n}">Another post about caching, part {n}</a></li>' for n in range(2, 12))
    recent = f'<ul class="recent"><li><a href="/p/1">Stuff The Internet Says On Scalability</a></li>{others}</ul>'
    post = ('<h2><a href="/p/1">Stuff The Internet Says On Scalability</a></h2><div>Friday, October 26, 2012 at 9:15AM</div>'
            f"<p>{PROSE * 3}</p>")
    m = meta_of(page(body=recent + post, title="Stuff The Internet Says On Scalability"))
    assert m.date is not None and m.date.startswith("2012-10-26")


def test_a_title_that_says_its_first_part_twice_names_its_site_there():
    m = meta_of(page(title="High Scalability - High Scalability - Saving Cash Using Less Cache"))
    assert m.title == "Saving Cash Using Less Cache"
    assert meta_of(page(title="Cache - Cache")).title == "Cache - Cache"  # nothing else to keep


def test_a_title_part_its_address_confirms_names_the_site():
    """A page that declares no site name gets the one its <title> writes at an end, when its
    address confirms it; a part the address does not confirm is no site's name."""
    m = meta_of(page(title="Technology | The Guardian"), url="https://www.theguardian.com/technology")
    assert m.sitename == "The Guardian"
    m = meta_of(page(title="BBC NEWS | Asia-Pacific | Two cargo ships collide off Japan"),
                url="http://news.bbc.co.uk/2/hi/asia-pacific/7950000.stm")
    assert m.sitename == "BBC NEWS"
    assert meta_of(page(title="Budget talks | Town News"), url="https://example.org/x").sitename is None
    declared = '<meta property="og:site_name" content="Guardian News">'
    assert meta_of(page(head=declared, title="Technology | The Guardian"),
                   url="https://www.theguardian.com/technology").sitename == "Guardian News"


@pytest.mark.parametrize(("author", "want"), [
    ("No Primary Author", None), ("No Author", None), ("The Author", None), ("Guest Author", None),
    ("Author Guest blogger", None), ("Anonymous Guest", None),  # placeholders name no one
    ("Marty OP", "Marty"),  # a forum's badge for the thread's original poster
    ("Jane Doe", "Jane Doe"),
])
def test_a_placeholder_names_no_one_and_a_badge_goes(author, want):
    assert meta_of(page(head=f'<meta name="author" content="{author}">')).author == want


def test_an_authors_avatar_initials_are_no_name():
    card = ('<div class="article-author"><span>The Author</span></div><div class="author-card"><a href="/blog/x">'
            '<div class="content-container"><span class="avatar author-avatar"><span class="initials"><span>NB</span>'
            '</span></span><div class="author-meta"><span class="subhead author-meta--name">Nicole Burke</span>'
            "<p class='author-meta--description'>As founder of Rooted Garden, I have designed kitchen gardens.</p>"
            "</div></div></a></div>")
    assert meta_of(page(body=f"<h1>Budget talks</h1>{card}")).author == "Nicole Burke"
