"""Training on a tiny synthetic dataset in the benchmark layout."""

from __future__ import annotations

import logging

import numpy as np
import pandas as pd
import pytest

from blockclf import Model, extract, score_text
from blockclf.classifier import BlockClassifier
from blockclf.data import read_index
from blockclf.features import FEATURES
from blockclf.train import MIN_QUALITY, choose_thresholds, fit_model, label_pages, page_scores


def test_fit_model_thresholds_are_ordered(tiny_model: Model):
    t = tiny_model.thresholds
    assert 0 <= t["recall"] <= t["balanced"] <= t["precision"] <= 1


def test_fit_model_records_provenance(tiny_model: Model):
    info = tiny_model.info
    assert info["train_pages"] == 20 and info["train_pages_excluded"] == 0
    assert info["dev_pages"] == 8
    assert info["trained_on"] == ["alpha", "beta"]
    assert info["seed"] == 0 and len(info["data_digest"]) == 16
    assert tiny_model.features == FEATURES
    assert tiny_model.classifier.best_iteration_ <= 60  # the small classifier passed in was used


def test_model_extracts_an_unseen_page(tiny_model: Model, synthetic_page):
    page = synthetic_page(11, 0)  # a site (and template spelling) not in train or dev
    res = extract(page.html.encode("utf-8"), model=tiny_model)
    assert score_text(res.text, page.gold).f1 > 0.95
    assert "All rights reserved" not in res.text
    assert page.title in res.text


def test_label_pages_fill_repetition_within_each_site(tiny_dataset):
    records = read_index(tiny_dataset, ["train"])[:5]  # the five pages of one site
    assert len({r.site for r in records}) == 1
    pages = label_pages(records, n_jobs=1)
    assert len(pages) == 5
    for p in pages:
        assert list(p.X.columns) == FEATURES
        assert (p.X["site_pages"] == 4).all()
        assert not p.X["rep_text"].isna().any()
        assert p.labels.quality >= MIN_QUALITY
        # template blocks repeat on every other page, article blocks on none
        content = p.labels.content
        assert (p.X["rep_text"][~content] > 0.9).mean() > 0.8
        assert (p.X["rep_text"][content] == 0).all()


def test_a_lone_page_has_no_site_evidence(tiny_dataset):
    [p] = label_pages(read_index(tiny_dataset, ["train"])[:1], n_jobs=1)
    assert p.X["rep_text"].isna().all() and (p.X["site_pages"] == 0).all()


def test_badly_aligned_pages_are_excluded_and_counted(tiny_dataset, tmp_path, caplog):
    import shutil

    root = tmp_path / "data"
    shutil.copytree(tiny_dataset, root)
    # two training pages get a gold text that is not on the page at all
    for rec in read_index(root, ["train"])[:2]:
        rec.gold_path.write_text("completely unrelated words that never appear\n", encoding="utf-8")
    clf = BlockClassifier(n_estimators=10, num_leaves=7, min_child_samples=5, n_jobs=1)
    with caplog.at_level(logging.INFO, logger="blockclf"):
        model = fit_model(read_index(root, ["train"]), read_index(root, ["dev"]), n_jobs=1, classifier=clf)
    assert model.info["train_pages"] == 18
    assert model.info["train_pages_excluded"] == 2
    assert "2 excluded" in caplog.text


def test_unreadable_pages_are_left_out_and_named_not_the_end_of_training(tiny_dataset, tmp_path, capsys):
    """A train page whose gold is not UTF-8, one whose page is missing, a dev page whose gold is
    a folder: each named on stderr, the run exits 1 with a model. One such file stopped the
    whole run (after the work, for a missing page) with an error naming no file."""
    import shutil

    from blockclf.cli import main

    root = tmp_path / "data"
    shutil.copytree(tiny_dataset, root)
    bad_gold, gone, *_ = read_index(root, ["train"])
    bad_gold.gold_path.write_bytes(b"\xa6\xff\x00binary")
    gone.html_path.unlink()
    dev = read_index(root, ["dev"])[0]
    dev.gold_path.unlink()
    dev.gold_path.mkdir()
    code = main(["train", str(root), "-o", str(tmp_path / "m.json"), "--jobs", "1"])
    err = capsys.readouterr().err
    assert code == 1 and (tmp_path / "m.json").exists()
    assert f"skipped {bad_gold.key}: its gold text cannot be read" in err
    assert f"skipped {gone.key}: its page cannot be read" in err
    assert f"skipped {dev.key}: its gold text cannot be read" in err
    assert main(["evaluate", str(root), "--model", str(tmp_path / "m.json"), "--split", "train"]) == 1
    assert f"skipped {bad_gold.key}: its gold text cannot be read" in capsys.readouterr().err


