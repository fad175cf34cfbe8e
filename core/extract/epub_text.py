"""EPUB (.epub) e-books, read as a reader shows the book: its chapters in reading order.

An EPUB is a zip archive: ``META-INF/container.xml`` names the package document (OPF), whose
manifest lists the book's files and whose spine gives the reading order of its XHTML chapters.
Each chapter is read by the HTML reader (:mod:`.html_text`) with the book's style sheets (the
manifest's CSS files) put in its head, so text the book's CSS hides stays hidden and is
counted as hidden text; chapters are joined by an empty line. The title is the package's
``dc:title``. The archive's sizes are checked as an office file's are; the package document
and the container are XML whose prologs may not declare entities.
"""

from __future__ import annotations

import io
import posixpath
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path
from urllib.parse import unquote

from ..errors import CorruptFile, TooLarge
from .safety import MAX_TEXT_CHARS, MAX_XML_PART_BYTES, check_xml_prolog, open_checked_zip

__all__ = ["EPUB_MIMETYPE", "extract_epub"]

EPUB_MIMETYPE = b"application/epub+zip"
_XHTML = ("application/xhtml+xml", "text/html", "application/x-dtbook+xml")


def _xml(path: Path, zf, name: str) -> ET.Element:
    try:
        info = zf.getinfo(name)
    except KeyError:
        raise CorruptFile(path, f"the EPUB lacks {name}") from None
    if info.file_size > MAX_XML_PART_BYTES:
        raise TooLarge(path, f"{name} is larger than the {MAX_XML_PART_BYTES // 2**20} MB Sverka reads in one part")
    data = zf.read(info)
    check_xml_prolog(path, name, io.BytesIO(data))  # refuses a prolog declaring entities
    try:
        return ET.fromstring(data)
    except ET.ParseError as e:
        raise CorruptFile(path, f"the EPUB's {name} is damaged ({e})") from None


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


def _decode(data: bytes) -> str:
    from .html_text import decode_html

    return decode_html(data)[0]


def extract_epub(path: Path) -> tuple[str, str, list[str]]:
    """(text, title, warnings) of an EPUB file."""
    from .hidden import hidden_text_warnings
    from .html_text import html_to_text_and_hidden

    with open_checked_zip(path) as zf:
        container = _xml(path, zf, "META-INF/container.xml")
        roots = [e.get("full-path") for e in container.iter() if _local(e.tag) == "rootfile" and e.get("full-path")]
        if not roots:
            raise CorruptFile(path, "the EPUB's container names no package document")
        opf_name = roots[0]
        package = _xml(path, zf, opf_name)
        base = posixpath.dirname(opf_name)
        items: dict[str, tuple[str, str]] = {}  # id -> (member name, media type)
        title = ""
        for e in package.iter():
            tag = _local(e.tag)
            if tag == "item" and e.get("id") and e.get("href"):
                href = unquote(e.get("href").split("#", 1)[0])
                items[e.get("id")] = (posixpath.normpath(posixpath.join(base, href)), e.get("media-type", ""))
            elif tag == "title" and not title and (e.text or "").strip():
                title = " ".join(e.text.split())
        spine = [e for e in package.iter() if _local(e.tag) == "itemref" and e.get("idref") in items]
        order = [items[e.get("idref")][0] for e in spine if e.get("linear", "yes") != "no"]
        order += [items[e.get("idref")][0] for e in spine if e.get("linear", "yes") == "no"]  # notes and the like, after
        names = set(zf.namelist())
        sheets = []
        for member, media in items.values():
            if media == "text/css" and member in names:
                css = _decode(zf.read(member))
                sheets.append("<style>" + css.replace("</", "<\\/") + "</style>")
        style = "\n".join(sheets)
        media_of = {member: media for member, media in items.values()}
        chapters, hidden, chars, seen = [], Counter(), 0, set()
        for member in order:
            if member in seen or member not in names or media_of.get(member) not in _XHTML:
                continue
            seen.add(member)
            markup = _decode(zf.read(member))
            if style:
                low = markup[:200_000].lower()
                at = low.find("</head")
                markup = markup[:at] + style + markup[at:] if at >= 0 else style + markup
            text, _, left_out = html_to_text_and_hidden(markup)
            hidden.update(left_out)
            if text.strip():
                chapters.append(text.strip("\n"))
                chars += len(text)
                if chars > MAX_TEXT_CHARS:
                    raise TooLarge(path, f"the book holds more than {MAX_TEXT_CHARS:,} characters of text")
    if not order:
        raise CorruptFile(path, "the EPUB's package lists no chapter in its spine")
    text = "\n\n".join(chapters)
    return text, title, hidden_text_warnings(hidden, text)
