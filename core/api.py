"""The one door the faces (GUI, command line) use into Sverka's core.

Long calls take ``progress(done, total, message)`` and a :class:`CancelToken`; they raise
:class:`~sverka.core.errors.Cancelled` when cancelled. User problems raise
:class:`~sverka.core.errors.SverkaError` subclasses with messages fit to show.
Results are the frozen dataclasses of :mod:`sverka.core.results`.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Iterable, Sequence

from .batch import KEPT_IDLE_SECONDS
from .document import Document, document_from_text
from .files import document_files
from .extract import SUPPORTED_SUFFIXES
from .errors import (Cancelled, CollectionBusy, CollectionDamaged, CollectionError, CollectionNeedsRebuild,
                     CollectionReadOnly, ExtractError, SverkaError)
from .messages import Message, phase_text
from .messages import text as message_text
from .progress import NEVER_CANCELLED, CancelToken, Progress, no_progress
from .results import (
    AddSummary,
    BatchItem,
    BatchResult,
    CheckResult,
    CrossCheckResult,
    CrossPair,
    DocumentInfo,
    Passage,
    SourceMatch,
    Span,
    SuspectInfo,
)
from .settings import Settings
from .sourcecache import SourceCache
# What a face shows or keeps beside results (colours, tampered words, saved preferences, the
# history of results, a class's reports): offered here so the faces import nothing deeper.
from .batch import write_reports
from .preferences import SavedSettings, load_saved_settings, read_saved_settings, save_settings, saved_settings_path
from .report import colour_slots, source_hue, source_key
from .store.history import History, StoredResult
from .tampering import tampered_words
from .words import WRITTEN_WORD
# Imports inside functions below keep the checking, indexing and reading stages (numpy, the
# canonizer, the readers) off the cold start of the command line and the window until a call
# needs them; like every import they point down the layers (.importlinter), never round a cycle.

__all__ = [
    "KEPT_IDLE_SECONDS",
    "Message",
    "message_text",
    "phase_text",
    "leave_out",
    "AddSummary", "BatchItem", "BatchResult", "SUPPORTED_SUFFIXES", "document_files", "CancelToken", "Cancelled", "CheckResult", "Collection", "CollectionBusy",
    "CollectionNeedsRebuild", "CollectionDamaged", "CollectionReadOnly",
    "CollectionError", "CrossCheckResult", "CrossPair", "Document", "DocumentInfo",
    "ExtractError", "Passage", "Progress", "Settings", "SourceMatch", "Span", "SuspectInfo",
    "SverkaError", "apply_exclusions", "close_workers", "compare", "kept_workers", "prepare_workers", "crosscheck", "default_collection_path", "rebuild_collection",
    "crosscheck_to_json", "document_from_text", "load_document", "render_html", "result_to_json", "warm_up",
    "History", "StoredResult", "colour_slots", "count_words", "history_path", "is_shared_collection",
    "SavedSettings", "load_saved_settings", "read_saved_settings", "save_settings", "saved_settings_path", "source_hue", "source_key", "tampered_words",
    "write_reports", "WRITTEN_WORD",
]


def default_collection_path() -> Path:
    """The collection the window and the command line share: one SQLite file in the user's data directory."""
    import platformdirs

    return Path(platformdirs.user_data_dir("Sverka", appauthor=False)) / "collection.sverka"


def is_shared_collection(location: object) -> bool:
    """True when ``location`` is the address of a shared collection on a PostgreSQL server
    (``postgresql://user@host/database``) rather than a collection file."""
    from .store import is_server_url

    return is_server_url(location)


def history_path(location: str | Path, folder: str | Path | None = None) -> Path:
    """Where the last results of the documents checked against a collection are kept: beside a
    collection file; for a shared collection on this computer (each teacher keeps the results
    of their own checks), in ``folder`` (default: the user's data folder), named by the
    server's address without its password."""
    from .store.history import history_path as beside

    if not is_shared_collection(location):
        return beside(location)
    from .store.postgres import display_url

    digest = hashlib.sha256(display_url(str(location)).encode("utf-8")).hexdigest()[:16]
    folder = Path(folder) if folder is not None else default_collection_path().parent
    return folder / f"shared-{digest}.history"


def count_words(text: str) -> int:
    """The words of ``text`` as a result counts them (numbers and punctuation are not words)."""
    from .text import word_starts

    return len(word_starts(text))


