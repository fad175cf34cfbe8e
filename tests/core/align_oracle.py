"""The Python alignment that the compiled engine replaced, as it was (``sverka.core.align``
before its seeds, runs, sentence segments and chaining moved to ``sverka._engine``).

It left the product and stays here as the oracle of the differential tests
(tests/core/test_engine_align.py): the engine's alignment must give the same passages, with
the same spans, pieces, words and kinds. The parts that stayed in Python (the growth over raw
text, the size checks, the trims) are kept here too, so that the oracle is the whole
alignment as it was.

Alignment: the passages two texts share, as character spans in BOTH texts.

The pipeline for one pair (suspect ``a`` × source ``b``):

1. **Seeds.** Every overlapping shingle of ``seed_words`` canonical tokens of each text is
   hashed on the fly; the two hash arrays are joined with a numpy sort + ``searchsorted``.
   A hash occurring more than ``max_seed_repeats`` times on either side (a refrain, a
   formula) is dropped: it would only multiply seeds. The seeds of one pair are bounded by
   :data:`SEED_BUDGET_PER_TOKEN` times the texts' length (the hashes making the most pairs
   go first) and the runs by :data:`SEGMENTS_PER_TOKEN` per suspect token (the longest
   stay), so a repetitive text costs time and memory in proportion to its length.
2. **Runs.** Seeds on the same diagonal (``j - i``) at consecutive positions form an
   unbroken run of equal tokens: a *segment* ``[a0, a1) ~ [b0, b1)``.
3. **Sentences.** Sentences of at least ``min_sentence_words`` tokens whose sentence hash
   (sum of WH, ALGORITHMS.md §5: word order and word form do not matter) is equal in both
   texts become segments too, where shingles did not already cover them.
4. **Chaining** (:class:`_Linker`). Segments sorted by their suspect start join a passage
   when they begin at most ``max_gap`` tokens after it in the SUSPECT (changed, inserted or
   deleted words are bridged), never across a whole suspect sentence with no match of its own,
   and lie near the passage in the SOURCE in either direction (a skipped sentence, sentences
   reversed, clauses rotated: one passage).
5. **One source region per suspect region.** Chains are taken best (most matched tokens)
   first; a later chain loses the suspect tokens already taken, so passages never overlap
   on the suspect side. A passage needs ``min_words`` matched words of the text and
   :data:`MIN_MATCHED_TOKENS` content words; below :data:`SHORT_PASSAGE_TOKENS` content
   words it must be whole sentences (a copied short sentence, not a common phrase).
6. **Spans.** Each matched run (a *piece*) spans from the first character of its first
   token to the last character of its last token, in both texts, and grows over identical
   neighbouring words the canonizer dropped (stop words), never past a sentence end. A
   passage spans its pieces; its ``matched`` words are the words inside its pieces (what
   the shares count), the rest of its span is bridged edits.

Token positions are indices into the canonical token arrays; character offsets are
``str`` indices into ``Tokens.text``.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass
from functools import cached_property
from typing import Callable, Sequence

import numpy as np

from sverka.core.results import Passage
from sverka.core.sorting import checked_order, lexsort, stable_argsort
from sverka.core.text import Tokens, word_starts, words_in, words_within
from sverka.core.tokens import SortOrders

__all__ = [
    "KindOf",
    "Segment",
    "Sorted",
    "SourceSide",
    "align",
    "join_equal",
    "merge_ranges",
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


@dataclass(frozen=True, eq=False)
class Sorted:
    """Values sorted once, for :func:`join_equal` against many others (a source aligned
    with several suspects): the order, the sorted values, the end of each run of equals."""

    order: np.ndarray
    values: np.ndarray
    end_of: np.ndarray  # per sorted value: one past the last of its run of equals

    @cached_property
    def repeats(self) -> np.ndarray:
        """How many times each value occurs, in the original order."""
        out = np.empty(len(self.values), dtype=np.int64)
        out[self.order] = self.end_of - np.searchsorted(self.values, self.values, "left")
        return out

    @classmethod
    def of(cls, y: np.ndarray, order: np.ndarray | None = None) -> "Sorted":
        """``order``: ``stable_argsort(y)`` if known (checked, else sorted again)."""
        known = checked_order(y, order) if order is not None else None
        if known is None:
            order = stable_argsort(y)
            ys = y[order]
        else:
            order, ys = known
        run_end = np.flatnonzero(np.append(ys[1:] != ys[:-1], True)) + 1 if len(ys) else _EMPTY_I
        return cls(order, ys, np.repeat(run_end, np.diff(np.concatenate(([0], run_end)))))


def join_equal(x: np.ndarray, y: np.ndarray, max_repeats: int = 0, budget: int = 0,
               y_sorted: Sorted | None = None, x_sorted: Sorted | None = None) -> tuple[np.ndarray, np.ndarray]:
    """All pairs ``(i, j)`` with ``x[i] == y[j]``, sorted by ``i`` then ``j``.

    Values occurring more than ``max_repeats`` times in ``x`` or in ``y`` are skipped
    (``0`` = no limit). With a ``budget`` (0 = none), at most that many pairs are made: the
    values making the most pairs (count in x times count in y: refrains, formulas of a
    repetitive text) are dropped first, so memory and time stay linear in the inputs.
    ``y_sorted`` (``Sorted.of(y)``, kept by the caller) spares sorting ``y``; ``x_sorted``
    (``Sorted.of(x)``, kept likewise: a suspect met by many sources) lets ``y`` be searched in
    order, three times faster than at random: the result is the same.
    """
    if len(x) == 0 or len(y) == 0:
        return _EMPTY_I, _EMPTY_I
    if y_sorted is None:
        if len(y) > len(x):  # sort the smaller side
            j, i = join_equal(y, x, max_repeats, budget)
            order = lexsort((j, i))
            return i[order], j[order]
        y_sorted = Sorted.of(y)
    order, ys, end_of = y_sorted.order, y_sorted.values, y_sorted.end_of
    # One search of the other side; the end of each equal run of the sorted one is known.
    def counted(xv):  # (first place of each value in ys, how many times ys holds it)
        lo = np.searchsorted(ys, xv, "left")
        at = np.minimum(lo, len(ys) - 1)
        return lo, np.where(ys[at] == xv, end_of[at] - lo, 0)

    if x_sorted is None:
        lo, cnt = counted(x)
    else:  # searched and read in order, put back in x's order
        lo, cnt = np.empty(len(x), dtype=np.int64), np.empty(len(x), dtype=np.int64)
        lo[x_sorted.order], cnt[x_sorted.order] = counted(x_sorted.values)
    ok = cnt > 0
    if (max_repeats or budget) and ok.any():
        # repeats on the larger side, counted among its matched values only
        if x_sorted is not None:  # every repeat of a matched value is matched too
            cx = x_sorted.repeats
        else:
            idx = np.flatnonzero(ok)
            xm = np.sort(x[idx])
            cx = np.zeros(len(x), dtype=np.int64)
            cx[idx] = np.searchsorted(xm, x[idx], "right") - np.searchsorted(xm, x[idx], "left")
        if max_repeats:
            ok &= (cnt <= max_repeats) & (cx <= max_repeats)
        if budget and int(cnt[ok].sum()) > budget:
            pairs_of_value = np.where(ok, cx * cnt, 0)
            idx = np.flatnonzero(ok)
            by = np.argsort(pairs_of_value[idx], kind="stable")
            made = np.cumsum(cnt[idx][by])
            within = int(np.searchsorted(made, budget, "right"))
            limit = pairs_of_value[idx][by][within] if within < len(by) else None
            if limit is not None:
                ok &= pairs_of_value < limit
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


#: What tells a passage's kind (:func:`sverka.core.kinds.passage_kind`): from its segments, its
#: pieces (suspect start, suspect end, source start, source end in characters, sorted) and the
#: two texts' tokens.
KindOf = Callable[[Sequence[Segment], Sequence[tuple[int, int, int, int]], Tokens, Tokens], str]


def runs(i: np.ndarray, j: np.ndarray, w: int) -> np.ndarray:
    """Group seeds ``(i, j)`` of ``w``-token shingles into unbroken diagonal runs.

    Returns an int64 array (k, 4) of ``[a0, a1, b0, b1)`` token ranges, sorted by ``a0``.
    Seeds on one diagonal whose shingles touch or overlap (a gap shorter than ``w``, which
    only a dropped frequent shingle leaves) belong to one run.
    """
    if len(i) == 0:
        return np.zeros((0, 4), dtype=np.int64)
    d = j - i
    order = lexsort((i, d))
    i, d = i[order], d[order]
    brk = np.ones(len(i), dtype=bool)
    brk[1:] = (d[1:] != d[:-1]) | (i[1:] - i[:-1] > w)
    starts = np.flatnonzero(brk)
    ends = np.append(starts[1:], len(i)) - 1
    a0 = i[starts]
    a1 = i[ends] + w
    dd = d[starts]
    seg = np.stack([a0, a1, a0 + dd, a1 + dd], axis=1)
    return seg[lexsort((-seg[:, 1], seg[:, 0]))]


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
    last = np.append(first[1:], len(sid))
    sums = np.add.reduceat(np.asarray(tokens.word_hashes, dtype=np.uint64), first)
    keep = (last - first) >= min_words
    return sums[keep], first[keep].astype(np.int64), last[keep].astype(np.int64)


@dataclass(frozen=True, eq=False)
class SourceSide:
    """What aligning against one source needs of it alone, computed once per source and
    seed settings and kept with it (a source met by many suspects of a batch)."""

    seed_words: int
    min_sentence_words: int
    pairs: np.ndarray  # its w-token shingles (pair_shingles)
    pairs_sorted: Sorted
    sentences: tuple[np.ndarray, np.ndarray, np.ndarray]  # sentence_hashes_of
    sentences_sorted: Sorted

    @classmethod
    def of(cls, b: Tokens, seed_words: int, min_sentence_words: int,
           orders: "SortOrders | None" = None) -> "SourceSide":
        """``orders``: the stored document's (:func:`sort_orders`), if known."""
        pairs = pair_shingles(b.hashes, max(1, seed_words))
        sent = sentence_hashes_of(b, min_sentence_words)
        known = orders.pairs if orders is not None and max(1, seed_words) == ORDER_PAIR_WORDS else None
        return cls(seed_words, min_sentence_words, pairs, Sorted.of(pairs, known), sent, Sorted.of(sent[0]))


