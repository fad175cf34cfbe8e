"""Shingles, their hashes, the set measures and sampling (ALGORITHMS.md §2).

Every function is pure and works on numpy arrays; nothing loops in Python over tokens. The
shingle hashes, winnowing and anchors are computed by the compiled engine
(``engine/core/src/shingles.rs``); the set measures by numpy.

Shingle hash (stable, 64-bit, order-sensitive)
----------------------------------------------
For the per-token hashes ``t`` (``uint64``, xxh64 of each lemma, see
:mod:`sverka.core.hashing`) the shingle of ``w`` tokens starting at token ``s`` is::

    acc = mix64(t[s] ^ (w * GOLDEN))            # all arithmetic modulo 2**64
    for j in 1 .. w-1:
        acc = mix64(acc ^ t[s + j])
    shingle_hash = acc

``mix64`` is the splitmix64 finalizer (Stafford's Mix13, a bijection on 64 bits)::

    z ^= z >> 30; z *= 0xBF58476D1CE4E5B9
    z ^= z >> 27; z *= 0x94D049BB133111EB
    z ^= z >> 31

and ``GOLDEN = 0x9E3779B97F4A7C15``. The chain is order-sensitive, mixes every token
through a full avalanche, and includes ``w`` so shingles of different lengths never share
a hash by construction. Collisions behave like those of a random 64-bit function. Arrays
of hashes are ``uint64``; written to disk they are little-endian (``'<u8'``).
"""

from __future__ import annotations

import numpy as np

from .engine import native, u64

__all__ = [
    "GOLDEN",
    "unique_counts",
    "mix64",
    "shingle_count",
    "shingle_hashes",
    "shingle_starts",
    "shingle_token_range",
    "resemblance",
    "dice",
    "containment",
    "manber_sample",
    "winnow",
    "anchors",
    "anchor_shingles",
]

U64 = np.uint64
GOLDEN = 0x9E3779B97F4A7C15


def mix64(x: np.ndarray) -> np.ndarray:
    """splitmix64 finalizer of a ``uint64`` array (a new array; the input is untouched)."""
    return native.mix64(u64(x))


def _check_w_step(w: int, step: int) -> None:
    if w < 1:
        raise ValueError(f"shingle length must be >= 1, got {w}")
    if step < 1:
        raise ValueError(f"shingle step must be >= 1, got {step}")


def shingle_count(n_tokens: int, w: int, step: int = 1) -> int:
    """How many shingles ``n_tokens`` tokens give: ``(n - w) // step + 1``, or 0 if ``n < w``."""
    _check_w_step(w, step)
    return 0 if n_tokens < w else (n_tokens - w) // step + 1


def shingle_token_range(i: int, w: int, step: int = 1) -> tuple[int, int]:
    """Tokens ``[first, last_exclusive)`` covered by shingle ``i``: ``(i*step, i*step + w)``."""
    _check_w_step(w, step)
    return i * step, i * step + w


def shingle_starts(n_tokens: int, w: int, step: int = 1) -> np.ndarray:
    """``int64`` index of the first token of every shingle (``i * step``)."""
    return np.arange(shingle_count(n_tokens, w, step), dtype=np.int64) * step


def shingle_hashes(token_hashes: np.ndarray, w: int, step: int = 1) -> np.ndarray:
    """``uint64`` hash of every w-shingle; shingle ``i`` covers tokens ``[i*step, i*step + w)``.

    ``step=1``: overlapping ("внахлест", n - w + 1 shingles); ``step=w``: adjacent ("встык",
    n // w shingles); any other step: a chosen overlap of ``w - step`` tokens. Empty if
    fewer than ``w`` tokens. The formula is in the module docstring.
    """
    return native.shingle_hashes(u64(token_hashes), w, step)


# -- measures -------------------------------------------------------------------------


