"""The engine's paraphrase layer against the Python layer it replaced (tests/core/paraphrase_oracle.py).

The suspect sentences left to the layer, the rare rows and their budget, the candidates, the
one-to-one matching, the edges and the Dice run in ``sverka._engine``; the passages must be the
oracle's exactly: spans, pieces, words, matched words, methods and kinds. Texts of
../shared/data/ruslit rewritten at random (synonyms from bench/data/synonyms_ru_handmade.tsv,
other words of a family from the shipped family table, words dropped, added and moved,
sentences reordered), with and without the exact layer's passages, and pairs of the PAN-2013
sample (skipped when they are absent); random token arrays of few lemmas with synonym classes.
"""

from __future__ import annotations

import gzip
import random
from functools import lru_cache
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import paraphrase_oracle as oracle
from sverka.core import paraphrase
from sverka.core.align import align
from sverka.core.engine import native
from sverka.core.kinds import passage_kind
from sverka.core.settings import Settings
from sverka.core.text import canonize
from test_engine_fingerprints import _ruslit_words
from test_paraphrase import _Synonyms

ROOT = Path(__file__).resolve().parents[2]


def both(a, b, exact: bool = True) -> list:
    """The product's passages, asserted equal to the oracle's (kept statistics too)."""
    s = Settings()
    min_words = 8
    found = align(a, b, seed_words=s.align_seed_words, max_gap=s.max_gap_words, min_words=min_words,
                  min_sentence_words=s.min_sentence_words, kind_of=passage_kind) if exact else []
    ws = np.asarray(a.word_starts if a.word_starts is not None else [], np.int64)
    expected = oracle.paraphrase_passages(a, b, list(found), min_words=min_words, a_word_starts=ws)
    got = paraphrase.paraphrase_passages(a, b, list(found), min_words=min_words, a_word_starts=ws)
    assert got == expected
    kept = paraphrase.paraphrase_passages(a, b, list(found), min_words=min_words, a_word_starts=ws,
                                          b_stats=paraphrase.SourceStats.of(b), a_keys=paraphrase.suspect_keys(a))
    assert kept == expected
    return got


@lru_cache(maxsize=1)
def _synonyms() -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for line in (ROOT / "bench" / "data" / "synonyms_ru_handmade.tsv").read_text("utf-8").splitlines():
        if line.startswith("#") or "\t" not in line:
            continue
        x, y = line.split("\t")[:2]
        out.setdefault(x, []).append(y)
        out.setdefault(y, []).append(x)
    return out


@lru_cache(maxsize=1)
def _families() -> dict[str, list[str]]:
    members: dict[str, list[str]] = {}
    with gzip.open(ROOT / "core" / "data" / "families_ru.tsv.gz", "rt", encoding="utf-8") as f:
        for line in f:
            if line.startswith("#") or "\t" not in line:
                continue
            lemma, family = line.rstrip("\n").split("\t")
            members.setdefault(family, []).append(lemma)
    return {w: [v for v in ws if v != w] for ws in members.values() for w in ws}


def rewritten(words: list[str], rng: random.Random, rate: float) -> list[str]:
    """Words replaced by a synonym or another word of their family, dropped, added or moved
    (each with the given rate), and sentences swapped."""
    syn, fam = _synonyms(), _families()
    out: list[str] = []
    for w in words:
        bare = w.strip(".,;:!?—«»\"()").lower()
        r = rng.random()
        if r < rate and bare in syn:
            out.append(w.lower().replace(bare, rng.choice(syn[bare])))
        elif r < 2 * rate and bare in fam and fam[bare]:
            out.append(w.lower().replace(bare, rng.choice(fam[bare])))
        elif r < 2.3 * rate:
            continue
        elif r < 2.6 * rate:
            out.extend([w, rng.choice(words)])
        else:
            out.append(w)
    if len(out) > 4 and rng.random() < rate:
        k = rng.randrange(len(out) - 2)
        out[k], out[k + 2] = out[k + 2], out[k]
    text = " ".join(out)
    if rng.random() < 0.5:  # two sentences swapped
        parts = text.split(". ")
        if len(parts) > 3:
            k = rng.randrange(len(parts) - 1)
            parts[k], parts[k + 1] = parts[k + 1], parts[k]
            text = ". ".join(parts)
    return text.split(" ")


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.integers(0, 10**9), st.integers(60, 900), st.integers(0, 10**9), st.sampled_from([0.0, 0.1, 0.25, 0.45]),
       st.booleans())
