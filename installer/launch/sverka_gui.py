"""Entry script of the bundled window ``sverka-gui`` (PyInstaller freezes this file).

``--smoke-test`` (or ``SVERKA_SMOKE_TEST=1``) is for the bundle's smoke test only: the
window starts as usual, and as soon as a main window is visible this prints
``window shown: <title>`` and quits with 0; with no visible window within
``SVERKA_SMOKE_TIMEOUT`` seconds (default 30) it prints ``no window shown`` and quits with 3.
``SVERKA_SMOKE_LINGER`` seconds (default 0) keeps the window open that long after it is
shown, so the work that follows the first paint (dictionaries warming up) runs too.
``SVERKA_SMOKE_SCREENSHOT=FILE.png`` saves a picture of the window just before it quits.
"""

import multiprocessing
import os
import sys


def _arm_smoke_test() -> None:
    from PySide6.QtCore import QElapsedTimer, QTimer
    from PySide6.QtWidgets import QApplication, QMainWindow

    # The window's main() reuses the running QApplication (QApplication.instance() or ...).
    app = QApplication.instance() or QApplication(sys.argv)
    limit_ms = int(float(os.environ.get("SVERKA_SMOKE_TIMEOUT", "30")) * 1000)
    linger_ms = int(float(os.environ.get("SVERKA_SMOKE_LINGER", "0")) * 1000)
    clock = QElapsedTimer()
    clock.start()
    timer = QTimer(app)

    def look() -> None:
        shown = [w for w in QApplication.topLevelWidgets() if isinstance(w, QMainWindow) and w.isVisible()]
        if shown:
            timer.stop()
            print(f"window shown: {shown[0].windowTitle()} ({clock.elapsed()} ms)", flush=True)
            QTimer.singleShot(linger_ms, lambda: finish(shown[0]))
        elif clock.elapsed() > limit_ms:
            timer.stop()
            print("no window shown", flush=True)
            QApplication.exit(3)

    def finish(window: QMainWindow) -> None:
        picture = os.environ.get("SVERKA_SMOKE_SCREENSHOT")
        if picture:
            window.grab().save(picture)
        QApplication.exit(0)

    timer.timeout.connect(look)
    timer.start(50)


if __name__ == "__main__":
    multiprocessing.freeze_support()  # a worker process of the frozen app starts here too
    if "--smoke-test" in sys.argv[1:] or os.environ.get("SVERKA_SMOKE_TEST") == "1":
        sys.argv = [a for a in sys.argv if a != "--smoke-test"]
        _arm_smoke_test()
    from sverka.gui.app import main

    sys.exit(main())
