"""Readers' comment threads: found, removed by default with reason ``comment``, kept or given apart on
request (`blockclf.readers`); a product page's reviews are in test_reviews.py."""

from __future__ import annotations

import numpy as np
import pytest

from blockclf.comments import (
    ElementPaths,
    comment_mask,
    comment_roots,
    discussion_page,
    is_paper,
    may_have_comments,
)
from blockclf.html import parse
from blockclf.predict import extract, prepare
from blockclf.render import removal_log, to_html, to_markdown, to_text
from blockclf.segment import segment

STORY = "The river cut a new channel through the soft plain after the flood, and the town moved uphill. " * 12
REMARK = "Great article, I grew up near that river and remember the flood of that year very well indeed."


def _page(thread: str, wrapper_class: str = "") -> str:
    return (f'<html><body><div class="{wrapper_class}"><article><h1>River cut a channel</h1><p>{STORY}</p>'
            f"<p>{STORY}</p></article>{thread}</div></body></html>")


THREAD = ('<div id="comments"><h3>2 Comments</h3><ol class="commentlist">'
          f'<li id="comment-101"><p>{REMARK}</p></li><li id="comment-102"><p>{REMARK} Thanks!</p></li></ol></div>')


def test_comment_thread_is_found_by_id_and_class():
    doc = parse(_page(THREAD))
    roots = comment_roots(doc.root, segment(doc))
    assert roots == ["/html/body/div/div"]  # the thread, not its items nor the wrapper
    blocks = segment(doc)
    mask = comment_mask(blocks, roots)
    assert [b.text for b, m in zip(blocks, mask) if m][0] == "2 Comments"
    assert not any(m for b, m in zip(blocks, mask) if b.text.startswith("The river"))


def test_heading_that_counts_comments_marks_what_follows_it():
    thread = f'<section><h2>Leave a Reply</h2><p>{REMARK}</p></section>'
    doc = parse(_page(thread))
    blocks = segment(doc)
    mask = comment_mask(blocks, comment_roots(doc.root, segment(doc)))
    assert {b.text for b, m in zip(blocks, mask) if m} == {"Leave a Reply", REMARK}


def test_a_papers_discussion_is_its_own_section_not_a_thread():
    """Scientific articles and manual pages have a section "Discussion": not readers' comments."""
    finding = "Stress fell by a third over eight weeks of daily practice, and stayed lower a month later."
    paper = ("<html><body><article><h1>Efficacy of a meditation app</h1><h2>Introduction</h2><p>{s}</p>"
             "<h2>Methods</h2><p>{s}</p><h2>Results</h2><p>{s}</p>"
             "<section id='{ident}'><h2>Discussion</h2><p>{f}</p></section><h2>References</h2><p>{s}</p>"
             "</article></body></html>")
    for ident in ("sec-4", "Discussion"):
        doc = parse(paper.format(s=STORY, f=finding, ident=ident))
        blocks = segment(doc)
        assert not comment_mask(blocks, comment_roots(doc.root, blocks)).any(), ident
    # the same heading over a blog's thread, on a page with no paper's sections, is a thread
    doc = parse(_page(f"<section><h2>Discussion</h2><p>{REMARK}</p></section>"))
    blocks = segment(doc)
    assert {b.text for b, m in zip(blocks, comment_mask(blocks, comment_roots(doc.root, blocks))) if m} == {
        "Discussion", REMARK}


def test_a_manual_is_told_by_its_synopsis_a_shop_not_by_its_description_and_options():
    def headings(*names):
        return segment(parse("<body>" + "".join(f"<h2>{n}</h2><p>{STORY}</p>" for n in names) + "</body>"))

    assert is_paper(headings("NAME", "SYNOPSIS", "DISCUSSION", "SEE ALSO"))
    assert is_paper(headings("1. Introduction", "2 Methods", "Discussion"))
    assert not is_paper(headings("Description", "Options", "Discussion"))
    assert not is_paper(headings("Introduction", "Discussion"))


