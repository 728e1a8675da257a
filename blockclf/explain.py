"""Why a block was kept or removed: feature contributions in plain words, and an HTML view.

`describe` turns one LightGBM ``pred_contrib`` entry (feature, value, contribution) into a
sentence such as "link density (share of the text inside links) 0.92 pushed towards
boilerplate". Feature names are built from a few families (own tag, ancestor tags, class/id
words, neighbours, containers), so the wording is composed from the name and new features
still get a readable, if plainer, description.

`explain_html` renders a result as one self-contained HTML page (no scripts, no external
resources): the page's verdict and metadata, then every block in document order, kept
blocks highlighted, removed ones struck through, blocks of readers' comment threads marked,
and each block's score and reasons in its ``title`` (shown on hover).
"""

from __future__ import annotations

import html
import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Final

from .threads import BODY, FURNITURE, HEADER, POST

if TYPE_CHECKING:
    from .block import Block
    from .result import Result

__all__ = ["NEVER_KEPT", "describe", "explain_html", "feature_words", "hidden_kind", "hidden_note", "removal_reasons"]

_BASE = {
    "n_chars": "length in characters",
    "log_chars": "length (log of characters)",
    "n_words": "number of words",
    "n_tokens": "number of tokens",
    "avg_word_len": "average word length",
    "n_sentences": "number of sentences",
    "n_commas": "number of commas",
    "ends_punct": "ends with sentence punctuation",
    "digit_share": "share of digits",
    "upper_word_share": "share of capitalised words",
    "separator_count": "separators such as | » ·",
    "fw_share": "share of function words (the, of, and...)",
    "has_copyright": "contains a copyright line",
    "link_chars": "characters inside links",
    "link_density": "link density (share of the text inside links)",
    "n_links": "number of links",
    "links_per_word": "links per word",
    "text_density": "text density (text characters per markup byte)",
    "log_markup": "markup size (log of bytes)",
    "heading_level": "heading level",
    "is_heading": "is a heading",
    "is_p": "is a paragraph",
    "list_depth": "list nesting depth",
    "table_depth": "table nesting depth",
    "depth": "depth in the page tree",
    "rel_depth": "depth relative to the page's typical block",
    "starts_element": "starts its element",
    "title_overlap": "share of its words found in the page title",
    "title_cover": "share of the page title's words it contains",
    "n_class_tokens": "number of class/id words around it",
    "rel_index": "position in the page (0 top, 1 bottom)",
    "rel_char_pos": "position in the page text (0 top, 1 bottom)",
    "page_blocks": "number of blocks on the page",
    "page_log_chars": "page text length (log)",
    "peak_distance": "distance from the page's densest text",
    "abs_peak_distance": "distance from the page's densest text",
    "after_first_heading": "comes after the first heading",
    "rel_container_words": "share of words in its container, relative to the largest container",
    "same_shape_share": "share of blocks with the same tag and class path",
    "same_shape_link_density": "link density of blocks with the same tag and class path",
    "win3_words_share": "share of page words in it and its two neighbours",
    "win3_link_density": "link density of it and its two neighbours",
    "win3_fw_share": "function-word share of it and its two neighbours",
    "rep_text": "share of the site's other pages with the same text",
    "rep_path": "share of the site's other pages with the same element path",
    "site_pages": "number of other pages of the site seen",
}
_CONTAINERS = {"parent": "parent element", "grand": "grandparent element", "great": "great-grandparent element"}
_CONTAINER_STATS = {"word_share": "share of page words", "link_density": "link density",
                    "n_blocks": "number of blocks", "fw_share": "function-word share"}
_NEIGHBOURS = {"p1": "previous block", "n1": "next block", "p2": "block two before", "n2": "block two after",
               "p3": "block three before", "n3": "block three after"}
# the refining pass (blockclf.refine) reads the first pass's scores; "confident" is >= 0.5
_FIRST = {
    "score": "first-pass score",
    "page_mean": "the page's mean first-pass score (by words)",
    "page_max": "the page's highest first-pass score",
    "share_high": "share of the page's words the first pass scored as content",
    "share_some": "share of the page's words the first pass scored 0.2 or more",
    "rank": "share of the page's words the first pass scored above it",
    "rel_max": "first-pass score against the page's highest",
    "high_before": "share of the first pass's content words that come before it",
    "high_after": "share of the first pass's content words that come after it",
    "dist_prev": "blocks since the last block the first pass scored as content",
    "dist_next": "blocks to the next block the first pass scored as content",
    "log_high": "number of blocks the first pass scored as content (log)",
}
_UP = {"1": _CONTAINERS["parent"], "2": _CONTAINERS["grand"], "3": _CONTAINERS["great"], "4": "element four levels up"}
_UP_STATS = {"others": "mean first-pass score of the other blocks in its",
             "high": "share of the first pass's content words inside its", "words": "share of page words inside its"}
