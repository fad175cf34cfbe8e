"""The bytes both stores keep: a document's text and tokens, and hashes as signed 64-bit integers.

* Hashes are uint64; a database column holds the same 64 bits as a signed 64-bit integer
  (:func:`i64` one way, :func:`u64` back).
* Text (format 2): plain UTF-8 (``surrogatepass``, so a text holding lone surrogates comes back
  as it went in); a check reads its candidates' texts without decompressing them. Format 1
  (collections built before 2026-11-23) compressed them with zlib; :func:`inflate` reads those
  with a limit.
* Tokens blob: byte 0 = :data:`TOKENS_FORMAT` (2), then, all little-endian and uncompressed
  (format 1 is the same payload through ``zlib``; both are read, so older collections open as
  they are and new documents are stored in format 2)::

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
"""

from __future__ import annotations

import itertools
import json
import struct
import zlib

import numpy as np

from ..errors import CollectionVersionError
from ..messages import from_json, to_json
from ..tokens import SortOrders, Tokens

__all__ = ["READABLE_TOKENS_FORMATS", "TOKENS_FORMAT", "decode_stored", "decode_text", "decode_tokens",
           "encode_text", "encode_tokens", "i64", "inflate", "rows_array", "u64"]

#: 2: raw little-endian arrays (a check reads them without decompressing); 1: zlib of the same.
TOKENS_FORMAT = 2
READABLE_TOKENS_FORMATS = (1, 2)


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
    """A text as stored (format 2): plain UTF-8 (zlib took more time than aligning)."""
    return text.encode("utf-8", "surrogatepass")


def decode_text(blob) -> str:
    return bytes(blob).decode("utf-8", "surrogatepass")


#: Marks the sort orders at the end of a tokens blob (2: the pair order's shingle width).
ORDERS_MARK = b"ORD2"


def encode_tokens(tokens: Tokens, orders: SortOrders | None = None) -> bytes:
    """The tokens blob (see the module docstring for its layout), with ``orders`` at its end."""
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
    if len(payload) - off == len(ORDERS_MARK) + 4 * (n + n_pairs) and bytes(payload[off:off + 4]) == ORDERS_MARK:
        off += len(ORDERS_MARK)
        orders = SortOrders(take("<i4", n, np.int64), take("<i4", n_pairs, np.int64))
    return tokens, orders


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
