"""The store protocol's shared suite: every test runs against an SQLite file and a real
PostgreSQL database (tests/store/conftest.py), with documents built by hand."""

from __future__ import annotations

import dataclasses
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

from sverka.core.messages import text
from sverka.core.errors import CollectionBusy, CollectionError, CollectionNeedsRebuild, CollectionVersionError
from sverka.core.store.common import SCHEMA_MAJOR, CollectionSettingsError
from sverka.core.store.sqlite import SQLiteStore
from sverka.core.settings import Settings
from sverka.core.store import STORE_METHODS, Store, open_store
from sverka.core.store.postgres import PostgresStore

from handmade import HIGH, hold_write_lock, make_tokens, prepared, set_meta

HERE = Path(__file__).resolve().parent


@pytest.fixture
def store(store_location):
    with open_store(store_location) as s:
        yield s


@pytest.mark.parametrize("cls", [SQLiteStore, PostgresStore])
def test_both_stores_implement_every_method_of_the_protocol(cls):
    import inspect

    for name in STORE_METHODS:
        impl = getattr(cls, name, None)
        assert callable(impl), f"{cls.__name__} lacks {name}"
        want = [p for p in inspect.signature(getattr(Store, name)).parameters.values()]
        have = inspect.signature(impl).parameters
        for p in want:
            if p.kind is p.VAR_POSITIONAL:
                continue
            assert p.name in have, f"{cls.__name__}.{name} lacks the parameter {p.name}"
            assert have[p.name].kind == p.kind, f"{cls.__name__}.{name}({p.name}) is passed differently"


def test_open_store_picks_the_backend(store, backend):
    assert isinstance(store, SQLiteStore if backend == "sqlite" else PostgresStore)
    assert isinstance(store, Store)
    from sverka.core import store as package

    assert package.SQLiteStore is SQLiteStore and package.PostgresStore is PostgresStore  # both named by the package
    assert store.settings == Settings() and store.count() == 0
    if backend == "postgres":
        assert "sverka-test-password" not in str(store.path) and str(store.path).startswith("postgresql://sverka@")


def test_write_classify_and_read_back(store):
    out = store.write_batch([prepared("a", [1, 2, 3, HIGH], seq2=[7, 8], words=[5, 6]),
                             prepared("b", [3, 4])])
    assert out == [("added", "/docs/a.txt", ""), ("added", "/docs/b.txt", "")]
    a = store.find_by_path("/docs/a.txt")
    assert a.title == "a" and store.count() == 2
    assert store.find_by_sha256(a.sha256) == a.id and store.find_by_sha256("0" * 64) is None
    assert store.stat_of("/docs/a.txt") == (a.id, 9, 1.0) and store.stat_of("/nowhere") is None
    hashes, pos = store.pairs(a.id)
    assert hashes.dtype == np.uint64 and hashes.tolist() == [1, 2, 3, HIGH] and pos.tolist() == [0, 1, 2, 3]
    assert store.sentences(a.id)[0].tolist() == [7, 8]
    assert store.short_lengths([a.id]) == {a.id: 2}
    assert store.text(a.id) == "text of a"
    stored = store.load(a.id)
    assert stored.info == a and stored.text == "text of a"
    assert np.array_equal(stored.tokens.hashes, make_tokens().hashes)
    assert stored.orders is None  # made without them
    assert store.load(a.id, a).info is a  # a description the caller has read is not asked for again

    # a document that keeps its sort orders gets them back from either store
    from sverka.core.align import sort_orders
    from sverka.core.store import codecs

    orders = sort_orders(make_tokens().hashes)
    with_orders = prepared("c", [21, 22], text="text of c")
    store.write_batch([dataclasses.replace(with_orders, tokens_blob=codecs.encode_tokens(make_tokens(), orders))])
    back = store.load(store.find_by_path("/docs/c.txt").id)
    assert np.array_equal(back.orders.lemmas, orders.lemmas) and np.array_equal(back.orders.pairs, orders.pairs)
    assert np.array_equal(back.tokens.hashes, make_tokens().hashes)
    store.remove([store.find_by_path("/docs/c.txt").id])
    assert tuple(text(w) for w in stored.tokens.warnings) == ("Латинские буквы",)

    again = store.write_batch([prepared("a", [1, 2, 3, HIGH]),  # same path, same content
                               prepared("copy", [9], text="text of b"),  # content stored as b
                               prepared("a", [10, 11], text="a changed")])  # same path, new content
    assert [s for s, _, _ in again] == ["unchanged", "duplicate", "updated"]
    assert again[1][2] == "/docs/b.txt"
    assert store.count() == 2
    new_a = store.find_by_path("/docs/a.txt")
    assert new_a.id != a.id and store.text(new_a.id) == "a changed"
    assert len(store.pair_postings([1, 2])[0]) == 0  # the old version's hashes are gone
    assert store.pair_postings([10, 11])[1].tolist() == [new_a.id, new_a.id]
    assert store.write_batch([("unchanged", new_a.id)], template=True) == [("unchanged", "/docs/a.txt", "")]
    assert store.template_ids() == [new_a.id]


