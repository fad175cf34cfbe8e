"""The compiled engine, ``sverka._engine`` (built from ``engine/`` by maturin; docs/ENGINE.md).

One place imports it, so that a missing build says what to do rather than failing deep
inside a check. The bundle and ``bash installer/bootstrap.sh`` always carry it.
"""

from __future__ import annotations

try:
    from sverka import _engine as native
except ImportError as error:  # a developer's environment made with pip install -e . alone
    raise ImportError(
        "Sverka's compiled engine (sverka._engine) is not installed: run "
        "`bash installer/bootstrap.sh --no-run`, or `pip install ./engine/python` in this environment "
        "(docs/ENGINE.md)"
    ) from error

__all__ = ["native"]
