"""Segmentation: every visible token in exactly one block, and the structure each block records."""

from __future__ import annotations

import re
from collections import Counter

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from lxml import etree

from blockclf import parse, segment
from blockclf.elements import _SPACER_FILE, DOT, is_small_image
from blockclf.streamed import place_streamed_parts

WORD = re.compile(r"\w+")

# -- an independent reference of a page's visible text --------------------------------------
# Elements whose content a browser does not show, and the hidden markers, as HTML defines
# them; written out here rather than taken from blockclf.segment.
NOT_SHOWN = {"script", "style", "template", "noscript", "title", "iframe"}
#: elements that start a new run of text (a new block) in the tag soup generated below
BREAKING = {"div", "p", "section", "article", "nav", "footer", "li", "ul", "ol", "table", "tr", "td",
            "th", "h1", "h2", "h3", "pre", "blockquote", "body", "html", "br"}


def _hidden(el: etree._Element) -> bool:
    style = (el.get("style") or "").replace(" ", "").lower()
    return (el.get("hidden") is not None or (el.get("aria-hidden") or "").lower() == "true"
            or "display:none" in style or "visibility:hidden" in style)


def visible_runs(el: etree._Element, runs: list[str], not_shown: frozenset[str] = frozenset(NOT_SHOWN)) -> None:
    """Append the visible text under ``el`` to ``runs``; a new run starts at each breaking tag."""
    if not isinstance(el.tag, str) or el.tag.lower() in not_shown or _hidden(el):
        return
    # read as content, <noscript> is a container of its own, like a div
    breaking = el.tag.lower() in BREAKING or el.tag.lower() == "noscript"
    if breaking:
        runs.append("")
    runs[-1] += el.text or ""
    for child in el:
        visible_runs(child, runs, not_shown)
        runs[-1] += child.tail or ""
    if breaking:
        runs.append("")


def reference_tokens(root: etree._Element, noscript: bool = True) -> Counter[str]:
    runs = [""]
    visible_runs(root, runs, frozenset(NOT_SHOWN - {"noscript"} if noscript else NOT_SHOWN))
    return Counter(w for run in runs for w in WORD.findall(run))


def _shown_text(el: etree._Element, not_shown: frozenset[str]) -> str:
    """Text under ``el`` leaving out not-shown and (nested) hidden elements, tails kept."""
    out = el.text or ""
    for child in el:
        if isinstance(child.tag, str) and child.tag.lower() not in not_shown and not _hidden(child):
            gap = " " if child.tag.lower() in BREAKING or child.tag.lower() == "noscript" else ""
            out += gap + _shown_text(child, not_shown) + gap
        out += child.tail or ""
    return out


def hidden_reference_tokens(root: etree._Element, noscript: bool = True) -> Counter[str]:
    """Tokens of each outermost hidden element's own text (what the hidden blocks should hold)."""
    not_shown = frozenset(NOT_SHOWN - {"noscript"} if noscript else NOT_SHOWN)
    found: Counter[str] = Counter()

    def walk(el: etree._Element) -> None:
        if not isinstance(el.tag, str) or el.tag.lower() in not_shown:
            return
        if _hidden(el):
            found.update(WORD.findall(_shown_text(el, not_shown)))
            return
        for child in el:
            walk(child)

    walk(root)
    return found


def block_tokens(blocks, hidden: bool = False) -> Counter[str]:
    return Counter(w for b in blocks if b.hidden == hidden for w in WORD.findall(b.text))


# -- tag soup ------------------------------------------------------------------------------
_WORDS = st.sampled_from(["alpha", "beta", "gamma", "délta", "数据", "x1", "42", "ünï", "omega", "zeta"])
_SEPS = st.sampled_from([" ", "  ", "\n", "\t", " &nbsp; ", " &amp; ", "&lt;", ", ", ". ", "&eacute;", "&#233;", ""])
_TEXT = st.lists(st.tuples(_WORDS, _SEPS), min_size=1, max_size=4).map(lambda ps: "".join(w + s for w, s in ps))
_BLOCK = ["div", "p", "section", "li", "ul", "td", "tr", "table", "h1", "h2", "pre", "blockquote", "nav"]
_INLINE = ["span", "a", "b", "em", "i", "strong", "code"]
_SKIPPED = ["script", "style", "template", "noscript", "iframe"]
_SHOWN_ATTRS = ["", "", "", ' class="menu x"', ' id="main"', ' style="color:red"', ' href="/x"']
_HIDING_ATTRS = [" hidden", ' style="display: none"', ' aria-hidden="true"', ' style="visibility:hidden"']
_ATTRS = st.sampled_from(_SHOWN_ATTRS * 4 + _HIDING_ATTRS)


def _element(children: list[str], tag: str, attrs: str, closed: bool) -> str:
    inner = "".join(children)
    if tag in _SKIPPED:  # raw-text elements: their body is not markup
        inner = "var words = 'scripted hidden text'; <b>not</b>" if tag != "template" else inner
    # an unclosed raw-text element would swallow the rest of the page as its text
    return f"<{tag}{attrs}>{inner}" + (f"</{tag}>" if closed or tag in _SKIPPED else "")


_NODE = st.recursive(
    st.one_of(_TEXT, _TEXT, _TEXT, st.just("<br>"), st.just("<!-- comment words -->")),
    lambda kids: st.builds(
        _element,
        st.lists(kids, min_size=1, max_size=4),
        st.sampled_from(_BLOCK * 2 + _INLINE * 2 + _SKIPPED),
        _ATTRS,
        st.booleans(),
    ),
    max_leaves=25,
)
_PAGE = st.lists(_NODE, min_size=1, max_size=5).map(lambda parts: "<html><body>" + "".join(parts))


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_PAGE)
def test_every_visible_token_lands_in_exactly_one_block(html):
    doc = parse(html)
    blocks = segment(doc)
    assert block_tokens(blocks) == reference_tokens(doc.root)
    # and hidden text lands in the flagged blocks, once
    assert block_tokens(blocks, hidden=True) == hidden_reference_tokens(doc.root)
    assert [b.index for b in blocks] == list(range(len(blocks)))
    assert all(b.text and b.text == b.text.strip() for b in blocks)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_PAGE)
