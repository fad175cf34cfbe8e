"""A class of essays checked in one call: order kept, unreadable files named, the same
figures as one by one, cancel, reports named after the essays."""

from __future__ import annotations

import threading

import pytest

from sverka.core import api
from sverka.core.batch import report_names, write_reports
from sverka.core.document import Document

SOURCE = ("Глобальное потепление вызвано прежде всего деятельностью человека: сжиганием угля, нефти "
          "и газа, вырубкой лесов и интенсивным сельским хозяйством. Концентрация углекислого газа в "
          "атмосфере выросла почти на пятьдесят процентов с начала промышленной революции. ") * 3
OWN = ("Мой дедушка держит пасеку за деревней, и каждое лето я помогаю ему качать мёд. "
       "Пчёлы сердятся, если подходить к ульям в тёмной одежде, поэтому я надеваю белую рубашку. ") * 4


@pytest.fixture
def col(tmp_path):
    with api.Collection(tmp_path / "c.sverka") as c:
        c.add_document(Document(SOURCE, path="/src/climate.txt", title="climate"))
        yield c


@pytest.fixture
def essays(tmp_path):
    folder = tmp_path / "essays"
    folder.mkdir()
    (folder / "a.txt").write_text(OWN[:300] + " " + SOURCE, encoding="utf-8")
    (folder / "b.txt").write_text(OWN, encoding="utf-8")
    (folder / "c.docx").write_bytes(b"PK\x03\x04 broken")
    (folder / "d.txt").write_text(OWN[:200] + " " + SOURCE[:400], encoding="utf-8")
    (folder / "e.txt").write_text(SOURCE[:380] + " " + OWN[:250], encoding="utf-8")
    return sorted(folder.iterdir())


@pytest.mark.parametrize("workers", [1, 2])
def test_check_files_keeps_order_names_unreadable_files_and_equals_single_checks(col, essays, workers):
    steps = []
    batch = col.check_files(essays, workers=workers, progress=lambda d, t, m: steps.append((d, t)))
    assert [it.path for it in batch.items] == [str(p) for p in essays]
    broken = batch.items[2]
    assert broken.result is None and broken.path.endswith("c.docx")
    assert "damaged" in api.message_text(broken.error, "en") and "повреждён" in api.message_text(broken.error, "ru")
    for item in batch.items:
        if item.result is None:
            continue
        single = col.check(api.load_document(item.path))
        assert api.result_to_json(item.result) == api.result_to_json(single)
    assert batch.items[0].result.borrowed_percent > 50 and batch.items[1].result.borrowed_percent == 0
    assert batch.cross is None and batch.closest_classmate(essays[0]) is None
    assert steps[-1] == (10, 10)


def test_check_files_can_compare_the_essays_with_each_other(col, essays):
    batch = col.check_files(essays, cross=True, workers=1)
    assert batch.cross is not None
    mate = batch.closest_classmate(batch.items[3].result.suspect.path)
    assert mate is not None and mate[0].endswith(("a.txt", "e.txt")) and mate[1] > 0.3
    mate_b = batch.closest_classmate(batch.items[1].result.suspect.path)  # a opens with b's first lines
    assert mate_b is not None and mate_b[0].endswith("a.txt") and 0.2 < mate_b[1] < 0.9


def test_check_files_cancelled_raises(col, essays):
    token = api.CancelToken()

    def progress(done, total, message):
        if done >= 1:
            token.cancel()

    with pytest.raises(api.Cancelled):
        col.check_files(essays * 2, workers=2, progress=progress, cancel=token)
    assert threading.active_count() < 20


def test_report_names_follow_the_essays_and_never_clash():
    assert report_names(["/a/ivanov.docx", "/b/ivanov.docx", "/a/Ivanov.pdf", "/a/петров.txt"], "html") == [
        "ivanov.html", "ivanov-2.html", "Ivanov-3.html", "петров.html"]


def test_write_reports_one_per_readable_essay(col, essays, tmp_path):
    batch = col.check_files(essays, workers=1)
    written = write_reports(batch, tmp_path / "out", "html", lang="ru")
    assert [p.name for p in written] == ["a.html", "b.html", "d.html", "e.html"]
    assert "climate" in written[0].read_text(encoding="utf-8")
    with pytest.raises(ValueError):
        write_reports(batch, tmp_path / "out", "doc")


def test_essays_sharing_a_source_hold_one_copy_of_its_text(col, essays):
    """Checked in workers, essays that borrow from the same source get its whole text (for the
    side-by-side view) as one string for the class, not one decoded copy per essay."""
    batch = col.check_files(essays, workers=2)
    texts = [s.text for it in batch.items if it.result for s in it.result.sources]
    single = col.check(api.load_document(str(essays[0]))).sources[0].text
    assert len(texts) >= 3 and all(t == single for t in texts)
    assert len({id(t) for t in texts}) == 1


def test_a_worker_sends_each_source_text_once_per_batch(col, monkeypatch):
    """A worker leaves out a source text it has already sent in the same batch (the SHA-256
    stays); the parent puts the one it has back, and says so when it has none."""
    from sverka.core import batch as b

    monkeypatch.setitem(b._worker, "index", col.index)
    monkeypatch.setitem(b._worker, "sources", b.SourceCache())
    monkeypatch.setattr(b, "_SENT", [None, set()])
    doc = Document(OWN[:300] + " " + SOURCE, title="essay")
    first = b._check_one(doc, api.Settings(), "one")
    again = b._check_one(doc, api.Settings(), "one")
    other = b._check_one(doc, api.Settings(), "two")
    text = first.sources[0].text
    assert text and again.sources[0].text == "" and other.sources[0].text == text
    assert again.sources[0].sha256 == first.sources[0].sha256
    filled = b._with_texts(again, {first.sources[0].sha256: text})
    assert filled.sources[0].text is text and filled.sources[0].passages == first.sources[0].passages
    assert b._with_texts(again, {}) is None
