"""Versions that mean something: the output of canonization and of the fingerprints is
pinned for a fixed text; a change to either must raise its version (text.CANON_VERSION,
fingerprints.FINGERPRINT_VERSION), which makes every older collection ask to be rebuilt."""

from __future__ import annotations

import sqlite3

import numpy as np
import pytest
import xxhash

from sverka.core import api
from sverka.core.document import Document
from sverka.core.fingerprints import FINGERPRINT_VERSION, fingerprint_document
from sverka.core.settings import Settings
from sverka.core.text import CANON_VERSION, canonize

#: Russian with look-alike Latin letters, a Greek omicron, a soft hyphen, a zero-width space and
#: a variation selector inside words, a word broken at a line end, ё, stress marks, numbers, quotations and an
#: abbreviation; a sentence ending in "я."; words of the old Russian spelling; Ukrainian; English.
GOLDEN = (
    "Мы вышли из дому рано утром. Cтарый дом стоял на берегу; вοда была холодной,\u00ad а "
    "ве\u200bтер — силь\ufe0fным. «Ещё немного, — сказал отец, — и мы до-\nберёмся до леса», т. е. "
    "к 7 часам. Зна́ние — сила! «Пора», — сказал я. Мы пошли. Въ домѣ было тихо, и міръ казался добрымъ. Розглянемо українські "
    "слова: ліс, річка, її. The quick brown foxes were jumping over 12 lazy dogs, weren't they?"
)


def _digest(*arrays) -> str:
    h = xxhash.xxh64(seed=0)
    for a in arrays:
        if isinstance(a, (list, tuple)):
            h.update("\x1f".join(map(str, a)).encode("utf-8", "surrogatepass"))
        else:
            h.update(np.ascontiguousarray(a).tobytes())
        h.update(b"\x1e")
    return h.hexdigest()


def canon_digest() -> str:
    t = canonize(GOLDEN)
    return _digest(t.lemmas, t.hashes, t.word_hashes, t.starts, t.ends, t.sentence_ids,
                   np.asarray(t.sentence_spans, dtype=np.int64), [t.language, t.word_count, *t.warnings])


def fingerprint_digest() -> str:
    fp = fingerprint_document(canonize(GOLDEN), Settings())
    return _digest(fp.shingle_hashes, fp.shingle_positions, fp.sentence_seq1, fp.sentence_seq2, fp.long_words,
                   [fp.text_hash], fp.minhash, fp.pair_hashes, fp.pair_positions, fp.sentence_keys,
                   fp.sentence_key_positions)


#: (CANON_VERSION, digest of canonize(GOLDEN)) and (FINGERPRINT_VERSION, digest of its
#: fingerprints). When a change moves a digest, raise the version and write both here.
#: Canon 2 folds the Greek omicron of "вοда" (look-alikes of every script); the fingerprints'
#: digest moved with their input only (same algorithm, same FINGERPRINT_VERSION). Canon 3 reads
#: Russian's old spelling as today's ("Въ домѣ ... міръ ... добрымъ", added to the text then:
#: the fingerprints' digest moved with it) and the Ukrainian sentence in Ukrainian. Canon 4 ends
#: a sentence at "сказал я." ("«Пора», — сказал я. Мы пошли." added to the text then: the
#: fingerprints' digest moved with it). Canon 5 drops a variation selector from a word and counts
#: it ("силь\ufe0fным" added to the text then: the fingerprints' digest moved with it).
CANON_GOLDEN = (5, "ee25ba679ba80298")
FINGERPRINT_GOLDEN = (1, "c299736b79aebfb1")


def test_canonization_is_pinned_by_its_version():
    assert (CANON_VERSION, canon_digest()) == CANON_GOLDEN, (
        "canonization gives another output for the golden text: raise text.CANON_VERSION "
        "(older collections then ask to be rebuilt) and write the new digest in CANON_GOLDEN")


def test_fingerprints_are_pinned_by_their_version():
    assert (FINGERPRINT_VERSION, fingerprint_digest()) == FINGERPRINT_GOLDEN, (
        "fingerprints give another output for the golden text: raise "
        "fingerprints.FINGERPRINT_VERSION and write the new digest in FINGERPRINT_GOLDEN")


@pytest.mark.parametrize("key", ["canon_version", "fingerprint_version", "hash_seed"])
def test_a_collection_of_other_versions_asks_for_a_rebuild_and_is_rebuilt(tmp_path, key):
    db = tmp_path / "class.sverka"
    source = "Глобальное потепление вызывает таяние ледников в Арктике и Антарктиде, что приводит к повышению уровня океана."
    with api.Collection(db) as c:
        c.add_document(Document(source, path=str(tmp_path / "climate.txt"), title="climate"), template=False)
        c.add_document(Document("Задание: напишите о климате своими словами и приведите примеры.", title="task"),
                       template=True)
    con = sqlite3.connect(db)
    with con:
        con.execute("UPDATE meta SET value='0' WHERE key=?", (key,))
    con.close()
    with pytest.raises(api.CollectionNeedsRebuild) as e:
        api.Collection(db)
    assert "sverka rebuild" in str(e.value) and key in str(e.value)
    assert api.rebuild_collection(db) == 2
    assert (tmp_path / "class.sverka.format2.bak").exists()
    with api.Collection(db) as c:
        docs = {d.title: d for d in c.documents()}
        assert docs["task"].is_template and docs["climate"].path == str(tmp_path / "climate.txt")
        r = c.check(Document("Моё эссе. " + source, title="essay"))
        assert [s.title for s in r.sources] == ["climate"] and r.borrowed_percent > 50


def test_an_up_to_date_collection_is_not_rebuilt(tmp_path):
    db = tmp_path / "ok.sverka"
    with api.Collection(db) as c:
        c.add_document(Document("Короткий текст о погоде и природе родного края.", title="t"))
    with pytest.raises(api.CollectionError, match="nothing to rebuild"):
        api.rebuild_collection(db)
