"""Automatic list numbers of Word 97-2003 (.doc) files, written as Word shows them: several
levels ("1.", "1.1.", "a)"), Roman numbers, letters from a start value, bullets, lists started
again, what follows the number (a tab, a space or nothing), numbering given by a paragraph style;
a damaged or hostile list table gives the text without numbers, never an error or a long wait.

The files: tests/core/fixtures/README.md (LibreOffice 7.4 from ``lists-source.fodt``)."""

from __future__ import annotations

import io
import random
import re
import struct
import tempfile
import time
from pathlib import Path

import olefile
import pytest

from sverka.core.extract import extract
from sverka.core.extract.doc_text import prepare, tool

FIXTURES = Path(__file__).parent / "fixtures"
LISTS = FIXTURES / "lists-libreoffice.doc"

#: The file as Word (and LibreOffice reading the .doc) shows it. LibreOffice wrote the second
#: "Multi" list's restarted first item as a list of its own and the item after it back in the
#: first list, so it counts on from 3 to 4; the Russian letters it wrote as decimal numbers.
EXPECTED = [
    "Введение к списку дел на неделю.",
    "1.\tПервый пункт плана",
    "1.1.\tПодпункт первого пункта",
    "1.2.\tВторой подпункт первого",
    "a)Буквенный пункт глубже",
    "b)Ещё буквенный пункт",
    "2.\tВторой пункт плана",
    "2.1.\tПодпункт второго пункта",
    "3.\tТретий пункт плана",
    "Абзац между списками без номера.",
    "I. Римский первый",
    "II. Римский второй",
    "III. Римский третий",
    "IV. Римский четвёртый",
    "C)Буква с трёх",
    "D)Следующая буква",
    "(i)Малый римский",
    "(ii)Ещё малый римский",
    "\u2022Маркер первый",
    "\u2022Маркер вложенный",
    "\u2022Маркер второй",
    "1)Русская буква",
    "2)Вторая русская буква",
    "Второй список заново.",
    "1.\tСнова первый пункт",
    "4.\tСнова второй пункт",
    "Заключение без номера.",
]
LABEL = re.compile(r"^(?:\d+\.(?:\d+\.)?\t|[a-dCD]\)|[IV]+\. |\([iv]+\)|\u2022|\d\))")
PLAIN = [LABEL.sub("", line) for line in EXPECTED]
LABELS = re.compile(r"^(?:\d\.|\u2022)\t", re.M)


def _needs_catdoc():
    if tool() is None:
        pytest.skip("catdoc is not installed (installer/bootstrap.sh installs it)")


def _lines(path: Path) -> list[str]:
    return extract(path).text.rstrip("\n").split("\n")


def _streams(data: bytes) -> tuple[bytearray, bytearray, str]:
    with olefile.OleFileIO(io.BytesIO(data)) as ole:
        word = bytearray(ole.openstream("WordDocument").read())
        name = "1Table" if struct.unpack_from("<H", word, 10)[0] & 0x0200 else "0Table"
        return word, bytearray(ole.openstream(name).read()), name


def _rewritten(data: bytes, word: bytes, table: bytes, name: str) -> bytes:
    out = io.BytesIO(data)
    with olefile.OleFileIO(out, write_mode=True) as ole:
        ole.write_stream("WordDocument", bytes(word))
        ole.write_stream(name, bytes(table))
    return out.getvalue()


def _fc_lcb_at(index: int) -> int:
    """Offset in the FIB of pair ``index`` of FibRgFcLcb (Word 97 layout: csw 14, cslw 22)."""
    return 154 + 8 * index


PLF_LST, PLF_LFO, BTE_PAPX = _fc_lcb_at(73), _fc_lcb_at(74), _fc_lcb_at(13)


def test_list_numbers_of_every_kind_are_written_as_word_shows_them():
    _needs_catdoc()
    assert _lines(LISTS) == EXPECTED


def test_the_doc_reads_as_its_docx_twin_saved_by_the_same_program():
    _needs_catdoc()
    doc, docx = _lines(LISTS), _lines(FIXTURES / "lists-libreoffice.docx")
    assert len(doc) == len(docx)
    # the same labels, tabs and spaces, but for the one item the two files number differently:
    # in the .docx it is the second item of the restarted list, in the .doc the fourth of the first
    differ = [k for k in range(len(doc)) if doc[k] != docx[k]]
    assert differ == [EXPECTED.index("4.\tСнова второй пункт")]


