"""Russian in the spelling before 1918 (old editions of novels) is read as today's: the same
lemmas and hashes, so an old edition and a new one match word for word; Ukrainian and texts of
today keep their reading."""

from __future__ import annotations

import pytest

from sverka.core import api, formcache, morph, text
from sverka.core.document import Document
from sverka.core.text import canonize, spelling_key

#: Pushkin, "Евгений Онегин", I, 1, as printed before 1918 and as printed today.
OLD = ("Мой дядя самыхъ честныхъ правилъ, Когда не въ шутку занемогъ, Онъ уважать себя заставилъ "
       "И лучше выдумать не могъ. Его примѣръ другимъ наука; Но, Боже мой, какая скука Съ "
       "больнымъ сидѣть и день и ночь, Не отходя ни шагу прочь! Какое низкое коварство "
       "Полуживаго забавлять, Ему подушки поправлять, Печально подносить лекарство, Вздыхать и "
       "думать про себя: Когда же возьметъ тебя! Въ Россіи міръ и добрыя вѣсти.")
NEW = ("Мой дядя самых честных правил, Когда не в шутку занемог, Он уважать себя заставил "
       "И лучше выдумать не мог. Его пример другим наука; Но, Боже мой, какая скука С "
       "больным сидеть и день и ночь, Не отходя ни шагу прочь! Какое низкое коварство "
       "Полуживого забавлять, Ему подушки поправлять, Печально подносить лекарство, Вздыхать и "
       "думать про себя: Когда же возьмет тебя! В России мир и добрые вести.")


@pytest.fixture()
def fresh(empty_form_cache, monkeypatch):
    """An empty form cache and canonizer table: what this test analyses, it analyses itself."""
    monkeypatch.setattr(text, "_table", text._Table())
    return empty_form_cache


def _same_tokens(a, b):
    assert a.lemmas == b.lemmas
    assert a.hashes.tolist() == b.hashes.tolist()
    assert a.word_hashes.tolist() == b.word_hashes.tolist()
    assert a.word_count == b.word_count and a.language == b.language == "ru"


def test_the_old_spelling_reads_as_today(fresh):
    assert text._reading_mode(OLD) == "ru-old" and text._reading_mode(NEW) == "ru"
    old, new = canonize(OLD), canonize(NEW)
    _same_tokens(old, new)
    assert "россия" in old.lemmas and "мир" in old.lemmas and "полуживой" in old.lemmas
    assert old.warnings == ()


def test_the_same_after_the_form_cache_kept_it(fresh, monkeypatch):
    """A second process takes the forms from the machine-wide table: the same reading, and a
    form read one way in a text of today ("міра", Ukrainian) and another in a text of the old
    spelling (Russian "мира") is kept per reading, in either order."""
    today = "Мы читали украинское слово «міра» и русское «мир»."
    old = OLD + " Не было міра въ Россіи."
    first = canonize(today), canonize(old)
    assert first[0].lemmas[3] == "міра" and "міра" not in first[1].lemmas
    formcache.flush()
    for texts in ((today, old), (old, today)):
        formcache.reset()
        morph._cache.clear()
        monkeypatch.setattr(text, "_table", text._Table())
        again = {t: canonize(t) for t in texts}
        assert again[today].lemmas == first[0].lemmas
        _same_tokens(again[old], first[1])


def test_old_words_in_a_text_of_today(fresh):
    t = canonize("Лев Толстой написал «Войну и міръ»; в лѣсу стоял домъ.")
    assert t.lemmas == ("лев", "толстой", "написать", "война", "мир", "лес", "стоять", "дом")
    # without a mark of Russian in it or around it, "мір" is a Ukrainian word
    assert canonize("Лев Толстой написал «Войну и мір».").lemmas[-1] != "мир"


def test_ukrainian_keeps_its_reading(fresh):
    uk = canonize("Він іде до лісу біля річки, а історія цього міста давня.")
    assert uk.language == "uk"
    assert {"ліс", "річка", "історія", "місто"} <= set(uk.lemmas)
    # a Russian text of today quoting two old titles and a Ukrainian word is not "old"
    mixed = "Он читал «Войну и миръ» и «Отцовъ и детей», а по-украински лес — «ліс»."
    assert text._reading_mode(mixed) == "ru"
    assert canonize(mixed).lemmas[-1] == "ліс"


def test_old_endings_and_prefixes_only_where_the_dictionary_says_so(fresh):
    assert canonize("добраго синяго новыя злаго").lemmas == ("добрый", "синий", "новый", "злой")
    assert canonize("разсказ безпокойство безполезнаго изсякнуть").lemmas == (
        "рассказ", "беспокойство", "бесполезный", "иссякнуть")
    # today's words ending or beginning so are left alone
    assert canonize("история армия Чикаго саго").lemmas == ("история", "армия", "чикаго", "саго")
    assert canonize("Безумный разбойник из комнаты").lemmas == ("безумный", "разбойник", "комната")


def test_spelling_key_for_labels():
    assert spelling_key("Въ домѣ ѲЁДОРЪ міръ") == "в доме федор мир"
    assert spelling_key("объявить подъезд") == "объявить подъезд"  # a hard sign inside a word stays
    assert spelling_key("Ёлка") == "елка"


def test_an_old_edition_is_found_word_for_word(fresh):
    """A passage copied from an old edition, checked against the new one: all of it, verbatim
    (the old endings -аго, -ыя are a spelling the reader sees: with them the passage is
    "inflected")."""
    r = api.compare(Document(OLD.replace("Полуживаго", "Его").replace("добрыя", "все"), title="old"),
                    Document(NEW.replace("Полуживого", "Его").replace("добрые", "все"), title="new"))
    (src,) = r.sources
    assert src.containment == pytest.approx(1.0)
    assert [p.kind for p in src.passages] == ["verbatim"]
    r = api.compare(Document(OLD, title="old"), Document(NEW, title="new"))
    assert r.sources[0].containment == pytest.approx(1.0)
    assert [p.kind for p in r.sources[0].passages] == ["inflected"]


def test_spellings_of_1918_1956_read_as_today(fresh):
    """Editions of those years wrote о after ж ч ш щ where today writes ё (чорт, шопот), and
    итти, оне; today's words with such an о (шоколад, жокей, шорох) are left alone."""
    assert canonize("чорт шопот жолтый пошол итти притти одне").lemmas == canonize(
        "черт шепот желтый пошел идти прийти одни").lemmas
    assert canonize("оне").lemmas == canonize("они").lemmas
    assert canonize("шоколад жокей шорох чопорный шов").lemmas == ("шоколад", "жокей", "шорох", "чопорный", "шов")
