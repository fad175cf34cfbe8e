"""The ``sverka`` command line: argparse over :mod:`sverka.core.api` only.

Exit codes: 0 success; 1 input problems (some files could not be read, the others were
processed); 2 usage errors. Errors go to stderr with the file and the reason, never a
traceback for a user mistake.

Startup is kept short: nothing heavier than argparse and the settings dataclass is imported
before a command runs; jinja2 is imported only when ``--html`` asks for a report.
"""

from __future__ import annotations

import argparse
import dataclasses
import errno
import json
import os
import re
import stat
import sys
import time
import zlib
from pathlib import Path

from . import __version__
from .settings import Settings
# Imports inside functions below are for the cold start: each command loads only what it runs
# (the API, reports, translations); they point down the layers (.importlinter).

EXIT_OK, EXIT_INPUT, EXIT_USAGE = 0, 1, 2

#: Suffixes picked up when a folder is given to ``crosscheck``.

#: Friendly flags for some settings, besides the generic ``--field-name`` ones.
ALIASES = {
    "shingle_words": ["--shingle"],
    "min_passage_words": ["--min-words"],
    "max_gap_words": ["--max-gap"],
}
#: Friendly "off" switches for boolean settings that are on by default.
OFF_ALIASES = {
    "exclude_quotes": "--no-quotes",
    "exclude_bibliography": "--no-bibliography",
}
#: Tuple settings take one value per flag, repeated; their flag is in the singular.
LIST_FLAGS = {"excluded_sources": "--exclude-source"}


#: Control characters (C0 but tab and newline, DEL, C1) a terminal would obey: a title or a file
#: name carrying an escape sequence must not recolour, retitle or rewrite the user's terminal.
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")
_CONTROL_ALL = re.compile("[\x00-\x1f\x7f-\x9f]")


def _escape_control(m: "re.Match") -> str:
    return f"\\x{ord(m.group()):02x}"


def terminal_safe(text: str, *, keep_newlines: bool = True) -> str:
    """``text`` with the control characters a terminal obeys shown as ``\\xNN``."""
    return (_CONTROL if keep_newlines else _CONTROL_ALL).sub(_escape_control, text)


def _one_line(name) -> str:
    """A file's name or title in a line of the output: its newlines shown as ``\\x0a`` too (a
    name holding one would break the line, or forge one)."""
    return terminal_safe(str(name), keep_newlines=False)


def _err(message: str) -> None:
    print(f"sverka: {terminal_safe(message)}", file=sys.stderr)


def _say(code: str, lang: str | None = None, **args) -> str:
    """The catalogue's words for ``code`` (:mod:`sverka.core.messages`) in ``lang`` (the
    locale's language when None: the commands without --lang)."""
    from .i18n import check_language
    from .messages import message, text

    return text(message(code, **args), check_language(lang))


def _write(text: str) -> None:
    """Write UTF-8 to stdout whatever the console encoding, control characters escaped."""
    _stdout().buffer.write(terminal_safe(text).encode("utf-8", "surrogateescape"))


def _stdout():
    """Standard output; a process started without one (``sverka ... >&-``: Python's is None)
    fails as a write to it does."""
    if sys.stdout is None:
        raise _OutputFailed(_say("cli.output_closed"))
    return sys.stdout


def _json_line(obj: dict) -> None:
    try:
        line = json.dumps(obj, ensure_ascii=False)
        line.encode("utf-8")
    except UnicodeEncodeError:  # lone surrogates (undecodable file names): keep them escaped
        line = json.dumps(obj, ensure_ascii=True)
    _write(line + "\n")
    _stdout().flush()


# --------------------------------------------------------------------------------------
# Progress on a terminal


def _terminal_width() -> int:
    try:
        width = os.get_terminal_size(sys.stderr.fileno()).columns
    except (OSError, ValueError):
        width = 0
    return width if width >= 20 else 80


class _Progress:
    """A one-line progress bar on stderr redrawn with ``\\r``; silent when stderr is not a TTY."""

    def __init__(self, enabled: bool | None = None, lang: str | None = None) -> None:
        self.enabled = sys.stderr.isatty() if enabled is None else enabled
        self.lang = lang
        self._last = 0.0
        self._drawn = False

    def __call__(self, done: int, total: int, message: str) -> None:
        if not self.enabled:
            return
        now = time.monotonic()
        if now - self._last < 0.08 and done < total:
            return
        from .i18n import check_language
        from .messages import phase_text

        message = phase_text(message, check_language(self.lang))
        self._last = now
        width = _terminal_width()
        if total > 0:
            frac = max(0.0, min(1.0, done / total))
            bar = "#" * round(24 * frac) + "-" * (24 - round(24 * frac))
            line = f"[{bar}] {done}/{total} {message}"
        else:
            line = f"{done} {message}"
        line = line[: max(10, width - 1)]
        sys.stderr.write("\r" + line.ljust(width - 1))
        sys.stderr.flush()
        self._drawn = True

    def finish(self) -> None:
        if self.enabled and self._drawn:
            width = _terminal_width()
            sys.stderr.write("\r" + " " * (width - 1) + "\r")
            sys.stderr.flush()
            self._drawn = False


# --------------------------------------------------------------------------------------
# Settings flags, generated from the Settings dataclass


def _settings_help() -> dict[str, str]:
    """Help text of every setting, from its one declaration (core/settings.py), with its unit,
    range and, for the collection's own, that it is fixed when the collection is built."""
    from .settings import SETTINGS_INFO

    out = {}
    for name, info in SETTINGS_INFO.items():
        text = f"{info.label_en}: {info.help_en}"
        if info.percent:
            text += " (a share, 0..1)"
        elif info.minimum is not None:
            unit = f" {info.unit_en}" if info.unit_en else ""
            text += f" ({info.minimum:g}..{info.maximum:g}{unit})"
        if info.group == "collection":
            text += " Only for a new collection (sverka index); a check uses the collection's own."
        out[name] = text.replace("%", "%%")
    return out


