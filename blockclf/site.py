"""`SiteProfile`: how often a block's text and element path recur across a site's pages.

Text that recurs on most pages of one site is template (menus, footers, legal lines); text
unique to one page is usually its content. A profile counts, per site, the pages that
contain each normalised block text and each element path. A page is never evidence for
itself: the profile remembers a digest of every page it counted, so a page that is already
in it (or an identical copy of one) is neither counted twice nor allowed to vouch for itself.

Repetition alone never removes a block: the figures are features the model weighs with the
others. One correction is made here, because the model cannot see it: a form label ("Author:",
``<dt>``, ``<th>``) repeats on every page by design while its value varies, so a label's
repetition is capped by its value's, and a kept value keeps its label (`label_value_pairs`).
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import re
import stat
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from .block import Block
from .files import write_atomic
from .words import tokens

__all__ = [
    "MIN_OTHER_PAGES",
    "ProfileError",
    "SiteProfile",
    "batch_repetition",
    "block_keys",
    "cap_headline_repetition",
    "cap_label_repetition",
    "keep_labels",
    "label_value_pairs",
    "page_digest",
    "text_key",
    "text_path_keys",
]

log = logging.getLogger("blockclf")

#: fewer other pages than this and the repetition figures are NaN (no evidence)
MIN_OTHER_PAGES = 2
FORMAT = "blockclf-site"
VERSION = 2
#: text samples kept in a saved profile (the most repeated blocks), and their length
MAX_SAMPLES = 200
SAMPLE_CHARS = 80
_DIGITS = re.compile(r"\d+")
#: a key of the texts/paths/samples tables: an unsigned 64-bit hash in hexadecimal
_HEX_KEY = re.compile(r"[0-9a-f]{1,16}")
#: most pages a profile may count (beyond this a count is not a page count but damage)
MAX_PAGES = 2**53


class ProfileError(ValueError):
    """A site profile file that cannot be used; the message names the file and the problem in one line."""


def _hash(s: str) -> int:
    return int.from_bytes(hashlib.blake2b(s.encode("utf-8", "replace"), digest_size=8).digest(), "little")


def text_key(text: str) -> int:
    """Stable hash of a block's text, case-folded with numbers masked (dates, counts vary)."""
    return _hash(_fold(text))


def _fold(text: str) -> str:
    """A text as `text_key` hashes it: case-folded, numbers masked, spaces collapsed."""
    return _DIGITS.sub("0", " ".join(text.lower().split()))


def block_keys(blocks: Sequence[Block]) -> tuple[np.ndarray, np.ndarray]:
    """Per block, the text hash and the element-path hash (unsigned 64-bit)."""
    return text_path_keys([b.text for b in blocks], [b.xpath for b in blocks])


