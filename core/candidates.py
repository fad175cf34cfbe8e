"""Candidate retrieval: which stored documents may hold a passage of the suspect.

Alignment (:mod:`sverka.core.align`) builds passages from seeds of two consecutive canonical
tokens and from whole sentences whose sentence hash (any word order, any word form) is
equal. Retrieval looks at exactly those keys, so a source whose passages the alignment
would accept is never left out for want of a longer shared run:

* **Pair keys** and **sentence keys** (:mod:`sverka.core.keys`, stored with every document).

Ranking (:func:`rank`): a key shared by chance is scattered; a borrowed passage is a cluster.
A shared pair key is *supported* when another shared pair key of the same document lies
within ``near_suspect`` tokens in the suspect and ``near_source`` tokens in the source,
in either order (sentences reversed, clauses rotated), at another position in both texts.
A document's score is the number of supported pair keys plus the tokens of its shared
sentences; a document with a score of 0 cannot produce a passage of
:data:`sverka.core.align.MIN_MATCHED_TOKENS` or more tokens and is dropped. The best
``limit`` documents are aligned.

**Variant pair keys** (:func:`variant_pair_keys`, for a check's suspect only): the pair keys
the source would hold had the student not replaced words by synonyms: each word with a
synonym put back (:mod:`sverka.core.synonyms`; optionally also two neighbours swapped, an
inserted word skipped: :data:`VARIANT_SWAPS`).
They let retrieval reach the sources of paraphrased sentences, which the paraphrase layer
(:mod:`sverka.core.paraphrase`) then aligns; they are looked up in the same stored pairs,
only in the suspect's sentences that no cluster of a document the exact keys found holds
whole (:func:`rank` gives the clusters' spans; :func:`retrieve`).
In the check's ranking with variant keys, a cluster of 3-4 tokens also counts when it holds
half of its suspect sentence (``sentence_share``): a paraphrased sentence keeps few
neighbouring pairs, and the paraphrase layer judges the whole sentence.

Posting lists longer than ``max_posting`` rows (a pair of words every document has) are
skipped by the store, so boilerplate cannot explode the work of a check.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from .align import SOURCE_WINDOW
from .engine import i64, native, u64
from .keys import PAIR_WORDS
from .shingles import shingle_hashes
from .sorting import distinct, lexsort, stable_argsort
from .synonyms import SYNONYM, related_of
from .text import Tokens

if TYPE_CHECKING:  # pragma: no cover
    from .check import Prepared
    from .settings import Settings
    from .store import Store

__all__ = ["MIN_TOKENS", "co_occurring", "rank", "retrieve", "seed_hits", "sentence_bounds", "supported_seeds",
           "variant_pair_keys"]

#: A cluster of keys covering this many suspect tokens may be a passage whatever its
#: sentences (sverka.core.align.SHORT_PASSAGE_TOKENS); a smaller one (3 or 4 tokens, the
#: least a passage holds) only if it is a whole sentence of the suspect.
MIN_TOKENS = 5


#: Also swapped neighbours and pairs skipping one word as variant keys. Off: on the paraphrase
#: benchmark they reached one more source sentence in 48 for three times the keys to look up.
VARIANT_SWAPS = False
#: Synonyms of one word put back in its variant pair keys, at most.
MAX_ALTERNATIVES = 8
#: Also the other words of a word's family (after its synonyms, within MAX_ALTERNATIVES) as
#: variant keys. Off: on the ParaPhraser and paraphrase benchmarks it reached no source more,
#: for 1.9 times the variant keys to look up (16 745 against 8 784 for 50 000 characters of prose).
VARIANT_FAMILIES = False


def _pair_hashes(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """The pair key of tokens ``(x[k], y[k])`` for every k (as :func:`sverka.core.keys.pair_keys` hashes them)."""
    if len(x) == 0:
        return np.zeros(0, np.uint64)
    return shingle_hashes(np.stack([np.asarray(x, np.uint64), np.asarray(y, np.uint64)], 1).ravel(), PAIR_WORDS,
                          step=PAIR_WORDS)


def variant_pair_keys(tokens: Tokens, related: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None
                      ) -> tuple[np.ndarray, np.ndarray]:
    """(uint64 hashes, int64 positions) of the suspect's variant pair keys (module docstring),
    inside sentences only; the exact pair keys are not repeated. ``related``:
    ``related_of(tokens.hashes)`` (synonyms and families) if known: the same keys."""
    h = np.asarray(tokens.hashes, dtype=np.uint64)
    sid = np.asarray(tokens.sentence_ids)
    n = len(h)
    if n < 2:
        return np.zeros(0, np.uint64), np.zeros(0, np.int64)
    xs, ys, ps = [], [], []
    near = np.flatnonzero(sid[1:] == sid[:-1])  # i and i + 1 in one sentence
    if VARIANT_SWAPS:
        xs.append(h[near + 1])
        ys.append(h[near])
        ps.append(near)  # swapped neighbours
        skip = np.flatnonzero(sid[2:] == sid[:-2]) if n > 2 else np.zeros(0, np.int64)
        xs.append(h[skip])
        ys.append(h[skip + 2])
        ps.append(skip)  # a word inserted between them
    # one of two neighbours replaced by a synonym (both at once is rare): for each neighbour
    # pair, the left word's alternatives beside the right word, then the right word's beside
    # the left, each word's first MAX_ALTERNATIVES
    if related is None:
        which, alt, _ = related_of(h, families=None if VARIANT_FAMILIES else False)  # synonyms, then the family
    else:  # the synonyms keep their order among the related lemmas of each token
        which, alt, kind = related
        if not VARIANT_FAMILIES:
            which, alt = which[kind == SYNONYM], alt[kind == SYNONYM]
    rank = np.arange(len(which)) - np.searchsorted(which, which, "left")
    which, alt, rank = which[rank < MAX_ALTERNATIVES], alt[rank < MAX_ALTERNATIVES], rank[rank < MAX_ALTERNATIVES]
    is_near = np.zeros(n + 1, dtype=bool)
    is_near[near] = True
    left = is_near[which]  # word i of a pair (i, i + 1)
    right = is_near[np.maximum(which - 1, 0)] & (which > 0)  # word i + 1 of a pair (i, i + 1)
    p = np.concatenate([which[left], which[right] - 1])
    x = np.concatenate([alt[left], h[which[right] - 1]])
    y = np.concatenate([h[which[left] + 1], alt[right]])
    side = np.concatenate([np.zeros(int(left.sum()), np.int64), np.ones(int(right.sum()), np.int64)])
    order = np.lexsort((np.concatenate([rank[left], rank[right]]), side, p))
    extra_x, extra_y, extra_p = x[order], y[order], p[order]
    xs.append(np.array(extra_x, np.uint64))
    ys.append(np.array(extra_y, np.uint64))
    ps.append(np.array(extra_p, np.int64))
    x, y, p = np.concatenate(xs), np.concatenate(ys), np.concatenate(ps).astype(np.int64)
    keep = x != y
    return _pair_hashes(x[keep], y[keep]), p[keep]


def sentence_bounds(tokens: Tokens) -> tuple[np.ndarray, np.ndarray]:
    """(first token of the sentence of each token, one past its last token)."""
    sid = np.asarray(tokens.sentence_ids)
    if len(sid) == 0:
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    first = np.flatnonzero(np.concatenate(([True], sid[1:] != sid[:-1])))
    ends = np.append(first[1:], len(sid))
    which = np.cumsum(np.concatenate(([True], sid[1:] != sid[:-1]))) - 1
    return first[which].astype(np.int64), ends[which].astype(np.int64)


def _seeds(keys: np.ndarray, key_pos: np.ndarray, rows: tuple[np.ndarray, np.ndarray, np.ndarray]
           ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(doc, suspect position, its position)`` for every row ``(hash, doc, pos)`` whose hash is
    among ``keys`` (at ``key_pos``), once per occurrence of the hash in the suspect, by row."""
    rh, rd, rp = rows
    return native.expand_seeds(u64(keys), i64(key_pos), u64(rh), i64(rd), i64(rp))


