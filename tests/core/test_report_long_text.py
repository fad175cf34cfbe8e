"""The PDF report of a text WeasyPrint would lay out in quadratic time (sweep 35, section 4):
a word of tens of thousands of letters, megabytes on one line. On paper such a text gets a
break opportunity after every letter of a long run and goes in inline boxes of bounded size
(report.PAPER_RUN, report.PAPER_BOX); an essay's paper HTML stays byte for byte what it was,
and a PDF write that fails or is terminated leaves no temporary file."""

from __future__ import annotations

import html
import re
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from sverka.core import i18n, report
from sverka.core.results import CheckResult, Passage, SourceMatch, Span, SuspectInfo
from sverka.core.settings import Settings

from test_report import _result as _essay

START = "Обычное начало эссе. "
SENTENCE = "Мой дедушка держит пасеку за деревней, и каждое лето я помогаю ему качать мёд. "
# where pango may break a line in the shown text (the spaces of report._SPACES, the line ends)
BREAK = "[ \t\n\v\f\r\x85\u1680\u2000-\u2006\u2008-\u200b\u2028\u2029\u205f\u3000]"


def _result(text: str, passage: tuple[int, int] | None = None, quote: tuple[int, int] | None = None) -> CheckResult:
    passages = (Passage(*passage, 0, 10, 3, "exact"),) if passage else ()
    src = SourceMatch(source_id=1, path="/c/src.txt", title="src", text=text[:100], sha256="a" * 64,
                      containment=0.1, resemblance=0.1, sentence_score=0.1, passages=passages)
    return CheckResult(
        suspect=SuspectInfo(path="/e/essay.txt", title="essay", chars=len(text), words=len(text.split()),
                            language="ru", warnings=(), sha256="c" * 64),
        suspect_text=text, sources=(src,) if passage else (), borrowed_percent=1.0, original_percent=99.0,
        marked=(Span(*quote, "quote"),) if quote else (), settings=Settings())


def _text_block(page: str) -> str:
    """The inside of the report's text block, as HTML."""
    return re.search(r'<div class="text">(.*?)</div>', page, re.S).group(1)


def _shown(block: str) -> str:
    """The characters of a text block, as WeasyPrint gets them (source numbers left out)."""
    return html.unescape(re.sub(r"<[^>]*>", "", re.sub(r"<sup[^>]*>.*?</sup>", "", block)))


def _longest_unbroken(text: str) -> int:
    return max(map(len, re.split(BREAK, text)))


def test_a_long_word_gets_a_break_opportunity_after_every_letter_on_paper_only():
    word = "а" * 50_000
    text = START + word + " конец."
    w = len(START)
    # a passage and a quotation inside the word cut it into pieces: the pieces are broken too
    result = _result(text, passage=(w + 500, w + 30_000), quote=(w + 40_000, w + 40_700))
    paper = report.render_html(result, paper=True)
    shown = _shown(_text_block(paper))
    assert shown.replace("\u200b", "") == text  # the same text, offsets and all
    assert _longest_unbroken(shown) <= len("Обычное")  # every letter of the word may end a line
    assert word[:3] in paper.replace("\u200b", "") and "а\u200bа" in paper
    # the HTML report (what a teacher copies from) and the JSON are untouched
    screen = report.render_html(result)
    assert "\u200b" not in screen and _shown(_text_block(screen)) == text


def test_a_long_line_goes_to_weasyprint_in_boxes_of_bounded_size():
    text = START + "слово " * 60_000 + "конец."  # 360 000 characters, no line end
    block = _text_block(report.render_html(_result(text, passage=(0, len(START) - 1)), paper=True))
    boxes = re.findall(r"<span>(.*?)</span>", block, re.S)
    assert len(boxes) >= len(text) // report.PAPER_BOX
    assert all(len(html.unescape(b)) <= report.PAPER_BOX for b in boxes)
    assert all(html.unescape(b).endswith(" ") for b in boxes[:-1])  # cut at spaces, never inside a word
    assert _shown(block) == text and "\u200b" not in block  # words of ordinary length: no breaks added


def test_boxes_of_a_long_text_end_at_line_ends_where_there_are_some():
    text = (SENTENCE * 5 + "\n\n") * 300
    boxes = report._paper_boxes(text)
    assert len(boxes) > 1 and "".join(boxes) == text
    assert all(b.endswith("\n") and len(b) <= report.PAPER_BOX for b in boxes[:-1])


