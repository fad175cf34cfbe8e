"""HTML through the standard library's parser: visible text with line breaks at blocks.

Rules: script, style, template, noscript, math and iframe content is dropped (the <title> becomes
the document title); of an inline <svg> only its <text> is read (as a browser draws it); the
fallback content of an <object> is read (what a reader sees where the object is not shown); character references are decoded; runs of white space collapse to
one space as a browser shows them, except inside <pre>; block elements and <br> end a line.
The encoding comes from a BOM, then a <meta> charset, then the plain-text detection.

Hidden text is left out and counted (:attr:`_TextParser.hidden`, reported as a warning by
the caller): elements with the ``hidden`` attribute, an inline style of ``display: none``,
``visibility: hidden``, ``font-size: 0`` or ``opacity: 0``, or a class or id that a
``<style>`` rule of the page hides that way (simple ``.class`` and ``#id`` selectors, with or
without a tag name). Other selectors, external style sheets and scripts are not evaluated.
"""

from __future__ import annotations

import codecs
import re
from html.parser import HTMLParser

from .plain_text import decode_bytes

_META_CHARSET = re.compile(rb"""<meta[^>]+charset\s*=\s*["']?\s*([A-Za-z0-9_.:-]+)""", re.I)
_SKIP = {"script", "style", "template", "noscript", "math", "iframe"}
_SVG_TEXT = {"text", "tspan", "textpath"}
_BLOCK = {
    "address", "article", "aside", "blockquote", "caption", "dd", "details", "dialog", "div", "dl", "dt",
    "fieldset", "figcaption", "figure", "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6", "header",
    "hr", "legend", "li", "main", "nav", "ol", "p", "pre", "section", "summary", "table", "tbody", "td",
    "tfoot", "th", "thead", "tr", "ul", "body", "html", "br",
}
_CELL = {"td", "th"}
_VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
_SPACE = re.compile(r"[ \t\n\r\f]+")
_HIDING = re.compile(r"display\s*:\s*none|visibility\s*:\s*(?:hidden|collapse)|font-size\s*:\s*0(?:\.0*)?(?:px|pt|em|rem|%)?\s*(?:;|$|!)"
                     r"|opacity\s*:\s*0(?:\.0*)?\s*(?:;|$|!)", re.I)
_RULE = re.compile(r"([^{}]+)\{([^{}]*)\}")
_SIMPLE_SELECTOR = re.compile(r"^\s*[a-z0-9]*([.#])([A-Za-z0-9_-]+)\s*$", re.I)
_WORDS = re.compile(r"\w+")


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
    return html_to_text_and_hidden(markup)[:2]


def html_to_text_and_hidden(markup: str) -> tuple[str, str, dict[str, int]]:
    """(visible text, title, {how hidden: words left out}) of an HTML string."""
    parser = _TextParser(_hidden_selectors(markup))
    parser.feed(markup)
    parser.close()
    return parser.result(), " ".join(parser.title).strip(), dict(parser.hidden)


def _hidden_selectors(markup: str) -> tuple[frozenset[str], frozenset[str]]:
    """(classes, ids) that the page's own <style> rules hide."""
    classes, ids = set(), set()
    low = markup.lower()
    start = 0
    while True:  # every <style>...</style> block, linearly
        i = low.find("<style", start)
        if i < 0:
            break
        j = low.find(">", i)
        k = low.find("</style", j if j >= 0 else i)
        if j < 0 or k < 0:
            break
        for selectors, body in _RULE.findall(markup[j + 1:k]):
            if _HIDING.search(body):
                for sel in selectors.split(","):
                    m = _SIMPLE_SELECTOR.match(sel)
                    if m:
                        (classes if m.group(1) == "." else ids).add(m.group(2))
        start = k + 7
    return frozenset(classes), frozenset(ids)


class _TextParser(HTMLParser):
    def __init__(self, hidden_selectors: tuple[frozenset[str], frozenset[str]] = (frozenset(), frozenset())) -> None:
        super().__init__(convert_charrefs=True)
        self.hidden_classes, self.hidden_ids = hidden_selectors
        self.hide_stack: list[str] = []  # open elements inside a hidden one (the first hides)
        self.hide_open: dict[str, int] = {}  # how many of each tag hide_stack holds (linear on deep nesting)
        self.hide_reason = ""
        self.hidden: dict[str, int] = {}
        self.svg_depth = 0  # inside <svg>: only <text> is read
        self.svg_text = 0
        self.lines: list[str] = []
        self.current: list[str] = []
        self.skip_depth = 0
        self.skip_tag: list[str] = []
        self.pre_depth = 0
        self.in_title = False
        self.title: list[str] = []
        self.row_cells = 0

    def _hides(self, attrs) -> str:
        a = dict(attrs)
        if "hidden" in a:
            return "hidden attribute"
        if _HIDING.search(a.get("style") or ""):
            return "hidden by its style"
        if self.hidden_classes and set((a.get("class") or "").split()) & self.hidden_classes:
            return "hidden by the page's styles"
        if self.hidden_ids and (a.get("id") or "") in self.hidden_ids:
            return "hidden by the page's styles"
        return ""

    def handle_starttag(self, tag: str, attrs) -> None:
        if tag not in _VOID and not self.skip_tag:
            reason = "" if self.hide_stack else self._hides(attrs)
            if self.hide_stack or reason:
                self.hide_stack.append(tag)
                self.hide_open[tag] = self.hide_open.get(tag, 0) + 1
                self.hide_reason = reason or self.hide_reason
        if tag == "svg":
            self.svg_depth += 1
        elif self.svg_depth and tag in _SVG_TEXT:
            self.svg_text += 1
        if tag == "title" and not self.svg_depth:
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
        if self.hide_stack and not self.skip_tag and self.hide_open.get(tag):
            while self.hide_stack:
                top = self.hide_stack.pop()
                self.hide_open[top] -= 1
                if top == tag:
                    break
        if tag == "svg" and self.svg_depth:
            self.svg_depth -= 1
            if not self.svg_depth:
                self.svg_text = 0
        elif self.svg_depth and tag in _SVG_TEXT and self.svg_text:
            self.svg_text -= 1
            self.current.append(" ")
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
        if self.skip_tag or (self.svg_depth and not self.svg_text):
            return
        if self.hide_stack:
            words = len(_WORDS.findall(data))
            if words:
                self.hidden[self.hide_reason] = self.hidden.get(self.hide_reason, 0) + words
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
