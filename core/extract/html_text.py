"""HTML through Sverka's own linear tokenizer: visible text with line breaks at blocks.

The tokenizer follows the HTML standard's tokenization (what a browser does with unclosed
tags, comments, quotes and ``<!``/``<?``/``</`` constructs) in one forward pass: every
construct is scanned once, and one that is never closed runs to the end of the file, as in
a browser. CPython's ``html.parser`` is not used because it rescans from every ``<`` it cannot
close: ``"<a" * 20000`` took 4.4 s, ``"<a x='" * 20000`` 95 s and ``"<!--" * 20000`` 9 s, growing
with the square of the length. lxml's libxml2 parser is linear but builds an HTML4 tree with
a nesting limit beyond which it stops reading (text a browser shows would be lost).

Rules: script, style, template, noscript and iframe content is dropped (the <title> becomes
the document title); of an inline <svg> only its <text> is read (as a browser draws it); a
<math> formula is read as text, but for its annotations (a browser shows <mi>, <mtext>...);
an HTML element a browser does not keep inside <svg> or <math> (<p>, <div>, <b>, ... : the
"breakout" start tags of the HTML standard) ends them there, and its text is read; the
fallback content of an <object> is read (what a reader sees where the object is not shown); character references are decoded; runs of white space collapse to
one space as a browser shows them, except inside <pre>; block elements and <br> end a line.
The encoding comes from a BOM, then a <meta> charset, then the plain-text detection.

Hidden text is left out and counted (:attr:`_TextParser.hidden`, reported as a warning by
the caller): elements with the ``hidden`` attribute, an inline style of ``display: none``,
``visibility: hidden``, ``font-size: 0`` (or of 1 px or pt or less), ``opacity: 0``, or placed
a thousand pixels or more off the page (``left``, ``top``, ``text-indent``, ``margin-left``,
``margin-top``), or a class or id that a ``<style>`` rule of the page hides that way (simple
``.class`` and ``#id`` selectors, with or without a tag name, inside ``html`` or ``body``).
White text (``color`` white, inline or by such a rule) is hidden on a page that sets no
background but white anywhere (attributes and styles); a page that sets one keeps its white
text (it may stand on that background). Other selectors, external style sheets and scripts
are not evaluated.
"""

from __future__ import annotations

import codecs
import re
from html import unescape

from ..messages import message
from .plain_text import decode_bytes

_META_CHARSET = re.compile(rb"""<meta[^>]+charset\s*=\s*["']?\s*([A-Za-z0-9_.:-]+)""", re.I)
_SKIP = {"script", "style", "template", "noscript", "iframe", "annotation", "annotation-xml",
         # SVG that is not drawn where it stands, MathML drawn as nothing
         "defs", "symbol", "clippath", "mask", "pattern", "marker", "mphantom"}
#: Inside <svg>: not drawn, and HTML inside them stays inside (no breakout).
_SVG_NOT_DRAWN = {"desc", "title", "metadata"}
_SVG_TEXT = {"text", "tspan", "textpath", "foreignobject"}
_MATH_TOKENS = {"mi", "mn", "mo", "ms", "mtext"}
#: Start tags that close foreign content (<svg>, <math>) in a browser (the HTML standard's
#: "any other start tag" rule for foreign content): "<svg width=0><p>text</p></svg>" shows it.
_BREAKOUT = {
    "b", "big", "blockquote", "body", "br", "center", "code", "dd", "div", "dl", "dt", "em", "embed", "h1", "h2",
    "h3", "h4", "h5", "h6", "head", "hr", "i", "img", "li", "listing", "menu", "meta", "nobr", "ol", "p", "pre",
    "ruby", "s", "small", "span", "strong", "strike", "sub", "sup", "table", "tt", "u", "ul", "var",
}
_BLOCK = {
    "address", "article", "aside", "blockquote", "caption", "dd", "details", "dialog", "div", "dl", "dt",
    "fieldset", "figcaption", "figure", "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6", "header",
    "hr", "legend", "li", "main", "nav", "ol", "p", "pre", "section", "summary", "table", "tbody", "td",
    "tfoot", "th", "thead", "tr", "ul", "body", "html", "br",
}
_CELL = {"td", "th"}
_VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
_SPACE = re.compile(r"[ \t\n\r\f]+")
def _declarations(style: str) -> dict[str, str]:
    """``property: value`` of a style's declarations, lower case, the last of each kept (as a
    browser keeps it: ``display:none; display:block`` shows the element), ``!important`` and
    comments left out."""
    out = {}
    for part in _without_comments(style).split(";"):
        name, colon, value = part.partition(":")
        if colon:
            out[name.strip().lower()] = value.replace("!important", "").strip().lower()
    return out


