"""PDF through pypdfium2, with pdfminer.six as the fallback when PDFium cannot open the file.

Pages are joined by a blank line (by a space where a sentence goes on over the page break),
and the lines a paragraph was wrapped at are joined (:func:`join_wrapped_lines`);
``page_offsets`` in the document's meta lists where each page starts in the extracted text. A PDF whose pages carry no text layer (a scan) is
refused with :class:`~sverka.core.errors.EmptyDocument` naming the cause; when only some
pages lack text, the text is kept and a warning lists those pages.

Hidden text is left out and reported (with PDFium): text drawn invisible (render mode 3),
text under 2 pt on the page (its font size times the whole matrix PDFium draws it with: text
matrix, transformation, and the matrices of the forms it lies in), and white text. Two cases keep it: invisible text on a page that also
shows an image of at least a quarter of the page is the text layer of a scan (what OCR
writes, and what the reader sees in the picture), and white text on a coloured filled area
or an image (its bounds meeting the text's; anywhere on the page when that area lies inside a
form, whose space is not the page's) stands on a dark background. Forms are walked 16 deep,
at most 20 000 objects a page (a warning names the pages past that). Text wholly off the page
is not read. Letters drawn twice at almost the same place (fake bold) are read once. The
values of filled form fields (text fields and choices) are read after their page's text. The
pdfminer fallback does not look for hidden text.
"""

from __future__ import annotations

import itertools
import re
import sys
from pathlib import Path

from ..messages import Message, message
from ..errors import CorruptFile, EmptyDocument, EncryptedFile, ExtractError, TooLarge
from ..limits import read_limits
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
    recovered = recover_cyrillic(text)
    if recovered is not None:
        text = recovered
        warnings = warnings + [message("warning.pdf_cyrillic_recovered")]
    warning = text_layer_warning(text)
    return text, title, warnings + ([warning] if warning else []), meta


#: Letters of Windows-1252 that stand for Cyrillic ones when Windows-1251 codes are read as
#: 1252 (А-я at À-ÿ, Ё and ё at ¨ and ¸): a font whose Unicode map is missing or wrong.
_MOJIBAKE_WORD = re.compile("[\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u00ff\u00a8\u00b8]{3,}")
_MOJIBAKE_CHARS = re.compile("[\u00c0-\u00ff\u00a8\u00b8]")
_ANY_WORD3 = re.compile(r"[^\W\d_]{3,}")


