"""Which files a list of paths means: folders walked once, safely, in a fixed order.

The one walker behind adding to a collection, cross-checking a folder in the window and on
the command line: sorted, hidden files and Office lock files skipped, only the documents
Sverka reads inside folders, symbolic-link loops and unreadable folders reported instead
of followed.
"""

from __future__ import annotations

import os
import stat as _stat
from pathlib import Path
from typing import Iterable

from .extract import SUPPORTED_SUFFIXES

__all__ = ["collect", "document_files"]


_SKIP_PREFIXES = (".", "~$")  # hidden files and folders, Office lock files


def collect(paths: Iterable[str | Path], failed: list[tuple[str, str]]) -> list[tuple[str, int, float]]:
    """Files to add, as ``(absolute path, size, mtime)``, in a deterministic order.

    Folders are walked depth-first in name order; inside folders only SUPPORTED_SUFFIXES
    are taken (files named explicitly are taken whatever their name). A symbolic link back
    to a folder being walked (a loop) and unreadable folders are reported in ``failed``.
    """
    files: list[tuple[str, int, float]] = []
    seen: set[str] = set()
    visited_dirs: set[tuple[int, int]] = set()

    def add_file(path: str, st: os.stat_result) -> None:
        if path not in seen:
            seen.add(path)
            files.append((path, st.st_size, st.st_mtime))

    def walk(folder: str, ancestors: frozenset) -> None:
        try:
            with os.scandir(folder) as it:
                entries = sorted(it, key=lambda e: e.name)
        except OSError as e:
            failed.append((folder, f"cannot read the folder: {e.strerror or e}"))
            return
        for entry in entries:
            if entry.name.startswith(_SKIP_PREFIXES):
                continue
            path = os.path.join(folder, entry.name)
            try:
                is_dir = entry.is_dir()  # follows links
            except OSError:
                is_dir = False
            if is_dir:
                try:
                    st = os.stat(path)
                except OSError as e:
                    failed.append((path, f"cannot read the folder: {e.strerror or e}"))
                    continue
                key = (st.st_dev, st.st_ino)
                if key in ancestors:
                    failed.append((path, "skipped: a symbolic link back to a folder being added (a loop)"))
                    continue
                if key in visited_dirs:
                    continue  # the same folder reached twice through links: its files are taken once
                visited_dirs.add(key)
                walk(path, ancestors | {key})
                continue
            if not entry.name.lower().endswith(SUPPORTED_SUFFIXES):
                continue
            try:
                st = os.stat(path)
            except OSError as e:
                reason = "a broken link" if entry.is_symlink() else f"cannot read: {e.strerror or e}"
                failed.append((path, reason))
                continue
            if _stat.S_ISREG(st.st_mode):
                add_file(path, st)

    for p in paths:
        path = os.path.abspath(os.fspath(p))
        try:
            st = os.stat(path)
        except FileNotFoundError:
            failed.append((path, "no such file or folder"))
            continue
        except OSError as e:
            failed.append((path, f"cannot read: {e.strerror or e}"))
            continue
        if _stat.S_ISDIR(st.st_mode):
            key = (st.st_dev, st.st_ino)
            if key not in visited_dirs:
                visited_dirs.add(key)
                try:
                    walk(path, frozenset({key}))
                except RecursionError:
                    failed.append((path, "folders nested too deeply"))
        elif _stat.S_ISREG(st.st_mode):
            add_file(path, st)
        else:
            failed.append((path, "not a regular file or folder"))
    return files


def document_files(paths: Iterable[str | Path]) -> tuple[list[str], list[tuple[str, str]]]:
    """(the files ``paths`` mean, as absolute paths; (path, reason) of what could not be walked)."""
    failed: list[tuple[str, str]] = []
    return [f for f, _, _ in collect(paths, failed)], failed
