"""Readers' comments given apart (``--comments separate``): which blocks of a comment thread
a reader wrote, or say who wrote and when (`readers_text`), and where one comment ends and the
next begins (`readers_comments`), from the shape of the thread's element paths.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import replace

import numpy as np

from .block import Block
from .comments import LINKBACK_TOKENS, THREAD_TITLE
from .inline import block_plain
from .reviews import review_hinted
from .threads import says_when
from .words import SENT_END, title_words

__all__ = ["readers_comments", "readers_text"]

_ELSEWHERE = frozenset({"recentcomments", "latestcomments"})
_ELSEWHERE_WORDS = frozenset({"recent", "latest"})


def _elsewhere(tokens: tuple[str, ...]) -> bool:
    """Whether a block sits in a widget of the site's latest comments (comments on other pages)."""
    return not _ELSEWHERE.isdisjoint(tokens) or (
        not _ELSEWHERE_WORDS.isdisjoint(tokens) and ("comments" in tokens or "comment" in tokens))


def _readers_words(block: Block) -> bool:
    """Whether a block of a comment thread is something a reader wrote about this page, or says
    who and when: not the thread's title ("12 Comments"), a form's fields, a "Reply" link, a
    score widget, a widget of the site's latest comments on other pages, nor the list of the
    blogs that link to the post (its trackbacks and pingbacks, "TrackBack URL for this entry")."""
    if (block.hidden or "form" in block.ancestors or THREAD_TITLE.match(block.text) or _elsewhere(block.tokens)
            or not LINKBACK_TOKENS.isdisjoint(block.tokens)):
        return False
    if says_when(block.text):  # a header, unless a blank one (a comment preview's "Posted by: |")
        return _EMPTY_HEADER.fullmatch(block.text) is None
    if block.link_chars > 0.5 * len(block.text):
        return False
    words = title_words(block.text)  # Chinese and Japanese counted by character, as everywhere
    return words >= 4 or (words >= 1 and SENT_END.search(block.text.rstrip()[-1:]) is not None)


def readers_text(blocks: Sequence[Block], mask: np.ndarray | None) -> list[Block]:
    """The blocks of the comment threads (``mask``, `comment_mask`) worth reading apart from
    the article (``--comments separate``): readers' paragraphs (four words or more, or a
    sentence, mostly not links) and the short lines that say who wrote each and when; not
    the threads' titles, forms, buttons, "Reply" links or score widgets, which the block list
    still marks as comments. The model is not asked: its gold keeps comments on some pages
    and leaves them out on others, so its scores inside a thread say little."""
    if mask is None or not len(mask):
        return []
    return [b for b, m in zip(blocks, mask) if m and _readers_words(b)]


#: a line that says who wrote a comment and when is this short ("Posted by: Ann at May 2, 2012
#: 6:31 AM"); a longer one with a date word is a paragraph ("comments are owned by whoever
#: posted them")
_HEAD_WORDS = 15
#: a who-and-when line with neither: its labels alone, the name and date left blank
_EMPTY_HEADER = re.compile(r"(?:\W|posted|by|on|at)*", re.IGNORECASE)
#: a line of at most this many words that is a comment of its own this many times in one thread
#: is the thread's furniture (`readers_comments`)
_REPEATED_WORDS = 6
_MIN_REPEATS = 3
#: elements that part one comment's paragraphs, not comments ("": the element's own text)
_PARAGRAPHS = frozenset({"", "p", "pre", "blockquote", "table", "h1", "h2", "h3", "h4", "h5", "h6", "br"})


def _paragraph(tag: str, dated: bool) -> bool:
    """Whether an element that blocks part ways at is a paragraph of one comment: a paragraph
    element, or a list that says nothing of who wrote and when (a list of replies does)."""
    return tag in _PARAGRAPHS or (tag in ("ul", "ol") and not dated)


def _tag(step: str) -> str:
    return step.partition("[")[0]


#: where blocks part ways: the depth of the first step of their paths they do not all share,
#: and the runs of blocks (in page order) under each element there, with its step ("" for the
#: text of the element the paths end at)
_Split = tuple[int, list[tuple[str, list[int]]]]


def _split(members: list[int], steps: Sequence[list[str]], start: int) -> _Split:
    """Where the blocks ``members`` (whose paths share their first ``start`` steps) part ways."""
    depth = _common_steps([steps[i] for i in members], start)
    runs: list[tuple[str, list[int]]] = []
    for i in members:
        key = steps[i][depth] if len(steps[i]) > depth else ""
        if not runs or runs[-1][0] != key:
            runs.append((key, []))
        runs[-1][1].append(i)
    return depth, runs


def _items(split: _Split, steps: Sequence[list[str]]) -> bool:
    """Whether blocks that part ways as ``split`` says hold a list of comments, though none says
    who wrote it or when: they part at two items of a list or more (``ul > li``), here or in a
    list beside a thread's disclaimer, and some item holds more than a line of text
    (``li > div > div > p``, where a comment's bullet list holds ``li`` or ``li > p``)."""
    depth, runs = split
    if all(_tag(key) == "li" for key, _ in runs):
        return len(runs) > 1 and any(len(steps[i]) > depth + 2 for _, run in runs for i in run)
    return any(_tag(key) in ("ul", "ol") and len(run) > 1 and _items(_split(run, steps, depth + 1), steps)
               for key, run in runs)


