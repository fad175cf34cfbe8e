"""The settings the user saved in the window, readable without Qt (the command line uses them).

One JSON file, ``settings.json`` in the user's configuration folder (beside the window's own
``Sverka.conf``), holding :meth:`Settings.to_json`. The environment variable
``SVERKA_SETTINGS`` names another file (tests, several profiles).

Reading never writes the file: a file that cannot be read (damaged, edited by hand) is left as
it is, and :func:`read_saved_settings` says why it was not used, for the faces to tell the user.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path

from .messages import Message, message
from .settings import Settings

__all__ = ["SavedSettings", "load_saved_settings", "read_saved_settings", "save_settings", "saved_settings_path"]


def saved_settings_path() -> Path:
    override = os.environ.get("SVERKA_SETTINGS")
    if override:
        return Path(override)
    import platformdirs

    return Path(platformdirs.user_config_dir("Sverka", appauthor=False)) / "settings.json"


@dataclass(frozen=True)
class SavedSettings:
    """The settings file as read: ``settings`` None when there is none (nothing saved) or it
    could not be read (``problem`` says why: a message of the catalogue); ``ignored``: the
    (name, saved value) of settings whose saved value was not used (its default was)."""

    path: Path
    settings: Settings | None = None
    problem: Message | None = None
    ignored: tuple[tuple[str, object], ...] = ()


def read_saved_settings(path: str | Path | None = None) -> SavedSettings:
    """The saved settings and what was wrong with them. A missing file is "nothing saved"; a
    file that is there but cannot be used is a problem to tell the user, not "nothing saved"
    (the command line said "none saved in the window" of a damaged file, and dropped the
    teacher's settings without a word)."""
    path = Path(path) if path is not None else saved_settings_path()
    try:
        data = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return SavedSettings(path)
    except PermissionError:
        return SavedSettings(path, problem=message("error.permission"))
    except IsADirectoryError:
        return SavedSettings(path, problem=message("error.folder"))
    except UnicodeDecodeError:
        return SavedSettings(path, problem=message("settings.not_utf8"))
    except OSError as e:
        return SavedSettings(path, problem=message("settings.cannot_open", detail=e.strerror or str(e)))
    try:
        settings, ignored = Settings.from_saved(data)
    except json.JSONDecodeError as e:
        return SavedSettings(path, problem=message("settings.not_json", line=e.lineno, column=e.colno))
    except (ValueError, TypeError, RecursionError):  # JSON, but not an object; nested past Python's limit
        return SavedSettings(path, problem=message("settings.not_object"))
    return SavedSettings(path, settings, ignored=ignored)


def load_saved_settings(path: str | Path | None = None) -> Settings | None:
    """The saved settings, or None when none were saved (or the file is unreadable:
    :func:`read_saved_settings` says why)."""
    return read_saved_settings(path).settings


def save_settings(settings: Settings, path: str | Path | None = None) -> Path:
    """Write the settings atomically (a crash leaves the old file or the new one)."""
    path = Path(path) if path is not None else saved_settings_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(json.loads(settings.to_json()), ensure_ascii=False, indent=1), encoding="utf-8")
    os.replace(tmp, path)
    return path
