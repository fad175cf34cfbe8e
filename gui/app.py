"""Entry point of ``sverka-gui``: a visible window first, everything heavy afterwards.

The engine's heavy parts (morphological dictionaries) load in a worker after the window
is shown (``api.warm_up``), so the window appears quickly.
"""

from __future__ import annotations

import sys


def create_app(argv: list[str] | None = None):
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance() or QApplication(sys.argv if argv is None else argv)
    app.setApplicationName("Sverka")
    app.setOrganizationName("Sverka")
    app.setApplicationDisplayName("Sverka")
    return app


def close_on_quit(app, window) -> None:
    """However the application comes to quit (the window closed, the desktop session ending, a
    ``quit()`` from elsewhere), ``window`` closes first: its jobs are cancelled and waited for and
    the collection closed (its ``closeEvent``), instead of worker threads outliving the objects
    they report to."""
    app.aboutToQuit.connect(lambda: window.isVisible() and window.close())


def main(argv: list[str] | None = None) -> int:
    import multiprocessing

    multiprocessing.freeze_support()  # the engine indexes in worker processes; needed when frozen
    app = create_app(argv)
    from .i18n import Translators
    from .main_window import MainWindow
    from .preferences import Preferences

    prefs = Preferences()
    translators = Translators()
    translators.switch(prefs.language())
    window = MainWindow(preferences=prefs, translators=translators)
    window.show()
    close_on_quit(app, window)
    args = app.arguments()[1:]
    if args:  # sverka-gui FILE: open it as the text to check
        window.load_suspect(args[0])
    return app.exec()


if __name__ == "__main__":
    sys.exit(main())
