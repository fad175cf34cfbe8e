"""The compiled engine's word scan and hash index against the NumPy implementation they replaced.

Differential tests: on random texts full of what makes words subtle, and on real texts of
../shared/data/ruslit after random edits (skipped when the corpus is absent), the engine
(sverka.core.scan) finds the same words as the oracle (tests/core/scan_oracle.py) and
declines the same texts; equal words get equal hashes and different words different ones in
both (the hashes themselves differ: each is a random hash of its process, never stored).
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import scan_oracle as oracle
from sverka.core import scan
from test_engine_fingerprints import _edited, _ruslit_words
from test_scan import ALPHABET, DENSE


def same_partition(a: np.ndarray, b: np.ndarray) -> None:
    """Equal values at the same places in ``a`` as in ``b``: the two hashes tell the same words apart."""
    _, ia = np.unique(a, return_inverse=True)
    _, ib = np.unique(b, return_inverse=True)
    first_a = {}
    assert len(a) == len(b)
    for x, y in zip(ia.tolist(), ib.tolist()):
        assert first_a.setdefault(x, y) == y
    assert len(set(ia.tolist())) == len(set(ib.tolist()))


def agree(text: str) -> None:
    got, expected = scan.words(text), oracle.words(text)
    assert (got is None) == (expected is None), text
    if got is None:
        return
    assert got[0].tolist() == expected[0].tolist()
    assert got[1].tolist() == expected[1].tolist()
    assert got[0].dtype == expected[0].dtype == np.int64
    # 0 (a word never hashed: longer than MAX_HASHED) in the same places
    assert ((got[2] == 0) == (expected[2] == 0)).all()
    same_partition(got[2], expected[2])


@settings(max_examples=500, deadline=None)
@given(st.one_of(st.lists(st.sampled_from(ALPHABET), max_size=80).map("".join),
                 st.lists(st.sampled_from(DENSE), max_size=30).map("".join)))
def test_random_texts(text):
    agree(text)


@pytest.mark.parametrize("text", [
    "", " ", "ы", "Кни́га на столе́, кто-то - пришёл.", "кни-\nга", "кни- \r\n га", "кни-  ", "дом-\n1",
    "конец-\n\nНовый", "сло\u200bво", "сло\u00adво", "\ufeffСлово за словом", "a \u0301b", "ok 😀",
    "x² Ⅻвек", "Б\ufeff\u00ad\t \nслово", "слово-", "-слово", "\u0301", "слово\u200b",
    "ы" * 300 + " ок ы", "\ud800слово",
])
def test_by_hand(text):
    agree(text)


@settings(max_examples=40, deadline=None)
@given(
    st.integers(0, 10**9),
    st.integers(0, 3000),
    st.lists(st.tuples(st.integers(0, 3), st.integers(0, 10**6), st.integers(1, 40)), max_size=12),
    st.sampled_from(["", "-\n", "\u00ad", "\u0301", "\u200b", "😀", "ё"]),
)
def test_real_texts_after_random_edits(ruslit, start, size, edits, sprinkle):
    words = _ruslit_words()
    text = _edited(words, start % max(1, len(words) - size), size, edits)
    if sprinkle and text:  # one subtle character put in a word somewhere
        at = (start * 31) % len(text)
        text = text[:at] + sprinkle + text[at:]
    agree(text)


def test_hash_strings_agree_with_the_oracle():
    strings = ["слово", "", "a" * (scan.MAX_HASHED + 1), "x😀", "слово", "Слово", "ы" * scan.MAX_HASHED]
    got, expected = scan.hash_strings(strings), oracle.hash_strings(strings)
    assert ((got == 0) == (expected == 0)).all()
    same_partition(got, expected)


def test_hash_index_agrees_with_the_oracle():
    rng = np.random.default_rng(9)
    ours, theirs = scan.HashIndex(), oracle.HashIndex()
    pool = rng.integers(1, 1 << 63, 3000, dtype=np.uint64)  # hashes given again and again, with new ids
    for _ in range(20):
        hashes = np.concatenate([pool[rng.integers(0, len(pool), int(rng.integers(0, 2000)))],
                                 rng.integers(1, 1 << 63, 200, dtype=np.uint64), np.zeros(3, np.uint64)])
        ids = rng.integers(0, 1 << 31, len(hashes))
        ours.add(hashes, ids)
        theirs.add(hashes, ids)
        probe = np.concatenate([pool, rng.integers(1, 1 << 63, 500, dtype=np.uint64), np.zeros(1, np.uint64)])
        assert ours.get(probe).tolist() == theirs.get(probe).tolist()
        assert len(ours) == len(theirs)
