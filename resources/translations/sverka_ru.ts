<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="ru_RU">
<context>
    <name>BatchModel</name>
    <message>
        <source>Essay</source>
        <translation>Работа</translation>
    </message>
    <message>
        <source>Borrowed</source>
        <translation>Заимствовано</translation>
    </message>
    <message>
        <source>Cited</source>
        <translation>Цитировано</translation>
    </message>
    <message>
        <source>Original</source>
        <translation>Оригинально</translation>
    </message>
    <message>
        <source>Main source</source>
        <translation>Главный источник</translation>
    </message>
    <message>
        <source>Closest classmate</source>
        <translation>Ближайший одноклассник</translation>
    </message>
    <message>
        <source>Warnings</source>
        <translation>Предупреждения</translation>
    </message>
    <message>
        <source>not readable</source>
        <translation>не читается</translation>
    </message>
    <message>
        <source>Another essay of the class</source>
        <translation>Другая работа этого класса</translation>
    </message>
</context>
<context>
    <name>BatchView</name>
    <message>
        <source>Check a whole class at once: drop a folder or several files on the window, or pick a folder. Each essay is checked against the collection; double-click a row to see it side by side.</source>
        <translation>Проверьте весь класс сразу: перетащите папку или несколько файлов в окно или выберите папку. Каждая работа проверяется по коллекции; двойной щелчок по строке открывает её рядом с источниками.</translation>
    </message>
    <message>
        <source>%1 essays checked</source>
        <translation>Проверено работ: %1</translation>
    </message>
    <message>
        <source>%1 not readable</source>
        <translation>не читается: %1</translation>
    </message>
    <message>
        <source>Double-click a row to see the essay side by side.</source>
        <translation>Двойной щелчок по строке открывает работу рядом с источниками.</translation>
    </message>
    <message>
        <source>Check a class…</source>
        <translation>Проверить класс…</translation>
    </message>
    <message>
        <source>Pick a folder of essays and check each against the collection</source>
        <translation>Выбрать папку с работами и проверить каждую по коллекции</translation>
    </message>
    <message>
        <source>Also compare the essays with each other</source>
        <translation>Сравнить работы и между собой</translation>
    </message>
    <message>
        <source>Export all…</source>
        <translation>Экспортировать все…</translation>
    </message>
    <message>
        <source>One report per essay, named after it, into a folder you choose</source>
        <translation>Отчёт на каждую работу, с её именем, в выбранную папку</translation>
    </message>
    <message>
        <source>Count classmates in the shares</source>
        <translation>Учитывать одноклассников в долях</translation>
    </message>
    <message>
        <source>On: text an essay shares with another essay of the class counts as borrowed. Off: the classmates are still listed as sources, but not counted. Remembered for each class.</source>
        <translation>Включено: текст, общий с работой другого ученика класса, считается заимствованным. Выключено: одноклассники остаются в списке источников, но в доли не входят. Запоминается для каждого класса.</translation>
    </message>
</context>
<context>
    <name>CheckActions</name>
    <message>
        <source>Open a text to check</source>
        <translation>Открыть текст для проверки</translation>
    </message>
    <message>
        <source>Reading %1…</source>
        <translation>Чтение %1…</translation>
    </message>
    <message>
        <source>Pasted text</source>
        <translation>Вставленный текст</translation>
    </message>
    <message>
        <source>Edited text</source>
        <translation>Изменённый текст</translation>
    </message>
    <message>
        <source>Nothing to check: paste a text or open a file first.</source>
        <translation>Нечего проверять: вставьте текст или откройте файл.</translation>
    </message>
    <message>
        <source>The reference collection is empty: add documents to check against.</source>
        <translation>Коллекция источников пуста: добавьте документы, с которыми сравнивать.</translation>
    </message>
    <message>
        <source>Checking…</source>
        <translation>Проверка…</translation>
    </message>
    <message>
        <source>Borrowed %1 %, cited %3 %, original %2 %</source>
        <translation>Заимствования %1 %, цитирования %3 %, оригинальность %2 %</translation>
    </message>
    <message>
        <source>Pick two files to compare</source>
        <translation>Выберите два файла для сравнения</translation>
    </message>
    <message>
        <source>Pick exactly two files.</source>
        <translation>Выберите ровно два файла.</translation>
    </message>
    <message>
        <source>Comparing %1 with %2…</source>
        <translation>Сравнение %1 с %2…</translation>
    </message>
    <message>
        <source>Web page (*.html)</source>
        <translation>Веб-страница (*.html)</translation>
    </message>
    <message>
        <source>PDF document (*.pdf)</source>
        <translation>Документ PDF (*.pdf)</translation>
    </message>
    <message>
        <source>Export the report</source>
        <translation>Экспорт отчёта</translation>
    </message>
    <message>
        <source>There is no result to export.</source>
        <translation>Нет результата для экспорта.</translation>
    </message>
    <message>
        <source>Report saved: %1</source>
        <translation>Отчёт сохранён: %1</translation>
    </message>
    <message>
        <source>Writing the PDF report…</source>
        <translation>Создание отчёта PDF…</translation>
    </message>
