"""The index of a collection's sentence vectors, for retrieval by meaning (a translation's source).

The record is the store's table ``sentence_vectors`` (:mod:`sverka.core.store`), written in the
same transaction as its document; this index is a cache of it: a usearch HNSW graph over the
int8 vectors (docs/BENCHMARKS.md, "Vector indexes": 0.66 KB a sentence with its graph, ~0.5 ms
a query against 84 000 sentences, recall@10 0.92), kept in one file

* beside a collection file: ``<collection>.meaning1.usearch`` (a read-only folder: the user's
  cache folder, as for a server);
* for a PostgreSQL collection, on each desktop: ``<cache>/meaning/<sha256 of the URL>.usearch``.

Before each use (:func:`synced`) the documents the index holds are compared with those the table
holds: documents added since (by this desktop, another one, or an add that was killed after its
commit and before the index was saved) are added to it, removed ones leave it; then it is saved
(written to a temporary file, then renamed over the old one). A missing or unreadable file is
rebuilt from the table. A key is ``doc_id << 20 | sentence index``; every hit is checked against
the table again (:func:`search`), so a stale or foreign file can cost time, never a wrong pair.
usearch is imported on first use only. A process maps the file first (a
read-only view, ~3 ms where reading it whole took ~27 ms for 26 000 sentences) and reads it whole
only when documents have to be added to it or removed.
"""

from __future__ import annotations

import hashlib
import os
import threading
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from . import formcache
from .limits import job_threads
from .sorting import distinct

if TYPE_CHECKING:  # pragma: no cover
    from .store import Store

__all__ = ["EXACT_UNDER", "FLOOR_MARGIN", "INDEX_VERSION", "KEY_BITS", "forget", "index_path", "search", "synced"]

#: In the file's name: another layout or model means another file.
INDEX_VERSION = 1
#: Bits of a key for the sentence index (a document's sentences past 2**20 are not indexed).
KEY_BITS = 20
#: The graph's parameters (bench/bench_vector_index.py).
CONNECTIVITY, EXPANSION_ADD, EXPANSION_SEARCH = 16, 128, 64
#: An index of fewer sentences is searched exhaustively, not through its graph: as fast there
#: (bench/bench_vector_index.py --small) and it misses nothing, where a graph built on several
#: cores leaves the odd sentence unreachable (a class's essays, a copywriter's few texts).
EXACT_UNDER = 2048
#: How far under a caller's floor the index's cosine of a hit may be and the hit still read
#: (:func:`search`): int8 vectors compared by the index and by :func:`sverka.core.meaning.cosine`
#: differ by rounding only, far less than this.
FLOOR_MARGIN = 0.05

_lock = threading.Lock()
#: index file -> (usearch Index, its document ids, whether it is a read-only view of the file)
_open: dict[str, tuple[object, np.ndarray, bool]] = {}


def index_path(store: "Store") -> Path:
    """Where the index of ``store``'s vectors is kept (module docstring)."""
    name = f"meaning{INDEX_VERSION}.usearch"
    if isinstance(store.path, Path):
        beside = store.path.with_name(f"{store.path.name}.{name}")
        if os.access(beside.parent, os.W_OK) and (not beside.exists() or os.access(beside, os.W_OK)):
            return beside
        where = str(store.path.resolve())
    else:
        where = str(store.path)
    digest = hashlib.sha256(where.encode("utf-8", "surrogatepass")).hexdigest()[:24]
    return formcache.cache_dir() / "meaning" / f"{digest}.{name}"


def forget() -> None:
    """Drop the indexes this process keeps in memory (the next use reads their files again)."""
    with _lock:
        _open.clear()


def _new(dim: int):
    from usearch.index import Index

    return Index(ndim=dim, metric="cos", dtype="i8", connectivity=CONNECTIVITY, expansion_add=EXPANSION_ADD,
                 expansion_search=EXPANSION_SEARCH)


def _load(path: Path, view: bool = False):
    """(index, its document ids) from ``path``; (None, empty) when missing or unreadable.
    ``view``: the file mapped, not read (~3 ms instead of ~27 for 26 000 sentences), read-only."""
    from usearch.index import Index

    try:
        index = Index.restore(str(path), view=view) if path.exists() else None
    except Exception:  # a damaged or foreign file: rebuilt from the table
        index = None
    if index is None:
        return None, np.zeros(0, np.int64)
    index.expansion_search = EXPANSION_SEARCH
    keys = np.asarray(index.keys, np.int64) if len(index) else np.zeros(0, np.int64)
    return index, _documents_of(keys)


