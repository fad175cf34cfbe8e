"""Check and compare: candidates, alignment, scores.

* :func:`check_document`: a suspect against a collection's store (:mod:`sverka.core.store`).
  Candidates come from the index's retrieval keys (two-word keys with their positions and
  sentence keys, ranked by :mod:`sverka.core.candidates`; for short texts also the seed 000
  longest words); each candidate's stored tokens are aligned with the suspect
  (:func:`sverka.core.align.align`); exclusions and scores are applied last
  (:func:`sverka.core.exclusions.apply_exclusions`). A check against a collection holding
  only S gives what :func:`compare_documents` gives for S. After the lexical layers, the
  meaning layer (:func:`sverka.core.bymeaning.add_meaning`) judges the sentences they left
  unexplained: reworded and translated ones, also from sources only it finds.
* :func:`compare_documents`: two documents directly.

A class's cross-check is :mod:`sverka.core.crosscheck`; the sources kept between checks,
:mod:`sverka.core.sourcecache`.
"""

from __future__ import annotations

import dataclasses
import functools
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, Sequence

import numpy as np

from .ahead import MIN_JOBS, Ahead
from .align import SourceSide, align
from .bymeaning import READ_ENCODED_MAX, add_meaning, near_sentences
from .candidates import retrieve, sentence_bounds, variant_pair_keys
from .document import Document
from .errors import CollectionDamaged
from .exclusions import apply_exclusions, collection_common, heading_end, marked_spans
from .fingerprints import DocumentFingerprints, fingerprint_document
from .kinds import kind_after_cut, passage_kind
from .intervals import merge
from .keys import SENTENCE_MIN_TOKENS, sentence_keys
from .meaning import ADD_MAX_CHARS, vector_spans
from .messages import Message, message
from .paraphrase import SourceStats, SuspectKeys, paraphrase_passages, suspect_keys
from .progress import NEVER_CANCELLED, CancelToken, Progress, no_progress
from .refusals import piece_inside, refuse_contradictions
from .results import CheckResult, Passage, SourceMatch, SuspectInfo
from .settings import Settings
from .shingles import unique_counts
from .shortdoc import longest_words, short_similarity
from .sorting import common, distinct
from .sourcecache import SourceCache
from .synonyms import related_of
from .text import Tokens, canonize, word_starts, words_in
from .tokens import SortOrders
from .words import WRITTEN_WORD
from .windows import (EXCERPTS_ABOVE, Window, cut_excerpts, kept_hits, known_bytes, read_excerpts, read_windows, scores,
                      to_whole, whole_sentences, window_excerpts)

if TYPE_CHECKING:  # pragma: no cover
    from .store import Store

