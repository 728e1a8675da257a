"""The records a page becomes: `Page` (parsed and segmented) and `Result` (decided), built once.

They sit below everything that reads them: scoring (`blockclf.predict`) builds a `Result`
whole, with its checks already made, and nothing changes it afterwards; the renderers
(`blockclf.render`) and the checks (`blockclf.checks`) read it. `Result.text`, ``markdown``
and ``to_dict`` call the renderers, which are imported when a result is first rendered: they
cost every command's start-up a tenth of ``blockclf --version`` otherwise. `Reason` names what moved
one block's score.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, NamedTuple

import numpy as np

from .block import Block
from .html import Document, Source
from .inline import block_plain
from .metadata import Metadata
from .readers import readers_comments

__all__ = ["BLOCK_RECORDS", "Page", "Reason", "Result", "Source"]

#: what a page's JSON holds of its blocks (`Result.to_dict`, ``blockclf extract --blocks``):
#: every block's record, the kept blocks' records, or none. The records are most of a
#: document's size (a shop or listing page's 280 or so are about 150 kB beside a few kB of
#: text): a corpus that keeps the text, the Markdown and the metadata needs none of them; a rule
#: re-run later needs them all
BLOCK_RECORDS = ("all", "kept", "none")


class Reason(NamedTuple):
    """One feature's part in a block's score: its name, the value the block has, and how far it
    moved the score (LightGBM ``pred_contrib``, in log-odds)."""

    feature: str
    value: float
    contribution: float


@dataclass
class Page:
    """A parsed, segmented page waiting for scores.

    ``blocks`` are the visible blocks, which the model scores and site profiles count;
    ``hidden`` the blocks of hidden elements, read only when the visible ones keep too
    little (see `extract_batch`). ``metadata``, ``comment_roots`` (the element paths of
    readers' comment threads) and ``review_roots`` (those of a product page's customers'
    reviews) are read here, while the parsed tree is at hand (a batch may drop the tree before
    scoring). ``budget_left``: the seconds of the page's time budget
    (`Limits.max_seconds`) left when it was prepared, for featurising and scoring it; the
    time a page waits for the others of its batch does not count. ``revealed``: on a page whose
    visible text is too short to keep enough, its blocks read with the hidden elements shown
    (`segment` with ``reveal``), which the page is read from if its visible blocks keep too
    little; None on other pages.
    """

    doc: Document
    blocks: list[Block]
    name: str | None = None
    url: str | None = None
    site: str | None = None
    hidden: list[Block] = field(default_factory=list)
    metadata: Metadata = field(default_factory=Metadata)
    comment_roots: tuple[str, ...] = ()
    review_roots: tuple[str, ...] = ()
    budget_left: float | None = None
    revealed: list[Block] | None = None

    def __repr__(self) -> str:
        """The page in one line (its tree and blocks printed whole ran to hundreds of kilobytes)."""
        name = f" {self.name!r}" if self.name else ""
        title = self.metadata.title or self.doc.title
        return (f"<Page{name} {title[:80]!r}: {len(self.blocks)} blocks, "
                f"{len(self.hidden)} hidden, site {self.site!r}, lang {self.doc.lang!r}>")


@dataclass
class Result:
    """What blockclf decided about one page.

    ``blocks`` holds every block of the page; ``kept[i]`` says whether block ``i`` is main
    content, ``scores[i]`` is the model's P(content). Kept and removed blocks together are
    the page's whole text (`raw_text`): its visible text, plus the text of hidden elements
    as blocks flagged ``hidden`` (removed with score 0 unless the page was read with them,
    warning ``read-hidden``). ``threshold`` is the one the page was read at: the favor mode's,
    or a share of it for an index page, a reference, or a page that kept nothing, read again
    (warnings ``read-as-index``, ``read-as-reference``, ``read-lower``). ``title`` is
    the page's headline (`Metadata.title`, cleaned of site-name parts; the raw ``<title>``
    when the page gives no better), ``metadata`` all that the page says about itself.
    """

    blocks: list[Block]
    scores: np.ndarray
    kept: np.ndarray
    threshold: float
    favor: str | None
    title: str = ""
    url: str | None = None
    site: str | None = None
    name: str | None = None
    encoding: str = ""
    warnings: list[str] = field(default_factory=list)
    verdict: str = "document"
    stats: dict[str, float] = field(default_factory=dict)
    reasons: list[list[Reason]] | None = None
    metadata: Metadata = field(default_factory=Metadata)
    #: per block, whether it is part of a readers' comment thread or a product page's customer
    #: reviews (`blockclf.comments`)
    comment: np.ndarray | None = None
    #: what was done with comments: ``remove`` (default), ``keep`` or ``separate``
    comments: str = "remove"
    #: on a thread page (`blockclf.threads`), per block its part in the thread: 0 outside it,
    #: 1 a post's body (kept), 2 a post's furniture (removed), 3 the rest of a post (the
    #: model's decision); None on other pages
    post: np.ndarray | None = None
    #: on a thread page, per block the post it is in (posts counted from 0 in page order, -1
    #: outside the thread); None on other pages
    post_number: np.ndarray | None = None
    #: per block, the rule that removed it whatever the model decided, None where the model's
    #: decision stands (every kept block): ``comment`` (readers' comments, unless kept),
    #: ``post-furniture`` and ``post-header`` (a thread's), a label's kind (`ads.label_kind`:
    #: ``ad-label``, ``share-label``, ``related-label``, ``related-link``, ``login-prompt``,
    #: ``shop-control``, ``toggle``, ``photo-credit``),
    #: ``related-rail``, ``toc-entry``, ``toc-label``, ``repeat``; ``hidden`` for hidden text an
    #: index page's second reading did not let in though it scored over that reading's threshold
    #: (a page read with its hidden blocks, `read-hidden`). A rule over a whole unit (a
    #: comment thread, a thread's posts, a shop's rail, a table of contents) names every block
    #: of it; a rule over single kept blocks (a label, a contents' title, a repeat) names only
    #: the blocks it turned from kept to removed: one the model removed anyway was removed
    #: for its score. `blockclf.explain.removal_reasons` reads it for the removal log and the JSON
    removed_by: list[str | None] | None = None
    #: per block kept though it scored under ``threshold``, the rule that kept it: ``label-value``
    #: (a label beside a kept value, "Author:"), ``table-whole`` (a cell of a data table kept
    #: half or more), ``toc-entry`` (an entry of a table of contents kept most of),
    #: ``post-body`` and ``post-header`` (a thread's posts, each kept whole); None for every
    #: other block. The explain view's notes read it
    kept_by: list[str | None] | None = None

    def __repr__(self) -> str:
        """What the page is and what was kept, in one line: a page's blocks and arrays printed
        whole ran to hundreds of kilobytes in a notebook (they are `blocks`, `scores`, `kept`)."""
        name = f" {self.name!r}" if self.name else ""
        kept = int(np.count_nonzero(self.kept))
        chars = (f", {int(self.stats['kept_chars']):,} of {int(self.stats['page_chars']):,} characters"
                 if "kept_chars" in self.stats and "page_chars" in self.stats else "")
        return (f"<Result{name} {self.title[:80]!r}: {self.verdict}, {kept} of {len(self.blocks)} blocks kept{chars}, "
                f"threshold {self.threshold:.3g}, warnings {self.warnings}>")

    @property
    def text(self) -> str:
        """The kept blocks as plain text, one block per line."""
        from .render import to_text  # deliberately lazy: see the module docstring

        return to_text(self)

    @property
    def markdown(self) -> str:
        """The kept blocks as Markdown, with headings, lists, tables and code restored."""
        from .render import to_markdown  # deliberately lazy: see the module docstring

        return to_markdown(self)

    @property
    def comment_texts(self) -> list[str]:
        """The readers' comments given apart (``comments="separate"``), one string per comment
        with its blocks one per line (`readers.readers_comments`), as the JSON's ``comments``;
        empty in the other modes, where the comments are removed or left in the text. Each
        block is written as in the text output (`inline.block_plain`: words the page shows
        apart are apart, furniture left out)."""
        if self.comments != "separate":
            return []
        return ["\n".join(block_plain(b) for b in c) for c in readers_comments(self.blocks, self.comment)]

    @property
    def raw_text(self) -> str:
        """Every block's text, kept or not, in document order."""
        return "\n".join(b.text for b in self.blocks)

    @property
    def removed(self) -> list[tuple[Block, float]]:
        """The removed blocks with their scores (`removal_log` says why each was removed)."""
        return [(b, float(s)) for b, s, k in zip(self.blocks, self.scores, self.kept) if not k]

    def removal_log(self) -> list[dict[str, Any]]:
        """One record per removed block, as ``blockclf extract --removed-log`` writes them: page,
        element path, text, score, threshold and the ``reason`` that removed it (``score``,
        ``hidden``, ``comment`` or the rule's name; `removed_by`), with the features that moved
        its score when the page was extracted with ``explain=True``."""
        from .render import removal_log  # deliberately lazy: see the module docstring

        return removal_log(self)

    def to_dict(self, blocks: str = "all") -> dict[str, Any]:
        """Everything about the page, ready for JSON (`blockclf.render.to_dict`); ``blocks``
        says whose records it holds: every block's (``"all"``), the kept ones' or ``"none"``."""
        from .render import to_dict  # deliberately lazy: see the module docstring

        return to_dict(self, blocks=blocks)
