"""Check a LightGBM text model before LightGBM's own parser reads it.

LightGBM's text parser trusts its input: it finds trees by the byte offsets in
``tree_sizes``, reads each tree's arrays by the count in ``num_leaves`` and walks child
indices as written. A model string with one line deleted, cut short, or with a child index
out of range makes it read past its buffer (SIGSEGV), abort (SIGABRT), divide by zero
(SIGFPE) or loop forever while predicting. None of that can be caught in Python, so the
text is checked here first, in one pass, against the grammar LightGBM writes:

- the header: ``tree``, then exactly the keys LightGBM writes, with ``num_class=1``, a binary
  objective, and as many feature names and infos as the model must read;
- ``tree_sizes``: one size per tree, and each size is exactly the length of its
  ``Tree=<i>`` section, the last one ending where ``end of trees`` begins;
- every tree: known keys only, each once; ``num_leaves`` within LightGBM's limit; every array
  with the length ``num_leaves`` gives it; numbers that parse (leaf values finite,
  thresholds not NaN); numerical splits only; split features within the feature list;
  child indices that make one tree (every node and leaf reached once from the root) no
  deeper than `MAX_DEPTH`.

Numbers are checked as text, in bulk, against what both of LightGBM's number readers accept
(a token they cannot read is a fatal error inside a parallel loop, which aborts the process);
only the integers that decide the tree's shape are converted. `checked_text` returns the
header and the trees; the sections after ``end of trees``
(feature importances, training parameters, pandas categories) do not affect scoring and are
not handed to LightGBM, so its parser never reads text this module did not check.
"""

from __future__ import annotations

import hashlib
import math
import re

import numpy as np

__all__ = ["MAX_DEPTH", "MAX_LEAVES", "SHIPPED_TEXTS", "ModelTextError", "checked_text", "walk_checked"]

#: LightGBM's own upper limit on leaves per tree
MAX_LEAVES = 131_072
#: deepest tree accepted: explanations (SHAP) recurse this deep and hold depth² path records
MAX_DEPTH = 1024

_NAMES = re.compile(r"[!-~]+(?: [!-~]+)*")
_OBJECTIVE = re.compile(r"binary sigmoid:([0-9.eE+-]{1,30})")
_SIZES = re.compile(r"\d{1,10}(?: \d{1,10})*")
#: a number's first character that LightGBM's precise reader does not take (or a double
#: space), and a minus sign not before a digit, inf or nan (two searches: one regular
#: expression with both is four times slower)
_BAD_START = re.compile(rb" [^-0-9in]")
_BAD_MINUS = re.compile(rb"-[^0-9in]")
#: exponents from 300 up: out of double range, where LightGBM's reader warns from a worker thread
_BIG_EXPONENT = re.compile(rb"e[-+]?(?:\d{4}|[3-9]\d\d)")
_HEADER_KEYS = ("version", "num_class", "num_tree_per_iteration", "label_index", "max_feature_idx",
                "objective", "feature_names", "feature_infos", "tree_sizes")
_TREE_KEYS = frozenset(("num_leaves", "num_cat", "split_feature", "split_gain", "threshold", "decision_type",
                        "left_child", "right_child", "leaf_value", "leaf_weight", "leaf_count", "internal_value",
                        "internal_weight", "internal_count", "is_linear", "shrinkage"))
#: arrays of one value per leaf (``num_leaves``); the others have one per internal node
_PER_LEAF = frozenset(("leaf_value", "leaf_weight", "leaf_count"))
#: number arrays LightGBM reads with its precise reader (a token it cannot start reading is
#: fatal, a number out of range makes it warn), and those read by its fast reader, which fails
#: only on words
_PRECISE = ("leaf_value", "threshold", "leaf_weight")
_FLOATS = ("split_gain", "internal_value", "internal_weight")
#: decision types of numerical splits: default left or right (bit 1), missing type none/zero/NaN (bits 2-3)
_DECISION_TYPES = np.isin(np.arange(256), [0, 2, 4, 6, 8, 10])


