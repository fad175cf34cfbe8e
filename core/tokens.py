"""What canonization gives for a text (:func:`sverka.core.text.canonize`): plain data.

Kept apart from the canonizer so that the store, which keeps tokens and gives them back
(:mod:`sverka.core.store.codecs`), needs no canonizer, dictionaries or extraction to do it.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .messages import Message

__all__ = ["SortOrders", "Tokens", "WholeStats"]


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


@dataclass(frozen=True, eq=False)
class WholeStats:
    """What a check reading a long stored document in windows (:mod:`sverka.core.windows`)
    needs to know of the whole of it, made when it is added and kept with its tokens
    (:mod:`sverka.core.store.codecs`): where its sentences begin in tokens and in bytes of
    its UTF-8 text (a window of whole sentences is read without decoding the rest), how many
    of its sentences hold each lemma (the paraphrase layer's rarity and weights are the whole
    text's), the keys the alignment ignores for their repeats in the whole text, and what its
    resemblance and sentence score count of it."""

    sentence_tokens: np.ndarray  # int64 (m + 1,): first token of each sentence (its tokens' sentence id >= it); n last
    sentence_bytes: np.ndarray  # int64 (m + 1,): byte of the stored text where each sentence span starts; its length last
    sentences: int  # sentences holding a token
    lemmas: np.ndarray  # uint64 (v,): the distinct lemma hashes, sorted
    lemma_sentences: np.ndarray  # int64 (v,): sentences holding each
    common_pairs: np.ndarray  # uint64, sorted: alignment seeds held more often than it keeps a seed
    common_sentences: np.ndarray  # uint64, sorted: sentence hashes held more often than it keeps a sentence
    shingle_words: int = 0  # the shingles' width of the collection (resemblance)
    distinct_shingles: int = 0  # |S(B)| of resemblance: distinct shingles of that width
    seq2: np.ndarray | None = None  # uint64, sorted: the distinct values of its Seq2 (sentence score)
    seq2_counts: np.ndarray | None = None  # int64: how many times it holds each