def _add_settings_flags(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group(
        "engine settings",
        "A run uses the settings saved in the Sverka window (if any; the first line on stderr "
        "says which), changed by the flags given; --defaults starts from Sverka's defaults "
        "instead (in brackets). Every setting has a flag named after it, e.g. --min-passage-words; "
        "a few have short aliases.",
    )
    group.add_argument("--defaults", action="store_true",
                       help="ignore the settings saved in the window; start from Sverka's defaults")
    helps = _settings_help()
    for f in dataclasses.fields(Settings):
        default = f.default if f.default is not dataclasses.MISSING else f.default_factory()  # type: ignore[misc]
        flag = "--" + f.name.replace("_", "-")
        dest = f"setting__{f.name}"
        text = helps.get(f.name, f.name.replace("_", " "))
        if isinstance(default, bool):
            group.add_argument(
                flag, dest=dest, action=argparse.BooleanOptionalAction, default=None,
                help=f"{text} [{'on' if default else 'off'}]",
            )
            if f.name in OFF_ALIASES:
                group.add_argument(
                    OFF_ALIASES[f.name], dest=dest, action="store_false", default=None,
                    help=f"same as --no-{f.name.replace('_', '-')}",
                )
        elif isinstance(default, tuple):
            flags = [LIST_FLAGS[f.name], flag] if f.name in LIST_FLAGS else [flag]
            group.add_argument(
                *flags, dest=dest, action="append", default=None, metavar="VALUE",
                help=f"{text} (repeat the flag for several)",
            )
        elif isinstance(default, (int, float)):
            kind = type(default)
            group.add_argument(
                *ALIASES.get(f.name, []), flag, dest=dest, type=kind, default=None,
                metavar="N" if kind is int else "X", help=f"{text} [{default}]",
            )
        elif isinstance(default, str):
            group.add_argument(flag, dest=dest, default=None, metavar="TEXT", help=f"{text} [{default}]")
    group.add_argument(
        "--template", action="append", default=[], metavar="FILE",
        help="template text for this check (e.g. the assignment): passages the suspect shares "
        "with FILE count for no source; repeat for several files",
    )


def _base_settings(args: argparse.Namespace) -> tuple[Settings, str, list[str]]:
    """The settings a run starts from, in words where they come from, and a line for each saved
    value that was not used. A settings file that cannot be read is not "none saved": the line
    names it and why, and says the file is left as it is; a saved value the window could not
    have saved (a negative passage length) is named with the file, and its default used (it
    was refused as if the user had typed "--min-passage-words -5")."""
    from .i18n import check_language
    from .messages import text
    from .preferences import read_saved_settings
    from .settings import COLLECTION_FIELDS, SETTINGS_INFO

    lang = getattr(args, "lang", None)
    if getattr(args, "defaults", False):
        return Settings(), _say("cli.settings_defaults", lang), []
    saved = read_saved_settings()
    path = _one_line(str(saved.path))
    if saved.problem is not None:
        return Settings(), _say("cli.settings_unreadable", lang, path=path,
                                reason=text(saved.problem, check_language(lang))), []
    if saved.settings is None:
        return Settings(), _say("cli.settings_unsaved", lang), []
    ignored = []
    for name, value in saved.ignored:
        info = SETTINGS_INFO.get(name)
        shown = json.dumps(value, ensure_ascii=False)
        ignored.append(_say("cli.settings_value_ignored", lang, path=path,
                            name=info.label(check_language(lang)) if info else name, key=name,
                            value=_one_line(shown if len(shown) <= 40 else shown[:39] + "\u2026"),
                            default=json.dumps(getattr(Settings(), name), ensure_ascii=False)))
    # the collection's own properties are not check settings: only flags change them
    fixed = {name: getattr(Settings(), name) for name in COLLECTION_FIELDS}
    return saved.settings.replace(**fixed), _say("cli.settings_saved", lang, path=path), ignored


def _settings_from(args: argparse.Namespace) -> Settings:
    base, origin, ignored = _base_settings(args)
    changes = {}
    for f in dataclasses.fields(Settings):
        value = getattr(args, f"setting__{f.name}", None)
        if value is not None:
            changes[f.name] = tuple(value) if isinstance(value, list) else value
    settings = base.replace(**changes)
    if not getattr(args, "quiet_settings", False):
        note = origin
        if changes:
            flags = ", ".join("--" + k.replace("_", "-") for k in sorted(changes))
            note += ", " + _say("cli.settings_changed", getattr(args, "lang", None), flags=flags)
        _err(note)
    for line in ignored:
        _err(line)
    if changes.get("excluded_sources"):
        # Paths are compared as the collection stores them: absolute.
        settings = settings.replace(
            excluded_sources=tuple(
                str(Path(s).resolve()) if Path(s).exists() else s for s in settings.excluded_sources
            )
        )
    return settings


def _check_settings(parser: argparse.ArgumentParser, settings: Settings) -> None:
    """Usage errors (exit 2) for values the engine cannot work with."""
    from .settings import SETTINGS_INFO

    for f in dataclasses.fields(Settings):
        value = getattr(settings, f.name)
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            continue
        # (zero where the window offers it, a gap of 0 words: a value saved there is no usage error)
        if value < 0 or (isinstance(value, int) and value == 0 and f.name in ALIASES
                         and (SETTINGS_INFO[f.name].minimum or 0) > 0):
            parser.error(f"--{f.name.replace('_', '-')} must be positive, got {value}")


# --------------------------------------------------------------------------------------
# Helpers shared by the commands


def _error_text(e: BaseException, lang: str | None = None) -> str:
    """A user error in the language of the command line (its code worded; else as raised)."""
    from .i18n import check_language
    from .messages import text

    m = getattr(e, "message", None)
    if m is None:
        return str(e)
    where = getattr(e, "path", None)
    said = text(m, check_language(lang))
    return f"{where}: {said}" if where else said


def _load(path: str, lang: str | None = None):
    """The extracted document, or None after telling the user why it could not be read."""
    from . import api

    if not os.path.exists(path):
        if os.path.islink(path):  # a link to nothing, or round in a circle
            try:
                os.stat(path)
                code = "error.broken_link"
            except OSError as e:
                code = "error.link_cycle" if e.errno == errno.ELOOP else "error.broken_link"
            _err(f"{_one_line(path)}: {_say(code, lang)}")
            return None
        _err(f"{_one_line(path)}: {_say('error.missing', lang)}")
        return None
    if os.path.isdir(path):
        _err(f"{_one_line(path)}: {_say('error.folder', lang)}")
        return None
    try:
        doc = api.load_document(path)
    except api.SverkaError as e:
        _err(_error_text(e, lang))
        return None
    return doc


def _refuse_folder(path: Path) -> None:
    """A collection named by a folder is refused in the user's words (SQLite says "unable to open
    database file", or "disk I/O error" to a rebuild)."""
    if path.is_dir():
        from . import api

        raise api.CollectionError.of("error.cannot_open_collection", path=str(path), detail=_say("error.folder"))


def _open_collection(db: str | None, settings: Settings | None = None, *, must_exist: bool = True):
    from . import api
    from .store import is_server_url

    if is_server_url(db):  # a shared collection: the server says whether it exists
        return api.Collection(db, settings)
    path = Path(db) if db else api.default_collection_path()
    if must_exist and not path.exists():
        raise api.CollectionError(
            f"{path}: no collection there yet; add documents with: sverka index --db {path} FILE..."
        )
    _refuse_folder(path)
    if not must_exist:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as e:  # a read-only disk, a file where a folder is asked for, no permission
            raise api.CollectionError.of("error.cannot_open_collection", path=str(path),
                                         detail=f"{path.parent}: {e.strerror or e}") from None
    return api.Collection(path, settings)


def _with_templates(result, templates, settings):
    """The result with the template documents added as template sources: what the suspect
    shares with them counts for no source (the engine's exclusions recount every score)."""
    from . import api

    if not templates:
        return result
    suspect = api.Document(text=result.suspect_text, path=result.suspect.path, title=result.suspect.title)
    extra = []
    for tpl in templates:
        for src in api.compare(suspect, tpl, settings).sources:
            extra.append(dataclasses.replace(src, is_template=True))
    return api.apply_exclusions(dataclasses.replace(result, sources=result.sources + tuple(extra)), settings)


def _html_targets(out: str, names: list[str]) -> list[Path]:
    """Where each HTML report goes: OUT itself for one document (unless OUT is a folder or ends
    with a slash); otherwise OUT is a folder (made by :func:`_make_report_folder`, after the
    guard) holding one ``<name>.html`` per document."""
    target = Path(out)
    if len(names) == 1 and not (target.is_dir() or out.endswith(("/", os.sep))):
        return [target]
    used: set[str] = set()
    paths = []
    for name in names:
        stem = Path(name).stem or "report"
        candidate, k = f"{stem}.html", 2
        while candidate in used:
            candidate, k = f"{stem}-{k}.html", k + 1
        used.add(candidate)
        paths.append(target / candidate)
    return paths


def _guard_reports(args: argparse.Namespace, targets: list[tuple[Path | None, str]], inputs: list[str], *,
                   collection: bool = False) -> None:
    """Usage error (exit 2, nothing checked, nothing created) when a report, ``(path, option)``,
    would replace anything but an earlier report. Refused: a file the command reads or a
    collection (the collection file and SQLite's files beside it, by name: they exist only
    while it is open; a document it reads or a template; any SQLite database: ``sverka compare
    --pdf C.sverka`` wrote over one, ``sverka check --db C.sverka --html C.sverka`` over every
    indexed document); a folder, a device, a pipe or a socket (renamed over, ``/dev/full``
    became a file; sniffed, a FIFO or ``/dev/stdout`` into a pipe hung for ever); and any other
    file but an empty one or a report Sverka wrote (:func:`_sverka_report`): ``sverka crosscheck
    --html essays/*``, OUT forgotten, wrote over the first essay. Through a symbolic link the
    link's target is judged, and written (:func:`_written_path`)."""
    from .i18n import check_language
    from .messages import message, text

    lang = check_language(args.lang)
    kept: list[tuple[Path, str]] = [(Path(p), "a document it reads") for p in [*inputs, *(args.template or ())]]
    side: dict[str, str] = {}
    if collection:
        from .store import is_server_url

        if not is_server_url(args.db):
            from . import api

            db = Path(args.db) if args.db else api.default_collection_path()
            kept.append((db, "the collection"))
            side = {os.path.realpath(f"{db}{end}"): "the collection" for end in ("", "-wal", "-shm", "-journal", ".postings")}

    def refuse(target: Path, code: str, **kw) -> None:
        args.parser.error(f"{target}: " + text(message(code, **kw), lang))

    for target, option in targets:
        if target is None:
            continue
        what = side.get(os.path.realpath(target))
        if what is not None:
            refuse(target, "error.report_over_input", what=what, option=option)
        try:
            st = os.stat(target)  # never opened before it is known to be a regular file
        except (FileNotFoundError, NotADirectoryError):  # a new report, one a dangling link leads
            continue  # to, or one in OUT/ still to be made (refused there when OUT is a file)
        except OSError as e:  # a link round in a circle, a folder without permission
            args.parser.error(f"{target}: {e.strerror or e}")
        for path, why in kept:
            try:
                if path.exists() and os.path.samefile(target, path):
                    refuse(target, "error.report_over_input", what=why, option=option)
            except OSError:
                pass
        if not stat.S_ISREG(st.st_mode):
            refuse(target, "error.report_not_file", option=option)
        if _is_database(target):
            refuse(target, "error.report_over_input", what="a collection", option=option)
        if st.st_size == 0:  # nothing to lose: made by ``mktemp``, or by the shell's ``>``
            continue
        suffixes = _REPORT_SUFFIXES[option]
        if not os.path.realpath(target).lower().endswith(suffixes):
            refuse(target, "error.report_over_document", option=option, suffix=" / ".join(suffixes))
        if not _sverka_report(target, option):
            refuse(target, "error.report_over_other", option=option)


#: The names an existing file must have for a report of each option to replace it.
_REPORT_SUFFIXES = {"html": (".html", ".htm"), "pdf": (".pdf",)}


def _sverka_report(path: Path, option: str) -> bool:
    """Did Sverka write the regular file ``path`` as an ``option`` report? Every HTML report
    names its maker in its head (``<meta name="generator" content="Sverka 1.2">``, in the first
    half-kilobyte, since the first report); a PDF report carries it as its Creator, which
    WeasyPrint puts in the one compressed object stream it writes last, just before the
    cross-reference stream: those two last streams of the file's last megabyte are inflated
    (each to a bounded size: a hostile file costs milliseconds) to find it. A student's web
    page or PDF is not one, and neither is a file that cannot be read."""
    try:
        with open(path, "rb") as f:
            if option == "html":
                return b'<meta name="generator" content="Sverka ' in f.read(4096)
            if f.read(5) != b"%PDF-":
                return False
            f.seek(max(0, os.fstat(f.fileno()).st_size - (1 << 20)))
            tail = f.read()
    except OSError:
        return False
    for m in list(re.finditer(rb">>\s*stream\r?\n", tail))[-2:]:
        try:
            data = zlib.decompressobj().decompress(tail[m.end():], 1 << 22)
        except zlib.error:
            continue
        if b"/Creator (Sverka " in data:
            return True
    return False


def _report_options(args: argparse.Namespace) -> list[tuple[Path | None, str]]:
    """The one report of each option of a command with one result (compare, crosscheck)."""
    return [(Path(args.html) if args.html else None, "html"), (Path(args.pdf) if args.pdf else None, "pdf")]


def _is_database(path: Path) -> bool:
    """An SQLite database (a Sverka collection, or another program's): never a report's place.
    Only a regular file is read (:func:`_guard_reports`): opening a FIFO waits for a writer."""
    try:
        with open(path, "rb") as f:
            return f.read(16) == b"SQLite format 3\x00"
    except OSError:
        return False


def _written_path(path: Path) -> Path:
    """Where a report to ``path`` is written: through a symbolic link, its target (a new file
    put in the place of ``path`` would replace the link itself, and leave the target as it
    was); the guard judged that target."""
    return Path(os.path.realpath(path))


def _write_html(result, path: Path, lang: str | None = None, full_paths: bool = False) -> bool:
    from . import report

    try:
        html = report.render_html(result, lang=lang, full_paths=full_paths)
        # an undecodable file name (lone surrogates) is shown as U+FFFD, never a 0-byte report
        data = html.encode("utf-8", "surrogateescape").decode("utf-8", "replace").encode("utf-8", "replace")
        with report.written_whole(_written_path(path)) as tmp:  # a full disk leaves no half a report
            Path(tmp).write_bytes(data)
    except OSError as e:
        _err(f"{_one_line(path)}: {_say('cli.report_failed', lang, detail=e.strerror or str(e))}")
        return False
    return True


def _write_pdf(result, path: Path, lang: str | None = None, full_paths: bool = False) -> bool:
    from . import report

    try:
        report.render_pdf(result, _written_path(path), lang=lang, full_paths=full_paths)
    except OSError as e:
        _err(f"{_one_line(path)}: {_say('cli.report_failed', lang, detail=e.strerror or str(e))}")
        return False
    return True


def _summary(result, lang: str | None = None) -> str:
    from .i18n import check_language, translator
    from .messages import text

    lang = check_language(lang)
    _ = translator(lang)
    s = result.suspect
    lines = [
        f"{_one_line(s.path or s.title)}: {result.borrowed_percent:.1f}% {_('borrowed')}, "
        f"{result.cited_percent:.1f}% {_('cited')}, "
        f"{result.original_percent:.1f}% {_('original')} ({s.chars} {_say('cli.characters', lang, n=s.chars)}, "
        f"{s.words} {_say('cli.words', lang, n=s.words)}, {s.language})"
    ]
    if result.exact_duplicate_of:
        lines.append(f"  {_('identical to')}: {_one_line(result.exact_duplicate_of)}")
    if result.in_collection is not None:
        info = result.in_collection
        lines.append(f"  {_('This document is in the collection:')} {_one_line(info.path or info.title)} "
                     f"({_('added')} {info.added[:10]}); {_('it is not counted as its own source')}")
    for w in (*s.warnings, *result.warnings):
        lines.append(f"  {_('warning')}: {text(w, lang)}")
    if not result.sources:
        lines.append(f"  {_('no sources found')}")
    for src in sorted(result.sources, key=lambda x: -x.containment):
        counted = sum(1 for p in src.passages if p.excluded is None)
        excluded = len(src.passages) - counted
        extra = f", {excluded} {_('not counted')}" if excluded else ""
        where = f" ({_one_line(src.path)})" if src.path and src.path != src.title else ""
        if src.is_template:
            where += f" [{_('template')}]"
        if src.classmate:
            where += f" [{_('classmate')}]"
        lines.append(
            f"  {100 * src.containment:5.1f}%  {_one_line(src.title)}{where}  "
            f"[{_('passages')}: {counted}{extra}; {_('resemblance')} {100 * src.resemblance:.1f}%]"
        )
    return "\n".join(lines) + "\n"


# --------------------------------------------------------------------------------------
# Commands


def _cmd_extract(args: argparse.Namespace) -> int:
    doc = _load(args.file)
    if doc is None:
        return EXIT_INPUT
    out = _stdout().buffer
    out.write(doc.text.encode("utf-8", "surrogatepass"))
    out.flush()
    from .i18n import default_language
    from .messages import text

    for w in doc.warnings:
        _err(f"{_one_line(args.file)}: {text(w, default_language())}")
    return EXIT_OK


def _cmd_index(args: argparse.Namespace) -> int:
    from . import api

    rc = EXIT_OK
    paths = []
    for p in args.paths:
        if os.path.exists(p):
            paths.append(p)
        else:
            _err(f"{_one_line(p)}: {_say('error.no_such_path')}")
            rc = EXIT_INPUT
    if not paths:
        return rc
    progress = _Progress()
    settings = None
    if not args.find_by_meaning:  # the collection's own settings, the layer off for this add
        with _open_collection(args.db, must_exist=False) as coll:
            settings = coll.settings.replace(find_by_meaning=False)
    with _open_collection(args.db, settings, must_exist=False) as coll:
        before = coll.count()
        try:
            summary = coll.add(paths, template=args.template, progress=progress,
                               follow_links=args.follow_links)
        except api.SverkaError:  # a full disk, say: what the batches before it added is kept; say how much
            progress.finish()
            try:
                now = coll.count()
            except api.SverkaError:
                now = None
            if now is not None and now != before:
                _err(_say("cli.index_kept", n=now - before, total=now, path=str(coll.path)))
            raise
        finally:
            progress.finish()
        total = coll.count()
    for path, original in summary.duplicates:
        _write(_say("cli.duplicate", path=_one_line(path), original=_one_line(original)) + "\n")
    from .i18n import default_language
    from .messages import text

    for path, reason in summary.failed:
        _err(f"{_one_line(path)}: {text(reason, default_language())}")
    _write(_say("cli.index_summary", added=len(summary.added), updated=len(summary.updated),
                unchanged=len(summary.unchanged), duplicates=len(summary.duplicates), failed=len(summary.failed),
                total=total, path=str(coll.path)) + "\n")
    if summary.cancelled:
        _err(_say("cli.index_cancelled"))
    return EXIT_INPUT if summary.failed else rc


def _cmd_list(args: argparse.Namespace) -> int:
    with _open_collection(args.db) as coll:
        docs = coll.documents()
    for d in docs:
        if args.json:
            _json_line(dataclasses.asdict(d))
        else:
            tag = f" [{_say('cli.template')}]" if d.is_template else ""
            title = _one_line(d.title)
            path = _one_line(d.path or "")
            _write(f"{d.id:>6}  {d.words:>8} {_say('cli.words', n=d.words):<5}  {d.format:<5} {title}{tag}  {path}\n")
    if not args.json:
        print(_say("cli.documents", n=len(docs)), file=sys.stderr)
    return EXIT_OK


def _cmd_rebuild(args: argparse.Namespace) -> int:
    from . import api
    from .store import is_server_url

    if is_server_url(args.db):
        raise api.CollectionError("sverka rebuild rebuilds a collection file; a shared PostgreSQL "
                                  "collection is rebuilt by adding its documents again to an empty database")
    path = Path(args.db) if args.db else api.default_collection_path()
    if not path.exists():
        raise api.CollectionError(f"{path}: no collection there")
    _refuse_folder(path)
    progress = _Progress()
    skipped: list[str] = []
    try:
        count = api.rebuild_collection(path, progress=progress, skipped=skipped)
    finally:
        progress.finish()
    for name in skipped:
        _err(_say("cli.left_out_damaged", name=name))
    kept = max(path.parent.glob(f"{path.name}.format*.bak"), key=lambda p: p.stat().st_mtime_ns, default=None)
    _write(_say("cli.rebuilt", path=str(path), n=count)
           + (f"; {_say('cli.old_file_kept', name=kept.name)}\n" if kept else "\n"))
    return EXIT_INPUT if skipped else EXIT_OK  # a document left out could not be read


_DOCUMENT_ID = re.compile(r"[0-9]+")


def _cmd_remove(args: argparse.Namespace) -> int:
    from . import api

    rc = EXIT_OK
    removed = 0
    with _open_collection(args.db) as coll:
        for item in args.items:
            key: int | str = item
            # a document number is ASCII digits within SQLite's integers: "²" and the Arabic-Indic
            # "١" are digits to str.isdigit() (the second one removed document 1)
            if _DOCUMENT_ID.fullmatch(item) and len(item) <= 19 and int(item) < 1 << 63 and not os.path.exists(item):
                key = int(item)
            elif os.path.exists(item):
                key = str(Path(item).resolve())
            try:
                n = coll.remove([key])
                if n == 0 and isinstance(key, str) and key != item:
                    n = coll.remove([item])  # stored as given
            except api.SverkaError as e:
                _err(str(e))
                rc = EXIT_INPUT
                continue
            if n == 0:
                _err(f"{_one_line(item)}: {_say('cli.not_in_collection')}")
                rc = EXIT_INPUT
            removed += n
    _write(_say("cli.removed", n=removed) + "\n")
    return rc


def _load_templates(paths: list[str], lang: str | None = None) -> list | None:
    docs = []
    for p in paths:
        doc = _load(p, lang)
        if doc is None:
            return None
        docs.append(doc)
    return docs


def _emit(result, args: argparse.Namespace, html_path: Path | None, pdf_path: Path | None = None) -> bool:
    from . import api

    if args.json:
        _json_line(api.result_to_json(result))
    else:
        _write(_summary(result, args.lang))
        _stdout().flush()
    ok = True
    if html_path is not None:
        ok = _write_html(result, html_path, args.lang, args.full_paths) and ok
    if pdf_path is not None:
        ok = _write_pdf(result, pdf_path, args.lang, args.full_paths) and ok
    return ok


def _make_report_folder(parser: argparse.ArgumentParser, out: str | None, reports: int, lang: str | None) -> None:
    """The folder of several reports (or of one, OUT ending with a slash), made once the guard
    let them be written; a usage error when OUT is a file."""
    if not out or (reports == 1 and not out.endswith(("/", os.sep))):
        return
    try:
        Path(out).mkdir(parents=True, exist_ok=True)
    except (FileExistsError, NotADirectoryError):
        parser.error(f"{out}: " + _say("error.report_folder_is_file", lang))
    except OSError as e:
        parser.error(f"{out}: {e.strerror or e}")


def _pdf_targets(out: str | None, names: list[str]) -> list[Path | None]:
    """Like the HTML targets: OUT itself for one suspect, OUT/<stem>.pdf for several."""
    if not out:
        return [None] * len(names)
    return [p.with_suffix(".pdf") if p is not None else None for p in _html_targets(out, names)]


def _load_encoder_beside(settings: Settings):
    """The meaning layer's encoder loading beside the command's own work (``bymeaning.load_beside``)."""
    from .bymeaning import load_beside

    return load_beside(settings)


def _cmd_check(args: argparse.Namespace) -> int:
    settings = _settings_from(args)
    _check_settings(args.parser, settings)
    templates = _load_templates(args.template, args.lang)
    if templates is None:
        return EXIT_INPUT
    html = _html_targets(args.html, args.suspects) if args.html else [None] * len(args.suspects)
    pdf = _pdf_targets(args.pdf, args.suspects)
    _guard_reports(args, [(t, "html") for t in html] + [(t, "pdf") for t in pdf], args.suspects, collection=True)
    _make_report_folder(args.parser, args.html, len(args.suspects), args.lang)
    _make_report_folder(args.parser, args.pdf, len(args.suspects), args.lang)
    # several: checked in threads of this process with the layer on (worker processes, each
    # loading its own, only with it off)
    _load_encoder_beside(settings)
    rc = EXIT_OK
    with _open_collection(args.db, settings) as coll:
        if len(args.suspects) > 1 or args.classmates:  # several suspects: on every core when there is enough text, same order
            docs, targets = [], []
            for path, html_path, pdf_path in zip(args.suspects, html, pdf):
                doc = _load(path, args.lang)
                if doc is None:
                    rc = EXIT_INPUT
                    continue
                docs.append(doc)
                targets.append((html_path, pdf_path))
            progress = _Progress()
            try:
                results = coll.check_many(docs, settings, progress=progress) if docs else []
            finally:
                progress.finish()
            if args.classmates and len(docs) >= 2:  # each essay compared with the others too
                from .batch import with_classmates

                results, _ = with_classmates(docs, results, settings)
            for result, (html_path, pdf_path) in zip(results, targets):
                result = _with_templates(result, templates, settings)
                if not _emit(result, args, html_path, pdf_path):
                    rc = EXIT_INPUT
            return rc
        for path, html_path, pdf_path in zip(args.suspects, html, pdf):
            doc = _load(path, args.lang)
            if doc is None:
                rc = EXIT_INPUT
                continue
            progress = _Progress()
            try:
                result = coll.check(doc, settings, progress=progress)
            finally:
                progress.finish()
            result = _with_templates(result, templates, settings)
            if not _emit(result, args, html_path, pdf_path):
                rc = EXIT_INPUT
    return rc


def _cmd_compare(args: argparse.Namespace) -> int:
    from . import api

    settings = _settings_from(args)
    _check_settings(args.parser, settings)
    _guard_reports(args, _report_options(args), [args.a, args.b])
    _load_encoder_beside(settings)
    templates = _load_templates(args.template, args.lang)
    a, b = _load(args.a, args.lang), _load(args.b, args.lang)
    if a is None or b is None or templates is None:
        return EXIT_INPUT
    progress = _Progress()
    try:
        result = api.compare(a, b, settings, progress=progress)
    finally:
        progress.finish()
    result = _with_templates(result, templates, settings)
    return EXIT_OK if _emit(result, args, Path(args.html) if args.html else None,
                            Path(args.pdf) if args.pdf else None) else EXIT_INPUT


def _cmd_crosscheck(args: argparse.Namespace) -> int:
    from . import api

    settings = _settings_from(args)
    _check_settings(args.parser, settings)
    files, missing = api.document_files(args.paths)
    from .i18n import check_language
    from .messages import text

    for p, reason in missing:
        _err(f"{_one_line(p)}: {text(reason, check_language(args.lang))}")
    _guard_reports(args, _report_options(args), [str(f) for f in files], collection=args.db is not None)
    if len(files) + (1 if args.db is not None else 0) < 2:
        _err("crosscheck needs at least two documents (or --db to compare them with a collection)")
        return EXIT_INPUT if missing else EXIT_USAGE
    templates = _load_templates(args.template, args.lang)
    if templates is None:
        return EXIT_INPUT
    progress = _Progress()
    coll = _open_collection(args.db, settings) if args.db is not None else None
    try:
        result = api.crosscheck(files, collection=coll, settings=settings, templates=templates, progress=progress)
    finally:
        progress.finish()
        if coll is not None:
            coll.close()
    from .i18n import check_language
    from .messages import text

    from .messages import message

    for path, reason in result.failed:
        _err(f"{_one_line(path)}: {text(reason, check_language(args.lang))}")
    if args.json:
        _json_line(api.crosscheck_to_json(result))
    else:
        lang = check_language(args.lang)
        unread = {path for path, _ in result.failed}
        read = [d for d in result.documents if d not in unread]
        if not result.pairs:  # the documents read, not the files that could not be
            _write(text(message("summary.crosscheck_none", n=len(read),
                                percent=round(100 * settings.crosscheck_threshold)), lang) + "\n")
        for c in result.clusters:
            _write(text(message("summary.crosscheck_cluster", n=len(c), names=", ".join(c)), lang) + "\n")
        for p in result.pairs:
            said = text(message("summary.crosscheck_pair", words=p.shared_words,
                                resemblance=round(100 * p.resemblance, 1)), lang)
            _write(f"{100 * p.a_in_b:5.1f}% {100 * p.b_in_a:5.1f}%  {p.a}  <->  {p.b}  [{said}]\n")
        if unread:
            _write(text(message("summary.crosscheck_unread", n=len(unread)), lang) + "\n")
    ok = _write_html(result, Path(args.html), args.lang, args.full_paths) if args.html else True
    ok = (_write_pdf(result, Path(args.pdf), args.lang, args.full_paths) if args.pdf else True) and ok
    return EXIT_INPUT if (missing or result.failed or not ok) else EXIT_OK


# --------------------------------------------------------------------------------------
# The parser


def _add_db(p: argparse.ArgumentParser, *, optional: bool = False) -> None:
    if optional:
        p.add_argument(
            "--db", nargs="?", const="", default=None, metavar="DB",
            help="also check every document against this collection, a file or a "
                 "postgresql://user@host/db URL (--db alone: the window's collection)",
        )
    else:
        p.add_argument(
            "--db", metavar="DB", default=None,
            help="collection file, or a shared collection on a PostgreSQL server: "
                 "postgresql://user[:password]@host[:port]/db (default: the file the Sverka window uses)",
        )


def _add_outputs(p: argparse.ArgumentParser, html_help: str) -> None:
    p.add_argument("--json", action="store_true", help="print JSON instead of a readable summary")
    p.add_argument("--html", metavar="OUT", help=html_help)
    p.add_argument("--lang", choices=("ru", "en"), default=None,
                   help="language of the reports and the summary (default: from the locale)")
    p.add_argument("--pdf", metavar="OUT",
                   help="also write the report as a PDF for printing (several suspects: OUT is a folder)")
    p.add_argument("--full-paths", action="store_true",
                   help="show full paths of the documents in the HTML/PDF reports (default: paths relative "
                        "to the collection's folder, the checked file by its name)")


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="sverka",
        description="Sverka: find borrowed passages in texts, offline (Russian, Ukrainian, English).",
        epilog="Exit codes: 0 success; 1 some files could not be read (the others were processed); "
        "2 usage error. Run 'sverka COMMAND --help' for the options of a command.",
    )
    p.add_argument("--version", action="version", version=f"sverka {__version__}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND", required=True)

    e = sub.add_parser(
        "extract",
        help="print the extracted plain text of a file (UTF-8)",
        description="Print the plain text Sverka extracts from FILE, as UTF-8, on stdout. "
        "Every character offset Sverka reports is a Python string index into exactly this text.",
    )
    e.add_argument("file", metavar="FILE")
    e.set_defaults(func=_cmd_extract)

    i = sub.add_parser(
        "index",
        help="add files and folders to the reference collection",
        description="Add files and folders (recursively) to the reference collection. Files already "
        "there with the same content are skipped; changed files are indexed again; a file with the "
        "same text as another is reported as a duplicate. A progress bar is drawn on a terminal.",
    )
    _add_db(i)
    i.add_argument("--template", action="store_true",
                   help="mark the documents as template text (e.g. an assignment) that counts for no source")
    i.add_argument("--follow-links", action="store_true",
                   help="also read symbolic links inside the folders that lead outside them")
    i.add_argument("--no-find-by-meaning", dest="find_by_meaning", action="store_false", default=True,
                   help="store no vectors of meaning for these documents (found by their words only; "
                   "a little faster)")
    i.add_argument("paths", nargs="+", metavar="PATH")
    i.set_defaults(func=_cmd_index)

    ls = sub.add_parser("list", help="list the documents of the collection",
                        description="List the documents of the collection: id, words, format, title, path.")
    _add_db(ls)
    ls.add_argument("--json", action="store_true", help="one JSON object per document and line")
    ls.set_defaults(func=_cmd_list)

    rb = sub.add_parser(
        "rebuild", help="rebuild a collection written by an earlier Sverka from the texts it stores",
        description="Rebuild a collection written by an earlier Sverka: every stored text is read again "
        "(the original files are not needed); the old file is kept beside it as NAME.formatN.bak.")
    _add_db(rb)
    rb.set_defaults(func=_cmd_rebuild)

    rm = sub.add_parser(
        "remove", help="remove documents from the collection",
        description="Remove documents from the collection by path or by the id 'sverka list' shows.",
    )
    _add_db(rm)
    rm.add_argument("items", nargs="+", metavar="PATH|ID")
    rm.set_defaults(func=_cmd_remove)

    c = sub.add_parser(
        "check",
        help="check documents against the collection",
        description="Check each SUSPECT against the reference collection: the borrowed share, the "
        "sources and every borrowed passage. With --json, one JSON object per suspect per line "
        "(schema in the README).",
    )
    _add_db(c)
    c.add_argument("suspects", nargs="+", metavar="SUSPECT")
    c.add_argument("--classmates", action="store_true",
                   help="the SUSPECTs are a class: compare them with each other as well as with the collection; "
                        "each result lists the classmates it shares text with as sources (\"classmate\": true "
                        "in JSON), counted in the borrowed share unless --no-count-classmates")
    _add_outputs(c, "write an HTML report: with one SUSPECT, to the file OUT (unless OUT is a folder "
                    "or ends with '/'); with several, into the folder OUT as <suspect name>.html")
    _add_settings_flags(c)
    c.set_defaults(func=_cmd_check, parser=c)

    cm = sub.add_parser(
        "compare",
        help="compare two documents directly",
        description="Compare document A with document B: the same result as checking A against a "
        "collection holding B alone.",
    )
    cm.add_argument("a", metavar="A")
    cm.add_argument("b", metavar="B")
    _add_outputs(cm, "write the HTML report to the file OUT")
    _add_settings_flags(cm)
    cm.set_defaults(func=_cmd_compare, parser=cm)

    x = sub.add_parser(
        "crosscheck",
        help="compare documents with each other (e.g. a class of essays)",
        description="Compare every pair among the given documents (folders are searched for "
        ".txt .md .docx .pdf .odt .rtf .html files) and list the pairs above the threshold; "
        "with --db, also check each against a collection.",
    )
    x.add_argument("paths", nargs="+", metavar="PATH")
    _add_db(x, optional=True)
    _add_outputs(x, "write the HTML report (pairs and matrix) to the file OUT")
    _add_settings_flags(x)
    x.set_defaults(func=_cmd_crosscheck, parser=x)
    return p


