"""A page's language (BCP 47 primary subtag): its declaration (``<html lang>``,
``Content-Language``, ``og:locale``, JSON-LD ``inLanguage``) checked against the script of
its text, and identified from the text (CLD2, by ``pycld2``; py3langid where CLD2 has no
wheel) when the page declares none, its declaration does not fit the text's script, or CLD2
is sure that a long enough text is in another language (a theme's ``lang="en"`` on a Swahili
news site)."""

from __future__ import annotations

import re
import threading
from collections.abc import Iterable, Sequence
from typing import Any

try:
    import pycld2
except ImportError:  # no wheel for this platform (Python 3.14, Linux on ARM): py3langid instead
    pycld2 = None

from .block import Block
from .metatext import clean_value
from .words import is_spaced

__all__ = ["LANG_MIN_CONFIDENCE", "LANG_MIN_PLACED", "LANG_OVERRULE_CHARS", "LANG_OVERRULE_CONFIDENCE",
           "LANG_SAMPLE_CHARS", "LANG_UNRELIABLE", "language_sample", "page_language"]


#: characters of page text read to check or identify its language
LANG_SAMPLE_CHARS = 400
#: an identified language replaces a declared one that does not fit the text's script at this
#: confidence or above; with no declaration, at 0.5 (see `_identify`)
LANG_MIN_CONFIDENCE = 0.7
#: the confidence of an answer CLD2 marks as unreliable is scaled by this
LANG_UNRELIABLE = 0.75
#: CLD2's answer speaks for the share of the text it could place in a language (percent); under
#: this share, its confidence is scaled down in proportion: Chinese specifications full of
#: Latin part names and numbers leave 5% placed, as Scots
LANG_MIN_PLACED = 33
#: a declared language in the text's script yields to the one CLD2 identifies in at least this
#: many characters of sample, at this confidence or above: a theme's ``lang="en"`` left on a
#: Zulu, Swahili or German site
LANG_OVERRULE_CHARS = 200
LANG_OVERRULE_CONFIDENCE = 0.9


_LANG_TAG = re.compile(r"^([a-zA-Z]{2,3})(?:[-_][a-zA-Z0-9]{1,8})*$")
#: the script a language's text is written in, for the languages whose script is not Latin
_SCRIPT_OF = {
    **dict.fromkeys(["ru", "uk", "be", "bg", "sr", "mk", "kk", "ky", "mn", "tg"], "cyrillic"),
    **dict.fromkeys(["ar", "fa", "ur", "ps", "ug"], "arabic"),
    "he": "hebrew", "yi": "hebrew", "el": "greek", "hy": "armenian", "ka": "georgian",
    **dict.fromkeys(["hi", "mr", "ne"], "devanagari"),
    "bn": "bengali", "ta": "tamil", "te": "telugu", "kn": "kannada", "ml": "malayalam", "gu": "gujarati",
    "pa": "gurmukhi", "th": "thai", "lo": "lao", "km": "khmer", "my": "myanmar", "si": "sinhala", "am": "ethiopic",
    "zh": "han", "ja": "kana", "ko": "hangul",
}
_SCRIPT_RANGES = (
    (0x0400, 0x052F, "cyrillic"), (0x0590, 0x05FF, "hebrew"), (0x0600, 0x06FF, "arabic"), (0x0370, 0x03FF, "greek"),
    (0x0530, 0x058F, "armenian"), (0x10A0, 0x10FF, "georgian"), (0x0900, 0x097F, "devanagari"),
    (0x0980, 0x09FF, "bengali"), (0x0A00, 0x0A7F, "gurmukhi"), (0x0A80, 0x0AFF, "gujarati"),
    (0x0B80, 0x0BFF, "tamil"), (0x0C00, 0x0C7F, "telugu"), (0x0C80, 0x0CFF, "kannada"),
    (0x0D00, 0x0D7F, "malayalam"), (0x0D80, 0x0DFF, "sinhala"), (0x0E00, 0x0E7F, "thai"), (0x0E80, 0x0EFF, "lao"),
    (0x1000, 0x109F, "myanmar"), (0x1200, 0x139F, "ethiopic"), (0x1780, 0x17FF, "khmer"),
    (0x3040, 0x30FF, "kana"), (0x3400, 0x9FFF, "han"), (0xAC00, 0xD7AF, "hangul"), (0x1100, 0x11FF, "hangul"),
)


_NOT_LATIN_LETTER = re.compile(r"[^A-Za-z\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u024f\u1e00-\u1eff]+")
#: what is surely no letter of another script: ASCII, Latin, general punctuation, spaces, digits
_LATIN_OR_NO_LETTER = re.compile(r"[\x00-\u024f\u1e00-\u206f\s\d]+")


def _script(text: str) -> str | None:
    """The dominant script of a text's letters (``latin`` for Latin letters); None with few letters."""
    latin = len(_NOT_LATIN_LETTER.sub("", text))
    other = _LATIN_OR_NO_LETTER.sub("", text)
    if len(other) <= latin:  # the common case, read without a loop in Python
        return "latin" if latin >= 20 else None
    counts: dict[str, int] = {"latin": latin}
    n = latin
    for ch in other:
        if ch.isalpha():
            n += 1
            o = ord(ch)
            s = next((name for lo, hi, name in _SCRIPT_RANGES if lo <= o <= hi), "other")
            counts[s] = counts.get(s, 0) + 1
    if n < 20:
        return None
    best = max(counts, key=counts.__getitem__)
    if best == "han" and counts.get("kana", 0) >= 0.05 * n:
        return "kana"  # Japanese mixes kanji with kana
    if best == "han" and counts.get("hangul", 0) >= 0.05 * n:
        return "hangul"
    return best


