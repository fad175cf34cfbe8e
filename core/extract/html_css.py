"""The page's own CSS, as a desktop browser applies it: style sheets parsed by tinycss2,
selectors matched by cssselect2 (the libraries WeasyPrint uses), ``@media`` evaluated for a
screen of 1280 x 1600 CSS px, ``@supports`` for a current browser, ``@layer`` ordered; and the
values of the few properties that decide whether text is drawn (display, visibility, opacity,
font size, colour and background, position and offsets, clip), resolved to numbers.

Only the declarations of those properties are kept from the sheets, so a large framework sheet
costs little: most of its rules set margins and fonts. Matching is bounded by a step budget (the
ancestors and previous siblings a selector walks), so no page makes it run longer than a fixed
multiple of its size; past the budget an element keeps its inline style only.
"""

from __future__ import annotations

import math
import re

import cssselect2
import tinycss2
from cssselect2.tree import ElementWrapper

VIEW_WIDTH, VIEW_HEIGHT = 1280.0, 1600.0
ROOT_FONT = 16.0

#: Properties that decide whether text is drawn (shorthands that can set them included), and
#: in which order its letters are shown (unicode-bidi, direction).
RELEVANT = frozenset({
    "display", "visibility", "opacity", "font-size", "font", "color", "-webkit-text-fill-color",
    "background", "background-color", "background-image", "position", "left", "top", "text-indent",
    "margin", "margin-left", "margin-top", "clip", "clip-path", "content-visibility", "unicode-bidi", "direction",
})


# --- media queries and @supports -------------------------------------------------------------

_MQ_TOKEN = re.compile(r"\(|\)|,|>=|<=|[<>=:]|[^\s()<>=:,]+")
_SCREEN_TYPES = {"all", "screen"}
_KEYWORD_FEATURES = {
    "orientation": "portrait", "hover": "hover", "any-hover": "hover", "pointer": "fine", "any-pointer": "fine",
    "prefers-color-scheme": "light", "prefers-reduced-motion": "no-preference", "prefers-contrast": "no-preference",
    "prefers-reduced-transparency": "no-preference", "prefers-reduced-data": "no-preference",
    "forced-colors": "none", "inverted-colors": "none", "scripting": "enabled", "display-mode": "browser",
    "update": "fast", "overflow-block": "scroll", "overflow-inline": "scroll", "color-gamut": "srgb",
    "dynamic-range": "standard", "video-dynamic-range": "standard",
}
_NUMERIC_FEATURES = {
    "width": VIEW_WIDTH, "height": VIEW_HEIGHT, "device-width": VIEW_WIDTH, "device-height": VIEW_HEIGHT,
    "aspect-ratio": VIEW_WIDTH / VIEW_HEIGHT, "device-aspect-ratio": VIEW_WIDTH / VIEW_HEIGHT,
    "resolution": 1.0, "-webkit-device-pixel-ratio": 1.0, "device-pixel-ratio": 1.0,
    "color": 8.0, "color-index": 0.0, "monochrome": 0.0, "grid": 0.0,
}
_RESOLUTION_UNITS = {"dppx": 1.0, "x": 1.0, "dpi": 1 / 96, "dpcm": 2.54 / 96}
_LENGTH_UNITS = {"px": 1.0, "pt": 4 / 3, "pc": 16.0, "in": 96.0, "cm": 96 / 2.54, "mm": 9.6 / 2.54,
                 "q": 2.4 / 2.54, "em": ROOT_FONT, "rem": ROOT_FONT, "ex": ROOT_FONT / 2, "ch": ROOT_FONT / 2,
                 "vw": VIEW_WIDTH / 100, "vh": VIEW_HEIGHT / 100, "vmin": VIEW_WIDTH / 100,
                 "vmax": VIEW_HEIGHT / 100, "dvw": VIEW_WIDTH / 100, "svw": VIEW_WIDTH / 100,
                 "lvw": VIEW_WIDTH / 100, "dvh": VIEW_HEIGHT / 100, "svh": VIEW_HEIGHT / 100,
                 "lvh": VIEW_HEIGHT / 100}
