"""HTML as a desktop browser draws it: visible text with line breaks at blocks.

The page is parsed by lexbor (through selectolax), an HTML5 parser that builds the tree a
browser builds (unclosed tags, misnested formatting, raw text, foreign content, with scripting
on, so ``<noscript>`` holds text that is not shown). The page's own ``<style>`` sheets and
``style`` attributes are applied with a real cascade (:mod:`.html_css`: selectors and their
specificity, source order, ``!important``, inheritance, ``@media`` for a 1280 x 1600 screen).
External sheets and scripts are not loaded, as for a saved page opened without a network.

Text is drawn unless its element or an ancestor is not rendered: ``display: none`` (and the
``hidden`` attribute, ``<template>``, ``<script>``, ``<style>``, ``<noscript>``, ``<iframe>``
content, the ``<head>``), ``visibility: hidden`` (a descendant may show itself again), an
opacity of 0.01 or less (multiplied down the tree), a font of 1 pt or less, a transparent
colour, white text on a page that sets no background but white (or text of the colour its own
box or an ancestor's paints behind it), a position 999 CSS px or more off the top or left of the
page, or a clip to nothing (``clip: rect(0 0 0 0)``, ``clip-path: inset(50%)``: screen-reader
text). A sheet that hides ``<html>`` or ``<body>`` itself is not applied: such a page is one a
script shows (the anti-clickjacking guard). Hidden text is left out and counted (the caller
warns about it). Of an inline ``<svg>`` only its ``<text>`` is read; of
a ``<math>`` formula its tokens, not its annotations; the fallback content of an ``<object>`` is
read. Runs of white space collapse to one space, except inside ``<pre>``; blocks, table rows and
``<br>`` end a line, table cells are separated by a tab.

Hostile pages: an HTML5 tree builder walks its stack of open elements for many tags (the
standard's "in scope" checks), so ``"<div>" * 100_000`` costs the square of its length in every
HTML5 parser. :func:`_bounded_nesting` measures that cost in one pass beforehand and, past a
budget, empties the elements nested deeper than Chromium keeps them (512: deeper elements
become children of the 512th in Chromium too), so parsing stays linear. The encoding comes
from a BOM, then a ``<meta>`` charset read with the WHATWG label table (``gb2312`` is GBK,
``latin1`` is windows-1252, as in every browser), then the plain-text detection.
"""

from __future__ import annotations

import codecs
import re
import xml.etree.ElementTree as ET

from selectolax.lexbor import LexborHTMLParser

from ..messages import message
from . import html_css as css
from .plain_text import decode_bytes

_META_CHARSET = re.compile(rb"""<meta[^>]+charset\s*=\s*["']?\s*([A-Za-z0-9_.:-]+)""", re.I)

#: Elements whose content is never drawn (the UA style sheet's display: none, raw text,
#: inert template content); left out without a warning.
_NOT_RENDERED = frozenset({
    "head", "script", "style", "template", "noscript", "iframe", "noembed", "noframes", "title", "meta",
    "link", "base", "datalist", "param", "area", "embed", "source", "track", "frameset", "frame",
})
_SVG_NOT_DRAWN = frozenset({"desc", "title", "metadata", "defs", "symbol", "clippath", "mask", "pattern",
                            "marker", "lineargradient", "radialgradient", "filter", "style", "script"})
_SVG_TEXT = frozenset({"text", "tspan", "textpath"})
_MATH_NOT_DRAWN = frozenset({"annotation", "annotation-xml", "mphantom"})
_MATH_TOKENS = frozenset({"mi", "mn", "mo", "ms", "mtext"})
_BLOCK = frozenset({
    "address", "article", "aside", "blockquote", "caption", "dd", "details", "dialog", "div", "dl", "dt",
    "fieldset", "figcaption", "figure", "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6", "header",
    "hgroup", "hr", "legend", "li", "main", "nav", "ol", "p", "pre", "section", "summary", "table", "tbody",
    "td", "tfoot", "th", "thead", "tr", "ul", "body", "html", "br", "center", "menu", "dir", "listing",
    "plaintext", "xmp", "search", "optgroup", "option", "textarea",
})
_CELL = frozenset({"td", "th"})
#: Elements whose own state differs from their parent's whatever their style.
_SPECIAL = frozenset({"svg", "math", "html", "body", "dialog", "pre", "listing", "plaintext", "xmp", "textarea"}) \
    | _NOT_RENDERED
#: Attributes that may change how an element is drawn.
_STYLING_ATTRIBUTES = frozenset({"style", "hidden", "color", "bgcolor", "dir"})
_SVG_STYLING = _STYLING_ATTRIBUTES | {"display", "visibility", "opacity", "font-size", "width", "height"}
_SVG_STATE = _SVG_NOT_DRAWN | _SVG_TEXT | {"foreignobject", "svg"}
_BLOCK_DISPLAY = ("block", "flex", "grid", "list-item", "table", "flow-root", "table-row", "table-caption",
                  "table-row-group", "table-header-group", "table-footer-group")
