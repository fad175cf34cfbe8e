"""Benchmark: all fingerprints of 1 MB of Russian text (issue 3; target <= 0.1 s).

    .venv/bin/python bench/bench_fingerprints.py [--mb 1.0] [--repeat 5]

Reads the first MB (UTF-8 bytes) of the prose of ../shared/data/ruslit (files in sorted
order), canonizes it once (not timed), then times ``fingerprint_document`` with the
default settings: overlapping shingles, winnowing, sentence hashes, longest words,
min-hash signature, super- and mega-shingles. Prints the best of ``--repeat`` runs.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

from sverka.core.fingerprints import fingerprint_document
from sverka.core.settings import Settings
from sverka.core.text import canonize

RUSLIT = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "ruslit"


def read_text(megabytes: float) -> str:
    limit = int(megabytes * 1_000_000)
    parts, size = [], 0
    for path in sorted((RUSLIT / "prose").rglob("*.txt")):
        data = path.read_bytes()
        parts.append(data[: limit - size])
        size += len(parts[-1])
        if size >= limit:
            break
    return b"\n\n".join(parts).decode("utf-8", "ignore")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=float, default=1.0, help="megabytes (10**6 bytes of UTF-8) of text")
    parser.add_argument("--repeat", type=int, default=5, help="timed runs; the best is reported")
    args = parser.parse_args()
    if not (RUSLIT / "prose").is_dir():
        print(f"SKIPPED: Russian corpus not found at {RUSLIT}", file=sys.stderr)
        return 0
    text = read_text(args.mb)
    start = time.perf_counter()
    tokens = canonize(text)
    canon_seconds = time.perf_counter() - start
    settings = Settings()
    fingerprint_document(tokens, settings)  # warm-up (caches of the min-hash coefficients)
    times = []
    for _ in range(args.repeat):
        start = time.perf_counter()
        doc = fingerprint_document(tokens, settings)
        times.append(time.perf_counter() - start)
    best = min(times)
    print(f"text: {len(text.encode('utf-8')) / 1e6:.2f} MB UTF-8, {len(text):,} characters")
    print(f"canonize (not part of the figure): {canon_seconds:.2f} s, {len(tokens):,} tokens")
    print(
        f"fingerprint_document: best {best * 1000:.1f} ms of {args.repeat} "
        f"(median {np.median(times) * 1000:.1f} ms); target <= 100 ms per MB"
    )
    print(
        f"  {doc.shingle_count:,} shingles, {len(doc.shingle_hashes):,} winnowed, "
        f"{len(doc.sentence_seq1):,} sentences, {len(doc.minhash)} min-hash functions"
    )
    print(f"  {doc.shingle_count / best:,.0f} shingles/s, {len(tokens) / best:,.0f} tokens/s, {args.mb / best:.1f} MB/s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
