"""Every comparison method of the seeds, as pure functions over arrays (ALGORITHMS.md §2-5).

One concept per module, all re-exported here:

* :mod:`sverka.core.shingles`: shingle hashes, Jaccard / Dice / containment, Manber
  sampling, robust winnowing, content-defined anchors.
* :mod:`sverka.core.minhash`: min-hash signatures, super- and mega-shingles.
* :mod:`sverka.core.shortdoc`: the 15 longest words of a short document, full-text hash.
* :mod:`sverka.core.sentences`: sentence hashes, Seq1, Seq2, X(A, B).

:func:`fingerprint_document` gives every fingerprint of one document, each computed when it is
first read: the index reads what it stores, a check what it compares.
Every array has a fixed dtype (``uint64`` hashes, ``int64`` positions); stored on disk
they are little-endian (``'<u8'``, ``'<i8'``).
"""

from __future__ import annotations

from functools import cached_property

import numpy as np

from . import minhash, sentences, shingles, shortdoc
from .keys import pair_keys, sentence_keys
from .minhash import *  # noqa: F403  (re-exported: one concept per module, one import here)
from .sentences import *  # noqa: F403
from .settings import Settings
from .shingles import *  # noqa: F403
from .shortdoc import *  # noqa: F403
from .tokens import Tokens
from .versions import FINGERPRINT_VERSION  # raise it there with any change of the output

__all__ = [
    *shingles.__all__,
    *minhash.__all__,
    *shortdoc.__all__,
    *sentences.__all__,
    # one document
    "MINHASH_FUNCTIONS",
    "SUPER_SHINGLE_GROUPS",
    "WINNOW_WINDOW",
    "LONGEST_WORDS",
    "DocumentFingerprints",
    "fingerprint_document",
    "FINGERPRINT_VERSION",
]

#: Winnowing window k of the winnowed shingles (any shared run of ``shingle_words + k - 1``
#: words shares one) and the number of min-hash functions. Constants, not settings: no check
#: and no stored table reads the winnowed shingles or the min-hash signature today.
WINNOW_WINDOW = 4
MINHASH_FUNCTIONS = 84
#: Seed 003: the min-hash signature in 6 groups (of 14 for 84 functions).
SUPER_SHINGLE_GROUPS = 6
#: Seed 000: how many longest words represent a short document.
LONGEST_WORDS = 15


def _frozen(a: np.ndarray, dtype) -> np.ndarray:
    a = np.ascontiguousarray(a, dtype=dtype)
    a.flags.writeable = False
    return a