def unique_counts(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(sorted distinct uint64 values, int64 counts)``, by one sort (``np.unique`` of
    numpy 2.x is several times slower on ``uint64``)."""
    s = np.sort(np.asarray(x, dtype=np.uint64))
    if len(s) == 0:
        return s, np.empty(0, dtype=np.int64)
    first = np.flatnonzero(np.concatenate(([True], s[1:] != s[:-1])))
    return s[first], np.diff(np.append(first, len(s))).astype(np.int64)


def _intersection_union(a, b, multiset: bool) -> tuple[int, int, int, int]:
    """(|A∩B|, |A∪B|, |A|, |B|) of sets, or of multisets (min/max of counts) if asked."""
    va, ca = unique_counts(a)
    vb, cb = unique_counts(b)
    _, ia, ib = np.intersect1d(va, vb, assume_unique=True, return_indices=True)
    if multiset:
        size_a, size_b = int(ca.sum()), int(cb.sum())
        inter = int(np.minimum(ca[ia], cb[ib]).sum())
        union = size_a + size_b - inter  # Σ max = Σ a + Σ b - Σ min
    else:
        size_a, size_b = len(va), len(vb)
        inter = len(ia)
        union = size_a + size_b - inter
    return inter, union, size_a, size_b


def resemblance(a: np.ndarray, b: np.ndarray, *, multiset: bool = False) -> float:
    """Jaccard |A∩B| / |A∪B| of the shingle hashes (seed 003); 0.0 if both are empty."""
    inter, union, _, _ = _intersection_union(a, b, multiset)
    return inter / union if union else 0.0


def dice(a: np.ndarray, b: np.ndarray, *, multiset: bool = False) -> float:
    """Dice 2|A∩B| / (|A| + |B|) (seed 004); 0.0 if both are empty."""
    inter, _, size_a, size_b = _intersection_union(a, b, multiset)
    total = size_a + size_b
    return 2 * inter / total if total else 0.0


def containment(a: np.ndarray, b: np.ndarray, *, multiset: bool = False) -> float:
    """Containment of A in B, |A∩B| / |A|: how much of A is found in B; 0.0 if A is empty."""
    inter, _, size_a, _ = _intersection_union(a, b, multiset)
    return inter / size_a if size_a else 0.0


# -- sampling -------------------------------------------------------------------------


def manber_sample(hashes: np.ndarray, m: int) -> np.ndarray:
    """``int64`` positions of the hashes whose last ``m`` bits are zero (Manber 1994).

    Keeps about ``1 / 2**m`` of the hashes, chosen by content, so two documents keep the
    same hashes for the text they share (but with no guarantee for any run length).
    """
    if not 0 <= m <= 63:
        raise ValueError(f"m must be in 0..63, got {m}")
    h = np.asarray(hashes, dtype=np.uint64)
    mask = U64((1 << m) - 1)
    return np.flatnonzero((h & mask) == 0).astype(np.int64)


def winnow(hashes: np.ndarray, k: int) -> np.ndarray:
    """Robust winnowing (Schleimer, Wilkerson, Aiken 2003): ``int64`` selected positions.

    In every window of ``k`` consecutive hashes the minimum is selected; on ties the
    position selected for the previous window is kept if it is still in the window,
    otherwise the rightmost minimum is taken. Each selected position appears once, in
    increasing order. With fewer than ``k`` hashes (but at least one) the whole input is
    one window.

    Guarantee: for w-shingles, any run of at least ``w + k - 1`` tokens shared by two
    documents gives ``k`` identical consecutive shingle hashes in both, hence one identical
    window, hence a shared selected hash value (the minimum of that window). Density for
    random hashes is about ``2 / (k + 1)``.
    """
    return native.winnow(u64(hashes), k)


def anchors(token_hashes: np.ndarray, modulus: int) -> np.ndarray:
    """``int64`` positions of content-defined anchor tokens: ``mix64(hash) % modulus == 0``.

    Seed 001 ("Спамооборона"): shingle boundaries placed where the text itself says, so
    an insertion moves only the anchors next to it. The token hash is re-mixed so the
    choice does not depend on the low bits of xxh64 alone. About ``1 / modulus`` of the
    tokens are anchors.
    """
    return native.anchors(u64(token_hashes), modulus)


def anchor_shingles(token_hashes: np.ndarray, w: int, modulus: int) -> tuple[np.ndarray, np.ndarray]:
    """``(positions int64, hashes uint64)`` of the w-shingles that start at an anchor token.

    The hashes equal those of :func:`shingle_hashes` for the same tokens (a subset of them).
    Anchors closer than ``w`` tokens to the end start no shingle.
    """
    return native.anchor_shingles(u64(token_hashes), w, modulus)