def readers_comments(blocks: Sequence[Block], mask: np.ndarray | None) -> list[list[Block]]:
    """The readers' text (`readers_text`) one comment at a time.

    A thread's comments are the elements where the readers' blocks part ways (the ``li`` of a
    comment list, each comment's ``div``); one that holds two lines or more that say who wrote
    and when, or whose blocks part ways at the items of a list, holds several comments (a
    thread's list under a disclaimer, a comment and its replies) and is parted again the same
    way. A lone line that says who and when
    (``<dt>Ann, May 2</dt><dd>…</dd>``) heads the comment after it. Where the blocks part ways
    at paragraphs (``p``, ``pre``, a list), they are one comment's. When every comment (two or
    more) from the first that says who and when to the last says it, what comes before the
    first (the thread's count, an invitation to comment, a feed notice) and what follows the
    last (a footer that a thread's title took in) are not comments; nor is a short line that is
    a comment of its own three times or more (a "Link to this comment:" box under each).
    """
    text = readers_text(blocks, mask)
    if not text:
        return []
    steps = [b.xpath.split("/") for b in text]
    dated = [says_when(b.text) and len(b.text.split()) <= _HEAD_WORDS for b in text]
    # a block in a customer's review carries a class/id token naming reviews
    units = [b.tokens if review_hinted(b.tokens) else None for b in text]
    comments = _parted(list(range(len(text))), steps, dated, 0, units=units)
    # a short line that comes on its own after comment upon comment is the thread's, not a
    # reader's ("Link to this comment:" under each comment)
    lone = Counter(text[c[0]].text for c in comments if len(c) == 1 and not dated[c[0]])
    repeated = {t for t, n in lone.items() if n >= _MIN_REPEATS and len(t.split()) <= _REPEATED_WORDS}
    if repeated:
        comments = [c for c in comments if len(c) > 1 or text[c[0]].text not in repeated]
    signed = [k for k, c in enumerate(comments) if any(dated[i] for i in c)]
    if len(signed) >= 2 and signed[-1] - signed[0] + 1 == len(signed):
        # every comment from the first that says who and when to the last says it: what comes
        # before them is the thread's heading ("126 Comments Add A Comment", "You can follow
        # this conversation…") and what follows them the page's footer under the thread
        # ("Powered by…"), not comments
        comments = comments[signed[0]:signed[-1] + 1]
    return [[_without_actions(text[i]) if dated[i] else text[i] for i in c] for c in comments]


#: the links a comment's header line ends with that act on the comment rather than say who
#: wrote it or when ("by Ann on May 2, 2012 at 9:59 am. Reply", "... | permalink | Reply")
_ACTIONS = r"(?:reply|permalink|link|report(?: abuse)?|quote|flag|like|share|edit|delete|respond)"
_SEPARATOR = r"[\s|·•–—-]*"
_ACTION_LINKS = re.compile(rf"(?:{_SEPARATOR}<a\b[^>]*>\s*{_ACTIONS}\s*</a>)+{_SEPARATOR}$", re.IGNORECASE)


def _without_actions(block: Block) -> Block:
    """A comment's header line without the links it ends with that act on the comment
    (`_ACTION_LINKS`: "Reply", "permalink", "Report"), written as links only; the line as it is
    when they are all it says."""
    rich = block.rich
    if not rich or not rich.rstrip().endswith("</a>"):
        return block
    cut = _ACTION_LINKS.search(rich)
    if cut is None or not cut.start():
        return block
    kept = replace(block, rich=rich[:cut.start()])
    return replace(kept, text=block_plain(kept))


def _reviews_apart(split: _Split, units: Sequence[tuple[str, ...] | None]) -> bool:
    """Whether blocks that part ways as ``split`` says are customers' reviews, one an element:
    they part at two sibling elements or more of one tag whose first blocks carry the same
    review-naming class/id tokens (a shop's reviews often say no date; a review's title and
    text, named apart, stay one)."""
    _, runs = split
    if len(runs) < 2 or not runs[0][0] or len({_tag(key) for key, _ in runs}) > 1:
        return False
    first = units[runs[0][1][0]]
    return first is not None and all(units[run[0]] == first for _, run in runs)


def _parted(members: list[int], steps: Sequence[list[str]], dated: Sequence[bool], start: int,
            split: _Split | None = None, units: Sequence[tuple[str, ...] | None] = ()) -> list[list[int]]:
    """``members`` (positions of blocks in page order, whose paths share their first ``start``
    steps; ``split``: where they part ways, when known) as comments: see `readers_comments`.
    ``units``: per block, its class/id tokens when they name reviews (`_reviews_apart`)."""
    if len(members) < 2:
        return [members]
    depth, runs = split or _split(members, steps, start)
    if all(_paragraph(_tag(key), any(dated[i] for i in run)) for key, run in runs):
        return [members]  # one comment's paragraphs (or its own text)
    comments: list[list[int]] = []
    heading: list[int] = []
    # a thread that opens with what was said and ends with who and when signs each comment below it
    below = not any(dated[i] for i in runs[0][1]) and all(dated[i] for i in runs[-1][1])
    for _, run in runs:
        if all(dated[i] for i in run):
            if below and comments:
                comments[-1] += run  # who and when, below what was said
            else:
                heading += run  # who and when, above what was said
            continue
        inner = _split(run, steps, depth + 1) if len(run) > 1 else None
        several = inner is not None and (sum(dated[i] for i in run) > 1 or _items(inner, steps)
                                         or (bool(units) and _reviews_apart(inner, units)))
        parted = _parted(run, steps, dated, depth + 1, inner, units) if several else [run]
        comments += [heading + parted[0]] + parted[1:]
        heading = []
    if heading:
        comments.append(heading)
    return comments


def _common_steps(paths: Sequence[Sequence[str]], start: int = 0) -> int:
    """How many leading steps the element paths (split at ``/``) all share; the first ``start``
    are known to be shared."""
    first = paths[0]
    n = len(first)
    for path in paths[1:]:
        n = min(n, len(path))
        for k in range(start, n):
            if path[k] != first[k]:
                n = k
                break
    return n