_TRANSPARENT = re.compile(r"^(?:transparent|rgba\(\s*\d+\s*,\s*\d+\s*,\s*\d+\s*,\s*0*(?:\.0*)?\s*\))$")
_ZERO = re.compile(r"^0*(?:\.0*)?(?:px|pt|em|rem|%)?$")
_TINY = re.compile(r"^(?:0*\.\d+|0*1(?:\.0*)?)(?:px|pt)$")
_FAR_OFF = re.compile(r"^-0*[1-9]\d{3,}(?:\.\d*)?(?:px|pt)?$")  # a thousand pixels or more to the left or top


def _hiding(style: str) -> str:
    """How a style hides its element's text: "" (it does not), "visibility" (a descendant may
    show itself with ``visibility: visible``), "font" (a font of 1 px or pt or less: a descendant
    that sets a larger font shows itself, the usual way of closing gaps between inline blocks),
    or "fixed" (display: none, opacity: 0, placed far off the page: nothing inside shows)."""
    d = _declarations(style)
    if d.get("display") == "none" or _ZERO.match(d.get("opacity", "1") or "1"):
        return "fixed"
    if d.get("position") in ("absolute", "fixed", "relative") and any(
            _FAR_OFF.match(d.get(side, "")) for side in ("left", "top")):
        return "fixed"
    if any(_FAR_OFF.match(d.get(side, "")) for side in ("text-indent", "margin-left", "margin-top")):
        return "fixed"
    if d.get("visibility") in ("hidden", "collapse"):
        return "visibility"
    if _TRANSPARENT.match(d.get("color", "")) or _TRANSPARENT.match(d.get("-webkit-text-fill-color", "")):
        return "white"  # letters of no colour: a child of another colour shows its own
    size = d.get("font-size", "")
    if size and (_ZERO.match(size) or _TINY.match(size)):
        return "font"
    return ""


#: Ways of hiding that an element inside can undo for itself.
_SHOWN_AGAIN = ("visibility", "font", "white")


def _shows_again(attrs, kind: str) -> bool:
    """Whether an element inside one hidden the ``kind`` way shows its text again: visibility:
    visible; a font larger than 1 px or pt; a colour other than white."""
    a = dict(attrs)
    d = _declarations(a.get("style") or "")
    if kind == "visibility":
        return d.get("visibility") == "visible"
    if kind == "font":
        size = d.get("font-size", "")
        return bool(size) and not (_ZERO.match(size) or _TINY.match(size))
    if kind == "white":
        colour = d.get("color") or (a.get("color") or "").strip().lower()
        return bool(colour) and not _WHITE.search(f"color:{colour}") and colour not in ("inherit", "currentcolor")
    return False


_BRACE = re.compile(r"([{}])")
#: White text (``color`` white in a style), and any background a page sets that is not white:
#: white text is hidden only on a page that sets none (its background is then the browser's
#: white); a page with a dark background anywhere keeps its white text.
_WHITE = re.compile(r"(?<![\w-])color\s*:\s*(?:#fff\b|#ffffff\b|white\b|rgba?\(\s*255\s*,\s*255\s*,\s*255\s*[,)])",
                    re.I)
