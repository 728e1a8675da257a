"""Words, tokens and sentence ends in scripts written with and without spaces."""

from __future__ import annotations

import pytest

from blockclf.words import (
    HAN_KANA_PER_WORD,
    LETTERS_PER_WORD,
    is_spaced,
    paired_tokens,
    spaced_length,
    tokens,
    unspaced_counts,
)


@pytest.mark.parametrize("text", ["Plain ASCII.", "He said “hello” — twice…", "Ça coûte 5 €", "Привет, мир",
                                  "한국어는 띄어쓰기를 합니다", "مرحبا بالعالم"])
def test_spaced_scripts(text):
    assert is_spaced(text)


@pytest.mark.parametrize("text", ["中文", "Python 是一种语言", "ひらがな", "カタカナ", "ภาษาไทย", "ພາສາລາວ", "ភាសាខ្មែរ"])
def test_unspaced_scripts(text):
    assert not is_spaced(text)


def test_each_han_or_kana_character_is_a_token():
    assert tokens("Python 3 是一种「编程」语言") == ("python", "3", "是", "一", "种", "编", "程", "语", "言")
    assert tokens("日本語のテキスト") == ("日", "本", "語", "の", "テ", "キ", "ス", "ト")
    assert tokens("Hello, World") == ("hello", "world")


def test_words_sentences_and_commas_of_mixed_text():
    text = "Python 是一种编程语言，它很流行。真的吗？是的、很流行"
    toks, n_words, n_tokens, n_sentences, n_commas = unspaced_counts(text, text.lower())
    assert n_tokens == len(toks) == 1 + 19  # "Python" and each Han character, no punctuation
    assert n_words == 1 + 19 / HAN_KANA_PER_WORD
    assert n_sentences == 2  # 。 and ？ with no space after them
    assert n_commas == 2  # ， and 、


def test_wide_punctuation_is_not_a_word():
    text = "他说：“你好。”"
    _, _, n_tokens, n_sentences, _ = unspaced_counts(text, text)
    assert n_tokens == 4
    assert n_sentences == 1


def test_thai_letters_count_by_word_length():
    text = "ภาษาไทยไม่มีการเว้นวรรคระหว่างคำ แต่เว้นวรรคระหว่างประโยค"  # ten words in English
    toks, n_words, n_tokens, _, _ = unspaced_counts(text, text)
    assert n_words == n_tokens == (len(text) - 1) / LETTERS_PER_WORD
    assert 8 <= n_words <= 20
    assert toks == ()


def test_paired_tokens_take_han_and_kana_in_neighbour_pairs():
    assert paired_tokens("Python 教程 - 技术博客") == {"python", "教程", "技术", "术博", "博客"}
    assert paired_tokens("日本語です") == {"日本", "本語", "語で", "です"}
    assert paired_tokens("Hello, World") == {"hello", "world"}
    assert paired_tokens("家") == set()


def test_spaced_length_counts_what_the_text_would_take_with_spaces():
    assert spaced_length("The river moved.") == len("The river moved.")
    assert spaced_length("Größe über alles") == len("Größe über alles")  # spaced, not ASCII
    assert spaced_length("川は新しい") == 5 * 3  # two Han or kana to a word of six characters
    assert spaced_length("ภาษาไทย") == round(7 * 1.5)  # four letters to a word
    assert spaced_length("Apple 新聞") == len("Apple 新聞") + 2 * 2
    assert spaced_length("") == 0