__all__ = ["Prepared", "align_prepared", "check_document", "common_folder", "compare_documents", "compare_prepared",
           "file_title", "jaccard", "match", "prepare", "sentence_score", "source_match", "suspect_info"]


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
    def related(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:  # its lemmas' synonyms and families
        return related_of(np.asarray(self.tokens.hashes, dtype=np.uint64))

    @cached_property
    def paraphrase_keys(self) -> SuspectKeys:  # its lemmas and their synonyms, as a suspect
        return suspect_keys(self.tokens, self.related)

    @cached_property
    def variant_pairs(self) -> tuple[np.ndarray, np.ndarray]:  # the pair keys' synonym variants (a check)
        return variant_pair_keys(self.tokens, self.related)

    @cached_property
    def sentence_bounds(self) -> tuple[np.ndarray, np.ndarray]:  # each token's sentence: its first token, one past its last
        return sentence_bounds(self.tokens)

    @cached_property
    def sentences(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:  # retrieval sentence keys
        return sentence_keys(self.tokens, max(SENTENCE_MIN_TOKENS, self.settings.min_sentence_words))


@dataclass(frozen=True, eq=False)
class _Windowed(Prepared):
    """Windows of a long stored document as a source to align (:mod:`sverka.core.windows`):
    its seeds, sentences and paraphrase statistics made with the whole document's repeats
    and rarity."""

    window: Window | None = None

    @property
    def source_side(self) -> SourceSide:
        return self.window.side

    @property
    def paraphrase_stats(self) -> SourceStats:
        return self.window.stats


def prepare(doc: Document, settings: Settings, tokens: Tokens | None = None,
            orders: SortOrders | None = None) -> Prepared:
    """Canonize (unless ``tokens`` are given); fingerprints follow on first use. ``orders``:
    those a stored document keeps with its tokens."""
    if tokens is None:
        tokens = canonize(doc.text, drop_adjectives=settings.drop_adjectives)
    return Prepared(doc, tokens, settings, orders)


def jaccard(a: np.ndarray, b: np.ndarray) -> float:
    """Jaccard of two sorted distinct uint64 arrays."""
    if len(a) == 0 and len(b) == 0:
        return 0.0
    inter = len(common(a, b)[0])
    return inter / (len(a) + len(b) - inter)


def sentence_score(a: Prepared, b: Prepared) -> float:
    """Seq2 (ALGORITHMS.md §5) of ``a`` found in ``b``, each value as often as both hold it, as
    a share of ``a``'s."""
    if len(a.seq2) == 0:
        return 0.0
    (va, ca), (vb, cb) = a.seq2_counts, b.seq2_counts
    ia, ib = common(va, vb)
    return float(np.minimum(ca[ia], cb[ib]).sum()) / len(a.seq2)


#: The search keeps passages of at least this many matched words (or the user's smaller
#: minimum); a larger ``min_passage_words`` marks the shorter ones excluded="short" instead
#: of never finding them, so it can be applied to a finished result (apply_exclusions) with
#: the same outcome as a new search.
SEARCH_MIN_WORDS = 8


def align_prepared(a: Prepared, b: Prepared, settings: Settings) -> list[Passage]:
    """The exact layer's passages, then the paraphrase layer's on the sentences they left, less
    the sentences that contradict their source's (:mod:`sverka.core.refusals`)."""
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
        kind_of=passage_kind,
    )
    found = paraphrase_passages(a.tokens, b.tokens, exact, min_words=min_words, a_word_starts=a.word_starts,
                                b_stats=b.paraphrase_stats, a_keys=a.paraphrase_keys)
    found = refuse_contradictions(found, a.tokens, b.tokens, a.word_starts, min_words)
    head = a.heading[0]
    if head and any(p.suspect_start < head for p in found):
        found = [q for p in found for q in (_after_heading(p, head, a.tokens, b.tokens, a.word_starts, min_words),)
                 if q is not None]
    return found


def _after_heading(p: Passage, head: int, a: Tokens, b: Tokens, starts: np.ndarray, min_words: int) -> Passage | None:
    """``p`` without what lies in the heading lines ending at ``head`` (a paraphrase layer's
    sentence may begin with them), a piece's source side cut after as many tokens as its
    suspect side (:func:`sverka.core.refusals.piece_inside`), and its kind told again of what is
    left (:func:`sverka.core.kinds.kind_after_cut`); None when too little is left."""
    if p.suspect_start >= head:
        return p
    first = int(np.searchsorted(starts, head, "left"))  # the first word after the headings
    if first >= len(starts):
        return None
    cut = int(starts[first])
    pieces = tuple(piece_inside(q, cut, max(q[1], cut), a, b) if q[0] < cut else q
                   for q in p.matched_pieces() if q[1] > cut)
    if not pieces:
        return None
    a0 = min(q[0] for q in pieces)
    words = words_in(starts, [(a0, p.suspect_end)])
    matched = min(words, words_in(starts, merge((q[0], q[1]) for q in pieces)))
    if words < min_words or (p.method != "paraphrase" and matched < min_words):
        return None
    return dataclasses.replace(p, suspect_start=a0, source_start=min(q[2] for q in pieces),
                               source_end=max(q[3] for q in pieces), words=words, matched=matched, pieces=pieces,
                               kind=kind_after_cut(p.method, p.kind, pieces, a, b))


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
    passages = align_prepared(a, b, settings)
    if short and not passages:
        p = _short_passage(a, b)
        passages = [p] if p else []
    if not passages and not always_score:
        return passages, 0.0, 0.0
    return passages, jaccard(a.distinct, b.distinct), sentence_score(a, b)


def _is_short(a: Prepared, settings: Settings) -> bool:
    return len(a.tokens) < settings.short_text_words


def file_title(doc: Document) -> str:
    """What a checked document is called: its file's name (a PDF's or a DOCX's own title is
    often a template's or a source's: «Горящее сердце» for Sidorov's essay), a pasted text's title."""
    import os

    return (os.path.basename(doc.path) or doc.path) if doc.path else (doc.title or "")


def suspect_info(doc: Document, tokens: Tokens) -> SuspectInfo:
    return SuspectInfo(
        path=doc.path,
        title=file_title(doc),
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


def check_document(
    index: "Store",
    suspect: Document,
    settings: Settings,
    progress: Progress = no_progress,
    cancel: CancelToken = NEVER_CANCELLED,
    *,
    exclude_ids: Sequence[int] = (),
    cache: SourceCache | None = None,
    whole_sources: bool = False,
) -> CheckResult:
    """Which documents of ``index`` the suspect borrows from (see the module docstring).

    Sources whose passages (before exclusions) cover less than
    ``settings.min_source_containment`` of the suspect are not listed. ``cache`` keeps the
    sources prepared here for the next checks against the same collection (its owner's).
    A long source not kept there is aligned in windows around the suspect's keys
    (:mod:`sverka.core.windows`) and scored from them and the counts kept with its tokens. A
    source longer than :data:`~sverka.core.windows.EXCERPTS_ABOVE` characters is never read
    whole to be shown: its result carries excerpts around its passages
    (:class:`~sverka.core.results.Excerpts`, the same whichever way it was read).
    ``whole_sources``: read, align and score every source whole (the differential test's
    reference).
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
    hits: dict[int, tuple[np.ndarray, np.ndarray, np.ndarray]] = {}
    found: dict[int, int] = dict(retrieve(index, a, settings, hits))
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
    unreadable: list[int] = []
    read_sentences: dict[int, np.ndarray] = {}  # source -> its sentences the check read (whole-text offsets)
    long: dict[int, tuple[int, np.ndarray | Window, int]] = {}  # source carried as excerpts -> (its length,
    # its sentence spans when the check read it whole, else its windows; its words)
    kept = cache if cache is not None else SourceCache(0)
    infos = index.infos(ids)
    ahead = _align_ahead(a, ids, infos, kept, settings, short_ok)
    for k, doc_id in enumerate(ids):
        cancel.raise_if_cancelled()
        progress(k, len(ids), "phase.comparing_collection")
        info = infos.get(doc_id)
        if info is None:  # removed since retrieval found it (another desktop sharing the archive)
            continue
        b = ahead.result(doc_id)[0] if doc_id in ahead else kept.get(doc_id, info.sha256, settings)
        window = _windows(index, doc_id, info.sha256, hits[doc_id], a.sentence_bounds, settings, kept) \
            if b is None and doc_id in hits \
            and doc_id not in short_ok and not whole_sources \
            and not kept.worth_keeping(doc_id, info.sha256, info.chars, info.words) else None
        scored = None
        if window is not None:  # a long source: aligned in the windows around its keys
            if not len(window.tokens):
                continue
            passages = align_prepared(a, _Windowed(Document(window.tokens.text), window.tokens, settings,
                                                   window=window), settings)
            if not passages:
                continue
            passages = to_whole(passages, window)
            if _coverage(passages, a.word_starts) < settings.min_source_containment:
                continue
            scored = scores(window, settings.shingle_words, a.distinct, a.seq2_counts, len(a.seq2))
        excerpts = None
        try:  # the text shown beside the suspect (a long source's: its windows until its excerpts are read)
            if scored is not None:
                if info.chars > EXCERPTS_ABOVE:
                    text, excerpts = "", window_excerpts(window, info.chars, info.words)
                else:
                    text = index.text(doc_id)
            elif b is None:  # the whole source: aligned and scored
                stored = index.load(doc_id, info)  # its description read with the others'
                b = kept.put(doc_id, info.sha256, settings,
                             prepare(Document(stored.text), settings, tokens=stored.tokens, orders=stored.orders))
        except CollectionDamaged as e:  # the check goes on with the other documents
            unreadable.append(doc_id)  # nor compared by meaning: the warning says "not compared"
            if doc_id in index.infos([doc_id]):  # not removed since (another desktop): damaged
                damaged.append(damaged_source_warning(str(e)))
            continue
        if scored is not None:  # a window always ends scored (or the source is passed over above)
            res, sent = scored
        else:
            passages, res, sent = ahead.result(doc_id)[1] if doc_id in ahead else \
                match(a, b, settings, short=doc_id in short_ok, always_score=False)
        if not passages:
            continue
        if _coverage(passages, a.word_starts) < settings.min_source_containment and doc_id not in short_ok:
            continue
        if scored is None:
            text = b.doc.text
        read_sentences[info.id] = whole_sentences(window) if scored is not None else b.tokens.sentence_spans
        if len(text) > EXCERPTS_ABOVE or excerpts is not None:
            long[info.id] = (info.chars, window, info.words) if excerpts is not None else \
                (len(text), b.tokens.sentence_spans, b.tokens.word_count)
        sources.append(
            SourceMatch(
                source_id=info.id,
                path=info.path,
                title=info.title,
                text=text,
                excerpts=excerpts,
                sha256=info.sha256,
                containment=0.0,
                resemblance=res,
                sentence_score=sent,
                passages=tuple(passages),
                is_template=info.is_template or info.id in templates,
            )
        )
    sources = add_meaning(suspect.text, a.tokens, a.word_starts, sources, settings, store=index,
                          template_ids=sorted(templates), exclude_ids=(*exclude_ids, *itself, *unreadable),
                          heading_end=a.heading[0], read_sentences=read_sentences.get)
    progress(len(ids), len(ids), "phase.done")
    # the text at the suspect's opening that several documents have at theirs (the assignment):
    # found before overlaps are resolved, so that each of them counts, whichever keeps the words
    common, sharing = collection_common(sources, a.word_starts, a.heading[0])
    sources = resolve_overlaps(sources, suspect.text, a.word_starts)
    sources = _excerpted(index, sources, long, damaged)
    info_of_suspect = suspect_info(suspect, a.tokens)
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
        collection_common=common,
        common_sources=sharing,
    )
    return apply_exclusions(raw, settings, starts=a.word_starts)


def _align_ahead(a: Prepared, ids: Sequence[int], infos: dict, kept: SourceCache, settings: Settings,
                 short_ok: set[int]) -> Ahead:
    """The candidates the cache holds prepared, each with its :func:`match` (as the loop of
    :func:`check_document` computes it), shared with a helper thread (:mod:`sverka.core.ahead`):
    the engine aligns the last of them while the check reads the sources it meets first."""
    jobs = {}
    for doc_id in ids:
        info = infos.get(doc_id)
        b = kept.get(doc_id, info.sha256, settings) if info is not None else None
        if b is not None:
            jobs[doc_id] = functools.partial(_matched, a, b, settings, doc_id in short_ok)
    if len(jobs) >= MIN_JOBS:  # what every alignment reads of the suspect, made once here
        _ = a.source_side, a.paraphrase_keys.native, a.word_starts, a.heading, a.distinct, a.seq2_counts
    return Ahead.start(jobs)


def _matched(a: Prepared, b: Prepared, settings: Settings, short: bool) -> tuple[Prepared, tuple]:
    return b, match(a, b, settings, short=short, always_score=False)


def _windows(index: "Store", doc_id: int, sha: str, hit: tuple[np.ndarray, np.ndarray, np.ndarray],
             bounds: tuple[np.ndarray, np.ndarray], settings: Settings, kept: SourceCache) -> Window | None:
    """The windows of a stored document around the suspect's keys in it (``bounds``: the
    suspect's sentences, :func:`sverka.core.windows.kept_hits`); None when it is read
    whole (a short or older document, or one whose windows would hold most of it). What they
    need of the whole document is kept in ``kept`` for the next checks."""
    try:
        with index.blob_readers(doc_id) as (read_tokens, size, read_text):
            return read_windows(read_tokens, size, read_text, kept_hits(*hit, settings, bounds), settings,
                                known=lambda read: kept.whole_of(doc_id, sha, read, known_bytes))
    except Exception:  # noqa: BLE001 - any failure to read a part: read whole, where damage is reported
        return None


def _excerpted(index: "Store", sources: list[SourceMatch], long: dict[int, tuple[int, np.ndarray | Window, int]],
               damaged: list) -> list[SourceMatch]:
    """``sources`` with each long one (``long``: id -> its length, its sentence spans when the
    check read it whole, else the windows it read of it, and its words) carrying only its excerpts
    around its final passages (:func:`sverka.core.windows.excerpt_ranges`): cut from its text
    when the check had it whole, else read by offset. A source whose excerpts cannot be read
    is read whole; one that cannot be read at all is left out with a warning."""
    out = []
    for src in sources:
        length, spans, words = long.get(src.source_id, (None, None, 0))
        if src.source_id is None or length is None or not src.passages:
            out.append(src)
            continue
        if not isinstance(spans, Window):  # read whole by the check
            out.append(dataclasses.replace(src, text="", excerpts=cut_excerpts(src.text, spans, src.passages, words)))
            continue
        got = None
        try:
            with index.blob_readers(src.source_id) as (read_tokens, size, read_text):
                got = read_excerpts(read_tokens, size, read_text, length, src.passages, spans, words)
        except Exception:  # noqa: BLE001 - any failure to read a part: read whole, where damage is reported
            got = None
        if got is None:
            try:
                text = index.text(src.source_id)
            except CollectionDamaged as e:
                damaged.append(damaged_source_warning(str(e)))
                continue
            out.append(dataclasses.replace(src, text=text, excerpts=None))
            continue
        out.append(dataclasses.replace(src, excerpts=got))
    return out


def _explained(p: Passage, lo: int, hi: int, starts: np.ndarray) -> int:
    """Words of the suspect in [lo, hi) that ``p`` matched (inside its pieces)."""
    return words_in(starts, merge((max(q[0], lo), min(q[1], hi)) for q in p.matched_pieces() if q[0] < hi and q[1] > lo))


def _without(p: Passage, lo: int, hi: int, text: str, source, starts: np.ndarray) -> list[Passage]:
    """``p`` without the suspect's [lo, hi): its pieces before and after, as one or two
    passages (a piece cut there keeps the share of its source text that its part holds)."""
    before, after = [], []
    for a0, a1, b0, b1 in p.matched_pieces():
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
        if len(part) == 1 and WRITTEN_WORD.findall(text[c0:c1].lower()) == WRITTEN_WORD.findall(source[part[0][2]:part[0][3]].lower()):
            kind = "verbatim"  # what is left of an edited passage may be a copy word for word
        out.append(dataclasses.replace(p, suspect_start=c0, suspect_end=c1, source_start=min(q[2] for q in part),
                                       source_end=max(q[3] for q in part), words=words_in(starts, [(c0, c1)]),
                                       matched=matched, pieces=tuple(part), kind=kind))
    return out


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
        passages[k][n : n + 1] = _without(passages[k][n], lo, hi, text, sources[k].source_text, starts)
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


def source_match(b: Prepared, passages: Sequence[Passage], res: float, sent: float) -> SourceMatch:
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


def common_folder(paths: Sequence[str | None]) -> str | None:
    """The deepest folder holding every one of ``paths`` (None when none has a path)."""
    import os

    folders = [os.path.dirname(os.path.abspath(p)) for p in paths if p]
    try:
        return os.path.commonpath(folders) if folders else None
    except ValueError:
        return None


def _sentences_of(b: Prepared, passages: Sequence[Passage], wanted) -> tuple[np.ndarray, list[int]]:
    """The sentence spans of a document compared directly and which of them the meaning layer
    encodes: all of them, or, for one longer than :data:`~sverka.core.meaning.ADD_MAX_CHARS`
    (not encoded when added either), those beside its passages
    (:func:`~sverka.core.bymeaning.near_sentences`)."""
    if len(b.doc.text) > ADD_MAX_CHARS:
        spans = np.asarray(b.tokens.sentence_spans, np.int64).reshape(-1, 2)
        return spans, near_sentences(b.doc.text, spans, passages, READ_ENCODED_MAX, wanted)
    spans = vector_spans(b.tokens.sentence_spans, b.word_starts, text=b.doc.text)  # cut as when it is added
    return spans, list(range(len(spans)))


def compare_prepared(a: Prepared, b: Prepared, settings: Settings) -> CheckResult:
    short = _is_short(a, settings) or _is_short(b, settings)
    if short:
        la, lb = longest_words(a.tokens.lemmas), longest_words(b.tokens.lemmas)
        short = short_similarity(la, lb) >= settings.short_text_similarity
    passages, res, sent = match(a, b, settings, short=short)
    found = add_meaning(a.doc.text, a.tokens, a.word_starts, [source_match(b, passages, res, sent)], settings,
                        source_sentences=lambda n, src, wanted: _sentences_of(b, src.passages, wanted),
                        heading_end=a.heading[0])
    raw = CheckResult(
        suspect=suspect_info(a.doc, a.tokens),
        suspect_text=a.doc.text,
        sources=tuple(found),
        borrowed_percent=0.0,
        original_percent=100.0,
        settings=settings,
        exact_duplicate_of=(b.doc.title or b.doc.path or "") if a.doc.sha256 == b.doc.sha256 else None,
        collection_root=common_folder([a.doc.path, b.doc.path]),
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
