"""Fuzzing and the nothing-lost property.

1. parse -> segment -> features -> predict on generated tag soup and raw byte strings ends in
   a result or a `PageError`, never another exception.
2. Nothing is lost: the blocks (kept + removed) hold every visible character of the page in
   document order, checked against an independent walk of the parsed tree, on generated tag
   soup and on a sample of benchmark pages (skipped when the benchmark is absent).

The example counts are small for CI; ``BLOCKCLF_FUZZ_EXAMPLES=5000`` runs a longer local
fuzz (see docs/robustness.md).
"""

from __future__ import annotations

import gzip
import inspect
import json
import os
import random
import re
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, currently_in_test_context, event, example, given, settings
from hypothesis import strategies as st

from blockclf.elements import CONSENT_CLASSES, CONSENT_IDS, SCREEN_READER_CLASSES, SKIP_TAGS, is_disclosure_panel
from blockclf.html import PageError, parse
from blockclf.model import load_model
from blockclf.predict import extract_batch, prepare
from blockclf.segment import segment

EXAMPLES = int(os.environ.get("BLOCKCLF_FUZZ_EXAMPLES", "60"))
FUZZ = settings(max_examples=EXAMPLES, deadline=None, derandomize="BLOCKCLF_FUZZ_EXAMPLES" not in os.environ,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
#: whether `segment` reads <noscript> by default (the reference follows the segmenter's rule)
NOSCRIPT_READ = inspect.signature(segment).parameters["include_noscript"].default
BENCH = Path(os.environ.get("BLOCKCLF_BENCH", Path(__file__).resolve().parents[2] / "shared" / "benchmark"))

_TAGS = ("p", "div", "span", "a", "b", "i", "li", "ul", "ol", "table", "tr", "td", "th", "h1", "h2", "pre", "br",
         "section", "nav", "footer", "script", "style", "noscript", "template", "iframe", "frameset", "noframes",
         "textarea", "select", "option", "svg", "blockquote", "html", "body", "head", "title", "xyz", "font", "button",
         "time")
_ATTRS = ("", ' class="nav menu"', ' id="main"', ' href="/x"', ' style="display:none"', " hidden",
          ' aria-hidden="true"', ' style="color: red"', ' type="hidden"', " data-x='<p>'", ' class="sr-only"',
          ' class="icon visually-hidden"', ' class="SR-ONLY"')
_TEXT = st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=30)
_PIECE = st.one_of(
    _TEXT,
    st.builds(lambda t, a: f"<{t}{a}>", st.sampled_from(_TAGS), st.sampled_from(_ATTRS)),
    st.builds(lambda t: f"</{t}>", st.sampled_from(_TAGS)),
    st.sampled_from(["<!-- c -->", "<!--", "-->", "<![CDATA[x]]>", "<?xml version='1.0'?>", "<!DOCTYPE html>",
                     "&amp;", "&nbsp;", "&#0;", "&#x110000;", "&bogus;", "<", ">", "\x00", "\r\n", "<p/>",
                     "<!DOCTYPE x [<!ENTITY a 'aaaa'>]>", "&a;", "<meta charset='latin-1'>", "\ufeff"]),
)
SOUP = st.lists(_PIECE, max_size=60).map("".join)


@pytest.fixture(scope="module", params=[None, "refined"])
def model(request):
    """Each shipped model, wrapped so that a failing example's report does not print it whole."""
    return _Quiet(load_model(request.param), request.param or "default")


class _Quiet:
    def __init__(self, model, name: str) -> None:
        self.model = model
        self.name = name

    def __repr__(self) -> str:
        return f"<shipped model {self.name}>"


#: screen-reader class names as sites spell them, matched whole or after a prefix's "-" or "_"
_SR_NAMES = ("sr-only sronly srOnly visually-hidden visuallyhidden visuallyHidden hidden-visually hiddenvisually "
             "hiddenVisually screen-reader screenreader screen-reader-text screenreader-text screen-reader-only "
             "screenreader-only screenReader screenReaderOnly screenReaderText sr-text off-screen offscreen offScreen "
             "visible-sr assistive-text").split()


def _screen_reader_word(word: str) -> bool:
    if ":" in word or word.startswith("not-") or "-not-" in word:  # shown at some size or state
        return False
    return (word in SCREEN_READER_CLASSES or word.endswith(("-vh", "_vh"))
            or any(word == n or word.endswith(("-" + n, "_" + n)) for n in _SR_NAMES))


