"""The paraphrase layer: sentences rewritten with synonyms, reordered, re-inflected, padded;
found beside the exact layer, labelled, reached by retrieval, and never on original prose."""

from __future__ import annotations

import re
from collections import Counter

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from sverka.core import api
from sverka.core.document import Document
from sverka.core.results import KINDS

SOURCE = (
    "Весь прошлый век крестьяне деревни жили в бедности и тяжёлом труде. "
    "Помещик заставлял крестьян работать на полях с рассвета до заката. "
    "Экипаж корабля собрался на палубе, когда капитан отдал приказ поднимать якорь. "
    "Дети бегали по лугу, собирали ромашки и плели венки для матерей. "
    "Осенью вся деревня праздновала окончание жатвы шумной ярмаркой."
)
OWN = [
    "Я люблю летние вечера у реки, когда вода тёплая и тихая.",
    "Моя бабушка печёт пироги с капустой по воскресеньям.",
    "Прошлым летом мы с друзьями ездили в горы на велосипедах.",
]


def passages_of(suspect: str, source: str = SOURCE):
    r = api.compare(Document(suspect, title="essay"), Document(source, title="source"))
    (src,) = r.sources
    return r, list(src.passages)


def covered(text: str, sentence: str, passages) -> bool:
    s = text.index(sentence)
    return any(p.suspect_start < s + len(sentence) and s < p.suspect_end for p in passages)


def test_synonym_replacement_is_found_and_named_synonyms():
    copied = "Помещик принуждал крестьян работать на полях с рассвета до заката."
    text = " ".join([OWN[0], copied, OWN[1]])
    _, ps = passages_of(text)
    assert [p.kind for p in ps] == ["synonyms"]
    assert "synonyms" in KINDS
    (p,) = ps
    assert text[p.suspect_start:p.suspect_end] == copied[:-1]
    assert not covered(text, OWN[0], ps) and not covered(text, OWN[1], ps)


def test_a_synonym_bridged_inside_an_exact_passage_is_named_synonyms():
    copied = "Экипаж корабля собрался на палубе, когда капитан отдал распоряжение поднимать якорь."
    _, ps = passages_of(" ".join([OWN[0], copied, OWN[1]]))
    assert [(p.kind, p.method) for p in ps] == [("synonyms", "bridged")]
    # the same place replaced by a word that is no synonym: edited
    _, ps = passages_of(" ".join([OWN[0], copied.replace("распоряжение", "ракету"), OWN[1]]))
    assert [p.kind for p in ps] == ["edited"]


def test_several_changes_at_once_are_a_paraphrase():
    copied = "Когда капитан отдал распоряжение поднимать якорь, команда судна собралась на палубе."
    text = " ".join([OWN[0], copied, OWN[2]])
    _, ps = passages_of(text)
    assert [p.kind for p in ps] == ["paraphrase"]
    (p,) = ps
    assert p.matched_words < p.words  # the replaced word that is no synonym (судна) is not counted
    assert not covered(text, OWN[0], ps) and not covered(text, OWN[2], ps)


def test_the_exact_layer_is_unchanged():
    copied = "Помещик заставлял крестьян работать на полях с рассвета до заката."
    _, ps = passages_of(" ".join([OWN[0], copied, OWN[1]]))
    assert [(p.kind, p.method) for p in ps] == [("verbatim", "exact")]


def test_synonyms_do_not_count_without_the_rest_of_the_sentence():
    """A sentence sharing a synonym and a couple of words with the source is not a borrowing."""
    text = " ".join([OWN[0], "Наш капитан всегда отдавал распоряжения громко и весело.", OWN[1]])
    _, ps = passages_of(text)
    assert ps == []


