"""Word .docx: every visible text in reading order, hidden text left out and reported.

Reading order: headers, the body (paragraphs and tables in document order), footers, then
footnotes and endnotes. A table becomes one line per row with its cells separated by tabs
(a merged cell is written once); a cell's own paragraphs and nested tables are joined with
spaces so the row stays on one line. Each distinct header or footer text is written once.

Visible text is read wherever Word keeps it, not only in a paragraph's direct runs: tracked
insertions and moves (``w:ins``, ``w:moveTo``), content controls (``w:sdt``), smart tags,
custom XML, simple and complex fields (their results, not their codes), hyperlinks,
bidirectional runs (``w:dir``, ``w:bdo``), text boxes (DrawingML or VML; the VML copy Word
writes as a fallback of the same box is skipped), whose paragraphs follow the paragraph that
anchors them, and embedded documents (``w:altChunk``: HTML, RTF or plain text). Tracked
deletions (``w:del``, ``w:moveFrom``) are not read.

Hidden text is left out of the text and counted in a warning: runs formatted as hidden
(``w:vanish``), white text (``w:color`` FFFFFF or the background theme colour, with no
highlight or shading under it) and text of 1 pt or less (``w:sz`` <= 2 half-points). The
formatting is read from the run, its character style and its paragraph's style (with the
styles they are based on); a white page background set by a theme, text hidden by a
document-wide default style and colours close to white are not recognised.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

from ..errors import CorruptFile
from .hidden import hidden_text_warnings
from .safety import open_checked_zip

W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
_MC_FALLBACK = "{http://schemas.openxmlformats.org/markup-compatibility/2006}Fallback"
_R_ID = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}id"
_WORD = re.compile(r"\w+")


def _q(tag: str) -> str:
    return f"{{{W}}}{tag}"


_P, _TBL, _SDT, _SDT_CONTENT, _R, _T = _q("p"), _q("tbl"), _q("sdt"), _q("sdtContent"), _q("r"), _q("t")
_SKIPPED = {_q(t) for t in ("del", "moveFrom", "instrText", "delInstrText", "delText", "rPr", "pPr", "sectPr",
                            "tblPr", "trPr", "tcPr", "sdtPr", "sdtEndPr", "commentReference", "footnoteReference",
                            "endnoteReference")} | {_MC_FALLBACK}
_TXBX = _q("txbxContent")
_ALT_CHUNK = _q("altChunk")
_FALSE = {"0", "false", "off", "none"}


class _Reader:
    """Walks one package's parts; remembers what it left out as hidden."""

    def __init__(self, styles) -> None:
        self.hidden: Counter = Counter()  # reason -> words left out
        self._styles = styles  # style id -> (rPr element or None, basedOn id or None)

    # -- hidden formatting ---------------------------------------------------------------
    def _style_props(self, style_id: str | None, depth: int = 0) -> list:
        out = []
        while style_id and depth < 10 and style_id in self._styles:
            rpr, based_on = self._styles[style_id]
            if rpr is not None:
                out.append(rpr)
            style_id, depth = based_on, depth + 1
        return out

    def _hidden_reason(self, run, paragraph_style: str | None) -> str | None:
        rpr = run.find(_q("rPr"))
        char_style = None
        if rpr is not None:
            rs = rpr.find(_q("rStyle"))
            char_style = rs.get(_q("val")) if rs is not None else None
        chain = ([rpr] if rpr is not None else []) + self._style_props(char_style) + self._style_props(paragraph_style)

        def first(tag: str):
            for props in chain:
                el = props.find(_q(tag))
                if el is not None:
                    return el
            return None

        vanish = first("vanish")
        if vanish is not None and (vanish.get(_q("val")) or "true").lower() not in _FALSE:
            return "hidden formatting"
        size = first("sz")
        if size is not None:
            try:
                if int(size.get(_q("val")) or "0") <= 2:
                    return "text of 1 pt or less"
            except ValueError:
                pass
        color = first("color")
        if color is not None:
            value = (color.get(_q("val")) or "").upper()
            theme = (color.get(_q("themeColor")) or "").lower()
            if value in ("FFFFFF", "WHITE") or theme in ("background1", "light1"):
                highlight, shading = first("highlight"), first("shd")
                dark_under = (highlight is not None and (highlight.get(_q("val")) or "none").lower() not in ("none", "white")) or \
                    (shading is not None and (shading.get(_q("fill")) or "auto").upper() not in ("AUTO", "FFFFFF"))
                if not dark_under:
                    return "white text"
        return None

    # -- text ----------------------------------------------------------------------------
    def blocks(self, element, part) -> list[str]:
        """Lines of a body, header, footer, cell, note or text box, in document order."""
        lines: list[str] = []

        def walk(parent) -> None:
            for child in parent.iterchildren():
                tag = child.tag
                if tag == _P:
                    text, boxes = self.paragraph(child, part)
                    lines.append(text)
                    for box in boxes:
                        lines.extend(box)
                elif tag == _TBL:
                    lines.extend(self.table_rows(child, part))
                elif tag == _ALT_CHUNK:
                    lines.extend(self.alt_chunk(child, part))
                elif isinstance(tag, str) and tag not in _SKIPPED:
                    walk(child)  # sdt / sdtContent, customXml, ins/moveTo around blocks ...

        walk(element)
        return lines

    def paragraph(self, p, part) -> tuple[str, list[list[str]]]:
        """(visible text of paragraph ``p``, lines of the text boxes it anchors)."""
        ppr = p.find(_q("pPr"))
        pstyle = None
        if ppr is not None:
            ps = ppr.find(_q("pStyle"))
            pstyle = ps.get(_q("val")) if ps is not None else None
        out: list[str] = []
        boxes: list[list[str]] = []

        def walk(parent) -> None:
            for child in parent.iterchildren():
                tag = child.tag
                if not isinstance(tag, str) or tag in _SKIPPED:
                    continue
                if tag == _R:
                    text = self.run_text(child, part, boxes)
                    reason = self._hidden_reason(child, pstyle) if text.strip() else None
                    if reason:
                        self.hidden[reason] += len(_WORD.findall(text))
                    else:
                        out.append(text)
                elif tag == _TXBX:
                    boxes.append(self.blocks(child, part))
                else:
                    walk(child)  # ins, moveTo, hyperlink, smartTag, customXml, fldSimple, sdt, dir, bdo ...

        walk(p)
        return "".join(out), boxes

    def run_text(self, r, part, boxes: list[list[str]]) -> str:
        out: list[str] = []
        for child in r.iterchildren():  # text is a direct child of its run; drawings are not text
            tag = child.tag
            if tag == _T:
                out.append(child.text or "")
            elif tag == _q("tab"):
                out.append("\t")
            elif tag in (_q("br"), _q("cr")):
                out.append("\n")
            elif tag == _q("noBreakHyphen"):
                out.append("-")
            elif tag == _q("sym"):
                try:
                    out.append(chr(int(child.get(_q("char")) or "", 16)))
                except (ValueError, OverflowError):  # no character ("FFFFFFFF"): Word shows the rest
                    pass
        # text boxes inside drawings of this run (not the VML fallback copy of the same box)
        for box in _boxes_in(r):
            boxes.append(self.blocks(box, part))
        return "".join(out)

    def table_rows(self, tbl, part) -> list[str]:
        rows = []
        for tr in tbl.iterchildren(_q("tr")):
            cells = []
            for tc in _cells(tr):
                if _continues_merge(tc):
                    continue
                cells.append(" ".join(line for line in self.blocks(tc, part) if line.strip()))
            rows.append("\t".join(cells))
        return rows

    def alt_chunk(self, el, part) -> list[str]:
        """An embedded HTML, RTF or text part, read with Sverka's readers for those formats."""
        rid = el.get(_R_ID)
        try:
            target = part.related_parts[rid]
        except (KeyError, AttributeError):
            return []
        blob, kind = target.blob, (target.content_type or "").lower()
        if "html" in kind:
            from .html_text import decode_html, html_to_text

            return html_to_text(decode_html(blob)[0])[0].split("\n")
        if "rtf" in kind:
            from striprtf.striprtf import rtf_to_text

            return rtf_to_text(blob.decode("cp1252", errors="replace"), errors="replace").split("\n")
        if kind.startswith("text/"):
            from .plain_text import decode_bytes

            return decode_bytes(blob).text.split("\n")
        return []


