"""Side by side: the suspect on the left, the selected source on the right.

Every passage of every source is painted on the suspect in its source's colour; the
selected source shows its own passages. Clicking a highlight on either side scrolls the
other side to its counterpart; previous/next walk through all passages in suspect order.
A long source found in a collection comes with only the excerpts around its passages
(:class:`~sverka.core.results.Excerpts`): they are shown one after another, ``[…]`` where
text is left out, and its passages' offsets (in its whole text) are put at their places there.
"Whole text" asks the window for the source's whole text (:attr:`CompareView.wholeTextWanted`;
the window reads it from the collection off the GUI thread and hands it to
:meth:`CompareView.show_whole_text`, which takes it only if the excerpts are slices of it).

Offsets of the core are Python ``str`` indices; Qt documents count UTF-16 units and turn
``\\r\\n`` into one paragraph break. :class:`Offsets` keeps both in step.
"""

from __future__ import annotations

import hashlib
from bisect import bisect_left, bisect_right
from dataclasses import dataclass

from PySide6.QtCore import QCoreApplication, QEvent, QObject, QPoint, Qt, Signal
from PySide6.QtGui import QColor, QFont, QKeySequence, QPalette, QShortcut, QTextCharFormat, QTextCursor, QTextFormat
from PySide6.QtWidgets import (
    QHBoxLayout,
    QTextEdit,
    QLabel,
    QPlainTextEdit,
    QSplitter,
    QToolButton,
    QToolTip,
    QVBoxLayout,
    QWidget,
)

from sverka.core.api import CheckResult, Passage, SourceMatch
from sverka.core.api import WRITTEN_WORD, colour_slots, source_key, tampered_words
from sverka.core.results import EXCLUSIONS, KINDS, METHODS, shown_offset

from .models import is_dark, percent, source_colour, source_title

SOURCE_PROPERTY = QTextFormat.Property.UserProperty + 1  # index of the source painted here
PASSAGE_PROPERTY = QTextFormat.Property.UserProperty + 2  # index of the passage within it
MARK_PROPERTY = QTextFormat.Property.UserProperty + 3  # "quote" / "bibliography"
TAMPERED_PROPERTY = QTextFormat.Property.UserProperty + 4  # a tampered word (overlay)

def word_differences(a_text: str, a_start: int, a_end: int, b_text: str, b_start: int, b_end: int
                     ) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """The words that differ between two matched passages, as character spans of each side
    (difflib on case-folded words, ё as е): replaced, inserted and deleted words. Passages
    longer than 3 000 words are not compared (the cost would freeze the window)."""
    import difflib

    a = [(m.start(), m.end(), m.group().casefold().replace("ё", "е")) for m in WRITTEN_WORD.finditer(a_text, a_start, a_end)]
    b = [(m.start(), m.end(), m.group().casefold().replace("ё", "е")) for m in WRITTEN_WORD.finditer(b_text, b_start, b_end)]
    if not a or not b or len(a) > 3000 or len(b) > 3000:
        return [], []
    left, right = [], []
    matcher = difflib.SequenceMatcher(None, [w for *_, w in a], [w for *_, w in b], autojunk=False)
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op != "equal":
            left += [(s, e) for s, e, _ in a[i1:i2]]
            right += [(s, e) for s, e, _ in b[j1:j2]]
    return left, right


def _whole_key(src: SourceMatch) -> tuple:
    """A long source's identity for its whole text read on demand: its id and its text's hash."""
    return src.source_id, src.sha256


def kind_name(key: str) -> str:
    """What kind of borrowing a passage is, in the user's language (results.KINDS)."""
    names = {
        "verbatim": QCoreApplication.translate("Kinds", "verbatim copy"),
        "inflected": QCoreApplication.translate("Kinds", "word forms changed"),
        "edited": QCoreApplication.translate("Kinds", "words inserted, deleted or replaced"),
        "reordered": QCoreApplication.translate("Kinds", "sentences or words reordered"),
        "synonyms": QCoreApplication.translate("Kinds", "words replaced by synonyms"),
        "paraphrase": QCoreApplication.translate("Kinds", "paraphrase: several kinds of changes at once"),
        "short": QCoreApplication.translate("Kinds", "short text matched by its longest words"),
        "meaning": QCoreApplication.translate("Kinds", "meaning kept, words changed"),
        "translation": QCoreApplication.translate("Kinds", "translation"),
    }
    return names.get(key, KINDS.get(key, key))


