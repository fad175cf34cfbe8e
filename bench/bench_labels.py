"""Labels of borrowed passages (``Passage.kind``): how many planted passages get the kind of
rewriting that was planted.

    .venv/bin/python bench/bench_labels.py [--seeds 5,7,9] [--passages 40] [--verbose]

For each language, kind and seed: ``--passages`` passages of 20-120 words are cut from the
source (Russian: Chekhov's prose from ``../shared/data/ruslit``; English: the first half of the
PAN-2013 source pages), rewritten as ``bench_detection.py`` (a) rewrites them (inflected: half
the words in another form; reordered: sentences reversed, clauses rotated; edited: every 7th
word replaced), joined into one suspect and compared with the source. A planted passage's
label is that of the passage holding most of it. ``--verbose`` prints each passage labelled
otherwise, with the words its alignment left over. The exact 5-gram reference labels nothing,
so there is no reference figure here; ``bench_detection.py`` gives the found shares beside it.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import bench_detection as bd  # noqa: E402

KINDS = {"ru": ("inflected", "reordered", "edited"), "en": ("reordered", "edited")}


def rewrite(rw: "bd.Rewriter", kind: str, text: str) -> str:
    if kind == "inflected":
        return rw.words(text, form=0.5)
    if kind == "reordered":
        return rw.reorder(text)
    return rw.words(text, every=7)


def labels(source: str, filler: str, kind: str, seed: int, n: int, verbose: bool) -> Counter:
    rng = np.random.default_rng(seed)
    rw = bd.Rewriter(rng, bd.WORD.findall(filler[:200_000]))
    pairs = []
    for _ in range(n):
        p = bd.passage(source, rng, 20, 120)
        pairs.append((p, rewrite(rw, kind, p)))
    suspect = "\n\n".join(q for _, q in pairs)
    bd.sverka_compare(suspect, source)
    out: Counter = Counter()
    pos = 0
    for original, planted in pairs:
        s0, e0 = pos, pos + len(planted)
        pos = e0 + 2
        best = max(bd._LAST_KINDS, key=lambda k: min(e0, k[1]) - max(s0, k[0]), default=None)
        if best is None or min(e0, best[1]) <= max(s0, best[0]):
            out["(not found)"] += 1
            continue
        out[best[2]] += 1
        if verbose and best[2] != kind:
            print(f"  {kind} labelled {best[2]}:\n    suspect: {suspect[best[0]:best[1]][:300]!r}\n"
                  f"    source:  {original[:300]!r}")
    return out


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", default="5,7,9")
    ap.add_argument("--passages", type=int, default=40)
    ap.add_argument("--verbose", action="store_true")
    args = ap.parse_args()
    seeds = [int(x) for x in args.seeds.split(",")]
    chekhov = bd._texts(bd.DATA / "ruslit" / "prose" / "Chekhov")
    gorky = bd._texts(bd.DATA / "ruslit" / "prose" / "Gorky")
    pushkin = bd._texts(bd.DATA / "ruslit" / "prose" / "Pushkin")
    pan = bd._texts(bd.DATA / "pan13-dev" / "src")
    if not chekhov or not pan:
        print("../shared/data is not there: nothing to measure")
        return 0
    half = len(pan) // 2
    texts = {"ru": (bd._take(chekhov, 1_000_000), bd._take(gorky + pushkin, 1_000_000)),
             "en": (bd._take(pan[:half], 1_000_000), bd._take(pan[half:], 1_000_000))}
    t0 = time.perf_counter()
    print(f"| planted | labelled as planted (seeds {args.seeds}, {args.passages} each) | other labels |")
    print("|---|---|---|")
    for lang, kinds in KINDS.items():
        source, filler = texts[lang]
        for kind in kinds:
            total: Counter = Counter()
            for seed in seeds:
                total += labels(source, filler, kind, seed, args.passages, args.verbose)
            n = sum(total.values())
            others = ", ".join(f"{k} {v}" for k, v in total.most_common() if k != kind)
            print(f"| {lang} {kind} | {total[kind]} / {n} | {others} |", flush=True)
    print(f"\ntotal {time.perf_counter() - t0:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
