"""Reports from hand-made results: the JSON schema of the issue, and an HTML page that is
self-contained and never lets user text become markup."""

from __future__ import annotations

import json
from html.parser import HTMLParser

from sverka.core.messages import message
from sverka.core import report
from sverka.core.results import (
    CheckResult,
    CrossCheckResult,
    CrossPair,
    Passage,
    SourceMatch,
    Span,
    SuspectInfo,
)
from sverka.core.settings import Settings

# --------------------------------------------------------------------------------------
# The schema of issue 6, as a tiny checker (jsonschema is not a dependency). test_cli uses it too.

PASSAGE = {"suspect_start": int, "suspect_end": int, "source_start": int, "source_end": int,
           "words": int, "matched_words": int, "similarity": float, "kind": str, "method": str,
           "excluded": (type(None), str)}
SOURCE = {"path": str, "title": str, "containment": float, "resemblance": float,
          "sentence_score": float, "classmate": bool, "passages": list}
SUSPECT = {"path": str, "chars": int, "words": int, "language": str, "warnings": list}
CHECK = {"suspect": dict, "in_collection": (type(None), dict), "borrowed_percent": float,
         "cited_percent": float, "original_percent": float, "sources": list, "warnings": list}
MESSAGE = {"code": str, "args": dict, "text": str}
PAIR = {"a": str, "b": str, "a_in_b": float, "b_in_a": float, "resemblance": float, "shared_words": int,
        "passages": list}


def _fields(obj, spec, where):
    assert isinstance(obj, dict), f"{where}: not an object"
    assert set(obj) == set(spec), f"{where}: keys {sorted(obj)} != {sorted(spec)}"
    for key, kind in spec.items():
        value = obj[key]
        if kind is float:
            assert isinstance(value, (int, float)) and not isinstance(value, bool), f"{where}.{key}"
        else:
            assert isinstance(value, kind) and not (kind is int and isinstance(value, bool)), f"{where}.{key}"


def assert_check_schema(obj: dict) -> None:
    """Raise AssertionError unless ``obj`` is a check result of the issue's schema."""
    _fields(obj, CHECK, "result")
    _fields(obj["suspect"], SUSPECT, "suspect")
    for i, w in enumerate(obj["suspect"]["warnings"] + obj["warnings"]):
        _fields(w, MESSAGE, f"warnings[{i}]")
    assert 0 <= obj["borrowed_percent"] <= 100 and 0 <= obj["original_percent"] <= 100
    assert 0 <= obj["cited_percent"] <= 100
    assert abs(obj["borrowed_percent"] + obj["cited_percent"] + obj["original_percent"] - 100) < 1e-6
    containments = []
    for i, src in enumerate(obj["sources"]):
        _fields(src, SOURCE, f"sources[{i}]")
        for key in ("containment", "resemblance", "sentence_score"):
            assert 0 <= src[key] <= 1, f"sources[{i}].{key} = {src[key]}"
        containments.append(src["containment"])
        for j, p in enumerate(src["passages"]):
            _fields(p, PASSAGE, f"sources[{i}].passages[{j}]")
            assert 0 <= p["suspect_start"] < p["suspect_end"] <= obj["suspect"]["chars"]
            assert 0 <= p["source_start"] < p["source_end"]
            assert 0 <= p["matched_words"] <= p["words"] and 0 <= p["similarity"] <= 1
    assert containments == sorted(containments, reverse=True), "sources not sorted by containment"


def assert_crosscheck_schema(obj: dict) -> None:
    _fields(obj, {"documents": list, "pairs": list, "clusters": list}, "crosscheck")
    assert all(isinstance(c, list) and len(c) >= 3 for c in obj["clusters"])
    assert all(isinstance(d, str) for d in obj["documents"])
    for i, p in enumerate(obj["pairs"]):
        _fields(p, PAIR, f"pairs[{i}]")
        for key in ("a_in_b", "b_in_a", "resemblance"):
            assert 0 <= p[key] <= 1
        assert p["shared_words"] >= 0


