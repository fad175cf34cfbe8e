"""A collection kept in a PostgreSQL database: one archive shared by a department's desktops.

Opened by :func:`sverka.core.store.open_store` (or ``sverka ... --db``) with a URL such as
``postgresql://teacher@archive.example/sverka``; the database must exist (an administrator
creates it, ``CREATE DATABASE sverka``) and the role must be allowed to create tables in it
the first time. Sverka then creates its tables there, as the SQLite store does in a new file.

Tables (the SQLite file's, see core/store/sqlite.py; hashes are the uint64's 64 bits in a BIGINT)::

    meta(key PRIMARY KEY, value)   schema_version "MAJOR.MINOR", the indexing settings, hash seed,
                                   canonization / fingerprint / tokens versions
    documents(id identity, path BYTEA UNIQUE (the OS bytes of the name), title, format,
              sha256 UNIQUE, chars, words, size_bytes, mtime, added ISO-8601, language,
              is_template BOOLEAN, warnings JSON, short_length); a partial index of the templates
    document_data(doc_id PRIMARY KEY, text BYTEA UTF-8, tokens BYTEA: the tokens blob)
    pairs(hash, doc_id, pos), sentences(hash, doc_id, pos)   PRIMARY KEY(hash, doc_id, pos)
    short_words(hash, doc_id)                                PRIMARY KEY(hash, doc_id)
    each hash table also indexed by doc_id (removing and loading a document)

The columns the SQLite format 2.0 wrote and 2.1 keeps empty (``fulltext_hash``, ``minhash``,
super- and mega-shingles) do not exist here: nothing reads them.

Versions: the same SCHEMA_MAJOR / SCHEMA_MINOR as the SQLite file, kept in ``meta``; a newer
major version is refused ("update Sverka"), an older one or other canonization / fingerprint
/ hash-seed versions with "rebuild" (CollectionNeedsRebuild), other indexing settings with
CollectionSettingsError, exactly as for a file.

Writing: every write is one transaction that first takes a transaction-level advisory lock
of the collection (``pg_advisory_xact_lock``), so teachers adding at once are serialized and
each batch is classified (added / updated / unchanged / duplicate) against everything
committed before it; a writer waiting longer than the busy timeout gets CollectionBusy.
Readers take no lock and are never blocked (a check sees the last committed batch). The
hash rows of a batch go in with ``COPY ... (FORMAT BINARY)`` built straight from the numpy
arrays. A candidate query is one query per table: the suspect's keys as one array parameter,
``unnest``-ed and joined with the posting table (an index probe per key), its rows read back
with a binary ``COPY`` straight into numpy.

Sverka connects only to the server the user names; errors the user can act on (server down,
login refused, database missing, another schema version, connection lost) raise
:class:`~sverka.core.errors.CollectionError` subclasses naming the server, never the password.
"""

from __future__ import annotations

import contextlib
import json
import os
import struct
from pathlib import Path
from typing import Iterable, Iterator, Sequence

import numpy as np

from ..errors import CollectionBusy, CollectionError, CollectionNeedsRebuild, CollectionVersionError
from ..messages import to_json
from ..results import DocumentInfo
from ..settings import Settings
from ..sorting import distinct
from . import common
from .codecs import Reader, decode_stored, decode_text, i64, rows_array, u64
from .common import (BUSY_TIMEOUT, SCHEMA_MAJOR, SCHEMA_MINOR, PreparedDocument, StoredDocument,
                     check_indexing_settings, indexing_meta, other_version, storable_text, stored_settings, versions)

__all__ = ["CONNECT_TIMEOUT", "PostgresStore", "display_url"]

#: Seconds to wait for the server to answer a connection.
CONNECT_TIMEOUT = 10
#: blob_readers reads a document whole with its first query when its text and tokens hold at
#: most this many bytes (a school essay's ~15 KB; a 2 MB novel is still read by parts).
READ_WHOLE_MAX = 256 * 1024
#: Parts of a blob one query reads at most (a check reading a novel's windows asks for 5 parts
#: a window and the window's text: tens of windows, one round trip).
MANY_PARTS = 1000
#: infos() of several documents (a check's candidates, which it reads next) brings the text and
#: tokens of each holding at most this many bytes: 50 candidates, one round trip.
READ_AHEAD_MAX = 64 * 1024
#: Ids known to have no vectors of meaning, at most (then forgotten, and asked again).
WITHOUT_VECTORS_MAX = 1_000_000
#: Short documents kept read whole, at most, besides those of the last infos().
KEPT_MAX = 64
#: Key of the advisory lock every writer of a collection (one database) takes.
_WRITE_LOCK = 0x53766572  # "Sver"
_COPY_HEADER = b"PGCOPY\n\xff\r\n\x00" + struct.pack(">ii", 0, 0)
_COPY_TRAILER = struct.pack(">h", -1)
_COPY_ROWS = 1 << 18  # rows per COPY write
#: One posting row (hash, doc_id, pos) as the posting queries pack them (``int8send`` twice, ``int4send``).
_POSTING_ROW = np.dtype([("hash", ">i8"), ("doc_id", ">i8"), ("pos", ">i4")])

