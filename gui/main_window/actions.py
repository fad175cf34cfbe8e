"""The window's actions, menus and toolbar, and which of them are enabled."""

from __future__ import annotations

from typing import Callable

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QStyle


def shortcut_text(key: QKeySequence.StandardKey | str) -> str:
    """A shortcut as the platform writes it (F3, Shift+F3), for a menu item."""
    return QKeySequence(key).toString(QKeySequence.SequenceFormat.NativeText)


class WindowActions:
    """The main window's part that makes its actions (mixed into :class:`MainWindow`)."""

    def _make_actions(self) -> None:
        style = self.style()
        icon = style.standardIcon
        sp = QStyle.StandardPixmap

        def act(name: str, std=None, shortcut=None, slot: Callable | None = None) -> QAction:
            a = QAction(self)
            a.setObjectName(name)
            if std is not None:
                a.setIcon(icon(std))
            if shortcut is not None:
                a.setShortcut(QKeySequence(shortcut))
            if slot is not None:
                a.triggered.connect(lambda checked=False: slot())
            return a

        self.act_add_files = act("addFiles", sp.SP_FileIcon, None, self.choose_files_to_add)
        self.act_add_folder = act("addFolder", sp.SP_DirIcon, None, self.choose_folder_to_add)
        self.act_remove = act("removeDocuments", sp.SP_TrashIcon, QKeySequence.StandardKey.Delete,
                              lambda: self.remove_selected())
        self.act_remove.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        self.collection_panel.view.addAction(self.act_remove)
        self.act_open = act("openSuspect", sp.SP_DialogOpenButton, QKeySequence.StandardKey.Open,
                            self.choose_suspect)
        self.act_paste = act("pasteSuspect", None, "Ctrl+Shift+V", self.paste_suspect)
        self.act_clear = act("clearSuspect", sp.SP_DialogResetButton, None, self.clear_suspect)
        self.act_check = act("check", sp.SP_MediaPlay, "F5", self.check)
        self.act_compare = act("compareFiles", sp.SP_FileDialogContentsView, "Ctrl+D", self.choose_files_to_compare)
        self.act_cross = act("crossCheck", sp.SP_FileDialogDetailedView, "Ctrl+K", self.choose_folder_to_crosscheck)
        self.act_check_class = act("checkClass", sp.SP_DirOpenIcon, "Ctrl+L", self.choose_folder_to_check_class)
        self.act_export_html = act("exportHtml", sp.SP_DialogSaveButton, "Ctrl+E", lambda: self.choose_export("html"))
        self.act_export_pdf = act("exportPdf", None, "Ctrl+Shift+E", lambda: self.choose_export("pdf"))
        self.act_full_paths = act("reportFullPaths")
        self.act_full_paths.setCheckable(True)
        self.act_full_paths.setChecked(self.prefs.report_full_paths())
        self.act_full_paths.toggled.connect(self.prefs.set_report_full_paths)
        self.act_settings = act("settings", None, QKeySequence.StandardKey.Preferences, self.open_settings)
        self.act_sample = act("loadSample", None, None, self.load_sample)
        self.act_quit = act("quit", None, QKeySequence.StandardKey.Quit, self.close)
        # F3 / Shift+F3 belong to the side-by-side view (its own shortcuts, where the passages
        # are); the menu items name them after a tab, the way a menu shows a shortcut.
        self.act_next = act("nextPassage", sp.SP_ArrowDown, None, self.results_view.compare.next_passage)
        self.act_prev = act("previousPassage", sp.SP_ArrowUp, None, self.results_view.compare.previous_passage)
        self.act_clear_recent = act("clearRecent", None, None, self._clear_recent)
        self.act_shared = act("sharedCollection", None, None, self.choose_shared_collection)
        self.act_local = act("localCollection", None, None, self.use_local_collection)

    def _make_menus(self) -> None:
        bar = self.menuBar()
        self.menu_file = bar.addMenu("")
        self.menu_file.addAction(self.act_open)
        self.menu_recent = self.menu_file.addMenu("")
        self.menu_file.addAction(self.act_paste)
        self.menu_file.addSeparator()
        self.menu_file.addAction(self.act_shared)
        self.menu_file.addAction(self.act_local)
        self.menu_file.addSeparator()
        self.menu_file.addAction(self.act_export_html)
        self.menu_file.addAction(self.act_export_pdf)
        self.menu_file.addAction(self.act_full_paths)
        self.menu_file.addSeparator()
        self.menu_file.addAction(self.act_settings)
        self.menu_file.addSeparator()
        self.menu_file.addAction(self.act_quit)
        self.menu_collection = bar.addMenu("")
        for a in (self.act_add_files, self.act_add_folder, self.act_remove, self.act_sample):
            self.menu_collection.addAction(a)
        self.menu_check = bar.addMenu("")
        for a in (self.act_check, self.act_check_class, self.act_compare, self.act_cross):
            self.menu_check.addAction(a)
        self.menu_check.addSeparator()
        self.menu_check.addAction(self.act_prev)
        self.menu_check.addAction(self.act_next)

        tb = self.toolbar = self.addToolBar("")
        tb.setObjectName("mainToolBar")
        tb.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        tb.setMovable(False)
        for a in (self.act_open, self.act_check, self.act_check_class, None, self.act_compare, self.act_cross, None,
                  self.act_export_html, self.act_export_pdf):
            tb.addSeparator() if a is None else tb.addAction(a)
        self.toolbar = tb
        self._fill_recent_menu()

    def _wire(self) -> None:
        cp = self.collection_panel
        cp.add_files_button.setDefaultAction(self.act_add_files)
        cp.add_folder_button.setDefaultAction(self.act_add_folder)
        cp.remove_button.setDefaultAction(self.act_remove)
        cp.pathsDropped.connect(lambda paths: self.add_paths(paths))
        cp.loadSampleRequested.connect(self.load_sample)
        cp.view.selectionModel().selectionChanged.connect(lambda *_: self._update_actions())
        sp = self.suspect_panel
        sp.open_button.setDefaultAction(self.act_open)
        sp.paste_button.setDefaultAction(self.act_paste)
        sp.clear_button.setDefaultAction(self.act_clear)
        sp.check_button.clicked.connect(self.check)
        sp.editor.filesDropped.connect(self.paths_dropped)
        sp.editor.textChanged.connect(self._suspect_edited)
        self.cross_view.pairActivated.connect(self.compare_files)
        self.results_view.excludeRequested.connect(self.exclude_source)
        self.batch_view.checkClassRequested.connect(self.choose_folder_to_check_class)
        self.batch_view.resultActivated.connect(self.open_batch_item)
        self.batch_view.exportAllRequested.connect(self.choose_export_all)
        self.batch_view.countClassmatesToggled.connect(self.count_classmates)
        self.history_bar.recheckRequested.connect(self.recheck)
        self.runner.ended.connect(lambda job: self._update_actions())

    def _retranslate_actions(self) -> None:
        self.menu_file.setTitle(self.tr("&File"))
        self.menu_recent.setTitle(self.tr("Open &recent"))
        self.menu_collection.setTitle(self.tr("&Collection"))
        self.menu_check.setTitle(self.tr("C&heck"))
        self.toolbar.setWindowTitle(self.tr("Toolbar"))
        texts = {
            self.act_add_files: (self.tr("Add files\u2026"), self.tr("Add files to the reference collection")),
            self.act_add_folder: (self.tr("Add folder\u2026"), self.tr("Add every document of a folder to the reference collection")),
            self.act_remove: (self.tr("Remove"), self.tr("Remove the selected documents from the collection")),
            self.act_open: (self.tr("Open\u2026"), self.tr("Open a file to check")),
            self.act_paste: (self.tr("Paste"), self.tr("Check the text on the clipboard")),
            self.act_clear: (self.tr("Clear"), self.tr("Clear the text to check")),
            self.act_check: (self.tr("Check"), self.tr("Check the text against the reference collection (F5)")),
            self.act_compare: (self.tr("Compare two files\u2026"), self.tr("Compare two files side by side")),
            self.act_cross: (self.tr("Cross-check a folder\u2026"), self.tr("Compare every pair of documents in a folder")),
            self.act_check_class: (self.tr("Check a class\u2026"),
                                   self.tr("Check every essay of a folder against the collection")),
            self.act_export_html: (self.tr("Export HTML\u2026"), self.tr("Save the report as a web page")),
            self.act_export_pdf: (self.tr("Export PDF\u2026"), self.tr("Save the report as a PDF")),
            self.act_full_paths: (self.tr("Full paths in reports"),
                                  self.tr("Show the full paths of the documents in exported reports (by default "
                                          "paths relative to the collection's folder)")),
            self.act_settings: (self.tr("Settings\u2026"), self.tr("Search parameters and language")),
            self.act_sample: (self.tr("Load the sample collection"), self.tr("A few public-domain texts to try Sverka on")),
            self.act_quit: (self.tr("Quit"), self.tr("Quit Sverka")),
            self.act_next: (self.tr("Next passage"), self.tr("Next passage (F3)")),
            self.act_prev: (self.tr("Previous passage"), self.tr("Previous passage (Shift+F3)")),
            self.act_clear_recent: (self.tr("Clear the list"), ""),
            self.act_shared: (self.tr("Shared collection\u2026"),
                              self.tr("Use a collection shared on a PostgreSQL server")),
            self.act_local: (self.tr("Collection on this computer"),
                             self.tr("Use the collection kept on this computer")),
        }
        for action, (text, tip) in texts.items():
            action.setText(text)
            action.setToolTip(tip or text.rstrip("\u2026"))
            action.setStatusTip(tip)
        # the side-by-side view's own keys, shown where a menu shows a shortcut
        self.act_next.setText(self.act_next.text() + "\t" + shortcut_text(QKeySequence.StandardKey.FindNext))
        self.act_prev.setText(self.act_prev.text() + "\t" + shortcut_text(QKeySequence.StandardKey.FindPrevious))

    def _update_actions(self) -> None:
        busy = self.current_job is not None
        for a in (self.act_add_files, self.act_add_folder, self.act_check, self.act_compare, self.act_cross,
                  self.act_sample, self.act_check_class):
            a.setEnabled(not busy)
        self.suspect_panel.check_button.setEnabled(not busy)
        self.act_remove.setEnabled(not busy and bool(self.collection_panel.view.selectionModel().selectedRows()))
        has_result = self.result is not None or self.cross_result is not None
        self.act_export_html.setEnabled(has_result)
        self.act_export_pdf.setEnabled(has_result)
        self.collection_panel.sample_button.setEnabled(not busy)
        self.batch_view.check_button.setEnabled(not busy)
        self.act_shared.setEnabled(not busy)
        self.act_local.setEnabled(not busy and bool(self.shared_address))
