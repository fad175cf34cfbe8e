"""Every passage says what kind of borrowing it is, computed from its alignment."""

from __future__ import annotations

from collections import Counter

import pytest

from sverka.core import api
from sverka.core.document import Document
from sverka.core.results import KINDS

SOURCE = (
    "Старый рыбак жил со своей старухой у самого синего моря. Они жили в ветхой землянке ровно "
    "тридцать лет и три года. Старик ловил неводом рыбу, а старуха пряла свою пряжу. Однажды он "
    "закинул в море невод, и пришёл невод с одной тиною."
)
OWN = "Мой рассказ будет о другом, о поездке в горы прошлым летом вместе с друзьями из класса. "

CASES = {
    "verbatim": "Они жили в ветхой землянке ровно тридцать лет и три года.",
    "inflected": "Они живут в ветхих землянках ровно тридцать лет и три годы.",
    "edited": "Они жили в очень ветхой землянке ровно тридцать два лет и три года.",
    "reordered": ("Старуха пряла свою пряжу, а старик ловил неводом рыбу. Они жили в ветхой землянке "
                  "ровно тридцать лет и три года. Старый рыбак жил со своей старухой у самого синего моря."),
    "paraphrase": ("Старухи пряли свои пряжи, а старики ловили неводами рыбу. Они жили в ветхой землянке "
                   "ровно тридцать лет и три года."),
}


@pytest.mark.parametrize("kind", list(CASES))
def test_each_kind_is_named(kind):
    r = api.compare(Document(OWN + CASES[kind] + " " + OWN, title=kind), Document(SOURCE, title="source"))
    (src,) = r.sources
    assert [p.kind for p in src.passages] == [kind], [(p.kind, p.method) for p in src.passages]
    assert kind in KINDS


def test_kind_is_in_the_json_report():
    from sverka.core.report import check_result_to_dict

    r = api.compare(Document(OWN + CASES["inflected"], title="essay"), Document(SOURCE, title="source"))
    (p,) = check_result_to_dict(r)["sources"][0]["passages"]
    assert p["kind"] == "inflected"


def test_kind_is_in_the_html_report():
    from sverka.core.report import render_html

    r = api.compare(Document(OWN + CASES["edited"], title="essay"), Document(SOURCE, title="source"))
    page = render_html(r)
    assert "<b>words inserted, deleted or replaced</b>" in page


# Words in another form whose lemmas differ ("пошли" is read as "послать", "пошла" as
# "пойти"), pronouns in another case, and parts paired with another occurrence of a word when
# sentences change places: the label says what the student did, not what the dictionary's
# first guess made of it.
CHEKHOV = (
    "Если бы энергия, которую вы в течение всей вашей жизни затратили на поиски денег для уплаты "
    "процентов, пошла у вас на что-нибудь другое, то, вероятно, в конце концов вы могли бы перевернуть "
    "землю. Потом она встала и пошла домой через поле, не оглядываясь на мужа. Так сейчас же в больницу "
    "бежишь, а мальчишку полгода гноила. Небось как у самой прыщ на носу вскочит. — Батюшка... — вздохнула "
    "баба. — Сгноила парню руку, да теперь и батюшка. Какой он работник без руки? Вот век целый и будешь "
    "с ним нянчиться."
)
OTHER_FORMS = {
    # the exact layer: "пошли" / "пошла" left between matched parts
    "inflected, a homonym between matched parts": (
        "Если бы энергии, которые вы в течение всей вашей жизни затратили на поиски денег для уплаты "
        "процентов, пошли у вас на что-нибудь другое, то, вероятно, в конце концов вы могли бы "
        "перевернуть землю.", "inflected"),
    # the paraphrase layer: "они" / "она", "пошли" / "пошла" left unpaired in one sentence
    "inflected, a sentence of the paraphrase layer": (
        "Потом они встали и пошли домой через поле, не оглядываясь на мужа.", "inflected"),
    # "без руки" and "руку" of two sentences paired across when the sentences changed places
    "reordered, a word paired with its other occurrence": (
        "Вот век целый и будешь с ним нянчиться. Какой он работник без руки? Да теперь и батюшка, "
        "сгноила парню руку. — Батюшка... — вздохнула баба. Небось как у самой прыщ на носу вскочит. "
        "Так сейчас же в больницу бежишь, а мальчишку полгода гноила.", "reordered"),
    # forms changed and a pronoun replaced inside a matched part: both are said
    "paraphrase, forms changed and a stop word replaced": (
        "Если бы энергии, которые вы в течение всей вашей жизни затратили на поиски денег для уплаты "
        "процентов, пошли у вас на что-нибудь другое, то, вероятно, в конце концов мы могли бы "
        "перевернуть землю.", "paraphrase"),
}


