"""The least issue 11's (a) and (d) can cost in Sverka's design (Python over numpy and SQLite),
each printed beside the reference script (bench/ref5gram.py) run in the same command.

    .venv/bin/python bench/bench_floor.py [--fragments 1000] [--only a,d]

(a) Floor of "index ruslit and check 1 000 fragments": ruslit is indexed once (``sverka index``,
    which also fills the form table), then one fresh process times, each part alone, what no
    faster matching could remove: canonizing every ruslit text (indexing's first step),
    canonizing the fragments, and the retrieval's SQLite lookups of the fragments' pair and
    sentence keys (``Store.pair_postings`` / ``sentence_postings``, as ``candidates.retrieve`` calls
    them); then the whole check of the fragments in that same process. Each time halved is the
    best two workers could do. The reference (indexing and checking in one process) runs before
    and after the child; their mean is the ratio's base.
(d) Bound of "canonization of never-seen forms": 1 MB of ruslit prose canonized in fresh
    processes with an empty form table, as Sverka does it and with every dictionary analysis
    answered by a table an earlier process made (``morph.analyze``, which also records the
    analysis in the form table, replaced by a dict lookup): what the never-seen path would cost
    were analysing a word form free. The raw forms are still recorded, as they are today.

The form tables live in a temporary directory (``SVERKA_CACHE_DIR``), never the user's.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench_speed import PY, REF, RUSLIT, SVERKA, bench_env, fragments, run

HERE = Path(__file__).resolve().parent

A_CHILD = r"""
import json, sys, time
from pathlib import Path
sys.path.insert(0, sys.argv[3])
from bench_speed import RUSLIT, fragments
from sverka.core import api, candidates, check, text as tx
from sverka.core.document import document_from_text

texts = [p.read_text(encoding="utf-8", errors="replace") for p in sorted(RUSLIT.rglob("*.txt"))]
frags = fragments(int(sys.argv[2]))
tx.canonize("разогрев")  # imports and regexes, not the forms
t = time.perf_counter()
for x in texts:
    tx.canonize(x)
index = time.perf_counter() - t
t = time.perf_counter()
tokens = [tx.canonize(f) for f in frags]
canon = time.perf_counter() - t
with api.Collection(Path(sys.argv[1])) as coll:
    st, settings = coll.index, coll.settings
    keys = []
    for f, k in zip(frags, tokens):
        p = check.prepare(document_from_text(f, title="f"), settings, tokens=k)
        keys.append((check.distinct(p.pairs[0]), check.distinct(p.sentences[0])))
    st.pair_postings(keys[0][0][:8], max_posting=candidates.MAX_POSTING)  # the connection's first reads
    t = time.perf_counter()
    for pairs, sentences in keys:
        st.pair_postings(pairs, max_posting=candidates.MAX_POSTING)
        st.sentence_postings(sentences, max_posting=candidates.MAX_POSTING)
    sql = time.perf_counter() - t
    t = time.perf_counter()
    for f in frags:
        coll.check(document_from_text(f, title="f"))
    whole = time.perf_counter() - t
print(json.dumps({"index": index, "canon": canon, "sql": sql, "whole": whole}))
"""

D_CHILD = r"""
import json, pickle, sys, time
from pathlib import Path
sys.path.insert(0, sys.argv[4])
import ref5gram
from sverka.core import morph, text as tx

t = Path(sys.argv[1]).read_text(encoding="utf-8")
tx.canonize("разогрев")
morph.warm_up()
if sys.argv[2] == "make":  # an earlier process: every analysis the text needs, kept
    made = {}
    analyse = morph._analyze

    def keep(form, lang):
        a = made[(form, lang)] = analyse(form, lang)
        return a

    morph._analyze = keep
    tx.canonize(t)
    Path(sys.argv[3]).write_bytes(pickle.dumps({k: tuple(getattr(a, f) for f in a.__slots__) for k, a in made.items()}))
    print(json.dumps({"forms": len(made)}))
    sys.exit(0)
if sys.argv[2] == "free":  # analysing a form costs a dict lookup
    table = {k: morph.Analysis(*v) for k, v in pickle.loads(Path(sys.argv[3]).read_bytes()).items()}
    analyse = morph.analyze
    morph.analyze = lambda form, lang: table.get((form, lang)) or analyse(form, lang)
