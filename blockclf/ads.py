"""Blocks that only label a piece of page furniture set among an article's paragraphs: an
advertisement's slot ("Advertisement", "Anzeige", "Story continues below advertisement"), a
share bar ("Share:", "Folgen auf:") or a rail of links to other stories ("Related posts:").

News and magazine pages set such a label over every ad slot, and the slots sit between the
article's paragraphs: the label is a short block inside the article's own container, with the
article's classes around it and prose on either side, so the model keeps some of them, and a
reader of the extracted text meets "Advertisement" between paragraphs. The label's words say
what it is in any layout: a block whose whole text is one of `AD_LABELS` (in any case,
punctuation aside) is removed whatever its score, with the reason ``ad-label`` in the removal
log. Only whole blocks are matched: a paragraph that mentions advertising is text.

A share bar's label is such a block too: "Share:", "Share this article", "Folgen auf:" stand
over a row of icons inside the article's header or after its last paragraph, and their icons
leave them alone as text. A block whose whole text is one of `SHARE_LABELS` is removed the same
way, with the reason ``share-label``.

So is the label over a rail of other stories ("Related posts:", "You may also like", "Lesen Sie
auch"; `RELATED_LABELS`), with the reason ``related-label``, a heading included: such a heading
heads the rail, not a section of the article. The rail's links stay to the model; it often
removed them and kept their label, which a reader then met alone at an article's end.

A shop's rail of other products is removed whole: its label ("Similar items", "People who
viewed this item also viewed", "Frequently bought together"; `SHOP_RAIL_LABELS`) and the
blocks after it in the element it opens (`rail_mask`, reason ``related-rail``). Each product
there is a linked title, a price and a seller's rating, which the model kept as a listing's
items. A news rail's label is not followed so: "Also read" and "Related content" stand inside
articles whose own text follows in the same element.

So is a prompt to sign in before taking part, set under a forum's posts or a blog's comments
("You must be logged in to post a comment", "Create an account or sign in to comment"), or
before reading on, a news site's paywall ("Subscribe now to read the latest news in your
city"), with the reason ``login-prompt``; and a shop's button beside each product of a grid
("Add to Cart", "Compare", "Quick view"; `SHOP_CONTROL_LABELS`), with the reason
``shop-control``; a control that shows or hides more of the page ("Show more", "Click to
expand...", "Reveal hidden contents"; `TOGGLE_LABELS`), with the reason ``toggle``; and a
photo's credit to its agency under the picture ("Mike Marsland/Getty Images";
`_PHOTO_CREDIT`), with the reason ``photo-credit``: the text holds no pictures.

A table of contents (list items that are each nothing but a link to a section of the page
itself, ``#synopsis``, two or more in a row) is kept whole or removed whole, as the model kept
most of its characters or not (`contents_decision`, reason ``toc-entry``): the model removed
most of them as navigation but kept one entry of eight now and then, which a reader met as a
stray link before the first section. Its title ("Contents", "Table of contents";
`TOC_LABELS`) goes when its contents do (`toc_mask`, reason ``toc-label``), which left the
title alone over the first section.

The removal log names these rules as the blocks' reasons as `Result.removed_by` records them: a
rail and a table of contents are decided whole, and each of their blocks is named; a label or
a contents' title only where the model had kept it (one it removed anyway is logged ``score``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import numpy as np

from .block import Block
from .words import SENT_END

__all__ = ["AD_LABELS", "RELATED_LABELS", "SHARE_LABELS", "SHOP_CONTROL_LABELS", "SHOP_RAIL_LABELS", "TOC_LABELS",
           "TOGGLE_LABELS",
           "contents_decision", "contents_runs", "is_ad_label", "is_toc_label", "label_kind", "label_mask",
           "rail_mask", "toc_mask"]

#: the whole text of an ad slot's label, lower-cased, punctuation read as spaces, in the
#: languages of the web's most common news sites
AD_LABELS = frozenset(label.strip() for label in """
    advertisement
    advertisements
    sponsored
    sponsored content
    ad feedback
    skip advertisement
    advertisement skip advertisement
    continue reading the main story
    advertisement continue reading the main story
    continue reading below
    advertisement continue reading below
    scroll to continue with content
    advertisement scroll to continue
    advertisement scroll to continue with content
    story continues below
    story continues below advertisement
    story continues below this ad
    article continues below
    article continues below advertisement
    article continues below this ad
    content continues below
    anzeige
    werbung
    weiterlesen nach der anzeige
    artikel wird nach der anzeige fortgesetzt
    publicité
    la suite après cette publicité
    la suite après la publicité
    publicidad
    publicidade
    continua após a publicidade
    continua depois da publicidade
    pubblicità
    advertentie
    annons
    annonce
    annonse
    mainos
    reklama
    reklame
    reklam
    реклама
    广告
    廣告
    広告
    スポンサーリンク
    광고
    """.strip().splitlines())
#: the whole text of a share bar's label, lower-cased, punctuation read as spaces: "Share",
#: "Follow us", in the languages of `AD_LABELS` ("Email", "Print" and "Tweet" are not here: a
#: contact's field and a page's own words say them too)
SHARE_LABELS = frozenset(label.strip() for label in """
    share
    share this
    share this article
    share this story
    share this post
    share this page
    share article
    share the article
    share story
    share post
    share on
    share via
    share on social media
    share with friends
    social sharing
    follow us
    follow us on
    teilen
    artikel teilen
    beitrag teilen
    folgen auf
    folgen sie uns
    partager
    partager cet article
    partager l article
    compartir
    compartir en
    compartir artículo
    condividi
    condividi su
    compartilhar
    delen
    dela
    dela artikeln
    del artikkelen
    jaa
    udostępnij
    sdílet
    поделиться
    paylaş
    分享
    分享到
    シェア
    공유
    공유하기
    """.strip().splitlines())
#: the whole text of a label over a rail of links to other stories, lower-cased, punctuation
#: read as spaces: "Related posts:", "You may also like", "Lesen Sie auch", in 14 languages (a
#: heading that says so is one too: `label_kind`)
RELATED_LABELS = frozenset(label.strip() for label in """
    related
    related post
    related posts
    related article
    related articles
    related story
    related stories
    related content
    related coverage
    related links
    related news
    related reading
    related topics
    you may also like
    you might also like
    you may also be interested in
    more stories
    recommended
    recommended for you
    recommended stories
    recommended articles
    recommended reading
    read next
    read also
    also read
    what to read next
    don t miss
    mehr zum thema
    auch interessant
    lesen sie auch
    das könnte sie auch interessieren
    ähnliche artikel
    weitere artikel
    à lire aussi
    articles liés
    articles similaires
    sur le même sujet
    noticias relacionadas
    te puede interesar
    artículos relacionados
    leggi anche
    articoli correlati
    notícias relacionadas
    leia também
    gerelateerde artikelen
    lees ook
    relaterade artiklar
    läs också
    powiązane artykuły
    похожие статьи
    читайте также
    ilgili haberler
    相关文章
    相关阅读
    相關文章
    関連記事
    관련기사
    """.strip().splitlines())
#: the whole text of a label over a shop's rail of other products ("Similar items", "Customers
#: who bought this item also bought"), as `RELATED_LABELS` are read
SHOP_RAIL_LABELS = frozenset(label.strip() for label in """
    people who viewed this item also viewed
    people also viewed
    customers also viewed
    customers who viewed this item also viewed
    customers who bought this item also bought
    customers also bought
    frequently bought together
    similar items
    similar products
    related items
    related products
    explore related items
    more like this
    seller s other items
    more from this seller
    sponsored items
    sponsored products
    recently viewed
    recently viewed items
    recently viewed products
    products you may like
    you may also like these products
    complete the look
    shop the look
    ähnliche produkte
    kunden kauften auch
    produits similaires
    productos similares
    prodotti simili
    """.strip().splitlines())
#: the whole text of a shop's control beside each product of a grid or a list: a button that
#: puts it in the cart or the comparison, or opens its quick view. The model kept them on
#: listing pages among the products' names and prices (274 "Compare" on 13 train and dev pages,
#: 40 "Add to Cart" on 3); no line of the train and dev gold texts is one. A product's state
#: ("In stock", "Sold out", "Notify me") is not one: the gold texts keep it now and then
SHOP_CONTROL_LABELS = frozenset(label.strip() for label in """
    add to cart
    add to bag
    add to basket
    add to trolley
    add to wishlist
    add to wish list
    add to favorites
    add to favourites
    add to compare
    compare
    quick view
    quickview
    quick look
    quick shop
    quickshop
    choose options
    select options
    in den warenkorb
    zum warenkorb hinzufügen
    ajouter au panier
    añadir al carrito
    aggiungi al carrello
    """.strip().splitlines())
#: the whole text of a control that shows or hides more of the page where it stands: a
#: section's or a list's "Show more", a forum's quote folded at "Click to expand...", a spoiler's
#: "Reveal hidden contents". A link to another page that says "Read more" is not one: listing
#: pages' gold texts keep it with its teaser
TOGGLE_LABELS = frozenset(label.strip() for label in """
    show more
    show less
    see more
    see less
    view more
    view less
    read less
    expand
    collapse
    expand all
    collapse all
    click to expand
    click to collapse
    reveal hidden contents
    show hidden contents
    show spoiler
    hide spoiler
    mehr anzeigen
    weniger anzeigen
    afficher plus
    voir plus
    ver más
    mostra di più
    """.strip().splitlines())
#: the longest label, in characters: longer blocks are not looked at
_LONGEST = max(len(label) for label in AD_LABELS | SHARE_LABELS | RELATED_LABELS | SHOP_RAIL_LABELS
               | SHOP_CONTROL_LABELS | TOGGLE_LABELS) + 8
_NOT_WORD = re.compile(r"[\W_]+")


def _label_words(text: str) -> str:
    """A label's text as the label sets hold it: lower case, punctuation read as spaces."""
    return _NOT_WORD.sub(" ", text).strip().lower()


