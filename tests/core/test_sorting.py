"""stable_argsort gives numpy's stable order exactly, whatever the ties, sizes and types."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from sverka.core.sorting import SMALL, checked_order, lexsort, stable_argsort


@given(st.integers(0, 3 * SMALL), st.integers(1, 2**63 - 1), st.sampled_from(["uint64", "int64", "int32", "bool"]),
       st.integers(0, 2**32 - 1))
@settings(max_examples=60, deadline=None)
def test_the_stable_order_of_numpy(n, distinct, dtype, seed):
    rng = np.random.default_rng(seed)
    top = 2 if dtype == "bool" else min(distinct, np.iinfo(dtype).max)
    x = rng.integers(0, top, n, dtype=np.int64 if dtype != "uint64" else np.uint64).astype(dtype)
    if dtype in ("int64", "int32") and n:
        x[rng.random(n) < 0.3] *= -1  # negative values too
    got = stable_argsort(x)
    assert got.tolist() == np.argsort(x, kind="stable").tolist()


def test_large_arrays_with_runs_of_equal_values():
    rng = np.random.default_rng(5)
    for x in (rng.integers(0, 2**63, 50_000, dtype=np.uint64),  # no ties
              rng.integers(0, 40, 50_000),  # long runs of ties
              np.repeat(np.arange(500), 40)[::-1].copy(),  # runs already in reverse order
              np.zeros(20_000, dtype=np.int64)):  # one run
        assert np.array_equal(stable_argsort(x), np.argsort(x, kind="stable"))


@given(st.integers(0, 2 * SMALL), st.lists(st.integers(1, 2**40), min_size=1, max_size=3), st.integers(0, 2**32 - 1))
@settings(max_examples=40, deadline=None)
def test_lexsort_is_numpys(n, tops, seed):
    rng = np.random.default_rng(seed)
    keys = [rng.integers(-top, top, n) for top in tops]
    if n and len(keys) > 1:
        keys[0] = np.sort(keys[0])  # a key in order already (positions)
    assert lexsort(keys).tolist() == np.lexsort(keys).tolist()
    h = rng.integers(0, 2**63, n, dtype=np.uint64) | np.uint64(2**63)  # hashes above 2**63 too
    assert lexsort([keys[-1], h]).tolist() == np.lexsort([keys[-1], h]).tolist()


def test_each_way_of_packing_gives_the_stable_order():
    from sverka.core.sorting import _packed_argsort

    rng = np.random.default_rng(11)
    n = 3 * SMALL
    wide = rng.integers(0, 2**64 - 1, n // 4, dtype=np.uint64)[rng.integers(0, n // 4, n)]  # hashes, with ties
    near = np.uint64(2**63) + rng.integers(0, 2**63, 40, dtype=np.uint64)  # hashes above 2**63
    mixed = wide.copy()
    mixed[::7] = near[0] ^ np.uint64(1)  # two values that differ only in their lowest bit
    mixed[3::7] = near[0]
    mixed[5::11] = near[1:][rng.integers(0, 39, len(mixed[5::11]))]
    dense = rng.integers(-(2**40), 2**40, n)  # positions, signed keys: they fit whole
    for x, packed in ((wide, True), (dense, True), (dense.astype(np.int32) // 2**10, True), (mixed, False)):
        got = _packed_argsort(x)
        assert (got is not None) == packed
        assert np.array_equal(stable_argsort(x), np.argsort(x, kind="stable"))
        if got is not None:
            assert np.array_equal(got, np.argsort(x, kind="stable"))


@given(st.lists(st.integers(-(2**63), 2**63 - 1), max_size=60), st.sampled_from(["int64", "uint64", "int32"]))
@settings(max_examples=200, deadline=None)
def test_distinct_is_numpys_unique(xs, dtype):
    from sverka.core.sorting import distinct

    x = np.asarray(xs, dtype=np.int64).astype(dtype)
    assert distinct(x).tolist() == np.unique(x).tolist()
    assert distinct(x.reshape(-1, 1) if len(x) else x).dtype == x.dtype


@given(st.integers(0, 2 * SMALL), st.integers(1, 50), st.integers(0, 2**32 - 1), st.sampled_from(
    ["swap", "swap equal", "repeat", "out of range", "short", "none"]))
@settings(max_examples=120, deadline=None)
def test_a_stored_order_is_taken_only_when_it_is_the_stable_order(n, top, seed, spoil):
    """An order read from the collection is used only when it is exactly stable_argsort's: any
    other (two positions swapped, ties out of position order, an index twice, out of range, a
    wrong length) is refused, so matching never runs on a damaged one."""
    rng = np.random.default_rng(seed)
    x = rng.integers(0, top, n).astype(np.uint64) * np.uint64(2**40)  # hash-like values with ties
    order = stable_argsort(x)
    got = checked_order(x, order.astype(np.int32))
    assert got is not None and got[0].dtype == np.int64
    assert np.array_equal(got[0], order) and np.array_equal(got[1], x[order])
    bad = order.copy()
    xs = x[order]
    if spoil == "swap" and n >= 2 and xs[0] != xs[-1]:
        bad[0], bad[-1] = bad[-1], bad[0]
    elif spoil == "swap equal" and n >= 2 and (xs[1:] == xs[:-1]).any():
        k = int(np.flatnonzero(xs[1:] == xs[:-1])[0])
        bad[k], bad[k + 1] = bad[k + 1], bad[k]
    elif spoil == "repeat" and n >= 2 and (xs[1:] == xs[:-1]).any():
        k = int(np.flatnonzero(xs[1:] == xs[:-1])[0])
        bad[k + 1] = bad[k]
    elif spoil == "out of range" and n:
        bad[-1] = n
    elif spoil == "short" and n:
        bad = bad[:-1]
    else:
        return
    assert checked_order(x, bad) is None
