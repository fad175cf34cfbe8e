"""Every engine parameter, declared once with its default; serialisable to JSON.

Defaults are chosen by measurement (see docs/BENCHMARKS.md), not tuned to one corpus.
"""

from __future__ import annotations

import dataclasses
import json
import math
from dataclasses import dataclass


@dataclass(frozen=True)
class Settings:
    # Fixed when a collection is built (COLLECTION_FIELDS)
    drop_adjectives: bool = False  # adjectives left out of every stored and checked text
    shingle_words: int = 4  # w: words per shingle of the resemblance figure (Jaccard of w-shingles)
    # Passages
    min_passage_words: int = 8  # words of the text a passage must match; shorter ones: excluded="short"
    max_gap_words: int = 6  # edits bridged between two matching runs
    align_seed_words: int = 2  # words per seed shingle when aligning a pair (computed on the fly)
    min_sentence_words: int = 5  # sentences this long match by sentence hash (any order, any form)
    # Candidates
    max_candidates: int = 50  # sources aligned per check, best ranked first (sverka.core.candidates)
    short_text_words: int = 40  # below this many canonical words the seed 000 method joins in
    # Reporting
    min_source_containment: float = 0.005  # a source below this share of the suspect is not listed
    short_text_similarity: float = 80.0  # seed 000: not unique above this percentage
    crosscheck_threshold: float = 0.10  # pairs with either containment at least this are listed
    # Exclusions (applied to a finished result without searching again)
    exclude_quotes: bool = True
    count_quotes_as_borrowed: bool = False  # the student's own quotations count as borrowed, not cited
    exclude_bibliography: bool = True
    excluded_sources: tuple[str, ...] = ()  # paths or sha256 of sources not to count
    count_classmates: bool = True  # a class checked with its essays compared: classmates' passages count as borrowed
    exclude_class_common: bool = True  # ... but not text most of the class, or many essays of the collection, share at their openings (the assignment)
    # Meaning (sverka.core.bymeaning): reworded and translated sentences, by sentence vectors
    find_by_meaning: bool = True  # also vectors of meaning computed when documents are added
    meaning_second_judge: bool = True  # lone pairs refused only by their similarity judged again by e5 (meaning.second_judge)

    def to_json(self) -> str:
        return json.dumps(dataclasses.asdict(self), ensure_ascii=False, sort_keys=True)

    @classmethod
    def from_json(cls, data: str | dict) -> "Settings":
        """Build from JSON; unknown keys are ignored, missing keys take their defaults, and so
        do values of the wrong type (a file edited by hand or written by another version: a
        string where a number belongs, a number that is no number). JSON that is not an object
        raises ValueError."""
        return cls._read(data, ranges=False)[0]

    @classmethod
    def from_saved(cls, data: str | dict) -> tuple["Settings", tuple[tuple[str, object], ...]]:
        """:meth:`from_json` of the file the window saved, which a person may have edited: a value
        of the wrong type, or outside the range the window offers (:data:`SETTINGS_INFO`; the
        window cannot save one), takes its default too, and is returned, for the user to be
        told, as a (name, saved value) pair. The command line took a negative
        ``min_passage_words`` for a flag the user typed ("--min-passage-words must be positive")."""
        return cls._read(data, ranges=True)

    @classmethod
    def _read(cls, data: str | dict, *, ranges: bool) -> tuple["Settings", tuple[tuple[str, object], ...]]:
        """The settings of JSON ``data`` and the (name, value) pairs not used: of the wrong type,
        or, with ``ranges``, outside the range the window offers."""
        raw = json.loads(data) if isinstance(data, str) else data
        if not isinstance(raw, dict):
            raise ValueError(f"settings must be a JSON object, not {type(raw).__name__}")
        defaults = cls()
        kwargs, ignored = {}, []
        for f in dataclasses.fields(cls):
            if f.name in raw:
                value = _of_the_type(raw[f.name], getattr(defaults, f.name))
                if value is None or (ranges and not _in_range(f.name, value)):
                    ignored.append((f.name, raw[f.name]))
                else:
                    kwargs[f.name] = value
        return cls(**kwargs), tuple(ignored)

    def replace(self, **changes) -> "Settings":
        return dataclasses.replace(self, **changes)

    @staticmethod
    def indexing_fields() -> tuple[str, ...]:
        """The fields fixed when a collection is built (:data:`COLLECTION_FIELDS`): stored with
        it, and a check against it must use the collection's values."""
        return COLLECTION_FIELDS


