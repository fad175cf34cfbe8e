"""Cross-check of a class: ranked suspicious pairs and the heat map of pairwise scores."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QModelIndex, Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QLabel,
    QSplitter,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from sverka.core.api import CrossCheckResult

from .models import MatrixModel, PairsModel, SortProxy, short_name


class CrossCheckView(QWidget):
    pairActivated = Signal(str, str)  # paths (or titles) of the two documents

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.result: CrossCheckResult | None = None
        self.caption = QLabel()
        self.caption.setWordWrap(True)
        self.caption.setTextFormat(Qt.TextFormat.PlainText)

        self.pairs_model = PairsModel(self)
        self.pairs_proxy = SortProxy(self)
        self.pairs_proxy.setSourceModel(self.pairs_model)
        self.pairs = QTableView()
        self.pairs.setObjectName("pairsTable")
        self.pairs.setModel(self.pairs_proxy)
        self.pairs.setSortingEnabled(True)
        self.pairs.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.pairs.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.pairs.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.pairs.verticalHeader().hide()
        h = self.pairs.horizontalHeader()
        h.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        h.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        for col in (2, 3, 4):
            h.setSectionResizeMode(col, QHeaderView.ResizeMode.ResizeToContents)

        self.matrix_model = MatrixModel(self)
        self.matrix = QTableView()
        self.matrix.setObjectName("matrixView")
        self.matrix.setModel(self.matrix_model)
        self.matrix.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.matrix.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.matrix.setShowGrid(True)
        for header in (self.matrix.horizontalHeader(), self.matrix.verticalHeader()):
            header.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
            header.setMinimumSectionSize(22)
        self.matrix.horizontalHeader().setDefaultSectionSize(38)
        self.matrix.verticalHeader().setDefaultSectionSize(28)
        self.matrix.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        self.legend = QLabel()
        self.legend.setWordWrap(True)
        self.legend.setTextFormat(Qt.TextFormat.PlainText)

        matrix_box = QWidget()
        mb = QVBoxLayout(matrix_box)
        mb.setContentsMargins(0, 0, 0, 0)
        mb.addWidget(self.matrix, 1)
        mb.addWidget(self.legend)

        self.splitter = QSplitter(Qt.Orientation.Horizontal)
        self.splitter.addWidget(self.pairs)
        self.splitter.addWidget(matrix_box)
        self.splitter.setSizes([480, 420])

        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.caption)
        layout.addWidget(self.splitter, 1)

        self.pairs.doubleClicked.connect(self._pair_double_clicked)
        self.pairs.activated.connect(self._pair_double_clicked)
        self.matrix.doubleClicked.connect(self._cell_double_clicked)
        self.retranslate()

    def retranslate(self) -> None:
        self._update_caption()

    def set_result(self, result: CrossCheckResult | None) -> None:
        self.result = result
        self.pairs_model.set_rows(result.pairs if result else ())
        self.pairs_proxy.sort(-1)  # the engine's ranking until the user sorts by a column
        self.pairs.horizontalHeader().setSortIndicator(-1, Qt.SortOrder.AscendingOrder)
        self.matrix_model.set_result(result)
        self._update_caption()

    def _update_caption(self) -> None:
        r = self.result
        if r is None:
            self.caption.setText(self.tr("Pick or drop a folder of essays to compare every pair."))
            self.legend.setText("")
            return
        text = self.tr("%1 documents, %2 suspicious pairs. Double-click a pair to see it side by side.") \
            .replace("%1", str(len(r.documents))).replace("%2", str(len(r.pairs)))
        if r.failed:
            text += "\n" + self.tr("Could not read: %1").replace("%1", ", ".join(short_name(p) for p, _ in r.failed))
        self.caption.setText(text)
        self.legend.setText(self.tr("Cell (row, column): % of the row document found in the column document."))

    def _pair_double_clicked(self, index: QModelIndex) -> None:
        if not index.isValid():
            return
        pair = self.pairs_model.row_object(self.pairs_proxy.mapToSource(index).row())
        self.pairActivated.emit(pair.a, pair.b)

    def _cell_double_clicked(self, index: QModelIndex) -> None:
        if index.isValid() and index.row() != index.column():
            docs = self.matrix_model.documents()
            self.pairActivated.emit(docs[index.row()], docs[index.column()])

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)
