"""The machine-wide table of analysed word forms (core/formcache.py): hits, misses, versions,
damaged files, concurrent writers, and canonization identical with and without it."""

from __future__ import annotations

import multiprocessing
from pathlib import Path

import numpy as np
import pytest

from sverka.core import formcache, morph, text

RUSSIAN = ("Мальчики бежали по дорогам к старым домам, а девочка читала книги о далёких "
           "странах. Стали стали крепче; печь пекла пироги. Кошки, собаки и лошади паслись.")
ENGLISH = "The running children were reading better books about studies of geese and mice."


@pytest.fixture()
def cache(empty_form_cache):
    """An empty cache directory for this test (tests/conftest.py)."""
    return empty_form_cache


def _slow_path_calls(monkeypatch) -> list:
    calls = []
    real = morph._analyze

    def counting(form, lang):
        calls.append((form, lang))
        return real(form, lang)

    monkeypatch.setattr(morph, "_analyze", counting)
    return calls


def test_miss_then_hit_across_processes(cache, monkeypatch):
    calls = _slow_path_calls(monkeypatch)
    first = morph.analyze("бежали", "ru")
    assert calls == [("бежали", "ru")]
    assert formcache.flush() >= 1
    assert formcache.path().is_file() and formcache.path().parent == cache
    # A new process: nothing in memory, the file answers.
    formcache.reset()
    morph._cache.clear()
    again = morph.analyze("бежали", "ru")
    assert calls == [("бежали", "ru")], "a form in the file must not reach the dictionaries"
    assert again == first and again.lemma == "бежать"
    morph.analyze("домами", "ru")
    assert calls[-1] == ("домами", "ru")


def test_same_form_other_language_is_another_entry(cache, monkeypatch):
    calls = _slow_path_calls(monkeypatch)
    morph.analyze("стали", "ru")
    formcache.flush()
    formcache.reset()
    morph._cache.clear()
    morph.analyze("стали", "uk")
    assert calls == [("стали", "ru"), ("стали", "uk")]


def test_other_dictionary_version_is_another_file(cache, monkeypatch):
    morph.analyze("книги", "ru")
    formcache.flush()
    old = formcache.path()
    monkeypatch.setattr(formcache, "RULES_VERSION", formcache.RULES_VERSION + 1)
    formcache.reset()
    morph._cache.clear()
    calls = _slow_path_calls(monkeypatch)
    assert formcache.path() != old
    morph.analyze("книги", "ru")
    assert calls == [("книги", "ru")], "analyses of another version must not be used"
    formcache.flush()
    assert not old.exists(), "the file of the old version is removed"
    assert formcache.path().is_file()


