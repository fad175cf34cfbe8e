"""Result types that cross from the core to the faces: frozen, plain, no Qt.

Offsets are Python ``str`` indices into the extracted text of the document they refer
to (the text ``sverka extract`` prints). Shares (``containment`` ...) are in 0..1,
percentages in 0..100.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass, field

from .messages import Message
from .settings import Settings

#: How a passage was found. Shown to the user in tooltips and reports.
METHODS = {
    "exact": "exact match of word sequences (shingles)",
    "bridged": "match with small edits bridged (changed, inserted or deleted words)",
    "sentence": "sentence with reordered or inflected words (sentence hashes)",
    "short": "short-text match (longest words)",
    "paraphrase": "sentence matched by its rare words, synonyms counted (any order and form)",
    "meaning": "sentence matched by its meaning, confirmed by its neighbours, names, numbers or related words",
}

#: What kind of borrowing a passage is (``Passage.kind``), computed from its alignment.
KINDS = {
    "verbatim": "verbatim copy",
    "inflected": "word forms changed",
    "edited": "words inserted, deleted or replaced",
    "reordered": "sentences or words reordered",
    "synonyms": "words replaced by synonyms",
    "paraphrase": "paraphrase: several kinds of changes at once",
    "short": "short text matched by its longest words",
    "meaning": "meaning kept, words changed",
    "translation": "translation",
}

#: Why a passage does not count towards the score (``Passage.excluded``).
EXCLUSIONS = {
    "quote": "quoted text",
    "bibliography": "bibliography section",
    "short": "shorter than the minimum passage length",
    "source": "source excluded by the user",
    "template": "template text (e.g. the assignment)",
    "classmate": "shared with a classmate (not counted by the settings)",
    "class": "common to most of the class (e.g. the assignment)",
    "common": "at the opening of many essays of the collection (e.g. the assignment)",
}


@dataclass(frozen=True)
class Passage:
    """One borrowed passage: where it is in the suspect and where in the source.

    Words are words of the suspect's text as the user reads it (stop words included; numbers
    and punctuation are not words). ``pieces`` are the parts actually matched, each as
    ``(suspect_start, suspect_end, source_start, source_end)``: exact runs of words (in their
    base forms) and sentences matched whatever their word order; between them lie the edits
    the passage bridges (replaced, inserted or deleted words), which are not counted.
    """

    suspect_start: int
    suspect_end: int
    source_start: int
    source_end: int
    words: int  # words of the suspect's text in [suspect_start, suspect_end)
    method: str  # a key of METHODS
    excluded: str | None = None  # None, or a key of EXCLUSIONS
    matched: int | None = None  # words of the suspect inside ``pieces``; None: all ``words``
    pieces: tuple[tuple[int, int, int, int], ...] = ()  # matched parts; () = the whole passage
    kind: str = ""  # a key of KINDS ("" where not computed)

    @property
    def matched_words(self) -> int:
        """Words actually matched (what the minimum passage length and the shares count)."""
        return self.words if self.matched is None else self.matched

    @property
    def similarity(self) -> float:
        """Matched words / words of the passage, 0..1 (1.0: copied word for word)."""
        return self.matched_words / self.words if self.words else 1.0

    def matched_pieces(self) -> tuple[tuple[int, int, int, int], ...]:
        """``pieces``, or the whole passage as its one piece when it has none."""
        return self.pieces or ((self.suspect_start, self.suspect_end, self.source_start, self.source_end),)

    def matched_spans(self) -> tuple[tuple[int, int], ...]:
        """Suspect character ranges actually matched (the whole passage when no pieces)."""
        return tuple((q[0], q[1]) for q in self.matched_pieces())

    def source_spans(self) -> tuple[tuple[int, int], ...]:
        """Source character ranges actually matched (the whole passage when no pieces)."""
        return tuple((q[2], q[3]) for q in self.matched_pieces())


#: What stands between two excerpts of a source (and before the first, after the last, where
#: text is left out) when they are shown as one text: the same in Russian and English.
ELISION = "\n\n[\u2026]\n\n"


@dataclass(frozen=True)
class Excerpts:
    """The parts of a long source's text a result carries: a check never reads a novel whole,
    only the places of its passages with some context around them.

    ``parts`` are ``(offset in the whole text, text)``, sorted and apart; ``length`` is the
    whole text's length in characters, ``words`` its words (``text.word_starts`` of it, what
    shares of a source are measured in). Sliced like the text they come from (``excerpts[a:b]``
    with whole-text offsets) wherever one part holds the slice; elsewhere an IndexError."""

    length: int
    parts: tuple[tuple[int, str], ...]
    words: int = 0

    def __len__(self) -> int:
        return self.length

    def _part_of(self, start: int, stop: int) -> tuple[int, str] | None:
        k = bisect.bisect_right([at for at, _ in self.parts], start) - 1
        if k >= 0:
            at, text = self.parts[k]
            if stop <= at + len(text):
                return at, text
        return None

    def part_of(self, start: int, stop: int) -> tuple[int, str] | None:
        """The part (its offset, its text) holding the whole-text range [start, stop), if one does."""
        return self._part_of(start, stop)

    def covers(self, start: int, stop: int) -> bool:
        """Whether one part holds the whole-text range [start, stop)."""
        return stop <= start or self._part_of(start, stop) is not None

    def __getitem__(self, key: slice) -> str:
        if not isinstance(key, slice) or key.step not in (None, 1):
            raise TypeError("excerpts are sliced by whole-text offsets, e.g. excerpts[a:b]")
        start, stop, _ = key.indices(self.length)
        if stop <= start:
            return ""
        got = self._part_of(start, stop)
        if got is None:
            raise IndexError(f"characters {start}-{stop} of the source are not in its excerpts")
        at, text = got
        return text[start - at:stop - at]

    def shown(self, mark: str = ELISION) -> tuple[str, "list[tuple[int, int]]"]:
        """The excerpts as one text to show, ``mark`` where text is left out (before the first,
        between two, after the last), and each part's (whole-text offset, offset in that text)."""
        pieces, where, length = [], [], 0
        end = 0
        for at, text in self.parts:
            if at > end:
                pieces.append(mark)
                length += len(mark)
            where.append((at, length))
            pieces.append(text)
            length += len(text)
            end = at + len(text)
        if end < self.length:
            pieces.append(mark)
        return "".join(pieces), where


