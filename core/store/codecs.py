"""The bytes both stores keep: a document's text and tokens, and hashes as signed 64-bit integers.

* Hashes are uint64; a database column holds the same 64 bits as a signed 64-bit integer
  (:func:`i64` one way, :func:`u64` back).
* Text (format 3, with tokens format 3): :data:`TEXT_MARK` then UTF-16-LE (``surrogatepass``,
  so a text holding lone surrogates comes back as it went in): decoding it costs a copy (2.1 MB
  of Cyrillic: 1.4 ms, against 21.9 ms from UTF-8), and Cyrillic takes two bytes a letter in
  both. Format 2 (collections built before 2026-11-27): plain UTF-8, read as before (no UTF-8
  text begins with the byte 0xFF). Format 1 (before 2026-11-23) compressed them with zlib;
  :func:`inflate` reads those with a limit.
* Tokens blob: byte 0 = :data:`TOKENS_FORMAT` (3; 2 is the same layout beside a UTF-8 text),
  then, all little-endian and uncompressed (format 1 is the same payload through ``zlib``; all
  are read, so older collections open as they are and new documents are stored in format 3)::

    '<7I' n_tokens, n_sentences, word_count, lookalike_letters, invisible_chars,
          hyphen_joins, json_len
    json_len bytes of UTF-8 JSON {"language": str, "warnings": [message, ...]} (each warning as
              sverka.core.messages.to_json gives it; an English string in older collections)
    starts '<i8'[n], ends '<i8'[n], hashes '<u8'[n], word_hashes '<u8'[n],
    sentence_ids '<i4'[n], sentence_spans '<i8'[m, 2]

  Lemmas are NOT stored: :func:`decode_tokens` gives ``lemmas`` as ``n`` empty strings.

  A format 2 blob may end with the document's sort orders (:class:`~sverka.core.tokens.SortOrders`,
  made when it was added: a check meeting the document need not sort it)::

    b"ORD2", lemma order '<i4'[n], pair order '<i4'[max(n - 1, 0)]

  Readers before them stop at the spans and never see it; :func:`decode_stored` gives them
  (or None: absent, or not of that exact size), each checked where it is used.

  A long document's blob (one with sort orders) then ends with what a check reading it in
  windows needs of the whole (:class:`~sverka.core.tokens.WholeStats`, :mod:`sverka.core.windows`)::

    b"WHL1", '<8I' m + 1, v, p, q, sentences, shingle width, distinct shingles, r,
    sentence first tokens '<i8'[m + 1], sentence first bytes '<i8'[m + 1],
    lemmas '<u8'[v], sentences holding each '<i4'[v], common pairs '<u8'[p], common sentences '<u8'[q],
    Seq2 values '<u8'[r], their counts '<i4'[r]

  Every array of the blob lies at an offset its head tells (:func:`tokens_layout`), so a
  window of tokens is read by itself (:func:`window_parts`, :func:`window_arrays`; a check asks
  for every part of its windows at once, :func:`read_parts`). Readers before this section
  (2026-11-27) take the orders for absent (the blob is no longer their exact size) and sort
  the document again: they read it right, a little slower.
"""

from __future__ import annotations

import itertools
import json
import struct
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from ..errors import CollectionVersionError
from ..messages import from_json, to_json
from ..tokens import SortOrders, Tokens, WholeStats

__all__ = ["READABLE_TOKENS_FORMATS", "TOKENS_FORMAT", "TokensLayout", "decode_stored", "decode_text",
           "decode_tokens", "encode_text", "encode_tokens", "encoded_length", "encoded_offsets", "i64", "inflate",
           "read_parts", "read_sentence_bytes", "read_sentence_starts", "read_whole", "rows_array",
           "tokens_layout", "u64", "window_arrays", "window_parts"]

