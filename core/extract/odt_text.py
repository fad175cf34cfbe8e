"""OpenDocument text (.odt) through odfpy: paragraphs and headings in document order.

Lists, tables, sections and frames are walked through; every text:p and text:h becomes
one line (text:s, text:tab and text:line-break become spaces, tabs and newlines). Table
cells of one row are joined by tabs. Footnotes and endnotes (text:note) are taken out of
the sentence they are anchored in and read after the body; text boxes (draw:text-box)
follow the paragraph that anchors them; tracked deletions (text:tracked-changes) and
comments (office:annotation) are not read.

Hidden text is left out and reported: text whose style (automatic or named, with its
parents) says ``text:display="none"``, white (``fo:color`` #ffffff with no background) or
1 pt or less (``fo:font-size``); hidden sections (``text:display="none"``), hidden
paragraphs and hidden text fields.

odfpy prints a whole XML part to stdout and carries on when the part is malformed, so
the XML members are checked for well-formedness (with expat, streaming) before odfpy sees them.
odfpy reads only the parts its manifest (META-INF/manifest.xml) lists and refuses a file
without one; LibreOffice reads content.xml whatever the manifest says, so odfpy is given a copy
of the XML parts with a manifest of its own (:func:`_parts_for_odfpy`).
"""

from __future__ import annotations

import io
import re
import xml.parsers.expat
import zipfile
from pathlib import Path

from ..errors import CorruptFile, TooLarge, UnsupportedFormat
from .hidden import hidden_text_warnings
from .safety import MAX_TEXT_CHARS, open_checked_zip, without_doctype

ODT_MIMETYPE = b"application/vnd.oasis.opendocument.text"
_XML_PARTS = ("content.xml", "styles.xml", "meta.xml", "settings.xml")


def extract_odt(path: Path) -> tuple[str, str, list[str]]:
    """Return (text, title, warnings)."""
    with open_checked_zip(path) as zf:
        names = set(zf.namelist())
        if "content.xml" not in names:
            raise CorruptFile(path, code="error.odt_no_content")
        if "mimetype" in names:
            mimetype = zf.read("mimetype").strip()
            if mimetype.startswith(b"application/vnd.oasis.opendocument.") and not mimetype.startswith(ODT_MIMETYPE):
                raise UnsupportedFormat(path, f"an OpenDocument file of type {mimetype.decode('ascii', 'replace')}, not a text document")
        for name in _XML_PARTS:
            if name in names:
                _check_well_formed(path, zf, name)
        source = _parts_for_odfpy(zf, names)

    from odf import opendocument, teletype
    from odf.namespaces import DCNS

    try:
        doc = opendocument.load(source)
    except (KeyError, ValueError, zipfile.BadZipFile) as e:
        raise CorruptFile(path, f"the OpenDocument file is damaged ({type(e).__name__}: {e})") from None
    # (odfpy's doc.text is the body's first child, whatever it is: None when there is none)
    body = next((el for el in doc.body.childNodes if getattr(el, "qname", None) == (_OFFICE, "text")), None)
    if body is None:  # content.xml holds a spreadsheet, a drawing ... or no body at all
        raise CorruptFile(path, code="error.odt_no_text_body")

    reader = _Reader(_style_reasons(doc), _list_styles(doc))
    try:
        lines = reader.blocks(body)
    except _TooManySpaces:
        raise TooLarge(path, f"the document's repeated-space elements (text:s c=...) expand to more than "
                             f"{MAX_TEXT_CHARS:,} characters, Sverka's text limit") from None
    title = ""
    for el in doc.meta.childNodes:
        if getattr(el, "qname", None) == (DCNS, "title"):
            title = teletype.extractText(el).strip()
    text = "\n".join(lines + reader.notes)
    return text, title, hidden_text_warnings(reader.hidden, text)


_MANIFEST = ('<?xml version="1.0" encoding="UTF-8"?>'
             '<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0">'
             '<manifest:file-entry manifest:full-path="/" manifest:media-type="{mimetype}"/>{entries}'
             '</manifest:manifest>')


