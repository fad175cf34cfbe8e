"""The compiled engine, ``sverka._engine`` (built from ``engine/`` by maturin; docs/ENGINE.md).

One place imports it, so that a missing build says what to do rather than failing deep
inside a check. The bundle and ``bash installer/bootstrap.sh`` always carry it.
"""

from __future__ import annotations

import numpy as np

try:
    from sverka import _engine as native
except ImportError as error:  # a developer's environment made with pip install -e . alone
    raise ImportError(
        "Sverka's compiled engine (sverka._engine) is not installed: run "
        "`bash installer/bootstrap.sh --no-run`, or `pip install ./engine/python` in this environment "
        "(docs/ENGINE.md)"
    ) from error

__all__ = ["i32", "i64", "native", "u32", "u64"]


# The engine reads arrays in place: C-contiguous, aligned (an array NumPy made over a stored
# blob at an odd offset is not), native byte order. These give such an array, copying only
# when the input is not one.
def u64(x) -> np.ndarray:
    return np.require(x, np.uint64, "CA")


def i64(x) -> np.ndarray:
    return np.require(x, np.int64, "CA")


def u32(x) -> np.ndarray:
    return np.require(x, np.uint32, "CA")


def i32(x) -> np.ndarray:
    return np.require(x, np.int32, "CA")