def test_without_noscript_its_tokens_stay_out_and_the_rest_land_in_blocks(html):
    doc = parse(html)
    blocks = segment(doc, include_noscript=False)
    assert block_tokens(blocks) == reference_tokens(doc.root, noscript=False)
    assert block_tokens(blocks, hidden=True) == hidden_reference_tokens(doc.root, noscript=False)


def test_reference_sees_what_it_should():
    """The reference itself: hidden and script text excluded, inline text joined."""
    doc = parse("<p>to<b>get</b>her <span hidden>no</span></p><script>nope</script><div>two</div>")
    assert reference_tokens(doc.root) == Counter(["together", "two"])


def test_adjacent_time_elements_stay_separate_words():
    """A <time> is a word of its own: two side by side do not run together ("2024September")."""
    [b] = blocks_of('<p>By Ada Marsh <time datetime="2024-09-12">2024</time><time>September 12</time>'
                    "<time>9:30</time>am</p>")
    assert b.text == "By Ada Marsh 2024 September 12 9:30 am"
    [b] = blocks_of("<p>On <time>March 3</time>, 2024, <b>to</b>gether <time>x</time>(y)</p>")
    assert b.text == "On March 3, 2024, together x(y)"  # punctuation and other inline elements untouched


def test_buttons_side_by_side_are_separate_words():
    """Buttons are boxes of their own: a size picker is not "SMLXL", nor two buttons "LLMView"."""
    [b] = blocks_of("<div><button>S</button><button>M</button><button>XL</button></div>")
    assert b.text == "S M XL"
    [b] = blocks_of("<div><button><span>Copy for LLM</span></button><button>View as Markdown</button>!</div>")
    assert b.text == "Copy for LLM View as Markdown!"


# -- structure metadata ----------------------------------------------------------------------
def blocks_of(html: str, **kw):
    return segment(parse(html), **kw)


def by_text(blocks, text: str):
    [b] = [b for b in blocks if b.text == text]
    return b


def test_xpath_depth_ancestors_and_tokens():
    blocks = blocks_of('<body class="page"><div id="Main-Col"><article class="post body">'
                       "<p>one</p><p>two <b>bold</b></p></article></div></body>")
    one, two = blocks
    assert one.xpath == "/html/body/div/article/p[1]" and two.xpath == "/html/body/div/article/p[2]"
    assert two.text == "two bold"
    assert one.tag == "p" and one.depth == 4
    assert one.ancestors == ("html", "body", "div", "article", "p")
    assert one.tokens == ("page", "main", "col", "post", "body")
    assert one.parent_xpath == "/html/body/div/article"


def test_headings_set_heading_path_and_level():
    blocks = blocks_of("<h1>Top</h1><p>intro</p><h2>Sub A</h2><p>a text</p><h3>Deep</h3><p>deep text</p>"
                       "<h2>Sub B</h2><p>b text</p>")
    assert by_text(blocks, "Top").heading_level == 1
    assert by_text(blocks, "Sub A").heading_level == 2
    assert by_text(blocks, "intro").heading_level == 0
    assert by_text(blocks, "intro").heading_path == ("Top",)
    assert by_text(blocks, "a text").heading_path == ("Top", "Sub A")
    assert by_text(blocks, "deep text").heading_path == ("Top", "Sub A", "Deep")
    # a heading closes deeper and equal sections before it opens its own
    assert by_text(blocks, "Sub B").heading_path == ("Top",)
    assert by_text(blocks, "b text").heading_path == ("Top", "Sub B")


def test_a_section_is_named_as_its_heading_reads():
    """Documentation headings carry a permalink (``¶``, ``#``): the section path names the
    heading without it, as the text and Markdown write it; the block's own text keeps it raw."""
    blocks = blocks_of('<h2>Default values<a class="headerlink" href="#default-values">¶</a></h2><p>one</p>'
                       '<h3><a class="anchor" href="#mutable">#</a>Mutable values</h3><p>two</p>')
    assert by_text(blocks, "one").heading_path == ("Default values",)
    assert by_text(blocks, "two").heading_path == ("Default values", "Mutable values")
    assert by_text(blocks, "Default values¶").heading_level == 2


def test_list_and_table_membership():
    blocks = blocks_of("<ul><li>outer<ol><li>inner</li></ol></li></ul>"
                       "<table><tr><td>cell<table><tr><td>nested</td></tr></table></td></tr></table><p>after</p>")
    assert by_text(blocks, "outer").list_depth == 1
    assert by_text(blocks, "inner").list_depth == 2
    assert by_text(blocks, "cell").table_depth == 1
    assert by_text(blocks, "nested").table_depth == 2
    after = by_text(blocks, "after")
    assert after.list_depth == 0 and after.table_depth == 0


def test_link_chars_and_links():
    blocks = blocks_of('<p>read <a href="/a">the story</a> and <a href="/b">more</a> now</p><p>plain</p>')
    linked, plain = blocks
    assert linked.text == "read the story and more now"
    assert linked.link_chars == len("the story") + len("more")
    assert linked.n_links == 2
    assert plain.link_chars == 0 and plain.n_links == 0
    assert linked.markup_bytes >= len(linked.text)


def test_pre_keeps_lines():
    [b] = blocks_of("<pre>def f(x):\n    return  x\n\nprint(f(1))</pre>")
    assert b.tag == "pre"
    assert b.text.split("\n") == ["def f(x):", "return x", "print(f(1))"]


def test_br_splits_blocks():
    blocks = blocks_of("<p>first line<br>second line<br/>third</p>")
    assert [b.text for b in blocks] == ["first line", "second line", "third"]
    assert {b.xpath for b in blocks} == {"/html/body/p"}


def test_tail_text_after_a_block_is_its_own_block():
    blocks = blocks_of("<div>before<p>inside</p>after</div>")
    assert [b.text for b in blocks] == ["before", "inside", "after"]
    assert by_text(blocks, "before").starts_element
    assert not by_text(blocks, "after").starts_element
    assert by_text(blocks, "after").tag == "div"


def test_invisible_content_never_becomes_text_hidden_content_is_flagged():
    html = ("<html><head><title>Title words</title><style>.css{}</style></head><body>"
            "<script>var secret = 1;</script><style>p { color: red }</style><template><p>tpl</p></template>"
            "<!-- a comment --><p>shown</p><div hidden>hid1</div><p style='display:none'>hid2</p>"
            "<p style='visibility: hidden'>hid3</p><span aria-hidden='true'>hid4</span>"
            "<input type='hidden' value='v'></body></html>")
    blocks = blocks_of(html)
    assert [(b.text, b.hidden) for b in blocks] == [
        ("shown", False), ("hid1", True), ("hid2", True), ("hid3", True), ("hid4", True)]


