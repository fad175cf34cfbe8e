"""Reports in the user's language: the Russian report has no English words of its own, the
English one no Russian words of its own; the command line's --lang chooses."""

from __future__ import annotations

import dataclasses
import re
from visible_text import Visible

import pytest

from sverka.core import i18n, report
from sverka.core.messages import message
from test_report import _result




def _visible(page: str) -> str:
    p = Visible()
    p.feed(page)
    return "".join(p.parts)  # pieces of the suspect text join up again


def _own_words(result, page: str, alphabet: str) -> set[str]:
    """Words of ``alphabet`` in the page that do not come from the documents themselves."""
    text = _visible(page)
    import os

    user = [result.suspect_text, result.suspect.title, result.suspect.path or ""]
    for src in result.sources:
        user += [src.title, src.path or "", src.text or ""]
    user += [os.path.basename(p) for p in (result.suspect.path, *(s.path for s in result.sources)) if p]
    for piece in sorted(user, key=len, reverse=True):
        if piece:
            text = text.replace(piece, " ")
    words = set(re.findall(alphabet, text))
    # excerpts and the quotation table show slices of the documents, cut anywhere
    words = {w for w in words if not any(w in piece for piece in user)}
    # names and units that are the same in both languages
    return words - NAMES - {w for w in words if re.fullmatch(r"[a-f]+", w)}


#: Names that are the same in both languages (formats, encodings, Unicode, the program).
NAMES = {"SHA", "UTF", "UTC", "MinHash", "Sverka", "NUL", "FFFD", "PDF", "RTF", "Word", "docx", "OpenDocument",
         "hidden", "pdfminer", "six", "PDFium", "txt", "cp"}


def _clean_result():
    """The hand-made result with a warning of every kind the core gives (as codes)."""
    r = _result()
    doc_warnings = (
        message("warning.lookalike_latin", n=3, language="ru"),
        message("warning.lookalike_cyrillic", n=1),
        message("warning.invisible_chars", n=12),
        message("warning.hidden_text", words=21, share=4.5, ways=(("white text", 15), ("hidden formatting", 6))),
        message("warning.format_mismatch", suffix=".txt", format="docx"),
        message("warning.nul_removed", n=2),
        message("warning.surrogates_replaced", n=1),
        message("warning.bytes_replaced", n=5, encoding="cp1251"),
        message("warning.pages_without_text", empty=2, pages=10, shown="3, 7"),
    )
    result_warnings = (message("warning.long_quotation", words=330, limit=40, count=1),
                       message("warning.many_quotations", percent=61.2, limit=25))
    return dataclasses.replace(r, suspect=dataclasses.replace(r.suspect, warnings=doc_warnings),
                               warnings=result_warnings)


def test_russian_report_has_no_english_of_its_own():
    r = _clean_result()
    page = report.render_html(r, lang="ru")
    assert '<html lang="ru">' in page
    left = _own_words(r, page, r"[A-Za-z]{2,}")
    assert not left, left
    for word in ("Заимствования", "Цитирования", "Оригинальность", "Источники", "Настройки проверки",
                 "3 латинские буквы", "белый текст: 15", "1 цитата длиннее 40 слов", "цитаты составляют 61,2 %"):
        assert word in page, word


def test_english_report_has_no_russian_of_its_own():
    r = _clean_result()
    page = report.render_html(r, lang="en")
    assert not _own_words(r, page, r"[А-Яа-яЁё]{2,}")
    assert "Borrowed" in page and "Cited" in page and "Заимствования" not in page
    assert "1 quotation longer than 40 words (the longest: 330 words)" in page
    assert "white text: 15, hidden formatting: 6" in page


def test_the_walk_would_see_english_left_in_a_russian_report():
    r = _clean_result()
    page = report.render_html(r, lang="ru").replace("Итог", "Summary")
    assert "Summary" in _own_words(r, page, r"[A-Za-z]{2,}")


def test_unknown_languages_are_refused():
    with pytest.raises(ValueError):
        report.render_html(_result(), lang="de")
    assert i18n.check_language("ru") == "ru"


def test_default_language_follows_the_locale(monkeypatch):
    for name in ("LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "ru_RU.UTF-8")
    assert i18n.default_language() == "ru"
    monkeypatch.setenv("LC_ALL", "en_US.UTF-8")
    assert i18n.default_language() == "en"


def test_russian_crosscheck_report_has_no_english_of_its_own():
    from sverka.core.results import CrossCheckResult, CrossPair
    from sverka.core.settings import Settings

    fields = {f.name for f in dataclasses.fields(CrossPair)}
    pair = CrossPair(**{k: v for k, v in dict(a="a.txt", b="b.txt", a_in_b=0.5, b_in_a=0.4, resemblance=0.3,
                                              shared_words=12, passages=()).items() if k in fields})
    r = CrossCheckResult(documents=("a.txt", "b.txt"), pairs=(pair,), matrix=((1.0, 0.5), (0.4, 1.0)),
                         failed=(("c.txt", message("error.corrupt", detail="the file is damaged (KeyError: 'x')")),),
                         sha256=("a" * 64, ""), settings=Settings())
    text = _visible(report.render_html(r, lang="ru"))
    for name in ("a.txt", "b.txt", "c.txt"):
        text = text.replace(name, " ")
    assert "файл повреждён или обрезан" in text
    left = set(re.findall(r"[A-Za-z]{2,}", text)) - NAMES
    assert not {w for w in left if not re.fullmatch(r"[a-f]+", w)}, left
