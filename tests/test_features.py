"""Features: the column contract, each family on hand-made blocks, and classification logic
on synthetic blocks built directly (no HTML parsing)."""

from __future__ import annotations

import dataclasses
import random
import re

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from blockclf import Block, BlockClassifier, SiteProfile
from blockclf.features import _END_PUNCT, _FUNCTION_WORDS, _STATS_CACHE, FAMILIES, FEATURES, _text_stats, featurize
from blockclf.region import COLUMNS as REGION_COLUMNS

#: columns that may be NaN, and when (see the featurize docstring and FEATURES families)
SITE_COLUMNS = ("rep_text", "rep_path")
TITLE_COLUMNS = ("title_overlap", "title_cover")
NEIGHBOUR_PREFIXES = ("p1_", "n1_", "p2_", "n2_")


def blk(i: int, text: str, tag: str = "p", xpath: str | None = None, **kw) -> Block:
    xpath = xpath or f"/html/body/div/{tag}[{i + 1}]"
    kw.setdefault("depth", xpath.count("/") - 1)
    kw.setdefault("ancestors", tuple(s.split("[")[0] for s in xpath.strip("/").split("/")))
    return Block(index=i, text=text, tag=tag, xpath=xpath, **kw)


PROSE = ("The river was measured again in the spring, and the survey found that the bend had moved "
         "by several metres since the last flood of the valley.")


def sample_blocks() -> list[Block]:
    return [
        blk(0, "Home", "li", "/html/body/nav/ul/li[1]", link_chars=4, n_links=1, list_depth=1, tokens=("nav", "menu")),
        blk(1, "News", "li", "/html/body/nav/ul/li[2]", link_chars=4, n_links=1, list_depth=1, tokens=("nav", "menu")),
        blk(2, "A river study", "h1", "/html/body/main/h1", heading_level=1, markup_bytes=30),
        blk(3, PROSE, "p", "/html/body/main/p[1]", markup_bytes=len(PROSE) + 7, heading_path=("A river study",)),
        blk(4, "See the full map here.", "p", "/html/body/main/p[2]", link_chars=8, n_links=1, markup_bytes=60),
        blk(5, "© 2024 Example. All rights reserved.", "p", "/html/body/footer/p", tokens=("footer",)),
    ]


def test_columns_are_features_and_numeric():
    df = featurize(sample_blocks(), title="A river study | Example")
    assert list(df.columns) == FEATURES
    assert len(FEATURES) == len(set(FEATURES))
    assert len(df) == 6
    assert all(pd.api.types.is_numeric_dtype(t) for t in df.dtypes)


def test_only_documented_columns_are_nan():
    df = featurize(sample_blocks(), title="A river study")
    nan_cols = set(df.columns[df.isna().any()])
    allowed = set(SITE_COLUMNS) | {c for c in FEATURES if c.startswith(NEIGHBOUR_PREFIXES)}
    assert nan_cols <= allowed
    assert nan_cols >= set(SITE_COLUMNS)  # no site evidence
    # neighbour columns are NaN exactly at the page edges
    assert df["p1_log_chars"].isna().tolist() == [True] + [False] * 5
    assert df["n1_log_chars"].isna().tolist() == [False] * 5 + [True]
    assert df["p2_log_chars"].isna().tolist() == [True, True] + [False] * 4
    assert df["p1_log_chars"].iloc[1] == df["log_chars"].iloc[0]
    assert df["n1_log_chars"].iloc[1] == df["log_chars"].iloc[2]


def test_title_columns_nan_without_title():
    no_title = featurize(sample_blocks())
    assert no_title[list(TITLE_COLUMNS)].isna().all().all()
    titled = featurize(sample_blocks(), title="A river study")
    assert titled["title_cover"].iloc[2] == 1.0  # the h1 covers the whole title
    assert titled["title_overlap"].iloc[0] == 0.0