def _of_the_type(value, default):
    """``value`` as a value of ``default``'s type (bool, int, float, tuple of str), or None
    when it is not one."""
    if isinstance(default, bool):
        return value if isinstance(value, bool) else None
    if isinstance(default, int):
        return value if isinstance(value, int) and not isinstance(value, bool) else None
    if isinstance(default, float):
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
            return None
        return float(value)
    if isinstance(default, tuple):
        if isinstance(value, (list, tuple)) and all(isinstance(v, str) for v in value):
            return tuple(value)
        return None
    return value


def _in_range(name: str, value) -> bool:
    """Is ``value`` of setting ``name`` within the range the window offers for it?"""
    info = SETTINGS_INFO.get(name)
    if info is None or info.minimum is None or isinstance(value, (bool, tuple)):
        return True
    shown = value * 100 if info.percent else value
    return info.minimum <= shown and (info.maximum is None or shown <= info.maximum)


# --------------------------------------------------------------------------------------
# What each setting means, in the user's words: the one declaration the window's settings
# dialog, the command line's help and the reports read.

#: Where a setting belongs: the one place that says whether a field is fixed when a
#: collection is built or a check setting. ``collection``: fixed when the collection is built
#: and stored with it (a check uses the collection's value; see each one's help for what it
#: changes); ``check``: how a check judges; ``exclusions``: what does
#: not count (applied to a finished result without searching again); ``advanced``: search
#: effort, rarely changed.
GROUPS = ("check", "exclusions", "advanced", "collection")


@dataclass(frozen=True)
class SettingInfo:
    name: str
    group: str  # one of GROUPS
    label_en: str
    label_ru: str
    help_en: str
    help_ru: str
    unit_en: str = ""  # shown after the value: "words", "%"
    unit_ru: str = ""
    minimum: float | None = None  # in the unit shown (percentages 0..100)
    maximum: float | None = None
    percent: bool = False  # stored as a share 0..1, shown as a percentage

    def label(self, lang: str = "en") -> str:
        return self.label_ru if lang == "ru" else self.label_en

    def help(self, lang: str = "en") -> str:
        return self.help_ru if lang == "ru" else self.help_en

    def unit(self, lang: str = "en") -> str:
        return self.unit_ru if lang == "ru" else self.unit_en

    def shown(self, value, lang: str = "en") -> str:
        """The value as the user reads it: "8 words", "10 %", "yes"."""
        if isinstance(value, bool):
            return ("да" if value else "нет") if lang == "ru" else ("yes" if value else "no")
        if isinstance(value, tuple):
            return ", ".join(value) if value else ("нет" if lang == "ru" else "none")
        if self.percent:
            value = round(value * 100, 2)
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        unit = self.unit(lang)
        if lang == "ru" and unit in _RU_FORMS and isinstance(value, int):
            one, few, many = _RU_FORMS[unit]
            n = abs(value) % 100
            unit = many if 11 <= n <= 14 else one if n % 10 == 1 else few if 2 <= n % 10 <= 4 else many
        elif lang != "ru" and value == 1 and unit.endswith("s"):
            unit = unit[:-1]
        return f"{value} {unit}" if unit else str(value)


#: Russian forms of a unit after 1, 2-4 and 5+ (and 11-14).
_RU_FORMS = {"слов": ("слово", "слова", "слов"), "документов": ("документ", "документа", "документов"),
             "отпечатков": ("отпечаток", "отпечатка", "отпечатков")}

_W = ("words", "слов")
_P = ("%", "%")


def _info(name, group, label, help_, unit=("", ""), lo=None, hi=None, percent=False) -> SettingInfo:
    return SettingInfo(name, group, label[0], label[1], help_[0], help_[1], unit[0], unit[1], lo, hi, percent)


