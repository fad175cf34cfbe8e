"""Speed of the matching engine, each figure beside the reference script's (bench/ref5gram.py).

    .venv/bin/python bench/bench_check.py [--skip-index] [--collection PATH] [--suspects N]
        [--skip-crosscheck [--without-paraphrase | --python-paraphrase]] [--skip-compare] [--time-layer] [--meaning] [--no-second-judge]

* check: a 50 KB suspect (fragments of five ruslit files plus text of a file left out)
  against an index of ALL of ruslit, warm, in-process (median of ``--suspects``, 5 unless
  told, each a new suspect; its CPU time too, which a loaded machine moves less than wall
  time); ``--collection`` keeps the index between runs (built there when missing);
  ``--meaning``: each suspect is also checked with the meaning layer off
  (``Settings.find_by_meaning``), both times printed;
* compare: two 1 MB texts (one holding half of the other), canonization included;
* cross-check: 300 documents of 20 KB (cut from ruslit; some share passages).

Times are wall-clock seconds on whatever machine runs this; say how loaded it was. The
reference does the same job its way in the same run (exact word-5-grams: index, look up,
mark the shared 5-grams of each pair it finds), and each line ends with the ratio
Sverka / reference, which drifts less than either time.
"""

from __future__ import annotations

import argparse
import gc
import os
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import ref5gram  # noqa: E402
from _corpus import fragment, splice  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
RUSLIT = ROOT.parent / "shared" / "data" / "ruslit"


def _files() -> list[Path]:
    return sorted(RUSLIT.rglob("*.txt"))


def _read(f: Path) -> str:
    from sverka.core import api

    return api.load_document(f).text


def bench_check(collection: Path | None, suspects: int = 5, meaning: bool = False, forget: bool = False,
                second_judge: bool = True) -> dict:
    from sverka.core import api
    from sverka.core import meaning as layer
    from sverka.core.document import Document

    files = _files()
    held_out = files[-1]
    tmp = None
    if collection is None or not collection.exists():
        if collection is None:
            tmp = tempfile.TemporaryDirectory()
            collection = Path(tmp.name) / "ruslit.sverka"
        col = api.Collection(collection, api.Settings())
        t = time.perf_counter()
        col.add([str(f) for f in files[:-1]])
        print(f"  (indexed {len(files) - 1} files in {time.perf_counter() - t:.1f} s)")
    else:
        col = api.Collection(collection)
    orig = _read(held_out).split()
    picks = files[:-1]

    def suspect(seed: int) -> Document:
        rng = np.random.default_rng(seed)
        chosen = rng.choice(len(picks), 5, replace=False)
        frags = [(str(k), fragment(_read(picks[k]), 900, rng)) for k in chosen.tolist()]
        at = int(rng.integers(0, max(1, len(orig) - 4500)))
        originals = [" ".join(orig[at + k * 700 : at + (k + 1) * 700]) for k in range(6)]
        text, _ = splice(originals, frags)
        return Document(text[:50_000], title=f"suspect {seed}")

    col.check(suspect(0))  # warm: dictionaries, SQLite pages; every timed suspect is new
    ref = ref5gram.Collection()
    for f in files[:-1]:
        ref.add(str(f), _read(f))
    by_name = dict(zip(ref.names, ref.texts))
    # the reference's index (millions of Python objects living to the end) out of the garbage
    # collector's sight: else each full collection during a timed check, Sverka's or the
    # reference's, walks them all (a cost of this process, not of either checker)
    gc.collect()
    gc.freeze()
    times, cpu, ref_times, off_times, off_cpu = [], [], [], [], []
    off = col.settings.replace(find_by_meaning=False)
    on = col.settings.replace(meaning_second_judge=second_judge)
    if meaning:
        col.check(suspect(0), settings=off)
    from sverka.core import meaning as meaning_module

    judged = meaning_module.second_judge_encoded
    LAYER.update(cpu=0.0, calls=0)
    asked = _record_vector_reads(col) if meaning else []
    for seed in range(1, suspects + 1):
        doc = suspect(seed)
        if meaning:
            t, c = time.perf_counter(), time.process_time()
            col.check(doc, settings=off)
            off_times.append(time.perf_counter() - t)
            off_cpu.append(time.process_time() - c)
        if forget and hasattr(layer, "kept_vectors"):  # a code of before 2026-11-28 keeps none
            layer.kept_vectors.clear()
        t, c = time.perf_counter(), time.process_time()
        r = col.check(doc, settings=on)
        times.append(time.perf_counter() - t)
        cpu.append(time.process_time() - c)
        t = time.perf_counter()
        for name, _ in ref.check(doc.text)[:10]:
            ref5gram.spans(doc.text, by_name[name])
        ref_times.append(time.perf_counter() - t)
    text = doc.text
    reads = _replay_vector_reads(col, asked, suspects)
    col.close()
    if tmp:
        tmp.cleanup()
    return {"suspect_chars": len(text), "sources": len(r.sources), "borrowed": r.borrowed_percent,
            "seconds": statistics.median(times), "cpu": statistics.median(cpu), "ref": statistics.median(ref_times),
            "suspects": suspects, "off": statistics.median(off_times) if off_times else None,
            "off_cpu": statistics.median(off_cpu) if off_cpu else None,
            "by_meaning": sum(1 for s in r.sources for p in s.passages if p.method == "meaning"),
            "second_judge": (meaning_module.second_judge_encoded - judged) / suspects, "vector_reads": reads}


