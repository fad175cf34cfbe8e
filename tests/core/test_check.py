"""check_document through a Collection: candidates, passages, duplicates, short texts, templates."""

from __future__ import annotations

import pytest

from sverka.core import api
from sverka.core.document import Document

SOURCE = (
    "Глобальное потепление вызывает таяние ледников в Арктике и Антарктиде, что приводит к "
    "повышению уровня Мирового океана. Учёные прогнозируют затопление прибрежных территорий "
    "во многих странах мира уже к концу нынешнего столетия. Особенно уязвимы островные государства "
    "Тихого океана, где большая часть суши находится всего в нескольких метрах над уровнем моря."
)
OTHER = (
    "Шахматы развивают логическое мышление, память и усидчивость. Регулярные занятия помогают "
    "детям лучше учиться в школе и принимать взвешенные решения в трудных ситуациях."
)
TASK = "Напишите эссе о влиянии изменения климата на жизнь людей в прибрежных районах планеты земля."


@pytest.fixture()
def col(tmp_path):
    with api.Collection(tmp_path / "c.sverka") as c:
        c.add_document(Document(SOURCE, path="/src/climate.txt", title="climate"))
        c.add_document(Document(OTHER, path="/src/chess.txt", title="chess"))
        c.add_document(Document(TASK, path="/src/task.txt", title="task"), template=True)
        yield c


def test_check_finds_source_and_spans(col):
    own = "Моё мнение таково: каждый должен беречь природу и экономить электричество дома. "
    text = own + SOURCE[:200] + " " + own
    r = col.check(Document(text, title="essay"))
    assert [s.title for s in r.sources] == ["climate"]
    (p,) = r.sources[0].passages
    assert p.suspect_start == len(own) and r.sources[0].text[p.source_start : p.source_end] == text[p.suspect_start : p.suspect_end]
    assert 20 < r.borrowed_percent < 60
    assert r.exact_duplicate_of is None


def test_the_suspect_itself_in_the_collection_is_not_its_own_source(col):
    """An essay archived with its class and checked again: the stored copy is not a source
    (same text, or same file); the result says when it was added and scores the rest."""
    for doc in (Document(SOURCE), Document(SOURCE + " Дописано позже.", path="/src/climate.txt")):
        r = col.check(doc)
        assert r.in_collection is not None and r.in_collection.title == "climate" and r.in_collection.added
        assert all(s.title != "climate" for s in r.sources) and r.borrowed_percent == 0.0
        assert r.exact_duplicate_of is None
    essay = Document("Моё мнение таково: каждый должен беречь природу. " + SOURCE[:200])
    r = col.check(essay)
    assert r.in_collection is None and [s.title for s in r.sources] == ["climate"]


def test_template_text_never_counts(col):
    text = TASK + " " + SOURCE[:150]
    r = col.check(Document(text))
    by = {s.title: s for s in r.sources}
    assert by["task"].is_template and all(p.excluded == "template" for p in by["task"].passages)
    assert by["task"].containment == 0.0
    assert r.borrowed_percent < 100 * (len(text) - len(TASK) + 5) / len(text)


def test_nothing_found(col):
    r = col.check(Document("Совершенно оригинальный текст про путешествие на велосипеде вдоль реки Волги."))
    assert r.sources == () and r.borrowed_percent == 0.0 and r.original_percent == 100.0


def test_excluded_source_via_apply_exclusions(col):
    r = col.check(Document(SOURCE[:250]))
    r2 = api.apply_exclusions(r, r.settings.replace(excluded_sources=("/src/climate.txt",)))
    assert r2.borrowed_percent == 0.0 and r2.sources[0].passages[0].excluded == "source"


