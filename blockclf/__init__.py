"""blockclf: remove boilerplate from web pages with a learned block classifier.

>>> import blockclf
>>> result = blockclf.extract(b"<html>...</html>")      # doctest: +SKIP
>>> result.text, result.markdown, result.removed         # doctest: +SKIP
"""

import logging

from .block import Block
from .evaluate import Score, score_text
from .html import Document, Limits, PageError, parse
from .model import BlockClassifier, Model, ModelError, load_model
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
    "load_model",
    "parse",
    "prepare",
    "score_text",
    "segment",
]
__version__ = "0.1.0"

logging.getLogger("blockclf").addHandler(logging.NullHandler())
