"""What the window remembers between runs, declared once with defaults, kept in QSettings.

The engine settings are stored as JSON (``Settings.to_json``) in ``settings.json`` beside the
window's settings file, where the command line reads them (:mod:`sverka.core.preferences`);
a new engine parameter needs no change here and an unknown stored key is ignored.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QByteArray, QSettings

from sverka.core.api import Settings, load_saved_settings, save_settings, saved_settings_path

MAX_RECENT = 10


class Preferences:
    """A typed face over one ``QSettings`` (tests pass an INI file in a temporary folder)."""

    def __init__(self, store: QSettings | None = None) -> None:
        self.store = store if store is not None else QSettings()

    # engine: a JSON file beside this store that the command line reads too (core.preferences)
    def settings_path(self) -> Path:
        """``settings.json`` beside an INI/conf store (the window's own on Linux, a test's
        temporary one); the core's default place otherwise (e.g. the Windows registry)."""
        name = self.store.fileName()
        if self.store.format() == QSettings.Format.IniFormat or name.endswith((".conf", ".ini")):
            return Path(name).with_name("settings.json")
        return saved_settings_path()

    def engine_settings(self) -> Settings:
        saved = load_saved_settings(self.settings_path())
        if saved is not None:
            return saved
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
