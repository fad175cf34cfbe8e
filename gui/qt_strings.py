"""Strings of Qt's own dialogs that PySide6's qtbase_ru.qm leaves in English (labels with
a mnemonic). Declared here so ``lupdate`` keeps them in our .ts; Qt asks our translator
when its own has no answer, so the Russian window's file dialogs and message boxes carry no
English. Nothing imports this module at run time."""

from PySide6.QtCore import QT_TRANSLATE_NOOP

QT_GAPS = (
    QT_TRANSLATE_NOOP("QFileDialog", "&Look in:"),
    QT_TRANSLATE_NOOP("QFileDialog", "Files of &type:"),
    QT_TRANSLATE_NOOP("QPlatformTheme", "OK"),
)
