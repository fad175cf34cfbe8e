"""Desktop application figures: start to a visible window, and responsiveness while indexing.

    xvfb-run -a -s "-screen 0 1400x900x24" .venv/bin/python bench/bench_gui.py [--runs 5] [--corpus ../shared/data/ruslit]
    .venv/bin/python bench/bench_gui.py --only-memory    # 3. alone
    .venv/bin/python bench/bench_gui.py --with-judge     # 3., then the e5 judge loaded by a job and let go

1. Start-up: a fresh interpreter runs ``sverka-gui``'s own code path (application,
   translator, main window) and reports when the window is first exposed; measured from
   just before the process is spawned, so interpreter start and imports count.
2. Responsiveness: a 10 ms QTimer ticks in the GUI thread while the window indexes the
   corpus through its own "add folder" path; the longest gap between two ticks is what a
   user would feel as a freeze.
3. Memory: the window with the corpus's collection open and one result shown (``--only-memory``
   measures only this): resident memory of the window's process and of the processes it
   started (the sandboxed reader), read from /proc once the result is drawn. ``--with-judge``:
   then a job judges one pair with the e5 second judge (as a check with a pair in doubt loads
   it) and the window goes idle: its memory with the model loaded, and after it let it go.

Temporary collection and settings only; never the user's.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve()
DEFAULT_CORPUS = HERE.parents[2] / "shared" / "data" / "ruslit"


def child_startup(home: str) -> None:
    """Runs in the spawned interpreter: print the time the window is exposed, then quit."""
    from PySide6.QtCore import QEvent, QObject, QSettings, QTimer

    from sverka.gui.app import create_app
    from sverka.gui.i18n import Translators
    from sverka.gui.main_window import MainWindow
    from sverka.gui.preferences import Preferences

    app = create_app(sys.argv[:1])
    prefs = Preferences(QSettings(os.path.join(home, "sverka.ini"), QSettings.Format.IniFormat))
    translators = Translators()
    translators.switch(prefs.language())
    window = MainWindow(Path(home) / "collection.sverka", prefs, translators)

    class Exposed(QObject):
        def eventFilter(self, obj, event):
            if event.type() == QEvent.Type.Expose and window.windowHandle().isExposed():
                print(json.dumps({"visible": time.time()}), flush=True)
                obj.removeEventFilter(self)
                QTimer.singleShot(0, window.close)
            return False

    window.show()
    exposed = Exposed()
    window.windowHandle().installEventFilter(exposed)
    if window.windowHandle().isExposed():  # already exposed (offscreen platform)
        print(json.dumps({"visible": time.time()}), flush=True)
        QTimer.singleShot(0, window.close)
    app.exec()


def measure_startup(runs: int) -> list[float]:
    times = []
    for _ in range(runs):
        with tempfile.TemporaryDirectory() as home:
            t0 = time.time()
            out = subprocess.run([sys.executable, str(HERE), "--child-startup", home],
                                 capture_output=True, text=True, timeout=60)
            line = next((l for l in out.stdout.splitlines() if l.startswith("{")), None)
            if line is None:
                raise RuntimeError(f"child failed: {out.stderr[-2000:]}")
            times.append(json.loads(line)["visible"] - t0)
    return times


def measure_indexing(corpus: Path) -> dict:
    from PySide6.QtCore import QEventLoop, QSettings, QTimer

    from sverka.gui.app import create_app
    from sverka.gui.main_window import MainWindow
    from sverka.gui.preferences import Preferences

    app = create_app(sys.argv[:1])
    with tempfile.TemporaryDirectory() as home:
        prefs = Preferences(QSettings(os.path.join(home, "sverka.ini"), QSettings.Format.IniFormat))
        window = MainWindow(Path(home) / "collection.sverka", prefs)
        window.show()
        loop = QEventLoop()
        window.collectionChanged.connect(loop.quit)
        loop.exec()  # the first listing
        window.collectionChanged.disconnect(loop.quit)

        ticks: list[float] = []
        timer = QTimer()
        timer.setInterval(10)
        timer.timeout.connect(lambda: ticks.append(time.perf_counter()))
        finished = {}

        def done(name, error):
            if name == "add":
                finished["t"] = time.perf_counter()
                finished["error"] = repr(error) if error else None

        window.jobFinished.connect(done)
        wait_list = QEventLoop()
        window.collectionChanged.connect(wait_list.quit)
        timer.start()
        t0 = time.perf_counter()
        window.add_paths([corpus])
        wait_list.exec()  # the listing after the add
        timer.stop()
        gaps = [b - a for a, b in zip(ticks, ticks[1:])]
        docs = len(window.documents)
        window.close()
    worst = max(range(len(gaps)), key=gaps.__getitem__) if gaps else 0
    gaps_ms = sorted(g * 1000 for g in gaps)
    return {
        "documents": docs,
        "seconds": round(finished.get("t", time.perf_counter()) - t0, 1),
        "error": finished.get("error"),
        "ticks": len(ticks),
        "max_gap_ms": round(gaps_ms[-1], 1) if gaps_ms else None,
        "p99_gap_ms": round(gaps_ms[int(len(gaps_ms) * 0.99) - 1], 1) if gaps_ms else None,
        "median_gap_ms": round(statistics.median(gaps_ms), 1) if gaps_ms else None,
        "worst_at_s": round(ticks[worst] - t0, 2) if gaps else None,
        "gaps_over_50ms": sum(1 for g in gaps_ms if g > 50),
    }


def _memory_kb(pid: int, field: str) -> int:
    """``field`` ("VmRSS" from status, "Pss" from smaps_rollup) of a process, in KB; 0 if gone."""
    name = "status" if field.startswith("Vm") else "smaps_rollup"
    try:
        with open(f"/proc/{pid}/{name}") as f:
            for line in f:
                if line.startswith(field + ":"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def _family(pid: int) -> list[int]:
    """``pid`` and every process below it (Linux)."""
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        try:
            for tid in os.listdir(f"/proc/{p}/task"):
                with open(f"/proc/{p}/task/{tid}/children") as f:
                    todo += [int(x) for x in f.read().split()]
        except OSError:
            pass
    return out


def child_memory(db: str, suspect: str, home: str) -> None:
    """Runs in a spawned interpreter: the window opens the collection ``db``, checks the text of
    ``suspect`` through its own check path and shows the result; then prints the resident
    memory of the window's process and of every process it started (the sandboxed reader)."""
    from PySide6.QtCore import QEventLoop, QSettings, QTimer

    from sverka.gui.app import create_app
    from sverka.gui.main_window import MainWindow
    from sverka.gui.preferences import Preferences

    app = create_app(sys.argv[:1])  # noqa: F841 - the application lives while the window does
    prefs = Preferences(QSettings(os.path.join(home, "sverka.ini"), QSettings.Format.IniFormat))
    window = MainWindow(Path(db), prefs)
    window.show()
    loop = QEventLoop()
    window.collectionChanged.connect(loop.quit)
    loop.exec()  # the first listing
    shown = QEventLoop()
    window.resultShown.connect(lambda _r: QTimer.singleShot(500, shown.quit))  # and drawn
    window.jobFinished.connect(lambda name, _e: name == "open" and QTimer.singleShot(0, window.check))
    t = time.perf_counter()
    window.load_suspect(suspect)
    shown.exec()
    took = time.perf_counter() - t
    judged = {}
    if os.environ.get("SVERKA_BENCH_JUDGE") == "1":
        # a check in doubt loads the e5 judge in a job; judged here as such a check does (one
        # reworded pair), then the window goes idle and lets the model go
        from sverka.core import meaning

        ended = QEventLoop()
        window.runner.ended.connect(lambda _job: QTimer.singleShot(200, ended.quit))

        def judge(progress, cancel):
            meaning.second_judge([("Президент подписал закон о повышении пенсионного возраста.",
                                   "Президент утвердил закон, повышающий пенсионный возраст.")])
            judged["loaded_kb"] = _memory_kb(os.getpid(), "VmRSS")

        window.runner.run(judge, name="judge")
        ended.exec()
        judged["released"] = meaning._judge is None
    pids = _family(os.getpid())
    rss = {p: _memory_kb(p, "VmRSS") for p in pids}
    pss = sum(_memory_kb(p, "Pss") for p in pids)
    print(json.dumps({"documents": len(window.documents), "sources": len(window.result.sources) if window.result else None,
                      "check_s": round(took, 2), "window_kb": rss[os.getpid()], "all_kb": sum(rss.values()),
                      "pss_kb": pss, "processes": len(pids), **judged,
                      "window_max_kb": __import__("resource").getrusage(0).ru_maxrss}), flush=True)
    window.close()