_FLAG_PREFIXES = ("tag_", "in_", "cls_")


#: what a block read as hidden text is, by what hid it (`hidden_kind`)
_HIDDEN_WHAT = {"consent": "a consent dialog over the page", "notice": "a site's notice or a dialog over the page",
                "control": "a button's label, hidden on the page", "hidden": "hidden on the page"}
#: hidden text never kept, even when a page is read with its hidden blocks: dialogs and notices
#: lie over the page, and a hidden button is a control a script shows on hover or focus (a code
#: block's "Copy"), not content it reveals
NEVER_KEPT: Final = frozenset(("consent", "notice", "control"))
#: added where such a block was removed without a score
_UNREAD = "; not read, as the visible text was enough"
#: why a hidden block was removed without a score
HIDDEN_UNREAD = _HIDDEN_WHAT["hidden"] + _UNREAD


def hidden_kind(block: Block) -> str | None:
    """What hid a block read as hidden text: ``"consent"`` (a consent manager's dialog),
    ``"notice"`` (a site's notice or a hidden dialog over the page), ``"control"`` (a button's
    label) or ``"hidden"``; None for a visible block."""
    if not block.hidden:
        return None
    if block.consent:
        return "consent"
    if block.notice:
        return "notice"
    return "control" if "button" in block.ancestors else "hidden"


def removal_reasons(res: Result) -> list[str | None]:
    """Why each block was removed, None for a kept one: the kind of a hidden block never kept
    (``consent``, ``notice``, ``control``), the rule that removed it (`Result.removed_by`:
    ``comment``, ``repeat``...), ``hidden`` for hidden text removed unscored, else ``score``
    (the model scored it under the page's threshold). One reason a block: the removal log's
    ``reason``."""
    rules = res.removed_by
    if rules is None or len(rules) != len(res.blocks):  # a Result built by hand, without the record
        rules = [None] * len(res.blocks)
    scored_hidden = "read-hidden" in res.warnings  # the page was read with its hidden blocks
    out: list[str | None] = []
    for b, kept, rule in zip(res.blocks, res.kept.tolist(), rules):
        kind = hidden_kind(b)
        out.append(None if kept else kind if kind in NEVER_KEPT else rule
                   or ("hidden" if kind is not None and not scored_hidden else "score"))
    return out


def hidden_note(block: Block, read: bool) -> str | None:
    """What the explain view and the removal log say of a hidden block, ``read`` or removed
    without a score; None for a visible block."""
    kind = hidden_kind(block)
    return None if kind is None else _HIDDEN_WHAT[kind] if read else _HIDDEN_WHAT[kind] + _UNREAD


def feature_words(name: str) -> str:
    """A short plain-English description of feature ``name``."""
    if name in _BASE:
        return _BASE[name]
    if name.startswith("tag_"):
        return f"own tag is <{name[4:]}>"
    if name.startswith("in_"):
        return f"inside <{name[3:]}>"
    if name.startswith("cls_"):
        return f"class/id of it or an ancestor contains '{name[4:]}'"
    head, _, rest = name.partition("_")
    if head == "first":
        return _first_words(rest) or name.replace("_", " ")
    if head in _NEIGHBOURS and rest:
        return f"{_NEIGHBOURS[head]}'s {feature_words(rest)}"
    if head in _CONTAINERS and rest in _CONTAINER_STATS:
        return f"{_CONTAINER_STATS[rest]} of its {_CONTAINERS[head]}"
    return name.replace("_", " ")


def _first_words(rest: str) -> str | None:
    if rest in _FIRST:
        return _FIRST[rest]
    if rest in _NEIGHBOURS:
        return f"first-pass score of the {_NEIGHBOURS[rest]}"
    if rest.startswith("win") and rest[3:].isdigit():
        return f"mean first-pass score of the {rest[3:]} blocks each side"
    stat, _, level = rest.partition("_up")
    if stat in _UP_STATS and level in _UP:
        return f"{_UP_STATS[stat]} {_UP[level]}"
    return None


def _is_flag(name: str) -> bool:
    return name.startswith(_FLAG_PREFIXES) or name.rpartition("_")[2] in ("heading", "punct", "copyright", "element") \
        or name in ("is_p", "is_heading", "after_first_heading")


