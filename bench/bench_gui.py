"""Desktop application figures: start to a visible window, and responsiveness while indexing.

    xvfb-run -a -s "-screen 0 1400x900x24" .venv/bin/python bench/bench_gui.py [--runs 5] [--corpus ../shared/data/ruslit]

1. Start-up: a fresh interpreter runs ``sverka-gui``'s own code path (application,
   translator, main window) and reports when the window is first exposed; measured from
   just before the process is spawned, so interpreter start and imports count.
2. Responsiveness: a 10 ms QTimer ticks in the GUI thread while the window indexes the
   corpus through its own "add folder" path; the longest gap between two ticks is what a
   user would feel as a freeze.

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


def main() -> int:
    if len(sys.argv) == 3 and sys.argv[1] == "--child-startup":
        child_startup(sys.argv[2])
        return 0
    parser = argparse.ArgumentParser(description="Sverka desktop application benchmark")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--skip-indexing", action="store_true")
    args = parser.parse_args()
    os.environ.setdefault("QT_QPA_PLATFORM", "xcb" if os.environ.get("DISPLAY") else "offscreen")
    print(f"platform: {os.environ['QT_QPA_PLATFORM']}, cores: {os.cpu_count()}")
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
