"""Web pages read as a desktop browser draws them: an HTML5 parser's tree and the page's own
CSS cascade. Each page here was opened in headless Chromium (1280 x 1600, JavaScript on); the
text it draws is what the test expects."""

from __future__ import annotations

import time

import pytest

from sverka.core.extract.html_text import decode_html, html_to_text_and_hidden, whatwg_encoding


def shown(page: str) -> str:
    return " ".join(html_to_text_and_hidden(page)[0].split())


def hidden_words(page: str) -> int:
    return sum(html_to_text_and_hidden(page)[2].values())


# -- a hidden raw-text element hides only itself -----------------------------------------------

@pytest.mark.parametrize("page, seen", [
    ('<body><iframe src="x" style="display:none"></iframe><p>Visible paragraph one two three.</p></body>',
     "Visible paragraph one two three."),
    ('<style>.h{display:none}</style><body><iframe class="h"></iframe><p>Visible words one two.</p></body>',
     "Visible words one two."),
    ('<body><noscript style="display:none"><img src=x></noscript><p>Visible words one two.</p></body>',
     "Visible words one two."),
    ('<body><script hidden>var a = "<p>";</script><p>Visible words one two.</p></body>', "Visible words one two."),
    ('<body><template style="visibility:hidden"><p>inert</p></template><p>Visible words one two.</p></body>',
     "Visible words one two."),
    ('<style>#f{visibility:hidden}</style><iframe id=f srcdoc="<p>frame</p>"></iframe><p>Visible words.</p>',
     "Visible words."),
    # a script-inserted iframe saved with the page, then the article
    ('<body><iframe name="__tcfapiLocator" style="display: none;"></iframe><article><h1>Title</h1>'
     '<p>Article text.</p></article></body>', "Title Article text."),
])
def test_a_hidden_raw_text_element_hides_only_itself(page, seen):
    assert shown(page) == seen


def test_noscript_text_is_not_shown_with_scripts_on():
    assert shown("<p>Before.</p><noscript><p>Enable JavaScript to read this.</p></noscript><p>After.</p>") == \
        "Before. After."


# -- the page's sheets with the cascade ----------------------------------------------------------

@pytest.mark.parametrize("page, seen", [
    # shown again by a later @media rule of a desktop screen
    ('<style>.nav{display:none} @media screen and (min-width:1024px){.nav{display:block}}</style>'
     '<ul class="nav"><li>Politics</li></ul>', "Politics"),
    # hidden only on a narrow screen
    ('<style>@media (max-width:600px){.side{display:none}}</style><div class="side">Related reading</div>',
     "Related reading"),
    # a more specific rule shows it again
    ('<style>.hide{display:none} .box .hide{display:block}</style><div class="box"><p class="hide">Shown</p></div>',
     "Shown"),
    # hidden in print only
    ('<style>@media print{.screen-only{display:none}}</style><p class="screen-only">On screen</p>', "On screen"),
    # a later rule of the same specificity wins; !important beats a later one and an inline style
    ('<style>.a{display:none} .a{display:block}</style><p class=a>Later wins</p>', "Later wins"),
    ('<style>.a{display:block!important} .a{display:none}</style><p class=a>Important wins</p>', "Important wins"),
    ('<style>.a{display:block!important}</style><p class=a style="display:none">Over inline</p>', "Over inline"),
    # unlayered rules beat layered ones
    ('<style>.a{display:block} @layer base{.a{display:none}}</style><p class=a>Unlayered</p>', "Unlayered"),
    # @supports of what Chromium supports
    ('<style>.a{display:none} @supports (display:grid){.a{display:block}}</style><p class=a>Supported</p>',
     "Supported"),
    # visibility inherited, shown again by a descendant
    ('<style>.v{visibility:hidden} .v b{visibility:visible}</style><p class=v>gone <b>Back</b></p>', "Back"),
])
def test_the_cascade_decides_what_is_shown(page, seen):
    assert shown(page) == seen


