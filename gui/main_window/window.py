"""The main window: its layout, its jobs' frame (progress, errors), drops and life cycle.

Its work lives in the parts it is made of (:mod:`.actions`, :mod:`.collection`,
:mod:`.check`, :mod:`.class_check`, :mod:`.crosscheck`); the work itself runs in
:mod:`..jobs`, and a job changes the window only when it reports back, in the GUI thread.
"""

from __future__ import annotations

import logging
import time
from pathlib import Path
from typing import Any, Callable

import shiboken6
from PySide6.QtCore import QEvent, QSettings, QStandardPaths, Qt, QTimer, Signal
from PySide6.QtGui import QCloseEvent, QGuiApplication
from PySide6.QtWidgets import QMainWindow, QMessageBox, QSplitter, QTabWidget, QVBoxLayout, QWidget

from sverka.core import api
from sverka.core.api import CheckResult, CrossCheckResult, Document, SverkaError

from ..batch_view import BatchView
from ..crosscheck_view import CrossCheckView
from ..history import HistoryBar
from ..i18n import message_text
from ..jobs import Job, JobRunner
from ..panels import AcceptsPathDrops, CollectionPanel, ProgressPanel, SuspectPanel
from ..preferences import Preferences
from ..results_view import ResultsView
from .actions import WindowActions
from .check import CheckActions
from .class_check import ClassCheckActions
from .collection import CollectionActions
from .common import OpenCollection
from .crosscheck import CrossCheckActions

log = logging.getLogger(__name__)


def home_folder() -> str:
    """Where a first file dialog opens: the user's documents folder, else the home folder
    (never the program's own folder, the process's current one)."""
    for location in (QStandardPaths.StandardLocation.DocumentsLocation, QStandardPaths.StandardLocation.HomeLocation):
        folder = QStandardPaths.writableLocation(location)
        if folder and Path(folder).is_dir():
            return folder
    return str(Path.home())


