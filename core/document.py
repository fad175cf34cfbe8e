"""The plain-text document every stage after extraction works on."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from functools import cached_property

from .messages import Message


@dataclass(frozen=True)
class Document:
    """A document as Sverka sees it: its extracted plain text and where it came from.

    ``text`` is exactly what ``sverka extract`` prints; every character offset Sverka
    reports (tokens, sentences, passages) is a Python ``str`` index into it.
    """

    text: str
    path: str | None = None
    title: str = ""
    format: str = "text"  # txt, md, docx, pdf, odt, rtf, html, text (pasted)
    warnings: tuple[Message, ...] = ()  # sverka.core.messages
    meta: tuple[tuple[str, str], ...] = field(default=())  # (key, value) pairs, e.g. ("encoding", "cp1251")

    @cached_property
    def sha256(self) -> str:
        """SHA-256 of the UTF-8 text: the content identity used for duplicates and reports
        (computed once per document)."""
        return hashlib.sha256(self.text.encode("utf-8", "surrogatepass")).hexdigest()


def document_from_text(text: str, title: str = "Pasted text") -> Document:
    """A document typed or pasted by the user (no file behind it)."""
    return Document(text=text, path=None, title=title, format="text")