_NUMBER_UNIT = re.compile(r"^([+-]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?)([a-z%]*)$")


def _mq_value(name: str, text: str) -> float | None:
    text = text.strip()
    if "/" in text:  # a ratio
        a, _, b = text.partition("/")
        try:
            return float(a) / float(b)
        except (ValueError, ZeroDivisionError):
            return None
    m = _NUMBER_UNIT.match(text)
    if not m:
        return None
    number, unit = float(m.group(1)), m.group(2)
    if "resolution" in name or "pixel-ratio" in name:
        return number * _RESOLUTION_UNITS.get(unit or "x", 0) if unit in _RESOLUTION_UNITS or not unit else None
    if not unit:
        return number
    factor = _LENGTH_UNITS.get(unit)
    return number * factor if factor is not None else None


def _feature(body: str) -> bool:
    """One ``(feature)`` of a media query, for the desktop screen."""
    body = body.strip()
    m = re.match(r"^([^<>=]+?)\s*(>=|<=|<|>|=)\s*([^<>=]+?)(?:\s*(>=|<=|<|>|=)\s*([^<>=]+))?$", body)
    if m and ":" not in body:  # range syntax: (width >= 600px), (400px <= width <= 700px)
        left, op1, mid, op2, right = m.groups()
        if op2:
            name = mid.strip()
            value = _NUMERIC_FEATURES.get(name)
            a, b = _mq_value(name, left), _mq_value(name, right)
            return value is not None and a is not None and b is not None and \
                _compare(a, op1, value) and _compare(value, op2, b)
        if left.strip() in _NUMERIC_FEATURES:
            name = left.strip()
            other = _mq_value(name, mid)
            return other is not None and _compare(_NUMERIC_FEATURES[name], op1, other)
        name = mid.strip()
        other = _mq_value(name, left)
        return name in _NUMERIC_FEATURES and other is not None and _compare(other, op1, _NUMERIC_FEATURES[name])
    name, colon, value = body.partition(":")
    name, value = name.strip(), value.strip()
    prefix = ""
    for p in ("min-", "max-", "-webkit-min-", "-webkit-max-"):
        if name.startswith(p):
            prefix, name = p.replace("-webkit-", ""), name[len(p):]
            if p.startswith("-webkit-"):
                name = "-webkit-" + name
            break
    if name in _KEYWORD_FEATURES:
        actual = _KEYWORD_FEATURES[name]
        if not colon:
            return actual not in ("none", "no-preference")
        return value == actual
    if name not in _NUMERIC_FEATURES:
        return False  # a feature this browser does not know matches nothing
    actual = _NUMERIC_FEATURES[name]
    if not colon:
        return actual != 0
    wanted = _mq_value(name, value)
    if wanted is None:
        return False
    if prefix == "min-":
        return actual >= wanted - 1e-9
    if prefix == "max-":
        return actual <= wanted + 1e-9
    return abs(actual - wanted) < 1e-9


def _compare(a: float, op: str, b: float) -> bool:
    return {"<": a < b, "<=": a <= b + 1e-9, ">": a > b, ">=": a >= b - 1e-9, "=": abs(a - b) < 1e-9}[op]


def _split_top(tokens: list[str], sep: str) -> list[list[str]]:
    out, cur, depth = [], [], 0
    for t in tokens:
        depth += (t == "(") - (t == ")")
        if t == sep and depth == 0:
            out.append(cur)
            cur = []
        else:
            cur.append(t)
    out.append(cur)
    return out


def _condition(tokens: list[str], leaf) -> bool:
    """``not C``, ``C and C ...``, ``C or C ...``, ``(C)`` or ``(leaf)``."""
    if not tokens:
        return False
    if tokens[0] == "not":
        return not _condition(tokens[1:], leaf)
    parts, ops, depth, cur = [], [], 0, []
    for t in tokens:
        if depth == 0 and t in ("and", "or"):
            parts.append(cur)
            ops.append(t)
            cur = []
            continue
        depth += (t == "(") - (t == ")")
        cur.append(t)
    parts.append(cur)
    if len(parts) > 1:
        values = [_condition(p, leaf) for p in parts]
        return all(values) if ops[0] == "and" else any(values)
    group = parts[0]
    if len(group) >= 2 and group[0] == "(" and group[-1] == ")":
        inner = group[1:-1]
        if inner and (inner[0] in ("not", "(") or "and" in inner or "or" in inner) and ":" not in inner[:2]:
            return _condition(inner, leaf)
        return leaf(inner)
    if len(group) >= 1 and group[-1] == ")" and "(" in group:  # a function: selector(...), font-tech(...)
        return leaf(group)
    return False


