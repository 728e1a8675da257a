"""Who wrote a page and when, read from its own markup: microdata (``itemprop="author"``,
``itemprop="datePublished"``), and around the headline ``rel=author`` links, byline and author
boxes, links to author pages and links after a "by"; byline blocks (class or id tokens
``byline``/``author``) and a "By Jane Doe" line after the ``<h1>``. An author, from any source,
is cleaned to the name (`author_text`): "By", dates, job titles, agencies, contacts and
editors' credits around it are dropped."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from itertools import chain, islice

from lxml import etree

from .block import Block
from .metatext import OTHER_DATE_WORDS, clean_value, is_url, parse_date, token_overlap

__all__ = ["BY_BLOCKS_AFTER_H1", "COMMENT_LEVELS", "DATED_BYLINE_MAX_CHARS", "DATELINE_AFTER", "DATELINE_BEFORE",
           "DATELINE_MAX_CHARS", "JOB_WORDS", "MAX_BY_LINKS", "NEAR_HEADLINE_LEVELS", "NEAR_HEADLINE_MAX_ELEMENTS",
           "author_text", "by_line_author", "byline_author", "dateline", "headline_block", "is_dateline", "is_handle",
           "linked_author",
           "looks_like_name", "near_fields", "near_headline"]

#: how many levels above the first <h1> the headline's surroundings reach (its header, its article)
NEAR_HEADLINE_LEVELS = 4
#: the surroundings stop growing at this many elements, so that searching them stays cheap
NEAR_HEADLINE_MAX_ELEMENTS = 250
#: the blocks after the first <h1> looked at for a "By Jane Doe" line
BY_BLOCKS_AFTER_H1 = 5
#: the links near the headline looked at for a "by" just before them (a byline sits near the top)
MAX_BY_LINKS = 40
_BYLINE_TOKENS = frozenset({"byline", "author", "authors", "byl", "writer", "autor", "auteur"})
_MONTH = r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?"
#: a date written out in a byline: ISO, "12 March 2026", "12th March, 2026", "March 12, 2026"
_TEXT_DATE = re.compile(rf"\b(?:(?:19|20)\d\d-\d\d-\d\d|\d{{1,2}}(?:st|nd|rd|th)?\.?\s+{_MONTH},?\s+(?:19|20)\d\d"
                        rf"|{_MONTH}\s+\d{{1,2}}(?:st|nd|rd|th)?,?\s+(?:19|20)\d\d)\b", re.IGNORECASE)
#: the word before the date of a page's last change ("Updated: …", "Last modified …")
_UPDATE_LABEL = re.compile(r"\b(?:updated|modified)\b", re.IGNORECASE)
_BY_PREFIX = re.compile(r"^(?:by|from|par|von|por|door|di|av|af|autor|auteur"
                        r"|(?:written|posted|published|words|text|story|reported|reporting|analysis|commentary|"
                        r"opinion|review|interview|column|essay)\s+by)\s*:?(?:\s+|$)",
                        re.IGNORECASE)
#: an author box's heading names the author after "About" ("About Becky"); about the site or
#: its people it names no one ("About us", "About this blog")
_ABOUT_NAME = re.compile(r"^(?i:about)\s+(?!(?i:the|an?)\s)(?=[A-Z])")
_ABOUT_US = re.compile(r"^about\s+(?:us|me|this\b|our\b|the\s+(?:site|blog|company|team)\b)", re.IGNORECASE)
#: "By" in Chinese and Japanese bylines, written without a space: "作者：王乐", "本报记者 王乐文"
_CJK_BY_PREFIX = re.compile(r"^(?:(?:作者|撰文|文)\s*[：:／/]|(?:本报记者|本報記者|记者|記者)[\s：:]*)\s*")
#: an editor's credit in Chinese, "[责任编辑：杜智 PX209]", "责编：黄忆南", "选稿：许文杰": no author
_CJK_EDITOR = re.compile(r"^[\[【(（]?\s*(?:责任编辑|責任編輯|责编|責編|编辑|編輯|选稿|選稿|审核|審核|校对|校對)"
                         r"\s*[：:]")
_MONTHS = (r"(?:january|february|march|april|may|june|july|august|september|october|november|december"
           r"|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec)\.?(?!\w)")
_WEEKDAYS = r"(?:mon|tues?|wed(?:nes)?|thu(?:rs)?|fri|sat(?:ur)?|sun)(?:day)?\.?(?!\w)"
#: the weekdays of the languages whose bylines set a date after "am", "le", "el", "il"
_OTHER_WEEKDAYS = (r"(?:montag|dienstag|mittwoch|donnerstag|freitag|samstag|sonntag|lundi|mardi|mercredi|jeudi"
                   r"|vendredi|samedi|dimanche|lunes|martes|mi[ée]rcoles|jueves|viernes|s[áa]bado|domingo|luned[ìi]"
                   r"|marted[ìi]|mercoled[ìi]|gioved[ìi]|venerd[ìi]|sabato|domenica)(?!\w)")
#: what follows "on", "am", "um", "le", "el" or "il" where the word ends a name: a date or time
#: ("on 3 March", "on Monday", "on the 3rd", "am 3. März", "um 12:00", "le lundi 3 mars", "el 3
#: de marzo", "il 3 marzo") or a network ("Jane Doe on X"); elsewhere the word is the name's own
#: ("White on Rice Couple", "SARAH EL DEEB")
_DATE_NEXT = (rf"(?=\W{{0,3}}(?:\d|the\s|today|yesterday|{_MONTHS}|{_WEEKDAYS}|{_OTHER_WEEKDAYS}"
              r"|(?:twitter|x|facebook|instagram|linkedin|tiktok|youtube|mastodon|bluesky|threads)(?!\w)))")
#: a byline's name ends where a date, a separator, a second line, an editor's credit or a bio sentence starts
_NAME_END = re.compile(r"\s[-|•·–—/»]\s|[|•·»●■◆\n]|\b\d|\b(?:published|posted)(?:\W|$)|\bupdated(?:\s|$)"
                       # the desk or paper after a slash: "Eliot Caroom/The Star-Ledger", "Ed Silverman //"
                       r"|(?<=[^\W\d_])/(?=[A-Z])|\s*/+\s*$"
                       rf"|\b(?:on|am|um|le|el|il)\s{_DATE_NEXT}"
                       r"|\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?\s+\d"
                       r"|\b(?:edited|reviewed|photos?|photographs?|illustrations?|illustrated|translated|"
                       r"fact[- ]checked|additional reporting|reporting)\s+by\b"
                       r"|\s(?:is|was)\s(?:a|an|the)\s|\babout\s(?:the\s)?author\b|\bread\s+more\b"
                       # a desk's or an agency's share: "Jane Doe and agencies", "Special to The Star"
                       r"|\s(?:and|&|with)\s+(?:agencies|wires|wire\s+services|news\s+agencies)\b|\sspecial\s+to\b"
                       # a handle or a firm after an "@": "David Mráz @davidm_ai", "Nathan Lian @ Maintouch"
                       r"|\s@",
                       re.IGNORECASE)
#: where the reporter was, after the name: "Jane Doe in Karachi"; or, after a comma, the
#: sections the story is filed in: "By TPN, in News, Portugal, Business"
_PLACE = re.compile(r"(,)?\s+in\s+(?=[A-Z])")
#: the address of an author's page
_AUTHOR_HREF = re.compile(r"/(?:authors?|writers?|contributors?|columnists?|journalists?|reporters?)/[^/?#]+"
                          r"|[?&]author=[^&#]", re.IGNORECASE)
#: a link to a map: a forum member's place beside the name ("oregon, spr"), never a name
_MAP_HREF = re.compile(r"//(?:www\.)?(?:maps\.google\.|google\.[a-z.]+/maps|maps\.apple\.com|openstreetmap\.org"
                       r"|bing\.com/maps)", re.IGNORECASE)
#: a "by" that a link to the author follows
_ENDS_WITH_BY = re.compile(r"(?<!\w)(?:by|von|par|por|door)\s*:?\s*$", re.IGNORECASE)
_NOT_NAME = re.compile(r"https?://|@\w+\.\w|\bfollow\b|\bcomments?\b|\bshare\b|\bnote\b|\bview\b|\bupdated\b"
                       # a thread's counters: "11 Answers", "3 replies", "420 views"
                       r"|\banswers?\b|\brepl(?:y|ies)\b|\bviews\b|\bvotes?\b"
                       r"|\bmin(?:ute)?s?\.?\s+read\b|\w\(|\brequired\b"
                       # a footer's legal links, in a box some sites call "byline"
                       r"|\bterms\s+of\s+(?:use|service)\b|\bprivacy\b|\bcopyright\b|\brights\s+reserved\b"
                       # and the links beside them
                       r"|\bpermalink\b|\bsubscribe\b|\bbookmark\b|^\s*search\b|\badverti[sz](?:e|ing)\b"
                       # a forum's label beside a member's name ("Joined: Mar 2019")
                       r"|^\s*joined\b|\blikes?\b|\bguidelines\b"
                       # an author's feed beside the name
                       r"|\brss\b|\bfeed\b"
                       # the same links on Chinese sites: mobile version, share, follow, subscribe,
                       # bookmark, log in, sign up, comment, print
                       r"|手机版|分享|关注|订阅|收藏|登录|注册|评论|打印"
                       # what a slogan, a sentence or a price is written with: a Chinese full stop,
                       # exclamation or question mark, a doubled dash ("集艺术瑰宝，架艺术桥梁——中国艺术品网"),
                       # a currency sign ("Holiday Edition (Red & Green) $")
                       r"|[。！？$€£¥]|——"
                       # a label cut short ("Archives by Author..."), a credit whose name is elsewhere ("Written By")
                       r"|\.\.\.|…|(?<!\w)(?:written|posted|photos?)\s+by\s*:?\s*$"
                       # a date line ("Published: January 9, 2008")
                       r"|^\s*(?:published|posted)\b",
                       re.IGNORECASE)
#: a contact written after the name: "(http://ebb.org/bkuhn/)", "<ana@example.org>", a bare address
_CONTACT = re.compile(r"[(<\[]\s*(?:mailto:)?(?:https?://|www\.|[\w.+-]+@)[^)>\]]*[)>\]]"
                      r"|(?:mailto:)?[\w.+-]+@[\w-]+\.[\w.-]+|https?://\S+", re.IGNORECASE)
_ZONES = r"(?:utc|gmt|[ecmp][sd]t|bst|cest?|eest?|ist|jst|aest|aedt)"
#: the digits and marks a written date or time is made of
_DATE_MARKS = r"[\d\s.,:/|•·–—()-]"
#: the words around a time: "at 9:30 am", "on", a zone
_CLOCK_WORDS = rf"(?:at|on|am|pm|a\.m\.|p\.m\.|{_ZONES})(?!\w)"
#: a date or time a byline starts with: "2024 September 12 · Jane Doe", "12/03/2024 at 9:30 am by Jane Doe"
_LEAD_DATE = re.compile(rf"^(?:{_DATE_MARKS}|{_MONTHS}|{_WEEKDAYS}|{_CLOCK_WORDS})+", re.IGNORECASE)
#: a "by" inside a byline, the name after it: "Posted on March 3, 2024 by Jane Doe"
_INNER_BY = re.compile(r"(?:^|\s)(?:by|von|par|por|door)\s+(?=\w)", re.IGNORECASE)
#: what may stand before that "by" for the name to follow it: dates, times and the verbs around them
_BEFORE_BY = re.compile(rf"(?:{_DATE_MARKS}|{_MONTHS}|{_WEEKDAYS}|(?:posted|published|written|updated|"
                        rf"last|first|originally|story|article|entry|post|this|was|on|at|am|pm|ago|hours?|minutes?|"
                        rf"days?|weeks?|months?|years?|today|yesterday)(?!\w))*", re.IGNORECASE)
#: a part after a comma that is a job, a desk or an agency, not another name: "Jane Doe, Senior Editor"
JOB_WORDS = re.compile(r"\b(?:editor|editorial|reporter|correspondent|columnist|contributor|contributing|journalist|"
                  r"writer|producer|photographer|critic|analyst|staff|senior|chief|freelance|intern|professor|"
                  r"director|president|founder|co-founder|ceo|cto|cfo|manager|officer|fellow|researcher|engineer|head\s+of|"
                  r"developer|scientist|student|host|anchor|bureau|desk|team|news|press|agency|wire|magazine|"
                  r"newspaper|times|post|journal|tribune|herald|reuters|afp|university|college|institute|school|"
                  r"hospital|inc|ltd|llc|corp|corporation|company)s?\b", re.IGNORECASE)
#: what alone is a role or a section's name, not the author: "Staff", "Columnists"
_ROLE_ONLY = re.compile(r"(?:staff|admin|administrator|editors?|authors?|writers?|columnists?|contributors?|"
                        r"reporters?|correspondents?|journalists?|bloggers?|guest|anonymous|unknown"
                        # a forum's ranks: "Member", "Senior Member", "Moderator"
                        r"|(?:(?:senior|junior|new|full|active|registered)\s+)?(?:members?|moderators?|users?)"
                        # a label that names no one: "About the author", "Posted on", "More from"
                        r"|about\s+(?:the\s+)?authors?|(?:posted|written|published)(?:\s+(?:on|in|at))?"
                        r"|more\s+from|show\s+more|read\s+more|(?:all\s+|more\s+)?posts(?:\s+by\s+author)?|archives?"
                        # a placeholder: "No Author", "No Primary Author", "The Author", "Guest Author"
                        r"|no\s+(?:primary\s+)?authors?|the\s+authors?|(?:authors?\s+)?guest\s+(?:authors?|writers?|bloggers?|posts?)"
                        r"|anonymous\s+(?:guest|users?|authors?))",
                        re.IGNORECASE)
#: a forum's badge after a member's name: the thread's original poster ("Marty OP")
_BADGE_AFTER_NAME = re.compile(r"\s+OP$")
#: a job title written right after the name, without a comma: "Jane Doe Senior Editor", "Jeff
#: Latzke AP Sports Writer"
_JOB_AFTER_NAME = re.compile(r"\s(?:(?:ap|associated\s+press|reuters|afp|upi|cnn|bbc|mcclatchy|"
                             r"senior|chief|staff|contributing|freelance|associate|managing|executive|"
                             r"deputy|education|science|health|political|politics|business|technology|tech|sports?|"
                             r"crime|legal|arts?|music|film|food|travel|environment(?:al)?|economics|economy|"
                             r"foreign|national|world|local|medical|security|defen[cs]e|energy|climate|markets?|"
                             r"financial|finance|entertainment|fashion|style|television|tv|radio|media|digital|online|"
                             r"investigative|data|photo|video|daily|times|post|news|press|tribune|herald|journal|"
                             r"magazine)\s+)*"
                             r"(?:editor|reporter|correspondent|columnist|contributor|journalist|writer|producer|"
                             r"broadcaster)s?\b.*$", re.IGNORECASE)
#: what a job title cut off leaves at the end: a bracket left open ("Jane Doe (Our"), a verb
#: or a word joining it to the name ("Jason Ditz is", "Jane Doe and")
_LEFT_BY_A_CUT = re.compile(r"\s*[(\[][^)\]]*$|\s+(?:is|was|and|&|of|for|the)$", re.IGNORECASE)
#: what a name is written with besides letters and spaces
_NAME_PUNCT = frozenset(".,'’‘-‐()&/")


def near_headline(h1: etree._Element | None) -> list[etree._Element]:
    """The elements around the headline: its ``<h1>``'s ancestor up to `NEAR_HEADLINE_LEVELS` up.

    Bylines and dates sit next to the headline; searching its surroundings instead of the
    whole tree keeps the search cheap and keeps sidebars' and teasers' authors out.
    """
    if h1 is None:
        return []
    box = h1
    for _ in range(NEAR_HEADLINE_LEVELS):
        up = box.getparent()
        if up is None or up.tag in ("body", "html"):
            break
        if len(list(islice(up.iter(), NEAR_HEADLINE_MAX_ELEMENTS + 1))) > NEAR_HEADLINE_MAX_ELEMENTS:
            break
        box = up
    near = list(box.iter())
    # the byline may follow the headline's box rather than sit in it
    for n, sib in enumerate(box.itersiblings()):
        if n == 3:
            break
        near.extend(islice(sib.iter(), NEAR_HEADLINE_MAX_ELEMENTS // 4))
    return near


def _author_link(el: etree._Element) -> bool:
    """Whether an element is a link to its author's page: ``rel="author"``, or an address like ``/author/ana-lopez``."""
    if el.tag != "a":
        return False
    if "author" in (el.get("rel") or "").lower().split():
        return True
    return bool(_AUTHOR_HREF.search(el.get("href") or ""))


