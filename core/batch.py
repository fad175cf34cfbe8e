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
from .results import BatchItem, BatchResult, CheckResult
from .settings import Settings

__all__ = ["check_files", "check_many", "cores", "report_names", "write_reports"]

_worker: dict = {}
#: Fewer suspects than this are checked in this process unless ``workers`` is given.
MIN_PARALLEL = 4


def cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


#: How much nicer than their parent the workers run: a busy machine gives the window (or the
#: terminal) the CPU first, so it stays answerable while both cores check essays.
WORKER_NICENESS = 10


def _init(path: str, settings: Settings, parent: int | None = None) -> None:
    from .store import open_store
    from .workers import die_with_parent

    die_with_parent(parent)
    try:
        os.nice(WORKER_NICENESS)
    except (AttributeError, OSError):  # pragma: no cover - not POSIX
        pass

    _worker["index"] = open_store(path, settings)
    _worker["settings"] = settings
    from .text import canonize

    canonize("Проверка словарей. Перевірка словників: їжак. Checking the dictionaries.")  # load them now


def _ready() -> None:
    """Submitted once per worker so the pool starts its processes at once."""


def _start_pool(path: str | Path, settings: Settings, workers: int):
    """Worker processes that opened the collection, starting now (their start-up, ~1-3 s,
    overlaps whatever the caller does next)."""
    import concurrent.futures as cf
    import multiprocessing

    from .workers import START_METHOD

    ctx = multiprocessing.get_context(START_METHOD)
    pool = cf.ProcessPoolExecutor(workers, mp_context=ctx, initializer=_init,
                                  initargs=(str(path), settings, os.getpid()))
    for _ in range(workers):
        pool.submit(_ready)
    return pool


def _workers_for(n: int, workers: int | None) -> int:
    if workers is None:  # starting the workers costs ~1-2 s: worth it from a few suspects on
        workers = cores() if n >= MIN_PARALLEL else 1
    return min(workers, n)


def _check_one(doc: Document) -> CheckResult:
    from .check import check_document

    return check_document(_worker["index"], doc, _worker["settings"])


def check_many(
    path: str | Path,  # a collection file or a PostgreSQL URL
    docs: Sequence[Document],
    settings: Settings,
    *,
    serial: Callable[[Document], CheckResult],
    workers: int | None = None,
    progress: Progress = no_progress,
    cancel: CancelToken = NEVER_CANCELLED,
    pool=None,
) -> list[CheckResult]:
    """Check ``docs`` against the collection at ``path``; results in the order of ``docs``.

    ``serial`` checks one document in this process (used when workers would not pay off);
    ``workers`` defaults to the number of usable cores (at most the number of documents) from
    :data:`MIN_PARALLEL` documents on, else 1. ``pool``: workers already started by
    :func:`_start_pool` (shut down here)."""
    n = len(docs)
    workers = _workers_for(n, workers)
    if workers < 2 and pool is None:
        out = []
        for k, doc in enumerate(docs):
            cancel.raise_if_cancelled()
            progress(k, n, doc.title)
            out.append(serial(doc))
        progress(n, n, "")
        return out
    import concurrent.futures as cf

    out: list[CheckResult | None] = [None] * n
    pool = pool or _start_pool(path, settings, workers)
    with pool:
        futures = {pool.submit(_check_one, doc): k for k, doc in enumerate(docs)}
        pending = set(futures)
        done = 0
        try:
            while pending:  # wake up every 0.1 s so a cancel does not wait for a slow essay
                finished, pending = cf.wait(pending, timeout=0.1, return_when=cf.FIRST_COMPLETED)
                cancel.raise_if_cancelled()
                for fut in sorted(finished, key=futures.__getitem__):
                    out[futures[fut]] = fut.result()
                    done += 1
                    progress(done, n, docs[futures[fut]].title)
        except BaseException:
            pool.shutdown(wait=False, cancel_futures=True)
            raise
        # Joined, not left running: an executor shut down without waiting keeps its manager
        # thread, and at interpreter exit CPython 3.11 may wake it through a pipe that thread
        # has just closed ("Bad file descriptor" printed after `sverka check A B C`).
        pool.shutdown(wait=True)
    return out  # type: ignore[return-value]


