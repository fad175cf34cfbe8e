"""A class of essays checked in one action: the class tab's work.

The essays are checked against the collection on every core and, when asked, against each
other: each essay's result then lists the classmates it shares text with as sources
(``SourceMatch.classmate``). Whether they count in the shares is a switch remembered per
class (:class:`~..history.ClassMemory`, beside the kept results); the last class comes back
after a restart from the kept results."""

from __future__ import annotations

import dataclasses
import itertools
import threading
from pathlib import Path

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QFileDialog, QMessageBox

from sverka.core import api
from sverka.core.api import History, SverkaError

from ..history import ClassMemory, class_key
from ..i18n import message_text
from ..models import short_name
from .check import keep_results
from .common import files_in, with_collection_indexing


#: The class tab's rescorings, in the order of the clicks that asked for them.
_RESCORES = itertools.count(1)
_RESCORE_LOCK = threading.Lock()


def counts_classmates_setting() -> bool:
    """Whether this Sverka's settings have the switch (``Settings.count_classmates``)."""
    return any(f.name == "count_classmates" for f in dataclasses.fields(api.Settings))


def with_count_classmates(settings: api.Settings, count: bool) -> api.Settings:
    return settings.replace(count_classmates=count) if counts_classmates_setting() else settings


def rescore(batch: api.BatchResult, count: bool) -> api.BatchResult:
    """The class with classmates counted in the shares or not, without searching again."""
    items = tuple(
        it if it.result is None
        else dataclasses.replace(it, result=api.apply_exclusions(it.result, with_count_classmates(it.result.settings, count)))
        for it in batch.items)
    return dataclasses.replace(batch, items=items, settings=with_count_classmates(batch.settings, count))


def restore_class(history_file: Path) -> tuple[str, api.BatchResult] | None:
    """The last class checked against this collection, from the kept results (in a worker):
    (its key, the class with every essay's last result); None if there is none."""
    last = ClassMemory(history_file).last()
    if last is None or not history_file.exists():
        return None
    items = []
    with History(history_file) as h:
        for path, sha in last["essays"]:
            stored = h.last(sha, path)
            if stored is not None:
                items.append(api.BatchItem(path, stored.result))
    if not items:
        return None
    return last.get("key", ""), api.BatchResult(tuple(items), None, items[0].result.settings)


