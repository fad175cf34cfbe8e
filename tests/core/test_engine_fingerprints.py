"""The compiled engine's fingerprints against the NumPy implementations they replaced.

Differential tests: every array of ``sverka._engine`` equals that of the oracle
(tests/core/fingerprint_oracle.py) bit for bit, on random arrays (ties and repeats
included), on small cases worked by hand, and on real texts of ../shared/data/ruslit
after random edits (skipped when the corpus is absent). Equal arrays mean equal stored
hashes: the collection format does not change.
"""

from __future__ import annotations

import threading
from functools import lru_cache

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import fingerprint_oracle as oracle
from conftest import RUSLIT
from sverka.core import minhash, sentences, shingles, shortdoc
from sverka.core.keys import MAX_REPEATS, PAIR_WORDS
from sverka.core.fingerprints import fingerprint_document
from sverka.core.hashing import HASH_SEED
from sverka.core.settings import Settings
from sverka.core.text import canonize

u64s = st.lists(st.integers(0, 2**64 - 1), max_size=300).map(lambda v: np.array(v, dtype=np.uint64))
# Few distinct values: windows full of ties, the hard case of robust winnowing.
tied = st.lists(st.integers(0, 3), max_size=200).map(lambda v: np.array(v, dtype=np.uint64))


def same(a: np.ndarray, b: np.ndarray) -> None:
    assert a.dtype == b.dtype, (a.dtype, b.dtype)
    assert a.shape == b.shape
    assert np.array_equal(a, b)


@settings(max_examples=300, deadline=None)
@given(st.one_of(u64s, tied), st.integers(1, 9), st.integers(1, 9))
def test_shingle_hashes(t, w, step):
    same(shingles.shingle_hashes(t, w, step), oracle.shingle_hashes(t, w, step))


@settings(max_examples=400, deadline=None)
@given(st.one_of(u64s, tied), st.integers(1, 12))
def test_winnow(h, k):
    same(shingles.winnow(h, k), oracle.winnow(h, k))


@settings(max_examples=200, deadline=None)
@given(u64s, st.integers(1, 9), st.integers(1, 20))
def test_anchors_and_mix64(t, w, modulus):
    same(shingles.mix64(t), oracle.mix64(t))
    same(shingles.anchors(t, modulus), oracle.anchors(t, modulus))
    for got, expected in zip(shingles.anchor_shingles(t, w, modulus), oracle.anchor_shingles(t, w, modulus)):
        same(got, expected)


@settings(max_examples=200, deadline=None)
@given(st.one_of(u64s, tied), st.integers(1, 100), st.integers(0, 2**64 - 1))
def test_minhash_signature(x, n, seed):
    same(minhash.minhash_signature(x, n, seed), oracle.minhash_signature(x, n, seed))


def test_minhash_signature_over_many_blocks():
    x = np.random.default_rng(5).integers(0, 2**64 - 1, 10_000, dtype=np.uint64, endpoint=True)
    same(minhash.minhash_signature(x, 84), oracle.minhash_signature(x, 84, HASH_SEED))


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 2**64 - 1), min_size=1, max_size=90), st.data())
def test_super_and_mega_shingles(values, data):
    sig = np.array(values, dtype=np.uint64)
    groups = data.draw(st.integers(1, len(sig)))
    supers = minhash.super_shingles(sig, groups)
    same(supers, oracle.super_shingles(sig, groups))
    same(minhash.mega_shingles(supers), oracle.mega_shingles(supers))