#: Seed width of the pair order a document keeps in the collection (the default
#: ``Settings.align_seed_words``; other widths are sorted when aligning).
ORDER_PAIR_WORDS = 2


def sort_orders(hashes: np.ndarray) -> SortOrders:
    """The :class:`~sverka.core.tokens.SortOrders` of a document's lemma hashes (the pairs'
    order for shingles of :data:`ORDER_PAIR_WORDS` tokens)."""
    h = np.asarray(hashes, dtype=np.uint64)
    return SortOrders(stable_argsort(h), stable_argsort(pair_shingles(h, ORDER_PAIR_WORDS)))


def _sentence_segments(a: Tokens, b: Tokens, covered_cum: np.ndarray, min_words: int,
                       b_side: SourceSide | None = None, a_side: SourceSide | None = None) -> list[Segment]:
    if a_side is not None:
        (sa, fa, la), sa_sorted = a_side.sentences, a_side.sentences_sorted
    else:
        (sa, fa, la), sa_sorted = sentence_hashes_of(a, min_words), None
    if b_side is not None:
        (sb, fb, lb), sb_sorted = b_side.sentences, b_side.sentences_sorted
    else:
        (sb, fb, lb), sb_sorted = sentence_hashes_of(b, min_words), None
    ia, jb = join_equal(sa, sb, max_repeats=4, y_sorted=sb_sorted, x_sorted=sa_sorted)
    out = []
    for x, y in zip(ia.tolist(), jb.tolist()):
        a0, a1 = int(fa[x]), int(la[x])
        if (covered_cum[a1] - covered_cum[a0]) * 2 >= (a1 - a0):
            continue  # shingles found it already
        out.append(Segment(a0, a1, int(fb[y]), int(lb[y]), True))
    return out


