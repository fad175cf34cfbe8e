"""Qt models over the core's result dataclasses (no engine calls here).

Every model is read-only and sortable through a ``QSortFilterProxyModel`` using
:data:`SORT_ROLE`, which holds the raw number or folded text of a cell.
"""

from __future__ import annotations

import os
from typing import Sequence

from PySide6.QtCore import QT_TRANSLATE_NOOP, QAbstractTableModel, QCoreApplication, QModelIndex, QPersistentModelIndex, QSortFilterProxyModel, Qt
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QApplication

from sverka.core.api import CrossCheckResult, CrossPair, DocumentInfo, SourceMatch
from sverka.core.api import source_hue
from .i18n import decimal

SORT_ROLE = Qt.ItemDataRole.UserRole + 1
OBJECT_ROLE = Qt.ItemDataRole.UserRole + 2  # the dataclass behind a row

# Hues chosen to stay apart from each other, shared with the reports (same colour per source).


def is_dark(palette: QPalette | None = None) -> bool:
    pal = palette or QApplication.palette()
    return pal.color(QPalette.ColorRole.Base).lightness() < 128


def source_colour(index: int, dark: bool | None = None) -> QColor:
    """Background colour of the ``index``-th source's passages.

    Light palette: a pale tint under dark text; dark palette: a deep shade under light text.
    Either way the palette's own text colour stays readable on it.
    """
    if dark is None:
        dark = is_dark()
    hue = source_hue(index)
    if dark:
        return QColor.fromHslF(hue / 360.0, 0.55, 0.30)
    return QColor.fromHslF(hue / 360.0, 0.85, 0.83)


def heat_colour(value: float, dark: bool | None = None) -> QColor:
    """0..1 to a white(or base)-to-red ramp for the cross-check matrix."""
    if dark is None:
        dark = is_dark()
    v = max(0.0, min(1.0, value))
    if dark:
        return QColor.fromHslF(0.0, 0.75 * v, 0.16 + 0.26 * v)
    return QColor.fromHslF(0.0, 0.85 * v, 1.0 - 0.45 * v)


def human_size(n: int) -> str:
    size = float(n)
    units = (QCoreApplication.translate("Units", "B"), QCoreApplication.translate("Units", "KB"),
             QCoreApplication.translate("Units", "MB"), QCoreApplication.translate("Units", "GB"))
    for k, unit in enumerate(units):
        if size < 1024 or k == len(units) - 1:
            return f"{size:.0f} {unit}" if k == 0 else f"{decimal(size)} {unit}"
        size /= 1024
    return f"{n} {units[0]}"


def percent(share: float) -> str:
    return f"{decimal(share * 100)} %"


def short_name(path_or_title: str) -> str:
    return os.path.basename(path_or_title.rstrip("/\\")) or path_or_title


def classmate_mark() -> str:
    """The word that marks a source which is another essay of the class."""
    return QCoreApplication.translate("SourcesModel", "classmate")


def source_title(src) -> str:
    """A source as the window names it; a classmate (another essay of the class) by its file,
    marked "classmate"."""
    if getattr(src, "classmate", False):
        name = short_name(src.path) if src.path else src.title
        return f"{name} \u00b7 {classmate_mark()}"
    return src.title


class TableModel(QAbstractTableModel):
    HEADERS: tuple[str, ...] = ()

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self._rows: list = []

    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self.HEADERS)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole):
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            if 0 <= section < len(self.HEADERS):
                return self.tr(self.HEADERS[section])
        return None

    def set_rows(self, rows: Sequence) -> None:
        self.beginResetModel()
        self._rows = list(rows)
        self.endResetModel()

    def row_object(self, row: int):
        return self._rows[row]

    def sort_key(self, column: int):
        """A key function over row objects for :meth:`sort`, or None to let the proxy sort."""
        return None

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        """Sort the rows with one C-level ``list.sort`` (a proxy would call ``data()`` n log n times)."""
        key = self.sort_key(column)
        if key is None or column < 0:
            return
        self.layoutAboutToBeChanged.emit()
        old = self.persistentIndexList()
        old_rows = [self._rows[i.row()] for i in old]
        order_rows = sorted(self._rows, key=key, reverse=order == Qt.SortOrder.DescendingOrder)
        new_pos = {id(obj): n for n, obj in enumerate(order_rows)}
        self._rows = order_rows
        self.changePersistentIndexList(old, [self.index(new_pos[id(o)], i.column()) for o, i in zip(old_rows, old)])
        self.layoutChanged.emit()

    def rows(self) -> list:
        return list(self._rows)


