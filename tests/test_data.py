"""Reading labelled pages in the benchmark layout, and site keys from URLs."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest

from blockclf.data import PageRecord, host_domain, host_site, read_index, registered_domain


def write_index(root: Path, rows: list) -> None:
    root.mkdir(parents=True, exist_ok=True)
    (root / "index.jsonl").write_text(
        "".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in rows), encoding="utf-8")


def test_reads_the_tiny_dataset(tiny_dataset: Path):
    records = read_index(tiny_dataset)
    assert len(records) == 20 + 8 + 6
    r = records[0]
    assert isinstance(r, PageRecord)
    assert r.html_path.name.endswith(".html.gz") and r.html_path.exists()
    assert r.read_gold().strip()
    assert r.key == f"{r.dataset}/{r.id}"


def test_filters_by_split_and_dataset(tiny_dataset: Path):
    assert len(read_index(tiny_dataset, ["train"])) == 20
    assert len(read_index(tiny_dataset, ["dev", "test"])) == 14
    beta_test = read_index(tiny_dataset, ["test"], ["beta"])
    assert len(beta_test) == 3 and {r.dataset for r in beta_test} == {"beta"}
    assert read_index(tiny_dataset, ["nope"]) == []


def test_paths_optional_files_and_extra_fields(tmp_path: Path):
    root = tmp_path / "data"
    write_index(root, [
        {"dataset": "d", "id": "1", "url": "https://www.example.co.uk/a", "domain": None, "split": "dev",
         "page_type": "article"},
        {"dataset": "d", "id": "2"},
    ])
    (root / "d" / "html").mkdir(parents=True)
    (root / "d" / "html" / "1.html").write_text("<p>x</p>", encoding="utf-8")
    (root / "d" / "gold").mkdir()
    (root / "d" / "gold" / "1.txt").write_text("x\n", encoding="utf-8")
    (root / "d" / "blocks").mkdir()
    (root / "d" / "blocks" / "1.json").write_text('{"blocks": []}', encoding="utf-8")
    one, two = read_index(root)
    assert one.html_path == root / "d" / "html" / "1.html"
    assert one.blocks_path is not None and one.read_gold() == "x\n"
    assert one.extra == {"page_type": "article"}
    assert one.site == "example.co.uk"
    assert two.split == "train"  # no split given
    assert two.gold_path is None and two.read_gold() == ""
    assert two.site == "page:d/2"


def test_bad_lines_are_skipped_with_a_warning(tmp_path: Path, caplog):
    root = tmp_path / "data"
    write_index(root, ['{"dataset": "d", "id": "ok"}', "not json", '{"id": "no dataset"}', "", "[1]"])
    with caplog.at_level(logging.WARNING, logger="blockclf"):
        records = read_index(root)
    assert [r.id for r in records] == ["ok"]
    assert caplog.text.count("not a page record") == 3


def test_missing_index_is_an_error(tmp_path: Path):
    with pytest.raises(FileNotFoundError, match="index.jsonl"):
        read_index(tmp_path)


@pytest.mark.parametrize("url, domain", [
    ("https://www.bbc.co.uk/news/x", "bbc.co.uk"),
    ("http://blog.example.com:8080/p?q=1", "example.com"),
    ("example.org/path", "example.org"),
    ("https://someone.blogspot.com/", "blogspot.com"),
    ("http://localhost/x", "localhost"),
    ("http://192.168.1.1/", "192.168.1.1"),
    ("", None),
    (None, None),
    ("/story/1", None),  # a relative canonical link names no site
    ("javascript:alert(1)", None),  # nor does an address of another kind
    ("mailto:ann@example.org", None),
    ("data:text/html,x", None),
    ("example.org:8080/a", "example.org"),  # a host and port is not a scheme
    # internationalised names: punycode hosts keep their spelling, Unicode ones theirs
    ("https://www.xn--mnchen-3ya.de/a", "xn--mnchen-3ya.de"),
    ("https://news.example.xn--fiqs8s/", "example.xn--fiqs8s"),
    ("https://www.example.中国/", "example.中国"),
    ("https://shop.xn--80ak6aa92e.co.uk/", "xn--80ak6aa92e.co.uk"),
])
def test_registered_domain(url, domain):
    assert registered_domain(url) == domain


def test_a_page_that_names_no_split_is_in_no_split_asked_for_and_said(tmp_path: Path):
    root = tmp_path / "data"
    write_index(root, [{"dataset": "d", "id": "1", "split": "train"}, {"dataset": "d", "id": "2"},
                       {"dataset": "d", "id": "3", "split": ""}, {"dataset": "d", "id": "4", "split": None}])
    problems: list[str] = []
    assert [r.id for r in read_index(root, ["train"], problems=problems)] == ["1"]
    assert len(problems) == 3 and all("names no split (train, dev or test): not read" in p for p in problems)
    assert [r.id for r in read_index(root)] == ["1", "2", "3", "4"]  # every page, asked for all


def test_domain_in_index_wins_over_url(tmp_path: Path):
    root = tmp_path / "data"
    write_index(root, [{"dataset": "d", "id": "1", "url": "https://a.example.com/", "domain": "other.org"}])
    assert read_index(root)[0].site == "other.org"


@pytest.mark.parametrize("relative,site", [
    ("www.example.org/news/a", "example.org"),
    ("crawl/news.bbc.co.uk/2024/story", "bbc.co.uk"),
    ("docs/v1.2/page", None),
    ("a", None),
    ("www.example.org", None),  # a file name, not a folder
])
def test_host_named_folders_give_a_site(relative, site):
    assert host_site(relative) == site


@pytest.mark.parametrize("name, domain", [
    ("FOXNews.com", "foxnews.com"), ("www.example.org", "example.org"), ("bbc.co.uk", "bbc.co.uk"),
    ("Node.js", None), ("v1.2", None), ("a site.com", None), (".hidden", None), ("example", None),
])
def test_host_domain_of_a_bare_host_name(name, domain):
    assert host_domain(name) == domain
