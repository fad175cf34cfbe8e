"""Short documents: the 15 longest words (ALGORITHMS.md §4, seed 000).

For texts of 3-5 sentences, where shingles are too few. A document is represented by
the hashes of its longest DISTINCT words; similarity is the share of shared words
relative to the SHORTER list, in percent.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .engine import native
from .hashing import hash_text
from .shingles import unique_counts

__all__ = ["longest_words", "short_similarity", "full_text_hash"]


def longest_words(lemmas: Sequence[str], count: int = 15, min_len: int = 4) -> np.ndarray:
    """``uint64``: ``hash_text`` of the ``count`` longest distinct words of >= ``min_len`` characters.

    Longer first, ties broken by the word itself (code-point order), so the choice is
    deterministic; fewer than ``count`` when the text has fewer such words.
    """
    distinct = list(set(lemmas))
    if count <= 0 or not distinct:
        return np.empty(0, dtype=np.uint64)
    lengths = np.fromiter(map(len, distinct), dtype=np.int64, count=len(distinct))
    # Only words at least as long as the count-th longest can be chosen: few, sort those.
    shortest = max(min_len, int(np.partition(lengths, -min(count, len(lengths)))[-min(count, len(lengths))]))
    candidates = [w for w, n in zip(distinct, lengths.tolist()) if n >= shortest]
    chosen = sorted(candidates, key=lambda w: (-len(w), w))[:count]
    return np.array([hash_text(w) for w in chosen], dtype=np.uint64)


def short_similarity(a_hashes: np.ndarray, b_hashes: np.ndarray) -> float:
    """Seed 000: shared words / min(length_A, length_B) × 100, in percent; 0.0 if either is empty."""
    a = unique_counts(a_hashes)[0]
    b = unique_counts(b_hashes)[0]
    shorter = min(len(a), len(b))
    if shorter == 0:
        return 0.0
    return len(np.intersect1d(a, b, assume_unique=True)) / shorter * 100.0


def full_text_hash(text: str) -> int:
    """Hash for the exact-duplicate check, blind to white space layout.

    ``xxh64(HASH_SEED)`` of the UTF-32-LE code points of ``" ".join(text.split())``: every
    run of white space (``str.isspace``) as one space, the ends stripped; lone surrogates
    count as their code units. Computed by the compiled engine
    (``engine/core/src/shortdoc.rs``), a 1 MB text in about a millisecond.
    """
    return native.full_text_hash(text)
