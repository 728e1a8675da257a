"""Site profiles: repetition across a site's pages, page identity, labels beside values, CLI."""

from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np
import pytest

from blockclf.cli import main
from blockclf.data import registered_domain
from blockclf.predict import extract_batch, prepare
from blockclf.site import (
    MAX_SAMPLES,
    SiteProfile,
    batch_repetition,
    block_keys,
    cap_headline_repetition,
    cap_label_repetition,
    keep_labels,
    label_value_pairs,
    text_key,
    text_path_keys,
)

WORDS = ("river valley meander erosion sediment channel water current delta forest village harvest "
         "market winter storm bridge glacier engineer survey flood plain soil crop museum archive "
         "the of and to in that is was for with as by on from which").split()
MENU = ["Home", "World", "Politics", "Science", "Sports", "Contact us"]


def _sentence(rng: random.Random, n: int = 14) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(n)).capitalize() + "."


def site_page(n: int, seed: int = 0, template: int = 1) -> str:
    """Page ``n`` of a synthetic site: a fixed template around an article unique to the page.

    ``template=2`` is the site after a redesign: another menu, a sidebar, a longer footer.
    """
    rng = random.Random(seed * 1000 + n)
    paras = "".join(f"<p>{_sentence(rng)} {_sentence(rng)} {_sentence(rng)}</p>" for _ in range(4))
    menu = MENU if template == 1 else [f"Section {i}" for i in range(14)]
    nav = "".join(f'<li><a href="/{m.lower()}">{m}</a></li>' for m in menu)
    side = "" if template == 1 else "".join(
        f'<div class="widget"><a href="/p/{i}">Popular story number {i} of the week</a></div>' for i in range(12))
    footer = "<p>Copyright Example News. All rights reserved.</p>" * (1 if template == 1 else 4)
    return f"""<html><head><title>Story {n} | Example News</title>
<link rel="canonical" href="https://www.example-news.com/story/{n}"></head><body>
<nav class="menu"><ul>{nav}</ul></nav>{side}
<article><h1>{_sentence(rng, 6)}</h1>
<dl class="facts"><dt>Author</dt><dd>{rng.choice(["Ann Lee", "Bo Chan", "Cy Diaz", "Di Eze"])} {n}</dd>
<dt>Place</dt><dd>{_sentence(rng, 5)}</dd></dl>
<p><b>Filed under:</b><br>{_sentence(rng, 4)}</p>
{paras}</article>
<footer>{footer}<p>Privacy policy</p></footer></body></html>"""


@pytest.fixture(scope="module")
def site_pages():
    return [prepare(site_page(n).encode(), name=f"p{n}") for n in range(8)]


def _index(page, text: str) -> int:
    return next(i for i, b in enumerate(page.blocks) if b.text.startswith(text))


def test_template_repeats_article_does_not(site_pages):
    prof = SiteProfile.from_pages(p.blocks for p in site_pages)
    page = site_pages[3]
    text, path, n_other = prof.repetition(page.blocks)  # the page is counted: excluded from its own evidence
    assert n_other == len(site_pages) - 1
    for t in ("Home", "Politics", "Copyright Example News", "Privacy policy"):
        assert text[_index(page, t)] == pytest.approx(1.0)
    article = [i for i, b in enumerate(page.blocks) if b.tag == "p" and len(b.text) > 100]
    assert len(article) == 4
    assert np.all(text[article] <= 0.15)
    # same template, so the paragraphs' element paths do repeat: path evidence is separate
    assert np.all(path[article] >= 0.85)


def test_page_is_never_evidence_for_itself(site_pages):
    prof = SiteProfile.from_pages(p.blocks for p in site_pages)
    page = site_pages[0]
    assert not prof.add(page.blocks)  # already counted: adding again changes nothing
    assert prof.n_pages == len(site_pages)
    counted = prof.repetition(page.blocks)
    assert np.all(counted[0][[i for i, b in enumerate(page.blocks) if len(b.text) > 100]] == 0)
    # a profile used to extract the very pages it was built from gives the same scores as the batch
    batch = extract_batch(site_pages)
    alone = extract_batch([page], site_profile=prof)[0]
    np.testing.assert_allclose(alone.scores, batch[0].scores, rtol=1e-6)
    new_page = prepare(site_page(99).encode())
    assert not prof.contains_keys(*block_keys(new_page.blocks))
    assert prof.repetition(new_page.blocks)[2] == len(site_pages)


