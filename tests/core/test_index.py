"""The index file on its own: schema and version refusal, settings, the tokens blob, the
grouped candidate queries, writing batches, busy collections. Documents are built by hand
(no extraction or canonization), so every number can be checked by eye."""

from __future__ import annotations

import sqlite3

import numpy as np
import pytest

from sverka.core.messages import message
from sverka.core.hashing import HASH_SEED
from sverka.core.store import codecs, common
from sverka.core.errors import CollectionBusy, CollectionError, CollectionVersionError
from sverka.core.store.common import CollectionSettingsError, PreparedDocument
from sverka.core.store.sqlite import SQLiteStore
from sverka.core.settings import Settings
from sverka.core.tokens import Tokens

HIGH = 2**63 + 5  # a hash with the top bit set: must survive the signed INTEGER column


def make_tokens(text: str = "one two three. four five") -> Tokens:
    return Tokens(
        text=text,
        starts=np.array([0, 4, 8, 15, 20], dtype=np.int64),
        ends=np.array([3, 7, 13, 19, 24], dtype=np.int64),
        lemmas=("one", "two", "three", "four", "five"),
        hashes=np.array([1, 2, HIGH, 2**64 - 1, 0], dtype=np.uint64),
        word_hashes=np.array([11, 12, 13, 14, 2**64 - 2], dtype=np.uint64),
        sentence_ids=np.array([0, 0, 0, 1, 1], dtype=np.int32),
        sentence_spans=np.array([[0, 14], [15, 24]], dtype=np.int64),
        word_count=6, language="en", lookalike_letters=1, invisible_chars=2, hyphen_joins=3,
        warnings=(message("warning.lookalike_latin", n=6, language="en"),),
    )


def prepared(name: str, shingles, *, text: str | None = None, seq2=(), words=(),
             path: str | None = "auto") -> PreparedDocument:
    text = text if text is not None else f"text of {name}"
    tokens = make_tokens()
    sh = np.array(shingles, dtype=np.uint64)
    import hashlib

    return PreparedDocument(
        path=f"/docs/{name}.txt" if path == "auto" else path, title=name, format="txt",
        sha256=hashlib.sha256(text.encode()).hexdigest(), chars=len(text), words=5,
        size_bytes=len(text), mtime=1.0, language="en", warnings=(),
        text_blob=codecs.encode_text(text), tokens_blob=codecs.encode_tokens(tokens),
        text_bytes=len(text), pairs=codecs.i64(sh), pair_pos=np.arange(len(sh), dtype=np.int64),
        sentences=codecs.i64(np.array(seq2, dtype=np.uint64)),
        sentence_pos=np.arange(len(seq2), dtype=np.int64),
        short_words=np.unique(codecs.i64(np.array(words, dtype=np.uint64))),
        short_length=len(set(words)),
    )


@pytest.fixture
def index(tmp_path):
    with SQLiteStore(tmp_path / "c.sverka") as i:
        yield i


def test_tokens_blob_round_trip():
    t = make_tokens()
    blob = codecs.encode_tokens(t)
    assert blob[0] == codecs.TOKENS_FORMAT
    back = codecs.decode_tokens(blob, t.text)
    for name in ("starts", "ends", "hashes", "word_hashes", "sentence_ids", "sentence_spans"):
        a, b = getattr(t, name), getattr(back, name)
        assert a.dtype == b.dtype and np.array_equal(a, b), name
    assert back.lemmas == ("",) * 5
    assert (back.word_count, back.language, back.lookalike_letters, back.invisible_chars,
            back.hyphen_joins, back.warnings) == (6, "en", 1, 2, 3, (message("warning.lookalike_latin", n=6, language="en"),))
    with pytest.raises(CollectionVersionError, match="rebuild"):
        codecs.decode_tokens(bytes([99]) + blob[1:], t.text)


