"""Reports in Russian as a teacher reads them: plurals, a decimal comma, local time, shares of
words, no jargon, a class name or a book title in «» is not a citation, sizes in КБ."""

from __future__ import annotations

import re

from sverka.core import api, report
from sverka.core.document import Document
from sverka.core.exclusions import marked_spans
from sverka.core.i18n import format_count, format_percent, format_size, format_time
from sverka.core.settings import Settings

SOURCE = ("Глобальное потепление вызвано прежде всего деятельностью человека: сжиганием угля, нефти "
          "и газа, вырубкой лесов и интенсивным сельским хозяйством. ")
OWN = "Мой дедушка держит пасеку за деревней, и каждое лето я помогаю ему качать мёд. "


def _result(essay: str):
    return api.compare(Document(essay, title="essay"), Document(SOURCE, title="source"))


def test_numbers_words_and_time_in_russian():
    essay = (OWN * 3 + SOURCE)
    essay = essay + "x" * (2133 - len(essay)) if len(essay) < 2133 else essay[:2133]
    r = _result(essay)
    assert r.suspect.chars == 2133
    page = report.render_html(r, lang="ru")
    assert "2\u00a0133 знака" in page and "знаков" not in page.split("Объём")[1][:80]
    percent = format_percent(r.borrowed_percent, "ru")
    assert "," in percent and percent in page and "." not in percent
    assert "UTC" not in page and re.search(r"\d\d\.\d\d\.\d{4} \d\d:\d\d", page)
    assert "шингл" not in page and "Жаккар" not in page
    assert "часть слов" in page and "часть знаков" not in page
    english = report.render_html(r, lang="en")
    assert "2,133 characters" in english and "UTC" not in english


def test_formatters():
    assert format_count(2133, "characters", "ru") == "2\u00a0133 знака"
    assert format_count(11, "words", "ru") == "11 слов" and format_count(21, "words", "ru") == "21 слово"
    assert format_count(1, "words", "en") == "1 word" and format_count(3, "words", "en") == "3 words"
    assert format_percent(50.44, "ru") == "50,4\u00a0%" and format_percent(50.44, "en") == "50.4%"
    assert format_size(1024, "ru") == "1,0 КБ" and format_size(1024, "en") == "1.0 KB"
    assert format_size(500, "ru") == "500 Б" and format_size(3 * 1024 * 1024, "ru") == "3,0 МБ"
    assert format_time("2026-11-27T12:59:00+00:00", "ru").count(".") == 2
    assert "UTC" not in format_time("2026-11-27T12:59:00+00:00", "en")


def test_a_class_name_or_a_book_title_in_quotation_marks_is_not_a_citation():
    text = ("Сидоров Дмитрий, 9 «Б». Я прочитал роман «Война и мир» и рассказ «Старуха Изергиль». "
            "Горький писал: «Жизнь». Герой говорит «Я пойду вперёд и выведу вас из леса к свету солнца» "
            "и уходит. А «Ну и что?» — спросил он.")
    quotes = [text[s.start:s.end] for s in marked_spans(text, Settings()) if s.kind == "quote"]
    assert quotes == ["«Жизнь»", "«Я пойду вперёд и выведу вас из леса к свету солнца»", "«Ну и что?»"]


def test_the_quotation_warning_and_the_cited_share_are_one_figure():
    quote = ("Глобальное потепление вызвано прежде всего деятельностью человека: сжиганием угля, нефти "
             "и газа, вырубкой лесов и интенсивным сельским хозяйством")
    essay = f"{OWN}Учёные пишут: «{quote}». {OWN}{OWN}"
    r = _result(essay)
    [warning] = [w for w in r.warnings if w.code == "warning.many_quotations"]
    assert 25 < r.cited_percent < 60
    assert warning.kw["percent"] == round(r.cited_percent, 1)
