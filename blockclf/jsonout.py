"""A page's JSON as the command writes it: a field a line, each record of a list of records
(blocks, removed blocks, comments) on a line of its own, in UTF-8.

A page's JSON holds every block's record (about 280 blocks and 150 kB on a shop or listing
page), and encoding it with the json module took more than twice as long as rendering its text.
orjson writes the same values ten times faster, straight to UTF-8; the json module's C
encoder stays the fallback for what orjson refuses (a lone surrogate, which the json module
writes and the file's encoding escapes; an integer past 64 bits) and for an install without
orjson. Both give the same values; orjson writes records without spaces after ``:`` and ``,``.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

try:
    import orjson
except ImportError:  # pragma: no cover - a dependency; an install with --no-deps still works
    orjson = None  # type: ignore[assignment]

__all__ = ["document", "line", "lines"]

_dump = json.JSONEncoder(ensure_ascii=False).encode


def document(doc: dict[str, Any]) -> bytes:
    """``doc`` as a JSON document for a person to read and a machine to write fast: a field a
    line, and each record of a list of records on a line of its own (UTF-8; a lone surrogate
    written as its ``\\udcxx`` escape)."""
    if orjson is not None:
        try:
            return _document(doc, orjson.dumps)
        except (TypeError, orjson.JSONEncodeError):  # a lone surrogate, a huge integer
            pass
    return _document(doc, lambda v: _dump(v).encode("utf-8", "backslashreplace"))


def line(row: dict[str, Any]) -> str:
    """``row`` as one JSON line (a JSONL record), ending with a newline."""
    if orjson is not None:
        try:
            return orjson.dumps(row, option=orjson.OPT_APPEND_NEWLINE).decode("utf-8")
        except (TypeError, orjson.JSONEncodeError):
            pass
    return json.dumps(row, ensure_ascii=False) + "\n"


def lines(rows: Iterable[dict[str, Any]]) -> str:
    """``rows`` as JSON lines, each ending with a newline (a removal log's records)."""
    return "".join(map(line, rows))


def _document(doc: dict[str, Any], dump: Any) -> bytes:
    """The document's parts joined once: a page of 50,000 blocks encodes to 50 MB, and every
    concatenation on the way would copy it again."""
    parts: list[bytes | memoryview] = [b"{\n"]
    for n, (key, value) in enumerate(doc.items()):
        parts += (b",\n " if n else b" ", dump(key), b": ")
        if isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
            parts += _records(value, dump)
        else:
            parts.append(dump(value))
    parts.append(b"\n}\n")
    return b"".join(parts)


def _records(records: list[dict[str, Any]], dump: Any) -> list[bytes | memoryview]:
    """A list of records as JSON, one record a line, in parts: the whole list in one call, then
    split where one record ends and the next begins (in encoded JSON a quote inside a string is
    escaped, so ``},{"key":`` with the records' first key marks that place, unless a nested
    record starts with that key too: then the records are encoded one by one)."""
    first = next(iter(records[0]), None)
    whole = dump(records)
    if first is not None and all(next(iter(r), None) == first for r in records):
        key = dump(first)
        for comma, colon in ((b",", b":"), (b", ", b": ")):  # orjson's separators, the json module's
            between = b"}" + comma + b"{" + key + colon
            if whole.count(between) == len(records) - 1:
                lines = whole.replace(between, b"},\n  {" + key + colon)
                return [b"[\n  ", memoryview(lines)[1:-1], b"\n ]"]
    return [b"[\n  ", b",\n  ".join(map(dump, records)), b"\n ]"]
