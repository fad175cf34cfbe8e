"""Fixtures of the window tests: offscreen Qt, a temporary collection and settings file."""

from __future__ import annotations

import os

os.environ["QT_QPA_PLATFORM"] = "offscreen"  # before any Qt import

import shutil
from pathlib import Path

import pytest
from PySide6.QtCore import QEvent, QSettings, Qt
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QApplication

from sverka.core.api import (CheckResult, CrossCheckResult, CrossPair, Message, Passage, Settings, SourceMatch, Span,
                             SuspectInfo)

SAMPLE = Path(__file__).resolve().parents[2] / "resources" / "sample"


@pytest.fixture
def prefs(tmp_path):
    from sverka.gui.preferences import Preferences

    return Preferences(QSettings(str(tmp_path / "sverka.ini"), QSettings.Format.IniFormat))


@pytest.fixture
def sample_copy(tmp_path) -> Path:
    """The sample collection and suspect, copied so tests may add or change files."""
    dest = tmp_path / "sample"
    shutil.copytree(SAMPLE, dest)
    for f in dest.rglob("*"):
        if f.is_file():
            f.chmod(0o644)
    return dest


@pytest.fixture
def window(qtbot, tmp_path, prefs):
    from sverka.gui.main_window import MainWindow

    w = MainWindow(tmp_path / "collection.sverka", prefs)
    qtbot.addWidget(w)
    with qtbot.waitSignal(w.collectionChanged, timeout=20000):
        w.show()
    yield w
    w.runner.shutdown()


def _type_text(widget, text: str) -> None:
    for ch in text:
        for kind in (QEvent.Type.KeyPress, QEvent.Type.KeyRelease):
            QApplication.sendEvent(widget, QKeyEvent(kind, Qt.Key.Key_unknown, Qt.KeyboardModifier.NoModifier, ch))


@pytest.fixture
def type_text():
    """Type text key by key (qtbot.keyClicks aborts on Cyrillic on this machine)."""
    return _type_text


# A hand-made result: two sources, an excluded passage inside a quotation, a bibliography,
# a tampering warning; long enough that the panes scroll.
FILLER = "Своё рассуждение автора без заимствований. " * 40
SUSPECT = ("Начало текста. " + "Ванька Жуков девятилетний мальчик не ложился спать в ночь под Рождество. "
           + FILLER + "«Белеет парус одинокой в тумане моря голубом» — сказал поэт. " + FILLER
           + "Дед стоит у ворот и щурит глаза на ярко-красные окна деревенской церкви. "
           + "Список литературы\n1. Чехов А. П. Ванька.")
SOURCE_A = ("Антон Чехов\nВАНЬКА\n" + "Текст источника. " * 60
            + "Ванька Жуков девятилетний мальчик не ложился спать в ночь под Рождество. "
            + "Текст источника. " * 80 + "Дед стоит у ворот и щурит глаза на ярко-красные окна деревенской церкви. ")
SOURCE_B = "Михаил Лермонтов\nПАРУС\nБелеет парус одинокой в тумане моря голубом!\n"


def _span(text: str, piece: str) -> tuple[int, int]:
    start = text.index(piece)
    return start, start + len(piece)


def make_result() -> CheckResult:
    p1 = "Ванька Жуков девятилетний мальчик не ложился спать в ночь под Рождество."
    p2 = "Дед стоит у ворот и щурит глаза на ярко-красные окна деревенской церкви."
    p3 = "Белеет парус одинокой в тумане моря голубом"
    a1, a2 = _span(SUSPECT, p1), _span(SUSPECT, p2)
    s1, s2 = _span(SOURCE_A, p1), _span(SOURCE_A, p2)
    q = _span(SUSPECT, p3)
    b = _span(SOURCE_B, p3)
    quote = _span(SUSPECT, "«Белеет парус одинокой в тумане моря голубом»")
    bib = (SUSPECT.index("Список литературы"), len(SUSPECT))
    src_a = SourceMatch(
        source_id=1, path="/tmp/Ванька.txt", title="Чехов — Ванька", text=SOURCE_A, sha256="a" * 64,
        containment=0.12, resemblance=0.05, sentence_score=0.1,
        passages=(Passage(a1[0], a1[1], s1[0], s1[1], 11, "exact"), Passage(a2[0], a2[1], s2[0], s2[1], 12, "bridged")),
    )
    src_b = SourceMatch(
        source_id=2, path="/tmp/Парус.txt", title="Лермонтов — Парус", text=SOURCE_B, sha256="b" * 64,
        containment=0.0, resemblance=0.01, sentence_score=0.0,
        passages=(Passage(q[0], q[1], b[0], b[1], 7, "sentence", excluded="quote"),),
    )
    return CheckResult(
        suspect=SuspectInfo(path=None, title="Сочинение", chars=len(SUSPECT), words=len(SUSPECT.split()),
                            language="ru", warnings=(Message("warning.lookalike_latin", (("language", "ru"), ("n", 3))),),
                            sha256="c" * 64),
        suspect_text=SUSPECT,
        sources=(src_a, src_b),
        borrowed_percent=12.0,
        original_percent=88.0,
        marked=(Span(quote[0], quote[1], "quote"), Span(bib[0], bib[1], "bibliography")),
        settings=Settings(),
    )


def make_crosscheck() -> CrossCheckResult:
    docs = ("/essays/ivanov.txt", "/essays/petrov.txt", "/essays/sidorov.txt")
    return CrossCheckResult(
        documents=docs,
        pairs=(CrossPair(docs[0], docs[1], 0.8, 0.7, 0.6), CrossPair(docs[1], docs[2], 0.2, 0.15, 0.1)),
        matrix=((0.0, 0.8, 0.05), (0.7, 0.0, 0.2), (0.04, 0.15, 0.0)),
    )


@pytest.fixture
def hand_result() -> CheckResult:
    return make_result()


@pytest.fixture
def hand_crosscheck() -> CrossCheckResult:
    return make_crosscheck()


def pytest_collection_modifyitems(items):
    # The offscreen platform warns on every top-level show; that is not our warning.
    for item in items:
        if "tests/gui/" in str(item.fspath).replace("\\", "/"):
            item.add_marker(pytest.mark.qt_log_ignore("propagateSizeHints"))