#: a word naming text shown only on hover: a tooltip's or a popover's text, a hover card
_HOVER = re.compile(r"[\w-]*?(tool-?tip-?(text|content|body|inner)|popover-?(content|body)|hover-?card"
                    r"|rollover[\w-]*?-(block|card|content|box))")


def _hover_word(word: str) -> bool:
    return _HOVER.fullmatch(word.lower().replace("_", "-")) is not None


def visible_text(root, noscript: bool = False) -> str:
    """Every text character a browser shows, by a walk independent of the segmenter.

    ``noscript`` reads ``<noscript>`` too, as blockclf does for a page with no other text.
    """
    skip = SKIP_TAGS if noscript else SKIP_TAGS | {"noscript"}
    out: list[str] = []

    def beside_text(el) -> bool:
        # the parent shows text outside `el`, or has over 64 other nodes: an off-screen label there is furniture
        parent = el.getparent()
        if parent is None:
            return False
        # every node under the parent but those inside `el` or inside a never-shown element
        outside = [n for n in parent.iterdescendants() if not any(
            a is el or (isinstance(a.tag, str) and a.tag in SKIP_TAGS)
            for a in n.iterancestors() if a is not parent and parent in a.iterancestors())]
        shown = [n for n in outside if n is not el and isinstance(n.tag, str) and n.tag not in SKIP_TAGS]
        words = (parent.text or "") + "".join(n.tail or "" for n in outside) + "".join(n.text or "" for n in shown)
        return bool(words.strip()) or len(outside) > 64

    def in_button(el) -> bool:
        # a button's off-screen label names a control, whatever else the button shows
        parent = el.getparent()
        return parent is not None and parent.tag == "button"

    def consent_dialog(a) -> bool:
        label = a.get("aria-label", "").lower()
        return (a.get("id", "").lower() in CONSENT_IDS or bool(set(a.get("class", "").lower().split()) & CONSENT_CLASSES)
                or (a.get("role") in ("dialog", "alertdialog")
                    and any(w in label for w in ("cookie", "consent", "privacy"))))

    def shown_on_click(el, a) -> bool:
        # a tab's or an accordion's panel, hidden until its reader clicks, is read as the page's text
        # (the rule itself is the library's: which class words name such a panel is policy, not a walk)
        dialog = el.tag == "dialog" or a.get("role") in ("dialog", "alertdialog") or a.get("aria-modal") == "true"
        return not dialog and not consent_dialog(a) and is_disclosure_panel(el, dict(a))

    def hidden(el) -> bool:
        a = el.attrib
        style = a.get("style", "").replace(" ", "").lower()
        classes = set(a.get("class", "").split())
        return ("hidden" in a or a.get("aria-hidden", "").lower() == "true" or "display:none" in style
                or "visibility:hidden" in style or (el.tag.lower() == "input" and a.get("type", "").lower() == "hidden")
                or ((any(map(_screen_reader_word, classes)) or any(map(_hover_word, classes))
                     or a.get("role") == "tooltip") and (beside_text(el) or in_button(el)))
                or consent_dialog(a)) and not shown_on_click(el, a)

    todo: list = [root]
    while todo:
        item = todo.pop()
        if isinstance(item, str):
            out.append(item)
            continue
        if item is not root and item.tail:
            todo.append(item.tail)
        if not isinstance(item.tag, str) or item.tag.lower() in skip or hidden(item):
            continue
        todo.extend(reversed(item))
        if item.text:
            todo.append(item.text)
    return "".join(out)


#: characters a browser draws nothing for (zero-width space, word joiner, byte-order mark), which
#: the text leaves out, and the joiners and soft hyphen it leaves out at a block's edge
NOT_DRAWN = str.maketrans("", "", "\u200b\u2060\ufeff\u200c\u200d\u00ad")


def squash(text: str) -> str:
    return "".join(text.translate(NOT_DRAWN).split())


def check_nothing_lost(page, results) -> None:
    res = results[0]
    assert len(res.blocks) == len(res.scores) == len(res.kept)
    assert np.all(np.isfinite(res.scores))
    kept = [b for b, k in zip(res.blocks, res.kept) if k]
    removed = [b for b, _ in res.removed]
    assert len(kept) + len(removed) == len(res.blocks)
    merged = sorted(kept + removed, key=lambda b: b.index)
    assert [b.index for b in merged] == list(range(len(res.blocks)))
    noscript = NOSCRIPT_READ or "noscript-only" in page.doc.warnings
    shown = squash(visible_text(page.doc.root, noscript))
    if "read-hidden" in res.warnings:
        # read again with the hidden elements shown (the visible text was too short): a block may join
        # visible text and an inline hidden element's, flagged hidden, so the visible text is all there,
        # in order, among the hidden text
        rest = iter(squash("".join(b.text for b in merged)))
        assert all(c in rest for c in shown)
        return
    # hidden elements come as flagged blocks of their own; the others are the visible text
    assert squash("".join(b.text for b in merged if not b.hidden)) == shown


