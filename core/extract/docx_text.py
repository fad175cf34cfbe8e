"""Word .docx through python-docx: headers, body (paragraphs and tables in document order), footers.

A table becomes one line per row with its cells separated by tabs (a merged cell is
written once); a cell's own paragraphs and nested tables are joined with spaces so the row
stays on one line. Headers come before the body and footers after it, each distinct text once.
"""

from __future__ import annotations

from pathlib import Path

from ..errors import CorruptFile
from .safety import open_checked_zip


def extract_docx(path: Path) -> tuple[str, str, list[str]]:
    """Return (text, title, warnings)."""
    import docx
    from docx.opc.exceptions import PackageNotFoundError

    with open_checked_zip(path) as zf:
        if "word/document.xml" not in zf.namelist():
            raise CorruptFile(path, "a zip archive without word/document.xml: not a Word document")
    try:
        document = docx.Document(str(path))
    except PackageNotFoundError:
        raise CorruptFile(path, "not a Word .docx package") from None
    except (KeyError, ValueError, SyntaxError) as e:  # lxml's XMLSyntaxError is a SyntaxError
        raise CorruptFile(path, f"the Word document is damaged ({type(e).__name__}: {e})") from None

    body = _blocks(document)
    headers: list[str] = []
    footers: list[str] = []
    for section in document.sections:
        for parts, out in (
            ((section.first_page_header, section.header, section.even_page_header), headers),
            ((section.first_page_footer, section.footer, section.even_page_footer), footers),
        ):
            for part in parts:
                if part.is_linked_to_previous:
                    continue
                text = "\n".join(_blocks(part)).strip()
                if text and text not in out:
                    out.append(text)
    text = "\n".join([*headers, *body, *footers])
    title = (document.core_properties.title or "").strip()
    return text, title, []


def _blocks(container) -> list[str]:
    """Lines of a body, header, footer or cell: paragraphs and table rows in document order.

    Block-level content controls (w:sdt, e.g. a cover page or a table of contents) are
    opened; python-docx's own iteration would skip them.
    """
    from docx.oxml.ns import qn
    from docx.table import Table
    from docx.text.paragraph import Paragraph

    element = container.element.body if hasattr(container, "core_properties") else container._element
    tags_p, tags_tbl, tag_sdt, tag_content = qn("w:p"), qn("w:tbl"), qn("w:sdt"), qn("w:sdtContent")
    lines: list[str] = []

    def walk(parent) -> None:
        for child in parent.iterchildren():
            if child.tag == tags_p:
                lines.append(Paragraph(child, container).text)
            elif child.tag == tags_tbl:
                lines.extend(_table_rows(Table(child, container)))
            elif child.tag == tag_sdt:
                for content in child.iterchildren(tag_content):
                    walk(content)

    walk(element)
    return lines


def _table_rows(table) -> list[str]:
    rows = []
    # A merged cell is returned once per grid cell it spans; write it once. The list keeps the
    # lxml proxies alive, so their ids stay unique while the set is in use.
    seen_ids: set[int] = set()
    keep_alive: list = []
    for row in table.rows:
        cells = []
        for cell in row.cells:
            tc = cell._tc
            if id(tc) in seen_ids:
                continue
            seen_ids.add(id(tc))
            keep_alive.append(tc)
            cells.append(" ".join(line for line in _blocks(cell) if line.strip()))
        rows.append("\t".join(cells))
    return rows
