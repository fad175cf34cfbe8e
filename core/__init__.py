"""Sverka core: extraction, canonization, fingerprints, index, alignment, reports.

Knows no screen: nothing under ``sverka.core`` imports Qt. The faces (GUI, command line)
use :mod:`sverka.core.api` only.
"""

__version__ = "0.1.0"