def _boxes_in(r):
    """txbxContent elements under run ``r``, outside mc:Fallback and not nested in another."""
    stack = [r]
    while stack:
        el = stack.pop()
        for child in el.iterchildren():
            tag = child.tag
            if not isinstance(tag, str) or tag == _MC_FALLBACK:
                continue
            if tag == _TXBX:
                yield child
            else:
                stack.append(child)


def _cells(tr):
    for child in tr.iterchildren():
        if child.tag == _q("tc"):
            yield child
        elif child.tag in (_SDT, _q("customXml")):  # cells inside a content control
            for inner in child.iter(_q("tc")):
                yield inner


def _continues_merge(tc) -> bool:
    tcpr = tc.find(_q("tcPr"))
    if tcpr is None:
        return False
    vmerge = tcpr.find(_q("vMerge"))
    return vmerge is not None and (vmerge.get(_q("val")) or "continue") == "continue"


def _styles_of(document) -> dict:
    out = {}
    try:
        root = document.styles.element
    except (AttributeError, KeyError, ValueError):
        return out
    for st in root.iterchildren(_q("style")):
        sid = st.get(_q("styleId"))
        based = st.find(_q("basedOn"))
        out[sid] = (st.find(_q("rPr")), based.get(_q("val")) if based is not None else None)
    return out