def _record_vector_reads(col) -> list:
    """The keys of every ``vectors_at`` call of the collection's store from now on (the vector
    index's hits a check reads), recorded as the calls pass."""
    store, asked = col.index, []
    read = store.vectors_at

    def recording(keys):
        asked.append(list(keys))
        return read(keys)

    store.vectors_at = recording
    return asked


def _replay_vector_reads(col, asked: list, checks: int) -> dict | None:
    """The recorded hits read again, alternating: by the store (one query a call) and one query
    a hit (as before 2026-11-29): CPU seconds a check (medians of 3), the same rows both ways."""
    store = col.index
    if not asked or not hasattr(store, "_db"):
        return None
    store.vectors_at = type(store).vectors_at.__get__(store)

    def one_a_hit(keys):
        out = {}
        for d, k in keys:
            row = store._db.execute("SELECT start, stop, vector FROM sentence_vectors WHERE doc_id=? AND idx=?",
                                    (int(d), int(k))).fetchone()
            if row is not None:
                out[(int(d), int(k))] = row
        return out

    times = {"store": [], "one a hit": []}
    for _ in range(3):
        for name, read in (("store", store.vectors_at), ("one a hit", one_a_hit)):
            t = time.process_time()
            got = [read(keys) for keys in asked]
            times[name].append((time.process_time() - t) / checks)
            assert all(len(g) == len(one_a_hit(keys)) for g, keys in zip(got, asked))
    return {"hits": sum(map(len, asked)) / checks, "calls": len(asked) / checks,
            **{k: statistics.median(v) for k, v in times.items()}}


