"""Checking many suspects against one collection on every core.

:func:`check_many` gives exactly what checking the suspects one by one gives, in the same
order: each suspect is checked by :func:`sverka.core.check.check_document` (the same code
as a single check) in a worker process (spawned, as the index's workers are) that opened the
collection once. One core or fewer than :data:`MIN_PARALLEL` suspects: no workers at all.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from pathlib import Path

from .document import Document
from .progress import NEVER_CANCELLED, CancelToken, Progress, no_progress
from .results import CheckResult
from .settings import Settings

__all__ = ["check_many", "cores"]

_worker: dict = {}
#: Fewer suspects than this are checked in this process unless ``workers`` is given.
MIN_PARALLEL = 4


def cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def _init(path: str, settings: Settings, parent: int | None = None) -> None:
    from .index import Index
    from .workers import die_with_parent

    die_with_parent(parent)

    _worker["index"] = Index(path, settings)
    _worker["settings"] = settings


def _check_one(doc: Document) -> CheckResult:
    from .check import check_document

    return check_document(_worker["index"], doc, _worker["settings"])


def check_many(
    path: str | Path,
    docs: Sequence[Document],
    settings: Settings,
    *,
    serial: Callable[[Document], CheckResult],
    workers: int | None = None,
    progress: Progress = no_progress,
    cancel: CancelToken = NEVER_CANCELLED,
) -> list[CheckResult]:
    """Check ``docs`` against the collection at ``path``; results in the order of ``docs``.

    ``serial`` checks one document in this process (used when workers would not pay off);
    ``workers`` defaults to the number of usable cores (at most the number of documents) from
    :data:`MIN_PARALLEL` documents on, else 1."""
    n = len(docs)
    if workers is None:  # starting the workers costs ~1-2 s: worth it from a few suspects on
        workers = cores() if n >= MIN_PARALLEL else 1
    workers = min(workers, n)
    if workers < 2:
        out = []
        for k, doc in enumerate(docs):
            cancel.raise_if_cancelled()
            progress(k, n, doc.title)
            out.append(serial(doc))
        progress(n, n, "")
        return out
    import concurrent.futures as cf
    import multiprocessing

    from .index import START_METHOD

    ctx = multiprocessing.get_context(START_METHOD)
    out: list[CheckResult | None] = [None] * n
    with cf.ProcessPoolExecutor(workers, mp_context=ctx, initializer=_init,
                                initargs=(str(path), settings, os.getpid())) as pool:
        futures = {pool.submit(_check_one, doc): k for k, doc in enumerate(docs)}
        done = 0
        try:
            for fut in cf.as_completed(futures):
                cancel.raise_if_cancelled()
                out[futures[fut]] = fut.result()
                done += 1
                progress(done, n, docs[futures[fut]].title)
        except BaseException:
            pool.shutdown(wait=False, cancel_futures=True)
            raise
    return out  # type: ignore[return-value]