SETTINGS_INFO: dict[str, SettingInfo] = {i.name: i for i in (
    _info("min_passage_words", "check",
          ("Shortest passage that counts", "Самый короткий учитываемый фрагмент"),
          ("A matching passage shorter than this is shown but not counted as borrowed: common "
           "phrases of a few words are not copying. A sentence reworded with its meaning kept "
           "counts from half of it.",
           "Совпавший фрагмент короче этого показывается, но не считается заимствованием: "
           "общие обороты из нескольких слов — не списывание. Предложение, пересказанное "
           "с сохранением смысла, учитывается от половины этой длины."), _W, 1, 200),
    _info("max_gap_words", "check",
          ("Changed words bridged inside a passage", "Изменённые слова внутри фрагмента"),
          ("How many inserted, deleted or replaced words may lie between two matching runs and "
           "still make one edited passage (a student changing a word here and there).",
           "Сколько вставленных, удалённых или заменённых слов может стоять между совпадающими "
           "участками, чтобы они считались одним отредактированным фрагментом."), _W, 0, 50),
    _info("min_sentence_words", "check",
          ("Shortest sentence matched in any word order", "Самое короткое предложение с перестановкой слов"),
          ("Sentences at least this long are found even with their words reordered or in other forms.",
           "Предложения не короче этого находятся и при перестановке слов или других формах слов."), _W, 2, 50),
    _info("min_source_containment", "check",
          ("List a source from", "Показывать источник от"),
          ("A source sharing less than this share of the text is not listed.",
           "Источник, с которым совпало меньше этой доли текста, не показывается."), _P, 0, 100, True),
    _info("short_text_similarity", "check",
          ("Short text: not unique above", "Короткий текст: не уникален выше"),
          ("For a text of a few sentences: above this similarity to a source it is reported as not unique.",
           "Для текста из нескольких предложений: выше этого сходства с источником он считается неуникальным."),
          _P, 0, 100),
    _info("crosscheck_threshold", "check",
          ("Essays compared with each other: list pairs from", "Сравнение работ между собой: показывать пары от"),
          ("A pair of essays is listed when either shares at least this part of its words with the other "
           "(or any counted passage).",
           "Пара работ показывается, если одна делит с другой хотя бы эту долю слов "
           "(или хотя бы один учитываемый фрагмент)."), _P, 0, 100, True),
    _info("exclude_quotes", "exclusions",
          ("Quotations in quotation marks are cited, not borrowed", "Текст в кавычках — цитата, а не заимствование"),
          ("Text the student put in quotation marks counts as cited when it matches a source.",
           "Текст, взятый студентом в кавычки, считается цитированием, если совпадает с источником."), ),
    _info("count_quotes_as_borrowed", "exclusions",
          ("Count quotations as borrowed", "Считать цитаты заимствованием"),
          ("Quoted text that matches a source counts as borrowed (for work that should have no quotations).",
           "Текст в кавычках, совпавший с источником, считается заимствованием (для работ без цитат)."), ),
    _info("exclude_bibliography", "exclusions",
          ("The bibliography is cited, not borrowed", "Список литературы — цитирование, а не заимствование"),
          ("Matches inside the list of references at the end do not count as borrowed.",
           "Совпадения в списке литературы в конце работы не считаются заимствованием."), ),
    _info("excluded_sources", "exclusions",
          ("Sources never counted", "Источники, которые не учитываются"),
          ("Paths (or SHA-256) of collection documents left out of every check, one per line.",
           "Пути (или SHA-256) документов коллекции, не учитываемых ни в одной проверке, по одному в строке."), ),
    _info("count_classmates", "exclusions",
          ("Count text shared with classmates as borrowed", "Считать совпадения с одноклассниками заимствованием"),
          ("When the essays of a class are also compared with each other, text an essay shares with a "
           "classmate's counts in its borrowed share. Off: the classmates are still listed as sources, "
           "but their passages are not counted.",
           "Когда работы класса сравниваются и между собой, текст, совпавший с работой одноклассника, "
           "входит в долю заимствований. Если выключено, одноклассники показываются среди источников, "
           "но их фрагменты не учитываются."), ),
    _info("exclude_class_common", "exclusions",
          ("Set aside an opening many essays share (the assignment)",
           "Не учитывать общее начало многих работ (задание)"),
          ("Text at the opening of an essay that at least half of its classmates (four or more) also have, "
           "when the essays of a class are compared with each other, or that four or more documents of the "
           "collection have at their own openings (last year's essays of the same assignment), such as the "
           "assignment everyone pasted, is not counted as shared with them. It is still shown, and a source "
           "holding it elsewhere still counts it. Text making up more than half of the essay is always counted.",
           "Текст в начале работы, который есть не менее чем у половины одноклассников (и хотя бы у четырёх), "
           "когда работы класса сравниваются между собой, или в начале четырёх и более документов коллекции "
           "(прошлогодние работы на то же задание), например вставленное всеми задание, не считается "
           "совпадением с ними. Он по-прежнему показывается, а источник, где этот текст стоит не в начале, "
           "его учитывает. Текст больше половины работы учитывается всегда."), ),
    _info("find_by_meaning", "advanced",
          ("Find reworded and translated sentences by meaning", "Искать пересказ и перевод по смыслу"),
          ("Sentences that no passage of matching words explains are compared by their meaning with the "
           "sentences of the collection, in Russian, Ukrainian and English: a sentence reworded beyond its words, "
           "or translated from a source in another language, is found when its neighbours, names, numbers or "
           "words of one family confirm it. Off: only words are matched (a little faster; documents added "
           "meanwhile get no vectors of meaning).",
           "Предложения, которые не объясняет ни один фрагмент совпавших слов, сравниваются по смыслу с "
           "предложениями коллекции — на русском, украинском и английском: пересказанное своими словами или "
           "переведённое из источника на другом языке предложение находится, если это подтверждают соседние "
           "предложения, имена, числа или однокоренные слова. Если выключено, сравниваются только слова "
           "(немного быстрее; добавленные в это время документы не получают векторов смысла)."), ),
    _info("meaning_second_judge", "advanced",
          ("Judge doubtful reworded sentences by a second model", "Перепроверять сомнительный пересказ второй моделью"),
          ("A reworded sentence whose words, names and numbers agree with a source's sentence but whose "
           "similarity of meaning is a little under what is taken alone is judged again by a second, finer "
           "model of meaning (a few sentences per check): more reworded sentences are found. Needs the "
           "meaning search on; without the second model's package (it ships for Linux x86-64 and macOS on "
           "Apple silicon) nothing changes.",
           "Пересказанное предложение, у которого слова, имена и числа совпадают с предложением источника, "
           "а сходство по смыслу немного ниже порога, проверяется ещё раз второй, более точной моделью смысла "
           "(несколько предложений за проверку): находится больше пересказов. Работает при включённом поиске "
           "по смыслу; на системах, для которых второй модели нет, ничего не меняется."), ),
    _info("max_candidates", "advanced",
          ("Sources compared closely per check", "Источников для подробного сравнения"),
          ("The most similar documents of the collection compared word by word with the text; more is "
           "slower and rarely finds more.",
           "Сколько самых похожих документов коллекции сравнивается с текстом слово за словом; "
           "больше — медленнее и редко находит больше."), ("documents", "документов"), 1, 10_000),
    _info("align_seed_words", "advanced",
          ("Words per seed when aligning", "Слов в затравке при выравнивании"),
          ("Shortest run of words that starts aligning a passage with its source.",
           "Самая короткая цепочка слов, с которой начинается сопоставление фрагмента с источником."), _W, 1, 10),
    _info("short_text_words", "advanced",
          ("Treat a text as short below", "Считать текст коротким, если меньше"),
          ("Texts with fewer meaningful words are also compared by their longest words.",
           "Тексты с меньшим числом значимых слов сравниваются ещё и по самым длинным словам."), _W, 1, 1000),
    _info("drop_adjectives", "collection",
          ("Ignore adjectives", "Не учитывать прилагательные"),
          ("Adjectives are left out of every stored document and every checked text (finds copies "
           "whose adjectives were changed). It decides what the collection stores.",
           "Прилагательные не учитываются ни в хранимых документах, ни в проверяемых текстах (находит "
           "копии с заменёнными прилагательными). От этого зависит, что хранит коллекция."), ),
    _info("shingle_words", "collection",
          ("Words per run in the resemblance figure", "Слов в цепочке для показателя «Сходство»"),
          ("Only the \"Resemblance\" figure beside each source (the share of runs of this many words the "
           "two texts have in common) depends on it: nothing stored, no passage, no borrowed share.",
           "От этого зависит только показатель «Сходство» у источника (доля общих цепочек из стольких "
           "слов): ни хранимые данные, ни фрагменты, ни доля заимствований."),
          _W, 2, 12),
)}

#: Settings fixed when a collection is built; a check takes the collection's. The store's
#: indexing keys and the window's read this (``Settings.indexing_fields()``).
COLLECTION_FIELDS = tuple(n for n, i in SETTINGS_INFO.items() if i.group == "collection")

REBUILD_NOTE = {
    "en": ("These are properties of the collection, chosen when it was created; a check always uses "
           "the collection's own. To change one, create a new collection and add the documents again."),
    "ru": ("Это свойства коллекции, выбранные при её создании; проверка всегда использует значения "
           "самой коллекции. Чтобы изменить их, создайте новую коллекцию и добавьте документы заново."),
}


def describe_changes(old: Settings, new: Settings, lang: str = "en") -> list[str]:
    """What differs between two settings, in the user's words: ``"label: old → new"``."""
    out = []
    for name, info in SETTINGS_INFO.items():
        a, b = getattr(old, name), getattr(new, name)
        if a != b:
            out.append(f"{info.label(lang)}: {info.shown(a, lang)} \u2192 {info.shown(b, lang)}")
    return out