ESSAY_COMMON_WORDS = (
    "Жизнь человека в деревне всегда была связана с трудом и природой. Каждый день люди вставали рано, "
    "работали в поле и возвращались домой только вечером. Дети помогали взрослым и рано узнавали цену "
    "хлеба. Время шло, и многие уезжали в город, чтобы найти другую работу. Но память о родном доме "
    "оставалась с ними всю жизнь. Я думаю, что деревенская жизнь учит человека терпению и уважению к "
    "чужому труду. Мой дед рассказывал, как в детстве пас коров на большом лугу за рекой."
)


def test_an_original_essay_with_common_words_gets_no_paraphrase_highlight():
    """The precision guard: the same everyday words (деревня, работать, поле, дети, труд, луг)
    in sentences the student wrote are never a paraphrase of the source."""
    _, ps = passages_of(ESSAY_COMMON_WORDS)
    assert ps == []


def sentences(text: str) -> list[str]:
    return [s for s in re.split(r"(?<=[.!?…])\s+(?=[А-ЯЁA-Z«—])", text) if len(s.split()) >= 6]


@pytest.mark.slow
def test_original_prose_is_not_highlighted_against_other_authors(ruslit):
    """Pushkin's prose against Chekhov's: at most 2 % of the sentences highlighted (all layers)."""
    own = sorted((ruslit / "prose" / "Pushkin").rglob("*.txt"))[:4]
    sources = sorted((ruslit / "prose" / "Chekhov").rglob("*.txt"))[:6]
    total = hit = 0
    for o in own:
        text = o.read_text(encoding="utf-8", errors="replace")[:15_000]
        sents = sentences(text)
        total += len(sents)
        spans = []
        for s in sources:
            r = api.compare(Document(text, title="essay"), Document(s.read_text(encoding="utf-8", errors="replace"),
                                                                      title=s.name))
            spans += [(p.suspect_start, p.suspect_end) for src in r.sources for p in src.passages
                      if p.method == "paraphrase"]
        pos = 0
        for sent in sents:
            at = text.index(sent, pos)
            pos = at + len(sent)
            hit += any(a < pos and at < b for a, b in spans)
    assert total > 100
    assert hit <= 0.02 * total, (hit, total)


def test_retrieval_reaches_a_paraphrased_source(tmp_path):
    """A collection holding the source among others: check finds the paraphrase, as compare does."""
    suspect = " ".join([OWN[0], "Помещик принуждал крестьян трудиться на полях с рассвета до заката.",
                        "Когда капитан отдал распоряжение поднимать якорь, команда судна собралась на палубе.",
                        OWN[1]])
    others = [
        "Шахматы развивают логическое мышление, память и усидчивость у школьников.",
        "Климат планеты меняется быстрее, чем предсказывали учёные прошлого столетия.",
        " ".join(OWN),
    ]
    with api.Collection(tmp_path / "c.sverka") as col:
        for k, t in enumerate(others):
            col.add_document(Document(t, path=f"/o{k}.txt", title=f"other {k}"))
        col.add_document(Document(SOURCE, path="/source.txt", title="source"))
        r = col.check(Document(suspect, title="essay"))
    by_title = {s.title: s for s in r.sources}
    assert "source" in by_title
    direct = api.compare(Document(suspect, title="essay"), Document(SOURCE, title="source"))
    assert [(p.suspect_start, p.suspect_end, p.kind) for p in by_title["source"].passages] == \
        [(p.suspect_start, p.suspect_end, p.kind) for p in direct.sources[0].passages]
    (p,) = by_title["source"].passages  # two sentences following each other: one passage
    assert suspect[p.suspect_start:p.suspect_end].startswith("Помещик")
    assert suspect[p.suspect_start:p.suspect_end].endswith("на палубе")


