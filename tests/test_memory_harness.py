"""The memory benchmark must see what a command's workers hold, not only the command itself."""

import importlib.util
import sys
from pathlib import Path

import pytest

pytest.importorskip("psutil", reason="the memory benchmark reads process memory with psutil (the bench extra)")
_SPEC = importlib.util.spec_from_file_location("memory", Path(__file__).resolve().parents[1] / "benchmarks" / "memory.py")
memory = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(memory)

#: a parent that forks a child holding 80 MB of its own, both then wait
_FORKING = """
import os, time
pid = os.fork()
if pid == 0:
    block = bytearray(80 << 20)
    block[::4096] = b"x" * len(block[::4096])  # touched: resident, not only reserved
    time.sleep(1.5)
    os._exit(0)
time.sleep(2)
os.waitpid(pid, 0)
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_peak_counts_the_memory_of_a_forked_child():
    res = memory.run_sampled([sys.executable, "-c", _FORKING], every=0.1)
    assert res["status"] == 0
    assert res["peak_mb"] >= 80
    assert res["wall_s"] >= 2


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_pages_are_linked_in_index_order(tmp_path):
    bench = tmp_path / "bench"
    for ds, ids in (("a", ["1", "2"]), ("b", ["3"])):
        (bench / ds / "html").mkdir(parents=True)
        for i in ids:
            (bench / ds / "html" / f"{i}.html.gz").write_bytes(b"")
    rows = ['{"dataset": "a", "id": "1"}', '{"dataset": "a", "id": "9"}', '{"dataset": "b", "id": "3"}',
            '{"dataset": "a", "id": "2"}']
    (bench / "index.jsonl").write_text("\n".join(rows) + "\n")
    folder = tmp_path / "pages"
    folder.mkdir()
    assert memory.link_pages(bench, 2, folder) == 2  # the page without HTML is passed over
    assert sorted(p.name for p in folder.iterdir()) == ["a__1.html.gz", "b__3.html.gz"]
