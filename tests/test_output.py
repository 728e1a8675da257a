"""Faithful output: each construct in text, Markdown, HTML and JSON, from small inline pages."""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path

import lxml.html
import numpy as np
import pytest

from blockclf import Result, parse, segment
from blockclf.cli import main
from blockclf.render import to_dict, to_html, to_markdown, to_text


def page(body: str, head: str = "", url: str | None = "https://site.org/a/b.html",
         drop: tuple[str, ...] = ()) -> Result:
    """Every block kept (but those whose text is in ``drop``), as the renderers receive them."""
    doc = parse(f"<html><head><title>T</title>{head}</head><body>{body}</body></html>")
    blocks = segment(doc)
    kept = np.array([b.text not in drop for b in blocks])
    return Result(blocks=blocks, scores=np.where(kept, 0.9, 0.1), kept=kept, threshold=0.5, favor="balanced",
                  title="", url=url, name="page.html")  # the headline has tests of its own


def titled_page(body: str, title: str, drop: tuple[str, ...] = ()) -> Result:
    """`page` with the headline the metadata found (`Result.title`)."""
    res = page(body, drop=drop)
    res.title = title
    return res


def test_nested_and_ordered_lists_keep_nesting_and_numbers():
    res = page('<ol start="3"><li>three</li><li>four<ol><li>sub</li><li value="7">seven</li></ol></li></ol>'
               '<ul><li>dot<ul><li>deeper</li></ul></li></ul>')
    md = to_markdown(res)
    assert "3. three\n4. four\n   1. sub\n   7. seven\n" in md
    assert "- dot\n  - deeper" in md
    assert to_text(res).split("\n") == ["- three", "- four", "  - sub", "  - seven", "- dot", "  - deeper"]
    html = to_html(res)
    assert '<li value="3">three</li>' in html and '<li value="7">seven</li>' in html
    assert html.count("<ol>") == 2 and html.count("</ol>") == 2 and html.count("<ul>") == 2
    assert to_dict(res)["markdown"] == md


def test_lists_in_a_row_stay_lists_of_their_own():
    # Markdown reads items of one marker as one list: the second of two lists takes the other markers
    res = page("<ul><li>a</li><li>b<ul><li>b1</li></ul></li></ul><nav><ul><li>c</li></ul></nav>"
               "<ol><li>one</li></ol><ol><li>two</li></ol><ul><li>d</li></ul><p>text</p><ul><li>e</li></ul>")
    assert to_markdown(res) == "- a\n- b\n  - b1\n\n* c\n\n1. one\n\n1) two\n\n- d\n\ntext\n\n- e\n"
    assert to_text(res).split("\n")[:4] == ["- a", "- b", "  - b1", "- c"]


#: an item's blocks other than its text, each written inside the item so that the list goes on
#: (documentation generators indent an item's further paragraphs as a quote in it, and nest
#: hierarchies as terms with lists; a forum's posts are items headed by their authors)
INSIDE_ITEMS = {
    "quote": ("<ul><li><p>first</p><blockquote><p>more about it</p><pre>code()</pre></blockquote></li>"
              "<li>second<blockquote><blockquote>deeper</blockquote></blockquote></li></ul>"
              "<blockquote><ul><li>a list in a quote</li></ul></blockquote>",
              "- first\n\n  > more about it\n  >\n  > ```\n  > code()\n  > ```\n\n"
              "- second\n\n  > > deeper\n\n> - a list in a quote\n"),
    "heading": ("<ol><li><h3>Ann</h3><blockquote>first post</blockquote></li>"
                "<li><p>intro</p><h4>Bob</h4><p>second post</p></li></ol><h2>After</h2>",
                "1. ### Ann\n\n   > first post\n\n2. intro\n\n   #### Bob\n\n   second post\n\n## After\n"),
    "definition list": ("<ul><li>one</li><li><dl><dt>a term that wraps</dt><dd><p>its definition</p></dd></dl></li>"
                        "<li>three</li></ul><dl><dt>outside</dt><dd>a list</dd></dl>",
                        "- one\n\n- a term that wraps\n  : its definition\n\n- three\n\noutside\n: a list\n"),
    "code first": ("<ul><li><pre>pip install x</pre><p>then this</p></li><li>two</li></ul>",
                   "- ```\n  pip install x\n  ```\n\n  then this\n\n- two\n"),
    "table": ("<ul><li>one<table><tr><th>a</th><th>b</th></tr><tr><td>1</td><td>2</td></tr></table></li>"
              "<li><table><tr><th>x</th><th>y</th></tr></table></li><li>three</li></ul>"
              "<blockquote><table><tr><th>m</th><th>n</th></tr></table></blockquote>",
              "- one\n\n  | a | b |\n  | --- | --- |\n  | 1 | 2 |\n\n"
              "- | x | y |\n  | --- | --- |\n- three\n\n> | m | n |\n> | --- | --- |\n"),
}


@pytest.mark.parametrize("kind", INSIDE_ITEMS)
def test_what_a_list_item_holds_is_written_inside_it_and_the_list_goes_on(kind):
    body, markdown = INSIDE_ITEMS[kind]
    assert to_markdown(page(body)) == markdown


def test_reversed_list_counts_down():
    md = to_markdown(page("<ol reversed><li>a</li><li>b</li><li>c</li></ol>"))
    assert md == "3. a\n2. b\n1. c\n"


def test_list_item_with_paragraphs_and_line_breaks():
    res = page("<ul><li><p>para one</p><p>para two</p></li><li>line<br>broken</li></ul>")
    md = to_markdown(res)
    assert md.startswith("- para one\n\n  para two\n")
    assert "- line\\\n  broken\n" in md
    assert "<li>line<br>broken</li>" in to_html(res)


def test_table_rows_with_spans_and_block_cells():
    res = page("<table><tr><th>A</th><th>B</th><th>C</th></tr><tr><td colspan='2'>wide</td><td>c|d</td></tr>"
               "<tr><td><p>p1</p><p>p2</p></td><td><ul><li>x</li><li>y</li></ul></td><td>z</td></tr></table>")
    md = to_markdown(res)
    assert "| A | B | C |\n| --- | --- | --- |\n| wide |  | c\\|d |\n| p1 p2 | x y | z |" in md
    assert to_text(res).split("\n") == ["A | B | C", "wide |  | c|d", "p1 p2 | x y | z"]  # a span keeps columns
    html = to_html(res)
    assert '<td colspan="2">wide</td>' in html and "<th>A</th>" in html
    assert "<td><p>p1</p>\n<p>p2</p>\n</td>" in html and "<td><ul>\n<li>x</li>" in html


def test_a_table_of_one_column_lays_the_page_out_and_is_written_as_its_blocks():
    res = titled_page("<table><tr><td>River cut a channel</td></tr><tr><td><em>24 November 2007</em></td></tr>"
                      "</table><table><tr><td><p>Photo: the new channel.</p><p>Credit: Ann</p></td></tr></table>"
                      "<p>Body.</p><table><tr><th>Year</th></tr><tr><td>2007</td></tr><tr><td></td><td>2008</td></tr>"
                      "</table>", "River cut a channel")
    md = to_markdown(res)
    assert md.startswith("# River cut a channel\n\n*24 November 2007*\n\nPhoto: the new channel.\n\nCredit: Ann\n\n"
                         "Body.\n\n")  # the headline boxed in a table is not written twice
    assert md.endswith("| Year |  |\n| --- | --- |\n| 2007 |\n|  | 2008 |\n")  # a second column: a table
    assert "<table>" not in to_html(res).split("<p>Body.</p>")[0]
    assert to_text(res).split("\n")[:4] == ["River cut a channel", "24 November 2007", "Photo: the new channel.",
                                            "Credit: Ann"]


def test_a_table_of_one_kept_cell_is_written_as_its_blocks():
    """One cell kept, beside an empty one (a byline boxed in a row with a spacer cell): nothing
    to tabulate, so its lines are paragraphs, in Markdown, HTML and text alike."""
    res = page("<table><tr><td></td><td>By <b>Arion McNicoll</b> for CNN<br>Published 24 November 2007</td></tr>"
               "</table><p>The body of the story.</p>")
    md = to_markdown(res)
    assert md == "By **Arion McNicoll** for CNN\\\nPublished 24 November 2007\n\nThe body of the story.\n"
    assert "<table>" not in to_html(res)
    assert to_text(res).split("\n") == ["By Arion McNicoll for CNN", "Published 24 November 2007", "The body of the story."]


def test_empty_cells_keep_the_columns_of_the_cells_after_them():
    res = page("<table><tr><th>Name</th><th>Age</th><th>Town</th></tr>"
               "<tr><td></td><td>5</td><td>Oslo</td></tr>"
               "<tr><td colspan='2'>Ann, 7</td><td>Rome</td></tr>"
               "<tr><td>Bo</td><td> </td><td>Nice</td></tr>"
               "<tr><td>Cy</td><td>9</td><td></td></tr></table>")
    assert [b.column for b in res.blocks] == [1, 2, 3, 2, 3, 1, 3, 1, 3, 1, 2]
    md = to_markdown(res)
    assert "|  | 5 | Oslo |\n| Ann, 7 |  | Rome |\n| Bo |  | Nice |\n| Cy | 9 |" in md
    assert to_dict(res)["markdown"] == md
    assert to_text(res).split("\n")[1:] == [" | 5 | Oslo", "Ann, 7 |  | Rome", "Bo |  | Nice", "Cy | 9"]
    html = to_html(res)
    assert "<tr>\n<td></td><td>5</td>\n<td>Oslo</td>" in html and "<td>Bo</td>\n<td></td><td>Nice</td>" in html
    assert html.count("<td") == html.count("</td>")
    nested = page("<table><tr><td></td><td><table><tr><td></td><td>in</td></tr><tr><td>x</td></tr></table>"
                  "</td></tr></table>")
    assert [b.column for b in nested.blocks] == [2, 1]  # the innermost cell's column
    assert to_text(nested) == " | in\nx"
    pictures = page("<table><tr><td><img src='a.png'></td><td>Alpha</td></tr>"
                    "<tr><td><img src='b.png'></td><td>Beta</td></tr></table>")
    assert "| Alpha |\n| --- |\n| Beta |" in to_markdown(pictures)  # a column with no text is left out
    assert to_text(pictures) == "Alpha\nBeta"
    wide = page("<table><tr>" + "<td colspan='100'></td>" * 5000 + "<td>far</td></tr><tr><td>near</td></tr></table>")
    assert wide.blocks[0].column == 1000  # counted no further: the row stays small to write
    assert len(to_markdown(wide)) < 10_000 and len(to_html(wide)) < 20_000