</context>
<context>
    <name>ClassCheckActions</name>
    <message>
        <source>Pick a folder of essays to check</source>
        <translation>Выберите папку с работами для проверки</translation>
    </message>
    <message>
        <source>No documents to check there.</source>
        <translation>Там нет документов для проверки.</translation>
    </message>
    <message>
        <source>Checking %n essays…</source>
        <translation>Проверка работ: %n…</translation>
    </message>
    <message>
        <source>%n files could not be read.</source>
        <translation>Не удалось прочитать файлов: %n.</translation>
    </message>
    <message>
        <source>Pick a folder for the reports</source>
        <translation>Выберите папку для отчётов</translation>
    </message>
    <message>
        <source>%1 reports saved in %2</source>
        <translation>Сохранено отчётов: %1, в папке %2</translation>
    </message>
    <message>
        <source>Writing the reports…</source>
        <translation>Запись отчётов…</translation>
    </message>
</context>
<context>
    <name>CollectionActions</name>
    <message>
        <source>Whole text</source>
        <translation>Весь текст</translation>
    </message>
    <message>
        <source>The collection no longer holds the text this result was made from (the document was removed or added again since): only the parts around its passages can be shown.</source>
        <translation>В коллекции больше нет текста, по которому сделан этот результат (документ с тех пор удалён или добавлен заново): можно показать только части вокруг его фрагментов.</translation>
    </message>
    <message>
        <source>Shared collection</source>
        <translation>Общая коллекция</translation>
    </message>
    <message>
        <source>Address of the collection on a PostgreSQL server, postgresql://user@host/database (the password is read from ~/.pgpass or the PGPASSWORD variable):</source>
        <translation>Адрес коллекции на сервере PostgreSQL, postgresql://пользователь@сервер/база (пароль берётся из ~/.pgpass или переменной PGPASSWORD):</translation>
    </message>
    <message>
        <source>This is not the address of a shared collection: %1. Write it as postgresql://user@host/database.</source>
        <translation>Это не адрес общей коллекции: %1. Напишите его так: postgresql://пользователь@сервер/база.</translation>
    </message>
    <message>
        <source>Shared collection %1</source>
        <translation>Общая коллекция %1</translation>
    </message>
    <message>
        <source>Connecting to the shared collection…</source>
        <translation>Подключение к общей коллекции…</translation>
    </message>
    <message>
        <source>The collection was made by an earlier version of Sverka. Rebuild it now? Sverka reads again the texts it keeps (your files are not needed) and keeps the old file beside it as a backup.</source>
        <translation>Коллекция создана более ранней версией Сверки. Перестроить её сейчас? Сверка заново прочитает сохранённые в ней тексты (ваши файлы не понадобятся), а старый файл оставит рядом как резервную копию.</translation>
    </message>
    <message>
        <source>Collection rebuilt: %1 documents</source>
        <translation>Коллекция перестроена, документов: %1</translation>
    </message>
    <message>
        <source>Rebuilding the collection…</source>
        <translation>Коллекция перестраивается…</translation>
    </message>
    <message>
        <source>Added: %1</source>
        <translation>Добавлено: %1</translation>
    </message>
    <message>
        <source>Cancelled</source>
        <translation>Отменено</translation>
    </message>
    <message>
        <source>updated: %1</source>
        <translation>обновлено: %1</translation>
    </message>
    <message>
        <source>already there: %1</source>
        <translation>уже в коллекции: %1</translation>
    </message>
    <message>
        <source>not readable: %1</source>
        <translation>не прочитано: %1</translation>
    </message>
    <message>
        <source>%n files could not be read.</source>
        <translation>Не удалось прочитать файлов: %n.</translation>
    </message>
    <message>
        <source>Adding documents…</source>
        <translation>Добавление документов…</translation>
    </message>
    <message>
        <source>Remove %n document(s) from the collection? The files themselves stay where they are.</source>
        <translation>Убрать документы из коллекции (%n)? Сами файлы останутся на месте.</translation>
    </message>
    <message>
        <source>Removed: %1</source>
        <translation>Удалено: %1</translation>
    </message>
    <message>
        <source>Removing documents…</source>
        <translation>Удаление документов…</translation>
    </message>
    <message>
        <source>Add files to the collection</source>
        <translation>Добавить файлы в коллекцию</translation>
    </message>
    <message>
        <source>Add a folder to the collection</source>
        <translation>Добавить папку в коллекцию</translation>
    </message>
    <message>
        <source>Sample text</source>
        <translation>Учебный текст</translation>
    </message>
    <message>
        <source>Documents (%1)</source>
        <translation>Документы (%1)</translation>
    </message>
    <message>
        <source>All files (*)</source>
        <translation>Все файлы (*)</translation>
    </message>
