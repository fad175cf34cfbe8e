"""Stable 64-bit hashing: the same value in every process, on every machine.

Never Python's ``hash()``. Everything stored or compared across runs goes through
xxh64 with :data:`HASH_SEED` over UTF-8 bytes; arrays of hashes are ``uint64`` and are
written to disk little-endian (``'<u8'``).
"""

from __future__ import annotations

import xxhash

#: Seed of every stored hash. Changing it invalidates every collection (bump the schema).
HASH_SEED = 0x5E4CA


def hash_text(s: str) -> int:
    """xxh64 of the UTF-8 bytes of ``s`` as an unsigned 64-bit int."""
    return xxhash.xxh64_intdigest(s.encode("utf-8", "surrogatepass"), HASH_SEED)


def hash_bytes(b: bytes) -> int:
    return xxhash.xxh64_intdigest(b, HASH_SEED)