def test_an_iframes_fallback_markup_is_never_text():
    """What an ``<iframe>`` element holds is for browsers without frames; the parser gives it as
    raw text (markup and all), which no browser draws: an ad slot's ``<a href=...><img ...>``
    must not reach the output. The text after the frame is read."""
    html = ("<html><body><p>Before the frame.</p><div>Search <iframe src='/search.htm'>"
            "<a href='/search.htm' target='_blank'>Search (new window)</a></iframe> the archive.</div></body></html>")
    assert [b.text for b in blocks_of(html)] == ["Before the frame.", "Search the archive."]


def test_hidden_element_is_one_block_after_the_text_around_it():
    html = ("<body><p>before <span hidden>secret <a href='/x'>link</a></span> after</p>"
            "<div style='display: none' class='modal'><p>Modal</p><p>text <b hidden>nested</b></p></div><p>last</p></body>")
    blocks = blocks_of(html)
    assert [(b.text, b.hidden) for b in blocks] == [
        ("before after", False), ("secret link", True), ("Modal text", True), ("last", False)]
    assert [b.index for b in blocks] == [0, 1, 2, 3]
    secret, modal = blocks[1], blocks[2]
    assert secret.tag == "span" and secret.xpath == "/html/body/p[1]/span" and secret.link_chars == 4
    assert modal.tokens == ("modal",) and modal.ancestors[-1] == "div"


def test_revealed_hidden_elements_keep_their_structure_and_are_flagged_hidden():
    # the reading of a page that hides its content until scripts run: hidden elements are
    # segmented like visible ones (headings, paragraphs), their blocks flagged hidden; a
    # consent dialog stays one hidden block, flagged consent; what is hidden inside a hidden
    # element is left out, as in its flat reading
    html = ("<body><div id='onetrust-banner-sdk'><p>We use cookies.</p><p>Accept</p></div><p>Loading</p>"
            "<div style='display: none'><h1>River survey</h1><p>The banks moved.</p>"
            "<p>Twice, <span hidden>quietly</span> in a century.</p></div></body>")
    doc = parse(html)
    revealed = segment(doc, reveal=True)
    assert [(b.text, b.hidden, b.consent, b.heading_level) for b in revealed] == [
        ("We use cookies. Accept", True, True, 0), ("Loading", False, False, 0), ("River survey", True, False, 1),
        ("The banks moved.", True, False, 0), ("Twice, in a century.", True, False, 0)]
    assert revealed[2].heading_path == () and revealed[3].heading_path == ("River survey",)
    # without reveal the same page reads as before: one flat block per hidden element
    assert [(b.text, b.hidden) for b in segment(parse(html))] == [
        ("We use cookies. Accept", True), ("Loading", False),
        ("River survey The banks moved. Twice, in a century.", True)]


def test_a_part_react_streams_late_is_read_in_the_place_its_script_moves_it_to():
    html = ("<body><article><h1>Index funds</h1><template id='B:0'></template><div>Loading paragraph...</div>"
            "<h2>Questions</h2><template id='P:3'></template>Last edited today.</article>"
            "<footer>Contact us</footer><div hidden id='S:0'>Lead: <p>An index fund tracks a market index.</p> "
            "<template id='P:4'></template></div> "
            "<div hidden id='S:1' style='display: none'><p>Still hidden by its style</p></div>"
            "<div hidden id='S:3'><h3>What does it cost?</h3></div>"
            "<div hidden id='S:4'><p>It holds every stock of the index.</p></div>"
            "<div hidden id='S:5'><p>A part holding its own marker</p><template id='P:5'></template></div>"
            "<div hidden id='menu'><p>Menu</p></div><section hidden id='S:2'><p>Not a streamed part</p></section></body>")
    blocks = blocks_of(html)
    assert [(b.text, b.hidden) for b in blocks] == [
        ("Index funds", False), ("Lead:", False), ("An index fund tracks a market index.", False),
        ("It holds every stock of the index.", False), ("Loading paragraph...", False), ("Questions", False),
        ("What does it cost?", False), ("Last edited today.", False), ("Contact us", False),
        ("Still hidden by its style", True), ("A part holding its own marker", False), ("Menu", True),
        ("Not a streamed part", True)]
    # where it belongs, a late part has the headings above it that a reader sees
    assert blocks[6].heading_path == ("Index funds", "Questions")
    # nothing is lost or doubled: the page's words are those of the parts and the page around them
    placed = sorted(" ".join(b.text for b in blocks).split())
    assert placed == sorted("Index funds Lead: An index fund tracks a market index. It holds every stock of the index. "
                            "Loading paragraph... Questions What does it cost? Last edited today. Contact us Still "
                            "hidden by its style A part holding its own marker Menu Not a streamed part".split())


def test_a_fallback_react_takes_out_when_its_part_arrives_is_not_read():
    """Where React's comments still mark a boundary, its "Loading…" fallback goes as the script
    takes it out; a boundary whose part never came keeps it, as a browser shows it."""
    html = ('<body><article><h1>Index funds</h1>'
            '<!--$?--><template id="B:0"></template><div>Loading <!-- -->paragraph<!-- -->...</div><!--/$-->'
            '<!--$--><p>Rendered at once.</p><!--/$-->'
            '<!--$?--><template id="B:1"></template><div>Loading chart...</div><!--/$-->'
            '<!--$?--><template id="B:2"></template><div>Loading <!--$?--><template id="B:3"></template>'
            '<span>inner...</span><!--/$--> outer...</div><!--/$--></article>'
            '<div hidden id="S:0"><p>An index fund tracks a market index.</p></div>'
            '<div hidden id="S:2"><p>Its costs are low.</p></div><div hidden id="S:3"><p>Inner part.</p></div></body>')
    assert [b.text for b in blocks_of(html)] == [
        "Index funds", "An index fund tracks a market index.", "Rendered at once.", "Loading chart...",
        "Its costs are low.", "Inner part."]
    # a closing comment lost from an edited page: the next one found closes far more than a
    # fallback, and nothing is taken out
    lost = ('<body><!--$?--><template id="B:0"></template><div>Loading...</div>'
            + "<p>A paragraph of the article itself, in words enough to be more than a fallback.</p>" * 5
            + '<!--/$--><div hidden id="S:0"><p>Late part.</p></div></body>')
    texts = [b.text for b in blocks_of(lost)]
    assert texts[0] == "Late part." and texts[1] == "Loading..." and len(texts) == 7


