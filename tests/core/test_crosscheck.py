"""api.crosscheck: all pairs of a class, candidate pairs by shared fingerprints, matrix."""

from __future__ import annotations

import numpy as np
import pytest

from sverka.core import api
from sverka.core.check import candidate_pairs
from sverka.core.document import Document

COPIED = (
    "Фотосинтез представляет собой сложный процесс превращения энергии солнечного света в энергию "
    "химических связей органических веществ, который протекает в хлоропластах зелёных растений. "
)


def essay(k: int, copied: bool) -> Document:
    own = {
        0: "Моё сочинение посвящено осенней природе родного края и прогулкам по лесу с отцом. ",
        1: "Летом мы с друзьями строили плот на реке и чуть не утонули в глубоком омуте. ",
        2: "Бабушка научила меня печь пироги с капустой, и теперь я пеку их каждую субботу. ",
        3: "Футбольная команда нашей школы выиграла городской турнир впервые за десять лет. ",
    }[k]
    return Document(own * 3 + (COPIED if copied else ""), title=f"essay{k}")


def test_candidate_pairs_inverted_index():
    fps = [np.array([1, 2, 3], np.uint64), np.array([2, 3, 4], np.uint64), np.array([9], np.uint64),
           np.array([1, 2, 3, 4], np.uint64)]
    assert candidate_pairs(fps, 2) == [(0, 1, 2), (0, 3, 3), (1, 3, 3)]
    # hashes 2 and 3 are held by three documents: boilerplate, skipped
    assert candidate_pairs(fps, 1, max_docs_per_hash=2) == [(0, 3, 1), (1, 3, 1)]
    assert candidate_pairs([np.zeros(0, np.uint64)] * 3, 1) == []


def test_crosscheck_finds_the_copying_pair(tmp_path):
    docs = [essay(0, True), essay(1, False), essay(2, True), essay(3, False)]
    bad = tmp_path / "broken.docx"
    bad.write_bytes(b"not a docx at all")
    r = api.crosscheck(docs + [str(bad)])
    assert r.documents[:4] == ("essay0", "essay1", "essay2", "essay3")
    assert [f[0] for f in r.failed] == [str(bad)]
    assert [(p.a, p.b) for p in r.pairs] == [("essay0", "essay2")]
    (p,) = r.pairs
    assert p.a_in_b == pytest.approx(r.matrix[0][2]) and p.b_in_a == pytest.approx(r.matrix[2][0])
    assert 0.2 < p.a_in_b < 0.6 and p.resemblance > 0
    assert r.matrix[1][3] == 0.0 and r.matrix[0][0] == 1.0
    assert len(r.matrix) == 5 and all(len(row) == 5 for row in r.matrix)


def test_crosscheck_against_a_collection(tmp_path):
    archive = Document("Архивная работа прошлого года. " + COPIED * 2, path=str(tmp_path / "old.txt"), title="old")
    with api.Collection(tmp_path / "c.sverka") as col:
        col.add_document(archive)
        col.add_document(essay(1, False))  # in the archive already: not its own source
        r = api.crosscheck([essay(0, True), essay(1, False)], collection=col)
    pairs = {(p.a, p.b) for p in r.pairs}
    assert ("essay0", str(tmp_path / "old.txt")) in pairs or ("essay0", "old") in pairs
    assert not any(p.a == "essay1" for p in r.pairs)
