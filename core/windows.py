"""Cost proportional to the suspect: a long candidate read and aligned in windows.

A check meeting a novel needs only the parts of it near the suspect's keys: retrieval has
already found where they lie (:func:`sverka.core.candidates.seed_hits`). This module reads
those parts of a stored document, and nothing else, through the layout of its tokens blob
(:func:`sverka.core.store.codecs.tokens_layout`), aligns the suspect against them
(:func:`sverka.core.check.align_prepared`, unchanged) and puts the passages back at their
places in the whole text.

**Windows.** Every seed the alignment starts from is a pair of tokens both texts hold: a
pair key of the index at the same place (keys repeated in a document more often than the
alignment keeps a seed are neither indexed nor used), or a whole sentence, a sentence key.
So the source side of every run lies on a key retrieval found. A key alone, with no other key
near it in both texts, starts no passage (the alignment keeps such a run only beside another,
``align._near_others``); nor does a place whose keys cover fewer suspect tokens than a passage
holds, which retrieval does not count either (:func:`kept_hits`: in a novel, two common pairs
a few words apart in both texts meet all through it). The keys kept are those of the places
that count. Around each kept key, a window reaches

* :func:`margin_tokens` tokens on each side: a passage grows from a run only to runs at most
  ``SOURCE_WINDOW * max_gap`` tokens away in the source, and reads the source tokens ``max_gap``
  around itself (a sentence edited until no seed is left, ``align._Linker``); so a window
  holds every run a passage of its keys can link, and two windows' runs lie too far apart to
  link even when their windows are put end to end;
* then out to whole sentences, and :data:`MARGIN_SENTENCES` more on each side: the exact
  layer grows spans over stop words up to a sentence end and labels passages from their
  sentences; the paraphrase layer compares whole sentences (a paraphrased sentence beside a
  copied one lies in the margin; one found by variant keys has its own window).

Windows closer than :data:`MERGE_SENTENCES` sentences are one.

**What stays the whole text's.** The windows are joined end to end into one text and one
token array (sentence ids renumbered, offsets shifted), aligned as one source. What the
alignment decides from the whole source is given to it from the blob's
:class:`~sverka.core.tokens.WholeStats`: the seeds and sentences repeated too often in the
whole text are not seeds in a window either (their hashes are changed so that nothing matches
them), nor is a pair across the join of two windows; the paraphrase layer weighs and picks
rare lemmas by the whole text's sentences (:meth:`sverka.core.paraphrase.SourceStats.of`).
A source with passages is scored the same way (:func:`scores`): the shingles it shares with
the suspect lie in its windows, its distinct shingles and its Seq2 counts are the blob's;
only its text is then read whole, to be shown beside the suspect.

What can differ (the differential test, tests/core/test_windows.py, and docs/BENCHMARKS.md):
the alignment's seed budget (4 seed pairs per token of the two texts) counts the window's
tokens, so a text repetitive enough to exceed it keeps other seeds; a source sentence the
paraphrase layer would pair with a suspect sentence far from every key (no variant key of it
found there either) is not looked at; two paraphrased sentences from places of the source far
apart but next to each other in joined windows may make one passage instead of two; a
shingle the suspect shares with the source far from every kept key (all its pairs, or enough
of them that its place does not count, repeated in the source more often than it indexes them,
or in more documents than a lookup reads) is not counted in the resemblance. And one
difference is a better judgment (docs/BENCHMARKS.md): the alignment keeps a one-seed run when
another run lies close by among the next eight runs in suspect order; in a whole novel chance
runs elsewhere crowd those eight, and a run inside a copied passage could be lost; in windows
it is not.

**What a result carries of it.** A source longer than :data:`EXCERPTS_ABOVE` characters is
not read whole to be shown either: its result carries :class:`~sverka.core.results.Excerpts`,
the text around each passage's pieces, :data:`EXCERPT_CONTEXT` characters on each side (what
the quotation rule reads of a source, ``exclusions.MAX_QUOTE_CHARS``), widened to whole
sentences when they are near (:func:`excerpt_ranges`); read by offset through the blobs
(:func:`read_excerpts`) or cut from the text when it is in memory (:func:`cut_excerpts`),
the same either way.

A document without a :class:`WholeStats` section (older collections, short documents), a
check with other seed widths, or windows covering more than :data:`MAX_SHARE` of the document
are read whole, as before.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Callable

import numpy as np

from .align import ORDER_PAIR_WORDS, SOURCE_WINDOW, SourceSide, Sorted, pair_shingles, sentence_hashes_of
from .candidates import MIN_TOKENS, PARAPHRASE_SHARE
from .engine import i64, native
from .keys import SENTENCE_MIN_TOKENS
from .paraphrase import SourceStats
from .exclusions import MAX_QUOTE_CHARS
from .intervals import merge
from .meaning import ADD_MAX_CHARS
from .results import Excerpts, Passage
from .shingles import shingle_hashes
from .sorting import common, distinct
from .settings import Settings
from .store.codecs import (Reader, TokensLayout, encoded_offsets, read_parts, read_sentence_bytes, read_sentence_starts,
                           read_whole, tokens_layout, window_arrays, window_parts)
from .tokens import Tokens, WholeStats

__all__ = ["EXCERPTS_ABOVE", "EXCERPT_CONTEXT", "Known", "MARGIN_SENTENCES", "MAX_SHARE", "MERGE_SENTENCES",
           "NEAR_FACTOR", "SEED_REPEATS", "SENTENCE_REPEATS", "Window", "cut_excerpts", "excerpt_ranges",
           "kept_hits", "known_bytes", "margin_tokens", "read_excerpts", "read_known", "read_windows", "scores",
           "sentence_windows", "to_whole", "whole_sentences", "whole_stats", "window_excerpts"]

#: Seeds held more often than this by a source are not aligned (``align.align``'s
#: ``max_seed_repeats``, as a check calls it); sentences likewise (``align._sentence_segments``).
SEED_REPEATS = 50
SENTENCE_REPEATS = 4
#: Whole sentences added to a window on each side.
MARGIN_SENTENCES = 2
#: Windows fewer sentences apart than this are read as one.
MERGE_SENTENCES = 8
#: A key is kept when another lies within this many times the alignment's distances.
NEAR_FACTOR = 1
#: Windows covering more than this share of a document's tokens: it is read whole.
MAX_SHARE = 0.5
#: A source longer than this (characters) is carried by a check's result as excerpts around
#: its passages. Not below ``meaning.ADD_MAX_CHARS``: a source with vectors stored may be
#: matched by meaning anywhere in it, and is read whole.
EXCERPTS_ABOVE = ADD_MAX_CHARS
#: Characters of a long source kept on each side of a passage's pieces: what the quotation
#: rule reads around them (:func:`sverka.core.exclusions.apply_exclusions`), so applying
#: exclusions to a result gives what it gives with the whole text.
EXCERPT_CONTEXT = MAX_QUOTE_CHARS
#: Changes a hash the windows must not match (any fixed odd constant will do).
_MASK = np.uint64(0xA5A5_5A5A_C3C3_3C3D)


def margin_tokens(settings: Settings) -> int:
    """Tokens on each side of a key that a window holds (module docstring)."""
    w = max(1, settings.align_seed_words)
    return settings.max_gap_words * (SOURCE_WINDOW + 2) + 4 * w


def whole_stats(tokens: Tokens, shingle_words: int = 0, distinct_shingles: int = 0,
                seq2: np.ndarray | None = None) -> WholeStats | None:
    """The :class:`WholeStats` of a document being added (None: its sentences do not rise
    with its tokens, and it is always read whole). ``shingle_words``, ``distinct_shingles``
    and ``seq2``: its fingerprints' (:class:`sverka.core.fingerprints.DocumentFingerprints`);
    without them its scores are read whole."""
    sid = np.asarray(tokens.sentence_ids, dtype=np.int64)
    spans = np.asarray(tokens.sentence_spans, dtype=np.int64).reshape(-1, 2)
    m = len(spans)
    if len(sid) == 0 or m == 0 or np.any(np.diff(sid) < 0) or np.any(np.diff(spans[:, 0]) < 0) or \
            int(sid[-1]) >= m or spans[0, 0] < 0 or spans[-1, 0] > len(tokens.text):
        return None
    text = tokens.text
    # the byte of each span's start as stored; the text's length last
    sentence_bytes = encoded_offsets(text, np.append(spans[:, 0], len(text)))
    stats = SourceStats.of(tokens)
    pairs = pair_shingles(tokens.hashes, ORDER_PAIR_WORDS)
    sentences = sentence_hashes_of(tokens, 1)[0]
    values, counts = (None, None) if seq2 is None else np.unique(np.asarray(seq2, np.uint64), return_counts=True)
    return WholeStats(
        sentence_tokens=np.searchsorted(sid, np.arange(m + 1)).astype(np.int64),
        sentence_bytes=sentence_bytes, sentences=stats.n_sentences, lemmas=stats.values,
        lemma_sentences=stats.counts, common_pairs=_common(pairs, SEED_REPEATS),
        common_sentences=_common(sentences, SENTENCE_REPEATS), shingle_words=shingle_words if seq2 is not None else 0,
        distinct_shingles=distinct_shingles, seq2=values, seq2_counts=counts)


def _common(values: np.ndarray, limit: int) -> np.ndarray:
    v, c = np.unique(np.asarray(values, np.uint64), return_counts=True)
    return v[c > limit]


def kept_hits(i: np.ndarray, j: np.ndarray, sentence: np.ndarray, settings: Settings,
              bounds: tuple[np.ndarray, np.ndarray] | None = None) -> np.ndarray:
    """The source positions of the keys that may start a passage (module docstring): shared
    sentences the alignment matches (``sentence``: their tokens, 0 for a pair key), and the pair
    keys of the places that count.

    A place is a group of pair keys each within ``NEAR_FACTOR`` times the alignment's distances
    of another of the group in both texts (linked one to the next, in any order). It counts as
    a cluster counts in retrieval (:func:`sverka.core.candidates.supported_seeds`, with the
    paraphrase ranking's looser sentence rule): its keys cover :data:`~sverka.core.candidates.MIN_TOKENS`
    suspect tokens or more, or 3-4 tokens making a whole suspect sentence or half of one
    (``bounds``: :func:`sverka.core.candidates.sentence_bounds` of the suspect; without them,
    any 3). A place of fewer tokens cannot be a passage (``align``: 3 content words at least,
    5 unless whole sentences), and in a novel two keys a few words apart in both texts meet by
    chance all through it: such places were ~78 % of the windows read and never held a passage
    (docs/BENCHMARKS.md). Places that hold ``shingle_words`` tokens in a row in both texts count
    too: the resemblance counts their shingle (:func:`scores`). Computed by the engine
    (``seed_places``)."""
    w = max(1, settings.align_seed_words)
    pair = sentence == 0
    whole = j[~pair & (sentence >= settings.min_sentence_words)]
    starts, ends = bounds if bounds is not None else (None, None)
    kept = native.seed_places(i64(i[pair]), i64(j[pair]), NEAR_FACTOR * (settings.max_gap_words + 2 * w),
                              NEAR_FACTOR * (settings.max_gap_words * SOURCE_WINDOW + 2 * w), MIN_TOKENS, w,
                              settings.shingle_words - 1, None if starts is None else i64(starts),
                              None if ends is None else i64(ends), sentence_share=PARAPHRASE_SHARE)
    return np.concatenate([kept, whole])


def sentence_windows(hits: np.ndarray, whole: WholeStats, n: int, settings: Settings) -> list[tuple[int, int]]:
    """Sentence ranges ``[s0, s1)`` to read around the source positions ``hits``, merged."""
    if len(hits) == 0:
        return []
    m = len(whole.sentence_tokens) - 1
    margin = margin_tokens(settings)
    w = max(1, settings.align_seed_words)
    lo = np.clip(hits - margin, 0, n - 1)
    hi = np.clip(hits + w + margin, 1, n)
    first = whole.sentence_tokens
    s0 = np.clip(np.searchsorted(first, lo, "right") - 1 - MARGIN_SENTENCES, 0, m)
    s1 = np.clip(np.searchsorted(first, hi - 1, "right") + MARGIN_SENTENCES, 0, m)
    order = np.argsort(s0, kind="stable")
    s0, s1 = s0[order], np.maximum.accumulate(s1[order])
    new = np.concatenate(([True], s0[1:] > s1[:-1] + MERGE_SENTENCES))
    starts = s0[new]
    ends = s1[np.append(np.flatnonzero(new)[1:] - 1, len(s0) - 1)]
    # sentences holding no token at a window's edge change nothing: the tokens decide
    return [(a, b) for a, b in zip(starts.tolist(), ends.tolist()) if first[b] > first[a]]


@dataclass(frozen=True, eq=False)
class Window:
    """Windows of a stored document joined end to end: their tokens (as a source to align),
    what aligning needs of them, and where each window's text begins in the joined text
    (``at``) and in the whole text (``chars``)."""

    tokens: Tokens
    side: SourceSide
    stats: SourceStats
    at: np.ndarray  # int64: each window's first character in the joined text
    chars: np.ndarray  # int64: the same character's offset in the whole text
    share: float  # share of the document's tokens read
    whole: WholeStats | None = None  # also gives the document's tokens (its first tokens' last) and bytes
    joins: np.ndarray | None = None  # int64: the first token of each window after the first
    layout: TokensLayout | None = None  # of the blob it was read from


def read_windows(read_tokens: Reader, tokens_size: int, read_text: Reader, hits: np.ndarray,
                 settings: Settings, known: "Callable[[Callable[[], Known]], Known] | None" = None) -> Window | None:
    """The :class:`Window` of a stored document around ``hits`` (source token positions), read
    through the blobs' readers; None when the document is better read whole (module
    docstring). ``known(read)``: its blob's layout and :class:`WholeStats` as an earlier check
    read them (``read()`` reads them: :func:`read_known`), by default read now."""
    if max(1, settings.align_seed_words) != ORDER_PAIR_WORDS or settings.min_sentence_words < SENTENCE_MIN_TOKENS:
        return None

    def read() -> Known:
        return read_known(read_tokens, tokens_size)

    layout, whole = known(read) if known is not None else read()
    if layout is None or layout.n == 0 or whole is None:
        return None
    ranges = sentence_windows(hits, whole, layout.n, settings)
    first = whole.sentence_tokens
    read = sum(int(first[b] - first[a]) for a, b in ranges)
    if read > MAX_SHARE * layout.n:
        return None
    if not ranges:  # no key that can start a passage: nothing to align
        return _joined(read_tokens, read_text, layout, whole, [(0, 0)], settings, 0.0)
    return _joined(read_tokens, read_text, layout, whole, ranges, settings, read / layout.n)


#: A blob's layout and its :class:`WholeStats` (both None: it has no layout to read it by).
Known = tuple["TokensLayout | None", "WholeStats | None"]


def read_known(read_tokens: Reader, tokens_size: int) -> Known:
    """The layout of a tokens blob and its :class:`WholeStats` section: what every check reading
    the document in windows needs of the whole of it (for a novel of 6 MB, ~3 MB read)."""
    layout = tokens_layout(read_tokens, tokens_size)
    if layout is None or layout.n == 0:
        return layout, None
    whole = read_whole(read_tokens, layout)
    for a in _arrays(whole):  # shared by the checks of a collection, in several threads: never written
        a.flags.writeable = False
    return layout, whole


def _arrays(whole: WholeStats) -> list[np.ndarray]:
    return [a for a in (whole.sentence_tokens, whole.sentence_bytes, whole.lemmas, whole.lemma_sentences,
                        whole.common_pairs, whole.common_sentences, whole.seq2, whole.seq2_counts) if a is not None]


def known_bytes(known: Known) -> int:
    """Memory a :data:`Known` holds (its arrays)."""
    return 256 + (sum(a.nbytes for a in _arrays(known[1])) if known[1] is not None else 0)


def _joined(read_tokens: Reader, read_text: Reader, layout: TokensLayout, whole: WholeStats,
            ranges: list[tuple[int, int]], settings: Settings, share: float) -> Window:
    first, at_byte = whole.sentence_tokens, whole.sentence_bytes
    names = ("starts", "ends", "hashes", "word_hashes")
    token_parts, text_parts = [], []  # every part of both blobs, read at once (one query on a server)
    for s0, s1 in ranges:
        token_parts += window_parts(layout, int(first[s0]), int(first[s1]), s0, s1, names)
        b0 = int(at_byte[s0]) if s0 > 0 else 0
        text_parts.append((layout.text_at + b0, int(at_byte[s1]) - b0))
    token_bytes, text_bytes = read_parts(read_tokens, token_parts), read_parts(read_text, text_parts)
    per = len(names) + 1
    parts, texts, at, chars = [], [], [], []
    length = sentences = 0
    for k, (s0, s1) in enumerate(ranges):
        t0, t1 = int(first[s0]), int(first[s1])
        got = window_arrays(layout, token_bytes[per * k:per * (k + 1)], names)
        spans = got["spans"]
        c0 = int(spans[0, 0]) if s0 > 0 and len(spans) else 0
        text = text_bytes[k].decode(layout.text_codec, "surrogatepass")
        shift = length - c0
        parts.append((got["starts"] + shift, got["ends"] + shift, got["hashes"], got["word_hashes"],
                      _sentence_ids(first, t0, t1) - s0 + sentences, spans + shift))
        texts.append(text)
        at.append(length)
        chars.append(c0)
        length += len(text)
        sentences += s1 - s0
    starts, ends, hashes, word_hashes, sid, spans = (np.concatenate([p[k] for p in parts]) for k in range(6))
    spans = np.minimum(spans, length)
    tokens = Tokens(text="".join(texts), starts=starts, ends=ends, lemmas=("",) * len(starts), hashes=hashes,
                    word_hashes=word_hashes, sentence_ids=sid.astype(np.int32), sentence_spans=spans,
                    word_count=0, language=layout.language)
    # what the whole text's repeats rule out, and pairs across the join of two windows
    w = max(1, settings.align_seed_words)
    pairs = pair_shingles(hashes, w)
    cut = np.zeros(len(pairs), bool)
    joins = np.cumsum([int(first[b] - first[a]) for a, b in ranges])[:-1]
    for k in range(1, w):
        cut[np.clip(joins - k, 0, max(len(pairs) - 1, 0))] = len(pairs) > 0
    cut |= _member(pairs, whole.common_pairs)
    pairs = np.where(cut, pairs ^ _MASK, pairs)
    sent = sentence_hashes_of(tokens, settings.min_sentence_words)
    sent = (np.where(_member(sent[0], whole.common_sentences), sent[0] ^ _MASK, sent[0]), sent[1], sent[2])
    side = SourceSide(settings.align_seed_words, settings.min_sentence_words, pairs, Sorted.of(pairs), sent,
                      Sorted.of(sent[0]))
    stats = SourceStats.of(tokens, None, (whole.lemmas, whole.lemma_sentences, whole.sentences, layout.n))
    return Window(tokens, side, stats, np.asarray(at, np.int64), np.asarray(chars, np.int64), share, whole,
                  np.asarray(joins, np.int64), layout)


def _sentence_ids(first: np.ndarray, t0: int, t1: int) -> np.ndarray:
    """int64: the sentence of each token ``t0:t1``, from the first token of every sentence
    (``first``, :class:`WholeStats`; a blob has them only when its sentences rise with its
    tokens): the same as its stored sentence ids, without reading them."""
    return np.searchsorted(first, np.arange(t0, t1, dtype=np.int64), "right") - 1


def _member(values: np.ndarray, sorted_set: np.ndarray) -> np.ndarray:
    """Whether each of ``values`` is in ``sorted_set`` (sorted, distinct: the blob's common
    pairs and sentences, made by ``np.unique``): ``np.isin`` without sorting the values."""
    if not len(sorted_set) or not len(values):
        return np.zeros(len(values), bool)
    k = np.minimum(np.searchsorted(sorted_set, values), len(sorted_set) - 1)
    return sorted_set[k] == values


def scores(window: Window, shingle_words: int, a_distinct: np.ndarray, a_seq2: tuple[np.ndarray, np.ndarray],
           a_seq2_len: int) -> tuple[float, float] | None:
    """(resemblance, sentence score) of a suspect (its distinct shingles of ``shingle_words``
    tokens, its Seq2's distinct values and counts, and its Seq2's length) against the whole
    document ``window`` was read from, as :func:`sverka.core.check.jaccard` and
    :func:`~sverka.core.check.sentence_score` give them; None when its blob keeps no counts
    of that width (it is read whole). The shingles both hold are found in the windows: a
    shingle shared is a run of shared pair keys, so its tokens lie in a window (not across
    the join of two); the document's distinct shingles and its Seq2 counts are the blob's."""
    whole = window.whole
    if whole is None or whole.seq2 is None or whole.shingle_words != shingle_words:
        return None
    h = shingle_hashes(np.asarray(window.tokens.hashes, np.uint64), shingle_words)
    if len(h) and len(window.joins):
        across = np.zeros(len(h) + shingle_words, bool)
        for k in range(1, shingle_words):  # shingles starting less than its width before a join
            across[np.maximum(window.joins - k, 0)] = True
        h = h[~across[:len(h)]]
    shared = len(common(a_distinct, distinct(h))[0])
    union = len(a_distinct) + whole.distinct_shingles - shared
    resemblance = shared / union if union else 0.0
    if a_seq2_len == 0:
        return resemblance, 0.0
    (va, ca), vb, cb = a_seq2, whole.seq2, whole.seq2_counts
    ia, ib = common(va, vb)
    return resemblance, float(np.minimum(ca[ia], cb[ib]).sum()) / a_seq2_len


def to_whole(passages: list[Passage], window: Window) -> list[Passage]:
    """``passages`` found in ``window``'s joined text, with their source offsets in the whole text."""

    def start(x: int) -> int:
        k = int(np.searchsorted(window.at, x, "right")) - 1
        return x - int(window.at[k]) + int(window.chars[k])

    def end(x: int) -> int:  # an end at a window's last character belongs to it, not the next
        k = max(int(np.searchsorted(window.at, x, "left")) - 1, 0)
        return x - int(window.at[k]) + int(window.chars[k])

    return [replace(p, source_start=start(p.source_start), source_end=end(p.source_end),
                    pieces=tuple((q[0], q[1], start(q[2]), end(q[3])) for q in p.pieces)) for p in passages]


