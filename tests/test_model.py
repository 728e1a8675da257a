"""BlockClassifier's estimator contract, model-file round trips, and refusal of bad files."""

from __future__ import annotations

import inspect
import json
import os
import pickle
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from sklearn.base import clone

from blockclf import BlockClassifier, Model, ModelError, load_model
from blockclf.features import FEATURES
from blockclf.model import FORMAT_VERSION, shipped_name


def toy_data(seed: int = 0, n: int = 400) -> tuple[pd.DataFrame, np.ndarray]:
    rng = np.random.default_rng(seed)
    X = pd.DataFrame(rng.normal(size=(n, len(FEATURES))), columns=FEATURES)
    y = ((X.iloc[:, 0] + 0.5 * X.iloc[:, 1] + rng.normal(scale=0.5, size=n)) > 0).astype(int).to_numpy()
    return X, y


def small(**kw) -> BlockClassifier:
    params = dict(n_estimators=30, num_leaves=7, min_child_samples=5, n_jobs=1)
    params.update(kw)
    return BlockClassifier(**params)


# -- scikit-learn conventions ---------------------------------------------------------------
def test_get_params_and_clone():
    clf = small(learning_rate=0.3, random_state=7)
    params = clf.get_params()
    assert params["learning_rate"] == 0.3 and params["random_state"] == 7
    assert set(params) == set(inspect.signature(BlockClassifier.__init__).parameters) - {"self"}
    twin = clone(clf)
    assert twin is not clf and twin.get_params() == params
    clf.set_params(num_leaves=3)
    assert clf.num_leaves == 3 and twin.num_leaves == 7


def test_init_stores_arguments_without_logic():
    # __init__ must neither validate nor transform: odd values are stored as given
    clf = BlockClassifier(n_estimators="many", learning_rate=None)  # type: ignore[arg-type]
    assert clf.n_estimators == "many" and clf.learning_rate is None
    assert not [k for k in vars(clf) if k.endswith("_")]


def test_learned_attributes_end_in_underscore():
    X, y = toy_data()
    clf = small()
    before = set(vars(clf))
    clf.fit(X, y)
    learned = set(vars(clf)) - before
    assert learned and all(k.endswith("_") and not k.startswith("_") for k in learned)
    assert {"booster_", "classes_", "n_features_in_", "feature_names_in_"} <= learned
    assert clf.n_features_in_ == len(FEATURES)
    assert clone(clf).get_params() == clf.get_params()
    assert not hasattr(clone(clf), "booster_")


def test_same_seed_same_predictions_and_early_stopping():
    X, y = toy_data(0)
    Xv, yv = toy_data(1, 200)
    a = small(random_state=3, subsample=0.7, colsample_bytree=0.5).fit(X, y, eval_set=(Xv, yv))
    b = small(random_state=3, subsample=0.7, colsample_bytree=0.5).fit(X, y, eval_set=(Xv, yv))
    np.testing.assert_array_equal(a.predict_proba(Xv), b.predict_proba(Xv))
    assert a.best_iteration_ == b.best_iteration_ <= 30
    assert (a.predict(Xv) == yv).mean() > 0.8


def test_predict_proba_shape_and_empty_input():
    X, y = toy_data()
    clf = small().fit(X, y)
    p = clf.predict_proba(X.iloc[:5])
    assert p.shape == (5, 2)
    np.testing.assert_allclose(p.sum(axis=1), 1)
    assert clf.predict_proba(X.iloc[:0]).shape == (0, 2)
    # columns are read by name, not by position
    shuffled = X.iloc[:5][list(reversed(FEATURES))]
    np.testing.assert_array_equal(clf.predict_proba(shuffled), p)
    contrib = clf.contributions(X.iloc[:5])
    assert contrib.shape == (5, len(FEATURES) + 1)


# -- model files ---------------------------------------------------------------------------
def test_save_load_round_trip_gives_identical_probabilities(tiny_model: Model, tmp_path: Path):
    path = tmp_path / "m.json"
    tiny_model.save(path)
    loaded = load_model(path)
    X, _ = toy_data(2, 100)
    np.testing.assert_array_equal(loaded.classifier.predict_proba(X), tiny_model.classifier.predict_proba(X))
    assert loaded.thresholds == tiny_model.thresholds
    assert loaded.features == FEATURES
    assert loaded.info["train_pages"] == tiny_model.info["train_pages"]
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["format"] == "blockclf-model" and data["format_version"] == FORMAT_VERSION
    assert not list(tmp_path.glob("*.tmp"))


