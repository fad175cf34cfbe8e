"""The form table's file looked up as the Python code did before the engine did it
(:mod:`sverka.core.formcache`: ``find_rows``, ``row_entries``): the oracle of
tests/core/test_formcache.py's differential test."""

from __future__ import annotations

import numpy as np
import xxhash


def find_rows(state: dict, forms: list[str], code: int) -> np.ndarray:
    """Row of each of ``forms`` among the file's rows of the language ``code``, -1 for none."""
    keys = state["keys"]
    out = np.full(len(forms), -1, dtype=np.int64)
    if not len(keys) or not forms:
        return out
    encoded = [f.encode("utf-8", "surrogatepass") for f in forms]
    wanted = np.fromiter((xxhash.xxh64_intdigest(b, code) for b in encoded), np.uint64, len(forms))
    at = np.minimum(np.searchsorted(keys, wanted), len(keys) - 1)
    hit = np.flatnonzero(keys[at] == wanted)
    data, starts, ends = state["forms"]
    rows = at[hit]
    for k, row, a, b in zip(hit.tolist(), rows.tolist(), starts[rows].tolist(), ends[rows].tolist()):
        if data[a:b] == encoded[k]:
            out[k] = row
    return out


def row_lemmas(state: dict, rows: list[int]) -> list[str | None]:
    """The lemma of each of the file's ``rows``, None where it is not text."""
    data, starts, ends = state["lemmas"]
    lemmas: list[str | None] = []
    for a, b in zip(starts[rows].tolist(), ends[rows].tolist()):
        try:
            lemmas.append(str(data[a:b], "utf-8", "surrogatepass"))
        except UnicodeDecodeError:
            lemmas.append(None)
    return lemmas
