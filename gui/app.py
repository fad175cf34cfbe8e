"""Entry point of ``sverka-gui``."""

from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> int:
    from PySide6.QtWidgets import QApplication, QMainWindow

    app = QApplication.instance() or QApplication(sys.argv if argv is None else argv)
    app.setApplicationName("Sverka")
    app.setOrganizationName("Sverka")
    window = QMainWindow()
    window.setWindowTitle("Sverka")
    window.resize(1100, 720)
    window.show()
    return app.exec()


if __name__ == "__main__":
    sys.exit(main())