def test_layout_table_is_written_as_blocks():
    res = page("<table><tr><td><h1>Article</h1><p>Body text.</p></td><td>side</td></tr></table>")
    md = to_markdown(res)
    assert md.startswith("# Article\n\nBody text.\n\nside")
    assert "|" not in md and "<table>" not in to_html(res)


def test_an_article_set_in_a_few_cells_is_written_as_paragraphs():
    prose = ["The council voted on Tuesday to keep the old bridge open to walkers and cyclists.",
             "Repairs will start in the spring and are expected to take about two years to finish."]
    paragraphs = "".join(f"<p>{p}</p>" for p in prose)
    beside_empty = page(f"<table><tr><td></td><td><div>Bridge stays open</div>{paragraphs}</td></tr></table>")
    assert to_markdown(beside_empty) == "Bridge stays open\n\n" + "\n\n".join(prose) + "\n"
    assert to_text(beside_empty) == "Bridge stays open\n" + "\n".join(prose)
    post = page(f"<table><tr><td>Member since 2004</td><td>{paragraphs}</td></tr></table>")
    assert "|" not in to_markdown(post) and "<table>" not in to_html(post)
    # a table of more cells holds data, whatever one of its cells says
    specs = page("<table>" + "".join(f"<tr><td>Key {n}</td><td>Value {n}</td></tr>" for n in range(3))
                 + f"<tr><td>Features</td><td>{paragraphs}</td></tr></table>")
    assert "| Key 0 | Value 0 |" in to_markdown(specs)


def test_one_long_paragraph_in_a_few_cells_is_a_paragraph():
    """A page that sets each paragraph in a cell beside its photo's cell writes paragraphs; a
    short value beside its label stays a table."""
    long = ("This joy ride begins at a busy railway station in the plains, where it is much warmer than in "
            "the hills; as the train climbs the mountains the air grows colder, so keep warm clothes at hand. "
            "After six miles the train reaches the old station where the real ascent begins and the engine takes on water.")
    beside_photo = page(f'<table><tr><td><img src="a.jpg"></td><td><p>{long}</p></td></tr></table>')
    assert to_markdown(beside_photo) == long + "\n"
    assert "<table>" not in to_html(beside_photo)
    value = page("<table><tr><td>Depth</td><td>The lake is about forty metres deep at its centre.</td></tr></table>")
    assert to_markdown(value).startswith("| Depth | The lake is about forty metres deep at its centre. |")


def test_a_heading_that_holds_a_paragraph_is_written_as_one():
    lead = ("The U.S. has long been heralded as a land of opportunity, a place where anyone can succeed "
            "regardless of the economic class they were born into. But new research says otherwise.")
    res = page(f"<h1>Land of opportunity</h1><h2>{lead}</h2><p>The study followed forty thousand families.</p>"
               "<h2>What the study found, and what it did not find in the records of the census</h2><p>More.</p>")
    assert to_markdown(res) == ("# Land of opportunity\n\n" + lead + "\n\nThe study followed forty thousand families."
                                "\n\n## What the study found, and what it did not find in the records of the census"
                                "\n\nMore.\n")
    assert f"<p>{lead}</p>" in to_html(res)
    deck = "Today's fans would rather have stars pose with them for a snapshot they can share than sign memorabilia."
    deck = deck + " " + deck[:20] + "."  # 126 characters, sentences
    assert to_markdown(page(f"<h1>Fans</h1><h2>{deck}</h2><p>Body.</p>")) == f"# Fans\n\n{deck}\n\nBody.\n"
    blurb = "Cheap flights and hotels " * 11  # 275 characters of keywords in an h1
    assert to_markdown(page(f"<h1>{blurb}</h1><p>Book now.</p>")).startswith("Cheap flights")


def test_html_headings_hold_their_lines_and_no_paragraph():
    """A heading's blocks are lines of it: ``<h2><p>`` is no HTML, and lxml reads it as an empty
    heading before a paragraph; a table set in a heading is written after it."""
    lines = to_html(page("<h2><div>30 oz Tumbler</div><div>With lid</div></h2><p>Body.</p>"))
    assert lines == "<h2>30 oz Tumbler<br>With lid</h2>\n<p>Body.</p>\n"
    tail = to_html(page("<h3><span><div>Inside a div</div></span> and after</h3>"))
    assert tail == "<h3>Inside a div<br>and after</h3>\n"
    read = lxml.html.fragment_fromstring(lines, create_parent="div")
    assert read.xpath("string(h2)") == "30 oz TumblerWith lid"
    table = to_html(page("<h2>Specs<table><tr><td>Depth</td><td>40 m</td></tr></table></h2>"))
    assert table.startswith("<h2>Specs</h2>\n<table>")
    photo = to_html(page('<h2><div>Lead title</div><img src="/a.jpg" alt="A"></h2><p>Body.</p>'), images=True)
    assert photo.startswith('<h2>Lead title</h2>\n<p><img src="https://site.org/a.jpg" alt="A"></p>\n')


def test_html_a_paragraph_broken_into_lines_is_one_paragraph():
    """Lines a ``<br>`` breaks stay one paragraph, as Markdown writes them (an address, a verse);
    two breaks in a row part paragraphs."""
    address = page("<p>12 Main Street<br>Springfield<br>USA</p><p>Open daily.</p>")
    assert to_html(address) == "<p>12 Main Street<br>Springfield<br>USA</p>\n<p>Open daily.</p>\n"
    assert to_markdown(address) == "12 Main Street\\\nSpringfield\\\nUSA\n\nOpen daily.\n"
    assert to_html(page("<p>One line<br><br>After a blank line</p>")) == "<p>One line</p>\n<p>After a blank line</p>\n"


def test_html_a_table_with_breaks_before_its_rows_is_one_table(monkeypatch):
    """A break the page's rules or a thread's posts put before a table's rows parts nothing
    inside it: Markdown writes the table whole, and HTML has no rule between rows either."""
    import blockclf.structure

    # every kept block opens a post of a thread, as a page laid out in rows can make them
    monkeypatch.setattr(blockclf.structure, "post_breaks", lambda _res, kept: {id(b) for b in kept})
    rows = "".join(f"<tr><td>Sep {n}</td><td>Lecture {n}</td></tr>" for n in range(3))
    res = page(f"<p>Lectures this term.</p><table><tr><th>Date</th><th>Topic</th></tr>{rows}</table>")
    html = to_html(res)
    assert html.count("<table>") == 1 and html.count("<hr>") == 1 and html.index("<hr>") < html.index("<table>")
    assert to_markdown(res).split("\n").count("---") == 1  # Markdown too: one rule, before the table
    lines = page("<p>First line<br>second line</p>")
    assert to_html(lines) == "<p>First line</p>\n<hr>\n<p>second line</p>\n"  # a rule never inside a paragraph


def test_html_text_in_a_table_but_in_no_cell_is_no_tables():
    """A table holds rows: text a page set in it outside any cell is a paragraph before it, as
    Markdown writes it and as a parser moves it."""
    res = page("<table><p>Loose paragraph.</p><tr><td>a</td><td>b</td></tr></table>")
    assert to_html(res) == "<p>Loose paragraph.</p>\n<table>\n<tr>\n<td>a</td>\n<td>b</td>\n</tr>\n</table>\n"
    assert to_markdown(res) == "Loose paragraph.\n\n| a | b |\n| --- | --- |\n"


def test_html_items_stand_in_lists_and_lists_hold_items():
    """An item a page set in no list gets one (its siblings share it); text a page set in a list
    but in no item is a paragraph beside the list, as Markdown writes it."""
    loose = to_html(page("<div><li>First item</li><li>Second item</li></div>"))
    assert loose == "<ul>\n<li>First item</li>\n<li>Second item</li>\n</ul>\n"
    recipe = to_html(page("<ol>Preheat the oven.<li>Slice the squash.</li><li>Bake it.</li></ol>"))
    assert recipe == ('<p>Preheat the oven.</p>\n<ol>\n<li value="1">Slice the squash.</li>\n'
                      '<li value="2">Bake it.</li>\n</ol>\n')
    nested = to_html(page("<ul><ul><li>OS: Windows 10</li><li>Memory: 8 GB</li></ul></ul>"))
    assert nested == "<ul>\n<li>OS: Windows 10</li>\n<li>Memory: 8 GB</li>\n</ul>\n"
    specs = to_html(page("<ul><b>Device</b>: Viper</ul><ul><b>Maker</b>: LG</ul>"))
    assert specs == "<p><strong>Device</strong>: Viper</p>\n<p><strong>Maker</strong>: LG</p>\n"