def recover_cyrillic(text: str) -> str | None:
    """The text with Windows-1251 letters read as Windows-1252 ("Êîìïàíèÿ") turned back into
    Cyrillic ("Компания"), when most of its words are such and read back as Russian or Ukrainian
    words; else None. One character becomes one character: offsets stay valid."""
    words = _ANY_WORD3.findall(text[:400_000])
    odd = [w for w in words if _MOJIBAKE_WORD.fullmatch(w)]
    if len(odd) < 20 or len(odd) < 0.5 * len(words):
        return None
    from .. import morph

    sample = list(dict.fromkeys(w.lower() for w in odd))[:200]
    back = [w.encode("cp1252").decode("cp1251") for w in sample]
    known = sum(morph.is_known(w, "ru") or morph.is_known(w, "uk") for w in back)
    if known < 0.5 * len(back):
        return None
    return _MOJIBAKE_CHARS.sub(lambda m: m.group().encode("cp1252").decode("cp1251"), text)


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
        elif _MOJIBAKE_WORD.fullmatch(w):  # letters of À-ÿ only: a Cyrillic text read in the wrong code page
            judged += 1
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
    # text objects drawn, characters PDFium mapped to Unicode, Chinese/Japanese/Korean set vertically
    stats = {"texts": 0, "chars": 0, "vertical": False}
    try:
        pdf.init_forms()  # before any page is loaded: filled form fields are read from it
        form = pdf.formenv.raw if pdf.formenv is not None else None
    except Exception:  # a damaged form costs its fields, not the text
        form = None
    for i in range(len(pdf)):
        page = pdf[i]
        try:
            textpage = page.get_textpage()
            try:
                placed: dict[int, tuple] = {}
                suspects = _hidden_objects(page, placed, stats)
                count = textpage.count_chars()
                stats["chars"] += count
                every = textpage.get_text_range()  # one character per index (a generated break too)
                if len(every) != count:
                    every = None
                if every is not None and not stats["vertical"]:
                    stats["vertical"] = _vertical_cjk(textpage, every)
                doubled = _fake_bold(textpage, every) if every is not None else set()
                if suspects.pop(_UNCHECKED, None):
                    unchecked.append(i + 1)
                text = None
                # (text inside forms alone needs no walk: the usual reading places characters on the
                # page through every matrix)
                if every is not None and (suspects or stats["page_rotated"] or doubled):
                    text = _visible_text(textpage, suspects, hidden, page.get_size(), placed,
                                         join_turned=stats["page_rotated"], every=every, doubled=doubled)
                if text is None:
                    text = textpage.get_text_bounded()
            finally:
                textpage.close()
            fields = _field_values(page, form)
        finally:
            page.close()
        fields = [v for v in fields if v not in text]  # a field flattened into the page is read once
        if fields:
            text = text.rstrip("\r\n") + "\n" + "\n".join(fields)
        pages.append(_clean(text))
        total += len(text)
        if total > MAX_TEXT_CHARS:
            check_text_size(path, "".join(pages))
    try:
        title = (pdf.get_metadata_value("Title") or "").strip()
    except Exception:  # damaged metadata must not cost the text; the title falls back to the file name
        title = ""
    # (not where PDFium found hidden text: pdfminer, which does not look for it, would read it)
    if not hidden and not unchecked and _letters_lost(stats, pages):
        other = _pdfminer_if_more(path, pages)
        if other is not None:
            return other
    text, title, warnings, meta = _assemble(path, pages, title, [])
    if unchecked:  # hidden text past the budget would be read as visible: the teacher is told
        shown = ", ".join(map(str, unchecked[:20])) + (", ..." if len(unchecked) > 20 else "")
        warnings.append(message("warning.pdf_hidden_unchecked", n=len(unchecked), limit=MAX_OBJECTS_LOOKED_AT,
                                shown=shown))
    return text, title, warnings + hidden_text_warnings(hidden, text), meta


_CJK = re.compile("[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af\uf900-\ufaff]")
_CJK_PAIR = re.compile("[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af\uf900-\ufaff]"
                       "(?=[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af\uf900-\ufaff])")
_SCORED_WORD = re.compile("[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af\uf900-\ufaff]|"
                          "[^\\W\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af\uf900-\ufaff]+")


def _letters_lost(stats: dict, pages: list[str]) -> bool:
    """Did PDFium drop letters? Many text objects drawn but far fewer characters read (fonts
    without a Unicode map, CID fonts PDFium has no table for), or Chinese, Japanese or Korean
    text set vertically, which PDFium reads in part."""
    if stats["texts"] >= 50 and stats["chars"] < stats["texts"] // 2:
        return True
    return bool(stats.get("vertical"))


def _vertical_cjk(textpage, text: str) -> bool:
    """Are most of the page's Chinese, Japanese or Korean letters set in columns (each below the
    one before it)? Looked at on at most 200 pairs of such letters."""
    import ctypes

    import pypdfium2.raw as r

    if not _CJK.search(text):
        return False
    x0, y0, x1, y1 = (ctypes.c_double(0) for _ in range(4))
    down = pairs = 0
    for m in _CJK_PAIR.finditer(text):
        i = m.start()
        if not (r.FPDFText_GetCharOrigin(textpage.raw, i, ctypes.byref(x0), ctypes.byref(y0))
                and r.FPDFText_GetCharOrigin(textpage.raw, i + 1, ctypes.byref(x1), ctypes.byref(y1))):
            continue
        pairs += 1
        down += abs(y1.value - y0.value) > abs(x1.value - x0.value)
        if pairs >= 200:
            break
    return pairs >= 5 and down > pairs / 2


def _pdfminer_if_more(path: Path, pages: list[str]):
    """pdfminer's reading of the file (its CMaps map the CID fonts of Chinese, Japanese and
    Korean PDFs) when it finds at least half as many words again as PDFium did, else None.
    Such text is often set in columns: pdfminer joins letters into vertical lines too (a
    column is read as one line, not a letter a line, in about half the layout work)."""
    found = sum(len(_SCORED_WORD.findall(p)) for p in pages)
    try:
        text, title, _, meta = _extract_with_pdfminer(path, "", vertical=True)
    except ExtractError:
        return None
    words = len(_SCORED_WORD.findall(text))
    if words < 1.5 * found + 10:
        return None
    return text, title, [message("warning.pdf_letters_fallback", words=words, pdfium=found)], meta