def test_streamed_parts_are_placed_by_their_number_with_the_pages_prefix():
    root = etree.fromstring("<html><body><p>Intro</p><template id='R1P:a'></template><p>Outro</p>"
                            "<div hidden id='R1S:a'><p>Late</p></div><div hidden id='S:b'><p>Lost marker</p></div>"
                            "</body></html>", etree.HTMLParser())
    assert place_streamed_parts(root) == 1
    assert [p.text for p in root.iter("p")] == ["Intro", "Late", "Outro", "Lost marker"]
    assert root.find(".//template") is None and root.find(".//div[@id='R1S:a']") is None
    # two parts that hold each other's markers: one is placed, the other stays, nothing is lost
    root = etree.fromstring("<html><body><div hidden id='S:1'><p>One</p><template id='P:2'></template></div>"
                            "<div hidden id='S:2'><p>Two</p><template id='P:1'></template></div></body></html>",
                            etree.HTMLParser())
    assert place_streamed_parts(root) == 1
    assert [p.text for p in root.iter("p")] == ["Two", "One"]


def test_screen_reader_text_beside_visible_text_is_hidden_an_icons_label_is_read():
    html = ("<body><a class='screen-reader-text' href='#main'>Skip to content</a>"
            "<section><h2 class='visually-hidden'>Article content</h2><p>Body text "
            "<a href='/x'>here<span class='sr-only'> (opens in a new tab)</span></a>.</p></section>"
            "<table><tr><th>Chat<span class='tip'><div class='sr-only'>Talk in real time</div><i></i></span></th>"
            "<td><i class='icon-check' aria-hidden='true'></i><span class='sr-only'>Yes</span></td></tr></table>"
            "<form><label class='form-label sr-only'>Search for:</label><input name='q'><button>Go</button></form></body>")
    blocks = blocks_of(html)
    shown = [b.text for b in blocks if not b.hidden]
    assert shown == ["Body text here.", "Chat", "Talk in real time", "Yes", "Go"]
    # the off-screen texts are kept as hidden blocks, in reading order, not lost
    assert [b.text for b in blocks if b.hidden] == [
        "Skip to content", "Article content", "(opens in a new tab)", "Search for:"]
    # a label that stands alone in its parent is read, wherever that parent is
    assert [b.hidden for b in blocks_of("<body><div><a class='sr-only' href='#m'>Skip</a></div><p>x</p></body>")] == [
        False, False]
    # but a button's label names a control: a product grid's heart icons said "Add to favorites" 100 times
    card = ("<body><article><a href='/p/1'>Topo Athletic ST-5, $108</a><button><svg></svg><span class='sr-only'>"
            "Add to favorites</span></button></article></body>")
    assert [(b.text, b.hidden) for b in blocks_of(card)] == [("Topo Athletic ST-5, $108", False),
                                                           ("Add to favorites", True)]


def test_screen_reader_class_names_as_sites_prefix_them_are_hidden_but_not_their_shown_variants():
    link = "<p>Akkus <a href='/x'>von VW<span class='{}'>(öffnet im neuen Fenster)</span></a> geliefert.</p>"
    for cls in ("go-vh", "u-srOnly", "usa-sr-only", "o-header__visually-hidden", "off-screen", "v-visible-sr",
                "c-link assistive-text", "plp-price__sr-text"):
        blocks = blocks_of("<body>" + link.format(cls) + "</body>")
        assert [b.text for b in blocks if not b.hidden] == ["Akkus von VW geliefert."], cls
        assert [b.text for b in blocks if b.hidden] == ["(öffnet im neuen Fenster)"], cls
    # shown at some size or state, or not a screen-reader name at all: the text is read
    for cls in ("focus:not-sr-only", "md:sr-only", "not-sr-only", "min-vh-100", "vh", "offscreen-nav", "interwiki-sr"):
        blocks = blocks_of("<body>" + link.format(cls) + "</body>")
        assert not any(b.hidden for b in blocks), cls
        assert "(öffnet im neuen Fenster)" in " ".join(b.text for b in blocks), cls


def test_a_posts_date_of_change_written_right_after_its_date_is_hidden_as_the_theme_hides_it():
    """WordPress themes write ``<time class="published">`` then ``<time class="updated">`` with
    nothing between, and their stylesheet shows the second only when it is also the first."""
    stamp = ("<body><p>Posted on <a href='/p'><time class='entry-date published'>March 4, 2020</time>"
             "<time class='updated'>May 1, 2021</time></a> by Ada</p></body>")
    blocks = blocks_of(stamp)
    assert [b.text for b in blocks if not b.hidden] == ["Posted on March 4, 2020 by Ada"]
    assert [b.text for b in blocks if b.hidden] == ["May 1, 2021"]
    # set apart, labelled, or the only date (published and updated at once): shown and read
    for shown in ("<time class='published'>April 28, 2019</time> <time class='updated'>Updated April 29</time>",
                  "<time class='entry-date published updated'>March 4, 2020</time>",
                  "<span class='published'>March 4, 2020</span><time class='updated'>May 1, 2021</time>",
                  "<time class='published'>March 4, 2020</time>, <time class='updated'>May 1, 2021</time>"):
        assert not any(b.hidden for b in blocks_of(f"<body><p>{shown}</p></body>")), shown


def test_a_shops_clipped_copy_of_a_price_is_read_once():
    """eBay writes each price, date and label twice, the second copy in ``class="clipped"``, its
    design system's screen-reader class; a clipped label that is all its parent says is read."""
    card = ("<body><div class='price'><span>EUR 355.58<span class='clipped'>EUR 355.58</span></span></div>"
            "<div class='date'><span>Mon, Apr 22<span class='clipped'>Mon, Apr 22</span></span></div>"
            "<p><button><span class='clipped'>Watch</span></button><span><span class='clipped'>4.5 out of 5"
            "</span></span></p></body>")
    blocks = blocks_of(card)
    assert [b.text for b in blocks if not b.hidden] == ["EUR 355.58", "Mon, Apr 22", "4.5 out of 5"]


