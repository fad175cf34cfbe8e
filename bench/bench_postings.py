"""How a check should read its candidates' postings: SQLite's per-key lookups against the
alternatives, each figure beside the reference script's (bench/ref5gram.py) from the same run.

    .venv/bin/python bench/bench_postings.py [--collection PATH] [--suspects N] [--repeat K]

The suspects are bench_check.py's (50 KB: fragments of five ruslit files plus text of a file
left out), their keys looked up in an index of all of ruslit (``--collection``: an existing
one, copied first, since the alternatives add tables to it; built in a temporary folder when
missing). For each suspect: its pair keys and its synonym variants' pair keys, its sentence
keys, exactly as ``candidates.retrieve`` asks for them. Ways of reading the same rows:

* ``per_key``: today's store, ``SELECT hash, doc_id, pos FROM pairs WHERE hash IN (...)``,
  fetched as Python tuples (what ``SQLiteStore.pair_postings`` does);
* ``packed``: one row per key holding its doc ids and positions as two blobs
  (``pair_lists(hash PRIMARY KEY, docs BLOB, pos BLOB)``), read the same way;
* ``temp_join``: the keys inserted in a temporary table, joined with ``pairs``;
* ``sidecar_numpy``: the postings as sorted arrays in files beside the collection (keys,
  offsets, doc ids, positions), memory-mapped and searched by ``np.searchsorted``;
* ``postings_file``: Sverka's postings file (``sverka.core.store.postings``), searched by the
  engine: what a check now reads (the store's ``pair_postings`` with the file in place); its
  one-time build from the tables is timed too (what the first check after a change made by an
  earlier Sverka pays);
* ``rank_engine`` / ``rank_python``: the ranking of the rows read (``candidates.rank`` with
  exact keys) by the engine and by the Python it replaced (tests/core/candidates_oracle.py).

Every way must return the same rows (checked). The reference's time is its check of the same
suspect (look up, then mark the shared 5-grams of its 10 best sources), as bench_check.py
measures it. Times are medians over suspects of the best of ``--repeat`` reads (warm pages).
"""

from __future__ import annotations

import argparse
import shutil
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "core"))
import bench_check  # noqa: E402
import ref5gram  # noqa: E402
from _corpus import fragment, splice  # noqa: E402


def _suspects(n: int):
    from sverka.core.document import Document

    files = bench_check._files()
    orig = bench_check._read(files[-1]).split()
    picks = files[:-1]
    out = []
    for seed in range(1, n + 1):
        rng = np.random.default_rng(seed)
        chosen = rng.choice(len(picks), 5, replace=False)
        frags = [(str(k), fragment(bench_check._read(picks[k]), 900, rng)) for k in chosen.tolist()]
        at = int(rng.integers(0, max(1, len(orig) - 4500)))
        originals = [" ".join(orig[at + k * 700 : at + (k + 1) * 700]) for k in range(6)]
        text, _ = splice(originals, frags)
        out.append(Document(text[:50_000], title=f"suspect {seed}"))
    return out


def _sorted_rows(rows):
    h, d, p = (np.asarray(x) for x in rows)
    o = np.lexsort((p, d, h))
    return h[o].astype(np.uint64), d[o].astype(np.int64), p[o].astype(np.int64)


def _same(a, b) -> bool:
    return all(np.array_equal(x, y) for x, y in zip(_sorted_rows(a), _sorted_rows(b)))


def _build_packed(db: sqlite3.Connection, table: str) -> float:
    t = time.perf_counter()
    db.execute(f"DROP TABLE IF EXISTS {table}_lists")
    db.execute(f"CREATE TABLE {table}_lists(hash INTEGER PRIMARY KEY, docs BLOB NOT NULL, pos BLOB NOT NULL)")
    rows = np.array(db.execute(f"SELECT hash, doc_id, pos FROM {table} ORDER BY hash, doc_id, pos").fetchall(),
                    dtype=np.int64).reshape(-1, 3)
    h = rows[:, 0]
    cuts = np.flatnonzero(np.concatenate(([True], h[1:] != h[:-1], [True])))
    docs, pos = rows[:, 1].astype(np.int32), rows[:, 2].astype(np.int32)
    db.execute("BEGIN")
    db.executemany(f"INSERT INTO {table}_lists VALUES(?,?,?)",
                   ((int(h[a]), docs[a:b].tobytes(), pos[a:b].tobytes()) for a, b in zip(cuts[:-1], cuts[1:])))
    db.execute("COMMIT")
    return time.perf_counter() - t


