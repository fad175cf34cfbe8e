"""What both stores share: the format's versions, the ``meta`` they keep, the documents they
are given and give back, and how a batch is written.

A store keeps what it is given: a :class:`PreparedDocument` is made by the add pipeline
(:func:`sverka.core.preparing.prepare`) and its blobs by :mod:`sverka.core.store.codecs`.

Versions: ``SCHEMA_MAJOR.SCHEMA_MINOR`` is the layout of the tables (``PRAGMA user_version``
in a file, ``meta.schema_version`` on a server). A newer major version is refused ("update
Sverka"), an older one with "rebuild"; minor versions are compatible both ways. ``meta`` also
holds every parameter the stored hashes depend on (:func:`versions`: hash seed, canonization,
fingerprint and tokens versions; :func:`indexing_meta`: the indexing settings): another
version means "rebuild", other settings :class:`CollectionSettingsError` naming both values.
"""

from __future__ import annotations

import datetime as _dt
import json
from dataclasses import dataclass
from typing import Protocol, Sequence

import numpy as np

from ..errors import CollectionError
from ..hashing import HASH_SEED
from ..messages import Message, message
from ..results import DocumentInfo
from ..settings import Settings
from ..tokens import SortOrders, Tokens
from ..versions import CANON_VERSION, FINGERPRINT_VERSION
from .codecs import READABLE_TOKENS_FORMATS, TOKENS_FORMAT

__all__ = ["BUSY_TIMEOUT", "BatchWriter", "CollectionSettingsError", "INDEXING_KEYS", "PreparedDocument", "SCHEMA_MAJOR",
           "SCHEMA_MINOR", "StoredDocument", "check_indexing_settings", "damaged_message", "indexing_meta",
           "other_version", "read_only_message", "storable_text", "stored_settings", "versions", "write_batch"]

SCHEMA_MAJOR = 2
SCHEMA_MINOR = 1
BUSY_TIMEOUT = 10.0  # seconds a writer waits for another one before CollectionBusy
INDEXING_KEYS = Settings.indexing_fields()  # declared in sverka.core.settings (SETTINGS_INFO)
#: The hash tables a batch writes: (table, number of columns: hash, doc_id[, pos]).
HASH_TABLES = (("pairs", 3), ("sentences", 3), ("short_words", 2))


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
    orders: SortOrders | None = None  # made when it was added (None in collections made before them)


@dataclass(frozen=True, eq=False)
class PreparedDocument:
    """Everything one document contributes to a collection, computed in a worker process.

    Compact and picklable: the text and tokens are already encoded (:mod:`.codecs`), hashes
    are int64 arrays (the uint64 bits) ready for the database.
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
    pairs: np.ndarray  # int64 pair-key hashes (sverka.core.keys.pair_keys)
    pair_pos: np.ndarray  # int64 first token of each
    sentences: np.ndarray  # int64 sentence-key hashes (sverka.core.keys.sentence_keys)
    sentence_pos: np.ndarray  # int64 first token of each
    short_words: np.ndarray  # int64 distinct
    short_length: int
    added: str | None = None  # ISO-8601 date of adding; None: now (a rebuild keeps the old one)
    #: Vectors of meaning of its sentences (:mod:`sverka.core.bymeaning`), kept in the table
    #: ``sentence_vectors``: [start, end) of each sentence in the text (int64 (n, 2)) and its
    #: int8 vector (n, dim); None: none computed (the layer is off).
    vector_spans: np.ndarray | None = None
    vectors: np.ndarray | None = None


def versions() -> dict[str, str]:
    """The versions of this Sverka every collection's ``meta`` must hold."""
    return {
        "hash_seed": str(HASH_SEED),
        "canon_version": str(CANON_VERSION),
        "fingerprint_version": str(FINGERPRINT_VERSION),
        "tokens_format": str(TOKENS_FORMAT),
    }


def other_version(meta: dict[str, str]) -> tuple[str, str, str] | None:
    """``(key, found, wanted)`` of the first version in ``meta`` that is not this Sverka's, or None.

    Any readable tokens format passes: each tokens blob names its own (migration 1 -> 2: none needed)."""
    for key, value in versions().items():
        if key == "tokens_format" and meta.get(key) in {str(f) for f in READABLE_TOKENS_FORMATS}:
            continue
        if meta.get(key) != value:
            return key, str(meta.get(key)), value
    return None


def indexing_meta(settings: Settings) -> dict[str, str]:
    """The indexing settings as ``meta`` keeps them."""
    return {k: json.dumps(getattr(settings, k)) for k in INDEXING_KEYS}


def stored_settings(meta: dict[str, str]) -> Settings:
    """The indexing settings a collection's ``meta`` holds (defaults for keys it lacks);
    ValueError or TypeError when they are damaged."""
    return Settings().replace(**{k: json.loads(meta[k]) for k in INDEXING_KEYS if k in meta})