def test_rounds_cap_the_trees_of_a_model_trained_from_scratch(tiny_dataset, tmp_path, capsys):
    """--rounds was read only when fine-tuning: from scratch it was ignored, and 0 was taken."""
    from blockclf.cli import main
    from blockclf.model import load_model

    assert main(["train", str(tiny_dataset), "-o", str(tmp_path / "m.json"), "--rounds", "3", "--jobs", "1"]) == 0
    assert load_model(tmp_path / "m.json").classifier.booster_.current_iteration() <= 3
    capsys.readouterr()
    assert main(["train", str(tiny_dataset), "-o", str(tmp_path / "n.json"), "--rounds", "0"]) == 2
    assert "must be at least 1, got 0" in capsys.readouterr().err and not (tmp_path / "n.json").exists()


def test_train_pages_of_one_label_only_are_refused_not_a_perfect_model(tiny_dataset, tmp_path, capsys):
    """Every gold text empty: every block boilerplate, and the model was said to score F1 1.000."""
    import shutil

    from blockclf.cli import main

    root = tmp_path / "data"
    shutil.copytree(tiny_dataset, root)
    for rec in read_index(root, ["train"]):
        rec.gold_path.write_text("", encoding="utf-8")
    assert main(["train", str(root), "-o", str(tmp_path / "m.json"), "--jobs", "1"]) == 2
    assert "every block of the train pages is labelled boilerplate" in capsys.readouterr().err
    assert not (tmp_path / "m.json").exists()


def test_page_scores_and_threshold_choice(tiny_dataset):
    pages = label_pages(read_index(tiny_dataset, ["dev"]), n_jobs=1)
    # an oracle that scores content 0.9 and boilerplate 0.1 is perfect at any threshold between
    probas = [np.where(p.labels.content, 0.9, 0.1) for p in pages]
    assert page_scores(pages, probas, 0.5) == pytest.approx(np.ones(len(pages)))
    assert (page_scores(pages, probas, 0.95) == 0).all()  # nothing kept
    thresholds, best = choose_thresholds(pages, probas)
    assert all(0.1 < t <= 0.9 for t in thresholds.values())
    assert best == {"precision": 1.0, "balanced": 1.0, "recall": 1.0}


def test_thresholds_order_with_overlapping_scores(tiny_dataset):
    """When content and boilerplate scores overlap, F0.5 wants a higher cut than F1, F1 than F2."""
    pages = label_pages(read_index(tiny_dataset, ["dev"]), n_jobs=1)
    rng = np.random.default_rng(0)
    probas = [np.where(p.labels.content, rng.uniform(0.0, 1.0, len(p.X)), rng.uniform(0.0, 0.8, len(p.X)))
              for p in pages]
    t, _ = choose_thresholds(pages, probas)
    assert t["recall"] <= t["balanced"] <= t["precision"]
    assert t["recall"] < t["precision"]


def test_refining_folds_keep_sites_whole_and_need_three_sites(tiny_dataset, caplog):
    from blockclf.train import fit_refiner, site_folds

    train = label_pages(read_index(tiny_dataset, ["train"]), n_jobs=1)
    folds = site_folds(train, 3, seed=0)
    assert set(folds.tolist()) == {0, 1, 2}
    for site in {p.record.site for p in train}:
        assert len({f for p, f in zip(train, folds) if p.record.site == site}) == 1
    two_sites = [p for p in train if p.record.site in sorted({q.record.site for q in train})[:2]]
    dev = label_pages(read_index(tiny_dataset, ["dev"]), n_jobs=1)
    first = BlockClassifier(n_estimators=5, num_leaves=3, min_child_samples=5, n_jobs=1)
    first.fit(pd.concat([p.X for p in two_sites])[FEATURES], np.concatenate([p.labels.content for p in two_sites]))
    with caplog.at_level(logging.WARNING, logger="blockclf"):
        assert fit_refiner(first, two_sites, dev) is None
    assert "fewer than 3 sites" in caplog.text
