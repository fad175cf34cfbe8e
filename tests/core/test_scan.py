"""The word scan (sverka.core.scan, by the compiled engine) finds exactly the words of the canonizer's regular
expression, or declines; its hashes and hash index answer what the table of raw forms would."""

from __future__ import annotations

import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sverka.core import scan
from sverka.core import text as tx


def regex_bounds(text: str) -> tuple[list[int], list[int]]:
    parts = tx._split_words_exactly(text)
    ends = np.cumsum([len(p) for p in parts])
    return ends[0:-1:2].tolist(), ends[1::2].tolist()


def test_table_agrees_with_the_regular_expressions_on_every_bmp_character():
    table = scan._build_table()
    every = "".join(map(chr, range(0x10000)))
    letter = np.zeros(0x10000, bool)
    letter[[m.start() for m in re.finditer(r"(?:(?!" + tx._NUMBER + r")" + tx._LETTER + ")", every)]] = True
    mark = np.zeros(0x10000, bool)
    mark[[m.start() for m in re.finditer(tx._MARK, every)]] = True
    fmt = np.zeros(0x10000, bool)
    fmt[[m.start() for m in re.finditer(tx._FORMAT, every)]] = True
    assert np.array_equal(table == scan.LETTER, letter)
    assert np.array_equal(table == scan.MARK, mark)
    assert np.array_equal(table == scan.FORMAT, fmt)
    hyphens = set(tx._HYPHENS) - {"\u00ad"}  # the soft hyphen is a format character
    assert {chr(c) for c in np.flatnonzero(table == scan.HYPHEN)} == hyphens
    assert np.array_equal(scan._table(), table)  # as kept in the cache folder


# Characters that make words subtle, and ordinary ones.
ALPHABET = list("абвгдеёжзийклмнопрстуфхцчшщъыьэюяАБВЯіїєґabcxyzABCé  \t\n\r.,!?-—–'\"«»0123456789_") + [
    "\u0301", "\u0300", "\u0483",  # combining marks (a stress mark)
    "\u200b", "\u00ad", "\u2060", "\ufeff",  # format characters
    "\u3164", "\uffa0",  # Hangul fillers: letters drawn as nothing, taken as format characters
    "\ufe0f", "\u17b4", "\u034f", "\ufff0",  # default-ignorable marks and unassigned: taken as format characters
    "\u2010", "\x0b", "\x0c", "\x85", "\u2028", "\u2029",  # a hyphen, line breaks
    "²", "½", "Ⅻ", "٣",  # numbers that \w takes
    "\U0001d400", "\U00010400", "😀", "\U0002070e",  # beyond the BMP: a math letter, Deseret, emoji, CJK
    "\ud800",  # a lone surrogate
    "ο", "Ω", "ա", "中",  # letters of other scripts
]


# Few characters, so that every way a word may go on (or not) across them comes up often.
DENSE = ["а", "Б", "z", "-", "\u2010", " ", "\t", "\n", "\r", "\x85", "\u2028", "\u200b", "\ufeff", "\u00ad",
         "\u0301", "\ufe0f", "1", "²", ".", "😀"]


@settings(max_examples=2000, deadline=None)
@given(st.one_of(st.lists(st.sampled_from(ALPHABET), max_size=80).map("".join),
                 st.lists(st.sampled_from(DENSE), max_size=30).map("".join)))
def test_scan_finds_the_regular_expressions_words_or_declines(text):
    found = scan.bounds(text)
    if found is not None:
        assert (found[0].tolist(), found[1].tolist()) == regex_bounds(text)


@pytest.mark.parametrize("text, declines", [
    ("Кни́га на столе́, кто-то - пришёл.", False),  # stress marks after letters, hyphens
    ("кни-\nга", True), ("кни- \r\n га", True), ("кни-  ", False),  # a line-end hyphen
    ("мгновенье -\nПередо мной", False), ("конец-\n\nНовый", False), ("дом-\n1", False),  # no join
    ("слово-\n\u200bслово", True), ("слово-\n-\nслово", True),
    ("сло\u200bво", True), ("сло\u00adво", True), ("сло\u200b-\nво", True),  # format characters in a word
    ("сло\ufe0fво", True), ("сло\u17b4во", True), ("сло\u0301\ufe00во", True),  # and variation selectors
    ("слово\ufe0f слово", False), ("❤\ufe0f слово", False),  # beside one
    ("Б\ufeff\u00ad\t \nслово", True),  # a soft hyphen ends a line too
    ("\ufeffСлово за словом", False), ("слово\u200b слово \u200bслово", False),  # and beside one
    ("a \u0301b", True),  # a mark after a space
    ("𝐀bc", True), ("ok 😀", True),  # beyond the BMP
    ("x² Ⅻвек", False),  # numbers are not letters here
    ("", False),
])
def test_scan_declines_exactly_what_needs_the_regular_expression(text, declines):
    found = scan.bounds(text)
    assert (found is None) == declines
    if found is not None:
        assert (found[0].tolist(), found[1].tolist()) == regex_bounds(text)