def test_few_pages_give_no_evidence(site_pages):
    prof = SiteProfile.from_pages(p.blocks for p in site_pages[:2])
    text, path, n_other = prof.repetition(site_pages[0].blocks)
    assert n_other == 0 and np.isnan(text).all() and np.isnan(path).all()


def test_a_page_with_one_other_page_of_its_site_is_scored_as_alone(site_pages):
    pair = extract_batch(site_pages[:2])
    for page, res in zip(site_pages[:2], pair):
        np.testing.assert_array_equal(res.scores, extract_batch([page])[0].scores)


def test_incremental_update_equals_building_at_once(site_pages):
    whole = SiteProfile.from_pages(p.blocks for p in site_pages)
    grown = SiteProfile.from_pages(p.blocks for p in site_pages[:3])
    assert grown.update(p.blocks for p in site_pages[3:]) == len(site_pages) - 3
    assert grown.update(p.blocks for p in site_pages) == 0
    assert (grown.n_pages, grown.texts, grown.paths) == (whole.n_pages, whole.texts, whole.paths)
    assert grown.pages == whole.pages


def test_save_load_and_versions(site_pages, tmp_path):
    prof = SiteProfile.from_pages((p.blocks for p in site_pages), site="example-news.com")
    path = tmp_path / "site.json"
    prof.save(path)
    back = SiteProfile.load(path)
    assert (back.site, back.n_pages, back.texts, back.paths, back.pages) == (
        prof.site, prof.n_pages, prof.texts, prof.paths, prof.pages)
    assert back.most_repeated(3)[0][0] == 1.0 and back.most_repeated(3)[0][1] in MENU + ["Privacy policy"]
    data = json.loads(path.read_text())
    assert data["version"] == 2 and len(data["samples"]) <= MAX_SAMPLES
    old = {k: v for k, v in data.items() if k not in ("pages", "samples")} | {"version": 1}
    assert SiteProfile.from_dict(old).n_pages == prof.n_pages
    with pytest.raises(ValueError, match="version 9"):
        SiteProfile.from_dict(data | {"version": 9})
    with pytest.raises(ValueError, match="not a blockclf site profile"):
        SiteProfile.from_dict({"format": "other"})
    (tmp_path / "bad.json").write_text("{")
    with pytest.raises(ValueError, match="cannot read"):
        SiteProfile.load(tmp_path / "bad.json")


def test_a_pages_keys_are_each_texts_key():
    # the keys of a whole page are made in one pass; they must be the ones saved profiles hold
    texts = ["Posted 12 May 2024", "ΣΟΦΟΣ ΛΌΓΟΣ", "a\u00a0b\n  c", "", "İstanbul 3", "٣٤ items", "x\x00y 7"]
    xpaths = [f"/html/body/div[{i}]" for i in range(len(texts))]
    for some in (texts, texts[:-1], texts[:1], []):
        got_texts, got_paths = text_path_keys(some, xpaths[:len(some)])
        assert got_texts.dtype == np.uint64 and got_texts.tolist() == [text_key(t) for t in some]
        assert got_paths.tolist() == [text_path_keys([x], [x])[1][0] for x in xpaths[:len(some)]]
    assert text_key("Posted 12 May 2024") == text_key("posted 7  may 1999")


def test_samples_are_bounded():
    prof = SiteProfile("x")
    pages = [prepare("".join(f"<p>line {w} {n}</p>" for w in WORDS).encode() + b"<p>unique %d</p>" % n)
             for n in range(2)]
    for p in pages:
        prof.add(p.blocks)
    prof.samples.update({k: "s" for k in range(3 * MAX_SAMPLES)})
    prof.texts.update({k: 2 for k in range(3 * MAX_SAMPLES)})
    assert len(prof.to_dict()["samples"]) == MAX_SAMPLES


