"""Page verdicts: error, empty, index and document, each on the signal it names; the CLI's stderr line."""

from __future__ import annotations

import json

import numpy as np
import pytest

from blockclf.checks import (
    INDEX_MIN_UNITS,
    error_reason,
    link_units,
    page_checks,
    section_address,
    verdict_flag,
)
from blockclf.cli import main
from blockclf.predict import Result, prepare

PROSE = "The river cut a new channel through the soft plain after the flood, and the town moved uphill. "
NAV = "".join(f'<a href="/s{i}">Section {i}</a> ' for i in range(8))


def _result(html: str, kept: list[bool] | None = None, url: str | None = None) -> Result:
    page = prepare(html.encode(), url=url)
    n = len(page.blocks)
    k = np.array(kept if kept is not None else [True] * n, bool)
    title = page.metadata.title or page.doc.title
    checks = page_checks(page.blocks, k, title, url)
    return Result(blocks=page.blocks, scores=k.astype(float), kept=k, threshold=0.5, favor=None, title=title,
                  url=url, name="p", warnings=list(page.doc.warnings) + list(checks.warnings),
                  verdict=checks.verdict, stats=checks.stats)


def _teasers(n: int) -> str:
    return "".join(f'<div class="card"><h3><a href="/story-{i}">Story number {i} about the river</a></h3>'
                   f"<p>A short teaser for story {i}.</p></div>" for i in range(n))


@pytest.mark.parametrize("title,reason", [
    ("Page not found | Example", "not-found"),
    ("404", "not-found"),
    ("Error 404 - Example", "not-found"),
    ("Seite nicht gefunden", "not-found"),
    ("503 Service Unavailable", "server-error"),
    ("Internal Server Error", "server-error"),
])
def test_error_pages(title, reason):
    res = _result(f"<title>{title}</title><nav>{NAV}</nav><p>Sorry, we could not find what you asked for. "
                  "Try the search box or the home page instead of this address.</p>")
    assert res.verdict == "error" and reason in res.warnings
    assert verdict_flag(res) == f"error:{reason}"


def test_error_from_the_headline_alone():
    res = _result(f"<title>Example</title><h1>Oops! That page can't be found (404)</h1><p>{PROSE * 2}</p>")
    assert error_reason(res.blocks, res.kept, res.title) == "not-found" and res.verdict == "error"


def test_long_article_mentioning_not_found_is_a_document():
    res = _result(f"<title>Lost dog not found after the flood</title><p>{PROSE * 30}</p>")
    assert res.verdict == "document" and verdict_flag(res) is None


def test_empty_page_flag():
    res = _result("<html><body><div hidden>only hidden text here that nobody sees</div></body></html>",
                  kept=[False])
    assert res.verdict == "empty" and verdict_flag(res) == "empty:hidden-only"


def test_teaser_listing_is_an_index():
    html = f"<title>River news</title><nav>{NAV}</nav><h1>River news</h1>{_teasers(12)}"
    res = _result(html, url="https://example.org/stories/some-long-article-slug-here")
    assert res.stats["kept_link_titles"] >= 12 and res.stats["link_units"] == 12
    assert res.stats["kept_prose_chars"] == 0
    assert res.verdict == "index"


def test_article_with_a_related_rail_is_a_document():
    related = _teasers(12)
    html = f"<title>River cut a channel</title><h1>River cut a channel</h1><p>{PROSE * 40}</p>{related}"
    page = prepare(html.encode())
    kept = [not b.text.startswith(("Story number", "A short teaser")) for b in page.blocks]
    res = _result(html, kept=kept, url="https://example.org/")  # even at a section address
    assert res.stats["kept_prose_chars"] > 3000
    assert res.verdict == "document"


def test_section_address_with_many_links_is_an_index():
    links = "".join(f'<li><a href="/t{i}">Topic number {i} on the river</a> and a few more words</li>'
                    for i in range(20))
    html = f"<title>Topics</title><ul>{links}</ul><p>{PROSE * 5}</p>"
    assert _result(html, url="https://example.org/topics/").verdict == "index"
    assert _result(html, url="https://example.org/2024/05/the-topics-we-covered-this-year").verdict == "document"


def test_section_address():
    assert section_address("https://example.org") and section_address("https://example.org/")
    assert section_address("https://example.org/news/") and section_address("https://example.org/category/science")
    assert section_address("https://example.org/blog/index.html")
    assert not section_address("https://example.org/2024/05/how-we-built-it")
    assert not section_address("https://example.org/news/river_cuts_channel")
    assert not section_address(None)


