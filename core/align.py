"""Alignment: the passages two texts share, as character spans in BOTH texts.

Pure functions over :class:`~sverka.core.text.Tokens` (ALGORITHMS.md §2, §5; ISSUE 4 item 2).

The pipeline for one pair (suspect ``a`` × source ``b``):

1. **Seeds.** Every overlapping shingle of ``seed_words`` canonical tokens of each text is
   hashed on the fly; the two hash arrays are joined with a numpy sort + ``searchsorted``.
   A hash occurring more than ``max_seed_repeats`` times on either side (a refrain, a
   formula) is dropped: it would only multiply seeds.
2. **Runs.** Seeds on the same diagonal (``j - i``) at consecutive positions form an
   unbroken run of equal tokens: a *segment* ``[a0, a1) ~ [b0, b1)``.
3. **Sentences.** Sentences of at least ``min_sentence_words`` tokens whose sentence hash
   (sum of WH, ALGORITHMS.md §5: word order and word form do not matter) is equal in both
   texts become segments too, where shingles did not already cover them.
4. **Chaining.** Segments sorted by their suspect start are chained when the next one
   begins at most ``max_gap`` tokens after the chain ends in BOTH texts (WCopyFind's
   "imperfections": changed, inserted or deleted words are bridged).
5. **One source region per suspect region.** Chains are taken best (most matched tokens)
   first; a later chain loses the suspect tokens already taken, so passages never overlap
   on the suspect side.
6. **Spans.** A passage spans from the first character of its first token to the last
   character of its last token, in both texts, then grows over identical neighbouring
   words the canonizer dropped (stop words), so highlights start and end where the copy does.

Token positions are indices into the canonical token arrays; character offsets are
``str`` indices into ``Tokens.text``.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass

import numpy as np

from .results import Passage
from .text import Tokens

__all__ = [
    "Segment",
    "align",
    "join_equal",
    "pair_shingles",
    "runs",
    "sentence_hashes_of",
]

_MULT = np.uint64(0x9E3779B97F4A7C15)
_EMPTY_I = np.zeros(0, dtype=np.int64)


def pair_shingles(hashes: np.ndarray, w: int) -> np.ndarray:
    """Hashes (uint64) of all ``n - w + 1`` overlapping ``w``-token shingles of ``hashes``.

    Used only inside one comparison, never stored: any fixed mixing will do.
    """
    h = np.asarray(hashes, dtype=np.uint64)
    n = len(h) - w + 1
    if n <= 0:
        return np.zeros(0, dtype=np.uint64)
    out = h[:n].copy()
    for k in range(1, w):
        out *= _MULT
        out ^= out >> np.uint64(29)
        out += h[k : k + n]
    return out


def join_equal(x: np.ndarray, y: np.ndarray, max_repeats: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """All pairs ``(i, j)`` with ``x[i] == y[j]``, sorted by ``i`` then ``j``.

    Values occurring more than ``max_repeats`` times in ``x`` or in ``y`` are skipped
    (``0`` = no limit).
    """
    if len(x) == 0 or len(y) == 0:
        return _EMPTY_I, _EMPTY_I
    if len(y) > len(x):  # sort the smaller side
        j, i = join_equal(y, x, max_repeats)
        order = np.lexsort((j, i))
        return i[order], j[order]
    order = np.argsort(y, kind="stable")
    ys = y[order]
    lo = np.searchsorted(ys, x, "left")
    hi = np.searchsorted(ys, x, "right")
    cnt = hi - lo
    ok = cnt > 0
    if max_repeats:
        ok &= cnt <= max_repeats
        if ok.any():
            xs = np.sort(x)
            cx = np.searchsorted(xs, x, "right") - np.searchsorted(xs, x, "left")
            ok &= cx <= max_repeats
    ia = np.flatnonzero(ok)
    if len(ia) == 0:
        return _EMPTY_I, _EMPTY_I
    c = cnt[ia]
    total = int(c.sum())
    i = np.repeat(ia, c)
    first = np.repeat(np.cumsum(c) - c, c)
    j = order[np.repeat(lo[ia], c) + (np.arange(total) - first)]
    return i.astype(np.int64), j.astype(np.int64)


@dataclass
class Segment:
    """Matched tokens ``a[a0:a1]`` ~ ``b[b0:b1]``; ``sentence`` if found by sentence hashes."""

    a0: int
    a1: int
    b0: int
    b1: int
    sentence: bool = False


def runs(i: np.ndarray, j: np.ndarray, w: int) -> np.ndarray:
    """Group seeds ``(i, j)`` of ``w``-token shingles into unbroken diagonal runs.

    Returns an int64 array (k, 4) of ``[a0, a1, b0, b1)`` token ranges, sorted by ``a0``.
    Seeds on one diagonal whose shingles touch or overlap (a gap shorter than ``w``, which
    only a dropped frequent shingle leaves) belong to one run.
    """
    if len(i) == 0:
        return np.zeros((0, 4), dtype=np.int64)
    d = j - i
    order = np.lexsort((i, d))
    i, d = i[order], d[order]
    brk = np.ones(len(i), dtype=bool)
    brk[1:] = (d[1:] != d[:-1]) | (i[1:] - i[:-1] > w)
    starts = np.flatnonzero(brk)
    ends = np.r_[starts[1:], len(i)] - 1
    a0 = i[starts]
    a1 = i[ends] + w
    dd = d[starts]
    seg = np.stack([a0, a1, a0 + dd, a1 + dd], axis=1)
    return seg[np.lexsort((-seg[:, 1], seg[:, 0]))]


def sentence_hashes_of(tokens: Tokens, min_words: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per sentence with at least ``min_words`` tokens: (SH, first token, one past last token).

    SH is the sum modulo 2**64 of the tokens' WH (ALGORITHMS.md §5).
    """
    sid = np.asarray(tokens.sentence_ids)
    if len(sid) == 0:
        return np.zeros(0, np.uint64), _EMPTY_I, _EMPTY_I
    brk = np.ones(len(sid), dtype=bool)
    brk[1:] = sid[1:] != sid[:-1]
    first = np.flatnonzero(brk)
    last = np.r_[first[1:], len(sid)]
    sums = np.add.reduceat(np.asarray(tokens.word_hashes, dtype=np.uint64), first)
    keep = (last - first) >= min_words
    return sums[keep], first[keep].astype(np.int64), last[keep].astype(np.int64)