def test_check_many_equals_one_by_one_in_order(col):
    from sverka.core.api import result_to_json

    suspects = [
        Document(SOURCE[:200] + " " + OTHER, path="/s/a.txt", title="a"),
        Document(OTHER, path="/s/b.txt", title="b"),
        Document("Совсем другой текст о погоде и прогулках в парке летним вечером.", path="/s/c.txt", title="c"),
        Document(SOURCE, path="/s/d.txt", title="d"),
    ]
    serial = [result_to_json(col.check(d)) for d in suspects]
    done = []
    parallel = col.check_many(suspects, workers=2, progress=lambda k, n, m: done.append(k))
    assert [result_to_json(r) for r in parallel] == serial
    assert max(done) == len(suspects)
    assert [result_to_json(r) for r in col.check_many(suspects, workers=1)] == serial


def test_a_few_short_suspects_are_checked_without_starting_workers(col, monkeypatch):
    """Starting a worker costs about half a second: suspects of little text in all are
    checked in this process however many they are; enough text (or workers asked for) is
    spread over the workers."""
    from sverka.core import batch

    def no_pool(*args, **kwargs):
        raise AssertionError("workers started for a few short suspects")

    monkeypatch.setattr(batch, "_start_pool", no_pool)
    short = [Document(f"{OTHER} Номер {k}.", title=str(k)) for k in range(2 * batch.MIN_PARALLEL)]
    assert sum(len(d.text) for d in short) < batch.parallel_chars()
    assert [r.sources[0].title for r in col.check_many(short)] == ["chess"] * len(short)
    assert batch._workers_for(len(short), None, batch.parallel_chars()) == min(batch.cores(), len(short))
    assert batch._workers_for(len(short), None, batch.parallel_chars() - 1) == 1
    assert batch._workers_for(len(short), 2, 10) == 2  # asked for
    assert batch._workers_for(batch.MIN_PARALLEL - 1, None, 10 * batch.parallel_chars()) == 1
    assert batch.parallel_chars() == (batch.TWO_CORES_PARALLEL_CHARS if batch.cores() == 2 else batch.MIN_PARALLEL_CHARS)


def test_sources_kept_between_checks_follow_the_collection(tmp_path):
    """Candidates prepared by one check are kept for the next (a class against the same
    sources); a removed document's text is never served for a new one, and a source's
    template mark is read afresh."""
    with api.Collection(tmp_path / "k.sverka") as c:
        c.add_document(Document(OTHER, title="chess"))
        c.add_document(Document(SOURCE, title="climate"))
        suspect = Document("Моё мнение. " + SOURCE, title="essay")
        first = c.check(suspect)
        assert [s.title for s in first.sources] == ["climate"]
        assert len(c.source_cache)  # kept by the open collection
        again = c.check(suspect)
        assert again.sources[0].passages == first.sources[0].passages
        assert again.borrowed_percent == first.borrowed_percent
        (climate_id,) = [s.source_id for s in first.sources]
        c.index.set_template(climate_id, True)
        assert c.check(suspect).sources[0].is_template
        c.remove([climate_id])
        c.add_document(Document("Вступление к докладу. " + SOURCE, title="climate, second edition"))
        later = c.check(suspect)
        assert [s.title for s in later.sources] == ["climate, second edition"]
        assert later.sources[0].text.startswith("Вступление к докладу. ")
        starts = [p.source_start for p in later.sources[0].passages]
        assert starts and min(starts) >= len("Вступление к докладу. ")


def test_the_page_cache_grows_for_checks_only(tmp_path, monkeypatch):
    """Adding documents keeps SQLite's 8 MB page cache (indexing's peak memory); a check's key
    lookups answered by the collection's tables (no usable postings file) give the connection
    the larger one; answered by the postings file, they leave it as it was. The result is the
    same either way."""
    from sverka.core.store.sqlite import LOOKUP_CACHE_KB, SQLiteStore

    essay = Document(SOURCE[:200] + " " + OTHER[:100], title="essay")
    with api.Collection(tmp_path / "c.sverka") as c:
        c.add_document(Document(SOURCE, title="climate"))
        c.add_document(Document(OTHER, title="chess"))
        assert c.index._db.execute("PRAGMA cache_size").fetchone()[0] == -8192
        from_file = c.check(essay)
        assert c.index._db.execute("PRAGMA cache_size").fetchone()[0] == -8192
        monkeypatch.setattr(SQLiteStore, "_current_postings", lambda self: None)
        first = c.check(essay)
        assert c.index._db.execute("PRAGMA cache_size").fetchone()[0] == -LOOKUP_CACHE_KB
        again = c.check(essay)
    assert [s.title for s in first.sources] == [s.title for s in again.sources] == \
        [s.title for s in from_file.sources] == ["climate", "chess"]
    assert [[p.matched_words for p in s.passages] for s in first.sources] == \
        [[p.matched_words for p in s.passages] for s in again.sources] == \
        [[p.matched_words for p in s.passages] for s in from_file.sources]


