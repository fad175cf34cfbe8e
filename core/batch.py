"""Checking many suspects against one collection on every core.

:func:`check_many` gives exactly what checking the suspects one by one gives, in the same
order: each suspect is checked by :func:`sverka.core.check.check_document` (the same code
as a single check) in a worker process (spawned, as the index's workers are) that opened the
collection once. One core, fewer than :data:`MIN_PARALLEL` suspects or fewer than
:func:`parallel_chars` characters of them in all: no workers at all.

Threads instead of workers (:func:`check_threads`): when the caller can open a checker of its
own for each thread (``threaded``), suspects too few or too short for workers to pay off are
checked by one thread per core in this process instead of one by one, each thread on its own
connection to the collection, all sharing the caller's source cache. The engine's alignment
and the meaning layer's encoder (numpy's products: most of a check with the layer on) release
the GIL; threads start nothing, load the dictionaries and the encoder once, and send no results
between processes. Measured on two cores (docs/BENCHMARKS.md, "A class in threads"): 30 essays
of 20 KB, the layer on, 2.8-3.1 s against 4.6-5.2 s one by one; more text than
:func:`parallel_chars` stays with workers (300 fragments of ruslit, mostly copied, so mostly
Python's work under the GIL: 5.1-6.1 s in workers against 6.8-7.8 s in threads).

Workers kept (``keep_workers=True``, the window's classes): the pool is not shut down after a
class but kept for the next class against the same collection file (or server), so only the
first class pays for starting the workers (~1-3 s of CPU, and the start-up stalls of the
process that starts them); :func:`close_workers` ends them (the window calls it when it
closes and after :data:`KEPT_IDLE_SECONDS` without a class). Without it (the command line)
the pool is joined when the call ends.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Sequence
from contextlib import contextmanager
from pathlib import Path

from .document import Document
from .progress import NEVER_CANCELLED, CancelToken, Progress, no_progress
from .results import BatchItem, BatchResult, CheckResult, CrossCheckResult
from .settings import Settings
from .sourcecache import SourceCache
# The API imports this module at its start: imports inside functions below keep the workers,
# the checker and the reports off that start until a class needs them (down the layers).

__all__ = ["KEPT_IDLE_SECONDS", "MIN_PARALLEL", "MIN_PARALLEL_CHARS", "TWO_CORES_PARALLEL_CHARS", "check_files",
           "check_many", "check_threads", "close_workers", "cores", "kept_workers", "parallel_chars", "prepare_workers", "report_names",
           "with_classmates", "write_reports"]

_worker: dict = {}
#: Fewer suspects than this are checked in this process unless ``workers`` is given (or
#: workers kept for the collection are already running).
MIN_PARALLEL = 4
#: Nor are suspects holding fewer characters than this in all (when their texts are known):
#: a worker takes about half a second to start (imports, dictionaries, the collection), which
#: a batch of short answers never wins back. Measured from the command line on two cores:
#: 95 answers of 1 600 characters 0.79-0.90 s in one process against 0.95-1.02 s with two
#: workers; fragments of ruslit, 73 000 characters 1.0-1.07 against 1.13-1.26 s, 140 000 even,
#: 270 000 2.0-2.1 against 1.85 s (docs/BENCHMARKS.md).
MIN_PARALLEL_CHARS = 200_000
#: ... and on two cores this many, since the checks moved into the compiled engine: a class of
#: 30 essays (344 000 characters) took 1.34 s of CPU in one process against 2.28 s with two
#: workers (their start-up, each preparing its own sources, results pickled back), 45 essays
#: (518 000) 2.04 s against 3.57 s; the second core never gave back what they cost
#: (bench/bench_class.py, docs/BENCHMARKS.md "Fixed costs"). More cores: not measured again.
TWO_CORES_PARALLEL_CHARS = 600_000
#: How long a face may keep idle workers before it calls :func:`close_workers` (each holds
#: the dictionaries, ~150-250 MB).
KEPT_IDLE_SECONDS = 600


def cores() -> int:
    """The workers a class uses: one per usable core (:func:`sverka.core.workers.usable_cores`)."""
    from .workers import usable_cores

    return usable_cores()


#: How much nicer than their parent the workers run: a busy machine gives the window (or the
#: terminal) the CPU first, so it stays answerable while both cores check essays.
WORKER_NICENESS = 10


def _init(path: str, parent: int | None = None, niceness: int | None = None) -> None:
    from .store import open_store
    from .workers import die_with_parent

    die_with_parent(parent)
    _nicer(0, _worker_niceness() if niceness is None else niceness)  # usually done by the parent already

    _worker["index"] = open_store(path, None)  # the collection's own indexing settings
    _worker["sources"] = SourceCache()
    from .text import canonize

    canonize("Проверка словарей. Перевірка словників: їжак. Checking the dictionaries.")  # load them now


def _ready() -> int:
    """Submitted once per worker so the pool starts its processes at once."""
    return os.getpid()


def _start_pool(path: str | Path, workers: int):
    """Worker processes that opened the collection, starting now (their start-up, ~1-3 s,
    overlaps whatever the caller does next). Started from the workers' starter thread: a kept
    pool outlives the job's thread that asked for it (:func:`sverka.core.workers.start_kept`)."""
    from .workers import start_kept

    return start_kept(_start_pool_here, path, workers)