def test_variant_pair_keys_hold_the_source_pairs_a_rewrite_broke():
    """Retrieval looks up the pairs the source holds: a synonym put back, a swap undone, an
    inserted word skipped."""
    import numpy as np

    from sverka.core import candidates
    from sverka.core.candidates import variant_pair_keys
    from sverka.core.keys import pair_keys
    from sverka.core.text import canonize

    source = set(pair_keys(canonize("Помещик заставлял крестьян работать на полях до заката."))[0].tolist())
    cases = ["Помещик принуждал крестьян работать на полях до заката."]  # synonym
    if candidates.VARIANT_SWAPS:
        cases += ["Помещик крестьян заставлял работать на полях до заката.",  # swap
                  "Помещик жестоко заставлял крестьян работать на полях до заката."]  # insertion
    for rewritten in cases:
        t = canonize(rewritten)
        exact = set(pair_keys(t)[0].tolist())
        h, pos = variant_pair_keys(t)
        assert len(h) == len(pos) and np.all(pos >= 0) and np.all(pos < len(t))
        assert (set(h.tolist()) - exact) & (source - exact), rewritten
    assert candidates.MAX_ALTERNATIVES >= 1


def test_the_new_kind_and_method_have_russian_names():
    from sverka.core.i18n import translator
    from sverka.core.results import METHODS

    ru = translator("ru")
    assert ru(KINDS["synonyms"]) == "слова заменены синонимами"
    assert ru(METHODS["paraphrase"]).startswith("предложение совпало по редким словам")


def test_a_small_cluster_counts_in_retrieval_when_it_holds_half_its_sentence():
    """Three neighbouring pair keys (four tokens) shared with a document: under the five tokens a
    cluster needs, unless it is a whole sentence or, for a paraphrase, half of its sentence."""
    import numpy as np

    from sverka.core.candidates import supported_seeds

    starts = np.array([0] * 8 + [8] * 12, dtype=np.int64)  # sentences of 8 and 12 tokens
    ends = np.array([8] * 8 + [20] * 12, dtype=np.int64)
    d = np.array([1, 1, 1, 2, 2, 2], dtype=np.int64)
    i = np.array([2, 3, 4, 10, 11, 12], dtype=np.int64)  # doc 1 in the short sentence, doc 2 in the long
    j = np.array([102, 103, 104, 52, 53, 54], dtype=np.int64)
    assert supported_seeds(d, i, j, 9, 30, (starts, ends)) == {}
    assert supported_seeds(d, i, j, 9, 30, (starts, ends), sentence_share=0.5) == {1: 4}  # 4 of 8 tokens
    # the same cluster across two sentences is no part of one sentence
    i2 = np.array([6, 7, 8], dtype=np.int64)
    assert supported_seeds(d[:3], i2, j[:3], 9, 30, (starts, ends), sentence_share=0.5) == {}


def test_variant_keys_are_looked_up_only_in_sentences_no_found_source_holds(tmp_path, monkeypatch):
    """Two sentences copied whole: the source their exact keys find holds them, so their
    synonym variants are not looked up (they were most of a check's lookups); the variants
    of the student's own sentences are, and the result is the source with the copy."""
    import numpy as np

    from sverka.core import check

    copied = [s for s in re.split(r"(?<=[.!?])\s+", SOURCE)][::2][:2]
    text = " ".join(copied + OWN[:2])
    with api.Collection(tmp_path / "c.sverka") as col:
        col.add_document(Document(SOURCE, title="source"))
        asked = []
        real = col.index.pair_postings
        monkeypatch.setattr(col.index, "pair_postings", lambda h, **k: (asked.append(np.asarray(h)), real(h, **k))[1])
        r = col.check(Document(text, title="essay"))
        a = check.prepare(Document(text), col.settings)
    assert [s.title for s in r.sources] == ["source"]
    assert r.sources[0].passages[0].suspect_start == 0
    asked_keys = set(np.concatenate(asked).tolist())
    vh, vpos = a.variant_pairs
    own = int(np.searchsorted(a.tokens.starts, text.index(OWN[0])))
    inside, outside = set(vh[vpos < own].tolist()), set(vh[vpos >= own].tolist())
    only_inside = inside - outside - set(a.pairs[0].tolist())
    assert only_inside and outside
    assert only_inside.isdisjoint(asked_keys)
    assert outside <= asked_keys


