"""Exclusions applied to a finished result: quotes, bibliography, short passages,
excluded sources, templates; scores recomputed without searching again."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sverka.core.exclusions import apply_exclusions, find_bibliography, find_quotes
from sverka.core.intervals import merge, subtract, total
from sverka.core.results import CheckResult, Passage, SourceMatch, SuspectInfo
from sverka.core.settings import Settings
from sverka.core.text import word_starts


def test_interval_arithmetic():
    assert merge([(5, 8), (0, 2), (1, 3), (8, 9), (4, 4)]) == [(0, 3), (5, 9)]
    assert subtract([(0, 10), (20, 30)], [(2, 4), (8, 22)]) == [(0, 2), (4, 8), (22, 30)]
    assert total([(0, 3), (5, 9)]) == 7


@pytest.mark.parametrize(
    "text, quoted",
    [
        ("Он сказал: «Это важно» и ушёл.", ["«Это важно»"]),
        ("«Внешняя „внутренняя“ цитата» конец", ["«Внешняя „внутренняя“ цитата»"]),
        ("Немецкие „кавычки“ тоже.", ["„кавычки“"]),
        ("English “curly quotes” here.", ["“curly quotes”"]),
        ('He said "yes", then "no".', ['"yes"', '"no"']),
        ('A 5" screen and "real quote".', ['"real quote"']),
        ("It's Tom's book, isn't it.", []),
        ("Открыта «и не закрыта\n\nследующий абзац» тут", []),
    ],
)
def test_find_quotes(text, quoted):
    assert [text[s:e] for s, e in find_quotes(text)] == quoted


@pytest.mark.parametrize(
    "heading", ["Список литературы", "СПИСОК ИСПОЛЬЗОВАННЫХ ИСТОЧНИКОВ", "Библиографический список",
                "Литература:", "References", "Bibliography", "Works Cited", "5. Список литературы"],
)
def test_bibliography_from_heading_to_appendix(heading):
    body = "Введение.\nТекст работы, где слово литература встречается в строке.\n"
    bib = f"{heading}\n1. Иванов И. И. Книга. М., 2001.\n2. Smith J. Paper. 2010.\n\n"
    text = body + bib + "Приложение А\nТаблица 1."
    s, e = find_bibliography(text)
    assert text[s:e] == bib


def test_bibliography_to_the_end_and_absent():
    text = "Текст.\nReferences\n[1] A. Author, Title, 2001."
    s, e = find_bibliography(text)
    assert text[s:e] == "References\n[1] A. Author, Title, 2001."
    assert find_bibliography("Литература XIX века была богатой.\nИ всё.") is None


def _source(title, passages, *, template=False, path=None, sha="0" * 64):
    return SourceMatch(
        source_id=1, path=path, title=title, text="", sha256=sha, containment=0.0, resemblance=0.5,
        sentence_score=0.0, passages=tuple(passages), is_template=template,
    )


def _result(text, sources):
    info = SuspectInfo(None, "s", len(text), 0, "ru", (), "")
    return CheckResult(info, text, tuple(sources), 0.0, 100.0)


TEXT = (
    "Первый абзац списан полностью из источника. "  # 0..44
    "«Цитата из источника в кавычках» "  # 44..78
    "ещё немного списанного. "
    "\nСписок литературы\n1. Книга.\n"
)


def test_scores_and_marks():
    q0 = TEXT.index("«")
    q1 = TEXT.index("»") + 1
    b0 = TEXT.index("Список")
    p_main = Passage(0, 43, 0, 43, 10, "exact")
    p_quote = Passage(q0 + 1, q1 - 1, 0, 10, 9, "exact")
    p_short = Passage(q1, q1 + 10, 0, 10, 3, "exact")
    p_bib = Passage(b0 + 20, len(TEXT) - 1, 0, 5, 9, "exact")
    r = apply_exclusions(_result(TEXT, [_source("A", [p_main, p_quote, p_short, p_bib])]), Settings())
    (src,) = r.sources
    assert [p.excluded for p in src.passages] == [None, "quote", "short", "bibliography"]
    # shares are shares of words: 6 of the text's 17 words borrowed; the 5 quoted words and
    # the one word of the bibliography that match the source are cited
    assert len(word_starts(TEXT)) == 17
    assert src.containment == pytest.approx(6 / 17)
    assert r.borrowed_percent == pytest.approx(100 * 6 / 17, abs=1e-3)
    assert r.cited_percent == pytest.approx(100 * 6 / 17, abs=1e-3)
    assert r.borrowed_percent + r.cited_percent + r.original_percent == pytest.approx(100)
    kinds = [(s.kind, TEXT[s.start : s.end]) for s in r.marked]
    assert ("quote", "«Цитата из источника в кавычках»") in kinds
    assert any(k == "bibliography" and t.startswith("Список литературы") for k, t in kinds)
    # the same result under other settings, without searching again
    r2 = apply_exclusions(r, Settings(exclude_quotes=False, exclude_bibliography=False, min_passage_words=3))
    assert [p.excluded for p in r2.sources[0].passages] == [None, None, None, None]
    assert r2.borrowed_percent > r.borrowed_percent
    assert apply_exclusions(r2, Settings()) == r


def test_excluded_source_and_template():
    p = Passage(0, 43, 0, 43, 10, "exact")
    a = _source("A", [p], path="/a.txt")
    t = _source("Task", [Passage(0, 20, 0, 20, 5, "exact")], template=True)
    b = _source("B", [Passage(0, 30, 0, 30, 9, "exact"), Passage(44, 60, 0, 16, 9, "exact")], sha="b" * 64)
    r = apply_exclusions(_result(TEXT, [a, t, b]), Settings(excluded_sources=("/a.txt",), exclude_quotes=False))
    by = {s.title: s for s in r.sources}
    assert [q.excluded for q in by["A"].passages] == ["source"]
    assert by["A"].containment == 0.0
    assert [q.excluded for q in by["Task"].passages] == ["template"] and by["Task"].is_template
    # B's first passage lies mostly in the template's region: not counted either
    assert [q.excluded for q in by["B"].passages] == ["template", None]
    assert r.borrowed_percent == pytest.approx(100 * 3 / 17, abs=1e-3)  # «Цитата из источника
    assert r.sources[0].title == "B"


def test_minimum_passage_length_counts_matched_words_not_bridged_ones():
    # 12 words from first to last, but 6 of them were bridged edits: 6 matched
    bridged = Passage(0, 43, 0, 43, 12, "bridged", matched=6)
    start = TEXT.index("ещё")
    exact = Passage(start, start + 23, 50, 73, 8, "exact", matched=8)
    r = apply_exclusions(_result(TEXT, [_source("A", [bridged, exact])]), Settings(min_passage_words=8))
    assert [p.excluded for p in r.sources[0].passages] == ["short", None]
    r = apply_exclusions(r, Settings(min_passage_words=6))
    assert [p.excluded for p in r.sources[0].passages] == [None, None]
    assert Passage(0, 1, 0, 1, 5, "exact").matched_words == 5  # without a count, every word matched


def test_every_letter_re_folds_otherwise_than_lower_is_listed():
    """The bibliography's fast path trusts ``str.lower`` except for the characters listed:
    over all of Unicode, any other that re.IGNORECASE takes for a letter of a heading word
    lowers to that letter."""
    import re

    from sverka.core import exclusions as ex

    letters = sorted(set("".join(ex._BIB_WORDS)))
    any_letter = re.compile("[" + "".join(map(re.escape, letters)) + "]", re.IGNORECASE)
    for x in range(0x110000):
        ch = chr(x)
        if any_letter.fullmatch(ch) and ch not in ex._FOLDED_OTHERWISE:
            assert all(ch.lower() == c for c in letters if re.fullmatch(re.escape(c), ch, re.IGNORECASE)), hex(x)


_HEADING_PIECES = ("Литература", "СПИСОК ИСТОЧНИКОВ", "references", "Works Cited", "джерела", "ſources",
                   "Лиᲃература", "lıterature", "İnternet sources", "истоᲀник", "Bibliography:", "1. Литература",
                   "текст", "слово", "é", "«", "—", " ", "  ", "\n", "\n\n", "\t", "x" * 70, "ж" * 130)


@given(st.lists(st.sampled_from(_HEADING_PIECES), max_size=40))
@settings(max_examples=300, deadline=None)
def test_bibliography_candidates_are_those_of_the_pattern(pieces):
    from sverka.core import exclusions as ex

    text = "".join(pieces)
    expected = [(m.start(), m.group()) for m in ex._BIB_CANDIDATE.finditer(text)]
    assert list(ex._bib_candidates(text)) == expected


def test_a_passage_by_meaning_counts_from_half_the_shortest_passage():
    text = "Законопроект о реформе РАН поступил в Госдуму. Кошки спят."
    headline = Passage(0, 46, 0, 44, 7, "meaning", kind="meaning")
    exact = Passage(0, 46, 0, 44, 7, "exact")
    r = apply_exclusions(_result(text, [_source("A", [headline])]), Settings())
    assert r.sources[0].passages[0].excluded is None and r.borrowed_percent > 0
    assert apply_exclusions(_result(text, [_source("A", [exact])]), Settings()).sources[0].passages[0].excluded == "short"
    three = Passage(47, 58, 0, 10, 2, "meaning", kind="meaning")
    assert apply_exclusions(_result(text, [_source("A", [three])]), Settings()).sources[0].passages[0].excluded == "short"
    # a larger minimum raises it for the meaning layer too
    r = apply_exclusions(_result(text, [_source("A", [headline])]), Settings(min_passage_words=16))
    assert r.sources[0].passages[0].excluded == "short"
