"""A million essays on PostgreSQL: add throughput, size on disk and the check latency of a
50 KB essay, each figure beside the reference script's (bench/ref5gram.py) from the same run.

    nice -n 10 .venv/bin/python bench/bench_million.py --docs 1000000 --data /work/scale-data

The essays are synthetic (bench/_synthetic.py): ruslit prose canonized once, essays of
``--chars`` characters on average (half to one and a half times that) assembled from its
sentences with a share ``--novel`` of their inner words replaced, text and tokens agreeing
(a sample is canonized again and compared before anything is written). They are written by
the store protocol's ``write_batch`` in batches of ``--batch``, inside the PostgreSQL store's
``bulk_load`` (posting indexes built once at the end). A second process generates and
fingerprints the essays while the first writes.

Progress is kept in ``DATA/progress.json`` after every committed batch: run the same
command again after a crash (or with a larger ``--docs``) and it goes on where it stopped.
The server (Debian's PostgreSQL, started here as an unprivileged user, durable: fsync on)
keeps its data in ``DATA/pg``; ``--drop`` deletes DATA at the end.

Then, on the finished collection (run the command again to check it once more;
``--posting-cap N`` first sets the collection's own cap, see docs/SCALE.md):

* size: every table with its indexes, the database, the data folder;
* checks: suspects of 50 000 characters, each new, each made of a held-out ruslit prose file
  (not in the pool) with whole sentences of 5 known essays planted in it; reported: the
  planted essays found (and the share of each planted passage marked), the other sources,
  the time of the posting queries and of the whole check (``Collection.check``), cold (the
  first check after the server restarted: its shared buffers empty; the OS page cache is
  not dropped) and warm (median);
* reference: ref5gram indexes a sample of ``--sample`` essays (it keeps everything in
  memory: a million would not fit) and finds and marks the 10 best sources of the same
  suspects in that sample.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import multiprocessing as mp
import os
import shutil
import statistics
import sys
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "tests" / "store"))
import ref5gram  # noqa: E402
from _synthetic import Essays, build_pool, prose_files, verify  # noqa: E402

RUSLIT = HERE.parents[1] / "shared" / "data" / "ruslit"
HELD_OUT = 8  # the last prose files: the suspects' own text, never in the pool
#: Server settings for an import (fsync stays on; an index build writes no WAL with wal_level=minimal).
BULK_SETTINGS = {"shared_buffers": "2GB", "maintenance_work_mem": "2GB", "max_wal_size": "4GB",
                 "checkpoint_timeout": "30min", "wal_level": "minimal", "max_wal_senders": 0,
                 "synchronous_commit": "off", "max_parallel_maintenance_workers": 1, "work_mem": "64MB"}


def _names():
    """The prepared-document factory, the fingerprinter and the store opener."""
    from sverka.core.fingerprints import fingerprint_document
    from sverka.core.preparing import prepare
    from sverka.core.store import open_store

    return prepare, fingerprint_document, open_store


def _texts(files) -> list[str]:
    from sverka.core.extract import extract

    return [extract(str(f)).text for f in files]


def _generator(args, start: int, stop: int, settings, queue, part: int, parts: int) -> None:
    """Child process: pool, then batches ``part``, ``part + parts``, ... of prepared essays
    [start, stop) into ``queue``."""
    prepare, fingerprint_document, _ = _names()
    from sverka.core.document import Document

    files = prose_files(RUSLIT)[:-HELD_OUT]
    essays = Essays(build_pool(_texts(files), settings.drop_adjectives), chars=args.chars, novel=args.novel)
    for b in range(start + part * args.batch, stop, parts * args.batch):
        batch = []
        for n in range(b, min(b + args.batch, stop)):
            text, tokens = essays.essay(n)
            doc = Document(text, path=f"/archive/essay-{n:07d}.txt", title=f"essay {n}", format="txt")
            batch.append(prepare(doc, tokens, fingerprint_document(tokens, settings), path=doc.path))
        queue.put((n + 1, batch))
    queue.put(None)


def _server(data: Path):
    from pgserver import PostgresServer, binaries

    bindir = binaries()
    if bindir is None:
        raise SystemExit("PostgreSQL server binaries not found (apt-get install postgresql)")
    data.mkdir(parents=True, exist_ok=True)
    (data / "pg").mkdir(exist_ok=True)
    os.chmod(data, 0o755)
    server = PostgresServer(bindir, data / "pg")  # runs as nobody when we are root
    server.start(durable=True, settings=BULK_SETTINGS)
    return server


def _database(server, name: str = "million") -> str:
    import psycopg

    with psycopg.connect(server.url("postgres"), autocommit=True) as conn:
        if not conn.execute("SELECT 1 FROM pg_database WHERE datname=%s", (name,)).fetchone():
            conn.execute(f"CREATE DATABASE {name}")
    return server.url(name)


def build(args, url: str, progress_file: Path) -> dict:
    """Write essays until ``--docs`` are stored; progress kept after every batch."""
    _, _, open_store = _names()
    state = json.loads(progress_file.read_text()) if progress_file.exists() else \
        {"next": 0, "write_s": 0.0, "wall_s": 0.0, "rows": 0, "text_bytes": 0, "runs": []}
    with open_store(url) as store:
        settings = store.settings
        if state["next"] >= args.docs and not store.bulk_loading and "index_s" in state:
            return state
        if state["next"] < args.docs:
            ctx = mp.get_context("fork")
            queues = [ctx.Queue(maxsize=3) for _ in range(args.workers)]
            children = [ctx.Process(target=_generator, args=(args, state["next"], args.docs, settings, q, k, args.workers))
                        for k, q in enumerate(queues)]
            for c in children:
                c.start()
            store.begin_bulk_load()
            t_run = time.perf_counter()
            load = []
            turn = 0
            while True:
                item = queues[turn % len(queues)].get()  # batches in order: progress is a prefix
                turn += 1
                if item is None:
                    break
                nxt, batch = item
                t = time.perf_counter()
                out = store.write_batch(batch)
                dt = time.perf_counter() - t
                state["write_s"] += dt
                state["wall_s"] += time.perf_counter() - t_run
                t_run = time.perf_counter()
                state["rows"] += sum(len(p.pairs) + len(p.sentences) + len(p.short_words) for p in batch)
                state["text_bytes"] += sum(len(p.text_blob) + len(p.tokens_blob) for p in batch)
                state["next"] = nxt
                state.setdefault("statuses", {})
                for s, _, _ in out:
                    state["statuses"][s] = state["statuses"].get(s, 0) + 1
                tmp = progress_file.with_suffix(".tmp")
                tmp.write_text(json.dumps(state))
                tmp.replace(progress_file)
                if nxt % (20 * args.batch) == 0 or nxt == args.docs:
                    load.append(os.getloadavg()[0])
                    print(f"{nxt} essays, {state['rows'] / 1e6:.1f} M rows; write {state['write_s']:.0f} s "
                          f"({nxt / max(state['wall_s'], 1e-9):.0f} essays/s wall); load {load[-1]:.1f}; "
                          f"{_du(progress_file.parent / 'pg') / 1e9:.1f} GB on disk, "
                          f"{shutil.disk_usage(progress_file.parent).free / 1e9:.0f} GB free", flush=True)
                    if shutil.disk_usage(progress_file.parent).free < args.reserve * 1e9:
                        print(f"stopping: less than {args.reserve} GB of disk left", flush=True)
                        break
            for c in children:
                c.kill()
                c.join()
            state["runs"].append({"docs": args.docs, "load_max": max(load, default=0), "load_mean": statistics.mean(load) if load else 0})
        t = time.perf_counter()
        store.end_bulk_load()
        state["index_s"] = time.perf_counter() - t
        state["index_load"] = os.getloadavg()[0]
        progress_file.write_text(json.dumps(state))
        print(f"posting indexes built and analyzed in {state['index_s']:.0f} s", flush=True)
    return state


def _du(folder: Path) -> int:
    return sum(f.stat().st_size for f in folder.rglob("*") if f.is_file())


def sizes(url: str, data: Path) -> dict:
    import psycopg

    out = {}
    with psycopg.connect(url) as conn:
        for t in ("documents", "document_data", "pairs", "sentences", "short_words"):
            n = conn.execute(f"SELECT reltuples::bigint FROM pg_class WHERE relname=%s", (t,)).fetchone()[0]
            heap = conn.execute("SELECT pg_table_size(%s)", (t,)).fetchone()[0]
            idx = conn.execute("SELECT pg_indexes_size(%s)", (t,)).fetchone()[0]
            out[t] = {"rows": int(n), "table_MB": heap / 1e6, "indexes_MB": idx / 1e6}
        out["database_GB"] = conn.execute("SELECT pg_database_size(current_database())").fetchone()[0] / 1e9
    out["folder_GB"] = _du(data / "pg") / 1e9
    return out


def suspects(essays: Essays, docs: int, count: int) -> list[tuple[str, list[tuple[int, int, int]]]]:
    """``count`` + 1 suspects of 50 000 characters: (text, [(essay, start, end) planted])."""
    originals = _texts(prose_files(RUSLIT)[-HELD_OUT:])
    out = []
    for k in range(count + 1):
        rng = np.random.default_rng([7, k])
        own = originals[k % len(originals)]
        planted_ids = sorted(rng.choice(docs, 5, replace=False).tolist())
        parts, planted = [], []
        for n in planted_ids:
            text, tok = essays.essay(n)
            spans = tok.sentence_spans
            a = int(rng.integers(0, max(1, len(spans) // 3)))
            b = a
            while b < len(spans) and spans[b][1] - spans[a][0] < 1500:
                b += 1
            parts.append((n, text[spans[a][0]:spans[min(b, len(spans) - 1)][1]]))
        room = 50_000 - sum(len(p) + 2 for _, p in parts)
        at = int(rng.integers(0, max(1, len(own) - room)))
        mine = own[at:at + room]
        cut = [0] + sorted(rng.choice(np.arange(1, len(mine)), 5, replace=False).tolist()) + [len(mine)]
        # cut the own text at spaces only
        cut = [0] + [mine.find(" ", c) if mine.find(" ", c) > 0 else c for c in cut[1:-1]] + [len(mine)]
        text, pos = "", 0
        for j in range(6):
            text += mine[cut[j]:cut[j + 1]].strip() + "\n\n"
            if j < 5:
                n, p = parts[j]
                planted.append((n, len(text), len(text) + len(p)))
                text += p + "\n\n"
        out.append((text, planted))
    return out


def _found(result, planted) -> tuple[int, float, int, list[str]]:
    """(planted essays among the sources, share of planted characters marked, other sources, their titles)."""
    by_essay = {}
    for s in result.sources:
        if s.path and "essay-" in s.path:
            by_essay[int(s.path.rsplit("-", 1)[1].split(".")[0])] = s
    found, marked, total = 0, 0, 0
    for n, a, b in planted:
        total += b - a
        s = by_essay.get(n)
        if s is None:
            continue
        found += 1
        iv = sorted((max(a, p.suspect_start), min(b, p.suspect_end)) for p in s.passages if p.excluded is None)
        last = a
        for x, y in iv:
            if y > x and y > last:
                marked += y - max(x, last)
                last = y
    others = [s.title for s in result.sources if not any(s is by_essay.get(n) for n, _, _ in planted)]
    return found, marked / max(total, 1), len(others), others[:5]


def _server_cpu(url: str) -> float:
    """CPU seconds (user + system) the server has spent so far for Sverka's connections to the
    database of ``url`` (their backends' /proc entries; the server runs on this machine)."""
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        pids = [r[0] for r in conn.execute(
            "SELECT pid FROM pg_stat_activity WHERE application_name = 'Sverka' AND datname = current_database()")]
    total = 0.0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


class _Parts:
    """Wall time of a check's retrieval and of its meaning layer (the functions check.py calls,
    wrapped while the checks run)."""

    def __init__(self) -> None:
        from sverka.core import check as check_module

        self.module = check_module
        self.saved = {name: getattr(check_module, name) for name in ("retrieve", "add_meaning")}
        self.spent = dict.fromkeys(self.saved, 0.0)
        for name, fn in self.saved.items():
            setattr(check_module, name, self._timed(name, fn))

    def _timed(self, name, fn):
        def timed(*args, **kwargs):
            t = time.perf_counter()
            try:
                return fn(*args, **kwargs)
            finally:
                self.spent[name] += time.perf_counter() - t
        return timed

    def take(self) -> dict[str, float]:
        out, self.spent = self.spent, dict.fromkeys(self.saved, 0.0)
        return out

    def restore(self) -> None:
        for name, fn in self.saved.items():
            setattr(self.module, name, fn)


def checks(url: str, server, essays: Essays, docs: int, count: int, cold: int, meaning: bool = True) -> dict:
    from sverka.core import api
    from sverka.core.candidates import MAX_POSTING
    from sverka.core.check import prepare as prepare_suspect
    from sverka.core.document import Document
    from sverka.core.text import canonize

    sus = suspects(essays, docs, count + cold)
    canonize(sus[0][0])  # Sverka's own tables warm; the store is what is measured
    res = {"cold": [], "warm": [], "postings": [], "posting_rows": [], "found": [], "marked": [], "others": [],
           "cpu": [], "server_cpu": [], "retrieve": [], "meaning": []}
    parts = _Parts()

    def one(coll, text, planted, kind):
        doc = Document(text, title="suspect")
        settings = coll.settings if meaning else dataclasses.replace(coll.settings, find_by_meaning=False)
        a = prepare_suspect(doc, coll.settings)
        t = time.perf_counter()
        h1 = coll.index.pair_postings(np.unique(a.pairs[0]), max_posting=MAX_POSTING)
        h2 = coll.index.sentence_postings(np.unique(a.sentences[0]), max_posting=MAX_POSTING)
        post = time.perf_counter() - t
        parts.take()
        s0 = _server_cpu(url)
        c = time.process_time()
        t = time.perf_counter()
        r = coll.check(doc, settings)
        dt = time.perf_counter() - t
        cpu = time.process_time() - c
        server_cpu = _server_cpu(url) - s0
        spent = parts.take()
        f, m, o, names = _found(r, planted)
        res[kind].append(dt)
        res["found"].append(f)
        res["marked"].append(m)
        res["others"].append(o)
        if kind == "warm":
            res["cpu"].append(cpu)
            res["server_cpu"].append(server_cpu)
            res["retrieve"].append(spent["retrieve"])
            res["meaning"].append(spent["add_meaning"])
        print(f"  {kind} check {dt:.3f} s (CPU {cpu:.3f} s here + {server_cpu:.3f} s the server's; retrieval "
              f"{spent['retrieve'] * 1000:.0f} ms, meaning layer {spent['add_meaning'] * 1000:.0f} ms; "
              f"posting queries afterwards {post * 1000:.0f} ms, {len(h1[0]) + len(h2[0])} rows); "
              f"planted essays found {f}/5, {m:.0%} of planted text marked; {o} other sources {names}; "
              f"{r.borrowed_percent:.1f}% borrowed; load {os.getloadavg()[0]:.1f}", flush=True)
        return post, len(h1[0]) + len(h2[0])

    # cold: the server restarted before each of these suspects (the check goes first, then
    # the posting queries again, warm, for their row count)
    try:
        for text, planted in sus[1:1 + cold]:
            server.stop("fast")
            server.start(durable=True, settings=BULK_SETTINGS)
            coll = api.Collection(url)
            one(coll, text, planted, "cold")
            coll.close()
        coll = api.Collection(url)
        coll.check(Document(sus[0][0], title="warm-up"))
        for text, planted in sus[1 + cold:]:
            post, rows = one(coll, text, planted, "warm")
            res["postings"].append(post)
            res["posting_rows"].append(rows)
        coll.close()
    finally:
        parts.restore()
    res["suspects"] = sus
    return res


def reference(essays: Essays, sample: int, sus) -> dict:
    """ref5gram: index ``sample`` essays (with the planted ones), find and mark the suspects."""
    planted = sorted({n for _, pl in sus for n, _, _ in pl})
    ids = sorted(set(range(sample - len(planted))) | set(planted))
    texts = [essays.essay(n)[0] for n in ids]
    ref = ref5gram.Collection()
    t = time.perf_counter()
    for n, text in zip(ids, texts):
        ref.add(str(n), text)
    index_s = time.perf_counter() - t
    by_name = dict(zip(ref.names, ref.texts))
    times, cpus, found = [], [], []
    for text, pl in sus[1:]:
        t = time.perf_counter()
        c = time.process_time()
        best = ref.check(text)[:10]
        for name, _ in best:
            ref5gram.spans(text, by_name[name])
        times.append(time.perf_counter() - t)
        cpus.append(time.process_time() - c)
        found.append(len({int(nm) for nm, _ in best} & {n for n, _, _ in pl}))
    return {"docs": len(ids), "index_s": index_s, "docs_per_s": len(ids) / index_s,
            "check_s": statistics.median(times), "check_cpu_s": statistics.median(cpus), "found": found}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--docs", type=int, default=1_000_000)
    ap.add_argument("--data", type=Path, default=Path("/work/scale-data"))
    ap.add_argument("--chars", type=int, default=2500, help="mean essay length in characters")
    ap.add_argument("--novel", type=float, default=0.25, help="share of inner words replaced")
    ap.add_argument("--batch", type=int, default=500)
    ap.add_argument("--workers", type=int, default=2, help="processes generating essays")
    ap.add_argument("--reserve", type=float, default=12, help="stop adding when fewer GB of disk are free")
    ap.add_argument("--checks", type=int, default=5, help="warm checks (new suspects)")
    ap.add_argument("--cold", type=int, default=3, help="cold checks (server restarted before each)")
    ap.add_argument("--sample", type=int, default=10_000, help="essays the reference indexes")
    ap.add_argument("--verify", type=int, default=300, help="essays canonized again before writing")
    ap.add_argument("--posting-cap", type=int, default=None,
                    help="set the collection's own posting cap before the checks (0: none; default: leave it)")
    ap.add_argument("--no-meaning", action="store_true", help="check with the meaning layer off")
    ap.add_argument("--drop", action="store_true", help="delete DATA at the end")
    args = ap.parse_args()
    if not RUSLIT.is_dir():
        print(f"corpus not found: {RUSLIT}", file=sys.stderr)
        return 2
    from sverka.core.settings import Settings

    print(f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f}; free disk "
          f"{shutil.disk_usage(args.data.parent if not args.data.exists() else args.data).free / 1e9:.0f} GB", flush=True)
    t = time.perf_counter()
    files = prose_files(RUSLIT)[:-HELD_OUT]
    pool = build_pool(_texts(files), Settings().drop_adjectives)
    essays = Essays(pool, chars=args.chars, novel=args.novel)
    print(f"pool: {pool.size} sentences, {len(pool.hashes)} tokens from {len(files)} prose files "
          f"({pool.chars / 1e6:.1f} M characters canonized once) in {time.perf_counter() - t:.0f} s", flush=True)
    problems = verify(essays, range(args.verify))
    if problems:
        print("the assembled tokens differ from what canonization gives:\n  " + "\n  ".join(problems[:20]), file=sys.stderr)
        return 1
    print(f"{args.verify} essays canonized again: text and tokens agree", flush=True)

    server = _server(args.data)
    try:
        url = _database(server)
        state = build(args, url, args.data / "progress.json")
        n = state["next"]
        print(f"built: {n} essays, {state['rows'] / 1e6:.1f} M posting rows, {state['text_bytes'] / 1e9:.1f} GB "
              f"texts and tokens; write_batch {state['write_s']:.0f} s ({n / state['write_s']:.0f} essays/s, "
              f"{state['rows'] / state['write_s'] / 1e6:.2f} M rows/s), wall {state['wall_s']:.0f} s "
              f"({n / state['wall_s']:.0f} essays/s); indexes {state.get('index_s', 0):.0f} s; "
              f"statuses {state.get('statuses')}", flush=True)
        sz = sizes(url, args.data)
        print("sizes: " + "; ".join(f"{k} {v['rows'] / 1e6:.2f} M rows, table {v['table_MB']:.0f} MB + indexes "
                                   f"{v['indexes_MB']:.0f} MB" for k, v in sz.items() if isinstance(v, dict))
              + f"; database {sz['database_GB']:.1f} GB, folder {sz['folder_GB']:.1f} GB", flush=True)
        _, _, open_store = _names()
        with open_store(url) as store:
            if args.posting_cap is not None:
                store.set_posting_cap(args.posting_cap)
            print(f"posting cap of the collection: {store.posting_cap} (0: none; the check asks for 5000)", flush=True)
        ch = checks(url, server, essays, n, args.checks, args.cold, meaning=not args.no_meaning)
    finally:
        server.stop("fast")
    ref = reference(essays, args.sample, ch.pop("suspects"))
    add_rate = n / state["wall_s"]
    warm = statistics.median(ch["warm"])
    cold = statistics.median(ch["cold"]) if ch["cold"] else float("nan")
    print(f"reference (ref5gram, {ref['docs']} essays in memory): indexes {ref['docs_per_s']:.0f} essays/s; finds "
          f"and marks a suspect in {ref['check_s']:.3f} s (CPU {ref['check_cpu_s']:.3f} s); planted essays among its 10 best {ref['found']}")
    print(f"Sverka on PostgreSQL, {n} essays: add {add_rate:.0f} essays/s (ratio to the reference's indexing "
          f"{ref['docs_per_s'] / add_rate:.2f}: time per essay, Sverka / reference); check warm {warm:.3f} s "
          f"(median of {len(ch['warm'])}; ratio to the reference on {ref['docs']} essays {warm / ref['check_s']:.2f}), "
          f"cold {cold:.3f} s (median of {len(ch['cold'])}; ratio {cold / ref['check_s']:.2f}); warm CPU "
          f"{statistics.median(ch['cpu']):.3f} s here + {statistics.median(ch['server_cpu']):.3f} s the server's (ratio of "
          f"the sum {(statistics.median(ch['cpu']) + statistics.median(ch['server_cpu'])) / ref['check_cpu_s']:.2f} to "
          f"the reference's CPU {ref['check_cpu_s']:.3f} s); retrieval {statistics.median(ch['retrieve']) * 1000:.0f} ms, "
          f"meaning layer {statistics.median(ch['meaning']) * 1000:.0f} ms (medians); posting queries "
          f"{statistics.median(ch['postings']) * 1000:.0f} ms, {statistics.median(ch['posting_rows']):.0f} rows; "
          f"planted found {sum(ch['found'])}/{5 * len(ch['found'])}, marked {statistics.mean(ch['marked']):.0%}; "
          f"size {sz['database_GB']:.1f} GB; load average {os.getloadavg()[0]:.1f}")
    (args.data / f"result_{n}.json").write_text(json.dumps(
        {"state": state, "sizes": sz, "checks": ch, "reference": ref, "args": {k: str(v) for k, v in vars(args).items()}}, indent=1))
    if args.drop:
        shutil.rmtree(args.data, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
