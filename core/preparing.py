"""Preparing one file for a collection: extract -> canonize -> fingerprint -> pack.

What a worker process does for each file added (:mod:`sverka.core.indexing` runs it in a pool,
:mod:`sverka.core.workers` in the sandboxed reader) and what a rebuild does for each document
it reads back (:mod:`sverka.core.rebuild`); the store writes the packed result
(:class:`~sverka.core.store.common.PreparedDocument`).
"""

from __future__ import annotations

import ctypes
import dataclasses
import functools
import sys
from pathlib import Path

import numpy as np

from . import formcache, formdict
from .align import sort_orders
from .windows import whole_stats
from .document import Document
from .errors import ExtractError, SverkaError
from .extract import extract
from .fingerprints import fingerprint_document
from .meaning import ADD_MAX_CHARS, span_vectors, vector_spans
from .messages import message
from .settings import Settings
from .sorting import distinct
from .store.codecs import decode_text, encode_text, encode_tokens, i64
from .store.common import PreparedDocument
from .text import canonize, trim_table, word_starts
from .tokens import Tokens

__all__ = ["ORDERS_MIN_TOKENS", "prepare", "prepare_file", "prepare_file_handing_forms", "with_vectors"]

#: Documents of at least this many tokens keep their sort orders (:func:`sverka.core.align.sort_orders`)
#: with their tokens: sorting a novel of 15 000 tokens again costs a check ~0.6 ms, an essay
#: of 2 000 ~0.05 ms (numpy's stable sort, below :data:`sverka.core.sorting.SMALL`), less than
#: reading 8 bytes a token more would save, and an archive of essays stays as large as it was.
ORDERS_MIN_TOKENS = 4096


def prepare(doc: Document, tokens: Tokens, fp, *, size_bytes: int = 0,
            mtime: float | None = None, path: str | None = None, added: str | None = None,
            meaning: bool = False) -> PreparedDocument:
    """Pack a document, its tokens and its :class:`~sverka.core.fingerprints.DocumentFingerprints`
    for :meth:`~sverka.core.store.Store.write_batch`. ``added``: the date of adding to keep
    (a rebuild); None means now. ``meaning``: the sentences to give vectors of meaning are
    chosen (``vector_spans``) when the document has at most
    :data:`~sverka.core.meaning.ADD_MAX_CHARS` characters; :func:`with_vectors` computes the
    vectors before writing."""
    orders = sort_orders(tokens.hashes) if len(tokens) >= ORDERS_MIN_TOKENS else None
    whole = whole_stats(tokens, fp.shingle_words, fp.distinct_shingles, fp.sentence_seq2) \
        if orders is not None else None  # a long document: read in windows
    words = fp.long_words
    short = distinct(i64(words))
    text_utf8 = len(doc.text.encode("utf-8", "surrogatepass"))
    path = path if path is not None else doc.path
    return PreparedDocument(
        path=path, title=doc.title or (Path(path).name if path else "Untitled"),
        format=doc.format, sha256=doc.sha256, chars=len(doc.text), words=int(tokens.word_count),
        size_bytes=int(size_bytes or text_utf8), mtime=mtime, language=tokens.language,
        warnings=tuple(doc.warnings) + tuple(w for w in tokens.warnings if w not in doc.warnings),
        text_blob=encode_text(doc.text), tokens_blob=encode_tokens(tokens, orders, whole), text_bytes=text_utf8,
        pairs=i64(fp.pair_hashes).copy(),
        pair_pos=np.asarray(fp.pair_positions, dtype=np.int64).copy(),
        sentences=i64(fp.sentence_keys).copy(),
        sentence_pos=np.asarray(fp.sentence_key_positions, dtype=np.int64).copy(), short_words=short,
        short_length=len(short), added=added,
        vector_spans=vector_spans(tokens.sentence_spans, tokens.word_starts if tokens.word_starts is not None
                                  else word_starts(doc.text), text=doc.text)
        if meaning and len(doc.text) <= ADD_MAX_CHARS else None,
    )