def _parts_for_odfpy(zf: zipfile.ZipFile, names: set[str]) -> io.BytesIO:
    """The XML parts of ``zf`` that hold the text and its styles, in an archive in memory with a
    manifest listing them, for odfpy: it reads only the parts the manifest lists, and refuses a
    file without one (a manifest that forgot content.xml, or none, and the file was refused;
    LibreOffice opens both). Pictures and embedded objects, which the reader does not read, are
    left behind (odfpy would hold every picture in memory, and fail on one the manifest lists but
    the archive lacks). A part's document type declaration (OpenOffice.org 1.x/2.x; entities are
    refused before this) is taken out: odfpy refuses any DTD, even one without entities."""
    doctypes = set(zf.sverka_doctype_parts)
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_STORED) as copy:
        copy.writestr("mimetype", ODT_MIMETYPE)
        entries = []
        for name in _XML_PARTS:
            if name in names:
                data = zf.read(name)
                copy.writestr(name, without_doctype(data) if name in doctypes else data)
                entries.append(f'<manifest:file-entry manifest:full-path="{name}" manifest:media-type="text/xml"/>')
        copy.writestr("META-INF/manifest.xml",
                      _MANIFEST.format(mimetype=ODT_MIMETYPE.decode(), entries="".join(entries)))
    out.seek(0)
    return out


_TEXT = "urn:oasis:names:tc:opendocument:xmlns:text:1.0"
_STYLE = "urn:oasis:names:tc:opendocument:xmlns:style:1.0"
_FO = "urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0"
_DRAW = "urn:oasis:names:tc:opendocument:xmlns:drawing:1.0"
_OFFICE = "urn:oasis:names:tc:opendocument:xmlns:office:1.0"
_TABLE = "urn:oasis:names:tc:opendocument:xmlns:table:1.0"
_WORD = re.compile(r"\w+")
_NOT_READ = {(_TEXT, "tracked-changes"), (_OFFICE, "annotation"), (_OFFICE, "annotation-end"),
             (_TEXT, "note-citation"), (_TEXT, "hidden-paragraph"), (_TEXT, "hidden-text")}


def _style_reasons(doc) -> dict[str, str]:
    """Style name -> how text of that style is hidden, for the styles that hide it."""
    own: dict[str, tuple[str, str | None]] = {}  # name -> (reason or "", parent)
    for container in (doc.styles, doc.automaticstyles):
        for st in container.childNodes:
            if getattr(st, "qname", None) != (_STYLE, "style"):
                continue
            name = st.attributes.get((_STYLE, "name"))
            reason = ""
            for props in st.childNodes:
                if getattr(props, "qname", None) != (_STYLE, "text-properties"):
                    continue
                a = props.attributes
                size = (a.get((_FO, "font-size")) or "").strip().lower()
                color = (a.get((_FO, "color")) or "").strip().lower()
                if (a.get((_TEXT, "display")) or "") == "none":
                    reason = "hidden formatting"
                elif size.endswith("pt") and _points(size[:-2]) <= 1.0:
                    reason = "text of 1 pt or less"
                elif color in ("#ffffff", "#fff") and (a.get((_FO, "background-color")) or "transparent").lower() in (
                        "transparent", "#ffffff", "#fff"):
                    reason = "white text"
            own[name] = (reason, st.attributes.get((_STYLE, "parent-style-name")))
    out = {}
    for name in own:
        seen, current = 0, name
        while current in own and seen < 10:
            if own[current][0]:
                out[name] = own[current][0]
                break
            current, seen = own[current][1], seen + 1
    return out


def _points(value: str) -> float:
    try:
        return float(value)
    except ValueError:
        return 99.0


def _list_styles(doc) -> dict[str, dict[int, dict]]:
    """List style name -> level -> how its labels look: ``kind`` (number or bullet), ``format``
    (style:num-format), ``prefix``, ``suffix``, ``levels`` shown (text:display-levels),
    ``start`` (text:start-value), ``char`` (text:bullet-char), ``after`` (what follows the label)."""
    out: dict[str, dict[int, dict]] = {}
    for container in (doc.styles, doc.automaticstyles):
        for st in container.childNodes:
            if getattr(st, "qname", None) != (_TEXT, "list-style"):
                continue
            levels: dict[int, dict] = {}
            for lvl in st.childNodes:
                q = getattr(lvl, "qname", None)
                if q not in ((_TEXT, "list-level-style-number"), (_TEXT, "list-level-style-bullet")):
                    continue
                a = lvl.attributes
                after = "\t"
                for props in lvl.childNodes:
                    for align in getattr(props, "childNodes", ()):
                        if getattr(align, "qname", None) == (_STYLE, "list-level-label-alignment"):
                            after = {"space": " ", "nothing": ""}.get(
                                align.attributes.get((_TEXT, "label-followed-by")) or "", "\t")
                levels[_number(a.get((_TEXT, "level")), 1)] = {
                    "kind": "number" if q == (_TEXT, "list-level-style-number") else "bullet",
                    "format": a.get((_STYLE, "num-format")) or "", "prefix": a.get((_STYLE, "num-prefix")) or "",
                    "suffix": a.get((_STYLE, "num-suffix")) or "", "levels": _number(a.get((_TEXT, "display-levels")), 1),
                    "start": _number(a.get((_TEXT, "start-value")), 1), "char": a.get((_TEXT, "bullet-char")) or "",
                    "after": after}
            out[st.attributes.get((_STYLE, "name")) or ""] = levels
    return out


