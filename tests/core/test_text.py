"""Canonization (ALGORITHMS.md §1): spans into the original text, tricks undone, sentences."""

from __future__ import annotations

import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import split_oracle
from sverka.core.hashing import hash_text
from sverka.core.intervals import merge as merge_ranges
from sverka.core import text as _tx
from sverka.core.text import Tokens, canonize, word_starts, words_in, words_within


def words(tokens: Tokens) -> list[str]:
    return [tokens.text[a:b] for a, b in zip(tokens.starts.tolist(), tokens.ends.tolist())]


def test_word_forms_give_the_same_lemmas():
    a = canonize("Студенты написали работы")
    b = canonize("студент написал работу")
    assert a.lemmas == b.lemmas == ("студент", "написать", "работа")
    assert a.language == b.language == "ru"


def test_english_word_forms_give_the_same_lemmas():
    a = canonize("The students wrote essays")
    b = canonize("student write essay")
    assert a.lemmas == b.lemmas == ("student", "write", "essay")
    assert a.language == "en"


def test_ukrainian_lemmas():
    a = canonize("Студенти читали книжки і газети")
    b = canonize("студент читав книжку і газету")
    assert a.language == b.language == "uk"
    assert a.lemmas == b.lemmas == ("студент", "читати", "книжка", "газета")


@pytest.mark.parametrize(
    ("text", "warning", "count"),
    [
        ("Kнига", "Latin letter that looks like Cyrillic", "lookalike_letters"),
        ("кни\u200bга", "invisible character", "invisible_chars"),
        ("кни\u00adга", "invisible character", "invisible_chars"),
        ("кни\u2060га", "invisible character", "invisible_chars"),
        # default-ignorable marks, drawn as nothing: variation selectors, Khmer's inherent vowel
        ("кни\ufe0fга", "invisible character", "invisible_chars"),
        ("кни\ufe00га", "invisible character", "invisible_chars"),
        ("кни\U000e0100га", "invisible character", "invisible_chars"),
        ("кни\u17b4га", "invisible character", "invisible_chars"),
        ("кни\u180bга", "invisible character", "invisible_chars"),
        ("кни\u034fга", "invisible character", "invisible_chars"),
        ("кни\u2065га", "invisible character", "invisible_chars"),  # unassigned, kept ignorable
        ("кни-\nга", None, "hyphen_joins"),
        ("кни-\r\nга", None, "hyphen_joins"),
        ("кни\u2010 \n  га", None, "hyphen_joins"),
        ("кни\u00ad\nга", None, "hyphen_joins"),
    ],
)
def test_tricks_are_undone(text, warning, count):
    tokens = canonize(text)
    assert tokens.lemmas == ("книга",)
    assert words(tokens) == [text]
    assert getattr(tokens, count) == 1
    if warning is None:
        assert tokens.warnings == ()
    else:
        assert len(tokens.warnings) == 1 and warning in str(tokens.warnings[0])


def test_plain_text_has_no_warnings():
    tokens = canonize("Обычный текст без всяких фокусов.\nВторая строка, обычная.")
    assert tokens.warnings == ()
    assert (tokens.lookalike_letters, tokens.invisible_chars, tokens.hyphen_joins) == (0, 0, 0)


def test_lookalikes_are_counted_per_letter_and_occurrence():
    text = "Kнигa и cтoл. Kнигa снова."  # K, a; c, o; K, a
    tokens = canonize(text)
    assert tokens.lemmas == ("книга", "стол", "книга", "снова")
    assert tokens.lookalike_letters == 6
    assert tuple(map(str, tokens.warnings)) == ("6 Latin letters that look like Cyrillic inside Russian words",)
    assert tokens.warnings[0].code == "warning.lookalike_latin" and tokens.warnings[0].kw["n"] == 6


