"""Alignment on hand-made token sequences: every span is known exactly.

Tokens here are built straight from the words of a text (every word a token, its hash the
hash of the lower-cased word), so the tests do not depend on the canonizer.
"""

from __future__ import annotations

import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sverka.core.align import join_equal, pair_shingles, align
from sverka.core.hashing import hash_text
from sverka.core.text import Tokens


def toks(text: str, sentences: bool = True) -> Tokens:
    ms = list(re.finditer(r"\w+", text))
    spans = [(m.start(), m.end()) for m in re.finditer(r"[^.]+\.?", text)] if sentences else [(0, len(text))]
    starts = np.array([m.start() for m in ms], dtype=np.int64)
    sid = np.array([max(k for k, (s, _) in enumerate(spans) if s <= st) for st in starts.tolist()], dtype=np.int32)
    lemmas = tuple(m.group().lower() for m in ms)
    h = np.array([hash_text(x) for x in lemmas], dtype=np.uint64)
    return Tokens(
        text=text,
        starts=starts,
        ends=np.array([m.end() for m in ms], dtype=np.int64),
        lemmas=lemmas,
        hashes=h,
        word_hashes=h.copy(),
        sentence_ids=sid,
        sentence_spans=np.array(spans, dtype=np.int64).reshape(-1, 2),
        word_count=len(ms),
        language="en",
    )


def words(n: int, prefix: str) -> list[str]:
    return [f"{prefix}{k}" for k in range(n)]


def span(text: str, phrase: str) -> tuple[int, int]:
    s = text.index(phrase)
    return s, s + len(phrase)


def test_pair_shingles_and_join():
    h = np.array([1, 2, 3, 1, 2, 3], dtype=np.uint64)
    s = pair_shingles(h, 3)
    assert len(s) == 4 and s[0] == s[3] and len(set(s.tolist())) == 3
    i, j = join_equal(np.array([5, 6, 5], np.uint64), np.array([6, 5, 7], np.uint64))
    assert sorted(zip(i.tolist(), j.tolist())) == [(0, 1), (1, 0), (2, 1)]
    # more repeats than allowed: dropped
    i, j = join_equal(np.array([5, 5, 5, 6], np.uint64), np.array([5, 6], np.uint64), max_repeats=2)
    assert list(zip(i.tolist(), j.tolist())) == [(3, 1)]


def test_exact_copy_spans_in_both_texts():
    copied = " ".join(words(12, "w"))
    a = f"alpha beta gamma. {copied}. delta epsilon."
    b = f"one two three four. {copied}. five six."
    (p,) = align(toks(a), toks(b), min_words=8)
    assert (p.suspect_start, p.suspect_end) == span(a, copied)
    assert (p.source_start, p.source_end) == span(b, copied)
    assert p.words == 12 and p.method == "exact"


def test_small_edits_are_bridged():
    base = words(30, "w")
    src = list(base)
    sus = list(base)
    sus[8] = "changed"  # a changed word
    del sus[16]  # a deleted word
    sus.insert(22, "inserted")  # an inserted word
    a, b = "x " + " ".join(sus) + " y", "z " + " ".join(src) + " q"
    (p,) = align(toks(a), toks(b), max_gap=3, min_words=8)
    assert p.method == "bridged"
    assert (p.suspect_start, p.suspect_end) == (2, len(a) - 2)
    assert (p.source_start, p.source_end) == (2, len(b) - 2)
    assert p.words == 30


def test_gap_larger_than_max_gap_splits():
    src = words(40, "w")
    sus = src[:15] + words(10, "new") + src[25:]
    a, b = " ".join(sus), " ".join(src)
    ps = align(toks(a), toks(b), max_gap=6, min_words=8)
    assert [(p.suspect_start, p.suspect_end) for p in ps] == [
        span(a, " ".join(src[:15])),
        span(a, " ".join(src[25:])),
    ]
    assert [p.method for p in ps] == ["exact", "exact"]


def test_short_matches_are_dropped():
    a = "w1 w2 w3 w4 w5 other words here"
    b = "w1 w2 w3 w4 w5 unrelated stuff"
    assert align(toks(a), toks(b), min_words=8) == []
    (p,) = align(toks(a), toks(b), min_words=5)
    assert (p.suspect_start, p.suspect_end) == span(a, "w1 w2 w3 w4 w5")