def media_matches(query: str) -> bool:
    """Whether a media query list (``screen and (min-width: 1024px), print``) matches a desktop
    screen of 1280 x 1600 CSS px. An empty list matches; one this browser cannot read does not."""
    query = query.strip().lower()
    if not query:
        return True
    tokens = _MQ_TOKEN.findall(query)

    def leaf(inner: list[str]) -> bool:
        return _feature(" ".join(inner).replace(" : ", ":").replace(" :", ":").replace(": ", ":"))

    for q in _split_top(tokens, ","):
        if not q:
            continue
        negate = False
        if q[0] == "only":
            q = q[1:]
        elif q[0] == "not" and len(q) > 1 and q[1] != "(":
            negate, q = True, q[1:]
        try:
            if q and q[0] != "(" and q[0] != "not":
                kind, rest = q[0], q[1:]
                ok = kind in _SCREEN_TYPES
                if rest:
                    ok = ok and rest[0] == "and" and _condition(rest[1:], leaf)
            else:
                ok = _condition(q, leaf)
        except (ValueError, IndexError, KeyError):
            ok = False
            negate = False
        if ok != negate:
            return True
    return False


_VENDOR = re.compile(r"(?:^|[\s(:])-(?:ms|moz|o)-")


def supports_matches(condition: str) -> bool:
    """Whether a current Chromium supports an ``@supports`` condition: a declaration does unless
    it is another engine's vendor-prefixed one; ``selector()`` and font functions do."""
    tokens = _MQ_TOKEN.findall(condition.strip().lower())

    def leaf(inner: list[str]) -> bool:
        return not _VENDOR.search(" ".join(inner))

    try:
        return _condition(tokens, leaf)
    except (ValueError, IndexError):
        return False


# --- style sheets ------------------------------------------------------------------------------


class Rule:
    __slots__ = ("selectors", "declarations", "layer", "order")

    def __init__(self, selectors, declarations, layer, order):
        self.selectors = selectors
        self.declarations = declarations  # [(name, value, important)]
        self.layer = layer
        self.order = order


#: A style attribute longer than this is reduced before it is parsed (:func:`kept_declarations`):
#: tinycss2 makes an object of every token first, some 600 bytes a declaration, so a 10 MB
#: attribute of "a:b;" took the reader's whole memory and minutes.
LONG_STYLE = 4096

_IMPORTANT = re.compile(r"!\s*important\s*$", re.I)


def kept_declarations(body: str, props: frozenset[str]) -> list[str]:
    """The declarations of a block's text (a rule's body, a style attribute) that can count: of
    each property of ``props``, the last one and the last ``!important`` one (a later one of the
    same importance overrides it), in their order, without ``var()`` values (which
    :func:`declarations` leaves out). One linear pass, split at the semicolons."""
    kept: dict[tuple[str, bool], str] = {}
    for d in body.split(";"):
        name, colon, value = d.partition(":")
        if not colon:
            continue
        name = name.strip().lower()
        if name not in props or "var(" in value.lower():
            continue
        key = (name, bool(_IMPORTANT.search(value)))
        kept.pop(key, None)  # the last one, in its place among the others
        kept[key] = d
    return list(kept.values())


