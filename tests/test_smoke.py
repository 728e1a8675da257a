"""End-to-end: the shipped model extracts the sample page's article and drops its furniture."""

from pathlib import Path

import blockclf

ROOT = Path(__file__).resolve().parent.parent


def test_example_page_keeps_article_drops_furniture():
    res = blockclf.extract(ROOT / "data" / "example.html")
    text = res.text
    assert "A meander cannot grow forever" in text
    assert "Why the loops stop growing" in text
    assert "We use cookies" not in text
    assert "All rights reserved" not in text
    assert "Related stories" not in text
    # nothing lost: kept and removed blocks are the page's whole visible text
    assert len(res.blocks) == len(res.scores) == len(res.kept)
    assert "Privacy policy" in res.raw_text
