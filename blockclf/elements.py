"""What an element is to a reader, told from its tag and attributes before its text is read.

A browser shows some elements to nobody (``hidden``, an inline ``display: none``, text moved
off screen for screen readers), lays some over the page until dismissed (a consent manager's
dialog, a site's notice), and draws some inside the content that say nothing of it (heading
anchors, copy buttons, line numbers, forum badges). The segmenter asks these questions of
every element, so the answers are remembered per class string, which pages repeat on most
of their elements. It also asks which language a code block is marked with.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from itertools import islice
from typing import Final

from lxml import etree

__all__ = ["ANCHOR_GLYPHS", "BADGE_CLASSES", "CONSENT", "CONSENT_CLASSES", "CONSENT_IDS", "DOT", "EDIT_LINK_CLASSES",
           "FURNITURE_CLASSES", "ICON", "NOTICE", "NOTICE_IDS", "SCREEN_READER_CLASSES", "SKIP_TAGS", "class_tokens",
           "code_lang", "image_source", "is_anchor_glyph", "is_badge", "is_edit_link", "is_furniture",
           "is_furniture_button", "is_hidden", "is_hidden_dialog", "is_small_image", "is_top_link", "overlay_kind"]

#: elements whose content a browser never shows as text
SKIP_TAGS: Final = frozenset(
    "script style template title svg math object embed canvas audio video map datalist iframe".split()
)
_TOKEN_SPLIT: Final = re.compile(r"[^a-z0-9]+")
_HIDDEN_STYLE: Final = re.compile(r"display\s*:\s*none|visibility\s*:\s*hidden", re.IGNORECASE)
#: a class word naming what a page shows only while the pointer rests on something: a tooltip's or a
#: popover's text, a hover card ("tooltiptext", "tooltip-content", "popover-body", "hovercard",
#: "rollover-people-block"). Written inside a paragraph, it would be read into the sentence
#: ("Rep. Ilhan Omar Ilhan Omar Hillicon Valley: ... (D-Minn.)"); the word for the trigger
#: ("tooltip", "rollover-people-link") is not one of them
_HOVER_WORD: Final = re.compile(r"[\w-]*?(?:tool-?tip[-_]?(?:text|content|body|inner)|popover[-_]?(?:content|body)"
                                r"|hover-?card|rollover[\w-]*?[-_](?:block|card|content|box))$", re.IGNORECASE)
#: the class names of the common frameworks for text shown to screen readers only ("Skip to content",
#: "Search for:", "opens in a new tab"; eBay's design system names it "clipped" and writes each price,
#: date and label twice, once for the eye and once in it): off-screen for a sighted reader, so not the
#: page's text (class names match case-sensitively, as CSS matches them)
SCREEN_READER_CLASSES: Final = frozenset(
    """sr-only sr-only-focusable visually-hidden visually-hidden-focusable visuallyhidden u-visually-hidden
    screen-reader-text screen-reader-only show-for-sr element-invisible a11y-hidden clipped""".split()
)
#: the same names as sites and design systems spell and prefix them ("u-srOnly", "usa-sr-only",
#: "o-header__visually-hidden", BBC's "off-screen", "go-vh"): a class word ending in one, whole or
#: after a "-" or "_" ("vh" only after one)
_SCREEN_READER_ENDINGS: Final = tuple(
    """sr-only sronly srOnly visually-hidden visuallyhidden visuallyHidden hidden-visually hiddenvisually
    hiddenVisually screen-reader screenreader screen-reader-text screenreader-text screen-reader-only
    screenreader-only screenReader screenReaderOnly screenReaderText sr-text off-screen offscreen offScreen
    visible-sr assistive-text -vh _vh""".split()
)
#: a word ending in one of `_SCREEN_READER_ENDINGS` where a word boundary allows; never a responsive
#: or state variant ("md:sr-only", "focus:not-sr-only"), which shows the text at some size or state
_SCREEN_READER_WORD: Final = re.compile(
    r"^(?![^:]*:)(?!(?:.*-)?not-)(?:(?:.*[-_])?(?:"
    + "|".join(re.escape(e) for e in _SCREEN_READER_ENDINGS if e[0] not in "-_") + r")|.*[-_]vh)$")
#: the roots of the dialogs common consent managers put over a page (cookie banners, their settings):
#: OneTrust, Cookiebot, Usercentrics, Didomi, Quantcast, TrustArc, CookieYes/CookieLawInfo, Complianz,
#: Fides, Ensighten, iubenda, Borlabs, Cookie Script, Moove GDPR, Cookie Notice, CookieFirst, Termly,
#: Civic (ids, lower-cased)
CONSENT_IDS: Final = frozenset(
    """onetrust-consent-sdk onetrust-banner-sdk onetrust-pc-sdk cybotcookiebotdialog usercentrics-root didomi-host
    qc-cmp2-container truste-consent-track cookie-law-info-bar clisettingspopup cmplz-cookiebanner-container
    fides-overlay ensnotifybanner ensmodalwrapper iubenda-cs-banner borlabscookiebox cookiescript_injected
    moove_gdpr_cookie_info_bar moove_gdpr_cookie_modal cookie-notice cookie-consent cookie_notice cookieconsent
    cookie-banner cookies-banner gdpr-banner cookiefirst-root termly-code-snippet-support ccc""".split()
)
#: the same by class: OneTrust's older banner, Osano's cookieconsent, Drupal's EU Cookie Compliance,
#: Complianz, CookieLawInfo, CookieYes, Fides, Klaro, and the names sites give their own banners; and
#: the placeholders Sourcepoint and Borlabs show where an embed waits for consent ("External content
#: not available: your privacy settings prevent..."), once for every tweet or chart of an article
CONSENT_CLASSES: Final = frozenset(
    """optanon-alert-box-wrapper cc-window eu-cookie-compliance-banner cmplz-cookiebanner cli-modal
    cky-consent-container cky-modal fides-overlay klaro cookiefirst-root cookie-notice cookie-banner cookie-bar
    cookie-consent sourcepoint__social-placeholder brlbs-cmpnt-content-blocker""".split()
)
#: elements that hold a page, whatever their names say (a ``cookie-banner`` class on ``<body>`` while one shows)
_NEVER_CONSENT: Final = frozenset(("html", "body", "main", "article"))
_DIALOG_ROLES: Final = frozenset(("dialog", "alertdialog"))
#: ids of the notices a site lays over every page until a reader dismisses it: Discourse's staff
#: banner (an announcement, a survey), which no benchmark gold keeps; read as hidden text
NOTICE_IDS: Final = frozenset(("banner-content",))
_CONSENT_LABEL: Final = re.compile(r"cookie|consent|privacy", re.IGNORECASE)
#: nodes looked at to tell a screen-reader label that stands alone from one beside visible text
_MAX_NODES_READ: Final = 64
#: answers remembered per class string (or class and id), up to this many each
_TOKEN_CACHE_SIZE: Final = 50_000
#: class/id strings longer than this are not cached: 50,000 of them could hold gigabytes
_CACHED_CHARS: Final = 200
_TOKEN_CACHE: Final[dict[tuple[str | None, str | None], tuple[str, ...]]] = {}
_FURNITURE_CACHE: Final[dict[str, bool]] = {}
_UNSEEN_CACHE: Final[dict[str, bool]] = {}
_BADGE_CACHE: Final[dict[str, bool]] = {}
#: the classes MediaWiki gives the "[edit]" link after a section's heading: a control for the
#: site's editors, never text
EDIT_LINK_CLASSES: Final = frozenset(("mw-editsection", "editsection"))
_EDIT_LINK_CACHE: Final[dict[str, bool]] = {}
_CONSENT_CACHE: Final[dict[str, bool]] = {}
#: the member badges forum software sets beside each post ("Joined", "Messages", "Reaction score",
#: "Posts", rank titles: XenForo, Invision, phpBB), furniture even where they are headings or lists
BADGE_CLASSES: Final = frozenset(
    """message-userextras message-usertitle userbanner cauthorpane_info
    profile-rank profile-posts profile-joined profile-custom-field""".split()
)
#: classes of page furniture inside content: heading anchors, copy buttons, code line numbers,
#: code-block language labels, the "Click to expand..." and "Expand" toggles of forum quotes, the
#: count of readers' clicks a forum writes after a post's link ("the survey here 28"), badges
FURNITURE_CLASSES: Final = frozenset(
    """headerlink anchorjs-link anchor-link heading-anchor header-anchor linenos lineno linenodiv
    gutter rouge-gutter line-numbers-rows copybtn copybutton copy-button copy-code-button
    clipboard-button language-name example-header bbcodeblock-expandlink ipstruncate_more clicks""".split()
) | BADGE_CLASSES
_BUTTON_LABELS: Final = frozenset(("", "copy", "copied", "copied!", "copy code", "copy to clipboard", "run",
                                   "reset", "edit", "try it"))
#: texts of in-page links that are furniture: heading anchors, footnote back-links
ANCHOR_GLYPHS: Final = frozenset("¶ # § 🔗 ⚓ ↩ ↵ ^ ↑".split())
#: what a link back to the top of the page says (`is_top_link`), in the languages most common on
#: the web, with any arrow or caret around it
_TOP_LINK: Final = re.compile(
    r"[\s↑⇧⬆▲△^⌃︿]*(?:(?:back|return|go|jump|scroll|skip)?\s*(?:up\s*)?to\s+(?:the\s+)?top(?:\s+of\s+(?:the\s+)?page)?"
    r"|top(?:\s+of\s+(?:the\s+)?page)?|page\s+top|(?:zurück\s+)?nach\s+oben|zum\s+seitenanfang|seitenanfang"
    r"|retour\s+en\s+haut|vers\s+le\s+haut|haut\s+de\s+(?:la\s+)?page|(?:volver|ir)\s+arriba"
    r"|torna\s+(?:su|all'inizio)|(?:terug\s+)?naar\s+boven|till\s+toppen|do\s+góry|наверх"
    r"|ページ(?:の)?(?:トップ|先頭)(?:へ)?(?:戻る)?|トップへ戻る|(?:回到|返回)顶部)[\s↑⇧⬆▲△^⌃︿]*",
    re.IGNORECASE)
#: the most pixels an image may be drawn across (either way) and still be an icon, a rule or a
#: tracking pixel: RSS and share buttons (16, 20), one-pixel spacers and lines
SMALL_IMAGE_PX: Final = 24
#: a length in pixels as a ``width``/``height`` attribute or an inline style gives it ("16", "16px")
_PX: Final = re.compile(r"\s*(\d+)\s*(?:px)?\s*$", re.IGNORECASE)
#: width and height attributes that give a responsive picture's shape, not its size
_ASPECT_RATIOS: Final = frozenset(((16, 9), (9, 16), (4, 3), (3, 4), (3, 2), (2, 3), (16, 10), (21, 9), (5, 4), (4, 5)))
_STYLE_SIZE: Final = re.compile(r"(?:^|;)\s*(width|height)\s*:\s*(\d+)\s*px", re.IGNORECASE)
#: a code block's language as its class names it, surest first: ``language-js``/``lang-js`` (the
#: HTML standard's convention, and Prism's, highlight.js's, Rouge's); then the highlighters'
#: own: Sphinx's ``highlight-python``, GitHub's ``highlight-source-python``, SyntaxHighlighter's
#: ``brush: js``, Pandoc's ``sourceCode python``, Hexo's ``highlight python``. A theme's class
#: beside them (``highlight-height language-javascript``) names no language, so the
#: highlighters' forms count only where no ``language-`` class does.
_CODE_LANGS: Final = (
    re.compile(r"(?:^|\s)(?:language|lang)-([A-Za-z0-9_+#.-]+)"),
    re.compile(r"(?:^|\s)(?:highlight-(?:source-)?|brush:\s*)([A-Za-z0-9_+#.-]+)"),
    re.compile(r"(?:^|\s)(?:sourceCode|highlight)\s+([A-Za-z0-9_+#.]+)(?=\s|$)"),
)
#: class words that name no language: a highlighter's "guess it" (Discourse's ``lang-auto``) or "leave it plain"
_NOT_LANGS: Final = frozenset(("default", "none", "text", "plain", "plaintext", "notranslate", "nohighlight",
                               "no-highlight", "source", "auto", "undefined"))


def is_hidden(el: etree._Element, attrib: dict[str, str], style: str | None) -> bool:
    """True for elements a sighted reader does not see: not rendered (``hidden``, ``aria-hidden``, inline
    ``style``, read once by the caller), moved off screen for screen readers or shown on hover only
    (`_unseen_class`).

    React's streamed server rendering is the exception to ``hidden``: a part of the page that was
    ready late arrives at the end of the body as ``<div hidden id="S:…">``, and React's script
    moves it into the place of its marker at once. Parts are put there when the page is parsed
    (`blockclf.streamed`); one whose marker is missing (often the article itself) is read where
    it arrives, in the order it arrives."""
    if "hidden" in attrib and not (el.tag == "div" and attrib.get("id", "").startswith("S:")):
        return True
    if attrib.get("aria-hidden", "").lower() == "true":
        return True
    if style and _HIDDEN_STYLE.search(style):
        return True
    classes = attrib.get("class")
    if classes and "updated" in classes and _hidden_update_date(el, classes):
        return True
    if (classes and _unseen_class(classes)) or attrib.get("role") == "tooltip":
        return not _only_text_of_parent(el)
    return el.tag == "input" and attrib.get("type", "").lower() == "hidden"


def _hidden_update_date(el: etree._Element, classes: str) -> bool:
    """A post's date of last change written right after its publication date, which the theme's
    stylesheet hides: WordPress themes write ``<time class="entry-date published">`` and at once
    ``<time class="updated">`` and show the second only when it is the first
    (``.updated:not(.published)``), so that a reader sees one date, not "March 4, 2020 May 1, 2021".
    A date of change set apart (a space or a label between, "Updated ...") is shown, and read."""
    words = classes.split()
    if "updated" not in words or "published" in words or el.tag != "time":
        return False
    before = el.getprevious()
    return (before is not None and before.tag == "time" and not before.tail
            and "published" in (before.get("class") or "").split())


#: class and id words of a panel that a page shows on a click (an accordion's answer, a tab's
#: content, a "Read more" toggle's text): hidden by state, not because it is not the page's
_PANEL_WORDS: Final = frozenset(
    "accordion accordian collapse collapsible collapsed tabpanel tabpane faq toggle expandable expander "
    "disclosure".split())
#: pairs of words that name such a panel together ("tab-pane", "tabs__panel", "faq-answer")
_PANEL_PAIRS: Final = (("tab", "pane"), ("tab", "panel"), ("tab", "content"), ("tabs", "panel"), ("tabs", "content"),
                       ("toggle", "content"), ("faq", "answer"), ("faq", "content"), ("panel", "body"),
                       ("expand", "content"))
#: words of what a page also opens on a click but which is never its text: menus, drawers, dialogs,
#: search and cart panels ("navbar-collapse" is a menu that collapses)
_NOT_PANEL: Final = frozenset(
    "nav navbar navigation menu menubar submenu megamenu dropdown flyout drawer offcanvas modal popup popover "
    "overlay tooltip search cart login signin header footer sidebar cookie consent".split())
#: a panel whose text is more than this share link text is a menu's or a rail's, not content
_PANEL_MAX_LINK_SHARE: Final = 0.5
#: nodes of a panel read to tell its link share: panels nested in panels are each read again, so a
#: page of them nested to the depth limit costs at most this many nodes a level
_PANEL_NODES_READ: Final = 2000


def is_disclosure_panel(el: etree._Element, attrib: dict[str, str], controlled: bool = False) -> bool:
    """True for a hidden element that a page shows when its reader clicks: a tab's panel
    (``role="tabpanel"``), an accordion's or a FAQ's answer, a "Show more" text (class or id
    words, `_PANEL_WORDS`, `_PANEL_PAIRS`, a word that begins with "accordion"), or what a
    control opens (``controlled``: its id is named by the ``aria-controls`` of a button that says
    whether it is expanded, or of a tab). What it holds is the page's own text behind a
    control, so it is read like visible text; not a menu, a drawer, a dialog or a search or cart
    panel (`_NOT_PANEL`), not text moved off screen for screen readers, and not a panel that
    is mostly links (a sidebar's "Most popular" tab, a menu a button opens).
    """
    if attrib.get("role") != "tabpanel":
        words = class_tokens(attrib)
        if not words or _NOT_PANEL.intersection(words):
            return False
        if not (controlled or _PANEL_WORDS.intersection(words) or any(w.startswith("accordion") for w in words)
                or any(a in words and b in words for a, b in _PANEL_PAIRS)):
            return False
    classes = attrib.get("class")
    if classes and _unseen_class(classes):
        return False
    total = links = 0
    linked: set[etree._Element] = set()  # the nodes read inside a link, whose text is link text
    for node in islice(el.iter(), _PANEL_NODES_READ):
        parent = node.getparent()
        if node is not el and node.tail:  # text after a node is its parent's
            n = len(node.tail.strip())
            total += n
            links += n if parent in linked else 0
        tag = node.tag
        if not isinstance(tag, str):
            continue
        low = tag.lower()
        if low == "a" or parent in linked:
            linked.add(node)
        if low in SKIP_TAGS or not node.text:
            continue
        n = len(node.text.strip())
        total += n
        links += n if node in linked else 0
    return total > 0 and links <= _PANEL_MAX_LINK_SHARE * total


def is_hidden_dialog(tag: str, attrib: dict[str, str]) -> bool:
    """Whether a hidden element (`is_hidden`) is a dialog: a window a script opens over the page
    on request (an ad's "Why you're seeing this ad", a cart's "Remove product?", a link's "You
    are leaving this site"), which holds none of the page's own text even where the page hides
    its content until scripts run. Read as a notice (`NOTICE`): never kept."""
    return tag == "dialog" or attrib.get("role") in _DIALOG_ROLES or attrib.get("aria-modal") == "true"


#: what `overlay_kind` finds: a consent dialog, a site's notice
CONSENT: Final = 1
NOTICE: Final = 2


def overlay_kind(tag: str, attrib: dict[str, str]) -> int:
    """`CONSENT` for the root of a cookie banner or consent settings dialog, `NOTICE` for a notice a
    site lays over its pages (`NOTICE_IDS`), else 0; both are read as hidden text: shown over the
    page until dismissed, never part of it. A consent dialog has an id or class of a common consent
    manager (`CONSENT_IDS`, `CONSENT_CLASSES`), or is a dialog whose label names cookies, consent
    or privacy; neither is ever an element that holds the page (`_NEVER_CONSENT`)."""
    if tag in _NEVER_CONSENT:
        return 0
    ident = attrib.get("id")
    if ident:
        if ident.lower() in CONSENT_IDS:
            return CONSENT
        if ident in NOTICE_IDS and tag == "div":
            return NOTICE
    classes = attrib.get("class")
    if classes and _has_class(classes, CONSENT_CLASSES, _CONSENT_CACHE, True):
        return CONSENT
    role = attrib.get("role")
    return CONSENT if role in _DIALOG_ROLES and _CONSENT_LABEL.search(attrib.get("aria-label", "")) else 0


def _only_text_of_parent(el: etree._Element) -> bool:
    """True when `el` holds all of its parent's text: a screen-reader label that stands in for an icon
    (a check mark's "Yes", a tooltip's text) is the only words there are for it, so it is read. A parent
    of more than `_MAX_NODES_READ` other nodes is too big to be an icon's wrapper (the nodes are read
    lazily, so a parent of a million children costs no more than one of a few). A ``<button>``'s
    label is the name of a control ("Add to favorites" on a heart icon), not something the page
    says: it stays hidden."""
    parent = el.getparent()
    if parent is None:
        return True
    if parent.tag == "button":
        return False
    text = parent.text
    if text and not text.isspace():
        return False
    seen = 0
    todo = [iter(parent)]
    while todo:
        node = next(todo[-1], None)
        if node is None:
            todo.pop()
            continue
        seen += 1
        if seen > _MAX_NODES_READ:
            return False
        text = node.tail
        if text and not text.isspace():
            return False
        tag = node.tag
        if node is el or not isinstance(tag, str) or tag.lower() in SKIP_TAGS:
            continue
        text = node.text
        if text and not text.isspace():
            return False
        todo.append(iter(node))
    return True


def _has_class(cls: str, names: frozenset[str], cache: dict[str, bool], fold: bool,
               also: Callable[[str], bool] | None = None) -> bool:
    """True for a class attribute naming one of ``names`` (``fold``: in any case), or with
    ``also``, a word it accepts; remembered in ``cache`` per attribute text: pages repeat a
    handful of class strings on most elements."""
    hit = cache.get(cls)
    if hit is None:
        words = (cls.lower() if fold else cls).split()
        hit = not names.isdisjoint(words) or (also is not None and any(map(also, words)))
        if len(cls) <= _CACHED_CHARS:
            if len(cache) >= _TOKEN_CACHE_SIZE:
                cache.clear()
            cache[cls] = hit
    return hit


def _unseen_class(cls: str) -> bool:
    """True for a class attribute naming text a sighted reader does not see as the page shows:
    screen-reader text (`SCREEN_READER_CLASSES` and the names that end in one) or text shown
    only on hover (`_HOVER_WORD`)."""
    return _has_class(cls, SCREEN_READER_CLASSES, _UNSEEN_CACHE, False, _unseen_word)


def _unseen_word(word: str) -> bool:
    """Whether one class word names screen-reader text or text shown on hover (`_unseen_class`)."""
    return _screen_reader_word(word) or _HOVER_WORD.match(word) is not None


def _screen_reader_word(word: str) -> bool:
    """Whether a class word names text for screen readers only (`_SCREEN_READER_WORD`); most words
    end in none of the names, which one string test tells."""
    return word.endswith(_SCREEN_READER_ENDINGS) and _SCREEN_READER_WORD.match(word) is not None


def is_furniture(cls: str) -> bool:
    """True for a class attribute that marks page furniture (`FURNITURE_CLASSES`, in any case)."""
    return _has_class(cls, FURNITURE_CLASSES, _FURNITURE_CACHE, True)


def is_edit_link(cls: str) -> bool:
    """True for a class attribute that marks a wiki section's "[edit]" link (`EDIT_LINK_CLASSES`)."""
    return "editsection" in cls and _has_class(cls, EDIT_LINK_CLASSES, _EDIT_LINK_CACHE, False)


def is_badge(cls: str) -> bool:
    """True for a class attribute that marks a forum member's badge (`BADGE_CLASSES`, in any case):
    furniture even where it holds prose."""
    return _has_class(cls, BADGE_CLASSES, _BADGE_CACHE, True)


def is_furniture_button(el: etree._Element) -> bool:
    """True for a button that works a code block (copy, run, edit) rather than saying something.

    Buttons also hold questions of FAQ accordions, tab names and names in running text, which
    are content: only these labels are furniture.
    """
    label = " ".join("".join(t for t in el.itertext() if isinstance(t, str)).split()).lower()
    return label in _BUTTON_LABELS


def is_top_link(el: etree._Element) -> bool:
    """True for a link into the page that takes a reader back to its top ("Back to top", "Top
    of page", "Nach oben", "↑ Top") and stands alone in its element: a control of the page,
    written nowhere, as a heading's anchor glyph is not. Beside other text it stays, as the
    words around it would read wrong without it ("Return to <a>top</a>", "[<a>Top</a>]")."""
    href = el.get("href")
    if href is None or not href.startswith("#") or len(el) > 3:
        return False
    text = "".join(t for t in el.itertext() if isinstance(t, str))
    if len(text) > 40 or _TOP_LINK.fullmatch(text) is None:
        return False
    parent = el.getparent()
    previous = el.getprevious()
    before = (previous.tail if previous is not None else parent.text) if parent is not None else None
    return not ((before and not before.isspace()) or (el.tail and not el.tail.isspace()))


def is_anchor_glyph(el: etree._Element) -> bool:
    """True for a link into the page whose only text is a glyph such as ``¶`` or ``#``."""
    href = el.get("href")
    return href is not None and href.startswith("#") and not len(el) and (el.text or "").strip() in ANCHOR_GLYPHS


#: `is_small_image`'s answers: an image drawn as a dot or a line (a spacer, a rule, a tracking
#: pixel), and one drawn as an icon or a button
DOT: Final = 2
ICON: Final = 1


def is_small_image(attrib: dict[str, str]) -> int:
    """`DOT` for an image the page draws at most 2 pixels wide or high, or whose file is named
    as a spacer (``spacer.gif``, ``cleardot.gif``, ``blank.png``: layout of the old web, and
    stand-ins), `ICON` for one at most `SMALL_IMAGE_PX` either way, else 0: only sizes the page
    states count (attributes or inline style, in pixels), and an image without them is taken for
    a picture, as is one whose two attributes are only its shape (``width="16" height="9"``,
    drawn at the size its style sets)."""
    src = attrib.get("src")
    if src and _may_name_spacer(src) and _SPACER_FILE.search(src):
        return DOT
    sizes = []
    for name in ("width", "height"):
        value = attrib.get(name)
        m = _PX.match(value) if value else None
        sizes.append(int(m.group(1)) if m is not None else -1)
    if (sizes[0], sizes[1]) in _ASPECT_RATIOS:
        return 0
    style = attrib.get("style")
    if style:
        sizes += [int(m.group(2)) for m in _STYLE_SIZE.finditer(style)]
    least = min((px for px in sizes if px >= 0), default=SMALL_IMAGE_PX + 1)
    if least > SMALL_IMAGE_PX:
        return 0
    return DOT if least <= 2 else ICON


def _may_name_spacer(src: str) -> bool:
    """Whether ``src`` may name a GIF or PNG file at all (`_SPACER_FILE` needs ``.gif`` or
    ``.png`` in any case): a lowercase test of the whole address is a twentieth of the search's
    cost on an image written inline, whose ``data:`` address runs to hundreds of kilobytes and
    holds no dot. ``.g`` stands for ``.gif``, whose ``i`` the search also matches as ``İ`` or ``ı``."""
    low = src.lower()
    return ".g" in low or ".png" in low


#: a GIF or PNG file named as a spacer: a word of its name says so, or the whole name does
_SPACER_FILE: Final = re.compile(
    r"(?:/|^)(?:[\w-]*?[_-])?(?:spacer|cleardot|1x1)(?:[_-][\w-]*)?\.(?:gif|png)(?:$|[?#])"
    r"|(?:/|^)(?:blank|pixel|clear|trans|transparent|invisible|grey-pixel|gray-pixel)\.(?:gif|png)(?:$|[?#])",
    re.IGNORECASE)


#: attributes where lazy-loading scripts keep an image's address until it scrolls into view
_LAZY_SOURCES: Final = ("data-src", "data-lazy-src", "data-original", "data-lazy", "data-url")
_LAZY_SETS: Final = ("data-srcset", "data-lazy-srcset", "srcset")
#: a ``srcset`` candidate's width (``480w``) or density (``2x``)
_DESCRIPTOR: Final = re.compile(r"([\d.]+)[wx]\b")


def image_source(attrib: dict[str, str]) -> str | None:
    """An image's address: its ``src``, unless that is missing or a stand-in drawn inline
    (``data:``) until a lazy-loading script swaps in the address it keeps in ``data-src`` or a
    ``srcset`` (the largest of those candidates: the picture a wide screen gets)."""
    src = (attrib.get("src") or "").strip()
    if src and src[:5].lower() != "data:":
        return src
    for name in _LAZY_SOURCES:
        value = (attrib.get(name) or "").strip()
        if value and value[:5].lower() != "data:":
            return value
    for name in _LAZY_SETS:
        srcset = attrib.get(name)
        best = _largest_candidate(srcset) if srcset else None
        if best:
            return best
    return src or None


def _largest_candidate(srcset: str) -> str | None:
    """The address of a ``srcset``'s largest candidate (the first where none states a size),
    read as browsers read it: an address runs to the next space, commas inside it included
    (image services write ``c_fill,w_320`` in their paths); a comma after the descriptors
    ends a candidate."""
    best, size = None, -1.0
    pos, end = 0, len(srcset)
    while pos < end:
        while pos < end and (srcset[pos].isspace() or srcset[pos] == ","):
            pos += 1
        start = pos
        while pos < end and not srcset[pos].isspace():
            pos += 1
        url = srcset[start:pos]
        descriptor = ""
        if url.endswith(","):
            url = url.rstrip(",")
        else:
            comma = srcset.find(",", pos)
            comma = end if comma < 0 else comma
            descriptor, pos = srcset[pos:comma], comma
        if not url or url[:5].lower() == "data:":
            continue
        m = _DESCRIPTOR.search(descriptor)
        try:
            n = float(m.group(1)) if m else 0.0
        except ValueError:
            n = 0.0
        if n > size:
            best, size = url, n
    return best


def code_lang(el: etree._Element) -> str:
    """The language a code block's element, its first child or two ancestors are marked with."""
    near = [el, *el[:1]]
    parent = el.getparent()
    if parent is not None:
        near.append(parent)
        if parent.getparent() is not None:
            near.append(parent.getparent())
    for node in near:
        if not isinstance(node.tag, str):
            continue
        lang = (node.get("data-lang") or "").lower()
        if lang and lang not in _NOT_LANGS:
            return lang
        classes = node.get("class")
        if classes:
            for pattern in _CODE_LANGS:
                for m in pattern.finditer(classes):
                    lang = m.group(1).lower()
                    if lang not in _NOT_LANGS:
                        return lang
    return ""


def class_tokens(attrib: dict[str, str]) -> tuple[str, ...]:
    """The lower-cased words of an element's class and id (``"post-body"`` gives ``post``,
    ``body``), the names the features read page furniture by."""
    cls = attrib.get("class")
    ident = attrib.get("id")
    if not cls and not ident:
        return ()
    key = (cls, ident)
    hit = _TOKEN_CACHE.get(key)  # class strings repeat across elements and pages
    if hit is None:
        raw = f"{cls or ''} {ident or ''}".lower()
        hit = tuple(t for t in _TOKEN_SPLIT.split(raw) if t)
        if len(raw) <= _CACHED_CHARS:  # a page of huge class strings must not fill memory through the cache
            if len(_TOKEN_CACHE) >= _TOKEN_CACHE_SIZE:
                _TOKEN_CACHE.clear()
            _TOKEN_CACHE[key] = hit
    return hit