def declarations(content) -> list[tuple[str, str, bool]]:
    """``(name, value, important)`` of the relevant declarations of a block (tokens or a style
    attribute's text), values serialised in lower case; values with ``var()`` are left out."""
    if isinstance(content, str):
        if len(content) > LONG_STYLE:
            content = ";".join(kept_declarations(without_comments(content), RELEVANT))
        items = tinycss2.parse_declaration_list(content, skip_comments=True, skip_whitespace=True)
    else:
        items = tinycss2.parse_blocks_contents(content, skip_comments=True, skip_whitespace=True)
    out = []
    for d in items:
        if d.type != "declaration":
            continue
        name = d.lower_name
        if name not in RELEVANT:
            continue
        value = tinycss2.serialize(d.value).strip().lower()
        if "var(" in value:
            continue
        out.append((name, value, d.important))
    return out


class StyleSheets:
    """The page's rules that set a relevant property, ready to match."""

    #: Steps (ancestors or siblings walked, selectors tried) matching may take per character
    #: of the page, and at least.
    STEPS_PER_CHAR = 2
    MIN_STEPS = 2_000_000

    def __init__(self, sheets: list[str], page_chars: int) -> None:
        self.matcher = cssselect2.Matcher()
        self.rules = 0
        self.layers: dict[str, int] = {}
        self.order = 0
        self.budget = max(self.MIN_STEPS, self.STEPS_PER_CHAR * page_chars)
        self.hard_sibling_selectors = []  # (selector, payload) that walk or slice whole sibling lists
        for css in sheets:
            rules = tinycss2.parse_stylesheet(css, skip_comments=True, skip_whitespace=True)
            self._add(rules, None, 0)

    def _layer_rank(self, name: str) -> int:
        if name not in self.layers:
            self.layers[name] = len(self.layers)
        return self.layers[name]

    def _add(self, rules, layer: int | None, depth: int) -> None:
        if depth > 32:
            return
        for rule in rules:
            if rule.type == "qualified-rule":
                decls = declarations(rule.content)
                if not decls:
                    continue
                try:
                    selectors = cssselect2.compile_selector_list(rule.prelude)
                except (cssselect2.SelectorError, ValueError, TypeError, IndexError, KeyError):
                    continue
                self.order += 1
                r = Rule(selectors, decls, layer, self.order)
                for sel in selectors:
                    if sel.pseudo_element is not None:
                        continue
                    self.matcher.add_selector(sel, r)
                    self.rules += 1
            elif rule.type == "at-rule":
                kw = rule.lower_at_keyword
                if rule.content is None:
                    if kw == "layer":  # @layer a, b; declares the order
                        for name in tinycss2.serialize(rule.prelude).split(","):
                            self._layer_rank(name.strip())
                    continue
                prelude = tinycss2.serialize(rule.prelude)
                if kw == "media" and not media_matches(prelude):
                    continue
                if kw == "supports" and not supports_matches(prelude):
                    continue
                if kw in ("media", "supports", "document", "-moz-document", "container", "scope", "starting-style"):
                    if kw == "starting-style":
                        continue
                    inner = tinycss2.parse_rule_list(rule.content, skip_comments=True, skip_whitespace=True)
                    self._add(inner, layer, depth + 1)
                elif kw == "layer":
                    name = prelude.strip() or f"\x00anonymous{self.order}"
                    rank = self._layer_rank(name if layer is None else f"{layer}.{name}")
                    inner = tinycss2.parse_rule_list(rule.content, skip_comments=True, skip_whitespace=True)
                    self._add(inner, rank, depth + 1)
                # @font-face, @keyframes, @page, @import (not loaded): nothing drawn from them

    def _candidates(self, element, budget: Budget) -> list:
        """cssselect2's Matcher.match, each selector tried counted against the budget."""
        m = self.matcher
        found = []
        groups = []
        if element.id is not None and element.id in m.id_selectors:
            groups.append(m.id_selectors[element.id])
        for class_name in element.classes:
            if class_name in m.class_selectors:
                groups.append(m.class_selectors[class_name])
        lower_name = element.local_name.lower()
        if lower_name in m.lower_local_name_selectors:
            groups.append(m.lower_local_name_selectors[lower_name])
        if element.namespace_url in m.namespace_selectors:
            groups.append(m.namespace_selectors[element.namespace_url])
        if "lang" in element.etree_element.attrib:
            groups.append(m.lang_attr_selectors)
        groups.append(m.other_selectors)
        for group in groups:
            budget.left -= TEST_STEPS * len(group)
            if budget.left < 0:
                raise BudgetExceeded
            for test, specificity, order, pseudo, payload in group:
                if test(element):
                    found.append((specificity, order, pseudo, payload))
        found.sort()
        return found

    def match(self, wrapper) -> list[tuple[tuple, str, str, bool]]:
        """(priority, name, value, important) of the sheet declarations for an element."""
        out = []
        for specificity, order, _pseudo, rule in self._candidates(wrapper, wrapper.budget):
            layer = rule.layer
            for name, value, important in rule.declarations:
                # normal: unlayered above layered, later layers above earlier ones; !important
                # the other way round (CSS Cascading 5)
                if important:
                    key = (1, 0, -1 if layer is None else -layer - 2, specificity, rule.order)
                else:
                    key = (0, 0, 1 << 30 if layer is None else layer, specificity, rule.order)
                out.append((key, name, value, important))
        return out


