"""Parsing: the decoding order, the recorded encoding, gzip paths and page metadata."""

from __future__ import annotations

import codecs
import gzip
from pathlib import Path

import pytest

from blockclf import PageError, parse
from blockclf.html import decode, read_source

RUSSIAN = "Съешь же ещё этих мягких французских булок, да выпей чаю. " * 12


def page(body: str, head: str = "") -> str:
    return f"<html><head>{head}</head><body><p>{body}</p></body></html>"


def text_of(doc) -> str:
    return " ".join("".join(doc.root.find("body").itertext()).split())


def test_bom_wins_over_everything():
    data = codecs.BOM_UTF8 + page("café", '<meta charset="iso-8859-1">').encode("utf-8")
    doc = parse(data, encoding="cp1251")
    assert doc.encoding == "utf-8"
    assert text_of(doc) == "café"


def test_utf16_bom():
    data = codecs.BOM_UTF16_LE + page("naïve 数据").encode("utf-16-le")
    doc = parse(data)
    assert doc.encoding == "utf-16-le"
    assert text_of(doc) == "naïve 数据"


def test_callers_encoding_beats_the_meta_declaration():
    data = page(RUSSIAN, '<meta charset="utf-8">').encode("cp1251")
    doc = parse(data, encoding="windows-1251")
    assert doc.encoding == "cp1251"
    assert text_of(doc) == RUSSIAN.strip()


def test_meta_charset_and_http_equiv_are_read():
    data = page(RUSSIAN, '<meta charset="windows-1251">').encode("cp1251")
    assert parse(data).encoding == "cp1251"
    equiv = page(RUSSIAN, '<meta http-equiv="Content-Type" content="text/html; charset=koi8-r">').encode("koi8-r")
    doc = parse(equiv)
    assert doc.encoding == codecs.lookup("koi8-r").name
    assert text_of(doc) == RUSSIAN.strip()


@pytest.mark.parametrize("label", ["utf-7", "unicode_escape", "raw_unicode_escape", "punycode", "idna"])
def test_a_declaration_of_an_encoding_no_browser_reads_is_ignored(label):
    # read by such a codec, "+ADw-b+AD4-" (UTF-7) or "\\x3cb\\x3e" became markup no browser shows
    data = page("Price +ADw-b+AD4-low+ADw-/b+AD4- and \\x3cb\\x3e here", f'<meta charset="{label}">').encode()
    doc = parse(data)
    assert doc.encoding == "utf-8"
    assert text_of(doc) == "Price +ADw-b+AD4-low+ADw-/b+AD4- and \\x3cb\\x3e here"
    assert doc.root.find(".//b") is None


@pytest.mark.parametrize(("label", "text", "used"), [
    ("gb2312", "朱镕基访问了学校。" * 10, "gbk"),  # 镕 is GBK's, not GB2312's: browsers read GB2312 as GBK
    ("windows-874", "สวัสดีครับ ยินดีต้อนรับ " * 10, "cp874"),  # a label Python's codecs do not know
    ("iso-8859-9", "Türkçe metin € işareti ile " * 10, "cp1254"),  # Latin-5 is read as Windows-1254
    ("x-sjis", "日本語のテキストです。" * 10, "cp932"),
])
def test_a_declared_encoding_is_read_as_browsers_read_its_label(label, text, used):
    doc = parse(page(text, f'<meta charset="{label}">').encode(used))
    assert doc.encoding == used
    assert text_of(doc) == " ".join(text.split())


def test_genuine_latin1_page_is_read_as_browsers_read_it():
    """A browser reads ISO-8859-1 as Windows-1252: the same letters, and quotes and dashes
    where Latin-1 has control characters (0x92 is an apostrophe, not U+0092)."""
    data = page("déjà vu, señor", '<meta charset="iso-8859-1">').encode("latin-1")
    doc = parse(data)
    assert doc.encoding == "cp1252"
    assert text_of(doc) == "déjà vu, señor"
    quoted = page("Don\x92t say \x93never\x94 \x96 caf\xe9", '<meta charset="iso-8859-1">').encode("latin-1")
    assert text_of(parse(quoted)) == "Don’t say “never” – café"
    # the five bytes Windows-1252 leaves undefined are read as Latin-1 reads them, not lost
    assert decode(b"<meta charset='windows-1252'><p>a\x81b \x93c\x94</p>")[0].endswith("a\x81b “c”</p>")
    assert decode(b"<meta charset='ascii'><p>plain</p>")[1] == "ascii"


def test_single_byte_declared_but_utf8_page_is_read_as_utf8():
    for charset in ("iso-8859-15", "windows-1256"):
        data = page("Qatar’s oldest daily — café", f'<meta charset="{charset}">').encode("utf-8")
        assert parse(data).encoding == "utf-8"
        assert text_of(parse(data)) == "Qatar’s oldest daily — café"


def test_latin1_declared_but_utf8_page_is_read_as_utf8():
    data = page("déjà vu, señor — “quoted”", '<meta charset="ISO-8859-1">').encode("utf-8")
    doc = parse(data)
    assert doc.encoding == "utf-8"
    assert text_of(doc) == "déjà vu, señor — “quoted”"


