"""A class cross-checked: every pair of a set of documents that may share a passage (the same
keys, shared between the documents in numpy), aligned and judged like a check; optionally each
document also checked against a collection; and each document's classmates as its sources.
"""

from __future__ import annotations

import contextlib
import dataclasses
import secrets
from typing import Callable, Sequence

import numpy as np

from .align import SOURCE_WINDOW
from .candidates import co_occurring, sentence_bounds, supported_seeds
from .check import Prepared, align_prepared, file_title, jaccard, match, prepare, sentence_score, source_match, suspect_info
from .document import Document
from .errors import SverkaError
from .exclusions import CLASS_COMMON_MATES, CLASS_COMMON_SHARE, apply_exclusions, common_opening
from .intervals import merge, subtract
from .keys import PAIR_WORDS
from .messages import message
from .progress import NEVER_CANCELLED, CancelToken, Progress, no_progress
from .results import CheckResult, CrossCheckResult, CrossPair, Passage, SourceMatch
from .settings import Settings
from .sorting import distinct
from .sourcecache import CROSS_KEPT_BYTES, SourceCache
from .text import Tokens, canonize, word_starts, words_in
from .workers import default_workers, pool_initializer, process_pool

__all__ = ["candidate_pairs", "class_common", "classmate_sources", "crosscheck_documents", "crosscheck_prepared",
           "prepare_many", "unique_names"]


#: Seeds that keys shared by several documents may make in a cross-check, before the keys held
#: by the most documents are set aside (bounds a cross-check of thousands of documents).
PAIR_BUDGET = 4_000_000


