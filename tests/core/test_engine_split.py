"""The compiled engine's sentence boundaries and marks of Ukrainian and Russian against the
Python implementation they replaced (tests/core/split_oracle.py).

Differential tests: on random texts full of what makes a sentence's end subtle (abbreviations
in either case, initials, a lower-case "я." ending a sentence, quotes and brackets, ellipses,
numbers, line breaks and blank lines, U+2029, white space of every kind, characters beyond
the BMP), and on real texts of ../shared/data/ruslit after random edits (skipped when the
corpus is absent), the engine cuts the same sentences (same spans, same sentence of every
word) and finds the same marks, and canonize gives the same tokens as with the oracle.
"""

from __future__ import annotations

import random
import re
import unicodedata

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import canon_oracle
import split_oracle as oracle
from sverka.core import scan
from sverka.core import text as tx
from sverka.core.text import ABBREVIATIONS, canonize, word_starts

_BITS = [
    "Он", "пришёл", "сказал", "я", "Я", "т", "е", "г", "д", "e", "g", "i", "Mr", "MR", "mR", "гг", "ГГ", "Гг",
    "напр", "Напр", "т.е", "т.д", "А", "Б", "С", "Пушкин", "The", "x", "ёж", "1999", "2", "²", "Ⅻ", "_",
    "и", "ы", "ї", "є", "ґ", "І", "i", "ï", "Ï", "ъ", "ѣ", "e.g", "vs", "No", "st", "ſt", "K", "İ", "ı",
    "ᲀ", "ᲂ", "Ω", "Ä", "×", "Ґ", "ß", "𝐀", "😀", "\u0301", "\u200b", "\u00ad",
    ".", "!", "?", "…", "...", "?!", "!..", ".»", ".\"", ".”", ".’", ".)", ".]", ")", "]", "«", "„", "“",
    "—", "–", "-", "(", "[", "'", "\"", ",", ";", ":",
    " ", "  ", "\t", "\n", "\n\n", " \n \n", "\n\r\n", "\r\n", "\r\n\r\n", "\u2029", "\u2028", "\u00a0",
    "\u2003", "\u3000", "\x1c", "\x85", "\x0b", "\x0c", "\u200a",
]


def agree(text: str) -> None:
    ws = word_starts(text)
    got_ids, got_spans = tx._sentences(text, ws)
    want_ids, want_spans = oracle.sentences(text, ws)
    assert got_spans.tolist() == want_spans.tolist(), text
    assert got_ids.tolist() == want_ids.tolist(), text
    assert got_ids.dtype == want_ids.dtype == np.int32
    assert got_spans.dtype == want_spans.dtype == np.int64 and got_spans.shape == want_spans.shape
    uk, ru = tx._marks(text)
    want_uk, want_ru = oracle.marks(text)
    assert uk.tolist() == want_uk.tolist() and ru.tolist() == want_ru.tolist(), text
    # every piece between cuts, even those without a word, as the regular expression cuts them
    found = scan.read(text, tx._rules(), False)
    starts, ends = oracle.pieces(text)
    assert found.piece_starts.tolist() == starts.tolist() and found.piece_ends.tolist() == ends.tolist(), text
    # the letters of the old spelling counted for the reading mode, as str.count counts them
    assert found.counts == [text.count(c) for c in tx._COUNTED], text
    assert tx._reading(text) == canon_oracle.reading(text, (want_uk, want_ru)), text


@settings(max_examples=1500, deadline=None)
@given(st.lists(st.sampled_from(_BITS), max_size=50).map("".join))
def test_random_texts(text):
    agree(text)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(_BITS + [w + "." for w in ABBREVIATIONS] + [w.upper() + ". " for w in ABBREVIATIONS]),
                max_size=40).map(" ".join))
def test_random_texts_of_abbreviations(text):
    agree(text)