#: 3: as 2, its text stored as UTF-16 (:func:`encode_text`); 2: raw little-endian arrays (a check
#: reads them without decompressing); 1: zlib of the same.
TOKENS_FORMAT = 3
READABLE_TOKENS_FORMATS = (1, 2, 3)
#: Begins a text stored as UTF-16-LE (the byte order mark; no UTF-8 text begins with 0xFF).
TEXT_MARK = b"\xff\xfe"


def i64(values) -> np.ndarray:
    """uint64 (or anything integer) -> the same 64 bits as int64."""
    if not isinstance(values, np.ndarray):
        values = list(values) if not isinstance(values, (list, tuple)) else values
        try:
            values = np.array(values, dtype=np.uint64)
        except OverflowError:  # negative Python ints: already the signed view
            values = np.array(values, dtype=np.int64)
    a = values
    if a.dtype.kind not in "iu":
        raise TypeError(f"hashes must be integers, not {a.dtype}")
    if a.dtype == np.int64:
        return a.ravel()
    if a.size == 0:
        return np.empty(0, dtype=np.int64)
    return np.ascontiguousarray(a, dtype=np.uint64).ravel().view(np.int64)


def rows_array(rows: list[tuple], width: int) -> np.ndarray:
    """int64 (len(rows), width) of the integer rows a query fetched: read as one flat run of
    values (numpy's reading of a list of tuples looks at each tuple as a sequence first, about
    twice as slow for the thousands of posting rows a check fetches)."""
    return np.fromiter(itertools.chain.from_iterable(rows), np.int64, width * len(rows)).reshape(-1, width)


def u64(values) -> np.ndarray:
    """Stored int64 -> the uint64 hashes they hold."""
    return np.asarray(values, dtype=np.int64).view(np.uint64)


def encode_text(text: str) -> bytes:
    """A text as stored (format 3): :data:`TEXT_MARK` and UTF-16-LE (zlib took more time than
    aligning; UTF-8 took 15 times longer to decode than UTF-16)."""
    return TEXT_MARK + text.encode("utf-16-le", "surrogatepass")


def encoded_length(text: str) -> int:
    """Bytes :func:`encode_text` gives ``text`` after its mark."""
    return len(text.encode("utf-16-le", "surrogatepass"))


def encoded_offsets(text: str, at) -> np.ndarray:
    """Bytes :func:`encode_text` gives ``text[:a]`` (after its mark) for each offset ``a`` of
    ``at`` (int64): two per character, four for one beyond U+FFFF (found only when the text
    holds one: its UTF-16 is then longer than two bytes a character)."""
    at = np.asarray(at, dtype=np.int64)
    if len(text.encode("utf-16-le", "surrogatepass")) == 2 * len(text):
        return 2 * at
    wide = np.flatnonzero(np.frombuffer(text.encode("utf-32-le", "surrogatepass"), "<u4") > 0xFFFF)
    return 2 * (at + np.searchsorted(wide, at))


def decode_text(blob) -> str:
    """A stored text, either format."""
    b = bytes(blob)
    if b[:2] == TEXT_MARK:
        return b[2:].decode("utf-16-le", "surrogatepass")
    return b.decode("utf-8", "surrogatepass")


#: Marks the sort orders at the end of a tokens blob (2: the pair order's shingle width).
ORDERS_MARK = b"ORD2"


#: Marks what a windowed check needs of the whole document, after the sort orders.
WHOLE_MARK = b"WHL1"
_WHOLE_HEAD = struct.Struct("<4s8I")