def test_repetition_columns_from_a_site_profile():
    blocks = sample_blocks()
    # three other pages of the site: the same template around other articles
    others = [[blk(3, f"Another article about {w}.") if b.index == 3 else b for b in blocks]
              for w in ("rivers", "lakes", "hills")]
    prof = SiteProfile.from_pages(others, site="example.org")
    df = featurize(blocks, repetition=prof.repetition(blocks, counted=False))
    assert df["rep_text"].tolist() == [1, 1, 1, 0, 1, 1]
    assert not df["rep_path"].isna().any()
    assert (df["site_pages"] == 3).all()
    assert (featurize(blocks)["site_pages"] == 0).all()


def test_link_and_text_density():
    df = featurize(sample_blocks())
    assert df["link_density"].iloc[0] == 1.0
    assert df["link_density"].iloc[3] == 0.0
    assert df["link_density"].iloc[4] == pytest.approx(8 / len("See the full map here."))
    assert df["n_links"].iloc[4] == 1
    assert df["text_density"].iloc[3] == pytest.approx(len(PROSE) / (len(PROSE) + 7))
    assert df["text_density"].iloc[4] == pytest.approx(len("See the full map here.") / 60)


def test_lengths_punctuation_and_words():
    df = featurize(sample_blocks())
    assert df["n_chars"].iloc[3] == len(PROSE)
    assert df["n_words"].iloc[3] == len(PROSE.split())
    assert df["n_sentences"].iloc[3] == 1
    assert df["n_commas"].iloc[3] == 1
    assert df["ends_punct"].iloc[3] == 1 and df["ends_punct"].iloc[0] == 0
    assert df["fw_share"].iloc[3] > 0.3 and df["fw_share"].iloc[0] == 0
    assert df["has_copyright"].iloc[5] == 1 and df["has_copyright"].iloc[3] == 0


def test_cjk_lengths_count_characters():
    [row] = featurize([blk(0, "数据清洗是机器学习的第一步。")]).to_dict("records")
    assert row["n_chars"] == 14
    assert row["n_tokens"] == 13  # each Han character, not the full stop
    assert row["n_words"] == 13 / 2
    assert row["n_sentences"] == 1


#: one paragraph in Chinese and Japanese, and the same in English
ZH = "数据清洗是机器学习的第一步。我们在这里介绍了常用的方法，并给出了几个例子！"
JA = "データの前処理は機械学習の最初の一歩です。ここでは、よく使われる方法を紹介します。"
EN = ("Data cleaning is the first step of machine learning. Here we describe the usual methods, "
      "and give a few examples!")


@pytest.mark.parametrize("text", [ZH, JA])
def test_unspaced_text_counts_words_as_its_spaced_equivalent(text):
    zh, en = featurize([blk(0, text), blk(1, EN)]).to_dict("records")
    assert 0.5 * en["n_words"] <= zh["n_words"] <= 2.5 * en["n_words"]
    assert 0.5 * en["n_tokens"] <= zh["n_tokens"] <= 2.5 * en["n_tokens"]
    assert zh["n_sentences"] == en["n_sentences"] == 2  # 。！ end sentences with no space after them
    assert zh["n_commas"] == 1
    assert zh["fw_share"] > 0.2  # prose, not a menu


def test_title_columns_read_cjk_characters():
    df = featurize([blk(0, "首页"), blk(1, "机器学习入门：数据清洗是第一步。")], title="机器学习入门 - 技术博客")
    assert df["title_cover"].iloc[1] > 0.5 > df["title_cover"].iloc[0]


def _spaced_stats(text: str) -> tuple:
    """What `_text_stats` counts in text of spaced scripts: whitespace words, ``\\w+`` tokens."""
    low = text.lower()
    toks = tuple(re.findall(r"\w+", low))
    return (toks, len(text), len(text.split()), len(toks), sum(t in _FUNCTION_WORDS for t in toks),
            len(re.findall(r"[.!?。！？](?:\s|$)", text)), text.count(",") + text.count("，"),
            text[-1] in _END_PUNCT, len(re.findall(r"\d", text)), len(re.findall(r"(?:^|\s)[A-Z]", text)),
            len(re.findall(r"[|»·•›/]", text)), "©" in text or "copyright" in low)


