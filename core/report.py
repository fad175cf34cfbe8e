"""Reports: a check or cross-check result as JSON-ready dicts and as one self-contained HTML file.

JSON (what ``sverka check --json`` prints, one object per suspect)::

    {"suspect": {"path", "chars", "words", "language", "warnings"},
     "in_collection": null | {"path", "title", "added"},
     "borrowed_percent", "cited_percent", "original_percent", "warnings",
     "sources": [{"path", "title", "containment", "resemblance", "sentence_score", "classmate",
                  "passages": [{"suspect_start", "suspect_end", "source_start", "source_end",
                                "words", "matched_words", "similarity", "kind", "method", "excluded"}]}]}

Every warning (the suspect's: extraction and tampering; the result's: a long quotation, many
quotations) is ``{"code", "args", "text"}``: a stable code of :mod:`sverka.core.messages`, its
numbers, and the English text for a person reading the JSON.

``classmate`` is true for a source that is another essay of the same class (a class checked
with its essays compared: ``sverka check --classmates``), false for the others.

``kind`` says what kind of borrowing a passage is (results.KINDS: verbatim, inflected,
edited, synonyms, reordered, paraphrase, short). Sources are sorted by containment, highest first
(ties by content); passages by
``suspect_start``. Shares are in 0..1, percentages in 0..100 (shares of the suspect's
words; borrowed + cited + original = 100), offsets are Python ``str`` indices into the
extracted texts.

HTML: jinja2 with autoescape on and no ``|safe`` anywhere, so user text (the suspect, titles,
paths) can only ever show as text. The suspect text is cut into pieces at passage and
quotation boundaries here in Python and each piece is escaped by the template. No external
CSS, fonts or scripts: the file opens offline and links only to anchors inside itself.
Paths of the documents are shown relative to the collection's folder
(``CheckResult.collection_root``), a file outside it by its name only, unless
``full_paths`` is asked for: a report handed on does not give away the teacher's folders.
"""

from __future__ import annotations

import bisect
import contextlib
import hashlib
import os
import re
import unicodedata
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Sequence

from . import __version__
from .messages import text as message_text
from .messages import to_json as message_json
from .results import EXCLUSIONS, KINDS, METHODS, CheckResult, CrossCheckResult, SourceMatch
# The API imports this module at its start: imports inside functions below load the translations,
# the checker's helpers and the form cache's writer only when a report is made (down the layers).

__all__ = ["check_result_to_dict", "crosscheck_to_dict", "render_html", "render_pdf"]

TEMPLATES = Path(__file__).resolve().parent / "templates"

#: Hues of the sources by rank, shared with the window (``sverka.gui.models.source_colour``);
#: further sources continue with the golden angle.
SOURCE_HUES = (210, 30, 120, 350, 275, 50, 180, 320, 90, 245)


def source_hue(index: int) -> float:
    """Hue (degrees) of the ``index``-th source, the same in the window and the reports."""
    if index < len(SOURCE_HUES):
        return float(SOURCE_HUES[index])
    return (SOURCE_HUES[-1] + 137.508 * (index - len(SOURCE_HUES) + 1)) % 360


def source_key(src: SourceMatch) -> str:
    """A source's identity for its colour: the SHA-256 of its text (else its path or title)."""
    return src.sha256 or src.path or src.title


def colour_slots(keys: Sequence[str]) -> list[int]:
    """The colour (an index for :func:`source_hue`) of each source, keyed by its identity,
    not by its rank: a source keeps its colour when a re-check or an exclusion reorders the
    sources, in the window and in the reports alike. Each key prefers the palette slot its
    hash names; keys taken in sorted order move to the next free slot on a clash, so no two
    sources of one result share a colour; beyond the palette, slots continue in sorted order."""
    n = len(SOURCE_HUES)
    taken: set[int] = set()
    slot_of: dict[str, int] = {}
    for key in sorted(set(keys)):
        if len(taken) < n:
            slot = int(hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()[:8], 16) % n
            while slot in taken:
                slot = (slot + 1) % n
        else:
            slot = len(taken)
        taken.add(slot)
        slot_of[key] = slot
    return [slot_of[k] for k in keys]