def _supported(d: np.ndarray, i: np.ndarray, j: np.ndarray, near_suspect: int, near_source: int) -> np.ndarray:
    """Which seeds ``(d, i, j)`` (sorted by d, i, j) are supported: the next
    seed on its diagonal follows it (a run of three tokens), or one of the next eight seeds of
    its document in suspect order lies within ``near_suspect`` / ``near_source`` tokens in the
    two texts (runs bridged by an edit or moved around) at another position in BOTH texts.
    Two seeds at one suspect position (a pair of words the source holds twice close by) or at
    one source position (a pair the suspect repeats) are no evidence: the alignment never links
    two runs over the same suspect tokens, nor two that match the same source tokens
    (``sverka.core.align._Linker``), so such a cluster can never become a passage.
    (The engine's ``seed_support``; :func:`_clusters` computes it inside the engine.)"""
    return native.seed_support(i64(d), i64(i), i64(j), int(near_suspect), int(near_source))


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


#: Seeds :func:`supported_seeds` tests at a time (a cross-check of 300 essays makes ~1 000 000).
SUPPORT_SLICE = 100_000


def _scores(docs: np.ndarray, covered: np.ndarray) -> dict[int, int]:
    """``{document: tokens its clusters cover}``."""
    if len(docs) == 0:
        return {}
    ids = distinct(docs)
    totals = np.bincount(np.searchsorted(ids, docs), weights=covered)
    return dict(zip(ids.tolist(), totals.astype(np.int64).tolist()))


