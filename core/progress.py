"""Progress reporting and cancellation for long operations.

Every long call of :mod:`sverka.core.api` takes ``progress`` and ``cancel``; the GUI, the
command line and the tests each pass their own.
"""

from __future__ import annotations

import threading
from typing import Callable

from .errors import Cancelled

#: ``progress(done, total, message)``: ``done`` of ``total`` steps finished (``total`` may be 0
#: when unknown); ``message`` is a phase code (``"phase.…"`` of :mod:`sverka.core.messages`, worded
#: by the face with ``messages.phase_text``) or the name of the document being read.
Progress = Callable[[int, int, str], None]


def no_progress(done: int, total: int, message: str) -> None:
    """A progress callback that ignores everything."""


class CancelToken:
    """Set from any thread to ask a running operation to stop at its next check point."""

    def __init__(self) -> None:
        self._event = threading.Event()

    def cancel(self) -> None:
        self._event.set()

    @property
    def cancelled(self) -> bool:
        return self._event.is_set()

    def raise_if_cancelled(self) -> None:
        """Raise :class:`~sverka.core.errors.Cancelled` if :meth:`cancel` was called."""
        if self._event.is_set():
            raise Cancelled()


NEVER_CANCELLED = CancelToken()