def _sentence_segments(a: Tokens, b: Tokens, covered_cum: np.ndarray, min_words: int) -> list[Segment]:
    sa, fa, la = sentence_hashes_of(a, min_words)
    sb, fb, lb = sentence_hashes_of(b, min_words)
    ia, jb = join_equal(sa, sb, max_repeats=4)
    out = []
    for x, y in zip(ia.tolist(), jb.tolist()):
        a0, a1 = int(fa[x]), int(la[x])
        if (covered_cum[a1] - covered_cum[a0]) * 2 >= (a1 - a0):
            continue  # shingles found it already
        out.append(Segment(a0, a1, int(fb[y]), int(lb[y]), True))
    return out


class _Chain:
    __slots__ = ("segs", "a0", "a1", "b0", "b1", "matched")

    def __init__(self, s: Segment) -> None:
        self.segs = [s]
        self.a0, self.a1, self.b0, self.b1 = s.a0, s.a1, s.b0, s.b1
        self.matched = s.a1 - s.a0

    def add(self, s: Segment) -> None:
        self.segs.append(s)
        self.matched += s.a1 - max(s.a0, self.a1)
        self.a1 = max(self.a1, s.a1)
        self.b0 = min(self.b0, s.b0)
        self.b1 = max(self.b1, s.b1)


