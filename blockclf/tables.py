"""Data tables kept whole: a table of data is content or not, not a pattern of holes.

The model scores a table's cells one by one, so a specification table in an article could
lose a value beside its kept label ("GPU" without "4 × Nvidia RTX 5090") and a whole row in
its middle, and the Markdown showed the holes. A data table (four cells or more, every block
in it a cell, none a heading or over 200 characters, no table inside it) of which at least
half the cells are kept is kept whole. Layout tables, which hold a page's columns rather than
data, have blocks other than cells in them and are left to the model.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Sequence

import numpy as np

from .block import Block

__all__ = ["keep_whole_tables"]

#: a block's innermost table: its path up to the last ``table`` step
_TABLE = re.compile(r"^(.*/table(?:\[\d+\])?)/")
_CELLS = frozenset(("td", "th"))
#: the most characters a cell of a data table holds (a longer one is a layout table's column)
_CELL_CHARS = 200
#: the fewest cells a table keeps whole (fewer are a label and its value, which keep_labels pairs)
_MIN_CELLS = 4


def keep_whole_tables(blocks: Sequence[Block], kept: np.ndarray) -> np.ndarray:
    """``kept`` with every data table at least half of whose cells it keeps kept whole."""
    tables: dict[str, list[int]] = defaultdict(list)
    for i, b in enumerate(blocks):
        if b.table_depth and not b.hidden:
            m = _TABLE.match(b.xpath)
            if m is not None:
                tables[m.group(1)].append(i)
    out = kept
    for cells in tables.values():
        if len(cells) < _MIN_CELLS or not _is_data(blocks, cells):
            continue
        n_kept = int(np.count_nonzero(kept[cells]))
        if 2 * n_kept >= len(cells) and n_kept < len(cells):
            if out is kept:
                out = kept.copy()
            out[cells] = True
    return out


def _is_data(blocks: Sequence[Block], cells: list[int]) -> bool:
    return all(blocks[i].tag in _CELLS and blocks[i].table_depth == 1 and not blocks[i].heading_level
               and len(blocks[i].text) <= _CELL_CHARS for i in cells)
