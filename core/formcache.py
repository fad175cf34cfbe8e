"""The machine-wide table of analysed word forms: each form goes through the dictionaries once
per machine, not once per process.

* One file per dictionary version in the user's cache directory
  (``platformdirs.user_cache_dir("sverka")``, or ``$SVERKA_CACHE_DIR``):
  ``forms-<key>.bin``, where ``key`` digests the versions of pymorphy3, its Russian and
  Ukrainian dictionaries, simplemma, the stop-word lists, the canonization rules
  (:data:`RULES_VERSION`) and the hash seed. Another version is another file, so an update
  never reads stale analyses; files of other versions are deleted when a new one is written.
* Layout, little-endian: ``MAGIC``, ``'<QQQ'`` (n, bytes of forms, bytes of lemmas), the key
  (32 bytes), ``lang u1[n]``, ``flags u1[n]``, padding to 8, ``lemma_hash u8[n]``,
  ``word_hash u8[n]``, ``row_key u8[n]`` (xxh64 of the form and its language, the rows sorted
  by it: a reader searches it as it is, and a writer skips rows another process added
  meanwhile without decoding the file's forms), ``form_start u4[n]``, ``form_end u4[n]``,
  ``lemma_start u4[n]``, ``lemma_end u4[n]`` (each row's text in the two blobs that follow),
  padding to 8, the forms (UTF-8, in the order they were added), the lemmas likewise, then the
  xxh64 of all of that. A file that is short, of another key or whose checksum fails is
  ignored (and replaced on the next write).
* Reading: the whole file once per process on the first lookup (mapped, not copied, where
  the system allows it; its checksum verified; arrays by
  ``np.frombuffer``: no text is decoded, searched or sorted before a form is asked for); a
  form is found by its row key among the sorted keys (its bytes compared too), so a process
  pays for the forms it meets, not for every row of the file (no dict of 200 000 strings: a
  cold check starts 0.1-0.15 s sooner, each process holds ~45 MB less); see
  docs/BENCHMARKS.md. A row whose lemma is not UTF-8 (in a file made to pass its checksum)
  is taken for a form not analysed yet, and the next write replaces the file.
* Writing (:func:`flush`, also at process exit and every :data:`FLUSH_EVERY` new forms, or
  half as many as the file held when this process last wrote it, whichever is more: a flush
  rewrites the whole file, so a process meeting many new forms rewrites it a few times, not
  once per 20 000 forms):
  under an exclusive ``flock`` on ``forms.lock`` the file is read again, this process's new
  forms are added to it, the union goes to a temporary file that replaces the old one
  (``os.replace``): concurrent processes (a class checked on both cores) never corrupt it and
  readers never see half a file. Without ``fcntl`` (Windows) the replace is still atomic; a form
  analysed by two processes at once may then be lost and is analysed again later.
* Indexing workers read the file (up to :data:`READ_ONLY_MAX_BYTES`) and never write it
  (:func:`read_only_in_this_process`): the forms a worker analyses for a file go back to the
  process adding the files with its result (:func:`take_new`), which records them
  (:func:`adopt`) and alone writes them, so a collection's forms are in the table once it is
  indexed (workers writing the file themselves rewrote a growing file at every flush), until
  the file is larger than the workers read. Each worker keeps at most
  ``text.TRIMMED_TABLE_FORMS`` raw forms of its own between documents
  (:func:`sverka.core.text.trim_table`): with a filled file, indexing ruslit 7.5-11 ->
  4.6-6.6 s and its peak 330-337 -> 303-324 MB (docs/BENCHMARKS.md).
* After a flush that wrote forms of other processes, this process reads the file again on its
  next lookup (a window that indexed a folder finds its forms when it checks).
* ``SVERKA_FORM_CACHE=0`` turns the table off (every process analyses its own forms).
"""

from __future__ import annotations

import atexit
import codecs
import contextlib
import functools
import mmap
import os
import re
import struct
import sys
import tempfile
import threading
from importlib import resources
from pathlib import Path

import numpy as np
import xxhash

from .engine import i64, native, u32, u64
from .hashing import HASH_SEED
from .versions import CANON_VERSION

__all__ = ["LEMMA_SEPARATOR", "READ_ONLY_MAX_BYTES", "RULES_VERSION", "FormCache", "adopt", "cache_dir", "find_rows",
           "flush", "lookup", "path", "read_only", "read_only_in_this_process", "record", "record_raw", "record_raw_many", "refresh", "reset",
           "row_entries", "snapshot", "table", "take_new"]