#: the SHA-256 digests of the shipped models' LightGBM texts (the default model's; the refined
#: model's first and refining passes), with the columns each reads. Each passed `walk_checked`
#: when it was made, so `checked_text` hands the same text on cut at its trees without walking
#: it again: 12 ms of every command's start, against 1.5 ms for the digest. A shipped model
#: retrained without its digest here is walked like any other file (the test of the shipped
#: models names it).
SHIPPED_TEXTS: dict[str, int] = {
    "a984b5a0aa953eaa9423d88a1e476d29adf55db59bb427bb44e851362dd77e14": 256,  # default
    "5f5025ce70be80a67adef5f402d2f619fc659ad758a7ef9a59c4cae7d7d85d81": 256,  # refined, first pass
    "1e24a9864240b81654469417423ac7f108aa49d8eb4d64fcfff6fd6e5d9f9c44": 289,  # refined, refining pass
}


class ModelTextError(ValueError):
    """The LightGBM text is not a model blockclf can hand to LightGBM; one-line reason."""


def checked_text(text: str, n_features: int) -> str:
    """The part of LightGBM model ``text`` that LightGBM needs (header and trees), checked.

    ``n_features`` is the number of columns the model must read. Raises `ModelTextError`
    naming the first problem found. A shipped model's text (`SHIPPED_TEXTS`) was checked
    when it was made and is only cut.
    """
    if not text.isascii():  # then a character is a byte, as tree_sizes counts them
        raise ModelTextError("holds characters LightGBM text never has (not ASCII)")
    if SHIPPED_TEXTS.get(hashlib.sha256(text.encode("ascii")).hexdigest()) == n_features:
        return text[:text.index("\nend of trees\n") + 1] + "end of trees\n"
    return walk_checked(text, n_features)


def walk_checked(text: str, n_features: int) -> str:
    """`checked_text` by reading the whole text against the grammar (see the module's docstring)."""
    if not text.isascii():
        raise ModelTextError("holds characters LightGBM text never has (not ASCII)")
    head_end = text.find("\nTree=")
    if head_end < 0:
        raise ModelTextError("has no trees (no 'Tree=' section)")
    sizes = _header(text[:head_end], n_features)
    trees = _Trees(n_features)
    pos = head_end + 1
    for i, size in enumerate(sizes):
        if pos + size > len(text):
            raise ModelTextError(f"tree {i} is cut short (tree_sizes says {size} characters; truncated?)")
        trees.add(text, pos, pos + size, i)
        pos += size
    if not text.startswith("end of trees", pos):
        raise ModelTextError(f"tree sizes do not match the trees ({len(sizes)} sizes; a line added or deleted?)")
    trees.check()
    return text[:pos] + "end of trees\n"


def _header(head: str, n_features: int) -> list[int]:
    lines = head.split("\n")
    if lines[0] != "tree":
        raise ModelTextError("does not begin with 'tree'")
    kv: dict[str, str] = {}
    for line in lines[1:]:
        if not line:
            continue
        key, eq, value = line.partition("=")
        if not eq or key not in _HEADER_KEYS or key in kv or (key != "feature_names" and "=" in value):
            raise ModelTextError(f"unexpected header line {_short(line)!r}")
        kv[key] = value
    missing = [k for k in _HEADER_KEYS if k not in kv]
    if missing:
        raise ModelTextError(f"header has no {missing[0]}")
    if kv["version"] not in ("v3", "v4"):
        raise ModelTextError(f"text format version {_short(kv['version'])!r} is not v3 or v4")
    for key, want in (("num_class", "1"), ("num_tree_per_iteration", "1"), ("label_index", "0"),
                      ("max_feature_idx", str(n_features - 1))):
        if kv[key] != want:
            raise ModelTextError(f"{key} is {_short(kv[key])!r}, expected {want}")
    objective = _OBJECTIVE.fullmatch(kv["objective"])
    if not objective or not _positive(objective.group(1)):
        raise ModelTextError(f"objective {_short(kv['objective'])!r} is not binary")
    for key in ("feature_names", "feature_infos"):
        items = kv[key].split(" ")
        if len(items) != n_features or not _NAMES.fullmatch(kv[key]):
            raise ModelTextError(f"{key} lists {len(items)} features, expected {n_features}")
    if not _SIZES.fullmatch(kv["tree_sizes"]):
        raise ModelTextError("tree_sizes is not a list of sizes")
    return [int(s) for s in kv["tree_sizes"].split(" ")]


