"""The last result of every checked document, kept beside the collection.

A teacher closes the window and comes back the next day: reopening an essay shows its last
result with the date and the settings it was checked with, and a re-check is one click.

Storage: one SQLite file next to the collection (``<collection>.history``), so the
collection's own format is untouched and deleting the file forgets only the results. One
row per (SHA-256 of the extracted text, path): a changed file (new text) is a new document;
the same text under another path is found by its SHA-256 when its own path has no result.
The result is kept whole (source texts included, so the side-by-side view needs neither the
files nor the collection; a long source's excerpts, :class:`~sverka.core.results.Excerpts`,
are kept inside its result) as zlib-compressed JSON written by :func:`result_to_data`; the
texts themselves (the checked text and every source's) are kept once each in a ``texts``
table keyed by their SHA-256, so a class of 30 essays citing the same novel stores the novel
once. Format version in ``PRAGMA user_version``.
"""

from __future__ import annotations

import dataclasses
import json
import sqlite3
import zlib
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

from ..errors import SverkaError
from ..results import CheckResult, DocumentInfo, Excerpts, Passage, SourceMatch, Span, SuspectInfo
from ..settings import Settings

__all__ = ["History", "StoredResult", "history_path", "result_from_data", "result_to_data"]

VERSION = 2
#: Results kept at most; the oldest are forgotten first.
MAX_RESULTS = 5000

_TYPES = {cls.__name__: cls for cls in (CheckResult, SuspectInfo, SourceMatch, Passage, Span, Settings, DocumentInfo,
                                        Excerpts)}


def _type_name(cls: type) -> str:
    return cls.__name__ if _TYPES.get(cls.__name__) is cls else f"{cls.__module__}:{cls.__qualname__}"


def _type_of(name: str) -> type:
    """A dataclass of Sverka's core named by :func:`_type_name` (never anything else)."""
    if name in _TYPES:
        return _TYPES[name]
    module, _, qualname = name.partition(":")
    if module.startswith(("sverka.core.", "core.")) and qualname.isidentifier():
        import importlib

        cls = getattr(importlib.import_module(module), qualname, None)
        if isinstance(cls, type) and dataclasses.is_dataclass(cls):
            return cls
    raise ValueError(f"unknown type {name!r}")


def result_to_data(result: CheckResult) -> dict:
    """A check result as plain JSON data (every field, nested dataclasses tagged by type)."""

    def enc(value):
        if dataclasses.is_dataclass(value):
            out = {"__type": _type_name(type(value))}
            for f in dataclasses.fields(value):
                out[f.name] = enc(getattr(value, f.name))
            return out
        if isinstance(value, (list, tuple)):
            return [enc(v) for v in value]
        return value

    return enc(result)


def result_from_data(data: dict) -> CheckResult:
    """The inverse of :func:`result_to_data`; fields unknown to this Sverka are dropped,
    missing ones take their defaults (a result kept by an earlier version still opens)."""

    def dec(value):
        if isinstance(value, dict) and "__type" in value:
            cls = _type_of(value["__type"])
            names = {f.name for f in dataclasses.fields(cls)}
            return cls(**{k: dec(v) for k, v in value.items() if k in names})
        if isinstance(value, list):
            return tuple(dec(v) for v in value)
        return value

    result = dec(data)
    if not isinstance(result, CheckResult):
        raise ValueError("not a check result")
    return result


def history_path(collection: str | Path) -> Path:
    collection = Path(collection)
    return collection.with_name(collection.name + ".history")


@dataclass(frozen=True)
class StoredResult:
    """A kept result: when it was made (ISO 8601, UTC) and with which settings."""

    checked: str
    settings: Settings
    result: CheckResult
    path: str | None  # the path it was kept under (None: pasted text)

    @property
    def checked_local(self) -> datetime:
        return datetime.fromisoformat(self.checked).astimezone()


