"""The scoring convention of DESIGN §4: lower-cased Unicode word tokens, multiset overlap."""

from __future__ import annotations

import pandas as pd
import pytest

from blockclf import Score, score_text
from blockclf.evaluate import summary, tokens


def test_tokens_are_lowercased_unicode_words():
    assert tokens("Hello, WORLD! It's 2024 — naïve café_au_lait 数据") == [
        "hello", "world", "it", "s", "2024", "naïve", "café_au_lait", "数据"]
    assert tokens("ΣΊΣΥΦΟΣ Straße") == ["σίσυφος", "straße"]  # str.lower: final sigma


def test_identical_text_scores_one_regardless_of_case_and_punctuation():
    assert score_text("The River, the BANK.", "the river the bank") == Score(1.0, 1.0, 1.0)


def test_multiset_overlap_counts_repeats():
    # predicted has "the" three times, gold once: only one of them matches
    s = score_text("the the the river", "the river")
    assert s.precision == pytest.approx(2 / 4)
    assert s.recall == 1.0
    assert s.f1 == pytest.approx(2 * 0.5 * 1 / 1.5)


def test_partial_overlap():
    s = score_text("alpha beta gamma", "beta gamma delta epsilon")
    assert s.precision == pytest.approx(2 / 3)
    assert s.recall == pytest.approx(2 / 4)
    assert s.f1 == pytest.approx(2 * (2 / 3) * (1 / 2) / (2 / 3 + 1 / 2))


def test_order_does_not_matter():
    assert score_text("c b a", "a b c").f1 == 1.0


def test_empty_gold():
    assert score_text("", "") == Score(1.0, 1.0, 1.0)
    assert score_text("  ...  ", "\n") == Score(1.0, 1.0, 1.0)  # no tokens on either side
    assert score_text("something", "") == Score(0.0, 1.0, 0.0)


def test_empty_prediction_or_no_overlap():
    assert score_text("", "gold text") == Score(0.0, 0.0, 0.0)
    assert score_text("other words", "gold text") == Score(0.0, 0.0, 0.0)


def test_summary_means_per_dataset_and_all_row():
    df = pd.DataFrame([
        {"dataset": "a", "precision": 1.0, "recall": 0.5, "f1": 0.6},
        {"dataset": "a", "precision": 0.0, "recall": 0.5, "f1": 0.2},
        {"dataset": "b", "precision": 1.0, "recall": 1.0, "f1": 1.0},
    ])
    table = summary(df)
    assert list(table.index) == ["a", "b", "all"]
    assert table.loc["a", "f1"] == pytest.approx(0.4)
    assert table.loc["a", "pages"] == 2
    # the overall row is the mean over pages, not over datasets
    assert table.loc["all", "f1"] == pytest.approx(0.6)
    assert table.loc["all", "pages"] == 3


def test_evaluate_records_scores_each_page(tiny_dataset, tiny_model):
    from blockclf.data import read_index
    from blockclf.evaluate import evaluate_records

    records = read_index(tiny_dataset, ["test"])
    df = evaluate_records(records, tiny_model)
    assert len(df) == len(records) == 6
    assert set(df["dataset"]) == {"alpha", "beta"}
    assert df["f1"].between(0, 1).all()
    assert df["f1"].mean() > 0.9
