"""A passage cut by the refusals or by the heading rule is labelled by what is left of it
(:func:`sverka.core.kinds.kind_after_cut`), not by the kind of the whole passage before the cut."""

from __future__ import annotations

import pytest

from sverka.core import api, check
from sverka.core.document import Document
from sverka.core.exclusions import heading_end
from sverka.core.kinds import kind_after_cut, pieces_kind
from sverka.core.results import Passage
from sverka.core.text import canonize, word_starts

OWN = ["Я люблю летние вечера у реки, когда вода тёплая и тихая.",
       "Моя бабушка печёт пироги с капустой по воскресеньям."]
SOURCE = ("Весь прошлый век крестьяне деревни жили в бедности и тяжёлом труде. "
          "Экипаж корабля собрался на палубе, когда капитан отдал приказ поднимать якорь. "
          "Дети бегали по лугу, собирали ромашки и плели венки для матерей. "
          "Осенью вся деревня праздновала окончание жатвы шумной ярмаркой.")
COPIED = "Экипаж корабля собрался на палубе, когда капитан отдал распоряжение поднимать якорь."


def _passages(text: str, source: str = SOURCE) -> list[Passage]:
    r = api.compare(Document(text, title="essay"), Document(source, title="source"))
    return [p for s in r.sources for p in s.passages]


def test_a_passage_the_refusals_cut_is_labelled_by_what_is_left(monkeypatch):
    # three words of the next source sentence (дети, плели, венки) ride on a copy edited with
    # a synonym: the bridged passage over both is several kinds at once; cut back to the
    # copy, it is the synonym only
    text = " ".join([OWN[0], COPIED, "Дети плели венки из одуванчиков, пока взрослые спорили о политике и ценах на хлеб.",
                     OWN[1]])
    monkeypatch.setattr(check, "refuse_contradictions", lambda passages, *args, **kwargs: list(passages))
    (whole,) = _passages(text)
    assert whole.method == "bridged" and whole.kind == "paraphrase"
    monkeypatch.undo()
    (cut,) = _passages(text)
    assert text[cut.suspect_start:cut.suspect_end] == COPIED[:-1]
    assert cut.kind == "synonyms"


HEADED = "Моё сочинение\nДанко вырвал из груди своё сердце, и оно пылало ярко, как солнце, освещая путь людям."
HEADED_SOURCE = "Сочинение моё. Данко вырвал из груди своё сердце, и оно пылало ярко, как солнце, освещая путь людям."


def _headed(method: str, kind: str, body_source: str = HEADED_SOURCE) -> Passage:
    """A passage over the heading line (its words in another order in the source) and the
    sentence below it, cut by the heading rule."""
    a, b = canonize(HEADED), canonize(body_source)
    heading = (0, 13, 0, 13)
    body = (HEADED.index("Данко"), len(HEADED) - 1, body_source.index("Данко"), len(body_source) - 1)
    p = Passage(0, body[1], 0, body[3], 16, method, matched=16, pieces=(heading, body), kind=kind)
    head = heading_end(HEADED)
    assert head == len("Моё сочинение")
    return check._after_heading(p, head, a, b, word_starts(HEADED), 8)


@pytest.mark.parametrize("method", ["bridged", "paraphrase"])
def test_a_passage_the_heading_rule_cut_is_labelled_by_what_is_left(method):
    q = _headed(method, "reordered")
    assert q.pieces == ((HEADED.index("Данко"), len(HEADED) - 1, HEADED_SOURCE.index("Данко"), len(HEADED_SOURCE) - 1),)
    assert q.source_start == HEADED_SOURCE.index("Данко")
    assert q.kind == "verbatim"


def test_a_paraphrase_passage_keeps_its_label_unless_what_is_left_is_verbatim():
    """The paraphrase layer's label reads which words agreed through a synonym or a family, a
    pairing a passage does not keep: only "verbatim" can be told again from the pieces."""
    edited = HEADED_SOURCE.replace("ярко", "очень ярко")
    assert _headed("paraphrase", "synonyms", edited).kind == "synonyms"


ESSAYS = [
    (" ".join([OWN[0], COPIED, OWN[1]]), SOURCE),
    ("Экипаж корабля собрался на палубе, когда капитан отдал приказ поднимать якорь. " + OWN[0]
     + " Весь прошлый век крестьяне деревни жили в бедности и тяжёлом труде.", SOURCE),
    ("Крестьяне деревни весь прошлый век жили в бедности и тяжёлом труде. Дети бегали по лугу, "
     "собирали ромашки и плели венки для своих матерей. " + OWN[1], SOURCE),
    ("Весь прошлый век крестьяне деревни жили в бедности и тяжком труде, а дети бегали по лугу, "
     "собирали ромашки и плели венки для матерей. " + OWN[1], SOURCE),
]


@pytest.mark.parametrize("essay, source", ESSAYS)
def test_the_exact_layer_kind_is_told_again_from_the_pieces_alone(essay, source):
    """Uncut, a passage of the exact layer gets from its pieces the kind the layer gave it."""
    a, b = canonize(essay), canonize(source)
    found = [p for p in _passages(essay, source) if p.method != "paraphrase"]
    assert found
    for p in found:
        assert pieces_kind(p.pieces, a, b) == p.kind, (p.method, p.kind)
        assert kind_after_cut(p.method, p.kind, p.pieces, a, b) == p.kind