def _hsl_hex(hue: float, saturation: float, lightness: float) -> str:
    import colorsys

    r, g, b = colorsys.hls_to_rgb(hue / 360.0, lightness, saturation)
    return "#%02x%02x%02x" % (round(r * 255), round(g * 255), round(b * 255))


def source_colour(index: int) -> str:
    """Background of the ``index``-th source's passages (the window's light palette)."""
    return _hsl_hex(source_hue(index), 0.85, 0.83)


def source_edge(index: int) -> str:
    """Darker edge of the same colour (swatches, borders)."""
    return _hsl_hex(source_hue(index), 0.70, 0.38)


#: Colours of the first ten sources (background of highlighted passages), as in the window.
PALETTE = tuple(source_colour(i) for i in range(len(SOURCE_HUES)))
PALETTE_EDGE = tuple(source_edge(i) for i in range(len(SOURCE_HUES)))
#: Characters of source text shown around a matching excerpt.
EXCERPT_CONTEXT = 160


def _share(x: float) -> float:
    return round(float(x), 6)


def _percent(x: float) -> float:
    return round(float(x), 4)


def _source_key(s: SourceMatch) -> str:
    return s.path if s.path is not None else s.title


def _sorted_sources(result: CheckResult) -> list[SourceMatch]:
    """Sources by containment, highest first; ties keep the result's order (broken by content
    in :func:`sverka.core.exclusions.apply_exclusions`), never by name."""
    return sorted(result.sources, key=lambda s: -s.containment)


def check_result_to_dict(result: CheckResult) -> dict:
    """The JSON object of one check (see the module docstring for the schema)."""
    s = result.suspect
    return {
        "suspect": {
            "path": s.path if s.path is not None else s.title,
            "chars": int(s.chars),
            "words": int(s.words),
            "language": s.language,
            "warnings": [message_json(w) for w in s.warnings],
        },
        "warnings": [message_json(w) for w in result.warnings],
        "in_collection": None if result.in_collection is None else {
            "path": result.in_collection.path, "title": result.in_collection.title,
            "added": result.in_collection.added},
        "borrowed_percent": _percent(result.borrowed_percent),
        "cited_percent": _percent(result.cited_percent),
        "original_percent": _percent(result.original_percent),
        "sources": [
            {
                "path": _source_key(src),
                "title": src.title,
                "containment": _share(src.containment),
                "resemblance": _share(src.resemblance),
                "sentence_score": _share(src.sentence_score),
                "classmate": bool(src.classmate),
                "passages": [
                    {
                        "suspect_start": int(p.suspect_start),
                        "suspect_end": int(p.suspect_end),
                        "source_start": int(p.source_start),
                        "source_end": int(p.source_end),
                        "words": int(p.words),
                        "matched_words": int(p.matched_words),
                        "similarity": _share(p.similarity),
                        "kind": p.kind,
                        "method": p.method,
                        "excluded": p.excluded,
                    }
                    for p in sorted(src.passages, key=lambda p: (p.suspect_start, p.suspect_end))
                ],
            }
            for src in _sorted_sources(result)
        ],
    }


def crosscheck_to_dict(result: CrossCheckResult) -> dict:
    """``{"documents": [...], "pairs": [{"a", "b", "a_in_b", "b_in_a", "resemblance",
    "shared_words", "passages"}], "clusters": [[...]]}``."""
    return {
        "documents": list(result.documents),
        "pairs": [
            {
                "a": p.a,
                "b": p.b,
                "a_in_b": _share(p.a_in_b),
                "b_in_a": _share(p.b_in_a),
                "resemblance": _share(p.resemblance),
                "shared_words": int(p.shared_words),
                "passages": [
                    {"a_start": int(q.suspect_start), "a_end": int(q.suspect_end),
                     "b_start": int(q.source_start), "b_end": int(q.source_end),
                     "words": int(q.words), "matched_words": int(q.matched_words), "kind": q.kind}
                    for q in p.passages
                ],
            }
            for p in result.pairs
        ],
        "clusters": [list(c) for c in result.clusters],
    }


