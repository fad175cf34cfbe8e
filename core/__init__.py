"""Sverka core: extraction, canonization, fingerprints, index, alignment, reports.

Knows no screen: nothing under ``sverka.core`` imports Qt. The faces (GUI, command line)
use :mod:`sverka.core.api` only.
"""

import os

__version__ = "0.1.0"

# Sverka does no linear algebra: numpy's OpenBLAS need not start a thread per core when it is
# imported (20-25 ms of every start on this 2-core machine: the command line, the window, each
# worker process, which inherits the setting). Set before anything of Sverka imports numpy; a
# value the user set stays.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
