"""Exclusions and scores, applied to a finished result without searching again (ISSUE 4 item 4).

:func:`apply_exclusions` takes every passage the search found, marks the ones that do not
count (``Passage.excluded``), and recomputes every score from the others:

* ``"source"``: the source is in ``Settings.excluded_sources`` (its path or sha256: left out
  of every check) or in the result's own ``left_out`` (left out of this result only).
* ``"classmate"``: the source is another essay of the class (``SourceMatch.classmate``) and
  ``Settings.count_classmates`` is off: listed, not counted.
* ``"class"``: the source is another essay of the class and the passage lies mostly in the
  suspect's text common to most of the class (``CheckResult.class_common``: the assignment
  everyone pasted) with fewer than ``min_passage_words`` matched words outside it, when
  ``Settings.exclude_class_common``; those words never count for a classmate (a collection
  source's passage there still counts).
* ``"common"``: the source is one of the collection's documents that have, at their own
  opening, the text at the suspect's opening that at least :data:`COLLECTION_COMMON_DOCUMENTS`
  of them share (``CheckResult.collection_common``, ``CheckResult.common_sources``: last year's
  essays of the same assignment in a department's archive), and the passage lies mostly in it
  with fewer than ``min_passage_words`` matched words outside it, when
  ``Settings.exclude_class_common``; those words never count for those documents (another
  source holding the text elsewhere still counts it).
* ``"template"``: the source is a template document (an assignment prompt); and in every
  other source, a passage lying mostly (>= half its characters) in a suspect region that a
  template matched.
* ``"bibliography"`` / ``"quote"``: a passage lying mostly in the bibliography section or in
  quoted text of the suspect (when ``exclude_bibliography`` / ``exclude_quotes``).
* ``"short"``: fewer than ``min_passage_words`` words of the text matched (``Passage.matched_words``);
  for a passage of the paraphrase layer, the words it spans (``Passage.words``):
  the layer judges whole sentences by their rare words, so a paraphrased sentence of ten words
  keeps its length though only six of them agree (its share still counts only those six). A
  passage of the meaning layer (whole sentences, each accepted with corroboration by
  :func:`sverka.core.meaning.accept`, which is stricter with short ones) counts from half of
  ``min_passage_words`` (4 words by default): a reworded headline or short statement of fact is
  a borrowing, whereas a few words matched exactly inside a sentence are often a common phrase.

Scores are shares of the suspect's WORDS (:func:`sverka.core.text.word_starts`), never of
whitespace, punctuation or padding: a source's containment and the borrowed share count the
words inside the matched pieces of counted passages, minus the student's own quotations,
the bibliography and template regions (those words never count as borrowed, even under a
passage that mostly lies elsewhere). The cited share counts the words of the student's own
quotations and of the bibliography that a source matches; original is the rest, so the
three sum to 100. Quotation marks that are already in the source at that place, inside a
copied passage that goes on well past them (a novel's dialogue copied with its paragraph), are
not the student's: that text is copied, not cited. ``count_quotes_as_borrowed`` counts the
student's quotations as borrowed.

The result's ``warnings`` make "quote everything" visible: one quotation of the student's
longer than :data:`LONG_QUOTE_WORDS` words, or quotations making up more than
:data:`QUOTED_PERCENT` % of the words (codes ``warning.long_quotation`` and
``warning.many_quotations`` of :mod:`sverka.core.messages`).
"""

from __future__ import annotations

import bisect
import dataclasses
import re
from collections import Counter
from typing import Sequence

import numpy as np

from .intervals import Interval, inside, intersect, merge, subtract
from .messages import Message, message
from .results import CheckResult, Passage, SourceMatch, Span
from .settings import Settings
from .text import word_starts, words_in
from .words import WRITTEN_WORD

__all__ = [
    "apply_exclusions",
    "collection_common",
    "common_opening",
    "find_bibliography",
    "find_quotes",
    "heading_end",
    "marked_spans",
]

#: A quotation of the student's longer than this many words is pointed out.
LONG_QUOTE_WORDS = 40
#: Quotations of the student's covering more than this share of the words are pointed out.
QUOTED_PERCENT = 25.0


def _mostly_inside(p: Passage, regions: Sequence[Interval]) -> bool:
    n = p.suspect_end - p.suspect_start
    return n > 0 and 2 * inside(p.suspect_start, p.suspect_end, regions) >= n


# -- quotations -----------------------------------------------------------------------

_PAIRS = {"«": "»", "„": "“", "“": "”"}
_MARKS = re.compile('["«»„“”]')  # only these characters matter to the quotation scan
_PARAGRAPH = re.compile(r"\n[ \t\r\f\v]*\n")


def find_quotes(text: str) -> list[Interval]:
    """Quoted text: « », „ “, “ ” and straight " " pairs, including the marks.

    A quotation never runs past the end of a paragraph (a blank line) nor beyond
    :data:`MAX_QUOTE_CHARS`: an unclosed mark does not swallow the rest of the text. A
    straight mark opens after a space or bracket before a non-space, and closes after a
    non-space before a space or punctuation; other straight marks are ignored. Nested quotes
    lie inside the outer one, straight ones too (:data:`STRAIGHT_DEPTH`). Single
    quotes are not quotations (they are apostrophes too often). Of what this finds, the
    student's quotations are those :func:`is_quotation` keeps (not "9 «Б»", «Война и мир»).
    """
    out: list[Interval] = []
    start = 0
    for m in list(_PARAGRAPH.finditer(text)) + [None]:
        end = m.start() if m else len(text)
        out.extend((start + s, start + e) for s, e in _quotes_in(text[start:end]))
        start = m.end() if m else end
    return merge(out)


