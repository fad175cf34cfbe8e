"""PDF through pypdfium2, with pdfminer.six as the fallback when PDFium cannot open the file.

Pages are joined by a blank line (by a space where a sentence goes on over the page break),
and the lines a paragraph was wrapped at are joined (:func:`join_wrapped_lines`);
``page_offsets`` in the document's meta lists where each page starts in the extracted text. A PDF whose pages carry no text layer (a scan) is
refused with :class:`~sverka.core.errors.EmptyDocument` naming the cause; when only some
pages lack text, the text is kept and a warning lists those pages.

Hidden text is left out and reported (with PDFium): text drawn invisible (render mode 3),
text under 1 pt, and white text. Two cases keep it: invisible text on a page that also
shows an image of at least a quarter of the page is the text layer of a scan (what OCR
writes, and what the reader sees in the picture), and white text on a coloured filled area
or an image (its bounds meeting the text's; anywhere on the page when that area lies inside a
form, whose space is not the page's) stands on a dark background. Forms are walked 16 deep,
at most 20 000 objects a page (a warning names the pages past that). Text wholly off the page
is not read. The pdfminer fallback does not look for hidden text.
"""

from __future__ import annotations

import itertools
import re
from pathlib import Path

from ..messages import Message, message
from ..errors import CorruptFile, EmptyDocument, EncryptedFile, ExtractError
from .hidden import hidden_text_warnings
from .safety import MAX_TEXT_CHARS, check_text_size

PAGE_SEPARATOR = "\n\n"
_CYRILLIC_WORD = re.compile("[\u0400-\u045f]+")
_LATIN_WORD = re.compile("[a-z]+")
SCANNED_REASON = "the PDF has no text layer; it looks like a scanned image (run OCR on it first)"


def extract_pdf(path: Path) -> tuple[str, str, list[str], list[tuple[str, str]]]:
    """Return (text, title, warnings, meta); a text layer that does not look like text is
    warned (:func:`text_layer_warning`)."""
    text, title, warnings, meta = _extract_pdf(path)
    warning = text_layer_warning(text)
    return text, title, warnings + ([warning] if warning else []), meta


#: A text layer is "not text" when at least this share of its visible characters are
#: private-use, unassigned, control or replacement characters ...
NOT_TEXT_CHAR_SHARE = 0.10
#: ... or when fewer than this share of its words (of 3+ letters, Cyrillic or Latin, at
#: least NOT_TEXT_MIN_WORDS of them) are in the Russian, Ukrainian or English dictionary.
NOT_TEXT_KNOWN_SHARE = 0.30
NOT_TEXT_MIN_WORDS = 30
_SAMPLE_CHUNKS, _SAMPLE_CHARS = 40, 4000


def text_layer_warning(text: str) -> Message | None:
    """The warning for a PDF whose text layer does not look like text (a font whose Unicode
    map lies, or maps glyphs to private-use or control characters), with the share, or None.

    Judged on up to 40 pieces of 4 000 characters spread over the text: the share of
    private-use/unassigned/control/U+FFFD characters among the visible ones, and the share
    of words a dictionary knows (Cyrillic words: Russian or Ukrainian, pymorphy3; Latin
    words: English, simplemma). Words of other scripts are not judged."""
    import unicodedata

    if len(text) <= _SAMPLE_CHUNKS * _SAMPLE_CHARS:
        pieces = [text]
    else:
        step = len(text) // _SAMPLE_CHUNKS
        pieces = [text[k * step:k * step + _SAMPLE_CHARS] for k in range(_SAMPLE_CHUNKS)]
    visible = bad = 0
    for piece in pieces:
        for ch in piece:
            if ch.isspace():
                continue
            visible += 1
            if ch == "\ufffd" or unicodedata.category(ch) in ("Co", "Cn", "Cc", "Cs"):
                bad += 1
    if visible and bad / visible >= NOT_TEXT_CHAR_SHARE:
        return message("warning.text_layer_chars", percent=round(100 * bad / visible))
    from .. import morph

    words: dict[str, None] = {}
    for piece in pieces:
        for w in re.findall(r"[^\W\d_]{3,}", piece.lower()):
            words.setdefault(w, None)
    judged = known = 0
    for w in itertools.islice(words, 400):
        if _CYRILLIC_WORD.fullmatch(w):
            judged += 1
            known += morph.is_known(w, "ru") or morph.is_known(w, "uk")
        elif _LATIN_WORD.fullmatch(w):
            judged += 1
            known += morph.is_known(w, "en")
    if judged >= NOT_TEXT_MIN_WORDS and known / judged < NOT_TEXT_KNOWN_SHARE:
        return message("warning.text_layer_words", percent=round(100 * known / judged))
    return None


