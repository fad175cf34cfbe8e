"""Min-hash, super- and mega-shingles (ALGORITHMS.md §3)."""

from __future__ import annotations

import numpy as np
import pytest

from sverka.core.fingerprints import (
    EMPTY,
    mega_shingles,
    minhash_resemblance,
    minhash_signature,
    near_duplicate,
    resemblance,
    shingle_hashes,
    super_shingles,
)
from sverka.core.hashing import hash_text

VOCAB = np.array([hash_text(f"слово{i}") for i in range(20000)], dtype=np.uint64)


def random_pair(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """Shingles of two random texts sharing one passage; the exact Jaccard spreads over 0..1."""
    union = int(rng.integers(300, 3000))
    common = int(union * rng.random())
    only_a = int((union - common) * rng.random())
    only_b = union - common - only_a
    shared, a_own, b_own = (VOCAB[rng.integers(0, len(VOCAB), m)] for m in (common, only_a, only_b))
    a = np.concatenate([a_own, shared])
    b = np.concatenate([shared, b_own])
    return shingle_hashes(a, 4), shingle_hashes(b, 4)


def test_estimate_within_0_1_of_jaccard_for_95_percent_of_pairs():
    rng = np.random.default_rng(20240603)
    exact, estimate = [], []
    for _ in range(200):
        a, b = random_pair(rng)
        exact.append(resemblance(a, b))
        estimate.append(minhash_resemblance(minhash_signature(a, 84), minhash_signature(b, 84)))
    exact, estimate = np.array(exact), np.array(estimate)
    errors = np.abs(estimate - exact)
    assert np.histogram(exact, bins=5, range=(0, 1))[0].min() >= 20  # overlap spread over 0..1
    assert np.mean(errors <= 0.1) >= 0.95
    # ideal min-wise hashing: mean |error| = ∫ sqrt(2/π · J(1-J)/84) dJ ≈ 0.034, no bias
    assert np.mean(errors) < 0.045
    assert abs(np.mean(estimate - exact)) < 0.01


def test_signature_shape_dtype_and_determinism():
    h = shingle_hashes(VOCAB[:500], 4)
    sig = minhash_signature(h)
    assert sig.shape == (84,) and sig.dtype == np.uint64
    assert np.array_equal(sig, minhash_signature(h[::-1].copy()))  # a set: order and repeats ignored
    assert np.array_equal(sig, minhash_signature(np.concatenate([h, h])))
    assert not np.array_equal(sig, minhash_signature(h, seed=1))
    assert minhash_signature(h, 70).shape == (70,)
    assert np.array_equal(minhash_signature(h, 10), sig[:10])  # function i does not depend on n


def test_empty_document():
    sig = minhash_signature(np.empty(0, dtype=np.uint64))
    assert np.all(sig == EMPTY)
    assert minhash_resemblance(sig, sig) == 0.0
    assert super_shingles(sig).shape == (0,)
    assert mega_shingles(super_shingles(sig)).shape == (0,)


def test_super_and_mega_shingles():
    h = shingle_hashes(VOCAB[:800], 4)
    sig = minhash_signature(h, 84)
    supers = super_shingles(sig, 6)
    assert supers.shape == (6,) and supers.dtype == np.uint64
    megas = mega_shingles(supers)
    assert megas.shape == (15,) and megas.dtype == np.uint64
    assert len(np.unique(megas)) == 15
    # changing one value changes exactly one super-shingle (group 14 // 14 = 1)
    other = sig.copy()
    other[14] ^= np.uint64(1)
    changed = super_shingles(other) != supers
    assert changed.tolist() == [False, True, False, False, False, False]
    assert np.sum(mega_shingles(super_shingles(other)) != megas) == 5  # the 5 pairs holding group 1
    # the same values in another group do not match
    assert super_shingles(np.roll(sig, 14))[1] != supers[0]


@pytest.mark.parametrize(
    ("changed_groups", "expected"),
    [
        ([], True),
        ([0], True),
        ([0, 1, 2, 3], True),  # 2 groups left: one shared mega-shingle
        ([0, 1, 2, 3, 4], False),  # 1 shared super-shingle only
        ([0, 1, 2, 3, 4, 5], False),
    ],
)
def test_near_duplicate_decision(changed_groups, expected):
    sig = minhash_signature(shingle_hashes(VOCAB[:300], 4))
    other = sig.copy()
    for g in changed_groups:
        other[g * 14] ^= np.uint64(1)
    sa, sb = super_shingles(sig), super_shingles(other)
    assert near_duplicate(sa, sb) is expected
    assert near_duplicate(sa, sb, mega_shingles(sa), mega_shingles(sb)) is expected


def test_near_duplicates_in_practice():
    rng = np.random.default_rng(7)
    a = VOCAB[rng.integers(0, len(VOCAB), 2000)]
    b = a.copy()
    b[rng.choice(2000, 10, replace=False)] = VOCAB[:10]  # a few words edited: J ~ 0.96
    c = VOCAB[rng.integers(0, len(VOCAB), 2000)]  # unrelated
    sa, sb, sc = (super_shingles(minhash_signature(shingle_hashes(x, 4))) for x in (a, b, c))
    assert near_duplicate(sa, sb)
    assert not near_duplicate(sa, sc)