def test_a_class_is_checked_in_threads_each_on_its_own_connection(col, monkeypatch):
    """No worker processes where threads do (the meaning layer on, or too little text for
    workers): the results are the one-by-one results in order, each thread but the caller's
    own opens and closes a connection of its own, progress is reported from the caller's
    thread, and a cancel stops the class with nothing left running."""
    import threading

    from sverka.core import batch
    from sverka.core.api import result_to_json
    from sverka.core.errors import Cancelled
    from sverka.core.progress import CancelToken

    monkeypatch.setattr(batch, "cores", lambda: 2)

    def no_pool(*args, **kwargs):
        raise AssertionError("workers started where threads check the class")

    monkeypatch.setattr(batch, "_start_pool", no_pool)
    suspects = [Document(SOURCE[:200] + " " + OTHER, title="a"), Document(OTHER, title="b"),
                Document("Совсем другой текст о погоде и прогулках в парке летним вечером.", title="c"),
                Document(SOURCE, title="d"), Document(OTHER + " " + SOURCE[:300], title="e")]
    serial = [result_to_json(r) for r in col.check_many(suspects, workers=1)]
    made, closed, callers = [], [], []
    real = col._threaded

    def counting(settings, cancel):
        make = real(settings, cancel)

        def counted():
            check, close = make()
            made.append(threading.current_thread().name)
            return check, (lambda: (closed.append(1), close()))
        return counted

    monkeypatch.setattr(col, "_threaded", counting)
    threaded = []
    real_threads = batch.check_threads
    monkeypatch.setattr(batch, "check_threads", lambda *a, **k: threaded.append(a[3]) or real_threads(*a, **k))
    for meaning in (True, False):  # the layer on: threads for any class; off: for a little text
        settings = col.settings.replace(find_by_meaning=meaning)
        made.clear(), closed.clear(), callers.clear()
        got = col.check_many(suspects, settings, progress=lambda k, n, m: callers.append(threading.current_thread()))
        assert [result_to_json(r) for r in got] == [result_to_json(col.check(d, settings)) for d in suspects]
        assert threaded == [2]
        threaded.clear()
        # the second thread opened its own (unless the first took every essay before it began)
        assert len(made) == len(closed) <= 1 and all(name.startswith("sverka-class") for name in made)
        assert set(callers) == {threading.current_thread()} and len(callers) == len(suspects) + 1
    assert serial == [result_to_json(col.check(d)) for d in suspects]

    token = CancelToken()
    token.cancel()
    with pytest.raises(Cancelled):
        col.check_many(suspects, cancel=token)
    assert not [t for t in threading.enumerate() if t.name.startswith("sverka-class")]


def test_an_error_in_a_thread_of_a_class_reaches_the_caller(col, monkeypatch):
    from sverka.core import batch

    monkeypatch.setattr(batch, "cores", lambda: 2)
    calls = []

    def failing(doc):
        calls.append(doc.title)
        if doc.title == "b":
            raise ValueError("the essay b cannot be checked")
        return col.check(doc)

    docs = [Document(OTHER, title=t) for t in "abcd"]
    with pytest.raises(ValueError, match="essay b"):
        batch.check_threads(docs, failing, lambda: (failing, lambda: None), 2)
    assert "b" in calls
