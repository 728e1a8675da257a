"""The Block record: frozen, slotted, with defaults for what a stage may not know."""

from __future__ import annotations

import dataclasses
import inspect

import pytest

from blockclf import Block


def test_block_is_frozen_and_slotted():
    b = Block(index=0, text="hello", tag="p", xpath="/html/body/div/p[2]", depth=3)
    with pytest.raises(dataclasses.FrozenInstanceError):
        b.text = "changed"  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        del b.text
    assert not hasattr(b, "__dict__")  # no field can be added either: its fields are all it holds
    with pytest.raises(AttributeError):
        b.colour = "red"  # type: ignore[attr-defined]
    assert b.text == "hello"


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


def test_construction_takes_every_field_as_the_dataclass_declares_it():
    """`Block.__init__` sets the slots directly (it is the segmenter's most frequent call): the
    same parameters in field order, the same defaults, every field set, errors for a missing or
    unknown argument."""
    params = list(inspect.signature(Block).parameters.values())
    fields = dataclasses.fields(Block)
    assert [p.name for p in params] == [f.name for f in fields]
    assert [p.default for p in params] == [inspect.Parameter.empty if f.default is dataclasses.MISSING
                                           else f.default for f in fields]
    values = [7, "t", "td", "/html/body/table/tr/td[2]", 5, ("H",), 2, 1, 1, 3, 1, 90, ("c",), ("html", "td"),
              False, True, "<b>t</b>", "py", 4, 2, 3, True, True, '<img src="a.jpg" alt="">', True, ("/html/body",)]
    assert len(values) == len(fields)
    b = Block(*values)
    assert [getattr(b, f.name) for f in fields] == values
    assert Block(**{f.name: v for f, v in zip(fields, values)}) == b
    with pytest.raises(TypeError):
        Block(0, "t", "p")  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        Block(0, "t", "p", "/p", 1, colour="red")  # type: ignore[call-arg]
