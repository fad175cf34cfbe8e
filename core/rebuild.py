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
import zlib
from pathlib import Path

from .document import Document
from .errors import CollectionError, CollectionVersionError
from .fingerprints import fingerprint_document
from .messages import from_json
from .preparing import prepare, with_vectors
from .progress import NEVER_CANCELLED, CancelToken, Progress, no_progress
from .settings import Settings
from .store import postings
from .store.codecs import decode_text, inflate
from .store.common import INDEXING_KEYS, SCHEMA_MAJOR, versions
from .store.sqlite import SQLiteStore, read_old_rows
from .text import canonize

__all__ = ["rebuild"]

_BATCH = 50
#: The largest text a stored document can inflate to (a damaged or crafted blob must not
#: inflate to gigabytes): 4 bytes per character of Sverka's text limit.
MAX_TEXT_BYTES = 4 * 50_000_000


def _name(doc_path):
    """A stored path (text, or the OS's bytes for a name that is not UTF-8) as Python's str."""
    return os.fsdecode(doc_path) if isinstance(doc_path, bytes) else doc_path


def _settings(meta: dict[str, str]) -> tuple[Settings, bool]:
    """The indexing settings a collection was built with, and whether any was damaged (the
    default is used for it)."""
    kwargs = {}
    damaged = False
    for k in INDEXING_KEYS:
        if k in meta:
            try:
                kwargs[k] = json.loads(meta[k])
                Settings().replace(**{k: kwargs[k]})
            except (ValueError, TypeError):  # damaged: the default is used
                kwargs.pop(k, None)
                damaged = True
    return Settings().replace(**kwargs), damaged


def rebuild(path: str | Path, progress: Progress = no_progress, cancel: CancelToken = NEVER_CANCELLED,
            skipped: list[str] | None = None) -> int:
    """Rebuild the collection file ``path`` written by an older Sverka, or one whose contents
    are damaged; returns how many documents it holds. Documents that cannot be read back are
    left out and named in ``skipped``. Raises CollectionError if it needs no rebuild or
    cannot be read."""
    path = Path(path)
    if skipped is None:
        skipped = []
    major, meta, rows, damaged = read_old_rows(path, skipped)
    settings, damaged_settings = _settings(meta)
    damaged = damaged or damaged_settings
    if major == SCHEMA_MAJOR and not damaged and all(
            meta.get(k) == v for k, v in versions().items() if k != "tokens_format"):
        raise CollectionError(f"the collection {path} is up to date: nothing to rebuild")
    if major > SCHEMA_MAJOR:
        raise CollectionVersionError(f"the collection {path} was written by a newer Sverka; update Sverka to open it")
    if major not in (1, SCHEMA_MAJOR):
        raise CollectionVersionError(f"the collection {path} has format {major}, which this Sverka cannot read")
    new_path = path.with_name(path.name + ".rebuild")
    for leftover in (new_path, Path(f"{new_path}-wal"), Path(f"{new_path}-shm"), postings.path_for(new_path)):
        leftover.unlink(missing_ok=True)
    try:
        with SQLiteStore(new_path, settings) as index:
            batch: list[tuple[object, bool]] = []

            def flush() -> None:
                for template in (False, True):
                    items = [p for p, t in batch if t == template]
                    if items:
                        index.write_batch(with_vectors(items), template=template)
                batch.clear()

            for k, (doc_path, title, fmt, size, mtime, added, is_template, warnings, blob) in enumerate(rows):
                cancel.raise_if_cancelled()
                progress(k, len(rows), "phase.rebuilding")
                try:
                    raw = inflate(blob, MAX_TEXT_BYTES) if major == 1 else bytes(blob)
                    text = decode_text(raw)  # UTF-8, or UTF-16 after its mark
                    kept_warnings = json.loads(warnings or "[]")
                    if not isinstance(kept_warnings, list):
                        kept_warnings = []
                except (zlib.error, UnicodeDecodeError, ValueError, TypeError) as e:
                    skipped.append(f"{_name(doc_path) or title}: its stored text is damaged ({e})")
                    continue
                doc = Document(text, path=_name(doc_path), title=title, format=fmt,
                               warnings=tuple(map(from_json, kept_warnings)))
                tokens = canonize(doc.text, drop_adjectives=settings.drop_adjectives)
                prepared = prepare(doc, tokens, fingerprint_document(tokens, settings),
                                   size_bytes=size, mtime=mtime, path=doc_path, added=added,
                                   meaning=settings.find_by_meaning)
                batch.append((prepared, bool(is_template)))
                if len(batch) >= _BATCH:
                    flush()
            flush()
            count = index.count()
        progress(len(rows), len(rows), "phase.done")
        backup = path.with_name(f"{path.name}.format{major}.bak")
        os.replace(path, backup)
        for side in ("-wal", "-shm"):
            Path(f"{path}{side}").unlink(missing_ok=True)
        os.replace(new_path, path)
        try:  # the new collection's postings file with it (a cache: it names what it holds)
            os.replace(postings.path_for(new_path), postings.path_for(path))
        except OSError:
            postings.path_for(new_path).unlink(missing_ok=True)
    except BaseException:
        for leftover in (new_path, Path(f"{new_path}-wal"), Path(f"{new_path}-shm"), postings.path_for(new_path)):
            leftover.unlink(missing_ok=True)
        raise
    return count
