"""A collection file's postings file: its pair and sentence keys as sorted arrays the engine
searches, a cache of the SQLite record kept beside it (``ruslit.sverka`` ->
``ruslit.sverka.postings``).

Why: a check looks up every pair key of the suspect and of its synonym variants (16 000 keys
for 50 KB); SQLite answers each with a B-tree probe and hands back a Python tuple per row, 23 ms
a check against all of ruslit, where the engine's search of these arrays (memory-mapped) takes
3 ms (bench/bench_postings.py, docs/BENCHMARKS.md "The compiled engine (issue 37): retrieval").

The record stays SQLite's: the file is only ever used when it holds exactly what the
collection holds, and is never needed:

* Its header names the state it was made from: the SHA-256 of the collection's ``meta`` and
  of every document's id and text SHA-256 (:func:`documents_digest`; ids are never reused, a
  document's keys follow from its text and the versions and settings ``meta`` holds). A store compares it with the collection's current
  digest whenever the file may have changed (``PRAGMA data_version``, its own commits): any
  other state (a document added or removed by another process, by an earlier Sverka that knows
  nothing of the file, a collection file replaced by another) and the file is not used.
* Its body carries an xxh3 checksum, checked when it is opened, and the engine checks the
  arrays' order and bounds (``postings_check``): a damaged file is not used.
* It is written whole to a temporary file and renamed over the old one: a killed write leaves
  the old file or the new one, and either says which state it holds.
* Not used, it is rebuilt from the collection's rows (one read transaction: the rows and the
  digest of one state) by the next check that can write beside the collection; adding and
  removing documents update it in their transaction from what they write (the old arrays with
  the removed documents left out and the new rows put in), renaming it into place after the
  commit. When it cannot be written (a read-only folder, a full disk) the store asks SQLite,
  as before.

Layout: ``MAGIC``, the header's length (8 bytes, little-endian), the header (JSON: format,
digest, checksum, and per table the place of its four arrays), then the arrays, each at an
offset divisible by 8: ``keys`` int64 (the hashes as SQLite stores them, strictly increasing),
``offsets`` uint64 (``len(keys) + 1``), ``docs`` uint32 and ``pos`` uint32 (each key's rows by
document and position: the order of the table's primary key, so a lookup returns the rows in
the order SQLite's query did).
"""

from __future__ import annotations

import hashlib
import json
import mmap
import os
import tempfile
from pathlib import Path
from typing import Callable

import numpy as np
import xxhash

from ..engine import i64, native
from .codecs import i64 as stored_i64, rows_array, u64

__all__ = ["FORMAT", "MAGIC", "PostingsFile", "Spill", "TABLES", "build_tables", "documents_digest",
           "merge_runs", "merge_tables", "path_for", "write"]

MAGIC = b"SVKPOSTS"
FORMAT = 1
#: The tables kept: the retrieval keys (sverka.core.keys).
TABLES = ("pairs", "sentences")
#: Largest document id and position the file holds (uint32).
_LIMIT = 2**32 - 1

Table = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]  # keys, offsets, docs, pos
_DTYPES = {"keys": np.int64, "offsets": np.uint64, "docs": np.uint32, "pos": np.uint32}


def path_for(collection: Path) -> Path:
    """Where the postings file of a collection file lives."""
    return collection.with_name(collection.name + ".postings")


def documents_digest(db) -> str:
    """The state of a collection's documents (see the module docstring), read through ``db``:
    its ``meta`` (the versions and settings the keys are made with: a collection rebuilt for a
    new canonization holds the same texts under the same ids, and other keys), then every
    document's id and text SHA-256."""
    h = hashlib.sha256()
    for key, value in db.execute("SELECT key, value FROM meta ORDER BY key"):
        h.update(f"{key}={value}\n".encode())
    for doc_id, sha in db.execute("SELECT id, sha256 FROM documents ORDER BY id"):
        h.update(f"{doc_id}:{sha}\n".encode())
    return h.hexdigest()