#: Page objects looked at per page for hidden text (forms inside forms included).
MAX_OBJECTS_LOOKED_AT = 20_000
#: Forms inside forms the walk goes into (each counts against the object budget, so a form
#: drawing itself, or 30 forms each drawing the next twice, cost no more than it).
MAX_FORM_DEPTH = 16
#: Key of :func:`_hidden_objects`' answer when a page held more objects than it looked at.
_UNCHECKED = -1


def _hidden_objects(page, placed: dict[int, tuple] | None = None, stats: dict[str, int] | None = None) -> dict[int, str]:
    """{text object handle: how it is hidden} for a page's hidden text objects ({} if none), and
    ``_UNCHECKED`` when the page held more objects than :data:`MAX_OBJECTS_LOOKED_AT` (or forms
    nested deeper than :data:`MAX_FORM_DEPTH`).

    Invisible text (render mode 3) is hidden unless an image of at least a quarter of the page
    lies under it (the text layer of a scanned page); white text unless a coloured shape or an
    image lies under it (a 0.1 pt coloured dot elsewhere on the page does not show it).

    ``placed`` receives, for each text object inside a form, the matrix from the form's space to
    the page's (the forms' matrices multiplied, outermost last): sizes and places are judged on
    the page, as PDFium draws them."""
    import ctypes

    import pypdfium2.raw as r

    if placed is None:
        placed = {}
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

    def walk(count: int, get, depth: int, outer: tuple | None) -> None:
        for k in range(count):
            if budget[0] <= 0:
                budget.append(k)  # objects left unlooked at
                return
            budget[0] -= 1
            obj = get(k)
            kind = r.FPDFPageObj_GetType(obj)
            if kind == r.FPDF_PAGEOBJ_TEXT:
                texts.append((obj, depth, outer))
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
                walk(r.FPDFFormObj_CountObjects(obj), lambda j, o=obj: r.FPDFFormObj_GetObject(o, j), depth + 1,
                     _times(_matrix(obj), outer))

    def covered(obj, depth: int) -> bool:
        if anywhere[0] or (depth and covers):
            return True  # no place to judge in the page's space: read as visible
        box = bounds(obj)
        if box is None:
            return True
        return any(c[0] < box[2] and box[0] < c[2] and c[1] < box[3] and box[1] < c[3] for c in covers)

    walk(r.FPDFPage_CountObjects(page.raw), lambda j: r.FPDFPage_GetObject(page.raw, j), 0, None)
    if stats is not None:
        stats["texts"] += len(texts)
    out: dict[int, str] = {_UNCHECKED: "unchecked"} if len(budget) > 1 else {}
    if stats is not None:
        stats["page_rotated"] = False
    for obj, depth, outer in texts:
        reason = ""
        mode = r.FPDFTextObj_GetTextRenderMode(obj)
        if outer is not None:
            placed[ctypes.c_void_p.from_buffer(obj).value] = outer
        m = _times(_matrix(obj), outer)
        if stats is not None and not stats["page_rotated"]:
            # turned by more than ~3 degrees: PDFium breaks such text into pieces of lines
            stats["page_rotated"] = m is not None and abs(m[1]) + abs(m[2]) > 0.05 * (abs(m[0]) + abs(m[3]) + 1e-9)
        if mode in (3, 7) or _transparent(obj, mode):  # invisible; clipping only; fully transparent
            reason = "" if large_image[0] else "invisible text"
        elif (size := _size(obj, matrix=m)) < MIN_READABLE_PT:
            reason = "text of 1 pt or less" if size <= 1.0 else "text under 2 pt"
        elif _drawn_white(obj, mode) and not covered(obj, depth):
            reason = "white text"
        if reason:
            out[ctypes.c_void_p.from_buffer(obj).value] = reason
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


#: Text drawn smaller than this on the page (font size times the whole matrix: text matrix,
#: current transformation, and the matrices of the forms it is drawn in) is not read: nobody
#: reads letters under 2 pt (0.7 mm) on paper or on a screen at 100 %.
MIN_READABLE_PT = 2.0