def test_refining_pass_round_trips_and_changes_scores(tiny_refined_model: Model, tmp_path: Path, synthetic_page):
    from blockclf import extract, refine

    model = tiny_refined_model
    assert model.refiner is not None  # four training sites: enough folds for it
    path = tmp_path / "m.json"
    model.save(path)
    loaded = load_model(path)
    assert loaded.refiner is not None and loaded.columns == list(refine.COLUMNS) + FEATURES
    page = synthetic_page(12, 1).html.encode("utf-8")
    a, b = extract(page, model=model), extract(page, model=loaded)
    np.testing.assert_array_equal(a.scores, b.scores)
    # the scores are the refining pass's, not the first pass's
    first = Model(model.classifier, model.thresholds, model.features, model.info)
    assert not np.array_equal(extract(page, model=first).scores, a.scores)
    # explanations name the refining pass's columns
    res = extract(page, model=model, explain=True)
    assert any(r[0].startswith("first_") for rs in res.reasons for r in rs)


def test_a_model_without_refining_pass_writes_none(tiny_model: Model, tiny_model_file: Path):
    assert tiny_model.refiner is None and tiny_model.columns == FEATURES
    assert "refiner" not in json.loads(tiny_model_file.read_text(encoding="utf-8"))


def test_a_format_1_file_loads(tiny_model_file: Path, tmp_path: Path):
    model = load_model(_rewrite(tiny_model_file, tmp_path / "v1.json", lambda d: d.update(format_version=1)))
    assert model.refiner is None


def test_threshold_by_favor(tiny_model: Model):
    assert tiny_model.threshold("precision") == tiny_model.thresholds["precision"]
    with pytest.raises(ValueError, match="favor"):
        tiny_model.threshold("speed")


@pytest.mark.parametrize("name", [None, "refined"])
def test_shipped_models_load(name):
    model = load_model(name)
    assert model.features == FEATURES
    assert set(model.thresholds) == {"precision", "balanced", "recall"}
    assert model.thresholds["recall"] <= model.thresholds["balanced"] <= model.thresholds["precision"]
    assert (model.refiner is not None) == (name == "refined")


def test_a_file_beats_a_shipped_name(tiny_model_file: Path, tmp_path: Path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "refined").write_bytes(tiny_model_file.read_bytes())
    assert load_model("refined").refiner is None  # the file in the working directory, not the shipped one
    assert shipped_name("refined") is None and shipped_name("default") == "default"


def test_shipped_names():
    assert shipped_name(None) == "default" and shipped_name("refined") == "refined"
    assert shipped_name("models/my-model.json") is None


def _rewrite(src: Path, dst: Path, change) -> Path:
    data = json.loads(src.read_text(encoding="utf-8"))
    change(data)
    dst.write_text(json.dumps(data), encoding="utf-8")
    return dst


BAD_FILES = {
    "newer format_version": (lambda d: d.update(format_version=FORMAT_VERSION + 1), "version"),
    "wrong format": (lambda d: d.update(format="sklearn-pickle"), "not a blockclf model"),
    "missing features": (lambda d: d.pop("features"), "features"),
    "other features": (lambda d: d.update(features=d["features"][:-1]), "features"),
    "bad thresholds": (lambda d: d["thresholds"].update(balanced=3.0), "threshold"),
    "malformed booster": (lambda d: d.update(booster="tree\nversion=v4\nnum_class=oops\n"), "malformed"),
    "truncated booster": (lambda d: d.update(booster=d["booster"][:300]), "malformed"),
    "no booster text": (lambda d: d.update(booster=12), "LightGBM"),
}
BAD_REFINERS = {
    "refiner of other columns": (lambda d: d["refiner"].update(features=d["refiner"]["features"][1:]), "refining"),
    "malformed refiner": (lambda d: d["refiner"].update(booster="tree\nversion=v4\nnum_class=oops\n"),
                          "refining pass"),
    "refiner without booster": (lambda d: d["refiner"].pop("booster"), "refining pass"),
    "refiner not an object": (lambda d: d.update(refiner=[1, 2]), "refining"),
}


@pytest.mark.parametrize("name", list(BAD_FILES))
def test_bad_model_file_is_a_one_line_error(name: str, tiny_model_file: Path, tmp_path: Path):
    change, words = BAD_FILES[name]
    path = _rewrite(tiny_model_file, tmp_path / "bad.json", change)
    with pytest.raises(ModelError) as exc:
        load_model(path)
    msg = str(exc.value)
    assert "\n" not in msg and words.lower() in msg.lower()
    assert str(path) in msg


