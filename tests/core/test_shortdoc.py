"""Short documents: the 15 longest words (ALGORITHMS.md §4, seed 000)."""

from __future__ import annotations

import numpy as np
import pytest

from hypothesis import given, settings
from hypothesis import strategies as st

from sverka.core.fingerprints import full_text_hash, longest_words, short_similarity
from sverka.core.hashing import hash_bytes, hash_text


def test_longest_words_choice():
    words = "продам срочно дом дом большой участок яблоневый сад баня гараж рядом лес".split()
    chosen = longest_words(words, count=5)
    # distinct, >= 4 letters, longest first, ties by the word: яблоневый(9) большой(7) участок(7) продам(6) срочно(6)
    expected = ["яблоневый", "большой", "участок", "продам", "срочно"]
    assert chosen.dtype == np.uint64
    assert chosen.tolist() == [hash_text(w) for w in expected]
    assert len(longest_words(words)) == 8  # fewer than 15: every word of >= 4 letters once
    assert hash_text("дом") not in longest_words(words).tolist()
    assert longest_words([]).shape == (0,)


def test_longest_words_is_deterministic():
    words = [f"слово{i:02d}" for i in range(40)]
    assert longest_words(words).tolist() == longest_words(words[::-1]).tolist()
    assert longest_words(words).tolist() == [hash_text(f"слово{i:02d}") for i in range(15)]


@pytest.mark.parametrize(
    ("a", "b", "percent"),
    [
        # 3 shared words of the shorter list of 4: 75 %
        ("аааа бббб вввв гггг", "аааа бббб вввв дддд ееее жжжж", 75.0),
        ("аааа бббб", "аааа бббб вввв гггг", 100.0),  # the short text lies wholly inside
        ("аааа бббб", "вввв гггг", 0.0),
        ("", "аааа", 0.0),
    ],
)
def test_short_similarity_formula(a, b, percent):
    ha, hb = longest_words(a.split()), longest_words(b.split())
    assert short_similarity(ha, hb) == pytest.approx(percent)
    assert short_similarity(hb, ha) == pytest.approx(percent)  # symmetric: min of the lengths


def test_full_text_hash():
    assert full_text_hash("Продам дом.\n\n  Недорого ") == full_text_hash("Продам дом. Недорого")
    assert full_text_hash("Продам дом.") != full_text_hash("Продам дом!")
    assert full_text_hash("x") == hash_bytes("x".encode("utf-32-le"))


def test_white_space_is_str_isspace():
    """Every code point (surrogates too) counts as white space exactly when str.isspace says so."""
    base = full_text_hash("a b")
    spaces = [c for c in range(0x110000) if full_text_hash(f"a{chr(c)}b") == base]
    assert spaces == [c for c in range(0x110000) if chr(c).isspace()]


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("аб x\t\n\r\u00a0\u2003\u3000\u0085\u200b\ud800.")), max_size=30))
def test_full_text_hash_is_hash_of_split_join(text):
    assert full_text_hash(text) == hash_bytes(" ".join(text.split()).encode("utf-32-le", "surrogatepass"))


@settings(max_examples=200, deadline=None)
@given(st.lists(st.text(alphabet="абвгд", max_size=9), max_size=60), st.integers(0, 20), st.integers(1, 6))
def test_longest_words_matches_a_plain_sort(words, count, min_len):
    expected = sorted({w for w in words if len(w) >= min_len}, key=lambda w: (-len(w), w))[:count]
    assert longest_words(words, count, min_len).tolist() == [hash_text(w) for w in expected]
