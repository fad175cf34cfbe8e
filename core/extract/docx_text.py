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

python-docx loads every part a relationship names and refuses the whole package when one is
missing; Word reads the rest. A relationship to a part the archive lacks is left out before
python-docx sees the package (an embedded document, a header or notes missing is reported: their
text is lost); a damaged list of relationships of the package or of the main document is
refused with its name (:func:`_package_for_python_docx`).

Automatic list numbers ("1.", "a)", "IV.", bullets) are written before their paragraphs as
Word shows them (:class:`_Numbering`).

Hidden text is left out of the text and counted in a warning: runs formatted as hidden
(``w:vanish``), white text (``w:color`` FFFFFF or the background theme colour, with no
highlight or shading under it) and text of 1 pt or less (``w:sz`` <= 2 half-points). The
formatting is read from the run, its character style and its paragraph's style (with the
styles they are based on); a white page background set by a theme, text hidden by a
document-wide default style and colours close to white are not recognised.
"""

from __future__ import annotations

import io
import posixpath
import re
import zipfile
from collections import Counter
from pathlib import Path

from ..errors import CorruptFile
from ..messages import Message, message
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

    def __init__(self, styles, numbering: "_Numbering | None" = None, style_numbers: dict | None = None) -> None:
        self.hidden: Counter = Counter()  # reason -> words left out
        self._styles = styles  # style id -> (rPr element or None, basedOn id or None)
        self._numbering = numbering
        self._style_numbers = style_numbers or {}  # style id -> (numId, ilvl) of its numbering

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
        if self._numbering is not None:
            label = self._numbering.label(_num_pr(ppr) or self._style_numbers.get(pstyle))
            if label:
                out.append(label)

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


def _num_pr(ppr) -> tuple[str, int] | None:
    """(numId, level) of a paragraph's or style's own ``w:numPr``, or None."""
    if ppr is None:
        return None
    num = ppr.find(_q("numPr"))
    if num is None:
        return None
    nid, lvl = num.find(_q("numId")), num.find(_q("ilvl"))
    if nid is None:
        return None
    try:
        level = int(lvl.get(_q("val")) or "0") if lvl is not None else 0
    except ValueError:
        level = 0
    return (nid.get(_q("val")) or "0", min(max(level, 0), 8))


_ROMAN = ((1000, "m"), (900, "cm"), (500, "d"), (400, "cd"), (100, "c"), (90, "xc"), (50, "l"), (40, "xl"),
          (10, "x"), (9, "ix"), (5, "v"), (4, "iv"), (1, "i"))
_RUSSIAN = "абвгдежзиклмнопрстуфхцчшщэюя"  # Word's russianLower: no ё, й, ъ, ы, ь
#: Bullets drawn from a symbol font (Symbol, Wingdings) are private-use characters in the file.
_BULLET = "\u2022"


def _letters(n: int, alphabet: str) -> str:
    """Word's letter numbering: a..z, then aa..zz, aaa.. (the letter repeated); a number past
    a hundred repetitions (a damaged or hostile start value) as a decimal."""
    if n <= 0 or n > 100 * len(alphabet):
        return str(n)
    k = len(alphabet)
    return alphabet[(n - 1) % k] * ((n - 1) // k + 1)


def format_number(n: int, fmt: str) -> str:
    """``n`` in Word's number format ``fmt`` (w:numFmt); unknown formats as decimals."""
    if fmt == "lowerLetter":
        return _letters(n, "abcdefghijklmnopqrstuvwxyz")
    if fmt == "upperLetter":
        return _letters(n, "abcdefghijklmnopqrstuvwxyz").upper()
    if fmt == "russianLower":
        return _letters(n, _RUSSIAN)
    if fmt == "russianUpper":
        return _letters(n, _RUSSIAN).upper()
    if fmt in ("lowerRoman", "upperRoman") and 0 < n < 4000:
        out = []
        for value, digits in _ROMAN:
            while n >= value:
                out.append(digits)
                n -= value
        roman = "".join(out)
        return roman.upper() if fmt == "upperRoman" else roman
    if fmt == "decimalZero":
        return f"{n:02d}"
    if fmt == "none":
        return ""
    return str(n)


