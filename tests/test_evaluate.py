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


def test_evaluate_names_what_it_could_not_score_and_scores_only_pages_with_gold(tiny_dataset, tiny_model_file,
                                                                                 tmp_path, capsys):
    # a user's benchmark with a broken index line, a page without gold text and a page without
    # HTML: a missing gold read as empty scored the page 0 without a word
    import json
    import shutil

    from blockclf.cli import main
    from blockclf.data import read_index

    bench = tmp_path / "bench"
    shutil.copytree(tiny_dataset, bench)
    test = read_index(bench, ["test"])
    (bench / test[0].dataset / "gold" / f"{test[0].id}.txt").unlink()
    test[1].html_path.unlink()
    with (bench / "index.jsonl").open("a", encoding="utf-8") as fh:
        fh.write("not a record\n" + json.dumps({"dataset": "alpha", "split": "test"}) + "\n")
    code = main(["evaluate", str(bench), "--split", "test", "--model", str(tiny_model_file)])
    out, err = capsys.readouterr()
    assert code == 1
    assert err.count("not a page record") == 2
    assert f"skipped {test[0].key}: no gold text" in err
    assert f"{test[1].key} could not be read, scored 0" in err
    assert out.splitlines()[-1].split()[-1] == str(len(test) - 1)  # the 'all' row counts the pages scored


def test_training_leaves_out_pages_without_gold_text_or_block_labels(tiny_dataset, tmp_path):
    import shutil

    from blockclf.data import read_index
    from blockclf.train import label_pages

    bench = tmp_path / "bench"
    shutil.copytree(tiny_dataset, bench)
    train = read_index(bench, ["train"])
    (bench / train[0].dataset / "gold" / f"{train[0].id}.txt").unlink()
    pages = label_pages(read_index(bench, ["train"]), n_jobs=1)
    assert train[0].key not in {p.record.key for p in pages} and len(pages) == len(train) - 1


def test_scoring_in_workers_gives_the_table_of_one_process(tiny_dataset, tiny_model, tiny_model_file, tmp_path):
    """A model given by its file is scored in worker processes through the streaming batch;
    the table is the one a single process gives, a page that cannot be read included."""
    import shutil

    from blockclf.data import read_index
    from blockclf.evaluate import score_records

    bench = tmp_path / "bench"
    shutil.copytree(tiny_dataset, bench)
    records = read_index(bench, ["train", "test"])
    records[2].html_path.write_bytes(b"")  # an empty page: scored 0, verdict failed
    one, results, _ = score_records(records, tiny_model)
    two, results2, _ = score_records(records, str(tiny_model_file), jobs=2)
    assert len(one) == len(records) and (one["verdict"] == "failed").sum() == 1
    pd.testing.assert_frame_equal(one, two)
    assert [r.text for r in results] == [r.text for r in results2]


def test_a_report_path_that_is_a_file_stops_evaluate_before_the_scoring(tiny_dataset, tiny_model_file, tmp_path,
                                                                        capsys, monkeypatch):
    import blockclf.evaluate
    from blockclf.cli import main

    report = tmp_path / "report"
    report.write_text("notes", encoding="utf-8")
    monkeypatch.setattr(blockclf.evaluate, "score_records", lambda *a, **k: pytest.fail("pages scored"))
    code = main(["evaluate", str(tiny_dataset), "--model", str(tiny_model_file), "--report", str(report)])
    out, err = capsys.readouterr()
    assert code == 3 and out == ""
    assert err.count("\n") == 1 and err.startswith(f"blockclf: error: cannot write to {report}")
    assert report.read_text(encoding="utf-8") == "notes"
