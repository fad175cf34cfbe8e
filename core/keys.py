"""The retrieval keys stored with every document (read by :mod:`sverka.core.candidates`).

Alignment (:mod:`sverka.core.align`) builds passages from seeds of two consecutive canonical
tokens and from whole sentences whose sentence hash (any word order, any word form) is equal;
a document is stored under exactly those keys:

* **Pair keys**: the hash of every run of :data:`PAIR_WORDS` canonical tokens
  (:func:`sverka.core.shingles.shingle_hashes` with ``w = 2``) with its first token's
  position. A key occurring more than :data:`MAX_REPEATS` times in one document is a refrain
  the alignment ignores too, and is not kept.
* **Sentence keys**: SH of every sentence holding at least :data:`SENTENCE_MIN_TOKENS`
  tokens (ALGORITHMS.md §5), with its first token's position.

They are part of the fingerprints (:class:`sverka.core.fingerprints.DocumentFingerprints`):
raise ``FINGERPRINT_VERSION`` with any change of their output.
"""

from __future__ import annotations

import numpy as np

from .shingles import shingle_hashes, unique_counts
from .tokens import Tokens

__all__ = ["MAX_REPEATS", "PAIR_WORDS", "SENTENCE_MIN_TOKENS", "pair_keys", "sentence_keys"]

PAIR_WORDS = 2
MAX_REPEATS = 50
SENTENCE_MIN_TOKENS = 3


def pair_keys(tokens: Tokens) -> tuple[np.ndarray, np.ndarray]:
    """(uint64 hashes, int64 first-token positions) of the pair keys of a document."""
    h = shingle_hashes(tokens.hashes, PAIR_WORDS)
    pos = np.arange(len(h), dtype=np.int64)
    if len(h) > MAX_REPEATS:
        values, counts = unique_counts(h)
        common = values[counts > MAX_REPEATS]
        if len(common):
            keep = ~np.isin(h, common)
            h, pos = h[keep], pos[keep]
    return h, pos


def sentence_keys(tokens: Tokens, min_tokens: int = SENTENCE_MIN_TOKENS) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(uint64 SH, int64 first token, int64 token count) of every sentence of at least
    ``min_tokens`` tokens."""
    sid = np.asarray(tokens.sentence_ids)
    if len(sid) == 0:
        empty = np.zeros(0, np.int64)
        return np.zeros(0, np.uint64), empty, empty
    first = np.flatnonzero(np.concatenate(([True], sid[1:] != sid[:-1])))
    last = np.append(first[1:], len(sid))
    sums = np.add.reduceat(np.asarray(tokens.word_hashes, dtype=np.uint64), first).astype(np.uint64)
    size = last - first
    keep = size >= max(1, min_tokens)
    return sums[keep], first[keep].astype(np.int64), size[keep].astype(np.int64)
