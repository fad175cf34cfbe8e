"""Collection.add and friends over real extraction, canonization and fingerprints:
idempotent adds, duplicates, updates, removal, hostile folders, cancel."""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest

from sverka.core import indexing
from sverka.core.api import CancelToken, Collection, document_from_text
from sverka.core.errors import CollectionError
from sverka.core.settings import Settings

WORDS = (
    "дом река лес поле город дорога окно книга учитель ученик письмо газета работа время "
    "человек земля вода небо солнце ветер дождь снег зима лето осень весна утро вечер ночь "
    "говорить читать писать думать смотреть знать видеть любить жить ходить стоять сидеть "
    "большой новый старый хороший молодой высокий долгий тёплый холодный светлый тёмный "
    "деревня улица площадь мост сад берег гора камень дерево цветок трава птица рыба зверь "
    "отец мать брат сестра друг сосед гость хозяин мастер доктор солдат купец крестьянин"
).split()


def essay(seed: int, sentences: int = 40) -> str:
    rng = random.Random(seed)
    out = []
    for _ in range(sentences):
        words = [rng.choice(WORDS) for _ in range(rng.randint(8, 14))]
        out.append(" ".join(words).capitalize() + ".")
    return " ".join(out)


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture
def coll(tmp_path):
    with Collection(tmp_path / "c.sverka") as c:
        yield c


@pytest.fixture
def folder(tmp_path):
    root = tmp_path / "docs"
    for i in range(6):
        write(root / ("sub" if i % 2 else "") / f"essay{i}.txt", essay(i))
    write(root / "notes.xyz", essay(99))  # not a supported suffix: not taken from a folder
    return root


def test_add_is_idempotent(coll, folder):
    first = coll.add([folder])
    assert len(first.added) == 6 and not first.failed and not first.cancelled
    assert first.added == tuple(sorted(first.added, key=lambda p: (os.path.dirname(p) != str(folder), p)))
    second = coll.add([folder])
    assert second.added == () and sorted(second.unchanged) == sorted(first.added)
    assert coll.count() == 6
    titles = [d.title for d in coll.documents()]
    assert titles == sorted(titles)
    doc = coll.documents()[0]
    assert coll.text(doc.id) == Path(doc.path).read_text(encoding="utf-8")


def test_touched_but_same_content_is_unchanged(coll, folder):
    coll.add([folder])
    f = folder / "essay0.txt"
    os.utime(f, (1, 1))
    s = coll.add([f])
    assert s.unchanged == (str(f),) and s.added == s.updated == ()


def test_duplicate_content_stored_once(coll, tmp_path):
    a = write(tmp_path / "a" / "one.txt", essay(1))
    b = write(tmp_path / "b" / "same.txt", essay(1))
    s = coll.add([a, b])
    assert s.added == (str(a),) and s.duplicates == ((str(b), str(a)),)
    assert coll.count() == 1
    again = coll.add([b])
    assert again.duplicates == ((str(b), str(a)),) and coll.count() == 1


def test_changed_file_is_reindexed(coll, folder):
    coll.add([folder])
    f = folder / "essay0.txt"
    old_id = coll.index.find_by_path(str(f)).id
    write(f, essay(1000))
    s = coll.add([folder])
    assert s.updated == (str(f),) and len(s.unchanged) == 5
    info = coll.index.find_by_path(str(f))
    assert info.id != old_id and coll.text(info.id) == essay(1000)
    assert coll.count() == 6


def test_remove_by_id_path_and_folder(coll, folder):
    coll.add([folder])
    ids = [d.id for d in coll.documents()]
    assert coll.remove([ids[0]]) == 1
    assert coll.remove([folder / "essay2.txt"]) == 1
    assert coll.remove([folder / "sub"]) == 3
    assert coll.remove([folder / "nothing.txt"]) == 0
    assert coll.count() == 1
    assert coll.index.integrity_check() == "ok"


