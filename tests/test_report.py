"""The evaluation report: PR curve over thresholds, feature importance, files and the HTML page."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest
from test_finetune import CFG, _site  # same tiny synthetic site

from blockclf.block import Block
from blockclf.cli import main
from blockclf.evaluate import score_text
from blockclf.labelling import label_site
from blockclf.predict import Result
from blockclf.report import GRID, feature_importance, pr_curve


def _res(name, texts, scores):
    blocks = [Block(i, t, "p", f"/html/body/p[{i + 1}]", 2) for i, t in enumerate(texts)]
    s = np.asarray(scores, dtype=float)
    return Result(blocks=blocks, scores=s, kept=s >= 0.5, threshold=0.5, favor="balanced", name=name)


def test_pr_curve_matches_the_scoring_convention_at_each_threshold():
    res = [_res("a", ["alpha beta", "gamma delta", "menu home"], [0.9, 0.6, 0.2]),
           _res("b", ["one two three", "login"], [0.7, 0.4])]
    golds = {"a": "alpha beta gamma delta", "b": "one two three"}
    curve = pr_curve(res, golds)
    for t in (0.0, 0.3, 0.5, 0.8, 1.0):
        row = curve[np.isclose(curve["threshold"], t)].iloc[0]
        scores = [score_text("\n".join(b.text for b, s in zip(r.blocks, r.scores) if s >= t), golds[r.name])
                  for r in res]
        assert row["precision"] == pytest.approx(np.mean([s.precision for s in scores]))
        assert row["recall"] == pytest.approx(np.mean([s.recall for s in scores]))
        assert row["f1"] == pytest.approx(np.mean([s.f1 for s in scores]))
    assert list(curve["threshold"]) == list(GRID)
    assert curve["recall"].is_monotonic_decreasing


def test_pr_curve_handles_empty_gold_pages():
    curve = pr_curve([_res("e", ["menu"], [0.3])], {"e": ""})
    assert curve.loc[np.isclose(curve["threshold"], 0.2), "f1"].item() == 0.0
    assert curve.loc[np.isclose(curve["threshold"], 0.4), "f1"].item() == 1.0


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    from blockclf.finetune import finetune

    root = tmp_path_factory.mktemp("rep")
    label_site(_site(root, "mine", 18, 1), root / "user", content="div.txt", dataset="mine", site="mine.example")
    model = finetune([root / "user"], config=CFG)
    model.save(root / "m.json")
    return root, model


def test_feature_importance_lists_top_features_with_words(tiny):
    imp = feature_importance(tiny[1], top=5)
    assert len(imp) <= 5 and imp["share"].is_monotonic_decreasing
    assert all("_" not in d for d in imp["description"])


def test_cli_evaluate_report_writes_every_file(tiny, capsys):
    root, _ = tiny
    rep = root / "report"
    assert main(["evaluate", str(root / "user"), "--model", str(root / "m.json"), "--report", str(rep)]) == 0
    assert "report written" in capsys.readouterr().out
    metrics = json.loads((rep / "metrics.json").read_text())
    assert set(metrics["thresholds"]) == {"precision", "balanced", "recall"}
    assert len(metrics["pr_curve"]["threshold"]) == len(GRID)
    pages = pd.read_csv(rep / "pages.csv")
    assert {"f1", "verdict", "kept_ratio"} <= set(pages.columns)
    page = (rep / "report.html").read_text()
    assert "Worst pages" in page and 'src="http' not in page
    assert list((rep / "worst").glob("*.html"))
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        assert "matplotlib not installed" in page
    else:
        for name in ("pr_curve.png", "importance.png", "worst_pages.png"):
            assert (rep / name).read_bytes()[:4] == b"\x89PNG"
        assert page.count('src="data:image/png;base64,') == 3


def test_explained_pages_score_as_in_the_whole_batch(tiny):
    from blockclf.data import read_index
    from blockclf.report import evaluate_pages, explain_pages

    root, model = tiny
    records = read_index(root / "user")
    _, results, _ = evaluate_pages(records, model)
    keys = [records[0].key, records[-1].key]
    explained = explain_pages(records, keys, model)
    for res in results:
        if res.name in keys:
            assert np.allclose(explained[res.name].scores, res.scores)
            assert explained[res.name].reasons is not None


def test_report_views_of_worst_pages_show_reasons(tiny):
    root, _ = tiny
    assert (root / "report").exists() or main(["evaluate", str(root / "user"), "--model", str(root / "m.json"),
                                               "--report", str(root / "report")]) == 0
    views = list((root / "report" / "worst").glob("*.html"))
    assert views and all("pushed towards" in v.read_text() for v in views)


def test_missed_and_extra_blocks_are_the_ones_that_cost_recall_and_precision():
    from blockclf.report import _diff

    res = _res("a", ["alpha beta gamma", "menu home login", "delta epsilon", "alpha beta gamma"], [0.9, 0.8, 0.1, 0.1])
    missed, extra = _diff(res, "alpha beta gamma delta epsilon")
    assert missed == ["delta epsilon"]  # the repeated removed block adds nothing the kept text lacks
    assert extra == ["menu home login"]
