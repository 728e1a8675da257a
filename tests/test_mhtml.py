"""Pages saved as one MHTML file: read as their own HTML part, at the address they were saved from."""

from __future__ import annotations

import base64
import quopri
from pathlib import Path

import pytest

from blockclf import extract, parse
from blockclf.cli import main
from blockclf.html import PageError
from blockclf.mhtml import html_part, is_mhtml

ARTICLE = ("<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>Why Rivers Meander</title></head><body>"
           "<nav><a href='/'>Home</a> <a href='/news'>News</a></nav><article><h1>Why Rivers Meander</h1>"
           + "".join(f"<p>Water runs faster on the outside of a bend — café {i} — and wears the bank away, so the "
                     f"bend grows a little every year until the river cuts it off.</p>" for i in range(6))
           + "<iframe src='https://ads.example.net/slot'></iframe></article><footer>© Example</footer></body></html>")
FRAME = "<html><body><p>BUY NOW — an advertisement in a frame, not the page</p></body></html>"


def blink_mhtml(page: str = ARTICLE, url: str = "https://www.example.org/rivers", frame_first: bool = False,
                crlf: bool = True) -> bytes:
    """An MHTML file as Chrome's "Save as single file" writes it: the page quoted-printable, a frame, an image."""
    boundary = "----MultipartBoundary--kNtx2Iy8yZ1----"
    head = (f"From: <Saved by Blink>\nSnapshot-Content-Location: {url}\nSubject: Why Rivers Meander\n"
            f"Date: Sat, 5 Dec 2026 05:00:00 -0000\nMIME-Version: 1.0\nContent-Type: multipart/related;\n"
            f'\ttype="text/html";\n\tboundary="{boundary}"\n\n')
    main_part = (f"--{boundary}\nContent-Type: text/html\nContent-ID: <frame-1@mhtml.blink>\n"
                 f"Content-Transfer-Encoding: quoted-printable\nContent-Location: {url}\n\n"
                 + quopri.encodestring(page.encode("utf-8")).decode("ascii") + "\n")
    frame_part = (f"--{boundary}\nContent-Type: text/html\nContent-ID: <frame-2@mhtml.blink>\n"
                  f"Content-Transfer-Encoding: quoted-printable\nContent-Location: https://ads.example.net/slot\n\n"
                  + quopri.encodestring(FRAME.encode("utf-8")).decode("ascii") + "\n")
    image = (f"--{boundary}\nContent-Type: image/png\nContent-Transfer-Encoding: base64\n"
             f"Content-Location: https://www.example.org/logo.png\n\n"
             + base64.encodebytes(b"\x89PNG\r\n\x1a\n" + bytes(64)).decode("ascii") + "\n")
    parts = [frame_part, main_part] if frame_first else [main_part, frame_part]
    text = head + "".join(parts) + image + f"--{boundary}--\n"
    return text.replace("\n", "\r\n").encode("ascii") if crlf else text.encode("ascii")


@pytest.mark.parametrize("crlf", [True, False])
def test_the_page_is_its_html_part_at_the_address_it_was_saved_from(crlf):
    data = blink_mhtml(crlf=crlf)
    assert is_mhtml(data) and not is_mhtml(ARTICLE.encode("utf-8"))
    body, charset, url = html_part(data)
    assert body.decode("utf-8") == ARTICLE and charset is None and url == "https://www.example.org/rivers"
    doc = parse(data)
    assert doc.url == "https://www.example.org/rivers" and doc.title == "Why Rivers Meander"
    res = extract(data)
    assert "café 3" in res.text and "BUY NOW" not in res.text and "Home" not in res.text
    assert res.site == "example.org"


def test_the_part_saved_from_is_the_page_even_after_a_frame():
    body, _charset, url = html_part(blink_mhtml(frame_first=True))
    assert body.decode("utf-8") == ARTICLE and url == "https://www.example.org/rivers"


def test_an_mhtml_file_without_html_is_a_named_skip():
    data = blink_mhtml().replace(b"Content-Type: text/html", b"Content-Type: text/plain")
    with pytest.raises(PageError) as info:
        parse(data)
    assert info.value.reason == "mhtml-no-html"


def test_a_page_that_begins_with_words_is_not_taken_for_mhtml():
    # a fragment of text before the markup, with a line that looks like a header in it
    page = b"Content-Type: multipart/related\n\n<html><body><p>" + b"A paragraph of the page. " * 20 + b"</p></body></html>"
    assert not is_mhtml(page)  # no MIME-Version header: not a MIME message
    assert "A paragraph of the page." in extract(page).text


def test_the_command_reads_mhtml_files_in_a_folder(tmp_path: Path, capsys):
    src = tmp_path / "saved"
    src.mkdir()
    (src / "rivers.mhtml").write_bytes(blink_mhtml())
    (src / "old.MHT").write_bytes(blink_mhtml(url="https://www.example.org/old"))
    out = tmp_path / "out"
    assert main(["extract", str(src), "-o", str(out), "--format", "json", "--blocks", "none"]) == 0
    assert "not read" not in capsys.readouterr().err
    assert sorted(p.name for p in out.iterdir()) == ["old.json", "rivers.json"]
    import json

    doc = json.loads((out / "rivers.json").read_text(encoding="utf-8"))
    assert doc["url"] == "https://www.example.org/rivers" and "café 5" in doc["text"]


def test_parts_nested_past_the_recursion_limit_are_a_named_skip():
    depth = 2000
    head = 'MIME-Version: 1.0\r\nContent-Type: multipart/related; boundary="b0"\r\n\r\n'
    body = "".join(f'--b{i - 1}\r\nContent-Type: multipart/related; boundary="b{i}"\r\n\r\n' for i in range(1, depth))
    body += f"--b{depth - 1}\r\nContent-Type: text/html\r\n\r\n<p>deep</p>\r\n"
    body += "".join(f"--b{i}--\r\n" for i in reversed(range(depth)))
    with pytest.raises(PageError) as info:
        parse((head + body).encode("ascii"))
    assert info.value.reason == "too-deep"