@settings(max_examples=200, deadline=None)
@given(st.text(st.characters(max_codepoint=0xdff, exclude_categories=("Cs",)) | st.sampled_from("“”‘’—–…€한국어"),
               min_size=1))
def test_spaced_text_counts_are_whitespace_words_and_w_tokens(text):
    _STATS_CACHE.clear()
    assert _text_stats(text) == _spaced_stats(text)


def test_tag_context_and_class_token_flags():
    df = featurize(sample_blocks())
    assert df["tag_li"].tolist() == [1, 1, 0, 0, 0, 0]
    assert df["in_nav"].tolist() == [1, 1, 0, 0, 0, 0]
    assert df["in_main"].tolist() == [0, 0, 1, 1, 1, 0]
    assert df["in_footer"].iloc[5] == 1
    assert df["cls_menu"].tolist() == [1, 1, 0, 0, 0, 0]
    assert df["cls_footer"].tolist() == [0, 0, 0, 0, 0, 1]
    assert df["is_heading"].tolist() == [0, 0, 1, 0, 0, 0]
    assert df["heading_level"].iloc[2] == 1
    assert df["list_depth"].iloc[0] == 1


def test_own_tag_is_not_an_ancestor():
    # a block whose own element is <footer> is not "inside a footer"
    df = featurize([blk(0, "x", "footer", "/html/body/footer")])
    assert df["in_footer"].iloc[0] == 0
    assert df["tag_footer"].iloc[0] == 1


def test_position_features():
    df = featurize(sample_blocks())
    assert df["rel_index"].tolist() == pytest.approx([0, 0.2, 0.4, 0.6, 0.8, 1.0])
    assert df["rel_char_pos"].iloc[0] == 0
    assert df["rel_char_pos"].is_monotonic_increasing
    assert (df["page_blocks"] == 6).all()
    # the densest block is the prose paragraph's neighbourhood
    peak = df["abs_peak_distance"].idxmin()
    assert 2 <= peak <= 4
    assert df["after_first_heading"].tolist() == [0, 0, 1, 1, 1, 1]


def _article_page() -> list[Block]:
    nav = [blk(i, f"Section {i}", "li", f"/html/body/nav/ul/li[{i + 1}]", link_chars=9, n_links=1)
           for i in range(4)]
    article = [blk(4 + i, PROSE, "p", f"/html/body/div[2]/article/p[{i + 1}]") for i in range(4)]
    aside = [blk(8 + i, "A related story about another river, with more words.", "p",
                 f"/html/body/div[2]/aside/p[{i + 1}]", link_chars=50, n_links=1) for i in range(3)]
    return nav + article + aside


def test_main_region_is_the_element_holding_the_prose():
    df = featurize(_article_page())
    assert df["region_in_top"].tolist() == [0] * 4 + [1] * 4 + [0] * 3
    assert df["region_best"].iloc[4:8].tolist() == [1.0] * 4
    # the link-heavy rail scores only through the element it shares with the article
    assert (df["region_best"].iloc[8:] < 0.7).all()
    assert (df["region_best"].iloc[:4] < 0.2).all()  # the menu, further off still
    assert df["region_in_top_parent"].tolist() == [0] * 4 + [1] * 7  # the rail shares the region's parent
    assert df["region_sibling"].sum() == 0  # ... but is not strong enough to count with it
    assert df["region_top_share"].iloc[0] == pytest.approx(
        df["n_words"].iloc[4:8].sum() / df["n_words"].sum())
    assert df["region_depth_gap"].iloc[4] == 1  # one level below the region element


def test_a_strong_sibling_counts_with_the_region():
    page = _article_page()[:8]  # menu and article
    short = "The bend had moved again, by several metres."
    page += [blk(8 + i, short, "p", f"/html/body/div[2]/section/p[{i + 1}]") for i in range(5)]
    df = featurize(page)
    assert df["region_in_top"].tolist() == [0] * 4 + [1] * 4 + [0] * 5
    assert df["region_sibling"].tolist() == [0] * 8 + [1] * 5
    assert df["region_second"].iloc[0] == pytest.approx(10 / 12)  # five short paragraphs against four long


