"""Office files read as their applications show them: OpenOffice.org documents with a
document type declaration (no entities) read, entities refused; automatic list numbers of
DOCX and ODT written as Word and LibreOffice show them; a WordPerfect file named .doc named
as such. Every file is generated here."""

from __future__ import annotations

import re
import zipfile
from pathlib import Path

import pytest

from sverka.core.errors import CorruptFile, UnsupportedFormat
from sverka.core.extract import extract

TEXT = "Компания выпустила новый учебник по истории родного края для школ."


def _rewrite(path: Path, change) -> Path:
    with zipfile.ZipFile(path) as zf:
        parts = {i.filename: zf.read(i) for i in zf.infolist()}
    change(parts)
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        for name in ["mimetype"] + [n for n in parts if n != "mimetype"]:
            if name in parts:
                zf.writestr(name, parts[name], zipfile.ZIP_STORED if name == "mimetype" else zipfile.ZIP_DEFLATED)
    return path


def _odt(path: Path) -> Path:
    from odf.opendocument import OpenDocumentText
    from odf.text import P

    doc = OpenDocumentText()
    doc.text.addElement(P(text=TEXT))
    doc.save(str(path))
    return path


OOO_MANIFEST = (b'<?xml version="1.0" encoding="UTF-8"?>\n'
                b'<!DOCTYPE manifest:manifest PUBLIC "-//OpenOffice.org//DTD Manifest 1.0//EN" "Manifest.dtd">\n'
                b'<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0">'
                b'<manifest:file-entry manifest:media-type="application/vnd.oasis.opendocument.text" manifest:full-path="/"/>'
                b'<manifest:file-entry manifest:media-type="text/xml" manifest:full-path="content.xml"/>'
                b'<manifest:file-entry manifest:media-type="text/xml" manifest:full-path="styles.xml"/>'
                b'<manifest:file-entry manifest:media-type="text/xml" manifest:full-path="meta.xml"/>'
                b'</manifest:manifest>')
OOO_FORMULA = (b'<?xml version="1.0" encoding="UTF-8"?>\n'
               b'<!DOCTYPE math:math PUBLIC "-//OpenOffice.org//DTD Modified W3C MathML 1.01//EN" "math.dtd">\n'
               b'<math:math xmlns:math="http://www.w3.org/1998/Math/MathML"><math:semantics><math:mrow>'
               b'<math:mi>x</math:mi></math:mrow></math:semantics></math:math>')
OOO_BASIC = (b'<?xml version="1.0" encoding="UTF-8"?>\n'
             b'<!DOCTYPE script:module PUBLIC "-//OpenOffice.org//DTD OfficeDocument 1.0//EN" "module.dtd">\n'
             b'<script:module xmlns:script="http://openoffice.org/2000/script" script:name="Module1" '
             b'script:language="StarBasic">REM  *****  BASIC  *****&#x0a;Sub Main&#x0a;End Sub</script:module>')


def test_an_openoffice_2_document_with_doctype_declarations_reads(tmp_path):
    def change(parts):
        parts["META-INF/manifest.xml"] = OOO_MANIFEST
        parts["Object 1/content.xml"] = OOO_FORMULA
        parts["Basic/Standard/Module1.xml"] = OOO_BASIC
        parts["Basic/Standard/script-lb.xml"] = (
            b'<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE library:library PUBLIC '
            b'"-//OpenOffice.org//DTD OfficeDocument 1.0//EN" "library.dtd">\n<library:library '
            b'xmlns:library="http://openoffice.org/2000/library" library:name="Standard"/>')
        # OpenOffice.org 1.x named a DTD in every part; a reader never fetches it
        content = parts["content.xml"].decode()
        head, rest = content.split("?>", 1)
        parts["content.xml"] = (head + '?>\n<!DOCTYPE office:document-content PUBLIC '
                                '"-//OpenOffice.org//DTD OfficeDocument 1.0//EN" "office.dtd">' + rest).encode()

    doc = extract(_rewrite(_odt(tmp_path / "ooo2.odt"), change))
    assert doc.text.strip() == TEXT


@pytest.mark.parametrize("part", ["content.xml", "META-INF/manifest.xml", "Object 1/content.xml"])
@pytest.mark.parametrize("entity", ['<!ENTITY x "y">', '<!ENTITY x SYSTEM "file:///etc/passwd">',
                                    '<!ENTITY % p SYSTEM "http://example.invalid/x.dtd"> %p;'])
