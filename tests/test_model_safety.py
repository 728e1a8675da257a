"""Damaged or hostile model files and site profiles: a one-line error, never a dead process.

LightGBM's text parser trusts its input; before `blockclf.modelcheck` a model string with one
line deleted killed the interpreter (SIGSEGV/SIGABRT/SIGFPE) with nothing on stderr. Every
load here runs in a separate worker process (`_Worker`), so a crash fails the test with the
signal instead of taking pytest down, and each answer says whether the file loaded (and
scored a few rows, explanations included) or was refused with a one-line error.
"""

from __future__ import annotations

import hashlib
import json
import os
import select
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import lightgbm as lgb
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from blockclf import ModelError, load_model
from blockclf.cli import main
from blockclf.features import FEATURES
from blockclf.model import default_model_path
from blockclf.modelcheck import SHIPPED_TEXTS, ModelTextError, checked_text, walk_checked
from blockclf.site import ProfileError, SiteProfile

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = int(os.environ.get("BLOCKCLF_FUZZ_EXAMPLES", "25"))

_WORKER = r"""
import json, sys
import numpy as np
from blockclf.model import ModelError, load_model
from blockclf.site import ProfileError, SiteProfile
for line in sys.stdin:
    kind, path = line.rstrip("\n").split("\t", 1)
    try:
        if kind == "model":
            m = load_model(path)
            X = np.linspace(-1, 2, 3 * len(m.features)).reshape(3, -1)
            m.classifier.predict_proba(X)
            m.classifier.contributions(X)
        else:
            SiteProfile.load(path)
        out = {"ok": True}
    except (ModelError, ProfileError) as exc:
        out = {"ok": False, "error": str(exc)}
    except BaseException as exc:
        out = {"ok": False, "error": str(exc), "unexpected": type(exc).__name__}
    print(json.dumps(out), flush=True)
"""


class _Worker:
    """A Python process that loads the files it is sent, one answer line per file."""

    def __init__(self) -> None:
        self.proc = subprocess.Popen([sys.executable, "-c", _WORKER], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True, cwd=ROOT)

    def load(self, kind: str, path: Path, timeout: float = 60) -> dict[str, Any]:
        if self.proc.poll() is not None:  # a previous example ended it: start again
            self.__init__()  # type: ignore[misc]
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(f"{kind}\t{path}\n")
        self.proc.stdin.flush()
        ready, _, _ = select.select([self.proc.stdout], [], [], timeout)
        if not ready:
            self.proc.kill()
            self.proc.wait()
            raise AssertionError(f"loading {path} hung for {timeout} s")
        line = self.proc.stdout.readline()
        if not line:
            code = self.proc.wait()
            raise AssertionError(f"loading {path} killed the process (exit {code}, signal {-code if code < 0 else 0})")
        return json.loads(line)

    def close(self) -> int:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        code = self.proc.wait(timeout=60)
        for stream in (self.proc.stdout, self.proc.stderr):
            if stream is not None:
                stream.close()
        return code


@pytest.fixture(scope="module")
def worker():
    w = _Worker()
    yield w
    assert w.close() == 0


def _one_line_refusal(answer: dict[str, Any], *words: str) -> None:
    assert answer["ok"] is False, "the damaged file loaded"
    assert "unexpected" not in answer, f"{answer['unexpected']} instead of a one-line error: {answer['error']}"
    msg = answer["error"]
    assert msg and "\n" not in msg and len(msg) < 400, msg
    for w in words:
        assert w.lower() in msg.lower(), msg


# -- concrete corruptions of the shipped models ----------------------------------------------
@pytest.fixture(scope="module")
def shipped() -> dict[str, dict]:
    return {name: json.loads(default_model_path(name).read_text(encoding="utf-8")) for name in ("default", "refined")}


def _lines(change: Callable[[list[str]], None]) -> Callable[[str], str]:
    def edit(text: str) -> str:
        lines = text.split("\n")
        change(lines)
        return "\n".join(lines)
    return edit


def _at(key: str, tree: int = 3) -> Callable[[list[str]], int]:
    """Index of line ``key=...`` of tree ``tree``."""
    def find(lines: list[str]) -> int:
        start = lines.index(f"Tree={tree}")
        return next(i for i in range(start, len(lines)) if lines[i].startswith(key + "="))
    return find


def _delete(find: Callable[[list[str]], int]) -> Callable[[str], str]:
    return _lines(lambda ls: ls.pop(find(ls)))