def test_breaks_keep_letters_with_their_marks_and_emoji_sequences_whole():
    decomposed = "и\u0306" * 2000  # й as a letter and a combining breve
    assert re.search("\u200b\u0306", report._breakable(decomposed)) is None
    assert report._breakable(decomposed).count("\u200b") == 2000 - 1
    family = "👨\u200d👩\u200d👧"
    assert report._breakable(family * 500).count("\u200b") == 500 - 1
    assert "\u200b\U0001f3fd" not in report._breakable("👋\U0001f3fd" * 600)
    # marks alone, or a run joined by no-break spaces, still get breaks every few characters
    assert _longest_unbroken(report._breakable("\u0301" * 5000)) <= 32
    text = START + "а\u00a0" * 3000
    boxes = report._paper_boxes(text, 0, report._long_runs(text))
    assert _longest_unbroken("".join(boxes)) <= len("Обычное")


def test_an_essay_on_paper_is_byte_for_byte_what_it_was(monkeypatch):
    """Nothing of the above touches a piece of an essay (no run of PAPER_RUN characters, no piece
    of PAPER_BOX): its paper HTML is the one rendered with the boxes taken out."""
    monkeypatch.setattr(i18n, "format_time", lambda *a, **k: "TIME")
    essays = [
        _essay(),
        _result((START + SENTENCE * 20 + "\n\n") * 10 + "См. https://example.org/" + "a" * 400 + " конец.",
                passage=(len(START), len(START) + 3 * len(SENTENCE)), quote=(2000, 2100)),
        _result(" ".join([SENTENCE] * 240)),  # one piece of 19 000 characters, one line
    ]
    for lang in ("en", "ru"):
        now = [report.render_html(r, paper=True, lang=lang) for r in essays]
        with monkeypatch.context() as m:
            m.setattr(report, "_paper_boxes", lambda text, start=0, runs=(): [text])
            then = [report.render_html(r, paper=True, lang=lang) for r in essays]
        assert now == then
        assert not any("\u200b" in page for page in now)


pytest.importorskip("weasyprint")


def test_the_pdf_of_a_20000_letter_word_holds_the_whole_word(tmp_path):
    pdfium = pytest.importorskip("pypdfium2")
    text = START + "а" * 20_000 + " конец."
    path = report.render_pdf(_result(text, passage=(0, len(START) - 1)), tmp_path / "word.pdf")
    pdf = pdfium.PdfDocument(str(path))
    try:
        read = "".join(pdf[k].get_textpage().get_text_bounded() for k in range(len(pdf)))
        pages = len(pdf)
    finally:
        pdf.close()
    assert "\u200b" not in read  # a word copied from the PDF is the word
    word = read[read.index("эссе.") + 5:read.index("конец")]
    assert re.sub(r"\s|\d+ / \d+", "", word) == "а" * 20_000  # less the page numbers
    assert 7 <= pages <= 9  # full lines, as overflow-wrap filled them (8 pages before the change)
    assert [p.name for p in tmp_path.iterdir()] == ["word.pdf"]


def test_a_failed_pdf_write_leaves_the_old_report_and_no_temporary_file(tmp_path, monkeypatch):
    import weasyprint

    path = tmp_path / "report.pdf"
    path.write_bytes(b"%PDF old")

    def broken(self, target=None, **kwargs):
        with open(target, "wb") as f:
            f.write(b"%PDF half")
        raise RuntimeError("layout failed")

    monkeypatch.setattr(weasyprint.HTML, "write_pdf", broken)
    with pytest.raises(RuntimeError):
        report.render_pdf(_essay(), path)
    assert [p.name for p in tmp_path.iterdir()] == ["report.pdf"]
    assert path.read_bytes() == b"%PDF old"


@pytest.mark.skipif(sys.platform == "win32", reason="SIGTERM cannot be caught on Windows")
def test_sigterm_while_writing_a_pdf_removes_the_temporary_file_and_still_ends_the_process(tmp_path):
    script = textwrap.dedent(f"""
        import os, signal, sys, time
        sys.path.insert(0, {str(Path(__file__).parent)!r})
        import weasyprint
        from sverka.core import report
        from test_report import _result

        def killed_halfway(self, target=None, **kwargs):
            with open(target, "wb") as f:
                f.write(b"%PDF half")
            os.kill(os.getpid(), signal.SIGTERM)  # as `timeout` does
            time.sleep(30)

        weasyprint.HTML.write_pdf = killed_halfway
        report.render_pdf(_result(), {str(tmp_path / "report.pdf")!r})
    """)
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert run.returncode == -signal.SIGTERM, run.stderr  # it still dies of the signal
    assert list(tmp_path.iterdir()) == []