def test_sort_orders_ride_at_the_end_of_the_tokens_blob(tmp_path):
    """A document keeps its sort orders (made when it was added) after its tokens, where a
    reader that predates them never looks: the blob stays format 2 and its tokens read the
    same; a tail of any other size is no orders."""
    from sverka.core.align import sort_orders
    from sverka.core.preparing import ORDERS_MIN_TOKENS
    from sverka.core.text import canonize

    t = canonize(" ".join(f"Мама мыла раму номер {k}. Рама была чистой, а мама мыла её снова и снова."
                          for k in range(700)))
    assert len(t) >= ORDERS_MIN_TOKENS
    orders = sort_orders(t.hashes)
    plain, with_orders = codecs.encode_tokens(t), codecs.encode_tokens(t, orders)
    assert with_orders[0] == plain[0] == codecs.TOKENS_FORMAT and with_orders.startswith(plain)
    back, got = codecs.decode_stored(with_orders, t.text)
    for name in ("starts", "ends", "hashes", "word_hashes", "sentence_ids", "sentence_spans"):
        assert np.array_equal(getattr(back, name), getattr(codecs.decode_tokens(plain, t.text), name)), name
    assert np.array_equal(got.lemmas, np.argsort(t.hashes, kind="stable"))
    assert np.array_equal(got.pairs, orders.pairs) and len(got.pairs) == len(t) - 1
    assert codecs.decode_stored(plain, t.text)[1] is None
    assert codecs.decode_stored(with_orders[:-4], t.text)[1] is None
    assert codecs.decode_stored(with_orders + b"\0" * 4, t.text)[1] is None

    # the store gives them back with the document; what a check makes of it is the same either way
    from sverka.core import api
    from sverka.core.align import SourceSide
    from sverka.core.document import Document
    from sverka.core.paraphrase import SourceStats

    with api.Collection(tmp_path / "o.sverka") as coll:
        coll.add_document(Document(t.text, path=str(tmp_path / "a.txt"), title="a"), template=False)
        coll.add_document(Document("Короткое сочинение о лете и море.", path=str(tmp_path / "b.txt"), title="b"),
                          template=False)
        stored, essay = (coll.index.load(d.id) for d in coll.documents())
    assert stored.orders is not None and np.array_equal(stored.orders.lemmas, got.lemmas)
    assert essay.orders is None  # a short document is sorted when met: its blob stays as it was
    a, b = SourceStats.of(stored.tokens), SourceStats.of(stored.tokens, stored.orders.lemmas)
    for name in ("values", "counts", "df_token", "order", "sorted_hashes", "rare", "rare_start", "rare_count"):
        assert np.array_equal(getattr(a, name), getattr(b, name)), name
    a, b = SourceSide.of(stored.tokens, 2, 5), SourceSide.of(stored.tokens, 2, 5, stored.orders)
    assert np.array_equal(a.pairs_sorted.order, b.pairs_sorted.order)
    assert np.array_equal(a.pairs_sorted.end_of, b.pairs_sorted.end_of)
    # a damaged order is not used, nor the pair order for another seed width
    spoiled = type(stored.orders)(stored.orders.lemmas[::-1].copy(), stored.orders.pairs[::-1].copy())
    assert np.array_equal(SourceStats.of(stored.tokens, spoiled.lemmas).order, SourceStats.of(stored.tokens).order)
    assert np.array_equal(SourceSide.of(stored.tokens, 2, 5, spoiled).pairs_sorted.order, b.pairs_sorted.order)
    assert np.array_equal(SourceSide.of(stored.tokens, 3, 5, stored.orders).pairs_sorted.order,
                          SourceSide.of(stored.tokens, 3, 5).pairs_sorted.order)


def test_fresh_file_is_versioned_wal(tmp_path):
    path = tmp_path / "sub" / "c.sverka"
    SQLiteStore(path).close()
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA user_version").fetchone()[0] == common.SCHEMA_MAJOR << 16 | common.SCHEMA_MINOR
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    meta = dict(db.execute("SELECT key, value FROM meta"))
    assert meta["shingle_words"] == str(Settings().shingle_words)
    assert meta["hash_seed"] == str(HASH_SEED)
    db.close()