#: Text in quotation marks is a quotation when it holds at least this many words, or is a
#: sentence of its own (it ends with . ! ? … inside the marks), or follows a colon (an
#: attribution: "Горький писал: «...»"). Fewer words are a name: a class ("9 «Б»"), a book
#: («Война и мир»), a company, a word in its own sense.
QUOTE_MIN_WORDS = 4


def is_quotation(text: str, start: int, end: int) -> bool:
    """Is the quoted ``text[start:end]`` (marks included) a quotation rather than a name?"""
    inner = text[start + 1 : end - 1]
    if len(WRITTEN_WORD.findall(inner)) >= QUOTE_MIN_WORDS:
        return True
    if inner.rstrip().endswith((".", "!", "?", "…")):
        return True
    return _after_colon(text, start)


def _after_colon(text: str, start: int) -> bool:
    """Whether the last character before ``start`` but spaces is a colon (an attribution:
    "Горький писал: «...»", "Задание: «...»")."""
    return text[max(0, start - 20) : start].rstrip().endswith(":")


_OPENS_AFTER = set(" \t\n\r([{—–-/")
_CLOSES_BEFORE = set(" \t\n\r)]}.,;:!?…—–-/")
#: A quotation longer than this is a stray mark pairing with a far one, not a quotation.
MAX_QUOTE_CHARS = 3000
#: Straight marks open inside one another this deep at most: a student typing in a plain
#: editor quotes a sentence that quotes a word ("... о "понятности" произведения ..."); the
#: nested pair closed, the outer one closes at its own mark.
STRAIGHT_DEPTH = 2


def _quotes_in(s: str) -> list[Interval]:
    out: list[Interval] = []
    stack: list[tuple[str, int]] = []  # (expected closing mark, position of the opening)
    # Stack levels expecting each closing mark, so an orphan closer finds its level in O(1)
    # (a linear scan of the stack made 50 000 « then 50 000 ” quadratic).
    levels: dict[str, list[int]] = {}
    straight: list[int] = []  # open straight marks: an outer one and one nested in it at most
    n = len(s)
    for mark in _MARKS.finditer(s):
        k, ch = mark.start(), mark.group()
        if ch == '"':
            before = s[k - 1] if k else " "
            after = s[k + 1] if k + 1 < n else " "
            can_open = before in _OPENS_AFTER and not after.isspace()
            can_close = not before.isspace() and (after in _CLOSES_BEFORE or after == '"')
            if straight and can_close:
                out.append((straight.pop(), k + 1))
            elif can_open:
                if len(straight) == STRAIGHT_DEPTH:
                    straight.pop()  # the nested one never closed: this one takes its place
                straight.append(k)
            continue
        if stack and ch == stack[-1][0]:
            _, at = stack.pop()
            levels[ch].pop()
            out.append((at, k + 1))
            continue
        if ch in _PAIRS:
            levels.setdefault(_PAIRS[ch], []).append(len(stack))
            stack.append((_PAIRS[ch], k))
        elif levels.get(ch):
            # A closing mark nobody opened: close an outer level if it expects it.
            lvl = levels[ch][-1]
            at = stack[lvl][1]
            for closer, _ in stack[lvl:]:
                levels[closer].pop()
            del stack[lvl:]
            out.append((at, k + 1))
    return [(a, b) for a, b in out if b - a <= MAX_QUOTE_CHARS]


# -- bibliography ---------------------------------------------------------------------

_BIB_HEADINGS = (
    "список литературы",
    "список использованной литературы",
    "список используемой литературы",
    "список использованных источников",
    "список использованных источников и литературы",
    "список источников",
    "список источников и литературы",
    "список литературы и источников",
    "библиографический список",
    "библиография",
    "литература",
    "использованная литература",
    "использованные источники",
    "источники",
    "источники и литература",
    "список використаних джерел",
    "список використаної літератури",
    "список літератури",
    "література",
    "джерела",
    "references",
    "reference list",
    "bibliography",
    "works cited",
    "literature cited",
    "sources",
    "literature",
)
_RESUME_HEADINGS = ("приложение", "приложения", "appendix", "appendices", "додаток", "додатки")
_NUMBERING = re.compile(r"^(?:(?:\d+|[ivxlc]+)[.)]?\s+|(?:глава|раздел|chapter|section)\s+\d+[.:]?\s*)", re.I)
_LINE = re.compile(r"[^\n]*")
_BIB_WORDS = ("литератур", "источник", "библиограф", "використан", "літератур", "джерела",
              "references", "reference list", "bibliography", "works cited", "literature", "sources")