def measure_memory(corpus: Path) -> dict:
    """The window with the collection of ``corpus`` open and one result shown: the collection
    is indexed first by the command line (its own process), then a fresh window opens it and
    checks a text of ~8 000 characters made of two of its documents' pieces and a sentence of its own."""
    import random

    with tempfile.TemporaryDirectory() as home:
        db = Path(home) / "collection.sverka"
        env = {**os.environ, "SVERKA_CACHE_DIR": os.path.join(home, "cache")}
        subprocess.run([str(Path(sys.executable).with_name("sverka")), "index", "--db", str(db), str(corpus)],
                       check=True, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        files = sorted(p for p in corpus.rglob("*.txt") if p.stat().st_size > 40_000)
        rng = random.Random(37)
        parts = []
        for p in rng.sample(files, 2):
            t = p.read_text(encoding="utf-8", errors="replace")
            at = rng.randrange(0, len(t) - 8000)
            parts.append(t[at:at + 4000])
        suspect = Path(home) / "suspect.txt"
        suspect.write_text(parts[0] + "\n\nЭтот текст написан учеником сам, своими словами, без помощи.\n\n" + parts[1],
                           encoding="utf-8")
        out = subprocess.run([sys.executable, str(HERE), "--child-memory", str(db), str(suspect), home], env=env,
                             check=True, capture_output=True, text=True).stdout
        return json.loads(out.strip().splitlines()[-1])


def main() -> int:
    if len(sys.argv) == 3 and sys.argv[1] == "--child-startup":
        child_startup(sys.argv[2])
        return 0
    if len(sys.argv) == 5 and sys.argv[1] == "--child-memory":
        child_memory(*sys.argv[2:])
        return 0
    parser = argparse.ArgumentParser(description="Sverka desktop application benchmark")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--skip-indexing", action="store_true")
    parser.add_argument("--only-memory", action="store_true",
                        help="only the memory of the window with the collection open and one result shown")
    parser.add_argument("--with-judge", action="store_true",
                        help="--only-memory, then the e5 judge loaded by a job as a check in doubt does, and the "
                             "window idle again: its memory with the model loaded and after")
    args = parser.parse_args()
    os.environ.setdefault("QT_QPA_PLATFORM", "xcb" if os.environ.get("DISPLAY") else "offscreen")
    print(f"platform: {os.environ['QT_QPA_PLATFORM']}, cores: {os.cpu_count()}")
    if args.only_memory or args.with_judge:
        if args.with_judge:
            os.environ["SVERKA_BENCH_JUDGE"] = "1"
        m = measure_memory(args.corpus)
        print(f"window with {args.corpus.name} open ({m['documents']} documents) and one result shown "
              f"({m['sources']} sources, checked in {m['check_s']} s): window {m['window_kb'] / 1024:.0f} MB "
              f"resident (its peak {m['window_max_kb'] / 1024:.0f} MB), with the {m['processes'] - 1} processes it "
              f"started {m['all_kb'] / 1024:.0f} MB (PSS {m['pss_kb'] / 1024:.0f} MB); target <= 250 MB")
        if args.with_judge:
            print(f"with the e5 judge loaded by a job: {m['loaded_kb'] / 1024:.0f} MB; the window idle again "
                  f"(model let go: {m['released']}): {m['window_kb'] / 1024:.0f} MB")
        return 0
    startup = measure_startup(args.runs)
    print(f"start to visible window: median {statistics.median(startup):.2f} s, max {max(startup):.2f} s "
          f"over {len(startup)} runs ({', '.join(f'{t:.2f}' for t in startup)})")
    if not args.skip_indexing:
        if not args.corpus.is_dir():
            print(f"corpus not found: {args.corpus}")
            return 1
        r = measure_indexing(args.corpus)
        print(f"indexing {args.corpus.name}: {r['documents']} documents in {r['seconds']} s; 10 ms timer: "
              f"{r['ticks']} ticks, longest gap {r['max_gap_ms']} ms, p99 {r['p99_gap_ms']} ms, "
              f"median {r['median_gap_ms']} ms, gaps over 50 ms: {r['gaps_over_50ms']}, "
              f"longest at {r['worst_at_s']} s" + (f"; error {r['error']}" if r["error"] else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
