"""Text most of a class shares at the opening of its essays (the assignment every student pasted
above the essay) is nobody's borrowing from a classmate: shown, not counted; a real copy between
two classmates, and a class copying one essay, still count."""

from __future__ import annotations

import numpy as np
import pytest

from sverka.core import api, report
from sverka.core.crosscheck import class_common
from sverka.core.document import Document
from sverka.core.settings import SETTINGS_INFO, Settings

ASSIGNMENT = ("Задание. Напишите сочинение-рассуждение по прочитанному тексту объёмом не менее двухсот слов. "
              "Сформулируйте одну из проблем, поставленных автором текста. Прокомментируйте сформулированную "
              "проблему и включите в комментарий два примера из прочитанного текста.\n\n")

OWN = [
    ("Мой дедушка держит пасеку за деревней, и каждое лето я помогаю ему качать мёд. "
     "Пчёлы сердятся, если подходить к ульям в тёмной одежде, поэтому я надеваю белую рубашку. "
     "Вечером мы сидим на крыльце и слушаем, как гудит пасека, а бабушка печёт блины с мёдом. "
     "Осенью дедушка укрывает ульи соломой, чтобы пчёлы пережили долгую холодную зиму. "
     "Я думаю, что труд пасечника учит терпению лучше любых книг и нравоучений."),
    ("Летом я ездил к тёте в Архангельск и впервые увидел белые ночи над Северной Двиной. "
     "По вечерам мы гуляли по набережной и смотрели, как медленно идут баржи с лесом. "
     "Тётя рассказывала о поморах, которые ходили на лодках далеко в холодное море за рыбой. "
     "В музее деревянного зодчества я видел старую мельницу и церковь без единого гвоздя. "
     "Мне понравился северный город, его широкая река и спокойные неторопливые жители."),
    ("Зимой наш класс ходил в поход на лыжах к замёрзшему озеру за старой школой. "
     "Мы развели костёр, сварили чай в котелке и слушали рассказы учителя о звёздах. "
     "Обратно шли в темноте, и фонарики выхватывали из снега следы зайцев и лисиц. "
     "Дома я долго не мог уснуть и вспоминал треск костра и запах дыма на морозе. "
     "Теперь я уверен, что дружба крепнет именно в трудной дороге, а не за партой."),
    ("Автор текста размышляет о том, почему люди перестают читать бумажные письма. "
     "Раньше моя прабабушка хранила в шкатулке открытки от сестры из Ташкента. "
     "Каждая открытка пахла духами и была подписана аккуратным наклонным почерком. "
     "Сегодня мы пишем друг другу короткие сообщения и тут же забываем о них навсегда. "
     "Мне жаль, что мои внуки не найдут в шкатулке ни одного моего письма."),
    ("Проблема бережного отношения к природе волнует меня с тех пор, как вырубили рощу у реки. "
     "На месте берёз построили склад, и соловьи больше не поют у нас по весне. "
     "Мы с соседями посадили вдоль берега молодые клёны и каждую неделю поливаем их. "
     "Половина саженцев прижилась, и этой осенью они впервые покраснели листьями. "
     "Я верю, что маленькое доброе дело важнее громких слов о спасении планеты."),
]


def _class(tmp_path, texts, name="class"):
    folder = tmp_path / name
    folder.mkdir()
    paths = []
    for k, text in enumerate(texts):
        p = folder / f"essay{k}.txt"
        p.write_text(text, encoding="utf-8")
        paths.append(p)
    return paths


@pytest.fixture
def col(tmp_path):
    with api.Collection(tmp_path / "c.sverka") as c:
        yield c


def _mates(result):
    return [s for s in result.sources if s.classmate]


