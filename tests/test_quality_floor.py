"""F1 floor: the shipped models must not regress on a fixed sample of dev pages.

The sample is the first pages (sorted by id) of each dataset's dev split, so it never
touches the test split and does not change between runs. The floor sits a small margin
under the figure each shipped model scores; retraining that scores below it fails CI.
"""

import os
from pathlib import Path

import pytest

from blockclf import load_model
from blockclf.data import read_index
from blockclf.evaluate import evaluate_records

BENCH = Path(os.environ.get("BLOCKCLF_BENCH", Path(__file__).resolve().parents[2] / "shared" / "benchmark"))
PER_DATASET = 5
#: a small margin under the mean F1 of each shipped model on this sample. Default: 0.964 when
#: shipped (the floor was set 0.02 under an earlier model's 0.974 and is kept, not lowered);
#: refined: 0.957 when shipped (on 50 pages a few points of noise; over all dev pages it leads)
FLOORS = {"default": float(os.environ.get("BLOCKCLF_F1_FLOOR", "0.955")), "refined": 0.945}


def _sample():
    by_set: dict[str, list] = {}
    for r in sorted(read_index(BENCH, ["dev"]), key=lambda r: (r.dataset, r.id)):
        by_set.setdefault(r.dataset, [])
        if len(by_set[r.dataset]) < PER_DATASET:
            by_set[r.dataset].append(r)
    return [r for rs in by_set.values() for r in rs]


@pytest.mark.skipif(not (BENCH / "index.jsonl").exists(), reason=f"benchmark not found at {BENCH}")
@pytest.mark.parametrize("name", list(FLOORS))
def test_shipped_model_f1_on_dev_sample_stays_above_floor(name: str):
    records = _sample()
    assert len(records) >= 40
    df = evaluate_records(records, load_model(name))
    floor = FLOORS[name]
    assert df["f1"].mean() >= floor, f"{name}: mean F1 {df['f1'].mean():.3f} fell below the floor {floor:.3f}"
