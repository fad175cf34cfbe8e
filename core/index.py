"""The reference collection on disk: one SQLite file. The only module of Sverka that speaks SQL.

File format
-----------
* ``PRAGMA user_version`` = ``SCHEMA_MAJOR << 16 | SCHEMA_MINOR``. A file of a newer major
  version is refused (:class:`~sverka.core.errors.CollectionVersionError`: "update Sverka");
  an older major version is refused with "rebuild the collection"; minor versions are
  compatible both ways. Minor 1 stopped computing what nothing read: a document's min-hash
  signature, super- and mega-shingles and full-text hash (the check compares SHA-256 and
  passages). Their columns and tables stay in the schema, written empty (``minhash`` ``x''``,
  ``fulltext_hash`` 0, no super/mega rows), so a collection of either minor version opens and
  is written by both.
* WAL journal, ``synchronous=NORMAL``, a busy timeout (10 s by default) after which
  :class:`~sverka.core.errors.CollectionBusy` says "collection is busy: another Sverka is
  writing to it". Every write is one ``BEGIN IMMEDIATE`` transaction (:meth:`Index.transaction`);
  adding files commits one transaction per batch, so a cancelled or killed add leaves the
  collection exactly as it was after the last committed batch.
* ``meta`` (key, value) holds every parameter the stored hashes depend on:
  ``shingle_words``, ``winnow_window``, ``minhash_functions``, ``drop_adjectives``,
  ``hash_seed``, ``canon_version``, ``fingerprint_version``, ``tokens_format``. Opening with
  other *settings* raises :class:`CollectionSettingsError` naming both values (open with
  ``settings=None`` to adopt the collection's own); a different seed or canonization /
  fingerprint version raises CollectionVersionError ("rebuild the collection").
* Tables (hashes are uint64 stored as the same 64 bits in a signed INTEGER,
  ``np.uint64 -> .view(np.int64)``)::

    documents(id, path UNIQUE, title, format, sha256 UNIQUE, chars, words, size_bytes, mtime,
              added ISO-8601, language, is_template, warnings JSON,
              fulltext_hash (0 since 2.1), short_length, minhash BLOB (empty since 2.1))
    document_data(doc_id, text BLOB UTF-8, tokens BLOB: see below)
    pairs(hash, doc_id, pos)             pair keys (sverka.core.candidates); pos = first token index
    sentences(hash, doc_id, pos)         sentence keys (SH of sentences of >= 3 tokens); pos likewise
    short_words(hash, doc_id)            seed 000: hashes of the longest distinct words
    super_shingles(hash, doc_id), mega_shingles(hash, doc_id)   written by format 2.0 only

  The hash tables are ``WITHOUT ROWID`` with the hash first in the primary key, so every
  candidate query reads one index only.

* Tokens blob: byte 0 = :data:`TOKENS_FORMAT` (2), then, all little-endian and uncompressed
  (format 1, written before, is the same payload through ``zlib``; both are read, so older
  collections open as they are and new documents are stored in format 2)::

    '<7I' n_tokens, n_sentences, word_count, lookalike_letters, invisible_chars,
          hyphen_joins, json_len
    json_len bytes of UTF-8 JSON {"language": str, "warnings": [message, ...]} (each warning as
              sverka.core.messages.to_json gives it; an English string in older collections)
    starts '<i8'[n], ends '<i8'[n], hashes '<u8'[n], word_hashes '<u8'[n],
    sentence_ids '<i4'[n], sentence_spans '<i8'[m, 2]

  Lemmas are NOT stored: :meth:`Index.load` gives ``lemmas`` as ``n`` empty strings.

Interface for matching (core/check.py)
--------------------------------------
All candidate queries are one grouped query (chunked only if the IN list exceeds SQLite's
variable limit), return ``[(doc_id, distinct shared hashes)]`` sorted by count descending then
doc_id, and accept any iterable of uint64 hashes (duplicates are ignored):

* ``Index.pair_postings(hashes, *, max_posting=0)`` and ``Index.sentence_postings(...)``:
  the rows (hash, doc_id, pos) of the retrieval keys, ranked by :mod:`sverka.core.candidates`.
* ``Index.short_candidates(word_hashes, *, min_shared=2, limit=50)``: seed 000 longest words;
  ``Index.short_lengths(ids) -> {doc_id: length}`` gives each document's ``length``.
* ``Index.find_by_sha256(sha) -> int | None``.
* ``Index.load(doc_id) -> StoredDocument(info, text, tokens)``; ``Index.text(doc_id)``,
  ``Index.info(doc_id)``, ``Index.pairs(doc_id) -> (hashes uint64, positions int64)``
  sorted by position, ``Index.sentences(doc_id)`` likewise.
* ``Index.template_ids() -> list[int]``, ``documents()``, ``count()``, ``remove(ids)``,
  ``set_template(id, flag)``, ``find_by_path(path) -> DocumentInfo | None``,
  ``ids_under(folder)``, ``integrity_check()``; ``Index.settings`` are the parameters the
  collection was built with (fingerprint a suspect with these;
  :func:`check_indexing_settings` raises if other settings would not match).
* Writing: ``Index.write_batch(prepared, template=)`` (one transaction, classifies each
  document against what is stored), ``Index.transaction()`` for anything else.

Adding files (used by :class:`sverka.core.api.Collection`)
---------------------------------------------------------
:func:`add_paths` walks folders (sorted, only ``SUPPORTED_SUFFIXES``, symlink loops and
unreadable folders reported, never followed twice), runs extraction + canonization +
fingerprints in a process pool (both cores), and writes in this process only, one
transaction per batch (:data:`BATCH_TEXT_BYTES` of text or :data:`BATCH_FILES` files).
Cancelling returns an :class:`AddSummary` with ``cancelled=True`` listing only what was
committed (it does not raise Cancelled): the interrupted batch is dropped whole.
"""

