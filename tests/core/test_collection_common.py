"""One essay checked against a department's archive that holds last year's essays of the same
assignment: the assignment every student pasted at the top is at the opening of the essay and of
those documents; it is shown, not counted as borrowed from them. A real copy from one of them,
and a source holding the assignment text elsewhere, still count."""

from __future__ import annotations

import json

import pytest

from sverka.core import api, report
from sverka.core.exclusions import COLLECTION_COMMON_DOCUMENTS, collection_common
from sverka.core.settings import Settings
from sverka.core.store.history import result_from_data, result_to_data
from sverka.core.text import word_starts

from test_class_common import ASSIGNMENT, OWN  # noqa: E402

MINE = ("Прошлой весной мы с отцом чинили старую лодку, которую нашли в сарае у деда. "
        "Доски рассохлись, и нам пришлось конопатить щели паклей и заливать их смолой. "
        "Отец показывал, как держать рубанок, чтобы стружка шла ровно и не рвала древесину. "
        "Когда лодку спустили на воду, она не протекала, и мы поплыли к дальнему острову. "
        "С тех пор я знаю, что старую вещь можно вернуть к жизни, если не жалеть рук и времени.")

#: A manual that quotes the assignment among its pages, not at its opening.
MANUAL = ("Методическое пособие для учителей словесности. " + " ".join(OWN[1:4]) + " Пример задания. "
          + ASSIGNMENT + " " + OWN[4])


def _archive(col, tmp_path, texts, name="archive"):
    folder = tmp_path / name
    folder.mkdir()
    for k, text in enumerate(texts):
        (folder / f"essay{k}.txt").write_text(text, encoding="utf-8")
    col.add([str(folder)])


def _suspect(tmp_path, text):
    path = tmp_path / "new_essay.txt"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture
def col(tmp_path):
    with api.Collection(tmp_path / "c.sverka") as c:
        yield c


COPIED = OWN[0][:170]
SUSPECT = ASSIGNMENT + MINE + " " + COPIED


def test_last_years_essays_of_the_same_assignment_do_not_count_it(col, tmp_path):
    _archive(col, tmp_path, [ASSIGNMENT + own for own in OWN])
    r = col.check(api.load_document(_suspect(tmp_path, SUSPECT)), Settings())
    [(a, b)] = r.collection_common
    assert r.suspect_text[a:b].strip().startswith("Задание") and b <= len(ASSIGNMENT) + 1
    assert len(r.common_sources) == len(OWN)
    # every essay of last year is listed with the assignment, marked, not counted ...
    for s in r.sources:
        at_top = [p for p in s.passages if p.suspect_start < len(ASSIGNMENT)]
        assert at_top and all(p.excluded == "common" for p in at_top), s.title
    # ... and the copy from essay 0 counts, alone
    copied = len(COPIED.split())
    assert r.borrowed_percent == pytest.approx(100 * copied / len(SUSPECT.split()), abs=3)
    [top] = [s for s in r.sources if s.containment > 0]
    assert top.path.endswith("essay0.txt")
    # said, in both languages
    [said] = [w for w in r.warnings if w.code == "warning.collection_common"]
    assert dict(said.args)["documents"] == len(OWN)
    assert abs(dict(said.args)["words"] - len(ASSIGNMENT.split())) <= 2
    assert "assignment" in api.message_text(said, "en") and "задание" in api.message_text(said, "ru")
    # the setting off counts it again, without searching again
    counted = api.apply_exclusions(r, r.settings.replace(exclude_class_common=False))
    assert counted.borrowed_percent > 30
    assert not any(w.code == "warning.collection_common" for w in counted.warnings)
    # the report and the JSON word the reason
    assert "в начале многих работ коллекции" in report.render_html(r, lang="ru")
    assert "at the opening of many essays of the collection" in report.render_html(r, lang="en")
    assert {p["excluded"] for s in api.result_to_json(r)["sources"] for p in s["passages"]} >= {"common"}
    # a result kept in the history and opened again sets it aside the same way
    kept = result_from_data(json.loads(json.dumps(result_to_data(r))))
    assert kept.collection_common == r.collection_common and kept.common_sources == r.common_sources
    assert api.apply_exclusions(kept, kept.settings).borrowed_percent == pytest.approx(r.borrowed_percent)


def test_fewer_documents_than_the_rule_asks_count_it(col, tmp_path):
    assert COLLECTION_COMMON_DOCUMENTS == 4
    _archive(col, tmp_path, [ASSIGNMENT + own for own in OWN[:COLLECTION_COMMON_DOCUMENTS - 1]])
    r = col.check(api.load_document(_suspect(tmp_path, SUSPECT)), Settings())
    assert r.collection_common == () and r.common_sources == ()
    assert r.borrowed_percent > 30
    assert not any(p.excluded == "common" for s in r.sources for p in s.passages)


