"""Screenshots of the real window in its main states, for the README and for review.

    xvfb-run -a -s "-screen 0 1400x900x24" python -m sverka.gui.screenshots docs/screenshots [--lang ru]

Uses a temporary collection and settings file (never the user's) and the sample collection.
Writes window-empty.png, window-collection.png, window-result.png, window-result-dark.png and
window-crosscheck.png.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from pathlib import Path


def wait_for(app, signal, timeout_ms: int = 120000):
    from PySide6.QtCore import QEventLoop, QTimer

    loop = QEventLoop()
    got = []

    def done(*args):
        got.append(args)
        loop.quit()

    signal.connect(done)
    QTimer.singleShot(timeout_ms, loop.quit)
    loop.exec()
    signal.disconnect(done)
    if not got:
        raise TimeoutError(f"no answer within {timeout_ms} ms")
    return got[0]


def settle(app, ms: int = 300) -> None:
    from PySide6.QtCore import QEventLoop, QTimer

    loop = QEventLoop()
    QTimer.singleShot(ms, loop.quit)
    loop.exec()


def _dark_palette():
    from PySide6.QtGui import QColor, QPalette

    pal = QPalette()
    roles = {
        QPalette.ColorRole.Window: "#2b2b2b", QPalette.ColorRole.WindowText: "#e6e6e6",
        QPalette.ColorRole.Base: "#1e1e1e", QPalette.ColorRole.AlternateBase: "#2a2a2a",
        QPalette.ColorRole.Text: "#e6e6e6", QPalette.ColorRole.Button: "#353535",
        QPalette.ColorRole.ButtonText: "#e6e6e6", QPalette.ColorRole.Highlight: "#3d6fb4",
        QPalette.ColorRole.HighlightedText: "#ffffff", QPalette.ColorRole.ToolTipBase: "#353535",
        QPalette.ColorRole.ToolTipText: "#e6e6e6", QPalette.ColorRole.PlaceholderText: "#9a9a9a",
    }
    for role, colour in roles.items():
        pal.setColor(role, QColor(colour))
    return pal


def make_class(folder: Path, sample: Path) -> Path:
    """Six short "essays": two copy the same Chekhov passage, one paraphrases Pushkin's."""
    folder.mkdir(parents=True, exist_ok=True)
    coll = sample / "collection"
    vanka = (coll / "Чехов — Ванька.txt").read_text(encoding="utf-8")
    dama = (coll / "Пушкин — Пиковая дама (начало).txt").read_text(encoding="utf-8")
    borodino = (coll / "Лермонтов — Бородино.txt").read_text(encoding="utf-8")
    own = [
        "Мне кажется, что автор хотел показать, как трудно человеку остаться собой среди чужих людей. ",
        "В этой книге меня больше всего поразил финал: герой так и не получает того, к чему стремился. ",
        "Я считаю, что главная мысль произведения в том, что жадность и расчёт разрушают душу человека. ",
        "Стихотворение написано от лица простого солдата, и поэтому война в нём видна без прикрас. ",
        "Прочитав рассказ, я задумался о том, как часто мы не замечаем тех, кто рядом с нами. ",
        "Моё сочинение посвящено теме памяти: что остаётся от человека, когда его уже нет. ",
    ]
    essays = {
        "Иванов.txt": own[0] + vanka[200:2200],
        "Петров.txt": own[4] + vanka[900:2900] + own[1],
        "Сидоров.txt": own[2] * 2 + dama[500:1800],
        "Смирнова.txt": dama[900:2400] + own[2],
        "Кузнецова.txt": own[3] + borodino[:1500],
        "Попов.txt": own[5] + own[1] + own[4] + own[0],
    }
    for name, text in essays.items():
        (folder / name).write_text(text, encoding="utf-8")
    return folder


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("outdir", type=Path)
    parser.add_argument("--lang", default="en", choices=("en", "ru"))
    parser.add_argument("--size", default="1280x800")
    args = parser.parse_args(argv)
    args.outdir.mkdir(parents=True, exist_ok=True)
    width, height = (int(v) for v in args.size.split("x"))

    from PySide6.QtCore import QSettings

    from .app import create_app
    from .i18n import Translators
    from .main_window import MainWindow, sample_folder
    from .preferences import Preferences

    app = create_app(sys.argv[:1])
    app.setStyle("Fusion")
    translators = Translators()
    translators.switch(args.lang)
    home = Path(tempfile.mkdtemp(prefix="sverka-shots-"))
    try:
        prefs = Preferences(QSettings(str(home / "sverka.ini"), QSettings.Format.IniFormat))
        window = MainWindow(home / "collection.sverka", prefs, translators)
        window.resize(width, height)
        window.show()
        wait_for(app, window.collectionChanged)
        settle(app)
        shots = []

        def shot(name: str) -> None:
            settle(app, 250)
            path = args.outdir / name
            window.grab().save(str(path))
            shots.append(path)

        shot("window-empty.png")

        window.load_sample()
        wait_for(app, window.collectionChanged)
        shot("window-collection.png")

        window.check()
        wait_for(app, window.resultShown)
        window.results_view.compare.next_passage()
        shot("window-result.png")

        app.setPalette(_dark_palette())
        settle(app, 300)
        window.results_view.compare.next_passage()
        shot("window-result-dark.png")
        app.setPalette(app.style().standardPalette())
        settle(app, 200)

        essays = make_class(home / "class", sample_folder())
        window.crosscheck([essays])
        wait_for(app, window.crossCheckShown)
        shot("window-crosscheck.png")

        window.close()
        for p in shots:
            print(p)
    finally:
        shutil.rmtree(home, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
