"""The PDF report: real pages (pdftotext reads the words back in order, pdftoppm shows the
colours of the passages), made by :func:`sverka.core.report.render_pdf`."""

from __future__ import annotations

import re
import shutil
import subprocess

import pytest

from sverka.core import report

from test_report import _result

pytestmark = pytest.mark.skipif(not (shutil.which("pdftotext") and shutil.which("pdftoppm")),
                                reason="poppler-utils (pdftotext, pdftoppm) not installed")


def _text(pdf) -> str:
    return subprocess.run(["pdftotext", "-raw", "-enc", "UTF-8", str(pdf), "-"], check=True,
                          capture_output=True, text=True).stdout


def _pages(pdf, tmp_path) -> list:
    from PIL import Image

    subprocess.run(["pdftoppm", "-r", "50", "-png", str(pdf), str(tmp_path / "page")], check=True)
    return [Image.open(p).convert("RGB") for p in sorted(tmp_path.glob("page-*.png"))]


def _close(a, b, tol=6) -> bool:
    return all(abs(x - y) <= tol for x, y in zip(a, b))


def _hex(colour: str) -> tuple[int, int, int]:
    return tuple(int(colour[i:i + 2], 16) for i in (1, 3, 5))


@pytest.fixture(scope="module")
def pdf(tmp_path_factory):
    path = tmp_path_factory.mktemp("pdf") / "report.pdf"
    report.render_pdf(_result(), path)
    return path


def test_pdf_has_the_summary_sources_text_and_settings_in_reading_order(pdf):
    text = _text(pdf)
    flat = " ".join(text.split())
    assert pdf.read_bytes().startswith(b"%PDF")
    # labels and their values stay on one line, in the order a reader expects
    order = ["Borrowed", "41.5%", "Cited:", "Original:", "58.5%", "Sources", "Pasted <i>text</i>",
             "Онегин", "Text with borrowed passages", "самых честных правил",
             "Settings used", "Shortest passage that counts"]
    at = 0
    for word in order:  # each one after the one before
        found = flat.lower().find(word.lower(), at)
        assert found >= 0, (word, flat[at:at + 200])
        at = found + len(word)
    assert "Document ivanov <script>.docx" in flat  # by its name: no folder of the teacher's in a report
    assert "/essays" not in flat
    assert "c" * 64 in flat.replace(" ", "")  # the digest, even when broken across lines
    assert re.search(r"2\s*Мой\s*1\s*дядя", flat)  # the source numbers stand where their passages begin
    # the legend's words stay apart ("quotequotation" was the old export)
    assert "quotequotation" not in flat.replace(" ", "") or "«…» quotation" in flat
    assert "«…» quotation" in flat and "[1] bibliography" in flat
    # the sources table shows names, not full paths wrapped into the columns
    low = flat.lower()
    table = flat[low.index("sources"):low.index("text with borrowed passages")]
    assert "/archive/onegin" not in table


def test_pdf_colours_passages_like_the_window(pdf, tmp_path):
    pages = _pages(pdf, tmp_path)
    assert pages
    sources = report._sorted_sources(_result())
    slots = report.colour_slots([report.source_key(s) for s in sources])  # colours follow identity, not rank
    wanted = [_hex(report.source_colour(slots[0])), _hex(report.source_colour(slots[1]))]
    seen = {c for page in pages for _, c in page.getcolors(maxcolors=1 << 20)}
    for colour in wanted:
        assert any(_close(colour, c) for c in seen), colour
    # and a colour no source has is not there (the check can fail)
    unused = next(k for k in range(len(report.SOURCE_HUES)) if k not in slots)
    assert not any(_close(_hex(report.source_colour(unused)), c, 2) for c in seen)


def test_window_and_report_share_one_palette():
    pytest.importorskip("PySide6")
    from sverka.gui.models import source_colour

    for i in (0, 3, 9, 14):
        assert source_colour(i, dark=False).name() == report.source_colour(i)


def test_pdf_of_a_crosscheck(tmp_path):
    from sverka.core.results import CrossCheckResult
    from sverka.core.settings import Settings

    result = CrossCheckResult(documents=("a.txt", "b.txt"), matrix=((1.0, 0.5), (0.4, 1.0)), pairs=(),
                              settings=Settings())
    path = report.render_pdf(result, tmp_path / "x.pdf")
    assert "a.txt" in _text(path)
