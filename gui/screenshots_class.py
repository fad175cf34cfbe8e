"""Screenshots of a teacher's day: the class table, an essay whose source is a classmate, an
edited passage with its changed words marked, the settings dialog.

    xvfb-run -a -s "-screen 0 1400x900x24" python -m sverka.gui.screenshots_class docs/screenshots [--lang ru]

Temporary collection and settings only (never the user's); the sample collection and a class
made from it (gui/screenshots.py), one of whose essays copies a classmate's. Writes
window-class-<lang>.png, window-classmate-<lang>.png (when this Sverka lists classmates as
sources), window-word-diff-<lang>.png and settings-<lang>.png.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from pathlib import Path

from .screenshots import make_class, settle, wait_for


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("outdir", type=Path)
    parser.add_argument("--lang", default="ru", choices=("en", "ru"))
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
    shots = []
    try:
        prefs = Preferences(QSettings(str(home / "sverka.ini"), QSettings.Format.IniFormat))
        prefs.set_language(args.lang)
        window = MainWindow(home / "collection.sverka", prefs, translators)
        window.resize(width, height)
        window.show()
        wait_for(app, window.collectionChanged)
        window.add_paths([sample_folder() / "collection"])
        wait_for(app, window.collectionChanged)

        def shot(widget, name: str) -> None:
            settle(app, 300)
            path = args.outdir / f"{name}-{args.lang}.png"
            widget.grab().save(str(path))
            shots.append(path)

        essays = make_class(home / "class", sample_folder())
        # one more essay retells Vanka with words changed here and there (an edited passage)
        vanka = (sample_folder() / "collection" / "Чехов — Ванька.txt").read_text(encoding="utf-8")
        edited = vanka[200:1700]
        for old, new in (("пузырек", "флакон"), ("заржавленным", "ржавым"), ("измятый", "мятый"),
                         ("Поздравляю", "Поздравляю от души"), ("ночь", "вечер")):
            edited = edited.replace(old, new, 1)
        (essays / "Волкова.txt").write_text("Моё сочинение о рассказе Чехова. " + edited, encoding="utf-8")
        # and one more copies most of a classmate's own essay (no source of the collection has it)
        popov = (essays / "Попов.txt").read_text(encoding="utf-8")
        (essays / "Орлова.txt").write_text(
            # a few Latin look-alike letters inside Russian words: the table's warnings column
            "Я долгo думала, o чём написать, и выбрала тему, близкую каждoму из нас. " + popov
            + " Поэтому я считаю, что эта тема никогда не устареет.", encoding="utf-8")
        window.check_class([essays], cross=True)
        wait_for(app, window.batchShown)
        from PySide6.QtCore import Qt

        from .batch_view import BatchModel

        window.batch_view.table.sortByColumn(BatchModel.BORROWED, Qt.SortOrder.DescendingOrder)
        shot(window, "window-class")

        orlova = next(it for it in window.batch.items if it.path.endswith("Орлова.txt"))
        mates = [k for k, s in enumerate(orlova.result.sources) if getattr(s, "classmate", False)]
        if mates:
            window.open_batch_item(orlova)
            compare = window.results_view.compare
            compare.source_index = -1
            compare.set_source(mates[0])
            window.results_view._select_row_of(mates[0])
            shot(window, "window-classmate")
        else:
            print("no classmate listed as a source: window-classmate not written", file=sys.stderr)

        item = next(it for it in window.batch.items if it.path.endswith("Волкова.txt"))
        window.open_batch_item(item)
        compare = window.results_view.compare
        k = next(i for i, s in enumerate(item.result.sources) if "Ванька" in s.title)
        compare.source_index = -1
        compare.set_source(k)
        from PySide6.QtGui import QTextCursor

        p = item.result.sources[k].passages[0]
        for pane, start in ((compare.left, p.suspect_start), (compare.right, compare.source_span(p)[0])):
            # the passage's start in view, no selection hiding its colour and the changed words
            cursor = QTextCursor(pane.document())
            cursor.setPosition(pane.offsets.to_qt(start))
            pane.setTextCursor(cursor)
            pane.verticalScrollBar().setValue(max(0, pane.cursorRect().top() + pane.verticalScrollBar().value() - 20))
        shot(window, "window-word-diff")

        window.open_settings()
        dialog = window._settings_dialog
        dialog.fit_to_contents()
        settle(app, 300)
        shot(dialog, "settings")
        dialog.reject()
        window.close()
        for p in shots:
            print(p)
    finally:
        shutil.rmtree(home, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