_SCHEMA = """
CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE documents(
    id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
    path BYTEA UNIQUE,
    title TEXT NOT NULL,
    format TEXT NOT NULL,
    sha256 TEXT NOT NULL UNIQUE,
    chars BIGINT NOT NULL,
    words BIGINT NOT NULL,
    size_bytes BIGINT NOT NULL,
    mtime DOUBLE PRECISION,
    added TEXT NOT NULL,
    language TEXT NOT NULL,
    is_template BOOLEAN NOT NULL DEFAULT FALSE,
    warnings TEXT NOT NULL DEFAULT '[]',
    short_length INTEGER NOT NULL);
CREATE INDEX documents_template ON documents(id) WHERE is_template;
CREATE TABLE document_data(
    doc_id BIGINT PRIMARY KEY,
    text BYTEA NOT NULL,
    tokens BYTEA NOT NULL);
ALTER TABLE document_data ALTER COLUMN text SET STORAGE EXTERNAL, ALTER COLUMN tokens SET STORAGE EXTERNAL;
CREATE TABLE pairs(hash BIGINT NOT NULL, doc_id BIGINT NOT NULL, pos INTEGER NOT NULL,
    PRIMARY KEY(hash, doc_id, pos));
CREATE INDEX pairs_doc ON pairs(doc_id);
CREATE TABLE sentences(hash BIGINT NOT NULL, doc_id BIGINT NOT NULL, pos INTEGER NOT NULL,
    PRIMARY KEY(hash, doc_id, pos));
CREATE INDEX sentences_doc ON sentences(doc_id);
CREATE TABLE short_words(hash BIGINT NOT NULL, doc_id BIGINT NOT NULL,
    PRIMARY KEY(hash, doc_id));
CREATE INDEX short_words_doc ON short_words(doc_id);
"""
#: Vectors of meaning, one row a sentence (sverka.core.bymeaning): the record; each desktop
#: keeps its own index of them (a cache, rebuilt from this table when missing or stale).
_VECTOR_TABLE = ("CREATE TABLE IF NOT EXISTS sentence_vectors(doc_id BIGINT NOT NULL, idx INTEGER NOT NULL, "
                 "start BIGINT NOT NULL, stop BIGINT NOT NULL, vector BYTEA NOT NULL, PRIMARY KEY(doc_id, idx))")
#: table -> (columns, big-endian binary types) of the rows COPY writes.
_HASH_TABLES = {
    "pairs": (("hash", "doc_id", "pos"), (">i8", ">i8", ">i4")),
    "sentences": (("hash", "doc_id", "pos"), (">i8", ">i8", ">i4")),
    "short_words": (("hash", "doc_id"), (">i8", ">i8")),
}
_INFO_COLUMNS = "id, path, title, format, chars, words, size_bytes, added, sha256, is_template"
#: The posting tables' indexes (name, the statement that builds it): dropped by
#: :meth:`PostgresStore.bulk_load` while rows are appended, built once at its end.
_POSTING_INDEXES = (
    ("pairs_pkey", "ALTER TABLE pairs ADD CONSTRAINT pairs_pkey PRIMARY KEY (hash, doc_id, pos)"),
    ("pairs_doc", "CREATE INDEX pairs_doc ON pairs(doc_id)"),
    ("sentences_pkey", "ALTER TABLE sentences ADD CONSTRAINT sentences_pkey PRIMARY KEY (hash, doc_id, pos)"),
    ("sentences_doc", "CREATE INDEX sentences_doc ON sentences(doc_id)"),
    ("short_words_pkey", "ALTER TABLE short_words ADD CONSTRAINT short_words_pkey PRIMARY KEY (hash, doc_id)"),
    ("short_words_doc", "CREATE INDEX short_words_doc ON short_words(doc_id)"),
)


def _psycopg():
    try:
        import psycopg
    except ImportError as e:  # pragma: no cover - a dependency of Sverka
        raise CollectionError("a PostgreSQL collection needs the psycopg package: pip install 'psycopg[binary]'") from e
    return psycopg


def _parts(url: str) -> dict[str, str]:
    from psycopg.conninfo import conninfo_to_dict

    try:
        return {k: str(v) for k, v in conninfo_to_dict(url).items() if v is not None}
    except Exception as e:  # psycopg.ProgrammingError: a malformed URL
        raise CollectionError.of("error.shared_bad_address", path=display_url(url, parse=False), detail=str(e)) from None


def display_url(url: str, *, parse: bool = True) -> str:
    """The URL to show: ``postgresql://user@host:port/db``, never the password."""
    if not parse:
        head, _, tail = url.partition("://")
        creds, at, rest = tail.rpartition("@")
        return f"{head}://{creds.split(':', 1)[0]}@{rest}" if at else url
    p = _parts(url)
    host = p.get("host", "localhost")
    user = p.get("user", "")
    db = p.get("dbname", "")
    if host.startswith("/"):  # a Unix socket folder
        return f"postgresql://{user + '@' if user else ''}/{db}?host={host}"
    return f"postgresql://{user + '@' if user else ''}{host}:{p.get('port', '5432')}/{db}"


def _server(url: str) -> str:
    """The server as a person names it: ``host:port``, or the socket folder (a path reads the
    same in every language)."""
    p = _parts(url)
    host = p.get("host", "localhost")
    return host if host.startswith("/") else f"{host}:{p.get('port', '5432')}"


def _reason(message: str) -> str:
    """libpq's reason for a failed connection, without its prefixes and hints."""
    first = message.strip().splitlines()[0] if message.strip() else message
    return first.rsplit(" failed: ", 1)[-1].split(": ", 1)[-1].strip() if " failed: " in first else first.strip()


def _db_path(path) -> bytes | None:
    """A path as stored: the OS bytes of the name (lossless for names that are not UTF-8)."""
    return None if path is None else os.fsencode(os.fspath(path))


def _py_path(value) -> str | None:
    return None if value is None else os.fsdecode(bytes(value))


