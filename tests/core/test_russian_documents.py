"""One Russian essay saved by LibreOffice, by python-docx and by a browser, in every format
Sverka reads: each file gives exactly the essay's words, as its application shows them.

The files and how each was made: tests/core/fixtures/russian/README.md.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from sverka.core.workers import sandboxed_extract

HERE = Path(__file__).resolve().parent / "fixtures" / "russian"

ESSAY = """Осенний лес
Каждую осень мы с дедушкой уходили в лес за грибами. Тропинка петляла между старыми елями,
а под ногами шуршали жёлтые листья берёз.
Дедушка рассказывал, что лес живёт своей тихой жизнью: белки запасают орехи, ёжики готовят
норы, а птицы собираются в стаи перед дальней дорогой.
Сначала мы собирали подосиновики у оврага. Потом искали опята на поваленных стволах.
В конце дня отдыхали у ручья и пили чай из термоса.
Грибы Количество Подосиновики двенадцать
Эти прогулки научили меня замечать красоту обычных вещей и беречь природу родного края."""

LIST_NUMBERS = ["1", "2", "3"]


def words(text: str) -> Counter:
    return Counter(w for w in re.findall(r"\w+", text.lower()))


@pytest.mark.parametrize(("name", "extra"), [
    ("essay-source.html", []),  # a browser draws the list numbers as markers, not text
    ("libreoffice-essay.odt", LIST_NUMBERS),
    ("libreoffice-essay.docx", LIST_NUMBERS),
    ("libreoffice-essay.rtf", LIST_NUMBERS),
    ("libreoffice-essay.pdf", LIST_NUMBERS),
    ("python-docx.docx", LIST_NUMBERS),
    ("libreoffice-essay.doc", LIST_NUMBERS),
    # The menu a desktop screen shows (@media min-width) and the aside a narrow one hides are
    # text; the cookie notice, the screen-reader link, the iframes, <noscript> and <template> are not.
    ("saved-page.html", ["главная", "сочинения", "читайте", "также"]),
])
def test_each_file_gives_exactly_the_essay(name, extra):
    doc = sandboxed_extract(HERE / name)
    assert words(doc.text) == words(ESSAY) + Counter(extra)


def test_the_saved_page_warns_of_the_text_it_hid():
    doc = sandboxed_extract(HERE / "saved-page.html")
    codes = [m.code for m in doc.warnings]
    assert "warning.hidden_text" in codes
    assert "cookie" not in doc.text and "Перейти" not in doc.text


def test_the_doc_reads_as_its_docx_and_odt_twins():
    """The essay saved as .doc, .docx and .odt by the same program: the same lines, list
    numbers and the tab after them included."""
    doc = sandboxed_extract(HERE / "libreoffice-essay.doc").text.rstrip("\n").split("\n")
    assert "1.\tСначала мы собирали подосиновики у оврага. " in doc
    assert doc == sandboxed_extract(HERE / "libreoffice-essay.docx").text.split("\n")
    odt = sandboxed_extract(HERE / "libreoffice-essay.odt").text.split("\n")
    assert [line.strip() for line in doc] == [line.strip() for line in odt]