#: A short line containing one of the heading words: the only lines worth a closer look.
_BIB_CANDIDATE = re.compile(rf"^[^\n]{{0,60}}?(?:{'|'.join(_BIB_WORDS)})[^\n]{{0,60}}$", re.IGNORECASE | re.MULTILINE)
#: No longer line holds a match of it.
_BIB_CANDIDATE_CHARS = 60 + max(map(len, _BIB_WORDS)) + 60
#: The characters ``re.IGNORECASE`` takes for a letter of :data:`_BIB_WORDS` that ``str.lower``
#: does not turn into it (İ ı for i, ſ for s, old forms of в д о с т); every other one that
#: re takes for such a letter lowers to it (tested over all of Unicode).
_FOLDED_OTHERWISE = "\u0130\u0131\u017f\u1c80\u1c81\u1c82\u1c83\u1c84\u1c85"


def _may_hold_bib_word(s: str) -> bool:
    """False only when ``s`` surely holds none of :data:`_BIB_WORDS` in any case."""
    if any(c in s for c in _FOLDED_OTHERWISE):
        return True
    low = s.lower()
    return any(w in low for w in _BIB_WORDS)


def _bib_candidates(text: str):
    """(start, line) of each match of :data:`_BIB_CANDIDATE` in ``text``, as its ``finditer``
    gives them, read off the short lines holding a heading word only: the pattern has no
    fixed start, so ``finditer`` tried it at every character (4 ms a 50 KB text)."""
    if not _may_hold_bib_word(text):
        return
    at = 0
    for line in text.split("\n"):
        if len(line) <= _BIB_CANDIDATE_CHARS and _may_hold_bib_word(line) and _BIB_CANDIDATE.match(line):
            yield at, line
        at += len(line) + 1


def _heading_key(line: str) -> str:
    s = line.strip().lower().replace("ё", "е")
    s = _NUMBERING.sub("", s)
    s = s.strip(" \t.:;*#_-—–")
    return " ".join(s.split())


def find_bibliography(text: str) -> Interval | None:
    """The bibliography section: from its heading (a short line on its own, the LAST such
    heading of the text) up to a resuming heading ("Приложение", "Appendix" ...) or the end."""
    start = None
    for at, line in _bib_candidates(text):  # lines holding a heading word; checked exactly below
        if not line.strip() or len(line.strip()) > 60:
            continue
        key = _heading_key(line)
        if key in _BIB_HEADINGS:
            start = at + (len(line) - len(line.lstrip()))
    if start is None:
        return None
    end = len(text)
    for m in _LINE.finditer(text, start):
        line = m.group()
        if m.start() == start or not line.strip() or len(line.strip()) > 60:
            continue
        key = _heading_key(line)
        if any(key == h or key.startswith(h + " ") for h in _RESUME_HEADINGS):
            end = m.start()
            break
    return (start, end) if end > start else None


# -- headings at the top --------------------------------------------------------------

#: A heading line (a title, the student's name, the class, a date, a school) has at most this
#: many words; a line ending a sentence (". ! ? …") at most :data:`HEADING_SENTENCE_WORDS`.
HEADING_WORDS = 12
HEADING_SENTENCE_WORDS = 6
#: At most this many heading lines open a text; more short lines are a poem or a list, not headings.
HEADING_LINES = 6
_CLOSERS = "\"'»”’)]} \t\r\f\v"
_SPEECH = "—–-«„“\"'"
_INITIAL_OR_DATE = re.compile(r"(?:\b\w{1,3}|\d)\.$")
#: A title page's lines may be longer (a school's full name) and more (:data:`TITLE_PAGE_LINES`)
#: than headings', and continue one another ("РЕФЕРАТ / по истории на тему / «...»").
TITLE_PAGE_WORDS = 20
TITLE_PAGE_LINES = 40
#: A line that only a title page opens with: who wrote the work and who checks it ("Выполнил:
#: ученик 10 «Б» класса ...", "Проверила: учитель ...", "Submitted by ..."). Words that open
#: running text too (учитель, студент) count only with a colon after them.
_TITLE_PAGE_LINE = re.compile(
    r"(?:Выполнил[аи]?|Выполнено|Проверил[аи]?|Проверено|Научный руководитель|Руководитель|Виконав|Виконала"
    r"|Виконали|Перевірив|Перевірила|Науковий керівник|Керівник|Submitted by|Prepared by|Submitted to)\b"
    r"|(?:Преподаватель|Учитель|Ученик|Ученица|Студент|Студентка|Обучающийся|Обучающаяся|Автор|Викладач"
    r"|Учень|Учениця|Студентка|Student|Instructor|Supervisor|Teacher|Professor|Tutor|Author)\s*:")


#: What a Russian or Ukrainian school's or university's title page names besides its
#: signatures, by kind: the class ("9 «Б» класса", "10-А клас"), the pupil or student
#: ("ученика", "студентки"), the school ("средней школы № 17", "МБОУ СОШ", "гимназии") and the
#: group ("группы ИС-21"). Lines at the top that name two kinds of these, short, no sentence
#: among them or inside them and none continued by a comma, are a title page though no line is
#: signed ("Сочинение / ученика 9 «Б» класса / средней школы № 17 / Иванова Петра"): running
#: text under the same words at the top is a sentence or continues one. English title pages
#: sign ("Submitted by", "Student:"); "student", "school" and "university" open too many web
#: pages' running text to stand for one.
_TITLE_MARKS = re.compile(
    r"(?P<grade>(?<!\w)\d{1,2}\s*[-–]?\s*(?:[«\"“„']?[А-ЯЁІЇЄ][»\"”']?\s*)?(?:класс|клас)\w*)"
    r"|(?P<pupil>(?<!\w)(?:учени[кц]|учащ|обучающ|студент|учен[ья])\w*)"
    r"|(?P<school>(?<!\w)(?:школ[аыуеи]|гимнази\w+|лице[йяюе]\w*|колледж\w*|техникум\w*|училищ\w+|университет\w*"
    r"|институт\w*|академи\w+|факультет\w*|кафедр\w+|МБОУ|МАОУ|ГБОУ|МОУ|СОШ|ООШ|ЗОШ|ліце\w+|гімназі\w+)(?!\w))"
    r"|(?P<group>(?<!\w)(?:групп[аыи]|груп[аи])\s+\S*\d)",
    re.IGNORECASE)
