"""A class of essays checked in one action: one sortable row per essay.

The table shows, per essay, the three shares (borrowed / cited / original), its main source,
the classmate it shares most with (when the essays were also compared with each other) and
its warnings; a double-click (or Enter) opens the essay's result side by side. "Export all"
writes one report per essay, named after it, into a folder. The work itself runs in the
window's jobs; this module only shows a :class:`~sverka.core.api.BatchResult`.
"""

from __future__ import annotations

from PySide6.QtCore import QT_TRANSLATE_NOOP, QEvent, QModelIndex, QPersistentModelIndex, Qt, Signal
from PySide6.QtGui import QIcon
from PySide6.QtWidgets import (
    QAbstractItemView,
    QApplication,
    QCheckBox,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QStyle,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from sverka.core.api import BatchItem, BatchResult

from .i18n import current_language, decimal, message_text
from .models import OBJECT_ROLE, SORT_ROLE, SortProxy, TableModel, classmate_mark, heat_colour, short_name


def is_classmate(source) -> bool:
    """A source that is another essay of the class (``SourceMatch.classmate``)."""
    return bool(getattr(source, "classmate", False))


def _main_source(item: BatchItem) -> tuple[str, float, bool]:
    """(name, share 0..1, is a classmate) of the source the essay borrows most from, a
    classmate included; ("", 0, False) if none."""
    if item.result is None:
        return "", 0.0, False
    counted = [s for s in item.result.sources if not s.is_template and s.containment > 0]
    if not counted:
        return "", 0.0, False
    best = max(counted, key=lambda s: (s.containment, s.title))
    mate = is_classmate(best)
    return (short_name(best.path or best.title) if mate else best.title), best.containment, mate


def _closest_classmate(batch: BatchResult, item: BatchItem) -> tuple[str, float] | None:
    """The classmate sharing most of the essay's words: from the class's cross-check, else
    (a class restored from the kept results) from the essay's classmate sources."""
    r = item.result
    if batch.cross is not None:
        return batch.closest_classmate(r.suspect.path or item.path)
    mates = [s for s in r.sources if is_classmate(s)]
    if not mates:
        return None

    def share(s) -> float:  # a classmate left out of the shares still shares its words
        if s.containment or not r.suspect.words:
            return s.containment
        return min(1.0, sum(p.matched_words for p in s.passages) / r.suspect.words)

    best = max(mates, key=lambda s: (share(s), s.path or s.title))
    return best.path or best.title, share(best)


_icons: dict[str, QIcon] = {}


def warning_icon() -> QIcon:
    """The style's warning icon, made once."""
    if "warning" not in _icons:
        _icons["warning"] = QApplication.style().standardIcon(QStyle.StandardPixmap.SP_MessageBoxWarning)
    return _icons["warning"]


class BatchModel(TableModel):
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
        self._worded: dict[tuple[int, str], tuple[str, str]] = {}  # (id(item), language) -> warnings worded

    def set_batch(self, batch: BatchResult | None) -> None:
        self.batch = batch
        items = batch.items if batch is not None else ()
        self._values = {id(it): self._compute(batch, it) for it in items}
        self._worded = {}
        self.set_rows(items)

    @staticmethod
    def _compute(batch: BatchResult, item: BatchItem) -> tuple:
        """(essay, borrowed, cited, original, (main source, share), (classmate, share), warnings)."""
        r = item.result
        if r is None:
            return (short_name(item.path), None, None, None, ("", 0.0, False), ("", 0.0), 1)
        found = _closest_classmate(batch, item)
        mate = (short_name(found[0]), found[1]) if found else ("", 0.0)
        return (short_name(item.path), r.borrowed_percent, r.cited_percent, r.original_percent,
                _main_source(item), mate, len(r.warnings) + len(r.suspect.warnings))

    @staticmethod
    def warnings_of(item: BatchItem) -> list[str]:
        """The essay's warnings in the window's language (why it could not be read, if so)."""
        if item.result is None:
            return [message_text(item.error)] if item.error else []
        return [message_text(w) for w in (*item.result.warnings, *item.result.suspect.warnings)]

    def _warnings(self, item: BatchItem) -> tuple[str, str]:
        """(the cell, the tooltip) of the essay's warnings, worded once per language (a
        table is painted cell by cell, role by role, many times)."""
        key = (id(item), current_language())
        found = self._worded.get(key)
        if found is None:
            words = self.warnings_of(item)
            cell = ""
            if words and item.result is not None:
                first = words[0].split(". ")[0].rstrip(".")
                cell = first if len(words) == 1 else f"{first} (+{len(words) - 1})"
            found = self._worded[key] = (cell, "\n".join(words))
        return found

    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole):
        if not index.isValid() or not 0 <= index.row() < len(self._rows):
            return None
        item: BatchItem = self._rows[index.row()]
        col = index.column()
        values = self._values[id(item)]
        if role == Qt.ItemDataRole.DisplayRole:
            return self.text(item, col)
        if role == SORT_ROLE:
            return self.sort_key(col)(item)
        if role == Qt.ItemDataRole.ToolTipRole:
            if item.error:
                return message_text(item.error)
            if col == self.WARNINGS:
                return self._warnings(item)[1] or None
            if col == self.SOURCE and values[col][2]:
                return self.tr("Another essay of the class")
            return item.path
        if role == Qt.ItemDataRole.DecorationRole and col == self.WARNINGS and values[col]:
            return warning_icon()
        if role == Qt.ItemDataRole.BackgroundRole and item.result is not None and col == self.BORROWED:
            return heat_colour(item.result.borrowed_percent / 100.0)
        if role == Qt.ItemDataRole.TextAlignmentRole and col in (self.BORROWED, self.CITED, self.ORIGINAL):
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role == OBJECT_ROLE:
            return item
        return None

    def text(self, item: BatchItem, col: int) -> str:
        """What the cell of ``item`` in column ``col`` says."""
        values = self._values[id(item)]
        if col == self.ESSAY:
            return values[0]
        if item.result is None:
            return self.tr("not readable") if col == self.BORROWED else ""
        if col in (self.BORROWED, self.CITED, self.ORIGINAL):
            return f"{decimal(values[col])} %"
        if col == self.SOURCE:
            name, share, mate = values[col]
            if not name:
                return "\u2014"
            return (f"{name} \u00b7 {classmate_mark()} ({decimal(share * 100)} %)" if mate
                    else f"{name} ({decimal(share * 100)} %)")
        if col == self.CLASSMATE:
            name, share = values[col]
            return f"{name} ({decimal(share * 100)} %)" if name else "\u2014"
        return self.warnings_cell(item)

    def warnings_cell(self, item: BatchItem) -> str:
        """The first warning in words, and how many more: "long quotation (+1)"; every one is
        in the tooltip."""
        return self._warnings(item)[0]

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

    # columns of names and words that give way when the table is too narrow for all
    ELASTIC = (BatchModel.SOURCE, BatchModel.CLASSMATE, BatchModel.WARNINGS)

    checkClassRequested = Signal()  # the user wants to pick a folder of essays
    resultActivated = Signal(object)  # BatchItem whose result to open side by side
    exportAllRequested = Signal(str)  # "html" or "pdf"
    countClassmatesToggled = Signal(bool)  # the teacher's switch: classmates counted in the shares

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
        self.classmates_box = QCheckBox()
        self.classmates_box.setObjectName("countClassmatesBox")
        self.classmates_box.setChecked(True)
        self.cross_box.toggled.connect(self.classmates_box.setEnabled)
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
        h.setDefaultAlignment(Qt.AlignmentFlag.AlignCenter | Qt.TextFlag.TextWordWrap)  # a narrow header wraps
        self.table.activated.connect(self._activated)
        self.table.doubleClicked.connect(self._activated)

        top = QHBoxLayout()
        top.addWidget(self.check_button)
        top.addWidget(self.cross_box)
        top.addWidget(self.classmates_box)
        top.addStretch(1)
        top.addWidget(self.format_box)
        top.addWidget(self.export_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addLayout(top)
        layout.addWidget(self.caption)
        layout.addWidget(self.table, 1)

        self.check_button.clicked.connect(self.checkClassRequested)
        self.classmates_box.toggled.connect(self.countClassmatesToggled)
        self.export_button.clicked.connect(lambda: self.exportAllRequested.emit(self.export_kind()))
        self.retranslate()

    @property
    def batch(self) -> BatchResult | None:
        return self.model.batch

    def cross(self) -> bool:
        return self.cross_box.isChecked()

    def count_classmates(self) -> bool:
        return self.classmates_box.isChecked()

    def set_count_classmates(self, count: bool) -> None:
        """Show a class's remembered switch (without asking to rescore)."""
        blocked = self.classmates_box.blockSignals(True)
        self.classmates_box.setChecked(count)
        self.classmates_box.blockSignals(blocked)

    def export_kind(self) -> str:
        return self.format_box.currentData()

    def set_batch(self, batch: BatchResult | None) -> None:
        self.model.set_batch(batch)
        self.export_button.setEnabled(batch is not None and any(it.result for it in batch.items))
        self.table.setColumnHidden(BatchModel.CLASSMATE, batch is None or (
            batch.cross is None and not any(v[BatchModel.CLASSMATE][0] for v in self.model._values.values())))
        self._fit_columns()
        self._update_caption()

    def _measure(self) -> None:
        """Each column's widths from the font's metrics of the texts shown (Qt's
        resize-to-contents lays out every cell in every role: ~50 ms for 30 rows, too long
        for the GUI thread): its header on one line, its longest header word, its cells.
        Measured when the rows or the language change, not at every resize."""
        fm = self.table.fontMetrics()
        header_fm = self.table.horizontalHeader().fontMetrics()
        pad = 3 * fm.horizontalAdvance("M")
        sort_arrow = header_fm.height() + 10  # the sort indicator beside a header's text, and margins
        model = self.model
        one_line, one_word, content = {}, {}, {}
        for col in range(model.columnCount()):
            title = str(model.headerData(col, Qt.Orientation.Horizontal) or "")
            texts = {model.text(item, col) for item in model.rows()[:500]}  # each distinct text once
            cells = max([0] + [fm.horizontalAdvance(t) for t in texts])
            if col == BatchModel.WARNINGS and cells:
                cells += fm.height() + 4  # the warning icon
            limit = 240 if col in self.ELASTIC else 300
            one_line[col] = header_fm.horizontalAdvance(title) + sort_arrow
            one_word[col] = max([0] + [header_fm.horizontalAdvance(w) for w in title.split()]) + sort_arrow
            content[col] = min(cells + pad, limit) if cells else 0
            if col not in self.ELASTIC:  # the essay's name and the shares are never cut
                one_word[col] = max(one_word[col], content[col])
        self._measures = (one_line, one_word, content)

    def _fit_columns(self, measure: bool = True) -> None:
        """Column widths for the table's width. A header is never cut, even over an empty
        table: when the table is too narrow for every column, the names and warnings give
        way first (a cut cell's tooltip says it whole), then a long header wraps onto a
        second line, never inside a word."""
        if measure or not hasattr(self, "_measures"):
            self._measure()
        one_line, one_word, content = self._measures
        header = self.table.horizontalHeader()
        header_fm = header.fontMetrics()
        widths = {col: max(one_line[col], content[col]) for col in one_line}
        shown = [c for c in widths if not self.table.isColumnHidden(c)]
        # a table not shown yet has no width of its own: fitted again when it is shown
        room = self.table.viewport().width() if self.table.isVisible() else sum(widths.values())
        for floor in (one_line, one_word):  # first the cells give way, then the headers wrap
            while (excess := sum(widths[c] for c in shown) - room) > 0:
                slack = {c: widths[c] - floor[c] for c in shown if widths[c] > floor[c]
                         and (c in self.ELASTIC or floor is one_word)}
                if not slack:
                    break
                total = sum(slack.values())
                cut = min(excess, total)
                for c, give in slack.items():  # each gives in proportion, at least a pixel
                    widths[c] -= min(give, max(1, round(cut * give / total)))
        for col, width in widths.items():
            self.table.setColumnWidth(col, width)
        wrapped = any(widths[c] < one_line[c] for c in shown)
        lines = 2 if wrapped else 1
        header.setFixedHeight(lines * header_fm.lineSpacing() + header.style().pixelMetric(
            QStyle.PixelMetric.PM_HeaderMargin) * 2 + 6)

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self._fit_columns(measure=False)

    def showEvent(self, event) -> None:
        super().showEvent(event)
        self._fit_columns(measure=False)

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
        self.classmates_box.setText(self.tr("Count classmates in the shares"))
        self.classmates_box.setToolTip(self.tr(
            "On: text an essay shares with another essay of the class counts as borrowed. Off: the classmates "
            "are still listed as sources, but not counted. Remembered for each class."))
        self.model.headerDataChanged.emit(Qt.Orientation.Horizontal, 0, len(BatchModel.HEADERS) - 1)
        self._fit_columns()  # the headers readable in this language, rows or none
        self._update_caption()

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)