@pytest.mark.parametrize("case", list(OTHER_FORMS))
def test_other_forms_and_places_are_labelled_as_such(case):
    text, kind = OTHER_FORMS[case]
    r = api.compare(Document(OWN + text + " " + OWN, title=case), Document(CHEKHOV, title="source"))
    (src,) = r.sources
    assert [p.kind for p in src.passages] == [kind], [(p.kind, p.method) for p in src.passages]


def test_forms_of_one_word():
    from sverka.core.kinds import forms_of_one_word, paired_forms
    from sverka.core.text import word_analyses

    def one(x, y, language="ru"):
        ax, ay = word_analyses([x, y], language)
        return forms_of_one_word(x, y, ax, ay, language)

    for x, y in [("пошли", "пошла"), ("мне", "меня"), ("дули", "дул"), ("красот", "красота"),
                 ("стали", "стал"), ("ее", "она"), ("гончей", "гончими"), ("выпали", "выпало")]:
        assert one(x, y) and one(y, x), (x, y)
    assert one("ran", "run", "en")
    for x, y in [("землю", "небо"), ("и", "или"), ("вы", "мы"), ("тертый", "три")]:
        assert not one(x, y) and not one(y, x), (x, y)
    words = ["пошли", "или", "пошла", "и", "землю", "небо"]
    info = dict(zip(words, word_analyses(words)))
    rest_a, rest_b, paired = paired_forms(Counter(["пошли", "или"]), Counter(["пошла", "и"]), info, info, "ru")
    assert paired and rest_a == Counter(["или"]) and rest_b == Counter(["и"])
    assert paired_forms(Counter(["землю"]), Counter(["небо"]), info, info, "ru") == (
        Counter(["землю"]), Counter(["небо"]), False)


def test_a_clause_moved_to_the_end_of_its_sentence_is_reordered():
    """The moved clause ("Муж ее, полковник ..." -> "Полковник ..., муж ее.") lies outside the
    passage on the source's side, before its first matched word: still no word was edited."""
    source = ("Он приехал в имение сестры поздно вечером. Муж ее, полковник Стрелков, очень порядочный "
              "человек, жил тоже в Петербурге и думал о своей жене менее, чем о своем имении. Она разошлась "
              "с мужем, не проживши с ним и года. Она изменила ему на двадцатый день после свадьбы.")
    moved = ("Она изменила ему на двадцатый день после свадьбы. Не проживши с ним и года, она разошлась с "
             "мужем. Полковник Стрелков, очень порядочный человек, жил тоже в Петербурге и думал о своей жене "
             "менее, чем о своем имении, муж ее.")
    r = api.compare(Document(OWN + moved + " " + OWN, title="essay"), Document(source, title="source"))
    assert [p.kind for s in r.sources for p in s.passages] == ["reordered"]
    # a word the student added is an edit still
    added = moved.replace("о своей жене", "о своей молодой жене")
    r = api.compare(Document(OWN + added + " " + OWN, title="essay"), Document(source, title="source"))
    assert [p.kind for s in r.sources for p in s.passages] == ["paraphrase"]


@pytest.mark.parametrize("moved", [
    "В ветхой землянке они жили ровно тридцать лет и три года.",
    "Ровно тридцать лет и три года они жили в ветхой землянке.",
    "Они жили ровно тридцать лет и три года в ветхой землянке.",
])
def test_words_moved_within_their_sentence_are_reordered(moved):
    """The words put in front ("они жили") stand outside the passage on the source's side."""
    r = api.compare(Document(OWN + moved + " " + OWN, title="essay"), Document(SOURCE, title="source"))
    assert [p.kind for s in r.sources for p in s.passages] == ["reordered"]


def test_alignment_tells_no_kind_itself():
    """Kinds are told after alignment, by the kind_of its caller gives: align alone reads no
    synonym table and leaves the kind empty; with kinds.passage_kind it is the passage's."""
    import subprocess
    import sys

    from sverka.core.align import align
    from sverka.core.kinds import passage_kind
    from test_align import toks

    loaded = subprocess.run([sys.executable, "-c", "import sys, sverka.core.align; "
                             "print(sorted(m for m in sys.modules if m.startswith('sverka.core')))"],
                            capture_output=True, text=True, check=True).stdout
    assert "sverka.core.align" in loaded
    assert "sverka.core.synonyms" not in loaded and "sverka.core.kinds" not in loaded
    copied = " ".join(f"слово{k}" for k in range(12))
    a, b = toks(f"Начало. {copied}. Конец."), toks(f"Другое. {copied}. Хвост.")
    (plain,) = align(a, b, min_words=8)
    (told,) = align(a, b, min_words=8, kind_of=passage_kind)
    assert plain.kind == "" and told.kind == "verbatim"
    assert (plain.suspect_start, plain.suspect_end, plain.pieces) == (told.suspect_start, told.suspect_end, told.pieces)