#: A sentence ending inside a line: a word of two small letters or more, its mark, a capital.
#: ("А. С. Пушкина", "г. Твери" are initials and abbreviations, not ends.)
_INNER_SENTENCE_END = re.compile(r"[a-zа-яёіїєґ]{2}[.!?…]+[\"»”')\]]*\s+[\"«„“(]?[A-ZА-ЯЁІЇЄҐ]")
#: A line of a title page written as one paragraph ("Муниципальное ... школа № 17 ... Сочинение
#: ... ученика 9 «Б» класса Иванова Петра Учитель: ... Тверь, 2024") may be this long, when two
#: kinds of :data:`_TITLE_MARKS` are in it.
TITLE_LINE_MAX_WORDS = 60


def _title_marks(line: str) -> set[str]:
    """The kinds of :data:`_TITLE_MARKS` ``line`` names."""
    return {m.lastgroup for m in _TITLE_MARKS.finditer(line)}


def heading_end(text: str) -> int:
    """Where the heading lines at the top of ``text`` end (0: none): the lines before its first
    paragraph of running text that are each short (:data:`HEADING_WORDS`), stand alone (the
    next line does not continue them: it starts with no small letter, and the line does not
    end with a comma, a semicolon or a hyphen) and are followed by running text. Such lines
    are a title, a name, a class, a date, a school: never a borrowing, however much they
    resemble a source's own title (a check never matches them). A title page
    (:func:`_title_page_end`) is such lines too, however many and however they continue."""
    lines = []
    at = 0
    for line in text[:4000].split("\n"):
        lines.append((at, line))
        at += len(line) + 1
    shown = [(a, ln) for a, ln in lines if ln.strip()]
    page = _title_page_end(shown)
    if page:
        return page
    end = 0
    for k, (a, line) in enumerate(shown):
        words = len(WRITTEN_WORD.findall(line))
        core = line.rstrip(_CLOSERS)
        if words > HEADING_WORDS or core.endswith((",", ";", "-", "\u00ad")):
            break  # running text (or a line it continues)
        if line.lstrip()[:1] in _SPEECH:
            break  # a line of dialogue
        if core.endswith((".", "!", "?", "…")) and (words > HEADING_SENTENCE_WORDS or (
                core.endswith(".") and not _INITIAL_OR_DATE.search(core))):
            break  # a sentence (a heading ends with a question, an initial, an abbreviation, a date)
        if k + 1 >= len(shown):
            return 0  # nothing but short lines: no running text after them
        nxt = shown[k + 1][1].lstrip()
        if nxt[:1].islower():
            break  # the sentence goes on in the next line
        if k >= HEADING_LINES:
            return 0
        end = a + len(line.rstrip())
    return end


def _title_page_end(shown: list[tuple[int, str]]) -> int:
    """Where a title page at the top ends (0: none), of the non-blank lines ``shown`` (each
    with its offset): at most :data:`TITLE_PAGE_LINES` lines of at most
    :data:`TITLE_PAGE_WORDS` words, none a sentence of running text, followed by running text,
    and either one of them opening as only a title page's lines open (:data:`_TITLE_PAGE_LINE`:
    who wrote the work, who checks it) or, none continued by a comma, a semicolon or a hyphen
    and none holding a sentence's end, together naming two kinds of :data:`_TITLE_MARKS` (a class and a school, a pupil and a
    class); a line naming two of them may be longer (:data:`TITLE_LINE_MAX_WORDS`: a title page
    typed as one paragraph). A school's title page is the same in every essay of a class and of
    a department's archive, the student's name in the middle: matched, it made every classmate
    a source and bridged over the name."""
    signed = continued = False
    kinds: set[str] = set()
    for k, (a, line) in enumerate(shown[: TITLE_PAGE_LINES + 1]):
        words = len(WRITTEN_WORD.findall(line))
        core = line.rstrip(_CLOSERS)
        sentence = core.endswith((".", "!", "?", "…")) and words > HEADING_SENTENCE_WORDS and not (
            core.endswith(".") and _INITIAL_OR_DATE.search(core))
        marks = _title_marks(line) if words <= TITLE_LINE_MAX_WORDS and not _INNER_SENTENCE_END.search(line) else set()
        too_long = words > TITLE_PAGE_WORDS and (words > TITLE_LINE_MAX_WORDS or len(marks) < 2)
        if too_long or sentence or line.lstrip()[:1] in "—–-":  # (a title in « » is no speech)
            if k == 0 or not (signed or (len(kinds) >= 2 and not continued)):
                return 0
            prev_at, prev = shown[k - 1]
            return prev_at + len(prev.rstrip())
        if _TITLE_PAGE_LINE.match(line.lstrip()):
            signed = True
        kinds |= marks
        continued = continued or core.endswith((",", ";", "-", "\u00ad")) or bool(_INNER_SENTENCE_END.search(line))
    return 0