def test_hostile_folder_goes_on(coll, folder, tmp_path):
    write(folder / "empty.txt", "")
    (folder / "binary.txt").write_bytes(bytes(range(256)) * 64)
    (folder / "broken.docx").write_bytes(b"PK\x03\x04 not really a zip")
    (folder / "dangling.txt").symlink_to(tmp_path / "missing.txt")
    (folder / "sub" / "loop").symlink_to(folder)  # a loop back to the folder being added
    s = coll.add([folder, tmp_path / "no-such-file.txt"])
    assert len(s.added) == 6
    failed = {p: str(why) for p, why in s.failed}
    for name in ("empty.txt", "binary.txt", "broken.docx", "dangling.txt"):
        assert str(folder / name) in failed, name
    assert "loop" in failed[str(folder / "sub" / "loop")]
    assert failed[str(tmp_path / "no-such-file.txt")] == "no such file or folder"
    assert all(reason for reason in failed.values())
    assert coll.count() == 6  # nothing of the failed files entered the index
    assert coll.index.integrity_check() == "ok"


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads every file")
def test_unreadable_file_and_folder(coll, folder):
    locked = folder / "essay0.txt"
    locked.chmod(0)
    (folder / "sub").chmod(0)
    try:
        s = coll.add([folder])
    finally:
        locked.chmod(0o644)
        (folder / "sub").chmod(0o755)
    failed = {p: str(why) for p, why in s.failed}
    assert str(locked) in failed and str(folder / "sub") in failed
    assert len(s.added) == 2


def test_cancel_keeps_committed_batches_only(coll, tmp_path, monkeypatch):
    monkeypatch.setattr(indexing, "BATCH_FILES", 3)
    root = tmp_path / "many"
    for i in range(10):
        write(root / f"e{i:02}.txt", essay(i))
    cancel = CancelToken()
    seen = []

    def progress(done, total, message):
        seen.append(done)
        if done == 7:  # batches of 3: 6 files committed, the 7th is in the open batch
            cancel.cancel()

    s = coll.add([root], progress=progress, cancel=cancel)
    assert s.cancelled
    assert s.added == tuple(str(root / f"e{i:02}.txt") for i in range(6))
    assert sorted(d.path for d in coll.documents()) == list(s.added)
    rest = coll.add([root])  # an add after the cancel finishes the job
    assert len(rest.added) == 4 and len(rest.unchanged) == 6 and coll.count() == 10


def test_template_and_pasted_documents(coll, tmp_path):
    prompt = write(tmp_path / "prompt.txt", essay(5))
    s = coll.add([prompt], template=True)
    doc_id = coll.index.find_by_path(str(prompt)).id
    assert s.added == (str(prompt),) and coll.index.template_ids() == [doc_id]
    coll.set_template(doc_id, False)
    assert coll.index.template_ids() == []
    pasted = coll.add_document(document_from_text(essay(6), title="Вставленный текст"))
    assert pasted.added == ("Вставленный текст",)
    again = coll.add_document(document_from_text(essay(6), title="Ещё раз"))
    assert again.duplicates == (("Ещё раз", "Вставленный текст"),)
    assert coll.count() == 2


def test_settings_of_the_collection(tmp_path):
    path = tmp_path / "c.sverka"
    Collection(path, Settings(shingle_words=5)).close()
    with Collection(path) as c:
        assert c.settings.shingle_words == 5
    with pytest.raises(CollectionError, match="built with other settings"):
        Collection(path, Settings(shingle_words=3))


def test_a_collection_storing_settings_that_are_gone_opens_and_checks(tmp_path):
    """Collections built before the winnowing window and the min-hash functions stopped being
    settings store them (with any value) in their meta: they open with any settings, checks
    and adds ignore them, and what is compared on opening is only what is fixed at indexing."""
    import sqlite3

    path = tmp_path / "old.sverka"
    text = essay(7, 60)
    with Collection(path) as c:
        c.add_document(document_from_text(text, title="source"))
    db = sqlite3.connect(path)
    with db:
        db.executemany("INSERT OR REPLACE INTO meta VALUES(?, ?)",
                       [("winnow_window", "6"), ("minhash_functions", "50"), ("min_shared_fingerprints", "9")])
    db.close()
    for settings in (None, Settings(), Settings(min_passage_words=12)):
        with Collection(path, settings) as c:
            assert c.settings == Settings() if settings is None else c.settings == settings
            result = c.check(document_from_text(essay(8, 20) + " " + text[:600]))
            assert [s.title for s in result.sources] == ["source"]
            c.add_document(document_from_text(essay(9, 30), title=f"more {settings}"))
    with pytest.raises(CollectionError, match="drop_adjectives"):
        Collection(path, Settings(drop_adjectives=True))  # what is fixed at indexing still is


def test_check_finds_the_source(coll, folder):
    coll.add([folder])
    text = (folder / "essay2.txt").read_text(encoding="utf-8")
    suspect = document_from_text(essay(500, 10) + " " + text[:1500] + " " + essay(501, 10))
    result = coll.check(suspect)
    assert result.sources and result.sources[0].path == str(folder / "essay2.txt")