def _near_others(seg: np.ndarray, w: int, max_gap: int) -> np.ndarray:
    """The runs that may belong to a passage: those longer than one seed, and the one-seed
    runs with another run close by in both texts (a passage needs more matched tokens than
    one seed holds). Pairs of words two texts share by chance are mostly such loners."""
    if len(seg) < 2:
        return seg if len(seg) == 0 or seg[0, 1] - seg[0, 0] > w else seg[:0]
    a0, a1, b0, b1 = seg[:, 0], seg[:, 1], seg[:, 2], seg[:, 3]
    keep = (a1 - a0) > w
    near_a = max_gap + w
    near_b = max_gap * SOURCE_WINDOW + 2 * w
    for shift in range(1, 9):
        if shift >= len(seg):
            break
        ok = (a0[shift:] - a1[:-shift] <= near_a) & (np.abs(b0[shift:] - b0[:-shift]) <= near_b)
        keep[shift:] |= ok
        keep[:-shift] |= ok
    return seg[keep]


class _Chain:
    """Segments linked into one passage: suspect hull ``[a0, a1)``, source hull ``[b0, b1)``."""

    __slots__ = ("segs", "a0", "a1", "b0", "b1", "matched", "bspans")

    def __init__(self, s: Segment) -> None:
        self.segs = [s]
        self.a0, self.a1, self.b0, self.b1 = s.a0, s.a1, s.b0, s.b1
        self.matched = s.a1 - s.a0  # suspect tokens covered by segments
        self.bspans = [(s.b0, s.b1)]  # source token ranges of the segments, sorted

    def add(self, s: Segment) -> None:
        self.segs.append(s)
        self.matched += s.a1 - max(s.a0, self.a1)
        self.a1 = max(self.a1, s.a1)
        self.b0 = min(self.b0, s.b0)
        self.b1 = max(self.b1, s.b1)
        bisect.insort(self.bspans, (s.b0, s.b1))

    def b_overlap(self, b0: int, b1: int) -> int:
        """Source tokens of ``[b0, b1)`` already matched by a segment of this chain."""
        k = bisect.bisect_left(self.bspans, (b0, b0))
        total = 0
        for x0, x1 in self.bspans[max(0, k - 8) : k + 8]:
            total += max(0, min(b1, x1) - max(b0, x0))
        return total