_SPACE = re.compile(r"[ \t\n\r\f]+")
_WORDS = re.compile(r"\w+")
_WHITE_TEXT = "white text"
_BY_STYLE, _BY_SHEET, _BY_ATTRIBUTE = "hidden by its style", "hidden by the page's styles", "hidden attribute"
#: White text is hidden only on a page that sets no background but white anywhere (attributes
#: and styles): on one that does, it may stand on that background.
_DARK_BACKGROUND = re.compile(
    r"background(?:-color|-image)?\s*:\s*(?!\s*(?:#fff\b|#ffffff\b|white\b|transparent\b|none\b|inherit\b|initial\b"
    r"|rgba?\(\s*255\s*,\s*255\s*,\s*255\s*[,)]))|\bbgcolor\s*=\s*[\"']?(?!\s*(?:#fff\b|#ffffff\b|white\b))"
    r"|\bbackground\s*=", re.I)
#: Far enough off the top or left of the page to be seen by no one (CSS px).
_FAR_OFF = -999.0


# --- encoding ------------------------------------------------------------------------------------

#: The WHATWG Encoding Standard's labels (https://encoding.spec.whatwg.org/#names-and-labels),
#: as Python codecs. GBK is decoded as GB18030 (its superset, as the standard says); a label of
#: the "replacement" encoding, UTF-16 named in a <meta> and x-user-defined are ignored.
_WHATWG = {
    "utf-8": "unicode-1-1-utf-8 unicode11utf8 unicode20utf8 utf-8 utf8 x-unicode20utf8",
    "ibm866": "866 cp866 csibm866 ibm866",
    "iso8859-2": "csisolatin2 iso-8859-2 iso-ir-101 iso8859-2 iso88592 iso_8859-2 iso_8859-2:1987 l2 latin2",
    "iso8859-3": "csisolatin3 iso-8859-3 iso-ir-109 iso8859-3 iso88593 iso_8859-3 iso_8859-3:1988 l3 latin3",
    "iso8859-4": "csisolatin4 iso-8859-4 iso-ir-110 iso8859-4 iso88594 iso_8859-4 iso_8859-4:1988 l4 latin4",
    "iso8859-5": "csisolatincyrillic cyrillic iso-8859-5 iso-ir-144 iso8859-5 iso88595 iso_8859-5 "
                 "iso_8859-5:1988",
    "iso8859-6": "arabic asmo-708 csiso88596e csiso88596i csisolatinarabic ecma-114 iso-8859-6 iso-8859-6-e "
                 "iso-8859-6-i iso-ir-127 iso8859-6 iso88596 iso_8859-6 iso_8859-6:1987",
    "iso8859-7": "csisolatingreek ecma-118 elot_928 greek greek8 iso-8859-7 iso-ir-126 iso8859-7 iso88597 "
                 "iso_8859-7 iso_8859-7:1987 sun_eu_greek",
    "iso8859-8": "csiso88598e csisolatinhebrew hebrew iso-8859-8 iso-8859-8-e iso-ir-138 iso8859-8 iso88598 "
                 "iso_8859-8 iso_8859-8:1988 visual csiso88598i iso-8859-8-i logical",
    "iso8859-10": "csisolatin6 iso-8859-10 iso-ir-157 iso8859-10 iso885910 l6 latin6",
    "iso8859-13": "iso-8859-13 iso8859-13 iso885913",
    "iso8859-14": "iso-8859-14 iso8859-14 iso885914",
    "iso8859-15": "csisolatin9 iso-8859-15 iso8859-15 iso885915 iso_8859-15 l9",
    "iso8859-16": "iso-8859-16",
    "koi8-r": "cskoi8r koi koi8 koi8-r koi8_r",
    "koi8-u": "koi8-ru koi8-u",
    "mac-roman": "csmacintosh mac macintosh x-mac-roman",
    "cp874": "dos-874 iso-8859-11 iso8859-11 iso885911 tis-620 windows-874",
    "cp1250": "cp1250 windows-1250 x-cp1250",
    "cp1251": "cp1251 windows-1251 x-cp1251",
    "cp1252": "ansi_x3.4-1968 ascii cp1252 cp819 csisolatin1 ibm819 iso-8859-1 iso-ir-100 iso8859-1 iso88591 "
              "iso_8859-1 iso_8859-1:1987 l1 latin1 us-ascii windows-1252 x-cp1252",
    "cp1253": "cp1253 windows-1253 x-cp1253",
    "cp1254": "cp1254 csisolatin5 iso-8859-9 iso-ir-148 iso8859-9 iso88599 iso_8859-9 iso_8859-9:1989 l5 "
              "latin5 windows-1254 x-cp1254",
    "cp1255": "cp1255 windows-1255 x-cp1255",
    "cp1256": "cp1256 windows-1256 x-cp1256",
    "cp1257": "cp1257 windows-1257 x-cp1257",
    "cp1258": "cp1258 windows-1258 x-cp1258",
    "mac-cyrillic": "x-mac-cyrillic x-mac-ukrainian",
    "gb18030": "chinese csgb2312 csiso58gb231280 gb2312 gb_2312 gb_2312-80 gbk iso-ir-58 x-gbk gb18030",
    "big5hkscs": "big5 big5-hkscs cn-big5 csbig5 x-x-big5",
    "euc_jp": "cseucpkdfmtjapanese euc-jp x-euc-jp",
    "iso2022_jp": "csiso2022jp iso-2022-jp",
    "cp932": "csshiftjis ms932 ms_kanji shift-jis shift_jis sjis windows-31j x-sjis",
    "cp949": "cseuckr csksc56011987 euc-kr iso-ir-149 korean ks_c_5601-1987 ks_c_5601-1989 ksc5601 ksc_5601 "
             "windows-949",
    "utf-16-be": "unicodefffe utf-16be",
    "utf-16-le": "csunicode iso-10646-ucs-2 ucs-2 unicode unicodefeff utf-16 utf-16le",
}
_LABELS = {label: codec for codec, labels in _WHATWG.items() for label in labels.split()}