def test_whole_sentences_inside_clusters():
    import numpy as np

    from sverka.core.candidates import _whole_sentences_in

    # sentences of tokens [0, 5), [5, 9), [9, 15)
    starts = np.array([0] * 5 + [5] * 4 + [9] * 6, dtype=np.int64)
    ends = np.array([5] * 5 + [9] * 4 + [15] * 6, dtype=np.int64)
    marked = lambda spans: np.flatnonzero(_whole_sentences_in(spans, (starts, ends), 15)).tolist()  # noqa: E731
    assert marked([]) == []
    assert marked([(0, 9)]) == list(range(9))
    assert marked([(2, 12)]) == [5, 6, 7, 8]  # only the sentence it holds whole
    assert marked([(2, 8), (6, 15)]) == list(range(9, 15))  # the middle one is in neither whole
    assert marked([(1, 4)]) == []


def test_a_pair_of_words_met_twice_supports_nothing_by_itself():
    """One suspect pair key the source holds twice close by, and one the suspect repeats against
    a single source place: the alignment can link neither (the same suspect tokens, the same
    source tokens), so neither makes a cluster; a second pair near both does."""
    import numpy as np

    from sverka.core.candidates import _supported, supported_seeds

    d = np.array([1, 1, 2, 2], dtype=np.int64)
    i = np.array([5, 5, 5, 8], dtype=np.int64)
    j = np.array([100, 112, 40, 40], dtype=np.int64)  # doc 1: 12 tokens apart, in reach of each other
    assert _supported(d, i, j, 9, 30).tolist() == [False] * 4
    assert supported_seeds(d, i, j, 9, 30) == {}
    # another pair of words three tokens on, 3 and 9 tokens from the two places in the
    # source: it supports both (either may be the passage), and they it
    d, i, j = (np.append(x, y) for x, y in ((d, 1), (i, 8), (j, 103)))
    order = np.lexsort((j, i, d))
    assert _supported(d[order], i[order], j[order], 9, 30).tolist() == [True, True, True, False, False]
    assert _supported(d[order], i[order], j[order], 9, 5).tolist() == [True, False, True, False, False]


RUN_ON = ("Я долго сидел на берегу и смотрел на воду, а потом вспомнил, что прочитал в книге, "
          "что помещик принуждал крестьян работать на полях с рассвета до заката.")


def test_a_borrowed_sentence_run_into_the_students_own_is_found(monkeypatch):
    """No full stop between the student's own words and a paraphrased sentence: the pair is
    weighed over the borrowed part, so the own words neither hide it nor are highlighted."""
    from sverka.core import paraphrase

    _, ps = passages_of(RUN_ON)
    (p,) = ps
    assert RUN_ON[p.suspect_start:p.suspect_end].startswith("помещик")
    monkeypatch.setattr(paraphrase, "SOURCE_KEPT", 2.0)  # the whole suspect sentence weighed
    _, ps = passages_of(RUN_ON)
    assert not any(q.method == "paraphrase" for q in ps)


EDGE_SOURCE = ("Watch as the team gives shelter dogs a second chance. Start the new year off on the right paw "
               "with our simply adorable and free calendar for readers! Resolve to solve the puzzle.")
EDGE_OWN = "Our county launched a new innovative web site for its executive William R."
EDGE_COPIED = "Start the new year off on the right paw with our simply adorable and free calendar for readers!"


