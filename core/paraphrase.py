"""The paraphrase layer: sentences rewritten with synonyms, reordered, re-inflected, padded.

Runs BESIDE the exact layer (:mod:`sverka.core.align`), never instead of it: it looks only at
suspect sentences the exact passages matched less than 80 % of; a passage it finds that
overlaps exact ones is merged with them (pieces united), the others join the result (passages
never overlap on the suspect side).

For one pair (suspect ``a``, source ``b``):

1. **Bags.** Each sentence is the bag of its content tokens (canonical lemmas: stop words are
   already gone). Two tokens *agree* when their lemmas are equal or synonyms
   (:mod:`sverka.core.synonyms`: they share a synonym class), or, more weakly, words of one
   derivational family (ритмичный / ритмический, отражение / отражать: the family table of
   :func:`sverka.core.synonyms.family_table`): such a token weighs :data:`FAMILY_WEIGHT` of its
   weight in the Dice and is not counted towards :data:`MIN_AGREE` (it supports a pair that
   equal lemmas and synonyms make, never makes one).
2. **Rarity.** A token's weight is its IDF over the sentences of the source,
   ``ln((n + 1) / (df + 0.5))``: a word most sentences hold weighs little, a rare one much.
3. **Candidates.** Sentence pairs sharing at least :data:`MIN_RARE` agreeing tokens whose
   lemma (or synonym) occurs in few source sentences (:func:`_rare_df`); common words never
   propose a pair, nor does a pair sharing fewer than a quarter of the tokens of the shorter
   of its two sentences; per suspect sentence the :data:`CANDIDATES_PER_SENTENCE` sharing the
   most are scored. The (source token, suspect token) pairs are bounded by :data:`PAIRS_PER_TOKEN`
   per token of the two texts, the lemmas making the most dropped first.
4. **Acceptance.** Tokens are matched one to one (equal lemmas first, then synonyms, then
   words of one family, heaviest first); agreeing tokens at an edge of the suspect sentence, fewer than :data:`MIN_AGREE`
   together and parted from the rest by more than :data:`EDGE_GAP` unmatched tokens, are
   dropped and the rest matched again (a sentence of the student's own that runs into the
   borrowed one without a full stop, "William R. Start the New Year", lends it no word);
   the pair is accepted when at least :data:`MIN_AGREE` tokens agree, at least
   :data:`MIN_RARE` of them rare, and the weighted Dice ``2·W(matched) / (W(a) + W(b))``
   reaches :data:`MIN_DICE`: words the student added or the source has beyond them count
   against it. When the agreeing tokens hold :data:`SOURCE_KEPT` of the source sentence's
   weight, the suspect side is weighed from its first agreeing token to its last instead of
   over its whole sentence: a sentence of the student's own run into the borrowed one (a
   missing full stop, a clause added) does not hide it. Each suspect sentence takes its best
   source sentence.
5. **Passages.** Accepted sentences that follow each other in the suspect (no sentence
   between them) and lie within :data:`SOURCE_WINDOW_SENTENCES` sentences in the source, in either
   order, form one passage. Its pieces are the runs of matched suspect tokens (:func:`_pieces`);
   a replaced or added word is inside the passage but not matched, so the shares count only
   what agrees. An original sentence is never inside such a passage.
6. **Kind** (``results.KINDS``): ``synonyms`` when synonyms replaced words and nothing else
   changed; otherwise the changes found (edited: words added, dropped or replaced by a
   non-synonym, a word of its family included, stop words too; reordered; inflected) and
   ``paraphrase`` when several.

Steps 1 to 4 run in the compiled engine (``sverka._engine``, ``engine/core/src/paraphrase.rs``),
one call per pair with the GIL released: the suspect sentences the exact layer left, the rare
rows, the candidates, the one-to-one matching, the edges and the Dice. Python keeps what reads
characters or builds passages: the pieces, the kinds, the merge with the exact passages. The
Python matching it replaced is the oracle of the differential tests
(``tests/core/paraphrase_oracle.py``).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from .engine import i64, native, u64
from .intervals import merge
from .kinds import analyses_in, paired_forms
from .results import Passage
from .sorting import stable_argsort
from .synonyms import FAMILY, SYNONYM, related_of, table
from .text import Tokens, spelling_key, words_in
from .words import WRITTEN_WORD

__all__ = ["MIN_AGREE", "MIN_DICE", "MIN_RARE", "SourceStats", "SuspectKeys", "paraphrase_passages",
           "suspect_keys"]

#: Content tokens that must agree between two sentences.
MIN_AGREE = 4
#: Of which this many must be rare in the source (:data:`RARE_DF`).
MIN_RARE = 3
#: Weighted Dice of the two bags a pair needs.
MIN_DICE = 0.5
#: Share of its weight a token agreeing only through a word of its family (ритмичный /
#: ритмический, отражение / отражать) brings to the Dice: a weaker agreement than the same
#: lemma or a synonym (a family is read off the lemmas' letters: some share a stem by chance).
FAMILY_WEIGHT = 0.5
#: Share of the source sentence's weight that must agree for the suspect side to be weighed
#: over the part its agreeing tokens span rather than its whole sentence.
SOURCE_KEPT = 2 / 3
#: A suspect sentence needs this many content tokens to be looked at.
MIN_SENTENCE_TOKENS = 4
#: Source sentences scored in full per suspect sentence (those sharing the most rare words).
CANDIDATES_PER_SENTENCE = 3
#: (source token, suspect token) pairs agreeing through a rare lemma, per token of the two
#: texts: a repetitive text cannot blow up the work.
PAIRS_PER_TOKEN = 1
#: Source sentences apart that consecutive suspect sentences may come from and stay one passage.
SOURCE_WINDOW_SENTENCES = 4
#: Unmatched content tokens (stop words are not tokens: ~6-8 words of text) past which agreeing
#: tokens at the edge of a suspect sentence are cut off from the rest (:func:`_dense`).
EDGE_GAP = 4
#: A lemma the suspect sentence holds more often than the source sentence: its source tokens
#: take the suspect tokens nearest where the tokens paired already put them (else the first).
PLACE_CROWDED = True


def _rare_df(n_sentences: int) -> int:
    """A lemma held by at most this many source sentences is rare (proposes candidates)."""
    return 20 + n_sentences // 200


_norm = spelling_key


def _sentences(t: Tokens) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(sentence id, first token, one past last token) of each sentence holding a token."""
    sid = np.asarray(t.sentence_ids, dtype=np.int64)
    if len(sid) == 0:
        e = np.zeros(0, np.int64)
        return e, e, e
    first = np.flatnonzero(np.concatenate(([True], sid[1:] != sid[:-1])))
    last = np.append(first[1:], len(sid))
    return sid[first], first, last


