"""Headings and names are never borrowed text: the short lines at the top of an essay (a
title, the student's name and class, a date, a school) are never part of a passage, even
when the title is a source's title; running text after them is found as before."""

from __future__ import annotations

from sverka.core import api
from sverka.core.document import Document
from sverka.core.exclusions import heading_end

SOURCE = ("Горящее сердце Данко: легенда Максима Горького о смелом юноше и народе\n\n"
          "Легенда о Данко рассказывает о юноше, который вывел свой народ из тёмного леса. "
          "Люди жили в степи, но пришли сильные племена и прогнали их в глубину леса, где были болота. "
          "Данко вырвал из груди своё сердце, и оно пылало ярко, как солнце, освещая путь людям. "
          "Когда люди вышли из леса, Данко упал и умер, а его сердце рассыпалось искрами по степи.")
TITLE = "Горящее сердце Данко: легенда Максима Горького о смелом юноше и народе"
OWN = ("Мне кажется, каждый человек должен помогать другим, даже если ему страшно и никто не видит. "
       "Я часто думаю об этом, когда иду зимним вечером из школы мимо тёмного парка.")


def _highlighted(essay: str) -> list[str]:
    r = api.compare(Document(essay, title="essay"), Document(SOURCE, title="source"))
    return [essay[p.suspect_start:p.suspect_end] for s in r.sources for p in s.passages if p.excluded is None]


def test_a_name_line_is_never_bridged_into_a_passage():
    essay = ("Горящее сердце Данко\n"
             "Сидоров Дмитрий, 9 «Б»\n"
             "Данко вырвал из груди своё сердце, и я думаю, что это самый смелый поступок в рассказе. " + OWN)
    found = _highlighted(essay)
    assert not any("Сидоров" in p or "Горящее" in p for p in found), found


def test_a_title_equal_to_the_source_title_counts_as_nothing_and_the_copy_below_is_found():
    copied = "Данко вырвал из груди своё сердце, и оно пылало ярко, как солнце, освещая путь людям."
    essay = f"{TITLE}\nИванова Мария, 9 «Б», 12.03.2026\nМБОУ СОШ № 5\n\n{OWN} {copied} {OWN}"
    found = _highlighted(essay)
    assert found and all(TITLE[:20] not in p and "Иванова" not in p for p in found), found
    assert any(copied[:40] in p for p in found)
    alone = f"{TITLE}\n\n{OWN} {OWN}"
    assert _highlighted(alone) == []


def test_heading_lines_are_found_only_above_running_text():
    assert heading_end("Заголовок\nИванов Иван, 9 «Б»\n" + OWN) == len("Заголовок\nИванов Иван, 9 «Б»")
    # a hard-wrapped paragraph: the next line continues the sentence
    assert heading_end("Глобальное потепление вызвано прежде всего\nдеятельностью человека, и это видно.") == 0
    # a poem or a list of short lines with nothing after them: no headings
    assert heading_end("Мороз и солнце\nДень чудесный\nЕщё ты дремлешь\nДруг прелестный") == 0
    assert heading_end("\n".join(f"Строка {k}" for k in range(10)) + "\n" + OWN) == 0
    assert heading_end(OWN) == 0


def test_dialogue_and_short_sentences_at_the_top_are_running_text():
    body = "Она говорила долго и много о разном, и никто её не слушал в этот поздний вечер совсем."
    assert heading_end("— Да.\n— Куда ты пойдёшь?\n" + body) == 0
    assert heading_end("Он молчал.\n" + body) == 0
    assert heading_end("Кто виноват?\nСидоров Д.\n" + body) == len("Кто виноват?\nСидоров Д.")


TITLE_PAGE = ("Министерство образования и науки Российской Федерации\n"
              "Муниципальное бюджетное общеобразовательное учреждение «Средняя общеобразовательная школа № 5 "
              "с углублённым изучением отдельных предметов» города Тулы\n\n"
              "РЕФЕРАТ\nпо истории России на тему\n«Реформы Петра Первого и их значение для развития государства»\n\n"
              "Выполнил: ученик 10 «Б» класса\n{name}\nПроверила: учитель истории Петрова Марина Ивановна\n\n"
              "Тула, 2026\n\nВведение\n\n")