def _edit_line(find: Callable[[list[str]], int], edit: Callable[[str], str]) -> Callable[[str], str]:
    """Edit one line and make tree_sizes right again, so the check behind the sizes is reached."""
    def change(ls: list[str]) -> None:
        i = find(ls)
        ls[i] = edit(ls[i])
    return lambda text: _resized(_lines(change)(text))


def _resized(text: str) -> str:
    """``text`` with tree_sizes measured again from its tree sections."""
    starts = []
    k = 0
    while (at := text.find(f"\nTree={k}\n")) >= 0:
        starts.append(at + 1)
        k += 1
    ends = starts[1:] + [text.index("end of trees")]
    sizes = " ".join(str(e - s) for s, e in zip(starts, ends))
    head, _, rest = text.partition("tree_sizes=")
    return head + "tree_sizes=" + sizes + rest[rest.index("\n"):]


def _tokens(edit: Callable[[list[str]], None]) -> Callable[[str], str]:
    def on_line(line: str) -> str:
        key, _, value = line.partition("=")
        toks = value.split(" ")
        edit(toks)
        return f"{key}={' '.join(toks)}"
    return on_line


def _set(i: int, v: str) -> Callable[[list[str]], None]:
    return lambda toks: toks.__setitem__(i, v)


def _cut(fraction: float) -> Callable[[str], str]:
    return lambda text: text[:int(len(text) * fraction)]


def _header(key: str) -> Callable[[list[str]], int]:
    return lambda lines: next(i for i, line in enumerate(lines) if line.startswith(key + "="))


TEXT_DAMAGE: dict[str, tuple[Callable[[str], str], str]] = {
    "header line deleted": (_delete(_header("num_class")), "num_class"),
    "tree_sizes line deleted": (_delete(_header("tree_sizes")), "tree_sizes"),
    "a tree's line deleted": (_delete(_at("left_child")), "tree"),
    "a Tree= line deleted": (_delete(lambda ls: ls.index("Tree=3")), "tree"),
    "'end of trees' deleted": (_delete(lambda ls: ls.index("end of trees")), "tree"),
    "a line duplicated": (_lines(lambda ls: ls.insert(_at("threshold")(ls), ls[_at("threshold")(ls)])), "tree"),
    "cut at 10%": (_cut(0.1), ""),
    "cut in half": (_cut(0.5), ""),
    "cut at 90%": (_cut(0.9), ""),
    "cut after a tree title": (lambda t: t[:t.index("Tree=5\n") + 7], "tree"),
    "cut before 'end of trees'": (lambda t: t[:t.index("end of trees")], "tree"),
    "left_child shortened": (_edit_line(_at("left_child"), _tokens(lambda t: t.pop())), "left_child"),
    "leaf_value shortened": (_edit_line(_at("leaf_value"), _tokens(lambda t: t.pop())), "leaf_value"),
    "threshold shortened": (_edit_line(_at("threshold"), _tokens(lambda t: t.pop())), "threshold"),
    "child index out of range": (_edit_line(_at("left_child"), _tokens(_set(5, "500"))), "out of range"),
    "leaf index out of range": (_edit_line(_at("right_child"), _tokens(_set(5, "-500"))), "out of range"),
    "child loop to the root": (_edit_line(_at("left_child"), _tokens(_set(5, "0"))), "tree"),
    "feature index out of range": (_edit_line(_at("split_feature"), _tokens(_set(0, "999"))), "feature"),
    "negative feature index": (_edit_line(_at("split_feature"), _tokens(_set(0, "-1"))), "feature"),
    "num_class=0": (lambda t: t.replace("num_class=1", "num_class=0", 1), "num_class"),
    "num_tree_per_iteration=0": (lambda t: t.replace("num_tree_per_iteration=1", "num_tree_per_iteration=0", 1),
                                 "num_tree_per_iteration"),
    "multiclass objective": (lambda t: t.replace("objective=binary sigmoid:1", "objective=multiclass num_class:3"),
                             "objective"),
    "a tree size changed": (_lines(lambda ls: ls.__setitem__(_header("tree_sizes")(ls), _tokens(
        lambda t: t.__setitem__(2, str(int(t[2]) + 1)))(ls[_header("tree_sizes")(ls)]))), "tree"),
    "num_leaves too large": (_edit_line(_at("num_leaves"), lambda _: "num_leaves=100000000"), "num_leaves"),
    "a word in split_gain": (_edit_line(_at("split_gain"), _tokens(_set(3, "abc"))), "number"),
    "a NUL byte in a number": (_edit_line(_at("internal_value"), _tokens(_set(3, "1\x002"))), "number"),
    "categorical split": (_edit_line(_at("decision_type"), _tokens(_set(0, "1"))), "decision type"),
    "leaf value inf": (_edit_line(_at("leaf_value"), _tokens(_set(0, "inf"))), "finite"),
    "exponent out of range": (_edit_line(_at("leaf_value"), _tokens(_set(0, "1e999"))), "range"),
    "not ASCII": (lambda t: t.replace("feature_names=", "feature_names=é", 1), "ASCII"),
}