def shown_offset(where: "list[tuple[int, int]]", offset: int) -> int:
    """A whole-text offset of a source in the text :meth:`Excerpts.shown` made of it (``where``
    its parts' places): an end at a part's last character stays in that part."""
    k = max(bisect.bisect_left([at for at, _ in where], offset) - 1, 0)
    if k + 1 < len(where) and where[k + 1][0] == offset:
        k += 1
    at, shown = where[k]
    return shown + offset - at


@dataclass(frozen=True)
class SourceMatch:
    """One source the suspect borrows from, with its passages sorted by suspect_start.

    Passages' source offsets are offsets in the source's whole text, always. A source
    carried whole (``text``) is shown whole; a long one found in a collection carries only
    :class:`Excerpts` of it around its passages (``excerpts``; ``text`` is then "").
    :attr:`source_text` slices either the same way."""

    source_id: int | None  # id in the collection; None for a file compared directly
    path: str | None
    title: str
    text: str = field(repr=False)  # the source's extracted text, for side-by-side display ("": see excerpts)
    sha256: str
    containment: float  # share of the suspect's words matched by counted passages, 0..1
    resemblance: float  # Jaccard of the shingle sets, 0..1
    sentence_score: float  # X(A,B) / len(Seq2(A)) of ALGORITHMS.md §5, 0..1
    passages: tuple[Passage, ...]
    is_template: bool = False
    #: Another essay of the same class (a class checked with its essays compared): ``path`` is
    #: that essay's path, ``source_id`` None, ``text`` its text.
    classmate: bool = False
    excerpts: Excerpts | None = field(default=None, repr=False)  # a long source's parts (``text`` "")

    @property
    def source_text(self) -> "str | Excerpts":
        """The source's text sliced by whole-text offsets: ``text``, or its excerpts."""
        return self.excerpts if self.excerpts is not None else self.text

    def shown_text(self) -> tuple[str, "list[tuple[int, int]] | None"]:
        """The text a view or a report shows of this source, and where each excerpt lies in it
        (None: the whole text, offsets as they are); see :func:`shown_offset`."""
        if self.excerpts is None:
            return self.text, None
        return self.excerpts.shown()


@dataclass(frozen=True)
class SuspectInfo:
    path: str | None
    title: str
    chars: int
    words: int
    language: str
    warnings: tuple[Message, ...]  # the document's (extraction, tampering): sverka.core.messages
    sha256: str


@dataclass(frozen=True)
class Span:
    """A marked region of the suspect text (a quotation, the bibliography)."""

    start: int
    end: int
    kind: str  # "quote" or "bibliography"


