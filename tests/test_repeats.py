"""A kept block that says what the kept block right before it said is written once."""

from __future__ import annotations

import numpy as np

from blockclf.explain import explain_html
from blockclf.html import parse
from blockclf.predict import extract
from blockclf.render import removal_log
from blockclf.repeats import repeat_mask
from blockclf.result import Result
from blockclf.segment import segment

STORY = ("The river cut a new channel through the soft plain after the flood, and the town that had stood "
         "on its bank for two centuries moved uphill, stone by stone, over the following decade.")


def _blocks(body: str) -> list:
    return segment(parse(f"<html><body>{body}</body></html>"))


def test_a_copy_of_the_block_before_is_flagged_and_a_run_against_its_first():
    blocks = _blocks("<p>Gallery title</p><p>Gallery  title</p><p>Gallery title</p><p>Caption one</p>"
                     "<p>Gallery title</p>")
    kept = np.ones(len(blocks), bool)
    assert repeat_mask(blocks, kept).tolist() == [False, True, True, False, False]
    # what lies between two copies and is not written does not part them
    kept = np.array([1, 1, 1, 0, 1], bool)
    assert repeat_mask(blocks, kept).tolist() == [False, True, True, False, True]


def test_the_removal_log_names_a_copy_repeat_only_where_the_rule_removed_it():
    blocks = _blocks("<p>Gallery title</p><p>Gallery title</p><p>Gallery title</p>")
    kept = np.array([1, 0, 0], bool)
    # the second copy the rule removed; the third the model had removed for its score
    res = Result(blocks=blocks, scores=np.array([0.9, 0.8, 0.2]), kept=kept, threshold=0.5, favor="balanced",
                 removed_by=[None, "repeat", None])
    assert [(rec["text"], rec["reason"]) for rec in res.removal_log()] == [
        ("Gallery title", "repeat"), ("Gallery title", "score")]
    assert res.removal_log() == removal_log(res)
    notes = explain_html(res)
    assert notes.count("said again") == 1
    # the hover compares the score with the threshold as they are: the rule removed a block over it
    assert "removed: score 0.800 &gt;= threshold 0.50" in notes and "removed: score 0.200 &lt; threshold 0.50" in notes


def test_table_cells_code_and_blocks_kept_apart_are_not_repeats():
    blocks = _blocks("<table><tr><td>Yes</td><td>Yes</td></tr></table><pre>x = 1</pre><pre>x = 1</pre>"
                     "<p>Thanks!</p><p>Thanks!</p><p>Thanks!</p>")
    kept = np.ones(len(blocks), bool)
    assert [b.text for b in blocks] == ["Yes", "Yes", "x = 1", "x = 1", "Thanks!", "Thanks!", "Thanks!"]
    assert not repeat_mask(blocks, kept, np.array([0, 0, 0, 0, 1, 1, 1], bool)).any()  # two readers' "Thanks!"
    assert repeat_mask(blocks, kept).tolist() == [False] * 5 + [True, True]


def test_a_gallerys_title_over_every_slide_is_written_once():
    slides = "".join(f"<div class='slide'><h3>Election 2012: The best photos</h3><p>Photo {i}: {STORY}</p></div>"
                     for i in range(3))
    res = extract(f"<html><head><title>Where the town goes</title></head><body><article><h1>Where the town goes</h1>"
                  f"<p>{STORY}</p><div class='gallery'><h3>Election 2012: The best photos</h3>"
                  f"<h3>Election 2012: The best photos</h3>{slides}</div></article></body></html>")
    lines = res.text.splitlines()
    assert [line for line in lines if line == "Election 2012: The best photos"] and all(
        a != b for a, b in zip(lines, lines[1:]))
    logged = [rec["text"] for rec in removal_log(res) if rec.get("reason") == "repeat"]
    assert logged == ["Election 2012: The best photos"] * 2  # the two copies right after the first
    assert "said again" in explain_html(res)


def test_a_removal_record_of_another_length_is_not_read():
    blocks = _blocks("<p>Gallery title</p><p>Gallery title</p>")
    res = Result(blocks=blocks, scores=np.array([0.9, 0.8]), kept=np.array([1, 0], bool), threshold=0.5,
                 favor="balanced", removed_by=["repeat"])  # a record of one block for two
    assert [rec["reason"] for rec in res.removal_log()] == ["score"]
