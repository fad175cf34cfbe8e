"""Benchmark: all fingerprints of 1 MB of Russian text (issue 3; target <= 0.1 s).

    .venv/bin/python bench/bench_fingerprints.py [--mb 1.0] [--repeat 5]

Reads the first MB (UTF-8 bytes) of the prose of ../shared/data/ruslit (files in sorted
order), canonizes it once (not timed), then times, best of ``--repeat`` runs each, in the same
run:

* ``fingerprint_document`` with every fingerprint read (it computes each on first use):
  overlapping shingles, winnowing, sentence hashes and Seq2, longest words, the whole-text
  hash, min-hash signature, super- and mega-shingles, the retrieval keys;
* the part the compiled engine computes (shingles, winnowing, sentence hashes, Seq2, min-hash,
  super- and mega-shingles, the whole-text hash), by the engine and by the NumPy code it
  replaced (tests/core/fingerprint_oracle.py), as a ratio;
* the reference script's fingerprints of the same words (``bench/ref5gram.py``: the set of
  word 5-grams, its words split beforehand as Sverka's canonization is), as a ratio.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

from sverka.core import minhash, sentences, shingles, shortdoc
from sverka.core.fingerprints import MINHASH_FUNCTIONS, SUPER_SHINGLE_GROUPS, WINNOW_WINDOW, fingerprint_document
from sverka.core.hashing import HASH_SEED
from sverka.core.settings import Settings
from sverka.core.text import canonize

HERE = Path(__file__).resolve().parent
RUSLIT = HERE.parents[0].parent / "shared" / "data" / "ruslit"
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "tests" / "core"))
import ref5gram  # noqa: E402

FIELDS = ("all_shingles", "distinct", "shingle_hashes", "sentence_seq1", "sentence_seq2", "long_words",
          "text_hash", "minhash", "super_shingles", "mega_shingles", "pair_hashes", "sentence_keys")


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


def engine_part(m, tokens, w: int) -> None:
    """The fingerprints the engine computes, through module ``m`` (the product's or the oracle)."""
    get = (lambda name: getattr(m, name)) if m is not None else None
    if get is None:
        all_sh = shingles.shingle_hashes(tokens.hashes, w)
        shingles.winnow(all_sh, WINNOW_WINDOW)
        seq1, _ = sentences.sentence_hashes(tokens.word_hashes, tokens.sentence_ids, len(tokens.sentence_spans))
        sentences.seq2(seq1)
        sig = minhash.minhash_signature(shingles.unique_counts(all_sh)[0], MINHASH_FUNCTIONS)
        minhash.mega_shingles(minhash.super_shingles(sig, SUPER_SHINGLE_GROUPS))
        shortdoc.full_text_hash(tokens.text)
        return
    all_sh = get("shingle_hashes")(tokens.hashes, w)
    get("winnow")(all_sh, WINNOW_WINDOW)
    seq1, _ = get("sentence_hashes")(tokens.word_hashes, tokens.sentence_ids, len(tokens.sentence_spans))
    get("seq2")(seq1)
    sig = get("minhash_signature")(shingles.unique_counts(all_sh)[0], MINHASH_FUNCTIONS, HASH_SEED)
    get("mega_shingles")(get("super_shingles")(sig, SUPER_SHINGLE_GROUPS))
    get("full_text_hash")(tokens.text)


def best_of(repeat: int, work) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return min(times)


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

    def everything() -> None:
        doc = fingerprint_document(tokens, settings)
        for name in FIELDS:
            getattr(doc, name)

    everything()  # warm-up
    best = best_of(args.repeat, everything)
    doc = fingerprint_document(tokens, settings)
    w = doc.shingle_words
    engine = best_of(args.repeat, lambda: engine_part(None, tokens, w))
    try:
        import fingerprint_oracle
    except ImportError:  # tests/ not beside bench/
        fingerprint_oracle = None
    former = best_of(args.repeat, lambda: engine_part(fingerprint_oracle, tokens, w)) if fingerprint_oracle else None
    ws = ref5gram.words(text)
    ref = best_of(args.repeat, lambda: set(ref5gram.grams(ws)))

    print(f"text: {len(text.encode('utf-8')) / 1e6:.2f} MB UTF-8, {len(text):,} characters")
    print(f"canonize (not part of the figures): {canon_seconds:.2f} s, {len(tokens):,} tokens")
    print(f"fingerprint_document, every fingerprint: best {best * 1000:.1f} ms of {args.repeat}; "
          f"target <= 100 ms per MB")
    print(f"  {doc.shingle_count:,} shingles, {len(doc.shingle_hashes):,} winnowed, "
          f"{len(doc.sentence_seq1):,} sentences, {len(doc.minhash)} min-hash functions")
    print(f"  {doc.shingle_count / best:,.0f} shingles/s, {len(tokens) / best:,.0f} tokens/s, {args.mb / best:.1f} MB/s")
    print(f"the engine's part: engine {engine * 1000:.2f} ms", end="")
    if former is not None:
        print(f", the NumPy code it replaced {former * 1000:.2f} ms; ratio engine / NumPy {engine / former:.2f}")
    else:
        print()
    print(f"reference (ref5gram: set of word 5-grams of {len(ws):,} words): {ref * 1000:.1f} ms; "
          f"ratio Sverka / reference {best / ref:.2f} (every fingerprint), {engine / ref:.2f} (the engine's part)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