@pytest.mark.parametrize("name", list(BAD_REFINERS))
def test_bad_refining_pass_is_a_one_line_error(name: str, tiny_refined_model: Model, tmp_path: Path):
    change, words = BAD_REFINERS[name]
    tiny_refined_model.save(tmp_path / "good.json")
    path = _rewrite(tmp_path / "good.json", tmp_path / "bad.json", change)
    with pytest.raises(ModelError) as exc:
        load_model(path)
    assert "\n" not in str(exc.value) and words.lower() in str(exc.value).lower()


@pytest.mark.parametrize("content", [b"this is not json", b"\x80\x81\xfe binary", b"[1, 2, 3]", b"{}"])
def test_non_model_content_is_a_one_line_error(content: bytes, tmp_path: Path):
    path = tmp_path / "m.json"
    path.write_bytes(content)
    with pytest.raises(ModelError) as exc:
        load_model(path)
    assert "\n" not in str(exc.value)


def test_missing_file_is_a_one_line_error(tmp_path: Path):
    with pytest.raises(ModelError) as exc:
        load_model(tmp_path / "nope.json")
    assert "\n" not in str(exc.value) and "nope.json" in str(exc.value)
    assert "shipped models are default, refined" in str(exc.value)


def test_pickled_model_is_refused(tiny_model: Model, tmp_path: Path):
    path = tmp_path / "model.pkl"
    path.write_bytes(pickle.dumps(tiny_model))
    with pytest.raises(ModelError, match="never unpickled"):
        load_model(path)


class _TouchOnUnpickle:
    """Unpickling this object creates a file: a stand-in for a malicious pickle."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self):
        return (Path.touch, (self.marker,))


def test_loading_a_crafted_pickle_executes_nothing(tmp_path: Path):
    marker = tmp_path / "pwned"
    payload = pickle.dumps(_TouchOnUnpickle(marker), protocol=2)
    # the payload really is harmful when unpickled ...
    probe = tmp_path / "probe"
    pickle.loads(pickle.dumps(_TouchOnUnpickle(probe), protocol=2))
    assert probe.exists()
    # ... and load_model never unpickles it
    for name in ("model.json", "model.pkl", "model.joblib"):
        path = tmp_path / name
        path.write_bytes(payload)
        with pytest.raises(ModelError):
            load_model(path)
    assert not marker.exists()


def test_the_readme_feature_frame_example_runs():
    import re
    from pathlib import Path

    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    code = next(block for block in re.findall(r"```python\n(.*?)```", readme, re.DOTALL) if "featurize" in block)
    cwd = os.getcwd()
    os.chdir(Path(__file__).resolve().parents[1])
    try:
        namespace: dict = {}
        exec(compile(code, "README.md", "exec"), namespace)
    finally:
        os.chdir(cwd)
    assert namespace["clf"].booster_ is not None
    assert namespace["clf"].predict_proba(namespace["X"]).shape == (len(namespace["X"]), 2)


def test_contributions_go_to_several_threads_from_a_few_rows(tiny_model_file, monkeypatch):
    """A row's contributions cost about `CONTRIB_ROW_COST` predictions, so a page's reasons
    are worth a second thread long before its scores are (`SINGLE_THREAD_ROWS`)."""
    from blockclf.booster import NativeBooster
    from blockclf.model import CONTRIB_ROW_COST, SINGLE_THREAD_ROWS

    model = load_model(tiny_model_file)
    seen = []

    def recording(self, X, num_iteration=None, num_threads=1, pred_contrib=False, verbosity=-1):
        seen.append((len(X), num_threads, pred_contrib))
        return np.zeros((len(X), X.shape[1] + 1)) if pred_contrib else np.zeros(len(X))

    monkeypatch.setattr(NativeBooster, "predict", recording)
    edge = -(-SINGLE_THREAD_ROWS // CONTRIB_ROW_COST)  # the fewest rows that get several threads
    assert edge == 2
    for rows in (edge - 1, edge):
        assert model.contributions(np.zeros((rows, len(FEATURES)))).shape == (rows, len(FEATURES) + 1)
    model.classifier.predict_proba(np.zeros((edge, len(FEATURES))))  # scores of as many rows: one thread
    assert seen == [(edge - 1, 1, True), (edge, 2, True), (edge, 1, False)]
