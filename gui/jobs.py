"""Work off the GUI thread: a job runs in a ``QRunnable`` and always hands ``result`` or
``error`` back to the GUI thread (the threading story of MusicBrainz Picard's
``picard/util/thread.py``).

Two pools by purpose: ``read`` (checks, comparisons, listing, extraction) and ``write``
with exactly one thread, through which every change of the collection index goes, so the
index never sees two writers from this window.

A job function has the signature ``func(progress, cancel) -> result``; ``progress`` is the
engine's ``progress(done, total, message)`` callback and ``cancel`` a :class:`CancelToken`.
Progress reaches the GUI at most every :data:`PROGRESS_INTERVAL` seconds, so a chatty
engine cannot flood the event loop.
"""

from __future__ import annotations

import time
import traceback
from typing import Any, Callable

from PySide6.QtCore import QCoreApplication, QObject, QRunnable, QThreadPool, Signal

from sverka.core.api import CancelToken

PROGRESS_INTERVAL = 0.05  # seconds between two progress signals of one job

JobFunc = Callable[[Callable[[int, int, str], None], CancelToken], Any]
DoneFunc = Callable[[Any, BaseException | None], None]


class JobSignals(QObject):
    """Lives in the GUI thread; emitted from the worker, delivered queued."""

    progress = Signal(int, int, str)
    finished = Signal(object, object)  # result, error (exactly one of them is not None... or both None)


class Job(QRunnable):
    """One piece of work. ``cancel()`` may be called from any thread."""

    def __init__(self, func: JobFunc, name: str = "") -> None:
        super().__init__()
        self.setAutoDelete(False)  # Python keeps the reference until the GUI saw the end
        self.func = func
        self.name = name
        self.token = CancelToken()
        self.signals = JobSignals()
        self.done = False
        self._last_emit = 0.0

    def cancel(self) -> None:
        self.token.cancel()

    @property
    def cancelled(self) -> bool:
        return self.token.cancelled

    def _progress(self, done: int, total: int, message: str) -> None:
        now = time.monotonic()
        if now - self._last_emit >= PROGRESS_INTERVAL or (total and done >= total):
            self._last_emit = now
            self._emit(self.signals.progress, int(done), int(total), str(message))

    @staticmethod
    def _emit(signal, *args) -> None:
        try:
            signal.emit(*args)
        except RuntimeError:  # the signals' object is gone with the application: nobody is left to tell
            pass

    def run(self) -> None:  # worker thread
        result: Any = None
        error: BaseException | None = None
        try:
            self.token.raise_if_cancelled()
            result = self.func(self._progress, self.token)
        except BaseException as exc:  # noqa: BLE001 - every error goes back to the GUI thread
            error = exc
            error.__sverka_traceback__ = traceback.format_exc()  # type: ignore[attr-defined]
        self._emit(self.signals.finished, result, error)


class JobRunner(QObject):
    """Starts jobs in the right pool, keeps them alive, cancels and waits for all of them."""

    started = Signal(object)  # Job
    ended = Signal(object)  # Job

    def __init__(self, parent: QObject | None = None, read_threads: int = 2) -> None:
        super().__init__(parent)
        self.read_pool = QThreadPool(self)
        self.read_pool.setMaxThreadCount(max(1, read_threads))
        self.write_pool = QThreadPool(self)
        self.write_pool.setMaxThreadCount(1)
        self.write_pool.setExpiryTimeout(-1)  # one thread kept between jobs (wait() ends it: the next job gets a new one)
        self._jobs: list[Job] = []
        self._shut = False

    def run(
        self,
        func: JobFunc,
        done: DoneFunc | None = None,
        *,
        progress: Callable[[int, int, str], None] | None = None,
        write: bool = False,
        name: str = "",
    ) -> Job:
        """Run ``func`` in a worker; ``done(result, error)`` is called in the GUI thread."""
        job = Job(func, name)
        self._jobs.append(job)
        if progress is not None:
            job.signals.progress.connect(progress)

        def finish(result: Any, error: BaseException | None) -> None:
            job.done = True
            if job in self._jobs:
                self._jobs.remove(job)
            if self._shut:  # the window is closing: nobody is left to show the answer
                return
            try:
                if done is not None:
                    done(result, error)
            finally:
                self.ended.emit(job)

        job.signals.finished.connect(finish)
        (self.write_pool if write else self.read_pool).start(job)
        self.started.emit(job)
        return job

    @property
    def jobs(self) -> list[Job]:
        return list(self._jobs)

    def cancel_all(self) -> None:
        for job in self._jobs:
            job.cancel()

    def wait(self, msecs: int = -1) -> bool:
        """Block until both pools are idle; True if they are."""
        ok_read = self.read_pool.waitForDone(msecs)
        ok_write = self.write_pool.waitForDone(msecs)
        return ok_read and ok_write

    def shutdown(self, msecs: int = 30000) -> bool:
        """Cancel everything and wait (closing the window); later answers are dropped."""
        self._shut = True
        self.cancel_all()
        self.read_pool.clear()
        self.write_pool.clear()
        return self.wait(msecs)


def format_time_left(seconds: float | None) -> str:
    """``about 40 s left`` / ``about 3 min left``; empty when unknown."""
    if seconds is None:
        return ""
    if seconds < 60:
        return QCoreApplication.translate("ProgressPanel", "about %n s left").replace(
            "%n", str(max(1, int(round(seconds)))))
    return QCoreApplication.translate("ProgressPanel", "about %n min left").replace("%n", str(int(round(seconds / 60))))


class EtaEstimator:
    """Time left from (done, total) samples: linear in the work done since the first sample."""

    def __init__(self) -> None:
        self.reset()

    def reset(self) -> None:
        self._t0: float | None = None
        self._done0 = 0

    def update(self, done: int, total: int, now: float | None = None) -> float | None:
        now = time.monotonic() if now is None else now
        if total <= 0:
            return None
        if self._t0 is None:
            self._t0, self._done0 = now, done
            return None
        elapsed = now - self._t0
        progressed = done - self._done0
        if progressed <= 0 or elapsed < 0.5:
            return None
        return max(0.0, elapsed * (total - done) / progressed)