def _text_kind(text: str) -> str | None:
    """``"ad-label"``, ``"share-label"``, ``"related-label"``, ``"shop-control"`` or ``"toggle"`` for
    a text that is nothing but such a label (in any case, punctuation read as spaces), else None."""
    if not text or len(text) > _LONGEST:
        return None
    words = _label_words(text)
    return ("ad-label" if words in AD_LABELS else "share-label" if words in SHARE_LABELS
            else "related-label" if words in RELATED_LABELS or words in SHOP_RAIL_LABELS
            else "shop-control" if words in SHOP_CONTROL_LABELS else "toggle" if words in TOGGLE_LABELS else None)


def is_ad_label(text: str) -> bool:
    """True when ``text`` is nothing but an ad slot's label (`AD_LABELS`). "Advertising" is
    not one: agencies and publishers head their services so."""
    return _text_kind(text) == "ad-label"


#: a label that sends the reader to another story ("Related: …", "READ MORE: …"), before a link
_ELSEWHERE = re.compile(r"(?:related|related (?:story|article|coverage|content)|read more|read also|also read|read|"
                        r"see also|don'?t miss|watch|watch next|recommended)\s*[:|>»]", re.IGNORECASE)
#: the share of the text after that label a link must hold
_ELSEWHERE_LINKED = 0.8