def test_a_phrase_written_twice_is_not_twice_a_borrowing():
    # The source holds five words once; the suspect writes three of them, two words of its
    # own, then all five: eight suspect words match, but only five words of the source.
    a = "p1 p2 p3 x1 x2 p1 p2 p3 p4 p5 end."
    b = "start here. p1 p2 p3 p4 p5 and the rest of it."
    assert align(toks(a), toks(b), min_words=8) == []
    (p,) = align(toks(a), toks(b), min_words=5)  # five words on both sides
    assert b[p.source_start:p.source_end] == "p1 p2 p3 p4 p5"


def test_a_passage_holds_its_minimum_in_words_of_the_source_too():
    # Words of the student's own between matched ones count as the suspect's words, not the
    # source's: a three-word phrase padded to eight words is not an eight-word borrowing.
    def no_stop(text):
        t = toks(text)
        keep = np.array([not w.startswith("s") for w in t.lemmas])
        return Tokens(
            text, t.starts[keep], t.ends[keep], tuple(np.array(t.lemmas)[keep].tolist()), t.hashes[keep],
            t.word_hashes[keep], t.sentence_ids[keep], t.sentence_spans, t.word_count, "en",
        )

    a = "Intro. w1 w2 s1 s2 s3 w3 w4 s4 w5. Outro."
    b = "Other. w1 w2 w3 w4 w5. More."
    assert align(no_stop(a), no_stop(b), min_words=8) == []
    (p,) = align(no_stop(a), no_stop(b), min_words=5)
    assert a[p.suspect_start:p.suspect_end] == "w1 w2 s1 s2 s3 w3 w4 s4 w5"


def test_suspect_region_maps_to_one_source_region():
    copied = " ".join(words(10, "w"))
    a = f"start {copied} end"
    b = f"{copied} middle filler words {copied} tail"
    ps = align(toks(a), toks(b), min_words=8)
    assert len(ps) == 1
    assert (ps[0].suspect_start, ps[0].suspect_end) == span(a, copied)
    assert ps[0].source_start in (0, b.index(copied, 1))


def test_passages_never_overlap_on_the_suspect_side():
    # The suspect repeats a phrase whose halves come from two different places.
    s1, s2 = words(12, "a"), words(12, "b")
    a = " ".join(s1 + s2 + s1)
    b = " ".join(s1 + ["gap"] * 20 + s2 + ["more"] * 20 + s1[6:] + s2)
    ps = align(toks(a), toks(b), min_words=5)
    for p, q in zip(ps, ps[1:]):
        assert p.suspect_end <= q.suspect_start
    assert sum(p.words for p in ps) == 36


def test_reordered_sentence_found_by_sentence_hash():
    a = "Intro words here. cats chase small grey mice daily. Outro text."
    b = "Other start now. daily mice grey small chase cats. Other end."
    (p,) = align(toks(a), toks(b), min_words=5, min_sentence_words=5)
    assert p.method == "sentence"
    assert (p.suspect_start, p.suspect_end) == span(a, "cats chase small grey mice daily")
    assert (p.source_start, p.source_end) == span(b, "daily mice grey small chase cats")


def test_spans_grow_over_identical_dropped_words():
    # "the" and "of" are not tokens (as stop words would not be); identical neighbours join.
    def stop(text):
        t = toks(text)
        keep = np.array([w not in ("the", "of") for w in t.lemmas])
        return Tokens(
            text, t.starts[keep], t.ends[keep], tuple(np.array(t.lemmas)[keep].tolist()), t.hashes[keep],
            t.word_hashes[keep], t.sentence_ids[keep], t.sentence_spans, t.word_count, "en",
        )

    core = " ".join(words(10, "w"))
    a = f"xx yy the {core} of zz"
    b = f"qq the {core} of rr"
    (p,) = align(stop(a), stop(b), min_words=8)
    assert a[p.suspect_start : p.suspect_end] == f"the {core} of"
    assert b[p.source_start : p.source_end] == f"the {core} of"


@pytest.mark.parametrize("n", [0, 1, 2])
def test_tiny_inputs(n):
    a = " ".join(words(n, "w"))
    assert align(toks(a), toks(a), min_words=1) == []