def test_numbers_given_by_a_paragraph_style_are_written():
    """python-docx's "List Number" and "List Bullet" paragraphs saved as .doc by LibreOffice; the
    paragraphs' own list marks are taken away so that only their styles number them."""
    _needs_catdoc()
    data = (FIXTURES / "fields-libreoffice.doc").read_bytes()
    word, table, name = _streams(data)
    before = extract_bytes(data)
    # sprmPIlfo (0x460B) in the PAPX pages becomes a paragraph sprm nobody reads (0x45FF)
    fc, lcb = struct.unpack_from("<II", word, BTE_PAPX)
    n = (lcb - 4) // 8
    replaced = 0
    for k in range(n):
        page = (struct.unpack_from("<I", table, fc + 4 * (n + 1) + 4 * k)[0] & 0x3FFFFF) * 512
        fkp = word[page:page + 512]
        for m in re.finditer(re.escape(b"\x0b\x46"), bytes(fkp[:511])):
            word[page + m.start():page + m.start() + 2] = b"\xff\x45"
            replaced += 1
    assert replaced >= 2  # the numbered paragraphs' and the bulleted ones' (shared in their page)
    after = extract_bytes(_rewritten(data, word, table, name))
    assert after == before
    no_styles = bytearray(word)
    struct.pack_into("<I", no_styles, _fc_lcb_at(1) + 4, 0)  # lcbStshf: no style sheet
    assert extract_bytes(_rewritten(data, no_styles, table, name)) == LABELS.sub("", before)
    assert "1.\tПервый пункт списка\n2.\tВторой пункт списка\n3.\tТретий пункт списка\n" in after
    assert "\u2022\tМаркированный пункт\n\u2022\tЕщё один пункт\n" in after


def extract_bytes(data: bytes) -> str:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "lists.doc"
        path.write_bytes(data)
        return extract(path).text


def _damaged(change) -> bytes:
    data = LISTS.read_bytes()
    word, table, name = _streams(data)
    change(word, table)
    return _rewritten(data, word, table, name)


def _set(buffer: bytearray, at: int, fmt: str, value: int) -> None:
    struct.pack_into(fmt, buffer, at, value)


def _lvl_at(word, table) -> int:
    """Offset in the table stream of the first LVL (right after the PlfLst)."""
    fc, lcb = struct.unpack_from("<II", word, PLF_LST)
    return fc + lcb


DAMAGE = {
    "list table past the stream": lambda w, t: _set(w, PLF_LST + 4, "<I", len(t) + 10),
    "32767 lists": lambda w, t: _set(t, struct.unpack_from("<I", w, PLF_LST)[0], "<h", 0x7FFF),
    "negative list count": lambda w, t: _set(t, struct.unpack_from("<I", w, PLF_LST)[0], "<h", -5),
    "4 billion overrides": lambda w, t: _set(t, struct.unpack_from("<I", w, PLF_LFO)[0], "<I", 0xFFFFFFFF),
    "override table cut short": lambda w, t: _set(w, PLF_LFO + 4, "<I", 6),
    "number text past the stream": lambda w, t: _set(t, _lvl_at(w, t) + 28
                                                      + t[_lvl_at(w, t) + 24] + t[_lvl_at(w, t) + 25], "<H", 0xFFFF),
    "level properties past the stream": lambda w, t: _set(t, _lvl_at(w, t) + 25, "<B", 0xFF),
    "paragraph pages past the stream": lambda w, t: _set(
        t, struct.unpack_from("<I", w, BTE_PAPX)[0] + 8, "<I", 0x3FFFFF),
    "huge start value": lambda w, t: _set(t, _lvl_at(w, t), "<i", 0x7FFFFFFF),
}


@pytest.mark.parametrize("how", list(DAMAGE))
def test_a_damaged_list_table_gives_the_text_without_numbers(how):
    _needs_catdoc()
    data = _damaged(DAMAGE[how])
    started = time.monotonic()
    lines = extract_bytes(data).rstrip("\n").split("\n")
    assert time.monotonic() - started < 10
    if how == "huge start value":  # the first list's first level counts from 2147483647
        assert lines[1] == "2147483647.\tПервый пункт плана" and lines[3] == "2147483647.2.\tВторой подпункт первого"
        assert [LABEL.sub("", line) for line in lines[9:]] == PLAIN[9:]
        return
    assert [LABEL.sub("", line) for line in lines] == PLAIN  # every word of the text read
    assert len(lines) == len(PLAIN)