def _extract_pdf(path: Path) -> tuple[str, str, list[str], list[tuple[str, str]]]:
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
    hidden: dict[str, int] = {}
    unchecked: list[int] = []  # pages whose hidden-text walk stopped at its budget
    for i in range(len(pdf)):
        page = pdf[i]
        try:
            textpage = page.get_textpage()
            try:
                suspects = _hidden_objects(page)
                if suspects.pop(_UNCHECKED, None):
                    unchecked.append(i + 1)
                text = _visible_text(textpage, suspects, hidden, page.get_size()) if suspects else None
                if text is None:
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
    text, title, warnings, meta = _assemble(path, pages, title, [])
    if unchecked:  # hidden text past the budget would be read as visible: the teacher is told
        shown = ", ".join(map(str, unchecked[:20])) + (", ..." if len(unchecked) > 20 else "")
        warnings.append(message("warning.pdf_hidden_unchecked", n=len(unchecked), limit=MAX_OBJECTS_LOOKED_AT,
                                shown=shown))
    return text, title, warnings + hidden_text_warnings(hidden, text), meta


#: Page objects looked at per page for hidden text (forms inside forms included).
MAX_OBJECTS_LOOKED_AT = 20_000
#: Forms inside forms the walk goes into (each counts against the object budget, so a form
#: drawing itself, or 30 forms each drawing the next twice, cost no more than it).
MAX_FORM_DEPTH = 16
#: Key of :func:`_hidden_objects`' answer when a page held more objects than it looked at.
_UNCHECKED = -1


def _hidden_objects(page) -> dict[int, str]:
    """{text object handle: how it is hidden} for a page's hidden text objects ({} if none), and
    ``_UNCHECKED`` when the page held more objects than :data:`MAX_OBJECTS_LOOKED_AT` (or forms
    nested deeper than :data:`MAX_FORM_DEPTH`).

    Invisible text (render mode 3) is hidden unless an image of at least a quarter of the page
    lies under it (the text layer of a scanned page); white text unless a coloured shape or an
    image lies under it (a 0.1 pt coloured dot elsewhere on the page does not show it)."""
    import ctypes

    import pypdfium2.raw as r

    texts: list = []
    covers: list[tuple[float, float, float, float]] = []  # coloured shapes and images: white text on them shows
    width, height = page.get_size()
    large_image = [False]
    # a coloured shape or image inside a form: its bounds are in the form's space, so white text
    # anywhere on the page may lie on it (read as visible, as before shapes were placed)
    anywhere = [False]
    budget = [MAX_OBJECTS_LOOKED_AT]

    def bounds(obj) -> tuple[float, float, float, float] | None:
        box = [ctypes.c_float(0) for _ in range(4)]
        if not r.FPDFPageObj_GetBounds(obj, *(ctypes.byref(x) for x in box)):
            return None
        return tuple(x.value for x in box)  # left, bottom, right, top

    def walk(count: int, get, depth: int) -> None:
        for k in range(count):
            if budget[0] <= 0:
                budget.append(k)  # objects left unlooked at
                return
            budget[0] -= 1
            obj = get(k)
            kind = r.FPDFPageObj_GetType(obj)
            if kind == r.FPDF_PAGEOBJ_TEXT:
                texts.append((obj, depth))
            elif kind in (r.FPDF_PAGEOBJ_IMAGE, r.FPDF_PAGEOBJ_SHADING):
                box = bounds(obj)
                if box is None or depth:  # where it lies is not known in the page's space
                    anywhere[0] = large_image[0] = True
                else:
                    covers.append(box)
                    if (box[2] - box[0]) * (box[3] - box[1]) >= 0.25 * width * height:
                        large_image[0] = True
            elif kind == r.FPDF_PAGEOBJ_PATH:
                fill, stroke = ctypes.c_int(0), ctypes.c_int(0)
                if r.FPDFPath_GetDrawMode(obj, ctypes.byref(fill), ctypes.byref(stroke)) and fill.value:
                    if not _white(obj):
                        box = bounds(obj)
                        if box is None or depth:
                            anywhere[0] = True
                        else:
                            covers.append(box)
            elif kind == r.FPDF_PAGEOBJ_FORM:
                if depth >= MAX_FORM_DEPTH:
                    budget.append(-1)  # a form deeper than the walk goes
                    continue
                walk(r.FPDFFormObj_CountObjects(obj), lambda j, o=obj: r.FPDFFormObj_GetObject(o, j), depth + 1)

    def covered(obj, depth: int) -> bool:
        if anywhere[0] or (depth and covers):
            return True  # no place to judge in the page's space: read as visible
        box = bounds(obj)
        if box is None:
            return True
        return any(c[0] < box[2] and box[0] < c[2] and c[1] < box[3] and box[1] < c[3] for c in covers)

    walk(r.FPDFPage_CountObjects(page.raw), lambda j: r.FPDFPage_GetObject(page.raw, j), 0)
    out: dict[int, str] = {_UNCHECKED: "unchecked"} if len(budget) > 1 else {}
    for obj, depth in texts:
        reason = ""
        mode = r.FPDFTextObj_GetTextRenderMode(obj)
        if mode in (3, 7) or _transparent(obj, mode):  # invisible; clipping only; fully transparent
            reason = "" if large_image[0] else "invisible text"
        elif _size(obj) < 1.0:
            reason = "text of 1 pt or less"
        elif _drawn_white(obj, mode) and not covered(obj, depth):
            reason = "white text"
        if reason:
            out[ctypes.cast(obj, ctypes.c_void_p).value] = reason
    return out


