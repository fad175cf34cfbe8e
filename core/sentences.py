"""Sentence hashes, Seq1, Seq2 and the measure X(A, B) (ALGORITHMS.md §5, seed 002).

WH (per word) comes with the tokens: ``Tokens.word_hashes[i]`` is the sum modulo 2**64 of
the xxh64 of every possible base form of the word. Then::

    SH(sentence) = Σ WH over its tokens (mod 2**64)       word order and form do not matter
    Seq1(A)      = SH(A_1), ..., SH(A_n)                  sentences holding >= 1 token
    Seq2(A)      = SH(A_1)+SH(A_2), ..., SH(A_{n-1})+SH(A_n), SH(A_n)+0   (mod 2**64)
    X(A, B)      = Σ over distinct V in Seq2(A) of min(Count(V, Seq2(A)), Count(V, Seq2(B)))

A sentence with no token (only stop words, digits or punctuation) is skipped: it has no
content to compare, and its neighbours become adjacent.

SH and Seq2 are computed by the compiled engine (``engine/core/src/sentences.rs``).
"""

from __future__ import annotations

import numpy as np

from .engine import i64, native, u64
from .shingles import unique_counts

__all__ = ["sentence_hashes", "seq2", "x_measure", "sentence_score"]


def sentence_hashes(
    word_hashes: np.ndarray, sentence_ids: np.ndarray, n_sentences: int
) -> tuple[np.ndarray, np.ndarray]:
    """``(seq1 uint64, sentence_index int64)``: SH of every sentence holding a token.

    ``sentence_index[j]`` is the sentence (in ``0 .. n_sentences-1``) that ``seq1[j]`` hashes,
    in increasing order.
    """
    return native.sentence_hashes(u64(word_hashes), i64(sentence_ids), n_sentences)


def seq2(seq1: np.ndarray) -> np.ndarray:
    """``uint64``: sums of adjacent sentence hashes, the last one plus 0 (same length as seq1)."""
    return native.seq2(u64(seq1))


def x_measure(seq2_a: np.ndarray, seq2_b: np.ndarray) -> int:
    """X(A, B): how many of A's pair hashes occur in B, with multiplicity (not symmetric)."""
    va, ca = unique_counts(seq2_a)
    vb, cb = unique_counts(seq2_b)
    _, ia, ib = np.intersect1d(va, vb, assume_unique=True, return_indices=True)
    return int(np.minimum(ca[ia], cb[ib]).sum())


def sentence_score(seq2_a: np.ndarray, seq2_b: np.ndarray) -> float:
    """X(A, B) / len(Seq2(A)), in 0..1: the share of A's sentence pairs found in B; 0.0 if A is empty."""
    n = len(seq2_a)
    return x_measure(seq2_a, seq2_b) / n if n else 0.0
