"""A page's headline: its ``<title>`` cleaned of site-name parts (``"Using the Fetch API -
Web APIs | MDN"`` → ``"Using the Fetch API"``). A title part that matches the page's ``<h1>``
wins; otherwise parts naming the site (its site name or domain) are dropped; a page with no
``<h1>`` to say which part is the headline takes the leading parts that a heading or a bold
line says (`lead_heading`). A page with no title, ``<h1>`` or metadata headline at all takes the
line above its prose that marks itself as the headline, or the heading there that is its first
(`prose_headline`)."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Sequence

from lxml import etree

from .block import Block
from .byline import is_dateline
from .data import host_domain
from .metatext import ICON_CHARS, clean_value, parse_date, token_overlap
from .metrics import tokens
from .words import WORD, title_parts, title_words

__all__ = ["H1_BLOCKS", "MAX_LOGO_WORDS", "SITE_TITLE_MIN_OTHERS", "best_title_run", "clean_title", "h1_headline",
           "h1_texts", "lead_heading", "linked_h1", "names_site", "prose_headline",
           "site_free_headline", "site_like",
           "site_title_parts", "site_titles", "without_site_parts"]

#: an <h1> of at most this many words that is not the headline may be the site's logo
MAX_LOGO_WORDS = 6
#: the token F1 with a text at which a run of title parts says it (`best_title_run`)
RUN_MIN_F1 = 0.9

def _label(domain: str) -> str:
    """A domain's name as one run of letters and digits (``"early-retirement"`` → ``"earlyretirement"``)."""
    return re.sub(r"\W", "", domain.lower())


def site_like(part: str, sitename: str | None, domain: str | None, logos: Sequence[str] = ()) -> bool:
    """Whether a title part names the site: its site name, its domain's name, or a logo ``<h1>``
    (most of whose words the part holds: ``"My Hero Academia [Archive of Our Own]"`` beside
    the h1 ``"Archive of Our Own beta"``)."""
    words = tokens(part)
    if not words:
        return True
    if _is_host(part):
        return True
    if sitename and (token_overlap(part, sitename) >= 0.5 or part.lower() in sitename.lower()):
        return True
    if domain:
        label = _label(domain)
        squeezed = "".join(words)
        if squeezed and (squeezed in label or label in squeezed):
            return True
    for logo in logos:
        logo_words = tokens(logo)
        if logo_words and 4 * sum(w in words for w in logo_words) >= 3 * len(logo_words):
            return True
    return False


#: the endings of host names that name a site in a title: a country's, or one of the first
#: generic ones (``"celery.app.events"``, a module's name, ends in a newer one)
_HOST_END = re.compile(r"\.(?:[a-z]{2}|com|org|net|edu|gov|mil|int|info|biz)$")


def _is_host(part: str) -> bool:
    """Whether a title part is a host name (``"FOXNews.com"``): its site's name, whether or not
    the page says its address."""
    part = part.strip().lower()
    return _HOST_END.search(part) is not None and host_domain(part) is not None


def names_site(text: str, sitename: str | None, domain: str | None) -> bool:
    """Whether a text is the site's name: its site name, a host name, or its domain's name with
    at most a short ending (``"TownDispatch"``, ``"TownDispatch.com"``), not a headline that
    holds it (``"TownDispatch wins a press award"``)."""
    if (sitename and token_overlap(text, sitename) >= 0.9) or _is_host(text):
        return True
    if not domain:
        return False
    label = _label(domain)
    squeezed = "".join(tokens(text))
    return bool(label) and squeezed.startswith(label) and len(squeezed) - len(label) <= 4