</context>
<context>
    <name>CollectionModel</name>
    <message>
        <source>Title</source>
        <translation>Название</translation>
    </message>
    <message>
        <source>Format</source>
        <translation>Формат</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>Размер</translation>
    </message>
    <message>
        <source>Words</source>
        <translation>Слов</translation>
    </message>
    <message>
        <source>Added</source>
        <translation>Добавлен</translation>
    </message>
    <message>
        <source>Template text: matches with it do not count</source>
        <translation>Текст шаблона: совпадения с ним не засчитываются</translation>
    </message>
</context>
<context>
    <name>CollectionPanel</name>
    <message>
        <source>Reference collection</source>
        <translation>Коллекция источников</translation>
    </message>
    <message>
        <source>Filter by title or path</source>
        <translation>Фильтр по названию или пути</translation>
    </message>
    <message>
        <source>The collection is empty. Add your reference texts (files or folders, or drop them here), or load a small sample collection to see how Sverka works.</source>
        <translation>Коллекция пуста. Добавьте свои тексты-источники (файлы или папки, можно перетащить их сюда) или загрузите небольшую учебную коллекцию, чтобы увидеть, как работает Сверка.</translation>
    </message>
    <message>
        <source>Load the sample collection</source>
        <translation>Загрузить учебную коллекцию</translation>
    </message>
    <message>
        <source>Drop files or folders here to add them</source>
        <translation>Перетащите сюда файлы или папки, чтобы добавить их</translation>
    </message>
    <message>
        <source>%1 documents, %2</source>
        <translation>Документов: %1, %2</translation>
    </message>
    <message>
        <source>(%1 shown)</source>
        <translation>(показано: %1)</translation>
    </message>
