"""A check with and without the helper thread that aligns its prepared candidates
(``sverka.core.ahead``), in one process, beside the reference script.

    .venv/bin/python bench/bench_ahead.py --collection C [--suspects 12]

C: an index of ruslit but its last file (bench_check.py ``--collection`` makes one). Each of
bench_check.py's 50 KB suspects is checked once (its sources kept, as in a class), then twice
more, with and without the helper (``ahead.MIN_JOBS`` 2 or never), in alternating order, meaning
layer off; the two results must be equal. Prints the medians of wall and CPU time (CPU of every
thread of the process) and the reference's time for the same suspects (bench_check.py's way).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import ref5gram  # noqa: E402
from _corpus import fragment, splice  # noqa: E402
from bench_check import _files, _read  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--collection", type=Path, required=True)
    ap.add_argument("--suspects", type=int, default=12)
    args = ap.parse_args()
    from sverka.core import ahead, api
    from sverka.core.document import Document

    files = _files()
    picks, orig = files[:-1], _read(files[-1]).split()

    def suspect(seed: int) -> Document:  # as bench_check.py makes them
        rng = np.random.default_rng(seed)
        chosen = rng.choice(len(picks), 5, replace=False)
        frags = [(str(k), fragment(_read(picks[k]), 900, rng)) for k in chosen.tolist()]
        at = int(rng.integers(0, max(1, len(orig) - 4500)))
        text, _ = splice([" ".join(orig[at + k * 700: at + (k + 1) * 700]) for k in range(6)], frags)
        return Document(text[:50_000], title=f"suspect {seed}")

    col = api.Collection(args.collection)
    off = col.settings.replace(find_by_meaning=False)
    col.check(suspect(0), off)
    ref = ref5gram.Collection()
    for f in picks:
        ref.add(str(f), _read(f))
    by_name = dict(zip(ref.names, ref.texts))
    got: dict[bool, list[tuple[float, float]]] = {True: [], False: []}
    ref_times = []
    for seed in range(1, args.suspects + 1):
        doc = suspect(seed)
        col.check(doc, off)
        shapes = {}
        for on in ([True, False] if seed % 2 else [False, True]):
            ahead.MIN_JOBS = 2 if on else 10**9
            t, c = time.perf_counter(), time.process_time()
            r = col.check(doc, off)
            got[on].append((time.perf_counter() - t, time.process_time() - c))
            shapes[on] = [(s.source_id, s.resemblance, s.sentence_score, s.passages) for s in r.sources]
        if shapes[True] != shapes[False]:
            print(f"suspect {seed}: the results differ!")
            return 1
        t = time.perf_counter()
        for name, _ in ref.check(doc.text)[:10]:
            ref5gram.spans(doc.text, by_name[name])
        ref_times.append(time.perf_counter() - t)
    col.close()
    r = statistics.median(ref_times)
    import os
    print(f"load average {os.getloadavg()[0]:.1f}; reference {r * 1e3:.1f} ms a suspect")
    for on in (False, True):
        w = statistics.median(x[0] for x in got[on])
        c = statistics.median(x[1] for x in got[on])
        print(f"helper {'on ' if on else 'off'}: wall {w * 1e3:.1f} ms, CPU {c * 1e3:.1f} ms (median of "
              f"{len(got[on])}); ratio to the reference {w / r:.3f}")
    print("the same results with and without the helper")
    return 0


if __name__ == "__main__":
    sys.exit(main())
