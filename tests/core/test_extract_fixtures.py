"""Builders of extraction fixture documents, shared by the extraction tests.

Documents are written by the libraries themselves (python-docx, odfpy, Qt's PDF writer)
or by hand where a library cannot (an encrypted PDF, hostile archives).
"""

from __future__ import annotations

import hashlib
import struct
import zipfile
from pathlib import Path

RUSSIAN = (
    "Мой дядя самых честных правил,\n"
    "Когда не в шутку занемог,\n"
    "Он уважать себя заставил\n"
    "И лучше выдумать не мог."
)
UKRAINIAN = "Реве та стогне Дніпр широкий, сердитий вітер завива. Їжак і єнот."
ENGLISH = "The quick brown fox jumps over the lazy dog."


def make_docx(path: Path, *, title: str | None = None, header: str | None = None, footer: str | None = None,
              body: tuple = ("Первый абзац.", ("table", [["А1", "Б1"], ["А2", "Б2"]]), "Последний абзац.")) -> Path:
    """A .docx whose body is paragraphs (str) and tables (("table", rows)) in the given order."""
    import docx

    d = docx.Document()
    for block in body:
        if isinstance(block, str):
            d.add_paragraph(block)
        else:
            rows = block[1]
            t = d.add_table(rows=len(rows), cols=len(rows[0]))
            for r, row in enumerate(rows):
                for c, value in enumerate(row):
                    t.cell(r, c).text = value
    if header:
        d.sections[0].header.paragraphs[0].text = header
    if footer:
        d.sections[0].footer.paragraphs[0].text = footer
    if title:
        d.core_properties.title = title
    d.save(str(path))
    return path


def make_odt(path: Path, paragraphs: list[str], *, heading: str | None = None, title: str | None = None,
             table: list[list[str]] | None = None) -> Path:
    from odf import dc, table as odftable, text as odftext
    from odf.opendocument import OpenDocumentText

    doc = OpenDocumentText()
    if title:
        doc.meta.addElement(dc.Title(text=title))
    if heading:
        doc.text.addElement(odftext.H(outlinelevel=1, text=heading))
    for p in paragraphs:
        doc.text.addElement(odftext.P(text=p))
    if table:
        t = odftable.Table(name="T")
        for row in table:
            tr = odftable.TableRow()
            for value in row:
                cell = odftable.TableCell()
                cell.addElement(odftext.P(text=value))
                tr.addElement(cell)
            t.addElement(tr)
        doc.text.addElement(t)
    doc.save(str(path))
    return path


def make_pdf_qt(path: Path, text: str, *, title: str | None = None) -> Path:
    """A text PDF written by Qt (needs a QGuiApplication; DejaVu fonts give Cyrillic glyphs)."""
    from PySide6.QtGui import QFont, QPdfWriter, QTextDocument

    writer = QPdfWriter(str(path))
    if title:
        writer.setTitle(title)
    doc = QTextDocument()
    doc.setDefaultFont(QFont("DejaVu Sans", 12))
    doc.setPlainText(text)
    doc.print_(writer)
    del writer
    return path


def write_pdf(path: Path, objects: list[bytes], trailer_extra: bytes = b"") -> Path:
    """A PDF from numbered object bodies (object 1 is the catalog), with a correct xref table."""
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    for off in offsets:
        out += b"%010d 00000 n \n" % off
    out += b"trailer\n<< /Size %d /Root 1 0 R " % (len(objects) + 1) + trailer_extra + b">>\n"
    out += b"startxref\n%d\n%%%%EOF\n" % xref
    path.write_bytes(bytes(out))
    return path


def _stream(data: bytes) -> bytes:
    return b"<< /Length %d >>\nstream\n" % len(data) + data + b"\nendstream"


def make_pdf_raw(path: Path, content: bytes) -> Path:
    """A one-page PDF with the given content stream and Helvetica as font F1."""
    return write_pdf(path, [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R "
        b"/Resources << /Font << /F1 5 0 R >> >> >>",
        _stream(content),
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ])


def make_scanned_pdf(path: Path) -> Path:
    """A PDF whose page is only painted (a grey rectangle): no text layer."""
    return make_pdf_raw(path, b"0.5 g 72 72 400 600 re f")


_PAD = bytes.fromhex("28BF4E5E4E758A4164004E56FFFA01082E2E00B6D0683E802F0CA9FE6453697A")


def _rc4(key: bytes, data: bytes) -> bytes:
    s = list(range(256))
    j = 0
    for i in range(256):
        j = (j + s[i] + key[i % len(key)]) % 256
        s[i], s[j] = s[j], s[i]
    out = bytearray()
    i = j = 0
    for byte in data:
        i = (i + 1) % 256
        j = (j + s[i]) % 256
        s[i], s[j] = s[j], s[i]
        out.append(byte ^ s[(s[i] + s[j]) % 256])
    return bytes(out)


def make_encrypted_pdf(path: Path, user_password: bytes = b"secret", text: bytes = b"Secret text") -> Path:
    """A PDF encrypted with the standard security handler, revision 2 (RC4, 40-bit key).

    Built by hand after the PDF 1.7 specification, algorithms 3.1-3.4, since no library
    in the project writes encrypted PDFs.
    """
    permissions = -44
    file_id = b"0123456789abcdef"
    owner_key = hashlib.md5((b"owner" + _PAD)[:32]).digest()[:5]
    o_entry = _rc4(owner_key, (user_password + _PAD)[:32])
    key = hashlib.md5((user_password + _PAD)[:32] + o_entry + struct.pack("<i", permissions) + file_id).digest()[:5]
    u_entry = _rc4(key, _PAD)
    content = b"BT /F1 24 Tf 72 720 Td (" + text + b") Tj ET"
    object_key = hashlib.md5(key + (4).to_bytes(3, "little") + (0).to_bytes(2, "little")).digest()[:10]
    return write_pdf(path, [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R "
        b"/Resources << /Font << /F1 5 0 R >> >> >>",
        _stream(_rc4(object_key, content)),
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
        b"<< /Filter /Standard /V 1 /R 2 /O <" + o_entry.hex().encode() + b"> /U <" + u_entry.hex().encode()
        + b"> /P %d >>" % permissions,
    ], b"/Encrypt 6 0 R /ID [<" + file_id.hex().encode() + b"> <" + file_id.hex().encode() + b">] ")


def rewrite_zip_member(path: Path, member: str, data: bytes) -> Path:
    """Replace one member of a zip archive (other members copied unchanged)."""
    with zipfile.ZipFile(path) as zf:
        members = [(i, zf.read(i.filename)) for i in zf.infolist()]
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        for info, content in members:
            zf.writestr(info, data if info.filename == member else content)
    return path
