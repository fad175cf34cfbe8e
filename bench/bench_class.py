"""A class of 30 essays of ~20 KB checked against ruslit: from the shell as shipped, and in one
process three ways, beside the reference script from the same run.

    .venv/bin/python bench/bench_class.py [--essays 30] [--size 20000] [--runs 3] [--collection PATH] [--no-meaning]

The collection and the essays are bench_batch.py's (ruslit but six held-out files; each essay
held-out text with 0-6 copied fragments). Timed, alternating run by run so the machine's drift
falls on all alike:

* ``shell``: ``sverka check --db C ESSAY... --json``, a new process (interpreter start, imports,
  reading, the workers it starts and the checks): what a teacher's command costs.
* ``serial``, ``threads``, ``processes``: the essays already read, checked in a new process
  (imports and the collection opened before the clock starts) by ``check_document`` one after
  another; by two threads sharing the collection's source cache and the form table, each with
  its own connection (the compiled engine releases the GIL, Python's own work does not); by
  ``batch.check_many`` with two worker processes (started by the call, as the command line does:
  each imports, opens the collection and prepares its own sources; results are pickled back).

``--no-meaning``: the meaning layer off in every way (``--no-find-by-meaning`` of the command line).
CPU is the process's and its children's (user + sys). The reference (``ref5gram.py`` as a
library, its index built beforehand) looks each essay up and marks the 5-grams it shares with
its sources, as bench_batch.py has it do.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_batch import HELD_OUT, RUSLIT, make_essays, run_reference  # noqa: E402

SVERKA = Path(sys.executable).with_name("sverka")
#: Python writes its compiled modules, as an installed Sverka has them (bench_cli.py says why).
CHILD_ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
MODES = ("shell", "serial", "threads", "processes")


def _cpu_of_children() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def _cpu_here() -> float:
    own, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def one_mode(mode: str, collection: Path, essays: list[Path], meaning: bool = True) -> dict:
    """(In a child process.) The essays checked one way; the wall and CPU of the checks alone."""
    import concurrent.futures as cf
    import threading

    from sverka.core import batch
    from sverka.core.check import check_document
    from sverka.core.document import document_from_text
    from sverka.core.sourcecache import SourceCache
    from sverka.core.store import open_store

    docs = [document_from_text(e.read_text(encoding="utf-8"), title=e.name) for e in essays]
    store = open_store(collection, None)
    settings = store.settings.replace(find_by_meaning=meaning)
    cache = SourceCache()
    local = threading.local()

    def check(doc):
        own = getattr(local, "store", None)
        if own is None:
            own = local.store = store if threading.current_thread() is threading.main_thread() else open_store(collection, None)
        return check_document(own, doc, settings, cache=cache)

    wall, cpu = time.perf_counter(), _cpu_here()
    if mode == "serial":
        results = [check(d) for d in docs]
    elif mode == "threads":
        with cf.ThreadPoolExecutor(2) as pool:
            results = list(pool.map(check, docs))
    else:
        results = batch.check_many(collection, docs, settings, serial=check, workers=2)
    wall, cpu = time.perf_counter() - wall, _cpu_here() - cpu
    return {"wall": wall, "cpu": cpu, "borrowed": [round(r.borrowed_percent, 1) for r in results]}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--essays", type=int, default=30)
    ap.add_argument("--size", type=int, default=20_000)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--collection", type=Path, help="a collection built by an earlier run (kept)")
    ap.add_argument("--no-meaning", action="store_true", help="the meaning layer off")
    ap.add_argument("--mode", choices=MODES[1:], help=argparse.SUPPRESS)
    ap.add_argument("--essay-dir", type=Path, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.mode:
        essays = sorted(args.essay_dir.glob("*.txt"))
        print(json.dumps(one_mode(args.mode, args.collection, essays, not args.no_meaning)))
        return 0
    if not RUSLIT.is_dir():
        print(f"corpus not found: {RUSLIT}")
        return 1
    from sverka.core import api

    files = sorted(RUSLIT.rglob("*.txt"))
    indexed = files[:-HELD_OUT]
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        collection = args.collection or tmp / "ruslit.sverka"
        if not collection.exists():
            t = time.perf_counter()
            with api.Collection(collection, api.Settings()) as c:
                c.add([str(f) for f in indexed])
            print(f"(indexed {len(indexed)} files in {time.perf_counter() - t:.1f} s)")
        folder = tmp / "essays"
        folder.mkdir()
        essays = make_essays(files, folder, args.essays, args.size)
        chars = sum(len(e.read_text(encoding="utf-8")) for e in essays)
        print(f"{len(essays)} essays, {chars} characters in all; {len(os.sched_getaffinity(0))} cores; "
              f"load average {os.getloadavg()[0]:.1f} at the start")
        shell = [str(SVERKA), "check", "--db", str(collection), "--json", *map(str, essays)]
        layer = ["--no-find-by-meaning"] if args.no_meaning else []
        shell[2:2] = layer
        subprocess.run(shell, env=CHILD_ENV, capture_output=True)  # the files in the page cache, the modules compiled
        got: dict[str, list[dict]] = {m: [] for m in MODES}
        ref = []
        for _ in range(args.runs):
            for mode in MODES:
                if mode == "shell":
                    cpu, t = _cpu_of_children(), time.perf_counter()
                    done = subprocess.run(shell, env=CHILD_ENV, capture_output=True)
                    if done.returncode not in (0, 1):
                        raise SystemExit(done.stderr.decode(errors="replace")[-2000:])
                    got[mode].append({"wall": time.perf_counter() - t, "cpu": _cpu_of_children() - cpu})
                    continue
                out = subprocess.run([sys.executable, __file__, "--mode", mode, "--collection", str(collection),
                                      "--essay-dir", str(folder), *(["--no-meaning"] if args.no_meaning else [])], env=CHILD_ENV, capture_output=True, text=True,
                                     check=True).stdout
                got[mode].append(json.loads(out.strip().splitlines()[-1]))
            ref.append(run_reference(indexed, essays))
    r = statistics.median(ref)
    same = {json.dumps(x["borrowed"]) for m in MODES[1:] for x in got[m]}
    print(f"reference (ref5gram, its index built): {r:.2f} s (median of {len(ref)})")
    for mode in MODES:
        walls = [x["wall"] for x in got[mode]]
        w = statistics.median(walls)
        print(f"{mode:>9}: wall median {w:.2f} s (min {min(walls):.2f}, max {max(walls):.2f}), "
              f"CPU median {statistics.median(x['cpu'] for x in got[mode]):.2f} s; ratio to the reference {w / r:.2f}")
    print("the three in-process ways found the same shares" if len(same) == 1 else "the ways found different shares!")
    return 0


if __name__ == "__main__":
    sys.exit(main())