#: Bump when what :func:`sverka.core.morph.analyze` computes from the dictionaries changes.
RULES_VERSION = 1
MAGIC = b"SVFORMS3"
FLUSH_EVERY = 20_000
#: ... and at least every this many (~300 bytes each until written).
FLUSH_AT_MOST = 100_000
#: Rows of other processes (:func:`adopt`) kept before a flush (~70 bytes each): a flush
#: rewrites the whole file, and indexing a collection hands over hundreds of thousands of
#: forms (ruslit: 250 000 rows, written once, when the adding ends).
ADOPTED_FLUSH_EVERY = 500_000
#: ... but while files are being added, at least this many, or half as many as the file held
#: when this process last wrote it, are written at once: the workers read the file again when
#: it changes (:func:`refresh`), so a form one worker analysed is not analysed again by the
#: other, nor by itself after it trimmed its table (a collection of novels made of the same
#: stories analysed most of its forms once per novel). Half the file each time: the rewrites
#: add up to about twice the file's final size.
ADOPTED_SHARE_EVERY = 20_000
#: Analyses of normalised forms per language, and whole entries of the canonizer's table per
#: RAW form (the word exactly as in a text) and reading mode: "raw-ru", "raw-uk", "raw-ru-old"
#: (Russian in the spelling before 1918), or "raw-*" for a raw form read the same in every
#: mode. Raw entries keep the canonizer's flags in the low 4 bits and its script in the high
#: 4; words with tampering are not kept raw. "lemmas-ru", "lemmas-uk": every lemma the
#: dictionary allows a normalised form of more than one (:func:`sverka.core.morph.lemmas_of`),
#: joined by :data:`LEMMA_SEPARATOR` in the lemma's place (its hashes: the most likely lemma's
#: and the form's WH), so that a passage's label needs no dictionary in a process that has
#: not loaded one.
_LANGS = ("ru", "uk", "en", "raw-ru", "raw-uk", "raw-*", "raw-ru-old", "lemmas-ru", "lemmas-uk")
#: The kinds of rows whose stop-word lists the version key digests: those of the file's first
#: format (a kind of row added since reads no list, and needs no new file).
_KEYED_LANGS = _LANGS[:7]
LEMMA_SEPARATOR = "\t"
_LANG_CODE = {lang: i for i, lang in enumerate(_LANGS)}
_STOP, _ADJECTIVE = 1, 2
_HEAD = struct.Struct("<QQQ")

#: A read-only process turns its recorded analyses into rows every this many.
_COMPACT_EVERY = 4096


def enabled() -> bool:
    return os.environ.get("SVERKA_FORM_CACHE", "1").strip() not in ("0", "off", "no", "false")


def cache_dir() -> Path:
    """Where the table lives: ``$SVERKA_CACHE_DIR`` or the user's cache directory."""
    env = os.environ.get("SVERKA_CACHE_DIR")
    if env:
        return Path(env)
    import platformdirs

    return Path(platformdirs.user_cache_dir("sverka", appauthor=False))


@contextlib.contextmanager
def replacing(path: Path):
    """The name of a new temporary file beside ``path``, to write inside the block; at its
    end the file replaces ``path`` in one step (``os.replace``: readers, and other processes
    writing the same file, see the old file or the new one, never half of one). When the
    block fails the temporary file is removed and the error goes on."""
    fd, tmp = tempfile.mkstemp(prefix=path.name + "-", suffix=".tmp", dir=path.parent)
    os.close(fd)
    try:
        yield tmp
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def _version(dist: str) -> str:
    """The installed version of ``dist``, as ``importlib.metadata.version`` gives it: read off the
    name of its ``.dist-info`` folder, the first on ``sys.path`` (where importlib.metadata
    looks first); importlib.metadata itself only without one (importing it and its e-mail
    parser took 35 ms of every process that canonizes a word)."""
    found = _dist_info_version(dist)
    if found is not None:
        return found
    from importlib import metadata

    try:
        return metadata.version(dist)
    except metadata.PackageNotFoundError:
        return "-"


def _norm_dist(name: str) -> str:
    return re.sub(r"[-_.]+", "_", name).lower()


def _dist_info_version(dist: str) -> str | None:
    want = _norm_dist(dist)
    for entry in sys.path:
        try:
            names = _listing(entry or ".")
        except OSError:
            continue
        for name in names:
            for suffix in (".dist-info", ".egg-info"):
                if name.endswith(suffix) and "-" in name:
                    project, _, version = name[: -len(suffix)].partition("-")
                    if _norm_dist(project) == want:  # an egg's name holds more than its version
                        return version if suffix == ".dist-info" and version else None
    return None


@functools.lru_cache(maxsize=64)
def _listing(folder: str) -> tuple[str, ...]:
    return tuple(os.listdir(folder)) if os.path.isdir(folder) else ()


def version_key() -> bytes:
    """32 bytes naming every input of an analysis besides the form itself."""
    return _version_key(RULES_VERSION)


@functools.lru_cache(maxsize=4)
def _version_key(rules_version: int) -> bytes:
    parts = [f"rules={rules_version}", f"seed={HASH_SEED}", f"canon={CANON_VERSION}"]
    for dist in ("pymorphy3", "pymorphy3-dicts-ru", "pymorphy3-dicts-uk", "simplemma"):
        parts.append(f"{dist}={_version(dist)}")
    h = xxhash.xxh128()
    for lang in _KEYED_LANGS:
        data = resources.files("sverka.core").joinpath("data", f"stopwords_{lang}.txt")
        try:
            h.update(data.read_bytes())
        except OSError:
            h.update(b"-")
    parts.append(f"stop={h.hexdigest()}")
    return xxhash.xxh128(";".join(parts).encode()).hexdigest().encode()


def path() -> Path:
    return cache_dir() / f"forms-{version_key()[:16].decode()}.bin"


# --------------------------------------------------------------------------- file format