@dataclass(frozen=True)
class CheckResult:
    """The answer to "how much of this suspect is borrowed, and from where"."""

    suspect: SuspectInfo
    suspect_text: str = field(repr=False)
    sources: tuple[SourceMatch, ...]  # sorted by containment, highest first
    borrowed_percent: float  # share of the suspect's words matched by any counted passage
    original_percent: float  # 100 - borrowed_percent - cited_percent
    marked: tuple[Span, ...] = ()  # quotations and bibliography found in the suspect
    settings: Settings = field(default_factory=Settings)
    exact_duplicate_of: str | None = None  # title of a collection document with identical text
    cited_percent: float = 0.0  # words in the student's own quotations (or bibliography) that match a source
    in_collection: "DocumentInfo | None" = None  # the suspect itself, stored in the collection: not a source
    warnings: tuple[Message, ...] = ()  # about the result (a long quotation, many quotations)
    left_out: tuple[str, ...] = ()  # sources left out of THIS result by the user (path or sha256)
    collection_root: str | None = None  # folder that reports show source paths relative to
    #: A class checked with its essays compared: the suspect's text that most of its classmates
    #: share at its opening (the assignment pasted by everyone; :func:`sverka.core.crosscheck.class_common`),
    #: sorted disjoint character ranges; not counted for a classmate (``Settings.exclude_class_common``).
    class_common: tuple[tuple[int, int], ...] = ()
    #: The suspect's text at its opening that several documents of the collection also have at
    #: their openings (last year's essays of the same assignment in an archive;
    #: :func:`sverka.core.exclusions.collection_common`): sorted disjoint character ranges, and
    #: the ids of those documents, for which it does not count (``Settings.exclude_class_common``).
    collection_common: tuple[tuple[int, int], ...] = ()
    common_sources: tuple[int, ...] = ()


@dataclass(frozen=True)
class CrossPair:
    a: str  # path or title of the first document
    b: str
    a_in_b: float  # share of a's words found in b, 0..1
    b_in_a: float
    resemblance: float
    shared_words: int = 0  # words of a matched by the counted passages the two share
    passages: tuple[Passage, ...] = ()  # a's counted passages found in b (a is the suspect side)


@dataclass(frozen=True)
class CrossCheckResult:
    documents: tuple[str, ...]  # paths or titles, in the order given
    pairs: tuple[CrossPair, ...]  # above the threshold, most similar first
    matrix: tuple[tuple[float, ...], ...]  # matrix[i][j] = containment of documents[i] in documents[j]
    failed: tuple[tuple[str, Message], ...] = ()  # (path, reason: sverka.core.messages) of files that could not be read
    sha256: tuple[str, ...] = ()  # SHA-256 of each document's text, "" for one not read
    settings: Settings = field(default_factory=Settings)
    clusters: tuple[tuple[str, ...], ...] = ()  # groups of >= 3 documents sharing text, largest first
    texts: tuple[tuple[str, str], ...] = ()  # (name, text) of every document of a listed pair: the report's passages
    #: each document's text that most of the class shares at its opening (the assignment), set
    #: aside in its pairs (``Settings.exclude_class_common``): character ranges, () for none
    class_common: tuple[tuple[tuple[int, int], ...], ...] = ()


@dataclass(frozen=True)
class BatchItem:
    """One essay of a class check: its result, or why it could not be read."""

    path: str
    result: CheckResult | None
    error: "Message | str | None" = None  # why the file could not be read (a Message: each face words it)


@dataclass(frozen=True)
class BatchResult:
    """A class of essays, each checked against the collection (in the order given), and,
    when asked, compared with each other."""

    items: tuple[BatchItem, ...]
    cross: CrossCheckResult | None = None
    settings: Settings = field(default_factory=Settings)

    def closest_classmate(self, path: str) -> tuple[str, float] | None:
        """The other essay of the class sharing the largest share of ``path``'s words, with that share (0..1)."""
        if self.cross is None:
            return None
        best: tuple[str, float] | None = None
        for p in self.cross.pairs:
            for me, other, share in ((p.a, p.b, p.a_in_b), (p.b, p.a, p.b_in_a)):
                if me == path and other in self.cross.documents and (best is None or share > best[1]):
                    best = (other, share)
        return best


@dataclass(frozen=True)
class DocumentInfo:
    """A document of the reference collection as listed to the user."""

    id: int
    path: str | None
    title: str
    format: str
    chars: int
    words: int
    size_bytes: int
    added: str  # ISO 8601 time
    sha256: str
    is_template: bool = False


@dataclass(frozen=True)
class AddSummary:
    """What adding paths to the collection did, file by file."""

    added: tuple[str, ...] = ()
    updated: tuple[str, ...] = ()  # a changed file re-indexed
    unchanged: tuple[str, ...] = ()  # same path, same content
    duplicates: tuple[tuple[str, str], ...] = ()  # (path, path or title of the stored original)
    failed: tuple[tuple[str, Message], ...] = ()  # (path, reason: sverka.core.messages)
    cancelled: bool = False