def _chain(segments: list[Segment], max_gap: int, overlap: int) -> list[_Chain]:
    """Greedy chaining of segments sorted by ``a0`` (see the module docstring, step 4)."""
    chains: list[_Chain] = []
    active: list[_Chain] = []
    for s in segments:
        if active:
            active = [c for c in active if c.a1 + max_gap >= s.a0]
        best = None
        best_cost = None
        for c in active:
            ga = s.a0 - c.a1
            gb = s.b0 - c.b1
            if ga < -overlap or gb < -overlap or gb > max_gap or s.a1 <= c.a1 or s.b1 <= c.b1:
                continue
            cost = max(ga, 0) + max(gb, 0) + abs(ga - gb)
            if best_cost is None or cost < best_cost:
                best, best_cost = c, cost
        if best is None:
            c = _Chain(s)
            chains.append(c)
            active.append(c)
        else:
            best.add(s)
    return chains


class _Taken:
    """Disjoint sorted suspect token ranges already given to a passage."""

    def __init__(self) -> None:
        self.starts: list[int] = []
        self.ends: list[int] = []

    def overlaps(self, a0: int, a1: int) -> bool:
        k = bisect.bisect_right(self.starts, a0) - 1
        if k >= 0 and self.ends[k] > a0:
            return True
        return k + 1 < len(self.starts) and self.starts[k + 1] < a1

    def free_parts(self, a0: int, a1: int) -> list[tuple[int, int]]:
        out = []
        k = max(0, bisect.bisect_right(self.starts, a0) - 1)
        pos = a0
        while k < len(self.starts) and self.starts[k] < a1:
            if self.ends[k] > pos:
                if self.starts[k] > pos:
                    out.append((pos, self.starts[k]))
                pos = self.ends[k]
            k += 1
        if pos < a1:
            out.append((pos, a1))
        return out

    def add(self, a0: int, a1: int) -> None:
        k = bisect.bisect_left(self.starts, a0)
        self.starts.insert(k, a0)
        self.ends.insert(k, a1)


def _clip(seg: Segment, taken: _Taken) -> list[Segment]:
    """The parts of ``seg`` on suspect tokens not yet taken (B follows the diagonal)."""
    parts = []
    same = seg.a1 - seg.a0 == seg.b1 - seg.b0
    for x0, x1 in taken.free_parts(seg.a0, seg.a1):
        if seg.sentence and not same:
            y0, y1 = seg.b0, seg.b1
        else:
            y0, y1 = seg.b0 + (x0 - seg.a0), seg.b0 + (x1 - seg.a0)
        parts.append(Segment(x0, x1, y0, y1, seg.sentence))
    return parts


_WORD = re.compile(r"\w+", re.UNICODE)
_TRANS = str.maketrans({"ё": "е", "Ё": "е"})


def _words_before(text: str, pos: int, limit: int, floor: int) -> list[tuple[int, str]]:
    lo = max(floor, pos - 80)
    chunk = text[lo:pos]
    ws = [(lo + m.start(), m.group().lower().translate(_TRANS)) for m in _WORD.finditer(chunk)]
    if ws and ws[0][0] == lo and lo > floor and _WORD.match(text, lo - 1):
        ws = ws[1:]  # cut in the middle of a word
    return ws[::-1][:limit]


def _words_after(text: str, pos: int, limit: int, ceil: int) -> list[tuple[int, str]]:
    hi = min(ceil, pos + 80)
    chunk = text[pos:hi]
    ws = [(pos + m.end(), m.group().lower().translate(_TRANS)) for m in _WORD.finditer(chunk)]
    if ws and ws[-1][0] == hi and hi < ceil and _WORD.match(text, hi):
        ws = ws[:-1]
    return ws[:limit]


def _grow(ta: str, tb: str, a0: int, a1: int, b0: int, b1: int, a_floor: int, a_ceil: int, b_floor: int, b_ceil: int, limit: int = 4) -> tuple[int, int, int, int]:
    """Extend char spans over identical words (the dropped stop words) at both ends."""
    for (pa, wa), (pb, wb) in zip(_words_before(ta, a0, limit, a_floor), _words_before(tb, b0, limit, b_floor)):
        if wa != wb:
            break
        a0, b0 = pa, pb
    for (pa, wa), (pb, wb) in zip(_words_after(ta, a1, limit, a_ceil), _words_after(tb, b1, limit, b_ceil)):
        if wa != wb:
            break
        a1, b1 = pa, pb
    return a0, a1, b0, b1


