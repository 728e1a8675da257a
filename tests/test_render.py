"""Rendering a Result: text, Markdown restored from block structure, JSON dict, removal log."""

from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from blockclf import Result, extract, inline, parse, segment
from blockclf.render import Form, removal_log, to_dict, to_html, to_markdown, to_text

ARTICLE = """<html><head><title>Doc</title></head><body>
<nav><a href="/">Home</a></nav>
<h1>Title</h1><p>Intro text.</p>
<h2>List</h2><ul><li>one</li><li>two<ul><li>nested</li></ul></li></ul>
<table><tr><th>Name</th><th>Value</th></tr><tr><td>a|b</td><td>1</td></tr><tr><td>c</td><td>2</td></tr></table>
<pre>x = 1
print(x)</pre>
<blockquote><p>Quoted words.</p></blockquote>
<footer>Footer line</footer>
</body></html>"""


def result(html: str = ARTICLE, drop: tuple[str, ...] = ("Home", "Footer line"), reasons: bool = False) -> Result:
    doc = parse(html)
    blocks = segment(doc)
    kept = np.array([b.text not in drop for b in blocks])
    scores = np.where(kept, 0.9, 0.1)
    why = [[("link_density", 1.0, -2.0), ("n_words", 1.0, 0.5)] for _ in blocks] if reasons else None
    return Result(blocks=blocks, scores=scores, kept=kept, threshold=0.5, favor="balanced", title=doc.title,
                  name="page.html", reasons=why)


def test_text_is_kept_blocks_one_per_line():
    res = result()
    assert to_text(res) == res.text
    lines = res.text.split("\n")
    assert lines[:3] == ["Title", "Intro text.", "List"]
    assert "Home" not in lines and "Footer line" not in lines
    assert "Home" in res.raw_text and "Footer line" in res.raw_text


def test_markdown_restores_headings_lists_tables_code_and_quotes():
    md = result().markdown
    assert md == to_markdown(result())
    assert md.startswith("# Title\n\nIntro text.\n\n## List\n")
    assert "- one\n- two\n  - nested\n" in md
    assert "| Name | Value |\n| --- | --- |\n| a\\|b | 1 |\n| c | 2 |\n" in md
    assert "```\nx = 1\nprint(x)\n```" in md
    assert "> Quoted words." in md
    assert "Home" not in md and "Footer" not in md
    assert md.endswith("\n") and "\n\n\n" not in md


def test_a_rows_empty_cells_after_its_last_text_are_not_written_in_the_text():
    """A cell spanning the row, or a row whose last cells are empty, left the text line ending in
    " |  | " (a course catalogue's titles, a calendar's months); an empty cell between two with
    text stays, so the cells after it keep their columns. Markdown's header row keeps every column."""
    html = ("<body><table><tr><td colspan='3'>Computers for beginners</td></tr>"
            "<tr><td>Mon</td><td></td><td>Room 4</td></tr><tr><td>Tue</td><td>9am</td><td></td></tr></table></body>")
    res = result(html, drop=())
    assert res.text.split("\n") == ["Computers for beginners", "Mon |  | Room 4", "Tue | 9am"]
    assert res.markdown.startswith("| Computers for beginners |  |  |\n| --- | --- | --- |\n")


def test_a_table_footer_written_before_its_body_is_written_below_it():
    # HTML allows <tfoot> before <tbody>; a browser draws it under the rows, as the text and
    # Markdown write it (a footer that repeats the header is not a second header row)
    html = ("<body><table><thead><tr><th>Pos</th><th>Plays</th></tr></thead>"
            "<tfoot><tr><td>Total</td><td>120</td></tr></tfoot>"
            "<tbody><tr><td>DL</td><td>63</td></tr><tr><td>LB</td><td>57</td></tr></tbody></table></body>")
    res = result(html, drop=())
    assert res.markdown == "| Pos | Plays |\n| --- | --- |\n| DL | 63 |\n| LB | 57 |\n| Total | 120 |\n"
    assert res.text.split("\n") == ["Pos | Plays", "DL | 63", "LB | 57", "Total | 120"]
    # a footer already after the rows, and a table without one, keep their order
    after = html.replace("<tfoot><tr><td>Total</td><td>120</td></tr></tfoot>", "") \
        .replace("</tbody>", "</tbody><tfoot><tr><td>Total</td><td>120</td></tr></tfoot>")
    assert result(after, drop=()).markdown == res.markdown


def test_a_heading_that_opens_a_list_item_carries_its_mark_in_text_as_in_markdown():
    """A gallery's slides are items that each open with a heading: the text marks the heading,
    not the caption under it, so the slide reads as one item."""
    html = ("<body><ul><li><h2>1/3 New beginnings</h2><p>After twelve years the flat is for sale.</p></li>"
            "<li><h2>2/3</h2><p>The star bought it in 2005.</p></li></ul></body>")
    res = result(html, drop=())
    assert res.text.split("\n") == ["- 1/3 New beginnings", "  After twelve years the flat is for sale.",
                                    "- 2/3", "  The star bought it in 2005."]
    assert res.markdown.startswith("- ## 1/3 New beginnings\n\n  After twelve years")