@dataclass(frozen=True, eq=False)
class SourceStats:
    """What the layer needs of a source alone, computed once and kept with it (a source met by
    many suspects): its lemma hashes sorted, and how many of its sentences hold each token's lemma."""

    n_sentences: int
    values: np.ndarray  # sorted distinct lemma hashes
    counts: np.ndarray  # sentences holding values[k]
    df_token: np.ndarray  # int64 per token: sentences holding its lemma
    order: np.ndarray  # argsort of the token hashes
    sorted_hashes: np.ndarray
    sentences: tuple[np.ndarray, np.ndarray, np.ndarray]  # _sentences(t)
    sentence_len: np.ndarray  # int64 per sentence id: its tokens
    sentence_of: np.ndarray  # int64 per token: its sentence id
    rare: np.ndarray  # uint64: the lemmas held by at most _rare_df(n_sentences) sentences, sorted
    rare_start: np.ndarray  # int64: where rare[k]'s tokens start in sorted_hashes
    rare_count: np.ndarray  # int64: how many tokens hold rare[k]
    whole_tokens: int = 0  # tokens of the whole source when ``t`` is a window of it (0: t is whole)

    def __getstate__(self) -> dict:  # pickled (a template sent to a worker) without the engine's copy
        return {k: v for k, v in self.__dict__.items() if k != "native"}

    @cached_property
    def native(self):  # the engine's copy, checked once (a source met by many suspects)
        sid, first, last = self.sentences
        return native.ParaphraseSource((
            self.n_sentences, u64(self.values), i64(self.counts), i64(self.df_token), i64(self.order),
            u64(self.sorted_hashes), u64(self.rare), i64(self.rare_start), i64(self.rare_count),
            (i64(sid), i64(first), i64(last), i64(self.sentence_of), i64(self.sentence_len)), self.whole_tokens,
            _rare_df(self.n_sentences)))

    @classmethod
    def of(cls, t: Tokens, order: np.ndarray | None = None,
           whole: "tuple[np.ndarray, np.ndarray, int, int] | None" = None) -> "SourceStats":
        """``order``: ``stable_argsort(t.hashes)`` if known (a stored document's, checked).
        ``whole``: ``t`` is a window of whole sentences of a longer source
        (:mod:`sverka.core.windows`), whose (lemma hashes sorted, sentences holding each,
        sentences, tokens) these are: rarity and weights are the whole source's."""
        sid = np.asarray(t.sentence_ids, dtype=np.int64)
        h = np.asarray(t.hashes, dtype=np.uint64)
        if len(h) == 0:
            e = np.zeros(0, np.int64)
            return cls(0, h, e, e, e, h, (e, e, e), e, e, h, e, e)
        # by lemma, then sentence (the engine's; a stored order is checked before it is used)
        if whole is not None:  # the window's lemmas counted in the whole source
            lemmas, held, n_sentences, whole_tokens = whole
            lemmas, held = u64(lemmas), i64(held)
        else:
            lemmas = held = None
            n_sentences, whole_tokens = int(1 + np.count_nonzero(sid[1:] != sid[:-1])), 0
        values, counts, df_token, order, hs, sentences, sentence_len, rare, rare_start, rare_count = \
            native.paraphrase_source_stats(u64(h), i64(sid), None if order is None else i64(order), lemmas, held,
                                           _rare_df(n_sentences))
        if whole is not None:
            values, counts = lemmas, held
        return cls(n_sentences, values, counts, df_token, order, hs, sentences, sentence_len, sid, rare, rare_start,
                   rare_count, whole_tokens)