def test_long_texts_give_the_same_words():
    text = "Слово за́ словом, кто-то - где-то: мир.\n" * 4000
    starts, ends, hashes = scan.words(text)
    assert (starts.tolist(), ends.tolist()) == regex_bounds(text)
    words = [text[a:b] for a, b in zip(starts.tolist(), ends.tolist())]
    assert hashes.tolist() == scan.hash_strings(words).tolist()
    assert scan.bounds("ы" * 200_000) is not None  # a long run with no space: one word


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(ALPHABET), max_size=80).map("".join))
def test_a_words_hash_in_a_text_is_its_strings_and_differs_between_words(text):
    found = scan.words(text)
    if found is None:
        return
    starts, ends, hashes = found
    words = [text[a:b] for a, b in zip(starts.tolist(), ends.tolist())]
    assert hashes.tolist() == scan.hash_strings(words).tolist()
    by_hash = {}
    for w, h in zip(words, hashes.tolist()):
        assert h != 0
        assert by_hash.setdefault(h, w) == w


def test_hash_strings_gives_zero_to_what_a_scan_never_hashes():
    h = scan.hash_strings(["слово", "a" * (scan.MAX_HASHED + 1), "x😀", "", "слово"])
    assert h[0] != 0 and h[0] == h[4]
    assert h[1:4].tolist() == [0, 0, 0]
    t = "ы" * (scan.MAX_HASHED + 1) + " ок"
    starts, ends, hashes = scan.words(t)
    assert hashes[0] == 0 and hashes[1] == scan.hash_strings(["ок"])[0]


def test_hash_index_is_a_dict_of_hashes():
    rng = np.random.default_rng(5)
    index = scan.HashIndex()
    model: dict[int, int] = {}
    for round_ in range(30):
        hashes = rng.integers(1, 1 << 63, int(rng.integers(0, 3000)), dtype=np.uint64) | np.uint64(1)
        if model and round_ % 3 == 0:  # some again, with new ids
            again = np.array(list(model)[: 500], dtype=np.uint64)
            hashes = np.concatenate([hashes, again])
        ids = rng.integers(0, 1 << 31, len(hashes))
        index.add(hashes, ids)
        for h, i in zip(hashes.tolist(), ids.tolist()):
            model[h] = i
        absent = rng.integers(1, 1 << 63, 500, dtype=np.uint64) | np.uint64(1)
        probe = np.concatenate([np.array(list(model), dtype=np.uint64), absent, np.zeros(1, np.uint64)])
        want = [model.get(h, -1) for h in probe.tolist()]
        want[-1] = -1
        assert index.get(probe).tolist() == want
    assert len(index) == len(model)


TEXTS = [
    "Маша пошла в лес. Кни́га на столе́! Кто-то пришёл — «Ура», сказал он; x² и Ⅻ век.\n\n" * 30,
    "Садок вишневий коло хати, хрущі над вишнями гудуть. Орачі з плугами йдуть.\n" * 40,
    "Въ домѣ было тихо. Россія, міръ и добраго здоровья всѣмъ; разсказъ конченъ.\n" * 40,
    "The quick brown fox jumps over the lazy dog. Mr. Smith went home, e.g. today.\n" * 40,
    "Текст на русском. Речення українською мовою тут є і ще. Снова по-русски ёлка.\n" * 40,
]


@pytest.mark.parametrize("scan_first", [True, False])
@pytest.mark.parametrize("text", TEXTS)
def test_canonize_gives_the_same_tokens_by_either_way(text, scan_first, monkeypatch):
    monkeypatch.setattr(tx, "_table", tx._Table())  # the second way finds what the first one added
    scan_from = tx._SCAN_FROM
    if scan_first:
        by_scan = tx.canonize(text)
    monkeypatch.setattr(tx, "_SCAN_FROM", 10 ** 9)
    by_regex = tx.canonize(text)
    monkeypatch.setattr(tx, "_SCAN_FROM", scan_from)
    if not scan_first:
        by_scan = tx.canonize(text)
    for field in ("starts", "ends", "hashes", "word_hashes", "sentence_ids", "sentence_spans", "word_starts"):
        assert np.array_equal(getattr(by_scan, field), getattr(by_regex, field)), field
    assert by_scan.lemmas == by_regex.lemmas
    assert (by_scan.word_count, by_scan.language, by_scan.warnings) == \
        (by_regex.word_count, by_regex.language, by_regex.warnings)
    assert scan.bounds(text) is not None  # the scan did read it
