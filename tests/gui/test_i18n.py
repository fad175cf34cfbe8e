"""Languages: .ts sources compile with lrelease; Russian installs and the window follows live."""

from __future__ import annotations

import shutil
import xml.etree.ElementTree as ET
from pathlib import Path

from PySide6.QtCore import QTranslator

from sverka.gui import i18n

TS = Path(__file__).resolve().parents[2] / "resources" / "translations" / "sverka_ru.ts"


def test_every_russian_message_is_translated():
    messages = list(ET.parse(TS).iter("message"))
    assert len(messages) > 100
    unfinished = [m.find("source").text for m in messages
                  if m.find("translation").get("type") == "unfinished" or not (m.find("translation").text or "")]
    assert unfinished == []
    for m in messages:  # placeholders survive translation
        src, tr = m.find("source").text, m.find("translation").text
        for ph in ("%1", "%2", "%3", "%n"):
            assert (ph in src) == (ph in tr), (src, tr)


def test_the_russian_window_speaks_a_teachers_words_not_jargon():
    # "шинглы", "хэши", "коэффициент Жаккара" mean nothing to a teacher or a committee.
    jargon = ("шингл", "хэш", "хеш", "жаккар")
    bad = [t.text for t in ET.parse(TS).iter("translation") if t.text and any(j in t.text.lower() for j in jargon)]
    assert not bad


def test_build_compiles_ts_to_qm(tmp_path, qapp):
    shutil.copy(TS, tmp_path)
    written = i18n.build(tmp_path)
    assert [p.name for p in written] == ["sverka_ru.qm"]
    tr = QTranslator()
    assert tr.load(str(written[0]))
    assert tr.translate("MainWindow", "Check") == "Проверить"
    assert tr.translate("Methods", "exact match of word sequences (shingles)").startswith("точное совпадение")


def test_language_follows_the_system_or_the_setting(monkeypatch):
    from PySide6.QtCore import QLocale

    assert i18n.resolve_language("ru") == "ru"
    assert i18n.resolve_language("en") == "en"
    monkeypatch.setattr(QLocale, "system", staticmethod(lambda: QLocale("ru_RU")))
    assert i18n.resolve_language("") == "ru"
    monkeypatch.setattr(QLocale, "system", staticmethod(lambda: QLocale("de_DE")))
    assert i18n.resolve_language("") == "en"


def test_switching_language_retranslates_the_open_window(qtbot, window):
    translators = i18n.Translators()
    window.translators = translators
    try:
        window.apply_settings(window.settings, "ru")
        assert window.prefs.language() == "ru"
        qtbot.waitUntil(lambda: window.suspect_panel.check_button.text() == "Проверить")  # LanguageChange is posted
        assert window.tabs.tabText(window.TAB_RESULT) == "Результат"
        assert window.collection_panel.heading.text() == "Коллекция источников"
        from PySide6.QtCore import Qt

        assert window.collection_panel.model.headerData(0, Qt.Orientation.Horizontal) == "Название"
        assert window.results_view.borrowed.caption.text() == "заимствовано"
        window.apply_settings(window.settings, "en")
        qtbot.waitUntil(lambda: window.suspect_panel.check_button.text() == "Check")
    finally:
        translators.switch("en")


def test_every_exclusion_reason_is_worded_in_both_languages_in_the_window_and_the_reports(tmp_path, qapp):
    """A passage set aside says why, in the window (compare_view) and in a report (core i18n),
    in Russian too: a reason added to the engine without its words would show an English key."""
    from PySide6.QtCore import QCoreApplication

    from sverka.core.i18n import RU
    from sverka.core.results import EXCLUSIONS
    from sverka.gui.compare_view import exclusion_name

    for key, english in EXCLUSIONS.items():
        assert exclusion_name(key) == english, key  # the window's English is the reports'
        assert RU.get(english), key
    shutil.copy(TS, tmp_path)
    tr = QTranslator()
    assert tr.load(str(i18n.build(tmp_path)[0]))
    QCoreApplication.installTranslator(tr)
    try:
        for key, english in EXCLUSIONS.items():
            assert exclusion_name(key) not in (english, key), key
    finally:
        QCoreApplication.removeTranslator(tr)
