"""The collection pane's work: list, add, remove, the shared collection, rebuild.

Every job that touches the collection runs in the runner's collection thread (its one
``write`` thread) with the window's one :class:`~.common.OpenCollection`; what a job needs
(where the collection is, the paths) is captured when it is queued, and the window changes
only in its ``done``, in the GUI thread."""

from __future__ import annotations

from pathlib import Path
from typing import Sequence

from PySide6.QtWidgets import QFileDialog, QInputDialog, QMessageBox

from sverka.core import api

from ..i18n import message_text
from ..jobs import Job
from .common import sample_folder


class CollectionActions:
    """The main window's part that keeps the reference collection (mixed into :class:`MainWindow`)."""

    def collection_location(self) -> str | Path:
        """The collection in use: the shared collection's address, else the file on this computer."""
        return self.shared_address or self.collection_path

    def _collection_job(self, name: str, message: str, work, done) -> Job | None:
        """A foreground job with the open collection: ``work(collection, progress, cancel)``,
        the location captured now."""
        location, opened = self.collection_location(), self.open_collection

        def run(progress, cancel):
            with opened.use(location) as c:
                return work(c, progress, cancel)

        return self._foreground(name, message, run, done, write=True)

    def refresh_collection(self) -> Job:
        location, opened = self.collection_location(), self.open_collection
        shared = bool(self.shared_address)

        def work(progress, cancel):
            with opened.use(location) as c:
                return c.settings, c.documents()

        def done(listed, error):
            settings, docs = listed if error is None else (None, [])
            if settings is not None:
                self.collection_settings = settings  # its properties, shown in the settings dialog
            if isinstance(error, api.CollectionNeedsRebuild) and not shared:
                self.offer_rebuild()
            elif error is not None:
                self._show_error(error)
            self._show_documents(docs)

        return self.runner.run(work, done, write=True, name="list")

    def load_whole_source(self, index: int) -> Job | None:
        """The whole text of source ``index`` of the result in view (a long source it carries in
        excerpts), read from the collection in the collection thread, then shown in their place;
        a collection that no longer holds that text says so, and the excerpts stay."""
        view = self.results_view.compare
        result = view.result
        if result is None or not 0 <= index < len(result.sources) or result.sources[index].source_id is None:
            return None
        src = result.sources[index]
        location, opened = self.collection_location(), self.open_collection

        def work(progress, cancel):
            with opened.use(location) as c:
                try:
                    return c.text(src.source_id)
                except api.CollectionError as e:
                    if type(e) is not api.CollectionError:  # busy, damaged, ...: said as such
                        raise
                    return None  # no such document any more

        def done(text, error):
            if error is not None:
                view.whole_text_failed()
                self._show_error(error)
            elif text is None or not view.show_whole_text(src, text):
                view.whole_text_failed()
                QMessageBox.information(
                    self, self.tr("Whole text"),
                    self.tr("The collection no longer holds the text this result was made from "
                            "(the document was removed or added again since): only the parts around "
                            "its passages can be shown."))

        return self.runner.run(work, done, write=True, name="whole source")

    def _show_documents(self, docs) -> None:
        self.documents = list(docs)
        self.collection_panel.set_documents(self.documents)
        self._update_title()
        self._update_actions()
        self.collectionChanged.emit()

    def choose_shared_collection(self) -> None:
        """Ask for the address of a shared collection, then use it (:meth:`use_shared_collection`)."""
        address, ok = QInputDialog.getText(
            self, self.tr("Shared collection"),
            self.tr("Address of the collection on a PostgreSQL server, postgresql://user@host/database "
                    "(the password is read from ~/.pgpass or the PGPASSWORD variable):"),
            text=self.prefs.shared_collection() or "postgresql://")
        if ok and address.strip():
            self.use_shared_collection(address.strip())

    def use_shared_collection(self, address: str) -> Job | QMessageBox | None:
        """Connect to the shared collection at ``address`` and use it from now on (remembered,
        without a password). A server that is down, a refused login or anything else that
        keeps it from opening is shown in a box, and the collection in use stays."""
        if not api.is_shared_collection(address):
            return self.notify(QMessageBox.Icon.Warning, self.tr(
                "This is not the address of a shared collection: %1. Write it as "
                "postgresql://user@host/database.").replace("%1", address))
        opened = self.open_collection

        def work(progress, cancel):
            with opened.use(address) as c:
                return str(c.path), c.settings, c.documents()

        def done(result) -> None:
            shown, self.collection_settings, docs = result
            self.shared_address = address
            self.prefs.set_shared_collection(shown)
            self._show_documents(docs)
            self.statusBar().showMessage(self.tr("Shared collection %1").replace("%1", shown), 8000)
            self.restore_last_class()

        return self._foreground("shared", self.tr("Connecting to the shared collection\u2026"), work, done, write=True)

    def use_local_collection(self) -> Job:
        """Go back to the collection file on this computer."""
        self.shared_address = ""
        self.prefs.set_shared_collection("")
        job = self.refresh_collection()
        self.restore_last_class()
        return job

    def offer_rebuild(self) -> QMessageBox:
        """The collection was made by an earlier Sverka: offer to rebuild it from its texts."""
        box = self.notify(
            QMessageBox.Icon.Question,
            self.tr("The collection was made by an earlier version of Sverka. Rebuild it now? "
                    "Sverka reads again the texts it keeps (your files are not needed) and keeps "
                    "the old file beside it as a backup."))
        box.setStandardButtons(QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No)
        box.button(QMessageBox.StandardButton.Yes).clicked.connect(self.rebuild_collection)
        return box

    def rebuild_collection(self) -> Job | None:
        path, opened = self.collection_path, self.open_collection

        def work(progress, cancel):
            opened.close()  # the rebuild replaces the file: no connection stays on the old one
            return api.rebuild_collection(path, progress=progress, cancel=cancel)

        def done(count):
            self.statusBar().showMessage(self.tr("Collection rebuilt: %1 documents").replace("%1", str(count)), 10000)
            self.refresh_collection()

        return self._foreground("rebuild", self.tr("Rebuilding the collection\u2026"), work, done, write=True)

    def add_paths(self, paths: Sequence[str | Path], template: bool = False) -> Job | None:
        paths = [Path(p) for p in paths]
        if not paths:
            return None
        if paths and paths[0].parent:
            self.prefs.set_last_folder(paths[0].parent if paths[0].is_file() else paths[0])

        def work(c, progress, cancel):
            return c.add(paths, template=template, progress=progress, cancel=cancel)

        def done(summary: api.AddSummary):
            parts = [self.tr("Added: %1").replace("%1", str(len(summary.added)))]
            if summary.cancelled:
                parts.insert(0, self.tr("Cancelled"))
            if summary.updated:
                parts.append(self.tr("updated: %1").replace("%1", str(len(summary.updated))))
            if summary.unchanged or summary.duplicates:
                parts.append(self.tr("already there: %1").replace(
                    "%1", str(len(summary.unchanged) + len(summary.duplicates))))
            if summary.failed:
                parts.append(self.tr("not readable: %1").replace("%1", str(len(summary.failed))))
            self.statusBar().showMessage(", ".join(parts), 8000)
            if summary.failed:
                self.notify(QMessageBox.Icon.Warning,
                            self.tr("%n files could not be read.").replace("%n", str(len(summary.failed))),
                            "\n".join(f"{p}: {message_text(why)}" for p, why in summary.failed))
            self.refresh_collection()

        return self._collection_job("add", self.tr("Adding documents\u2026"), work, done)

    def remove_selected(self, confirmed: bool = False) -> Job | QMessageBox | None:
        """Remove the selected documents from the collection, after the user confirms (the
        question box is returned; its Yes removes). The files themselves stay."""
        docs = self.collection_panel.selected_documents()
        if not docs or self.current_job is not None:
            return None
        if not confirmed:
            box = self.notify(QMessageBox.Icon.Question, self.tr(
                "Remove %n document(s) from the collection? The files themselves stay where they are."
            ).replace("%n", str(len(docs))))
            box.setStandardButtons(QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No)
            box.setDefaultButton(QMessageBox.StandardButton.No)
            ids = [d.id for d in docs]  # what the question named, whatever is selected by then
            box.button(QMessageBox.StandardButton.Yes).clicked.connect(lambda: self._remove_ids(ids))
            return box
        return self._remove_ids([d.id for d in docs])

    def _remove_ids(self, ids: list[int]) -> Job | None:
        if self.current_job is not None:
            return None

        def done(n):
            self.statusBar().showMessage(self.tr("Removed: %1").replace("%1", str(n)), 5000)
            self.refresh_collection()

        return self._collection_job("remove", self.tr("Removing documents\u2026"),
                                    lambda c, progress, cancel: c.remove(ids), done)

    def choose_files_to_add(self) -> None:
        files, _ = QFileDialog.getOpenFileNames(self, self.tr("Add files to the collection"),
                                                self.start_folder(), self._file_filter())
        if files:
            self.add_paths(files)

    def choose_folder_to_add(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, self.tr("Add a folder to the collection"),
                                                  self.start_folder())
        if folder:
            self.add_paths([folder])

    def load_sample(self) -> Job | None:
        """Add the sample collection and put the sample text in the suspect area."""
        sample = sample_folder()
        suspect = sample / "suspect.txt"
        if suspect.is_file() and not self.suspect_panel.editor.toPlainText().strip():
            self.set_suspect_text(suspect.read_text(encoding="utf-8"), title=self.tr("Sample text"))
        self.prefs.set_sample_offered(True)
        return self.add_paths([sample / "collection"])

    def _file_filter(self) -> str:
        patterns = " ".join(f"*{s}" for s in api.SUPPORTED_SUFFIXES)
        return self.tr("Documents (%1)").replace("%1", patterns) + ";;" + self.tr("All files (*)")