#: the most paragraphs a byline or author box holds (an author's bio box has a few)
BOX_MAX_PARAGRAPHS = 3


#: the most words a byline or author box holds (an author's bio runs to a hundred or so)
BOX_MAX_WORDS = 200


def _many_words(el: etree._Element) -> bool:
    """Whether a box holds more than `BOX_MAX_WORDS` words: a post whose paragraphs are
    parted by line breaks, not a byline."""
    n = 0
    for piece in el.itertext():
        n += len(piece.split())
        if n > BOX_MAX_WORDS:
            return True
    return False


def _text_of(el: etree._Element) -> str:
    return " ".join(" ".join(el.itertext()).split()[:40])


def _box_name(el: etree._Element) -> str | None:
    """The author named by a byline box or author link; none by a box of more than
    `BOX_MAX_PARAGRAPHS` paragraphs or `BOX_MAX_WORDS` words that does not open with "By",
    which is a whole post.

    In a box: its ``itemprop="name"``, else the links in it to author pages when there are
    several ("By <a>Ana Lopez</a> and <a>Ben Ode</a>" gives both), else its first link that
    reads as a name, else its text. An author link brings the author links beside it.
    """
    name_el = next((c for c in el.iter() if c.get("itemprop") == "name"), None)
    if name_el is not None:
        if content := name_el.get("content"):
            return author_text(content)
        # the one link to an author's page in it is the name; the rest is a tagline ("Editorial Assistant")
        linked = [a for a in islice(name_el.iter("a"), 10) if _author_link(a)]
        return author_text(_text_of(linked[0] if len(linked) == 1 else name_el))
    if ((len(list(islice(el.iter("p"), BOX_MAX_PARAGRAPHS + 1))) > BOX_MAX_PARAGRAPHS or _many_words(el))
            and not _BY_PREFIX.match(_text_of(el))):
        return None  # a post marked with its author's name ("entry-author-ana"), not a byline
    if el.tag == "a":
        parent = el.getparent()
        links = [el] if parent is None else [a for a in islice(parent.iterchildren("a"), 10) if _author_link(a)]
    else:
        # a link that reads as a sentence is the post's own ("Lets say A is a friend of B..."), not a name
        links = [a for a in islice(el.iter("a"), 20) if _few_words(text := _text_of(a)) and author_text(text)]
        if links and all(_MAP_HREF.search(a.get("href") or "") for a in links):
            return None  # a place on a map ("oregon, spr" beside a forum member's name)
        authored = [a for a in links if _author_link(a)]
        links = authored or links[:1]  # "Posted in <a>Architecture</a> By <a href=/author/lavinia>"
    if not links:
        return author_text(el.get("content") or _text_of(el))
    names: list[str] = []
    for a in links:
        name = author_text(_text_of(a))
        if name and name not in names:
            names.append(name)
    if names:
        names.extend(n for n in _co_authors(links[-1]) if n not in names)
    return ", ".join(names) or None