def test_cyrillic_lookalikes_in_english_words():
    tokens = canonize("The р\u0430per is on the t\u0430ble")  # Cyrillic р, а, а
    assert tokens.lemmas == ("paper", "table")
    assert tokens.lookalike_letters == 3
    assert "Cyrillic letters that look like Latin" in str(tokens.warnings[0])


def test_hyphen_not_at_line_end_splits_words():
    assert canonize("северо-западный ветер").lemmas == ("северо", "западный", "ветер")


def test_yo_is_e():
    assert canonize("Ёжик ещё пришёл").lemmas == canonize("Ежик еще пришел").lemmas == ("ежик", "прийти")


def test_nfkc_per_token_keeps_offsets():
    text = "ﬁrst ｗｏｒｄ"  # ligature fi, full-width letters
    tokens = canonize(text, drop_stop_words=False)
    assert tokens.lemmas == ("first", "word")
    assert words(tokens) == ["ﬁrst", "ｗｏｒｄ"]


def test_combining_marks_stay_in_the_word():
    text = "за\u0301мок и\u0306од"  # stress mark; й written as и + breve
    tokens = canonize(text)
    assert words(tokens) == ["за\u0301мок", "и\u0306од"]
    assert tokens.lemmas == ("замок", "йод")


def test_digits_and_punctuation_are_not_words():
    tokens = canonize("В 2024 году -- 15% студентов (!) сдали 3D-модели.")
    assert tokens.lemmas == ("год", "студент", "сдать", "модель")
    assert tokens.word_count == 6  # В, году, студентов, сдали, D, модели


def test_stop_words_from_seed_003_are_dropped():
    seed = "это как так в на над к ко до за то с со для о ну же ж что он она б бы ли и у"
    assert canonize(seed).lemmas == ()
    kept = canonize(seed, drop_stop_words=False)
    assert len(kept) == kept.word_count == len(seed.split())


def test_stop_words_by_lemma_and_english():
    assert canonize("Его мною ими").lemmas == ()
    assert canonize("She would have been there, and they could not").lemmas == ()
    assert canonize("Вони були б там, але ми ні").lemmas == ("бути",)


def test_drop_adjectives():
    text = "Красивая девушка читала интересную книгу"
    assert canonize(text).lemmas == ("красивый", "девушка", "читать", "интересный", "книга")
    assert canonize(text, drop_adjectives=True).lemmas == ("девушка", "читать", "книга")


def test_hashes_follow_lemmas():
    tokens = canonize("Студенты написали работы, стали работать")
    assert tokens.hashes.dtype == np.uint64 and tokens.word_hashes.dtype == np.uint64
    assert tokens.hashes.tolist() == [hash_text(x) for x in tokens.lemmas]


def test_word_hash_sums_every_possible_lemma():
    tokens = canonize("стали qwertyuiop")
    steel = (hash_text("стать") + hash_text("сталь")) % 2**64
    assert tokens.word_hashes.tolist() == [steel, hash_text("qwertyuiop")]
    # order and form do not matter: the sum over a sentence is the same
    a, b = canonize("Студенты написали работы"), canonize("работу написал студент")
    assert int(a.word_hashes.sum()) == int(b.word_hashes.sum())


@pytest.mark.parametrize(
    ("text", "language"),
    [
        ("Мама мыла раму", "ru"),
        ("Мама мила раму, і це добре", "uk"),
        ("The cat sat on the mat", "en"),
        ("Мама мыла раму and the cat sat on the mat", "mixed"),
        ("12345 !!! ---", "unknown"),
        ("", "unknown"),
        ("日本語のテキストです", "unknown"),
    ],
)
def test_language_guess(text, language):
    assert canonize(text).language == language


def sentences(tokens: Tokens) -> list[str]:
    return [tokens.text[a:b] for a, b in tokens.sentence_spans.tolist()]


