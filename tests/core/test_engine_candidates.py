"""The engine's candidate ranking against the Python retrieval it replaced
(tests/core/candidates_oracle.py).

The seeds of the postings read, their support and their clusters run in ``sverka._engine``;
the documents, scores, order and cluster spans must be the oracle's exactly. Random seeds and
postings full of ties and repeats, sentence bounds with both sentence shares, slices of a
cross-check's seeds, and the retrieval of edited ruslit texts against a small collection of
them (skipped when ../shared/data is absent).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import candidates_oracle as oracle
from sverka.core import candidates

RUSLIT = Path(__file__).resolve().parents[3] / "shared" / "data" / "ruslit"


def _bounds(rng: np.random.Generator, n: int) -> tuple[np.ndarray, np.ndarray]:
    cuts = np.unique(np.concatenate(([0], rng.integers(1, max(2, n), size=max(1, n // 6)), [n])))
    starts, ends = np.zeros(n, np.int64), np.zeros(n, np.int64)
    for a, b in zip(cuts[:-1], cuts[1:]):
        starts[a:b], ends[a:b] = a, b
    return starts, ends


def _seeds(rng: np.random.Generator, count: int, docs: int, n: int, spread: int):
    d = rng.integers(0, docs, count).astype(np.int64)
    i = rng.integers(0, n - 1, count).astype(np.int64)
    j = np.maximum(0, i + rng.integers(-spread, spread + 1, count)).astype(np.int64)
    return d, i, j


def _same_clusters(got, want) -> None:
    assert len(got) == len(want) == 4
    for g, w in zip(got, want):
        assert np.asarray(g, np.int64).tolist() == np.asarray(w, np.int64).tolist()


@given(st.integers(0, 2**32 - 1), st.integers(0, 400), st.integers(1, 6), st.integers(1, 40),
       st.sampled_from([None, 1.0, 0.5]), st.integers(1, 12), st.integers(1, 40))
@settings(max_examples=300, deadline=None)
def test_clusters_are_the_oracles(seed, count, docs, spread, share, near_suspect, near_source):
    rng = np.random.default_rng(seed)
    n = 200
    d, i, j = _seeds(rng, count, docs, n, spread)
    bounds = None if share is None else _bounds(rng, n)
    share = 1.0 if share is None else share
    got = candidates._clusters(d, i, j, near_suspect, near_source, bounds, share)
    want = oracle._clusters(d, i, j, near_suspect, near_source, bounds, share)
    _same_clusters(got, want)
    order = np.lexsort((j, i, d))
    assert count == 0 or candidates._supported(d[order], i[order], j[order], near_suspect, near_source).tolist() == \
        oracle._supported(d[order], i[order], j[order], near_suspect, near_source).tolist()


@given(st.integers(0, 2**32 - 1), st.integers(0, 300), st.integers(0, 600), st.integers(1, 30),
       st.booleans(), st.integers(0, 8))
@settings(max_examples=300, deadline=None)
def test_rank_is_the_oracles(seed, keys, rows, alphabet, with_bounds, limit):
    """Suspect keys drawn from a small alphabet (a key at several positions), rows of several
    documents holding them (a key at several places of one document), sentence keys too."""
    rng = np.random.default_rng(seed)
    n = 300
    h = (rng.integers(0, alphabet, keys).astype(np.uint64) * np.uint64(0x9E3779B97F4A7C15))
    p = rng.integers(0, n - 1, keys).astype(np.int64)
    rh = (rng.integers(0, alphabet + 3, rows).astype(np.uint64) * np.uint64(0x9E3779B97F4A7C15))
    rd = rng.integers(1, 8, rows).astype(np.int64)
    rp = rng.integers(0, 400, rows).astype(np.int64)
    sh = rng.integers(0, 5, 6).astype(np.uint64)
    size = rng.integers(3, 12, 6).astype(np.int64)
    srows = (rng.integers(0, 7, 10).astype(np.uint64), rng.integers(1, 8, 10).astype(np.int64),
             rng.integers(0, 400, 10).astype(np.int64))
    kw = dict(near_suspect=11, near_source=24, limit=limit,
              sentence_bounds=_bounds(rng, n) if with_bounds else None, sentence_share=0.5 if seed % 2 else 1.0)
    got_spans, want_spans = [], []
    got = candidates.rank((h, p), (rh, rd, rp), (sh, p[:0], size), srows, spans=got_spans, **kw)
    want = oracle.rank((h, p), (rh, rd, rp), (sh, p[:0], size), srows, spans=want_spans, **kw)
    assert got == want
    assert got_spans == want_spans
    docs = sorted({d for d, _ in want})
    g, w = candidates.seed_hits(h, p, (rh, rd, rp), docs), oracle.seed_hits(h, p, (rh, rd, rp), docs)
    assert sorted(g) == sorted(w)
    for doc in w:
        assert g[doc][0].tolist() == w[doc][0].tolist() and g[doc][1].tolist() == w[doc][1].tolist()


def test_a_cross_checks_slices_are_the_oracles():
    """Many seeds (more than SUPPORT_SLICE) scored a slice of whole documents at a time."""
    rng = np.random.default_rng(5)
    d, i, j = _seeds(rng, 3 * candidates.SUPPORT_SLICE // 2, 400, 5000, 20)
    bounds = _bounds(rng, 5000)
    assert candidates.supported_seeds(d, i, j, 9, 30) == oracle.supported_seeds(d, i, j, 9, 30)
    assert candidates.supported_seeds(d, i, j, 9, 30, bounds, 0.5) == oracle.supported_seeds(d, i, j, 9, 30, bounds, 0.5)


def test_bad_arrays_are_refused_not_read_beyond():
    d = np.array([1, 1], np.int64)
    with pytest.raises(ValueError):  # a seed past the suspect's sentence bounds
        candidates._clusters(d, np.array([50, 51], np.int64), np.array([5, 6], np.int64), 9, 30,
                             (np.zeros(10, np.int64), np.full(10, 10, np.int64)), 1.0)
    with pytest.raises(ValueError):
        candidates._clusters(d, np.array([1], np.int64), np.array([5, 6], np.int64), 9, 30, None, 1.0)


def _edited(text: str, rng: np.random.Generator) -> str:
    words = text.split()
    out = []
    for w in words:
        r = rng.random()
        if r < 0.04:
            continue  # a word left out
        if r < 0.07:
            out.append("вдобавок")  # a word put in
        out.append(w)
    return " ".join(out)


@pytest.mark.skipif(not RUSLIT.is_dir(), reason="../shared/data/ruslit is absent")
def test_retrieval_of_edited_ruslit_texts_is_the_oracles(tmp_path, monkeypatch):
    """Whole checks' retrieval (exact and variant keys, hits for the windows) with the engine
    and with the oracle's ranking: the same candidates, scores, order and hits."""
    from sverka.core import api
    from sverka.core.check import prepare
    from sverka.core.document import Document

    files = sorted(RUSLIT.rglob("*.txt"))[:40]
    col = api.Collection(tmp_path / "c.sverka", api.Settings())
    col.add([str(f) for f in files[:30]])
    store, settings = col.index, col.settings
    rng = np.random.default_rng(1)
    for k in range(6):
        parts = []
        for f in rng.choice(len(files), 3, replace=False).tolist():
            words = api.load_document(files[f]).text.split()
            at = int(rng.integers(0, max(1, len(words) - 800)))
            parts.append(_edited(" ".join(words[at:at + 800]), rng))
        a = prepare(Document("\n\n".join(parts), title=f"suspect {k}"), settings)
        got_hits, want_hits = {}, {}
        got = candidates.retrieve(store, a, settings, got_hits)
        with monkeypatch.context() as m:
            m.setattr(candidates, "rank", oracle.rank)
            m.setattr(candidates, "seed_hits", oracle.seed_hits)
            want = candidates.retrieve(store, a, settings, want_hits)
        assert got == want and got
        assert sorted(got_hits) == sorted(want_hits)
        for doc, arrays in want_hits.items():
            assert [x.tolist() for x in got_hits[doc]] == [x.tolist() for x in arrays]
    col.close()