def load_document(path: str | Path) -> Document:
    """Extract a file's text (raises ExtractError naming the file and the reason).

    The file is read in a sandboxed worker process with a memory and a time limit
    (:mod:`sverka.core.workers`), so a hostile file costs only itself; a small plain-text file
    is read here, as the sandbox's caller would (the sandbox's module and ``multiprocessing``
    not even imported: ~8 ms of a cold ``sverka compare`` or ``check`` of text files)."""
    from .extract import extract_small_plain

    doc = extract_small_plain(path)
    if doc is not None:
        return doc
    from .workers import sandboxed_extract

    return sandboxed_extract(path)


def close_workers() -> bool:
    """End the worker processes kept by ``check_files(keep_workers=True)`` (joined); False if
    a class is still using them (they end when it is done)."""
    from .batch import close_workers as close

    return close()


def kept_workers() -> int:
    """How many worker processes ``check_files(keep_workers=True)`` keeps now (0: none; a class
    of little text is checked in threads and starts none)."""
    from .batch import kept_workers as kept

    return kept()


def prepare_workers(location: str | Path) -> bool:
    """Start the workers a class against the collection at ``location`` (a file or a server's
    URL) will use, and keep them (as ``check_files(keep_workers=True)`` does): call it in a
    worker when a class is probably coming. False on one core."""
    from .batch import prepare_workers as prepare

    return prepare(location)


def warm_up() -> None:
    """Load the morphological dictionaries now (call it in a worker so the first check is
    fast), and start the sandboxed reader and multiprocessing's resource tracker, so that the
    first class starts only its workers: starting a process holds the interpreter lock until
    the new one runs (vfork + exec), which a loaded machine turns into a stall of the window."""
    from multiprocessing import resource_tracker

    from .text import canonize
    from .workers import shared_sandbox

    shared_sandbox().prestart()
    resource_tracker.ensure_running()  # started by the first worker pool otherwise (one more process then)
    canonize("Проверка словарей. Перевірка словників: їжак. Checking the dictionaries.")


def release_idle_models() -> bool:
    """Give back the memory of what only some checks need (the meaning layer's second model,
    :func:`sverka.core.meaning.release_second_judge`) and the heap's freed pages: a window calls
    it when no job is running; a later check loads the model again when it needs it. True if
    the model was let go."""
    import sys

    meaning = sys.modules.get("sverka.core.meaning")  # never imported: nothing to give back
    released = meaning is not None and meaning.release_second_judge()
    _trim_heap()  # and the pages a finished check freed (glibc keeps them for the process otherwise)
    return bool(released)


def _trim_heap() -> None:
    """Hand the C heap's freed pages back to the system (glibc keeps them otherwise); elsewhere nothing."""
    import ctypes
    import ctypes.util
    import sys

    if not sys.platform.startswith("linux"):
        return
    try:
        ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6").malloc_trim(0)
    except (OSError, AttributeError):  # not glibc (musl has no malloc_trim)
        pass


def _collection_errors(method):
    """A damaged collection file met inside a Collection method becomes a CollectionError fit
    to show (naming "sverka rebuild"), never a traceback (see :func:`sverka.core.store.store_errors`)."""
    from .store import store_errors

    return store_errors(method)