class DocumentFingerprints:
    """Every fingerprint of one canonized document, each computed on first use (pure; no I/O).

    The index reads only what it stores (retrieval keys, longest words) and a check only
    what it compares, so neither pays for the rest; both get the
    same values from this one class. Arrays are read-only.

    Shingle ``shingle_positions[j]`` covers tokens ``[p, p + shingle_words)``; map them to
    characters with ``Tokens.starts[p]`` and ``Tokens.ends[p + shingle_words - 1]``.
    """

    def __init__(self, tokens: Tokens, settings: Settings) -> None:
        self.tokens = tokens
        self.settings = settings
        self.shingle_words = settings.shingle_words  # w
        self.winnow_window = WINNOW_WINDOW  # k: any shared run of w + k - 1 tokens shares a fingerprint
        self.token_count = len(tokens.hashes)

    @cached_property
    def all_shingles(self) -> np.ndarray:  # uint64: every w-shingle hash, in text order
        return _frozen(shingle_hashes(self.tokens.hashes, self.shingle_words), np.uint64)

    @property
    def shingle_count(self) -> int:  # overlapping shingles of the document: max(0, n - w + 1)
        return len(self.all_shingles)

    @cached_property
    def distinct(self) -> np.ndarray:  # uint64: sorted distinct shingle hashes
        return _frozen(unique_counts(self.all_shingles)[0], np.uint64)

    @property
    def distinct_shingles(self) -> int:  # |S(A)| of resemblance
        return len(self.distinct)

    @cached_property
    def _winnowed(self) -> tuple[np.ndarray, np.ndarray]:
        picked = winnow(self.all_shingles, self.winnow_window)
        return _frozen(self.all_shingles[picked], np.uint64), _frozen(picked, np.int64)

    @property
    def shingle_hashes(self) -> np.ndarray:  # uint64 (m,): winnowed shingle hashes, in text order
        return self._winnowed[0]

    @property
    def shingle_positions(self) -> np.ndarray:  # int64 (m,): first token of each
        return self._winnowed[1]  # step 1: shingle i starts at token i

    @cached_property
    def _sentences(self) -> tuple[np.ndarray, np.ndarray]:
        t = self.tokens
        seq1, index = sentence_hashes(t.word_hashes, t.sentence_ids, len(t.sentence_spans))
        return _frozen(seq1, np.uint64), _frozen(index, np.int64)

    @property
    def sentence_seq1(self) -> np.ndarray:  # uint64 (s,): SH of every sentence holding a token
        return self._sentences[0]

    @property
    def sentence_index(self) -> np.ndarray:  # int64 (s,): index into Tokens.sentence_spans of each
        return self._sentences[1]

    @cached_property
    def sentence_seq2(self) -> np.ndarray:  # uint64 (s,): Seq2
        return _frozen(seq2(self.sentence_seq1), np.uint64)

    @cached_property
    def long_words(self) -> np.ndarray:  # uint64 (<= 15,): hashes of the longest distinct words
        return _frozen(longest_words(self.tokens.lemmas, LONGEST_WORDS), np.uint64)

    @cached_property
    def text_hash(self) -> int:  # full_text_hash of the text, for the exact-duplicate check
        return full_text_hash(self.tokens.text)

    @cached_property
    def minhash(self) -> np.ndarray:  # uint64 (MINHASH_FUNCTIONS,); all EMPTY without shingles
        return _frozen(minhash_signature(self.distinct, MINHASH_FUNCTIONS), np.uint64)

    @cached_property
    def super_shingles(self) -> np.ndarray:  # uint64 (6,), or (0,) without shingles
        if not len(self.distinct):
            return _frozen(np.empty(0, np.uint64), np.uint64)
        return _frozen(super_shingles(self.minhash, SUPER_SHINGLE_GROUPS), np.uint64)

    @cached_property
    def mega_shingles(self) -> np.ndarray:  # uint64 (15,), or (0,) without shingles
        return _frozen(mega_shingles(self.super_shingles), np.uint64)

    @cached_property
    def _pairs(self) -> tuple[np.ndarray, np.ndarray]:
        h, pos = pair_keys(self.tokens)
        return _frozen(h, np.uint64), _frozen(pos, np.int64)

    @property
    def pair_hashes(self) -> np.ndarray:  # uint64: retrieval pair keys (sverka.core.keys.pair_keys)
        return self._pairs[0]

    @property
    def pair_positions(self) -> np.ndarray:  # int64: first token of each
        return self._pairs[1]

    @cached_property
    def _sentence_keys(self) -> tuple[np.ndarray, np.ndarray]:
        h, pos, _ = sentence_keys(self.tokens)
        return _frozen(h, np.uint64), _frozen(pos, np.int64)

    @property
    def sentence_keys(self) -> np.ndarray:  # uint64: retrieval sentence keys (keys.sentence_keys)
        return self._sentence_keys[0]

    @property
    def sentence_key_positions(self) -> np.ndarray:  # int64: first token of each
        return self._sentence_keys[1]


def fingerprint_document(tokens: Tokens, settings: Settings) -> DocumentFingerprints:
    """All fingerprints of one canonized document, computed as they are read (pure; no I/O)."""
    return DocumentFingerprints(tokens, settings)