def test_a_source_holding_the_assignment_elsewhere_still_counts_it(col, tmp_path):
    _archive(col, tmp_path, [ASSIGNMENT + own for own in OWN] + [MANUAL])
    r = col.check(api.load_document(_suspect(tmp_path, SUSPECT)), Settings())
    assert r.collection_common and len(r.common_sources) == len(OWN)
    [manual] = [s for s in r.sources if s.path.endswith(f"essay{len(OWN)}.txt")]
    assert manual.source_id not in r.common_sources and manual.containment > 0.2
    assert all(p.excluded is None for p in manual.passages)
    assert r.borrowed_percent > 30


def test_the_essays_own_copy_of_one_opening_is_not_set_aside_when_it_is_most_of_it(col, tmp_path):
    # an essay that is a copy of an archive essay, as four others are: more than half of it is
    # shared with them, so it counts (the rule takes at most half of the running text)
    _archive(col, tmp_path, [OWN[0]] + [OWN[0] + " " + own for own in OWN[1:]])
    r = col.check(api.load_document(_suspect(tmp_path, OWN[0] + " " + MINE[:120])), Settings())
    assert r.collection_common == ()
    assert r.borrowed_percent > 60


def test_collection_common_needs_the_documents_openings():
    text = ASSIGNMENT + MINE
    starts = word_starts(text)
    end = len(ASSIGNMENT) - 2

    class Src:  # the fields collection_common reads: documents going on each with words of its own
        def __init__(self, k, source_start, own=True):
            self.source_id, self.is_template, self.classmate, self.excerpts = k, False, False, None
            self.text = " ".join(f"w{k if own else 0}x{i}" for i in range(600))
            self.passages = (_Passage(source_start),)

    class _Passage:
        def __init__(self, source_start):
            self.source_start, self.source_end = source_start, source_start + 200

        def matched_spans(self):
            return [(0, end)]

    at_top = [Src(k, 10) for k in range(4)]
    assert collection_common(at_top, starts)[1] == (0, 1, 2, 3)
    # one of the four has it past the first quarter of its text: three are not enough
    assert collection_common(at_top[:3] + [Src(3, 2000)], starts) == ((), ())
    # a template or a classmate does not take part
    tmpl = Src(3, 10)
    tmpl.is_template = True
    assert collection_common(at_top[:3] + [tmpl], starts) == ((), ())
    # four copies of one text going on alike after it are one document
    assert collection_common([Src(k, 10, own=False) for k in range(4)], starts) == ((), ())
    assert collection_common([Src(k, 10, own=False) for k in range(4)] + at_top[1:], starts)[1] == (0, 1, 2, 3)


def test_copies_of_one_text_count_once(col, tmp_path):
    """An article saved from several sites (reprints, editions): a suspect copying its opening
    is not excused by the number of copies, which go on alike after it."""
    article = " ".join(OWN[1:4])
    reprints = [f"Новости сайта номер {k}. Опубликовано сегодня.\n\n" + article for k in range(5)]
    _archive(col, tmp_path, reprints)
    copied = OWN[1][:OWN[1].index("Тётя")].strip()  # its first two sentences
    suspect = copied + " " + MINE + " " + OWN[4]
    r = col.check(api.load_document(_suspect(tmp_path, suspect)), Settings())
    assert r.collection_common == () and r.common_sources == ()
    assert r.borrowed_percent == pytest.approx(100 * len(copied.split()) / len(suspect.split()), abs=3)
    # the same reprints each followed by a reader's own comment are essays of their own
    _archive(col, tmp_path, [OWN[1] + "\n\n" + own for own in (OWN[0], OWN[2], OWN[3], OWN[4])], name="comments")
    r = col.check(api.load_document(_suspect(tmp_path, OWN[1] + " " + MINE)), Settings())
    assert r.collection_common and len(r.common_sources) >= 4



def test_essays_opening_their_text_with_the_same_formula_are_not_copies_of_one():
    """Last year's essays that begin their own text with the same formula below the assignment
    are still each their own (the assignment above them is set aside); reprints of one text,
    going on word for word, are one."""
    formula = "В предложенном для анализа тексте автор поднимает важную проблему. "
    text = ASSIGNMENT + MINE
    starts = word_starts(text)
    end = len(ASSIGNMENT) - 2

    class Passage:  # the fields collection_common reads
        source_start, source_end = 0, end

        def matched_spans(self):
            return [(0, end)]

    class Src:
        def __init__(self, k, body):
            self.source_id, self.is_template, self.classmate, self.excerpts = k, False, False, None
            self.text = ASSIGNMENT + body
            self.passages = (Passage(),)

    essays = [Src(k, formula + own) for k, own in enumerate(OWN)]
    assert collection_common(essays, starts)[1] == tuple(range(len(OWN)))
    reprints = [Src(k, formula + OWN[0]) for k in range(len(OWN))]
    assert collection_common(reprints, starts) == ((), ())
