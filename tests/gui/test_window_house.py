"""The window's house: a package of parts; jobs capture what they need when queued and
change the window only in the GUI thread; one Collection per open collection, used from
one thread; and the small things of the window (labels and banners that refresh, F3 in
the menu, the first file dialog's folder)."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest
from PySide6.QtCore import QTimer

from sverka.core import api

from test_main_window import TIMEOUT, add_and_wait

MAIN = threading.main_thread()


def test_the_window_is_a_package_of_parts_and_the_cross_check_has_its_own():
    import sverka.gui.main_window as package
    from sverka.gui.main_window import actions, check, class_check, collection, crosscheck, window

    assert Path(package.__file__).name == "__init__.py"
    assert package.MainWindow is window.MainWindow
    for part in (actions.WindowActions, collection.CollectionActions, check.CheckActions,
                 class_check.ClassCheckActions, crosscheck.CrossCheckActions):
        assert part in package.MainWindow.__mro__
    assert "crosscheck" in crosscheck.CrossCheckActions.__dict__
    for module in (actions, check, class_check, collection, crosscheck, window):
        assert len(Path(module.__file__).read_text(encoding="utf-8").splitlines()) < 400


@pytest.fixture
def watched_window(qtbot, tmp_path, prefs):
    """A window that records every attribute set on it from a thread other than the GUI's."""
    from sverka.gui.main_window import MainWindow

    class Watched(MainWindow):
        def __setattr__(self, name, value):
            if threading.current_thread() is not MAIN:
                Watched.foreign.append((name, threading.current_thread().name))
            super().__setattr__(name, value)

    Watched.foreign = []
    w = Watched(tmp_path / "collection.sverka", prefs)
    qtbot.addWidget(w)
    with qtbot.waitSignal(w.collectionChanged, timeout=TIMEOUT):
        w.show()
    yield w
    w.runner.shutdown()


def test_no_worker_thread_writes_window_state_and_one_collection_serves_every_job(
        qtbot, watched_window, sample_copy, tmp_path):
    w = watched_window
    add_and_wait(qtbot, w, [sample_copy / "collection"])
    assert w.collection_settings is not None  # set by the listing's answer, in the GUI thread
    w.set_suspect_text((sample_copy / "suspect.txt").read_text(encoding="utf-8"))
    with qtbot.waitSignal(w.resultShown, timeout=TIMEOUT):
        w.check()
    w.runner.wait()  # Qt ends a pool's threads after waiting for it: the next job has a new one
    with qtbot.waitSignal(w.resultShown, timeout=TIMEOUT):
        w.check()
    essays = tmp_path / "class"
    essays.mkdir()
    for k in range(3):
        (essays / f"e{k}.txt").write_text((sample_copy / "suspect.txt").read_text(encoding="utf-8")[k * 300:],
                                          encoding="utf-8")
    with qtbot.waitSignal(w.batchShown, timeout=TIMEOUT):
        w.check_class([essays], cross=True)
    with qtbot.waitSignal(w.collectionChanged, timeout=TIMEOUT):
        w.refresh_collection()
    assert type(w).foreign == []
    # the first listing opened it; the add, the checks, the class and the listings reused it
    assert w.open_collection.opened == 1
    assert w.open_collection.threads and MAIN.ident not in w.open_collection.threads
    with pytest.raises(RuntimeError, match="own thread"):
        with w.open_collection.use(w.collection_location()):
            pass  # never from the GUI thread: it would wait for the collection