from __future__ import annotations

import concurrent.futures as cf
import contextlib
import datetime as _dt
import json
import multiprocessing
import os
import sqlite3
import struct
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Iterator, Sequence

import numpy as np

from .document import Document
from .errors import (CollectionBusy, CollectionDamaged, CollectionError, CollectionNeedsRebuild, CollectionReadOnly,
                     CollectionVersionError, SverkaError)
from .hashing import HASH_SEED
from .messages import Message, from_json, message, to_json
from .progress import NEVER_CANCELLED, CancelToken, Progress, no_progress
from .results import AddSummary, DocumentInfo
from .settings import Settings
from .files import collect as _collect
from .text import Tokens
from .workers import START_METHOD

__all__ = [
    "BATCH_FILES", "BATCH_TEXT_BYTES", "CollectionSettingsError", "Index", "PreparedDocument",
    "SCHEMA_MAJOR", "SCHEMA_MINOR", "StoredDocument", "TOKENS_FORMAT", "add_document",
    "add_paths", "check_indexing_settings", "decode_tokens", "encode_tokens", "prepare",
]

SCHEMA_MAJOR = 2
SCHEMA_MINOR = 1
#: 2: raw little-endian arrays (a check reads them without decompressing); 1: zlib of the same.
TOKENS_FORMAT = 2
_READABLE_TOKENS_FORMATS = (1, 2)
BUSY_TIMEOUT = 10.0  # seconds
BATCH_TEXT_BYTES = 1_000_000  # UTF-8 bytes of extracted text per committed batch (texts and tokens are stored uncompressed)
BATCH_FILES = 50
_TOKENS_LEVEL = 1
_INDEXING_KEYS = Settings.indexing_fields()  # declared in sverka.core.settings (SETTINGS_INFO)


class CollectionSettingsError(CollectionError):
    """The collection was built with other indexing settings than the ones asked for."""


@dataclass(frozen=True, eq=False)
class StoredDocument:
    """A document of the collection as stored: no need for its file.

    ``tokens`` has every field :func:`sverka.core.text.canonize` gives, except ``lemmas``,
    which are empty strings (one per token; only their hashes are stored).
    """

    info: DocumentInfo
    text: str
    tokens: Tokens


@dataclass(frozen=True, eq=False)
class PreparedDocument:
    """Everything one document contributes to the index, computed in a worker process.

    Compact and picklable: the text and tokens are already compressed, hashes are int64
    arrays (the uint64 bits) ready for SQLite.
    """

    path: str | None
    title: str
    format: str
    sha256: str
    chars: int
    words: int
    size_bytes: int
    mtime: float | None
    language: str
    warnings: tuple[Message, ...]
    text_blob: bytes
    tokens_blob: bytes
    text_bytes: int  # UTF-8 size of the text, for batching
    pairs: np.ndarray  # int64 pair-key hashes (sverka.core.candidates.pair_keys)
    pair_pos: np.ndarray  # int64 first token of each
    sentences: np.ndarray  # int64 sentence-key hashes (sverka.core.candidates.sentence_keys)
    sentence_pos: np.ndarray  # int64 first token of each
    short_words: np.ndarray  # int64 distinct
    short_length: int


