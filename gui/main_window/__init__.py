"""Sverka's main window, kept the way MusicBrainz Picard keeps its own: one module per part.

- :mod:`.window`: the window itself (layout, the frame of its jobs, drops, life cycle);
- :mod:`.actions`: its actions, menus and toolbar;
- :mod:`.collection`: the collection pane's work (list, add, remove, shared, rebuild);
- :mod:`.check`: the text to check, its result, comparisons, exports, settings, kept results;
- :mod:`.class_check`: a class of essays;
- :mod:`.crosscheck`: the cross-check of a folder;
- :mod:`.common`: what they share, and the one open collection.
"""

from .common import INDEXING_FIELDS, OpenCollection, files_in, sample_folder
from .window import MainWindow, home_folder

__all__ = ["INDEXING_FIELDS", "MainWindow", "OpenCollection", "files_in", "home_folder", "sample_folder"]