def test_the_open_collection_serves_one_job_at_a_time(tmp_path):
    from sverka.gui.main_window import OpenCollection

    opened = OpenCollection()
    inside, release, errors = threading.Event(), threading.Event(), []

    def first():
        with opened.use(tmp_path / "c.sverka") as c:
            assert c.count() == 0
            inside.set()
            release.wait(10)

    def second():
        try:
            with opened.use(tmp_path / "c.sverka"):
                pass
        except RuntimeError as e:
            errors.append(str(e))

    a = threading.Thread(target=first)
    a.start()
    assert inside.wait(10)
    b = threading.Thread(target=second)
    b.start()
    b.join(10)
    release.set()
    a.join(10)
    assert errors == ["the open collection is used by two jobs at once"]
    b = threading.Thread(target=second)  # once the first is done, another thread may use it
    b.start()
    b.join(10)
    assert errors == ["the open collection is used by two jobs at once"] and opened.opened == 1
    opened.close()
    assert not opened.is_open


def test_a_job_uses_the_settings_and_collection_it_was_queued_with(qtbot, window, sample_copy, tmp_path):
    add_and_wait(qtbot, window, [sample_copy / "collection"])
    window.set_suspect_text((sample_copy / "suspect.txt").read_text(encoding="utf-8"))
    queued = window.settings.replace(min_passage_words=9)
    window.apply_settings(queued)
    gate = threading.Event()
    window.runner.run(lambda progress, cancel: gate.wait(30), None, write=True, name="hold")  # the collection thread waits
    with qtbot.waitSignal(window.resultShown, timeout=TIMEOUT) as shown:
        assert window.check() is not None
        # changed after the check was queued, before it runs: the check keeps what it captured
        window.settings = queued.replace(min_passage_words=30)
        window.collection_path = tmp_path / "elsewhere" / "other.sverka"
        gate.set()
    assert shown.args[0].settings.min_passage_words == 9
    assert shown.args[0].sources  # against the collection it was queued for
    assert not (tmp_path / "elsewhere").exists()


def test_a_rebuild_closes_the_open_collection_first(qtbot, window, sample_copy):
    add_and_wait(qtbot, window, [sample_copy / "collection"])
    opened = window.open_collection.opened
    assert window.open_collection.is_open
    with qtbot.waitSignal(window.jobFinished, timeout=TIMEOUT) as finished:
        window.rebuild_collection()
    assert finished.args[0] == "rebuild"
    assert "up to date" in str(finished.args[1])  # nothing to rebuild here, but it was closed first
    assert not window.open_collection.is_open
    with qtbot.waitSignal(window.collectionChanged, timeout=TIMEOUT):
        window.refresh_collection()
    assert window.open_collection.opened == opened + 1  # opened again, on the file as it is now
    assert len(window.documents) == len(list((sample_copy / "collection").iterdir()))


# -- labels and banners refresh --------------------------------------------------------------
def test_the_passage_label_speaks_of_the_result_shown(qtbot, hand_result):
    import dataclasses

    from sverka.gui.compare_view import CompareView

    view = CompareView()
    qtbot.addWidget(view)
    src = hand_result.sources[0]
    verbatim = dataclasses.replace(hand_result, sources=(dataclasses.replace(
        src, passages=tuple(dataclasses.replace(p, kind="verbatim") for p in src.passages)),))
    view.set_result(verbatim)
    view.next_passage()
    assert view.method_label.text().startswith("verbatim copy")
    other = dataclasses.replace(hand_result, sources=(dataclasses.replace(
        src, passages=tuple(dataclasses.replace(p, kind="inflected") for p in src.passages)),))
    view.set_result(other)  # another essay: no passage in view yet, so no label from the last one
    assert view.method_label.text() == ""
    view.next_passage()
    assert view.method_label.text().startswith("word forms changed")
    view.set_result(dataclasses.replace(hand_result, sources=()))
    assert view.method_label.text() == ""


def test_the_passage_label_follows_the_row_opened_in_the_window(qtbot, window, hand_result):
    import dataclasses

    src = hand_result.sources[0]
    kinds = ("verbatim", "inflected")
    results = [dataclasses.replace(hand_result, sources=(dataclasses.replace(
        src, passages=tuple(dataclasses.replace(p, kind=k) for p in src.passages)),)) for k in kinds]
    compare = window.results_view.compare
    window.show_result(results[0])
    compare.next_passage()
    assert compare.method_label.text().startswith("verbatim copy")
    window.show_result(results[1])
    assert not compare.method_label.text().startswith("verbatim copy")
    assert compare.method_label.text() in ("", compare.passage_label())


