"""Hostile input, round six: a copy hidden by default-ignorable code points that are no format
character (variation selectors, Khmer's invisible vowel: 0 % borrowed, no warning); a short text
in a Cyrillic single-byte code page read as Japanese or in the wrong Cyrillic page. Every input
is generated here."""

from __future__ import annotations

import pytest

from sverka.core import api
from sverka.core.extract.plain_text import decode_bytes

SOURCE = ("Татьяна Ларина — любимая героиня Пушкина. Ещё в детстве она отличалась от своих сверстниц: "
          "не играла с подругами, любила одиночество и природу. Её воспитание во многом определили "
          "французские романы, которые она читала с упоением.\n") * 3


def _every_fourth_letter(text: str, mark: str) -> str:
    """What the sweep did: ``mark`` after every 4th character that is a letter."""
    return "".join(c + mark if c.isalpha() and i % 4 == 0 else c for i, c in enumerate(text))


# -- characters drawn as nothing that are combining marks to Unicode ---------------------------

@pytest.mark.parametrize("mark", ["\ufe0f", "\ufe00", "\U000e0100", "\u17b4", "\u180b", "\u034f"])
def test_a_copy_with_variation_selectors_inside_its_words_is_found_and_warned_about(mark):
    """Variation selectors after Cyrillic letters show nothing; they were marks of the words, so
    every word differed from the source's: 0 % borrowed and no warning."""
    essay = _every_fourth_letter(SOURCE, mark)
    r = api.compare(api.document_from_text(essay, "essay"), api.document_from_text(SOURCE, "source"))
    assert r.borrowed_percent == 100.0
    assert [w.code for w in r.suspect.warnings] == ["warning.invisible_chars"]
    inside = sum(1 for i, c in enumerate(essay) if c == mark and essay[i + 1:i + 2].isalpha())  # a letter after
    assert r.suspect.warnings[0].kw["n"] == inside


def test_a_docx_with_variation_selectors_is_found(tmp_path):
    import docx

    d = docx.Document()
    for paragraph in _every_fourth_letter(SOURCE, "\ufe0f").splitlines():
        d.add_paragraph(paragraph)
    d.save(str(tmp_path / "essay.docx"))
    r = api.compare(api.load_document(tmp_path / "essay.docx"), api.document_from_text(SOURCE, "source"))
    assert r.borrowed_percent == 100.0 and [w.code for w in r.suspect.warnings] == ["warning.invisible_chars"]


def test_an_emoji_with_its_variation_selector_is_no_warning():
    """U+FE0F after a symbol (an emoji's presentation) is outside every word."""
    from sverka.core.text import canonize

    tokens = canonize("Отличная работа ❤\ufe0f, спасибо 👍\ufe0f! 1\ufe0f\u20e3", drop_stop_words=False)
    assert tokens.lemmas == ("отличный", "работа", "спасибо") and not tokens.warnings


def test_tampered_words_names_the_words_with_variation_selectors():
    text = "Мы вы\ufe0fшли из до\U000e0100му ра\u17b4но, кни\u200bга."
    assert [(text[a:b], kind) for a, b, kind in api.tampered_words(text)] == [
        ("вы\ufe0fшли", "invisible"), ("до\U000e0100му", "invisible"), ("ра\u17b4но", "invisible"),
        ("кни\u200bга", "invisible")]


# -- short Cyrillic texts in single-byte code pages --------------------------------------------

SHORT_CYRILLIC = [
    "Мороз и солнце; день чудесный!\n",  # KOI8-R: read as Shift-JIS half-width katakana
    "Ёлка стоит в углу. Ещё ёжик пришёл.\n",
    "Ещё ты дремлешь, друг прелестный —\nПора, красавица, проснись!\n",
    "Федеральное государственное бюджетное учреждение\n",  # CP1251 read as Mac Cyrillic
    "Доклад по истории\n",
    "Ученье — свет, а неученье — тьма.\n",  # Mac Cyrillic read as CP1251
    "Цель работы: изучить явление.\n",
    "Україна — європейська держава.\n",
    "Привет!\n",  # ISO-8859-5 read as CP866
    "ЖИЛИ-БЫЛИ ДЕД ДА БАБА.\n",
    "Юность\n",
]


@pytest.mark.parametrize("encoding", ["koi8_r", "cp1251", "cp866", "mac_cyrillic", "iso8859_5"])
@pytest.mark.parametrize("text", SHORT_CYRILLIC)
def test_a_short_cyrillic_text_is_read_in_its_code_page(text, encoding):
    try:
        data = text.encode(encoding)
    except UnicodeEncodeError:  # "Україна" has no KOI8-R, the dash no KOI8-R, CP866 or ISO-8859-5
        pytest.skip(f"{encoding} has no character of it")
    decoded = decode_bytes(data)
    assert decoded.text == text and not decoded.warnings


