"""Old Word .doc files in the window: opened as the text to check, added to the collection."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "core"))
from word97 import word97  # noqa: E402

from sverka.core.extract.doc_text import tool  # noqa: E402

from test_main_window import TIMEOUT, add_and_wait  # noqa: E402

pytestmark = pytest.mark.skipif(tool() is None, reason="catdoc is not installed (installer/bootstrap.sh installs it)")

TEXT = ("Ванька Жуков, девятилетний мальчик, отданный три месяца тому назад в ученье к сапожнику "
        "Аляхину, в ночь под Рождество не ложился спать.")


def test_open_and_add_a_doc(qtbot, window, tmp_path):
    path = tmp_path / "Иванов.doc"
    path.write_bytes(word97(TEXT))
    with qtbot.waitSignal(window.jobFinished, timeout=TIMEOUT) as finished:
        window.load_suspect(path)
    assert finished.args == ["open", None]
    assert " ".join(window.suspect_panel.editor.toPlainText().split()) == TEXT
    assert window.suspect_panel.title.text() == "Иванов"
    docs = add_and_wait(qtbot, window, [tmp_path])
    assert [d.format for d in docs] == ["doc"]