def test_text_shown_on_hover_is_not_read_into_the_sentence():
    """A news site's hover card on a name (its photo, name and latest stories), a glossary's
    tooltip and a popover's text sit inside the paragraph they annotate, shown only while the
    pointer rests there; the sentence reads on without them, and the words that trigger them stay."""
    page = ("<body><p>Rep. <span class='rollover-people'><a class='rollover-people-link' href='/p/1'>Ilhan Omar"
            "</a><span class='rollover-people-block'><span class='rollover-block'><a class='name' href='/p/1'>Ilhan"
            " Omar</a><a class='people-articles' href='/a/2'>Progressives oppose funding bill</a></span></span>"
            "</span> (D-Minn.) spoke on Tuesday.</p>"
            "<p>Plan with <span class='tooltip'>SEO<span class='tooltiptext'>search engine optimisation</span>"
            "</span> and <span class='term'>SERP<span class='c-glossary__popover-body'>results page</span></span>"
            " in mind.</p><p>Read the <abbr>FAQ<span role='tooltip'>Frequently asked questions</span></abbr> first.</p><div class='perk'><span class='icon'><span class='icon-tooltip-text'>Free shipping</span>"
            "</span></div></body>")
    texts = [b.text for b in blocks_of(page) if not b.hidden]
    # an icon's tooltip that is all the words there are for it is read, as a screen-reader label is
    assert texts == ["Rep. Ilhan Omar (D-Minn.) spoke on Tuesday.", "Plan with SEO and SERP in mind.",
                     "Read the FAQ first.", "Free shipping"]


def test_a_panel_shown_on_a_click_is_read_as_the_pages_text():
    """An accordion's answers, a tab's panel and a "Show more" text are hidden until the reader
    clicks; what they hold is the page's own text."""
    page = ("<body><h2>FAQ</h2><h3>Can I return an item?</h3>"
            "<div class='faq__answer' hidden><p>Yes, within thirty days of delivery.</p></div>"
            "<div role='tablist'><button role='tab'>Linux</button><button role='tab'>macOS</button></div>"
            "<section role='tabpanel' id='linux'><p>Install it with apt.</p></section>"
            "<section role='tabpanel' id='macos' hidden><p>Install it with brew.</p></section>"
            "<div class='cmp-accordion__panel' aria-hidden='true'><p>Shipping is free over fifty dollars.</p></div>"
            "<div class='tab-pane' style='display:none'><table><tr><td>Fees</td><td>$50</td></tr></table></div>"
            "</body>")
    blocks = blocks_of(page)
    assert not any(b.hidden for b in blocks)
    texts = [b.text for b in blocks]
    assert texts[:3] == ["FAQ", "Can I return an item?", "Yes, within thirty days of delivery."]
    assert texts[4:] == ["Install it with apt.", "Install it with brew.", "Shipping is free over fifty dollars.",
                         "Fees", "$50"]


def test_a_panel_that_a_button_opens_is_read_whatever_its_name():
    """An accordion of generated ids is known by its buttons: ``aria-controls`` and ``aria-expanded``."""
    page = ("<body><h2>How long does installation take?</h2>"
            "<button aria-controls='item-0-content' aria-expanded='false'>Show</button>"
            "<div id='item-0-content' hidden><p>Most homes take one or two days.</p></div>"
            "<section class='Accordionstyle__Panel-x1' aria-hidden='true'><p>Permits come first.</p></section>"
            "<div id='item-9-content' hidden><p>Nothing opens this one.</p></div></body>")
    shown = [b.text for b in blocks_of(page) if not b.hidden]
    assert shown == ["How long does installation take?", "Show", "Most homes take one or two days.",
                     "Permits come first."]
    # a menu that a button opens is mostly links: it stays hidden
    menu = "".join(f"<a href='/s{i}'>Section {i}</a> " for i in range(6))
    page = (f"<body><p>Text.</p><button aria-controls='m1' aria-expanded='false'>Menu</button>"
            f"<div id='m1' hidden>{menu}</div></body>")
    assert [b.text for b in blocks_of(page) if not b.hidden] == ["Text.", "Menu"]


def test_menus_drawers_dialogs_and_link_panels_stay_hidden_though_they_open_on_a_click():
    links = "".join(f"<a href='/s{i}'>Section {i}</a> " for i in range(6))
    for panel in (f"<div class='navbar-collapse collapse' style='display:none'>{links}</div>",  # a menu
                  "<div class='accordion drawer' hidden><p>Your cart is empty for now.</p></div>",
                  "<div class='accordion-panel' role='dialog' hidden><p>You are leaving this site now.</p></div>",
                  "<div class='tab-panel sr-only'><p>Use the arrow keys to move between tabs.</p></div>",
                  f"<div class='tab-content' hidden><p>Most read</p>{links}</div>"):  # a rail's tab of links
        blocks = blocks_of(f"<body><p>The article's one paragraph.</p>{panel}</body>")
        assert [b.text for b in blocks if not b.hidden] == ["The article's one paragraph."], panel
        assert any(b.hidden for b in blocks), panel


def test_consent_managers_dialogs_are_hidden_but_the_page_is_not():
    html = ("<body><div id='onetrust-consent-sdk'><div id='onetrust-banner-sdk' class='otFlat'><p>We use cookies to "
            "improve your experience.</p><button>Accept All Cookies</button></div></div>"
            "<div id='CybotCookiebotDialog'><h2>This website uses cookies</h2></div>"
            "<div class='ensNotifyBanner' role='dialog' aria-label='Consent Banner'><p>Your privacy choices</p></div>"
            "<div class='cc-window cc-banner'><span>Cookies keep this site running.</span></div>"
            "<main><h1>Baking</h1><p>Cookies are best eaten warm.</p><div class='cookie-recipe'>Butter, sugar.</div>"
            "<div role='dialog' aria-label='Enlarged photo'><p>A tray of cookies</p></div></main></body>")
    blocks = blocks_of(html)
    assert [b.text for b in blocks if not b.hidden] == ["Baking", "Cookies are best eaten warm.", "Butter, sugar.",
                                                        "A tray of cookies"]
    assert [b.text for b in blocks if b.hidden] == [  # kept as hidden blocks, in reading order, not lost
        "We use cookies to improve your experience. Accept All Cookies", "This website uses cookies",
        "Your privacy choices", "Cookies keep this site running."]
    assert all(b.consent == b.hidden for b in blocks)
    assert [b.consent for b in blocks_of("<body><p>x</p><div hidden>Menu</div></body>")] == [False, False]
    # a page that names its state after the banner is still the page
    page = "<html class='cookie-consent'><body class='cookie-banner'><article class='cookie-bar'><p>Text</p></article></body></html>"
    assert [(b.text, b.hidden) for b in blocks_of(page)] == [("Text", False)]