def _set_version(path, value):
    db = sqlite3.connect(path)
    db.execute(f"PRAGMA user_version={value}")
    db.commit()
    db.close()


def test_newer_major_version_refused(tmp_path):
    path = tmp_path / "c.sverka"
    SQLiteStore(path).close()
    _set_version(path, (common.SCHEMA_MAJOR + 1) << 16)
    with pytest.raises(CollectionVersionError, match="newer Sverka"):
        SQLiteStore(path)


def test_older_major_version_says_rebuild(tmp_path):
    path = tmp_path / "c.sverka"
    SQLiteStore(path).close()
    _set_version(path, (common.SCHEMA_MAJOR - 1) << 16 | 3)
    with pytest.raises(CollectionVersionError, match="rebuild it from the texts it keeps: sverka rebuild"):
        SQLiteStore(path)


def test_newer_minor_version_opens(tmp_path):
    path = tmp_path / "c.sverka"
    SQLiteStore(path).close()
    _set_version(path, common.SCHEMA_MAJOR << 16 | (common.SCHEMA_MINOR + 1))
    SQLiteStore(path).close()


def test_minor_1_writes_nothing_that_nothing_reads_and_format_2_0_still_opens(tmp_path):
    """Since 2.1 no min-hash, super-/mega-shingles or full-text hash is computed or written;
    a 2.0 collection holding them opens, is checked and is written as it is."""
    from sverka.core.api import Collection
    from sverka.core.extract import extract

    path = tmp_path / "c.sverka"
    src = tmp_path / "source.txt"
    src.write_text("Белеет парус одинокий в тумане моря голубом. Что ищет он в стране далёкой? "
                   "Что кинул он в краю родном?", encoding="utf-8")
    with Collection(path) as c:
        c.add([src])
    db = sqlite3.connect(path)
    assert db.execute("SELECT minhash, fulltext_hash FROM documents").fetchall() == [(b"", 0)]
    assert db.execute("SELECT count(*) FROM super_shingles").fetchone() == (0,)
    assert db.execute("SELECT count(*) FROM mega_shingles").fetchone() == (0,)
    # as Sverka 2.0 left it: its legacy rows, minor version 0
    db.execute("UPDATE documents SET minhash=?, fulltext_hash=?", (b"\1" * 8 * 84, -5))
    db.execute("INSERT INTO super_shingles VALUES(11, 1)")
    db.execute(f"PRAGMA user_version={common.SCHEMA_MAJOR << 16}")
    db.commit()
    db.close()
    other = tmp_path / "other.txt"
    other.write_text("Что ищет он в стране далёкой? Что кинул он в краю родном? Играют волны, ветер свищет.",
                     encoding="utf-8")
    with Collection(path) as c:
        result = c.check(extract(other))
        assert result.sources and result.sources[0].passages
        c.add([other])
        assert len(c.documents()) == 2


def test_other_hash_seed_says_rebuild(tmp_path):
    path = tmp_path / "c.sverka"
    SQLiteStore(path).close()
    db = sqlite3.connect(path)
    db.execute("UPDATE meta SET value='1' WHERE key='hash_seed'")
    db.commit()
    db.close()
    with pytest.raises(CollectionVersionError, match="rebuild"):
        SQLiteStore(path)


def test_not_a_collection(tmp_path):
    junk = tmp_path / "junk.sverka"
    junk.write_bytes(b"this is no database at all" * 100)
    with pytest.raises(CollectionError, match="not a Sverka collection"):
        SQLiteStore(junk)
    other = tmp_path / "other.sqlite"
    db = sqlite3.connect(other)
    db.execute("CREATE TABLE t(x)")
    db.commit()
    db.close()
    with pytest.raises(CollectionError, match="not a Sverka collection"):
        SQLiteStore(other)