#: Rows handled at a time when a file is built or updated (~40 MB of arrays): a collection of
#: long novels holds millions of keys, which never all exist in memory at once.
CHUNK_ROWS = 1 << 20


class _Sections:
    """The four arrays of one table written chunk by chunk (sorted rows continuing the previous
    chunk's) into temporary files beside the collection."""

    def __init__(self, folder: Path) -> None:
        self.files = {name: tempfile.TemporaryFile(dir=folder, prefix=".postings-") for name in _DTYPES}
        self.rows = 0
        self.keys = 0
        self.last: int | None = None

    def add(self, h: np.ndarray, d: np.ndarray, p: np.ndarray) -> None:
        if not len(h):
            return
        if int(d.min()) < 0 or int(d.max()) > _LIMIT or int(p.min()) < 0 or int(p.max()) > _LIMIT:
            raise ValueError("a document id or position beyond the postings file's range")
        new = np.concatenate(([self.last is None or int(h[0]) != self.last], h[1:] != h[:-1]))
        starts = np.flatnonzero(new)
        self.files["keys"].write(np.ascontiguousarray(h[starts], np.int64).tobytes())
        self.files["offsets"].write((starts + self.rows).astype(np.uint64).tobytes())
        self.files["docs"].write(np.ascontiguousarray(d, np.uint32).tobytes())
        self.files["pos"].write(np.ascontiguousarray(p, np.uint32).tobytes())
        self.rows += len(h)
        self.keys += len(starts)
        self.last = int(h[-1])

    def finish(self) -> dict[str, int]:
        """The arrays' lengths; the files rewound for reading."""
        self.files["offsets"].write(np.array([self.rows], np.uint64).tobytes())
        for f in self.files.values():
            f.flush()
            f.seek(0)
        return {"keys": self.keys, "offsets": self.keys + 1, "docs": self.rows, "pos": self.rows}

    def close(self) -> None:
        for f in self.files.values():
            f.close()


def _filled(folder: Path, fill: "Callable[[str, _Sections], None]") -> dict[str, _Sections]:
    """Every table's sections, each filled by ``fill(table, sections)``; on any error the
    sections made so far are closed (their temporary files go) before it is raised."""
    out: dict[str, _Sections] = {}
    try:
        for table in TABLES:
            out[table] = sec = _Sections(folder)
            fill(table, sec)
    except BaseException:
        for sec in out.values():
            sec.close()
        raise
    return out