</context>
<context>
    <name>CompareView</name>
    <message>
        <source>Previous</source>
        <translation>Назад</translation>
    </message>
    <message>
        <source>Next</source>
        <translation>Вперёд</translation>
    </message>
    <message>
        <source>Previous passage (Shift+F3, Ctrl+Up)</source>
        <translation>Предыдущий фрагмент (Shift+F3, Ctrl+↑)</translation>
    </message>
    <message>
        <source>Next passage (F3, Ctrl+Down)</source>
        <translation>Следующий фрагмент (F3, Ctrl+↓)</translation>
    </message>
    <message>
        <source>Whole text</source>
        <translation>Весь текст</translation>
    </message>
    <message>
        <source>Only the parts of this long source around its passages are shown; show its whole text from the collection</source>
        <translation>Из этого длинного источника показаны только части вокруг его фрагментов; показать весь его текст из коллекции</translation>
    </message>
    <message>
        <source>Checked text</source>
        <translation>Проверяемый текст</translation>
    </message>
    <message>
        <source>Source</source>
        <translation>Источник</translation>
    </message>
    <message>
        <source>No sources found</source>
        <translation>Источники не найдены</translation>
    </message>
    <message>
        <source>Source: %1</source>
        <translation>Источник: %1</translation>
    </message>
    <message>
        <source>Kind: %1</source>
        <translation>Вид заимствования: %1</translation>
    </message>
    <message>
        <source>Found by: %1</source>
        <translation>Найдено методом: %1</translation>
    </message>
    <message>
        <source>%n words</source>
        <translation>слов: %n</translation>
    </message>
    <message>
        <source>Not counted: %1</source>
        <translation>Не засчитано: %1</translation>
    </message>
    <message>
        <source>Quotation</source>
        <translation>Цитата</translation>
    </message>
    <message>
        <source>Bibliography</source>
        <translation>Список литературы</translation>
    </message>
    <message>
        <source>not counted: %1</source>
        <translation>не засчитано: %1</translation>
    </message>
    <message>
        <source>No passages</source>
        <translation>Совпадений нет</translation>
    </message>
    <message>
        <source>%n passages</source>
        <translation>Фрагментов: %n</translation>
    </message>
    <message>
        <source>Passage %1 of %2</source>
        <translation>Фрагмент %1 из %2</translation>
    </message>
    <message>
        <source>Changed word</source>
        <translation>Изменённое слово</translation>
    </message>
    <message>
        <source>Tampered word: look-alike letters of another alphabet</source>
        <translation>Подделанное слово: похожие буквы другого алфавита</translation>
    </message>
    <message>
        <source>Tampered word: invisible characters inside</source>
        <translation>Подделанное слово: внутри невидимые символы</translation>
    </message>
</context>
<context>
    <name>CrossCheckActions</name>
    <message>
        <source>Pick a folder of essays</source>
        <translation>Выберите папку с работами</translation>
    </message>
    <message>
        <source>A cross-check needs at least two documents.</source>
        <translation>Для взаимной проверки нужно хотя бы два документа.</translation>
    </message>
    <message>
        <source>Cross-checking %n documents…</source>
        <translation>Взаимная проверка документов: %n…</translation>
    </message>
</context>
<context>
    <name>CrossCheckView</name>
    <message>
        <source>Pick or drop a folder of essays to compare every pair.</source>
        <translation>Выберите или перетащите папку с работами, чтобы сравнить их попарно.</translation>
    </message>
    <message>
        <source>%1 documents, %2 suspicious pairs. Double-click a pair to see it side by side.</source>
        <translation>Документов: %1, подозрительных пар: %2. Дважды щёлкните пару, чтобы сравнить тексты рядом.</translation>
    </message>
    <message>
        <source>Could not read: %1</source>
        <translation>Не удалось прочитать: %1</translation>
    </message>
    <message>
        <source>Cell (row, column): % of the row document found in the column document.</source>
        <translation>Ячейка (строка, столбец): доля документа строки (%), найденная в документе столбца.</translation>
    </message>
</context>
<context>
    <name>HistoryBar</name>
    <message>
        <source>Re-check</source>
        <translation>Проверить заново</translation>
    </message>
    <message>
        <source>Check this document again against the collection as it is now</source>
        <translation>Проверить документ ещё раз по коллекции в её нынешнем виде</translation>
    </message>
    <message>
        <source>Kept result: checked on %1.</source>
        <translation>Сохранённый результат: проверено %1.</translation>
    </message>
    <message>
        <source>Its settings differ from the current ones: %1.</source>
        <translation>Настройки отличались от нынешних: %1.</translation>
    </message>
    <message>
        <source>Same settings as now.</source>
        <translation>Настройки те же, что сейчас.</translation>
    </message>
