"""Min-hash signatures, super-shingles and mega-shingles (ALGORITHMS.md §3, seeds 001, 003).

Hash functions
--------------
Function ``i`` of ``n`` (seeded by ``seed``) maps a shingle hash ``x`` to::

    h_i(x) = (a_i * x + b_i) mod 2**64

with ``a_i = mix64(seed + (2i+1)·GOLDEN) | 1`` (odd, so h_i is a permutation of the 64-bit
values) and ``b_i = mix64(seed + (2i+2)·GOLDEN)``, all arithmetic modulo 2**64 and ``mix64``
the splitmix64 finalizer of :mod:`sverka.core.shingles`. The inputs are already
well-mixed 64-bit shingle hashes, so these affine permutations order them independently
enough for the estimate (tested: within 0.1 of the exact Jaccard for >= 95 % of pairs).

The signature keeps, for every function, the minimum over the DISTINCT shingle hashes.
The signature of a document with no shingle is all :data:`EMPTY` and matches nothing.

Super- and mega-shingles
------------------------
The signature is split into ``groups`` consecutive groups (6 groups of 14 for 84
functions; ``numpy.array_split`` if ``n`` is not a multiple). Super-shingle ``g`` is
``xxh64(le64(g) + le64(group values...))`` with :data:`~sverka.core.hashing.HASH_SEED`;
mega-shingle of the pair ``(i, j)``, ``i < j`` in lexicographic order (15 pairs for 6
groups), is ``xxh64(le64(i) + le64(j) + le64(super_i) + le64(super_j))``. ``le64`` is
8 bytes little-endian. Group indices are hashed in so that equal values can only match
the same group of another document.

The signature, super- and mega-shingles are computed by the compiled engine
(``engine/core/src/minhash.rs``).
"""

from __future__ import annotations

import numpy as np

from .engine import native, u64
from .hashing import HASH_SEED
from .shingles import unique_counts

__all__ = [
    "EMPTY",
    "MINHASH_SEED",
    "minhash_signature",
    "minhash_resemblance",
    "super_shingles",
    "mega_shingles",
    "shared_count",
    "near_duplicate",
]

#: Value of every position of the signature of a document with no shingle.
EMPTY = np.uint64(0xFFFFFFFFFFFFFFFF)
#: Default seed of the hash functions. Changing it invalidates every stored signature.
MINHASH_SEED = HASH_SEED


def minhash_signature(shingle_hashes: np.ndarray, n: int = 84, seed: int = MINHASH_SEED) -> np.ndarray:
    """``uint64 (n,)``: for each of ``n`` seeded functions, the minimum over the hashes.

    Repeats do not change a minimum, so the hashes need not be distinct.
    """
    return native.minhash_signature(u64(shingle_hashes), n, seed % 2**64)


def _is_empty(sig: np.ndarray) -> bool:
    return bool(np.all(sig == EMPTY))


def minhash_resemblance(sig_a: np.ndarray, sig_b: np.ndarray) -> float:
    """Share of equal positions: the estimate of the Jaccard resemblance; 0.0 if either is empty."""
    sig_a = np.asarray(sig_a, dtype=np.uint64)
    sig_b = np.asarray(sig_b, dtype=np.uint64)
    if sig_a.shape != sig_b.shape:
        raise ValueError(f"signatures of different lengths: {sig_a.shape} and {sig_b.shape}")
    if len(sig_a) == 0 or _is_empty(sig_a) or _is_empty(sig_b):
        return 0.0
    return float(np.count_nonzero(sig_a == sig_b)) / len(sig_a)


def super_shingles(sig: np.ndarray, groups: int = 6) -> np.ndarray:
    """``uint64 (groups,)`` super-shingles of a signature; ``(0,)`` for an empty document."""
    return native.super_shingles(u64(sig), groups)


def mega_shingles(supers: np.ndarray) -> np.ndarray:
    """``uint64 (g(g-1)/2,)``: one hash per pair of super-shingles, pairs in lexicographic order."""
    return native.mega_shingles(u64(supers))


def shared_count(a: np.ndarray, b: np.ndarray) -> int:
    """How many distinct values two hash arrays share."""
    a = unique_counts(a)[0]
    b = unique_counts(b)[0]
    return len(np.intersect1d(a, b, assume_unique=True))


def near_duplicate(
    supers_a: np.ndarray,
    supers_b: np.ndarray,
    megas_a: np.ndarray | None = None,
    megas_b: np.ndarray | None = None,
    *,
    min_shared_supers: int = 2,
) -> bool:
    """Seed 003: near-duplicates share >= 2 super-shingles, or >= 1 mega-shingle.

    The mega-shingles are derived from the super-shingles when not given. (Sharing a
    mega-shingle means sharing one pair of super-shingles, so the two rules agree for
    the default threshold; the mega rule is what an index can test with one lookup.)
    """
    if shared_count(supers_a, supers_b) >= min_shared_supers:
        return True
    megas_a = mega_shingles(supers_a) if megas_a is None else megas_a
    megas_b = mega_shingles(supers_b) if megas_b is None else megas_b
    return shared_count(megas_a, megas_b) >= 1
