"""The embedded collection: one SQLite file (the default store).

File format
-----------
* ``PRAGMA user_version`` = ``SCHEMA_MAJOR << 16 | SCHEMA_MINOR`` (:mod:`.common`). A file of a
  newer major version is refused (:class:`~sverka.core.errors.CollectionVersionError`: "update
  Sverka"); an older major version is refused with "rebuild the collection"; minor versions are
  compatible both ways. Minor 1 stopped computing what nothing read: a document's min-hash
  signature, super- and mega-shingles and full-text hash (the check compares SHA-256 and
  passages). Their columns and tables stay in the schema, written empty (``minhash`` ``x''``,
  ``fulltext_hash`` 0, no super/mega rows), so a collection of either minor version opens and
  is written by both.
* WAL journal, ``synchronous=NORMAL``, a busy timeout (10 s by default) after which
  :class:`~sverka.core.errors.CollectionBusy` says "collection is busy: another Sverka is
  writing to it". Every write is one ``BEGIN IMMEDIATE`` transaction
  (:meth:`SQLiteStore.transaction`); adding files commits one transaction per batch, so a
  cancelled or killed add leaves the collection exactly as it was after the last committed batch.
* ``meta`` (key, value) holds every parameter the stored hashes depend on: the indexing
  settings (``shingle_words``, ``drop_adjectives``: ``Settings.indexing_fields()``),
  ``hash_seed``, ``canon_version``, ``fingerprint_version``, ``tokens_format``. Opening with
  other *settings* raises :class:`~.common.CollectionSettingsError` naming both values (open
  with ``settings=None`` to adopt the collection's own); a different seed or canonization /
  fingerprint version raises CollectionNeedsRebuild ("rebuild the collection").
* Tables (hashes are uint64 stored as the same 64 bits in a signed INTEGER, :func:`.codecs.i64`)::

    documents(id, path UNIQUE, title, format, sha256 UNIQUE, chars, words, size_bytes, mtime,
              added ISO-8601, language, is_template, warnings JSON,
              fulltext_hash (0 since 2.1), short_length, minhash BLOB (empty since 2.1))
    document_data(doc_id, text BLOB UTF-8, tokens BLOB: see sverka.core.store.codecs)
    pairs(hash, doc_id, pos)             pair keys (sverka.core.candidates); pos = first token index
    sentences(hash, doc_id, pos)         sentence keys (SH of sentences of >= 3 tokens); pos likewise
    short_words(hash, doc_id)            seed 000: hashes of the longest distinct words
    super_shingles(hash, doc_id), mega_shingles(hash, doc_id)   written by format 2.0 only
    sentence_vectors(doc_id, idx, start, stop, vector BLOB)   vectors of meaning of its sentences
                                         (sverka.core.bymeaning): [start, stop) in the text, int8
                                         bytes; made when the table is missing (a file of an
                                         earlier Sverka: its documents have none)

  The hash tables are ``WITHOUT ROWID`` with the hash first in the primary key, so every
  candidate query reads one index only.

Beside the file, ``<name>.postings`` (:mod:`sverka.core.store.postings`) holds the ``pairs``
and ``sentences`` rows as sorted arrays the engine searches: a cache of those tables, used only
while it holds the collection's current documents (adds and removals update it, a check
rebuilds it when it does not), so the schema did not change for it.

The operations are the store protocol's (:class:`sverka.core.store.Store`); candidate queries
are answered from the postings file, or by SQLite with one grouped query each, chunked only if
the IN list exceeds SQLite's variable limit.
Besides them: :meth:`SQLiteStore.transaction` (tests), ``read_only`` and :func:`read_old_rows`,
which reads a file :func:`sverka.core.rebuild.rebuild` must rebuild, document by document.
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import struct
import zlib
from pathlib import Path
from typing import Iterable, Iterator, Sequence

import numpy as np

from ..errors import (CollectionBusy, CollectionDamaged, CollectionError, CollectionNeedsRebuild, CollectionReadOnly,
                      CollectionVersionError)
from ..messages import Message, to_json
from ..results import DocumentInfo
from ..settings import Settings
from ..sorting import distinct
from . import common, postings
from .codecs import Reader, decode_stored, decode_text, decode_tokens, i64, rows_array, u64
from .postings import PostingsFile, documents_digest
from .common import (BUSY_TIMEOUT, SCHEMA_MAJOR, SCHEMA_MINOR, PreparedDocument, StoredDocument,
                     check_indexing_settings, damaged_message, indexing_meta, other_version, read_only_message,
                     storable_text, stored_settings, versions)

__all__ = ["SQLiteStore", "is_damage", "read_old_rows"]

#: Rows handed to SQLite per executemany call when a batch is written.
_ROWS_PER_CALL = 16_384

_SCHEMA = """
CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE documents(
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    path TEXT UNIQUE,
    title TEXT NOT NULL,
    format TEXT NOT NULL,
    sha256 TEXT NOT NULL UNIQUE,
    chars INTEGER NOT NULL,
    words INTEGER NOT NULL,
    size_bytes INTEGER NOT NULL,
    mtime REAL,
    added TEXT NOT NULL,
    language TEXT NOT NULL,
    is_template INTEGER NOT NULL DEFAULT 0,
    warnings TEXT NOT NULL DEFAULT '[]',
    fulltext_hash INTEGER NOT NULL,
    short_length INTEGER NOT NULL,
    minhash BLOB NOT NULL);
CREATE INDEX documents_fulltext ON documents(fulltext_hash);
CREATE TABLE document_data(
    doc_id INTEGER PRIMARY KEY REFERENCES documents(id),
    text BLOB NOT NULL,
    tokens BLOB NOT NULL);
CREATE TABLE pairs(hash INTEGER NOT NULL, doc_id INTEGER NOT NULL, pos INTEGER NOT NULL,
    PRIMARY KEY(hash, doc_id, pos)) WITHOUT ROWID;
CREATE TABLE sentences(hash INTEGER NOT NULL, doc_id INTEGER NOT NULL, pos INTEGER NOT NULL,
    PRIMARY KEY(hash, doc_id, pos)) WITHOUT ROWID;