class _Linker:
    """When may segment ``s`` join chain ``c`` (one rule for the first pass and re-chaining)?

    * In the suspect, ``s`` begins at most ``max_gap`` tokens after the chain ends (or overlaps
      it by at most ``overlap``) and extends it.
    * Never across a sentence with no match of its own: if a whole suspect sentence lies
      between the chain's last matched token and ``s``, they are two passages, unless ONE
      sentence of the source around the passage holds all its content words (a copied sentence
      edited until no seed is left; a sentence of one content word only from the source's
      stretch between the two, where it would stand). Words found apart in the source
      are no match ("«А бог его знает», – ответил он." between two copied sentences is the
      student's, though "бог", "знает" and "ответил" stand in the source's sentences near
      them). An original sentence the student wrote between two borrowed ones is never part
      of a passage.
    * Never across suspect tokens another passage has taken (``taken``).
    * In the source, ``s`` lies within ``SOURCE_WINDOW * max_gap`` tokens of the chain's source
      range, in EITHER direction (a skipped sentence, sentences reversed, clauses rotated,
      words moved), and matches source tokens the chain has not matched yet.
    Returns a cost (lower is better: the plain continuation of the diagonal is cheapest)
    or None.
    """

    def __init__(self, a: Tokens, b: Tokens, max_gap: int, overlap: int, taken: "_Taken | None" = None) -> None:
        self.sid = np.asarray(a.sentence_ids)
        self.ha = np.asarray(a.hashes)
        self.hb = np.asarray(b.hashes)
        self.bsid = np.asarray(b.sentence_ids)
        self.max_gap = max_gap
        self.overlap = overlap
        self.taken = taken

    def _copied_sentences(self, c: _Chain, s: Segment) -> bool:
        """Is each whole sentence between ``c`` and ``s`` a match of its own: all its content
        words in one sentence of the source around the passage, and for a sentence of one
        content word, a sentence in the source's stretch between the two (where it would stand)?"""
        lo = max(0, min(c.b0, s.b0) - self.max_gap)
        hi = min(len(self.hb), max(c.b1, s.b1) + self.max_gap)  # the passage's own source region
        if hi - lo > 2000:
            return False
        source_sentences: dict[int, set[int]] = {}
        for k, h in zip(self.bsid[lo:hi].tolist(), self.hb[lo:hi].tolist()):
            source_sentences.setdefault(k, set()).add(h)
        first, last = int(self.sid[c.a1 - 1]), int(self.sid[s.a0])
        gap = {}
        for k, h in zip(self.sid[c.a1 : s.a0].tolist(), self.ha[c.a1 : s.a0].tolist()):
            if first < k < last:
                gap.setdefault(k, set()).add(h)
        between = set(self.bsid[c.b1 : s.b0].tolist())  # the source's sentences where it would stand
        return all(any(words <= held and (len(words) >= 2 or k in between) for k, held in source_sentences.items())
                   for words in gap.values())

    def cost(self, c: _Chain, s: Segment) -> int | None:
        ga = s.a0 - c.a1
        if ga > self.max_gap or ga < -self.overlap or s.a1 <= c.a1:
            return None
        # The source side first: it is cheap and refuses most segments (a pair of words met
        # elsewhere in the source); the suspect's sentences between are read only after it.
        # Far in the source, or in another order, only between runs of some length on both
        # sides: two words in common are no evidence that a sentence was moved.
        lone = s.a1 - s.a0 <= self.overlap or c.matched <= self.overlap
        window = self.max_gap if lone else self.max_gap * SOURCE_WINDOW
        if s.b0 >= c.b1 - self.overlap:  # after the source range: the usual continuation
            gb = s.b0 - c.b1
            if gb > window or s.b1 <= c.b1:
                return None
            cost = max(ga, 0) + max(gb, 0) + abs(ga - gb)
        else:
            dist = max(c.b0 - s.b1, 0)  # before the source range, or inside it
            if dist > window:
                return None
            if (s.b1 - s.b0) - c.b_overlap(s.b0, s.b1) <= 0:
                return None  # nothing new on the source side: a repeat, not a reordering
            cost = max(ga, 0) + dist + self.max_gap + 1
        if ga > 0:
            if int(self.sid[s.a0]) - int(self.sid[c.a1 - 1]) >= 2 and not self._copied_sentences(c, s):
                return None
            if self.taken is not None and self.taken.overlaps(c.a1, s.a0):
                return None
        return cost


