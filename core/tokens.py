"""What canonization gives for a text (:func:`sverka.core.text.canonize`): plain data.

Kept apart from the canonizer so that the store, which keeps tokens and gives them back
(:mod:`sverka.core.store.codecs`), needs no canonizer, dictionaries or extraction to do it.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .messages import Message

__all__ = ["SortOrders", "Tokens"]


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
    warnings: tuple[Message, ...] = ()  # tampering warnings (sverka.core.messages)
    word_starts: np.ndarray | None = None  # int64: start of every word (stop words too); None when not kept

    def __len__(self) -> int:
        return len(self.lemmas)


@dataclass(frozen=True, eq=False)
class SortOrders:
    """A stored document's tokens sorted two ways, made once when it is added and kept with its
    tokens (:mod:`sverka.core.store.codecs`), so that a check meeting it does not sort it
    again: ``lemmas``, the stable order of its lemma hashes (the paraphrase layer's
    :class:`~sverka.core.paraphrase.SourceStats`), and ``pairs``, that of its shingles of
    :data:`~sverka.core.align.ORDER_PAIR_WORDS` tokens (:class:`~sverka.core.align.SourceSide`).
    Made by :func:`sverka.core.align.sort_orders`; checked before use
    (:func:`sverka.core.sorting.checked_order`)."""

    lemmas: np.ndarray  # int64 (n,)
    pairs: np.ndarray  # int64 (n - 1,), or (0,) for fewer than two tokens
