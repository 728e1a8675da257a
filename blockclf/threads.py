"""Thread pages: every post of a forum or questions thread kept, the furniture around each removed.

On a thread page the main content is itself a repetition: one container per post (a
``<div>``, ``<article>``, ``<li>``, a table row) repeated under one parent, each holding the
post's text and, around it, an author and date line, badges ("Joined", post counts), "Reply"
and "Quote" links. The model judges each block on its own evidence, so it keeps a long first
post and drops short replies ("Thanks, that worked"), or keeps a badge here and a date there.
This pass reads the repetition from the blocks' element paths and decides each *slot* of a
post (a block's path inside its post; the position of a paragraph, list item or quote left
out, and a first element's ``[1]`` read as a lone element's none) once for all the posts.

*Posts.* Only elements that have siblings of their own tag (their step in the path carries a
position) up to `MAX_LEVELS` above a block scored `MIN_CONFIDENT` or more are candidates, and
only when at least `MIN_POSTS` - 1 of their nearest siblings hold a block at the same path as
that block and their own text has a dated line (below): a few set lookups, so that a page
without such a repetition around its content stops there. A candidate's parent and tag give
its *posts*: the blocks under ``parent/tag[k]``.

*Thread.* The posts make a thread when at least `MIN_POSTS` of them hold text, one slot holds
a block in at least `MIN_BODY_SHARE` of them (the *body*: of those slots, the one holding most
text, a slot whose every line says when excepted, as short posts in Chinese hold fewer
characters than their date lines; at most `MAX_BODY_LINK_SHARE` of it in links, one of its
blocks scored `MIN_CONFIDENT` or more) and another slot gives a short line with a date, a
time or an age ("May 2, 2024", "19:44", "2 years ago", "Posted", "Joined") in at least
`MIN_HEADED_SHARE` of them. Repeated sections of a document, product cards and menus have no
such line. Of the page's threads, the one holding most text is taken.

*Decisions.* Every block of the body slot is kept, and so is every block of a reply nested in
a post (the body slot under more elements of the post's tag, whichever of them it is). The
dated header lines are kept in every post or in none, as the model keeps most of their
characters or not (`HEADERS_KEPT_SHARE`): whether a thread's text says who wrote each post and
when is a matter of convention, but a reader should not find it said of some posts only. Any other
slot that recurs in at least `MIN_FURNITURE_SHARE` of the posts (and in two), and of whose
characters the model keeps under `DROP_SHARE`, is the posts' furniture: its blocks are
removed, except those the model scored `MIN_CONFIDENT` or more. A post's signature
(`SIGNATURE_TOKENS`) is furniture whatever its score. The other blocks of the posts keep the
model's decision.

A thread holding blocks of a readers' comment thread that `blockclf.comments` marks (comments
under an article, which extraction removes) is left alone: that pass has decided that the page
is an article with a thread under it, not a discussion.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from .block import Block

__all__ = ["BODY", "FURNITURE", "HEADER", "OUTSIDE", "POST", "POST_KEPT", "POST_REASONS", "ROLE_NAMES", "Thread",
           "find_thread", "says_when"]

#: per-block codes of `Thread.roles`: not in the thread, a post's body (kept), a post's
#: furniture (removed), the rest of a post (left to the model), a post's dated header line
#: (who wrote it and when: kept in every post or in none, `Thread.headers_kept`)
OUTSIDE, BODY, FURNITURE, POST, HEADER = 0, 1, 2, 3, 4
#: the roles' names in the JSON output and the removal log
ROLE_NAMES = {BODY: "body", FURNITURE: "furniture", POST: "post", HEADER: "header"}
#: the removal log's reason for a block the thread removes from every post: the furniture around
#: each post, and who wrote each post and when, when the thread writes that for no post
POST_REASONS = {FURNITURE: "post-furniture", HEADER: "post-header"}
#: what `Result.kept_by` names for a block the thread keeps whatever it scored: a post's body,
#: its header line where every post's is written
POST_KEPT = {BODY: "post-body", HEADER: "post-header"}

#: a block scored at least this is kept confidently: the posts are read above such blocks only
MIN_CONFIDENT = 0.5
#: posts are looked for up to this many levels above a confidently kept block (XenForo: eight
#: elements between a post and its text)
MAX_LEVELS = 12
#: a thread has at least this many posts holding text
MIN_POSTS = 3
#: the body slot is in at least this share of the posts
MIN_BODY_SHARE = 0.6
#: a body slot with more of its characters in links than this is a list of links, not posts
MAX_BODY_LINK_SHARE = 0.5
#: at least this share of the posts say when they were written, in a slot besides the body
MIN_HEADED_SHARE = 0.5
#: a slot of which the model keeps under this share of the characters is furniture
DROP_SHARE = 0.5
#: ... when it recurs in at least this share of the posts (and in two): what one post alone
#: holds (the first post's own layout, a poll) is left to the model
MIN_FURNITURE_SHARE = 0.3
#: the posts' header lines are written, in every post, when the model keeps at least this
#: share of their characters; else in none
HEADERS_KEPT_SHARE = 0.5
#: class or id words of a post's signature (phpBB, vBulletin, XenForo, Vanilla, UBB): what its
#: writer appends to every post, never the post
SIGNATURE_TOKENS = frozenset(("signature", "usersignature"))

#: a post's header line is this short
_HEADER_CHARS = 120
_MONTH = (r"jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec|january|february|march|april|june|july"
          r"|august|september|october|november|december")
#: a date, a time or an age, as a post's header gives it ("03/03/2026 19:44", "May 2", "2 years ago",
#: "Posted", "· 4y", "2024年5月", and an age in Chinese, Japanese or Korean: "1 月前", "3日前", "2시간 전";
#: or a line that is only a short age, as a forum writes a post's in short: "21 天", "3 小时", "21d", "4h")
_WHEN = re.compile(rf"\b(?:{_MONTH})\.?\s+\d{{1,2}}\b|\b\d{{1,2}}\.?\s+(?:{_MONTH})\b"
                   r"|\b\d{1,4}[-/.]\d{1,2}[-/.]\d{1,4}\b|\b\d{1,2}:\d{2}\b"
                   r"|\b\d+\s*(?:seconds?|minutes?|mins?|hours?|hrs?|days?|weeks?|months?|years?)\s+ago\b"
                   r"|\b(?:yesterday|today|just now|posted|joined)\b|·\s*\d+\s*[smhdwy]\b"
                   r"|\d{4}\s*年|\d{1,2}\s*月\s*\d{1,2}"
                   r"|\d+\s*(?:秒|分钟|分鐘|分|小时|小時|時間|天|日|周|週|个月|個月|か月|ヶ月|月|年)\s*前|昨天|前天|刚刚|剛剛|昨日"
                   r"|\d+\s*(?:초|분|시간|일|주|개월|달|년)\s*전"
                   r"|^\s*\d{1,3}\s*(?:秒|分钟|分鐘|小时|小時|天|周|週|个月|個月|年)\s*$|^\s*\d{1,3}\s*[smhdwy]\s*$",
                   re.IGNORECASE)
#: the position of a block's own element is left out of its slot for these tags: a post's
#: paragraphs, list items and quotes are one slot however many there are
_RUNS = frozenset({"p", "li", "pre", "blockquote", "ul", "ol"})


def _slot(tail: str) -> str:
    """A block's slot from its path inside its post: ``/div[2]/p[3]`` gives ``/div[2]/p``, and
    ``/div[1]/p`` gives ``/div/p``, as a lone element is written (a post with a second
    ``div`` numbers its first one, the next post may not)."""
    tail = tail.replace("[1]", "")
    head, _, last = tail.rpartition("/")
    tag, bracket, _ = last.partition("[")
    return f"{head}/{tag}" if bracket and tag in _RUNS else tail


@dataclass(frozen=True)
class Thread:
    """The page's thread: its posts' parent element and tag, how many posts, per block its
    role (`OUTSIDE`, `BODY`, `FURNITURE`, `POST` or `HEADER`) and the post it is in
    (``numbers``: the posts counted from 0 in page order, -1 outside the thread), and whether
    the posts' header lines are written (``headers_kept``)."""

    parent: str
    tag: str
    posts: int
    roles: np.ndarray
    numbers: np.ndarray
    headers_kept: bool = False

    def forced(self) -> tuple[np.ndarray, np.ndarray]:
        """The blocks the thread keeps whatever they scored (every post's body, and its header
        lines when they are written) and those it removes (its furniture, and its header lines
        when they are not)."""
        keep = self.roles == BODY
        drop = self.roles == FURNITURE
        headers = self.roles == HEADER
        return (keep | headers, drop) if self.headers_kept else (keep, drop | headers)


