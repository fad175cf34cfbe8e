"""Candidates prepared by the last checks against one collection, kept for the next ones.

A class checked against the same reference texts meets the same sources again, and a source's
preparation (reading, decoding, sorting its seeds) costs more than aligning it. The cache
belongs to the open collection (:class:`sverka.core.api.Collection`), or to a worker of a
cross-check; :func:`sverka.core.check.check_document` is given it.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import TYPE_CHECKING, Callable, TypeVar

if TYPE_CHECKING:  # pragma: no cover
    from .check import Prepared
    from .settings import Settings

__all__ = ["CROSS_KEPT_BYTES", "KEPT_BYTES", "MET_LIMIT", "SourceCache", "WHOLES_BYTES"]

T = TypeVar("T")

class SourceCache:
    """Prepared candidates keyed by id, SHA-256 (ids are never reused in one file; the text's
    hash makes sure) and settings; bounded by ``limit`` (:data:`KEPT_BYTES` unless told), least recently used out first."""

    def __init__(self, limit: int | None = None) -> None:
        self._items: OrderedDict = OrderedDict()
        self._bytes = 0
        self._limit = KEPT_BYTES if limit is None else limit
        self._lock = threading.Lock()  # the window may check in more than one thread
        self._met: OrderedDict = OrderedDict()  # long sources found once in windows (worth_keeping)
        self._wholes: OrderedDict = OrderedDict()  # (id, SHA-256) -> (what a long source's windows need of it, bytes)
        self._wholes_bytes = 0
        self._wholes_limit = WHOLES_BYTES if limit is None else limit // 2

    def __len__(self) -> int:
        with self._lock:
            return len(self._items)

    @staticmethod
    def size_of(p: Prepared) -> int:  # text (at most 4 bytes a character), ~15 arrays of tokens and
        # the paraphrase layer's copy of its statistics in the engine (~9 more)
        return 2 * len(p.doc.text) + 190 * len(p.tokens)

    def worth_keeping(self, doc_id: int, sha: str, chars: int, tokens: int) -> bool:
        """Should a long source a check would read in windows (:mod:`sverka.core.windows`) be
        read whole and kept instead? When this is not the first check meeting it (a class
        checked against the same books meets them again and again), one of ``chars``
        characters and ``tokens`` tokens is one :meth:`put` keeps, and it fits beside what is
        kept without putting anything out: checks of unrelated texts against a collection
        larger than the cache would only trade one novel for another, and reading a novel
        whole costs more than its windows."""
        size = 2 * chars + 120 * tokens
        with self._lock:
            met = (doc_id, sha) in self._met
            if not met:
                self._met[(doc_id, sha)] = None
                while len(self._met) > MET_LIMIT:
                    self._met.popitem(last=False)
            return met and 0 < size <= self._limit // 4 and self._bytes + size <= self._limit

    def get(self, doc_id: int, sha: str, settings: Settings) -> Prepared | None:
        key = (doc_id, sha, settings)
        with self._lock:
            p = self._items.get(key)
            if p is not None:
                self._items.move_to_end(key)
        return p

    def put(self, doc_id: int, sha: str, settings: Settings, p: Prepared) -> Prepared:
        size = self.size_of(p)
        if size > self._limit // 4:  # a very large source: not worth evicting the rest for
            return p
        with self._lock:
            if (doc_id, sha, settings) not in self._items:
                self._items[(doc_id, sha, settings)] = p
                self._bytes += size
            while self._bytes > self._limit and self._items:
                _, old = self._items.popitem(last=False)
                self._bytes -= self.size_of(old)
        return p

    def whole_of(self, doc_id: int, sha: str, read: Callable[[], T], size_of: Callable[[T], int]) -> T:
        """What every check reading the long source ``doc_id`` in windows needs of the whole of
        it (its blob's layout and its :class:`~sverka.core.tokens.WholeStats`: ~3 MB read for a
        novel of 6 MB, in each check meeting it): ``read()`` the first time, then kept while
        their ``size_of`` fits in :data:`WHOLES_BYTES`, least recently used out first. A
        document's stored data is never rewritten (ids are not reused), so what was read stays
        true."""
        key = (doc_id, sha)
        with self._lock:
            got = self._wholes.get(key)
            if got is not None:
                self._wholes.move_to_end(key)
                return got[0]
        value = read()  # outside the lock: another thread may read the same meanwhile
        size = size_of(value)
        if size > self._wholes_limit // 4:
            return value
        with self._lock:
            if key not in self._wholes:
                self._wholes[key] = (value, size)
                self._wholes_bytes += size
            while self._wholes_bytes > self._wholes_limit and self._wholes:
                _, (_, old) = self._wholes.popitem(last=False)
                self._wholes_bytes -= old
        return value


#: Long sources found in windows remembered, at most (:meth:`SourceCache.worth_keeping`).
MET_LIMIT = 4096
#: Memory the prepared candidates kept between checks may take (estimated), per collection.
KEPT_BYTES = 96 * 1024 * 1024
#: Memory the long sources' whole sections kept between checks may take, per collection
#: (:meth:`SourceCache.whole_of`): those of ~15 novels of 6 MB. A cache of another limit keeps
#: half of it for them.
WHOLES_BYTES = 48 * 1024 * 1024
#: The same for each worker of a cross-check, whose documents (essays) are cheap to prepare
#: again: 300 essays of 20 KB took as long with 1, 16, 32 or 96 MB kept (within the machine's
#: drift), and each worker's peak was 117, 131, 159 and 209-224 MB (docs/BENCHMARKS.md).
CROSS_KEPT_BYTES = 16 * 1024 * 1024
