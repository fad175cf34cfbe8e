"""The real window over the real engine: add a folder, check, side by side, cancel, compare
dropped files, cross-check a folder, export, first run. Small texts, temporary collection."""

from __future__ import annotations

import random
import time
from pathlib import Path

import pytest
from PySide6.QtCore import QMimeData, QPointF, Qt, QUrl
from PySide6.QtGui import QDragEnterEvent, QDropEvent
from PySide6.QtWidgets import QApplication

from sverka.gui.compare_view import SOURCE_PROPERTY
from sverka.gui.models import source_colour

TIMEOUT = 60000


def add_and_wait(qtbot, window, paths):
    with qtbot.waitSignal(window.collectionChanged, timeout=TIMEOUT):
        assert window.add_paths(paths) is not None
    return window.documents


def check_and_wait(qtbot, window):
    with qtbot.waitSignal(window.resultShown, timeout=TIMEOUT) as blocker:
        assert window.check() is not None
    return blocker.args[0]


def drop(widget, paths):
    """Drag local files onto ``widget`` and drop them there, as a file manager does."""
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(p)) for p in paths])
    pos = QPointF(widget.rect().center())
    enter = QDragEnterEvent(pos, Qt.DropAction.CopyAction, mime, Qt.MouseButton.LeftButton,
                            Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(widget, enter)
    assert enter.isAccepted()
    event = QDropEvent(pos, Qt.DropAction.CopyAction, mime, Qt.MouseButton.LeftButton,
                       Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(widget, event)


def test_first_run_offers_the_sample_collection(qtbot, window):
    panel = window.collection_panel
    assert window.documents == []
    assert panel.sample_box.isVisible()
    with qtbot.waitSignal(window.collectionChanged, timeout=TIMEOUT):
        qtbot.mouseClick(panel.sample_button, Qt.MouseButton.LeftButton)
    assert len(window.documents) == 8
    assert not panel.sample_box.isVisible()
    assert "8" in panel.totals.text()
    assert window.suspect_panel.editor.toPlainText().startswith("Сочинение")
    assert window.prefs.sample_offered()


def test_add_folder_check_and_see_passages_side_by_side(qtbot, window, sample_copy):
    docs = add_and_wait(qtbot, window, [sample_copy / "collection"])
    assert len(docs) == 8
    panel = window.collection_panel
    assert panel.model.rowCount() == 8
    titles = {panel.proxy.index(r, 0).data() for r in range(8)}
    assert any("Ванька" in t for t in titles)
    panel.filter.setText("лермонтов")
    assert panel.proxy.rowCount() == 3

    window.load_suspect(sample_copy / "suspect.txt")
    qtbot.waitUntil(lambda: window.suspect_document is not None, timeout=TIMEOUT)
    result = check_and_wait(qtbot, window)
    view = window.results_view
    assert window.tabs.currentIndex() == window.TAB_RESULT
    assert result.sources and "Ванька" in result.sources[0].title
    assert view.model.rowCount() == len(result.sources)
    assert view.borrowed.value.text() == f"{result.borrowed_percent:.1f} %"
    assert view.table.model().index(0, 0).data() == result.sources[0].title

    compare = view.compare
    for src_index, src in enumerate(result.sources):
        for p in src.passages:
            if p.excluded is None:
                mid = (p.suspect_start + p.suspect_end) // 2
                fmt = compare.left.char_format_at(mid)
                assert fmt.property(SOURCE_PROPERTY) is not None
                assert fmt.background().color() == source_colour(compare.slots[fmt.property(SOURCE_PROPERTY)])
    top = result.sources[0]
    p = top.passages[-1]
    for offset in (p.suspect_start, p.suspect_end - 1):
        assert compare.left.char_format_at(offset).background().color() == source_colour(compare.slots[0])
    assert compare.left.char_format_at(p.suspect_end).background().color() != source_colour(compare.slots[0])
    assert compare.right.char_format_at(p.source_start).background().color() == source_colour(compare.slots[0])
    # the highlighted text is the same words on both sides
    assert compare.left.toPlainText()[p.suspect_start:p.suspect_end] == result.suspect_text[p.suspect_start:p.suspect_end]

    # click the passage on the left: the right pane goes to its counterpart
    compare.right.verticalScrollBar().setValue(0)
    compare.right.moveCursor(compare.right.textCursor().MoveOperation.Start)
    compare.left.select(p.suspect_start, p.suspect_start)
    qtbot.mouseClick(compare.left.viewport(), Qt.MouseButton.LeftButton, pos=compare.left.point_of(p.suspect_start + 2))
    assert compare.right.selected_range() == (p.source_start, p.source_end)
    assert compare.right.verticalScrollBar().value() > 0

    # and back: click it on the right, the left pane goes to the suspect's passage
    compare.left.verticalScrollBar().setValue(0)
    compare.left.moveCursor(compare.left.textCursor().MoveOperation.Start)
    qtbot.mouseClick(compare.right.viewport(), Qt.MouseButton.LeftButton, pos=compare.right.point_of(p.source_start + 2))
    assert compare.left.selected_range() == (p.suspect_start, p.suspect_end)


def test_typed_cyrillic_text_is_checked(qtbot, window, sample_copy, type_text):
    add_and_wait(qtbot, window, [sample_copy / "collection"])
    editor = window.suspect_panel.editor
    editor.setFocus()
    phrase = ("Белеет парус одинокой в тумане моря голубом что ищет он в стране далекой что кинул он в краю родном "
              "играют волны ветер свищет и мачта гнется и скрыпит")
    type_text(editor, phrase)
    assert editor.toPlainText() == phrase
    result = check_and_wait(qtbot, window)
    assert result.sources and "Парус" in result.sources[0].title
    assert result.borrowed_percent > 50


def make_essays(folder: Path, n: int, words: int = 120, seed: int = 1) -> list[Path]:
    rng = random.Random(seed)
    vocab = [f"слово{i}" for i in range(3000)]
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for i in range(n):
        p = folder / f"essay{i:03d}.txt"
        p.write_text(" ".join(rng.choice(vocab) for _ in range(words)) + ".", encoding="utf-8")
        paths.append(p)
    return paths


def test_cancel_a_running_indexing_job(qtbot, window, tmp_path):
    make_essays(tmp_path / "many", 400, words=200)
    progress = []
    window.runner.started.connect(lambda job: job.signals.progress.connect(lambda d, t, m: progress.append(d)))
    with qtbot.waitSignal(window.jobFinished, timeout=TIMEOUT) as finished:
        window.add_paths([tmp_path / "many"])
        assert window.progress.isVisible()
        assert not window.act_check.isEnabled()
        qtbot.waitUntil(lambda: bool(progress), timeout=TIMEOUT)
        qtbot.mouseClick(window.progress.cancel_button, Qt.MouseButton.LeftButton)
    assert finished.args[0] == "add"
    qtbot.waitUntil(lambda: window.runner.jobs == [], timeout=TIMEOUT)
    assert window.current_job is None
    assert not window.progress.isVisible()
    assert window.act_check.isEnabled()
    assert "Cancelled" in window.statusBar().currentMessage()
    assert len(window.documents) < 400


def test_close_during_work_cancels_and_waits(qtbot, window, tmp_path):
    make_essays(tmp_path / "many", 400, words=200, seed=2)
    window.add_paths([tmp_path / "many"])
    qtbot.wait(200)
    t0 = time.monotonic()
    window.close()
    assert time.monotonic() - t0 < 20
    assert window.runner.read_pool.activeThreadCount() == 0
    assert window.runner.write_pool.activeThreadCount() == 0


def test_compare_two_dropped_files(qtbot, window, sample_copy, tmp_path):
    a = sample_copy / "suspect.txt"
    b = sample_copy / "collection" / "Чехов — Ванька.txt"
    with qtbot.waitSignal(window.resultShown, timeout=TIMEOUT) as shown:
        drop(window, [a, b])
    result = shown.args[0]
    assert len(result.sources) == 1 and result.sources[0].passages
    assert window.tabs.currentIndex() == window.TAB_RESULT
    p = result.sources[0].passages[0]
    compare = window.results_view.compare
    assert compare.left.char_format_at(p.suspect_start).background().color() == source_colour(compare.slots[0])
    assert compare.right.char_format_at(p.source_start).background().color() == source_colour(compare.slots[0])


def test_one_dropped_file_becomes_the_text_to_check(qtbot, window, sample_copy):
    with qtbot.waitSignal(window.jobFinished, timeout=TIMEOUT):
        drop(window.suspect_panel.editor.viewport(), [sample_copy / "suspect.txt"])
    assert window.suspect_document is not None
    assert window.suspect_panel.editor.toPlainText().startswith("Сочинение")
    assert window.prefs.recent_files() == [str(sample_copy / "suspect.txt")]


def test_drop_on_the_collection_panel_adds(qtbot, window, sample_copy):
    with qtbot.waitSignal(window.collectionChanged, timeout=TIMEOUT):
        drop(window.collection_panel, [sample_copy / "collection" / "Лермонтов — Парус.txt"])
    assert [d.title for d in window.documents] and len(window.documents) == 1


def test_crosscheck_a_folder_then_open_a_pair(qtbot, window, sample_copy, tmp_path):
    essays = tmp_path / "class"
    essays.mkdir()
    vanka = (sample_copy / "collection" / "Чехов — Ванька.txt").read_text(encoding="utf-8")
    (essays / "ivanov.txt").write_text(vanka[:3000], encoding="utf-8")
    (essays / "petrov.txt").write_text("Моё сочинение. " + vanka[1000:3500], encoding="utf-8")
    (essays / "sidorov.txt").write_text((sample_copy / "collection" / "Лермонтов — Бородино.txt")
                                        .read_text(encoding="utf-8"), encoding="utf-8")
    with qtbot.waitSignal(window.crossCheckShown, timeout=TIMEOUT) as shown:
        drop(window, [essays])
    result = shown.args[0]
    view = window.cross_view
    assert window.tabs.currentIndex() == window.TAB_CLASS  # a dropped folder is a class check
    window.tabs.setCurrentIndex(window.TAB_CROSS)  # its cross-check fills the tab when opened
    assert view.matrix_model.rowCount() == 3
    assert view.pairs_model.rowCount() >= 1
    first = view.pairs_model.row_object(0)
    assert {Path(first.a).name, Path(first.b).name} == {"ivanov.txt", "petrov.txt"}
    i = [Path(d).name for d in result.documents].index("ivanov.txt")
    j = [Path(d).name for d in result.documents].index("petrov.txt")
    assert float(view.matrix_model.data(view.matrix_model.index(i, j)) or 0) > 10

    index = view.pairs.model().index(0, 0)
    rect = view.pairs.visualRect(index)
    qtbot.mouseClick(view.pairs.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())  # a real double-click
    with qtbot.waitSignal(window.resultShown, timeout=TIMEOUT) as shown:                   # starts with a press
        qtbot.mouseDClick(view.pairs.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert window.tabs.currentIndex() == window.TAB_RESULT
    assert shown.args[0].sources and shown.args[0].sources[0].passages


def test_export_html_and_pdf(qtbot, window, sample_copy, tmp_path):
    a = sample_copy / "suspect.txt"
    b = sample_copy / "collection" / "Чехов — Ванька.txt"
    with qtbot.waitSignal(window.resultShown, timeout=TIMEOUT):
        window.compare_files(a, b)
    html = window.export(tmp_path / "report.html")
    assert html.read_text(encoding="utf-8").lstrip().lower().startswith("<!doctype html")
    with qtbot.waitSignal(window.jobFinished, timeout=TIMEOUT) as finished:
        pdf = window.export(tmp_path / "report.pdf")
        assert window.current_job is not None  # typeset off the GUI thread, with the progress panel
    assert finished.args == ["export", None]
    data = pdf.read_bytes()
    assert data.startswith(b"%PDF") and len(data) > 2000


def test_settings_are_remembered(qtbot, window, prefs):
    window.apply_settings(window.settings.replace(min_passage_words=12, exclude_quotes=False))
    assert prefs.engine_settings().min_passage_words == 12
    assert prefs.engine_settings().exclude_quotes is False


def test_a_source_can_be_left_out_of_the_score(qtbot, window, sample_copy):
    add_and_wait(qtbot, window, [sample_copy / "collection"])
    window.load_suspect(sample_copy / "suspect.txt")
    qtbot.waitUntil(lambda: window.suspect_document is not None, timeout=TIMEOUT)
    result = check_and_wait(qtbot, window)
    top = result.sources[0]
    menu = window.results_view.source_menu(0)
    with qtbot.waitSignal(window.resultShown, timeout=TIMEOUT) as shown:
        menu.actions()[0].trigger()
    rescored = shown.args[0]
    assert rescored.borrowed_percent < result.borrowed_percent
    assert (top.path or top.sha256) in rescored.left_out  # remembered with this result
    assert window.prefs.engine_settings().excluded_sources == ()  # not with the settings
    assert window.settings.excluded_sources == ()
    same = next(s for s in rescored.sources if s.sha256 == top.sha256)
    assert {p.excluded for p in same.passages} == {"source"}
    left = window.results_view.compare.left
    p = same.passages[0]
    assert left.char_format_at(p.suspect_start).fontItalic()  # shown as not counted
    row = next(r for r in range(window.results_view.model.rowCount())
               if window.results_view.model.row_object(r).sha256 == top.sha256)
    with qtbot.waitSignal(window.resultShown, timeout=TIMEOUT) as again:
        window.results_view.source_menu(row).actions()[0].trigger()
    assert again.args[0].borrowed_percent == pytest.approx(result.borrowed_percent)
    assert again.args[0].left_out == ()
    assert window.prefs.engine_settings().excluded_sources == ()


def test_leaving_a_source_out_of_one_result_does_not_change_the_next_check(qtbot, window, sample_copy, tmp_path):
    add_and_wait(qtbot, window, [sample_copy / "collection"])
    window.load_suspect(sample_copy / "suspect.txt")
    qtbot.waitUntil(lambda: window.suspect_document is not None, timeout=TIMEOUT)
    first = check_and_wait(qtbot, window)
    top = first.sources[0]
    with qtbot.waitSignal(window.resultShown, timeout=TIMEOUT) as shown:
        window.results_view.source_menu(0).actions()[0].trigger()
    assert shown.args[0].borrowed_percent < first.borrowed_percent

    # another student copied from the same source
    source_text = (sample_copy / "collection" / Path(top.path).name).read_text(encoding="utf-8")
    other = tmp_path / "другой.txt"
    other.write_text("Моё сочинение о рассказе. " + source_text[:1500] + " Конец моего сочинения.", encoding="utf-8")
    window.load_suspect(other)
    qtbot.waitUntil(lambda: window.suspect_document is not None and window.suspect_document.path == str(other),
                    timeout=TIMEOUT)
    second = check_and_wait(qtbot, window)
    same = next(s for s in second.sources if s.sha256 == top.sha256)
    assert second.left_out == ()
    assert same.containment > 0.5 and all(p.excluded != "source" for p in same.passages)
    assert second.borrowed_percent > 50


def test_a_collection_of_an_earlier_sverka_is_rebuilt_on_request(qtbot, tmp_path, prefs):
    """The window offers to rebuild an old collection from its texts, and does."""
    import sys

    from PySide6.QtWidgets import QMessageBox

    from sverka.gui.main_window import MainWindow

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "core"))
    try:
        from test_rebuild import TEXTS, format_one
    finally:
        sys.path.pop(0)
    path = tmp_path / "old.sverka"
    format_one(path)
    w = MainWindow(path, prefs)
    qtbot.addWidget(w)
    with qtbot.waitSignal(w.collectionChanged, timeout=20000):
        w.show()
    box = w._last_message
    assert box.icon() == QMessageBox.Icon.Question and w.documents == []
    with qtbot.waitSignal(w.jobFinished, timeout=60000):
        box.button(QMessageBox.StandardButton.Yes).click()
    qtbot.waitUntil(lambda: len(w.documents) == len(TEXTS), timeout=20000)
    assert (tmp_path / "old.sverka.format1.bak").exists()
    w.runner.shutdown()


def test_remove_asks_first_and_the_title_names_the_checked_document(qtbot, window, sample_copy):
    from PySide6.QtWidgets import QMessageBox

    docs = add_and_wait(qtbot, window, [sample_copy / "collection"])
    assert "8" in window.windowTitle()
    panel = window.collection_panel
    panel.view.selectRow(0)
    box = window.remove_selected()
    assert isinstance(box, QMessageBox) and "1" in box.text()
    assert len(window.documents) == len(docs)  # nothing removed before the answer
    box.button(QMessageBox.StandardButton.No).click()
    assert len(window.documents) == len(docs)
    box = window.remove_selected()
    with qtbot.waitSignal(window.collectionChanged, timeout=TIMEOUT):
        box.button(QMessageBox.StandardButton.Yes).click()
    assert len(window.documents) == len(docs) - 1

    window.load_suspect(sample_copy / "suspect.txt")
    qtbot.waitUntil(lambda: window.suspect_document is not None, timeout=TIMEOUT)
    result = check_and_wait(qtbot, window)
    assert window.windowTitle() == f"{result.suspect.title} \u2014 Sverka"


def test_a_long_source_s_whole_text_is_read_from_the_collection(qtbot, window, tmp_path, monkeypatch):
    """A source longer than what a result carries whole comes as excerpts; "Whole text" reads
    it from the collection and shows it; once the document is gone, the window says so and
    the excerpts stay."""
    from sverka.core import windows

    rng = random.Random(5)
    words = ("дубрава река поле лес туман берег ветер тропа камень дорога облако вечер утро "
             "звезда сад мост озеро холм поляна ручей").split()
    sentences = [" ".join(rng.choice(words) for _ in range(9)).capitalize() + "." for _ in range(3000)]
    borrowed = ("Старый смотритель маяка каждый вечер поднимался по винтовой лестнице, чтобы зажечь большую "
                "лампу, и корабли у скалистого берега полагались на её луч, обходя опасный риф.")
    novel = " ".join(sentences[:1500]) + " " + borrowed + " " + " ".join(sentences[1500:])
    assert len(novel) > windows.EXCERPTS_ABOVE
    (tmp_path / "lib").mkdir()
    (tmp_path / "lib" / "novel.txt").write_text(novel, encoding="utf-8")
    add_and_wait(qtbot, window, [tmp_path / "lib"])
    suspect = tmp_path / "essay.txt"
    suspect.write_text("Мой доклад о маяках. " + borrowed + " Так я провёл лето.", encoding="utf-8")
    window.load_suspect(suspect)
    qtbot.waitUntil(lambda: window.suspect_document is not None, timeout=TIMEOUT)
    result = check_and_wait(qtbot, window)
    src = result.sources[0]
    assert src.excerpts is not None and src.text == ""
    compare = window.results_view.compare
    assert compare.whole_button.isVisibleTo(compare) and len(compare.right.toPlainText()) < len(novel)
    qtbot.mouseClick(compare.whole_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: compare.right.toPlainText() == novel, timeout=TIMEOUT)
    p = src.passages[0]
    assert compare.source_span(p) == (p.source_start, p.source_end)
    assert novel[p.source_start:p.source_end] in borrowed

    # a result whose source the collection no longer holds: the excerpts stay, the window says why
    import dataclasses

    from sverka.gui.main_window import collection as collection_actions

    told = []
    monkeypatch.setattr(collection_actions.QMessageBox, "information", lambda *args: told.append(args[2]))
    gone = dataclasses.replace(result, sources=(dataclasses.replace(src, source_id=src.source_id + 1000),))
    compare.set_result(gone)
    shown = compare.right.toPlainText()
    qtbot.mouseClick(compare.whole_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: bool(told), timeout=TIMEOUT)
    assert "no longer holds" in told[0] and compare.right.toPlainText() == shown and compare.whole_button.isEnabled()