@pytest.mark.parametrize("page, seen", [
    # hidden by compound, child, attribute and :not() selectors
    ('<style>nav ul.menu > li{display:none}</style><nav><ul class="menu"><li>Home</li></ul></nav><p>Text.</p>',
     "Text."),
    ('<style>[aria-hidden="true"].x{display:none}</style><div class=x aria-hidden=true>Menu</div><p>Text.</p>',
     "Text."),
    ('<style>div:not(.keep){display:none}</style><div>Menu</div><div class=keep>Text.</div>', "Text."),
    ('<style>@media screen and (min-width: 768px){.desktop-hide{display:none}}</style>'
     '<div class=desktop-hide>Mobile menu</div><p>Text.</p>', "Text."),
    ('<style>.a + .b{visibility:hidden}</style><p class=a>Text.</p><p class=b>Menu</p>', "Text."),
])
def test_menus_hidden_by_the_page_are_not_read(page, seen):
    assert shown(page) == seen and hidden_words(page) >= 1


def test_media_queries_are_evaluated_for_a_desktop_screen():
    from sverka.core.extract.html_css import media_matches

    for query in ("", "all", "screen", "only screen and (min-width: 1024px)", "(min-width: 80em)",
                  "(max-width: 1280px)", "(orientation: portrait)", "(width >= 1000px)",
                  "(400px <= width <= 1300px)", "print, screen", "not print", "(hover: hover)",
                  "(prefers-color-scheme: light)", "screen and (-webkit-min-device-pixel-ratio: 1)"):
        assert media_matches(query), query
    for query in ("print", "speech", "(max-width: 767px)", "screen and (max-width:1024px)", "(min-width: 1400px)",
                  "not screen", "(orientation: landscape)", "(prefers-color-scheme: dark)", "tv",
                  "(min-resolution: 2dppx)", "(unknown-feature)"):
        assert not media_matches(query), query


# -- what is drawn -------------------------------------------------------------------------------

@pytest.mark.parametrize("page", [
    '<p style="opacity:0">Hidden words here.</p>',
    '<p style="opacity:0.005">Hidden words here.</p>',
    '<div style="opacity:0.05"><p style="opacity:0.1">Hidden words here.</p></div>',  # 0.005 drawn
    '<style>.s{font-size:0.5pt}</style><p class=s>Hidden words here.</p>',
    '<div style="font-size:2px"><p style="font-size:50%">Hidden words here.</p></div>',
    '<div style="font-size:1px"><p style="font-size:1em">Hidden words here.</p></div>',
    '<p style="font: 0/0 a">Hidden words here.</p>',
    '<p style="color:transparent">Hidden words here.</p>',
    '<p style="color:rgba(0,0,0,0)">Hidden words here.</p>',
    '<style>.w{color:#fff}</style><p class=w>Hidden words here.</p>',
    '<p style="position:absolute;top:-5000px">Hidden words here.</p>',
    '<style>.o{position:absolute;left:-999em}</style><p class=o>Hidden words here.</p>',
    '<style>.sr-only{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0,0,0,0)}</style>'
    '<span class=sr-only>Hidden words here.</span>',
    '<span style="position:absolute;clip:rect(1px, 1px, 1px, 1px)">Hidden words here.</span>',
    '<span style="clip-path: inset(50%)">Hidden words here.</span>',
    '<div hidden><p>Hidden words here.</p></div>',
    '<style>.h{display:none}</style><div class="x h y"><p>Hidden words here.</p></div>',
    '<p style="content-visibility:hidden">Hidden words here.</p>',
])
def test_text_no_one_sees_is_left_out_and_counted(page):
    text, _, hidden = html_to_text_and_hidden(page + "<p>Visible.</p>")
    assert " ".join(text.split()) == "Visible." and sum(hidden.values()) == 3, (text, hidden)


@pytest.mark.parametrize("page", [
    '<p style="opacity:0.5">Seen words here.</p>',
    '<div style="font-size:0"><p style="font-size:14px">Seen words here.</p></div>',
    '<div style="font-size:1px"><p style="font-size:1rem">Seen words here.</p></div>',
    '<p style="color:#fff; background:#333">Seen words here.</p>',
    '<p style="clip:rect(0 0 0 0)">Seen words here.</p>',  # clip applies to positioned boxes only
    '<p style="position:absolute;left:-20px">Seen words here.</p>',
    '<div hidden style="display:block">Seen words here.</div>',  # the author's display wins
    '<style>.x{display:none}</style><p class="xx">Seen words here.</p>',
    '<details><summary>Seen</summary>words here.</details>',
])
def test_text_a_person_sees_is_read(page):
    assert " ".join(html_to_text_and_hidden(page)[0].split()) == "Seen words here."