def test_a_placeholder_for_an_embed_awaiting_consent_is_a_consent_block():
    """Sourcepoint and Borlabs stand a placeholder where each embed (a tweet, a chart) waits for
    consent; an article with six embeds said "External content not available" six times."""
    placeholder = ("<div class='{}' data-embed='&lt;p&gt;the embed&lt;/p&gt;'><h3>External content not available</h3>"
                   "<p>Your privacy settings prevent loading external content.</p><button>Change settings</button></div>")
    html = ("<body><article><h2>Evergrande's size</h2><p>It built more than 1,300 projects.</p>"
            + placeholder.format("sourcepoint__social-placeholder") + "<p>It employed 200,000 people.</p>"
            + placeholder.format("brlbs-cmpnt-container brlbs-cmpnt-content-blocker") + "</article></body>")
    blocks = blocks_of(html)
    assert [b.text for b in blocks if not b.hidden] == [
        "Evergrande's size", "It built more than 1,300 projects.", "It employed 200,000 people."]
    hidden = [b for b in blocks if b.hidden]
    assert len(hidden) == 2 and all(b.consent for b in hidden)
    assert hidden[0].text.startswith("External content not available")


def test_a_forums_staff_banner_is_a_notice_read_as_hidden_text():
    html = ("<body><div id='banner'><div id='banner-content'><h1>Community survey 2024</h1><p>Dear community, "
            "tell us about your work.</p></div><button>Dismiss</button></div>"
            "<article id='post_1'><p>How do I run both editions on one computer?</p></article>"
            "<section id='banner-content'><p>A section named like it is read</p></section></body>")
    blocks = blocks_of(html)
    assert [(b.text, b.hidden, b.notice, b.consent) for b in blocks if b.hidden] == [
        ("Community survey 2024 Dear community, tell us about your work.", True, True, False)]
    assert [b.text for b in blocks if not b.hidden] == [
        "Dismiss", "How do I run both editions on one computer?", "A section named like it is read"]


def test_a_screen_reader_label_among_many_silent_siblings_is_decided_quickly():
    # the parent's other children are read up to a bound: past it, the label counts as beside text
    icons = "<i></i>" * 5000
    blocks = blocks_of(f"<body><p>{icons}<span class='sr-only'>label</span></p><p>x</p></body>")
    assert [(b.text, b.hidden) for b in blocks] == [("label", True), ("x", False)]
    few = blocks_of("<body><p><i></i><i></i><span class='sr-only'>label</span></p><p>x</p></body>")
    assert [(b.text, b.hidden) for b in few] == [("label", False), ("x", False)]
    # many labels in one parent: each reads at most 64 of its siblings, so the page costs linear time
    many = blocks_of("<body><p>" + "<span class='sr-only'></span>" * 20000 + "<i class='sr-only'>end</i></p></body>")
    assert [(b.text, b.hidden) for b in many] == [("end", True)]


def test_noscript_read_by_default_and_left_out_on_request():
    html = "<body><noscript><p>Please enable JavaScript</p></noscript><p>body text</p></body>"
    assert [b.text for b in blocks_of(html)] == ["Please enable JavaScript", "body text"]
    assert "noscript" in blocks_of(html)[0].ancestors
    assert [b.text for b in blocks_of(html, include_noscript=False)] == ["body text"]


def test_text_the_parser_put_in_head_is_read_title_is_not():
    # a stray block element before <body> makes the parser keep following text in <head>
    doc = parse("<html><head><title>Title words</title><meta name=x>stray head text</head><body><p>b</p></body>")
    texts = [b.text for b in segment(doc)]
    assert "Title words" not in " ".join(texts)
    assert doc.title == "Title words"


def test_whitespace_is_folded_and_entities_decoded():
    [b] = blocks_of("<p>  caf&eacute;\n\t &amp;   cr&#232;me&nbsp;br&ucirc;l&eacute;e </p>")
    assert b.text == "café & crème brûlée"


def test_characters_no_browser_draws_leave_the_text_letters_shaped_by_joiners_stay():
    # a zero-width space, a word joiner or a stray byte-order mark would split a word for a tokenizer
    page = ('<p>foo\u200bbar and <a href="/x">li\ufeffnk</a> &#8203;end&ZeroWidthSpace;s '
            'n\u2060o</p><pre>co\u200bde</pre><div hidden>hid\u200bden</div><p>\u0641\u0627\u200c\u0633</p>')
    shown, code, hidden, persian = blocks_of(page)
    assert shown.text == "foobar and link ends no"
    assert shown.rich == 'foobar and <a href="/x">link</a> ends no'
    assert code.text == "code" and hidden.text == "hidden" and hidden.hidden
    assert persian.text == "\u0641\u0627\u200c\u0633"  # a non-joiner shapes Persian letters


def test_a_lone_joiner_is_no_paragraph_and_a_joiner_at_an_edge_is_dropped():
    # a site's editor writes empty paragraphs as <p>&zwj;</p>: a line that looks blank in the output
    page = ('<p>&zwj;</p><p>Intro.&zwj;</p><p>&zwj; <strong>Thankfully</strong>, no\u00ad</p>'
            '<div hidden>&zwnj;</div><p>family \U0001f468\u200d\U0001f469 here</p>')
    intro, thanks, family = blocks_of(page)
    assert intro.text == "Intro." and thanks.text == "Thankfully, no"
    assert thanks.rich == "<strong>Thankfully</strong>, no"
    assert family.text == "family \U0001f468\u200d\U0001f469 here"  # the joiner inside an emoji stays


def test_a_block_records_the_nearest_few_rule_holders_only():
    # each rule in a box of its own: recording all of them made segmenting quadratic in their number
    start, end = blocks_of("<p>start</p>" + "<div><hr></div>" * 3000 + "<p>end</p>")
    assert start.rules == () and end.rules == tuple(f"/html/body/div[{k}]" for k in range(2997, 3001))


def test_empty_page_has_no_blocks():
    assert blocks_of("<html><body><div> </div><p>\n</p></body></html>") == []


