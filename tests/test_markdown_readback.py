"""Markdown read back by a CommonMark parser says what the page says: the same words, in order,
as the text output, and its bold, italic, struck-out text, links and code as the page has them.

markdown-it-py is CommonMark's reference implementation in Python; a hand-written check of
Markdown's rules for emphasis beside punctuation would only repeat the writer's own reading.
"""

from __future__ import annotations

import html
import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt

from blockclf import Result, parse, segment
from blockclf.render import to_html, to_markdown, to_text

COMMONMARK = MarkdownIt("commonmark").enable(["table", "strikethrough"])  # tables and ~~ as GitHub writes them
_BLOCK_TAGS = re.compile(r"</?(?:p|h[1-6]|li|ul|ol|blockquote|pre|table|thead|tbody|tr|td|th|hr|br|dd|dt|dl)\b[^>]*>")


def page(body: str) -> Result:
    """Every block of ``body`` kept, as the renderers receive them."""
    doc = parse(f"<html><head><title>T</title></head><body>{body}</body></html>")
    blocks = segment(doc)
    kept = np.ones(len(blocks), dtype=bool)
    return Result(blocks=blocks, scores=np.full(len(blocks), 0.9), kept=kept, threshold=0.5, favor="balanced",
                  title="", url="https://site.org/a/b.html", name="page.html")


def rendered(res: Result) -> str:
    """The HTML a CommonMark reader makes of the page's Markdown."""
    return COMMONMARK.render(to_markdown(res))


def words(text: str) -> list[str]:
    return re.findall(r"\w+", text)


def plain(markup: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", _BLOCK_TAGS.sub(" ", markup)))


def spans(markup: str) -> list[int]:
    """How many bold, italic, code, link and struck-out spans (a reader's ``s``, blockclf's ``del``)."""
    return [markup.count(f"<{tag}>") + markup.count(f"<{tag} ") for tag in ("strong", "em", "code", "a")] + [
        markup.count("<s>") + markup.count("<del>")]


def assert_read_back(res: Result) -> None:
    out = rendered(res)
    assert words(plain(out)) == words(to_text(res))  # the same words, in their order
    assert spans(out) == spans(to_html(res))  # bold, italic, code, links and struck-out text, as the page has them
    # (marks alone in bold, "Combo**®**", are written plain: docs/output.md)
    stars = plain(out).count("*") - to_text(res).count("*")
    assert stars == 0, f"{stars} stars of Markdown's own shown: {to_markdown(res)!r}"
    tildes = plain(out).count("~") - to_text(res).count("~")
    assert tildes == 0, f"{tildes} tildes of Markdown's own shown: {to_markdown(res)!r}"


@pytest.mark.parametrize("body", [
    "<p>由于<b>素有“拖鞋军”之称的商船。</b>至今共有<b>20多艘</b>。她说“<b>推不动。</b>”Jenny<b>“推不动”</b>说</p>",
    "<p>Interior Only<b>$209</b>, mail <b>help@site.org.</b>Thanks, <b>Note:</b> text and <em>«Oui»</em>.</p>",
    "<p>Much stronger!<a href='#fn8'>[8]</a> And more!<a href='/b'>yes</a>, <a href='/a'><span>"
    "<a href='/b'><b>the guide</b></a></span></a> now.</p>",
    "<p>Trying the<code> beta of </code>imageData<code>API. </code>Please <code>a*b_c</code> *literal* _too_ [x].</p>",
    "<ol><li>One <b>bold.</b>Next<blockquote><p>quoted <em>it.</em>x</p></blockquote></li><li><h3>Ann</h3>"
    "<p>post</p></li></ol><ul><li>a</li></ul><ul><li>b</li></ul>",
    "<p>Rated <b>A*</b>and x<b>*C</b>, <b>D**</b>E.</p>",
    "<table><tr><th>Plan</th><th>Price</th></tr><tr><td><b>Yes</b> Pro</td><td><b>$9</b>/mo</td></tr></table>",
    "<p>Now <del>$90</del> $30, <s>Leicas</s> proper cameras, ~4-8 reps, a ~~literal~~ pair, x<s>y</s><s>z</s>, "
    "<strike>e, </strike>f.</p>",
])
def test_markdown_reads_back_as_the_page(body):
    assert_read_back(page(body))


_LETTERS = st.sampled_from(list("abcXYZ19") + ["商", "船", "é"])
_MARKS = st.sampled_from(list(".,:;!?\"'()[]$%#*_-/|&<>`~") + ["。", "，", "“", "”", "«", "»", "®", "✓", "…", "—"])
_RUNS = st.lists(st.one_of(_LETTERS, _MARKS, st.just(" ")), min_size=1, max_size=6).map("".join)


@st.composite
def inline_html(draw: st.DrawFn) -> str:
    """A paragraph's inline markup: text of letters, marks and spaces, in bold, italic, code,
    links and struck-out text, one span at a time (emphasis beside or inside emphasis makes
    runs of stars that Markdown reads its own way: docs/output.md)."""
    parts = []
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(["text", "text", "b", "em", "code", "a", "del"]))
        inner = html.escape(draw(_RUNS), quote=False)
        parts.append(inner if kind == "text" else f'<a href="/p">{inner}</a>' if kind == "a"
                     else f"<{kind}>{inner}</{kind}>")
    return "".join(parts)


def assert_words_and_no_stray_marks(res: Result) -> None:
    out = rendered(res)
    assert words(plain(out)) == words(to_text(res))
    stars = plain(out).count("*") - to_text(res).count("*")
    assert stars == 0, f"{stars} stars of Markdown's own shown: {to_markdown(res)!r}"
    tildes = plain(out).count("~") - to_text(res).count("~")
    assert tildes == 0, f"{tildes} tildes of Markdown's own shown: {to_markdown(res)!r}"


@settings(max_examples=300, deadline=None)
@given(inline_html())
def test_any_inline_markup_reads_back_with_its_words_and_no_stray_stars(markup):
    assert_words_and_no_stray_marks(page(f"<p>word {markup} end</p>"))


@pytest.mark.parametrize("markup", [
    "a<b>` .</b>",  # bold holding only escaped marks after a letter: the page could not be written at all
    "<b>a.</b><del>a[</del>a",  # bold whose next span loses its marks before a letter
    "<del><em>a</em></del>a",  # struck-out italic before a letter: a star is a mark beside tildes
])
def test_cases_the_generated_paragraphs_found_read_back(markup):
    assert_words_and_no_stray_marks(page(f"<p>word {markup} end</p>"))
