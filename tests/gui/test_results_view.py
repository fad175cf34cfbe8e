"""The result header, warnings and the sources table driving the side-by-side view (hand-made result)."""

from __future__ import annotations

import dataclasses

from PySide6.QtCore import Qt

from sverka.gui.results_view import ResultsView


def make(qtbot, result) -> ResultsView:
    view = ResultsView()
    qtbot.addWidget(view)
    view.resize(1000, 700)
    view.show()
    view.set_result(result)
    return view


def test_percentages_and_tampering_warning_are_prominent(qtbot, hand_result):
    view = make(qtbot, hand_result)
    assert view.borrowed.value.text() == "12.0 %"
    assert view.original.value.text() == "88.0 %"
    assert view.borrowed.value.font().pointSizeF() > 2 * view.font().pointSizeF()
    assert view.warning.isVisible()
    assert "Latin letters that look like Cyrillic" in view.warning.text()
    assert "Words:" in view.summary.text() and "sources: 2" in view.summary.text()


def test_exact_duplicate_is_announced(qtbot, hand_result):
    result = dataclasses.replace(hand_result, exact_duplicate_of="Чехов — Ванька", borrowed_percent=100.0,
                                 original_percent=0.0,  # an exact copy is all borrowed (see test_small_things)
                                 suspect=dataclasses.replace(hand_result.suspect, warnings=()))
    view = make(qtbot, result)
    assert view.warning.isVisible() and "exact copy" in view.warning.text()


def test_no_warning_banner_for_a_clean_text(qtbot, hand_result):
    result = dataclasses.replace(hand_result, suspect=dataclasses.replace(hand_result.suspect, warnings=()))
    view = make(qtbot, result)
    assert not view.warning.isVisible()


def test_selecting_a_source_row_shows_it_on_the_right(qtbot, hand_result):
    view = make(qtbot, hand_result)
    assert view.compare.source_index == 0
    proxy_row = next(r for r in range(2) if view.table.model().index(r, 0).data() == "Лермонтов — Парус")
    rect = view.table.visualRect(view.table.model().index(proxy_row, 0))
    qtbot.mouseClick(view.table.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert view.compare.source_index == 1
    assert view.compare.right.toPlainText().startswith("Михаил Лермонтов")
    # sorting the table keeps the colours and the mapping
    view.table.sortByColumn(0, Qt.SortOrder.AscendingOrder)
    view.compare.set_source(0)
    assert view.table.model().mapToSource(view.table.currentIndex()).row() == 0
