"""The limits of reading one untrusted file, environment overrides applied; the cores this
process may use.

Kept apart from the worker processes that enforce them (:mod:`sverka.core.workers`) so that the
readers (:mod:`sverka.core.extract`), which bound their own fallbacks by the same time, need not
import the workers, which run the readers.
"""

from __future__ import annotations

import os

__all__ = ["READ_MEMORY_BYTES", "READ_SECONDS", "job_threads", "read_limits", "usable_cores"]

#: Address space a worker may take beyond its own size after its imports: a file that needs
#: more (a decompression bomb, forms drawing forms) is refused by Sverka at this limit, long
#: before the system runs short of memory.
READ_MEMORY_BYTES = 1024 ** 3
#: Wall-clock seconds one file may take to read (and, when adding, to fingerprint).
READ_SECONDS = 300.0


def read_limits() -> tuple[int, float]:
    """(memory bytes, seconds) in force: ``SVERKA_READ_MEMORY_MB`` and ``SVERKA_READ_SECONDS``
    override the defaults (the test suite uses them)."""
    mem = READ_MEMORY_BYTES
    secs = READ_SECONDS
    try:
        mem = int(float(os.environ["SVERKA_READ_MEMORY_MB"]) * 1024 * 1024)
    except (KeyError, ValueError):
        pass
    try:
        secs = float(os.environ["SVERKA_READ_SECONDS"])
    except (KeyError, ValueError):
        pass
    return mem, secs


def usable_cores() -> int:
    """The cores this process may run on (its CPU affinity), the one count every pool uses
    (worker processes, a class's threads, the encoder's threads)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def job_threads() -> int:
    """Threads one job of a check may split over (a batch of sentences encoded, the queries of a
    search by meaning): one per core this process may use, at most 4. One in a worker process
    (its parent runs one worker per core already)."""
    import multiprocessing

    if multiprocessing.parent_process() is not None:
        return 1
    return min(usable_cores(), 4)