def _number(value: str | None, default: int) -> int:
    try:
        return int(value) if value is not None else default
    except ValueError:
        return default


_ROMAN = ((1000, "m"), (900, "cm"), (500, "d"), (400, "cd"), (100, "c"), (90, "xc"), (50, "l"), (40, "xl"),
          (10, "x"), (9, "ix"), (5, "v"), (4, "iv"), (1, "i"))


def _format(n: int, fmt: str) -> str:
    """``n`` in an OpenDocument number format: "1", "a", "A", "i", "I", "" (no number);
    another alphabet's first letter ("а", "А") counts in that alphabet."""
    if not fmt:
        return ""
    first = fmt[0]
    if first in "iI" and 0 < n < 4000:
        out = []
        for value, digits in _ROMAN:
            while n >= value:
                out.append(digits)
                n -= value
        return "".join(out).upper() if first == "I" else "".join(out)
    if first.isalpha() and n > 0:
        alphabet = ("abcdefghijklmnopqrstuvwxyz" if first.lower() == "a" else
                    "абвгдежзиклмнопрстуфхцчшщэюя" if first.lower() == "а" else "")
        if alphabet:
            letters = alphabet[(n - 1) % len(alphabet)] * ((n - 1) // len(alphabet) + 1)
            return letters.upper() if first.isupper() else letters
    return str(n)


class _Reader:
    def __init__(self, reasons: dict[str, str], list_styles: dict[str, dict[int, dict]] | None = None) -> None:
        self.reasons = reasons
        self.hidden: dict[str, int] = {}
        self.notes: list[str] = []
        self.space_total = 0
        self.list_styles = list_styles or {}
        self.counters: dict[str, dict[int, int]] = {}  # list style -> level -> last number

    def _label(self, style: str, level: int, item) -> str:
        """The label of list item ``item`` at ``level`` of a list of ``style``, counted."""
        spec = self.list_styles.get(style, {}).get(level)
        if spec is None:
            return ""
        if spec["kind"] == "bullet":
            char = "".join("\u2022" if "\ue000" <= ch <= "\uf8ff" else ch for ch in spec["char"]) or "\u2022"
            return spec["prefix"] + char + spec["suffix"] + spec["after"]
        counts = self.counters.setdefault(style, {})
        start = item.attributes.get((_TEXT, "start-value"))
        counts[level] = _number(start, 1) if start is not None else counts.get(level, spec["start"] - 1) + 1
        for deeper in [k for k in counts if k > level]:
            del counts[deeper]
        parts = []
        for k in range(max(1, level - spec["levels"] + 1), level + 1):
            other = self.list_styles[style].get(k, spec)
            parts.append(_format(counts.get(k, other["start"]), other["format"]))
        number = ".".join(p for p in parts if p)
        if not number and not spec["prefix"] and not spec["suffix"]:
            return ""
        return spec["prefix"] + number + spec["suffix"] + spec["after"]

    def list_lines(self, node, style: str, level: int) -> list[str]:
        """Lines of a ``text:list`` at ``level`` (1: not inside another list), each item's first
        paragraph after its label, as LibreOffice shows it: a list that does not continue another
        (``text:continue-numbering``, ``text:continue-list``) counts from its start again."""
        style = node.attributes.get((_TEXT, "style-name")) or style
        if level == 1 and (node.attributes.get((_TEXT, "continue-numbering")) or "") != "true" \
                and not node.attributes.get((_TEXT, "continue-list")):
            self.counters.pop(style, None)
        lines: list[str] = []
        for item in node.childNodes:
            q = getattr(item, "qname", None)
            if q == (_TEXT, "list-header"):
                lines.extend(self.blocks(item))
            elif q != (_TEXT, "list-item"):
                continue
            labelled = False
            for child in item.childNodes:
                cq = getattr(child, "qname", None)
                if cq == (_TEXT, "list"):
                    lines.extend(self.list_lines(child, style, level + 1))
                    continue
                sub = self._block(child)
                if not labelled and cq in ((_TEXT, "p"), (_TEXT, "h")):
                    labelled = True
                    label = self._label(style, level, item)
                    if sub and label:
                        sub[0] = label + sub[0]
                lines.extend(sub)
        return lines

    def _spaces(self, count: str | None) -> int:
        """The spaces one ``<text:s>`` stands for; all of them together bounded by the text limit
        (``<text:s c="200000000"/>``, also written ``c="&#50;00000000"``, would be gigabytes)."""
        m = _SPACE_COUNT.fullmatch(count or "1")
        n = int(m.group(1)) if m else 1
        self.space_total += n
        if self.space_total > MAX_TEXT_CHARS:
            raise _TooManySpaces
        return n

    def _hide(self, reason: str, node) -> None:
        from odf import teletype

        self.hidden[reason] = self.hidden.get(reason, 0) + len(_WORD.findall(teletype.extractText(node)))

    def _style_reason(self, node) -> str:
        name = node.attributes.get((_TEXT, "style-name"))
        return self.reasons.get(name, "") if name else ""

    def blocks(self, node) -> list[str]:
        lines: list[str] = []
        for child in node.childNodes:
            lines.extend(self._block(child))
        return lines

    def _block(self, child) -> list[str]:
        """The lines of one child of a body, cell, section, note or text box."""
        lines: list[str] = []
        qname = getattr(child, "qname", None)
        if qname is None or qname in _NOT_READ:
            return lines
        if qname == (_TEXT, "list"):
            return self.list_lines(child, "", 1)
        if qname in ((_TEXT, "p"), (_TEXT, "h")):
            reason = self._style_reason(child)
            if reason:
                self._hide(reason, child)
                return lines
            boxes: list[list[str]] = []
            lines.append(self.inline(child, boxes))
            for box in boxes:
                lines.extend(box)
        elif qname == (_TABLE, "table-row"):
            cells = []
            for cell in child.childNodes:
                if getattr(cell, "qname", None) == (_TABLE, "table-cell"):
                    cells.append(" ".join(x for x in self.blocks(cell) if x.strip()))
            lines.append("\t".join(cells))
        elif qname == (_TEXT, "section") and (child.attributes.get((_TEXT, "display")) or "") == "none":
            self._hide("hidden section", child)
        else:
            lines.extend(self.blocks(child))
        return lines

    def inline(self, node, boxes: list[list[str]]) -> str:
        out: list[str] = []
        for child in node.childNodes:
            if child.nodeType == child.TEXT_NODE:
                out.append(child.data)
                continue
            qname = getattr(child, "qname", None)
            if qname is None or qname in _NOT_READ:
                continue
            if qname == (_TEXT, "s"):
                out.append(" " * self._spaces(child.attributes.get((_TEXT, "c"))))
            elif qname == (_TEXT, "tab"):
                out.append("\t")
            elif qname == (_TEXT, "line-break"):
                out.append("\n")
            elif qname == (_TEXT, "note"):
                for body in child.childNodes:
                    if getattr(body, "qname", None) == (_TEXT, "note-body"):
                        text = " ".join(x for x in self.blocks(body) if x.strip())
                        if text:
                            self.notes.append(text)
            elif qname == (_DRAW, "text-box"):
                boxes.append(self.blocks(child))
            elif qname == (_TEXT, "span") and self._style_reason(child):
                self._hide(self._style_reason(child), child)
            else:
                out.append(self.inline(child, boxes))
        return "".join(out)


class _TooManySpaces(Exception):
    """The document's ``<text:s c="..."/>`` elements add up to more than Sverka's text limit."""


#: ``c`` of ``<text:s>`` as the XML parser gives it (character references already decoded):
#: ASCII digits only (``int`` also reads full-width and other scripts' digits).
_SPACE_COUNT = re.compile(r"\s*([0-9]{1,12})\s*")


def _check_well_formed(path: Path, zf: zipfile.ZipFile, name: str) -> None:
    parser = xml.parsers.expat.ParserCreate()

    parser.SetParamEntityParsing(xml.parsers.expat.XML_PARAM_ENTITY_PARSING_NEVER)

    def refuse_entities(*_args) -> None:
        raise CorruptFile(path, f"{name} declares XML entities in its DTD; refused for safety (entity expansion)")

    parser.EntityDeclHandler = refuse_entities
    parser.UnparsedEntityDeclHandler = refuse_entities
    try:
        with zf.open(name) as f:
            while chunk := f.read(1 << 16):
                parser.Parse(chunk, False)
        parser.Parse(b"", True)
    except xml.parsers.expat.ExpatError as e:
        raise CorruptFile(path, f"the OpenDocument file is damaged ({name}: {e})") from None
    except (zipfile.BadZipFile, EOFError, OSError) as e:
        raise CorruptFile(path, f"the OpenDocument file is damaged or truncated ({name}: {e})") from None
