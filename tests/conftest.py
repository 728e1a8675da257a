"""Shared fixtures: synthetic pages in the benchmark layout and a tiny model trained on them.

The synthetic pages imitate what the classifier has to tell apart on real sites: a site
template (menu of links, link-heavy sidebar, footer with legal lines) repeated on every page
of the site, around an article (heading and paragraphs of running text) unique to the page.
Each site spells its template differently (class names, menu words), so a model trained on
some sites has to generalise to the template of a site it has not seen.
"""

from __future__ import annotations

import gzip
import json
import random
from dataclasses import dataclass
from pathlib import Path

import pytest

from blockclf.classifier import BlockClassifier
from blockclf.data import read_index
from blockclf.model import Model

#: words of running text; function words make paragraphs read like prose
_CONTENT = (
    "river valley meander bank erosion sediment flow channel water current bend loop delta "
    "forest village farmer harvest market winter summer storm bridge mountain glacier lake "
    "engineer survey measure record season flood plain soil crop yield study report council "
    "museum history century painting library archive student teacher lecture garden orchard"
).split()
_FUNCTION = "the of and to in that is was for with as by on from which".split()
_MENU = (
    "Home News Sport Weather Travel Culture Contact About Archive Login Shop Events Jobs "
    "Podcasts Video Opinion Science Health Business Music Books Radio Search Help"
).split()
#: class names different sites give their template regions (nav, sidebar, footer)
_STYLES = (
    ("nav", "sidebar", "footer"),
    ("menu", "related", "site-footer"),
    ("topbar", "aside-box", "bottom"),
    ("navigation", "widget", "copyright"),
    ("", "", ""),
    ("links", "promo", "legal"),
)


@dataclass(frozen=True)
class SyntheticPage:
    """One synthetic page: its HTML, its gold main text and where it belongs."""

    site: str
    id: str
    html: str
    gold: str
    title: str


def sentence(rng: random.Random, n: int | None = None) -> str:
    """A sentence of running text: content words interleaved with function words."""
    n = n or rng.randint(9, 16)
    words = [rng.choice(_FUNCTION) if i % 3 == 1 else rng.choice(_CONTENT) for i in range(n)]
    return " ".join(words).capitalize() + "."


def paragraph(rng: random.Random) -> str:
    return " ".join(sentence(rng) for _ in range(rng.randint(2, 4)))


def make_page(site_no: int, page_no: int, seed: int = 0) -> SyntheticPage:
    """A page of synthetic site ``site_no``: the site's template around a fresh article."""
    site_rng = random.Random(f"site-{site_no}-{seed}")
    rng = random.Random(f"page-{site_no}-{page_no}-{seed}")
    nav_cls, side_cls, foot_cls = _STYLES[site_no % len(_STYLES)]
    menu = site_rng.sample(_MENU, 7)
    sidebar = [" ".join(site_rng.sample(_CONTENT, 3)).title() for _ in range(5)]
    site = f"site{site_no}.org"
    title = " ".join(rng.sample(_CONTENT, 4)).title()
    paras = [paragraph(rng) for _ in range(rng.randint(3, 6))]
    # an inline link inside running text is still content
    linked = sentence(rng).split()
    k = rng.randrange(2, len(linked) - 2)
    paras.append(" ".join(linked))
    linked_html = " ".join(linked[:k]) + f' <a href="/x">{linked[k]} {linked[k + 1]}</a> ' + " ".join(linked[k + 2:])
    # prose that is not content: a teaser of another story, different on every page
    teaser = sentence(rng, 12)
    caption = " ".join(rng.sample(_CONTENT, 3)).capitalize() if rng.random() < 0.5 else ""

    def cls(name: str) -> str:
        return f' class="{name}"' if name else ""

    nav = "".join(f'<li><a href="/{w.lower()}">{w}</a></li>' for w in menu)
    side = "".join(f'<li><a href="/s/{i}">{t}</a></li>' for i, t in enumerate(sidebar))
    body = "".join(f"<p>{p}</p>" for p in paras[:-1]) + f"<p>{linked_html}</p>"
    if caption:
        body += f"<figure><img src=\"/i.jpg\"><figcaption>{caption}</figcaption></figure>"
        paras.append(caption)
    html = (
        f"<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>{title} | {site}</title>"
        f'<link rel="canonical" href="https://www.{site}/story/{page_no}"></head><body>'
        f'<div{cls(nav_cls)}><ul>{nav}</ul></div>'
        f"<div class=\"wrap\"><div class=\"main\"><h1>{title}</h1>{body}</div>"
        f"<div{cls(side_cls)}><h3>More from {site_no}</h3><ul>{side}</ul><p>{teaser}</p></div></div>"
        "<div><p>Sign up for our newsletter and get the best stories every week.</p></div>"
        f"<div{cls(foot_cls)}><p>© 2024 {site}. All rights reserved.</p>"
        f'<p><a href="/privacy">Privacy policy</a> | <a href="/terms">Terms of use</a></p></div>'
        "</body></html>"
    )
    gold = "\n\n".join([title, *paras]) + "\n"
    return SyntheticPage(site, f"s{site_no}p{page_no}", html, gold, title)