def _elsewhere(block: Block) -> bool:
    """Whether a block is a link to another story behind a label that says so ("Related: Chicago
    is America's most segregated city", the story's title linked)."""
    m = _ELSEWHERE.match(block.text)
    if m is None:
        return False
    after = block.text[m.end():].strip()
    return bool(after) and block.link_chars >= _ELSEWHERE_LINKED * len(after)


#: a prompt to sign in before taking part, a forum's or a blog's under its posts ("You must be
#: logged in to post a comment", "Create an account or sign in to comment", "Log in or register
#: to post comments", "Already have an account? Sign in here."), or before reading on, a news
#: site's paywall ("Subscribe now to read the latest news in your city", "Create an account or
#: sign in to continue with your reading experience", "Sign In or Create an Account"), the whole
#: of a block; not a call to vote or to take part in an event ("You must be registered to vote
#: by 5 October")
_LOGIN_PROMPT = re.compile(
    r"(?:you (?:must|need to|have to) (?:be )?(?:logged in|log ?in|sign(?:ed)? in|be a member|register(?:ed)?)"
    r"(?: \w+){0,4} (?:to|in order to) (?:post|leave|reply|comment|add|write)\b"
    r"|(?:please )?(?:log ?in|sign in|register|sign up|create an account|subscribe(?: now)?)"
    r"(?: (?:or|and) (?:log ?in|sign in|register|sign up|create an account|subscribe))* (?:to|in order to) "
    r"(?:post|leave|reply|add|write|comment|submit|continue|read|keep reading|unlock)\b"
    r"|(?:sign in|log ?in) (?:or|and) (?:create an account|register|sign up)$"
    r"|already have an account\?|don'?t have an account\?|sign up for a new account in our community)",
    re.IGNORECASE)