def _start_pool_here(path: str | Path, workers: int):
    from .workers import process_pool

    niceness = _worker_niceness()
    pool = process_pool(workers, _init, (str(path), os.getpid(), niceness))
    for _ in range(workers):
        pool.submit(_ready)
    # Nice from their first instruction, not only from _init: a new interpreter's start-up and
    # imports (~0.5 s of CPU each) would otherwise compete with the window at its priority.
    for pid in list(getattr(pool, "_processes", None) or ()):
        _nicer(pid, niceness)
    return pool


def _worker_niceness() -> int:
    """The niceness of the workers: :data:`WORKER_NICENESS` more than this process's."""
    try:
        return min(19, os.getpriority(os.PRIO_PROCESS, 0) + WORKER_NICENESS)
    except (AttributeError, OSError):  # pragma: no cover - not POSIX
        return WORKER_NICENESS


def _nicer(pid: int, niceness: int) -> None:
    """Make process ``pid`` (0: this one) at least ``niceness`` nice."""
    try:
        if os.getpriority(os.PRIO_PROCESS, pid) < niceness:
            os.setpriority(os.PRIO_PROCESS, pid, niceness)
    except (AttributeError, OSError):  # pragma: no cover - not POSIX, or the process has ended
        pass


def _collection_key(path: str | Path) -> tuple:
    """What a kept pool serves: the server's URL, or the collection file itself (a file
    replaced at the same path, e.g. rebuilt, is another collection: its workers would hold
    the old one open)."""
    from .store import is_server_url

    if is_server_url(path):
        return (str(path),)
    name = os.path.abspath(os.fspath(path))
    try:
        st = os.stat(name)
    except OSError:
        return (name,)
    return (name, st.st_dev, st.st_ino)


class _Kept:
    """The one pool kept between classes, with how many calls are using it."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.key: tuple | None = None
        self.pool = None
        self.users = 0


_kept = _Kept()


def kept_workers() -> int:
    """How many worker processes are kept (0: none), for tests and the faces' status."""
    with _kept.lock:
        pool = _kept.pool
        return 0 if pool is None else len(getattr(pool, "_processes", None) or {})


def _shutdown(pool) -> None:
    # Joined, not left running: an executor shut down without waiting keeps its manager
    # thread, and at interpreter exit CPython 3.11 may wake it through a pipe that thread
    # has just closed ("Bad file descriptor" printed after `sverka check A B C`).
    pool.shutdown(wait=True, cancel_futures=True)


def close_workers() -> bool:
    """End the kept workers (joined); False if a class is using them (they are ended when it
    is done). Safe to call at any time, also when none are kept."""
    with _kept.lock:
        pool, users = _kept.pool, _kept.users
        if pool is None:
            return True
        _kept.key = None  # not offered to the next class
        if users:
            return False
        _kept.pool = None
    _shutdown(pool)
    return True


def prepare_workers(path: str | Path) -> bool:
    """Start (or keep) the workers for the collection at ``path`` now, as a class would with
    ``keep_workers=True``; False on one core (no workers)."""
    if cores() < 2:
        return False
    with _kept_pool(path, cores(), start=True) as pool:
        return pool is not None


