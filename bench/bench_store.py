"""The two stores side by side: the same collection on SQLite and on PostgreSQL, each figure
beside the reference script's (bench/ref5gram.py) from the same run.

    .venv/bin/python bench/bench_store.py [--pg URL] [--files N] [--checks 5]

Without ``--pg`` a throw-away PostgreSQL server with its default (durable) settings is
started on this machine (tests/store/pgserver.py; Debian's ``postgresql`` package), so the
client and the server share the same two cores: a department's server is another machine.

* prepare: every ruslit file read, canonized and fingerprinted ONCE, in this process (not
  timed as a store figure: the same for both stores);
* write: those prepared documents written by ``write_batch`` in batches of 50 (what
  ``sverka index`` does after its workers), then ``analyze``: documents/s and rows/s;
* postings: the retrieval queries of a 50 KB suspect (pair and sentence keys, capped);
* check: a 50 KB suspect (fragments of five ruslit files plus text of a held-out file),
  warm, each suspect new, median of ``--checks``;
* reference: ref5gram indexes the same texts, and finds + marks the 10 best sources of the
  same suspects.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "tests" / "store"))
import ref5gram  # noqa: E402
from _corpus import fragment, splice  # noqa: E402

RUSLIT = HERE.parents[1] / "shared" / "data" / "ruslit"
BATCH = 50


def _suspects(texts: list[str], held_out: str, n: int):
    from sverka.core.document import Document

    orig = held_out.split()
    out = []
    for seed in range(n + 1):
        rng = np.random.default_rng(seed)
        chosen = rng.choice(len(texts), 5, replace=False)
        frags = [(str(k), fragment(texts[k], 900, rng)) for k in chosen.tolist()]
        at = int(rng.integers(0, max(1, len(orig) - 4500)))
        originals = [" ".join(orig[at + k * 700: at + (k + 1) * 700]) for k in range(6)]
        text, _ = splice(originals, frags)
        out.append(Document(text[:50_000], title=f"suspect {seed}"))
    return out  # [0] warms up


def _bench_store(name: str, location: str, prepared: list, suspects: list) -> dict:
    from sverka.core import api
    from sverka.core.candidates import MAX_POSTING
    from sverka.core.check import prepare
    from sverka.core.store import open_store

    rows = sum(len(p.pairs) + len(p.sentences) + len(p.short_words) for p in prepared)
    with open_store(location) as store:
        t = time.perf_counter()
        for k in range(0, len(prepared), BATCH):
            store.write_batch(prepared[k:k + BATCH])
        store.analyze()
        write = time.perf_counter() - t
    coll = api.Collection(location)
    coll.check(suspects[0])  # warm: dictionaries, pages, connection
    post, checks, found = [], [], None
    for doc in suspects[1:]:
        a = prepare(doc, coll.settings)
        t = time.perf_counter()
        coll.index.pair_postings(np.unique(a.pairs[0]), max_posting=MAX_POSTING)
        coll.index.sentence_postings(np.unique(a.sentences[0]), max_posting=MAX_POSTING)
        post.append(time.perf_counter() - t)
        t = time.perf_counter()
        r = coll.check(doc)
        checks.append(time.perf_counter() - t)
        found = r
    coll.close()
    return {"name": name, "write": write, "docs": len(prepared), "rows": rows,
            "postings": statistics.median(post), "check": statistics.median(checks),
            "sources": len(found.sources), "borrowed": found.borrowed_percent}


def _pg_size(url: str) -> float:
    """The database's size in MB; prints each table's rows and size (indexes and TOAST included)."""
    import psycopg

    with psycopg.connect(url) as conn:
        parts = []
        for t in ("documents", "document_data", "pairs", "sentences", "short_words"):
            n = conn.execute(f"SELECT count(*) FROM {t}").fetchone()[0]
            size = conn.execute("SELECT pg_total_relation_size(%s)", (t,)).fetchone()[0]
            parts.append(f"{t} {n} rows {size / 1e6:.1f} MB")
        print("PostgreSQL tables: " + "; ".join(parts))
        return conn.execute("SELECT pg_database_size(current_database())").fetchone()[0] / 1e6


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pg", help="an empty PostgreSQL database to use (default: start a throw-away server)")
    ap.add_argument("--files", type=int, default=0, help="use only the first N ruslit files (0: all)")
    ap.add_argument("--checks", type=int, default=5)
    args = ap.parse_args()
    if not RUSLIT.is_dir():
        print(f"corpus not found: {RUSLIT}", file=sys.stderr)
        return 2
    from sverka.core import preparing
    from sverka.core.extract import extract
    from sverka.core.fingerprints import fingerprint_document
    from sverka.core.settings import Settings
    from sverka.core.text import canonize

    files = sorted(RUSLIT.rglob("*.txt"))
    if args.files:
        files = files[:args.files + 1]
    held_out, files = files[-1], files[:-1]
    t = time.perf_counter()
    docs = [extract(str(f)) for f in files]
    settings = Settings()
    prepared = []
    for f, d in zip(files, docs):
        tokens = canonize(d.text)
        prepared.append(preparing.prepare(d, tokens, fingerprint_document(tokens, settings), path=str(f)))
    print(f"{len(files)} ruslit files, {sum(len(d.text) for d in docs) / 1e6:.1f} M characters, prepared in "
          f"{time.perf_counter() - t:.1f} s; {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f}")
    texts = [d.text for d in docs]
    suspects = _suspects(texts, extract(str(held_out)).text, args.checks)

    server = None
    url = args.pg
    if url is None:
        from pgserver import PostgresServer, binaries

        bindir = binaries()
        if bindir is None:
            print("PostgreSQL server binaries not found (apt-get install postgresql) and no --pg given",
                  file=sys.stderr)
            return 2
        server = PostgresServer(bindir, Path(tempfile.mkdtemp(prefix="sverka-bench-pg-")))
        server.start(durable=True)
        url = server.create_database()
    try:
        with tempfile.TemporaryDirectory() as tmp:
            lite = _bench_store("SQLite", str(Path(tmp) / "bench.sverka"), prepared, suspects)
            lite["size"] = sum(p.stat().st_size for p in Path(tmp).iterdir()) / 1e6
        pg = _bench_store("PostgreSQL", url, prepared, suspects)
        pg["size"] = _pg_size(url)
    finally:
        if server is not None:
            server.stop()
            import shutil

            shutil.rmtree(server.root, ignore_errors=True)

    t = time.perf_counter()
    ref = ref5gram.Collection()
    for f, text in zip(files, texts):
        ref.add(str(f), text)
    ref_index = time.perf_counter() - t
    by_name = dict(zip(ref.names, ref.texts))
    ref_checks = []
    for doc in suspects[1:]:
        t = time.perf_counter()
        for name, _ in ref.check(doc.text)[:10]:
            ref5gram.spans(doc.text, by_name[name])
        ref_checks.append(time.perf_counter() - t)
    ref_check = statistics.median(ref_checks)

    print(f"reference (ref5gram): indexes the texts in {ref_index:.2f} s; finds and marks a suspect in {ref_check:.3f} s")
    for r in (lite, pg):
        print(f"{r['name']:<10}  write {r['docs']} docs / {r['rows'] / 1e6:.2f} M rows in {r['write']:.2f} s "
              f"({r['docs'] / r['write']:.0f} docs/s, {r['rows'] / r['write'] / 1e6:.2f} M rows/s; "
              f"ratio to reference indexing {r['write'] / ref_index:.2f}); size {r['size']:.0f} MB; "
              f"postings {r['postings'] * 1000:.0f} ms; check {r['check']:.3f} s "
              f"(ratio {r['check'] / ref_check:.2f}; {r['sources']} sources, {r['borrowed']:.1f}% borrowed)")
    print(f"PostgreSQL / SQLite: write {pg['write'] / lite['write']:.2f}, postings {pg['postings'] / lite['postings']:.2f}, "
          f"check {pg['check'] / lite['check']:.2f}; load average {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
