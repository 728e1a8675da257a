"""The metadata benchmark reads the fundus pages' expected metadata where the fundus parsers keep it."""

import importlib.util
import json
from pathlib import Path

_SPEC = importlib.util.spec_from_file_location("metadata_bench",
                                               Path(__file__).resolve().parents[1] / "benchmarks" / "metadata.py")
bench = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(bench)


def test_a_fundus_pages_expected_metadata_is_its_publishers_entry_for_the_parser_version(tmp_path):
    data = tmp_path / "tests" / "resources" / "parser" / "test_data" / "us"
    data.mkdir(parents=True)
    (data / "The_Intercept.json").write_text(json.dumps({
        "V1": {"title": "Old headline", "authors": ["Ann Lee"], "publishing_date": "2024-01-02 10:00:00+00:00"},
        "V1_1": {"title": "A headline", "authors": ["Ann Lee", "Bo Kim"],
                 "publishing_date": "2024-01-02 23:30:00+00:00"},
    }))
    expected = bench._fundus_expected(tmp_path)
    want = expected({"id": "us-The_Intercept_2024_01_02", "parser_version": "V1_1", "lang": "en"})
    assert want == {"title": "A headline", "byline": "Ann Lee, Bo Kim", "publishedTime": "2024-01-02 23:30:00+00:00",
                    "lang": "en"}
    assert bench.hit("author", "Ann Lee and Bo Kim", want["byline"])
    assert not bench.hit("author", "The Intercept", want["byline"])


def test_a_language_is_right_by_its_primary_subtag_bokmal_as_norwegian():
    assert bench.hit("lang", "en-US", "en") and bench.hit("lang", "nb", "no") and bench.hit("lang", "no", "nn")
    assert not bench.hit("lang", "da", "no") and not bench.hit("lang", "la", "en")
