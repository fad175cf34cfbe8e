"""Shingles, measures and sampling (ALGORITHMS.md §2)."""

from __future__ import annotations

import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sverka.core.fingerprints import (
    anchor_shingles,
    anchors,
    containment,
    dice,
    manber_sample,
    resemblance,
    shingle_count,
    shingle_hashes,
    shingle_starts,
    shingle_token_range,
    winnow,
)
from sverka.core.hashing import hash_text


def token_hashes(words) -> np.ndarray:
    return np.array([hash_text(str(w)) for w in words], dtype=np.uint64)


ROSE = "a rose is a rose is a rose".split()


def test_rose_vector():
    h = shingle_hashes(token_hashes(ROSE), 4)
    assert h.dtype == np.uint64
    assert len(h) == 5
    assert len(np.unique(h)) == 3
    # (a rose is a) at 0 and 3, (rose is a rose) at 1 and 4, (is a rose is) at 2
    assert h[0] == h[3] and h[1] == h[4]
    assert len({int(h[0]), int(h[1]), int(h[2])}) == 3


def test_shingle_hash_golden_value():
    """Pins the documented formula: changing it invalidates every stored collection."""
    h = shingle_hashes(token_hashes(ROSE), 4)
    assert int(h[0]) == 0x8CB35C8B7DE68D5F
    assert int(h[1]) == 0x35FE32BE23F814DA


@pytest.mark.parametrize(
    ("n", "w", "step", "count"),
    [
        (8, 4, 1, 5),  # overlapping: n - w + 1
        (8, 4, 4, 2),  # adjacent ("встык"): n // w
        (10, 4, 4, 2),
        (9, 3, 2, 4),  # overlap of one token
        (3, 4, 1, 0),  # too few tokens
        (0, 1, 1, 0),
        (4, 4, 1, 1),
    ],
)
def test_shingle_counts_and_ranges(n, w, step, count):
    t = token_hashes(range(n))
    h = shingle_hashes(t, w, step)
    assert len(h) == count == shingle_count(n, w, step)
    starts = shingle_starts(n, w, step)
    assert len(starts) == count
    for i in range(count):
        first, last = shingle_token_range(i, w, step)
        assert (first, last) == (starts[i], starts[i] + w)
        assert last <= n
        # each shingle equals the overlapping shingle starting at the same token
        assert h[i] == shingle_hashes(t[first:last], w)[0]


def test_order_sensitive_and_length_specific():
    t = token_hashes("один два три".split())
    assert shingle_hashes(t, 3)[0] != shingle_hashes(t[::-1].copy(), 3)[0]
    assert shingle_hashes(t[:2], 2)[0] != shingle_hashes(t, 3)[0]
    assert len(np.unique(shingle_hashes(token_hashes(range(20000)), 1))) == 20000


def test_bad_parameters():
    with pytest.raises(ValueError):
        shingle_hashes(token_hashes("a b".split()), 0)
    with pytest.raises(ValueError):
        shingle_hashes(token_hashes("a b".split()), 2, 0)


# -- seed 003: the PHP reference ------------------------------------------------------

SEED_003_STOP = set("это как так в на над к ко до за то с со для о ну же ж что он она б бы ли и у".split())
SEED_003_PUNCT = re.compile(r"[,.!?()\-—:;\"]")


def php_canonize(text: str) -> list[str]:
    """Seed 003's canonize(): split on spaces, lower-case, drop punctuation and stop words."""
    out = []
    for word in text.split(" "):
        word = SEED_003_PUNCT.sub("", word.lower())
        if word and word not in SEED_003_STOP:
            out.append(word.strip())
    return out


def php_analyze(source1: str, source2: str) -> float:
    """Seed 003's analyze() with its quirk: shared shingles / WORDS of the first argument."""
    words1 = php_canonize(source1)
    shingles1 = shingle_hashes(token_hashes(words1), 3)
    shingles2 = shingle_hashes(token_hashes(php_canonize(source2)), 3)
    intersection = np.isin(shingles1, shingles2)  # array_intersect keeps shingles1's order
    return intersection.sum() / len(words1) * 100


def test_seed_003_php_score():
    text1 = "Текст для сравнения номер один"
    text2 = "Текст для сравнения номер два"
    assert php_canonize(text2) == ["текст", "сравнения", "номер", "два"]
    a = shingle_hashes(token_hashes(php_canonize(text2)), 3)
    b = shingle_hashes(token_hashes(php_canonize(text1)), 3)
    assert len(np.intersect1d(a, b)) == 1  # (текст сравнения номер)
    assert php_analyze(text2, text1) == pytest.approx(25.0)
    # our measures on the same shingles: 1 shared of 2 each
    assert containment(a, b) == pytest.approx(0.5)
    assert resemblance(a, b) == pytest.approx(1 / 3)
    assert dice(a, b) == pytest.approx(0.5)


# -- measures -------------------------------------------------------------------------

U = np.uint64


