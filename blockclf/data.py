"""Read labelled pages in the benchmark layout (which is also the layout for users' data).

```
DATA/index.jsonl                 one JSON object per page: dataset, id, url, domain, lang, split
DATA/<dataset>/html/<id>.html.gz (or .html) the page's original bytes
DATA/<dataset>/gold/<id>.txt     its gold main text
DATA/<dataset>/blocks/<id>.json  optional block annotations
```
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from urllib.parse import urlsplit

from publicsuffixlist import PSLFILE, PublicSuffixList

__all__ = ["PageRecord", "host_domain", "host_site", "read_index", "registered_domain"]

log = logging.getLogger("blockclf")


@dataclass(frozen=True)
class PageRecord:
    """One labelled page of a dataset directory."""

    dataset: str
    id: str
    split: str
    html_path: Path
    gold_path: Path | None
    blocks_path: Path | None = None
    url: str | None = None
    domain: str | None = None
    lang: str | None = None
    extra: dict = field(default_factory=dict, compare=False, hash=False)

    @property
    def key(self) -> str:
        return f"{self.dataset}/{self.id}"

    @property
    def site(self) -> str:
        """The site this page belongs to: its domain, else the URL's registered domain."""
        return self.domain or registered_domain(self.url) or f"page:{self.key}"

    def read_gold(self) -> str:
        return self.gold_path.read_text(encoding="utf-8") if self.gold_path else ""


#: an address with a scheme but no authority (``javascript:``, ``mailto:``, ``data:``...): it
#: names no host, so no site; ``host:8080/path`` is a host and port, not a scheme
_NO_AUTHORITY = re.compile(r"(?i)^\s*[a-z][a-z0-9+.-]*:(?!//|\d)")
_WAYBACK = re.compile(r"(?i)^(?:https?:)?//(?:web(?:-beta)?\.)?archive\.org/web/\d+[a-z_]*/+(.+)$")


@lru_cache(maxsize=1)
def _suffixes() -> PublicSuffixList:
    # the list bundled with the package, never fetched at run time; ICANN suffixes only, so
    # that x.blogspot.com belongs to blogspot.com as in the benchmark's split rule; a host
    # under a suffix the list does not know is its own site. The list is read as written
    # (Unicode): punycoding its 7,000 rules took two thirds of reading it, in every process
    # that meets an address; punycode hosts are decoded instead (`_domain`). Only the
    # ICANN section's rules are handed over: the package reads every line of the file
    # otherwise, which took as long again (20 ms against 12, in every worker).
    text = Path(PSLFILE).read_text(encoding="utf-8")
    start, end = text.find(_ICANN_BEGIN), text.find(_ICANN_END)
    if start < 0 or end < start:  # a list laid out otherwise: the package finds the section
        return PublicSuffixList(only_icann=True, accept_unknown=False, accept_encoded_idn=False)
    rules = [line for line in text[start + len(_ICANN_BEGIN):end].splitlines() if line and not line.startswith("//")]
    return PublicSuffixList(rules, accept_unknown=False, accept_encoded_idn=False)


_ICANN_BEGIN, _ICANN_END = "// ===BEGIN ICANN DOMAINS===", "// ===END ICANN DOMAINS==="


def _unicode_label(label: str) -> str:
    if not label.startswith("xn--"):
        return label
    try:
        return label[4:].encode("ascii").decode("punycode") or label
    except (UnicodeError, ValueError):  # not valid punycode: looked up as it is
        return label


def _domain(host: str) -> str | None:
    """The registered domain (eTLD+1) of a lower-case host name, None if it has none; in the
    host's own spelling (punycode stays punycode)."""
    labels = host.split(".")
    try:
        found = _suffixes().privatesuffix(".".join(_unicode_label(x) for x in labels) if "xn--" in host else host)
    except (ValueError, UnicodeError):  # an empty label, an undecodable name
        return None
    if found is None or "xn--" not in host:
        return found
    return ".".join(labels[-(found.count(".") + 1):])


