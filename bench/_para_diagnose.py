"""Why a paraphrased sentence of ``bench_paraphrase.py`` was missed: one cause per miss.

The first step of the pipeline that lost the sentence, walked in order:

* ``retrieval``: aligning the essay with its source alone finds the sentence, but the check's
  retrieval never proposed the source;
* ``not listed``: retrieval proposed it and the pair finds the sentence, but the check's result
  does not show it (containment under the minimum, an exclusion);
* ``exact layer``: the exact passages cover 80 % of the sentence (the layer leaves it);
* ``no candidate: rare``: fewer than ``MIN_RARE`` suspect tokens agree with a rare lemma of
  the source sentence;
* ``no candidate: quarter``: fewer than a quarter of the sentence's tokens do;
* ``no candidate: outranked``: other source sentences share more rare words;
* ``no candidate: budget``: the pair bound dropped the lemmas that would have made it;
* ``agree``: one to one, fewer than ``MIN_AGREE`` tokens agree (or ``MIN_RARE`` rare ones);
* ``dice``: the weighted Dice is under ``MIN_DICE``;
* ``short passage``: the accepted sentence makes a passage under the minimum words;
* ``half``: a passage exists but covers less than half of the sentence's words.

For every miss also the source sentence's content lemmas that found no partner, each with
its reason: ``synonym not in table`` (the hand-made substitute is in the essay, Sverka's table
does not join the two), ``canonized apart`` (the source's word is in the essay in another form
that canonization reads as another lemma), ``gone`` (deleted by the rewriter or not in the
essay's sentence).
"""

from __future__ import annotations

from collections import Counter

import numpy as np


def _tokens_in(t, s: int, e: int) -> np.ndarray:
    return np.flatnonzero((np.asarray(t.starts) >= s) & (np.asarray(t.ends) <= e))


def _share(passages, text: str, s: int, e: int, word) -> float:
    ws = [(m.start() + s, m.end() + s) for m in word.finditer(text[s:e])]
    spans = [(p.suspect_start, p.suspect_end) for p in passages]
    inside = sum(1 for a, b in ws if any(a < y and x < b for x, y in spans))
    return inside / max(len(ws), 1)