@pytest.mark.slow
def test_pool_add_of_a_real_folder(tmp_path, ruslit):
    """Both cores: enough text to take the process pool; ids follow the sorted file order."""
    src = sorted((ruslit / "prose" / "Chekhov").glob("*.txt"))[:12]
    with Collection(tmp_path / "c.sverka") as c:
        s = indexing.add_paths(c.index, src, workers=2)
        assert s.added == tuple(str(p) for p in src)
        assert [c.index.find_by_path(str(p)).id for p in src] == sorted(
            c.index.find_by_path(str(p)).id for p in src)


def _counted_pools(monkeypatch) -> list[int]:
    """Patches the pools an add starts to be counted: the list grows by a pool's processes."""
    started: list[int] = []
    real = indexing.process_pool

    def counted(workers, *args):
        started.append(workers)
        return real(workers, *args)

    monkeypatch.setattr(indexing, "process_pool", counted)
    return started


def test_the_pace_says_readers_are_behind_only_after_the_first_batch_and_by_the_slack():
    pace = indexing.Pace()
    pace.reading = 10.0
    assert not pace.readers_behind()  # nothing handed to the writer yet: the first batch is read alone
    pace.started = True
    assert pace.readers_behind()
    pace.writing = 10.0 - indexing.PACE_SLACK + 0.5
    assert not pace.readers_behind()  # within the slack
    pace.reading += 1.0
    assert pace.readers_behind()


@pytest.mark.slow
def test_an_add_that_encodes_more_than_it_reads_keeps_one_reader(tmp_path, monkeypatch):
    """With the meaning layer, an add waiting for its writer (the encoding) more than for its
    reader starts no second reader process; without the layer both start at once; an add
    whose pace says the readers are behind takes the second (the slack below zero: behind from
    the first batch written, whatever this machine's reading and writing times)."""
    folder = tmp_path / "docs"
    for i in range(24):
        write(folder / f"d{i:02}.txt", essay(700 + i, 12))
    monkeypatch.setattr(indexing, "BATCH_FILES", 4)
    names = [str(p) for p in sorted(folder.iterdir())]

    started = _counted_pools(monkeypatch)
    with Collection(tmp_path / "slow-writer.sverka") as c:
        real = c.index.write_batch

        def slow(items, **kw):
            import time

            time.sleep(0.6)
            return real(items, **kw)

        monkeypatch.setattr(c.index, "write_batch", slow)
        assert list(indexing.add_paths(c.index, [folder], workers=2).added) == names
    assert started == [1]

    started.clear()
    with Collection(tmp_path / "no-layer.sverka", settings=Settings(find_by_meaning=False)) as c:
        assert list(indexing.add_paths(c.index, [folder], workers=2).added) == names
    assert started == [1, 1]

    started.clear()
    monkeypatch.setattr(indexing, "PACE_SLACK", -1.0)
    monkeypatch.setattr(indexing, "with_vectors", lambda items: items)  # a writer with nothing to encode
    with Collection(tmp_path / "readers-behind.sverka") as c:
        assert list(indexing.add_paths(c.index, [folder], workers=2).added) == names
    assert started == [1, 1]


@pytest.mark.slow
def test_pool_add_writes_batches_in_order_while_the_next_is_read(tmp_path, monkeypatch):
    """With worker processes a batch is written by one writer thread while the next is read:
    batches commit one at a time and in order, every file is reported, and a batch that
    cannot be written stops the adding with its error, the batches before it committed."""
    import threading

    from sverka.core.errors import CollectionBusy

    folder = tmp_path / "docs"
    for i in range(24):
        write(folder / f"d{i:02}.txt", essay(900 + i, 12))
    monkeypatch.setattr(indexing, "BATCH_FILES", 4)
    with Collection(tmp_path / "c.sverka") as c:
        real = c.index.write_batch
        threads, active, order = set(), [], []

        def watched(items, **kw):
            assert not active, "one batch at a time"
            active.append(1)
            threads.add(threading.current_thread().name)
            try:
                out = real(items, **kw)
                order.extend(name for _, name, _ in out)
                return out
            finally:
                active.pop()

        monkeypatch.setattr(c.index, "write_batch", watched)
        s = indexing.add_paths(c.index, [folder], workers=2)
        assert list(s.added) == order == [str(p) for p in sorted(folder.iterdir())]
        assert threads and all(t.startswith("sverka-writer") for t in threads)

    calls = []

    def busy_third(items, **kw):
        calls.append(len(items))
        if len(calls) == 3:
            raise CollectionBusy("busy")
        return real2(items, **kw)

    with Collection(tmp_path / "d.sverka") as c:
        real2 = c.index.write_batch
        monkeypatch.setattr(c.index, "write_batch", busy_third)
        with pytest.raises(CollectionBusy):
            indexing.add_paths(c.index, [folder], workers=2)
        assert len(calls) == 3 and c.index.count() == 8
