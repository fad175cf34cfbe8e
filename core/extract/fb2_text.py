"""FictionBook (.fb2, and .fb2.zip), the e-book format of Russian libraries, read as a reader
shows the book: its bodies in order, the main text first, then its notes.

An FB2 file is one XML document: ``<description>`` (the book's title, authors, annotation:
metadata, of which the title is kept), one or more ``<body>`` (the text: ``<section>`` with
``<title>``, ``<epigraph>``, ``<p>``, ``<poem>`` of ``<stanza>`` of ``<v>``, ``<cite>``,
``<subtitle>``, ``<table>``, ``<empty-line/>``; inline ``<emphasis>``, ``<strong>``, ``<a>``
...), and ``<binary>`` (pictures in base64, not text). Every paragraph, verse line, subtitle
and table row is one line; a stanza, a section and a body end with an empty line. Read with
expat as a stream (no tree, no recursion: any depth of nesting), its 8-bit encodings
(windows-1251, KOI8-R) through Python's codecs; a prolog declaring entities is refused
(:func:`.safety.check_xml_prolog`), as in office files.
"""

from __future__ import annotations

import io
import re
import xml.parsers.expat
from pathlib import Path

from ..errors import CorruptFile, TooLarge, UnsupportedFormat
from .safety import MAX_TEXT_CHARS, check_xml_prolog, open_checked_zip

__all__ = ["extract_fb2", "extract_fb2_zip"]

#: Elements that are a line of their own.
_LINES = frozenset({"p", "v", "subtitle", "text-author", "tr", "date"})
#: Elements after which a line is left empty.
_BREAKS = frozenset({"stanza", "section", "epigraph", "cite", "poem", "title", "body", "empty-line", "table",
                     "annotation"})
#: Elements whose text a reader does not show as the book's text.
_SKIPPED = frozenset({"binary", "description", "stylesheet"})
_CELLS = frozenset({"td", "th"})
_SPACES = re.compile(r"[^\S\t]+")  # runs of white space but tabs (between table cells)
_CELL_GAP = re.compile(r" ?\t ?")


class _Reader:
    def __init__(self) -> None:
        self.lines: list[str] = []
        self.line: list[str] = []
        self.skip = 0  # depth inside skipped elements
        self.in_title = 0  # depth inside description/title-info/book-title
        self.title: list[str] = []
        self.chars = 0
        self.bodies = 0

    def _end_line(self) -> None:
        text = _CELL_GAP.sub("\t", _SPACES.sub(" ", "".join(self.line))).strip(" \t")
        if text:
            self.lines.append(text)
        self.line = []

    def _blank(self) -> None:
        self._end_line()
        if self.lines and self.lines[-1] != "":
            self.lines.append("")

    def start(self, name: str, attrs) -> None:
        local = name.rsplit("}", 1)[-1]
        if local == "book-title" and self.skip:
            self.in_title += 1
        if self.skip or local in _SKIPPED:
            self.skip += 1
            return
        if local == "body":
            self.bodies += 1
            if self.bodies > 1:
                self._blank()
        if local in _LINES or local in _BREAKS:
            self._end_line()
        elif local in _CELLS and self.line:
            self.line.append("\t")

    def end(self, name: str) -> None:
        local = name.rsplit("}", 1)[-1]
        if local == "book-title" and self.in_title:
            self.in_title -= 1
        if self.skip:
            self.skip -= 1
            return
        if local in _BREAKS:
            self._blank()
        elif local in _LINES:
            self._end_line()

    def text(self, data: str) -> None:
        if self.in_title:
            self.title.append(data)
        if self.skip:
            return
        self.line.append(data)
        self.chars += len(data)


def _read(path: Path, data: bytes) -> tuple[str, str]:
    check_xml_prolog(path, path.name, io.BytesIO(data))  # refuses a prolog declaring entities
    reader = _Reader()
    parser = xml.parsers.expat.ParserCreate(namespace_separator="}")
    parser.SetParamEntityParsing(xml.parsers.expat.XML_PARAM_ENTITY_PARSING_NEVER)
    parser.StartElementHandler = reader.start
    parser.EndElementHandler = reader.end
    parser.CharacterDataHandler = reader.text
    parser.buffer_text = True
    try:
        for at in range(0, len(data), 1 << 20):
            parser.Parse(data[at:at + (1 << 20)], False)
            if reader.chars > MAX_TEXT_CHARS:
                raise TooLarge(path, f"the book holds more than {MAX_TEXT_CHARS:,} characters of text")
        parser.Parse(b"", True)
    except xml.parsers.expat.ExpatError as e:
        if not reader.lines and not reader.line:
            raise CorruptFile(path, f"the FictionBook file is damaged ({e})") from None
        reader._blank()  # a truncated book: what was read is the book's beginning
    except LookupError as e:  # an encoding Python does not know
        raise CorruptFile(path, f"the FictionBook file names an unknown encoding ({e})") from None
    reader._end_line()
    while reader.lines and reader.lines[-1] == "":
        reader.lines.pop()
    return "\n".join(reader.lines), " ".join("".join(reader.title).split())


def extract_fb2(path: Path, data: bytes) -> tuple[str, str]:
    """(text, title) of an FB2 file's bytes."""
    return _read(path, data)


def extract_fb2_zip(path: Path) -> tuple[str, str]:
    """(text, title) of a zip archive holding one FB2 book (``book.fb2.zip``, as libraries give
    them), its sizes checked as an office file's are."""
    with open_checked_zip(path) as zf:
        books = [i for i in zf.infolist() if i.filename.lower().endswith(".fb2") and not i.is_dir()]
        if len(books) != 1:
            raise UnsupportedFormat(path, "a zip archive, not a document Sverka reads (.docx, .odt, .epub or one .fb2)")
        with zf.open(books[0]) as f:
            data = f.read()
    return _read(path, data)
