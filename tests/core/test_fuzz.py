"""Property tests (hypothesis) over the whole chain: canonization, fingerprints, alignment, compare.

The texts are built to be *interesting*: words of Russian, Ukrainian and English mixed with
separators, tricks (invisible characters, look-alike letters, line-end hyphens, case) and
random Unicode; suspects are made from pieces of a source with words changed, inserted and
deleted, so alignment has real passages to find.

Properties:
* every span lies inside its text, and a token's span slices the text to the word it came from;
* the tricks change no lemma (a tricked text canonizes to the clean text's lemmas);
* fingerprints are a pure function of the lemma sequence, positions point inside the tokens;
* every passage lies inside BOTH texts, passages of one source never overlap on the suspect side;
* a copied run of content words is found;
* a check through a collection gives what a direct compare gives; a cross-check's matrix and
  pairs agree; exclusions applied to a finished result give what a new search gives;
* results are identical across runs AND across process restarts (a fresh interpreter with
  another PYTHONHASHSEED gives the same JSON as this process).

Example counts are modest so the file stays within a few seconds in CI.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from sverka.core import api
from sverka.core.fingerprints import fingerprint_document, shingle_count, shingle_hashes
from sverka.core.hashing import hash_text
from sverka.core.results import EXCLUSIONS, METHODS
from sverka.core.settings import Settings
from sverka.core.text import canonize

FUZZ = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# Content words (no stop words), several forms each, so lemmas join them.
WORDS = {
    "ru": (
        "студенты студент написали написал курсовую работу работы историю истории родного края "
        "преподаватель преподавателю проверил сочинение сочинения библиотеке книгу книги зимним "
        "вечером река реки город города старый старого дорога дороги ветер снег солнце окно "
        "учебник учебника абзацы абзац ссылки источник источника семестр семестра"
    ).split(),
    "uk": (
        "викладач викладачка уважно прочитав кожну роботу знайшов однакові абзаци запозичені "
        "підручника посилання джерело джерела місто міста ріка річки книжку бібліотека зима "
        "літо вечір студентка студенти написала"
    ).split(),
    "en": (
        "teacher teachers compared every essay essays textbook class found several paragraphs "
        "copied word reference source sources student students library winter summer river "
        "city cities wrote written reading notes chapter chapters"
    ).split(),
}
ALL_WORDS = [w for ws in WORDS.values() for w in ws]
SEPARATORS = [" ", " ", " ", " ", ", ", ". ", ".\n", "\n\n", "! ", "? ", " — ", "; ", ": ", " «", "» "]
INVISIBLE = ["\u200b", "\u200c", "\u200d", "\u2060", "\u00ad", "\ufeff", "\ufe0f", "\U000e0100", "\u17b4"]
# Cyrillic letter -> Latin look-alike
LOOKALIKE = {"а": "a", "е": "e", "о": "o", "р": "p", "с": "c", "х": "x", "у": "y", "і": "i"}
ODD = [
    "\u202e", "\u0301", "😀", "日本", "مرحبا", "İ", "ß", "ﬁ", "ｗ", "123", "\ud800", "\t", "\r\n",
    "-", "‐", "_", "…", "т. е.", "г.", "Mr.",
]  # fmt: skip

words = st.sampled_from(ALL_WORDS)


def one_language_words(min_size: int = 0, max_size: int = 60):
    """Words of Russian or Ukrainian (with English): a word spelled alike in both (написали)
    takes its lemma from the language of the whole text, so a slice alone may read otherwise."""
    return st.sampled_from(["ru", "uk"]).flatmap(
        lambda lang: st.lists(st.sampled_from(WORDS[lang] + WORDS["en"]), min_size=min_size, max_size=max_size)
    )


def join(ws: list[str], seps: list[str]) -> str:
    out = []
    for k, w in enumerate(ws):
        out.append(w)
        if k + 1 < len(ws):
            out.append(seps[k % len(seps)] if seps else " ")
    return "".join(out)


@st.composite
def texts(draw, min_words: int = 0, max_words: int = 60) -> str:
    ws = draw(st.lists(words, min_size=min_words, max_size=max_words))
    seps = draw(st.lists(st.sampled_from(SEPARATORS + ODD), min_size=1, max_size=8))
    return join(ws, seps)


def trick(word: str, how: str, r: random.Random) -> str:
    """One trick a student uses to hide a copy; the word must still canonize to the same lemma."""
    if how == "invisible" and len(word) >= 2:
        k = r.randrange(1, len(word))
        return word[:k] + r.choice(INVISIBLE) + word[k:]
    if how == "lookalike":
        # only inside a word that keeps at least one letter without a look-alike (clearly Cyrillic)
        if any("а" <= ch <= "я" or ch in "єїґ" for ch in word if ch not in LOOKALIKE):
            k = r.randrange(len(word))
            if word[k] in LOOKALIKE:
                return word[:k] + LOOKALIKE[word[k]] + word[k + 1 :]
    if how == "hyphen" and len(word) >= 4:
        k = r.randrange(2, len(word) - 1)
        return word[:k] + "-\n" + word[k:]
    if how == "upper":
        return word.upper()
    if how == "title":
        return word.capitalize()
    return word


# --- canonization -----------------------------------------------------------------------


@FUZZ
@given(st.one_of(texts(), st.text(max_size=200), st.lists(st.sampled_from(ODD + ALL_WORDS + INVISIBLE), max_size=30).map("".join)))
def test_canonize_spans_inside_and_slice_to_the_word(text):
    t = canonize(text, drop_stop_words=False)
    starts, ends = t.starts.tolist(), t.ends.tolist()
    assert len(starts) == len(ends) == len(t.lemmas) == len(t.hashes) == len(t.sentence_ids)
    previous = 0
    for i, (a, b) in enumerate(zip(starts, ends)):
        assert previous <= a < b <= len(text)
        previous = b
        again = canonize(text[a:b], drop_stop_words=False)
        assert again.word_count == 1 and again.starts.tolist() == [0] and again.ends.tolist() == [b - a]
        assert int(t.hashes[i]) == int(hash_text(t.lemmas[i]))
    for s, e in t.sentence_spans.tolist():
        assert 0 <= s < e <= len(text)
    assert t.lookalike_letters >= 0 and t.invisible_chars >= 0 and t.hyphen_joins >= 0
    # the same text, the same tokens
    u = canonize(text, drop_stop_words=False)
    assert u.lemmas == t.lemmas and u.starts.tolist() == starts and u.ends.tolist() == ends


@FUZZ
@given(
    one_language_words(1, 40),
    st.lists(st.sampled_from(["invisible", "lookalike", "hyphen", "upper", "title", "none"]), min_size=1, max_size=40),
    st.integers(0, 2**32 - 1),
)
def test_tricks_change_no_lemma(ws, hows, seed):
    r = random.Random(seed)
    clean = " ".join(ws)
    tricked = " ".join(trick(w, hows[k % len(hows)], r) for k, w in enumerate(ws))
    a, b = canonize(clean), canonize(tricked)
    assert b.lemmas == a.lemmas, (clean, tricked)
    assert b.language == a.language
    for s, e in zip(b.starts.tolist(), b.ends.tolist()):
        assert canonize(tricked[s:e]).word_count == 1


def test_latin_i_in_ukrainian_text_keeps_it_ukrainian():
    """Found by test_tricks_change_no_lemma: the text's only Ukrainian letters swapped for Latin i."""
    clean = "Викладач уважно прочитав кожну роботу та знайшов у деяких однакові абзаци"
    tricked = clean.replace("і", "i")  # Latin i: the only Ukrainian letter of the sentence
    assert canonize(tricked).language == canonize(clean).language == "uk"
    assert canonize(tricked).lemmas == canonize(clean).lemmas


