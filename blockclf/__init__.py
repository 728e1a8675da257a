"""blockclf: remove boilerplate from web pages with a learned block classifier.

>>> import blockclf
>>> result = blockclf.extract(b"<html>...</html>")      # doctest: +SKIP
>>> result.text, result.markdown, result.removal_log()   # doctest: +SKIP
"""

import importlib
import logging

from .block import Block
from .features import featurize
from .html import Document, Limits, PageError, parse
from .metrics import Score, score_text
from .model import Model, ModelError, load_model
from .predict import Page, Result, extract, extract_batch, prepare
from .segment import segment
from .site import SiteProfile

__all__ = [
    "Block",
    "BlockClassifier",
    "Document",
    "Limits",
    "Model",
    "ModelError",
    "Page",
    "PageError",
    "Result",
    "Score",
    "SiteProfile",
    "extract",
    "extract_batch",
    "featurize",
    "load_model",
    "parse",
    "prepare",
    "score_text",
    "segment",
]
__version__ = "0.1.0"

logging.getLogger("blockclf").addHandler(logging.NullHandler())


#: exported names imported on first use: BlockClassifier brings LightGBM's Python package,
#: scikit-learn and pandas, which only those who train should pay for at start-up
_LAZY = {"BlockClassifier": "classifier"}


def __getattr__(name: str) -> object:
    if name in _LAZY:
        value = getattr(importlib.import_module(f".{_LAZY[name]}", __name__), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'blockclf' has no attribute {name!r}")
