"""A class of essays checked in one action: one sortable row per essay.

The table shows, per essay, the three shares (borrowed / cited / original), its main source,
the classmate it shares most with (when the essays were also compared with each other) and
its warnings; a double-click (or Enter) opens the essay's result side by side. "Export all"
writes one report per essay, named after it, into a folder. The work itself runs in the
window's jobs; this module only shows a :class:`~sverka.core.api.BatchResult`.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, QEvent, QModelIndex, QPersistentModelIndex, Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from sverka.core.api import BatchItem, BatchResult

from .i18n import message_text
from .models import OBJECT_ROLE, SORT_ROLE, SortProxy, _TableModel, heat_colour, short_name


def _main_source(item: BatchItem) -> tuple[str, float]:
    """(title, share 0..1) of the source the essay borrows most from, ("", 0) if none."""
    if item.result is None:
        return "", 0.0
    counted = [s for s in item.result.sources if not s.is_template and s.containment > 0]
    if not counted:
        return "", 0.0
    best = max(counted, key=lambda s: (s.containment, s.title))
    return best.title, best.containment


class BatchModel(_TableModel):
    """One row per essay of a :class:`BatchResult` (unreadable files included, with the reason)."""

    HEADERS = (QT_TRANSLATE_NOOP("BatchModel", "Essay"), QT_TRANSLATE_NOOP("BatchModel", "Borrowed"),
               QT_TRANSLATE_NOOP("BatchModel", "Cited"), QT_TRANSLATE_NOOP("BatchModel", "Original"),
               QT_TRANSLATE_NOOP("BatchModel", "Main source"), QT_TRANSLATE_NOOP("BatchModel", "Closest classmate"),
               QT_TRANSLATE_NOOP("BatchModel", "Warnings"))
    ESSAY, BORROWED, CITED, ORIGINAL, SOURCE, CLASSMATE, WARNINGS = range(7)

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.batch: BatchResult | None = None
        self._values: dict[int, tuple] = {}  # id(item) -> its cells' raw values, computed once

    def set_batch(self, batch: BatchResult | None) -> None:
        self.batch = batch
        items = batch.items if batch is not None else ()
        self._values = {id(it): self._compute(batch, it) for it in items}
        self.set_rows(items)

    @staticmethod
    def _compute(batch: BatchResult, item: BatchItem) -> tuple:
        """(essay, borrowed, cited, original, (main source, share), (classmate, share), warnings)."""
        r = item.result
        if r is None:
            return (short_name(item.path), None, None, None, ("", 0.0), ("", 0.0), 1)
        found = batch.closest_classmate(r.suspect.path or item.path)
        mate = (short_name(found[0]), found[1]) if found else ("", 0.0)
        return (short_name(item.path), r.borrowed_percent, r.cited_percent, r.original_percent,
                _main_source(item), mate, len(r.warnings) + len(r.suspect.warnings))

    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole):
        if not index.isValid() or not 0 <= index.row() < len(self._rows):
            return None
        item: BatchItem = self._rows[index.row()]
        col = index.column()
        values = self._values[id(item)]
        if role == Qt.ItemDataRole.DisplayRole:
            if col == self.ESSAY:
                return values[0]
            if item.result is None:
                return self.tr("not readable") if col == self.BORROWED else ""
            if col in (self.BORROWED, self.CITED, self.ORIGINAL):
                return f"{values[col]:.1f} %"
            if col in (self.SOURCE, self.CLASSMATE):
                name, share = values[col]
                return f"{name} ({share * 100:.1f} %)" if name else "\u2014"
            return str(values[col]) if values[col] else ""
        if role == SORT_ROLE:
            return self.sort_key(col)(item)
        if role == Qt.ItemDataRole.ToolTipRole:
            if item.error:
                return message_text(item.error)
            if col == self.WARNINGS and item.result is not None:
                return "\n".join(message_text(w) for w in (*item.result.warnings, *item.result.suspect.warnings)) or None
            return item.path
        if role == Qt.ItemDataRole.BackgroundRole and item.result is not None and col == self.BORROWED:
            return heat_colour(item.result.borrowed_percent / 100.0)
        if role == Qt.ItemDataRole.TextAlignmentRole and col in (self.BORROWED, self.CITED, self.ORIGINAL, self.WARNINGS):
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role == OBJECT_ROLE:
            return item
        return None

    def sort_key(self, column: int):
        if not 0 <= column < len(self.HEADERS):
            return None
        if column == self.ESSAY:
            return lambda it: short_name(it.path).casefold()
        if column in (self.SOURCE, self.CLASSMATE):
            return lambda it: self._values[id(it)][column][1]
        # unreadable essays sort as -1 so they gather at one end
        return lambda it: -1.0 if it.result is None else float(self._values[id(it)][column])


class BatchView(QWidget):
    """The class tab: options, the table of essays, export."""

    checkClassRequested = Signal()  # the user wants to pick a folder of essays
    resultActivated = Signal(object)  # BatchItem whose result to open side by side
    exportAllRequested = Signal(str)  # "html" or "pdf"

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.caption = QLabel()
        self.caption.setObjectName("batchCaption")
        self.caption.setWordWrap(True)
        self.caption.setTextFormat(Qt.TextFormat.PlainText)
        self.check_button = QPushButton()
        self.check_button.setObjectName("checkClassButton")
        self.cross_box = QCheckBox()
        self.cross_box.setObjectName("crossBox")
        self.cross_box.setChecked(True)
        self.format_box = QComboBox()
        self.format_box.setObjectName("exportFormat")
        self.format_box.addItem("HTML", "html")
        self.format_box.addItem("PDF", "pdf")
        self.export_button = QPushButton()
        self.export_button.setObjectName("exportAllButton")
        self.export_button.setEnabled(False)

        self.model = BatchModel(self)
        self.proxy = SortProxy(self)
        self.proxy.setSourceModel(self.model)
        self.table = QTableView()
        self.table.setObjectName("batchTable")
        self.table.setModel(self.proxy)
        self.table.setSortingEnabled(True)
        self.table.sortByColumn(-1, Qt.SortOrder.AscendingOrder)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setAlternatingRowColors(True)
        self.table.setWordWrap(False)  # a long source name is cut with an ellipsis; its full name is the tooltip
        self.table.verticalHeader().hide()
        h = self.table.horizontalHeader()
        h.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        h.setStretchLastSection(True)
        self.table.activated.connect(self._activated)
        self.table.doubleClicked.connect(self._activated)

        top = QHBoxLayout()
        top.addWidget(self.check_button)
        top.addWidget(self.cross_box)
        top.addStretch(1)
        top.addWidget(self.format_box)
        top.addWidget(self.export_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addLayout(top)
        layout.addWidget(self.caption)
        layout.addWidget(self.table, 1)

        self.check_button.clicked.connect(self.checkClassRequested)
        self.export_button.clicked.connect(lambda: self.exportAllRequested.emit(self.export_kind()))
        self.retranslate()

    @property
    def batch(self) -> BatchResult | None:
        return self.model.batch

    def cross(self) -> bool:
        return self.cross_box.isChecked()

    def export_kind(self) -> str:
        return self.format_box.currentData()

    def set_batch(self, batch: BatchResult | None) -> None:
        self.model.set_batch(batch)
        self.export_button.setEnabled(batch is not None and any(it.result for it in batch.items))
        self.table.setColumnHidden(BatchModel.CLASSMATE, batch is None or batch.cross is None)
        self._fit_columns()
        self._update_caption()

    def _fit_columns(self) -> None:
        """Column widths from the font's metrics of the texts shown (Qt's resize-to-contents
        lays out every cell in every role: ~50 ms for 30 rows, too long for the GUI thread)."""
        fm = self.table.fontMetrics()
        pad = 3 * fm.horizontalAdvance("M")
        model = self.model
        for col in range(model.columnCount()):
            header = str(model.headerData(col, Qt.Orientation.Horizontal) or "")
            texts = [model.data(model.index(row, col)) or "" for row in range(min(model.rowCount(), 500))]
            width = max([fm.horizontalAdvance(header)] + [fm.horizontalAdvance(str(t)) for t in texts])
            self.table.setColumnWidth(col, min(width + pad, 210 if col in (BatchModel.SOURCE, BatchModel.CLASSMATE) else 300))

    def _activated(self, index: QModelIndex) -> None:
        item = self.proxy.data(index, OBJECT_ROLE)
        if item is not None and item.result is not None:
            self.resultActivated.emit(item)

    def _update_caption(self) -> None:
        batch = self.model.batch
        if batch is None:
            self.caption.setText(self.tr(
                "Check a whole class at once: drop a folder or several files on the window, or pick a folder. "
                "Each essay is checked against the collection; double-click a row to see it side by side."))
            return
        read = sum(1 for it in batch.items if it.result is not None)
        text = self.tr("%1 essays checked").replace("%1", str(read))
        failed = len(batch.items) - read
        if failed:
            text += ", " + self.tr("%1 not readable").replace("%1", str(failed))
        self.caption.setText(text + ". " + self.tr("Double-click a row to see the essay side by side."))

    def retranslate(self) -> None:
        self.check_button.setText(self.tr("Check a class\u2026"))
        self.check_button.setToolTip(self.tr("Pick a folder of essays and check each against the collection"))
        self.cross_box.setText(self.tr("Also compare the essays with each other"))
        self.export_button.setText(self.tr("Export all\u2026"))
        self.export_button.setToolTip(self.tr("One report per essay, named after it, into a folder you choose"))
        self.model.headerDataChanged.emit(Qt.Orientation.Horizontal, 0, len(BatchModel.HEADERS) - 1)
        self._update_caption()

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)



class ClassCheckActions:
    """The main window's part of checking a class (mixed into :class:`MainWindow`, which
    provides ``_foreground``, ``_open_collection``, ``settings``, ``prefs``, ``batch_view``...)."""

    batchShown: Signal

    def choose_folder_to_check_class(self) -> None:
        from PySide6.QtWidgets import QFileDialog

        self.prepare_class_workers()  # they start while the teacher picks the folder
        folder = QFileDialog.getExistingDirectory(self, QCoreApplication.translate("ClassCheckActions", "Pick a folder of essays to check"),
                                                  self.prefs.last_folder())
        if folder:
            self.check_class([folder])

    def check_class(self, paths, cross: bool | None = None):
        """Check every document of ``paths`` (folders walked as for a cross-check) against the
        collection on every core; with ``cross`` (default: the tab's check box) also against
        each other. The table fills when all are done; Cancel stops within a moment."""
        from sverka.core import api

        from .main_window import INDEXING_FIELDS, files_in

        files = files_in([Path(p) for p in paths])
        if not files:
            self.statusBar().showMessage(QCoreApplication.translate("ClassCheckActions", "No documents to check there."), 6000)
            return None
        cross = self.batch_view.cross() if cross is None else cross
        settings = self.settings
        message = QCoreApplication.translate("ClassCheckActions", "Checking %n essays\u2026").replace("%n", str(len(files)))

        def work(progress, cancel):
            with self._open_collection() as c:
                indexing = {k: getattr(c.settings, k) for k in INDEXING_FIELDS}
                # the workers stay for the next class: only the first pays for starting them
                batch = c.check_files([str(f) for f in files], settings.replace(**indexing), cross=cross,
                                      progress=progress, cancel=cancel, keep_workers=True)
            self.keep_results([it.result for it in batch.items])
            return batch

        def done(batch: api.BatchResult) -> None:
            self.show_batch(batch)

        self.workers_idle.stop()
        job = self._foreground("batch", message, work, done)
        if job is not None:  # the engine's message is the file's name: say what is done with it
            job.signals.progress.disconnect(self.progress.update_progress)
            job.signals.progress.connect(lambda d, t, m: self.progress.update_progress(
                d, t, f"{message} {m}" if m else message))
        return job

    def _make_workers_idle_timer(self) -> None:
        """Workers kept after a class end after KEPT_IDLE_SECONDS without another one."""
        from PySide6.QtCore import QTimer

        from sverka.core.api import KEPT_IDLE_SECONDS

        self.workers_idle = QTimer(self)
        self.workers_idle.setSingleShot(True)
        self.workers_idle.setInterval(KEPT_IDLE_SECONDS * 1000)
        self.workers_idle.timeout.connect(self.close_idle_workers)
        self.jobFinished.connect(lambda name, error: self.workers_idle.start() if name == "batch" else None)

    def prepare_class_workers(self):
        """Start the class workers now, off the GUI thread, when a class is probably coming
        (the folder dialog opens, a folder is dragged over the window): the check then finds
        them ready instead of starting them while it reads the essays. Kept as after a class."""
        from sverka.core import api

        if self._closing or self.current_job is not None or not self.documents:
            return None
        path = self.collection_path
        self.workers_idle.start()
        return self.runner.run(lambda progress, cancel: api.prepare_workers(path), None, name="prepare_workers")

    def close_idle_workers(self):
        """End the kept workers off the GUI thread (joining them takes a moment)."""
        from sverka.core import api

        if self._closing:
            return None
        return self.runner.run(lambda progress, cancel: api.close_workers(), None, name="close_workers")

    def show_batch(self, batch) -> None:
        self.batch = batch
        self.batch_view.set_batch(batch)
        if batch.cross is not None:
            self.cross_result = batch.cross
            self.cross_view.set_result(batch.cross)
        self.tabs.setCurrentIndex(self.TAB_CLASS)
        self._update_actions()
        failed = [it for it in batch.items if it.error]
        if failed:
            from PySide6.QtWidgets import QMessageBox

            self.notify(QMessageBox.Icon.Warning,
                        QCoreApplication.translate("ClassCheckActions", "%n files could not be read.").replace("%n", str(len(failed))),
                        "\n".join(f"{short_name(it.path)}: {message_text(it.error)}" for it in failed))
        self.batchShown.emit(batch)
        if batch.cross is not None:
            self.crossCheckShown.emit(batch.cross)

    def open_batch_item(self, item) -> None:
        """An essay of the class, side by side with its sources (the result tab)."""
        self.show_result(item.result)

    def choose_export_all(self, kind: str = "html") -> None:
        from PySide6.QtWidgets import QFileDialog

        if self.batch_view.batch is None:
            return
        folder = QFileDialog.getExistingDirectory(self, QCoreApplication.translate("ClassCheckActions", "Pick a folder for the reports"),
                                                  self.prefs.last_folder())
        if folder:
            self.export_all(folder, kind)

    def export_all(self, folder, kind: str = "html"):
        """One report per essay (HTML or PDF, the window's language) into ``folder``, off the GUI thread."""
        from sverka.core.api import write_reports

        batch = self.batch_view.batch
        if batch is None:
            return None
        lang = self._report_language()

        def done(written) -> None:
            self.statusBar().showMessage(QCoreApplication.translate("ClassCheckActions", "%1 reports saved in %2").replace("%1", str(len(written)))
                                         .replace("%2", str(folder)), 10000)
            self.exported = written

        return self._foreground("export_all", QCoreApplication.translate("ClassCheckActions", "Writing the reports\u2026"),
                                lambda progress, cancel: write_reports(batch, folder, kind, lang=lang,
                                                                       progress=progress, cancel=cancel), done)