def check_indexing_settings(store, settings: Settings) -> None:
    """Raise CollectionSettingsError unless ``settings`` index the way ``store`` was built."""
    diff = [f"{k} = {getattr(store.settings, k)!r} (asked for {getattr(settings, k)!r})"
            for k in INDEXING_KEYS if getattr(store.settings, k) != getattr(settings, k)]
    if diff:
        raise CollectionSettingsError(
            f"the collection {store.path} was built with other settings: " + "; ".join(diff)
            + ". Use the collection's settings, or build a new collection with these.")


def damaged_message(collection, what: str) -> Message:
    """The message for damaged contents of a collection: what is damaged and how to recover."""
    return message("error.collection_damaged", path=str(collection), what=what)


def read_only_message(collection) -> Message:
    """The message when a user tries to change a collection opened read-only."""
    return message("error.collection_read_only", path=str(collection))


def storable_text(text: str) -> str:
    """A title or name made storable: lone surrogates (undecodable names) become U+FFFD."""
    try:
        text.encode("utf-8")
        return text
    except UnicodeEncodeError:
        return text.encode("utf-8", "surrogateescape").decode("utf-8", "replace").encode(
            "utf-8", "replace").decode("utf-8")


class BatchWriter(Protocol):
    """The statements :func:`write_batch` needs, each store's SQL inside its one transaction."""

    def name_of(self, doc_id: int) -> str | None:
        """Path (or title) of a stored document; None when it is gone."""

    def mark_template(self, doc_id: int) -> None: ...

    def by_path(self, path: str) -> tuple[int, str] | None:
        """``(id, sha256)`` of the document stored under ``path``."""

    def refresh(self, doc_id: int, p: PreparedDocument, template: bool) -> None:
        """The same text under the same path: new size and mtime, template flag or-ed."""

    def drop(self, doc_id: int) -> None:
        """Delete a document's row and its text and tokens (its hash rows: :meth:`drop_rows`)."""

    def by_sha256(self, sha: str) -> tuple[int, str] | None:
        """``(id, path or title)`` of the document with this text."""

    def insert(self, p: PreparedDocument, template: bool, added: str) -> int:
        """Insert a document's row and its text and tokens; its new id."""

    def drop_rows(self, ids: list[int]) -> None:
        """Delete the hash rows of these documents."""

    def append_rows(self, table: str, columns: list[np.ndarray], order: np.ndarray) -> None:
        """Insert rows (hash, doc_id[, pos]) of one hash table in the order ``order``."""


def write_batch(writer: BatchWriter, items: Sequence[PreparedDocument | tuple[str, int]], *,
                template: bool = False) -> list[tuple[str, str, str]]:
    """Classify each item against what is stored and write it through ``writer`` (called inside
    the store's one transaction).

    An item is a :class:`PreparedDocument` or ``("unchanged", doc_id)`` (a file whose path,
    size and mtime are already stored: only its template flag may change). Returns one
    ``(status, path or title, detail)`` per item: status ``added``, ``updated``,
    ``unchanged`` or ``duplicate`` (detail: path or title of the stored original).
    """
    out: list[tuple[str, str, str]] = []
    stale: list[int] = []
    # per table: (hash, doc id[, position]) column pieces of every new document
    rows: dict[str, list[tuple[np.ndarray, ...]]] = {t: [] for t, _ in HASH_TABLES}
    now = _dt.datetime.now(_dt.timezone.utc).astimezone().isoformat(timespec="seconds")
    for item in items:
        if isinstance(item, tuple):
            _, doc_id = item
            name = writer.name_of(int(doc_id))
            if name is None:  # removed meanwhile by someone else
                continue
            if template:
                writer.mark_template(int(doc_id))
            out.append(("unchanged", name, ""))
            continue
        p = item
        name = p.path or p.title
        same_path = writer.by_path(p.path) if p.path is not None else None
        if same_path and same_path[1] == p.sha256:
            writer.refresh(int(same_path[0]), p, template)
            out.append(("unchanged", name, ""))
            continue
        if same_path:
            stale.append(int(same_path[0]))
            writer.drop(int(same_path[0]))
        dup = writer.by_sha256(p.sha256)
        if dup:
            if template:
                writer.mark_template(int(dup[0]))
            out.append(("duplicate", name, dup[1]))
            continue
        doc_id = writer.insert(p, template, p.added or now)
        ids = lambda a: np.full(len(a), doc_id, dtype=np.int64)  # noqa: E731
        rows["pairs"].append((p.pairs, ids(p.pairs), p.pair_pos))
        rows["sentences"].append((p.sentences, ids(p.sentences), p.sentence_pos))
        rows["short_words"].append((p.short_words, ids(p.short_words)))
        out.append(("updated" if same_path else "added", name, ""))
    if stale:
        writer.drop_rows(stale)
    for table in list(rows):
        parts = rows.pop(table)  # freed table by table: a batch's rows never all exist twice
        if not parts or not sum(len(x[0]) for x in parts):
            continue
        cols = [np.concatenate([x[j] for x in parts]) for j in range(len(parts[0]))]
        del parts
        # By hash first: B-tree inserts stay local. Rows are unique by construction (a position
        # holds one key; word sets are np.unique'd; a new document has a new id).
        writer.append_rows(table, cols, np.lexsort(cols[::-1]))
    return out