def whatwg_encoding(label: str) -> str | None:
    """The Python codec a browser decodes with for an encoding label, or None (unknown label)."""
    return _LABELS.get(label.strip().lower())


def decode_html(data: bytes) -> tuple[str, str, list[str]]:
    """(text, encoding, warnings) of an HTML file's bytes."""
    has_bom = data.startswith((codecs.BOM_UTF8, codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE))
    m = None if has_bom else _META_CHARSET.search(data[:4096])
    if m:
        enc = whatwg_encoding(m.group(1).decode("ascii"))
        if enc in ("utf-16-le", "utf-16-be"):
            # A <meta> that could be read as ASCII cannot be in UTF-16: the HTML standard
            # (and every browser) takes a meta UTF-16 declaration to mean UTF-8.
            enc = "utf-8"
        if enc is not None:
            text = data.decode(enc, errors="replace")
            n = text.count("\ufffd")
            return text, enc, [message("warning.bytes_replaced", n=n, encoding=enc)] if n else []
    decoded = decode_bytes(data)
    return decoded.text, decoded.encoding, list(decoded.warnings)


# --- bounded nesting -----------------------------------------------------------------------------

#: How deep Chromium nests elements (kMaximumHTMLParserDOMTreeDepth): deeper ones are made
#: children of the element at this depth.
MAX_DEPTH = 512
#: Stack steps an HTML5 tree builder may walk before the nesting is bounded (about a quarter of
#: a second of lexbor).
NESTING_BUDGET = 30_000_000
#: Attributes kept on one tag when it has more (lexbor checks each new one against the others).
MAX_ATTRIBUTES = 512
_VOID = frozenset({"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track",
                   "wbr", "keygen", "param", "basefont", "bgsound", "frame", "image"})
_RAW = frozenset({"script", "style", "xmp", "iframe", "noembed", "noframes", "noscript", "title", "textarea",
                  "plaintext"})
_SELF_CLOSING = frozenset({"p", "li", "dd", "dt", "option", "tr", "td", "th", "thead", "tbody", "tfoot",
                           "optgroup", "rb", "rt", "rp", "rtc", "a", "nobr", "button", "form", "caption", "colgroup"})
_TAG = re.compile(r"<(/?)([A-Za-z][^\t\n\f\r />]*)|<!--")
_ATTRIBUTE = re.compile(r"""[^\t\n\f\r />"'=]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\t\n\f\r >]*))?""")
_KEEP_ATTRIBUTES = frozenset({"style", "class", "id", "hidden", "color", "bgcolor", "display", "visibility",
                              "opacity", "font-size", "width", "height", "open", "type", "selected", "multiple",
                              "size", "lang", "dir"})
_RAW_END: dict[str, re.Pattern] = {}


def _raw_end(name: str) -> re.Pattern:
    pat = _RAW_END.get(name)
    if pat is None:
        pat = _RAW_END[name] = re.compile(r"</" + name + r"(?=[\t\n\f\r />])", re.I)
    return pat


