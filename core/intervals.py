"""Interval arithmetic over half-open ``[start, end)`` ranges of integers (characters or tokens).

The one place Sverka unites, subtracts and intersects ranges: a passage's pieces, quotations,
bibliography, templates, the regions a share counts. "Sorted and disjoint" is what
:func:`merge` returns; the other operations take it so.
"""

from __future__ import annotations

import bisect
from typing import Iterable, Sequence

__all__ = ["Interval", "inside", "intersect", "merge", "subtract", "total"]

Interval = tuple[int, int]


def merge(intervals: Iterable[Interval]) -> list[Interval]:
    """Sorted, disjoint, non-empty union of the intervals (touching ones joined)."""
    out: list[list[int]] = []
    for s, e in sorted(iv for iv in intervals if iv[1] > iv[0]):
        if out and s <= out[-1][1]:
            if e > out[-1][1]:
                out[-1][1] = e
        else:
            out.append([s, e])
    return [(s, e) for s, e in out]


def subtract(a: Sequence[Interval], b: Sequence[Interval]) -> list[Interval]:
    """``a`` minus ``b``; both sorted and disjoint (as :func:`merge` returns them)."""
    out: list[Interval] = []
    k = 0
    for s, e in a:
        while k < len(b) and b[k][1] <= s:
            k += 1
        pos = s
        m = k
        while m < len(b) and b[m][0] < e:
            if b[m][0] > pos:
                out.append((pos, b[m][0]))
            pos = max(pos, b[m][1])
            m += 1
        if pos < e:
            out.append((pos, e))
    return out


def intersect(a: Sequence[Interval], b: Sequence[Interval]) -> list[Interval]:
    """``a`` and ``b``; both sorted and disjoint."""
    return subtract(a, subtract(a, b))


def total(intervals: Iterable[Interval]) -> int:
    """The length of the intervals, summed (of their union when they are disjoint)."""
    return sum(e - s for s, e in intervals)


def inside(s: int, e: int, regions: Sequence[Interval]) -> int:
    """How much of [s, e) lies in the sorted disjoint ``regions``: a binary search for the first
    region ending after ``s``, then only the regions that overlap (called once per quotation
    and passage, so a scan from the first region would be quadratic)."""
    if not regions or e <= s:
        return 0
    k = bisect.bisect_right(regions, s, key=_end_of)
    n = 0
    while k < len(regions) and regions[k][0] < e:
        a, b = regions[k]
        n += min(b, e) - max(a, s)
        k += 1
    return n


def _end_of(interval: Interval) -> int:
    return interval[1]