def test_grouping_by_registered_domain(site_pages):
    assert {p.site for p in site_pages} == {"example-news.com"}
    assert registered_domain("https://web.archive.org/web/20130203030954/http://www.foxnews.com/us/x") == "foxnews.com"
    assert registered_domain("http://news.bbc.co.uk/a") == "bbc.co.uk"
    other = prepare(b'<html><head><link rel="canonical" href="https://other.org/a"></head><body><p>x</p></body></html>')
    nosite = prepare(b"<html><body><p>no url here</p></body></html>")
    keys = [block_keys(p.blocks) for p in (*site_pages, other, nosite)]
    sites = [p.site for p in (*site_pages, other, nosite)]
    reps = batch_repetition(keys, sites)
    assert reps[0] is not None and reps[0][2] == len(site_pages) - 1
    assert reps[-2] is None and reps[-1] is None  # a lone site, and a page without a site, get no evidence
    prof = SiteProfile.from_pages((p.blocks for p in site_pages), site="example-news.com")
    reps = batch_repetition(keys, sites, prof)
    assert reps[-1] is not None and reps[-1][2] == len(site_pages)  # no site: the given profile applies
    assert reps[-2] is None  # another site's page never uses this profile


# --- labels beside values -------------------------------------------------------------------

def _pairs(html: str) -> list[tuple[str, str]]:
    page = prepare(html.encode())
    return [(page.blocks[a].text, page.blocks[b].text) for a, b in label_value_pairs(page.blocks)]


def test_label_value_pairs_are_found():
    assert _pairs("<dl><dt>Author</dt><dd>Ann</dd><dd>Bo</dd><dt>Year</dt><dd>2001</dd></dl>") == [
        ("Author", "Ann"), ("Author", "Bo"), ("Year", "2001")]
    assert _pairs("<table><tr><th>Price</th><td>12 EUR</td></tr><tr><td>a</td><td>b</td></tr></table>") == [
        ("Price", "12 EUR")]
    assert _pairs("<div><b>Filed under:</b><br>Rivers and lakes</div>") == [("Filed under:", "Rivers and lakes")]
    assert _pairs("<form><div>Country</div><select><option>Chad</option></select></form>") == [("Country", "Chad")]
    # a long sentence ending in a colon introduces text, it is not a label; headings are not labels
    assert _pairs("<p>" + "word " * 12 + "and then this:</p><p>More text</p><h2>Notes:</h2><p>x</p>") == []


def test_kept_value_keeps_its_label_and_caps_its_repetition():
    pairs = [(0, 1), (2, 3)]
    kept = np.array([False, True, False, False])
    assert keep_labels(kept, pairs).tolist() == [True, True, False, False]
    rep = np.array([1.0, 0.1, 1.0, 0.9])
    assert cap_label_repetition(rep, pairs).tolist() == [0.1, 0.1, 0.9, 0.9]
    nan = np.full(4, np.nan)
    assert np.isnan(cap_label_repetition(nan, pairs)).all()


def test_a_pages_own_headline_is_not_counted_as_its_sites_template():
    """Other pages' rails link to a story by its headline: on the story's page it is its own."""
    blocks = prepare(b"<title>Floods close the valley road - Valley News</title><body>"
                     b"<h1>Floods close the valley road</h1><p>The road closed on Monday after the river rose.</p>"
                     b"<h3>Floods close the valley road</h3><h2>Most read</h2><h3>Harvest starts early</h3>"
                     b"<h2>Road</h2></body>").blocks
    assert [b.heading_level for b in blocks] == [1, 0, 3, 2, 3, 2]
    rep = np.array([0.6, 0.0, 0.6, 1.0, 0.5, 1.0])
    capped = cap_headline_repetition(rep, blocks, "Floods close the valley road")
    assert capped.tolist() == [0.0, 0.0, 0.0, 1.0, 0.5, 1.0] and rep[0] == 0.6  # the caller's array is left alone
    # a paragraph with the headline's words, or a headline of fewer than three words, is not
    assert cap_headline_repetition(rep, blocks, "The road closed on Monday after the river rose.").tolist() == rep.tolist()
    assert cap_headline_repetition(rep, blocks, "Road").tolist() == rep.tolist()
    nan = np.full(6, np.nan)
    assert np.isnan(cap_headline_repetition(nan, blocks, "Floods close the valley road")).all()


