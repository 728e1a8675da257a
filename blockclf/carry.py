"""What a batch carries from its first pass to its second: pages kept as they are in the process
that read them, pages packed into bytes, and outputs kept compressed until their turn.

`blockclf.batch` reads each page once where it can: pass 1 parses and segments a page, and pass
2 scores it. Between the two the page is held by the worker that read it (`hold_page`, `take_page`:
its objects, its tree let go) while that worker's share of the budget lasts, else sent back
`pack`ed (pickled block fields, compressed: about a fifth of the page's size in objects). A
page scored at once in pass 1 (it names no site) travels as its output, whose long parts
(an encoded page, a removal log's lines) are compressed (`squeezed`) so that a folder's JSON,
or its removal log, peaks no higher than its text.
"""

from __future__ import annotations

import dataclasses
import pickle
import sys
import zlib
from collections import Counter
from dataclasses import dataclass
from typing import Any

from lxml import etree

from .result import Page

__all__ = ["NO_TREE", "SQUEEZE_BYTES", "Held", "Squeezed", "held_size", "hold_page", "pack", "plain_size", "release",
           "squeezed", "take_page", "unpack", "unsqueezed"]

NO_TREE = etree.Element("html")  # stands in for a dropped tree: scoring reads no element
#: an output's part kept from pass 1 (a page with no site, scored at once) of at least this
#: many bytes or characters is kept compressed until its turn: JSON outputs shrink about fivefold, so a
#: folder of 5,000 pages peaks at about the same memory in JSON as in text
SQUEEZE_BYTES = 2048


def pack(page: Page) -> bytes:
    """A prepared page as compact bytes for pass 2 (its tree is left out: scoring reads none);
    its blocks travel as their fields (`Block.__reduce__`)."""
    # what is left of the page's time budget travels as `Page.budget_left`, which scoring reads
    doc = dataclasses.replace(page.doc, root=None, deadline=None)
    return zlib.compress(pickle.dumps(dataclasses.replace(page, doc=doc), pickle.HIGHEST_PROTOCOL), 1)


def unpack(packed: bytes) -> Page:
    page: Page = pickle.loads(zlib.decompress(packed))  # bytes this process or its worker made
    page.doc.root = NO_TREE
    return page


def plain_size(value: Any) -> int | None:
    """Bytes held by a transform's output made of strings, bytes, lists, tuples and dicts
    (None for anything else, whose size is not known cheaply). A string's are counted as
    Python stores it: one to four bytes a character, by its widest character."""
    if isinstance(value, (str, bytes)):
        return sys.getsizeof(value)
    if isinstance(value, Squeezed):
        return sys.getsizeof(value.data) + 48
    if isinstance(value, (list, tuple)):
        parts = [plain_size(v) for v in value]
        return None if None in parts else sum(parts) + 8 * len(parts)
    if isinstance(value, dict):
        parts = [plain_size(v) for v in value.values()]
        return None if None in parts else sum(parts) + 8 * len(parts) + sum(len(str(k)) for k in value)
    if value is None or isinstance(value, (int, float, bool)):
        return 8
    return None


@dataclass(frozen=True)
class Squeezed:
    """An output's long part kept compressed until it is handed on (`_opened`): encoded bytes,
    or a string (``text``: its UTF-8, lone surrogates kept, so that it comes back the same)."""

    data: bytes
    text: bool = False


def squeezed(value: Any) -> Any:
    """A transform's output with its long parts (bytes or strings, alone or in a tuple)
    compressed: an encoded page, and the removal log's lines, which the command keeps as a
    string beside it (about 30 kB a page, as much as the page's JSON: a folder's removal log
    had lifted its peak by 86 MB)."""
    if isinstance(value, bytes) and len(value) >= SQUEEZE_BYTES:
        return Squeezed(zlib.compress(value, 1))
    if isinstance(value, str) and len(value) >= SQUEEZE_BYTES:
        return Squeezed(zlib.compress(value.encode("utf-8", "surrogatepass"), 1), text=True)
    if type(value) is tuple and any(isinstance(v, (bytes, str)) for v in value):
        return tuple(map(squeezed, value))
    return value


def unsqueezed(value: Any) -> Any:
    if isinstance(value, Squeezed):
        data = zlib.decompress(value.data)
        return data.decode("utf-8", "surrogatepass") if value.text else data
    if type(value) is tuple and any(isinstance(v, Squeezed) for v in value):
        return tuple(map(unsqueezed, value))
    return value


@dataclass(frozen=True)
class Held:
    """A page pass 1 holds in the process that read it, by batch and position."""

    batch: str
    index: int


#: pages held for pass 2 in this process: `Held` -> (page, its estimated bytes)
_HELD: dict[Held, tuple[Page, int]] = {}
#: per batch, the estimated bytes of the pages this process holds
_HELD_BYTES: Counter[str] = Counter()


def held_size(page: Page) -> int:
    """Estimated bytes of a segmented page's objects, its tree let go (measured: about 1.7
    times its characters plus 400 bytes a block; rounded up)."""
    blocks = page.blocks + page.hidden + (page.revealed or [])
    return 2 * sum(len(b.text) + len(b.xpath) + len(b.rich or "") for b in blocks) + 600 * len(blocks)


def hold_page(page: Page, key: Held, budget: int) -> bool:
    """Keep ``page`` in this process for pass 2 if its batch's share of the budget allows."""
    size = held_size(page)
    if _HELD_BYTES[key.batch] + size > budget:
        return False
    # scoring reads no element, and what is left of the time budget from `Page.budget_left`
    page.doc = dataclasses.replace(page.doc, root=NO_TREE, deadline=None)
    _HELD[key] = (page, size)
    _HELD_BYTES[key.batch] += size
    return True


def take_page(key: Held) -> Page | None:
    """A held page, let go of here; None when this process does not hold it (it is not the
    one that read the page: a worker that died, or a task run again elsewhere)."""
    held = _HELD.pop(key, None)
    if held is None:
        return None
    page, size = held
    _HELD_BYTES[key.batch] -= size
    return page


def release(batch: str) -> None:
    """Let go of every page this process holds for ``batch`` (a batch ended or abandoned)."""
    for key in [k for k in _HELD if k.batch == batch]:
        del _HELD[key]
    _HELD_BYTES.pop(batch, None)
