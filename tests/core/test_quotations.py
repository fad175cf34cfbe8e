""""Quote everything" is visible: a long quoted copy counts as cited (not original) and the
result warns about a long quotation and about quotations taking much of the text."""

from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest

from sverka.core import api, report
from sverka.core.exclusions import LONG_QUOTE_WORDS, QUOTED_PERCENT
from sverka.core.messages import text

WORDS = ("осень лес река поле дорога город человек время жизнь дело мысль слово дом окно солнце ветер "
         "утро вечер письмо книга память история голос сердце надежда работа улица деревня небо море "
         "старый новый тихий светлый долгий быстрый далёкий родной простой тёплый холодный ясный "
         "смотрел думал писал видел помнил ждал шёл читал говорил слушал любил знал").split()


def _prose(seed: int, n_words: int) -> str:
    rng = random.Random(seed)
    out, sentence = [], []
    for _ in range(n_words):
        sentence.append(rng.choice(WORDS))
        if len(sentence) >= rng.randint(7, 12):
            out.append(" ".join(sentence).capitalize() + ".")
            sentence = []
    if sentence:
        out.append(" ".join(sentence).capitalize() + ".")
    return " ".join(out)


SOURCE = _prose(1, 500)
COPIED = " ".join(SOURCE.split()[:330])
OWN_START = _prose(2, 60)
OWN_END = _prose(3, 60)
SUSPECT = f"{OWN_START} Вот что пишет автор: «{COPIED}» {OWN_END}"


def _check(suspect: str = SUSPECT, **settings):
    a = api.document_from_text(suspect, "Сочинение")
    b = api.document_from_text(SOURCE, "Источник")
    return api.compare(a, b, api.Settings(**settings))


def test_a_long_quoted_copy_is_cited_and_warned_about():
    r = _check()
    assert r.cited_percent > 50
    assert r.borrowed_percent + r.cited_percent + r.original_percent == pytest.approx(100, abs=0.01)
    assert r.borrowed_percent < 5  # the student marked it as a quotation
    codes = {w.code: w.kw for w in r.warnings}
    assert codes["warning.long_quotation"]["words"] >= 330 - 2 and codes["warning.long_quotation"]["count"] == 1
    assert codes["warning.many_quotations"]["percent"] > QUOTED_PERCENT
    assert "longer than 40 words" in text(r.warnings[0], "en")
    assert "длиннее 40 слов" in text(r.warnings[0], "ru")


def test_counted_as_borrowed_the_warning_stays():
    r = _check(count_quotes_as_borrowed=True)
    assert r.cited_percent == 0 and r.borrowed_percent > 50
    assert {w.code for w in r.warnings} == {"warning.long_quotation", "warning.many_quotations"}


def test_short_quotations_are_not_warned_about():
    short = " ".join(SOURCE.split()[:LONG_QUOTE_WORDS - 5])
    r = _check(f"{_prose(4, 300)} Как сказано: «{short}» {_prose(5, 100)}")
    assert r.cited_percent > 0
    assert r.warnings == ()


def test_many_short_quotations_are_warned_about_as_a_share():
    words = SOURCE.split()
    quotes = " ".join(f"«{' '.join(words[k:k + 30])}» {_prose(10 + k, 12)}" for k in range(0, 300, 30))
    r = _check(f"{_prose(6, 40)} {quotes}")
    codes = {w.code for w in r.warnings}
    assert codes == {"warning.many_quotations"}


def test_the_warning_reaches_json_the_cli_summary_and_the_reports(tmp_path):
    r = _check()
    data = report.check_result_to_dict(r)
    assert [w["code"] for w in data["warnings"]] == ["warning.long_quotation", "warning.many_quotations"]
    assert data["warnings"][0]["text"].startswith("1 quotation longer than 40 words")
    json.dumps(data)
    assert "1 quotation longer than 40 words" in report.render_html(r, lang="en")
    assert "1 цитата длиннее 40 слов" in report.render_html(r, lang="ru")

    (tmp_path / "s.txt").write_text(SUSPECT, encoding="utf-8")
    (tmp_path / "src.txt").write_text(SOURCE, encoding="utf-8")
    out = subprocess.run([sys.executable, "-m", "sverka.core.cli", "compare", str(tmp_path / "s.txt"),
                          str(tmp_path / "src.txt"), "--lang", "ru"], capture_output=True, text=True, timeout=300)
    assert "предупреждение: 1 цитата длиннее 40 слов" in out.stdout, out.stdout + out.stderr
    assert "% цитирования" in out.stdout