# --------------------------------------------------------------------------- encoding


def _i64(values) -> np.ndarray:
    """uint64 (or anything integer) -> the same 64 bits as int64."""
    if not isinstance(values, np.ndarray):
        values = list(values) if not isinstance(values, (list, tuple)) else values
        try:
            values = np.array(values, dtype=np.uint64)
        except OverflowError:  # negative Python ints: already the signed view
            values = np.array(values, dtype=np.int64)
    a = values
    if a.dtype.kind not in "iu":
        raise TypeError(f"hashes must be integers, not {a.dtype}")
    if a.dtype == np.int64:
        return a.ravel()
    if a.size == 0:
        return np.empty(0, dtype=np.int64)
    return np.ascontiguousarray(a, dtype=np.uint64).ravel().view(np.int64)


def _u64(values) -> np.ndarray:
    return np.asarray(values, dtype=np.int64).view(np.uint64)


def encode_tokens(tokens: Tokens) -> bytes:
    """The tokens blob (see the module docstring for its layout)."""
    n = len(tokens.starts)
    spans = np.asarray(tokens.sentence_spans, dtype="<i8").reshape(-1, 2)
    meta = json.dumps({"language": tokens.language, "warnings": [to_json(w) for w in tokens.warnings]},
                      ensure_ascii=False).encode("utf-8", "surrogatepass")
    head = struct.pack("<7I", n, len(spans), tokens.word_count, tokens.lookalike_letters,
                       tokens.invisible_chars, tokens.hyphen_joins, len(meta))
    payload = b"".join((
        head, meta,
        np.asarray(tokens.starts, dtype="<i8").tobytes(),
        np.asarray(tokens.ends, dtype="<i8").tobytes(),
        np.asarray(tokens.hashes, dtype="<u8").tobytes(),
        np.asarray(tokens.word_hashes, dtype="<u8").tobytes(),
        np.asarray(tokens.sentence_ids, dtype="<i4").tobytes(),
        spans.tobytes(),
    ))
    return bytes([TOKENS_FORMAT]) + payload


def decode_tokens(blob: bytes, text: str) -> Tokens:
    """Rebuild :class:`Tokens` from a tokens blob (lemmas are empty strings)."""
    if not blob or blob[0] not in _READABLE_TOKENS_FORMATS:
        raise CollectionVersionError(
            "the collection stores tokens in an unknown format; rebuild the collection")
    # Format 1 (collections built before 2026-11-23) compressed the payload with zlib.
    payload = _inflate(blob[1:], _max_payload(len(text))) if blob[0] == 1 else memoryview(blob)[1:]
    n, m, word_count, lookalike, invisible, joins, jlen = struct.unpack_from("<7I", payload)
    off = struct.calcsize("<7I")
    meta = json.loads(bytes(payload[off:off + jlen]).decode("utf-8", "surrogatepass"))
    off += jlen

    def take(dtype: str, count: int, native) -> np.ndarray:
        nonlocal off
        a = np.frombuffer(payload, dtype=dtype, count=count, offset=off).astype(native, copy=False)
        off += count * np.dtype(dtype).itemsize
        return a

    starts = take("<i8", n, np.int64)
    ends = take("<i8", n, np.int64)
    hashes = take("<u8", n, np.uint64)
    word_hashes = take("<u8", n, np.uint64)
    sentence_ids = take("<i4", n, np.int32)
    spans = take("<i8", 2 * m, np.int64).reshape(m, 2)
    return Tokens(text=text, starts=starts, ends=ends, lemmas=("",) * n, hashes=hashes,
                  word_hashes=word_hashes, sentence_ids=sentence_ids, sentence_spans=spans,
                  word_count=word_count, language=meta["language"], lookalike_letters=lookalike,
                  invisible_chars=invisible, hyphen_joins=joins,
                  warnings=tuple(map(from_json, meta["warnings"])))