def method_name(key: str) -> str:
    names = {
        "exact": QCoreApplication.translate("Methods", "exact match of word sequences (shingles)"),
        "bridged": QCoreApplication.translate(
            "Methods", "match with small edits bridged (changed, inserted or deleted words)"),
        "sentence": QCoreApplication.translate(
            "Methods", "sentence with reordered or inflected words (sentence hashes)"),
        "short": QCoreApplication.translate("Methods", "short-text match (longest words)"),
        "paraphrase": QCoreApplication.translate(
            "Methods", "sentence matched by its rare words, synonyms counted (any order and form)"),
        "meaning": QCoreApplication.translate(
            "Methods", "sentence matched by its meaning, confirmed by its neighbours, names, numbers or related words"),
    }
    return names.get(key, METHODS.get(key, key))


def exclusion_name(key: str) -> str:
    names = {
        "quote": QCoreApplication.translate("Methods", "quoted text"),
        "bibliography": QCoreApplication.translate("Methods", "bibliography section"),
        "short": QCoreApplication.translate("Methods", "shorter than the minimum passage length"),
        "source": QCoreApplication.translate("Methods", "source excluded by the user"),
        "template": QCoreApplication.translate("Methods", "template text (e.g. the assignment)"),
        "classmate": QCoreApplication.translate("Methods", "shared with a classmate (not counted by the settings)"),
        "class": QCoreApplication.translate("Methods", "common to most of the class (e.g. the assignment)"),
        "common": QCoreApplication.translate("Methods", "at the opening of many essays of the collection (e.g. the assignment)"),
    }
    return names.get(key, EXCLUSIONS.get(key, key))


class Offsets:
    """Python ``str`` index <-> Qt document position for one text.

    The text is displayed with ``\\r\\n`` written as `` \\n`` (same length, see
    :meth:`display_text`), so only characters outside the BMP (two UTF-16 units) shift.
    """

    def __init__(self, text: str) -> None:
        wide = [i for i, ch in enumerate(text) if ord(ch) > 0xFFFF] if not text.isascii() else []
        self._wide = wide
        self._wide_end_qt = [w + k + 2 for k, w in enumerate(wide)]
        self._len = len(text)

    @staticmethod
    def display_text(text: str) -> str:
        return text.replace("\r\n", " \n")

    def to_qt(self, i: int) -> int:
        i = max(0, min(i, self._len))
        return i + bisect_left(self._wide, i)

    def from_qt(self, q: int) -> int:
        return max(0, min(self._len, q - bisect_right(self._wide_end_qt, q)))


@dataclass(frozen=True)
class _Ref:
    source: int
    passage: int