# --- fingerprints ---------------------------------------------------------------------------


@FUZZ
@given(texts(), st.integers(1, 6))
def test_fingerprints_point_inside_the_tokens(text, w):
    tokens = canonize(text)
    fp = fingerprint_document(tokens, Settings(shingle_words=w))
    n = len(tokens)
    assert fp.token_count == n
    assert fp.shingle_count == shingle_count(n, w) == len(shingle_hashes(tokens.hashes, w))
    pos = np.asarray(fp.shingle_positions)
    assert pos.dtype == np.int64 and np.all(np.diff(pos) > 0)
    assert np.all((0 <= pos) & (pos + w <= n))
    assert np.asarray(fp.shingle_hashes).dtype == np.uint64
    assert len(fp.shingle_hashes) == len(pos)
    idx = np.asarray(fp.sentence_index)
    assert np.all((0 <= idx) & (idx < max(1, len(tokens.sentence_spans))))


@FUZZ
@given(one_language_words(0, 50), st.integers(0, 2**32 - 1))
def test_fingerprints_depend_only_on_the_lemmas(ws, seed):
    """A tricked copy (invisible characters, look-alikes, case, hyphens, other separators) has
    exactly the fingerprints of the clean text, apart from the full-text hash."""
    r = random.Random(seed)
    clean = " ".join(ws)
    tricked = join([trick(w, r.choice(["invisible", "lookalike", "hyphen", "upper", "none"]), r) for w in ws],
                   [r.choice([" ", "  ", "\n", " \t"])])
    s = Settings()
    a, b = fingerprint_document(canonize(clean), s), fingerprint_document(canonize(tricked), s)
    for field in ("shingle_hashes", "shingle_positions", "minhash", "super_shingles", "mega_shingles", "long_words"):
        assert np.array_equal(np.asarray(getattr(a, field)), np.asarray(getattr(b, field))), field


