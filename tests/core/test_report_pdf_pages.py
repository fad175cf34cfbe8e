"""A PDF report never ends with a page holding a row or two of the settings: the settings
table is kept on one page, whatever the length of the text before it."""

from __future__ import annotations

import pytest

pytest.importorskip("weasyprint")
pdfium = pytest.importorskip("pypdfium2")

from sverka.core import api, report  # noqa: E402
from sverka.core.document import Document  # noqa: E402
from sverka.core.settings import SETTINGS_INFO  # noqa: E402

SENTENCE = "Мой дедушка держит пасеку за деревней, и каждое лето я помогаю ему качать мёд. "
SOURCE = ("Глобальное потепление вызвано прежде всего деятельностью человека: сжиганием угля, нефти "
          "и газа, вырубкой лесов и интенсивным сельским хозяйством. ")


def _pages(path) -> list[str]:
    pdf = pdfium.PdfDocument(str(path))
    try:
        return [pdf[k].get_textpage().get_text_bounded() for k in range(len(pdf))]
    finally:
        pdf.close()


def test_the_settings_table_is_never_split_over_pages(tmp_path):
    labels = [info.label("ru") for info in SETTINGS_INFO.values()]
    first, last = labels[0], labels[-1]
    for n in range(14, 40, 2):  # texts of growing length move the table's place on its page
        essay = SENTENCE * n + SOURCE
        result = api.compare(Document(essay, title="essay"), Document(SOURCE, title="source"))
        path = report.render_pdf(result, tmp_path / f"r{n}.pdf", lang="ru")
        pages = [" ".join(p.split()) for p in _pages(path)]
        holding = [k for k, p in enumerate(pages) if " ".join(first.split())[:30] in p or " ".join(last.split())[:30] in p]
        assert len(set(holding)) == 1, (n, holding)
