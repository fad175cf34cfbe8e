"""Where a collection is kept: the store protocol and the two stores behind it.

A collection is kept either in one SQLite file (the default: :class:`sverka.core.store.sqlite.SQLiteStore`)
or in a PostgreSQL database shared by a department (:class:`sverka.core.store.postgres.PostgresStore`).
:func:`open_store` picks one by the location: a ``postgresql://`` (or ``postgres://``) URL
opens the server's database, anything else is a file path.

Both stores keep the same tables (see core/store/sqlite.py and core/store/postgres.py), the same
``meta`` (indexing settings, hash seed, canonization / fingerprint / tokens versions) and
the same schema version with the same refusals ("rebuild", "written by a newer Sverka").
A check gives the same passages and scores on either (tests/store/test_equal_results.py).

The protocol
------------
:class:`Store` lists every operation indexing (core/indexing.add_paths, add_document), checking
(core/check.py, core/candidates.py, core/crosscheck.py, core/batch.py) and the API (core/api.py) use; nothing else of a store may be
called from outside it. Hashes go in as uint64 (or their int64 bit view) and come out as
uint64 numpy arrays. Every write is one transaction: a batch is written whole or not at all.
Opening with ``settings=None`` adopts the collection's own indexing settings; other settings
raise :class:`~sverka.core.store.common.CollectionSettingsError` naming the difference.

The package is the only code of Sverka that speaks SQL, and it imports no extraction,
canonization or fingerprinting (tests/store/test_walls.py): it keeps what it is given.

* :mod:`.common`: what both stores share (versions, ``meta``, the documents given and given
  back, how a batch is classified and written);
* :mod:`.codecs`: the bytes both keep (texts, tokens, hashes as signed 64-bit integers);
* :mod:`.sqlite` and :mod:`.postgres`: the two stores; :mod:`.history`: the last result of
  every checked document, in a file beside the collection.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, ContextManager, Iterable, Protocol, Sequence, runtime_checkable

import numpy as np

if TYPE_CHECKING:  # pragma: no cover
    from .codecs import Reader
    from .common import PreparedDocument, StoredDocument
    from ..results import DocumentInfo
    from ..settings import Settings

# Imports inside functions below open a store's driver (sqlite3, psycopg) only when that kind of
# collection is opened: the window and the command line start without either.

__all__ = ["STORE_METHODS", "Store", "is_server_url", "open_store", "store_errors"]

#: Location schemes that name a PostgreSQL database rather than a file.
SERVER_SCHEMES = ("postgresql://", "postgres://")


@runtime_checkable
class Store(Protocol):
    """The operations a collection's store offers (see the module docstring)."""

    #: The indexing settings the collection was built with (fingerprint suspects with these).
    settings: "Settings"
    #: Where the collection is, for messages: a file path, or the URL without its password.
    path: object

    # ---- writing (each call is one transaction)
    def write_batch(self, items: Sequence["PreparedDocument | tuple[str, int]"], *,
                    template: bool = False) -> list[tuple[str, str, str]]:
        """Store prepared documents; one ``(status, name, detail)`` per item, status
        ``added`` / ``updated`` / ``unchanged`` / ``duplicate`` (detail: the stored original).
        An item ``("unchanged", doc_id)`` only sets the template flag when ``template``."""

    def remove(self, ids: Iterable[int]) -> int:
        """Remove documents by id; returns how many existed."""

    def set_template(self, doc_id: int, template: bool) -> None: ...

    def require_writable(self) -> None:
        """Raise CollectionReadOnly when the collection was opened read-only (before an add)."""

    def analyze(self) -> None:
        """Refresh the query planner's statistics (after big adds)."""

    # ---- listing
    def count(self) -> int: ...

    def documents(self) -> list["DocumentInfo"]:
        """Every document, sorted by title (code point order) then id."""

    def info(self, doc_id: int) -> "DocumentInfo": ...

    def infos(self, ids: Iterable[int]) -> dict[int, "DocumentInfo"]:
        """The documents of ``ids`` still in the collection, by id."""

    def find_by_path(self, path: str | Path) -> "DocumentInfo | None": ...

    def find_by_sha256(self, sha: str) -> int | None: ...

    def ids_under(self, folder: str | Path) -> list[int]: ...

    def root(self) -> str | None:
        """The deepest folder holding every stored document's path (what reports show paths
        relative to), or None."""

    def stat_of(self, path: str) -> tuple[int, int, float | None] | None:
        """``(id, size_bytes, mtime)`` stored for a path, or None."""

    def template_ids(self) -> list[int]: ...

    # ---- loading
    def text(self, doc_id: int) -> str: ...

    def load(self, doc_id: int, info: "DocumentInfo | None" = None) -> "StoredDocument":
        """A stored document with its text and tokens (``info``: its description, if the caller
        has read it already)."""

    def blob_readers(self, doc_id: int) -> "ContextManager[tuple[Reader, int, Reader]]":
        """``(read_tokens, tokens_size, read_text)`` of a stored document: readers of parts of
        its tokens blob and of its stored text (``read(offset, length) -> bytes``), for a check
        reading a long document in windows and its excerpts (:mod:`sverka.core.windows`)."""

    def pairs(self, doc_id: int) -> tuple[np.ndarray, np.ndarray]:
        """A document's pair keys: (hashes uint64, token positions int64), by position."""

    def sentences(self, doc_id: int) -> tuple[np.ndarray, np.ndarray]: ...

    def short_lengths(self, ids: Iterable[int]) -> dict[int, int]: ...

    # ---- candidate queries
    def pair_postings(self, hashes, *, max_posting: int = 0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Rows (hash uint64, doc_id int64, pos int64) of the pair keys among ``hashes``; a hash
        with more than ``max_posting`` rows (0: no cap) is left out whole."""

    def sentence_postings(self, hashes, *, max_posting: int = 0) -> tuple[np.ndarray, np.ndarray, np.ndarray]: ...

    def short_candidates(self, word_hashes, *, min_shared: int = 2, limit: int = 50) -> list[tuple[int, int]]:
        """``[(doc_id, shared)]`` sharing at least ``min_shared`` longest-word hashes, most first."""

    def adding(self) -> "ContextManager[object]":
        """Around the batches of one add of many files: what a store keeps beside its record
        may be brought up to date once at the end rather than after every batch (the SQLite
        file's postings file, :mod:`sverka.core.store.postings`)."""

    # ---- vectors of meaning (sverka.core.bymeaning, sverka.core.vectorindex)
    def vector_documents(self) -> np.ndarray:
        """Ids (int64, sorted) of the documents that have vectors of meaning."""

    def vectors(self, doc_id: int) -> tuple[np.ndarray, np.ndarray]:
        """A document's sentences with vectors: ([start, stop) int64 (n, 2), int8 (n, dim)), by index."""

    def vectors_at(self, keys: Sequence[tuple[int, int]]) -> dict[tuple[int, int], tuple[int, int, np.ndarray]]:
        """``{(doc_id, sentence index): (start, stop, int8 vector)}`` of those still stored."""

    # ---- upkeep
    def integrity_check(self) -> str:
        """"ok" when the store is sound, else what is wrong."""

    def close(self) -> None: ...

    def __enter__(self) -> "Store": ...

    def __exit__(self, *exc) -> None: ...


#: The protocol's methods, for the test that both stores implement every one.
STORE_METHODS = tuple(sorted(
    name for name, value in vars(Store).items()
    if callable(value) and (not name.startswith("_") or name in ("__enter__", "__exit__"))
))


def store_errors(method):
    """Decorate a method of an object with a ``path``: an SQLite failure inside it becomes a
    CollectionError fit to show; a damaged file (SQLITE_CORRUPT, SQLITE_NOTADB) names
    "sverka rebuild", never a traceback."""
    import functools
    import sqlite3

    @functools.wraps(method)
    def guarded(self, *args, **kwargs):
        try:
            return method(self, *args, **kwargs)
        except sqlite3.DatabaseError as e:
            from ..errors import CollectionDamaged, CollectionError
            from .common import damaged_message
            from .sqlite import is_damage

            path = getattr(self, "path", "")
            if not is_damage(e):
                raise CollectionError(f"cannot use the collection {path}: {e}") from e
            m = damaged_message(path, f"a part of the file ({e})")
            raise CollectionDamaged(str(m), message=m) from e

    return guarded


def is_server_url(location: object) -> bool:
    """True when ``location`` names a PostgreSQL database rather than a file."""
    return isinstance(location, str) and location.lower().startswith(SERVER_SCHEMES)


def open_store(location: str | os.PathLike, settings: "Settings | None" = None, **options) -> Store:
    """The store at ``location``: a PostgreSQL database for a ``postgresql://`` URL, else the
    SQLite file at that path (created when missing). ``options`` go to the store's constructor
    (``busy_timeout`` seconds for both)."""
    if is_server_url(location):
        from .postgres import PostgresStore

        return PostgresStore(str(location), settings, **options)
    from .sqlite import SQLiteStore

    return SQLiteStore(location, settings, **options)


def __getattr__(name: str):
    """``SQLiteStore`` and ``PostgresStore``, imported on first use (psycopg only for a server)."""
    if name == "SQLiteStore":
        from .sqlite import SQLiteStore

        return SQLiteStore
    if name == "PostgresStore":
        from .postgres import PostgresStore

        return PostgresStore
    raise AttributeError(name)
