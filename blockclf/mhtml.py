"""Pages saved by a browser as one MHTML file (``.mhtml``, ``.mht``): the page's own HTML part.

"Save page as... single file" writes the page, its images, styles and frames as the parts of
one MIME message. The page is its first ``text/html`` part (the one at the address the file
was saved from, when several are): frames and images are not the page. Its address, from the
part's ``Content-Location`` or the message's ``Snapshot-Content-Location``, stands in for a
canonical link the page does not give.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from .reading import PageError

if TYPE_CHECKING:
    from email.message import Message

__all__ = ["html_part", "is_mhtml"]

#: the headers of a MIME message of related parts, before the first empty line
_MULTIPART = re.compile(rb"^content-type:\s*multipart/related", re.IGNORECASE | re.MULTILINE)
_MIME_VERSION = re.compile(rb"^mime-version:", re.IGNORECASE | re.MULTILINE)
#: how far into the file its headers are looked for (Blink writes about 300 bytes of them)
_HEAD_BYTES = 4096


def is_mhtml(data: bytes) -> bool:
    """Whether ``data`` is a MIME message of related parts (an MHTML file), by its headers."""
    head = data[:_HEAD_BYTES]
    end = re.search(rb"\r?\n\r?\n", head)
    head = head[: end.start()] if end else head
    return head[:1] not in (b"<", b"\xef", b"\xff", b"\xfe") and bool(_MIME_VERSION.search(head)) \
        and bool(_MULTIPART.search(head))


def html_part(data: bytes) -> tuple[bytes, str | None, str | None]:
    """The page of an MHTML file: its HTML part's bytes (transfer encoding undone), the charset
    the part declares, and the address it was saved from. `PageError` ``mhtml-no-html`` when
    the file holds no HTML part, ``too-deep`` when its parts nest past the interpreter's recursion limit."""
    import email.parser  # only for a single-file save: 17 ms of every command's start otherwise
    import email.policy

    try:  # the parser and the walk recurse once a level of nested parts
        message = email.parser.BytesParser(policy=email.policy.compat32).parsebytes(data)
        parts = [p for p in message.walk() if p.get_content_type() in ("text/html", "application/xhtml+xml")]
    except RecursionError:
        raise PageError("too-deep", "MHTML file nests its parts deeper than this interpreter can read") from None
    saved_from = _address(message.get("Snapshot-Content-Location"))
    if not parts:
        raise PageError("mhtml-no-html", "MHTML file holds no HTML part: no page to read")
    page = next((p for p in parts if saved_from and _address(p.get("Content-Location")) == saved_from), parts[0])
    body = _payload(page)
    return body, page.get_content_charset(), _address(page.get("Content-Location")) or saved_from


def _payload(part: Message) -> bytes:
    """A part's body with its transfer encoding (quoted-printable, base64) undone."""
    body = part.get_payload(decode=True)
    if isinstance(body, bytes):
        return body
    raw = part.get_payload()
    return raw.encode("utf-8", "surrogateescape") if isinstance(raw, str) else b""


def _address(value: object) -> str | None:
    """An http(s) address from a header, None for anything else (``cid:``, ``about:blank``)."""
    text = str(value).strip() if value is not None else ""
    return text if text.lower().startswith(("http://", "https://")) else None
