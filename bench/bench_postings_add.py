"""What keeping the postings file (sverka.core.store.postings) costs an add, beside the
reference script's (bench/ref5gram.py) indexing of the same files in the same run.

    .venv/bin/python bench/bench_postings_add.py

An in-process ``Collection.add`` of all of ``../shared/data/ruslit`` into a new collection,
the time spent in the store's upkeep of the file (its updates inside each batch's
transaction, their renaming into place, the build at the end of the add) summed apart;
then the file's size beside the collection's.
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import ref5gram  # noqa: E402

RUSLIT = HERE.parents[1] / "shared" / "data" / "ruslit"
UPKEEP = ("_postings_before", "_postings_after", "_install", "_current_postings")


def main() -> int:
    from sverka.core import api
    from sverka.core.store import sqlite

    if not RUSLIT.is_dir():
        print(f"ruslit not found at {RUSLIT}")
        return 1
    spent = {"seconds": 0.0, "updates": 0}
    for name in UPKEEP:
        real = getattr(sqlite.SQLiteStore, name)

        def timed(self, *args, _real=real, _name=name):
            t = time.perf_counter()
            try:
                return _real(self, *args)
            finally:
                spent["seconds"] += time.perf_counter() - t
                spent["updates"] += _name == "_install"
        setattr(sqlite.SQLiteStore, name, timed)
    files = sorted(str(f) for f in RUSLIT.rglob("*.txt"))
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "ruslit.sverka"
        col = api.Collection(path, api.Settings())
        t = time.perf_counter()
        col.add(files)
        total = time.perf_counter() - t
        col.close()
        size = (Path(str(path) + ".postings")).stat().st_size
        db = path.stat().st_size
    ref = ref5gram.Collection()
    t = time.perf_counter()
    for f in files:
        ref.add(f, api.load_document(f).text)
    ref_s = time.perf_counter() - t
    print(f"add of {len(files)} ruslit files: {total:.1f} s ({total / ref_s:.2f}x the reference's indexing, "
          f"{ref_s:.1f} s, reading included); the postings file's upkeep {spent['seconds']:.2f} s "
          f"({100 * spent['seconds'] / total:.1f} % of the add, {spent['updates']} renamings into place); "
          f"file {size / 1e6:.1f} MB beside a collection of {db / 1e6:.1f} MB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