def test_markdown_numbers_ordered_lists_and_nests_under_them():
    html = "<body><ol><li>first</li><li>second<ul><li>bullet<ol><li>deep</li></ol></li></ul></li></ol></body>"
    md = result(html, drop=()).markdown
    assert md == "1. first\n2. second\n   - bullet\n     1. deep\n"


def test_markdown_of_nothing_kept():
    res = result(drop=tuple(b.text for b in segment(parse(ARTICLE))))
    assert res.text == ""
    assert res.markdown.strip() == ""


def test_to_dict_lists_every_block():
    res = result()
    d = to_dict(res)
    json.dumps(d)
    assert d["title"] == "Doc" and d["favor"] == "balanced" and d["threshold"] == 0.5
    assert d["text"] == res.text
    assert [b["text"] for b in d["blocks"]] == [b.text for b in res.blocks]
    assert [b["kept"] for b in d["blocks"]] == res.kept.tolist()
    home = d["blocks"][0]
    assert home["text"] == "Home" and home["kept"] is False and home["score"] == 0.1
    assert home["xpath"] == "/html/body/nav" and home["link_chars"] == 4
    nested = next(b for b in d["blocks"] if b["text"] == "nested")
    assert nested["list_depth"] == 2 and nested["heading_path"] == ["Title", "List"]


def test_to_dict_holds_the_kept_blocks_records_or_none_when_asked():
    res = result(reasons=True)
    every = to_dict(res)
    kept = to_dict(res, blocks="kept")
    bare = res.to_dict(blocks="none")
    assert [b for b in every["blocks"] if b["kept"]] == kept["blocks"]  # each record whole, its index page-wide
    assert [b["index"] for b in kept["blocks"]] == [i for i, k in enumerate(res.kept) if k] != list(range(len(kept["blocks"])))
    assert "blocks" not in bare
    for d in (kept, bare):  # everything else as with every block's record
        assert {k: v for k, v in d.items() if k != "blocks"} == {k: v for k, v in every.items() if k != "blocks"}
    assert res.to_dict() == every
    with pytest.raises(ValueError, match="blocks must be one of all, kept, none"):
        to_dict(res, blocks="removed")


def test_a_form_writes_the_page_as_its_format_and_choices_say():
    res = result()
    assert Form().text(res) == to_text(res) and Form("text", title=True).text(res) == to_text(res, title=True)
    assert Form("markdown").text(res) == to_markdown(res) == Form("markdown", title=True).text(res)
    assert Form("markdown", title=False).text(res) == to_markdown(res, title=False)
    assert Form("html", images=True).text(res) == to_html(res, images=True)
    assert Form("json", blocks="none").document(res) == to_dict(res, blocks="none")
    with pytest.raises(ValueError, match="a JSON form is a document"):
        Form("json").text(res)
    with pytest.raises(ValueError, match="format must be one of text, markdown, html, json"):
        Form("pdf")
    with pytest.raises(ValueError, match="blocks must be one of all, kept, none"):
        Form("json", blocks="removed")


def test_images_of_elements_without_text_are_written_after_the_block_before_them():
    html = ('<html><head><title>Doc</title></head><body><h1>Title</h1><p>Intro text.</p>'
            '<figure><img src="/a.jpg" alt="A [photo]"></figure><p>More text.</p></body></html>')
    res = result(html, drop=())
    md = to_markdown(res, images=True)
    assert "Intro text. ![A \\[photo\\]](/a.jpg)\n\nMore text." in md
    assert '<p>Intro text. <img src="/a.jpg" alt="A [photo]"></p>' in to_html(res, images=True)
    assert "a.jpg" not in to_markdown(res) and "a.jpg" not in to_html(res) and "a.jpg" not in to_text(res)


def test_the_images_after_a_heading_are_written_on_a_line_of_their_own():
    """An article's lead photo follows its headline: written after the heading, never in it."""
    html = ('<html><head><title>Doc</title></head><body><article><h1>Title</h1>'
            '<div><img src="/lead.jpg" alt="Lead"></div><p>Intro text.</p><section><h2>Part</h2>'
            '<figure><img src="/b.jpg" alt="B"></figure><p>More text.</p></section></article></body></html>')
    res = result(html, drop=())
    md = to_markdown(res, images=True)
    assert md.startswith("# Title\n\n![Lead](/lead.jpg)\n\nIntro text.\n\n## Part\n\n![B](/b.jpg)\n\nMore text.")
    page = to_html(res, images=True)
    assert '<h1>Title</h1>\n<p><img src="/lead.jpg" alt="Lead"></p>' in page
    assert '<h2>Part</h2>\n<p><img src="/b.jpg" alt="B"></p>' in page
    assert "<img" not in to_html(res) and "](" not in to_markdown(res)