def _matrix(obj) -> tuple | None:
    """(a, b, c, d, e, f) of a page object (of a form: the form's matrix on its parent's space)."""
    import ctypes

    import pypdfium2.raw as r

    m = r.FS_MATRIX()
    if not r.FPDFPageObj_GetMatrix(obj, ctypes.byref(m)):
        return None
    return (m.a, m.b, m.c, m.d, m.e, m.f)


def _times(m: tuple | None, n: tuple | None) -> tuple | None:
    """The matrix ``m`` followed by ``n`` (PDF's row-vector order: a point goes through m, then n)."""
    if m is None:
        return n
    if n is None:
        return m
    a, b, c, d, e, f = m
    A, B, C, D, E, F = n
    return (a * A + b * C, a * B + b * D, c * A + d * C, c * B + d * D, e * A + f * C + E, e * B + f * D + F)


def _size(obj, outer: tuple | None = None, matrix: tuple | None = None) -> float:
    """The size text of this object has on the page, in points (``outer``: the matrix of the
    forms it lies in; ``matrix``: its whole matrix, when known already)."""
    import ctypes
    import math

    import pypdfium2.raw as r

    size = ctypes.c_float(0)
    if not r.FPDFTextObj_GetFontSize(obj, ctypes.byref(size)):
        return 99.0
    m = matrix if matrix is not None else _times(_matrix(obj), outer)
    scale = 1.0
    if m is not None:
        # the smaller of the two axes: letters squeezed to a hundredth of their height are as
        # unreadable as small ones, however wide
        scale = min(math.hypot(m[0], m[1]), math.hypot(m[2], m[3]))
    return abs(size.value) * scale


def _visible_text(textpage, suspects: dict[int, str], hidden: dict[str, int], size: tuple[float, float],
                  placed: dict[int, tuple] | None = None, join_turned: bool = False, every: str | None = None,
                  doubled: set[int] | None = None) -> str | None:
    """The page's text without the characters of ``suspects`` (their words counted in ``hidden``),
    without text objects lying wholly off the page of ``size`` (as the page's text read the
    usual way, ``get_text_bounded``, leaves them out; an object inside a form is placed on the
    page by its forms' matrix in ``placed``), and without the second copy of letters drawn twice
    at almost the same place (fake bold, :func:`_fake_bold`). With ``join_turned``, the line
    breaks PDFium puts between letters of turned text that follow each other along their own
    direction are taken out (:func:`_turned_breaks`). None when the characters cannot be
    matched to the text (the caller reads it as usual)."""
    import ctypes
    import re

    import pypdfium2.raw as r

    text = every if every is not None else textpage.get_text_range()
    n = r.FPDFText_CountChars(textpage.raw)
    if len(text) != n:
        return None
    placed = placed or {}
    if doubled is None:
        doubled = _fake_bold(textpage, text)
    replaced = _turned_breaks(textpage, text) if join_turned else {}
    width, height = size
    kept: list[str] = []
    gone: dict[str, list[str]] = {}
    last_obj, last_reason = None, ""
    box = [ctypes.c_float(0) for _ in range(4)]
    for i, ch in enumerate(text):
        obj = r.FPDFText_GetTextObject(textpage.raw, i)
        key = ctypes.c_void_p.from_buffer(obj).value if obj else None  # (cast() costs 5 times as much)
        if key != last_obj:
            last_obj, last_reason = key, suspects.get(key, "") if key else ""
            if not last_reason and obj and r.FPDFPageObj_GetBounds(obj, *(ctypes.byref(x) for x in box)):
                left, bottom, right, top = _on_page(tuple(x.value for x in box), placed.get(key))
                if right < 0 or top < 0 or left > width or bottom > height:
                    last_reason = "off the page"
        if last_reason == "off the page" or i in doubled:
            continue
        if i in replaced:
            ch = replaced[i]
            if not ch:
                continue
        if last_reason:
            gone.setdefault(last_reason, []).append(ch)
        else:
            kept.append(ch)
    for reason, chars in gone.items():
        hidden[reason] = hidden.get(reason, 0) + len(re.findall(r"\w+", "".join(chars)))
    return "".join(kept)


def _on_page(box: tuple, outer: tuple | None) -> tuple:
    """A (left, bottom, right, top) box of a form's space placed on the page by ``outer``."""
    if outer is None:
        return box
    a, b, c, d, e, f = outer
    xs, ys = [], []
    for x in (box[0], box[2]):
        for y in (box[1], box[3]):
            xs.append(a * x + c * y + e)
            ys.append(b * x + d * y + f)
    return min(xs), min(ys), max(xs), max(ys)


