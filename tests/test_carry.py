"""What a batch carries between its passes comes back as it went: pages, outputs, budgets."""

from __future__ import annotations

import zlib

from blockclf import carry
from blockclf.predict import prepare


def _page(synthetic_page, n: int = 0):
    return prepare(synthetic_page(1, n).html, name=f"p{n}.html", url=f"https://site1.example/{n}")


def test_a_packed_page_comes_back_with_every_block_and_without_its_tree(synthetic_page):
    page = _page(synthetic_page)
    back = carry.unpack(carry.pack(page))
    assert back.blocks == page.blocks and back.hidden == page.hidden
    assert back.name == page.name and back.site == page.site
    assert back.doc.root is carry.NO_TREE


def test_a_held_page_is_taken_once_and_its_bytes_are_given_back(synthetic_page):
    page = _page(synthetic_page)
    key = carry.Held("t-carry", 0)
    assert carry.hold_page(page, key, budget=10**9)
    assert carry._HELD_BYTES["t-carry"] == carry.held_size(page) > 0
    assert carry.take_page(key) is page
    assert carry.take_page(key) is None  # let go of: a second take finds nothing
    assert carry._HELD_BYTES["t-carry"] == 0
    carry.release("t-carry")
    assert "t-carry" not in carry._HELD_BYTES


def test_a_page_over_the_budget_is_not_held(synthetic_page):
    page = _page(synthetic_page)
    assert not carry.hold_page(page, carry.Held("t-small", 0), budget=carry.held_size(page) - 1)
    assert not carry._HELD_BYTES["t-small"]
    carry.release("t-small")


def test_release_lets_go_of_one_batch_only(synthetic_page):
    a, b = carry.Held("t-a", 0), carry.Held("t-b", 0)
    carry.hold_page(_page(synthetic_page, 0), a, 10**9)
    carry.hold_page(_page(synthetic_page, 1), b, 10**9)
    carry.release("t-a")
    assert carry.take_page(a) is None and carry.take_page(b) is not None
    carry.release("t-b")


def test_long_encoded_outputs_are_squeezed_and_come_back_whole():
    long = b'{"text": "' + b"word " * 2000 + b'"}'
    short = b"tiny"
    log = '{"text": "Caf\u00e9 \udcff"}\n' * 200  # a removal log's lines, a lone surrogate included
    value = (long, short, "a short str stays", log, ["flag"])
    kept = carry.squeezed(value)
    assert isinstance(kept[0], carry.Squeezed) and kept[1] is short and kept[2] == "a short str stays"
    assert zlib.decompress(kept[0].data) == long
    assert isinstance(kept[3], carry.Squeezed) and len(kept[3].data) < len(log) // 10 and kept[4] == ["flag"]
    assert carry.unsqueezed(kept) == value
    assert carry.squeezed(short) is short


def test_plain_size_counts_plain_data_and_refuses_the_rest():
    assert carry.plain_size("abc") is not None
    assert carry.plain_size({"a": ["x", 1, None], "b": (b"y", 2.0)}) > carry.plain_size("x")
    assert carry.plain_size(carry.Squeezed(b"z" * 100)) >= 100
    assert carry.plain_size(object()) is None
    assert carry.plain_size(["fine", object()]) is None