def test_labels_survive_extraction(site_pages):
    results = extract_batch(site_pages)
    n_values_kept = 0
    for page, res in zip(site_pages, results):
        pairs = label_value_pairs(page.blocks)
        assert {page.blocks[a].text for a, _ in pairs} >= {"Author", "Place", "Filed under:"}
        for label, value in pairs:
            if res.kept[value]:
                n_values_kept += 1
                assert res.kept[label], page.blocks[label].text
    assert n_values_kept > 0
    # a threshold between a label's score and its value's: the value is kept, so is its label
    page, res = site_pages[0], results[0]
    pairs = [(a, b) for a, b in label_value_pairs(page.blocks) if res.scores[a] < res.scores[b]]
    if not pairs:
        pytest.skip("this model scores every label at least as high as its value")
    label, value = pairs[0]
    thr = float(res.scores[label] + res.scores[value]) / 2
    res = extract_batch(site_pages, threshold=thr)[0]
    assert res.scores[label] < thr <= res.scores[value]
    assert res.kept[value] and res.kept[label]


# --- command line ---------------------------------------------------------------------------

@pytest.fixture(scope="module")
def site_dir(tmp_path_factory):
    d = tmp_path_factory.mktemp("site")
    for n in range(6):
        (d / f"story{n}.html").write_text(site_page(n))
    return d


def test_site_build_inspect_and_extract(site_dir, tmp_path, capsys):
    prof_path = tmp_path / "site.json"
    assert main(["site", "build", str(site_dir), "-o", str(prof_path)]) == 0
    assert "6 new pages" in capsys.readouterr().out
    extra = tmp_path / "more"
    extra.mkdir()
    (extra / "story7.html").write_text(site_page(7))
    assert main(["site", "build", str(extra), str(site_dir / "story0.html"), "-o", str(prof_path), "--update"]) == 0
    assert "1 new pages, 7 in profile" in capsys.readouterr().out
    prof = SiteProfile.load(prof_path)
    assert prof.site == "example-news.com" and prof.n_pages == 7

    assert main(["site", "inspect", str(prof_path), "--top", "5", "--pages", str(site_dir / "story1.html")]) == 0
    out = capsys.readouterr().out
    assert "on 1 page only" in out and "90% < share <= 100%" in out
    assert "Privacy policy" in out or "Home" in out
    assert "repetition alone never removes a block" in out

    assert main(["extract", "--site-profile", str(prof_path), str(site_dir / "story2.html"), "--format", "json"]) == 0
    with_profile = json.loads(capsys.readouterr().out)
    assert main(["extract", str(site_dir), str(extra), "-o", str(tmp_path / "out"), "--format", "json"]) == 0
    batch = json.loads((tmp_path / "out" / "story2.json").read_text())
    # story2 is counted in the profile: it gets the evidence of the 6 other pages, as in the batch
    decisions = [(b["kept"], b["score"]) for b in with_profile["blocks"]]
    assert decisions == [(b["kept"], b["score"]) for b in batch["blocks"]]


def test_site_build_refuses_other_sites(site_dir, tmp_path, capsys):
    other = tmp_path / "other.html"
    other.write_text('<html><head><link rel="canonical" href="https://other.org/a"></head><body><p>x</p></body></html>')
    assert main(["site", "build", str(site_dir), str(other), "-o", str(tmp_path / "s.json")]) == 1
    assert "other.org is not example-news.com" in capsys.readouterr().err


def test_inspect_plot(site_dir, tmp_path):
    pytest.importorskip("matplotlib")
    prof_path = tmp_path / "site.json"
    assert main(["site", "build", str(site_dir), "-o", str(prof_path)]) == 0
    assert main(["site", "inspect", str(prof_path), "--plot", str(tmp_path / "df.png")]) == 0
    assert (tmp_path / "df.png").read_bytes()[:4] == b"\x89PNG"


