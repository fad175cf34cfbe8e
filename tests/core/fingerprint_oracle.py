"""The NumPy implementations of the fingerprints that the compiled engine replaced.

They left the product (``sverka.core.shingles``, ``minhash``, ``sentences`` and ``shortdoc``
now call ``sverka._engine``) and stay here as they were, less the argument checks, as the oracle of the differential
tests (tests/core/test_engine_fingerprints.py): the engine must give identical arrays.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

from sverka.core.hashing import hash_bytes

U64 = np.uint64
GOLDEN = 0x9E3779B97F4A7C15
EMPTY = np.uint64(0xFFFFFFFFFFFFFFFF)
_M1 = U64(0xBF58476D1CE4E5B9)
_M2 = U64(0x94D049BB133111EB)
_S30, _S27, _S31 = U64(30), U64(27), U64(31)


def mix64(x: np.ndarray) -> np.ndarray:
    z = np.array(x, dtype=np.uint64, copy=True)
    _mix64_inplace(z)
    return z


def _mix64_inplace(z: np.ndarray) -> None:
    tmp = np.empty_like(z)
    np.right_shift(z, _S30, out=tmp)
    z ^= tmp
    z *= _M1
    np.right_shift(z, _S27, out=tmp)
    z ^= tmp
    z *= _M2
    np.right_shift(z, _S31, out=tmp)
    z ^= tmp


def shingle_hashes(token_hashes: np.ndarray, w: int, step: int = 1) -> np.ndarray:
    t = np.ascontiguousarray(token_hashes, dtype=np.uint64)
    count = 0 if len(t) < w else (len(t) - w) // step + 1
    if count == 0:
        return np.empty(0, dtype=np.uint64)
    span = (count - 1) * step + 1
    acc = t[0:span:step] ^ U64((w * GOLDEN) % 2**64)
    _mix64_inplace(acc)
    for j in range(1, w):
        acc ^= t[j : j + span : step]
        _mix64_inplace(acc)
    return acc


def winnow(hashes: np.ndarray, k: int) -> np.ndarray:
    h = np.asarray(hashes, dtype=np.uint64)
    n = len(h)
    if n == 0:
        return np.empty(0, dtype=np.int64)
    if k == 1:
        return np.arange(n, dtype=np.int64)
    k = min(k, n)
    win = sliding_window_view(h, k)
    right = (k - 1) - np.argmin(win[:, ::-1], axis=1)
    sel = np.arange(len(win), dtype=np.int64) + right
    mins = h[sel]
    tied = np.flatnonzero((win == mins[:, None]).sum(axis=1) > 1)
    for i in tied.tolist():
        prev = sel[i - 1] if i > 0 else -1
        if prev >= i and h[prev] == mins[i]:
            sel[i] = prev
    keep = np.ones(len(sel), dtype=bool)
    keep[1:] = sel[1:] != sel[:-1]
    return sel[keep]


def anchors(token_hashes: np.ndarray, modulus: int) -> np.ndarray:
    mixed = mix64(np.asarray(token_hashes, dtype=np.uint64))
    return np.flatnonzero(mixed % U64(modulus) == 0).astype(np.int64)


def anchor_shingles(token_hashes: np.ndarray, w: int, modulus: int) -> tuple[np.ndarray, np.ndarray]:
    t = np.asarray(token_hashes, dtype=np.uint64)
    pos = anchors(t, modulus)
    pos = pos[pos + w <= len(t)]
    if len(pos) == 0:
        return pos, np.empty(0, dtype=np.uint64)
    acc = t[pos] ^ U64((w * GOLDEN) % 2**64)
    _mix64_inplace(acc)
    for j in range(1, w):
        acc ^= t[pos + j]
        _mix64_inplace(acc)
    return pos, acc


@lru_cache(maxsize=8)
def _coefficients(n: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    i = np.arange(n, dtype=np.uint64)
    g = np.uint64(GOLDEN)
    base = np.uint64(seed % 2**64)
    a = mix64(base + (2 * i + 1) * g) | np.uint64(1)
    b = mix64(base + (2 * i + 2) * g)
    return a[:, None], b[:, None]


def minhash_signature(shingle_hashes: np.ndarray, n: int, seed: int) -> np.ndarray:
    x = np.ascontiguousarray(shingle_hashes, dtype=np.uint64)
    sig = np.full(n, EMPTY, dtype=np.uint64)
    if len(x) == 0:
        return sig
    a, b = _coefficients(n, seed)
    buf = np.empty((n, min(4096, len(x))), dtype=np.uint64)
    for start in range(0, len(x), 4096):
        block = x[start : start + 4096]
        out = buf[:, : len(block)]
        np.multiply(a, block[None, :], out=out)
        out += b
        np.minimum(sig, out.min(axis=1), out=sig)
    return sig


def super_shingles(sig: np.ndarray, groups: int) -> np.ndarray:
    sig = np.asarray(sig, dtype=np.uint64)
    if np.all(sig == EMPTY):
        return np.empty(0, dtype=np.uint64)
    parts = np.array_split(sig.astype("<u8"), groups)
    return np.array(
        [hash_bytes(np.uint64(g).astype("<u8").tobytes() + part.tobytes()) for g, part in enumerate(parts)],
        dtype=np.uint64,
    )


def mega_shingles(supers: np.ndarray) -> np.ndarray:
    from itertools import combinations

    le = np.asarray(supers, dtype=np.uint64).astype("<u8")
    out = [
        hash_bytes(np.array([i, j], dtype="<u8").tobytes() + le[i].tobytes() + le[j].tobytes())
        for i, j in combinations(range(len(le)), 2)
    ]
    return np.array(out, dtype=np.uint64)


def sentence_hashes(word_hashes: np.ndarray, sentence_ids: np.ndarray, n_sentences: int):
    wh = np.asarray(word_hashes, dtype=np.uint64)
    ids = np.asarray(sentence_ids, dtype=np.int64)
    if len(ids) == 0:
        return np.empty(0, dtype=np.uint64), np.empty(0, dtype=np.int64)
    if np.any(ids[1:] < ids[:-1]):
        order = np.argsort(ids, kind="stable")
        ids, wh = ids[order], wh[order]
    first = np.flatnonzero(np.r_[True, ids[1:] != ids[:-1]])
    seq1 = np.add.reduceat(wh, first).astype(np.uint64)
    return seq1, ids[first]


def seq2(seq1: np.ndarray) -> np.ndarray:
    s = np.asarray(seq1, dtype=np.uint64)
    out = s.copy()
    out[:-1] += s[1:]
    return out


#: Every code point for which ``str.isspace`` is true.
WHITE_SPACE = (
    [*range(0x09, 0x0E), *range(0x1C, 0x21), 0x85, 0xA0, 0x1680, *range(0x2000, 0x200B)]
    + [0x2028, 0x2029, 0x202F, 0x205F, 0x3000]
)
_SPACE_TABLE = np.zeros(0x3002, dtype=bool)
_SPACE_TABLE[WHITE_SPACE] = True


def full_text_hash(text: str) -> int:
    codes = np.frombuffer(text.encode("utf-32-le", "surrogatepass"), dtype="<u4")
    space = _SPACE_TABLE[np.minimum(codes, len(_SPACE_TABLE) - 1)]
    keep = ~space
    keep[1:] |= space[1:] & ~space[:-1]
    out = codes[keep]
    out[space[keep]] = 0x20
    lo = 1 if len(out) and out[0] == 0x20 else 0
    hi = len(out) - 1 if len(out) > lo and out[-1] == 0x20 else len(out)
    return hash_bytes(out[lo:hi].astype("<u4").tobytes())