def best_title_run(text: str, title: str, spans: Sequence[tuple[str, int, int]], sitename: str | None = None,
              domain: str | None = None, *, anywhere: bool = False, leading: bool = False,
              start: int = 0) -> tuple[int, int] | None:
    """The consecutive title parts a text is, as (first, end) part indices: the run most like it
    (token F1 at least `RUN_MIN_F1`; the earliest of equals) that does not name the site (`names_site`).
    For an ``<h1>``, only runs that are the title's start or hold most of its words count (an
    h1 that is neither is a site's logo or a section's name); ``anywhere`` lifts that. The
    title's start is its part ``start``, after the site's name that some titles begin with.
    ``leading``: only runs from the title's start, up to twice the text's words (longer ones
    are less like it), so that a title of hundreds of parts costs no more than a few.

    The run most like the text, not the first one like it: ``"python - Why is X? - Town
    Answers"`` with the h1 ``"Why is X?"`` gives ``"Why is X?"``, not ``"python - Why is X?"``,
    which is nearly as like it.

    Each run is scored from the one before it (its tokens counted as parts are added), and
    no run is scored past the length at which no words could bring its F1 to the bar: a
    keyword-stuffed title of hundreds of parts (``"shoes|cheap shoes|buy shoes|…"``) took
    seconds a page when every run was joined and counted again.
    """
    want = Counter(tokens(text))
    n_text = sum(want.values())
    if not n_text:  # no token: no run is like it (`token_overlap` is 0)
        return None
    parts = [p for p, _, _ in spans]
    part_tokens = [tokens(p) for p in parts]  # a run's tokens are its parts' (joined with a space)
    n_title = len(tokens(title))
    most_words = 2 * n_text if leading else n_title
    best, where = 0.0, None
    for i in range(1 if leading else len(parts)):
        have: Counter[str] = Counter()
        common = n_run = 0  # the run's tokens the text has (as a multiset), and all its tokens
        for j in range(i + 1, len(parts) + 1):
            for t in part_tokens[j - 1]:
                if have[t] < want[t]:
                    common += 1
                have[t] += 1
            n_run += len(part_tokens[j - 1])
            if leading and n_run > most_words:
                break
            if 2 * n_text / (n_text + n_run) < RUN_MIN_F1:  # F1 even if all the text's tokens were in it
                break
            score = 2 * common / (n_text + n_run) if n_run else 0.0  # `token_overlap`, counted as it grows
            at_start = i == 0 or (i <= start and n_run > 1)  # not "Site - Shop"'s "Shop"
            if (score >= RUN_MIN_F1 and score > best and (anywhere or at_start or 2 * n_run >= n_title)
                    and not names_site(" ".join(parts[i:j]), sitename, domain)):
                best, where = score, (i, j)
    return where


def h1_headline(title: str, spans: Sequence[tuple[str, int, int]], h1: Sequence[str], sitename: str | None = None,
                 domain: str | None = None) -> str | None:
    """The ``<h1>`` that is the title, or one or more consecutive parts of it (a site's logo h1,
    or one that is its site's name, is not).

    An ``<h1>`` that is the whole title or its start wins over one that is a later part: a
    documentation page's first ``<h1>`` may be its project's name, which ends the title. But a
    one-word ``<h1>`` at the title's start is as often the page's tag or section (``"backup -
    How to back up my system? - Town Answers"`` beside the h1 ``"Backup"``): it is the headline
    only when no other ``<h1>`` is one. A title that begins with its site's name (``"CNN.com -
    Rita growing weaker, slower - Sep 25, 2005"``) starts after it.
    """
    later = single = None
    start = 0
    while start < len(spans) - 1 and names_site(spans[start][0], sitename, domain):
        start += 1
    for head in h1:
        if token_overlap(head, title) >= 0.9:
            if len(head) <= len(title):
                # an <h1> that copies the title, the site's name at its end too ("… – Artlyst"):
                # only a part that is that name (`names_site`), not one that holds it
                kept = _without_ends(head, title_parts(head), lambda p: names_site(p, sitename, domain),
                                     lambda p: False)
                return kept if title_words(kept) >= 2 else head
            # an <h1> that holds the whole title and more ("News & Observer | newsobserver.com |
            # Players to be evaluated…" beside that title without its first part): the title,
            # without the site's names at its ends
            kept = _without_ends(title, spans, lambda p: site_like(p, sitename, domain),
                                 lambda p: site_like(p, sitename, domain))
            return kept if len(tokens(kept)) >= 2 else title
        run = best_title_run(head, title, spans, sitename, domain, start=start)
        if run is None:
            continue
        i, j = run
        found = title[spans[i][1]:spans[j - 1][2]]
        if tokens(head) == tokens(found):
            found = head
        if i <= start and title_words(found) > 1:  # words, not tokens: a Chinese headline is one token
            return found
        if i <= start:
            single = single or found
        else:
            later = later or found
    return later or single or _part_beside_site(spans, h1, sitename, domain)


