"""Thread pages: every post's body kept and its furniture removed; articles and their comments left alone."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from blockclf.comments import comment_mask, comment_roots
from blockclf.html import parse
from blockclf.htmlout import to_html
from blockclf.markdown import to_markdown
from blockclf.predict import extract
from blockclf.render import removal_log, to_text
from blockclf.result import Result
from blockclf.segment import segment
from blockclf.threads import BODY, FURNITURE, HEADER, OUTSIDE, POST, find_thread, says_when

QUESTION = ("I replaced the pump on my old boiler last winter and since then the pressure drops every night, "
            "so by morning the radiators are cold. Has anyone seen this before, and what should I check first?")
REPLIES = ("Check the expansion vessel.", "Same here, it was the valve.", "Thanks, that worked!")
STORY = "The river cut a new channel through the soft plain after the flood, and the town moved uphill. " * 12
REMARK = "Great article, I grew up near that river and remember the flood of that year very well indeed."


def _post(n: int, author: str, body: str) -> str:
    return (f'<div class="post"><div class="head"><a href="/u/{author}">{author}</a></div>'
            f'<div class="when">Posted May {n}, 2024 10:{n:02d}</div><div class="body"><p>{body}</p></div>'
            f'<div class="foot">Reply Quote</div></div>')


THREAD_PAGE = ('<html><body><nav><a href="/">Home</a> <a href="/forum">Forum</a></nav><main><h1>Boiler pressure drops</h1>'
               f'<div class="posts">{_post(1, "ann", QUESTION)}'
               + "".join(_post(i + 2, f"user{i}", text) for i, text in enumerate(REPLIES))
               + "</div></main><footer>© Example Forum</footer></body></html>")


def _blocks(html: str):
    return [b for b in segment(parse(html)) if not b.hidden]


def _scores(blocks, confident: str, low: float = 0.1) -> np.ndarray:
    """What a model does on such pages: the long first post confident, everything else low."""
    return np.array([0.9 if confident in b.text else low for b in blocks])


def test_a_threads_short_replies_are_kept_and_its_furniture_removed():
    blocks = _blocks(THREAD_PAGE)
    scores = _scores(blocks, QUESTION)
    kept = scores >= 0.5
    kept[[i for i, b in enumerate(blocks) if b.text == "Reply Quote"][0]] = True  # one piece of furniture kept
    thread = find_thread(blocks, scores, kept)
    assert thread is not None and thread.posts == 4 and thread.tag == "div"
    roles = {b.text: int(r) for b, r in zip(blocks, thread.roles)}
    assert all(roles[text] == BODY for text in (QUESTION, *REPLIES))
    assert roles["Reply Quote"] == FURNITURE  # removed from every post, though the model kept one
    assert roles["Posted May 3, 2024 10:03"] == HEADER  # the dated header line
    assert roles["Home Forum"] == OUTSIDE and roles["Boiler pressure drops"] == OUTSIDE


@pytest.mark.parametrize("headers_scored", [(0.6, 0.6, 0.6, 0.1), (0.6, 0.1, 0.1, 0.1)])
def test_a_threads_header_lines_are_written_in_every_post_or_in_none(headers_scored):
    """Who wrote each post and when: the model keeps some header lines and not others (their
    scores hover about its threshold), the thread writes them for every post or for none, as
    the model keeps most of their characters or not."""
    blocks = _blocks(THREAD_PAGE)
    scores = _scores(blocks, QUESTION)
    headers = [i for i, b in enumerate(blocks) if b.text.startswith("Posted May")]
    scores[headers] = headers_scored
    thread = find_thread(blocks, scores, scores >= 0.5)
    assert thread is not None and [int(thread.roles[i]) for i in headers] == [HEADER] * 4
    keep, drop = thread.forced()
    written = sum(s >= 0.5 for s in headers_scored) * 2 >= len(headers_scored)
    assert thread.headers_kept == written
    assert all(keep[i] == written and drop[i] != written for i in headers)
    assert all(keep[i] and not drop[i] for i, b in enumerate(blocks) if b.text in (QUESTION, *REPLIES))


def test_a_posts_signature_is_its_furniture_even_when_the_model_keeps_it():
    signed = THREAD_PAGE.replace('<div class="foot">', '<div class="signature">Sent from my boiler room, '
                                 'where the pressure is always low and the coffee is always hot.</div><div class="foot">', 2)
    blocks = _blocks(signed)
    scores = np.array([0.9 if QUESTION in b.text or "boiler room" in b.text else 0.1 for b in blocks])
    thread = find_thread(blocks, scores, scores >= 0.5)
    assert thread is not None
    roles = [int(r) for b, r in zip(blocks, thread.roles) if "boiler room" in b.text]
    assert roles == [FURNITURE, FURNITURE]  # confident, in two posts of four: still not the post
    assert [int(r) for b, r in zip(blocks, thread.roles) if b.text == QUESTION] == [BODY]
    # outside a thread a signature is the model's to judge: a letter's signature is its text
    letter = _blocks('<html><body><p>Dear members, the year went well.</p><p class="signature">James M. McPherson</p>'
                     "</body></html>")
    assert find_thread(letter, np.full(len(letter), 0.9), np.ones(len(letter), bool)) is None


def test_extract_records_the_thread_pass(tiny_model, monkeypatch):
    """The pass's decisions reach the result, the JSON blocks and the removal log (the tiny
    model's scores stand in for nothing here: the pass reads scores like a real model's)."""
    import blockclf.threads as threads

    real = threads.find_thread
    monkeypatch.setattr(threads, "find_thread",
                        lambda blocks, scores, kept, comment=None: real(blocks, _scores(blocks, QUESTION),
                                                                        _scores(blocks, QUESTION) >= 0.5, comment))
    res = extract(THREAD_PAGE.encode(), model=tiny_model, threshold=0.0)  # the model keeps every block
    assert res.post is not None
    assert all(r in res.text for r in REPLIES) and "Reply Quote" not in res.text
    log = removal_log(res)
    assert {rec["text"] for rec in log if rec.get("reason") == "post-furniture"} >= {"Reply Quote"}
    # the header lines scored low in every post: written for none, though this threshold keeps all
    assert "Posted May" not in res.text
    assert {rec["text"] for rec in log if rec.get("reason") == "post-header"} == {
        f"Posted May {n}, 2024 10:{n:02d}" for n in range(1, 5)}
    assert {b["post"] for b in res.to_dict()["blocks"]} >= {"body", "furniture", "header", None}


def test_a_threads_posts_are_written_apart():
    """Markdown puts a rule between two posts, HTML an <hr>, text a blank line; a post opening
    with a heading (a changelog's dated release) is set apart by its heading alone."""
    blocks = _blocks(THREAD_PAGE)
    scores = _scores(blocks, QUESTION)
    thread = find_thread(blocks, scores, scores >= 0.5)
    assert thread is not None
    kept = (thread.roles == BODY) | np.array([b.text.startswith("Posted") for b in blocks])
    res = Result(blocks=blocks, scores=scores, kept=kept, threshold=0.5, favor=None, title="Boiler pressure drops",
                 post=thread.roles, post_number=thread.numbers)
    posts = [f"Posted May {n + 1}, 2024 10:{n + 1:02d}" for n in range(4)]
    bodies = (QUESTION, *REPLIES)
    md = to_markdown(res)
    assert md == "# Boiler pressure drops\n\n" + "\n\n---\n\n".join(f"{p}\n\n{b}" for p, b in zip(posts, bodies)) + "\n"
    assert to_text(res) == "\n\n".join(f"{p}\n{b}" for p, b in zip(posts, bodies))
    assert to_html(res).count("<hr>") == 3
    # text kept above the thread (a question above its answers) is set apart from the first post
    above = kept | np.array([b.text == "Home Forum" for b in blocks])
    md = to_markdown(Result(blocks=blocks, scores=scores, kept=above, threshold=0.5, favor=None, post=thread.roles, post_number=thread.numbers))
    assert md.startswith("[Home](/) [Forum](/forum)\n\n---\n\nPosted May 1") and md.count("---") == 4
    # no rules where there is no thread, nor before a post that opens with a heading
    assert "---" not in to_markdown(Result(blocks=blocks, scores=scores, kept=kept, threshold=0.5, favor=None))
    headed = [replace(b, heading_level=3) if b.text.startswith("Posted") else b for b in blocks]
    assert "---" not in to_markdown(Result(blocks=headed, scores=scores, kept=kept, threshold=0.5, favor=None,
                                           post=thread.roles, post_number=thread.numbers))


def _article(thread: str) -> str:
    return (f'<html><body><article><h1>River cut a channel</h1><p>{STORY}</p><p>{STORY}</p></article>'
            f"{thread}</body></html>")


COMMENTS = ('<div id="comments"><h3>3 Comments</h3>'
            + "".join(f'<div class="comment"><div class="meta">reader{i} · May {i}, 2024</div><p>{REMARK} {i}</p>'
                      f'<div class="reply">Reply</div></div>' for i in range(1, 4))
            + "</div>")


def test_an_articles_comment_thread_stays_removed():
    html = _article(COMMENTS)
    doc = parse(html)
    blocks = [b for b in segment(doc) if not b.hidden]
    scores = np.array([0.9 if b.text.startswith(("The river", REMARK)) else 0.1 for b in blocks])
    kept = scores >= 0.5
    comment = comment_mask(blocks, comment_roots(doc.root, blocks), kept)
    assert comment.any()
    assert find_thread(blocks, scores, kept & ~comment, comment) is None


_SECTIONS = "".join(f'<section><h2>Step {i}</h2><p>{STORY}</p><div class="note">Tip</div></section>'
                    for i in range(1, 6))
_DATED_LINKS = "".join(f'<tr><td>{i} days ago</td><td><a href="/a{i}">Team {i} wins the league again</a></td></tr>'
                       for i in range(1, 8))


@pytest.mark.parametrize("html,confident,high,low", [
    (_article(""), ("The river",), 0.95, 0.2),  # an article page
    (f"<html><body><main>{_SECTIONS}</main></body></html>", ("The river",), 0.9, 0.1),  # repeated sections, no dates
    (f"<html><body><article><p>{STORY}</p></article><table>{_DATED_LINKS}</table></body></html>",
     ("The river", "Team 2"), 0.9, 0.1),  # a dated list of links
], ids=["article", "sections-without-dates", "dated-list-of-links"])
def test_pages_that_are_not_threads(html, confident, high, low):
    blocks = _blocks(html)
    scores = np.array([high if b.text.startswith(confident) else low for b in blocks])
    assert find_thread(blocks, scores, scores >= 0.5) is None


def test_a_first_post_with_more_parts_shares_its_slots_with_the_replies():
    def post(n: int, body: str, extra: str = "") -> str:
        return (f'<article><header>user{n} · {n} days ago</header><section><div class="cooked"><p>{body}</p></div>'
                f"{extra}</section></article>")

    first = post(1, QUESTION, '<div class="solved">Solved by user3 in post #3</div>')  # its body is div[1]
    html = ("<html><body><main>" + first + "".join(post(i + 2, r) for i, r in enumerate(REPLIES))
            + "</main></body></html>")
    blocks = _blocks(html)
    scores = _scores(blocks, QUESTION)
    thread = find_thread(blocks, scores, scores >= 0.5)
    assert thread is not None
    assert all(r == BODY for b, r in zip(blocks, thread.roles) if b.text in (QUESTION, *REPLIES))


def test_a_first_post_laid_out_apart_does_not_hide_the_replies_thread():
    """The first post wraps its text in one more element than the replies: its confident
    block finds no siblings like it, and the replies' blocks must still find their posts."""
    replies = [f"{text} It took me a weekend to find, so I am writing it down here for the next one." for text in REPLIES]
    first = _post(1, "ann", QUESTION).replace('<div class="body"><p>', '<div class="wrap"><div class="body"><p>', 1)
    first = first.replace("</p></div>", "</p></div></div>", 1)
    html = ('<html><body><main><div class="posts">' + first
            + "".join(_post(i + 2, f"user{i}", text) for i, text in enumerate(replies)) + "</div></main></body></html>")
    blocks = _blocks(html)
    scores = np.array([0.9 if b.text == QUESTION or b.text in replies else 0.1 for b in blocks])
    thread = find_thread(blocks, scores, scores >= 0.5)
    assert thread is not None and thread.posts == 4
    roles = {b.text: int(r) for b, r in zip(blocks, thread.roles)}
    assert all(roles[text] == BODY for text in replies)
    assert roles[QUESTION] == POST  # its own slot: the model's decision, which keeps it
    assert roles["Reply Quote"] == FURNITURE


def test_posts_whose_text_sits_deep_inside_them_make_a_thread():
    """XenForo puts a post's text eight elements below the post: the posts are still found."""
    def post(n: int, body: str) -> str:
        return (f'<article class="message"><div class="inner"><div class="user"><h4>user{n}</h4></div>'
                f'<div class="main"><header><ul><li>{n} Jul 2024</li><li>#{n}</li></ul></header>'
                f'<div class="content"><div class="wrap"><div class="body"><article class="bb">'
                f'<div class="bbWrapper"><div>{body}</div></div></article></div></div></div>'
                f'<footer><ul><li>Like Reply</li></ul></footer></div></div></article>')

    replies = [f"{text} It took me a weekend to find, so I am writing it down here for the next one." for text in REPLIES]
    html = ('<html><body><div class="posts">' + post(1, QUESTION)
            + "".join(post(i + 2, text) for i, text in enumerate(replies)) + "</div></body></html>")
    blocks = _blocks(html)
    body = next(b for b in blocks if b.text == QUESTION)
    depth = body.xpath[body.xpath.index("article[1]"):].count("/")
    assert depth == 8  # the post is eight steps above its text's element
    scores = np.array([0.9 if b.text == QUESTION or b.text in replies else 0.1 for b in blocks])
    thread = find_thread(blocks, scores, scores >= 0.5)
    assert thread is not None and thread.posts == 4 and thread.tag == "article"
    roles = {b.text: int(r) for b, r in zip(blocks, thread.roles)}
    assert all(roles[text] == BODY for text in (QUESTION, *replies))


def test_signatures_longer_than_the_replies_are_not_taken_for_their_bodies():
    signature = ('<aside class="message-signature"><a href="/shop">My shop on Etsy</a> <a href="/yt">My woodworking '
                 'channel, with a new video every week about jigs, finishes and the tools I keep</a></aside>')
    signed = THREAD_PAGE.replace('<div class="foot">', signature + '<div class="foot">')
    blocks = _blocks(signed)
    scores = np.array([0.9 if b.text == QUESTION or b.text in REPLIES else 0.1 for b in blocks])
    thread = find_thread(blocks, scores, scores >= 0.5)
    assert thread is not None and thread.posts == 4
    roles = {b.text: int(r) for b, r in zip(blocks, thread.roles)}
    assert all(roles[text] == BODY for text in (QUESTION, *REPLIES))
    assert {int(r) for b, r in zip(blocks, thread.roles) if "Etsy" in b.text} == {FURNITURE}


@pytest.mark.parametrize("text, when", [
    ("Posted May 2, 2024 10:02", True), ("3 days ago", True),
    ("gazeldx #1 1 月前", True), ("AsuraA #8 27 天前", True), ("回复于 19 天前", True),  # Chinese ages
    ("3日前", True), ("2時間前", True), ("2시간 전", True), ("刚刚", True),  # Japanese, Korean, "just now"
    ("21 天", True), ("3 小时", True), ("21d", True), ("4h", True),  # a forum's short ages, a line of their own
    ("前面的内容很长不是日期", False), ("Welcome aboard, Doug!", False),
    ("21 天的旅行", False), ("Section 5", False), ("5 members", False),
])
def test_a_posts_header_says_when_in_several_languages(text, when):
    assert says_when(text) is when


#: a Chinese forum's thread: one-line replies, each under a date line longer than itself
_SHORT_REPLIES = ("元旦快乐！", "羡慕！！！", "这放假方式有点奇特啊", "我们放一天上一天再放一天")


def _short_thread() -> str:
    posts = "".join(f'<div class="item"><div class="meta"><a href="/u/{n}">用户{n}</a><div>2021-01-0{n} 10:3{n}:38'
                    f'</div></div><div class="content"><p>{text}</p></div><div class="ops">点赞 评论</div></div>'
                    for n, text in enumerate(_SHORT_REPLIES, 1))
    return (f'<html><body><nav><a href="/">话题</a> <a href="/t">文章</a></nav><main><h1>又要放假了</h1>'
            f'<div class="list">{posts}</div></main><footer>© 2022 Powered by BBS-GO</footer></body></html>')


def test_a_date_line_is_never_a_posts_body_though_it_holds_more_characters():
    blocks = _blocks(_short_thread())
    scores = np.array([0.7 if b.text in _SHORT_REPLIES else 0.1 for b in blocks])
    thread = find_thread(blocks, scores, scores >= 0.5)
    assert thread is not None and thread.posts == 4
    roles = {b.text: int(r) for b, r in zip(blocks, thread.roles)}
    assert all(roles[text] == BODY for text in _SHORT_REPLIES)
    assert roles["2021-01-02 10:32:38"] == HEADER  # the dated header, not the body


def test_every_reply_nested_in_a_post_is_a_body_not_only_the_first_at_its_level():
    """A threaded forum nests each reply in the post it answers (``div > div > p`` under the
    post's ``div > p``). The second reply to a post sits at ``div[2]``: it was read as the
    rest of the post, left to the model, which dropped the short ones ("yo", "hello")."""

    def post(n: int, who: str, text: str, replies: str = "") -> str:
        return (f'<div class="post"><div class="head">{who} - {n} years ago</div><p>{text}</p>{replies}'
                '<div class="foot">reply</div></div>')

    nested = post(1, "cos", "yoyo") + post(1, "homie", "yo")  # two replies at one level: div[1], div[2]
    page = ('<html><body><main><h1>A minimal forum</h1>'
            + post(2, "ann", QUESTION) + post(2, "bob", REPLIES[0], nested) + post(2, "cy", REPLIES[1])
            + post(2, "dee", REPLIES[2]) + "</main></body></html>")
    blocks = _blocks(page)
    thread = find_thread(blocks, _scores(blocks, QUESTION), _scores(blocks, QUESTION) >= 0.5)
    assert thread is not None
    roles = {b.text: int(r) for b, r in zip(blocks, thread.roles)}
    assert roles["yoyo"] == BODY and roles["yo"] == BODY
    assert all(roles[text] == BODY for text in REPLIES)