def _turned_breaks(textpage, text: str) -> dict[int, str]:
    """{index: what stands there instead} for the line breaks PDFium generates inside turned
    text (a label along a river, a dimension written upwards: "S\\naint-S\\na\\nu"): a run of
    generated breaks between two letters is taken out when the second letter follows the first
    along the first one's direction (its angle), less than a letter's height after it and not
    beside it (their loose boxes, whose neighbouring letters touch, projected on that direction),
    and made one space when the gap is more than 0.12 of the height (a word space is ~0.2)."""
    import ctypes
    import math

    import pypdfium2.raw as r

    out: dict[int, str] = {}
    raw = textpage.raw
    rect = r.FS_RECTF()
    x0, y0, x1, y1 = (ctypes.c_double(0) for _ in range(4))

    def box(i: int):
        if not r.FPDFText_GetLooseCharBox(raw, i, ctypes.byref(rect)):
            return None
        return (rect.left, rect.bottom, rect.right, rect.top)

    for m in _GENERATED_BREAK.finditer(text):
        i, j = m.start() - 1, m.end()
        if i < 0 or j >= len(text) or not all(r.FPDFText_IsGenerated(raw, k) == 1 for k in range(m.start(), m.end())):
            continue
        angle = r.FPDFText_GetCharAngle(raw, i)
        if angle < 0 or abs(math.sin(angle)) < 0.05:
            continue  # not turned: PDFium's own lines stand
        a, b = box(i), box(j)
        if a is None or b is None:
            continue
        dx, dy = math.cos(angle), -math.sin(angle)  # (PDFium measures the angle clockwise)
        c, s = abs(dx), abs(dy)
        if abs(c * c - s * s) > 0.3 and r.FPDFText_GetCharOrigin(raw, i, ctypes.byref(x0), ctypes.byref(y0)) \
                and r.FPDFText_GetCharOrigin(raw, j, ctypes.byref(x1), ctypes.byref(y1)):
            # the letter's own advance and height, from its upright box turned into the page's
            # (W = w|cos| + h|sin|, H = w|sin| + h|cos|); the gap from its origin to the next one's
            width_box, height_box = a[2] - a[0], a[3] - a[1]
            advance = (width_box * c - height_box * s) / (c * c - s * s)
            height = (height_box * c - width_box * s) / (c * c - s * s)
            vx, vy = x1.value - x0.value, y1.value - y0.value
            gap = vx * dx + vy * dy - advance
            shift = abs(-vx * dy + vy * dx)
        else:  # near 45 degrees: the boxes themselves, projected (a word space may be missed)
            along_a = [px * dx + py * dy for px in (a[0], a[2]) for py in (a[1], a[3])]
            along_b = [px * dx + py * dy for px in (b[0], b[2]) for py in (b[1], b[3])]
            across_a = [-px * dy + py * dx for px in (a[0], a[2]) for py in (a[1], a[3])]
            across_b = [-px * dy + py * dx for px in (b[0], b[2]) for py in (b[1], b[3])]
            height = max(across_a) - min(across_a)
            gap = min(along_b) - max(along_a)
            shift = abs((max(across_b) + min(across_b)) - (max(across_a) + min(across_a))) / 2
        if height <= 0 or shift > 0.5 * height or gap < -0.5 * height or gap > height:
            continue
        for k in range(m.start(), m.end()):
            out[k] = ""
        if gap > 0.12 * height:
            out[m.start()] = " "
    return out


_GENERATED_BREAK = re.compile(r"[\r\n ]+")


#: Two equal letters one after the other whose origins are closer than this share of the
#: letter's height are one letter drawn twice (fake bold: the same glyphs drawn again a
#: fraction of a point to the side); real doubled letters ("ll", "нн") stand a letter's
#: width apart, at least ~0.2 of the height.
FAKE_BOLD_SHARE = 0.12
#: Fake bold doubles every letter: only runs of two doubled letters or more ("mmuu", "ddee")
#: are measured (real words have them seldom: "bookkeeper"), not each "ss" of a page.
_DOUBLED_RUN = re.compile(r"(?:(\S)\1){2,}")


