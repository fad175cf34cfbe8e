"""Hostile input, round two, classes 4 and 5 for Word files: hidden text is left out and
reported (a full copy padded with hidden filler still scores as a copy), and visible text is
read wherever Word keeps it (tracked insertions, content controls, fields, text boxes,
footnotes, embedded parts), deleted text not. Every file is generated here."""

from __future__ import annotations

import time
import zipfile
from pathlib import Path

import pytest

from sverka.core import api
from sverka.core.document import Document
from sverka.core.extract import extract

W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
NS = (f'xmlns:w="{W}" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" '
      'xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006" '
      'xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing" '
      'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" '
      'xmlns:wps="http://schemas.microsoft.com/office/word/2010/wordprocessingShape" '
      'xmlns:v="urn:schemas-microsoft-com:vml" mc:Ignorable="wps"')

SOURCE = (
    "Глобальное потепление вызывает таяние ледников в Арктике и Антарктиде, что приводит к "
    "повышению уровня Мирового океана. Учёные прогнозируют затопление прибрежных территорий "
    "во многих странах мира уже к концу нынешнего столетия. Особенно уязвимы островные "
    "государства Тихого океана, где большая часть суши находится всего в нескольких метрах "
    "над уровнем моря."
)
FILLER = " ".join(f"слово{k} тест{k % 7} набор{k % 13}" for k in range(1500))


def _rels(extra: str = "") -> str:
    return ('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
            '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
            '<Relationship Id="rIdStyles" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/>'
            + extra + "</Relationships>")