#: How far (in multiples of ``max_gap``) the next run may lie from a passage in the SOURCE,
#: in either direction, while it follows closely in the suspect: a sentence the student
#: skipped, sentences put in another order. Nothing is bridged in the suspect by this.
SOURCE_WINDOW = 8

#: Chains still open when a segment arrives that are looked at (repetitive text bound).
_ACTIVE_LIMIT = 16


def _chain(segments: list[Segment], linker: _Linker) -> list[_Chain]:
    """Greedy chaining of segments sorted by ``a0`` (see the module docstring, step 4)."""
    chains: list[_Chain] = []
    active: list[_Chain] = []
    max_gap = linker.max_gap
    for s in segments:
        if active:
            active = [c for c in active if c.a1 + max_gap >= s.a0][-_ACTIVE_LIMIT:]
        best = None
        best_cost = None
        for c in active:
            cost = linker.cost(c, s)
            if cost is not None and (best_cost is None or cost < best_cost):
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


_SENTENCE_END = re.compile(r"[.!?…\n]")


def _words_before(text: str, pos: int, limit: int, floor: int) -> list[tuple[int, str]]:
    lo = max(floor, pos - 80)
    chunk = text[lo:pos]
    cut = None
    for cut in _SENTENCE_END.finditer(chunk):
        pass
    if cut is not None:  # never grow into the sentence before
        lo += cut.end()
        chunk = chunk[cut.end():]
    ws = [(lo + m.start(), m.group().lower().translate(_TRANS)) for m in _WORD.finditer(chunk)]
    if ws and ws[0][0] == lo and lo > floor and _WORD.match(text, lo - 1):
        ws = ws[1:]  # cut in the middle of a word
    return ws[::-1][:limit]


def _words_after(text: str, pos: int, limit: int, ceil: int) -> list[tuple[int, str]]:
    hi = min(ceil, pos + 80)
    chunk = text[pos:hi]
    cut = _SENTENCE_END.search(chunk)
    if cut is not None:  # never grow into the sentence after
        hi = pos + cut.start()
        chunk = chunk[: cut.start()]
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


#: A passage matches at least this many canonical (content) words, whatever its length in
#: words of the text: eight words of which seven are stop words are a phrase, not a passage.
MIN_MATCHED_TOKENS = 3
#: A passage of fewer content words than this must be a whole sentence of the suspect: a
#: copied short sentence is a borrowing, a common phrase inside a sentence is not.
SHORT_PASSAGE_TOKENS = 5
#: Seed pairs allowed per token of the two texts, and runs kept per suspect token: repetitive
#: text cannot blow up the work.
SEED_BUDGET_PER_TOKEN = 4
SEGMENTS_PER_TOKEN = 1


