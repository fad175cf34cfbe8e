"""A score a teacher can act on: retrieval, passages and shares on real and hand-made texts.

One test (or property) per point: retrieval finds what alignment accepts (check through a
collection equals compare), the minimum passage in words of the text, reordered sentences
as one passage, no original sentence inside a passage, shares that grade rewriting,
quotation marks that come from the source, padding, class-wide copying in a cross-check,
and alignment work bounded on repetitive text.
"""

from __future__ import annotations

import random
import re
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sverka.core import api
from sverka.core.align import join_equal
from sverka.core.document import Document
from sverka.core.settings import Settings
from sverka.core.text import word_starts

BENCH = Path(__file__).resolve().parents[2] / "bench"

PROPERTY = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                          HealthCheck.function_scoped_fixture])

SOURCE = (
    "Лес встретил нас тишиной и прохладой. Высокие сосны поднимались к самому небу, и солнечные "
    "лучи с трудом пробивались сквозь густые кроны. Под ногами мягко пружинил толстый слой "
    "прошлогодней хвои. Где-то далеко стучал дятел, и этот звук разносился по всему лесу. Мы шли "
    "молча, прислушиваясь к каждому шороху, потому что старый лесник предупредил нас о медведях. "
    "К полудню тропинка вывела нас к небольшому озеру с прозрачной холодной водой. На берегу "
    "стояла покосившаяся избушка, в которой когда-то жил отшельник. Мы развели костёр, вскипятили "
    "чай и долго сидели у огня, рассказывая друг другу страшные истории. Вечером над озером "
    "поднялся густой туман, и лес вокруг стал казаться таинственным и опасным. Ночью никто из нас "
    "не мог уснуть: за стенами избушки кто-то ходил, хрустя сухими ветками. Утром мы нашли у "
    "порога огромные следы, но так и не решили, чьи они были."
)
ORIGINAL = [
    "Моя бабушка всю жизнь проработала учительницей математики в сельской школе.",
    "Каждое лето мы ездили к ней в деревню и помогали собирать урожай картофеля.",
    "Современные смартфоны заметно изменили привычки подростков в последние годы.",
    "Футбольная команда нашего класса впервые выиграла районный турнир этой весной.",
    "Экономика небольшого города зависит от единственного крупного завода.",
    "Я считаю, что домашние задания должны быть короче и интереснее для учеников.",
    "Наш сосед разводит пчёл и каждую осень угощает всех свежим гречишным мёдом.",
    "Библиотека открылась после ремонта, и теперь там есть просторный читальный зал.",
]


def sentences(text: str) -> list[str]:
    return re.split(r"(?<=[.!?])\s+", text.strip())


def spans_text(text: str, result) -> str:
    return " | ".join(text[p.suspect_start : p.suspect_end] for s in result.sources for p in s.passages)


def passages_key(result):
    """What a teacher sees of one source: the counted passages and the shares."""
    (src,) = [s for s in result.sources if not s.is_template] or [None]
    if src is None:
        return None
    return (
        round(result.borrowed_percent, 4),
        round(result.cited_percent, 4),
        round(src.containment, 6),
        tuple((p.suspect_start, p.suspect_end, p.source_start, p.source_end, p.words, p.matched_words, p.excluded)
              for p in src.passages),
    )


# -- 1. retrieval: a check through a collection equals compare -------------------------


@pytest.fixture(scope="module")
def one_source(tmp_path_factory):
    path = tmp_path_factory.mktemp("one") / "c.sverka"
    source = Document(SOURCE, path="/docs/forest.txt", title="forest")
    with api.Collection(path) as col:
        col.add_document(source)
        yield col, source


def rewrite(rng: random.Random, text: str, *, drop_sentences: float, drop_words: float, reverse: bool) -> str:
    ss = [s for s in sentences(text) if rng.random() >= drop_sentences] or sentences(text)[:1]
    if reverse:
        ss = ss[::-1]
    out = []
    for s in ss:
        words = s.split(" ")
        kept = [w for w in words if rng.random() >= drop_words] or words
        out.append(" ".join(kept))
    return " ".join(out)