def _transparent(obj, mode: int) -> bool:
    """Drawn with a fill (and outline) of alpha 0: nothing shows."""
    import ctypes

    import pypdfium2.raw as r

    def alpha(get) -> int | None:
        c = [ctypes.c_uint(0) for _ in range(4)]
        return c[3].value if get(obj, *(ctypes.byref(x) for x in c)) else None

    fill = alpha(r.FPDFPageObj_GetFillColor)
    if mode in (0, 4):
        return fill == 0
    stroke = alpha(r.FPDFPageObj_GetStrokeColor)
    return stroke == 0 and (mode in (1, 5) or fill == 0)


def _drawn_white(obj, mode: int) -> bool:
    """White as drawn: by its fill (render modes 0 and 4), its outline (1 and 5), or both (2 and
    6): black outlines around white letters are visible text."""
    if mode in (1, 5):
        return _white(obj, stroke=True)
    if mode in (2, 6):
        return _white(obj) and _white(obj, stroke=True)
    return _white(obj)


def _white(obj, stroke: bool = False) -> bool:
    import ctypes

    import pypdfium2.raw as r

    c = [ctypes.c_uint(0) for _ in range(4)]
    get = r.FPDFPageObj_GetStrokeColor if stroke else r.FPDFPageObj_GetFillColor
    if not get(obj, *(ctypes.byref(x) for x in c)):
        return False
    red, green, blue, alpha = (x.value for x in c)
    return alpha > 0 and min(red, green, blue) >= 245  # (0.96 gray and lighter: no reader sees it on white)


def _size(obj) -> float:
    """The size text of this object has on the page, in points."""
    import ctypes
    import math

    import pypdfium2.raw as r

    size = ctypes.c_float(0)
    if not r.FPDFTextObj_GetFontSize(obj, ctypes.byref(size)):
        return 99.0
    m = r.FS_MATRIX()
    scale = 1.0
    if r.FPDFPageObj_GetMatrix(obj, ctypes.byref(m)):
        # the smaller of the two axes: letters squeezed to a hundredth of their height are as
        # unreadable as small ones, however wide
        scale = min(math.hypot(m.a, m.b), math.hypot(m.c, m.d))
    return abs(size.value) * scale