def test_removed_log_lines_match_removed_blocks(site_dir, tmp_path):
    log = tmp_path / "removed.jsonl"
    args = ["extract", str(site_dir), "-o", str(tmp_path / "o"), "--format", "json", "--removed-log", str(log)]
    assert main(args) == 0  # without --explain the log is cheap: no reasons
    assert not any("reasons" in json.loads(line) for line in log.read_text().splitlines())
    args += ["--explain", "--overwrite"]
    assert main(args) == 0
    lines = [json.loads(line) for line in log.read_text().splitlines()]
    removed = 0
    reasons = []
    for out in (tmp_path / "o").glob("*.json"):
        data = json.loads(out.read_text())
        removed += sum(not b["kept"] for b in data["blocks"])
        assert all(b["reason"] is None for b in data["blocks"] if b["kept"])
        reasons += [(b["xpath"], b["reason"]) for b in data["blocks"] if not b["kept"]]
    assert len(lines) == removed > 0
    # the JSON's block records say what removed each block as the removal log does
    assert sorted(reasons) == sorted((r["xpath"], r["reason"]) for r in lines)
    rec = next(r for r in lines if r["text"] == "Privacy policy")
    assert set(rec) >= {"page", "xpath", "text", "score", "threshold", "reason", "reasons"}
    assert rec["score"] < rec["threshold"] and rec["reasons"] and rec["reason"] == "score"
    # every line says why: a line the model removed for its score scored under the threshold
    assert all(r["reason"] for r in lines)
    assert all(r["score"] < r["threshold"] for r in lines if r["reason"] == "score")
    assert rec["page"].endswith(".html") and rec["xpath"].startswith("/html")


def test_site_build_reads_pages_of_one_name_in_several_folders(tmp_path, capsys):
    # a mirror keeps each section's page as index.html: building a profile writes nothing per
    # page, so one name in two folders is no collision (it was skipped as one)
    for n in range(3):
        d = tmp_path / f"section{n}"
        d.mkdir()
        (d / "index.html").write_text(site_page(n))
    prof_path = tmp_path / "site.json"
    code = main(["site", "build", *(str(tmp_path / f"section{n}" / "index.html") for n in range(3)),
                 "-o", str(prof_path)])
    out, err = capsys.readouterr()
    assert code == 0 and "3 new pages" in out and "skipped" not in err


def _mixed_site_folder(tmp_path, make_page) -> Path:
    """Six pages of one site, two of another, and two that name no site, interleaved."""
    d = tmp_path / "crawl"
    d.mkdir()
    for n in range(6):
        (d / f"a{n}.html").write_text(site_page(n), encoding="utf-8")
    for p in range(2):
        (d / f"b{p}.html").write_text(make_page(8, p).html, encoding="utf-8")
        loose = site_page(10 + p).replace('<link rel="canonical"', '<link rel="x"')
        (d / f"c{p}.html").write_text(loose, encoding="utf-8")
    return d


def test_site_build_counts_each_page_as_it_is_read(tmp_path, capsys, monkeypatch, synthetic_page):
    """No page is held past its counting (a parsed page holds its tree), and the profile is
    the one the pages give counted all at once: the most common site's, with the pages that
    name no site, the other site's pages named as skipped."""
    import weakref

    import blockclf.cli.site as site_cli

    d = _mixed_site_folder(tmp_path, synthetic_page)
    alive: list[weakref.ref] = []
    most = []
    real = site_cli.prepare_or_error

    def watched(*args, **kwargs):
        most.append(sum(ref() is not None for ref in alive))
        page = real(*args, **kwargs)
        alive.append(weakref.ref(page))
        return page

    monkeypatch.setattr(site_cli, "prepare_or_error", watched)
    out = tmp_path / "site.json"
    assert main(["site", "build", str(d), "-o", str(out), "--jobs", "1"]) == 1
    assert len(most) == 10 and max(most) <= 1  # at most the page being counted
    io = capsys.readouterr()
    assert "site example-news.com: 8 new pages, 8 in profile" in io.out
    assert io.err.count("site8.org is not example-news.com") == 2
    monkeypatch.undo()
    pages = [prepare(f) for f in sorted(d.iterdir())]
    whole = SiteProfile.from_pages([p.blocks for p in pages if p.site != "site8.org"], "example-news.com")
    built = SiteProfile.load(out)
    assert (built.n_pages, built.texts, built.paths, built.pages) == (whole.n_pages, whole.texts, whole.paths,
                                                                     whole.pages)