def _part_beside_site(spans: Sequence[tuple[str, int, int]], h1: Sequence[str], sitename: str | None,
                      domain: str | None) -> str | None:
    """An ``<h1>`` (two words or more) that starts or ends a title part whose other words name
    the site: a theme that writes the post's title and the blog's name with no mark between
    them (``"» Books to understand the future Early Retirement Extreme: — <the blog's tagline>"``
    on earlyretirementextreme.com, beside the h1 ``"Books to understand the future"``), where no
    run of whole parts is like the h1. The other words must name the site (`names_site`): a
    part that merely shares a word with it ("Remote Full-Stack Programming Jobs" on We Work
    Remotely) is the page's own, and so is one that two ``<h1>`` lines say in turn (a headline
    set on two lines: "News Product" over "Management Certification" on newsproduct.org)."""
    lines = [tokens(a) + tokens(b) for a, b in zip(h1, h1[1:])]
    for head in h1:
        want = tokens(head)
        if len(want) < 2:
            continue
        for part, _, _ in spans:
            have = tokens(part)
            if len(have) <= len(want) or have in lines:
                continue
            if have[:len(want)] == want:
                rest = have[len(want):]
            elif have[-len(want):] == want:
                rest = have[:-len(want)]
            else:
                continue
            if names_site(" ".join(rest), sitename, domain):
                return head
    return None


#: blocks read for a headline set in a lesser heading or in bold, the headings and bold lines
#: among them tried, and the longest such text
_LEAD_BLOCKS = 400
_LEAD_TRIED = 20
_LEAD_CHARS = 300
#: the fewest words of a headline said by a plain line (a short one is as often the site's
#: logo, "THE TELEGRAPH", or a section's name, "European News")
_PLAIN_WORDS = 4


def lead_heading(title: str, blocks: Sequence[Block], sitename: str | None, domain: str | None) -> str | None:
    """The headline of a page with no ``<h1>`` to say it, when its title has more parts than it:
    the first title parts (two words or more) that an ``<h2>``–``<h6>`` or a wholly bold line
    says (``"Chelsea hoping to sign Anelka before weekend - Soccer - Sport - Belfast Telegraph"``
    beside the ``<h2>`` ``"Chelsea hoping to sign Anelka before weekend"``). Only a run from the
    title's start counts: a later part that a heading says is as often the page's section
    ("Soccer"). The first `_LEAD_TRIED` headings and bold lines are tried, each against the
    title's leading runs only (`best_title_run`'s ``leading``)."""
    spans = title_parts(title)
    if len(spans) < 2:
        return None
    tried = 0
    plain: list[Block] = []  # short unlinked lines that start as the title does, tried last
    first = next(iter(tokens(spans[0][0])), None)
    for b in blocks[:_LEAD_BLOCKS]:
        if b.hidden or len(b.text) > _LEAD_CHARS:
            continue
        rich = b.rich
        if not (b.heading_level or (rich and rich.startswith("<strong>") and rich.endswith("</strong>"))):
            if 2 * b.link_chars < len(b.text) and len(plain) < _LEAD_TRIED and _first_word(b.text) == first:
                plain.append(b)
            continue
        tried += 1
        if tried > _LEAD_TRIED:
            break
        found = _leading_run(b.text, title, spans, sitename, domain)
        if found:
            return found
    for b in plain:  # a plain line says the parts word for word, not within a sentence of its own
        found = _leading_run(b.text, title, spans, sitename, domain, _PLAIN_WORDS)
        if found and tokens(found) == tokens(b.text):
            return found
    return None


