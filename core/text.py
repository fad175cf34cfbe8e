"""Canonization: text in, canonical tokens with character spans out (ALGORITHMS.md §1).

Contract (the rest of Sverka relies on it):

* ``canonize(text, ...)`` never raises on any ``str`` and returns :class:`Tokens`.
* Token ``i`` came from ``text[starts[i]:ends[i]]`` (the original text, not a normalised copy);
  that slice is the word as the user sees it, including any invisible characters or a
  line-end hyphen inside it.
* ``hashes[i] == hash_text(lemmas[i])`` (see :mod:`sverka.core.hashing`).
* ``word_hashes[i]`` is WH of ALGORITHMS.md §5: the sum modulo 2**64 of ``hash_text`` of
  every possible lemma of the word (a single lemma for words the dictionary does not know).
* Stop words are not tokens (unless ``drop_stop_words=False``); ``word_count`` counts every word.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True, eq=False)
class Tokens:
    text: str
    starts: np.ndarray  # int64 (n,): offset of the token's first character in text
    ends: np.ndarray  # int64 (n,): offset one past its last character
    lemmas: tuple[str, ...]  # canonical form: lower case, ё->е, base form
    hashes: np.ndarray  # uint64 (n,): hash_text(lemma)
    word_hashes: np.ndarray  # uint64 (n,): WH, sum of hash_text of every possible lemma
    sentence_ids: np.ndarray  # int32 (n,): index into sentence_spans
    sentence_spans: np.ndarray  # int64 (m, 2): [start, end) of each sentence in text
    word_count: int  # every word of the text, stop words included
    language: str  # "ru", "uk", "en", "mixed" or "unknown", from the scripts of the words
    lookalike_letters: int = 0  # letters swapped for a look-alike of the other script
    invisible_chars: int = 0  # zero-width, soft hyphen and other format characters inside words
    hyphen_joins: int = 0  # words broken by a line-end hyphen and joined again
    warnings: tuple[str, ...] = ()  # tampering warnings in the user's words

    def __len__(self) -> int:
        return len(self.lemmas)


def canonize(text: str, *, drop_stop_words: bool = True, drop_adjectives: bool = False) -> Tokens:
    raise NotImplementedError("canonization is being written")