def test_empty_signature_gives_no_super_shingles():
    empty = np.full(84, minhash.EMPTY, dtype=np.uint64)
    same(minhash.super_shingles(empty, 6), np.empty(0, np.uint64))
    same(minhash.mega_shingles(np.empty(0, np.uint64)), np.empty(0, np.uint64))


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 2**64 - 1), st.integers(0, 7)), max_size=60), st.booleans())
def test_sentence_hashes_and_seq2(pairs, in_order):
    if in_order:
        pairs = sorted(pairs, key=lambda p: p[1])
    wh = np.array([p[0] for p in pairs], dtype=np.uint64)
    ids = np.array([p[1] for p in pairs], dtype=np.int32)  # Tokens.sentence_ids is int32
    got, expected = sentences.sentence_hashes(wh, ids, 8), oracle.sentence_hashes(wh, ids, 8)
    same(got[0], expected[0])
    same(got[1], expected[1])
    same(sentences.seq2(got[0]), oracle.seq2(expected[0]))


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: shingles.shingle_hashes(np.zeros(3, np.uint64), 0), "shingle length must be >= 1, got 0"),
        (lambda: shingles.shingle_hashes(np.zeros(3, np.uint64), -2), "shingle length must be >= 1, got -2"),
        (lambda: shingles.shingle_hashes(np.zeros(3, np.uint64), 2, 0), "shingle step must be >= 1, got 0"),
        (lambda: shingles.winnow(np.zeros(3, np.uint64), 0), "winnow window must be >= 1, got 0"),
        (lambda: shingles.anchors(np.zeros(3, np.uint64), 0), "modulus must be >= 1, got 0"),
        (lambda: minhash.minhash_signature(np.zeros(3, np.uint64), 0), "at least one min-hash function"),
        (lambda: minhash.super_shingles(np.zeros(5, np.uint64), 6), "cannot split 5 values into 6 groups"),
        (lambda: sentences.sentence_hashes(np.zeros(2, np.uint64), np.zeros(3, np.int64), 1),
         "2 word hashes but 3 sentence ids"),
        (lambda: sentences.sentence_hashes(np.zeros(1, np.uint64), np.array([4]), 3), "sentence ids outside 0..2"),
    ],
)
def test_bad_arguments_say_which(call, message):
    with pytest.raises(ValueError, match=message):
        call()


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("аБ x\t\n\r\u00a0\u2003\u3000\u0085\u200b\ud800\U0001F600\x1c.")),
               max_size=40))
def test_full_text_hash(text):
    assert shortdoc.full_text_hash(text) == oracle.full_text_hash(text)


def test_by_hand():
    """Small cases worked on paper."""
    # Windows of 3 over 5 1 4 1 9 1 7: 1 (pos 1), keeps 1, moves to 3, keeps 3, moves to 5.
    assert shingles.winnow(np.array([5, 1, 4, 1, 9, 1, 7], np.uint64), 3).tolist() == [1, 3, 5]
    # Sentences 0, 0, 2 (and 1 empty): SH 1+2 and 2**64-1+5 wrapping to 4.
    seq1, index = sentences.sentence_hashes(np.array([1, 2, 2**64 - 1, 5], np.uint64), np.array([0, 0, 2, 2]), 3)
    assert seq1.tolist() == [3, 4] and index.tolist() == [0, 2]
    assert sentences.seq2(seq1).tolist() == [7, 4]
    assert shortdoc.full_text_hash(" Мороз\u00a0 и\n солнце ") == shortdoc.full_text_hash("Мороз и солнце")


def test_threads_share_the_engine():
    """The engine releases the GIL: four threads fingerprinting at once get what one thread gets."""
    rng = np.random.default_rng(11)
    inputs = [rng.integers(0, 2**63, 200_000, dtype=np.uint64) for _ in range(4)]
    expected = [shingles.winnow(shingles.shingle_hashes(t, 5), 4) for t in inputs]
    results: list = [None] * 4

    def work(i: int) -> None:
        results[i] = shingles.winnow(shingles.shingle_hashes(inputs[i], 5), 4)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for got, want in zip(results, expected):
        same(got, want)


# -- real texts after random edits -----------------------------------------------------