def test_html_spans_with_nothing_to_read_are_left_out():
    """A link around an image that is not written, an empty bold or italic, emphasis of marks
    alone: no tags, as in Markdown."""
    res = page('<p><a href="/x"><img src="a.jpg"></a> Caption. <em> </em>Text <b></b>and <i><b></b></i>more<b>. </b></p>')
    assert to_html(res) == "<p>Caption. Text and more.</p>\n"  # a bold period is a period, as in Markdown
    assert to_html(res, images=True).startswith('<p><a href="https://site.org/x"><img src="https://site.org/a/a.jpg"')
    assert to_markdown(res) == "Caption. Text and more.\n"


def test_a_list_item_that_holds_the_page_is_no_list():
    """A theme that sets the post in an ``<li>`` of its own: the article is not one bullet."""
    para = "<p>WhatsApp, the mobile messaging app, has passed 100 million downloads on Google Play this week.</p>"
    post = page(f"<div><li><h2>WhatsApp passes 100 million</h2>{para * 6}</li></div>")
    assert to_markdown(post).startswith("## WhatsApp passes 100 million\n\nWhatsApp, the mobile")
    assert to_text(post).startswith("WhatsApp passes 100 million\nWhatsApp, the mobile")
    assert "<li>" not in to_html(post)
    # items of a list with more than one kept, or without prose (a table of contents), stay items
    steps = page(f"<ol><li><h2>Step one</h2>{para * 6}</li><li><h2>Step two</h2>{para}</li></ol>")
    assert to_markdown(steps).startswith("1. ## Step one")
    toc = page('<ul><li><a href="/p">package</a><ul>' + "".join(f'<li><a href="/m{n}">module {n} of the package</a></li>'
                                                                 for n in range(40)) + "</ul></li></ul>")
    assert to_markdown(toc).startswith("- [package](")


def test_a_blockquote_that_indents_the_page_is_no_quote():
    paras = "".join(f"<p>Paragraph {n} of the essay, which an old page indents with a quote element as a whole.</p>"
                    for n in range(8))
    indented = page(f"<blockquote><h2>Critical reading</h2>{paras}</blockquote>")
    md = to_markdown(indented)
    assert md.startswith("## Critical reading\n\nParagraph 0") and "> " not in md
    assert "<blockquote>" not in to_html(indented)
    whole = to_markdown(page(f"<blockquote>{paras}</blockquote><p>Posted in essays.</p>"))
    assert whole.startswith("Paragraph 0") and "> " not in whole
    # a quote among the page's own paragraphs stays one, and so does a pull quote set as a heading
    pull = to_markdown(page(f"{paras}<blockquote><h4>“Growth takes hard work.”</h4></blockquote>{paras}"))
    assert "\n\n> #### “Growth takes hard work.”\n\n" in pull
    quoted = to_markdown(page(f"{paras}<blockquote><p>We will not stop, the mayor said.</p></blockquote>{paras}"))
    assert "\n\n> We will not stop, the mayor said.\n\n" in quoted


def test_lines_a_page_marks_as_items_are_written_as_a_list():
    res = page("<p>Changes in this release:</p><p>+ Added the slime block<br>+ Fixed the cave bug<br>"
               "+ New sounds</p><p>1. Finland<br>2. Norway<br>3. Denmark</p><p>• One<br>• Two<br>• Three</p>")
    assert to_markdown(res) == ("Changes in this release:\n\n- Added the slime block\n- Fixed the cave bug\n"
                                "- New sounds\n\n1. Finland\n2. Norway\n3. Denmark\n\n- One\n- Two\n- Three\n")
    assert "+ Added the slime block" in to_text(res)  # the text as the page wrote it
    # numbers out of order, a line without a marker, or two lines stay broken lines
    kept = to_markdown(page("<p>3. Out of order<br>1. Here<br>2. There</p><p>- a<br>plain<br>- c</p>"
                            "<p>+ one<br>+ two</p>"))
    assert kept == "3\\. Out of order\\\n1\\. Here\\\n2\\. There\n\n\\- a\\\nplain\\\n\\- c\n\n\\+ one\\\n\\+ two\n"


def test_rows_and_cells_outside_any_table_are_not_a_table():
    # a broken tag swallowed the table's start: the parser leaves its rows and cells where they
    # were, and a browser shows their content as a page's flow, not as a table
    res = page('<x.example.com/image.gif" border=0><tr><td><h1>Headline</h1><div>1 May</div>'
               '<p>First paragraph.</p><p>Second paragraph.</p></td></tr>')
    assert res.blocks[0].ancestors[-3:] == ("tr", "td", "h1")  # no table above them
    assert to_markdown(res) == "# Headline\n\n1 May\n\nFirst paragraph.\n\nSecond paragraph.\n"
    assert to_text(res) == "Headline\n1 May\nFirst paragraph.\nSecond paragraph."


def test_a_blank_line_of_two_line_breaks_ends_a_paragraph():
    res = page("<div>One line.<br>Same paragraph.<br><br>New paragraph.<br>\n <br>\nAnother one.</div><p>Last.</p>")
    assert [b.gap for b in res.blocks] == [False, False, True, True, False]
    assert to_markdown(res) == "One line.\\\nSame paragraph.\n\nNew paragraph.\n\nAnother one.\n\nLast.\n"
    assert to_text(res) == "One line.\nSame paragraph.\nNew paragraph.\nAnother one.\nLast."  # one block a line, as before
    # breaks at an element's start or end add no empty paragraph
    assert to_markdown(page("<p>Before.</p><p><br><br>Start.<br>End.<br><br></p><p>Next.</p>")) == (
        "Before.\n\nStart.\\\nEnd.\n\nNext.\n")


def test_a_rule_the_page_draws_between_kept_text_is_written():
    body = ('<nav>Menu</nav><hr><p>Part one.</p><p>More of it.</p><hr><hr><aside>Ad</aside><p>Part two <hr>tail.</p>'
            '<table><tr><th>Key</th><th>Value</th></tr><tr><td>Size</td><td><hr>Large</td></tr></table><hr>'
            '<footer>Foot</footer>')
    res = page(body, drop=("Menu", "Ad", "Foot"))
    assert [(b.text, b.rules) for b in res.blocks if b.rules] == [
        ("Part one.", ("/html/body",)), ("Ad", ("/html/body",)), ("tail.", ("/html/body",)),
        ("Large", ("/html/body/table/tr[2]/td[2]",)), ("Foot", ("/html/body",))]
    # not before the first kept text or after the last, once for two rules, never inside a table
    assert to_markdown(res) == ("Part one.\n\nMore of it.\n\n---\n\nPart two\n\n---\n\ntail.\n\n"
                                "| Key | Value |\n| --- | --- |\n| Size | Large |\n")
    assert to_html(res).count("<hr>") == 2 and "<hr>\n<p>Part two</p>" in to_html(res)
    assert to_text(res) == "Part one.\nMore of it.\n\nPart two\n\ntail.\nKey | Value\nSize | Large"


def test_a_rule_parts_no_definition_list_or_table_written_as_one_but_is_drawn_before_one():
    assert [b.rules for b in page("<pre>a<hr>b</pre><p>c</p>").blocks] == [(), ()]  # code draws none
    assert to_markdown(page("<dl><dt>Term</dt><hr><dd>Meaning</dd></dl>")) == "Term\n: Meaning\n"
    # a rule inside a table that lays the page out (written as paragraphs) is drawn
    prose = "a paragraph of prose long enough to read as the article that the page lays out in one cell."
    assert to_markdown(page(f"<table><tr><td><p>One, {prose}</p><hr><p>Two, {prose}</p></td></tr></table>")) == (
        f"One, {prose}\n\n---\n\nTwo, {prose}\n")
    # a rule before a table or a definition list is drawn
    assert to_markdown(page("<p>Text.</p><hr><dl><dt>Term</dt><dd>Meaning</dd></dl>")) == "Text.\n\n---\n\nTerm\n: Meaning\n"
    assert to_markdown(page("<p>Text.</p><hr><table><tr><th>K</th><th>V</th></tr></table>")) == (
        "Text.\n\n---\n\n| K | V |\n| --- | --- |\n")


def test_a_document_never_opens_with_a_rule(monkeypatch):
    # "---" on a Markdown document's first line opens front matter for many readers
    from dataclasses import replace

    import blockclf.htmlout
    from blockclf.markdown import titled_markdown
    from blockclf.structure import kept_items

    res = page("<p>First.</p><hr><p>Second.</p>")
    items = [replace(it, post_break=True) for it in kept_items(res)]  # a break asked for before the first too
    assert titled_markdown(res, None, items) == "First.\n\n---\n\nSecond.\n"
    monkeypatch.setattr(blockclf.htmlout, "kept_items", lambda _res: items)
    assert to_html(res) == "<p>First.</p>\n<hr>\n<p>Second.</p>\n"


def test_the_rules_of_a_removed_box_between_kept_text_draw_nothing():
    # an advertisement set inside a paragraph between two rules of its own
    res = page('<div><p>Only eight players <div class="ad"><hr><p>Advertisement</p><hr></div>broke par.</p>'
               '<p>Next.</p></div>', drop=("Advertisement",))
    assert to_markdown(res) == "Only eight players\n\nbroke par.\n\nNext.\n"


def test_struck_out_text_is_struck_out_in_markdown_and_html_and_plain_in_text():
    res = page("<p>Now <del>$90</del> $30: <s>Leicas</s> proper cameras, <strike>old</strike> new, ~4 reps, "
               "/~user/, a ~~pair~~ the page writes.</p>")
    # the page's own tildes escaped where a reader could take them for struck-out text's
    assert to_markdown(res) == ("Now ~~$90~~ $30: ~~Leicas~~ proper cameras, ~~old~~ new, \\~4 reps, /~user/, "
                                "a \\~\\~pair\\~\\~ the page writes.\n")
    assert to_html(res) == ("<p>Now <del>$90</del> $30: <del>Leicas</del> proper cameras, <del>old</del> new, ~4 reps, "
                            "/~user/, a ~~pair~~ the page writes.</p>\n")
    assert to_text(res) == "Now $90 $30: Leicas proper cameras, old new, ~4 reps, /~user/, a ~~pair~~ the page writes."


