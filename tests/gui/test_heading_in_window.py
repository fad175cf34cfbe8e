"""An essay whose heading is a source's own title, checked in the window: nothing of the
heading (title, the student's name and class, the school) is painted as borrowed, on either
side; the sentence copied below it is."""

from __future__ import annotations

from PySide6.QtGui import QTextCursor

from sverka.gui.compare_view import PASSAGE_PROPERTY

from test_main_window import TIMEOUT, add_and_wait

TITLE = "Горящее сердце Данко: легенда Максима Горького о смелом юноше и народе"
SOURCE = (f"{TITLE}\n\n"
          "Легенда о Данко рассказывает о юноше, который вывел свой народ из тёмного леса. "
          "Люди жили в степи, но пришли сильные племена и прогнали их в глубину леса, где были болота. "
          "Данко вырвал из груди своё сердце, и оно пылало ярко, как солнце, освещая путь людям. "
          "Когда люди вышли из леса, Данко упал и умер, а его сердце рассыпалось искрами по степи.")
COPIED = "Данко вырвал из груди своё сердце, и оно пылало ярко, как солнце, освещая путь людям."
OWN = ("Мне кажется, каждый человек должен помогать другим, даже если ему страшно и никто не видит. "
       "Я часто думаю об этом, когда иду зимним вечером из школы мимо тёмного парка.")
HEADING = f"{TITLE}\nСидоров Дмитрий, 9 «Б»\nМБОУ СОШ № 5"
ESSAY = f"{HEADING}\n\n{OWN} {COPIED} {OWN}"


def painted(edit, start: int, end: int) -> list[int]:
    """Offsets in [start, end) of the plain text whose character is painted as part of a passage."""
    out = []
    cursor = QTextCursor(edit.document())
    for k in range(start, end):
        cursor.setPosition(edit.offsets.to_qt(k) + 1)  # the format of the character before the cursor
        if cursor.charFormat().hasProperty(PASSAGE_PROPERTY):
            out.append(k)
    return out


def test_nothing_of_a_heading_like_the_sources_title_is_highlighted(qtbot, window, tmp_path):
    folder = tmp_path / "collection"
    folder.mkdir()
    (folder / "danko.txt").write_text(SOURCE, encoding="utf-8")
    add_and_wait(qtbot, window, [folder])
    window.set_suspect_text(ESSAY)
    with qtbot.waitSignal(window.resultShown, timeout=TIMEOUT):
        window.check()
    result = window.results_view.result
    assert result.sources and result.borrowed_percent > 0
    window.results_view.compare.set_source(0)
    compare = window.results_view.compare
    assert compare.left.toPlainText() == ESSAY
    at = ESSAY.index(COPIED)
    assert painted(compare.left, at, at + len(COPIED))  # the copied sentence is shown as borrowed
    assert painted(compare.left, 0, len(HEADING)) == []  # its title, name, class and school are not
    assert all(p.suspect_start >= len(HEADING) for s in result.sources for p in s.passages)