#: a class or id that names its element the headline ("article_headline", "storyTitle",
#: "entry-title", "contentheading"), not a "subheadline"; a plain "title" names as often a box's
#: or a link's
_MARKED_HEADLINE = re.compile(r"(?<!sub)headline|(?:article|story|entry|post|news|content|page)[-_ ]?"
                              r"(?:title|heading|header)(?![a-z])", re.IGNORECASE)
#: the first paragraph of prose: at least this many words, at most a quarter of its text linked
_PROSE_WORDS = 30
#: how many blocks above that paragraph a headline is looked for, and its most words
_PROSE_REACH = 8
_HEADLINE_WORDS = 20
#: the most child elements of an element read for its marks (`_marked`)
_MARK_CHILDREN = 8
#: a byline ("By Jane Roe"), a label ("Summary:"): no headline
_NOT_HEADLINE = re.compile(r"(?i:by)\b|.*:$")


def _marked(tree: etree._ElementTree, path: str, text: str) -> int:
    """How the element at ``path`` (or a parent holding nothing more than ``text``, up to two
    levels up) marks itself as the headline: 0 by microdata's ``itemprop="headline"``, 1 by a
    class or id (`_MARKED_HEADLINE`), -1 not at all. An element of more than `_MARK_CHILDREN`
    children holds more than a headline, and is not read."""
    try:
        found = tree.xpath(path)
    except etree.XPathError:  # a block of no element of its own
        return -1
    el = found[0] if isinstance(found, list) and found and isinstance(found[0], etree._Element) else None
    for _ in range(3):
        if el is None or len(el) > _MARK_CHILDREN or " ".join(" ".join(el.itertext()).split()) != text:
            break
        if "headline" in (el.get("itemprop") or "").lower():
            return 0
        if _MARKED_HEADLINE.search(f"{el.get('class') or ''} {el.get('id') or ''}"):
            return 1
        el = el.getparent()
    return -1


def prose_headline(blocks: Sequence[Block], root: etree._Element) -> str | None:
    """The headline of a page that names none (no ``<title>``, no ``<h1>``, no metadata headline:
    an archived body, a fragment of a page): the line nearest above the page's first paragraph
    of prose (`_PROSE_WORDS`), at most `_PROSE_REACH` blocks above it, that marks itself as the
    headline (`_marked`; microdata first); failing one, the heading nearest above that paragraph
    when it is the page's first heading and of its highest rank (a later or a lesser one is as
    often a section's heading or a deck). A link, a date, a byline and a label are no headline,
    and a page with no prose has none to find."""
    prose = next((i for i, b in enumerate(blocks)
                  if len(b.text.split()) >= _PROSE_WORDS and 4 * b.link_chars < len(b.text)), None)
    if prose is None:
        return None
    tree = root.getroottree()
    best: tuple[int, str] | None = None  # how it is marked (microdata wins), then the nearest
    heading: int | None = None  # the heading nearest above the prose
    plain: str | None = None  # its text, if it may be the headline
    for i in range(prose - 1, max(0, prose - _PROSE_REACH) - 1, -1):
        b = blocks[i]
        text = " ".join(b.text.split())
        fit = not (2 * b.link_chars >= len(text) or not 2 <= len(text.split()) <= _HEADLINE_WORDS
                   or _NOT_HEADLINE.match(text) or parse_date(text) or is_dateline(text))
        if b.heading_level and heading is None:
            heading, plain = i, text if fit and len(text.split()) >= 3 else None
        if fit and (how := _marked(tree, b.xpath, text)) >= 0 and (best is None or how < best[0]):
            best = (how, text)
    if best is not None:
        return best[1]
    if plain is None:
        return None
    first = next(i for i, b in enumerate(blocks) if b.heading_level)
    top = min(b.heading_level for b in blocks if b.heading_level)
    return plain if first == heading and blocks[heading].heading_level == top else None