def test_random_damage_to_the_list_tables_never_fails_or_hangs():
    data = LISTS.read_bytes()
    word, table, name = _streams(data)
    fc, lcb = struct.unpack_from("<II", word, PLF_LST)
    fc_lfo, lcb_lfo = struct.unpack_from("<II", word, PLF_LFO)
    start, end = fc, max(fc_lfo + lcb_lfo, fc + lcb)
    fc_bte, lcb_bte = struct.unpack_from("<II", word, BTE_PAPX)
    n = (lcb_bte - 4) // 8
    pages = [(struct.unpack_from("<I", table, fc_bte + 4 * (n + 1) + 4 * k)[0] & 0x3FFFFF) * 512 for k in range(n)]
    rng = random.Random(35)
    started = time.monotonic()
    for round in range(200):
        damaged, damaged_word = bytearray(table), bytearray(word)
        for _ in range(rng.randint(1, 12)):
            value = rng.choice((0, 0xFF, 0x7F, rng.randrange(256)))
            if round % 2:  # the list tables
                damaged[rng.randrange(start, end)] = value
            else:  # a page of paragraph properties, or where the table stream names them
                page = rng.choice(pages)
                damaged_word[page + rng.randrange(512)] = value
                damaged[rng.randrange(fc_bte, fc_bte + lcb_bte)] = rng.choice((value, damaged[fc_bte]))
        prepared = prepare(_rewritten(data, damaged_word, damaged, name))
        assert prepared is not None  # the text is read, with or without numbers
    assert time.monotonic() - started < 60


def test_numbered_paragraphs_in_a_table_are_numbered_where_catdoc_writes_them():
    """catdoc ends a cell with a tab: a cell's last paragraph shares a line with the next cell."""
    _needs_catdoc()
    assert _lines(FIXTURES / "list-table-libreoffice.doc") == [
        "До таблицы.", "1.Пункт в ячейке", "2.Второй в ячейке\tСоседняя ячейка", "3.Одна строка\tСправа",
        "4.После таблицы"]


# -- Word's counting, on files written by tests/core/word97.py ----------------------------------

DECIMAL, UPPER_ROMAN, LOWER_ROMAN, UPPER_LETTER, LOWER_LETTER = 0, 1, 2, 3, 4
ORDINAL, DECIMAL_ZERO, BULLET, RUSSIAN_LOWER, NONE = 5, 0x16, 0x17, 0x3A, 0xFF


def _levels(*first, fill: str = "\x00.") -> list[bytes]:
    from word97 import lvl

    return [*first] + [lvl(fill)] * (9 - len(first))


def _read(tmp_path, paragraphs, lists, overrides) -> list[str]:
    from word97 import word97_lists

    _needs_catdoc()
    path = tmp_path / "lists.doc"
    path.write_bytes(word97_lists(paragraphs, lists, overrides))
    return extract(path).text.rstrip("\n").split("\n")


def test_levels_count_and_deeper_levels_start_again(tmp_path):
    from word97 import lvl

    levels = _levels(lvl("\x00.", DECIMAL), lvl("\x00.\x01.", DECIMAL), lvl("\x02)", LOWER_LETTER, follow=1))
    paragraphs = [("Начало", 0, 0), ("Один", 1, 0), ("Один-один", 1, 1), ("Буква", 1, 2), ("Ещё буква", 1, 2),
                  ("Один-два", 1, 1), ("Буква снова", 1, 2), ("Перерыв без номера", 0, 0), ("Два", 1, 0),
                  ("Два-один", 1, 1)]
    assert _read(tmp_path, paragraphs, [(10, levels)], [(10, {})]) == [
        "Начало", "1.\tОдин", "1.1.\tОдин-один", "a) Буква", "b) Ещё буква", "1.2.\tОдин-два", "a) Буква снова",
        "Перерыв без номера", "2.\tДва", "2.1.\tДва-один"]