def test_sentence_splitting():
    text = (
        "А. С. Пушкин родился в 1799 г. в Москве. Он писал стихи, т. е. поэзию, прозу и т.д. "
        "и т. п.! Почему? «Потому…» — сказал он. — Так!\n\nНовый абзац без точки\n\n"
        "Mr. Smith arrived, e.g. on time. He left."
    )
    tokens = canonize(text)
    assert sentences(tokens) == [
        "А. С. Пушкин родился в 1799 г. в Москве.",
        "Он писал стихи, т. е. поэзию, прозу и т.д. и т. п.!",
        "Почему?",
        "«Потому…» — сказал он.",
        "— Так!",
        "Новый абзац без точки",
        "Mr. Smith arrived, e.g. on time.",
        "He left.",
    ]
    assert tokens.sentence_ids.dtype == np.int32
    for i, (a, b) in zip(tokens.sentence_ids.tolist(), zip(tokens.starts.tolist(), tokens.ends.tolist())):
        s, e = tokens.sentence_spans[i]
        assert s <= a < b <= e


def test_sentences_without_kept_tokens_still_count():
    tokens = canonize("Он и она. Студент пишет.")
    assert sentences(tokens) == ["Он и она.", "Студент пишет."]
    assert tokens.sentence_ids.tolist() == [1, 1]


def test_empty_text():
    tokens = canonize("")
    assert len(tokens) == 0 and tokens.word_count == 0
    assert tokens.sentence_spans.shape == (0, 2)
    assert tokens.starts.dtype == np.int64 and tokens.hashes.dtype == np.uint64


# --- never raises, spans always slice the word -----------------------------------------------

_pieces = st.sampled_from(
    [
        "кни", "га", "Kн", "a", "Ё", "ї", "straße", "ﬁ", "ｗ", "日本", "مرحبا", "שלום", "Ω",
        "\u200b", "\u200c", "\u200d", "\u2060", "\ufeff", "\u00ad", "\u202e", "\u0301", "\u0306",
        "-", "\u2010", "\n", "\r\n", "\r", " ", "\t", ". ", "! ", "? ", "… ", "«", "»", "—",
        "т. е.", "г.", "Mr.", "А. ", "\n\n", "\u2029", "123", "😀", "\ud800", "\udfff", "İ", "_",
    ]
)  # fmt: skip
_texts = st.one_of(
    st.text(),
    st.lists(st.one_of(_pieces, st.text(max_size=3)), max_size=40).map("".join),
)


@settings(max_examples=400, deadline=None)
@given(_texts)
def test_spans_slice_the_original_word(text):
    tokens = canonize(text, drop_stop_words=False)
    n = len(tokens)
    assert n == tokens.word_count
    assert tokens.starts.shape == tokens.ends.shape == tokens.hashes.shape == (n,)
    assert tokens.word_hashes.shape == tokens.sentence_ids.shape == (n,)
    previous_end = 0
    for i, (a, b) in enumerate(zip(tokens.starts.tolist(), tokens.ends.tolist())):
        assert previous_end <= a < b <= len(text)
        previous_end = b
        word = text[a:b]
        assert word[0].isalpha() and word[-1].isalpha() or unicodedata_mark(word[-1])
        assert tokens.hashes[i] == hash_text(tokens.lemmas[i])
        # the slice alone is exactly one word with the same lemma
        again = canonize(word, drop_stop_words=False)
        assert again.word_count == 1
        assert again.starts.tolist() == [0] and again.ends.tolist() == [len(word)]
        s, e = tokens.sentence_spans[tokens.sentence_ids[i]]
        assert s <= a and b <= e
    spans = tokens.sentence_spans.tolist()
    assert all(0 <= s < e <= len(text) for s, e in spans)
    assert all(e1 <= s2 for (_, e1), (s2, _) in zip(spans, spans[1:]))
    assert tokens.language in {"ru", "uk", "en", "mixed", "unknown"}


def unicodedata_mark(ch: str) -> bool:
    import unicodedata

    return unicodedata.category(ch)[0] == "M"


