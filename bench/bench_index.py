"""Benchmark: index a whole corpus (default ../shared/data/ruslit, 16 MB) into a fresh collection.

    .venv/bin/python bench/bench_index.py [--corpus DIR] [--workers N] [--repeat R] [--no-meaning]

Prints wall time, documents, stored rows, file size and peak memory: the sum of the
resident sizes (RSS) of this process and its worker processes, sampled every 20 ms from
/proc (Linux), the same sum of proportional sizes (PSS: shared pages counted once), plus
``ru_maxrss`` of this process and of the largest worker.
Targets (issue 4): <= 8 s on a 2-core machine using both cores, peak memory <= 400 MB.
After each run the reference script (bench/ref5gram.py) indexes the same files, and the
ratio Sverka / reference is printed. ``--no-meaning``: without the vectors of meaning
(``Settings.find_by_meaning`` off), to state what they cost; the file size counts the vector
index beside the collection.
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import tempfile
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
DEFAULT_CORPUS = HERE.parent.parent / "shared" / "data" / "ruslit"


def _rss_kb(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def _pss_kb(pid: int) -> int:
    """Proportional set size: private pages plus this process's share of pages it shares
    with others (the interpreter, numpy, the dictionaries' libraries), so that summing it
    over processes counts every page of memory once."""
    try:
        with open(f"/proc/{pid}/smaps_rollup") as f:
            for line in f:
                if line.startswith("Pss:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def _children(pid: int) -> list[int]:
    out = []
    try:
        for tid in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{tid}/children") as f:
                out += [int(x) for x in f.read().split()]
    except OSError:
        pass
    return out


class MemorySampler(threading.Thread):
    """Peak of (this process + all its descendants) resident memory, in MB; ``include_self``
    False: of its descendants only (a command the benchmark runs, not the benchmark itself)."""

    def __init__(self, interval: float = 0.02, include_self: bool = True) -> None:
        super().__init__(daemon=True)
        self.interval, self.peak_kb, self._halt = interval, 0, threading.Event()
        self.include_self = include_self
        self.peak_pss_kb = 0
        self.at_peak: list[int] = []  # each process's RSS (kB) when the sum peaked, this process first

    def run(self) -> None:
        me = os.getpid()
        tick = 0
        while not self._halt.is_set():
            pids, todo = [], [me]
            while todo:
                p = todo.pop()
                pids.append(p)
                todo += _children(p)
            if not self.include_self:
                pids = pids[1:]
            each = [_rss_kb(p) for p in pids]
            if sum(each) > self.peak_kb:
                self.peak_kb, self.at_peak = sum(each), each
            tick += 1
            if tick % 10 == 0:  # smaps_rollup is costly to read: PSS every 200 ms
                self.peak_pss_kb = max(self.peak_pss_kb, sum(_pss_kb(p) for p in pids))
            self._halt.wait(self.interval)

    def stop(self) -> float:
        self._halt.set()
        self.join()
        return self.peak_kb / 1024


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    ap.add_argument("--workers", type=int, default=None, help="worker processes (default: the cores, at most 4)")
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--no-meaning", action="store_true", help="no vectors of meaning (Settings.find_by_meaning off)")
    args = ap.parse_args()
    if not args.corpus.is_dir():
        print(f"corpus not found: {args.corpus}", file=sys.stderr)
        return 2

    from sverka.core import indexing
    from sverka.core.settings import Settings
    from sverka.core.store.sqlite import SQLiteStore
    from sverka.core.workers import default_workers

    workers = args.workers or default_workers()
    files = sorted(p for p in args.corpus.rglob("*") if p.suffix.lower() in (".txt", ".md"))
    mb = sum(p.stat().st_size for p in files) / 1e6
    print(f"corpus {args.corpus}: {len(files)} files, {mb:.1f} MB; {workers} workers; "
          f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f}")
    for r in range(args.repeat):
        with tempfile.TemporaryDirectory() as tmp:
            db = Path(tmp) / "bench.sverka"
            cpu0 = [resource.getrusage(w) for w in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)]
            sampler = MemorySampler()
            sampler.start()
            t0 = time.perf_counter()
            with SQLiteStore(db, Settings(find_by_meaning=not args.no_meaning)) as index:
                summary = indexing.add_paths(index, [args.corpus], workers=workers)
                wall = time.perf_counter() - t0
                peak = sampler.stop()
                tables = {r[0] for r in index._db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
                rows = {t: index._db.execute(f"SELECT count(*) FROM {t}").fetchone()[0]
                        for t in ("pairs", "sentences", "shingles", "sentence_pairs", "short_words", "sentence_vectors")
                        if t in tables}
                count = index.count()
            size = sum(f.stat().st_size for f in Path(tmp).iterdir()) / 1e6
        cpu = [(lambda a, b: a.ru_utime + a.ru_stime - b.ru_utime - b.ru_stime)(resource.getrusage(w), c)
               for w, c in zip((resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN), cpu0)]
        self_max = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        child_max = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
        print(f"run {r + 1}: {wall:.2f} s ({mb / wall:.2f} MB/s), {count} documents "
              f"({len(summary.failed)} failed, {len(summary.duplicates)} duplicates), rows {rows}, "
              f"file {size:.1f} MB; peak RSS all processes {peak:.0f} MB "
              f"(PSS {sampler.peak_pss_kb / 1024:.0f} MB) "
              f"(main max {self_max:.0f} MB, largest worker max {child_max:.0f} MB; at the peak: "
              f"{' + '.join(f'{kb / 1024:.0f}' for kb in sampler.at_peak)} MB, this process first); "
              f"CPU main {cpu[0]:.1f} s, workers {cpu[1]:.1f} s; load average {os.getloadavg()[0]:.1f}")
        ref = _reference(files)
        print(f"       reference (bench/ref5gram.py, one process) indexes the same files in {ref:.2f} s; "
              f"ratio {wall / ref:.2f}")
    return 0


def _reference(files: list[Path]) -> float:
    """Seconds the exact word-5-gram reference takes to read and index ``files``."""
    sys.path.insert(0, str(HERE))
    import ref5gram

    t = time.perf_counter()
    col = ref5gram.Collection()
    for p in files:
        col.add(str(p), p.read_text(encoding="utf-8", errors="replace"))
    return time.perf_counter() - t


if __name__ == "__main__":
    sys.exit(main())