def _candidates(blocks: Sequence[Block], scores: np.ndarray) -> dict[tuple[str, str], int]:
    """The (parent path, tag) of the indexed elements up to `MAX_LEVELS` above a confidently
    kept block that look like posts, each with one such block.

    An element looks like a post when at least `MIN_POSTS` - 1 of its siblings of its tag
    (up to `_PROBE` before and past it) hold a block at the same path inside them as the confident
    block (``.../div[4]/div[2]/p`` for ``.../div[3]/div[2]/p``): a set lookup per sibling, so
    that a page without a repetition around its content is left after a few dozen lookups;
    and when its own text has a dated line (`_dated_post`).
    """
    paths = {b.xpath for b in blocks}
    keys: dict[tuple[str, str], int] = {}
    # a candidate is tried once per path inside it: a first post laid out apart from the
    # replies (one more wrapper around its text) does not hide the replies' repetition
    tried: set[tuple[str, str, str]] = set()
    seen: set[str] = set()  # element paths walked up from already
    for i in np.flatnonzero(scores >= MIN_CONFIDENT).tolist():
        b = blocks[i]
        if b.hidden:
            continue
        path = b.xpath
        for _ in range(MAX_LEVELS):
            head, _, last = path.rpartition("/")
            if not head or path in seen:
                break
            seen.add(path)
            if last.endswith("]"):
                tag, _, num = last[:-1].partition("[")
                key = (head, tag)
                tail = b.xpath[len(path):]
                if key not in keys and (head, tag, tail) not in tried:
                    tried.add((head, tag, tail))
                    if _siblings_alike(paths, head, tag, int(num), tail) and _dated_post(blocks, i, path):
                        keys[key] = i
            path = head
    return keys