def _packed(db: sqlite3.Connection, table: str, hashes: np.ndarray, max_posting: int):
    hs, ds, ps = [], [], []
    values = np.unique(hashes.view(np.int64)).tolist()
    for k in range(0, len(values), 30_000):
        chunk = values[k:k + 30_000]
        for h, d, p in db.execute(f"SELECT hash, docs, pos FROM {table}_lists WHERE hash IN "
                                  f"({','.join('?' * len(chunk))})", chunk):
            if max_posting and len(d) // 4 > max_posting:
                continue
            dd = np.frombuffer(d, np.int32)
            hs.append(np.full(len(dd), h, np.int64))
            ds.append(dd)
            ps.append(np.frombuffer(p, np.int32))
    if not hs:
        return np.zeros(0, np.uint64), np.zeros(0, np.int64), np.zeros(0, np.int64)
    return (np.concatenate(hs).view(np.uint64), np.concatenate(ds).astype(np.int64),
            np.concatenate(ps).astype(np.int64))


def _temp_join(db: sqlite3.Connection, table: str, hashes: np.ndarray, max_posting: int):
    db.execute("CREATE TEMP TABLE IF NOT EXISTS q(hash INTEGER PRIMARY KEY)")
    db.execute("DELETE FROM q")
    db.executemany("INSERT OR IGNORE INTO q VALUES(?)", ((v,) for v in hashes.view(np.int64).tolist()))
    rows = db.execute(f"SELECT t.hash, t.doc_id, t.pos FROM q JOIN {table} t ON t.hash = q.hash").fetchall()
    a = np.fromiter((v for r in rows for v in r), np.int64, 3 * len(rows)).reshape(-1, 3)
    if max_posting and len(a):
        _, inv, cnt = np.unique(a[:, 0], return_inverse=True, return_counts=True)
        a = a[cnt[inv] <= max_posting]
    return a[:, 0].view(np.uint64), a[:, 1], a[:, 2]


def _build_sidecar(db: sqlite3.Connection, table: str, folder: Path) -> float:
    t = time.perf_counter()
    rows = np.array(db.execute(f"SELECT hash, doc_id, pos FROM {table}").fetchall(), dtype=np.int64).reshape(-1, 3)
    h = rows[:, 0].view(np.uint64)
    o = np.lexsort((rows[:, 2], rows[:, 1], h))
    h = h[o]
    keys, first = np.unique(h, return_index=True)
    np.save(folder / f"{table}_keys.npy", keys)
    np.save(folder / f"{table}_offsets.npy", np.append(first, len(h)).astype(np.int64))
    np.save(folder / f"{table}_docs.npy", rows[o, 1].astype(np.int32))
    np.save(folder / f"{table}_pos.npy", rows[o, 2].astype(np.int32))
    return time.perf_counter() - t


class _Sidecar:
    def __init__(self, folder: Path, table: str) -> None:
        self.keys = np.load(folder / f"{table}_keys.npy", mmap_mode="r")
        self.offsets = np.load(folder / f"{table}_offsets.npy", mmap_mode="r")
        self.docs = np.load(folder / f"{table}_docs.npy", mmap_mode="r")
        self.pos = np.load(folder / f"{table}_pos.npy", mmap_mode="r")

    def lookup(self, hashes: np.ndarray, max_posting: int):
        q = np.unique(hashes)
        at = np.searchsorted(self.keys, q)
        valid = at < len(self.keys)
        at, q = at[valid], q[valid]
        found = at[np.asarray(self.keys[at]) == q]
        lo, hi = self.offsets[found], self.offsets[found + 1]
        n = hi - lo
        if max_posting:
            keep = n <= max_posting
            found, lo, n = found[keep], lo[keep], n[keep]
        idx = np.repeat(lo - np.cumsum(n) + n, n) + np.arange(int(n.sum()))
        return (np.repeat(np.asarray(self.keys)[found], n), np.asarray(self.docs[idx], np.int64),
                np.asarray(self.pos[idx], np.int64))