_DARK_BACKGROUND = re.compile(
    r"background(?:-color|-image)?\s*:\s*(?!\s*(?:#fff\b|#ffffff\b|white\b|transparent\b|none\b|inherit\b|initial\b"
    r"|rgba?\(\s*255\s*,\s*255\s*,\s*255\s*[,)]))|\bbgcolor\s*=\s*[\"']?(?!\s*(?:#fff\b|#ffffff\b|white\b))"
    r"|\bbackground\s*=", re.I)
#: ``.class``, ``#id``, with a tag name or not, inside ``html`` or ``body`` or not (both hold
#: every element: ``body .h`` hides what ``.h`` hides).
_SIMPLE_SELECTOR = re.compile(r"^\s*(?:(?:html|body)\s*>?\s*)*[a-z0-9]*([.#])([A-Za-z0-9_-]+)\s*$", re.I)
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
        try:
            text = data.decode(enc, errors="replace") if enc else None
        except (LookupError, UnicodeError, ValueError, TypeError):
            # a codec that is no text encoding (rot13, base64, zlib) or refuses "replace"
            # (idna): browsers ignore such a label, so does Sverka
            text = None
        if text is not None:
            n = text.count("\ufffd")
            return text, enc, [message("warning.bytes_replaced", n=n, encoding=enc)] if n else []
    decoded = decode_bytes(data)
    return decoded.text, decoded.encoding, list(decoded.warnings)


def html_to_text(markup: str) -> tuple[str, str]:
    """(visible text, title) of an HTML string."""
    return html_to_text_and_hidden(markup)[:2]


def html_to_text_and_hidden(markup: str) -> tuple[str, str, dict[str, int]]:
    """(visible text, title, {how hidden: words left out}) of an HTML string."""
    white = _DARK_BACKGROUND.search(markup) is None
    parser = _TextParser(_hidden_selectors(markup, white), white)
    tokenize(markup, parser)
    return parser.result(), " ".join(parser.title).strip(), dict(parser.hidden)


# --- the tokenizer -------------------------------------------------------------------------

_TAG_NAME = re.compile(r"[^\t\n\f\r />]*")
_BETWEEN_ATTRS = re.compile(r"(?:[\t\n\f\r ]|/(?!>))*")
_ATTR_NAME = re.compile(r"[^\t\n\f\r />][^\t\n\f\r /=>]*")
_SPACES = re.compile(r"[\t\n\f\r ]*")
_UNQUOTED = re.compile(r"[^\t\n\f\r >]*")
_COMMENT_END = re.compile(r"--!?>")
# Elements whose content is text up to their end tag (the standard's RAWTEXT/RCDATA elements).
_RAWTEXT = {"script", "style", "xmp", "iframe", "noembed", "noframes"}
_RCDATA = {"title", "textarea"}
_RAW_END: dict[str, re.Pattern] = {}


