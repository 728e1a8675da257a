"""The extraction API: Result fields, favor modes, threshold override, batches grouped by site."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from blockclf import Model, PageError, Result, extract, extract_batch, prepare
from blockclf.evaluate import tokens
from blockclf.features import FEATURES
from blockclf.render import removal_log

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "data" / "example.html"


def test_result_api(tiny_model: Model, synthetic_page):
    page = synthetic_page(12, 1)
    res = extract(page.html, model=tiny_model)
    assert isinstance(res, Result)
    n = len(res.blocks)
    assert len(res.scores) == len(res.kept) == n > 0
    assert res.scores.dtype.kind == "f" and ((res.scores >= 0) & (res.scores <= 1)).all()
    assert res.kept.dtype == bool
    assert res.favor == "balanced" and res.threshold == tiny_model.thresholds["balanced"]
    assert res.title == page.title  # the headline, without the <title>'s " | site12.org"
    assert res.metadata.title == page.title and res.metadata.url == "https://www.site12.org/story/1"
    assert res.url == "https://www.site12.org/story/1"
    assert res.site == "site12.org"
    assert res.encoding == "str"
    assert res.text == "\n".join(b.text for b, k in zip(res.blocks, res.kept) if k)
    assert res.verdict == "document" and res.stats["n_blocks"] == n


def test_nothing_is_lost(tiny_model: Model, synthetic_page):
    res = extract(synthetic_page(12, 2).html, model=tiny_model)
    assert res.raw_text == "\n".join(b.text for b in res.blocks)
    removed = res.removed
    assert len(removed) == int((~res.kept).sum()) > 0
    assert all(isinstance(s, float) and s < res.threshold for _, s in removed)
    kept_and_removed = sorted([b.index for b, k in zip(res.blocks, res.kept) if k] + [b.index for b, _ in removed])
    assert kept_and_removed == list(range(len(res.blocks)))


def test_to_dict_is_json_serialisable(tiny_model: Model, synthetic_page):
    res = extract(synthetic_page(12, 3).html.encode("utf-8"), model=tiny_model, explain=True)
    d = json.loads(json.dumps(res.to_dict()))
    assert d["text"] == res.text and d["title"] == res.title and d["encoding"] == "utf-8"
    assert len(d["blocks"]) == len(res.blocks)
    first = d["blocks"][0]
    assert {"index", "text", "kept", "score", "tag", "xpath", "heading_path"} <= set(first)
    assert first["reasons"] and {"feature", "value", "contribution", "text"} <= set(first["reasons"][0])
    assert all(r["feature"] in tiny_model.columns for b in d["blocks"] for r in b["reasons"])


def test_explain_off_has_no_reasons(tiny_model: Model, synthetic_page):
    res = extract(synthetic_page(12, 3).html, model=tiny_model)
    assert res.reasons is None
    assert "reasons" not in res.to_dict()["blocks"][0]


def test_favor_modes_order_the_kept_blocks():
    """With the shipped model on the sample page: recall keeps most, precision least."""
    kept = {f: int(extract(EXAMPLE, favor=f).kept.sum()) for f in ("recall", "balanced", "precision")}
    assert kept["recall"] >= kept["balanced"] >= kept["precision"] > 0


def test_favor_modes_follow_the_model_thresholds(tiny_model: Model, synthetic_page):
    html = synthetic_page(13, 0).html
    for favor in ("recall", "balanced", "precision"):
        res = extract(html, model=tiny_model, favor=favor)
        assert res.threshold == tiny_model.thresholds[favor] and res.favor == favor
    with pytest.raises(ValueError):
        extract(html, model=tiny_model, favor="fast")


def test_threshold_override(tiny_model: Model, synthetic_page):
    html = synthetic_page(13, 1).html
    everything = extract(html, model=tiny_model, threshold=0.0)
    assert everything.kept.all() and everything.favor is None and everything.threshold == 0.0
    # the text marks list items and joins table rows, and holds every word of every block
    assert tokens(everything.text) == tokens(everything.raw_text)
    nothing = extract(html, model=tiny_model, threshold=1.0 + 1e-9)
    assert not nothing.kept.any() and nothing.text == ""
    mid = extract(html, model=tiny_model, threshold=0.5)
    np.testing.assert_array_equal(mid.kept, mid.scores >= 0.5)


def test_model_given_as_a_path(tiny_model_file: Path, tiny_model: Model, synthetic_page):
    html = synthetic_page(13, 2).html
    np.testing.assert_array_equal(extract(html, model=tiny_model_file).scores, extract(html, model=tiny_model).scores)


def test_unusable_page_raises_page_error(tiny_model: Model):
    with pytest.raises(PageError):
        extract(b"", model=tiny_model)


def test_noscript_only_page_is_read_with_noscript():
    page = prepare("<html><body><noscript><p>Only here</p></noscript></body></html>")
    assert [b.text for b in page.blocks] == ["Only here"]
    assert "noscript-only" in page.doc.warnings


# -- batches and site grouping --------------------------------------------------------------
class _Recorder:
    """Wraps a classifier and keeps the feature table it was asked to score."""

    def __init__(self, inner) -> None:
        self.inner = inner
        self.X = None

    def predict_proba(self, X):
        self.X = pd.DataFrame(X, columns=FEATURES)  # scoring hands over the bare matrix, in FEATURES order
        return self.inner.predict_proba(X)

    def contributions(self, X):
        return self.inner.contributions(X)


def _recording(model: Model) -> tuple[Model, _Recorder]:
    rec = _Recorder(model.classifier)
    return Model(rec, model.thresholds, model.features, model.info), rec  # type: ignore[arg-type]


def test_batch_of_one_site_gets_repetition_evidence(tiny_model: Model, synthetic_page):
    model, rec = _recording(tiny_model)
    pages = [prepare(synthetic_page(14, k).html, name=f"p{k}") for k in range(4)]
    assert len({p.site for p in pages}) == 1
    results = extract_batch(pages, model=model)
    assert [r.name for r in results] == ["p0", "p1", "p2", "p3"]
    X = rec.X
    assert len(X) == sum(len(p.blocks) for p in pages)
    assert (X["site_pages"] == 3).all()
    start = 0
    for p in pages:
        rep = X["rep_text"].to_numpy()[start:start + len(p.blocks)]
        texts = [b.text for b in p.blocks]
        assert rep[texts.index("Privacy policy | Terms of use")] == pytest.approx(1.0)
        assert rep[0] == pytest.approx(1.0)  # the first menu entry
        assert rep[texts.index(p.doc.title.split(" | ")[0])] == 0.0  # the article heading is unique
        start += len(p.blocks)


def test_without_site_grouping_repetition_is_nan(tiny_model: Model, synthetic_page):
    model, rec = _recording(tiny_model)
    pages = [prepare(synthetic_page(14, k).html) for k in range(3)]
    extract_batch(pages, model=model, use_site=False)
    assert rec.X["rep_text"].isna().all()
    # pages of different sites are no evidence for each other
    mixed = [prepare(synthetic_page(15 + k, 0).html) for k in range(3)]
    assert len({p.site for p in mixed}) == 3
    extract_batch(mixed, model=model)
    assert rec.X["rep_text"].isna().all()


def test_empty_batch(tiny_model: Model):
    assert extract_batch([], model=tiny_model) == []


# -- hidden elements ---------------------------------------------------------------------------
STORY = " ".join(["The survey of the river measured how far each bend had moved since the last flood,"
                  " and the team found that the outer banks had retreated by several metres."] * 4)


def test_hidden_menu_is_removed_unscored_and_logged():
    html = (f"<html><head><title>River survey</title></head><body><h1>River survey</h1><p>{STORY}</p><p>{STORY}</p>"
            "<div style='display:none' class='modal'><p>Sign up for our newsletter today</p></div></body></html>")
    res = extract(html)
    [hidden] = [(i, b) for i, b in enumerate(res.blocks) if b.hidden]
    i, b = hidden
    assert b.text == "Sign up for our newsletter today"
    assert not res.kept[i] and res.scores[i] == 0.0
    assert "newsletter" not in res.text and "newsletter" in res.raw_text
    assert "read-hidden" not in res.warnings
    assert [b.index for b in res.blocks] == list(range(len(res.blocks)))
    from blockclf.render import removal_log

    [rec] = [r for r in removal_log(res) if r.get("hidden")]
    assert rec["text"] == b.text
    assert res.to_dict()["blocks"][i]["hidden"] is True


def test_a_cookie_banner_is_removed_unscored_with_its_reason():
    html = (f"<html><head><title>River survey</title></head><body><div id='onetrust-consent-sdk'><p>We use cookies "
            f"to give you the best experience on our website.</p></div><h1>River survey</h1><p>{STORY}</p>"
            "<div style='display:none'><p>Sign up for our newsletter today</p></div></body></html>")
    res = extract(html)
    [banner] = [i for i, b in enumerate(res.blocks) if b.consent]
    assert res.blocks[banner].hidden and not res.kept[banner] and res.scores[banner] == 0.0
    assert "cookies" not in res.text and "cookies" in res.raw_text
    from blockclf.render import removal_log

    log = {r["text"]: r for r in removal_log(res)}
    assert log[res.blocks[banner].text]["reason"] == "consent"
    assert log["Sign up for our newsletter today"]["reason"] == "hidden"  # removed unscored as hidden text
    assert [b["consent"] for b in res.to_dict()["blocks"]].count(True) == 1


def test_a_forums_staff_banner_is_removed_unscored_as_a_notice():
    html = (f"<html><head><title>River survey</title></head><body><div id='banner'><div id='banner-content'>"
            f"<p>Dear community, the survey data collection will be open until June 9.</p></div></div>"
            f"<h1>River survey</h1><p>{STORY}</p></body></html>")
    res = extract(html)
    [notice] = [i for i, b in enumerate(res.blocks) if b.notice]
    assert res.blocks[notice].hidden and not res.kept[notice] and res.scores[notice] == 0.0
    assert "survey data" not in res.text and "survey data" in res.raw_text
    from blockclf.render import removal_log

    assert {r["text"]: r for r in removal_log(res)}[res.blocks[notice].text]["reason"] == "notice"
    assert [b["notice"] for b in res.to_dict()["blocks"]] == [b.notice for b in res.blocks]


def test_page_that_hides_its_content_is_read_with_its_hidden_blocks():
    html = (f"<html><head><title>River survey</title></head><body><div id='app' style='display: none'>"
            f"<h1>River survey</h1><p>{STORY}</p><p>{STORY} (2)</p></div><p>Loading</p></body></html>")
    res = extract(html)
    assert "read-hidden" in res.warnings
    assert "outer banks had retreated" in res.text
    assert res.stats["kept_chars"] > 200
    # read with its hidden elements shown, the content keeps its heading and paragraphs
    assert res.markdown.startswith(f"# River survey\n\n{STORY}\n\n{STORY} (2)\n")
    assert all(b.hidden for b, k in zip(res.blocks, res.kept) if k)


@pytest.fixture
def revealing_out_of_time(monkeypatch):
    """Every page's second walk, with its hidden elements shown, runs out of time: a page is read
    with its hidden blocks as they are (flat), as a page with more text in view than these is."""
    import blockclf.predict as predict

    real = predict.segment

    def out_of_time(doc, limits=None, include_noscript=True, page_url=None, reveal=False):
        if reveal:
            raise PageError("timeout", "page took too long")
        return real(doc, limits, include_noscript, page_url)

    monkeypatch.setattr(predict, "segment", out_of_time)


def test_a_page_whose_revealed_reading_runs_out_of_budget_is_read_with_its_flat_hidden_blocks(revealing_out_of_time):
    html = (f"<html><head><title>River survey</title></head><body><div id='app' style='display: none'>"
            f"<h1>River survey</h1><p>{STORY}</p></div><p>Loading</p></body></html>")
    page = prepare(html)
    assert page.revealed is None and page.hidden
    res = extract_batch([page])[0]
    assert "read-hidden" in res.warnings and "outer banks had retreated" in res.text


def test_a_consent_dialog_is_never_kept_when_a_page_is_read_with_its_hidden_blocks():
    # the banner is often the only text in view on a page that hides its content until scripts
    # run; read again with its hidden blocks, the page keeps its article, not the banner
    banner = ("<div id='onetrust-banner-sdk'><p>We use cookies and similar technologies to improve your "
              "experience on our website, to analyse traffic and to personalise the content and advertising "
              "you see. By clicking accept you agree to the storing of cookies on your device.</p>"
              "<button>Accept all</button></div>")
    html = (f"<html><head><title>River survey</title></head><body>{banner}<div id='app' style='display: none'>"
            f"<h1>River survey</h1><p>{STORY}</p><p>{STORY}</p></div><p>Loading</p></body></html>")
    res = extract(html)
    assert "read-hidden" in res.warnings and "outer banks had retreated" in res.text
    assert "cookies" not in res.text
    (dialog,) = [b for b in res.blocks if b.consent]
    assert not res.kept[res.blocks.index(dialog)]
    assert any(e["reason"] == "consent" and "cookies" in e["text"] for e in removal_log(res))


def test_a_stricter_favor_mode_never_writes_nothing_where_the_balanced_one_writes_something():
    import copy

    from blockclf.model import cached_model

    strict = copy.copy(cached_model(None))
    strict.thresholds = {**strict.thresholds, "precision": 0.9999}  # over every block's score
    html = f"<html><head><title>River survey</title></head><body><h1>River survey</h1><p>{STORY}</p></body></html>"
    balanced = extract(html, model=strict)
    res = extract(html, model=strict, favor="precision")
    assert res.text == balanced.text and "outer banks had retreated" in res.text
    assert "read-at-balanced" in res.warnings and "read-at-balanced" not in balanced.warnings
    assert res.threshold == strict.threshold("balanced") and res.favor == "precision"
    # a raw threshold is taken at its word
    assert extract(html, model=strict, threshold=0.9999).text == ""


def test_training_labels_only_visible_blocks(tmp_path):
    from blockclf.data import PageRecord
    from blockclf.train import _label_one

    page = tmp_path / "p.html"
    page.write_text(f"<html><body><p>{STORY}</p><div hidden><p>Hidden menu</p></div><p>Footer</p></body></html>")
    gold = tmp_path / "p.txt"
    gold.write_text(STORY)
    lp = _label_one(PageRecord("d", "p", "train", page, gold))
    assert lp is not None and len(lp.X) == 2 and len(lp.labels.content) == 2


def test_shipped_models_are_read_once_by_name(synthetic_page):
    from blockclf.model import cached_model as _model
    from blockclf.model import reset_caches

    reset_caches()
    first = _model("refined")
    assert first is _model("refined") and _model(None) is _model(None)
    reset_caches()  # forgotten: read again
    assert _model("refined") is not first
    assert _model("refined").refiner is not None and _model(None).refiner is None
    page = synthetic_page(12, 2).html.encode("utf-8")
    assert extract(page, model="refined").scores.tolist() == extract(page, model=_model("refined")).scores.tolist()


def test_a_str_naming_a_file_or_a_web_address_is_refused_with_a_clear_reason():
    import blockclf

    with pytest.raises(blockclf.PageError) as err:
        blockclf.extract("page.html")
    assert err.value.reason == "path-as-text" and "pathlib.Path" in str(err.value)
    assert blockclf.extract("<p>page.html is a file name in running text, said a page.</p>").text
    # a web address, which a user of a fetching library passes first, was read as a page of no text
    for url in ("https://example.org/", " http://example.org/story.html\n"):
        with pytest.raises(blockclf.PageError) as err:
            blockclf.extract(url)
        assert err.value.reason == "url-as-text" and "does not fetch pages" in str(err.value)
    assert blockclf.extract("See https://example.org/ for the rest of the story, said the page.").text


def test_a_result_and_a_page_print_in_one_line():
    """Printed in a notebook, a result dumped every block's record and its arrays: 24 KB for the
    example page, hundreds of kilobytes for a long one."""
    import blockclf

    html = (Path(__file__).resolve().parents[1] / "data" / "example.html").read_bytes()
    result = blockclf.extract(html)
    assert repr(result).startswith("<Result 'Why Rivers Meander': document, ")
    assert f"{int(result.kept.sum())} of {len(result.blocks)} blocks kept" in repr(result)
    assert "\n" not in repr(result) and len(repr(result)) < 200
    page = blockclf.prepare(html, name="example")
    assert repr(page) == f"<Page 'example' 'Why Rivers Meander': {len(page.blocks)} blocks, {len(page.hidden)} hidden, " \
        f"site {page.site!r}, lang 'en'>"


def test_extract_batch_names_what_it_takes(tiny_model):
    import blockclf

    with pytest.raises(TypeError, match="prepare"):
        blockclf.extract_batch(["a.html"], model=tiny_model)


def test_model_repr_is_short():
    import blockclf

    text = repr(blockclf.load_model())
    assert text.startswith("Model(") and "trees" in text and len(text) < 200


def test_a_model_file_is_read_once_until_it_changes(tiny_model_file):
    import os

    from blockclf.model import cached_model

    first = cached_model(str(tiny_model_file))
    assert cached_model(str(tiny_model_file)) is first
    st = os.stat(tiny_model_file)
    os.utime(tiny_model_file, ns=(st.st_atime_ns, st.st_mtime_ns + 10**9))  # replaced by a newer file
    assert cached_model(str(tiny_model_file)) is not first


def test_a_hidden_buttons_label_is_never_kept_when_a_page_is_read_with_its_hidden_blocks(revealing_out_of_time):
    # a code block's "Copy" button, hidden until hovered, on a page read with its flat hidden
    # blocks: a control, not content the page hides; written, it was a code block of its own
    code = ("<div style='position: relative'><pre class='language-sh'><code>pip install river-survey</code>"
            "<button class='copy-code-button' style='display: none'>Copy</button></pre></div>")
    html = (f"<html><head><title>River survey</title></head><body><article><h1>River survey</h1>"
            f"<p>Install it first.</p>{code}<p>Then run it.</p>{code}"
            f"<div class='more' style='display: none'><p>{STORY}</p><p>{STORY}</p></div></article></body></html>")
    res = extract(html)
    assert "read-hidden" in res.warnings and "pip install river-survey" in res.text
    buttons = [i for i, b in enumerate(res.blocks) if b.tag == "button"]
    assert len(buttons) == 2 and all(res.blocks[i].hidden and not res.kept[i] for i in buttons)
    assert "Copy" not in res.text and "Copy" not in res.markdown
    # the removal log says why, as it does for a consent dialog
    assert [e["reason"] for e in removal_log(res) if e["text"] == "Copy"] == ["control", "control"]


@pytest.mark.parametrize("dialog", [
    "<div role='dialog' aria-modal='true' hidden><h2>Why you're seeing this ad</h2><p>{}</p></div>",
    "<div class='modal' role='alertdialog' style='display: none'><p>{}</p></div>",
    "<section aria-modal='true' hidden><p>{}</p></section>",
    "<dialog hidden><p>{}</p></dialog>",
])
def test_a_hidden_dialog_is_never_kept_when_a_page_is_read_with_its_hidden_blocks(dialog):
    # a shop's page hides its product details until scripts run, and beside each sponsored item
    # a dialog a script opens on request ("Why you're seeing this ad"): read again with its
    # hidden blocks, the page keeps the details, never the dialogs
    disclosure = ("Promoted items are selected based on what we think may interest you, while also generating "
                  "revenue for the marketplace by promoting the item, using a variety of relevance factors.")
    item = "<li><a href='/itm/{0}'>A rambling river guide, volume {0}</a>" + dialog.format(disclosure) + "</li>"
    html = (f"<html><head><title>River survey</title></head><body><ul>{''.join(item.format(n) for n in range(4))}</ul>"
            f"<div class='details' style='display: none'><h1>River survey</h1><p>{STORY}</p><p>{STORY}</p></div>"
            f"</body></html>")
    res = extract(html)
    assert "read-hidden" in res.warnings and "outer banks had retreated" in res.text
    dialogs = [i for i, b in enumerate(res.blocks) if "Promoted items" in b.text]
    assert len(dialogs) == 4 and all(res.blocks[i].hidden and res.blocks[i].notice and not res.kept[i]
                                     for i in dialogs)
    assert "Promoted items" not in res.text and "Promoted items" in res.raw_text
    assert {e["reason"] for e in removal_log(res) if "Promoted items" in e["text"]} == {"notice"}
    # a dialog in view (an enlarged photo's caption) is the page's to judge, as before
    shown = prepare("<body><div role='dialog' aria-label='Enlarged photo'><p>A tray of cookies</p></div></body>")
    assert [(b.text, b.hidden, b.notice) for b in shown.blocks] == [("A tray of cookies", False, False)]


def _example_and_synthetic(synthetic_page) -> list:
    pages = [prepare(EXAMPLE)]
    return pages + [prepare(synthetic_page(14, i).html.encode("utf-8"), name=str(i)) for i in range(4)]


@pytest.mark.parametrize("favor", ["precision", "balanced", "recall"])
def test_sure_scoring_keeps_every_decision_and_moves_only_sure_scores(favor, synthetic_page):
    """The shipped model stops summing a block's trees once its score is sure: what is kept
    never changes, and only scores beyond `SURE_RANGE` move, by at most `SURE_DEVIATION`."""
    from blockclf.model import SURE_DEVIATION, SURE_RANGE

    pages = _example_and_synthetic(synthetic_page)
    fast = extract_batch(pages, favor=favor)
    exact = extract_batch(pages, favor=favor, exact_scores=True)
    moved_any = False
    for a, b in zip(fast, exact):
        assert a.text == b.text and np.array_equal(a.kept, b.kept)
        moved = a.scores != b.scores
        moved_any |= bool(moved.any())
        assert np.abs(a.scores - b.scores).max() <= SURE_DEVIATION
        assert ((b.scores[moved] > SURE_RANGE[1]) | (b.scores[moved] < SURE_RANGE[0])).all()
    assert moved_any  # the scoring did stop early somewhere, or this test shows nothing


def test_scores_are_exact_where_a_cut_or_an_explanation_needs_them(synthetic_page):
    pages = _example_and_synthetic(synthetic_page)[:1]
    exact = extract_batch(pages, exact_scores=True)[0].scores
    assert not np.array_equal(extract_batch(pages)[0].scores, exact)
    for kwargs in ({"threshold": 0.93}, {"threshold": 0.16}, {"explain": True}):  # 0.16: an index page's 0.096
        np.testing.assert_array_equal(extract_batch(pages, **kwargs)[0].scores, exact)
    np.testing.assert_array_equal(extract(EXAMPLE, exact_scores=True).scores, exact)


def test_evaluation_and_threshold_curves_read_exact_scores(tiny_dataset, tiny_model, monkeypatch):
    from blockclf.data import read_index
    from blockclf.evaluate import evaluate_records
    from blockclf.thresholds import GRID, dev_curves

    seen = []
    score = Model.score

    def recording(self, X, boxes=None, sure=False):
        seen.append(sure)
        return score(self, X, boxes, sure)

    monkeypatch.setattr(Model, "score", recording)
    records = read_index(tiny_dataset, ["dev"])
    dev_curves(tiny_model, records, GRID)
    evaluate_records(records, tiny_model)
    assert seen and not any(seen)
    extract_batch([prepare(EXAMPLE)], model=tiny_model)
    assert seen[-1] is True


KEPT_UNDER = ("<html><body><h1>Rivers</h1><ul><li><a href='#a'>Origins</a></li><li><a href='#b'>Course</a></li>"
              "<li><a href='#c'>Mouth</a></li></ul>"
              "<table><tr><td>Length</td><td>42 km</td></tr><tr><td>Basin</td><td>300 km2</td></tr></table>"
              "<dl><dt>Author:</dt><dd>Jane Doe, who walked the river</dd></dl>"
              "<p>A paragraph the model kept over the threshold, long enough to be read as one.</p>"
              "<p>Subscribe to our newsletter</p></body></html>")


def test_what_kept_a_block_under_the_threshold_is_recorded(monkeypatch, tiny_model):
    """Every block kept though it scored under the threshold names the rule that kept it
    (`Result.kept_by`): a contents' entry kept with the rest, a data table's cell, a label
    beside its kept value; a block kept or removed by its score names none."""
    page = prepare(KEPT_UNDER)
    low = {"Origins": 0.1, "Length": 0.2, "Author:": 0.1, "Subscribe to our newsletter": 0.1}
    wanted = np.array([low.get(b.text, 0.9) for b in page.blocks])

    def score(self, X, boxes=None, sure=False):
        assert len(X) == len(wanted)
        return wanted, X

    monkeypatch.setattr(Model, "score", score)
    res = extract_batch([page], model=tiny_model, threshold=0.5)[0]
    by = dict(zip([b.text for b in res.blocks], res.kept_by))
    assert by["Origins"] == "toc-entry" and by["Length"] == "table-whole" and by["Author:"] == "label-value"
    assert all(res.kept[i] for i, b in enumerate(res.blocks) if b.text in ("Origins", "Length", "Author:"))
    assert by["Subscribe to our newsletter"] is None and not res.kept[-1]  # removed for its score
    assert all(by[t] is None for t in ("Course", "42 km", "Jane Doe, who walked the river"))
    for k, s, rule in zip(res.kept.tolist(), res.scores.tolist(), res.kept_by):
        assert (rule is not None) == (k and s < res.threshold)