#: Steps one selector test costs (a step: one ancestor or sibling walked, ~0.1 us).
TEST_STEPS = 10


class BudgetExceeded(Exception):
    pass


class Budget:
    __slots__ = ("left",)

    def __init__(self, steps: int) -> None:
        self.left = steps


class Wrapper(ElementWrapper):
    """cssselect2's element wrapper with ancestors and previous siblings walked lazily, each step
    counted against the page's budget (the stock wrapper keeps a tuple of all of them for every
    element: memory of depth times elements)."""

    budget: Budget = Budget(0)

    def _walk(self, step: str):
        """``self``'s chain of ``step`` ("parent" or "previous"), each element counted."""
        b = self.budget
        el = getattr(self, step)
        while el is not None:
            b.left -= 1
            if b.left < 0:
                raise BudgetExceeded
            yield el
            el = getattr(el, step)

    @property
    def ancestors(self):
        return self._walk("parent")

    @property
    def previous_siblings(self):
        return self._walk("previous")


# --- values ------------------------------------------------------------------------------------

_NAMED = {
    "white": (255, 255, 255), "black": (0, 0, 0), "silver": (192, 192, 192), "gray": (128, 128, 128),
    "grey": (128, 128, 128), "red": (255, 0, 0), "maroon": (128, 0, 0), "yellow": (255, 255, 0),
    "olive": (128, 128, 0), "lime": (0, 255, 0), "green": (0, 128, 0), "aqua": (0, 255, 255),
    "cyan": (0, 255, 255), "teal": (0, 128, 128), "blue": (0, 0, 255), "navy": (0, 0, 128),
    "fuchsia": (255, 0, 255), "magenta": (255, 0, 255), "purple": (128, 0, 128), "orange": (255, 165, 0),
    "snow": (255, 250, 250), "whitesmoke": (245, 245, 245), "ghostwhite": (248, 248, 255),
    "ivory": (255, 255, 240), "floralwhite": (255, 250, 240), "mintcream": (245, 255, 250),
    "azure": (240, 255, 255), "aliceblue": (240, 248, 255), "seashell": (255, 245, 238),
    "honeydew": (240, 255, 240), "lavenderblush": (255, 240, 245), "linen": (250, 240, 230),
    "oldlace": (253, 245, 230), "beige": (245, 245, 220), "gainsboro": (220, 220, 220),
    "lightgray": (211, 211, 211), "lightgrey": (211, 211, 211), "darkgray": (169, 169, 169),
    "darkgrey": (169, 169, 169), "dimgray": (105, 105, 105), "dimgrey": (105, 105, 105),
}
_HEX = re.compile(r"^#([0-9a-f]{3,8})$")
_FUNC = re.compile(r"^(rgba?|hsla?)\((.*)\)$")
Colour = tuple  # (r, g, b, alpha), alpha 0..1