def test_a_list_override_starts_the_list_again_and_its_instances_count_on_together(tmp_path):
    """LibreOffice reads this file so too."""
    from word97 import lvl

    levels = _levels(lvl("\x00.", DECIMAL))
    paragraphs = [("Один", 1, 0), ("Два", 1, 0), ("Три через второе", 2, 0), ("Заново", 3, 0), ("Дальше", 3, 0),
                  ("Снова первое", 1, 0)]
    # LFO 1 and 2 override nothing: one list, counted together; LFO 3 starts it at 1 again at
    # its first paragraph, and the list counts on from there, whichever LFO names it
    assert _read(tmp_path, paragraphs, [(10, levels)], [(10, {}), (10, {}), (10, {0: 1})]) == [
        "1.\tОдин", "2.\tДва", "3.\tТри через второе", "1.\tЗаново", "2.\tДальше", "3.\tСнова первое"]


def test_number_formats_start_values_and_what_follows(tmp_path):
    from word97 import lvl

    lists = [(1, [lvl("\x00.", UPPER_ROMAN, start=3, follow=1)]), (2, [lvl("(\x00)", LOWER_ROMAN, follow=2)]),
             (3, [lvl("\x00)", LOWER_LETTER, start=26)]), (4, [lvl("\x00)", RUSSIAN_LOWER)]),
             (5, [lvl("\x00.", DECIMAL_ZERO, start=9)]), (6, [lvl("\uf0b7", BULLET)]),
             (7, [lvl("\x00", NONE)]), (8, [lvl("\x00", UPPER_LETTER, start=0)]), (9, [lvl("\x00", ORDINAL)])]
    paragraphs = [("Третий", 1, 0), ("Четвёртый", 1, 0), ("Малый", 2, 0), ("Зет", 3, 0), ("Аа", 3, 0),
                  ("Русская", 4, 0), ("Вторая русская", 4, 0), ("Девять", 5, 0), ("Десять", 5, 0),
                  ("Маркер", 6, 0), ("Без номера", 7, 0), ("Ноль", 8, 0), ("Порядковый", 9, 0)]
    assert _read(tmp_path, paragraphs, lists, [(k, {}) for k in range(1, 10)]) == [
        "III. Третий", "IV. Четвёртый", "(i)Малый", "z)\tЗет", "aa)\tАа", "а)\tРусская", "б)\tВторая русская",
        "09.\tДевять", "10.\tДесять", "\u2022\tМаркер", "Без номера", "0\tНоль", "1\tПорядковый"]


def test_legal_numbers_and_levels_that_do_not_start_again(tmp_path):
    """fLegal: every number of the label in decimal, as Word shows it ([MS-DOC] LVLF; LibreOffice
    7.4 shows "I.a." here)."""
    from word97 import lvl

    levels = _levels(lvl("\x00.", UPPER_ROMAN), lvl("\x00.\x01.", LOWER_LETTER, legal=True),
                     lvl("\x02)", DECIMAL, restart_lim=0))
    paragraphs = [("Раздел", 1, 0), ("Пункт", 1, 1), ("Сквозной", 1, 2), ("Раздел два", 1, 0), ("Пункт два", 1, 1),
                  ("Сквозной дальше", 1, 2)]
    assert _read(tmp_path, paragraphs, [(10, levels)], [(10, {})]) == [
        "I.\tРаздел", "1.1.\tПункт", "1)\tСквозной", "II.\tРаздел два", "2.1.\tПункт два", "2)\tСквозной дальше"]


def test_a_paragraph_naming_a_list_that_is_not_there_has_no_number(tmp_path):
    from word97 import lvl

    paragraphs = [("Есть", 1, 0), ("Нет такого списка", 7, 0), ("Нет такого уровня", 1, 5), ("Дальше", 1, 0),
                  ("Уровень двенадцать", 1, 12)]
    assert _read(tmp_path, paragraphs, [(10, [lvl("\x00.")])], [(10, {})]) == [
        "1.\tЕсть", "Нет такого списка", "Нет такого уровня", "2.\tДальше", "Уровень двенадцать"]


def test_paragraphs_catdoc_writes_otherwise_keep_the_count_and_the_text(tmp_path):
    from word97 import lvl

    paragraphs = [("Первый\x0bс переносом строки", 1, 0), ("", 1, 0), ("\x0cПосле разрыва страницы", 1, 0),
                  ("Четвёртый", 1, 0)]
    assert _read(tmp_path, paragraphs, [(10, _levels(lvl("\x00.")))], [(10, {})]) == [
        "1.\tПервый", "с переносом строки", "", "3.\tПосле разрыва страницы", "4.\tЧетвёртый"]