def window_excerpts(window: Window, length: int, words: int = 0) -> Excerpts:
    """The windows' texts as :class:`Excerpts` of the whole text (``length`` characters, ``words``
    words): what the meaning layer may read of the source (its sentences, :func:`whole_sentences`)."""
    text, at = window.tokens.text, window.at.tolist() + [len(window.tokens.text)]
    return Excerpts(length, tuple((int(c), text[at[k]:at[k + 1]]) for k, c in enumerate(window.chars.tolist())
                                  if at[k + 1] > at[k]), words)


def whole_sentences(window: Window) -> np.ndarray:
    """The sentences of the windows, [start, end) int64 (m, 2), at their offsets in the whole
    text (what the meaning layer may encode of a source it has no stored vectors of)."""
    spans = np.asarray(window.tokens.sentence_spans, np.int64).reshape(-1, 2)
    if not len(spans):
        return spans
    w = np.maximum(np.searchsorted(window.at, spans[:, 0], "right") - 1, 0)
    return spans - (window.at[w] - window.chars[w])[:, None]


def excerpt_ranges(passages, length: int, starts: np.ndarray) -> list[tuple[int, int]]:
    """The ranges [start, end) of a source of ``length`` characters a result carries: each
    passage and piece with :data:`EXCERPT_CONTEXT` characters on each side, widened to the
    start of the sentence holding each end when that lies within another
    :data:`EXCERPT_CONTEXT` characters, merged. ``starts``: where its sentences begin, sorted,
    the first at 0 (the text before it is its own)."""
    wanted = merge((max(0, b0 - EXCERPT_CONTEXT), min(length, b1 + EXCERPT_CONTEXT))
                   for p in passages for b0, b1 in ((p.source_start, p.source_end), *p.source_spans()))
    out = []
    for r0, r1 in wanted:
        s = int(np.searchsorted(starts, r0, "right")) - 1  # the sentence holding r0
        c0 = int(starts[s]) if s >= 0 else 0
        e = int(np.searchsorted(starts, r1, "left"))  # the first sentence starting at r1 or later
        c1 = int(starts[e]) if e < len(starts) else length
        out.append((c0 if r0 - c0 <= EXCERPT_CONTEXT else r0, c1 if c1 - r1 <= EXCERPT_CONTEXT else r1))
    return merge(out)