def test_settings_must_match_the_collection(tmp_path):
    path = tmp_path / "c.sverka"
    SQLiteStore(path, Settings(shingle_words=5)).close()
    with SQLiteStore(path) as i:  # None adopts the collection's own
        assert i.settings.shingle_words == 5
    with SQLiteStore(path, Settings(shingle_words=5, min_passage_words=20)) as i:  # not an indexing key
        assert i.settings.min_passage_words == 20
    with pytest.raises(CollectionSettingsError, match="shingle_words = 5 .asked for 4."):
        SQLiteStore(path, Settings())


def test_write_classify_and_read_back(index):
    out = index.write_batch([prepared("a", [1, 2, 3, HIGH], seq2=[7, 8], words=[5, 6]),
                             prepared("b", [3, 4])])
    assert out == [("added", "/docs/a.txt", ""), ("added", "/docs/b.txt", "")]
    a = index.find_by_path("/docs/a.txt")
    assert a.title == "a" and index.count() == 2
    assert index.find_by_sha256(a.sha256) == a.id
    hashes, pos = index.pairs(a.id)
    assert hashes.dtype == np.uint64 and hashes.tolist() == [1, 2, 3, HIGH] and pos.tolist() == [0, 1, 2, 3]
    assert index.sentences(a.id)[0].tolist() == [7, 8]
    assert index.short_lengths([a.id]) == {a.id: 2}
    assert index.text(a.id) == "text of a"
    stored = index.load(a.id)
    assert stored.info == a and stored.text == "text of a"
    assert np.array_equal(stored.tokens.hashes, make_tokens().hashes)

    again = index.write_batch([prepared("a", [1, 2, 3, HIGH]),  # same path, same content
                               prepared("copy", [9], text="text of b"),  # content stored as b
                               prepared("a", [10, 11], text="a changed")])  # same path, new content
    assert [s for s, _, _ in again] == ["unchanged", "duplicate", "updated"]
    assert again[1][2] == "/docs/b.txt"
    assert index.count() == 2
    new_a = index.find_by_path("/docs/a.txt")
    assert new_a.id != a.id and index.text(new_a.id) == "a changed"
    assert len(index.pair_postings([1, 2])[0]) == 0  # the old version's hashes are gone
    assert index.pair_postings([10, 11])[1].tolist() == [new_a.id, new_a.id]


def test_postings_rows_and_cap(index, monkeypatch):
    index.write_batch([prepared("a", [1, 2, 3, 4, 5]), prepared("b", [1, 2, 3, HIGH]),
                       prepared("c", [1, 9, 9]), prepared("d", [4, 5, HIGH])])
    ids = {d.title: d.id for d in index.documents()}
    query = np.array([1, 2, 3, 4, 5, HIGH, HIGH, 9, 77], dtype=np.uint64)

    def rows(**kw):
        h, d, p = index.pair_postings(query, **kw)
        assert h.dtype == np.uint64
        return sorted(zip(h.tolist(), d.tolist(), p.tolist()))

    everything = rows()
    assert (HIGH, ids["b"], 3) in everything and (9, ids["c"], 2) in everything
    assert len(everything) == 5 + 4 + 3 + 3
    # hash 1 has 3 rows: dropped whole with a cap of 2; hash 9 has 2 rows in one document: kept
    capped = rows(max_posting=2)
    assert all(h != 1 for h, _, _ in capped) and (9, ids["c"], 1) in capped
    assert set(capped) <= set(everything)
    assert len(index.pair_postings(np.empty(0, dtype=np.uint64))[0]) == 0
    monkeypatch.setattr(index, "_variable_limit", 2)  # several IN chunks: same answer
    assert rows() == everything and rows(max_posting=2) == capped