def test_the_assignment_everyone_pasted_is_shown_not_counted(col, tmp_path):
    # essay 1 also copies two sentences of essay 0 at its end: that still counts
    texts = [ASSIGNMENT + own for own in OWN]
    texts[1] += " " + OWN[0][:170]
    batch = col.check_files(_class(tmp_path, texts), cross=True, workers=1)
    results = [it.result for it in batch.items]
    for k, r in enumerate(results):
        assert r.class_common, k
        [(a, b)] = r.class_common
        assert r.suspect_text[a:b].strip().startswith("Задание") and b <= len(ASSIGNMENT) + 1
        # every classmate is listed with the assignment, marked, not counted
        assert len(_mates(r)) == 4
        for s in _mates(r):
            common = [p for p in s.passages if p.suspect_start < len(ASSIGNMENT)]
            assert common
            if k > 1 or s.path != batch.items[1 - k].path:
                assert all(p.excluded == "class" for p in common)
    # only the real copy counts, on both sides, and is the only pair listed; in essay 0 the
    # assignment and the copied sentences make one passage, which counts by the copy only
    for k in (2, 3, 4):
        assert results[k].borrowed_percent == 0, k
    copied = len(OWN[0][:170].split())
    for k in (0, 1):
        words = len(texts[k].split())
        assert results[k].borrowed_percent == pytest.approx(100 * copied / words, abs=3), k
    [pair] = batch.cross.pairs
    assert {pair.a, pair.b} == {batch.items[0].path, batch.items[1].path}
    assert pair.shared_words == pytest.approx(copied, abs=2)
    assert max(pair.a_in_b, pair.b_in_a) < 0.4
    # said, in both languages: a class copying one opening looks the same
    [said] = [w for w in results[2].warnings if w.code == "warning.class_common"]
    assert dict(said.args)["mates"] == 4 and abs(dict(said.args)["words"] - len(ASSIGNMENT.split())) <= 2
    assert "assignment" in api.message_text(said, "en") and "задание" in api.message_text(said, "ru")
    # the setting off counts it again, without searching again
    counted = api.apply_exclusions(results[2], results[2].settings.replace(exclude_class_common=False))
    assert counted.borrowed_percent > 20 and not any(w.code == "warning.class_common" for w in counted.warnings)
    # a report words the reason in both languages
    html = report.render_html(results[2], lang="ru")
    assert "общий текст большинства работ класса" in html
    assert "common to most of the class" in report.render_html(results[2], lang="en")


def test_the_rule_off_lists_every_pair(col, tmp_path):
    texts = [ASSIGNMENT + own for own in OWN]
    settings = Settings(exclude_class_common=False)
    batch = col.check_files(_class(tmp_path, texts), cross=True, workers=1, settings=settings)
    assert len(batch.cross.pairs) == 10
    assert all(it.result.borrowed_percent > 20 for it in batch.items)


def test_a_class_of_three_or_an_assignment_few_share_counts(col, tmp_path):
    # four essays: three classmates are not "most of a class"
    batch = col.check_files(_class(tmp_path, [ASSIGNMENT + own for own in OWN[:4]]), cross=True, workers=1)
    assert all(not it.result.class_common and it.result.borrowed_percent > 20 for it in batch.items)


def test_text_shared_in_the_middle_or_making_most_of_the_essay_counts(col, tmp_path):
    # four of five essays copy essay 0 whole: a ring, not an assignment
    texts = [OWN[0], OWN[0], OWN[0], OWN[0] + " " + OWN[3], OWN[4]]
    batch = col.check_files(_class(tmp_path, texts), cross=True, workers=1)
    for it in batch.items[:4]:
        assert not it.result.class_common and it.result.borrowed_percent > 50
    # a shared paragraph in the middle of every essay (a source the class copied) counts
    middle = [own[:200] + "\n\n" + ASSIGNMENT + own[200:] for own in OWN]
    batch = col.check_files(_class(tmp_path, middle, "middle"), cross=True, workers=1)
    assert all(not it.result.class_common and it.result.borrowed_percent > 15 for it in batch.items)


