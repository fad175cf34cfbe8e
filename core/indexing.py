"""Adding files to a collection: walk -> extract -> canonize -> fingerprint -> store.

:func:`add_paths` walks folders (sorted, only ``SUPPORTED_SUFFIXES``, symlink loops and
unreadable folders reported, never followed twice), runs extraction + canonization +
fingerprints in worker processes (:mod:`sverka.core.workers`, one a core; with the meaning
layer one until the reading is what the add waits for: :class:`Pace`), and writes in this
process only, through the store protocol (:meth:`sverka.core.store.Store.write_batch`), one
transaction per batch (:data:`BATCH_TEXT_BYTES` of text or :data:`BATCH_FILES` files).
Cancelling returns an :class:`AddSummary` with ``cancelled=True`` listing only what was
committed (it does not raise Cancelled): the interrupted batch is dropped whole.

Worker processes start with ``START_METHOD`` ("spawn", from :mod:`.workers`) everywhere, safe
under a GUI with threads. Programs that add folders must therefore guard their main module
(``if __name__ == "__main__":``) and a frozen bundle must call
``multiprocessing.freeze_support()`` first thing.
"""

from __future__ import annotations

import os
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING, Iterable, Iterator

from . import bymeaning, formcache, vectorindex
from .document import Document
from .errors import ExtractError, SverkaError
from .files import collect as _collect
from .fingerprints import fingerprint_document
from .limits import read_limits
from .messages import message
from .preparing import prepare, prepare_file_handing_forms, with_vectors
from .progress import NEVER_CANCELLED, CancelToken, Progress, no_progress
from .results import AddSummary
from .settings import Settings
from .store.common import PreparedDocument
from .text import canonize
from .workers import (CPUTimeUp, default_workers, limit_cpu, memory_failure, pool_initializer, process_pool,
                      shared_sandbox, trim_memory)

if TYPE_CHECKING:  # pragma: no cover
    from .store import Store

__all__ = ["BATCH_FILES", "BATCH_TEXT_BYTES", "PACE_SLACK", "Pace", "add_document", "add_paths"]

BATCH_TEXT_BYTES = 1_000_000  # UTF-8 bytes of extracted text per committed batch (texts and tokens are stored uncompressed)
BATCH_FILES = 50


def _prepare_file_in_worker(path: str, size: int, mtime: float, settings: Settings) -> tuple[str, object, tuple]:
    """:func:`~sverka.core.preparing.prepare_file` under the time limit, then hand the file's memory back to the
    system, so two workers do not both sit at the high-water mark of the largest file.
    With the result go the word forms the worker analysed for it
    (:func:`~sverka.core.preparing.prepare_file_handing_forms`).

    A file over the time limit ends this worker (a C-level loop cannot be interrupted
    otherwise); the pool retries it alone and reports it with the limits."""
    done = threading.Event()

    def watchdog() -> None:
        if not done.wait(read_limits()[1]):
            os._exit(3)

    threading.Thread(target=watchdog, daemon=True).start()
    seconds = read_limits()[1]
    limit_cpu(seconds)  # a reader that computes is stopped here, its worker kept
    try:
        return prepare_file_handing_forms(path, size, mtime, settings)
    except CPUTimeUp:
        limit_cpu(seconds)  # no second SIGXCPU while answering
        return "failed", message("error.read_time_limit", seconds=f"{seconds:g}"), ()
    finally:
        done.set()
        trim_memory()


#: Seconds the adding thread may wait for its readers beyond what it waited for its writer
#: before an add that started with one reader takes the others (:class:`Pace`).
PACE_SLACK = 1.0


class Pace:
    """Where an add spends its waiting once its first batch went to the writer: for the readers
    (``reading``, seconds) or for the writer (``writing``).

    With the meaning layer on, the adding process encodes each batch's sentences on every core
    while the next batch is read: for essays and articles (every sentence encoded) the encoding
    is several times the reading, and a second reader process only shares the cores with it
    (ruslit: the same wall time with one reader or two) while holding ~85 MB more. So an add
    with the layer starts with one reader and takes the others (:func:`_prepared`) as soon as
    it has waited for reading longer than for writing by :data:`PACE_SLACK`: books, which get
    no vectors when they are added, or a layer that cannot encode here."""

    def __init__(self) -> None:
        self.started = False
        self.reading = 0.0
        self.writing = 0.0

    def readers_behind(self) -> bool:
        return self.started and self.reading > self.writing + PACE_SLACK