#: the longest block read as such a prompt, in characters
_PROMPT_LONGEST = 160


def _is_login_prompt(text: str) -> bool:
    """Whether a text is nothing but a prompt to sign in before taking part (`_LOGIN_PROMPT`)."""
    return len(text) <= _PROMPT_LONGEST and _LOGIN_PROMPT.match(text) is not None


#: the picture agencies and libraries a photo's credit names, after its photographer ("Mike
#: Marsland/Getty Images", "Carlos Barria / Reuters") or before ("Getty Images / Holger Leue")
_AGENCY = (r"(?:getty\s*images(?: for [\w .'’-]{2,40})?|afp via getty images|reuters|ap|ap photo|ap images"
           r"|associated press|afp|epa|epa-efe|efe|shutterstock|rex(?: features)?|istock(?:photo)?|thinkstock"
           r"|dpa|imago(?: images)?|alamy(?: stock photo)?|bloomberg|picture[- ]alliance|anadolu(?: agency)?"
           r"|xinhua|zuma(?: press)?|sipa(?: usa)?|pa (?:images|wire|media)|nurphoto|sopa images|lightrocket"
           r"|wireimage|filmmagic|corbis|ddp|keystone|ansa|kyodo|yonhap|tass|abaca(?:press)?"
           r"|the new york times)")
#: a name as a credit gives it: words of letters, dots, apostrophes and hyphens, no digits
_NAME = r"[^\W\d_][^\W\d_.'’-]*(?:[ .'’-]+[^\W\d_]+){0,6}"
#: the whole of a block that credits a photo to its agency and photographer: "Mike Marsland/Getty
#: Images", "Photo by Michael Hickey/Getty Images", "Credit: iStockphoto/Thinkstock", "Jung
#: Yeon-Je/AFP/Getty Images", "Gabe Ginsberg/Greg Doherty/Stringer/Getty Images" (names and a
#: role before the agency), "Getty Images / Holger Leue" (the name after the agency two words
#: or more: "Reuters/Ipsos" names a poll); not a sentence, nor a unit ("25mV/Pa")
_PHOTO_CREDIT = re.compile(
    rf"(?:(?:by|from|via)\s+)?(?:(?:photo(?:graph)?s?|images?|pictures?|pic|illustration|credits?|foto|bild)"
    rf"(?:\s*credits?)?\s*(?:by|via|:|：|\.\.\.)?\s*)?"
    rf"(?:{_NAME}(?:\s*/\s*{_NAME}){{0,3}}\s*/\s*{_AGENCY}(?:\s*/\s*{_AGENCY})?"
    rf"|{_AGENCY}\s*/\s*[^\W\d_]+[ .'’-]+{_NAME})\.?",
    re.IGNORECASE)
#: the longest block read as a photo's credit, in characters
_CREDIT_LONGEST = 100


def _is_photo_credit(text: str) -> bool:
    """Whether a text is nothing but a photo's credit (`_PHOTO_CREDIT`)."""
    return len(text) <= _CREDIT_LONGEST and "/" in text and _PHOTO_CREDIT.fullmatch(text.strip()) is not None


def label_kind(block: Block) -> str | None:
    """``"ad-label"`` for a block that labels an ad slot (`is_ad_label`), ``"share-label"`` for one
    that labels a share bar (its whole text one of `SHARE_LABELS`), ``"related-label"`` for one
    that labels a rail of other stories (`RELATED_LABELS`), ``"related-link"`` for a link to
    another story behind a label saying so (`_elsewhere`), ``"login-prompt"`` for a prompt to
    sign in before taking part (`_LOGIN_PROMPT`, a heading too), ``"shop-control"`` for a shop's
    button beside a product ("Add to Cart", "Compare"; `SHOP_CONTROL_LABELS`), ``"toggle"`` for a
    control that shows or hides more of the page ("Show more", "Click to expand..."; `TOGGLE_LABELS`,
    not in a table's cell), ``"photo-credit"`` for a photo's credit to its agency ("Mike
    Marsland/Getty Images"; `_PHOTO_CREDIT`), else None. A heading labels only a rail: a page's
    heading "Share" or "Sponsored" heads a section of its own, a heading "Related posts" the
    rail, and "Compare" a comparison. A table's cell labels no rail and works no shop: there
    "Recommended" and "Compare" are values ("Required | Recommended | Optional"). A block that
    ends as a sentence is no button ("Learn. Compare. Find.", each a paragraph)."""
    kind = _text_kind(block.text)
    if kind == "related-label":
        return None if block.tag in ("td", "th") else kind
    if kind is None and _is_login_prompt(block.text):  # a heading too: it heads the sign-in form
        return "login-prompt"
    if block.heading_level:
        return None
    if kind in ("shop-control", "toggle") and block.tag in ("td", "th"):
        return None
    if kind == "shop-control" and SENT_END.search(block.text.rstrip()[-1:]):  # a toggle's "..." is no sentence
        return None
    if kind is None and _is_photo_credit(block.text):
        return "photo-credit"
    return kind or ("related-link" if _elsewhere(block) else None)


