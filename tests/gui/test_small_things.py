"""Small consistencies: passage counts in the header and the navigation, words in the text
tab and in the result, "exact copy" only at 100 %, one error box for several errors, the
second model let go once no job runs."""

from __future__ import annotations

import dataclasses
import threading

from PySide6.QtWidgets import QMessageBox

from sverka.core import api
from sverka.core.errors import SverkaError
from sverka.gui.results_view import ResultsView


def test_header_and_navigation_count_the_same_passages(qtbot, hand_result):
    view = ResultsView()
    qtbot.addWidget(view)
    view.set_result(hand_result)
    total = sum(len(s.passages) for s in hand_result.sources)
    counted = sum(1 for s in hand_result.sources for p in s.passages if p.excluded is None)
    assert (counted, total) == (2, 3)
    assert f"passages: {counted} counted of {total}" in view.summary.text()
    assert view.compare.counter.text() == f"{total} passages"


def test_words_in_the_text_tab_are_the_words_of_the_result(qtbot, window):
    text = "Глава 1. В 1886 году — «Ванька»: 9-летний мальчик, т. е. ребёнок... пишет письмо! 2 + 2 = 4."
    window.set_suspect_text(text, "t")
    shown = int(window.suspect_panel.stats.text().split()[0])
    result = api.compare(api.document_from_text(text), api.document_from_text("Другой текст совсем."))
    assert shown == result.suspect.words


def test_exact_copy_is_said_only_at_100_percent(qtbot, hand_result):
    view = ResultsView()
    qtbot.addWidget(view)
    view.set_result(dataclasses.replace(hand_result, exact_duplicate_of="Ванька", borrowed_percent=97.7))
    assert "exact copy" not in view.warning.text() and "same text" in view.warning.text()
    view.set_result(dataclasses.replace(hand_result, exact_duplicate_of="Ванька", borrowed_percent=100.0,
                                        original_percent=0.0))
    assert "exact copy" in view.warning.text()


def test_errors_do_not_pile_up(qtbot, window):
    window._show_error(SverkaError("a.docx: damaged"))
    window._show_error(SverkaError("b.pdf: encrypted"))
    window._show_error(SverkaError("c.txt: empty"))
    boxes = [w for w in window.findChildren(QMessageBox) if w.isVisible()]
    assert len(boxes) == 1
    assert "3" in boxes[0].text()
    assert all(name in boxes[0].detailedText() for name in ("a.docx", "b.pdf", "c.txt"))


def test_the_window_lets_the_second_model_go_when_no_job_runs(qtbot, window, monkeypatch):
    """The e5 judge (~20 MB) is loaded by the checks that need it; the window gives its memory
    back once no job is left running, not while one still is."""
    qtbot.waitUntil(lambda: not window.runner.jobs, timeout=30_000)  # the window's own start-up jobs
    calls = []
    monkeypatch.setattr(api, "release_idle_models", lambda: calls.append(len(window.runner.jobs)) or True)
    gate = threading.Event()
    first = window.runner.run(lambda progress, cancel: gate.wait(10), name="long")
    with qtbot.waitSignal(window.runner.ended, timeout=10_000):
        window.runner.run(lambda progress, cancel: 1, name="short")
    assert calls == []  # the long job still runs
    with qtbot.waitSignal(window.runner.ended, timeout=10_000):
        gate.set()
    assert first.done and calls == [0]
