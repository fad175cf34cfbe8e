"""Extraction of every supported format, encodings, titles, sniffing, and `sverka extract`."""

from __future__ import annotations

import codecs
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from test_extract_fixtures import (
    ENGLISH,
    RUSSIAN,
    UKRAINIAN,
    make_docx,
    make_encrypted_pdf,
    make_odt,
    make_pdf_qt,
    make_pdf_raw,
)

from sverka.core.errors import EncryptedFile, UnreadableFile, UnsupportedFormat
from sverka.core.extract import SUPPORTED_SUFFIXES, extract

PROJECT = Path(__file__).resolve().parents[2]


def squash(text: str) -> str:
    return " ".join(text.split())


# --- plain text and encodings -------------------------------------------------------------

SHORT_RUSSIAN = ["Привет, мир!", "Да.", "ЗАГОЛОВОК ДОКУМЕНТА", "Ёлка", "Глава 1", "ООО Ромашка, дом 5", RUSSIAN]


@pytest.mark.parametrize("encoding", ["cp1251", "koi8_r"])
@pytest.mark.parametrize("text", SHORT_RUSSIAN)
def test_short_russian_in_single_byte_code_pages(tmp_path, encoding, text):
    path = tmp_path / "short.txt"
    path.write_bytes(text.encode(encoding))
    doc = extract(path)
    assert doc.text == text
    assert ("encoding", encoding) in doc.meta


def test_cp1251_typographic_punctuation(tmp_path):
    path = tmp_path / "p.txt"
    path.write_bytes("ООО «Ромашка» — №5…".encode("cp1251"))
    assert extract(path).text == "ООО «Ромашка» — №5…"


@pytest.mark.parametrize("encoding", ["cp1251", "koi8_u", "utf-8"])
def test_ukrainian(tmp_path, encoding):
    path = tmp_path / "uk.txt"
    path.write_bytes(UKRAINIAN.encode(encoding))
    assert extract(path).text == UKRAINIAN


@pytest.mark.parametrize(
    ("codec", "label"),
    [("utf-8", "utf-8"), ("utf-8-sig", "utf-8 (with BOM)"), ("utf-16", "(with BOM)"), ("utf-16-be", None)],
)
def test_unicode_encodings(tmp_path, codec, label):
    text = RUSSIAN + "\n" + ENGLISH
    data = text.encode(codec)
    if codec == "utf-16-be":
        data = codecs.BOM_UTF16_BE + data
    path = tmp_path / "u.txt"
    path.write_bytes(data)
    doc = extract(path)
    assert doc.text == text
    assert label is None or label in dict(doc.meta)["encoding"]


def test_western_cp1252(tmp_path):
    text = "Grüße aus Köln, déjà vu, naïve café — “quoted”."
    path = tmp_path / "w.txt"
    path.write_bytes(text.encode("cp1252"))
    assert extract(path).text == text


def test_newlines_normalised_and_format_from_suffix(tmp_path):
    path = tmp_path / "notes.md"
    path.write_bytes("# Заголовок\r\nстрока\rещё\n".encode())
    doc = extract(path)
    assert doc.text == "# Заголовок\nстрока\nещё\n"
    assert doc.format == "md"
    assert doc.title == "notes"
    assert doc.path == str(path)


def test_extraction_is_deterministic(tmp_path):
    path = tmp_path / "d.txt"
    path.write_bytes((RUSSIAN * 50).encode("koi8_r"))
    assert extract(path) == extract(path)


def test_ruslit_cp1251_file(ruslit):
    path = ruslit / "poems" / "Pushkin" / "Руслан и Людмила.txt"
    if not path.exists():
        pytest.skip("file not in this copy of the corpus")
    doc = extract(path)
    assert ("encoding", "cp1251") in doc.meta
    assert "РУСЛАН И ЛЮДМИЛА" in doc.text
    assert "Для вас, души моей царицы" in doc.text
    assert "\r" not in doc.text


# --- docx ---------------------------------------------------------------------------------


def test_docx_body_tables_headers_footers_in_order(tmp_path):
    path = make_docx(
        tmp_path / "a.docx",
        title="Курсовая работа",
        header="Университет",
        footer="Страница",
        body=("До таблицы.", ("table", [["А1", "Б1"], ["А2", "Б2"]]), "После таблицы."),
    )
    doc = extract(path)
    assert doc.text == "Университет\nДо таблицы.\nА1\tБ1\nА2\tБ2\nПосле таблицы.\nСтраница"
    assert doc.title == "Курсовая работа"
    assert doc.format == "docx"