def label_mask(blocks: Sequence[Block], among: np.ndarray | None = None) -> np.ndarray:
    """One flag a block: whether it labels an ad slot, a share bar or a rail of other stories, or
    links to another story behind a label (`label_kind`); only the blocks flagged in ``among``
    are looked at (the kept ones: a removed label needs no second look)."""
    if among is None:
        return np.fromiter((label_kind(b) is not None for b in blocks), bool, len(blocks))
    out = np.zeros(len(blocks), dtype=bool)
    for i in np.flatnonzero(among).tolist():
        out[i] = label_kind(blocks[i]) is not None
    return out


#: the whole text of a table of contents' title, read as `RELATED_LABELS` are
TOC_LABELS = frozenset(label.strip() for label in """
    contents
    table of contents
    on this page
    in this article
    inhaltsverzeichnis
    inhalt
    sommaire
    table des matières
    índice
    contenido
    indice
    sommario
    inhoud
    innehåll
    spis treści
    содержание
    目次
    目录
    目錄
    """.strip().splitlines())


def is_toc_label(text: str) -> bool:
    """Whether a text is nothing but a table of contents' title (`TOC_LABELS`: "Contents", "Table of
    contents", "Inhaltsverzeichnis", "目次")."""
    return len(text) <= _LONGEST and _label_words(text) in TOC_LABELS


def toc_mask(blocks: Sequence[Block], kept: np.ndarray) -> np.ndarray:
    """One flag a block: a kept table of contents' title (`is_toc_label`) whose contents, the
    block after it, are not kept. The links of a page's table of contents lead into the page
    itself and are removed as navigation, which left their title alone over the first section
    ("## Contents" on a wiki's pages, "Table of contents" on a blog's)."""
    out = np.zeros(len(blocks), dtype=bool)
    for i in np.flatnonzero(kept).tolist():
        out[i] = _toc_alone(blocks, kept, i)
    return out


def _toc_alone(blocks: Sequence[Block], kept: np.ndarray, i: int) -> bool:
    """Whether block ``i`` is a table of contents' title whose contents, the block after it, are not kept."""
    return (i + 1 == len(blocks) or not kept[i + 1]) and is_toc_label(blocks[i].text)


#: a link's target in a block's `Block.rich` (the renderers' minimal HTML: one quoting, escaped)
_HREF = re.compile(r'<a href="([^"]*)"')
#: fewest entries in a row that make a table of contents (one in-page link alone is a "jump to")
CONTENTS_MIN_ENTRIES = 2
#: least share of an entry's characters inside its link (the spaces between a link's parts,
#: "1 History", are not link text; "History, and what came after" is more than an entry)
ENTRY_LINK_SHARE = 0.8


def _is_entry(b: Block, url: str) -> bool:
    """Whether a block is a table of contents' entry: a visible list item whose text is one
    link (`ENTRY_LINK_SHARE`) to a place in the page itself (``#synopsis``, or the page's
    address ``url`` with a fragment)."""
    if b.hidden or not b.list_depth or b.n_links != 1 or b.link_chars < ENTRY_LINK_SHARE * len(b.text) or not b.rich:
        return False
    m = _HREF.search(b.rich)
    if m is None:
        return False
    doc, _, fragment = m.group(1).partition("#")
    return bool(fragment) and (not doc or doc.rstrip("/") == url)