</context>
<context>
    <name>Kinds</name>
    <message>
        <source>verbatim copy</source>
        <translation>дословное копирование</translation>
    </message>
    <message>
        <source>word forms changed</source>
        <translation>изменены формы слов</translation>
    </message>
    <message>
        <source>words inserted, deleted or replaced</source>
        <translation>слова вставлены, удалены или заменены</translation>
    </message>
    <message>
        <source>sentences or words reordered</source>
        <translation>предложения или слова переставлены</translation>
    </message>
    <message>
        <source>words replaced by synonyms</source>
        <translation>слова заменены синонимами</translation>
    </message>
    <message>
        <source>paraphrase: several kinds of changes at once</source>
        <translation>пересказ: сразу несколько видов изменений</translation>
    </message>
    <message>
        <source>short text matched by its longest words</source>
        <translation>короткий текст: совпали самые длинные слова</translation>
    </message>
    <message>
        <source>meaning kept, words changed</source>
        <translation>перефразирование: смысл сохранён, слова изменены</translation>
    </message>
    <message>
        <source>translation</source>
        <translation>перевод</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <source>%1 — Sverka</source>
        <translation>%1 — Сверка</translation>
    </message>
    <message>
        <source>Text to check</source>
        <extracomment>The address of the shared collection in use (a PostgreSQL server), or &quot;&quot; for the collection file on this computer (``collection_path``). The preferences remember it without a password (that comes from ~/.pgpass or PGPASSWORD).</extracomment>
        <translation>Проверяемый текст</translation>
    </message>
    <message>
        <source>Result</source>
        <translation>Результат</translation>
    </message>
    <message>
        <source>Cross-check</source>
        <translation>Взаимная проверка</translation>
    </message>
    <message>
        <source>Check</source>
        <translation>Проверить</translation>
    </message>
    <message>
        <source>Sverka — %n documents in the shared collection</source>
        <translation>Сверка — документов в общей коллекции: %n</translation>
    </message>
    <message>
        <source>Sverka — %n documents in the collection</source>
        <translation>Сверка — документов в коллекции: %n</translation>
    </message>
    <message>
        <source>Sverka</source>
        <translation>Сверка</translation>
    </message>
    <message>
        <source>Please wait: another task is running.</source>
        <translation>Подождите: выполняется другая задача.</translation>
    </message>
    <message>
        <source>Cancelled.</source>
        <translation>Отменено.</translation>
    </message>
    <message>
        <source>This part of Sverka is not ready yet.</source>
        <translation>Эта часть Сверки ещё не готова.</translation>
    </message>
    <message>
        <source>Something went wrong inside Sverka (a bug): %1</source>
        <translation>Внутренняя ошибка Сверки: %1</translation>
    </message>
    <message>
        <source>Class</source>
        <translation>Класс</translation>
    </message>
    <message>
        <source>%n problems:</source>
        <translation>Проблем: %n.</translation>
    </message>
</context>
<context>
    <name>MatrixModel</name>
    <message>
        <source>%1 is contained in %2 by %3</source>
        <translation>%1 содержится в %2 на %3</translation>
    </message>
</context>
<context>
    <name>Methods</name>
    <message>
        <source>sentence matched by its meaning, confirmed by its neighbours, names, numbers or related words</source>
        <translation>предложение совпало по смыслу, что подтверждают соседние предложения, имена, числа или однокоренные слова</translation>
    </message>
    <message>
        <source>exact match of word sequences (shingles)</source>
        <translation>точное совпадение нескольких слов подряд</translation>
    </message>
    <message>
        <source>match with small edits bridged (changed, inserted or deleted words)</source>
        <translation>совпадение с мелкими правками (заменёнными, вставленными или удалёнными словами)</translation>
    </message>
    <message>
        <source>sentence with reordered or inflected words (sentence hashes)</source>
        <translation>предложение с переставленными или изменёнными по форме словами</translation>
    </message>
    <message>
        <source>short-text match (longest words)</source>
        <translation>совпадение короткого текста (самые длинные слова)</translation>
    </message>
    <message>
        <source>sentence matched by its rare words, synonyms counted (any order and form)</source>
        <translation>предложение совпало по редким словам с учётом синонимов (в любом порядке и форме)</translation>
    </message>
    <message>
        <source>quoted text</source>
        <translation>цитата</translation>
    </message>
    <message>
        <source>bibliography section</source>
        <translation>список литературы</translation>
    </message>
    <message>
        <source>shorter than the minimum passage length</source>
        <translation>короче минимальной длины фрагмента</translation>
    </message>
    <message>
        <source>source excluded by the user</source>
        <translation>источник исключён пользователем</translation>
    </message>
    <message>
        <source>template text (e.g. the assignment)</source>
        <translation>текст шаблона (например, задание)</translation>
    </message>
    <message>
        <source>shared with a classmate (not counted by the settings)</source>
        <translation>совпадение с одноклассником (не учитывается по настройкам)</translation>
    </message>
    <message>
        <source>common to most of the class (e.g. the assignment)</source>
        <translation>общий текст большинства работ класса (например, задание)</translation>
    </message>
    <message>
        <source>at the opening of many essays of the collection (e.g. the assignment)</source>
        <translation>в начале многих работ коллекции (например, задание)</translation>
    </message>
