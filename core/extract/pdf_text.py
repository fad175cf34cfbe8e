"""PDF through pypdfium2, with pdfminer.six as the fallback when PDFium cannot open the file.

Pages are joined by a blank line; ``page_offsets`` in the document's meta lists where each
page starts in the extracted text. A PDF whose pages carry no text layer (a scan) is
refused with :class:`~sverka.core.errors.EmptyDocument` naming the cause; when only some
pages lack text, the text is kept and a warning lists those pages.
"""

from __future__ import annotations

from pathlib import Path

from ..errors import CorruptFile, EmptyDocument, EncryptedFile, ExtractError
from .safety import MAX_TEXT_CHARS, check_text_size

PAGE_SEPARATOR = "\n\n"
SCANNED_REASON = "the PDF has no text layer; it looks like a scanned image (run OCR on it first)"


def extract_pdf(path: Path) -> tuple[str, str, list[str], list[tuple[str, str]]]:
    """Return (text, title, warnings, meta)."""
    import pypdfium2 as pdfium

    try:
        pdf = pdfium.PdfDocument(str(path))
    except pdfium.PdfiumError as e:
        if e.err_code == pdfium.raw.FPDF_ERR_PASSWORD:
            raise EncryptedFile(path, "the PDF is password-protected") from None
        if e.err_code == pdfium.raw.FPDF_ERR_SECURITY:
            raise EncryptedFile(path, "the PDF uses an unsupported security handler") from None
        return _extract_with_pdfminer(path, f"PDFium could not open it ({e})")
    try:
        return _extract_with_pdfium(path, pdf)
    finally:
        pdf.close()


def _extract_with_pdfium(path: Path, pdf) -> tuple[str, str, list[str], list[tuple[str, str]]]:
    pages: list[str] = []
    total = 0
    for i in range(len(pdf)):
        page = pdf[i]
        try:
            textpage = page.get_textpage()
            try:
                text = textpage.get_text_bounded()
            finally:
                textpage.close()
        finally:
            page.close()
        pages.append(_clean(text))
        total += len(text)
        if total > MAX_TEXT_CHARS:
            check_text_size(path, "".join(pages))
    try:
        title = (pdf.get_metadata_value("Title") or "").strip()
    except Exception:  # damaged metadata must not cost the text; the title falls back to the file name
        title = ""
    return _assemble(path, pages, title, [])


def _extract_with_pdfminer(path: Path, why: str) -> tuple[str, str, list[str], list[tuple[str, str]]]:
    from pdfminer.high_level import extract_pages
    from pdfminer.layout import LTTextContainer
    from pdfminer.pdfdocument import PDFEncryptionError, PDFPasswordIncorrect
    from pdfminer.pdfparser import PDFSyntaxError
    from pdfminer.psexceptions import PSException

    pages: list[str] = []
    try:
        for layout in extract_pages(str(path)):
            pages.append(_clean("".join(el.get_text() for el in layout if isinstance(el, LTTextContainer))))
            if sum(map(len, pages)) > MAX_TEXT_CHARS:
                check_text_size(path, "".join(pages))
    except (PDFPasswordIncorrect, PDFEncryptionError):
        raise EncryptedFile(path, "the PDF is password-protected") from None
    except ExtractError:
        raise
    except (PDFSyntaxError, PSException, ValueError, KeyError, TypeError, AttributeError, IndexError,
            AssertionError, EOFError, OSError) as e:  # pdfminer reports damage through many exception types
        raise CorruptFile(path, f"the PDF is damaged or truncated ({why}; pdfminer: {type(e).__name__})") from None
    if not pages:
        raise CorruptFile(path, f"the PDF is damaged or truncated ({why}; pdfminer found no pages)")
    return _assemble(path, pages, "", [f"read with pdfminer.six because {why}"])


def _clean(text: str) -> str:
    return text.replace("\r\n", "\n").replace("\r", "\n").replace("\x00", "").strip("\n")


def _assemble(path: Path, pages: list[str], title: str, warnings: list[str]):
    empty = [i + 1 for i, p in enumerate(pages) if not p.strip()]
    if len(empty) == len(pages):
        raise EmptyDocument(path, SCANNED_REASON if pages else "the PDF has no pages")
    if empty:
        shown = ", ".join(map(str, empty[:20])) + (", ..." if len(empty) > 20 else "")
        warnings.append(f"{len(empty)} of {len(pages)} pages have no text layer (scanned?): {shown}")
    offsets = []
    pos = 0
    for p in pages:
        offsets.append(pos)
        pos += len(p) + len(PAGE_SEPARATOR)
    meta = [("pages", str(len(pages))), ("page_offsets", " ".join(map(str, offsets)))]
    return PAGE_SEPARATOR.join(pages), title, warnings, meta