def marked_spans(text: str, settings: Settings) -> tuple[Span, ...]:
    """Quotations (:func:`is_quotation`: not a name in quotation marks) and the bibliography of
    ``text`` as the settings ask, sorted by start."""
    spans = []
    if settings.exclude_quotes:
        spans += [Span(s, e, "quote") for s, e in find_quotes(text) if is_quotation(text, s, e)]
    if settings.exclude_bibliography:
        bib = find_bibliography(text)
        if bib:
            spans.append(Span(bib[0], bib[1], "bibliography"))
    return tuple(sorted(spans, key=lambda s: (s.start, s.end, s.kind)))


# -- scores ---------------------------------------------------------------------------


def _source_excluded(src: SourceMatch, excluded: Sequence[str]) -> bool:
    return bool(excluded) and ((src.path is not None and src.path in excluded) or src.sha256 in excluded)


def _quotes_from_sources(sources: Sequence[SourceMatch], quotes: list[Interval], text: str) -> list[Interval]:
    """The suspect's quotations that were already quotations in the source they match.

    A novel's dialogue copied with its « » is copied text, not the student's citation: a
    quotation counts as the student's own only when the source text matched there is not
    itself inside quotation marks, unless the student attributes it (:func:`_attributed`: a
    colon before it, a reference after it) and the passage is mostly that quotation: a line of
    dialogue quoted with its reference («Милый дедушка, Константин Макарыч! ...» (А. П. Чехов,
    «Ванька»)), the assignment's wording quoted after "Задание:" by two essays. (A dialogue
    copied with its paragraph goes on well past each quotation; a quoted remark translated
    with the sentence around it, or alone, is attributed by nobody.) Each other quotation lying
    in a matched piece is mapped onto the source through that piece (proportionally) and looked
    up among the source's quotes, found in windows of the source around those places only (a
    source may be a novel). ``text``: the suspect's.
    """
    if not quotes:
        return []
    starts = [q[0] for q in quotes]
    inherited: list[Interval] = []
    for src in sources:
        mapped: list[tuple[int, int, Interval]] = []  # (m0, m1, suspect quotation)
        for p in src.passages:
            span = p.suspect_end - p.suspect_start
            for a0, a1, b0, b1 in p.matched_pieces():
                k = max(0, bisect.bisect_right(starts, a0) - 1)
                while k < len(quotes) and quotes[k][0] < a1:
                    q0, q1 = quotes[k]
                    k += 1
                    if q1 <= a0 or (min(q1, a1) - max(q0, a0)) * 2 < q1 - q0:
                        continue  # not mostly inside this piece
                    if (min(q1, p.suspect_end) - max(q0, p.suspect_start)) * 2 >= span and _attributed(text, q0, q1):
                        continue  # the student's citation, whatever the source's marks
                    scale = (b1 - b0) / (a1 - a0) if a1 > a0 else 1.0
                    m0 = b0 + int((max(q0, a0) - a0) * scale)
                    m1 = b0 + int(round((min(q1, a1) - a0) * scale))
                    mapped.append((m0, m1, (q0, q1)))
        if not mapped:
            continue
        windows = merge((max(0, m0 - MAX_QUOTE_CHARS), min(len(src.source_text), m1 + MAX_QUOTE_CHARS)) for m0, m1, _ in mapped)
        src_quotes = merge((w0 + x, w0 + y) for w0, w1 in windows for x, y in find_quotes(src.source_text[w0:w1]))
        for m0, m1, q in mapped:
            # the source's own marks may sit a character or two off the mapped ends
            if _mostly_inside_span(m0, m1, src_quotes) or _mostly_inside_span(m0 + 1, m1 - 1, src_quotes):
                inherited.append(q)
    return merge(inherited)


#: A reference right after a quotation: "(А. П. Чехов, «Ванька»)", "[1, с. 5]", "(с. 12)".
_REFERENCE_AFTER = re.compile(r"[\s,.]{0,3}[(\[]")
#: Words that attribute what follows in the same sentence: "Как писал Пушкин, «...»", "как
#: сказано в задании, «...»", "По словам автора, «...»", "As Orwell wrote, "..."".
_ATTRIBUTION = re.compile(
    r"(?<!\w)(?:писал[аи]?|пишет|пишут|говорил[аи]?|говорит|сказал[аи]?|сказано|написано|отмечал[аи]?|отмечает"
    r"|утверждал[аи]?|утверждает|замечал[аи]?|замечает|подч[её]ркивал[аи]?|подч[её]ркивает|указывал[аи]?|указывает"
    r"|по словам|по мнению|словами|писав|пише|казав|каже|сказано|зазначав|зазначає|за словами|на думку"
    r"|wrote|writes|said|says|stated|states|noted|notes|argued|argues|according to|in the words of)(?!\w)",
    re.IGNORECASE)
#: How far back in its sentence an attribution may stand before the quotation.
ATTRIBUTION_CHARS = 80


