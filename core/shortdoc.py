"""Short documents: the 15 longest words (ALGORITHMS.md §4, seed 000).

For texts of 3-5 sentences, where shingles are too few. A document is represented by
the hashes of its longest DISTINCT words; similarity is the share of shared words
relative to the SHORTER list, in percent.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .hashing import hash_text

__all__ = ["longest_words", "short_similarity", "full_text_hash"]


def longest_words(lemmas: Sequence[str], count: int = 15, min_len: int = 4) -> np.ndarray:
    """``uint64``: ``hash_text`` of the ``count`` longest distinct words of >= ``min_len`` characters.

    Longer first, ties broken by the word itself (code-point order), so the choice is
    deterministic; fewer than ``count`` when the text has fewer such words.
    """
    distinct = {w for w in lemmas if len(w) >= min_len}
    chosen = sorted(distinct, key=lambda w: (-len(w), w))[:count]
    return np.array([hash_text(w) for w in chosen], dtype=np.uint64)


def short_similarity(a_hashes: np.ndarray, b_hashes: np.ndarray) -> float:
    """Seed 000: shared words / min(length_A, length_B) × 100, in percent; 0.0 if either is empty."""
    a = np.unique(np.asarray(a_hashes, dtype=np.uint64))
    b = np.unique(np.asarray(b_hashes, dtype=np.uint64))
    shorter = min(len(a), len(b))
    if shorter == 0:
        return 0.0
    return len(np.intersect1d(a, b, assume_unique=True)) / shorter * 100.0


def full_text_hash(text: str) -> int:
    """Hash for the exact-duplicate check: ``hash_text`` of the text with every run of
    white space replaced by one space and the ends stripped (``" ".join(text.split())``).
    """
    return hash_text(" ".join(text.split()))