def _write(tmp_path: Path, name: str, data: dict) -> Path:
    path = tmp_path / (name.replace(" ", "_").replace("'", "").replace("/", "_") + ".json")
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


@pytest.mark.parametrize("name", list(TEXT_DAMAGE))
def test_damaged_lightgbm_text_is_a_one_line_error(name: str, shipped, worker, tmp_path: Path):
    damage, words = TEXT_DAMAGE[name]
    data = dict(shipped["default"])
    data["booster"] = damage(data["booster"])
    assert data["booster"] != shipped["default"]["booster"]
    path = _write(tmp_path, name, data)
    answer = worker.load("model", path)
    _one_line_refusal(answer, "LightGBM model string", words)
    assert answer["error"].startswith(f"{path}: ")


@pytest.mark.parametrize("name", ["a tree's line deleted", "cut in half", "child index out of range",
                                  "feature index out of range", "num_class=0"])
def test_damaged_refining_model_is_a_one_line_error(name: str, shipped, worker, tmp_path: Path):
    damage, words = TEXT_DAMAGE[name]
    data = json.loads(json.dumps(shipped["refined"]))
    data["refiner"]["booster"] = damage(data["refiner"]["booster"])
    _one_line_refusal(worker.load("model", _write(tmp_path, name, data)), "refining pass", words)


JSON_DAMAGE: dict[str, tuple[Callable[[dict], Any], str]] = {
    "features: 5": (lambda d: d.update(features=5), "features"),
    "features of lists": (lambda d: d.update(features=[[1]]), "features"),
    "info: [1, 2]": (lambda d: d.update(info=[1, 2]), "info"),
    "info nested 40 deep": (lambda d: d.update(info={"a": json.loads("[" * 40 + "]" * 40)}), "info"),
    "info with a huge number": (lambda d: d.update(info={"n": 10**400}), "info"),
    "thresholds as text": (lambda d: d.update(thresholds={"precision": "0.5", "balanced": 0.4, "recall": 0.3}),
                           "threshold"),
    "threshold true": (lambda d: d["thresholds"].update(balanced=True), "threshold"),
    "format_version true": (lambda d: d.update(format_version=True), "version"),
    "format_version of 4000 digits": (lambda d: d.update(format_version=10**3999), "version"),
    "booster a list": (lambda d: d.update(booster=["tree"]), "LightGBM"),
    "refiner a string": (lambda d: d.update(refiner="tree"), "refining"),
}


@pytest.mark.parametrize("name", list(JSON_DAMAGE))
def test_model_json_of_wrong_types_is_a_one_line_error(name: str, shipped, worker, tmp_path: Path):
    change, words = JSON_DAMAGE[name]
    data = json.loads(json.dumps(shipped["default"]))
    change(data)
    _one_line_refusal(worker.load("model", _write(tmp_path, name, data)), words)


@pytest.mark.parametrize("raw", ["[" * 100_000, '{"format": "blockclf-model", "info": ' + "[" * 100_000,
                                 '{"format": "blockclf-model", "format_version": ' + "9" * 5000 + "}"],
                         ids=["deep list", "deep info", "5000 digits"])
def test_unreadable_model_json_is_a_one_line_error(raw: str, worker, tmp_path: Path):
    path = tmp_path / "m.json"
    path.write_text(raw)
    _one_line_refusal(worker.load("model", path), "damaged")


def test_model_path_that_is_not_a_regular_file_is_refused_unread(worker, tmp_path: Path):
    fifo = tmp_path / "m.json"
    os.mkfifo(fifo)  # reading it would block forever
    _one_line_refusal(worker.load("model", fifo, timeout=30), "not a regular file")
    _one_line_refusal(worker.load("model", Path("/dev/zero"), timeout=30), "not a regular file")


def test_shipped_models_score_as_their_unchecked_text_does(shipped):
    rng = np.random.default_rng(0)
    X = rng.normal(size=(200, len(FEATURES))) * 3
    for name, data in shipped.items():
        model = load_model(name)
        raw = lgb.Booster(model_str=data["booster"])
        np.testing.assert_array_equal(model.classifier.predict_proba(X)[:, 1], raw.predict(X))
        text = checked_text(data["booster"], len(FEATURES))
        assert data["booster"].startswith(text[:-len("end of trees\n")]) and "parameters:" not in text


