"""Results are kept: reopening a checked document shows its last result with the date and
the settings; Re-check is one click; a class check keeps every essay's result."""

from __future__ import annotations

from PySide6.QtCore import Qt

from sverka.core.store.history import History, history_path

from test_main_window import TIMEOUT, add_and_wait


def open_and_wait(qtbot, window, path):
    with qtbot.waitSignal(window.jobFinished, timeout=TIMEOUT) as finished:
        assert window.load_suspect(path) is not None
    assert finished.args[1] is None


def test_reopening_a_checked_document_shows_its_kept_result(qtbot, tmp_path, prefs, sample_copy):
    from sverka.gui.main_window import MainWindow

    suspect = sample_copy / "suspect.txt"
    w = MainWindow(tmp_path / "collection.sverka", prefs)
    qtbot.addWidget(w)
    with qtbot.waitSignal(w.collectionChanged, timeout=TIMEOUT):
        w.show()
    add_and_wait(qtbot, w, [sample_copy / "collection"])
    open_and_wait(qtbot, w, suspect)
    assert w.history_bar.isHidden()  # never checked: nothing kept
    with qtbot.waitSignal(w.resultShown, timeout=TIMEOUT) as shown:
        w.check()
    first = shown.args[0]
    assert w.history_bar.isHidden()  # a fresh result needs no date
    w.apply_settings(w.settings.replace(min_passage_words=12))
    w.close()
    w.runner.shutdown()

    # the next day: a new window over the same collection
    w2 = MainWindow(tmp_path / "collection.sverka", prefs)
    qtbot.addWidget(w2)
    with qtbot.waitSignal(w2.collectionChanged, timeout=TIMEOUT):
        w2.show()
    with qtbot.waitSignal(w2.resultShown, timeout=TIMEOUT) as shown:
        w2.load_suspect(suspect)
    kept = shown.args[0]
    assert kept.borrowed_percent == first.borrowed_percent and kept.sources == first.sources
    assert w2.tabs.currentIndex() == w2.TAB_RESULT
    bar = w2.history_bar
    assert bar.isVisible()
    text = bar.label.text()
    assert bar.stored.checked_local.strftime("%d.%m.%Y") in text
    assert "Shortest passage that counts: 8 words \u2192 12 words" in text  # checked with 8, now 12
    # re-check in one click: a fresh result with today's settings, kept in its place
    with qtbot.waitSignal(w2.resultShown, timeout=TIMEOUT) as shown:
        qtbot.mouseClick(bar.recheck_button, Qt.MouseButton.LeftButton)
    assert shown.args[0].settings.min_passage_words == 12
    assert bar.isHidden()
    with History(history_path(w2.collection_path)) as h:
        assert h.last(kept.suspect.sha256, str(suspect)).settings.min_passage_words == 12
    w2.runner.shutdown()


def test_a_class_check_keeps_every_essay(qtbot, window, sample_copy, tmp_path):
    add_and_wait(qtbot, window, [sample_copy / "collection"])
    essays = tmp_path / "class"
    essays.mkdir()
    vanka = (sample_copy / "collection" / "Чехов — Ванька.txt").read_text(encoding="utf-8")
    for k in range(3):
        (essays / f"e{k}.txt").write_text(f"Сочинение {k}. " + vanka[k * 500:k * 500 + 1500], encoding="utf-8")
    with qtbot.waitSignal(window.batchShown, timeout=TIMEOUT) as shown:
        window.check_class([essays], cross=False)
    with History(history_path(window.collection_path)) as h:
        assert h.count() == 3
    with qtbot.waitSignal(window.resultShown, timeout=TIMEOUT) as opened:
        window.load_suspect(essays / "e1.txt")
    assert opened.args[0] == shown.args[0].items[1].result
    assert window.history_bar.isVisible()