CREATE TABLE short_words(hash INTEGER NOT NULL, doc_id INTEGER NOT NULL,
    PRIMARY KEY(hash, doc_id)) WITHOUT ROWID;
CREATE TABLE super_shingles(hash INTEGER NOT NULL, doc_id INTEGER NOT NULL,
    PRIMARY KEY(hash, doc_id)) WITHOUT ROWID;
CREATE TABLE mega_shingles(hash INTEGER NOT NULL, doc_id INTEGER NOT NULL,
    PRIMARY KEY(hash, doc_id)) WITHOUT ROWID;
"""
_HASH_TABLES = ("pairs", "sentences", "short_words", "super_shingles", "mega_shingles")
#: Vectors of meaning, one row a sentence (a rowid table: its primary key's index lists the
#: documents that have vectors without reading the vectors).
_VECTOR_TABLE = ("CREATE TABLE IF NOT EXISTS sentence_vectors(doc_id INTEGER NOT NULL, idx INTEGER NOT NULL, "
                 "start INTEGER NOT NULL, stop INTEGER NOT NULL, vector BLOB NOT NULL, PRIMARY KEY(doc_id, idx))")
#: SQLite's page cache (KB) of a connection once it has looked retrieval keys up (a check;
#: 8 MB before, and for writing: indexing's peak memory stays where it was). A check's keys
#: lie on pages all over the key tables and about half of them come back in the next check;
#: 8 MB kept too few of those pages between checks (a 50 KB check against ruslit: its
#: lookups ~10 ms faster with 64 MB). Pages are taken as they are read, never reserved.
LOOKUP_CACHE_KB = 64 * 1024
#: In an add of many batches (SQLiteStore.adding), the postings file is updated batch by batch
#: while the rows copied stay within this many times its rows; then built once at the end.
ADD_COPY_FACTOR = 2
_NO_ROWS = (np.zeros(0, np.int64), np.zeros(1, np.uint64), np.zeros(0, np.uint32), np.zeros(0, np.uint32))
_INFO_COLUMNS = "id, path, title, format, chars, words, size_bytes, added, sha256, is_template"


def _busy(e: sqlite3.OperationalError) -> bool:
    msg = str(e).lower()
    return "locked" in msg or "busy" in msg


def _sql_path(path):
    """A path as SQLite stores it: text, or the OS bytes (a BLOB) for a name that is not UTF-8
    (Python holds those as lone surrogates, which SQLite cannot encode)."""
    if path is None:
        return None
    path = os.fspath(path)
    try:
        path.encode("utf-8")
    except UnicodeEncodeError:
        return os.fsencode(path)
    return path


def _py_path(value):
    """A stored path back as Python's str (bytes decoded the way the OS names are)."""
    return os.fsdecode(value) if isinstance(value, bytes) else value


def _info(row) -> DocumentInfo:
    return DocumentInfo(id=row[0], path=_py_path(row[1]), title=row[2], format=row[3], chars=row[4],
                        words=row[5], size_bytes=row[6], added=row[7], sha256=row[8],
                        is_template=bool(row[9]))


def is_damage(e: sqlite3.Error) -> bool:
    """Whether an SQLite error means the file's contents are damaged (not busy, full, ...)."""
    if not isinstance(e, sqlite3.OperationalError):
        return isinstance(e, sqlite3.DatabaseError)
    msg = str(e).lower()
    return any(w in msg for w in ("decode", "malformed", "no such table", "no such column", "corrupt"))


class _ReadOnlyFile(Exception):
    """Opening for writing met a read-only file or medium (retried read-only)."""


def _writable(path: Path) -> bool:
    """Whether Sverka may write the collection file and make its journal beside it."""
    try:
        return os.access(path, os.W_OK) and os.access(path.parent, os.W_OK)
    except (OSError, ValueError):
        return False


def _error(cls, m: Message):
    """An exception of class ``cls`` carrying message ``m`` (English as its ``str``)."""
    return cls(str(m), message=m)


