"""Favor thresholds: the per-page curves score what evaluation scores, and each mode keeps its promise."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

from blockclf.data import read_index
from blockclf.evaluate import evaluate_records
from blockclf.thresholds import (
    DEV_MIN_PAGES,
    F1_FLOOR,
    TARGETS,
    Curves,
    choose,
    dev_curves,
    dev_set_warnings,
    page_curve,
)

GRID = np.round(np.arange(0.1, 0.91, 0.1), 2)


def _result(blocks: list[tuple[str, float]]) -> SimpleNamespace:
    return SimpleNamespace(blocks=[SimpleNamespace(text=t) for t, _ in blocks], scores=np.array([s for _, s in blocks]))


def test_page_curve_adds_blocks_as_the_threshold_falls():
    res = _result([("alpha beta", 0.85), ("gamma delta", 0.45), ("menu", 0.05)])
    p, r = page_curve(res, "alpha beta gamma", GRID)
    at = dict(zip(GRID.tolist(), zip(p.tolist(), r.tolist())))
    assert at[0.9] == (0.0, 0.0)  # nothing kept: empty prediction against a real gold
    assert at[0.8] == pytest.approx((1.0, 2 / 3))
    assert at[0.4] == pytest.approx((3 / 4, 1.0))
    assert at[0.1] == pytest.approx((3 / 4, 1.0))  # "menu" (0.05) is under every threshold of the grid


def test_page_curve_with_empty_gold_rewards_keeping_nothing():
    p, r = page_curve(_result([("cookie notice", 0.5)]), "", GRID)
    assert (p[GRID > 0.5] == 1).all() and (r == 1).all()
    assert (p[GRID <= 0.5] == 0).all()


def test_dev_curves_match_evaluation_at_each_threshold(tiny_dataset, tiny_model):
    records = read_index(tiny_dataset, ["dev"])
    curves = dev_curves(tiny_model, records, GRID)
    assert curves.precision.shape == (len(records), len(GRID))
    for t in (0.3, 0.5, 0.7):
        j = int(np.flatnonzero(np.isclose(GRID, t))[0])
        df = evaluate_records(records, tiny_model, threshold=t)
        assert curves.precision[:, j].mean() == pytest.approx(df["precision"].mean())
        assert curves.recall[:, j].mean() == pytest.approx(df["recall"].mean())
        assert curves.f1[:, j].mean() == pytest.approx(df["f1"].mean())


def _curves(P: np.ndarray, R: np.ndarray, sites: list[str]) -> Curves:
    F = np.where(P + R > 0, 2 * P * R / np.maximum(P + R, 1e-12), 0.0)
    return Curves(GRID, P, R, F, np.asarray(sites, dtype=object))


def _uniform_pages(p: list[float], r: list[float], n_sites: int = 20) -> Curves:
    """Every page of every site scores the same curve: no site variation, so no margin."""
    P = np.tile(np.asarray(p), (n_sites, 1))
    R = np.tile(np.asarray(r), (n_sites, 1))
    return _curves(P, R, [f"s{i}" for i in range(n_sites)])


#           0.1   0.2   0.3   0.4   0.5   0.6   0.7   0.8   0.9
PRECISION = [.80, .85, .90, .93, .94, .955, .96, .97, .98]
RECALL = [.995, .98, .975, .96, .95, .93, .91, .85, .70]


def test_each_mode_takes_the_best_f1_that_keeps_its_target():
    thresholds, report = choose(_uniform_pages(PRECISION, RECALL))
    f1 = 2 * np.array(PRECISION) * RECALL / (np.array(PRECISION) + RECALL)
    assert thresholds["balanced"] == pytest.approx(GRID[np.argmax(f1)])
    # precision >= 0.95 from 0.6 up; of those, 0.6 has the best F1
    assert thresholds["precision"] == pytest.approx(0.6)
    # recall >= 0.97 up to 0.3; of those, 0.3 has the best F1
    assert thresholds["recall"] == pytest.approx(0.3)
    assert report["precision"]["target_met"] and report["recall"]["target_met"]
    assert report["precision"]["precision"] >= TARGETS["precision"]
    assert thresholds["recall"] <= thresholds["balanced"] <= thresholds["precision"]


def test_site_variation_raises_the_bar():
    """Half the sites far below the mean: the margin rules out thresholds the mean alone would pass."""
    rng = np.random.default_rng(0)
    P = np.array([np.asarray(PRECISION) + (0.04 if i % 2 else -0.04) for i in range(10)]).clip(0, 1)
    R = np.tile(np.asarray(RECALL), (10, 1))
    sites = [f"s{i}" for i in range(10)]
    rows = rng.integers(0, 10, 40)  # sites with several pages each
    thresholds, report = choose(_curves(P[rows], R[rows], [sites[i] for i in rows]))
    mean_p = P[rows].mean(axis=0)
    j = int(np.flatnonzero(np.isclose(GRID, thresholds["precision"]))[0])
    assert report["precision"]["precision_low"] < report["precision"]["precision"]
    assert report["precision"]["target_met"]
    assert report["precision"]["precision_low"] >= TARGETS["precision"]
    # the unguarded choice (first threshold whose mean reaches the target) is not taken
    first = int(np.argmax(mean_p >= TARGETS["precision"]))
    assert j > first


def test_unreachable_target_falls_back_to_the_best_lower_bound_above_the_f1_floor():
    precision = [.80, .85, .88, .90, .91, .92, .93, .94, .945]
    recall = [.96, .95, .94, .93, .92, .91, .90, .80, .60]
    thresholds, report = choose(_uniform_pages(precision, recall))
    assert not report["precision"]["target_met"] and not report["recall"]["target_met"]
    assert report["precision"]["f1"] >= F1_FLOOR
    # 0.7 is the highest-precision threshold whose F1 stays at or above the floor
    assert thresholds["precision"] == pytest.approx(0.7)
    # recall: 0.1 and 0.2 fall under the F1 floor; 0.3 has the most recall above it
    assert thresholds["recall"] == pytest.approx(0.3)


def test_a_plateau_of_equal_f1_takes_its_middle():
    flat = [0.5, 0.9, 0.9, 0.9, 0.9, 0.9, 0.5, 0.5, 0.5]
    thresholds, _ = choose(_uniform_pages(flat, flat))
    assert thresholds["balanced"] == pytest.approx(0.4)


def test_trained_model_records_each_modes_dev_figures(tiny_model):
    scores = tiny_model.info["dev_scores"]
    assert set(scores) == {"precision", "balanced", "recall"}
    for favor, d in scores.items():
        assert d["threshold"] == tiny_model.thresholds[favor]
        assert 0 <= d["precision"] <= 1 and 0 <= d["recall"] <= 1
    assert set(scores["precision"]) >= {"precision_low", "target", "target_met"}
    t = tiny_model.thresholds
    assert t["recall"] <= t["balanced"] <= t["precision"]


def test_dev_curves_in_batches_equal_one_batch(tiny_dataset, tiny_model):
    records = read_index(tiny_dataset, ["dev"])
    whole = dev_curves(tiny_model, records, GRID)
    small = dev_curves(tiny_model, records, GRID, batch_pages=1)
    key = lambda c: sorted(zip(map(str, c.sites), map(tuple, c.precision), map(tuple, c.recall)))  # noqa: E731
    assert len(small.sites) == len(records) and key(small) == key(whole)


def test_targets_can_be_set_and_are_checked():
    thresholds, report = choose(_uniform_pages(PRECISION, RECALL), targets={"precision": 0.93, "recall": 0.945})
    # precision >= 0.93 holds from 0.4 up, but the mode never goes under balanced (0.5)
    assert thresholds["precision"] == pytest.approx(0.5)
    assert report["precision"]["target"] == 0.93 and report["precision"]["target_met"]
    # recall >= 0.945 up to 0.5 = balanced, the best F1 of them
    assert thresholds["recall"] == pytest.approx(0.5)
    with pytest.raises(ValueError, match="only precision, recall"):
        choose(_uniform_pages(PRECISION, RECALL), targets={"f1": 0.9})
    with pytest.raises(ValueError, match="between 0 and 1"):
        choose(_uniform_pages(PRECISION, RECALL), targets={"recall": 1.5})


def test_a_small_or_one_site_dev_set_is_warned_about():
    def pages(n: int, sites: int) -> list:
        return [SimpleNamespace(site=f"site{i % sites}.org") for i in range(n)]

    assert dev_set_warnings(pages(DEV_MIN_PAGES, 3)) == []
    small, one_site = dev_set_warnings(pages(9, 1))
    assert "9 pages" in small and "one site (site0.org)" in one_site and "other sites" in one_site
    assert len(dev_set_warnings(pages(DEV_MIN_PAGES + 10, 1))) == 1
    assert len(dev_set_warnings(pages(5, 2))) == 1
