"""F1 floor: the shipped models must not regress on a fixed sample of dev pages.

The sample is the first pages (sorted by id) of each dataset's dev split, so it never
touches the test split and does not change between runs. Each floor sits a small margin
under the figure each shipped model scores; retraining that scores below it fails CI.

The floors were first set on the ten datasets the models were first trained on; datasets
added later (news in twenty languages, element-labelled pages, forums) are harder and are
guarded by a floor of their own, so that neither group can hide a loss in the other.
"""

import os
from pathlib import Path

import pytest

from blockclf import load_model
from blockclf.data import read_index
from blockclf.evaluate import evaluate_records

BENCH = Path(os.environ.get("BLOCKCLF_BENCH", Path(__file__).resolve().parents[2] / "shared" / "benchmark"))
PER_DATASET = 5
#: the datasets whose sample the first floors guarded
FIRST = ("cleaneval", "cleanportaleval", "dragnet", "l3s_gn1", "readability", "scrapinghub", "sphinx_sites",
         "utomo_big9", "utomo_chaos", "wcxb")
#: per model, (floor on the first datasets' sample, floor on the later datasets' sample).
#: First datasets: the default's floor was set 0.02 under an earlier model's 0.974 and is
#: kept, not lowered. Later datasets: 0.02 under what the first models trained on all twelve
#: datasets scored (default 0.897, refined 0.908). The shipped models, retrained with no
#: site evidence below two other pages, score 0.962 and 0.974 on the first sample, 0.903 and
#: 0.909 on the later one.
FLOORS = {"default": (float(os.environ.get("BLOCKCLF_F1_FLOOR", "0.955")), 0.877), "refined": (0.945, 0.888)}


def _sample():
    by_set: dict[str, list] = {}
    for r in sorted(read_index(BENCH, ["dev"]), key=lambda r: (r.dataset, r.id)):
        by_set.setdefault(r.dataset, [])
        if len(by_set[r.dataset]) < PER_DATASET:
            by_set[r.dataset].append(r)
    return [r for rs in by_set.values() for r in rs]


@pytest.mark.skipif(not (BENCH / "index.jsonl").exists(),
                    reason=f"benchmark not found at {BENCH} (set BLOCKCLF_BENCH to its folder)")
@pytest.mark.parametrize("name", list(FLOORS))
def test_shipped_model_f1_on_dev_sample_stays_above_floor(name: str):
    records = _sample()
    first = [r for r in records if r.dataset in FIRST]
    later = [r for r in records if r.dataset not in FIRST]
    assert len(first) >= 40 and len(later) >= 15
    df = evaluate_records(records, load_model(name))
    df["first"] = [r.dataset in FIRST for r in records]
    for group, floor in zip((True, False), FLOORS[name]):
        mean = df.loc[df["first"] == group, "f1"].mean()
        which = "first ten datasets" if group else "datasets added later"
        assert mean >= floor, f"{name}, {which}: mean F1 {mean:.3f} fell below the floor {floor:.3f}"