class _Numbering:
    """Word's automatic numbering (``word/numbering.xml``) as Word shows it: one counter per
    list (``w:num``) and level, started at ``w:start`` (or the list's ``w:startOverride``),
    deeper levels restarted when a higher one counts on; the label is ``w:lvlText`` with each
    ``%n`` the counter of level n in its ``w:numFmt`` (``w:isLgl``: decimal), followed by
    ``w:suff`` (a tab unless "space" or "nothing"). A bullet is written "•" when its character
    is a symbol font's private-use one."""

    def __init__(self, root) -> None:
        # read lazily: Word's numbering part holds dozens of lists of 9 levels, most unused
        self._abstract_el = {ab.get(_q("abstractNumId")) or "": ab for ab in root.iterchildren(_q("abstractNum"))}
        self._num_el = {num.get(_q("numId")) or "": num for num in root.iterchildren(_q("num"))}
        self._nums: dict[str, tuple[dict[int, dict], dict[int, int]] | None] = {}
        self._counters: dict[str, dict[int, int]] = {}

    def _num(self, nid: str) -> tuple[dict[int, dict], dict[int, int]] | None:
        if nid in self._nums:
            return self._nums[nid]
        num = self._num_el.get(nid)
        out = None
        if num is not None:
            ref = num.find(_q("abstractNumId"))
            ab = self._abstract_el.get(ref.get(_q("val")) if ref is not None else "")
            levels = self._levels(ab) if ab is not None else {}
            starts: dict[int, int] = {}
            for override in num.iterchildren(_q("lvlOverride")):
                try:
                    ilvl = int(override.get(_q("ilvl")) or "0")
                except ValueError:
                    continue
                so = override.find(_q("startOverride"))
                if so is not None:
                    starts[ilvl] = _int(so.get(_q("val")), 1)
                lvl = override.find(_q("lvl"))
                if lvl is not None:
                    levels[ilvl] = self._level(lvl)
            out = (levels, starts)
        self._nums[nid] = out
        return out

    def _levels(self, ab) -> dict[int, dict]:
        return {_int(lvl.get(_q("ilvl")), 0): self._level(lvl) for lvl in ab.iterchildren(_q("lvl"))}

    @staticmethod
    def _level(lvl) -> dict:
        def val(tag: str, default: str | None = None) -> str | None:
            el = lvl.find(_q(tag))
            return el.get(_q("val")) if el is not None and el.get(_q("val")) is not None else default

        restart = val("lvlRestart")
        return {"start": _int(val("start"), 1), "fmt": val("numFmt", "decimal"), "text": val("lvlText", ""),
                "suff": val("suff", "tab"), "legal": lvl.find(_q("isLgl")) is not None,
                "restart": _int(restart, -1) if restart is not None else None}

    def label(self, numbering: tuple[str, int] | None) -> str:
        """The label of the next paragraph of list ``numbering`` (numId, level), counted."""
        if numbering is None:
            return ""
        nid, level = numbering
        found = self._num(nid) if nid != "0" else None
        if found is None:
            return ""
        levels, starts = found
        spec = levels.get(level)
        if spec is None:
            return ""
        counters = self._counters.setdefault(nid, {})
        counters[level] = counters[level] + 1 if level in counters else starts.get(level, spec["start"])
        for deeper in [k for k in counters if k > level]:
            restart = levels.get(deeper, {}).get("restart")
            if restart is None or restart == -1 or restart > level:  # (w:lvlRestart 0: never restarted)
                if restart != 0:
                    del counters[deeper]
        if spec["fmt"] == "bullet":
            text = spec["text"] or _BULLET
            text = "".join(_BULLET if "\ue000" <= ch <= "\uf8ff" else ch for ch in text)
        else:
            def number(m: re.Match) -> str:
                k = int(m.group(1)) - 1
                other = levels.get(k, {"start": 1, "fmt": "decimal"})
                value = counters.get(k, starts.get(k, other["start"]))
                return format_number(value, "decimal" if spec["legal"] and other["fmt"] != "none" else other["fmt"])

            text = re.sub(r"%([1-9])", number, spec["text"])
        if not text:
            return ""
        return text + {"space": " ", "nothing": ""}.get(spec["suff"], "\t")


def _int(value: str | None, default: int) -> int:
    try:
        return int(value) if value is not None else default
    except ValueError:
        return default


def _numbering_of(document) -> "_Numbering | None":
    from docx.opc.constants import RELATIONSHIP_TYPE

    try:  # (python-docx's numbering_part would make an empty one, at a cost, when there is none)
        part = document.part.part_related_by(RELATIONSHIP_TYPE.NUMBERING)
    except (NotImplementedError, KeyError, AttributeError, ValueError):
        return None
    try:
        return _Numbering(part.element)
    except (AttributeError, ValueError):
        return None