def test_a_headline_with_its_comments_counted_in_it_is_written_once():
    res = titled_page('<h2 class="story">Steve Jobs\' Yacht Revealed <span class="comments">40</span></h2>'
                      "<p>The yacht was shown in the Netherlands.</p>", "Steve Jobs' Yacht Revealed")
    assert to_markdown(res) == "# Steve Jobs' Yacht Revealed\n\nThe yacht was shown in the Netherlands.\n"
    short = titled_page("<h2>Apollo 13</h2><p>The mission.</p>", "Apollo")  # a short headline's number is its own
    assert "## Apollo 13" in to_markdown(short) or "# Apollo 13" in to_markdown(short)


def test_code_keeps_tabs_blank_lines_indentation_and_language():
    code = "def f():\n\tif x:\n\t    return 1\n\n\ny = f()  "
    res = page(f'<div class="highlight-python notranslate"><div class="highlight"><pre>{code}</pre></div></div>')
    md = to_markdown(res)
    assert md == "```python\ndef f():\n\tif x:\n\t    return 1\n\n\ny = f()\n```\n"
    assert to_text(res) == "def f():\n\tif x:\n\t    return 1\n\n\ny = f()"
    assert to_html(res) == '<pre><code class="language-python">def f():\n\tif x:\n\t    return 1\n\n\ny = f()</code></pre>\n'


@pytest.mark.parametrize(("pre", "code", "lang"), [
    ("highlight-height language-javascript line-numbers", "language-javascript", "javascript"),  # a theme's class first
    ("highlighter-hljs", "language-bash highlighter-hljs hljs", "bash"),  # a plugin's name is no language
    ("highlightjs highlight", "language-shell hljs", "shell"),
    ("highlightjs highlight", "language-none hljs", ""),  # the page says: no language
    ("highlight highlight-source-python", "", "python"),  # GitHub's
    ("sourceCode python", "sourceCode python", "python"),  # Pandoc's
    ("highlight js", "", "js"),  # Hexo's
    ("brush: js;", "", "js"),  # SyntaxHighlighter's
])
def test_code_language_is_the_one_its_classes_name(pre, code, lang):
    md = to_markdown(page(f'<pre class="{pre}"><code class="{code}">echo hi</code></pre>'))
    assert md == f"```{lang}\necho hi\n```\n"


@pytest.mark.parametrize("cls", ["lang-auto", "language-none", "hljs no-highlight", "language-undefined"])
def test_code_marked_with_no_language_gets_a_bare_fence(cls):
    assert to_markdown(page(f'<pre><code class="{cls}">docker run --help</code></pre>')) == "```\ndocker run --help\n```\n"


def test_code_fence_outgrows_backticks_inside_and_code_in_a_list_is_indented():
    md = to_markdown(page('<pre class="language-md">```\nx\n```</pre><ul><li>item<pre>  a\nb</pre></li></ul>'))
    assert "````md\n```\nx\n```\n````" in md
    assert "- item\n\n  ```\n    a\n  b\n  ```" in md


def test_line_numbers_copy_buttons_and_language_labels_do_not_reach_output():
    res = page('<div class="code-example"><div class="example-header"><span class="language-name">js</span>'
               '<button>Copy</button></div><pre class="brush: js notranslate"><code>let a = 1;</code></pre></div>'
               '<div class="highlight"><pre><span class="linenos">1</span>x = 1\n<span class="linenos">2</span>y = 2'
               '</pre></div><table class="highlighttable"><tr><td class="linenos"><div class="linenodiv"><pre>1\n2'
               '</pre></div></td><td class="code"><div class="highlight"><pre>p = 1\nq = 2</pre></div></td></tr></table>')
    md = to_markdown(res)
    assert md == "```js\nlet a = 1;\n```\n\n```\nx = 1\ny = 2\n```\n\n```\np = 1\nq = 2\n```\n"
    assert to_text(res) == "let a = 1;\nx = 1\ny = 2\np = 1\nq = 2"
    html = to_html(res)
    assert "Copy" not in html and ">js<" not in html and "1\n2" not in html


def test_heading_anchor_glyphs_are_dropped_everywhere():
    res = page('<h2>Install<a class="headerlink" href="#install" title="Link">¶</a></h2>'
               '<h3 id="x">Usage <a href="#x">#</a></h3><p>Text<sup><a href="#cite-1">^</a></sup> here.</p>')
    assert to_markdown(res) == "## Install\n\n### Usage\n\nText here.\n"
    assert to_text(res) == "Install\nUsage\nText here."
    assert to_html(res) == "<h2>Install</h2>\n<h3>Usage</h3>\n<p>Text here.</p>\n"
    assert res.blocks[0].text == "Install¶"  # what the model reads is unchanged


def test_links_back_to_the_top_of_the_page_are_dropped_everywhere():
    res = page('<a name="top"></a><p>Body one.</p><p><a href="#top">Back to top</a></p>'
               '<div><a href="#top">&uarr; Top</a><br><a href="#oben">Nach oben</a></div><p>Ends here.</p>'
               '<p><a href="#stories">Top stories</a> and <a href="/top">Back to top</a></p>')
    assert to_markdown(res) == ("Body one.\n\nEnds here.\n\n[Top stories](https://site.org/a/b.html#stories) and "
                                "[Back to top](https://site.org/top)\n")  # another page's "top" is a link
    assert to_text(res) == "Body one.\nEnds here.\nTop stories and Back to top"
    assert "Back to top" in res.blocks[1].text  # what the model reads is unchanged


def test_a_link_to_the_top_beside_other_words_stays():
    # the words around it would read wrong without it
    res = page('<p>Return to <a href="#top">top</a></p><p>[<a href="#top">Top</a>]</p>'
               '<p>Ends here. <a href="#top">Top</a></p>')
    assert to_text(res) == "Return to top\n[Top]\nEnds here. Top"


def test_a_forums_click_counts_after_links_are_dropped_everywhere():
    res = page('<p>You can access the survey <a href="https://forms.example/s1">here <span class="badge '
               'badge-notification clicks" title="28 clicks">28</span></a>.</p>')
    assert to_markdown(res) == "You can access the survey [here](https://forms.example/s1).\n"
    assert to_text(res) == "You can access the survey here."
    assert "28" not in to_html(res)
    assert res.blocks[0].text == "You can access the survey here 28."  # what the model reads is unchanged


def test_expand_toggles_of_forum_quotes_are_dropped_everywhere():
    res = page('<blockquote class="bbCodeBlock"><div class="bbCodeBlock-content"><div class="bbCodeBlock-expandContent">'
               'Gases are transparent.</div><div class="bbCodeBlock-expandLink js-expandLink"><a role="button">'
               'Click to expand...</a></div></div></blockquote><p>They are, except for lines.</p>'
               '<blockquote><div class="ipsQuote_contents">A long quote.</div><a class="ipsTruncate_more">'
               '<span>Expand &nbsp;</span></a></blockquote>')
    assert to_markdown(res) == "> Gases are transparent.\n\nThey are, except for lines.\n\n> A long quote.\n"
    assert "xpand" not in to_text(res) and "xpand" not in to_html(res)


def test_member_badges_beside_forum_posts_are_dropped_but_not_the_poster():
    res = page('<div class="post"><dl class="postprofile"><dt><a href="/u/7">jahboater</a></dt>'
               '<dd class="profile-rank">Forum Guru</dd><dd class="profile-posts"><strong>Posts:</strong> 9179</dd>'
               '<dd class="profile-joined"><strong>Joined:</strong> Wed Feb 04, 2015</dd>'
               '<dd class="profile-custom-field profile-phpbb_location"><strong>Location:</strong> WA</dd></dl>'
               '<div class="postbody"><p>This works on the Pi5.</p></div></div>'
               '<article class="message"><div class="message-userDetails"><h4>Sleyca</h4>'
               '<h5 class="userTitle message-userTitle">Well-known member</h5>'
               '<div class="userBanner">Staff member</div></div><div class="message-userExtras"><dl><dt>Joined</dt>'
               '<dd>Nov 4, 2011</dd></dl><dl><dt>Messages</dt><dd>65,334</dd></dl></div>'
               '<div class="message-body"><p>Try the other port.</p></div></article>'
               '<aside class="cAuthorPane"><h3 class="cAuthorPane_author">Quark</h3><ul class="cAuthorPane_info">'
               '<li>Members</li><li>28 posts</li></ul></aside><div><p>It was the cable.</p></div>')
    text = to_text(res)
    assert text.split("\n") == ["jahboater", "This works on the Pi5.", "Sleyca", "Try the other port.", "Quark",
                                "It was the cable."]


def test_a_small_letter_and_a_capital_from_two_elements_are_shown_as_two_words():
    res = page('<p><span>Color</span><span>Dorothy</span> liked the <b>shelf</b>. <a href="/r">Rubio</a>'
               '<span>GOP</span> <code><span>get</span><span>Value</span></code></p>'
               '<pre><span>fooBar</span><span>Baz</span></pre>')
    assert to_text(res) == "Color Dorothy liked the shelf. Rubio GOP getValue\nfooBarBaz"  # code as it is
    assert to_markdown(res).startswith("Color Dorothy liked the **shelf**. [Rubio](https://site.org/r) GOP `getValue`\n")
    assert to_html(res).startswith("<p>Color Dorothy liked")
    assert res.blocks[0].text == "ColorDorothy liked the shelf. RubioGOP getValue"  # what the model reads


