"""Jobs of one caller shared with a helper thread: the caller takes them first to last, the
helper last to first, each job run once by whoever reaches it first.

A check aligns its suspect with the candidates the collection's cache already holds
prepared (:func:`sverka.core.check.check_document`); their alignment runs in the compiled
engine with the GIL released, so on a machine of two cores the helper aligns the last of
them while the check's own thread reads and prepares the sources it meets for the first
time. Each job's result is the one the caller would have computed itself, in the same
order of use: only who computes it changes.

The helper stops when the caller's :class:`Ahead` is gone (the check returned or raised):
it holds only a weak reference to it between jobs.
"""

from __future__ import annotations

import os
import threading
import weakref
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any, Callable, Hashable

__all__ = ["Ahead", "HELPERS", "MIN_JOBS"]

#: Helper threads of the process (two checks at once, a class in two threads, each get one).
HELPERS = 2
#: Fewer jobs than this are run by the caller alone: a helper's hand-over costs more.
MIN_JOBS = 2

_pool: ThreadPoolExecutor | None = None
_pool_lock = threading.Lock()


def _helpers() -> ThreadPoolExecutor:
    global _pool
    with _pool_lock:
        if _pool is None:
            _pool = ThreadPoolExecutor(HELPERS, thread_name_prefix="sverka-ahead")
        return _pool


class Ahead:
    """Jobs keyed by a name, in the caller's order of use. ``result(name)`` runs the job or
    waits for the helper running it; a job's exception is raised to the caller there."""

    def __init__(self, jobs: dict[Hashable, Callable[[], Any]]) -> None:
        self._jobs = jobs
        self._claimed: set[Hashable] = set()
        self._lock = threading.Lock()
        self._results = {name: Future() for name in jobs}

    @classmethod
    def start(cls, jobs: dict[Hashable, Callable[[], Any]]) -> "Ahead":
        """``jobs`` shared with a helper when there are enough of them and a second core."""
        ahead = cls(jobs)
        if len(jobs) >= MIN_JOBS and (os.cpu_count() or 1) > 1:
            _helpers().submit(_help, weakref.ref(ahead), list(jobs)[::-1])
        return ahead

    def __contains__(self, name: Hashable) -> bool:
        return name in self._jobs

    def _claim(self, name: Hashable) -> bool:
        with self._lock:
            if name in self._claimed:
                return False
            self._claimed.add(name)
            return True

    def _run(self, name: Hashable) -> None:
        out = self._results[name]
        try:
            out.set_result(self._jobs[name]())
        except BaseException as e:  # noqa: BLE001 - given to the caller, who raises it
            out.set_exception(e)

    def result(self, name: Hashable) -> Any:
        """The job's result: run here unless the helper took it first."""
        if self._claim(name):
            self._run(name)
        return self._results[name].result()


def _help(ref: "weakref.ref[Ahead]", names: list) -> None:
    """The helper's part: the jobs from the last, while the caller lives and has not taken them."""
    for name in names:
        ahead = ref()
        if ahead is None:
            return
        if ahead._claim(name):
            ahead._run(name)
        del ahead
