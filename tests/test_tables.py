"""Data tables kept whole (`blockclf.tables`)."""

from __future__ import annotations

import numpy as np

from blockclf import parse, segment
from blockclf.tables import keep_whole_tables

SPEC = ("<table><tr><th>Component</th><th>Specification</th></tr><tr><td><b>GPU</b></td><td>4 × RTX 5090</td></tr>"
        "<tr><td><b>RAM</b></td><td>192 GB</td></tr><tr><td><b>CPU</b></td><td>64-core EPYC</td></tr></table>")


def blocks_of(body: str):
    return segment(parse(f"<html><body>{body}</body></html>"))


def test_a_data_table_half_kept_is_kept_whole():
    """A specification table lost a value beside its kept label and a row in its middle: the
    Markdown showed "| **GPU** |" with no value."""
    blocks = blocks_of("<p>The box comes loaded with:</p>" + SPEC)
    texts = [b.text for b in blocks]
    kept = np.array([t in ("The box comes loaded with:", "Component", "Specification", "GPU", "RAM", "192 GB")
                     for t in texts])
    whole = keep_whole_tables(blocks, kept)
    assert whole.all() and not kept.all()
    # under half kept: the model's reading stands, and its array is not copied for nothing
    few = np.array([t in ("The box comes loaded with:", "GPU") for t in texts])
    assert keep_whole_tables(blocks, few) is few


def test_layout_tables_and_small_ones_are_left_to_the_model():
    long_cell = "An article set in a table's cell, as old pages lay their columns out. " * 4
    layouts = [
        "<table><tr><td><p>Menu</p></td><td><p>" + long_cell + "</p></td></tr><tr><td>a</td><td>b</td></tr></table>",
        "<table><tr><td>Home</td><td>" + long_cell + "</td></tr><tr><td>About</td><td>Contact</td></tr></table>",
        "<table><tr><td><h2>Section</h2></td><td>x</td></tr><tr><td>a</td><td>b</td></tr></table>",
        "<table><tr><td>Author</td><td>Jane</td></tr></table>",  # a label and its value: keep_labels' part
        "<table><tr><td>a</td><td><table><tr><td>b</td><td>c</td><td>d</td></tr></table></td></tr></table>",
    ]
    for body in layouts:
        blocks = blocks_of(body)
        kept = np.arange(len(blocks)) % 2 == 0
        assert (keep_whole_tables(blocks, kept) == kept).all(), body