def says_when(text: str) -> bool:
    """Whether ``text`` is a short line with a date, a time or an age: a post's header."""
    return len(text) <= _HEADER_CHARS and _WHEN.search(text) is not None


def _dated_post(blocks: Sequence[Block], seed: int, post: str) -> bool:
    """Whether the post ``post`` (the element path of one, holding block ``seed``) has a short
    line with a date, a time or an age: a post without one is not a forum post."""
    lo, hi = _span(blocks, seed, post)
    return any(says_when(b.text) for b in blocks[lo:hi])


def _span(blocks: Sequence[Block], seed: int, path: str) -> tuple[int, int]:
    """The run of blocks at or under the element ``path`` around block ``seed`` (one of them):
    an element's blocks are consecutive in document order."""
    inside = path + "/"
    lo, hi = seed, seed + 1
    while lo > 0 and (blocks[lo - 1].xpath == path or blocks[lo - 1].xpath.startswith(inside)):
        lo -= 1
    while hi < len(blocks) and (blocks[hi].xpath == path or blocks[hi].xpath.startswith(inside)):
        hi += 1
    return lo, hi


#: how many siblings before and past an element are looked at for posts like it
_PROBE = 8


def _siblings_alike(paths: set[str], parent: str, tag: str, num: int, tail: str) -> bool:
    """Whether at least `MIN_POSTS` - 1 siblings ``parent/tag[k]`` hold a block at ``tail``,
    or at ``tail`` with its last position changed (a first paragraph, a lone one) or its
    first-of-several positions left out (a first post's ``div[1]/p`` for the replies' ``div/p``)."""
    tails = [tail]
    for t in (tail, tail.replace("[1]", "")) if "[1]" in tail else (tail,):
        end = t.rpartition("/")[2]
        bare = t[:len(t) - len(end)] + end.partition("[")[0]
        tails += [t, bare, bare + "[1]"] if t != tail else [bare, bare + "[1]"]
    tails = list(dict.fromkeys(tails))
    base = f"{parent}/{tag}["
    need = MIN_POSTS - 1
    for k in range(max(1, num - _PROBE), num + _PROBE):
        if k == num:
            continue
        stem = f"{base}{k}]"
        for t in tails:
            if stem + t in paths:
                need -= 1
                if need <= 0:
                    return True
                break
    return False


@dataclass
class _Repetition:
    """The blocks under one candidate's posts: their indexes, post numbers and slots."""

    parent: str
    tag: str
    members: list[int]
    posts: list[str]
    slots: list[str]


def _repetition(blocks: Sequence[Block], parent: str, tag: str, seed: int) -> _Repetition | None:
    """The blocks under the candidate's posts, or None when under `MIN_POSTS` posts hold text.

    The blocks under one element are a run in document order: the run around ``seed`` (a
    block under the candidate's parent) is read, not the whole page.
    """
    lo, hi = _span(blocks, seed, parent)
    prefix = f"{parent}/{tag}["
    cut = len(prefix)
    found: list[tuple[int, str, str]] = []
    for i in range(lo, hi):
        b = blocks[i]
        if not b.hidden and b.xpath.startswith(prefix):
            post, _, tail = b.xpath[cut:].partition("]")
            found.append((i, post, tail))
    if len({post for _, post, _ in found}) < MIN_POSTS:
        return None
    return _Repetition(parent, tag, [i for i, _, _ in found], [p for _, p, _ in found],
                       [_slot(t) for _, _, t in found])


def _dated(rep: _Repetition, when: Sequence[bool], body: str, posts: int) -> set[str]:
    """The slots besides the body that say when each post was written in at least
    `MIN_HEADED_SHARE` of the posts: short lines holding a date, a time or an age (``when``:
    `says_when` of each of the repetition's blocks)."""
    dated: dict[str, set[str]] = {}
    for said, post, slot in zip(when, rep.posts, rep.slots):
        if slot != body and said:
            dated.setdefault(slot, set()).add(post)
    return {s for s, p in dated.items() if len(p) >= MIN_HEADED_SHARE * posts}