# -- a quotation the source holds in quotation marks too ---------------------------------

VANKA = ("Ванька Жуков, девятилетний мальчик, отданный три месяца тому назад в ученье к сапожнику, "
         "в ночь под Рождество не ложился спать. «Милый дедушка, Константин Макарыч! — писал он. — И пишу "
         "тебе письмо. Поздравляю вас с Рождеством и желаю тебе всего от господа бога». Ванька перевёл глаза "
         "на тёмное окно, в котором мелькало отражение его свечки.")
ASSIGNMENT = ("Задание: «Напишите сочинение-рассуждение на тему «Что такое настоящая дружба?», используя примеры "
              "из прочитанных произведений и собственный жизненный опыт».")


@pytest.mark.parametrize("essay, quoted", [
    ("Мальчик пишет деду в деревню. Письмо начинается так: «Милый дедушка, Константин Макарыч! — писал он. — "
     "И пишу тебе письмо» (А. П. Чехов, «Ванька»). Мне очень жалко мальчика, потому что письмо никто не прочтёт.",
     "Милый дедушка, Константин Макарыч! — писал он. — И пишу тебе письмо"),
], ids=["dialogue-with-its-reference"])
def test_a_line_the_source_quotes_too_is_cited_when_the_student_quotes_it(essay, quoted):
    """The source's « » around the same words do not make a quotation copied text when the
    passage is the quotation: a line of dialogue quoted with its reference is cited."""
    r = api.compare(api.document_from_text(essay, "Сочинение"), api.document_from_text(VANKA, "Ванька"))
    assert r.borrowed_percent == 0.0
    assert r.cited_percent == pytest.approx(100 * len(quoted.replace("—", "").split()) / len(
        essay.replace("—", "").replace("(", "").split()), abs=3)


@pytest.mark.parametrize("opening", ["Задание: ", "Как сказано в задании, "])
def test_the_assignment_quoted_by_two_essays_is_cited_in_both(opening):
    earlier = ASSIGNMENT + "\n\n" + _prose(4, 120)
    mine = opening + ASSIGNMENT.removeprefix("Задание: ") + "\n\n" + _prose(5, 120)
    r = api.compare(api.document_from_text(mine, "Иванов"), api.document_from_text(earlier, "Петрова"))
    assert r.borrowed_percent == 0.0 and r.cited_percent > 10


def test_a_dialogue_copied_with_its_paragraph_is_still_copied_text():
    # the passage goes on well past each quotation: the source's marks, not the student's
    essay = _prose(6, 40) + " " + VANKA + " " + _prose(7, 40)
    r = api.compare(api.document_from_text(essay, "Сочинение"), api.document_from_text(VANKA, "Ванька"))
    assert r.cited_percent == 0.0 and r.borrowed_percent > 30


def test_straight_quotation_marks_nested_in_straight_ones_are_one_citation():
    source = ("Иллюзорное представление о «понятности» произведения скрывает от читателя сложность текста "
              "и множество его цитат. " + _prose(8, 80))
    essay = (_prose(9, 60) + ' Лотман писал: "Иллюзорное представление о "понятности" произведения скрывает от '
             'читателя сложность текста и множество его цитат" [1, с. 5]. ' + _prose(10, 60))
    r = api.compare(api.document_from_text(essay, "Сочинение"), api.document_from_text(source, "Лотман"))
    assert r.borrowed_percent == 0.0 and r.cited_percent > 5


def test_a_remark_the_source_quotes_copied_alone_and_unattributed_is_copied_text():
    # the source's marks came with it, and nobody is named: the student's quotation marks
    # are not a citation
    source = (_prose(11, 60) + ' Министр сказал журналистам: "Мы не собираемся поддерживать этот закон, потому что '
              'он не решает ни одной настоящей проблемы". ' + _prose(12, 60))
    essay = (_prose(13, 50) + ' "Мы не собираемся поддерживать этот закон, потому что он не решает ни одной настоящей '
             'проблемы". ' + _prose(14, 50))
    r = api.compare(api.document_from_text(essay, "Сочинение"), api.document_from_text(source, "Новости"))
    assert r.cited_percent == 0.0 and r.borrowed_percent > 10
