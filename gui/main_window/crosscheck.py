"""The cross-check: every pair of a folder's documents compared, shown in its own tab."""

from __future__ import annotations

from pathlib import Path
from typing import Sequence

from PySide6.QtWidgets import QFileDialog

from sverka.core import api
from sverka.core.api import CrossCheckResult

from ..jobs import Job
from .common import files_in


class CrossCheckActions:
    """The main window's part that cross-checks a folder (mixed into :class:`MainWindow`)."""

    def choose_folder_to_crosscheck(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, self.tr("Pick a folder of essays"), self.start_folder())
        if folder:
            self.crosscheck([folder])

    def crosscheck(self, paths: Sequence[str | Path]) -> Job | None:
        files = files_in([Path(p) for p in paths])
        if len(files) < 2:
            self.statusBar().showMessage(self.tr("A cross-check needs at least two documents."), 6000)
            return None
        settings = self.settings

        def work(progress, cancel):
            return api.crosscheck([str(f) for f in files], settings=settings, progress=progress, cancel=cancel)

        return self._foreground("crosscheck", self.tr("Cross-checking %n documents\u2026").replace(
            "%n", str(len(files))), work, self.show_crosscheck)

    def show_crosscheck(self, result: CrossCheckResult) -> None:
        self.cross_result = result
        self._cross_pending = None
        self.cross_view.set_result(result)
        self.tabs.setCurrentIndex(self.TAB_CROSS)
        self._update_actions()
        self.crossCheckShown.emit(result)

    def show_crosscheck_later(self, result: CrossCheckResult) -> None:
        """A class's cross-check goes into its tab when the tab is opened: filling its pairs
        and its matrix while the class table appears would add their time to the stall."""
        self._cross_pending = result
        if self.tabs.currentIndex() == self.TAB_CROSS:
            self._fill_crosscheck_tab()

    def _fill_crosscheck_tab(self) -> None:
        pending, self._cross_pending = getattr(self, "_cross_pending", None), None
        if pending is not None:
            self.cross_view.set_result(pending)