def test_a_closing_mark_and_a_capital_from_two_elements_are_shown_as_two_words_but_not_in_a_name():
    res = page('<h1><span class="kicker">"Es wird bald beginnen"</span><span>Trump spricht</span></h1>'
               '<p><b>Toxicity:</b>Leaves dry. Washington (CNN)<span>The wife</span> said <q>"Hi!"</q><span>Then'
               '</span> <span>it works!</span><span>As a</span> rule, Arny wrote:<span>Do you?</span><span>Yes'
               '</span> and <span>\u201dVarje</span> natt\u201d<span>Sa</span></p>'
               '<p>exception <span>celery.exceptions.</span><span>Reject</span>, <span>std::</span><span>String'
               '</span>, <span>"</span><span>Quoted</span>", (<span>A</span>) and [<span>"B</span>"]</p>')
    assert to_text(res).split("\n") == [
        '"Es wird bald beginnen" Trump spricht',
        'Toxicity: Leaves dry. Washington (CNN) The wife said "Hi!" Then it works! As a rule, Arny wrote: Do you? Yes'
        ' and \u201dVarje natt\u201d Sa',
        'exception celery.exceptions.Reject, std::String, "Quoted", (A) and ["B"]']
    assert to_markdown(res).startswith('# "Es wird bald beginnen" Trump spricht\n\n**Toxicity:** Leaves dry.')
    assert res.blocks[0].text == '"Es wird bald beginnen"Trump spricht'  # what the model reads


def test_a_letter_and_a_digit_from_two_elements_are_shown_apart_but_not_around_sup_sub_or_in_chinese():
    res = page('<p><span>Windproof</span><span>6/6</span>, <span>$195.00</span><span>or 4 payments</span>,'
               ' the 29<sup>th</sup>, x<sup>2</sup>, H<sub>2</sub>O, Kenya<sup>1</sup>,'
               ' <span>玉峰村</span><span>6鄰</span>, <b>12</b>34, <code><span>x</span><span>1</span></code>,'
               ' August 17<sup><font>th</font></sup>, 2<i>n</i><sup>2</sup>, a preference<a href="#fn1">1</a>, begins<a href="#f1"><sup>1</sup></a>, N. 3<span>rd</span> St., CO<span style="vertical-align: sub">2</span></p>')
    assert to_text(res) == ("Windproof 6/6, $195.00 or 4 payments, the 29th, x2, H2O, Kenya1, 玉峰村6鄰, 1234, x1,"
                            " August 17th, 2n2, a preference1, begins1, N. 3rd St., CO2")
    assert res.blocks[0].text.startswith("Windproof6/6, $195.00or 4 payments")  # what the model reads


def test_brackets_are_escaped_only_where_they_would_make_markdown():
    said = page("<p>\u201cThey [the council] agreed,\u201d she said [1].</p>")
    assert to_markdown(said) == "\u201cThey [the council] agreed,\u201d she said [1].\n"
    # a link's address, a reference or a definition after "]", a task's box, a link's own text
    md = to_markdown(page("<p>[a](b) and [c][d]</p><p>[1]: https://example.org</p><ul><li>[ ] not a task</li>"
                          "<li>[x] nor this</li></ul><p><a href='/n'>note [1</a>] and <em>[2]</em>(3)</p>"))
    assert "[a\\](b) and [c\\][d]" in md and "[1\\]: https://example.org" in md
    assert "- [ \\] not a task\n- [x\\] nor this" in md
    assert "[note \\[1](https://site.org/n)] and *[2\\]*(3)" in md  # a piece's last "]": the next may open "("


def test_markdown_escapes_what_the_page_says():
    res = page("<p># not a heading</p><p>1. not a list</p><p>- nor this</p><p>use *args and **kwargs</p>"
               "<p>snake_case and _under_ [x](y) `tick` &lt;b&gt;</p><p>&gt; not quoted</p>")
    lines = to_markdown(res).split("\n\n")
    assert lines[0] == "\\# not a heading"
    assert lines[1] == "1\\. not a list"
    assert lines[2] == "\\- nor this"
    assert lines[3] == "use \\*args and \\*\\*kwargs"
    assert lines[4] == "snake_case and \\_under\\_ [x\\](y) \\`tick\\` \\<b>"  # no link: its "](" broken
    assert lines[5].strip() == "\\> not quoted"
    assert to_text(res).split("\n")[0] == "# not a heading"  # text is not Markdown
    # a table cell starts no line: what would open a list or heading there is written as the page says it
    cells = to_markdown(page("<table><tr><th>#</th><th>Sck</th></tr><tr><td>1.</td><td>--</td></tr>"
                             "<tr><td>- 2</td><td>*a* | b</td></tr></table>"))
    assert cells.split("\n")[2:4] == ["| 1. | -- |", "| - 2 | \\*a\\* \\| b |"]
    assert cells.startswith("| # | Sck |")
    assert to_markdown(page("<h2>7. Unbeatable price</h2><h3>- and # more</h3>")) == (
        "## 7. Unbeatable price\n\n### - and # more\n")


def test_inline_code_links_bold_and_italic():
    res = page('<p>Call <code>f(x)</code> or <code>a`b</code> with <strong>bold</strong>, <em>it</em> and '
               '<a href="../c.html">a <b>link</b></a> or <a href="https://o.org/x y">out</a>.</p>')
    md = to_markdown(res)
    assert md == ("Call `f(x)` or ``a`b`` with **bold**, *it* and [a **link**](https://site.org/c.html) or "
                  "[out](https://o.org/x%20y).\n")
    html = to_html(res)
    assert html == ('<p>Call <code>f(x)</code> or <code>a`b</code> with <strong>bold</strong>, <em>it</em> and '
                    '<a href="https://site.org/c.html">a <strong>link</strong></a> or '
                    '<a href="https://o.org/x%20y">out</a>.</p>\n')


def test_a_span_closed_and_opened_again_at_once_is_one_span():
    res = page('<p>The <b>slider</b><b>s</b>, <b>Mobile</b> <b>g</b><b>aming</b>, <code>f</code><code>()</code>, '
               '<em>it</em><em>alic</em> and <a href="/x">one</a><a href="/y">two</a>.</p>')
    # and one a space apart too (`test_spans_of_one_kind_a_space_apart_are_one_span`)
    assert to_markdown(res) == ("The **sliders**, **Mobile gaming**, `f()`, *italic* and "
                                "[one](https://site.org/x)[two](https://site.org/y).\n")
    assert "<strong>sliders</strong>, <strong>Mobile gaming</strong>" in to_html(res)
    assert to_text(res) == "The sliders, Mobile gaming, f(), italic and onetwo."
    nested = page("<p><b><b>UNITED NATIONS</b></b> and <i><em>© AP</em></i>, <em>a <em>b</em> c</em>.</p>")
    assert to_markdown(nested) == "**UNITED NATIONS** and *© AP*, *a b c*.\n"  # emphasis in emphasis adds no stars



def test_emphasis_that_ends_or_starts_with_chinese_punctuation_is_read_as_emphasis():
    """CommonMark closes ``**`` right after punctuation only before a space or punctuation: a
    bold sentence that a letter follows inside a Chinese paragraph has its full stop written
    after the stars, and a bold quote after a letter its quote marks outside them; before a
    space or punctuation, and ASCII punctuation always, stay inside."""
    res = page("<p>由于<b>素有“拖鞋军”之称的商船。</b>至今共有<b>20多艘</b>。她说“<b>推不动。</b>”"
               "Jenny<b>“推不动”</b>说 <i>«Oui»</i> <b>Note:</b> fin <b>✓</b></p>")
    assert to_markdown(res) == ("由于**素有“拖鞋军”之称的商船**。至今共有**20多艘**。她说“**推不动。**”"
                                "Jenny“**推不动**”说 *«Oui»* **Note:** fin ✓\n")
    assert "<b>" not in to_html(res) and "<strong>素有“拖鞋军”之称的商船。</strong>" in to_html(res)
    ascii_marks = page("<p>Interior Only<b>$209</b>, mail <b>help@site.org.</b>Thanks, and <em>ok\\.</em>x.</p>")
    assert to_markdown(ascii_marks) == "Interior Only$**209**, mail **help@site.org**.Thanks, and *ok\\\\*.x.\n"
    marks = page("<p>Combo<b>®</b> vacuum, <b>✓</b> done, <b>“</b>Yes and others<em>.</em> (in squad<b>)</b> "
                 "<b>what</b><em>。</em></p>")
    assert to_markdown(marks) == "Combo® vacuum, ✓ done, “Yes and others. (in squad) **what**。\n"  # marks alone
    escaped = page("<p>Rated <b>A*</b>and <b>*B</b>, x<b>*C</b> and <b>D**</b>E.</p>")  # an escaped star moves too
    assert to_markdown(escaped) == "Rated **A**\\*and **\\*B**, x\\***C** and **D**\\*\\*E.\n"


def test_the_spaces_at_the_ends_of_inline_code_stay_between_it_and_the_words():
    res = page("<p>Thank you for trying the<code> beta of </code>imageData<code>API. </code>Please write.</p>")
    assert to_markdown(res) == "Thank you for trying the `beta of` imageData`API.` Please write.\n"


def test_an_image_in_bold_after_a_word_stays_an_image():
    res = page('<p>See<b><img src="/i.png" alt="chart"></b> and <b>Wow!</b>next. <b>Oh!</b>Then.</p>')
    md = to_markdown(res, images=True)
    # no stars can open before "![" nor close between "!" and a letter; a capital after "!" starts a new phrase
    assert md == "See![chart](https://site.org/i.png) and **Wow**!next. **Oh!** Then.\n"


