"""The window reads through Sverka's own limits: a PDF form bomb opened as the suspect is
refused with the message that names it (the path every command uses)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "core"))
from test_own_limits import xobject_tree  # noqa: E402


def test_the_window_names_a_form_bomb(qtbot, window, tmp_path, monkeypatch):
    monkeypatch.delenv("SVERKA_READ_MEMORY_MB", raising=False)  # the user's 1 GB
    monkeypatch.setenv("SVERKA_READ_SECONDS", "60")
    path = xobject_tree(tmp_path / "forms.pdf")
    with qtbot.waitSignal(window.jobFinished, timeout=120000):
        window.load_suspect(path)
    shown = window.statusBar().currentMessage()
    assert "forms.pdf" in shown and ("forms inside forms" in shown or "форм внутри форм" in shown), shown
    assert window.isVisible()