@contextmanager
def _kept_pool(path: str | Path, workers: int, start: bool):
    """The kept pool serving the collection at ``path`` (started with ``workers`` processes if
    none is and ``start``), or None; kept for the next call unless it broke."""
    key = _collection_key(path)
    old = None
    with _kept.lock:
        if _kept.pool is not None and not _kept.users and getattr(_kept.pool, "_broken", False):
            old, _kept.key, _kept.pool = _kept.pool, None, None  # a worker died while idle (killed, out of memory)
        if _kept.key != key or _kept.pool is None:
            if not start:
                pool = None
            else:
                if _kept.pool is not None and not _kept.users:
                    old = old or _kept.pool
                pool = _start_pool(path, workers) if _kept.users == 0 else None
                if pool is not None:
                    _kept.key, _kept.pool = key, pool
        else:
            pool = _kept.pool
        if pool is not None:
            _kept.users += 1
    if old is not None:
        _shutdown(old)
    if pool is None:
        yield None
        return
    broken = False
    try:
        yield pool
    except BaseException as e:
        import concurrent.futures.process as cfp

        broken = isinstance(e, cfp.BrokenProcessPool)
        raise
    finally:
        with _kept.lock:
            _kept.users -= 1
            end = pool if (broken or _kept.key is None) and _kept.pool is pool and not _kept.users else None
            if end is not None:
                _kept.key = _kept.pool = None
        if end is not None:
            _shutdown(end)


def _workers_for(n: int, workers: int | None, chars: int | None = None) -> int:
    """Workers for ``n`` suspects of ``chars`` characters in all (None: not known yet)."""
    if workers is None:  # starting the workers costs ~1-2 s of CPU: worth it for enough text only
        enough = n >= MIN_PARALLEL and (chars is None or chars >= parallel_chars())
        workers = cores() if enough else 1
    return min(workers, n)


def threads_for(n: int) -> int:
    """Threads :func:`check_threads` checks ``n`` suspects in: one per usable core, at most one
    per suspect; 1 (no threads) on one core or for a single suspect."""
    return max(1, min(cores(), n))


#: Makes a checker of one thread: (check one document, close what it opened). Called in the
#: thread that will use it; the first thread uses the caller's own ``serial`` instead.
Checker = Callable[[], tuple[Callable[[Document], CheckResult], Callable[[], None]]]


def check_threads(docs: Sequence[Document], serial: Callable[[Document], CheckResult], threaded: Checker,
                  threads: int, progress: Progress = no_progress,
                  cancel: CancelToken = NEVER_CANCELLED) -> list[CheckResult]:
    """``docs`` checked by ``threads`` threads of this process, results in the order of ``docs``
    (each is what its own check gives: the same code, the same collection, the same cache of
    prepared sources). One thread checks with ``serial`` (the caller's connection, idle while the
    caller waits here), the others each with a checker ``threaded`` makes for it. Progress and
    the cancel are seen from the caller's thread, every 0.1 s at least; on an error or a cancel
    the documents not started are dropped and the call returns when the checks under way have
    ended (they see the same cancel), so nothing uses the caller's connection after it."""
    import concurrent.futures as cf

    n = len(docs)
    out: list[CheckResult | None] = [None] * n
    lock = threading.Lock()
    own = threading.local()
    opened: list[Callable[[], None]] = []
    first = [True]

    def check(k: int) -> CheckResult:
        run = getattr(own, "check", None)
        if run is None:
            with lock:
                mine, first[0] = first[0], False
            if mine:
                run = serial
            else:
                run, close = threaded()
                with lock:
                    opened.append(close)
            own.check = run
        cancel.raise_if_cancelled()
        return run(docs[k])

    pool = cf.ThreadPoolExecutor(threads, thread_name_prefix="sverka-class")
    try:
        futures = {pool.submit(check, k): k for k in range(n)}
        pending = set(futures)
        done = 0
        while pending:  # wake up every 0.1 s so a cancel does not wait for a slow essay
            finished, pending = cf.wait(pending, timeout=0.1, return_when=cf.FIRST_COMPLETED)
            cancel.raise_if_cancelled()
            for fut in sorted(finished, key=futures.__getitem__):
                out[futures[fut]] = fut.result()
                done += 1
                progress(done, n, docs[futures[fut]].title)
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
        for close in opened:
            try:
                close()
            except Exception:  # noqa: BLE001 - a connection that will not close is given up
                pass
    progress(n, n, "")
    return out  # type: ignore[return-value]