def _max_payload(chars: int) -> int:
    """The most bytes a tokens payload of a text of ``chars`` characters can hold: per token
    (at most one per character) 36 bytes, per sentence 16, plus the head and its warnings."""
    return 52 * (chars + 1) + (1 << 20)


def _inflate(data: bytes, limit: int) -> bytes:
    """zlib-inflate ``data``, refusing (ValueError) to produce more than ``limit`` bytes: a
    damaged or crafted blob must not inflate to gigabytes."""
    d = zlib.decompressobj()
    out = d.decompress(bytes(data), limit + 1)
    if len(out) > limit or d.unconsumed_tail:
        raise ValueError(f"the stored data would inflate beyond {limit:,} bytes")
    return out


def damaged_message(collection: Path | str, what: str) -> Message:
    """The message for damaged contents of a collection: what is damaged and how to recover."""
    return message("error.collection_damaged", path=str(collection), what=what)


def _error(cls, m: Message):
    """An exception of class ``cls`` carrying message ``m`` (English as its ``str``)."""
    return cls(str(m), message=m)


def read_only_message(collection: Path | str) -> Message:
    """The message when a user tries to change a collection opened read-only."""
    return message("error.collection_read_only", path=str(collection))


def _encode_text(text: str) -> bytes:
    """Texts are stored as plain UTF-8 (format 2): a check reads its candidates' texts without
    decompressing them (zlib took more time than aligning; format 1 compressed them)."""
    return text.encode("utf-8", "surrogatepass")


def _decode_text(blob: bytes) -> str:
    return bytes(blob).decode("utf-8", "surrogatepass")


def prepare(doc: Document, tokens: Tokens, fp, *, size_bytes: int = 0,
            mtime: float | None = None, path: str | None = None) -> PreparedDocument:
    """Pack a document, its tokens and its :class:`~sverka.core.fingerprints.DocumentFingerprints`
    for :meth:`Index.write_batch`."""
    words = fp.long_words
    short = np.unique(_i64(words))
    text_utf8 = len(doc.text.encode("utf-8", "surrogatepass"))
    path = path if path is not None else doc.path
    return PreparedDocument(
        path=path, title=doc.title or (Path(path).name if path else "Untitled"),
        format=doc.format, sha256=doc.sha256, chars=len(doc.text), words=int(tokens.word_count),
        size_bytes=int(size_bytes or text_utf8), mtime=mtime, language=tokens.language,
        warnings=tuple(doc.warnings) + tuple(w for w in tokens.warnings if w not in doc.warnings),
        text_blob=_encode_text(doc.text), tokens_blob=encode_tokens(tokens), text_bytes=text_utf8,
        pairs=_i64(fp.pair_hashes).copy(),
        pair_pos=np.asarray(fp.pair_positions, dtype=np.int64).copy(),
        sentences=_i64(fp.sentence_keys).copy(),
        sentence_pos=np.asarray(fp.sentence_key_positions, dtype=np.int64).copy(), short_words=short,
        short_length=len(short),
    )


# --------------------------------------------------------------------------- the index

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
_INFO_COLUMNS = "id, path, title, format, chars, words, size_bytes, added, sha256, is_template"


def _versions() -> dict[str, str]:
    from .fingerprints import FINGERPRINT_VERSION
    from .text import CANON_VERSION

    return {
        "hash_seed": str(HASH_SEED),
        "canon_version": str(CANON_VERSION),
        "fingerprint_version": str(FINGERPRINT_VERSION),
        "tokens_format": str(TOKENS_FORMAT),
    }


def _indexing_meta(settings: Settings) -> dict[str, str]:
    return {k: json.dumps(getattr(settings, k)) for k in _INDEXING_KEYS}


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


def _sql_text(text: str) -> str:
    """A title or name made storable: lone surrogates (undecodable names) become U+FFFD."""
    try:
        text.encode("utf-8")
        return text
    except UnicodeEncodeError:
        return text.encode("utf-8", "surrogateescape").decode("utf-8", "replace").encode(
            "utf-8", "replace").decode("utf-8")


def _info(row) -> DocumentInfo:
    return DocumentInfo(id=row[0], path=_py_path(row[1]), title=row[2], format=row[3], chars=row[4],
                        words=row[5], size_bytes=row[6], added=row[7], sha256=row[8],
                        is_template=bool(row[9]))