def test_documents_sorted_by_title_in_code_point_order(store):
    store.write_batch([prepared(t, [i]) for i, t in enumerate(["b", "Б", "a", "Z", "é", "а"])])
    assert [d.title for d in store.documents()] == sorted(["b", "Б", "a", "Z", "é", "а"])


def test_postings_rows_and_cap(store):
    store.write_batch([prepared("a", [1, 2, 3, 4, 5]), prepared("b", [1, 2, 3, HIGH]),
                       prepared("c", [1, 9, 9]), prepared("d", [4, 5, HIGH])])
    ids = {d.title: d.id for d in store.documents()}
    query = np.array([1, 2, 3, 4, 5, HIGH, HIGH, 9, 77], dtype=np.uint64)

    def rows(**kw):
        h, d, p = store.pair_postings(query, **kw)
        assert h.dtype == np.uint64
        return sorted(zip(h.tolist(), d.tolist(), p.tolist()))

    everything = rows()
    assert (HIGH, ids["b"], 3) in everything and (9, ids["c"], 2) in everything
    assert len(everything) == 5 + 4 + 3 + 3
    # hash 1 has 3 rows: dropped whole with a cap of 2; hash 9 has 2 rows in one document: kept
    capped = rows(max_posting=2)
    assert all(h != 1 for h, _, _ in capped) and (9, ids["c"], 1) in capped
    assert set(capped) <= set(everything)
    assert len(store.pair_postings(np.empty(0, dtype=np.uint64))[0]) == 0
    many = np.arange(1, 70_000, dtype=np.uint64)  # more hashes than SQLite binds in one query
    assert sorted(zip(*(x.tolist() for x in store.pair_postings(many)))) == [r for r in everything if r[0] != HIGH]


def test_short_and_sentence_candidates(store):
    store.write_batch([prepared("a", [1], seq2=[7, 8, 8], words=[5, 6, HIGH]),
                       prepared("b", [2], seq2=[8], words=[6])])
    a, b = (store.find_by_path(f"/docs/{n}.txt").id for n in "ab")
    assert store.short_candidates([5, 6, HIGH], min_shared=1) == [(a, 3), (b, 1)]
    assert store.short_candidates([5, 6, HIGH], min_shared=2) == [(a, 3)]
    assert store.short_candidates([5, 6, HIGH], min_shared=1, limit=1) == [(a, 3)]
    assert store.short_candidates([]) == []
    assert sorted(store.sentence_postings([7, 8])[1].tolist()) == sorted([a, a, a, b])