def _attributed(text: str, start: int, end: int) -> bool:
    """Whether the quotation ``text[start:end]`` (marks included) is attributed by the student:
    a colon just before it ("Задание: «...»"), words that attribute it earlier in its sentence
    ("Как писал Чехов, «...»", :data:`_ATTRIBUTION`), or a reference in brackets just after it
    ("» (А. П. Чехов, «Ванька»)", "" [1, с. 5]")."""
    if _after_colon(text, start) or _REFERENCE_AFTER.match(text, end):
        return True
    before = text[max(0, start - ATTRIBUTION_CHARS):start]
    cut = max(before.rfind(". "), before.rfind("! "), before.rfind("? "), before.rfind("\n"))
    return bool(_ATTRIBUTION.search(before, cut + 1))


def _mostly_inside_span(s: int, e: int, regions: Sequence[Interval]) -> bool:
    return e > s and 2 * inside(s, e, regions) >= e - s


_SPACES = re.compile(r"\s+")


def _same_words(a: str, b: str) -> bool:
    norm = lambda t: _SPACES.sub(" ", t.lower().replace("ё", "е")).strip()  # noqa: E731
    return a == b or norm(a) == norm(b)  # most pieces are copied exactly: no need to normalise


def _exact_words(src: SourceMatch, text: str, starts, counted: Sequence[Interval]) -> int:
    """Suspect words of counted pieces whose text is the source's, character for character
    (case and spacing aside): which of two editions the student copied from."""
    exact = []
    for p in src.passages:
        if p.excluded is not None:
            continue
        for a0, a1, b0, b1 in p.matched_pieces():
            if _same_words(text[a0:a1], src.source_text[b0:b1]):
                exact.append((a0, a1))
    return words_in(starts, intersect(merge(exact), counted))


def quotation_warnings(starts, quotes: Sequence[Interval]) -> tuple[Message, ...]:
    """Warnings about the student's own quotations ``quotes`` (sorted, disjoint) in a text
    whose words start at ``starts``: the longest one if it is long, their share if large."""
    if not quotes or not len(starts):
        return ()
    lengths = [words_in(starts, [q]) for q in quotes]  # words of each, as the cited share counts them
    out = []
    longest = max(lengths)
    if longest > LONG_QUOTE_WORDS:
        out.append(message("warning.long_quotation", words=longest, limit=LONG_QUOTE_WORDS,
                           count=sum(n > LONG_QUOTE_WORDS for n in lengths)))
    percent = 100.0 * sum(lengths) / len(starts)
    if percent > QUOTED_PERCENT:
        out.append(message("warning.many_quotations", percent=round(percent, 1), limit=int(QUOTED_PERCENT)))
    return tuple(out)


def _length(p: Passage) -> int:
    """The words a passage is measured by against the minimum length (module docstring)."""
    return p.words if p.method == "paraphrase" else p.matched_words


def _too_short(p: Passage, min_words: int) -> bool:
    """Whether ``p`` is under the shortest passage that counts (module docstring)."""
    if p.method == "meaning":
        return p.matched_words < (min_words + 1) // 2
    return _length(p) < min_words