class Diagnoser:
    def __init__(self, handmade: dict[str, str], word_re) -> None:
        import pymorphy3

        self.morph = pymorphy3.MorphAnalyzer()
        self.handmade = handmade
        self.word = word_re
        self.causes: Counter[str] = Counter()
        self.lost: Counter[str] = Counter()

    def lemma(self, word: str) -> str | None:
        from sverka.core.text import canonize

        t = canonize(word)
        return t.lemmas[0] if len(t) else None

    def diagnose(self, col, result, text: str, s: int, e: int, source_name: str, source_text: str,
                 original: str) -> tuple[str, str]:
        """(cause, details) of one missed sentence ``text[s:e]``."""
        from sverka.core import paraphrase as P
        from sverka.core.api import document_from_text
        from sverka.core.candidates import retrieve
        from sverka.core.check import align_prepared as _align, prepare
        from sverka.core.document import Document
        from sverka.core.synonyms import table

        settings = col.settings
        a = prepare(document_from_text(text, "essay"), settings)
        b = prepare(Document(source_text), settings)
        captured: list[tuple[np.ndarray, np.ndarray]] = []
        real = P._agreeing_tokens

        def spy(sa, sb, *rest):
            captured.append((sa.copy(), sb.copy()))
            return real(sa, sb, *rest)

        P._agreeing_tokens = spy
        try:
            passages = _align(a, b, settings)
        finally:
            P._agreeing_tokens = real
        ta, tb = a.tokens, b.tokens
        ia = _tokens_in(ta, s, e)
        o = source_text.find(original)
        ib = _tokens_in(tb, o, o + len(original)) if o >= 0 else np.zeros(0, np.int64)
        detail = []
        if len(ia) == 0 or len(ib) == 0:
            return "other", "no tokens"
        sa_ids = Counter(np.asarray(ta.sentence_ids)[ia].tolist())
        sb_ids = Counter(np.asarray(tb.sentence_ids)[ib].tolist())
        if len(sa_ids) > 1:
            detail.append(f"suspect sentence split in {len(sa_ids)}")
        sa = sa_ids.most_common(1)[0][0]
        sb = sb_ids.most_common(1)[0][0]
        a_rng = np.flatnonzero(np.asarray(ta.sentence_ids) == sa)
        b_rng = np.flatnonzero(np.asarray(tb.sentence_ids) == sb)
        x0, x1 = (int(v) for v in ta.sentence_spans[sa])
        if x0 < s - 1 or x1 > e + 1:
            detail.append(f"merged with its neighbours: {text[max(x0, s - 60):s]!r} + ... + {text[e:min(x1, e + 60)]!r}")
        ha, hb = np.asarray(ta.hashes, np.uint64), np.asarray(tb.hashes, np.uint64)
        syn = table()
        stats = P.SourceStats.of(tb)
        n_b = stats.n_sentences
        df = stats.df_token
        rare_df = P._rare_df(n_b)
        wa_all = np.log((n_b + 1) / (P._lookup(stats.values, stats.counts, ha) + 0.5))
        wa_tok = {int(i): float(wa_all[i]) for i in a_rng}
        wb_tok = {int(u): float(np.log((n_b + 1) / (df[u] + 0.5))) for u in b_rng}
        matched = P._match(range(int(a_rng[0]), int(a_rng[-1]) + 1), range(int(b_rng[0]), int(b_rng[-1]) + 1),
                           ha, hb, syn, wa_tok)
        wm = sum(wa_tok[i] + wb_tok[u] for i, u, _ in matched)
        # as the layer weighs it: the suspect sentence from its first agreeing token to its last
        wb = sum(wb_tok.values())
        dice = wm / (sum(wa_tok.values()) + wb)
        if dice < P.MIN_DICE and sum(wb_tok[u] for _, u, _ in matched) >= getattr(P, "SOURCE_KEPT", 2.0) * wb:
            span = range(matched[0][0], matched[-1][0] + 1)
            dice = wm / (sum(wa_tok[i] for i in span) + wb)
        rare_m = sum(1 for _, u, _ in matched if df[u] <= rare_df)
        detail.append(f"tokens {len(a_rng)}/{len(b_rng)}, agree {len(matched)} (rare {rare_m}), dice {dice:.2f}")
        detail.append(self._lost(ta, tb, a_rng, b_rng, matched, s, e))
        if _share(passages, text, s, e, self.word) >= 0.5:
            retrieved = {d for d, _ in retrieve(col.index, a, settings)}
            src = next((d for d in retrieved if str(col.index.info(d).path or "").endswith(source_name)), None)
            if src is None:
                detail.append(self._retrieval(col, a, source_name, int(ia[0]), int(ia[-1])))
            else:
                listed = [x for x in result.sources if str(x.path or "").endswith(source_name)]
                over = [p for x in listed for p in x.passages if p.suspect_start < e and s < p.suspect_end]
                detail.append(f"pair: {len(passages)} passages, words {[p.words for p in passages]}; in the result: "
                              f"{'listed' if listed else 'not listed'}, over the sentence "
                              f"{[(p.words, p.excluded) for p in over]}")
            return ("not listed" if src is not None else "retrieval"), "; ".join(detail)
        # the layer's own steps for this pair
        covered = [q for p in passages for q in (p.pieces or ((p.suspect_start, p.suspect_end),))]
        a0, a1 = int(ta.starts[a_rng[0]]), int(ta.ends[a_rng[-1]])
        if len(a_rng) < P.MIN_SENTENCE_TOKENS:
            return "short sentence", "; ".join(detail)
        n_cov = sum(1 for i in a_rng if any(x <= ta.starts[i] and ta.ends[i] <= y for x, y, *_ in covered
                                             if x < a1 and a0 < y))
        if n_cov >= 0.8 * len(a_rng):
            return "exact layer", "; ".join(detail)
        cands = {(int(x), int(y)) for sa_, sb_ in captured for x, y in zip(sa_.tolist(), sb_.tolist())}
        if (sa, sb) not in cands:
            agree = self._rare_agreeing(ha, hb, a_rng, b_rng, df, rare_df, syn)
            detail.append(f"rare agreeing {agree}")
            if agree < P.MIN_RARE:
                return "no candidate: rare", "; ".join(detail)
            if 4 * agree < len(a_rng):
                return "no candidate: quarter", "; ".join(detail)
            if any(x == sa for x, _ in cands):
                return "no candidate: outranked", "; ".join(detail)
            return "no candidate: budget", "; ".join(detail)
        if len(matched) < P.MIN_AGREE or rare_m < P.MIN_RARE:
            return "agree", "; ".join(detail)
        if dice < P.MIN_DICE:
            return "dice", "; ".join(detail)
        if not any(p.suspect_start < e and s < p.suspect_end for p in passages):
            return "short passage", "; ".join(detail)
        return "half", "; ".join(detail)

    @staticmethod
    def _retrieval(col, a, source_name: str, i0: int, i1: int) -> str:
        """Where the source stood in the check's two rankings (exact keys; with variant keys)."""
        from sverka.core.candidates import sentence_bounds
        from sverka.core.keys import PAIR_WORDS
        from sverka.core.candidates import rank as rank_candidates
        from sverka.core import check
        from sverka.core.align import SOURCE_WINDOW
        from sverka.core.candidates import MAX_POSTING

        paraphrase_share = getattr(check, "PARAPHRASE_SHARE", 1.0)  # an engine without the rule: 1.0

        index, settings = col.index, col.settings
        vh, vpos = a.variant_pairs  # every variant key, wherever the exact keys found a source
        pairs = np.concatenate([a.pairs[0], vh]), np.concatenate([a.pairs[1], vpos])
        pair_rows = index.pair_postings(np.unique(pairs[0]), max_posting=MAX_POSTING)
        sent_rows = index.sentence_postings(np.unique(a.sentences[0]), max_posting=MAX_POSTING)
        gap = settings.max_gap_words
        src = next(d.id for d in index.documents() if str(d.path or "").endswith(source_name)) \
            if hasattr(index, "documents") else None
        out = []
        for name, keys, share in (("exact", a.pairs, 1.0), ("variants", pairs, paraphrase_share)):
            ranked = rank_candidates(keys, pair_rows, a.sentences, sent_rows, near_suspect=gap + PAIR_WORDS + 1,
                                     near_source=gap * SOURCE_WINDOW + 2 * PAIR_WORDS + 2, limit=0,
                                     sentence_bounds=sentence_bounds(a.tokens),
                                     **({"sentence_share": share} if share < 1.0 else {}))
            ids = [d for d, _ in ranked]
            where = ids.index(src) + 1 if src in ids else None
            out.append(f"{name}: {len(ids)} ranked, source {'#%d' % where if where else 'absent'}")
        # the source's shared keys (exact and variants) with the essay, whatever their support
        held = set(np.asarray(pair_rows[0])[np.asarray(pair_rows[1]) == src].tolist()) if src is not None else set()
        mine = [(int(h), int(q)) for h, q in zip(pairs[0].tolist(), pairs[1].tolist()) if i0 <= q <= i1 and h in held]
        exact = set(zip(a.pairs[0].tolist(), a.pairs[1].tolist()))
        n_exact = sum(1 for k in mine if k in exact)
        out.append(f"keys of the sentence the source holds: {len(mine)} ({n_exact} exact) at {sorted(q for _, q in mine)}")
        return ", ".join(out)

    @staticmethod
    def _rare_agreeing(ha, hb, a_rng, b_rng, df, rare_df, syn) -> int:
        rare_b = {int(hb[u]) for u in b_rng if df[u] <= rare_df}
        which, alt = syn.alternatives_of(ha[a_rng])
        keys = {k: {int(ha[i])} for k, i in enumerate(a_rng)}
        for k, y in zip(which.tolist(), alt.tolist()):
            keys[k].add(y)
        return sum(1 for k in keys if keys[k] & rare_b)

    def _lost(self, ta, tb, a_rng, b_rng, matched, s: int, e: int) -> str:
        """The source sentence's lemmas without a partner, with the reason."""
        got = {u for _, u, _ in matched}
        a_lemmas = {ta.lemmas[i] for i in a_rng}
        essay = ta.text[s:e]
        forms = {w.lower().replace("ё", "е") for w in self.word.findall(essay)}
        out = []
        for u in b_rng:
            if u in got:
                continue
            lemma = tb.lemmas[u]
            word = tb.text[tb.starts[u]:tb.ends[u]]
            p = self.morph.parse(word.lower())[0]
            sub = self.handmade.get(p.normal_form.replace("ё", "е"))
            sub_lemma = self.lemma(sub) if sub else None
            if sub_lemma is not None and sub_lemma in a_lemmas:
                why = f"synonym not in table ({lemma}~{sub_lemma})"
                self.lost["synonym not in table"] += 1
            else:
                other = [f for f in forms if any(q.normal_form.replace("ё", "е") == p.normal_form.replace("ё", "е")
                                                 for q in self.morph.parse(f))]
                other_lemmas = {self.lemma(f) for f in other} - {None}
                if other and lemma not in a_lemmas and other_lemmas:
                    why = f"canonized apart ({word}->{'/'.join(other)}: {'/'.join(sorted(other_lemmas))}, not {lemma})"
                    self.lost["canonized apart"] += 1
                else:
                    why = f"gone ({lemma})"
                    self.lost["gone"] += 1
            out.append(why)
        return "lost: " + ", ".join(out)
