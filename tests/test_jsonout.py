"""The page JSON writer: the same values whichever encoder writes them, a field a line and a
record a line, and what orjson refuses written by the json module."""

from __future__ import annotations

import json

import pytest

from blockclf import jsonout

DOC = {
    "name": "a/b.html",
    "title": "Café \"quoted\" ✓",
    "threshold": 0.37,
    "stats": {"n_blocks": 3, "kept_ratio": 0.5},
    "tags": ["x", "y"],
    "empty": [],
    "text": 'one\ntwo }, {"index": 9} },{"index":9}',
    "blocks": [
        {"index": 0, "text": '}, {"index": 1}', "kept": True, "heading_path": ["A", "B"]},
        {"index": 1, "text": "日本語", "kept": False, "heading_path": [], "reasons": [{"index": 5}]},
        {"index": 2, "text": "", "kept": True, "heading_path": ["A"]},
    ],
}


def _lines(out: bytes) -> list[str]:
    return out.decode("utf-8").splitlines()


@pytest.mark.parametrize("fast", [True, False])
def test_document_reads_back_with_a_field_and_a_record_a_line(monkeypatch: pytest.MonkeyPatch, fast: bool) -> None:
    if not fast:
        monkeypatch.setattr(jsonout, "orjson", None)
    out = jsonout.document(DOC)
    assert json.loads(out) == DOC
    lines = _lines(out)
    assert lines[0] == "{" and lines[-1] == "}"
    assert lines[1].startswith(' "name": ')
    # each block on its own line, however its text imitates the records' separator
    records = [ln for ln in lines if ln.startswith('  {"index"')]
    assert [json.loads(ln.rstrip(","))["index"] for ln in records] == [0, 1, 2]


def test_both_encoders_give_the_same_values() -> None:
    fast = jsonout.document(DOC)
    jsonout_orjson = jsonout.orjson
    try:
        jsonout.orjson = None  # type: ignore[assignment]
        slow = jsonout.document(DOC)
    finally:
        jsonout.orjson = jsonout_orjson
    assert json.loads(fast) == json.loads(slow)
    assert len(_lines(fast)) == len(_lines(slow))


def test_records_whose_first_key_differs_are_written_one_by_one() -> None:
    doc = {"items": [{"a": 1}, {"b": 2}, {"a": 3}]}
    lines = _lines(jsonout.document(doc))
    assert json.loads("\n".join(lines)) == doc
    assert sum(ln.lstrip().startswith("{") for ln in lines) == 4  # the document and three records


def test_a_lone_surrogate_falls_back_and_is_escaped() -> None:
    doc = {"text": "bad \udcff byte", "blocks": [{"index": 0, "text": "x\udc80"}]}
    out = jsonout.document(doc)
    out.decode("utf-8")  # valid UTF-8: the surrogate is written as an escape
    assert json.loads(out)["text"] == "bad \udcff byte"
    assert jsonout.line(doc).endswith("\n")
    assert json.loads(jsonout.line(doc)) == doc


def test_line_is_one_json_line() -> None:
    text = jsonout.line(DOC)
    assert text.endswith("\n") and text.count("\n") == 1
    assert json.loads(text) == DOC


@pytest.mark.parametrize("fast", [True, False])
def test_a_large_document_is_joined_once_not_copied_at_each_step(monkeypatch: pytest.MonkeyPatch, fast: bool) -> None:
    """A page of 50,000 blocks encodes to 50 MB: each concatenation on the way (the records,
    the field, the document) made another copy, and encoding peaked at four times the output."""
    import random
    import tracemalloc

    if not fast:
        monkeypatch.setattr(jsonout, "orjson", None)
    rng = random.Random(0)
    words = [f"w{i}" for i in range(5000)]
    doc = {"text": "x" * 1000, "blocks": [{"index": i, "text": " ".join(rng.choice(words) for _ in range(40)),
                                           "kept": True} for i in range(20000)]}
    tracemalloc.start()
    try:
        base = tracemalloc.get_traced_memory()[0]
        out = jsonout.document(doc)
        peak = tracemalloc.get_traced_memory()[1] - base
    finally:
        tracemalloc.stop()
    assert json.loads(out) == doc
    assert peak < 3 * len(out), f"{peak / len(out):.2f} times the output"  # 4.0 before