</context>
<context>
    <name>PairsModel</name>
    <message>
        <source>Document A</source>
        <translation>Документ А</translation>
    </message>
    <message>
        <source>Document B</source>
        <translation>Документ Б</translation>
    </message>
    <message>
        <source>A in B</source>
        <translation>А в Б</translation>
    </message>
    <message>
        <source>B in A</source>
        <translation>Б в А</translation>
    </message>
    <message>
        <source>Resemblance</source>
        <translation>Сходство</translation>
    </message>
</context>
<context>
    <name>ProgressPanel</name>
    <message>
        <source>about %n s left</source>
        <translation>осталось около %n с</translation>
    </message>
    <message>
        <source>about %n min left</source>
        <translation>осталось около %n мин</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Отмена</translation>
    </message>
    <message>
        <source>Cancelling…</source>
        <translation>Отмена…</translation>
    </message>
</context>
<context>
    <name>QFileDialog</name>
    <message>
        <source>&amp;Look in:</source>
        <translation>&amp;Папка:</translation>
    </message>
    <message>
        <source>Files of &amp;type:</source>
        <translation>&amp;Тип файлов:</translation>
    </message>
</context>
<context>
    <name>QPlatformTheme</name>
    <message>
        <source>OK</source>
        <translation>ОК</translation>
    </message>
</context>
<context>
    <name>ResultsView</name>
    <message>
        <source>borrowed</source>
        <translation>заимствовано</translation>
    </message>
    <message>
        <source>cited</source>
        <translation>процитировано</translation>
    </message>
    <message>
        <source>original</source>
        <translation>оригинально</translation>
    </message>
    <message>
        <source>Warning: %1</source>
        <translation>Внимание: %1</translation>
    </message>
    <message>
        <source>The text is an exact copy of “%1” in the collection.</source>
        <translation>Текст — точная копия документа «%1» из коллекции.</translation>
    </message>
    <message>
        <source>This document is in the collection (“%1”, added %2); it is not counted as its own source.</source>
        <translation>Этот документ уже есть в коллекции («%1», добавлен %2); как собственный источник он не учитывается.</translation>
    </message>
    <message>
        <source>Check a text to see where it was borrowed from.</source>
        <translation>Проверьте текст, чтобы увидеть, откуда он заимствован.</translation>
    </message>
    <message>
        <source>%1
Words: %2 · sources: %3 · passages: %4</source>
        <translation>%1
Слов: %2 · источников: %3 · фрагментов: %4</translation>
    </message>
    <message>
        <source>Not counted in any check (see the settings)</source>
        <translation>Не учитывается ни в одной проверке (см. настройки)</translation>
    </message>
    <message>
        <source>Count this source again</source>
        <translation>Снова засчитывать этот источник</translation>
    </message>
    <message>
        <source>Do not count this source</source>
        <translation>Не засчитывать этот источник</translation>
    </message>
    <message>
        <source>The same text as “%1” is in the collection; the part not counted as borrowed is quoted, in the bibliography or in passages too short to count.</source>
        <translation>Такой же текст есть в коллекции: «%1»; не засчитанная как заимствование часть — цитаты, список литературы или слишком короткие фрагменты.</translation>
    </message>
    <message>
        <source>%1 counted of %2</source>
        <translation>%1 учтено из %2</translation>
    </message>