#: what joins an author's link to more authors written after it: "and", "with", "avec"... (not a
#: comma: what follows one is as often the author's desk or site, "<a>Jane Doe</a>, Town Sports")
_CO_AUTHORS = re.compile(r"^\s*\(?\s*(?:&|(?:and|with|avec|et|und|mit|y|e|con|com|met|en)\s)\s*", re.IGNORECASE)


def _co_authors(link: etree._Element) -> list[str]:
    """The names written after an author's link, not linked themselves: ``<a>Ana Lopez</a> and
    Ben Ode``, ``<a>Ana Lopez</a> (with Ben Ode and Cleo Park)`` (sites link only their staff's
    pages). Words that are no names ("and agencies", "with additional reporting") give none."""
    tail = (link.tail or "")[:200]
    m = _CO_AUTHORS.match(tail)
    if not m:
        return []
    rest = tail[m.end():]
    if tail.lstrip().startswith("("):
        rest = rest.split(")", 1)[0]
    name = author_text(rest)
    if not name or not looks_like_name(name) or JOB_WORDS.search(name):
        return []
    return [n.strip() for n in _NAME_JOIN.split(name) if n.strip()]


def near_fields(near: Sequence[etree._Element], want_date: bool = True
                 ) -> tuple[dict[str, str], list[etree._Element]]:
    """Author and dates near the headline from microdata, ``rel=author`` links and byline
    boxes, in that order, and the date of an element marked as one (when ``want_date``: the
    page gave none elsewhere); and the other links there, for `linked_author`."""
    found: dict[str, str] = {}
    authors: list[tuple[int, int, etree._Element]] = []
    links: list[etree._Element] = []
    for n, el in enumerate(near):
        attrib = el.attrib
        if not attrib or el.tag in ("script", "style", "meta", "link"):
            continue
        prop = attrib.get("itemprop")
        if prop in ("datePublished", "dateModified"):
            key = "date" if prop == "datePublished" else "modified"
            if key not in found:
                v = parse_date(el.get("content") or el.get("datetime") or "".join(el.itertext())[:100])
                if v:
                    found[key] = v
            continue
        if prop and "author" in prop.split():
            authors.append((0, n, el))
        elif el.tag == "a" and "author" in (attrib.get("rel") or "").lower().split():
            authors.append((1, n, el))
        else:
            marks = f"{attrib.get('class') or ''} {attrib.get('id') or ''}".lower()
            if _comment_mark(marks):  # a comment's author ("comment-author") is not the page's
                continue
            if want_date and "marked_date" not in found and "marked_modified" not in found and _date_mark(marks):
                _put_marked_date(found, el)
            if "byline" in marks:
                authors.append((2, n, el))
            elif "author" in marks and _AUTHOR_MARK.search(marks) and not _AVATAR.search(marks):
                authors.append((3, n, el))
            elif el.tag == "a":
                links.append(el)
    for _, _, el in sorted(authors, key=lambda t: t[:2])[:40]:
        if not _in_comment(el) and _put_author(found, el):
            break
    return found, links