def candidate_pairs(prepared: Sequence[Prepared | None], settings: Settings,
                    templates: Sequence[Prepared] = ()) -> list[tuple[int, int]]:
    """Pairs ``(i, j)``, ``i < j``, of documents that may share a passage, by the same keys
    and the same clustering as a check's retrieval (:mod:`sverka.core.candidates`). No key is
    dropped for being common: text that half a class shares is exactly what a cross-check
    must show. Keys of the ``templates`` (the assignment) are left out."""
    n = len(prepared)
    empty = (np.zeros(0, np.uint64), np.zeros(0, np.int64))
    banned = distinct(np.concatenate([t.pairs[0] for t in templates])) if templates else None

    def keys_of(p: Prepared | None) -> tuple[np.ndarray, np.ndarray]:
        if p is None:
            return empty
        h, pos = p.pairs
        if banned is not None and len(banned):
            keep = ~np.isin(h, banned)
            h, pos = h[keep], pos[keep]
        return h, pos

    codes, i, j = co_occurring([keys_of(p) for p in prepared], PAIR_BUDGET)
    # Positions in the first document of each pair, made global so that one array of
    # sentence bounds serves every document (a small cluster must be a whole sentence).
    sizes = [len(p.tokens) if p is not None else 0 for p in prepared]
    offset = np.r_[0, np.cumsum(sizes)].astype(np.int64)
    bounds = [sentence_bounds(p.tokens) for p in prepared if p is not None and len(p.tokens)]
    offs = [offset[k] for k, p in enumerate(prepared) if p is not None and len(p.tokens)]
    starts = np.concatenate([b[0] + o for b, o in zip(bounds, offs)]) if bounds else np.zeros(0, np.int64)
    ends = np.concatenate([b[1] + o for b, o in zip(bounds, offs)]) if bounds else np.zeros(0, np.int64)
    gap = settings.max_gap_words
    score = supported_seeds(codes, offset[codes // n] + i, j, gap + PAIR_WORDS + 1,
                            gap * SOURCE_WINDOW + 2 * PAIR_WORDS + 2, (starts, ends))
    sentence_keys_of = [(p.sentences[0], p.sentences[1]) if p is not None else empty for p in prepared]
    s_codes, _, _ = co_occurring(sentence_keys_of, PAIR_BUDGET)
    for code in distinct(s_codes).tolist():
        score[code] = score.get(code, 0) + 1
    return sorted((int(c // n), int(c % n)) for c in score)


#: Below this much text in all, canonizing in worker processes costs more than it saves.
PARALLEL_MIN_CHARS = 2_000_000


def _canonize_chunk(texts: list[str], drop_adjectives: bool) -> list[Tokens]:
    """The tokens of ``texts``, in a worker, as a cross-check needs them: without the text (the
    parent has it) and without lemmas, like a stored document's (matching reads the hashes;
    only seed 000's longest words read lemmas, and a cross-check does not use them): the
    lemmas of 300 essays were ~900 000 strings pickled here, unpickled there and sent to the
    workers that align the pairs again."""
    out = []
    for t in texts:
        tokens = canonize(t, drop_adjectives=drop_adjectives)
        out.append(dataclasses.replace(tokens, text="", lemmas=("",) * len(tokens)))
    return out


def _cores() -> int:
    return default_workers()


@contextlib.contextmanager
def _worker_pool(docs: Sequence[Document | None]):
    """Worker processes for canonizing ``docs`` and aligning their pairs, or ``None`` when
    there is too little text (or one core) for workers to pay for their start."""
    total_chars = sum(len(d.text) for d in docs if d is not None)
    cores = _cores()
    if cores < 2 or total_chars < PARALLEL_MIN_CHARS:
        yield None
        return
    pool = process_pool(cores, pool_initializer, (None, True))
    try:
        yield pool
    except BaseException:
        pool.shutdown(wait=False, cancel_futures=True)
        raise
    pool.shutdown(wait=True)


def prepare_many(
    docs: Sequence[Document | None],
    settings: Settings,
    tick: Callable[[int], None] = lambda k: None,
    cancel: CancelToken = NEVER_CANCELLED,
    pool=None,
) -> list[Prepared | None]:
    """:func:`prepare` for many documents; canonization in worker processes (spawned, as
    the index does) when there is enough text and more than one core, or in ``pool``."""
    if pool is None:
        with _worker_pool(docs) as own:
            if own is not None:
                return prepare_many(docs, settings, tick, cancel, pool=own)
    live = [k for k, d in enumerate(docs) if d is not None]
    out: list[Prepared | None] = [None] * len(docs)
    if pool is None:
        for m, k in enumerate(live):
            cancel.raise_if_cancelled()
            tick(m)
            out[k] = prepare(docs[k], settings)
        return out
    import concurrent.futures as cf

    size = max(1, min(16, len(live) // (4 * _cores())))
    chunks = [live[i : i + size] for i in range(0, len(live), size)]
    futures = {
        pool.submit(_canonize_chunk, [docs[k].text for k in chunk], settings.drop_adjectives): chunk
        for chunk in chunks
    }
    done = 0
    try:
        for fut in cf.as_completed(futures):
            cancel.raise_if_cancelled()
            for k, tokens in zip(futures[fut], fut.result()):
                # the worker's tokens come without the text: this one's
                out[k] = prepare(docs[k], settings, tokens=dataclasses.replace(tokens, text=docs[k].text))
            done += len(futures[fut])
            tick(done)
    except BaseException:
        for fut in futures:
            fut.cancel()
        raise
    return out


def _name(doc: Document) -> str:
    return doc.path or doc.title


def _clusters(names: Sequence[str], pairs: Sequence[CrossPair], minimum: int = 3) -> tuple[tuple[str, ...], ...]:
    """Groups of at least ``minimum`` documents linked by listed pairs (text a whole group
    shares: one source copied by many), largest first."""
    parent = {n: n for n in names}

    def root(x: str) -> str:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for p in pairs:
        if p.a in parent and p.b in parent:
            parent[root(p.a)] = root(p.b)
    groups: dict[str, list[str]] = {}
    for n in names:
        groups.setdefault(root(n), []).append(n)
    found = [tuple(g) for g in groups.values() if len(g) >= minimum]
    return tuple(sorted(found, key=lambda g: (-len(g), g)))


def _pairs_among(names: Sequence[str], prepared: Sequence[Prepared | None], template_docs: Sequence[Prepared],
                 settings: Settings, pool, tick: Callable[[], object]):
    """The listed pairs among ``prepared``, the containment matrix, the documents' SHA-256, the
    passages of every pair with a counted one (``(s, t)``: s's in t, before the class's common
    text is set aside) and each document's text common to the class (:func:`class_common`)."""
    n = len(prepared)
    cands = candidate_pairs(prepared, settings, template_docs)
    matrix = [[0.0] * n for _ in range(n)]
    for k in range(n):
        if prepared[k] is not None:
            matrix[k][k] = 1.0
    order_key = [p.doc.sha256 if p is not None else "" for p in prepared]
    # Alignment resolves overlaps on its suspect side, so align each pair in an order fixed
    # by content, not by the order the user gave the documents in.
    ordered = sorted((i, j) if order_key[i] <= order_key[j] else (j, i) for i, j in cands)
    judged_pairs = _judge_pairs(ordered, prepared, template_docs, settings, pool, tick)
    shared: list[dict[int, list[tuple[int, int]]]] = [{} for _ in range(n)]
    for s, t, _a, _b, _w, counted, _raw in judged_pairs:
        for p in counted:
            shared[s].setdefault(t, []).extend(p.matched_spans())
            shared[t].setdefault(s, []).extend(p.source_spans())
    common = class_common(shared, [p.word_starts if p is not None else None for p in prepared],
                          [p.heading[0] if p is not None else 0 for p in prepared])
    if getattr(settings, "exclude_class_common", True) and any(common):
        template_sources: dict[int, tuple[SourceMatch, ...]] = {}  # each document's, made once
        judged_pairs = [_without_common(item, prepared, template_docs, settings, common, template_sources)
                        for item in judged_pairs]
    pairs: list[CrossPair] = []
    aligned: dict[tuple[int, int], tuple[Passage, ...]] = {}
    for item in judged_pairs:
        s, t, a_in_b, b_in_a, shared_words, counted, raw = item
        aligned[(s, t)] = raw
        if not counted:  # only the class's common text
            continue
        matrix[s][t], matrix[t][s] = a_in_b, b_in_a
        # a counted passage, as a check counts it (a paraphrase's by the words it spans);
        # the aligned document is "a": the passages are its spans and their places in "b"
        pairs.append(CrossPair(names[s], names[t], a_in_b, b_in_a,
                               jaccard(prepared[s].distinct, prepared[t].distinct),
                               shared_words=shared_words, passages=counted))
    return pairs, matrix, order_key, aligned, common


def _template_sources(p: Prepared, template_docs: Sequence[Prepared], settings: Settings) -> tuple[SourceMatch, ...]:
    return tuple(dataclasses.replace(source_match(tp, *match(p, tp, settings)), is_template=True)
                 for tp in template_docs)


def _without_common(item: tuple, prepared: Sequence[Prepared | None], template_docs: Sequence[Prepared],
                    settings: Settings, common: Sequence[tuple[tuple[int, int], ...]],
                    template_sources: dict[int, tuple[SourceMatch, ...]]) -> tuple:
    """A judged pair (:func:`_judge_pairs`) judged again with the text each of the two shares with
    most of the class set aside (no alignment again): counted passages empty when nothing else is shared."""
    s, t = item[0], item[1]
    if not common[s] and not common[t]:
        return item
    ps, pt = prepared[s], prepared[t]
    if s not in template_sources:
        template_sources[s] = _template_sources(ps, template_docs, settings)
    again = _judged(ps, pt, item[6], template_sources[s], settings, (common[s], common[t]))
    return (s, t, *again) if again is not None else (s, t, 0.0, 0.0, 0, (), item[6])


def _judge_pair(ps: Prepared, pt: Prepared, templates: Sequence[SourceMatch], settings: Settings):
    """``ps`` aligned against ``pt`` and judged like a check (exclusions, templates): ``None``
    when no passage counts, else (share of ps in pt, share of pt in ps, shared words, counted
    passages, every passage found)."""
    passages = align_prepared(ps, pt, settings)
    if not passages:
        return None
    return _judged(ps, pt, tuple(passages), templates, settings)


def _judged(ps: Prepared, pt: Prepared, passages: tuple[Passage, ...], templates: Sequence[SourceMatch],
            settings: Settings, common: tuple[tuple[tuple[int, int], ...], tuple[tuple[int, int], ...]] = ((), ())):
    """:func:`_judge_pair` of passages found; ``common``: the text of each of the two that most of
    the class shares (its classmate's passages there do not count, :func:`class_common`)."""
    mine, theirs = common
    source = source_match(pt, passages, 0.0, 0.0)
    if mine:  # judged as a classmate's, which the common text is set aside for
        source = dataclasses.replace(source, classmate=True)
        settings = settings.replace(count_classmates=True)
    judged = apply_exclusions(CheckResult(
        suspect=suspect_info(ps.doc, ps.tokens), suspect_text=ps.doc.text,
        sources=(source,) + tuple(templates), class_common=mine,
        borrowed_percent=0.0, original_percent=100.0, settings=settings), settings, marked=ps.marked, starts=ps.word_starts)
    src = next(x for x in judged.sources if not x.is_template)
    counted = tuple(p for p in src.passages if p.excluded is None)
    if not counted:
        return None
    s_spans = merge(iv for p in counted for iv in p.matched_spans())
    t_spans = merge(iv for p in counted for iv in p.source_spans())
    if mine or theirs:  # a passage joining the common text to a copy counts by the copy
        s_spans, t_spans = subtract(s_spans, merge(mine)), subtract(t_spans, merge(theirs))
    shared_words = words_in(ps.word_starts, s_spans)
    t_starts = pt.word_starts
    return src.containment, words_in(t_starts, t_spans) / max(1, len(t_starts)), shared_words, counted, passages


def _judge_chunk(items: Sequence[tuple[int, int]], docs: dict[int, Prepared], template_docs: Sequence[Prepared],
                 settings: Settings) -> list[tuple]:
    """:func:`_judge_pair` for ``items`` (pairs of keys of ``docs``); runs in a worker too."""
    template_sources: dict[int, tuple[SourceMatch, ...]] = {}
    out = []
    for s, t in items:
        if s not in template_sources:
            template_sources[s] = _template_sources(docs[s], template_docs, settings)
        judged = _judge_pair(docs[s], docs[t], template_sources[s], settings)
        if judged is not None:
            out.append((s, t, *judged))
    return out


def class_common(shared: Sequence[dict[int, list[tuple[int, int]]]], starts: Sequence[np.ndarray | None],
                 headings: Sequence[int] | None = None) -> list[tuple[tuple[int, int], ...]]:
    """For each essay of a class, the text at its opening that most of its classmates share:
    the assignment everyone pasted above the essay, which is no one's borrowing from anyone.
    ``shared[k]`` maps each classmate m to the character ranges of essay k's text matched in m
    (counted passages, either direction); ``starts[k]`` its word starts (None: not read);
    ``headings[k]`` where its heading lines end (:func:`sverka.core.exclusions.heading_end`: a
    title, a title page), its running text beginning there.

    A stretch of essay k counts when at least :data:`CLASS_COMMON_SHARE` of the class's other
    essays, and at least :data:`CLASS_COMMON_MATES` of them, share it; only stretches
    beginning in the first :data:`CLASS_COMMON_OPENING` of its running text's words; and never
    more than :data:`CLASS_COMMON_MAX` of those words (a class copying one essay): when the
    stretches shared by that many make up more, those shared by more classmates are taken (the
    assignment above the copy), and none when no level is small enough."""
    readable = sum(1 for st in starts if st is not None)
    need = max(CLASS_COMMON_MATES, int(np.ceil(CLASS_COMMON_SHARE * (readable - 1))))
    out: list[tuple[tuple[int, int], ...]] = []
    for k, st in enumerate(starts):
        mates = shared[k] if k < len(shared) else {}
        heading = headings[k] if headings is not None and k < len(headings) else 0
        out.append(() if st is None else common_opening(mates, st, heading, need))
    return out


#: Pairs per task when pairs are judged in worker processes: each task carries the
#: canonized documents it needs, so tasks are made of pairs sorted by their first document.
PAIRS_PER_TASK = 48


def _judge_pairs(ordered: Sequence[tuple[int, int]], prepared: Sequence[Prepared | None],
                 template_docs: Sequence[Prepared], settings: Settings, pool, tick: Callable[[], object]):
    """Every pair of ``ordered`` judged, in that order: (s, t, a_in_b, b_in_a, words, passages)
    for the pairs with a counted passage. Alignment is the cost of a cross-check; with a
    ``pool`` both cores share it."""
    chunks = [ordered[k : k + PAIRS_PER_TASK] for k in range(0, len(ordered), PAIRS_PER_TASK)]
    if pool is None or len(chunks) < 2:
        out = []
        for chunk in chunks:
            tick()
            out.extend(_judge_chunk(chunk, _docs_of(chunk, prepared), template_docs, settings))
        return out
    run = secrets.token_hex(8)  # names this cross-check's documents in the workers' caches
    futures = [pool.submit(_judge_chunk_in_worker, run, chunk, _shipped(chunk, prepared), template_docs, settings)
               for chunk in chunks]
    out = []
    try:
        for fut in futures:  # in order: the result does not depend on which worker was faster
            tick()
            out.extend(fut.result())
    except BaseException:
        for fut in futures:
            fut.cancel()
        raise
    return out


def _docs_of(chunk: Sequence[tuple[int, int]], prepared: Sequence[Prepared | None]) -> dict[int, Prepared]:
    return {k: prepared[k] for pair in chunk for k in pair}


def _shipped(chunk: Sequence[tuple[int, int]], prepared: Sequence[Prepared | None]) -> dict[int, tuple[Document, Tokens]]:
    """What a worker needs of the documents of ``chunk``: text and tokens, not what the parent
    derived from them (retrieval's fingerprints), which the worker has no use for."""
    return {k: (p.doc, p.tokens) for k, p in _docs_of(chunk, prepared).items()}


#: In a worker: (cross-check, its documents prepared so far). A document meets several tasks
#: (each carries the documents of its pairs); what aligning derives from it (its seeds
#: sorted, its sentence statistics, its quotations and synonym keys) is kept for the next,
#: at most :data:`CROSS_KEPT_BYTES` of it.
_WORKER_DOCS: list = [None, None]


def _judge_chunk_in_worker(run: str, items: Sequence[tuple[int, int]], shipped: dict[int, tuple[Document, Tokens]],
                           template_docs: Sequence[Prepared], settings: Settings) -> list[tuple]:
    if _WORKER_DOCS[0] != run:
        _WORKER_DOCS[:] = [run, SourceCache(CROSS_KEPT_BYTES)]
    kept: SourceCache = _WORKER_DOCS[1]
    docs = {}
    for k, (doc, tokens) in shipped.items():
        docs[k] = kept.get(k, doc.sha256, settings) or kept.put(k, doc.sha256, settings, Prepared(doc, tokens, settings))
    return _judge_chunk(items, docs, template_docs, settings)


def crosscheck_documents(
    items: Sequence[str | Document],
    settings: Settings,
    *,
    load: Callable[[str], Document],
    check: Callable[[Document], CheckResult] | None = None,
    templates: Sequence[Document] = (),
    progress: Progress = no_progress,
    cancel: CancelToken = NEVER_CANCELLED,
) -> CrossCheckResult:
    """All pairs among ``items``; with ``check`` (a collection's check), each also against it.

    Each pair is judged like a check: the same exclusions (quotations, bibliography,
    ``templates``: what a document shares with the assignment counts for no pair, minimum
    passage). A pair is listed when either share reaches ``settings.crosscheck_threshold``
    or when it shares a counted passage at all (one copied sentence between two essays is
    visible). Shares are shares of words. ``load`` turns a path into a Document (raising a
    SverkaError for an unreadable file).

    Documents are named by their path (a pasted text by its title); two documents of the
    same name are told apart by " (2)", " (3)"... after the name. A collection document that
    is one of ``items`` itself (the same text or path: the class archived and checked again)
    is not paired with them through the collection: their own pair is listed once.
    """
    return crosscheck_prepared(items, settings, load=load, check=check, templates=templates, progress=progress,
                       cancel=cancel)[0]


def unique_names(names: Sequence[str]) -> list[str]:
    """``names`` with each repeated one made unique by " (2)", " (3)"... (in the order given)."""
    taken = set(names)
    seen: set[str] = set()
    out = []
    for name in names:
        if name in seen:
            k = 2
            while f"{name} ({k})" in taken:
                k += 1
            new = f"{name} ({k})"
            taken.add(new)
            name = new
        seen.add(name)
        out.append(name)
    return out


def _source_share(src: SourceMatch, spans: Sequence[tuple[int, int]]) -> float:
    """Share of the words of ``src``'s text inside ``spans`` (sorted, disjoint, in its whole
    text); a long source's from its excerpts, which hold every span of its passages, and the
    words of its whole text they keep."""
    if src.excerpts is None:
        starts = word_starts(src.text)
        return words_in(starts, spans) / max(1, len(starts))
    inside = 0
    for a, b in spans:
        at, part = src.excerpts.part_of(a, b)
        inside += words_in(word_starts(part) + at, [(a, b)])
    return inside / max(1, src.excerpts.words)


def crosscheck_prepared(
    items: Sequence[str | Document],
    settings: Settings,
    *,
    load: Callable[[str], Document],
    check: Callable[[Document], CheckResult] | None = None,
    templates: Sequence[Document] = (),
    progress: Progress = no_progress,
    cancel: CancelToken = NEVER_CANCELLED,
) -> tuple[CrossCheckResult, list[Prepared | None], dict[tuple[int, int], tuple[Passage, ...]]]:
    """:func:`crosscheck_documents`, with each document prepared (None: not read) and the
    passages found in each pair judged, ``(i, j)``: document i's in document j."""
    names: list[str] = []
    docs: list[Document | None] = []
    failed: list = []  # (path, Message)
    for item in items:
        if isinstance(item, Document):
            names.append(_name(item))
            docs.append(item)
            continue
        try:
            doc = load(str(item))
        except SverkaError as e:
            failed.append((str(item), getattr(e, "message", None) or message("error.unreadable", detail=str(e))))
            names.append(str(item))
            docs.append(None)
            continue
        names.append(str(item))
        docs.append(doc)
    names = unique_names(names)
    n = len(docs)
    steps = n + (n if check else 0) + 1
    with _worker_pool(docs) as pool:
        prepared = prepare_many(docs, settings, lambda k: progress(k, steps, "phase.reading_documents"), cancel, pool=pool)
        template_docs = [prepare(t, settings) for t in templates]
        pairs, matrix, order_key, aligned, common = _pairs_among(names, prepared, template_docs, settings, pool,
                                                lambda: (cancel.raise_if_cancelled(),
                                                         progress(n, steps, "phase.comparing_each_other")))
    clusters = _clusters([names[k] for k in range(n) if docs[k] is not None], pairs)
    source_texts: dict[str, str] = {}
    if check is not None:
        # the documents compared here, also stored in the collection: paired above already
        ours_sha = {d.sha256 for d in docs if d is not None}
        ours_path = {d.path for d in docs if d is not None and d.path}
        for k, doc in enumerate(docs):
            if doc is None:
                continue
            cancel.raise_if_cancelled()
            progress(n + 1 + k, steps, "phase.comparing_collection")
            result = check(doc)
            for src in result.sources:
                if src.is_template or src.sha256 in ours_sha or (src.path and src.path in ours_path):
                    continue
                counted = [p for p in src.passages if p.excluded is None]
                if not counted:
                    continue
                b_in_a = _source_share(src, merge(iv for p in counted for iv in p.source_spans()))
                shared_words = words_in(word_starts(doc.text), merge(iv for p in counted for iv in p.matched_spans()))
                if counted:  # what the check counts (a paraphrase's passage by the words it spans)
                    pairs.append(CrossPair(names[k], src.path or src.title, src.containment, b_in_a, src.resemblance,
                                           shared_words=shared_words, passages=tuple(counted)))
                    source_texts[src.path or src.title] = src.source_text  # a long one's excerpts hold the passages
    progress(steps, steps, "phase.done")
    pairs.sort(key=lambda p: (-max(p.a_in_b, p.b_in_a), -p.shared_words, p.a, p.b))
    listed = {name for p in pairs for name in (p.a, p.b)}
    texts = {names[k]: doc.text for k, doc in enumerate(docs) if doc is not None and names[k] in listed}
    texts.update(source_texts)
    return CrossCheckResult(
        documents=tuple(names),
        pairs=tuple(pairs),
        matrix=tuple(tuple(r) for r in matrix),
        failed=tuple(failed),
        sha256=tuple(order_key),
        settings=settings,
        clusters=clusters,
        texts=tuple(sorted((name, text) for name, text in texts.items() if name in listed)),
        class_common=tuple(common) if any(common) else (),
    ), prepared, aligned


def classmate_sources(cross: CrossCheckResult, prepared: Sequence[Prepared | None], settings: Settings,
                      aligned: dict[tuple[int, int], tuple[Passage, ...]] | None = None) -> list[list[SourceMatch]]:
    """For each document of a cross-check (``cross``, its documents ``prepared``), the others
    it shares text with as sources (``SourceMatch.classmate``): every pair with a counted
    passage aligned both ways, so a pair of essays copying each other shows on both. ``aligned``
    (the cross-check's passages of each such pair, :func:`crosscheck_prepared`) holds also the
    pairs sharing only the class's common text, which the sources show, not counted; without
    it, the pairs ``cross`` lists. Only the direction the cross-check did not align is aligned here."""
    position = {name: k for k, name in enumerate(cross.documents)}
    if aligned is not None:
        known_pairs = sorted(aligned)
    else:
        known_pairs = [(position.get(p.a), position.get(p.b)) for p in cross.pairs]
    out: list[list[SourceMatch]] = [[] for _ in prepared]
    for i, j in known_pairs:
        if i is None or j is None or prepared[i] is None or prepared[j] is None:
            continue  # a pair with a collection document
        res = jaccard(prepared[i].distinct, prepared[j].distinct)
        for s, t in ((i, j), (j, i)):
            known = (aligned or {}).get((s, t))  # the cross-check aligned this way already
            if known is not None:
                passages, sent = list(known), sentence_score(prepared[s], prepared[t])
            else:
                passages, res, sent = match(prepared[s], prepared[t], settings)
            if passages:
                out[s].append(dataclasses.replace(source_match(prepared[t], passages, res, sent), classmate=True,
                                                  title=file_title(prepared[t].doc)))
    return out