</context>
<context>
    <name>SettingsDialog</name>
    <message>
        <source>System language</source>
        <translation>Язык системы</translation>
    </message>
    <message>
        <source>Settings</source>
        <translation>Настройки</translation>
    </message>
    <message>
        <source>Interface</source>
        <translation>Интерфейс</translation>
    </message>
    <message>
        <source>Language</source>
        <translation>Язык</translation>
    </message>
    <message>
        <source>The new language is applied at once.</source>
        <translation>Новый язык применяется сразу.</translation>
    </message>
    <message>
        <source>What counts as borrowed</source>
        <translation>Что считается заимствованием</translation>
    </message>
    <message>
        <source>Quotations and the bibliography</source>
        <translation>Цитаты и список литературы</translation>
    </message>
    <message>
        <source>Search effort (rarely changed)</source>
        <translation>Глубина поиска (меняется редко)</translation>
    </message>
    <message>
        <source>This collection (fixed when it was built)</source>
        <translation>Эта коллекция (задано при её создании)</translation>
    </message>
</context>
<context>
    <name>SourcesModel</name>
    <message>
        <source>classmate</source>
        <translation>одноклассник</translation>
    </message>
    <message>
        <source>Source</source>
        <translation>Источник</translation>
    </message>
    <message>
        <source>Borrowed from it</source>
        <translation>Заимствовано из него</translation>
    </message>
    <message>
        <source>Passages</source>
        <translation>Фрагменты</translation>
    </message>
    <message>
        <source>Words</source>
        <translation>Слов</translation>
    </message>
    <message>
        <source>Template text: matches with it do not count</source>
        <translation>Текст шаблона: совпадения с ним не засчитываются</translation>
    </message>
    <message>
        <source>Another essay of the class</source>
        <translation>Другая работа этого класса</translation>
    </message>
</context>
<context>
    <name>SuspectPanel</name>
    <message>
        <source>Paste or type the text to check here, open a file, or drop a file on this area.

Drop two files on the window to compare them with each other; drop a folder to cross-check it.</source>
        <translation>Вставьте или наберите здесь проверяемый текст, откройте файл или перетащите его сюда.

Перетащите на окно два файла, чтобы сравнить их между собой, или папку — для взаимной проверки.</translation>
    </message>
    <message>
        <source>Warning: %1</source>
        <translation>Внимание: %1</translation>
    </message>
    <message>
        <source>%1 words, %2 characters</source>
        <translation>Слов: %1, знаков: %2</translation>
    </message>
</context>
<context>
    <name>Units</name>
    <message>
        <source>B</source>
        <translation>Б</translation>
    </message>
    <message>
        <source>KB</source>
        <translation>КБ</translation>
    </message>
    <message>
        <source>MB</source>
        <translation>МБ</translation>
    </message>
    <message>
        <source>GB</source>
        <translation>ГБ</translation>
    </message>
