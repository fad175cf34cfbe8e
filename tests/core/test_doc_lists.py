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