def test_a_link_right_after_an_exclamation_mark_is_no_image():
    res = page('<p>Much stronger!<a href="#fn8">[8]</a> And more!<a href="/b">yes</a></p>')
    assert to_markdown(res) == ("Much stronger\\![\\[8\\]](https://site.org/a/b.html#fn8) And more\\![yes](https://site.org/b)\n")


def test_a_link_inside_a_link_is_written_once():
    """A CommonMark reader reads no link inside a link: the outer one is written, around the text."""
    res = page('<p>See <a href="/a"><span><a href="/b"><b>the guide</b></a></span></a> now.</p>')
    assert to_markdown(res) == "See [**the guide**](https://site.org/a) now.\n"


def test_bold_beside_bold_italic_is_one_bold_span():
    res = page("<p><i><b>Online NewsHour Specials</b></i><b>:</b> more, <b>a</b><i><b>b</b></i> and "
               "<b><i>c</i></b><i>d</i>, <i><b>e</b></i> <b>f</b>.</p>")
    # not "***Online NewsHour Specials*****:**": runs of five stars are hard to read
    assert to_markdown(res) == "***Online NewsHour Specials*:** more, **a*b*** and ***c**d*, ***e*** **f**.\n"
    assert to_html(res) == ("<p><strong><em>Online NewsHour Specials</em>:</strong> more, <strong>a<em>b</em></strong>"
                            " and <em><strong>c</strong>d</em>, <em><strong>e</strong></em> <strong>f</strong>.</p>\n")
    assert to_text(res) == "Online NewsHour Specials: more, ab and cd, e f."

def test_spans_of_one_kind_a_space_apart_are_one_span():
    """A page that sets each word of a phrase in its own <strong> reads as one bold phrase;
    written apart, ``**della visita** **del presidente**`` is harder to read and to search."""
    res = page("<p>Prima <strong>della visita</strong> <strong>del presidente</strong>, <em>The</em> <em>Guardian</em>,"
               " <del>$5</del> <del>$7</del>, <code>ls</code> <code>cd</code>, <b>a</b> <i>b</i>.</p>")
    assert to_markdown(res) == ("Prima **della visita del presidente**, *The Guardian*, ~~$5 $7~~, `ls` `cd`, **a** *b*.\n")
    assert to_html(res).startswith("<p>Prima <strong>della visita del presidente</strong>, <em>The Guardian</em>,")
    # a close that matches no open (the block starts inside a span the page opened before it)
    # is not joined across: the bold that follows stays bold
    res = page("<p><strong>Services:</strong></p>")
    res.blocks[0] = dataclasses.replace(res.blocks[0], rich="</strong> <strong>Services we offer include:</strong>")
    assert to_markdown(res) == "**Services we offer include:**\n"


def test_a_heading_is_written_without_bold_its_italic_links_and_code_kept():
    res = page('<h2><strong>Middle ground</strong></h2><p>Text <b>bold</b>.</p>'
               '<h3><b>The <em>Titanic</em> and <a href="/x"><strong>f</strong></a> <code>g()</code></b></h3>')
    assert to_markdown(res) == ("## Middle ground\n\nText **bold**.\n\n"
                                "### The *Titanic* and [f](https://site.org/x) `g()`\n")
    assert "<h2><strong>Middle ground</strong></h2>" in to_html(res)  # HTML keeps what the page marked


def test_a_headings_link_into_the_page_or_to_itself_is_written_as_its_text():
    # a back-reference to the contents (docutils' toc-backref) and a post title's permalink
    # lead nowhere in the written page; a heading's link elsewhere stays
    res = page('<h2><a class="toc-backref" href="#id12">Example configuration</a></h2><p>Text.</p>'
               '<h1><a href="https://site.org/a/b.html">The post</a></h1>'
               '<h3><a href="/a/other.html">Another post</a></h3>')
    md = to_markdown(res)
    assert md == ("## Example configuration\n\nText.\n\n# The post\n\n"
                  "### [Another post](https://site.org/a/other.html)\n")
    html = to_html(res)
    assert "<h2>Example configuration</h2>" in html and "<h1>The post</h1>" in html
    assert '<h3><a href="https://site.org/a/other.html">Another post</a></h3>' in html
    # in running text an in-page link stays a link
    assert to_markdown(page('<p>See <a href="#id12">below</a>.</p>')) == "See [below](https://site.org/a/b.html#id12).\n"


def test_links_resolve_against_base():
    res = page('<p><a href="page.html">rel</a> <a href="/root">root</a> <a href="#frag">frag</a></p>',
               head='<base href="https://docs.example.org/v2/">', url="https://mirror.net/x.html")
    md = to_markdown(res)
    assert "[rel](https://docs.example.org/v2/page.html)" in md
    assert "[root](https://docs.example.org/root)" in md
    assert "[frag](https://docs.example.org/v2/#frag)" in md
    assert to_markdown(page('<p><a href="rel">r</a></p>', url=None)) == "[r](rel)\n"


def test_images_only_on_request():
    res = page('<p>See <img src="i.png" alt="a [pic]"> here</p>')
    assert to_markdown(res) == "See here\n"
    assert to_markdown(res, images=True) == "See ![a \\[pic\\]](https://site.org/a/i.png) here\n"
    assert '<img src="https://site.org/a/i.png" alt="a [pic]">' in to_html(res, images=True)
    assert "<img" not in to_html(res)
    assert "![" in to_dict(res, images=True)["markdown"]


def test_a_word_after_an_image_is_not_glued_to_it():
    """A figure's caption, or a paragraph's first word after a photo, reads as words of its own;
    punctuation right after an image stays where the page put it."""
    res = page('<figure><img src="/b.jpg" alt="B"><figcaption>Caption here</figcaption></figure>'
               '<p><a href="/x"><img src="/i.png" alt="I"></a><b>Bold</b> then <img src="/e.png" alt="e">, on.</p>')
    assert to_markdown(res, images=True) == ("![B](https://site.org/b.jpg) Caption here\n\n"
                                             "[![I](https://site.org/i.png)](https://site.org/x) **Bold** then "
                                             "![e](https://site.org/e.png), on.\n")
    html = to_html(res, images=True)
    assert '<img src="https://site.org/b.jpg" alt="B"> Caption here' in html
    assert '<img src="https://site.org/i.png" alt="I"></a> <strong>Bold</strong> then' in html
    assert 'alt="e">, on.' in html
    assert to_markdown(res) == "Caption here\n\n**Bold** then , on.\n"  # without images, as before


def test_blockquotes_and_definition_lists():
    res = page("<blockquote><p>q1</p><p>q2</p></blockquote><dl><dt>term</dt><dd>meaning</dd>"
               "<dt><code>f()</code></dt><dd><p>calls</p><p>more</p></dd></dl>")
    md = to_markdown(res)
    assert md.startswith("> q1\n>\n> q2\n\nterm\n: meaning\n\n`f()`\n: calls\n\nmore\n")
    html = to_html(res)
    assert "<blockquote>\n<p>q1</p>\n<p>q2</p>\n</blockquote>" in html
    assert "<dl>\n<dt>term</dt>\n<dd>meaning</dd>\n<dt><code>f()</code></dt>" in html
    assert to_text(res).split("\n") == ["q1", "q2", "term", "meaning", "f()", "calls", "more"]


def test_html_output_is_safe_to_embed():
    res = page('<p onclick="steal()" style="color:red">Hi <a href="javascript:alert(1)" onmouseover="x()">click</a>'
               '<script>bad()</script><style>p{}</style> <img src="javascript:evil()" onerror="y()">'
               ' <a href=" JaVaScRiPt:alert(2)">two</a> <a href="data:text/html,x">three</a> &lt;script&gt;</p>'
               '<iframe src="https://evil.example/">frame text</iframe><form action="/x"><input value="v"></form>',
               head='<base href="javascript:/">')
    html = to_html(res, images=True)
    for bad in ("<script", "<style", "onclick", "onmouseover", "onerror", "javascript:", "data:", "<iframe",
                "<form", "style="):
        assert bad not in html.lower(), bad
    assert "&lt;script&gt;" in html and "click" in html and "two" in html
    tags = set(re.findall(r"</?([a-z0-9]+)", html))
    assert tags <= {"p", "a", "br", "code", "strong", "em", "img"}


def test_html_balances_inline_tags_split_by_blocks():
    res = page('<p><a href="x"><span>one</span><div>two</div>three</a></p>')
    html = to_html(res)
    assert html.count("<a ") == html.count("</a>")


def test_json_has_markdown_and_text():
    res = page("<h1>Title</h1><ol><li>a</li><li>b</li></ol>")
    d = to_dict(res)
    json.dumps(d)
    assert d["markdown"] == "# Title\n\n1. a\n2. b\n" and d["text"] == "Title\n- a\n- b"
    assert d["blocks"][0]["text"] == "Title"


def test_only_kept_blocks_are_written():
    res = page("<nav><ul><li>Home</li></ul></nav><h1>Title</h1><p>Body.</p>", drop=("Home",))
    assert to_markdown(res) == "# Title\n\nBody.\n"
    assert "Home" not in to_html(res) and "Home" not in to_text(res)