@lru_cache(maxsize=65536)
def registered_domain(url: str | None) -> str | None:
    """Registered domain (eTLD+1) of ``url``, or None when it has none."""
    if not url or _NO_AUTHORITY.match(url):
        return None
    archived = _WAYBACK.match(url)
    if archived:  # an archived copy belongs to the site it archives
        url = archived.group(1)
    try:
        host = urlsplit(url if "//" in url else f"//{url}").hostname
    except ValueError:  # a malformed host ("https://[x/"): the page has no site, it is not refused
        return None
    if not host:
        return None
    host = host.lower()
    return _domain(host) or host


def host_site(relative: str | Path) -> str | None:
    """The registered domain of the innermost folder of ``relative`` named like a host.

    Mirrors of a site keep its pages under a folder named after the host
    (``crawl/www.example.org/news/a.html``): such a folder tells the site of a page that
    names no URL of its own. Only folder names with a public suffix count (``v1.2`` does not).
    """
    for part in reversed(Path(relative).parent.parts):
        domain = host_domain(part)
        if domain:
            return domain
    return None


def host_domain(name: str) -> str | None:
    """The registered domain of a bare host name (``"FOXNews.com"``, ``"www.example.org"``),
    None for anything else: words, a version number (``"v1.2"``), a file (``"Node.js"``).
    Only names under a public suffix count."""
    if "." not in name or name.startswith(".") or " " in name:
        return None
    return _domain(name.lower())


def _html_path(root: Path, dataset: str, page_id: str) -> Path:
    base = root / dataset / "html"
    for suffix in (".html.gz", ".html", ".htm", ".htm.gz"):
        p = base / f"{page_id}{suffix}"
        if p.exists():
            return p
    return base / f"{page_id}.html.gz"


def read_index(root: str | Path, splits: Iterable[str] | None = None,
               datasets: Iterable[str] | None = None, problems: list[str] | None = None) -> list[PageRecord]:
    """Pages listed in ``root/index.jsonl``, optionally only some splits and datasets.

    A line that is no page record is skipped and logged, and said in ``problems`` when given.
    A page that names no split is a train page when every split is asked for; asked for some
    splits, it is in none of them, and said in ``problems``: taken for train, a page meant for
    dev or test was trained on without a word.
    """
    root = Path(root)
    index = root / "index.jsonl"
    if not index.exists():
        raise FileNotFoundError(f"{index} not found: a dataset directory needs an index.jsonl")
    want_splits = set(splits) if splits else None
    want_sets = set(datasets) if datasets else None
    out: list[PageRecord] = []
    with index.open(encoding="utf-8") as fh:
        for n, line in enumerate(fh, 1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
                dataset, page_id = str(row["dataset"]), str(row["id"])
            except (json.JSONDecodeError, KeyError, TypeError) as exc:
                log.warning("%s:%d: skipped, not a page record (%s)", index, n, exc)
                if problems is not None:
                    problems.append(f"{index}:{n}: not a page record ({type(exc).__name__}: {exc})")
                continue
            split = row.get("split")
            if not isinstance(split, str) or not split:
                if want_splits:  # taken for train, a page meant for dev or test was trained on without a word
                    if problems is not None:
                        problems.append(f"{index}:{n}: {dataset}/{page_id} names no split (train, dev or test): "
                                        "not read")
                    continue
                split = "train"
            if want_splits and split not in want_splits:
                continue
            if want_sets and dataset not in want_sets:
                continue
            gold = root / dataset / "gold" / f"{page_id}.txt"
            blocks = root / dataset / "blocks" / f"{page_id}.json"
            known = {"dataset", "id", "split", "url", "domain", "lang"}
            out.append(
                PageRecord(
                    dataset=dataset,
                    id=page_id,
                    split=split,
                    html_path=_html_path(root, dataset, page_id),
                    gold_path=gold if gold.exists() else None,
                    blocks_path=blocks if blocks.exists() else None,
                    url=row.get("url"),
                    domain=row.get("domain"),
                    lang=row.get("lang"),
                    extra={k: v for k, v in row.items() if k not in known},
                )
            )
    return out