def _needs_reader(args: argparse.Namespace) -> bool:
    """Will the command read a file in the sandbox? Not when every file it names is a small
    plain-text one (read in this process: :func:`sverka.core.extract.extract_small_plain`)."""
    from .extract import is_small_plain

    paths = [*getattr(args, "suspects", ()), *getattr(args, "paths", ()),
             *(getattr(args, name) for name in ("a", "b", "file") if getattr(args, name, None))]
    return not paths or not all(is_small_plain(p) for p in paths)


class _OutputFailed(Exception):
    """Writing to standard output failed (a full disk, a device error): not a bug of Sverka."""


class _Guarded:
    """Standard output (or its buffer) whose write errors are :class:`_OutputFailed` (a broken
    pipe stays BrokenPipeError: ``sverka list | head`` is no failure)."""

    def __init__(self, stream) -> None:
        self._stream = stream

    def _call(self, name: str, *a):
        try:
            return getattr(self._stream, name)(*a)
        except BrokenPipeError:
            raise
        except OSError as e:
            raise _OutputFailed(e.strerror or str(e)) from e

    def write(self, data):
        return self._call("write", data)

    def flush(self):
        return self._call("flush")

    @property
    def buffer(self):
        return _Guarded(self._stream.buffer)

    def __getattr__(self, name):
        return getattr(self._stream, name)


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command in ("check", "compare") and getattr(args, "setting__find_by_meaning", None) is not False:
        # the meaning layer's tokenizer loads on a thread of its own while the command imports
        # and reads (its settings, saved or given, decide later whether the layer runs)
        from .tokenizerahead import start

        start()
    stdout = sys.stdout
    if not isinstance(stdout, _Guarded) and hasattr(stdout, "buffer"):
        sys.stdout = _Guarded(stdout)
    try:
        return _run(args)
    finally:
        if isinstance(sys.stdout, _Guarded):  # an embedding program (or a test) gets its own back
            sys.stdout = stdout