class Collection:
    """A reference collection: one index file on disk, or a PostgreSQL database shared by a
    department when ``path`` is a ``postgresql://user@host/db`` URL (see
    :mod:`sverka.core.store`).

    Adding is incremental and idempotent; every batch commits atomically, so a cancelled or
    killed run leaves the collection as it was before the interrupted batch.

    ``settings=None`` opens with the settings the collection was built with (a new one takes
    the defaults); settings whose indexing parameters (``Settings.indexing_fields()``:
    drop_adjectives, shingle_words) differ from the collection's raise
    ``CollectionError`` naming them. ``self.settings`` are the settings in effect. Other
    processes may add at the same time; a writer that waits more than 10 s raises
    ``CollectionBusy``. Use one Collection from one thread at a time. See
    :mod:`sverka.core.store.sqlite` for the file format.
    """

    @_collection_errors
    def __init__(self, path: str | Path | None = None, settings: Settings | None = None) -> None:
        from .store import is_server_url, open_store

        if is_server_url(path):  # a shared collection on a PostgreSQL server
            self.location: str | Path = str(path)
        else:
            self.location = Path(path) if path is not None else default_collection_path()
        self.index = open_store(self.location, settings)
        self.path = self.index.path if is_server_url(path) else self.location  # a URL: without its password
        self.settings = self.index.settings
        #: The sources prepared by this collection's checks, kept for the next ones.
        self.source_cache = SourceCache()

    #: The collection file, or the server's URL without the password (for messages).
    path: Path | str

    @_collection_errors
    def add(
        self,
        paths: Iterable[str | Path],
        *,
        template: bool = False,
        progress: Progress = no_progress,
        cancel: CancelToken = NEVER_CANCELLED,
        follow_links: bool = False,
    ) -> AddSummary:
        """Add files and folders (recursively). Unreadable files are reported in
        ``AddSummary.failed`` and the rest goes on. ``template=True`` marks them as template
        text (an assignment prompt): matched by nobody's score.

        Extraction runs in worker processes (both cores); each batch (about 2 MB of text or
        50 files) commits in one transaction. ``progress`` is called once per file. A cancel
        does NOT raise: the batch in progress is dropped and the summary, with
        ``cancelled=True``, lists only what earlier batches committed. Files whose path, size
        and modification time are stored already are ``unchanged`` without being read."""
        from .indexing import add_paths

        return add_paths(self.index, paths, template=template, progress=progress, cancel=cancel,
                         follow_links=follow_links)

    @_collection_errors
    def add_document(self, doc: Document, *, template: bool = False) -> AddSummary:
        """Add an already extracted document (e.g. pasted text)."""
        from .indexing import add_document

        return add_document(self.index, doc, template=template)

    @_collection_errors
    def remove(self, items: Iterable[int | str | Path]) -> int:
        """Remove documents by id or path (a folder's path removes everything under it);
        returns how many were removed, in one transaction.

        Raises SverkaError, removing nothing, for an empty path, the file-system root, the
        home folder or a folder above it, and a folder that holds every document of a
        collection of several (remove those by id, or start a new collection)."""
        import os

        ids: set[int] = set()
        total = self.index.count()
        for item in items:
            if isinstance(item, int):
                ids.add(item)
                continue
            raw = os.fspath(item)
            if not os.fsdecode(raw).strip():
                raise SverkaError("remove: an empty path would mean the current folder; nothing removed")
            path = os.path.abspath(raw)
            info = self.index.find_by_path(path)
            if info is not None:
                ids.add(info.id)
                continue
            home = os.path.abspath(os.path.expanduser("~"))
            if path == os.path.dirname(path) or home == path or home.startswith(path.rstrip(os.sep) + os.sep):
                raise SverkaError.of("error.remove_too_broad", path=path)
            under = self.index.ids_under(path)
            if total > 1 and len(under) == total:
                raise SverkaError.of("error.remove_everything", path=path)
            ids.update(under)
        return self.index.remove(ids)

    @_collection_errors
    def documents(self) -> list[DocumentInfo]:
        """Every document, sorted by title then id."""
        return self.index.documents()

    @_collection_errors
    def count(self) -> int:
        return self.index.count()

    @_collection_errors
    def text(self, doc_id: int) -> str:
        """The stored extracted text of a document (no need for its file)."""
        return self.index.text(doc_id)

    @_collection_errors
    def set_template(self, doc_id: int, template: bool) -> None:
        self.index.set_template(doc_id, template)

    @_collection_errors
    def check(
        self,
        suspect: Document,
        settings: Settings | None = None,
        *,
        progress: Progress = no_progress,
        cancel: CancelToken = NEVER_CANCELLED,
    ) -> CheckResult:
        """Which documents of the collection the suspect borrows from, which passages, how much.

        ``settings`` default to the collection's; their indexing parameters must be the
        collection's (CollectionError otherwise)."""
        from .check import check_document
        from .store.common import check_indexing_settings

        settings = settings or self.settings
        check_indexing_settings(self.index, settings)
        return check_document(self.index, suspect, settings, progress, cancel, cache=self.source_cache)

    @_collection_errors
    def check_many(
        self,
        suspects: Sequence[Document],
        settings: Settings | None = None,
        *,
        workers: int | None = None,
        progress: Progress = no_progress,
        cancel: CancelToken = NEVER_CANCELLED,
    ) -> list[CheckResult]:
        """:meth:`check` of every suspect, on every core (worker processes that open this
        collection); the results equal checking them one by one, in the order given.
        ``progress`` is called once per suspect done."""
        from .batch import check_many
        from .store.common import check_indexing_settings

        settings = settings or self.settings
        check_indexing_settings(self.index, settings)
        return check_many(self.location, suspects, settings, workers=workers, progress=progress,
                          cancel=cancel, serial=lambda doc: self.check(doc, settings, cancel=cancel),
                          threaded=self._threaded(settings, cancel))

    def check_files(
        self,
        files: Sequence[str | Path],
        settings: Settings | None = None,
        *,
        cross: bool = False,
        workers: int | None = None,
        progress: Progress = no_progress,
        cancel: CancelToken = NEVER_CANCELLED,
        keep_workers: bool = False,
    ) -> BatchResult:
        """A class of essays: each file read in the sandbox and checked on every core (as
        :meth:`check_many`); with ``cross``, the essays are also compared with each other.
        Unreadable files are items with an ``error``; the rest goes on. ``keep_workers``:
        the worker processes stay for the next class against this collection (a window's
        classes; end them with :func:`close_workers`)."""
        from .batch import check_files
        from .store.common import check_indexing_settings

        settings = settings or self.settings
        check_indexing_settings(self.index, settings)
        return check_files(self.location, files, settings, load=load_document, cross=cross, workers=workers,
                           progress=progress, cancel=cancel, keep_workers=keep_workers,
                           serial=lambda doc: self.check(doc, settings, cancel=cancel),
                           threaded=self._threaded(settings, cancel))

    def _threaded(self, settings: Settings, cancel: CancelToken):
        """A maker of checkers for the threads of a class (:func:`sverka.core.batch.check_threads`):
        each opens its own connection to this collection (a store is used by one thread at a
        time) and shares this collection's cache of prepared sources."""
        def make():
            from .check import check_document
            from .store import open_store

            store = open_store(self.location, None)
            return (lambda doc: check_document(store, doc, settings, cancel=cancel, cache=self.source_cache)), store.close

        return make

    def close(self) -> None:
        self.index.close()

    def __enter__(self) -> "Collection":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def compare(
    a: Document,
    b: Document,
    settings: Settings | None = None,
    *,
    progress: Progress = no_progress,
    cancel: CancelToken = NEVER_CANCELLED,
) -> CheckResult:
    """Compare two documents directly: the result of checking ``a`` against ``b`` alone."""
    from .check import compare_documents

    return compare_documents(a, b, settings or Settings(), progress, cancel)


