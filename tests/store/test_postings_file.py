"""The postings file beside an SQLite collection (sverka.core.store.postings): a cache of the
key tables that never gives another answer than the tables.

Every lookup is compared with SQLite's own (``postings_from_tables``): after adds and removals
through the store, after changes made by a connection that knows nothing of the file (another
process, an earlier Sverka), with the file missing, damaged, truncated, of another collection,
left behind by a write killed before or after its commit, and in a read-only folder.
"""

from __future__ import annotations

import os
import shutil
import sqlite3

import numpy as np
import pytest

from sverka.core.document import Document
from sverka.core.fingerprints import fingerprint_document
from sverka.core.preparing import prepare
from sverka.core.settings import Settings
from sverka.core.store import postings
from sverka.core.store.sqlite import SQLiteStore
from sverka.core.text import canonize

WORDS = ("дом лес река поле город море небо земля огонь вода ветер гора сад мост путь свет "
         "день ночь зима лето осень весна книга слово рука друг мать отец сын дочь").split()


def _texts(n: int, seed: int) -> list[str]:
    rng = np.random.default_rng(seed)
    shared = " ".join(rng.choice(WORDS, 60))
    out = []
    for k in range(n):
        own = ". ".join(" ".join(rng.choice(WORDS, 12)) for _ in range(8))
        out.append(f"{own}. {shared if k % 2 else ''} Текст номер {k} {seed}.")
    return out


def _add(store: SQLiteStore, texts: list[str], tag: str) -> None:
    items = []
    for k, t in enumerate(texts):
        doc = Document(t, title=f"{tag} {k}")
        tokens = canonize(doc.text, drop_adjectives=store.settings.drop_adjectives)
        items.append(prepare(doc, tokens, fingerprint_document(tokens, store.settings)))
    store.write_batch(items)


def _batches(store: SQLiteStore, n: int, seed: int) -> None:
    """``n`` batches of three texts each (seeds ``seed``, ``seed + 1``, ...)."""
    for k in range(n):
        _add(store, _texts(3, seed + k), f"batch {k}")


def _all_keys(store: SQLiteStore) -> tuple[np.ndarray, np.ndarray]:
    db = store._db
    pairs = np.array([r[0] for r in db.execute("SELECT hash FROM pairs")], np.int64).view(np.uint64)
    sents = np.array([r[0] for r in db.execute("SELECT hash FROM sentences")], np.int64).view(np.uint64)
    extra = np.array([1, 2, 2**63 + 5], np.uint64)  # keys no document holds
    return np.concatenate([pairs, extra]), np.concatenate([sents, extra])


def _same_as_tables(store: SQLiteStore, max_posting: int = 0) -> None:
    pairs, sents = _all_keys(store)
    for table, keys, lookup in (("pairs", pairs, store.pair_postings), ("sentences", sents, store.sentence_postings)):
        got = lookup(keys, max_posting=max_posting)
        want = store.postings_from_tables(table, keys, max_posting)
        for g, w in zip(got, want):
            assert g.dtype == w.dtype
            assert g.tolist() == w.tolist()


def _docs_seen(store: SQLiteStore) -> set[int]:
    pairs, _ = _all_keys(store)
    return set(store.pair_postings(pairs)[1].tolist())


def _calls(monkeypatch, name: str) -> list:
    """A list that grows by one at every call of ``postings.<name>`` made by the store."""
    from sverka.core.store import sqlite

    calls: list = []
    real = getattr(postings, name)
    monkeypatch.setattr(sqlite.postings, name, lambda *a: calls.append(1) or real(*a))
    return calls


@pytest.fixture
def store(tmp_path):
    s = SQLiteStore(tmp_path / "c.sverka", Settings())
    yield s
    s.close()


def test_adds_and_removals_keep_the_file_and_its_answers(store):
    path = postings.path_for(store.path)
    _add(store, _texts(6, 1), "a")
    assert path.exists()  # written by the add itself
    _same_as_tables(store)
    _same_as_tables(store, max_posting=2)
    first = path.stat().st_mtime_ns
    _add(store, _texts(5, 2), "b")
    assert path.stat().st_mtime_ns != first  # updated, not rebuilt by the check
    _same_as_tables(store)
    ids = [d.id for d in store.documents()]
    store.remove(ids[:3])
    assert not _docs_seen(store) & set(ids[:3])
    _same_as_tables(store)
    assert not list(store.path.parent.glob("*.tmp")) and not list(store.path.parent.glob(".postings-*"))


