"""A formula's text: what a page's mathematics says, written where it stands in the text.

A browser shows MathML (``<math>``) as mathematics, but its text read node by node is a run
of glyphs ("x=−b±b2−4ac2a"), and without it a sentence reads "there are two solutions to
and they are". A formula is written as its TeX source when the page gives it (MathML's
``alttext`` or its ``application/x-tex`` annotation, as Wikipedia, KaTeX and MathJax write
them; a MathJax ``<script type="math/tex">``; the TeX that MediaWiki gives its fallback
image as ``alt``), between ``$`` (``$$`` for a formula set apart as its own line), which
Markdown readers with mathematics render; TeX of letters and digits alone (a variable, a word
set in math type) is written as that text. Without TeX, MathML is read out as linear text:
``x = (−b ± √(b^2 − 4ac))/(2a)``, without ``$``, as it is not TeX.

`twin_of_script` finds the glyphs MathJax (version 2) draws for a formula whose TeX script
follows them, so that a formula is read once.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Final, cast

from lxml import etree

__all__ = ["MATHML_NS", "formula", "is_fallback_image", "is_tex_script", "twin_of_script"]

MATHML_NS: Final = "{http://www.w3.org/1998/Math/MathML}"
#: the ``{\displaystyle …}`` or ``{\textstyle …}`` that wraps MediaWiki's TeX
_STYLE_WRAP: Final = re.compile(r"^\{\\(?:display|text)style\s*(.*)\}$", re.DOTALL)
#: operators written with a space on each side in linear text
_SPACED_OPS: Final = frozenset("=+−-±∓×÷≠≤≥<>≈≡≅∼→←↔⇒⇐⇔↦∈∉∋⊂⊃⊆⊇∪∩∧∨·∘⊕⊗∝≪≫")
#: operators that may stand for a sign before a term ("−b"): no space after them there
_SIGNS: Final = frozenset("+−-±∓")
#: a sign after the start, an opening bracket, a separator or a relation reads as a term's sign
_UNARY: Final = re.compile(r"(^|[=≠≤≥<>≈≡∼∈(\[{,;|] ?)([+−±∓-]) ")
#: operators whose limits are written under and over them, and after which their operand follows
_BIG_OPS: Final = frozenset("∑ ∏ ∐ ∫ ∬ ∭ ∮ ⋃ ⋂ ⋁ ⋀ ⨁ ⨂ lim max min sup inf".split())
#: how deep linear reading follows nested MathML before it reads the rest as flat text
_MAX_DEPTH: Final = 40
#: the elements MathJax 2 draws a formula with, which its ``math/tex`` script follows
_MATHJAX_FRAMES: Final = frozenset(
    "MathJax MathJax_Display MathJax_Preview MathJax_SVG MathJax_SVG_Display MathJax_CHTML MathJax_PHTML "
    "MathJax_MathML MathJax_MathContainer MathJax_HTML".split())


def formula(el: etree._Element, tag: str, attrib: dict[str, str]) -> tuple[str, bool]:
    """The text a formula element stands for ("" when it says nothing), and whether it is TeX
    between its dollars: ``$TeX$`` or ``$$TeX$$`` where the page gives TeX, else MathML read as
    linear text. ``tag`` is the element's lower-case tag (``math``, ``script`` or ``img``),
    ``attrib`` its attributes."""
    if tag == "script":
        kind = attrib.get("type", "").lower()
        return _delimited(el.text or "", "mode=display" in kind.replace(" ", ""))
    if tag == "img":
        return _delimited(attrib.get("alt", ""), "display" in attrib.get("class", ""))
    display = attrib.get("display", "").lower() == "block" or attrib.get("mode", "").lower() == "display"
    tex = attrib.get("alttext") or _annotation(el)
    if tex and tex.strip():
        return _delimited(tex, display)
    return _UNARY.sub(r"\1\2", _folded(_linear(el, 0))), False


def is_tex_script(attrib: dict[str, str]) -> bool:
    """Whether a ``<script>`` holds a formula's TeX (MathJax's ``math/tex``, ``math/tex; mode=display``)."""
    return attrib.get("type", "").lower().startswith("math/tex")


def is_fallback_image(attrib: dict[str, str]) -> bool:
    """Whether an ``<img>`` is MediaWiki's picture of a formula, its TeX as ``alt`` (its MathML is
    hidden for screen readers beside it)."""
    cls = attrib.get("class", "")
    return "mwe-math-fallback-image" in cls and bool(attrib.get("alt"))


def twin_of_script(el: etree._Element, cls: str) -> bool:
    """Whether ``el`` (class ``cls``) is MathJax 2's drawing of a formula, or its preview,
    whose ``math/tex`` script follows within two siblings: the script is read instead."""
    if "MathJax" not in cls or not any(name in _MATHJAX_FRAMES for name in cls.split()):
        return False
    sibling = el.getnext()
    for _ in range(2):
        if sibling is None:
            return False
        if isinstance(sibling.tag, str) and sibling.tag.lower() == "script":
            return (sibling.get("type") or "").lower().startswith("math/tex")
        sibling = sibling.getnext()
    return False


def _delimited(tex: str, display: bool) -> tuple[str, bool]:
    """TeX between ``$`` (``$$`` for ``display``), without MediaWiki's style wrapper, and True;
    TeX that is only letters and digits is that text alone, and False."""
    tex = " ".join(tex.split())
    wrapped = _STYLE_WRAP.match(tex)
    if wrapped:
        tex = wrapped.group(1).strip()
    if not tex or tex.replace(" ", "").isalnum():
        return tex, False  # a letter, a number, a word set in math type ("$R$esources"): just the text
    mark = "$$" if display else "$"
    return f"{mark}{tex}{mark}", True


def _local(el: etree._Element) -> str:
    tag = el.tag
    if not isinstance(tag, str):
        return ""
    return tag[len(MATHML_NS):] if tag.startswith(MATHML_NS) else tag.lower()


def _annotation(el: etree._Element) -> str:
    """The TeX of a formula's ``<annotation encoding="application/x-tex">``, or ""."""
    for node in el.iter():
        if _local(node) == "annotation" and "tex" in (node.get("encoding") or "").lower():
            return node.text or ""
    return ""