t0 = time.perf_counter(); tokens = tx.canonize(t); ours = time.perf_counter() - t0
t0 = time.perf_counter(); ref5gram.words(t); ref = time.perf_counter() - t0
print(json.dumps({"words": tokens.word_count, "ours": ours, "ref": ref}))
"""


def bench_a(args, work: Path, env: dict) -> None:
    paths = []
    (work / "frags").mkdir()
    for k, text in enumerate(fragments(args.fragments)):
        p = work / "frags" / f"f{k:04d}.txt"
        p.write_text(text, encoding="utf-8")
        paths.append(p)
    db = work / "ruslit.sverka"
    t_index = run([SVERKA, "index", "--db", db, RUSLIT], env)
    print(f"(a) floor: ruslit indexed in {t_index:.2f} s (an empty form table, which it fills); "
          f"{len(paths)} fragments\n")
    ref0 = run([PY, REF, RUSLIT, *paths])
    r = json.loads(subprocess.run([PY, "-c", A_CHILD, db, str(args.fragments), HERE], check=True,
                                  capture_output=True, text=True, env=env).stdout)
    ref1 = run([PY, REF, RUSLIT, *paths])
    ref = (ref0 + ref1) / 2
    print(f"reference, index + check in one process: {ref0:.2f} s before, {ref1:.2f} s after (mean {ref:.2f} s)\n")
    print("| part (one process; halved: two workers at best) | Sverka | halved | halved / reference |")
    print("|---|---|---|---|")
    parts = [("canonizing every ruslit text", r["index"]), (f"canonizing the {len(paths)} fragments", r["canon"]),
             ("the retrieval's SQLite lookups of the fragments' keys", r["sql"])]
    for label, t in parts:
        print(f"| {label} | {t:.2f} s | {t / 2:.2f} s | {t / 2 / ref:.2f} |")
    floor = sum(t for _, t in parts)
    print(f"| **the three together** | {floor:.2f} s | {floor / 2:.2f} s | **{floor / 2 / ref:.2f}** |")
    print(f"| the whole check of the fragments (`Collection.check`, forms already seen) | {r['whole']:.2f} s | "
          f"{r['whole'] / 2:.2f} s | **{r['whole'] / 2 / ref:.2f}** |")
    print("\nTarget: index + check <= 0.5x the reference.")


def bench_d(args, work: Path, env: dict) -> None:
    prose = "\n".join(p.read_text(encoding="utf-8", errors="replace")
                      for p in sorted((RUSLIT / "prose").rglob("*.txt")))
    f = work / "canon.txt"
    f.write_text(prose.encode()[3_000_000:4_000_000].decode("utf-8", "ignore"), encoding="utf-8")
    made = work / "analyses.pickle"

    def child(mode: str) -> dict:
        e = {**env, "SVERKA_CACHE_DIR": tempfile.mkdtemp(dir=work)}  # a machine that never saw them
        return json.loads(subprocess.run([PY, "-c", D_CHILD, f, mode, made, HERE], check=True, capture_output=True,
                                         text=True, env=e).stdout)

    forms = child("make")["forms"]
    print(f"\n(d) bound: 1 MB of ruslit prose, {forms} distinct forms analysed; fresh processes, empty form "
          f"tables, alternating\n")
    print("| never-seen forms | Sverka | reference | ratio (time) | target |\n|---|---|---|---|---|")
    for _ in range(2):
        for mode, label in (("real", "analysed by the dictionaries (as Sverka does)"),
                            ("free", "every analysis free (a dict lookup)")):
            r = child(mode)
            print(f"| {label} | {r['words'] / r['ours']:,.0f} words/s | {r['words'] / r['ref']:,.0f} words/s | "
                  f"{r['ours'] / r['ref']:.2f} | >= 300 000 |", flush=True)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--fragments", type=int, default=1000)
    ap.add_argument("--only", default="a,d")
    args = ap.parse_args()
    if not RUSLIT.is_dir():
        print(f"corpus not found: {RUSLIT}", file=sys.stderr)
        return 1
    only = set(args.only.split(","))
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs at the start")
    with tempfile.TemporaryDirectory(prefix="sverka-bench-floor-") as tmp:
        work = Path(tmp)
        env = bench_env(work)
        if "a" in only:
            bench_a(args, work, env)
        if "d" in only:
            bench_d(args, work, env)
    print(f"\nload average {os.getloadavg()[0]:.1f} at the end")
    return 0


if __name__ == "__main__":
    sys.exit(main())
