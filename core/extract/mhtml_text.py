"""A web page saved as one file (MHTML: ``.mht``, ``.mhtml``), as the browser showed it.

Chromium ("Save as: Webpage, Single File"), Edge and Internet Explorer save a page as a MIME
message (RFC 2557, ``multipart/related``): the page's HTML, its style sheets, pictures and
frames, each a part with the address it came from. Python's :mod:`email` parser splits it
and undoes each part's transfer encoding (quoted-printable, base64). The page is the part
the message's ``start`` parameter names, else the one at the address the browser saved
(``Snapshot-Content-Location``), else the first HTML part; it is read by the HTML reader
(:mod:`.html_text`) with the saved style sheets put in its head, in the order they were
saved, so text the page's own CSS hides stays hidden as it was in the browser. Frames
(other HTML parts) are not the page's text, as in the browser's text of a page.
"""

from __future__ import annotations

import email
import email.policy
from email.message import Message

from .html_text import decode_html, whatwg_encoding
from .plain_text import BinaryData

__all__ = ["mhtml_to_html"]


class NotMhtml(ValueError):
    """The file is no web page saved as one file."""


def _parts(msg: Message) -> list[Message]:
    return [p for p in msg.walk() if not p.is_multipart()]


def _id(value: str | None) -> str:
    return (value or "").strip().strip("<>").strip()


def _page(msg: Message, parts: list[Message]) -> Message | None:
    html = [p for p in parts if p.get_content_type() in ("text/html", "application/xhtml+xml")]
    if not html:
        return None
    start = _id(msg.get_param("start")) if msg.is_multipart() else ""
    if start:
        for p in html:
            if _id(p.get("Content-ID")) == start or _id(p.get("Content-Location")) == start:
                return p
    snapshot = _id(msg.get("Snapshot-Content-Location"))
    if snapshot:
        for p in html:
            if _id(p.get("Content-Location")) == snapshot:
                return p
    return html[0]


def _text_of(part: Message) -> tuple[str, str, list[str]]:
    """(text, encoding, warnings) of a part: its declared charset, else what the HTML reader
    finds (a ``<meta charset>``, a byte order mark, the bytes themselves)."""
    data = part.get_payload(decode=True) or b""
    declared = part.get_content_charset()
    enc = whatwg_encoding(declared) if declared else None
    if enc is not None and enc not in ("utf-16-le", "utf-16-be"):
        return data.decode(enc, errors="replace"), enc, []
    return decode_html(data)


def mhtml_to_html(data: bytes) -> tuple[str, str, list[str]]:
    """(the saved page's HTML with its saved style sheets in its head, its encoding, warnings)
    of an MHTML file's bytes; :class:`NotMhtml` when they hold no web page."""
    msg = email.message_from_bytes(data, policy=email.policy.compat32)
    parts = _parts(msg)
    page = _page(msg, parts)
    if page is None:
        if not msg.is_multipart() and not msg.keys():
            raise NotMhtml("no MIME headers: not a web page saved as one file")
        raise NotMhtml("no HTML page among the parts of the saved file")
    markup, encoding, warnings = _text_of(page)
    sheets = []
    for p in parts:
        if p.get_content_type() == "text/css":
            try:
                css, _, _ = _text_of(p)
            except BinaryData:
                continue
            sheets.append("<style>" + css.replace("</", "<\\/") + "</style>")
    if sheets:
        style = "\n".join(sheets)
        lower = markup[:200_000].lower()
        at = lower.find("</head")
        if at < 0:
            at = lower.find("<body")
        markup = markup[:at] + style + markup[at:] if at >= 0 else style + markup
    return markup, encoding, warnings