@settings(max_examples=200, deadline=None)
@given(_texts)
def test_dropping_is_a_subset(text):
    every = canonize(text, drop_stop_words=False)
    kept = canonize(text, drop_adjectives=True)
    assert set(zip(kept.starts.tolist(), kept.lemmas)) <= set(zip(every.starts.tolist(), every.lemmas))
    assert kept.word_count == every.word_count


def test_ukrainian_letters_choose_the_dictionary_per_word():
    # a Russian document quoting a Ukrainian word: "їжаки" has ї, so it is read as Ukrainian
    tokens = canonize("Мы с сыном читали в этой книге про їжаків")
    assert tokens.language == "ru"
    assert tokens.lemmas == ("сын", "читать", "книга", "їжак")


def test_the_same_form_is_read_by_the_document_language():
    ru = canonize("Студенты читали роботы и книги")
    uk = canonize("Студенти читали роботи і книжки")
    assert ru.language == "ru" and uk.language == "uk"
    assert ru.lemmas[1] == "читать" and uk.lemmas[1] == "читати"


def test_stop_words_keep_their_sentence_and_word_count():
    tokens = canonize("И он, и она. Книга")
    assert tokens.word_count == 5 and tokens.lemmas == ("книга",)
    assert tokens.sentence_ids.tolist() == [1]


def test_numbers_inside_words_are_not_letters():
    text = "x² площадь м² и Ⅻ век"
    tokens = canonize(text, drop_stop_words=False)
    assert words(tokens) == ["x", "площадь", "м", "и", "век"]


def test_threads_get_the_same_tokens():
    from concurrent.futures import ThreadPoolExecutor

    texts = [f"Текст номер {i}: студенты{i % 7 * 'а'} писали работы{'ы' * (i % 5)}. Kнига{i}" for i in range(200)]
    with ThreadPoolExecutor(4) as pool:
        parallel = list(pool.map(canonize, texts))
    for text, tokens in zip(texts, parallel):
        again = canonize(text)
        assert tokens.lemmas == again.lemmas
        assert tokens.hashes.tolist() == again.hashes.tolist()
        assert tokens.word_hashes.tolist() == again.word_hashes.tolist()
        assert tokens.lookalike_letters == again.lookalike_letters == 1


def test_arrays_have_the_contract_types():
    tokens = canonize("Студенты написали работы. Второе предложение", drop_stop_words=False)
    assert tokens.starts.dtype == tokens.ends.dtype == np.int64
    assert tokens.hashes.dtype == tokens.word_hashes.dtype == np.uint64
    assert tokens.sentence_ids.dtype == np.int32 and tokens.sentence_spans.dtype == np.int64
    assert tokens.starts.flags.c_contiguous and tokens.ends.flags.c_contiguous


def test_unicode_classes_are_kept_and_a_damaged_copy_is_ignored(tmp_path, monkeypatch):
    import json

    from sverka.core import text

    monkeypatch.setenv("SVERKA_CACHE_DIR", str(tmp_path))
    truth = text._unicode_classes()
    assert text._unicode_classes_kept() == truth  # computed, then kept
    (kept,) = tmp_path.glob("unicode-classes-*.json")
    assert json.loads(kept.read_text(encoding="utf-8"))[:3] == list(truth)
    assert text._unicode_classes_kept() == truth  # read back
    damaged = json.loads(kept.read_text(encoding="utf-8"))
    damaged[1] = "[a-z]"  # a class changed without its checksum
    kept.write_text(json.dumps(damaged), encoding="utf-8")
    assert text._unicode_classes_kept() == truth
    kept.write_text("{not json", encoding="utf-8")
    assert text._unicode_classes_kept() == truth


