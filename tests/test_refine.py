"""The refining pass's columns: what each one reads of the first pass's scores."""

from __future__ import annotations

import numpy as np
import pytest

from blockclf import refine


def col(out: np.ndarray, name: str) -> np.ndarray:
    return out[:, refine.COLUMNS.index(name)]


# five blocks: two in a nav list (/ul), three paragraphs in an article; the first pass is
# sure of the paragraphs but one
XPATHS = ["/html/body/ul/li[1]", "/html/body/ul/li[2]", "/html/body/article/p[1]", "/html/body/article/p[2]",
          "/html/body/article/p[3]"]
SCORES = np.array([0.1, 0.1, 0.9, 0.3, 0.9])
WORDS = np.array([1.0, 1.0, 49.0, 9.0, 49.0])  # weights are words + 1: 2, 2, 50, 10, 50


@pytest.fixture
def out() -> np.ndarray:
    return refine.columns(SCORES, WORDS, refine.containers(XPATHS))


def test_shape_and_own_score(out):
    assert out.shape == (5, len(refine.COLUMNS))
    np.testing.assert_array_equal(col(out, "first_score"), SCORES)


def test_neighbours_read_minus_one_past_the_page_edges(out):
    np.testing.assert_array_equal(col(out, "first_p1"), [-1, 0.1, 0.1, 0.9, 0.3])
    np.testing.assert_array_equal(col(out, "first_n3"), [0.3, 0.9, -1, -1, -1])


def test_windows_leave_the_block_out_and_weigh_by_words(out):
    # block 3's window of 2 each side: blocks 1, 2, 4 with weights 2, 50, 50
    assert col(out, "first_win2")[3] == pytest.approx((2 * 0.1 + 50 * 0.9 + 50 * 0.9) / 102)


def test_other_blocks_of_the_same_container(out):
    others = col(out, "first_others_up1")
    # the middle paragraph's article siblings are both sure; the sure ones see it and each other
    assert others[3] == pytest.approx(0.9)
    assert others[2] == pytest.approx((10 * 0.3 + 50 * 0.9) / 60)
    assert others[0] == pytest.approx(0.1)
    # one level further up everything shares <body>
    assert col(out, "first_words_up2")[0] == pytest.approx(1.0)
    np.testing.assert_allclose(col(out, "first_high_up1"), [0, 0, 1, 1, 1])


def test_page_figures(out):
    np.testing.assert_allclose(col(out, "first_share_high"), 100 / 114)
    np.testing.assert_allclose(col(out, "first_page_max"), 0.9)
    # share of the page's words scored above the block: none above the first sure paragraph
    assert col(out, "first_rank")[2] == 0
    assert col(out, "first_rank")[3] == pytest.approx(100 / 114)
    np.testing.assert_array_equal(col(out, "first_dist_prev"), [50, 50, 50, 1, 2])
    np.testing.assert_array_equal(col(out, "first_dist_next"), [2, 1, 2, 1, 50])


def test_a_block_alone_in_its_container_reads_nan():
    out = refine.columns(np.array([0.5, 0.7]), np.array([3.0, 3.0]),
                         refine.containers(["/html/body/div/p", "/html/body/nav/a"]))
    assert np.isnan(col(out, "first_others_up1")).all()
    assert (col(out, "first_others_up2") == [0.7, 0.5]).all()


def test_table_checks_that_the_pages_cover_the_rows():
    X = np.zeros((3, 4))
    boxes = [refine.containers(["/a/b", "/a/c"])]
    with pytest.raises(ValueError, match="cover 2 blocks"):
        refine.table(np.zeros(3), X, boxes, 0)


def test_empty_page():
    assert refine.columns(np.zeros(0), np.zeros(0), refine.containers([])).shape == (0, len(refine.COLUMNS))
