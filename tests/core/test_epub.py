"""EPUB e-books, read as a reader shows them: chapters in the spine's order, the book's CSS applied."""

from __future__ import annotations

import zipfile

import pytest

from sverka.core.errors import CorruptFile
from sverka.core.extract import SUPPORTED_SUFFIXES, extract

CONTAINER = """<?xml version="1.0"?>
<container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">
<rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles>
</container>"""
OPF = """<?xml version="1.0" encoding="utf-8"?>
<package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="id">
<metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:identifier id="id">urn:x</dc:identifier>
<dc:title>Повести Белкина</dc:title><dc:language>ru</dc:language></metadata>
<manifest>
<item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>
<item id="css" href="style/book.css" media-type="text/css"/>
<item id="one" href="text/%D0%B3%D0%BB%D0%B0%D0%B2%D0%B01.xhtml" media-type="application/xhtml+xml"/>
<item id="two" href="text/ch2.xhtml" media-type="application/xhtml+xml"/>
<item id="notes" href="text/notes.xhtml" media-type="application/xhtml+xml"/>
<item id="cover" href="img/cover.jpg" media-type="image/jpeg"/>
</manifest>
<spine><itemref idref="notes" linear="no"/><itemref idref="one"/><itemref idref="two"/></spine>
</package>"""


def chapter(body: str) -> str:
    return ('<?xml version="1.0" encoding="utf-8"?><!DOCTYPE html><html xmlns="http://www.w3.org/1999/xhtml">'
            '<head><title>x</title><link rel="stylesheet" href="../style/book.css"/></head>'
            f'<body>{body}</body></html>')


def make_epub(path, css=".pagenum { display: none }", mimetype=True):
    with zipfile.ZipFile(path, "w") as zf:
        if mimetype:
            zf.writestr("mimetype", "application/epub+zip", compress_type=zipfile.ZIP_STORED)
        zf.writestr("META-INF/container.xml", CONTAINER)
        zf.writestr("OEBPS/content.opf", OPF)
        zf.writestr("OEBPS/nav.xhtml", chapter("<nav><ol><li>Оглавление</li></ol></nav>"))
        zf.writestr("OEBPS/style/book.css", css)
        zf.writestr("OEBPS/text/глава1.xhtml", chapter(
            "<h1>Выстрел</h1><p>Мы стояли в местечке ***.<span class='pagenum'>[с. 12]</span> Жизнь армейского "
            "офицера известна.</p>"))
        zf.writestr("OEBPS/text/ch2.xhtml", chapter("<h1>Метель</h1><p>В конце 1811 года, в эпоху нам "
                                                   "достопамятную, жил в своём поместье Ненарадове добрый Гаврила Гаврилович.</p>"))
        zf.writestr("OEBPS/text/notes.xhtml", chapter("<p>Примечание издателя к повестям.</p>"))
        zf.writestr("OEBPS/img/cover.jpg", b"\xff\xd8\xff" + bytes(100))
    return path


def test_a_book_s_chapters_are_read_in_the_spine_s_order(tmp_path):
    """The spine's chapters in order (a chapter out of the reading order, linear="no", after
    them), the book's own CSS hiding what it hides (page numbers) as hidden text, the title
    from the package; the table of contents not in the spine and the pictures are not read."""
    assert ".epub" in SUPPORTED_SUFFIXES
    doc = extract(make_epub(tmp_path / "belkin.epub"))
    text = doc.text
    assert doc.title == "Повести Белкина"
    assert text.index("Выстрел") < text.index("Мы стояли в местечке") < text.index("Метель") \
        < text.index("Гаврила Гаврилович") < text.index("Примечание издателя")
    assert "[с. 12]" not in text and "Оглавление" not in text
    assert any(w.code == "warning.hidden_text" for w in doc.warnings)
    assert "\n\nМетель" in text  # chapters apart


def test_an_epub_named_otherwise_is_read_by_its_content(tmp_path):
    """A book saved as .zip is still a book; a zip with no container is no book."""
    doc = extract(make_epub(tmp_path / "book.zip"))
    assert "Гаврила Гаврилович" in doc.text
    bad = tmp_path / "bad.epub"
    with zipfile.ZipFile(bad, "w") as zf:
        zf.writestr("mimetype", "application/epub+zip")
        zf.writestr("META-INF/container.xml", CONTAINER)
        zf.writestr("OEBPS/content.opf", '<?xml version="1.0"?><!DOCTYPE p [<!ENTITY a "aaaa">]><package/>')
    with pytest.raises(CorruptFile, match="entit"):
        extract(bad)
    empty = tmp_path / "empty.epub"
    with zipfile.ZipFile(empty, "w") as zf:
        zf.writestr("readme.txt", "нет")
    with pytest.raises(Exception, match="not a document Sverka reads|not an EPUB"):
        extract(empty)


def epub_of(path, body: str):
    """A one-chapter EPUB holding ``body`` (HTML)."""
    opf = ('<?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf" version="3.0"><metadata/>'
           '<manifest><item id="c" href="c.xhtml" media-type="application/xhtml+xml"/></manifest>'
           '<spine><itemref idref="c"/></spine></package>')
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("mimetype", "application/epub+zip", compress_type=zipfile.ZIP_STORED)
        zf.writestr("META-INF/container.xml", CONTAINER)
        zf.writestr("OEBPS/content.opf", opf)
        zf.writestr("OEBPS/c.xhtml", chapter(body))
    return path