def _run(args: argparse.Namespace) -> int:
    if args.func in (_cmd_check, _cmd_compare, _cmd_crosscheck, _cmd_extract) and _needs_reader(args):
        # the file reader's process starts while this one imports the engine
        from .workers import shared_sandbox

        shared_sandbox().prestart()
    try:
        return args.func(args)
    except KeyboardInterrupt:
        _err("interrupted")
        return 130
    except BrokenPipeError:
        _quiet_stdout()  # the flush at exit after `| head`
        return EXIT_OK
    except _OutputFailed as e:
        _quiet_stdout()
        _err(_say("cli.output_failed", getattr(args, "lang", None), detail=str(e)))
        return EXIT_INPUT
    except Exception as e:  # user errors (SverkaError) get their message; anything else is a bug
        from .errors import SverkaError

        if isinstance(e, SverkaError):
            _err(_error_text(e, getattr(args, "lang", None)))
            return EXIT_INPUT
        raise


def entry() -> None:
    """The ``sverka`` program: :func:`main`, and a process that ends at once after it.

    Once a command has returned, its output is written and its collection closed; what the
    interpreter would still do is free its objects one by one (the dictionaries, the encoder,
    the form table): 30-50 ms of a cold ``check`` that takes ~0.4 s. Registered before the
    command registers anything, :func:`_end_at_once` runs last at exit, after every other
    handler (the machine's form table written, the file reader's process stopped, a model's
    load joined) and after the threads still running were joined: it writes out what the
    standard streams hold and ends the process with the command's status. A command that
    ended by an exception (a usage error, a bug) ends as Python ends it."""
    import atexit

    ending: dict[str, int] = {}
    atexit.register(_end_at_once, ending)
    code = main()
    ending["code"] = code
    sys.exit(code)


def _end_at_once(ending: dict[str, int]) -> None:
    code = ending.get("code")
    if code is None:
        return
    for stream in (sys.stdout, sys.stderr):
        if stream is None:  # started without it (``>&-``): nothing to write out
            continue
        try:
            stream.flush()
        except BrokenPipeError:  # `| head` gone: the command's status stands, as in _run
            pass
        except (OSError, ValueError):  # a full disk, a closed stream: as Python would end it
            code = code or 120
    os._exit(code)


def _quiet_stdout() -> None:
    try:
        sys.stdout = open(os.devnull, "w")
    except OSError:
        pass


if __name__ == "__main__":
    entry()