def parse_colour(value: str) -> Colour | None:
    """An sRGB colour with alpha, or None when unknown (or currentcolor: the caller's)."""
    v = value.strip().lower()
    if v in _NAMED:
        return (*_NAMED[v], 1.0)
    if v == "transparent":
        return (0, 0, 0, 0.0)
    m = _HEX.match(v)
    if m:
        h = m.group(1)
        if len(h) in (3, 4):
            h = "".join(c * 2 for c in h)
        if len(h) not in (6, 8):
            return None
        a = int(h[6:8], 16) / 255 if len(h) == 8 else 1.0
        return (int(h[0:2], 16), int(h[2:4], 16), int(h[4:6], 16), a)
    m = _FUNC.match(v)
    if m:
        args = [a for a in re.split(r"[\s,/]+", m.group(2).strip()) if a]
        if len(args) < 3:
            return None
        try:
            alpha = 1.0
            if len(args) > 3:
                alpha = float(args[3][:-1]) / 100 if args[3].endswith("%") else float(args[3])
            if m.group(1).startswith("rgb"):
                rgb = [float(a[:-1]) * 2.55 if a.endswith("%") else float(a) for a in args[:3]]
            else:
                light = float(args[2].rstrip("%"))
                sat = float(args[1].rstrip("%"))
                grey = 255 * light / 100
                rgb = [grey if sat == 0 or light >= 100 or light <= 0 else -1.0] * 3
            return (*rgb, max(0.0, min(1.0, alpha)))
        except ValueError:
            return None
    return None


def is_whiteish(c: Colour | None) -> bool:
    return c is not None and c[3] > 0.5 and min(c[:3]) >= 245


def same_colour(a: Colour | None, b: Colour | None) -> bool:
    return a is not None and b is not None and a[3] > 0.5 and b[3] > 0.99 and \
        all(x >= 0 and y >= 0 and abs(x - y) <= 8 for x, y in zip(a[:3], b[:3]))


_FONT_KEYWORDS = {"xx-small": 9.0, "x-small": 10.0, "small": 13.0, "medium": 16.0, "large": 18.0,
                  "x-large": 24.0, "xx-large": 32.0, "xxx-large": 48.0}


def length(value: str, font: float, percent_of: float | None = None) -> float | None:
    """A length in CSS px (``font``: the element's font size, for em), or None."""
    m = _NUMBER_UNIT.match(value.strip())
    if not m:
        return None
    number, unit = float(m.group(1)), m.group(2)
    if not math.isfinite(number):
        return None
    if not unit:
        return number if number == 0 else None
    if unit == "%":
        return None if percent_of is None else number * percent_of / 100
    if unit in ("em",):
        return number * font
    if unit in ("ex", "ch"):
        return number * font / 2
    factor = _LENGTH_UNITS.get(unit)
    return None if factor is None else number * factor


def font_size(value: str, parent: float) -> float | None:
    """A computed font size in px, or None to keep the inherited one."""
    v = value.strip()
    if v in _FONT_KEYWORDS:
        return _FONT_KEYWORDS[v]
    if v == "smaller":
        return parent / 1.2
    if v == "larger":
        return parent * 1.2
    return length(v, parent, parent)


def font_shorthand_size(value: str, parent: float) -> float | None:
    """The size of a ``font`` shorthand (``font: 0/0 a`` hides text), or None."""
    for part in value.split(",")[0].split():
        token = part.split("/")[0]
        if not token:
            continue
        if token in _FONT_KEYWORDS or token in ("smaller", "larger"):
            return font_size(token, parent)
        m = _NUMBER_UNIT.match(token)
        if m and (m.group(2) or float(m.group(1)) == 0) and m.group(2) not in ("deg",):
            return font_size(token, parent)
    return None


def opacity(value: str) -> float | None:
    v = value.strip()
    try:
        return max(0.0, min(1.0, float(v[:-1]) / 100 if v.endswith("%") else float(v)))
    except ValueError:
        return None


_RECT = re.compile(r"^rect\((.*)\)$")


