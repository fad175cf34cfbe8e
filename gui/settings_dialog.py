"""The settings dialog: check settings in plain words, the collection's own properties, the
interface language.

Every label, tooltip, unit and range comes from the one declaration of the settings
(:data:`sverka.core.settings.SETTINGS_INFO`), which the command line's help reads too. What is
fixed when the collection is built (whether adjectives are ignored...) is shown as the
collection's properties, read-only, each with what it changes and what changing it would
take; a check always uses the collection's.
"""

from __future__ import annotations

from PySide6.QtCore import QT_TRANSLATE_NOOP, QLocale, Qt
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFormLayout,
    QGridLayout,
    QGroupBox,
    QLabel,
    QPlainTextEdit,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from sverka.core.api import Settings
from sverka.core.settings import REBUILD_NOTE, SETTINGS_INFO, SettingInfo

from .i18n import resolve_language

LANGUAGES = (("", QT_TRANSLATE_NOOP("SettingsDialog", "System language")), ("en", "English"), ("ru", "Русский"))


def field_label(name: str, lang: str = "en") -> str:
    return SETTINGS_INFO[name].label(lang)


class SettingsDialog(QDialog):
    """Edits a copy of :class:`Settings`; :meth:`settings` returns the edited value (the
    collection's properties are passed through unchanged)."""

    def __init__(self, settings: Settings, language: str = "", parent: QWidget | None = None, *,
                 collection: Settings | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Settings"))
        self.setObjectName("settingsDialog")
        self.lang = "ru" if resolve_language(language) == "ru" else "en"
        self._editors: dict[str, QWidget] = {}
        self._settings = settings
        self.collection = collection

        titles = {
            "check": self.tr("What counts as borrowed"),
            "exclusions": self.tr("Quotations and the bibliography"),
            "advanced": self.tr("Search effort (rarely changed)"),
        }
        self.groups: dict[str, QGroupBox] = {}
        for group, title in titles.items():
            box = QGroupBox(title)
            box.setObjectName(f"{group}Group")
            form = QFormLayout(box)
            form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.ExpandingFieldsGrow)
            for name, info in SETTINGS_INFO.items():
                if info.group != group:
                    continue
                editor = self._make_editor(info)
                editor.setToolTip(info.help(self.lang))
                self._editors[name] = editor
                if isinstance(editor, QCheckBox):
                    editor.setText(info.label(self.lang))
                    form.addRow(editor)
                else:
                    unit = info.unit(self.lang)
                    # the unit goes in the label ("..., слов"): a spin box suffix cannot follow
                    # the number's grammar ("2 слова", "5 слов"); a percentage stays a suffix
                    label = QLabel(info.label(self.lang) + (f", {unit}" if unit and unit != "%" else ""))
                    label.setToolTip(info.help(self.lang))
                    label.setWordWrap(True)
                    label.setMinimumWidth(label.fontMetrics().horizontalAdvance("M") * 17)  # at most ~3 lines
                    label.setBuddy(editor)
                    form.addRow(label, editor)
            self.groups[group] = box

        self.properties = QGroupBox(self.tr("This collection (fixed when it was built)"))
        self.properties.setObjectName("collectionGroup")
        pform = QFormLayout(self.properties)
        self.property_labels: dict[str, QLabel] = {}
        self.property_help: dict[str, QLabel] = {}
        shown = collection or settings
        for name, info in SETTINGS_INFO.items():
            if info.group != "collection":
                continue
            value = QLabel(info.shown(getattr(shown, name), self.lang))
            value.setObjectName(f"property_{name}")
            value.setToolTip(info.help(self.lang))
            label = QLabel(info.label(self.lang))
            label.setToolTip(info.help(self.lang))
            pform.addRow(label, value)  # one line each: the row is as tall as its label
            self.property_labels[name] = value
            # what the property changes, in words (the ignored adjectives decide what is stored,
            # the words per run only one figure): shown, not only a tooltip
            what = QLabel(info.help(self.lang))
            what.setObjectName(f"propertyHelp_{name}")
            what.setWordWrap(True)
            what.setForegroundRole(QPalette.ColorRole.PlaceholderText)
            pform.addRow(what)
            self.property_help[name] = what
        self.rebuild_note = QLabel(REBUILD_NOTE[self.lang])
        self.rebuild_note.setObjectName("rebuildNote")
        self.rebuild_note.setWordWrap(True)
        pform.addRow(self.rebuild_note)

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

        grid = QGridLayout()
        grid.addWidget(self.groups["check"], 0, 0)
        grid.addWidget(self.groups["exclusions"], 1, 0)
        grid.addWidget(self.groups["advanced"], 0, 1)
        grid.addWidget(ui, 1, 1)
        grid.addWidget(self.properties, 2, 0, 1, 2)  # the whole width: what each one changes, in words
        grid.setColumnStretch(0, 1)
        grid.setColumnStretch(1, 1)
        layout = QVBoxLayout(self)
        layout.setSizeConstraint(QVBoxLayout.SizeConstraint.SetMinimumSize)  # wrapped labels get their height
        layout.addLayout(grid)
        layout.addWidget(self.buttons)
        self.set_settings(settings)
        self.fit_to_contents()

    def fit_to_contents(self) -> None:
        """As wide as the widest line needs (at least ~68 characters per column) and as tall
        as the wrapped labels need at that width, within the screen: Qt's own first size caps
        a window at 2/3 of the screen and ignores wrapped labels' heights, cutting them."""
        layout = self.layout()
        em = self.fontMetrics().horizontalAdvance("M")
        width = max(self.sizeHint().width(), em * 68)
        screen = self.screen().availableGeometry() if self.screen() is not None else None
        if screen is not None:
            width = min(width, screen.width() - 40)
        height = layout.totalHeightForWidth(width) if layout.hasHeightForWidth() else self.sizeHint().height()
        if screen is not None:
            height = min(height, screen.height() - 60)
        self.resize(width, max(height, self.minimumSizeHint().height()))

    def _make_editor(self, info: SettingInfo) -> QWidget:
        default = getattr(Settings(), info.name)
        unit = info.unit(self.lang)
        if isinstance(default, bool):
            return QCheckBox()
        if isinstance(default, int):
            box = QSpinBox()
            box.setRange(int(info.minimum or 0), int(info.maximum if info.maximum is not None else 10_000))
            if unit == "%":
                box.setSuffix(" %")
            return box
        if isinstance(default, float):
            box = QDoubleSpinBox()
            # "0,5 %" in Russian: the box reads and writes numbers as the window's language does.
            box.setLocale(QLocale(QLocale.Language.Russian if self.lang == "ru" else QLocale.Language.English))
            box.setDecimals(1)
            box.setRange(info.minimum or 0.0, info.maximum if info.maximum is not None else 100.0)
            box.setSingleStep(0.5)
            if unit == "%":
                box.setSuffix(" %")
            return box
        edit = QPlainTextEdit()
        # three lines shown (it scrolls): the dialog fits a small screen with every label whole
        edit.setMaximumHeight(edit.fontMetrics().lineSpacing() * 3 + 2 * edit.frameWidth() + 8)
        edit.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        return edit

    def set_settings(self, settings: Settings) -> None:
        for name, editor in self._editors.items():
            value = getattr(settings, name)
            if isinstance(editor, QCheckBox):
                editor.setChecked(bool(value))
            elif isinstance(editor, QSpinBox):
                editor.setValue(int(value))
            elif isinstance(editor, QDoubleSpinBox):
                editor.setValue(float(value) * 100 if SETTINGS_INFO[name].percent else float(value))
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
                values[name] = editor.value() / 100 if SETTINGS_INFO[name].percent else editor.value()
            elif isinstance(editor, QPlainTextEdit):
                values[name] = tuple(line.strip() for line in editor.toPlainText().splitlines() if line.strip())
        return self._settings.replace(**values)

    def editor(self, name: str) -> QWidget:
        return self._editors[name]

    def chosen_language(self) -> str:
        return str(self.language.currentData() or "")