def test_a_word_of_the_students_own_run_into_a_borrowed_sentence_is_not_highlighted(monkeypatch):
    """No sentence ends at the initial "R.": the student's own words and the copied sentence are
    one sentence, and its first "new" agrees with the source's. Highlighting from there would
    show nine words of the student's as copied; only the copied sentence is highlighted."""
    from sverka.core import paraphrase

    text = f"{EDGE_OWN} {EDGE_COPIED}"
    _, ps = passages_of(text, EDGE_SOURCE)
    assert [text[p.suspect_start:p.suspect_end] for p in ps] == [EDGE_COPIED[:-1]]
    # the student's "new" placed where the source's lies, the borrowed one: the same without the
    # cut at the edge, and with it alone (the student's "new" first, as before it was placed)
    monkeypatch.setattr(paraphrase, "EDGE_GAP", 10 ** 6)
    _, ps = passages_of(text, EDGE_SOURCE)
    assert [text[p.suspect_start:p.suspect_end] for p in ps] == [EDGE_COPIED[:-1]]
    monkeypatch.undo()
    monkeypatch.setattr(paraphrase, "PLACE_CROWDED", False)
    _, ps = passages_of(text, EDGE_SOURCE)
    assert [text[p.suspect_start:p.suspect_end] for p in ps] == [EDGE_COPIED[:-1]]
    monkeypatch.setattr(paraphrase, "EDGE_GAP", 10 ** 6)  # neither: the own words highlighted
    _, ps = passages_of(text, EDGE_SOURCE)
    assert any(p.suspect_start < len(EDGE_OWN) for p in ps)


def test_a_word_only_the_students_part_holds_is_cut_off_the_edge(monkeypatch):
    """The copy dropped "adorable", the student's own words before it hold it: that lone agreeing
    word, far from the rest, is no part of the passage."""
    from sverka.core import paraphrase

    own = "Our adorable county launched a web site for its executive William R."
    copied = "Start the new year off on the right paw with our simply free calendar for readers!"
    text = f"{own} {copied}"
    _, ps = passages_of(text, EDGE_SOURCE)
    assert [text[p.suspect_start:p.suspect_end] for p in ps] == [copied[:-1]]
    monkeypatch.setattr(paraphrase, "EDGE_GAP", 10 ** 6)
    _, ps = passages_of(text, EDGE_SOURCE)
    assert any(p.suspect_start < len(own) for p in ps)


def test_a_repeated_word_is_paired_where_the_borrowed_part_puts_it():
    """"approximately" twice in the suspect sentence (no sentence ends at "days. > > >"), once in
    the source's: the one inside the copied words is paired, the student's is not highlighted."""
    source = ("> > > national cemetery was established on April 13, 1867 and covered approximately 6 acres. "
              "It was dedicated as the final resting place for the heroes who fell in battle.")
    copied = "> > > national cemetery was established on April 13, 1867 and covered approximately 6 acres."
    text = "Again this stage can last 4-14 days but averages approximately 7 days. " + copied
    _, ps = passages_of(text, source)
    assert [text[p.suspect_start:p.suspect_end] for p in ps] == [copied[6:-1]]


def test_a_paraphrased_sentence_run_into_own_words_sharing_its_lemma_is_found():
    """The student's part holds "крестьянин" too: matched first, it took the source's
    "крестьян" from the borrowed part and the pair failed; cut off, the rest is matched again."""
    own = "Мой дед, старый крестьянин из соседнего села, часто рассказывал внукам про учителя истории Петра С."
    copied = "Помещик принуждал крестьян трудиться на полях с рассвета до заката."
    text = f"{own} {copied}"
    _, ps = passages_of(text)
    assert [(p.method, text[p.suspect_start:p.suspect_end]) for p in ps] == [("paraphrase", copied[:-1])]


def test_dense_cuts_off_small_runs_at_the_edges_only():
    from sverka.core.paraphrase import EDGE_GAP, MIN_AGREE, _dense

    def m(*tokens):
        return [(i, i, False) for i in tokens]

    far = EDGE_GAP + 1  # unmatched tokens between two agreeing ones that part them
    body = m(*range(20, 26))
    assert _dense(body) == body
    assert _dense(m(0) + body) == body  # one word far before
    assert _dense(m(20 - far - 2, 20 - far - 1) + body + m(25 + far + 1)) == body
    assert _dense(m(20 - EDGE_GAP - 1) + body) == m(20 - EDGE_GAP - 1) + body  # not further than the gap
    inner = m(20, 21) + m(21 + far + 1, 21 + far + 2) + m(*range(40, 44))
    assert _dense(inner) == m(*range(40, 44))  # runs cut off one after another
    many = m(*range(0, MIN_AGREE)) + body  # as many as MIN_AGREE together stay
    assert _dense(many) == many
    assert _dense(m(3, 4)) == m(3, 4) and _dense([]) == []