@lru_cache(maxsize=1)
def _ruslit_words() -> tuple[str, ...]:
    """The words (split on white space, punctuation kept) of some prose of ruslit, in order."""
    files = sorted((RUSLIT / "prose").rglob("*.txt"))[::9]
    return tuple(w for f in files for w in f.read_text("utf-8", "replace")[:40_000].split())


def _edited(words: tuple[str, ...], start: int, size: int, edits: list[tuple[int, int, int]]) -> str:
    """A window of the corpus, then each edit (kind, at, length): 0 deletes, 1 repeats,
    2 moves words from elsewhere in, 3 breaks a sentence."""
    out = list(words[start : start + size])
    for kind, at, length in edits:
        at %= max(1, len(out))
        if kind == 0:
            del out[at : at + length]
        elif kind == 1:
            out[at:at] = out[at : at + length]
        elif kind == 2:
            source = (at * 7919) % max(1, len(words) - length)
            out[at:at] = words[source : source + length]
        else:
            out[at:at] = ["."]
    return " ".join(out)


FIELDS = ("all_shingles", "shingle_hashes", "shingle_positions", "sentence_seq1", "sentence_index",
          "sentence_seq2", "minhash", "super_shingles", "mega_shingles", "pair_hashes", "pair_positions")


def _oracle_field(doc, name: str):
    t = doc.tokens
    w = doc.shingle_words
    all_shingles = oracle.shingle_hashes(t.hashes, w)
    picked = oracle.winnow(all_shingles, doc.winnow_window)
    seq1, index = oracle.sentence_hashes(t.word_hashes, t.sentence_ids, len(t.sentence_spans))
    sig = oracle.minhash_signature(np.unique(all_shingles), 84, HASH_SEED)
    supers = oracle.super_shingles(sig, 6) if len(all_shingles) else np.empty(0, np.uint64)
    return {
        "all_shingles": all_shingles,
        "shingle_hashes": all_shingles[picked],
        "shingle_positions": picked,
        "sentence_seq1": seq1,
        "sentence_index": index,
        "sentence_seq2": oracle.seq2(seq1),
        "minhash": sig,
        "super_shingles": supers,
        "mega_shingles": oracle.mega_shingles(supers),
    }.get(name)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    st.integers(0, 10**9),
    st.integers(0, 2500),
    st.lists(st.tuples(st.integers(0, 3), st.integers(0, 10**6), st.integers(1, 40)), max_size=12),
)
def test_real_texts_after_random_edits(ruslit, start, size, edits):
    words = _ruslit_words()
    text = _edited(words, start % max(1, len(words) - size), size, edits)
    doc = fingerprint_document(canonize(text), Settings())
    for name in FIELDS:
        expected = _oracle_field(doc, name)
        if expected is not None:
            same(getattr(doc, name), expected)
    assert doc.text_hash == oracle.full_text_hash(text)
    # The retrieval keys: the shingles of PAIR_WORDS tokens less those repeated too often.
    pairs = oracle.shingle_hashes(doc.tokens.hashes, PAIR_WORDS)
    values, counts = np.unique(pairs, return_counts=True)
    keep = ~np.isin(pairs, values[counts > MAX_REPEATS]) if len(pairs) > MAX_REPEATS else np.ones(len(pairs), bool)
    same(doc.pair_hashes, pairs[keep])
    same(doc.pair_positions, np.flatnonzero(keep).astype(np.int64))


def test_arrays_over_stored_blobs_at_any_offset():
    """A stored blob read at an odd offset gives an unaligned array: the engine still reads it."""
    values = np.arange(1, 10, dtype="<u8")
    unaligned = np.frombuffer(b"\0" + values.tobytes(), dtype="<u8", offset=1)
    assert not unaligned.flags.aligned
    same(shingles.shingle_hashes(unaligned, 3), oracle.shingle_hashes(values, 3))
    same(sentences.seq2(unaligned), oracle.seq2(values))
    same(minhash.minhash_signature(unaligned, 5), oracle.minhash_signature(values, 5, HASH_SEED))