def _damage(e: sqlite3.Error) -> bool:
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


def check_indexing_settings(index: "Index", settings: Settings) -> None:
    """Raise CollectionSettingsError unless ``settings`` index the way ``index`` was built."""
    diff = [f"{k} = {getattr(index.settings, k)!r} (asked for {getattr(settings, k)!r})"
            for k in _INDEXING_KEYS if getattr(index.settings, k) != getattr(settings, k)]
    if diff:
        raise CollectionSettingsError(
            f"the collection {index.path} was built with other settings: " + "; ".join(diff)
            + ". Use the collection's settings, or build a new collection with these.")


class Index:
    """One collection file. Not thread-safe: use it from one thread (the GUI's writer thread).

    ``settings=None`` adopts the collection's stored indexing parameters (a new collection
    takes the defaults); explicit settings must agree with a collection built earlier, or
    :class:`CollectionSettingsError` names the difference.
    """

    def __init__(self, path: str | Path, settings: Settings | None = None, *,
                 busy_timeout: float = BUSY_TIMEOUT) -> None:
        self.path = Path(path)
        self.busy_timeout = busy_timeout
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
            if _damage(e):
                raise _error(CollectionDamaged, damaged_message(self.path, f"a part of the file ({e})")) from e
            raise CollectionError.of("error.cannot_open_collection", path=str(self.path), detail=str(e)) from e
        except sqlite3.DatabaseError as e:
            raise CollectionError.of("error.not_a_collection", path=str(self.path), detail=str(e)) from e
        for key, value in _versions().items():
            if key == "tokens_format" and meta.get(key) in {str(f) for f in _READABLE_TOKENS_FORMATS}:
                continue  # each tokens blob names its own format (migration 1 -> 2: none needed)
            if meta.get(key) != value:
                raise CollectionNeedsRebuild.of("error.collection_other_version", path=str(self.path), key=key,
                                                found=str(meta.get(key)), wanted=str(value))
        stored = Settings()
        try:
            kwargs = {k: json.loads(meta[k]) for k in _INDEXING_KEYS if k in meta}
            stored = stored.replace(**kwargs)
        except (ValueError, TypeError) as e:
            raise _error(CollectionDamaged, damaged_message(self.path, f"the stored settings ({e})")) from e
        self.settings = stored
        if settings is not None:
            check_indexing_settings(self, settings)
            self.settings = settings

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
        meta = {**_versions(), **_indexing_meta(settings)}
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
        if self._db is not None:
            self._db.close()
            self._db = None

    def __enter__(self) -> "Index":
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
        """Write prepared documents in ONE transaction; classify each against what is stored.

        An item is a :class:`PreparedDocument` or ``("unchanged", doc_id)`` (a file whose path,
        size and mtime are already stored: only its template flag may change). Returns one
        ``(status, path or title, detail)`` per item: status ``added``, ``updated``,
        ``unchanged`` or ``duplicate`` (detail: path or title of the stored original).
        """
        out: list[tuple[str, str, str]] = []
        stale: list[int] = []
        # per table: (hash, doc id[, position]) column pieces of every new document
        rows: dict[str, list[tuple[np.ndarray, ...]]] = {t: [] for t in _HASH_TABLES}
        now = _dt.datetime.now(_dt.timezone.utc).astimezone().isoformat(timespec="seconds")
        with self.transaction() as db:
            for item in items:
                if isinstance(item, tuple):
                    _, doc_id = item
                    row = db.execute("SELECT path, title FROM documents WHERE id=?", (doc_id,)).fetchone()
                    if row is None:  # removed meanwhile by someone else
                        continue
                    if template:
                        db.execute("UPDATE documents SET is_template=1 WHERE id=?", (doc_id,))
                    out.append(("unchanged", _py_path(row[0]) or row[1], ""))
                    continue
                p = item
                name = p.path or p.title
                same_path = (db.execute("SELECT id, sha256 FROM documents WHERE path=?", (_sql_path(p.path),)).fetchone()
                             if p.path is not None else None)
                if same_path and same_path[1] == p.sha256:
                    db.execute("UPDATE documents SET size_bytes=?, mtime=?, is_template=is_template OR ? "
                               "WHERE id=?", (p.size_bytes, p.mtime, int(template), same_path[0]))
                    out.append(("unchanged", name, ""))
                    continue
                if same_path:
                    stale.append(same_path[0])
                    self._delete_documents(db, [same_path[0]], hashes=False)
                dup = db.execute("SELECT id, path, title FROM documents WHERE sha256=?", (p.sha256,)).fetchone()
                if dup:
                    if template:
                        db.execute("UPDATE documents SET is_template=1 WHERE id=?", (dup[0],))
                    out.append(("duplicate", name, _py_path(dup[1]) or dup[2]))
                    continue
                cur = db.execute(
                    "INSERT INTO documents(path, title, format, sha256, chars, words, size_bytes, mtime,"
                    " added, language, is_template, warnings, fulltext_hash, short_length, minhash)"
                    " VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                    (_sql_path(p.path), _sql_text(p.title), p.format, p.sha256, p.chars, p.words, p.size_bytes, p.mtime, now,
                     p.language, int(template), json.dumps([to_json(w) for w in p.warnings], ensure_ascii=False),
                     0, p.short_length, b""))  # legacy columns of format 2.0: see the module docstring
                doc_id = cur.lastrowid
                db.execute("INSERT INTO document_data(doc_id, text, tokens) VALUES(?,?,?)",
                           (doc_id, p.text_blob, p.tokens_blob))
                ids = lambda a: np.full(len(a), doc_id, dtype=np.int64)  # noqa: E731
                rows["pairs"].append((p.pairs, ids(p.pairs), p.pair_pos))
                rows["sentences"].append((p.sentences, ids(p.sentences), p.sentence_pos))
                rows["short_words"].append((p.short_words, ids(p.short_words)))
                out.append(("updated" if same_path else "added", name, ""))
            if stale:
                self._delete_documents(db, stale, rows_only=True)
            for table in list(rows):
                parts = rows.pop(table)  # freed table by table: a batch's rows never all exist twice
                if not parts or not sum(len(x[0]) for x in parts):
                    continue
                cols = [np.concatenate([x[j] for x in parts]) for j in range(len(parts[0]))]
                del parts
                order = np.lexsort(cols[::-1])  # by hash first: B-tree inserts stay local
                # flat columns handed over as a zip of tolist()s: several times faster than a
                # nested tolist(); in slices, so that the Python integers of a large batch never
                # all exist at once. Rows are unique by construction (a position holds one key;
                # word sets are np.unique'd; a new document has a new id), so no OR IGNORE.
                sql = f"INSERT INTO {table} VALUES({','.join('?' * len(cols))})"
                for k in range(0, len(order), _ROWS_PER_CALL):
                    take = order[k : k + _ROWS_PER_CALL]
                    db.executemany(sql, zip(*(c[take].tolist() for c in cols)))
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
                db.execute(f"DELETE FROM documents WHERE id IN ({marks})", chunk)
            if hashes or rows_only:
                for t in _HASH_TABLES:
                    db.execute(f"DELETE FROM {t} WHERE doc_id IN ({marks})", chunk)

    def remove(self, ids: Iterable[int]) -> int:
        """Remove documents by id in one transaction; returns how many existed."""
        ids = sorted({int(i) for i in ids})
        if not ids:
            return 0
        with self.transaction() as db:
            marks = ",".join("?" * len(ids))
            n = db.execute(f"SELECT count(*) FROM documents WHERE id IN ({marks})", ids).fetchone()[0]
            self._delete_documents(db, ids)
        return n

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
            return _decode_text(row[0])
        except (sqlite3.DatabaseError, UnicodeDecodeError, TypeError, ValueError) as e:
            if isinstance(e, sqlite3.OperationalError) and _busy(e):
                raise
            raise _error(CollectionDamaged, damaged_message(self.path, self._document_name(doc_id, e))) from e

    def load(self, doc_id: int) -> StoredDocument:
        """A stored document with its text and tokens; CollectionDamaged (naming it) when its
        stored data cannot be read."""
        info = self.info(doc_id)
        try:
            row = self._db.execute("SELECT text, tokens FROM document_data WHERE doc_id=?",
                                   (int(doc_id),)).fetchone()
            if row is None:
                raise ValueError("its text and tokens are missing")
            text = _decode_text(row[0])
            tokens = decode_tokens(row[1], text)
        except (sqlite3.DatabaseError, ValueError, TypeError, KeyError, IndexError, UnicodeDecodeError, zlib.error,
                struct.error, MemoryError, CollectionVersionError) as e:
            if isinstance(e, sqlite3.OperationalError) and _busy(e):
                raise
            raise _error(CollectionDamaged, damaged_message(self.path, self._document_name(doc_id, e, info))) from e
        return StoredDocument(info=info, text=text, tokens=tokens)

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
        a = np.array(rows, dtype=np.int64).reshape(-1, 2)
        return _u64(np.ascontiguousarray(a[:, 0])), np.ascontiguousarray(a[:, 1])

    def short_lengths(self, ids: Iterable[int]) -> dict[int, int]:
        """Seed 000 ``length`` (how many longest words were kept) of each document."""
        ids = sorted({int(i) for i in ids})
        out: dict[int, int] = {}
        for i in range(0, len(ids), self._variable_limit):
            chunk = ids[i:i + self._variable_limit]
            out.update(self._db.execute(
                f"SELECT id, short_length FROM documents WHERE id IN ({','.join('?' * len(chunk))})",
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
        values = np.unique(_i64(hashes)).tolist()
        step = self._variable_limit
        parts = []
        for k in range(0, len(values), step):
            chunk = values[k:k + step]
            rows = self._db.execute(
                f"SELECT hash, doc_id, pos FROM {table} WHERE hash IN ({','.join('?' * len(chunk))})", chunk).fetchall()
            if rows:
                parts.append(np.array(rows, dtype=np.int64))
        a = np.concatenate(parts) if parts else np.zeros((0, 3), dtype=np.int64)
        if max_posting and len(a):
            values, inverse, counts = np.unique(a[:, 0], return_inverse=True, return_counts=True)
            a = a[counts[inverse] <= max_posting]
        return _u64(np.ascontiguousarray(a[:, 0])), np.ascontiguousarray(a[:, 1]), np.ascontiguousarray(a[:, 2])

    def short_candidates(self, word_hashes, *, min_shared: int = 2, limit: int = 50) -> list[tuple[int, int]]:
        """Seed 000: documents sharing at least ``min_shared`` longest-word hashes."""
        return self._grouped("short_words", word_hashes, min_shared, limit)

    def _grouped(self, table: str, hashes, min_shared: int, limit: int) -> list[tuple[int, int]]:
        values = np.unique(_i64(hashes)).tolist()
        if not values or limit <= 0:
            return []
        step = self._variable_limit
        if len(values) <= step:
            marks = ",".join("?" * len(values))
            return [tuple(r) for r in self._db.execute(
                f"SELECT doc_id, COUNT(DISTINCT hash) FROM {table} WHERE hash IN ({marks}) "
                "GROUP BY doc_id HAVING COUNT(DISTINCT hash) >= ? ORDER BY 2 DESC, 1 LIMIT ?",
                (*values, int(min_shared), int(limit))).fetchall()]
        counts: dict[int, int] = {}
        for i in range(0, len(values), step):  # the chunks hold disjoint hashes: counts add up
            chunk = values[i:i + step]
            for doc_id, n in self._db.execute(
                    f"SELECT doc_id, COUNT(DISTINCT hash) FROM {table} WHERE hash IN "
                    f"({','.join('?' * len(chunk))}) GROUP BY doc_id", chunk):
                counts[doc_id] = counts.get(doc_id, 0) + n
        found = sorted(((d, n) for d, n in counts.items() if n >= min_shared), key=lambda x: (-x[1], x[0]))
        return found[:limit]


# --------------------------------------------------------------------------- adding files

#: Worker processes start with START_METHOD ("spawn", from .workers) everywhere, safe under a
#: GUI with threads. Programs that add folders must therefore guard their main module
#: (``if __name__ == "__main__":``) and a frozen bundle must call
#: ``multiprocessing.freeze_support()`` first thing.

#: Rows handed to SQLite per executemany call when a batch is written.
_ROWS_PER_CALL = 16_384


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
        return "ok", prepare(doc, tokens, fp, size_bytes=size, mtime=mtime, path=path)
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


def _prepare_file_in_worker(path: str, size: int, mtime: float, settings: Settings) -> tuple[str, object]:
    """:func:`_prepare_file` under the time limit, then hand the file's memory back to the
    system, so two workers do not both sit at the high-water mark of the largest file.

    A file over the time limit ends this worker (a C-level loop cannot be interrupted
    otherwise); the pool retries it alone and reports it with the limits."""
    import threading

    from .workers import read_limits

    done = threading.Event()

    def watchdog() -> None:
        if not done.wait(read_limits()[1]):
            os._exit(3)

    threading.Thread(target=watchdog, daemon=True).start()
    try:
        return _prepare_file(path, size, mtime, settings)
    finally:
        done.set()
        _trim_memory()


def _trim_memory() -> None:
    global _malloc_trim
    if _malloc_trim is None:
        try:
            import ctypes

            _malloc_trim = ctypes.CDLL("libc.so.6").malloc_trim
        except (OSError, AttributeError):  # not glibc: nothing to do
            _malloc_trim = False
    if _malloc_trim:
        _malloc_trim(0)


_malloc_trim = None


def _worker_init(parent: int | None = None, form_cache: bool = False) -> None:
    """Import the canonizer in the worker, then set the read limits (memory, die with the parent).

    Each dictionary loads on its first word: loading all of them up front would cost every
    worker ~70 MB for languages a collection may not contain."""
    from . import extract, formcache, text  # noqa: F401
    from .workers import limit_this_process

    if not form_cache:  # indexing workers: see formcache.off_in_this_process
        formcache.off_in_this_process()
    limit_this_process(parent=parent)


def _default_workers() -> int:
    try:
        n = len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        n = os.cpu_count() or 1
    return max(1, min(n, 4))


def _prepared(jobs: list[tuple[str, int, float]], settings: Settings, workers: int
              ) -> Iterator[tuple[tuple[str, int, float], str, object]]:
    """Yield ``(job, status, payload)`` for every job, in order; a pool when ``workers > 1``.

    At most ``3 * workers`` files are in flight, so memory stays bounded. A worker that dies
    (a crash in a reader) costs a new pool; the file is then retried alone, and reported
    as failed if it kills that one too. Closing the generator stops the pool at once.
    """
    from .errors import ExtractError
    from .workers import memory_message, read_limits, shared_sandbox

    if workers <= 1:  # the warm sandboxed reader: no pool start-up for a few files
        sandbox = shared_sandbox()
        for job in jobs:
            try:
                result = sandbox.call("prepare", *job, settings)
            except ExtractError as e:
                result = ("failed", e.message)
            except SverkaError as e:
                result = ("failed", message("error.unreadable", detail=str(e)))
            yield (job, *result)
        return
    from collections import deque
    from concurrent.futures.process import BrokenProcessPool

    ctx = multiprocessing.get_context(START_METHOD)
    todo = deque(jobs)
    pool = cf.ProcessPoolExecutor(workers, mp_context=ctx, initializer=_worker_init, initargs=(os.getpid(),))
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
                status, payload = fut.result()
            except BrokenProcessPool:
                crashes += 1
                pool.shutdown(wait=False, cancel_futures=True)
                pool = cf.ProcessPoolExecutor(workers, mp_context=ctx, initializer=_worker_init, initargs=(os.getpid(),))
                if solo:
                    status, payload = "failed", message("error.too_large", detail=memory_message(read_limits()[0]))
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


def add_paths(index: Index, paths: Iterable[str | Path], *, template: bool = False,
              progress: Progress = no_progress, cancel: CancelToken = NEVER_CANCELLED,
              workers: int | None = None, on_commit=None, follow_links: bool = False) -> AddSummary:
    """Add files and folders to ``index``; see the module docstring.

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
        statuses = index.write_batch(items, template=template) if items else []
        for status, name, detail in statuses:
            res[status].append((name, detail) if status == "duplicate" else name)
        failed.extend(batch_failed)
        items.clear()  # the batch's arrays go now, and their pages back to the system
        _trim_memory()
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
        workers = _default_workers() if big else 1
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
    if res["added"] or res["updated"]:
        index.analyze()
    return summary(False)


def add_document(index: Index, doc: Document, *, template: bool = False) -> AddSummary:
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
                path=os.path.abspath(doc.path) if doc.path else None)
    (status, name, detail), = index.write_batch([p], template=template)
    if status == "duplicate":
        return AddSummary(duplicates=((name, detail),))
    return AddSummary(**{status: (name,)})
