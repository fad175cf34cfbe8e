"""Every passage says what kind of borrowing it is, computed from its alignment."""

from __future__ import annotations

import pytest

from sverka.core import api
from sverka.core.document import Document
from sverka.core.results import KINDS

SOURCE = (
    "Старый рыбак жил со своей старухой у самого синего моря. Они жили в ветхой землянке ровно "
    "тридцать лет и три года. Старик ловил неводом рыбу, а старуха пряла свою пряжу. Однажды он "
    "закинул в море невод, и пришёл невод с одной тиною."
)
OWN = "Мой рассказ будет о другом, о поездке в горы прошлым летом вместе с друзьями из класса. "

CASES = {
    "verbatim": "Они жили в ветхой землянке ровно тридцать лет и три года.",
    "inflected": "Они живут в ветхих землянках ровно тридцать лет и три годы.",
    "edited": "Они жили в очень ветхой землянке ровно тридцать два лет и три года.",
    "reordered": ("Старуха пряла свою пряжу, а старик ловил неводом рыбу. Они жили в ветхой землянке "
                  "ровно тридцать лет и три года. Старый рыбак жил со своей старухой у самого синего моря."),
    "paraphrase": ("Старухи пряли свои пряжи, а старики ловили неводами рыбу. Они жили в ветхой землянке "
                   "ровно тридцать лет и три года."),
}


@pytest.mark.parametrize("kind", list(CASES))
def test_each_kind_is_named(kind):
    r = api.compare(Document(OWN + CASES[kind] + " " + OWN, title=kind), Document(SOURCE, title="source"))
    (src,) = r.sources
    assert [p.kind for p in src.passages] == [kind], [(p.kind, p.method) for p in src.passages]
    assert kind in KINDS


def test_kind_is_in_the_json_report():
    from sverka.core.report import check_result_to_dict

    r = api.compare(Document(OWN + CASES["inflected"], title="essay"), Document(SOURCE, title="source"))
    (p,) = check_result_to_dict(r)["sources"][0]["passages"]
    assert p["kind"] == "inflected"


def test_kind_is_in_the_html_report():
    from sverka.core.report import render_html

    r = api.compare(Document(OWN + CASES["edited"], title="essay"), Document(SOURCE, title="source"))
    page = render_html(r)
    assert "<b>words inserted, deleted or replaced</b>" in page
