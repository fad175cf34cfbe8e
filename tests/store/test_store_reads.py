"""Reading stored documents by parts and whole, on both backends: the parts a check's windows
read (``blob_readers``) are the stored bytes, whether the store reads a short document whole
with its first query (PostgreSQL) or part by part, and a ``load`` that follows gives the
document as stored then, even when another desktop replaced it in between."""

from __future__ import annotations

import numpy as np
import pytest

from sverka.core.errors import CollectionError
from sverka.core.store import codecs, open_store
from sverka.core.store import postgres as pg_store

from handmade import prepared

TEXT = "Первая фраза эссе. " * 40 + "Последняя."


def _parts(store, doc_id: int) -> tuple[bytes, bytes, list[bytes]]:
    """(whole tokens blob, whole text blob, some parts) read through ``blob_readers``."""
    with store.blob_readers(doc_id) as (read_tokens, size, read_text):
        tokens = read_tokens(0, size)
        text_size = len(codecs.encode_text(TEXT))
        text = read_text(0, text_size)
        parts = [read_tokens(3, 17), read_text(5, 40), read_text(text_size - 1, 1), read_tokens(size, 0)]
        with pytest.raises(ValueError):
            read_text(text_size - 4, 5)  # beyond the stored text
        with pytest.raises(ValueError):
            read_tokens(-1, 2)
        # every part at once (a server: one query), as a check's windows read them
        assert codecs.read_parts(read_tokens, [(3, 17), (size, 0), (0, 5), (3, 17)]) == \
            [parts[0], b"", tokens[:5], parts[0]]
        assert codecs.read_parts(read_text, [(5, 40), (text_size - 1, 1)]) == parts[1:3]
        with pytest.raises(ValueError):
            codecs.read_parts(read_text, [(5, 40), (text_size - 4, 5)])
    return tokens, text, parts


@pytest.mark.parametrize("whole", [True, False], ids=["read-whole", "by-parts"])
def test_blob_readers_give_the_stored_bytes(store_location, backend, whole, monkeypatch):
    if not whole:
        if backend == "sqlite":
            pytest.skip("the SQLite store always reads by parts")
        monkeypatch.setattr(pg_store, "READ_WHOLE_MAX", 0)
        monkeypatch.setattr(pg_store, "MANY_PARTS", 3)  # parts asked for at once come in several queries
    with open_store(store_location) as store:
        p = prepared("essay", [1, 2, 3], text=TEXT)
        store.write_batch([p])
        doc_id = store.find_by_path("/docs/essay.txt").id
        tokens, text, parts = _parts(store, doc_id)
        assert tokens == bytes(p.tokens_blob) and text == bytes(p.text_blob)
        assert parts == [tokens[3:20], text[5:45], text[-1:], b""]
        stored = store.load(doc_id)  # after the readers: the same document
        assert stored.text == TEXT
        p2 = prepared("second", [9], text="Второе эссе.")
        store.write_batch([p2])
        second = store.find_by_path("/docs/second.txt").id
        infos = store.infos([doc_id, second])  # a check's candidates (PostgreSQL: read with them)
        assert _parts(store, doc_id) == (tokens, text, parts)
        assert store.load(second, infos[second]).text == "Второе эссе."
        stored = store.load(doc_id, infos[doc_id])
        assert stored.text == TEXT
        assert np.array_equal(stored.tokens.hashes, codecs.decode_stored(bytes(p.tokens_blob), TEXT)[0].hashes)
        if backend == "postgres":  # (the SQLite store's blob I/O raises sqlite3's own error)
            with pytest.raises(CollectionError):
                with store.blob_readers(doc_id + 100):
                    pass


def test_a_load_after_the_readers_reads_a_replaced_document_anew(store_location):
    with open_store(store_location) as store, open_store(store_location) as other:
        store.write_batch([prepared("essay", [1, 2, 3], text=TEXT), prepared("other", [7], text="Другое эссе.")])
        doc_id = store.find_by_path("/docs/essay.txt").id
        second = store.find_by_path("/docs/other.txt").id
        with store.blob_readers(doc_id) as (read_tokens, size, _):
            read_tokens(0, size)
        assert store.load(second).text == "Другое эссе."  # not the document read last
        with store.blob_readers(doc_id) as (read_tokens, size, _):
            read_tokens(0, size)
        assert other.write_batch([prepared("essay", [4, 5], text="Новый текст.")])[0][0] == "updated"
        new_id = store.find_by_path("/docs/essay.txt").id
        assert store.load(new_id, store.info(new_id)).text == "Новый текст."


@pytest.mark.parametrize("way", ["blob_readers", "infos"])
def test_a_load_checks_the_document_it_kept_against_the_description(postgres_server, way):
    """The same id holding other bytes (written behind this desktop's back) is read anew."""
    import psycopg

    url = postgres_server.create_database()
    with open_store(url) as store:
        store.write_batch([prepared("essay", [1, 2, 3], text=TEXT), prepared("second", [9], text="Второе эссе.")])
        doc_id = store.find_by_path("/docs/essay.txt").id
        if way == "infos":  # a check's candidates: read with their descriptions
            store.infos([doc_id, store.find_by_path("/docs/second.txt").id])
        else:
            with store.blob_readers(doc_id) as (read_tokens, size, _):
                read_tokens(0, size)
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute("UPDATE document_data SET text=%s WHERE doc_id=%s",
                         (bytes(codecs.encode_text("Первая фраза эссе. " * 41)), doc_id))
            conn.execute("UPDATE documents SET sha256=%s WHERE id=%s", ("f" * 64, doc_id))
        assert store.load(doc_id).text == "Первая фраза эссе. " * 41


def test_vectors_after_the_candidates_descriptions(store_location):
    """infos() of a check's candidates tells the PostgreSQL store which have no vectors of
    meaning; vectors() then gives the same as a query would, for both kinds."""
    import dataclasses

    from sverka.core.document import Document
    from sverka.core.fingerprints import fingerprint_document
    from sverka.core.indexing import prepare
    from sverka.core.settings import Settings
    from sverka.core.text import canonize

    text = "Первое предложение этого документа довольно длинное. Второе тоже содержит несколько слов."
    tokens = canonize(text)
    p = prepare(Document(text, path="/v.txt"), tokens, fingerprint_document(tokens, Settings()), path="/v.txt",
                meaning=True)
    p = dataclasses.replace(p, vectors=np.arange(len(p.vector_spans) * 512, dtype=np.int64).reshape(-1, 512)
                            .astype(np.int8))
    with open_store(store_location) as store:
        store.write_batch([p, prepared("plain", [1, 2], text=TEXT)])
        with_vectors, plain = store.find_by_path("/v.txt").id, store.find_by_path("/docs/plain.txt").id
        before = store.vectors(with_vectors), store.vectors(plain)
        assert len(before[0][1]) == 2 and len(before[1][1]) == 0
        store.infos([with_vectors, plain])
        after = store.vectors(with_vectors), store.vectors(plain)
        for (s0, v0), (s1, v1) in zip(before, after):
            assert np.array_equal(s0, s1) and np.array_equal(v0, v1) and v0.dtype == v1.dtype
        assert np.array_equal(after[0][1], p.vectors)


def test_the_server_compiles_no_query_of_a_check(postgres_server):
    """A check's queries are index probes: the PostgreSQL store's session has the server's JIT off."""
    with open_store(postgres_server.create_database()) as store:
        assert store._one("SHOW jit")[0] == "off"