@pytest.mark.parametrize(
    ("a", "b", "jac", "dic", "cont"),
    [
        ([1, 2, 3, 4], [3, 4, 5, 6], 2 / 6, 4 / 8, 2 / 4),
        ([1, 2], [1, 2, 3, 4, 5, 6, 7, 8], 2 / 8, 4 / 10, 1.0),  # a fragment inside a long text
        ([1, 1, 2], [1, 2, 2], 1.0, 1.0, 1.0),  # sets: repeats ignored
        ([], [1, 2], 0.0, 0.0, 0.0),
        ([1, 2], [], 0.0, 0.0, 0.0),
        ([], [], 0.0, 0.0, 0.0),
    ],
)
def test_set_measures(a, b, jac, dic, cont):
    a, b = np.array(a, dtype=U), np.array(b, dtype=U)
    assert resemblance(a, b) == pytest.approx(jac)
    assert dice(a, b) == pytest.approx(dic)
    assert containment(a, b) == pytest.approx(cont)


def test_multiset_measures():
    a = np.array([1, 1, 1, 2], dtype=U)
    b = np.array([1, 2, 2, 3], dtype=U)
    # ∩ = {1:1, 2:1} = 2; ∪ = {1:3, 2:2, 3:1} = 6
    assert resemblance(a, b, multiset=True) == pytest.approx(2 / 6)
    assert dice(a, b, multiset=True) == pytest.approx(4 / 8)
    assert containment(a, b, multiset=True) == pytest.approx(2 / 4)


# -- sampling -------------------------------------------------------------------------


def test_manber_sample():
    h = np.array([0b1000, 0b0100, 0b0111, 0, 0b10000], dtype=U)
    assert manber_sample(h, 3).tolist() == [0, 3, 4]
    assert manber_sample(h, 0).tolist() == [0, 1, 2, 3, 4]
    big = shingle_hashes(token_hashes(range(40000)), 4)
    share = len(manber_sample(big, 4)) / len(big)
    assert 0.05 < share < 0.075  # about 1/16


def winnow_reference(h: list[int], k: int) -> list[int]:
    """Schleimer et al.'s robust winnowing, written as in the paper: one window at a time."""
    if not h:
        return []
    k = min(k, len(h))
    out: list[int] = []
    prev = -1
    for i in range(len(h) - k + 1):
        window = h[i : i + k]
        m = min(window)
        if prev >= i and h[prev] == m:
            continue  # keep the previous choice
        prev = i + max(j for j, v in enumerate(window) if v == m)  # rightmost minimum
        out.append(prev)
    return out


@pytest.mark.parametrize(
    ("h", "k", "expected"),
    [
        ([77, 74, 42, 17, 98, 50, 17, 98, 8, 88, 67, 39, 77, 74, 42, 17, 98], 4, [3, 6, 8, 11, 15]),  # the paper's
        ([5, 5, 5, 5, 5], 2, [1, 3]),  # rightmost on ties, then kept while in the window
        ([5, 5, 5, 5, 5, 5], 3, [2, 5]),
        ([3, 1, 2], 5, [1]),  # fewer hashes than k: one window
        ([], 4, []),
        ([9, 8, 7], 1, [0, 1, 2]),
    ],
)
def test_winnow_examples(h, k, expected):
    assert winnow(np.array(h, dtype=U), k).tolist() == expected
    assert winnow_reference(h, k) == expected


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 6), max_size=60), st.integers(1, 8))
def test_winnow_matches_reference(values, k):
    got = winnow(np.array(values, dtype=U), k)
    assert got.dtype == np.int64
    assert got.tolist() == winnow_reference(values, k)


@settings(max_examples=200, deadline=None)
@given(
    w=st.integers(1, 6),
    k=st.integers(1, 8),
    vocab=st.integers(2, 50),
    data=st.data(),
)
def test_winnowing_guarantee(w, k, vocab, data):
    """Any shared run of w + k - 1 tokens between two sequences yields a shared fingerprint."""
    tokens = st.lists(st.integers(0, vocab), max_size=40)
    run = data.draw(st.lists(st.integers(0, vocab), min_size=w + k - 1, max_size=w + k - 1))
    a = data.draw(tokens) + run + data.draw(tokens)
    b = data.draw(tokens) + run + data.draw(tokens)
    ha = shingle_hashes(token_hashes(a), w)
    hb = shingle_hashes(token_hashes(b), w)
    fa = ha[winnow(ha, k)]
    fb = hb[winnow(hb, k)]
    assert len(np.intersect1d(fa, fb)) >= 1


def test_winnow_density_and_speed_shape():
    h = shingle_hashes(token_hashes(range(100000)), 4)
    picked = winnow(h, 4)
    assert np.all(np.diff(picked) > 0)
    assert 2 / 5 * 0.95 < len(picked) / len(h) < 2 / 5 * 1.05  # density 2 / (k + 1)


def test_anchors_are_content_defined():
    words = [f"w{i}" for i in range(3000)]
    t = token_hashes(words)
    pos = anchors(t, 10)
    assert 150 < len(pos) < 450
    # an insertion shifts the anchors after it but keeps them on the same words
    t2 = token_hashes(words[:1000] + ["inserted", "words"] + words[1000:])
    pos2 = anchors(t2, 10)
    assert [words[p] for p in pos if p < 1000] == [words[p] for p in pos2 if p < 1000]
    assert {words[p] for p in pos if p >= 1000} <= {(words[:1000] + ["inserted", "words"] + words[1000:])[p] for p in pos2}
    starts, hashes = anchor_shingles(t, 4, 10)
    assert np.all(starts + 4 <= len(t))
    assert np.array_equal(hashes, shingle_hashes(t, 4)[starts])