def tokenize(s: str, sink) -> None:
    """Feed ``sink`` (``handle_starttag``, ``handle_startendtag``, ``handle_endtag``,
    ``handle_data``) the tokens of ``s`` in one linear pass.

    Every scan starts where the previous one ended, and each construct is searched for its end
    once; a construct without an end consumes the rest of the input (a browser shows nothing
    of it either), so no position is scanned twice.
    """
    n = len(s)
    i = 0
    text_start = 0
    while i < n:
        lt = s.find("<", i)
        if lt < 0 or lt + 1 >= n:
            break
        c = s[lt + 1]
        if c.isascii() and c.isalpha():
            tag = _read_tag(s, lt + 1)
            if tag is None:  # end of file inside the tag: dropped, as by a browser
                _flush(s, text_start, lt, sink)
                return
            name, attrs, self_closing, end = tag
            _flush(s, text_start, lt, sink)
            if self_closing:
                sink.handle_startendtag(name, attrs)
            else:
                sink.handle_starttag(name, attrs)
            i = text_start = end
            if not self_closing and (name in _RAWTEXT or name in _RCDATA):
                pat = _RAW_END.get(name)
                if pat is None:
                    pat = _RAW_END[name] = re.compile(r"</" + name + r"(?=[\t\n\f\r />])", re.I)
                m = pat.search(s, end)
                stop = m.start() if m else n
                if stop > end:
                    raw = s[end:stop]
                    sink.handle_data(unescape(raw) if name in _RCDATA else raw)
                i = text_start = stop
            continue
        if c == "/":
            if lt + 2 < n and s[lt + 2].isascii() and s[lt + 2].isalpha():
                tag = _read_tag(s, lt + 2)
                if tag is None:
                    _flush(s, text_start, lt, sink)
                    return
                _flush(s, text_start, lt, sink)
                sink.handle_endtag(tag[0])
                i = text_start = tag[3]
                continue
            if lt + 2 < n and s[lt + 2] == ">":  # "</>" is dropped
                _flush(s, text_start, lt, sink)
                i = text_start = lt + 3
                continue
            end = _bogus_comment_end(s, lt + 2)  # "</" then anything else: a bogus comment
        elif c == "!":
            if s.startswith("<!--", lt):
                if s.startswith(">", lt + 4):
                    end = lt + 5
                elif s.startswith("->", lt + 4):
                    end = lt + 6
                else:
                    m = _COMMENT_END.search(s, lt + 4)
                    end = m.end() if m else n
            elif s.startswith("<![CDATA[", lt) and getattr(sink, "in_foreign", False):
                k = s.find("]]>", lt + 9)
                _flush(s, text_start, lt, sink)
                sink.handle_data(s[lt + 9:k if k >= 0 else n])
                i = text_start = k + 3 if k >= 0 else n
                continue
            else:
                end = _bogus_comment_end(s, lt + 2)
        elif c == "?":
            end = _bogus_comment_end(s, lt + 1)
        else:  # "<" before anything else is text
            i = lt + 1
            continue
        _flush(s, text_start, lt, sink)
        i = text_start = end
    _flush(s, text_start, n, sink)


def _bogus_comment_end(s: str, start: int) -> int:
    k = s.find(">", start)
    return k + 1 if k >= 0 else len(s)


def _flush(s: str, start: int, stop: int, sink) -> None:
    if stop > start:
        sink.handle_data(unescape(s[start:stop]))


def _read_tag(s: str, i: int):
    """(lower-case name, [(attr, value)], self-closing, index after ">") of the tag whose name
    starts at ``i``, or None when the input ends inside it."""
    n = len(s)
    m = _TAG_NAME.match(s, i)
    name = m.group().lower()
    i = m.end()
    attrs: list[tuple[str, str | None]] = []
    while True:
        i = _BETWEEN_ATTRS.match(s, i).end()
        if i >= n:
            return None
        if s[i] == ">":
            return name, attrs, False, i + 1
        if s.startswith("/>", i):
            return name, attrs, True, i + 2
        m = _ATTR_NAME.match(s, i)
        key = m.group().lower()
        i = _SPACES.match(s, m.end()).end()
        value = None
        if i < n and s[i] == "=":
            i = _SPACES.match(s, i + 1).end()
            if i >= n:
                return None
            q = s[i]
            if q in "\"'":
                k = s.find(q, i + 1)
                if k < 0:
                    return None
                value = unescape(s[i + 1:k])
                i = k + 1
            else:
                m = _UNQUOTED.match(s, i)
                value = unescape(m.group())
                i = m.end()
        attrs.append((key, value))


def _without_comments(css: str) -> str:
    """``css`` with its ``/* ... */`` comments as spaces (an unclosed one runs to the end), in
    one pass: a comment before a rule is no part of its selector."""
    out, at = [], 0
    while (i := css.find("/*", at)) >= 0:
        j = css.find("*/", i + 2)
        out.append(css[at:i])
        out.append(" ")
        if j < 0:
            return "".join(out)
        at = j + 2
    out.append(css[at:])
    return "".join(out)