def test_a_short_paraphrased_sentence_is_as_long_as_its_words():
    """A paraphrased sentence of ten words of which fewer than eight agree is not 'short'."""
    copied = "С рассвета до заката помещик принуждал мужиков трудиться в полях."
    text = " ".join([OWN[0], copied, OWN[1]])
    r, ps = passages_of(text)
    (p,) = ps
    assert p.method == "paraphrase" and p.excluded is None
    assert p.matched_words < 8 <= p.words
    assert r.borrowed_percent > 0


def test_a_long_original_sentence_sharing_a_few_words_with_a_short_one_is_not_a_paraphrase(ruslit, monkeypatch):
    """The precision guard of the weighed part: four words of an original sentence (жизнь,
    ничего, знать, ...) close together are no borrowing of a short source sentence that holds
    them among others; weighed over that part alone they would be."""
    from sverka.core import paraphrase

    own = ("— Вы можете, — продолжал Германн, — составить счастие моей жизни, и оно ничего не будет "
           "вам стоить: я знаю, что вы можете угадать три карты сряду...")
    (path,) = (ruslit / "prose" / "Gorky").rglob("Емельян Пиляй.txt")
    source = path.read_text(encoding="utf-8", errors="replace")

    def paraphrased():
        r = api.compare(Document(own, title="essay"), Document(source, title="source"))
        return [p for s in r.sources for p in s.passages if p.method == "paraphrase"]

    assert paraphrased() == []
    monkeypatch.setattr(paraphrase, "SOURCE_KEPT", 0.0)
    # the refusals would refuse it too ("не будет" against no denial): this guard alone
    from sverka.core import check

    monkeypatch.setattr(check, "refuse_contradictions", lambda passages, *args, **kwargs: list(passages))
    assert paraphrased() != []


def test_check_reaches_a_source_sharing_half_a_sentence_in_one_run(tmp_path, monkeypatch):
    """A paraphrased sentence keeping four neighbouring words of its source (3 pair keys, under
    the 5 tokens a retrieval cluster needs) in a sentence of eight: the check reaches the
    source, as comparing the two texts finds the passage."""
    from sverka.core import candidates

    own = ["Шахматный клуб нашей школы открылся осенью и собрал двадцать учеников.",
           "Учитель физики показал опыт с магнитами и железными опилками.",
           "Вечером я готовлю уроки, а потом читаю книги о путешествиях.",
           "Зимой в нашем городе часто идёт снег и дуют сильные ветры."]
    copied = "Ребятишки носились по траве, собирали ромашки и плели венки для сестёр."
    essay = " ".join([OWN[0], own[0], own[1], copied, OWN[1], own[2], own[3], OWN[2]])
    _, direct = passages_of(essay)
    assert [p.method for p in direct] == ["paraphrase"]

    def sources() -> list[str]:
        with api.Collection(tmp_path / "c.sverka") as col:
            if not col.index.documents():
                col.add_document(Document("Шахматы развивают логическое мышление и память.", path="/o.txt",
                                          title="other"))
                col.add_document(Document(SOURCE, path="/source.txt", title="source"))
            return [s.title for s in col.check(Document(essay, title="essay")).sources]

    assert sources() == ["source"]
    monkeypatch.setattr(candidates, "PARAPHRASE_SHARE", 1.0)  # a small cluster only as a whole sentence
    assert sources() == []