@pytest.mark.parametrize("damage", ["truncate", "flip", "garbage", "empty", "not_utf8", "cut_inside_a_letter"])
def test_damaged_file_is_ignored_and_rebuilt(cache, monkeypatch, damage):
    morph.analyze("книги", "ru")
    morph.analyze("домами", "ru")
    formcache.flush()
    f = formcache.path()
    data = bytearray(f.read_bytes())
    if damage == "truncate":
        data = data[: len(data) // 2]
    elif damage == "flip":
        data[len(data) // 2] ^= 0x55
    elif damage == "garbage":
        data = bytearray(b"not a cache" * 10)
    elif damage == "not_utf8":  # a lemma's bytes no longer UTF-8, the checksum made to match
        import xxhash

        at = bytes(data).rindex("книга".encode())
        data[at] = 0xFF
        body = bytes(data[:-8])
        data = bytearray(body + xxhash.xxh64_intdigest(body).to_bytes(8, "little"))
    elif damage == "cut_inside_a_letter":  # a row's lemma made to start inside a letter, the checksum made to match
        import struct

        import xxhash

        found = formcache._read(f, formcache.version_key())
        row = [found[8][a:b] for a, b in zip(*(x.tolist() for x in found[6]))].index("книга".encode())
        n = len(found[0])
        fixed = len(formcache.MAGIC) + 24 + 32
        at = fixed + 2 * n + (-2 * n) % 8 + 24 * n + 8 * n + 4 * row  # lemma_start[row]
        struct.pack_into("<I", data, at, struct.unpack_from("<I", data, at)[0] + 1)
        body = bytes(data[:-8])
        data = bytearray(body + xxhash.xxh64_intdigest(body).to_bytes(8, "little"))
    else:
        data = bytearray()
    f.write_bytes(bytes(data))
    formcache.reset()
    morph._cache.clear()
    calls = _slow_path_calls(monkeypatch)
    a = morph.analyze("книги", "ru")
    assert calls == [("книги", "ru")] and a.lemma == "книга"
    formcache.flush()
    formcache.reset()
    morph._cache.clear()
    morph.analyze("книги", "ru")
    assert len(calls) == 1, "the rebuilt file answers again"


def test_a_canonization_analyses_again_a_form_whose_kept_lemma_is_not_text(cache, monkeypatch):
    """Every kept row of the lemma "книга" made to start inside a letter (the checksum made to
    match): a new process canonizing "книги" analyses it again rather than fail; the other
    forms still come from the file."""
    import struct

    import xxhash

    _fresh_table(monkeypatch)
    expected = text.canonize("Девочка читала книги.")
    formcache.flush()
    f = formcache.path()
    data = bytearray(f.read_bytes())
    found = formcache._read(f, formcache.version_key())
    n = len(found[0])
    lemma_start = len(formcache.MAGIC) + 24 + 32 + 2 * n + (-2 * n) % 8 + 24 * n + 8 * n
    damaged = [row for row, (a, b) in enumerate(zip(*(x.tolist() for x in found[6])))
               if found[8][a:b] == "книга".encode()]
    assert damaged
    for row in damaged:
        struct.pack_into("<I", data, lemma_start + 4 * row, struct.unpack_from("<I", data, lemma_start + 4 * row)[0] + 1)
    body = bytes(data[:-8])
    f.write_bytes(body + xxhash.xxh64_intdigest(body).to_bytes(8, "little"))
    formcache.reset()
    _fresh_table(monkeypatch)
    calls = _slow_path_calls(monkeypatch)
    again = text.canonize("Девочка читала книги.")
    assert again.lemmas == expected.lemmas and np.array_equal(again.hashes, expected.hashes)
    assert [form for form, _ in calls] == ["книги"]


def test_a_read_only_process_takes_forms_from_the_file_and_records_none(cache, monkeypatch):
    """An indexing worker: the forms an earlier process kept are not analysed again, and the
    forms it analyses are not written (workers rewriting the growing file cost more than
    they saved)."""
    _fresh_table(monkeypatch)
    kept = text.canonize("Девочка читала книги.")
    formcache.flush()
    before = formcache.path().read_bytes()
    formcache.reset()
    _fresh_table(monkeypatch)
    monkeypatch.setattr(formcache.table(), "_recording", True)  # put back after the test
    formcache.read_only_in_this_process()
    calls = _slow_path_calls(monkeypatch)
    again = text.canonize("Девочка читала книги о далёких странах.")
    assert again.lemmas[: len(kept.lemmas)] == kept.lemmas
    assert sorted(form for form, _ in calls) == ["далеких", "о", "странах"], "kept forms came from the file"
    assert formcache.flush() == 0 and formcache.path().read_bytes() == before, "nothing recorded"
    # a file larger than a read-only process may hold is not read: its forms are analysed
    monkeypatch.setattr(formcache, "READ_ONLY_MAX_BYTES", len(before) - 1)
    formcache.reset()
    _fresh_table(monkeypatch)
    calls.clear()
    assert text.canonize("Девочка читала книги.").lemmas == kept.lemmas
    assert sorted(form for form, _ in calls) == ["девочка", "книги", "читала"]


def _forms_in(rows) -> list[str]:
    """The forms of rows handed over by :func:`formcache.take_new`."""
    blob, ends = rows[5], rows[6].tolist()
    return [blob[a:b].decode("utf-8") for a, b in zip([0, *ends[:-1]], ends)]


def test_a_read_only_process_hands_its_forms_to_the_one_adding_the_files(cache, monkeypatch):
    """An indexing worker writes nothing, but hands what it analysed to the process adding the
    files (take_new), which writes it (adopt, flush): a collection's forms are in the table once
    it is indexed. Rows the file or the adopting process holds already are not kept twice, and
    the adopting process, which had read the file before, finds the new rows after its flush."""
    _fresh_table(monkeypatch)
    text.canonize("Девочка читала книги.")
    formcache.flush()
    formcache.reset()
    _fresh_table(monkeypatch)
    monkeypatch.setattr(formcache.table(), "_recording", True)  # put back after the test
    formcache.read_only_in_this_process()
    monkeypatch.setattr(formcache, "_COMPACT_EVERY", 2)  # rows made on the way too
    again = text.canonize("Девочка читала книги о далёких странах.")
    rows = formcache.take_new()
    assert sorted(set(_forms_in(rows))) == ["далеких", "далёких", "о", "странах"]
    assert len(formcache.take_new()[0]) == 0, "handed over once"
    # the process adding the files: it had read the file before the worker's rows came
    monkeypatch.setattr(formcache.table(), "_recording", True)
    formcache.reset()
    before = formcache.snapshot()["keys"].copy()
    formcache.adopt(rows)
    formcache.adopt(rows)  # the other worker analysed the same forms
    assert formcache.table().pending_rows == len(set(rows[0].tolist())) > 0
    assert formcache.path().read_bytes() and len(formcache.snapshot()["keys"]) == len(before), "not yet written"
    total = formcache.flush()
    assert total == len(before) + len(set(rows[0].tolist()))
    formcache.adopt(rows)
    assert formcache.table().pending_rows == 0, "rows the file holds are not kept again"
    _fresh_table(monkeypatch)
    calls = _slow_path_calls(monkeypatch)
    assert text.canonize("Девочка читала книги о далёких странах.").lemmas == again.lemmas
    assert calls == [], "the adopting process reads the file it wrote"
    formcache.reset()  # and another process
    _fresh_table(monkeypatch)
    done = text.canonize("Девочка читала книги о далёких странах.")
    assert calls == [] and np.array_equal(done.hashes, again.hashes)
    assert np.array_equal(done.word_hashes, again.word_hashes)
    monkeypatch.setattr(formcache, "READ_ONLY_MAX_BYTES", formcache.path().stat().st_size - 1)
    formcache.reset()
    formcache.adopt(rows)
    assert formcache.table().pending_rows == 0, "a file the workers no longer read is not grown"


def test_rows_handed_over_when_the_disk_is_full_are_dropped(cache, monkeypatch):
    """The adding process keeps handed-over rows in a temporary file: when it cannot be
    written they are dropped, and the adding goes on (the table only saves time)."""
    _fresh_table(monkeypatch)
    monkeypatch.setattr(formcache.table(), "_recording", True)
    formcache.read_only_in_this_process()
    text.canonize("Девочка читала книги.")
    rows = formcache.take_new()
    monkeypatch.setattr(formcache.table(), "_recording", True)

    def full(_rows):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(formcache.table(), "_spill", full)
    formcache.adopt(rows)
    assert formcache.table().pending_rows == 0 and formcache.flush() == 0


def test_utf8_checked_a_chunk_at_a_time():
    """The writer checks the file's texts a chunk at a time: a letter cut by a chunk's end is
    still read whole, and bytes that are not UTF-8 are still refused."""
    text_bytes = "жёлтый ёж, ЖЁЛТЫЙ\udcff".encode("utf-8", "surrogatepass")
    for chunk in (1, 2, 3, 5, 1 << 20):
        assert formcache._is_utf8(text_bytes, chunk)
        assert formcache._is_utf8(memoryview(text_bytes), chunk)
        assert not formcache._is_utf8(text_bytes[:3], chunk), "a letter cut at the end"
        assert not formcache._is_utf8(text_bytes[:4] + b"\xff" + text_bytes[4:], chunk)


@pytest.mark.parametrize("workers", [1, 2])
def test_indexing_fills_the_table(cache, tmp_path, monkeypatch, workers):
    """Forms analysed by the indexing workers (a pool, or the one sandboxed reader of a small
    adding) are in the table when the adding ends: a check of the same texts analyses none of
    them again."""
    from sverka.core import indexing
    from sverka.core import workers as sandboxes
    from sverka.core.api import Collection

    if sandboxes._shared is not None:  # started by another test, with another cache folder
        sandboxes._shared.close()
        sandboxes._shared = None

    folder = tmp_path / "texts"
    folder.mkdir()
    samples = [RUSSIAN, ENGLISH, "Перевірка словників: їжак читав книжки."]
    for k, sample in enumerate(samples):
        (folder / f"t{k}.txt").write_text(sample, encoding="utf-8")
    with Collection(tmp_path / "c.sverka") as c:
        added = indexing.add_paths(c.index, sorted(folder.iterdir()), workers=workers)
    assert len(added.added) == 3
    assert formcache.path().is_file()
    formcache.reset()
    _fresh_table(monkeypatch)
    calls = _slow_path_calls(monkeypatch)
    for sample in samples:
        text.canonize(sample)
    assert calls == []


def test_a_read_only_process_trims_its_table_and_canonizes_the_same(cache, monkeypatch):
    """An indexing worker starts a new table of raw forms between documents once it holds more
    than the limit (the file answers what it forgets): the same tokens after it; a process
    that records keeps its table whatever its size."""
    _fresh_table(monkeypatch)
    expected = text.canonize(RUSSIAN)
    formcache.flush()
    formcache.reset()
    _fresh_table(monkeypatch)
    first = text._table
    text.canonize(RUSSIAN)
    text.trim_table(max_forms=5)
    assert text._table is first, "a recording process keeps its table"
    monkeypatch.setattr(formcache.table(), "_recording", True)
    formcache.read_only_in_this_process()
    text.trim_table(max_forms=10_000)
    assert text._table is first, "under the limit: kept"
    text.trim_table(max_forms=5)
    assert text._table is not first and text._table.size == 0
    calls = _slow_path_calls(monkeypatch)
    again = text.canonize(RUSSIAN)
    assert calls == [], "the file answers what the table forgot"
    assert again.lemmas == expected.lemmas and np.array_equal(again.hashes, expected.hashes)
    assert np.array_equal(again.word_hashes, expected.word_hashes)


def test_turned_off(cache, monkeypatch):
    monkeypatch.setenv("SVERKA_FORM_CACHE", "0")
    morph.analyze("книги", "ru")
    assert formcache.flush() == 0
    assert not list(cache.glob("forms-*.bin"))


def _write_forms(args):
    directory, words = args
    import os

    os.environ["SVERKA_CACHE_DIR"] = directory
    from sverka.core import formcache as fc, morph as m

    fc.reset()
    for w in words:
        m.analyze(w, "ru")
    fc.flush()
    return len(words)


def test_concurrent_writers_lose_nothing(cache):
    words = RUSSIAN.lower().replace(",", " ").replace(".", " ").replace(";", " ").split()
    groups = [words[i::4] + words[:6] for i in range(4)]  # the first words in every group
    ctx = multiprocessing.get_context("spawn")
    with ctx.Pool(4) as pool:
        pool.map(_write_forms, [(str(cache), g) for g in groups])
    formcache.reset()
    found = formcache._read(formcache.path(), formcache.version_key())
    assert found is not None, "the file is whole after concurrent writers"
    listed = [bytes(found[7][a:b]).decode("utf-8") for a, b in zip(*(x.tolist() for x in found[5]))]  # each row's form
    assert len(listed) == len(found[0])
    forms = set(listed)
    assert set(words) <= forms
    rows = list(zip(listed, found[0].tolist()))
    assert len(rows) == len(set(rows)), "a form written by two processes is kept once"


def _canon(t: str):
    tok = text.canonize(t)
    tok2 = text.canonize(t, drop_stop_words=False, drop_adjectives=True)
    return tok, tok2


def _same(a, b):
    for x, y in zip(a, b):
        assert x.lemmas == y.lemmas
        for name in ("starts", "ends", "hashes", "word_hashes", "sentence_ids", "sentence_spans"):
            assert np.array_equal(getattr(x, name), getattr(y, name)), name
        assert (x.word_count, x.language, x.warnings) == (y.word_count, y.language, y.warnings)


def _fresh_table(monkeypatch):
    monkeypatch.setattr(text, "_table", text._Table())
    morph._cache.clear()


def test_canonization_identical_with_and_without_cache(cache, monkeypatch):
    sample = (RUSSIAN + " " + ENGLISH + " Перевірка словників: їжак читав книжки. "
              "Kнига и кни\u200bга, x² и кни-\nга.")
    monkeypatch.setenv("SVERKA_FORM_CACHE", "0")
    _fresh_table(monkeypatch)
    without = _canon(sample)
    monkeypatch.delenv("SVERKA_FORM_CACHE")
    formcache.reset()
    _fresh_table(monkeypatch)
    filling = _canon(sample)
    formcache.flush()
    formcache.reset()
    _fresh_table(monkeypatch)
    calls = _slow_path_calls(monkeypatch)
    added = []
    real_add = text._Table._add
    monkeypatch.setattr(text._Table, "_add", lambda self, raws, mode: (added.extend(raws), real_add(self, raws, mode)))
    from_file = _canon(sample)
    assert calls == [], "every form came from the file"
    # only words with tampering (counted per occurrence) or a line break go through the table's slow path
    assert set(added) <= {"Kнига", "кни\u200bга", "кни-\nга"}, added
    assert from_file[0].lookalike_letters == 1 and from_file[0].invisible_chars == 1
    _same(without, filling)
    _same(without, from_file)


def test_a_process_takes_from_the_file_only_the_forms_its_texts_hold(cache, monkeypatch):
    """A new process does not read every row of the file into its table (200 000 forms on a
    machine that indexed ruslit: 0.1-0.15 s of every cold start): a text's forms are looked
    up when it first holds them, and give what an analysis gives."""
    _fresh_table(monkeypatch)
    _canon(RUSSIAN + " " + ENGLISH)
    formcache.flush()
    formcache.reset()
    _fresh_table(monkeypatch)
    calls = _slow_path_calls(monkeypatch)
    short = "Девочка читала книги."
    tok = text.canonize(short)
    assert calls == []
    assert text._table.size <= 3, "only the forms of the text"
    assert tok.lemmas == ("девочка", "читать", "книга")


def test_two_forms_sharing_a_row_key_are_told_apart(cache, monkeypatch):
    """A form is found by a 64-bit key; should two forms share one, the text of the row is
    compared, so a form never gets another form's lemma (it is analysed again instead)."""
    monkeypatch.setattr(formcache, "_key_of", lambda encoded, code: 7)  # every form, one key
    _fresh_table(monkeypatch)
    for w in ("бежали", "домами", "книги"):
        morph.analyze(w, "ru")
    formcache.flush()  # keeps one row of the key
    formcache.reset()
    rows = formcache.find_rows(["бежали", "домами", "книги", "стали"], "ru")
    found = [formcache.lookup(w, "ru") for w in ("бежали", "домами", "книги")]
    assert rows[3] == -1
    for w, row, hit in zip(("бежали", "домами", "книги"), rows[:3].tolist(), found):
        assert row == -1 or formcache.row_entries([row])[0] == [morph._analyze(w, "ru").lemma]
        assert hit is None or hit[0] == morph._analyze(w, "ru").lemma
    assert sum(r >= 0 for r in rows[:3].tolist()) == 1  # the one row of the key, for its own form only


def test_canonization_identical_on_ruslit(cache, monkeypatch, ruslit):
    files = sorted(Path(ruslit).rglob("*.txt"))[::10]
    sample = "\n".join(f.read_text(encoding="utf-8", errors="replace")[:60_000] for f in files)
    monkeypatch.setenv("SVERKA_FORM_CACHE", "0")
    _fresh_table(monkeypatch)
    without = _canon(sample)
    monkeypatch.delenv("SVERKA_FORM_CACHE")
    formcache.reset()
    _fresh_table(monkeypatch)
    _canon(sample)
    formcache.flush()
    formcache.reset()
    _fresh_table(monkeypatch)
    _same(without, _canon(sample))


def test_a_cache_file_is_replaced_whole_or_not_at_all(tmp_path):
    """What every cache file goes through (forms, synonyms, tries, Unicode classes): a write
    that fails leaves the old file and no temporary one; one that ends replaces it."""
    from sverka.core.formcache import replacing

    target = tmp_path / "forms-1.bin"
    target.write_bytes(b"old")
    with pytest.raises(RuntimeError):
        with replacing(target) as tmp:
            with open(tmp, "wb") as out:
                out.write(b"half")
            raise RuntimeError("disk full")
    assert target.read_bytes() == b"old" and sorted(p.name for p in tmp_path.iterdir()) == ["forms-1.bin"]
    with replacing(target) as tmp:
        with open(tmp, "wb") as out:
            out.write(b"new")
        assert target.read_bytes() == b"old"  # not before the block ends
    assert target.read_bytes() == b"new" and sorted(p.name for p in tmp_path.iterdir()) == ["forms-1.bin"]


@pytest.mark.parametrize("dist", ["pymorphy3", "pymorphy3-dicts-ru", "pymorphy3-dicts-uk", "simplemma", "no-such-dist"])
def test_dictionary_versions_as_importlib_metadata_gives_them(dist):
    """The versions in the cache's key are read off the installed folders' names (importlib.metadata
    and its parser cost a process 35 ms): the same strings, so a cache written before is kept."""
    from importlib import metadata

    try:
        expected = metadata.version(dist)
    except metadata.PackageNotFoundError:
        expected = "-"
    assert formcache._version(dist) == expected
