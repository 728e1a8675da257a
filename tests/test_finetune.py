"""Fine-tuning and retraining on a user's labelled pages, mixed with public pages at a weight."""

from __future__ import annotations

import json

import numpy as np
import pytest

from blockclf.cli import main
from blockclf.features import FEATURES
from blockclf.finetune import FinetuneConfig, _mixed, compare, finetune, read_user_data
from blockclf.labelling import assign_split, label_site
from blockclf.model import load_model
from blockclf.train import label_pages

PAGE = """<html><head><title>{t}</title></head><body>
<div class="top"><a href="/">Home</a> | <a href="/news">News</a> | <a href="/about">About us</a></div>
<div class="menu"><ul><li><a href="/x">Gardening</a></li><li><a href="/y">Cooking</a></li></ul></div>
<div class="txt"><h1>{t}</h1><p>{body}</p><p>{body2}</p></div>
<div class="bottom"><p>All rights reserved. <a href="/terms">Terms</a></p></div></body></html>"""
WORDS = "river garden stone bread window harbour summer letter orchard engine lantern meadow".split()
CFG = FinetuneConfig(rounds=15, min_child_samples=5, num_leaves=7, early_stopping_rounds=5, n_jobs=1)


def _site(root, name, n, seed):
    rng = np.random.default_rng(seed)
    d = root / name
    d.mkdir()
    for i in range(n):
        words = rng.choice(WORDS, size=30)
        body = " ".join(words) + ". It was, as always, a long and careful piece of writing about it."
        (d / f"{name}{i}.html").write_text(PAGE.format(t=f"Story {i} of {name}", body=body,
                                                       body2=body[::-1].capitalize() + "."), encoding="utf-8")
    return [(p, p.name[:-5]) for p in sorted(d.glob("*.html"))]


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    root = tmp_path_factory.mktemp("ft")
    user = _site(root, "mine", 18, 1)
    assert {assign_split(name) for _, name in user} == {"train", "dev", "test"}
    label_site(user, root / "user", content="div.txt", dataset="mine", site="mine.example")
    public = _site(root, "pub", 12, 2)
    label_site(public, root / "public", content="div.txt", dataset="pub", site="pub.example", dev=0, test=0)
    # a page of the user's own site inside the public data must not be mixed in
    label_site(user[:1], root / "public", content="div.txt", dataset="leak", site="mine.example", dev=0, test=0)
    return root


@pytest.fixture(scope="module")
def scratch(data):
    return finetune([data / "user"], config=CFG)


def test_from_scratch_gives_a_usable_model_file(scratch, tmp_path):
    assert scratch.features == FEATURES
    assert scratch.info["base_trees"] == 0 and scratch.info["user_train_pages"] > 0
    assert set(scratch.thresholds) == {"precision", "balanced", "recall"}
    scratch.save(tmp_path / "m.json")
    again = load_model(tmp_path / "m.json")
    assert again.thresholds == scratch.thresholds


def test_fine_tuning_adds_trees_to_the_base_model(data, scratch):
    tuned = finetune([data / "user"], base=scratch, config=CFG)
    assert tuned.info["base_trees"] == scratch.classifier.booster_.current_iteration()
    assert tuned.classifier.best_iteration_ >= scratch.classifier.best_iteration_
    assert tuned.classifier.booster_.num_trees() >= scratch.classifier.booster_.num_trees()


def test_fine_tuning_keeps_the_base_models_refining_pass(data, tiny_refined_model, synthetic_page):
    tuned = finetune([data / "user"], base=tiny_refined_model, config=CFG)
    assert tuned.refiner is tiny_refined_model.refiner
    assert tuned.classifier.booster_.num_trees() >= tiny_refined_model.classifier.booster_.num_trees()
    from blockclf import extract

    res = extract(synthetic_page(12, 0).html.encode("utf-8"), model=tuned)
    assert res.kept.any()


def test_from_scratch_refines_only_when_asked_and_sites_allow(data, caplog):
    # the user's pages come from one site: too few for the site-grouped folds
    with caplog.at_level("WARNING", logger="blockclf"):
        model = finetune([data / "user"], config=FinetuneConfig(**{**CFG.__dict__, "refine": True}))
    assert model.refiner is None and "fewer than 3 sites" in caplog.text


def test_public_pages_are_mixed_in_without_the_users_own_site(data):
    model = finetune([data / "user"], extra=data / "public", config=FinetuneConfig(**{**CFG.__dict__, "weight": 0.7}))
    assert model.info["public_train_pages"] == 12  # the "leak" page of mine.example is left out
    assert model.info["user_weight"] == 0.7


def test_mixed_weights_give_the_user_pages_their_share(data):
    user = label_pages(read_user_data([data / "user"], "train"), n_jobs=1)
    public = label_pages(read_user_data([data / "public"], "train"), n_jobs=1)
    X, y, w = _mixed(user, public, 0.25)
    n_user = sum(len(p.X) for p in user)
    assert len(X) == len(y) == len(w)
    assert w[:n_user].sum() / w.sum() == pytest.approx(0.25)


def test_weight_outside_0_1_is_refused(data):
    with pytest.raises(ValueError, match="weight"):
        finetune([data / "user"], config=FinetuneConfig(weight=0))


def test_compare_scores_each_model_on_the_same_pages(data, scratch):
    held = read_user_data([data / "user"], "test")
    table = compare(held, {"a": scratch, "b": scratch})
    assert list(table.index) == ["a", "b"] and (table["pages"] == len(held)).all()
    assert table.loc["a", "f1"] == table.loc["b", "f1"]


def test_cli_train_with_base_prints_before_after_table(data, scratch, tmp_path, capsys):
    scratch.save(tmp_path / "base.json")
    out = tmp_path / "tuned.json"
    rc = main(["train", str(data / "user"), "--base", str(tmp_path / "base.json"), "-o", str(out),
               "--rounds", "5", "--jobs", "1"])
    text = capsys.readouterr().out
    assert rc == 0 and out.exists()
    assert "held-out pages" in text and "before (" in text and "after (" in text
    assert json.loads(out.read_text())["info"]["base_trees"] == scratch.classifier.booster_.current_iteration()


def test_cli_train_compare_from_scratch_compares_with_the_default_model(data, tmp_path, capsys):
    out = tmp_path / "scratch.json"
    assert main(["train", str(data / "user"), "--compare", "-o", str(out), "--rounds", "5", "--jobs", "1"]) == 0
    text = capsys.readouterr().out
    assert "trained from scratch" in text and "before (default model)" in text