def describe(name: str, value: float, contribution: float) -> str:
    """One reason as a sentence: what the feature is, its value, and which way it pushed."""
    side = "content" if contribution > 0 else "boilerplate"
    words = feature_words(name)
    if value is None or (isinstance(value, float) and math.isnan(value)):
        shown = "unknown (no other pages of the site to compare)" if name.startswith(("rep_", "site_")) else "unknown"
    elif _is_flag(name) and value in (0.0, 1.0):
        shown = "yes" if value else "no"
    else:
        shown = f"{value:.3g}"
    return f"{words}: {shown}, pushed towards {side}"


_CSS = """
body{font:15px/1.5 system-ui,sans-serif;max-width:60em;margin:1em auto;padding:0 1em;color:#222}
header.summary{border-bottom:2px solid #888;margin-bottom:1em}
.legend span{padding:0 .4em;margin-right:.6em}
.blk{margin:.15em 0;padding:.1em .4em;border-left:4px solid transparent;white-space:pre-wrap}
.kept{background:#d9f7d9;border-left-color:#2a8a2a}
.removed{color:#8a8a8a;text-decoration:line-through;border-left-color:#d55}
.blk:hover{outline:1px dashed #333}
.score{float:right;font:11px monospace;color:#555;text-decoration:none}
.h1{font-size:1.6em;font-weight:bold}.h2{font-size:1.35em;font-weight:bold}.h3{font-size:1.15em;font-weight:bold}
.h4,.h5,.h6{font-weight:bold}.pre{font-family:monospace;font-size:.9em}.li::before{content:"\\2022  "}
.hidden{border-left-style:dotted;font-style:italic}
.comment{border-left-style:double;border-left-width:6px}
.post{border-left-style:dashed}
dl.meta{display:grid;grid-template-columns:max-content 1fr;gap:0 1em;margin:.5em 0}
dl.meta dt{font-weight:bold}dl.meta dd{margin:0}
"""

#: what became of a comment-thread block, per ``comments`` mode
_COMMENT_FATE = {"remove": "part of readers' comments (a thread, or a product's reviews): removed as such",
                 "separate": "part of readers' comments (a thread, or a product's reviews): returned apart from "
                             "the main text",
                 "keep": "part of readers' comments (a thread, or a product's reviews): left to the model "
                         "(--comments keep)"}
#: what the view says of a block that a rule removed whatever the model decided (`Result.removed_by`)
_LABEL_NOTES = {"ad-label": "an ad slot's label (\"Advertisement\"): removed whatever its score",
                "share-label": "a share bar's label (\"Share:\", \"Follow us\"): removed whatever its score",
                "related-label": "a label over other stories (\"Related posts\"): removed whatever its score",
                "related-link": "a link to another story behind a label (\"Related: …\"): removed whatever its score",
                "login-prompt": "a prompt to sign in before taking part (\"You must be logged in to post a comment\"): "
                                "removed whatever its score",
                "shop-control": "a shop's button beside a product (\"Add to Cart\", \"Compare\"): removed whatever "
                                "its score",
                "toggle": "a control that shows or hides more of the page (\"Show more\", \"Click to expand...\"): "
                          "removed whatever its score",
                "photo-credit": "a photo's credit to its agency (\"Mike Marsland/Getty Images\"): removed whatever "
                                "its score",
                "related-rail": "part of a shop's rail of other products (under \"Similar items\"): removed whatever "
                                "its score",
                "toc-entry": "an entry of a table of contents (a link to a section of this page): the contents are "
                             "kept whole or removed whole, and were removed",
                "toc-label": "the title of a table of contents that was not kept (\"Contents\"): removed with it",
                "repeat": "the text of the block written right before it, said again (a gallery's title over "
                          "every slide): written once"}
#: what kept a block under the threshold (`Result.kept_by`); a thread's posts have their own
#: notes (`_POST_FATE`)
_KEPT_NOTES = {"toc-entry": "an entry of a table of contents the model kept most of: kept whole",
               "table-whole": "a cell of a data table the model kept half of or more: kept whole",
               "label-value": "a label beside a value that was kept (\"Author:\" before the name): kept with it"}
#: what the thread pass did with a block of a thread page's posts (`Result.post`)
_POST_FATE = {BODY: "a post's body on a thread page: kept with every post's body",
              FURNITURE: "a post's furniture on a thread page (badges, buttons, links): removed from every post",
              POST: "part of a post on a thread page: left to the model",
              HEADER: "who wrote a post and when, on a thread page: written in every post or in none"}