def _all_text(el: etree._Element) -> str:
    return "".join(cast("Iterator[str]", el.itertext()))  # an HTML tree's text is str


def _folded(text: str) -> str:
    return " ".join(text.split())


def _grouped(text: str) -> str:
    """``text`` as one term after ``^``, ``_`` or ``/``: in parentheses unless a single symbol, a
    number, a word, or in brackets already."""
    text = text.strip()
    if len(text) <= 1 or text.replace(".", "").isdigit() or text.isalpha():
        return text
    if text[0] in "([{" and _closes_at_end(text):
        return text
    return f"({text})"


def _closes_at_end(text: str) -> bool:
    """Whether the bracket that opens ``text`` closes at its very end."""
    depth = 0
    for i, ch in enumerate(text):
        depth += ch in "([{"
        depth -= ch in ")]}"
        if depth == 0:
            return i == len(text) - 1
    return False


def _linear(el: etree._Element, depth: int) -> str:
    """A MathML element read out as linear text."""
    name = _local(el)
    if depth > _MAX_DEPTH:
        return _all_text(el)
    if name in ("mi", "mn", "mtext", "ms"):
        return _folded(el.text or "") if name != "mtext" else " " + _folded(_all_text(el)) + " "
    if name == "mo":
        op = _folded(el.text or "")
        return f" {op} " if op in _SPACED_OPS else ", " if op == "," else op
    if name in ("annotation", "annotation-xml", "mprescripts", "none", "mphantom"):
        return ""
    if name == "mspace":
        return " "
    kids = [c for c in el if isinstance(c.tag, str)]
    parts = [_linear(c, depth + 1) for c in kids]
    if name == "semantics":
        return parts[0] if parts else ""
    if name in ("msubsup", "munder", "munderover") and parts and parts[0].strip() in _BIG_OPS:
        limits = "".join(("_", "^")[i] + _grouped(p) for i, p in enumerate(parts[1:3]))
        return f"{parts[0].strip()}{limits} "  # its operand follows apart: "∑_(k = 1)^n a_k"
    if name in ("msup", "msub") and len(parts) == 2:
        return parts[0].strip() + ("^" if name == "msup" else "_") + _grouped(parts[1])
    if name == "msubsup" and len(parts) == 3:
        return parts[0].strip() + "_" + _grouped(parts[1]) + "^" + _grouped(parts[2])
    if name in ("mover", "munder") and len(parts) == 2:
        if name == "mover" and (el.get("accent") == "true" or len(parts[1].strip()) == 1):
            return parts[0].strip() + parts[1].strip()  # an accent or a bar over a symbol
        return parts[0].strip() + ("^" if name == "mover" else "_") + _grouped(parts[1])
    if name == "munderover" and len(parts) == 3:
        return parts[0].strip() + "_" + _grouped(parts[1]) + "^" + _grouped(parts[2])
    if name == "mfrac" and len(parts) == 2:
        return _grouped(parts[0]) + "/" + _grouped(parts[1])
    if name == "msqrt":
        return "√" + _grouped("".join(parts)) if len(parts) != 1 or len(parts[0].strip()) > 1 else "√" + parts[0]
    if name == "mroot" and len(parts) == 2:
        return f"{_grouped(parts[0])}^(1/{parts[1].strip()})"
    if name == "mfenced":
        opening, closing = el.get("open", "("), el.get("close", ")")
        separator = (el.get("separators", ",") or ",")[:1]
        return opening + f"{separator} ".join(p.strip() for p in parts) + closing
    if name == "mtable":
        return "[" + "; ".join(p.strip() for p in parts) + "]"
    if name in ("mtr", "mlabeledtr"):  # a matrix's cells, or an aligned equation's sides ("x", "= y")
        cells = [p.strip() for p in parts]
        return "".join(c if not i else (" " if c[:1] in _SPACED_OPS and c[:1] not in _SIGNS else ", ") + c
                       for i, c in enumerate(cells))  # a cell that opens with a sign ("−i") is a value
    return _row(parts)


def _row(parts: list[str]) -> str:
    """Terms side by side; a sign that opens a row ("−b") keeps no space after it."""
    out = "".join(parts)
    stripped = out.lstrip()
    if len(stripped) > 1 and stripped[0] in _SIGNS and stripped[1] == " ":
        out = stripped[0] + stripped[2:]
    return out
