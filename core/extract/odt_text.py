"""OpenDocument text (.odt) through odfpy: paragraphs and headings in document order.

Lists, tables, sections and frames are walked through; every text:p and text:h becomes
one line (odfpy's teletype turns text:s, text:tab and text:line-break into spaces, tabs
and newlines). Table cells of one row are joined by tabs.

odfpy prints a whole XML part to stdout and carries on when the part is malformed, so
the XML members are checked for well-formedness (with expat, streaming) before odfpy sees them.
"""

from __future__ import annotations

import re
import xml.parsers.expat
import zipfile
from pathlib import Path

from ..errors import CorruptFile, TooLarge, UnsupportedFormat
from .safety import MAX_TEXT_CHARS, open_checked_zip

ODT_MIMETYPE = b"application/vnd.oasis.opendocument.text"
_XML_PARTS = ("content.xml", "styles.xml", "meta.xml", "settings.xml")


def extract_odt(path: Path) -> tuple[str, str, list[str]]:
    """Return (text, title, warnings)."""
    with open_checked_zip(path) as zf:
        names = set(zf.namelist())
        if "content.xml" not in names:
            raise CorruptFile(path, "a zip archive without content.xml: not an OpenDocument file")
        if "mimetype" in names:
            mimetype = zf.read("mimetype").strip()
            if mimetype.startswith(b"application/vnd.oasis.opendocument.") and not mimetype.startswith(ODT_MIMETYPE):
                raise UnsupportedFormat(path, f"an OpenDocument file of type {mimetype.decode('ascii', 'replace')}, not a text document")
        for name in _XML_PARTS:
            if name in names:
                _check_well_formed(path, zf, name)
        _check_space_runs(path, zf.read("content.xml"))

    from odf import opendocument, teletype
    from odf.namespaces import DCNS, TABLENS, TEXTNS

    try:
        doc = opendocument.load(str(path))
    except (KeyError, ValueError, zipfile.BadZipFile) as e:
        raise CorruptFile(path, f"the OpenDocument file is damaged ({type(e).__name__}: {e})") from None

    lines: list[str] = []

    def walk(node) -> None:
        for child in node.childNodes:
            qname = getattr(child, "qname", None)
            if qname in ((TEXTNS, "p"), (TEXTNS, "h")):
                lines.append(teletype.extractText(child))
            elif qname == (TABLENS, "table-row"):
                cells = []
                for cell in child.childNodes:
                    if getattr(cell, "qname", None) == (TABLENS, "table-cell"):
                        sub: list[str] = []
                        _collect(cell, sub, teletype, TEXTNS)
                        cells.append(" ".join(s for s in sub if s.strip()))
                lines.append("\t".join(cells))
            elif qname is not None:
                walk(child)

    walk(doc.text)
    title = ""
    for el in doc.meta.childNodes:
        if getattr(el, "qname", None) == (DCNS, "title"):
            title = teletype.extractText(el).strip()
    return "\n".join(lines), title, []


_SPACE_RUN = re.compile(rb"<[A-Za-z_][\w.-]*:s\b[^>]*?\bc\s*=\s*[\"']\s*(\d{1,30})")


def _check_space_runs(path: Path, content: bytes) -> None:
    """Refuse ``<text:s c="200000000"/>`` bombs before odfpy expands them into gigabytes."""
    total = 0
    for m in _SPACE_RUN.finditer(content):
        total += int(m.group(1))
        if total > MAX_TEXT_CHARS:
            raise TooLarge(path, f"the document's repeated-space elements (text:s c=...) expand to more than "
                                 f"{MAX_TEXT_CHARS:,} characters, Sverka's text limit")


def _collect(node, out: list[str], teletype, textns: str) -> None:
    for child in node.childNodes:
        qname = getattr(child, "qname", None)
        if qname in ((textns, "p"), (textns, "h")):
            out.append(teletype.extractText(child))
        elif qname is not None:
            _collect(child, out, teletype, textns)


def _check_well_formed(path: Path, zf: zipfile.ZipFile, name: str) -> None:
    parser = xml.parsers.expat.ParserCreate()

    def refuse_dtd(*_args) -> None:
        raise CorruptFile(path, f"{name} declares a DTD; refused for safety (entity expansion)")

    parser.StartDoctypeDeclHandler = refuse_dtd
    try:
        with zf.open(name) as f:
            while chunk := f.read(1 << 16):
                parser.Parse(chunk, False)
        parser.Parse(b"", True)
    except xml.parsers.expat.ExpatError as e:
        raise CorruptFile(path, f"the OpenDocument file is damaged ({name}: {e})") from None
    except (zipfile.BadZipFile, EOFError, OSError) as e:
        raise CorruptFile(path, f"the OpenDocument file is damaged or truncated ({name}: {e})") from None
