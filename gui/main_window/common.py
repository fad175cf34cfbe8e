"""What the parts of the main window share: the indexing fields, the walker, the sample, and
the one open :class:`~sverka.core.api.Collection`."""

from __future__ import annotations

import logging
import threading
from pathlib import Path
from typing import Sequence

from sverka.core import api

log = logging.getLogger(__name__)

#: Settings fixed when a collection is built: a check takes the collection's (declared once,
#: in the settings' declaration; see api.Collection).
INDEXING_FIELDS = api.Settings.indexing_fields()


def sample_folder() -> Path:
    import sverka.resources as res

    return Path(res.__file__).resolve().parent / "sample"


def files_in(paths: Sequence[Path]) -> list[Path]:
    """Files of the given paths, folders expanded recursively (the engine's walker)."""
    return [Path(f) for f in api.document_files(paths)[0]]


def with_collection_indexing(settings: api.Settings, collection: api.Collection) -> api.Settings:
    """``settings`` with the collection's indexing parameters (changing them needs a new collection)."""
    return settings.replace(**{k: getattr(collection.settings, k) for k in INDEXING_FIELDS})


class OpenCollection:
    """The one :class:`~sverka.core.api.Collection` of the window's open collection, kept
    between jobs so what it prepared (its connection, the page cache of the retrieval keys a
    check looked up) serves the next check too.

    A Collection is for one thread at a time (its SQLite connection allows another thread
    than the one that opened it, ``check_same_thread=False``, but never two at once): the
    window uses it only from the job runner's collection thread, one thread that never
    expires, as MusicBrainz Picard keeps one writer thread for its database. :meth:`get`
    refuses any other thread. Another location (the shared collection, back to the file)
    closes the old one first."""

    def __init__(self) -> None:
        self._collection: api.Collection | None = None
        self._location: str | None = None
        self._thread: int | None = None
        self.opened = 0  # how many Collections were opened (each open costs a connection and its caches)

    def _own_thread(self) -> None:
        me = threading.get_ident()
        if self._thread is None:
            self._thread = me
        elif self._thread != me:
            raise RuntimeError("the open collection is used from another thread than the collection thread")

    def get(self, location: str | Path) -> api.Collection:
        """The Collection at ``location`` (a file or a server's URL), opened once."""
        self._own_thread()
        key = str(location)
        if self._collection is not None and self._location != key:
            self.close()
        if self._collection is None:
            if not api.is_shared_collection(location):
                Path(location).parent.mkdir(parents=True, exist_ok=True)
            self._collection = api.Collection(location)
            self._location = key
            self.opened += 1
        return self._collection

    def close(self) -> None:
        """Close it (the next :meth:`get` opens again): before a rebuild replaces the file, and
        when the window closes (its threads done)."""
        collection, self._collection, self._location = self._collection, None, None
        if collection is not None:
            try:
                collection.close()
            except Exception as exc:  # noqa: BLE001 - closing never hides the answer of a job
                log.warning("closing the collection: %s", exc)

    def release_thread(self) -> None:
        """The runner's threads are gone (the window closed): whoever closes it next may."""
        self._thread = None
