"""Interface languages through Qt's translation system.

Sources: ``resources/translations/sverka_<lang>.ts`` (committed, edited with Qt Linguist).
Compiled ``.qm`` files are built, never committed: ``python -m sverka.gui.i18n build``
(run by installer/bootstrap.sh) calls PySide6's ``lrelease``. ``python -m sverka.gui.i18n
update`` refreshes the .ts sources from the code with ``lupdate``.

English is the language of the code, so it needs no translation file.

Warnings, file errors and progress phases come from the core as codes
(:mod:`sverka.core.messages`, one catalogue shared with the reports and the command line):
:func:`message_text` words them in the window's current language.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QLibraryInfo, QLocale, QTranslator

LANGUAGES = ("en", "ru")
_current = "en"  # the language the translators installed last (Translators.switch)
TRANSLATIONS = Path(__file__).resolve().parents[1] / "resources" / "translations"
GUI_DIR = Path(__file__).resolve().parent


def translations_dir() -> Path:
    """The folder of the .ts/.qm files (inside the installed ``sverka.resources`` package)."""
    try:
        import sverka.resources as res

        return Path(res.__file__).resolve().parent / "translations"
    except (ImportError, TypeError):
        return TRANSLATIONS


def resolve_language(language: str = "") -> str:
    """``""`` follows the system locale; anything we do not translate falls back to English."""
    if language in LANGUAGES:
        return language
    name = QLocale.system().name()  # e.g. "ru_RU"
    code = name.split("_")[0].lower()
    # Ukrainian users read Russian interfaces far more often than English ones.
    if code in ("ru", "uk", "be"):
        return "ru"
    return "en"


def _tool(name: str) -> str | None:
    """PySide6's own lrelease/lupdate binary (next to the PySide6 package), else the venv wrapper."""
    try:
        import PySide6

        exe = Path(PySide6.__file__).resolve().parent / name
        if exe.exists():
            return str(exe)
    except ImportError:
        pass
    wrapper = Path(sys.executable).parent / f"pyside6-{name}"
    if wrapper.exists():
        return str(wrapper)
    return shutil.which(f"pyside6-{name}")


def build(folder: Path | None = None, quiet: bool = True) -> list[Path]:
    """Compile every .ts in ``folder`` to .qm; returns the .qm files written."""
    folder = folder or translations_dir()
    lrelease = _tool("lrelease")
    if lrelease is None:
        raise RuntimeError("pyside6-lrelease not found: install PySide6")
    written = []
    for ts in sorted(folder.glob("*.ts")):
        qm = ts.with_suffix(".qm")
        cmd = [lrelease, str(ts), "-qm", str(qm)]
        if quiet:
            cmd.insert(1, "-silent")
        subprocess.run(cmd, check=True, capture_output=quiet)
        written.append(qm)
    return written


def update(folder: Path | None = None) -> None:
    """Refresh the .ts sources from the strings in gui/*.py (keeps existing translations)."""
    folder = folder or translations_dir()
    lupdate = _tool("lupdate")
    if lupdate is None:
        raise RuntimeError("pyside6-lupdate not found: install PySide6")
    sources = [str(p) for p in sorted(GUI_DIR.rglob("*.py"))]
    for lang in LANGUAGES:
        if lang == "en":
            continue
        subprocess.run([lupdate, "-no-obsolete", "-locations", "none", *sources, "-ts",
                        str(folder / f"sverka_{lang}.ts")], check=True)


def current_language() -> str:
    """The window's language now ("en" or "ru")."""
    return _current


def decimal(x: float, digits: int = 1) -> str:
    """``x`` with ``digits`` decimals as the window's language writes it: "50,4" in Russian."""
    s = f"{x:.{digits}f}"
    return s.replace(".", ",") if _current == "ru" else s


def message_text(m) -> str:
    """A core message (warning, file error) in the window's language; a plain string as it is."""
    from sverka.core.api import message_text as text

    return text(m, _current)


def phase_text(message: str) -> str:
    """A progress message (a phase code, or a document's name) in the window's language."""
    from sverka.core.api import phase_text as _phase_text

    return _phase_text(message, _current)


class Translators:
    """The translators installed in the application; :meth:`switch` changes language live
    (every widget gets a ``LanguageChange`` event and retranslates itself)."""

    def __init__(self) -> None:
        self._installed: list[QTranslator] = []
        self.language = "en"

    def switch(self, language: str = "") -> str:
        global _current
        app = QCoreApplication.instance()
        for tr in self._installed:
            app.removeTranslator(tr)
        self._installed.clear()
        self.language = resolve_language(language)
        _current = self.language
        if self.language != "en":
            # Qt's own dialogs (file dialogs, message box buttons) from PySide6's qtbase_<lang>.qm;
            # ours is installed after it, so Qt asks ours first: it fills qtbase's gaps (gui/qt_strings.py).
            qt_base = QTranslator(app)
            if qt_base.load(f"qtbase_{self.language}", QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)):
                app.installTranslator(qt_base)
                self._installed.append(qt_base)
            ours = QTranslator(app)
            qm = translations_dir() / f"sverka_{self.language}.qm"
            if not qm.exists():
                try:
                    build(quiet=True)
                except (RuntimeError, OSError, subprocess.CalledProcessError):
                    pass
            if ours.load(str(qm)):
                app.installTranslator(ours)
                self._installed.append(ours)
        return self.language


if __name__ == "__main__":
    command = sys.argv[1] if len(sys.argv) > 1 else "build"
    if command == "build":
        for path in build(quiet=False):
            print(path)
    elif command == "update":
        update()
    else:
        sys.exit("usage: python -m sverka.gui.i18n [build|update]")
