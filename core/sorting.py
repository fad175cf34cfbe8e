"""Sorting arrays of hashes and positions fast, with numpy's own results.

numpy's stable sort (``kind="stable"``) is a merge sort; its default sort is an introsort that
numpy 2 runs with SIMD instructions where the processor has them: on 100 000 random 64-bit
hashes the default argsort takes about a fifth of the stable one's time. Matching needs the
stable order in many places (equal hashes in text order), and that order is unique, so it can
be had from the fast sort (:func:`stable_argsort`): one sort of the values with each one's
position packed into the lowest bits (positions and ids fit whole; a hash gives up its lowest
bits, and the rare array holding two hashes that differ only there is sorted the other way:
:func:`_packed_argsort`), or else a sort of the values, then each run of equal values put
back in the order of their positions.
"""

from __future__ import annotations

import numpy as np

__all__ = ["checked_order", "common", "distinct", "lexsort", "stable_argsort"]

#: Below this many values numpy's stable sort is as fast (the extra steps cost more).
SMALL = 4096
#: The same for :func:`lexsort` (packing pays from a few hundred rows: 1 000 rows of two
#: keys 61 -> 31 us, 100 rows 2.8 -> 17 us).
SMALL_LEX = 256


def stable_argsort(x: np.ndarray) -> np.ndarray:
    """``np.argsort(x, kind="stable")``, the same array (int64), faster on large inputs: equal
    values keep their order of position."""
    x = np.asarray(x)
    n = len(x)
    if n < SMALL or x.ndim != 1 or x.dtype.kind not in "iub":
        return np.argsort(x, kind="stable")
    if not (x[1:] < x[:-1]).any():  # sorted already (positions, ids in text order)
        return np.arange(n, dtype=np.int64)
    order = _packed_argsort(x)
    if order is not None:
        return order
    order = np.argsort(x)  # equal values in any order
    xs = x[order]
    new = np.empty(n, dtype=bool)
    new[0] = True
    np.not_equal(xs[1:], xs[:-1], out=new[1:])
    if new.all():  # no two equal: the order is already the stable one
        return order
    # Each position with the number of its run of equal values: (run, position) sorted as one
    # int64 puts the runs in order and each run in order of position (run, position < n, and
    # n * n < 2**63 for any array that fits in memory).
    key = (np.cumsum(new) - 1) * n + order
    key.sort()
    return key % n


_SIGN = np.uint64(1 << 63)


def _packed_argsort(x: np.ndarray) -> np.ndarray | None:
    """The stable order of the integers ``x`` by ONE sort of unique keys: each value above
    its position (``b`` low bits, ``2**b >= len(x)``). Values spanning fewer than ``64 - b``
    bits (positions, ids, packed keys) go in whole, less the least of them: exact. Wider ones
    (hashes) keep their high bits only; two that differ only in the low ``b`` bits would be
    mixed by position, so when two neighbours of the sorted keys have the same high bits and
    different values, None (the caller sorts otherwise). Keys order as their values do, and
    equal values by position: numpy's stable order exactly."""
    n = len(x)
    b = max(1, (n - 1).bit_length())
    bits = np.uint64(b)
    lo, hi = int(x.min()), int(x.max())
    exact = (hi - lo) >> (64 - b) == 0
    if x.dtype == np.uint64:
        key = x - np.uint64(lo) if exact else x >> bits
    elif exact:  # hi - lo < 2**63: no overflow
        key = (x.astype(np.int64) - lo).view(np.uint64)
    else:  # order-preserving as unsigned: the sign bit flipped
        key = (x.astype(np.int64).view(np.uint64) ^ _SIGN) >> bits
    key <<= bits
    key |= np.arange(n, dtype=np.uint64)
    key.sort()  # unique keys: any sort is stable
    order = (key & ((np.uint64(1) << bits) - np.uint64(1))).view(np.int64)
    if exact:
        return order
    key >>= bits  # the high bits, in sorted order
    xs = x[order]
    # a run of equal high bits holding two values has two different ones side by side
    if ((key[1:] == key[:-1]) & (xs[1:] != xs[:-1])).any():
        return None
    return order


def checked_order(x: np.ndarray, order) -> tuple[np.ndarray, np.ndarray] | None:
    """``(order, x[order])``, ``order`` as int64, when it is ``stable_argsort(x)`` (an order read
    from storage, made when the document was added), else None. One pass: every index in range,
    ``x[order]`` rising, and equal values in rising positions, which also makes it a
    permutation (an index holds its value, so it could only repeat inside that value's run,
    where positions rise strictly)."""
    x = np.asarray(x)
    n = len(x)
    if order is None or len(order) != n:
        return None
    order = np.asarray(order).astype(np.int64, copy=False)
    if n == 0:
        return order, x[:0]
    if int(order.min()) < 0 or int(order.max()) >= n:
        return None
    xs = x[order]
    if ((xs[1:] < xs[:-1]) | ((xs[1:] == xs[:-1]) & (order[1:] <= order[:-1]))).any():
        return None
    return order, xs


def distinct(x) -> np.ndarray:
    """``np.unique(x)`` of integers (the sorted distinct values, flattened), without the
    question ``np.unique`` asks first (is ``x`` a masked array?), which imports ``numpy.ma``:
    ~10 ms of every process's first check."""
    s = np.sort(np.asarray(x).ravel())
    if len(s) < 2:
        return s
    keep = np.empty(len(s), dtype=bool)
    keep[0] = True
    np.not_equal(s[1:], s[:-1], out=keep[1:])
    return s[keep]


def common(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(indices in ``a``, indices in ``b``) of the values two sorted distinct arrays share, by
    searching one in the other (``np.intersect1d`` sorts both again: a source's array is a
    novel's, and that sort cost more than the rest of scoring it)."""
    if len(a) == 0 or len(b) == 0:
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    at = np.minimum(np.searchsorted(b, a), len(b) - 1)
    hit = np.flatnonzero(b[at] == a)
    return hit, at[hit]


def lexsort(keys) -> np.ndarray:
    """``np.lexsort(keys)`` (the last key sorts first), the same array. Neighbouring keys
    whose ranges multiply to less than 2**63 are packed into one int64 (key minus its least
    value, times the ranges of the keys before it), and each packed key is one stable sort
    (:func:`stable_argsort`), from the least significant to the most (numpy's passes are one
    merge sort per key)."""
    keys = [np.asarray(k) for k in keys]
    if not keys or len(keys[0]) < SMALL_LEX or any(k.ndim != 1 or k.dtype.kind not in "iu" for k in keys):
        return np.lexsort(keys)
    groups: list[np.ndarray] = []  # least significant first
    packed, span = None, 1
    for k in keys:
        lo, hi = int(k.min()), int(k.max())
        size = hi - lo + 1
        if size >= 2**63:  # a full-width hash: a pass of its own
            if packed is not None:
                groups.append(packed)
            groups.append(k)
            packed, span = None, 1
            continue
        part = k.astype(np.int64) - lo if lo >= -(2**63) and hi < 2**63 else (k - np.uint64(lo)).astype(np.int64)
        if packed is not None and span * size < 2**63:
            packed = packed + part * span
            span *= size
        else:
            if packed is not None:
                groups.append(packed)
            packed, span = part, size
    if packed is not None:
        groups.append(packed)
    order = stable_argsort(groups[0])
    for g in groups[1:]:
        order = order[stable_argsort(g[order])]
    return order