def write_dataset(root: Path, layout: dict[str, list[tuple[str, int, int]]]) -> Path:
    """Write synthetic pages in the benchmark layout.

    ``layout`` maps a split to ``(dataset, site_no, n_pages)`` entries.
    """
    lines = []
    for split, entries in layout.items():
        for dataset, site_no, n_pages in entries:
            for page_no in range(n_pages):
                page = make_page(site_no, page_no)
                html_dir = root / dataset / "html"
                gold_dir = root / dataset / "gold"
                html_dir.mkdir(parents=True, exist_ok=True)
                gold_dir.mkdir(parents=True, exist_ok=True)
                (html_dir / f"{page.id}.html.gz").write_bytes(gzip.compress(page.html.encode("utf-8")))
                (gold_dir / f"{page.id}.txt").write_text(page.gold, encoding="utf-8")
                lines.append({"dataset": dataset, "id": page.id, "url": f"https://www.{page.site}/story/{page_no}",
                              "domain": page.site, "lang": "en", "split": split})
    (root / "index.jsonl").write_text("".join(json.dumps(r) + "\n" for r in lines), encoding="utf-8")
    return root


#: 20 train pages on 4 sites, 8 dev pages on 2 other sites, 6 test pages on 2 more
TINY_LAYOUT = {
    "train": [("alpha", 0, 5), ("alpha", 1, 5), ("beta", 2, 5), ("beta", 3, 5)],
    "dev": [("alpha", 4, 4), ("beta", 5, 4)],
    "test": [("alpha", 6, 3), ("beta", 7, 3)],
}


def small_classifier() -> BlockClassifier:
    """A classifier small enough to train in a second on the tiny dataset."""
    return BlockClassifier(n_estimators=60, learning_rate=0.2, num_leaves=7, min_child_samples=5,
                           early_stopping_rounds=20, n_jobs=1)


@pytest.fixture(scope="session")
def tiny_dataset(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The tiny synthetic dataset in the benchmark layout (train/dev/test splits)."""
    return write_dataset(tmp_path_factory.mktemp("tinybench"), TINY_LAYOUT)


@pytest.fixture(scope="session")
def tiny_model(tiny_dataset: Path) -> Model:
    """A model trained by `fit_model` on the tiny dataset (seeded, one process)."""
    from blockclf.train import fit_model

    train = read_index(tiny_dataset, ["train"])
    dev = read_index(tiny_dataset, ["dev"])
    return fit_model(train, dev, seed=0, n_jobs=1, classifier=small_classifier())


@pytest.fixture(scope="session")
def tiny_refined_model(tiny_dataset: Path) -> Model:
    """The tiny model with a refining pass (`fit_model(..., refining=True)`)."""
    from blockclf.train import fit_model

    train = read_index(tiny_dataset, ["train"])
    dev = read_index(tiny_dataset, ["dev"])
    return fit_model(train, dev, seed=0, n_jobs=1, classifier=small_classifier(), refining=True)


@pytest.fixture(scope="session")
def tiny_model_file(tiny_model: Model, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The tiny model saved as a model file."""
    path = tmp_path_factory.mktemp("model") / "tiny.json"
    tiny_model.save(path)
    return path


@pytest.fixture
def synthetic_page():
    """``make_page(site_no, page_no)``: a synthetic page (sites >= 8 are unseen by the tiny model)."""
    return make_page