def test_changes_by_a_connection_that_ignores_the_file(store, tmp_path):
    """Another process, or an earlier Sverka, adds and removes without touching the file: the
    store sees the collection changed and never answers from the stale file."""
    _add(store, _texts(6, 3), "a")
    _same_as_tables(store)
    assert store._current_postings() is not None
    other = sqlite3.connect(store.path, isolation_level=None)
    gone = other.execute("SELECT min(id) FROM documents").fetchone()[0]
    for t in ("pairs", "sentences", "short_words", "document_data"):
        other.execute(f"DELETE FROM {t} WHERE {'doc_id'}=?", (gone,))
    other.execute("DELETE FROM documents WHERE id=?", (gone,))
    assert gone not in _docs_seen(store)
    _same_as_tables(store)
    # an earlier Sverka's add: rows written, the file left as it was
    writer = SQLiteStore(tmp_path / "c.sverka")
    writer._postings_before = lambda db: None  # knows nothing of the file
    _add(writer, _texts(3, 4), "b")
    writer.close()
    newest = other.execute("SELECT max(id) FROM documents").fetchone()[0]
    assert newest in _docs_seen(store)
    _same_as_tables(store)
    other.close()


@pytest.mark.parametrize("damage", ["garbage", "truncated", "flipped", "empty", "header", "list"])
def test_a_damaged_file_is_never_used(tmp_path, damage):
    s = SQLiteStore(tmp_path / "c.sverka", Settings())
    _add(s, _texts(6, 5), "a")
    s.close()
    path = postings.path_for(tmp_path / "c.sverka")
    data = bytearray(path.read_bytes())
    if damage == "garbage":
        data = bytearray(os.urandom(len(data)))
    elif damage == "truncated":
        data = data[: len(data) * 2 // 3]
    elif damage == "flipped":
        data[-40] ^= 0x10  # a document id or position
    elif damage == "empty":
        data = bytearray()
    elif damage == "list":  # a header of valid JSON that is no header
        size = int.from_bytes(data[8:16], "little")
        data[16:16 + size] = b"[" + b" " * (size - 2) + b"]"
    else:
        data[20] = ord("{") if data[20] != ord("{") else ord("[")
    path.write_bytes(bytes(data))
    s = SQLiteStore(tmp_path / "c.sverka")
    _same_as_tables(s)  # answered from the tables, then from a rebuilt file
    assert s._current_postings() is not None
    s.close()


def test_a_file_of_another_collection_is_never_used(tmp_path):
    a = SQLiteStore(tmp_path / "a.sverka", Settings())
    b = SQLiteStore(tmp_path / "b.sverka", Settings())
    _add(a, _texts(4, 6), "a")
    _add(b, _texts(4, 7), "b")  # the same ids, other texts
    a.close()
    b.close()
    shutil.copy(postings.path_for(tmp_path / "a.sverka"), postings.path_for(tmp_path / "b.sverka"))
    b = SQLiteStore(tmp_path / "b.sverka")
    _same_as_tables(b)
    b.close()


def test_a_killed_write_leaves_answers_right(tmp_path, monkeypatch):
    """Killed after the commit, before the new file is in place: the old file names the old
    state and is not used. Killed before the commit: nothing changed, no file left behind."""
    s = SQLiteStore(tmp_path / "c.sverka", Settings())
    _add(s, _texts(4, 8), "a")

    def killed(*_):
        raise KeyboardInterrupt

    monkeypatch.setattr(s, "_install", killed)
    with pytest.raises(KeyboardInterrupt):
        _add(s, _texts(3, 9), "b")
    monkeypatch.undo()
    s.close()
    s = SQLiteStore(tmp_path / "c.sverka")
    assert s.count() == 7
    _same_as_tables(s)
    real = s._postings_after

    def after_then_fail(*args):
        real(*args)
        raise KeyboardInterrupt  # inside the transaction: rolled back

    monkeypatch.setattr(s, "_postings_after", after_then_fail)
    with pytest.raises(KeyboardInterrupt):
        _add(s, _texts(3, 10), "c")
    monkeypatch.undo()
    assert s.count() == 7
    _same_as_tables(s)
    s.close()


def test_a_read_only_folder_is_answered_by_sqlite(tmp_path, monkeypatch):
    if os.geteuid() == 0:  # root writes into read-only folders: the store is told it cannot
        monkeypatch.setattr("sverka.core.store.sqlite._writable", lambda path: False)
    folder = tmp_path / "ro"
    folder.mkdir()
    with monkeypatch.context() as m:
        m.setattr("sverka.core.store.sqlite._writable", lambda path: True)
        s = SQLiteStore(folder / "c.sverka", Settings())
        _add(s, _texts(4, 11), "a")
        s.close()
    postings.path_for(folder / "c.sverka").unlink()
    folder.chmod(0o555)
    try:
        s = SQLiteStore(folder / "c.sverka")
        _same_as_tables(s)
        assert s._current_postings() is None
        assert not postings.path_for(folder / "c.sverka").exists()
        s.close()
    finally:
        folder.chmod(0o755)


def test_large_tables_are_merged_a_range_at_a_time(store, monkeypatch):
    """Updates and builds in ranges of a few rows give the same file as one piece."""
    monkeypatch.setattr(postings, "CHUNK_ROWS", 7)
    _add(store, _texts(5, 12), "a")
    _add(store, _texts(4, 13), "b")
    store.remove([store.documents()[0].id])
    _same_as_tables(store)
    postings.path_for(store.path).unlink()
    store._side_state = None
    _same_as_tables(store)  # rebuilt in ranges


def test_a_rebuilt_collection_does_not_take_the_old_file(store):
    """The same texts under the same ids, keys made by another canonization (a rebuild after a
    new version): the collection's meta is part of the state the file names."""
    _add(store, _texts(4, 14), "a")
    assert store._current_postings() is not None
    old = store._current_postings().digest
    store._db.execute("UPDATE meta SET value = value || '-next' WHERE key = 'canon_version'")
    store._commits += 1  # as after a transaction of this connection
    side = store._current_postings()
    assert side is None or side.digest != old


def test_inside_a_transaction_the_tables_answer(store):
    """Lookups made inside a caller's transaction see its uncommitted rows: SQLite answers, and
    the transaction is neither committed nor ended by the lookup."""
    _add(store, _texts(4, 15), "a")
    gone = store.documents()[0].id
    with pytest.raises(RuntimeError):
        with store.transaction() as db:
            db.execute("DELETE FROM pairs WHERE doc_id=?", (gone,))
            assert gone not in _docs_seen(store)
            assert db.in_transaction
            raise RuntimeError  # rolled back
    assert gone in _docs_seen(store)
    _same_as_tables(store)


def test_a_rebuild_brings_its_postings_file_along(tmp_path):
    from sverka.core.rebuild import rebuild

    path = tmp_path / "c.sverka"
    s = SQLiteStore(path, Settings())
    _add(s, _texts(5, 16), "a")
    s._db.execute("UPDATE meta SET value = '0' WHERE key = 'canon_version'")  # made by an older Sverka
    s.close()
    assert rebuild(path) == 5
    assert not postings.path_for(path.with_name(path.name + ".rebuild")).exists()
    made = postings.path_for(path).stat().st_mtime_ns
    s = SQLiteStore(path)
    assert s._current_postings() is not None
    _same_as_tables(s)
    assert postings.path_for(path).stat().st_mtime_ns == made  # used as it came, not rebuilt
    s.close()


def test_an_add_of_many_batches_builds_the_file_once_at_its_end(store, monkeypatch):
    """Within one add, updates stop once they have copied ADD_COPY_FACTOR times the file's rows;
    the file is then made at the end, and holds the collection's state."""
    from sverka.core.store import sqlite

    _add(store, _texts(6, 17), "first")  # one batch alone: updated in place
    copies = []
    real = postings.merge_tables
    monkeypatch.setattr(sqlite.postings, "merge_tables", lambda *a: copies.append(1) or real(*a))
    with store.adding():
        _batches(store, 8, 18)
    assert 1 <= len(copies) < 8  # the first batches updated it, the later ones left it
    side = store._current_postings()
    assert side is not None and side.digest == sqlite.documents_digest(store._db)
    _same_as_tables(store)


def test_a_change_that_leaves_the_documents_keeps_the_opened_file(store, monkeypatch):
    """A template flag set (a commit that changes no key) is judged again, and the file opened
    before is kept rather than read and checked again."""
    _add(store, _texts(4, 19), "a")
    side = store._current_postings()
    assert side is not None
    opened = []
    monkeypatch.setattr(postings.PostingsFile, "open", classmethod(lambda cls, *a: opened.append(a) or None))
    store.set_template(store.documents()[0].id, True)
    assert store._current_postings() is side and not opened
    _same_as_tables(store)


def _built_from_rows(store: SQLiteStore) -> bytes:
    """The postings file of the store's current state as a build from its rows makes it."""
    path = postings.path_for(store.path)
    path.unlink()
    store._side_state = None
    assert store._current_postings() is not None
    return path.read_bytes()


@pytest.mark.parametrize("chunk", [7, 1 << 20])
def test_an_add_that_left_the_file_makes_it_from_its_batches(store, monkeypatch, chunk):
    """The batches after the file was left are kept aside and merged into it at the end, a range
    of keys at a time: the file is byte for byte the one a build from the rows makes, with a
    document updated by the add (its old rows gone) and one added and removed within it."""
    monkeypatch.setattr(postings, "CHUNK_ROWS", chunk)
    _add(store, _texts(6, 20), "first")
    built, merged = _calls(monkeypatch, "build_tables"), _calls(monkeypatch, "merge_runs")
    with store.adding():
        _batches(store, 6, 21)
        store.remove([store.documents()[0].id, store.documents()[-1].id])  # an old one, a new one
        _add(store, _texts(2, 30), "last")
    assert merged == [1] and not built  # made once from the batches, not from the rows
    made = postings.path_for(store.path).read_bytes()
    assert not list(store.path.parent.glob(".postings-*"))  # the runs' files are gone
    _same_as_tables(store)
    assert _built_from_rows(store) == made


def test_an_add_meeting_another_writer_builds_the_file_from_the_rows(store, tmp_path, monkeypatch):
    """A batch written by another process between two batches of the add: the batches kept
    aside no longer lead to the collection's state; the file is built from the rows."""
    from sverka.core.store import sqlite

    _add(store, _texts(6, 31), "first")
    built = _calls(monkeypatch, "build_tables")
    with store.adding():
        _batches(store, 4, 32)
        other = SQLiteStore(tmp_path / "c.sverka")  # after the fourth batch, before the fifth
        _add(other, _texts(2, 40), "another desktop")
        other.close()
        _add(store, _texts(3, 36), "batch 4")
    assert built
    side = store._current_postings()
    assert side is not None and side.digest == sqlite.documents_digest(store._db)
    _same_as_tables(store)


def test_an_add_ended_by_an_error_leaves_the_file_to_the_next_check(store):
    _add(store, _texts(6, 41), "first")
    with pytest.raises(RuntimeError):
        with store.adding():
            _batches(store, 5, 42)
            raise RuntimeError
    assert not list(store.path.parent.glob(".postings-*"))
    _same_as_tables(store)


def test_a_batch_the_spill_cannot_keep_is_written_all_the_same(store, monkeypatch):
    """No room left beside the collection for a batch's rows kept aside: the batch is committed,
    and the file is built from the rows at the end."""
    _add(store, _texts(6, 50), "first")
    real = postings.Spill.take
    calls = []

    def full_disk(self, *a):
        calls.append(1)
        if len(calls) == 2:
            raise OSError(28, "No space left on device")
        return real(self, *a)

    monkeypatch.setattr(postings.Spill, "take", full_disk)
    with store.adding():
        _batches(store, 6, 51)
    assert len(calls) >= 2
    assert len(store.documents()) == 6 + 18
    side = store._current_postings()
    assert side is not None and side.digest == postings.documents_digest(store._db)
    _same_as_tables(store)


def test_an_add_of_more_batches_than_a_spill_keeps_builds_the_file_from_the_rows(store, monkeypatch):
    monkeypatch.setattr(postings, "SPILL_RUNS", 2)
    _add(store, _texts(6, 60), "first")
    built = _calls(monkeypatch, "build_tables")
    with store.adding():
        _batches(store, 7, 61)
    assert built
    assert not list(store.path.parent.glob(".postings-*"))
    _same_as_tables(store)


def test_a_file_gone_during_an_add_is_built_from_the_rows_at_its_end(store, monkeypatch):
    """The file the add left removed (or built again elsewhere) before its end: the batches
    kept aside have nothing to start from; the file is built from the rows."""
    _add(store, _texts(6, 70), "first")
    built = _calls(monkeypatch, "build_tables")
    with store.adding():
        _batches(store, 6, 71)
        assert store._adding["left"]
        postings.path_for(store.path).unlink()
    assert built
    _same_as_tables(store)
