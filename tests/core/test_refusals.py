"""Refusals (core/refusals.py): sentences the lexical layers paired although they contradict
their source (numbers, a denial) or lend it only a few words at a passage's edge are not
borrowed; a real borrowing beside each of them is kept.

Each refused pair is checked twice: without the refusals (the layers did pair it, so the
test is not vacuous) and with them."""

from __future__ import annotations

import pytest

from sverka.core import api, check
from sverka.core.document import Document
from sverka.core.refusals import _around_span, _contradiction, _round_to

OWN = [
    "Я люблю летние вечера у реки, когда вода тёплая и тихая.",
    "Моя бабушка печёт пироги с капустой по воскресеньям.",
]
FILLER = [
    "Весь прошлый век крестьяне деревни жили в бедности и тяжёлом труде.",
    "Дети бегали по лугу, собирали ромашки и плели венки для матерей.",
]


def borrowed(suspect: str, source: str, *, refusals: bool = True, monkeypatch=None) -> list[tuple[str, str]]:
    """(method, suspect text) of the passages of a check of ``suspect`` (between two sentences
    of the student's own) against ``source`` (between two sentences of prose)."""
    if not refusals:
        monkeypatch.setattr(check, "refuse_contradictions", lambda passages, *args, **kwargs: list(passages))
    text = " ".join([OWN[0], suspect, OWN[1]])
    r = api.compare(Document(text, title="essay"), Document(" ".join([FILLER[0], source, FILLER[1]]), title="source"))
    if not refusals:
        monkeypatch.undo()
    return [(p.method, text[p.suspect_start:p.suspect_end]) for src in r.sources for p in src.passages]


REFUSED = [
    pytest.param("При пожаре в доме престарелых в Техасе погибли пять человек.",
                 "Два человека погибли при пожаре в частном доме в Техасе.", id="numbers"),
    pytest.param("Россия на Универсиаде преодолела рубеж в 100 золотых медалей.",
                 "Россия за день выиграла еще 6 золотых медалей Универсиады.", id="numbers-digits"),
    pytest.param("\"Салават Юлаев\" сравнял счет в противостоянии с \"Ак Барсом\".",
                 "\"Салават Юлаев\" не дал \"Ак Барсу\" сравнять счет в серии.", id="denial"),
    pytest.param("Тело сгоревшего охотника за полицейскими так и не было найдено в лесу.",
                 "В сгоревшем убежище охотника за полицейскими в лесу найдено тело.", id="denial-not-found"),
]


@pytest.mark.parametrize("suspect, source", REFUSED)
def test_a_pair_that_contradicts_its_source_is_refused(suspect, source, monkeypatch):
    assert [m for m, _ in borrowed(suspect, source, refusals=False, monkeypatch=monkeypatch)] == ["paraphrase"]
    assert borrowed(suspect, source) == []


KEPT = [
    # a figure rounded: "почти 900" for 876 (ParaPhraser calls the pair a paraphrase)
    pytest.param("Число жертв землетрясения в Непале возросло до 876 человек.",
                 "Число жертв землетрясения в Непале составило почти 900 человек.", id="rounded"),
    # a figure only one of them gives is a detail dropped, not a contradiction
    pytest.param("Ким Чен Ын и Олланд отказались ехать в Москву на 9 Мая.",
                 "Ким Чен Ын отказался от визита в Москву в День Победы.", id="one-figure"),
    # "отказался играть" denies as "не сыграет" does
    pytest.param("Андрей Кириленко отказался играть за сборную России на Евробаскете-2013.",
                 "Кириленко не сыграет за сборную России на Евробаскете-2013.", id="denying-word"),
    # a copy edited (its words in their order, a figure changed) is still a copy
    pytest.param("Число жертв землетрясения в Непале и Индии достигло 758 человек.",
                 "Число жертв землетрясения в Непале и Индии превысило 2260 человек.", id="edited-copy"),
    # a copied run of eight words with a figure changed is still copied
    pytest.param("При пожаре в доме престарелых в Техасе погибли пять человек.",
                 "При пожаре в доме престарелых в Техасе погибли два человека.", id="copied-run"),
]


@pytest.mark.parametrize("suspect, source", KEPT)
def test_a_real_borrowing_beside_each_rule_is_kept(suspect, source):
    ((method, text),) = borrowed(suspect, source)
    assert method == "paraphrase" and text in suspect and 2 * len(text) >= len(suspect)