def _scan(markup: str, rewrite: bool):
    """One pass over the tags of ``markup`` as a tree builder would nest them (an estimate:
    comments and raw text are skipped, ``<p>``, ``<li>`` and their kind close their own kind).
    Without ``rewrite``: (stack steps a tree builder walks, whether a tag has more than
    :data:`MAX_ATTRIBUTES` attributes). With it: the markup with elements deeper than
    :data:`MAX_DEPTH` emptied and such tags' attributes cut."""
    stack: list[str] = []
    open_count: dict[str, int] = {}  # how many of each name the stack holds
    flattened: dict[str, int] = {}
    out: list[str] = []
    at = 0  # copied up to here
    steps = 0
    too_many = False
    n = len(markup)
    i = 0
    next_gt = -1
    while True:
        m = _TAG.search(markup, i)
        if m is None:
            break
        if m.group(0) == "<!--":
            k = markup.find("-->", m.end())
            i = n if k < 0 else k + 3
            continue
        end, name = m.group(1), m.group(2).lower()
        i = m.end()
        if next_gt < i:
            next_gt = markup.find(">", i)
            if next_gt < 0:
                break
        tag_end = next_gt + 1
        steps += len(stack)
        if end:
            if rewrite and flattened.get(name):
                flattened[name] -= 1
                out.append(markup[at:m.start()])
                at = i = tag_end
                continue
            if open_count.get(name):
                while stack:
                    top = stack.pop()
                    open_count[top] -= 1
                    if top == name:
                        break
            i = tag_end
            continue
        if tag_end - i > 4 * MAX_ATTRIBUTES:
            attributes = _ATTRIBUTE.findall(markup, i, next_gt)
            if len(attributes) > MAX_ATTRIBUTES:
                too_many = True
                if rewrite:
                    kept, seen = [], set()
                    for a in attributes:
                        key = a.split("=", 1)[0].strip().lower()
                        if key in seen:
                            continue
                        if key in _KEEP_ATTRIBUTES or len(kept) < MAX_ATTRIBUTES:
                            seen.add(key)
                            kept.append(a)
                    out.append(markup[at:i])
                    out.append(" " + " ".join(kept))
                    at = next_gt
        if name in _VOID or markup[next_gt - 1] == "/" and (open_count.get("svg") or open_count.get("math")):
            # "/>" closes an element in SVG and MathML only: an HTML <div/> stays open
            i = tag_end
            continue
        if name in _RAW:
            k = _raw_end(name).search(markup, tag_end)
            if name == "plaintext" or k is None:
                break
            i = k.start()
            continue
        if name in _SELF_CLOSING and stack and stack[-1] == name:
            open_count[stack.pop()] -= 1
        if rewrite and len(stack) >= MAX_DEPTH:
            if True:
                flattened[name] = flattened.get(name, 0) + 1
                out.append(markup[at:tag_end])
                out.append(f"</{name}>")
                at = tag_end
            i = tag_end
            continue
        stack.append(name)
        open_count[name] = open_count.get(name, 0) + 1
        i = tag_end
    if not rewrite:
        return steps, too_many
    out.append(markup[at:])
    return "".join(out)


def _bounded_nesting(markup: str) -> str:
    """``markup``, or, when an HTML5 tree builder would walk its stack more than
    :data:`NESTING_BUDGET` times on it, ``markup`` with the elements deeper than Chromium nests
    them emptied (their content follows them) and tags of too many attributes cut."""
    lt = markup.count("<")
    if lt * lt // 2 <= NESTING_BUDGET and markup.count("=") <= MAX_ATTRIBUTES:
        return markup
    steps, too_many = _scan(markup, False)
    if steps <= NESTING_BUDGET and not too_many:
        return markup
    return _scan(markup, True)


# --- reading the tree ----------------------------------------------------------------------------


def html_to_text(markup: str) -> tuple[str, str]:
    """(visible text, title) of an HTML string."""
    return html_to_text_and_hidden(markup)[:2]


def html_to_text_and_hidden(markup: str) -> tuple[str, str, dict[str, int]]:
    """(visible text, title, {how hidden: words left out}) of an HTML string."""
    markup = _bounded_nesting(markup)
    tree = LexborHTMLParser(markup, scripting=True)
    reader = _Reader(white_hides=_DARK_BACKGROUND.search(markup) is None)
    reader.has_sheets = _STYLE_TAG.search(markup) is not None
    reader.read(tree, len(markup))
    return reader.result(), reader.title, reader.hidden


class _Element:
    __slots__ = ("tag", "attrs", "etree", "children")

    def __init__(self, tag, attrs, etree):
        self.tag = tag
        self.attrs = attrs
        self.etree = etree
        self.children: list = []  # _Element or str