def encode_tokens(tokens: Tokens, orders: SortOrders | None = None, whole: WholeStats | None = None) -> bytes:
    """The tokens blob (see the module docstring for its layout), with ``orders`` at its end,
    and ``whole`` after them (only with them)."""
    n = len(tokens.starts)
    spans = np.asarray(tokens.sentence_spans, dtype="<i8").reshape(-1, 2)
    meta = json.dumps({"language": tokens.language, "warnings": [to_json(w) for w in tokens.warnings]},
                      ensure_ascii=False).encode("utf-8", "surrogatepass")
    head = struct.pack("<7I", n, len(spans), tokens.word_count, tokens.lookalike_letters,
                       tokens.invisible_chars, tokens.hyphen_joins, len(meta))
    payload = b"".join((
        head, meta,
        np.asarray(tokens.starts, dtype="<i8").tobytes(),
        np.asarray(tokens.ends, dtype="<i8").tobytes(),
        np.asarray(tokens.hashes, dtype="<u8").tobytes(),
        np.asarray(tokens.word_hashes, dtype="<u8").tobytes(),
        np.asarray(tokens.sentence_ids, dtype="<i4").tobytes(),
        spans.tobytes(),
    ))
    if orders is not None:
        payload += b"".join((ORDERS_MARK, np.asarray(orders.lemmas, dtype="<i4").tobytes(),
                             np.asarray(orders.pairs, dtype="<i4").tobytes()))
        if whole is not None:
            seq2 = np.zeros(0, np.uint64) if whole.seq2 is None else whole.seq2
            seq2_counts = np.zeros(0, np.int64) if whole.seq2_counts is None else whole.seq2_counts
            payload += b"".join((
                _WHOLE_HEAD.pack(WHOLE_MARK, len(whole.sentence_tokens), len(whole.lemmas), len(whole.common_pairs),
                                 len(whole.common_sentences), whole.sentences, whole.shingle_words,
                                 whole.distinct_shingles, len(seq2)),
                np.asarray(whole.sentence_tokens, dtype="<i8").tobytes(),
                np.asarray(whole.sentence_bytes, dtype="<i8").tobytes(),
                np.asarray(whole.lemmas, dtype="<u8").tobytes(),
                np.asarray(whole.lemma_sentences, dtype="<i4").tobytes(),
                np.asarray(whole.common_pairs, dtype="<u8").tobytes(),
                np.asarray(whole.common_sentences, dtype="<u8").tobytes(),
                np.asarray(seq2, dtype="<u8").tobytes(),
                np.asarray(seq2_counts, dtype="<i4").tobytes(),
            ))
    return bytes([TOKENS_FORMAT]) + payload


def decode_tokens(blob: bytes, text: str) -> Tokens:
    """Rebuild :class:`Tokens` from a tokens blob (lemmas are empty strings)."""
    return decode_stored(blob, text)[0]


def decode_stored(blob: bytes, text: str) -> tuple[Tokens, SortOrders | None]:
    """:func:`decode_tokens`, and the sort orders the blob ends with (None without them)."""
    if not blob or blob[0] not in READABLE_TOKENS_FORMATS:
        raise CollectionVersionError(
            "the collection stores tokens in an unknown format; rebuild the collection")
    # Format 1 (collections built before 2026-11-23) compressed the payload with zlib.
    payload = inflate(blob[1:], _max_payload(len(text))) if blob[0] == 1 else memoryview(blob)[1:]
    n, m, word_count, lookalike, invisible, joins, jlen = struct.unpack_from("<7I", payload)
    off = struct.calcsize("<7I")
    meta = json.loads(bytes(payload[off:off + jlen]).decode("utf-8", "surrogatepass"))
    off += jlen

    def take(dtype: str, count: int, native) -> np.ndarray:
        nonlocal off
        a = np.frombuffer(payload, dtype=dtype, count=count, offset=off).astype(native, copy=False)
        off += count * np.dtype(dtype).itemsize
        return a

    starts = take("<i8", n, np.int64)
    ends = take("<i8", n, np.int64)
    hashes = take("<u8", n, np.uint64)
    word_hashes = take("<u8", n, np.uint64)
    sentence_ids = take("<i4", n, np.int32)
    spans = take("<i8", 2 * m, np.int64).reshape(m, 2)
    tokens = Tokens(text=text, starts=starts, ends=ends, lemmas=("",) * n, hashes=hashes,
                    word_hashes=word_hashes, sentence_ids=sentence_ids, sentence_spans=spans,
                    word_count=word_count, language=meta["language"], lookalike_letters=lookalike,
                    invisible_chars=invisible, hyphen_joins=joins,
                    warnings=tuple(map(from_json, meta["warnings"])))
    orders = None
    n_pairs = max(n - 1, 0)
    size = len(ORDERS_MARK) + 4 * (n + n_pairs)
    if len(payload) - off >= size and bytes(payload[off:off + 4]) == ORDERS_MARK and \
            (len(payload) - off == size or _whole_size(payload, off + size) == len(payload) - off - size):
        off += len(ORDERS_MARK)
        orders = SortOrders(take("<i4", n, np.int64), take("<i4", n_pairs, np.int64))
    return tokens, orders


