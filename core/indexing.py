"""Adding files to a collection: walk -> extract -> canonize -> fingerprint -> store.

:func:`add_paths` walks folders (sorted, only ``SUPPORTED_SUFFIXES``, symlink loops and
unreadable folders reported, never followed twice), runs extraction + canonization +
fingerprints in a process pool (:mod:`sverka.core.workers`, both cores), and writes in this
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

import dataclasses
import os
from pathlib import Path
from typing import TYPE_CHECKING, Iterable, Iterator

import numpy as np

from . import bymeaning, formcache, vectorindex
from .document import Document
from .errors import SverkaError
from .files import collect as _collect
from .messages import message
from .progress import NEVER_CANCELLED, CancelToken, Progress, no_progress
from .results import AddSummary
from .settings import Settings
from .sorting import distinct
from .meaning import span_vectors, vector_spans
from .store.codecs import decode_text, encode_text, encode_tokens, i64
from .store.common import PreparedDocument
from .text import word_starts
from .tokens import Tokens
from .workers import default_workers, pool_initializer, process_pool, trim_memory

if TYPE_CHECKING:  # pragma: no cover
    from .store import Store

__all__ = ["BATCH_FILES", "BATCH_TEXT_BYTES", "add_document", "add_paths", "prepare", "with_vectors"]

BATCH_TEXT_BYTES = 1_000_000  # UTF-8 bytes of extracted text per committed batch (texts and tokens are stored uncompressed)
BATCH_FILES = 50
#: Documents of at least this many tokens keep their sort orders (:func:`sverka.core.align.sort_orders`)
#: with their tokens: sorting a novel of 15 000 tokens again costs a check ~0.6 ms, an essay
#: of 2 000 ~0.05 ms (numpy's stable sort, below :data:`sverka.core.sorting.SMALL`), less than
#: reading 8 bytes a token more would save, and an archive of essays stays as large as it was.
ORDERS_MIN_TOKENS = 4096


def prepare(doc: Document, tokens: Tokens, fp, *, size_bytes: int = 0,
            mtime: float | None = None, path: str | None = None, added: str | None = None,
            meaning: bool = False) -> PreparedDocument:
    """Pack a document, its tokens and its :class:`~sverka.core.fingerprints.DocumentFingerprints`
    for :meth:`~sverka.core.store.Store.write_batch`. ``added``: the date of adding to keep
    (a rebuild); None means now. ``meaning``: the sentences to give vectors of meaning are
    chosen (``vector_spans``); :func:`with_vectors` computes the vectors before writing."""
    from .align import sort_orders

    orders = sort_orders(tokens.hashes) if len(tokens) >= ORDERS_MIN_TOKENS else None
    words = fp.long_words
    short = distinct(i64(words))
    text_utf8 = len(doc.text.encode("utf-8", "surrogatepass"))
    path = path if path is not None else doc.path
    return PreparedDocument(
        path=path, title=doc.title or (Path(path).name if path else "Untitled"),
        format=doc.format, sha256=doc.sha256, chars=len(doc.text), words=int(tokens.word_count),
        size_bytes=int(size_bytes or text_utf8), mtime=mtime, language=tokens.language,
        warnings=tuple(doc.warnings) + tuple(w for w in tokens.warnings if w not in doc.warnings),
        text_blob=encode_text(doc.text), tokens_blob=encode_tokens(tokens, orders), text_bytes=text_utf8,
        pairs=i64(fp.pair_hashes).copy(),
        pair_pos=np.asarray(fp.pair_positions, dtype=np.int64).copy(),
        sentences=i64(fp.sentence_keys).copy(),
        sentence_pos=np.asarray(fp.sentence_key_positions, dtype=np.int64).copy(), short_words=short,
        short_length=len(short), added=added,
        vector_spans=vector_spans(tokens.sentence_spans, tokens.word_starts if tokens.word_starts is not None
                                  else word_starts(doc.text)) if meaning else None,
    )


def with_vectors(items: list) -> list:
    """``items`` (:class:`PreparedDocument` or ``("unchanged", id)``) with the vectors of
    meaning of every document whose sentences were chosen (``vector_spans``), encoded here,
    in the adding process, in one run for the batch.

    The readers encode their own files (:func:`_prepare_file`: the cores share the encoding as
    they share the reading, each reader process loading the encoder once, ~100 MB); what a
    reader could not encode, and a pasted text, are encoded here."""
    todo = [k for k, p in enumerate(items) if isinstance(p, PreparedDocument) and p.vector_spans is not None
            and p.vectors is None and len(p.vector_spans)]
    if not todo:
        return items
    texts = [decode_text(items[k].text_blob) for k in todo]
    joined, spans, at = [], [], 0
    for k, text in zip(todo, texts):
        joined.append(text)
        spans.append(items[k].vector_spans + at)
        at += len(text)
    vectors = span_vectors("".join(joined), np.concatenate(spans))
    out, pos = list(items), 0
    for k in todo:
        n = len(items[k].vector_spans)
        out[k] = dataclasses.replace(items[k], vectors=vectors[pos:pos + n])
        pos += n
    return out


def _prepare_file(path: str, size: int, mtime: float, settings: Settings) -> tuple[str, object]:
    """Extract, canonize and fingerprint one file: ``("ok", PreparedDocument)`` or ``("failed", reason)``.

    Runs in a worker process; never raises for a bad file (the batch goes on).
    """
    from .errors import ExtractError
    from .extract import extract
    from .fingerprints import fingerprint_document
    from .text import canonize

    try:
        doc = extract(path)
        tokens = canonize(doc.text, drop_adjectives=settings.drop_adjectives)
        fp = fingerprint_document(tokens, settings)
        p = prepare(doc, tokens, fp, size_bytes=size, mtime=mtime, path=path, meaning=settings.find_by_meaning)
        try:  # here, in the reader: the cores share the encoding as they share the reading
            p = with_vectors([p])[0]
        except Exception:  # noqa: BLE001 (memory, a damaged encoder): the adding process encodes it
            pass
        return "ok", p
    except ExtractError as e:
        return "failed", e.message
    except SverkaError as e:
        return "failed", message("error.unreadable", detail=str(e))
    except OSError as e:
        return "failed", message("error.unreadable", detail=f"cannot read: {e.strerror or e}")
    except MemoryError:
        return "failed", message("error.too_much_memory")
    except RecursionError:
        return "failed", message("error.too_deep")
    except Exception as e:  # a bug in Sverka: one file must not stop the batch
        return "failed", message("error.bug", detail=f"{type(e).__name__}: {e}")


def _prepare_file_in_worker(path: str, size: int, mtime: float, settings: Settings) -> tuple[str, object, tuple]:
    """:func:`_prepare_file` under the time limit, then hand the file's memory back to the
    system, so two workers do not both sit at the high-water mark of the largest file.
    With the result go the word forms the worker analysed for it
    (:func:`_prepare_file_handing_forms`).

    A file over the time limit ends this worker (a C-level loop cannot be interrupted
    otherwise); the pool retries it alone and reports it with the limits."""
    import threading

    from .workers import CPUTimeUp, limit_cpu, read_limits

    done = threading.Event()

    def watchdog() -> None:
        if not done.wait(read_limits()[1]):
            os._exit(3)

    threading.Thread(target=watchdog, daemon=True).start()
    seconds = read_limits()[1]
    limit_cpu(seconds)  # a reader that computes is stopped here, its worker kept
    try:
        return _prepare_file_handing_forms(path, size, mtime, settings)
    except CPUTimeUp:
        limit_cpu(seconds)  # no second SIGXCPU while answering
        return "failed", message("error.read_time_limit", seconds=f"{seconds:g}"), ()
    finally:
        done.set()
        trim_memory()


def _prepare_file_handing_forms(path: str, size: int, mtime: float, settings: Settings) -> tuple[str, object, tuple]:
    """:func:`_prepare_file` in a reader that writes no form table (a pool's worker, the
    sandboxed reader): then its table of raw forms trimmed (:func:`sverka.core.text.trim_table`)
    and the forms it analysed for the file handed over with the result, for the adding process
    to keep (:func:`sverka.core.formcache.take_new`)."""
    from .text import trim_table

    try:
        status, payload = _prepare_file(path, size, mtime, settings)
    finally:
        trim_table()
    return status, payload, formcache.take_new()




def _prepared(jobs: list[tuple[str, int, float]], settings: Settings, workers: int
              ) -> Iterator[tuple[tuple[str, int, float], str, object]]:
    """Yield ``(job, status, payload)`` for every job, in order; a pool when ``workers > 1``.

    At most ``3 * workers`` files are in flight, so memory stays bounded. A worker that dies
    (a crash in a reader) costs a new pool; the file is then retried alone, and reported
    as failed if it kills that one too. Closing the generator stops the pool at once.
    """
    from .errors import ExtractError
    from .workers import memory_failure, read_limits, shared_sandbox

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

    todo = deque(jobs)
    pool = process_pool(workers, pool_initializer, (os.getpid(),))
    pending: deque = deque()
    solo = False  # after a crash: run the next file alone to find the culprit
    crashes = 0
    try:
        while todo or pending:
            if crashes >= 3:  # the pool itself cannot work here: go on in this process
                pool.shutdown(wait=False, cancel_futures=True)
                todo.extendleft(reversed([j for j, _ in pending]))
                pending.clear()
                yield from _prepared(list(todo), settings, 1)
                return
            while todo and len(pending) < (1 if solo else 3 * workers):
                job = todo.popleft()
                pending.append((job, pool.submit(_prepare_file_in_worker, *job, settings)))
            job, fut = pending.popleft()
            try:
                status, payload, forms = fut.result()
                formcache.adopt(forms)
            except BrokenProcessPool:
                crashes += 1
                pool.shutdown(wait=False, cancel_futures=True)
                pool = process_pool(workers, pool_initializer, (os.getpid(),))
                if solo:
                    mem = read_limits()[0]
                    why = shared_sandbox().diagnose(job[0])
                    status, payload = "failed", memory_failure(job[0], mem, why).message
                    solo = False
                else:
                    todo.extendleft(reversed([job] + [j for j, _ in pending]))
                    pending.clear()
                    solo = True
                    continue
            else:
                solo = False
            yield job, status, payload
    finally:  # wait for idle workers to exit; after a cancel do not wait for busy ones
        pool.shutdown(wait=not (todo or pending), cancel_futures=True)


def add_paths(index: Store, paths: Iterable[str | Path], *, template: bool = False,
              progress: Progress = no_progress, cancel: CancelToken = NEVER_CANCELLED,
              workers: int | None = None, on_commit=None, follow_links: bool = False) -> AddSummary:
    """Add files and folders to the collection ``index`` (a store); see the module docstring.

    ``progress(done, total, message)`` is called once per file. ``cancel`` is checked between
    files: the batch being prepared is dropped and the summary (``cancelled=True``) lists
    only what earlier batches committed. ``on_commit(statuses)`` is called after each commit
    (tests use it). Raises CollectionBusy if another writer holds the collection too long.
    """
    index.require_writable()
    settings = index.settings
    failed: list[tuple[str, str]] = []
    progress(0, 0, "phase.looking_for_files")
    files = _collect(paths, failed, follow_links=follow_links)
    total = len(files)
    done = 0
    res: dict[str, list] = {"added": [], "updated": [], "unchanged": [], "duplicate": []}

    def commit(items: list, batch_failed: list) -> None:
        statuses = index.write_batch(with_vectors(items), template=template) if items else []
        for status, name, detail in statuses:
            res[status].append((name, detail) if status == "duplicate" else name)
        failed.extend(batch_failed)
        items.clear()  # the batch's arrays go now, and their pages back to the system
        trim_memory()
        if on_commit is not None:
            on_commit(statuses)

    def summary(cancelled: bool) -> AddSummary:
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
    gen = _prepared(jobs, settings, workers)
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
    finally:
        gen.close()
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
    from .fingerprints import fingerprint_document
    from .text import canonize

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