def test_two_strong_children_make_their_parent_the_region():
    page = _article_page()
    page += [blk(11 + i, PROSE, "p", f"/html/body/div[2]/section/p[{i + 1}]") for i in range(4)]
    df = featurize(page)
    assert df["region_in_top"].tolist() == [0] * 4 + [1] * 11
    assert df["region_depth_gap"].iloc[4] == 2


def test_list_items_vote_so_a_listing_has_a_region():
    nav = [blk(i, f"Section {i}", "li", f"/html/body/nav/ul/li[{i + 1}]", link_chars=9, n_links=1)
           for i in range(4)]
    jobs = [blk(4 + i, f"Senior river engineer, valley office number {i}", "li", f"/html/body/main/ul/li[{i + 1}]",
                link_chars=20, n_links=1) for i in range(6)]
    df = featurize(nav + jobs)
    assert df["region_in_top"].tolist() == [0] * 4 + [1] * 6


def test_no_region_without_prose():
    menu = [blk(i, f"Link {i}", "li", f"/html/body/ul/li[{i + 1}]", link_chars=6, n_links=1) for i in range(5)]
    df = featurize(menu)
    assert df[list(REGION_COLUMNS)].isna().all().all()


def test_empty_page_gives_empty_table():
    df = featurize([])
    assert list(df.columns) == FEATURES and len(df) == 0


def test_single_block_page_has_no_nan_outside_documented_columns():
    df = featurize([blk(0, PROSE)], title="x")
    nan_cols = set(df.columns[df.isna().any()])
    assert nan_cols <= set(SITE_COLUMNS) | {c for c in FEATURES if c.startswith(NEIGHBOUR_PREFIXES)}


# -- classification logic on synthetic blocks, no HTML -----------------------------------------
WORDS = ("river valley meander bank erosion sediment channel water forest village farmer harvest "
         "market winter storm bridge mountain glacier lake survey soil crop study report").split()
FUNCTION = "the of and to in that is was for with as by on".split()
MENU = "Home News Sport Weather Travel Culture Contact About Archive Login Shop Events Jobs Video".split()


def synthetic_blocks(rng: random.Random) -> tuple[list[Block], np.ndarray]:
    """A page of blocks: menu links, then an article, then a link list and a footer.

    Class tokens are left off on half the pages so that the model has to use link density,
    text length and position, not only names.
    """
    named = rng.random() < 0.5
    out: list[tuple[str, str, dict, int]] = []
    for k, w in enumerate(rng.sample(MENU, rng.randint(4, 8))):
        out.append((w, f"/html/body/div[1]/ul/li[{k + 1}]",
                    dict(tag="li", link_chars=len(w), n_links=1, list_depth=1,
                         tokens=("nav", "menu") if named else ()), 0))
    for k in range(rng.randint(2, 6)):
        words = [rng.choice(FUNCTION) if i % 3 == 1 else rng.choice(WORDS) for i in range(rng.randint(12, 40))]
        text = " ".join(words).capitalize() + "."
        linked = rng.randint(0, 6) if rng.random() < 0.3 else 0
        out.append((text, f"/html/body/div[2]/p[{k + 1}]",
                    dict(tag="p", link_chars=linked, n_links=int(linked > 0), tokens=("content",) if named else ()), 1))
    for k in range(rng.randint(3, 6)):
        text = " ".join(rng.sample(WORDS, rng.randint(2, 5))).title()
        out.append((text, f"/html/body/div[3]/ul/li[{k + 1}]",
                    dict(tag="li", link_chars=len(text), n_links=1, list_depth=1,
                         tokens=("related",) if named else ()), 0))
    out.append(("© 2024 Example Media. All rights reserved.", "/html/body/div[4]/p",
                dict(tag="p", tokens=("footer",) if named else ()), 0))
    blocks = [blk(i, text, xpath=xp, markup_bytes=len(text) + 9 + 40 * kw.get("n_links", 0), **kw)
              for i, (text, xp, kw, _) in enumerate(out)]
    return blocks, np.array([y for *_, y in out])


