"""Synonym classes of Russian lemmas: a layer over canonization, never part of it.

Canonization (:mod:`sverka.core.text`) is unchanged: tokens keep their own lemmas and
hashes, and the exact layer matches them as before. This table only says which lemmas are
synonyms (век/столетие, команда/экипаж, заставлять/принуждать), for the paraphrase layer
(:mod:`sverka.core.paraphrase`) and for retrieval of paraphrased sources.

The table ``data/synonyms_ru.tsv.gz`` is built once by ``bench/build_synonyms.py`` from the
Wiktionary synsets of the ``wiki-ru-wordnet`` package (the package itself is not needed at
run time) and committed. A lemma may be in several classes (one per meaning); two lemmas are
synonyms when they share a class, so the relation is never made transitive across meanings
(приказ ~ команда ~ экипаж does NOT make приказ ~ экипаж). Very common words, loose large
synsets and polysemous hubs are left out at build time (see the build script's rules).

No English table is shipped: no offline English synonym source installs from PyPI (``wn``
and NLTK download their WordNet data from the web at run time).
"""

from __future__ import annotations

import gzip
import hashlib
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

from .hashing import hash_text

__all__ = ["FORMAT_VERSION", "SynonymTable", "class_key", "table"]

#: Format of the table file (header lines, ``lemma<TAB>ids``). The table's full version is
#: :attr:`SynonymTable.version`: this number and the checksum of the file's contents.
FORMAT_VERSION = 1

PATH = Path(__file__).resolve().parent / "data" / "synonyms_ru.tsv.gz"


def class_key(class_id: int) -> int:
    """A uint64 key for a synonym class, never equal to a lemma's hash in practice."""
    return hash_text(f"\x1fsynonym-class:{class_id}")


@dataclass(frozen=True, eq=False)
class SynonymTable:
    version: str  # "<format>:<first 12 hex of the SHA-256 of the file>"
    header: tuple[str, ...]
    by_lemma: dict[str, tuple[int, ...]]
    members: dict[int, tuple[str, ...]]
    by_hash: dict[int, tuple[int, ...]]  # hash_text(lemma) -> class keys (class_key)
    alternatives_by_hash: dict[int, tuple[int, ...]]  # hash_text(lemma) -> hashes of its synonyms
    sorted_hashes: np.ndarray  # uint64, sorted: hash_text of every lemma of the table
    alt_start: np.ndarray  # int64: alternatives of sorted_hashes[k] are alt_flat[alt_start[k]:alt_start[k + 1]]
    alt_flat: np.ndarray  # uint64

    def alternatives_of(self, hashes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(index into ``hashes``, hash of a synonym) for every synonym of every lemma hash."""
        h = np.asarray(hashes, dtype=np.uint64)
        if len(self.sorted_hashes) == 0 or len(h) == 0:
            return np.zeros(0, np.int64), np.zeros(0, np.uint64)
        k = np.minimum(np.searchsorted(self.sorted_hashes, h), len(self.sorted_hashes) - 1)
        found = self.sorted_hashes[k] == h
        lo = np.where(found, self.alt_start[k], 0)
        cnt = np.where(found, self.alt_start[k + 1] - self.alt_start[k], 0)
        which = np.repeat(np.arange(len(h)), cnt)
        first = np.repeat(np.cumsum(cnt) - cnt, cnt)
        return which, self.alt_flat[np.repeat(lo, cnt) + (np.arange(int(cnt.sum())) - first)]

    def classes(self, lemma: str) -> tuple[int, ...]:
        return self.by_lemma.get(lemma, ())

    def synonyms(self, lemma: str) -> set[str]:
        """Every lemma sharing a class with ``lemma`` (not ``lemma`` itself)."""
        return {w for c in self.classes(lemma) for w in self.members[c] if w != lemma}

    def are_synonyms(self, a: str, b: str) -> bool:
        return a != b and bool(set(self.classes(a)) & set(self.classes(b)))

    def __len__(self) -> int:
        return len(self.by_lemma)


def load(path: Path = PATH) -> SynonymTable:
    raw = path.read_bytes()
    text = gzip.decompress(raw).decode("utf-8")
    header: list[str] = []
    by_lemma: dict[str, tuple[int, ...]] = {}
    for line in text.splitlines():
        if line.startswith("#"):
            header.append(line)
            continue
        lemma, ids = line.split("\t")
        by_lemma[lemma] = tuple(int(x) for x in ids.split(","))
    if not header or f"format={FORMAT_VERSION}" not in header[0]:
        raise ValueError(f"{path}: not a synonym table of format {FORMAT_VERSION}")
    members: dict[int, list[str]] = {}
    for lemma, ids in by_lemma.items():
        for c in ids:
            members.setdefault(c, []).append(lemma)
    frozen = {c: tuple(sorted(m)) for c, m in members.items()}
    by_hash = {hash_text(w): tuple(class_key(c) for c in ids) for w, ids in by_lemma.items()}
    alternatives = {
        hash_text(w): tuple(sorted({hash_text(x) for c in ids for x in frozen[c] if x != w}))
        for w, ids in by_lemma.items()
    }
    version = f"{FORMAT_VERSION}:{hashlib.sha256(raw).hexdigest()[:12]}"
    hashes = np.array(sorted(by_hash), dtype=np.uint64)
    alts = [alternatives[h] for h in hashes.tolist()]
    start = np.r_[0, np.cumsum([len(x) for x in alts])].astype(np.int64)
    flat = np.array([y for x in alts for y in x], dtype=np.uint64)
    return SynonymTable(version, tuple(header), by_lemma, frozen, by_hash, alternatives, hashes, start, flat)


@lru_cache(maxsize=1)
def table() -> SynonymTable:
    """The shipped table, loaded once per process (~20 ms)."""
    return load()