def _whole_size(buf, at: int) -> int:
    """Bytes of the :data:`WHOLE_MARK` section starting at ``at`` of ``buf`` (-1: none there)."""
    if len(buf) - at < _WHOLE_HEAD.size:
        return -1
    mark, m1, v, p, q, _, _, _, r = _WHOLE_HEAD.unpack_from(buf, at)
    return -1 if mark != WHOLE_MARK else _WHOLE_HEAD.size + 16 * m1 + 12 * (v + r) + 8 * (p + q)


@dataclass(frozen=True)
class TokensLayout:
    """Where the arrays of a format 2 tokens blob with a :data:`WHOLE_MARK` section lie (byte
    offsets from the blob's start), read from its head alone (:func:`tokens_layout`)."""

    n: int  # tokens
    m: int  # sentence spans
    language: str
    text_at: int  # where the text's first character lies in its blob (after TEXT_MARK), and
    text_codec: str  # its encoding: sentence bytes of the WHOLE_MARK section count from there
    starts: int  # '<i8'[n]; then ends '<i8'[n], hashes '<u8'[n], word hashes '<u8'[n]
    sentence_ids: int  # '<i4'[n]
    spans: int  # '<i8'[m, 2]
    whole: int  # the WHOLE_MARK section

    def array(self, which: str) -> tuple[int, str]:
        """(offset, dtype) of a per-token array."""
        k = ("starts", "ends", "hashes", "word_hashes").index(which) if which != "sentence_ids" else -1
        return (self.sentence_ids, "<i4") if k < 0 else (self.starts + 8 * k * self.n, "<u8" if k > 1 else "<i8")


Reader = Callable[[int, int], bytes]  # (offset, length) -> the blob's bytes there


def read_parts(read: Reader, parts: Sequence[tuple[int, int]]) -> list[bytes]:
    """The bytes of each (offset, length) of ``parts``, read through ``read``: in one call when
    the reader has a ``many`` (a server's blob: one query for every part, not one each)."""
    many = getattr(read, "many", None)
    if many is not None:
        return many(parts)
    return [read(offset, length) for offset, length in parts]


def tokens_layout(read: Reader, size: int) -> TokensLayout | None:
    """The layout of a tokens blob of ``size`` bytes read through ``read``; None when it has
    no :data:`WHOLE_MARK` section (older collections, short documents, format 1): such a
    document is read whole."""
    head = struct.calcsize("<7I")
    if size < 1 + head:
        return None
    first = read(0, 1 + head)
    if first[0] not in (2, TOKENS_FORMAT):
        return None
    n, m, _, _, _, _, jlen = struct.unpack_from("<7I", first, 1)
    starts = 1 + head + jlen
    orders = starts + 36 * n + 16 * m
    whole = orders + len(ORDERS_MARK) + 4 * (n + max(n - 1, 0))
    if size < whole + _WHOLE_HEAD.size or read(orders, len(ORDERS_MARK)) != ORDERS_MARK:
        return None
    if _whole_size(read(whole, _WHOLE_HEAD.size), 0) != size - whole:
        return None
    meta = json.loads(read(1 + head, jlen).decode("utf-8", "surrogatepass"))
    utf16 = first[0] >= 3
    return TokensLayout(n, m, meta["language"], len(TEXT_MARK) if utf16 else 0, "utf-16-le" if utf16 else "utf-8",
                        starts, starts + 32 * n, starts + 36 * n, whole)