def _prepared(jobs: list[tuple[str, int, float]], settings: Settings, workers: int, pace: Pace | None = None
              ) -> Iterator[tuple[tuple[str, int, float], str, object]]:
    """Yield ``(job, status, payload)`` for every job, in order; worker processes when ``workers > 1``:
    one process pool each, all of them at once, or (``pace`` given) one until ``pace`` says the
    readers are behind (:class:`Pace`).

    At most ``3`` files a worker are in flight, so memory stays bounded. A worker that dies
    (a crash in a reader) costs new pools; the file is then retried alone, and reported
    as failed if it kills that one too. Closing the generator stops the pools at once.
    """
    if workers <= 1:  # the warm sandboxed reader: no pool start-up for a few files
        sandbox = shared_sandbox()
        for job in jobs:
            try:
                status, payload, forms = sandbox.call("prepare", *job, settings)
                formcache.adopt(forms)
                result = (status, payload)
            except ExtractError as e:
                result = ("failed", e.message)
            except SverkaError as e:
                result = ("failed", message("error.unreadable", detail=str(e)))
            yield (job, *result)
        return
    from collections import deque
    from concurrent.futures.process import BrokenProcessPool

    def start(count: int) -> list:
        return [process_pool(1, pool_initializer, (os.getpid(),)) for _ in range(count)]

    def stop(pools: list, wait: bool = False) -> None:
        for p in pools:
            p.shutdown(wait=wait, cancel_futures=True)

    todo = deque(jobs)
    pools = start(1 if pace is not None else workers)
    pending: deque = deque()  # (job, future, the pool's place in pools)
    solo = False  # after a crash: run the next file alone to find the culprit
    crashes = 0
    try:
        while todo or pending:
            if crashes >= 3:  # the pools themselves cannot work here: go on in this process
                stop(pools)
                todo.extendleft(reversed([j for j, _, _ in pending]))
                pending.clear()
                yield from _prepared(list(todo), settings, 1)
                return
            if len(pools) < workers and pace is not None and pace.readers_behind():
                pools += start(workers - len(pools))
            while todo and len(pending) < (1 if solo else 3 * len(pools)):
                job = todo.popleft()
                loads = [0] * len(pools)
                for _, _, k in pending:
                    loads[k] += 1
                k = loads.index(min(loads))
                pending.append((job, pools[k].submit(_prepare_file_in_worker, *job, settings), k))
            job, fut, _ = pending.popleft()
            try:
                waited = time.perf_counter()
                status, payload, forms = fut.result()
                if pace is not None and pace.started:
                    pace.reading += time.perf_counter() - waited
                formcache.adopt(forms)
            except BrokenProcessPool:
                crashes += 1
                stop(pools)
                pools = start(len(pools))
                if solo:
                    mem = read_limits()[0]
                    why = shared_sandbox().diagnose(job[0])
                    status, payload = "failed", memory_failure(job[0], mem, why).message
                    solo = False
                else:
                    todo.extendleft(reversed([job] + [j for j, _, _ in pending]))
                    pending.clear()
                    solo = True
                    continue
            else:
                solo = False
            yield job, status, payload
    finally:  # wait for idle workers to exit; after a cancel do not wait for busy ones
        stop(pools, wait=not (todo or pending))


def add_paths(index: Store, paths: Iterable[str | Path], *, template: bool = False,
              progress: Progress = no_progress, cancel: CancelToken = NEVER_CANCELLED,
              workers: int | None = None, on_commit=None, follow_links: bool = False) -> AddSummary:
    """Add files and folders to the collection ``index`` (a store); see the module docstring.

    ``progress(done, total, message)`` is called once per file. ``cancel`` is checked between
    files: the batch being prepared is dropped and the summary (``cancelled=True``) lists
    only what earlier batches committed. ``on_commit(statuses)`` is called after each commit
    (tests use it). Raises CollectionBusy if another writer holds the collection too long.
    Its batches are one add for the store (:meth:`sverka.core.store.Store.adding`).
    """
    with index.adding():
        return _add_paths(index, paths, template=template, progress=progress, cancel=cancel, workers=workers,
                          on_commit=on_commit, follow_links=follow_links)