#: "author" in class or id words as a writer, not as "authorized" or "authority" (a shop's
#: "authorized-dealer" badge)
_AUTHOR_MARK = re.compile(r"author(?!i[sz]|it)")
#: class or id words of an element that holds the page's date: "date", "post-date", "pageDate",
#: "published", "posted", "timestamp", "dateline" (not "updated")
_DATE_MARK = re.compile(r"(?:^|[^a-z])(?:[a-z]*(?<!up)date|published|posted|timestamp|dateline)(?:[^a-z]|$)")
#: words that make it another date: a change's, a person's or an event's ("moddate", "bday dtstart")
_OTHER_DATE = re.compile(r"modif|updat|bday|birth|death|dtstart|dtend|event|expir|deadline")


def _date_mark(marks: str) -> bool:
    """Whether class or id words mark the page's date (`_DATE_MARK`, not `_OTHER_DATE`); most
    elements' marks hold none of its words, which a substring test tells first."""
    return (("date" in marks or "publish" in marks or "posted" in marks or "timestamp" in marks)
            and _DATE_MARK.search(marks) is not None and not _OTHER_DATE.search(marks))


def _put_marked_date(found: dict[str, str], el: etree._Element) -> None:
    """Put the date a short element marked as a date writes (``<p class="date">November 12,
    2012</p>``, ``<span class="post-date">``) into ``found``: blogs write their post's date so,
    without ``<time>`` or metadata. A box that holds more (over 80 characters, or 12 pieces of
    text) is no date's element, and is not read through. A date after "Updated" gives the
    date of the last change (``marked_modified``, `_written_dates`), and ends the search as the
    page's date does (a teaser's date element further on is not the page's)."""
    pieces = list(islice(el.itertext(), 13))
    text = " ".join(" ".join(pieces).split())
    if len(pieces) > 12 or len(text) > 80:
        return
    published, modified = _written_dates(text)
    if published:
        found["marked_date"] = published
    if modified:
        found["marked_modified"] = modified


