"""Hostile input, round seven: the reasons given for damaged files. A PDF of no pages, an
OpenDocument text whose manifest is missing or forgets content.xml, a .docx whose part
relations are damaged or name a part the archive lacks, an .odt or .docx without the part that
holds its text: each was refused with a Python exception's name ("AttributeError: 'NoneType'
object has no attribute 'childNodes'", "KeyError: ... 'etc/passwd'") or called "a zip archive,
not a document Sverka reads". A teacher reads these reasons, in English or Russian: they say
what is wrong with the file, and a file LibreOffice or Word opens is read. Every input is
generated here."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest

from sverka.core.errors import CorruptFile, EmptyDocument
from sverka.core.extract import extract
from tests.core.pdfgen import build
from tests.core.test_hidden_visible import make_docx, p, r

TEXT = "Весной в лесу просыпаются птицы, и ученик пишет о них своё сочинение."
ODT_MIMETYPE = "application/vnd.oasis.opendocument.text"
CONTENT = ('<?xml version="1.0" encoding="UTF-8"?><office:document-content '
           'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
           'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" office:version="1.2">'
           f'<office:body><office:text><text:p>{TEXT}</text:p></office:text></office:body>'
           '</office:document-content>')


def _manifest(*parts: str) -> str:
    entries = "".join(f'<manifest:file-entry manifest:full-path="{p}" manifest:media-type="text/xml"/>'
                      for p in parts)
    return ('<?xml version="1.0"?><manifest:manifest '
            'xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0">'
            f'<manifest:file-entry manifest:full-path="/" manifest:media-type="{ODT_MIMETYPE}"/>{entries}'
            '</manifest:manifest>')


def _zip(path: Path, members: dict[str, str | bytes]) -> Path:
    with zipfile.ZipFile(path, "w") as z:
        for name, data in members.items():
            z.writestr(name, data)
    return path


def _assert_plain_reason(e: Exception) -> None:
    """No Python exception's name, in English or in Russian."""
    for lang in ("en", "ru"):
        said = e.message.text(lang)
        assert "Error" not in said and "KeyError" not in said and "NoneType" not in said, said


# -- PDF --------------------------------------------------------------------------------------

def test_a_pdf_of_no_pages_says_so(tmp_path):
    """PDFium refuses a document of no pages ("Failed to load document (PDFium: Success)") and
    pdfminer reads it without an error and finds no page: it has none, it is not damaged."""
    path = tmp_path / "zero.pdf"
    path.write_bytes(build([b"<< /Type /Catalog /Pages 2 0 R >>", b"<< /Type /Pages /Kids [] /Count 0 >>"]))
    with pytest.raises(EmptyDocument) as caught:
        extract(path)
    e = caught.value
    assert e.message.code == "error.pdf_no_pages"
    assert str(e) == f"{path}: the PDF has no pages"
    assert e.message.text("ru") == "в PDF нет ни одной страницы"
    assert "PDFium" not in str(e) and "pdfminer" not in str(e)


# -- OpenDocument -----------------------------------------------------------------------------

@pytest.mark.parametrize("members", [
    {"mimetype": ODT_MIMETYPE, "content.xml": CONTENT, "META-INF/manifest.xml": _manifest()},  # forgets content.xml
    {"mimetype": ODT_MIMETYPE, "content.xml": CONTENT},  # no manifest at all
    {"content.xml": CONTENT, "META-INF/manifest.xml": _manifest("content.xml")},  # no mimetype
    {"mimetype": ODT_MIMETYPE, "content.xml": CONTENT,  # lists a picture the archive lacks
     "META-INF/manifest.xml": _manifest("content.xml", "Pictures/1.png")},
], ids=["manifest-without-content", "no-manifest", "no-mimetype", "manifest-names-a-missing-picture"])
def test_an_odt_whose_manifest_is_wrong_or_missing_is_read(tmp_path, members):
    """odfpy reads only the parts its manifest lists and needs one; LibreOffice reads content.xml
    whatever the manifest says. These were "AttributeError: 'NoneType' object has no attribute
    'childNodes'", "KeyError: There is no item named 'META-INF/manifest.xml'" or "a zip archive"."""
    doc = extract(_zip(tmp_path / "essay.odt", members))
    assert doc.text.strip() == TEXT and doc.format == "odt"


def test_an_odt_without_content_xml_is_a_damaged_odt_not_a_zip_archive(tmp_path):
    path = _zip(tmp_path / "essay.odt", {"mimetype": ODT_MIMETYPE, "META-INF/manifest.xml": _manifest()})
    with pytest.raises(CorruptFile) as caught:
        extract(path)
    e = caught.value
    assert e.message.code == "error.odt_no_content"
    assert "content.xml" in str(e) and "zip archive" not in str(e)
    assert "content.xml" in e.message.text("ru") and "OpenDocument" in e.message.text("ru")
    # named anything, an archive with an OpenDocument text's mimetype is one
    renamed = _zip(tmp_path / "essay.zip", {"mimetype": ODT_MIMETYPE, "META-INF/manifest.xml": _manifest()})
    with pytest.raises(CorruptFile, match="content.xml"):
        extract(renamed)