def apply_exclusions(result: CheckResult, settings: Settings, *, marked: tuple[Span, ...] | None = None,
                     starts: np.ndarray | None = None) -> CheckResult:
    """``result`` with passages marked and scores recomputed under ``settings`` (see module doc).

    Shares are shares of the suspect's WORDS (never of whitespace or punctuation): borrowed =
    words matched by a counted passage; cited = words of the student's own quotations and of
    the bibliography that match a source; original = the rest. The three sum to 100.

    Idempotent: previous marks are ignored, so a result can be re-evaluated under any
    settings. Sources are never dropped here (an excluded source stays visible); they are
    sorted by containment, then by content (words copied character for character, sentence
    score, resemblance), never by name.
    """
    text = result.suspect_text
    if starts is None:  # (a cross-check passes each document's word starts and marks, found once)
        starts = word_starts(text)
    n_words = len(starts)
    if marked is None:
        marked = marked_spans(text, settings)
    excluded_sources = tuple(settings.excluded_sources) + tuple(result.left_out)
    live = [src for src in result.sources if not _source_excluded(src, excluded_sources) and not src.is_template]
    quotes_all = merge((s.start, s.end) for s in marked if s.kind == "quote")
    quotes = subtract(quotes_all, _quotes_from_sources(live, quotes_all, text))
    marked = tuple(s for s in marked if s.kind != "quote" or inside(s.start, s.end, quotes))
    bib = merge((s.start, s.end) for s in marked if s.kind == "bibliography")
    quotes_count = getattr(settings, "count_quotes_as_borrowed", False)
    count_classmates = getattr(settings, "count_classmates", True)
    student_quotes = [] if quotes_count else quotes

    templates = merge(
        (p.suspect_start, p.suspect_end)
        for src in result.sources
        if src.is_template and not _source_excluded(src, excluded_sources)
        for p in src.passages
    )
    never = merge(student_quotes + bib + templates)
    set_common = getattr(settings, "exclude_class_common", True)
    class_common = merge(result.class_common) if set_common else []
    never_classmate = merge(never + class_common) if class_common else never
    collection_common = merge(result.collection_common) if set_common else []
    sharing = frozenset(result.common_sources) if collection_common else frozenset()
    never_sharing = merge(never + collection_common) if collection_common else never

    def never_for(src: SourceMatch) -> list[Interval]:
        if src.classmate:
            return never_classmate
        return never_sharing if src.source_id in sharing else never

    def set_aside(p: Passage, common: list[Interval]) -> bool:
        """``p`` lies mostly in text common to many essays' openings, with too few matched words outside it to count."""
        return bool(common) and _mostly_inside(p, common) and words_in(
            starts, subtract(merge(p.matched_spans()), common)) < settings.min_passage_words

    def reason(src: SourceMatch, p: Passage) -> str | None:
        if _source_excluded(src, excluded_sources):
            return "source"
        if src.is_template or _mostly_inside(p, templates):
            return "template"
        # (a passage joining the common text to a copied sentence counts by the copy)
        if src.classmate and set_aside(p, class_common):
            return "class"
        if src.source_id in sharing and set_aside(p, collection_common):
            return "common"
        if src.classmate and not count_classmates:
            return "classmate"
        if _mostly_inside(p, bib):
            return "bibliography"
        if _mostly_inside(p, student_quotes):
            return "quote"
        if _too_short(p, settings.min_passage_words):
            return "short"
        return None

    sources = []
    everything: list[Interval] = []
    cited_parts: list[Interval] = []
    counted_of: dict[int, list[Interval]] = {}
    for src in result.sources:
        passages = tuple(dataclasses.replace(p, excluded=reason(src, p)) for p in src.passages)
        matched = merge(iv for p in passages if p.excluded is None for iv in p.matched_spans())
        counted = subtract(matched, never_for(src))
        everything.extend(counted)
        cited_parts.extend(
            iv for p in passages if p.excluded in (None, "quote", "bibliography") for iv in p.matched_spans()
        )
        containment = words_in(starts, counted) / n_words if n_words else 0.0
        new = dataclasses.replace(src, passages=passages, containment=containment)
        counted_of[id(new)] = counted
        sources.append(new)
    # words copied character for character break ties of containment (two editions of a
    # novel): counted only where a tie needs them
    ties = Counter(s.containment for s in sources)
    keys = {id(s): _exact_words(s, text, starts, counted_of[id(s)]) if s.containment and ties[s.containment] > 1 else 0
            for s in sources}
    sources.sort(key=lambda s: (-s.containment, -keys[id(s)], -s.sentence_score, -s.resemblance,
                                s.sha256, s.source_id if s.source_id is not None else -1))
    borrowed_region = merge(everything)
    # a quotation a source holds is cited whole (its words counted as the quotation warning
    # counts them: one computation); of the bibliography, the words a source matches
    matched_parts = merge(cited_parts)
    cited_quotes = [q for q in student_quotes if inside(q[0], q[1], matched_parts)]
    cited_region = subtract(merge(cited_quotes + intersect(matched_parts, bib)), merge(templates + borrowed_region))
    if n_words:
        borrowed = round(100.0 * words_in(starts, borrowed_region) / n_words, 4)
        cited = round(100.0 * words_in(starts, cited_region) / n_words, 4)
    else:
        borrowed = cited = 0.0
    warnings = quotation_warnings(starts, quotes)
    set_aside = [p for src in sources if src.classmate for p in src.passages if p.excluded == "class"]
    if set_aside:  # visible: a copy everyone made of one opening looks the same as the assignment
        mates = sum(1 for src in sources if src.classmate and any(p.excluded == "class" for p in src.passages))
        warnings += (message("warning.class_common", words=words_in(starts, class_common), mates=mates),)
    aside = sum(1 for src in sources if src.source_id in sharing and any(p.excluded == "common" for p in src.passages))
    if aside:  # the same for the collection: a copy many essays made of one opening looks like it
        warnings += (message("warning.collection_common", words=words_in(starts, collection_common), documents=aside),)
    return dataclasses.replace(
        result,
        warnings=warnings,
        sources=tuple(sources),
        borrowed_percent=borrowed,
        cited_percent=cited,
        original_percent=round(100.0 - borrowed - cited, 4),
        marked=marked,
        settings=settings,
    )


#: Text common to the class (:func:`sverka.core.crosscheck.class_common`, :func:`common_opening`):
#: shared with at least this share of an essay's classmates, and with at least
#: :data:`CLASS_COMMON_MATES` of them ...
CLASS_COMMON_SHARE = 0.5
CLASS_COMMON_MATES = 4
#: ... beginning in this first share of the words of the essay's running text (an assignment is
#: pasted at the top, under the title or the title page) ...
CLASS_COMMON_OPENING = 0.25
#: ... and making up at most this share of the essay's words (more: essays copied from each
#: other, a ring, which must show).
CLASS_COMMON_MAX = 0.5
#: Text at a suspect's opening common to the collection (:func:`collection_common`): shared by at
#: least this many of its documents, each having it at its own opening (last year's essays of
#: the same assignment in a department's archive).
COLLECTION_COMMON_DOCUMENTS = 4


