"""Results kept between sessions: the bar that says when the shown result was made and with
which settings, and re-checks in one click. Storage is :mod:`sverka.core.store.history`."""

from __future__ import annotations

import logging

from PySide6.QtCore import QEvent, Qt, Signal
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QWidget

from sverka.core.errors import SverkaError
from sverka.core.api import History, StoredResult, history_path
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


class KeptResults:
    """The main window's part of keeping results (mixed into :class:`MainWindow`, which
    provides ``collection_path``, ``shared_address``, ``history_bar``, ``show_result``, ``check``...)."""

    def _history(self) -> History:
        return History(self._history_file())

    def _history_file(self):
        """Beside the collection file; for a shared collection, on this computer (each teacher
        keeps the results of their own checks)."""
        return history_path(self.shared_address or self.collection_path, self.collection_path.parent)

    def keep_results(self, results) -> None:
        """Store results as their documents' last ones (call in a worker thread)."""
        results = [r for r in results if r is not None]
        if not results:
            return
        try:
            with self._history() as h:
                for r in results:
                    h.save(r)
        except (SverkaError, OSError) as e:  # a result not kept is no reason to lose it
            log.warning("results not kept: %s", e)

    def kept_result(self, doc) -> StoredResult | None:
        """The last kept result of ``doc`` (call in a worker thread); None if never checked."""
        if not self._history_file().exists():
            return None
        with self._history() as h:
            return h.last(doc.sha256, doc.path)

    def show_stored(self, stored: StoredResult) -> None:
        """Show a kept result as it was, with the bar naming its date and settings."""
        self.show_result(stored.result)
        self.history_bar.show_stored(stored, self.settings, self._report_language())

    def recheck(self):
        self.history_bar.clear()
        return self.check()