#: the metadata fields the view lists, in this order, with their labels
_META_FIELDS = (("title", "headline"), ("author", "author"), ("date", "published"), ("modified", "modified"),
                ("lang", "language"), ("sitename", "site name"), ("url", "address"),
                ("description", "description"), ("categories", "categories"), ("tags", "tags"))


def _block_title(score: float, kept: bool, threshold: float, reasons: Sequence[tuple[str, float, float]] | None) -> str:
    """The hover text's first lines: the decision, the score against the threshold as they compare
    (a rule may remove a block over it, or keep one under it: the notes after say which), and
    the reasons."""
    lines = [f"{'kept' if kept else 'removed'}: score {score:.3f} {'>=' if score >= threshold else '<'} "
             f"threshold {threshold:.2f}"]
    for name, value, contrib in reasons or ():
        lines.append(f"- {describe(name, value, contrib)} ({contrib:+.2f})")
    return "\n".join(lines)


def _metadata_list(res: Result) -> str:
    """The page's metadata as a definition list (only the fields the page gives)."""
    meta = res.metadata.to_dict()
    meta["title"] = res.title or meta.get("title")
    meta["url"] = res.url or meta.get("url")
    rows = []
    for key, label in _META_FIELDS:
        value = meta.get(key)
        if isinstance(value, list):
            value = ", ".join(value)
        if value:
            rows.append(f"<dt>{label}</dt><dd>{html.escape(str(value))}</dd>")
    return f'<dl class="meta">{"".join(rows)}</dl>' if rows else ""


def explain_html(res: Result, title: str | None = None) -> str:
    """The page as a self-contained HTML view of its blocks and the decision on each.

    ``res`` should come from an extraction with ``explain=True`` so that each block's hover
    text lists its top reasons; without them the hover shows only score and threshold.
    """
    esc = html.escape
    head = title or res.title or res.name or "page"
    stats = ", ".join(f"{k} {v}" for k, v in res.stats.items())
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>blockclf explain: {esc(head)}</title><style>{_CSS}</style></head><body>",
        '<header class="summary">',
        f"<h1>{esc(head)}</h1>",
        f"<p>verdict <b>{esc(res.verdict)}</b>; threshold {res.threshold:.2f}"
        f"{f' (favor {esc(res.favor)})' if res.favor else ''}; warnings: {esc(', '.join(res.warnings) or 'none')}</p>",
        f"<p class=\"stats\">{esc(stats)}</p>",
        _metadata_list(res),
        '<p class="legend"><span class="blk kept">kept</span><span class="blk removed">removed</span>'
        '<span class="blk removed comment">comment thread</span>'
        '<span class="blk kept post">post of a thread</span>'
        "hover a block for its score and reasons</p></header><main>",
    ]
    comment = res.comment if res.comment is not None and len(res.comment) == len(res.blocks) else None
    post = res.post if res.post is not None and len(res.post) == len(res.blocks) else None
    why = removal_reasons(res)
    n = len(res.blocks)
    kept_by = res.kept_by if res.kept_by is not None and len(res.kept_by) == n else [None] * n
    for i, b in enumerate(res.blocks):
        kept = bool(res.kept[i])
        reasons = res.reasons[i] if res.reasons is not None else None
        tip = _block_title(float(res.scores[i]), kept, res.threshold, reasons)
        note = hidden_note(b, kept or bool(reasons))
        if note is not None:
            tip += "\n" + note
        in_thread = comment is not None and bool(comment[i])
        if in_thread:
            tip += "\n" + _COMMENT_FATE.get(res.comments, _COMMENT_FATE["remove"])
        role = int(post[i]) if post is not None else 0
        if role:
            tip += "\n" + _POST_FATE[role]
        rule_note = _LABEL_NOTES.get(why[i] or "") or _KEPT_NOTES.get(kept_by[i] or "")
        if rule_note is not None:
            tip += "\n" + rule_note
        shape = f"h{b.heading_level}" if b.heading_level else (b.tag if b.tag in ("li", "pre") else "")
        marks = ["blk", "kept" if kept else "removed", shape, "hidden" if b.hidden else "",
                 "comment" if in_thread else "", "post" if role else ""]
        cls = " ".join(m for m in marks if m)
        parts.append(f'<div class="{cls}" title="{esc(tip)}" data-xpath="{esc(b.xpath)}">'
                     f'<span class="score">{float(res.scores[i]):.2f}</span>{esc(b.text)}</div>')
    parts.append("</main></body></html>")
    return "\n".join(parts) + "\n"
