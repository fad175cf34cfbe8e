"""Check, compare and cross-check: candidates, alignment, scores.

* :func:`check_document`: a suspect against a collection's store (:mod:`sverka.core.store`).
  Candidates come from the index's retrieval keys (two-word keys with their positions and
  sentence keys, ranked by :mod:`sverka.core.candidates`; for short texts also the seed 000
  longest words); each candidate's stored tokens are aligned with the suspect
  (:func:`sverka.core.align.align`); exclusions and scores are applied last
  (:func:`sverka.core.exclusions.apply_exclusions`). A check against a collection holding
  only S gives what :func:`compare_documents` gives for S.
* :func:`compare_documents`: two documents directly.
* :func:`crosscheck_documents`: every pair of a set that may share a passage (the same keys,
  shared between the documents in numpy), aligned and judged like a check; optionally each
  against an index.
"""

from __future__ import annotations

import contextlib
import dataclasses
import re
import secrets
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, Callable, Sequence

import numpy as np

from .align import SOURCE_WINDOW, SourceSide, align
from .candidates import (PAIR_WORDS, SENTENCE_MIN_TOKENS, co_occurring, sentence_bounds, sentence_keys,
                         supported_seeds, variant_pair_keys)
from .candidates import rank as rank_candidates
from .document import Document
from .errors import CollectionDamaged
from .exclusions import apply_exclusions, heading_end, marked_spans, merge
from .fingerprints import DocumentFingerprints, fingerprint_document
from .messages import Message, message
from .paraphrase import SourceStats, SuspectKeys, paraphrase_passages, suspect_keys
from .progress import NEVER_CANCELLED, CancelToken, Progress, no_progress
from .results import CheckResult, CrossCheckResult, CrossPair, Passage, SourceMatch, SuspectInfo
from .settings import Settings
from .shingles import unique_counts
from .shortdoc import longest_words, short_similarity
from .sorting import distinct
from .text import Tokens, canonize, word_starts, words_in
from .tokens import SortOrders

if TYPE_CHECKING:  # pragma: no cover
    from .store import Store

__all__ = ["Prepared", "check_document", "classmate_sources", "unique_names", "compare_documents", "crosscheck_documents", "crosscheck_prepared", "prepare", "prepare_many", "match"]