def test_an_odt_part_declaring_entities_is_still_refused(tmp_path, part, entity):
    def change(parts):
        data = re.sub(r"<!DOCTYPE[^>]*>", "", parts.get(part, OOO_FORMULA).decode())
        head, rest = data.split("?>", 1)
        name = re.match(r"\s*<([\w:]+)", rest).group(1)
        parts[part] = (head + f"?><!DOCTYPE {name} [{entity}]>" + rest).encode()

    with pytest.raises(CorruptFile, match="entities"):
        extract(_rewrite(_odt(tmp_path / "bad.odt"), change))


def test_a_docx_with_a_doctype_but_no_entity_reads_and_one_with_entities_does_not(tmp_path):
    from tests.core.test_hidden_visible import make_docx, p, r

    def with_doctype(subset: str):
        def change(parts):
            xml = parts["word/document.xml"].decode()
            head, rest = xml.split("?>", 1)
            parts["word/document.xml"] = (head + f"?><!DOCTYPE w:document{subset}>" + rest).encode()
        return change

    path = _rewrite(make_docx(tmp_path / "plain.docx", p(r(TEXT))), with_doctype(""))
    assert extract(path).text.strip() == TEXT
    path = _rewrite(make_docx(tmp_path / "ent.docx", p(r(TEXT))), with_doctype(' [<!ENTITY a "b">]'))
    with pytest.raises(CorruptFile, match="entities"):
        extract(path)


def test_a_wordperfect_file_named_doc_is_refused_as_wordperfect(tmp_path):
    path = tmp_path / "essay.doc"
    # a WordPerfect 5.1+ prefix: -1, "WPC", the document area's offset, product 1, file type 10
    path.write_bytes(b"\xffWPC\x10\x00\x00\x00\x01\x0a\x02\x01\x00\x00\x00\x00" + b"\x00" * 200 + TEXT.encode("cp866"))
    with pytest.raises(UnsupportedFormat) as e:
        extract(path)
    assert "WordPerfect" in str(e.value)
    assert "WordPerfect" in e.value.message.text("ru")


# -- Word 97-2003 and Word 6/95 (.doc) -------------------------------------------------------

FIXTURES = Path(__file__).parent / "fixtures"
RUSSIAN = "Компания «Северный ветер» выпустила новый учебник.\nВторой абзац о родном крае и его истории."


def _needs_catdoc():
    from sverka.core.extract.doc_text import tool

    if tool() is None:
        pytest.skip("catdoc is not installed (installer/bootstrap.sh installs it)")


def test_a_russian_word95_document_reads_as_cyrillic(tmp_path):
    from word97 import word95

    _needs_catdoc()
    path = tmp_path / "old.doc"
    path.write_bytes(word95(RUSSIAN, lid=0x0419))
    doc = extract(path)
    assert doc.text.split() == RUSSIAN.split()
    assert not doc.warnings  # the FIB says Russian: nothing guessed
    assert ("encoding", "cp1251") in doc.meta


@pytest.mark.parametrize("lid", [0x0409, 0x0000])
def test_a_cyrillic_word95_document_whose_language_says_nothing_is_guessed_with_a_warning(tmp_path, lid):
    from word97 import word95

    _needs_catdoc()
    path = tmp_path / "old.doc"
    path.write_bytes(word95(RUSSIAN, lid=lid))
    doc = extract(path)
    assert doc.text.split() == RUSSIAN.split()
    assert [w.code for w in doc.warnings] == ["warning.doc_codepage_guessed"]
    assert "cp1251" in doc.warnings[0].text("ru")


def test_western_word95_documents_stay_western(tmp_path):
    from word97 import word95

    _needs_catdoc()
    text = "Le café de la gare était fermé à cause de la grève générale des cheminots."
    path = tmp_path / "fr.doc"
    path.write_bytes(word95(text, lid=0x040C, codepage="cp1252"))
    assert extract(path).text.split() == text.split()
    czech = "Příliš žluťoučký kůň úpěl ďábelské ódy na louce za vesnicí."
    path.write_bytes(word95(czech, lid=0x0405, codepage="cp1250"))
    assert extract(path).text.split() == czech.split()