# -- a pinned page: the full record of every block ------------------------------------------
# Segmentation is the hottest loop of extraction; this pins every field the features read so
# that a faster walk cannot change what the model sees.
PINNED_HTML = """<html><head><title>T</title><style>p{}</style></head><body class="Page home">
<div id="nav" class="menu top"><ul><li><a href="/">Home</a></li><li><a href="/n">News</a> today</li></ul></div>
<main><article class="post"><h1>Big <em>title</em></h1><p>First para with <a href="/x">a link</a> and tail.</p>
<h2>Sub</h2>Loose text<br>after break<div>inner<p>nested</p>tail of p</div>
<pre>line one
   line  two<br>line three</pre><table><tr><th>Key</th><td>Value 1</td></tr></table>
<h2>Other</h2><p hidden>no</p><p style="display: none">no</p><p aria-hidden="true">no</p><noscript>ns</noscript>
<dl><dt>Term</dt><dd>Def</dd></dl></article></main><footer><p>© 2024</p></footer></body></html>"""
#: text, tag, xpath, heading_path, list_depth, table_depth, link_chars, n_links, markup_bytes, tokens, starts_element
PINNED_BLOCKS = [
    ('Home', 'li', '/html/body/div/ul/li[1]', (), 1, 0, 4, 1, 41, ('page', 'home', 'menu', 'top', 'nav'), True),
    ('News today', 'li', '/html/body/div/ul/li[2]', (), 1, 0, 4, 1, 38, ('page', 'home', 'menu', 'top', 'nav'), True),
    ('Big title', 'h1', '/html/body/main/article/h1', (), 0, 0, 0, 0, 58, ('page', 'home', 'post'), True),
    ('First para with a link and tail.', 'p', '/html/body/main/article/p[1]', ('Big title',), 0, 0, 6, 1, 58, ('page', 'home', 'post'), True),
    ('Sub', 'h2', '/html/body/main/article/h2[1]', ('Big title',), 0, 0, 0, 0, 3, ('page', 'home', 'post'), True),
    ('Loose text', 'article', '/html/body/main/article', ('Big title', 'Sub'), 0, 0, 0, 0, 19, ('page', 'home', 'post'), False),
    ('after break', 'article', '/html/body/main/article', ('Big title', 'Sub'), 0, 0, 0, 0, 22, ('page', 'home', 'post'), True),
    ('inner', 'div', '/html/body/main/article/div', ('Big title', 'Sub'), 0, 0, 0, 0, 12, ('page', 'home', 'post'), True),
    ('nested', 'p', '/html/body/main/article/div/p', ('Big title', 'Sub'), 0, 0, 0, 0, 6, ('page', 'home', 'post'), True),
    ('tail of p', 'div', '/html/body/main/article/div', ('Big title', 'Sub'), 0, 0, 0, 0, 9, ('page', 'home', 'post'), False),
    ('line one\nline two', 'pre', '/html/body/main/article/pre', ('Big title', 'Sub'), 0, 0, 0, 0, 30, ('page', 'home', 'post'), True),
    ('line three', 'pre', '/html/body/main/article/pre', ('Big title', 'Sub'), 0, 0, 0, 0, 10, ('page', 'home', 'post'), True),
    ('Key', 'th', '/html/body/main/article/table/tr/th', ('Big title', 'Sub'), 0, 1, 0, 0, 36, ('page', 'home', 'post'), True),
    ('Value 1', 'td', '/html/body/main/article/table/tr/td', ('Big title', 'Sub'), 0, 1, 0, 0, 16, ('page', 'home', 'post'), True),
    ('Other', 'h2', '/html/body/main/article/h2[2]', ('Big title',), 0, 0, 0, 0, 5, ('page', 'home', 'post'), True),
    # the three hidden paragraphs: one flagged block each (see test_pinned_page_hidden_flags)
    ('no', 'p', '/html/body/main/article/p[2]', ('Big title', 'Other'), 0, 0, 0, 0, 22, ('page', 'home', 'post'), True),
    ('no', 'p', '/html/body/main/article/p[3]', ('Big title', 'Other'), 0, 0, 0, 0, 22, ('page', 'home', 'post'), True),
    ('no', 'p', '/html/body/main/article/p[4]', ('Big title', 'Other'), 0, 0, 0, 0, 22, ('page', 'home', 'post'), True),
    ('ns', 'noscript', '/html/body/main/article/noscript', ('Big title', 'Other'), 0, 0, 0, 0, 23, ('page', 'home', 'post'), True),
    ('Term', 'dt', '/html/body/main/article/dl/dt', ('Big title', 'Other'), 1, 0, 0, 0, 13, ('page', 'home', 'post'), True),
    ('Def', 'dd', '/html/body/main/article/dl/dd', ('Big title', 'Other'), 1, 0, 0, 0, 12, ('page', 'home', 'post'), True),
    ('© 2024', 'p', '/html/body/footer/p', ('Big title', 'Other'), 0, 0, 0, 0, 30, ('page', 'home'), True),
]
_PINNED_FIELDS = ("text", "tag", "xpath", "heading_path", "list_depth", "table_depth", "link_chars", "n_links",
                  "markup_bytes", "tokens", "starts_element")


def test_pinned_page_hidden_flags():
    assert [b.hidden for b in segment(parse(PINNED_HTML))] == [b[0] == "no" for b in PINNED_BLOCKS]


def test_pinned_page_blocks_are_unchanged():
    got = [tuple(getattr(b, f) for f in _PINNED_FIELDS) for b in segment(parse(PINNED_HTML))]
    assert got == PINNED_BLOCKS


def test_link_chars_count_link_text_as_the_block_shows_it():
    # markup indentation inside a link is folded like the block text, so link density stays a share
    [b] = blocks_of('<p>Read <a href="/x">the\n        whole\n        story</a> now</p>')
    assert b.text == "Read the whole story now"
    assert b.link_chars == len("the whole story")


def test_named_anchors_are_not_links():
    blocks = blocks_of('<h2><a name="sec1">Section one</a></h2>'
                       '<p><a id="x">anchor</a> and <a href="">empty href</a></p>')
    heading, para = blocks
    assert heading.link_chars == 0 and heading.n_links == 0
    assert para.link_chars == len("empty href") and para.n_links == 1