def test_a_title_page_is_never_matched_however_many_lines_it_has():
    """A school's title page (nine lines, a title in « » continued over three of them, the
    school's long name) is the same in every essay of a class and of an archive: two essays
    with nothing else in common share nothing, and the student's name is never bridged."""
    mine = TITLE_PAGE.format(name="Иванов Иван") + OWN
    theirs = TITLE_PAGE.format(name="Петрова Анна") + SOURCE.split("\n\n")[1]
    assert heading_end(mine) == mine.index("Введение") + len("Введение")
    r = api.compare(Document(mine, title="mine"), Document(theirs, title="theirs"))
    assert [p for s in r.sources for p in s.passages] == []
    # the copy below a title page is found as before
    copied = "Данко вырвал из груди своё сердце, и оно пылало ярко, как солнце, освещая путь людям."
    found = _highlighted(TITLE_PAGE.format(name="Иванов Иван") + f"{OWN} {copied} {OWN}")
    assert found and all("Иванов" not in p and "РЕФЕРАТ" not in p for p in found), found
    assert any(copied[:40] in p for p in found)


def test_only_a_signed_block_of_short_lines_is_a_title_page():
    body = "Она говорила долго и много о разном, и никто её не слушал в этот поздний вечер совсем."
    page = "Реферат\nпо литературе\nна тему «Поэзия»\nВыполнила: Смирнова Анна\nSubmitted by: Anna\n"
    assert heading_end(page + body) == len(page) - 1
    # the same lines unsigned: a line continued by the next is running text, as before
    assert heading_end("Реферат\nпо литературе\nна тему «Поэзия»\n" + body) == 0
    # a hard-wrapped paragraph whose line opens with a word of a title page's (no colon)
    wrapped = "Каждый из нас помнит, как в школе,\nУчитель говорил нам о долге и чести,\nи мы слушали его."
    assert heading_end(wrapped + "\n" + body) == 0
    # a title page with nothing after it is no title page (nothing to tell it from)
    assert heading_end(page) == 0


UNSIGNED = ["Сочинение\nученика 9 «Б» класса\nсредней школы № 17 города Твери\n{name}\n\n",
            "Муниципальное бюджетное общеобразовательное учреждение «Средняя общеобразовательная школа № 17 "
            "имени А. С. Пушкина» города Твери\nСочинение по литературе\nученика 9 «Б» класса\n{name}\nТверь, 2024\n\n",
            "Муниципальное бюджетное общеобразовательное учреждение «Средняя общеобразовательная школа № 17 имени "
            "А. С. Пушкина» города Твери Сочинение по литературе ученика 9 «Б» класса {name} Учитель: Смирнова "
            "Ольга Викторовна Тверь, 2024\n\nТема: Легенда о Данко\n\n"]


def test_an_unsigned_title_page_that_names_a_class_and_a_school_is_never_matched():
    """A title page with no "Выполнил:" line, its lines continued in small letters, or typed
    as one paragraph, is the same in every essay of a class: two essays with nothing else in
    common share nothing, and the student's name is never inside a passage."""
    copied = "Данко вырвал из груди своё сердце, и оно пылало ярко, как солнце, освещая путь людям."
    for page in UNSIGNED:
        mine = page.format(name="Иванова Петра Алексеевича") + OWN
        theirs = page.format(name="Петровой Анны Сергеевны") + SOURCE.split("\n\n")[1]
        assert heading_end(mine) == len(page.format(name="Иванова Петра Алексеевича").rstrip()), page
        r = api.compare(Document(mine, title="mine"), Document(theirs, title="theirs"))
        assert [p for s in r.sources for p in s.passages] == [], page
        found = _highlighted(page.format(name="Иванова Петра Алексеевича") + f"{OWN} {copied} {OWN}")
        assert found and all("Иванова" not in p and "класса" not in p for p in found), found
        assert any(copied[:40] in p for p in found)


def test_running_text_about_a_class_and_a_school_is_no_title_page():
    body = "Она говорила долго и много о разном, и никто её не слушал в этот поздний вечер совсем."
    # a hard-wrapped paragraph naming a class and a school: continued by a comma
    wrapped = "В нашем 9 «Б» классе\nсредней школы № 17,\nкак и во всех других, учатся разные люди."
    assert heading_end(wrapped + "\n" + body) == 0
    # a first paragraph of running text naming them: a sentence
    assert heading_end("Ученики 9 «Б» класса нашей школы каждый год ездят в Тверь на экскурсию в музей.\n"
                       + body) == 0
    # one kind alone (a school) on unsigned continued lines: running text, as before
    assert heading_end("Моя школа\nстоит у реки\n" + body) == 0