def test_docx_merged_cells_written_once(tmp_path):
    import docx

    d = docx.Document()
    t = d.add_table(rows=2, cols=3)
    t.cell(0, 0).merge(t.cell(0, 2)).text = "Объединённая"
    for c, v in enumerate(["x", "y", "z"]):
        t.cell(1, c).text = v
    d.save(str(tmp_path / "m.docx"))
    assert extract(tmp_path / "m.docx").text == "Объединённая\nx\ty\tz"


def test_docx_block_content_controls_are_read(tmp_path):
    """Text inside a body-level w:sdt (cover pages, tables of contents) is kept, in order."""
    import copy

    import docx
    from docx.oxml import parse_xml
    from docx.oxml.ns import nsdecls

    d = docx.Document()
    d.add_paragraph("До.")
    inner = d.add_paragraph("Внутри элемента управления.")
    after = d.add_paragraph("После.")
    sdt = parse_xml(f"<w:sdt {nsdecls('w')}><w:sdtPr/><w:sdtContent/></w:sdt>")
    sdt[1].append(copy.deepcopy(inner._p))
    inner._p.getparent().remove(inner._p)
    after._p.addprevious(sdt)
    d.save(str(tmp_path / "sdt.docx"))
    assert extract(tmp_path / "sdt.docx").text == "До.\nВнутри элемента управления.\nПосле."


def test_docx_without_title_uses_file_name(tmp_path):
    path = make_docx(tmp_path / "Реферат студента.docx", body=("Текст.",))
    assert extract(path).title == "Реферат студента"


# --- odt ----------------------------------------------------------------------------------


def test_odt_headings_paragraphs_tables_and_title(tmp_path):
    path = make_odt(
        tmp_path / "a.odt", ["Первый абзац.", "Второй\tабзац."], heading="Глава 1", title="Отчёт",
        table=[["a", "b"], ["c", "d"]],
    )
    doc = extract(path)
    assert doc.text == "Глава 1\nПервый абзац.\nВторой\tабзац.\na\tb\nc\td"
    assert doc.title == "Отчёт"
    assert doc.format == "odt"


# --- pdf ----------------------------------------------------------------------------------


def test_pdf_cyrillic_text_and_title(tmp_path, qapp):
    path = make_pdf_qt(tmp_path / "a.pdf", RUSSIAN + "\n\n" + ENGLISH, title="Евгений Онегин")
    doc = extract(path)
    assert squash(RUSSIAN + " " + ENGLISH) in squash(doc.text)
    assert doc.title == "Евгений Онегин"
    assert doc.format == "pdf"
    assert ("pages", "1") in doc.meta


