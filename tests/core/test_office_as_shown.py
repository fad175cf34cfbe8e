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
