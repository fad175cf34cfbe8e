"""The PostgreSQL store's bulk load (an archive imported at once): posting indexes dropped
while rows are appended and built once at the end; the collection stays correct meanwhile,
and an import that stops half-way is finished by the next one."""

from __future__ import annotations

import numpy as np
import psycopg
import pytest

from sverka.core.store import open_store

from handmade import HIGH, prepared

INDEXES = ("pairs_pkey", "pairs_doc", "sentences_pkey", "sentences_doc", "short_words_pkey", "short_words_doc")


@pytest.fixture
def url(postgres_server):
    return postgres_server.create_database()


def _indexes(url: str) -> set[str]:
    with psycopg.connect(url) as conn:
        rows = conn.execute("SELECT indexname FROM pg_indexes WHERE tablename IN ('pairs', 'sentences', 'short_words')")
        return {r[0] for r in rows}


def _rows(store, query):
    h, d, p = store.pair_postings(query)
    s = store.sentence_postings(query)
    return sorted(zip(h.tolist(), d.tolist(), p.tolist())), sorted(zip(*(x.tolist() for x in s)))


DOCS = [prepared("a", [1, 2, 3, 4], seq2=[7, 8], words=[5, 6]), prepared("b", [1, 2, HIGH], seq2=[8], words=[6, 9]),
        prepared("c", [4, 4, 9], seq2=[7], words=[5, 9])]
QUERY = np.array([1, 2, 3, 4, 7, 8, 9, HIGH, 77], dtype=np.uint64)


def test_bulk_load_gives_the_same_collection_with_its_indexes(postgres_server, url):
    plain = postgres_server.create_database()
    with open_store(plain) as s:
        s.write_batch(DOCS)
        expected = _rows(s, QUERY), s.short_candidates([5, 6, 9])
    with open_store(url) as s:
        with s.bulk_load():
            assert _indexes(url) == set() and s.bulk_loading
            s.write_batch(DOCS[:2])
            assert _rows(s, QUERY)[0]  # readable meanwhile, without indexes
            s.write_batch(DOCS[2:])
        assert not s.bulk_loading
        assert (_rows(s, QUERY), s.short_candidates([5, 6, 9])) == expected
    assert _indexes(url) == set(INDEXES)
    with open_store(url) as s:
        assert not s.bulk_loading and s.count() == 3


def test_an_interrupted_bulk_load_is_seen_and_finished(url):
    with open_store(url) as s:
        s.write_batch(DOCS[:1])
        with pytest.raises(RuntimeError):
            with s.bulk_load():
                s.write_batch(DOCS[1:])
                raise RuntimeError("the import stopped")
    assert _indexes(url) == set()
    with open_store(url) as s:
        assert s.bulk_loading and s.count() == 3
        rows = _rows(s, QUERY)
        s.end_bulk_load()
        assert not s.bulk_loading and _rows(s, QUERY) == rows
        s.end_bulk_load()  # nothing left to do
    assert _indexes(url) == set(INDEXES)
    with open_store(url) as s:
        assert not s.bulk_loading


def test_a_key_with_too_many_rows_is_dropped_whole_without_reading_them_all(url):
    many = [prepared(f"d{k}", [1, 1000 + k]) for k in range(30)]
    with open_store(url) as s:
        s.write_batch(many)
        h, _, _ = s.pair_postings(np.array([1, 1005], np.uint64), max_posting=29)
        assert h.tolist() == [1005]
        h, _, _ = s.pair_postings(np.array([1, 1005], np.uint64), max_posting=30)
        assert sorted(set(h.tolist())) == [1, 1005] and len(h) == 31


def test_the_collections_own_cap_applies_to_every_query_and_is_kept(url):
    many = [prepared(f"d{k}", [1, 1000 + k] + ([2] if k < 5 else [])) for k in range(30)]
    with open_store(url) as s:
        s.write_batch(many)
        keys = np.array([1, 2, 1005], np.uint64)
        assert sorted(set(s.pair_postings(keys, max_posting=5000)[0].tolist())) == [1, 2, 1005]
        s.set_posting_cap(10)
        assert sorted(set(s.pair_postings(keys, max_posting=5000)[0].tolist())) == [2, 1005]
        assert sorted(set(s.pair_postings(keys)[0].tolist())) == [2, 1005]
        assert sorted(set(s.pair_postings(keys, max_posting=4)[0].tolist())) == [1005]  # a lower one still applies
    with open_store(url) as s:
        assert s.posting_cap == 10 and sorted(set(s.pair_postings(keys)[0].tolist())) == [2, 1005]
        s.set_posting_cap(0)
    with open_store(url) as s:
        assert sorted(set(s.pair_postings(keys)[0].tolist())) == [1, 2, 1005]