class _Synonyms:
    """A synonym table over small integer 'lemma hashes', with the table's alternatives_of: a
    lemma's alternatives are the others of its classes, each once, sorted (as the table's)."""

    def __init__(self, classes):
        alt = {}
        for c in classes:
            for x in c:
                alt.setdefault(x, set()).update(y for y in c if y != x)
        self.alt = {x: sorted(ys) for x, ys in alt.items()}

    def alternatives_of(self, hashes):
        import numpy as np

        which, alt = [], []
        for k, h in enumerate(np.asarray(hashes, np.uint64).tolist()):
            for y in self.alt.get(h, ()):
                which.append(k)
                alt.append(y)
        return np.asarray(which, np.int64), np.asarray(alt, np.uint64)


@given(st.lists(st.lists(st.integers(1, 9), min_size=1, max_size=8), min_size=1, max_size=4),
       st.lists(st.lists(st.integers(1, 9), min_size=1, max_size=8), min_size=1, max_size=4),
       st.lists(st.frozensets(st.integers(1, 9), min_size=2, max_size=3), max_size=3),
       st.randoms(use_true_random=False))
@settings(max_examples=300, deadline=None)
def test_the_candidates_counted_out_are_those_the_matcher_could_not_accept(a_sents, b_sents, classes, rnd):
    """The count that spares scoring most candidate sentence pairs is never below what the
    one-to-one matcher pairs, with repeated words and synonyms (else a paraphrase is lost)."""
    import numpy as np

    from sverka.core import paraphrase

    syn = _Synonyms(classes)

    def layout(sents):
        hashes = np.asarray([h for s in sents for h in s], np.uint64)
        first = np.cumsum([0] + [len(s) for s in sents[:-1]]).astype(np.int64)
        last = first + np.asarray([len(s) for s in sents], np.int64)
        return hashes, (np.arange(len(sents), dtype=np.int64), first, last)

    ha, a_sentences = layout(a_sents)
    hb, b_sentences = layout(b_sents)
    pairs = [(x, y) for x in range(len(a_sents)) for y in range(len(b_sents))]
    rnd.shuffle(pairs)
    sa = np.asarray([x for x, _ in pairs], np.int64)
    sb = np.asarray([y for _, y in pairs], np.int64)
    keys = paraphrase._suspect_keys(ha, a_sentences, syn)
    bound = paraphrase._agreeing_tokens(sa, sb, keys, hb, b_sentences)
    for k, (x, y) in enumerate(pairs):
        ia = range(int(a_sentences[1][x]), int(a_sentences[2][x]))
        ib = range(int(b_sentences[1][y]), int(b_sentences[2][y]))
        matched = paraphrase._match(ia, ib, ha, hb, syn, {i: 1.0 + (i % 3) for i in ia})
        assert len(matched) <= bound[k]
        # the synonyms read off the check's keys pair exactly as the table's
        assert paraphrase._match(ia, ib, ha, hb, None, {i: 1.0 + (i % 3) for i in ia}, keys.synonyms_of) == matched
        # and the bound is tight where no synonym is involved: distinct words shared both ways
        if not classes:
            ca, cb = Counter(ha[ia].tolist()), Counter(hb[ib].tolist())
            assert bound[k] == min(sum(n for h, n in ca.items() if h in cb), sum(n for h, n in cb.items() if h in ca))



@given(st.sets(st.tuples(st.integers(0, 3), st.integers(0, 60), st.integers(0, 60)), max_size=60),
       st.integers(1, 12), st.integers(1, 30))