def test_a_wrapper_that_mentions_comments_does_not_swallow_the_article():
    doc = parse(_page("", wrapper_class="post comments-open comments"))
    assert comment_roots(doc.root, segment(doc)) == []


def test_pages_without_hints_skip_the_tree_walk():
    assert not may_have_comments(segment(parse(_page(""))))
    assert may_have_comments(segment(parse(_page(THREAD))))


def test_a_discussion_page_keeps_its_comments():
    doc = parse(f'<html><body><h1>Forum</h1><div id="comments">{"<p>" + REMARK + "</p>" * 1}'
                f'{"".join(f"<div class=comment><p>{REMARK} {i}</p></div>" for i in range(20))}</div></body></html>')
    blocks = segment(doc)
    roots = comment_roots(doc.root, segment(doc))
    assert roots
    assert not comment_mask(blocks, roots, np.ones(len(blocks), bool)).any()


@pytest.mark.parametrize("mode", ["remove", "keep", "separate"])
def test_extract_comment_modes(tiny_model, mode):
    html = _page(THREAD).encode()
    kept_all = extract(html, model=tiny_model, threshold=0.0, comments=mode)  # the model keeps every block
    d = kept_all.to_dict()
    assert (REMARK in d["text"]) == (REMARK in d["markdown"]) == (mode == "keep")  # JSON gives them apart
    assert (REMARK in kept_all.text) == (mode != "remove")  # the text output: in a section after the article
    assert kept_all.comment is not None and kept_all.comment.sum() == 3
    assert sum(b["comment"] for b in d["blocks"]) == 3
    assert ("comments" in d) == (mode == "separate")
    if mode == "separate":  # the readers' words; the thread's title is the section's heading
        assert d["comments"] == [REMARK, REMARK + " Thanks!"]
        assert kept_all.markdown.endswith(f"\n\n## Comments\n\n{REMARK}\n\n---\n\n{REMARK} Thanks!\n")
    else:
        assert "## Comments" not in kept_all.markdown and "comments" not in d and kept_all.comment_texts == []
    reasons = [r.get("reason") for r in removal_log(kept_all)]
    assert reasons.count("comment") == (0 if mode == "keep" else 3)


def test_comments_given_apart_are_what_readers_wrote_and_who_and_when(tiny_model):
    posts = "".join(f'<li id="comment-{n}"><div class="meta">{who} says: May {n}, 2024 at 9:1{n} am</div>'
                    f'<p>{text}</p><p><a href="#r{n}">Reply</a></p><span class="score">Score: 5</span></li>'
                    for n, (who, text) in enumerate([("Ann", REMARK), ("Bo", "Welcome back."), ("Cy", "+1")], 1))
    thread = (f'<div id="comments"><h3>3 Comments</h3><ol class="commentlist">{posts}</ol>'
              '<div id="respond"><h3>Leave a Reply</h3><form><p><label>Name (required)</label><input></p>'
              '<p><label>Email</label><input></p><p><textarea>Write your comment here and then post it.</textarea>'
              '</p><button>Post Comment</button></form></div></div>')
    res = extract(_page(thread).encode(), model=tiny_model, threshold=0.0, comments="separate")
    want = [["Ann says: May 1, 2024 at 9:11 am", REMARK], ["Bo says: May 2, 2024 at 9:12 am", "Welcome back."],
            ["Cy says: May 3, 2024 at 9:13 am"]]  # one comment each, who and when first
    assert res.to_dict()["comments"] == res.comment_texts == ["\n".join(c) for c in want]
    assert to_markdown(res).endswith("## Comments\n\n" + "\n\n---\n\n".join("\n\n".join(c) for c in want) + "\n")
    assert to_text(res).endswith("\nComments\n" + "\n\n".join("\n".join(c) for c in want))
    assert to_html(res).endswith("<h2>Comments</h2>\n" + "<hr>\n".join("".join(f"<p>{w}</p>\n" for w in c)
                                                                         for c in want))
    assert REMARK not in extract(_page(thread).encode(), model=tiny_model, threshold=0.0).text
    zh = '<div id="comments"><ol><li id="comment-1"><p>谢谢分享写得很好</p></li><li id="comment-2"><p>好</p></li></ol></div>'
    res = extract(_page(zh).encode(), model=tiny_model, threshold=0.0, comments="separate")
    assert res.to_dict()["comments"] == ["谢谢分享写得很好"]  # words of unspaced scripts counted by character