# --- alignment and compare ------------------------------------------------------------------


def rewrite(ws: list[str], r: random.Random, edits: float) -> list[str]:
    """Change, delete and insert about ``edits`` of the words."""
    out = []
    for w in ws:
        x = r.random()
        if x < edits / 3:
            continue  # deleted
        if x < 2 * edits / 3:
            out.append(r.choice(ALL_WORDS))  # changed
            continue
        out.append(w)
        if x < edits:
            out.append(r.choice(ALL_WORDS))  # inserted
    return out


def make_pair(r: random.Random) -> tuple[str, str]:
    """A source and a suspect built from pieces of it (rewritten, tricked) and words of its own."""
    source_words = [r.choice(ALL_WORDS) for _ in range(r.randrange(0, 160))]
    suspect_words: list[str] = []
    for _ in range(r.randrange(0, 5)):
        if r.random() < 0.6 and source_words:
            a = r.randrange(len(source_words))
            piece = source_words[a : a + r.randrange(1, 40)]
            suspect_words += rewrite(piece, r, r.choice([0.0, 0.1, 0.3]))
        else:
            suspect_words += [r.choice(ALL_WORDS) for _ in range(r.randrange(0, 30))]
    hows = ["none"] * 6 + ["invisible", "lookalike", "hyphen", "upper", "title"]
    suspect_words = [trick(w, r.choice(hows), r) for w in suspect_words]
    seps_a = [r.choice(SEPARATORS) for _ in range(5)]
    seps_b = [r.choice(SEPARATORS + ODD[:4]) for _ in range(5)]
    return join(suspect_words, seps_b), join(source_words, seps_a)


def check_passages(result, suspect_text: str, source_texts: list[str]) -> None:
    assert result.suspect_text == suspect_text
    assert 0.0 <= result.borrowed_percent <= 100.0
    assert 0.0 <= result.cited_percent <= 100.0
    assert abs(result.borrowed_percent + result.cited_percent + result.original_percent - 100.0) < 1e-6
    for src in result.sources:
        assert src.text in source_texts
        assert 0.0 <= src.containment <= 1.0 + 1e-9
        assert 0.0 <= src.resemblance <= 1.0 + 1e-9
        assert 0.0 <= src.sentence_score <= 1.0 + 1e-9
        previous_end = 0
        for p in sorted(src.passages, key=lambda p: p.suspect_start):
            assert 0 <= p.suspect_start < p.suspect_end <= len(suspect_text), p
            assert 0 <= p.source_start < p.source_end <= len(src.text), p
            assert p.suspect_start >= previous_end, f"passages of one source overlap on the suspect side: {src.passages}"
            previous_end = p.suspect_end
            assert p.words >= 1 and p.method in METHODS
            assert 0 <= p.matched_words <= p.words and 0.0 <= p.similarity <= 1.0
            for a0, a1, b0, b1 in p.pieces:  # matched parts lie inside the passage, both sides
                assert p.suspect_start <= a0 < a1 <= p.suspect_end, p
                assert p.source_start <= b0 < b1 <= p.source_end, p
            assert p.excluded is None or p.excluded in EXCLUSIONS


@FUZZ
@given(st.integers(0, 2**32 - 1))
def test_compare_passages_inside_both_texts_and_never_overlapping(seed):
    suspect, source = make_pair(random.Random(seed))
    a, b = api.document_from_text(suspect, "suspect"), api.document_from_text(source, "source")
    result = api.compare(a, b)
    check_passages(result, suspect, [source])
    # the same answer twice in one process
    assert api.result_to_json(api.compare(a, b)) == api.result_to_json(result)


@FUZZ
@given(st.integers(0, 2**32 - 1), texts(max_words=40), texts(max_words=40))
def test_align_with_every_setting(seed, before, after):
    """Tiny seeds, gaps and minimum lengths too: spans stay inside, no self-overlap."""
    r = random.Random(seed)
    suspect, source = make_pair(r)
    suspect = before + " " + suspect + " " + after
    s = Settings(
        align_seed_words=r.randint(1, 5), max_gap_words=r.randint(0, 10), min_passage_words=r.randint(1, 12),
        min_sentence_words=r.randint(0, 8), shingle_words=r.randint(1, 6),
        exclude_quotes=r.random() < 0.5, exclude_bibliography=r.random() < 0.5,
    )
    result = api.compare(api.document_from_text(suspect), api.document_from_text(source), s)
    check_passages(result, suspect, [source])


