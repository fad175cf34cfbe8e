"""FictionBook (.fb2, .fb2.zip), the e-book format of Russian libraries, read as a reader shows it."""

from __future__ import annotations

import base64
import zipfile

import pytest

from sverka.core.errors import CorruptFile
from sverka.core.extract import SUPPORTED_SUFFIXES, extract

BOOK = """<?xml version="1.0" encoding="{encoding}"?>
<FictionBook xmlns="http://www.gribuser.ru/xml/fictionbook/2.0" xmlns:l="http://www.w3.org/1999/xlink">
<description><title-info><genre>prose_classic</genre><author><first-name>Антон</first-name>
<last-name>Чехов</last-name></author><book-title>Ванька и другие рассказы</book-title>
<annotation><p>Аннотация издательства, не текст книги.</p></annotation><lang>ru</lang></title-info>
</description>
<body><title><p>Антон Чехов</p><p>Ванька</p></title>
<epigraph><p>Эпиграф к рассказу.</p><text-author>Неизвестный</text-author></epigraph>
<section><title><p>Глава первая</p></title>
<p>Ванька Жуков, <emphasis>девятилетний</emphasis> мальчик, отданный три месяца тому назад
в ученье к сапожнику Аляхину<a l:href="#n1" type="note">[1]</a>, в ночь под Рождество не ложился спать.</p>
<empty-line/>
<poem><stanza><v>Мороз и солнце; день чудесный!</v><v>Ещё ты дремлешь, друг прелестный —</v></stanza>
<stanza><v>Пора, красавица, проснись.</v></stanza></poem>
<table><tr><td>Год</td><td>Событие</td></tr><tr><td>1886</td><td>Рассказ напечатан</td></tr></table>
</section></body>
<body name="notes"><section id="n1"><title><p>1</p></title><p>Сапожник — мастер, шьющий обувь.</p></section></body>
<binary id="cover.jpg" content-type="image/jpeg">{picture}</binary>
</FictionBook>
"""


def book(encoding: str = "utf-8") -> bytes:
    picture = base64.b64encode(b"\xff\xd8\xff" + bytes(range(200))).decode("ascii")
    return BOOK.format(encoding=encoding, picture=picture).encode(encoding)


@pytest.mark.parametrize("encoding", ["utf-8", "windows-1251"])
def test_a_book_is_read_as_a_reader_shows_it(tmp_path, encoding):
    """The bodies in order (the main text, then its notes), each paragraph and verse line one
    line, a stanza ending with an empty line, table cells tab-separated; the book's title from
    its description; metadata, the annotation and the pictures are not its text."""
    assert ".fb2" in SUPPORTED_SUFFIXES and ".fb2.zip" in SUPPORTED_SUFFIXES
    f = tmp_path / "chekhov.fb2"
    f.write_bytes(book(encoding))
    doc = extract(f)
    lines = doc.text.split("\n")
    assert doc.title == "Ванька и другие рассказы"
    assert ("Ванька Жуков, девятилетний мальчик, отданный три месяца тому назад в ученье к сапожнику "
            "Аляхину[1], в ночь под Рождество не ложился спать.") in lines
    at = lines.index("Мороз и солнце; день чудесный!")
    assert lines[at:at + 4] == ["Мороз и солнце; день чудесный!", "Ещё ты дремлешь, друг прелестный —", "",
                                "Пора, красавица, проснись."]
    assert "Год\tСобытие" in lines and "1886\tРассказ напечатан" in lines
    assert lines.index("Глава первая") < at < lines.index("Сапожник — мастер, шьющий обувь.")
    for absent in ("Аннотация", "prose_classic", "/9j/"):
        assert absent not in doc.text
    assert doc.text == doc.text.strip() and "\n\n\n" not in doc.text


def test_a_zipped_book_is_read_by_its_content(tmp_path):
    """book.fb2.zip, as libraries give books, is read as the book in it, whatever it is named."""
    z = tmp_path / "Чехов. Ванька.fb2.zip"
    with zipfile.ZipFile(z, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("Чехов. Ванька.fb2", book())
    doc = extract(z)
    assert "в ночь под Рождество не ложился спать" in doc.text and doc.title == "Ванька и другие рассказы"
    assert doc.format == "fb2"
    other = tmp_path / "two.zip"
    with zipfile.ZipFile(other, "w") as zf:
        zf.writestr("a.fb2", book())
        zf.writestr("b.fb2", book())
    with pytest.raises(Exception, match="not a document Sverka reads"):
        extract(other)


def test_a_damaged_or_hostile_book_is_refused_with_the_reason(tmp_path):
    """Entities declared in the prolog (the 'billion laughs') are refused; a book cut short is
    read as far as it goes; a file with no book in it is named as damaged."""
    bomb = tmp_path / "bomb.fb2"
    bomb.write_text('<?xml version="1.0"?><!DOCTYPE l [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;">]>'
                    '<FictionBook><body><p>&b;</p></body></FictionBook>', encoding="utf-8")
    with pytest.raises(CorruptFile, match="entit"):
        extract(bomb)
    cut = tmp_path / "cut.fb2"
    cut.write_bytes(book()[:1500])
    assert "Ванька Жуков" in extract(cut).text
    junk = tmp_path / "junk.fb2"
    junk.write_text("<FictionBook><body><p>не закрыто</body>", encoding="utf-8")
    with pytest.raises(CorruptFile, match="FictionBook file is damaged"):
        extract(junk)