def test_short_and_sentence_candidates(index):
    index.write_batch([prepared("a", [1], seq2=[7, 8, 8], words=[5, 6, HIGH]),
                       prepared("b", [2], seq2=[8], words=[6])])
    a, b = (index.find_by_path(f"/docs/{n}.txt").id for n in "ab")
    assert index.short_candidates([5, 6, HIGH], min_shared=1) == [(a, 3), (b, 1)]
    assert sorted(index.sentence_postings([7, 8])[1].tolist()) == sorted([a, a, a, b])


def test_remove_and_template(index):
    index.write_batch([prepared("a", [1, 2]), prepared("b", [2, 3])], template=True)
    a, b = (index.find_by_path(f"/docs/{n}.txt").id for n in "ab")
    assert index.template_ids() == [a, b]
    index.set_template(a, False)
    assert index.template_ids() == [b]
    assert index.remove([a, 12345]) == 1
    assert index.count() == 1 and index.pair_postings([1, 2])[1].tolist() == [b]
    with pytest.raises(CollectionError):
        index.text(a)
    assert index.integrity_check() == "ok"


def test_pasted_documents_have_no_path(index):
    out = index.write_batch([prepared("pasted", [1, 2], path=None)])
    assert out == [("added", "pasted", "")]
    assert index.documents()[0].path is None


def test_busy_collection_says_so(tmp_path):
    path = tmp_path / "c.sverka"
    with SQLiteStore(path) as writer, SQLiteStore(path, busy_timeout=0.2) as other:
        with writer.transaction():
            with pytest.raises(CollectionBusy, match="collection is busy: another Sverka is writing to it"):
                other.write_batch([prepared("a", [1])])
        assert other.count() == 0  # readers are never blocked
        other.write_batch([prepared("a", [1])])
        assert writer.count() == 1


def test_failed_batch_leaves_index_unchanged(index, monkeypatch):
    index.write_batch([prepared("a", [1, 2])])
    before = [d.id for d in index.documents()]
    bad = prepared("b", [3])
    object.__setattr__(bad, "text_blob", None)  # NOT NULL column: the insert fails mid-batch
    with pytest.raises(sqlite3.IntegrityError):
        index.write_batch([prepared("c", [4]), bad])
    assert [d.id for d in index.documents()] == before
    assert len(index.pair_postings([4])[0]) == 0


def test_read_only_collection_says_so(tmp_path, monkeypatch):
    path = tmp_path / "c.sverka"
    with SQLiteStore(path) as index:
        index.write_batch([prepared("a", [1])])
        index._db.execute("PRAGMA query_only=ON")  # stands in for a read-only file (root ignores modes)
        with pytest.raises(CollectionError, match="read-only"):
            index.write_batch([prepared("b", [2])])
        assert index.count() == 1


def test_tokens_of_format_1_still_read():
    """Collections built before format 2 (zlib-compressed tokens) open and load as they are."""
    import struct
    import zlib

    t = make_tokens()
    blob = codecs.encode_tokens(t)
    assert blob[0] == codecs.TOKENS_FORMAT and len(blob) > 7 * 4
    old = bytes([1]) + zlib.compress(blob[1:])
    back = codecs.decode_tokens(old, t.text)
    for name in ("starts", "ends", "hashes", "word_hashes", "sentence_ids", "sentence_spans"):
        assert np.array_equal(getattr(t, name), getattr(back, name)), name
    assert struct.unpack_from("<I", blob, 1)[0] == len(t.starts), "raw little-endian arrays"


def test_collection_of_tokens_format_1_opens(tmp_path):
    path = tmp_path / "old.sverka"
    with SQLiteStore(path) as i:
        with i.transaction() as db:
            db.execute("UPDATE meta SET value='1' WHERE key='tokens_format'")
    with SQLiteStore(path) as i:
        assert i.count() == 0
    with SQLiteStore(path) as i:
        with i.transaction() as db:
            db.execute("UPDATE meta SET value='9' WHERE key='tokens_format'")
    with pytest.raises(CollectionVersionError, match="rebuild"):
        SQLiteStore(path)