SOURCE = ("Весь прошлый век крестьяне деревни жили в бедности и тяжёлом труде. "
          "Экипаж корабля собрался на палубе, когда капитан отдал приказ поднимать якорь. "
          "Дети бегали по лугу, собирали ромашки и плели венки для матерей. "
          "Осенью вся деревня праздновала окончание жатвы шумной ярмаркой.")
COPIED = "Экипаж корабля собрался на палубе, когда капитан отдал распоряжение поднимать якорь."


def _essay(after: str) -> str:
    return " ".join([OWN[0], COPIED, after, OWN[1]])


def test_a_thin_edge_sentence_is_cut_off_a_bridged_passage(monkeypatch):
    # three words of the next source sentence (дети, плели, венки) of the student's nine
    own = "Дети плели венки из одуванчиков, пока взрослые спорили о политике и ценах на хлеб."
    text = _essay(own)

    def passages():
        r = api.compare(Document(text, title="essay"), Document(SOURCE, title="source"))
        return [(p.method, text[p.suspect_start:p.suspect_end]) for s in r.sources for p in s.passages]

    monkeypatch.setattr(check, "refuse_contradictions", lambda passages, *args, **kwargs: list(passages))
    assert passages() == [("bridged", COPIED + " Дети плели венки")]
    monkeypatch.undo()
    assert passages() == [("bridged", COPIED[:-1])]


def test_an_edge_sentence_with_enough_matched_words_stays():
    # four of its content words from the source's next sentence: the layer's own minimum
    text = _essay("Потом дети бегали по лугу и спорили о политике с отцами.")
    r = api.compare(Document(text, title="essay"), Document(SOURCE, title="source"))
    assert [text[p.suspect_start:p.suspect_end] for s in r.sources for p in s.passages] == [
        COPIED + " Потом дети бегали по лугу"]


def test_a_sentence_run_into_the_next_lends_it_no_denial():
    # the source headline has no full stop: the splitter ran it into the next sentence, whose
    # "не" is more than AROUND_WORDS words past the matched stretch
    suspect = "Представитель МИД: слова Саманты Пауэр о Тане Савичевой - верх цинизма."
    source = ("Представитель МИД РФ назвала речь Саманты Пауэр в ООН \"цинизмом\" Когда я сказал ему, что, "
              "на мой взгляд, он не умеет писать стихов, он обиделся.")
    assert _contradiction(suspect, source) == "denial"  # read whole
    start = source.index("Представитель")
    end = source.index("Пауэр") + len("Пауэр")
    lo, hi = _around_span(source, 0, len(source), start, end)
    assert _contradiction(suspect, source[lo:hi]) == ""


@pytest.mark.parametrize("x, y, rounded", [(876, 900, True), (27, 30, True), (758, 2260, False), (52, 34, False),
                                           (876, 800, False), (5, 5, True), (2.5, 3, False)])
def test_a_figure_rounded_is_the_same_figure(x, y, rounded):
    assert (_round_to(x, y) or _round_to(y, x)) is rounded


def test_a_denial_is_refused_only_when_the_whole_sentences_differ_too():
    # the source's "не" stands three words before its matched stretch (Сноудена ... самолета):
    # read around the stretch alone the two differ, read whole both deny
    suspect = "Сноудена не оказалось на борту самолета Москва — Гавана."
    source = "Журналисты не нашли Эдварда Сноудена на борту самолета Москва — Гавана."
    start = source.index("Сноудена")
    lo, hi = _around_span(source, 0, len(source), start, len(source))
    assert _contradiction(suspect, source[lo:hi]) == "denial"
    assert _contradiction(suspect, source) == ""


@pytest.mark.parametrize("mine, theirs, same", [
    ("Он шёл домой через поле", "он шел домой через поле", True),  # case and ё
    ("Въ домѣ было тихо и темно", "В доме было тихо и темно", True),  # the old spelling
    ("Он шёл домой через поле", "Он шёл домой через лес", False),
    ("Он шёл домой через поле", "Он шёл домой через поле вечером", False),  # one word more
    ("Он шёл домой", "Он шёл домой", False),  # too short to count
])
def test_a_copied_run_is_words_written_alike(mine, theirs, same):
    from sverka.core.refusals import _copied_run
    from sverka.core.text import canonize

    a, b = canonize(mine), canonize(theirs)
    assert _copied_run((0, len(mine), 0, len(theirs)), a, b, 5) is same