def _add_paths(index: Store, paths: Iterable[str | Path], *, template: bool, progress: Progress,
               cancel: CancelToken, workers: int | None, on_commit, follow_links: bool) -> AddSummary:
    index.require_writable()
    settings = index.settings
    failed: list[tuple[str, str]] = []
    progress(0, 0, "phase.looking_for_files")
    files = _collect(paths, failed, follow_links=follow_links)
    total = len(files)
    done = 0
    res: dict[str, list] = {"added": [], "updated": [], "unchanged": [], "duplicate": []}

    def write(items: list, batch_failed: list) -> None:
        statuses = index.write_batch(with_vectors(items), template=template) if items else []
        for status, name, detail in statuses:
            res[status].append((name, detail) if status == "duplicate" else name)
        failed.extend(batch_failed)
        items.clear()  # the batch's arrays go now, and their pages back to the system
        trim_memory()
        if on_commit is not None:
            on_commit(statuses)

    # A batch is written by one writer thread while the next is prepared: the readers are not
    # kept waiting for SQLite (a third of indexing's time on two cores was their waiting for
    # the adding process's commits). At most one batch is being written; a batch is handed
    # over only after the one before has committed, so batches commit in order, and a cancel
    # or a failure waits for the one in hand (its documents are committed and reported).
    writing: list = []
    pace = Pace()  # where the adding thread waits, for the readers or the writer

    def settle() -> None:
        """Wait for the batch being written; its failure is raised here."""
        if writing:
            waited = time.perf_counter()
            try:
                writing.pop().result()
            finally:
                pace.writing += time.perf_counter() - waited

    def commit(items: list, batch_failed: list) -> None:
        settle()
        if writer is None:
            write(items, batch_failed)
        else:
            writing.append(writer.submit(write, items, batch_failed))
            pace.started = True

    def summary(cancelled: bool) -> AddSummary:
        settle()
        return AddSummary(added=tuple(res["added"]), updated=tuple(res["updated"]),
                          unchanged=tuple(res["unchanged"]), duplicates=tuple(res["duplicate"]),
                          failed=tuple(failed), cancelled=cancelled)

    jobs: list[tuple[str, int, float]] = []
    unchanged: list[tuple[str, int]] = []
    u_paths: list[str] = []
    for path, size, mtime in files:
        known = index.stat_of(path)
        if known is not None and known[1] == size and known[2] == mtime:
            unchanged.append(("unchanged", known[0]))
            u_paths.append(path)
        else:
            jobs.append((path, size, mtime))
    writer = None
    if unchanged:
        if cancel.cancelled:
            return summary(True)
        if template:
            commit(unchanged, [])
        else:
            res["unchanged"].extend(u_paths)
        done = len(unchanged)
        progress(done, total, "phase.unchanged_skipped")

    if workers is None:
        big = len(jobs) >= 4 and sum(j[1] for j in jobs) >= 1_000_000
        workers = default_workers() if big else 1
    batch: list[PreparedDocument] = []
    batch_failed: list[tuple[str, str]] = []
    batch_bytes = 0
    gen = _prepared(jobs, settings, workers, pace if settings.find_by_meaning else None)
    if workers > 1:
        writer = ThreadPoolExecutor(1, thread_name_prefix="sverka-writer")
    try:
        for (path, _, _), status, payload in gen:
            if cancel.cancelled:
                return summary(True)
            done += 1
            if status == "ok":
                batch.append(payload)
                batch_bytes += payload.text_bytes
            else:
                batch_failed.append((path, payload))
            progress(done, total, os.path.basename(path))
            if batch_bytes >= BATCH_TEXT_BYTES or len(batch) + len(batch_failed) >= BATCH_FILES:
                commit(batch, batch_failed)
                batch, batch_failed, batch_bytes = [], [], 0
        if cancel.cancelled:
            return summary(True)
        commit(batch, batch_failed)
        settle()
    finally:
        gen.close()
        if writer is not None:
            writer.shutdown(wait=True)  # a batch in hand is committed before the add returns, whatever ended it
        try:  # the forms the readers analysed, for the checks that follow here or in another process
            formcache.flush()
        except OSError:  # a read-only or full disk: the table is only an optimisation
            pass
    if res["added"] or res["updated"]:
        index.analyze()
        if settings.find_by_meaning:
            update_vector_index(index)
    return summary(False)


def update_vector_index(index: Store) -> None:
    """Bring the collection's index of sentence vectors up to date after an add, so the next
    check does not build it (:mod:`sverka.core.vectorindex`: a cache; a failure here costs
    that check the time, never a result)."""
    if not bymeaning.available():
        return
    try:
        vectorindex.synced(index)
    except (OSError, RuntimeError, ValueError, ImportError):
        pass


def add_document(index: Store, doc: Document, *, template: bool = False) -> AddSummary:
    """Add one already extracted document (pasted text) in one transaction."""
    index.require_writable()

    tokens = canonize(doc.text, drop_adjectives=index.settings.drop_adjectives)
    fp = fingerprint_document(tokens, index.settings)
    size = len(doc.text.encode("utf-8", "surrogatepass"))
    if doc.path is not None:
        try:
            st = os.stat(doc.path)
            size, mtime = st.st_size, st.st_mtime
        except OSError:
            mtime = None
    else:
        mtime = None
    p = prepare(doc, tokens, fp, size_bytes=size, mtime=mtime,
                path=os.path.abspath(doc.path) if doc.path else None, meaning=index.settings.find_by_meaning)
    (status, name, detail), = index.write_batch(with_vectors([p]), template=template)
    if status == "duplicate":
        return AddSummary(duplicates=((name, detail),))
    return AddSummary(**{status: (name,)})