@dataclass(frozen=True, eq=False)
class Prepared:
    """A canonized document with what matching needs, each computed on first use."""

    doc: Document
    tokens: Tokens
    settings: Settings
    orders: SortOrders | None = None  # a stored document's (made when it was added), checked before use

    @cached_property
    def fingerprints(self) -> DocumentFingerprints:  # the same code path as a stored document's
        return fingerprint_document(self.tokens, self.settings)

    @property
    def distinct(self) -> np.ndarray:  # uint64: sorted distinct shingle hashes
        return self.fingerprints.distinct

    @property
    def seq2(self) -> np.ndarray:  # uint64: Seq2 of ALGORITHMS.md §5
        return self.fingerprints.sentence_seq2

    @cached_property
    def seq2_counts(self) -> tuple[np.ndarray, np.ndarray]:  # Seq2's distinct values, sorted, and their counts
        return unique_counts(self.seq2)

    @cached_property
    def word_starts(self) -> np.ndarray:  # start of every word of the text
        kept = self.tokens.word_starts  # found by canonization already (not for stored tokens)
        return kept if kept is not None else word_starts(self.doc.text)

    @cached_property
    def marked(self):  # quotations and bibliography of the text, under these settings
        return marked_spans(self.doc.text, self.settings)

    @cached_property
    def source_side(self) -> SourceSide:  # this document's own part of aligning (as a source or a suspect)
        return SourceSide.of(self.tokens, self.settings.align_seed_words, self.settings.min_sentence_words,
                             self.orders)

    @cached_property
    def heading(self) -> tuple[int, int]:  # (characters, tokens) of its heading lines at the top, never matched
        end = heading_end(self.doc.text)
        return end, int(np.searchsorted(np.asarray(self.tokens.starts), end, "left")) if end else 0

    @property
    def pairs(self) -> tuple[np.ndarray, np.ndarray]:  # retrieval pair keys (hashes, positions)
        fp = self.fingerprints
        return fp.pair_hashes, fp.pair_positions

    @cached_property
    def paraphrase_stats(self) -> SourceStats:  # this document's own part of the paraphrase layer
        return SourceStats.of(self.tokens, None if self.orders is None else self.orders.lemmas)

    @cached_property
    def paraphrase_keys(self) -> SuspectKeys:  # its lemmas and their synonyms, as a suspect
        return suspect_keys(self.tokens)

    @cached_property
    def variant_pairs(self) -> tuple[np.ndarray, np.ndarray]:  # the pair keys' synonym variants (a check)
        return variant_pair_keys(self.tokens)

    @cached_property
    def sentences(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:  # retrieval sentence keys
        return sentence_keys(self.tokens, max(SENTENCE_MIN_TOKENS, self.settings.min_sentence_words))


def prepare(doc: Document, settings: Settings, tokens: Tokens | None = None,
            orders: SortOrders | None = None) -> Prepared:
    """Canonize (unless ``tokens`` are given); fingerprints follow on first use. ``orders``:
    those a stored document keeps with its tokens."""
    if tokens is None:
        tokens = canonize(doc.text, drop_adjectives=settings.drop_adjectives)
    return Prepared(doc, tokens, settings, orders)


def _common(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(indices in ``a``, indices in ``b``) of the values two sorted distinct arrays share, by
    searching one in the other (a source's array is a novel's: sorting both again, as
    ``intersect1d`` does, cost more than the rest of scoring it)."""
    if len(a) == 0 or len(b) == 0:
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    at = np.minimum(np.searchsorted(b, a), len(b) - 1)
    hit = np.flatnonzero(b[at] == a)
    return hit, at[hit]


def _jaccard(a: np.ndarray, b: np.ndarray) -> float:
    """Jaccard of two sorted distinct uint64 arrays."""
    if len(a) == 0 and len(b) == 0:
        return 0.0
    inter = len(_common(a, b)[0])
    return inter / (len(a) + len(b) - inter)


def _sentence_score(a: Prepared, b: Prepared) -> float:
    """Seq2 (ALGORITHMS.md §5) of ``a`` found in ``b``, each value as often as both hold it, as
    a share of ``a``'s."""
    if len(a.seq2) == 0:
        return 0.0
    (va, ca), (vb, cb) = a.seq2_counts, b.seq2_counts
    ia, ib = _common(va, vb)
    return float(np.minimum(ca[ia], cb[ib]).sum()) / len(a.seq2)


#: The search keeps passages of at least this many matched words (or the user's smaller
#: minimum); a larger ``min_passage_words`` marks the shorter ones excluded="short" instead
#: of never finding them, so it can be applied to a finished result (apply_exclusions) with
#: the same outcome as a new search.
SEARCH_MIN_WORDS = 8


def _align(a: Prepared, b: Prepared, settings: Settings) -> list[Passage]:
    """The exact layer's passages, then the paraphrase layer's on the sentences they left."""
    min_words = min(settings.min_passage_words, SEARCH_MIN_WORDS)
    exact = align(
        a.tokens,
        b.tokens,
        seed_words=settings.align_seed_words,
        max_gap=settings.max_gap_words,
        min_words=min_words,
        min_sentence_words=settings.min_sentence_words,
        a_word_starts=a.word_starts,
        b_side=b.source_side,
        a_side=a.source_side,  # the suspect's seeds and sentences, sorted once for every source
        a_first=a.heading[1],
    )
    found = paraphrase_passages(a.tokens, b.tokens, exact, min_words=min_words, a_word_starts=a.word_starts,
                                b_stats=b.paraphrase_stats, a_keys=a.paraphrase_keys)
    head = a.heading[0]
    if head and any(p.suspect_start < head for p in found):
        found = [q for p in found for q in (_after_heading(p, head, a.word_starts, min_words),) if q is not None]
    return found


def _after_heading(p: Passage, head: int, starts: np.ndarray, min_words: int) -> Passage | None:
    """``p`` without what lies in the heading lines ending at ``head`` (a paraphrase layer's
    sentence may begin with them); None when too little is left."""
    if p.suspect_start >= head:
        return p
    first = int(np.searchsorted(starts, head, "left"))  # the first word after the headings
    if first >= len(starts):
        return None
    cut = int(starts[first])
    pieces = tuple((max(q[0], cut), q[1], q[2], q[3])
                   for q in (p.pieces or ((p.suspect_start, p.suspect_end, p.source_start, p.source_end),)) if q[1] > cut)
    if not pieces:
        return None
    a0 = min(q[0] for q in pieces)
    words = words_in(starts, [(a0, p.suspect_end)])
    matched = min(words, words_in(starts, merge((q[0], q[1]) for q in pieces)))
    if words < min_words or (p.method != "paraphrase" and matched < min_words):
        return None
    return dataclasses.replace(p, suspect_start=a0, words=words, matched=matched, pieces=pieces)


def _short_passage(a: Prepared, b: Prepared) -> Passage | None:
    """Seed 000: one passage over the whole suspect, mapped onto the source's matching words."""
    ta, tb = a.tokens, b.tokens
    if len(ta) == 0 or len(tb) == 0:
        return None
    words = set(longest_words(ta.lemmas).tolist()) if any(ta.lemmas) else set()
    hb = np.asarray(tb.hashes)
    hit = np.flatnonzero(np.isin(hb, np.fromiter(words, dtype=np.uint64, count=len(words)))) if words else []
    if len(hit):
        b0, b1 = int(tb.starts[hit[0]]), int(tb.ends[hit[-1]])
    else:
        b0, b1 = int(tb.starts[0]), int(tb.ends[-1])
    return Passage(int(ta.starts[0]), int(ta.ends[-1]), b0, b1, len(ta), "short", kind="short")


def match(a: Prepared, b: Prepared, settings: Settings, *, short: bool = False,
          always_score: bool = True) -> tuple[list[Passage], float, float]:
    """(passages, resemblance, sentence score) of suspect ``a`` against source ``b``.

    ``always_score=False``: without passages the measures are not computed (0.0): a check
    drops such a candidate anyway, and hashing a whole novel for nothing is its dearest step."""
    passages = _align(a, b, settings)
    if short and not passages:
        p = _short_passage(a, b)
        passages = [p] if p else []
    if not passages and not always_score:
        return passages, 0.0, 0.0
    return passages, _jaccard(a.distinct, b.distinct), _sentence_score(a, b)


def _is_short(a: Prepared, settings: Settings) -> bool:
    return len(a.tokens) < settings.short_text_words


def _file_title(doc: Document) -> str:
    """What a checked document is called: its file's name (a PDF's or a DOCX's own title is
    often a template's or a source's: «Горящее сердце» for Sidorov's essay), a pasted text's title."""
    import os

    return (os.path.basename(doc.path) or doc.path) if doc.path else (doc.title or "")


def _suspect_info(doc: Document, tokens: Tokens) -> SuspectInfo:
    return SuspectInfo(
        path=doc.path,
        title=_file_title(doc),
        chars=len(doc.text),
        words=tokens.word_count,
        language=tokens.language,
        warnings=tuple(doc.warnings) + tuple(tokens.warnings),
        sha256=doc.sha256,
    )


def _coverage(passages: Sequence[Passage], starts: np.ndarray) -> float:
    """Share of the suspect's words (which start at ``starts``) matched by ``passages``, 0..1."""
    if not len(starts):
        return 0.0
    return words_in(starts, merge(iv for p in passages for iv in p.matched_spans())) / len(starts)


#: A retrieval key held more than this many times in the collection is skipped (boilerplate).
MAX_POSTING = 5000


#: Documents reached only through variant pair keys (a paraphrase's source) aligned per check,
#: at most: a variant key of two common words meets many documents by chance.
VARIANT_CANDIDATES = 6
#: In the ranking with variant keys, a cluster of 3 or 4 tokens also counts when it covers this
#: share of its suspect sentence (a whole sentence otherwise): a paraphrased sentence keeps
#: few neighbouring pairs, and the paraphrase layer judges the sentence, not the run.
PARAPHRASE_SHARE = 0.5


def retrieve(index: "Store", a: Prepared, settings: Settings) -> list[tuple[int, int]]:
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
    bounds = sentence_bounds(a.tokens)
    near = dict(near_suspect=gap + PAIR_WORDS + 1, near_source=gap * SOURCE_WINDOW + 2 * PAIR_WORDS + 2,
                limit=settings.max_candidates, sentence_bounds=bounds)
    spans: list[tuple[int, int]] = []
    exact = rank_candidates(a.pairs, pair_rows, a.sentences, sent_rows, sentence_share=1.0, spans=spans, **near)
    vh, vpos = a.variant_pairs
    keep = ~_whole_sentences_in(spans, bounds, len(a.tokens))[vpos] if len(vpos) else np.zeros(0, bool)
    vh, vpos = vh[keep], vpos[keep]
    # only the documents not found yet are ranked again (a document's clusters are its own: the
    # rows of the others change nothing of its score)
    found = np.array(sorted(d for d, _ in exact), dtype=np.int64)
    pair_rows = tuple(x[~np.isin(pair_rows[1], found)] for x in pair_rows)
    sent_rows = tuple(x[~np.isin(sent_rows[1], found)] for x in sent_rows)
    new = np.setdiff1d(distinct(vh), distinct(h), assume_unique=True)
    if len(new):
        more = index.pair_postings(new, max_posting=MAX_POSTING)
        pair_rows = tuple(np.concatenate([x, y[~np.isin(more[1], found)]]) for x, y in zip(pair_rows, more))
    with_variants = rank_candidates((np.concatenate([h, vh]), np.concatenate([a.pairs[1], vpos])), pair_rows,
                                    a.sentences, sent_rows, sentence_share=PARAPHRASE_SHARE,
                                    **{**near, "limit": VARIANT_CANDIDATES})
    return exact + with_variants


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


def check_document(
    index: "Store",
    suspect: Document,
    settings: Settings,
    progress: Progress = no_progress,
    cancel: CancelToken = NEVER_CANCELLED,
    *,
    exclude_ids: Sequence[int] = (),
) -> CheckResult:
    """Which documents of ``index`` the suspect borrows from (see the module docstring).

    Sources whose passages (before exclusions) cover less than
    ``settings.min_source_containment`` of the suspect are not listed.
    """
    progress(0, 0, "phase.reading_suspect")
    a = prepare(suspect, settings)
    cancel.raise_if_cancelled()

    # The suspect itself, already in the collection (the same text, or the same file): it is
    # not its own source; the result says when it was added and scores the rest.
    itself = [d for d in (index.find_by_sha256(suspect.sha256),) if d is not None]
    if suspect.path:
        same_path = index.find_by_path(suspect.path)
        if same_path is not None and same_path.id not in itself:
            itself.append(same_path.id)
    in_collection = index.info(itself[0]) if itself else None

    limit = settings.max_candidates
    found: dict[int, int] = dict(retrieve(index, a, settings))
    short_ok: set[int] = set()
    short = _is_short(a, settings)
    if short and len(a.tokens):
        words = longest_words(a.tokens.lemmas)
        cands = index.short_candidates(words, min_shared=2, limit=limit)
        lengths = index.short_lengths([d for d, _ in cands]) if cands else {}
        for doc_id, shared in cands:
            shorter = min(len(distinct(words)), lengths.get(doc_id, 0))
            if shorter and 100.0 * shared / shorter >= settings.short_text_similarity:
                short_ok.add(doc_id)
                found.setdefault(doc_id, shared)
    for doc_id in (*exclude_ids, *itself):
        found.pop(doc_id, None)
        short_ok.discard(doc_id)
    templates = set(index.template_ids())

    ids = sorted(found, key=lambda d: (-found[d], d))
    sources: list[SourceMatch] = []
    damaged: list[str] = []
    kept = _kept_for(index)
    infos = index.infos(ids)
    for k, doc_id in enumerate(ids):
        cancel.raise_if_cancelled()
        progress(k, len(ids), "phase.comparing_collection")
        info = infos.get(doc_id)
        if info is None:  # removed since retrieval found it (another desktop sharing the archive)
            continue
        b = kept.get(doc_id, info.sha256, settings)
        if b is None:
            try:
                stored = index.load(doc_id, info)  # its description read with the others'
            except CollectionDamaged as e:  # the check goes on with the other documents
                if doc_id in index.infos([doc_id]):  # not removed since (another desktop): damaged
                    damaged.append(damaged_source_warning(str(e)))
                continue
            b = kept.put(doc_id, info.sha256, settings,
                         prepare(Document(stored.text), settings, tokens=stored.tokens, orders=stored.orders))
        passages, res, sent = match(a, b, settings, short=doc_id in short_ok, always_score=False)
        if not passages:
            continue
        if _coverage(passages, a.word_starts) < settings.min_source_containment and doc_id not in short_ok:
            continue
        sources.append(
            SourceMatch(
                source_id=info.id,
                path=info.path,
                title=info.title,
                text=b.doc.text,
                sha256=info.sha256,
                containment=0.0,
                resemblance=res,
                sentence_score=sent,
                passages=tuple(passages),
                is_template=info.is_template or info.id in templates,
            )
        )
    progress(len(ids), len(ids), "phase.done")
    sources = resolve_overlaps(sources, suspect.text, a.word_starts)
    info_of_suspect = _suspect_info(suspect, a.tokens)
    if damaged:
        info_of_suspect = dataclasses.replace(info_of_suspect, warnings=info_of_suspect.warnings + tuple(damaged))
    raw = CheckResult(
        suspect=info_of_suspect,
        suspect_text=suspect.text,
        sources=tuple(sources),
        borrowed_percent=0.0,
        original_percent=100.0,
        settings=settings,
        in_collection=in_collection,
        collection_root=index.root(),
    )
    return apply_exclusions(raw, settings, starts=a.word_starts)


def _pieces_of(p: Passage) -> tuple[tuple[int, int, int, int], ...]:
    return p.pieces or ((p.suspect_start, p.suspect_end, p.source_start, p.source_end),)


def _explained(p: Passage, lo: int, hi: int, starts: np.ndarray) -> int:
    """Words of the suspect in [lo, hi) that ``p`` matched (inside its pieces)."""
    return words_in(starts, merge((max(q[0], lo), min(q[1], hi)) for q in _pieces_of(p) if q[0] < hi and q[1] > lo))


def _without(p: Passage, lo: int, hi: int, text: str, source: str, starts: np.ndarray) -> list[Passage]:
    """``p`` without the suspect's [lo, hi): its pieces before and after, as one or two
    passages (a piece cut there keeps the share of its source text that its part holds)."""
    before, after = [], []
    for a0, a1, b0, b1 in _pieces_of(p):
        if a1 <= lo:
            before.append((a0, a1, b0, b1))
        elif a0 >= hi:
            after.append((a0, a1, b0, b1))
        else:
            scale = (b1 - b0) / (a1 - a0) if a1 > a0 else 0.0
            if a0 < lo:
                end = len(text[a0:lo].rstrip()) + a0  # no space after the last word left
                before.append((a0, end, b0, b0 + round((end - a0) * scale)))
            if a1 > hi:
                after.append((hi, a1, b1 - round((a1 - hi) * scale), b1))
    out = []
    for part in (before, after):
        part = [q for q in part if words_in(starts, [(q[0], q[1])])]
        if not part:
            continue
        c0, c1 = min(q[0] for q in part), max(q[1] for q in part)
        matched = words_in(starts, merge((q[0], q[1]) for q in part))
        kind = p.kind
        if len(part) == 1 and _WORDS.findall(text[c0:c1].lower()) == _WORDS.findall(source[part[0][2]:part[0][3]].lower()):
            kind = "verbatim"  # what is left of an edited passage may be a copy word for word
        out.append(dataclasses.replace(p, suspect_start=c0, suspect_end=c1, source_start=min(q[2] for q in part),
                                       source_end=max(q[3] for q in part), words=words_in(starts, [(c0, c1)]),
                                       matched=matched, pieces=tuple(part), kind=kind))
    return out


_WORDS = re.compile(r"\w+")


def resolve_overlaps(sources: list[SourceMatch], text: str, starts: np.ndarray) -> list[SourceMatch]:
    """Where passages of two sources overlap in the suspect, the source that explains the
    words of the overlap better (more of them inside its matched pieces: a sentence copied
    word for word from one, edited against the other) keeps them and the other passage gives
    them up; equally good, both keep them (the same sentence in two sources). A source left
    with no passage is dropped. Templates are not involved (they are judged apart)."""
    live = [k for k, src in enumerate(sources) if not src.is_template and src.passages]
    if len(live) < 2:
        return sources
    passages = {k: list(sources[k].passages) for k in live}
    changed = False
    tied: set[tuple[int, int]] = set()  # pairs of passages (alive in ``passages``) found equally good
    for _ in range(4 * sum(len(v) for v in passages.values()) + 4):  # each change removes overlap
        flat = sorted(((p.suspect_start, p.suspect_end, k, n) for k in live for n, p in enumerate(passages[k])))
        hit = None
        for x in range(len(flat)):
            s0, e0, k0, n0 = flat[x]
            for y in range(x + 1, len(flat)):
                s1, e1, k1, n1 = flat[y]
                if s1 >= e0:
                    break
                if k1 == k0:
                    continue
                lo, hi = s1, min(e0, e1)
                p0, p1 = passages[k0][n0], passages[k1][n1]
                if (id(p0), id(p1)) in tied:
                    continue
                x0, x1 = _explained(p0, lo, hi, starts), _explained(p1, lo, hi, starts)
                if x0 != x1:
                    hit = (k1, n1, lo, hi) if x0 > x1 else (k0, n0, lo, hi)
                    break
                tied.add((id(p0), id(p1)))
            if hit:
                break
        if hit is None:
            break
        k, n, lo, hi = hit
        passages[k][n : n + 1] = _without(passages[k][n], lo, hi, text, sources[k].text, starts)
        changed = True
    if not changed:
        return sources
    out = []
    for k, src in enumerate(sources):
        if k in passages:
            if not passages[k]:
                continue
            src = dataclasses.replace(src, passages=tuple(sorted(passages[k], key=lambda p: (p.suspect_start, p.suspect_end))))
        out.append(src)
    return out


def damaged_source_warning(detail: str) -> Message:
    """The warning of a check that left out a collection document whose stored data is damaged."""
    return message("warning.source_damaged", detail=detail)


class _Kept:
    """Candidates prepared by the last checks against one collection, kept for the next ones:
    a class checked against the same reference texts meets the same sources again, and a
    source's preparation (reading, decoding, sorting its seeds) costs more than aligning it.
    Keyed by id, SHA-256 (ids are never reused in one file; the text's hash makes sure) and
    settings; bounded by ``limit`` (:data:`KEPT_BYTES` unless told), least recently used out first."""

    def __init__(self, limit: int | None = None) -> None:
        import threading
        from collections import OrderedDict

        self._items: OrderedDict = OrderedDict()
        self._bytes = 0
        self._limit = KEPT_BYTES if limit is None else limit
        self._lock = threading.Lock()  # the window may check in more than one thread

    @staticmethod
    def _size(p: Prepared) -> int:  # text (at most 4 bytes a character) and ~15 arrays of tokens
        return 2 * len(p.doc.text) + 120 * len(p.tokens)

    def get(self, doc_id: int, sha: str, settings: Settings) -> Prepared | None:
        key = (doc_id, sha, settings)
        with self._lock:
            p = self._items.get(key)
            if p is not None:
                self._items.move_to_end(key)
        return p

    def put(self, doc_id: int, sha: str, settings: Settings, p: Prepared) -> Prepared:
        size = self._size(p)
        if size > self._limit // 4:  # a very large source: not worth evicting the rest for
            return p
        with self._lock:
            if (doc_id, sha, settings) not in self._items:
                self._items[(doc_id, sha, settings)] = p
                self._bytes += size
            while self._bytes > self._limit and self._items:
                _, old = self._items.popitem(last=False)
                self._bytes -= self._size(old)
        return p


#: Memory the prepared candidates kept between checks may take (estimated), per collection.
KEPT_BYTES = 96 * 1024 * 1024
#: The same for each worker of a cross-check, whose documents (essays) are cheap to prepare
#: again: 300 essays of 20 KB took as long with 1, 16, 32 or 96 MB kept (within the machine's
#: drift), and each worker's peak was 117, 131, 159 and 209-224 MB (docs/BENCHMARKS.md).
CROSS_KEPT_BYTES = 16 * 1024 * 1024


def _kept_for(index: "Store") -> _Kept:
    kept = getattr(index, "_sverka_kept", None)
    if kept is None:
        kept = _Kept()
        index._sverka_kept = kept
    return kept


def _source_match(b: Prepared, passages: Sequence[Passage], res: float, sent: float) -> SourceMatch:
    d = b.doc
    return SourceMatch(
        source_id=None,
        path=d.path,
        title=d.title or (d.path or ""),
        text=d.text,
        sha256=d.sha256,
        containment=0.0,
        resemblance=res,
        sentence_score=sent,
        passages=tuple(passages),
    )


def _common_folder(paths: Sequence[str | None]) -> str | None:
    """The deepest folder holding every one of ``paths`` (None when none has a path)."""
    import os

    folders = [os.path.dirname(os.path.abspath(p)) for p in paths if p]
    try:
        return os.path.commonpath(folders) if folders else None
    except ValueError:
        return None


def compare_prepared(a: Prepared, b: Prepared, settings: Settings) -> CheckResult:
    short = _is_short(a, settings) or _is_short(b, settings)
    if short:
        la, lb = longest_words(a.tokens.lemmas), longest_words(b.tokens.lemmas)
        short = short_similarity(la, lb) >= settings.short_text_similarity
    passages, res, sent = match(a, b, settings, short=short)
    raw = CheckResult(
        suspect=_suspect_info(a.doc, a.tokens),
        suspect_text=a.doc.text,
        sources=(_source_match(b, passages, res, sent),),
        borrowed_percent=0.0,
        original_percent=100.0,
        settings=settings,
        exact_duplicate_of=(b.doc.title or b.doc.path or "") if a.doc.sha256 == b.doc.sha256 else None,
        collection_root=_common_folder([a.doc.path, b.doc.path]),
    )
    return apply_exclusions(raw, settings, starts=a.word_starts)


def compare_documents(
    a: Document,
    b: Document,
    settings: Settings,
    progress: Progress = no_progress,
    cancel: CancelToken = NEVER_CANCELLED,
) -> CheckResult:
    """The result of checking ``a`` against ``b`` alone; the one source is always listed."""
    progress(0, 3, "phase.reading_first")
    pa = prepare(a, settings)
    cancel.raise_if_cancelled()
    progress(1, 3, "phase.reading_second")
    pb = prepare(b, settings)
    cancel.raise_if_cancelled()
    progress(2, 3, "phase.comparing")
    result = compare_prepared(pa, pb, settings)
    progress(3, 3, "phase.done")
    return result


# -- cross-check ----------------------------------------------------------------------


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
    from .workers import default_workers

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
    from .workers import pool_initializer, process_pool

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
    """The listed pairs among ``prepared``, the containment matrix and the documents' SHA-256."""
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
    pairs: list[CrossPair] = []
    judged_pairs = _judge_pairs(ordered, prepared, template_docs, settings, pool, tick)
    aligned: dict[tuple[int, int], tuple[Passage, ...]] = {}
    for s, t, a_in_b, b_in_a, shared_words, counted, raw in judged_pairs:
        aligned[(s, t)] = raw
        matrix[s][t], matrix[t][s] = a_in_b, b_in_a
        if counted:  # a counted passage, as a check counts it (a paraphrase's by the words it spans)
            # the aligned document is "a": the passages are its spans and their places in "b"
            pairs.append(CrossPair(names[s], names[t], a_in_b, b_in_a,
                                   _jaccard(prepared[s].distinct, prepared[t].distinct),
                                   shared_words=shared_words, passages=counted))
    return pairs, matrix, order_key, aligned


def _judge_pair(ps: Prepared, pt: Prepared, templates: Sequence[SourceMatch], settings: Settings):
    """``ps`` aligned against ``pt`` and judged like a check (exclusions, templates): ``None``
    when no passage counts, else (share of ps in pt, share of pt in ps, shared words, counted
    passages, every passage found)."""
    passages = _align(ps, pt, settings)
    if not passages:
        return None
    judged = apply_exclusions(CheckResult(
        suspect=_suspect_info(ps.doc, ps.tokens), suspect_text=ps.doc.text,
        sources=(_source_match(pt, passages, 0.0, 0.0),) + tuple(templates),
        borrowed_percent=0.0, original_percent=100.0, settings=settings), settings, marked=ps.marked, starts=ps.word_starts)
    src = next(x for x in judged.sources if not x.is_template)
    counted = tuple(p for p in src.passages if p.excluded is None)
    if not counted:
        return None
    shared_words = words_in(ps.word_starts, merge(iv for p in counted for iv in p.matched_spans()))
    t_starts = pt.word_starts
    t_spans = merge((q[2], q[3]) for p in counted for q in (p.pieces or ((0, 0, p.source_start, p.source_end),)))
    return src.containment, words_in(t_starts, t_spans) / max(1, len(t_starts)), shared_words, counted, tuple(passages)


def _judge_chunk(items: Sequence[tuple[int, int]], docs: dict[int, Prepared], template_docs: Sequence[Prepared],
                 settings: Settings) -> list[tuple]:
    """:func:`_judge_pair` for ``items`` (pairs of keys of ``docs``); runs in a worker too."""
    template_sources: dict[int, tuple[SourceMatch, ...]] = {}
    out = []
    for s, t in items:
        if s not in template_sources:
            template_sources[s] = tuple(
                dataclasses.replace(_source_match(tp, *match(docs[s], tp, settings)), is_template=True)
                for tp in template_docs)
        judged = _judge_pair(docs[s], docs[t], template_sources[s], settings)
        if judged is not None:
            out.append((s, t, *judged))
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
        _WORKER_DOCS[:] = [run, _Kept(CROSS_KEPT_BYTES)]
    kept: _Kept = _WORKER_DOCS[1]
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
    from .errors import SverkaError

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
        pairs, matrix, order_key, aligned = _pairs_among(names, prepared, template_docs, settings, pool,
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
                s_starts = word_starts(src.text)
                b_in_a = words_in(s_starts, merge((q[2], q[3]) for p in counted for q in (p.pieces or ((0, 0, p.source_start, p.source_end),)))) / max(1, len(s_starts))
                shared_words = words_in(word_starts(doc.text), merge(iv for p in counted for iv in p.matched_spans()))
                if counted:  # what the check counts (a paraphrase's passage by the words it spans)
                    pairs.append(CrossPair(names[k], src.path or src.title, src.containment, b_in_a, src.resemblance,
                                           shared_words=shared_words, passages=tuple(counted)))
                    source_texts[src.path or src.title] = src.text
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
    ), prepared, aligned


def classmate_sources(cross: CrossCheckResult, prepared: Sequence[Prepared | None], settings: Settings,
                      aligned: dict[tuple[int, int], tuple[Passage, ...]] | None = None) -> list[list[SourceMatch]]:
    """For each document of a cross-check (``cross``, its documents ``prepared``), the others
    it shares text with as sources (``SourceMatch.classmate``): every listed pair aligned
    both ways, so a pair of essays copying each other shows on both. Only a pair the
    cross-check lists (a counted passage) is looked at, and only in the direction the cross-check
    did not align already (``aligned``: its passages of each pair judged)."""
    position = {name: k for k, name in enumerate(cross.documents)}
    out: list[list[SourceMatch]] = [[] for _ in prepared]
    for pair in cross.pairs:
        i, j = position.get(pair.a), position.get(pair.b)
        if i is None or j is None or prepared[i] is None or prepared[j] is None:
            continue  # a pair with a collection document
        for s, t in ((i, j), (j, i)):
            known = (aligned or {}).get((s, t))  # the cross-check aligned this way already
            if known is not None:
                passages, res, sent = list(known), pair.resemblance, _sentence_score(prepared[s], prepared[t])
            else:
                passages, res, sent = match(prepared[s], prepared[t], settings)
            if passages:
                out[s].append(dataclasses.replace(_source_match(prepared[t], passages, res, sent), classmate=True,
                                                  title=_file_title(prepared[t].doc)))
    return out
