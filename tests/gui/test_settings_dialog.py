"""The settings dialog edits every Settings field; preferences persist in QSettings."""

from __future__ import annotations

import dataclasses

from PySide6.QtCore import QByteArray, QSettings
from PySide6.QtWidgets import QCheckBox, QDialogButtonBox

from sverka.core.api import Settings
from sverka.gui.preferences import MAX_RECENT, Preferences
from sverka.gui.settings_dialog import SettingsDialog


def test_every_field_has_an_editor_and_round_trips(qtbot):
    changed = Settings().replace(shingle_words=5, min_passage_words=10, min_source_containment=0.02,
                                 crosscheck_threshold=0.25, exclude_quotes=False,
                                 excluded_sources=("/a/b.txt", "deadbeef"))
    dialog = SettingsDialog(changed, "ru")
    qtbot.addWidget(dialog)
    from sverka.core.settings import COLLECTION_FIELDS

    # every check setting has an editor; the collection's properties are shown, not edited
    assert {f.name for f in dataclasses.fields(Settings)} - set(COLLECTION_FIELDS) == set(dialog._editors)
    assert set(dialog.property_labels) == set(COLLECTION_FIELDS)
    assert dialog.settings() == changed
    assert dialog.chosen_language() == "ru"
    assert dialog.editor("min_source_containment").value() == 2.0  # shown as a percentage


def test_restore_defaults(qtbot):
    dialog = SettingsDialog(Settings().replace(max_gap_words=20, exclude_bibliography=False))
    qtbot.addWidget(dialog)
    dialog.buttons.button(QDialogButtonBox.StandardButton.RestoreDefaults).click()
    assert dialog.settings() == Settings()


def test_edit_and_accept(qtbot):
    dialog = SettingsDialog(Settings())
    qtbot.addWidget(dialog)
    box: QCheckBox = dialog.editor("exclude_quotes")
    box.setChecked(False)
    dialog.editor("min_passage_words").setValue(15)
    assert dialog.settings() == Settings().replace(exclude_quotes=False, min_passage_words=15)


def test_preferences_persist(tmp_path):
    path = str(tmp_path / "s.ini")
    prefs = Preferences(QSettings(path, QSettings.Format.IniFormat))
    assert prefs.engine_settings() == Settings()
    prefs.set_engine_settings(Settings().replace(shingle_words=6, excluded_sources=("x",)))
    prefs.set_language("ru")
    for i in range(MAX_RECENT + 3):
        prefs.add_recent_file(f"/f{i}.txt")
    prefs.add_recent_file("/f5.txt")
    prefs.set_geometry(QByteArray(b"geom"))
    prefs.sync()
    again = Preferences(QSettings(path, QSettings.Format.IniFormat))
    assert again.engine_settings() == Settings().replace(shingle_words=6, excluded_sources=("x",))
    assert again.language() == "ru"
    recent = again.recent_files()
    assert recent[0] == "/f5.txt" and len(recent) == MAX_RECENT and recent.count("/f5.txt") == 1
    assert bytes(again.geometry()) == b"geom"


def test_window_geometry_is_remembered(qtbot, tmp_path, prefs):
    from sverka.gui.main_window import MainWindow

    w = MainWindow(tmp_path / "c.sverka", prefs)
    qtbot.addWidget(w)
    w.resize(700, 510)
    w.close()
    w2 = MainWindow(tmp_path / "c.sverka", prefs)
    qtbot.addWidget(w2)
    assert (w2.width(), w2.height()) == (700, 510)
    w2.runner.shutdown()