def test_real_texts_rewritten_at_random(ruslit, start, size, seed, rate, exact):
    """A window of ruslit's prose rewritten (synonyms, words of a family, drops, additions,
    moves, sentences swapped) inside other prose, against the window as it was: the oracle's
    passages, with and without the exact layer's."""
    words = _ruslit_words()
    rng = random.Random(seed)
    start %= max(1, len(words) - size)
    window = list(words[start:start + size])
    at = rng.randrange(max(1, len(words) - 400))
    suspect = " ".join([*words[at:at + 200], *rewritten(window, rng, rate), *words[at + 200:at + 400]])
    source = " ".join(words[max(0, start - 300):start + size + 300])
    both(canonize(suspect), canonize(source), exact)


def test_a_rewritten_window_is_found_alike(ruslit):
    """Hand-picked: a window with a quarter of its words rewritten is found as a paraphrase by
    both, so the comparison above is not only of empty results."""
    words = _ruslit_words()
    rng = random.Random(7)
    hits = 0
    for start in range(0, 40_000, 4_000):
        window = list(words[start:start + 400])
        suspect = " ".join(rewritten(window, rng, 0.25))
        got = both(canonize(suspect), canonize(" ".join(words[start - 200 if start else 0:start + 600])), False)
        hits += any(p.method == "paraphrase" for p in got)
    assert hits >= 5


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.integers(0, 10**9), st.integers(40, 160), st.integers(3, 8), st.integers(0, 10**9))
def test_repetitive_texts_where_the_pair_budget_bites(ruslit, start, size, times, seed):
    """A window repeated several times in both texts: its lemmas make more (source token,
    suspect token) pairs than the budget allows, and the lemmas making the most are dropped
    as the oracle drops them."""
    words = _ruslit_words()
    start %= max(1, len(words) - size)
    window = list(words[start:start + size])
    rng = random.Random(seed)
    suspect = " ".join(w for _ in range(times) for w in rewritten(window, rng, 0.2))
    source = " ".join(window * times)
    a, b = canonize(suspect), canonize(source)
    keys, stats = oracle.suspect_keys(a), oracle.SourceStats.of(b)
    _, _, cnt, _ = oracle._rare_rows(keys, stats, np.ones(len(a), bool))
    assert int(cnt.sum()) > oracle.PAIRS_PER_TOKEN * (len(a) + len(b))  # the budget bites
    both(a, b, True)
    both(a, b, False)


_LEMMAS = st.integers(1, 14)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.lists(_LEMMAS, min_size=1, max_size=12), min_size=1, max_size=6),
       st.lists(st.lists(_LEMMAS, min_size=1, max_size=12), min_size=1, max_size=8),
       st.lists(st.frozensets(_LEMMAS, min_size=2, max_size=3), max_size=3),
       st.lists(st.frozensets(_LEMMAS, min_size=2, max_size=3), max_size=2),
       st.lists(st.floats(0.5, 4.0), min_size=12, max_size=12))
def test_matching_gives_the_oracles_pairs(a_sents, b_sents, classes, families, weights):
    """The one-to-one matching with repeated lemmas (crowded ones placed), synonyms and words
    of a family, and the edges cut off: the oracle's pairs."""
    ha = np.asarray([h for s in a_sents for h in s], np.uint64)
    hb = np.asarray([h for s in b_sents for h in s], np.uint64)
    syn, fam = _Synonyms(classes), _Synonyms(families)
    w = {i: weights[i % len(weights)] for i in range(len(ha))}
    for ia in (range(len(ha)), range(len(a_sents[0]), len(ha))):
        got = paraphrase._match(ia, range(len(hb)), ha, hb, syn, w, None, fam)
        assert got == oracle._match(ia, range(len(hb)), ha, hb, syn, w, None, fam)
        assert paraphrase._dense(got) == oracle._dense(got)