ru_en = st.sampled_from(WORDS["ru"] + WORDS["en"])


@FUZZ
@given(st.lists(ru_en, min_size=0, max_size=30), st.lists(st.sampled_from(WORDS["ru"]), min_size=24, max_size=60, unique=True),
       st.lists(ru_en, min_size=0, max_size=30), st.lists(ru_en, min_size=0, max_size=60))
def test_a_copied_run_is_found(pre, copied, post, elsewhere):
    """24+ distinct content words copied verbatim are found, wherever they stand (Russian and
    English around them; a Russian copy inside Ukrainian text: see the test below)."""
    source = " ".join(elsewhere + copied)
    suspect = " ".join(pre + copied + post)
    result = api.compare(api.document_from_text(suspect), api.document_from_text(source))
    start = len(" ".join(pre)) + (1 if pre else 0)
    end = start + len(" ".join(copied))
    assert result.sources, (suspect, source)
    hit = [p for p in result.sources[0].passages if p.suspect_start < end and p.suspect_end > start]
    assert hit
    covered = sum(min(end, p.suspect_end) - max(start, p.suspect_start) for p in hit)
    assert covered >= 0.8 * (end - start)


def test_russian_passage_inside_ukrainian_source_is_found():
    """A text holding both languages reads each sentence with at least two marks of one of
    them in that language: a Russian passage quoted inside a Ukrainian source keeps its
    Russian lemmas (the whole text read as Ukrainian lost it)."""
    ru = ("Студенты написали курсовые работы по истории родного края и сдали их преподавателю "
          "в последний день семестра, хотя многие из них начали писать только накануне вечером.")
    uk = ("Викладач уважно прочитав кожну роботу та знайшов у деяких однакові абзаци, "
          "запозичені з підручника без жодного посилання на джерело. ")
    suspect = api.document_from_text("Совсем другой вступительный абзац рассказывает о погоде. " + ru)
    alone = api.compare(suspect, api.document_from_text(ru)).borrowed_percent
    inside = api.compare(suspect, api.document_from_text(uk + ru + " " + uk)).borrowed_percent
    assert alone > 60
    assert inside >= alone - 5


SMALL = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SMALL
@given(st.integers(0, 2**32 - 1))
def test_check_through_a_collection_equals_compare(seed):
    """A collection holding only B answers a check of A exactly as compare(A, B) does, whenever
    it lists B (the index's candidate search may pass over a source that shares no 4-word run)."""
    import tempfile

    suspect, source = make_pair(random.Random(seed))
    a, b = api.document_from_text(suspect, "suspect"), api.document_from_text(source, "source")
    direct = api.compare(a, b)
    with tempfile.TemporaryDirectory() as folder, api.Collection(Path(folder) / "c.sverka") as collection:
        try:
            collection.add_document(b)
        except api.SverkaError:
            return  # e.g. a source with no text at all
        checked = collection.check(a)
    check_passages(checked, suspect, [source])
    if checked.sources:
        assert [src.passages for src in checked.sources] == [src.passages for src in direct.sources]
        assert checked.borrowed_percent == pytest.approx(direct.borrowed_percent)


def _with_quote_and_bibliography(seed: int) -> tuple[str, str]:
    r = random.Random(seed)
    suspect, source = make_pair(r)
    words = suspect.split(" ")
    if len(words) > 6:
        k = r.randrange(len(words) - 3)
        words[k], words[k + 2] = "«" + words[k], words[k + 2] + "»"
    suspect = " ".join(words)
    if r.random() < 0.4:
        suspect += "\n\nСписок литературы\n" + source[: r.randrange(0, 300)]
    return suspect, source


@SMALL
@given(st.integers(0, 2**32 - 1), st.booleans(), st.booleans())
def test_exclusions_applied_afterwards_equal_a_new_search(seed, quotes, bibliography):
    """apply_exclusions gives what a search with those settings gives, and applying twice
    changes nothing (the window switches exclusions without searching again)."""
    suspect, source = _with_quote_and_bibliography(seed)
    a, b = api.document_from_text(suspect, "suspect"), api.document_from_text(source, "source")
    other = Settings(exclude_quotes=quotes, exclude_bibliography=bibliography)
    afterwards = api.apply_exclusions(api.compare(a, b, Settings(exclude_quotes=not quotes)), other)
    assert api.result_to_json(afterwards) == api.result_to_json(api.compare(a, b, other))
    assert api.result_to_json(api.apply_exclusions(afterwards, other)) == api.result_to_json(afterwards)
    check_passages(afterwards, suspect, [source])


