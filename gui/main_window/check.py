"""The text to check and its check: the suspect area, the result, comparing two files,
exports, settings, and the results kept between sessions."""

from __future__ import annotations

import logging
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QFileDialog

from sverka.core import api
from sverka.core.api import CheckResult, CrossCheckResult, Document, History, StoredResult, SverkaError

from ..i18n import decimal
from ..jobs import Job
from .common import with_collection_indexing

log = logging.getLogger(__name__)


def keep_results(history_file: Path, results) -> None:
    """Store results as their documents' last ones (in a worker thread); a result that
    cannot be kept is no reason to lose it."""
    results = [r for r in results if r is not None]
    if not results:
        return
    try:
        with History(history_file) as h:
            for r in results:
                h.save(r)
    except (SverkaError, OSError) as e:
        log.warning("results not kept: %s", e)


def kept_result(history_file: Path, doc: Document) -> StoredResult | None:
    """The last kept result of ``doc`` (in a worker thread); None if never checked."""
    if not history_file.exists():
        return None
    with History(history_file) as h:
        return h.last(doc.sha256, doc.path)


class CheckActions:
    """The main window's part that checks one text (mixed into :class:`MainWindow`)."""

    # -- kept results ----------------------------------------------------------------------
    def _history_file(self) -> Path:
        """Beside the collection file; for a shared collection, on this computer (each teacher
        keeps the results of their own checks)."""
        return api.history_path(self.shared_address or self.collection_path, self.collection_path.parent)

    def show_stored(self, stored: StoredResult) -> None:
        """Show a kept result as it was, with the bar naming its date and settings."""
        self.show_result(stored.result)
        self.history_bar.show_stored(stored, self.settings, self._report_language())
        self._update_history_bar()

    def recheck(self):
        self.history_bar.clear()
        return self.check()

    def _update_history_bar(self) -> None:
        """The bar about a kept result shows only where that result is what the teacher sees:
        on the result tab, or on the text tab while the text is still the one it was made for
        (a pasted or typed text is another text)."""
        stored = self.history_bar.stored
        if stored is None:
            self.history_bar.hide()
            return
        on_text = self.tabs.currentIndex() == self.TAB_TEXT
        same_text = (self.suspect_panel.editor.toPlainText()
                     == stored.result.suspect_text.replace("\r\n", "\n"))
        self.history_bar.setVisible(not on_text or same_text)

    # -- suspect ---------------------------------------------------------------------------
    def choose_suspect(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, self.tr("Open a text to check"), self.start_folder(),
                                              self._file_filter())
        if path:
            self.load_suspect(path)

    def load_suspect(self, path: str | Path) -> Job | None:
        path = Path(path)
        history = self._history_file()

        def work(progress, cancel):
            doc = api.load_document(path)
            try:
                return doc, kept_result(history, doc)
            except SverkaError:  # unreadable kept results: the document still opens
                return doc, None

        def done(loaded):
            doc, kept = loaded
            self.set_suspect_document(doc)
            self._fill_recent_menu(self.prefs.add_recent_file(path))
            self.prefs.set_last_folder(path.parent)
            if kept is not None:
                self.show_stored(kept)

        return self._foreground("open", self.tr("Reading %1\u2026").replace("%1", path.name), work, done)

    def set_suspect_document(self, doc: Document) -> None:
        self.set_suspect_text(doc.text, title=doc.title or (Path(doc.path).name if doc.path else ""))
        self.suspect_document = doc
        self.suspect_panel.set_warnings(list(doc.warnings))
        self.tabs.setCurrentIndex(self.TAB_TEXT)

    def set_suspect_text(self, text: str, title: str = "") -> None:
        self.suspect_document = None
        self.suspect_panel.editor.setPlainText(text)
        self.suspect_panel.title.setText(title or self.tr("Pasted text"))
        self.suspect_panel.set_warnings([])
        self._update_history_bar()

    def paste_suspect(self) -> None:
        text = QApplication.clipboard().text()
        if text.strip():
            self.set_suspect_text(text, self.tr("Pasted text"))
            self.tabs.setCurrentIndex(self.TAB_TEXT)

    def clear_suspect(self) -> None:
        self.set_suspect_text("", "")

    def _suspect_edited(self) -> None:
        doc = self.suspect_document
        if doc is not None and self.suspect_panel.editor.toPlainText() != doc.text.replace("\r\n", "\n"):
            self.suspect_document = None
            self.suspect_panel.title.setText(self.tr("Edited text"))
        self._update_history_bar()

    def _suspect(self) -> Document | None:
        if self.suspect_document is not None:
            return self.suspect_document
        text = self.suspect_panel.editor.toPlainText()
        if not text.strip():
            return None
        title = self.suspect_panel.title.text() or self.tr("Pasted text")
        return api.document_from_text(text, title=title)

    def _fill_recent_menu(self, files: list[str] | None = None) -> None:
        files = self.prefs.recent_files() if files is None else files
        self.menu_recent.clear()
        for path in files:
            a = self.menu_recent.addAction(Path(path).name)
            a.setToolTip(path)
            a.setStatusTip(path)
            a.triggered.connect(lambda checked=False, p=path: self.load_suspect(p))
        self.menu_recent.addSeparator()
        self.menu_recent.addAction(self.act_clear_recent)
        self.menu_recent.setEnabled(bool(files))

    def _clear_recent(self) -> None:
        self.prefs.clear_recent_files()
        self._fill_recent_menu([])

    # -- check, compare --------------------------------------------------------------------
    def check(self) -> Job | None:
        doc = self._suspect()
        if doc is None:
            self.statusBar().showMessage(self.tr("Nothing to check: paste a text or open a file first."), 6000)
            self.suspect_panel.editor.setFocus()
            return None
        if not self.documents:
            self.statusBar().showMessage(
                self.tr("The reference collection is empty: add documents to check against."), 6000)
        settings, history = self.settings, self._history_file()

        def work(c, progress, cancel):
            result = c.check(doc, with_collection_indexing(settings, c), progress=progress, cancel=cancel)
            keep_results(history, [result])
            return result

        return self._collection_job("check", self.tr("Checking\u2026"), work, self.show_result)

    def show_result(self, result: CheckResult) -> None:
        self.history_bar.clear()  # a kept result shown by show_stored sets it again
        self.result = result
        self._update_title()
        self.results_view.set_result(result)
        self.tabs.setCurrentIndex(self.TAB_RESULT)
        self._update_actions()
        self.statusBar().showMessage(self.tr("Borrowed %1 %, cited %3 %, original %2 %").replace(
            "%1", decimal(result.borrowed_percent)).replace("%2", decimal(result.original_percent))
            .replace("%3", decimal(result.cited_percent)), 10000)
        self.resultShown.emit(result)

    def choose_files_to_compare(self) -> None:
        files, _ = QFileDialog.getOpenFileNames(self, self.tr("Pick two files to compare"), self.start_folder(),
                                                self._file_filter())
        if len(files) == 2:
            self.compare_files(files[0], files[1])
        elif files:
            self.statusBar().showMessage(self.tr("Pick exactly two files."), 6000)

    def compare_files(self, a: str | Path, b: str | Path) -> Job | None:
        settings = self.settings
        a, b = Path(a), Path(b)

        def work(progress, cancel):
            doc_a = api.load_document(a)
            cancel.raise_if_cancelled()
            doc_b = api.load_document(b)
            return api.compare(doc_a, doc_b, settings, progress=progress, cancel=cancel)

        return self._foreground("compare", self.tr("Comparing %1 with %2\u2026").replace("%1", a.name)
                                .replace("%2", b.name), work, self.show_result)

    # -- export ----------------------------------------------------------------------------
    def _export_subject(self) -> CheckResult | CrossCheckResult | None:
        if self.tabs.currentIndex() == self.TAB_CROSS and self.cross_result is not None:
            return self.cross_result
        return self.result or self.cross_result

    def choose_export(self, kind: str) -> None:
        if self._export_subject() is None:
            return
        pattern = self.tr("Web page (*.html)") if kind == "html" else self.tr("PDF document (*.pdf)")
        path, _ = QFileDialog.getSaveFileName(self, self.tr("Export the report"),
                                              str(Path(self.start_folder()) / f"sverka-report.{kind}"), pattern)
        if path:
            try:
                self.export(path, kind)
            except OSError as exc:
                self._show_error(SverkaError(str(exc)))

    def _report_language(self) -> str:
        """Reports speak the window's language (Russian or English)."""
        language = self.translators.language if self.translators is not None else self.prefs.language()
        return "ru" if str(language).startswith("ru") else "en"

    def export(self, path: str | Path, kind: str | None = None) -> Path:
        """Write the report of the shown result as HTML (the command line's report) or PDF.

        The PDF is typeset off the GUI thread (a long text makes many pages); the status bar
        says when it is saved and :attr:`jobFinished` reports ``("export", error)``.
        """
        subject = self._export_subject()
        if subject is None:
            raise SverkaError(self.tr("There is no result to export."))
        path = Path(path)
        kind = kind or path.suffix.lstrip(".").lower()
        saved = lambda _=None: self.statusBar().showMessage(  # noqa: E731
            self.tr("Report saved: %1").replace("%1", str(path)), 8000)
        lang = self._report_language()
        full = self.prefs.report_full_paths()
        if kind == "pdf":
            self._foreground("export", self.tr("Writing the PDF report\u2026"),
                             lambda progress, cancel: api.render_pdf(subject, path, lang=lang, full_paths=full), saved)
            return path
        path.write_text(api.render_html(subject, lang=lang, full_paths=full), encoding="utf-8")
        saved()
        return path

    # -- settings --------------------------------------------------------------------------
    def open_settings(self) -> None:
        from ..settings_dialog import SettingsDialog

        dialog = SettingsDialog(self.settings, self.prefs.language(), self,
                                collection=getattr(self, "collection_settings", None))
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.accepted.connect(lambda: self.apply_settings(dialog.settings(), dialog.chosen_language()))
        dialog.open()
        self._settings_dialog = dialog

    def apply_settings(self, settings: api.Settings, language: str | None = None) -> None:
        old = self.settings
        self.settings = settings
        self.prefs.set_engine_settings(settings)
        if language is not None and language != self.prefs.language():
            self.prefs.set_language(language)
            if self.translators is not None:
                self.translators.switch(language)
        if self.result is not None and settings != old:
            try:
                self.show_result(api.apply_exclusions(self.result, settings))
            except NotImplementedError:
                pass

    def exclude_source(self, key: str, exclude: bool = True) -> None:
        """Leave a source out of the shown result or count it again: remembered with this
        result only and rescored without searching again; later checks are not affected.
        (Sources the teacher leaves out of every check are listed in the settings.)"""
        if self.result is None:
            return
        keys = [k for k in self.result.left_out if k != key]
        if exclude:
            keys.append(key)
        self.show_result(api.leave_out(self.result, tuple(keys)))
