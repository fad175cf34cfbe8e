"""Navigation in a result: a selected source brings both panes to its first passage; edited
passages show which words changed; tampered words are marked; each source keeps its colour
(the same in the window and the reports) whatever its rank."""

from __future__ import annotations

import dataclasses

from PySide6.QtCore import QItemSelectionModel

from sverka.core.api import CheckResult, Passage, Settings, SourceMatch, SuspectInfo
from sverka.core.report import colour_slots, render_html, source_colour as report_colour, source_key
from sverka.core.tampering import tampered_words
from sverka.gui.compare_view import CompareView, word_differences
from sverka.gui.models import source_colour
from sverka.gui.results_view import ResultsView

SUSPECT = ("Начало сочинения. Ванька Жуков, восьмилетний мальчик, в ночь под Рождество не ложился спать. "
           "Середина с мaльчиком и спа\u200bть. Конец.")
SOURCE = "Текст источника. Ванька Жуков, девятилетний мальчик, в ночь под Рождество не ложился спать. Ещё."


def edited_result() -> CheckResult:
    a0 = SUSPECT.index("Ванька")
    a1 = SUSPECT.index("спать.") + len("спать")
    b0 = SOURCE.index("Ванька")
    b1 = SOURCE.index("спать.") + len("спать")
    src = SourceMatch(source_id=1, path="/c/vanka.txt", title="Ванька", text=SOURCE, sha256="d" * 64,
                      containment=0.5, resemblance=0.3, sentence_score=0.5,
                      passages=(Passage(a0, a1, b0, b1, 12, "bridged", matched=11, kind="edited"),))
    return CheckResult(
        suspect=SuspectInfo(None, "Сочинение", len(SUSPECT), len(SUSPECT.split()), "ru", (), "e" * 64),
        suspect_text=SUSPECT, sources=(src,), borrowed_percent=50.0, original_percent=50.0, settings=Settings())


def test_word_differences_find_the_changed_word_on_both_sides():
    left, right = word_differences(SUSPECT, 0, len(SUSPECT), SOURCE, 0, len(SOURCE))
    assert "восьмилетний" in [SUSPECT[a:b] for a, b in left]
    assert "девятилетний" in [SOURCE[a:b] for a, b in right]
    same = "Ванька Жуков мальчик"
    assert word_differences(same, 0, len(same), same.upper(), 0, len(same)) == ([], [])


def test_edited_passage_shows_changed_words_and_tampered_words_are_marked(qtbot):
    view = CompareView()
    qtbot.addWidget(view)
    view.set_result(edited_result())
    assert [SUSPECT[a:b] for a, b in view.diff_words["suspect"]] == ["восьмилетний"]
    assert [SOURCE[a:b] for a, b in view.diff_words["source"]] == ["девятилетний"]
    marked = {SUSPECT[a:b]: kind for a, b, kind in view.tampered}
    assert marked == {"мaльчиком": "lookalike", "спа\u200bть": "invisible"}
    overlays = view.left.extraSelections()
    assert len(overlays) == 3 and len(view.right.extraSelections()) == 1
    start = SUSPECT.index("мaльчиком")
    assert "look-alike" in view.tooltip_at("suspect", start + 2)


def test_tampered_words_leave_plain_text_alone():
    assert tampered_words("Обычный текст and English text, 2024 год.") == []
    assert tampered_words("Тeкст") == [(0, 5, "lookalike")]


def test_selecting_a_source_scrolls_both_panes_to_its_first_passage(qtbot, hand_result):
    view = ResultsView()
    qtbot.addWidget(view)
    view.resize(1000, 700)
    view.show()
    view.set_result(hand_result)
    compare = view.compare
    # the second source (its only passage is a quotation, not counted)
    row = [view.proxy.mapFromSource(view.model.index(r, 0)) for r in range(2)][1]
    view.table.selectionModel().setCurrentIndex(
        row, QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows)
    p = hand_result.sources[1].passages[0]
    assert compare.source_index == 1
    assert compare.left.selected_range() == (p.suspect_start, p.suspect_end)
    assert compare.right.selected_range() == (p.source_start, p.source_end)
    bar = compare.left.verticalScrollBar()
    assert bar.maximum() > 0 and bar.value() > 0  # the pane really moved to it (mid-text)
    # and back to the first source: its first counted passage in text order
    first = view.proxy.mapFromSource(view.model.index(0, 0))
    view.table.selectionModel().setCurrentIndex(
        first, QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows)
    q = hand_result.sources[0].passages[0]
    assert compare.left.selected_range() == (q.suspect_start, q.suspect_end)


def test_a_source_keeps_its_colour_across_reorders_in_the_window_and_the_report(qtbot, hand_result):
    view = CompareView()
    qtbot.addWidget(view)
    view.set_result(hand_result)
    a_sha = hand_result.sources[0].sha256
    colour_a = view.left.char_format_at(hand_result.sources[0].passages[0].suspect_start).background().color()
    assert colour_a == source_colour(colour_slots([s.sha256 for s in hand_result.sources])[0])
    # the same sources in the other order (as after an exclusion or a re-check): same colour
    swapped = dataclasses.replace(hand_result, sources=hand_result.sources[::-1])
    view.set_result(swapped)
    k = [s.sha256 for s in swapped.sources].index(a_sha)
    p = swapped.sources[k].passages[0]
    assert view.left.char_format_at(p.suspect_start).background().color() == colour_a
    # the report paints the source with the same colour
    slot = colour_slots([source_key(s) for s in hand_result.sources])[0]
    assert report_colour(slot) in render_html(hand_result) and report_colour(slot) in render_html(swapped)
    # two sources of one result never share a colour, whatever their identities
    assert len(set(colour_slots([f"{k:064x}" for k in range(10)]))) == 10