def test_a_longer_minimum_applied_afterwards_equals_a_new_search():
    differ = []
    for seed in range(150):
        suspect, source = _with_quote_and_bibliography(seed)
        a, b = api.document_from_text(suspect), api.document_from_text(source)
        other = Settings(min_passage_words=8 + seed % 8)
        afterwards = api.apply_exclusions(api.compare(a, b), other)
        if api.result_to_json(afterwards) != api.result_to_json(api.compare(a, b, other)):
            differ.append(seed)
    assert differ == []


def _class_of_essays(seed: int) -> list:
    r = random.Random(seed)
    s, b = make_pair(r)
    s2, b2 = make_pair(r)
    texts = [s, b, s2 + " " + b[: r.randrange(0, 400)], b2]
    return [api.document_from_text(t, f"essay {k}") for k, t in enumerate(texts)]


@SMALL
@given(st.integers(0, 2**32 - 1))
@example(107706806)  # a paraphrase of 9 words listing a pair by 5 words matched
def test_crosscheck_matrix_and_pairs_agree(seed):
    docs = _class_of_essays(seed)
    result = api.crosscheck(docs)
    n = len(docs)
    assert list(result.documents) == [d.title for d in docs]
    assert len(result.matrix) == n and all(len(row) == n for row in result.matrix)
    index = {name: k for k, name in enumerate(result.documents)}
    for k, row in enumerate(result.matrix):
        assert row[k] == 1.0
        assert all(0.0 <= x <= 1.0 + 1e-9 for x in row)
    threshold = Settings().crosscheck_threshold
    previous = None
    for p in result.pairs:
        i, j = index[p.a], index[p.b]
        assert i != j
        assert p.a_in_b == pytest.approx(result.matrix[i][j]) and p.b_in_a == pytest.approx(result.matrix[j][i])
        # listed for its share, or for any counted passage (one copied sentence is visible), a
        # paraphrase counted as a check counts it: by the words it spans, not the words it matched
        assert max(p.a_in_b, p.b_in_a) >= threshold or p.passages
        assert all(ps.words >= Settings().min_passage_words for ps in p.passages)
        assert 0.0 <= p.resemblance <= 1.0
        key = max(p.a_in_b, p.b_in_a)
        assert previous is None or key <= previous + 1e-9, "pairs must come most similar first"
        previous = key
    assert api.crosscheck_to_json(api.crosscheck(docs)) == api.crosscheck_to_json(result)


def test_crosscheck_does_not_depend_on_the_order_of_documents():
    for seed in range(40):
        docs = _class_of_essays(seed)

        def pairs(result):
            return {frozenset([(p.a, round(p.a_in_b, 6)), (p.b, round(p.b_in_a, 6))]) for p in result.pairs}

        assert pairs(api.crosscheck(docs)) == pairs(api.crosscheck(docs[::-1])), f"seed {seed}"


# --- across process restarts --------------------------------------------------------------

_RESTART = """
import json, random, sys
sys.path.insert(0, {here!r})
from test_fuzz import make_pair
from sverka.core import api
out = []
for seed in {seeds!r}:
    s, b = make_pair(random.Random(seed))
    out.append(api.result_to_json(api.compare(api.document_from_text(s, "suspect"), api.document_from_text(b, "source"))))
print(json.dumps(out, ensure_ascii=False, sort_keys=True))
"""


@pytest.mark.slow
def test_compare_identical_across_process_restarts():
    seeds = [0, 1, 2, 3, 7, 11, 42, 2024]
    here = str(Path(__file__).resolve().parent)
    mine = [
        api.result_to_json(api.compare(api.document_from_text(s, "suspect"), api.document_from_text(b, "source")))
        for s, b in (make_pair(random.Random(seed)) for seed in seeds)
    ]
    assert any(r["sources"] for r in mine), "the examples must contain real passages"
    code = _RESTART.format(here=here, seeds=seeds)
    for hashseed in ("0", "4242"):
        env = dict(os.environ, PYTHONHASHSEED=hashseed)
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=300)
        assert done.returncode == 0, done.stderr[-3000:]
        assert json.loads(done.stdout) == json.loads(json.dumps(mine, ensure_ascii=False, sort_keys=True))