def test_comments_apart_are_told_apart_where_the_thread_parts_ways(tiny_model):
    # who and when in a <dt>, what was said in the <dd> after it: one comment
    dl = ('<div id="comments"><dl><dt>Nathan 07.16.12 at 21:35</dt><dd><p>' + REMARK + '</p><p>Second thought.</p>'
          '</dd><dt>John 07.17.12 at 08:02</dt><dd><p>Thanks, Nathan.</p></dd></dl></div>')
    res = extract(_page(dl).encode(), model=tiny_model, threshold=0.0, comments="separate")
    assert res.to_dict()["comments"] == [f"Nathan 07.16.12 at 21:35\n{REMARK}\nSecond thought.",
                                         "John 07.17.12 at 08:02\nThanks, Nathan."]
    # paragraphs that part ways under one element are one comment's
    one = f'<div class="comment"><p>{REMARK}</p><p>And another thing I should say.</p></div>'
    res = extract(_page(one).encode(), model=tiny_model, threshold=0.0, comments="separate")
    assert res.to_dict()["comments"] == [f"{REMARK}\nAnd another thing I should say."]
    assert "---" not in to_markdown(res)
    # replies nested in the comment they answer come one by one, in page order
    nested = ('<div id="comments"><p>The fine print: comments belong to those who wrote them.</p><ul>'
              '<li><p>Ann on May 2, 2024 at 9:01 am</p><p>First comment here.</p><ul>'
              '<li><p>Bo on May 2, 2024 at 9:05 am</p><p>A reply to Ann.</p></li></ul></li>'
              '<li><p>Cy on May 3, 2024 at 7:00 am</p><p>Another comment.</p></li></ul></div>')
    res = extract(_page(nested).encode(), model=tiny_model, threshold=0.0, comments="separate")
    # (the fine print above them is the thread's heading, not a comment: every comment says who and when)
    assert res.to_dict()["comments"] == [
        "Ann on May 2, 2024 at 9:01 am\nFirst comment here.", "Bo on May 2, 2024 at 9:05 am\nA reply to Ann.",
        "Cy on May 3, 2024 at 7:00 am\nAnother comment."]
    # when every comment says who and when, a footer that the thread's title took in is none
    signed = "<h2>Comments</h2>" + "".join(
        f'<div class="c{n}"><p>{REMARK} {n}</p><p>Posted by: Reader{n} at May {n}, 2012 6:3{n} AM</p></div>'
        for n in (1, 2, 3)) + "<div><p>Powered by a blog engine that serves these pages.</p></div>"
    res = extract(_page(signed).encode(), model=tiny_model, threshold=0.0, comments="separate")
    assert res.comment_texts == [f"{REMARK} {n}\nPosted by: Reader{n} at May {n}, 2012 6:3{n} AM" for n in (1, 2, 3)]
    assert "Powered by" not in res.text  # still part of the thread, so removed
    # nor is what opens such a thread (its count, an invitation, a feed notice) or a notice after it
    headed = ("<div id='comments'><p>3 Comments leave one</p><p>You can follow this conversation by subscribing to "
              "the comment feed for this post.</p><ol>" + "".join(
                  f'<li><p>Reader{n} on May {n}, 2012 at 6:3{n} am</p><p>{REMARK} {n}</p></li>' for n in (1, 2, 3))
              + "</ol><p>Your post may have slipped into the spam filter and will be retrieved shortly.</p></div>")
    res = extract(_page(headed).encode(), model=tiny_model, threshold=0.0, comments="separate")
    assert res.comment_texts == [f"Reader{n} on May {n}, 2012 at 6:3{n} am\n{REMARK} {n}" for n in (1, 2, 3)]
    # two signed comments are enough, and a comment preview's blank signature is none
    two = headed.replace("<li><p>Reader3 on May 3, 2012 at 6:33 am</p><p>" + REMARK + " 3</p></li>", "").replace(
        "</ol>", "</ol><div class='comment-preview'><p>Posted by: |</p></div>")
    res = extract(_page(two).encode(), model=tiny_model, threshold=0.0, comments="separate")
    assert res.comment_texts == [f"Reader{n} on May {n}, 2012 at 6:3{n} am\n{REMARK} {n}" for n in (1, 2)]
    # a short line that comes on its own after each comment is the thread's furniture (a news
    # site's comment: a list of the comment and its tools, the last "Link to this comment:")
    linked = ("<div id='comments'>" + "".join(
        f"<ul><li><div><p>Reader{n} on May {n}, 2012 at 6:3{n} am</p></div><div><p>{REMARK} {n}</p></div></li>"
        "<li><ul><li><p>Link to this comment:</p></li></ul></li></ul>" for n in (1, 2, 3)) + "</div>")
    res = extract(_page(linked).encode(), model=tiny_model, threshold=0.0, comments="separate")
    assert res.comment_texts == [f"Reader{n} on May {n}, 2012 at 6:3{n} am\n{REMARK} {n}" for n in (1, 2, 3)]
    # a thread whose comments do not all say who and when keeps what it holds: an undated one may be a reader's
    undated_one = headed.replace("<li><p>Reader2 on May 2, 2012 at 6:32 am</p>", "<li>")
    res = extract(_page(undated_one).encode(), model=tiny_model, threshold=0.0, comments="separate")
    assert res.comment_texts[0].startswith("3 Comments leave one") and f"{REMARK} 2" in res.comment_texts
    # undated comments in a list beside the thread's disclaimer are a list of comments; a
    # comment's own bullet list is not (its items are lines of text)
    undated = ('<div id="comments"><aside><p>The fine print: comments are owned by whoever posted them. We are '
               'not responsible for them.</p></aside><ul>'
               + "".join(f'<li><div class="c"><div class="body"><p>Comment number {n} says this much.</p></div></div>'
                         '</li>' for n in (1, 2))
               + '<li><div class="c"><div class="body"><p>A third, with points:</p><ul><li>one point is made here</li>'
               '<li>another point is made here</li></ul></div></div></li></ul></div>')
    res = extract(_page(undated).encode(), model=tiny_model, threshold=0.0, comments="separate")
    assert res.comment_texts == [
        "The fine print: comments are owned by whoever posted them. We are not responsible for them.",
        "Comment number 1 says this much.", "Comment number 2 says this much.",
        "A third, with points:\none point is made here\nanother point is made here"]


