"""Text extraction: a file path in, a :class:`~sverka.core.document.Document` out.

One module per format; :func:`extract` sniffs the content (not only the suffix) and
dispatches. Unknown, binary, corrupt, encrypted or empty input raises an
:class:`~sverka.core.errors.ExtractError` subclass naming the file and the reason.
"""

from __future__ import annotations

from pathlib import Path

from ..document import Document
from ..errors import ExtractError

__all__ = ["Document", "ExtractError", "extract", "SUPPORTED_SUFFIXES"]

#: File name endings Sverka offers in file dialogs and picks up when adding a folder.
SUPPORTED_SUFFIXES = (".txt", ".md", ".docx", ".pdf", ".odt", ".rtf", ".html", ".htm")


def extract(path: str | Path) -> Document:
    """Extract the plain text of the file at ``path``."""
    raise NotImplementedError("extraction is being written")
