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
"""

from __future__ import annotations

import bisect
from collections import Counter, defaultdict
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from .intervals import merge
from .kinds import analyses_in, paired_forms
from .results import Passage
from .sorting import checked_order, stable_argsort
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
#: Odd 64-bit constant mixing a candidate's number into lemma hashes (:func:`_agreeing_tokens`).
_MIX = np.uint64(0x9E3779B97F4A7C15)
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
        # by lemma, then sentence: sentence ids rise with the tokens, so a stable sort by lemma
        # alone gives that order (one sort, not lexsort's two)
        rising = bool(np.all(sid[1:] >= sid[:-1]))
        known = checked_order(h, order) if order is not None and rising else None
        if known is not None:
            order, hs = known
        else:
            order = stable_argsort(h) if rising else np.lexsort((sid, h))
            hs = h[order]
        ss = sid[order]
        other = hs[1:] != hs[:-1]
        new = np.concatenate(([True], other | (ss[1:] != ss[:-1])))
        values, counts = _runs(hs[new])  # sorted already
        df_token = np.empty(len(h), dtype=np.int64)  # each token's count, read off its run
        df_token[order] = counts[np.cumsum(np.concatenate(([0], other)))]
        sentences = _sentences(t)
        sentence_len = np.zeros(int(sid.max()) + 1, np.int64)
        sentence_len[sentences[0]] = sentences[2] - sentences[1]
        n_sentences = int(1 + np.count_nonzero(sid[1:] != sid[:-1]))
        run_start = np.flatnonzero(np.concatenate(([True], other)))  # values[k]'s tokens in hs
        run_count = np.diff(np.append(run_start, len(hs)))
        whole_tokens = 0
        if whole is not None:  # the window's lemmas counted in the whole source
            lemmas, held, n_sentences, whole_tokens = whole
            counts = _lookup(lemmas, held, values)
            df_token = _lookup(lemmas, held, h)
            window_values, values = values, lemmas
        else:
            window_values, held = values, counts
        rare = counts <= _rare_df(n_sentences)
        return cls(n_sentences, values, held, df_token, order, hs, sentences, sentence_len, sid, window_values[rare],
                   run_start[rare], run_count[rare], whole_tokens)


def _unique_counts(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(sorted distinct values, counts) by one sort (numpy's hashed unique is slower here)."""
    return _runs(np.sort(x))


def _lookup(values: np.ndarray, counts: np.ndarray, h: np.ndarray) -> np.ndarray:
    """counts[k] where values[k] == h, else 0 (values sorted)."""
    if len(values) == 0:
        return np.zeros(len(h), np.int64)
    at = np.minimum(np.searchsorted(values, h), len(values) - 1)
    return np.where(values[at] == h, counts[at], 0)


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

    @cached_property
    def synonyms_of(self) -> "_Synonyms":  # token -> its related lemmas' hashes and kinds, read as lists
        return _Synonyms(self.token_keys.tolist(), self.key_start.tolist(), self.key_kind.tolist())


class _Synonyms:
    """The related lemmas of each suspect token as :func:`sverka.core.synonyms.related_of`
    gives them (in order: synonyms, then words of its family), taken from the keys a check made
    once: a token's keys are its own lemma, then its related ones."""

    __slots__ = ("keys", "start", "kinds")

    def __init__(self, keys: list[int], start: list[int], kinds: list[int]) -> None:
        self.keys, self.start, self.kinds = keys, start, kinds

    def __call__(self, i: int) -> list[tuple[int, int]]:
        """(lemma hash, SYNONYM or FAMILY) of each lemma related to token ``i``'s."""
        k0, k1 = self.start[i] + 1, self.start[i + 1]
        return list(zip(self.keys[k0:k1], self.kinds[k0:k1]))


def suspect_keys(a: Tokens) -> SuspectKeys:
    """The :class:`SuspectKeys` of ``a``."""
    return _suspect_keys(np.asarray(a.hashes, dtype=np.uint64), _sentences(a), table())