def test_remove_and_template(store):
    store.write_batch([prepared("a", [1, 2]), prepared("b", [2, 3])], template=True)
    a, b = (store.find_by_path(f"/docs/{n}.txt").id for n in "ab")
    assert store.template_ids() == [a, b]
    store.set_template(a, False)
    assert store.template_ids() == [b]
    with pytest.raises(CollectionError, match="no document"):
        store.set_template(12345, True)
    assert store.remove([a, 12345]) == 1 and store.remove([]) == 0
    assert store.count() == 1 and store.pair_postings([1, 2])[1].tolist() == [b]
    with pytest.raises(CollectionError):
        store.text(a)
    with pytest.raises(CollectionError):
        store.info(a)
    # many at once: the ones still there, each as info() gives it
    assert store.infos([b, a, b, 12345]) == {b: store.info(b)} and store.infos([]) == {}
    assert store.integrity_check() == "ok"
    store.analyze()


def test_paths_under_a_folder_and_without_a_path(store):
    names = ["/docs/x/1.txt", "/docs/x/2.txt", "/docs/xy/3.txt", "/docs/" + "\udcff" + ".txt"]
    store.write_batch([prepared(f"d{i}", [i], path=p) for i, p in enumerate(names)]
                      + [prepared("pasted", [9], path=None)])
    ids = {d.path: d.id for d in store.documents()}
    assert store.ids_under("/docs/x") == [ids["/docs/x/1.txt"], ids["/docs/x/2.txt"]]
    assert store.ids_under("/docs/x/") == store.ids_under("/docs/x")
    assert store.find_by_path(names[3]).path == names[3]  # a name that is not UTF-8 round-trips
    assert None in ids and len(store.ids_under("/docs")) == 4


def test_failed_batch_leaves_the_store_unchanged(store):
    store.write_batch([prepared("a", [1, 2])])
    before = [d.id for d in store.documents()]
    bad = prepared("b", [3])
    object.__setattr__(bad, "text_blob", None)  # NOT NULL column: the insert fails mid-batch
    with pytest.raises(Exception):
        store.write_batch([prepared("c", [4]), bad])
    assert [d.id for d in store.documents()] == before
    assert len(store.pair_postings([4])[0]) == 0
    assert store.write_batch([prepared("c", [4])])[0][0] == "added"  # the store still works


def test_busy_writer_waits_then_says_so_and_readers_are_not_blocked(store_location):
    with open_store(store_location) as writer, open_store(store_location, busy_timeout=0.3) as other:
        with hold_write_lock(writer):
            with pytest.raises(CollectionBusy, match="collection is busy: another Sverka is writing to it"):
                other.write_batch([prepared("a", [1])])
            assert other.count() == 0  # readers are never blocked
        other.write_batch([prepared("a", [1])])
        assert writer.count() == 1


_WRITER = textwrap.dedent("""
    import sys
    sys.path.insert(0, {here!r})
    from handmade import prepared
    from sverka.core.store import open_store
    location, first, last = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    with open_store(location, busy_timeout=60) as s:
        for i in range(first, last, 2):
            out = s.write_batch([prepared(f"d{{i}}", [1000 + i, 5, i], words=[i, 7]),
                                 prepared(f"d{{i + 1}}", [1001 + i, 5], words=[i + 1, 7])])
            print(*(status for status, _, _ in out))
""")