def test_two_long_texts_align_in_linear_time():
    """A guard against quadratic work, not a speed target (those are in bench/): a text four
    times longer may take at most ~10 times as long (linear: 4, quadratic: 16), and never
    more than 10 s however loaded the machine is."""
    import time

    rng = np.random.default_rng(0)
    vocab = [f"v{k}" for k in range(5000)]

    def timed(n):
        a = " ".join(rng.choice(vocab, n).tolist())
        b = " ".join(rng.choice(vocab, n).tolist()) + " " + a[: len(a) // 2]
        ta, tb = toks(a, sentences=False), toks(b, sentences=False)
        best = float("inf")
        for _ in range(2):
            t = time.perf_counter()
            ps = align(ta, tb)
            best = min(best, time.perf_counter() - t)
        assert sum(p.words for p in ps) >= n // 2 - 50  # the copied half (its edges may fall short)
        return best

    small, large = timed(37_500), timed(150_000)
    assert large < 10.0
    assert large < 10 * max(small, 0.01)


def test_join_equal_with_a_kept_sorted_side_gives_the_same_pairs():
    """Sorting the source once (Sorted) and searching each suspect in it (sorted once as well,
    or not) must give exactly the pairs, order and budget cuts of sorting the smaller side
    each time."""
    from sverka.core.align import Sorted

    rng = np.random.default_rng(5)
    for trial in range(300):
        nx, ny = int(rng.integers(0, 60)), int(rng.integers(0, 400))
        vocab = int(rng.integers(1, 40))
        x = rng.integers(0, vocab, nx).astype(np.uint64)
        y = rng.integers(0, vocab, ny).astype(np.uint64)
        max_repeats = int(rng.choice([0, 3, 50]))
        budget = int(rng.choice([0, 10, 200]))
        i0, j0 = join_equal(x, y, max_repeats, budget)
        i1, j1 = join_equal(x, y, max_repeats, budget, y_sorted=Sorted.of(y))
        assert i0.tolist() == i1.tolist() and j0.tolist() == j1.tolist(), (trial, max_repeats, budget)
        # the suspect sorted once too (searched in order, its repeats counted once)
        i2, j2 = join_equal(x, y, max_repeats, budget, y_sorted=Sorted.of(y), x_sorted=Sorted.of(x))
        assert i0.tolist() == i2.tolist() and j0.tolist() == j2.tolist(), (trial, max_repeats, budget)


def test_words_outside_reads_only_the_gaps_as_a_full_scan_would():
    """The kind of a passage looks at the words between its matched pieces; reading only the
    gaps must find exactly the words a scan of the whole passage finds outside the pieces
    (words running into or out of a piece included)."""
    import bisect

    from hypothesis import given, settings, strategies as st

    from sverka.core.intervals import merge as merge_ranges
    from sverka.core.kinds import _WORD, _norm, _words_outside

    def full_scan(text, start, end, spans):
        merged = merge_ranges(spans)
        starts = [p for p, _ in merged]
        out = []
        for m in _WORD.finditer(text, start, end):
            k = bisect.bisect_right(starts, m.start()) - 1
            if k < 0 or m.start() >= merged[k][1]:
                out.append((m.start(), _norm(m.group())))
        return out

    @settings(max_examples=400, deadline=None)
    @given(st.text("аб вгДёЕ,.-\nxy1'", max_size=30), st.data())
    def check(text, data):
        n = len(text)
        start = data.draw(st.integers(0, n))
        end = data.draw(st.integers(start, n))
        cuts = data.draw(st.lists(st.tuples(st.integers(start, end), st.integers(start, end)), min_size=1, max_size=4))
        spans = sorted((min(x, y), max(x, y)) for x, y in cuts)
        assert _words_outside(text, start, end, spans) == full_scan(text, start, end, spans)

    check()


@given(st.lists(st.text(alphabet=st.characters(blacklist_characters="\x1f"), max_size=6), max_size=8))
@settings(max_examples=200, deadline=None)
def test_words_normalised_together_as_one_by_one(words):
    from sverka.core.kinds import _norm, _norms

    words = [w for w in words if w] + ["ΑΣ", "ΌΣΟΣ", "İ", "Ёж"]  # a final sigma, a lowering that lengthens
    assert _norms(words) == [_norm(w) for w in words]