@PROPERTY
@given(st.integers(0, 2**32 - 1), st.floats(0, 0.6), st.floats(0, 0.4), st.booleans(), st.integers(0, 3))
def test_check_against_one_document_equals_compare(one_source, seed, drop_sentences, drop_words, reverse, own):
    col, source = one_source
    rng = random.Random(seed)
    text = " ".join(ORIGINAL[:own]) + " " + rewrite(rng, SOURCE, drop_sentences=drop_sentences,
                                                     drop_words=drop_words, reverse=reverse)
    suspect = Document(text.strip(), title="suspect")
    compared = api.compare(suspect, source)
    checked = col.check(suspect)
    if suspect.sha256 == source.sha256:  # the suspect itself is in the collection
        assert checked.in_collection is not None and checked.sources == ()
        return
    if not any(p.excluded is None for p in compared.sources[0].passages):
        assert checked.borrowed_percent == 0.0
        return
    assert passages_key(checked) == passages_key(compared)


def test_heavy_rewrite_found_through_the_collection(one_source):
    """Runs of 3-5 words are all a heavy rewrite keeps: the check must reach the source."""
    col, source = one_source
    heavy = (
        "Когда мы вошли, лес встретил нас тишиной и прохладой, как будто ждал гостей. "
        "Я помню, что высокие сосны поднимались к самому небу над головой. "
        "Вокруг было тихо, только где-то далеко стучал дятел в чаще. "
        "Потом тропинка вывела нас к небольшому озеру, и мы остановились. "
        "Там мы развели костёр и вскипятили чай, хотя было жарко."
    )
    suspect = Document(heavy, title="heavy")
    compared = api.compare(suspect, source)
    checked = col.check(suspect)
    assert compared.borrowed_percent > 10
    assert passages_key(checked) == passages_key(compared)


@pytest.fixture(scope="module")
def stories_and_poems(ruslit, tmp_path_factory):
    """A collection of Chekhov's stories and every poem of the corpus (150+ documents)."""
    with api.Collection(tmp_path_factory.mktemp("many") / "c.sverka") as col:
        summary = col.add([str(ruslit / "prose" / "Chekhov"), str(ruslit / "poems")])
        assert len(summary.added) > 150 and not summary.failed
        yield col


