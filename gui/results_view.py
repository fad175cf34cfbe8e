"""The answer to a check: big percentages, warnings, the sources table, the side-by-side view."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QItemSelectionModel, QModelIndex, Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QFrame,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QMenu,
    QSplitter,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from sverka.core.api import CheckResult

from .i18n import decimal, message_text
from .compare_view import CompareView
from .models import SortProxy, SourcesModel


class BigNumber(QFrame):
    """A percentage written large in its own colour, with a caption under it."""

    def __init__(self, colour: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.value = QLabel("\u2014")
        self.caption = QLabel()
        font = self.value.font()
        font.setPointSizeF(font.pointSizeF() * 2.6)
        font.setBold(True)
        self.value.setFont(font)
        self.value.setStyleSheet(f"color: {colour};")
        self.value.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.caption.setAlignment(Qt.AlignmentFlag.AlignCenter)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(16, 4, 16, 4)
        layout.setSpacing(0)
        layout.addWidget(self.value)
        layout.addWidget(self.caption)

    def set_value(self, percent: float | None) -> None:
        self.value.setText("\u2014" if percent is None else f"{decimal(percent)} %")


class Banner(QLabel):
    """A prominent coloured message (tampering, exact duplicate)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWordWrap(True)
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.setStyleSheet("QLabel { background: #b3261e; color: white; padding: 8px 10px;"
                           " border-radius: 4px; font-weight: bold; }")
        self.hide()

    def show_lines(self, lines: list[str]) -> None:
        self.setText("\n".join(lines))
        self.setVisible(bool(lines))


class ResultsView(QWidget):
    """Shows one :class:`CheckResult`; the sources table drives the right pane."""

    sourceActivated = Signal(int)
    excludeRequested = Signal(str, bool)  # source key (path or sha256), exclude (True) or count again

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.result: CheckResult | None = None
        self.borrowed = BigNumber("#c62828")
        self.cited = BigNumber("#1565c0")
        self.original = BigNumber("#2e7d32")
        self.summary = QLabel()
        self.summary.setWordWrap(True)
        self.summary.setTextFormat(Qt.TextFormat.PlainText)
        self.warning = Banner()
        self.warning.setObjectName("tamperingBanner")

        top = QHBoxLayout()
        top.addWidget(self.borrowed)
        top.addWidget(self.cited)
        top.addWidget(self.original)
        top.addWidget(self.summary, 1)

        self.model = SourcesModel(self)
        self.proxy = SortProxy(self)
        self.proxy.setSourceModel(self.model)
        self.table = QTableView()
        self.table.setObjectName("sourcesTable")
        self.table.setModel(self.proxy)
        self.table.setSortingEnabled(True)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.verticalHeader().hide()
        self.table.setAlternatingRowColors(False)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        for col in (1, 2, 3):
            header.setSectionResizeMode(col, QHeaderView.ResizeMode.ResizeToContents)
        self.table.sortByColumn(1, Qt.SortOrder.DescendingOrder)

        self.compare = CompareView()
        self.splitter = QSplitter(Qt.Orientation.Vertical)
        self.splitter.addWidget(self.table)
        self.splitter.addWidget(self.compare)
        self.splitter.setStretchFactor(0, 1)
        self.splitter.setStretchFactor(1, 4)
        self.splitter.setSizes([220, 480])  # room for about six sources at the default size

        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(top)
        layout.addWidget(self.warning)
        layout.addWidget(self.splitter, 1)

        self.table.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.table.customContextMenuRequested.connect(self._context_menu)
        self.table.selectionModel().currentRowChanged.connect(self._row_changed)
        self.compare.sourceChanged.connect(self._select_row_of)
        self.retranslate()

    def retranslate(self) -> None:
        self.borrowed.caption.setText(self.tr("borrowed"))
        self.cited.caption.setText(self.tr("cited"))
        self.original.caption.setText(self.tr("original"))
        self._update_summary()

    def set_result(self, result: CheckResult | None) -> None:
        self.result = result
        self.model.set_rows(result.sources if result else ())
        header = self.table.horizontalHeader()
        self.proxy.sort(header.sortIndicatorSection(), header.sortIndicatorOrder())
        self.compare.set_result(result)
        self.borrowed.set_value(result.borrowed_percent if result else None)
        self.cited.set_value(result.cited_percent if result else None)
        self.original.set_value(result.original_percent if result else None)
        lines = []
        if result is not None:
            lines.extend(self.tr("Warning: %1").replace("%1", message_text(w))
                         for w in (*result.warnings, *result.suspect.warnings))
            if result.exact_duplicate_of and result.borrowed_percent >= 99.95:
                lines.append(self.tr("The text is an exact copy of \u201c%1\u201d in the collection.")
                             .replace("%1", result.exact_duplicate_of))
            elif result.exact_duplicate_of:  # same text, but quotations or short passages are not counted
                lines.append(self.tr("The same text as \u201c%1\u201d is in the collection; the part not counted "
                                     "as borrowed is quoted, in the bibliography or in passages too short to count.")
                             .replace("%1", result.exact_duplicate_of))
            if result.in_collection is not None:
                info = result.in_collection
                lines.append(self.tr("This document is in the collection (\u201c%1\u201d, added %2); "
                                     "it is not counted as its own source.")
                             .replace("%1", info.title).replace("%2", info.added[:10]))
        self.warning.show_lines(lines)
        self._update_summary()
        if result is not None and result.sources:
            self._select_row_of(0)

    def _update_summary(self) -> None:
        r = self.result
        if r is None:
            self.summary.setText(self.tr("Check a text to see where it was borrowed from."))
            return
        counted = sum(1 for s in r.sources for p in s.passages if p.excluded is None)
        total = sum(len(s.passages) for s in r.sources)  # what Next/Previous walk through
        passages = str(counted) if counted == total else self.tr("%1 counted of %2").replace(
            "%1", str(counted)).replace("%2", str(total))
        self.summary.setText(
            self.tr("%1\nWords: %2 \u00b7 sources: %3 \u00b7 passages: %4").replace("%1", r.suspect.title)
            .replace("%2", str(r.suspect.words)).replace("%3", str(len(r.sources))).replace("%4", passages))

    def source_menu(self, row: int) -> QMenu:
        """The context menu of source ``row`` (model order): count it or not."""
        src = self.model.row_object(row)
        key = src.path or src.sha256
        everywhere = self.result is not None and key in self.result.settings.excluded_sources
        excluded = self.result is not None and key in self.result.left_out
        menu = QMenu(self)
        if everywhere:
            action = menu.addAction(self.tr("Not counted in any check (see the settings)"))
            action.setEnabled(False)
        elif excluded:
            action = menu.addAction(self.tr("Count this source again"))
            action.triggered.connect(lambda: self.excludeRequested.emit(key, False))
        else:
            action = menu.addAction(self.tr("Do not count this source"))
            action.triggered.connect(lambda: self.excludeRequested.emit(key, True))
        return menu

    def _context_menu(self, pos) -> None:
        index = self.table.indexAt(pos)
        if index.isValid():
            menu = self.source_menu(self.proxy.mapToSource(index).row())
            menu.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
            menu.popup(self.table.viewport().mapToGlobal(pos))

    def _row_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        if current.isValid():
            row = self.proxy.mapToSource(current).row()
            self.compare.set_source(row)
            self.sourceActivated.emit(row)

    def _select_row_of(self, source_row: int) -> None:
        index = self.proxy.mapFromSource(self.model.index(source_row, 0))
        if index.isValid() and self.table.currentIndex().row() != index.row():
            self.table.selectionModel().setCurrentIndex(
                index, QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows)

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)