def _event(what: str) -> None:
    """Count outcomes in ``--hypothesis-show-statistics`` (a no-op outside a hypothesis test)."""
    if currently_in_test_context():
        event(what)


def run_pipeline(source, model):
    """prepare -> extract_batch; returns (page, results) or the PageError."""
    try:
        page = prepare(source)
    except PageError as exc:
        assert exc.reason and "\n" not in str(exc)
        _event(f"skipped: {exc.reason}")
        return exc
    _event("page with blocks" if page.blocks else "page without text")
    return page, extract_batch([page], model=model.model, use_site=False)


@FUZZ
@given(SOUP)
# too little visible text, so the page is read again with its hidden link shown, which joins the text
# before it in one block: found by this test when its markup pieces were drawn in another order
@example(soup="000000000000<A STYLE=DISPLAY:NONE>0000000000000")
def test_fuzz_tag_soup_text(model, soup):
    out = run_pipeline(soup, model)
    if not isinstance(out, PageError):
        check_nothing_lost(*out)


@FUZZ
@given(SOUP, st.sampled_from(["utf-8", "utf-16", "utf-16-le", "cp1252", "latin-1", "shift_jis", "utf-32"]))
def test_fuzz_tag_soup_bytes(model, soup, codec):
    out = run_pipeline(soup.encode(codec, errors="replace"), model)
    if not isinstance(out, PageError):
        check_nothing_lost(*out)


@FUZZ
@given(st.binary(max_size=3000))
def test_fuzz_raw_bytes(model, data):
    run_pipeline(data, model)


