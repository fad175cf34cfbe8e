"""A department's archive, in SQLite or on a PostgreSQL server shared by its teachers: last
year's essays of one assignment do not make the assignment a borrowing of this year's essay; a
copy from one of them still counts."""

from __future__ import annotations

from sverka.core import api
from sverka.core.settings import Settings

ASSIGNMENT = ("Задание. Напишите сочинение о человеке, который повлиял на ваш выбор профессии. "
              "Объясните, чем он вам помог, и приведите два примера из жизни.\n\n")
BODIES = [
    "Моя бабушка всю жизнь проработала фельдшером в сельской больнице и часто брала меня с собой на вызовы. "
    "Я видел, как она спокойно разговаривает с испуганными людьми и как быстро принимает решения.",
    "Учитель физики Пётр Андреевич однажды принёс в класс старый радиоприёмник и разрешил нам его разобрать. "
    "С тех пор я собираю схемы по вечерам и мечтаю стать инженером связи.",
    "Соседка по лестничной клетке работала переводчиком и учила меня немецкому языку по детским книжкам. "
    "Благодаря ей я полюбил чужие слова и хочу изучать языки в университете.",
    "Дядя Коля водил грузовик по северным дорогам и рассказывал о зимниках, метелях и ночёвках в кабине. "
    "Мне захотелось строить надёжные дороги, по которым не страшно ехать зимой.",
    "Тренер по плаванию научил меня терпению и режиму, когда я хотел бросить секцию после первой неудачи. "
    "Теперь я собираюсь стать тренером и помогать детям не сдаваться.",
]
MINE = ("Мой выбор сделал школьный библиотекарь Анна Сергеевна, которая каждую пятницу оставляла для меня "
        "новую книгу о путешествиях. Она никогда не заставляла читать, а только спрашивала, что мне "
        "запомнилось, и слушала так внимательно, будто я рассказывал ей что-то очень важное.")


def test_the_assignment_of_last_years_essays_is_set_aside_in_either_store(store_location, tmp_path):
    folder = tmp_path / "last_year"
    folder.mkdir()
    for k, body in enumerate(BODIES):
        (folder / f"essay{k}.txt").write_text(ASSIGNMENT + body, encoding="utf-8")
    copied = BODIES[1]
    suspect = ASSIGNMENT + MINE + " " + copied
    path = tmp_path / "this_year.txt"
    path.write_text(suspect, encoding="utf-8")
    with api.Collection(store_location) as coll:
        coll.add([str(folder)])
        r = coll.check(api.load_document(path), Settings())
    assert r.collection_common and len(r.common_sources) == len(BODIES)
    assert any(w.code == "warning.collection_common" for w in r.warnings)
    [counted] = [s for s in r.sources if s.containment > 0]
    assert counted.path.endswith("essay1.txt")
    assert abs(r.borrowed_percent - 100 * len(copied.split()) / len(suspect.split())) < 4
    assert api.apply_exclusions(r, r.settings.replace(exclude_class_common=False)).borrowed_percent > \
        r.borrowed_percent + 15
