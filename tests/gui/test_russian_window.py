"""No English left in the Russian window: after a check with warnings (extraction, look-alike
letters, a long quotation), every widget's text, tooltip, menu and table cell is walked."""

from __future__ import annotations

import re
import sys
from pathlib import Path

from PySide6.QtCore import QModelIndex, Qt
from PySide6.QtWidgets import (QAbstractButton, QAbstractItemView, QGroupBox, QLabel, QLineEdit, QMenu,
                               QPlainTextEdit, QTabWidget, QTextEdit, QWidget)

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "core"))
from visible_text import Visible  # noqa: E402

from sverka.core import report  # noqa: E402
from sverka.gui import i18n

TIMEOUT = 60000
#: Words that are the same in both languages: formats, units, Unicode names, keys.
NAMES = {"PDF", "HTML", "SHA", "NUL", "FFFD", "UTF", "UTC", "Ctrl", "Shift", "MinHash", "txt", "docx",
         "TXT", "MD", "DOCX", "ODT", "RTF",  # file formats as the collection lists them
         "PostgreSQL"}  # the server of a shared collection




def _texts_of_model(model) -> list[str]:
    out = []
    if model is None:
        return out
    for orientation in (Qt.Orientation.Horizontal, Qt.Orientation.Vertical):
        n = model.columnCount() if orientation == Qt.Orientation.Horizontal else min(model.rowCount(), 200)
        for k in range(n):
            for role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole):
                v = model.headerData(k, orientation, role)
                if isinstance(v, str):
                    out.append(v)

    def walk(parent: QModelIndex, depth: int = 0):
        for r in range(min(model.rowCount(parent), 200)):
            for c in range(model.columnCount(parent)):
                index = model.index(r, c, parent)
                for role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole):
                    v = index.data(role)
                    if isinstance(v, str):
                        out.append(v)
            if depth < 3:
                walk(model.index(r, 0, parent), depth + 1)

    walk(QModelIndex())
    return out


def _menu_texts(menu: QMenu) -> list[str]:
    out = [menu.title()]
    for a in menu.actions():
        out += [a.text(), a.toolTip(), a.statusTip()]
        if a.menu() is not None:
            out += _menu_texts(a.menu())
    return out


def window_texts(window) -> list[str]:
    """Every string the window shows or would show on hover, its own and the documents'."""
    out = [window.windowTitle(), window.statusBar().currentMessage()]
    for w in window.findChildren(QWidget):
        out.append(w.toolTip())
        if isinstance(w, QLabel):
            out.append(w.text())
        elif isinstance(w, QAbstractButton):
            out.append(w.text())
        elif isinstance(w, QLineEdit):
            out += [w.text(), w.placeholderText()]
        elif isinstance(w, QGroupBox):
            out.append(w.title())
        elif isinstance(w, QTabWidget):
            out += [w.tabText(i) for i in range(w.count())] + [w.tabToolTip(i) for i in range(w.count())]
        elif isinstance(w, (QTextEdit, QPlainTextEdit)):
            out += [w.toPlainText(), getattr(w, "placeholderText", lambda: "")()]
        elif isinstance(w, QAbstractItemView):
            out += _texts_of_model(w.model())
    for menu in window.menuBar().findChildren(QMenu):
        out += _menu_texts(menu)
    for a in window.findChildren(type(window.act_check)):
        out += [a.text(), a.toolTip(), a.statusTip()]
    return [t for t in out if t]


def english_left(texts: list[str], documents: list[str]) -> set[str]:
    """Latin-script words of ``texts`` that are not the documents' own text, titles or names."""
    left = set()
    for t in texts:
        for piece in sorted(documents, key=len, reverse=True):
            if piece and piece in t:
                t = t.replace(piece, " ")
        words = set(re.findall(r"[A-Za-z]{2,}", t))
        left |= {w for w in words if not any(w in d for d in documents)}
    return left - NAMES - {w for w in left if re.fullmatch(r"[a-f]+", w)}


def _suspect(sample: Path, folder: Path) -> Path:
    vanka = (sample / "collection" / "Чехов — Ванька.txt").read_text(encoding="utf-8")
    quoted = " ".join(vanka.split()[40:400])
    text = ("Моё сочинение о рассказе Чехова. Я прoчитал его зимой и запомнил надолго.\x00 "  # a Latin о, a NUL
            f"Вот большая цитата из рассказа: «{quoted}» Этим я хотел показать, как живёт мальчик. "
            "Мне кажется, что рассказ очень грустный, но в нём есть надежда.")
    path = folder / "сочинение.txt"
    path.write_text(text, encoding="utf-8")
    return path


def test_no_english_in_the_russian_window_after_a_check_with_warnings(qtbot, window, sample_copy, tmp_path):
    translators = i18n.Translators()
    window.translators = translators
    try:
        window.apply_settings(window.settings, "ru")
        qtbot.waitUntil(lambda: window.suspect_panel.check_button.text() == "Проверить")
        with qtbot.waitSignal(window.collectionChanged, timeout=TIMEOUT):
            window.add_paths([sample_copy / "collection"])
        path = _suspect(sample_copy, tmp_path)
        window.load_suspect(path)
        qtbot.waitUntil(lambda: window.suspect_document is not None, timeout=TIMEOUT)
        assert window.suspect_panel.warnings.text() == "Внимание: удалён 1 символ NUL"
        with qtbot.waitSignal(window.resultShown, timeout=TIMEOUT) as shown:
            window.check()
        result = shown.args[0]
        qtbot.wait(200)
        codes = {w.code for w in (*result.warnings, *result.suspect.warnings)}
        assert {"warning.long_quotation", "warning.lookalike_latin", "warning.nul_removed"} <= codes
        assert result.cited_percent > 30
        banner = window.results_view.warning.text()
        assert "цитата длиннее 40 слов" in banner and "латинская буква, похожая на кириллицу" in banner
        assert window.results_view.cited.caption.text() == "процитировано"

        documents = [result.suspect_text, result.suspect.title, path.name, str(path), str(tmp_path)]
        for d in window.documents:
            documents += [d.title, d.path or "", Path(d.path or "").name]
        for s in result.sources:
            documents += [s.title, s.text, s.path or ""]
        texts = window_texts(window)
        assert len(texts) > 50
        assert english_left(texts + ["Warning: 3 letters"], documents) == {"Warning", "letters"}  # the walk sees
        left = english_left(texts, documents)
        assert not left, (left, [t for t in texts if any(w in t for w in left)][-10:])

        # and the Russian report of that result (the same walk over what a reader sees)
        page = report.render_html(result, lang="ru")
        assert "1 цитата длиннее 40 слов" in page
        seen = Visible()
        seen.feed(page)
        left = english_left(["".join(seen.parts)], documents)
        assert not left, left
    finally:
        translators.switch("en")
