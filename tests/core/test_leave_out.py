"""A source left out of one result stays with that result (and survives re-applying other
exclusion settings); the settings, and so every later check, are untouched."""

from __future__ import annotations

import dataclasses

import pytest

from sverka.core import api

SOURCE = ("Старый дом стоял на высоком берегу реки, и по утрам туман поднимался к его окнам. "
          "Мы жили там каждое лето, пока дед не продал сад соседям из города. ") * 4
OTHER = ("Вечером мы сидели на крыльце и слушали, как шумит дождь по крыше сарая, "
         "а собака дремала у самой двери. ") * 4
SUSPECT = "Моё вступление к сочинению. " + SOURCE[:300] + " " + OTHER[:250] + " Моё заключение."


def _result():
    a = api.document_from_text(SUSPECT, "Сочинение")
    r1 = api.compare(a, api.Document(SOURCE, path="/archive/house.txt", title="Дом"))
    r2 = api.compare(a, api.Document(OTHER, path="/archive/rain.txt", title="Дождь"))
    both = api.apply_exclusions(dataclasses.replace(r1, sources=r1.sources + r2.sources), r1.settings)
    assert len(both.sources) == 2 and all(s.containment > 0.2 for s in both.sources)
    return both


def test_leave_out_applies_to_this_result_only():
    r = _result()
    out = api.leave_out(r, ["/archive/house.txt"])
    assert out.left_out == ("/archive/house.txt",)
    house = next(s for s in out.sources if s.path == "/archive/house.txt")
    assert {p.excluded for p in house.passages} == {"source"} and house.containment == 0
    assert out.borrowed_percent < r.borrowed_percent
    assert out.settings == r.settings and out.settings.excluded_sources == ()
    # other exclusion settings re-applied later keep what was left out of this result
    again = api.apply_exclusions(out, out.settings.replace(min_passage_words=10))
    assert again.left_out == out.left_out and again.borrowed_percent == pytest.approx(out.borrowed_percent)
    # counted again
    back = api.leave_out(out, [])
    assert back.borrowed_percent == pytest.approx(r.borrowed_percent)