def _rules(css: str) -> list[tuple[str, str]]:
    """``(selectors, body)`` of every ``selectors{body}`` with no brace inside either, comments
    and the rules of ``@media print`` (or speech) left out, as
    ``re.findall(r"([^{}]+)\\{([^{}]*)\\}", css)`` gives them, in linear time (that pattern
    tries every start of a long run without braces to its end: 100 KB of a comment took a
    minute)."""
    parts = _BRACE.split(_without_comments(css))  # text, brace, text, brace, ..., text
    out = []
    blocks: list[bool] = []  # per open block: does the screen see its rules (not @media print)
    for i in range(1, len(parts), 2):
        if parts[i] == "{":
            if i + 2 < len(parts) and parts[i + 2] == "}" and parts[i - 1]:
                if all(blocks):
                    out.append((parts[i - 1], parts[i + 1]))
            else:  # a block of rules: @media, @supports ...
                blocks.append(_seen_on_screen(parts[i - 1]))
        elif blocks and not (parts[i - 2] == "{" and parts[i - 3]):  # not a rule's own end: a block's
            blocks.pop()
    return out


def _seen_on_screen(header: str) -> bool:
    """Whether the rules of a block with this header apply on a screen (``@media print`` and
    ``@media speech`` do not)."""
    h = header.strip().lower()
    if not h.startswith("@media"):
        return True
    query = h[len("@media"):]
    return not re.search(r"\b(?:print|speech)\b", query) or re.search(r"\b(?:screen|all)\b", query) is not None


def _hidden_selectors(markup: str, white: bool = False) -> tuple[frozenset[str], frozenset[str]]:
    """(classes, ids) that the page's own <style> rules hide (``white``: white text hides too)."""
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
        for selectors, body in _rules(markup[j + 1:k]):
            if _hiding(body) or (white and _WHITE.search(body)):
                for sel in selectors.split(","):
                    m = _SIMPLE_SELECTOR.match(sel)
                    if m:
                        (classes if m.group(1) == "." else ids).add(m.group(2))
        start = k + 7
    return frozenset(classes), frozenset(ids)