class History:
    """The kept results of one collection; one connection, use from one thread at a time."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.db = sqlite3.connect(self.path, timeout=10)
            version = self.db.execute("PRAGMA user_version").fetchone()[0]
            if version > VERSION:
                raise SverkaError(f"{self.path}: kept results written by a newer Sverka; update Sverka")
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=NORMAL")
            with self.db:
                if version < VERSION:  # results of the first format: forgotten, never misread
                    self.db.execute("DROP TABLE IF EXISTS results")
                self.db.execute(
                    "CREATE TABLE IF NOT EXISTS results (sha256 TEXT NOT NULL, path TEXT NOT NULL, "
                    "checked TEXT NOT NULL, settings TEXT NOT NULL, result BLOB NOT NULL, "
                    "texts TEXT NOT NULL, PRIMARY KEY (sha256, path))")
                self.db.execute("CREATE TABLE IF NOT EXISTS texts (sha256 TEXT PRIMARY KEY, text BLOB NOT NULL)")
                self.db.execute("CREATE INDEX IF NOT EXISTS results_checked ON results(checked)")
                self.db.execute(f"PRAGMA user_version = {VERSION}")
        except sqlite3.Error as e:
            raise SverkaError(f"{self.path}: cannot open the kept results ({e})") from None

    def save(self, result: CheckResult, when: datetime | None = None) -> StoredResult:
        """Keep ``result`` as the last result of its document (replacing an older one)."""
        when = (when or datetime.now(timezone.utc)).astimezone(timezone.utc).isoformat(timespec="seconds")
        texts = {result.suspect.sha256: result.suspect_text}
        texts.update((src.sha256, src.text) for src in result.sources if src.excerpts is None)
        bare = dataclasses.replace(result, suspect_text="",
                                   sources=tuple(dataclasses.replace(src, text="") for src in result.sources))
        blob = zlib.compress(json.dumps(result_to_data(bare), ensure_ascii=False).encode("utf-8", "surrogatepass"), 6)
        path = result.suspect.path or ""
        try:
            self._save(result, texts, path, when, blob)
        except sqlite3.Error as e:
            raise SverkaError(f"{self.path}: the result could not be kept ({e})") from None
        return StoredResult(when, result.settings, result, result.suspect.path)

    def _save(self, result: CheckResult, texts: dict, path: str, when: str, blob: bytes) -> None:
        with self.db:
            have = {row[0] for row in self.db.execute(
                f"SELECT sha256 FROM texts WHERE sha256 IN ({','.join('?' * len(texts))})", list(texts))}
            self.db.executemany("INSERT INTO texts VALUES (?, ?)", [
                (sha, zlib.compress(text.encode("utf-8", "surrogatepass"), 6))
                for sha, text in texts.items() if sha not in have])
            self.db.execute("INSERT OR REPLACE INTO results VALUES (?, ?, ?, ?, ?, ?)",
                            (result.suspect.sha256, path, when, result.settings.to_json(), blob,
                             json.dumps(sorted(texts))))
            trimmed = self.db.execute("DELETE FROM results WHERE rowid IN (SELECT rowid FROM results "
                                      "ORDER BY checked DESC LIMIT -1 OFFSET ?)", (MAX_RESULTS,)).rowcount
            if trimmed:  # texts no kept result refers to any more
                self.db.execute("DELETE FROM texts WHERE sha256 NOT IN "
                                "(SELECT value FROM results, json_each(results.texts))")

    def last(self, sha256: str, path: str | None = None) -> StoredResult | None:
        """The last result of the text with this SHA-256 kept under ``path``, else under any
        path (the same text moved or renamed), newest first; None if it was never checked."""
        row = self.db.execute(
            "SELECT checked, settings, result, path FROM results WHERE sha256 = ? "
            "ORDER BY path = ? DESC, checked DESC LIMIT 1", (sha256, path or "")).fetchone()
        if row is None:
            return None
        checked, settings, blob, stored_path = row
        try:
            data = json.loads(zlib.decompress(blob).decode("utf-8", "surrogatepass"))
            result = result_from_data(data)
            wanted = {result.suspect.sha256} | {src.sha256 for src in result.sources if src.excerpts is None}
            texts = {sha: zlib.decompress(text).decode("utf-8", "surrogatepass") for sha, text in self.db.execute(
                f"SELECT sha256, text FROM texts WHERE sha256 IN ({','.join('?' * len(wanted))})", list(wanted))}
            result = dataclasses.replace(
                result, suspect_text=texts[result.suspect.sha256],
                sources=tuple(src if src.excerpts is not None else dataclasses.replace(src, text=texts[src.sha256])
                              for src in result.sources))
        except (zlib.error, ValueError, TypeError, ImportError, KeyError):
            return None  # damaged or from an incompatible Sverka: as if never checked
        return StoredResult(checked, Settings.from_json(settings), result, stored_path or None)

    def count(self) -> int:
        return self.db.execute("SELECT count(*) FROM results").fetchone()[0]

    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> "History":
        return self

    def __exit__(self, *exc) -> None:
        self.close()
