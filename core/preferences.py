"""The settings the user saved in the window, readable without Qt (the command line uses them).

One JSON file, ``settings.json`` in the user's configuration folder (beside the window's own
``Sverka.conf``), holding :meth:`Settings.to_json`. The environment variable
``SVERKA_SETTINGS`` names another file (tests, several profiles).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from .settings import Settings

__all__ = ["load_saved_settings", "save_settings", "saved_settings_path"]


def saved_settings_path() -> Path:
    override = os.environ.get("SVERKA_SETTINGS")
    if override:
        return Path(override)
    import platformdirs

    return Path(platformdirs.user_config_dir("Sverka", appauthor=False)) / "settings.json"


def load_saved_settings(path: str | Path | None = None) -> Settings | None:
    """The saved settings, or None when none were saved (or the file is unreadable)."""
    path = Path(path) if path is not None else saved_settings_path()
    try:
        return Settings.from_json(path.read_text(encoding="utf-8"))
    except (OSError, ValueError, TypeError):
        return None


def save_settings(settings: Settings, path: str | Path | None = None) -> Path:
    """Write the settings atomically (a crash leaves the old file or the new one)."""
    path = Path(path) if path is not None else saved_settings_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(json.loads(settings.to_json()), ensure_ascii=False, indent=1), encoding="utf-8")
    os.replace(tmp, path)
    return path