def test_unknown_comment_mode_is_refused(tiny_model):
    with pytest.raises(ValueError):
        extract(_page("").encode(), model=tiny_model, comments="hide")


def test_prepare_carries_comment_roots():
    assert prepare(_page(THREAD).encode()).comment_roots
    assert prepare(_page("").encode()).comment_roots == ()


def _marked(html: str, kept: bool = False, discussion: bool = False) -> set[str]:
    """Texts of the blocks marked as comments (with every block kept by the model when ``kept``)."""
    doc = parse(html)
    blocks = segment(doc)
    roots = comment_roots(doc.root, blocks)
    mask = comment_mask(blocks, roots, np.ones(len(blocks), bool) if kept else None, discussion)
    return {b.text for b, m in zip(blocks, mask) if m}


@pytest.mark.parametrize("name", ['class="commentbody"', 'class="comments-body"', 'id="jc_commentsDiv"',
                                  'id="comment_tpl"', 'class="wp-block-comment-template"', 'class="post-comments"'])
def test_compound_thread_names_are_threads(name):
    html = _page(f"<div {name}><p>{REMARK}</p></div>")
    assert _marked(html) == {REMARK}
    assert may_have_comments(segment(parse(html)))  # the page is searched at all


@pytest.mark.parametrize("name", ['class="comments-open"', 'class="comment-count"', 'class="commentary"',
                                  'class="feature_disablecomments"', 'class="no-comments"'])