def test_the_kept_result_banner_hides_above_another_text(qtbot, window, sample_copy, type_text):
    add_and_wait(qtbot, window, [sample_copy / "collection"])
    suspect = sample_copy / "suspect.txt"
    with qtbot.waitSignal(window.jobFinished, timeout=TIMEOUT):
        window.load_suspect(suspect)
    with qtbot.waitSignal(window.resultShown, timeout=TIMEOUT):
        window.check()
    with qtbot.waitSignal(window.resultShown, timeout=TIMEOUT):  # opened again: its kept result
        window.load_suspect(suspect)
    bar = window.history_bar
    assert bar.isVisible() and window.tabs.currentIndex() == window.TAB_RESULT
    window.tabs.setCurrentIndex(window.TAB_TEXT)
    assert bar.isVisible()  # still the text it was made for
    from PySide6.QtWidgets import QApplication

    QApplication.clipboard().setText("Совсем другой текст, вставленный учителем из письма родителей.")
    window.paste_suspect()
    assert window.tabs.currentIndex() == window.TAB_TEXT and bar.isHidden()
    window.tabs.setCurrentIndex(window.TAB_RESULT)
    assert bar.isVisible()  # the kept result is still the one shown there
    window.tabs.setCurrentIndex(window.TAB_TEXT)
    assert bar.isHidden()
    # typed over: the same
    window.set_suspect_text(suspect.read_text(encoding="utf-8"))
    assert bar.isVisible()
    window.suspect_panel.editor.setFocus()
    type_text(window.suspect_panel.editor, "Ещё")
    assert bar.isHidden()


# -- small things ----------------------------------------------------------------------------
def test_the_menu_names_f3_and_shift_f3_for_the_passages(window):
    assert window.act_next.text().endswith("\tF3")
    assert window.act_prev.text().endswith("\tShift+F3")
    assert window.act_next in window.menu_check.actions() and window.act_prev in window.menu_check.actions()
    assert window.act_next.toolTip() == "Next passage (F3)"


def test_the_first_file_dialog_opens_in_the_documents_or_home_folder(window, monkeypatch, tmp_path):
    from PySide6.QtWidgets import QFileDialog

    from sverka.gui.main_window import home_folder

    program = tmp_path / "program"
    program.mkdir()
    monkeypatch.chdir(program)  # where the program was started from
    asked = []
    monkeypatch.setattr(QFileDialog, "getOpenFileName", staticmethod(lambda parent, title, folder, *a: asked.append(folder) or ("", "")))
    monkeypatch.setattr(QFileDialog, "getOpenFileNames", staticmethod(lambda parent, title, folder, *a: asked.append(folder) or ([], "")))
    monkeypatch.setattr(QFileDialog, "getExistingDirectory", staticmethod(lambda parent, title, folder, *a: asked.append(folder) or ""))
    assert window.prefs.last_folder() == ""
    window.choose_suspect()
    window.choose_files_to_add()
    window.choose_folder_to_add()
    window.choose_folder_to_crosscheck()
    window.choose_folder_to_check_class()
    assert asked and set(asked) == {home_folder()}
    assert Path(home_folder()).is_dir() and Path(home_folder()).resolve() != program.resolve()
    assert Path(home_folder()).resolve() in (Path.home().resolve(), *Path.home().resolve().iterdir())
    window.prefs.set_last_folder(tmp_path)
    window.choose_suspect()
    assert asked[-1] == str(tmp_path)  # then the folder used last
    window.prefs.set_last_folder(tmp_path / "gone")
    window.choose_suspect()
    assert asked[-1] == home_folder()  # a folder that no longer exists: home again
