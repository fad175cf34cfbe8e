"""The window over a shared collection on a real PostgreSQL server (tests/store/conftest.py):
opened from the File menu's address, remembered without its password, used for adding and
checking, and refused with a clear box for a server that is down or a login that is refused,
in English and in Russian. The collection in use stays when another cannot be opened."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QMessageBox

from pgserver import PASSWORD, _free_port
from sverka.core import api
from sverka.gui import i18n

TIMEOUT = 60000
#: The offscreen platform warns on every top-level show; that is not our warning (as in tests/gui).
pytestmark = pytest.mark.qt_log_ignore("propagateSizeHints")
SAMPLE = Path(__file__).resolve().parents[2] / "resources" / "sample"


@pytest.fixture
def prefs(tmp_path):
    from sverka.gui.preferences import Preferences

    return Preferences(QSettings(str(tmp_path / "sverka.ini"), QSettings.Format.IniFormat))


def _window(qtbot, tmp_path, prefs):
    from sverka.gui.main_window import MainWindow

    w = MainWindow(tmp_path / "collection.sverka", prefs)
    qtbot.addWidget(w)
    with qtbot.waitSignal(w.collectionChanged, timeout=TIMEOUT):
        w.show()
    return w


@pytest.fixture
def window(qtbot, tmp_path, prefs):
    w = _window(qtbot, tmp_path, prefs)
    yield w
    w.runner.shutdown()


def _use(qtbot, window, address: str):
    """Ask the window to use ``address``; the job's error (None when it opened)."""
    with qtbot.waitSignal(window.jobFinished, timeout=TIMEOUT) as blocker:
        assert window.use_shared_collection(address) is not None
    assert blocker.args[0] == "shared"
    return blocker.args[1]


def _box_text(window) -> str:
    box = window._error_box
    assert isinstance(box, QMessageBox) and box.isVisible()
    text = box.text()
    box.close()
    return text


def test_the_file_menu_offers_the_shared_collection(window):
    actions = window.menu_file.actions()
    assert window.act_shared in actions and window.act_local in actions
    assert window.act_shared.text() == "Shared collection\u2026"
    assert window.act_shared.isEnabled() and not window.act_local.isEnabled()  # the file is in use


def test_open_add_check_remember_and_go_back(qtbot, window, tmp_path, prefs, postgres_server, monkeypatch):
    url = postgres_server.create_database()
    assert _use(qtbot, window, url) is None
    assert window.shared_address == url
    remembered = prefs.shared_collection()
    assert remembered.startswith("postgresql://sverka@127.0.0.1:") and PASSWORD not in remembered
    assert "shared collection" in window.windowTitle() and window.act_local.isEnabled()

    folder = tmp_path / "sources"
    shutil.copytree(SAMPLE / "collection", folder)
    with qtbot.waitSignal(window.collectionChanged, timeout=TIMEOUT):
        assert window.add_paths([folder]) is not None
    assert len(window.documents) == len(list(folder.iterdir()))
    with api.Collection(url) as shared:  # written to the server, not to the file
        assert shared.count() == len(window.documents)
    assert not (tmp_path / "collection.sverka").exists() or api.Collection(tmp_path / "collection.sverka").count() == 0

    window.set_suspect_text((SAMPLE / "suspect.txt").read_text(encoding="utf-8"), "suspect")
    with qtbot.waitSignal(window.resultShown, timeout=TIMEOUT) as shown:
        assert window.check() is not None
    result = shown.args[0]
    assert result.sources and all(Path(s.path).parent == folder for s in result.sources)
    kept = list(tmp_path.glob("shared-*.history"))  # this computer keeps its own results, beside its file
    assert len(kept) == 1

    # a new window starts on the remembered collection (the password from the environment)
    monkeypatch.setenv("PGPASSWORD", PASSWORD)
    again = _window(qtbot, tmp_path / "again", prefs)
    try:
        assert again.shared_address == remembered and len(again.documents) == len(window.documents)
    finally:
        again.runner.shutdown()

    with qtbot.waitSignal(window.collectionChanged, timeout=TIMEOUT):
        window.use_local_collection()
    assert window.shared_address == "" and prefs.shared_collection() == "" and window.documents == []
    assert not window.act_local.isEnabled()


def test_a_server_that_is_down_or_a_refused_login_is_shown_and_the_collection_stays(qtbot, window, postgres_server):
    url = postgres_server.create_database()
    assert _use(qtbot, window, url) is None

    port = _free_port()  # nothing listens there
    error = _use(qtbot, window, f"postgresql://sverka:{PASSWORD}@127.0.0.1:{port}/archive")
    assert isinstance(error, api.CollectionError)
    text = _box_text(window)
    assert f"cannot reach the PostgreSQL server 127.0.0.1:{port}" in text and "running" in text
    assert PASSWORD not in text
    assert window.shared_address == url  # still the collection that works

    wrong = url.replace(PASSWORD, "not-the-password")
    assert _use(qtbot, window, wrong) is not None
    text = _box_text(window)
    assert "refused the login of user 'sverka'" in text and "not-the-password" not in text
    assert window.shared_address == url

    box = window.use_shared_collection("/home/teacher/archive.sverka")
    assert isinstance(box, QMessageBox) and "postgresql://user@host/database" in box.text()
    box.close()


def test_the_boxes_speak_russian(qtbot, window, postgres_server):
    translators = i18n.Translators()
    try:
        translators.switch("ru")
        qtbot.waitUntil(lambda: window.act_shared.text() == "Общая коллекция\u2026")  # LanguageChange is posted
        port = _free_port()
        assert _use(qtbot, window, f"postgresql://sverka@127.0.0.1:{port}/archive") is not None
        assert f"не удаётся связаться с сервером PostgreSQL 127.0.0.1:{port}" in _box_text(window)
        wrong = postgres_server.url("postgres", password="not-the-password")
        assert _use(qtbot, window, wrong) is not None
        assert "не пустил пользователя 'sverka'" in _box_text(window)
    finally:
        translators.switch("en")