def test_names_that_say_something_else_about_comments_are_not_threads(name):
    assert _marked(_page(f"<div {name}><p>{REMARK}</p></div>")) == set()


def test_a_named_title_heads_the_thread_after_it():
    thread = (f'<h2 class="comments">Comments</h2><div class="c1"><p>{REMARK}</p></div>'
              f'<p>Posted by: Ann at May 2, 2012</p><div class="c2"><p>{REMARK} Me too.</p></div>')
    assert _marked(_page(thread)) == {"Comments", REMARK, "Posted by: Ann at May 2, 2012", f"{REMARK} Me too."}


def test_a_title_alone_in_its_wrapper_heads_what_follows_the_wrapper():
    thread = f'<div class="heading-box"><h3>12 Comments</h3></div><div class="c1"><p>{REMARK}</p></div>'
    assert _marked(_page(thread)) == {"12 Comments", REMARK}


def test_a_titled_thread_ends_at_the_next_section():
    thread = (f"<h3>Comments</h3><p>{REMARK}</p><h3>Leave a Reply</h3><p>Your name</p>"
              f"<h3>Related reading</h3><p>{STORY}</p>")
    marked = _marked(_page(thread))
    assert {"Comments", REMARK, "Leave a Reply", "Your name"} <= marked  # a comment heading does not end it
    assert "Related reading" not in marked and STORY.strip() not in marked


def test_a_comment_count_link_in_a_byline_is_not_a_title():
    html = (f'<html><body><div class="post"><h2>River cut a channel</h2><div class="comments">'
            f'<a href="#comments">3 Comments</a></div><p>{STORY}</p><p>{STORY}</p></div></body></html>')
    assert _marked(html) == {"3 Comments"}  # the link itself, not the article after it


def _short_post(title: str, before: str = f"<p>{STORY[:400]}</p>") -> str:
    comments = "".join(f'<div class="comment"><p>{REMARK} {i}</p></div>' for i in range(12))
    return (f"<html><body><h2>A short post</h2>{before}<div>{title}{comments}</div>"
            f"<p>{'Footer line. ' * 3}</p></body></html>")


def test_a_titled_thread_under_a_short_post_is_marked():
    # comments over half of what is kept and under 2,000 characters outside: a discussion,
    # unless a title opens the thread after the post
    assert REMARK + " 0" not in _marked(_short_post(""), kept=True)
    assert REMARK + " 0" in _marked(_short_post('<h3 class="comments-title">12 Comments</h3>'), kept=True)


def test_a_title_with_no_article_before_it_does_not_override_the_discussion_rule():
    assert REMARK + " 0" not in _marked(_short_post('<h3 class="comments-title">12 Comments</h3>', before=""),
                                        kept=True)


def test_a_title_just_above_the_thread_opens_it_after_a_short_post():
    # the title sits in a plain div above the named thread, not inside it
    comments = "".join(f'<div class="c"><p>{REMARK} {i}</p></div>' for i in range(12))
    html = (f"<html><body><h2>A short post</h2><p>{STORY[:400]}</p><div class=header>12 Comments"
            f'</div><div id="comments_container">{comments}</div></body></html>')
    assert REMARK + " 0" in _marked(html, kept=True)
    assert REMARK + " 0" not in _marked(html.replace("12 Comments", "Read on:"), kept=True)


def _titled_thread(title: str) -> str:
    """A short post, then a line of ``title`` above a named thread of twelve comments."""
    comments = "".join(f'<div class="c"><p>{REMARK} {i}</p></div>' for i in range(12))
    return (f"<html><body><h2>A short post</h2><p>{STORY[:400]}</p><div class=header>{title}"
            f'</div><div id="comments_container">{comments}</div></body></html>')