def test_check_among_many_documents_equals_compare(ruslit, stories_and_poems):
    """Against a collection of over a hundred documents, the source's passages are the same."""
    folder = ruslit / "prose" / "Chekhov"
    files = sorted(folder.glob("*.txt"))
    source_path = files[len(files) // 2]
    source_text = source_path.read_text(encoding="utf-8")
    rng = np.random.default_rng(3)
    sys.path.insert(0, str(BENCH))
    try:
        from bench_detection import Rewriter, passage
    finally:
        sys.path.remove(str(BENCH))
    rw = Rewriter(rng, re.findall(r"\w+", source_text[:20000]))
    parts = [ORIGINAL[0]]
    for k in range(4):
        p = passage(source_text, rng, 30, 80)
        parts.append([p, rw.words(p, form=0.3, delete=0.1), rw.reorder(p), rw.words(p, every=5)][k])
        parts.append(ORIGINAL[k + 1])
    suspect = Document(" ".join(parts), title="suspect")
    checked = stories_and_poems.check(suspect)
    compared = api.compare(suspect, Document(source_text, path=str(source_path), title=source_path.name))
    own = [s for s in checked.sources if s.path == str(source_path)]
    assert own, [s.title for s in checked.sources]
    mine = [(p.suspect_start, p.suspect_end, p.source_start, p.source_end, p.matched_words) for p in own[0].passages]
    theirs = [(p.suspect_start, p.suspect_end, p.source_start, p.source_end, p.matched_words)
              for p in compared.sources[0].passages]
    assert mine == theirs
    assert own[0].containment == pytest.approx(compared.sources[0].containment)
    assert own[0] is checked.sources[0]


# -- 2. the minimum passage is counted in words of the text -----------------------------


def test_a_copied_sentence_of_eight_to_ten_words_is_found():
    source = Document(SOURCE)
    eight = "Под ногами мягко пружинил толстый слой прошлогодней хвои."  # 8 words
    dialogue = "Мы шли молча, прислушиваясь к каждому шороху, потому что старый лесник предупредил нас о медведях."
    for copied in (eight, dialogue):
        text = ORIGINAL[0] + " " + copied + " " + ORIGINAL[1]
        r = api.compare(Document(text), source)
        counted = [p for p in r.sources[0].passages if p.excluded is None]
        assert [text[p.suspect_start : p.suspect_end] for p in counted] == [copied.rstrip(".")], spans_text(text, r)
        assert counted[0].words == len(word_starts(copied)) and counted[0].similarity == 1.0


def test_stop_word_heavy_dialogue_is_measured_in_its_words():
    """17 words of dialogue are 4 content words: the passage is 17 words long, not 4."""
    line = "— А ты что же, и не знал, что он у нас с тобой вчера был весь вечер?"
    source = Document(SOURCE + " " + line + " — Не знал.")
    text = ORIGINAL[2] + " " + line + " " + ORIGINAL[3]
    r = api.compare(Document(text), source)
    (p,) = [p for p in r.sources[0].passages if p.excluded is None]
    assert p.words >= 15 and p.matched_words == p.words


def test_original_prose_gets_no_highlights(ruslit, stories_and_poems):
    """Stories of another author checked against the collection: nothing borrowed."""
    for path in sorted((ruslit / "prose" / "Gorky").glob("*.txt"))[:8]:
        text = path.read_text(encoding="utf-8")[:30000]
        r = stories_and_poems.check(Document(text, title=path.name))
        assert r.borrowed_percent < 0.5, (path.name, spans_text(text, r)[:500])


# -- 3. reordered sentences are one passage ---------------------------------------------


def rotate(sentence: str) -> str:
    body, end = sentence[:-1], sentence[-1]
    parts = body.split(", ")
    if len(parts) < 2:
        return sentence
    rest = parts[1:]
    rest[0] = rest[0][:1].upper() + rest[0][1:]
    return ", ".join(rest + [parts[0][:1].lower() + parts[0][1:]]) + end


def test_reversed_sentences_with_rotated_clauses_are_one_passage():
    paragraph = " ".join(sentences(SOURCE)[4:9])
    shuffled = " ".join(rotate(s) for s in sentences(paragraph)[::-1])
    text = ORIGINAL[0] + "\n\n" + shuffled + "\n\n" + ORIGINAL[1]
    r = api.compare(Document(text), Document(SOURCE))
    counted = [p for p in r.sources[0].passages if p.excluded is None]
    start = text.index(shuffled)
    covered = sum(min(p.suspect_end, start + len(shuffled)) - max(p.suspect_start, start) for p in counted)
    assert len(counted) == 1 and covered >= 0.9 * len(shuffled), spans_text(text, r)


# -- 4. no original sentence inside a passage -------------------------------------------


@PROPERTY
@given(st.integers(0, 2**32 - 1))
def test_original_sentences_between_borrowed_ones_are_never_inside_a_passage(seed):
    rng = random.Random(seed)
    borrowed = sentences(SOURCE)
    start = rng.randrange(0, len(borrowed) - 4)
    copied = borrowed[start : start + rng.randint(3, 5)]
    own = rng.sample(ORIGINAL, len(copied))
    parts, mine = [], []
    pos = 0
    for c, o in zip(copied, own):
        for s, is_own in ((c, False), (o, True)):
            if is_own:
                mine.append((pos, pos + len(s)))
            parts.append(s)
            pos += len(s) + 1
    text = " ".join(parts)
    r = api.compare(Document(text), Document(SOURCE))
    for p in r.sources[0].passages:
        for s, e in mine:
            assert p.suspect_end <= s or p.suspect_start >= e, (text[s:e], text[p.suspect_start : p.suspect_end])
    assert r.borrowed_percent > 30


@pytest.mark.parametrize("source, essay, copied", [
    ("Some phones connect as soon as you pick them up. Others, you have to push a talk or accept "
     "button. Make sure your child knows how to operate the phone.",
     "My essay is about phones. Some phones connect as soon as you pick them up. Others, you have to "
     "push a talk or accept button. Make it your drink at the cafe any way you like.",
     "Some phones connect as soon as you pick them up. Others, you have to push a talk or accept button"),
    ("Он долго стоял у окна и смотрел на пустую улицу. Старый дом напротив давно опустел.",
     "Вчера я читал рассказ. Он долго стоял у окна и смотрел на пустую улицу. Старый учитель вошёл в "
     "класс и открыл журнал.",
     "Он долго стоял у окна и смотрел на пустую улицу"),
    ("Дождь шёл всю ночь. Утром река вышла из берегов и затопила низкие луга у самой деревни.",
     "Я помню тот год, когда Утром река вышла из берегов и затопила низкие луга у самой деревни.",
     "Утром река вышла из берегов и затопила низкие луга у самой деревни"),
], ids=["en", "ru", "ru-run-on-kept"])
def test_the_first_word_of_an_own_sentence_is_not_highlighted_for_the_source_going_on_alike(source, essay, copied):
    """The source's next sentence begins with the same word as the student's own one ("Make",
    "Старый"): the copied passage ends with its sentence, not one word into the student's."""
    r = api.compare(Document(essay), Document(source))
    assert [essay[p.suspect_start:p.suspect_end] for p in r.sources[0].passages] == [copied]


def test_a_short_sentence_copied_whole_stays_in_the_passage():
    source = "Он долго стоял у окна и смотрел на пустую улицу. Стало тихо. Потом он сел за стол и начал писать."
    essay = "Вчера я читал рассказ. Он долго стоял у окна и смотрел на пустую улицу. Стало тихо. Я закрыл книгу."
    r = api.compare(Document(essay), Document(source))
    (p,) = r.sources[0].passages
    assert essay[p.suspect_start:p.suspect_end] == "Он долго стоял у окна и смотрел на пустую улицу. Стало тихо"


@pytest.mark.parametrize("source, essay, copied", [
    ("Он долго стоял у окна и смотрел на пустую улицу. Снег падал. Потом он сел за стол и начал писать.",
     "Вчера я читал рассказ. Он долго стоял у окна и смотрел на пустую улицу. Снег падал (так пишет автор). "
     "Я закрыл книгу.",
     "Он долго стоял у окна и смотрел на пустую улицу. Снег падал"),
    ("«Милый дедушка, Константин Макарыч! — писал он. — И пишу тебе письмо. Поздравляю вас с Рождеством.",
     "Письмо начинается так: «Милый дедушка, Константин Макарыч! — писал он. — И пишу тебе письмо» "
     "(А. П. Чехов, «Ванька»). Мне жалко мальчика.",
     "Милый дедушка, Константин Макарыч! — писал он. — И пишу тебе письмо"),
], ids=["words-added", "quotation-with-its-reference"])
def test_a_short_sentence_of_the_source_copied_whole_stays_though_the_essay_s_goes_on(source, essay, copied):
    """The source's sentence of two words ends where the copy does, and the student's sentence
    goes on (a reference, words added): the copy is kept whole, not cut before the sentence
    (which left a passage under the shortest that counts, and the copy was not found at all)."""
    r = api.compare(Document(essay), Document(source))
    assert [essay[p.suspect_start:p.suspect_end] for p in r.sources[0].passages] == [copied]


def _covered(text: str, own: str, result) -> bool:
    s = text.index(own)
    return any(p.suspect_start < s + len(own) and s < p.suspect_end for src in result.sources for p in src.passages)


WOOD = sentences(SOURCE)


def test_a_dialogue_line_ending_in_ya_is_a_sentence_of_its_own_and_never_bridged():
    """"– ответил я." ends a sentence (a lower-case "я" is no initial): the student's line and
    the copied sentence after it are two sentences, and the bridge between the copied ones
    stops at the line, though it is shorter than the gap a bridge may cross."""
    own = "«А кто его знает», – ответил я."
    text = " ".join([WOOD[0], WOOD[1], own, WOOD[3]])
    r = api.compare(Document(text), Document(SOURCE))
    assert not _covered(text, own, r)
    found = [text[p.suspect_start:p.suspect_end] for p in r.sources[0].passages]
    assert found == [f"{WOOD[0]} {WOOD[1]}"[:-1], WOOD[3][:-1]]


@pytest.mark.parametrize("own, before, added", [
    ("«А бог его знает», – ответил он.", "Под ногами",
     "Один бог ведал, куда ведёт тропа. Старик знает эти места и ответил на все наши вопросы. "),
    ("Мы согласились.", "Мы шли", "Все согласились. "),
], ids=["words-apart", "one-word-elsewhere"])
def test_an_own_sentence_whose_words_the_source_holds_apart_is_never_bridged(own, before, added):
    """Each word of the student's line ("бог", "знает", "ответил") stands in another sentence
    of the source near the copied ones, or its one word ("согласились") in a sentence after
    them, not where the line stands: that is no copy of the line, and no passage crosses it."""
    source = SOURCE.replace(before, added + before)
    text = " ".join([WOOD[0], WOOD[1], own, WOOD[3]])
    r = api.compare(Document(text), Document(source))
    assert not _covered(text, own, r)
    assert [text[p.suspect_start:p.suspect_end] for p in r.sources[0].passages] == [
        f"{WOOD[0]} {WOOD[1]}"[:-1], WOOD[3][:-1]]


def test_an_own_line_between_reworded_sentences_is_never_inside_a_paraphrase_passage():
    """The paraphrase layer joins reworded sentences that follow each other: the student's line
    between them ("– ответил я.") is a sentence with no match, so it parts them."""
    source = ("Весь прошлый век крестьяне деревни жили в бедности и тяжёлом труде. "
              "Помещик заставлял крестьян работать на полях с рассвета до заката. "
              "Экипаж корабля собрался на палубе, когда капитан отдал приказ поднимать якорь. "
              "Дети бегали по лугу, собирали ромашки и плели венки для матерей.")
    own = "«Не знаю», – ответил я."
    first = "Помещик принуждал крестьян трудиться на полях с рассвета до заката."
    second = "Когда капитан отдал распоряжение поднимать якорь, команда судна собралась на палубе."
    text = " ".join([first, own, second])
    r = api.compare(Document(text), Document(source))
    assert not _covered(text, own, r)
    assert [text[p.suspect_start:p.suspect_end] for p in r.sources[0].passages] == [first[:-1], second[:-1]]


# -- 5. the share grades rewriting; each passage says how similar it is -----------------


def test_share_ranks_verbatim_light_heavy_original():
    source = Document(SOURCE)
    verbatim = " ".join(sentences(SOURCE)[:6])
    words = verbatim.split(" ")
    light = " ".join("очень " + w if k % 9 == 4 else w for k, w in enumerate(words))  # inserted words
    heavy = " ".join("какой-то" if k % 3 == 1 else w for k, w in enumerate(words))  # every 3rd word replaced
    shares = [api.compare(Document(t), source).borrowed_percent for t in (verbatim, light, heavy, " ".join(ORIGINAL))]
    assert shares[0] > shares[1] > shares[2] > shares[3] == 0.0, shares
    assert shares[0] > 95
    p_heavy = [p for p in api.compare(Document(heavy), source).sources[0].passages if p.excluded is None]
    # replaced words are not matched (a replaced stop word inside a run is: stop words are
    # not compared), so each passage says it is not a copy word for word
    assert p_heavy and all(p.similarity < 1.0 for p in p_heavy)
    assert sum(p.matched_words for p in p_heavy) < 0.8 * sum(p.words for p in p_heavy)
    assert all(p.similarity == 1.0 for p in api.compare(Document(verbatim), source).sources[0].passages)


# -- 6. quotation marks that come from the source -----------------------------------------


DIALOGUE = (
    "Старик долго смотрел на реку, потом сказал: «Вода нынче высокая, к вечеру дойдёт до мостков». "
    "«А лодку мы успеем вытащить?» — спросил мальчик, не отрываясь от поплавка. «Успеем, если не будешь "
    "мешкать», — ответил старик и стал сматывать удочки. Они поднялись по тропинке к дому, где мать уже "
    "накрывала на стол. «Где вас носило так долго?» — спросила она, вытирая руки о передник. «Рыбу "
    "ловили, да не поймали ничего», — засмеялся мальчик и первым сел за стол."
)


def test_copied_dialogue_is_copied_text_and_the_exact_edition_wins():
    exact = Document(DIALOGUE, path="/lib/Я - точное издание.txt", title="Я - точное издание")
    other_text = DIALOGUE.replace("ё", "е").replace("«", "„").replace("»", "“").replace("мешкать", "медлить")
    other = Document(other_text, path="/lib/А - другое издание.txt", title="А - другое издание")
    with _tmp_collection() as col:
        col.add_document(other)
        col.add_document(exact)
        text = "Мой пересказ начинается так. " + DIALOGUE
        r = col.check(Document(text, title="copy"))
    assert r.sources[0].title == "Я - точное издание"
    share = len(word_starts(DIALOGUE)) / len(word_starts(text))  # every copied word, quotations too
    assert r.sources[0].containment == pytest.approx(share) and r.cited_percent == 0.0
    assert r.borrowed_percent == pytest.approx(100 * share, abs=1e-3)


def test_quotation_marks_the_student_added_are_a_citation():
    copied = " ".join(sentences(SOURCE)[2:5])
    text = ORIGINAL[0] + " Как писал автор, «" + copied + "» " + ORIGINAL[1]
    r = api.compare(Document(text), Document(SOURCE))
    assert r.cited_percent > 30 and r.borrowed_percent < 5
    assert r.borrowed_percent + r.cited_percent + r.original_percent == pytest.approx(100)
    counted_as_borrowed = api.apply_exclusions(r, r.settings.replace(count_quotes_as_borrowed=True))
    assert counted_as_borrowed.borrowed_percent > 30 and counted_as_borrowed.cited_percent == 0.0


class _tmp_collection:
    def __enter__(self):
        import tempfile

        self._dir = tempfile.TemporaryDirectory()
        self._col = api.Collection(Path(self._dir.name) / "c.sverka")
        return self._col

    def __exit__(self, *exc):
        self._col.close()
        self._dir.cleanup()


# -- 7. padding does not dilute the share -------------------------------------------------


@pytest.mark.parametrize("padding", ["\n" * 30000, "\u00a0" * 30000, "." * 30000, " . , ; " * 5000])
def test_padding_counts_nothing(padding):
    r = api.compare(Document(SOURCE + padding), Document(SOURCE))
    assert r.borrowed_percent >= 99.0


# -- 8. a class-wide copy is listed in a cross-check --------------------------------------


def pseudo_sentences(rng: random.Random, count: int) -> str:
    """Sentences of made-up words: text no other essay shares."""
    syllables = "ба ве ги до жу за ки ло му не по ру си ту фа хо це чи ша юр ям".split()
    out = []
    for _ in range(count):
        words = ["".join(rng.choice(syllables) for _ in range(rng.randint(2, 4))) for _ in range(rng.randint(8, 14))]
        out.append(" ".join(words).capitalize() + ".")
    return " ".join(out)


def test_cross_check_lists_a_copy_shared_by_most_of_the_class():
    copied = " ".join(sentences(SOURCE)[:4])
    rng = random.Random(5)
    docs = []
    for k in range(20):
        text = pseudo_sentences(rng, 6) + (" " + copied if k < 11 else "")
        docs.append(Document(text, title=f"essay{k:02d}"))
    r = api.crosscheck(docs)
    copiers = {f"essay{k:02d}" for k in range(11)}
    listed = {frozenset((p.a, p.b)) for p in r.pairs}
    assert listed == {frozenset((a, b)) for a in copiers for b in copiers if a < b}  # all 55, no other
    assert [set(c) for c in r.clusters] == [copiers]
    assert all(p.shared_words == len(word_starts(copied)) for p in r.pairs)


def test_cross_check_excludes_the_template_and_lists_one_shared_sentence():
    task = Document("Напишите сочинение о походе в лес и о том, что вы там увидели и услышали.", title="task")
    shared = "Под ногами мягко пружинил толстый слой прошлогодней хвои."
    a = Document(task.text + " " + ORIGINAL[0] + " " + ORIGINAL[1] + " " + ORIGINAL[2] + " " + shared, title="a")
    b = Document(task.text + " " + ORIGINAL[3] + " " + ORIGINAL[4] + " " + shared + " " + ORIGINAL[5], title="b")
    c = Document(task.text + " " + ORIGINAL[6] + " " + ORIGINAL[7], title="c")
    r = api.crosscheck([a, b, c], templates=[task])
    assert [{p.a, p.b} for p in r.pairs] == [{"a", "b"}]
    (p,) = r.pairs
    assert p.shared_words == len(word_starts(shared)) and max(p.a_in_b, p.b_in_a) < 0.3


# -- 9. repetitive text cannot blow up the alignment ---------------------------------------


def test_seed_pairs_are_bounded_by_the_texts_length():
    rng = np.random.default_rng(0)
    rare = rng.integers(1000, 10**9, 20_000).astype(np.uint64)
    x = np.concatenate([rng.integers(0, 5, 20_000).astype(np.uint64), rare])  # 5 refrains + rare words
    y = np.concatenate([rare, rng.integers(0, 5, 20_000).astype(np.uint64)])
    i, j = join_equal(x, y, max_repeats=0, budget=100_000)
    assert 20_000 <= len(i) <= 100_000  # the refrains (4000 x 4000 pairs each) are set aside
    assert np.array_equal(x[i], y[j]) and (x[i] >= 1000).all()
    i_all, _ = join_equal(x[:3000], y[:3000])
    i_cap, _ = join_equal(x[:3000], y[:3000], budget=10**9)
    assert len(i_all) == len(i_cap)  # a budget never reached changes nothing


def test_repetitive_text_is_aligned_in_memory_bounded_by_its_length():
    import tracemalloc

    vocabulary = ("дом лес река поле город улица окно дверь стол стул книга лампа ночь день утро вечер "
                  "снег дождь ветер солнце луна звезда море берег гора холм дорога мост сад цветок "
                  "трава дерево птица рыба кошка собака конь").split()
    rng = random.Random(1)
    words = [rng.choice(vocabulary) for _ in range(60_000)]
    text = " ".join(" ".join(words[k : k + 12]) + "." for k in range(0, len(words), 12))
    a, b = Document(text), Document("Предисловие автора. " + text)
    api.compare(Document(SOURCE), Document(SOURCE))  # dictionaries loaded before measuring
    tracemalloc.start()
    try:
        r = api.compare(a, b)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    # 60 000 words of 37 kinds: unbounded, every repeated pair of words would pair with every
    # other (about 44 x 44 x 1369 seeds); bounded, the work is a few times the text's length
    assert peak < 300 * 2**20, peak
    assert r.borrowed_percent > 0