def align(
    a: Tokens,
    b: Tokens,
    *,
    seed_words: int = 2,
    max_gap: int = 6,
    min_words: int = 8,
    min_sentence_words: int = 5,
    max_seed_repeats: int = 50,
    grow: bool = True,
    a_word_starts: np.ndarray | None = None,
    b_side: SourceSide | None = None,
    a_side: SourceSide | None = None,
    a_first: int = 0,
    kind_of: KindOf | None = None,
) -> list[Passage]:
    """The passages of suspect ``a`` found in source ``b``, sorted by suspect start.

    ``min_words``: a passage must match at least this many WORDS OF THE SUSPECT'S TEXT (stop
    words included, bridged gaps not counted), as many words of the source's (each counted
    once, however many parts of the passage match it) and at least :data:`MIN_MATCHED_TOKENS`
    canonical tokens; below :data:`SHORT_PASSAGE_TOKENS` it must be whole sentences.
    Passages never overlap on the suspect side. Work and memory are bounded
    by the texts' lengths (:data:`SEED_BUDGET_PER_TOKEN`). ``b_side``: the source's own part
    of the work, kept by the caller (``SourceSide.of(b, seed_words, min_sentence_words)``);
    ``a_side`` likewise for the suspect (met by every candidate of a check): the same result.
    ``a_first``: the suspect's tokens before this one are never matched (its heading lines:
    :func:`sverka.core.exclusions.heading_end`), so no passage holds or bridges them.
    ``kind_of``: tells each passage's kind from its segments and
    pieces (:func:`sverka.core.kinds.passage_kind`); without it ``Passage.kind`` is "".
    Alignment itself reads token arrays and the texts' characters only.
    """
    w = max(1, seed_words)
    if b_side is not None and (b_side.seed_words, b_side.min_sentence_words) != (seed_words, min_sentence_words):
        b_side = None  # made for other settings
    if a_side is not None and (a_side.seed_words, a_side.min_sentence_words) != (seed_words, min_sentence_words):
        a_side = None
    ha = pair_shingles(a.hashes, w) if a_side is None else a_side.pairs
    hb = pair_shingles(b.hashes, w) if b_side is None else b_side.pairs
    budget = SEED_BUDGET_PER_TOKEN * (len(ha) + len(hb)) + 1000
    i, j = join_equal(ha, hb, max_seed_repeats, budget=budget, y_sorted=None if b_side is None else b_side.pairs_sorted,
                      x_sorted=None if a_side is None else a_side.pairs_sorted)
    seg_arr = runs(i, j, w)
    n = len(a)
    seg_arr = _near_others(seg_arr, w, max_gap)
    if len(seg_arr) > SEGMENTS_PER_TOKEN * max(n, 1):  # repetitive text: the longest runs first
        by_length = np.argsort(seg_arr[:, 0] - seg_arr[:, 1], kind="stable")[: SEGMENTS_PER_TOKEN * n]
        seg_arr = seg_arr[np.sort(by_length)]
    cov = np.zeros(n + 1, dtype=np.int64)
    if len(seg_arr):
        np.add.at(cov, seg_arr[:, 0], 1)
        np.add.at(cov, seg_arr[:, 1], -1)
    covered_cum = np.concatenate(([0], np.cumsum(np.cumsum(cov[:-1]) > 0)))

    segments = [Segment(*r) for r in seg_arr.tolist()]
    if min_sentence_words and len(a) and len(b):
        sent = _sentence_segments(a, b, covered_cum, min_sentence_words, b_side, a_side)
        if sent:
            segments.extend(sent)
            segments.sort(key=lambda s: (s.a0, -s.a1))
    if a_first > 0 and segments:  # the heading lines at the top: never matched
        head = _Taken()
        head.add(0, a_first)
        segments = [p for s in segments for p in (_clip(s, head) if s.a0 < a_first else (s,))]
    if not segments:
        return []

    overlap = w
    sid, bsid = np.asarray(a.sentence_ids), np.asarray(b.sentence_ids)
    ws = word_starts(a.text) if a_word_starts is None else a_word_starts
    sa, ea, sb, eb = a.starts, a.ends, b.starts, b.ends

    def grown_ends(c: _Chain) -> tuple[Segment, Segment, tuple[int, int, int, int], tuple[int, int, int, int]]:
        """The chain's first and last segments (in the suspect), and each of them grown over
        the identical stop words around it: (a0, a1, b0, b1) in characters."""
        first = min(c.segs, key=lambda s: (s.a0, s.a1))
        last = max(c.segs, key=lambda s: (s.a1, s.a0))
        g0 = _grow(a.text, b.text, int(sa[first.a0]), int(ea[first.a1 - 1]), int(sb[first.b0]), int(eb[first.b1 - 1]),
                   int(ea[first.a0 - 1]) if first.a0 else 0, len(a.text), int(eb[first.b0 - 1]) if first.b0 else 0, len(b.text))
        g1 = _grow(a.text, b.text, int(sa[last.a0]), int(ea[last.a1 - 1]), int(sb[last.b0]), int(eb[last.b1 - 1]),
                   0, int(sa[last.a1]) if last.a1 < n else len(a.text), 0, int(sb[last.b1]) if last.b1 < len(b) else len(b.text))
        return first, last, g0, g1

    def matched_words(c: _Chain) -> int:
        ranges = _char_ranges(_token_ranges(c.segs), sa, ea)
        count = words_in(ws, ranges)
        if grow and count < min_words:  # the identical stop words at both ends count too
            _, _, g0, g1 = grown_ends(c)
            count += words_in(ws, [(g0[0], ranges[0][0]), (ranges[-1][1], g1[1])])
        return count

    def source_holds_enough(c: _Chain) -> bool:
        # min_words words of the source's text, each counted once however many parts of the
        # chain match it (a phrase the student wrote twice is not twice a borrowing), with the
        # identical stop words at the ends as matched_words counts them. Every token is a
        # word: the text is read only for a chain of fewer distinct source tokens than that.
        token_ranges = merge_ranges([(s.b0, s.b1) for s in c.segs])
        if sum(y - x for x, y in token_ranges) >= min_words:
            return True
        ranges = _char_ranges(token_ranges, sb, eb)
        if grow:
            first, last, g0, g1 = grown_ends(c)
            ranges = merge_ranges(ranges + [(g0[2], int(sb[first.b0])), (int(eb[last.b1 - 1]), g1[3])])
        return words_within(b.text, ranges) >= min_words

    def whole_sentences(c: _Chain) -> bool:
        return (c.a0 == 0 or sid[c.a0 - 1] != sid[c.a0]) and (c.a1 == n or sid[c.a1] != sid[c.a1 - 1])

    def big_enough(c: _Chain) -> bool:
        if c.matched < MIN_MATCHED_TOKENS or (c.matched < SHORT_PASSAGE_TOKENS and not whole_sentences(c)):
            return False
        return matched_words(c) >= min_words and source_holds_enough(c)

    chains = [c for c in _chain(segments, _Linker(a, b, max_gap, overlap)) if big_enough(c)]
    chains.sort(key=lambda c: (-c.matched, c.a0, c.b0))

    taken = _Taken()
    found: list[tuple[int, int, int, int, str, list[Segment]]] = []
    for c in chains:
        if not taken.overlaps(c.a0, c.a1):
            pieces = [c]
        else:
            parts = [p for s in c.segs for p in _clip(s, taken)]
            parts.sort(key=lambda s: (s.a0, -s.a1))
            pieces = [p for p in _chain(parts, _Linker(a, b, max_gap, overlap, taken)) if big_enough(p)]
        pieces = [q for p in pieces for q in (_trim_overhang(_trim_loners(p, sid, w), sid, bsid),) if q is p or big_enough(q)]
        for p in pieces:
            taken.add(p.a0, p.a1)
            if all(s.sentence for s in p.segs):
                method = "sentence"
            elif len(p.segs) == 1:
                method = "exact"
            else:
                method = "bridged"
            found.append((p.a0, p.a1, p.b0, p.b1, method, p.segs))

    found.sort(key=lambda f: (f[0], f[1], f[2], f[3]))
    out: list[Passage] = []
    ta, tb = a.text, b.text
    for k, (a0, a1, b0, b1, method, segs) in enumerate(found):
        a_floor = int(ea[found[k - 1][1] - 1]) if k else 0
        a_ceil = int(sa[found[k + 1][0]]) if k + 1 < len(found) else len(ta)
        pieces = []
        for s in sorted(segs, key=lambda s: (s.a0, s.a1)):
            piece = (int(sa[s.a0]), int(ea[s.a1 - 1]), int(sb[s.b0]), int(eb[s.b1 - 1]))
            if grow:  # over the identical stop words around the run, never past a neighbour token
                piece = _grow(
                    ta, tb, *piece,
                    max(a_floor, int(ea[s.a0 - 1]) if s.a0 else 0),
                    min(a_ceil, int(sa[s.a1]) if s.a1 < n else len(ta)),
                    int(eb[s.b0 - 1]) if s.b0 else 0,
                    int(sb[s.b1]) if s.b1 < len(b) else len(tb),
                )
            pieces.append(piece)
        pieces.sort()
        c0, c1 = min(q[0] for q in pieces), max(q[1] for q in pieces)
        d0, d1 = min(q[2] for q in pieces), max(q[3] for q in pieces)
        suspect_ranges = merge_ranges([(q[0], q[1]) for q in pieces])
        words = words_in(ws, [(c0, c1)])
        matched = words_in(ws, suspect_ranges)
        if matched < min_words:  # a neighbouring passage took the words it was counting on
            continue
        out.append(Passage(c0, c1, d0, d1, words, method, matched=matched, pieces=tuple(pieces),
                           kind=kind_of(segs, pieces, a, b) if kind_of is not None else ""))
    return out


