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
from .messages import message

__all__ = ["collect", "document_files", "saved_page_resources"]


_SKIP_PREFIXES = (".", "~$")  # hidden files and folders, Office lock files


#: Folders nested deeper than this inside a given folder are skipped and named (a crafted
#: folder 1 200 levels deep must not stop the walk or hide its siblings).
MAX_DEPTH = 100


#: Pages a folder of a saved web page's resources is named after (``<page>_files``).
_PAGE_SUFFIXES = (".html", ".htm", ".xhtml", ".mht", ".mhtml")


def saved_page_resources(name: str, names: frozenset[str]) -> bool:
    """Is folder ``name`` (among the lower-case ``names`` of its folder) the folder a browser or
    Word saved a web page's pictures, style sheets and frames in, beside the page ("Webpage,
    Complete": ``essay.html`` and ``essay_files/``; ``essay.files/`` on a Mac)? Its pages are the
    page's frames and advertisements, not documents: a walk leaves it out (the page is read)."""
    low = name.lower()
    for tail in ("_files", ".files"):
        if low.endswith(tail) and len(low) > len(tail):
            stem = low[: -len(tail)]
            return any(stem + suffix in names for suffix in _PAGE_SUFFIXES)
    return False


def collect(paths: Iterable[str | Path], failed: list[tuple[str, str]], *,
            follow_links: bool = False) -> list[tuple[str, int, float]]:
    """Files to add, as ``(absolute path, size, mtime)``, in a deterministic order.

    Folders are walked depth-first in name order; inside folders only SUPPORTED_SUFFIXES
    are taken (files named explicitly are taken whatever their name), and a saved web page's
    folder of resources beside it is left out (:func:`saved_page_resources`). Only regular files are
    taken. Unless ``follow_links``, a symbolic link inside a folder that leads outside the
    folders given is skipped and named in ``failed`` (a link to a private file or to ``/``
    must not be read). A link back to a folder being walked (a loop), unreadable folders and
    folders nested deeper than MAX_DEPTH are reported in ``failed``; their siblings are read.
    """
    files: list[tuple[str, int, float]] = []
    seen: set[str] = set()
    visited_dirs: set[tuple[int, int]] = set()
    roots: list[str] = []

    def add_file(path: str, st: os.stat_result) -> None:
        if path not in seen:
            seen.add(path)
            files.append((path, st.st_size, st.st_mtime))

    def inside_roots(path: str) -> bool:
        real = os.path.realpath(path)
        return any(real == r or real.startswith(r.rstrip(os.sep) + os.sep) for r in roots)

    def listing(folder: str):
        """(its entries in name order, their names in lower case)."""
        try:
            with os.scandir(folder) as it:
                entries = sorted(it, key=lambda e: e.name)
        except OSError as e:
            failed.append((folder, message("error.folder_unreadable", detail=str(e.strerror or e))))
            return iter(()), frozenset()
        return iter(entries), frozenset(e.name.lower() for e in entries)

    def walk(top: str, top_key: tuple[int, int]) -> None:
        # depth-first in name order with an explicit stack (no recursion limit)
        stack: list[tuple] = [(*listing(top), frozenset({top_key}), 0)]
        while stack:
            entries, names, ancestors, depth = stack[-1]
            entry = next(entries, None)
            if entry is None:
                stack.pop()
                continue
            if entry.name.startswith(_SKIP_PREFIXES):
                continue
            path = os.path.join(os.path.dirname(entry.path), entry.name)
            try:
                is_link = entry.is_symlink()
                is_dir = entry.is_dir()  # follows links
            except OSError:
                is_link, is_dir = False, False
            if is_link and not follow_links and (is_dir or entry.name.lower().endswith(SUPPORTED_SUFFIXES)):
                if not inside_roots(path):
                    failed.append((path, message("error.link_outside")))
                    continue
            if is_dir:
                if saved_page_resources(entry.name, names):
                    continue
                try:
                    st = os.stat(path)
                except OSError as e:
                    failed.append((path, message("error.folder_unreadable", detail=str(e.strerror or e))))
                    continue
                key = (st.st_dev, st.st_ino)
                if key in ancestors:
                    failed.append((path, message("error.link_loop")))
                    continue
                if key in visited_dirs:
                    continue  # the same folder reached twice through links: its files are taken once
                if depth + 1 > MAX_DEPTH:
                    failed.append((path, message("error.nested_folders", levels=MAX_DEPTH)))
                    continue
                visited_dirs.add(key)
                stack.append((*listing(path), ancestors | {key}, depth + 1))
                continue
            if not entry.name.lower().endswith(SUPPORTED_SUFFIXES):
                continue
            try:
                st = os.stat(path)
            except OSError as e:
                reason = message("error.broken_link") if is_link else message("error.unreadable", detail=str(e.strerror or e))
                failed.append((path, reason))
                continue
            if _stat.S_ISREG(st.st_mode):
                add_file(path, st)
            else:
                failed.append((path, message("error.not_regular")))

    given = [os.path.abspath(os.fspath(p)) for p in paths]
    for path in given:
        try:
            if os.path.isdir(path):
                roots.append(os.path.realpath(path))
        except OSError:
            pass
    for path in given:
        try:
            st = os.stat(path)
        except FileNotFoundError:
            failed.append((path, message("error.no_such_path")))
            continue
        except OSError as e:
            failed.append((path, message("error.unreadable", detail=str(e.strerror or e))))
            continue
        if _stat.S_ISDIR(st.st_mode):
            key = (st.st_dev, st.st_ino)
            if key not in visited_dirs:
                visited_dirs.add(key)
                walk(path, key)
        elif _stat.S_ISREG(st.st_mode):
            add_file(path, st)
        else:
            failed.append((path, message("error.not_regular")))
    return files


def document_files(paths: Iterable[str | Path], *, follow_links: bool = False
                   ) -> tuple[list[str], list[tuple[str, str]]]:
    """(the files ``paths`` mean, as absolute paths; (path, reason) of what could not be walked)."""
    failed: list[tuple[str, str]] = []
    return [f for f, _, _ in collect(paths, failed, follow_links=follow_links)], failed
