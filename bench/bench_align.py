"""Speed of the exact layer's alignment alone (``sverka.core.align.align``, the passages' kinds
included): the engine's beside the Python alignment it replaced (tests/core/align_oracle.py)
and beside bench/ref5gram.py, all in one run.

    .venv/bin/python bench/bench_align.py [--repeat 5]

* 1 MB pair: bench_check.py's compare pair (the start of ruslit's longest text, 1 MB of
  UTF-8, and a text of the same size whose second half is the first half of that one),
  canonized and their own parts (``SourceSide``) made beforehand, as a check has them;
  the reference marks the shared word 5-grams of the same pair (``ref5gram.spans``).
* essay: a 50 KB suspect of 40 passages of 1 200 characters, from 40 ruslit texts (the 6th
  to the 45th longest), aligned against each of the 40 (what a check does with its
  candidates); the reference marks each pair's shared 5-grams.
* fragment x novel: 15 KB cut from the middle of a 2 MB "novel" (ruslit's longest texts one
  after another), aligned against the novel: the cost a long source adds.

Times are the best of ``--repeat`` passes, warm (the first pass unmeasured).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "tests" / "core"))
import ref5gram  # noqa: E402
from bench_check import RUSLIT, _files, _head, _read  # noqa: E402


def best(f, repeat: int) -> float:
    f()
    out = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        f()
        out = min(out, time.perf_counter() - t)
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args(argv)
    if not RUSLIT.is_dir():
        print(f"ruslit not found at {RUSLIT}")
        return 1
    import align_oracle

    from sverka.core import align
    from sverka.core.check import prepare
    from sverka.core.document import Document
    from sverka.core.kinds import passage_kind
    from sverka.core.settings import Settings

    s = Settings()

    oracle_sides: dict[int, object] = {}  # the Python alignment's own SourceSide, made beforehand too

    def side(module, p):
        if module is align:
            return p.source_side
        if id(p) not in oracle_sides:
            oracle_sides[id(p)] = align_oracle.SourceSide.of(p.tokens, s.align_seed_words, s.min_sentence_words)
        return oracle_sides[id(p)]

    def run(module, pa, pb):
        return module.align(pa.tokens, pb.tokens, seed_words=s.align_seed_words, max_gap=s.max_gap_words,
                            min_words=8, min_sentence_words=s.min_sentence_words, a_word_starts=pa.word_starts,
                            b_side=side(module, pb), a_side=side(module, pa), a_first=pa.heading[1],
                            kind_of=passage_kind)

    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs at the start")
    big = sorted(_files(), key=lambda f: -f.stat().st_size)
    a = _head(_read(big[0]), 1_000_000)
    b = _head(_read(big[1]) + _read(big[2]), 500_000) + _head(a, 500_000)
    texts = [_read(f) for f in big[5:45]]
    essay = " ".join(t[len(t) // 3 : len(t) // 3 + 1200] for t in texts)[:50_000]
    novel = _head("\n\n".join(_read(f) for f in big[:12]), 2_000_000)
    middle = len(novel) // 2
    cases = {
        "15 KB fragment x 2 MB novel": [(prepare(Document(novel[middle : middle + 15_000]), s),
                                         prepare(Document(novel), s))],
        "1 MB pair": [(prepare(Document(a), s), prepare(Document(b), s))],
        "50 KB essay x 40 sources": [(pe, prepare(Document(t), s))
                                     for pe in (prepare(Document(essay), s),) for t in texts],
    }
    for name, pairs in cases.items():
        for pa, pb in pairs:  # canonized, the sides made: what a check keeps
            pa.source_side, pb.source_side, pa.word_starts, pa.heading
            assert run(align, pa, pb) == run(align_oracle, pa, pb)
        engine = best(lambda: [run(align, pa, pb) for pa, pb in pairs], args.repeat)
        python = best(lambda: [run(align_oracle, pa, pb) for pa, pb in pairs], args.repeat)
        ref = best(lambda: [ref5gram.spans(pa.doc.text, pb.doc.text) for pa, pb in pairs], args.repeat)
        found = sum(len(run(align, pa, pb)) for pa, pb in pairs)
        print(f"{name}: engine {engine * 1000:.1f} ms, the Python alignment {python * 1000:.1f} ms "
              f"({engine / python:.2f}), ref5gram.spans {ref * 1000:.1f} ms; ratio to the reference "
              f"{engine / ref:.3f} (Python {python / ref:.3f}); {found} passages, the same in both")
    return 0


if __name__ == "__main__":
    sys.exit(main())
