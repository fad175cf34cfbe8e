"""What the parts of the main window share: the indexing fields, the walker, the sample, and
the one open :class:`~sverka.core.api.Collection`."""

from __future__ import annotations

import logging
import threading
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator, Sequence

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
    window uses it only in jobs of the runner's collection pool, which has one thread, as
    MusicBrainz Picard keeps one writer thread for its database. :meth:`use` holds it for
    one job and refuses a second user at the same time and the GUI thread (which must never
    wait for the collection). Another location (the shared collection, back to the file)
    closes the old one first."""

    def __init__(self) -> None:
        self._collection: api.Collection | None = None
        self._location: str | None = None
        self._lock = threading.Lock()
        self.opened = 0  # how many Collections were opened (each open costs a connection and its caches)
        self.threads: set[int] = set()  # the threads that used it (one at a time)

    @contextmanager
    def use(self, location: str | Path) -> Iterator[api.Collection]:
        """The Collection at ``location`` (a file or a server's URL), opened once, held by
        the calling job until the block ends."""
        if threading.current_thread() is threading.main_thread():
            raise RuntimeError("the window's own thread never uses the collection: run a job")
        if not self._lock.acquire(blocking=False):
            raise RuntimeError("the open collection is used by two jobs at once")
        try:
            self.threads.add(threading.get_ident())
            key = str(location)
            if self._collection is not None and self._location != key:
                self._close()
            if self._collection is None:
                if not api.is_shared_collection(location):
                    Path(location).parent.mkdir(parents=True, exist_ok=True)
                self._collection = api.Collection(location)
                self._location = key
                self.opened += 1
            yield self._collection
        finally:
            self._lock.release()

    def close(self, timeout: float = 30.0) -> None:
        """Close it (the next :meth:`use` opens again): before a rebuild replaces the file, and
        when the window closes (its jobs done)."""
        if not self._lock.acquire(timeout=timeout):
            log.warning("the collection is still in use: not closed")
            return
        try:
            self._close()
        finally:
            self._lock.release()

    def _close(self) -> None:
        collection, self._collection, self._location = self._collection, None, None
        if collection is not None:
            try:
                collection.close()
            except Exception as exc:  # noqa: BLE001 - closing never hides the answer of a job
                log.warning("closing the collection: %s", exc)

    @property
    def is_open(self) -> bool:
        return self._collection is not None