# --------------------------------------------------------------------------------------
# HTML


@dataclass(frozen=True)
class _Piece:
    """A run of suspect text with one set of covering passages and marks."""

    text: str
    start: int
    anchors: tuple[str, ...]  # ids of passages starting here (targets of "back" links)
    numbers: tuple[int, ...]  # source numbers (1-based) of counted passages starting here
    link: str | None  # id of the source excerpt this piece links to
    css: str  # class names
    colour: str | None  # background colour of the first counted source
    title: str  # tooltip


def _level(percent: float) -> str:
    """Traffic-light class of a borrowed percentage."""
    if percent >= 40:
        return "high"
    if percent >= 15:
        return "medium"
    return "low"


def _pid(src_rank: int, n: int) -> str:
    return f"p{src_rank + 1}-{n + 1}"


def _xid(src_rank: int, n: int) -> str:
    return f"x{src_rank + 1}-{n + 1}"


def _pieces(result: CheckResult, sources: list[SourceMatch], tr=lambda s: s) -> list[_Piece]:
    """Cut the suspect text at every passage and mark boundary; each piece knows what covers it."""
    slots = colour_slots([source_key(s) for s in sources])
    text = result.suspect_text
    n = len(text)
    # (start, end, rank, index, passage) of every passage, clipped to the text.
    spans = []
    for rank, src in enumerate(sources):
        for i, p in enumerate(sorted(src.passages, key=lambda p: (p.suspect_start, p.suspect_end))):
            a, b = max(0, min(n, p.suspect_start)), max(0, min(n, p.suspect_end))
            if b > a:
                spans.append((a, b, rank, i, p))
    marks = [(max(0, m.start), min(n, m.end), m.kind) for m in result.marked if m.end > m.start]
    cuts = {0, n}
    for a, b, *_ in spans:
        cuts.update((a, b))
    for a, b, _ in marks:
        cuts.update((a, b))
    cuts = sorted(c for c in cuts if 0 <= c <= n)
    starts_at: dict[int, list[str]] = {}
    numbers_at: dict[int, set[int]] = {}
    for a, _, rank, i, p in spans:
        starts_at.setdefault(a, []).append(_pid(rank, i))
        if p.excluded is None:
            numbers_at.setdefault(a, set()).add(rank + 1)

    pieces = []
    # Sweep over the cuts: every span and mark boundary is a cut, so a span covers a piece
    # exactly when it is active at the piece's start. Keeping the active sets makes this
    # linear in pieces + spans + marks (a text with 30 000 quotations used to be quadratic).
    span_order = sorted(range(len(spans)), key=lambda k: spans[k][0])
    mark_order = sorted(range(len(marks)), key=lambda k: marks[k][0])
    active_spans: dict[int, tuple] = {}
    active_marks: dict[int, tuple] = {}
    si = mi = 0
    for a, b in zip(cuts, cuts[1:]):
        if b <= a:
            continue
        while si < len(span_order) and spans[span_order[si]][0] <= a:
            active_spans[span_order[si]] = spans[span_order[si]]
            si += 1
        while mi < len(mark_order) and marks[mark_order[mi]][0] <= a:
            active_marks[mark_order[mi]] = marks[mark_order[mi]]
            mi += 1
        for k in [k for k, s in active_spans.items() if s[1] <= a]:
            del active_spans[k]
        for k in [k for k, m in active_marks.items() if m[1] <= a]:
            del active_marks[k]
        covering = [s for s in active_spans.values() if s[1] >= b]
        kinds = sorted({k for (ma, mb, k) in active_marks.values() if mb >= b})
        counted = [s for s in covering if s[4].excluded is None]
        css = [f"mark-{k}" for k in kinds]
        link = colour = None
        tips = []
        if counted:
            first = min(counted, key=lambda s: (s[2], s[3]))
            css.append("borrowed")
            link, colour = _xid(first[2], first[3]), source_colour(slots[first[2]])
        elif covering:
            first = min(covering, key=lambda s: (s[2], s[3]))
            css.append("excluded")
            link = _xid(first[2], first[3])
        for _, _, rank, i, p in sorted(covering, key=lambda s: (s[2], s[3])):
            why = f" ({tr('not counted')}: {tr(EXCLUSIONS.get(p.excluded, p.excluded))})" if p.excluded else ""
            tips.append(f"[{rank + 1}] {sources[rank].title}: {tr(METHODS.get(p.method, p.method))}{why}")
        for k in kinds:
            tips.append(tr({"quote": "quotation", "bibliography": "bibliography"}.get(k, k)))
        pieces.append(
            _Piece(
                text=text[a:b],
                start=a,
                anchors=tuple(starts_at.pop(a, ())),
                numbers=tuple(sorted(numbers_at.pop(a, ()))),
                link=link,
                css=" ".join(css),
                colour=colour,
                title="\n".join(tips),
            )
        )
    return pieces


