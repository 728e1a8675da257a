"""The Block record: frozen, slotted, with defaults for what a stage may not know."""

from __future__ import annotations

import dataclasses

import pytest

from blockclf import Block


def test_block_is_frozen_and_slotted():
    b = Block(index=0, text="hello", tag="p", xpath="/html/body/div/p[2]", depth=3)
    with pytest.raises(dataclasses.FrozenInstanceError):
        b.text = "changed"  # type: ignore[misc]
    assert not hasattr(b, "__dict__")
    assert "text" in Block.__slots__


def test_defaults_and_parent_xpath():
    b = Block(index=4, text="x", tag="li", xpath="/html/body/ul/li[3]", depth=3)
    assert b.heading_path == () and b.tokens == () and b.ancestors == ()
    assert b.heading_level == b.list_depth == b.table_depth == b.link_chars == b.n_links == 0
    assert b.starts_element is True
    assert b.parent_xpath == "/html/body/ul"


def test_blocks_compare_by_value_and_hash():
    a = Block(index=0, text="t", tag="p", xpath="/html/body/p", depth=2, tokens=("x",))
    b = Block(index=0, text="t", tag="p", xpath="/html/body/p", depth=2, tokens=("x",))
    assert a == b and hash(a) == hash(b)
    assert dataclasses.replace(a, text="u") != a