def with_vectors(items: list) -> list:
    """``items`` (:class:`PreparedDocument` or ``("unchanged", id)``) with the vectors of
    meaning of every document whose sentences were chosen (``vector_spans``), encoded here,
    in one run for the batch (:data:`~sverka.core.meaning.ENCODE_BATCH` sentences a call).

    Run by the process that writes (adding, rebuilding), once per committed batch: the readers
    never load the encoder (~120 MB each), so adding holds one encoder, not one a core."""
    todo = [k for k, p in enumerate(items) if isinstance(p, PreparedDocument) and p.vector_spans is not None
            and p.vectors is None and len(p.vector_spans)]
    if not todo:
        return items
    texts = [decode_text(items[k].text_blob) for k in todo]
    joined, spans, at = [], [], 0
    for k, text in zip(todo, texts):
        joined.append(text)
        spans.append(items[k].vector_spans + at)
        at += len(text)
    vectors = span_vectors("".join(joined), np.concatenate(spans))
    out, pos = list(items), 0
    for k in todo:
        n = len(items[k].vector_spans)
        out[k] = dataclasses.replace(items[k], vectors=vectors[pos:pos + n])
        pos += n
    return out


def prepare_file(path: str, size: int, mtime: float, settings: Settings) -> tuple[str, object]:
    """Extract, canonize and fingerprint one file: ``("ok", PreparedDocument)`` or ``("failed", reason)``.

    Runs in a worker process; never raises for a bad file (the batch goes on).
    """
    try:
        doc = extract(path)
        tokens = canonize(doc.text, drop_adjectives=settings.drop_adjectives)
        fp = fingerprint_document(tokens, settings)
        return "ok", prepare(doc, tokens, fp, size_bytes=size, mtime=mtime, path=path,
                             meaning=settings.find_by_meaning)
    except ExtractError as e:
        return "failed", e.message
    except SverkaError as e:
        return "failed", message("error.unreadable", detail=str(e))
    except OSError as e:
        return "failed", message("error.unreadable", detail=f"cannot read: {e.strerror or e}")
    except MemoryError:
        return "failed", message("error.too_much_memory")
    except RecursionError:
        return "failed", message("error.too_deep")
    except Exception as e:  # a bug in Sverka: one file must not stop the batch
        return "failed", message("error.bug", detail=f"{type(e).__name__}: {e}")


def prepare_file_handing_forms(path: str, size: int, mtime: float, settings: Settings) -> tuple[str, object, tuple]:
    """:func:`prepare_file` in a reader that writes no form table (a pool's worker, the
    sandboxed reader): then its table of raw forms trimmed (:func:`sverka.core.text.trim_table`)
    and the forms it analysed for the file handed over with the result, for the adding process
    to keep (:func:`sverka.core.formcache.take_new`). Before it, the machine-wide table is
    read again if it changed (:func:`sverka.core.formcache.refresh`); after it, the pages of the
    table of dictionary forms its lookups touched are given back (:mod:`sverka.core.formdict`),
    and the memory the C allocator kept from the file's work."""
    formcache.refresh()  # the forms the other readers analysed meanwhile, once the adding process wrote them
    try:
        status, payload = prepare_file(path, size, mtime, settings)
    finally:
        trim_table()
        formdict.table().release()
    forms = formcache.take_new()
    _give_back_freed_memory()
    return status, payload, forms


def _give_back_freed_memory() -> None:
    """Return to the system the memory the C allocator keeps after a file's arrays were freed
    (glibc's ``malloc_trim``): a worker between files held ~135 MB instead of ~110 MB
    (docs/BENCHMARKS.md), while the other worker may be at its largest. Nothing elsewhere."""
    trim = _malloc_trim()
    if trim is not None:
        trim(0)


@functools.cache
def _malloc_trim():
    if not sys.platform.startswith("linux"):
        return None
    try:
        return ctypes.CDLL(None).malloc_trim  # glibc; musl has none
    except (OSError, AttributeError):
        return None
