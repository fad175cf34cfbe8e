"""Retrieval on the PostgreSQL archive of bench_million.py: the engine's ranking beside the
Python ranking it replaced (tests/core/candidates_oracle.py), on the same rows, alternating.

    .venv/bin/python bench/bench_retrieve_pg.py --data /work/scale-data [--docs N] [--checks 5] [--repeat 3]

``--data`` is a folder bench_million.py built (its server is started here and stopped at the
end); the suspects are bench_million.py's. For each suspect: ``candidates.retrieve`` whole
(the server's posting queries included) with the engine, then with the oracle's ``rank`` and
``seed_hits``, best of ``--repeat``; the candidates must be the same. Printed beside the
reference's time to find and mark a suspect in a sample of the essays (bench_million's
reference), from the same run.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "tests" / "core"))
sys.path.insert(0, str(HERE.parent / "tests" / "store"))

import bench_million  # noqa: E402
from _synthetic import Essays, build_pool, prose_files  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, required=True)
    ap.add_argument("--docs", type=int, default=20_000)
    ap.add_argument("--checks", type=int, default=5)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--sample", type=int, default=2000)
    args = ap.parse_args()
    import candidates_oracle

    from sverka.core import api, candidates
    from sverka.core.check import prepare

    server = bench_million._server(args.data)
    try:
        url = bench_million._database(server)
        from sverka.core.settings import Settings

        pool = build_pool(bench_million._texts(prose_files(bench_million.RUSLIT)[:-bench_million.HELD_OUT]),
                          Settings().drop_adjectives)
        essays = Essays(pool, chars=2500, novel=0.25)  # bench_million's defaults
        sus = bench_million.suspects(essays, args.docs, args.checks + 1)
        coll = api.Collection(url)
        settings = coll.settings
        from sverka.core.document import Document

        coll.check(Document(sus[0][0], title="warm-up"))
        engine, python = [], []
        for text, _ in sus[1:]:
            a = prepare(Document(text, title="suspect"), settings)
            best = {"engine": float("inf"), "python": float("inf")}
            got = {}
            for _ in range(args.repeat):
                for name in ("engine", "python"):
                    saved = candidates.rank, candidates.seed_hits
                    if name == "python":
                        candidates.rank, candidates.seed_hits = candidates_oracle.rank, candidates_oracle.seed_hits
                    try:
                        hits: dict = {}
                        t = time.perf_counter()
                        got[name] = candidates.retrieve(coll.index, a, settings, hits)
                        best[name] = min(best[name], time.perf_counter() - t)
                    finally:
                        candidates.rank, candidates.seed_hits = saved
            assert got["engine"] == got["python"], "other candidates"
            engine.append(best["engine"])
            python.append(best["python"])
            print(f"  retrieve: engine {best['engine'] * 1000:.1f} ms, Python {best['python'] * 1000:.1f} ms", flush=True)
        coll.close()
        ref = bench_million.reference(essays, args.sample, sus)
    finally:
        server.stop("fast")
    r = ref["check_s"]
    e, p = statistics.median(engine), statistics.median(python)
    line = f"retrieve on PostgreSQL, {args.docs} essays, median of {len(engine)}: engine {e * 1000:.1f} ms, Python {p * 1000:.1f} ms"
    line += f"; reference finds and marks a suspect in {r:.3f} s (ratios {e / r:.3f}, {p / r:.3f})"
    print(line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