def test_undeclared_utf8_is_tried_strictly():
    doc = parse(page("Grüße aus Köln").encode("utf-8"))
    assert doc.encoding == "utf-8"
    assert text_of(doc) == "Grüße aus Köln"


def test_undeclared_western_page_is_windows_1252_where_detection_ties():
    """Detection ties on pages with few bytes past ASCII and picked Central European or DOS code
    pages for English ones; a browser's default, Windows-1252, is taken when it reads the page
    as cleanly. Polish, Russian and Russian DOS pages keep their own encodings."""
    english = page("It’s £5 – “quoted”, the café was open. " * 3).encode("cp1252")
    assert decode(english) == (english.decode("cp1252"), "cp1252")
    polish = page("Zażółć gęślą jaźń. Wczoraj poszliśmy do sklepu, żeby kupić chleb i masło. " * 3)
    assert decode(polish.encode("cp1250"))[0] == polish
    for codec in ("cp1251", "cp866"):
        assert "французских булок" in decode(page(RUSSIAN).encode(codec))[0]


def test_charset_normalizer_is_the_last_resort():
    data = page(RUSSIAN).encode("cp1251")  # no declaration, not valid UTF-8
    text, used = decode(data)
    assert used not in ("utf-8",)
    assert "французских булок" in text
    assert parse(data).encoding == used


def test_unknown_declared_charset_falls_through_to_utf8():
    doc = parse(page("Grüße", '<meta charset="no-such-charset">').encode("utf-8"))
    assert doc.encoding == "utf-8"


def test_str_input_records_str():
    doc = parse(page("already text"))
    assert doc.encoding == "str"
    assert text_of(doc) == "already text"


def test_html_gz_path(tmp_path: Path):
    src = page("compressed page", '<meta charset="utf-8"><title>Gz</title>')
    path = tmp_path / "a.html.gz"
    path.write_bytes(gzip.compress(src.encode("utf-8")))
    assert read_source(path) == src.encode("utf-8")
    doc = parse(path)
    assert doc.title == "Gz"
    assert text_of(doc) == "compressed page"
    plain = tmp_path / "b.html"
    plain.write_text(src, encoding="utf-8")
    assert text_of(parse(plain)) == "compressed page"


def test_corrupt_gz_is_a_page_error(tmp_path: Path):
    path = tmp_path / "bad.html.gz"
    path.write_bytes(b"\x1f\x8b\x08\x00 not really gzip")
    with pytest.raises(PageError) as exc:
        parse(path)
    assert exc.value.reason == "bad-gzip"


def test_a_title_that_runs_on_into_script_ends_where_the_script_starts():
    # a damaged page lost the title's end tag and the start of the script after it
    head = ('<title>Korean Golfer Wins 7th PGA Title(The Korea Times)ntById("font");\n'
            'obj.style.fontSize = fontSize+"pt";\n}\nfunction goPrint() {\n\twindow.open("/print");\n}</title>')
    assert parse(f"<html><head>{head}</head><body><p>x</p></body></html>").title == (
        "Korean Golfer Wins 7th PGA Title(The Korea Times)")
    for kept in ("{SavourTheSeason} Days 29, 30: Pumpkin Pie", "Take that, Real World; I made it!",
                 "Nightwing (and Shiva) Now Contemporaries; You Know What That Means", "f(x) = x²; a primer"):
        assert parse(f"<html><head><title>{kept}</title></head><body><p>x</p></body></html>").title == kept


def test_title_canonical_and_lang():
    doc = parse('<html lang="de"><head><title>  A   Title\n</title>'
                '<link rel="alternate stylesheet" href="/x.css"><link rel="Canonical" href="https://ex.org/a">'
                '<meta property="og:url" content="https://ex.org/og"></head><body><p>x</p></body></html>')
    assert doc.title == "A Title"
    assert doc.url == "https://ex.org/a"
    assert doc.lang == "de"


def test_og_url_when_no_canonical():
    doc = parse('<html><head><meta property="og:url" content="https://ex.org/og"></head><body>x</body></html>')
    assert doc.url == "https://ex.org/og"
    assert doc.title == ""
    bare = parse("<p>no metadata</p>")
    assert bare.url is None and bare.lang is None


def test_og_url_written_with_name_is_the_pages_address():
    """Many pages write ``<meta name="og:url">`` where OpenGraph says ``property``; the page's
    address (its site, its links' base) is read from either."""
    doc = parse('<html><head><meta name="og:url" content="http://www.dazed.example/fashion/article/1/look">'
                '</head><body>x</body></html>')
    assert doc.url == "http://www.dazed.example/fashion/article/1/look"


@pytest.mark.parametrize("data, reason", [
    (b"", "empty"),
    (b"   \n\t ", "empty"),
    (b"%PDF-1.4 binary", "binary"),
    (b"\x89PNG\r\n\x1a\n" + bytes(64), "binary"),
])
def test_unusable_input_is_a_page_error(data: bytes, reason: str):
    with pytest.raises(PageError) as exc:
        parse(data)
    assert exc.value.reason == reason