def test_shipped_models_texts_are_known_and_pass_the_whole_check(shipped):
    """The digests that spare the shipped models the check at every start are theirs (a
    retrained model needs its digest recorded), and their texts pass the whole check, cut the same."""
    texts = [(data["booster"], len(FEATURES)) for data in shipped.values()]
    texts += [(data["refiner"]["booster"], len(data["refiner"]["features"])) for data in shipped.values()
              if data.get("refiner")]
    assert {hashlib.sha256(t.encode()).hexdigest(): n for t, n in texts} == SHIPPED_TEXTS
    for text, n in texts:
        assert checked_text(text, n) == walk_checked(text, n)
    with pytest.raises(ModelTextError, match="max_feature_idx"):  # a known text read for other columns
        checked_text(texts[0][0], texts[0][1] + 1)


def test_checker_reports_the_first_problem_in_one_line(shipped):
    text = shipped["default"]["booster"]
    with pytest.raises(ModelTextError, match=r"tree 3: left_child has 125 values, expected 126"):
        checked_text(TEXT_DAMAGE["left_child shortened"][0](text), len(FEATURES))
    with pytest.raises(ModelTextError, match="max_feature_idx"):
        checked_text(text, len(FEATURES) - 1)


# -- the command line and the host process -------------------------------------------------
def _cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "blockclf", *args], check=False, capture_output=True, text=True,
                          cwd=ROOT, timeout=120)


def test_cli_exits_2_with_one_line_for_a_damaged_model_and_prints_nothing_on_stdout(shipped, tmp_path: Path):
    data = dict(shipped["default"])
    data["booster"] = TEXT_DAMAGE["a tree's line deleted"][0](data["booster"])
    res = _cli("extract", "data/example.html", "--model", str(_write(tmp_path, "bad", data)))
    assert res.returncode == 2, res
    assert res.stdout == ""
    assert res.stderr.startswith("blockclf: error: ") and res.stderr.count("\n") == 1, res.stderr


def test_cli_exits_2_with_one_line_for_a_damaged_profile(tmp_path: Path, capfd):
    path = tmp_path / "site.json"
    path.write_text('{"format": "blockclf-site", "version": 2, "n_pages": ' + "9" * 4000 + ', "texts": {}, "paths": {}}')
    assert main(["extract", str(ROOT / "data" / "example.html"), "--site-profile", str(path)]) == 2
    out, err = capfd.readouterr()
    assert out == "" and err.startswith("blockclf: error: ") and err.count("\n") == 1 and "n_pages" in err


def test_extraction_prints_no_lightgbm_message(capfd):
    # file descriptors 1 and 2 are captured: LightGBM's native output would show here too
    assert main(["extract", str(ROOT / "data" / "example.html")]) == 0
    out, err = capfd.readouterr()
    assert out.strip() and "[LightGBM]" not in out and "[LightGBM]" not in err


def test_loads_in_threads_leave_stderr_where_it_was(shipped, tmp_path: Path):
    data = dict(shipped["default"])
    data["booster"] = TEXT_DAMAGE["cut in half"][0](data["booster"])
    bad = _write(tmp_path, "bad", data)
    before = os.fstat(2)
    errors: list[BaseException] = []

    def load(path: Any) -> None:
        try:
            load_model(path)
        except ModelError as exc:
            errors.append(exc)

    threads = [threading.Thread(target=load, args=(p,)) for p in [bad, "default", bad, "default", bad, bad]]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    after = os.fstat(2)
    assert (before.st_dev, before.st_ino) == (after.st_dev, after.st_ino)
    assert len(errors) == 4


# -- site profiles -------------------------------------------------------------------------
GOOD_PROFILE = {"format": "blockclf-site", "version": 2, "site": "example.org", "n_pages": 3,
                "pages": ["00ff00ff00ff00ff"], "texts": {"1f": 3, "2e": 1}, "paths": {"abc": 2},
                "samples": {"1f": "Home"}}