def test_field_codes_are_left_out_and_results_shown(tmp_path):
    from word97 import word97

    _needs_catdoc()
    path = tmp_path / "fields.doc"
    path.write_bytes(word97(
        'Подробности на сайте \x13 HYPERLINK "http://example.com/x" \\o "подсказка" \x14издательства\x15 и '
        'в библиотеке.\nСмотрите страницу \x13 PAGEREF _Toc1 \\h \x14\x13 SEQ x \x145\x15\x15 пособия.\n'
        'Поле \x13 FORMTEXT \x01\x14Иванов\x15 и флажок \x13 FORMCHECKBOX \x01\x15 готовы.\n'
        '\x13 TOC \\o "1-3" \\h \x14Введение\t3\x15\nРисунок \x01 подписан.'))
    text = extract(path).text
    assert text.split("\n")[:5] == ["Подробности на сайте издательства и в библиотеке.",
                                    "Смотрите страницу 5 пособия.",
                                    "Поле Иванов и флажок  готовы.",
                                    "Введение\t3",
                                    "Рисунок  подписан."]
    for code in ("HYPERLINK", "http", "PAGEREF", "FORMTEXT", "FORMCHECKBOX", "TOC", "SEQ"):
        assert code not in text


def test_libreoffice_word97_fields_and_forms_read_as_word_shows_them():
    _needs_catdoc()
    text = extract(FIXTURES / "fields-libreoffice.doc").text
    assert "Подробности на сайте издательства и в библиотеке." in text
    assert "Смотрите страницу 5 этого пособия." in text
    assert "HYPERLINK" not in text and "PAGEREF" not in text and "http" not in text
    text = extract(FIXTURES / "form-libreoffice.doc").text
    assert "Фамилия: Иванов (полностью)." in text
    assert "FORMTEXT" not in text and "FORMCHECKBOX" not in text
    assert "Подпись участника и дата заполнения анкеты." in text


# -- automatic list numbers ------------------------------------------------------------------

NUMBERING = """<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:numbering xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">
<w:abstractNum w:abstractNumId="0">
  <w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="decimal"/><w:lvlText w:val="%1."/></w:lvl>
  <w:lvl w:ilvl="1"><w:start w:val="1"/><w:numFmt w:val="lowerLetter"/><w:lvlText w:val="%2)"/><w:suff w:val="space"/></w:lvl>
  <w:lvl w:ilvl="2"><w:start w:val="1"/><w:numFmt w:val="decimal"/><w:lvlText w:val="%1.%3."/></w:lvl>
</w:abstractNum>
<w:abstractNum w:abstractNumId="1">
  <w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="upperRoman"/><w:lvlText w:val="%1."/></w:lvl>
</w:abstractNum>
<w:abstractNum w:abstractNumId="2">
  <w:lvl w:ilvl="0"><w:numFmt w:val="bullet"/><w:lvlText w:val="\uf0b7"/></w:lvl>
</w:abstractNum>
<w:abstractNum w:abstractNumId="3">
  <w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="russianLower"/><w:lvlText w:val="%1)"/></w:lvl>
</w:abstractNum>
<w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num>
<w:num w:numId="2"><w:abstractNumId w:val="1"/></w:num>
<w:num w:numId="3"><w:abstractNumId w:val="2"/></w:num>
<w:num w:numId="4"><w:abstractNumId w:val="0"/><w:lvlOverride w:ilvl="0"><w:startOverride w:val="7"/></w:lvlOverride></w:num>
<w:num w:numId="5"><w:abstractNumId w:val="3"/></w:num>
</w:numbering>"""


def _numbered(text: str, num: int, level: int = 0, style: str = "") -> str:
    from tests.core.test_hidden_visible import r

    pstyle = f'<w:pStyle w:val="{style}"/>' if style else ""
    numpr = f'<w:numPr><w:ilvl w:val="{level}"/><w:numId w:val="{num}"/></w:numPr>' if num else ""
    ppr = f"<w:pPr>{pstyle}{numpr}</w:pPr>"
    return f"<w:p>{ppr}{r(text)}</w:p>"