def test_site_stats_of_pages_are_those_of_one_extraction(tmp_path, synthetic_page):
    from blockclf.drift import page_record, site_stats

    d = _mixed_site_folder(tmp_path, synthetic_page)
    (d / "bad.html").write_bytes(b"")
    assert main(["site", "stats", str(d), "-o", str(tmp_path / "stats.json")]) == 1  # the empty page is a skip
    pages = [prepare(f, name=str(f)) for f in sorted(d.iterdir()) if f.name != "bad.html"]
    expected = site_stats([page_record(r) for r in extract_batch(pages)])
    assert json.loads((tmp_path / "stats.json").read_text(encoding="utf-8")) == json.loads(json.dumps(expected))


def test_site_build_says_which_pages_it_did_not_count(site_dir, tmp_path, capsys):
    """Copies of a page and pages without text are counted once: a profile of wcxb's 1,170
    train pages counted 1,158 and said nothing of the other 12."""
    folder = tmp_path / "pages"
    folder.mkdir()
    for n in range(3):
        (folder / f"story{n}.html").write_text(site_page(n))
    (folder / "story0-copy.html").write_text(site_page(0))
    for n in range(2):
        (folder / f"shell{n}.html").write_text('<html><head><link rel="canonical" '
                                                f'href="https://example-news.com/app/{n}"></head><body></body></html>')
    prof_path = tmp_path / "site.json"
    assert main(["site", "build", str(folder), "-o", str(prof_path)]) == 0
    out = capsys.readouterr().out
    assert "4 new pages, 4 in profile" in out
    assert "(2 pages not counted: 1 copy of a page already counted, 1 without text, like one counted before)" in out
    assert main(["site", "build", str(folder / "story1.html"), "-o", str(prof_path), "--update"]) == 0
    assert "0 new pages, 4 in profile" in (out := capsys.readouterr().out)
    assert "(1 page not counted: 1 copy of a page already counted)" in out


def _die_counting(name: str, parent: int, items):
    """`_counted_pages` that kills the worker process reading page ``name`` (never the test's own)."""
    import os
    import signal

    import blockclf.cli.site as site_cli

    if any(Path(item.name).name == name for item in items) and os.getpid() != parent:
        os.kill(os.getpid(), signal.SIGKILL)
    return site_cli._counted_pages(items)


def test_site_build_reads_pages_in_workers_to_the_same_profile_and_survives_one_dying(tmp_path, capsys):
    """Workers read the pages (one process read 30 wcxb pages a second) and the profile is the
    one a single process counts, to the byte; a worker that dies costs only the page it read."""
    import os
    from functools import partial

    import blockclf.cli.site as site_cli

    folder = tmp_path / "pages"
    folder.mkdir()
    for n in range(30):
        (folder / f"story{n:02d}.html").write_text(site_page(n))
    (folder / "story00-copy.html").write_text(site_page(0))
    one, two = tmp_path / "one.json", tmp_path / "two.json"
    assert main(["site", "build", str(folder), "-o", str(one), "--jobs", "1"]) == 0
    assert main(["site", "build", str(folder), "-o", str(two), "--jobs", "2"]) == 0
    out = capsys.readouterr().out
    assert out.count("30 new pages, 30 in profile") == 2 and out.count("1 copy of a page already counted") == 2
    assert one.read_bytes() == two.read_bytes()
    failed: list[str] = []
    rows = list(site_cli._each_counted([str(folder)], None, failed, 2,
                                       partial(_die_counting, "story17.html", os.getpid())))
    names = sorted(Path(name).name for name, _site, _counted in rows)
    assert names == sorted(f.name for f in folder.iterdir() if f.name != "story17.html")
    assert [Path(name).name for name in failed] == ["story17.html"]
    assert "story17.html" in (err := capsys.readouterr().err) and "worker process reading it died" in err