def _written_dates(text: str) -> tuple[str | None, str | None]:
    """The publication date and the date of the last change that a short text writes: a date
    after "Updated" or "Modified" is the change's; one before it, or with no such word, the
    publication's ("December 22, 2022 Updated: January 02, 2026")."""
    label = _UPDATE_LABEL.search(text)
    first = _TEXT_DATE.search(text, 0, label.start() if label else len(text))
    later = _TEXT_DATE.search(text, label.end()) if label else None
    return parse_date(first.group(0)) if first else None, parse_date(later.group(0)) if later else None


def _put_author(found: dict[str, str], el: etree._Element) -> bool:
    """Put the author a byline box or link names into ``found``, with a date its text gives
    ("By Ada Marsh · 12 March 2026 · 6 min read"); False when it names none."""
    name = _box_name(el)
    if not name:
        return False
    found["author"] = name
    if "date" not in found:
        m = _TEXT_DATE.search(_text_of(el))
        written = parse_date(m.group(0)) if m else None
        if written:
            found["text_date"] = written
    return True


def linked_author(found: dict[str, str], links: Sequence[etree._Element]) -> bool:
    """The author named by a link to an author's page, else by a link right after a "by"."""
    by_href = (a for a in links if _AUTHOR_HREF.search(a.get("href") or ""))
    after_by = (a for a in islice(links, MAX_BY_LINKS) if _by_before(a))
    return any(not _in_comment(el) and _put_author(found, el) for el in chain(by_href, after_by))


#: how many levels above a byline a comment's box is looked for
COMMENT_LEVELS = 5


def _comment_mark(marks: str) -> bool:
    """Whether class or id tokens mark a comment: one starts with ``comment`` (``comment``,
    ``comment-author``, ``commentlist``; not ``contributor-and-comments``, a box that holds
    the byline beside the comments' counter)."""
    marks = marks.lower()
    return "comment" in marks and _comment_token(marks.split())