def _fake_bold(textpage, text: str | None = None) -> set[int]:
    """Indices of the page's characters that repeat the letter before them drawn at (almost) the
    same place: the second stroke of fake-bold text (empty: none)."""
    import ctypes

    import pypdfium2.raw as r

    if text is None:
        text = textpage.get_text_range()
        if len(text) != r.FPDFText_CountChars(textpage.raw):
            return set()
    out: set[int] = set()
    x0, y0, x1, y1 = (ctypes.c_double(0) for _ in range(4))
    rect = r.FS_RECTF()
    for run in _DOUBLED_RUN.finditer(text):
        for i in range(run.start(), run.end(), 2):
            if not (r.FPDFText_GetCharOrigin(textpage.raw, i, ctypes.byref(x0), ctypes.byref(y0))
                    and r.FPDFText_GetCharOrigin(textpage.raw, i + 1, ctypes.byref(x1), ctypes.byref(y1))):
                continue
            dx, dy = abs(x1.value - x0.value), abs(y1.value - y0.value)
            if dx + dy > 3.0:
                continue  # a letter's width apart, for any text of more than ~8 pt: real doubled letters
            if not r.FPDFText_GetLooseCharBox(textpage.raw, i, ctypes.byref(rect)):
                continue
            em = max(abs(rect.top - rect.bottom), abs(rect.right - rect.left) * 0.5)
            if em > 0 and dx < FAKE_BOLD_SHARE * em and dy < FAKE_BOLD_SHARE * em:
                out.add(i + 1)
    return out


#: Form fields read per page at most (a page of 100 000 widgets costs no more than this).
MAX_FIELDS_PER_PAGE = 2_000


def _field_values(page, form) -> list[str]:
    """The values of the page's filled text fields and choice fields, as their widgets show them
    (a hidden widget's value is not read). Through PDFium's form API when the file has a form
    (``form``: its handle); a widget of a file without one (its AcroForm gone) is read from its
    own ``/FT`` and ``/V``."""
    import ctypes

    import pypdfium2.raw as r

    def string(annot, key: bytes) -> str:
        size = r.FPDFAnnot_GetStringValue(annot, key, None, 0)
        if size <= 2 or size > 4 * MAX_TEXT_CHARS:
            return ""
        buf = ctypes.create_string_buffer(size)
        r.FPDFAnnot_GetStringValue(annot, key, ctypes.cast(buf, ctypes.POINTER(r.FPDF_WCHAR)), size)
        return buf.raw[:size - 2].decode("utf-16-le", "replace")

    out: list[str] = []
    count = min(r.FPDFPage_GetAnnotCount(page.raw), MAX_FIELDS_PER_PAGE)
    for k in range(count):
        annot = r.FPDFPage_GetAnnot(page.raw, k)
        if not annot:
            continue
        try:
            if r.FPDFAnnot_GetSubtype(annot) != r.FPDF_ANNOT_WIDGET:
                continue
            if r.FPDFAnnot_GetFlags(annot) & (r.FPDF_ANNOT_FLAG_HIDDEN | r.FPDF_ANNOT_FLAG_NOVIEW):
                continue
            if form is not None:
                if r.FPDFAnnot_GetFormFieldType(form, annot) not in (r.FPDF_FORMFIELD_TEXTFIELD,
                                                                     r.FPDF_FORMFIELD_COMBOBOX):
                    continue
                size = r.FPDFAnnot_GetFormFieldValue(form, annot, None, 0)
                if size <= 2 or size > 4 * MAX_TEXT_CHARS:
                    continue
                buf = ctypes.create_string_buffer(size)
                r.FPDFAnnot_GetFormFieldValue(form, annot, ctypes.cast(buf, ctypes.POINTER(r.FPDF_WCHAR)), size)
                value = buf.raw[:size - 2].decode("utf-16-le", "replace")
            elif string(annot, b"FT") in ("Tx", "Ch"):
                value = string(annot, b"V")
            else:
                continue
            value = value.strip()
            if value:
                out.append(value.replace("\r\n", "\n").replace("\r", "\n"))
        finally:
            r.FPDFPage_CloseAnnot(annot)
    return out


#: Seconds the pdfminer fallback may take on one file (at most the reader's per-file limit):
#: pdfminer, pure Python, is slow on a file PDFium could not open, and such a file is
#: usually damaged or crafted.
PDFMINER_SECONDS = 30.0
#: Seconds between the alarms repeated after the fallback's time is up (:func:`_extract_with_pdfminer`).
FALLBACK_ALARM_AGAIN = 0.25


