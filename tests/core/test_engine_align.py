"""The engine's alignment against the Python alignment it replaced (tests/core/align_oracle.py).

Seeds joined (repeat limit, pair budget, sorted views), runs, sentence segments and chaining
run in ``sverka._engine``; the passages must be the oracle's exactly: spans, pieces, words,
matched words, methods and kinds. Random token arrays full of repeats and ties, hand-made
cases, texts of ../shared/data/ruslit after random edits and pairs of its PAN-2013 sample
(skipped when they are absent).
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import align_oracle as oracle
from sverka.core import align
from sverka.core.align import SourceSide, Sorted, join_equal
from sverka.core.kinds import passage_kind
from sverka.core.settings import Settings
from sverka.core.text import canonize
from test_align import toks
from test_engine_fingerprints import _edited, _ruslit_words


def pairs(i: np.ndarray, j: np.ndarray) -> list[tuple[int, int]]:
    return list(zip(i.tolist(), j.tolist()))


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 12), max_size=60), st.lists(st.integers(0, 12), max_size=60),
       st.sampled_from([0, 1, 2, 5]), st.sampled_from([0, 1, 5, 30, 200]), st.booleans(), st.booleans())
def test_join_equal_gives_the_oracles_pairs(x, y, max_repeats, budget, sort_x, sort_y):
    """Every pair of equals, the repeat limit and the budget (ties among the values making as
    many pairs as the one passing it dropped alike), whichever side comes sorted."""
    x, y = np.array(x, np.uint64), np.array(y, np.uint64)
    expected = oracle.join_equal(x, y, max_repeats, budget)
    got = join_equal(x, y, max_repeats, budget, y_sorted=Sorted.of(y) if sort_y else None,
                     x_sorted=Sorted.of(x) if sort_x else None)
    assert pairs(*got) == pairs(*expected)
    assert got[0].dtype == np.int64 and got[1].dtype == np.int64


def test_join_equal_budget_by_hand():
    # value 1: 3 x 3 = 9 pairs, value 2: 1 x 2, value 3: 1 x 1; a budget of 5 keeps 2 and 3
    x = np.array([1, 1, 1, 2, 3], np.uint64)
    y = np.array([3, 1, 2, 1, 2, 1], np.uint64)
    assert pairs(*join_equal(x, y, 0, 5)) == [(3, 2), (3, 4), (4, 0)]
    assert pairs(*join_equal(x, y, 0, 5)) == pairs(*oracle.join_equal(x, y, 0, 5))


def same_passages(a, b, **kw) -> list:
    got = align.align(a, b, kind_of=passage_kind, **kw)
    expected = oracle.align(a, b, kind_of=passage_kind, **kw)
    assert got == expected
    return got


# Texts of few distinct words: repeats, ties of runs and chains, sentences of equal hashes.
_WORDS = st.sampled_from("альфа бета гамма дельта эпсилон дзета эта тета йота каппа".split())
_TEXT = st.lists(st.one_of(_WORDS, st.just(".")), min_size=0, max_size=90).map(
    lambda ws: " ".join(ws).replace(" .", "."))


@settings(max_examples=250, deadline=None)
@given(_TEXT, _TEXT, st.data())
def test_random_token_arrays_give_the_oracles_passages(ta, tb, data):
    a, b = toks(ta), toks(tb)
    b = toks(tb + " " + ta[: data.draw(st.integers(0, len(ta)))])  # part of a copied into b
    same_passages(a, b,
                  seed_words=data.draw(st.integers(1, 3)),
                  max_gap=data.draw(st.integers(0, 8)),
                  min_words=data.draw(st.integers(1, 10)),
                  min_sentence_words=data.draw(st.sampled_from([0, 2, 5])),
                  max_seed_repeats=data.draw(st.sampled_from([0, 3, 50])),
                  a_first=data.draw(st.integers(0, 6)))


@settings(max_examples=150, deadline=None)
@given(st.lists(st.integers(0, 6), min_size=5, max_size=200), st.lists(st.integers(0, 6), max_size=80),
       st.integers(0, 5))
def test_repetitive_texts_give_the_oracles_passages(a_words, b_words, cut):
    """A text of a handful of words repeated: the budget of seeds and the limit of runs bite."""
    ta = " ".join(f"w{k}" for k in a_words)
    tb = " ".join(f"w{k}" for k in b_words) + " " + ta
    same_passages(toks(ta, sentences=False), toks(tb, sentences=False), min_words=3, max_gap=cut)


def test_kept_sides_give_the_same_passages():
    """A source's and a suspect's own parts kept by the caller (SourceSide): the same passages."""
    copied = " ".join(f"с{k}" for k in range(30))
    a = toks(f"начало тут. {copied}. конец.")
    b = toks(f"другое начало. {copied} и ещё. хвост.")
    kw = dict(seed_words=2, min_sentence_words=5)
    plain = same_passages(a, b, **kw)
    assert plain and plain[0].words >= 30
    kept = align.align(a, b, b_side=SourceSide.of(b, 2, 5), a_side=SourceSide.of(a, 2, 5), kind_of=passage_kind, **kw)
    assert kept == plain


def test_source_window_is_the_engines():
    from sverka.core.engine import native

    assert align.SOURCE_WINDOW == native.SOURCE_WINDOW == oracle.SOURCE_WINDOW


def test_bad_segments_are_refused_with_a_reason():
    from sverka.core.engine import native

    sid = np.zeros(3, np.int32)
    h = np.arange(3, dtype=np.uint64)
    with pytest.raises(ValueError, match="segment"):
        native.chain(np.array([0, 9, 0, 2], np.int64), np.array([False]), sid, h, h, sid, 6, 2,
                     np.zeros(0, np.int64), np.zeros(0, np.int64))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    st.integers(0, 10**9),
    st.integers(200, 2500),
    st.lists(st.tuples(st.integers(0, 3), st.integers(0, 10**6), st.integers(1, 40)), max_size=12),
    st.integers(0, 10**9),
)
def test_real_texts_after_random_edits(ruslit, start, size, edits, other):
    """A window of ruslit's prose edited (words deleted, repeated, moved in, sentences broken)
    inside other prose, aligned against the window as it was: the oracle's passages, kinds
    included."""
    words = _ruslit_words()
    start %= max(1, len(words) - size)
    source = " ".join(words[start : start + size])
    at = other % max(1, len(words) - 600)
    suspect = " ".join(words[at : at + 300]) + " " + _edited(words, start, size, edits) + " " + \
        " ".join(words[at + 300 : at + 600])
    s = Settings()
    a, b = canonize(suspect), canonize(source)
    found = same_passages(a, b, seed_words=s.align_seed_words, max_gap=s.max_gap_words, min_words=8,
                          min_sentence_words=s.min_sentence_words)
    if not edits:  # the window copied as it was: found
        assert sum(p.matched_words for p in found) >= size // 2


def test_pan13_pairs_give_the_oracles_passages(pan13):
    """English web pages of the PAN-2013 sample (every 8th listed pair, the suspicious
    document against its source): the oracle's passages, kinds included."""
    s = Settings()
    lines = (pan13 / "pairs").read_text("utf-8").split("\n")
    pairs = [line.split() for line in lines if line.strip()][::8]
    found = 0
    for susp, src in pairs:
        a = canonize((pan13 / "susp" / susp).read_text("utf-8", "replace"))
        b = canonize((pan13 / "src" / src).read_text("utf-8", "replace"))
        found += len(same_passages(a, b, seed_words=s.align_seed_words, max_gap=s.max_gap_words, min_words=8,
                                   min_sentence_words=s.min_sentence_words))
    assert found >= len(pairs) // 2  # most annotated pairs share a passage
