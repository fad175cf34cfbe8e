"""Warnings, errors and progress phases as data: a stable code and its numbers.

The core never words a message for the user. It returns a :class:`Message` (``code`` and
``args``); the faces turn it into Russian or English with :func:`text` (the command line,
the reports and the window all use this one catalogue, so a message is worded once).
JSON output keeps the code, the args and the English text side by side.

Adding a message: add one entry to :data:`CATALOGUE` (``code: (english, russian)``), and
create it in the core with ``message("code", name=value, ...)``. Codes are stable
identifiers (lower case, dots between parts, e.g. ``"warning.hidden_text"``): never
rename one, other programs read them from JSON. Templates name the args in braces:

* ``{n}``: the value (numbers as numbers; a float with one decimal);
* ``{n:one|other}`` (English), ``{n:one|few|many}`` (Russian): the word for that number;
* ``{n%term}``: a value that is a key of :data:`TERMS`, said in the language;
* ``{ways}`` where the value is a tuple of ``(term key, number)`` pairs: "white text: 3, ...".

A value that is a plain string (a file name, an encoding, a page list) is shown as it is.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

__all__ = ["Message", "message", "text", "to_json", "from_json", "CATALOGUE", "TERMS", "phase"]


@dataclass(frozen=True)
class Message:
    """``code`` (a key of :data:`CATALOGUE`) and ``args`` as sorted ``(name, value)`` pairs."""

    code: str
    args: tuple[tuple[str, Any], ...] = ()

    @property
    def kw(self) -> dict[str, Any]:
        return dict(self.args)

    def text(self, lang: str = "en") -> str:
        return text(self, lang)

    def __str__(self) -> str:  # the English text, for logs and for JSON's "text"
        return text(self, "en")


def _frozen(value: Any) -> Any:
    if isinstance(value, (list, tuple)):
        return tuple(_frozen(v) for v in value)
    return value


def message(code: str, **args: Any) -> Message:
    if code not in CATALOGUE:
        raise KeyError(f"unknown message code {code!r}: add it to sverka.core.messages.CATALOGUE")
    return Message(code, tuple(sorted((k, _frozen(v)) for k, v in args.items())))


#: Words used inside messages (ways text was hidden, formats), in English and Russian.
TERMS: dict[str, tuple[str, str]] = {
    "hidden formatting": ("hidden formatting", "скрытое форматирование"),
    "white text": ("white text", "белый текст"),
    "text of 1 pt or less": ("text of 1 pt or less", "шрифт 1 пт и меньше"),
    "text under 2 pt": ("text under 2 pt", "шрифт меньше 2 пт"),
    "invisible text": ("invisible text", "невидимый текст"),
    "hidden attribute": ("hidden attribute", "атрибут hidden"),
    "hidden by its style": ("hidden by its style", "скрыт своим стилем"),
    "hidden by the page's styles": ("hidden by the page's styles", "скрыт стилями страницы"),
    "pdf": ("a PDF", "PDF"),
    "docx": ("a Word .docx document", "документ Word .docx"),
    "odt": ("an OpenDocument text", "текст OpenDocument"),
    "rtf": ("an RTF document", "документ RTF"),
    "ru": ("Russian", "русских"),
    "uk": ("Ukrainian", "украинских"),
    "cyrillic": ("Cyrillic", "кириллических"),
    "the collection": ("the collection", "коллекцию"),
    "a collection": ("a collection (an SQLite database)", "коллекцию (базу данных SQLite)"),
    "a document it reads": ("a document it reads", "читаемый документ"),
}

#: code -> (English, Russian).
CATALOGUE: dict[str, tuple[str, str]] = {
    # a kept message of an older collection (stored as English text before codes existed)
    "text": ("{text}", "{text}"),
    # tampering found by canonization (core/text.py)
    "warning.lookalike_latin": (
        "{n} Latin {n:letter|letters} that {n:looks|look} like Cyrillic inside {language%term} words",
        "{n} {n:латинская буква|латинские буквы|латинских букв}, похож{n:ая|ие|их} на кириллицу, "
        "внутри {language%term} слов"),
    "warning.lookalike_cyrillic": (
        "{n} Cyrillic {n:letter|letters} that {n:looks|look} like Latin inside Latin-script words",
        "{n} {n:кириллическая буква|кириллические буквы|кириллических букв}, похож{n:ая|ие|их} на латиницу, "
        "внутри латинских слов"),
    "warning.lookalike_other_cyrillic": (
        "{n} {n:letter|letters} of other scripts (Greek, Armenian, Cherokee, ...) that {n:looks|look} like "
        "Cyrillic inside {language%term} words",
        "{n} {n:буква|буквы|букв} других алфавитов (греческого, армянского, чероки...), похож{n:ая|ие|их} "
        "на кириллицу, внутри {language%term} слов"),
    "warning.lookalike_other_latin": (
        "{n} {n:letter|letters} of other scripts (Greek, Armenian, Cherokee, ...) that {n:looks|look} like "
        "Latin inside Latin-script words",
        "{n} {n:буква|буквы|букв} других алфавитов (греческого, армянского, чероки...), похож{n:ая|ие|их} "
        "на латиницу, внутри латинских слов"),
    "warning.text_layer_chars": (
        "the text layer of this PDF does not look like text: {percent} % of its characters are private-use, "
        "control or unknown characters (a font without a true Unicode map?); the comparison may miss copied "
        "text: compare the printed pages",
        "текстовый слой этого PDF не похож на текст: {percent} % его символов — служебные, управляющие или "
        "неизвестные (шрифт без настоящей таблицы Юникода?); сравнение может пропустить списанное: сверьте "
        "с напечатанными страницами"),
    "warning.text_layer_words": (
        "the text layer of this PDF does not look like text: only {percent} % of its words are Russian, "
        "Ukrainian or English words (a font whose Unicode map lies, or a text in another language?); the "
        "comparison may miss copied text: compare the printed pages",
        "текстовый слой этого PDF не похож на текст: лишь {percent} % его слов — русские, украинские или "
        "английские (шрифт с ложной таблицей Юникода или текст на другом языке?); сравнение может пропустить "
        "списанное: сверьте с напечатанными страницами"),
    "warning.pdf_cyrillic_recovered": (
        "the fonts of this PDF map its Russian letters to Latin ones (a missing or wrong Unicode map); Sverka read "
        "them back as Cyrillic (Windows-1251): check the text against the printed pages",
        "шрифты этого PDF сопоставляют русским буквам латинские (нет таблицы Юникода или она неверна); Сверка "
        "прочитала их обратно как кириллицу (Windows-1251): сверьте текст с напечатанными страницами"),
    "warning.source_damaged": (
        "not compared with a document of the collection: {detail}",
        "не сравнено с документом коллекции: {detail}"),
    "warning.invisible_chars": (
        "{n} invisible {n:character|characters} (zero-width spaces, soft hyphens) inside words",
        "{n} {n:невидимый символ|невидимых символа|невидимых символов} (пробелы нулевой ширины, мягкие переносы) "
        "внутри слов"),
    # extraction (core/extract)
    "warning.doc_codepage_guessed": (
        "the Word 6/95 document does not say its code page; its text was read as {encoding}, guessed from its "
        "letters: check that it reads right",
        "документ Word 6/95 не указывает свою кодировку; его текст прочитан как {encoding}, угаданная по его "
        "буквам: проверьте, что он читается правильно"),
    "warning.hidden_text": (
        "hidden text left out: {words} {words:word|words}, {share} % of the document ({ways})",
        "скрытый текст не учтён: {words} {words:слово|слова|слов}, {share} % документа ({ways})"),
    "warning.format_mismatch": (
        "the file is named {suffix} but its content is {format%term}; read as such",
        "файл назван {suffix}, но по содержимому это {format%term}; прочитан как таковой"),
    "warning.reversed_text": (
        "{n} {n:letter|letters} stored in reverse order and shown forwards by a right-to-left override: "
        "read as shown",
        "{n} {n:буква записана|буквы записаны|букв записано} задом наперёд и {n:показана|показаны|показано} "
        "в обычном порядке знаком направления справа налево: прочитано так, как показано"),
    "warning.nul_removed": (
        "{n} NUL {n:character|characters} removed",
        "{n:удалён|удалено|удалено} {n} {n:символ|символа|символов} NUL"),
    "warning.surrogates_replaced": (
        "{n} unpaired surrogate code {n:unit|units} replaced by U+FFFD",
        "{n} {n:непарный суррогатный код заменён|непарных суррогатных кода заменены|непарных суррогатных кодов "
        "заменены} на U+FFFD"),
    "warning.bytes_replaced": (
        "{n} byte {n:sequence|sequences} not valid in {encoding} replaced by U+FFFD",
        "{n} {n:последовательность байтов|последовательности байтов|последовательностей байтов}, "
        "недопустимых в {encoding}, заменены на U+FFFD"),
    "warning.no_words": (
        "the text holds no words Sverka compares (only numbers, symbols or pictures): nothing was checked",
        "в тексте нет слов, которые Сверка сравнивает (только числа, символы или картинки): проверять нечего"),
    "warning.mixed_encodings": (
        "the file mixes two encodings: {n} {n:line|lines} in UTF-8, {count} in {encoding}; "
        "each line is read in its own",
        "в файле две кодировки: {n} {n:строка|строки|строк} в UTF-8, {count} в {encoding}; каждая строка прочитана "
        "в своей"),
    "warning.pdf_hidden_unchecked": (
        "{n} {n:page was|pages were} not fully checked for hidden text (more than {limit} drawing objects on a "
        "page): {shown}",
        "на {n} {n:странице|страницах|страницах} скрытый текст проверен не полностью (больше {limit} графических "
        "объектов на странице): {shown}"),
    "warning.pages_without_text": (
        "{empty} of {pages} pages have no text layer (scanned?): {shown}",
        "{empty} из {pages} страниц без текстового слоя (скан?): {shown}"),
    "warning.pdf_letters_fallback": (
        "read with pdfminer.six, which found {words} words where PDFium found {pdfium} (fonts whose letters PDFium "
        "cannot map to Unicode); hidden text was not looked for",
        "прочитан через pdfminer.six: он нашёл {words} слов там, где PDFium нашёл {pdfium} (шрифты, буквы которых "
        "PDFium не сопоставляет Юникоду); скрытый текст не искался"),
    "warning.docx_part_missing": (
        "a part of the document is missing from the file ({name}): its text is not read; the rest is",
        "в файле нет части документа ({name}): её текст не прочитан, остальное прочитано"),
    "warning.pdf_fallback": (
        "read with pdfminer.six because PDFium could not open it ({why})",
        "прочитан через pdfminer.six: PDFium не открыл файл ({why})"),
    # the result (core/exclusions.py)
    "warning.long_quotation": (
        "{count} {count:quotation|quotations} longer than {limit} words (the longest: {words} words): "
        "is quoting this much justified?",
        "{count} {count:цитата|цитаты|цитат} длиннее {limit} слов (самая длинная: {words} {words:слово|слова|слов}): "
        "оправдано ли столько цитировать?"),
    "warning.many_quotations": (
        "quotations make up {percent} % of the text (more than {limit} %)",
        "цитаты составляют {percent} % текста (больше {limit} %)"),
    "warning.class_common": (
        "{words} {words:word|words} at the opening, which {mates} {mates:classmate|classmates} also have (the "
        "assignment?), not counted as shared with classmates; if it is not the assignment, turn off \"Set aside "
        "an opening many essays share\" in the settings",
        "{words} {words:слово|слова|слов} в начале работы есть и у {mates} {mates:одноклассника|одноклассников|одноклассников} "
        "(задание?) — не считаются совпадением с одноклассниками; если это не задание, выключите «Не учитывать "
        "общее начало многих работ» в настройках"),
    "warning.collection_common": (
        "{words} {words:word|words} at the opening, which {documents} {documents:document|documents} of the "
        "collection also have at their openings (the assignment?), not counted as borrowed from them; if it is "
        "not the assignment, turn off \"Set aside an opening many essays share\" in the settings",
        "{words} {words:слово|слова|слов} в начале работы есть и в начале {documents} "
        "{documents:документа|документов|документов} коллекции (задание?) — не считаются заимствованием из них; "
        "если это не задание, выключите «Не учитывать общее начало многих работ» в настройках"),
    # file errors (core/errors.py, core/files.py, core/indexing.py): why a file was not read.
    # The classes of ExtractError keep the reader's English detail; the Russian says the class.
    "error.unreadable": ("{detail}", "файл не открывается"),
    "error.unsupported": ("{detail}", "формат файла не поддерживается или неизвестен"),
    "error.corrupt": ("{detail}", "файл повреждён или обрезан"),
    "error.zip_same_name": (
        "the archive holds two members named '{name}': no office program writes that, and which of them a reader shows is not certain",
        "в архиве две части с одним именем ({name}): так не сохраняет ни одна офисная программа, и неизвестно, какую из них увидит читатель"),
    "error.odt_no_content": (
        "a damaged OpenDocument text: its main part (content.xml), which holds the text, is missing",
        "повреждённый текст OpenDocument: нет его основной части (content.xml), в которой хранится текст"),
    "error.odt_no_text_body": (
        "an OpenDocument file whose content.xml holds no text document (a spreadsheet, a drawing or a damaged file)",
        "файл OpenDocument, в content.xml которого нет текстового документа (таблица, рисунок или повреждённый файл)"),
    "error.docx_no_document": (
        "a damaged Word document: its main part (word/document.xml), which holds the text, is missing",
        "повреждённый документ Word: нет его основной части (word/document.xml), в которой хранится текст"),
    "error.docx_no_content_types": (
        "a damaged Word document: the list of its parts' types ([Content_Types].xml) is missing",
        "повреждённый документ Word: нет списка типов его частей ([Content_Types].xml)"),
    "error.docx_rels_damaged": (
        "a damaged Word document: the list of its parts' relations ({name}), which tells where its text and "
        "styles are, is damaged",
        "повреждённый документ Word: испорчен список связей его частей ({name}), по которому находятся его "
        "текст и стили"),
    "error.pdf_no_pages": ("the PDF has no pages", "в PDF нет ни одной страницы"),
    "error.encrypted": ("{detail}", "файл защищён паролем"),
    "error.empty": ("{detail}", "в файле нет текста"),
    "error.too_large": ("{detail}", "файл больше допустимого Сверкой предела или слишком долго читается"),
    "error.missing": ("the file does not exist", "файла не существует"),
    "error.wordperfect": ("a WordPerfect document, not a Word document; Sverka does not read WordPerfect: save it as "
                          ".docx or .odt in WordPerfect or LibreOffice",
                          "документ WordPerfect, а не Word; Сверка не читает WordPerfect: сохраните его как .docx "
                          "или .odt в WordPerfect или LibreOffice"),
    "error.permission": ("permission denied", "нет прав на чтение"),
    "error.folder": ("is a folder, not a file", "это папка, а не файл"),
    "error.not_regular": ("not a regular file (a pipe, a device or a socket); Sverka reads only regular files",
                          "не обычный файл (канал, устройство или сокет); Сверка читает только обычные файлы"),
    "error.no_such_path": ("no such file or folder", "нет такого файла или папки"),
    # the command line's other words
    "cli.settings_defaults": ("settings: Sverka's defaults (--defaults)",
                              "настройки: по умолчанию Сверки (--defaults)"),
    "cli.settings_unsaved": ("settings: Sverka's defaults (none saved in the window)",
                             "настройки: по умолчанию Сверки (в окне ничего не сохранено)"),
    "cli.settings_saved": ("settings: the settings saved in the window ({path})",
                           "настройки: сохранённые в окне ({path})"),
    "cli.settings_unreadable": (
        "settings: Sverka's defaults: the settings saved in the window ({path}) could not be read: {reason}; "
        "the file is left as it is",
        "настройки: по умолчанию Сверки: сохранённые в окне настройки ({path}) не удалось прочитать: {reason}; "
        "файл оставлен как есть"),
    "cli.settings_value_ignored": (
        "settings: {path}: the saved value of \"{name}\" ({key}: {value}) is not one the window offers; "
        "Sverka's default ({default}) is used instead",
        "настройки: {path}: сохранённое значение «{name}» ({key}: {value}) — не из тех, что предлагает окно; "
        "вместо него используется значение по умолчанию ({default})"),
    # the saved settings file (core/preferences.py): why it could not be read; what the window says
    "settings.not_json": ("it is not valid JSON (line {line}, column {column})",
                          "это неправильный JSON (строка {line}, столбец {column})"),
    "settings.not_object": ("it holds no settings (JSON, but not a set of named settings)",
                            "в нём нет настроек (JSON, но не набор именованных настроек)"),
    "settings.not_utf8": ("it is not UTF-8 text", "это не текст в UTF-8"),
    "settings.cannot_open": ("it cannot be opened ({detail})", "он не открывается ({detail})"),
    "settings.unreadable": (
        "The settings saved in the window ({path}) could not be read: {reason}. Sverka's defaults are used; "
        "the file is left as it is until you save the settings again.",
        "Сохранённые настройки ({path}) не удалось прочитать: {reason}. Используются настройки по умолчанию; "
        "файл не изменится, пока вы снова не сохраните настройки."),
    "settings.value_ignored": (
        "A saved setting is not one the window offers and is not used: \"{name}\" ({key}: {value}); its "
        "default ({default}) is used instead. File: {path}",
        "Сохранённое значение настройки — не из тех, что предлагает окно, и не используется: «{name}» "
        "({key}: {value}); вместо него — значение по умолчанию ({default}). Файл: {path}"),
    "cli.settings_changed": ("changed by {flags}", "изменены флагами {flags}"),
    "cli.index_summary": (
        "added {added}, updated {updated}, unchanged {unchanged}, duplicate {duplicates}, failed {failed}; "
        "{total} {total:document|documents} in {path}",
        "добавлено {added}, обновлено {updated}, без изменений {unchanged}, повторов {duplicates}, "
        "не прочитано {failed}; в коллекции {path} {total} {total:документ|документа|документов}"),
    "cli.duplicate": ("duplicate: {path} (same text as {original})", "повтор: {path} (тот же текст, что в {original})"),
    "cli.index_kept": ("{n} {n:document was|documents were} added before the error and {n:is|are} kept; "
                       "{total} in {path}",
                       "до ошибки {n:добавлен|добавлено|добавлено} {n} {n:документ|документа|документов}, "
                       "{n:он сохранён|они сохранены|они сохранены}; в коллекции {path} их {total}"),
    "cli.index_cancelled": ("cancelled; the files added before the interruption are kept",
                            "отменено; файлы, добавленные до прерывания, сохранены"),
    "cli.words": ("{n:word|words}", "{n:слово|слова|слов}"),
    "cli.characters": ("{n:character|characters}", "{n:знак|знака|знаков}"),
    "cli.documents": ("{n} {n:document|documents}", "{n} {n:документ|документа|документов}"),
    "cli.template": ("template", "шаблон"),
    "cli.removed": ("removed {n}", "удалено: {n}"),
    "cli.not_in_collection": ("not in the collection", "нет в коллекции"),
    "cli.rebuilt": ("{path}: rebuilt, {n} {n:document|documents}", "{path}: пересоздана, {n} {n:документ|документа|документов}"),
    "cli.old_file_kept": ("the old file is kept as {name}", "старый файл сохранён как {name}"),
    "cli.left_out_damaged": ("left out, its stored data is damaged: {name}",
                             "пропущен, его хранимые данные повреждены: {name}"),
    "cli.output_failed": ("cannot write the output: {detail}", "не удаётся вывести результат: {detail}"),
    "cli.output_closed": ("standard output is closed", "стандартный вывод закрыт"),
    "cli.report_failed": ("cannot write the report: {detail}", "не удаётся записать отчёт: {detail}"),
    # the command line's summary of a cross-check
    "summary.crosscheck_none": (
        "{n} {n:document|documents} compared: no pair shares a passage or {percent} % of its words",
        "сравнено {n} {n:документ|документа|документов}: ни одна пара не разделяет ни фрагмента, ни {percent} % слов"),
    "summary.crosscheck_cluster": ("{n} documents share text: {names}",
                                   "общий текст у {n} {n:документа|документов|документов}: {names}"),
    "summary.crosscheck_pair": ("{words} {words:word|words} shared, resemblance {resemblance} %",
                                "общих слов: {words}, сходство {resemblance} %"),
    "summary.crosscheck_unread": ("{n} {n:file|files} could not be read (above)",
                                  "{n} {n:файл|файла|файлов} прочитать не удалось (см. выше)"),
    "error.report_folder_is_file": ("is a file; several reports need a folder (a new name, or one ending with /)",
                                    "это файл; нескольким отчётам нужна папка (новое имя или имя с / в конце)"),
    "error.report_over_input": (
        "a report would replace {what%term}: choose another file for --{option}",
        "отчёт заменил бы {what%term}: укажите для --{option} другой файл"),
    "error.report_over_document": (
        "a report would replace this file, and it is not a report (its name does not end in {suffix}): "
        "choose another file for --{option}",
        "отчёт заменил бы этот файл, а это не отчёт (его имя не оканчивается на {suffix}): "
        "укажите для --{option} другой файл"),
    "error.report_over_other": (
        "a report would replace this file, and it is not a report Sverka wrote: choose another file for "
        "--{option}, or delete this one first",
        "отчёт заменил бы этот файл, а это не отчёт Сверки: укажите для --{option} другой файл "
        "или сначала удалите этот"),
    "error.report_not_file": (
        "not a regular file (a folder, a device, a pipe or a socket); a report is written only to a file: "
        "choose a file for --{option}",
        "не обычный файл (папка, устройство, канал или сокет); отчёт записывается только в файл: "
        "укажите для --{option} файл"),
    "error.folder_unreadable": ("cannot read the folder: {detail}", "папка не читается: {detail}"),
    "error.link_outside": ("skipped: a symbolic link to outside the folder (ask to follow links to read it)",
                           "пропущено: символическая ссылка за пределы папки (включите переход по ссылкам, "
                           "чтобы прочитать её)"),
    "error.link_loop": ("skipped: a symbolic link back to a folder being added (a loop)",
                        "пропущено: символическая ссылка на добавляемую папку (петля)"),
    "error.nested_folders": ("skipped: folders nested deeper than {levels} levels",
                             "пропущено: вложенность папок глубже {levels} уровней"),
    "error.broken_link": ("a broken link", "битая ссылка"),
    "error.link_cycle": ("a symbolic link that leads round in a circle", "символическая ссылка, ведущая по кругу"),
    "error.too_much_memory": ("the file needs more memory than Sverka may use",
                              "файлу нужно больше памяти, чем Сверке разрешено"),
    "error.too_deep": ("the file is nested too deeply to read", "вложенность файла слишком глубока для чтения"),
    "error.bug": ("unexpected error in Sverka ({detail}); please report it",
                  "непредвиденная ошибка Сверки ({detail}); сообщите о ней, пожалуйста"),
    # the collection and other problems a user can act on (SverkaError.of)
    "error.cancelled": ("Cancelled", "Отменено"),
    "error.collection_busy": ("collection is busy: another Sverka is writing to it ({path}); try again when it has "
                              "finished",
                              "коллекция занята: в неё записывает другая Сверка ({path}); попробуйте ещё раз, когда "
                              "она закончит"),
    "error.disk_full": ("the disk is full: cannot write to the collection {path}",
                        "диск заполнен: записать в коллекцию {path} нельзя"),
    "error.read_only": ("the collection {path} is read-only: cannot write to it",
                        "коллекция {path} только для чтения: записать в неё нельзя"),
    "error.collection_damaged": (
        "{what} in the collection {path} is damaged; rebuild the collection from the texts it keeps: "
        'sverka rebuild --db "{path}"',
        "в коллекции {path} повреждено: {what}; пересоздайте коллекцию из хранимых в ней текстов: "
        'sverka rebuild --db "{path}"'),
    "error.collection_read_only": (
        "the collection {path} is read-only (a read-only medium or no permission to write): it can be used for "
        "checking, but nothing can be added to it or removed from it; copy it to a folder you can write to, or "
        "ask for write permission",
        "коллекция {path} только для чтения (носитель только для чтения или нет прав на запись): по ней можно "
        "проверять, но ничего нельзя добавить или удалить; скопируйте её в папку, куда можно писать, или "
        "попросите права на запись"),
    "error.disk_failed": ("the disk failed while writing the collection {path}",
                          "ошибка диска при записи коллекции {path}"),
    # a shared collection on a PostgreSQL server (core/store/postgres.py); {server} is host:port
    "error.server_unreachable": (
        "cannot reach the PostgreSQL server {server} of the shared collection {path}: is the server running and "
        "is the address right? ({detail})",
        "не удаётся связаться с сервером PostgreSQL {server} общей коллекции {path}: работает ли сервер и верен "
        "ли адрес? ({detail})"),
    "error.server_login_refused": (
        "the PostgreSQL server {server} refused the login of user '{user}' to the shared collection {path}: "
        "check the user name and password",
        "сервер PostgreSQL {server} не пустил пользователя '{user}' в общую коллекцию {path}: проверьте имя "
        "пользователя и пароль"),
    "error.shared_bad_address": (
        "not a valid PostgreSQL address: {path} ({detail})",
        "неверный адрес PostgreSQL: {path} ({detail})"),
    "error.shared_cannot_open": (
        "cannot open the shared collection {path}: {detail}",
        "не удаётся открыть общую коллекцию {path}: {detail}"),
    "error.shared_no_write": (
        "the shared collection {path} does not allow this user to write: {detail}",
        "общая коллекция {path} не разрешает этому пользователю записывать: {detail}"),
    "error.shared_disk_full": (
        "the PostgreSQL server of {path} has no disk space left: cannot write",
        "на сервере PostgreSQL коллекции {path} кончилось место на диске: записать нельзя"),
    "error.shared_connection_lost": (
        "lost the connection to the shared collection {path}: {detail}",
        "потеряна связь с общей коллекцией {path}: {detail}"),
    "error.shared_other_tables": (
        "the database {path} holds other tables: it is not a Sverka collection; use an empty database",
        "в базе данных {path} есть другие таблицы: это не коллекция Сверки; возьмите пустую базу данных"),
    "error.shared_unreadable_format": (
        "the shared collection {path} has an unreadable format ({found})",
        "у общей коллекции {path} нечитаемый формат ({found})"),
    "error.shared_newer": (
        "the shared collection {path} was written by a newer Sverka (format {found}, this Sverka reads {reads}); "
        "update Sverka to open it",
        "общая коллекция {path} записана более новой Сверкой (формат {found}, эта Сверка читает {reads}); "
        "обновите Сверку, чтобы открыть её"),
    "error.shared_older": (
        "the shared collection {path} was written by an older Sverka (format {found}); it must be rebuilt: add "
        "its documents again to an empty database",
        "общая коллекция {path} записана более старой Сверкой (формат {found}); её нужно перестроить: добавьте "
        "её документы заново в пустую базу данных"),
    "error.shared_other_version": (
        "the shared collection {path} was built by another version of Sverka ({key} {found} instead of "
        "{wanted}); it must be rebuilt: add its documents again to an empty database",
        "общая коллекция {path} построена другой версией Сверки ({key} {found} вместо {wanted}); её нужно "
        "перестроить: добавьте её документы заново в пустую базу данных"),
    "error.server_no_database": (
        "the PostgreSQL server {server} has no database '{database}' ({path}); ask its administrator to create "
        "it (CREATE DATABASE {database})",
        "на сервере PostgreSQL {server} нет базы данных '{database}' ({path}); попросите его администратора "
        "создать её (CREATE DATABASE {database})"),
    "error.cannot_open_collection": ("cannot open the collection {path}: {detail}",
                                     "не удаётся открыть коллекцию {path}: {detail}"),
    "error.not_a_collection": ("{path} is not a Sverka collection or is damaged ({detail})",
                               "{path} — не коллекция Сверки или она повреждена ({detail})"),
    "error.collection_newer": ("the collection {path} was written by a newer Sverka (format {found}, this Sverka "
                               "reads {reads}); update Sverka to open it",
                               "коллекция {path} записана более новой Сверкой (формат {found}, эта Сверка читает "
                               "{reads}); обновите Сверку, чтобы открыть её"),
    "error.collection_older": ("the collection {path} was written by an older Sverka (format {found}); rebuild it "
                               "from the texts it keeps: sverka rebuild --db \"{path}\"",
                               "коллекция {path} записана более старой Сверкой (формат {found}); перестройте её "
                               "по хранящимся в ней текстам: sverka rebuild --db \"{path}\""),
    "error.collection_other_version": ("the collection {path} was built by another version of Sverka ({key} {found} "
                                       "instead of {wanted}); rebuild it from the texts it keeps: "
                                       "sverka rebuild --db \"{path}\"",
                                       "коллекция {path} построена другой версией Сверки ({key} {found} вместо "
                                       "{wanted}); перестройте её по хранящимся в ней текстам: "
                                       "sverka rebuild --db \"{path}\""),
    "error.remove_everything": ("remove: {path} holds every document of the collection; remove them by id or start "
                                "a new collection; nothing removed",
                                "удаление: в {path} все документы коллекции; удалите их по номерам или начните "
                                "новую коллекцию; ничего не удалено"),
    "error.remove_too_broad": ("remove: {path} is too broad (the root or the home folder); nothing removed",
                               "удаление: {path} — слишком широко (корень или домашняя папка); ничего не удалено"),
    "error.read_memory_limit": (
        "reading the file needed more than {mb} MB of memory (Sverka's limit per file) or crashed the reader; "
        "the file is probably crafted or damaged",
        "чтение файла потребовало больше {mb} МБ памяти (предел Сверки на файл) или обрушило процесс чтения; "
        "файл, вероятно, подделан или повреждён"),
    "error.read_time_limit": (
        "reading the file took longer than {seconds} s (Sverka's limit per file); the file is probably crafted "
        "or damaged",
        "чтение файла заняло больше {seconds} с (предел Сверки на файл); файл, вероятно, подделан или повреждён"),
    "error.pdf_inflate_bomb": (
        "a page of this PDF unpacks to more than {mb} MB of drawing instructions (a decompression bomb); "
        "refused at Sverka's memory limit of {limit} MB per file",
        "страница этого PDF распаковывается в более чем {mb} МБ команд рисования (бомба сжатия); отклонено "
        "на пределе памяти Сверки в {limit} МБ на файл"),
    "error.pdf_form_bomb": (
        "a page of this PDF draws more than {n} forms inside forms (form XObjects that draw each other over and "
        "over); refused at Sverka's memory limit of {limit} MB per file",
        "страница этого PDF рисует больше {n} форм внутри форм (формы XObject, рисующие друг друга снова и "
        "снова); отклонено на пределе памяти Сверки в {limit} МБ на файл"),
    "error.pdf_fallback_time": (
        "PDFium could not open this PDF ({why}), and reading it with pdfminer took longer than {seconds} s; "
        "the file is probably damaged",
        "PDFium не открыл этот PDF ({why}), а чтение pdfminer заняло больше {seconds} с; файл, вероятно, "
        "повреждён"),
    "error.reader_not_started": ("Sverka's file reader process did not start",
                                 "процесс чтения файлов Сверки не запустился"),
    # progress phases (core/check.py, core/indexing.py, core/rebuild.py)
    "phase.reading_suspect": ("Reading the suspect", "Чтение проверяемого документа"),
    "phase.comparing_collection": ("Comparing with the collection", "Сравнение с коллекцией"),
    "phase.reading_first": ("Reading the first document", "Чтение первого документа"),
    "phase.reading_second": ("Reading the second document", "Чтение второго документа"),
    "phase.comparing": ("Comparing", "Сравнение"),
    "phase.reading_documents": ("Reading the documents", "Чтение документов"),
    "phase.comparing_each_other": ("Comparing the documents with each other", "Сравнение документов друг с другом"),
    "phase.rebuilding": ("Rebuilding the collection", "Перестройка коллекции"),
    "phase.looking_for_files": ("Looking for files", "Поиск файлов"),
    "phase.unchanged_skipped": ("Unchanged files skipped", "Неизменённые файлы пропущены"),
    "phase.done": ("Done", "Готово"),
}

_PLACE = re.compile(r"\{(\w+)(?::([^{}]*)|%(term))?\}")


def _plural(n: Any, forms: list[str], lang: str) -> str:
    try:
        k = abs(int(n))
    except (TypeError, ValueError):
        return forms[-1]
    if lang == "ru" and len(forms) >= 3:
        if k % 10 == 1 and k % 100 != 11:
            return forms[0]
        if 2 <= k % 10 <= 4 and not 12 <= k % 100 <= 14:
            return forms[1]
        return forms[2]
    return forms[0] if k == 1 else forms[-1]


def _term(key: Any, lang: str) -> str:
    pair = TERMS.get(str(key))
    if pair is None:
        return str(key)
    return pair[1] if lang == "ru" else pair[0]


def _value(v: Any, lang: str) -> str:
    if isinstance(v, bool):
        return str(v)
    if isinstance(v, float):
        return f"{v:.1f}".replace(".", ",") if lang == "ru" else f"{v:.1f}"  # a decimal comma in Russian
    if isinstance(v, tuple):  # (term, number) pairs
        return ", ".join(f"{_term(k, lang)}: {_value(n, lang)}" for k, n in v)
    return str(v)


def text(m: Message | str, lang: str = "en") -> str:
    """``m`` worded in ``lang`` ("en" or "ru"); a plain string is returned as it is."""
    if not isinstance(m, Message):
        return str(m)
    en, ru = CATALOGUE.get(m.code, ("{text}", "{text}"))
    template = ru if lang == "ru" else en
    kw = m.kw

    def fill(match: re.Match) -> str:
        name, forms, term = match.group(1), match.group(2), match.group(3)
        value = kw.get(name, "")
        if term:
            return _term(value, lang)
        if forms is not None:
            return _plural(value, forms.split("|"), lang)
        return _value(value, lang)

    return _PLACE.sub(fill, template)


def phase(code: str) -> str:
    """A progress phase as it travels through ``progress(done, total, message)``: its code."""
    if code not in CATALOGUE:
        raise KeyError(code)
    return code


def phase_text(code: str, lang: str = "en") -> str:
    """A progress message in ``lang``: a phase code worded, anything else (a title) as it is."""
    if code in CATALOGUE and code.startswith("phase."):
        en, ru = CATALOGUE[code]
        return ru if lang == "ru" else en
    return code


def to_json(m: Message | str) -> dict[str, Any]:
    """``{"code", "args", "text"}`` (``text``: English, for people reading the JSON)."""
    if not isinstance(m, Message):
        m = Message("text", (("text", str(m)),))
    return {"code": m.code, "args": {k: (list(map(list, v)) if isinstance(v, tuple) else v) for k, v in m.args},
            "text": text(m, "en")}


def from_json(data: Any) -> Message:
    """A message back from :func:`to_json` (or from a bare English string of older data)."""
    if isinstance(data, dict) and "code" in data:
        return Message(str(data["code"]), tuple(sorted((k, _frozen(v)) for k, v in (data.get("args") or {}).items())))
    return Message("text", (("text", str(data)),))
