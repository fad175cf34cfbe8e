"""Wall time of ``sverka compare A B`` of two 1 MB Russian texts from the shell, cold: a new
process each time, interpreter start, imports, reading, canonization, alignment and the
report included. Beside it, the same run's reference (bench/ref5gram.py from the shell on
the same two files, interpreter start included too), and the ratio.

The texts are bench_check.py's compare pair: the start of ruslit's longest text (1 MB of
UTF-8), and a text of the same size whose second half is the first half of that one.

    .venv/bin/python bench/bench_compare_cli.py [--runs 5] [--size 1000000]
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_check import RUSLIT, _files, _head, _read  # noqa: E402

SVERKA = Path(sys.executable).with_name("sverka")
REF = Path(__file__).resolve().parent / "ref5gram.py"
#: The children's environment: Python writes its compiled modules (``__pycache__``), as an
#: installed Sverka has them (pip compiles a wheel's modules; the bundle carries them). With
#: ``PYTHONDONTWRITEBYTECODE`` set, as on some development machines, every run would compile
#: Sverka's ~70 modules again (0.17-0.38 s measured), which no user pays.
CHILD_ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def timed(cmd: list[str], cpu: list[float] | None = None) -> float:
    """Wall seconds of ``cmd``; its CPU seconds (user + sys) appended to ``cpu``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    done = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=CHILD_ENV)
    seconds = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if cpu is not None:
        cpu.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    if done.returncode not in (0, 1):  # 1: borrowings found
        raise SystemExit(f"{' '.join(cmd)} failed ({done.returncode}): {done.stderr[-2000:]}")
    return seconds


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=5, help="runs of each (median)")
    ap.add_argument("--size", type=int, default=1_000_000, help="bytes of UTF-8 of each text")
    args = ap.parse_args(argv)
    if not RUSLIT.is_dir():
        print(f"ruslit not found at {RUSLIT}")
        return 1
    big = sorted(_files(), key=lambda f: -f.stat().st_size)
    a = _head(_read(big[0]), args.size)
    b = _head(_read(big[1]) + _read(big[2]), args.size // 2) + _head(a, args.size // 2)
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs at the start")
    with tempfile.TemporaryDirectory() as tmp:
        fa, fb, src = Path(tmp) / "a.txt", Path(tmp) / "b.txt", Path(tmp) / "source"
        fa.write_text(a, "utf-8")
        src.mkdir()
        fb = src / "b.txt"
        fb.write_text(b, "utf-8")
        timed([str(SVERKA), "compare", str(fa), str(fb)])  # the files in the page cache, the modules compiled
        ours, ref, cpu, ref_cpu = [], [], [], []
        for _ in range(args.runs):  # alternating, so the machine's drift falls on both alike
            ours.append(timed([str(SVERKA), "compare", str(fa), str(fb)], cpu))
            ref.append(timed([sys.executable, str(REF), str(src), str(fa)], ref_cpu))
    s, r = statistics.median(ours), statistics.median(ref)
    print(f"sverka compare of two texts of {args.size / 1e6:g} MB ({len(a)} and {len(b)} characters), cold: "
          f"{s:.2f} s (median of {args.runs}; min {min(ours):.2f}); ref5gram.py from the shell: {r:.2f} s; "
          f"ratio {s / r:.2f}")
    print(f"CPU (user+sys): sverka median {statistics.median(cpu):.2f} s (min {min(cpu):.2f}); reference "
          f"{statistics.median(ref_cpu):.2f} s; ratio {statistics.median(cpu) / statistics.median(ref_cpu):.2f}; "
          f"load average {os.getloadavg()[0]:.1f} at the end")
    return 0


if __name__ == "__main__":
    sys.exit(main())
