"""The Qt models over result dataclasses (hand-made results)."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor

from sverka.core.api import DocumentInfo
from sverka.gui.models import (
    OBJECT_ROLE,
    CollectionModel,
    MatrixModel,
    PairsModel,
    SortProxy,
    SourcesModel,
    heat_colour,
    human_size,
    source_colour,
)


def docs():
    return [
        DocumentInfo(1, "/c/Ванька.txt", "Чехов — Ванька", "txt", 7000, 1200, 12948, "2026-01-01T10:00:00", "a" * 64),
        DocumentInfo(2, "/c/Парус.txt", "Лермонтов — Парус", "txt", 400, 60, 624, "2026-01-02T10:00:00", "b" * 64),
        DocumentInfo(3, "/c/essay.docx", "Essay", "docx", 3000, 500, 40000, "2026-01-03T10:00:00", "c" * 64,
                     is_template=True),
    ]


def relative_luminance(c: QColor) -> float:
    def ch(v: float) -> float:
        return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4
    return 0.2126 * ch(c.redF()) + 0.7152 * ch(c.greenF()) + 0.0722 * ch(c.blueF())


def contrast(a: QColor, b: QColor) -> float:
    la, lb = sorted((relative_luminance(a), relative_luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def test_collection_model(qtmodeltester):
    model = CollectionModel()
    model.set_rows(docs())
    qtmodeltester.check(model)
    assert model.rowCount() == 3
    assert model.data(model.index(0, 0)) == "Чехов — Ванька"
    assert model.data(model.index(0, 2)) == "12.6 KB"
    assert model.total_size() == 12948 + 624 + 40000
    assert model.data(model.index(2, 0), Qt.ItemDataRole.FontRole).italic()


def test_collection_filter_matches_title_and_path(qtmodeltester):
    model = CollectionModel()
    model.set_rows(docs())
    proxy = SortProxy()
    proxy.setSourceModel(model)
    qtmodeltester.check(proxy)
    proxy.set_filter_text("ПАРУС")
    assert proxy.rowCount() == 1
    proxy.set_filter_text(".docx")
    assert [proxy.data(proxy.index(r, 0), OBJECT_ROLE).id for r in range(proxy.rowCount())] == [3]
    proxy.set_filter_text("")
    proxy.sort(2, Qt.SortOrder.DescendingOrder)  # by size, numerically
    assert [proxy.data(proxy.index(r, 0), OBJECT_ROLE).id for r in range(3)] == [3, 1, 2]


def test_sources_model(qtmodeltester, hand_result):
    model = SourcesModel()
    model.set_rows(hand_result.sources)
    qtmodeltester.check(model)
    assert model.data(model.index(0, 1)) == "12.0 %"
    assert model.data(model.index(1, 2)) == "0 / 1"  # the only passage is excluded
    from sverka.core.report import colour_slots

    slots = colour_slots([s.sha256 for s in hand_result.sources])  # by identity, as the panes and reports
    assert model.data(model.index(0, 0), Qt.ItemDataRole.DecorationRole) == source_colour(slots[0])
    proxy = SortProxy()
    proxy.setSourceModel(model)
    proxy.sort(1, Qt.SortOrder.AscendingOrder)
    assert proxy.data(proxy.index(0, 0)) == "Лермонтов — Парус"


def test_pairs_and_matrix_models(qtmodeltester, hand_crosscheck):
    pairs = PairsModel()
    pairs.set_rows(hand_crosscheck.pairs)
    qtmodeltester.check(pairs)
    assert pairs.data(pairs.index(0, 0)) == "ivanov.txt"
    assert pairs.data(pairs.index(0, 2)) == "80.0 %"
    matrix = MatrixModel()
    matrix.set_result(hand_crosscheck)
    qtmodeltester.check(matrix)
    assert matrix.rowCount() == matrix.columnCount() == 3
    assert matrix.data(matrix.index(0, 1)) == "80"
    assert matrix.data(matrix.index(1, 1)) == ""
    hot = matrix.data(matrix.index(0, 1), Qt.ItemDataRole.BackgroundRole)
    cold = matrix.data(matrix.index(2, 0), Qt.ItemDataRole.BackgroundRole)
    assert hot.saturationF() > cold.saturationF()
    assert "ivanov.txt" in matrix.data(matrix.index(0, 1), Qt.ItemDataRole.ToolTipRole)


def test_source_colours_readable_in_light_and_dark_palettes():
    black, white = QColor("black"), QColor("white")
    for i in range(14):
        assert contrast(source_colour(i, dark=False), black) >= 7.0, i
        assert contrast(source_colour(i, dark=True), white) >= 4.5, i
    hues = {source_colour(i, dark=False).name() for i in range(14)}
    assert len(hues) == 14
    assert contrast(heat_colour(1.0, dark=True), white) >= 4.5


def test_human_size():
    assert human_size(512) == "512 B"
    assert human_size(2048) == "2.0 KB"
    assert human_size(5 * 1024 * 1024) == "5.0 MB"


def test_the_russian_window_writes_a_decimal_comma(qapp):
    # "1,0 КБ", "50,4 %": Russian writes a decimal comma; the English window keeps its point.
    from sverka.gui.i18n import Translators
    from sverka.gui.models import percent

    translators = Translators()
    translators.switch("ru")
    try:
        assert human_size(1024) == "1,0 КБ"
        assert percent(0.504) == "50,4 %"
    finally:
        translators.switch("en")
    assert human_size(1024) == "1.0 KB" and percent(0.504) == "50.4 %"
