"""Every comparison method of the seeds, as pure functions over arrays (ALGORITHMS.md §2-5).

One concept per module, all re-exported here:

* :mod:`sverka.core.shingles`: shingle hashes, Jaccard / Dice / containment, Manber
  sampling, robust winnowing, content-defined anchors.
* :mod:`sverka.core.minhash`: min-hash signatures, super- and mega-shingles.
* :mod:`sverka.core.shortdoc`: the 15 longest words of a short document, full-text hash.
* :mod:`sverka.core.sentences`: sentence hashes, Seq1, Seq2, X(A, B).

:func:`fingerprint_document` computes, for one document, everything the index stores.
Every array has a fixed dtype (``uint64`` hashes, ``int64`` positions); stored on disk
they are little-endian (``'<u8'``, ``'<i8'``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from . import minhash, sentences, shingles, shortdoc
from .candidates import pair_keys, sentence_keys
from .minhash import *  # noqa: F403  (re-exported: one concept per module, one import here)
from .sentences import *  # noqa: F403
from .settings import Settings
from .shingles import *  # noqa: F403
from .shortdoc import *  # noqa: F403
from .text import Tokens

__all__ = [
    *shingles.__all__,
    *minhash.__all__,
    *shortdoc.__all__,
    *sentences.__all__,
    # one document
    "SUPER_SHINGLE_GROUPS",
    "LONGEST_WORDS",
    "DocumentFingerprints",
    "fingerprint_document",
    "FINGERPRINT_VERSION",
]

#: Version of what :func:`fingerprint_document` gives for given tokens (the retrieval keys a
#: collection stores). Stored in every collection; raise it with any change of the output;
#: tests/core/test_versions.py pins the output of a fixed text.
FINGERPRINT_VERSION = 1

#: Seed 003: the min-hash signature in 6 groups (of 14 for 84 functions).
SUPER_SHINGLE_GROUPS = 6
#: Seed 000: how many longest words represent a short document.
LONGEST_WORDS = 15


def _frozen(a: np.ndarray, dtype) -> np.ndarray:
    a = np.ascontiguousarray(a, dtype=dtype)
    a.flags.writeable = False
    return a


@dataclass(frozen=True, eq=False)
class DocumentFingerprints:
    """What the index stores for one document. Arrays are read-only.

    Shingle ``shingle_positions[j]`` covers tokens ``[p, p + shingle_words)``; map them to
    characters with ``Tokens.starts[p]`` and ``Tokens.ends[p + shingle_words - 1]``.
    """

    shingle_words: int  # w
    winnow_window: int  # k: any shared run of w + k - 1 tokens shares a fingerprint
    token_count: int
    shingle_count: int  # overlapping shingles of the document: max(0, n - w + 1)
    distinct_shingles: int  # distinct hashes among them (the |S(A)| of resemblance)
    shingle_hashes: np.ndarray  # uint64 (m,): winnowed shingle hashes, in text order
    shingle_positions: np.ndarray  # int64 (m,): first token of each
    sentence_seq1: np.ndarray  # uint64 (s,): SH of every sentence holding a token
    sentence_index: np.ndarray  # int64 (s,): index into Tokens.sentence_spans of each
    sentence_seq2: np.ndarray  # uint64 (s,): Seq2
    long_words: np.ndarray  # uint64 (<= 15,): hashes of the longest distinct words
    text_hash: int  # full_text_hash of the text, for the exact-duplicate check
    minhash: np.ndarray  # uint64 (settings.minhash_functions,); all EMPTY without shingles
    super_shingles: np.ndarray  # uint64 (6,), or (0,) without shingles
    mega_shingles: np.ndarray  # uint64 (15,), or (0,) without shingles
    pair_hashes: np.ndarray  # uint64: retrieval pair keys (sverka.core.candidates.pair_keys)
    pair_positions: np.ndarray  # int64: first token of each
    sentence_keys: np.ndarray  # uint64: retrieval sentence keys (candidates.sentence_keys)
    sentence_key_positions: np.ndarray  # int64: first token of each


def fingerprint_document(tokens: Tokens, settings: Settings) -> DocumentFingerprints:
    """All fingerprints of one canonized document (pure; no I/O)."""
    w, k = settings.shingle_words, settings.winnow_window
    all_hashes = shingle_hashes(tokens.hashes, w)
    distinct = unique_counts(all_hashes)[0]
    picked = winnow(all_hashes, k)
    seq1, sentence_index = sentence_hashes(tokens.word_hashes, tokens.sentence_ids, len(tokens.sentence_spans))
    sig = minhash_signature(distinct, settings.minhash_functions)
    supers = super_shingles(sig, SUPER_SHINGLE_GROUPS) if len(distinct) else np.empty(0, np.uint64)
    megas = mega_shingles(supers)
    pairs, pair_pos = pair_keys(tokens)
    sent_keys, sent_pos, _ = sentence_keys(tokens)
    return DocumentFingerprints(
        shingle_words=w,
        winnow_window=k,
        token_count=len(tokens.hashes),
        shingle_count=len(all_hashes),
        distinct_shingles=len(distinct),
        shingle_hashes=_frozen(all_hashes[picked], np.uint64),
        shingle_positions=_frozen(picked, np.int64),  # step 1: shingle i starts at token i
        sentence_seq1=_frozen(seq1, np.uint64),
        sentence_index=_frozen(sentence_index, np.int64),
        sentence_seq2=_frozen(seq2(seq1), np.uint64),
        long_words=_frozen(longest_words(tokens.lemmas, LONGEST_WORDS), np.uint64),
        text_hash=full_text_hash(tokens.text),
        minhash=_frozen(sig, np.uint64),
        super_shingles=_frozen(supers, np.uint64),
        mega_shingles=_frozen(megas, np.uint64),
        pair_hashes=_frozen(pairs, np.uint64),
        pair_positions=_frozen(pair_pos, np.int64),
        sentence_keys=_frozen(sent_keys, np.uint64),
        sentence_key_positions=_frozen(sent_pos, np.int64),
    )
