"""Blocks that only label an advertisement's slot: "Advertisement", "Anzeige", "Story continues
below advertisement".

News and magazine pages set such a label over every ad slot, and the slots sit between the
article's paragraphs: the label is a short block inside the article's own container, with the
article's classes around it and prose on either side, so the model keeps some of them, and a
reader of the extracted text meets "Advertisement" between paragraphs. The label's words say
what it is in any layout: a block whose whole text is one of `AD_LABELS` (in any case,
punctuation aside) is removed whatever its score, with the reason ``ad-label`` in the removal
log. Only whole blocks are matched: a paragraph that mentions advertising is text.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import numpy as np

from .block import Block

__all__ = ["AD_LABELS", "ad_label_mask", "is_ad_label", "labels_ad"]

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
#: the longest label, in characters: longer blocks are not looked at
_LONGEST = max(len(label) for label in AD_LABELS) + 8
_NOT_WORD = re.compile(r"[\W_]+")


def is_ad_label(text: str) -> bool:
    """True when ``text`` is nothing but an ad slot's label (`AD_LABELS`). "Advertising" is
    not one: agencies and publishers head their services so."""
    if not text or len(text) > _LONGEST:
        return False
    return _NOT_WORD.sub(" ", text).strip().lower() in AD_LABELS


def labels_ad(block: Block) -> bool:
    """True for a block that labels an ad slot: its whole text an ad label (`is_ad_label`), and
    not a heading (a page's heading "Anzeige" or "Sponsored" heads a section of its own)."""
    return not block.heading_level and is_ad_label(block.text)


def ad_label_mask(blocks: Sequence[Block], among: np.ndarray | None = None) -> np.ndarray:
    """One flag a block: whether it labels an ad slot (`labels_ad`); only the blocks flagged in
    ``among`` are looked at (the kept ones: a removed label needs no second look)."""
    if among is None:
        return np.fromiter((labels_ad(b) for b in blocks), bool, len(blocks))
    out = np.zeros(len(blocks), dtype=bool)
    for i in np.flatnonzero(among).tolist():
        out[i] = labels_ad(blocks[i])
    return out