def _context_before(text: str, a: int) -> str:
    """Up to EXCERPT_CONTEXT characters before ``a``, starting at a word boundary when cut."""
    start = max(0, a - EXCERPT_CONTEXT)
    piece = text[start:a]
    if start > 0:
        cut = re.search(r"\s", piece)
        piece = piece[cut.end():] if cut else piece
    return piece


def _context_after(text: str, b: int) -> str:
    """Up to EXCERPT_CONTEXT characters after ``b``, ending at a word boundary when cut."""
    end = min(len(text), b + EXCERPT_CONTEXT)
    piece = text[b:end]
    if end < len(text):
        cut = max(piece.rfind(" "), piece.rfind("\n"))
        piece = piece[:cut] if cut > 0 else piece
    return piece


def _excerpts(src: SourceMatch, rank: int, suspect_text: str, _=lambda s: s) -> list[dict]:
    out = []
    text = src.source_text or ""  # a long source's excerpts hold its passages and their context
    for i, p in enumerate(sorted(src.passages, key=lambda p: (p.suspect_start, p.suspect_end))):
        a, b = max(0, p.source_start), min(len(text), p.source_end)
        out.append(
            {
                "id": _xid(rank, i),
                "back": _pid(rank, i),
                "passage": p,
                "method": _(METHODS.get(p.method, p.method)),
                "kind": _(KINDS.get(p.kind, p.kind)) if p.kind else "",
                "excluded": _(EXCLUSIONS.get(p.excluded, p.excluded)) if p.excluded else None,
                "suspect": suspect_text[p.suspect_start:p.suspect_end],
                "before": _context_before(text, a),
                "match": text[a:b],
                "after": _context_after(text, b),
                "cut_before": a - EXCERPT_CONTEXT > 0,
                "cut_after": b + EXCERPT_CONTEXT < len(text),
            }
        )
    return out


def shown_path(path: str | None, root: str | None, full: bool = False) -> str | None:
    """``path`` as a report shows it: relative to ``root`` when inside it, else the file's
    name; as it is with ``full`` (and when it is relative already)."""
    import os

    if not path or full or not os.path.isabs(path):  # a relative path says nothing of the folders
        return path
    if root:
        root = root.rstrip(os.sep) or os.sep
        if path.startswith(root + os.sep) or (root == os.sep and path.startswith(os.sep)):
            return os.path.relpath(path, root)
    return os.path.basename(path) or path


def _environment(lang: str | None = "en"):
    import jinja2

    from .i18n import translator

    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(TEMPLATES)),
        autoescape=True,
        trim_blocks=True,
        lstrip_blocks=True,
        undefined=jinja2.StrictUndefined,
    )
    from .i18n import format_count, format_percent

    env.filters["pct"] = lambda x: format_percent(float(x), lang)
    env.filters["share"] = lambda x: format_percent(100 * float(x), lang)
    env.filters["count"] = lambda n, unit: format_count(int(n), unit, lang)
    env.globals["_"] = translator(lang)
    env.filters["msg"] = lambda m: message_text(m, lang or "en")
    return env