class TextPane(QPlainTextEdit):
    """A read-only text that reports clicks (as Python offsets) and asks for tooltips."""

    clicked = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setReadOnly(True)
        self.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse
                                     | Qt.TextInteractionFlag.TextSelectableByKeyboard)
        self.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        self.setUndoRedoEnabled(False)
        self.offsets = Offsets("")
        self.tooltip_for = lambda offset: ""
        self._press: QPoint | None = None
        self.viewport().installEventFilter(self)
        font = self.font()
        font.setPointSizeF(max(font.pointSizeF(), 10.5))
        self.setFont(font)

    def set_text(self, text: str) -> None:
        self.offsets = Offsets(text)
        # setPlainText inserts with the cursor's current format: after a passage was selected
        # that would paint the whole new text in the passage's colour.
        self.clear()
        self.setCurrentCharFormat(QTextCharFormat())
        self.setPlainText(Offsets.display_text(text))

    def offset_at(self, point: QPoint) -> int:
        return self.offsets.from_qt(self.cursorForPosition(point).position())

    def point_of(self, offset: int) -> QPoint:
        """Viewport point in the middle of the character at ``offset`` (for tests and tooltips)."""
        cursor = QTextCursor(self.document())
        cursor.setPosition(self.offsets.to_qt(offset))
        rect = self.cursorRect(cursor)
        return QPoint(rect.x() + 3, rect.center().y())

    def char_format_at(self, offset: int) -> QTextCharFormat:
        """The format of the character at ``offset`` (the one after the position)."""
        cursor = QTextCursor(self.document())
        cursor.setPosition(self.offsets.to_qt(offset) + 1)
        return cursor.charFormat()

    def select(self, start: int, end: int) -> None:
        """Select [start, end) and bring it into the middle of the view."""
        cursor = QTextCursor(self.document())
        cursor.setPosition(self.offsets.to_qt(end))
        self.setTextCursor(cursor)
        self.centerCursor()
        cursor.setPosition(self.offsets.to_qt(start))
        cursor.setPosition(self.offsets.to_qt(end), QTextCursor.MoveMode.KeepAnchor)
        self.setTextCursor(cursor)

    def selected_range(self) -> tuple[int, int]:
        c = self.textCursor()
        return self.offsets.from_qt(c.selectionStart()), self.offsets.from_qt(c.selectionEnd())

    def paint(self, spans: list[tuple[int, int, QTextCharFormat]]) -> None:
        cursor = QTextCursor(self.document())
        cursor.beginEditBlock()
        for start, end, fmt in spans:
            if end <= start:
                continue
            cursor.setPosition(self.offsets.to_qt(start))
            cursor.setPosition(self.offsets.to_qt(end), QTextCursor.MoveMode.KeepAnchor)
            cursor.mergeCharFormat(fmt)
        cursor.endEditBlock()

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:
        if obj is self.viewport():
            et = event.type()
            if et == QEvent.Type.MouseButtonPress:
                self._press = event.position().toPoint()
            elif et == QEvent.Type.MouseButtonRelease and event.button() == Qt.MouseButton.LeftButton:
                point = event.position().toPoint()
                if self._press is None or (point - self._press).manhattanLength() < 4:
                    self.clicked.emit(self.offset_at(point))
                self._press = None
            elif et == QEvent.Type.ToolTip:
                text = self.tooltip_for(self.offset_at(event.pos()))
                if text:
                    QToolTip.showText(event.globalPos(), text, self.viewport())
                else:
                    QToolTip.hideText()
                    event.ignore()
                return True
        return super().eventFilter(obj, event)


