"""api.crosscheck: all pairs of a class, candidate pairs by shared fingerprints, matrix."""

from __future__ import annotations

import contextlib
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sverka.core import api
from sverka.core.candidates import co_occurring
from sverka.core.document import Document

COPIED = (
    "Фотосинтез представляет собой сложный процесс превращения энергии солнечного света в энергию "
    "химических связей органических веществ, который протекает в хлоропластах зелёных растений. "
)


def essay(k: int, copied: bool) -> Document:
    own = {
        0: "Моё сочинение посвящено осенней природе родного края и прогулкам по лесу с отцом. ",
        1: "Летом мы с друзьями строили плот на реке и чуть не утонули в глубоком омуте. ",
        2: "Бабушка научила меня печь пироги с капустой, и теперь я пеку их каждую субботу. ",
        3: "Футбольная команда нашей школы выиграла городской турнир впервые за десять лет. ",
    }[k]
    return Document(own * 3 + (COPIED if copied else ""), title=f"essay{k}")


def test_co_occurring_keys_make_seeds_between_documents():
    keys = [(np.array([1, 2, 3], np.uint64), np.array([0, 1, 2])), (np.array([2, 3, 4], np.uint64), np.array([5, 6, 7])),
            (np.array([9], np.uint64), np.array([0])), (np.array([1, 2, 3, 4], np.uint64), np.array([0, 1, 2, 3]))]
    codes, first, second = co_occurring(keys, budget=0)
    seeds = sorted(zip((codes // 4).tolist(), (codes % 4).tolist(), first.tolist(), second.tolist()))
    assert seeds == [(0, 1, 1, 5), (0, 1, 2, 6), (0, 3, 0, 0), (0, 3, 1, 1), (0, 3, 2, 2),
                     (1, 3, 5, 1), (1, 3, 6, 2), (1, 3, 7, 3)]
    # keys held by three documents are kept (a class-wide copy must show); only over the
    # budget are the keys held by the most documents set aside
    codes, _, _ = co_occurring(keys, budget=2)
    assert sorted(set(codes.tolist())) == [0 * 4 + 3, 1 * 4 + 3]
    assert len(co_occurring([(np.zeros(0, np.uint64), np.zeros(0, np.int64))] * 3, budget=0)[0]) == 0


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(1, 400), st.integers(1, 7))
def test_support_tested_in_slices_equals_support_tested_at_once(seed, n, slice_size):
    """supported_seeds tests a cross-check's many seeds a slice of whole documents at a time
    (bounded temporaries): the scores are those of testing all of them at once."""
    from sverka.core import candidates

    rng = np.random.default_rng(seed)
    d = rng.integers(0, 12, n)  # few documents: many seeds each, so clusters and support exist
    i = rng.integers(0, 60, n)
    j = rng.integers(0, 60, n)
    bounds = (np.repeat(np.arange(0, 70, 7), 7)[:70], np.repeat(np.arange(7, 77, 7), 7)[:70])
    for kwargs in ({}, {"sentence_bounds": bounds}, {"sentence_bounds": bounds, "sentence_share": 0.5}):
        whole = candidates.supported_seeds(d, i, j, 9, 30, **kwargs)
        old = candidates.SUPPORT_SLICE
        candidates.SUPPORT_SLICE = slice_size
        try:
            sliced = candidates.supported_seeds(d, i, j, 9, 30, **kwargs)
        finally:
            candidates.SUPPORT_SLICE = old
        assert sliced == whole


def test_crosscheck_finds_the_copying_pair(tmp_path):
    docs = [essay(0, True), essay(1, False), essay(2, True), essay(3, False)]
    bad = tmp_path / "broken.docx"
    bad.write_bytes(b"not a docx at all")
    r = api.crosscheck(docs + [str(bad)])
    assert r.documents[:4] == ("essay0", "essay1", "essay2", "essay3")
    assert [f[0] for f in r.failed] == [str(bad)]
    assert [{p.a, p.b} for p in r.pairs] == [{"essay0", "essay2"}]
    (p,) = r.pairs
    i, j = r.documents.index(p.a), r.documents.index(p.b)
    assert p.a_in_b == pytest.approx(r.matrix[i][j]) and p.b_in_a == pytest.approx(r.matrix[j][i])
    assert 0.2 < p.a_in_b < 0.6 and p.resemblance > 0
    assert p.shared_words == len(COPIED.split()) and p.passages and r.clusters == ()
    assert r.matrix[1][3] == 0.0 and r.matrix[0][0] == 1.0
    assert len(r.matrix) == 5 and all(len(row) == 5 for row in r.matrix)


def test_crosscheck_against_a_collection(tmp_path):
    archive = Document("Архивная работа прошлого года. " + COPIED * 2, path=str(tmp_path / "old.txt"), title="old")
    with api.Collection(tmp_path / "c.sverka") as col:
        col.add_document(archive)
        col.add_document(essay(1, False))  # in the archive already: not its own source
        r = api.crosscheck([essay(0, True), essay(1, False)], collection=col)
    pairs = {(p.a, p.b) for p in r.pairs}
    assert ("essay0", str(tmp_path / "old.txt")) in pairs or ("essay0", "old") in pairs
    assert not any(p.a == "essay1" for p in r.pairs)


def test_pairs_judged_in_workers_equal_pairs_judged_here(monkeypatch):
    """With worker processes (both cores share the alignment) the result is the one of a
    single process: same pairs, shares, passages and matrix, whatever the order of tasks."""
    from sverka.core import crosscheck

    docs = [essay(k % 4, k % 3 == 0) for k in range(12)]
    docs = [Document(d.text + f" Вывод номер {k}: всё сказанное выше верно.", title=f"e{k}") for k, d in enumerate(docs)]
    alone = api.crosscheck(docs)
    monkeypatch.setattr(crosscheck, "PARALLEL_MIN_CHARS", 0)
    monkeypatch.setattr(crosscheck, "PAIRS_PER_TASK", 2)
    used = []
    real_pool = crosscheck._worker_pool

    @contextlib.contextmanager
    def spy(items):
        with real_pool(items) as pool:
            used.append(pool)
            yield pool

    monkeypatch.setattr(crosscheck, "_worker_pool", spy)
    shared = api.crosscheck(docs)
    assert used and used[0] is not None  # the workers really ran
    assert len(alone.pairs) >= 6
    assert shared.pairs == alone.pairs and shared.matrix == alone.matrix and shared.clusters == alone.clusters


def test_worker_tokens_come_back_without_text_and_lemmas():
    """A cross-check's canonizing workers send back hashes and offsets only (the parent has the
    text, and nothing of a cross-check reads lemmas): a cross-check of 300 essays peaked 43 MB
    lower in the parent and 40 MB lower in each worker (docs/BENCHMARKS.md)."""
    from sverka.core import check, crosscheck

    text = COPIED + "Лемма каждого слова осталась бы строкой в памяти родителя."
    (tokens,) = crosscheck._canonize_chunk([text], False)
    here = check.prepare(Document(text), api.Settings())
    assert tokens.text == "" and set(tokens.lemmas) == {""} and len(tokens) == len(here.tokens) > 10
    assert tokens.hashes.tolist() == here.tokens.hashes.tolist()
    assert tokens.starts.tolist() == here.tokens.starts.tolist()


def test_the_cross_check_report_shows_the_passages_of_each_pair(tmp_path):
    """Issue 13, point 5: a cross-check report shows what each listed pair shares, side by side,
    in the report's language (with the collection: the archived source's words too)."""
    from sverka.core import api
    from sverka.core.document import Document

    shared = ("Осенний ветер гнал по пустой площади жёлтые листья, и старый сторож долго смотрел "
              "им вслед, вспоминая молодость.")
    own_a = "Я писал это сочинение о своём детстве в деревне у бабушки, где каждое лето пахло сеном. "
    own_b = "Моё сочинение посвящено путешествию на море, которое мы совершили всей семьёй в июле. "
    own_c = "Третье сочинение рассказывает о школьной библиотеке и книгах, которые я полюбил. "
    docs = [Document(own_a * 3 + shared, title="a"), Document(own_b * 3 + shared, title="b"),
            Document(own_c * 4, title="c")]
    result = api.crosscheck(docs)
    assert [(p.a, p.b) for p in result.pairs] == [("a", "b")]
    for lang, heading in (("en", "Passages of each pair"), ("ru", "Совпадающие фрагменты каждой пары")):
        html = api.render_html(result, lang=lang)
        section = html.split('id="pair-passages"', 1)[1]
        assert heading in section
        assert "старый сторож долго смотрел" in section
        assert "бабушки" not in section and "библиотеке" not in section  # only the shared words


def test_prepared_documents_kept_stay_within_their_limit(monkeypatch):
    """Documents kept prepared (a check's sources, a cross-check worker's essays) stay within
    their limit, least recently used out first; a cross-check's workers keep the smaller
    CROSS_KEPT_BYTES (essays are cheap to prepare again)."""
    from sverka.core import check, crosscheck, sourcecache

    settings = api.Settings()
    docs = [check.prepare(Document(f"Сочинение номер {k}: осенний лес и река. " * 40), settings) for k in range(6)]
    size = sourcecache.SourceCache.size_of(docs[0])
    kept = sourcecache.SourceCache(limit=4 * size)
    for k, p in enumerate(docs):
        kept.put(k, p.doc.sha256, settings, p)
    assert kept.get(0, docs[0].doc.sha256, settings) is None and kept.get(1, docs[1].doc.sha256, settings) is None
    assert all(kept.get(k, docs[k].doc.sha256, settings) is docs[k] for k in range(2, 6))
    assert kept._bytes <= 4 * size
    monkeypatch.setattr(crosscheck, "_WORKER_DOCS", [None, None])
    crosscheck._judge_chunk_in_worker("run", [(0, 1)], {0: (docs[0].doc, docs[0].tokens), 1: (docs[1].doc, docs[1].tokens)},
                                 (), settings)
    assert crosscheck._WORKER_DOCS[1]._limit == sourcecache.CROSS_KEPT_BYTES < sourcecache.KEPT_BYTES