@pytest.mark.parametrize("fmt, ext", [("html", ".html"), ("markdown", ".md"), ("json", ".json")])
def test_cli_formats_and_images_option(capsys, tiny_model_file: Path, tmp_path: Path, fmt, ext):
    path = tmp_path / "p.html"
    path.write_text("<html><body><h1>Head</h1><p>Some <code>code</code> and <img src='i.png' alt='A'> words "
                    "in a paragraph that is long enough to be kept by any model.</p></body></html>",
                    encoding="utf-8")
    out_dir = tmp_path / "out"
    code = main(["extract", str(path), "-o", str(out_dir), "--model", str(tiny_model_file), "--format", fmt,
                 "--images", "--threshold", "0"])
    assert code == 0, capsys.readouterr().err
    written = (out_dir / f"p{ext}").read_text(encoding="utf-8")
    if fmt == "html":
        assert "<h1>Head</h1>" in written and "<code>code</code>" in written and 'alt="A"' in written
        # a reader of the file alone reads it as UTF-8: it finds the declaration in the first bytes
        assert written.startswith('<meta charset="utf-8">\n<h1>Head</h1>')
    elif fmt == "markdown":
        assert written.startswith("# Head\n") and "`code`" in written and "![A](i.png)" in written
    else:
        assert json.loads(written)["markdown"].startswith("# Head\n")


def test_html_file_reads_as_utf8_where_a_reader_does_not_guess(capsys, tiny_model_file: Path, tmp_path: Path):
    """libxml2 reads an HTML file that declares no encoding as Latin-1 ("CafÃ©"); the file the
    command writes declares UTF-8 in its first bytes, as browsers and parsers look for it."""
    path = tmp_path / "p.html"
    words = "The café’s naïve owner sent his résumé, and 元旦快乐。 " * 4
    path.write_text(f'<html><head><meta charset="utf-8"></head><body><h1>Café</h1><p>{words}</p></body></html>',
                    encoding="utf-8")
    code = main(["extract", str(path), "-o", str(tmp_path / "out"), "--model", str(tiny_model_file), "--format", "html",
                 "--threshold", "0"])
    assert code == 0, capsys.readouterr().err
    read = lxml.html.parse(str(tmp_path / "out" / "p.html")).getroot()
    assert read.findtext(".//h1") == "Café" and words.strip() in read.text_content()


def test_code_cut_at_line_breaks_is_one_block():
    res = page('<pre class="language-lisp"><code>(func<br> (i32.add<br>  x)<br>)</code></pre><p>after</p>')
    assert to_markdown(res) == "```lisp\n(func\n (i32.add\n  x)\n)\n```\n\nafter\n"
    assert '<pre><code class="language-lisp">(func\n (i32.add\n  x)\n)</code></pre>' in to_html(res)
    assert to_text(res) == "(func\n (i32.add\n  x)\n)\nafter"
    # two <br> in a row: the blank line between a script's imports and its code stays
    res = page("<p><pre>import os<br><br>def main():<br> run()</pre></p><p>after</p>")
    assert to_markdown(res) == "```\nimport os\n\ndef main():\n run()\n```\n\nafter\n"
    assert "<pre><code>import os\n\ndef main():\n run()</code></pre>" in to_html(res)


def test_code_whose_lines_are_block_elements_is_one_block():
    res = page('<pre class="language-json"><code><div><span>{</span></div><div><span>  </span>"id": 1,</div>'
               '<div>  "x": [<p>    2</p>  ]</div><div>}</div></code></pre><p>after</p>')
    assert [b.tag for b in res.blocks] == ["pre", "p"]
    assert to_markdown(res) == '```json\n{\n  "id": 1,\n  "x": [\n    2\n  ]\n}\n```\n\nafter\n'
    assert to_text(res) == '{\n  "id": 1,\n  "x": [\n    2\n  ]\n}\nafter'


def test_a_heading_cut_by_a_line_break_is_one_heading():
    res = page("<h2>Classical <em>Military</em> Strategy<br>and Missile Defense</h2><p>Body.</p>"
               "<h3>One</h3><h3>Two</h3>")
    assert to_markdown(res) == "## Classical *Military* Strategy and Missile Defense\n\nBody.\n\n### One\n\n### Two\n"
    assert to_html(res).startswith("<h2>Classical <em>Military</em> Strategy and Missile Defense</h2>\n<p>Body.</p>")
    assert to_text(res).split("\n") == ["Classical Military Strategy and Missile Defense", "Body.", "One", "Two"]
    many = to_markdown(page("<h2>" + "a line<br>" * 30_000 + "</h2><p>after</p>"))  # one join, not one a line
    assert many == " ".join(["a line"] * 30_000) + "\n\nafter\n"  # too long for a heading: a paragraph
    assert to_markdown(titled_page("<h2>Classical Strategy<br>and Defense</h2><p>Body.</p>",
                                   "Classical Strategy and Defense")) == "# Classical Strategy and Defense\n\nBody.\n"


def test_buttons_that_say_something_stay():
    res = page('<div class="faq"><button><h3>How long can I rent?</h3></button><p>A week.</p></div>'
               '<p>According to <button title="x">Ada Lovelace,</button> a pioneer.</p><p>Run <button>Copy</button></p>')
    md = to_markdown(res)
    assert "### How long can I rent?" in md and "According to Ada Lovelace, a pioneer." in md
    assert "Copy" not in md and to_text(res).endswith("Run")


def test_a_layout_element_named_like_furniture_keeps_its_prose():
    # grid frameworks call a column wrapper "gutter", as code viewers call their line numbers
    html = ("<html><body><div class='gutter inner'><h2>A headline for the story</h2>"
            "<p>The first paragraph of the story says something worth reading twice.</p>"
            "<pre><span class='gutter'>1</span>x = 1</pre></div></body></html>")
    from blockclf.html import parse
    from blockclf.segment import segment

    blocks = segment(parse(html.encode()))
    prose = [b for b in blocks if b.tag in ("h2", "p")]
    assert prose and all(b.rich != "" for b in prose)


def test_markdown_starts_with_the_headline_unless_a_kept_heading_says_it():
    res = titled_page("<p>The body of the story, in words.</p>", "A Headline *Here*")
    assert to_markdown(res).startswith("# A Headline \\*Here\\*\n\nThe body")
    assert not to_markdown(res, title=False).startswith("#")
    assert to_text(res) == "The body of the story, in words."
    assert to_text(res, title=True).split("\n")[0] == "A Headline *Here*"
    kept_heading = titled_page("<h1>A headline here</h1><p>The body.</p>", "A Headline Here")
    assert to_markdown(kept_heading).count("A headline here") == 1
    nothing = titled_page("<p>x</p>", "Title", drop=("x",))
    assert to_markdown(nothing).strip() == ""


def test_a_headline_set_as_a_paragraph_is_written_once():
    res = titled_page('<p class="main-title"><b>Breakup at Tiffany’s</b></p><p>The body of the story.</p>'
                      '<p>Breakup at Tiffany’s</p>', "Breakup at Tiffany’s")
    md = to_markdown(res)
    assert md.startswith("# Breakup at Tiffany’s\n\nThe body of the story.")
    assert md.count("Tiffany") == 2  # a later paragraph that says it again is the page's own text
    assert to_text(res, title=True).split("\n")[:2] == ["Breakup at Tiffany’s", "The body of the story."]
    assert to_text(res).split("\n")[0] == "Breakup at Tiffany’s"  # text without --title: every kept block
    assert to_dict(res)["markdown"] == md
    listed = titled_page("<ul><li>Breakup at Tiffany’s</li></ul><p>The body.</p>", "Breakup at Tiffany’s")
    assert to_markdown(listed).count("Tiffany") == 2  # an item of a list is not the headline's stand-in


def test_a_headline_set_as_a_paragraph_under_a_kicker_or_a_date_is_written_once():
    """A kicker, a dateline or a byline above the headline's paragraph stays where it was; the
    paragraph is not written again under ``# Title``. After a line of prose it is the page's own."""
    res = titled_page("<p>Intelligencer</p><p><b>Breakup at Tiffany’s</b></p><p>The body of the story, told at length.</p>",
                      "Breakup at Tiffany’s")
    assert to_markdown(res) == "# Breakup at Tiffany’s\n\nIntelligencer\n\nThe body of the story, told at length.\n"
    dated = titled_page("<p>11 January 2008 - 12:25PM</p><p>By Liza Kappelle</p><p>Breakup at Tiffany’s</p>"
                        "<p>The body.</p>", "Breakup at Tiffany’s")
    assert to_markdown(dated).count("Tiffany") == 1
    after_prose = titled_page("<p>A first paragraph of the story that runs well past a dozen words before it ends.</p>"
                              "<p>Breakup at Tiffany’s</p>", "Breakup at Tiffany’s")
    assert to_markdown(after_prose).count("Tiffany") == 2


def test_a_headline_laid_out_twice_is_written_once():
    # one layout for narrow screens, one for wide, both kept: the second headline is not written again
    res = titled_page('<div><h1>Development update</h1></div><div class="wide"><h1>Development update</h1></div>'
                      "<p>The body of the update.</p><h2>Development update</h2><p>Later.</p>", "Development update")
    md = to_markdown(res)
    assert md.startswith("# Development update\n\nThe body of the update.")
    assert md.count("Development update") == 2  # a heading further on is the page's own
    assert to_html(res).count("<h1>") == 1
    assert to_text(res).count("Development update") == 3  # text is every kept block
    # the same when the headline is moved up past a kicker
    moved = titled_page("<p>Science</p><h2>Rivers on the move</h2><h2>Rivers on the move</h2><p>The body.</p>",
                        "Rivers on the move")
    assert to_markdown(moved).startswith("# Rivers on the move\n\nScience\n\nThe body.")


