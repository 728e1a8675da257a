"""Words, tokens and sentence ends of a text, in scripts written with and without spaces.

Most scripts set words off with spaces: a word is what whitespace separates, a token a
``\\w+`` run, a sentence ends at ``.!?`` before a space. Chinese and Japanese (Han ideographs
and kana), and Thai, Lao, Myanmar and Khmer, write words without spaces, and those rules
read a paragraph of them as one to three words: a length, link-per-word or function-word
figure that says "button" of a paragraph. Here such text gets counts of the same order as
the same content in a spaced language:

- each Han or kana character is a token, and every `HAN_KANA_PER_WORD` of them a word (a
  Chinese word is one or two characters, a Japanese one two or three; an English
  translation runs to between half and two thirds as many words as the original has
  characters);
- every `LETTERS_PER_WORD` Thai, Lao, Myanmar or Khmer letters make one word and one token
  (their words are several letters long and only a dictionary finds where they end, so
  those letters are counted but not kept as tokens);
- the wide punctuation of these scripts separates words rather than being part of one,
  ``。！？`` end a sentence with no space after them, and ``、`` is a comma.

Text with none of these scripts (`is_spaced`, nearly every block of most pages) is counted
by the spaced rules alone; `features` keeps that path free of anything else.
"""

from __future__ import annotations

import re
from functools import cache
from typing import NamedTuple

__all__ = ["HAN_KANA_PER_WORD", "LETTERS_PER_WORD", "SENT_END", "SPACED_WORD_CHARS", "WORD", "is_spaced",
           "paired_tokens", "spaced_length", "title_parts", "title_words", "tokens", "unspaced_counts"]

#: a token of spaced text
WORD = re.compile(r"\w+")
#: a sentence end of spaced text
SENT_END = re.compile(r"[.!?。！？](?:\s|$)")
#: Han or kana characters that make one word
HAN_KANA_PER_WORD = 2
#: letters of the southeast Asian scripts that make one word
LETTERS_PER_WORD = 4

_HAN_KANA = ("\u3040-\u30ff\u31f0-\u31ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff66-\uff9f"
             "\U00020000-\U0003134f")
_SOUTHEAST = "\u0e00-\u0eff\u1000-\u109f\u1780-\u17ff"  # Thai, Lao, Myanmar, Khmer
# punctuation of those scripts, typographic quotes and dashes: between words, not words
_WIDE_PUNCT = "\u2010-\u205e\u3000-\u303f\uff01-\uff0f\uff1a-\uff20\uff3b-\uff40\uff5b-\uff65"
_UNSPACED = re.compile(f"[{_HAN_KANA}{_SOUTHEAST}]")


class _Unspaced(NamedTuple):
    other_word: re.Pattern[str]
    han_kana_char: re.Pattern[str]
    token: re.Pattern[str]
    other_token: re.Pattern[str]
    han_kana_pair: re.Pattern[str]
    southeast_letter: re.Pattern[str]
    sent_end: re.Pattern[str]


@cache
def _unspaced() -> _Unspaced:
    """The patterns for text that is not `is_spaced`, compiled when first needed: their wide
    character classes take a hundredth of a second to compile, which a process that meets
    no such text (and every command's start-up) need not pay."""
    return _Unspaced(
        other_word=re.compile(f"[^\\s{_HAN_KANA}{_SOUTHEAST}{_WIDE_PUNCT}]+"),
        han_kana_char=re.compile(f"[{_HAN_KANA}]"),
        token=re.compile(f"[{_HAN_KANA}]|[^\\W{_HAN_KANA}{_SOUTHEAST}]+"),
        other_token=re.compile(f"[^\\W{_HAN_KANA}{_SOUTHEAST}]+"),
        han_kana_pair=re.compile(f"(?=([{_HAN_KANA}]{{2}}))"),
        southeast_letter=re.compile(f"[{_SOUTHEAST}]"),
        sent_end=re.compile(r"[.!?](?:\s|$)|[。！？｡]+"),
    )


def is_spaced(text: str) -> bool:
    """Whether ``text`` holds no Han, kana, Thai, Lao, Myanmar or Khmer: its words are set off by spaces.

    Most blocks are ASCII and say so without a regular expression.
    """
    return text.isascii() or _UNSPACED.search(text) is None


def tokens(text: str) -> tuple[str, ...]:
    """The lower-cased tokens of ``text``: ``\\w+`` runs, each Han or kana character on its own."""
    low = text.lower()
    return tuple(WORD.findall(low) if is_spaced(text) else _unspaced().token.findall(low))