def parallel_chars() -> int:
    """Characters of suspects from which :func:`check_many` spreads them over workers on this
    machine: :data:`TWO_CORES_PARALLEL_CHARS` on two cores, else :data:`MIN_PARALLEL_CHARS`."""
    return TWO_CORES_PARALLEL_CHARS if cores() == 2 else MIN_PARALLEL_CHARS


#: In a worker: the batch it is checking and the SHA-256 of the source texts it has already
#: sent back in that batch's results.
_SENT: list = [None, set()]


def _check_one(doc: Document, settings: Settings, batch: str | None = None) -> CheckResult:
    """``doc`` checked in a worker. With a ``batch`` name, a source text this worker has already
    sent in a result of that batch is sent again as ``""`` (its SHA-256 stays): essays of a
    class share their sources, and each result carried each whole source again, to be decoded
    in the parent and kept there once per essay. :func:`_with_texts` puts them back."""
    import dataclasses

    from .check import check_document

    result = check_document(_worker["index"], doc, settings, cache=_worker["sources"])
    if batch is None or not result.sources:
        return result
    if _SENT[0] != batch:
        _SENT[:] = [batch, set()]
    sent: set = _SENT[1]
    sources = tuple(dataclasses.replace(s, text="") if s.sha256 in sent and s.text else s for s in result.sources)
    sent.update(s.sha256 for s in result.sources if s.text)
    return dataclasses.replace(result, sources=sources)


def _with_texts(result: CheckResult, texts: dict[str, str]) -> CheckResult | None:
    """``result`` (from :func:`_check_one`) with each source's text, one ``str`` per text for
    the whole batch (``texts``: SHA-256 -> text, from the results that carried them); ``None``
    if a text left out is not there (the result that carried it was lost)."""
    import dataclasses

    sources, changed = [], False
    for s in result.sources:
        if s.excerpts is not None:  # a long source's excerpts: its own, always sent
            sources.append(s)
            continue
        kept = texts.get(s.sha256)
        if kept is None:
            if not s.text and s.sha256 != _EMPTY_SHA256:
                return None
            kept = texts[s.sha256] = s.text
        if s.text is not kept:
            s, changed = dataclasses.replace(s, text=kept), True
        sources.append(s)
    return dataclasses.replace(result, sources=tuple(sources)) if changed else result


_EMPTY_SHA256 = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"


def check_many(
    path: str | Path,  # a collection file or a PostgreSQL URL
    docs: Sequence[Document],
    settings: Settings,
    *,
    serial: Callable[[Document], CheckResult],
    workers: int | None = None,
    progress: Progress = no_progress,
    cancel: CancelToken = NEVER_CANCELLED,
    keep_workers: bool = False,
    pool=None,
    threaded: Checker | None = None,
) -> list[CheckResult]:
    """Check ``docs`` against the collection at ``path``; results in the order of ``docs``.

    ``serial`` checks one document in this process (used when workers would not pay off);
    ``workers`` (processes) defaults to the number of usable cores (at most the number of
    documents) from :data:`MIN_PARALLEL` documents and :func:`parallel_chars` characters on,
    else 1. When no workers are used and none were asked for, ``threaded`` (a maker of a
    checker on a connection of its own) has the documents checked in threads
    (:func:`check_threads`) on a machine of several cores.
    ``keep_workers``: use the workers kept for this collection (any number of documents) or
    start them and keep them (see the module's docstring). ``pool``: workers already started (by the caller, who ends them)."""
    n = len(docs)
    if pool is not None:
        return _check_in(pool, docs, settings, progress, cancel)
    asked = workers
    workers = _workers_for(n, workers, sum(len(d.text) for d in docs))
    if keep_workers:
        with _kept_pool(path, max(workers, cores()), start=workers >= 2) as kept:
            if kept is not None:
                return _check_in(kept, docs, settings, progress, cancel)
    if workers < 2 and asked is None and threaded is not None and threads_for(n) >= 2:
        return check_threads(docs, serial, threaded, threads_for(n), progress, cancel)
    if workers < 2:
        out = []
        for k, doc in enumerate(docs):
            cancel.raise_if_cancelled()
            progress(k, n, doc.title)
            out.append(serial(doc))
        progress(n, n, "")
        return out
    own = _start_pool(path, workers)
    try:
        out = _check_in(own, docs, settings, progress, cancel)
    except BaseException:
        own.shutdown(wait=False, cancel_futures=True)  # a cancel does not wait for the essays being checked
        raise
    _shutdown(own)
    return out