class _Trees:
    """Reads tree sections one by one, then checks what can be checked in bulk."""

    def __init__(self, n_features: int) -> None:
        self.n_features = n_features
        self.floats: list[str] = []  # non-empty number lists, joined for the bulk check
        self.precise: list[str] = []  # those LightGBM reads with its precise reader
        self.counts: list[str] = []
        self.m: list[int] = []  # internal nodes of each tree of more than one leaf
        self.index: list[int] = []  # which tree each of those is
        self.ints: dict[str, list[str]] = {"split_feature": [], "left_child": [], "right_child": [],
                                           "decision_type": []}
        #: where each array's text goes for the bulk checks
        self.route: dict[str, tuple[list[str], ...]] = {
            **{key: (self.floats,) for key in _FLOATS},
            **{key: (self.floats, self.precise) for key in _PRECISE},
            **{key: (self.counts,) for key in ("internal_count", "leaf_count")},
            **{key: (values,) for key, values in self.ints.items()},
        }

    def add(self, text: str, start: int, end: int, i: int) -> None:
        """Read the tree section ``text[start:end]`` (``Tree=<i>``, its lines, a blank line)."""
        title = f"Tree={i}\n"
        if not text.startswith(title, start, end):
            raise ModelTextError(f"tree {i} is not where tree_sizes puts it (a line added or deleted?)")
        body_end = end
        while body_end > start and text[body_end - 1] == "\n":
            body_end -= 1
        if end - body_end < 2:  # the blank line that ends a tree for LightGBM's reader
            raise ModelTextError(f"tree {i} does not end where tree_sizes says (a line added or deleted?)")
        lines = text[start + len(title):body_end].split("\n")
        try:  # a line with no "=" fails here; a second "=" stays in a value, whose text is checked
            kv = dict(line.split("=", 1) for line in lines)
        except ValueError:
            kv = {}
        if len(kv) != len(lines) or not kv.keys() <= _TREE_KEYS:
            bad = next((line for line in lines if line.partition("=")[0] not in _TREE_KEYS or "=" not in line),
                       "a key given twice")
            raise ModelTextError(f"tree {i}: unexpected line {_short(bad)!r}")
        for key in ("num_leaves", "num_cat", "leaf_value"):
            if key not in kv:
                raise ModelTextError(f"tree {i} has no {key}")
        leaves = kv["num_leaves"]
        if not leaves.isdigit() or len(leaves) > 6 or not 1 <= int(leaves) <= MAX_LEAVES:
            raise ModelTextError(f"tree {i}: num_leaves {_short(leaves)!r} is not from 1 to {MAX_LEAVES}")
        n = int(leaves)
        if kv["num_cat"] != "0" or kv.get("is_linear", "0") != "0":
            raise ModelTextError(f"tree {i} has categorical or linear splits, which blockclf models never have")
        if "shrinkage" in kv and not _positive(kv["shrinkage"]):
            raise ModelTextError(f"tree {i}: shrinkage is not a positive number")
        if "n" in kv["leaf_value"]:  # inf or nan
            raise ModelTextError(f"tree {i}: a leaf value is not a finite number")
        if n == 1:  # LightGBM reads nothing more of a one-leaf tree
            self._list(kv["leaf_value"], "leaf_value", 1, i)
            self.floats.append(kv["leaf_value"])
            self.precise.append(kv["leaf_value"])
            return
        m = n - 1
        for key in ("split_feature", "threshold", "left_child", "right_child"):
            if key not in kv:
                raise ModelTextError(f"tree {i} has no {key}")
        if "nan" in kv["threshold"]:
            raise ModelTextError(f"tree {i}: a threshold is not a number")
        for key, value in kv.items():
            where = self.route.get(key)
            if where is not None:
                self._list(value, key, n if key in _PER_LEAF else m, i)
                for bucket in where:
                    bucket.append(value)
        if "decision_type" not in kv:  # LightGBM reads all zeros: numerical splits
            self.ints["decision_type"].append(" ".join("0" * m))
        self.m.append(m)
        self.index.append(i)

    @staticmethod
    def _list(value: str, key: str, count: int, i: int) -> None:
        """``value`` must be ``count`` tokens, one space apart (their text is checked in bulk)."""
        if not value or value[0] == " " or value[-1] == " " or value.count(" ") != count - 1:
            raise ModelTextError(f"tree {i}: {key} has {len(value.split())} values, expected {count}")

    def check(self) -> None:
        """The bulk checks: number text, feature indices, decision types, tree shapes."""
        # number characters only, and letters other than e only in whole inf and nan tokens;
        # in the arrays read precisely, every token starts with a digit, or a minus sign and a
        # digit, or is inf or nan, and no exponent is out of range
        floats = " ".join(self.floats).encode("ascii")
        letters = floats.translate(None, b"-+0123456789.e ")
        precise = (" " + " ".join(self.precise)).encode("ascii")
        if (letters.translate(None, b"infa") or (letters and not self._specials_are_whole_tokens(letters))
                or _BAD_START.search(precise) or _BAD_MINUS.search(precise) or precise.endswith(b"-")):
            raise ModelTextError("a tree holds text that is not a number where numbers belong")
        if _BIG_EXPONENT.search(precise):
            raise ModelTextError("a tree holds a number out of range")
        counts = " ".join(self.counts).encode("ascii")
        if counts.translate(None, b"0123456789 ") or b"  " in counts:
            raise ModelTextError("a tree holds a count that is not a whole number")
        if not self.m:
            return
        arrays = {}
        for key, values in self.ints.items():
            text = " ".join(values)
            raw = text.encode("ascii")
            if raw.translate(None, b"-0123456789 ") or raw.endswith(b"-"):
                raise ModelTextError(f"a tree's {key} holds text that is not a whole number")
            try:
                arrays[key] = np.fromstring(text, dtype=np.int64, sep=" ")
            except ValueError:
                raise ModelTextError(f"a tree's {key} holds text that is not a whole number") from None
            if arrays[key].size != sum(self.m):  # "- 1" reads as one number, "1  2" is two
                raise ModelTextError(f"a tree's {key} holds text that is not a whole number")
        feats = arrays["split_feature"]
        if feats.min() < 0 or feats.max() >= self.n_features:
            bad = int(np.flatnonzero((feats < 0) | (feats >= self.n_features))[0])
            raise ModelTextError(f"tree {self._tree_of(bad)}: split feature {int(feats[bad])} is outside the "
                                 f"{self.n_features} features")
        types = arrays["decision_type"]
        if types.min() < 0 or types.max() > 255 or not _DECISION_TYPES[types].all():
            raise ModelTextError("a tree holds a categorical or unknown decision type")
        self._shapes(arrays["left_child"], arrays["right_child"])

    def _specials_are_whole_tokens(self, letters: bytes) -> bool:
        """Whether every letter but ``e`` in the number lists (``letters``, all of them in
        order) belongs to a whole ``inf``, ``-inf``, ``nan`` or ``-nan`` token: LightGBM's
        fast reader fails on any other word. Only lists holding an ``n`` can hold such a token."""
        seen = {"i": 0, "n": 0, "f": 0, "a": 0}
        for value in self.floats:
            if "n" not in value:
                continue
            v = f" {value} "
            inf, nan = v.count("inf"), v.count("nan")
            if not (v.count(" inf") + v.count(" -inf") == inf == v.count("inf ")
                    and v.count(" nan") + v.count(" -nan") == nan == v.count("nan ")):
                return False
            seen["i"] += inf
            seen["f"] += inf
            seen["n"] += inf + 2 * nan
            seen["a"] += nan
        return all(letters.count(c.encode()) == k for c, k in seen.items())

    def _tree_of(self, node: int) -> int:
        """The tree holding global internal node ``node``."""
        return self.index[int(np.searchsorted(np.cumsum(self.m), node, side="right"))]

    def _shapes(self, left: np.ndarray, right: np.ndarray) -> None:
        """Child indices that make binary trees: in every tree, each internal node but the
        root and each leaf is the child of exactly one node, every node is reached from the
        root, and no leaf is deeper than `MAX_DEPTH`. All trees at once, in global numbering."""
        m = np.asarray(self.m)
        first = np.concatenate([[0], np.cumsum(m)[:-1]])  # global number of each tree's root
        first_leaf = first + np.arange(len(m))  # a tree of m internal nodes has m + 1 leaves
        node_m = np.repeat(m, m)
        root = np.repeat(first, m)
        leaf0 = np.repeat(first_leaf, m)
        kids = np.concatenate([left, right])
        parent_of_kid = np.tile(np.arange(node_m.size), 2)
        km, kroot, kleaf0 = np.tile(node_m, 2), np.tile(root, 2), np.tile(leaf0, 2)
        inner = kids >= 0
        bad = np.where(inner, (kids < 1) | (kids >= km), ~kids > km)
        if bad.any():
            where = int(parent_of_kid[np.flatnonzero(bad)[0]])
            raise ModelTextError(f"tree {self._tree_of(where)}: a child index is out of range")
        inner_ids = kroot[inner] + kids[inner]
        leaf_ids = kleaf0[~inner] + ~kids[~inner]
        n_nodes = node_m.size
        hits = np.bincount(inner_ids, minlength=n_nodes)
        leaf_hits = np.bincount(leaf_ids, minlength=n_nodes + len(m))
        not_root = np.ones(n_nodes, dtype=bool)
        not_root[first] = False
        wrong = (hits != not_root).nonzero()[0]
        if wrong.size or (leaf_hits != 1).any():
            where = int(wrong[0]) if wrong.size else int(np.searchsorted(first_leaf, (leaf_hits != 1).argmax(),
                                                                         side="right") - 1)
            tree = self._tree_of(where) if wrong.size else self.index[where]
            raise ModelTextError(f"tree {tree}: child indices do not form a tree (a node with two parents or none)")
        # every node's parent (a root is its own), then pointer doubling: after 2^k >= m jumps
        # every node must have reached its tree's root, and the summed steps are its depth
        parent = np.arange(n_nodes)
        parent[inner_ids] = parent_of_kid[inner]
        depth = (parent != np.arange(n_nodes)).astype(np.int64)
        jump = 1
        while jump < int(m.max()):
            depth = depth + depth[parent]
            parent = parent[parent]
            jump *= 2
        if (parent != root).any():
            raise ModelTextError(f"tree {self._tree_of(int((parent != root).argmax()))}: child indices form a loop")
        if depth.max() + 1 > MAX_DEPTH:
            raise ModelTextError(f"tree {self._tree_of(int(depth.argmax()))} is {int(depth.max()) + 1} levels deep "
                                 f"(at most {MAX_DEPTH})")


def _positive(s: str) -> bool:
    try:
        v = float(s)
    except ValueError:
        return False
    return math.isfinite(v) and v > 0


def _short(s: str, n: int = 40) -> str:
    return s if len(s) <= n else s[:n] + "..."