def _best(f, repeat: int) -> tuple[float, object]:
    best, out = float("inf"), None
    for _ in range(repeat):
        t = time.perf_counter()
        out = f()
        best = min(best, time.perf_counter() - t)
    return best, out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--collection", type=Path, default=None, help="an existing index of ruslit (copied)")
    ap.add_argument("--suspects", type=int, default=5)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args(argv)

    from sverka.core import api
    from sverka.core.candidates import MAX_POSTING, rank, sentence_bounds
    from sverka.core.check import prepare
    from sverka.core.keys import PAIR_WORDS
    from sverka.core.store.sqlite import SQLiteStore
    from sverka.core.align import SOURCE_WINDOW

    tmp = tempfile.TemporaryDirectory()
    folder = Path(tmp.name)
    path = folder / "ruslit.sverka"
    files = bench_check._files()
    if args.collection and args.collection.exists():
        shutil.copy(args.collection, path)
    else:
        col = api.Collection(path, api.Settings())
        col.add([str(f) for f in files[:-1]])
        col.close()
    settings = api.Settings()
    store = SQLiteStore(path)
    db = sqlite3.connect(str(path), isolation_level=None)
    db.execute("PRAGMA cache_size=-65536")
    builds = {"packed": _build_packed(db, "pairs") + _build_packed(db, "sentences"),
              "sidecar": _build_sidecar(db, "pairs", folder) + _build_sidecar(db, "sentences", folder)}
    side = {t: _Sidecar(folder, t) for t in ("pairs", "sentences")}
    rows_total = db.execute("SELECT (SELECT count(*) FROM pairs) + (SELECT count(*) FROM sentences)").fetchone()[0]

    ref = ref5gram.Collection()
    for f in files[:-1]:
        ref.add(str(f), bench_check._read(f))
    by_name = dict(zip(ref.names, ref.texts))

    import candidates_oracle

    def file_lookup(t, h):  # as a check asks: the file judged by PRAGMA data_version, then searched
        return store.pair_postings(h, max_posting=MAX_POSTING) if t == "pairs" else \
            store.sentence_postings(h, max_posting=MAX_POSTING)

    t = time.perf_counter()
    assert store._current_postings() is not None
    builds["postings_file"] = time.perf_counter() - t
    print(f"collection: {store.count()} documents, {rows_total} key rows; one-time builds: "
          + ", ".join(f"{k} {v:.2f} s" for k, v in builds.items()))
    ways = {
        "per_key": lambda t, h: store.postings_from_tables(t, h, MAX_POSTING),
        "packed": lambda t, h: _packed(db, t, h, MAX_POSTING),
        "temp_join": lambda t, h: _temp_join(db, t, h, MAX_POSTING),
        "sidecar_numpy": lambda t, h: side[t].lookup(h, MAX_POSTING),
        "postings_file": file_lookup,
    }
    ranks = {"rank_engine": rank, "rank_python": candidates_oracle.rank}
    times: dict[str, list[float]] = {k: [] for k in [*ways, *ranks, "ref"]}
    rows_read = []
    gap = settings.max_gap_words
    for doc in _suspects(args.suspects):
        a = prepare(doc, settings)
        pairs = np.unique(np.concatenate([a.pairs[0], a.variant_pairs[0]]))
        sents = np.unique(a.sentences[0])
        answers = {}
        for name, way in ways.items():
            way("pairs", pairs)  # pages warm for every way alike
            sec, got = _best(lambda: (way("pairs", pairs), way("sentences", sents)), args.repeat)
            times[name].append(sec)
            answers[name] = got
        for name, got in answers.items():
            for k in range(2):
                if not _same(got[k], answers["per_key"][k]):
                    raise SystemExit(f"{name} read other rows than per_key")
        rows_read.append(len(answers["per_key"][0][0]) + len(answers["per_key"][1][0]))
        pr, sr = answers["per_key"]
        near = dict(near_suspect=gap + PAIR_WORDS + 1, near_source=gap * SOURCE_WINDOW + 2 * PAIR_WORDS + 2,
                    limit=settings.max_candidates, sentence_bounds=sentence_bounds(a.tokens))
        results = {}
        for name, f in ranks.items():
            sec, results[name] = _best(lambda: f(a.pairs, pr, a.sentences, sr, **near), args.repeat)
            times[name].append(sec)
        assert results["rank_engine"] == results["rank_python"]
        t = time.perf_counter()
        for name, _ in ref.check(doc.text)[:10]:
            ref5gram.spans(doc.text, by_name[name])
        times["ref"].append(time.perf_counter() - t)
    ref_s = statistics.median(times["ref"])
    print(f"{args.suspects} suspects of 50 KB, median rows read {int(statistics.median(rows_read))}; "
          f"reference check {ref_s * 1000:.1f} ms")
    for name in [*ways, *ranks]:
        s = statistics.median(times[name])
        print(f"  {name:10s} {s * 1000:7.2f} ms   {s / ref_s:.3f}x ref")
    db.close()
    store.close()
    tmp.cleanup()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