def paired_tokens(text: str) -> set[str]:
    """The `tokens` of ``text``, but Han and kana characters taken as pairs of neighbours.

    To find one text in another: a Chinese word is one or two characters, so a pair says
    much more of where it came from than a single character, which turns up in any long text.
    """
    low = text.lower()
    if is_spaced(text):
        return set(WORD.findall(low))
    pat = _unspaced()
    return set(pat.other_token.findall(low)).union(pat.han_kana_pair.findall(low))


def unspaced_counts(text: str, low: str) -> tuple[tuple[str, ...], float, float, int, int]:
    """Tokens, words, token count, sentence ends and commas of a text that is not `is_spaced`.

    ``low`` is ``text`` lower-cased (the caller has it already). The module docstring gives
    the rules; words, and the token count when southeast Asian letters are in, may be fractional.
    """
    pat = _unspaced()
    toks = tuple(pat.token.findall(low))
    han_kana = len(pat.han_kana_char.findall(low)) / HAN_KANA_PER_WORD
    letters = len(pat.southeast_letter.findall(low)) / LETTERS_PER_WORD
    commas = text.count(",") + text.count("，") + text.count("、")
    return (toks, len(pat.other_word.findall(low)) + han_kana + letters, len(toks) + letters,
            len(pat.sent_end.findall(text)), commas)


#: characters a word of spaced text takes, with the space after it (English averages 5-6)
SPACED_WORD_CHARS = 6


def spaced_length(text: str) -> int:
    """The length ``text`` would have written in a spaced script, in whole characters: a Han or kana
    character counts `SPACED_WORD_CHARS` / `HAN_KANA_PER_WORD` (3), a Thai, Lao, Myanmar or
    Khmer letter `SPACED_WORD_CHARS` / `LETTERS_PER_WORD` (1.5), any other character 1.

    A length threshold set on spaced text ("a paragraph has 150 characters or more") then
    means as much text in any script: a Japanese paragraph of 100 characters says about
    what an English one of 300 does.
    """
    if is_spaced(text):
        return len(text)
    pat = _unspaced()
    han_kana = len(pat.han_kana_char.findall(text))
    letters = len(pat.southeast_letter.findall(text))
    return round(len(text) + han_kana * (SPACED_WORD_CHARS / HAN_KANA_PER_WORD - 1)
                 + letters * (SPACED_WORD_CHARS / LETTERS_PER_WORD - 1))


def title_words(title: str) -> float:
    """The words of a title: its ``\\w+`` runs, every `HAN_KANA_PER_WORD` Han or kana characters one word."""
    if is_spaced(title):
        return len(WORD.findall(title))
    han_kana_char = _unspaced().han_kana_char
    han_kana = len(han_kana_char.findall(title))
    return len(WORD.findall(han_kana_char.sub(" ", title))) + han_kana / HAN_KANA_PER_WORD


#: Han and kana characters and the punctuation written with them
_CJK_TITLE = f"{_HAN_KANA}\u3000-\u303f\uff01-\uff60"
#: title separators: spaced dashes, bars, bullets, guillemets ("Post « Blog", as older blog
#: themes write it), slashes; bare bars; an underscore after a space; in Chinese and Japanese
#: titles, written without spaces, an underscore after their characters and a hyphen between
#: them ("人工智能迈上新台阶_科技_腾讯网", "座谈会-中国科普网")
_TITLE_SEPARATORS = re.compile(r"\s+[|\-–—·•»«:/\\~]+(?:\s+|$)|\s*[|｜]\s*(?=\S)|\s+_\s*"
                               # capitalised words of a site joined to the headline's end by
                               # underscores ("…owing to typhoon_English_Xinhua"), not an
                               # identifier's ("Grid_Slayer_and_LSCgrid")
                               r"|(?<=[a-z])_(?=[A-Z][a-z]+(?:_[A-Z][a-z]+)*$)"
                               f"|(?<=[{_CJK_TITLE}])_(?=\\S)|(?<=[{_CJK_TITLE}])-+(?=[{_CJK_TITLE}])")


def title_parts(title: str) -> list[tuple[str, int, int]]:
    """The parts of a title between its separators (``"Page - Site | Home"``), each with where
    it starts and ends: the headline's (metadata) and an error code's (checks)."""
    out: list[tuple[str, int, int]] = []
    pos = 0
    for m in _TITLE_SEPARATORS.finditer(title):
        if title[pos:m.start()].strip():
            out.append((title[pos:m.start()], pos, m.start()))
        pos = m.end()
    if title[pos:].strip():
        out.append((title[pos:], pos, len(title)))
    return out