def test_items_with_a_footnote_a_link_a_soft_hyphen_a_line_break_or_a_field_are_numbered():
    """catdoc writes these paragraphs otherwise than their characters in the file (no footnote
    mark, no soft hyphen, the line break as a new line, the field's result only)."""
    _needs_catdoc()
    assert _lines(FIXTURES / "list-marks-libreoffice.doc") == [
        "До списка.", "1.Пункт со сноской в середине", "2.Пункт со ссылкой внутри",
        "3.Пункт с неразрывным пробелом и мягким переносом — тире", "4.Пункт", "с разрывом строки",
        "5.Пункт с полем страницы 1 конец", "\tТекст сноски."]


def test_a_piece_table_naming_the_text_again_and_again_is_not_read():
    """Pieces whose positions go up and down name the same text thousands of times: the
    structure is not used (catdoc reads the file as it is), and no time is spent on it."""
    from word97 import word97

    data = word97("Один абзац текста.\n" * 50)
    word, table, name = _streams(data)
    fc, lcb = struct.unpack_from("<II", word, _fc_lcb_at(33))
    ccp = struct.unpack_from("<I", word, 76)[0]
    n = 300
    cps = [0 if k % 2 == 0 else ccp for k in range(n + 1)]
    plc = struct.pack(f"<{n + 1}I", *cps) + struct.pack("<HIH", 0, 0x800, 0) * n
    clx = bytes([0x02]) + struct.pack("<I", len(plc)) + plc
    table[:len(clx)] = clx
    struct.pack_into("<II", word, _fc_lcb_at(33), 0, len(clx))
    started = time.monotonic()
    assert prepare(_rewritten(data, word, table, name)) is None
    assert time.monotonic() - started < 5


def test_a_list_override_that_replaces_a_level_counts_apart(tmp_path):
    """A level of other formatting is a list of its own; its start value counts only with
    fStartAt (without it, the list's start value). LibreOffice reads these files so too."""
    from word97 import lvl

    levels = _levels(lvl("\x00.", DECIMAL), lvl("\x00.\x01.", DECIMAL))
    paragraphs = [("Обычный", 1, 0), ("Подпункт", 1, 1), ("Римский", 2, 0), ("Его подпункт", 2, 1),
                  ("Второй римский", 2, 0), ("Снова обычный", 1, 0)]
    replaced = {0: lvl("\x00)", UPPER_ROMAN, start=5, follow=1)}
    assert _read(tmp_path, paragraphs, [(10, levels)], [(10, {}), (10, replaced)]) == [
        "1.\tОбычный", "1.1.\tПодпункт", "I) Римский", "I.1.\tЕго подпункт", "II) Второй римский",
        "2.\tСнова обычный"]
    replaced = {0: (lvl("\x00)", UPPER_ROMAN, start=5, follow=1),)}  # the same with fStartAt
    assert _read(tmp_path, paragraphs, [(10, levels)], [(10, {}), (10, replaced)])[2:5] == [
        "V) Римский", "V.1.\tЕго подпункт", "VI) Второй римский"]


def _blanked_one_by_one(text: str) -> str:
    """What Word shows of ``text`` with field marks, one character at a time: the reference for
    the reader's pass, which blanks stretches found by a regular expression."""
    out, fields = [], []  # one entry per open field: still in its code?
    for ch in text:
        c, blank = ord(ch), False
        if c == 0x13:
            fields.append(True)
            blank = True
        elif c == 0x14 and fields:
            fields[-1] = False
            blank = True
        elif c == 0x15 and fields:
            fields.pop()
            blank = True
        elif c in (0x01, 0x08) or any(fields):
            blank = True
        out.append("\x02" if blank else ch)
    return "".join(out)


def test_field_codes_are_blanked_as_a_character_by_character_reading_would():
    from word97 import word97

    rng = random.Random(37)
    alphabet = ["\x13", "\x14", "\x15", "\x01", "\x08", "а", "b", " ", "\u1301", "\u0113", "\u1500", "\u0115"]
    for _ in range(300):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 60))) + "."
        prepared = prepare(word97(text))
        assert prepared is not None
        word, _, _ = _streams(prepared[0])
        got = word[0x800:0x800 + 2 * len(text)].decode("utf-16-le")
        assert got == _blanked_one_by_one(text), text
