"""Settings in words a teacher understands, from the one declaration the command line reads
too; the collection's own properties shown, not edited; Qt's own dialogs in Russian."""

from __future__ import annotations

import re

import pytest
from PySide6.QtWidgets import QAbstractButton, QComboBox, QFileDialog, QLabel, QMessageBox, QWidget

from sverka.core import api
from sverka.core.api import Settings
from sverka.core.cli import _settings_help
from sverka.core.settings import REBUILD_NOTE, SETTINGS_INFO
from sverka.gui.main_window import INDEXING_FIELDS
from sverka.gui.settings_dialog import SettingsDialog

LATIN_WORD = re.compile(r"[A-Za-z]{2,}")
JARGON = re.compile(r"shingl|winnow|min-?hash|шингл|просеив|_", re.I)


def texts(widget: QWidget) -> list[str]:
    out = []
    for w in [widget, *widget.findChildren(QWidget)]:
        if isinstance(w, (QLabel, QAbstractButton)) and w.isVisibleTo(widget):
            out.append(w.text())
        if w.toolTip():
            out.append(w.toolTip())
        if hasattr(w, "title") and callable(w.title):
            out.append(w.title())
        if isinstance(w, QComboBox):
            out += [w.itemText(i) for i in range(w.count())]
    return [t for t in out if t]


@pytest.fixture
def russian(qapp):
    from sverka.gui.i18n import Translators

    translators = Translators()
    assert translators.switch("ru") == "ru"
    yield translators
    translators.switch("en")


def test_russian_settings_dialog_speaks_plain_russian_with_tooltips(qtbot, russian):
    dialog = SettingsDialog(Settings(), "ru", collection=Settings(shingle_words=5))
    qtbot.addWidget(dialog)
    dialog.show()
    shown = texts(dialog)
    english = [t for t in shown if LATIN_WORD.search(t.replace("SHA-256", "")) and t not in ("English",)]
    assert english == []
    assert not [t for t in shown if JARGON.search(t)]
    for name, editor in dialog._editors.items():
        assert editor.toolTip() == SETTINGS_INFO[name].help_ru  # the declaration's help
    assert dialog.editor("min_passage_words").suffix() == ""  # the unit is in the label: "..., слов"
    assert dialog.editor("min_source_containment").suffix() == " %"
    assert dialog.editor("min_source_containment").text() == "0,5 %"  # a decimal comma, as Russian writes it
    assert dialog.editor("min_passage_words").maximum() == SETTINGS_INFO["min_passage_words"].maximum
    # the collection's properties: its own values, read-only, with what changing them takes
    assert dialog.property_labels["shingle_words"].text() == "5 слов"
    assert SETTINGS_INFO["shingle_words"].shown(4, "ru") == "4 слова"
    assert SETTINGS_INFO["shingle_words"].shown(21, "ru") == "21 слово"
    assert dialog.rebuild_note.text() == REBUILD_NOTE["ru"]
    # each property says what it changes: adjectives what is stored, words per run one figure
    assert dialog.property_help["drop_adjectives"].text() == SETTINGS_INFO["drop_adjectives"].help_ru
    assert "зависит, что хранит коллекция" in dialog.property_help["drop_adjectives"].text()
    assert "только показатель «Сходство»" in dialog.property_help["shingle_words"].text()
    assert "создайте новую коллекцию" in dialog.rebuild_note.text()
    assert "shingle_words" not in dialog._editors
    assert dialog.settings() == Settings()  # the collection's value is not a check setting


def test_english_dialog_and_command_line_share_the_declaration(qtbot):
    dialog = SettingsDialog(Settings(), "en")
    qtbot.addWidget(dialog)
    helps = _settings_help()
    for name, info in SETTINGS_INFO.items():
        assert helps[name].startswith(f"{info.label_en}: {info.help_en}".replace("%", "%%"))
        if name in dialog._editors:
            assert dialog.editor(name).toolTip() == info.help_en
    assert dialog.editor("crosscheck_threshold").value() == 10.0  # a share shown as a percentage


def test_window_dialog_shows_the_collections_properties(qtbot, window):
    window.collection_settings = Settings(drop_adjectives=True)
    window.open_settings()
    dialog = window._settings_dialog
    assert dialog.property_labels["drop_adjectives"].text() == "yes"
    assert set(dialog.property_labels) == set(INDEXING_FIELDS) == set(api.Settings.indexing_fields())
    dialog.reject()


def test_qt_dialogs_are_russian_in_the_russian_window(qtbot, russian):
    """PySide6's qtbase_ru.qm is loaded, and the few labels it leaves in English are ours."""
    from PySide6.QtCore import QCoreApplication

    assert QCoreApplication.translate("QPlatformTheme", "Cancel") == "Отмена"  # from qtbase_ru.qm
    for mode in (QFileDialog.FileMode.ExistingFiles, QFileDialog.FileMode.Directory):
        d = QFileDialog(None, "Выбор")
        d.setOption(QFileDialog.Option.DontUseNativeDialog, True)
        d.setFileMode(mode)
        qtbot.addWidget(d)
        d.show()
        english = [t for t in texts(d) if LATIN_WORD.search(t) and "/" not in t]
        assert english == [], english
    box = QMessageBox(QMessageBox.Icon.Question, "Сверка", "Удалить?",
                      QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No | QMessageBox.StandardButton.Ok)
    qtbot.addWidget(box)
    assert sorted(b.text() for b in box.buttons()) == ["&Да", "&Нет", "ОК"]


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_every_wrapped_label_of_the_settings_dialog_gets_its_full_height(qtbot, lang):
    """The dialog sizes itself for its wrapped labels (the collection's properties say what
    each changes in two lines): no label is cut, whatever Qt's first size would be."""
    dialog = SettingsDialog(Settings(), lang)
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    wrapped = [w for w in dialog.findChildren(QLabel) if w.wordWrap() and w.isVisible() and w.text()]
    assert len(wrapped) > 10
    cut = [w.text() for w in wrapped if w.height() < w.heightForWidth(w.width())]
    assert cut == []
    unwrapped = [w for w in dialog.findChildren(QLabel) if not w.wordWrap() and w.isVisible() and w.text()]
    assert [w.text() for w in unwrapped if w.width() < w.sizeHint().width()] == []