class CompareView(QWidget):
    """The side-by-side view of one :class:`CheckResult`."""

    sourceChanged = Signal(int)  # index into result.sources
    passageChanged = Signal(int, int)  # source index, passage index
    wholeTextWanted = Signal(int)  # index into result.sources: its whole text, please (show_whole_text)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.result: CheckResult | None = None
        self.source_index = -1
        self._source_text = ""  # the shown source's text as shown
        self._where: list[tuple[int, int]] | None = None  # its excerpts' places there (None: whole)
        self._whole: dict[tuple, str] = {}  # long sources' whole texts read on demand, by _whole_key
        self._order: list[_Ref] = []  # every passage, in suspect order
        self._pos = -1
        self._dark = False
        self.slots: list[int] = []  # colour of each source of the result, by its identity

        self.left = TextPane()
        self.right = TextPane()
        self.left.setObjectName("suspectPane")
        self.right.setObjectName("sourcePane")
        self.left_title = QLabel()
        self.right_title = QLabel()
        for label in (self.left_title, self.right_title):
            label.setTextFormat(Qt.TextFormat.PlainText)
            label.setWordWrap(False)
            font = label.font()
            font.setBold(True)
            label.setFont(font)

        self.prev_button = QToolButton()
        self.next_button = QToolButton()
        self.prev_button.setArrowType(Qt.ArrowType.UpArrow)
        self.next_button.setArrowType(Qt.ArrowType.DownArrow)
        self.prev_button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.next_button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.counter = QLabel()
        self.method_label = QLabel()
        self.method_label.setTextFormat(Qt.TextFormat.PlainText)
        self.method_label.setForegroundRole(QPalette.ColorRole.PlaceholderText)

        nav = QHBoxLayout()
        nav.setContentsMargins(0, 0, 0, 0)
        nav.addWidget(self.prev_button)
        nav.addWidget(self.next_button)
        nav.addWidget(self.counter)
        nav.addSpacing(12)
        nav.addWidget(self.method_label, 1)

        left_box = QWidget()
        lb = QVBoxLayout(left_box)
        lb.setContentsMargins(0, 0, 0, 0)
        lb.addWidget(self.left_title)
        lb.addWidget(self.left, 1)
        right_box = QWidget()
        rb = QVBoxLayout(right_box)
        rb.setContentsMargins(0, 0, 0, 0)
        self.whole_button = QToolButton()
        self.whole_button.setObjectName("wholeSourceButton")
        self.whole_button.setVisible(False)
        self.whole_button.clicked.connect(self._want_whole_text)
        right_head = QHBoxLayout()
        right_head.setContentsMargins(0, 0, 0, 0)
        right_head.addWidget(self.right_title, 1)
        right_head.addWidget(self.whole_button)
        rb.addLayout(right_head)
        rb.addWidget(self.right, 1)
        self.splitter = QSplitter(Qt.Orientation.Horizontal)
        self.splitter.addWidget(left_box)
        self.splitter.addWidget(right_box)
        self.splitter.setChildrenCollapsible(False)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(nav)
        layout.addWidget(self.splitter, 1)

        self.prev_button.clicked.connect(self.previous_passage)
        self.next_button.clicked.connect(self.next_passage)
        self.left.clicked.connect(self._left_clicked)
        self.right.clicked.connect(self._right_clicked)
        self.left.tooltip_for = lambda off: self.tooltip_at("suspect", off)
        self.right.tooltip_for = lambda off: self.tooltip_at("source", off)

        self.shortcuts = []
        for keys, slot in (((QKeySequence.StandardKey.FindNext, "Ctrl+Down"), self.next_passage),
                           ((QKeySequence.StandardKey.FindPrevious, "Ctrl+Up"), self.previous_passage)):
            for key in keys:
                sc = QShortcut(QKeySequence(key), self)
                sc.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
                sc.activated.connect(slot)
                self.shortcuts.append(sc)
        self.retranslate()
        self.set_result(None)

    # -- texts -----------------------------------------------------------------------------
    def retranslate(self) -> None:
        self.prev_button.setText(self.tr("Previous"))
        self.next_button.setText(self.tr("Next"))
        self.prev_button.setToolTip(self.tr("Previous passage (Shift+F3, Ctrl+Up)"))
        self.next_button.setToolTip(self.tr("Next passage (F3, Ctrl+Down)"))
        self.whole_button.setText(self.tr("Whole text"))
        self.whole_button.setToolTip(self.tr("Only the parts of this long source around its passages are shown; "
                                             "show its whole text from the collection"))
        self._update_counter()
        if self.result is None:
            self.left_title.setText(self.tr("Checked text"))
            self.right_title.setText(self.tr("Source"))

    # -- formats ---------------------------------------------------------------------------
    def _passage_format(self, src: int, p_index: int, passage: Passage, dark: bool) -> QTextCharFormat:
        fmt = QTextCharFormat()
        colour = source_colour(self.slots[src] if src < len(self.slots) else src, dark)
        if passage.excluded is None:
            fmt.setBackground(colour)
        else:
            # Excluded: no fill, a dashed underline in the source's colour, italic.
            line = QColor(colour)
            line = line.lighter(170) if dark else line.darker(170)
            fmt.setUnderlineStyle(QTextCharFormat.UnderlineStyle.DashUnderline)
            fmt.setUnderlineColor(line)
            fmt.setFontItalic(True)
        fmt.setProperty(SOURCE_PROPERTY, src)
        fmt.setProperty(PASSAGE_PROPERTY, p_index)
        return fmt

    def _mark_format(self, kind: str, dark: bool) -> QTextCharFormat:
        fmt = QTextCharFormat()
        fmt.setFontItalic(True)
        fmt.setForeground(self.palette().color(QPalette.ColorRole.Text))
        fmt.setBackground(QColor("#3b3b3b") if dark else QColor("#ececec"))
        fmt.setProperty(MARK_PROPERTY, kind)
        return fmt

    # -- result ----------------------------------------------------------------------------
    def set_result(self, result: CheckResult | None, source_index: int = 0) -> None:
        self.result = result
        self.slots = colour_slots([source_key(s) for s in result.sources]) if result is not None else []
        self._order = []
        self._pos = -1
        self.source_index = -1
        self._source_text, self._where = "", None
        self.whole_button.setVisible(False)
        if result is None:
            self.left.set_text("")
            self.right.set_text("")
            self.retranslate()
            self._update_counter()
            return
        dark = self._dark = is_dark(self.palette())
        self.left.set_text(result.suspect_text)
        spans: list[tuple[int, int, QTextCharFormat]] = []
        for mark in result.marked:
            spans.append((mark.start, mark.end, self._mark_format(mark.kind, dark)))
        # Lower-ranked sources first so the strongest source's colour wins where passages overlap;
        # excluded passages before counted ones.
        for src in reversed(range(len(result.sources))):
            for k, p in enumerate(result.sources[src].passages):
                if p.excluded is not None:
                    spans.append((p.suspect_start, p.suspect_end, self._passage_format(src, k, p, dark)))
        for src in reversed(range(len(result.sources))):
            for k, p in enumerate(result.sources[src].passages):
                if p.excluded is None:
                    spans.append((p.suspect_start, p.suspect_end, self._passage_format(src, k, p, dark)))
        self.left.paint(spans)
        self._order = sorted(
            (_Ref(s, k) for s, src in enumerate(result.sources) for k in range(len(src.passages))),
            key=lambda r: (result.sources[r.source].passages[r.passage].suspect_start, r.source, r.passage),
        )
        title = result.suspect.title or self.tr("Checked text")
        self.left_title.setText(title)
        self.left_title.setToolTip(result.suspect.path or title)
        self.left.moveCursor(QTextCursor.MoveOperation.Start)
        if result.sources:
            self.set_source(min(max(0, source_index), len(result.sources) - 1), scroll=False)
        else:
            self.right.set_text("")
            self.right_title.setText(self.tr("No sources found"))
            self._update_overlays()
        self._update_counter()

    def set_source(self, index: int, scroll: bool = True) -> None:
        """Show source ``index`` on the right with its passages highlighted and, with
        ``scroll``, both panes at its first passage (in the checked text's order)."""
        if self.result is None or not 0 <= index < len(self.result.sources):
            return
        if index == self.source_index:
            return
        self.source_index = index
        src: SourceMatch = self.result.sources[index]
        dark = is_dark(self.palette())
        whole = self._whole.get(_whole_key(src))
        self._source_text, self._where = (whole, None) if whole is not None else src.shown_text()
        self.whole_button.setVisible(self._where is not None and src.source_id is not None)
        self.whole_button.setEnabled(True)
        self.right.set_text(self._source_text)
        self.right.paint([(*self.source_span(p), self._passage_format(index, k, p, dark))
                          for k, p in enumerate(src.passages)])
        self.right.moveCursor(QTextCursor.MoveOperation.Start)
        self.right_title.setText(f"{source_title(src)} \u2014 {percent(src.containment)}")
        self.right_title.setToolTip(src.path or src.title)
        self._update_overlays()
        self.sourceChanged.emit(index)
        if scroll and src.passages:
            order = sorted(range(len(src.passages)), key=lambda k: (src.passages[k].excluded is not None,
                                                                    src.passages[k].suspect_start))
            self.show_passage(_Ref(index, order[0]))

    # -- a long source's whole text, on demand ---------------------------------------------
    def _want_whole_text(self) -> None:
        if self.result is not None and 0 <= self.source_index < len(self.result.sources):
            self.whole_button.setEnabled(False)  # until the answer (show_whole_text or whole_text_failed)
            self.wholeTextWanted.emit(self.source_index)

    def show_whole_text(self, source: SourceMatch, text: str) -> bool:
        """Take ``text`` as the whole text of ``source`` (a long source of the shown result shown
        in excerpts) and show it in their place, the passage shown kept in view. Refused (False)
        unless it is the text the result was made from (its SHA-256, and the excerpts slices of
        it at their places): the collection may have changed since."""
        ex = source.excerpts
        if ex is None or len(text) != ex.length or any(text[at:at + len(part)] != part for at, part in ex.parts) \
                or (source.sha256 and hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest() != source.sha256):
            self.whole_text_failed()
            return False
        self._whole[_whole_key(source)] = text
        if self.result is not None and 0 <= self.source_index < len(self.result.sources) \
                and self.result.sources[self.source_index] is source:
            index, pos = self.source_index, self._pos
            shown = self._order[pos] if 0 <= pos < len(self._order) and self._order[pos].source == index else None
            self.source_index = -1
            self.set_source(index, scroll=False)
            if shown is not None:
                self.show_passage(shown)
        return True

    def whole_text_failed(self) -> None:
        """The whole text could not be had (the window says why): the excerpts stay."""
        self.whole_button.setEnabled(True)

    # -- overlays: changed words inside passages, tampered words ---------------------------
    def _update_overlays(self) -> None:
        """Mark, without touching the passages' colours, the words an edited passage of the
        shown source changed (on both sides) and the tampered words of the checked text."""
        self.diff_words = {"suspect": [], "source": []}
        self.tampered = []
        if self.result is None:
            self.left.setExtraSelections([])
            self.right.setExtraSelections([])
            return
        text = self.result.suspect_text
        if 0 <= self.source_index < len(self.result.sources):
            src = self.result.sources[self.source_index]
            for p in src.passages:
                if p.kind in ("verbatim", "meaning", "translation") or p.excluded is not None:
                    continue  # copied as is, or matched by meaning: no word to point out
                left, right = word_differences(text, p.suspect_start, p.suspect_end,
                                               self._source_text, *self.source_span(p))
                self.diff_words["suspect"] += left
                self.diff_words["source"] += right
        self.tampered = tampered_words(text)
        diff = QTextCharFormat()
        diff.setFontUnderline(True)
        diff.setUnderlineStyle(QTextCharFormat.UnderlineStyle.SingleUnderline)
        diff.setUnderlineColor(QColor("#b00020") if not self._dark else QColor("#ff8a80"))
        diff.setForeground(QColor("#8a0018") if not self._dark else QColor("#ffb4a9"))
        diff.setFontWeight(QFont.Weight.Bold)
        diff.setToolTip(self.tr("Changed word"))
        bad = QTextCharFormat()
        bad.setUnderlineStyle(QTextCharFormat.UnderlineStyle.WaveUnderline)
        bad.setUnderlineColor(QColor("#d50000"))
        bad.setFontStrikeOut(False)
        bad.setProperty(TAMPERED_PROPERTY, True)

        def selections(pane: TextPane, spans, fmt) -> list:
            out = []
            for a, b, *_ in spans:
                sel = QTextEdit.ExtraSelection()
                cursor = QTextCursor(pane.document())
                cursor.setPosition(pane.offsets.to_qt(a))
                cursor.setPosition(pane.offsets.to_qt(b), QTextCursor.MoveMode.KeepAnchor)
                sel.cursor = cursor
                sel.format = fmt
                out.append(sel)
            return out

        self.left.setExtraSelections(selections(self.left, self.diff_words["suspect"], diff)
                                     + selections(self.left, self.tampered, bad))
        self.right.setExtraSelections(selections(self.right, self.diff_words["source"], diff))

    # -- lookups ---------------------------------------------------------------------------
    def passages_at(self, side: str, offset: int) -> list[_Ref]:
        """Passages covering ``offset`` in the suspect (all sources) or in the shown source."""
        if self.result is None:
            return []
        found = []
        if side == "suspect":
            for s, src in enumerate(self.result.sources):
                for k, p in enumerate(src.passages):
                    if p.suspect_start <= offset < p.suspect_end:
                        found.append(_Ref(s, k))
            # The shown source first, then counted before excluded, then by rank.
            found.sort(key=lambda r: (r.source != self.source_index,
                                      self.result.sources[r.source].passages[r.passage].excluded is not None,
                                      r.source))
        elif 0 <= self.source_index < len(self.result.sources):
            for k, p in enumerate(self.result.sources[self.source_index].passages):
                start, end = self.source_span(p)
                if start <= offset < end:
                    found.append(_Ref(self.source_index, k))
        return found

    def source_span(self, p: Passage) -> tuple[int, int]:
        """Where passage ``p`` of the shown source lies in the right pane's text."""
        if self._where is None:
            return p.source_start, p.source_end
        return shown_offset(self._where, p.source_start), shown_offset(self._where, p.source_end)

    def passage(self, ref: _Ref) -> Passage:
        assert self.result is not None
        return self.result.sources[ref.source].passages[ref.passage]

    def tooltip_at(self, side: str, offset: int) -> str:
        refs = self.passages_at(side, offset)
        lines = []
        for ref in refs[:3]:
            p = self.passage(ref)
            src = self.result.sources[ref.source]
            lines.append(self.tr("Source: %1").replace("%1", source_title(src)))
            if p.kind:
                lines.append(self.tr("Kind: %1").replace("%1", kind_name(p.kind)))
            lines.append(self.tr("Found by: %1").replace("%1", method_name(p.method)))
            lines.append(self.tr("%n words").replace("%n", str(p.words)))
            if p.excluded:
                lines.append(self.tr("Not counted: %1").replace("%1", exclusion_name(p.excluded)))
        if side == "suspect" and self.result is not None:
            for a, b, kind in getattr(self, "tampered", []):
                if a <= offset < b:
                    lines.append(self.tr("Tampered word: look-alike letters of another alphabet") if kind == "lookalike"
                                 else self.tr("Tampered word: invisible characters inside"))
            for mark in self.result.marked:
                if mark.start <= offset < mark.end:
                    lines.append(self.tr("Quotation") if mark.kind == "quote" else self.tr("Bibliography"))
        return "\n".join(lines)

    # -- navigation ------------------------------------------------------------------------
    def show_passage(self, ref: _Ref, origin: str | None = None) -> None:
        """Select passage ``ref`` on both sides; ``origin`` is the side the user clicked (left as is)."""
        if self.result is None:
            return
        if ref.source != self.source_index:
            self.set_source(ref.source, scroll=False)
        p = self.passage(ref)
        if origin != "suspect":
            self.left.select(p.suspect_start, p.suspect_end)
        if origin != "source":
            self.right.select(*self.source_span(p))
        if origin == "suspect":
            self._keep_selection(self.left, p.suspect_start, p.suspect_end)
        if origin == "source":
            self._keep_selection(self.right, *self.source_span(p))
        try:
            self._pos = self._order.index(ref)
        except ValueError:
            self._pos = -1
        self._update_counter()
        self.passageChanged.emit(ref.source, ref.passage)

    def passage_label(self) -> str:
        """What kind of borrowing the passage in view is and how it was found ("" when none is)."""
        if self.result is None or not 0 <= self._pos < len(self._order):
            return ""
        p = self.passage(self._order[self._pos])
        return (kind_name(p.kind) + "  \u00b7  " if p.kind else "") + method_name(p.method) + (
            "  \u2014  " + self.tr("not counted: %1").replace("%1", exclusion_name(p.excluded)) if p.excluded else "")

    @staticmethod
    def _keep_selection(pane: TextPane, start: int, end: int) -> None:
        cursor = QTextCursor(pane.document())
        cursor.setPosition(pane.offsets.to_qt(start))
        cursor.setPosition(pane.offsets.to_qt(end), QTextCursor.MoveMode.KeepAnchor)
        pane.setTextCursor(cursor)

    def next_passage(self) -> None:
        if self._order:
            self.show_passage(self._order[(self._pos + 1) % len(self._order)])

    def previous_passage(self) -> None:
        if self._order:
            self.show_passage(self._order[(self._pos - 1) % len(self._order)] if self._pos >= 0 else self._order[-1])

    def _left_clicked(self, offset: int) -> None:
        refs = self.passages_at("suspect", offset)
        if refs:
            self.show_passage(refs[0], origin="suspect")

    def _right_clicked(self, offset: int) -> None:
        refs = self.passages_at("source", offset)
        if refs:
            self.show_passage(refs[0], origin="source")

    def _update_counter(self) -> None:
        """The counter and the label of the passage in view: they always speak of the result
        shown now (another essay's result clears them), in the window's language."""
        total = len(self._order)
        self.method_label.setText(self.passage_label())
        if total == 0:
            self.counter.setText(self.tr("No passages"))
        elif self._pos < 0:
            self.counter.setText(self.tr("%n passages").replace("%n", str(total)))
        else:
            self.counter.setText(self.tr("Passage %1 of %2").replace("%1", str(self._pos + 1)).replace("%2", str(total)))
        self.prev_button.setEnabled(total > 0)
        self.next_button.setEnabled(total > 0)

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        elif (event.type() == QEvent.Type.PaletteChange and self.result is not None
              and is_dark(self.palette()) != self._dark):
            src = self.source_index
            self.set_result(self.result, max(0, src))
        super().changeEvent(event)
