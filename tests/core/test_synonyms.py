"""The synonym table: a compact, versioned layer over lemmas, built once from a thesaurus."""

from __future__ import annotations

import gzip

import numpy as np

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