def test_pan13_pairs(pan13):
    """English pairs of the PAN-2013 sample (verbatim and obfuscated copies): the oracle's passages."""
    pairs = (pan13 / "pairs").read_text("utf-8").split("\n")
    for line in [x for x in pairs if x.strip()][:: max(1, len(pairs) // 12)][:12]:
        susp, src = line.split()
        a = canonize((pan13 / "susp" / susp).read_text("utf-8", "replace"))
        b = canonize((pan13 / "src" / src).read_text("utf-8", "replace"))
        both(a, b, True)
        both(a, b, False)


def test_bad_arrays_are_refused_with_a_reason():
    a = canonize("Помещик принуждал крестьян трудиться на полях с рассвета до заката.")
    keys, stats = paraphrase.suspect_keys(a), paraphrase.SourceStats.of(a)
    spans = np.zeros(0, np.int64)
    starts, ends = np.asarray(a.starts, np.int64), np.asarray(a.ends, np.int64)
    ok = native.paraphrase_accepted(keys.native, stats.native, starts, ends, spans, paraphrase._params())
    assert ok[0].tolist() == [0]  # a sentence against itself, no exact passage: accepted
    with pytest.raises(ValueError, match="covered"):
        native.paraphrase_accepted(keys.native, stats.native, starts[:-1], ends, spans, paraphrase._params())
    sid, first, last = stats.sentences
    arrays = [stats.n_sentences, stats.values, stats.counts, stats.df_token, stats.order, stats.sorted_hashes,
              stats.rare, stats.rare_start, stats.rare_count, (sid, first, last, stats.sentence_of, stats.sentence_len),
              0, 20]
    native.ParaphraseSource(tuple(arrays))
    spoiled = list(arrays)
    spoiled[4] = np.zeros(len(stats.order), np.int64)
    with pytest.raises(ValueError, match="permutation"):
        native.ParaphraseSource(tuple(spoiled))
    spoiled = list(arrays)
    spoiled[9] = (sid, first, last, stats.sentence_of + 5, stats.sentence_len)
    with pytest.raises(ValueError, match="sentence id"):
        native.ParaphraseSource(tuple(spoiled))
    k = keys.native  # made once, kept
    assert keys.native is k


_FIELDS = ("n_sentences", "values", "counts", "df_token", "order", "sorted_hashes", "sentence_len", "sentence_of",
           "rare", "rare_start", "rare_count", "whole_tokens")


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.integers(1, 9), st.integers(0, 5)), max_size=60), st.booleans(), st.booleans(),
       st.sampled_from([None, "stable", "spoiled"]), st.integers(0, 40))
def test_source_statistics_are_the_oracles(tokens, rising, whole, order, extra):
    """A source's sorted lemmas, sentences per lemma, counts per token, sentences and rare
    lemmas: the oracle's, with sentence ids rising or not, a stored order right or spoiled,
    and as a window of a whole source whose counts are given."""
    from sverka.core.text import Tokens

    if rising:
        tokens = sorted(tokens, key=lambda t: t[1])
    n = len(tokens)
    t = Tokens(text="", starts=np.arange(n, dtype=np.int64), ends=np.arange(n, dtype=np.int64) + 1,
               lemmas=("",) * n, hashes=np.asarray([h for h, _ in tokens], np.uint64),
               word_hashes=np.asarray([h for h, _ in tokens], np.uint64),
               sentence_ids=np.asarray([s for _, s in tokens], np.int32), sentence_spans=np.zeros((6, 2), np.int64),
               word_count=n, language="ru")
    stable = np.argsort(t.hashes, kind="stable")
    given_order = None if order is None else stable if order == "stable" else stable[::-1].copy()
    w = None
    if whole:
        lemmas = np.arange(2, 12, 2, dtype=np.uint64)
        w = (lemmas, (lemmas.astype(np.int64) * 7 + extra) % 50, 60 + extra, 2 * n + 1)
    got, expected = paraphrase.SourceStats.of(t, given_order, w), oracle.SourceStats.of(t, given_order, w)
    for name in _FIELDS:
        assert np.array_equal(getattr(got, name), getattr(expected, name)), name
    for x, y in zip(got.sentences, expected.sentences):
        assert np.array_equal(x, y)


def test_kept_parts_are_pickled_without_the_engines_copy():
    """A template's prepared parts go to the cross-check's workers pickled: the engine's copy
    stays behind and is made again there."""
    import pickle

    a = canonize("Помещик принуждал крестьян трудиться на полях с рассвета до заката. Вечером пели.")
    stats, keys = paraphrase.SourceStats.of(a), paraphrase.suspect_keys(a)
    first = paraphrase.paraphrase_passages(a, a, [], min_words=1, a_word_starts=np.asarray(a.word_starts),
                                           b_stats=stats, a_keys=keys)
    stats2, keys2 = pickle.loads(pickle.dumps(stats)), pickle.loads(pickle.dumps(keys))
    assert "native" not in vars(stats2) and "native" not in vars(keys2)
    assert paraphrase.paraphrase_passages(a, a, [], min_words=1, a_word_starts=np.asarray(a.word_starts),
                                          b_stats=stats2, a_keys=keys2) == first
    assert first
