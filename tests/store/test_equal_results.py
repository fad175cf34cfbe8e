"""The same documents added to an SQLite file and to a PostgreSQL database give the same
check results: the same sources, passages (spans in both texts) and scores, for suspects
that copy, rewrite, hold nothing of the collection, or are short. Hand-made texts always;
fragments of ../shared/data/ruslit too when it is there (skipped cleanly otherwise)."""

from __future__ import annotations

import dataclasses
import sys
from pathlib import Path

import numpy as np
import pytest

from sverka.core import api

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
from _corpus import fragment  # noqa: E402

SOURCES = {
    "river.txt": (
        "Река текла медленно между низкими берегами, поросшими ивняком и осокой. По утрам над водой "
        "поднимался туман, и рыбаки выходили на лодках ещё до рассвета. Старый паромщик помнил времена, "
        "когда через реку не было моста и весь торговый путь шёл через его переправу. Он рассказывал "
        "об этом каждому, кто соглашался слушать, и никогда не брал денег с детей."),
    "school.txt": (
        "The school stood at the end of a long road lined with chestnut trees. Every autumn the "
        "children gathered the fallen chestnuts and carried them to the classroom in their pockets. "
        "The teacher, a patient woman with grey hair, used them to teach counting to the youngest "
        "pupils and never once complained about the mess they made on the floor."),
    "city.txt": (
        "Город просыпался рано: дворники мели улицы, булочные открывали двери, и запах свежего хлеба "
        "разносился по переулкам. Трамваи звенели на поворотах, а газетчики выкрикивали заголовки "
        "утренних новостей. К полудню площадь заполнялась людьми, торговцами и музыкантами."),
    "prompt.txt": "Напишите сочинение о своём родном городе. Объём сочинения не менее трёхсот слов.",
}
SUSPECTS = {
    "copy": SOURCES["river.txt"][:260] + " Это моё собственное продолжение истории о реке и людях.",
    "two sources": ("Напишите сочинение о своём родном городе. " + SOURCES["city.txt"][:180]
                    + " А ещё " + SOURCES["river.txt"][60:250]),
    "english": "My own words first. " + SOURCES["school.txt"][40:330] + " And my own ending here.",
    "original": "Совершенно самостоятельный текст о погоде, который не похож ни на один источник в собрании.",
    "short": "Река текла медленно между низкими берегами, поросшими ивняком.",
}


def _comparable(result: api.CheckResult) -> dict:
    """Everything a check reports, less the date the suspect was added (it differs per store)."""
    data = api.result_to_json(result)
    if data.get("in_collection"):
        data["in_collection"].pop("added", None)
    return data


def _build(location: str, files: list[Path], template: Path) -> api.Collection:
    coll = api.Collection(location)
    summary = coll.add([str(f) for f in files])
    assert not summary.failed and len(summary.added) == len(files)
    coll.add([str(template)], template=True)
    return coll


@pytest.fixture(scope="module")
def hand_made(tmp_path_factory) -> tuple[list[Path], Path]:
    folder = tmp_path_factory.mktemp("sources")
    for name, text in SOURCES.items():
        (folder / name).write_text(text, encoding="utf-8")
    return [folder / n for n in SOURCES if n != "prompt.txt"], folder / "prompt.txt"


def _check_both(postgres_server, tmp_path, files, template, suspects, *, parallel=False) -> int:
    lite = _build(str(tmp_path / "c.sverka"), files, template)
    pg = _build(postgres_server.create_database(), files, template)
    try:
        assert [dataclasses.replace(d, added="") for d in lite.documents()] == \
               [dataclasses.replace(d, added="") for d in pg.documents()]
        found = 0
        for name, text in suspects.items():
            doc = api.document_from_text(text, title=name)
            a, b = lite.check(doc), pg.check(doc)
            assert _comparable(a) == _comparable(b), name
            found += len(a.sources)
        # a document of the collection checked again: itself is not its own source, on both
        stored = api.load_document(files[0])
        a, b = lite.check(stored), pg.check(stored)
        assert a.in_collection is not None and _comparable(a) == _comparable(b)
        if parallel:  # worker processes open the shared collection by its URL
            docs = [api.document_from_text(t, title=n) for n, t in suspects.items()]
            assert [_comparable(r) for r in pg.check_many(docs, workers=2)] == \
                   [_comparable(lite.check(d)) for d in docs]
        return found
    finally:
        lite.close()
        pg.close()


def test_hand_made_texts_give_the_same_results(postgres_server, tmp_path, hand_made):
    files, template = hand_made
    found = _check_both(postgres_server, tmp_path, files, template, SUSPECTS, parallel=True)
    assert found >= 4  # the copies were found at all: an empty equality would prove nothing


def test_ruslit_fragments_give_the_same_results(postgres_server, tmp_path, ruslit, hand_made):
    stories = sorted((ruslit / "prose").rglob("*.txt"))[:12]
    if len(stories) < 12:
        pytest.skip("ruslit holds too few prose files")
    rng = np.random.default_rng(16)
    texts = [s.read_text(encoding="utf-8") for s in stories]
    suspects = {
        "verbatim": fragment(texts[0], 400, rng) + " " + fragment(texts[5], 300, rng),
        "rewritten": _drop_words(fragment(texts[3], 500, rng), every=7),
        "mixed": " ".join([fragment(texts[7], 150, rng), fragment(texts[11], 150, rng), fragment(texts[2], 80, rng)]),
    }
    found = _check_both(postgres_server, tmp_path, stories, hand_made[1], suspects)
    assert found >= 4


def _drop_words(text: str, every: int) -> str:
    """A crude rewrite: every ``every``-th word left out."""
    return " ".join(w for k, w in enumerate(text.split(" ")) if k % every != every - 1)


def test_long_sources_read_in_windows_give_the_same_results(postgres_server, tmp_path, ruslit, hand_made,
                                                            monkeypatch):
    """Long documents are read in windows (sverka.core.windows): by incremental blob I/O from
    the SQLite file, by ``substring`` of the bytea from the server; the same results."""
    from sverka.core import check

    novels = [p for p in sorted((ruslit / "prose").rglob("*.txt"), key=lambda p: (-p.stat().st_size, str(p)))
              if p.stat().st_size <= 1_100_000][:2]
    rng = np.random.default_rng(37)
    texts = [p.read_text(encoding="utf-8") for p in novels]
    suspects = {
        "verbatim": fragment(texts[0], 600, rng),
        "rewritten": _drop_words(fragment(texts[1], 700, rng), every=9),
        "mixed": " ".join([fragment(texts[0], 200, rng), fragment(texts[1], 250, rng)]),
    }
    used = []
    read = check.read_windows

    def spy(*args, **kwargs):
        w = read(*args, **kwargs)
        used.append(w is not None)
        return w

    monkeypatch.setattr(check, "read_windows", spy)
    found = _check_both(postgres_server, tmp_path, novels, hand_made[1], suspects)
    assert found >= 3 and sum(used) >= 4  # each store read windows (then kept the sources found whole)