def _settings_rows(settings, lang: str | None, where=lambda p: p) -> list[tuple[str, str]]:
    """Every setting of a result as the one declaration (sverka.core.settings.SETTINGS_INFO)
    words it: (label, value with its unit) in the report's language."""
    from .i18n import check_language
    from .settings import SETTINGS_INFO

    lang = "ru" if check_language(lang) == "ru" else "en"
    rows = []
    for name, info in SETTINGS_INFO.items():
        value = getattr(settings, name)
        if name == "excluded_sources":
            value = tuple(where(v) for v in value)
        rows.append((info.label(lang), info.shown(value, lang)))
    return rows


def _heat(x: float) -> str:
    """Background of a cross-check matrix cell: white to red by containment 0..1."""
    x = max(0.0, min(1.0, float(x)))
    g = round(255 - 150 * x)
    return f"rgb(255,{g},{g})"


#: Passages of one pair shown in the cross-check report (the JSON has them all), and the
#: characters shown of each side of a passage.
PAIR_PASSAGES_SHOWN = 20
PASSAGE_CHARS_SHOWN = 400


def _clip(text: str) -> str:
    return text if len(text) <= PASSAGE_CHARS_SHOWN else text[:PASSAGE_CHARS_SHOWN].rstrip() + "\u2026"


def _pair_passages(result: CrossCheckResult) -> list[dict]:
    """For each listed pair: its passages side by side (A's words, B's words), as plain text
    the template escapes; empty where the texts are not in the result."""
    texts = dict(result.texts)
    out = []
    for pair in result.pairs:
        a, b = texts.get(pair.a), texts.get(pair.b)
        shown = []
        if a is not None and b is not None:
            for p in sorted(pair.passages, key=lambda p: p.suspect_start)[:PAIR_PASSAGES_SHOWN]:
                shown.append({"a": _clip(a[p.suspect_start:p.suspect_end]), "b": _clip(b[p.source_start:p.source_end]),
                              "words": p.words, "kind": KINDS.get(p.kind, p.kind) if p.kind else ""})
        out.append({"pair": pair, "passages": shown, "more": max(0, len(pair.passages) - len(shown))})
    return out


#: The paper layout hands the suspect text to WeasyPrint in a shape it lays out in time linear in
#: its length. WeasyPrint lays out every line of a text box from the rest of the box: it encodes
#: the rest (n characters a line: quadratic in the box), and when the rest begins with a word that
#: has no break point (CSS ``overflow-wrap`` breaks it, but only after the fact) it gives pango the
#: whole rest to lay out, line after line (a 100 000-letter word took 2 minutes; CSS ``anywhere``
#: or ``break-all`` do no better). So, on paper only: a run of PAPER_RUN characters or more
#: without a break opportunity gets one (a zero-width space) after every character, and a piece
#: of text longer than PAPER_BOX characters goes in inline boxes (``<span>``) of at most PAPER_BOX
#: characters, each ending after a line end, a space or such a zero-width space. An essay has
#: neither (its paper HTML stays as it was); offsets, the HTML report and the JSON never see them.
PAPER_RUN = 1000
PAPER_BOX = 20000
#: Spaces pango may break a line after (U+200B among them; not the no-break spaces U+00A0,
#: U+2007, U+202F); with the line ends they delimit the runs.
_SPACES = " \t\u1680\u2000-\u2006\u2008-\u200b\u205f\u3000"
_LONG_RUN = re.compile(f"[^{_SPACES}\n\v\f\r\x85\u2028\u2029]{{{PAPER_RUN},}}")
_LAST_SPACE = re.compile(f".*[{_SPACES}]", re.S)


def _long_runs(text: str) -> list[tuple[int, int]]:
    """(start, end) of the runs of ``text`` that get a break opportunity after every character
    on paper: whole runs, so a run cut into pieces by passages and quotations gets them too."""
    return [m.span() for m in _LONG_RUN.finditer(text)]


