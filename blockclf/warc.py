"""WARC input: the HTML responses of a crawl, extracted as one JSONL file keyed by record URL.

Crawls arrive as WARC files rather than folders of pages. Reading them needs ``warcio``
(install the ``warc`` extra). Only ``response`` records with a 2xx status and an HTML
content type are read; their HTTP ``charset`` is tried before the page's own declaration.
The records go through the streaming batch (`blockclf.batch`) like files do, so the pages
of one site inside the WARC are each other's site evidence; the WARC is read once per pass
and never held in memory.
"""

from __future__ import annotations

import json
import logging
import re
import sys
from collections.abc import Callable, Iterable, Iterator
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import Any

from .batch import BatchOptions, Item, Outcome, run_batch
from .predict import Result

__all__ = ["extract_warc", "is_warc", "read_warc", "warc_line"]

log = logging.getLogger("blockclf")

_HTML_TYPES = ("text/html", "application/xhtml+xml")
_CHARSET = re.compile(r"charset\s*=\s*[\"']?([\w.:-]+)", re.IGNORECASE)
_WARC_SUFFIXES = (".warc", ".warc.gz")


def is_warc(path: str | Path) -> bool:
    """Whether ``path`` names a WARC file (by its suffix)."""
    return str(path).lower().endswith(_WARC_SUFFIXES)


def _require_warcio() -> Any:
    try:
        from warcio.archiveiterator import ArchiveIterator
    except ImportError:
        raise ValueError("reading WARC files needs warcio: pip install 'blockclf[warc]'") from None
    return ArchiveIterator


def read_warc(path: str | Path, site: str | None = None) -> Iterator[Item]:
    """Yield one `Item` per HTML response record, named and keyed by its target URL."""
    archive_iterator = _require_warcio()
    with open(path, "rb") as fh:
        for record in archive_iterator(fh):
            if record.rec_type != "response" or record.http_headers is None:
                continue
            status = record.http_headers.get_statuscode() or ""
            ctype = (record.http_headers.get_header("Content-Type") or "").lower()
            if not status.startswith("2") or not ctype.startswith(_HTML_TYPES):
                continue
            url = record.rec_headers.get_header("WARC-Target-URI")
            if not url:
                continue
            charset = _CHARSET.search(ctype)
            yield Item(name=url, source=record.content_stream().read(), url=url, site=site,
                       encoding=charset.group(1) if charset else None)


def warc_line(res: Result, fmt: str, with_log: bool) -> tuple[str, list[dict]]:
    """One JSONL line for a WARC record's result, and its removal-log records."""
    from .render import removal_log, to_dict

    row: dict[str, Any] = {"url": res.name}
    if fmt == "json":
        row.update(to_dict(res))
        row["url"] = res.name
    else:
        row.update(title=res.title, site=res.site, verdict=res.verdict)
        row[fmt] = res.text if fmt == "text" else res.markdown
    line = json.dumps(row, ensure_ascii=False) + "\n"
    return line, (removal_log(res) if with_log else [])


def _stem(path: Path) -> str:
    name = path.name
    for suffix in (".warc.gz", ".warc"):
        if name.lower().endswith(suffix):
            return name[: -len(suffix)]
    return name


def extract_warc(path: str | Path, output: str | Path | None, opts: BatchOptions, fmt: str = "text",
                 jobs: int = 1, progress: bool = False, site: str | None = None, with_log: bool = False,
                 outcomes: Callable[[Iterable[Outcome]], Iterable[tuple[str, str]]] | None = None) -> Path | None:
    """Extract every HTML response of a WARC into ``output/<name>.jsonl`` (stdout without output).

    ``outcomes`` filters the batch's outcomes into ``(name, line)`` pairs (the command line
    uses it to report skipped records and write the removal log); by default failed records
    are logged and skipped. Returns the JSONL path written, if any.
    """
    path = Path(path)
    _require_warcio()
    opts = replace(opts, transform=partial(warc_line, fmt=fmt, with_log=with_log))
    batch = run_batch(lambda: read_warc(path, site), opts, jobs=jobs, progress=progress)
    lines = outcomes(batch) if outcomes is not None else _default_outcomes(batch)
    if output is None:
        for _, line in lines:
            sys.stdout.write(line)
        return None
    target = Path(output) / f"{_stem(path)}.jsonl"
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_name(f".{target.name}.tmp")
    with tmp.open("w", encoding="utf-8") as fh:
        for _, line in lines:
            fh.write(line)
    tmp.replace(target)
    return target


def _default_outcomes(batch: Iterable[Outcome]) -> Iterator[tuple[str, str]]:
    for o in batch:
        if o.error is not None:
            log.warning("skipped %s: %s", o.name, o.error)
            continue
        yield o.name, o.result[0]