@dataclass(frozen=True, eq=False)
class SuspectKeys:
    """What the layer needs of a suspect alone, computed once per check (the suspect meets
    every candidate source): the lemmas each of its tokens agrees with (its own and its
    synonyms), sorted by hash and grouped by token, and its sentences."""

    hashes: np.ndarray  # uint64 lemma hashes of the keys, sorted
    tokens: np.ndarray  # int64: the suspect token of hashes[k]
    token_keys: np.ndarray  # uint64: the keys grouped by token, token t's at token_keys[key_start[t]:key_start[t + 1]]
    key_start: np.ndarray  # int64, len(a) + 1
    sentences: tuple[np.ndarray, np.ndarray, np.ndarray]  # _sentences(a)
    distinct: np.ndarray  # uint64: the distinct values of hashes
    distinct_start: np.ndarray  # int64: where distinct[k]'s run starts in hashes
    distinct_count: np.ndarray  # int64: its length
    sentence_of: np.ndarray  # int64 per token: its sentence id
    sentence_len: np.ndarray  # int64 per sentence id: its tokens
    key_kind: np.ndarray  # int8 per token_keys: 0 the token's own lemma, SYNONYM or FAMILY
    own: np.ndarray  # uint64 per token: its lemma hash

    @cached_property
    def synonyms_of(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Every token's own lemma then its related ones, in the order
        :func:`sverka.core.synonyms.related_of` gives them (synonyms, then words of its
        family): (keys, start per token and one past the last, kind of each key)."""
        return self.token_keys, self.key_start, self.key_kind

    def __getstate__(self) -> dict:  # pickled without the engine's copy, made again where it is needed
        return {k: v for k, v in self.__dict__.items() if k != "native"}

    @cached_property
    def native(self):  # the engine's copy, checked once (the suspect meets every candidate source)
        sid, first, last = self.sentences
        return native.ParaphraseSuspect((
            u64(self.own), i64(self.tokens), self.synonyms_of, u64(self.distinct), i64(self.distinct_start),
            i64(self.distinct_count), (i64(sid), i64(first), i64(last), i64(self.sentence_of),
                                       i64(self.sentence_len))))


def suspect_keys(a: Tokens, related: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None) -> SuspectKeys:
    """The :class:`SuspectKeys` of ``a``. ``related``: ``related_of(a.hashes)`` if known."""
    return _suspect_keys(np.asarray(a.hashes, dtype=np.uint64), _sentences(a), table(), related=related)


def _suspect_keys(ha: np.ndarray, sentences: tuple[np.ndarray, np.ndarray, np.ndarray], syn,
                  families=None, related: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None) -> SuspectKeys:
    """``families``: a table of word families as ``syn`` is a synonym table (the shipped one
    when None, none when False). ``related``: ``related_of(ha, syn, families)`` if known."""
    tok = np.arange(len(ha), dtype=np.int64)
    which, alt, kind = related if related is not None else related_of(ha, syn, families)
    kh, ki = np.concatenate([ha, alt]), np.concatenate([tok, tok[which]])
    kk = np.concatenate([np.zeros(len(ha), np.int8), kind])
    order = stable_argsort(kh)
    by_token = np.argsort(ki, kind="stable")  # two sorted runs: the merge sort is at its best
    key_start = np.searchsorted(ki[by_token], np.arange(len(ha) + 1), "left")
    hashes = kh[order]
    start = np.flatnonzero(np.concatenate(([True], hashes[1:] != hashes[:-1]))) if len(hashes) else tok[:0]
    sid, first, last = sentences
    sentence_len = np.zeros(int(sid.max()) + 1 if len(sid) else 0, np.int64)
    sentence_len[sid] = last - first
    return SuspectKeys(hashes, ki[order], u64(kh[by_token]), i64(key_start), sentences, hashes[start], start,
                       np.diff(np.append(start, len(hashes))), np.repeat(sid, last - first), sentence_len,
                       np.ascontiguousarray(kk[by_token], np.int8), ha)


def _intersect(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(ix, iy) with x[ix] == y[iy]: the values two sorted distinct arrays share, rising; the
    shorter array is looked up in the longer (a poem against a novel costs the poem)."""
    return native.paraphrase_intersect(u64(x), u64(y))


def _params() -> tuple:
    """The layer's constants as the engine takes them, read when called."""
    return (MIN_AGREE, MIN_RARE, float(MIN_DICE), float(FAMILY_WEIGHT), float(SOURCE_KEPT), MIN_SENTENCE_TOKENS,
            CANDIDATES_PER_SENTENCE, PAIRS_PER_TOKEN, EDGE_GAP, bool(PLACE_CROWDED))


def paraphrase_passages(a: Tokens, b: Tokens, exact: list[Passage], *, min_words: int,
                        a_word_starts: np.ndarray, b_stats: SourceStats | None = None,
                        a_keys: SuspectKeys | None = None) -> list[Passage]:
    """The passages of ``a`` in ``b``: the ``exact`` ones, with what the paraphrase layer
    found (see the module docstring) added or merged into them, sorted by suspect start.
    ``min_words``: words of the suspect's text a paraphrase passage must span (as the exact
    layer counts its minimum). ``b_stats``: ``SourceStats.of(b)`` and ``a_keys``: ``suspect_keys(a)``, kept by the caller
    (a source met by many suspects)."""
    if len(a) == 0 or len(b) == 0:
        return exact
    keys = a_keys if a_keys is not None else suspect_keys(a)
    stats = b_stats if b_stats is not None else SourceStats.of(b)
    # sentences the exact layer matched (nearly) whole are left to it; a sentence it matched
    # in part is looked at again, and an accepted one is merged with the exact passage
    spans = np.asarray([x for p in exact for iv in p.matched_spans() for x in iv], dtype=np.int64)
    sa, sb, ka, kb, _, start, flat = native.paraphrase_accepted(
        keys.native, stats.native, i64(a.starts), i64(a.ends), spans, _params())
    if len(sa) == 0:
        return exact
    sa, sb, start = sa.tolist(), sb.tolist(), start.tolist()
    a_index, b_index = dict(zip(sa, ka.tolist())), dict(zip(sb, kb.tolist()))
    triples = [tuple(m) for m in flat.reshape(-1, 3).tolist()]
    # consecutive suspect sentences from nearby source sentences: one passage
    groups: list[list[tuple[int, int, list]]] = []
    for k, (x, y) in enumerate(zip(sa, sb)):
        matched = triples[start[k]:start[k + 1]]
        g = groups[-1] if groups else None
        if g is not None and x == g[-1][0] + 1 and abs(b_index[y] - b_index[g[-1][1]]) <= SOURCE_WINDOW_SENTENCES:
            g.append((x, y, matched))
        else:
            groups.append([(x, y, matched)])
    _, a_first, a_last = keys.sentences
    _, b_first, b_last = stats.sentences
    out = []
    for g in groups:
        pieces = []
        for _, _, matched in g:
            pieces.extend(_pieces(matched, a, b))
        out.append((pieces, _kind(g, a, b, a_index, b_index, a_first, a_last, b_first, b_last)))
    return _merged(exact, out, a_word_starts, min_words)


def _rare_rows(keys: SuspectKeys, stats: SourceStats, token_ok: np.ndarray
               ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The (source token, suspect token) pairs agreeing through a lemma rare in the source (the
    suspect token's own or a synonym's), of the suspect tokens ``token_ok`` allows, as
    ``(at, lo, cnt, ki)``: source token ``at[k]`` agrees with suspect tokens
    ``ki[lo[k]:lo[k] + cnt[k]]``. Lemma by lemma (rising hash), each lemma's source tokens in
    token order, and its suspect tokens too. (The engine's step that ``paraphrase_passages``
    runs inside one call.)"""
    return native.paraphrase_rare_rows(keys.native, stats.native, np.asarray(token_ok, dtype=bool))


def _agreeing_tokens(sa: np.ndarray, sb: np.ndarray, a_keys: SuspectKeys, hb: np.ndarray,
                     b_sentences: tuple[np.ndarray, np.ndarray, np.ndarray]) -> np.ndarray:
    """For each candidate pair (suspect sentence ``sa[p]``, source sentence ``sb[p]``): at most
    how many tokens :func:`_match` can pair. It pairs tokens one to one, each suspect token
    through its lemma or a synonym of it that is the lemma of a source token, so it pairs no
    more than the suspect tokens with such a lemma in the source sentence, nor more than the
    source tokens whose lemma one of the suspect sentence's tokens agrees with (a word the
    student repeated, met once in the source, is one pair)."""
    a_sid, a_first, a_last = a_keys.sentences
    b_sid, b_first, b_last = b_sentences
    ka, kb = np.searchsorted(a_sid, sa), np.searchsorted(b_sid, sb)
    return native.paraphrase_bound(i64(a_first[ka]), i64(a_last[ka]), i64(b_first[kb]), i64(b_last[kb]),
                                   a_keys.synonyms_of, u64(hb))


def _related(ha: np.ndarray, syn, families) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every token's own lemma then its related ones (:func:`sverka.core.synonyms.related_of`),
    as :attr:`SuspectKeys.synonyms_of` gives them."""
    which, alt, kind = related_of(ha, syn, families)
    n = len(ha)
    start = np.zeros(n + 1, np.int64)
    np.cumsum(np.bincount(which, minlength=n) + 1, out=start[1:])
    keys = np.empty(int(start[-1]), np.uint64)
    kinds = np.zeros(len(keys), np.int8)
    keys[start[:-1]] = ha
    at = start[which] + 1 + (np.arange(len(which)) - np.searchsorted(which, which, "left"))
    keys[at], kinds[at] = alt, kind
    return keys, start, kinds


def _match(ia: range, ib: range, ha: np.ndarray, hb: np.ndarray, syn, weight: dict[int, float],
           synonyms_of: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None,
           families=None) -> list[tuple[int, int, int]]:
    """One-to-one agreeing tokens ``(suspect i, source u, how)``, ``how`` 0 for the same lemma,
    :data:`SYNONYM` or :data:`FAMILY`: equal lemmas first, then synonyms, then words of one
    family, heaviest suspect tokens first (the engine's, as ``paraphrase_passages`` runs it).
    ``synonyms_of``: the suspect's (``SuspectKeys.synonyms_of``), instead of looking them up
    in ``syn`` and ``families`` (a table of word families: the shipped one when None, none
    when False)."""
    ha, hb = u64(ha), u64(hb)
    related = synonyms_of if synonyms_of is not None else _related(ha, syn, families)
    w = np.asarray([weight[i] for i in ia], dtype=np.float64)
    flat = native.paraphrase_match(ia.start, ia.stop, ib.start, ib.stop, ha, hb, w, related, bool(PLACE_CROWDED))
    return [tuple(m) for m in flat.reshape(-1, 3).tolist()]


def _dense(matched: list[tuple[int, int, int]]) -> list[tuple[int, int, int]]:
    """``matched`` (sorted by suspect token) without the agreeing tokens at either edge that
    more than :data:`EDGE_GAP` unmatched content tokens part from the rest, when fewer than
    :data:`MIN_AGREE` of them lie together there: a word the borrowed sentence shares with
    the student's own text run into it ("... County Executive William R. Start the New Year
    ...": the sentence does not end at an initial) is no evidence, and would stretch the
    passage over the student's words. Repeated until both edges hold (the engine's)."""
    lo, hi = native.paraphrase_dense(np.asarray([m[0] for m in matched], dtype=np.int64), EDGE_GAP, MIN_AGREE)
    return matched[lo:hi]



def _merged(exact: list[Passage], found: list[tuple[list, str]], ws: np.ndarray, min_words: int) -> list[Passage]:
    """The exact passages with the paraphrase groups: a group overlapping exact passages on the
    suspect side becomes one passage with them (pieces united); the rest stand alone."""
    items = [(p.suspect_start, p.suspect_end, list(p.matched_pieces()), p.kind, p) for p in exact]
    for pieces, kind in found:
        items.append((min(q[0] for q in pieces), max(q[1] for q in pieces), pieces, kind, None))
    items.sort(key=lambda x: (x[0], x[1]))
    clusters: list[list] = []
    for it in items:
        if clusters and it[0] < max(x[1] for x in clusters[-1]):
            clusters[-1].append(it)
        else:
            clusters.append([it])
    out: list[Passage] = []
    for c in clusters:
        exact_spans = [(x[0], x[1]) for x in c if x[4] is not None]
        adds = [q for x in c if x[4] is None for q in x[2]
                if not any(s0 <= q[0] and q[1] <= s1 for s0, s1 in exact_spans)]
        if not adds and exact_spans:  # nothing beyond what the exact layer matched: as it made it
            out.extend(x[4] for x in c if x[4] is not None)
            continue
        pieces = sorted({q for x in c for q in x[2]})
        c0, c1 = min(q[0] for q in pieces), max(q[1] for q in pieces)
        d0, d1 = min(q[2] for q in pieces), max(q[3] for q in pieces)
        words = words_in(ws, [(c0, c1)])
        if words < min_words:
            continue
        matched = words_in(ws, merge((q[0], q[1]) for q in pieces))
        kinds = {x[3] for x in c} - {"verbatim"}
        kind = "verbatim" if not kinds else kinds.pop() if len(kinds) == 1 else "paraphrase"
        out.append(Passage(c0, c1, d0, d1, words, "paraphrase", matched=matched, pieces=tuple(pieces), kind=kind))
    return out


def _pieces(matched: list[tuple[int, int, int]], a: Tokens, b: Tokens) -> list[tuple[int, int, int, int]]:
    """Runs of matched tokens consecutive in the suspect. A word replaced between two agreeing
    ones ends the run (it is not counted as matched): a word of the suspect between them while
    the source has one or two tokens between theirs."""
    out = []
    run: list[tuple[int, int, int]] = []
    text = a.text
    for m in matched:
        if run and (m[0] != run[-1][0] + 1 or (2 <= m[1] - run[-1][1] <= 3 and WRITTEN_WORD.search(
                text, int(a.ends[run[-1][0]]), int(a.starts[m[0]])) is not None)):
            out.append(run)
            run = []
        run.append(m)
    if run:
        out.append(run)
    return [(int(a.starts[r[0][0]]), int(a.ends[r[-1][0]]),
             int(min(b.starts[u] for _, u, _ in r)), int(max(b.ends[u] for _, u, _ in r))) for r in out]


def _left_words(t: Tokens, i0: int, i1: int, paired: set[int]) -> list[tuple[int, str]]:
    """(start, normalised word) of the words of the text from token ``i0`` to token ``i1 - 1``
    (inclusive) that are not tokens ``paired`` with the other side: stop words, tokens left
    over."""
    c0, c1 = int(t.starts[i0]), int(t.ends[i1 - 1])
    kept = {int(t.starts[i]) for i in paired if i0 <= i < i1}
    return [(m.start(), _norm(m.group())) for m in WRITTEN_WORD.finditer(t.text, c0, c1) if m.start() not in kept]


def _kind(group, a: Tokens, b: Tokens, a_index, b_index, a_first, a_last, b_first, b_last) -> str:
    found: set[str] = set()
    if any(b_index[y[1]] < b_index[x[1]] for x, y in zip(group, group[1:])):
        found.add("reordered")
    for sa, sb, matched in group:
        ka, kb = a_index[sa], b_index[sb]
        a0, a1, b0, b1 = int(a_first[ka]), int(a_last[ka]), int(b_first[kb]), int(b_last[kb])
        if any(m[2] == SYNONYM for m in matched):
            found.add("synonyms")
        if any(m[2] == FAMILY for m in matched):
            found.add("edited")  # another word of the same family: a word replaced
        # the words the pairing left on either side, stop words included: another form of a
        # word of the other side (a lemma the dictionary gives both, as "пошли" and "пошла",
        # "они" and "она") was inflected, any other inserted, deleted or replaced
        words_a = _left_words(a, a0, a1, {i for i, _, _ in matched})
        words_b = _left_words(b, b0, b1, {u for _, u, _ in matched})
        left_a, left_b = Counter(w for _, w in words_a), Counter(w for _, w in words_b)
        if left_a != left_b:
            only_a, only_b = left_a - left_b, left_b - left_a
            rest_a, rest_b, inflected = paired_forms(only_a, only_b, analyses_in(a, words_a, only_a, a.language),
                                                     analyses_in(b, words_b, only_b, a.language), a.language)
            if inflected:
                found.add("inflected")
            if rest_a or rest_b:
                found.add("edited")
        us = [u for _, u, _ in matched]
        if any(y < x for x, y in zip(us, us[1:])):
            found.add("reordered")
        for i, u, how in matched:
            if not how and _norm(a.text[a.starts[i]:a.ends[i]]) != _norm(b.text[b.starts[u]:b.ends[u]]):
                found.add("inflected")
                break
    if not found:
        return "verbatim"
    return found.pop() if len(found) == 1 else "paraphrase"

