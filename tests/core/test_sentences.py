"""Sentence hashes, Seq2 and X(A, B) (ALGORITHMS.md §5, seed 002)."""

from __future__ import annotations

import numpy as np
import pytest

from sverka.core.fingerprints import sentence_hashes, sentence_score, seq2, x_measure
from sverka.core.hashing import hash_text

U = np.uint64


def test_x_measure_hand_made():
    a = np.array([1, 2, 2, 3], dtype=U)
    b = np.array([2, 3, 3, 5], dtype=U)
    # V=1: min(1, 0) = 0; V=2: min(2, 1) = 1; V=3: min(1, 2) = 1
    assert x_measure(a, b) == 2
    assert sentence_score(a, b) == pytest.approx(2 / 4)
    # B -> A: V=2: min(1, 2) = 1; V=3: min(2, 1) = 1; V=5: 0
    assert x_measure(b, a) == 2
    assert x_measure(a, a) == 4 and sentence_score(a, a) == 1.0
    assert x_measure(np.empty(0, U), a) == 0 and sentence_score(np.empty(0, U), a) == 0.0


def test_seq1_seq2_by_hand():
    wh = np.array([10, 20, 30, 40, 50], dtype=U)
    ids = np.array([0, 0, 2, 2, 3])  # sentence 1 holds only stop words: skipped
    seq1, index = sentence_hashes(wh, ids, 5)
    assert seq1.tolist() == [30, 70, 50] and seq1.dtype == np.uint64
    assert index.tolist() == [0, 2, 3] and index.dtype == np.int64
    assert seq2(seq1).tolist() == [100, 120, 50]
    assert seq2(np.empty(0, U)).tolist() == []


def test_sums_wrap_modulo_2_64():
    big = np.array([2**64 - 1, 2], dtype=U)
    seq1, _ = sentence_hashes(big, np.array([0, 0]), 1)
    assert seq1.tolist() == [1]
    assert seq2(np.array([2**64 - 1, 1], dtype=U)).tolist() == [0, 1]


def test_unsorted_sentence_ids_and_bad_input():
    seq1, index = sentence_hashes(np.array([1, 2, 4], dtype=U), np.array([1, 0, 1]), 2)
    assert seq1.tolist() == [2, 5] and index.tolist() == [0, 1]
    with pytest.raises(ValueError):
        sentence_hashes(np.array([1], dtype=U), np.array([3]), 2)


def sentences_of(text: str) -> np.ndarray:
    """Seq2 from a hand-split text: sentences on '.', WH = hash of the word (no morphology)."""
    words, ids = [], []
    for i, sentence in enumerate(s for s in text.split(".") if s.strip()):
        for word in sentence.split():
            words.append(hash_text(word.lower()))
            ids.append(i)
    seq1, _ = sentence_hashes(np.array(words, dtype=U), np.array(ids), len(ids) and max(ids) + 1)
    return seq2(seq1)


TEXT = "Кошка поймала мышь. Собака лаяла во дворе. Дети играли в саду. Мама готовила обед. Папа читал газету."


@pytest.mark.parametrize(
    ("edited", "relation"),
    [
        ("Мышь поймала кошка. Во дворе лаяла собака. В саду играли дети. Обед готовила мама. Газету читал папа.", "same"),
        ("Кошка  поймала\nмышь. Собака лаяла во дворе.\n\nДети играли в саду. Мама готовила обед. Папа читал газету.", "same"),
        ("Кошка поймала мышь. Дети играли в саду. Мама готовила обед. Папа читал газету.", "lower"),  # deleted
        ("Собака лаяла во дворе. Кошка поймала мышь. Дети играли в саду. Мама готовила обед. Папа читал газету.", "lower"),
        ("Кошка поймала серую мышь. Собака лаяла во дворе. Дети играли в саду. Мама готовила обед. Папа читал газету.", "lower"),
    ],
)
def test_word_order_does_not_matter_sentence_edits_do(edited, relation):
    a, b = sentences_of(TEXT), sentences_of(edited)
    assert len(a) == 5
    if relation == "same":
        assert x_measure(a, b) == len(a) and sentence_score(a, b) == 1.0
    else:
        assert 0 < x_measure(a, b) < len(a)


# -- with the real canonizer: word forms ----------------------------------------------


CANON_TEXT = (
    "Старый рыбак каждое утро выходил в море на лодке. "
    "Его жена ждала мужа на берегу и чинила сети. "
    "Однажды рыбак поймал золотую рыбку. "
    "Рыбка попросила отпустить её домой. "
    "Старик отпустил рыбку и вернулся в избу."
)

CANON_EDITS = [
    # words reordered inside every sentence
    (
        "Каждое утро старый рыбак выходил на лодке в море. "
        "На берегу его жена ждала мужа и чинила сети. "
        "Золотую рыбку однажды поймал рыбак. "
        "Отпустить её домой попросила рыбка. "
        "Старик рыбку отпустил и в избу вернулся.",
        "same",
    ),
    # other forms of the same words (number, case, tense). Seed 002's WH sums every
    # possible base form, so a form is exchangeable when its set of possible base forms
    # is the same: "старые" and "жене" (also "Женя") are not, and are avoided here.
    (
        "Старый рыбак каждое утро выходит в море на лодках. "
        "Их жёны ждут мужей на берегу и чинят сеть. "
        "Однажды рыбаки поймают золотые рыбки. "
        "Рыбки попросят отпустить их домой. "
        "Старики отпустят рыбок и вернутся в избы.",
        "same",
    ),
    # a sentence deleted
    (
        "Старый рыбак каждое утро выходил в море на лодке. "
        "Однажды рыбак поймал золотую рыбку. "
        "Рыбка попросила отпустить её домой. "
        "Старик отпустил рыбку и вернулся в избу.",
        "lower",
    ),
    # sentences reordered
    (
        "Однажды рыбак поймал золотую рыбку. "
        "Старый рыбак каждое утро выходил в море на лодке. "
        "Его жена ждала мужа на берегу и чинила сети. "
        "Рыбка попросила отпустить её домой. "
        "Старик отпустил рыбку и вернулся в избу.",
        "lower",
    ),
]


def canonical_seq2(text: str) -> np.ndarray:
    from sverka.core.text import canonize

    tokens = canonize(text)
    seq1, _ = sentence_hashes(tokens.word_hashes, tokens.sentence_ids, len(tokens.sentence_spans))
    return seq2(seq1)


@pytest.mark.parametrize(("edited", "relation"), CANON_EDITS)
def test_x_with_canonizer(edited, relation):
    a, b = canonical_seq2(CANON_TEXT), canonical_seq2(edited)
    assert len(a) == 5
    if relation == "same":
        assert np.array_equal(np.sort(a), np.sort(b))
        assert x_measure(a, b) == len(a)
    else:
        assert 0 < x_measure(a, b) < len(a)