def _style_numbers(document) -> dict:
    """Paragraph style id -> (numId, level) of the numbering it gives (w:numPr in its w:pPr or
    a style it is based on)."""
    own: dict[str, tuple] = {}
    try:
        root = document.styles.element
    except (AttributeError, KeyError, ValueError):
        return {}
    for st in root.iterchildren(_q("style")):
        based = st.find(_q("basedOn"))
        own[st.get(_q("styleId"))] = (_num_pr(st.find(_q("pPr"))), based.get(_q("val")) if based is not None else None)
    out = {}
    for sid in own:
        current, depth = sid, 0
        while current in own and depth < 10:
            if own[current][0] is not None:
                out[sid] = own[current][0]
                break
            current, depth = own[current][1], depth + 1
    return out


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


_RELS = "http://schemas.openxmlformats.org/package/2006/relationships"
_OFFICE_DOCUMENT = "/officeDocument"
#: Relationship types (their ends) whose part holds text the reader reads.
_TEXT_RELATIONS = ("/aFChunk", "/header", "/footer", "/footnotes", "/endnotes")


def _rels_of(member: str) -> str:
    """The name of the relationships part of package member ``member`` ("" for the package)."""
    folder, name = posixpath.split(member)
    return posixpath.join(folder, "_rels", f"{name}.rels")


def _package_for_python_docx(path: Path, zf: zipfile.ZipFile) -> tuple[str | io.BytesIO, list[Message]]:
    """What python-docx should open (the file's path, or a repaired copy in memory) and the
    warnings of the repair.

    Follows the relationships from the package's as python-docx does. One whose internal target
    the archive lacks (an embedded document, ``w:altChunk``, naming ``../../etc/passwd``; a
    thumbnail or a numbering part the writer forgot) made python-docx refuse the whole document
    with a KeyError; it is left out of the copy, and a missing part that held text is reported
    by name. A target is only ever looked up among the archive's members, never on the disk. A
    list of relationships that is not one (malformed, another namespace, a relationship without
    its target) is refused by name when it is the package's or the main document's (without it
    the document's text or styles cannot be found); another part's is read as empty."""
    from docx.oxml import parse_xml

    names = set(zf.namelist())
    fixed: dict[str, bytes] = {}
    warnings: list[Message] = []
    essential = {"_rels/.rels"}
    queue = [("", "_rels/.rels")]
    seen = {""}
    while queue:
        source, rels = queue.pop()
        if rels not in names:
            continue
        try:
            root = parse_xml(zf.read(rels))  # python-docx's parser: no DTD, no entities, no network
            children = [el for el in root.iterchildren() if isinstance(el.tag, str)]
            damaged = root.tag != f"{{{_RELS}}}Relationships" or any(
                el.tag != f"{{{_RELS}}}Relationship" or not (el.get("Id") and el.get("Type") and el.get("Target"))
                for el in children)
        except SyntaxError:  # lxml's XMLSyntaxError
            damaged = True
        if damaged:
            if rels in essential:
                raise CorruptFile(path, code="error.docx_rels_damaged", name=rels)
            fixed[rels] = f'<Relationships xmlns="{_RELS}"/>'.encode()
            continue
        dropped = False
        for el in children:
            if (el.get("TargetMode") or "") == "External":
                continue
            member = posixpath.normpath(posixpath.join("/" + posixpath.dirname(source), el.get("Target"))).lstrip("/")
            if member not in names:
                root.remove(el)
                dropped = True
                if el.get("Type").endswith(_TEXT_RELATIONS):
                    shown = member if len(member) <= 80 else member[:79] + "…"
                    warnings.append(message("warning.docx_part_missing", name=shown))
                continue
            if source == "" and el.get("Type").endswith(_OFFICE_DOCUMENT):
                essential.add(_rels_of(member))
            if member not in seen:
                seen.add(member)
                queue.append((member, _rels_of(member)))
        if dropped:
            from lxml import etree

            fixed[rels] = etree.tostring(root, xml_declaration=True, encoding="UTF-8", standalone=True)
    if not fixed:
        return str(path), warnings
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as copy:
        for info in zf.infolist():
            copy.writestr(info, fixed.get(info.filename) or zf.read(info))
    out.seek(0)
    return out, warnings


def extract_docx(path: Path) -> tuple[str, str, list[str]]:
    """Return (text, title, warnings)."""
    import docx
    from docx.opc.exceptions import PackageNotFoundError

    with open_checked_zip(path) as zf:
        if "word/document.xml" not in zf.namelist():
            raise CorruptFile(path, code="error.docx_no_document")
        if "[Content_Types].xml" not in zf.namelist():  # python-docx: a KeyError naming it
            raise CorruptFile(path, code="error.docx_no_content_types")
        source, missing = _package_for_python_docx(path, zf)
    try:
        document = docx.Document(source)
        reader = _Reader(_styles_of(document), _numbering_of(document), _style_numbers(document))
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
    return text, title, missing + hidden_text_warnings(reader.hidden, text)