def _documents_of(keys: np.ndarray) -> np.ndarray:
    """The sorted distinct document ids of ``keys`` (without ``np.unique``, which imports
    ``numpy.ma``: ~9 ms of a cold check)."""
    return distinct(keys >> KEY_BITS)


def _save(index, path: Path) -> None:
    tmp = path.with_name(f"{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        index.save(str(tmp))
        os.replace(tmp, path)
    except (OSError, RuntimeError, ValueError):  # a full or read-only disk: the index stays in memory
        try:
            tmp.unlink(missing_ok=True)
        except OSError:
            pass


def synced(store: "Store"):
    """The usearch index of every vector ``store`` holds, brought up to date with its table
    first (module docstring); None when the collection has no vectors."""
    wanted = store.vector_documents()
    path = index_path(store)
    with _lock:
        kept = _open.get(str(path))
        index, held, viewed = kept if kept is not None else (*_load(path, view=True), True)
        if index is not None and len(held) == len(wanted) and bool(np.all(held == wanted)):
            _open[str(path)] = (index, held, viewed)
            return index
        if index is not None and viewed:  # to be changed: read whole, the mapping let go first
            _open.pop(str(path), None)  # (a mapped file could not be replaced on Windows)
            index = None
            index, held = _load(path)
        gone = np.setdiff1d(held, wanted)
        new = np.setdiff1d(wanted, held)
        if index is not None and len(gone):
            keys = np.asarray(index.keys, np.int64)
            drop = keys[np.isin(keys >> KEY_BITS, gone)]
            if len(drop) * 2 > len(keys):  # most of it gone: built again, not left full of holes
                index, new = None, wanted
            else:
                index.remove(drop.astype(np.uint64))
        for doc_id in new.tolist():
            spans, vectors = store.vectors(doc_id)
            n = min(len(vectors), 1 << KEY_BITS)
            if not n:
                continue
            if index is None:
                index = _new(vectors.shape[1])
            keys = (np.int64(doc_id) << KEY_BITS) + np.arange(n, dtype=np.int64)
            index.add(keys.astype(np.uint64), np.ascontiguousarray(vectors[:n]), threads=0)  # every core
        if index is None:
            _open.pop(str(path), None)
            return None
        _save(index, path)
        _open[str(path)] = (index, wanted, False)
        return index


def search(store: "Store", queries: np.ndarray, count: int,
           floor: float | None = None) -> list[list[tuple[int, int, int, int, np.ndarray]]]:
    """For each int8 query vector, up to ``count`` sentences of the collection nearest by meaning:
    ``(doc_id, sentence index, start, stop, vector)`` as the table holds them now (hits whose rows
    are gone are left out). ``floor``: a hit the index puts under this cosine less
    :data:`FLOOR_MARGIN` is left out unread (the caller judges nothing under it; the margin covers
    what the index's own arithmetic may differ by, and a stale file can only lose such a hit)."""
    queries = np.atleast_2d(np.asarray(queries, np.int8))
    index = synced(store) if len(queries) else None
    if index is None or not len(index):
        return [[] for _ in range(len(queries))]
    with _lock:  # the queries over the process's cores (each query's hits are its own)
        found = index.search(queries, min(count, len(index)), threads=job_threads(),
                             exact=len(index) < EXACT_UNDER)
    keys = np.asarray(found.keys, np.int64).reshape(len(queries), -1)
    if floor is not None:
        near = 1.0 - np.asarray(found.distances, np.float64).reshape(keys.shape) >= floor - FLOOR_MARGIN
        keys = np.where(near, keys, -1)
    pairs = [[(int(k >> KEY_BITS), int(k & ((1 << KEY_BITS) - 1))) for k in row if k >= 0] for row in keys.tolist()]
    rows = store.vectors_at(sorted({p for row in pairs for p in row}))
    return [[(d, j, *rows[(d, j)]) for d, j in row if (d, j) in rows] for row in pairs]