class ClassCheckActions:
    """The main window's part that checks a class (mixed into :class:`MainWindow`)."""

    def choose_folder_to_check_class(self) -> None:
        self.prepare_class_workers()  # they start while the teacher picks the folder
        folder = QFileDialog.getExistingDirectory(self, self.tr("Pick a folder of essays to check"), self.start_folder())
        if folder:
            self.check_class([folder])

    def class_memory(self) -> ClassMemory:
        return ClassMemory(self._history_file())

    def check_class(self, paths, cross: bool | None = None):
        """Check every document of ``paths`` (folders walked as for a cross-check) against the
        collection on every core; with ``cross`` (default: the tab's check box) also against
        each other, each essay's classmates then being among its sources (counted in its shares
        as the class's remembered switch says). The table fills when all are done; Cancel stops
        within a moment."""
        paths = [Path(p) for p in paths]
        files = files_in(paths)
        if not files:
            self.statusBar().showMessage(self.tr("No documents to check there."), 6000)
            return None
        cross = self.batch_view.cross() if cross is None else cross
        key = class_key(paths)
        memory = self.class_memory()
        count = memory.count_classmates(key, default=getattr(self.settings, "count_classmates", True))
        self.batch_view.set_count_classmates(count)
        settings = with_count_classmates(self.settings, count)
        history, location, opened = self._history_file(), self.collection_location(), self.open_collection
        message = self.tr("Checking %n essays\u2026").replace("%n", str(len(files)))

        def work(progress, cancel):
            with opened.use(location) as c:
                # the workers stay for the next class: only the first pays for starting them
                batch = c.check_files([str(f) for f in files], with_collection_indexing(settings, c), cross=cross,
                                      progress=progress, cancel=cancel, keep_workers=True)
            keep_results(history, [it.result for it in batch.items])
            memory.remember(key, [(it.result.suspect.path or it.path, it.result.suspect.sha256)
                                  for it in batch.items if it.result is not None], cross)
            return batch

        self.workers_idle.stop()
        def shown(batch) -> None:
            # a class large enough for workers: the next one probably is too (prepare_class_workers)
            self._classes_use_workers = api.kept_workers() > 0
            self.show_batch(batch, key)

        job = self._foreground("batch", message, work, shown, write=True)
        if job is not None:  # the engine's message is the file's name: say what is done with it
            job.signals.progress.disconnect(self.progress.update_progress)
            job.signals.progress.connect(lambda d, t, m: self.progress.update_progress(
                d, t, f"{message} {m}" if m else message))
        return job

    def count_classmates(self, count: bool):
        """The class tab's switch: the shown class's shares with classmates counted or not,
        rescored without searching again, remembered for this class, its results kept so."""
        batch, key = self.batch, self.class_key
        if batch is None or not key:
            return None
        memory, history = self.class_memory(), self._history_file()
        # clicks rescore in the order they were made: the jobs may run side by side, so each
        # writes the switch and the kept results under one lock, and one that a later click
        # has overtaken writes nothing (else the switch remembered, and shown when the later
        # rescoring lands, could be the earlier click's)
        turn = next(_RESCORES)
        self._rescore_turn = turn

        def work(progress, cancel):
            with _RESCORE_LOCK:
                if self._rescore_turn != turn:
                    return None
                memory.set_count_classmates(key, count)
                rescored = rescore(batch, count)
                keep_results(history, [it.result for it in rescored.items])
                return rescored

        def done(rescored) -> None:
            # overtaken by a later click, another class shown by now, or the switch clicked
            # again (its own rescoring lands)
            if (rescored is None or self.class_key != key or self.batch is None
                    or self.batch_view.count_classmates() != count):
                return
            shown = {id(it.result): it.path for it in self.batch.items if it.result is not None}
            open_path = shown.get(id(self.result))
            self.show_batch(rescored, key, switch_tab=False)
            if open_path is not None:  # an essay of the class is open: its new shares
                self.result = next(it.result for it in rescored.items if it.path == open_path)
                self.results_view.set_result(self.result)
                self._update_title()

        return self.runner.run(work, lambda result, error: self._show_error(error) if error else done(result),
                               name="rescore")

    def restore_last_class(self):
        """Fill the class tab with the last class checked against this collection, from the
        kept results (after a restart, or back to a collection)."""
        history = self._history_file()

        def done(restored, error) -> None:
            if error is not None:
                if not isinstance(error, (SverkaError, OSError)):
                    self._show_error(error)
                return
            if restored is not None and self.batch is None:  # a class checked meanwhile wins
                key, batch = restored
                self.show_batch(batch, key, switch_tab=False)

        return self.runner.run(lambda progress, cancel: restore_class(history), done, name="restore_class")

    def _make_workers_idle_timer(self) -> None:
        """Workers kept after a class end after KEPT_IDLE_SECONDS without another one."""
        self._classes_use_workers = False  # the last class used worker processes (prepare_class_workers)
        self.workers_idle = QTimer(self)
        self.workers_idle.setSingleShot(True)
        self.workers_idle.setInterval(api.KEPT_IDLE_SECONDS * 1000)
        self.workers_idle.timeout.connect(self.close_idle_workers)
        self.jobFinished.connect(lambda name, error: self.workers_idle.start() if name == "batch" else None)

    def prepare_class_workers(self):
        """Start the class workers now, off the GUI thread, when a class is probably coming
        (the folder dialog opens, a folder is dragged over the window) and the last class of
        this window was large enough for workers: the check then finds them ready instead of
        starting them after it read the essays. Kept as after a class. A class of ordinary size
        is checked in threads of this process (``batch.check_threads``): workers started for
        it would only compete with it for the cores."""
        if self._closing or self.current_job is not None or not self.documents:
            return None
        if not self._classes_use_workers:
            return None
        location = self.collection_location()
        self.workers_idle.start()
        return self.runner.run(lambda progress, cancel: api.prepare_workers(location), None, name="prepare_workers")

    def close_idle_workers(self):
        """End the kept workers off the GUI thread (joining them takes a moment)."""
        if self._closing:
            return None
        return self.runner.run(lambda progress, cancel: api.close_workers(), None, name="close_workers")

    def show_batch(self, batch, key: str = "", switch_tab: bool = True) -> None:
        self.batch = batch
        self.class_key = key
        if key:
            self.batch_view.set_count_classmates(self.class_memory().count_classmates(
                key, default=getattr(batch.settings, "count_classmates", True)))
        self.batch_view.set_batch(batch)
        if batch.cross is not None:
            self.cross_result = batch.cross
            self.show_crosscheck_later(batch.cross)
        if switch_tab:
            self.tabs.setCurrentIndex(self.TAB_CLASS)
        self._update_actions()
        failed = [it for it in batch.items if it.error]
        if failed and switch_tab:
            self.notify(QMessageBox.Icon.Warning,
                        self.tr("%n files could not be read.").replace("%n", str(len(failed))),
                        "\n".join(f"{short_name(it.path)}: {message_text(it.error)}" for it in failed))
        self.batchShown.emit(batch)
        if batch.cross is not None:
            self.crossCheckShown.emit(batch.cross)

    def open_batch_item(self, item) -> None:
        """An essay of the class, side by side with its sources (the result tab)."""
        self.show_result(item.result)

    def choose_export_all(self, kind: str = "html") -> None:
        if self.batch_view.batch is None:
            return
        folder = QFileDialog.getExistingDirectory(self, self.tr("Pick a folder for the reports"), self.start_folder())
        if folder:
            self.export_all(folder, kind)

    def export_all(self, folder, kind: str = "html"):
        """One report per essay (HTML or PDF, the window's language) into ``folder``, off the GUI thread."""
        batch = self.batch_view.batch
        if batch is None:
            return None
        lang = self._report_language()

        def done(written) -> None:
            self.statusBar().showMessage(self.tr("%1 reports saved in %2").replace("%1", str(len(written)))
                                         .replace("%2", str(folder)), 10000)
            self.exported = written

        return self._foreground("export_all", self.tr("Writing the reports\u2026"),
                                lambda progress, cancel: api.write_reports(batch, folder, kind, lang=lang,
                                                                           progress=progress, cancel=cancel), done)