class _FallbackTimeUp(BaseException):
    """The pdfminer fallback ran out of its time (a BaseException: pdfminer's own handlers
    must not take it for a damaged object)."""


def _extract_with_pdfminer(path: Path, why: str, vertical: bool = False) -> tuple[str, str, list[str], list[tuple[str, str]]]:
    import signal
    import threading
    import time

    seconds = min(PDFMINER_SECONDS, read_limits()[1])
    reason = why.removeprefix("PDFium could not open it (").removesuffix(")")
    timer = threading.current_thread() is threading.main_thread() and hasattr(signal, "setitimer")
    previous = None
    hook = sys.unraisablehook
    if timer:
        def time_up(_signum, _frame):
            raise _FallbackTimeUp

        def quiet(unraisable):  # an alarm dropped in a finaliser is asked again: no traceback printed
            if not isinstance(unraisable.exc_value, _FallbackTimeUp):
                hook(unraisable)

        previous = signal.signal(signal.SIGALRM, time_up)
        sys.unraisablehook = quiet
        # and again every quarter second: an alarm that lands in a finaliser (a __del__, a
        # weakref callback, where Python prints an exception and drops it) was lost, and a page
        # of forms drawing forms then ran on for minutes, taking gigabytes
        signal.setitimer(signal.ITIMER_REAL, seconds, FALLBACK_ALARM_AGAIN)
    try:
        try:
            return _pdfminer_pages(path, why, time.monotonic() + seconds, vertical)
        finally:  # before anything else: no second alarm while the first is being answered
            if timer:
                signal.setitimer(signal.ITIMER_REAL, 0)
    except _FallbackTimeUp:
        raise TooLarge(path, code="error.pdf_fallback_time", why=reason, seconds=f"{seconds:g}") from None
    finally:
        if timer:
            signal.signal(signal.SIGALRM, previous)
            sys.unraisablehook = hook


def _pdfminer_pages(path: Path, why: str, deadline: float,
                    vertical: bool = False) -> tuple[str, str, list[str], list[tuple[str, str]]]:
    import time

    from pdfminer.high_level import extract_pages
    from pdfminer.layout import LAParams, LTTextContainer
    from pdfminer.pdfdocument import PDFEncryptionError, PDFPasswordIncorrect
    from pdfminer.pdfparser import PDFSyntaxError
    from pdfminer.psexceptions import PSException

    pages: list[str] = []
    try:
        for layout in extract_pages(str(path), laparams=LAParams(detect_vertical=vertical)):
            pages.append(_clean("".join(el.get_text() for el in layout if isinstance(el, LTTextContainer))))
            if sum(map(len, pages)) > MAX_TEXT_CHARS:
                check_text_size(path, "".join(pages))
            if time.monotonic() > deadline:  # where no timer can interrupt (not the main thread)
                raise _FallbackTimeUp
    except (PDFPasswordIncorrect, PDFEncryptionError):
        raise EncryptedFile(path, "the PDF is password-protected") from None
    except ExtractError:
        raise
    except (PDFSyntaxError, PSException, ValueError, KeyError, TypeError, AttributeError, IndexError,
            AssertionError, EOFError, OSError) as e:  # pdfminer reports damage through many exception types
        raise CorruptFile(path, f"the PDF is damaged or truncated ({why}; pdfminer: {type(e).__name__})") from None
    if not pages:  # read without an error, and no page in its page tree nor among its objects:
        # a PDF of no pages (PDFium refuses one, "Failed to load document (PDFium: Success)")
        raise EmptyDocument(path, code="error.pdf_no_pages")
    return _assemble(path, pages, "", [message("warning.pdf_fallback", why=why.removeprefix("PDFium could not open it (").removesuffix(")"))])


def _clean(text: str) -> str:
    return text.replace("\r\n", "\n").replace("\r", "\n").replace("\x00", "").strip("\n")


def _assemble(path: Path, pages: list[str], title: str, warnings: list[str]):
    empty = [i + 1 for i, p in enumerate(pages) if not p.strip()]
    if len(empty) == len(pages):
        if not pages:
            raise EmptyDocument(path, code="error.pdf_no_pages")
        raise EmptyDocument(path, SCANNED_REASON)
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
