"""What the window remembers between runs, declared once with defaults, kept in QSettings.

The engine settings are stored as JSON (``Settings.to_json``) in ``settings.json`` beside the
window's settings file, where the command line reads them (:mod:`sverka.core.preferences`);
a new engine parameter needs no change here and an unknown stored key is ignored.
"""

from __future__ import annotations

import json
from pathlib import Path

from PySide6.QtCore import QByteArray, QSettings

from sverka.core.api import SavedSettings, Settings, read_saved_settings, save_settings, saved_settings_path

MAX_RECENT = 10


class Preferences:
    """A typed face over one ``QSettings`` (tests pass an INI file in a temporary folder)."""

    def __init__(self, store: QSettings | None = None) -> None:
        self.store = store if store is not None else QSettings()
        #: The settings file as :meth:`engine_settings` last read it: what could not be used
        #: in it, for the window to tell the user (:func:`settings_file_notes`).
        self.saved_settings: SavedSettings | None = None

    # engine: a JSON file beside this store that the command line reads too (core.preferences)
    def settings_path(self) -> Path:
        """``settings.json`` beside an INI/conf store (the window's own on Linux, a test's
        temporary one); the core's default place otherwise (e.g. the Windows registry)."""
        name = self.store.fileName()
        if self.store.format() == QSettings.Format.IniFormat or name.endswith((".conf", ".ini")):
            return Path(name).with_name("settings.json")
        return saved_settings_path()

    def engine_settings(self) -> Settings:
        """The settings saved in ``settings.json``; a file that cannot be read gives the
        defaults and stays as it is (only the user saving settings writes it)."""
        self.saved_settings = read_saved_settings(self.settings_path())
        if self.saved_settings.settings is not None:
            return self.saved_settings.settings
        if self.saved_settings.problem is not None:
            return Settings()  # not an older copy kept in QSettings: the file is the newer one
        raw = self.store.value("engine/settings", "")  # kept here by earlier versions
        if not raw:
            return Settings()
        try:
            return Settings.from_json(str(raw))
        except (ValueError, TypeError):
            return Settings()

    def set_engine_settings(self, settings: Settings) -> None:
        save_settings(settings, self.settings_path())
        self.store.remove("engine/settings")
        self.saved_settings = None

    # the collection in use: "" is the file on this computer, else a shared collection's address
    def shared_collection(self) -> str:
        return str(self.store.value("collection/shared", "") or "")

    def set_shared_collection(self, address: str) -> None:
        """Remember the address of a shared collection (as the core shows it: never a password)."""
        self.store.setValue("collection/shared", address)

    # language: "" follows the system locale, else "en" or "ru"
    def language(self) -> str:
        return str(self.store.value("ui/language", "") or "")

    def set_language(self, language: str) -> None:
        self.store.setValue("ui/language", language)

    # recent suspects
    def recent_files(self) -> list[str]:
        value = self.store.value("ui/recentFiles", [])
        if isinstance(value, str):
            value = [value] if value else []
        return [str(v) for v in (value or [])]

    def add_recent_file(self, path: str | Path) -> list[str]:
        path = str(path)
        files = [path] + [f for f in self.recent_files() if f != path]
        files = files[:MAX_RECENT]
        self.store.setValue("ui/recentFiles", files)
        return files

    def clear_recent_files(self) -> None:
        self.store.setValue("ui/recentFiles", [])

    # window state
    def geometry(self) -> QByteArray | None:
        value = self.store.value("ui/geometry")
        return value if isinstance(value, QByteArray) and not value.isEmpty() else None

    def set_geometry(self, geometry: QByteArray) -> None:
        self.store.setValue("ui/geometry", geometry)

    def state(self, key: str) -> QByteArray | None:
        value = self.store.value(f"ui/state/{key}")
        return value if isinstance(value, QByteArray) and not value.isEmpty() else None

    def set_state(self, key: str, value: QByteArray) -> None:
        self.store.setValue(f"ui/state/{key}", value)

    # first run
    def sample_offered(self) -> bool:
        return str(self.store.value("ui/sampleOffered", "false")).lower() == "true"

    def set_sample_offered(self, offered: bool = True) -> None:
        self.store.setValue("ui/sampleOffered", "true" if offered else "false")

    # reports handed on show paths relative to the collection unless asked for full paths
    def report_full_paths(self) -> bool:
        return str(self.store.value("reports/fullPaths", "false")).lower() == "true"

    def set_report_full_paths(self, full: bool) -> None:
        self.store.setValue("reports/fullPaths", "true" if full else "false")

    def last_folder(self) -> str:
        return str(self.store.value("ui/lastFolder", "") or "")

    def set_last_folder(self, folder: str | Path) -> None:
        self.store.setValue("ui/lastFolder", str(folder))

    def sync(self) -> None:
        self.store.sync()


def settings_file_notes(saved: SavedSettings | None, lang: str) -> list[str]:
    """What the user is told about the settings file once, when the window opens: that it could
    not be read (defaults used, the file left as it is), or which saved values were not used."""
    from sverka.core.messages import message, text
    from sverka.core.settings import SETTINGS_INFO

    if saved is None:
        return []
    if saved.problem is not None:
        return [text(message("settings.unreadable", path=str(saved.path), reason=text(saved.problem, lang)), lang)]
    notes = []
    for name, value in saved.ignored:
        shown = json.dumps(value, ensure_ascii=False)
        info = SETTINGS_INFO.get(name)
        notes.append(text(message("settings.value_ignored", path=str(saved.path), key=name,
                                  name=info.label(lang) if info else name,
                                  value=shown if len(shown) <= 40 else shown[:39] + "\u2026",
                                  default=json.dumps(getattr(Settings(), name), ensure_ascii=False)), lang))
    return notes