</context>
<context>
    <name>WindowActions</name>
    <message>
        <source>&amp;File</source>
        <translation>&amp;Файл</translation>
    </message>
    <message>
        <source>Open &amp;recent</source>
        <translation>&amp;Недавние файлы</translation>
    </message>
    <message>
        <source>&amp;Collection</source>
        <translation>&amp;Коллекция</translation>
    </message>
    <message>
        <source>C&amp;heck</source>
        <translation>&amp;Проверка</translation>
    </message>
    <message>
        <source>Toolbar</source>
        <translation>Панель инструментов</translation>
    </message>
    <message>
        <source>Add files…</source>
        <translation>Добавить файлы…</translation>
    </message>
    <message>
        <source>Add files to the reference collection</source>
        <translation>Добавить файлы в коллекцию источников</translation>
    </message>
    <message>
        <source>Add folder…</source>
        <translation>Добавить папку…</translation>
    </message>
    <message>
        <source>Add every document of a folder to the reference collection</source>
        <translation>Добавить все документы папки в коллекцию источников</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>Удалить</translation>
    </message>
    <message>
        <source>Remove the selected documents from the collection</source>
        <translation>Удалить выбранные документы из коллекции</translation>
    </message>
    <message>
        <source>Open…</source>
        <translation>Открыть…</translation>
    </message>
    <message>
        <source>Open a file to check</source>
        <translation>Открыть файл для проверки</translation>
    </message>
    <message>
        <source>Paste</source>
        <translation>Вставить</translation>
    </message>
    <message>
        <source>Check the text on the clipboard</source>
        <translation>Проверить текст из буфера обмена</translation>
    </message>
    <message>
        <source>Clear</source>
        <translation>Очистить</translation>
    </message>
    <message>
        <source>Clear the text to check</source>
        <translation>Очистить проверяемый текст</translation>
    </message>
    <message>
        <source>Check</source>
        <translation>Проверить</translation>
    </message>
    <message>
        <source>Check the text against the reference collection (F5)</source>
        <translation>Проверить текст по коллекции источников (F5)</translation>
    </message>
    <message>
        <source>Compare two files…</source>
        <translation>Сравнить два файла…</translation>
    </message>
    <message>
        <source>Compare two files side by side</source>
        <translation>Сравнить два файла рядом</translation>
    </message>
    <message>
        <source>Cross-check a folder…</source>
        <translation>Взаимная проверка папки…</translation>
    </message>
    <message>
        <source>Compare every pair of documents in a folder</source>
        <translation>Сравнить попарно все документы папки</translation>
    </message>
    <message>
        <source>Check a class…</source>
        <translation>Проверить класс…</translation>
    </message>
    <message>
        <source>Check every essay of a folder against the collection</source>
        <translation>Проверить каждую работу папки по коллекции</translation>
    </message>
    <message>
        <source>Export HTML…</source>
        <translation>Экспорт в HTML…</translation>
    </message>
    <message>
        <source>Save the report as a web page</source>
        <translation>Сохранить отчёт как веб-страницу</translation>
    </message>
    <message>
        <source>Export PDF…</source>
        <translation>Экспорт в PDF…</translation>
    </message>
    <message>
        <source>Save the report as a PDF</source>
        <translation>Сохранить отчёт в PDF</translation>
    </message>
    <message>
        <source>Full paths in reports</source>
        <translation>Полные пути в отчётах</translation>
    </message>
    <message>
        <source>Show the full paths of the documents in exported reports (by default paths relative to the collection&apos;s folder)</source>
        <translation>Показывать в сохранённых отчётах полные пути документов (по умолчанию — пути относительно папки коллекции)</translation>
    </message>
    <message>
        <source>Settings…</source>
        <translation>Настройки…</translation>
    </message>
    <message>
        <source>Search parameters and language</source>
        <translation>Параметры поиска и язык</translation>
    </message>
    <message>
        <source>Load the sample collection</source>
        <translation>Загрузить учебную коллекцию</translation>
    </message>
    <message>
        <source>A few public-domain texts to try Sverka on</source>
        <translation>Несколько общественных текстов, чтобы попробовать Сверку</translation>
    </message>
    <message>
        <source>Quit</source>
        <translation>Выход</translation>
    </message>
    <message>
        <source>Quit Sverka</source>
        <translation>Закрыть Сверку</translation>
    </message>
    <message>
        <source>Next passage</source>
        <translation>Следующий фрагмент</translation>
    </message>
    <message>
        <source>Next passage (F3)</source>
        <translation>Следующий фрагмент (F3)</translation>
    </message>
    <message>
        <source>Previous passage</source>
        <translation>Предыдущий фрагмент</translation>
    </message>
    <message>
        <source>Previous passage (Shift+F3)</source>
        <translation>Предыдущий фрагмент (Shift+F3)</translation>
    </message>
    <message>
        <source>Clear the list</source>
        <translation>Очистить список</translation>
    </message>
    <message>
        <source>Shared collection…</source>
        <translation>Общая коллекция…</translation>
    </message>
    <message>
        <source>Use a collection shared on a PostgreSQL server</source>
        <translation>Работать с коллекцией, общей для всех, на сервере PostgreSQL</translation>
    </message>
    <message>
        <source>Collection on this computer</source>
        <translation>Коллекция на этом компьютере</translation>
    </message>
    <message>
        <source>Use the collection kept on this computer</source>
        <translation>Работать с коллекцией, которая хранится на этом компьютере</translation>
    </message>
</context>
</TS>
