"""React's streamed server rendering: the parts of a page that arrived late, put where they show.

A server that streams a React page sends what is ready first and leaves a marker where each
late part belongs: an empty ``<template id="P:1f">`` (a placeholder) or ``<template
id="B:3">`` (a boundary, followed by a "Loading…" fallback). The part itself comes at the end
of the body as ``<div hidden id="S:1f">``, and a one-line script (``$RS("S:1f","P:1f")``,
``$RC("B:3","S:3")``) moves its content into the marker's place as soon as it arrives. The
part and its marker share their number: React writes them so, and every instruction in the
benchmark's 39 such pages does. A saved page often lacks the scripts (and the comments that
close a fallback), but never the numbers, so the parts are placed by them.

Read where they arrive, a page's article came after its FAQ, and a section's text after the
headings that should stand above it; the segmenter then saw its position and its heading path
wrong. A part whose marker is missing stays at the end of the body, read there
(`blockclf.elements.is_hidden` lets it through). A boundary's fallback ("Loading
paragraph…") is taken out before parsing when React's comments still mark where it ends
(`drop_fallbacks`), as the script takes it out; in a page saved without its comments that
cannot be known, and it is left. A placed part's blocks have the
element paths (``xpath``) of that place, as a browser's page has them once the script has run,
and CSS selectors and block edits in labelling find them there.
"""

from __future__ import annotations

import re

from lxml import etree

__all__ = ["drop_fallbacks", "place_streamed_parts", "put_content"]

#: a streamed part's id (React may put the page's identifier prefix before it)
_PART = re.compile(r"^(.*)S:([0-9a-f]+)$")
#: the comments React marks a boundary with: ``<!--$?-->`` opens one still waiting for its part,
#: ``<!--$-->`` and ``<!--$!-->`` others, ``<!--/$-->`` closes any; a waiting one's marker follows
_BOUNDARY = re.compile(r'<!--(\$\??|\$!|/\$)-->(?:<template id="([^"<>]{0,64}B:([0-9a-f]+))"></template>)?')
#: a streamed part as React writes it, for its id
_PART_DIV = re.compile(r'<div hidden id="([^"<>]{1,200})">')
_TAG = re.compile(r"<[^>]*>")
#: the most words a fallback taken out may hold: React's are a spinner, a skeleton or a line
#: ("Loading paragraph…"); more is not taken out, lest a page whose comments were edited or
#: cut lose its text to a boundary closed further on than React closed it
_FALLBACK_WORDS = 40


def drop_fallbacks(text: str) -> str:
    """``text`` without the fallbacks ("Loading…") of the boundaries whose part it holds: what
    lies between a waiting boundary's marker and the comment that closes it, as React's
    script removes it when the part arrives. Boundaries whose part is missing keep theirs (a
    browser shows the fallback until a script renders the content), and so does one of over
    `_FALLBACK_WORDS` words."""
    cuts: list[tuple[int, int]] = []
    stack: list[tuple[int, bool]] = []  # per open boundary: where its fallback begins, and whether it goes
    parts = set(_PART_DIV.findall(text))  # the parts that came, read once for all the boundaries
    for m in _BOUNDARY.finditer(text):
        kind, marker, number = m.groups()
        if kind != "/$":
            prefix = marker[: -len(number) - 2] if marker else ""
            goes = kind == "$?" and marker is not None and f"{prefix}S:{number}" in parts
            stack.append((m.end(), goes))
        elif stack:
            begin, goes = stack.pop()
            if goes and len(_TAG.sub("", text[begin:m.start()]).split()) <= _FALLBACK_WORDS:
                cuts.append((begin, m.start()))
    if not cuts:
        return text
    out, at = [], 0
    for begin, end in sorted(cuts):
        if begin < at:  # inside a fallback already cut: boundaries nest
            continue
        out.append(text[at:begin])
        at = end
    out.append(text[at:])
    return "".join(out)


def place_streamed_parts(root: etree._Element) -> int:
    """Move the content of each ``<div hidden id="S:n">`` into the place of its marker
    (``<template id="P:n">``, else ``<template id="B:n">``), as React's script does in a
    browser, and return how many parts were placed. A part without a marker, or whose marker
    lies inside the part itself, is left where it is."""
    markers: dict[str, etree._Element] = {}
    for t in root.iter("template"):
        tid = t.get("id")
        if tid and ("P:" in tid or "B:" in tid) and tid not in markers:
            markers[tid] = t
    if not markers:
        return 0
    placed = 0
    parts = [d for d in root.iter("div") if "hidden" in d.attrib and "S:" in (d.get("id") or "")]
    for part in parts:
        m = _PART.match(part.get("id") or "")
        if m is None:
            continue
        prefix, number = m.groups()
        marker = markers.get(f"{prefix}P:{number}")
        if marker is None:
            marker = markers.get(f"{prefix}B:{number}")
        if marker is None or marker.getparent() is None or any(a is part for a in marker.iterancestors()):
            continue
        _move_content(part, marker)
        placed += 1
    return placed


def _move_content(part: etree._Element, marker: etree._Element) -> None:
    """Put ``part``'s text and children where ``marker`` stands, then remove both, keeping the
    text that follows each of them (an element's tail) where it was."""
    put_content(part, marker)
    _remove(part)


def put_content(source: etree._Element, at: etree._Element) -> None:
    """Put ``source``'s text and children in the place of ``at`` (which may be ``source``
    itself: an element unwrapped) and remove ``at``, keeping the text after it (its tail)."""
    if source.text:
        _append_before(at, source.text)
    for child in list(source):
        at.addprevious(child)  # its tail moves with it
    _remove(at)


def _append_before(el: etree._Element, text: str) -> None:
    """Add ``text`` to the page just before ``el``: the tail of its previous sibling, or its parent's text."""
    before = el.getprevious()
    if before is not None:
        before.tail = (before.tail or "") + text
    else:
        parent = el.getparent()
        if parent is not None:
            parent.text = (parent.text or "") + text


def _remove(el: etree._Element) -> None:
    """Remove ``el`` and what it holds, keeping the text after it (its tail) in place."""
    parent = el.getparent()
    if parent is None:
        return
    if el.tail:
        _append_before(el, el.tail)
    parent.remove(el)
