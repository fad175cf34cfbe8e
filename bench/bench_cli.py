"""Wall time of ``sverka check`` from the shell, interpreter start included.

Builds the index of a corpus once with ``sverka index`` (kept in --db for the next runs),
makes a ~50 KB suspect (own prose with paragraphs of several corpus files spliced in),
then times ``sverka check --db DB SUSPECT --json`` as a user would run it: a new process
each time. Beside it, from the same run: ``bench/ref5gram.py CORPUS SUSPECT`` from the shell
(it has no index to keep: it reads and indexes the corpus every time), and the ratio.
Prints the figures and the markdown row for docs/BENCHMARKS.md.

    .venv/bin/python bench/bench_cli.py [--corpus ../shared/data/ruslit] [--db /tmp/ruslit.sverka] [--runs 7]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

PROJECT = Path(__file__).resolve().parents[1]
SVERKA = Path(sys.executable).with_name("sverka")
REF = Path(__file__).resolve().parent / "ref5gram.py"
#: The children's environment: Python writes its compiled modules (``__pycache__``), as an
#: installed Sverka has them (pip compiles a wheel's modules; the bundle carries them). With
#: ``PYTHONDONTWRITEBYTECODE`` set, as on some development machines, every run would compile
#: Sverka's modules again, which no user pays.
CHILD_ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}

OWN_WORDS = (
    "исследование показывает что современная школа опирается на традицию однако ученики "
    "нередко замечают в классических текстах совсем иные смыслы чем их учителя поэтому "
    "в этой работе рассматривается вопрос о том как меняется восприятие литературы "
    "когда читатель живёт в другом веке и пользуется другим языком повседневной речи"
).split()


def own_prose(rng: random.Random, n_words: int) -> str:
    out = []
    while n_words > 0:
        k = rng.randint(9, 16)
        out.append(" ".join(rng.choice(OWN_WORDS) for _ in range(k)).capitalize() + ".")
        n_words -= k
    return " ".join(out)


def make_suspect(corpus: Path, target_bytes: int, seed: int = 7) -> tuple[str, list[str]]:
    """Own prose alternating with ~1.5 KB paragraphs from random corpus files, up to target_bytes of UTF-8."""
    rng = random.Random(seed)
    files = sorted(p for p in corpus.rglob("*.txt") if p.stat().st_size > 20_000)
    used, parts, size = [], [], 0
    while size < target_bytes:
        if len(parts) % 2 == 0:
            piece = own_prose(rng, 120)
        else:
            f = rng.choice(files)
            text = f.read_text(encoding="utf-8", errors="replace")
            a = rng.randrange(0, max(1, len(text) - 1500))
            a = text.find(" ", a) + 1
            piece = text[a:a + 900].strip()
            used.append(str(f.relative_to(corpus)))
        parts.append(piece)
        size += len(piece.encode("utf-8")) + 2
    text = "\n\n".join(parts)
    while len(text.encode("utf-8")) > target_bytes:
        text = text[:-1]
    return text, used


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", type=Path, default=PROJECT.parent / "shared" / "data" / "ruslit")
    ap.add_argument("--db", type=Path, default=Path("/tmp/sverka-bench-ruslit.sverka"))
    ap.add_argument("--size", type=int, default=50_000, help="suspect size in bytes of UTF-8")
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--ref-runs", type=int, default=3, help="runs of the reference script (median)")
    args = ap.parse_args()
    if not args.corpus.is_dir():
        print(f"corpus not found: {args.corpus}", file=sys.stderr)
        return 1

    if not args.db.exists():
        t = time.perf_counter()
        subprocess.run([str(SVERKA), "index", "--db", str(args.db), str(args.corpus)], check=True,
                       stdout=subprocess.DEVNULL)
        print(f"index built in {time.perf_counter() - t:.1f} s: {args.db}")
    listed = subprocess.run([str(SVERKA), "list", "--db", str(args.db), "--json"], check=True,
                            capture_output=True, text=True).stdout.splitlines()

    suspect = args.db.with_suffix(".suspect.txt")
    text, used = make_suspect(args.corpus, args.size)
    suspect.write_text(text, encoding="utf-8")
    cmd = [str(SVERKA), "check", "--db", str(args.db), "--json", str(suspect)]

    subprocess.run(cmd, check=True, capture_output=True, env=CHILD_ENV)  # warm the disk cache once
    times, cpu, ref = [], [], []
    for run in range(args.runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t = time.perf_counter()
        out = subprocess.run(cmd, check=True, capture_output=True, text=True, env=CHILD_ENV)
        times.append(time.perf_counter() - t)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
        if run < args.ref_runs:  # alternating, so the machine's drift falls on both alike
            t = time.perf_counter()
            subprocess.run([sys.executable, str(REF), str(args.corpus), str(suspect)], check=True,
                           stdout=subprocess.DEVNULL, env=CHILD_ENV)
            ref.append(time.perf_counter() - t)
    result = json.loads(out.stdout)
    found = {Path(s["path"]).relative_to(args.corpus).as_posix() for s in result["sources"]
             if s["containment"] > 0 and s["path"].startswith(str(args.corpus))}
    recall = len(set(used) & found) / len(set(used))

    size = suspect.stat().st_size
    print(f"collection: {len(listed)} documents; suspect: {size} bytes, {result['suspect']['chars']} chars, "
          f"{result['suspect']['words']} words, fragments from {len(set(used))} files")
    print(f"borrowed {result['borrowed_percent']:.1f}%, {len(result['sources'])} sources listed, "
          f"spliced files found: {recall:.0%}")
    print(f"wall (s) over {args.runs} runs: min {min(times):.3f}  median {statistics.median(times):.3f}  "
          f"max {max(times):.3f}")
    print(f"CPU (user+sys, s): min {min(cpu):.3f}  median {statistics.median(cpu):.3f}; "
          f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
    if ref:
        r = statistics.median(ref)
        print(f"ref5gram.py CORPUS SUSPECT from the shell (reads and indexes the corpus each time): median of "
              f"{len(ref)} {r:.3f} s; ratio {statistics.median(times) / r:.2f}")
    print()
    print(f"| `sverka check --db DB SUSPECT --json` | {len(listed)} docs (ruslit) | {size // 1000} KB | "
          f"{min(times):.2f} | {statistics.median(times):.2f} | {max(times):.2f} | {statistics.median(cpu):.2f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