def _fits(lang: str, script: str | None) -> bool:
    """Whether a language is written in the text's script (unknown scripts fit anything)."""
    if script is None or script == "other":
        return True
    expected = _SCRIPT_OF.get(lang, "latin")
    return expected == script or (expected == "kana" and script == "han") or (lang == "sr" and script == "latin")


#: withdrawn language codes that CLD2 and some pages still use, and what BCP 47 spells today
_LEGACY_CODES = {"iw": "he", "jw": "jv", "in": "id", "ji": "yi", "mo": "ro", "zh-hant": "zh", "sh": "sr"}
#: characters CLD2 refuses as invalid input (C0 and C1 controls, lone surrogates, non-characters)
_CLD2_REFUSES = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff\ufdd0-\ufdef\ufffe\uffff]")


def _identify(text: str) -> tuple[str, float]:
    """The language of a text and CLD2's confidence in it: that language's share of the text
    CLD2 could place, or of `LANG_MIN_PLACED` percent of it when it placed less (its mark of an
    unreliable answer scales it by `LANG_UNRELIABLE`).

    Where ``pycld2`` has no wheel and could not be built, py3langid answers instead (its
    normalised probability as the confidence): pure Python, but it reads a 68 MB model, about
    a second, in every process that identifies a language."""
    if pycld2 is None:
        return _identify_py3langid(text)
    try:
        reliable, _, details = pycld2.detect(_CLD2_REFUSES.sub(" ", text), isPlainText=True)
    except pycld2.error:  # still refused: the text is left unidentified
        return "un", 0.0
    known = [(code.lower(), percent) for _, code, percent, _ in details if code not in ("un", "xxx") and percent > 0]
    if not known:
        return "un", 0.0
    code, percent = max(known, key=lambda k: k[1])
    share = percent / max(sum(p for _, p in known), LANG_MIN_PLACED) * (1.0 if reliable else LANG_UNRELIABLE)
    return _LEGACY_CODES.get(code, code), share


_PY3LANGID: Any = None
_PY3LANGID_LOCK = threading.Lock()


def _identify_py3langid(text: str) -> tuple[str, float]:
    """`_identify` by py3langid, whose model is read once a process, on first use."""
    global _PY3LANGID
    if _PY3LANGID is None:
        with _PY3LANGID_LOCK:
            if _PY3LANGID is None:
                from py3langid.langid import MODEL_FILE, LanguageIdentifier

                _PY3LANGID = LanguageIdentifier.from_model_file(MODEL_FILE, norm_probs=True)
    lang, prob = _PY3LANGID.classify(_CLD2_REFUSES.sub(" ", text))
    return _LEGACY_CODES.get(str(lang), str(lang)), float(prob)


def _primary(tag: str | None) -> str | None:
    """The primary subtag of a BCP 47 language tag, lower-cased; None for an unusable tag."""
    tag = clean_value(tag, 40)
    if not tag:
        return None
    m = _LANG_TAG.match(tag.split(",")[0].strip())
    if not m:
        return None
    lang = m.group(1).lower()
    return None if lang in _NO_LANGUAGE else _LEGACY_CODES.get(lang, lang)


#: what pages put where a language belongs but names none (``"utf-8"`` is a character set)
_NO_LANGUAGE = frozenset({"und", "mul", "zxx", "xx", "utf", "iso", "win", "asc", "cp"})


def language_sample(blocks: Sequence[Block], extra: Sequence[str | None]) -> str:
    """Up to `LANG_SAMPLE_CHARS` of the page's prose: its first visible, mostly unlinked, sentence-long blocks."""
    parts = [t for t in extra if t]
    size = sum(len(p) for p in parts)
    for b in blocks:
        if size >= LANG_SAMPLE_CHARS:
            break
        if len(b.text) >= 80 and not b.hidden and b.link_chars < 0.3 * len(b.text):
            parts.append(b.text)
            size += len(b.text)
    return " ".join(parts)[:LANG_SAMPLE_CHARS]


#: languages close enough that CLD2 tells them apart less surely than a page's declaration does
_KIN = (frozenset({"no", "nb", "nn"}), frozenset({"hr", "sr", "bs"}), frozenset({"ms", "id"}))


def _overruled(lang: str, sample: str) -> str | None:
    """The language CLD2 finds ``sample`` written in, when that is surely not the declared
    ``lang`` (`LANG_OVERRULE_CHARS`, `LANG_OVERRULE_CONFIDENCE`, not a close kin); else None.

    Only with CLD2: py3langid, where CLD2 cannot be installed, would read its model (a
    second) in every process for a check that changes a page in a few hundred."""
    if pycld2 is None or len(sample) < LANG_OVERRULE_CHARS:
        return None
    found, confidence = _identify(sample)
    if confidence < LANG_OVERRULE_CONFIDENCE or found in (lang, "un") or any(found in k and lang in k for k in _KIN):
        return None
    return found


def page_language(declared: Iterable[str | None], sample: str) -> str | None:
    """The first usable declared language when it fits the script of ``sample`` (the page's
    title, description and first prose) and a long sample does not surely say otherwise
    (`_overruled`); else the language identified from ``sample``, when confident enough
    (`LANG_MIN_CONFIDENCE`, or 0.5 when the page declares none).

    A sample under 40 characters is too short to identify in a spaced script, but not in
    Chinese, Japanese or Thai, whose 20 characters say as much as a sentence."""
    lang = next((p for p in map(_primary, declared) if p), None)
    if lang is not None and _fits(lang, _script(sample)):
        return _overruled(lang, sample) or lang
    if len(sample) < 40 and is_spaced(sample):
        return lang
    found, confidence = _identify(sample)
    if confidence >= LANG_MIN_CONFIDENCE or (lang is None and confidence >= 0.5):
        return found
    return lang