def test_the_headline_is_the_top_heading_whatever_level_and_place_the_page_gave_it():
    # a headline set in an <h2>, with a link: it heads the document at level 1, as the page wrote it
    res = titled_page('<h2><a href="/story">Rivers on the move</a></h2><p>The body of the story.</p>'
                      '<h2>Why they bend</h2><p>More.</p>', "Rivers on the Move")
    md = to_markdown(res)
    assert md.startswith("# [Rivers on the move](https://site.org/story)\n\nThe body of the story.")
    assert md.count("move") == 1 and "## Why they bend" in md
    assert to_dict(res)["markdown"] == md
    assert to_text(res, title=True).split("\n")[:2] == ["Rivers on the move", "The body of the story."]
    assert to_html(res).startswith('<h1><a href="https://site.org/story">Rivers on the move</a></h1>\n<p>The body')
    assert to_html(res).count("<h1>") == 1 and "<h2>Why they bend</h2>" in to_html(res)
    # kept above the headline: a kicker and a date; the headline comes first, and once
    res = titled_page("<p>Science</p><p>March 3, 2026</p><blockquote><h3>Rivers on the <code>move()</code></h3>"
                      "</blockquote><p>The body of the story.</p>", "Rivers on the move()")
    md = to_markdown(res)
    assert md.startswith("# Rivers on the `move()`\n\nScience\n\nMarch 3, 2026\n\nThe body of the story.")
    assert md.count("move") == 1
    assert to_text(res, title=True).split("\n") == [
        "Rivers on the move()", "Science", "March 3, 2026", "The body of the story."]
    assert to_text(res).split("\n")[2] == "Rivers on the move()"  # text without --title: every kept block, in order
    html = to_html(res)  # HTML heads the page the same way, the moved heading as <h1>
    assert html.startswith("<h1>Rivers on the <code>move()</code></h1>\n<p>Science</p>\n<p>March 3, 2026</p>\n")
    assert html.count("move()") == 1 and "<blockquote>" not in html
    plain = titled_page("<p>The body.</p>", "Rivers & <Bends>")
    assert to_html(plain) == "<h1>Rivers &amp; &lt;Bends&gt;</h1>\n<p>The body.</p>\n"
    assert to_html(plain, title=False) == "<p>The body.</p>\n"
    # a kept <h1> that says something else is the page's own top heading: nothing is added or moved
    res = titled_page("<h1>Field Notes</h1><p>Science</p><h2>Rivers on the move</h2><p>The body.</p>",
                      "Rivers on the Move")
    assert to_markdown(res).startswith("# Field Notes\n\nScience\n\n## Rivers on the move\n\nThe body.")


def test_an_h1_after_most_of_the_text_does_not_keep_the_headline_off_the_top():
    """A kept ``<h1>`` at the end (a call to pin the page, a sponsor's note) heads no document."""
    body = "<p>Rivers swing from side to side in long looping curves.</p>" * 4 + "<h1>PIN IT HERE</h1>"
    md = to_markdown(titled_page(body, "Rivers on the Move"))
    assert md.startswith("# Rivers on the Move\n\nRivers swing") and "# PIN IT HERE" in md


def test_an_h1_after_more_than_a_lead_is_a_section_title_under_the_headline():
    """A buying guide's introduction, then "# Deeper Dive" over its picks: the headline heads it."""
    intro = "<p>Hand and wrist comfort is the key to a happy, healthy workspace, and picking a mouse is hard.</p>" * 8
    picks = "<p>The first pick is comfortable for large hands and costs less than most of the others.</p>" * 20
    md = to_markdown(titled_page(f"{intro}<h1>Deeper Dive: Our Top Tested Picks</h1>{picks}",
                                 "The Best Ergonomic Mice for 2026"))
    assert md.startswith("# The Best Ergonomic Mice for 2026\n\nHand and wrist")
    assert "\n\n# Deeper Dive: Our Top Tested Picks\n\n" in md
    # two such <h1> far down that share the headline's words are sections too, not the headline
    md = to_markdown(titled_page(f"{intro}<h1>Gardenary Planting vs Traditional Planting</h1>{picks}"
                                 f"<h1>Tips to Plant the Gardenary Way</h1>{picks}", "Gardenary Planting vs. Ordinary Planting"))
    assert md.startswith("# Gardenary Planting vs. Ordinary Planting\n\nHand and wrist")
    # after a lead (a standfirst) the <h1> is the page's own headline: nothing is added
    lead = "<p>This edition is all about where the race is actually headed, and who sets the defaults.</p>"
    md = to_markdown(titled_page(f"{lead}<h1>A World without work?</h1>{picks}", "Signal #18"))
    assert md.startswith("This edition is all about") and "Signal #18" not in md


def test_a_post_that_heads_its_sections_with_h1_is_headed_with_its_headline():
    # a post written in Markdown heads each part with "#": the parts are not the headline
    res = titled_page("<h1>Preface</h1><p>The body of the post.</p><h1>Solution</h1><p>Install it.</p>",
                      "Fixing the dependencies of a new project")
    md = to_markdown(res)
    assert md.startswith("# Fixing the dependencies of a new project\n\n# Preface\n\nThe body of the post.\n\n# Solution")
    assert to_html(res).startswith("<h1>Fixing the dependencies of a new project</h1>\n<h1>Preface</h1>")
    assert to_text(res).split("\n")[0] == "Preface"  # text without --title: the kept blocks alone
    # a headline the page sets in two <h1> is said by them: it is not written a second time
    split = titled_page("<h1>What to Wear in Europe</h1><h1>Travel Clothes for All Occasions</h1><p>The body.</p>",
                        "What to Wear in Europe: Travel Clothes for All Occasions")
    assert to_markdown(split).startswith("# What to Wear in Europe\n\n# Travel Clothes for All Occasions\n\nThe body.")


def test_cli_title_options(tmp_path, capsys):
    f = tmp_path / "p.html"
    # the headline is in the <title> only: text output is the kept blocks, --title puts it first
    f.write_text("<html><head><title>Rivers - Site</title></head><body><div>"
                 + "<p>Rivers swing from side to side in long looping curves, and nobody planned it.</p>" * 5
                 + "</div></body></html>", encoding="utf-8")
    for args, starts in (([], False), (["--title"], True)):
        assert main(["extract", str(f), *args]) == 0
        out = capsys.readouterr().out
        assert out.startswith("Rivers - Site\n") == starts
        assert out.endswith("nobody planned it.\n")
    # Markdown and HTML are headed by default, and not with --no-title
    for fmt, head in (("markdown", "# Rivers - Site\n"), ("html", '<meta charset="utf-8">\n<h1>Rivers - Site</h1>\n')):
        for args, starts in (([], True), (["--no-title"], False)):
            assert main(["extract", str(f), "--format", fmt, *args]) == 0
            assert capsys.readouterr().out.startswith(head) == starts


def test_a_link_to_nowhere_is_written_as_its_text():
    res = page('<p>Code: <a href="#" onclick="selectCode(this)">Select all</a>, <a href=" # ">Add to my wishlist</a>, '
               '<a href="#notes">the notes</a> and <a href="/next">next</a>.</p>')
    assert to_markdown(res) == ("Code: Select all, Add to my wishlist, [the notes](https://site.org/a/b.html#notes) "
                                "and [next](https://site.org/next).\n")
    assert to_html(res).count("<a ") == 2
    assert res.blocks[0].link_chars == len("Select allAdd to my wishlistthe notesnext")  # the model reads them as links


def test_links_resolve_against_the_page_address():
    """A page read with its address (or one that gives an absolute address of its own) gets
    absolute links; a relative <base> is read against that address."""
    from blockclf.predict import prepare

    body = '<p>See <a href="/specials/vw/">VW</a> and <a href="next.html">next</a>, a paragraph long enough.</p>'
    given = prepare(f"<html><body>{body}</body></html>".encode(), url="https://news.example.de/a/b.html")
    assert 'href="https://news.example.de/specials/vw/"' in given.blocks[0].rich
    assert 'href="https://news.example.de/a/next.html"' in given.blocks[0].rich
    # a canonical link written relative, an absolute og:url: the page's address is absolute
    head = '<link rel="canonical" href="/a/b.html"><meta property="og:url" content="https://www.example.de/a/b.html">'
    own = prepare(f"<html><head>{head}</head><body>{body}</body></html>".encode())
    assert own.url == "https://www.example.de/a/b.html" and own.site == "example.de"
    assert 'href="https://www.example.de/specials/vw/"' in own.blocks[0].rich
    based = prepare(f'<html><head><base href="/v2/"></head><body>{body}</body></html>'.encode(),
                    url="https://docs.example.org/v1/page.html")
    assert 'href="https://docs.example.org/v2/next.html"' in based.blocks[0].rich
    unknown = prepare(f"<html><body>{body}</body></html>".encode())  # no address: links stay as written
    assert 'href="/specials/vw/"' in unknown.blocks[0].rich


def test_json_file_is_one_field_a_line_and_one_block_a_line(tmp_path):
    """The JSON written per page reads as the document it is (every field of `to_dict`), with
    each block on a line of its own, so that a person can scan it and grep it."""
    import json

    from blockclf.cli import main
    from blockclf.render import to_dict

    page = tmp_path / "page.html"
    page.write_text("<html><head><title>T</title></head><body><h1>Rivers</h1>"
                    "<p>The river bends slowly through the valley and carries sediment to the delta.</p>"
                    "<p>Second paragraph: \"quoted\" words, a tab\tand ünïcode.</p></body></html>", encoding="utf-8")
    assert main(["extract", str(page), "-o", str(tmp_path / "out.json"), "--format", "json"]) == 0
    written = (tmp_path / "out.json").read_text(encoding="utf-8")
    doc = json.loads(written)
    from blockclf import extract

    assert doc == json.loads(json.dumps(to_dict(extract(page))))
    lines = written.splitlines()
    assert lines[0] == "{" and lines[-1] == "}" and written.endswith("}\n")
    block_lines = [line for line in lines if line.startswith('  {"')]
    assert len(block_lines) == len(doc["blocks"]) >= 3
    assert all(json.loads(line.rstrip(",")) in doc["blocks"] for line in block_lines)
    assert "ünïcode" in written  # not escaped
