"""Hostile input, round four: a report never replaces what the command reads, document numbers
in ASCII digits only, a full disk on standard output, a cross-check's count of what it read,
linear style sheets, and text files, HTML and escapes that were refused or hid text for no
reason. Every input is generated here."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from sverka.core import api
from test_hidden_visible import make_docx, p, r  # noqa: E402
from test_hostile_round2 import _bounded, _pdf, _stream  # noqa: E402  (the 10 s limit; a PDF writer)

SVERKA = Path(sys.executable).with_name("sverka")
ESSAY = "Это обычный текст сочинения для проверки, в нём несколько честных предложений подряд."


def sverka(*args: str, rc: int | None = None, locale: str = "C.UTF-8", env: dict | None = None) -> subprocess.CompletedProcess:
    out = subprocess.run([str(SVERKA), *args], capture_output=True, text=True, encoding="utf-8", timeout=300,
                         env={**os.environ, "LANG": locale, "LC_ALL": locale, **(env or {})})
    assert "Traceback" not in out.stderr, out.stderr
    if rc is not None:
        assert out.returncode == rc, (out.returncode, out.stdout[-1000:], out.stderr[-1000:])
    return out


@pytest.fixture
def collection(tmp_path) -> tuple[Path, Path]:
    essay = tmp_path / "essay.txt"
    essay.write_text(ESSAY, encoding="utf-8")
    db = tmp_path / "class.sverka"
    sverka("index", "--db", str(db), str(essay), rc=0)
    return db, essay


# -- the command line -------------------------------------------------------------------------

needs_cli = pytest.mark.skipif(not SVERKA.exists(), reason=f"console script not installed at {SVERKA}")


@needs_cli
def test_a_report_never_replaces_the_collection_or_a_document_read(collection, tmp_path):
    db, essay = collection
    before = db.read_bytes()
    out = sverka("check", "--defaults", "--db", str(db), str(essay), "--html", str(db), rc=2)
    assert "replace the collection" in out.stderr and str(db) in out.stderr
    assert db.read_bytes() == before
    assert "essay.txt" in sverka("list", "--db", str(db), rc=0).stdout
    out = sverka("check", "--defaults", "--db", str(db), str(essay), "--html", str(db), "--lang", "ru", rc=2)
    assert "отчёт заменил бы коллекцию" in out.stderr
    copy = tmp_path / "copy.txt"
    copy.write_text(ESSAY, encoding="utf-8")
    for args in (["compare", str(essay), str(copy), "--html", str(copy)],
                 ["crosscheck", str(essay), str(copy), "--html", str(essay)],
                 ["check", "--defaults", "--db", str(db), str(copy), "--template", str(essay), "--html", str(essay)]):
        out = sverka(*args, rc=2)
        assert "replace a document it reads" in out.stderr, args
    assert essay.read_text(encoding="utf-8") == ESSAY and copy.read_text(encoding="utf-8") == ESSAY
    # a report elsewhere is written, and written again over the earlier report
    report = tmp_path / "report.html"
    for _ in range(2):
        sverka("check", "--defaults", "--db", str(db), str(essay), "--html", str(report), rc=0)
    assert report.read_text(encoding="utf-8").lstrip().lower().startswith("<!doctype html")


@needs_cli
@pytest.mark.parametrize("item", ["²", "١", "99999999999999999999999", "1x", "+1"])
def test_remove_takes_a_document_number_in_ascii_digits_only(collection, item):
    db, _ = collection
    out = sverka("remove", "--db", str(db), item, rc=1)
    assert "removed 0" in out.stdout and "not in the collection" in out.stderr
    assert "essay.txt" in sverka("list", "--db", str(db), rc=0).stdout
    assert "removed 1" in sverka("remove", "--db", str(db), "1", rc=0).stdout


@needs_cli
@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full")
@pytest.mark.parametrize("command", [["extract", "{essay}"], ["list", "--db", "{db}"], ["check", "--db", "{db}",
                                     "--json", "{essay}"]])
def test_a_full_disk_on_standard_output_is_an_error_not_a_traceback(collection, command):
    db, essay = collection
    args = [a.format(db=db, essay=essay) for a in command]
    with open("/dev/full", "w") as full:
        out = subprocess.run([str(SVERKA), *args], stdout=full, stderr=subprocess.PIPE, text=True, timeout=300)
    assert out.returncode == 1 and "Traceback" not in out.stderr
    assert "cannot write the output" in out.stderr


@needs_cli
def test_a_cross_check_counts_the_documents_it_read(tmp_path):
    bad = [tmp_path / "a.docx", tmp_path / "b.rtf"]
    bad[0].write_bytes(b"PK\x03\x04 not a zip")
    bad[1].write_bytes(b"{\\rtf1 {{{{")
    out = sverka("crosscheck", *map(str, bad), rc=1)
    assert out.stdout.startswith("0 documents compared") and "2 files could not be read" in out.stdout
    good = tmp_path / "c.txt"
    good.write_text(ESSAY, encoding="utf-8")
    out = sverka("crosscheck", *map(str, bad), str(good), "--lang", "ru", rc=1)
    assert out.stdout.startswith("сравнено 1 документ:") and "2 файла прочитать не удалось" in out.stdout


@needs_cli
def test_the_command_lines_words_are_russian_in_a_russian_locale(collection, tmp_path):
    db, essay = collection
    ru = "ru_RU.UTF-8"
    copy = tmp_path / "copy.txt"
    copy.write_text(ESSAY, encoding="utf-8")
    out = sverka("index", "--db", str(db), str(copy), str(tmp_path / "nothing.txt"), rc=1, locale=ru)
    assert "нет такого файла или папки" in out.stderr
    assert out.stdout.startswith("повтор: ") and "добавлено 0, обновлено 0, без изменений 0, повторов 1" in out.stdout
    assert "1 документ" in out.stdout
    out = sverka("list", "--db", str(db), rc=0, locale=ru)
    assert " 12 слов " in out.stdout and out.stderr.strip() == "1 документ"
    out = sverka("remove", "--db", str(db), "7", rc=1, locale=ru)
    assert out.stdout.strip() == "удалено: 0" and "7: нет в коллекции" in out.stderr
    out = sverka("check", "--defaults", "--db", str(db), str(essay), str(tmp_path / "nothing.txt"), "--lang", "ru",
                 rc=1)
    assert "настройки: по умолчанию Сверки (--defaults)" in out.stderr and "файла не существует" in out.stderr
    assert "12 слов" in out.stdout and "знаков" in out.stdout


# -- reading --------------------------------------------------------------------------------------


def test_style_rules_are_read_in_linear_time():
    from sverka.core.extract.html_text import html_to_text

    page = "<style>/* " + "a" * 1_000_000 + " */ .h{display:none}</style><p class=h>скрыто</p><p>видно</p>"
    text, _ = _bounded(html_to_text, page)
    assert text.split() == ["видно"]


@pytest.mark.parametrize("name, first_line", [
    ("essay.txt", "Заголовок файла PDF всегда начинается со строки %PDF-1.7, за ней идёт комментарий."),
    ("essay.html", "<p>Файл PDF начинается с %PDF-1.7.</p>"),
    ("dos.txt", "MZ-формат исполняемых файлов DOS назван по инициалам Марка Збиковски."),
    ("gif.md", "GIF89a — версия формата, о которой идёт речь в этой главе."),
    ("ps.txt", "%!PS — так начинается программа на PostScript, разобранная в этой работе."),
])
def test_a_text_file_quoting_a_signature_is_read_as_text(tmp_path, name, first_line):
    path = tmp_path / name
    path.write_text(first_line + "\n" + ESSAY * 5, encoding="utf-8")
    assert "честных предложений" in api.load_document(path).text


def test_files_of_those_formats_named_as_text_are_still_not_text(tmp_path):
    from sverka.core.extract import ExtractError

    gif = tmp_path / "picture.txt"
    gif.write_bytes(b"GIF89a\x10\x00\x10\x00\x80\x00\x00" + bytes(range(64)))
    exe = tmp_path / "program.txt"
    exe.write_bytes(b"MZ\x90\x00\x03\x00\x00\x00" + bytes(64))
    for path in (gif, exe):
        with pytest.raises(ExtractError):
            api.load_document(path)


@pytest.mark.parametrize("label", ["rot13", "base64", "zlib", "idna"])
def test_an_html_charset_that_is_no_text_encoding_is_ignored_as_browsers_do(tmp_path, label):
    path = tmp_path / "page.html"
    path.write_bytes(f'<html><head><meta charset="{label}"></head><body><p>{ESSAY}</p></body></html>'.encode())
    assert ESSAY in api.load_document(path).text


def test_an_escape_of_no_character_costs_one_character_not_the_document(tmp_path):
    rtf = tmp_path / "essay.rtf"
    rtf.write_bytes(b"{\\rtf1 \\u99999999? \\u1090?\\u1077?\\u1082?\\u1089?\\u1090? text of the essay}")
    text = api.load_document(rtf).text
    assert "текст" in text and "text of the essay" in text and "\ufffd" in text
    docx = make_docx(tmp_path / "essay.docx", p(r("The essay goes on "), '<w:r><w:sym w:char="FFFFFFFF"/></w:r>',
                                              r("after a symbol of no character.")))
    assert "after a symbol of no character" in api.load_document(docx).text


def test_html_that_a_browser_shows_out_of_svg_or_in_math_is_read(tmp_path):
    from sverka.core.extract.html_text import html_to_text

    text, _ = html_to_text('<p>Начало.</p><svg width="0" height="0"><p>Заимствованный абзац остаётся виден.</p>'
                           '</svg><p>Конец.</p>')
    assert text.split("\n") == ["Начало.", "Заимствованный абзац остаётся виден.", "Конец."]
    text, _ = html_to_text('<svg><text>подпись рисунка</text><rect/>невидимо</svg>')
    assert text.strip() == "подпись рисунка"
    text, _ = html_to_text('<p>Начало.</p><math><mtext>Заимствованный абзац в формуле.</mtext>'
                           '<annotation encoding="TeX">\\text{исходник}</annotation></math>')
    assert "Заимствованный абзац в формуле." in text and "исходник" not in text


@pytest.mark.parametrize("style", ["font-size:0.1px", "font-size: 1pt", "position:absolute; left:-99999px",
                                   "text-indent:-9999px", "margin-top: -5000px"])
def test_text_of_a_tiny_font_or_placed_off_the_page_is_hidden(style):
    from sverka.core.extract.html_text import html_to_text_and_hidden

    text, _, hidden = html_to_text_and_hidden(f'<p style="{style}">Скрытый абзац из чужой работы.</p><p>Видимый.</p>')
    assert text.strip() == "Видимый." and sum(hidden.values()) == 5


@pytest.mark.parametrize("style", ["font-size:10px", "font-size:11pt", "left:-50px", "padding-left:-2000px",
                                   "top:1000px"])
def test_ordinary_sizes_and_places_are_read(style):
    from sverka.core.extract.html_text import html_to_text_and_hidden

    text, _, hidden = html_to_text_and_hidden(f'<p style="{style}">Обычный абзац.</p>')
    assert text.strip() == "Обычный абзац." and not hidden


def test_a_class_hidden_inside_body_is_hidden():
    from sverka.core.extract.html_text import html_to_text_and_hidden

    page = ("<style>body .h{display:none} html > body #g {visibility:hidden} div .k{display:none}</style>"
            "<p class=h>один два</p><p id=g>три</p><p class=k>четыре</p>")
    text, _, hidden = html_to_text_and_hidden(page)
    assert text.split() == ["четыре"] and hidden == {"hidden by the page's styles": 3}


RTF_HEAD = r"{\rtf1\ansi{\fonttbl{\f0 Arial;}}{\colortbl;\red255\green255\blue255;\red0\green0\blue0;}\f0\fs24 "
VISIBLE = "This visible sentence is ordinary text for the check. "
SECRET = "Secret words copied from a source nobody should see here. "


@pytest.mark.parametrize("group, reason", [
    (r"{\cf1 " + SECRET + "}", "white text"),
    (r"{\fs1 " + SECRET + "}", "text of 1 pt or less"),
    (r"{\v " + SECRET + "}", "hidden formatting"),
    (r"{\deleted " + SECRET + "}", None),  # a tracked deletion: not read, not hidden text
    (r"{\bin" + str(len(SECRET)) + " " + SECRET + "}", None),  # binary data
    (r"\cf1 " + SECRET + r"\plain\f0\fs24 ", "white text"),  # \plain ends it
])
def test_rtf_text_a_reader_does_not_see_is_left_out(tmp_path, group, reason):
    from sverka.core.extract.rtf_text import _prepass

    path = tmp_path / "essay.rtf"
    path.write_text(RTF_HEAD + VISIBLE + group + VISIBLE + r"\par}", encoding="latin-1")
    doc = api.load_document(path)
    assert "Secret" not in doc.text and doc.text.count("visible sentence") == 2
    _, hidden = _prepass((RTF_HEAD + VISIBLE + group + VISIBLE + r"\par}"))
    assert hidden == ({reason: 10} if reason else {})


def test_rtf_white_text_on_a_colour_and_ordinary_sizes_are_read(tmp_path):
    path = tmp_path / "essay.rtf"
    path.write_text(RTF_HEAD + VISIBLE + r"{\cf1\highlight2 " + SECRET + r"}{\fs20 " + SECRET + r"}{\cf2 " + SECRET
                    + r"}\par}", encoding="latin-1")
    assert api.load_document(path).text.count("Secret") == 3


def test_a_docx_part_in_utf16_declaring_a_dtd_is_refused_as_in_utf8(tmp_path):
    import zipfile

    from sverka.core.extract import ExtractError

    path = make_docx(tmp_path / "essay.docx", p(r("Начало")))
    with zipfile.ZipFile(path) as zf:
        parts = {n: zf.read(n) for n in zf.namelist()}
    prolog = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
    xml = parts["word/document.xml"].decode("utf-8").replace(
        prolog, '<?xml version="1.0" encoding="UTF-16"?><!DOCTYPE w:document [<!ENTITY x "y">]>')
    parts["word/document.xml"] = b"\xff\xfe" + xml.encode("utf-16-le")
    with zipfile.ZipFile(path, "w") as zf:
        for name, data in parts.items():
            zf.writestr(name, data)
    with pytest.raises(ExtractError, match="DTD"):
        api.load_document(path)


def test_a_text_of_two_files_in_two_encodings_is_read_line_by_line():
    from sverka.core.extract.plain_text import decode_bytes

    first = "Это обычный русский текст, написанный студентом для проверки.\n" * 3
    second = "Второй файл был сохранён в другой кодировке и приклеен к первому.\n" * 10
    for data in ((first.encode() + second.encode("cp1251")), (second.encode("cp1251") + first.encode())):
        decoded = decode_bytes(data)
        assert decoded.text == (first + second if data.startswith(first.encode()) else second + first)
        assert [w.code for w in decoded.warnings] == ["warning.mixed_encodings"]
    # one encoding alone: as before, no warning
    assert decode_bytes(second.encode("cp1251")).text == second
    assert decode_bytes(second.encode("koi8_r")).text == second
    assert not decode_bytes(second.encode("cp1251")).warnings



@needs_cli
def test_a_link_round_in_a_circle_or_to_nothing_is_named_as_such(tmp_path):
    (tmp_path / "a.txt").symlink_to(tmp_path / "b.txt")
    (tmp_path / "b.txt").symlink_to(tmp_path / "a.txt")
    (tmp_path / "c.txt").symlink_to(tmp_path / "nowhere.txt")
    assert "leads round in a circle" in sverka("extract", str(tmp_path / "a.txt"), rc=1).stderr
    assert "a broken link" in sverka("extract", str(tmp_path / "c.txt"), rc=1).stderr


@pytest.mark.parametrize("content", ["\u0301\u0301\u0301", "\u200b\u200b \u2003 ... !!", "— « » —"])
def test_a_file_of_no_words_is_refused_as_empty_not_checked_as_original(tmp_path, content):
    from sverka.core.errors import EmptyDocument

    path = tmp_path / "marks.txt"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(EmptyDocument, match="no words"):
        api.load_document(path)



PDF_VISIBLE = "This visible sentence is ordinary text written for the check."
PDF_SECRET = "Secret hidden words copied from a source nobody should see."


def _text(t: str, x: int = 72, y: int = 700, pre: str = "") -> str:
    return f"BT /F1 12 Tf {pre} {x} {y} Td ({t}) Tj ET\n"


def _page_pdf(path: Path, content: str, xobjects: list[tuple[str, bytes]] = ()) -> Path:
    """One page (612 x 792) with Helvetica as /F1; ``xobjects``: (name, object body) from object 6 on."""
    names = " ".join(f"/{n} {6 + k} 0 R" for k, (n, _) in enumerate(xobjects))
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>", b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
               b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> "
               + f"/XObject << {names} >> >> /Contents 5 0 R >>".encode(),
               b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>", _stream(content.encode("latin-1"))]
    return _pdf(path, objects + [body for _, body in xobjects])


def _form(content: str, resources: str = "/Font << /F1 4 0 R >>") -> bytes:
    return _stream(content.encode("latin-1"), f"/Type /XObject /Subtype /Form /BBox [0 0 612 792] "
                                              f"/Resources << {resources} >> ".encode())


@pytest.mark.parametrize("case", ["dot", "tiny image", "deep forms", "off page"])
def test_pdf_text_hidden_past_the_old_rules_is_left_out(tmp_path, case):
    white = "1 1 1 rg " + _text(PDF_SECRET, y=600)
    if case == "dot":  # a coloured dot elsewhere used to make every white glyph count as visible
        path = _page_pdf(tmp_path / "p.pdf", _text(PDF_VISIBLE) + "1 0 0 rg 0 0 0.1 0.1 re f " + white)
    elif case == "tiny image":  # render mode 3 on a page with a 1-pixel image: no scan under it
        image = _stream(b"\xff\xff\xff", b"/Type /XObject /Subtype /Image /Width 1 /Height 1 "
                                        b"/ColorSpace /DeviceRGB /BitsPerComponent 8 ")
        path = _page_pdf(tmp_path / "p.pdf", _text(PDF_VISIBLE) + _text(PDF_SECRET, y=600, pre="3 Tr")
                         + "q 0.01 0 0 0.01 0 0 cm /Im Do Q\n", [("Im", image)])
    elif case == "deep forms":  # white text five forms deep (the walk stopped at four)
        forms = [("X", _form("/X Do", f"/XObject << /X {7 + k} 0 R >>")) for k in range(5)] + [("Y", _form(white))]
        path = _page_pdf(tmp_path / "p.pdf", _text(PDF_VISIBLE) + "/X Do\n", forms)
    else:  # off the page, on a page that also has a white glyph (read another way then)
        path = _page_pdf(tmp_path / "p.pdf", _text(PDF_VISIBLE) + _text(PDF_SECRET, x=5000, y=5000)
                         + "1 1 1 rg " + _text("w", y=100))
    text = api.load_document(path).text
    assert "visible sentence" in text and "Secret" not in text


def test_pdf_white_text_on_a_coloured_shape_and_a_scan_text_layer_are_read(tmp_path):
    on_dark = _page_pdf(tmp_path / "dark.pdf", _text(PDF_VISIBLE) + "0 0 0.3 rg 60 590 480 30 re f "
                        + "1 1 1 rg " + _text(PDF_SECRET, y=600))
    assert "Secret" in api.load_document(on_dark).text
    scan = _stream(b"\x80" * 3, b"/Type /XObject /Subtype /Image /Width 1 /Height 1 "
                                b"/ColorSpace /DeviceRGB /BitsPerComponent 8 ")
    ocr = _page_pdf(tmp_path / "ocr.pdf", "q 612 0 0 792 0 0 cm /Im Do Q\n" + _text(PDF_VISIBLE, pre="3 Tr"),
                    [("Im", scan)])
    assert "visible sentence" in api.load_document(ocr).text


def test_a_pdf_page_past_the_hidden_text_budget_is_named_in_a_warning(tmp_path):
    from sverka.core.extract.pdf_text import MAX_OBJECTS_LOOKED_AT

    filler = "0 0 0 rg 1 1 1 1 re f\n" * (MAX_OBJECTS_LOOKED_AT + 1)
    doc = api.load_document(_page_pdf(tmp_path / "big.pdf", _text(PDF_VISIBLE) + filler))
    assert [w.code for w in doc.warnings if w.code == "warning.pdf_hidden_unchecked"]
    doc = api.load_document(_page_pdf(tmp_path / "small.pdf", _text(PDF_VISIBLE) + "0 0 0 rg 1 1 1 1 re f\n" * 10))
    assert not [w for w in doc.warnings if w.code == "warning.pdf_hidden_unchecked"]



def test_an_xml_part_too_large_to_parse_is_refused_before_parsing(tmp_path, monkeypatch):
    """A document.xml padded past the compression-ratio check (an incompressible comment) took
    2 GB to parse and was refused as "XMLSyntaxError: unknown error"; a part over the limit is
    refused for its size first."""
    from sverka.core.errors import TooLarge
    from sverka.core.extract import safety
    from sverka.core.extract.docx_text import extract_docx

    path = make_docx(tmp_path / "essay.docx", p(r("Начало.")) + "<!-- " + "x" * 4000 + " -->")
    monkeypatch.setattr(safety, "MAX_XML_PART_BYTES", 2000)
    with pytest.raises(TooLarge, match="word/document.xml.*more than"):
        extract_docx(path)
    monkeypatch.setattr(safety, "MAX_XML_PART_BYTES", 96 << 20)
    assert "Начало." in extract_docx(path)[0]



@pytest.mark.parametrize("page, seen", [
    ('<p style="color:#fff">Скрытый абзац из чужой работы.</p><p>Видимый.</p>', "Видимый."),
    ("<style>.w{color: white}</style><p class=w>Скрытый абзац из чужой работы.</p><p>Видимый.</p>", "Видимый."),
    ('<font color="#FFFFFF">Скрытый абзац из чужой работы.</font><p>Видимый.</p>', "Видимый."),
    # a page that sets a background keeps its white text: it may stand on it
    ('<body style="background:#222"><p style="color:#fff">Белый на тёмном.</p></body>', "Белый на тёмном."),
    ('<style>.w{color:white} .b{background-color:navy}</style><div class=b><p class=w>Белый на синем.</p></div>',
     "Белый на синем."),
    ('<body bgcolor="black"><p style="color:white">Белый на чёрном.</p></body>', "Белый на чёрном."),
])
def test_white_text_on_a_page_of_no_background_is_hidden(page, seen):
    from sverka.core.extract.html_text import html_to_text_and_hidden

    text, _, hidden = html_to_text_and_hidden(page)
    assert text.strip() == seen
    assert bool(hidden) == (seen == "Видимый.")



def test_index_stopped_by_a_full_disk_says_what_it_kept(tmp_path, monkeypatch, capsys):
    from sverka.core import cli
    from sverka.core.errors import CollectionError

    folder = tmp_path / "essays"
    folder.mkdir()
    for k in range(3):
        (folder / f"e{k}.txt").write_text(f"Сочинение номер {k}: " + ESSAY, encoding="utf-8")
    real_add = api.Collection.add

    def add_then_fail(self, paths, **kw):  # the first batch lands, the disk fills during the next
        real_add(self, [str(folder / "e0.txt"), str(folder / "e1.txt")])
        raise CollectionError("the disk is full: cannot write to the collection")

    monkeypatch.setattr(api.Collection, "add", add_then_fail)
    monkeypatch.setenv("LC_ALL", "C.UTF-8")
    rc = cli.main(["index", "--db", str(tmp_path / "c.sverka"), str(folder)])
    err = capsys.readouterr().err
    assert rc == 1 and "2 documents were added before the error and are kept; 2 in" in err
    assert "the disk is full" in err



@pytest.mark.parametrize("filler", ["\u3164", "\uffa0", "\u115f", "\u1160"])
def test_hangul_fillers_are_invisible_characters_not_words(filler):
    """A copied text padded with "words" of Hangul fillers (letters to Unicode, drawn as nothing)
    was 11 % borrowed; inside a word a filler is an invisible character, warned about."""
    source = "Это обычный русский текст, написанный студентом для проверки на заимствования в этом году. " * 5
    padded = source + " ".join([filler * 2] * 900)
    r = api.compare(api.document_from_text(padded, "essay"), api.document_from_text(source, "source"))
    assert r.borrowed_percent == 100.0 and r.suspect.words == len(source.split())
    inside = source.replace("текст", "те" + filler + "кст")
    r = api.compare(api.document_from_text(inside, "essay"), api.document_from_text(source, "source"))
    assert r.borrowed_percent == 100.0 and [w.code for w in r.suspect.warnings] == ["warning.invisible_chars"]



def _shown(page: str) -> str:
    """The text a page shows, as Sverka reads it, white space collapsed."""
    from sverka.core.extract.html_text import html_to_text_and_hidden

    return " ".join(html_to_text_and_hidden(page)[0].split())


@pytest.mark.parametrize("page, seen", [
    # a larger font inside font-size: 0 (the usual way of closing gaps between inline blocks)
    ('<div style="font-size:0"><span style="font-size:16px">Видимый текст.</span> скрыто</div>', "Видимый текст."),
    ('<div style="visibility:hidden">скрыто <p style="visibility:visible">Видимый текст.</p></div>', "Видимый текст."),
    ('<p style="color:#fff">скрыто <b style="color:#333">Видимый текст.</b> скрыто</p>', "Видимый текст."),
    ('<div style="display:none"><p style="visibility:visible">скрыто</p></div><p>Видимый текст.</p>', "Видимый текст."),
    # the last declaration wins, as in a browser
    ('<p style="display:none; display:block">Видимый текст.</p>', "Видимый текст."),
    ('<p style="font-size:1px;font-size:16px">Видимый текст.</p>', "Видимый текст."),
    # left and top move nothing without a position; -0100px is a hundred pixels
    ('<p style="left:-10000px">Видимый текст.</p>', "Видимый текст."),
    ('<p style="position:absolute;left:-0100px">Видимый текст.</p>', "Видимый текст."),
    ('<p style="position:absolute; left:-10000px">скрыто</p><p>Видимый текст.</p>', "Видимый текст."),
    ('<p style="display:/**/none">скрыто</p><p>Видимый текст.</p>', "Видимый текст."),
])
def test_html_hides_and_shows_as_a_browser_cascades(page, seen):
    assert _shown(page) == seen



@pytest.mark.parametrize("ops, shown", [
    ("1 1 1 rg 0 0 0 RG 1 Tr", True),   # white letters with black outlines: visible
    ("1 1 1 rg 0 0 0 RG 2 Tr", True),
    ("0 0 0 rg 1 1 1 RG 1 Tr", False),  # white outlines only: not seen
    ("1 1 1 rg 1 1 1 RG 2 Tr", False),
    ("0 0 0 rg 7 Tr", False),           # clipping only: nothing drawn
])
def test_pdf_text_is_white_as_drawn_by_its_render_mode(tmp_path, ops, shown):
    path = _page_pdf(tmp_path / "p.pdf", _text(PDF_VISIBLE) + ops + " " + _text(PDF_SECRET, y=600))
    assert ("Secret" in api.load_document(path).text) == shown



@pytest.mark.parametrize("body", [
    r"\trowd\clcbpat2\cellx4000 \intbl{\cf1 " + SECRET + r"}\cell\row ",  # white in a dark table cell
    r"{\pard\cbpat2 {\cf1 " + SECRET + r"}\par}",  # on a shaded paragraph
    r"{\chshdng10000\chcbpat2\cf1 " + SECRET + "}",  # on shaded characters
])
def test_rtf_white_text_on_shading_is_read(tmp_path, body):
    path = tmp_path / "essay.rtf"
    path.write_text(RTF_HEAD + VISIBLE + body + VISIBLE + r"\par}", encoding="latin-1")
    assert "Secret" in api.load_document(path).text


def test_rtf_colour_zero_is_the_automatic_colour_whatever_the_table_says(tmp_path):
    path = tmp_path / "essay.rtf"
    path.write_text(r"{\rtf1\ansi{\fonttbl{\f0 Arial;}}{\colortbl\red255\green255\blue255;\red0\green0\blue0;}"
                    r"\f0\fs24 " + VISIBLE + r"{\cf0 " + SECRET + r"}\par}", encoding="latin-1")
    text = api.load_document(path).text
    assert "visible sentence" in text and "Secret" in text



@needs_cli
def test_a_report_never_replaces_sqlites_side_files_or_any_collection(collection, tmp_path):
    db, essay = collection
    copy = tmp_path / "copy.txt"
    copy.write_text(ESSAY, encoding="utf-8")
    for args in (["check", "--defaults", "--db", str(db), str(essay), "--html", f"{db}-wal"],  # exists only while open
                 ["check", "--defaults", "--db", str(db), str(essay), "--html", f"{db}-shm"],
                 ["compare", "--defaults", str(essay), str(copy), "--pdf", str(db)],  # a collection the command
                 ["crosscheck", "--defaults", str(essay), str(copy), "--html", str(db)]):  # does not even open
        out = sverka(*args, rc=2)
        assert "a report would replace" in out.stderr and "Traceback" not in out.stderr, args
    assert "essay.txt" in sverka("list", "--db", str(db), rc=0).stdout
    out = sverka("check", "--defaults", "--db", str(db), str(essay), str(copy), "--html", str(copy), rc=2)
    assert "several reports need a folder" in out.stderr
    out = sverka("compare", "--defaults", str(essay), str(copy), "--template", str(essay), "--pdf", str(essay), rc=2)
    assert "choose another file for --pdf" in out.stderr


@needs_cli
def test_remove_refuses_a_number_of_thousands_of_digits(collection):
    db, _ = collection
    out = sverka("remove", "--db", str(db), "9" * 4301, rc=1)
    assert "not in the collection" in out.stderr



def test_mixed_encodings_are_found_wherever_the_lines_lie():
    from sverka.core.extract.plain_text import decode_bytes

    utf8 = "Студент написал это сочинение о летнем путешествии по горам.\n"
    cp1251 = "Второй файл был сохранён в другой кодировке и приклеен к первому.\n"
    cases = [
        utf8 * 60 + cp1251,  # one line of another page in a UTF-8 essay (was 66 x U+FFFD)
        utf8 * 5000 + cp1251 * 20,  # after the first 256 KB (was U+FFFD to the end)
        cp1251 * 60 + utf8,  # a little UTF-8 in a CP1251 file (was mojibake)
    ]
    for text in cases:
        data = b"".join(line.encode("utf-8" if line == utf8 else "cp1251") for line in text.splitlines(keepends=True))
        decoded = decode_bytes(data)
        assert decoded.text == text and [w.code for w in decoded.warnings] == ["warning.mixed_encodings"]
    # a UTF-8 essay whose guillemets were typed in CP1251: UTF-8 still, the stray bytes replaced
    line = "Он сказал: ".encode() + b"\xab" + "цитата из книги".encode() + b"\xbb.\n"
    decoded = decode_bytes(line * 20)
    assert decoded.text.count("цитата из книги") == 20 and decoded.text.count("\ufffd") == 40



@pytest.mark.parametrize("ops, extra", [
    ("/G0 gs", b""),  # fill alpha 0
    ("0.975 g", b""),  # all but white
    ("", b"squeezed"),  # a hundredth of its height
])
def test_pdf_text_transparent_near_white_or_squeezed_is_hidden(tmp_path, ops, extra):
    secret = (_text(PDF_SECRET, y=600).replace("BT /F1 12 Tf", "BT /F1 12 Tf 1 0 0 0.01 72 600 Tm")
              if extra else _text(PDF_SECRET, y=600))
    content = _text(PDF_VISIBLE) + ops + " " + secret
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>", b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
               b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> "
               b"/ExtGState << /G0 << /ca 0 >> >> >> /Contents 5 0 R >>",
               b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>", _stream(content.encode("latin-1"))]
    text = api.load_document(_pdf(tmp_path / "p.pdf", objects)).text
    assert "visible sentence" in text and "Secret" not in text



@pytest.mark.parametrize("page, seen", [
    ("<svg><foreignObject width=300 height=50>Текст во вставке.</foreignObject></svg>", "Текст во вставке."),
    ("<svg><font color=red>Вырвался наружу.</font></svg>", "Вырвался наружу."),
    ("<svg width=0 height=0><p>Вырвался наружу.</p></svg>", "Вырвался наружу."),
    ("<svg><desc><p>описание</p></desc>текст рисунка<text>Подпись.</text></svg>", "Подпись."),
    ("<svg width=0 height=0><text>скрыто</text></svg><p>Видимый.</p>", "Видимый."),
    ('<svg><text display="none">скрыто</text><text opacity="0">скрыто</text><text>Подпись.</text></svg>', "Подпись."),
    ("<svg><defs><text id=t>скрыто</text></defs><use href=#t /></svg><p>Видимый.</p>", "Видимый."),
    ("<math><mphantom><mi>скрыто</mi></mphantom><mtext>Формула.</mtext></math>", "Формула."),
])
def test_svg_and_mathml_are_read_as_a_browser_draws_them(page, seen):
    assert _shown(page) == seen


def test_a_text_of_numbers_only_says_nothing_was_checked():
    r = api.compare(api.document_from_text("12 345 67 89 2024", "answers"), api.document_from_text(ESSAY, "essay"))
    assert [w.code for w in r.suspect.warnings] == ["warning.no_words"] and r.suspect.words == 0


def test_rtf_all_but_white_text_is_white(tmp_path):
    path = tmp_path / "essay.rtf"
    path.write_text(r"{\rtf1\ansi{\fonttbl{\f0 Arial;}}{\colortbl;\red254\green254\blue254;}\f0\fs24 "
                    + VISIBLE + r"{\cf1 " + SECRET + r"}\par}", encoding="latin-1")
    assert "Secret" not in api.load_document(path).text



@pytest.mark.parametrize("page, seen", [
    ("<style>@media print{.h{display:none}}</style><p class=h>Видимый на экране.</p>", "Видимый на экране."),
    ("<style>@media screen{.h{display:none}}</style><p class=h>скрыто</p><p>Видимый.</p>", "Видимый."),
    ('<p style="color:transparent">скрыто <b style="color:#333">Видимый.</b></p>', "Видимый."),
    ('<p style="color:rgba(0, 0, 0, 0)">скрыто</p><p>Видимый.</p>', "Видимый."),
])
def test_print_only_rules_and_transparent_letters(page, seen):
    assert _shown(page) == seen