def _suspect_keys(ha: np.ndarray, sentences: tuple[np.ndarray, np.ndarray, np.ndarray], syn,
                  families=None) -> SuspectKeys:
    """``families``: a table of word families as ``syn`` is a synonym table (the shipped one
    when None, none when False)."""
    tok = np.arange(len(ha), dtype=np.int64)
    which, alt, kind = related_of(ha, syn, families)
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
    return SuspectKeys(hashes, ki[order], kh[by_token], key_start, sentences, hashes[start], start,
                       np.diff(np.append(start, len(hashes))), np.repeat(sid, last - first), sentence_len,
                       kk[by_token])


def _spread(start: np.ndarray, count: np.ndarray) -> np.ndarray:
    """start[k], start[k] + 1, ..., start[k] + count[k] - 1 for every k, in one array."""
    return np.repeat(start, count) + (np.arange(int(count.sum())) - np.repeat(np.cumsum(count) - count, count))


def _intersect(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(ix, iy) with x[ix] == y[iy]: the values two sorted distinct arrays share, rising; the
    shorter array is looked up in the longer (a poem against a novel costs the poem)."""
    if len(x) == 0 or len(y) == 0:
        e = np.zeros(0, np.int64)
        return e, e
    if len(x) > len(y):
        iy, ix = _intersect(y, x)
        return ix, iy
    at = np.minimum(np.searchsorted(y, x), len(y) - 1)
    hit = np.flatnonzero(y[at] == x)
    return hit, at[hit]


def _runs(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(distinct values, run lengths) of the SORTED array ``x``."""
    if len(x) == 0:
        return x, np.zeros(0, np.int64)
    first = np.flatnonzero(np.concatenate(([True], x[1:] != x[:-1])))
    return x[first], np.diff(np.append(first, len(x)))


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
    syn = table()
    ha = np.asarray(a.hashes, dtype=np.uint64)
    hb = np.asarray(b.hashes, dtype=np.uint64)
    keys = a_keys if a_keys is not None else suspect_keys(a)
    a_sid, a_first, a_last = keys.sentences
    # sentences the exact layer matched (nearly) whole are left to it; a sentence it matched
    # in part is looked at again, and an accepted one is merged with the exact passage
    spans = [iv for p in exact for iv in p.matched_spans()]
    covered = np.zeros(len(a) + 1, dtype=np.int64)
    if spans:  # tokens inside a piece of an exact passage: +1 at its first, -1 past its last
        q = np.asarray(spans, dtype=np.int64)
        i0 = np.searchsorted(a.starts, q[:, 0], "left")
        i1 = np.maximum(np.searchsorted(a.ends, q[:, 1], "right"), i0)
        np.add.at(covered, i0, 1)
        np.add.at(covered, i1, -1)
        covered = (np.cumsum(covered) > 0).astype(np.int64)
    cum = np.zeros(len(a) + 1, dtype=np.int64)
    np.cumsum(covered[:-1], out=cum[1:])
    size = a_last - a_first
    eligible = (size >= MIN_SENTENCE_TOKENS) & ((cum[a_last] - cum[a_first]) < 0.8 * size)
    if not eligible.any():
        return exact
    stats = b_stats if b_stats is not None else SourceStats.of(b)
    values, counts, n_b = stats.values, stats.counts, stats.n_sentences
    rare_df = _rare_df(n_b)
    at, lo, cnt, ki = _rare_rows(keys, stats, np.repeat(eligible, size))
    if len(at) < MIN_RARE:
        return exact
    b_sid = stats.sentence_of
    a_sent_of = keys.sentence_of
    df_b = stats.df_token
    # every (source token u, suspect token i) agreeing through a rare lemma; bounded by the
    # texts' lengths (the lemmas making the most pairs dropped first)
    budget = PAIRS_PER_TOKEN * (len(a) + (stats.whole_tokens or len(b)))
    if int(cnt.sum()) > budget:
        per_lemma = cnt * df_b[at]  # ~ pairs the lemma makes
        limit = np.sort(per_lemma)[np.searchsorted(np.cumsum(np.sort(cnt)), budget)] \
            if np.cumsum(np.sort(cnt))[-1] > budget else per_lemma.max() + 1
        keep = per_lemma < limit
        at, lo, cnt = at[keep], lo[keep], cnt[keep]
    u = np.repeat(at, cnt)
    i = ki[_spread(lo, cnt)]
    if len(i) == 0:
        return exact
    # sentence pairs with at least MIN_RARE distinct suspect tokens agreeing; per suspect
    # sentence the CANDIDATES_PER_SENTENCE best (most such tokens) are scored in full
    n_sb = len(stats.sentence_len)
    pair_tok = _unique_counts((a_sent_of[i] * n_sb + b_sid[u]) * len(a) + i)[0]
    codes, n_agree = _runs(pair_tok // len(a))  # sorted already
    sa_len = keys.sentence_len
    # a pair reaching MIN_DICE shares about half its weight, mostly in rare words: a quarter
    # of the shorter sentence (the suspect's may hold words of the student's own around the
    # borrowed part: the Dice below weighs only the part of it the agreeing words span)
    ok = (n_agree >= MIN_RARE) & (4 * n_agree >= np.minimum(sa_len[codes // n_sb], stats.sentence_len[codes % n_sb]))
    codes, n_agree = codes[ok], n_agree[ok]
    if len(codes) == 0:
        return exact
    sa_of, sb_of = codes // n_sb, codes % n_sb
    by = np.lexsort((sb_of, -n_agree, sa_of))
    sa_of, sb_of = sa_of[by], sb_of[by]
    rank_in = np.arange(len(by)) - np.searchsorted(sa_of, sa_of, "left")
    keep = rank_in < CANDIDATES_PER_SENTENCE
    sa_of, sb_of = sa_of[keep], sb_of[keep]
    b_sids, b_first, b_last = stats.sentences
    # most candidates cannot reach MIN_AGREE agreeing tokens: counted for all at once, they
    # are not scored one by one (the count bounds what _match can pair, so nothing changes)
    fits = _agreeing_tokens(sa_of, sb_of, keys, hb, stats.sentences) >= MIN_AGREE
    candidates = list(zip(sa_of[fits].tolist(), sb_of[fits].tolist()))
    if not candidates:
        return exact
    used_b = sorted({sb for _, sb in candidates})
    b_index = dict(zip(used_b, np.searchsorted(b_sids, used_b).tolist()))
    used_a = sorted({sa for sa, _ in candidates})
    a_index = dict(zip(used_a, np.searchsorted(a_sid, used_a).tolist()))
    # IDF weights over the source's sentences, of the candidates' suspect sentences
    wa_all = np.zeros(len(a))
    for k in a_index.values():
        a0, a1 = int(a_first[k]), int(a_last[k])
        wa_all[a0:a1] = np.log((n_b + 1) / (_lookup(values, counts, ha[a0:a1]) + 0.5))

    best: dict[int, tuple[float, int, list[tuple[int, int, int]]]] = {}
    for sa, sb in candidates:
        ka, kb = a_index[sa], b_index[sb]
        a0, a1, b0, b1 = int(a_first[ka]), int(a_last[ka]), int(b_first[kb]), int(b_last[kb])
        wa_tok = dict(zip(range(a0, a1), wa_all[a0:a1].tolist()))
        wb_tok = dict(zip(range(b0, b1), np.log((n_b + 1) / (df_b[b0:b1] + 0.5)).tolist()))
        matched = _dense(_match(range(a0, a1), range(b0, b1), ha, hb, syn, wa_tok, keys.synonyms_of))
        if matched and (matched[0][0] > a0 or matched[-1][0] < a1 - 1):
            # an agreeing word was cut off an edge: matched again inside what is left, so a word
            # the student's part took (a second "New", "area") goes to its place in the borrowed part
            matched = _dense(_match(range(matched[0][0], matched[-1][0] + 1), range(b0, b1), ha, hb, syn, wa_tok,
                                    keys.synonyms_of))
        if sum(1 for m in matched if m[2] != FAMILY) < MIN_AGREE:  # a family supports, never makes, a pair
            continue
        if sum(1 for _, u, _ in matched if df_b[u] <= rare_df) < MIN_RARE:
            continue
        wa = sum(wa_tok.values())
        wb = sum(wb_tok.values())
        wm_b = sum(wb_tok[u] * (FAMILY_WEIGHT if how == FAMILY else 1.0) for _, u, how in matched)
        wm = sum(wa_tok[i] * (FAMILY_WEIGHT if how == FAMILY else 1.0) for i, _, how in matched) + wm_b
        dice = wm / (wa + wb) if wa + wb else 0.0
        if dice < MIN_DICE and wm_b >= SOURCE_KEPT * wb:
            # the source sentence kept nearly whole inside a longer suspect sentence (one of
            # the student's own run into it: no full stop, a clause added): the suspect side
            # weighs from its first agreeing token to its last, words added there still count
            first_i, last_i = matched[0][0], matched[-1][0]  # _match sorts by suspect token
            wa_part = sum(wa_tok[i] for i in range(first_i, last_i + 1))
            dice = wm / (wa_part + wb) if wa_part + wb else 0.0
        if dice >= MIN_DICE and (sa not in best or dice > best[sa][0]):
            best[sa] = (dice, sb, matched)
    if not best:
        return exact
    # consecutive suspect sentences from nearby source sentences: one passage
    groups: list[list[tuple[int, int, list]]] = []
    for sa in sorted(best):
        _, sb, matched = best[sa]
        g = groups[-1] if groups else None
        if g is not None and sa == g[-1][0] + 1 and abs(b_index[sb] - b_index[g[-1][1]]) <= SOURCE_WINDOW_SENTENCES:
            g.append((sa, sb, matched))
        else:
            groups.append([(sa, sb, matched)])
    out = []
    for g in groups:
        pieces = []
        for _, _, matched in g:
            pieces.extend(_pieces(matched, a, b))
        out.append((pieces, _kind(g, a, b, a_index, b_index, a_first, a_last, b_first, b_last, ha, hb)))
    return _merged(exact, out, a_word_starts, min_words)


def _rare_rows(keys: SuspectKeys, stats: SourceStats, token_ok: np.ndarray
               ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The (source token, suspect token) pairs agreeing through a lemma rare in the source (the
    suspect token's own or a synonym's), of the suspect tokens ``token_ok`` allows, as
    ``(at, lo, cnt, ki)``: source token ``at[k]`` agrees with suspect tokens
    ``ki[lo[k]:lo[k] + cnt[k]]``. Lemma by lemma (rising hash), each lemma's source tokens in
    token order, and its suspect tokens too."""
    # the lemmas both hold; of each, the suspect's keys from allowed tokens
    dk, rk = _intersect(keys.distinct, stats.rare)
    k_pos = _spread(keys.distinct_start[dk], keys.distinct_count[dk])
    k_tok = keys.tokens[k_pos]
    ok = token_ok[k_tok]
    ki = k_tok[ok]
    ok_cum = np.concatenate(([0], np.cumsum(ok)))
    k_end = np.cumsum(keys.distinct_count[dk])
    k_n = ok_cum[k_end] - ok_cum[k_end - keys.distinct_count[dk]]  # a lemma's allowed keys
    has = k_n > 0
    rk, k_n = rk[has], k_n[has]
    k_lo = np.cumsum(k_n) - k_n  # each lemma's keys start at ki[k_lo]
    s_lo, s_cnt = stats.rare_start[rk], stats.rare_count[rk]
    return stats.order[_spread(s_lo, s_cnt)], np.repeat(k_lo, s_cnt), np.repeat(k_n, s_cnt), ki


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


def _agreeing_tokens(sa: np.ndarray, sb: np.ndarray, a_keys: SuspectKeys, hb: np.ndarray,
                     b_sentences: tuple[np.ndarray, np.ndarray, np.ndarray]) -> np.ndarray:
    """For each candidate pair (suspect sentence ``sa[p]``, source sentence ``sb[p]``): at most
    how many tokens :func:`_match` can pair. It pairs tokens one to one, each suspect token
    through its lemma or a synonym of it that is the lemma of a source token, so it pairs no
    more than the suspect tokens with such a lemma in the source sentence, nor more than the
    source tokens whose lemma one of the suspect sentence's tokens agrees with (a word the
    student repeated, met once in the source, is one pair)."""
    if len(sa) == 0:
        return np.zeros(0, np.int64)

    def tokens(sentences, which):  # (candidate, token) of every token of the given sentences
        sids, first, last = sentences
        k = np.searchsorted(sids, which)
        start, count = first[k], last[k] - first[k]
        return np.repeat(np.arange(len(which)), count), _spread(start, count)

    p, tok = tokens(a_keys.sentences, sa)
    n_keys = a_keys.key_start[tok + 1] - a_keys.key_start[tok]
    a_at = np.repeat(np.arange(len(tok)), n_keys)  # which (candidate, token) row each key belongs to
    a_hash = a_keys.token_keys[_spread(a_keys.key_start[tok], n_keys)]
    q, u = tokens(b_sentences, sb)
    # (candidate, lemma) as one number: the lemma hash shifted by a multiple of an odd constant
    # per candidate. Two different pairs may meet by chance (2^-64): that only makes the bound
    # higher, never lower, so nothing _match would accept is counted out.
    code = np.concatenate([a_hash + p[a_at].astype(np.uint64) * _MIX, hb[u] + q.astype(np.uint64) * _MIX])
    n_a = len(a_at)
    order = np.argsort(code)
    s = code[order]
    from_a = order < n_a
    start = np.flatnonzero(np.concatenate(([True], s[1:] != s[:-1])))  # runs of equal codes
    side = from_a.view(np.int8)
    both = np.minimum.reduceat(side, start) != np.maximum.reduceat(side, start)
    hit = np.repeat(both, np.diff(np.append(start, len(s))))  # the sorted rows whose code both sides hold
    agreeing = np.zeros(len(tok), dtype=bool)  # (candidate, token) rows agreeing with the source sentence
    agreeing[a_at[order[hit & from_a]]] = True
    on_b = order[hit & ~from_a] - n_a  # (candidate, source token) rows some suspect token agrees with
    return np.minimum(np.bincount(p[agreeing], minlength=len(sa)), np.bincount(q[on_b], minlength=len(sa)))


def _match(ia: range, ib: range, ha: np.ndarray, hb: np.ndarray, syn, weight: dict[int, float],
           synonyms_of: "_Synonyms | None" = None, families=None) -> list[tuple[int, int, int]]:
    """One-to-one agreeing tokens ``(suspect i, source u, how)``, ``how`` 0 for the same lemma,
    :data:`SYNONYM` or :data:`FAMILY`: equal lemmas first, then synonyms, then words of one
    family, heaviest suspect tokens first. ``synonyms_of``: the suspect's
    (``SuspectKeys.synonyms_of``), instead of looking them up in ``syn`` and ``families`` (a
    table of word families: the shipped one when None, none when False)."""
    free_b: dict[int, list[int]] = defaultdict(list)
    for u in ib:
        free_b[int(hb[u])].append(u)
    order = sorted(ia, key=lambda i: -weight[i])
    of_lemma: dict[int, list[int]] = defaultdict(list)
    for i in ia:
        of_lemma[int(ha[i])].append(i)
    # a lemma the suspect sentence holds more often than the source's: which of its tokens is the
    # borrowed one is decided after the others are paired (below), not by which comes first
    crowded = [x for x, us in of_lemma.items() if len(us) > len(free_b.get(x, ()))]
    out: list[tuple[int, int, int]] = []
    for i in order:
        x = int(ha[i])
        if free_b.get(x) and x not in crowded:
            out.append((i, free_b[x].pop(0), 0))
    if crowded:
        out.extend(_placed(crowded, of_lemma, free_b, out))
    paired = {i for i, _, _ in out}
    rest = [i for i in order if i not in paired]
    if rest:
        if synonyms_of is None:  # the related lemmas of every unmatched suspect token at once, each token's in order
            which, alt, kind = related_of(ha[rest], syn, families)
            alternatives: dict[int, list[tuple[int, int]]] = defaultdict(list)
            for k, y, how in zip(which.tolist(), alt.tolist(), kind.tolist()):
                alternatives[rest[k]].append((y, how))
            synonyms_of = lambda i: alternatives.get(i, ())  # noqa: E731
        for wanted in (SYNONYM, FAMILY):  # every synonym before any word of a family
            left = []
            for i in rest:
                for y, how in synonyms_of(i):
                    if how == wanted and free_b.get(y):
                        out.append((i, free_b[y].pop(0), how))
                        break
                else:
                    left.append(i)
            rest = left
    out.sort()
    return out


def _placed(crowded: list[int], of_lemma: dict[int, list[int]], free_b: dict[int, list[int]],
            anchors: list[tuple[int, int, int]]) -> list[tuple[int, int, int]]:
    """Pairs of the ``crowded`` lemmas (more suspect tokens than free source tokens): each
    source token takes the suspect token nearest to where the tokens paired already put it
    (the pair nearest in the source, shifted by the distance to it); without any, the suspect's
    first ones. A student's "New" four words before the borrowed "Start the New Year" is left
    to the student."""
    by_source = sorted((u, i) for i, u, _ in anchors)
    out = []
    for x in crowded:
        left = list(of_lemma[x])
        for u in free_b.get(x, ()):
            if by_source:
                k = bisect.bisect_left(by_source, (u, -1))
                near = min(by_source[max(0, k - 1):k + 1], key=lambda p: abs(p[0] - u))
                at = near[1] + u - near[0]
                i = min(left, key=lambda i: (abs(i - at), i))
            else:
                i = left[0]
            left.remove(i)
            out.append((i, u, 0))
        if x in free_b:
            free_b[x] = []
    return out


def _dense(matched: list[tuple[int, int, int]]) -> list[tuple[int, int, int]]:
    """``matched`` (sorted by suspect token) without the agreeing tokens at either edge that
    more than :data:`EDGE_GAP` unmatched content tokens part from the rest, when fewer than
    :data:`MIN_AGREE` of them lie together there: a word the borrowed sentence shares with
    the student's own text run into it ("... County Executive William R. Start the New Year
    ...": the sentence does not end at an initial) is no evidence, and would stretch the
    passage over the student's words. Repeated until both edges hold."""
    cuts = [k + 1 for k in range(len(matched) - 1) if matched[k + 1][0] - matched[k][0] - 1 > EDGE_GAP]
    lo, hi = 0, len(matched)
    bounds = [0, *cuts, len(matched)]
    runs = list(zip(bounds, bounds[1:]))
    while len(runs) > 1 and runs[0][1] - runs[0][0] < MIN_AGREE:
        runs.pop(0)
    while len(runs) > 1 and runs[-1][1] - runs[-1][0] < MIN_AGREE:
        runs.pop()
    if runs:
        lo, hi = runs[0][0], runs[-1][1]
    return matched[lo:hi]


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


def _kind(group, a: Tokens, b: Tokens, a_index, b_index, a_first, a_last, b_first, b_last,
          ha: np.ndarray, hb: np.ndarray) -> str:
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
