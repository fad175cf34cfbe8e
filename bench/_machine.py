"""What an installed machine holds before any document is read, for benchmarks that time cold
commands in a cache folder of their own (``SVERKA_CACHE_DIR``).

``installer/bootstrap.sh`` builds the table of every dictionary form once per machine
(``python -m sverka.core.morph build-dictionary-table``); a benchmark that starts from an empty
cache folder would otherwise time a machine whose installation was not finished. The table is
linked, never copied or changed: it is read only.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path


def machine_cache_dir() -> Path:
    """The cache folder of this user as Sverka finds it without ``SVERKA_CACHE_DIR``."""
    env = {k: v for k, v in os.environ.items() if k != "SVERKA_CACHE_DIR"}
    out = subprocess.run([sys.executable, "-c", "from sverka.core import formcache; print(formcache.cache_dir())"],
                         check=True, capture_output=True, text=True, env=env)
    return Path(out.stdout.strip())


def link_dictionary_table(cache: Path) -> list[str]:
    """Link the machine's dictionary tables into ``cache`` (created if missing); the names linked
    (none when the installation did not build one: the run then times the analysers alone)."""
    cache.mkdir(parents=True, exist_ok=True)
    linked = []
    for table in sorted(machine_cache_dir().glob("dictionary-*")):
        target = cache / table.name
        if not target.exists():
            target.symlink_to(table, target_is_directory=table.is_dir())
        linked.append(table.name)
    return linked
