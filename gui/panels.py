"""The building blocks of the main window: collection panel, suspect panel, progress panel."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QEvent, QMimeData, Qt, Signal
from PySide6.QtGui import QDragEnterEvent, QDropEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QFrame,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QProgressBar,
    QPushButton,
    QTableView,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from sverka.core.api import DocumentInfo

from .i18n import message_text, phase_text
from .jobs import EtaEstimator, format_time_left
from .models import CollectionModel, SortProxy, human_size, OBJECT_ROLE


def local_paths(mime: QMimeData) -> list[Path]:
    """The local files and folders of a drag, in the order given."""
    if not mime.hasUrls():
        return []
    return [Path(url.toLocalFile()) for url in mime.urls() if url.isLocalFile() and url.toLocalFile()]


class AcceptsPathDrops:
    """Mixin for a widget that takes dropped local files and folders: accepts a drag that
    carries any, and hands them to :meth:`paths_dropped`."""

    def paths_dropped(self, paths: list[Path]) -> None:
        raise NotImplementedError

    def paths_coming(self, paths: list[Path]) -> None:
        """A drag carrying ``paths`` entered: a chance to get ready for them (default: nothing)."""

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        paths = local_paths(event.mimeData())
        if paths:
            event.acceptProposedAction()
            self.paths_coming(paths)

    def dragMoveEvent(self, event) -> None:
        if local_paths(event.mimeData()):
            event.acceptProposedAction()

    def dropEvent(self, event: QDropEvent) -> None:
        paths = local_paths(event.mimeData())
        if paths:
            event.acceptProposedAction()
            self.paths_dropped(paths)


class CollectionPanel(AcceptsPathDrops, QWidget):
    """The reference collection: filterable sortable list, count and total size, drop target."""

    pathsDropped = Signal(list)  # list[Path]
    loadSampleRequested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setAcceptDrops(True)
        self.heading = QLabel()
        font = self.heading.font()
        font.setBold(True)
        font.setPointSizeF(font.pointSizeF() * 1.15)
        self.heading.setFont(font)

        self.filter = QLineEdit()
        self.filter.setObjectName("collectionFilter")
        self.filter.setClearButtonEnabled(True)

        self.model = CollectionModel(self)
        self.proxy = SortProxy(self)
        self.proxy.setSourceModel(self.model)
        self.view = QTableView()
        self.view.setObjectName("collectionView")
        self.view.setModel(self.proxy)
        self.view.setSortingEnabled(True)
        self.view.sortByColumn(0, Qt.SortOrder.AscendingOrder)
        self.view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.view.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.view.setAcceptDrops(False)  # drops go to the panel
        self.view.verticalHeader().hide()
        self.view.setWordWrap(False)
        header = self.view.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        # Fixed starting widths: sizing to contents reads every row and freezes big collections.
        digits = self.view.fontMetrics().horizontalAdvance("0")
        for col, chars in ((1, 7), (2, 9), (3, 8), (4, 11)):
            header.resizeSection(col, chars * digits + 16)
        header.setSectionHidden(4, True)
        self.view.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        self.view.verticalHeader().setDefaultSectionSize(self.view.fontMetrics().height() + 8)

        self.add_files_button = QToolButton()
        self.add_folder_button = QToolButton()
        self.remove_button = QToolButton()
        buttons = QHBoxLayout()
        buttons.setContentsMargins(0, 0, 0, 0)
        for b in (self.add_files_button, self.add_folder_button, self.remove_button):
            b.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
            buttons.addWidget(b)
        buttons.addStretch(1)

        self.totals = QLabel()
        self.totals.setObjectName("collectionTotals")

        self.sample_box = QFrame()
        self.sample_box.setObjectName("sampleOffer")
        self.sample_box.setFrameShape(QFrame.Shape.StyledPanel)
        self.sample_text = QLabel()
        self.sample_text.setWordWrap(True)
        self.sample_button = QPushButton()
        self.sample_button.setObjectName("loadSampleButton")
        sb = QVBoxLayout(self.sample_box)
        sb.addWidget(self.sample_text)
        sb.addWidget(self.sample_button, 0, Qt.AlignmentFlag.AlignLeft)
        self.sample_box.hide()
        self.sample_button.clicked.connect(self.loadSampleRequested)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addWidget(self.heading)
        layout.addLayout(buttons)
        layout.addWidget(self.filter)
        layout.addWidget(self.sample_box)
        layout.addWidget(self.view, 1)
        layout.addWidget(self.totals)

        self.filter.textChanged.connect(self._filter_changed)
        self.retranslate()

    def retranslate(self) -> None:
        self.heading.setText(self.tr("Reference collection"))
        self.filter.setPlaceholderText(self.tr("Filter by title or path"))
        self.sample_text.setText(self.tr(
            "The collection is empty. Add your reference texts (files or folders, or drop them here), "
            "or load a small sample collection to see how Sverka works."))
        self.sample_button.setText(self.tr("Load the sample collection"))
        self.view.setToolTip(self.tr("Drop files or folders here to add them"))
        self._update_totals()

    def set_documents(self, docs: list[DocumentInfo]) -> None:
        self.model.set_rows(docs)
        header = self.view.horizontalHeader()
        self.proxy.sort(header.sortIndicatorSection(), header.sortIndicatorOrder())  # keep the user's order
        self.sample_box.setVisible(not docs)
        self._update_totals()

    def selected_documents(self) -> list[DocumentInfo]:
        rows = self.view.selectionModel().selectedRows()
        return [self.proxy.data(i, OBJECT_ROLE) for i in rows]

    def _filter_changed(self, text: str) -> None:
        self.proxy.set_filter_text(text)
        self._update_totals()

    def _update_totals(self) -> None:
        n = self.model.rowCount()
        shown = self.proxy.rowCount()
        text = self.tr("%1 documents, %2").replace("%1", str(n)).replace("%2", human_size(self.model.total_size()))
        if shown != n:
            text += " " + self.tr("(%1 shown)").replace("%1", str(shown))
        self.totals.setText(text)

    def paths_dropped(self, paths: list[Path]) -> None:
        self.pathsDropped.emit(paths)

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)


class SuspectEdit(QPlainTextEdit):
    """The text to check: typed or pasted here; dropping files here opens them instead of
    inserting their names."""

    filesDropped = Signal(list)

    def canInsertFromMimeData(self, source: QMimeData) -> bool:
        return bool(local_paths(source)) or super().canInsertFromMimeData(source)

    def insertFromMimeData(self, source: QMimeData) -> None:
        paths = local_paths(source)
        if paths:
            self.filesDropped.emit(paths)
        else:
            super().insertFromMimeData(source)


class SuspectPanel(QWidget):
    """Where the text to check comes from: a file, the clipboard, typing, a drop."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.title = QLabel()
        self.title.setTextFormat(Qt.TextFormat.PlainText)
        font = self.title.font()
        font.setBold(True)
        self.title.setFont(font)
        self.open_button = QToolButton()
        self.paste_button = QToolButton()
        self.clear_button = QToolButton()
        self.check_button = QPushButton()
        self.check_button.setObjectName("checkButton")
        self.check_button.setMinimumHeight(34)
        f = self.check_button.font()
        f.setBold(True)
        self.check_button.setFont(f)
        self.stats = QLabel()
        self.warnings = QLabel()
        self.warnings.setWordWrap(True)
        self.warnings.setStyleSheet("QLabel { background: #b3261e; color: white; padding: 6px;"
                                    " border-radius: 4px; font-weight: bold; }")
        self.warnings.hide()
        self.editor = SuspectEdit()
        self.editor.setObjectName("suspectEditor")

        top = QHBoxLayout()
        top.setContentsMargins(0, 0, 0, 0)
        top.addWidget(self.title, 1)
        for b in (self.open_button, self.paste_button, self.clear_button):
            b.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
            top.addWidget(b)
        bottom = QHBoxLayout()
        bottom.addWidget(self.stats, 1)
        bottom.addWidget(self.check_button)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addLayout(top)
        layout.addWidget(self.warnings)
        layout.addWidget(self.editor, 1)
        layout.addLayout(bottom)
        self.editor.textChanged.connect(self._update_stats)
        self.retranslate()

    def retranslate(self) -> None:
        self.editor.setPlaceholderText(self.tr(
            "Paste or type the text to check here, open a file, or drop a file on this area.\n\n"
            "Drop two files on the window to compare them with each other; drop a folder to cross-check it."))
        self._update_stats()

    def set_warnings(self, warnings: list) -> None:
        """``warnings``: core messages (sverka.core.messages), worded in the window's language."""
        self.warnings.setText("\n".join(self.tr("Warning: %1").replace("%1", message_text(w)) for w in warnings))
        self.warnings.setVisible(bool(warnings))

    def _update_stats(self) -> None:
        from sverka.core.api import count_words

        text = self.editor.toPlainText()
        words = count_words(text)  # the words a result counts (numbers and punctuation are not words)
        self.stats.setText(self.tr("%1 words, %2 characters").replace("%1", str(words)).replace("%2", str(len(text))))

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)