def _comment_token(tokens: Iterable[str]) -> bool:
    """Whether one of an element's class or id tokens starts with ``comment``."""
    return any(t.startswith("comment") for t in tokens)


def _in_comment(el: etree._Element) -> bool:
    """Whether an element is in a comment: it or one of its `COMMENT_LEVELS` nearest ancestors
    is marked as one (`_comment_mark`: ``<li class="comment">``, ``<p class="comment-data">By
    <a>Ana</a></p>``). A comment's author is not the page's."""
    node: etree._Element | None = el
    for _ in range(COMMENT_LEVELS + 1):
        if node is None or not isinstance(node.tag, str):
            return False
        if _comment_mark(f"{node.get('class') or ''} {node.get('id') or ''}"):
            return True
        node = node.getparent()
    return False


def _text_before(el: etree._Element) -> str:
    """The text just before an element, looked for up to three levels up
    (``<span>by</span> <h3><a>Ana Lopez</a></h3>`` gives ``"by"``)."""
    node = el
    for _ in range(3):
        prev = node.getprevious()
        if prev is not None:
            text = prev.tail or ""
            if not text.strip() and isinstance(prev.tag, str):
                text = " ".join(list(islice(prev.itertext(), 50))[-3:])
            return text
        parent = node.getparent()
        if parent is None:
            return ""
        if parent.text and parent.text.strip():
            return parent.text
        node = parent
    return ""


def _by_before(el: etree._Element) -> bool:
    """Whether a "by" stands right before an element, with nothing before it but dates and
    "posted", "written"... ("Posted on 3 March by <a>", not "Portrait by <a>": a credit)."""
    before = _text_before(el)[-120:]
    m = _ENDS_WITH_BY.search(before)
    return m is not None and _BEFORE_BY.fullmatch(before[:m.start()]) is not None


def is_handle(name: str | None) -> bool:
    """Whether an author is a user name rather than a person's name: one word with a digit, an
    underscore or an ``@`` ("CC7567", "@ana_l")."""
    return name is not None and " " not in name and any(c.isdigit() or c in "_@" for c in name)


_NAME_JOIN = re.compile(r",|\s(?:and|und|et|y|e|&)\s", re.IGNORECASE)


def _few_words(text: str) -> bool:
    """Whether a text is short enough for a name: at most six words, or several names of at
    most five words each joined by commas or "and" ("Ana de la Cruz and Ben Ode")."""
    if len(text.split()) <= 6 and len(text) <= 80:
        return True
    names = _NAME_JOIN.split(text)
    return len(names) <= 6 and all(1 <= len(n.split()) <= 5 for n in names)


def author_text(text: str | None) -> str | None:
    """A plausible author name from a byline string: the "By" prefix and what follows the name dropped.

    A date or time before the name goes, as does a contact after it (a link or an e-mail
    address), an editor's or photographer's credit, a bio sentence ("... is a senior
    reporter"), and job titles or agencies after a comma ("Jane Doe, Staff Writer").
    None when what is left does not look like a name (a link, a counter, a call to action,
    a slogan or a price, mostly symbols, too long).
    """
    if not isinstance(text, str):
        return None
    # a semicolon parts names as a comma does ("ROD NORDLAND;MAYY EL SHEIKH" in a news site's <meta>)
    text = _CONTACT.sub(" ", text[:300]).replace(";", ", ").strip()
    if _CJK_EDITOR.match(text):
        return None  # an editor's credit, "责任编辑：杜智", as "Edited by" is in English
    text = _CJK_BY_PREFIX.sub("", _BY_PREFIX.sub("", text))
    if _ABOUT_US.match(text):
        return None
    text = _ABOUT_NAME.sub("", text)  # an author box's heading, "About Becky"
    if text[:1].isdigit() or _TEXT_DATE.match(text):
        rest = _LEAD_DATE.sub("", text)
        lead = len(text) - len(rest)
        if not (lead and text[lead - 1].isalnum() and rest[:1].isalnum()):  # "37signals" is a name
            text = rest
    for m in _INNER_BY.finditer(text):
        if m.start() > 0 and _BEFORE_BY.fullmatch(text[:m.start()]):
            text = text[m.end():]
        break
    if len(text.split()) > 1:  # a single word is a name or a handle ("CC7567"), kept whole
        cut = _NAME_END.search(text)
        if cut and cut.start() > 0:
            text = text[:cut.start()]
        place = _PLACE.search(text)
        # one word before it is a title's ("Stories in Focus"), unless a comma parts them
        if place and (place.group(1) or len(text[:place.start()].split()) >= 2):
            text = text[:place.start()]
    text = clean_value(text, 120)
    if not text:
        return None
    words = text.split()
    half = len(words) // 2
    if half and len(words) % 2 == 0 and [w.casefold() for w in words[:half]] == [w.casefold() for w in words[half:]]:
        text = " ".join(words[:half])  # written twice: the byline's words and a hidden copy for microformats
    if text[:1] in ("(", "[") and text[-1:] == {"(": ")", "[": "]"}[text[0]] and text.count(text[0]) == 1:
        text = text[1:-1]  # a name wholly in brackets, "(Rich Smith)"; one word so is a label: "[www]"
        if len(text.split()) < 2:
            return None
    text = _BADGE_AFTER_NAME.sub("", _BY_PREFIX.sub("", text).strip(" |,;:-–—@／").rstrip(" /"))
    parts = [p.strip() for p in text.split(",")]
    if len(parts) > 1:
        text = ", ".join(p for i, p in enumerate(parts)
                         if p and (i == 0 or not (JOB_WORDS.search(p) or _ROLE_ONLY.fullmatch(p))))
    if len(text.split()) > 2:
        # and what the cut leaves: "Jane Doe (Our Staff Reporter)", "Jason Ditz is news editor"
        text = _LEFT_BY_A_CUT.sub("", _JOB_AFTER_NAME.sub("", text)).strip(" ,") or text
    if len(text) < 2 or _NOT_NAME.search(text) or is_url(text) or len(text) > 160 or not _few_words(text):
        return None
    if _ROLE_ONLY.fullmatch(text) or _phrase(text.split()):
        return None
    if not any(c.isalpha() for c in text) or (not _LEAD_DATE.sub("", text) and any(c.isdigit() for c in text)):
        return None  # no letters, or a date alone ("Jun 2")
    odd = sum(1 for c in text if not (c.isalnum() or c.isspace() or c in _NAME_PUNCT))
    if odd > 0.2 * len(text):  # "*****Notes*****"
        return None
    return text