class Markup(HTMLParser):
    """Everything in a page that could run or load something."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[str] = []
        self.scripts = 0
        self.handlers: list[tuple[str, str]] = []
        self.external: list[tuple[str, str]] = []
        self.ids: set[str] = set()
        self.fragments: list[str] = []
        self.text: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        if tag in {"script", "iframe", "object", "embed", "img", "link", "base", "form", "svg"}:
            self.scripts += tag in {"script", "iframe", "object", "embed"}
            if tag in {"img", "link", "base", "form", "svg"}:
                self.external.append((tag, str(attrs)))
        for name, value in attrs:
            value = value or ""
            if name.lower().startswith("on"):
                self.handlers.append((tag, name))
            if name == "id":
                self.ids.add(value)
            if name in {"src", "href", "action", "srcset", "poster", "data", "formaction", "xlink:href"}:
                if value.startswith("#"):
                    self.fragments.append(value[1:])
                else:
                    self.external.append((tag, f"{name}={value}"))
            if name == "style" and ("url(" in value or "expression" in value):
                self.external.append((tag, f"style={value}"))

    def handle_data(self, data):
        self.text.append(data)


def parse_html(page: str) -> Markup:
    m = Markup()
    m.feed(page)
    m.close()
    return m


def assert_safe_html(page: str) -> Markup:
    """No script, no event handler, nothing loaded from outside; in-page links all land."""
    m = parse_html(page)
    assert m.scripts == 0, "executable element in the report"
    assert m.handlers == [], m.handlers
    assert m.external == [], m.external
    missing = sorted(set(m.fragments) - m.ids)
    assert missing == [], f"links to missing anchors: {missing[:5]}"
    assert "@import" not in page and "url(" not in page
    return m


# --------------------------------------------------------------------------------------

EVIL = '<script>alert(1)</script> and <img src=x onerror=alert(1)> and "quotes" & <a href="http://x">'
SOURCE_TEXT = "Глава первая. Мой дядя самых честных правил, когда не в шутку занемог, он уважать себя заставил."


def _result(suspect_text: str | None = None) -> CheckResult:
    text = suspect_text or (
        "Вступление. " + EVIL + " Мой дядя самых честных правил, когда не в шутку занемог, "
        "он уважать себя заставил. «Цитата из классика» и ещё текст.\n\nЛитература\n1. Пушкин А. С."
    )
    a = text.index("Мой")
    b = text.index("заставил") + len("заставил")
    q0 = text.index("«")
    q1 = text.index("»") + 1
    s0, s1 = SOURCE_TEXT.index("Мой"), SOURCE_TEXT.index("заставил") + len("заставил")
    first = SourceMatch(
        source_id=1, path="/archive/onegin<b>.txt", title="Онегин <script>alert(2)</script>",
        text=SOURCE_TEXT, sha256="a" * 64, containment=0.25, resemblance=0.1, sentence_score=0.5,
        passages=(Passage(q0, q1, 0, 12, 3, "sentence", "quote"), Passage(a, b, s0, s1, 12, "exact")),
    )
    second = SourceMatch(
        source_id=None, path=None, title="Pasted <i>text</i>", text=SOURCE_TEXT, sha256="b" * 64,
        containment=0.4, resemblance=0.2, sentence_score=0.0,
        passages=(Passage(a + 4, b - 3, s0 + 4, s1 - 3, 9, "bridged"),),
    )
    return CheckResult(
        suspect=SuspectInfo(
            path="/essays/ivanov <script>.docx", title="Иванов <b>эссе</b>", chars=len(text), words=40,
            language="ru", warnings=(message("warning.bytes_replaced", n=3, encoding="<script>"),), sha256="c" * 64,
        ),
        suspect_text=text,
        sources=(first, second),  # deliberately not sorted: the report sorts
        borrowed_percent=41.5,
        original_percent=58.5,
        marked=(Span(q0, q1, "quote"), Span(text.index("Литература"), len(text), "bibliography")),
        settings=Settings(min_passage_words=7),
    )


def test_check_dict_follows_the_schema_and_sorts_sources():
    d = report.check_result_to_dict(_result())
    assert_check_schema(d)
    json.dumps(d)  # serialisable as it is
    assert [s["containment"] for s in d["sources"]] == [0.4, 0.25]
    assert d["sources"][1]["path"] == "/archive/onegin<b>.txt"
    assert d["sources"][0]["path"] == "Pasted <i>text</i>"  # no file: its title stands for the path
    onegin = d["sources"][1]["passages"]
    assert [p["suspect_start"] for p in onegin] == sorted(p["suspect_start"] for p in onegin)
    assert onegin[0]["excluded"] is None and onegin[1]["excluded"] == "quote"
    assert d["suspect"]["warnings"] == [{"code": "warning.bytes_replaced", "args": {"encoding": "<script>", "n": 3},
                                         "text": "3 byte sequences not valid in <script> replaced by U+FFFD"}]


def test_crosscheck_dict_follows_the_schema():
    r = CrossCheckResult(
        documents=("a.txt", "b.txt", "c.txt"),
        pairs=(CrossPair("a.txt", "b.txt", 0.5, 0.25, 0.2, shared_words=12,
                         passages=(Passage(0, 50, 10, 60, 12, "exact"),)),),
        matrix=((0.0, 0.5, 0.0), (0.25, 0.0, 0.0), (0.0, 0.0, 0.0)),
        failed=(("d.pdf", "damaged"),),
        clusters=(("a.txt", "b.txt", "c.txt"),),
    )
    d = report.crosscheck_to_dict(r)
    assert_crosscheck_schema(d)
    assert d == {"documents": ["a.txt", "b.txt", "c.txt"],
                 "pairs": [{"a": "a.txt", "b": "b.txt", "a_in_b": 0.5, "b_in_a": 0.25, "resemblance": 0.2,
                            "shared_words": 12, "passages": [{"a_start": 0, "a_end": 50, "b_start": 10,
                                                              "b_end": 60, "words": 12, "matched_words": 12,
                                                              "kind": ""}]}],
                 "clusters": [["a.txt", "b.txt", "c.txt"]]}


def test_html_shows_user_text_as_text_and_loads_nothing():
    result = _result()
    page = report.render_html(result)
    m = assert_safe_html(page)
    shown = "".join(m.text)
    # The hostile text is there, as text.
    assert "<script>alert(1)</script>" in shown
    assert "<img src=x onerror=alert(1)>" in shown
    assert "Онегин <script>alert(2)</script>" in shown
    assert "<script" not in page.lower().replace("&lt;script", "")
    assert "onerror=" not in page.replace("onerror=alert(1)&gt;", "")


def test_html_has_everything_a_case_file_needs():
    page = report.render_html(_result())
    m = parse_html(page)
    shown = "".join(m.text)
    for needle in ("41.5%", "58.5%", "40.0%", "25.0%", "Sverka 0.1.0", "a" * 64, "b" * 64, "c" * 64,
                   "Shortest passage that counts", "7 words", "quoted text", "quotation", "bibliography",
                   "3 byte sequences not valid in <script> replaced by U+FFFD"):
        assert needle in shown, needle
    assert "<style>" in page and 'rel="stylesheet"' not in page


def test_russian_report_words_the_settings_as_the_window_does():
    shown = "".join(parse_html(report.render_html(_result(), lang="ru")).text)
    assert "Самый короткий учитываемый фрагмент7 слов" in shown
    assert "Текст в кавычках — цитата, а не заимствованиеда" in shown
    assert "min_passage_words" not in shown and "exclude_quotes" not in shown


def test_html_links_passages_to_excerpts_and_back():
    result = _result()
    page = report.render_html(result)
    m = assert_safe_html(page)
    # Every passage of every source has its excerpt and its anchor in the text.
    for rank in (1, 2):
        n = len(report._sorted_sources(result)[rank - 1].passages)
        for i in range(1, n + 1):
            assert f"x{rank}-{i}" in m.ids and f"p{rank}-{i}" in m.ids
            assert f"x{rank}-{i}" in m.fragments or any(f.startswith(f"x{rank}-") for f in m.fragments)
            assert f"p{rank}-{i}" in m.fragments


def test_html_text_pieces_cover_the_suspect_exactly():
    result = _result()
    pieces = report._pieces(result, report._sorted_sources(result))
    assert "".join(p.text for p in pieces) == result.suspect_text
    borrowed = [p for p in pieces if "borrowed" in p.css]
    assert borrowed and all(p.colour for p in borrowed)
    quote = [p for p in pieces if "mark-quote" in p.css]
    assert quote and all("borrowed" not in p.css for p in quote)  # the quote passage is excluded


def test_html_without_sources_and_with_odd_offsets():
    text = "Just my own words here.\n"
    empty = CheckResult(
        suspect=SuspectInfo(None, "Pasted text", len(text), 5, "en", (), "d" * 64),
        suspect_text=text, sources=(), borrowed_percent=0.0, original_percent=100.0,
    )
    assert "No borrowed passages" in report.render_html(empty)
    assert_check_schema(report.check_result_to_dict(empty))
    # A passage running past the end of the text is clipped, not a crash.
    odd = CheckResult(
        suspect=empty.suspect, suspect_text=text, borrowed_percent=50.0, original_percent=50.0,
        sources=(SourceMatch(1, "x", "x", "", "e" * 64, 0.5, 0.1, 0.0, (Passage(5, 999, 0, 3, 3, "exact"),)),),
    )
    assert_safe_html(report.render_html(odd))


def test_crosscheck_html_has_pairs_matrix_and_failures():
    r = CrossCheckResult(
        documents=("a.txt", "<script>alert(1)</script>.txt"),
        pairs=(CrossPair("a.txt", "<script>alert(1)</script>.txt", 0.5, 0.25, 0.2),),
        matrix=((0.0, 0.5), (0.25, 0.0)),
        failed=(("<img src=x onerror=alert(1)>.pdf", "the file is damaged"),),
        sha256=("ab" * 32, "cd" * 32),
        settings=Settings(min_passage_words=11),
    )
    page = report.render_html(r)
    m = assert_safe_html(page)
    shown = "".join(m.text)
    assert "50.0%" in shown and "25.0%" in shown and "the file is damaged" in shown
    assert "<script>alert(1)</script>.txt" in shown
    assert "ab" * 32 in shown and "cd" * 32 in shown  # SHA-256 of every document
    assert "Shortest passage that counts11 words" in shown  # the settings used, worded as in the window
    assert m.tags.count("table") == 4  # documents, pairs, matrix, settings


def test_crosscheck_result_carries_each_documents_sha256_and_the_settings():
    from sverka.core import api

    docs = [api.document_from_text(t, f"d{k}") for k, t in enumerate(["Первый текст о море.", "Второй текст о горах."])]
    settings = Settings(min_passage_words=9)
    r = api.crosscheck(docs, settings=settings)
    assert r.sha256 == tuple(d.sha256 for d in docs)
    assert r.settings == settings
