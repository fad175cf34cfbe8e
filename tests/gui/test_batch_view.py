"""Checking a class in the window: drop a folder, every essay against the collection (and
each other), the sortable table, a row side by side, cancel, "Export all"."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from sverka.core import api
from sverka.gui.batch_view import BatchModel, is_classmate

from test_main_window import TIMEOUT, add_and_wait, drop

ORIGINAL = ("Летом мы с друзьями ходили в поход вдоль реки и каждый вечер разводили костёр. "
            "Я научился ставить палатку, варить кашу на огне и различать голоса птиц по утрам. ") * 12

# Sidorov's own words (Petrov's are his own: a classmate sharing them would be a source of his)
SIDOROV_OWN = ("Зимой я хожу в библиотеку рядом со школой и беру книги о путешествиях и далёких странах. "
               "Больше всего мне нравятся рассказы о моряках, которые пересекали океан на парусных кораблях. ") * 3


def make_class(folder: Path, sample: Path) -> Path:
    essays = folder / "class"
    essays.mkdir()
    vanka = (sample / "collection" / "Чехов — Ванька.txt").read_text(encoding="utf-8")
    (essays / "ivanov.txt").write_text("Моё сочинение о рассказе. " + vanka[:2500], encoding="utf-8")
    (essays / "petrov.txt").write_text(ORIGINAL, encoding="utf-8")
    (essays / "sidorov.txt").write_text(SIDOROV_OWN + " " + vanka[200:1800], encoding="utf-8")
    (essays / "broken.docx").write_bytes(b"PK\x03\x04 not really a Word file")
    return essays


@pytest.fixture
def class_window(qtbot, window, sample_copy, tmp_path):
    add_and_wait(qtbot, window, [sample_copy / "collection"])
    return window, make_class(tmp_path, sample_copy)


def cell(view, row: int, col: int) -> str:
    return view.proxy.data(view.proxy.index(row, col)) or ""


def test_drop_a_folder_checks_the_class_against_the_collection_and_each_other(qtbot, class_window):
    window, essays = class_window
    with qtbot.waitSignal(window.batchShown, timeout=TIMEOUT) as shown:
        drop(window, [essays])
    batch: api.BatchResult = shown.args[0]
    assert window.tabs.currentIndex() == window.TAB_CLASS
    names = [Path(it.path).name for it in batch.items]
    assert names == ["broken.docx", "ivanov.txt", "petrov.txt", "sidorov.txt"]  # the walker's order
    by_name = dict(zip(names, batch.items))
    assert by_name["broken.docx"].result is None and api.message_text(by_name["broken.docx"].error, "en")
    ivanov = by_name["ivanov.txt"].result
    assert ivanov.borrowed_percent > 80 and ivanov.sources[0].title.startswith("Чехов")
    petrov = by_name["petrov.txt"].result
    assert [s for s in petrov.sources if not is_classmate(s)] == []  # nothing of the collection
    mates = [s for s in petrov.sources if is_classmate(s)]  # its opening is in sidorov's essay
    assert [Path(s.path).name for s in mates] in ([], ["sidorov.txt"])
    assert petrov.borrowed_percent == (0 if not mates else pytest.approx(mates[0].containment * 100, abs=0.1))
    assert 20 < by_name["sidorov.txt"].result.borrowed_percent < 100
    # the same figures from the collection as checking one essay at a time
    with api.Collection(window.collection_path) as c:
        single = c.check(api.load_document(essays / "sidorov.txt"))
    sidorov = by_name["sidorov.txt"].result
    assert [s for s in sidorov.sources if not is_classmate(s)] == list(single.sources)
    if not any(is_classmate(s) for s in sidorov.sources):
        assert single.borrowed_percent == sidorov.borrowed_percent
    # compared with each other: ivanov and sidorov share Vanka's text
    assert batch.cross is not None
    assert window.cross_view.result is None  # its tab is filled when opened, not while the table appears
    window.tabs.setCurrentIndex(window.TAB_CROSS)
    assert window.cross_view.result is batch.cross and window.cross_result is batch.cross
    window.tabs.setCurrentIndex(window.TAB_CLASS)
    mate = batch.closest_classmate(sidorov.suspect.path)
    assert mate is not None and Path(mate[0]).name in ("ivanov.txt", "petrov.txt") and mate[1] > 0.2

    view = window.batch_view
    assert view.model.rowCount() == 4
    assert not view.table.isColumnHidden(BatchModel.CLASSMATE)
    assert "1" in view.caption.text()  # "3 essays checked, 1 not readable"
    # sortable: by borrowed share, highest first; the unreadable file sorts last
    view.table.sortByColumn(BatchModel.BORROWED, Qt.SortOrder.DescendingOrder)
    shown = [cell(view, r, BatchModel.ESSAY) for r in range(4)]
    assert shown[-1] == "broken.docx"
    shares = [by_name[n].result.borrowed_percent for n in shown[:3]]
    assert shares == sorted(shares, reverse=True)
    assert [cell(view, r, BatchModel.BORROWED) for r in range(3)] == [f"{v:.1f} %" for v in shares]
    row = {n: r for r, n in enumerate(shown)}
    assert cell(view, row["ivanov.txt"], BatchModel.SOURCE).startswith("Чехов — Ванька (")
    if not mates:
        assert cell(view, row["petrov.txt"], BatchModel.BORROWED) == "0.0 %"
        assert cell(view, row["petrov.txt"], BatchModel.ORIGINAL) == "100.0 %"
        assert cell(view, row["petrov.txt"], BatchModel.SOURCE) == "\u2014"
    else:  # the classmate is its main source, marked as one
        assert cell(view, row["petrov.txt"], BatchModel.SOURCE).startswith("sidorov.txt \u00b7 classmate (")
    view.table.sortByColumn(BatchModel.ESSAY, Qt.SortOrder.AscendingOrder)
    assert cell(view, 0, BatchModel.ESSAY) == "broken.docx"

    # a double-click opens the row's result side by side
    view.table.sortByColumn(BatchModel.BORROWED, Qt.SortOrder.DescendingOrder)
    rect = view.table.visualRect(view.proxy.index(row["ivanov.txt"], 0))
    qtbot.mouseClick(view.table.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    with qtbot.waitSignal(window.resultShown, timeout=TIMEOUT) as opened:
        qtbot.mouseDClick(view.table.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert opened.args[0] is ivanov
    assert window.tabs.currentIndex() == window.TAB_RESULT
    assert window.results_view.compare.right.toPlainText() == ivanov.sources[0].text


def test_export_all_writes_one_report_per_essay_named_after_it(qtbot, class_window, tmp_path):
    window, essays = class_window
    with qtbot.waitSignal(window.batchShown, timeout=TIMEOUT):
        window.check_class([essays], cross=False)
    assert window.batch_view.table.isColumnHidden(BatchModel.CLASSMATE)
    out = tmp_path / "reports"
    with qtbot.waitSignal(window.jobFinished, timeout=TIMEOUT) as finished:
        window.export_all(out, "html")
    assert finished.args == ["export_all", None]
    assert sorted(p.name for p in out.iterdir()) == ["ivanov.html", "petrov.html", "sidorov.html"]
    html = (out / "ivanov.html").read_text(encoding="utf-8")
    assert "ivanov" in html and "Ванька" in html


def test_cancel_stops_a_class_check(qtbot, class_window):
    window, essays = class_window
    job = window.check_class([essays])
    assert job is not None and window.progress.isVisible()
    with qtbot.waitSignal(window.jobFinished, timeout=TIMEOUT) as finished:
        window.cancel_current()
    assert finished.args[0] == "batch" and isinstance(finished.args[1], api.Cancelled)
    assert window.batch is None and window.current_job is None
    assert window.act_check_class.isEnabled()


def test_class_check_keeps_the_gui_thread_free(qtbot, class_window):
    """The window answers while a class is checked: a 10 ms timer keeps ticking (the
    100 ms figure under load is bench/bench_batch.py's; here only that nothing runs in the GUI thread)."""
    import time

    from PySide6.QtCore import QTimer

    window, essays = class_window
    ticks: list[float] = []
    timer = QTimer()
    timer.setInterval(10)
    timer.timeout.connect(lambda: ticks.append(time.perf_counter()))
    timer.start()
    start = time.perf_counter()
    with qtbot.waitSignal(window.batchShown, timeout=TIMEOUT):
        window.check_class([essays])
    timer.stop()
    took = time.perf_counter() - start
    # a class checked in the GUI thread would leave no tick until it ends; the class may be
    # checked in threads of the window's process (the meaning layer on), sharing the GIL
    assert len(ticks) >= max(1, int(took / 0.010 * 0.2)), (len(ticks), took)


def _large_classes(monkeypatch) -> None:
    """The test's class of three readable essays counts as enough text for worker processes."""
    from sverka.core import batch

    monkeypatch.setattr(batch, "MIN_PARALLEL", 2)
    monkeypatch.setattr(batch, "parallel_chars", lambda: 0)


def test_a_second_class_uses_the_workers_of_the_first_and_closing_ends_them(qtbot, class_window, monkeypatch):
    """Starting the workers (and its stalls) is paid by the first class only; they end when
    the window closes, or when no class came for a while."""
    import os
    import time

    from sverka.core import batch

    window, essays = class_window
    _large_classes(monkeypatch)
    with qtbot.waitSignal(window.batchShown, timeout=TIMEOUT):
        window.check_class([essays])
    pool = batch._kept.pool
    assert pool is not None and window.workers_idle.isActive()
    pids = set(pool._processes)
    with qtbot.waitSignal(window.batchShown, timeout=TIMEOUT) as shown:
        window.check_class([essays])
    assert batch._kept.pool is pool and set(pool._processes) == pids
    assert [it.result is None for it in shown.args[0].items] == [True, False, False, False]  # broken.docx
    # no class for a while: the window ends them off its thread
    with qtbot.waitSignal(window.runner.ended, timeout=TIMEOUT,
                          check_params_cb=lambda job: job.name == "close_workers"):
        window.workers_idle.timeout.emit()
    assert batch._kept.pool is None
    with qtbot.waitSignal(window.batchShown, timeout=TIMEOUT):
        window.check_class([essays])
    pids = set(batch._kept.pool._processes)
    window.close()
    assert batch._kept.pool is None
    end = time.monotonic() + 10
    while time.monotonic() < end and any(os.path.exists(f"/proc/{p}") for p in pids):
        time.sleep(0.05)
    assert not any(os.path.exists(f"/proc/{p}") for p in pids)


def _drag_over(window, folder):
    from PySide6.QtCore import QMimeData, QPointF, QUrl
    from PySide6.QtGui import QDragEnterEvent
    from PySide6.QtWidgets import QApplication

    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(folder))])
    enter = QDragEnterEvent(QPointF(window.rect().center()), Qt.DropAction.CopyAction, mime,
                            Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(window, enter)
    return enter


def test_a_folder_dragged_over_the_window_starts_the_class_workers_before_the_drop(qtbot, class_window, monkeypatch):
    """After a class large enough for workers, the next class's workers start while its folder
    is dragged over the window."""
    from sverka.core import batch

    window, essays = class_window
    _large_classes(monkeypatch)
    with qtbot.waitSignal(window.batchShown, timeout=TIMEOUT):
        window.check_class([essays])
    batch.close_workers()
    assert batch._kept.pool is None
    with qtbot.waitSignal(window.runner.ended, timeout=TIMEOUT,
                          check_params_cb=lambda job: job.name == "prepare_workers"):
        enter = _drag_over(window, essays)
    assert enter.isAccepted()
    pool = batch._kept.pool
    assert pool is not None and window.workers_idle.isActive()  # ended if no class comes
    with qtbot.waitSignal(window.batchShown, timeout=TIMEOUT):
        drop(window, [essays])
    assert batch._kept.pool is pool  # the class found them ready


def test_a_class_of_little_text_is_checked_in_threads_and_starts_no_workers(qtbot, class_window):
    """A class of ordinary size is checked by threads of the window's process (the engine and
    the meaning layer's encoder release the GIL; nothing to start): no worker processes are
    started or kept for it, nor when its folder is dragged over the window again."""
    from sverka.core import batch

    window, essays = class_window
    batch.close_workers()
    for settle in (False, True):
        if settle:
            _drag_over(window, essays)
        with qtbot.waitSignal(window.batchShown, timeout=TIMEOUT) as shown:
            drop(window, [essays])
        assert batch._kept.pool is None
    by_name = {Path(it.path).name: it.result for it in shown.args[0].items}
    assert by_name["ivanov.txt"].borrowed_percent > 80 and by_name["ivanov.txt"].sources[0].title.startswith("Чехов")


def test_batch_model_is_a_valid_model(qtmodeltester, hand_result):
    from sverka.gui.batch_view import BatchModel, is_classmate

    model = BatchModel()
    model.set_batch(api.BatchResult(items=(api.BatchItem("/x/a.txt", hand_result),
                                           api.BatchItem("/x/b.docx", None, "b.docx: not a Word file"))))
    qtmodeltester.check(model)
    assert model.data(model.index(1, BatchModel.BORROWED)) == "not readable"
    assert model.data(model.index(1, 0), Qt.ItemDataRole.ToolTipRole) == "b.docx: not a Word file"