def test_an_odt_whose_content_holds_no_text_body_says_so(tmp_path):
    """content.xml of a spreadsheet in a file that does not say it is one (no mimetype): no
    office:text, which was "AttributeError: 'NoneType' object has no attribute 'childNodes'"."""
    sheet = CONTENT.replace("<office:text>", "<office:spreadsheet>").replace("</office:text>", "</office:spreadsheet>")
    path = _zip(tmp_path / "table.odt", {"content.xml": sheet})
    with pytest.raises(CorruptFile) as caught:
        extract(path)
    assert caught.value.message.code == "error.odt_no_text_body"
    _assert_plain_reason(caught.value)


def test_an_odt_with_its_manifest_still_keeps_its_hidden_text_out(tmp_path):
    """The copy odfpy reads keeps styles.xml: text hidden by a named style stays hidden."""
    styles = ('<?xml version="1.0" encoding="UTF-8"?><office:document-styles '
              'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
              'xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" '
              'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"><office:styles>'
              '<style:style style:name="Hide" style:family="paragraph"><style:text-properties text:display="none"/>'
              '</style:style></office:styles></office:document-styles>')
    content = CONTENT.replace("</office:text>", '<text:p text:style-name="Hide">скрытый набор слов</text:p></office:text>')
    doc = extract(_zip(tmp_path / "hidden.odt", {"mimetype": ODT_MIMETYPE, "content.xml": content,
                                                  "styles.xml": styles}))
    assert doc.text.strip() == TEXT
    assert [w.code for w in doc.warnings] == ["warning.hidden_text"]


# -- Word .docx -------------------------------------------------------------------------------

RELS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/"


def _rewrite(path: Path, change) -> Path:
    with zipfile.ZipFile(path) as z:
        parts = {n: z.read(n) for n in z.namelist()}
    change(parts)
    path.unlink()
    return _zip(path, parts)


def test_an_embedded_part_missing_from_a_docx_is_warned_about_and_the_rest_read(tmp_path):
    """One w:altChunk naming a part the archive lacks (``../../../etc/passwd``) made python-docx
    refuse the whole document ("KeyError: There is no item named 'etc/passwd'"); Word reads
    the rest. The target is looked for among the archive's members only, never on the disk."""
    body = '<w:altChunk r:id="rIdX"/>' + p(r(TEXT))
    path = make_docx(tmp_path / "essay.docx", body)

    def change(parts):
        rels = parts["word/_rels/document.xml.rels"].decode()
        parts["word/_rels/document.xml.rels"] = rels.replace(
            "</Relationships>", f'<Relationship Id="rIdX" Type="{RELS}aFChunk" Target="../../../etc/passwd"/>'
                                f'<Relationship Id="rIdN" Type="{RELS}numbering" Target="numbering.xml"/>'
                                "</Relationships>").encode()

    doc = extract(_rewrite(path, change))
    assert doc.text.strip() == TEXT and "root:" not in doc.text
    assert [(w.code, w.kw["name"]) for w in doc.warnings] == [("warning.docx_part_missing", "etc/passwd")]
    assert "etc/passwd" in doc.warnings[0].text("ru")


def test_a_docx_missing_only_a_part_without_text_reads_without_a_warning(tmp_path):
    """A thumbnail the package's relationships name but the archive lacks loses no text."""
    path = make_docx(tmp_path / "essay.docx", p(r(TEXT)))

    def change(parts):
        parts["_rels/.rels"] = parts["_rels/.rels"].replace(
            b"</Relationships>", b'<Relationship Id="rId9" Type="http://schemas.openxmlformats.org/package/2006/'
                                 b'relationships/metadata/thumbnail" Target="docProps/thumbnail.jpeg"/></Relationships>')

    doc = extract(_rewrite(path, change))
    assert doc.text.strip() == TEXT and not doc.warnings


@pytest.mark.parametrize("rels", [
    b'<Relationships><Relationship Id="rId1" Target="x"/></Relationships>',  # no namespace
    b'<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship',  # cut
])
def test_a_docx_whose_part_relations_are_damaged_says_which(tmp_path, rels):
    """Was "AttributeError: 'lxml.etree._Element' object has no attribute 'Relationship_lst'"."""
    path = make_docx(tmp_path / "essay.docx", p(r(TEXT)))
    with pytest.raises(CorruptFile) as caught:
        extract(_rewrite(path, lambda parts: parts.__setitem__("word/_rels/document.xml.rels", rels)))
    e = caught.value
    assert e.message.code == "error.docx_rels_damaged" and e.message.kw["name"] == "word/_rels/document.xml.rels"
    _assert_plain_reason(e)


def test_a_docx_without_its_main_part_is_a_damaged_docx_not_a_zip_archive(tmp_path):
    path = make_docx(tmp_path / "essay.docx", p(r(TEXT)))
    with pytest.raises(CorruptFile) as caught:
        extract(_rewrite(path, lambda parts: parts.pop("word/document.xml")))
    e = caught.value
    assert e.message.code == "error.docx_no_document"
    assert "word/document.xml" in str(e) and "zip archive" not in str(e)
    assert "Word" in e.message.text("ru")


def test_a_docx_without_its_content_types_says_so(tmp_path):
    path = make_docx(tmp_path / "essay.docx", p(r(TEXT)))
    with pytest.raises(CorruptFile) as caught:
        extract(_rewrite(path, lambda parts: parts.pop("[Content_Types].xml")))
    assert caught.value.message.code == "error.docx_no_content_types"
    _assert_plain_reason(caught.value)