def _read(file: Path, key: bytes, checked: bool = False):
    """(langs, flags, lemma_hash, word_hash, row_key, (form starts, form ends), (lemma starts,
    lemma ends), forms bytes, lemmas bytes) of a file whose checksum holds, else None (the
    bytes as memoryviews of the file's). ``checked``: also the rows' order, bounds and texts
    checked (a writer, before it copies the rows into a new file)."""
    try:
        data = file.read_bytes() if checked else _mapped(file)
    except (OSError, ValueError):  # ValueError: an empty file cannot be mapped
        return None
    fixed = len(MAGIC) + _HEAD.size + len(key)
    if len(data) < fixed + 8 or data[: len(MAGIC)] != MAGIC:
        return None
    body = memoryview(data)[:-8]
    if xxhash.xxh64_intdigest(body) != int.from_bytes(data[-8:], "little"):
        return None
    if isinstance(data, mmap.mmap) and hasattr(mmap, "MADV_DONTNEED"):
        # the checksum read every page: give them back (they stay in the system's file cache),
        # so the process holds only the pages its lookups touch, not the whole table
        data.madvise(mmap.MADV_DONTNEED)
    n, nf, nl = _HEAD.unpack_from(data, len(MAGIC))
    if data[len(MAGIC) + _HEAD.size : fixed] != key:
        return None
    pad = (-2 * n) % 8
    off = fixed
    tail = (-16 * n) % 8
    if fixed + 2 * n + pad + 24 * n + 16 * n + tail + nf + nl != len(body):
        return None
    langs = np.frombuffer(data, np.uint8, n, off)
    flags = np.frombuffer(data, np.uint8, n, off + n)
    off += 2 * n + pad
    lemma_hash = np.frombuffer(data, "<u8", n, off).astype(np.uint64, copy=False)
    word_hash = np.frombuffer(data, "<u8", n, off + 8 * n).astype(np.uint64, copy=False)
    row_key = np.frombuffer(data, "<u8", n, off + 16 * n).astype(np.uint64, copy=False)
    off += 24 * n
    bounds = np.frombuffer(data, "<u4", 4 * n, off).reshape(4, n)
    off += 16 * n + tail
    text = memoryview(data)  # the texts are not copied: a row's bytes are sliced when asked for
    fb, lb = text[off : off + nf], text[off + nf : off + nf + nl]
    fs, fe, ls, le = bounds
    # A reader needs none of the checks below: a file that passed its checksum was written
    # whole by a writer that made them; one made to pass it could only make forms not found
    # (unsorted keys, bad bounds) or a lemma not text, which the reader takes for a form not
    # analysed yet (row_entries, lookup). The writer checks all of it before it copies rows.
    if checked:
        if n and not bool(np.all(row_key[1:] > row_key[:-1])):
            return None
        for blob, starts, ends in ((fb, fs, fe), (lb, ls, le)):
            if n and not (bool(np.all(starts <= ends)) and int(ends.max()) <= len(blob)):
                return None
            if not _is_utf8(blob):
                return None
            b = np.frombuffer(blob, np.uint8)
            cuts = np.concatenate([starts, ends])
            if np.any((b[cuts[cuts < len(b)]] & 0xC0) == 0x80):  # a row starting or ending inside a letter
                return None
    return langs, flags, lemma_hash, word_hash, row_key, (fs, fe), (ls, le), fb, lb


def _mapped(file: Path):
    """The bytes of ``file`` for a reader: mapped read-only where the system allows a mapped file
    to be replaced (POSIX: a writer's ``os.replace`` leaves this mapping on the old file), so a
    process does not copy the whole table (tens of MB on a machine that checked many texts:
    69 MB read took 0.07-0.17 s of every cold check) to look up the forms of one text; read
    whole elsewhere (on Windows a mapped file cannot be replaced: writers would fail)."""
    if os.name != "posix":
        return file.read_bytes()
    with open(file, "rb") as f:
        return mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)


def _is_utf8(blob, chunk: int = 1 << 20) -> bool:
    """Whether ``blob`` is UTF-8 (lone surrogates allowed), decoded a chunk at a time: the
    whole text at once would hold twice the file's size in memory while a flush runs."""
    decoder = codecs.getincrementaldecoder("utf-8")("surrogatepass")
    try:
        for at in range(0, len(blob), chunk):
            decoder.decode(blob[at:at + chunk])
        decoder.decode(b"", final=True)
    except UnicodeDecodeError:
        return False
    return True


def _empty():
    e = np.zeros(0, np.int64)
    return (np.zeros(0, np.uint8),) * 2 + (np.zeros(0, np.uint64),) * 3 + ((e, e), (e, e), b"", b"")


def _key_of(encoded: bytes, code: int) -> int:
    """The key of a row: xxh64 of the form's UTF-8, the kind of row as its seed (the engine's
    ``formfile::Rows::key``, which :meth:`FormCache.find_rows` uses, computes the same)."""
    return xxhash.xxh64_intdigest(encoded, code)


def _bytes(blob) -> np.ndarray:
    """A text blob of the file (a memoryview of its bytes) as the engine reads it, not copied."""
    return np.frombuffer(blob, np.uint8) if len(blob) else np.zeros(0, np.uint8)