class MainWindow(WindowActions, CollectionActions, CheckActions, ClassCheckActions, CrossCheckActions,
                 AcceptsPathDrops, QMainWindow):
    """Sverka's window. ``collection_path`` and ``preferences`` let tests use a temporary home."""

    collectionChanged = Signal()
    resultShown = Signal(object)  # CheckResult
    crossCheckShown = Signal(object)  # CrossCheckResult
    jobFinished = Signal(str, object)  # job name, error (None on success)
    batchShown = Signal(object)  # BatchResult

    TAB_TEXT, TAB_RESULT, TAB_CROSS, TAB_CLASS = range(4)

    def __init__(
        self,
        collection_path: str | Path | None = None,
        preferences: Preferences | None = None,
        translators=None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("sverkaMainWindow")
        self.prefs = preferences or Preferences(QSettings())
        self.translators = translators
        self.collection_path = Path(collection_path) if collection_path else api.default_collection_path()
        #: The address of the shared collection in use (a PostgreSQL server), or "" for the
        #: collection file on this computer (``collection_path``). The preferences remember it
        #: without a password (that comes from ~/.pgpass or PGPASSWORD).
        self.shared_address = self.prefs.shared_collection()
        self.settings = self.prefs.engine_settings()
        self.runner = JobRunner(self)
        self.runner.ended.connect(self._release_when_idle)
        self.current_job: Job | None = None
        self.suspect_document: Document | None = None
        self.result: CheckResult | None = None
        self.cross_result: CrossCheckResult | None = None
        self.batch: api.BatchResult | None = None
        self.class_key = ""  # the shown class's name in the class memory (history.class_key)
        self.open_collection = OpenCollection()  # used only in the runner's collection thread
        self.documents: list[api.DocumentInfo] = []
        self._closing = False

        self.collection_panel = CollectionPanel()
        self.suspect_panel = SuspectPanel()
        self.results_view = ResultsView()
        self.cross_view = CrossCheckView()
        self.batch_view = BatchView()
        self.tabs = QTabWidget()
        self.tabs.setDocumentMode(True)
        self.tabs.addTab(self.suspect_panel, "")
        self.tabs.addTab(self.results_view, "")
        self.tabs.addTab(self.cross_view, "")
        self.tabs.addTab(self.batch_view, "")
        self.history_bar = HistoryBar()
        right = QWidget()
        right_layout = QVBoxLayout(right)
        right_layout.setContentsMargins(0, 0, 0, 0)
        right_layout.setSpacing(2)
        right_layout.addWidget(self.history_bar)
        right_layout.addWidget(self.tabs, 1)
        self.splitter = QSplitter(Qt.Orientation.Horizontal)
        self.splitter.addWidget(self.collection_panel)
        self.splitter.addWidget(right)
        self.splitter.setStretchFactor(0, 0)
        self.splitter.setStretchFactor(1, 1)
        self.splitter.setSizes([380, 900])
        self.setCentralWidget(self.splitter)
        self.tabs.currentChanged.connect(self._tab_changed)
        self.setAcceptDrops(True)

        self.progress = ProgressPanel()
        self.statusBar().addPermanentWidget(self.progress, 1)
        self.progress.cancelRequested.connect(self.cancel_current)
        self.results_view.compare.wholeTextWanted.connect(self.load_whole_source)

        self.batch_view.set_count_classmates(getattr(self.settings, "count_classmates", True))
        self._make_workers_idle_timer()
        self._make_actions()
        self._make_menus()
        self._wire()
        self.retranslate()
        self._restore_geometry()
        QTimer.singleShot(0, self._start)

    def retranslate(self) -> None:
        self.tabs.setTabText(self.TAB_TEXT, self.tr("Text to check"))
        self.tabs.setTabText(self.TAB_RESULT, self.tr("Result"))
        self.tabs.setTabText(self.TAB_CROSS, self.tr("Cross-check"))
        self.tabs.setTabText(self.TAB_CLASS, self.tr("Class"))
        self._retranslate_actions()
        self.suspect_panel.check_button.setText(self.tr("Check"))
        self._update_title()

    # -- startup ---------------------------------------------------------------------------
    def _start(self) -> None:
        self._tell_about_settings_file()
        self.refresh_collection()
        self.restore_last_class()
        self.runner.run(lambda progress, cancel: api.warm_up(), None, name="warm_up")
        self._update_actions()

    def _tell_about_settings_file(self) -> None:
        """Once, when the window opens: the saved settings file could not be read (the defaults
        are in use, the file is left as it is until the user saves settings), or a saved value
        was not used. Silently falling back to the defaults let a teacher check with settings
        other than the ones saved."""
        from ..i18n import current_language
        from ..preferences import settings_file_notes

        notes = settings_file_notes(self.prefs.saved_settings, current_language())
        if notes:
            self.statusBar().showMessage(notes[0], 15000)
            self.notify(QMessageBox.Icon.Warning, "\n\n".join(notes))

    def _restore_geometry(self) -> None:
        geometry = self.prefs.geometry()
        if geometry is None or not self.restoreGeometry(geometry):
            screen = QGuiApplication.primaryScreen()
            avail = screen.availableGeometry() if screen else None
            w, h = 1200, 760
            if avail is not None:
                w, h = min(w, int(avail.width() * 0.9)), min(h, int(avail.height() * 0.9))
            self.resize(w, h)
        for key, widget in (("splitter", self.splitter), ("results", self.results_view.splitter),
                            ("compare", self.results_view.compare.splitter)):
            state = self.prefs.state(key)
            if state is not None:
                widget.restoreState(state)

    def _update_title(self) -> None:
        """The document whose result is shown, else the size of the collection."""
        result = getattr(self, "result", None)
        if result is not None:
            name = result.suspect.title or Path(result.suspect.path or "").name
            self.setWindowTitle(self.tr("%1 \u2014 Sverka").replace("%1", name))
            return
        n = len(self.documents)
        if self.shared_address:
            self.setWindowTitle(self.tr("Sverka \u2014 %n documents in the shared collection").replace("%n", str(n)))
            return
        self.setWindowTitle(self.tr("Sverka \u2014 %n documents in the collection").replace("%n", str(n))
                            if n else self.tr("Sverka"))

    def _tab_changed(self, index: int) -> None:
        if index == self.TAB_CROSS:
            self._fill_crosscheck_tab()
        self._update_history_bar()

    def start_folder(self) -> str:
        """Where a file dialog opens: the folder used last, else the user's documents."""
        folder = self.prefs.last_folder()
        return folder if folder and Path(folder).is_dir() else home_folder()

    # -- foreground jobs -------------------------------------------------------------------
    def _release_when_idle(self, _job: Job) -> None:
        """No job left running: the models only some checks need give their memory back (the
        window with a collection open and a result shown stays small; the next check that needs
        one loads it again in ~0.01 s)."""
        if not self.runner.jobs:
            api.release_idle_models()

    def _foreground(self, name: str, message: str, func, done: Callable[[Any], None], *, write: bool = False) -> Job | None:
        """Run ``func`` with the progress panel; ``done(result)`` on success, errors shown."""
        if self.current_job is not None:
            self.statusBar().showMessage(self.tr("Please wait: another task is running."), 4000)
            return None
        self.progress.start(message)

        def finished(result: Any, error: BaseException | None) -> None:
            self.current_job = None
            self.progress.finish()
            if error is None:
                try:
                    done(result)
                except Exception as exc:  # noqa: BLE001 - a bug in showing the answer is still shown
                    log.exception("showing the result of %s", name)
                    self._show_error(exc)
                    error = exc
            elif isinstance(error, api.Cancelled):
                self.statusBar().showMessage(self.tr("Cancelled."), 5000)
            else:
                self._show_error(error)
            self._update_actions()
            self.jobFinished.emit(name, error)

        self.current_job = self.runner.run(func, finished, progress=self.progress.update_progress,
                                           write=write, name=name)
        self._update_actions()
        return self.current_job

    def cancel_current(self) -> None:
        if self.current_job is not None:
            self.current_job.cancel()
            self.progress.cancelling()

    def _show_error(self, error: BaseException) -> None:
        if isinstance(error, SverkaError):
            text = message_text(error.message) if getattr(error, "message", None) is not None else str(error)
            if getattr(error, "path", None) and getattr(error, "message", None) is not None:
                text = f"{error.path}: {text}"
        elif isinstance(error, NotImplementedError):
            text = self.tr("This part of Sverka is not ready yet.")
        else:
            text = self.tr("Something went wrong inside Sverka (a bug): %1").replace(
                "%1", f"{type(error).__name__}: {error}")
            log.error("worker error: %s", getattr(error, "__sverka_traceback__", error))
        self.statusBar().showMessage(text, 15000)
        box = getattr(self, "_error_box", None)
        # one box lists every error, never a pile of boxes; a box the user closed is deleted
        if box is not None and shiboken6.isValid(box) and box.isVisible():
            self._errors.append(text)
            box.setText(self.tr("%n problems:").replace("%n", str(len(self._errors))))
            box.setDetailedText("\n\n".join(self._errors))
            box.setInformativeText(text)
            return
        self._errors = [text]
        self._error_box = self.notify(QMessageBox.Icon.Warning, text)

    def notify(self, icon: QMessageBox.Icon, text: str, details: str = "") -> QMessageBox:
        """A non-modal message box (never blocks the event loop or a test)."""
        box = QMessageBox(icon, self.tr("Sverka"), text, QMessageBox.StandardButton.Ok, self)
        if details:
            box.setDetailedText(details)
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        box.setWindowModality(Qt.WindowModality.NonModal)
        box.show()
        self._last_message = box
        return box

    # -- drops -----------------------------------------------------------------------------
    def paths_dropped(self, paths: list[Path]) -> None:
        """One file: the text to check; two files: compare them; a folder or more: check a class
        (against the collection and, if the class tab says so, each other)."""
        files = [p for p in paths if p.is_file()]
        folders = [p for p in paths if p.is_dir()]
        if len(files) == 1 and not folders:
            self.load_suspect(files[0])
        elif len(files) == 2 and not folders:
            self.compare_files(files[0], files[1])
        elif folders or len(files) > 2:
            self.check_class(paths)

    def paths_coming(self, paths: list[Path]) -> None:
        """A folder or several files dragged over the window: probably a class; its workers
        start while the teacher drops it (see ClassCheckActions.prepare_class_workers)."""
        if any(p.is_dir() for p in paths) or len(paths) > 2:
            self.prepare_class_workers()

    # -- life cycle ------------------------------------------------------------------------
    def closeEvent(self, event: QCloseEvent) -> None:
        self._closing = True
        if self.runner.jobs:
            self.progress.cancelling()
        t0 = time.monotonic()
        self.runner.shutdown()
        self.open_collection.close()  # its jobs are done
        self.workers_idle.stop()
        api.close_workers()  # the class workers kept between classes: joined, not left to the exit
        log.debug("closed after waiting %.2f s for workers", time.monotonic() - t0)
        self.prefs.set_geometry(self.saveGeometry())
        self.prefs.set_state("splitter", self.splitter.saveState())
        self.prefs.set_state("results", self.results_view.splitter.saveState())
        self.prefs.set_state("compare", self.results_view.compare.splitter.saveState())
        self.prefs.sync()
        super().closeEvent(event)

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)