class _State:
    """What an element passes to its content: how it is hidden and the inherited values."""
    __slots__ = ("hidden", "visibility", "font", "colour", "colour_reason", "background", "opacity",
                 "mode", "pre", "explicit_bg", "font_reason", "rtl")

    def __init__(self):
        self.hidden = ""  # a reason: nothing inside is drawn (display: none and the like)
        self.visibility = ""  # a reason, when visibility: hidden is inherited
        self.font = css.ROOT_FONT
        self.font_reason = ""
        self.colour = (0, 0, 0, 1.0)
        self.colour_reason = ""
        self.background = None  # the nearest painted background colour, None: the page's white
        self.explicit_bg = False
        self.opacity = 1.0
        self.mode = "html"  # "svg": inside <svg> (only <text> drawn), "svgtext", "math", "silent"
        self.pre = False
        self.rtl = False  # the inherited direction is right to left (dir="rtl", direction: rtl)

    def child(self) -> "_State":
        s = _State.__new__(_State)
        s.hidden = self.hidden
        s.visibility = self.visibility
        s.font = self.font
        s.font_reason = self.font_reason
        s.colour = self.colour
        s.colour_reason = self.colour_reason
        s.background = self.background
        s.explicit_bg = self.explicit_bg
        s.opacity = self.opacity
        s.mode = self.mode
        s.pre = self.pre
        s.rtl = self.rtl
        return s


def _reason(source: str) -> str:
    return _BY_SHEET if source == "sheet" else _BY_STYLE


