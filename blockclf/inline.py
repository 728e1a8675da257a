"""A block's inline content (`Block.rich`) written as plain text, Markdown or safe HTML.

`Block.rich` is escaped text with a few tags the segmenter itself wrote (``a``, ``code``,
``strong``, ``em``, ``del``, ``img``), so it is read here with one regular expression, never parsed
as page HTML. A block element inside an inline one can leave a tag unmatched in a block:
unmatched closing tags are dropped and open ones closed at the end.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from html import escape, unescape

from .block import Block
from .html import join_url

__all__ = ["block_html", "block_images", "block_markdown", "block_plain", "escape_line_start", "images_html",
           "images_markdown", "md_escape"]

_TAG = re.compile(r'<(/?)(a|code|strong|em|del|img|math)((?: [a-z]+="[^"]*")*)>')
_ATTR = re.compile(r'([a-z]+)="([^"]*)"')
#: what Markdown reads as markup besides backslashes, backticks, stars and brackets: a run of
#: tildes, or one beside a space or the text's edge, where it could meet the ``~~`` of struck-out
#: text (for a reader that takes tildes as GitHub's Markdown does; one inside a word or an
#: address, "/~user/", stays as it is), an underscore at a word's edge, a tag's start, a
#: character reference
_MD_OTHER = r"|~(?=~|\s|$)|(?<=~|\s)~|^~|(?<![^\W_])_|_(?![^\W_])|<(?=[A-Za-z/!?])|&(?=#?\w+;)"
_MD_INLINE = re.compile(r"([\\`*\[\]])" + _MD_OTHER)
#: `_MD_INLINE` outside a link's or an image's brackets: a bracket makes Markdown only where a
#: "]" opens a link's address, a reference or a definition ("](", "][", "]:"), ends the text
#: (the next piece may open one) or closes a task's box ("[ ]", "[x]"); "[U.S.]" in a quote and
#: "[1]" after a claim stay as the page writes them
_MD_TEXT = re.compile(r"([\\`*]|\](?=[(\[:]|$)|(?<=\[[ xX])\])" + _MD_OTHER)
#: `_MD_TEXT` for a whole line's text, which nothing follows on its line ("[1]" at its end stays)
_MD_LINE = re.compile(r"([\\`*]|\](?=[(\[:])|(?<=\[[ xX])\])" + _MD_OTHER)
#: a character that `_MD_INLINE` may escape
_MD_SPECIAL = re.compile(r"[\\`*\[\]_<&~]")
_MD_LINE_START = re.compile(r"^(\s*)([#>+=]|-(?=\s|-|$)|\d+(?=[.)](?:\s|$))|(?:`{3,}|~{3,}))")
_UNSAFE_SCHEME = re.compile(r"^\s*(?:javascript|vbscript|data|file):", re.IGNORECASE)
_URL_UNSAFE = str.maketrans({" ": "%20", "(": "%28", ")": "%29", "<": "%3C", ">": "%3E"})


def md_escape(text: str, brackets: bool = True, line: bool = False) -> str:
    """Text with the characters that would make Markdown out of it backslash-escaped; with
    ``brackets`` False (text outside a link's or an image's brackets), only the brackets that
    would (`_MD_TEXT`; `_MD_LINE` for a ``line``'s whole text)."""
    if not _MD_SPECIAL.search(text):  # most text: the escaping pattern's lookarounds cost more
        return text
    pattern = _MD_INLINE if brackets else _MD_LINE if line else _MD_TEXT
    return pattern.sub(lambda m: "\\" + m.group(0) if m.group(0) != "&" else "&amp;", text)


def escape_line_start(line: str) -> str:
    """Escape what would start a heading, quote, list item, rule or fence at a line start."""
    m = _MD_LINE_START.match(line)
    if not m:
        return line
    mark = m.group(2)
    if mark[0].isdigit():  # "1. foo" in a paragraph is not a list item
        end = m.end(2)
        return line[:end] + "\\" + line[end:]
    return m.group(1) + "\\" + line[len(m.group(1)):]


#: spans that read as one when a page closes one and opens the next at once
_JOINED = frozenset({"strong", "em", "code", "del"})
#: the marks Markdown writes a span of emphasis or struck-out text between
_MARKS = {"strong": "**", "em": "*", "del": "~~"}
#: spans of emphasis, which Markdown writes with runs of the same character
_EMPHASIS = frozenset({"strong", "em"})


def _tokens(rich: str) -> list[tuple[str, str, dict[str, str]]]:
    """``(kind, value, attrs)`` items: ``("text", unescaped text, {})`` or tags.

    A bold, italic or code span closed and opened again with nothing between (a page that
    makes each word or letter its own ``<strong>``) comes out as one span: written apart,
    Markdown would read ``**a****b**``, not bold "ab". So does a bold span beside a bold
    italic one (`_hoisted`), and a bold, italic or struck-out span opened again after a space
    (``**della visita** **del presidente**`` reads as one bold phrase, and is one); code
    spans a space apart stay two, as two names in code are.
    """
    joined: list[tuple[str, str, dict[str, str]]] = []
    # whether each close in ``joined`` matches an open: one that does not (a block cut out of
    # a span) is dropped when written, and a space's join across it would drop the next open
    closes: list[bool] = []
    depth: dict[str, int] = {}
    for tag in _hoisted(list(_raw_tokens(rich))):
        last = joined[-1] if joined else None
        if tag[0] == "open" and last is not None and last[0] == "close" and last[1] == tag[1] and tag[1] in _JOINED:
            joined.pop()  # joined: neither the close nor this open is written
            if closes.pop():
                depth[tag[1]] += 1
            continue
        if (tag[0] == "open" and tag[1] in _MARKS and len(joined) > 1 and last is not None and last[0] == "text"
                and last[1].isspace() and "\n" not in last[1] and joined[-2][:2] == ("close", tag[1]) and closes[-2]):
            del joined[-2]  # the space between goes inside the one span
            del closes[-2]
            depth[tag[1]] += 1
            continue
        matched = False
        if tag[0] == "open":
            depth[tag[1]] = depth.get(tag[1], 0) + 1
        elif tag[0] == "close" and depth.get(tag[1], 0) > 0:
            depth[tag[1]] -= 1
            matched = True
        joined.append(tag)
        closes.append(matched)
    return joined


def _raw_tokens(rich: str):
    """`_tokens` as the markup has them, nothing joined."""
    pos = 0
    for m in _TAG.finditer(rich):
        if m.start() > pos:
            yield "text", unescape(rich[pos:m.start()]), {}
        yield ("close" if m.group(1) else "open"), m.group(2), {k: unescape(v) for k, v in _ATTR.findall(m.group(3))}
        pos = m.end()
    if pos < len(rich):
        yield "text", unescape(rich[pos:]), {}


def _hoisted(tokens: list) -> list:
    """``tokens`` with a span that is all of another's text moved outside it where a span of its
    own kind opens right after the pair or closes right before it.

    ``<em><strong>x</strong></em><strong>:</strong>`` reads as ``<strong><em>x</em></strong>
    <strong>:</strong>``, whose two bold spans then join (``***x*:**``). Written as the page
    nests them, ``***x*****:**`` leaves a CommonMark reader two stray stars.
    """
    n = len(tokens)
    for i in range(n - 1):
        outer, inner = tokens[i], tokens[i + 1]
        if not (outer[0] == inner[0] == "open" and outer[1] in _EMPHASIS and inner[1] in _EMPHASIS
                and outer[1] != inner[1]):
            continue
        end = _closing(tokens, i + 1)
        if end is None or end + 1 >= n or tokens[end + 1][:2] != ("close", outer[1]):
            continue  # the inner span is not all of the outer one's text
        after = tokens[end + 2][:2] if end + 2 < n else None
        before = tokens[i - 1][:2] if i else None
        if after == ("open", inner[1]) or before == ("close", inner[1]):
            tokens[i], tokens[i + 1] = inner, outer
            tokens[end], tokens[end + 1] = tokens[end + 1], tokens[end]
    return tokens


def _closing(tokens: list, start: int) -> int | None:
    """Index of the tag that closes the span opened at ``start``."""
    kind, depth = tokens[start][1], 0
    for j in range(start, len(tokens)):
        tag = tokens[j]
        if tag[1] == kind and tag[0] != "text":
            depth += 1 if tag[0] == "open" else -1
            if depth == 0:
                return j
    return None


def _url(url: str, base: str | None) -> str:
    """``url`` resolved against the page's address, with what Markdown would misread encoded."""
    if base:
        joined = join_url(base, url)
        if joined is None:  # a malformed address ("//[x/"): the text stays, unlinked
            return ""
        url = joined
    if _UNSAFE_SCHEME.match(url):  # never a script address, whatever the page's base made of it
        return ""
    return url.translate(_URL_UNSAFE)


def _within(href: str, base: str | None) -> bool:
    """Whether a link leads into this page (``#id12``) or to the page itself: on a heading, a
    back-reference to the contents or a permalink, which the written heading drops (its ids
    are not in the output, and the page is the one being read)."""
    href = href.strip()
    if href.startswith("#"):
        return True
    if not base or not href:
        return False
    joined = join_url(base, href)
    return joined is not None and joined.split("#", 1)[0] == base.split("#", 1)[0]


def _code_span(code: str) -> str:
    """``code`` in backticks, the fence longer than any run of backticks inside."""
    code = " ".join(code.split())
    if not code:
        return ""
    runs = [len(r) for r in re.findall(r"`+", code)]
    fence = "`" * (max(runs) + 1 if runs else 1)
    pad = " " if code.startswith("`") or code.endswith("`") else ""
    return f"{fence}{pad}{code}{pad}{fence}"


def block_markdown(block: Block, base: str | None = None, images: bool = False, cell: bool = False,
                   images_after: bool = True) -> str:
    """The block's text as one line of Markdown: escaped, with links, code, bold, italic; with
    ``images``, its images, and those of the elements after it (`Block.images`) at its end
    unless ``images_after`` is False (a heading's go on a line of their own: `images_markdown`).

    A heading's bold is left out: a heading is bold already, and pages that wrap its words in
    ``<strong>`` would otherwise give ``## **Title**``; so is a heading's link into the page or
    to the page itself (`_within`). A heading's or a table cell's (``cell``)
    text does not start a line, so what would start a list there (``7.``, ``--``) is written as is.
    """
    heading = bool(block.heading_level)
    starts_line = not (cell or heading)
    after = _images(block.images, _image_markdown, base) if images and images_after and block.images else ""
    if block.rich is None:
        text = md_escape(block.text, brackets=False, line=True)
        return (escape_line_start(text) if starts_line else text) + after
    # a stack of open spans: [tag, attrs, pieces]
    stack: list[list] = [["", {}, []]]
    image = False  # whether an image was written after the last text
    for kind, value, attrs in _tokens(block.rich):
        top = stack[-1]
        if kind == "text":
            in_link = any(span[0] == "a" for span in stack)
            verbatim = top[0] == "code" or top[0] == "math"
            top[2].append(_apart(image, value if verbatim else md_escape(value, brackets=in_link)))
            image = False
        elif kind == "open":
            if heading and (value == "strong" or (value == "a" and _within(attrs.get("href", ""), base))):
                continue
            if value == "img":
                if images and (written := _image_markdown(attrs, base)):
                    top[2].append(written)
                    image = True
            elif top[0] == "code" or top[0] == "math":  # nothing nests in code or a formula's TeX
                continue
            else:
                stack.append([value, attrs or {}, []])
        elif len(stack) > 1 and stack[-1][0] == value:
            _close(stack, base)
    while len(stack) > 1:
        _close(stack, base)
    out = " ".join(_joined(stack[0][2]).split())
    return (escape_line_start(out) if starts_line else out) + after


def _apart(image: bool, text: str) -> str:
    """``text`` with a space before it where it would stand glued to an image written just
    before: a figure's caption or the paragraph after a photo reads as words of their own."""
    return " " + text if image and text[:1].isalnum() else text


def _image_src(attrs: dict[str, str], base: str | None) -> str:
    """An ``img`` tag's address as every writer writes it: resolved, made safe ("" when unusable)."""
    return _url(attrs["src"], base) if attrs.get("src") else ""


def _image_markdown(attrs: dict[str, str], base: str | None) -> str:
    """An ``img`` tag's attributes as a Markdown image ("" without a usable address)."""
    src = _image_src(attrs, base)
    return f"![{md_escape(' '.join(attrs.get('alt', '').split()))}]({src})" if src else ""


def _image_html(attrs: dict[str, str], base: str | None) -> str:
    """An ``img`` tag's attributes as a safe HTML image ("" without a usable address)."""
    src = _image_src(attrs, base)
    return f'<img src="{escape(src)}" alt="{escape(attrs.get("alt", ""))}">' if src else ""


def images_markdown(markup: str | None, base: str | None = None) -> str:
    """Images' markup (`Block.images`) as Markdown images on one line ("" when none has a
    usable address)."""
    return _images(markup, _image_markdown, base).lstrip()


def images_html(markup: str | None, base: str | None = None) -> str:
    """Images' markup (`Block.images`) as safe HTML images ("" when none has a usable address)."""
    return _images(markup, _image_html, base).lstrip()


def block_images(block: Block, before: str | None = None, base: str | None = None) -> list[dict[str, str]]:
    """The images a block writes with ``--images``, in the order written: those set before it
    (``before``, `structure.Item.images_before`), those in its text, those after it
    (`Block.images`); each as ``{"src": address, "alt": text}``, the address resolved as the
    writers resolve it (an image without a usable one is left out, as they leave it)."""
    out = []
    for markup in (before, block.rich, block.images):
        if markup and "<img " in markup:
            for kind, value, attrs in _raw_tokens(markup):
                src = _image_src(attrs, base) if kind == "open" and value == "img" else ""
                if src:
                    out.append({"src": src, "alt": " ".join(attrs.get("alt", "").split())})
    return out


def _images(markup: str | None, write: Callable[[dict[str, str], str | None], str], base: str | None) -> str:
    """Images' markup, each written by ``write`` (`_image_markdown`, `_image_html`) after a space."""
    return "".join(f" {image}" for _kind, _value, attrs in _raw_tokens(markup or "") if (image := write(attrs, base)))


def _close(stack: list[list], base: str | None) -> None:
    tag, attrs, pieces = stack.pop()
    inner = _joined(pieces)
    stripped = inner.strip()
    lead = " " if inner[:1].isspace() else ""
    trail = " " if inner[-1:].isspace() else ""
    if tag == "code":  # the spaces at its ends part it from the words around
        out = f"{lead}{_code_span(inner)}{trail}" if stripped else inner
    elif tag == "math" or not stripped or any(t[0] == tag for t in stack):
        out = inner  # a formula's TeX between its dollars; bold in bold adds no stars, nor a link in a link
    elif tag == "a":
        url = _url(attrs.get("href", ""), base)
        out = f"{lead}[{stripped}]({url}){trail}" if url else inner  # no address: the text, unlinked
        if url and not lead:
            _escape_bang(stack[-1][2])
    else:
        # what stands before it, through the spans it opens (they may be written without stars)
        before = lead or next((p[-1] for level in reversed(stack) for p in reversed(level[2]) if p), "")
        out = _emphasis(_MARKS[tag], stripped, lead, trail, before)
    stack[-1][2].append(out)


class _Emphasis(str):
    """An emphasis span that ends with punctuation, written with it inside the stars;
    ``moved`` writes it after them (or, for a mark alone, without stars), as the span must be
    when a letter follows; ``run`` is the character its marks are made of."""

    moved: str
    run: str = "*"


def _emphasis(mark: str, stripped: str, lead: str, trail: str, before: str) -> str:
    """``stripped`` (not blank) as emphasis: between ``mark``s, the spaces around it (``lead``,
    ``trail``) outside them, and the punctuation at its edges where a reader needs it
    (`_outside_punctuation`); ``before`` is the character written before it."""
    if "`" not in stripped and "](" not in stripped and all(c.isspace() or _is_punctuation(c) for c in stripped):
        # marks alone, not code or a link ("Combo**®**", "**✓**"): without stars, which beside a
        # letter or other stars no reader takes for emphasis, and which add nothing to a mark
        return f"{lead}{stripped}{trail}"
    run = mark[0]  # a star, or the tilde of struck-out text
    head, body, tail = _outside_punctuation(stripped, before, run)
    if not body:  # escaped marks alone ("a**\\` .**"), all written outside: without stars
        return f"{lead}{stripped}{trail}"
    if _glued(before, run) and _is_mark(body[0], run):  # code or a link right after a letter: "a**`x`**"
        return f"{lead}{stripped}{trail}"  # can open no emphasis there
    # a letter after its end: the punctuation moves out, or, where none can (it ends with code,
    # a link or another span's marks), the stars go
    moved = (f"{lead}{head}{body}" if not tail and _is_mark(body[-1], run)
             else f"{lead}{head}{mark}{body}{mark}{tail}")
    out = f"{lead}{head}{mark}{body}{tail}{mark}{trail}"
    if trail or out == moved:
        return out
    span = _Emphasis(out)  # how its end is written depends on what follows
    span.moved = moved
    span.run = run
    return span


def _joined(pieces: list[str]) -> str:
    """The pieces as one string, each `_Emphasis` written as what follows it requires: its
    punctuation inside the stars before a space, punctuation or the end, else after them.

    Read from the end, so that what follows each piece is known without looking ahead: a
    paragraph of thousands of bold words took seconds when each looked at all the rest."""
    out = list(pieces)
    following = ""  # the first character written after the piece at hand ("" at the end)
    for i in range(len(pieces) - 1, -1, -1):
        piece = pieces[i]
        if isinstance(piece, _Emphasis) and _glued(following, piece.run):
            out[i] = piece.moved
        if out[i]:  # as written: a span after it may have lost its marks (struck-out "a[" before a letter)
            following = out[i][0]
    return "".join(out)


#: ASCII punctuation that no Markdown written here is made of (escapes, links, images, code,
#: emphasis, struck-out text, entities): it may be written outside a span's stars (";" ends no
#: entity written here, whose "&amp;" is always followed by the rest of the page's text)
_LOOSE_ASCII = frozenset(".,:;?'\"$%#@^=+-/|")


def _is_punctuation(ch: str) -> bool:
    """Punctuation or a symbol, as CommonMark's rules for emphasis count them."""
    return unicodedata.category(ch)[0] in "PS"


def _glued(ch: str, run: str = "*") -> bool:
    """Whether stars (or the tildes of struck-out text: ``run``) beside ``ch`` open or close a
    span only on a letter's side: beside a letter or a digit, or beside more of ``run``, which
    would make one run with them; not beside a space, punctuation, or the start or end of the line."""
    return ch == run or (bool(ch) and not ch.isspace() and not _is_punctuation(ch))


def _escape_bang(pieces: list[str]) -> None:
    """Escape the ``!`` that the written pieces end with, if unescaped: a link written right
    after it ("stronger![8](…)", a footnote) would read as an image."""
    i = next((j for j in range(len(pieces) - 1, -1, -1) if pieces[j]), None)
    if i is None or isinstance(pieces[i], _Emphasis) or not pieces[i].endswith("!"):
        return
    piece = pieces[i]
    if (len(piece) - 1 - len(piece[:-1].rstrip("\\"))) % 2 == 0:
        pieces[i] = piece[:-1] + "\\!"


#: the end of a link as written here: its address holds no parenthesis (`_URL_UNSAFE`)
_LINK_END = re.compile(r"\]\([^()\s]*\)$")


def _is_mark(ch: str, run: str = "*") -> bool:
    """Punctuation or a symbol, but the character of the span's own marks (``run``): a star
    beside stars makes one run with them, and a star beside tildes is a mark like any other."""
    return ch != run and _is_punctuation(ch)


def _is_loose_punctuation(ch: str, also: str = "") -> bool:
    return (ch in _LOOSE_ASCII or ch in also) if ch.isascii() else _is_punctuation(ch)


def _outside_punctuation(text: str, before: str, run: str = "*") -> tuple[str, str, str]:
    """``text``, to be written inside emphasis, as what goes before the opening stars, what
    goes inside, and what may go after the closing ones; ``before`` is the character the
    opening stars follow ("" at the start of the line or of the span around).

    CommonMark closes emphasis right after punctuation only before a space or more
    punctuation, and opens it right before punctuation only after them: Chinese bold that ends
    a sentence inside a paragraph, written ``**…商船。**至今``, reads as four stray stars, and
    so does a price in bold right after a word, ``Only**$209**``. Punctuation or a symbol that
    starts the span after a letter is written before the stars (``Only$**209**``,
    ``Jenny“**推不动**”说``); what ends it is returned apart, to be written after them where a
    letter follows (``**…商船**。至今``, `_joined`). The ASCII characters that escapes, links,
    images, code and entities are made of never move (`_LOOSE_ASCII`), nor does an escaped one
    unless nothing else can: then it moves with its backslash (``**a**\\*b``, not
    ``**a\\***b``, whose stars would show)."""
    start, end = 0, len(text)
    glued = _glued(before, run)
    if glued:  # a link opens with "[", never with a parenthesis
        while start < end and _is_loose_punctuation(text[start], "()"):
            start += 1
    while end > start and (_is_loose_punctuation(text[end - 1], "(!")  # "!" opens an image only at a start
                           or (text[end - 1] == ")" and not _LINK_END.search(text, 0, end))):
        end -= 1  # a ")" that ends a link written here stays
    if end < len(text) and (len(text[:end]) - len(text[:end].rstrip("\\"))) % 2:
        end += 1  # an escaped character stays with its backslash
    # but moves with it where nothing else did and stars would stand beside it
    if glued and start == 0:
        while start + 2 < end and text[start] == "\\" and _is_punctuation(text[start + 1]):
            start += 2
    if end == len(text):
        while end - 2 > start and _is_punctuation(text[end - 1]) and _escaped(text, start, end - 1):
            end -= 2
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return text[:start], text[start:end], text[end:]


def _escaped(text: str, start: int, at: int) -> bool:
    """Whether ``text[at]`` follows an odd run of backslashes that starts at ``start`` or later."""
    i = at
    while i > start and text[i - 1] == "\\":
        i -= 1
    return (at - i) % 2 == 1


def block_html(block: Block, base: str | None = None, images: bool = False, images_after: bool = True) -> str:
    """The block's text as HTML: escaped, with only ``a``, ``code``, ``strong``, ``em``, ``del`` (and
    ``img``; `Block.images` at its end unless ``images_after`` is False, as in `block_markdown`)."""
    after = _images(block.images, _image_html, base) if images and images_after and block.images else ""
    if block.rich is None:
        return escape(block.text, False) + after
    heading = bool(block.heading_level)
    out: list[str] = []
    # each open tag: its name, where it was written in ``out`` (None: not written) and what
    # was written before it: a span that closes with nothing since is left out, as Markdown
    # leaves it (a link around an image not written, an empty <strong>): a link or code needs
    # something visible in it, emphasis and struck-out text a word (Markdown writes a bold
    # period or dash as the mark alone)
    open_tags: list[tuple[str, int | None, int]] = []
    visible = worded = 0  # pieces written so far with something to see, with a letter or digit
    # where a space goes if a word follows an image written since the last text: after the
    # image and the tags it closes, before any it opens (no "<strong> Bold")
    space_at: int | None = None

    def empty(tag: str, seen: int) -> bool:
        return (worded if tag in _MARKS else visible) == seen

    for kind, value, attrs in _tokens(block.rich):
        if kind == "text":
            if space_at is not None and value[:1].isalnum():
                out.insert(space_at, " ")
            out.append(escape(value, False))
            visible += not value.isspace()
            worded += any(c.isalnum() for c in value)
            space_at = None
        elif kind == "open":
            if value == "img":
                if images and (written := _image_html(attrs, base)):
                    out.append(written)
                    visible += 1
                    worded += 1
                    space_at = len(out)
            elif value == "math":  # a formula's TeX: its text, between its dollars
                open_tags.append((value, None, visible))
            elif value == "a":
                href = "" if heading and _within(attrs.get("href", ""), base) else _url(attrs.get("href", ""), base)
                if href and any(t == "a" and at is not None for t, at, _ in open_tags):
                    href = ""  # a link in a link is no HTML: the outer one stands
                # no usable address: the text, unlinked
                open_tags.append((value, len(out) if href else None, visible))
                if href:
                    out.append(f'<a href="{escape(href)}">')
            else:
                open_tags.append((value, len(out), worded if value in _MARKS else visible))
                out.append(f"<{value}>")
        elif open_tags and open_tags[-1][0] == value:
            _tag, at, seen = open_tags.pop()
            if at is not None and empty(value, seen):
                out[at] = ""  # nothing to read in it: neither tag is written
            elif at is not None:
                out.append(f"</{value}>")
                if space_at == len(out) - 1:
                    space_at = len(out)
    for t, at, seen in reversed(open_tags):
        if at is not None and empty(t, seen):
            out[at] = ""
        elif at is not None:
            out.append(f"</{t}>")
    html = "".join(out)
    return (html if block.tag == "pre" else " ".join(html.split())) + after


def block_plain(block: Block) -> str:
    """The block's text without page furniture; code line for line as the page shows it."""
    if block.rich is None:
        return block.text
    text = "".join(value for kind, value, _ in _raw_tokens(block.rich) if kind == "text")  # spans do not matter
    return text if block.tag == "pre" else " ".join(text.split())