def make_docx(path: Path, body: str, *, styles: str = "", parts: dict[str, tuple[str, str, str, bytes]] | None = None) -> Path:
    """A .docx whose body is ``body`` (WordprocessingML paragraphs); ``parts``: name ->
    (relationship id, relationship type, content type, bytes) of extra parts under word/."""
    parts = parts or {}
    overrides = "".join(f'<Override PartName="/word/{name}" ContentType="{ct}"/>' for name, (_, _, ct, _) in parts.items())
    rels = "".join(f'<Relationship Id="{rid}" Type="{rt}" Target="{name}"/>' for name, (rid, rt, _, _) in parts.items())
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("[Content_Types].xml",
                   '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
                   '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
                   '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
                   '<Default Extension="xml" ContentType="application/xml"/>'
                   '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>'
                   '<Override PartName="/word/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.styles+xml"/>'
                   + overrides + "</Types>")
        z.writestr("_rels/.rels",
                   '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
                   '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
                   '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/>'
                   "</Relationships>")
        z.writestr("word/_rels/document.xml.rels", _rels(rels))
        z.writestr("word/styles.xml", f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:styles {NS}>{styles}</w:styles>')
        z.writestr("word/document.xml",
                   f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document {NS}><w:body>{body}</w:body></w:document>')
        for name, (_, _, _, data) in parts.items():
            z.writestr(f"word/{name}", data)
    return path


def p(*runs: str, style: str = "") -> str:
    ppr = f'<w:pPr><w:pStyle w:val="{style}"/></w:pPr>' if style else ""
    return f"<w:p>{ppr}{''.join(runs)}</w:p>"


def r(text: str, props: str = "") -> str:
    rpr = f"<w:rPr>{props}</w:rPr>" if props else ""
    return f'{rpr and "<w:r>" + rpr or "<w:r>"}<w:t xml:space="preserve">{text}</w:t></w:r>'


def timed_extract(path: Path):
    t = time.perf_counter()
    doc = extract(path)
    assert time.perf_counter() - t < 10
    return doc


@pytest.mark.parametrize("how, props, styles", [
    ("hidden formatting", "<w:vanish/>", ""),
    ("white text", '<w:color w:val="FFFFFF"/>', ""),
    ("text of 1 pt or less", '<w:sz w:val="2"/>', ""),
    ("hidden formatting", '<w:rStyle w:val="Secret"/>',
     '<w:style w:type="character" w:styleId="Secret"><w:rPr><w:vanish/></w:rPr></w:style>'),
])
def test_hidden_filler_is_left_out_and_reported(tmp_path, how, props, styles):
    body = p(r(SOURCE)) + p(r(FILLER, props)) + p(r("Вывод: климат меняется."), r(" " + FILLER[:3000], props))
    doc = timed_extract(make_docx(tmp_path / "essay.docx", body, styles=styles))
    assert "слово1 " not in doc.text and SOURCE in doc.text and "Вывод: климат меняется." in doc.text
    (warning,) = [str(w) for w in doc.warnings if str(w).startswith("hidden text left out")]
    assert how in warning and "words" in warning and "%" in warning
    result = api.compare(doc, Document(SOURCE, title="source"))
    assert result.borrowed_percent > 85  # the filler would have made it ~2 %


def test_white_text_on_a_dark_highlight_is_visible(tmp_path):
    body = p(r("Белый текст на тёмном фоне виден всем.", '<w:color w:val="FFFFFF"/><w:highlight w:val="black"/>'))
    doc = timed_extract(make_docx(tmp_path / "dark.docx", body))
    assert "Белый текст на тёмном фоне виден всем." in doc.text
    assert not any(str(w).startswith("hidden text") for w in doc.warnings)


TEXTBOX = ('<w:r><mc:AlternateContent><mc:Choice Requires="wps"><w:drawing><wp:anchor><a:graphic><a:graphicData>'
           '<wps:wsp><wps:txbx><w:txbxContent>{inner}</w:txbxContent></wps:txbx></wps:wsp>'
           '</a:graphicData></a:graphic></wp:anchor></w:drawing></mc:Choice>'
           '<mc:Fallback><w:pict><v:shape><v:textbox><w:txbxContent>{inner}</w:txbxContent></v:textbox></v:shape></w:pict>'
           '</mc:Fallback></mc:AlternateContent></w:r>')


def test_visible_text_is_read_wherever_word_keeps_it(tmp_path):
    phrases = {
        "ins": "Вставленное при рецензировании предложение читается.",
        "move": "Перенесённое предложение тоже читается.",
        "sdt": "Текст в элементе управления содержимым.",
        "smart": "Текст внутри смарт-тега.",
        "custom": "Текст внутри пользовательского XML.",
        "field": "Результат простого поля.",
        "complex": "Результат сложного поля.",
        "link": "Текст гиперссылки.",
        "dir": "Текст с направлением письма.",
        "box": "Текст в надписи на странице.",
        "block_sdt": "Абзац внутри блочного элемента управления.",
        "foot": "Сноска с текстом источника.",
        "end": "Концевая сноска с текстом.",
        "chunk": "Вложенный HTML-фрагмент документа.",
    }
    body = (
        p(r("Начало абзаца. "), f'<w:ins w:id="1" w:author="a">{r(phrases["ins"])}</w:ins>',
          f'<w:del w:id="2" w:author="a"><w:r><w:delText>Удалённый текст не читается.</w:delText></w:r></w:del>',
          f'<w:moveFrom w:id="3" w:author="a">{r("Старое место переноса не читается.")}</w:moveFrom>',
          f'<w:moveTo w:id="4" w:author="a">{r(" " + phrases["move"])}</w:moveTo>')
        + p(f'<w:sdt><w:sdtPr/><w:sdtContent>{r(phrases["sdt"])}</w:sdtContent></w:sdt>',
            f'<w:smartTag w:uri="u" w:element="e">{r(" " + phrases["smart"])}</w:smartTag>',
            f'<w:customXml w:element="e">{r(" " + phrases["custom"])}</w:customXml>')
        + p(f'<w:fldSimple w:instr=" DATE ">{r(phrases["field"])}</w:fldSimple>',
            '<w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText> PAGE </w:instrText></w:r>'
            f'<w:r><w:fldChar w:fldCharType="separate"/></w:r>{r(" " + phrases["complex"])}'
            '<w:r><w:fldChar w:fldCharType="end"/></w:r>',
            f'<w:hyperlink r:id="rIdX">{r(" " + phrases["link"])}</w:hyperlink>',
            f'<w:dir w:val="ltr">{r(" " + phrases["dir"])}</w:dir>')
        + p(r("Абзац с надписью."), TEXTBOX.format(inner=p(r(phrases["box"]))))
        + f'<w:sdt><w:sdtPr/><w:sdtContent>{p(r(phrases["block_sdt"]))}</w:sdtContent></w:sdt>'
        + '<w:altChunk r:id="rIdChunk"/>'
        + p(r("Последний абзац."))
    )
    notes = lambda kind, text: (  # noqa: E731
        f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:{kind}s {NS}>'
        f'<w:{kind} w:type="separator" w:id="-1">{p("<w:r><w:separator/></w:r>")}</w:{kind}>'
        f'<w:{kind} w:id="1">{p(r(text))}</w:{kind}></w:{kind}s>').encode()
    rel = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/"
    parts = {
        "footnotes.xml": ("rIdFoot", rel + "footnotes",
                          "application/vnd.openxmlformats-officedocument.wordprocessingml.footnotes+xml",
                          notes("footnote", phrases["foot"])),
        "endnotes.xml": ("rIdEnd", rel + "endnotes",
                         "application/vnd.openxmlformats-officedocument.wordprocessingml.endnotes+xml",
                         notes("endnote", phrases["end"])),
        "chunk.html": ("rIdChunk", rel + "aFChunk", "text/html",
                       f"<html><body><p>{phrases['chunk']}</p></body></html>".encode()),
    }
    doc = timed_extract(make_docx(tmp_path / "visible.docx", body, parts=parts))
    for key, phrase in phrases.items():
        assert doc.text.count(phrase) == 1, (key, doc.text)
    assert "Удалённый" not in doc.text and "Старое место" not in doc.text and "PAGE" not in doc.text
    text = doc.text
    assert text.index(phrases["box"]) > text.index("Абзац с надписью.")  # the box after its anchor
    assert text.index(phrases["foot"]) > text.index("Последний абзац.")  # notes after the body
    assert text.index(phrases["end"]) > text.index(phrases["foot"])
    assert not any(str(w).startswith("hidden text") for w in doc.warnings)


def test_a_copy_kept_only_in_a_text_box_and_a_footnote_is_found(tmp_path):
    half = SOURCE.index("Учёные")
    body = p(r("Моё сочинение о климате.")) + p(r("Смотрите рисунок."), TEXTBOX.format(inner=p(r(SOURCE[:half]))))
    rel = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/"
    foot = (f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:footnotes {NS}>'
            f'<w:footnote w:id="1">{p(r(SOURCE[half:]))}</w:footnote></w:footnotes>').encode()
    parts = {"footnotes.xml": ("rIdFoot", rel + "footnotes",
                               "application/vnd.openxmlformats-officedocument.wordprocessingml.footnotes+xml", foot)}
    doc = timed_extract(make_docx(tmp_path / "boxed.docx", body, parts=parts))
    result = api.compare(doc, Document(SOURCE, title="source"))
    assert result.borrowed_percent > 80


@pytest.mark.parametrize("wrap", [
    '<div hidden>{}</div>',
    '<p style="display:none">{}</p>',
    '<span style="color:red; visibility: hidden">{}</span>',
    '<div style="font-size:0">{}</div>',
    '<div class="note x">{}</div>',
    '<section id="pad"><div><p>{}</p></div></section>',
])
def test_hidden_html_is_left_out_and_reported(tmp_path, wrap):
    page = ("<html><head><style>.x { display : none } #pad{visibility:hidden}</style></head><body>"
            f"<p>{SOURCE}</p>{wrap.format(FILLER)}<p>Вывод: климат меняется.</p></body></html>")
    path = tmp_path / "page.html"
    path.write_text(page, encoding="utf-8")
    doc = timed_extract(path)
    assert "слово1 " not in doc.text and SOURCE in doc.text and "Вывод: климат меняется." in doc.text
    assert any(str(w).startswith("hidden text left out: 4500 words") for w in doc.warnings), doc.warnings
    assert api.compare(doc, Document(SOURCE, title="source")).borrowed_percent > 85


def test_visible_html_around_hidden_parts_is_all_read(tmp_path):
    page = ("<body><div>Первый видимый абзац.<div style='display:none'><div>скрыто</div><p>скрыто тоже"
            "</div>Второй видимый абзац.</div><p class='other'>Третий видимый абзац.</p></body>")
    path = tmp_path / "mixed.html"
    path.write_text(page, encoding="utf-8")
    doc = timed_extract(path)
    assert [line for line in doc.text.split("\n") if line] == [
        "Первый видимый абзац.", "Второй видимый абзац.", "Третий видимый абзац."]


def test_deeply_nested_hidden_html_is_read_in_linear_time(tmp_path):
    page = "<div hidden>" + "<div>x " * 150_000 + "</div>" * 150_001 + "<p>Видимый конец.</p>"
    path = tmp_path / "deep.html"
    path.write_text(page, encoding="utf-8")
    doc = timed_extract(path)
    assert doc.text.strip() == "Видимый конец."


def _rtf_escape(text: str) -> str:
    return "".join(c if ord(c) < 128 else f"\\u{ord(c) if ord(c) < 32768 else ord(c) - 65536}?" for c in text)


def test_hidden_rtf_is_left_out_and_footnotes_follow_the_body(tmp_path):
    rtf = ("{\\rtf1\\ansi\\ansicpg1251{\\fonttbl{\\f0 Times;}}{\\stylesheet{\\s1\\v Hidden char style;}}"
           f"\\pard {_rtf_escape(SOURCE)}\\par {{\\v {_rtf_escape(FILLER)}}}\\par "
           f"{_rtf_escape('Конец')}{{\\footnote {{\\fs20 {_rtf_escape('Сноска: источник указан автором.')}}}}}"
           f"{_rtf_escape(' текста.')}\\par "
           f"\\v {_rtf_escape('скрытый хвост')}\\v0  {_rtf_escape('Видимая подпись.')}}}")
    path = tmp_path / "essay.rtf"
    path.write_text(rtf, encoding="ascii")
    doc = timed_extract(path)
    assert SOURCE in doc.text and "слово1 " not in doc.text and "скрытый" not in doc.text
    assert "Видимая подпись." in doc.text
    assert doc.text.index("Сноска: источник указан автором.") > doc.text.index("Видимая подпись.")
    (warning,) = [str(w) for w in doc.warnings if str(w).startswith("hidden text left out")]
    assert warning.startswith("hidden text left out: 4502 words")
    assert api.compare(doc, Document(SOURCE, title="source")).borrowed_percent > 85


def test_rtf_passes_are_linear(tmp_path):
    rtf = "{\\rtf1 " + "{\\v x " * 100_000 + "}" * 100_000 + " visible end}"
    path = tmp_path / "deep.rtf"
    path.write_text(rtf, encoding="ascii")
    doc = timed_extract(path)
    assert "visible end" in doc.text


def make_odt(path: Path, build) -> Path:
    from odf.opendocument import OpenDocumentText

    doc = OpenDocumentText()
    build(doc)
    doc.save(str(path))
    return path


@pytest.mark.parametrize("how, props", [
    ("hidden formatting", {"display": "none"}),
    ("white text", {"color": "#ffffff"}),
    ("text of 1 pt or less", {"fontsize": "1pt"}),
])
def test_hidden_odt_text_is_left_out_and_reported(tmp_path, how, props):
    from odf.style import Style, TextProperties
    from odf.text import P, Span

    def build(doc):
        st = Style(name="Pad", family="text")
        st.addElement(TextProperties(**props))
        doc.automaticstyles.addElement(st)
        doc.text.addElement(P(text=SOURCE))
        p = P(text="Вывод: климат меняется. ")
        p.addElement(Span(stylename=st, text=FILLER))
        doc.text.addElement(p)

    doc = timed_extract(make_odt(tmp_path / "essay.odt", build))
    assert SOURCE in doc.text and "слово1 " not in doc.text and "Вывод: климат меняется." in doc.text
    (warning,) = [str(w) for w in doc.warnings if str(w).startswith("hidden text left out")]
    assert how in warning and "4500 words" in warning
    assert api.compare(doc, Document(SOURCE, title="source")).borrowed_percent > 85


def test_odt_notes_follow_the_body_boxes_their_anchor_and_deletions_are_not_read(tmp_path):
    from odf.draw import Frame, TextBox
    from odf.text import (ChangedRegion, Deletion, Note, NoteBody, NoteCitation, P, Section, TrackedChanges)

    def build(doc):
        changes = TrackedChanges()
        region = ChangedRegion(check_grammar=False)  # odfpy's grammar misses xml:id here
        region.setAttrNS("http://www.w3.org/XML/1998/namespace", "id", "ct1")
        deletion = Deletion()
        deletion.addElement(P(text="Удалённый при рецензировании текст."))
        region.addElement(deletion)
        changes.addElement(region)
        doc.text.addElement(changes)
        p = P(text="Предложение со сноской")
        note = Note(id="n1", noteclass="footnote")
        note.addElement(NoteCitation(text="1"))
        body = NoteBody()
        body.addElement(P(text="Текст сноски об источнике."))
        note.addElement(body)
        p.addElement(note)
        p.addText(" продолжается после неё.")
        doc.text.addElement(p)
        anchor = P(text="Абзац с надписью.")
        frame = Frame(width="5cm", height="2cm", anchortype="paragraph")
        box = TextBox()
        box.addElement(P(text="Текст в надписи."))
        frame.addElement(box)
        anchor.addElement(frame)
        doc.text.addElement(anchor)
        hidden = Section(name="S1", display="none")
        hidden.addElement(P(text="Скрытый раздел документа."))
        doc.text.addElement(hidden)
        doc.text.addElement(P(text="Последний абзац."))

    doc = timed_extract(make_odt(tmp_path / "notes.odt", build))
    text = doc.text
    assert "Предложение со сноской продолжается после неё." in text  # the note is not mid-sentence
    assert text.index("Текст сноски об источнике.") > text.index("Последний абзац.")
    assert text.index("Текст в надписи.") > text.index("Абзац с надписью.")
    assert "Удалённый" not in text and "Скрытый раздел" not in text
    assert any(str(w).startswith("hidden text left out: 3 words") for w in doc.warnings), doc.warnings


EN_SOURCE = ("Global warming melts the glaciers of the Arctic and the Antarctic, which raises the level of "
             "the oceans. Scientists expect coastal land in many countries to be flooded by the end of "
             "this century. Island states of the Pacific are the most exposed, since most of their land "
             "lies only a few metres above the sea.")
EN_FILLER = " ".join(f"filler{k} padding{k % 7} noise{k % 13}" for k in range(300))


def make_pdf(path: Path, lines: list[tuple[str, dict]], image: bool = False) -> Path:
    """One page per ~60 lines: each line a text object of Helvetica with its own render mode,
    fill colour and size; ``image``: a picture under the text, as a scan with OCR has."""
    import ctypes

    import pypdfium2 as pdfium
    import pypdfium2.raw as raw

    pdf = pdfium.PdfDocument.new()
    page, y = None, 0

    def new_page():
        p = pdf.new_page(595, 842)
        if image:
            img = pdfium.PdfImage.new(pdf)
            img.set_bitmap(pdfium.PdfBitmap.new_native(50, 50, raw.FPDFBitmap_BGR))
            img.set_matrix(pdfium.PdfMatrix().scale(595, 842))
            p.insert_obj(img)
        return p

    pages = []
    for text, opt in lines:
        for chunk in [text[i:i + 90] for i in range(0, len(text), 90)]:
            if page is None or y < 40:
                page, y = new_page(), 800
                pages.append(page)
            size = opt.get("size", 10)
            obj = raw.FPDFPageObj_NewTextObj(pdf.raw, b"Helvetica", ctypes.c_float(size))
            buf = ctypes.create_string_buffer((chunk + "\x00").encode("utf-16-le"))
            raw.FPDFText_SetText(obj, ctypes.cast(buf, ctypes.POINTER(raw.FPDF_WCHAR)))
            raw.FPDFTextObj_SetTextRenderMode(obj, opt.get("mode", 0))
            raw.FPDFPageObj_SetFillColor(obj, *opt.get("fill", (0, 0, 0)), 255)
            raw.FPDFPageObj_Transform(obj, 1, 0, 0, 1, 30, y)
            raw.FPDFPage_InsertObject(page.raw, obj)
            y -= max(size, 1) + 3
    for p in pages:
        raw.FPDFPage_GenerateContent(p.raw)
    pdf.save(str(path))
    return path


@pytest.mark.parametrize("how, opt", [
    ("invisible text", {"mode": 3}),
    ("white text", {"fill": (255, 255, 255)}),
    ("text of 1 pt or less", {"size": 0.5}),
])
def test_hidden_pdf_text_is_left_out_and_reported(tmp_path, how, opt):
    path = make_pdf(tmp_path / "essay.pdf", [(EN_SOURCE, {}), (EN_FILLER, opt), ("In short, the climate changes.", {})])
    doc = timed_extract(path)
    assert "filler1 " not in doc.text and "Pacific" in doc.text and "the climate changes" in doc.text
    (warning,) = [str(w) for w in doc.warnings if str(w).startswith("hidden text left out")]
    assert how in warning and "900 words" in warning
    assert api.compare(doc, Document(EN_SOURCE, title="source")).borrowed_percent > 85


def test_the_invisible_text_layer_of_a_scan_is_kept(tmp_path):
    path = make_pdf(tmp_path / "scan.pdf", [(EN_SOURCE, {"mode": 3})], image=True)
    doc = timed_extract(path)
    assert "Pacific" in doc.text and not any(str(w).startswith("hidden text") for w in doc.warnings)


def test_html_svg_text_and_object_fallback_are_read(tmp_path):
    page = ("<body><p>Начало страницы.</p><svg width='100' height='50'><defs><style>.a{fill:red}</style></defs>"
            "<rect width='10' height='10'/><text x='0' y='20'>Текст на рисунке <tspan>продолжается.</tspan></text></svg>"
            "<object data='movie.swf' type='application/x-shockwave-flash'><p>Запасной текст объекта.</p></object>"
            "<p>Конец страницы.</p></body>")
    path = tmp_path / "svg.html"
    path.write_text(page, encoding="utf-8")
    text = timed_extract(path).text
    for phrase in ("Начало страницы.", "Текст на рисунке", "продолжается.", "Запасной текст объекта.", "Конец страницы."):
        assert text.count(phrase) == 1, text
    assert "fill:red" not in text and text.index("Текст на рисунке") < text.index("Конец страницы.")