class ProgressPanel(QWidget):
    """Progress bar, message, time left and Cancel, for the job in the foreground."""

    cancelRequested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.message = QLabel()
        self.message.setTextFormat(Qt.TextFormat.PlainText)
        self.message.setMinimumWidth(260)
        self.bar = QProgressBar()
        self.bar.setMaximumWidth(260)
        self.bar.setTextVisible(True)
        self.eta_label = QLabel()
        self.cancel_button = QPushButton()
        self.cancel_button.setObjectName("cancelButton")
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.message, 1)
        layout.addWidget(self.bar)
        layout.addWidget(self.eta_label)
        layout.addWidget(self.cancel_button)
        self.cancel_button.clicked.connect(self.cancelRequested)
        self._eta = EtaEstimator()
        self.retranslate()
        self.hide()

    def retranslate(self) -> None:
        self.cancel_button.setText(self.tr("Cancel"))

    def start(self, message: str) -> None:
        self._eta.reset()
        self.message.setText(message)
        self.bar.setRange(0, 0)
        self.eta_label.setText("")
        self.cancel_button.setEnabled(True)
        self.show()

    def update_progress(self, done: int, total: int, message: str) -> None:
        if message:
            self.message.setText(phase_text(message))
        if total > 0:
            self.bar.setRange(0, total)
            self.bar.setValue(min(done, total))
        else:
            self.bar.setRange(0, 0)
        self.eta_label.setText(format_time_left(self._eta.update(done, total)))

    def cancelling(self) -> None:
        self.message.setText(self.tr("Cancelling\u2026"))
        self.cancel_button.setEnabled(False)

    def finish(self) -> None:
        self.hide()

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)