@pytest.mark.parametrize("title", ["107 Responses to \u201cA short post\u201d", "One Reply to \"A short post\"",
                                   "12 Comments on \u00abA short post\u00bb"])
def test_a_title_that_counts_responses_to_the_post_opens_its_thread(title):
    # blog themes title a thread with its count and the post's quoted title
    assert REMARK + " 0" in _marked(_titled_thread(title), kept=True)


@pytest.mark.parametrize("title", ["12 Kommentare", "Kommentare (3)", "Hinterlasse einen Kommentar", "12 commentaires",
                                   "Laisser un commentaire", "2 comentarios", "Lascia un commento", "3 commenti",
                                   "Deixe um comentário", "5 reacties", "Geef een reactie"])
def test_blog_themes_thread_titles_in_other_languages_open_the_thread(title):
    assert REMARK + " 0" in _marked(_titled_thread(title), kept=True)


@pytest.mark.parametrize("label", ["20 replies to this topic", "Kommentar", "Commento"])
def test_a_forums_count_of_replies_or_an_opinion_pieces_label_is_no_thread_title(label):
    # a forum counts the replies to its topic; "Kommentar" alone heads an opinion piece in
    # German news, "Commento" in Italian
    assert REMARK + " 0" not in _marked(_titled_thread(label), kept=True)


def test_a_widget_of_the_sites_latest_comments_is_removed_and_not_given_apart(tiny_model):
    for name in ('id="recentcomments"', 'class="widget widget_recent_comments"', 'class="latest-comments"'):
        widget = (f'<div class="sidebar"><h3>Recent Comments</h3><ul {name}><li><a href="/other-story/#c1">Other story'
                  f"</a> {REMARK}</li></ul></div>")
        assert any(REMARK in t for t in _marked(_page(widget)))
        res = extract(_page(widget).encode(), model=tiny_model, threshold=0.0, comments="separate")
        assert REMARK not in res.text and res.to_dict()["comments"] == []


@pytest.mark.parametrize("url, discussion", [
    ("https://forum.example.org/t/some-topic/123", True),
    ("https://example.com/forums/gardening/raised-beds", True),
    ("https://example.com/questions/42/why-is-the-sky-blue", True),
    ("https://example.com/discussion/39620/open-source", True),
    ("https://example.com/2012/07/19/a-birthday-present/", False),
    ("https://example.com/news/comments-on-the-budget", False),
    ("https://linustechtips.com/topic/1571202-editing-pc-build-may-2024/", True),  # a numbered topic
    ("https://ruby-china.org/topics/43661", True),
    ("https://www.britannica.com/topic/history-of-coffee", False),  # a site's section or subject page
    ("http://www.canada.com/topics/sports/story.html?id=ee4ea2e7", False),
    ("http://www.oecd.org/topic/0,2686,en_2649_37439_1_1_1_1_37439,00.html", False),
    (None, False),
])
def test_discussion_page_is_read_from_the_address(url, discussion):
    assert discussion_page(url) is discussion


def test_a_discussion_page_marks_nothing(tiny_model):
    html = _page(THREAD)
    assert _marked(html) and not _marked(html, discussion=True)
    kept_all = extract(html.encode(), model=tiny_model, threshold=0.0, url="https://forum.example.org/t/river/1")
    assert REMARK in kept_all.text and not kept_all.comment.any()



def test_element_paths_both_ways_as_lxml_writes_them():
    doc = parse("<html><body><div><p>a</p><!-- note --><p>b</p><span>c</span></div><div><mt:if><p>d</p></mt:if>"
                "</div><ul>" + "<li>x</li>" * 30 + "</ul></body></html>")
    tree = doc.root.getroottree()
    paths = ElementPaths(doc.root)
    elements = [e for e in doc.root.iter() if isinstance(e.tag, str)]
    assert any(e.tag == "mt:if" for e in elements)  # a name XPath reads as a namespace prefix
    for e in elements:
        assert paths.path(e) == tree.getpath(e)
    for e in reversed(elements):
        assert paths.element(tree.getpath(e)) is e
    assert paths.element("/html/body/div[3]") is None and paths.element("/body") is None