def _starts_of(starts) -> np.ndarray:
    """Where each sentence begins, sorted (a document read whole may have sentences that do not
    rise with its tokens), the first at 0 (the text before it is its own)."""
    starts = np.asarray(starts, np.int64)
    # stored sentences nearly always rise: sorting a novel's 80 000 starts cost ~1 ms a check
    starts = np.sort(starts) if len(starts) > 1 and bool((starts[1:] < starts[:-1]).any()) else starts.copy()
    if len(starts):
        starts[0] = 0
    return starts


def cut_excerpts(text: str, sentence_spans, passages, words: int = 0) -> Excerpts:
    """The :class:`Excerpts` of a source whose ``text`` (and its ``sentence_spans``) are in
    memory: :func:`excerpt_ranges` cut from it."""
    starts = _starts_of(np.asarray(sentence_spans, np.int64).reshape(-1, 2)[:, 0])
    ranges = excerpt_ranges(passages, len(text), starts)
    return Excerpts(len(text), tuple((a, text[a:b]) for a, b in ranges), words)


def read_excerpts(read_tokens: Reader, tokens_size: int, read_text: Reader, length: int, passages,
                  window: Window | None = None, words: int = 0) -> Excerpts | None:
    """The :class:`Excerpts` of a stored source of ``length`` characters, read through the
    blobs' readers: its sentences' starts in bytes, and in characters (two bytes a character in
    a UTF-16 text holding nothing beyond U+FFFF; else read), then only the text of
    :func:`excerpt_ranges`. ``window``: the source's :class:`Window` read by the check (its blob's
    layout and sentence bytes are not read again). None when the blob has no layout to read it
    by (it is read whole)."""
    layout = window.layout if window is not None and window.layout is not None else \
        tokens_layout(read_tokens, tokens_size)
    if layout is None:
        return None
    at_byte = window.whole.sentence_bytes if window is not None and window.whole is not None else \
        read_sentence_bytes(read_tokens, layout)
    if layout.text_codec == "utf-16-le" and len(at_byte) == layout.m + 1 and int(at_byte[-1]) == 2 * length:
        starts = _starts_of(at_byte[:-1] // 2)
    else:
        starts = _starts_of(read_sentence_starts(read_tokens, layout))
    ranges = excerpt_ranges(passages, length, starts)
    sentences, wanted = [], []  # the sentences holding each range, all read at once
    for a, b in ranges:
        s0 = int(np.searchsorted(starts, a, "right")) - 1  # the sentence holding a
        s1 = int(np.searchsorted(starts, b, "left"))  # the first starting at b or later
        b0 = int(at_byte[s0]) if s0 > 0 else 0
        sentences.append(s0)
        wanted.append((layout.text_at + b0, int(at_byte[s1]) - b0))
    parts = []
    for (a, b), s0, raw in zip(ranges, sentences, read_parts(read_text, wanted)):
        c0 = int(starts[s0])
        parts.append((a, raw.decode(layout.text_codec, "surrogatepass")[a - c0:b - c0]))
    return Excerpts(length, tuple(parts), words)
