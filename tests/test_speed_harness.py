"""The speed benchmark's side-by-side timing must not favour a system by its place in the order."""

import importlib.util
from itertools import combinations
from pathlib import Path

_SPEC = importlib.util.spec_from_file_location("speed", Path(__file__).resolve().parents[1] / "benchmarks" / "speed.py")
speed = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(speed)


def _recorder(calls, name):
    def run(data):
        calls.append((name, data))
        return ""
    return run


def _batch(calls, name):
    def run(chunk):
        calls.append((name, tuple(chunk)))
        return [""] * len(chunk)
    return run


def test_every_system_runs_before_and_after_every_other_equally_often():
    calls = []
    names = ["a", "b", "c"]
    pages = [(str(i), bytes([i])) for i in range(12)]
    batch = {n: _batch(calls, n) for n in ("x", "y")}
    stats = speed.time_interleaved({n: _recorder(calls, n) for n in names}, pages, batch, chunk=6)
    assert all(len(stats[n]["times"]) == len(pages) for n in [*names, "x", "y"])
    per_page = {}
    for name, data in calls:
        if name in names:
            per_page.setdefault(data, []).append(name)
    assert len(per_page) == 12 and all(sorted(order) == names for order in per_page.values())
    for first, second in combinations(names, 2):
        ahead = sum(order.index(first) < order.index(second) for order in per_page.values())
        assert ahead == len(per_page) / 2, (first, second, ahead)
    batches = [name for name, _ in calls if name in ("x", "y")]
    assert batches == ["x", "y", "y", "x"]  # two chunks, the order reversed for the second