def common_opening(others: dict[int, list[tuple[int, int]]], starts: np.ndarray, heading: int,
                   need: int) -> tuple[tuple[int, int], ...]:
    """The text at the opening of one document that at least ``need`` of ``others`` share:
    ``others`` maps each other document to the character ranges of this one's text it matches;
    ``starts`` this document's word starts, ``heading`` where its heading lines end (its
    running text begins there). The rule of :func:`sverka.core.crosscheck.class_common` for one
    essay: stretches shared at least ``need`` times beginning in the first
    :data:`CLASS_COMMON_OPENING` of the running text, at most :data:`CLASS_COMMON_MAX` of its
    words, the levels of sharing tried from ``need`` up (the assignment above a copy that many
    made of one essay)."""
    if len(others) < need or not len(starts):
        return ()
    events: dict[int, int] = {}
    for spans in others.values():
        for a, b in merge(spans):
            events[a] = events.get(a, 0) + 1
            events[b] = events.get(b, 0) - 1
    segments, depth, at_ = [], 0, None  # (start, end, documents sharing it)
    for at in sorted(events):
        if at_ is not None and depth >= need and at > at_:
            segments.append((at_, at, depth))
        depth += events[at]
        at_ = at
    first = int(np.searchsorted(starts, heading, "left"))
    running = max(1, len(starts) - first)
    opening = starts[min(len(starts) - 1, first + int(CLASS_COMMON_OPENING * running))]
    # the text shared at least ``level`` times, from ``need`` up: an assignment under a copy
    # that most of the class also made of one essay is shared by more of them
    for level in sorted({d for _, _, d in segments}):
        stretches = merge((a, b) for a, b, d in segments if d >= level)
        kept = merge(iv for iv in stretches if iv[0] <= opening)
        if kept and words_in(starts, kept) <= CLASS_COMMON_MAX * running:
            return tuple(kept)
    return ()


def collection_common(sources: Sequence[SourceMatch], starts: np.ndarray,
                      heading: int = 0) -> tuple[tuple[tuple[int, int], ...], tuple[int, ...]]:
    """The text at the opening of a suspect that at least :data:`COLLECTION_COMMON_DOCUMENTS`
    documents of the collection also have at their own openings (the assignment the essays of
    a department's archive pasted above them), by the rule of :func:`common_opening`, and the
    ids of the documents that share it. ``sources`` are the check's sources (their passages
    before exclusions); a template, a classmate, or a passage beginning past the first
    :data:`CLASS_COMMON_OPENING` of its source's text does not take part: a source holding the
    text elsewhere (a book quoting it) still counts it. Documents that go on alike after it are
    copies of one text (an article saved from several sites, editions of one book): they count
    once, so a suspect that copies their opening is not excused by their number.
    ``starts``: the suspect's word starts; ``heading``: where its heading lines end."""
    others: dict[int, list[tuple[int, int]]] = {}
    ends: dict[int, tuple[SourceMatch, int]] = {}  # where each one's passage at its opening ends
    for src in sources:
        if src.source_id is None or src.is_template or src.classmate:
            continue
        length = src.excerpts.length if src.excerpts is not None else len(src.text)
        opening = [p for p in src.passages if p.source_start <= CLASS_COMMON_OPENING * length]
        if opening:
            others[src.source_id] = [iv for p in opening for iv in p.matched_spans()]
            ends[src.source_id] = (src, min(p.source_end for p in opening))
    # most checks end here, before any source's text is read again
    if not common_opening(others, starts, heading, COLLECTION_COMMON_DOCUMENTS):
        return (), ()
    kinds: list[tuple[str, ...] | None] = []  # one document of each text that goes on alike
    distinct = {}
    for k in others:
        after = _words_after(*ends[k])
        if not any(_alike(after, seen) for seen in kinds):
            kinds.append(after)
            distinct[k] = others[k]
    common = common_opening(distinct, starts, heading, COLLECTION_COMMON_DOCUMENTS)
    if not common:
        return (), ()
    return common, tuple(sorted(k for k, spans in others.items() if intersect(merge(spans), list(common))))


#: Words after a source's passage at its opening compared to tell copies of one text apart
#: from essays that only share their opening (:func:`collection_common`).
CONTINUATION_WORDS = 30


def _words_after(src: SourceMatch, end: int) -> tuple[str, ...] | None:
    """The first :data:`CONTINUATION_WORDS` words of ``src`` after ``end`` (lower case, ё as е);
    None when a long source's excerpts do not hold them."""
    span = 40 * CONTINUATION_WORDS
    if src.excerpts is None:
        piece = src.text[end:end + span]
    else:  # the excerpt holding ``end``, up to its own end
        held = [text[end - at:end - at + span] for at, text in src.excerpts.parts if at <= end < at + len(text)]
        if not held:
            return None
        piece = held[0]
    words = WRITTEN_WORD.findall(piece.lower().replace("ё", "е"))
    return tuple(words[:CONTINUATION_WORDS])


#: Share of the longer continuation's words the other must hold for the two to be one text: a
#: reprint goes on word for word, while essays of one assignment often open their own text with
#: the same formula ("В предложенном для анализа тексте автор поднимает проблему ...": 9 words).
CONTINUATION_ALIKE = 0.75


def _alike(a: tuple[str, ...] | None, b: tuple[str, ...] | None) -> bool:
    """Two continuations of one text: both ended (nothing after), or at least
    :data:`CONTINUATION_ALIKE` of the longer one's words in the other."""
    if a is None or b is None:
        return False
    if not a or not b:
        return not a and not b
    return len(set(a) & set(b)) >= CONTINUATION_ALIKE * max(len(set(a)), len(set(b)))