def clips_to_nothing(clip: str | None, clip_path: str | None, font: float) -> bool:
    """``clip: rect(0 0 0 0)`` or ``clip-path: inset(50%)``: the screen-reader-only pattern."""
    if clip:
        m = _RECT.match(clip.strip())
        if m:
            parts = [p for p in re.split(r"[\s,]+", m.group(1).strip()) if p]
            if len(parts) == 4:
                vals = [None if p == "auto" else length(p, font) for p in parts]
                top, right, bottom, left = vals
                if (right is not None and left is not None and right - left <= 1) or \
                        (bottom is not None and top is not None and bottom - top <= 1):
                    return True
    if clip_path:
        v = clip_path.strip()
        m = re.match(r"^inset\(\s*([\d.]+)%", v)
        if m and float(m.group(1)) >= 50:
            return True
        if re.match(r"^circle\(\s*0(?:px|%)?[\s)]", v):
            return True
    return False


BG_IMAGE = re.compile(r"url\(|gradient\(|image\(")


def background_colour(value: str) -> Colour | None:
    """The colour a ``background`` shorthand paints (an image counts as an unknown dark one)."""
    if BG_IMAGE.search(value):
        return (-1, -1, -1, 1.0)
    for token in re.findall(r"#[0-9a-f]+|(?:rgba?|hsla?)\([^)]*\)|[a-z]+", value):
        c = parse_colour(token)
        if c is not None:
            return c
    return None


# --- what of a sheet can matter on this page ---------------------------------------------------

_BRACES = re.compile(r"([{}])")
_COLOUR_VALUE = re.compile(r"color\s*:\s*([^;{}]*)", re.I)
_FONT_VALUE = re.compile(r"font(?:-size)?\s*:\s*([^;{}]*)", re.I)
_OFFSET_VALUE = re.compile(r"(?<![\w-])(?:left|top|text-indent|margin(?:-left|-top)?)\s*:\s*([^;{}]*-[^;{}]*)", re.I)
_ALWAYS = ("display", "visibility", "opacity", "clip", "clip-path", "content-visibility")
_GROUPS = {"font": ("font", "font-size"), "colour": ("color", "-webkit-text-fill-color"),
           "offset": ("position", "left", "top", "text-indent", "margin", "margin-left", "margin-top")}
_PARENS = re.compile(r"\([^()]*\)|\[[^\[\]]*\]")
_COMBINATOR_SPLIT = re.compile(r"\s*[\s>+~]\s*")
_CLASS = re.compile(r"\.((?:[\w-]|\\.)+)")
_ID = re.compile(r"#((?:[\w-]|\\.)+)")
_TAG_NAME = re.compile(r"^([a-zA-Z][\w-]*)")
_UNESCAPE = re.compile(r"\\(.)")


def without_comments(text: str) -> str:
    """``text`` with its ``/* ... */`` comments as spaces (an unclosed one runs to the end), in
    one pass."""
    out, at = [], 0
    while (i := text.find("/*", at)) >= 0:
        j = text.find("*/", i + 2)
        out.append(text[at:i])
        out.append(" ")
        if j < 0:
            return "".join(out)
        at = j + 2
    out.append(text[at:])
    return "".join(out)


def _tiny_font(value: str) -> bool:
    v = value.strip().lower()
    size = font_shorthand_size(v, ROOT_FONT)
    if size is None:
        return False
    m = re.search(r"(?<![\w.#-])([\d.]+)(r?em|%|ex|ch)", v)
    if m:  # relative to a font Sverka does not know yet: small enough to matter
        try:
            number = float(m.group(1))
        except ValueError:
            return False
        return number <= (10 if m.group(2) == "%" else 0.1)
    return size <= 4 / 3 + 1e-6


def _own_name(text: str, at: int) -> bool:
    """Whether the property name found at ``at`` is not the end of a longer one."""
    return at == 0 or not (text[at - 1].isalnum() or text[at - 1] in "-_")