def _check_in(pool, docs: Sequence[Document], settings: Settings, progress: Progress,
              cancel: CancelToken) -> list[CheckResult]:
    """Every document checked in ``pool``'s workers; on an error or a cancel the documents
    not started are dropped (the pool itself is left to its owner)."""
    import concurrent.futures as cf
    import secrets

    n = len(docs)
    out: list[CheckResult | None] = [None] * n
    batch = secrets.token_hex(8)
    futures = {pool.submit(_check_one, doc, settings, batch): k for k, doc in enumerate(docs)}
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
        for fut in pending:
            fut.cancel()
        raise
    # the texts are put back once every result is in: which worker sent a text first does not matter
    texts: dict[str, str] = {}
    for result in out:
        for s in result.sources:  # type: ignore[union-attr]
            if s.text or s.sha256 == _EMPTY_SHA256:
                texts.setdefault(s.sha256, s.text)
    lacking = []
    for k, result in enumerate(out):
        filled = _with_texts(result, texts)  # type: ignore[arg-type]
        if filled is None:
            lacking.append(k)
        out[k] = filled
    for k in lacking:  # not expected (a result arrives or fails the batch): checked again, every text sent
        out[k] = _with_texts(pool.submit(_check_one, docs[k], settings).result(), texts)
    progress(n, n, "")
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
    keep_workers: bool = False,
    threaded: Checker | None = None,
) -> BatchResult:
    """A class of essays checked against the collection at ``path`` (and, with ``cross``,
    against each other): every file read by ``load`` (the sandboxed reader), every readable
    one checked by :func:`check_many`. A file that cannot be read is an item with its
    ``error`` (the file and the reason) and the rest goes on; items keep the order given.
    ``keep_workers`` and ``threaded`` as for :func:`check_many`: with ``threaded`` and no
    ``workers`` asked for, the files are read first and the amount of their text decides
    between workers (kept ones with ``keep_workers``) and threads; else workers start while
    the files are read, from :data:`MIN_PARALLEL` files on.

    Progress steps: one per file read, one per essay checked, one for the cross-check."""
    files = [str(f) for f in files]
    n = len(files)
    steps = 2 * n + (1 if cross else 0)
    if workers is None and threaded is not None:
        # threads or workers by the amount of text: known once the files are read (in the
        # reader's processes, while this process loads the meaning layer's encoder the
        # threads would use)
        from .bymeaning import load_beside

        load_beside(settings)
        docs, errors = _read_files(files, load, progress, cancel, steps)
        readable = [d for d in docs if d is not None]

        def check(pool) -> list[CheckResult]:
            return check_many(path, readable, settings, serial=serial, cancel=cancel, pool=pool, threaded=threaded,
                              progress=lambda done, total, msg: progress(n + done, steps, msg))

        if _workers_for(len(readable), None, sum(len(d.text) for d in readable)) < 2:
            results = check(None)  # threads (or one by one)
        elif keep_workers:
            with _kept_pool(path, cores(), start=True) as kept:
                results = check(kept)
        else:
            own = _start_pool(path, _workers_for(len(readable), None))
            try:
                results = check(own)
            except BaseException:
                own.shutdown(wait=False, cancel_futures=True)  # a cancel does not wait for the essays being checked
                raise
            _shutdown(own)
        return _batch(files, docs, errors, results, settings, cross, progress, cancel, steps)
    workers = _workers_for(n, workers)
    args = (path, files, settings, load, serial, cross)
    if keep_workers:  # the kept workers, or new ones starting while the files are read
        with _kept_pool(path, max(workers, cores()), start=workers >= 2) as kept:
            return _check_files(*args, kept, progress, cancel, steps)
    pool = _start_pool(path, workers) if workers >= 2 else None  # starts while the files are read
    try:
        batch = _check_files(*args, pool, progress, cancel, steps)
    except BaseException:
        if pool is not None:  # a cancel does not wait for the essays being checked
            pool.shutdown(wait=False, cancel_futures=True)
        raise
    if pool is not None:
        _shutdown(pool)
    return batch