def align(
    a: Tokens,
    b: Tokens,
    *,
    seed_words: int = 3,
    max_gap: int = 6,
    min_words: int = 8,
    min_sentence_words: int = 5,
    max_seed_repeats: int = 50,
    grow: bool = True,
) -> list[Passage]:
    """The passages of suspect ``a`` found in source ``b``, sorted by suspect start.

    ``min_words``: a passage must match at least this many suspect tokens (bridged gaps
    not counted). Passages never overlap on the suspect side.
    """
    w = max(1, seed_words)
    ha = pair_shingles(a.hashes, w)
    hb = pair_shingles(b.hashes, w)
    i, j = join_equal(ha, hb, max_seed_repeats)
    seg_arr = runs(i, j, w)
    n = len(a)
    cov = np.zeros(n + 1, dtype=np.int64)
    if len(seg_arr):
        np.add.at(cov, seg_arr[:, 0], 1)
        np.add.at(cov, seg_arr[:, 1], -1)
    covered_cum = np.r_[0, np.cumsum(np.cumsum(cov[:-1]) > 0)]

    segments = [Segment(*r) for r in seg_arr.tolist()]
    if min_sentence_words and len(a) and len(b):
        sent = _sentence_segments(a, b, covered_cum, min_sentence_words)
        if sent:
            segments.extend(sent)
            segments.sort(key=lambda s: (s.a0, -s.a1))
    if not segments:
        return []

    overlap = w
    chains = [c for c in _chain(segments, max_gap, overlap) if c.matched >= min_words]
    chains.sort(key=lambda c: (-c.matched, c.a0, c.b0))

    taken = _Taken()
    found: list[tuple[int, int, int, int, str]] = []
    for c in chains:
        if not taken.overlaps(c.a0, c.a1):
            pieces = [c]
        else:
            parts = [p for s in c.segs for p in _clip(s, taken)]
            parts.sort(key=lambda s: (s.a0, -s.a1))
            pieces = []
            for p in parts:
                if pieces:
                    last = pieces[-1]
                    if (
                        p.a0 - last.a1 <= max_gap
                        and -overlap <= p.b0 - last.b1 <= max_gap
                        and p.a1 > last.a1
                        and p.b1 > last.b1
                        and not taken.overlaps(last.a1, p.a0)
                    ):
                        last.add(p)
                        continue
                pieces.append(_Chain(p))
            pieces = [p for p in pieces if p.matched >= min_words]
        for p in pieces:
            taken.add(p.a0, p.a1)
            if all(s.sentence for s in p.segs):
                method = "sentence"
            elif len(p.segs) == 1:
                method = "exact"
            else:
                method = "bridged"
            found.append((p.a0, p.a1, p.b0, p.b1, method, p.matched))

    found.sort()
    out: list[Passage] = []
    ta, tb = a.text, b.text
    sa, ea, sb, eb = a.starts, a.ends, b.starts, b.ends
    for k, (a0, a1, b0, b1, method, matched) in enumerate(found):
        c0, c1, d0, d1 = int(sa[a0]), int(ea[a1 - 1]), int(sb[b0]), int(eb[b1 - 1])
        if grow:
            a_floor = int(ea[found[k - 1][1] - 1]) if k else 0
            a_ceil = int(sa[found[k + 1][0]]) if k + 1 < len(found) else len(ta)
            b_floor = int(eb[b0 - 1]) if b0 else 0
            b_ceil = int(sb[b1]) if b1 < len(b) else len(tb)
            a_floor = max(a_floor, int(ea[a0 - 1]) if a0 else 0)
            a_ceil = min(a_ceil, int(sa[a1]) if a1 < n else len(ta))
            c0, c1, d0, d1 = _grow(ta, tb, c0, c1, d0, d1, a_floor, a_ceil, b_floor, b_ceil)
        out.append(Passage(c0, c1, d0, d1, a1 - a0, method, matched=matched))
    return out