def relevant_properties(sheets: list[str], white_hides: bool) -> frozenset[str]:
    """The properties whose declarations can change what the page draws: display, visibility,
    opacity, clip always; unicode-bidi and direction if a sheet overrides the direction of text;
    font sizes if a sheet sets a tiny one somewhere (a larger size inside
    undoes it), colours if one hides text (transparent, or white on a page of no background),
    positions and margins if one is far off the page."""
    text = "\n".join(sheets)
    props = set(_ALWAYS)
    if "clip" in text:  # clip applies to positioned boxes only
        props.add("position")
    if "-override" in text:  # text drawn right to left whatever its letters
        props.update(("unicode-bidi", "direction"))
    if any(_tiny_font(m.group(1)) for m in _FONT_VALUE.finditer(text) if _own_name(text, m.start())):
        props.update(_GROUPS["font"])
    for m in _COLOUR_VALUE.finditer(text):
        if not (_own_name(text, m.start()) or text.endswith("-webkit-text-fill-", 0, m.start())):
            continue  # background-color, border-color ...
        c = parse_colour(m.group(1).replace("!important", "").strip())
        if c is not None and (c[3] <= 0.01 or white_hides and is_whiteish(c)):
            props.update(_GROUPS["colour"])
            break
    for v in _OFFSET_VALUE.findall(text):
        if any((x := length(part, ROOT_FONT, VIEW_WIDTH)) is not None and x <= -999
               for part in v.replace("!important", " ").split()):
            props.update(_GROUPS["offset"])
            break
    return frozenset(props)


def _may_match(selector: str, keys: tuple[set, set, set]) -> bool:
    """Whether a selector names only classes, ids and tags that the page has, outside its
    functional pseudo-classes (every compound of a complex selector matches some element, so
    one that names what the page has not matches nothing)."""
    s = selector
    for _ in range(3):
        s2 = _PARENS.sub("", s)
        if s2 == s:
            break
        s = s2
    classes, ids, tags = keys
    for c in _CLASS.findall(s):
        if c not in classes and _UNESCAPE.sub(r"\1", c) not in classes:
            return False
    for i in _ID.findall(s):
        if i not in ids and _UNESCAPE.sub(r"\1", i) not in ids:
            return False
    for compound in _COMBINATOR_SPLIT.split(s.strip()):
        m = _TAG_NAME.match(compound)
        if m and m.group(1).lower() not in tags:
            return False
    return True


def _split_selectors(prelude: str) -> list[str]:
    if "(" not in prelude and "[" not in prelude:
        return prelude.split(",")
    out, depth, start = [], 0, 0
    for i, ch in enumerate(prelude):
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        elif ch == "," and depth <= 0:
            out.append(prelude[start:i])
            start = i + 1
    out.append(prelude[start:])
    return out


def reduce_sheet(css: str, props: frozenset[str], keys: tuple[set, set, set]) -> str:
    """The rules of ``css`` that can change what the page draws: those declaring one of
    ``props`` with a selector that may match an element of the page, with only those
    declarations; block at-rules (``@media`` ...) kept around them. One linear pass: the sheet
    is split at its braces, each innermost block is a rule."""
    parts = _BRACES.split(without_comments(css))  # text, brace, text, brace, ..., text
    out: list[str] = []
    i = 1
    n = len(parts)
    pending = parts[0]
    while i < n:
        brace = parts[i]
        if brace == "{" and i + 2 < n and parts[i + 2] == "}":  # a rule: prelude { body }
            prelude, body = pending, parts[i + 1]
            head, sep, selectors = prelude.rpartition(";")  # statements before it (@import ...;)
            if sep:
                out.append(head + sep)
            decls = kept_declarations(body, props)
            if decls and not selectors.lstrip().startswith("@"):
                kept = [s for s in _split_selectors(selectors) if _may_match(s, keys)]
                if kept:
                    out.append(",".join(kept) + "{" + ";".join(decls) + "}")
            pending = parts[i + 3] if i + 3 < n else ""
            i += 4
            continue
        out.append(pending + brace)
        pending = parts[i + 1] if i + 1 < n else ""
        i += 2
    out.append(pending)
    reduced = "".join(out)
    for _ in range(4):  # blocks left empty (@media of rules that matter not): nested, at most 4 deep
        shorter = _EMPTY_BLOCK.sub("", reduced)
        if len(shorter) == len(reduced):
            break
        reduced = shorter
    return reduced


_EMPTY_BLOCK = re.compile(r"@[^{};@]*\{\s*\}")