def _encode(key: bytes, langs, flags, lemma_hash, word_hash, row_key, forms, lemmas, fb: list, lb: list) -> list:
    """The file's bytes before its checksum, in parts to write one after another (no copy of
    the whole file in memory): rows sorted by ``row_key``; ``forms`` and ``lemmas``: (starts,
    ends) of each row's text in the bytes of ``fb`` and ``lb`` (each a list of parts) taken
    together."""
    n = len(langs)
    nf, nl = sum(map(len, fb)), sum(map(len, lb))
    # arrays, not their bytes: written and digested as they are (a copy of each would add a
    # third of the file to the peak of the process writing it)
    return [
        MAGIC, _HEAD.pack(n, nf, nl), key,
        np.ascontiguousarray(langs, np.uint8), np.ascontiguousarray(flags, np.uint8),
        b"\0" * ((-2 * n) % 8),
        np.ascontiguousarray(lemma_hash, "<u8"), np.ascontiguousarray(word_hash, "<u8"),
        np.ascontiguousarray(row_key, "<u8"),
        *(np.ascontiguousarray(a, "<u4") for a in (*forms, *lemmas)), b"\0" * ((-16 * n) % 8), *fb, *lb,
    ]  # the writer appends xxh64 of all of them, 8 bytes little-endian


_SPILL_HEAD = struct.Struct("<QQQ")  # rows, bytes of forms, bytes of lemmas


def _spill_dir() -> str | None:
    """The cache directory when it can be made (the form table's own disk), else the system's."""
    try:
        folder = cache_dir()
        folder.mkdir(parents=True, exist_ok=True)
        return str(folder)
    except OSError:
        return None


def _in_sorted(sorted_keys: np.ndarray, keys: np.ndarray) -> np.ndarray:
    """Whether each of ``keys`` is among ``sorted_keys`` (searched: numpy's hashed isin took
    most of a flush)."""
    if not len(sorted_keys):
        return np.zeros(len(keys), bool)
    at = np.minimum(np.searchsorted(sorted_keys, keys), len(sorted_keys) - 1)
    return sorted_keys[at] == keys


def _rows_of(items: list) -> tuple:
    """Recorded analyses (``((form, lang), value)`` of :data:`_new`) as rows of the file,
    compact (~70 bytes a row, not a Python object per text): (row keys, lang codes, flags,
    lemma hashes, word hashes, forms as UTF-8 one after another, where each form ends, the
    lemmas likewise)."""
    n = len(items)
    codes = np.fromiter((_LANG_CODE[lang] for (_form, lang), _v in items), np.uint8, n)
    forms = [form.encode("utf-8", "surrogatepass") for (form, _lang), _v in items]
    rk = np.fromiter(map(_key_of, forms, codes.tolist()), np.uint64, n)
    flags = np.fromiter(((stop if adj is None else (_STOP if stop else 0) | (_ADJECTIVE if adj else 0))
                         for _k, (_l, _lh, _wh, stop, adj) in items), np.uint8, n)
    lh = np.fromiter((v[1] for _k, v in items), np.uint64, n)
    wh = np.fromiter((v[2] for _k, v in items), np.uint64, n)
    lemmas = [v[0].encode("utf-8", "surrogatepass") for _k, v in items]
    return (rk, codes, flags, lh, wh, b"".join(forms), np.cumsum(list(map(len, forms)), dtype=np.int64),
            b"".join(lemmas), np.cumsum(list(map(len, lemmas)), dtype=np.int64))


def _take(rows: tuple, at: np.ndarray) -> tuple:
    """The rows ``at`` (rising) of ``rows`` (:func:`_rows_of`), their texts copied out."""
    keep = np.zeros(len(rows[0]), bool)
    keep[at] = True
    return (*(a[at] for a in rows[:5]), *_texts(rows[5], rows[6], keep), *_texts(rows[7], rows[8], keep))


def _texts(blob: bytes, ends: np.ndarray, keep: np.ndarray) -> tuple[bytes, np.ndarray]:
    """The texts of ``blob`` whose rows ``keep`` holds (text k ends at ``ends[k]``, the next
    starts there), one after another, and where each ends now (a byte mask: an index per
    byte would take eight times the texts' size)."""
    sizes = np.diff(ends, prepend=0)
    return np.frombuffer(blob, np.uint8)[np.repeat(keep, sizes)].tobytes(), np.cumsum(sizes[keep])


def _joined(batches: list[tuple]) -> tuple:
    """Several :func:`_rows_of` as one (no copy when only one holds rows)."""
    if len(batches) > 1:
        batches = [b for b in batches if len(b[0])] or batches[:1]
    if len(batches) == 1:
        return batches[0]
    out = [np.concatenate([b[k] for b in batches]) for k in range(5)]
    for k in (5, 7):
        shift = np.cumsum([0] + [len(b[k]) for b in batches[:-1]])
        out += [b"".join(b[k] for b in batches), np.concatenate([b[k + 1] + d for b, d in zip(batches, shift)])]
    return tuple(out)


#: A read-only process (an indexing worker) reads the file only up to this size: each worker
#: holds the file's bytes (ruslit's 281 000 forms: 22 MB), and the table grows with every form
#: a computer ever meets; beyond it the workers analyse their own forms, as before they read it.
READ_ONLY_MAX_BYTES = 64 * 1024 * 1024


def _small_enough(file: Path) -> bool:
    try:
        return file.stat().st_size <= READ_ONLY_MAX_BYTES
    except OSError:
        return False


def _file_stamp(file: Path) -> tuple[int, int, int] | None:
    """What tells one version of the file from another (it is replaced whole, never changed
    in place): inode, size and modification time; None when there is none."""
    try:
        st = file.stat()
    except OSError:
        return None
    return st.st_ino, st.st_size, st.st_mtime_ns