def synthetic_set(seed: int, n_pages: int) -> tuple[pd.DataFrame, np.ndarray]:
    rng = random.Random(seed)
    tables, labels = [], []
    for _ in range(n_pages):
        blocks, y = synthetic_blocks(rng)
        tables.append(featurize(blocks))
        labels.append(y)
    return pd.concat(tables, ignore_index=True), np.concatenate(labels)


def test_classifier_separates_held_out_synthetic_pages():
    X, y = synthetic_set(seed=1, n_pages=40)
    X_test, y_test = synthetic_set(seed=2, n_pages=20)
    clf = BlockClassifier(n_estimators=40, learning_rate=0.2, num_leaves=7, min_child_samples=5, n_jobs=1)
    clf.fit(X[FEATURES], y)
    accuracy = (clf.predict(X_test[FEATURES]) == y_test).mean()
    assert accuracy > 0.95
    proba = clf.predict_proba(X_test[FEATURES])
    assert proba.shape == (len(y_test), 2)
    np.testing.assert_allclose(proba.sum(axis=1), 1.0)


_TEXTS = st.text(st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=60).filter(str.strip)
_BLOCK = st.builds(
    lambda text, tag, parts, links, heading, tokens: Block(
        index=0, text=text.strip(), tag=tag, xpath="/html/body/" + "/".join(parts), depth=len(parts) + 1,
        link_chars=min(links, len(text.strip())), n_links=int(links > 0), heading_level=heading, tokens=tokens),
    _TEXTS, st.sampled_from(["p", "li", "td", "div", "h2", "pre", "span"]),
    st.lists(st.sampled_from(["div", "div[2]", "ul", "li[3]", "nav", "main", "p"]), min_size=1, max_size=5),
    st.integers(0, 80), st.integers(0, 6),
    st.lists(st.sampled_from(["nav", "menu", "content", "x"]), max_size=3).map(tuple),
)


@settings(max_examples=60, deadline=None)
@given(st.lists(_BLOCK, min_size=1, max_size=12), st.text(max_size=30))
def test_any_blocks_give_finite_features(blocks, title):
    blocks = [dataclasses.replace(b, index=i) for i, b in enumerate(blocks)]
    df = featurize(blocks, title=title)
    assert list(df.columns) == FEATURES and len(df) == len(blocks)
    values = df.drop(columns=[c for c in FEATURES if c in SITE_COLUMNS + TITLE_COLUMNS + REGION_COLUMNS
                              or c.startswith(NEIGHBOUR_PREFIXES)])
    region = df[list(REGION_COLUMNS)]
    assert region.isna().all().all() or region.notna().all().all()  # a page has a region or has none
    assert np.isfinite(values.to_numpy(dtype=float)).all()
    assert not np.isinf(df.to_numpy(dtype=float)).any()
    assert df["link_density"].between(0, 1).all()


def test_families_partition_the_feature_columns():
    # the ablation drops one family at a time: a column in no family, or in two, would skew it
    listed = [c for cols in FAMILIES.values() for c in cols]
    assert sorted(listed) == sorted(FEATURES)
    assert len(listed) == len(set(listed))


def test_the_feature_table_does_not_hold_a_pages_words_while_it_is_built():
    """A 15 MB page of 50,000 paragraphs took 540 MB to extract: its feature table is 100 MB,
    but every block's tokens (60 bytes a word) were held until the table was done, and the flag
    grid beside it. The table is now built holding little more than itself."""
    import tracemalloc

    from blockclf.features import feature_matrix
    from blockclf.html import parse
    from blockclf.segment import segment

    rng = random.Random(0)
    vocab = [f"w{i}" for i in range(5000)]
    paragraphs = ("<p>" + " ".join(rng.choice(vocab) for _ in range(80)) + "</p>" for _ in range(4000))
    blocks = segment(parse("<html><body><article>" + "".join(paragraphs) + "</article></body></html>"))
    assert len(blocks) == 4000
    _STATS_CACHE.clear()
    tracemalloc.start()
    try:
        table = feature_matrix(blocks, "w1 w2 w3")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 2.5 * table.nbytes, f"{peak / table.nbytes:.2f} times the table"  # 4.6 when tokens were held