def _trim_loners(c: _Chain, sid: np.ndarray, w: int) -> _Chain:
    """``c`` without one-seed runs hanging at either end from another sentence: two words of
    an original sentence that also occur near a borrowed one are not part of the borrowing."""
    segs = sorted(c.segs, key=lambda s: (s.a0, s.a1))
    trimmed = False
    while len(segs) > 1 and segs[0].a1 - segs[0].a0 <= w and sid[segs[0].a0] != sid[segs[1].a0]:
        segs.pop(0)
        trimmed = True
    while len(segs) > 1 and segs[-1].a1 - segs[-1].a0 <= w and sid[segs[-1].a1 - 1] != sid[segs[-2].a1 - 1]:
        segs.pop()
        trimmed = True
    if not trimmed:
        return c
    out = _Chain(segs[0])
    for s in segs[1:]:
        out.add(s)
    return out


#: Tokens of another suspect sentence at most, at a passage's edge, that are cut off (:func:`_trim_overhang`).
OVERHANG_TOKENS = 2


def _trim_overhang(c: _Chain, sid: np.ndarray, bsid: np.ndarray) -> _Chain:
    """``c`` without the first words of the next sentence (or the last of the sentence before)
    that it reaches and leaves again: at most :data:`OVERHANG_TOKENS` tokens of a sentence
    that goes on past the passage. The source, too, went on into a sentence beginning (or
    ending) with the same word or two ("... accept button. Make sure" in the source, "...
    accept button. Make it your drink" in the essay): the student's own sentence is not
    highlighted for its first word. A whole sentence copied, however short, is kept; so are
    those tokens when they are a whole sentence of the source of two tokens or more (the
    product's rule since the thirty-fifth session, kept here so the oracle is the whole
    alignment)."""
    n = len(sid)
    a0, a1 = c.a0, c.a1
    if a1 < n and sid[a1] == sid[a1 - 1]:  # the passage ends inside a sentence: from where?
        first = int(np.searchsorted(sid, sid[a1 - 1], "left"))
        if a0 < first and a1 - first <= OVERHANG_TOKENS and not _source_sentence(c, first, a1, bsid):
            a1 = first
    if a0 > 0 and sid[a0 - 1] == sid[a0]:  # it begins inside one
        end = int(np.searchsorted(sid, sid[a0], "right"))
        if end < a1 and end - a0 <= OVERHANG_TOKENS and not _source_sentence(c, a0, end, bsid):
            a0 = end
    if (a0, a1) == (c.a0, c.a1):
        return c
    segs = []
    for s in sorted(c.segs, key=lambda s: (s.a0, s.a1)):
        x0, x1 = max(s.a0, a0), min(s.a1, a1)
        if x0 >= x1:
            continue
        if (x0, x1) != (s.a0, s.a1):
            if s.a1 - s.a0 != s.b1 - s.b0:  # not one diagonal run: where its source part ends is unknown
                return c
            s = Segment(x0, x1, s.b0 + x0 - s.a0, s.b1 - (s.a1 - x1), s.sentence)
        segs.append(s)
    out = _Chain(segs[0])
    for s in segs[1:]:
        out.add(s)
    return out


