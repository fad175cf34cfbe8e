"""Derivational families of words (ритм / ритмичный / ритмический, отражение / отражать): the
shipped table, its rules against families by accident, and the paraphrase layer that reads it."""

from __future__ import annotations

import numpy as np
import pytest

from sverka.core import api, candidates, synonyms
from sverka.core.candidates import variant_pair_keys
from sverka.core.keys import pair_keys
from sverka.core.document import Document
from sverka.core.hashing import hash_text
from sverka.core.synonyms import FAMILY, SYNONYM, SynonymTable, family_table, related_of
from sverka.core.text import canonize

OTHER = ("Весь прошлый век крестьяне деревни жили в бедности и тяжёлом труде. "
         "Дети бегали по лугу, собирали ромашки и плели венки для матерей.")
OWN = "Я люблю летние вечера у реки, когда вода тёплая и тихая."


@pytest.mark.parametrize("a, b", [
    ("ритм", "ритмичный"), ("ритмичный", "ритмический"), ("ритмический", "ритмично"),
    ("отражение", "отражать"), ("потребность", "потребовать"), ("потребность", "потребный"),
    ("быстрый", "быстро"), ("эффективный", "эффективность"), ("организация", "организовать"),
    ("жестокий", "жестокость"), ("работа", "работать"), ("слабость", "слабый"), ("изучение", "изучить"),
    # a place and its adjective in -ский
    ("азербайджан", "азербайджанский"), ("ставрополье", "ставропольский"), ("смоленск", "смоленский"),
    ("россия", "российский"),
])
def test_words_of_one_family_are_found(a, b):
    assert family_table().are_synonyms(a, b)


@pytest.mark.parametrize("a, b", [
    ("мир", "мирить"), ("мир", "мировой"),  # a stem of three letters is never a family
    ("вода", "водить"), ("вода", "водный"), ("рот", "рота"),
    ("отражать", "выражать"),  # prefixes are kept
    ("ритм", "ритуал"),
    ("иван", "иванов"), ("петр", "петровский"),  # names of people are in no family
])
def test_words_sharing_letters_by_accident_are_not_one_family(a, b):
    assert not family_table().are_synonyms(a, b)


def test_the_family_table_is_read_like_the_synonym_table():
    t = family_table()
    assert t.version.startswith("1:") and len(t) > 10_000
    assert "ритмичный" in t.synonyms("ритм")


def test_related_lemmas_are_synonyms_first_then_the_family():
    lemmas = ["ритмичный", "отражение", "команда"]  # команда has synonyms and no family
    which, alt, kind = related_of(np.asarray([hash_text(w) for w in lemmas], np.uint64))
    assert which.tolist() == sorted(which.tolist())
    got = {(lemmas[w], k) for w, k in zip(which.tolist(), kind.tolist())}
    assert ("ритмичный", FAMILY) in got and ("отражение", FAMILY) in got and ("команда", SYNONYM) in got
    ritm = alt[(which == 0) & (kind == FAMILY)].tolist()
    assert hash_text("ритмический") in ritm and hash_text("ритм") in ritm
    for w in range(len(lemmas)):  # each lemma's synonyms come before its family
        ks = kind[which == w].tolist()
        assert ks == sorted(ks)


def _no_families(monkeypatch):
    empty = SynonymTable("0:none", np.zeros(0, np.uint64), np.zeros(1, np.int64), np.zeros(0, np.uint64),
                         synonyms.FAMILIES_PATH)
    monkeypatch.setattr(synonyms, "family_table", lambda: empty)


def _found(source_sentence: str, suspect_sentence: str, words_only: bool = False) -> list:
    """The passages over the suspect sentence; ``words_only``: the lexical layers alone (the
    meaning layer may find a rewritten sentence by its meaning whatever the families)."""
    essay = f"{OWN} {suspect_sentence} {OWN}"
    r = api.compare(Document(essay, title="essay"), Document(f"{OTHER} {source_sentence} {OTHER}", title="source"),
                    settings=api.Settings(find_by_meaning=False) if words_only else None)
    spans = [(p.suspect_start, p.suspect_end, p.kind) for s in r.sources for p in s.passages if p.excluded is None]
    own_start = essay.index(suspect_sentence)
    for s, e, _ in spans:  # never over the student's own sentences
        assert own_start <= s and e <= own_start + len(suspect_sentence)
    return spans


@pytest.mark.parametrize("source, suspect", [
    ("Учитель отметил значительное улучшение успеваемости всего класса.",
     "Учитель отметил, что успеваемость всего класса значительно улучшилась."),
    ("Жестокость правителя вызывала возмущение и страх у жителей древнего города.",
     "Жители древнего города возмущались и боялись жестокого правителя."),
])
def test_a_sentence_rewritten_with_words_of_their_families_is_found_only_through_them(source, suspect, monkeypatch):
    found = _found(source, suspect)
    assert found and all(k == "paraphrase" for *_, k in found)
    _no_families(monkeypatch)
    assert _found(source, suspect, words_only=True) == []


def test_a_sentence_naming_the_place_by_its_adjective_is_found(monkeypatch):
    source = "Учёные из Смоленска нашли в архиве неизвестные письма знаменитого поэта прошлого века."
    suspect = "Смоленские исследователи отыскали неизвестные письма знаменитого поэта в старом архиве."
    assert _found(source, suspect)
    _no_families(monkeypatch)
    assert _found(source, suspect, words_only=True) == []


@pytest.mark.parametrize("source, original", [
    ("Жестокость правителя вызывала возмущение и страх у жителей древнего города.",
     "Жестокий мороз той зимы вызывал страх у жителей северных деревень."),
    ("Учитель отметил значительное улучшение успеваемости всего класса.",
     "Врач отметил значительное улучшение самочувствия больного после операции."),
    ("Эффективность новой методики обучения подтвердили многочисленные исследования педагогов.",
     "Эффективная работа новой котельной подтвердила расчёты инженеров."),
])
def test_an_original_sentence_sharing_words_of_their_families_is_not_highlighted(source, original):
    assert _found(source, original) == []


def test_variant_pair_keys_hold_a_word_of_the_family_the_source_has_when_asked(monkeypatch):
    monkeypatch.setattr(candidates, "VARIANT_FAMILIES", True)
    suspect = canonize("Танцоры совершали ритмичные движения под музыку.")
    source = canonize("Танцоры совершали ритмические движения под музыку.")
    wanted = set(pair_keys(source)[0].tolist()) - set(pair_keys(suspect)[0].tolist())
    assert wanted and wanted <= set(variant_pair_keys(suspect)[0].tolist())
    _no_families(monkeypatch)
    assert not wanted & set(variant_pair_keys(suspect)[0].tolist())
    monkeypatch.undo()  # as shipped: off (docs/BENCHMARKS.md, "Word families in the lexical layers")
    assert not candidates.VARIANT_FAMILIES and not wanted & set(variant_pair_keys(suspect)[0].tolist())
