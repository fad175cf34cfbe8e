"""PDF text read as PDFium draws it: sizes on the page through every matrix (forms included),
text under 2 pt left out and reported, fake bold read once, filled form fields read, Cyrillic
read through a wrong font map recovered and warned. Every PDF is written here (pdfgen)."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from sverka.core import api
from sverka.core.document import Document
from sverka.core.errors import EmptyDocument
from sverka.core.extract import extract
from sverka.core.extract.pdf_text import _SCORED_WORD, _letters_lost

from pdfgen import form, page_pdf

BODY = b"BT /F1 11 Tf 72 760 Td (Body text of the report stays readable on the page.) Tj ET\n"
LABEL = "Figure label text inside a scaled figure"


def _write(tmp_path, name, data: bytes):
    path = tmp_path / name
    path.write_bytes(data)
    return path


def _hidden_warning(doc) -> str:
    found = [w for w in doc.warnings if w.code == "warning.hidden_text"]
    return str(found[0]) if found else ""


def test_text_in_a_figure_scaled_down_inside_and_up_outside_is_read(tmp_path):
    # 8.86 pt in a form whose own content is scaled by 0.1, the form drawn 7 times larger: ~6 pt
    fig = form(b"0.1 0 0 0.1 0 0 cm BT /F1 8.86 Tf 100 1000 Td (" + LABEL.encode() + b") Tj ET")
    doc = extract(_write(tmp_path, "fig.pdf", page_pdf(BODY + b"q 7 0 0 7 0 0 cm /Fm1 Do Q", xobjects={"Fm1": fig})))
    assert LABEL in doc.text and not _hidden_warning(doc)
    # the same by the form's own /Matrix
    fig = form(b"0.1 0 0 0.1 0 0 cm BT /F1 8.86 Tf 100 1000 Td (" + LABEL.encode() + b") Tj ET", matrix="7 0 0 7 0 0")
    doc = extract(_write(tmp_path, "fig2.pdf", page_pdf(BODY + b"/Fm1 Do", xobjects={"Fm1": fig})))
    assert LABEL in doc.text


def test_text_a_form_shrinks_below_2_pt_is_hidden_and_reported(tmp_path):
    # 11 pt letters in a form drawn at 0.1: 1.1 pt on the page
    filler = b" ".join(b"word%d" % k for k in range(300))
    fig = form(b"BT /F1 11 Tf 0 0 Td (" + filler + b") Tj ET", matrix="0.1 0 0 0.1 72 400")
    doc = extract(_write(tmp_path, "tiny.pdf", page_pdf(BODY + b"/Fm1 Do", xobjects={"Fm1": fig})))
    assert "word1" not in doc.text and "Body text" in doc.text
    assert "text under 2 pt: 300" in _hidden_warning(doc)


SOURCE = ("Glacial meltwater raises the sea level and floods low coasts; island states of the Pacific "
          "are the first to lose their land, farms and fresh water to the rising ocean.")


def test_unreadably_small_text_does_not_dilute_a_copied_pdf(tmp_path):
    """A copied text padded with 1.5 pt filler: the filler is hidden, the copy is scored whole."""
    filler = b" ".join(b"filler%d noise%d" % (k, k % 7) for k in range(400))
    content = (b"BT /F1 11 Tf 72 760 Td (" + SOURCE[:90].encode() + b") Tj 0 -14 Td (" + SOURCE[90:].encode()
               + b") Tj ET\nBT /F1 1.5 Tf 72 100 Td (" + filler + b") Tj ET")
    doc = extract(_write(tmp_path, "padded.pdf", page_pdf(content)))
    assert "filler1 " not in doc.text and "text under 2 pt" in _hidden_warning(doc)
    assert api.compare(doc, Document(SOURCE, title="source")).borrowed_percent > 85


def test_text_in_a_form_is_judged_off_the_page_by_where_the_form_puts_it(tmp_path):
    # drawn at x = -500 in the form's space, the form moved 600 pt right: on the page
    fig = form(b"BT /F1 11 Tf -500 0 Td (Caption moved onto the page by its form) Tj ET", matrix="1 0 0 1 600 300")
    tiny = form(b"BT /F1 11 Tf 0 0 Td (tiny note) Tj ET", matrix="0.05 0 0 0.05 72 200")
    doc = extract(_write(tmp_path, "moved.pdf", page_pdf(BODY + b"/Fm1 Do /Fm2 Do", xobjects={"Fm1": fig, "Fm2": tiny})))
    assert "Caption moved onto the page by its form" in doc.text and "tiny note" not in doc.text


def test_fake_bold_letters_drawn_twice_are_read_once(tmp_path):
    word = "municipalit\xe9 gallery village"
    # every glyph drawn, then drawn again 0.4 pt to the right (a TJ kern takes the pen back)
    doubled = [b"(" + bytes([ch]) + b") %d (" % _back(bytes([ch])) + bytes([ch]) + b")" for ch in word.encode("cp1252")]
    content = b"BT /F1 12 Tf 72 700 Td [" + b" ".join(doubled) + b"] TJ ET\n" + BODY
    doc = extract(_write(tmp_path, "bold.pdf", page_pdf(content)))
    assert word in doc.text and "mmuu" not in doc.text, doc.text


def _back(glyph: bytes) -> int:
    """The TJ kern (thousandths of an em) that moves back by the glyph's Helvetica width less 0.4 pt
    at 12 pt, so the second copy lands 0.4 pt to the right of the first."""
    widths = {b"m": 833, b"u": 556, b"n": 556, b"i": 222, b"c": 500, b"p": 556, b"a": 556, b"l": 222, b"t": 278,
              b"\xe9": 556, b" ": 278, b"g": 556, b"e": 556, b"r": 333, b"y": 500, b"v": 500}
    return widths[glyph] - round(0.4 / 12 * 1000)


def test_real_doubled_letters_stay(tmp_path):
    content = b"BT /F1 12 Tf 72 700 Td (All good village fellows keep the gallery tall.) Tj ET\n" + BODY
    doc = extract(_write(tmp_path, "ll.pdf", page_pdf(content)))
    assert "All good village fellows keep the gallery tall." in doc.text


@pytest.mark.parametrize("acroform", [True, False])  # False: a form flattened badly, its AcroForm gone
def test_filled_form_fields_are_read_and_hidden_ones_not(tmp_path, acroform):
    def field(name: str, value: str, flags: int, rect: str) -> bytes:
        v = value.encode("utf-16-be").hex().upper()
        return (f"<< /Type /Annot /Subtype /Widget /FT /Tx /T ({name}) /V <FEFF{v}> /F {flags} "
                f"/Rect [{rect}] /P 5 0 R >>").encode()

    extra = [field("name", "Иванов Пётр Сергеевич", 4, "72 600 300 620"),
             field("school", "Школа номер пять", 4, "72 560 300 580"),
             field("secret", "Скрытое значение поля", 6, "72 520 300 540")]
    # objects: 1 catalog, 2 pages, 3 font, 4 content, 5 page, 6-8 the fields
    data = page_pdf(BODY, annots="[6 0 R 7 0 R 8 0 R]", acroform="<< /Fields [6 0 R 7 0 R 8 0 R] >>" if acroform else "",
                    extra_objects=extra)
    doc = extract(_write(tmp_path, "form.pdf", data))
    assert "Иванов Пётр Сергеевич" in doc.text and "Школа номер пять" in doc.text
    assert "Скрытое" not in doc.text


RUSSIAN = ("Компания выпустила новый учебник по истории родного края для школ области. В нём собраны "
           "рассказы о старинных городах, ремёслах и праздниках, карты и фотографии музейных экспонатов. "
           "Учителя смогут использовать книгу на уроках и во внеклассной работе с детьми разного возраста.")


def test_cyrillic_behind_a_wrong_font_map_is_recovered_and_warned(tmp_path):
    # Windows-1251 codes in a font that says WinAnsi: PDFium reads "Êîìïàíèÿ"
    lines = textwrap.wrap(RUSSIAN, 80)
    content = b"BT /F1 10 Tf 72 760 Td " + b" 0 -14 Td ".join(b"(" + line.encode("cp1251") + b") Tj" for line in lines) + b" ET"
    doc = extract(_write(tmp_path, "mojibake.pdf", page_pdf(content)))
    assert " ".join(doc.text.split()) == RUSSIAN
    assert "warning.pdf_cyrillic_recovered" in [w.code for w in doc.warnings]
    assert "кириллицу" in [w for w in doc.warnings if w.code == "warning.pdf_cyrillic_recovered"][0].text("ru")


def test_french_text_is_not_taken_for_mojibake(tmp_path):
    french = ("Le café de la gare était fermé à cause de la grève générale des cheminots. Les élèves ont "
              "attendu le bus devant l'école pendant une heure, puis sont rentrés à pied chez eux. ") * 3
    lines = textwrap.wrap(french, 80)
    content = b"BT /F1 10 Tf 72 760 Td " + b" 0 -14 Td ".join(b"(" + l.encode("cp1252") + b") Tj" for l in lines) + b" ET"
    doc = extract(_write(tmp_path, "fr.pdf", page_pdf(content)))
    assert "café" in doc.text and "élèves" in doc.text
    assert "warning.pdf_cyrillic_recovered" not in [w.code for w in doc.warnings]


def test_only_unreadable_text_is_no_text(tmp_path):
    content = b"BT /F1 1 Tf 72 100 Td (" + b" ".join(b"w%d" % k for k in range(100)) + b") Tj ET"
    with pytest.raises(EmptyDocument):
        extract(_write(tmp_path, "onlytiny.pdf", page_pdf(content)))


REALDOCS = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "realdocs" / "files" / "pdf"


@pytest.mark.parametrize("name, at_least", [("pdf-0011.pdf", 2000), ("pdf-0016.pdf", 800)])
def test_japanese_text_pdfium_cannot_map_is_read_by_pdfminer(name, at_least):
    """Real files (a gazette and a poem set vertically in CID fonts): PDFium maps a few of their
    letters, pdftotext and pdfminer nearly all."""
    if not (REALDOCS / name).exists():
        pytest.skip("../shared/data/realdocs is not here")
    doc = extract(REALDOCS / name)
    assert len(_SCORED_WORD.findall(doc.text)) >= at_least
    assert [w.code for w in doc.warnings] == ["warning.pdf_letters_fallback"]


def test_letters_lost_is_judged_on_objects_and_scripts():
    assert _letters_lost({"texts": 2600, "chars": 28, "vertical": False}, ["平成 日"])
    assert _letters_lost({"texts": 10, "chars": 300, "vertical": True}, ["みんなのおのおの"])
    assert not _letters_lost({"texts": 10, "chars": 300, "vertical": False}, ["みんなのおのおの"])
    assert not _letters_lost({"texts": 60, "chars": 3000, "vertical": False}, ["Обычный русский текст."])


HELVETICA_WIDTHS = {"S": 667, "a": 556, "i": 222, "n": 556, "t": 278, "-": 333, "u": 556, "v": 500, "e": 556,
                    "r": 333, " ": 278, "C": 722, "2": 556, "5": 556, "b": 556, "Z": 611, "o": 556, "s": 500,
                    "d": 556, "l": 222}


def _turned(text: str, x: float, y: float, degrees: float, size: float = 12) -> bytes:
    """``text`` drawn letter by letter, each letter its own text object turned by ``degrees``
    (as map and drawing programs write labels), each placed where the previous one ends."""
    import math

    c, s = math.cos(math.radians(degrees)), math.sin(math.radians(degrees))
    out = []
    for ch in text:
        if ch != " ":
            out.append(b"BT /F1 %.2f Tf %.4f %.4f %.4f %.4f %.2f %.2f Tm (%s) Tj ET" % (
                size, c, s, -s, c, x, y, ch.encode()))
        step = HELVETICA_WIDTHS[ch] / 1000 * size
        x, y = x + c * step, y + s * step
    return b"\n".join(out)


@pytest.mark.parametrize("degrees", [90, 30, -60])
def test_turned_labels_drawn_letter_by_letter_read_as_words(tmp_path, degrees):
    content = BODY + _turned("Saint-Sauveur", 300, 300, degrees) + b"\n" + _turned("Carte 25b - Zones inondables", 100, 420, degrees)
    doc = extract(_write(tmp_path, "map.pdf", page_pdf(content)))
    assert "Saint-Sauveur" in doc.text and "Carte 25b - Zones inondables" in doc.text, doc.text


def test_a_column_of_numbers_stays_a_column(tmp_path):
    rows = b"\n".join(b"BT /F1 10 Tf 72 %d Td (%d) Tj ET" % (700 - 12 * k, k) for k in range(1, 9))
    doc = extract(_write(tmp_path, "column.pdf", page_pdf(BODY + rows)))
    assert [line for line in doc.text.split("\n") if line.strip().isdigit()] == [str(k) for k in range(1, 9)]


def test_hidden_filler_is_not_read_through_the_pdfminer_fallback(tmp_path):
    """Text objects whose letters PDFium does not read send a file to pdfminer,
    which does not look for hidden text: white filler on the page keeps the file with PDFium,
    the filler left out."""
    # a glyph with no Unicode value (code 0 of WinAnsi): a text object PDFium reads no letter of
    empty = b"\n".join(b"BT /F1 10 Tf 72 %d Td (\\000) Tj ET" % (100 + k % 50) for k in range(8000))
    filler = b" ".join(b"filler%d" % k for k in range(300))
    content = BODY + b"1 1 1 rg BT /F1 10 Tf 72 300 Td (" + filler + b") Tj ET 0 0 0 rg\n" + empty
    doc = extract(_write(tmp_path, "mixed.pdf", page_pdf(content)))
    assert "filler1 " not in doc.text and "white text" in _hidden_warning(doc)


@pytest.mark.parametrize("name, column", [("pdf-0011.pdf", "道路交通法施行令の一部を改正する政令"),
                                          ("pdf-0016.pdf", "わたくしといふ現象は")])
def test_text_set_in_columns_is_read_a_column_a_line(name, column):
    """A column of Japanese text is one line of the text (as pdftotext reads it), not a letter a line."""
    if not (REALDOCS / name).exists():
        pytest.skip("../shared/data/realdocs is not here")
    assert column in extract(REALDOCS / name).text
