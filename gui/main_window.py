"""The main window: layout, actions and wiring. The work itself runs in :mod:`.jobs`."""

from __future__ import annotations

import logging
import time
from pathlib import Path
from typing import Any, Callable, Sequence

import shiboken6
from PySide6.QtCore import QEvent, QSettings, Qt, QTimer, Signal
from PySide6.QtGui import (
    QAction,
    QCloseEvent,
    QGuiApplication,
    QKeySequence,
)
from PySide6.QtWidgets import (
    QApplication,
    QFileDialog,
    QInputDialog,
    QMainWindow,
    QMessageBox,
    QSplitter,
    QStyle,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from sverka.core import api
from sverka.core.api import CheckResult, CrossCheckResult, Document, SverkaError

from .batch_view import BatchView, ClassCheckActions
from .crosscheck_view import CrossCheckView
from .history import HistoryBar, KeptResults
from .i18n import message_text
from .jobs import Job, JobRunner
from .panels import AcceptsPathDrops, CollectionPanel, ProgressPanel, SuspectPanel
from .preferences import Preferences
from .results_view import ResultsView

log = logging.getLogger(__name__)

#: Settings fixed when a collection is built: a check takes the collection's (declared once,
#: in the settings' declaration; see api.Collection).
INDEXING_FIELDS = api.Settings.indexing_fields()



def sample_folder() -> Path:
    import sverka.resources as res

    return Path(res.__file__).resolve().parent / "sample"


def files_in(paths: Sequence[Path]) -> list[Path]:
    """Files of the given paths, folders expanded recursively (the engine's walker)."""
    return [Path(f) for f in api.document_files(paths)[0]]


class MainWindow(ClassCheckActions, KeptResults, AcceptsPathDrops, QMainWindow):
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
        self.current_job: Job | None = None
        self.suspect_document: Document | None = None
        self.result: CheckResult | None = None
        self.cross_result: CrossCheckResult | None = None
        self.batch: api.BatchResult | None = None
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
        self.setAcceptDrops(True)

        self.progress = ProgressPanel()
        self.statusBar().addPermanentWidget(self.progress, 1)
        self.progress.cancelRequested.connect(self.cancel_current)

        self._make_workers_idle_timer()
        self._make_actions()
        self._make_menus()
        self._wire()
        self.retranslate()
        self._restore_geometry()
        QTimer.singleShot(0, self._start)

    # -- construction ----------------------------------------------------------------------
    def _make_actions(self) -> None:
        style = self.style()
        icon = style.standardIcon
        sp = QStyle.StandardPixmap

        def act(name: str, std=None, shortcut=None, slot: Callable | None = None) -> QAction:
            a = QAction(self)
            a.setObjectName(name)
            if std is not None:
                a.setIcon(icon(std))
            if shortcut is not None:
                a.setShortcut(QKeySequence(shortcut))
            if slot is not None:
                a.triggered.connect(lambda checked=False: slot())
            return a

        self.act_add_files = act("addFiles", sp.SP_FileIcon, None, self.choose_files_to_add)
        self.act_add_folder = act("addFolder", sp.SP_DirIcon, None, self.choose_folder_to_add)
        self.act_remove = act("removeDocuments", sp.SP_TrashIcon, QKeySequence.StandardKey.Delete,
                              lambda: self.remove_selected())
        self.act_remove.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        self.collection_panel.view.addAction(self.act_remove)
        self.act_open = act("openSuspect", sp.SP_DialogOpenButton, QKeySequence.StandardKey.Open,
                            self.choose_suspect)
        self.act_paste = act("pasteSuspect", None, "Ctrl+Shift+V", self.paste_suspect)
        self.act_clear = act("clearSuspect", sp.SP_DialogResetButton, None, self.clear_suspect)
        self.act_check = act("check", sp.SP_MediaPlay, "F5", self.check)
        self.act_compare = act("compareFiles", sp.SP_FileDialogContentsView, "Ctrl+D", self.choose_files_to_compare)
        self.act_cross = act("crossCheck", sp.SP_FileDialogDetailedView, "Ctrl+K", self.choose_folder_to_crosscheck)
        self.act_check_class = act("checkClass", sp.SP_DirOpenIcon, "Ctrl+L", self.choose_folder_to_check_class)
        self.act_export_html = act("exportHtml", sp.SP_DialogSaveButton, "Ctrl+E", lambda: self.choose_export("html"))
        self.act_export_pdf = act("exportPdf", None, "Ctrl+Shift+E", lambda: self.choose_export("pdf"))
        self.act_full_paths = act("reportFullPaths")
        self.act_full_paths.setCheckable(True)
        self.act_full_paths.setChecked(self.prefs.report_full_paths())
        self.act_full_paths.toggled.connect(self.prefs.set_report_full_paths)
        self.act_settings = act("settings", None, QKeySequence.StandardKey.Preferences, self.open_settings)
        self.act_sample = act("loadSample", None, None, self.load_sample)
        self.act_quit = act("quit", None, QKeySequence.StandardKey.Quit, self.close)
        self.act_next = act("nextPassage", sp.SP_ArrowDown, None, self.results_view.compare.next_passage)
        self.act_prev = act("previousPassage", sp.SP_ArrowUp, None, self.results_view.compare.previous_passage)
        self.act_clear_recent = act("clearRecent", None, None, self._clear_recent)
        self.act_shared = act("sharedCollection", None, None, self.choose_shared_collection)
        self.act_local = act("localCollection", None, None, self.use_local_collection)

    def _make_menus(self) -> None:
        bar = self.menuBar()
        self.menu_file = bar.addMenu("")
        self.menu_file.addAction(self.act_open)
        self.menu_recent = self.menu_file.addMenu("")
        self.menu_file.addAction(self.act_paste)
        self.menu_file.addSeparator()
        self.menu_file.addAction(self.act_shared)
        self.menu_file.addAction(self.act_local)
        self.menu_file.addSeparator()
        self.menu_file.addAction(self.act_export_html)
        self.menu_file.addAction(self.act_export_pdf)
        self.menu_file.addAction(self.act_full_paths)
        self.menu_file.addSeparator()
        self.menu_file.addAction(self.act_settings)
        self.menu_file.addSeparator()
        self.menu_file.addAction(self.act_quit)
        self.menu_collection = bar.addMenu("")
        for a in (self.act_add_files, self.act_add_folder, self.act_remove, self.act_sample):
            self.menu_collection.addAction(a)
        self.menu_check = bar.addMenu("")
        for a in (self.act_check, self.act_check_class, self.act_compare, self.act_cross):
            self.menu_check.addAction(a)
        self.menu_check.addSeparator()
        self.menu_check.addAction(self.act_prev)
        self.menu_check.addAction(self.act_next)

        tb = self.toolbar = self.addToolBar("")
        tb.setObjectName("mainToolBar")
        tb.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        tb.setMovable(False)
        for a in (self.act_open, self.act_check, self.act_check_class, None, self.act_compare, self.act_cross, None,
                  self.act_export_html, self.act_export_pdf):
            tb.addSeparator() if a is None else tb.addAction(a)
        self.toolbar = tb
        self._fill_recent_menu()

    def _wire(self) -> None:
        cp = self.collection_panel
        cp.add_files_button.setDefaultAction(self.act_add_files)
        cp.add_folder_button.setDefaultAction(self.act_add_folder)
        cp.remove_button.setDefaultAction(self.act_remove)
        cp.pathsDropped.connect(lambda paths: self.add_paths(paths))
        cp.loadSampleRequested.connect(self.load_sample)
        cp.view.selectionModel().selectionChanged.connect(lambda *_: self._update_actions())
        sp = self.suspect_panel
        sp.open_button.setDefaultAction(self.act_open)
        sp.paste_button.setDefaultAction(self.act_paste)
        sp.clear_button.setDefaultAction(self.act_clear)
        sp.check_button.clicked.connect(self.check)
        sp.editor.filesDropped.connect(self.paths_dropped)
        sp.editor.textChanged.connect(self._suspect_edited)
        self.cross_view.pairActivated.connect(self.compare_files)
        self.results_view.excludeRequested.connect(self.exclude_source)
        self.batch_view.checkClassRequested.connect(self.choose_folder_to_check_class)
        self.batch_view.resultActivated.connect(self.open_batch_item)
        self.batch_view.exportAllRequested.connect(self.choose_export_all)
        self.history_bar.recheckRequested.connect(self.recheck)
        self.runner.ended.connect(lambda job: self._update_actions())

    def retranslate(self) -> None:
        self.tabs.setTabText(self.TAB_TEXT, self.tr("Text to check"))
        self.tabs.setTabText(self.TAB_RESULT, self.tr("Result"))
        self.tabs.setTabText(self.TAB_CROSS, self.tr("Cross-check"))
        self.tabs.setTabText(self.TAB_CLASS, self.tr("Class"))
        self.menu_file.setTitle(self.tr("&File"))
        self.menu_recent.setTitle(self.tr("Open &recent"))
        self.menu_collection.setTitle(self.tr("&Collection"))
        self.menu_check.setTitle(self.tr("C&heck"))
        self.toolbar.setWindowTitle(self.tr("Toolbar"))
        texts = {
            self.act_add_files: (self.tr("Add files\u2026"), self.tr("Add files to the reference collection")),
            self.act_add_folder: (self.tr("Add folder\u2026"), self.tr("Add every document of a folder to the reference collection")),
            self.act_remove: (self.tr("Remove"), self.tr("Remove the selected documents from the collection")),
            self.act_open: (self.tr("Open\u2026"), self.tr("Open a file to check")),
            self.act_paste: (self.tr("Paste"), self.tr("Check the text on the clipboard")),
            self.act_clear: (self.tr("Clear"), self.tr("Clear the text to check")),
            self.act_check: (self.tr("Check"), self.tr("Check the text against the reference collection (F5)")),
            self.act_compare: (self.tr("Compare two files\u2026"), self.tr("Compare two files side by side")),
            self.act_cross: (self.tr("Cross-check a folder\u2026"), self.tr("Compare every pair of documents in a folder")),
            self.act_check_class: (self.tr("Check a class\u2026"),
                                   self.tr("Check every essay of a folder against the collection")),
            self.act_export_html: (self.tr("Export HTML\u2026"), self.tr("Save the report as a web page")),
            self.act_export_pdf: (self.tr("Export PDF\u2026"), self.tr("Save the report as a PDF")),
            self.act_full_paths: (self.tr("Full paths in reports"),
                                  self.tr("Show the full paths of the documents in exported reports (by default "
                                          "paths relative to the collection's folder)")),
            self.act_settings: (self.tr("Settings\u2026"), self.tr("Search parameters and language")),
            self.act_sample: (self.tr("Load the sample collection"), self.tr("A few public-domain texts to try Sverka on")),
            self.act_quit: (self.tr("Quit"), self.tr("Quit Sverka")),
            self.act_next: (self.tr("Next passage"), self.tr("Next passage (F3)")),
            self.act_prev: (self.tr("Previous passage"), self.tr("Previous passage (Shift+F3)")),
            self.act_clear_recent: (self.tr("Clear the list"), ""),
            self.act_shared: (self.tr("Shared collection\u2026"),
                              self.tr("Use a collection shared on a PostgreSQL server")),
            self.act_local: (self.tr("Collection on this computer"),
                             self.tr("Use the collection kept on this computer")),
        }
        for action, (text, tip) in texts.items():
            action.setText(text)
            action.setToolTip(tip or text.rstrip("\u2026"))
            action.setStatusTip(tip)
        self.suspect_panel.check_button.setText(self.tr("Check"))
        self._update_title()

    # -- startup ---------------------------------------------------------------------------
    def _start(self) -> None:
        self.refresh_collection()
        self.runner.run(lambda progress, cancel: api.warm_up(), None, name="warm_up")
        self._update_actions()

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

    def _update_actions(self) -> None:
        busy = self.current_job is not None
        for a in (self.act_add_files, self.act_add_folder, self.act_check, self.act_compare, self.act_cross,
                  self.act_sample, self.act_check_class):
            a.setEnabled(not busy)
        self.suspect_panel.check_button.setEnabled(not busy)
        self.act_remove.setEnabled(not busy and bool(self.collection_panel.view.selectionModel().selectedRows()))
        has_result = self.result is not None or self.cross_result is not None
        self.act_export_html.setEnabled(has_result)
        self.act_export_pdf.setEnabled(has_result)
        self.collection_panel.sample_button.setEnabled(not busy)
        self.batch_view.check_button.setEnabled(not busy)
        self.act_shared.setEnabled(not busy)
        self.act_local.setEnabled(not busy and bool(self.shared_address))

    # -- foreground jobs -------------------------------------------------------------------
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

    # -- collection ------------------------------------------------------------------------
    def _open_collection(self):
        """Open with the collection's own indexing settings (a worker opens its own connection):
        the shared collection in use, else the file on this computer."""
        if self.shared_address:
            return api.Collection(self.shared_address)
        self.collection_path.parent.mkdir(parents=True, exist_ok=True)
        return api.Collection(self.collection_path)

    def refresh_collection(self) -> Job:
        def work(progress, cancel):
            with self._open_collection() as c:
                self.collection_settings = c.settings  # its properties, shown in the settings dialog
                return c.documents()

        def done(docs, error):
            if isinstance(error, api.CollectionNeedsRebuild) and not self.shared_address:
                self.offer_rebuild()
                docs = []
            elif error is not None:
                self._show_error(error)
                docs = []
            self._show_documents(docs)

        return self.runner.run(work, done, write=True, name="list")

    def _show_documents(self, docs) -> None:
        self.documents = list(docs)
        self.collection_panel.set_documents(self.documents)
        self._update_title()
        self._update_actions()
        self.collectionChanged.emit()

    def choose_shared_collection(self) -> None:
        """Ask for the address of a shared collection, then use it (:meth:`use_shared_collection`)."""
        address, ok = QInputDialog.getText(
            self, self.tr("Shared collection"),
            self.tr("Address of the collection on a PostgreSQL server, postgresql://user@host/database "
                    "(the password is read from ~/.pgpass or the PGPASSWORD variable):"),
            text=self.prefs.shared_collection() or "postgresql://")
        if ok and address.strip():
            self.use_shared_collection(address.strip())

    def use_shared_collection(self, address: str) -> Job | QMessageBox | None:
        """Connect to the shared collection at ``address`` and use it from now on (remembered,
        without a password). A server that is down, a refused login or anything else that
        keeps it from opening is shown in a box, and the collection in use stays."""
        if not api.is_shared_collection(address):
            return self.notify(QMessageBox.Icon.Warning, self.tr(
                "This is not the address of a shared collection: %1. Write it as "
                "postgresql://user@host/database.").replace("%1", address))

        def work(progress, cancel):
            with api.Collection(address) as c:
                return str(c.path), c.settings, c.documents()

        def done(opened) -> None:
            shown, self.collection_settings, docs = opened
            self.shared_address = address
            self.prefs.set_shared_collection(shown)
            self._show_documents(docs)
            self.statusBar().showMessage(self.tr("Shared collection %1").replace("%1", shown), 8000)

        return self._foreground("shared", self.tr("Connecting to the shared collection\u2026"), work, done, write=True)

    def use_local_collection(self) -> Job:
        """Go back to the collection file on this computer."""
        self.shared_address = ""
        self.prefs.set_shared_collection("")
        return self.refresh_collection()

    def offer_rebuild(self) -> QMessageBox:
        """The collection was made by an earlier Sverka: offer to rebuild it from its texts."""
        box = self.notify(
            QMessageBox.Icon.Question,
            self.tr("The collection was made by an earlier version of Sverka. Rebuild it now? "
                    "Sverka reads again the texts it keeps (your files are not needed) and keeps "
                    "the old file beside it as a backup."))
        box.setStandardButtons(QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No)
        box.button(QMessageBox.StandardButton.Yes).clicked.connect(self.rebuild_collection)
        return box

    def rebuild_collection(self) -> Job | None:
        def work(progress, cancel):
            return api.rebuild_collection(self.collection_path, progress=progress, cancel=cancel)

        def done(count):
            self.statusBar().showMessage(self.tr("Collection rebuilt: %1 documents").replace("%1", str(count)), 10000)
            self.refresh_collection()

        return self._foreground("rebuild", self.tr("Rebuilding the collection\u2026"), work, done, write=True)

    def add_paths(self, paths: Sequence[str | Path], template: bool = False) -> Job | None:
        paths = [Path(p) for p in paths]
        if not paths:
            return None
        if paths and paths[0].parent:
            self.prefs.set_last_folder(paths[0].parent if paths[0].is_file() else paths[0])

        def work(progress, cancel):
            with self._open_collection() as c:
                return c.add(paths, template=template, progress=progress, cancel=cancel)

        def done(summary: api.AddSummary):
            parts = [self.tr("Added: %1").replace("%1", str(len(summary.added)))]
            if summary.cancelled:
                parts.insert(0, self.tr("Cancelled"))
            if summary.updated:
                parts.append(self.tr("updated: %1").replace("%1", str(len(summary.updated))))
            if summary.unchanged or summary.duplicates:
                parts.append(self.tr("already there: %1").replace(
                    "%1", str(len(summary.unchanged) + len(summary.duplicates))))
            if summary.failed:
                parts.append(self.tr("not readable: %1").replace("%1", str(len(summary.failed))))
            self.statusBar().showMessage(", ".join(parts), 8000)
            if summary.failed:
                self.notify(QMessageBox.Icon.Warning,
                            self.tr("%n files could not be read.").replace("%n", str(len(summary.failed))),
                            "\n".join(f"{p}: {message_text(why)}" for p, why in summary.failed))
            self.refresh_collection()

        return self._foreground("add", self.tr("Adding documents\u2026"), work, done, write=True)

    def remove_selected(self, confirmed: bool = False) -> Job | QMessageBox | None:
        """Remove the selected documents from the collection, after the user confirms (the
        question box is returned; its Yes removes). The files themselves stay."""
        docs = self.collection_panel.selected_documents()
        if not docs or self.current_job is not None:
            return None
        if not confirmed:
            box = self.notify(QMessageBox.Icon.Question, self.tr(
                "Remove %n document(s) from the collection? The files themselves stay where they are."
            ).replace("%n", str(len(docs))))
            box.setStandardButtons(QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No)
            box.setDefaultButton(QMessageBox.StandardButton.No)
            ids = [d.id for d in docs]  # what the question named, whatever is selected by then
            box.button(QMessageBox.StandardButton.Yes).clicked.connect(lambda: self._remove_ids(ids))
            return box
        return self._remove_ids([d.id for d in docs])

    def _remove_ids(self, ids: list[int]) -> Job | None:
        if self.current_job is not None:
            return None

        def work(progress, cancel):
            with self._open_collection() as c:
                return c.remove(ids)

        def done(n):
            self.statusBar().showMessage(self.tr("Removed: %1").replace("%1", str(n)), 5000)
            self.refresh_collection()

        return self._foreground("remove", self.tr("Removing documents\u2026"), work, done, write=True)

    def choose_files_to_add(self) -> None:
        files, _ = QFileDialog.getOpenFileNames(self, self.tr("Add files to the collection"),
                                                self.prefs.last_folder(), self._file_filter())
        if files:
            self.add_paths(files)

    def choose_folder_to_add(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, self.tr("Add a folder to the collection"),
                                                  self.prefs.last_folder())
        if folder:
            self.add_paths([folder])

    def load_sample(self) -> Job | None:
        """Add the sample collection and put the sample text in the suspect area."""
        sample = sample_folder()
        suspect = sample / "suspect.txt"
        if suspect.is_file() and not self.suspect_panel.editor.toPlainText().strip():
            self.set_suspect_text(suspect.read_text(encoding="utf-8"), title=self.tr("Sample text"))
        self.prefs.set_sample_offered(True)
        return self.add_paths([sample / "collection"])

    def _file_filter(self) -> str:
        patterns = " ".join(f"*{s}" for s in api.SUPPORTED_SUFFIXES)
        return self.tr("Documents (%1)").replace("%1", patterns) + ";;" + self.tr("All files (*)")

    # -- suspect ---------------------------------------------------------------------------
    def choose_suspect(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, self.tr("Open a text to check"), self.prefs.last_folder(),
                                              self._file_filter())
        if path:
            self.load_suspect(path)

    def load_suspect(self, path: str | Path) -> Job | None:
        path = Path(path)

        def work(progress, cancel):
            doc = api.load_document(path)
            try:
                return doc, self.kept_result(doc)
            except SverkaError:  # unreadable kept results: the document still opens
                return doc, None

        def done(loaded):
            doc, kept = loaded
            self.set_suspect_document(doc)
            self._fill_recent_menu(self.prefs.add_recent_file(path))
            self.prefs.set_last_folder(path.parent)
            if kept is not None:
                self.show_stored(kept)

        return self._foreground("open", self.tr("Reading %1\u2026").replace("%1", path.name), work, done)

    def set_suspect_document(self, doc: Document) -> None:
        self.set_suspect_text(doc.text, title=doc.title or (Path(doc.path).name if doc.path else ""))
        self.suspect_document = doc
        self.suspect_panel.set_warnings(list(doc.warnings))
        self.tabs.setCurrentIndex(self.TAB_TEXT)

    def set_suspect_text(self, text: str, title: str = "") -> None:
        self.suspect_document = None
        self.suspect_panel.editor.setPlainText(text)
        self.suspect_panel.title.setText(title or self.tr("Pasted text"))
        self.suspect_panel.set_warnings([])

    def paste_suspect(self) -> None:
        text = QApplication.clipboard().text()
        if text.strip():
            self.set_suspect_text(text, self.tr("Pasted text"))
            self.tabs.setCurrentIndex(self.TAB_TEXT)

    def clear_suspect(self) -> None:
        self.set_suspect_text("", "")

    def _suspect_edited(self) -> None:
        doc = self.suspect_document
        if doc is not None and self.suspect_panel.editor.toPlainText() != doc.text.replace("\r\n", "\n"):
            self.suspect_document = None
            self.suspect_panel.title.setText(self.tr("Edited text"))

    def _suspect(self) -> Document | None:
        if self.suspect_document is not None:
            return self.suspect_document
        text = self.suspect_panel.editor.toPlainText()
        if not text.strip():
            return None
        title = self.suspect_panel.title.text() or self.tr("Pasted text")
        return api.document_from_text(text, title=title)

    def _fill_recent_menu(self, files: list[str] | None = None) -> None:
        files = self.prefs.recent_files() if files is None else files
        self.menu_recent.clear()
        for path in files:
            a = self.menu_recent.addAction(Path(path).name)
            a.setToolTip(path)
            a.setStatusTip(path)
            a.triggered.connect(lambda checked=False, p=path: self.load_suspect(p))
        self.menu_recent.addSeparator()
        self.menu_recent.addAction(self.act_clear_recent)
        self.menu_recent.setEnabled(bool(files))

    def _clear_recent(self) -> None:
        self.prefs.clear_recent_files()
        self._fill_recent_menu([])

    # -- check, compare, cross-check -------------------------------------------------------
    def check(self) -> Job | None:
        doc = self._suspect()
        if doc is None:
            self.statusBar().showMessage(self.tr("Nothing to check: paste a text or open a file first."), 6000)
            self.suspect_panel.editor.setFocus()
            return None
        if not self.documents:
            self.statusBar().showMessage(
                self.tr("The reference collection is empty: add documents to check against."), 6000)
        settings = self.settings

        def work(progress, cancel):
            with self._open_collection() as c:
                # Indexing parameters are the collection's: changing them needs a new collection.
                indexing = {k: getattr(c.settings, k) for k in INDEXING_FIELDS}
                result = c.check(doc, settings.replace(**indexing), progress=progress, cancel=cancel)
            self.keep_results([result])
            return result

        return self._foreground("check", self.tr("Checking\u2026"), work, self.show_result)

    def show_result(self, result: CheckResult) -> None:
        self.history_bar.clear()  # a kept result shown by show_stored sets it again
        self.result = result
        self._update_title()
        self.results_view.set_result(result)
        self.tabs.setCurrentIndex(self.TAB_RESULT)
        self._update_actions()
        self.statusBar().showMessage(self.tr("Borrowed %1 %, cited %3 %, original %2 %").replace(
            "%1", f"{result.borrowed_percent:.1f}").replace("%2", f"{result.original_percent:.1f}")
            .replace("%3", f"{result.cited_percent:.1f}"), 10000)
        self.resultShown.emit(result)

    def choose_files_to_compare(self) -> None:
        files, _ = QFileDialog.getOpenFileNames(self, self.tr("Pick two files to compare"), self.prefs.last_folder(),
                                                self._file_filter())
        if len(files) == 2:
            self.compare_files(files[0], files[1])
        elif files:
            self.statusBar().showMessage(self.tr("Pick exactly two files."), 6000)

    def compare_files(self, a: str | Path, b: str | Path) -> Job | None:
        settings = self.settings
        a, b = Path(a), Path(b)

        def work(progress, cancel):
            doc_a = api.load_document(a)
            cancel.raise_if_cancelled()
            doc_b = api.load_document(b)
            return api.compare(doc_a, doc_b, settings, progress=progress, cancel=cancel)

        return self._foreground("compare", self.tr("Comparing %1 with %2\u2026").replace("%1", a.name)
                                .replace("%2", b.name), work, self.show_result)

    def choose_folder_to_crosscheck(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, self.tr("Pick a folder of essays"), self.prefs.last_folder())
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

        def done(result: CrossCheckResult):
            self.cross_result = result
            self.cross_view.set_result(result)
            self.tabs.setCurrentIndex(self.TAB_CROSS)
            self._update_actions()
            self.crossCheckShown.emit(result)

        return self._foreground("crosscheck", self.tr("Cross-checking %n documents\u2026").replace(
            "%n", str(len(files))), work, done)

    # -- export ----------------------------------------------------------------------------
    def _export_subject(self) -> CheckResult | CrossCheckResult | None:
        if self.tabs.currentIndex() == self.TAB_CROSS and self.cross_result is not None:
            return self.cross_result
        return self.result or self.cross_result

    def choose_export(self, kind: str) -> None:
        if self._export_subject() is None:
            return
        pattern = self.tr("Web page (*.html)") if kind == "html" else self.tr("PDF document (*.pdf)")
        path, _ = QFileDialog.getSaveFileName(self, self.tr("Export the report"),
                                              str(Path(self.prefs.last_folder() or ".") / f"sverka-report.{kind}"),
                                              pattern)
        if path:
            try:
                self.export(path, kind)
            except OSError as exc:
                self._show_error(SverkaError(str(exc)))

    def _report_language(self) -> str:
        """Reports speak the window's language (Russian or English)."""
        language = self.translators.language if self.translators is not None else self.prefs.language()
        return "ru" if str(language).startswith("ru") else "en"

    def export(self, path: str | Path, kind: str | None = None) -> Path:
        """Write the report of the shown result as HTML (the command line's report) or PDF.

        The PDF is typeset off the GUI thread (a long text makes many pages); the status bar
        says when it is saved and :attr:`jobFinished` reports ``("export", error)``.
        """
        subject = self._export_subject()
        if subject is None:
            raise SverkaError(self.tr("There is no result to export."))
        path = Path(path)
        kind = kind or path.suffix.lstrip(".").lower()
        saved = lambda _=None: self.statusBar().showMessage(  # noqa: E731
            self.tr("Report saved: %1").replace("%1", str(path)), 8000)
        lang = self._report_language()
        full = self.prefs.report_full_paths()
        if kind == "pdf":
            self._foreground("export", self.tr("Writing the PDF report\u2026"),
                             lambda progress, cancel: api.render_pdf(subject, path, lang=lang, full_paths=full), saved)
            return path
        path.write_text(api.render_html(subject, lang=lang, full_paths=full), encoding="utf-8")
        saved()
        return path

    # -- settings --------------------------------------------------------------------------
    def open_settings(self) -> None:
        from .settings_dialog import SettingsDialog

        dialog = SettingsDialog(self.settings, self.prefs.language(), self,
                                collection=getattr(self, "collection_settings", None))
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.accepted.connect(lambda: self.apply_settings(dialog.settings(), dialog.chosen_language()))
        dialog.open()
        self._settings_dialog = dialog

    def apply_settings(self, settings: api.Settings, language: str | None = None) -> None:
        old = self.settings
        self.settings = settings
        self.prefs.set_engine_settings(settings)
        if language is not None and language != self.prefs.language():
            self.prefs.set_language(language)
            if self.translators is not None:
                self.translators.switch(language)
        if self.result is not None and settings != old:
            try:
                self.show_result(api.apply_exclusions(self.result, settings))
            except NotImplementedError:
                pass

    def exclude_source(self, key: str, exclude: bool = True) -> None:
        """Leave a source out of the shown result or count it again: remembered with this
        result only and rescored without searching again; later checks are not affected.
        (Sources the teacher leaves out of every check are listed in the settings.)"""
        if self.result is None:
            return
        keys = [k for k in self.result.left_out if k != key]
        if exclude:
            keys.append(key)
        self.show_result(api.leave_out(self.result, tuple(keys)))

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
