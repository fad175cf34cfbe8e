"""api.compare: two documents directly, spans in both texts, scores, short texts."""

from __future__ import annotations

import pytest

from sverka.core.text import word_starts

from sverka.core import api
from sverka.core.document import Document

SHARED = (
    "Исследование показало, что студенты, регулярно посещающие библиотеку, значительно чаще "
    "получают высокие оценки на экзаменах по всем основным предметам учебной программы."
)


def test_compare_finds_the_shared_passage_in_both_texts():
    a = Document("Введение к работе о привычках учащихся. " + SHARED + " Далее идёт собственный вывод автора.", title="A")
    b = Document("Совсем другое начало статьи про города. " + SHARED + " И совсем другой конец.", title="B")
    r = api.compare(a, b)
    (src,) = r.sources
    assert src.title == "B" and src.source_id is None and src.text == b.text
    (p,) = src.passages
    assert a.text[p.suspect_start : p.suspect_end] == SHARED[:-1]
    assert b.text[p.source_start : p.source_end] == SHARED[:-1]
    assert p.method == "exact" and p.excluded is None
    assert r.borrowed_percent == pytest.approx(100 * len(word_starts(SHARED)) / len(word_starts(a.text)), abs=0.01)
    assert r.original_percent == pytest.approx(100 - r.borrowed_percent)
    assert 0 < src.resemblance < 1 and src.containment == pytest.approx(r.borrowed_percent / 100)


def test_compare_inflected_and_reordered_words():
    a = Document("Начало. " + SHARED + " Конец.")
    edited = SHARED.replace("студенты", "студент").replace("высокие оценки", "высокую оценку")
    b = Document("Другое. " + edited + " Иное.")
    (src,) = api.compare(a, b).sources
    assert sum(p.suspect_end - p.suspect_start for p in src.passages) >= 0.9 * len(SHARED)


def test_compare_unrelated_and_identical():
    a = Document("Кошка спит на тёплом подоконнике весь день, пока хозяева работают в офисе.")
    b = Document("Ракета стартовала с космодрома ранним утром и вышла на расчётную орбиту.")
    r = api.compare(a, b)
    assert r.borrowed_percent == 0.0 and r.sources[0].passages == ()
    same = api.compare(Document(SHARED, title="x"), Document(SHARED, title="y"))
    assert same.exact_duplicate_of == "y"
    assert same.borrowed_percent > 95


def test_compare_empty_texts():
    r = api.compare(Document(""), Document(""))
    assert r.borrowed_percent == 0.0 and r.original_percent == 100.0


def test_compare_cancel():
    token = api.CancelToken()
    token.cancel()
    with pytest.raises(api.Cancelled):
        api.compare(Document(SHARED), Document(SHARED), cancel=token)