def test_two_processes_adding_at_once_lose_nothing(store_location, tmp_path):
    script = tmp_path / "writer.py"
    script.write_text(_WRITER.format(here=str(Path(__file__).parent)))
    open_store(store_location).close()  # both writers find the schema made
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    # Overlapping ranges: documents 0..39 are offered by both at the same time (same path, same text).
    procs = [subprocess.Popen([sys.executable, str(script), store_location, str(a), str(b)],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
             for a, b in ((0, 40), (0, 60))]
    outs = [p.communicate(timeout=120) for p in procs]
    for p, (out, err) in zip(procs, outs):
        assert p.returncode == 0, err
    statuses = " ".join(out for out, _ in outs).split()
    assert statuses.count("added") == 60 and statuses.count("unchanged") == 40
    with open_store(store_location) as s:
        assert s.count() == 60
        h, d, _ = s.pair_postings([5])
        assert sorted(d.tolist()) == sorted(x.id for x in s.documents())  # each document once
        assert len(s.pair_postings(np.arange(1000, 1060, dtype=np.uint64))[0]) == 60
        assert s.short_candidates([7], min_shared=1, limit=100) == sorted(
            [(x.id, 1) for x in s.documents()])
        assert s.integrity_check() == "ok"


def test_settings_must_match_the_collection(store_location):
    open_store(store_location, Settings(shingle_words=5)).close()
    with open_store(store_location) as s:  # settings=None adopts the collection's
        assert s.settings.shingle_words == 5
    with pytest.raises(CollectionSettingsError, match="shingle_words = 5"):
        open_store(store_location, Settings())


def test_newer_major_version_refused(store_location):
    open_store(store_location).close()
    set_meta(store_location, "schema_version", f"{SCHEMA_MAJOR + 1}.0")
    with pytest.raises(CollectionVersionError, match="newer Sverka") as e:
        open_store(store_location)
    assert not isinstance(e.value, CollectionNeedsRebuild)
    assert "более новой Сверкой" in text(e.value.message, "ru")  # a message code: the Russian window words it


def test_older_major_version_and_other_canonization_need_a_rebuild(store_location):
    open_store(store_location).close()
    set_meta(store_location, "schema_version", f"{SCHEMA_MAJOR - 1}.0")
    with pytest.raises(CollectionNeedsRebuild, match="older Sverka.*rebuil") as e:
        open_store(store_location)
    assert "более старой Сверкой" in text(e.value.message, "ru")
    set_meta(store_location, "schema_version", f"{SCHEMA_MAJOR}.7")  # a newer minor version opens
    open_store(store_location).close()
    set_meta(store_location, "canon_version", "-1")
    with pytest.raises(CollectionNeedsRebuild, match="canon_version -1") as e:
        open_store(store_location)
    assert "другой версией Сверки (canon_version -1" in text(e.value.message, "ru")


# ---------------------------------------------------------------- PostgreSQL's own messages


def test_server_down_is_named(postgres_server):
    import socket

    with socket.socket() as s:  # a port nothing listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with pytest.raises(CollectionError, match=rf"cannot reach the PostgreSQL server 127.0.0.1:{port}.*running") as e:
        open_store(f"postgresql://sverka:secret@127.0.0.1:{port}/archive")
    assert "secret" not in str(e.value) and "(Connection refused)" in str(e.value)
    with pytest.raises(CollectionError, match=r"cannot reach the PostgreSQL server /nonexistent"):
        open_store("postgresql:///archive?host=/nonexistent")


def test_login_refused_is_named(postgres_server):
    url = postgres_server.create_database()
    wrong = url.replace("sverka-test-password", "not-the-password")
    with pytest.raises(CollectionError, match=r"refused the login of user 'sverka'.*password") as e:
        open_store(wrong)
    assert "not-the-password" not in str(e.value)
    with pytest.raises(CollectionError, match="refused the login of user 'nobody_here'"):
        open_store(url.replace("sverka:", "nobody_here:"))


def test_missing_database_is_named(postgres_server):
    with pytest.raises(CollectionError, match=r"has no database 'no_such_archive'.*CREATE DATABASE"):
        open_store(postgres_server.url("no_such_archive"))


def test_a_database_of_other_tables_is_not_taken(postgres_server):
    import psycopg

    url = postgres_server.create_database()
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("CREATE TABLE grades(student TEXT)")
    with pytest.raises(CollectionError, match="not a Sverka collection"):
        open_store(url)


def test_lost_connection_says_so(postgres_server):
    import psycopg

    url = postgres_server.create_database()
    with open_store(url) as s:
        with psycopg.connect(postgres_server.url("postgres"), autocommit=True) as admin:
            admin.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                          "WHERE application_name = 'Sverka' AND datname = %s", (url.rsplit("/", 1)[1],))
        with pytest.raises(CollectionError, match="lost the connection to the shared collection"):
            s.count()