def test_docx_list_numbers_are_written_as_word_shows_them(tmp_path):
    from tests.core.test_hidden_visible import make_docx, p, r

    body = (p(r("Введение.")) + _numbered("Первый", 1) + _numbered("Подпункт", 1, 1) + _numbered("Ещё подпункт", 1, 1)
            + _numbered("Глубже", 1, 2) + _numbered("Второй", 1) + _numbered("Снова подпункт", 1, 1)
            + _numbered("Римский", 2) + _numbered("Второй римский", 2) + _numbered("Маркер", 3)
            + _numbered("С семи", 4) + _numbered("Восемь", 4) + _numbered("По-русски", 5) + _numbered("Дальше", 5)
            + _numbered("Из стиля", 0, style="Numbered") + _numbered("Ещё из стиля", 0, style="Numbered"))
    styles = ('<w:style w:type="paragraph" w:styleId="Numbered"><w:pPr><w:numPr><w:numId w:val="2"/></w:numPr>'
              "</w:pPr></w:style>")
    numbering = ("rIdNum", "http://schemas.openxmlformats.org/officeDocument/2006/relationships/numbering",
                 "application/vnd.openxmlformats-officedocument.wordprocessingml.numbering+xml", NUMBERING.encode())
    doc = extract(make_docx(tmp_path / "lists.docx", body, styles=styles, parts={"numbering.xml": numbering}))
    assert doc.text.split("\n") == [
        "Введение.", "1.\tПервый", "a) Подпункт", "b) Ещё подпункт", "1.1.\tГлубже", "2.\tВторой",
        "a) Снова подпункт", "I.\tРимский", "II.\tВторой римский", "\u2022\tМаркер", "7.\tС семи", "8.\tВосемь",
        "а)\tПо-русски", "б)\tДальше", "III.\tИз стиля", "IV.\tЕщё из стиля"]


def test_odt_list_numbers_are_written_as_libreoffice_shows_them(tmp_path):
    from odf.opendocument import OpenDocumentText
    from odf.text import List, ListItem, ListLevelStyleBullet, ListLevelStyleNumber, ListStyle, P

    doc = OpenDocumentText()
    numbers = ListStyle(name="Numbers")
    numbers.addElement(ListLevelStyleNumber(level=1, numformat="1", numsuffix="."))
    numbers.addElement(ListLevelStyleNumber(level=2, numformat="a", numsuffix=")"))
    numbers.addElement(ListLevelStyleNumber(level=3, numformat="1", numsuffix=".", displaylevels=2))
    bullets = ListStyle(name="Bullets")
    bullets.addElement(ListLevelStyleBullet(level=1, bulletchar="\uf0b7"))
    roman = ListStyle(name="Roman")
    roman.addElement(ListLevelStyleNumber(level=1, numformat="I", numsuffix="."))
    for st in (numbers, bullets, roman):
        doc.automaticstyles.addElement(st)

    def items(lst, texts):
        for t in texts:
            item = ListItem()
            if isinstance(t, tuple):
                item.addElement(P(text=t[0]))
                inner = List()
                items(inner, t[1])
                item.addElement(inner)
            else:
                item.addElement(P(text=t))
            lst.addElement(item)
        return lst

    doc.text.addElement(P(text="Введение."))
    doc.text.addElement(items(List(stylename=numbers), [("Первый", ["Подпункт", ("Ещё", ["Глубже"])]), "Второй"]))
    doc.text.addElement(P(text="Между списками."))
    doc.text.addElement(items(List(stylename=numbers, continuenumbering="true"), ["Третий"]))
    doc.text.addElement(items(List(stylename=numbers), ["Сначала"]))
    doc.text.addElement(items(List(stylename=bullets), ["Маркер"]))
    started = items(List(stylename=roman), ["Четвёртый"])
    started.childNodes[0].setAttrNS("urn:oasis:names:tc:opendocument:xmlns:text:1.0", "start-value", "4")
    doc.text.addElement(started)
    path = tmp_path / "lists.odt"
    doc.save(str(path))
    assert extract(path).text.split("\n") == [
        "Введение.", "1.\tПервый", "a)\tПодпункт", "b)\tЕщё", "b.1.\tГлубже", "2.\tВторой", "Между списками.",
        "3.\tТретий", "1.\tСначала", "\u2022\tМаркер", "IV.\tЧетвёртый"]