def _thread_roles(rep: _Repetition, blocks: Sequence[Block], scores: np.ndarray,
                  kept: np.ndarray) -> tuple[np.ndarray, bool] | None:
    """Each block's role (`Thread.roles`, one per block) and whether the header lines are
    written (`Thread.headers_kept`) when the repetition is a thread, else None."""
    posts = set(rep.posts)
    if len(posts) < MIN_POSTS:
        return None
    chars: dict[str, int] = {}
    kept_chars: dict[str, int] = {}
    slot_posts: dict[str, set[str]] = {}
    # a post's signature (read once): never its body, though it may hold more text than short replies
    signatures = {i for i in rep.members if not SIGNATURE_TOKENS.isdisjoint(blocks[i].tokens)}
    signed: set[str] = set()
    undated: set[str] = set()
    when = [says_when(blocks[i].text) for i in rep.members]  # read once, for the body and the headers
    for i, said, post, slot in zip(rep.members, when, rep.posts, rep.slots):
        size = len(blocks[i].text)
        if not said:
            undated.add(slot)
        chars[slot] = chars.get(slot, 0) + size
        if kept[i]:
            kept_chars[slot] = kept_chars.get(slot, 0) + size
        slot_posts.setdefault(slot, set()).add(post)
        if i in signatures:
            signed.add(slot)
    # a slot whose every line says when (a post's date line) is a header, however much text it holds
    common = [s for s in chars if len(slot_posts[s]) >= MIN_BODY_SHARE * len(posts) and s not in signed
              and s in undated]
    if not common:
        return None
    body = max(common, key=chars.__getitem__)
    linked = sum(blocks[i].link_chars for i, s in zip(rep.members, rep.slots) if s == body)
    if linked > MAX_BODY_LINK_SHARE * chars[body]:
        return None  # a list of links (headlines, related pages), not posts
    headers = _dated(rep, when, body, len(posts))
    if not headers:
        return None
    if not any(scores[i] >= MIN_CONFIDENT for i, s in zip(rep.members, rep.slots) if s == body):
        return None
    recurring = max(2, MIN_FURNITURE_SHARE * len(posts))
    # a reply nested in a post (``/div/div/p`` under ``/div/p`` posts) has a body too, the
    # second reply at a level (``/div/div[2]/div/p``) as the first
    nested = re.compile(rf"^(?:/{re.escape(rep.tag)}(?:\[\d+\])?)+{re.escape(body)}$")
    bodies = {s for s in chars if s == body or nested.match(s)}
    furniture = {s for s, c in chars.items() if s not in bodies and s not in headers
                 and len(slot_posts[s]) >= recurring and kept_chars.get(s, 0) < DROP_SHARE * c}
    roles = np.zeros(len(blocks), dtype=np.int8)
    for i, slot in zip(rep.members, rep.slots):
        if i in signatures:
            roles[i] = FURNITURE
        elif slot in bodies:
            roles[i] = BODY
        elif slot in headers:
            roles[i] = HEADER
        else:
            roles[i] = FURNITURE if slot in furniture and scores[i] < MIN_CONFIDENT else POST
    header_chars = sum(chars[s] for s in headers)
    return roles, sum(kept_chars.get(s, 0) for s in headers) >= HEADERS_KEPT_SHARE * header_chars


def find_thread(blocks: Sequence[Block], scores: np.ndarray, kept: np.ndarray,
                comment: np.ndarray | None = None) -> Thread | None:
    """The page's thread (see the module docstring), or None when the page is not one.

    ``scores`` and ``kept`` are the model's; ``comment`` marks the blocks of readers' comment
    threads (`blockclf.comments.comment_mask`): a thread holding any is left alone.
    """
    keys = _candidates(blocks, scores)
    reps = [r for (parent, tag), seed in keys.items() if (r := _repetition(blocks, parent, tag, seed))]
    # the repetition holding most text that is a thread
    reps.sort(key=lambda r: -sum(len(blocks[i].text) for i in r.members))
    for rep in reps:
        found = _thread_roles(rep, blocks, scores, kept)
        if found is not None:
            roles, headers_kept = found
            if comment is not None and (comment & (roles != OUTSIDE)).any():
                return None
            numbers = np.full(len(blocks), -1, dtype=np.int32)
            order: dict[str, int] = {}
            for i, post in zip(rep.members, rep.posts):
                numbers[i] = order.setdefault(post, len(order))
            return Thread(rep.parent, rep.tag, len(order), roles, numbers, headers_kept)
    return None