@FUZZ
@given(st.binary(min_size=1, max_size=400), st.integers(0, 100))
def test_fuzz_gzip_damage(tmp_path_factory, model, data, cut):
    path = tmp_path_factory.mktemp("gz") / "page.html.gz"
    packed = gzip.compress(b"<html><body><p>" + data + b"</p></body></html>")
    path.write_bytes(packed[: max(1, len(packed) * cut // 100)])
    run_pipeline(path, model)


def _benchmark_sample(n: int = 40) -> list[Path]:
    index = BENCH / "index.jsonl"
    if not index.exists():
        return []
    records = [json.loads(line) for line in index.read_text(encoding="utf-8").splitlines() if line.strip()]
    random.Random(6).shuffle(records)
    paths = [BENCH / r["dataset"] / "html" / f"{r['id']}.html.gz" for r in records]
    return [p for p in paths if p.exists()][:n]


#: inline and structural markup the writers turn into Markdown, HTML and JSON, and text that
#: Markdown reads as syntax
_WRITTEN_TAGS = _TAGS + ("hr", "del", "s", "strike", "strong", "em", "code", "kbd", "img", "dl", "dt", "dd", "h3",
                         "sup", "sub", "q")
_WRITTEN_ATTRS = _ATTRS + (' src="/i.png" alt="a*b"', ' href="#top"', ' href="javascript:x"', ' colspan="2"')
_WRITTEN_SOUP = st.lists(st.one_of(
    st.text(alphabet=st.sampled_from([*"ab c~*_`[]()!#>-|\\.", "\u200d", "商"]), max_size=12),
    st.builds(lambda t, a: f"<{t}{a}>", st.sampled_from(_WRITTEN_TAGS), st.sampled_from(_WRITTEN_ATTRS)),
    st.builds(lambda t: f"</{t}>", st.sampled_from(_WRITTEN_TAGS)),
), max_size=50).map("".join)


def _soup_result(soup: str, title: str):
    """The soup's blocks as the writers receive them, two of every three kept."""
    from blockclf import Result

    blocks = segment(parse(f"<html><body>{soup}</body></html>"))
    kept = np.array([i % 3 != 1 for i in range(len(blocks))], dtype=bool)
    return Result(blocks=blocks, scores=np.where(kept, 0.9, 0.1), kept=kept, threshold=0.5, favor="balanced",
                  title=title, url="https://site.org/a/b.html", name="page")


@FUZZ
@given(_WRITTEN_SOUP)
def test_fuzz_every_format_writes_any_tag_soup(soup):
    # a writer that fails loses the page ("output failed"): every format writes whatever was kept
    from blockclf.render import to_dict, to_html, to_markdown, to_text

    res = _soup_result(soup, "T")
    for images in (False, True):
        assert isinstance(to_markdown(res, images=images), str) and isinstance(to_html(res, images=images), str)
        json.dumps(to_dict(res, images=images))
    assert isinstance(to_text(res), str)


@FUZZ
@given(_WRITTEN_SOUP)
def test_fuzz_html_output_reads_back_as_written(soup):
    # what an HTML parser (lxml's here) makes of the output is what was written: no heading
    # left empty (lxml closes a heading before a paragraph or a table in it, and its words
    # land outside it), no item out of a list, no list holding text outside its items, no
    # link or code with nothing in it, no emphasis without a word (Markdown writes marks alone)
    import lxml.html

    from blockclf.render import to_html

    res = _soup_result(soup, "")
    for images in (False, True):
        html = to_html(res, images=images)
        if not html.strip():
            continue
        assert not re.search(r"<h[1-6]>(?:(?!</h[1-6]>).)*<(?:p|table)>", html, re.DOTALL), html
        root = lxml.html.fragment_fromstring(html, create_parent="div")
        for el in root.iter("h1", "h2", "h3", "h4", "h5", "h6"):
            assert el.xpath("string()").strip() or el.xpath(".//img"), html
        for el in root.iter("li"):
            assert el.getparent().tag in ("ul", "ol"), html
        for el in root.iter("table", "tr"):  # rows in a table, cells in a row, no text between
            assert not (el.text or "").strip() and all(not (c.tail or "").strip() for c in el), html
        for el in root.iter("ul", "ol"):
            assert not (el.text or "").strip() and all(c.tag == "li" and not (c.tail or "").strip() for c in el), html
        for el in root.iter("a", "code"):
            assert el.xpath("string()").strip() or el.xpath(".//img"), html
        for el in root.iter("strong", "em", "del"):  # a word in it, as Markdown writes marks
            assert any(c.isalnum() for c in el.xpath("string()")) or el.xpath(".//img"), html


@pytest.mark.skipif(not (BENCH / "index.jsonl").exists(), reason=f"benchmark not found at {BENCH} (set BLOCKCLF_BENCH)")
def test_nothing_lost_on_benchmark_pages(model):
    sample = _benchmark_sample()
    assert len(sample) >= 20
    for path in sample:
        out = run_pipeline(path, model)
        assert not isinstance(out, PageError), f"{path}: {out}"
        page, results = out
        check_nothing_lost(page, results)


def test_visible_text_reference_skips_what_a_browser_hides():
    doc = parse(b"<html><head><title>T</title></head><body><p>a<b>b</b>c</p><script>x</script>"
                b"<div hidden>y</div><p style='display: none'>z</p>d</body></html>")
    assert squash(visible_text(doc.root)) == "abcd"


_PART_ID = st.sampled_from("0123456789ab")
_MARKER = st.builds(lambda kind, i, waiting: (f'<!--$?--><template id="B:{i}"></template><div>Loading...</div><!--/$-->'
                                               if waiting else f'<template id="{kind}:{i}"></template>'),
                    st.sampled_from("PB"), _PART_ID, st.booleans())
_AROUND = st.sampled_from(["<p>lead {} tail</p>", "{}", "<div>x{}y</div>", "<table><tr><td>c{}</td></tr></table>",
                           "<ul><li>item</li>{}</ul>", "<h2>Head{}</h2>"])
_PART = st.builds(lambda i, lead, marker, after: f'<div hidden id="S:{i}">{lead}<p>part {i}</p>{marker}</div>{after}',
                  _PART_ID, st.sampled_from(["", "pre "]), st.one_of(st.just(""), _MARKER), st.sampled_from(["", "aft"]))


@FUZZ
@given(st.lists(st.tuples(_AROUND, _MARKER), max_size=6), st.lists(_PART, max_size=6))
def test_fuzz_streamed_parts_are_placed_without_losing_a_character(around, parts):
    """React's streamed parts moved into their markers' places (`blockclf.streamed`), markers
    and parts in any number, order and nesting, even holding each other's: every visible
    character is read once, but a fallback taken out ("Loading...")."""
    html = "<html><body>" + "".join(a.format(m) for a, m in around) + "".join(parts) + "</body></html>"
    blocks = segment(parse(html))
    got = sorted("".join(b.text for b in blocks).replace(" ", ""))
    shown = re.sub(r"<[^>]*>", "", html).replace(" ", "")
    fallbacks = shown.count("Loading...")
    assert got == sorted(shown) or any(
        got == sorted(shown.replace("Loading...", "", k)) for k in range(1, fallbacks + 1))