def _visible_text(textpage, suspects: dict[int, str], hidden: dict[str, int], size: tuple[float, float]) -> str | None:
    """The page's text without the characters of ``suspects`` (their words counted in ``hidden``)
    and without text objects lying wholly off the page of ``size`` (as the page's text read the
    usual way, ``get_text_bounded``, leaves them out). None when the characters cannot be
    matched to the text (the caller reads it as usual)."""
    import ctypes
    import re

    import pypdfium2.raw as r

    text = textpage.get_text_range()
    n = r.FPDFText_CountChars(textpage.raw)
    if len(text) != n:
        return None
    width, height = size
    kept: list[str] = []
    gone: dict[str, list[str]] = {}
    last_obj, last_reason = None, ""
    box = [ctypes.c_float(0) for _ in range(4)]
    for i, ch in enumerate(text):
        obj = r.FPDFText_GetTextObject(textpage.raw, i)
        key = ctypes.cast(obj, ctypes.c_void_p).value if obj else None
        if key != last_obj:
            last_obj, last_reason = key, suspects.get(key, "") if key else ""
            if not last_reason and obj and r.FPDFPageObj_GetBounds(obj, *(ctypes.byref(x) for x in box)):
                left, bottom, right, top = (x.value for x in box)
                if right < 0 or top < 0 or left > width or bottom > height:
                    last_reason = "off the page"
        if last_reason == "off the page":
            continue
        if last_reason:
            gone.setdefault(last_reason, []).append(ch)
        else:
            kept.append(ch)
    for reason, chars in gone.items():
        hidden[reason] = hidden.get(reason, 0) + len(re.findall(r"\w+", "".join(chars)))
    return "".join(kept)


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
    return _assemble(path, pages, "", [message("warning.pdf_fallback", why=why.removeprefix("PDFium could not open it (").removesuffix(")"))])


def _clean(text: str) -> str:
    return text.replace("\r\n", "\n").replace("\r", "\n").replace("\x00", "").strip("\n")


def _assemble(path: Path, pages: list[str], title: str, warnings: list[str]):
    empty = [i + 1 for i, p in enumerate(pages) if not p.strip()]
    if len(empty) == len(pages):
        raise EmptyDocument(path, SCANNED_REASON if pages else "the PDF has no pages")
    if empty:
        shown = ", ".join(map(str, empty[:20])) + (", ..." if len(empty) > 20 else "")
        warnings.append(message("warning.pages_without_text", empty=len(empty), pages=len(pages), shown=shown))
    pages = [join_wrapped_lines(p) for p in pages]
    offsets = []
    pos = 0
    parts = []
    for k, p in enumerate(pages):
        if k:  # a sentence going on over the page break goes on after a space, not a blank line
            sep = " " if _continues(pages[k - 1], p) else PAGE_SEPARATOR
            parts.append(sep)
            pos += len(sep)
        offsets.append(pos)
        parts.append(p)
        pos += len(p)
    meta = [("pages", str(len(pages))), ("page_offsets", " ".join(map(str, offsets)))]
    return "".join(parts), title, warnings, meta


#: A line at least this share of the page's longest line is full: a line break after it that
#: does not end a sentence is the PDF's wrapping, not the end of a paragraph.
FULL_LINE = 0.6
_SENTENCE_END = tuple(".!?…:;")
_CLOSING = "\"'»”’)] \t"


def _continues(line: str, nxt: str, longest: int | None = None) -> bool:
    """Does ``nxt`` (a line, or a page: its first line) go on with the sentence of ``line``
    (a line, or a page: its last line)?"""
    last = line.rsplit("\n", 1)[-1].rstrip(_CLOSING) if line else ""
    first = nxt.split("\n", 1)[0].lstrip() if nxt else ""
    if not last.strip() or not first:
        return False
    if first[:1].islower():
        return True
    if last.endswith(_SENTENCE_END):
        return False
    if longest is None:
        longest = max(map(len, line.split("\n")))
    return longest >= 40 and len(last) >= FULL_LINE * longest


def join_wrapped_lines(page: str) -> str:
    """A page's text with the line breaks the PDF wrapped its paragraphs at made spaces: the
    side-by-side view shows paragraphs, not the printed lines. A break stays where a line ends a
    sentence and the next does not go on in small letters, and after a short line (a heading,
    a paragraph's last line); a word hyphenated at the end of a line is joined whole."""
    lines = page.split("\n")
    if len(lines) < 2:
        return page
    longest = max(len(x.rstrip()) for x in lines)
    out = [lines[0]]
    for line in lines[1:]:
        prev = out[-1]
        if _continues(prev.rstrip(), line, longest):
            head = prev.rstrip()
            if len(head) >= 2 and head[-1] in "-\u00ad\x02" and head[-2].isalpha() and line.lstrip()[:1].islower():
                out[-1] = head[:-1] + line.lstrip()  # a word hyphenated across the lines
            else:
                out[-1] = head + " " + line.lstrip()
        else:
            out.append(line)
    return "\n".join(out)
