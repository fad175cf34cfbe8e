"""A class checked as a whole: an essay copying a classmate lists that classmate as a source,
on both essays' results, counted in the borrowed share (or listed only, by the setting), in
JSON, HTML and on the command line."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from sverka.core import api, report
from sverka.core.document import Document
from sverka.core.settings import SETTINGS_INFO, Settings

SOURCE = ("Глобальное потепление вызвано прежде всего деятельностью человека: сжиганием угля, нефти "
          "и газа, вырубкой лесов и интенсивным сельским хозяйством. Концентрация углекислого газа в "
          "атмосфере выросла почти на пятьдесят процентов с начала промышленной революции. ") * 2
# Essay A is the student's own; B copies about 40 % of A (its second half is B's own).
A_OWN = ("Мой дедушка держит пасеку за деревней, и каждое лето я помогаю ему качать мёд. "
         "Пчёлы сердятся, если подходить к ульям в тёмной одежде, поэтому я надеваю белую рубашку. "
         "Вечером мы сидим на крыльце и слушаем, как гудит пасека, а бабушка печёт блины с мёдом. "
         "Осенью дедушка укрывает ульи соломой, чтобы пчёлы пережили долгую холодную зиму. ")
B_OWN = ("Летом я ездил к тёте в Архангельск и впервые увидел белые ночи над Северной Двиной. "
         "По вечерам мы гуляли по набережной и смотрели, как медленно идут баржи с лесом. "
         "Тётя рассказывала о поморах, которые ходили на лодках далеко в холодное море за рыбой. "
         "В музее деревянного зодчества я видел старую мельницу и церковь без единого гвоздя. "
         "Мне понравился северный город, его широкая река и спокойные неторопливые жители. ")
C_OWN = ("Зимой наш класс ходил в поход на лыжах к замёрзшему озеру за старой школой. "
         "Мы развели костёр, сварили чай в котелке и слушали рассказы учителя о звёздах. ")


@pytest.fixture
def col(tmp_path):
    with api.Collection(tmp_path / "c.sverka") as c:
        c.add_document(Document(SOURCE, path="/src/climate.txt", title="climate"))
        yield c


@pytest.fixture
def essays(tmp_path):
    folder = tmp_path / "class"
    folder.mkdir()
    a, b, c = folder / "a.txt", folder / "b.txt", folder / "c.txt"
    a.write_text(A_OWN + "\n\n" + C_OWN, encoding="utf-8")
    b.write_text(A_OWN[:260] + "\n\n" + B_OWN, encoding="utf-8")
    c.write_text("Наша учительница биологии попросила рассказать о климате. " + SOURCE[:300], encoding="utf-8")
    return [a, b, c]


def _classmates(result):
    return [s for s in result.sources if s.classmate]


def test_a_classmate_is_a_source_on_both_results_and_counts(col, essays):
    batch = col.check_files(essays, cross=True, workers=1)
    a, b, c = (it.result for it in batch.items)
    [ab] = _classmates(a)
    [ba] = _classmates(b)
    assert ab.path == str(essays[1]) and ba.path == str(essays[0])
    assert ab.source_id is None and ab.text == essays[1].read_text(encoding="utf-8")
    assert ba.text == essays[0].read_text(encoding="utf-8")
    # B copied ~40 % of its words from A: counted in its borrowed share
    assert 0.3 < ba.containment < 0.6 and b.borrowed_percent == pytest.approx(100 * ba.containment, abs=0.5)
    assert all(p.excluded is None for p in ba.passages)
    # the passages are side by side: B's words at A's place
    p = ba.passages[0]
    assert b.suspect_text[p.suspect_start:p.suspect_end][:40] == ba.text[p.source_start:p.source_end][:40]
    # A shares those words with B (on A's result too), C only shares the collection's text
    assert ab.containment > 0.2 and a.borrowed_percent > 20
    assert not _classmates(c) and c.sources and c.sources[0].source_id is not None
    # without classmates compared nothing of the class is a source
    alone = col.check_files(essays, workers=1)
    assert not any(_classmates(it.result) for it in alone.items)
    assert alone.items[1].result.borrowed_percent == 0
    # the closest classmate is still there
    mate = batch.closest_classmate(str(essays[1]))
    assert mate is not None and mate[0] == str(essays[0]) and mate[1] == pytest.approx(ba.containment, abs=0.05)


def test_classmates_can_be_listed_without_counting(col, essays):
    settings = col.settings.replace(count_classmates=False)
    batch = col.check_files(essays, settings, cross=True, workers=1)
    b = batch.items[1].result
    [ba] = _classmates(b)
    assert ba.passages and all(p.excluded == "classmate" for p in ba.passages)
    assert ba.containment == 0 and b.borrowed_percent == 0 and b.original_percent == 100
    # the same as leaving them out of a finished result: apply_exclusions is idempotent
    again = api.apply_exclusions(b, settings.replace(count_classmates=True))
    assert again.borrowed_percent > 30


def test_the_setting_is_declared_in_both_languages():
    info = SETTINGS_INFO["count_classmates"]
    assert info.group == "exclusions" and Settings().count_classmates is True
    assert "classmate" in info.label("en") and "одноклассник" in info.label("ru")
    assert Settings.from_json(Settings(count_classmates=False).to_json()).count_classmates is False
    assert Settings.from_json("{}").count_classmates is True  # settings saved before it


def test_reports_mark_classmates(col, essays, tmp_path):
    batch = col.check_files(essays, cross=True, workers=1)
    b = batch.items[1].result
    obj = api.result_to_json(b)
    flags = {s["path"]: s["classmate"] for s in obj["sources"]}
    assert flags[str(essays[0])] is True
    c = api.result_to_json(batch.items[2].result)
    assert c["sources"] and all(s["classmate"] is False for s in c["sources"])
    for lang, word in (("ru", "одноклассник"), ("en", "classmate")):
        page = report.render_html(b, lang=lang)
        assert f'<span class="tag classmate">{word}</span>' in page
        assert page.count(f">{word}<") >= 2  # beside the source, and in the sources' section
    pdf_html = report.render_html(b, lang="ru", paper=True)
    assert "одноклассник" in pdf_html and "из них одноклассников: 1" in pdf_html
    off = col.check_files(essays, col.settings.replace(count_classmates=False), cross=True, workers=1)
    assert "не учитывается по настройкам" in report.render_html(off.items[1].result, lang="ru")


def test_pasted_texts_of_the_same_title_are_two_documents():
    text = A_OWN + B_OWN
    docs = [Document(text, title="essay"), Document(text[:400] + C_OWN, title="essay")]
    result = api.crosscheck(docs)
    assert len(set(result.documents)) == 2 and result.documents[0] == "essay"
    assert len(result.pairs) == 1 and result.pairs[0].a != result.pairs[0].b


def test_a_class_also_in_the_collection_lists_each_pair_once(tmp_path, essays):
    """The class archived in the collection and checked again: each pair once, not also as
    essay against the archived copy of its classmate."""
    with api.Collection(tmp_path / "arch.sverka") as col:
        col.add([str(p) for p in essays])
        result = api.crosscheck([str(p) for p in essays], collection=col)
        keys = [frozenset((p.a, p.b)) for p in result.pairs]
        assert len(keys) == len(set(keys)) == 1
        batch = col.check_files(essays, cross=True, workers=1)
        b = batch.items[1].result
        assert [s.path for s in b.sources] == [str(essays[0])] and b.sources[0].classmate


SVERKA = Path(sys.executable).with_name("sverka")


@pytest.mark.skipif(not SVERKA.exists(), reason="console script not installed")
def test_cli_check_classmates_json(tmp_path, essays):
    db = tmp_path / "cli.sverka"
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "climate.txt").write_text(SOURCE, encoding="utf-8")
    env = dict(os.environ, XDG_DATA_HOME=str(tmp_path), HOME=str(tmp_path))

    def run(*args):
        out = subprocess.run([str(SVERKA), *args], capture_output=True, text=True, encoding="utf-8", env=env,
                             timeout=300)
        assert out.returncode == 0 and "Traceback" not in out.stderr, out.stderr
        return out

    run("index", "--db", str(db), str(tmp_path / "src"))
    paths = [str(p) for p in essays]
    lines = run("check", "--db", str(db), "--classmates", "--json", *paths).stdout.splitlines()
    results = [json.loads(line) for line in lines]
    assert [r["suspect"]["path"] for r in results] == paths
    a, b, c = results
    mates_b = [s for s in b["sources"] if s["classmate"]]
    assert [s["path"] for s in mates_b] == [paths[0]]
    assert b["borrowed_percent"] == pytest.approx(100 * mates_b[0]["containment"], abs=0.5) and b["borrowed_percent"] > 30
    assert [s["path"] for s in a["sources"] if s["classmate"]] == [paths[1]]
    assert not any(s["classmate"] for s in c["sources"]) and c["borrowed_percent"] > 30
    summary = run("check", "--db", str(db), "--classmates", "--lang", "ru", *paths).stdout
    assert f"({paths[0]}) [одноклассник]" in summary and f"({paths[1]}) [одноклассник]" in summary
    plain = [json.loads(line) for line in run("check", "--db", str(db), "--json", *paths).stdout.splitlines()]
    assert not any(s["classmate"] for r in plain for s in r["sources"]) and plain[1]["borrowed_percent"] == 0
    off = [json.loads(line) for line in
           run("check", "--db", str(db), "--classmates", "--no-count-classmates", "--json", *paths).stdout.splitlines()]
    assert off[1]["borrowed_percent"] == 0
    assert {p["excluded"] for s in off[1]["sources"] if s["classmate"] for p in s["passages"]} == {"classmate"}


def test_essays_are_named_by_their_file_not_their_own_title(col, tmp_path):
    """A PDF or DOCX carries a title of its own (often a template's or a source's): the essay,
    as checked and as a classmate, is named by its file."""
    a = Document(A_OWN + C_OWN, path=str(tmp_path / "sidorov.pdf"), title="Горящее сердце")
    b = Document(A_OWN[:260] + B_OWN, path=str(tmp_path / "petrov.docx"), title="Горящее сердце")
    results, _ = __import__("sverka.core.batch", fromlist=["with_classmates"]).with_classmates(
        [a, b], [col.check(a), col.check(b)], col.settings)
    assert [r.suspect.title for r in results] == ["sidorov.pdf", "petrov.docx"]
    assert [s.title for s in results[1].sources if s.classmate] == ["sidorov.pdf"]
    assert "<h1>sidorov.pdf</h1>" in report.render_html(results[0], lang="ru")


def test_crosscheck_with_a_collection_lists_what_a_check_counts(tmp_path):
    """A paraphrased sentence counts by the words it spans (here 10, 6 of them matched): the
    check counts it, so the cross-check against the collection lists the pair too, although
    its share is under the threshold and fewer than 8 words are matched."""
    src = ("Концентрация углекислого газа в атмосфере выросла почти на пятьдесят процентов с начала "
           "промышленной революции. Ледники Гренландии тают быстрее, чем предсказывали климатологи десять лет назад. "
           + SOURCE * 2)  # long: the essay's passage is a small share of it too
    essay = tmp_path / "essay.txt"
    essay.write_text(A_OWN + "Ледники Гренландии тают стремительнее, нежели полагали климатологи несколько лет назад. "
                     + B_OWN + C_OWN, encoding="utf-8")
    with api.Collection(tmp_path / "c.sverka") as col:
        col.add_document(Document(src, path="/src/climate.txt", title="climate"))
        checked = col.check(api.load_document(essay))
        counted = [p for s in checked.sources for p in s.passages if p.excluded is None]
        assert counted and all(p.matched_words < 8 for p in counted)
        assert 0 < checked.borrowed_percent < 10
        crossed = api.crosscheck([str(essay)], collection=col)
    assert [(p.a, p.b) for p in crossed.pairs] == [(str(essay), "/src/climate.txt")]