def build_tables(db, folder: Path) -> dict[str, _Sections]:
    """Every table's arrays from the collection's rows, read in the primary key's order (sorted)."""
    def fill(table: str, sec: _Sections) -> None:
        cur = db.execute(f"SELECT hash, doc_id, pos FROM {table} ORDER BY hash, doc_id, pos")
        while rows := cur.fetchmany(CHUNK_ROWS // 4):
            a = rows_array(rows, 3)
            sec.add(a[:, 0], a[:, 1], a[:, 2])

    return _filled(folder, fill)


def merge_tables(old: dict[str, Table], removed: set[int], added: dict[str, list[np.ndarray]],
                 folder: Path) -> dict[str, _Sections]:
    """The arrays after a write: ``old`` without the documents ``removed``, with the rows
    ``added`` (per table: int64 columns hash, doc_id, pos) put in their place, a range of keys
    at a time."""
    gone = np.fromiter(removed, np.int64) if removed else None

    def fill(table: str, sec: _Sections) -> None:
        keys, offsets, docs, pos = old[table]
        cols = added.get(table)
        if cols is not None and len(cols[0]):
            nh, nd, np_ = (np.asarray(c, np.int64) for c in cols)
            order = np.lexsort((np_, nd, nh))
            nh, nd, np_ = nh[order], nd[order], np_[order]
        else:
            nh = nd = np_ = np.zeros(0, np.int64)
        newest = len(nd) == 0 or len(docs) == 0 or int(nd.min()) > int(docs.max())
        # key ranges of about CHUNK_ROWS rows; the new rows of each range go with it
        cuts = np.searchsorted(offsets.astype(np.int64), np.arange(0, int(offsets[-1]), CHUNK_ROWS), "right") - 1
        cuts = np.unique(np.append(np.maximum(cuts, 0), len(keys)))
        if cuts[0] != 0:
            cuts = np.insert(cuts, 0, 0)
        taken = 0
        for k0, k1 in zip(cuts[:-1].tolist(), cuts[1:].tolist()):
            a, b = int(offsets[k0]), int(offsets[k1])
            h = np.repeat(keys[k0:k1], np.diff(offsets[k0:k1 + 1].astype(np.int64)))
            d, p = docs[a:b].astype(np.int64), pos[a:b].astype(np.int64)
            if gone is not None:
                keep = ~np.isin(d, gone)
                h, d, p = h[keep], d[keep], p[keep]
            upto = len(nh) if k1 >= len(keys) else int(np.searchsorted(nh, keys[k1], "left"))
            xh, xd, xp = nh[taken:upto], nd[taken:upto], np_[taken:upto]
            taken = upto
            if len(xh):
                if newest:  # new ids follow every stored one: after the old rows of their hash
                    at = np.searchsorted(h, xh, "right")
                    h, d, p = np.insert(h, at, xh), np.insert(d, at, xd), np.insert(p, at, xp)
                else:
                    h, d, p = np.concatenate([h, xh]), np.concatenate([d, xd]), np.concatenate([p, xp])
                    order = np.lexsort((p, d, h))
                    h, d, p = h[order], d[order], p[order]
            sec.add(h, d, p)
        if len(keys) == 0:
            sec.add(nh, nd, np_)

    return _filled(folder, fill)


#: Batches a :class:`Spill` keeps, at most: the end's merge searches every run for every range
#: of keys (an add of more batches than this builds the file from the rows, in one pass).
SPILL_RUNS = 64


class Spill:
    """The batches of one add written after it stopped updating the postings file batch by
    batch (``SQLiteStore.adding``): the state of the file they start from (``base``, its digest:
    the state the first of them started from), and what each batch removed and added, its rows sorted and kept as a
    run in temporary files beside the collection, so that the file is made once at the end from
    the base and the runs (:func:`merge_runs`, a range of keys at a time), not by reading every
    row of the collection back from SQLite. ``state``: the digest after the last batch taken;
    a batch is taken only when it starts from it (nobody else wrote in between), else the spill
    is given up (``broken``) and the file is built from the rows."""

    _COLUMNS = ("hash", "doc", "pos")

    def __init__(self, base: "PostingsFile", folder: Path) -> None:
        self.base = base.digest  # the file itself is opened again at the end: its pages are
        self.state = base.digest  # not held through the add
        self.removed: set[int] = set()
        self.rows = 0
        self.broken = False
        self._runs: dict[str, list[tuple[int, int]]] = {t: [] for t in TABLES}  # (first row, rows)
        self._stored = {t: 0 for t in TABLES}
        self._files = {(t, c): tempfile.TemporaryFile(dir=folder, prefix=".postings-spill-")
                       for t in TABLES for c in self._COLUMNS}

    def take(self, start: str, end: str, removed: set[int], added: dict[str, list[np.ndarray]]) -> None:
        """A batch that went from state ``start`` to ``end``, removing and adding these (per
        table: columns hash, doc_id, pos)."""
        if self.broken:
            return
        if start != self.state or max(len(r) for r in self._runs.values()) >= SPILL_RUNS:
            self.broken = True
            self.close()  # its rows are of no more use: their room goes back now
            return
        self.removed |= {int(d) for d in removed}
        for table in TABLES:
            cols = added.get(table)
            if cols is None or not len(cols[0]):
                continue
            h, d, p = (np.asarray(c, np.int64) for c in cols)
            order = np.lexsort((p, d, h))
            for name, col in zip(self._COLUMNS, (h, d, p)):
                self._files[table, name].write(np.ascontiguousarray(col[order]).tobytes())
            self._runs[table].append((self._stored[table], len(h)))
            self._stored[table] += len(h)
            self.rows += len(h)
        self.state = end

    def runs(self) -> dict[str, list["_Run"]]:
        """Per table, each batch's rows (sorted), read from the files a range at a time."""
        out: dict[str, list] = {}
        for table in TABLES:
            files = [self._files[table, name] for name in self._COLUMNS]
            for f in files:
                f.flush()
            out[table] = [_Run(files, a, n) for a, n in self._runs[table]]
        return out

    def close(self) -> None:
        for f in self._files.values():
            f.close()


class _Run:
    """One batch's rows in a :class:`Spill`'s column files (hash, doc_id, pos: int64, sorted),
    rows ``first:first + n``: searched through a map of its hashes (a few pages a search) and
    read a range at a time, so that merging holds no more of it than a range."""

    def __init__(self, files: list, first: int, n: int) -> None:
        self._files, self._first, self.n = files, first, n
        self.hashes = np.memmap(files[0], dtype=np.int64, mode="r", offset=8 * first, shape=(n,)) if n else \
            np.zeros(0, np.int64)

    def marks(self, step: int) -> np.ndarray:
        """The hash of every ``step``-th row."""
        return np.array(self.hashes[::step], np.int64)

    def read(self, x0: int, x1: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Rows ``x0:x1`` of the run, as arrays of their own."""
        out = []
        for f in self._files:
            f.seek(8 * (self._first + x0))
            out.append(np.frombuffer(f.read(8 * (x1 - x0)), np.int64))
        return out[0], out[1], out[2]


def merge_runs(old: dict[str, Table], removed: set[int], runs: dict[str, list[_Run]],
               folder: Path) -> dict[str, _Sections]:
    """The arrays of ``old`` without the documents ``removed`` (in ``old`` or in a run: ids
    are never reused, so a run's document removed is one added and removed by one add), with
    the rows of ``runs`` (per table, sorted runs of a :class:`Spill`) put in their place: a
    range of hashes at a time, ranges of at most about a quarter of :data:`CHUNK_ROWS` rows of
    all of them together (what a build from the rows reads at a time)."""
    gone = np.fromiter(removed, np.int64) if removed else None

    def fill(table: str, sec: _Sections) -> None:
        keys, offsets, docs, pos = old[table]
        offs = offsets.astype(np.int64)
        parts = runs.get(table, [])
        step = max(1, CHUNK_ROWS // 4 // (len(parts) + 1))
        marks = [keys[np.searchsorted(offs, np.arange(0, int(offs[-1]), step), "right") - 1]] if len(keys) else []
        marks += [r.marks(step) for r in parts]
        bounds = np.unique(np.concatenate(marks)).tolist() if marks else []
        for lo, hi in zip([None, *bounds], [*bounds, None]):
            k0 = 0 if lo is None else int(keys.searchsorted(lo, "left"))
            k1 = len(keys) if hi is None else int(keys.searchsorted(hi, "left"))
            a, b = int(offs[k0]), int(offs[k1])
            hs = [np.repeat(keys[k0:k1], np.diff(offs[k0:k1 + 1]))]
            ds, ps = [docs[a:b].astype(np.int64)], [pos[a:b].astype(np.int64)]
            for r in parts:
                x0 = 0 if lo is None else int(r.hashes.searchsorted(lo, "left"))
                x1 = r.n if hi is None else int(r.hashes.searchsorted(hi, "left"))
                rh, rd, rp = r.read(x0, x1)
                hs.append(rh)
                ds.append(rd)
                ps.append(rp)
            h, d, p = (np.concatenate(x) for x in (hs, ds, ps))
            if gone is not None:
                keep = ~np.isin(d, gone)
                h, d, p = h[keep], d[keep], p[keep]
            if parts:
                order = np.lexsort((p, d, h))
                h, d, p = h[order], d[order], p[order]
            sec.add(h, d, p)

    return _filled(folder, fill)


def write(path: Path, digest: str, tables: dict[str, _Sections]) -> Path:
    """Write a postings file beside ``path`` under a temporary name; the caller renames it into
    place (:func:`os.replace`) once the state ``digest`` is committed. Returns the temporary path."""
    header: dict = {"format": FORMAT, "digest": digest, "tables": {}}
    check = xxhash.xxh3_64()
    at = 0
    sizes = {}
    try:
        for table in TABLES:
            sizes[table] = tables[table].finish()
            places = {}
            for name, f in tables[table].files.items():
                length = sizes[table][name] * np.dtype(_DTYPES[name]).itemsize
                places[name] = [at, sizes[table][name]]
                while chunk := f.read(1 << 22):
                    check.update(chunk)
                pad = (-length) % 8
                check.update(b"\0" * pad)
                at += length + pad
                f.seek(0)
            header["tables"][table] = places
        header["checksum"] = check.hexdigest()
        head = json.dumps(header).encode()
        head += b" " * ((-(len(MAGIC) + 8 + len(head))) % 8)
        tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
        try:
            with open(tmp, "wb") as out:
                out.write(MAGIC + len(head).to_bytes(8, "little") + head)
                for table in TABLES:
                    for name, f in tables[table].files.items():
                        length = sizes[table][name] * np.dtype(_DTYPES[name]).itemsize
                        while chunk := f.read(1 << 22):
                            out.write(chunk)
                        out.write(b"\0" * ((-length) % 8))
        except BaseException:
            tmp.unlink(missing_ok=True)
            raise
    finally:
        for sec in tables.values():
            sec.close()
    return tmp


class PostingsFile:
    """An opened postings file (memory-mapped); :meth:`open` checks it whole."""

    def __init__(self, digest: str, tables: dict[str, Table], stat: tuple, buffer: mmap.mmap | None) -> None:
        self.digest, self.tables, self.stat, self._buffer = digest, tables, stat, buffer

    @staticmethod
    def file_stat(path: Path) -> tuple | None:
        try:
            st = path.stat()
        except OSError:
            return None
        return st.st_ino, st.st_size, st.st_mtime_ns

    @classmethod
    def open(cls, path: Path, digest: str) -> "PostingsFile | None":
        """The file at ``path`` if it holds the state ``digest`` and is whole; None otherwise
        (missing, another state, damaged)."""
        stat = cls.file_stat(path)
        if stat is None:
            return None
        try:
            with open(path, "rb") as f:
                if stat[1] == 0:
                    return None
                buffer = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
        except (OSError, ValueError):
            return None
        try:
            if buffer[:len(MAGIC)] != MAGIC:
                raise ValueError("not a postings file")
            size = int.from_bytes(buffer[len(MAGIC):len(MAGIC) + 8], "little")
            start = len(MAGIC) + 8 + size
            header = json.loads(bytes(buffer[len(MAGIC) + 8:start]))
            if header.get("format") != FORMAT or header.get("digest") != digest:
                raise ValueError("another state")
            body = memoryview(buffer)[start:]
            whole = xxhash.xxh3_64_hexdigest(body) == header.get("checksum")
            body.release()
            if not whole:
                raise ValueError("damaged")
            tables = {}
            for table in TABLES:
                arrays = []
                for name in ("keys", "offsets", "docs", "pos"):
                    at, count = header["tables"][table][name]
                    arrays.append(np.frombuffer(buffer, _DTYPES[name], int(count), start + int(at)))
                native.postings_check(*arrays)
                tables[table] = tuple(arrays)
        except (ValueError, KeyError, TypeError, IndexError, AttributeError, UnicodeDecodeError):
            tables = arrays = None  # noqa: F841 (the views go before the map closes)
            try:
                buffer.close()
            except BufferError:  # a view still held: the map closes when it goes
                pass
            return None
        return cls(digest, tables, stat, buffer)

    def lookup(self, table: str, hashes, max_posting: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Rows (hash uint64, doc_id int64, pos int64) of the keys among ``hashes``, as the
        store's query gives them (``SQLiteStore.pair_postings``)."""
        h, d, p = native.postings_lookup(*self.tables[table], i64(stored_i64(hashes)), int(max_posting))
        return u64(h), d, p