def _first_word(text: str) -> str | None:
    """The first of ``text``'s `tokens`, found without reading the rest (a page's lines are
    looked at one by one)."""
    m = WORD.search(text.lower())
    return m.group() if m else None


def _leading_run(text: str, title: str, spans: Sequence[tuple[str, int, int]], sitename: str | None,
                 domain: str | None, least: int = 2) -> str | None:
    """The title's leading parts (``least`` words or more, not all of them) that ``text`` says."""
    run = best_title_run(text, title, spans, sitename, domain, leading=True)
    if run is None or run[1] == len(spans):  # none, or the whole title: nothing to take off
        return None
    found = title[spans[0][1]:spans[run[1] - 1][2]].strip()
    if title_words(found) >= least:
        return text if tokens(text) == tokens(found) else found
    return None


def clean_title(title: str | None, *, h1: Sequence[str] = (), sitename: str | None = None,
                domain: str | None = None) -> str | None:
    """The headline in a page title: a part matching an ``<h1>`` wins, else site-name parts go.

    ``"Using the Fetch API - Web APIs | MDN"`` with the h1 ``"Using the Fetch API"`` gives the
    h1's part; with the site name ``"MDN Web Docs"`` and no h1 it gives
    ``"Using the Fetch API - Web APIs"``. A title whose parts are all site-like is kept whole.
    """
    title = clean_value(title, 2000)
    if not title:
        return None
    spans = title_parts(title)
    parts = [p for p, _, _ in spans]
    found = h1_headline(title, spans, h1, sitename, domain)
    if found:
        return found
    if len(parts) < 2:
        return title
    # a short <h1> of a few words that neither is nor starts the title is the site's logo,
    # named at the title's end (a one-word h1 is as often the page's section: "Books")
    title_tokens = tokens(title)
    logos = [h for h in h1 if 2 <= len(tokens(h)) <= MAX_LOGO_WORDS and token_overlap(h, title) < 0.5
             and title_tokens[:len(tokens(h))] != tokens(h)]
    # a title that says its first part twice ("High Scalability - High Scalability - Post") names
    # its site there, whether or not the page gives its name or address
    first = parts[0].strip().casefold()
    doubled = first if len(parts) >= 3 and parts[1].strip().casefold() == first else None
    kept = _without_ends(title, spans, lambda p: site_like(p, sitename, domain, logos),
                         lambda p: site_like(p, sitename, domain) or p.strip().casefold() == doubled)
    return kept if len(tokens(kept)) >= 2 else title


def _without_ends(title: str, spans: Sequence[tuple[str, int, int]], at_end: Callable[[str], bool],
                  at_start: Callable[[str], bool]) -> str:
    """``title`` without the parts at its end that ``at_end`` holds for, then those at its start
    that ``at_start`` holds for, one part at least left (the title itself when none goes)."""
    lo, hi = 0, len(spans)
    while hi - lo > 1 and at_end(spans[hi - 1][0]):
        hi -= 1
    while hi - lo > 1 and at_start(spans[lo][0]):
        lo += 1
    return title if (lo, hi) == (0, len(spans)) else title[spans[lo][1]:spans[hi - 1][2]].strip()


#: permalink glyphs a heading may end with (not "#": "Learn C#"), an icon font's among them (a
#: character of Unicode's private use area, U+E000-U+F8FF: "Ansible playbooks\uf0c1")
_GLYPHS = re.compile(f"[¶§🔗⚓↩↵↑\\s\u00a0{ICON_CHARS}]+$")


#: the page's ``<h1>`` are looked for among its first this many blocks
H1_BLOCKS = 600


