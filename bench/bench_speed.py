"""Speed targets of issue 11, each printed beside the reference script (bench/ref5gram.py) run
on the same input in the same run, as a ratio Sverka / reference.

    .venv/bin/python bench/bench_speed.py [--fragments 1000] [--runs 5] [--only a,b,c,d,e]

(a) ``sverka index`` of all of ruslit + ``sverka check --json`` of N fragments of 8-20 KB cut
    from it (one command: several suspects run on both cores) vs ``ref5gram.py RUSLIT FRAGS``
    (which also indexes and checks); run twice: with an empty form cache (a machine that never
    analysed these words) and again with the cache the first run filled.
(b) ``sverka compare A B --json`` of two 1 MB Russian texts, cold process, vs
    ``ref5gram.py DIR_WITH_B A``.
(c) ``check`` of a 50 KB suspect against the ruslit collection: warm (in-process
    ``Collection.check``, median) vs ``ref5gram.Collection.check`` in-process; cold CLI
    ``sverka check`` (median) vs a cold ``python -c 'import ref5gram'`` plus its check of the
    suspect against an in-memory index it has to build (the script has no stored index, so
    its cold figure includes indexing: shown for scale only).
(d) canonization words/s (the dictionaries loaded first, their loading time printed apart):
    forms never seen on this machine (fresh process, empty cache),
    forms seen by an earlier process (fresh process, filled cache), forms seen by this process
    (second pass), vs ``ref5gram.words`` on the same text.
(e) peak memory (RSS and PSS of the process tree) of (a)'s ``sverka index`` (its processes, not this one).

The form cache lives in a temporary directory (``SVERKA_CACHE_DIR``), never the user's; the
machine's table of every dictionary form, which ``installer/bootstrap.sh`` builds, is linked into
it ("empty form cache" is a machine that installed Sverka and never analysed these texts), unless
``--no-dictionary-table``. ``--no-meaning``: indexed and checked with the meaning layer off
(``--no-find-by-meaning``); it is on by default, as in the window and the command line.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
RUSLIT = ROOT.parent / "shared" / "data" / "ruslit"
SVERKA = ROOT / ".venv" / "bin" / "sverka"
PY = sys.executable
REF = HERE / "ref5gram.py"
sys.path.insert(0, str(HERE))

from _machine import link_dictionary_table  # noqa: E402


def run(cmd, env=None, out=subprocess.DEVNULL) -> float:
    t = time.perf_counter()
    subprocess.run([str(c) for c in cmd], check=True, stdout=out, stderr=subprocess.PIPE, env=env)
    return time.perf_counter() - t


def row(what: str, ours: float, ref: float, unit: str = "s", target: str = "") -> None:
    ratio = ours / ref if ref else float("nan")
    print(f"| {what} | {ours:.3f} {unit} | {ref:.3f} {unit} | {ratio:.2f} | {target} |", flush=True)


def fragments(n: int, seed: int = 11) -> list[str]:
    rng = random.Random(seed)
    texts = [p.read_text(encoding="utf-8", errors="replace") for p in sorted(RUSLIT.rglob("*.txt"))]
    texts = [t for t in texts if len(t.encode()) > 25_000]
    out = []
    for _ in range(n):
        t = rng.choice(texts)
        size = rng.randint(8_000, 20_000) // 2  # bytes of Cyrillic UTF-8 -> ~characters
        a = rng.randrange(0, len(t) - size)
        out.append(t[a : a + size])
    return out


def bench_a_e(args, work: Path, env: dict) -> Path:
    from bench_index import MemorySampler

    frag_dir = work / "frags"
    frag_dir.mkdir()
    paths = []
    for k, text in enumerate(fragments(args.fragments)):
        p = frag_dir / f"f{k:04d}.txt"
        p.write_text(text, encoding="utf-8")
        paths.append(p)
    kb = sum(p.stat().st_size for p in paths) / 1000
    print(f"(a) {len(paths)} fragments, {kb:.0f} KB in all\n")
    print("| figure | Sverka | reference | ratio | target |\n|---|---|---|---|---|")
    db = None
    for label in ("empty form cache", "filled form cache"):
        db = work / f"ruslit-{label[:5]}.sverka"
        sampler = MemorySampler(include_self=False)  # the command's processes, not this benchmark's
        sampler.start()
        off = ["--no-find-by-meaning"] if args.no_meaning else []
        t_index = run([SVERKA, "index", "--db", db, *off, RUSLIT], env)
        sampler.stop()
        peak_rss, peak_pss = sampler.peak_kb / 1024, sampler.peak_pss_kb / 1024
        t_check = run([SVERKA, "check", "--db", db, "--json", *off, *paths], env)
        t_ref = run([PY, REF, RUSLIT, *paths])
        row(f"(a) index ruslit, {label}", t_index, t_ref)
        row(f"(a) check {len(paths)} fragments, {label}", t_check, t_ref)
        row(f"(a) index + check, {label}", t_index + t_check, t_ref, target="<= 10 s, <= 0.5x")
        print(f"| (e) index peak memory, {label} | RSS {peak_rss:.0f} MB, PSS {peak_pss:.0f} MB "
              f"| | | <= 300 MB |", flush=True)
    return db


def big_texts(work: Path) -> tuple[Path, Path]:
    prose = "\n".join(p.read_text(encoding="utf-8", errors="replace")
                      for p in sorted((RUSLIT / "prose").rglob("*.txt")))
    raw = prose.encode()
    b = raw[:1_000_000].decode("utf-8", "ignore")
    other = raw[2_000_000:2_500_000].decode("utf-8", "ignore")
    a = b[200_000:450_000] + "\n\n" + other
    pa, pb = work / "a.txt", work / "refdir" / "b.txt"
    pb.parent.mkdir()
    pa.write_text(a, encoding="utf-8")
    pb.write_text(b, encoding="utf-8")
    return pa, pb


def bench_b(args, work: Path, env: dict) -> None:
    pa, pb = big_texts(work)
    print(f"\n(b) compare: A {pa.stat().st_size // 1000} KB, B {pb.stat().st_size // 1000} KB\n")
    print("| figure | Sverka | reference | ratio | target |\n|---|---|---|---|---|")
    for label, e in (("empty form cache", {**env, "SVERKA_CACHE_DIR": str(work / "cache-b")}),
                     ("filled form cache", {**env, "SVERKA_CACHE_DIR": str(work / "cache-b")})):
        ours = [run([SVERKA, "compare", pa, pb, "--json"], e) for _ in range(1 if label[0] == "e" else args.runs)]
        ref = [run([PY, REF, pb.parent, pa]) for _ in range(len(ours))]
        row(f"(b) `sverka compare` cold process, {label} (median of {len(ours)})",
            statistics.median(ours), statistics.median(ref), target="<= 1.2 s")


def bench_c(args, work: Path, env: dict, db: Path) -> None:
    from bench_cli import make_suspect

    import ref5gram
    from sverka.core import api
    from sverka.core.document import document_from_text

    text, _ = make_suspect(RUSLIT, 50_000)
    sp = work / "suspect50k.txt"
    sp.write_text(text, encoding="utf-8")
    print(f"\n(c) check of a {sp.stat().st_size // 1000} KB suspect against {db.name}\n")
    print("| figure | Sverka | reference | ratio | target |\n|---|---|---|---|---|")
    os.environ["SVERKA_CACHE_DIR"] = env["SVERKA_CACHE_DIR"]
    ref = ref5gram.Collection()
    for p in sorted(RUSLIT.rglob("*.txt")):
        ref.add(str(p), p.read_text(encoding="utf-8", errors="replace"))
    # The reference's index is millions of Python objects that live to the end: out of the
    # garbage collector's sight, else each full collection during a timed check walks them all
    # (a cost of this benchmark's process, not of either checker).
    gc.collect()
    gc.freeze()
    with api.Collection(db) as coll:
        coll.check(document_from_text(make_suspect(RUSLIT, 50_000, seed=1000)[0], title="warm-up"))
        ours, theirs = [], []
        for k in range(args.runs):  # a new suspect each time (sources met before are kept prepared)
            other = make_suspect(RUSLIT, 50_000, seed=7 + k)[0]
            doc = document_from_text(other, title=f"suspect {k}")
            t = time.perf_counter()
            coll.check(doc)
            ours.append(time.perf_counter() - t)
            t = time.perf_counter()
            ref.check(other)
            theirs.append(time.perf_counter() - t)
    row(f"(c) check warm, in-process, a new suspect each time (median of {args.runs}: "
        f"{' / '.join(f'{x:.3f}' for x in ours)} s; the reference's {' / '.join(f'{x:.3f}' for x in theirs)} s)",
        statistics.median(ours), statistics.median(theirs), target="<= 0.1 s")
    run([SVERKA, "check", "--db", db, "--json", sp], env)  # disk cache
    ours = [run([SVERKA, "check", "--db", db, "--json", sp], env) for _ in range(args.runs)]
    theirs = [run([PY, REF, RUSLIT, sp]) for _ in range(args.runs)]
    row(f"(c) `sverka check` cold CLI (median of {args.runs}); reference indexes too", statistics.median(ours),
        statistics.median(theirs), target="<= 0.6 s")


CANON_CHILD = r"""
import json, sys, time
from pathlib import Path
sys.path.insert(0, sys.argv[2])
t = Path(sys.argv[1]).read_text(encoding="utf-8")
import ref5gram
from sverka.core import text as tx, formcache, morph
tx.canonize("разогрев")  # imports and the regexes, not the forms of the text
t0 = time.perf_counter(); morph.warm_up(); load = time.perf_counter() - t0  # the dictionaries
t0 = time.perf_counter(); tok = tx.canonize(t); first = time.perf_counter() - t0
t0 = time.perf_counter(); tx.canonize(t); second = time.perf_counter() - t0
t0 = time.perf_counter(); ref5gram.words(t); ref = time.perf_counter() - t0
formcache.flush()
print(json.dumps({"words": tok.word_count, "first": first, "second": second, "ref": ref, "load": load}))
"""


def bench_d(args, work: Path, env: dict) -> None:
    prose = "\n".join(p.read_text(encoding="utf-8", errors="replace")
                      for p in sorted((RUSLIT / "prose").rglob("*.txt")))
    raw = prose.encode()[3_000_000:4_000_000].decode("utf-8", "ignore")
    f = work / "canon.txt"
    f.write_text(raw, encoding="utf-8")
    e = {**env, "SVERKA_CACHE_DIR": str(work / "cache-d")}
    print("\n(d) canonization of 1 MB of ruslit prose (words/s; reference: ref5gram.words)\n")
    print("| figure | Sverka | reference | ratio | target |\n|---|---|---|---|---|")
    loads = []
    for label in ("never seen on this machine (empty form cache)", "seen by an earlier process (filled form cache)"):
        r = json.loads(subprocess.run([PY, "-c", CANON_CHILD, f, HERE], check=True, capture_output=True,
                                      text=True, env=e).stdout)
        n = r["words"]
        # a ratio of times (Sverka / reference), like every other row
        print(f"| (d) {label} | {n / r['first']:,.0f} words/s | {n / r['ref']:,.0f} words/s | "
              f"{r['first'] / r['ref']:.2f} (time) | >= 300 000 |")
        loads.append(r["load"])
    print(f"| (d) seen by this process (second pass) | {n / r['second']:,.0f} words/s | "
          f"{n / r['ref']:,.0f} words/s | {r['second'] / r['ref']:.2f} (time) | >= 2 000 000 |")
    print(f"\nLoading the dictionaries before the timed passes (ru, uk, en): {loads[0]:.2f} s in the "
          f"first process (empty cache folder: the English trie is built), {loads[1]:.2f} s in the second.")


def bench_env(work: Path) -> dict:
    """The environment of the commands a run times: the form cache in ``work/cache``, never the
    user's, and Sverka's bytecode compiled first."""
    env = {**os.environ, "SVERKA_CACHE_DIR": str(work / "cache")}
    # an installed Sverka has its bytecode compiled: a shell that forbids writing it would
    # make every cold command compile the modules changed since the last write
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    subprocess.run([PY, "-m", "compileall", "-q", str(ROOT / "core")], check=True, env=env,
                   stdout=subprocess.DEVNULL)
    return env


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--fragments", type=int, default=1000)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--only", default="a,b,c,d,e")
    ap.add_argument("--no-meaning", action="store_true", help="index and check (a) without the meaning layer")
    ap.add_argument("--no-dictionary-table", action="store_true",
                    help="time a machine whose installation built no table of dictionary forms")
    args = ap.parse_args()
    if not RUSLIT.is_dir():
        print(f"corpus not found: {RUSLIT}", file=sys.stderr)
        return 1
    only = set(args.only.split(","))
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs at the start")
    with tempfile.TemporaryDirectory(prefix="sverka-bench-speed-") as tmp:
        work = Path(tmp)
        env = bench_env(work)
        if not args.no_dictionary_table:
            for cache in ("cache", "cache-b"):
                linked = link_dictionary_table(work / cache)
            print(f"dictionary table linked from the machine's cache: {', '.join(linked) or 'none built'}")
        print(f"meaning layer {'off' if args.no_meaning else 'on'} in (a)")
        db = None
        if only & {"a", "e", "c"}:
            db = bench_a_e(args, work, env)
        if "b" in only:
            bench_b(args, work, env)
        if "c" in only and db is not None:
            bench_c(args, work, env, db)
        if "d" in only:
            bench_d(args, work, env)
    print(f"\nload average {os.getloadavg()[0]:.1f} at the end")
    return 0


if __name__ == "__main__":
    sys.exit(main())
