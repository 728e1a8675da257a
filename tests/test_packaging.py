"""What pip installs: every subpackage of blockclf is listed for setuptools."""

from __future__ import annotations

from pathlib import Path

import pytest

import blockclf

PACKAGE = Path(blockclf.__file__).parent


def test_every_subpackage_is_installed():
    tomllib = pytest.importorskip("tomllib", reason="reading pyproject.toml needs Python 3.11's tomllib")
    pyproject = tomllib.loads((PACKAGE.parent / "pyproject.toml").read_text(encoding="utf-8"))
    listed = set(pyproject["tool"]["setuptools"]["packages"])
    subpackages = {".".join(init.parent.relative_to(PACKAGE.parent).parts) for init in PACKAGE.rglob("__init__.py")}
    assert subpackages <= listed, f"not installed by pip: {sorted(subpackages - listed)}"