def test_a_thread_of_thousands_of_comments_is_marked_whole():
    # under one parent: finding each comment's element by its path once scanned its earlier siblings
    thread = "".join(f'<div id="comment-{i}"><p>{REMARK} {i}</p></div>' for i in range(3000))
    doc = parse(_page(f"<section>{thread}</section>").replace(f"<p>{STORY}</p>", f"<p>{STORY}</p>" * 30, 1))
    blocks = segment(doc)
    roots = comment_roots(doc.root, blocks)
    assert len(roots) == 3000
    mask = comment_mask(blocks, roots, np.ones(len(blocks), dtype=bool))
    assert mask.sum() == 3000 and not any(m for b, m in zip(blocks, mask) if b.text.startswith("The river"))


def test_undated_paragraphs_of_one_comment_stay_one_comment():
    thread = f'<div id="comments"><div class="comment"><p>{REMARK}</p><p>{REMARK} Again.</p></div></div>'
    assert len(extract(_page(thread), comments="separate").comment_texts) == 1


def test_a_title_after_a_two_sentence_post_opens_its_thread():
    # more than a headline is kept before the title (100 characters), less than a paragraph
    post = f"<p>{STORY[:160]}</p>"
    assert REMARK + " 0" in _marked(_short_post('<h3 class="comments-title">12 Comments</h3>', before=post),
                                    kept=True)


@pytest.mark.parametrize("title", ["{ 12 comments\u2026 read them below or add one }", "{ 1 comment\u2026 read it below or add one }",
                                   "{ 12 comments... read them below or add one }", "[ 12 Comments ]"])
def test_a_count_of_comments_in_braces_opens_the_thread(title):
    # a widely used blog theme counts its comments in braces, with an invitation after the count
    assert REMARK + " 0" in _marked(_titled_thread(title), kept=True)


def test_a_count_of_trackbacks_opens_the_thread_it_heads():
    # the theme lists a post's trackbacks first, under their own count, then its comments
    comments = "".join(f'<dt class="comment">Ann, 07.16.12 at 21:35</dt><dd class="comment"><p>{REMARK} {i}</p></dd>'
                       for i in range(12))
    html = (f"<html><body><h2>A short post</h2><p>{STORY[:400]}</p><div id=comments>"
            "<div class=comments_intro><p>{ 1 trackback }</p></div><dl><dt><a href=/t>A blog that links here</a></dt>"
            "<dd>07.14.12 at 15:54</dd></dl><div class=comments_intro><p>{ 12 comments\u2026 read them below or "
            f"<a href=#respond>add one</a> }}</p></div><dl id=comment_list>{comments}</dl></div></body></html>")
    assert REMARK + " 0" in _marked(html, kept=True)


def test_a_braced_count_of_comments_is_no_comment_given_apart(tiny_model):
    thread = ('<div id="comments"><div class="comments_intro"><p>{ 2 comments\u2026 read them below or add one }</p>'
              f'</div><div class="comment"><p>{REMARK}</p></div><div class="comment"><p>{REMARK} Again.</p></div></div>')
    texts = extract(_page(thread), comments="separate").comment_texts
    assert texts == [REMARK, REMARK + " Again."]


@pytest.mark.parametrize("title", ["Discussion about this post", "Discuss this Blog Post"])
def test_a_discussion_heading_is_no_comment_given_apart(title, tiny_model):
    # a newsletter platform heads its comments "Discussion about this post", with or without comments under it
    empty = f'<div id="comments"><div class="comments-header"><h4>{title}</h4></div></div>'
    assert extract(_page(empty), comments="separate").comment_texts == []
    thread = (f'<div id="comments"><div class="comments-header"><h4>{title}</h4></div>'
              f'<div class="comment"><p>{REMARK}</p></div><div class="comment"><p>{REMARK} Again.</p></div></div>')
    assert extract(_page(thread), comments="separate").comment_texts == [REMARK, REMARK + " Again."]


