"""`SiteProfile`: how often a block's text and element path recur across a site's pages.

Text that recurs on most pages of one site is template (menus, footers, legal lines); text
unique to one page is usually its content. A profile counts, per site, the pages that
contain each normalised block text and each element path. A page is never evidence for
itself: when the profile already counts the page, its own contribution is subtracted.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from pathlib import Path

import numpy as np

from .block import Block

__all__ = ["MIN_OTHER_PAGES", "SiteProfile", "block_keys", "text_key"]

#: fewer other pages than this and the repetition figures are NaN (no evidence)
MIN_OTHER_PAGES = 2
FORMAT = "blockclf-site"
VERSION = 1
_DIGITS = re.compile(r"\d+")


def _hash(s: str) -> int:
    return int.from_bytes(hashlib.blake2b(s.encode("utf-8", "replace"), digest_size=8).digest(), "little")


def text_key(text: str) -> int:
    """Stable hash of a block's text, case-folded with numbers masked (dates, counts vary)."""
    return _hash(_DIGITS.sub("0", " ".join(text.lower().split())))


def block_keys(blocks: Sequence[Block]) -> tuple[np.ndarray, np.ndarray]:
    """Per block, the text hash and the element-path hash (unsigned 64-bit)."""
    texts = np.fromiter((text_key(b.text) for b in blocks), np.uint64, len(blocks))
    paths = np.fromiter((_hash(b.xpath) for b in blocks), np.uint64, len(blocks))
    return texts, paths


class SiteProfile:
    """Page counts of block texts and element paths over the pages of one site."""

    def __init__(self, site: str = "") -> None:
        self.site = site
        self.n_pages = 0
        self.texts: Counter[int] = Counter()
        self.paths: Counter[int] = Counter()

    def add(self, blocks: Sequence[Block]) -> None:
        """Count one more page of the site."""
        self.add_keys(*block_keys(blocks))

    def add_keys(self, texts: np.ndarray, paths: np.ndarray) -> None:
        """Count one more page given its `block_keys`."""
        self.n_pages += 1
        self.texts.update(set(texts.tolist()))
        self.paths.update(set(paths.tolist()))

    @classmethod
    def from_pages(cls, pages: Iterable[Sequence[Block]], site: str = "") -> SiteProfile:
        """Build a profile from the block lists of a site's pages."""
        prof = cls(site)
        for blocks in pages:
            prof.add(blocks)
        return prof

    def repetition(self, blocks: Sequence[Block], counted: bool) -> tuple[np.ndarray, np.ndarray, int]:
        """Per block, the share of the site's *other* pages holding the same text / path.

        ``counted`` says whether this page was added to the profile (its own contribution is
        then removed). Returns ``(text_share, path_share, n_other_pages)``; the shares are NaN
        when there are fewer than `MIN_OTHER_PAGES` other pages.
        """
        return self.repetition_keys(*block_keys(blocks), counted=counted)

    def repetition_keys(self, texts: np.ndarray, paths: np.ndarray, counted: bool) -> tuple[np.ndarray, np.ndarray, int]:
        """`repetition` for a page given its `block_keys`."""
        own = 1 if counted else 0
        n_other = self.n_pages - own
        n = len(texts)
        if n_other < MIN_OTHER_PAGES:
            nan = np.full(n, np.nan)
            return nan, nan.copy(), max(n_other, 0)
        t = np.fromiter((self.texts.get(k, 0) for k in texts.tolist()), float, n)
        p = np.fromiter((self.paths.get(k, 0) for k in paths.tolist()), float, n)
        return np.maximum(t - own, 0) / n_other, np.maximum(p - own, 0) / n_other, n_other

    def to_dict(self) -> dict:
        return {
            "format": FORMAT,
            "version": VERSION,
            "site": self.site,
            "n_pages": self.n_pages,
            "texts": {format(k, "x"): v for k, v in self.texts.items()},
            "paths": {format(k, "x"): v for k, v in self.paths.items()},
        }

    @classmethod
    def from_dict(cls, data: dict) -> SiteProfile:
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise ValueError("not a blockclf site profile")
        if data.get("version") != VERSION:
            raise ValueError(f"site profile version {data.get('version')} is not supported (expected {VERSION})")
        prof = cls(str(data.get("site", "")))
        prof.n_pages = int(data["n_pages"])
        prof.texts = Counter({int(k, 16): int(v) for k, v in data["texts"].items()})
        prof.paths = Counter({int(k, 16): int(v) for k, v in data["paths"].items()})
        return prof

    def save(self, path: str | Path) -> None:
        Path(path).write_text(json.dumps(self.to_dict()), encoding="utf-8")

    @classmethod
    def load(cls, path: str | Path) -> SiteProfile:
        try:
            data = json.loads(Path(path).read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise ValueError(f"{path}: cannot read site profile ({exc})") from None
        return cls.from_dict(data)