class SQLiteStore:
    """One collection file. Not thread-safe: use it from one thread (the GUI's writer thread).

    ``settings=None`` adopts the collection's stored indexing parameters (a new collection
    takes the defaults); explicit settings must agree with a collection built earlier, or
    :class:`CollectionSettingsError` names the difference.
    """

    def __init__(self, path: str | Path, settings: Settings | None = None, *,
                 busy_timeout: float = BUSY_TIMEOUT) -> None:
        self.path = Path(path)
        self.busy_timeout = busy_timeout
        #: The postings file (sverka.core.store.postings) when it holds this collection's state.
        self._side: PostingsFile | None = None
        self._side_state: tuple | None = None  # (data_version, own commits) when it was last judged
        self._commits = 0  # transactions committed through this connection
        self._adding: dict | None = None  # inside adding(): the rows its updates copied
        #: Opened for reading only (a read-only medium or file): checks work, changes raise
        #: CollectionReadOnly.
        self.read_only = self.path.exists() and not _writable(self.path)
        if not self.read_only:
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as e:
                raise CollectionError(f"cannot create the folder of the collection {self.path}: {e.strerror}") from e
        try:
            self._db = self._connect_read_only() if self.read_only else sqlite3.connect(
                str(self.path), timeout=busy_timeout, isolation_level=None, check_same_thread=False)
        except sqlite3.Error as e:
            raise CollectionError(f"cannot open the collection {self.path}: {e}") from e
        try:
            self._setup(settings)
        except _ReadOnlyFile:  # writing the journal mode failed: the file or medium is read-only
            self._db.close()
            self.read_only = True
            try:
                self._db = self._connect_read_only()
            except sqlite3.Error as e:
                raise CollectionError(f"cannot open the collection {self.path}: {e}") from e
            try:
                self._setup(settings)
            except BaseException:
                self._db.close()
                raise
        except BaseException:
            self._db.close()
            raise
        self._variable_limit = max(100, self._db.getlimit(sqlite3.SQLITE_LIMIT_VARIABLE_NUMBER) - 10)
        self._lookup_cache = False  # LOOKUP_CACHE_KB set yet?

    # ---- opening

    def _connect_read_only(self) -> sqlite3.Connection:
        """A read-only connection: ``mode=ro``, or ``immutable=1`` where SQLite cannot even
        make the shared-memory file of the write-ahead log (a read-only medium)."""
        uri = self.path.absolute().as_uri() + "?mode=ro"  # percent-encoded from the name's bytes
        db = sqlite3.connect(uri, uri=True, timeout=self.busy_timeout, isolation_level=None,
                             check_same_thread=False)
        try:
            db.execute("SELECT count(*) FROM sqlite_master").fetchone()
            return db
        except sqlite3.OperationalError:
            db.close()
        return sqlite3.connect(uri.replace("mode=ro", "immutable=1"), uri=True, timeout=self.busy_timeout,
                               isolation_level=None, check_same_thread=False)

    def require_writable(self) -> None:
        """Raise CollectionReadOnly when the collection was opened read-only."""
        if self.read_only:
            raise _error(CollectionReadOnly, read_only_message(self.path))

    def _setup(self, settings: Settings | None) -> None:
        db = self._db
        try:
            db.execute(f"PRAGMA busy_timeout={int(self.busy_timeout * 1000)}")
            db.execute("PRAGMA foreign_keys=OFF")
            version = db.execute("PRAGMA user_version").fetchone()[0]
            if version == 0:
                if self.read_only:
                    raise CollectionError(f"{self.path} is not a Sverka collection (and it is read-only)")
                # Pointer maps (before any table: it cannot be turned on later without VACUUM):
                # a check reading part of a long document's blob (sverka.core.windows) finds the
                # page of any offset from them; without, SQLite walks the blob's chain of
                # overflow pages from its first one (0.3 ms instead of 30-80 ms at the end of a
                # 40 MB blob, measured). Freed pages stay in the file, as without it.
                db.execute("PRAGMA auto_vacuum=INCREMENTAL")
                with self.transaction():
                    self._create(settings or Settings())
            else:
                self._check_version(version)
            if not self.read_only:
                mode = db.execute("PRAGMA journal_mode=WAL").fetchone()[0]
                if str(mode).lower() != "wal":
                    raise CollectionError(f"the collection {self.path} cannot use a write-ahead log "
                                          f"(journal mode {mode}); is it on a network drive?")
                db.execute("PRAGMA synchronous=NORMAL")
            db.execute("PRAGMA cache_size=-8192")  # 8 MB
            db.execute("PRAGMA temp_store=MEMORY")
            meta = dict(db.execute("SELECT key, value FROM meta").fetchall())
        except sqlite3.OperationalError as e:
            if _busy(e):
                raise self._busy_error() from e
            if not self.read_only and ("readonly" in str(e).lower() or "read-only" in str(e).lower()):
                raise _ReadOnlyFile() from e
            if is_damage(e):
                raise _error(CollectionDamaged, damaged_message(self.path, f"a part of the file ({e})")) from e
            raise CollectionError.of("error.cannot_open_collection", path=str(self.path), detail=str(e)) from e
        except sqlite3.DatabaseError as e:
            raise CollectionError.of("error.not_a_collection", path=str(self.path), detail=str(e)) from e
        other = other_version(meta)
        if other is not None:
            key, found, wanted = other
            raise CollectionNeedsRebuild.of("error.collection_other_version", path=str(self.path), key=key,
                                            found=found, wanted=wanted)
        try:
            stored = stored_settings(meta)
        except (ValueError, TypeError) as e:
            raise _error(CollectionDamaged, damaged_message(self.path, f"the stored settings ({e})")) from e
        self.settings = stored
        if settings is not None:
            check_indexing_settings(self, settings)
            self.settings = settings
        self._has_vectors = bool(db.execute(
            "SELECT 1 FROM sqlite_master WHERE type='table' AND name='sentence_vectors'").fetchone())
        if not self._has_vectors and not self.read_only:
            with self.transaction() as t:
                t.execute(_VECTOR_TABLE)
            self._has_vectors = True

    def _create(self, settings: Settings) -> None:
        db = self._db
        # Another process may have created it while we waited for the write lock.
        version = db.execute("PRAGMA user_version").fetchone()[0]
        if version != 0:
            self._check_version(version)
            return
        tables = db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
        if tables:
            raise CollectionError(f"{self.path} is an SQLite file but not a Sverka collection")
        for stmt in _SCHEMA.split(";"):
            if stmt.strip():
                db.execute(stmt)
        meta = {**versions(), **indexing_meta(settings)}
        db.executemany("INSERT INTO meta(key, value) VALUES(?, ?)", sorted(meta.items()))
        db.execute(f"PRAGMA user_version={SCHEMA_MAJOR << 16 | SCHEMA_MINOR}")

    def _check_version(self, version: int) -> None:
        major, minor = version >> 16, version & 0xFFFF
        if major > SCHEMA_MAJOR:
            raise CollectionVersionError.of("error.collection_newer", path=str(self.path), found=f"{major}.{minor}",
                                            reads=f"{SCHEMA_MAJOR}.x")
        if major < SCHEMA_MAJOR:
            raise CollectionNeedsRebuild.of("error.collection_older", path=str(self.path), found=f"{major}.{minor}")

    def _busy_error(self) -> CollectionBusy:
        return CollectionBusy.of("error.collection_busy", path=str(self.path))

    def close(self) -> None:
        self._side = None  # its map closes with the last array read from it
        if self._db is not None:
            self._db.close()
            self._db = None

    def __enter__(self) -> "SQLiteStore":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    @contextlib.contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """``BEGIN IMMEDIATE`` ... ``COMMIT``; ``ROLLBACK`` on any exception (Cancelled too).

        Waits up to the busy timeout for another writer, then raises CollectionBusy.
        """
        self.require_writable()
        db = self._db
        try:
            db.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as e:
            err = self._user_error(e)
            if err is e:
                raise
            raise err from e
        try:
            yield db
            db.execute("COMMIT")
            self._commits += 1
        except BaseException as e:
            if db.in_transaction:  # SQLite may have rolled back already (disk full, I/O error)
                db.execute("ROLLBACK")
            err = self._user_error(e) if isinstance(e, sqlite3.OperationalError) else e
            if err is e:
                raise
            raise err from e

    def _user_error(self, e: sqlite3.OperationalError) -> Exception:
        """The error to show for an SQLite failure the user can act on; ``e`` itself otherwise."""
        msg = str(e).lower()
        if _busy(e):
            return self._busy_error()
        if "full" in msg:
            return CollectionError.of("error.disk_full", path=str(self.path))
        if "readonly" in msg or "read-only" in msg:
            return CollectionError.of("error.read_only", path=str(self.path))
        if "disk i/o" in msg:
            return CollectionError.of("error.disk_failed", path=str(self.path))
        return e

    # ---- writing

    def write_batch(self, items: Sequence[PreparedDocument | tuple[str, int]], *,
                    template: bool = False) -> list[tuple[str, str, str]]:
        """Write prepared documents in ONE transaction; classify each against what is stored
        (:func:`sverka.core.store.common.write_batch`)."""
        pending = None
        try:
            with self.transaction() as db:
                before = self._postings_before(db)
                batch = _Batch(self, db)
                out = common.write_batch(batch, items, template=template)
                pending = self._postings_after(db, before, batch.removed, batch.added)
        except BaseException:
            if pending is not None:  # written for a state never committed
                pending.unlink(missing_ok=True)
            raise
        self._install(pending)
        return out

    def _delete_documents(self, db, ids: list[int], *, hashes: bool = True, rows_only: bool = False) -> None:
        """Delete documents: their rows (unless rows_only) and/or their hash rows."""
        if not ids:
            return
        for i in range(0, len(ids), 500):
            chunk = ids[i:i + 500]
            marks = ",".join("?" * len(chunk))
            if not rows_only:
                db.execute(f"DELETE FROM document_data WHERE doc_id IN ({marks})", chunk)
                db.execute(f"DELETE FROM sentence_vectors WHERE doc_id IN ({marks})", chunk)
                db.execute(f"DELETE FROM documents WHERE id IN ({marks})", chunk)
            if hashes or rows_only:
                for t in _HASH_TABLES:
                    db.execute(f"DELETE FROM {t} WHERE doc_id IN ({marks})", chunk)

    def remove(self, ids: Iterable[int]) -> int:
        """Remove documents by id in one transaction; returns how many existed."""
        ids = sorted({int(i) for i in ids})
        if not ids:
            return 0
        pending = None
        try:
            with self.transaction() as db:
                before = self._postings_before(db)
                marks = ",".join("?" * len(ids))
                n = db.execute(f"SELECT count(*) FROM documents WHERE id IN ({marks})", ids).fetchone()[0]
                self._delete_documents(db, ids)
                pending = self._postings_after(db, before, set(ids), {}) if n else None
        except BaseException:
            if pending is not None:
                pending.unlink(missing_ok=True)
            raise
        self._install(pending)
        return n

    # ---- the postings file (sverka.core.store.postings): a cache of the key tables

    @contextlib.contextmanager
    def adding(self) -> Iterator["SQLiteStore"]:
        """See :meth:`sverka.core.store.Store.adding`. An update of the postings file copies it
        whole; the batches of one add update it while the rows they copied stay within
        :data:`ADD_COPY_FACTOR` times its rows (ruslit's 39 batches: 4.3 s of updates where
        one build takes ~2 s). After that they leave it: what each batch removes and adds is
        kept aside (:class:`~sverka.core.store.postings.Spill`) and the file is made once at
        the end from the one they started from and those rows (:meth:`_from_spill`: 0.6-0.7 s
        for 40 MB of novels, where reading their 2.3 M rows back from SQLite took 2.2 s); when
        that cannot be (another process wrote meanwhile, no room for the rows) it is built from
        the collection's rows. An add that ends by an exception leaves the building to the
        next check."""
        self._adding = {"copied": 0, "left": False, "spill": None, "start": None}
        try:
            yield self
            left, spill = self._adding["left"], self._adding["spill"]
        except BaseException:
            if self._adding["spill"] is not None:
                self._adding["spill"].close()
            raise
        finally:
            self._adding = None
        if left:
            self._side_state = None
            try:
                made = spill is not None and self._from_spill(spill)
            finally:
                if spill is not None:
                    spill.close()
            if not made:
                self._current_postings()

    @staticmethod
    def _spill(spill: postings.Spill, start: str, end: str, removed: set[int],
               added: dict[str, list[np.ndarray]]) -> None:
        """A batch kept aside; a spill that cannot take it is given up (never the batch)."""
        try:
            spill.take(start, end, removed, added)
        except (OSError, MemoryError):  # a full disk: the file is built from the rows at the end
            spill.broken = True

    def _from_spill(self, spill: postings.Spill) -> bool:
        """The postings file of the current state made from an add's spill (see :meth:`adding`);
        False when the spill does not lead to the current state or cannot be used."""
        if spill.broken or not _writable(self.path.parent):
            return False
        try:
            self._db.execute("BEGIN")  # the digest read in one state
            try:
                digest = documents_digest(self._db)
            finally:
                self._db.execute("COMMIT")
        except sqlite3.DatabaseError:  # the build from the rows says what is wrong, as a check would
            return False
        if digest != spill.state:
            return False
        base = PostingsFile.open(postings.path_for(self.path), spill.base)  # as the add left it
        if base is None:  # replaced meanwhile (a check elsewhere built it again)
            return False
        try:
            pending = postings.write(postings.path_for(self.path), digest,
                                     postings.merge_runs(base.tables, spill.removed, spill.runs(), self.path.parent))
        except (OSError, ValueError, MemoryError):
            return False
        finally:
            del base
        self._install(pending)
        return True

    def _postings_before(self, db) -> PostingsFile | None:
        """Inside a write transaction, before writing: the postings file if it holds the
        state being changed (then the write updates it), else None."""
        digest = documents_digest(db)
        if self._adding is not None:
            self._adding["start"] = digest  # the state a batch starts from (a spill's check)
        side = self._side if self._side is not None and self._side.digest == digest else None
        if side is None:
            side = PostingsFile.open(postings.path_for(self.path), digest)
        if side is None and db.execute("SELECT 1 FROM documents LIMIT 1").fetchone() is None:
            # no documents yet: the file starts empty
            side = PostingsFile(digest, {t: _NO_ROWS for t in postings.TABLES}, (), None)
        return side

    def _postings_after(self, db, before: PostingsFile | None, removed: set[int],
                        added: dict[str, list[np.ndarray]]) -> Path | None:
        """Inside a write transaction, after writing: the updated postings file written under a
        temporary name (renamed into place after the commit, :meth:`_install`), or None when
        there was none to update or it cannot be written (the store then asks SQLite)."""
        adding = self._adding
        if adding is not None and adding["left"]:  # kept aside for the end (see adding())
            if adding["spill"] is not None:
                self._spill(adding["spill"], adding["start"], documents_digest(db), removed, added)
            return None
        if before is None or not _writable(self.path.parent):
            return None
        digest = documents_digest(db)
        if digest == before.digest:
            return None
        if adding is not None:
            rows = sum(len(t[2]) for t in before.tables.values())
            added_rows = sum(len(c[0]) for c in added.values())
            if adding["copied"] + rows > ADD_COPY_FACTOR * (rows + added_rows):
                adding["left"] = True
                try:
                    adding["spill"] = postings.Spill(before, self.path.parent)
                except OSError:  # no room for it: the file is built from the rows at the end
                    return None
                self._spill(adding["spill"], before.digest, digest, removed, added)
                return None
            adding["copied"] += rows
        try:
            return postings.write(postings.path_for(self.path), digest,
                                  postings.merge_tables(before.tables, removed, added, self.path.parent))
        except (OSError, ValueError, MemoryError):
            return None

    def _install(self, pending: Path | None) -> None:
        """Rename a postings file written for a committed state into place."""
        if pending is None:
            return
        try:
            os.replace(pending, postings.path_for(self.path))
        except OSError:
            pending.unlink(missing_ok=True)

    def _current_postings(self) -> PostingsFile | None:
        """The postings file if it holds the collection's current state (built when missing
        or out of date and the folder can be written), else None: judged again only when
        the collection may have changed."""
        if self._db.in_transaction:  # inside a caller's transaction: its own view, SQLite's tables
            return None
        state = (self._db.execute("PRAGMA data_version").fetchone()[0], self._commits)
        if state == self._side_state:
            return self._side
        side, self._side_state, self._side = self._side, state, None
        path = postings.path_for(self.path)
        pending = None
        self._db.execute("BEGIN")  # the digest and the rows of one state
        try:
            digest = documents_digest(self._db)
            if side is None or side.digest != digest or side.stat != PostingsFile.file_stat(path):
                side = PostingsFile.open(path, digest)
            pending = None
            if side is None and not self.read_only and _writable(self.path.parent):
                try:
                    pending = postings.write(path, digest, postings.build_tables(self._db, self.path.parent))
                except (OSError, ValueError, MemoryError):
                    pending = None
        except sqlite3.DatabaseError:  # SQLite's own queries say what is wrong with the file
            return None
        finally:
            if self._db.in_transaction:
                self._db.execute("COMMIT")
        if pending is not None:
            self._install(pending)
            side = PostingsFile.open(path, digest)
        self._side = side
        return side

    def set_template(self, doc_id: int, template: bool) -> None:
        with self.transaction() as db:
            cur = db.execute("UPDATE documents SET is_template=? WHERE id=?", (int(template), int(doc_id)))
            if cur.rowcount == 0:
                raise CollectionError(f"no document {doc_id} in the collection")

    def analyze(self) -> None:
        """Refresh the query planner's statistics (after big adds)."""
        try:
            self._db.execute("PRAGMA analysis_limit=2000")  # sampled statistics: fast on big tables
            self._db.execute("ANALYZE")
        except sqlite3.OperationalError as e:
            if not _busy(e):
                raise

    def integrity_check(self) -> str:
        """``PRAGMA integrity_check``: "ok" when the file is sound."""
        return "\n".join(r[0] for r in self._db.execute("PRAGMA integrity_check").fetchall())

    # ---- reading

    def count(self) -> int:
        return self._db.execute("SELECT count(*) FROM documents").fetchone()[0]

    def documents(self) -> list[DocumentInfo]:
        """Every document, sorted by title then id."""
        rows = self._db.execute(f"SELECT {_INFO_COLUMNS} FROM documents ORDER BY title, id").fetchall()
        return [_info(r) for r in rows]

    def info(self, doc_id: int) -> DocumentInfo:
        row = self._db.execute(f"SELECT {_INFO_COLUMNS} FROM documents WHERE id=?", (int(doc_id),)).fetchone()
        if row is None:
            raise CollectionError(f"no document {doc_id} in the collection")
        return _info(row)

    def infos(self, ids: Iterable[int]) -> dict[int, DocumentInfo]:
        """The documents of ``ids`` still in the collection, by id (one query, not one per id)."""
        out: dict[int, DocumentInfo] = {}
        for marks, chunk in self._in_lists(sorted({int(i) for i in ids})):
            for row in self._db.execute(f"SELECT {_INFO_COLUMNS} FROM documents WHERE id IN ({marks})", chunk):
                info = _info(row)
                out[info.id] = info
        return out

    def _in_lists(self, values: list[int]):
        """``(placeholders, chunk)`` for each run of ``values`` short enough for one ``IN (...)``
        (SQLite's limit on a statement's variables)."""
        step = self._variable_limit
        for k in range(0, len(values), step):
            chunk = values[k:k + step]
            yield ",".join("?" * len(chunk)), chunk

    def find_by_path(self, path: str | Path) -> DocumentInfo | None:
        row = self._db.execute(f"SELECT {_INFO_COLUMNS} FROM documents WHERE path=?",
                               (_sql_path(str(path)),)).fetchone()
        return _info(row) if row else None

    def root(self) -> str | None:
        """The deepest folder holding every stored document that has a path (None when none
        has): what reports show source paths relative to. The common prefix of all paths is
        that of the smallest and the largest one."""
        low, high = self._db.execute(
            "SELECT min(path), max(path) FROM documents WHERE path IS NOT NULL AND typeof(path)='text'").fetchone()
        if low is None:
            return None
        try:
            common = os.path.commonpath([os.path.dirname(low), os.path.dirname(high)])
        except ValueError:  # different drives
            return None
        return common or None

    def ids_under(self, folder: str | Path) -> list[int]:
        """Ids of documents whose path lies inside ``folder``."""
        prefix = str(folder).rstrip(os.sep) + os.sep
        rows = self._db.execute("SELECT id, path FROM documents WHERE path IS NOT NULL ORDER BY id").fetchall()
        return [i for i, p in rows if _py_path(p).startswith(prefix)]

    def stat_of(self, path: str) -> tuple[int, int, float | None] | None:
        """``(id, size_bytes, mtime)`` stored for a path, or None."""
        return self._db.execute("SELECT id, size_bytes, mtime FROM documents WHERE path=?",
                                (_sql_path(path),)).fetchone()

    def find_by_sha256(self, sha: str) -> int | None:
        row = self._db.execute("SELECT id FROM documents WHERE sha256=?", (sha,)).fetchone()
        return row[0] if row else None

    def template_ids(self) -> list[int]:
        return [r[0] for r in self._db.execute("SELECT id FROM documents WHERE is_template ORDER BY id")]

    def text(self, doc_id: int) -> str:
        try:
            row = self._db.execute("SELECT text FROM document_data WHERE doc_id=?", (int(doc_id),)).fetchone()
            if row is None:
                if self._db.execute("SELECT 1 FROM documents WHERE id=?", (int(doc_id),)).fetchone() is None:
                    raise CollectionError(f"no document {doc_id} in the collection")
                raise ValueError("its text is missing")
            return decode_text(row[0])
        except (sqlite3.DatabaseError, UnicodeDecodeError, TypeError, ValueError) as e:
            if isinstance(e, sqlite3.OperationalError) and _busy(e):
                raise
            raise _error(CollectionDamaged, damaged_message(self.path, self._document_name(doc_id, e))) from e

    def load(self, doc_id: int, info: DocumentInfo | None = None) -> StoredDocument:
        """A stored document with its text and tokens; CollectionDamaged (naming it) when its
        stored data cannot be read. ``info``: its description, if the caller has read it."""
        info = info if info is not None else self.info(doc_id)
        try:
            text_blob, tokens_blob = self._data(doc_id)
            text = decode_text(text_blob)
            tokens, orders = decode_stored(tokens_blob, text)
        except (sqlite3.DatabaseError, ValueError, TypeError, KeyError, IndexError, UnicodeDecodeError, zlib.error,
                struct.error, MemoryError, CollectionVersionError) as e:
            if isinstance(e, sqlite3.OperationalError) and _busy(e):
                raise
            raise _error(CollectionDamaged, damaged_message(self.path, self._document_name(doc_id, e, info))) from e
        return StoredDocument(info=info, text=text, tokens=tokens, orders=orders)

    @contextlib.contextmanager
    def blob_readers(self, doc_id: int) -> Iterator[tuple[Reader, int, Reader]]:
        """See :meth:`sverka.core.store.Store.blob_readers`: incremental blob I/O (a seek and a
        read per part). sqlite3.OperationalError when the document has no data."""
        with self._db.blobopen("document_data", "tokens", int(doc_id), readonly=True) as tokens, \
                self._db.blobopen("document_data", "text", int(doc_id), readonly=True) as text:
            def reader(blob) -> Reader:
                def read(offset: int, length: int) -> bytes:
                    if offset < 0 or length < 0 or offset + length > len(blob):
                        raise ValueError("a part beyond the stored data")
                    blob.seek(offset)
                    return blob.read(length)
                return read

            yield reader(tokens), len(tokens), reader(text)

    def _data(self, doc_id: int) -> tuple[bytes, bytes]:
        """A document's stored text and tokens, read as blobs (incremental blob I/O: a check
        reading the novels it meets for the first time took 1.5-1.9 ms a novel through a
        SELECT, 1.3 this way). A document's data is never rewritten (ids are not reused), so
        the two reads see one document; ValueError when it has none."""
        try:
            with self._db.blobopen("document_data", "text", int(doc_id), readonly=True) as b:
                text = b.read()
            with self._db.blobopen("document_data", "tokens", int(doc_id), readonly=True) as b:
                tokens = b.read()
        except sqlite3.OperationalError as e:
            if "no such rowid" in str(e):
                raise ValueError("its text and tokens are missing") from e
            raise
        return text, tokens

    def _document_name(self, doc_id: int, error: BaseException, info: DocumentInfo | None = None) -> str:
        """'the stored data of "title" (path)' for messages about a damaged document."""
        if info is None:
            try:
                info = self.info(doc_id)
            except (CollectionError, sqlite3.DatabaseError):
                info = None
        name = f'"{info.title}" ({info.path or "pasted text"})' if info else f"document {doc_id}"
        return f"the stored data of {name} ({type(error).__name__}: {error})"

    def pairs(self, doc_id: int) -> tuple[np.ndarray, np.ndarray]:
        """The stored pair keys of a document: (hashes uint64, token positions int64) by position."""
        return self._hash_rows("pairs", doc_id)

    def sentences(self, doc_id: int) -> tuple[np.ndarray, np.ndarray]:
        """The stored sentence keys of a document: (hashes uint64, first tokens int64) by position."""
        return self._hash_rows("sentences", doc_id)

    def _hash_rows(self, table: str, doc_id: int) -> tuple[np.ndarray, np.ndarray]:
        rows = self._db.execute(f"SELECT hash, pos FROM {table} WHERE doc_id=? ORDER BY pos, hash",
                                (int(doc_id),)).fetchall()
        a = rows_array(rows, 2)
        return u64(np.ascontiguousarray(a[:, 0])), np.ascontiguousarray(a[:, 1])

    def short_lengths(self, ids: Iterable[int]) -> dict[int, int]:
        """Seed 000 ``length`` (how many longest words were kept) of each document."""
        out: dict[int, int] = {}
        for marks, chunk in self._in_lists(sorted({int(i) for i in ids})):
            out.update(self._db.execute(f"SELECT id, short_length FROM documents WHERE id IN ({marks})",
                                        chunk).fetchall())
        return out

    def pair_postings(self, hashes, *, max_posting: int = 0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Rows (hash uint64, doc_id int64, pos int64) of the pair keys among ``hashes``.

        A hash with more than ``max_posting`` rows (0 = no limit) is skipped whole: a pair of
        words nearly every document holds says nothing about borrowing and would only
        multiply the work (see :mod:`sverka.core.candidates`).
        """
        return self._postings("pairs", hashes, max_posting)

    def sentence_postings(self, hashes, *, max_posting: int = 0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Rows (hash uint64, doc_id int64, pos int64) of the sentence keys among ``hashes``."""
        return self._postings("sentences", hashes, max_posting)

    def _postings(self, table: str, hashes, max_posting: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        side = self._current_postings()
        if side is not None:
            return side.lookup(table, hashes, max_posting)
        return self.postings_from_tables(table, hashes, max_posting)

    def postings_from_tables(self, table: str, hashes, max_posting: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """:meth:`pair_postings` / :meth:`sentence_postings` (``table``) asked of SQLite's tables
        (what a check uses when the postings file cannot be)."""
        if not self._lookup_cache:  # the first lookup of a check: the larger page cache from now on
            self._db.execute(f"PRAGMA cache_size=-{LOOKUP_CACHE_KB}")
            self._lookup_cache = True
        parts = []
        for marks, chunk in self._in_lists(distinct(i64(hashes)).tolist()):
            rows = self._db.execute(f"SELECT hash, doc_id, pos FROM {table} WHERE hash IN ({marks})", chunk).fetchall()
            if rows:
                parts.append(rows_array(rows, 3))
        a = np.concatenate(parts) if parts else np.zeros((0, 3), dtype=np.int64)
        if max_posting and len(a):
            h = a[:, 0]
            if bool(np.all(h[1:] >= h[:-1])):  # as SQLite walks the IN list: runs of equal hashes
                first = np.flatnonzero(np.concatenate(([True], h[1:] != h[:-1])))
                counts = np.diff(np.append(first, len(h)))
                a = a[np.repeat(counts <= max_posting, counts)]
            else:
                values, inverse, counts = np.unique(h, return_inverse=True, return_counts=True)
                a = a[counts[inverse] <= max_posting]
        return u64(np.ascontiguousarray(a[:, 0])), np.ascontiguousarray(a[:, 1]), np.ascontiguousarray(a[:, 2])

    def short_candidates(self, word_hashes, *, min_shared: int = 2, limit: int = 50) -> list[tuple[int, int]]:
        """Seed 000: documents sharing at least ``min_shared`` longest-word hashes."""
        return self._grouped("short_words", word_hashes, min_shared, limit)

    def _grouped(self, table: str, hashes, min_shared: int, limit: int) -> list[tuple[int, int]]:
        values = distinct(i64(hashes)).tolist()
        if not values or limit <= 0:
            return []
        if len(values) <= self._variable_limit:
            marks = ",".join("?" * len(values))
            return [tuple(r) for r in self._db.execute(
                f"SELECT doc_id, COUNT(DISTINCT hash) FROM {table} WHERE hash IN ({marks}) "
                "GROUP BY doc_id HAVING COUNT(DISTINCT hash) >= ? ORDER BY 2 DESC, 1 LIMIT ?",
                (*values, int(min_shared), int(limit))).fetchall()]
        counts: dict[int, int] = {}
        for marks, chunk in self._in_lists(values):  # the chunks hold disjoint hashes: counts add up
            for doc_id, n in self._db.execute(
                    f"SELECT doc_id, COUNT(DISTINCT hash) FROM {table} WHERE hash IN ({marks}) GROUP BY doc_id", chunk):
                counts[doc_id] = counts.get(doc_id, 0) + n
        found = sorted(((d, n) for d, n in counts.items() if n >= min_shared), key=lambda x: (-x[1], x[0]))
        return found[:limit]

    # ---- vectors of meaning (sverka.core.bymeaning)

    def vector_documents(self) -> np.ndarray:
        """Ids (int64, sorted) of the documents that have vectors of meaning."""
        if not self._has_vectors:
            return np.zeros(0, np.int64)
        rows = self._db.execute("SELECT DISTINCT doc_id FROM sentence_vectors ORDER BY doc_id").fetchall()
        return np.asarray([r[0] for r in rows], np.int64)

    def vectors(self, doc_id: int) -> tuple[np.ndarray, np.ndarray]:
        """A document's sentences with vectors: ([start, stop) int64 (n, 2), int8 vectors (n, dim)),
        by sentence index; empty when it has none."""
        if not self._has_vectors:
            return np.zeros((0, 2), np.int64), np.zeros((0, 0), np.int8)
        rows = self._db.execute("SELECT start, stop, vector FROM sentence_vectors WHERE doc_id=? ORDER BY idx",
                                (int(doc_id),)).fetchall()
        return _vector_rows(rows)

    def vectors_at(self, keys: Sequence[tuple[int, int]]) -> dict[tuple[int, int], tuple[int, int, np.ndarray]]:
        """``{(doc_id, idx): (start, stop, int8 vector)}`` of the sentences of ``keys`` still stored."""
        out = {}
        if not self._has_vectors or len(keys) == 0:
            return out
        # one query for them all (a check's hits: a few hundred), each looked up by the primary key
        wanted = json.dumps([[int(d), int(k)] for d, k in keys])
        for d, k, a, b, v in self._db.execute(
                "SELECT s.doc_id, s.idx, s.start, s.stop, s.vector FROM json_each(?) AS j JOIN sentence_vectors AS s "
                "ON s.doc_id = json_extract(j.value, '$[0]') AND s.idx = json_extract(j.value, '$[1]')", (wanted,)):
            out[(d, k)] = (a, b, np.frombuffer(v, np.int8))
        return out


def _vector_rows(rows) -> tuple[np.ndarray, np.ndarray]:
    """Rows (start, stop, vector bytes) as (spans int64 (n, 2), vectors int8 (n, dim))."""
    if not rows:
        return np.zeros((0, 2), np.int64), np.zeros((0, 0), np.int8)
    spans = np.asarray([(a, b) for a, b, _ in rows], np.int64)
    return spans, np.frombuffer(b"".join(v for *_, v in rows), np.int8).reshape(len(rows), -1)


class _Batch:
    """The statements of :func:`sverka.core.store.common.write_batch` on a file, inside its
    transaction ``db``."""

    def __init__(self, store: SQLiteStore, db: sqlite3.Connection) -> None:
        self.store, self.db = store, db
        self.removed: set[int] = set()  # documents whose rows went (for the postings file)
        self.added: dict[str, list[np.ndarray]] = {}  # per table: the columns of the rows written

    def name_of(self, doc_id: int) -> str | None:
        row = self.db.execute("SELECT path, title FROM documents WHERE id=?", (doc_id,)).fetchone()
        return None if row is None else _py_path(row[0]) or row[1]

    def mark_template(self, doc_id: int) -> None:
        self.db.execute("UPDATE documents SET is_template=1 WHERE id=?", (doc_id,))

    def by_path(self, path: str) -> tuple[int, str] | None:
        return self.db.execute("SELECT id, sha256 FROM documents WHERE path=?", (_sql_path(path),)).fetchone()

    def refresh(self, doc_id: int, p: PreparedDocument, template: bool) -> None:
        self.db.execute("UPDATE documents SET size_bytes=?, mtime=?, is_template=is_template OR ? WHERE id=?",
                        (p.size_bytes, p.mtime, int(template), doc_id))

    def drop(self, doc_id: int) -> None:
        self.store._delete_documents(self.db, [doc_id], hashes=False)
        self.removed.add(int(doc_id))

    def by_sha256(self, sha: str) -> tuple[int, str] | None:
        row = self.db.execute("SELECT id, path, title FROM documents WHERE sha256=?", (sha,)).fetchone()
        return None if row is None else (row[0], _py_path(row[1]) or row[2])

    def insert(self, p: PreparedDocument, template: bool, added: str) -> int:
        cur = self.db.execute(
            "INSERT INTO documents(path, title, format, sha256, chars, words, size_bytes, mtime,"
            " added, language, is_template, warnings, fulltext_hash, short_length, minhash)"
            " VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
            (_sql_path(p.path), storable_text(p.title), p.format, p.sha256, p.chars, p.words, p.size_bytes, p.mtime,
             added, p.language, int(template), json.dumps([to_json(w) for w in p.warnings], ensure_ascii=False),
             0, p.short_length, b""))  # legacy columns of format 2.0: see the module docstring
        doc_id = cur.lastrowid
        self.db.execute("INSERT INTO document_data(doc_id, text, tokens) VALUES(?,?,?)",
                        (doc_id, p.text_blob, p.tokens_blob))
        if p.vectors is not None and len(p.vectors):
            self.db.executemany("INSERT INTO sentence_vectors(doc_id, idx, start, stop, vector) VALUES(?,?,?,?,?)",
                                ((doc_id, k, int(a), int(b), v.tobytes())
                                 for k, ((a, b), v) in enumerate(zip(p.vector_spans.tolist(), p.vectors))))
        return doc_id

    def drop_rows(self, ids: list[int]) -> None:
        self.store._delete_documents(self.db, ids, rows_only=True)
        self.removed.update(int(i) for i in ids)

    def append_rows(self, table: str, columns: list[np.ndarray], order: np.ndarray) -> None:
        # flat columns handed over as a zip of tolist()s: several times faster than a nested
        # tolist(); in slices, so that the Python integers of a large batch never all exist at once
        if table in postings.TABLES:
            self.added[table] = columns
        sql = f"INSERT INTO {table} VALUES({','.join('?' * len(columns))})"
        for k in range(0, len(order), _ROWS_PER_CALL):
            take = order[k : k + _ROWS_PER_CALL]
            self.db.executemany(sql, zip(*(c[take].tolist() for c in columns)))


def read_old_rows(path: Path, skipped: list[str]) -> tuple[int, dict[str, str], list[tuple], bool]:
    """``(format major, meta, rows, damaged)`` of a collection file to rebuild, read one document
    at a time so a damaged page costs only the documents on it (named in ``skipped``).

    A row is ``(path, title, format, size_bytes, mtime, added, is_template, warnings JSON,
    text blob)``; the path as stored (text, or the OS's bytes for a name that is not UTF-8)."""
    try:
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    except sqlite3.Error as e:
        raise CollectionError(f"cannot open the collection {path}: {e}") from e
    damaged = False
    rows = []
    db.text_factory = lambda b: b.decode("utf-8", "replace")  # a damaged title must not stop the rebuild
    try:
        version = db.execute("PRAGMA user_version").fetchone()[0]
        meta = dict(db.execute("SELECT key, value FROM meta").fetchall())
        ids = [r[0] for r in db.execute("SELECT id FROM documents ORDER BY id").fetchall()]
        for doc_id in ids:
            try:
                row = db.execute(
                    "SELECT d.path, d.title, d.format, d.size_bytes, d.mtime, d.added, d.is_template, d.warnings, "
                    "x.text, x.tokens FROM documents d JOIN document_data x ON x.doc_id = d.id WHERE d.id=?",
                    (doc_id,)).fetchone()
            except sqlite3.DatabaseError as e:
                damaged = True
                skipped.append(f"document {doc_id}: {e}")
                continue
            if row is None:
                damaged = True
                skipped.append(f"document {doc_id}: its text is missing")
                continue
            if version >> 16 != 1 and not damaged:  # an up-to-date file: is this document whole?
                try:
                    decode_tokens(row[9], decode_text(row[8]))
                    json.loads(row[7] or "[]")
                except Exception:  # any failure to read it back is damage
                    damaged = True
            rows.append(row[:9])
        if not damaged:
            damaged = db.execute("PRAGMA quick_check").fetchone()[0] != "ok"
    except sqlite3.DatabaseError as e:
        raise CollectionError(f"{path} is not a Sverka collection or is damaged ({e}); it cannot be rebuilt") from e
    finally:
        db.close()
    return version >> 16, meta, rows, damaged