def text_path_keys(texts: Sequence[str], xpaths: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
    """`block_keys` from the blocks' texts and element paths alone (a packed page's fields).

    The same keys as `text_key` and `_hash` one string at a time; every page of a batch is
    hashed, so a page's texts are case-folded and masked in one pass over them all.
    """
    return _hashes(_folded(texts)), _hashes(xpaths)


def _folded(texts: Sequence[str]) -> list[str]:
    """`_fold` of each text, in one pass over them all."""
    joined = "\0".join(texts)
    if joined.count("\0") != len(texts) - 1:  # a text holds the separator: one at a time
        return [_fold(t) for t in texts]
    # a digit run never crosses a space, so masking before collapsing spaces gives the same
    # text; lower() ends a word at the separator as at the end of a string
    return [" ".join(t.split()) for t in _DIGITS.sub("0", joined.lower()).split("\0")]


def _hashes(strings: Iterable[str]) -> np.ndarray:
    """`_hash` of each string, as an unsigned 64-bit array."""
    digests = b"".join([hashlib.blake2b(s.encode("utf-8", "replace"), digest_size=8).digest() for s in strings])
    return np.frombuffer(digests, dtype="<u8").astype(np.uint64)


def page_digest(texts: np.ndarray, paths: np.ndarray) -> str:
    """Identity of a page for a profile: a hash of its sets of text and path keys.

    Two copies of the same page get the same digest, so neither is evidence for the other.
    """
    h = hashlib.blake2b(digest_size=8)
    h.update(_distinct(texts).astype("<u8").tobytes())
    h.update(b"|")
    h.update(_distinct(paths).astype("<u8").tobytes())
    return h.hexdigest()


def _distinct(keys: np.ndarray) -> np.ndarray:
    """``np.unique(keys)``, without the masked-array module its first call imports (a few
    hundredths of a second in every command)."""
    ordered = np.sort(keys, axis=None)
    if len(ordered) < 2:
        return ordered
    keep = np.empty(len(ordered), dtype=bool)
    keep[0] = True
    np.not_equal(ordered[1:], ordered[:-1], out=keep[1:])
    return ordered[keep]


class SiteProfile:
    """Page counts of block texts and element paths over the pages of one site.

    Attributes:
        site: the site's registered domain ("" when unknown).
        n_pages: distinct pages counted.
        texts, paths: per text/path hash, the number of pages holding it.
        pages: digests of the counted pages (see `page_digest`).
        samples: a short text per text hash, to show people what a hash stands for.
    """

    def __init__(self, site: str = "") -> None:
        self.site = site
        self.n_pages = 0
        self.texts: Counter[int] = Counter()
        self.paths: Counter[int] = Counter()
        self.pages: set[str] = set()
        self.samples: dict[int, str] = {}

    def copy(self) -> SiteProfile:
        """An independent copy (extraction adds a batch to a copy, never to the caller's profile)."""
        new = SiteProfile(self.site)
        new.n_pages = self.n_pages
        new.texts = self.texts.copy()
        new.paths = self.paths.copy()
        new.pages = set(self.pages)
        new.samples = dict(self.samples)
        return new

    def add(self, blocks: Sequence[Block]) -> bool:
        """Count one more page of the site; False when the page was already counted."""
        texts, paths = block_keys(blocks)
        return self.add_sampled(texts, paths, [b.text for b in blocks])

    def add_sampled(self, texts: np.ndarray, paths: np.ndarray, samples: Sequence[str]) -> bool:
        """`add_keys`, with the page's block texts (in the keys' order), of which the profile
        keeps the start as a sample of each new text; False when the page was already counted."""
        added = self.add_keys(texts, paths)
        if added:
            for k, text in zip(texts.tolist(), samples):
                if k not in self.samples:
                    self.samples[k] = text[:SAMPLE_CHARS]
        return added

    def add_keys(self, texts: np.ndarray, paths: np.ndarray) -> bool:
        """Count one more page given its `block_keys`; False when it was already counted."""
        digest = page_digest(texts, paths)
        if digest in self.pages:
            return False
        self.pages.add(digest)
        self.n_pages += 1
        self.texts.update(set(texts.tolist()))
        self.paths.update(set(paths.tolist()))
        return True

    def contains_keys(self, texts: np.ndarray, paths: np.ndarray) -> bool:
        """Whether a page with these `block_keys` is counted in the profile."""
        return page_digest(texts, paths) in self.pages

    def update(self, pages: Iterable[Sequence[Block]]) -> int:
        """Add new pages as they arrive; returns how many were new."""
        return sum(self.add(blocks) for blocks in pages)

    @classmethod
    def from_pages(cls, pages: Iterable[Sequence[Block]], site: str = "") -> SiteProfile:
        """Build a profile from the block lists of a site's pages."""
        prof = cls(site)
        prof.update(pages)
        return prof

    def matches(self, site: str | None) -> bool:
        """Whether a page of ``site`` may use this profile (unknown sites on either side do)."""
        return not self.site or not site or site == self.site

    def repetition(self, blocks: Sequence[Block], counted: bool | None = None) -> tuple[np.ndarray, np.ndarray, int]:
        """Per block, the share of the site's *other* pages holding the same text / path.

        ``counted`` says whether this page was added to the profile (its own contribution is
        then removed); None looks it up by the page's digest. Returns ``(text_share,
        path_share, n_other_pages)``. With fewer than `MIN_OTHER_PAGES` other pages the
        shares are NaN and the count is 0: no evidence, exactly as for a page alone (a count
        of one page would tell the model only how big a batch was, not what repeats).
        """
        return self.repetition_keys(*block_keys(blocks), counted=counted)

    def repetition_keys(self, texts: np.ndarray, paths: np.ndarray,
                        counted: bool | None = None) -> tuple[np.ndarray, np.ndarray, int]:
        """`repetition` for a page given its `block_keys`."""
        if counted is None:
            counted = self.contains_keys(texts, paths)
        own = 1 if counted else 0
        n_other = self.n_pages - own
        n = len(texts)
        if not _enough_others(n_other):
            nan = np.full(n, np.nan)
            return nan, nan.copy(), 0
        t = np.fromiter((self.texts.get(k, 0) for k in texts.tolist()), float, n)
        p = np.fromiter((self.paths.get(k, 0) for k in paths.tolist()), float, n)
        return np.maximum(t - own, 0) / n_other, np.maximum(p - own, 0) / n_other, n_other

    def document_frequencies(self) -> np.ndarray:
        """Share of the site's pages holding each distinct block text (one value per text)."""
        if not self.n_pages:
            return np.zeros(0)
        return np.fromiter(self.texts.values(), float, len(self.texts)) / self.n_pages

    def most_repeated(self, n: int = 20) -> list[tuple[float, str]]:
        """The ``n`` block texts found on most pages, as ``(share of pages, text sample)``."""
        top = self.texts.most_common(n)
        total = max(self.n_pages, 1)
        return [(c / total, self.samples.get(k, f"<text {k:016x}>")) for k, c in top]

    def to_dict(self) -> dict:
        """The profile as JSON-ready data; only the `MAX_SAMPLES` most repeated samples are kept."""
        repeated = [k for k, c in self.texts.most_common() if c > 1 and k in self.samples][:MAX_SAMPLES]
        return {
            "format": FORMAT,
            "version": VERSION,
            "site": self.site,
            "n_pages": self.n_pages,
            "pages": sorted(self.pages),
            "texts": {format(k, "x"): v for k, v in self.texts.items()},
            "paths": {format(k, "x"): v for k, v in self.paths.items()},
            "samples": {format(k, "x"): self.samples[k] for k in repeated},
        }

    @classmethod
    def from_dict(cls, data: Any) -> SiteProfile:
        """Read `to_dict` output; version 1 files (no page digests or samples) are accepted.

        Every field is checked by type and range; anything else raises `ProfileError`
        (a `ValueError`) with a one-line message.
        """
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise ProfileError("not a blockclf site profile")
        version = data.get("version")
        if isinstance(version, bool) or version not in (1, VERSION):
            raise ProfileError(f"site profile version {_short(version)} is not supported (expected {VERSION})")
        site = data.get("site", "")
        if not isinstance(site, str):
            raise ProfileError(f"site profile is damaged: 'site' must be a domain name, not {_short(site)}")
        n_pages: Any = data.get("n_pages")
        if not _count(n_pages, MAX_PAGES):
            raise ProfileError(f"site profile is damaged: 'n_pages' must be a whole number from 0 to 2**53, "
                               f"not {_short(n_pages)}")
        prof = cls(site)
        prof.n_pages = int(n_pages)
        prof.texts = Counter(_table(data, "texts", prof.n_pages))
        prof.paths = Counter(_table(data, "paths", prof.n_pages))
        pages = data.get("pages", [])
        if not isinstance(pages, list) or not all(isinstance(d, str) for d in pages):
            raise ProfileError("site profile is damaged: 'pages' must be a list of page digests")
        prof.pages = set(pages)
        samples = data.get("samples", {})
        if not isinstance(samples, dict) or not all(
                isinstance(k, str) and _HEX_KEY.fullmatch(k) and isinstance(v, str) for k, v in samples.items()):
            raise ProfileError("site profile is damaged: 'samples' must map text hashes to texts")
        prof.samples = {int(k, 16): v for k, v in samples.items()}
        return prof

    def save(self, path: str | Path) -> None:
        """Write the profile as one JSON file, atomically: a failed write leaves the old file whole."""
        write_atomic(path, json.dumps(self.to_dict(), ensure_ascii=False))

    @classmethod
    def load(cls, path: str | Path) -> SiteProfile:
        """Read a profile written by `save`.

        Raises `ProfileError` (a `ValueError`) naming the file when it is not a regular file,
        cannot be read, is not JSON (or nests too deeply to read), or is not a valid profile.
        """
        try:
            st = os.stat(path)
            if not stat.S_ISREG(st.st_mode):  # a FIFO would block the read forever, a device never ends
                raise ProfileError(f"{path}: cannot read site profile (not a regular file)")
            data = json.loads(Path(path).read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise ProfileError(f"{path}: cannot read site profile ({_one_line(exc)})") from None
        except RecursionError:
            raise ProfileError(f"{path}: cannot read site profile (JSON nested too deeply)") from None
        except ProfileError:
            raise
        except ValueError as exc:  # a number of more digits than Python converts
            raise ProfileError(f"{path}: cannot read site profile ({_one_line(exc)})") from None
        try:
            return cls.from_dict(data)
        except ProfileError as exc:
            raise ProfileError(f"{path}: {exc}") from None


def _count(value: Any, most: int) -> bool:
    """Whether ``value`` is a whole number (not a bool) from 0 to ``most``."""
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= most


def _table(data: dict, key: str, n_pages: int) -> dict[int, int]:
    """The ``texts`` or ``paths`` table of profile ``data``: hex hash -> pages holding it."""
    table = data.get(key)
    if not isinstance(table, dict):
        raise ProfileError(f"site profile is damaged: '{key}' must map hashes to page counts")
    out: dict[int, int] = {}
    for k, v in table.items():
        if not _HEX_KEY.fullmatch(k) or not _count(v, n_pages):
            raise ProfileError(f"site profile is damaged: '{key}' has {_short(k)}: {_short(v)} "
                               f"(a hash and a page count up to n_pages)")
        out[int(k, 16)] = v
    return out


def _short(value: Any, n: int = 40) -> str:
    """``repr(value)`` cut to ``n`` characters, so a message stays one short line."""
    text = repr(value) if not isinstance(value, int) or abs(value) < 10**20 else "(a number of over 20 digits)"
    return text if len(text) <= n else text[:n] + "..."


def _one_line(exc: BaseException) -> str:
    text = str(exc).splitlines()
    return text[0][:200] if text else type(exc).__name__


# --- form labels and their values -------------------------------------------------------

_FORM_VALUES = frozenset(("select", "option", "textarea"))
#: a "Label:" block is at most this long (characters) and this many words
LABEL_CHARS = 40
LABEL_WORDS = 6


def _is_colon_label(text: str) -> bool:
    t = text.rstrip()
    return t.endswith((":", "\uff1a")) and 1 < len(t) <= LABEL_CHARS and len(t.split()) <= LABEL_WORDS


def label_value_pairs(blocks: Sequence[Block]) -> list[tuple[int, int]]:
    """``(label, value)`` block positions: a label that belongs with the value beside it.

    Recognised: ``<dt>`` with the ``<dd>`` blocks that follow it in the same list, ``<th>``
    with the ``<td>`` cells after it in the same row, a short block ending in a colon with the
    block right after it ("Author:" / "Jane Doe"), and a short block followed by a form
    field's text (``select``/``option``/``textarea``).
    """
    pairs: list[tuple[int, int]] = []
    n = len(blocks)
    for i, b in enumerate(blocks):
        if b.tag in ("dt", "th"):
            value_tag = "dd" if b.tag == "dt" else "td"
            container = b.parent_xpath
            j = i + 1
            while j < n and blocks[j].tag == value_tag and blocks[j].parent_xpath == container:
                pairs.append((i, j))
                j += 1
            if j > i + 1:
                continue
        if i + 1 >= n:
            continue
        nxt = blocks[i + 1]
        if nxt.heading_level or b.heading_level:
            continue
        colon_label = _is_colon_label(b.text) and not _is_colon_label(nxt.text)
        field_caption = nxt.tag in _FORM_VALUES and b.tag not in _FORM_VALUES and len(b.text) <= LABEL_CHARS
        if colon_label or field_caption:
            pairs.append((i, i + 1))
    return pairs


def cap_label_repetition(rep: np.ndarray, pairs: Sequence[tuple[int, int]]) -> np.ndarray:
    """A label repeats no more than its value: template labels beside varying values are content."""
    if not pairs or np.isnan(rep).all():
        return rep
    out = rep.copy()
    for label, value in pairs:
        if not np.isnan(out[value]):
            out[label] = min(out[label], out[value])
    return out


#: words a heading needs to be told for the page's headline by its words alone
HEADLINE_MIN_WORDS = 3


def cap_headline_repetition(rep: np.ndarray, blocks: Sequence[Block], headline: str) -> np.ndarray:
    """A heading that reads as the page's headline is the page's own, repeated nowhere.

    A site's rails ("Most read", "Related") link to its stories by their headlines, so on a
    batch of its pages a story's own headline is found on other pages as well and reads as its
    template. Across the train folders, as one batch each, not counting it gained five pages
    (+.0006 to +.0066) and lost one (-.0005); no dev page changed. A heading is the headline when
    its words (`words.tokens`) are the headline's, at least `HEADLINE_MIN_WORDS`.
    """
    head = tokens(headline)
    if len(head) < HEADLINE_MIN_WORDS or np.isnan(rep).all():
        return rep
    out = rep
    for i, b in enumerate(blocks):
        if b.heading_level and out[i] > 0 and tokens(b.text) == head:
            out = out.copy() if out is rep else out
            out[i] = 0.0
    return out


def keep_labels(kept: np.ndarray, pairs: Sequence[tuple[int, int]]) -> np.ndarray:
    """Keep every label whose value is kept (a value never loses its label)."""
    if not pairs:
        return kept
    out = kept.copy()
    for label, value in pairs:
        if kept[value]:
            out[label] = True
    return out


# --- a batch of pages -------------------------------------------------------------------

Repetition = tuple[np.ndarray, np.ndarray, int]


def _enough_others(n_other: int) -> bool:
    """Whether a page's ``n_other`` other pages of its site are enough to count repetition over."""
    return n_other >= MIN_OTHER_PAGES


def may_get_evidence(site: str | None, pages_per_site: Mapping[str | None, int],
                     profile: SiteProfile | None = None) -> bool:
    """Whether `batch_repetition` can give a page any evidence (else hashing its blocks is wasted).

    A page gets evidence from a profile (which serves pages of any or no site), or from
    at least `MIN_OTHER_PAGES` other pages of its own site in the batch.
    """
    return profile is not None or (site is not None and _enough_others(pages_per_site.get(site, 0) - 1))


def batch_repetition(keys: Sequence[Any], sites: Sequence[str | None],
                     profile: SiteProfile | None = None) -> list[Repetition | None]:
    """Repetition evidence for each page of a batch from the other pages of its site.

    ``keys`` are the pages' `block_keys` (None for a page that can get no evidence), ``sites``
    their sites. Pages of one site profile each other; ``profile`` (earlier pages) joins every
    group whose site it matches, and pages with no known site use it too. A page with neither
    site nor profile, or with fewer than `MIN_OTHER_PAGES` other pages to count, gets None (no
    evidence).
    """
    groups: dict[str, list[int]] = {}
    for i, site in enumerate(sites):
        if not site:
            if profile is None:
                continue
            site = profile.site
        groups.setdefault(site, []).append(i)
    out: list[Repetition | None] = [None] * len(keys)
    for site, members in groups.items():
        base = profile if profile is not None and profile.matches(site) else None
        if profile is not None and base is None:
            log.warning("site profile of %s not used for %d pages of %s", profile.site, len(members), site)
        if base is None and not _enough_others(len(members) - 1):
            continue
        prof = base.copy() if base is not None else SiteProfile(site)
        for i in members:
            texts, paths = keys[i]
            prof.add_keys(texts, paths)
        for i in members:
            texts, paths = keys[i]
            rep = prof.repetition_keys(texts, paths, counted=True)
            out[i] = rep if rep[2] else None
    return out
