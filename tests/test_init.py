"""The package's public surface: ``__all__`` is exactly what the package exports, plus logging."""

from __future__ import annotations

import inspect
import logging
import subprocess
import sys

import blockclf


def test_all_names_exist():
    for name in blockclf.__all__:
        assert hasattr(blockclf, name), name
    assert len(blockclf.__all__) == len(set(blockclf.__all__))


def test_all_is_exactly_the_public_api():
    public = {n for n, v in vars(blockclf).items() if not n.startswith("_") and not inspect.ismodule(v)}
    assert public | set(blockclf._LAZY) == set(blockclf.__all__)


def test_extraction_starts_without_the_training_libraries():
    # LightGBM's Python package pulls in scikit-learn and pandas: over a second of start-up; the
    # email parser (an MHTML file's reader) 17 ms of every command's
    code = ("import sys, blockclf, blockclf.cli, blockclf.batch, blockclf.cli.extract; "
            "blockclf.extract(b'<html><body><p>Some words of a page.</p></body></html>'); "
            "print(sorted(m for m in ('lightgbm', 'sklearn', 'pandas', 'scipy', 'email.parser') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_star_import_gives_all():
    ns: dict = {}
    exec("from blockclf import *", ns)
    assert {n for n in ns if not n.startswith("__")} == set(blockclf.__all__)


def test_core_api_is_exported():
    assert {"extract", "extract_batch", "prepare", "parse", "segment", "load_model", "Block", "Result",
            "Model", "BlockClassifier", "ModelError", "PageError", "SiteProfile", "score_text"} <= set(blockclf.__all__)
    assert isinstance(blockclf.__version__, str)


def test_library_logger_has_a_null_handler():
    handlers = logging.getLogger("blockclf").handlers
    assert any(isinstance(h, logging.NullHandler) for h in handlers)