class CollectionModel(TableModel):
    """The documents of the reference collection: title, format, size, words, added."""

    HEADERS = (QT_TRANSLATE_NOOP("CollectionModel", "Title"), QT_TRANSLATE_NOOP("CollectionModel", "Format"),
               QT_TRANSLATE_NOOP("CollectionModel", "Size"), QT_TRANSLATE_NOOP("CollectionModel", "Words"),
               QT_TRANSLATE_NOOP("CollectionModel", "Added"))

    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole):
        if not index.isValid() or not 0 <= index.row() < len(self._rows):
            return None
        doc: DocumentInfo = self._rows[index.row()]
        col = index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            return (doc.title, doc.format.upper(), human_size(doc.size_bytes), f"{doc.words:,}".replace(",", "\u202f"),
                    doc.added[:10])[col]
        if role == SORT_ROLE:
            return (doc.title.casefold(), doc.format, doc.size_bytes, doc.words, doc.added)[col]
        if role == Qt.ItemDataRole.ToolTipRole:
            tip = doc.path or doc.title
            if doc.is_template:
                tip += "\n" + self.tr("Template text: matches with it do not count")
            return tip
        if role == Qt.ItemDataRole.TextAlignmentRole and col in (2, 3):
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role == Qt.ItemDataRole.FontRole and doc.is_template and col == 0:
            from PySide6.QtGui import QFont

            font = QFont()
            font.setItalic(True)
            return font
        if role == OBJECT_ROLE:
            return doc
        return None

    def sort_key(self, column: int):
        return (lambda d: d.title.casefold(), lambda d: d.format, lambda d: d.size_bytes,
                lambda d: d.words, lambda d: d.added)[column] if 0 <= column < 5 else None

    def total_size(self) -> int:
        return sum(d.size_bytes for d in self._rows)


class SourcesModel(TableModel):
    """The sources of a check result, each with its colour swatch (keyed by the source's
    identity, as in the text panes and the reports)."""

    _slots: dict[int, int] = {}

    def set_rows(self, rows: Sequence) -> None:
        from sverka.core.api import colour_slots, source_key

        rows = list(rows)
        self._slots = {id(s): slot for s, slot in zip(rows, colour_slots([source_key(s) for s in rows]))}
        super().set_rows(rows)

    HEADERS = (QT_TRANSLATE_NOOP("SourcesModel", "Source"), QT_TRANSLATE_NOOP("SourcesModel", "Borrowed from it"),
               QT_TRANSLATE_NOOP("SourcesModel", "Passages"), QT_TRANSLATE_NOOP("SourcesModel", "Words"))

    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole):
        if not index.isValid() or not 0 <= index.row() < len(self._rows):
            return None
        src: SourceMatch = self._rows[index.row()]
        col = index.column()
        counted = [p for p in src.passages if p.excluded is None]
        if role == Qt.ItemDataRole.DisplayRole:
            if col == 0:
                return source_title(src)
            if col == 1:
                return percent(src.containment)
            if col == 2:
                return str(len(counted)) if len(counted) == len(src.passages) else f"{len(counted)} / {len(src.passages)}"
            return str(sum(p.words for p in counted))
        if role == SORT_ROLE:
            return (src.title.casefold(), src.containment, len(counted), sum(p.words for p in counted))[col]
        if role == Qt.ItemDataRole.DecorationRole and col == 0:
            return source_colour(self._slots.get(id(src), index.row()))
        if role == Qt.ItemDataRole.ToolTipRole:
            lines = [src.path or src.title]
            if src.is_template:
                lines.append(self.tr("Template text: matches with it do not count"))
            if getattr(src, "classmate", False):
                lines.append(self.tr("Another essay of the class"))
            return "\n".join(lines)
        if role == Qt.ItemDataRole.TextAlignmentRole and col > 0:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role == OBJECT_ROLE:
            return src
        return None