def test_class_common_counts_classmates_per_stretch():
    starts = [None if k == 6 else np.arange(0, 1000, 10) for k in range(8)]
    # essay 0 of seven readable: classmates 1-4 share about [0, 100), only 1 shares [500, 600)
    shared = [{1: [(0, 100), (500, 600)], 2: [(0, 80)], 3: [(20, 100)], 4: [(0, 100)]}] + [{}] * 7
    common = class_common(shared, starts)
    # six classmates: at least four of them needed
    assert common[0] == ((20, 80),)
    assert common[1:] == [()] * 7
    # three of six: not common
    assert class_common([{1: [(0, 100)], 2: [(0, 80)], 3: [(20, 100)]}] + [{}] * 7, starts)[0] == ()
    # past the opening quarter: not common; under 40 words of title page, the quarter of the rest
    shared = [{m: [(300, 380)] for m in (1, 2, 3, 4)}] + [{}] * 7
    assert class_common(shared, starts)[0] == ()
    assert class_common(shared, starts, [200] + [0] * 7)[0] == ((300, 380),)
    # more than half of the words: a ring, not common
    shared = [{m: [(0, 510)] for m in (1, 2, 3, 4)}] + [{}] * 7
    assert class_common(shared, starts)[0] == ()
    # a class of four: never
    assert class_common([{m: [(0, 100)] for m in (1, 2, 3)}, {}, {}, {}], starts[:4])[0] == ()


def test_the_setting_is_described_in_both_languages():
    info = SETTINGS_INFO["exclude_class_common"]
    assert info.group == "exclusions" and info.label_ru and info.help_ru and info.help_en
    assert Settings().exclude_class_common is True


def test_under_a_title_page_the_assignment_is_still_the_opening(col, tmp_path):
    """A school's title page (heading lines, never matched) above the assignment: the opening is
    the running text's."""
    pages = [("Министерство образования и науки Российской Федерации\n"
              "Муниципальное бюджетное общеобразовательное учреждение «Средняя школа № 7»\n\n"
              "РЕФЕРАТ\nпо литературе на тему\n«Труд и терпение в жизни человека»\n\n"
              f"Выполнил: ученик 10 «Б» класса {name}\nПроверила: учитель литературы Петрова А. И.\n\n"
              "Тверь, 2026\n\n") for name in ("Иванов Пётр", "Сидоров Иван", "Орлова Мария", "Ким Анна", "Лебедев Олег")]
    texts = [page + ASSIGNMENT + own for page, own in zip(pages, OWN)]
    batch = col.check_files(_class(tmp_path, texts), cross=True, workers=1)
    for it in batch.items:
        r = it.result
        [(a, b)] = r.class_common
        assert r.suspect_text[a:b].strip().startswith("Задание")
        assert r.borrowed_percent == 0 and not batch.cross.pairs


def test_the_assignment_above_a_copy_most_of_the_class_made_is_still_set_aside(col, tmp_path):
    """Five of six essays are one essay copied, all six under the assignment: the copy counts
    whole, the assignment above it (shared by more of them) does not."""
    texts = [ASSIGNMENT + OWN[0]] * 5 + [ASSIGNMENT + OWN[1]]
    batch = col.check_files(_class(tmp_path, texts), cross=True, workers=1)
    copied = len(OWN[0].split()) / len((ASSIGNMENT + OWN[0]).split())
    for it in batch.items[:5]:
        r = it.result
        [(a, b)] = r.class_common
        assert r.suspect_text[a:b].strip().startswith("Задание") and b <= len(ASSIGNMENT) + 1
        assert r.borrowed_percent == pytest.approx(100 * copied, abs=3)
    last = batch.items[5].result
    assert last.class_common and last.borrowed_percent == 0
    assert len(batch.cross.pairs) == 10  # the five copies pair with each other, the sixth with none


def test_a_crosscheck_with_a_template_sets_the_common_opening_aside_too(tmp_path):
    """The class's common opening and a template given for another text (a source's title the
    teacher set aside) both hold in a cross-check: the copy alone pairs two essays."""
    texts = [ASSIGNMENT + own for own in OWN]
    texts[1] += " " + OWN[0][:170]
    template = Document("Труд и терпение в жизни человека: сочинение по тексту Паустовского.", title="tpl")
    cross = api.crosscheck([Document(t, path=f"/class/e{k}.txt", title=f"e{k}") for k, t in enumerate(texts)],
                           templates=[template])
    [pair] = cross.pairs
    assert {pair.a, pair.b} == {"/class/e0.txt", "/class/e1.txt"}
    assert pair.shared_words == pytest.approx(len(OWN[0][:170].split()), abs=2)
    assert all(cross.class_common) and len(cross.class_common) == 5