def _breakable(run: str, *, last: bool = False) -> str:
    """``run`` with a zero-width space after every character (a long run fills its lines as
    before, when ``overflow-wrap`` broke it anywhere), after the last one only if ``last``; none
    that parts a letter from its combining marks (up to 31) or the emoji of a zero-width-joiner
    sequence (up to 8)."""
    glued = "".join(c for c in set(run) if unicodedata.category(c) in ("Mn", "Mc", "Me")
                    or "\U0001f3fb" <= c <= "\U0001f3ff")  # skin tones
    marks = f"[{re.escape(glued)}]{{0,31}}" if glued else ""
    # the clusters one after the other, each as long as it can be (atomic: never cut short)
    out = re.sub(f"((?>.{marks}(?:\u200d.{marks}){{0,7}}))", "\\1\u200b", run, flags=re.S)
    return out if last else out[:-1]


def _paper_boxes(text: str, start: int = 0, runs: Sequence[tuple[int, int]] = ()) -> list[str]:
    """The inline boxes the paper layout gives a piece of the suspect text in: ``text``, found at
    ``start``, with the parts inside ``runs`` (:func:`_long_runs`) made breakable, cut where
    longer than PAPER_BOX. ``[text]`` for a piece of an essay."""
    end = start + len(text)
    k = bisect.bisect_right(runs, (start, end))
    k -= k > 0 and runs[k - 1][1] > start  # a run that begins before the piece
    parts, at = [], start
    for a, b in runs[k:]:
        if a >= end:
            break
        a, b_in = max(a, start), min(b, end)
        if b_in > a:
            parts += [text[at - start:a - start], _breakable(text[a - start:b_in - start], last=b_in < b)]
            at = b_in
    if parts:
        text = "".join(parts) + text[at - start:]
    boxes, at = [], 0
    while len(text) - at > PAPER_BOX:
        window = text[at + PAPER_BOX // 2:at + PAPER_BOX]
        cut = window.rfind("\n") + 1
        if not cut:
            space = _LAST_SPACE.match(window)
            cut = space.end() if space else len(window)
        boxes.append(text[at:at + PAPER_BOX // 2 + cut])
        at += PAPER_BOX // 2 + cut
    boxes.append(text[at:])
    return boxes


def render_html(result: CheckResult | CrossCheckResult, *, paper: bool = False, lang: str | None = "en",
                full_paths: bool = False) -> str:
    """One self-contained HTML page (inline CSS, no scripts, no external links).

    ``paper``: the layout :func:`render_pdf` prints (A4 pages, page numbers, source numbers
    beside the passages, file names instead of full paths, no excerpt section).
    ``lang``: ``"en"`` or ``"ru"`` (``None``: from the locale), the words of the whole report.
    ``full_paths``: show documents by their full paths (default: relative, see the module doc).
    """
    from .i18n import check_language, format_time

    lang = check_language(lang)
    env = _environment(lang)
    _ = env.globals["_"]
    common = {
        "paper": paper,
        "lang": lang,
        "version": __version__,
        "generated": format_time(datetime.now(timezone.utc), lang),
    }
    if isinstance(result, CrossCheckResult):
        from .check import common_folder

        root = common_folder(list(result.documents))
        env.filters["where"] = lambda p: shown_path(p, root, full_paths)
        docs = list(result.documents)
        matrix = [
            [
                {"value": v, "heat": _heat(v), "diag": i == j}
                for j, v in enumerate(row)
            ]
            for i, row in enumerate(result.matrix)
        ]
        shas = list(result.sha256) + [""] * (len(docs) - len(result.sha256))
        return env.get_template("crosscheck.html.j2").render(
            result=result, documents=list(zip(docs, shas)), matrix=matrix, pair_passages=_pair_passages(result),
            settings_rows=_settings_rows(result.settings, lang, env.filters["where"]), **common
        )

    env.filters["where"] = lambda p: shown_path(p, result.collection_root, full_paths)
    runs = _long_runs(result.suspect_text) if paper else []
    env.filters["paper_boxes"] = lambda text, start: _paper_boxes(text, start, runs)
    sources = _sorted_sources(result)
    slots = colour_slots([source_key(s) for s in sources])
    rows = []
    for rank, src in enumerate(sources):
        counted = [p for p in src.passages if p.excluded is None]
        rows.append(
            {
                "rank": rank + 1,
                "src": src,
                "colour": source_colour(slots[rank]),
                "edge": source_edge(slots[rank]),
                "counted": len(counted),
                "excluded": len(src.passages) - len(counted),
                "first": _pid(rank, 0) if src.passages else None,
                "excerpts": _excerpts(src, rank, result.suspect_text, _),
            }
        )
    exclusions: dict[str, int] = {}
    for src in sources:
        for p in src.passages:
            if p.excluded:
                exclusions[p.excluded] = exclusions.get(p.excluded, 0) + 1
    marked = [
        {"kind": m.kind, "start": m.start, "end": m.end, "text": result.suspect_text[m.start:m.end]}
        for m in sorted(result.marked, key=lambda m: (m.start, m.end))
    ]
    return env.get_template("report.html.j2").render(
        result=result,
        suspect=result.suspect,
        level=_level(result.borrowed_percent),
        rows=rows,
        pieces=_pieces(result, sources, _),
        exclusions=[(_(EXCLUSIONS.get(k, k)), n) for k, n in sorted(exclusions.items())],
        marked=marked,
        settings_rows=_settings_rows(result.settings, lang, env.filters["where"]),
        methods=METHODS,
        **common,
    )


def render_pdf(result: CheckResult | CrossCheckResult, path: str | Path, *, lang: str | None = "en",
               full_paths: bool = False) -> Path:
    """Write the report as a PDF: the HTML report's paper layout typeset by WeasyPrint.

    WeasyPrint (pango underneath) gives real pages: paragraphs, tables that break between
    rows, page numbers, fonts with Cyrillic. It is imported only here; the HTML never refers to
    anything outside itself, so nothing is fetched while printing.
    """
    import logging

    import weasyprint

    logging.getLogger("weasyprint").setLevel(logging.ERROR)
    logging.getLogger("fontTools").setLevel(logging.ERROR)
    path = Path(path)
    html = render_html(result, paper=True, lang=lang, full_paths=full_paths)
    with _removed_on_sigterm(), written_whole(path) as tmp:
        weasyprint.HTML(string=html, base_url=None, url_fetcher=_no_fetch).write_pdf(tmp)
    return path


class _Terminated(BaseException):
    """SIGTERM arrived while a PDF was being written (see :func:`_removed_on_sigterm`)."""


@contextlib.contextmanager
def _removed_on_sigterm():
    """A SIGTERM (``timeout``, a service manager, ``kill``) while the block runs does what it
    would have done, ends the process, but after the block's clean-up: the half-written
    temporary file of :func:`written_whole` is removed, not left beside the report. Only where
    SIGTERM has its default action and on the main thread (the one Python delivers signals
    to): a program's own handler, or a report written on a worker thread, is left alone.
    Ctrl+C needs nothing: KeyboardInterrupt already goes through the clean-up."""
    import signal
    import threading

    if (threading.current_thread() is not threading.main_thread()
            or signal.getsignal(signal.SIGTERM) is not signal.SIG_DFL):
        yield
        return

    def stop(signum, frame):
        raise _Terminated

    signal.signal(signal.SIGTERM, stop)
    try:
        yield
    except _Terminated:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        os.kill(os.getpid(), signal.SIGTERM)  # die of it as the sender meant (exit status 143)
        raise
    finally:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)


@contextlib.contextmanager
def written_whole(path: Path):
    """A temporary file beside ``path`` to write a report into, put in its place in one step at
    the end (a full disk or an error leaves no half a report, and an earlier report stays),
    with the permissions a new file gets (not the temporary file's 0600)."""
    from .formcache import replacing

    with replacing(Path(path)) as tmp:
        yield tmp
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)


def _no_fetch(url: str, *args, **kwargs):
    """The report is self-contained: refuse any URL rather than fetch it."""
    raise ValueError(f"the report does not load external resources ({url[:60]})")
