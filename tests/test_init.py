"""The package's public surface: ``__all__`` is exactly what the package exports, plus logging."""

from __future__ import annotations

import inspect
import logging

import blockclf


def test_all_names_exist():
    for name in blockclf.__all__:
        assert hasattr(blockclf, name), name
    assert len(blockclf.__all__) == len(set(blockclf.__all__))


def test_all_is_exactly_the_public_api():
    public = {n for n, v in vars(blockclf).items() if not n.startswith("_") and not inspect.ismodule(v)}
    assert public == set(blockclf.__all__)


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