def _info(row) -> DocumentInfo:
    return DocumentInfo(id=int(row[0]), path=_py_path(row[1]), title=row[2], format=row[3], chars=int(row[4]),
                        words=int(row[5]), size_bytes=int(row[6]), added=row[7], sha256=row[8],
                        is_template=bool(row[9]))


def _ids(values: Iterable[int]) -> list[int]:
    return sorted({int(i) for i in values})


def _bigint_array(values: np.ndarray) -> str:
    """A PostgreSQL array literal of the int64 ``values``."""
    return "{" + ",".join(map(str, values.tolist())) + "}"


def _copy_payload(columns: list[np.ndarray], types: tuple[str, ...]) -> np.ndarray:
    """Rows of ``COPY ... (FORMAT BINARY)``: per row a field count, then (length, value) per field."""
    n = len(columns[0])
    fields = [("n", ">i2")]
    for j, t in enumerate(types):
        fields += [(f"l{j}", ">i4"), (f"v{j}", t)]
    rec = np.empty(n, dtype=np.dtype(fields))
    rec["n"] = len(types)
    for j, (col, t) in enumerate(zip(columns, types)):
        rec[f"l{j}"] = np.dtype(t).itemsize
        rec[f"v{j}"] = col
    return rec


class PostgresStore:
    """A collection in a PostgreSQL database (see the module docstring). One connection;
    use it from one thread at a time, as the SQLite store."""

    def __init__(self, url: str, settings: Settings | None = None, *, busy_timeout: float = BUSY_TIMEOUT) -> None:
        psycopg = _psycopg()
        self.url = url
        self.path = display_url(url)
        self.busy_timeout = busy_timeout
        self._conn = None
        #: doc_id -> (sha256, text blob, tokens blob) of short documents read whole a moment ago
        #: (:meth:`infos` of a check's candidates, :meth:`blob_readers`), until :meth:`load` takes them
        self._kept: dict[int, tuple[str, bytes, bytes]] = {}
        #: ids of documents infos() found without vectors of meaning (written with a document:
        #: none later under the same id)
        self._without_vectors: set[int] = set()
        try:
            self._conn = psycopg.connect(url, autocommit=True, connect_timeout=CONNECT_TIMEOUT,
                                         application_name="Sverka")
        except psycopg.Error as e:
            raise self._connect_error(e) from None
        try:
            with self._conn.cursor() as cur:
                cur.execute(f"SET lock_timeout = {int(busy_timeout * 1000)}")
                # A check probes the posting tables' index once per key: random reads of pages
                # that are cached or on SSD. With the default (4.0, spinning disks) the planner
                # prefers reading a whole posting table for a few thousand keys.
                cur.execute("SET random_page_cost = 1.1")
                # A check's queries are index probes: compiling them (the server's JIT, on by
                # default since PostgreSQL 12 where built with LLVM) never pays. It starts where the
                # planner's estimate passes jit_above_cost, which the posting queries' estimates
                # reach as an archive grows: 9-16 ms a query, 65 ms with its optimisation, ~300 ms
                # with inlining, measured on a posting query of 4 700 keys forced to compile.
                if self._conn.info.server_version >= 110000:
                    cur.execute("SET jit = off")
            self._setup(settings)
        except BaseException:
            self.close()
            raise

    # ---- errors

    def _connect_error(self, e) -> CollectionError:
        msg = str(e)
        low = msg.lower()
        p = _parts(self.url)
        server = _server(self.url)
        user, db = p.get("user", os.environ.get("PGUSER", "")), p.get("dbname", "")
        if "password authentication failed" in low or "no password supplied" in low or (
                "role" in low and "does not exist" in low) or "pg_hba.conf" in low or "authentication" in low:
            return CollectionError.of("error.server_login_refused", server=server, user=user, path=self.path)
        if "database" in low and "does not exist" in low:
            return CollectionError.of("error.server_no_database", server=server, database=db, path=self.path)
        if "refused" in low or "no such file" in low or "could not connect" in low or "timeout" in low \
                or "resolve host" in low or "translate host name" in low or "unreachable" in low \
                or "connection failed" in low or "connection is bad" in low:
            return CollectionError.of("error.server_unreachable", server=server, path=self.path, detail=_reason(msg))
        return CollectionError.of("error.shared_cannot_open", path=self.path, detail=msg.strip())

    def _error(self, e) -> Exception:
        """The error to show for a failure of the server the user can act on; ``e`` otherwise."""
        psycopg = _psycopg()
        if isinstance(e, psycopg.errors.LockNotAvailable):
            return CollectionBusy.of("error.collection_busy", path=self.path)
        if isinstance(e, psycopg.errors.InsufficientPrivilege):
            return CollectionError.of("error.shared_no_write", path=self.path, detail=str(e).strip())
        if isinstance(e, psycopg.errors.DiskFull):
            return CollectionError.of("error.shared_disk_full", path=self.path)
        if isinstance(e, psycopg.OperationalError):
            return CollectionError.of("error.shared_connection_lost", path=self.path, detail=str(e).strip())
        return e

    @contextlib.contextmanager
    def _cursor(self) -> Iterator:
        """A cursor outside any transaction (each statement sees the last committed data)."""
        psycopg = _psycopg()
        if self._conn is None:
            raise CollectionError(f"the shared collection {self.path} is closed")
        try:
            with self._conn.cursor() as cur:
                yield cur
        except psycopg.Error as e:
            err = self._error(e)
            if err is e:
                raise
            raise err from e

    @contextlib.contextmanager
    def _write(self) -> Iterator:
        """One transaction holding the collection's write lock; rolled back on any exception."""
        psycopg = _psycopg()
        if self._conn is None:
            raise CollectionError(f"the shared collection {self.path} is closed")
        try:
            with self._conn.transaction(), self._conn.cursor() as cur:
                cur.execute("SELECT pg_advisory_xact_lock(%s)", (_WRITE_LOCK,))
                yield cur
        except psycopg.Error as e:
            err = self._error(e)
            if err is e:
                raise
            raise err from e

    # ---- opening

    def _setup(self, settings: Settings | None) -> None:
        with self._write() as cur:
            cur.execute("SELECT to_regclass('meta') IS NOT NULL")
            if not cur.fetchone()[0]:
                cur.execute("SELECT count(*) FROM pg_tables WHERE schemaname = current_schema()")
                if cur.fetchone()[0]:
                    raise CollectionError.of("error.shared_other_tables", path=self.path)
                cur.execute(_SCHEMA)
                meta = {**versions(), **indexing_meta(settings or Settings()),
                        "schema_version": f"{SCHEMA_MAJOR}.{SCHEMA_MINOR}"}
                cur.executemany("INSERT INTO meta(key, value) VALUES(%s, %s)", sorted(meta.items()))
            cur.execute("SELECT key, value FROM meta")
            meta = dict(cur.fetchall())
            cur.execute("SELECT to_regclass('sentence_vectors') IS NOT NULL")
            if not cur.fetchone()[0]:  # a collection of an earlier Sverka: its documents have no vectors
                cur.execute(_VECTOR_TABLE)
        self._check_version(meta.get("schema_version", "0.0"))
        other = other_version(meta)
        if other is not None:
            key, found, wanted = other
            raise CollectionNeedsRebuild.of("error.shared_other_version", path=self.path, key=key, found=found,
                                            wanted=wanted)
        self.settings = stored_settings(meta)
        #: A bulk load (see :meth:`bulk_load`) began and did not end: the posting indexes are missing.
        self.bulk_loading = meta.get("bulk_load") == "1"
        #: The collection's own cap on posting lists (0: none), see :meth:`set_posting_cap`.
        self.posting_cap = int(meta.get("posting_cap", "0"))
        if settings is not None:
            check_indexing_settings(self, settings)
            self.settings = settings

    def _check_version(self, version: str) -> None:
        try:
            major, minor = (int(x) for x in version.split("."))
        except ValueError:
            raise CollectionError.of("error.shared_unreadable_format", path=self.path, found=repr(version)) from None
        if major > SCHEMA_MAJOR:
            raise CollectionVersionError.of("error.shared_newer", path=self.path, found=f"{major}.{minor}",
                                            reads=f"{SCHEMA_MAJOR}.x")
        if major < SCHEMA_MAJOR:
            raise CollectionNeedsRebuild.of("error.shared_older", path=self.path, found=f"{major}.{minor}")

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None

    def __enter__(self) -> "PostgresStore":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # ---- writing

    def write_batch(self, items: Sequence[PreparedDocument | tuple[str, int]], *,
                    template: bool = False) -> list[tuple[str, str, str]]:
        """Write prepared documents in ONE transaction and classify each against what is
        stored (:func:`sverka.core.store.common.write_batch`, as the file does)."""
        with self._write() as cur:
            return common.write_batch(_Batch(cur), items, template=template)

    @contextlib.contextmanager
    def bulk_load(self) -> Iterator["PostgresStore"]:
        """Add very many documents at once (an administrator's import of an archive):
        ``with store.bulk_load(): store.write_batch(...)...``.

        Keeping the posting tables' B-trees up to date row by row costs a random page write
        per row once they outgrow memory; instead their indexes are dropped
        (:meth:`begin_bulk_load`), the batches' rows appended, and the indexes built once,
        sorted, at the end (:meth:`end_bulk_load`). Meanwhile the collection stays correct
        (checks find the same rows, reading whole tables: slowly) and other writers may add;
        the rows stay unique by construction, as always. Building the indexes locks the
        posting tables: checks wait until it is done. Not part of the store protocol: the
        SQLite file has no such mode. When the import stops half-way, the collection says so
        (``bulk_loading``) and the next ``end_bulk_load`` (or ``bulk_load``) finishes it."""
        self.begin_bulk_load()
        yield self
        self.end_bulk_load()

    def begin_bulk_load(self) -> None:
        """Drop the posting tables' indexes (if there) and mark the collection as loading."""
        with self._write() as cur:
            for name, ddl in _POSTING_INDEXES:
                table = ddl.split()[2]
                if name.endswith("_pkey"):
                    cur.execute(f"ALTER TABLE {table} DROP CONSTRAINT IF EXISTS {name}")
                else:
                    cur.execute(f"DROP INDEX IF EXISTS {name}")
            cur.execute("INSERT INTO meta(key, value) VALUES('bulk_load', '1') ON CONFLICT (key) DO NOTHING")
        self.bulk_loading = True

    def end_bulk_load(self) -> None:
        """Build the posting indexes that are missing, clear the mark, then VACUUM (ANALYZE)
        the tables a check reads: the planner's statistics, and the visibility map that lets a
        probe of a posting list read the index alone (rows appended by COPY are not marked
        visible to all until a vacuum; autovacuum would come later)."""
        with self._write() as cur:
            for name, ddl in _POSTING_INDEXES:
                cur.execute("SELECT to_regclass(%s) IS NULL", (name,))
                if cur.fetchone()[0]:
                    cur.execute(ddl)
            cur.execute("DELETE FROM meta WHERE key = 'bulk_load'")
        self.bulk_loading = False
        with self._cursor() as cur:  # autocommit: VACUUM runs outside a transaction
            cur.execute("VACUUM (ANALYZE) documents, pairs, sentences, short_words")

    @contextlib.contextmanager
    def adding(self) -> Iterator["PostgresStore"]:
        """See :meth:`sverka.core.store.Store.adding`: the server keeps nothing beside its tables."""
        yield self

    def set_posting_cap(self, cap: int) -> None:
        """Set the collection's own cap (0: none): a key with more than ``cap`` rows is left out
        of every candidate query whole, whatever cap the query asks for (a lower one still
        applies). For a very big archive, where a pair of words found in a few hundred of a
        million documents says little about borrowing and costs the check most of its rows
        (docs/SCALE.md). Stored in ``meta``: every desktop opening the collection uses it.
        Not part of the store protocol: the SQLite file has no such setting."""
        cap = max(0, int(cap))
        with self._write() as cur:
            cur.execute("INSERT INTO meta(key, value) VALUES('posting_cap', %s) "
                        "ON CONFLICT (key) DO UPDATE SET value = excluded.value", (str(cap),))
        self.posting_cap = cap

    def remove(self, ids: Iterable[int]) -> int:
        """Remove documents by id in one transaction; returns how many existed."""
        ids = _ids(ids)
        if not ids:
            return 0
        with self._write() as cur:
            cur.execute("DELETE FROM documents WHERE id = ANY(%s)", (ids,))
            n = cur.rowcount
            for t in ("document_data", "sentence_vectors", *_HASH_TABLES):
                cur.execute(f"DELETE FROM {t} WHERE doc_id = ANY(%s)", (ids,))
        return n

    def set_template(self, doc_id: int, template: bool) -> None:
        with self._write() as cur:
            cur.execute("UPDATE documents SET is_template=%s WHERE id=%s", (bool(template), int(doc_id)))
            if cur.rowcount == 0:
                raise CollectionError(f"no document {doc_id} in the collection")

    def analyze(self) -> None:
        """Refresh the planner's statistics of the tables a check reads (after big adds)."""
        with self._cursor() as cur:
            cur.execute("ANALYZE documents, pairs, sentences, short_words")

    def integrity_check(self) -> str:
        """"ok", or the documents whose stored text is missing."""
        with self._cursor() as cur:
            cur.execute("SELECT d.id FROM documents d LEFT JOIN document_data x ON x.doc_id = d.id "
                        "WHERE x.doc_id IS NULL ORDER BY d.id LIMIT 20")
            missing = [r[0] for r in cur.fetchall()]
        return "ok" if not missing else f"documents without their text: {missing}"

    # ---- reading

    def _one(self, sql: str, params=()) -> tuple | None:
        with self._cursor() as cur:
            cur.execute(sql, params)
            return cur.fetchone()

    def _all(self, sql: str, params=()) -> list[tuple]:
        with self._cursor() as cur:
            cur.execute(sql, params)
            return cur.fetchall()

    def count(self) -> int:
        return int(self._one("SELECT count(*) FROM documents")[0])

    def documents(self) -> list[DocumentInfo]:
        """Every document, sorted by title (code point order, as SQLite) then id."""
        return [_info(r) for r in self._all(f'SELECT {_INFO_COLUMNS} FROM documents ORDER BY title COLLATE "C", id')]

    def info(self, doc_id: int) -> DocumentInfo:
        row = self._one(f"SELECT {_INFO_COLUMNS} FROM documents WHERE id=%s", (int(doc_id),))
        if row is None:
            raise CollectionError(f"no document {doc_id} in the collection")
        return _info(row)

    def infos(self, ids: Iterable[int]) -> dict[int, DocumentInfo]:
        """The documents of ``ids`` still in the collection, by id (one round trip, not one per id)."""
        ids = _ids(ids)
        if not ids:
            return {}
        if len(ids) == 1:  # (a check asking whether one document is still there)
            return {info.id: info for info in map(_info, self._all(
                f"SELECT {_INFO_COLUMNS} FROM documents WHERE id = %s", (ids[0],)))}
        # The descriptions of a check's candidates, which it reads next: the short ones come
        # with their text and tokens (READ_AHEAD_MAX), kept for blob_readers and load.
        small = "octet_length(d.tokens) + octet_length(d.text) <= %s"
        # Whether each has vectors of meaning comes along too (a document's vectors are written
        # with it, and an id is never used again: what vectors() then needs not ask).
        rows = self._all(f"SELECT {', '.join('m.' + c for c in _INFO_COLUMNS.split(', '))}, "
                         f"EXISTS (SELECT 1 FROM sentence_vectors v WHERE v.doc_id = m.id), "
                         f"CASE WHEN {small} THEN d.text END, CASE WHEN {small} THEN d.tokens END "
                         f"FROM documents m LEFT JOIN document_data d ON d.doc_id = m.id WHERE m.id = ANY(%s)",
                         (READ_AHEAD_MAX, READ_AHEAD_MAX, ids))
        out = {}
        self._kept = {}
        if len(self._without_vectors) > WITHOUT_VECTORS_MAX:
            self._without_vectors.clear()
        for row in rows:
            info = _info(row)
            out[info.id] = info
            if not row[-3]:
                self._without_vectors.add(info.id)
            if row[-2] is not None and row[-1] is not None:
                self._kept[info.id] = (info.sha256, bytes(row[-2]), bytes(row[-1]))
        return out

    def find_by_path(self, path: str | Path) -> DocumentInfo | None:
        row = self._one(f"SELECT {_INFO_COLUMNS} FROM documents WHERE path=%s", (_db_path(str(path)),))
        return _info(row) if row else None

    def require_writable(self) -> None:
        """A shared collection is opened for writing; a login without the right to write is
        refused by the server itself, with its message."""

    def root(self) -> str | None:
        """The deepest folder holding every stored document that has a path (None when none
        has): the common prefix of all paths is that of the smallest and the largest one."""
        # bytea has no min()/max(): the first and last path in byte order (what SQLite's min/max give)
        low = self._all("SELECT path FROM documents WHERE path IS NOT NULL ORDER BY path LIMIT 1")
        high = self._all("SELECT path FROM documents WHERE path IS NOT NULL ORDER BY path DESC LIMIT 1")
        low, high = (low[0][0] if low else None), (high[0][0] if high else None)
        if low is None:
            return None
        try:
            common = os.path.commonpath([os.path.dirname(_py_path(low)), os.path.dirname(_py_path(high))])
        except ValueError:
            return None
        return common or None

    def ids_under(self, folder: str | Path) -> list[int]:
        """Ids of documents whose path lies inside ``folder``."""
        prefix = _db_path(str(folder).rstrip(os.sep) + os.sep)
        rows = self._all("SELECT id FROM documents WHERE substring(path from 1 for %s) = %s ORDER BY id",
                         (len(prefix), prefix))
        return [int(r[0]) for r in rows]

    def stat_of(self, path: str) -> tuple[int, int, float | None] | None:
        row = self._one("SELECT id, size_bytes, mtime FROM documents WHERE path=%s", (_db_path(path),))
        return None if row is None else (int(row[0]), int(row[1]), row[2])

    def find_by_sha256(self, sha: str) -> int | None:
        row = self._one("SELECT id FROM documents WHERE sha256=%s", (sha,))
        return int(row[0]) if row else None

    def template_ids(self) -> list[int]:
        return [int(r[0]) for r in self._all("SELECT id FROM documents WHERE is_template ORDER BY id")]

    # ---- vectors of meaning (sverka.core.bymeaning; the SQLite store's docstrings)

    def vector_documents(self) -> np.ndarray:
        rows = self._all("SELECT DISTINCT doc_id FROM sentence_vectors ORDER BY doc_id")
        return np.asarray([int(r[0]) for r in rows], np.int64)

    def vectors(self, doc_id: int) -> tuple[np.ndarray, np.ndarray]:
        if int(doc_id) in self._without_vectors:  # known from infos(): no query
            return np.zeros((0, 2), np.int64), np.zeros((0, 0), np.int8)
        rows = self._all("SELECT start, stop, vector FROM sentence_vectors WHERE doc_id=%s ORDER BY idx", (int(doc_id),))
        if not rows:
            return np.zeros((0, 2), np.int64), np.zeros((0, 0), np.int8)
        spans = np.asarray([(a, b) for a, b, _ in rows], np.int64)
        return spans, np.frombuffer(b"".join(bytes(v) for *_, v in rows), np.int8).reshape(len(rows), -1)

    def vectors_at(self, keys) -> dict:
        keys = [(int(d), int(k)) for d, k in keys]
        if not keys:
            return {}
        rows = self._all("SELECT s.doc_id, s.idx, s.start, s.stop, s.vector FROM sentence_vectors s "
                         "JOIN unnest(%s::bigint[], %s::int[]) AS q(d, k) ON s.doc_id = q.d AND s.idx = q.k",
                         ([d for d, _ in keys], [k for _, k in keys]))
        return {(int(d), int(k)): (int(a), int(b), np.frombuffer(bytes(v), np.int8)) for d, k, a, b, v in rows}

    def text(self, doc_id: int) -> str:
        row = self._one("SELECT text FROM document_data WHERE doc_id=%s", (int(doc_id),))
        if row is None:
            raise CollectionError(f"no document {doc_id} in the collection")
        return decode_text(row[0])

    def load(self, doc_id: int, info: DocumentInfo | None = None) -> StoredDocument:
        info = info if info is not None else self.info(doc_id)
        kept = self._kept.pop(int(doc_id), None)
        if kept is not None and kept[0] == info.sha256:
            text_blob, tokens_blob = kept[1], kept[2]  # read whole a moment ago (infos, blob_readers)
        else:
            row = self._one("SELECT text, tokens FROM document_data WHERE doc_id=%s", (int(doc_id),))
            if row is None:
                raise CollectionError(f"no document {doc_id} in the collection")
            text_blob, tokens_blob = row
        text = decode_text(text_blob)
        tokens, orders = decode_stored(bytes(tokens_blob), text)
        return StoredDocument(info=info, text=text, tokens=tokens, orders=orders)

    @contextlib.contextmanager
    def blob_readers(self, doc_id: int) -> Iterator[tuple[Reader, int, Reader]]:
        """See :meth:`sverka.core.store.Store.blob_readers`: each part one ``substring`` of the
        bytea (the server reads the rest of the value no further than it must). A document
        whose text and tokens together hold at most :data:`READ_WHOLE_MAX` bytes comes whole
        with the first query, its parts then read in memory, and is kept (with the ``sha256``
        it had) for a :meth:`load` of the same document that follows: a check reading a short
        candidate pays one round trip to the server, not three or four (none when :meth:`infos`
        brought it with the check's other candidates)."""
        kept = self._kept.get(int(doc_id))
        if kept is not None:
            row = (len(kept[2]), len(kept[1]), kept[0], kept[2], kept[1])
        else:
            row = self._one("SELECT octet_length(d.tokens), octet_length(d.text), m.sha256, "
                            "CASE WHEN octet_length(d.tokens) + octet_length(d.text) <= %s THEN d.tokens END, "
                            "CASE WHEN octet_length(d.tokens) + octet_length(d.text) <= %s THEN d.text END "
                            "FROM document_data d JOIN documents m ON m.id = d.doc_id WHERE d.doc_id=%s",
                            (READ_WHOLE_MAX, READ_WHOLE_MAX, int(doc_id)))
        if row is None:
            raise CollectionError(f"no document {doc_id} in the collection")
        sizes = {"tokens": int(row[0]), "text": int(row[1])}
        whole = {"tokens": bytes(row[3]), "text": bytes(row[4])} if row[3] is not None and row[4] is not None else None

        def reader(column: str) -> Reader:
            def read(offset: int, length: int) -> bytes:
                if offset < 0 or length < 0 or offset + length > sizes[column]:
                    raise ValueError("a part beyond the stored data")
                if length == 0:
                    return b""
                if whole is not None:
                    return whole[column][offset:offset + length]
                got = self._one(f"SELECT substring({column} from %s for %s) FROM document_data WHERE doc_id=%s",
                                (offset + 1, length, int(doc_id)))
                if got is None or len(got[0]) != length:
                    raise ValueError("the stored data changed while it was read")
                return bytes(got[0])

            def many(parts) -> list[bytes]:  # codecs.read_parts: every part in one query, not one each
                parts = [(int(o), int(n)) for o, n in parts]
                if any(o < 0 or n < 0 or o + n > sizes[column] for o, n in parts):
                    raise ValueError("a part beyond the stored data")
                if whole is not None:
                    return [whole[column][o:o + n] for o, n in parts]
                out: list[bytes] = []
                for k in range(0, len(parts), MANY_PARTS):
                    chunk = parts[k:k + MANY_PARTS]
                    rows = self._all(f"SELECT substring(d.{column} from p.o for p.n) FROM document_data d, "
                                     "unnest(%s::int[], %s::int[]) WITH ORDINALITY AS p(o, n, k) "
                                     "WHERE d.doc_id=%s ORDER BY p.k",
                                     ([o + 1 for o, _ in chunk], [n for _, n in chunk], int(doc_id)))
                    if len(rows) != len(chunk) or any(len(r[0]) != n for r, (_, n) in zip(rows, chunk)):
                        raise ValueError("the stored data changed while it was read")
                    out += [bytes(r[0]) for r in rows]
                return out

            read.many = many  # type: ignore[attr-defined]
            return read

        yield reader("tokens"), sizes["tokens"], reader("text")
        if whole is not None:
            if len(self._kept) >= KEPT_MAX:  # documents never loaded after their parts were read
                self._kept.clear()
            self._kept[int(doc_id)] = (row[2], whole["text"], whole["tokens"])

    def pairs(self, doc_id: int) -> tuple[np.ndarray, np.ndarray]:
        return self._hash_rows("pairs", doc_id)

    def sentences(self, doc_id: int) -> tuple[np.ndarray, np.ndarray]:
        return self._hash_rows("sentences", doc_id)

    def _hash_rows(self, table: str, doc_id: int) -> tuple[np.ndarray, np.ndarray]:
        rows = self._all(f"SELECT hash, pos FROM {table} WHERE doc_id=%s ORDER BY pos, hash", (int(doc_id),))
        a = rows_array(rows, 2)
        return u64(np.ascontiguousarray(a[:, 0])), np.ascontiguousarray(a[:, 1])

    def short_lengths(self, ids: Iterable[int]) -> dict[int, int]:
        ids = _ids(ids)
        if not ids:
            return {}
        return {int(d): int(n) for d, n in self._all("SELECT id, short_length FROM documents WHERE id = ANY(%s)", (ids,))}

    # ---- candidate queries

    def pair_postings(self, hashes, *, max_posting: int = 0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Rows (hash uint64, doc_id int64, pos int64) of the pair keys among ``hashes``; a hash
        with more than ``max_posting`` rows (0: no cap) is left out whole."""
        return self._postings("pairs", hashes, max_posting)

    def sentence_postings(self, hashes, *, max_posting: int = 0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        return self._postings("sentences", hashes, max_posting)

    def _postings(self, table: str, hashes, max_posting: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        if self.posting_cap:
            max_posting = min(max_posting, self.posting_cap) if max_posting else self.posting_cap
        values = distinct(i64(hashes))
        a = np.zeros((0, 3), dtype=np.int64)
        if len(values):
            # The rows come back packed by the server into ONE bytea value (each row its three
            # big-endian integers), read straight into numpy: a binary COPY sends one message
            # per row, which the client reads one by one (~1 us a row in Python, 40-50 ms a
            # check at 40 000 rows). The keys go as one array literal (psycopg's list dumper
            # costs a Python call per key).
            # unnest + join rather than "hash = ANY(array)": the planner estimates a long array
            # literal element by element (tens of ms for a 50 KB essay's keys) and then scans the
            # whole table; one index probe per key is what a check needs (see docs/SCALE.md).
            # With a cap, the server reads at most max_posting + 1 entries of a key (in the index
            # alone once the table is vacuumed), counts them, and sends them only when they are
            # under the cap: a common pair of a big collection costs one short index scan and no
            # rows on the wire, a key no document holds one index probe. (Counting first in a
            # lateral of its own, then reading the rows in another, probed each key twice: 20-30 %
            # more server time for the variant keys, most of which no document holds.)
            join = f"JOIN {table} t ON t.hash = q.hash"
            params: tuple = (_bigint_array(values),)
            if max_posting:
                join = (f"CROSS JOIN LATERAL (SELECT s.hash, s.doc_id, s.pos FROM (SELECT r.hash, r.doc_id, r.pos, "
                        f"count(*) OVER () AS n FROM (SELECT r.hash, r.doc_id, r.pos FROM {table} r "
                        f"WHERE r.hash = q.hash LIMIT %s) r) s WHERE s.n <= %s) t")
                params = (params[0], int(max_posting) + 1, int(max_posting))
            with self._cursor() as cur:
                cur.execute(f"SELECT string_agg(int8send(t.hash) || int8send(t.doc_id) || int4send(t.pos), ''::bytea) "
                            f"FROM unnest(%s::bigint[]) AS q(hash) {join}", params, binary=True)
                row = cur.fetchone()
            data = bytes(row[0]) if row is not None and row[0] is not None else b""
            rec = np.frombuffer(data, dtype=_POSTING_ROW)
            a = np.stack([rec["hash"], rec["doc_id"], rec["pos"]], 1).astype(np.int64)
        if max_posting and len(a):
            _, inverse, counts = np.unique(a[:, 0], return_inverse=True, return_counts=True)
            a = a[counts[inverse] <= max_posting]
        return u64(np.ascontiguousarray(a[:, 0])), np.ascontiguousarray(a[:, 1]), np.ascontiguousarray(a[:, 2])

    def short_candidates(self, word_hashes, *, min_shared: int = 2, limit: int = 50) -> list[tuple[int, int]]:
        """Seed 000: documents sharing at least ``min_shared`` longest-word hashes, most first."""
        values = distinct(i64(word_hashes)).tolist()
        if not values or limit <= 0:
            return []
        rows = self._all(
            "SELECT doc_id, COUNT(DISTINCT hash) FROM short_words WHERE hash = ANY(%s::bigint[]) "
            "GROUP BY doc_id HAVING COUNT(DISTINCT hash) >= %s ORDER BY 2 DESC, 1 LIMIT %s",
            (values, int(min_shared), int(limit)))
        return [(int(d), int(n)) for d, n in rows]


class _Batch:
    """The statements of :func:`sverka.core.store.common.write_batch` on the server, inside the
    transaction of cursor ``cur`` (holding the collection's write lock)."""

    def __init__(self, cur) -> None:
        self.cur = cur

    def _one(self, sql: str, params) -> tuple | None:
        self.cur.execute(sql, params)
        return self.cur.fetchone()

    def name_of(self, doc_id: int) -> str | None:
        row = self._one("SELECT path, title FROM documents WHERE id=%s", (doc_id,))
        return None if row is None else _py_path(row[0]) or row[1]

    def mark_template(self, doc_id: int) -> None:
        self.cur.execute("UPDATE documents SET is_template=TRUE WHERE id=%s", (doc_id,))

    def by_path(self, path: str) -> tuple[int, str] | None:
        return self._one("SELECT id, sha256 FROM documents WHERE path=%s", (_db_path(path),))

    def refresh(self, doc_id: int, p: PreparedDocument, template: bool) -> None:
        self.cur.execute("UPDATE documents SET size_bytes=%s, mtime=%s, is_template=is_template OR %s "
                         "WHERE id=%s", (p.size_bytes, p.mtime, bool(template), doc_id))

    def drop(self, doc_id: int) -> None:
        self.cur.execute("DELETE FROM document_data WHERE doc_id=%s", (doc_id,))
        self.cur.execute("DELETE FROM sentence_vectors WHERE doc_id=%s", (doc_id,))
        self.cur.execute("DELETE FROM documents WHERE id=%s", (doc_id,))

    def by_sha256(self, sha: str) -> tuple[int, str] | None:
        row = self._one("SELECT id, path, title FROM documents WHERE sha256=%s", (sha,))
        return None if row is None else (int(row[0]), _py_path(row[1]) or row[2])

    def insert(self, p: PreparedDocument, template: bool, added: str) -> int:
        doc_id = self._one(
            "INSERT INTO documents(path, title, format, sha256, chars, words, size_bytes, mtime,"
            " added, language, is_template, warnings, short_length)"
            " VALUES(%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s) RETURNING id",
            (_db_path(p.path), storable_text(p.title), p.format, p.sha256, p.chars, p.words, p.size_bytes,
             p.mtime, added, p.language, bool(template),
             json.dumps([to_json(w) for w in p.warnings], ensure_ascii=False), p.short_length))[0]
        self.cur.execute("INSERT INTO document_data(doc_id, text, tokens) VALUES(%s,%s,%s)",
                         (doc_id, p.text_blob, p.tokens_blob))
        if p.vectors is not None and len(p.vectors):
            self.cur.executemany("INSERT INTO sentence_vectors(doc_id, idx, start, stop, vector) VALUES(%s,%s,%s,%s,%s)",
                                 [(doc_id, k, int(a), int(b), v.tobytes())
                                  for k, ((a, b), v) in enumerate(zip(p.vector_spans.tolist(), p.vectors))])
        return doc_id

    def drop_rows(self, ids: list[int]) -> None:
        for t in _HASH_TABLES:
            self.cur.execute(f"DELETE FROM {t} WHERE doc_id = ANY(%s)", (ids,))

    def append_rows(self, table: str, columns: list[np.ndarray], order: np.ndarray) -> None:
        """One binary COPY of the rows in ``order``."""
        names, types = _HASH_TABLES[table]
        columns = [c[order] for c in columns]
        n = len(order)
        with self.cur.copy(f"COPY {table} ({', '.join(names)}) FROM STDIN (FORMAT BINARY)") as cp:
            cp.write(_COPY_HEADER)
            for k in range(0, n, _COPY_ROWS):
                cp.write(_copy_payload([c[k:k + _COPY_ROWS] for c in columns], types).tobytes())
            cp.write(_COPY_TRAILER)