class _Reader:
    def __init__(self, white_hides: bool) -> None:
        self.white_hides = white_hides
        self.hidden: dict[str, int] = {}
        self.lines: list[str] = []
        self.current: list[str] = []
        self.title = ""
        self.row_cells = 0
        self.sheets: css.StyleSheets | None = None
        self.wrapper_type = None
        self.budget: css.Budget | None = None
        self.has_sheets = True  # the page may hold a <style>: build the tree selectors match on
        self.keys: tuple[set, set, set] = (set(), set(), set())  # the page's classes, ids and tags
        #: The elements whose text is drawn right to left whatever its letters (``<bdo dir="rtl">``,
        #: ``unicode-bidi: bidi-override; direction: rtl``): their text is marked with U+202E ...
        #: U+202C, which the extractor's normalisation turns into the order shown.
        self.overrides: set[int] = set()

    # -- building --------------------------------------------------------------------------

    def read(self, tree: LexborHTMLParser, size: int) -> None:
        root, sheets = self._build(tree)
        if sheets:
            try:
                props = css.relevant_properties(sheets, self.white_hides)
                sheets = [css.reduce_sheet(sheet, props, self.keys) for sheet in sheets]
                self.sheets = css.StyleSheets(sheets, size)
            except (ValueError, RecursionError):
                self.sheets = None
            if self.sheets is not None and not self.sheets.rules:
                self.sheets = None
        if self.sheets is not None:
            self.budget = css.Budget(self.sheets.budget)
            self.wrapper_type = type("PageWrapper", (css.Wrapper,), {"budget": self.budget})
        self._walk(root)

    def _build(self, tree: LexborHTMLParser):
        """Our own tree of the parsed page (elements, text), the ElementTree cssselect2 matches
        on, and the text of the page's style sheets."""
        top = tree.root
        root = _Element("#document", {}, None)
        sheets: list[str] = []
        classes, ids, tags = self.keys
        if top is None:
            return root, sheets
        stack = [(root, iter([top]), False)]
        title_found = False
        while stack:
            parent, it, in_svg = stack[-1]
            node = next(it, None)
            if node is None:
                stack.pop()
                continue
            tag = node.tag
            if tag == "-text":
                text = node.text_content or ""
                parent.children.append(text)
                if text and parent.etree is not None and not parent.etree.text:
                    parent.etree.text = text  # not :empty
                continue
            if tag is None or tag.startswith(("-", "_", "!")):
                continue
            tag = tag.lower()
            attrs = node.attributes  # names in lower case (SVG's own in their case: viewBox)
            tags.add(tag)
            if "class" in attrs:
                classes.update((attrs["class"] or "").split())
            if "id" in attrs:
                ids.add(attrs["id"] or "")
            etree = ET.Element(tag, {k: (v or "") for k, v in attrs.items() if _NAME_OK.match(k)}) \
                if parent.etree is not None or tag == "html" and self.has_sheets else None
            if etree is not None and parent.etree is not None:
                parent.etree.append(etree)
            el = _Element(tag, attrs, etree)
            parent.children.append(el)
            if tag == "style" and (attrs.get("type") or "text/css").strip().lower() in ("text/css", "") \
                    and css.media_matches(attrs.get("media") or ""):
                sheets.append(node.text(deep=True) or "")
                continue
            if tag == "title" and not in_svg:
                if not title_found:
                    text = _SPACE.sub(" ", node.text(deep=True) or "").strip()
                    if text:
                        self.title, title_found = text, True
                continue
            if tag in ("script", "noscript", "iframe", "template", "noembed", "noframes", "textarea"):
                if tag == "textarea":
                    el.children.append(node.text(deep=True) or "")
                continue
            child_svg = (in_svg or tag == "svg") and tag != "foreignobject"
            stack.append((el, iter(node.iter(include_text=True)), child_svg))
        return root, sheets

    # -- styles ----------------------------------------------------------------------------

    def _declarations(self, el: _Element, wrapper, svg: bool) -> dict[str, tuple[str, str]]:
        """name -> (value, source) of the winning declarations: sheets, then the style attribute
        ("inline"); presentational attributes below both ("attr")."""
        a = el.attrs
        if wrapper is None and not (a.keys() & _STYLING_ATTRIBUTES) and not (svg and a):
            return {}
        won: dict[str, tuple[tuple, str, str]] = {}
        # presentational hints: SVG presentation attributes, <font color>, bgcolor
        for name in ("display", "visibility", "opacity", "font-size", "color") if svg else ("color",):
            v = a.get(name)
            if v is not None:
                won[name] = ((-1,), v.strip().lower(), "attr")
        if a.get("bgcolor") is not None:
            won["background-color"] = ((-1,), a["bgcolor"].strip().lower(), "attr")
        if self.sheets is not None and wrapper is not None:
            try:
                matched = self.sheets.match(wrapper)
            except (css.BudgetExceeded, RecursionError):
                self.sheets = None  # the budget is spent: the rest of the page keeps inline styles
                matched = []
            for key, name, value, _important in matched:
                old = won.get(name)
                if old is None or key >= old[0]:
                    won[name] = (key, value, "sheet")
        style = a.get("style")
        if style:
            try:
                inline = css.declarations(style)
            except (ValueError, RecursionError):
                inline = []
            for name, value, important in inline:
                key = (int(important), 1)
                old = won.get(name)
                if old is None or key >= old[0][:2]:
                    won[name] = (key + (0,), value, "inline")
        return {name: (v, src) for name, (_key, v, src) in won.items()}

    def _style(self, el: _Element, parent: _State, wrapper) -> tuple[_State, str]:
        """The state passed to ``el``'s content and its computed display ("" when unset)."""
        tag = el.tag
        mode = parent.mode
        d = None
        if mode == "silent" or parent.hidden:
            return parent, ""  # nothing inside is drawn: the same state serves
        if mode == "html" and tag not in _SPECIAL and not (el.attrs.keys() & _STYLING_ATTRIBUTES) \
                or mode in ("svg", "svgtext") and tag not in _SVG_STATE and not (el.attrs.keys() & _SVG_STYLING) \
                or mode == "math" and tag not in _MATH_NOT_DRAWN and not (el.attrs.keys() & _STYLING_ATTRIBUTES):
            d = self._declarations(el, wrapper, False) if wrapper is not None else None
            if not d:
                return parent, ""  # an element that changes nothing passes its parent's state on
        s = parent.child()
        if s.mode == "svg" or s.mode == "svgtext":
            if tag in _SVG_NOT_DRAWN:
                s.mode = "silent"
                return s, ""
            if tag == "foreignobject":
                s.mode = "html"
            elif tag in _SVG_TEXT:
                s.mode = "svgtext"
        elif tag == "svg":
            s.mode = "svg"
        elif tag == "math" or s.mode == "math":
            s.mode = "math"
            if tag in _MATH_NOT_DRAWN:
                s.mode = "silent"
                return s, ""
        elif tag in _NOT_RENDERED:
            s.mode = "silent"
            return s, ""
        if s.hidden:
            return s, ""
        if d is None:
            d = self._declarations(el, wrapper, s.mode in ("svg", "svgtext"))
        if tag in ("html", "body"):
            # a page that hides its whole body is one a script shows (the anti-clickjacking
            # guard <style>body{display:none}</style> a script removes, a fade-in on load):
            # what a person sees is the page
            for name in ("display", "visibility", "opacity", "content-visibility"):
                d.pop(name, None)
        get = d.get
        # direction: a run drawn right to left whatever its letters shows them in reverse order
        if s.mode == "html":
            given = el.attrs.get("dir", "").strip().lower()
            direction = get("direction")
            given = direction[0] if direction is not None and direction[0] in ("rtl", "ltr") else given
            if given in ("rtl", "ltr"):
                s.rtl = given == "rtl"
            bidi = get("unicode-bidi")
            if s.rtl and (bidi[0] in ("bidi-override", "isolate-override") if bidi is not None else tag == "bdo"):
                self.overrides.add(id(el))
        # display
        display = get("display")
        if display is not None and display[0] in ("inherit",):
            display = None
        if display is not None and display[0] == "none":
            s.hidden = _reason(display[1])
            return s, "none"
        if display is None and "hidden" in el.attrs:
            s.hidden = _BY_ATTRIBUTE
            return s, "none"
        if tag == "dialog" and "open" not in el.attrs and display is None:
            s.mode = "silent"
            return s, "none"
        if tag == "svg" and any(css.length((el.attrs.get(k) or "1").strip(), s.font) == 0
                                for k in ("width", "height") if k in el.attrs):
            s.hidden = _BY_STYLE
            return s, "none"
        if not d:
            return s, ""
        # font size
        size = get("font-size")
        new_font = None
        if size is not None:
            new_font = parent.font if size[0] in ("inherit", "unset") else \
                css.ROOT_FONT if size[0] == "initial" else css.font_size(size[0], parent.font)
            source = size[1]
        shorthand = get("font")
        if shorthand is not None and (size is None or shorthand[1] == "inline" and size[1] != "inline"):
            v = css.font_shorthand_size(shorthand[0], parent.font)
            if v is not None:
                new_font, source = v, shorthand[1]
        if new_font is not None:
            s.font = new_font
            s.font_reason = _reason(source) if new_font <= 4 / 3 + 1e-6 else ""
        # opacity
        op = get("opacity")
        if op is not None:
            value = css.opacity(op[0])
            if value is not None:
                s.opacity = parent.opacity * value
                if s.opacity <= 0.01:
                    s.hidden = _reason(op[1])
                    return s, display[0] if display else ""
        # content-visibility: hidden draws nothing inside
        cv = get("content-visibility")
        if cv is not None and cv[0] == "hidden":
            s.hidden = _reason(cv[1])
        # off the page, clipped to nothing
        position = get("position")
        pos = position[0] if position else ""
        if pos in ("absolute", "fixed", "relative", "sticky"):
            for side, basis in (("left", css.VIEW_WIDTH), ("top", css.VIEW_HEIGHT)):
                v = get(side)
                if v is not None:
                    x = css.length(v[0], s.font, basis)
                    if x is not None and x <= _FAR_OFF:
                        s.hidden = _reason(v[1])
        for side in ("text-indent", "margin-left", "margin-top"):
            v = get(side)
            if v is not None:
                x = css.length(v[0], s.font, css.VIEW_WIDTH)
                if x is not None and x <= _FAR_OFF:
                    s.hidden = _reason(v[1])
        margin = get("margin")
        if margin is not None:
            parts = margin[0].split()
            if parts:
                top = parts[0]
                left = parts[3] if len(parts) == 4 else parts[1] if len(parts) >= 2 else parts[0]
                for v in (top, left):
                    x = css.length(v, s.font, css.VIEW_WIDTH)
                    if x is not None and x <= _FAR_OFF:
                        s.hidden = _reason(margin[1])
        clip, clip_path = get("clip"), get("clip-path")
        if (clip is not None and pos in ("absolute", "fixed") or clip_path is not None) and css.clips_to_nothing(
                clip[0] if clip is not None and pos in ("absolute", "fixed") else None,
                clip_path[0] if clip_path is not None else None, s.font):
            s.hidden = _reason((clip_path or clip)[1])
        if s.hidden:
            return s, display[0] if display else ""
        # visibility (inherited: a descendant may show itself again)
        vis = get("visibility")
        if vis is not None:
            if vis[0] in ("hidden", "collapse"):
                s.visibility = _reason(vis[1])
            elif vis[0] == "visible":
                s.visibility = ""
        # background behind the text
        bg = get("background-color")
        shorthand_bg = get("background")
        colour = None
        if bg is not None:
            colour = css.parse_colour(bg[0])
        if shorthand_bg is not None and (bg is None or shorthand_bg[1] == "inline" and bg[1] != "inline"):
            colour = css.background_colour(shorthand_bg[0]) or colour
        image = get("background-image")
        if image is not None and css.BG_IMAGE.search(image[0]):
            colour = (-1, -1, -1, 1.0)
        if colour is not None and colour[3] > 0.5:
            s.background, s.explicit_bg = colour, True
        if pos in ("absolute", "fixed"):
            s.explicit_bg = s.explicit_bg and colour is not None  # placed over something else
            if colour is None:
                s.background = (-1, -1, -1, 1.0)  # unknown: what it is placed over
        # colour
        col = get("-webkit-text-fill-color") or get("color")
        if col is not None:
            if col[0] in ("inherit", "currentcolor", "unset"):
                pass
            elif col[0] == "initial":
                s.colour, s.colour_reason = (0, 0, 0, 1.0), ""
            else:
                c = css.parse_colour(col[0])
                if c is not None:
                    s.colour = c
                    s.colour_reason = _WHITE_TEXT
                elif col[0]:
                    s.colour = (-1, -1, -1, 1.0)  # a colour Sverka does not know: shown
        return s, display[0] if display else ""

    def _why_hidden(self, s: _State) -> str:
        if s.hidden:
            return s.hidden
        if s.visibility:
            return s.visibility
        if s.font <= 4 / 3 + 1e-6:
            return s.font_reason or _BY_STYLE
        c = s.colour
        if c[3] <= 0.01:
            return _WHITE_TEXT
        if s.background is None:
            if self.white_hides and css.is_whiteish(c):
                return _WHITE_TEXT
        elif s.explicit_bg and css.same_colour(c, s.background):
            return _WHITE_TEXT
        return ""

    # -- walking ---------------------------------------------------------------------------

    def _walk(self, root: _Element) -> None:
        # per open element: (element, state, display, child iterator, wrapper, previous child
        # wrapper, child index)
        base = _State()
        stack = [[root, base, "", iter(root.children), None, None, 0]]
        wrapper_type = self.wrapper_type
        while stack:
            frame = stack[-1]
            el, state, display, it = frame[0], frame[1], frame[2], frame[3]
            child = next(it, None)
            if child is None:
                stack.pop()
                self._end(el, state, display)
                continue
            if child.__class__ is str:
                self._text(child, state)
                continue
            wrapper = None
            if wrapper_type is not None and self.sheets is not None and child.etree is not None:
                parent_wrapper = frame[4]
                if parent_wrapper is None and el.etree is None:
                    wrapper = wrapper_type(child.etree, parent=None, index=0, previous=None,
                                           in_html_document=True)
                elif parent_wrapper is not None:
                    wrapper = wrapper_type(child.etree, parent=parent_wrapper, index=frame[6],
                                           previous=frame[5], in_html_document=True)
                    frame[5] = wrapper
                    frame[6] += 1
            child_state, child_display = self._style(child, state, wrapper)
            self._start(child, child_state, child_display)
            stack.append([child, child_state, child_display, iter(child.children), wrapper, None, 0])

    def _is_block(self, tag: str, display: str) -> bool:
        if display:
            return display.split()[0] in _BLOCK_DISPLAY
        return tag in _BLOCK

    def _start(self, el: _Element, s: _State, display: str) -> None:
        if s.mode == "silent":
            return
        if s.hidden:  # a hidden block still parts the text around it (no word is made of two)
            if el.tag in _BLOCK:
                self._break(s)
            return
        tag = el.tag
        if tag == "br":
            self._break(s, force=True) if self.current else self._break(s)
            return
        cell = tag in _CELL if not display else display.startswith("table-cell")
        if cell:
            if self.row_cells:
                self.current.append("\t")
            self.row_cells += 1
        elif self._is_block(tag, display):
            self._break(s)
            if tag == "tr" or display.startswith("table-row"):
                self.row_cells = 0
        if tag in ("pre", "listing", "plaintext", "xmp", "textarea"):
            s.pre = True
        if id(el) in self.overrides:
            self.current.append("\u202e")

    def _end(self, el: _Element, s: _State, display: str) -> None:
        if s.mode == "silent":
            return
        if s.hidden:
            if el.tag in _BLOCK:
                self._break(s)
            return
        tag = el.tag
        if s.mode in ("svg", "svgtext") and tag in _SVG_TEXT:
            self.current.append(" ")
        elif s.mode == "math" and tag in _MATH_TOKENS:
            self.current.append(" ")
        if id(el) in self.overrides:
            self.current.append("\u202c")
        cell = tag in _CELL if not display else display.startswith("table-cell")
        if not cell and self._is_block(tag, display) and tag != "br":
            self._break(s)

    def _text(self, data: str, s: _State) -> None:
        mode = s.mode
        if mode == "silent" or mode == "svg":
            return
        why = self._why_hidden(s)
        if why:
            words = len(_WORDS.findall(data))
            if words:
                self.hidden[why] = self.hidden.get(why, 0) + words
            return
        if s.pre:
            lines = data.replace("\r\n", "\n").replace("\r", "\n").split("\n")
            self.current.append(lines[0])
            for line in lines[1:]:
                self._break(s, force=True)
                self.current.append(line)
        else:
            self.current.append(_SPACE.sub(" ", data))

    def _break(self, s: _State | None = None, force: bool = False) -> None:
        line = "".join(self.current)
        self.current = []
        if not (s is not None and s.pre):
            line = line.strip(" ")
        if line or force:
            self.lines.append(line)

    def result(self) -> str:
        self._break()
        return "\n".join(self.lines)


_STYLE_TAG = re.compile(r"<style", re.I)
_NAME_OK = re.compile(r"^[A-Za-z_][\w.-]*$")