def test_a_koi8r_line_in_a_utf8_file_is_read_as_koi8r():
    utf8 = "Первая часть эссе написана в UTF-8 и содержит несколько предложений.\n"
    koi8 = "Мороз и солнце; день чудесный!\n"
    decoded = decode_bytes(utf8.encode() + koi8.encode("koi8_r") + utf8.encode())
    assert decoded.text == utf8 + koi8 + utf8 and decoded.encoding == "utf-8+koi8_r"
    assert [w.code for w in decoded.warnings] == ["warning.mixed_encodings"]


JAPANESE = ("吾輩は猫である。名前はまだ無い。どこで生れたかとんと見当がつかぬ。何でも薄暗いじめじめした所で"
            "ニャーニャー泣いていた事だけは記憶している。\n"
            "国境の長いトンネルを抜けると雪国であった。夜の底が白くなった。信号所に汽車が止まった。\n")


@pytest.mark.parametrize("encoding", ["shift_jis", "cp932", "euc_jp"])
def test_japanese_stays_japanese(encoding):
    """Real Japanese: two-byte characters, which a KOI8-R text never makes many of. (EUC-JP was
    read as CP866: charset-normalizer names it "euc_jis_2004".)"""
    decoded = decode_bytes(JAPANESE.encode(encoding))
    assert decoded.text == JAPANESE and not decoded.warnings


def test_japanese_with_half_width_katakana_stays_japanese():
    text = JAPANESE + "ﾃﾞｰﾀを保存しました。次の手順に進んでください。\n"
    assert decode_bytes(text.encode("shift_jis")).text == text


@pytest.mark.parametrize("text, encoding", [
    ("这是一个中文文本的测试，我们用它来检查编码检测是否正确。学生提交的作业可能使用各种编码。\n", "gbk"),
    ("這是一個中文文本的測試，我們用它來檢查編碼檢測是否正確。學生提交的作業可能使用各種編碼。\n", "big5"),
    ("이것은 한국어 텍스트의 시험입니다. 학생들이 제출한 과제는 여러 가지 인코딩을 사용할 수 있습니다.\n", "euc_kr"),
])
def test_chinese_and_korean_stay_what_they_are(text, encoding):
    assert decode_bytes(text.encode(encoding)).text == text


# -- text stored backwards and shown forwards by a right-to-left override ------------------------

def test_a_run_under_a_right_to_left_override_is_read_in_the_order_shown():
    from sverka.core.extract import undo_overrides

    shown = "Мороз и солнце; день чудесный!"
    text, n = undo_overrides("Начало. \u202e" + shown[::-1] + "\u202c Конец.")
    assert text == "Начало. " + shown + " Конец." and n == sum(c.isalpha() for c in shown)
    # a combining mark stays on its letter; the paragraph's end closes the override
    assert undo_overrides("\u202eки\u0306\nдальше")[0] == "и\u0306к\nдальше"
    # right-to-left letters (shown in their own order), nested controls, no letters: as they are
    for kept in ("abc \u202eשלום\u202c", "\u202eab\u202dcd\u202c\u202c", "\u202e12 34\u202c"):
        assert undo_overrides(kept) == (kept, 0)


@pytest.mark.parametrize("markup", [
    '<p>\u202e{r}\u202c</p>',
    '<p><bdo dir="rtl">{r}</bdo></p>',
    '<style>.r{{unicode-bidi:bidi-override;direction:rtl}}</style><p class="r">{r}</p>',
    '<p style="direction: rtl; unicode-bidi: bidi-override">{r}</p>',
    '<div dir="rtl"><span style="unicode-bidi: isolate-override">{r}</span></div>',
])
def test_a_page_that_shows_a_copy_forwards_from_its_letters_stored_backwards_is_checked_as_shown(tmp_path, markup):
    from sverka.core.extract import extract

    page = tmp_path / "page.html"
    line = SOURCE.splitlines()[0]
    page.write_text("<html><body>" + markup.format(r=line[::-1]) + "</body></html>", encoding="utf-8")
    doc = extract(page)
    assert doc.text.strip() == line
    assert any("reverse order" in str(w) for w in doc.warnings)
    r = api.compare(doc, api.document_from_text(SOURCE, "source"))
    assert r.borrowed_percent > 99


def test_a_right_to_left_paragraph_without_an_override_is_read_as_it_is(tmp_path):
    # dir="rtl" alone shows Cyrillic words in their own order: nothing to turn
    page = tmp_path / "page.html"
    line = SOURCE.splitlines()[0]
    page.write_text('<html><body><p dir="rtl">' + line + "</p></body></html>", encoding="utf-8")
    from sverka.core.extract import extract

    doc = extract(page)
    assert doc.text.strip() == line and not any("reverse order" in str(w) for w in doc.warnings)