def test_the_marks_of_each_language_are_found_as_the_plain_patterns_find_them():
    """The reading mode counts і ї є ґ and Latin i's written beside Cyrillic letters (a
    Ukrainian і typed in Latin) against ы э ъ ё; numpy finds them where these patterns do."""
    import random

    from sverka.core.text import _marks

    uk = re.compile("[іїєґІЇЄҐ]|(?<=[а-яґєіїА-ЯҐЄІЇ])[iIïÏ]|[iIïÏ](?=[а-яґєіїА-ЯҐЄІЇ])")
    ru = re.compile("[ыэъёЫЭЪЁ]")
    rnd = random.Random(3)
    for _ in range(5000):
        s = "".join(rnd.choice("аяіїЇIiïÏxZ ёЫэъєґ\nЁ😀\u0500ԁ") for _ in range(rnd.randint(0, 14)))
        uk_at, ru_at = _marks(s)
        assert uk_at.tolist() == [m.start() for m in uk.finditer(s)], s
        assert ru_at.tolist() == [m.start() for m in ru.finditer(s)], s


@settings(max_examples=300, deadline=None)
@given(_texts, st.lists(st.tuples(st.integers(0, 10_000), st.integers(0, 10_000)), max_size=4))
def test_words_within_ranges_count_as_word_starts_does(text, picks):
    # ranges starting at a word's start (as a passage's pieces do), ending anywhere after it
    starts = word_starts(text)
    if len(starts) == 0:
        assert words_within(text, [(0, len(text))]) == 0
        return
    ranges = []
    for k, extra in picks:
        s = int(starts[k % len(starts)])
        ranges.append((s, min(len(text), s + 1 + extra % (len(text) - s))))
    ranges = merge_ranges(ranges)
    assert words_within(text, ranges) == words_in(starts, ranges)


def test_each_sentence_of_a_text_in_both_languages_reads_by_its_own_marks():
    """Russian and Ukrainian in one text: a sentence with two or more marks of one language
    (і ї є ґ / ы э ъ ё) and more of them than of the other reads in it; a sentence with one
    mark (a Ukrainian name in Russian prose) or none keeps the text's reading."""
    from sverka.core.text import _reading

    ru = "Студенты написали курсовые работы и сдали их преподавателю в последний день семестра."
    uk = "Викладач уважно прочитав кожну роботу та знайшов у деяких однакові абзаци з підручника."
    assert _reading(uk + " " + ru + " " + uk) == ("uk", True)
    alone, inside = canonize(ru), canonize(uk + " " + ru + " " + uk)
    n = len(canonize(uk).lemmas)
    assert inside.lemmas[n:n + len(alone.lemmas)] == alone.lemmas
    assert inside.hashes[n:n + len(alone.hashes)].tolist() == alone.hashes.tolist()
    # the other way round: a Ukrainian sentence in Russian prose reads as Ukrainian
    t = canonize(ru + " " + uk + " " + ru)
    assert t.lemmas[len(alone.lemmas):len(alone.lemmas) + n] == canonize(uk).lemmas
    # one mark is not enough to change a sentence's reading
    kyiv = canonize("Он поехал в Київ. " + ru)
    assert kyiv.lemmas[0] == canonize("Он поехал в Киев.").lemmas[0]


# The sentence rule as first written (one match object per cut): the oracle for the split.
_CUT_AS_FIRST_WRITTEN = re.compile(
    r"[.!?…\n\u2029](?:"
    rf"(?:(?<=[!?…])[.!?…]*|(?<=\.)(?:[.!?…]+|{split_oracle._not_after_abbreviation()}))[\"'»”’)\]]*"
    rf"(?P<end>)\s++(?=[\"'«„“(\[—–-]?\s*[{split_oracle._CAPITAL}])"
    r"|(?<=\n)[^\S\n\u2029]*\n\s*|(?<=\u2029)\s*)"
)


def _cuts_as_first_written(s: str) -> tuple[list[int], list[int]]:
    ends, starts = [], [re.match(r"\s*", s).end()]
    for m in _CUT_AS_FIRST_WRITTEN.finditer(s):
        end = m.start("end")
        if end < 0:
            end = m.start()
            while end and s[end - 1].isspace():
                end -= 1
        ends.append(end)
        starts.append(m.end())
    ends.append(len(s.rstrip()))
    return starts, ends


