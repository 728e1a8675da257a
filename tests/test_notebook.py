"""Execute notebooks/walkthrough.ipynb end to end so that it never rots."""

from __future__ import annotations

from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat", reason="install the 'notebook' extra to execute the walkthrough")
nbclient = pytest.importorskip("nbclient", reason="install the 'notebook' extra to execute the walkthrough")
pytest.importorskip("ipykernel", reason="install the 'notebook' extra to execute the walkthrough")

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOK = ROOT / "notebooks" / "walkthrough.ipynb"


def test_walkthrough_notebook_runs(monkeypatch, tmp_path):
    monkeypatch.setenv("PYTHONPATH", str(ROOT))  # the kernel imports this source tree
    monkeypatch.setenv("TMPDIR", str(tmp_path))  # the notebook's working folder goes where pytest cleans up
    monkeypatch.setenv("MPLBACKEND", "Agg")
    nb = nbformat.read(NOTEBOOK, as_version=4)
    client = nbclient.NotebookClient(nb, timeout=240, kernel_name="python3",
                                     resources={"metadata": {"path": str(NOTEBOOK.parent)}})
    client.execute()
    outputs = "".join(o.get("text", "") + o.get("data", {}).get("text/plain", "")
                      for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", []))
    assert "index.html: the selector matched nothing" in outputs
    assert "held-out pages" in outputs and "after (" in outputs
    assert "wrong blocks, fine-tuned" in outputs and "by the default model (score" in outputs
    assert [p.name.split("-")[1] for p in tmp_path.iterdir()] == ["walkthrough"]