def bench_compare(size: int = 1_000_000) -> dict:
    from sverka.core import api
    from sverka.core.document import Document

    big = sorted(_files(), key=lambda f: -f.stat().st_size)
    a = _head(_read(big[0]), size)
    b = _head(_read(big[1]) + _read(big[2]), size // 2) + _head(a, size // 2)
    from sverka.core.check import compare_prepared, prepare

    api.warm_up()
    settings = api.Settings()
    t0 = time.perf_counter()
    pa, pb = prepare(Document(a), settings), prepare(Document(b), settings)
    t1 = time.perf_counter()
    r = compare_prepared(pa, pb, settings)
    t2 = time.perf_counter()
    ref5gram.spans(a, b)
    t3 = time.perf_counter()
    return {"chars": (len(a), len(b)), "bytes": size, "borrowed": r.borrowed_percent,
            "seconds": t2 - t0, "canonize": t1 - t0, "match": t2 - t1, "ref": t3 - t2}


def _head(text: str, size: int) -> str:
    """The longest start of ``text`` whose UTF-8 encoding fits in ``size`` bytes."""
    return text.encode("utf-8")[:size].decode("utf-8", "ignore")


def bench_crosscheck(n: int = 300, size: int = 20_000) -> dict:
    from sverka.core import api
    from sverka.core.document import Document

    texts = [_read(f) for f in _files()]
    rng = np.random.default_rng(2)
    docs = []
    pool = " ".join(texts)
    for k in range(n):
        start = int(rng.integers(0, len(pool) - size))
        body = pool[start : start + size]
        if k % 10 == 0 and docs:  # every tenth document copies a part of an earlier one
            other = docs[int(rng.integers(len(docs)))].text
            body = body[: size // 2] + other[: size // 2]
        docs.append(Document(body, title=f"doc{k:03d}"))
    api.warm_up()
    t = time.perf_counter()
    r = api.crosscheck(docs)
    seconds = time.perf_counter() - t
    # peak resident memory so far of this process (the compare part, when it ran first,
    # included) and of the largest worker process that has ended (the cross-check's pool)
    peak, worker = (resource.getrusage(who).ru_maxrss // 1024
                    for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN))
    t = time.perf_counter()  # the reference: every document's 5-grams indexed, each pair found marked
    ref = ref5gram.Collection()
    for k, d in enumerate(docs):
        ref.add(str(k), d.text)
    ref_pairs = 0
    for k, d in enumerate(docs):
        for name, _ in ref.check(d.text):
            if int(name) > k:
                ref5gram.spans(d.text, docs[int(name)].text)
                ref_pairs += 1
    return {"documents": n, "pairs": len(r.pairs), "seconds": seconds, "peak_mb": peak, "worker_mb": worker,
            "ref": time.perf_counter() - t, "ref_pairs": ref_pairs}


def _python_paraphrase() -> None:
    """The check runs the Python paraphrase layer (the oracle of the engine's), with its own
    statistics made once per source and suspect as the check keeps the engine's."""
    import weakref

    sys.path.insert(0, str(ROOT / "tests" / "core"))
    import paraphrase_oracle
    from sverka.core import check

    stats: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
    keys: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()

    def layer(a, b, exact, *, min_words, a_word_starts, b_stats=None, a_keys=None):
        if b_stats is not None and b_stats not in stats:
            whole = (b_stats.values, b_stats.counts, b_stats.n_sentences, b_stats.whole_tokens) \
                if b_stats.whole_tokens else None
            stats[b_stats] = paraphrase_oracle.SourceStats.of(b, None if whole else b_stats.order, whole)
        if a_keys is not None and a_keys not in keys:
            keys[a_keys] = paraphrase_oracle.suspect_keys(a)
        return paraphrase_oracle.paraphrase_passages(
            a, b, exact, min_words=min_words, a_word_starts=a_word_starts,
            b_stats=None if b_stats is None else stats[b_stats], a_keys=None if a_keys is None else keys[a_keys])

    check.paraphrase_passages = layer


#: CPU seconds spent in the paraphrase layer, and its calls (--time-layer).
LAYER = {"cpu": 0.0, "calls": 0}


def _time_layer() -> None:
    from sverka.core import check, morph

    morph.lemmas_of("столы", "ru")  # pymorphy3 loaded (~0.1 s once a process), not timed as the layer's

    layer = check.paraphrase_passages

    def timed(*args, **kwargs):
        c = time.process_time()
        try:
            return layer(*args, **kwargs)
        finally:
            LAYER["cpu"] += time.process_time() - c
            LAYER["calls"] += 1

    check.paraphrase_passages = timed


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--collection", type=Path, default=None, help="an existing index of ruslit")
    ap.add_argument("--skip-index", action="store_true", help="skip the check benchmark")
    ap.add_argument("--skip-crosscheck", action="store_true", help="skip the cross-check benchmark")
    ap.add_argument("--skip-compare", action="store_true",
                    help="skip the compare benchmark (an engine of before 2026-11-23 has no compare_prepared)")
    ap.add_argument("--suspects", type=int, default=5, help="suspects checked one after another (median)")
    ap.add_argument("--meaning", action="store_true", help="also check each suspect with the meaning layer off")
    ap.add_argument("--no-second-judge", action="store_true",
                    help="the meaning layer without its second judge (Settings.meaning_second_judge off)")
    ap.add_argument("--forget-kept", action="store_true",
                    help="the process's kept sentence vectors forgotten before each check: each is a new essay's "
                         "(the suspects share most of their own text, the held-out file's, whose vectors are kept "
                         "from one check to the next otherwise)")
    ap.add_argument("--without-paraphrase", action="store_true",
                    help="to split the cost only: the paraphrase layer replaced by one that returns the exact "
                         "passages (in this process; needs --skip-crosscheck, whose workers would still run it)")
    ap.add_argument("--python-paraphrase", action="store_true",
                    help="the paraphrase layer's Python matching it had before the engine (tests/core/"
                         "paraphrase_oracle.py), to time the two in one build (needs --skip-crosscheck)")
    ap.add_argument("--time-layer", action="store_true",
                    help="also the CPU time of the paraphrase layer (check's paraphrase_passages) per check; the "
                         "dictionary its labels may ask is loaded beforehand, as in a process that labelled before")
    args = ap.parse_args(argv)
    if args.python_paraphrase:
        if not args.skip_crosscheck:
            ap.error("--python-paraphrase needs --skip-crosscheck")
        _python_paraphrase()
        print("the paraphrase layer's matching is the Python one it had before the engine")
    if args.without_paraphrase:
        if not args.skip_crosscheck:
            ap.error("--without-paraphrase needs --skip-crosscheck")
        from sverka.core import check

        check.paraphrase_passages = lambda a, b, exact, **kw: exact
        print("the paraphrase layer is off (its cost split from the rest; not a result Sverka gives)")
    if args.time_layer:
        _time_layer()
    if not RUSLIT.is_dir():
        print(f"ruslit not found at {RUSLIT}")
        return 1
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs at the start")
    r = bench_compare() if not args.skip_compare else None
    if r:
        print(f"compare two texts of {r['bytes'] / 1e6:g} MB UTF-8 ({r['chars'][0]} and {r['chars'][1]} characters): "
              f"{r['seconds']:.2f} s = canonization and fingerprints {r['canonize']:.2f} s "
              f"+ alignment and scores {r['match']:.2f} s (borrowed {r['borrowed']:.1f} %); "
              f"reference {r['ref']:.2f} s; ratio {r['seconds'] / r['ref']:.2f}")
    r = bench_crosscheck() if not args.skip_crosscheck else None
    if r:
        print(f"cross-check {r['documents']} documents of 20 000 characters: {r['seconds']:.2f} s "
              f"({r['pairs']} pairs listed; peak RSS {r['peak_mb']} MB, largest worker {r['worker_mb']} MB); "
              f"reference {r['ref']:.2f} s ({r['ref_pairs']} pairs marked); ratio {r['seconds'] / r['ref']:.2f}")
    if not args.skip_index:
        r = bench_check(args.collection, args.suspects, args.meaning, args.forget_kept, not args.no_second_judge)
        print(f"  the second judge (e5, Settings.meaning_second_judge {'off' if args.no_second_judge else 'on'}) "
              f"encoded {r['second_judge']:.1f} sentences a check")
        if r["off"] is not None:
            print(f"  without the meaning layer: {r['off']:.3f} s warm, CPU {r['off_cpu']:.3f} s; ratio "
                  f"{r['off'] / r['ref']:.2f}; the layer adds {r['seconds'] - r['off']:.3f} s "
                  f"(CPU {r['cpu'] - r['off_cpu']:.3f} s); {r['by_meaning']} passages by meaning in the last suspect")
        if r.get("vector_reads"):
            v = r["vector_reads"]
            print(f"  the vector index's hits read from the store: {v['hits']:.0f} in {v['calls']:.0f} calls a check, "
                  f"CPU {v['store'] * 1e3:.2f} ms a check in one query a call, {v['one a hit'] * 1e3:.2f} ms one query a hit")
        print(f"check a suspect of {r['suspect_chars']} characters against all ruslit: {r['seconds']:.3f} s warm, "
              f"CPU {r['cpu']:.3f} s (median of {r['suspects']}; {r['sources']} sources, borrowed {r['borrowed']:.1f} %); "
              f"reference {r['ref']:.3f} s (check and mark its 10 best sources); ratio {r['seconds'] / r['ref']:.2f}")
        if args.time_layer:
            print(f"  the paraphrase layer: CPU {LAYER['cpu'] / args.suspects * 1e3:.1f} ms a check "
                  f"({LAYER['calls'] / args.suspects:.0f} pairs a check)")
    print(f"load average {os.getloadavg()[0]:.1f} at the end")
    return 0


if __name__ == "__main__":
    sys.exit(main())
