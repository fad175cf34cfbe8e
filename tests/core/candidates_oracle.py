"""The Python retrieval that the compiled engine replaced, as it was (``sverka.core.candidates``
before the seeds of the postings read, their support and their clusters moved to
``sverka._engine``; the store's per-key SQLite lookups are still the product's path when a
collection's postings file cannot be used, ``sverka.core.store.postings``).

It left the product and stays here as the oracle of the differential tests
(tests/core/test_engine_candidates.py): the engine's ranking must give the same documents,
scores, order and cluster spans. The rules are those of ``sverka.core.candidates``'s docstring.
"""

from __future__ import annotations

import numpy as np

from sverka.core.candidates import MIN_TOKENS, SUPPORT_SLICE
from sverka.core.keys import PAIR_WORDS
from sverka.core.sorting import distinct, lexsort, stable_argsort


def _expand(keys: np.ndarray, key_pos: np.ndarray, row_hash: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For every row whose hash is among ``keys``: (row index, suspect position), once per
    occurrence of the hash in the suspect."""
    order = stable_argsort(keys)
    ks, kp = keys[order], key_pos[order]
    lo = np.searchsorted(ks, row_hash, "left")
    hi = np.searchsorted(ks, row_hash, "right")
    cnt = hi - lo
    rows = np.repeat(np.arange(len(row_hash)), cnt)
    first = np.repeat(np.cumsum(cnt) - cnt, cnt)
    at = np.repeat(lo, cnt) + (np.arange(int(cnt.sum())) - first)
    return rows, kp[at]


def _order(*columns: np.ndarray) -> np.ndarray:
    """``np.lexsort(columns[::-1])``: the order by the first column, then the next, ... (by one
    sort of a single number per row where they fit in 63 bits together: :func:`sorting.lexsort`)."""
    return lexsort(columns[::-1])


def _supported(d: np.ndarray, i: np.ndarray, j: np.ndarray, near_suspect: int, near_source: int) -> np.ndarray:
    """Which seeds ``(d, i, j)`` (sorted by d, i, j) are supported: the next
    seed on its diagonal follows it (a run of three tokens), or one of the next eight seeds of
    its document in suspect order lies within ``near_suspect`` / ``near_source`` tokens in the
    two texts (runs bridged by an edit or moved around) at another position in BOTH texts.
    Two seeds at one suspect position (a pair of words the source holds twice close by) or at
    one source position (a pair the suspect repeats) are no evidence: the alignment never links
    two runs over the same suspect tokens, nor two that match the same source tokens
    (``sverka.core.align._Linker``), so such a cluster can never become a passage."""
    supported = np.zeros(len(d), dtype=bool)
    diag = j - i
    by_diag = _order(d, diag - int(diag.min()), i)
    dd, gg, ii = d[by_diag], diag[by_diag], i[by_diag]
    run = (dd[1:] == dd[:-1]) & (gg[1:] == gg[:-1]) & (ii[1:] - ii[:-1] == 1)
    supported[by_diag[1:][run]] = True
    supported[by_diag[:-1][run]] = True
    # Document and suspect position as one sorted key: a seed whose next seed is already too
    # far in the suspect has no nearer one further on, so each shift looks only at the seeds
    # the previous one left (most seeds are alone).
    key = d * (int(i.max()) + near_suspect + 1) + i
    alive = np.arange(len(d) - 1)
    for shift in range(1, 9):
        alive = alive[alive + shift < len(d)]
        alive = alive[key[alive + shift] - key[alive] <= near_suspect]
        if len(alive) == 0:
            break
        jump = j[alive + shift] - j[alive]
        ok = alive[(np.abs(jump) <= near_source) & (key[alive + shift] != key[alive]) & (jump != 0)]
        supported[ok] = True
        supported[ok + shift] = True
    return supported


def supported_seeds(d: np.ndarray, i: np.ndarray, j: np.ndarray, near_suspect: int, near_source: int,
                    sentence_bounds: tuple[np.ndarray, np.ndarray] | None = None,
                    sentence_share: float = 1.0) -> dict[int, int]:
    """``{d: score}`` for seeds ``(d, i, j)``: key shared at suspect position ``i`` and
    position ``j`` of document (or pair of documents) ``d`` (see the module docstring).

    ``sentence_bounds`` = (first token of the sentence of each suspect token, one past its
    last token): lets a small cluster count when it is a whole sentence, or, with
    ``sentence_share`` < 1, when it lies inside one sentence and covers at least that share
    of its tokens (:data:`PARAPHRASE_SHARE`).

    Many seeds (a cross-check's) are tested :data:`SUPPORT_SLICE` at a time, each slice whole
    documents (no cluster or support crosses from one ``d`` to another): the same scores, with
    the test's temporaries (~100 bytes a seed) bounded."""
    if len(d) > SUPPORT_SLICE:
        order = stable_argsort(d)
        ds = d[order]
        cuts = distinct(np.searchsorted(ds, ds[::SUPPORT_SLICE], "left")).tolist() + [len(d)]
        out: dict[int, int] = {}
        for a, b in zip(cuts[:-1], cuts[1:]):  # a slice's positions gathered for it alone
            part = order[a:b]
            docs, _, _, covered = _clusters(ds[a:b], i[part], j[part], near_suspect, near_source, sentence_bounds,
                                            sentence_share)
            out.update(_scores(docs, covered))
        return out
    docs, _, _, covered = _clusters(d, i, j, near_suspect, near_source, sentence_bounds, sentence_share)
    return _scores(docs, covered)


def _scores(docs: np.ndarray, covered: np.ndarray) -> dict[int, int]:
    """``{document: tokens its clusters cover}``."""
    if len(docs) == 0:
        return {}
    ids = distinct(docs)
    totals = np.bincount(np.searchsorted(ids, docs), weights=covered)
    return dict(zip(ids.tolist(), totals.astype(np.int64).tolist()))


def _clusters(d: np.ndarray, i: np.ndarray, j: np.ndarray, near_suspect: int, near_source: int,
              sentence_bounds: tuple[np.ndarray, np.ndarray] | None,
              sentence_share: float) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The clusters that count (:func:`supported_seeds`): (document, first suspect token, one
    past the last, tokens covered), by document and suspect position."""
    empty = np.zeros(0, np.int64)
    if len(d) == 0:
        return empty, empty, empty, empty
    order = _order(d, i, j)
    d, i, j = d[order], i[order], j[order]
    supported = _supported(d, i, j, near_suspect, near_source)
    if not supported.any():
        return empty, empty, empty, empty
    d, i = d[supported], i[supported]  # still in (document, suspect position) order
    # Passages, roughly: supported seeds close together in the suspect. A cluster covering
    # MIN_TOKENS tokens or more may be a passage; a smaller one only if it is a whole sentence.
    gap = np.diff(i)
    brk = np.concatenate(([True], (d[1:] != d[:-1]) | (gap > near_suspect)))
    cluster = np.cumsum(brk) - 1
    step = np.minimum(np.append(gap, PAIR_WORDS), PAIR_WORDS)
    step[np.append(brk[1:], True)] = PAIR_WORDS  # the last seed of a cluster covers its two tokens
    covered = np.bincount(cluster, weights=step).astype(np.int64)
    first = i[brk]
    last = i[np.append(brk[1:], True)]
    ok = covered >= MIN_TOKENS
    if sentence_bounds is not None:
        starts, ends = sentence_bounds
        small = (~ok) & (covered >= 3)
        whole = (starts[first] >= first) & (ends[last + PAIR_WORDS - 1] <= last + PAIR_WORDS)
        if sentence_share < 1.0:
            one = starts[first] == starts[last + PAIR_WORDS - 1]
            whole |= one & (covered >= sentence_share * (ends[first] - starts[first]))
        ok |= small & whole
    else:
        ok |= covered >= 3
    return d[brk][ok], first[ok], last[ok] + PAIR_WORDS, covered[ok]


def rank(
    suspect_pairs: tuple[np.ndarray, np.ndarray],
    pair_rows: tuple[np.ndarray, np.ndarray, np.ndarray],
    suspect_sentences: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None,
    sentence_rows: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None,
    *,
    near_suspect: int,
    near_source: int,
    limit: int = 0,
    sentence_bounds: tuple[np.ndarray, np.ndarray] | None = None,
    sentence_share: float = 1.0,
    spans: list | None = None,
) -> list[tuple[int, int]]:
    """``[(doc_id, score)]`` of the documents that may hold a passage, best first (ties by id).

    ``suspect_pairs`` = (hashes, positions) of the suspect; ``pair_rows`` = (hash, doc_id,
    position) rows of the stored documents for those hashes; the sentence arguments likewise
    (the suspect's with token counts). ``limit`` = 0: every document with a score.
    ``spans``: a list to receive the suspect token spans ``(first, one past the last)`` of
    the clusters of pair keys of the documents returned.
    """
    score: dict[int, int] = {}
    h, p = suspect_pairs
    rh, rd, rp = (np.asarray(x) for x in pair_rows)
    cluster_docs = first = end = np.zeros(0, np.int64)
    if len(h) and len(rh):
        rows, i = _expand(np.asarray(h, np.uint64), np.asarray(p, np.int64), rh.astype(np.uint64))
        cluster_docs, first, end, covered = _clusters(rd[rows].astype(np.int64), i, rp[rows].astype(np.int64),
                                                      near_suspect, near_source, sentence_bounds, sentence_share)
        score.update(_scores(cluster_docs, covered))
    if suspect_sentences is not None and sentence_rows is not None:
        sh, _, size = suspect_sentences
        rh, rd, _ = (np.asarray(x) for x in sentence_rows)
        if len(sh) and len(rh):
            rows, tokens = _expand(np.asarray(sh, np.uint64), np.asarray(size, np.int64), rh.astype(np.uint64))
            for doc, t in zip(rd[rows].tolist(), tokens.tolist()):
                score[doc] = score.get(doc, 0) + int(t)
    ranked = sorted(score.items(), key=lambda kv: (-kv[1], kv[0]))
    ranked = ranked[:limit] if limit else ranked
    if spans is not None and len(cluster_docs):
        mine = np.isin(cluster_docs, np.array([d for d, _ in ranked], dtype=np.int64))
        spans.extend(zip(first[mine].tolist(), end[mine].tolist()))
    return ranked


def seed_hits(keys: np.ndarray, key_pos: np.ndarray, rows: tuple[np.ndarray, np.ndarray, np.ndarray],
              docs: list[int]) -> dict[int, tuple[np.ndarray, np.ndarray]]:
    """``{doc: (suspect positions, its positions)}`` of the stored ``rows`` (hash, doc_id,
    position) whose hash is among the suspect's ``keys`` (at ``key_pos``), for ``docs``."""
    rh, rd, rp = (np.asarray(x) for x in rows)
    mine = np.isin(rd, np.asarray(docs, np.int64))
    if not len(keys) or not mine.any():
        return {}
    r, i = _expand(np.asarray(keys, np.uint64), np.asarray(key_pos, np.int64), rh[mine].astype(np.uint64))
    d, j = rd[mine][r].astype(np.int64), rp[mine][r].astype(np.int64)
    if len(d) == 0:
        return {}
    order = stable_argsort(d)
    d, i, j = d[order], i[order], j[order]
    cuts = np.flatnonzero(np.concatenate(([True], d[1:] != d[:-1], [True])))
    return {int(d[x]): (i[x:y], j[x:y]) for x, y in zip(cuts[:-1], cuts[1:])}