def check_files(
    path: str | Path,
    files: Sequence[str | Path],
    settings: Settings,
    *,
    load: Callable[[str], Document],
    serial: Callable[[Document], CheckResult],
    cross: bool = False,
    workers: int | None = None,
    progress: Progress = no_progress,
    cancel: CancelToken = NEVER_CANCELLED,
) -> BatchResult:
    """A class of essays checked against the collection at ``path`` (and, with ``cross``,
    against each other): every file read by ``load`` (the sandboxed reader), every readable
    one checked by :func:`check_many`. A file that cannot be read is an item with its
    ``error`` (the file and the reason) and the rest goes on; items keep the order given.

    Progress steps: one per file read, one per essay checked, one for the cross-check."""
    files = [str(f) for f in files]
    n = len(files)
    steps = 2 * n + (1 if cross else 0)
    workers = _workers_for(n, workers)
    pool = _start_pool(path, settings, workers) if workers >= 2 else None  # starts while the files are read
    try:
        return _check_files(path, files, settings, load, serial, cross, pool, workers, progress, cancel, steps)
    except BaseException:
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)
        raise


def _check_files(path, files, settings, load, serial, cross, pool, workers, progress, cancel, steps) -> BatchResult:
    from .errors import SverkaError

    n = len(files)
    docs: list[Document | None] = []
    errors: list = []  # None, or why the file could not be read (a Message, worded by each face)
    for k, f in enumerate(files):
        cancel.raise_if_cancelled()
        progress(k, steps, os.path.basename(f))
        try:
            docs.append(load(f))
            errors.append(None)
        except SverkaError as e:
            docs.append(None)
            errors.append(getattr(e, "message", None) or str(e))
    readable = [d for d in docs if d is not None]
    results = check_many(path, readable, settings, serial=serial, cancel=cancel, pool=pool,
                         workers=workers,
                         progress=lambda done, total, msg: progress(n + done, steps, msg))
    crossed = None
    if cross and len(readable) >= 2:
        from .check import crosscheck_documents

        progress(2 * n, steps, "")
        crossed = crosscheck_documents(readable, settings, load=load, cancel=cancel)
    progress(steps, steps, "")
    it = iter(results)
    items = tuple(BatchItem(path=f, result=None if d is None else next(it), error=e)
                  for f, d, e in zip(files, docs, errors))
    return BatchResult(items=items, cross=crossed, settings=settings)


def report_names(paths: Sequence[str], kind: str) -> list[str]:
    """A report file name per essay: the essay's name with ``.kind``; clashes (two
    ``essay.docx`` in different folders, ``a.txt`` beside ``a.pdf``) get ``-2``, ``-3``..."""
    taken: set[str] = set()
    out = []
    for p in paths:
        stem = Path(p).stem or "essay"
        name = f"{stem}.{kind}"
        n = 2
        while name.casefold() in taken:
            name = f"{stem}-{n}.{kind}"
            n += 1
        taken.add(name.casefold())
        out.append(name)
    return out


def write_reports(
    batch: BatchResult,
    folder: str | Path,
    kind: str = "html",
    *,
    lang: str | None = "en",
    progress: Progress = no_progress,
    cancel: CancelToken = NEVER_CANCELLED,
) -> list[Path]:
    """One report per checked essay (``kind`` "html" or "pdf"), named after the essay, in
    ``folder`` (created if missing); unreadable essays get none. Returns the files written."""
    from . import report

    if kind not in ("html", "pdf"):
        raise ValueError(f"unknown report kind {kind!r}")
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    items = [it for it in batch.items if it.result is not None]
    written = []
    for k, (item, name) in enumerate(zip(items, report_names([it.path for it in items], kind))):
        cancel.raise_if_cancelled()
        progress(k, len(items), name)
        target = folder / name
        if kind == "pdf":
            report.render_pdf(item.result, target, lang=lang)
        else:
            target.write_text(report.render_html(item.result, lang=lang), encoding="utf-8")
        written.append(target)
    progress(len(items), len(items), "")
    return written