_SENTENCE_BITS = st.sampled_from([
    "Он", "пришёл", "т", "г", "e", "Mr", "гг", "напр", "А", "Б", "The", "x", "ёж", "1999",
    ".", "!", "?", "…", "...", "?!", ".»", ".\"", ")", "«", "—", "-", "(", " ", "  ", "\t", "\n", "\n\n",
    " \n \n", "\u2029", "\r\n", "\u00a0",
])


@settings(max_examples=500, deadline=None)
@given(st.lists(_SENTENCE_BITS, max_size=40).map("".join))
def test_sentences_are_cut_where_the_rule_as_first_written_cuts(s):
    starts, ends = _cuts_as_first_written(s)
    ws = word_starts(s)
    sentence_of_word, spans = _tx._sentences(s, ws)
    piece = np.searchsorted(np.asarray(starts), ws, side="right") - 1
    want = sorted({(starts[k], ends[k]) for k in piece.tolist()})
    assert spans.tolist() == [list(x) for x in want]
    assert sentence_of_word.tolist() == [want.index((starts[k], ends[k])) for k in piece.tolist()]


_ALPHABET = "абвгдеёжзийклмнопрстуфхцчшщъыьэюяАБВГДЕЁЖЗИЙКЛМНОПРСТУФХЦЧШЩЪЫЬЭЮЯ"
# the old spelling's endings and prefixes, hushing consonants before о, a final ъ: every branch of today's form
_PIECES = ["аго", "яго", "ыя", "ия", "без", "раз", "из", "чрез", "жо", "чо", "шо", "що", "ъ", "Ъ", "ё", "Ё", "итти", "оне"]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.one_of(st.sampled_from(list(_ALPHABET)), st.sampled_from(_PIECES)), min_size=1, max_size=8),
       st.sampled_from(["ru", "uk", "ru-old"]))
def test_a_word_of_the_russian_alphabet_is_normalised_as_any_word(pieces, mode):
    """The short way of a word of the Russian alphabet alone gives what the whole
    normalisation gives (form, script, tampering, language, same in every mode)."""
    raw = "".join(pieces)
    assert _tx._plain_russian.fullmatch(raw)
    assert _tx._normalise(raw, mode) == _tx._normalise_any(raw, mode)


def test_the_words_of_russian_texts_are_normalised_as_any_word(ruslit):
    words = set()
    for f in sorted(ruslit.rglob("*.txt"))[::7]:
        words.update(re.findall(r"[^\W\d_]+", f.read_text(encoding="utf-8", errors="replace")[:200_000]))
    plain = [w for w in words if _tx._plain_russian.fullmatch(w)]
    assert len(plain) > 10_000 and len(plain) < len(words)
    for mode in ("ru", "uk", "ru-old"):
        for w in plain:
            assert _tx._normalise(w, mode) == _tx._normalise_any(w, mode), (w, mode)
    for w in words - set(plain):  # the others take the whole way
        assert _tx._normalise(w, "ru") == _tx._normalise_any(w, "ru")


@settings(max_examples=200, deadline=None, derandomize=True)
@given(st.lists(st.integers(0, 300), unique=True), st.lists(st.integers(0, 320), max_size=12, unique=True))
def test_words_in_counts_the_starts_inside_the_intervals(starts, cuts):
    cuts = sorted(cuts)
    intervals = list(zip(cuts[0::2], cuts[1::2]))  # disjoint, in order
    want = sum(1 for x in starts for s, e in intervals if s <= x < e)
    assert _tx.words_in(np.array(sorted(starts), np.int64), intervals) == want
    assert _tx.words_in(np.array(sorted(starts), np.int64), iter(intervals)) == want