def h1_texts(h1: Sequence[etree._Element], blocks: Sequence[Block]) -> list[str]:
    """The page's first ``<h1>`` texts (from its blocks when given)."""
    heads = [b.text for b in blocks[:H1_BLOCKS] if b.heading_level == 1 and not b.hidden][:3]
    if not (heads or blocks):
        heads = [t for t in (clean_value("".join(el.itertext()), 500) for el in h1) if t]
    # a heading's permalink glyph ("Evolve: Shared Mutable History¶") is no part of it
    return [_GLYPHS.sub("", h) or h for h in heads]


def linked_h1(texts: Sequence[str], blocks: Sequence[Block]) -> bool:
    """Whether an ``<h1>`` of the page that says one of ``texts`` is all a link (a logo's, most often)."""
    wants = [tokens(t) for t in texts]
    return any(b.heading_level == 1 and not b.hidden and b.link_chars >= 0.9 * len(b.text) and tokens(b.text) in wants
               for b in blocks[:H1_BLOCKS])


#: a title part is its site's when at least this many of the site's other pages in the batch
#: have it, and at least half of them (as site evidence needs two other pages)
SITE_TITLE_MIN_OTHERS = 2


def site_title_parts(titles: Sequence[Sequence[str | None]]) -> list[frozenset[str]]:
    """Per page of one site (its ``<title>`` and its headline, either of which may be None),
    the parts of its titles that the site's other pages' titles share: at least
    `SITE_TITLE_MIN_OTHERS` of them and at least half of those with a title (``"Press
    Announcements - FDA approves …"``, ``"… | Everywhere"``). Such a part names the site, its
    section or its tagline, whatever the page declares; a page is never evidence for itself.
    Parts are compared case-folded."""
    keyed = [frozenset(p.strip().casefold() for t in ts if t for p, _, _ in title_parts(t)) for ts in titles]
    others = sum(1 for k in keyed if k) - 1
    counts = Counter(p for k in keyed for p in k)
    return [frozenset(p for p in k if counts[p] - 1 >= SITE_TITLE_MIN_OTHERS and 2 * (counts[p] - 1) >= others)
            if len(k) > 1 else frozenset() for k in keyed]


def site_free_headline(headline: str | None, page_title: str | None, parts: frozenset[str]) -> str | None:
    """The headline without its site's title parts (`without_site_parts`); when the headline
    is nothing but them (a blog's name in its logo's ``<h1>``, "EDDIE ROSS"), the page's
    ``<title>`` without them ("EDDIE ROSS - flower magazine" gives "flower magazine"), if that
    leaves anything."""
    if headline and parts and page_title and all(p.strip().casefold() in parts for p, _, _ in title_parts(headline)):
        rest = without_site_parts(page_title, parts)
        if rest and rest != page_title:
            return rest
    return without_site_parts(headline, parts)


def without_site_parts(title: str | None, parts: frozenset[str]) -> str | None:
    """``title`` without the site's parts (`site_title_parts`) at either end, when two words or
    more are left; else as it is, as is a title all of whose parts are the site's (a blog that
    titles every page "Name | Blog" names no post there)."""
    if not title or not parts:
        return title
    spans = title_parts(title)

    def shared(part: str) -> bool:
        return part.strip().casefold() in parts

    if all(shared(p) for p, _, _ in spans):
        return title
    kept = _without_ends(title, spans, shared, shared)
    return kept if title_words(kept) >= 2 else title


def site_titles(sites: Sequence[str | None], titles: Sequence[Sequence[str | None]]) -> list[frozenset[str]]:
    """Per page of a batch (its site, and its ``<title>`` and headline), the parts of its titles
    that its site's other pages in the batch share (`site_title_parts`); none for a page that
    names no site."""
    by_site: dict[str, list[int]] = {}
    for i, site in enumerate(sites):
        if site:
            by_site.setdefault(site, []).append(i)
    out = [frozenset[str]()] * len(sites)
    for group in by_site.values():
        if len(group) > SITE_TITLE_MIN_OTHERS:
            for i, parts in zip(group, site_title_parts([titles[i] for i in group])):
                out[i] = parts
    return out