TRACKBACKS = ('<div class="trackbacks"><a id="trackback"></a><h3 class="trackbacks-header">TrackBack</h3>'
              '<div class="trackbacks-info"><p>TrackBack URL for this entry:<br><span class="trackbacks-link">'
              'http://www.example.com/services/trackback/6a00e5</span></p><p>Listed below are links to weblogs that '
              'reference <a href="/post">River cut a channel</a>:</p></div><div class="trackbacks-content"></div></div>')


def test_a_posts_trackbacks_are_part_of_its_thread():
    # a blog lists the other blogs that link to a post with its comments or beside them
    marked = _marked(_page(TRACKBACKS))
    assert {"TrackBack", "TrackBack URL for this entry:"} <= marked
    assert not any(t.startswith("The river") for t in marked)
    text = extract(_page(TRACKBACKS)).text
    assert "TrackBack" not in text and "weblogs" not in text and text.startswith("River cut a channel")


def test_trackbacks_are_no_comment_given_apart(tiny_model):
    thread = f'<div id="comments"><div class="comment"><p>{REMARK}</p></div></div>'
    assert extract(_page(TRACKBACKS + thread), comments="separate").comment_texts == [REMARK]


def test_comments_signed_below_what_was_said_are_given_apart_with_their_signatures(tiny_model):
    # a blog platform writes each comment's date under it, in an element of its own
    said = [REMARK, "Welcome back, and thanks for the recipe.", "These are really cute, all of them."]
    dl = ('<div id="comments"><dl id="comments-block">'
          + "".join(f'<dd class="comment-body"><p>{t}</p></dd><dd class="comment-footer">October 2{n}, 2012 6:3{n} AM</dd>'
                    for n, t in enumerate(said, 1)) + "</dl></div>")
    res = extract(_page(dl).encode(), model=tiny_model, threshold=0.0, comments="separate")
    assert res.comment_texts == [f"{t}\nOctober 2{n}, 2012 6:3{n} AM" for n, t in enumerate(said, 1)]
    # signed above, the same way: who and when go with what follows
    dl = ('<div id="comments"><dl>' + "".join(f"<dt>Ann, October 2{n}, 2012 6:3{n} AM</dt><dd><p>{t}</p></dd>"
                                              for n, t in enumerate(said, 1)) + "</dl></div>")
    res = extract(_page(dl).encode(), model=tiny_model, threshold=0.0, comments="separate")
    assert res.comment_texts == [f"Ann, October 2{n}, 2012 6:3{n} AM\n{t}" for n, t in enumerate(said, 1)]


def test_a_comments_header_line_is_given_apart_without_the_links_that_act_on_it(tiny_model):
    posts = "".join(f'<li id="comment-{n}"><p>{REMARK} {n}</p><p class="meta">by Ann on May {n}, 2012 at 9:5{n} am. '
                    f'<a href="/p?replytocom={n}#respond">Reply</a></p></li>' for n in (1, 2))
    posts += ('<li id="comment-3"><p>A third remark, with more to say.</p><p class="meta">Posted by Bo on May 3, 2012 '
              'at 8:59 am | <a href="/p#comment-3">permalink</a> | <a href="/p?replytocom=3#respond">Reply</a></p></li>')
    thread = f'<div id="comments"><ol class="commentlist">{posts}</ol></div>'
    res = extract(_page(thread).encode(), model=tiny_model, threshold=0.0, comments="separate")
    assert res.comment_texts == [f"{REMARK} {n}\nby Ann on May {n}, 2012 at 9:5{n} am." for n in (1, 2)] + [
        "A third remark, with more to say.\nPosted by Bo on May 3, 2012 at 8:59 am"]
    markdown = to_markdown(res)
    assert "replytocom" not in markdown and "permalink" not in markdown and "Reply" not in markdown
    # with the comments kept in the text, the page's line is as it is
    assert "9:51 am. Reply" in extract(_page(thread).encode(), model=tiny_model, threshold=0.0, comments="keep").text