def test_a_photo_after_a_removed_block_is_written_where_the_kept_text_starts():
    """An image in an element without text goes with the block before it; where that block is
    removed (a kicker, a byline) and the next kept, the image is written before the kept text,
    and under the headline when that is what follows it: the document still starts with its title."""
    html = ('<html><head><title>Doc</title></head><body><article><p>Politics</p>'
            '<figure><img src="/hero.jpg" alt="Hero"></figure><h1>Title</h1><p>By Someone</p>'
            '<div><img src="/lead.jpg" alt="Lead"></div><p>Intro text.</p><ul><li>Menu</li></ul>'
            '<div><img src="/ad.jpg"></div><ul><li>one</li></ul></article></body></html>')
    res = result(html, drop=("Politics", "By Someone", "Menu"))
    md = to_markdown(res, images=True)
    assert md.startswith("# Title\n\n![Hero](/hero.jpg)\n\n![Lead](/lead.jpg)\n\nIntro text.\n\n")
    page = to_html(res, images=True)
    assert '<h1>Title</h1>\n<p><img src="/hero.jpg" alt="Hero"></p>\n<p><img src="/lead.jpg" alt="Lead"></p>' in page
    assert '<li><img src="/ad.jpg" alt=""> one</li>' in page  # at the start of the item, not between items
    assert md.endswith("- ![](/ad.jpg) one\n")
    assert "hero" not in to_markdown(res) and "lead" not in to_html(res)
    listed = result('<html><body><ul><li>one item</li><li>Skip me</li><div><img src="/x.jpg"></div>'
                    '<li>two item</li></ul></body></html>', drop=("Skip me",))
    assert to_markdown(listed, images=True) == "- one item\n- ![](/x.jpg) two item\n"  # the list goes on
    assert '<li><img src="/x.jpg" alt=""> two item</li>' in to_html(listed, images=True)


def test_json_lists_the_images_the_markdown_writes():
    """With images asked for, the JSON document lists each image the Markdown writes, in its
    order, with its alt text and the block it goes with; a copy of the headline that is not
    written hands its images on."""
    html = ('<html><head><title>Title</title></head><body><article><p>Kicker</p>'
            '<figure><img src="/hero.jpg" alt="Hero"></figure><h1>Title</h1><h2>Title</h2>'
            '<div><img src="/dup.jpg" alt="Dup"></div><p>Intro <img src="/in.png" alt="x  y"> text.</p>'
            '</article></body></html>')
    res = result(html, drop=("Kicker",))
    doc = to_dict(res, images=True)
    md = doc["markdown"]
    assert md.startswith("# Title\n\n![Hero](/hero.jpg) ![Dup](/dup.jpg)\n\nIntro ![x y](/in.png) text.")
    assert doc["images"] == [{"src": "/hero.jpg", "alt": "Hero", "block": 1}, {"src": "/dup.jpg", "alt": "Dup", "block": 1},
                             {"src": "/in.png", "alt": "x y", "block": 3}]
    assert "images" not in to_dict(res)


def test_removal_log_has_one_record_per_removed_block():
    res = result(reasons=True)
    log = removal_log(res)
    assert [r["text"] for r in log] == ["Home", "Footer line"]
    rec = log[0]
    assert rec["page"] == "page.html" and rec["xpath"] == "/html/body/nav"
    assert rec["score"] == 0.1 and rec["threshold"] == 0.5
    # reasons pushing towards boilerplate explain a removal
    assert len(rec["reasons"]) == 1 and "boilerplate" in rec["reasons"][0]
    json.dumps(log)
    assert "reasons" not in removal_log(result())[0]


def _joined_one_by_one(pieces):
    """`inline._joined` by its definition: each emphasis looks at the first piece after it with
    text, as that piece is written."""
    written = list(pieces)
    for i in range(len(pieces) - 1, -1, -1):
        following = next((p[0] for p in written[i + 1:] if p), "")
        if isinstance(pieces[i], inline._Emphasis) and inline._glued(following):
            written[i] = pieces[i].moved
    return "".join(written)


def _emphasis_piece(text: str) -> str:
    span = inline._Emphasis(f"*{text}.*")
    span.moved = f"*{text}*."
    return span


def _marks_piece(text: str) -> str:
    """A span that, before a letter, is written without its marks (it ends with a mark that no
    closing stars may follow there): what follows it as written is then its own first character."""
    span = inline._Emphasis(f"~~{text}~~")
    span.moved = text
    return span


_PIECES = st.lists(st.one_of(st.sampled_from(["", " ", "a", "b c", ".", "**", "x*", "中"]),
                             st.sampled_from(["a", "b", "中"]).map(_emphasis_piece),
                             st.sampled_from(["a[", "[", "中["]).map(_marks_piece)), max_size=12)


@settings(max_examples=300, deadline=None, derandomize=True)
@given(pieces=_PIECES)
def test_emphasis_is_written_as_what_follows_it_requires(pieces):
    assert inline._joined(pieces) == _joined_one_by_one(pieces)


def test_a_paragraph_of_thousands_of_bold_words_is_written_in_full():
    html = "<html><body><h1>T</h1><p>" + "<b>word.</b>next " * 3000 + "</p></body></html>"
    md = to_markdown(extract(html))
    assert md.count("**word**.next") == 3000