def crosscheck(
    items: Sequence[str | Path | Document],
    *,
    collection: Collection | None = None,
    settings: Settings | None = None,
    templates: Sequence[Document] = (),
    progress: Progress = no_progress,
    cancel: CancelToken = NEVER_CANCELLED,
) -> CrossCheckResult:
    """All pairs among ``items`` (a class of essays); with ``collection``, each item is also
    checked against it ("new vs archive": the archive is not compared with itself).
    ``templates`` (the assignment): what a document shares with them counts for no pair.
    Files that cannot be read are listed in ``failed``; the rest goes on."""
    from .crosscheck import crosscheck_documents

    settings = settings or Settings()
    check = None
    if collection is not None:
        def check(doc: Document) -> CheckResult:
            return collection.check(doc, settings, cancel=cancel)  # an archived item is not its own source

    return crosscheck_documents(
        items, settings, load=load_document, check=check, templates=templates, progress=progress, cancel=cancel
    )


def rebuild_collection(path: str | Path | None = None, *, progress: Progress = no_progress,
                       cancel: CancelToken = NEVER_CANCELLED, skipped: list[str] | None = None) -> int:
    """Rebuild a collection written by an earlier Sverka, or whose contents are damaged, from
    the texts it stores (the window's collection by default); returns how many documents it
    holds. Documents that cannot be read back are left out and named in ``skipped``."""
    from .rebuild import rebuild

    return rebuild(Path(path) if path is not None else default_collection_path(), progress, cancel, skipped)


def apply_exclusions(result: CheckResult, settings: Settings) -> CheckResult:
    """The same result under other exclusion settings, without searching again."""
    from .exclusions import apply_exclusions as _apply

    return _apply(result, settings)


def leave_out(result: CheckResult, keys: Sequence[str]) -> CheckResult:
    """The same result with the sources ``keys`` (path or sha256) left out of it, without
    searching again; remembered with this result only (``CheckResult.left_out``), unlike
    ``Settings.excluded_sources``, which leaves sources out of every check."""
    import dataclasses

    from .exclusions import apply_exclusions as _apply

    return _apply(dataclasses.replace(result, left_out=tuple(keys)), result.settings)


def result_to_json(result: CheckResult) -> dict:
    """The result as the JSON object ``sverka check --json`` prints (see core/report.py)."""
    from . import report

    return report.check_result_to_dict(result)


def crosscheck_to_json(result: CrossCheckResult) -> dict:
    from . import report

    return report.crosscheck_to_dict(result)


def render_html(result: CheckResult | CrossCheckResult, *, lang: str | None = "en", full_paths: bool = False) -> str:
    """A self-contained HTML report (no external CSS, fonts or scripts; user text escaped),
    in English or Russian (``lang="ru"``; ``None``: from the locale)."""
    from . import report

    return report.render_html(result, lang=lang, full_paths=full_paths)


def render_pdf(result: CheckResult | CrossCheckResult, path: str | Path, *, lang: str | None = "en",
               full_paths: bool = False) -> Path:
    """The report as a PDF made for paper (A4 pages, page numbers, the window's colours)."""
    from . import report

    return report.render_pdf(result, path, lang=lang, full_paths=full_paths)
