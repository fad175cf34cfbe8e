"""A class checked as a whole in the window: a classmate who copies is a source of the
copying essay (and the copied one), in the rows, the sorting, the result and the reports;
the switch that leaves classmates out of the shares is remembered per class; the class
table comes back after a restart; its headers and warnings read."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QFontMetrics

from sverka.core import api
from sverka.gui.batch_view import BatchModel
from sverka.gui.history import ClassMemory, class_key
from sverka.gui.main_window.class_check import counts_classmates_setting

from test_main_window import TIMEOUT, add_and_wait

WORDS = ("дождь река берег лодка рыбак утро туман солнце ветер поле лес тропинка деревня дом окно "
         "бабушка дед внук собака кошка сад яблоня огород забор калитка дорога мост мельница колокол "
         "церковь ярмарка телега лошадь сено амбар печь самовар пирог варенье книга письмо учитель "
         "школа урок доска мел тетрадь перо чернила парта звонок перемена двор качели зима сугроб "
         "санки лыжи каток коньки мороз иней снегирь синица весна ручей капель проталина скворец").split()
VERBS = ("видел помнил любил слушал искал нашёл открыл закрыл рассказал написал прочитал услышал "
         "встретил проводил рисовал строил чинил носил ждал звал").split()


def prose(seed: int, sentences: int) -> str:
    """Sentences no source of the collection and no other essay has (a fixed seed each)."""
    rnd = random.Random(seed)
    out = []
    for _ in range(sentences):
        words = [rnd.choice(WORDS) for _ in range(rnd.randint(7, 11))]
        words.insert(2, rnd.choice(VERBS))
        out.append(" ".join(words).capitalize() + ".")
    return " ".join(out)


def make_copying_class(folder: Path) -> tuple[Path, Path, Path]:
    """Essay B copies about 40 % of its words from essay A; C is on its own."""
    essays = folder / "copying-class"
    essays.mkdir()
    a_text = prose(1, 60)
    a_sentences = a_text.split(". ")
    copied = ". ".join(a_sentences[10:34]) + "."
    b_text = prose(2, 36) + " " + copied
    (essays / "a_orlova.txt").write_text(a_text, encoding="utf-8")
    (essays / "b_sokolov.txt").write_text(b_text, encoding="utf-8")
    (essays / "c_zaitseva.txt").write_text(prose(3, 50), encoding="utf-8")
    return essays / "a_orlova.txt", essays / "b_sokolov.txt", essays / "c_zaitseva.txt"


def classmates_listed(batch: api.BatchResult) -> bool:
    return any(getattr(s, "classmate", False) for it in batch.items if it.result for s in it.result.sources)


def cell(view, row: int, col: int) -> str:
    return view.proxy.data(view.proxy.index(row, col)) or ""


def row_of(view, name: str) -> int:
    return next(r for r in range(view.proxy.rowCount()) if cell(view, r, BatchModel.ESSAY) == name)


@pytest.fixture
def copying_class(qtbot, window, sample_copy, tmp_path):
    add_and_wait(qtbot, window, [sample_copy / "collection"])
    return window, make_copying_class(tmp_path)


def check_class(qtbot, window, folder, cross=True) -> api.BatchResult:
    with qtbot.waitSignal(window.batchShown, timeout=TIMEOUT) as shown:
        assert window.check_class([folder], cross=cross) is not None
    return shown.args[0]


def test_a_classmate_copied_from_is_a_source_of_both_essays_in_rows_results_and_reports(qtbot, copying_class, tmp_path):
    window, (a, b, c) = copying_class
    batch = check_class(qtbot, window, a.parent)
    if not classmates_listed(batch):
        pytest.skip("this Sverka's core does not list classmates as sources yet (SourceMatch.classmate)")
    by_name = {Path(it.path).name: it for it in batch.items}
    res_a, res_b, res_c = (by_name[p.name].result for p in (a, b, c))
    mate_of_b = [s for s in res_b.sources if s.classmate]
    mate_of_a = [s for s in res_a.sources if s.classmate]
    assert [Path(s.path).name for s in mate_of_b] == [a.name]  # the copy shows on both
    assert [Path(s.path).name for s in mate_of_a] == [b.name]
    assert mate_of_b[0].source_id is None and mate_of_b[0].passages
    assert 30 <= res_b.borrowed_percent <= 50  # about 40 % of B is A's, counted in B's share
    assert res_b.borrowed_percent == pytest.approx(mate_of_b[0].containment * 100, abs=1.0)
    assert res_a.borrowed_percent > 0
    assert not [s for s in res_c.sources if s.classmate] and res_c.borrowed_percent == 0

    view = window.batch_view
    view.table.sortByColumn(BatchModel.BORROWED, Qt.SortOrder.DescendingOrder)
    order = [cell(view, r, BatchModel.ESSAY) for r in range(3)]
    assert order[-1] == c.name and set(order[:2]) == {a.name, b.name}  # sorting counts the classmates
    rb = row_of(view, b.name)
    assert cell(view, rb, BatchModel.BORROWED) == f"{res_b.borrowed_percent:.1f} %"
    assert cell(view, rb, BatchModel.SOURCE).startswith(f"{a.name} \u00b7 classmate (")  # the main source, marked
    assert cell(view, row_of(view, a.name), BatchModel.SOURCE).startswith(f"{b.name} \u00b7 classmate (")
    assert cell(view, rb, BatchModel.CLASSMATE).startswith(a.name)

    # B's row opened: the classmate among the sources, marked, side by side
    with qtbot.waitSignal(window.resultShown, timeout=TIMEOUT):
        view.table.activated.emit(view.proxy.index(rb, 0))
    sources = window.results_view.model
    compare = window.results_view.compare
    k = next(i for i, s in enumerate(res_b.sources) if s.classmate)
    compare.set_source(k)
    assert compare.right.toPlainText() == a.read_text(encoding="utf-8")
    assert compare.right_title.text().startswith(f"{a.name} \u00b7 classmate")
    names = [sources.data(sources.index(r, 0)) for r in range(sources.rowCount())]
    assert f"{a.name} \u00b7 classmate" in names
    compare.show_passage(compare._order[0])
    assert compare.left.textCursor().hasSelection() and compare.right.textCursor().hasSelection()

    # Export all: B's and A's reports name the classmate and B's share (their wording is the reports')
    out = tmp_path / "reports"
    with qtbot.waitSignal(window.jobFinished, timeout=TIMEOUT) as finished:
        window.export_all(out, "html")
    assert finished.args == ["export_all", None]
    report_b = (out / "b_sokolov.html").read_text(encoding="utf-8")
    assert "a_orlova" in report_b and f"{res_b.borrowed_percent:.1f}".replace(".", ",") in report_b.replace(".", ",")
    assert "b_sokolov" in (out / "a_orlova.html").read_text(encoding="utf-8")

    # ... and the PDF reports a committee receives: both name the other essay as a classmate, B's its share
    out = tmp_path / "pdf"
    with qtbot.waitSignal(window.jobFinished, timeout=TIMEOUT) as finished:
        window.export_all(out, "pdf")
    assert finished.args == ["export_all", None]
    pdf_b, pdf_a = pdf_words(out / "b_sokolov.pdf"), pdf_words(out / "a_orlova.pdf")
    assert "a_orlova" in pdf_b and "classmate" in pdf_b and f"{res_b.borrowed_percent:.1f}" in pdf_b
    assert "b_sokolov" in pdf_a and "classmate" in pdf_a and f"{res_a.borrowed_percent:.1f}" in pdf_a


def pdf_words(path: Path) -> str:
    import pypdfium2 as pdfium

    pdf = pdfium.PdfDocument(str(path))
    try:
        return " ".join(page.get_textpage().get_text_range() for page in pdf)
    finally:
        pdf.close()


def test_the_switch_leaves_classmates_out_of_the_shares_and_is_remembered_per_class(qtbot, copying_class, tmp_path):
    window, (a, b, c) = copying_class
    batch = check_class(qtbot, window, a.parent)
    view = window.batch_view
    assert view.classmates_box.isChecked() and view.classmates_box.isEnabled()  # a new class: counted
    counted_b = next(it.result for it in batch.items if it.path.endswith(b.name)).borrowed_percent
    window.open_batch_item(next(it for it in batch.items if it.path.endswith(b.name)))  # B's result open
    with qtbot.waitSignal(window.batchShown, timeout=TIMEOUT) as shown:
        view.classmates_box.click()  # the teacher's click: rescored without searching again
    assert not view.classmates_box.isChecked()
    memory = ClassMemory(window._history_file())
    assert memory.count_classmates(class_key([a.parent])) is False
    rescored_b = next(it.result for it in shown.args[0].items if it.path.endswith(b.name))
    assert window.result is rescored_b and window.results_view.result is rescored_b  # the open essay follows
    if classmates_listed(batch) and counts_classmates_setting():
        assert rescored_b.borrowed_percent < counted_b - 20  # A's text no longer counts in B's share
        mate = next(s for s in rescored_b.sources if s.classmate)
        assert mate.passages and all(p.excluded == "classmate" for p in mate.passages)  # still shown

    # another class starts counted; this one comes back with its switch off
    other = tmp_path / "other-class"
    other.mkdir()
    (other / "x.txt").write_text(a.read_text(encoding="utf-8"), encoding="utf-8")
    (other / "y.txt").write_text(c.read_text(encoding="utf-8"), encoding="utf-8")
    check_class(qtbot, window, other)
    assert view.classmates_box.isChecked()
    check_class(qtbot, window, a.parent)
    assert not view.classmates_box.isChecked()
    if hasattr(window.batch.settings, "count_classmates"):  # the class checked again as remembered
        assert window.batch.settings.count_classmates is False


def test_the_class_table_comes_back_after_a_restart(qtbot, copying_class, prefs):
    from sverka.gui.main_window import MainWindow

    window, (a, b, c) = copying_class
    batch = check_class(qtbot, window, a.parent)
    shares = {Path(it.path).name: it.result.borrowed_percent for it in batch.items}
    window.close()
    window.runner.shutdown()

    again = MainWindow(window.collection_path, prefs)
    qtbot.addWidget(again)
    with qtbot.waitSignal(again.batchShown, timeout=TIMEOUT) as shown:
        again.show()
    try:
        restored = shown.args[0]
        assert {Path(it.path).name: it.result.borrowed_percent for it in restored.items} == shares
        view = again.batch_view
        assert view.model.rowCount() == 3
        assert {cell(view, r, BatchModel.ESSAY) for r in range(3)} == {a.name, b.name, c.name}
        assert again.tabs.currentIndex() == again.TAB_TEXT  # filled, not thrown at the teacher
        assert view.export_button.isEnabled()
        if classmates_listed(batch):  # no cross-check kept: the closest classmate from the sources
            assert not view.table.isColumnHidden(BatchModel.CLASSMATE)
            assert cell(view, row_of(view, b.name), BatchModel.CLASSMATE).startswith(a.name)
        with qtbot.waitSignal(again.resultShown, timeout=TIMEOUT) as opened:
            view.table.activated.emit(view.proxy.index(row_of(view, b.name), 0))
        assert opened.args[0].suspect_text == b.read_text(encoding="utf-8")
    finally:
        again.runner.shutdown()


@pytest.mark.parametrize("lang", ["en", "ru"])
@pytest.mark.parametrize("width", [1100, 640])
def test_the_class_headers_read_whole_over_an_empty_table(qtbot, lang, width):
    from sverka.gui.batch_view import BatchView
    from sverka.gui.i18n import Translators

    translators = Translators()
    translators.switch(lang)
    try:
        view = BatchView()
        qtbot.addWidget(view)
        view.resize(width, 400)
        view.show()
        qtbot.waitExposed(view)
        header = view.table.horizontalHeader()
        fm = QFontMetrics(header.font())
        assert view.model.rowCount() == 0
        wrapped = False
        for col in range(view.model.columnCount()):
            if view.table.isColumnHidden(col):
                continue
            text = view.model.headerData(col, Qt.Orientation.Horizontal)
            if lang == "ru":
                assert text != BatchModel.HEADERS[col], text  # translated
            size = header.sectionSize(col)
            if size < fm.horizontalAdvance(text) + fm.height():  # too narrow for one line: wraps between words
                wrapped = True
                assert all(size >= fm.horizontalAdvance(w) + fm.height() for w in text.split()), text
        if wrapped:
            assert header.height() >= 2 * fm.lineSpacing()  # two lines of header, not one cut
        if width >= 1100:
            assert not wrapped  # room enough: one line each
    finally:
        translators.switch("en")


def test_the_warnings_column_says_the_warnings_not_a_number(qtbot, hand_result):
    import dataclasses

    from sverka.core.api import Message
    from sverka.gui.batch_view import BatchView
    from sverka.gui.i18n import message_text

    two = dataclasses.replace(hand_result, warnings=(Message("warning.many_quotations", (("percent", 26.3), ("limit", 25))),))
    view = BatchView()
    qtbot.addWidget(view)
    view.set_batch(api.BatchResult(items=(api.BatchItem("/class/one.txt", hand_result),
                                          api.BatchItem("/class/two.txt", two))))
    model = view.model
    one_cell = model.data(model.index(0, BatchModel.WARNINGS))
    two_cell = model.data(model.index(1, BatchModel.WARNINGS))
    lookalike = message_text(hand_result.suspect.warnings[0])
    assert one_cell and not one_cell.strip().isdigit()
    assert lookalike.startswith(one_cell.rstrip("."))  # its first words
    assert two_cell.endswith("(+1)") and not two_cell.strip().isdigit()
    tip = model.data(model.index(1, BatchModel.WARNINGS), Qt.ItemDataRole.ToolTipRole)
    assert lookalike in tip and message_text(two.warnings[0]) in tip  # every warning listed
    assert not model.data(model.index(0, BatchModel.WARNINGS), Qt.ItemDataRole.DecorationRole).isNull()
    # sorting by warnings still counts them
    assert model.sort_key(BatchModel.WARNINGS)(model.row_object(1)) == 2


def test_class_memory_remembers_the_last_class_and_each_switch(tmp_path):
    memory = ClassMemory(tmp_path / "collection.sverka.history")
    assert memory.last() is None and memory.count_classmates("k1") is True
    memory.remember("k1", [("/c/a.txt", "a" * 64), ("/c/b.txt", "b" * 64)], cross=True)
    memory.set_count_classmates("k1", False)
    memory.set_count_classmates("k2", True)
    again = ClassMemory(tmp_path / "collection.sverka.history")
    assert again.last()["essays"] == [["/c/a.txt", "a" * 64], ["/c/b.txt", "b" * 64]]
    assert again.last()["key"] == "k1" and again.last()["cross"] is True
    assert again.count_classmates("k1") is False and again.count_classmates("k2") is True
    assert again.count_classmates("k3") is True and again.count_classmates("k3", default=False) is False
    assert again.count_classmates("k1", default=True) is False  # the class's own switch wins
    (tmp_path / "collection.sverka.history.classes.json").write_text("{not json", encoding="utf-8")
    assert again.last() is None and again.count_classmates("k1") is True  # damaged: forgotten, never an error
    assert class_key([tmp_path / "x", tmp_path / "y"]) == class_key([tmp_path / "y", tmp_path / "x"])
    assert class_key([tmp_path / "x"]) != class_key([tmp_path / "y"])


def test_the_switch_clicked_twice_ends_as_it_shows(qtbot, copying_class):
    window, (a, b, c) = copying_class
    check_class(qtbot, window, a.parent)
    box = window.batch_view.classmates_box
    box.click()
    box.click()  # again before the first rescoring is back
    qtbot.waitUntil(lambda: not [j for j in window.runner.jobs if j.name == "rescore"], timeout=TIMEOUT)
    assert box.isChecked()
    assert ClassMemory(window._history_file()).count_classmates(class_key([a.parent])) is True
    if classmates_listed(window.batch) and counts_classmates_setting():
        b_result = next(it.result for it in window.batch.items if it.path.endswith(b.name))
        assert b_result.settings.count_classmates is True and b_result.borrowed_percent > 25


def test_rescorings_finishing_out_of_order_leave_the_last_click(qtbot, copying_class, monkeypatch):
    # the two rescorings of a double click may run side by side and the first click's may
    # finish last: the switch remembered (and shown) must still be the last click's
    window, (a, b, c) = copying_class
    check_class(qtbot, window, a.parent)
    asked = []
    monkeypatch.setattr(window.runner, "run", lambda work, done, name="": asked.append((work, done)))
    window.count_classmates(False)
    window.count_classmates(True)
    (work_off, done_off), (work_on, done_on) = asked
    late = work_on(None, None)  # the later click's rescoring runs first ...
    early = work_off(None, None)  # ... and the overtaken one writes nothing
    assert late is not None and early is None
    done_on(late, None)
    done_off(early, None)
    assert ClassMemory(window._history_file()).count_classmates(class_key([a.parent])) is True
    assert window.batch_view.count_classmates() is True