def _bounds(sentence_bounds: tuple[np.ndarray, np.ndarray] | None) -> dict:
    if sentence_bounds is None:
        return {}
    return {"starts": i64(sentence_bounds[0]), "ends": i64(sentence_bounds[1])}


def _clusters(d: np.ndarray, i: np.ndarray, j: np.ndarray, near_suspect: int, near_source: int,
              sentence_bounds: tuple[np.ndarray, np.ndarray] | None,
              sentence_share: float) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The clusters that count (:func:`supported_seeds`): (document, first suspect token, one
    past the last, tokens covered), by document and suspect position.

    Passages, roughly: supported seeds (:func:`_supported`) close together in the suspect. A
    cluster covering :data:`MIN_TOKENS` tokens or more may be a passage; a smaller one (3 or 4
    tokens) only if it is a whole sentence (or, with ``sentence_share`` < 1, that share of
    one sentence); without ``sentence_bounds``, any cluster of 3 tokens or more counts.
    Computed by the engine (``seed_clusters``)."""
    return native.seed_clusters(i64(d), i64(i), i64(j), int(near_suspect), int(near_source), MIN_TOKENS, PAIR_WORDS,
                                sentence_share=float(sentence_share), **_bounds(sentence_bounds))


def co_occurring(keys: list[tuple[np.ndarray, np.ndarray]], budget: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Seeds between every two documents of a set: ``(pair code, position in the first,
    position in the second)`` for each key two documents share, the pair code being
    ``first * len(keys) + second`` with ``first < second``.

    ``keys[k]`` = (hashes, positions) of document ``k``. A key held by many documents makes
    many seeds; when all of them would exceed ``budget``, the keys held most often are set
    aside first (largest groups first), so the work stays bounded.
    """
    n = len(keys)
    lens = np.array([len(h) for h, _ in keys], dtype=np.int64)
    empty = np.zeros(0, np.int64)
    if lens.sum() == 0:
        return empty, empty, empty
    h = np.concatenate([np.asarray(k[0], np.uint64) for k in keys])
    p = np.concatenate([np.asarray(k[1], np.int64) for k in keys])
    d = np.repeat(np.arange(n, dtype=np.int64), lens)
    order = lexsort((p, d, h))
    h, p, d = h[order], p[order], d[order]
    starts = np.flatnonzero(np.concatenate(([True], h[1:] != h[:-1])))
    sizes = np.diff(np.append(starts, len(h)))
    keep = sizes >= 2
    work = sizes * (sizes - 1) // 2
    if budget and int(work[keep].sum()) > budget:
        by_size = np.sort(sizes[keep])
        cum = np.cumsum(by_size * (by_size - 1) // 2)
        keep &= sizes <= int(by_size[max(0, int(np.searchsorted(cum, budget, "right")) - 1)])
    starts, sizes = starts[keep], sizes[keep]
    # filled group by group in place (a list of parts joined at the end held every seed twice)
    total = int((sizes * (sizes - 1) // 2).sum())
    codes, first, second = (np.empty(total, np.int64) for _ in range(3))
    at = 0
    for size in distinct(sizes).tolist():
        st = starts[sizes == size]
        iu, ju = np.triu_indices(size, k=1)
        ra = (st[:, None] + iu[None, :]).ravel()
        rb = (st[:, None] + ju[None, :]).ravel()
        other = d[ra] != d[rb]  # rows are sorted by document inside a group: d[ra] <= d[rb]
        ra, rb = ra[other], rb[other]
        np.multiply(d[ra], n, out=codes[at:at + len(ra)])
        codes[at:at + len(ra)] += d[rb]
        first[at:at + len(ra)] = p[ra]
        second[at:at + len(ra)] = p[rb]
        at += len(ra)
    return codes[:at], first[:at], second[:at]


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
        cluster_docs, first, end, covered = native.pair_clusters(
            u64(h), i64(p), u64(rh), i64(rd), i64(rp), int(near_suspect), int(near_source), MIN_TOKENS, PAIR_WORDS,
            sentence_share=float(sentence_share), **_bounds(sentence_bounds))
        score.update(_scores(cluster_docs, covered))
    if suspect_sentences is not None and sentence_rows is not None:
        sh, _, size = suspect_sentences
        rh, rd, _ = (np.asarray(x) for x in sentence_rows)
        if len(sh) and len(rh):
            docs, tokens, _ = _seeds(sh, size, (rh, rd, rd))  # each row's document and sentence size
            for doc, t in zip(docs.tolist(), tokens.tolist()):
                score[doc] = score.get(doc, 0) + int(t)
    ranked = sorted(score.items(), key=lambda kv: (-kv[1], kv[0]))
    ranked = ranked[:limit] if limit else ranked
    if spans is not None and len(cluster_docs):
        mine = np.isin(cluster_docs, np.array([d for d, _ in ranked], dtype=np.int64))
        spans.extend(zip(first[mine].tolist(), end[mine].tolist()))
    return ranked


#: A retrieval key held more than this many times in the collection is skipped (boilerplate).
MAX_POSTING = 5000


#: Documents reached only through variant pair keys (a paraphrase's source) aligned per check,
#: at most: a variant key of two common words meets many documents by chance.
VARIANT_CANDIDATES = 6
#: In the ranking with variant keys, a cluster of 3 or 4 tokens also counts when it covers this
#: share of its suspect sentence (a whole sentence otherwise): a paraphrased sentence keeps
#: few neighbouring pairs, and the paraphrase layer judges the sentence, not the run.
PARAPHRASE_SHARE = 0.5


def retrieve(index: "Store", a: "Prepared", settings: "Settings",
             hits: dict[int, tuple[np.ndarray, np.ndarray, np.ndarray]] | None = None) -> list[tuple[int, int]]:
    """``[(doc_id, score)]``: the stored documents that may hold a passage of ``a``, best
    first, at most ``settings.max_candidates`` (see :mod:`sverka.core.candidates`), then
    at most :data:`VARIANT_CANDIDATES` more that only its variant pair keys reach.

    Variant keys are looked up only in the suspect's sentences that no cluster of the
    documents already found holds whole: a sentence copied from a source found by its exact
    keys needs no other source through synonyms (and most of a check's lookups were such keys)."""
    empty = (np.zeros(0, np.uint64), np.zeros(0, np.int64), np.zeros(0, np.int64))
    h = a.pairs[0]
    pair_rows = index.pair_postings(distinct(h), max_posting=MAX_POSTING) if len(h) else empty
    sent_rows = index.sentence_postings(distinct(a.sentences[0]), max_posting=MAX_POSTING) if len(a.sentences[0]) else empty
    gap = settings.max_gap_words
    bounds = a.sentence_bounds
    near = dict(near_suspect=gap + PAIR_WORDS + 1, near_source=gap * SOURCE_WINDOW + 2 * PAIR_WORDS + 2,
                limit=settings.max_candidates, sentence_bounds=bounds)
    spans: list[tuple[int, int]] = []
    first_pairs, first_sentences = pair_rows, sent_rows
    exact = rank(a.pairs, pair_rows, a.sentences, sent_rows, sentence_share=1.0, spans=spans, **near)
    vh, vpos = a.variant_pairs
    keep = ~_whole_sentences_in(spans, bounds, len(a.tokens))[vpos] if len(vpos) else np.zeros(0, bool)
    vh, vpos = vh[keep], vpos[keep]
    # only the documents not found yet are ranked again (a document's clusters are its own: the
    # rows of the others change nothing of its score)
    found = np.array(sorted(d for d, _ in exact), dtype=np.int64)
    pair_rows = tuple(x[~np.isin(pair_rows[1], found)] for x in pair_rows)
    sent_rows = tuple(x[~np.isin(sent_rows[1], found)] for x in sent_rows)
    new = np.setdiff1d(distinct(vh), distinct(h), assume_unique=True)
    more = index.pair_postings(new, max_posting=MAX_POSTING) if len(new) else empty
    if len(new):
        pair_rows = tuple(np.concatenate([x, y[~np.isin(more[1], found)]]) for x, y in zip(pair_rows, more))
    with_variants = rank((np.concatenate([h, vh]), np.concatenate([a.pairs[1], vpos])), pair_rows,
                                    a.sentences, sent_rows, sentence_share=PARAPHRASE_SHARE,
                                    **{**near, "limit": VARIANT_CANDIDATES})
    if hits is not None:  # where the keys of each document found lie, for its windows
        docs = [d for d, _ in exact + with_variants]
        pairs_of = seed_hits(np.concatenate([h, vh]), np.concatenate([a.pairs[1], vpos]),
                             tuple(np.concatenate([x, y]) for x, y in zip(first_pairs, more)), docs)
        sentences_of = seed_hits(a.sentences[0], a.sentences[2], first_sentences, docs)  # with their sizes
        none = (np.zeros(0, np.int64), np.zeros(0, np.int64))
        for d in docs:
            (pi, pj), (size, sj) = pairs_of.get(d, none), sentences_of.get(d, none)
            hits[d] = (np.concatenate([pi, np.zeros(len(sj), np.int64)]), np.concatenate([pj, sj]),
                       np.concatenate([np.zeros(len(pi), np.int64), size]))
    return exact + with_variants


def seed_hits(keys: np.ndarray, key_pos: np.ndarray, rows: tuple[np.ndarray, np.ndarray, np.ndarray],
              docs: list[int]) -> dict[int, tuple[np.ndarray, np.ndarray]]:
    """``{doc: (suspect positions, its positions)}`` of the stored ``rows`` (hash, doc_id,
    position) whose hash is among the suspect's ``keys`` (at ``key_pos``), for ``docs``."""
    rh, rd, rp = (np.asarray(x) for x in rows)
    mine = np.isin(rd, np.asarray(docs, np.int64))
    if not len(keys) or not mine.any():
        return {}
    d, i, j = _seeds(keys, key_pos, (rh[mine], rd[mine], rp[mine]))
    if len(d) == 0:
        return {}
    order = stable_argsort(d)
    d, i, j = d[order], i[order], j[order]
    cuts = np.flatnonzero(np.concatenate(([True], d[1:] != d[:-1], [True])))
    return {int(d[x]): (i[x:y], j[x:y]) for x, y in zip(cuts[:-1], cuts[1:])}


def _whole_sentences_in(spans: list[tuple[int, int]], bounds: tuple[np.ndarray, np.ndarray], n: int) -> np.ndarray:
    """bool per token: its whole sentence lies inside one of the token ``spans`` [first, end)."""
    mark = np.zeros(n + 1, np.int64)
    if spans:
        starts, ends = bounds
        first, end = (np.asarray(x, np.int64) for x in zip(*spans))
        # each span cut to the whole sentences it holds
        first = np.where(starts[first] == first, first, ends[first])
        end = np.where(ends[end - 1] == end, end, starts[end - 1])
        ok = first < end
        np.add.at(mark, first[ok], 1)
        np.add.at(mark, end[ok], -1)
    return np.cumsum(mark[:-1]) > 0