def test_inline_svg_and_math_are_read_as_drawn():
    page = ('<p>Start.</p><svg><defs><text>defined</text></defs><title>tooltip</title><text>Label</text>'
            '<foreignObject><p>Inside</p></foreignObject></svg><math><mi>x</mi><mo>=</mo><mn>2</mn>'
            '<annotation>source</annotation></math>')
    assert shown(page) == "Start. Label Inside x = 2"


def test_select_lists_and_form_text():
    assert shown("<p>Name: <input value='typed'> <button>Send</button></p>") == "Name: Send"


# -- hostile input stays linear ------------------------------------------------------------------

@pytest.mark.parametrize("unit", ["<div>", "<span></x>", "<a><div>", "<ul><li>", "<dl><dd>", "<b><div>",
                                  "<div hidden>", "<span>"])
def test_nesting_an_html5_tree_builder_walks_is_bounded(unit):
    n = 200_000 // len(unit) * 2
    page = "<p>Start.</p>" + unit * n + "x" + "<p>End.</p>"
    t = time.monotonic()
    text, _, _ = html_to_text_and_hidden(page)
    assert time.monotonic() - t < 10
    assert text.split()[0] == "Start." and ("End." in text or unit == "<div hidden>")


def test_a_tag_of_a_hundred_thousand_attributes_is_read_in_linear_time():
    page = "<p " + " ".join(f"a{i}=1" for i in range(100_000)) + " style='display:none'>hidden</p><p>Shown.</p>"
    t = time.monotonic()
    text, _, hidden = html_to_text_and_hidden(page)
    assert time.monotonic() - t < 10 and text.strip() == "Shown." and sum(hidden.values()) == 1


def test_selectors_on_wide_and_deep_pages_stay_within_their_budget():
    rules = "".join(f".c{i} ~ .c{i + 1}:nth-last-of-type(2n) p{{display:none}} " for i in range(300))
    page = f"<style>{rules} div div div p {{visibility:hidden}}</style>" + "<p class=c1>w</p>" * 30_000 + \
        "<div>" * 400 + "<p>deep</p>" + "</div>" * 400 + "<p>End.</p>"
    t = time.monotonic()
    text, _, _ = html_to_text_and_hidden(page)
    assert time.monotonic() - t < 10 and text.split()[-1] == "End."


# -- encodings by the WHATWG label table -------------------------------------------------------

def test_gb2312_is_decoded_as_gbk_as_browsers_do():
    words = "中文网页内容，包括扩展字符：镕"  # 镕 is in GBK, not in GB2312
    data = f'<html><head><meta charset="gb2312"></head><body><p>{words}</p></body></html>'.encode("gbk")
    text, encoding, warnings = decode_html(data)
    assert words in text and not warnings and encoding == "gb18030"


@pytest.mark.parametrize("label, codec", [
    ("iso-8859-1", "cp1252"), ("latin1", "cp1252"), ("ascii", "cp1252"), ("US-ASCII", "cp1252"),
    ("gb2312", "gb18030"), ("GBK", "gb18030"), ("x-gbk", "gb18030"), ("windows-1251", "cp1251"),
    ("cp1251", "cp1251"), ("koi8-r", "koi8-r"), ("shift_jis", "cp932"), ("iso-8859-9", "cp1254"),
    ("tis-620", "cp874"), ("big5", "big5hkscs"), ("euc-kr", "cp949"), ("utf8", "utf-8"),
    ("rot13", None), ("base64", None), ("x-user-defined", None),
])
def test_encoding_labels_are_read_with_the_whatwg_table(label, codec):
    assert whatwg_encoding(label) == codec


def test_latin1_page_reads_windows_1252_quotes():
    data = b'<meta charset="iso-8859-1"><p>\x93Quoted\x94 \x96 dash</p>'
    text, encoding, _ = decode_html(data)
    assert "\u201cQuoted\u201d \u2013 dash" in text and encoding == "cp1252"
