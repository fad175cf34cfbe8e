"""canonize, whose table of seen forms, index of raw forms and assembly of the tokens are the
engine's, against canonization word by word as the Python code did it (tests/core/canon_oracle.py).

Differential tests: random texts full of what makes words and sentences subtle (look-alike
letters, invisible characters, line-end hyphens, numbers, marks of Ukrainian and Russian in
one text, the old spelling, abbreviations, characters beyond the BMP), canonized once and
again (the second time every form is seen), with every choice of what to drop; and real texts
of ../shared/data/ruslit after random edits (skipped when the corpus is absent), long enough
to be scanned by the engine rather than split by the regular expression.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import canon_oracle as oracle
from sverka.core import text as tx
from test_engine_split import _BITS, _ruslit_texts
from test_scan import ALPHABET

_WORDS = ["Он", "пришёл", "домъ", "лѣсъ", "міръ", "Київ", "їжак", "є", "ґанок", "ы", "эх", "Kнига", "вοда", "xoрошо",
          "кни-\nга", "сло\u200bво", "с\u00adлово", "x²", "Ⅻвек", "добраго", "разсказъ", "чорт", "the", "and", "Mr.",
          "гг.", "А.", "я.", "красивый", "большая", "и", "в", "не", "Студенты", "написали", "курсовые", "роботу",
          "викладач", "уважно", "прочитав", "кожну", "ї", "ЁЖ", "Ёлка", "сказал"]


def agree(text: str) -> None:
    for drop_stop_words, drop_adjectives in ((True, False), (False, False), (True, True), (False, True)):
        want = oracle.canonize(text, drop_stop_words=drop_stop_words, drop_adjectives=drop_adjectives)
        for _ in range(2):  # forms new to the process, then seen
            got = oracle.as_oracle(tx.canonize(text, drop_stop_words=drop_stop_words, drop_adjectives=drop_adjectives))
            assert got == want, text


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(st.sampled_from(_WORDS), st.sampled_from(_BITS), st.sampled_from(ALPHABET)),
                max_size=60).map("".join))
def test_random_texts(text):
    agree(text)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(_WORDS + [" ", " ", ". ", "\n", ", "]), min_size=340, max_size=600).map(" ".join))
def test_random_texts_long_enough_to_be_scanned(text):
    assert len(text) >= tx._SCAN_FROM
    agree(text)


@pytest.mark.parametrize("text", [
    "", " ", "ы", "Он пришёл домой. Она ушла!", "кни-\nга Kнига вοда", "x² Ⅻвек",
    "Студенты написали курсовые. Викладач уважно прочитав кожну роботу та знайшов їх. Студенты сдали.",
    "Въ домѣ міръ. " * 80, "Mr. Smith and the cat. " * 60, "😀 слово \ud800 слово",
])
def test_by_hand(text):
    agree(text)


_TEXTS: list[str] = []


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10**9))
def test_real_texts_after_random_edits(ruslit, seed):
    if not _TEXTS:
        _TEXTS.extend(_ruslit_texts(ruslit))
    rnd = random.Random(seed)
    text = rnd.choice(_TEXTS)
    at = rnd.randrange(max(1, len(text) - 6000))
    text = text[at:at + rnd.randrange(1000, 6000)]
    for _ in range(rnd.randrange(8)):
        k = rnd.randrange(len(text) + 1)
        text = text[:k] + rnd.choice(_WORDS + _BITS) + text[k:]
    agree(text)