def test_huge_class_strings_are_not_kept_in_the_token_cache():
    import importlib

    from blockclf.html import parse

    seg = importlib.import_module("blockclf.segment")
    elements = importlib.import_module("blockclf.elements")  # where the caches of class strings live

    html = ("<html><body><div class='wrap'>" + "".join(f"<p class='{'c' * 5000}{i}'>text {i}</p>" for i in range(50))
            + "</div></body></html>")
    blocks = seg.segment(parse(html.encode()))
    assert len(blocks) == 50 and all(b.tokens for b in blocks)
    assert ("wrap", None) in elements._TOKEN_CACHE and "wrap" in elements._FURNITURE_CACHE  # a short one is kept
    assert all(len(cls or "") + len(ident or "") <= 200 for cls, ident in elements._TOKEN_CACHE)
    assert all(len(cls) <= 200 for cls in elements._FURNITURE_CACHE)


def test_an_image_without_text_of_its_own_goes_with_the_block_before_it():
    html = ('<body><h1>Title</h1><figure><img src="/logo.png" alt="Logo"></figure><p>First paragraph.</p>'
            '<figure><img src="/a.jpg" alt="A photo"></figure><div><img src="/b.jpg"></div><p>Second paragraph.</p>'
            '<pre>x = 1</pre><div><img src="/c.jpg" alt="C"></div></body>')
    blocks = segment(parse(html.encode()))
    by_text = {b.text: b for b in blocks}
    assert by_text["First paragraph."].images == '<img src="/a.jpg" alt="A photo"><img src="/b.jpg" alt="">'
    assert by_text["Title"].images == '<img src="/logo.png" alt="Logo">'  # a lead photo, written apart
    assert by_text["x = 1"].images is None  # nor to code
    assert by_text["Second paragraph."].images is None
    assert all(b.rich is None for b in blocks if b.tag == "p")  # the text's own markup is untouched



def test_icons_spacers_and_tracking_pixels_are_no_images_of_the_page():
    """An image the page draws as a dot or a line (spacer, rule, tracking pixel) is never kept,
    an icon or button (at most 24 px either way) only in a table cell, where it may be what the
    cell says; a picture without stated sizes, or with a shape only, is kept, unless its file is
    named as a spacer."""
    html = ('<body><p>Text <img src="/rss.gif" width="16" height="16"> and <img src="/px.gif" width="1" height="1">'
            ' and <img src="/line.gif" width="400" height="1"> and <img src="/share.png" style="width: 171px; height:16px">'
            ' and <img src="/photo.jpg" alt="P"> and <img src="/wide.jpg" width="16" height="9"> and'
            ' <img src="/big.jpg" width="640" height="360"> end.</p>'
            '<table><tr><td>Done <img src="/ok.png" width="20px"></td><td>x <img src="/dot.gif" width="1"></td></tr></table>'
            '<p>Old <img src="/img/spacer.gif"> web <img src="/c/cleardot.gif?v=2"> and <img src="/blank.png">'
            ' but <img src="/logo-transparent.png" alt="Logo"> <img src="/pixel-7-pro.png" alt="Phone"></p></body>')
    blocks = segment(parse(html.encode()))
    rich = "".join(b.rich or "" for b in blocks)
    kept = re.findall(r'src="/([^"]+)"', rich)
    assert kept == ["photo.jpg", "wide.jpg", "big.jpg", "ok.png", "logo-transparent.png", "pixel-7-pro.png"]
    assert [b.text for b in blocks][0] == "Text and and and and and and end."  # the text is as it was


_SRC_PARTS = st.sampled_from(["/", "img", "spacer", "cleardot", "1x1", "blank", "pixel", "trans", "-", "_", ".",
                               "gif", "GIF", "g\u0131f", "G\u0130F", "png", "PNG", "jpg", "?", "#", "v=2",
                               "data:image/gif;base64,", "R0lGOD+/="])


@given(st.lists(_SRC_PARTS, max_size=12).map("".join))
@example("/img/spacer.g\u0131f")
@example("/c/CLEARDOT.G\u0130F?v=2")
@example("blank.png#x")
@settings(max_examples=300, deadline=None)
def test_an_address_named_as_a_spacer_is_one_whatever_the_quick_test_before_it(src):
    """The lowercase test that spares an inline image's long ``data:`` address the spacer search
    never turns away an address the search itself finds (its ``i`` also matches ``İ`` and ``ı``)."""
    assert (is_small_image({"src": src}) == DOT) == (_SPACER_FILE.search(src) is not None)


def test_a_lazy_loading_image_is_read_from_the_address_its_script_would_swap_in():
    """A stand-in drawn inline (``data:``) or a missing ``src`` gives way to ``data-src`` or the
    largest candidate of a ``srcset``, whose addresses may hold commas; a real ``src`` stands."""
    pixel = "data:image/gif;base64,R0lGODlhAQABAAAAACH5BAEKAAEALAAAAAABAAEAAAICTAEAOw=="
    html = (f'<body><p>A <img src="{pixel}" data-src="/lazy.jpg" alt="L"> and'
            f' <img src="{pixel}" data-srcset="https://img.example/c_fill,w_80/s.jpg 80w,'
            ' https://img.example/c_fill,w_640/big.jpg 640w, https://img.example/c_fill,w_320/m.jpg 320w">'
            ' and <img srcset="/one.jpg 1x, /two.jpg 2x"> and <img src="/real.jpg" data-src="/other.jpg">'
            f' and <img src="{pixel}"> end.</p></body>')
    rich = segment(parse(html.encode()))[0].rich or ""
    assert re.findall(r'src="([^"]+)"', rich) == ["/lazy.jpg", "https://img.example/c_fill,w_640/big.jpg",
                                                  "/two.jpg", "/real.jpg"]


def test_a_declarative_shadow_roots_text_is_read_where_browsers_draw_it():
    # server-rendered web components carry their text in <template shadowrootmode>, which browsers
    # draw as the host's content; other templates are for scripts and stay unread
    html = ("<html><body><h1>Rivers</h1><river-card>Lead <template shadowrootmode='open'><h2>Inside</h2>"
            "<p>Shadow text of the card.</p><slot></slot></template>after <p>Light text.</p></river-card>"
            "<template id='row'><p>A script's row template.</p></template>"
            "<x-old><template shadowroot='open'><p>Older attribute.</p></template></x-old></body></html>")
    texts = [b.text for b in blocks_of(html)]
    assert texts == ["Rivers", "Lead", "Inside", "Shadow text of the card.", "after", "Light text.", "Older attribute."]
