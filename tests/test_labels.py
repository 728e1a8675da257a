"""Training labels: in-order alignment with the gold, the quality figure, block annotations."""

from __future__ import annotations

import numpy as np
import pytest

from blockclf import Block, score_text
from blockclf.evaluate import tokens
from blockclf.labels import CONTENT_SHARE, from_annotations, from_gold


def page(*texts: str) -> list[Block]:
    return [Block(index=i, text=t, tag="p", xpath=f"/html/body/p[{i + 1}]", depth=2) for i, t in enumerate(texts)]


MENU = ("News", "Weather", "Sport", "Home")
ARTICLE = ("Weather news for the valley",
           "The weather service issued news of a storm in the valley today.",
           "Sport events in the valley were moved to the weekend.")


def test_menu_words_that_occur_in_gold_stay_boilerplate():
    blocks = page(*MENU, *ARTICLE, "Sport", "News archive")
    gold = "\n\n".join(ARTICLE)
    labels = from_gold(blocks, gold)
    # every menu word also occurs in the gold, but not at that place in the token stream
    assert labels.content.tolist() == [False] * 4 + [True] * 3 + [False, False]
    assert labels.quality == 1.0
    assert labels.gold_tokens == len(tokens(gold))


def test_counts_per_block():
    blocks = page("Home", "alpha beta gamma delta", "alpha zeta eta theta")
    labels = from_gold(blocks, "alpha beta gamma delta")
    assert labels.n_tokens.tolist() == [1, 4, 4]
    assert labels.matched.tolist() == [0, 4, 0]
    assert labels.content.tolist() == [False, True, False]


def test_a_block_is_content_when_most_of_it_aligns():
    # the gold drops one word of a five-word block: still content
    blocks = page("one two three four five", "six seven eight nine ten")
    labels = from_gold(blocks, "one two three five six seven")
    assert labels.matched.tolist() == [4, 2]
    assert labels.content.tolist() == [True, False]
    assert CONTENT_SHARE == 0.5


def test_quality_is_the_f1_of_the_labelled_content():
    blocks = page("kept words here", "menu")
    gold = "kept words here and more gold that is not on the page"
    labels = from_gold(blocks, gold)
    assert labels.content.tolist() == [True, False]
    assert labels.quality == pytest.approx(score_text("kept words here", gold).f1)
    assert labels.quality < 0.8


def test_empty_gold_labels_nothing():
    labels = from_gold(page("just a menu", "and a footer"), "")
    assert not labels.content.any()
    assert labels.gold_tokens == 0
    assert labels.quality == 1.0  # an empty prediction for an empty gold is right


def test_blocks_without_tokens():
    labels = from_gold(page("...", "word"), "word")
    assert labels.content.tolist() == [False, True]
    assert labels.n_tokens.tolist() == [0, 1]


def test_from_annotations_follows_the_annotated_runs():
    blocks = page("Home News", "The article text goes here.", "Related: more news", "Second paragraph.")
    runs = [("Home News", False), ("The article text goes here.", True),
            ("Related: more news", False), ("Second paragraph.", True)]
    gold = "The article text goes here.\n\nSecond paragraph."
    labels = from_annotations(blocks, runs, gold)
    assert labels.content.tolist() == [False, True, False, True]
    assert labels.quality == 1.0


def test_from_annotations_aligns_by_text_when_runs_are_cut_differently():
    # the annotation splits and merges text differently from the segmenter
    blocks = page("Home News The", "article text goes here.", "Footer line two")
    runs = [("Home News", False), ("The article text", True), ("goes here. Footer", True), ("line two", False)]
    labels = from_annotations(blocks, runs, "The article text goes here. Footer")
    assert labels.content.tolist() == [False, True, False]
    assert isinstance(labels.content, np.ndarray)
