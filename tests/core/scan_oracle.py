"""The NumPy implementation of :mod:`sverka.core.scan` that the compiled engine replaced.

It left the product (``sverka.core.scan`` now calls ``sverka._engine``) and stays here as it
was, as the oracle of the differential tests (tests/core/test_engine_scan.py): the engine
must find the same words, decline the same texts, and give equal hashes to equal words.
Its hash is its own (a random rolling hash per process): hashes are never stored, so the
engine's need only be equal where these are.
"""

from __future__ import annotations

import functools
import os
import threading

import numpy as np

from sverka.core.scan import FORMAT, HYPHEN, LETTER, MARK, MAX_HASHED, _table  # noqa: F401

#: A text is read in pieces of about this many characters, cut at a space or line break.
_PIECE = 1 << 16
_LINE_BREAKS = "\n\r\x0b\x0c\x85\u2028"
_AFTER_HYPHEN = np.array([ord(c) for c in " \t" + _LINE_BREAKS], dtype=np.uint32)


@functools.cache
def _hash_parameters() -> tuple[np.ndarray, int]:
    """(T, B): this process's random hash (see the module docstring). T is splitmix64 of a
    secret random seed (numpy.random costs 13 ms to import, 512 KB from os.urandom 2.5)."""
    seed = np.uint64(int.from_bytes(os.urandom(8), "little"))
    with np.errstate(over="ignore"):
        x = np.arange(1, 0x10001, dtype=np.uint64) * np.uint64(0x9E3779B97F4A7C15) + seed
        x = (x ^ (x >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        x = (x ^ (x >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        x ^= x >> np.uint64(31)
    return x, int.from_bytes(os.urandom(8), "little") | 1


_powers_kept: tuple[np.ndarray, np.ndarray] = (np.zeros(0, dtype=np.uint64), np.zeros(0, dtype=np.uint64))


def _powers(n: int) -> tuple[np.ndarray, np.ndarray]:
    """(B**i, B**-i mod 2**64 for i < at least n), grown as longer texts come."""
    global _powers_kept
    kept = _powers_kept
    if len(kept[0]) >= n:
        return kept
    n = max(n, 2 * len(kept[0]), 1 << 12)
    b = _hash_parameters()[1]
    powers = np.full(n, b, dtype=np.uint64)
    inverses = np.full(n, pow(b, -1, 1 << 64), dtype=np.uint64)
    powers[0] = inverses[0] = 1
    with np.errstate(over="ignore"):
        np.cumprod(powers, out=powers)
        np.cumprod(inverses, out=inverses)
    _powers_kept = (powers, inverses)
    return _powers_kept


def _span_hashes(cps: np.ndarray, starts: np.ndarray, ends: np.ndarray) -> np.ndarray:
    """The hash of each ``cps[starts[k]:ends[k]]`` (a piece of a text or a group of strings,
    at most ``_PIECE + MAX_HASHED`` characters); 0 for spans longer than :data:`MAX_HASHED`.
    Never 0 otherwise."""
    t = _hash_parameters()[0]
    powers, inverses = _powers(len(cps) + 1)
    with np.errstate(over="ignore"):
        sums = np.zeros(len(cps) + 1, dtype=np.uint64)
        np.cumsum(t[cps] * powers[: len(cps)], out=sums[1:])
        out = (sums[ends] - sums[starts]) * inverses[starts]
    out |= np.uint64(1)
    out[(ends - starts) > MAX_HASHED] = 0
    return out


def hash_strings(strings: list[str]) -> np.ndarray:
    """The hash :func:`words` gives each of ``strings`` met in a text; 0 for one it would
    never give (longer than :data:`MAX_HASHED`, or holding a character beyond U+FFFF)."""
    out = np.zeros(len(strings), dtype=np.uint64)
    lengths = np.fromiter(map(len, strings), dtype=np.int64, count=len(strings))
    at = 0
    while at < len(strings):  # groups of at most _PIECE characters (a longer string alone)
        ends = np.cumsum(lengths[at:])
        stop = at + max(1, int(np.searchsorted(ends, _PIECE, "right")))
        group = strings[at:stop]
        cps = np.frombuffer("".join(group).encode("utf-32-le", "surrogatepass"), dtype=np.uint32)
        e = ends[: stop - at]
        s = e - lengths[at:stop]
        keep = lengths[at:stop] > 0
        if len(cps) and cps.max() > 0xFFFF:  # strings holding a character beyond U+FFFF: none
            keep &= np.maximum.reduceat(cps, np.minimum(s, len(cps) - 1)) <= 0xFFFF
            cps = np.minimum(cps, 0xFFFF)
        if len(cps) <= _PIECE + MAX_HASHED:
            out[at:stop] = np.where(keep, _span_hashes(cps, s, e), 0)
        at = stop
    return out


def bounds(text: str) -> tuple[np.ndarray, np.ndarray] | None:
    """(starts, ends) of every word of ``text``, or None when the text needs the canonizer's
    regular expression (see the module docstring)."""
    found = _scan(text, hashes=False)
    return None if found is None else found[:2]


def words(text: str) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """(starts, ends, hashes) of every word of ``text`` (hashes as :func:`hash_strings`
    gives), or None when the text needs the canonizer's regular expression."""
    return _scan(text, hashes=True)


def _scan(text: str, hashes: bool):
    table = _table()
    pieces = []
    at, n = 0, len(text)
    while at < n:
        stop = n
        if n - at > _PIECE:  # cut at a space or line break: no word of this kind spans one
            stop = max(text.rfind(" ", at + 1, at + _PIECE), text.rfind("\n", at + 1, at + _PIECE))
            if stop < 0:
                return None
        piece = _scan_piece(text, at, stop, table, hashes)
        if piece is None:
            return None
        pieces.append(piece)
        at = stop
    if len(pieces) == 1:
        return pieces[0]
    if not pieces:
        empty = np.zeros(0, dtype=np.int64)
        return empty, empty.copy(), np.zeros(0, dtype=np.uint64)
    return tuple(np.concatenate(column) for column in zip(*pieces))


def _scan_piece(text: str, at: int, stop: int, table: np.ndarray, hashes: bool):
    cps = np.frombuffer(text[at:stop].encode("utf-32-le", "surrogatepass"), dtype=np.uint32)
    if cps.max() > 0xFFFF:
        return None
    classes = table[cps]
    seen = int(np.bitwise_or.reduce(classes))
    if seen & FORMAT and _format_joins(classes, cps):
        return None
    edges = np.zeros(len(cps) + 2, dtype=np.int8)
    np.bitwise_and(classes, LETTER | MARK, out=edges[1:-1].view(np.uint8))
    np.minimum(edges, 1, out=edges)
    change = np.diff(edges)
    starts = np.flatnonzero(change == 1)
    ends = np.flatnonzero(change == -1)
    if seen & MARK and (classes[starts] != LETTER).any():  # a mark that follows no letter
        return None
    if seen & HYPHEN:  # a hyphen right after a word, then spaces and a line break
        hyphens = np.flatnonzero(classes == HYPHEN)
        hyphens = hyphens[hyphens > 0]
        hyphens = hyphens[(classes[hyphens - 1] & (LETTER | MARK)) != 0]
        after = np.ones(len(hyphens), dtype=bool)
        inside = hyphens + 1 < len(cps)
        after[inside] = np.isin(cps[hyphens[inside] + 1], _AFTER_HYPHEN)
        for h in hyphens[after].tolist():
            if _joins_across_line_end(text, at + h, table):
                return None
    word_hashes = _span_hashes(cps, starts, ends) if hashes else None
    if at:
        starts += at
        ends += at
    return (starts, ends, word_hashes) if hashes else (starts, ends)


def _format_joins(classes: np.ndarray, cps: np.ndarray) -> bool:
    """Whether a run of format characters comes right after a word and before a letter or a
    hyphen, or holds a soft hyphen (a line-end hyphen of its own): the regular expression may
    join the two words across it. Anywhere else (a byte-order mark opening the text, a
    zero-width space between words) a format character is a separator like any other."""
    fmt = np.zeros(len(classes) + 2, dtype=np.int8)
    fmt[1:-1] = classes == FORMAT
    change = np.diff(fmt)
    first, past = np.flatnonzero(change == 1), np.flatnonzero(change == -1)
    before = np.zeros(len(first), dtype=bool)
    inside = first > 0
    before[inside] = (classes[first[inside] - 1] & (LETTER | MARK)) != 0
    after = np.zeros(len(past), dtype=bool)
    inside = past < len(classes)  # (a piece ends before a space: nothing joins across its end)
    after[inside] = (classes[past[inside]] & (LETTER | HYPHEN)) != 0
    soft = np.flatnonzero(cps == 0xAD)
    if len(soft):
        after[np.searchsorted(first, soft, "right") - 1] = True
    return bool((before & after).any())


def _joins_across_line_end(text: str, at: int, table: np.ndarray) -> bool:
    """Whether the hyphen at ``at`` (right after a word) is followed by spaces or tabs, a line
    break, spaces or tabs and then a letter, a format character or another hyphen: a line-end
    hyphen the regular expression may join a word across."""
    n = len(text)
    i = at + 1
    while i < n and text[i] in " \t":
        i += 1
    if text.startswith("\r\n", i):
        i += 2
    elif i < n and text[i] in _LINE_BREAKS:
        i += 1
    else:
        return False
    while i < n and text[i] in " \t":
        i += 1
    if i >= n:
        return False
    cp = ord(text[i])
    return cp > 0xFFFF or (int(table[cp]) & (LETTER | FORMAT | HYPHEN)) != 0


class HashIndex:
    """uint64 hash (never 0) -> id (below 2**31), for many hashes at a time: open addressing
    with linear probing in two numpy arrays, at most a third full. Readers take no lock: an id
    is written before its hash, and a grown table replaces the old one in one assignment;
    writers are serialised by the index's lock."""

    def __init__(self) -> None:
        self._state = (np.zeros(1 << 12, dtype=np.uint64), np.zeros(1 << 12, dtype=np.int32), 12)
        self._count = 0
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return self._count

    def get(self, hashes: np.ndarray) -> np.ndarray:
        """The id of each hash, -1 for a hash not in the index (and for 0)."""
        keys, values, bits = self._state
        out = np.full(len(hashes), -1, dtype=np.int64)
        todo = np.flatnonzero(hashes)  # (0 marks a free slot)
        slot = _probe(keys, bits, hashes[todo])
        hit = keys[slot] == hashes[todo]
        out[todo[hit]] = values[slot[hit]]
        return out

    def add(self, hashes: np.ndarray, ids: np.ndarray) -> None:
        """Set the id of each of ``hashes`` (0 skipped): a hash already in the index gets the
        new id, as a dict would."""
        with self._lock:
            keep = hashes != 0
            hashes, ids = hashes[keep], np.asarray(ids, dtype=np.int32)[keep]
            hashes, first = np.unique(hashes[::-1], return_index=True)  # the last id of a hash given twice
            ids = ids[::-1][first]
            keys, values, bits = self._state
            if 3 * (self._count + len(hashes)) > len(keys):  # grown: every hash placed again
                while 3 * (self._count + len(hashes)) > (1 << bits):
                    bits += 1
                full = keys != 0
                old_keys, old_values = keys[full], values[full]
                keys, values = np.zeros(1 << bits, dtype=np.uint64), np.zeros(1 << bits, dtype=np.int32)
                _place(keys, values, bits, old_keys, old_values)
                self._count = _place(keys, values, bits, hashes, ids) + len(old_keys)
                self._state = (keys, values, bits)
            else:
                self._count += _place(keys, values, bits, hashes, ids)


def _probe(keys: np.ndarray, bits: int, want: np.ndarray) -> np.ndarray:
    """For each of the hashes ``want``, the slot that holds it or else the first free slot from
    its home on. Vectorised while many are left; the few long chains one by one."""
    mask = (1 << bits) - 1
    slot = (want >> np.uint64(64 - bits)).astype(np.int64)
    todo = np.arange(len(want))
    while len(todo) > 16:
        s = slot[todo]
        found = keys[s]
        go_on = (found != want[todo]) & (found != 0)
        todo = todo[go_on]
        slot[todo] = (s[go_on] + 1) & mask
    for k in todo.tolist():
        s, w = int(slot[k]), want[k]
        while keys[s] != w and keys[s] != 0:
            s = (s + 1) & mask
        slot[k] = s
    return slot


def _place(keys: np.ndarray, values: np.ndarray, bits: int, hashes: np.ndarray, ids: np.ndarray) -> int:
    """Set distinct ``hashes`` with their ``ids``: a hash already in ``keys`` gets its new id;
    a new one goes to the first free slot from its home on (two new hashes wanting one slot:
    the other probes on, so every slot between a hash's home and its own is full, as
    :func:`_probe` relies on). Returns how many were new."""
    new = 0
    todo = np.arange(len(hashes))
    while len(todo):
        slot = _probe(keys, bits, hashes[todo])
        there = keys[slot] != 0  # the hash itself: a new id
        values[slot[there]] = ids[todo[there]]
        free, free_slot = todo[~there], slot[~there]
        taken, first = np.unique(free_slot, return_index=True)
        winners = free[first]
        values[taken] = ids[winners]
        keys[taken] = hashes[winners]
        new += len(winners)
        lost = np.ones(len(free), dtype=bool)
        lost[first] = False
        todo = free[lost]
    return new
