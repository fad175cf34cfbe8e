"""Errors Sverka tells the user about, kept apart from bugs.

Everything a user can cause (a bad file, a busy or too-new collection, a cancel) raises a
subclass of :class:`SverkaError` whose message is fit to show as it is. Any other
exception is a bug in Sverka.
"""

from __future__ import annotations

from pathlib import Path


class SverkaError(Exception):
    """A problem to show to the user, not a bug."""


class Cancelled(SverkaError):
    """The user cancelled a long operation."""

    def __init__(self, message: str = "Cancelled") -> None:
        super().__init__(message)


class ExtractError(SverkaError):
    """A file could not be turned into text. The message names the file and the reason."""

    reason = "cannot be read"

    def __init__(self, path: str | Path | None, reason: str | None = None) -> None:
        self.path = str(path) if path is not None else None
        self.detail = reason or self.reason
        where = f"{self.path}: " if self.path else ""
        super().__init__(f"{where}{self.detail}")

    def __reduce__(self):  # crosses from the sandboxed reader process intact
        return (type(self), (self.path, self.detail))


class UnsupportedFormat(ExtractError):
    reason = "unsupported or unknown file format"


class CorruptFile(ExtractError):
    reason = "the file is damaged or truncated"


class EncryptedFile(ExtractError):
    reason = "the file is password-protected"


class EmptyDocument(ExtractError):
    reason = "the file contains no text"


class TooLarge(ExtractError):
    reason = "the file is larger than Sverka's safety limit"


class UnreadableFile(ExtractError):
    """The file cannot be opened at all: missing, a folder, no permission, an I/O error."""

    reason = "the file cannot be opened"


class CollectionError(SverkaError):
    """The reference collection (index file) cannot be used."""


class CollectionBusy(CollectionError):
    """Another program is writing to the collection and did not finish in time."""


class CollectionVersionError(CollectionError):
    """The collection was written by a newer Sverka or an incompatible older one."""


class CollectionNeedsRebuild(CollectionVersionError):
    """The collection was written by an earlier Sverka: ``sverka rebuild`` (or the window)
    rebuilds it from the texts it keeps."""


class CollectionReadOnly(CollectionError):
    """The collection is on a read-only medium or not writable: it opens for checking only."""


class CollectionDamaged(CollectionError):
    """Part of the collection file is damaged: ``sverka rebuild`` recovers what it can."""