PROFILE_DAMAGE: dict[str, tuple[Any, str]] = {
    "not an object": ([1, 2], "not a blockclf site profile"),
    "version true": ({**GOOD_PROFILE, "version": True}, "version"),
    "site a list": ({**GOOD_PROFILE, "site": [1, 2]}, "site"),
    "n_pages text": ({**GOOD_PROFILE, "n_pages": "3"}, "n_pages"),
    "n_pages negative": ({**GOOD_PROFILE, "n_pages": -1}, "n_pages"),
    "n_pages huge": ({**GOOD_PROFILE, "n_pages": 10**3999}, "n_pages"),
    "texts a list": ({**GOOD_PROFILE, "texts": [1]}, "texts"),
    "count above n_pages": ({**GOOD_PROFILE, "paths": {"abc": 4}}, "paths"),
    "count a float": ({**GOOD_PROFILE, "texts": {"1f": 1.5}}, "texts"),
    "key not hex": ({**GOOD_PROFILE, "texts": {"0x1f": 1}}, "texts"),
    "key over 64 bits": ({**GOOD_PROFILE, "texts": {"1" * 17: 1}}, "texts"),
    "pages of numbers": ({**GOOD_PROFILE, "pages": [1]}, "pages"),
    "samples a list": ({**GOOD_PROFILE, "samples": ["x"]}, "samples"),
}


@pytest.mark.parametrize("name", list(PROFILE_DAMAGE))
def test_damaged_profile_is_a_one_line_error(name: str, worker, tmp_path: Path):
    data, words = PROFILE_DAMAGE[name]
    path = _write(tmp_path, name, data)
    answer = worker.load("profile", path)
    _one_line_refusal(answer, words)
    assert str(path) in answer["error"]
    with pytest.raises(ProfileError):
        SiteProfile.load(path)
    with pytest.raises(ValueError):  # ProfileError is a ValueError, as before
        SiteProfile.from_dict(data)


@pytest.mark.parametrize("raw", ["[" * 100_000, '{"n_pages": ' + "9" * 5000 + "}", "\x00\x01", "{"],
                         ids=["deep", "5000 digits", "binary", "cut"])
def test_unreadable_profile_is_a_one_line_error(raw: str, worker, tmp_path: Path):
    path = tmp_path / "site.json"
    path.write_text(raw)
    _one_line_refusal(worker.load("profile", path), "cannot read site profile")


def test_good_profile_still_loads(tmp_path: Path):
    prof = SiteProfile.load(_write(tmp_path, "good", GOOD_PROFILE))
    assert prof.n_pages == 3 and prof.texts[0x1F] == 3 and prof.samples[0x1F] == "Home"


# -- fuzzing: damaged text and profiles, a live process ------------------------------------
FUZZ = settings(max_examples=EXAMPLES, deadline=None, derandomize="BLOCKCLF_FUZZ_EXAMPLES" not in os.environ,
                suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])

_edit = st.tuples(st.sampled_from(["delete", "duplicate", "flip", "truncate", "swap"]), st.floats(0, 1),
                  st.sampled_from(list("0123456789 -.e=\nainf+x") + ["\x00", "\r", "é", "Tree=", "\n\n"]))


def _mutate(text: str, edits: list[tuple[str, float, str]]) -> str:
    for op, where, char in edits:
        lines = text.split("\n")
        i = int(where * (len(lines) - 1))
        if op == "delete":
            lines.pop(i)
        elif op == "duplicate":
            lines.insert(i, lines[i])
        elif op == "swap" and i + 1 < len(lines):
            lines[i], lines[i + 1] = lines[i + 1], lines[i]
        text = "\n".join(lines)
        if op == "flip":
            k = int(where * (len(text) - 1))
            text = text[:k] + char + text[k + 1:]
        elif op == "truncate":
            text = text[:int(where * len(text))]
    return text


@FUZZ
@given(edits=st.lists(_edit, min_size=1, max_size=3), refiner=st.booleans())
def test_fuzzed_model_text_loads_or_is_refused_in_one_line(edits, refiner, tiny_refined_model, worker, tmp_path):
    data = json.loads(json.dumps(tiny_refined_model.to_dict()))
    part = data["refiner"] if refiner else data
    part["booster"] = _mutate(part["booster"], edits)
    path = tmp_path / "fuzz.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    answer = worker.load("model", path)
    if not answer["ok"]:
        _one_line_refusal(answer)


_json = st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
                     lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
                     max_leaves=10)


@FUZZ
@given(key=st.sampled_from(sorted(GOOD_PROFILE) + ["extra"]), value=_json, nest=st.integers(0, 3000))
def test_fuzzed_profile_loads_or_is_refused_in_one_line(key, value, nest, worker, tmp_path):
    data = dict(GOOD_PROFILE)
    data[key] = value
    path = tmp_path / "site.json"
    text = json.dumps(data)
    if nest:  # deep nesting in the place of the value
        text = text.replace(json.dumps(value), "[" * nest + "1" + "]" * nest, 1) if key != "extra" else text
    path.write_text(text, encoding="utf-8")
    answer = worker.load("profile", path)
    if not answer["ok"]:
        _one_line_refusal(answer)
