"""HTML through the standard library's parser: visible text with line breaks at blocks.

Rules: script, style, template, noscript, svg, math, object and iframe content is dropped (the <title> becomes
the document title); character references are decoded; runs of white space collapse to
one space as a browser shows them, except inside <pre>; block elements and <br> end a line.
The encoding comes from a BOM, then a <meta> charset, then the plain-text detection.
"""

from __future__ import annotations

import codecs
import re
from html.parser import HTMLParser

from .plain_text import decode_bytes

_META_CHARSET = re.compile(rb"""<meta[^>]+charset\s*=\s*["']?\s*([A-Za-z0-9_.:-]+)""", re.I)
_SKIP = {"script", "style", "template", "noscript", "svg", "math", "object", "iframe"}
_BLOCK = {
    "address", "article", "aside", "blockquote", "caption", "dd", "details", "dialog", "div", "dl", "dt",
    "fieldset", "figcaption", "figure", "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6", "header",
    "hr", "legend", "li", "main", "nav", "ol", "p", "pre", "section", "summary", "table", "tbody", "td",
    "tfoot", "th", "thead", "tr", "ul", "body", "html", "br",
}
_CELL = {"td", "th"}
_VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
_SPACE = re.compile(r"[ \t\n\r\f]+")


def decode_html(data: bytes) -> tuple[str, str, list[str]]:
    """(text, encoding, warnings) of an HTML file's bytes."""
    has_bom = data.startswith((codecs.BOM_UTF8, codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE))
    m = None if has_bom else _META_CHARSET.search(data[:4096])
    if m:
        try:
            enc = codecs.lookup(m.group(1).decode("ascii")).name
        except LookupError:
            enc = None
        if enc in ("utf-16", "utf-16-le", "utf-16-be", "utf-32", "utf-32-le", "utf-32-be"):
            # A <meta> that could be read as ASCII cannot be in UTF-16: the HTML standard
            # (and every browser) takes a meta UTF-16 declaration to mean UTF-8.
            enc = "utf-8"
        if enc:
            text = data.decode(enc, errors="replace")
            n = text.count("\ufffd")
            return text, enc, [f"{n} byte sequence(s) not valid in {enc} replaced by U+FFFD"] if n else []
    decoded = decode_bytes(data)
    return decoded.text, decoded.encoding, list(decoded.warnings)


def html_to_text(markup: str) -> tuple[str, str]:
    """(visible text, title) of an HTML string."""
    parser = _TextParser()
    parser.feed(markup)
    parser.close()
    return parser.result(), " ".join(parser.title).strip()


class _TextParser(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.lines: list[str] = []
        self.current: list[str] = []
        self.skip_depth = 0
        self.skip_tag: list[str] = []
        self.pre_depth = 0
        self.in_title = False
        self.title: list[str] = []
        self.row_cells = 0

    def handle_starttag(self, tag: str, attrs) -> None:
        if tag == "title":
            self.in_title = True
        elif tag in _SKIP and tag not in _VOID:
            self.skip_tag.append(tag)
        if self.skip_tag:
            return
        if tag in _CELL:
            if self.row_cells:
                self.current.append("\t")
            self.row_cells += 1
        elif tag in _BLOCK:
            self._break()
            if tag == "tr":
                self.row_cells = 0
        if tag == "pre":
            self.pre_depth += 1

    def handle_startendtag(self, tag: str, attrs) -> None:
        if tag in _BLOCK and not self.skip_tag:
            self._break()

    def handle_endtag(self, tag: str) -> None:
        if tag == "title":
            self.in_title = False
        if self.skip_tag and tag in ("body", "html"):
            self.skip_tag.clear()  # an unclosed <noscript> or <svg> must not swallow the rest
        if self.skip_tag:
            if tag in self.skip_tag:
                while self.skip_tag and self.skip_tag.pop() != tag:
                    pass
            return
        if tag in _BLOCK and tag not in _CELL:
            self._break()
        if tag == "pre" and self.pre_depth:
            self.pre_depth -= 1

    def handle_data(self, data: str) -> None:
        if self.in_title:
            self.title.append(_SPACE.sub(" ", data).strip())
            return
        if self.skip_tag:
            return
        if self.pre_depth:
            lines = data.replace("\r\n", "\n").replace("\r", "\n").split("\n")
            self.current.append(lines[0])
            for line in lines[1:]:
                self._break(force=True)
                self.current.append(line)
        else:
            self.current.append(_SPACE.sub(" ", data))

    def _break(self, force: bool = False) -> None:
        line = "".join(self.current)
        self.current = []
        if not self.pre_depth:
            line = line.strip(" ")
        if line or force:
            self.lines.append(line)

    def result(self) -> str:
        self._break()
        return "\n".join(self.lines)