@pytest.mark.parametrize("text", [
    "", " ", "\n", "Он ушёл. Она осталась.", "– сказал я. Потом ушёл.", "сказал Я. Потом", "А. С. Пушкин. Он",
    "т. е. Это", "т.д. Это", "В 1990 гг. Было", "В 1990 ГГ. Было", "Mr. Smith. And", "e.g. This", "Мир... «Да?» — Нет.",
    "раз\n  \nдва\u2029три", "раз.\nдва", "раз. два", "Конец.»  «Начало", "Да?! (Нет)", "Так… Так", "x.  \u00a0Б",
    "ſt. A", "İ. A", "K. A", "гᲀ. A", "Он. 😀 Б", "😀. Б", "². Б", "_. Б", "5. Б", "я.\u2029Б", "\n\n\n", "Б\r\n\r\nВ",
    "Слово\u2028\u2028Другое", "а\n \r\nБ", "конец.\x1cНачало", "Ω. Б", "ы. Ω", "Он.\ud800 Б", "\udfff. Б",
])
def test_by_hand(text):
    agree(text)


def test_every_white_space_and_capital_as_the_oracle():
    """Each character of Unicode between a full stop and a letter, and each as the letter."""
    chars = [chr(cp) for cp in range(0x110000) if chr(cp).isspace() or unicodedata.category(chr(cp))[0] in "LZ"]
    for c in chars[::7] + [c for c in chars if c.isspace()]:
        agree(f"Он. {c}ушёл. Б{c}. Она{c}ушла")
        agree(f"Он.{c}Б")


def test_case_insensitive_letters_of_abbreviations_as_re():
    """The letters an abbreviation's letter matches regardless of case are re's own."""
    _, pairs = scan._unicode_table()
    letters: dict[int, set[int]] = {}
    for cp, letter in pairs.tolist():
        letters.setdefault(cp, set()).add(letter)
    assert all(len(x) == 1 for x in letters.values()), "a character matching two letters"
    for letter in "тгmsik":
        expected = [m.start() for m in re.finditer(f"(?i:{letter})", scan._every_character())]
        assert sorted(cp for cp, ls in letters.items() if ord(letter) in ls) == expected


def _ruslit_texts(folder) -> list[str]:
    files = sorted(folder.rglob("*.txt"))[::11]
    return [f.read_text("utf-8", "replace")[:30_000] for f in files]


_TEXTS: list[str] = []


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**9), st.lists(st.tuples(st.integers(0, 3), st.integers(0, 10**6), st.integers(0, 60),
                                                 st.sampled_from(_BITS)), max_size=15))
def test_real_texts_after_random_edits(ruslit, seed, edits):
    if not _TEXTS:
        _TEXTS.extend(_ruslit_texts(ruslit))
    text = _TEXTS[seed % len(_TEXTS)]
    start = (seed // 7) % max(1, len(text) - 3000)
    text = text[start:start + 3000 + seed % 5000]
    for kind, at, length, bit in edits:
        at %= max(1, len(text))
        if kind == 0:
            text = text[:at] + text[at + length:]
        elif kind == 1:
            text = text[:at] + text[at:at + length] + text[at:]
        elif kind == 2:
            text = text[:at] + bit + text[at:]
        else:
            text = text[:at] + bit.upper() + ". " + text[at:]
    agree(text)


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10**9))
def test_canonize_gives_the_tokens_the_oracle_gives(ruslit, seed):
    """The whole canonization, its sentence boundaries by the engine and by the oracle."""
    if not _TEXTS:
        _TEXTS.extend(_ruslit_texts(ruslit))
    rnd = random.Random(seed)
    text = rnd.choice(_TEXTS)
    at = rnd.randrange(max(1, len(text) - 4000))
    text = text[at:at + rnd.randrange(200, 4000)]
    for _ in range(rnd.randrange(6)):
        k = rnd.randrange(len(text) + 1)
        text = text[:k] + rnd.choice(_BITS) + text[k:]
    got = canonize(text)
    want_ids, want_spans = oracle.sentences(text, got.word_starts)
    kept = np.isin(got.word_starts, got.starts)
    assert got.sentence_spans.tolist() == want_spans.tolist()
    assert got.sentence_ids.tolist() == want_ids[kept].tolist()