def test_link_units_counts_repeated_units_not_paragraphs():
    cards = prepare(f"<body>{_teasers(INDEX_MIN_UNITS)}</body>".encode()).blocks
    assert link_units(cards) == INDEX_MIN_UNITS
    menu = prepare(("<ul>" + "".join(f'<li><a href="/{i}">Menu entry {i}</a></li>' for i in range(15))
                    + "</ul>").encode()).blocks
    assert link_units(menu) == 1  # the entries of one list share their parent: a menu counts once
    prose = prepare(f"<p>{PROSE}</p><p>{PROSE}</p>".encode()).blocks
    assert link_units(prose) == 0


def test_verdicts_recompute_from_the_json(tiny_model, tmp_path):
    """The rules of docs/page-signals.md, applied to the JSON output, give the verdict it carries."""
    import re
    from urllib.parse import urlsplit

    pages = {
        "nf.html": f"<title>Page not found</title><nav>{NAV}</nav><p>Sorry, nothing lives at this address any more.</p>"
                   "<p>Try the search box or the home page instead of this address, please.</p>",
        "list.html": f"<title>River news</title><nav>{NAV}</nav>{_teasers(14)}",
        "doc.html": f"<title>River cut a channel</title><p>{PROSE * 40}</p>",
    }
    for name, html in pages.items():
        (tmp_path / name).write_text(html)
    assert main(["extract", str(tmp_path), "-o", str(tmp_path / "out"), "--format", "json"]) == 0
    word = re.compile(r"\w+")
    for name in pages:
        page = json.loads((tmp_path / "out" / name.replace(".html", ".json")).read_text())
        blocks = [b for b in page["blocks"] if b["kept"] or not b["hidden"]]
        kept = [b for b in blocks if b["kept"]]
        page_chars = sum(len(b["text"]) for b in blocks)
        kept_chars = sum(len(b["text"]) for b in kept)
        density = sum(b["link_chars"] for b in blocks) / page_chars
        prose = sum(len(b["text"]) for b in kept if len(b["text"]) >= 150 and b["link_chars"] < 0.2 * len(b["text"]))

        def title_like(b):
            return 10 <= len(b["text"]) <= 200 and b["link_chars"] >= 0.8 * len(b["text"])

        titles = sum(1 for b in kept if title_like(b))
        groups: dict[str, set[str]] = {}
        for b in blocks:
            if title_like(b):
                groups.setdefault(re.sub(r"\[\d+\]", "", b["xpath"]), set()).add(b["xpath"].rsplit("/", 1)[0])
        units = max((len(v) for v in groups.values()), default=0)
        assert (prose, titles, units) == (page["stats"]["kept_prose_chars"], page["stats"]["kept_link_titles"],
                                          page["stats"]["link_units"])
        heads = [page["title"]] + [b["text"] for b in kept if b["heading_level"] == 1][:3]
        says_error = any(len(h) <= 200 and re.search(r"\b(?:404|410)\b|not found", h, re.I) for h in heads if h)
        url = page["url"] or ""
        segments = [s for s in urlsplit(url).path.split("/") if s]
        section = bool(url) and (not segments or len(
            [w for w in re.split(r"[-_+]", segments[-1].rsplit(".", 1)[0]) if w]) <= 1)
        if page_chars == 0:
            verdict = "empty"
        elif says_error and kept_chars < 2000:
            verdict = "error"
        elif page_chars < 200:
            verdict = "too-little-text"
        elif (prose < 3000 and ((density > 0.4 and units >= 10) or kept_chars < 500 * max(titles, 1))) or (
                prose < 6000 and density > 0.2 and section):
            verdict = "index"
        else:
            verdict = "document"
        assert verdict == page["verdict"], name
        assert word.findall(page["title"])  # the headline is there
    assert json.loads((tmp_path / "out" / "nf.json").read_text())["verdict"] == "error"


def test_cli_names_an_error_page_on_stderr(tmp_path, capsys):
    page = tmp_path / "gone.html"
    page.write_text(f"<title>404 Not Found</title><nav>{NAV}</nav><p>The requested URL was not found on this "
                    "server. Please check the address, or go back to the home page of the site.</p>")
    assert main(["extract", str(page)]) == 0
    captured = capsys.readouterr()
    assert "requested URL was not found" in captured.out  # the output is still written
    lines = [x for x in captured.err.splitlines() if "gone.html" in x]
    assert len(lines) == 1 and "flagged error:not-found" in lines[0]