def _notes(document, reader: _Reader, kind: str) -> list[str]:
    """Footnotes or endnotes (``kind``), in the order the part keeps them; separators skipped."""
    rel = f"http://schemas.openxmlformats.org/officeDocument/2006/relationships/{kind}s"
    for r in document.part.rels.values():
        if r.reltype == rel and not r.is_external:
            part = r.target_part
            from docx.oxml import parse_xml

            root = parse_xml(part.blob)  # python-docx's parser: no DTD, no entities, no network
            lines = []
            for note in root.iterchildren(_q(kind)):
                if (note.get(_q("type")) or "normal") != "normal":
                    continue
                text = " ".join(line for line in reader.blocks(note, part) if line.strip())
                if text:
                    lines.append(text)
            return lines
    return []


def extract_docx(path: Path) -> tuple[str, str, list[str]]:
    """Return (text, title, warnings)."""
    import docx
    from docx.opc.exceptions import PackageNotFoundError

    with open_checked_zip(path) as zf:
        if "word/document.xml" not in zf.namelist():
            raise CorruptFile(path, "a zip archive without word/document.xml: not a Word document")
    try:
        document = docx.Document(str(path))
        reader = _Reader(_styles_of(document))
        body = reader.blocks(document.element.body, document.part)
        headers: list[str] = []
        footers: list[str] = []
        for section in document.sections:
            for parts, out in (
                ((section.first_page_header, section.header, section.even_page_header), headers),
                ((section.first_page_footer, section.footer, section.even_page_footer), footers),
            ):
                for hf in parts:
                    if hf.is_linked_to_previous:
                        continue
                    text = "\n".join(reader.blocks(hf._element, hf.part)).strip()
                    if text and text not in out:
                        out.append(text)
        notes = _notes(document, reader, "footnote") + _notes(document, reader, "endnote")
    except PackageNotFoundError:
        raise CorruptFile(path, "not a Word .docx package") from None
    except (KeyError, ValueError, SyntaxError) as e:  # lxml's XMLSyntaxError is a SyntaxError
        raise CorruptFile(path, f"the Word document is damaged ({type(e).__name__}: {e})") from None
    text = "\n".join([*headers, *body, *footers, *notes])
    title = (document.core_properties.title or "").strip()
    return text, title, hidden_text_warnings(reader.hidden, text)