def read_whole(read: Reader, layout: TokensLayout) -> WholeStats:
    """The :class:`WholeStats` section of a blob."""
    at = layout.whole
    _, m1, v, p, q, sentences, width, shingles, r = _WHOLE_HEAD.unpack(read(at, _WHOLE_HEAD.size))
    body = read(at + _WHOLE_HEAD.size, 16 * m1 + 12 * (v + r) + 8 * (p + q))
    off = 0

    def take(dtype: str, count: int, native) -> np.ndarray:
        nonlocal off
        a = np.frombuffer(body, dtype=dtype, count=count, offset=off).astype(native, copy=False)
        off += count * np.dtype(dtype).itemsize
        return a

    return WholeStats(take("<i8", m1, np.int64), take("<i8", m1, np.int64), sentences, take("<u8", v, np.uint64),
                      take("<i4", v, np.int64), take("<u8", p, np.uint64), take("<u8", q, np.uint64), width, shingles,
                      take("<u8", r, np.uint64), take("<i4", r, np.int64))


def window_parts(layout: TokensLayout, t0: int, t1: int, s0: int, s1: int,
                 names=("starts", "ends", "hashes", "word_hashes", "sentence_ids")) -> list[tuple[int, int]]:
    """The (offset, length) in a blob of tokens ``t0:t1`` of each of their arrays ``names``
    (starts, ends, hashes, word_hashes, sentence_ids), then of sentence spans ``s0:s1``."""
    parts = []
    for name in names:
        at, dtype = layout.array(name)
        size = np.dtype(dtype).itemsize
        parts.append((at + size * t0, size * (t1 - t0)))
    parts.append((layout.spans + 16 * s0, 16 * (s1 - s0)))
    return parts


def window_arrays(layout: TokensLayout, data: Sequence[bytes],
                  names=("starts", "ends", "hashes", "word_hashes", "sentence_ids")) -> dict[str, np.ndarray]:
    """The arrays of the parts :func:`window_parts` gave for ``names``, from their bytes, and
    ``spans``."""
    out = {}
    for name, raw in zip(names, data):
        dtype = layout.array(name)[1]
        out[name] = np.frombuffer(raw, dtype=dtype).astype(np.dtype(dtype).newbyteorder("="), copy=False)
    out["spans"] = np.frombuffer(data[len(names)], dtype="<i8").astype(np.int64, copy=False).reshape(-1, 2)
    return out


def read_sentence_starts(read: Reader, layout: TokensLayout) -> np.ndarray:
    """int64: where each sentence of a blob begins in its text (characters), its spans' first
    column, read by itself."""
    spans = np.frombuffer(read(layout.spans, 16 * layout.m), dtype="<i8").reshape(-1, 2)
    return spans[:, 0].astype(np.int64)


def read_sentence_bytes(read: Reader, layout: TokensLayout) -> np.ndarray:
    """int64: the byte of its text where each sentence of a blob begins, the text's length last
    (the :data:`WHOLE_MARK` section's sentence bytes, read by themselves)."""
    m1 = _WHOLE_HEAD.unpack(read(layout.whole, _WHOLE_HEAD.size))[1]
    at = layout.whole + _WHOLE_HEAD.size + 8 * m1
    return np.frombuffer(read(at, 8 * m1), dtype="<i8").astype(np.int64)


def _max_payload(chars: int) -> int:
    """The most bytes a tokens payload of a text of ``chars`` characters can hold: per token
    (at most one per character) 36 bytes, per sentence 16, plus the head and its warnings."""
    return 52 * (chars + 1) + (1 << 20)


def inflate(data: bytes, limit: int) -> bytes:
    """zlib-inflate ``data``, refusing (ValueError) to produce more than ``limit`` bytes: a
    damaged or crafted blob must not inflate to gigabytes."""
    d = zlib.decompressobj()
    out = d.decompress(bytes(data), limit + 1)
    if len(out) > limit or d.unconsumed_tail:
        raise ValueError(f"the stored data would inflate beyond {limit:,} bytes")
    return out