@settings(max_examples=400, deadline=None)
def test_retrieval_support_is_the_rule_it_states(seeds, near_suspect, near_source):
    """A seed is supported when the next seed on its diagonal follows it, or one of the next
    eight seeds of its document (in suspect order) lies near in both texts at another position
    in both: written out pair by pair here, against the arrays that skip the seeds already out
    of reach."""
    import numpy as np

    from sverka.core.candidates import _supported

    rows = sorted(seeds)  # by document, suspect position, source position
    want = [False] * len(rows)
    for k, (d, i, j) in enumerate(rows):
        for m in range(k + 1, min(k + 9, len(rows))):
            d2, i2, j2 = rows[m]
            if d2 == d and i2 - i <= near_suspect and abs(j2 - j) <= near_source and i2 != i and j2 != j:
                want[k] = want[m] = True
        for m, (d2, i2, j2) in enumerate(rows):
            if d2 == d and i2 == i + 1 and j2 == j + 1:
                want[k] = want[m] = True
    if rows:
        d, i, j = (np.asarray([r[c] for r in rows], np.int64) for c in range(3))
        assert _supported(d, i, j, near_suspect, near_source).tolist() == want


@given(st.lists(st.lists(st.integers(1, 12), min_size=1, max_size=8), min_size=1, max_size=5),
       st.lists(st.lists(st.integers(1, 12), min_size=1, max_size=8), min_size=1, max_size=60),
       st.lists(st.frozensets(st.integers(1, 12), min_size=2, max_size=3), max_size=3),
       st.lists(st.booleans(), min_size=40, max_size=40))
@example([[1, 2, 3]], [[1, 2]] * 20 + [[1, 3]], [], [True] * 40)  # 1: one sentence too many to be rare
@settings(max_examples=300, deadline=None)
def test_rare_rows_are_every_pair_agreeing_through_a_rare_lemma(a_sents, b_sents, classes, allowed):
    """The rows the candidates are counted from: every (source token, allowed suspect token)
    whose lemmas agree (equal, or a synonym of the suspect's) through a lemma few source
    sentences hold, each once, written out pair by pair here."""
    import numpy as np

    from sverka.core import paraphrase
    from sverka.core.text import Tokens

    def tokens_of(sents):
        hashes = [h for s in sents for h in s]
        n = len(hashes)
        return Tokens(text="", starts=np.arange(n, dtype=np.int64), ends=np.arange(n, dtype=np.int64) + 1,
                      lemmas=("",) * n, hashes=np.asarray(hashes, np.uint64),
                      word_hashes=np.asarray(hashes, np.uint64),
                      sentence_ids=np.asarray([k for k, s in enumerate(sents) for _ in s], np.int32),
                      sentence_spans=np.zeros((len(sents), 2), np.int64), word_count=n, language="ru",
                      lookalike_letters=0, invisible_chars=0, hyphen_joins=0, warnings=())

    syn = _Synonyms(classes)
    a, b = tokens_of(a_sents), tokens_of(b_sents)
    ha, hb = a.hashes.tolist(), b.hashes.tolist()
    keys = paraphrase._suspect_keys(a.hashes, paraphrase._sentences(a), syn)
    stats = paraphrase.SourceStats.of(b)
    token_ok = np.asarray((allowed * 2)[:len(ha)], bool)
    at, lo, cnt, ki = paraphrase._rare_rows(keys, stats, token_ok)
    rows = [(int(u), int(i)) for k, u in enumerate(at.tolist()) for i in ki[lo[k]:lo[k] + cnt[k]].tolist()]
    limit = paraphrase._rare_df(len(b_sents))
    held_by = Counter(h for s in b_sents for h in set(s))
    want = set()
    for i, x in enumerate(ha):
        if not token_ok[i]:
            continue
        agree = {x} | {y for c in classes if x in c for y in c}
        for u, y in enumerate(hb):
            if y in agree and held_by[y] <= limit:
                want.add((u, i))
    assert len(rows) == len(set(rows)) == len(want)
    assert set(rows) == want


@given(st.sets(st.integers(0, 40)), st.sets(st.integers(0, 40)))
def test_intersect_finds_what_both_sorted_arrays_hold(x, y):
    import numpy as np

    from sverka.core.paraphrase import _intersect

    xs, ys = np.asarray(sorted(x), np.uint64), np.asarray(sorted(y), np.uint64)
    ix, iy = _intersect(xs, ys)
    assert xs[ix].tolist() == ys[iy].tolist() == sorted(x & y)
