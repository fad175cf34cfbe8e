"""The synonym table: a compact, versioned layer over lemmas, built once from a thesaurus."""

from __future__ import annotations

import gzip

import numpy as np
import pytest

from sverka.core import synonyms
from sverka.core.hashing import hash_text
from sverka.core.text import canonize

#: The shipped table. A rebuilt table changes it: update this pin, docs/BENCHMARKS.md's figures
#: of bench/bench_paraphrase.py, and say why in the commit.
VERSION = "1:5a479d76e7a3"


def test_version_format_and_source():
    t = synonyms.table()
    assert t.version == VERSION
    assert t.version.startswith(f"{synonyms.FORMAT_VERSION}:")
    assert "format=1" in t.header[0] and "wiki-ru-wordnet" in t.header[1]


def test_size_is_compact():
    assert synonyms.PATH.stat().st_size < 1_000_000  # shipped in the package, not 150 MB
    t = synonyms.table()
    assert 5_000 < len(t) < 100_000
    assert 2_000 < len(t.members) < 50_000
    assert max(len(m) for m in t.members.values()) <= 8  # loose large synsets left out
    assert min(len(m) for m in t.members.values()) >= 2


def test_lookups():
    t = synonyms.table()
    assert t.are_synonyms("век", "столетие")
    assert t.are_synonyms("команда", "экипаж")
    assert t.are_synonyms("заставлять", "принуждать")
    assert "принуждать" in t.synonyms("заставлять")
    assert not t.are_synonyms("век", "век")
    assert t.classes("синхрофазотрон") == ()


def test_meanings_are_not_merged():
    """команда is a crew and an order; a crew is never an order."""
    t = synonyms.table()
    assert t.are_synonyms("команда", "приказ") and t.are_synonyms("команда", "экипаж")
    assert not t.are_synonyms("приказ", "экипаж")


def test_most_common_words_have_no_class():
    t = synonyms.table()
    for w in ("время", "человек", "быть", "год"):
        assert t.classes(w) == (), w


def test_lemmas_are_what_canonization_gives():
    """Every lemma of the table is one token whose lemma is itself (the matcher's key)."""
    t = synonyms.table()
    sample = sorted(t.by_lemma)[:: max(1, len(t) // 300)]
    bad = [w for w in sample if canonize(w).lemmas != (w,)]
    assert len(bad) <= len(sample) // 50, bad[:20]


def test_alternatives_by_hash_agree_with_lemmas():
    t = synonyms.table()
    h = np.array([hash_text("век"), hash_text("синхрофазотрон"), hash_text("заставлять")], np.uint64)
    which, alt = t.alternatives_of(h)
    assert set(which.tolist()) == {0, 2}
    assert hash_text("столетие") in alt[which == 0].tolist()
    assert hash_text("принуждать") in alt[which == 2].tolist()


def test_file_is_sorted_plain_text(tmp_path):
    lines = gzip.decompress(synonyms.PATH.read_bytes()).decode("utf-8").splitlines()
    body = [ln for ln in lines if not ln.startswith("#")]
    assert body == sorted(body)
    copy = tmp_path / "t.tsv.gz"
    copy.write_bytes(synonyms.PATH.read_bytes())
    assert synonyms.load(copy).version == VERSION


def test_arrays_kept_in_the_cache_folder(tmp_path, monkeypatch):
    """A check reads only the table's arrays: built once per machine into the cache folder,
    then loaded; a damaged cache file is rebuilt, an unwritable folder only costs the build."""
    monkeypatch.setenv("SVERKA_CACHE_DIR", str(tmp_path / "cache"))
    built = synonyms.load()
    files = list((tmp_path / "cache").glob("synonyms-*.npz"))
    assert len(files) == 1
    again = synonyms.load()
    for name in ("sorted_hashes", "alt_start", "alt_flat"):
        assert np.array_equal(getattr(built, name), getattr(again, name))
    assert again.version == VERSION and len(again) == len(built)
    assert again.alternatives(hash_text("век")) == tuple(
        sorted({hash_text(w) for w in again.synonyms("век")}))
    files[0].write_bytes(files[0].read_bytes()[:100])  # damaged
    repaired = synonyms.load()
    assert np.array_equal(repaired.alt_flat, built.alt_flat)
    assert synonyms._read_cache(files[0]) is not None  # written again
    blocked = tmp_path / "file"
    blocked.write_text("not a folder")
    monkeypatch.setenv("SVERKA_CACHE_DIR", str(blocked))
    assert np.array_equal(synonyms.load().alt_flat, built.alt_flat)


@pytest.mark.parametrize("content", [gzip.compress("# format=99\nвек\t1\n".encode()), b"not gzip at all"],
                         ids=["other format", "not gzip"])
def test_a_file_that_is_not_a_table_is_refused_by_name(tmp_path, monkeypatch, content):
    monkeypatch.setenv("SVERKA_CACHE_DIR", str(tmp_path / "cache"))
    bad = tmp_path / "bad.tsv.gz"
    bad.write_bytes(content)
    with pytest.raises(ValueError, match=r"bad\.tsv\.gz"):
        synonyms.load(bad)
