"""Results kept between sessions: the bar that says when the shown result was made and with
which settings, and re-checks in one click. Storage is :mod:`sverka.core.store.history`; the
window keeps and reads results in :mod:`.main_window.check`; the classes it checked, in
:class:`ClassMemory`."""

from __future__ import annotations

import hashlib
import json
import logging
import os
import threading
from datetime import datetime, timezone
from pathlib import Path

from PySide6.QtCore import QEvent, Qt, Signal
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QWidget

from sverka.core.api import StoredResult
from sverka.core.settings import Settings, describe_changes

log = logging.getLogger(__name__)


class HistoryBar(QFrame):
    """"Checked on DATE with SETTINGS  [Re-check]" above a result that was kept, not just made."""

    recheckRequested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("historyBar")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.label = QLabel()
        self.label.setObjectName("historyLabel")
        self.label.setWordWrap(True)
        self.label.setTextFormat(Qt.TextFormat.PlainText)
        self.recheck_button = QPushButton()
        self.recheck_button.setObjectName("recheckButton")
        layout = QHBoxLayout(self)
        layout.setContentsMargins(8, 4, 8, 4)
        layout.addWidget(self.label, 1)
        layout.addWidget(self.recheck_button)
        self.recheck_button.clicked.connect(self.recheckRequested)
        self.stored: StoredResult | None = None
        self.current: Settings | None = None
        self.language = "en"
        self.retranslate()
        self.hide()

    def show_stored(self, stored: StoredResult, current: Settings, language: str = "en") -> None:
        self.stored, self.current, self.language = stored, current, language
        self.retranslate()
        self.show()

    def clear(self) -> None:
        self.stored = None
        self.hide()

    def retranslate(self) -> None:
        self.recheck_button.setText(self.tr("Re-check"))
        self.recheck_button.setToolTip(self.tr("Check this document again against the collection as it is now"))
        if self.stored is None:
            self.label.setText("")
            return
        when = self.stored.checked_local.strftime("%d.%m.%Y %H:%M")
        text = self.tr("Kept result: checked on %1.").replace("%1", when)
        changes = describe_changes(self.stored.settings, self.current or self.stored.settings, self.language)
        if changes:
            text += " " + self.tr("Its settings differ from the current ones: %1.").replace("%1", "; ".join(changes))
        else:
            text += " " + self.tr("Same settings as now.")
        self.label.setText(text)

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)


def class_key(paths) -> str:
    """A class's name in :class:`ClassMemory`: the SHA-256 of the folders or files it was
    checked from (sorted, absolute), so the same folder is the same class."""
    names = sorted(str(Path(p).absolute()) for p in paths)
    return hashlib.sha256("\n".join(names).encode("utf-8", "surrogatepass")).hexdigest()


class ClassMemory:
    """The classes checked against one collection, kept beside its kept results
    (``<history>.classes.json``): the essays of the last class (the path and the SHA-256 of
    each, so their kept results are found again after a restart) and each class's switch
    "count classmates in the shares". Small; written whole, atomically."""

    MAX_CLASSES = 200  # switches remembered at most, the oldest forgotten first
    _writing = threading.Lock()  # a class remembered and a switch clicked, in two jobs at once

    def __init__(self, history_file: str | Path) -> None:
        history_file = Path(history_file)
        self.path = history_file.with_name(history_file.name + ".classes.json")

    def _load(self) -> dict:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        return data if isinstance(data, dict) else {}

    def _save(self, data: dict) -> None:
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            tmp = self.path.with_name(self.path.name + ".tmp")
            tmp.write_text(json.dumps(data, ensure_ascii=False, indent=1), encoding="utf-8")
            os.replace(tmp, self.path)
        except OSError as e:  # a class not remembered is no reason to lose its results
            log.warning("class not remembered: %s", e)

    def last(self) -> dict | None:
        """``{"key", "essays": [[path, sha256], ...], "cross", "checked"}`` of the last class, or None."""
        last = self._load().get("last")
        if not isinstance(last, dict) or not isinstance(last.get("essays"), list):
            return None
        return last

    def remember(self, key: str, essays, cross: bool) -> None:
        """The class ``key`` was just checked: its essays as ``(path, sha256)``."""
        with self._writing:
            self._remember(key, essays, cross)

    def _remember(self, key: str, essays, cross: bool) -> None:
        data = self._load()
        data["last"] = {"key": key, "essays": [[str(p), str(s)] for p, s in essays], "cross": bool(cross),
                        "checked": datetime.now(timezone.utc).isoformat(timespec="seconds")}
        self._save(data)

    def count_classmates(self, key: str, default: bool = True) -> bool:
        """The class's switch; a class never switched: ``default`` (the settings' own)."""
        switches = self._load().get("count_classmates")
        value = switches.get(key) if isinstance(switches, dict) else None
        return default if value is None else bool(value)

    def set_count_classmates(self, key: str, count: bool) -> None:
        with self._writing:
            self._set_count_classmates(key, count)

    def _set_count_classmates(self, key: str, count: bool) -> None:
        data = self._load()
        switches = data.get("count_classmates")
        switches = dict(switches) if isinstance(switches, dict) else {}
        switches.pop(key, None)
        switches[key] = bool(count)
        data["count_classmates"] = dict(list(switches.items())[-self.MAX_CLASSES:])
        self._save(data)