def contents_runs(blocks: Sequence[Block], url: str | None = None) -> list[tuple[int, int]]:
    """The tables of contents among ``blocks``, as ``(start, end)`` index ranges: at least
    `CONTENTS_MIN_ENTRIES` list items in a row that each are one link to a place in the page
    (`_is_entry`; links are resolved against the page's ``<base>``, so a page may write
    its own sections with its address ``url``). A list of places in another document (a
    reading list's chapters) is no such run."""
    page = (url or "").partition("#")[0].rstrip("/")
    runs: list[tuple[int, int]] = []
    start, inside = 0, False
    for i in range(len(blocks) + 1):
        entry = i < len(blocks) and _is_entry(blocks[i], page)
        if entry and inside:
            continue
        if inside and i - start >= CONTENTS_MIN_ENTRIES:
            runs.append((start, i))
        start, inside = i, entry
    return runs


def contents_decision(blocks: Sequence[Block], kept: np.ndarray,
                      url: str | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Each table of contents (`contents_runs`) kept whole or removed whole: kept when the
    model kept at least half of its characters, else removed. Returns the blocks to keep and
    the blocks to remove. A page's contents are navigation, which the model mostly removes;
    when it kept one entry of eight, a reader met a stray link before the first section. A
    list of the points an article makes, each linked to its section, reads as the article's
    summary, and the model keeps it whole."""
    keep = np.zeros(len(blocks), dtype=bool)
    drop = np.zeros(len(blocks), dtype=bool)
    for start, end in contents_runs(blocks, url):
        chars = [len(blocks[i].text) for i in range(start, end)]
        kept_chars = sum(c for c, k in zip(chars, kept[start:end].tolist()) if k)
        (keep if 2 * kept_chars >= sum(chars) else drop)[start:end] = True
    return keep, drop


#: the first words of `SHOP_RAIL_LABELS`: a text that starts with none is no such label, which
#: saves normalising the page's every short block
_SHOP_RAIL_STARTS = tuple(sorted({label.split()[0] for label in SHOP_RAIL_LABELS}))


def _is_shop_rail_label(text: str) -> bool:
    """Whether a text is nothing but a label over a shop's rail of other products (`SHOP_RAIL_LABELS`)."""
    if len(text) > _LONGEST:
        return False
    start = 0
    while start < len(text) and not text[start].isalnum():  # what normalising drops before the first word
        start += 1
    return (text[start:start + 12].lower().startswith(_SHOP_RAIL_STARTS)
            and _label_words(text) in SHOP_RAIL_LABELS)


#: a paragraph this long, with few links, ends a rail: the page's own text goes on
_RAIL_PROSE = 200


def rail_mask(blocks: Sequence[Block]) -> np.ndarray:
    """One flag a block: whether it is part of a shop's rail of other products, the blocks after
    a label of `SHOP_RAIL_LABELS` ("Similar items", "Customers who bought this item also bought")
    inside the largest element that starts with the label, up to a heading of the label's
    level or above (a label that is a heading), or to a paragraph of the page's own prose.
    A label that is a table's cell heads no rail, nor one set inside the page's text after
    other blocks of its element."""
    out = np.zeros(len(blocks), dtype=bool)
    n = len(blocks)
    for i, b in enumerate(blocks):
        if i + 1 >= n or b.tag in ("td", "th") or not _is_shop_rail_label(b.text):
            continue
        box = _rail_box(blocks, i)
        if box is None:
            continue
        level = b.heading_level  # a label that is no heading is ended by no heading: its items may be
        for j in range(i + 1, n):
            c = blocks[j]
            if not c.xpath.startswith(box) or (level and 0 < c.heading_level <= level) or (
                    c.tag == "p" and len(c.text) >= _RAIL_PROSE and c.link_chars < 0.3 * len(c.text)):
                break
            out[j] = True
    return out


def _rail_box(blocks: Sequence[Block], i: int) -> str | None:
    """The path (with its closing ``/``) of the largest element that holds the label ``i`` and
    the block after it but no block before the label: the rail's own element."""
    steps = blocks[i].xpath.split("/")
    after = blocks[i + 1].xpath
    before = blocks[i - 1].xpath if i else None
    found = None
    for k in range(len(steps) - 1, 2, -1):
        box = "/".join(steps[:k]) + "/"
        if before is not None and before.startswith(box):
            break
        if after.startswith(box):
            found = box
    return found