def _source_sentence(c: _Chain, x0: int, x1: int, bsid: np.ndarray) -> bool:
    """Whether the suspect tokens ``[x0, x1)`` of ``c``, two or more, are matched by one
    diagonal run to a whole sentence of the source."""
    if x1 - x0 < 2:
        return False
    for s in c.segs:
        if s.a0 <= x0 and x1 <= s.a1 and s.a1 - s.a0 == s.b1 - s.b0:
            y0, y1 = s.b0 + x0 - s.a0, s.b0 + x1 - s.a0
            return (y0 == 0 or bsid[y0 - 1] != bsid[y0]) and (y1 == len(bsid) or bsid[y1] != bsid[y1 - 1])
    return False


def _token_ranges(segs: list[Segment]) -> list[tuple[int, int]]:
    """Union of the segments' suspect token ranges, sorted and disjoint."""
    return merge_ranges([(s.a0, s.a1) for s in segs])


def merge_ranges(ranges: list[tuple[int, int]]) -> list[tuple[int, int]]:
    out: list[list[int]] = []
    for x0, x1 in sorted(ranges):
        if out and x0 <= out[-1][1]:
            out[-1][1] = max(out[-1][1], x1)
        else:
            out.append([x0, x1])
    return [(x0, x1) for x0, x1 in out]


def _char_ranges(token_ranges: list[tuple[int, int]], starts: np.ndarray, ends: np.ndarray) -> list[tuple[int, int]]:
    return [(int(starts[x0]), int(ends[x1 - 1])) for x0, x1 in token_ranges]