def byline_author(blocks: Sequence[Block]) -> str | None:
    """The first short block whose element or near ancestors are a byline or author box (not a
    comment's: ``<dt class="comment-author">Ana said...</dt>``; not the headline, in a post whose
    box is marked with its author's name, "entry-author-ana").

    The class and id words every block shares are the page's own (``<body
    class="s-author-admin">``), which mark no block; and a run of `MIN_DIRECTORY_ITEMS` list
    items marked so is a list of the site's authors (a sidebar's "Authors" widget), not a byline.
    """
    head = blocks[:400]
    shared = -1  # the page's own words, counted when a block first looks marked

    def marked(b: Block) -> bool:
        nonlocal shared
        near = b.tokens[-6:]
        if (b.hidden or len(b.text) > 120 or b.heading_level == 1 or not _BYLINE_TOKENS.intersection(near)
                or _comment_token(near) or any(_AVATAR.search(t) for t in near)):
            return False
        if shared < 0:
            shared = _shared_prefix([c.tokens for c in head if not c.hidden])
        return bool(_BYLINE_TOKENS.intersection(b.tokens[shared:][-6:]))

    i = 0
    while i < len(head):
        if not marked(head[i]):
            i += 1
            continue
        run = i + 1  # the list items marked like this one that follow it
        while (run < len(head) and head[i].tag == "li" and head[run].tag == "li"
               and head[run].parent_xpath == head[i].parent_xpath and marked(head[run])):
            run += 1
        if run - i >= MIN_DIRECTORY_ITEMS:
            i = run
            continue
        name = author_text(head[i].text) if not _MAP_HREF.search(head[i].rich or "") else None
        if name:
            return name
        i += 1
    return None


#: class words of an author's picture, whose text is the initials drawn in its place ("NB")
_AVATAR = re.compile(r"avatar|initials")
#: this many list items in a row, each marked as an author, list the site's authors
MIN_DIRECTORY_ITEMS = 5


def _shared_prefix(token_lists: Sequence[tuple[str, ...]]) -> int:
    """How many leading class and id words all the blocks share: the page's (``<html>``,
    ``<body>`` and a wrapper around everything), which say nothing of one block."""
    if not token_lists:
        return 0
    first = token_lists[0]
    n = len(first)
    for tokens in token_lists[1:]:
        k = 0
        while k < n and k < len(tokens) and tokens[k] == first[k]:
            k += 1
        n = k
        if n == 0:
            break
    return n


#: a byline block without a class: "By Jane Doe" (not "By the numbers", "By 2030, ..."), and
#: "by" in the languages whose bylines say it before the name ("Von Anna Schmidt", "Por Steven
#: Lee Myers, Keith Bradsher y Tariq Panja", "Par Jean Dupont", "Door Jan de Vries", "Av Kari
#: Nordmann", "di Mario Rossi"): the words after it must read as names (`looks_like_name`),
#: which a sentence that opens with the word ("Von Berlin aus fuhr er") does not
_BY_LINE = re.compile(r"^(?:by|written by|words by|text by|story by|posted by|published by|submitted by|"
                      r"von|por|par|door|av|af|przez|di)\s*:?\s+\S", re.IGNORECASE)
#: words a name may hold in lower case
_NAME_PARTICLES = frozenset("and und et y e de del della der den di da do dos du la le van von bin ibn al zu".split())
#: and those of an organisation's name ("Susan G. Komen for the Cure")
_ORG_WORDS = _NAME_PARTICLES | frozenset("of for the at".split())


def _lower_words(words: Sequence[str], allowed: frozenset[str] = _NAME_PARTICLES) -> int:
    """How many words start in lower case, but ``allowed`` ones (a name's particles)."""
    return sum(1 for w in words if w[:1].islower() and w.lower() not in allowed)


def _phrase(words: Sequence[str]) -> bool:
    """Whether three or more words are a phrase, not names: two of them start in lower case but
    particles and an organisation's words ("Action-packed day for car manufacturers", a dek in
    a box marked "byline"); a name may hold one ("Jane Doe, staff" has lost its job by then)."""
    return len(words) >= 3 and _lower_words(words, _ORG_WORDS) >= 2


