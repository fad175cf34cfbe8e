"""Rebuilding a collection written by an earlier Sverka from the texts it stores.

A collection keeps every document's extracted text, so when the stored hashes no longer fit
this Sverka (an older format), nothing needs the original files: each text is canonized and
fingerprinted again into a new file, with its path, title, format, template flag, size,
modification time and date of adding kept. The old file is kept beside the new one as
``<name>.format<N>.bak`` and replaced only when the new one is complete, so an interrupted
rebuild (cancel, crash, full disk) leaves the collection as it was.

Rebuilt: format 1 (Sverka 0.1: texts as zlib of UTF-8), and a collection of this format
whose canonization, fingerprint or hash-seed version is not this Sverka's (texts as UTF-8):
its stored hashes would silently match nothing, so it is refused until rebuilt.
"""

from __future__ import annotations

import json
import os
import sqlite3
import zlib
from pathlib import Path

from .document import Document
from .errors import CollectionError, CollectionVersionError
from .messages import from_json
from .progress import NEVER_CANCELLED, CancelToken, Progress, no_progress
from .settings import Settings

__all__ = ["rebuild"]

_BATCH = 50


def _old_rows(path: Path) -> tuple[int, Settings, list[tuple], dict[str, str]]:
    from .index import _INDEXING_KEYS

    try:
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    except sqlite3.Error as e:
        raise CollectionError(f"cannot open the collection {path}: {e}") from e
    try:
        version = db.execute("PRAGMA user_version").fetchone()[0]
        meta = dict(db.execute("SELECT key, value FROM meta").fetchall())
        rows = db.execute(
            "SELECT d.path, d.title, d.format, d.size_bytes, d.mtime, d.added, d.is_template, d.warnings, x.text "
            "FROM documents d JOIN document_data x ON x.doc_id = d.id ORDER BY d.id").fetchall()
    except sqlite3.DatabaseError as e:
        raise CollectionError(f"{path} is not a Sverka collection or is damaged ({e}); it cannot be rebuilt") from e
    finally:
        db.close()
    kwargs = {k: json.loads(meta[k]) for k in _INDEXING_KEYS if k in meta}
    return version >> 16, Settings().replace(**kwargs), rows, meta


def rebuild(path: str | Path, progress: Progress = no_progress, cancel: CancelToken = NEVER_CANCELLED) -> int:
    """Rebuild the collection file ``path`` written by an older Sverka; returns how many
    documents it holds. Raises CollectionError if it needs no rebuild or cannot be read."""
    from .fingerprints import fingerprint_document
    from .index import SCHEMA_MAJOR, Index, _versions, prepare
    from .text import canonize

    path = Path(path)
    major, settings, rows, meta = _old_rows(path)
    if major == SCHEMA_MAJOR and all(meta.get(k) == v for k, v in _versions().items() if k != "tokens_format"):
        raise CollectionError(f"the collection {path} is up to date: nothing to rebuild")
    if major > SCHEMA_MAJOR:
        raise CollectionVersionError(f"the collection {path} was written by a newer Sverka; update Sverka to open it")
    if major not in (1, SCHEMA_MAJOR):
        raise CollectionVersionError(f"the collection {path} has format {major}, which this Sverka cannot read")
    new_path = path.with_name(path.name + ".rebuild")
    for leftover in (new_path, Path(f"{new_path}-wal"), Path(f"{new_path}-shm")):
        leftover.unlink(missing_ok=True)
    added_dates: list[tuple[str, str]] = []
    try:
        with Index(new_path, settings) as index:
            batch: list[tuple[object, bool]] = []

            def flush() -> None:
                for template in (False, True):
                    items = [p for p, t in batch if t == template]
                    if items:
                        index.write_batch(items, template=template)
                batch.clear()

            for k, (doc_path, title, fmt, size, mtime, added, is_template, warnings, blob) in enumerate(rows):
                cancel.raise_if_cancelled()
                progress(k, len(rows), "phase.rebuilding")
                try:
                    raw = zlib.decompress(blob) if major == 1 else bytes(blob)
                    text = raw.decode("utf-8", "surrogatepass")
                except (zlib.error, UnicodeDecodeError) as e:
                    raise CollectionError(f"the text of {doc_path or title} in {path} is damaged ({e}); "
                                          "it cannot be rebuilt from the collection") from e
                doc = Document(text, path=doc_path, title=title, format=fmt,
                               warnings=tuple(map(from_json, json.loads(warnings or "[]"))))
                tokens = canonize(doc.text, drop_adjectives=settings.drop_adjectives)
                prepared = prepare(doc, tokens, fingerprint_document(tokens, settings),
                                   size_bytes=size, mtime=mtime, path=doc_path)
                batch.append((prepared, bool(is_template)))
                added_dates.append((added, doc.sha256))
                if len(batch) >= _BATCH:
                    flush()
            flush()
            with index.transaction() as db:
                db.executemany("UPDATE documents SET added=? WHERE sha256=?", added_dates)
            count = index.count()
        progress(len(rows), len(rows), "phase.done")
        backup = path.with_name(f"{path.name}.format{major}.bak")
        os.replace(path, backup)
        for side in ("-wal", "-shm"):
            Path(f"{path}{side}").unlink(missing_ok=True)
        os.replace(new_path, path)
    except BaseException:
        for leftover in (new_path, Path(f"{new_path}-wal"), Path(f"{new_path}-shm")):
            leftover.unlink(missing_ok=True)
        raise
    return count
