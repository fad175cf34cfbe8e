"""The settings dialog: engine parameters (with their defaults) and the interface language."""

from __future__ import annotations

import dataclasses

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFormLayout,
    QGroupBox,
    QLabel,
    QPlainTextEdit,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from sverka.core.api import Settings

#: Shares (0..1) shown to the user as percentages.
PERCENT_FIELDS = {"min_source_containment", "crosscheck_threshold"}

#: Field ranges: (minimum, maximum) in the unit shown.
RANGES = {
    "shingle_words": (2, 12),
    "winnow_window": (1, 20),
    "minhash_functions": (16, 512),
    "min_passage_words": (1, 200),
    "max_gap_words": (0, 50),
    "min_source_containment": (0.0, 100.0),
    "short_text_similarity": (0.0, 100.0),
    "crosscheck_threshold": (0.0, 100.0),
}

LANGUAGES = (("", QT_TRANSLATE_NOOP("SettingsDialog", "System language")), ("en", "English"), ("ru", "Русский"))


def field_label(name: str) -> str:
    labels = {
        "drop_adjectives": QCoreApplication.translate("SettingsDialog", "Ignore adjectives"),
        "shingle_words": QCoreApplication.translate("SettingsDialog", "Shingle length, words"),
        "winnow_window": QCoreApplication.translate("SettingsDialog", "Winnowing window"),
        "minhash_functions": QCoreApplication.translate("SettingsDialog", "Min-hash functions"),
        "min_passage_words": QCoreApplication.translate("SettingsDialog", "Minimum passage, words"),
        "max_gap_words": QCoreApplication.translate("SettingsDialog", "Bridge edits up to, words"),
        "min_source_containment": QCoreApplication.translate("SettingsDialog", "List a source from, %"),
        "short_text_similarity": QCoreApplication.translate("SettingsDialog", "Short text not unique above, %"),
        "crosscheck_threshold": QCoreApplication.translate("SettingsDialog", "Cross-check: list pairs from, %"),
        "exclude_quotes": QCoreApplication.translate("SettingsDialog", "Do not count quotations"),
        "exclude_bibliography": QCoreApplication.translate("SettingsDialog", "Do not count the bibliography"),
        "excluded_sources": QCoreApplication.translate("SettingsDialog", "Sources not to count (one per line)"),
    }
    return labels.get(name, name.replace("_", " "))


class SettingsDialog(QDialog):
    """Edits a copy of :class:`Settings`; :meth:`settings` returns the edited value."""

    def __init__(self, settings: Settings, language: str = "", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Settings"))
        self.setObjectName("settingsDialog")
        self._editors: dict[str, QWidget] = {}

        engine = QGroupBox(self.tr("Search"))
        form = QFormLayout(engine)
        exclusions = QGroupBox(self.tr("Exclusions"))
        xform = QFormLayout(exclusions)
        for f in dataclasses.fields(Settings):
            editor = self._make_editor(f.name)
            self._editors[f.name] = editor
            target = xform if f.name.startswith("exclude") else form
            if isinstance(editor, QCheckBox):
                editor.setText(field_label(f.name))
                target.addRow(editor)
            else:
                target.addRow(field_label(f.name), editor)

        ui = QGroupBox(self.tr("Interface"))
        uform = QFormLayout(ui)
        self.language = QComboBox()
        self.language.setObjectName("languageCombo")
        for code, name in LANGUAGES:
            self.language.addItem(self.tr(name) if code == "" else name, code)
        self.language.setCurrentIndex(max(0, self.language.findData(language)))
        uform.addRow(self.tr("Language"), self.language)
        self.restart_note = QLabel(self.tr("The new language is applied at once."))
        self.restart_note.setWordWrap(True)
        uform.addRow(self.restart_note)

        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
            | QDialogButtonBox.StandardButton.RestoreDefaults)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        self.buttons.button(QDialogButtonBox.StandardButton.RestoreDefaults).clicked.connect(
            lambda: self.set_settings(Settings()))

        layout = QVBoxLayout(self)
        layout.addWidget(engine)
        layout.addWidget(exclusions)
        layout.addWidget(ui)
        layout.addWidget(self.buttons)
        self.set_settings(settings)

    def _make_editor(self, name: str) -> QWidget:
        default = getattr(Settings(), name)
        if isinstance(default, bool):
            return QCheckBox()
        if isinstance(default, int):
            box = QSpinBox()
            box.setRange(*RANGES.get(name, (0, 10_000)))
            return box
        if isinstance(default, float):
            box = QDoubleSpinBox()
            box.setDecimals(1)
            box.setRange(*RANGES.get(name, (0.0, 100.0)))
            box.setSingleStep(0.5)
            if name in PERCENT_FIELDS or name == "short_text_similarity":
                box.setSuffix(" %")
            return box
        edit = QPlainTextEdit()
        edit.setMaximumHeight(70)
        return edit

    def set_settings(self, settings: Settings) -> None:
        for name, editor in self._editors.items():
            value = getattr(settings, name)
            if isinstance(editor, QCheckBox):
                editor.setChecked(bool(value))
            elif isinstance(editor, QSpinBox):
                editor.setValue(int(value))
            elif isinstance(editor, QDoubleSpinBox):
                editor.setValue(float(value) * 100 if name in PERCENT_FIELDS else float(value))
            elif isinstance(editor, QPlainTextEdit):
                editor.setPlainText("\n".join(value))

    def settings(self) -> Settings:
        values = {}
        for name, editor in self._editors.items():
            if isinstance(editor, QCheckBox):
                values[name] = editor.isChecked()
            elif isinstance(editor, QSpinBox):
                values[name] = editor.value()
            elif isinstance(editor, QDoubleSpinBox):
                values[name] = editor.value() / 100 if name in PERCENT_FIELDS else editor.value()
            elif isinstance(editor, QPlainTextEdit):
                values[name] = tuple(line.strip() for line in editor.toPlainText().splitlines() if line.strip())
        return Settings().replace(**values)

    def editor(self, name: str) -> QWidget:
        return self._editors[name]

    def chosen_language(self) -> str:
        return str(self.language.currentData() or "")