def looks_like_name(text: str) -> bool:
    """Whether no word of a text starts in lower case but particles ("Ana de la Cruz and Ben Ode")."""
    words = text.replace(",", " ").split()
    return bool(words) and not _lower_words(words)


def by_line_author(blocks: Sequence[Block], headline: str | None = None) -> str | None:
    """A short "By Jane Doe" block among the few right after the page's first ``<h1>``, or,
    on a page with none, after the block that says the ``headline`` (`headline_block`)."""
    start = next((i for i, b in enumerate(blocks[:600]) if b.heading_level == 1 and not b.hidden), None)
    if start is None:
        start = headline_block(blocks, headline)
    if start is None:
        return None
    for b in blocks[start + 1:start + 1 + BY_BLOCKS_AFTER_H1]:
        if not b.hidden and len(b.text) <= 100 and _BY_LINE.match(b.text):
            name = author_text(b.text)
            if name and looks_like_name(name):
                return name
    return None


#: a dateline is a line of its own this short...
DATELINE_MAX_CHARS = 80
#: ...among the blocks this many before and after the headline's block
DATELINE_BEFORE, DATELINE_AFTER = 2, 5
#: what a dateline may hold beside its date: a label, a weekday, a time and its zone
#: ("Published: Monday, January 14, 2008", "Last updated at 00:11am on 14th January 2008",
#: "Posted : Sat, 29 Dec 2007 06:23:36 GMT"); a caption or a sentence that names a day does not
_DATELINE_REST = re.compile(rf"(?:{_DATE_MARKS}|{_WEEKDAYS}|{_CLOCK_WORDS}|(?:published|posted|updated|last|first|"
                            rf"originally|created|modified|date|filed)(?!\w))*", re.IGNORECASE)


def is_dateline(text: str) -> bool:
    """Whether ``text`` is a date with at most a label, a weekday and a time beside it ("Last
    Updated: Oct 29, 2012 9:03 AM ET"): a line that says when, not what."""
    return _date_alone(text, _TEXT_DATE.search(text))


def _date_alone(text: str, date: re.Match[str] | None) -> bool:
    """Whether ``text``, short, holds nothing but its ``date`` (found in it), a label, a weekday
    and a time (`_DATELINE_REST`)."""
    return (date is not None and len(text) <= DATELINE_MAX_CHARS
            and _DATELINE_REST.fullmatch(text[:date.start()] + " " + text[date.end():]) is not None)


#: a byline that gives the date beside the name is a dateline too, up to this length: "By Joel
#: Hruska on August 8, 2012 at 12:56 pm", "Posted by Shari August 9th, 2012 | 0 Comments »",
#: "Published August 7, 2023 by Nicole Burke"
DATED_BYLINE_MAX_CHARS = 120
_BYLINE_WORD = re.compile(r"\b(?:by|posted|published|submitted)\b", re.IGNORECASE)


def headline_block(blocks: Sequence[Block], headline: str | None) -> int | None:
    """The index of the block that says the ``headline``, or else of a heading much like it
    (None: no block says it, and nothing is read around it). A linked list item that says it
    (the post in a sidebar's "Recent posts", before the post itself) is taken only when no
    other block says it and no heading is much like it."""
    if not headline:
        return None
    said = [i for i, b in enumerate(blocks) if b.text == headline]
    at = next((i for i in said if not (blocks[i].tag == "li" and 2 * blocks[i].link_chars >= len(blocks[i].text))),
              None)
    if at is None:
        at = next((i for i, b in enumerate(blocks)
                   if b.heading_level and len(b.text) <= 2 * len(headline) and token_overlap(b.text, headline) >= 0.8),
                  None)
    return at if at is not None else next(iter(said), None)


#: the dash after a date that opens a story's first paragraph ("Feb. 23, 2015 -- …")
_OPENING_DASH = re.compile(r"\s*(?:--|—|–)\s")


def dateline(blocks: Sequence[Block], headline: str | None) -> tuple[str | None, str | None]:
    """The publication date (or, under "Updated", the date of the last change) that a line of
    its own near the headline gives: the date and at most a label, a weekday and a time
    (`_DATELINE_REST`), or a byline's words ("By Jane Doe on …", "Posted by …", `_BYLINE_WORD`);
    or the date that opens the story's first paragraph before a dash ("Feb. 23, 2015 -- …").
    Older news pages and many blogs write their date so, with no metadata, ``<time>`` or date
    class to mark it. The headline's block is the one that says it, or a heading much like it;
    a page whose headline no block says has no dateline."""
    at = headline_block(blocks, headline)
    if at is None:
        return None, None
    for b in blocks[max(0, at - DATELINE_BEFORE):at + DATELINE_AFTER + 1]:
        text = b.text
        if any(OTHER_DATE_WORDS.search(t) for t in b.tokens):  # a person's, an event's date
            continue
        opening = _TEXT_DATE.match(text)
        if opening and _OPENING_DASH.match(text, opening.end()):  # "Feb. 23, 2015 -- Peanut allergies have…"
            published, _ = _written_dates(text[:opening.end()])
            if published:
                return published, None
        if len(text) > DATED_BYLINE_MAX_CHARS:
            continue
        m = _TEXT_DATE.search(text)
        if m is None:
            continue
        if not (_date_alone(text, m) or _BYLINE_WORD.search(text)):
            continue
        published, modified = _written_dates(text)
        if published or modified:
            return published, modified
    return None, None
