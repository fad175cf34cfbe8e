"""Resemblance and sentence score read the shared values off one search (not intersect1d's
sort of both arrays): the same figures."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from sverka.core.check import jaccard
from sverka.core import sorting


@given(st.lists(st.integers(0, 60), max_size=50), st.lists(st.integers(0, 60), max_size=50))
@settings(max_examples=300, deadline=None)
def test_shared_values_and_scores_as_intersect1d_gives_them(xs, ys):
    a = np.unique(np.asarray(xs, np.uint64))
    b = np.unique(np.asarray(ys, np.uint64))
    common, ia, ib = np.intersect1d(a, b, assume_unique=True, return_indices=True)
    got_a, got_b = sorting.common(a, b)
    assert got_a.tolist() == ia.tolist() and got_b.tolist() == ib.tolist()
    if len(a) or len(b):
        assert jaccard(a, b) == len(common) / (len(a) + len(b) - len(common))
    # the sentence score: each value as often as both sequences hold it
    sa, sb = np.asarray(xs, np.uint64), np.asarray(ys, np.uint64)
    va, ca = np.unique(sa, return_counts=True)
    vb, cb = np.unique(sb, return_counts=True)
    ia, ib = sorting.common(va, vb)
    expected = sum(min(xs.count(v), ys.count(v)) for v in set(xs) & set(ys))
    assert int(np.minimum(ca[ia], cb[ib]).sum()) == expected
