"""Documents built by hand for the store tests (no extraction or canonization), so every
number can be checked by eye, and helpers that reach into one backend where a test must."""

from __future__ import annotations

import contextlib
import hashlib
import sqlite3

import numpy as np

from sverka.core.store import codecs
from sverka.core.store.common import PreparedDocument
from sverka.core.tokens import Tokens

HIGH = 2**63 + 5  # a hash with the top bit set: must survive the signed 64-bit column


def make_tokens(text: str = "one two three. four five") -> Tokens:
    return Tokens(
        text=text,
        starts=np.array([0, 4, 8, 15, 20], dtype=np.int64),
        ends=np.array([3, 7, 13, 19, 24], dtype=np.int64),
        lemmas=("one", "two", "three", "four", "five"),
        hashes=np.array([1, 2, HIGH, 2**64 - 1, 0], dtype=np.uint64),
        word_hashes=np.array([11, 12, 13, 14, 2**64 - 2], dtype=np.uint64),
        sentence_ids=np.array([0, 0, 0, 1, 1], dtype=np.int32),
        sentence_spans=np.array([[0, 14], [15, 24]], dtype=np.int64),
        word_count=6, language="en", lookalike_letters=1, invisible_chars=2, hyphen_joins=3,
        warnings=("Латинские буквы",),
    )


def prepared(name: str, shingles, *, text: str | None = None, seq2=(), words=(),
             path: str | None = "auto") -> PreparedDocument:
    text = text if text is not None else f"text of {name}"
    sh = np.array(shingles, dtype=np.uint64)
    return PreparedDocument(
        path=f"/docs/{name}.txt" if path == "auto" else path, title=name, format="txt",
        sha256=hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest(), chars=len(text), words=5,
        size_bytes=len(text), mtime=1.0, language="en", warnings=(),
        text_blob=codecs.encode_text(text), tokens_blob=codecs.encode_tokens(make_tokens()),
        text_bytes=len(text), pairs=codecs.i64(sh), pair_pos=np.arange(len(sh), dtype=np.int64),
        sentences=codecs.i64(np.array(seq2, dtype=np.uint64)),
        sentence_pos=np.arange(len(seq2), dtype=np.int64),
        short_words=np.unique(codecs.i64(np.array(words, dtype=np.uint64))),
        short_length=len(set(words)),
    )


def hold_write_lock(store):
    """A context in which ``store`` holds its collection's write lock (as a long batch does)."""
    if hasattr(store, "transaction"):  # SQLite: BEGIN IMMEDIATE
        return store.transaction()
    return store._write()  # PostgreSQL: the advisory lock's transaction


def set_meta(location: str, key: str, value: str) -> None:
    """Change one stored meta value (or the schema version) behind Sverka's back."""
    if location.startswith("postgresql://"):
        import psycopg

        with psycopg.connect(location, autocommit=True) as conn:
            conn.execute("UPDATE meta SET value=%s WHERE key=%s", (value, key))
        return
    with contextlib.closing(sqlite3.connect(location)) as db:
        if key == "schema_version":
            major, minor = (int(x) for x in value.split("."))
            db.execute(f"PRAGMA user_version={major << 16 | minor}")
        else:
            db.execute("UPDATE meta SET value=? WHERE key=?", (value, key))
        db.commit()