def _text(blob: tuple, row: int) -> str:
    data, starts, ends = blob
    return str(data[starts[row]:ends[row]], "utf-8", "surrogatepass")


class FormCache:
    """The machine-wide table as this process sees it (the module docstring): the file as it
    was read (``_state``), the analyses recorded since the last flush (``_new``), the rows other
    processes handed over (``pending_rows`` of them, spilled to a temporary file), whether this
    process writes the file at all, and the lock that guards all of it. One per process:
    :func:`table`."""

    def __init__(self) -> None:
        self._lock = threading.RLock()
        self._state: dict = {}  # "key", "path", "keys" (sorted row keys), "forms", "lemmas", "lemma_hash", ...
        self._new: dict[tuple[str, str], tuple[str, int, int, bool, bool]] = {}
        self._unflushed = 0
        self._atexit = False
        self._recording = True  # False in indexing workers: they read the table and never write it
        self._adopted = False  # forms of other processes were written: read the file again after a flush
        self._spill_file = None  # a temporary file holding rows of other processes' analyses (adopt)
        self._pending_keys = np.zeros(0, np.uint64)  # theirs, sorted
        self.pending_rows = 0
        self._taken: list[tuple] = []  # analyses as rows (:func:`_rows_of`), until take_new or flush
        self._written = np.zeros(0, np.uint64)  # the sorted keys of the file last written with adopted rows
        self._file_rows = 0  # rows of the file as this process last wrote it

    def reset(self) -> None:
        """Forget what this process loaded and recorded (tests; after changing the directory)."""
        with self._lock:
            self._state.clear()
            self._written = np.zeros(0, np.uint64)
            self._forget_new()

    def _load(self) -> dict:
        state = self._state
        if state:
            return state
        with self._lock:
            if self._state:
                return self._state
            key = version_key()
            file = path()
            seen = _file_stamp(file)  # before reading it: a file replaced meanwhile is read again (refresh)
            found = (_read(file, key) if enabled() and (self._recording or _small_enough(file)) else None) or _empty()
            langs, flags, lemma_hash, word_hash, row_key, form_bounds, lemma_bounds, fb, lb = found
            self._state.update(key=key, path=file, flags=flags, lemma_hash=lemma_hash, word_hash=word_hash,
                          keys=row_key, forms=(fb, *form_bounds), lemmas=(lb, *lemma_bounds), stamp=seen)
            return self._state

    def read_only_in_this_process(self) -> None:
        """Forms are looked up in the file but never written to it: an indexing worker, asked for
        every form of a whole collection (workers writing their new forms rewrote a growing file
        at every flush: +6 s of CPU on ruslit). What it analyses waits for :func:`take_new`. See
        :func:`sverka.core.text.trim_table`."""
        self._recording = False

    def refresh(self) -> None:
        """In a read-only process (an indexing worker), between files: when the file on disk is
        not the one this process read (the process adding the files wrote the forms the workers
        handed over, :data:`ADOPTED_SHARE_EVERY`), the next lookup reads it again. One
        ``stat``; nothing when the file is the same, or not read yet."""
        state = self._state
        if self._recording or not state or _file_stamp(state["path"]) == state.get("stamp"):
            return
        with self._lock:
            if self._state is state:
                self._state = {}  # a new dict: a reader holding the old one finishes with it

    def take_new(self) -> tuple:
        """The analyses this process made since the last call, handed over as rows of the file
        (:func:`_rows_of`) and forgotten here: an indexing worker's, for the process adding the
        files to :func:`adopt` with the file's result."""
        with self._lock:
            rows = _joined([*self._taken, _rows_of(list(self._new.items()))])
            self._taken.clear()
            self._new.clear()
            self._unflushed = 0
            return rows

    def adopt(self, rows: tuple) -> None:
        """Keep rows another process analysed (:func:`take_new` there) for :func:`flush` to write,
        but those the file or this process holds already (two workers meet the same forms)."""
        if not self._recording or not len(rows[0]) or not enabled():
            return
        if self.pending_rows == 0 and path().exists() and not _small_enough(path()):
            return  # the workers no longer read a file this large: growing it saves indexing nothing
        with self._lock:
            rk = rows[0]
            keep = ~_in_sorted(self._pending_keys, rk)
            # the file as this process last wrote or read it (not read for this: the process adding
            # files never looks a form up, and the file's bytes would only take its memory)
            for keys in (self._written, self._state.get("keys", ())):
                keep &= ~_in_sorted(keys, rk)
            at = np.flatnonzero(keep)
            if not len(at):
                return
            try:
                self._spill(_take(rows, at))
            except OSError:  # no room on the disk: the rows are dropped (the table only saves time)
                self._forget_pending()
                return
            merged = np.concatenate([self._pending_keys, np.sort(rk[at])])
            merged.sort(kind="stable")  # two sorted runs: merged in one pass
            self._pending_keys = merged
            self.pending_rows += len(at)
            self._adopted = True
            if not self._atexit:
                atexit.register(self._flush_quietly)
                self._atexit = True
            if self.pending_rows >= min(ADOPTED_FLUSH_EVERY, max(ADOPTED_SHARE_EVERY, self._file_rows // 2)):
                self._flush_quietly()

    def _spill(self, rows: tuple) -> None:
        """Rows kept for the next flush, in a temporary file (unnamed: it goes with the process)
        rather than in memory: the process adding files holds the rows of a whole collection's
        forms otherwise, while its workers are at their largest."""
        if self._spill_file is None:
            self._spill_file = tempfile.TemporaryFile(dir=_spill_dir())
        out = self._spill_file
        rk, codes, flags, lh, wh, forms, form_ends, lemmas, lemma_ends = rows
        out.write(_SPILL_HEAD.pack(len(rk), len(forms), len(lemmas)))
        for a in (np.asarray(rk, "<u8"), codes, flags, np.asarray(lh, "<u8"), np.asarray(wh, "<u8"),
                  np.asarray(form_ends, "<i8"), np.asarray(lemma_ends, "<i8")):
            out.write(a.tobytes())
        out.write(forms)
        out.write(lemmas)

    def _unspilled(self) -> list[tuple]:
        """The rows :func:`_spill` kept (:func:`_rows_of`'s layout), batch by batch."""
        f = self._spill_file
        if f is None:
            return []
        f.flush()
        f.seek(0)
        data = f.read()
        out, at = [], 0
        while at < len(data):
            n, nf, nl = _SPILL_HEAD.unpack_from(data, at)
            at += _SPILL_HEAD.size
            parts = []
            for dtype, kept in (("<u8", np.uint64), ("u1", np.uint8), ("u1", np.uint8), ("<u8", np.uint64),
                                ("<u8", np.uint64), ("<i8", np.int64), ("<i8", np.int64)):
                parts.append(np.frombuffer(data, dtype, n, at).astype(kept, copy=False))
                at += n * np.dtype(dtype).itemsize
            rk, codes, flags, lh, wh, form_ends, lemma_ends = parts
            out.append((rk, codes, flags, lh, wh, data[at:at + nf], form_ends, data[at + nf:at + nf + nl], lemma_ends))
            at += nf + nl
        return out

    def read_only(self) -> bool:
        return not self._recording

    def snapshot(self) -> dict:
        """The file as this process read it, to pass to :func:`find_rows` and :func:`row_entries`
        so that both read the same rows (a flush may have this process read the file again)."""
        return self._state or self._load()

    def find_rows(self, forms: list[str], lang: str, state: dict | None = None) -> np.ndarray:
        """Row of each of ``forms`` in the file's table for ``lang`` (an entry of :data:`_LANGS`),
        -1 where the file has none: its row key searched among the sorted keys, then its text
        compared (two forms sharing a 64-bit key are told apart). ``state``: a :func:`snapshot`."""
        st = state or self._state or self._load()
        keys = st["keys"]
        out = np.full(len(forms), -1, dtype=np.int64)
        if not len(keys) or not forms or lang not in _LANG_CODE:
            return out
        code = _LANG_CODE[lang]
        data, starts, ends = st["forms"]
        # the engine: each form's UTF-8, key, search and comparison, for every form at once
        out = native.form_rows(forms, code, u64(keys), u32(starts), u32(ends), _bytes(data))
        odd = np.flatnonzero(out == -2)  # a lone surrogate: encoded here as the file does
        if not len(odd):
            return out
        forms = [forms[k] for k in odd.tolist()]
        out[odd] = -1
        encoded = [f.encode("utf-8", "surrogatepass") for f in forms]
        wanted = np.fromiter((_key_of(b, code) for b in encoded), np.uint64, len(forms))
        at = np.minimum(np.searchsorted(keys, wanted), len(keys) - 1)
        hit = np.flatnonzero(keys[at] == wanted)
        rows = at[hit]
        for k, row, a, b in zip(hit.tolist(), rows.tolist(), starts[rows].tolist(), ends[rows].tolist()):
            if data[a:b] == encoded[k]:  # as _rows_of encodes it
                out[odd[k]] = row
        return out

    def row_entries(self, rows, state: dict | None = None
                    ) -> tuple[list[str | None], np.ndarray, np.ndarray, np.ndarray]:
        """(lemmas, lemma hashes, word hashes, flags) of the file's ``rows`` (ints; of the
        :func:`snapshot` ``state`` they were found in); a lemma is None where the row's is not
        text (a file made to pass its checksum): that form is to be analysed."""
        st = state or self._state or self._load()
        data, starts, ends = st["lemmas"]
        rows = i64(np.asarray(rows, np.int64))
        lemmas: list[str | None] = native.form_texts(rows, u32(starts), u32(ends), _bytes(data))
        if None in lemmas:  # not UTF-8: a lone surrogate, or damage
            for k in [k for k, lemma in enumerate(lemmas) if lemma is None]:
                try:
                    lemmas[k] = _text(st["lemmas"], int(rows[k]))
                except UnicodeDecodeError:  # only in a file made to pass its checksum: not analysed yet
                    pass
        return lemmas, st["lemma_hash"][rows], st["word_hash"][rows], st["flags"][rows]

    def lookup(self, form: str, lang: str):
        """(lemma, lemma_hash, word_hash, is_stop, is_adjective) of ``form`` in ``lang`` from the
        table, or None when this machine has not analysed it yet."""
        if lang not in _LANG_CODE:
            return None
        st = self._state or self._load()
        keys = st["keys"]
        row = -1
        if len(keys):  # one form: scalar steps (asked once per form never seen by this process)
            encoded = form.encode("utf-8", "surrogatepass")
            key = np.uint64(_key_of(encoded, _LANG_CODE[lang]))
            at = min(int(keys.searchsorted(key)), len(keys) - 1)
            if keys[at] == key:
                row = at
                data, starts, ends = st["forms"]
                if data[starts[row]:ends[row]] != encoded:
                    row = -1
        if row < 0:
            return self._new.get((form, lang))  # after a flush the canonizer's own table has them
        try:
            lemma = _text(st["lemmas"], row)
        except UnicodeDecodeError:  # only in a file made to pass its checksum: not analysed yet
            return self._new.get((form, lang))
        f = int(st["flags"][row])
        return (lemma, int(st["lemma_hash"][row]), int(st["word_hash"][row]), bool(f & _STOP), bool(f & _ADJECTIVE))

    def record(self, form: str, lang: str, lemma: str, lemma_hash: int, word_hash: int,
               is_stop: bool, is_adjective: bool) -> None:
        """Remember a fresh analysis; written to the file by :func:`flush` (at the latest at exit).

        Called once per new word form, so it does not read the environment: :func:`flush` drops
        what was recorded when the table is off (``SVERKA_FORM_CACHE=0``)."""
        if lang not in _LANG_CODE or "\n" in form or "\n" in lemma:
            return
        with self._lock:
            self._new[(form, lang)] = (lemma, lemma_hash, word_hash, is_stop, is_adjective)
            self._count_new()

    def record_raw(self, raw: str, mode: str, lemma: str, lemma_hash: int, word_hash: int, flags: int) -> None:
        """Remember one entry of the canonizer's table (``mode``: "ru", "uk" or "*")."""
        if "\n" in raw or "\n" in lemma:
            return
        with self._lock:
            self._new[(raw, "raw-" + mode)] = (lemma, lemma_hash, word_hash, flags, None)
            self._count_new()

    def record_raw_many(self, raws: list[str], modes: list[str], lemmas: list[str], lemma_hash, word_hash,
                        flags) -> None:
        """:meth:`record_raw` of many entries at once (``modes[k]``: "ru", "uk", "ru-old" or "*"),
        kept as rows of the file at once (one pass per column, not a Python object per entry:
        turning 134 000 recorded entries into rows was a third of a never-seen text's cost)."""
        keep = [k for k, (raw, lemma) in enumerate(zip(raws, lemmas)) if "\n" not in raw and "\n" not in lemma]
        if len(keep) != len(raws):
            raws, modes, lemmas = ([x[k] for k in keep] for x in (raws, modes, lemmas))
            lemma_hash, word_hash, flags = (np.asarray(x)[keep] for x in (lemma_hash, word_hash, flags))
        n = len(raws)
        if not n:
            return
        codes = [_LANG_CODE["raw-" + m] for m in modes]
        forms = [r.encode("utf-8", "surrogatepass") for r in raws]
        texts = [x.encode("utf-8", "surrogatepass") for x in lemmas]
        rows = (np.fromiter(map(_key_of, forms, codes), np.uint64, n), np.array(codes, np.uint8),
                np.asarray(flags, np.uint8), np.asarray(lemma_hash, np.uint64), np.asarray(word_hash, np.uint64),
                b"".join(forms), np.cumsum(np.fromiter(map(len, forms), np.int64, n)),
                b"".join(texts), np.cumsum(np.fromiter(map(len, texts), np.int64, n)))
        with self._lock:
            self._taken.append(rows)
            self._count_new(n)

    def _count_new(self, added: int = 1) -> None:
        if not self._recording:  # a read-only process hands its forms over (take_new), never writes them
            if len(self._new) >= _COMPACT_EVERY:  # kept as rows meanwhile: ~70 bytes each, not ~300
                self._taken.append(_rows_of(list(self._new.items())))
                self._new.clear()
            return
        self._unflushed += added
        if not self._atexit:
            atexit.register(self._flush_quietly)
            self._atexit = True
        if self._unflushed >= max(FLUSH_EVERY, min(self._file_rows // 2, FLUSH_AT_MOST)):
            self._flush_quietly()

    def _flush_quietly(self) -> None:
        try:
            self.flush()
        except OSError:  # a read-only or full disk: the cache is only an optimisation
            pass

    def flush(self) -> int:
        """Merge this process's new analyses, and the rows it adopted from others, into the file;
        returns how many forms it now holds."""
        with self._lock:
            if not (self._new or self._taken or self.pending_rows) or not self._recording:  # a read-only process never writes (take_new)
                return 0
            if not enabled():  # recorded while the table is off: nothing to keep
                self._forget_new()
                return 0
            key = version_key()
            file = path()
            file.parent.mkdir(parents=True, exist_ok=True)
            lockfile = open(file.parent / "forms.lock", "a+b")
            try:
                try:
                    import fcntl

                    fcntl.flock(lockfile.fileno(), fcntl.LOCK_EX)
                except ImportError:  # pragma: no cover - Windows
                    pass
                # This process's rows added to the file's (its texts at the end of the blobs, every
                # row put in its place by key); rows another process added meanwhile are skipped.
                langs0, flags0, lh0, wh0, rk0, (fs0, fe0), (ls0, le0), fb0, lb0 = _read(file, key, checked=True) or _empty()
                rows = _joined([_rows_of(list(self._new.items())), *self._taken, *self._unspilled()])
                rk = rows[0]
                keep = ~_in_sorted(rk0, rk)
                _, first = np.unique(rk, return_index=True)
                once = np.zeros(len(rk), bool)
                once[first] = True
                keep &= once
                at = np.flatnonzero(keep)
                # every row kept (the usual case: adopt kept only rows the file lacked): no copy
                rk, langs, flags, lh, wh, forms, form_ends, lemmas, lemma_ends = \
                    rows if len(at) == len(rk) else _take(rows, at)
                del rows

                def appended(blob, texts: bytes, ends: np.ndarray, starts0, ends0):  # the file's texts, then the new
                    new_ends = len(blob) + ends
                    return ([blob, texts], np.concatenate([starts0, new_ends - np.diff(ends, prepend=0)]),
                            np.concatenate([ends0, new_ends]))

                fb, fs, fe = appended(fb0, forms, form_ends, fs0, fe0)
                lb, ls, le = appended(lb0, lemmas, lemma_ends, ls0, le0)
                if max(sum(map(len, fb)), sum(map(len, lb))) >= 2 ** 32:  # 32-bit offsets: the file stays
                    self._forget_new()
                    return len(langs0)
                row_key = np.concatenate([rk0, rk])
                order = np.argsort(row_key, kind="stable")
                data = _encode(
                    key, np.concatenate([langs0, langs])[order], np.concatenate([flags0, flags])[order],
                    np.concatenate([lh0, lh])[order], np.concatenate([wh0, wh])[order],
                    row_key[order], (fs[order], fe[order]), (ls[order], le[order]), fb, lb)
                total = len(langs0) + len(at)
                with replacing(file) as tmp:
                    with open(tmp, "wb") as out:
                        digest = xxhash.xxh64()
                        for part in data:
                            out.write(part)
                            digest.update(part)
                        out.write(digest.intdigest().to_bytes(8, "little"))
                    del data, fb, lb, fb0, lb0, rk0
                if self.pending_rows:  # the keys this file holds: what an adopting process need not keep
                    self._written = row_key[order]
                for old in file.parent.glob("forms-*.bin"):  # other dictionary versions
                    if old != file:
                        try:
                            old.unlink()
                        except OSError:
                            pass
            finally:
                lockfile.close()
            self._forget_new()
            self._file_rows = total
            if self._adopted:  # forms this process never analysed: its next lookup reads the new file
                self._adopted = False
                self._state = {}  # a new dict: a reader holding the old one finishes with it
            return total

    def _forget_new(self) -> None:
        self._new.clear()
        self._taken.clear()
        self._unflushed = 0
        self._forget_pending()

    def _forget_pending(self) -> None:
        if self._spill_file is not None:
            try:
                self._spill_file.close()  # a temporary file: gone with it
            except OSError:
                pass
        self._spill_file = None
        self._pending_keys = np.zeros(0, np.uint64)
        self.pending_rows = 0


_table = FormCache()


def table() -> FormCache:
    """This process's :class:`FormCache` (the one accessor; the functions below call it)."""
    return _table


def reset() -> None:
    """Forget what this process loaded and recorded (tests; after changing the directory)."""
    _table.reset()


def read_only_in_this_process() -> None:
    """:meth:`FormCache.read_only_in_this_process` of this process's table."""
    _table.read_only_in_this_process()


def read_only() -> bool:
    return _table.read_only()


def refresh() -> None:
    table().refresh()


def take_new() -> tuple:
    """:meth:`FormCache.take_new` of this process's table."""
    return _table.take_new()


def adopt(rows: tuple) -> None:
    """:meth:`FormCache.adopt` of this process's table."""
    _table.adopt(rows)


def snapshot() -> dict:
    """:meth:`FormCache.snapshot` of this process's table."""
    return _table.snapshot()


def find_rows(forms: list[str], lang: str, state: dict | None = None) -> np.ndarray:
    """:meth:`FormCache.find_rows` of this process's table."""
    return _table.find_rows(forms, lang, state)


def row_entries(rows, state: dict | None = None
                ) -> tuple[list[str | None], np.ndarray, np.ndarray, np.ndarray]:
    """:meth:`FormCache.row_entries` of this process's table."""
    return _table.row_entries(rows, state)


def lookup(form: str, lang: str):
    """:meth:`FormCache.lookup` of this process's table."""
    return _table.lookup(form, lang)


def record(form: str, lang: str, lemma: str, lemma_hash: int, word_hash: int,
           is_stop: bool, is_adjective: bool) -> None:
    """:meth:`FormCache.record` of this process's table."""
    _table.record(form, lang, lemma, lemma_hash, word_hash, is_stop, is_adjective)


def record_raw(raw: str, mode: str, lemma: str, lemma_hash: int, word_hash: int, flags: int) -> None:
    """:meth:`FormCache.record_raw` of this process's table."""
    _table.record_raw(raw, mode, lemma, lemma_hash, word_hash, flags)


def record_raw_many(raws: list[str], modes: list[str], lemmas: list[str], lemma_hash, word_hash, flags) -> None:
    """:meth:`FormCache.record_raw_many` of this process's table."""
    _table.record_raw_many(raws, modes, lemmas, lemma_hash, word_hash, flags)


def flush() -> int:
    """:meth:`FormCache.flush` of this process's table."""
    return _table.flush()