def test_pdf_page_offsets_point_at_page_starts(tmp_path):
    from test_extract_fixtures import write_pdf

    pages = [b"BT /F1 24 Tf 72 720 Td (Page one) Tj ET", b"BT /F1 24 Tf 72 720 Td (Page two) Tj ET"]
    objs = [b"<< /Type /Catalog /Pages 2 0 R >>", b"<< /Type /Pages /Kids [3 0 R 4 0 R] /Count 2 >>"]
    for content in (5, 6):
        objs.append(b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents %d 0 R "
                    b"/Resources << /Font << /F1 7 0 R >> >> >>" % content)
    for data in pages:
        objs.append(b"<< /Length %d >>\nstream\n" % len(data) + data + b"\nendstream")
    objs.append(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>")
    doc = extract(write_pdf(tmp_path / "two.pdf", objs))
    offsets = [int(x) for x in dict(doc.meta)["page_offsets"].split()]
    assert [doc.text[o:o + 8] for o in offsets] == ["Page one", "Page two"]


def test_hand_made_encrypted_pdf_is_real(tmp_path):
    """The encrypted fixture opens with its password, so EncryptedFile tests test encryption."""
    import pypdfium2 as pdfium

    path = make_encrypted_pdf(tmp_path / "e.pdf")
    pdf = pdfium.PdfDocument(str(path), password="secret")
    assert pdf[0].get_textpage().get_text_bounded() == "Secret text"
    with pytest.raises(EncryptedFile, match="password"):
        extract(path)


def test_pdfminer_fallback_when_pdfium_refuses(tmp_path, monkeypatch):
    import pypdfium2 as pdfium

    path = make_pdf_raw(tmp_path / "f.pdf", b"BT /F1 24 Tf 72 720 Td (Fallback works) Tj ET")

    def refuse(*args, **kwargs):
        raise pdfium.PdfiumError("simulated failure", err_code=pdfium.raw.FPDF_ERR_FORMAT)

    monkeypatch.setattr(pdfium, "PdfDocument", refuse)
    doc = extract(path)
    assert doc.text.strip() == "Fallback works"
    assert any("pdfminer" in str(w) for w in doc.warnings)


# --- rtf ----------------------------------------------------------------------------------


def test_rtf_ansicpg1251_with_fcharset0(tmp_path):
    r"""striprtf alone decodes \'xx with CP1252 here (fcharset0) and produces mojibake."""
    rtf = (
        rb"{\rtf1\ansi\ansicpg1251\deff0{\fonttbl{\f0\fswiss\fcharset0 Arial;}}"
        rb"{\info{\title \'d0\'e5\'f4\'e5\'f0\'e0\'f2}}"
        rb"\f0 \'cf\'f0\'e8\'e2\'e5\'f2, world!\par \u1055?\'e0\'f0\'e0\par}"
    )
    path = tmp_path / "a.rtf"
    path.write_bytes(rtf)
    doc = extract(path)
    assert doc.text == "Привет, world!\nПара\n"
    assert doc.title == "Реферат"
    assert doc.format == "rtf"


def test_rtf_fcharset204(tmp_path):
    rtf = rb"{\rtf1\ansi\deff0{\fonttbl{\f0\fnil\fcharset204 Calibri;}}\f0 \'ca\'ed\'e8\'e3\'e0\par}"
    path = tmp_path / "b.rtf"
    path.write_bytes(rtf)
    assert extract(path).text == "Книга\n"


# --- html ---------------------------------------------------------------------------------


def test_html_blocks_entities_script_style_title(tmp_path):
    html = (
        "<!DOCTYPE html><html><head><meta charset='windows-1251'><title>Статья &amp; обзор</title>"
        "<style>p { color: red }</style><script>var x = '<p>не текст</p>';</script></head>"
        "<body><h1>Заголовок</h1><p>Первый   абзац\n с&nbsp;пробелом &laquo;цитата&raquo;.</p>"
        "<div>Блок<br>новая строка</div><table><tr><td>a</td><td>b</td></tr></table>"
        "<pre>  код\n    отступ</pre></body></html>"
    )
    path = tmp_path / "a.html"
    path.write_bytes(html.encode("cp1251"))
    doc = extract(path)
    assert doc.text == (
        "Заголовок\nПервый абзац с\u00a0пробелом «цитата».\nБлок\nновая строка\na\tb\n  код\n    отступ"
    )
    assert doc.title == "Статья & обзор"
    assert doc.format == "html"


def test_html_without_declared_charset_is_detected(tmp_path):
    path = tmp_path / "b.htm"
    path.write_bytes(f"<p>{RUSSIAN}</p>".encode("koi8_r"))
    assert squash(extract(path).text) == squash(RUSSIAN)


# --- sniffing -----------------------------------------------------------------------------


def test_txt_that_is_really_a_docx(tmp_path):
    path = make_docx(tmp_path / "real.docx", body=("Скрытый вордовский файл.",))
    fake = tmp_path / "fake.txt"
    fake.write_bytes(path.read_bytes())
    doc = extract(fake)
    assert doc.format == "docx"
    assert doc.text == "Скрытый вордовский файл."
    assert any("named .txt" in str(w) for w in doc.warnings)


def test_txt_that_is_really_a_pdf(tmp_path):
    path = make_pdf_raw(tmp_path / "x.pdf", b"BT /F1 24 Tf 72 720 Td (PDF inside) Tj ET")
    fake = tmp_path / "x.txt"
    fake.write_bytes(path.read_bytes())
    doc = extract(fake)
    assert doc.format == "pdf"
    assert doc.text.strip() == "PDF inside"


def test_odt_named_docx(tmp_path):
    path = make_odt(tmp_path / "a.odt", ["Текст ODT."])
    fake = tmp_path / "a.docx"
    fake.write_bytes(path.read_bytes())
    doc = extract(fake)
    assert doc.format == "odt"
    assert doc.text == "Текст ODT."
    assert any("named .docx but its content is an OpenDocument text" in str(w) for w in doc.warnings)


def test_unknown_suffix_and_missing_file(tmp_path):
    path = tmp_path / "data.xyz"
    path.write_text("text", encoding="utf-8")
    with pytest.raises(UnsupportedFormat, match=r"data\.xyz.*unsupported file type \.xyz"):
        extract(path)
    with pytest.raises(UnreadableFile, match="does not exist"):
        extract(tmp_path / "missing.txt")
    with pytest.raises(UnreadableFile, match="folder"):
        extract(tmp_path)


def test_other_zip_is_refused(tmp_path):
    import zipfile

    path = tmp_path / "archive.txt"
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("readme.txt", "hello")
    with pytest.raises(UnsupportedFormat, match="zip archive"):
        extract(path)


# --- the command line ---------------------------------------------------------------------


def _cli_fixtures(tmp_path: Path) -> dict[str, tuple[Path, str]]:
    """One file per supported suffix with the text `sverka extract` must print (whitespace-squashed)."""
    out = {}
    p = tmp_path / "cp1251.txt"
    p.write_bytes(RUSSIAN.encode("cp1251"))
    out[".txt"] = (p, RUSSIAN)
    p = tmp_path / "koi8 «кавычки» 'x'.md"
    p.write_bytes(RUSSIAN.encode("koi8_r"))
    out[".md"] = (p, RUSSIAN)
    out[".docx"] = (make_docx(tmp_path / "d.docx", body=(RUSSIAN,)), RUSSIAN)
    out[".odt"] = (make_odt(tmp_path / "o.odt", RUSSIAN.split("\n")), RUSSIAN)
    out[".pdf"] = (make_pdf_qt(tmp_path / "p.pdf", RUSSIAN), RUSSIAN)
    p = tmp_path / "r.rtf"
    p.write_bytes(rb"{\rtf1\ansi\ansicpg1251{\fonttbl{\f0\fcharset0 Arial;}}\f0 " + RUSSIAN.encode("cp1251").replace(
        b"\n", b"\\par ") + b"}")
    out[".rtf"] = (p, RUSSIAN)
    from word97 import word97

    p = tmp_path / "w.doc"
    p.write_bytes(word97(RUSSIAN))
    out[".doc"] = (p, RUSSIAN)
    for suffix in (".html", ".htm"):
        p = tmp_path / f"h{suffix}"
        p.write_text("<html><body>" + "".join(f"<p>{line}</p>" for line in RUSSIAN.split("\n")) + "</body></html>",
                     encoding="utf-8")
        out[suffix] = (p, RUSSIAN)
    from test_mhtml import blink_mhtml

    page = "<html><body>" + "".join(f"<p>{line}</p>" for line in RUSSIAN.split("\n")) + "</body></html>"
    for suffix in (".mht", ".mhtml"):
        p = tmp_path / f"saved{suffix}"
        p.write_bytes(blink_mhtml(page, css="p { color: black }"))
        out[suffix] = (p, RUSSIAN)
    fb2 = ('<?xml version="1.0" encoding="windows-1251"?><FictionBook><body>'
           + "".join(f"<p>{line}</p>" for line in RUSSIAN.split("\n")) + "</body></FictionBook>").encode("cp1251")
    p = tmp_path / "book.fb2"
    p.write_bytes(fb2)
    out[".fb2"] = (p, RUSSIAN)
    p = tmp_path / "book.fb2.zip"
    with zipfile.ZipFile(p, "w") as zf:
        zf.writestr("book.fb2", fb2)
    out[".fb2.zip"] = (p, RUSSIAN)
    from test_epub import epub_of

    out[".epub"] = (epub_of(tmp_path / "book.epub", "".join(f"<p>{line}</p>" for line in RUSSIAN.split("\n"))), RUSSIAN)
    return out


@pytest.mark.slow
def test_cli_extract_every_format(tmp_path, qapp):
    fixtures = _cli_fixtures(tmp_path)
    assert sorted(fixtures) == sorted(SUPPORTED_SUFFIXES)
    for suffix, (path, expected) in fixtures.items():
        proc = subprocess.run(
            [sys.executable, "-m", "sverka.core.cli", "extract", str(path)],
            capture_output=True, timeout=60, cwd=PROJECT,
        )
        assert proc.returncode == 0, (suffix, proc.stderr.decode())
        printed = proc.stdout.decode("utf-8")
        assert printed == extract(path).text, suffix
        assert squash(expected) in squash(printed), suffix


@pytest.mark.slow
def test_cli_extract_error_names_file(tmp_path):
    path = tmp_path / "пустой файл.docx"
    path.write_bytes(b"")
    proc = subprocess.run(
        [sys.executable, "-m", "sverka.core.cli", "extract", str(path)], capture_output=True, timeout=60,
    )
    assert proc.returncode == 1
    assert proc.stdout == b""
    assert "пустой файл.docx" in proc.stderr.decode() and "empty" in proc.stderr.decode()


def test_misnamed_pdf_is_reported_as_not_a_pdf(tmp_path):
    from sverka.core.errors import CorruptFile

    path = tmp_path / "report.pdf"
    path.write_text("just text", encoding="utf-8")
    with pytest.raises(CorruptFile, match=r"report\.pdf: the content is not a PDF"):
        extract(path)