class PairsModel(TableModel):
    """Cross-check pairs, most similar first."""

    HEADERS = (QT_TRANSLATE_NOOP("PairsModel", "Document A"), QT_TRANSLATE_NOOP("PairsModel", "Document B"),
               QT_TRANSLATE_NOOP("PairsModel", "A in B"), QT_TRANSLATE_NOOP("PairsModel", "B in A"),
               QT_TRANSLATE_NOOP("PairsModel", "Resemblance"))

    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole):
        if not index.isValid() or not 0 <= index.row() < len(self._rows):
            return None
        pair: CrossPair = self._rows[index.row()]
        col = index.column()
        values = (pair.a, pair.b, pair.a_in_b, pair.b_in_a, pair.resemblance)
        if role == Qt.ItemDataRole.DisplayRole:
            return short_name(values[col]) if col < 2 else percent(values[col])
        if role == SORT_ROLE:
            return values[col].casefold() if col < 2 else values[col]
        if role == Qt.ItemDataRole.ToolTipRole and col < 2:
            return values[col]
        if role == Qt.ItemDataRole.BackgroundRole and col in (2, 3, 4):
            return heat_colour(values[col])
        if role == Qt.ItemDataRole.TextAlignmentRole and col >= 2:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role == OBJECT_ROLE:
            return pair
        return None


class MatrixModel(QAbstractTableModel):
    """The cross-check matrix: cell (i, j) = containment of document i in document j."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self._docs: tuple[str, ...] = ()
        self._matrix: tuple[tuple[float, ...], ...] = ()

    def set_result(self, result: CrossCheckResult | None) -> None:
        self.beginResetModel()
        self._docs = result.documents if result else ()
        self._matrix = result.matrix if result else ()
        self.endResetModel()

    def documents(self) -> tuple[str, ...]:
        return self._docs

    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self._docs)

    def columnCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self._docs)

    def value(self, row: int, col: int) -> float:
        try:
            return float(self._matrix[row][col])
        except IndexError:
            return 0.0

    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole):
        if not index.isValid():
            return None
        r, c = index.row(), index.column()
        if not (0 <= r < len(self._docs) and 0 <= c < len(self._docs)):
            return None
        v = self.value(r, c)
        dark = is_dark()
        if role == Qt.ItemDataRole.DisplayRole:
            return "" if r == c else f"{v * 100:.0f}"
        if role == SORT_ROLE:
            return v
        if role == Qt.ItemDataRole.BackgroundRole:
            return QColor(QApplication.palette().color(QPalette.ColorRole.AlternateBase)) if r == c else heat_colour(v, dark)
        if role == Qt.ItemDataRole.ForegroundRole and not dark and v > 0.6:
            return QColor("white")
        if role == Qt.ItemDataRole.ToolTipRole and r != c:
            return self.tr("%1 is contained in %2 by %3").replace("%1", short_name(self._docs[r])).replace(
                "%2", short_name(self._docs[c])).replace("%3", percent(v))
        if role == Qt.ItemDataRole.TextAlignmentRole:
            return int(Qt.AlignmentFlag.AlignCenter)
        return None

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole):
        if not 0 <= section < len(self._docs):
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            if orientation == Qt.Orientation.Vertical:
                return f"{section + 1}  {short_name(self._docs[section])}"
            return str(section + 1)
        if role == Qt.ItemDataRole.ToolTipRole:
            return self._docs[section]
        return None


class SortProxy(QSortFilterProxyModel):
    """Sorts on :data:`SORT_ROLE` (or lets the source model sort itself when it can, which is
    much faster for thousands of rows); filters on title and path (case-insensitive, any part)."""

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        model = self.sourceModel()
        if column >= 0 and isinstance(model, TableModel) and model.sort_key(column) is not None:
            super().sort(-1)  # keep the source's order
            model.sort(column, order)
        else:
            super().sort(column, order)

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.setSortRole(SORT_ROLE)
        self.setFilterCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        self.setFilterKeyColumn(0)
        self.setSortCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)

    _needle = ""

    def set_filter_text(self, text: str) -> None:
        if hasattr(self, "beginFilterChange"):  # Qt >= 6.9
            self.beginFilterChange()
            self._needle = text.strip().casefold()
            self.endFilterChange(QSortFilterProxyModel.Direction.Rows)
        else:
            self._needle = text.strip().casefold()
            self.invalidateRowsFilter()

    def filterAcceptsRow(self, source_row: int, source_parent) -> bool:
        needle = self._needle
        if not needle:
            return True
        model = self.sourceModel()
        index = model.index(source_row, 0, source_parent)
        obj = model.data(index, OBJECT_ROLE)
        hay = [str(model.data(index, Qt.ItemDataRole.DisplayRole) or "")]
        path = getattr(obj, "path", None)
        if path:
            hay.append(path)
        return any(needle in h.casefold() for h in hay)