class _TextParser:
    def __init__(self, hidden_selectors: tuple[frozenset[str], frozenset[str]] = (frozenset(), frozenset()),
                 white_hides: bool = False) -> None:
        self.hidden_classes, self.hidden_ids = hidden_selectors
        self.white_hides = white_hides  # the page sets no background but white: white text is not seen
        self.hide_stack: list[str] = []  # open elements inside a hidden one (the first hides)
        self.hide_open: dict[str, int] = {}  # how many of each tag hide_stack holds (linear on deep nesting)
        self.hide_reason = ""
        # per element of hide_stack: the way its text is hidden ("" when it shows it again: a
        # visibility: visible, or a font of a readable size inside a font-size: 0)
        self.hide_ways: list[str] = []
        self.hidden: dict[str, int] = {}
        self.svg_depth = 0  # inside <svg>: only <text> is read
        self.svg_text = 0
        self.svg_html = 0  # inside <foreignObject> of an <svg>
        self.lines: list[str] = []
        self.current: list[str] = []
        self.skip_depth = 0
        self.skip_tag: list[str] = []
        self.skip_open: dict[str, int] = {}  # how many of each tag skip_tag holds (O(1) membership)
        self.pre_depth = 0
        self.in_title = False
        self.title: list[str] = []
        self.row_cells = 0

    def _hides(self, attrs, tag: str = "") -> str:
        a = dict(attrs)
        if "hidden" in a:
            return "hidden attribute"
        # SVG's presentation attributes (and an <svg> of no size: it shows nothing of its inside)
        if (a.get("display") or "").strip().lower() == "none" \
                or (a.get("visibility") or "").strip().lower() in ("hidden", "collapse") \
                or _ZERO.match((a.get("opacity") or "1").strip()) or _ZERO.match((a.get("font-size") or "1").strip()) \
                or (tag == "svg" and (_ZERO.match((a.get("width") or "1").strip())
                                      or _ZERO.match((a.get("height") or "1").strip()))):
            return "hidden by its style"
        if _hiding(a.get("style") or ""):
            return "hidden by its style"
        if self.white_hides and (_WHITE.search(a.get("style") or "")
                                 or (a.get("color") or "").strip().lower() in ("#fff", "#ffffff", "white")):
            return "white text"  # (the color attribute: <font color=white>)
        if self.hidden_classes and set((a.get("class") or "").split()) & self.hidden_classes:
            return "hidden by the page's styles"
        if self.hidden_ids and (a.get("id") or "") in self.hidden_ids:
            return "hidden by the page's styles"
        return ""

    def handle_starttag(self, tag: str, attrs) -> None:
        if tag not in _VOID and not self.skip_tag:
            outer = self.hide_ways[-1] if self.hide_stack else ""
            reason = self._hides(attrs, tag) if outer in _SHOWN_AGAIN or not outer else ""
            if self.hide_stack or reason:
                if reason:
                    way = "white" if reason == "white text" else _hiding(dict(attrs).get("style") or "") or "fixed"
                    if way != "fixed" and outer and outer != way:
                        way = "fixed"  # hidden two ways at once: no one style shows it again
                    self.hide_reason = reason
                elif outer in _SHOWN_AGAIN and _shows_again(attrs, outer):
                    way = ""
                else:
                    way = outer
                self.hide_stack.append(tag)
                self.hide_ways.append(way)
                self.hide_open[tag] = self.hide_open.get(tag, 0) + 1
        if self.svg_depth and not self.skip_tag and not self.svg_html and (
                tag in _BREAKOUT or (tag == "font" and {"color", "face", "size"} & {k for k, _ in attrs})):
            self.svg_depth = self.svg_text = 0  # the <svg> ends here; what follows is shown
            while self.hide_open.get("svg"):  # and so do what hid it and what it held
                top = self.hide_stack.pop()
                self.hide_ways.pop()
                self.hide_open[top] -= 1
        if self.svg_depth and tag in _SVG_NOT_DRAWN and tag not in _VOID:
            self.skip_tag.append(tag)
            self.skip_open[tag] = self.skip_open.get(tag, 0) + 1
            return
        if self.svg_depth and tag == "foreignobject":
            self.svg_html += 1  # HTML inside, drawn: its <p> does not end the <svg>
        if tag == "svg":
            self.svg_depth += 1
        elif self.svg_depth and tag in _SVG_TEXT:
            self.svg_text += 1
        if tag == "title" and not self.svg_depth:
            self.in_title = True
        elif tag in _SKIP and tag not in _VOID:
            self.skip_tag.append(tag)
            self.skip_open[tag] = self.skip_open.get(tag, 0) + 1
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
                self.hide_ways.pop()
                self.hide_open[top] -= 1
                if top == tag:
                    break
        if tag == "foreignobject" and self.svg_html:
            self.svg_html -= 1
        if tag == "svg" and self.svg_depth:
            self.svg_depth -= 1
            if not self.svg_depth:
                self.svg_text = self.svg_html = 0
        elif self.svg_depth and tag in _SVG_TEXT and self.svg_text:
            self.svg_text -= 1
            self.current.append(" ")
        if tag in _MATH_TOKENS and not self.skip_tag:  # a formula's pieces are drawn apart
            self.current.append(" ")
        if tag == "title":
            self.in_title = False
        if self.skip_tag and tag in ("body", "html"):
            self.skip_tag.clear()  # an unclosed <noscript> or <svg> must not swallow the rest
            self.skip_open.clear()
        if self.skip_tag:
            if self.skip_open.get(tag):
                while self.skip_tag:
                    top = self.skip_tag.pop()
                    self.skip_open[top] -= 1
                    if top == tag:
                        break
            return
        if tag in _BLOCK and tag not in _CELL:
            self._break()
        if tag == "pre" and self.pre_depth:
            self.pre_depth -= 1

    @property
    def in_foreign(self) -> bool:
        """Inside an inline <svg>, where <![CDATA[...]]> is text."""
        return self.svg_depth > 0

    def handle_data(self, data: str) -> None:
        if self.in_title:
            self.title.append(_SPACE.sub(" ", data).strip())
            return
        if self.skip_tag or (self.svg_depth and not self.svg_text):
            return
        if self.hide_stack and self.hide_ways[-1]:
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
