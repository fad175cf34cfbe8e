"""Errors Sverka tells the user about, kept apart from bugs.

Everything a user can cause (a bad file, a busy or too-new collection, a cancel) raises a
subclass of :class:`SverkaError` whose message is fit to show as it is. Any other
exception is a bug in Sverka.
"""

from __future__ import annotations

from pathlib import Path

from .messages import Message, message


class SverkaError(Exception):
    """A problem to show to the user, not a bug.

    ``message``: the problem as data (:mod:`sverka.core.messages`) when it has a code, for
    the faces to word in the user's language; ``str(error)`` is its English text."""

    def __init__(self, *args, message: Message | None = None) -> None:
        super().__init__(*args)
        if message is not None or not hasattr(self, "message"):
            self.message = message

    @classmethod
    def of(cls, code: str, **args):
        """The error of message ``code`` (English text as its ``str``)."""
        m = message(code, **args)
        return cls(str(m), message=m)


class Cancelled(SverkaError):
    """The user cancelled a long operation."""

    def __init__(self, text: str = "Cancelled", message: Message | None = None) -> None:
        super().__init__(text, message=message or _CANCELLED)


_CANCELLED = message("error.cancelled")


class ExtractError(SverkaError):
    """A file could not be turned into text. The message names the file and the reason.

    ``message`` is the reason as data (:mod:`sverka.core.messages`): the class's code
    (``error.corrupt`` ...) with the English ``detail`` (what the reader found), or a code of
    its own given as ``code`` (then its args in ``args``). The faces word it."""

    reason = "cannot be read"
    code = "error.unreadable"

    def __init__(self, path: str | Path | None, reason: str | None = None, *, code: str | None = None,
                 **args) -> None:
        self.path = str(path) if path is not None else None
        if code is not None:
            self.message: Message = message(code, **args)
            self.detail = reason or str(self.message)
        else:
            self.detail = reason or self.reason
            self.message = message(self.code, detail=self.detail)
        where = f"{self.path}: " if self.path else ""
        Exception.__init__(self, f"{where}{self.detail}")

    def __reduce__(self):  # crosses from the sandboxed reader process intact
        return (_rebuild_extract_error, (type(self), self.path, self.detail, self.message))


def _rebuild_extract_error(cls, path, detail, msg):
    e = cls(path, detail)
    e.message = msg
    return e


class UnsupportedFormat(ExtractError):
    reason = "unsupported or unknown file format"
    code = "error.unsupported"


class CorruptFile(ExtractError):
    reason = "the file is damaged or truncated"
    code = "error.corrupt"


class EncryptedFile(ExtractError):
    reason = "the file is password-protected"
    code = "error.encrypted"


class EmptyDocument(ExtractError):
    reason = "the file contains no text"
    code = "error.empty"


class TooLarge(ExtractError):
    reason = "the file is larger than Sverka's safety limit"
    code = "error.too_large"


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