def _read_files(files: list[str], load, progress: Progress, cancel: CancelToken,
                steps: int) -> tuple[list[Document | None], list]:
    """Every file read by ``load``: (the documents, None where a file could not be read; why not,
    None where it could: a Message, worded by each face)."""
    from .errors import SverkaError

    docs: list[Document | None] = []
    errors: list = []
    for k, f in enumerate(files):
        cancel.raise_if_cancelled()
        progress(k, steps, os.path.basename(f))
        try:
            docs.append(load(f))
            errors.append(None)
        except SverkaError as e:
            docs.append(None)
            errors.append(getattr(e, "message", None) or str(e))
    return docs, errors


def _check_files(path, files, settings, load, serial, cross, pool, progress, cancel, steps) -> BatchResult:
    n = len(files)
    docs, errors = _read_files(files, load, progress, cancel, steps)
    readable = [d for d in docs if d is not None]
    results = check_many(path, readable, settings, serial=serial, cancel=cancel, pool=pool, workers=1,
                         progress=lambda done, total, msg: progress(n + done, steps, msg))
    return _batch(files, docs, errors, results, settings, cross, progress, cancel, steps)


def _batch(files, docs, errors, results, settings, cross, progress, cancel, steps) -> BatchResult:
    """The class's result: the items in the order of ``files``; with ``cross``, the readable
    essays compared with each other too (:func:`with_classmates`)."""
    n = len(files)
    readable = [d for d in docs if d is not None]
    crossed = None
    if cross and len(readable) >= 2:
        progress(2 * n, steps, "")
        results, crossed = with_classmates(readable, results, settings, cancel=cancel)
    progress(steps, steps, "")
    it = iter(results)
    items = tuple(BatchItem(path=f, result=None if d is None else next(it), error=e)
                  for f, d, e in zip(files, docs, errors))
    return BatchResult(items=items, cross=crossed, settings=settings)


def _no_load(path: str) -> Document:  # pragma: no cover - documents are given read
    raise ValueError(path)


def with_classmates(docs: Sequence[Document], results: Sequence[CheckResult], settings: Settings, *,
                    cancel: CancelToken = NEVER_CANCELLED) -> tuple[list[CheckResult], "CrossCheckResult"]:
    """The essays of a class (``docs``, each checked against the collection: ``results``)
    compared with each other too: each result with the classmates it shares text with among
    its sources (``SourceMatch.classmate``; counted unless ``Settings.count_classmates`` is
    off), and the cross-check of the class. A collection document that is another essay of
    the class itself (the same text or path: the class archived and checked again) gives way
    to the classmate. The text most of the class shares at its opening (the assignment everyone
    pasted: ``CheckResult.class_common``) is shown in the classmates' passages but not counted
    (``Settings.exclude_class_common``)."""
    import dataclasses

    from .crosscheck import classmate_sources, crosscheck_prepared
    from .exclusions import apply_exclusions

    crossed, prepared, aligned = crosscheck_prepared(list(docs), settings, load=_no_load, cancel=cancel)
    extra = classmate_sources(crossed, prepared, settings, aligned)
    out = []
    for k, (doc, result) in enumerate(zip(docs, results)):
        others = [d for m, d in enumerate(docs) if m != k]
        shas = {d.sha256 for d in others}
        paths = {d.path for d in others if d.path}
        kept = tuple(s for s in result.sources
                     if s.classmate or not (s.sha256 in shas or (s.path is not None and s.path in paths)))
        common = crossed.class_common[k] if crossed.class_common else ()
        if not extra[k] and len(kept) == len(result.sources):
            out.append(result)
            continue
        changed = dataclasses.replace(result, sources=kept + tuple(extra[k]), class_common=common)
        out.append(apply_exclusions(changed, result.settings))
    return out, crossed


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
