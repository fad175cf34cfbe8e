"""Why a PDF broke Sverka's limits: a look at its raw objects, made only after reading it
failed (it costs nothing for files that read).

Reading a PDF that is built to explode stops at the reader's memory or time limit
(:mod:`sverka.core.workers`). Then this module looks at the file's bytes, within fixed
bounds, for the two usual causes, so the message says what the file is:

* a decompression bomb: a content stream (or one page's streams together, a stream may be
  named many times) that inflates to more than :data:`MAX_PAGE_CONTENT_BYTES`;
* forms drawing forms (form XObjects in a tree, or in a loop): one page would draw more than
  :data:`MAX_FORM_DRAWS` forms.

Streams are inflated with zlib in slices, never beyond :data:`INFLATE_BUDGET_BYTES` in all,
and their bytes are counted, not kept (a form's own content: its first
:data:`FORM_CONTENT_BYTES`). Objects inside object streams are read too. A file whose
structure this look does not understand gets the general message of the limit it broke.
"""

from __future__ import annotations

import re
import zlib
from pathlib import Path

from ..messages import Message, message

#: A page whose content streams together inflate to more than this is a decompression bomb.
MAX_PAGE_CONTENT_BYTES = 256 * 1024 * 1024
#: A page that would draw more forms than this (forms inside forms multiplied) is a form bomb.
MAX_FORM_DRAWS = 1_000_000
#: Bytes inflated in all by one look, and bytes of a form's content kept to find its ``Do``s.
INFLATE_BUDGET_BYTES = 2 * 1024 ** 3
FORM_CONTENT_BYTES = 4 * 1024 * 1024
_SLICE = 1 << 20

_OBJ = re.compile(rb"(\d+)\s+(\d+)\s+obj\b")
_REF = rb"(\d+)\s+\d+\s+R"
_STREAM = re.compile(rb"stream\r?\n")
_DO = re.compile(rb"/([^\s/\[\]()<>{}%]+)\s*Do\b")


class _Budget:
    def __init__(self) -> None:
        self.left = INFLATE_BUDGET_BYTES


def diagnose_pdf(path: str | Path, memory_mb: int) -> Message | None:
    """The message naming the bomb in the PDF at ``path``, or None when none is found."""
    try:
        with open(path, "rb") as f:
            data = f.read(210 * 1024 * 1024)
    except OSError:
        return None
    if b"%PDF-" not in data[:1024]:
        return None
    objects = _objects(data)
    budget = _Budget()
    sizes: dict[int, int] = {}

    def inflated_size(num: int) -> int:
        if num not in sizes:
            obj = objects.get(num)
            sizes[num] = _inflate(obj[1], obj[0], budget, None)[0] if obj and obj[1] is not None else 0
        return sizes[num]

    contents_cache: dict[int, bytes] = {}

    def content(num: int) -> bytes:
        if num not in contents_cache:
            obj = objects.get(num)
            contents_cache[num] = (_inflate(obj[1], obj[0], budget, FORM_CONTENT_BYTES)[1]
                                   if obj and obj[1] is not None else b"")
        return contents_cache[num]

    draws_of: dict[int, float] = {}

    def draws(num: int, stack: frozenset) -> float:
        """Forms drawn when form ``num`` is drawn once (itself included)."""
        if num in stack:
            return float("inf")  # a form drawing itself
        if num in draws_of:
            return draws_of[num]
        obj = objects.get(num)
        total = 1.0
        if obj is not None:
            names = _xobjects(obj[0], objects)
            for name in _DO.findall(content(num)):
                child = names.get(name)
                if child is not None:
                    total += draws(child, stack | {num})
                    if total > MAX_FORM_DRAWS:
                        break
        draws_of[num] = total
        return total

    for num, (head, _) in objects.items():
        if not re.search(rb"/Type\s*/Page(?![a-zA-Z])", head):
            continue
        refs = _contents(head)
        total = 0
        for ref in refs:
            total += inflated_size(ref)
        if total > MAX_PAGE_CONTENT_BYTES:
            return message("error.pdf_inflate_bomb", mb=MAX_PAGE_CONTENT_BYTES // 2**20, limit=memory_mb)
        names = _xobjects(head, objects)
        forms = 0.0
        for ref in refs:
            for name in _DO.findall(content(ref)):
                child = names.get(name)
                if child is not None:
                    forms += draws(child, frozenset())
        if forms > MAX_FORM_DRAWS:
            return message("error.pdf_form_bomb", n=MAX_FORM_DRAWS, limit=memory_mb)
    return None


def _objects(data: bytes) -> dict[int, tuple[bytes, bytes | None]]:
    """Object number -> (its dictionary's bytes, its raw stream bytes or None); the last
    definition of a number wins (as in an updated file), objects of object streams included."""
    out: dict[int, tuple[bytes, bytes | None]] = {}
    for m in _OBJ.finditer(data):
        start = m.end()
        end = data.find(b"endobj", start)
        if end < 0:
            end = len(data)
        body = data[start:end]
        s = _STREAM.search(body)
        if s is not None:
            raw_end = body.rfind(b"endstream")
            out[int(m.group(1))] = (body[:s.start()], body[s.end():raw_end if raw_end > s.end() else len(body)])
        else:
            out[int(m.group(1))] = (body, None)
    budget = _Budget()
    for head, raw in list(out.values()):
        if raw is None or not re.search(rb"/Type\s*/ObjStm", head):
            continue
        first = re.search(rb"/First\s+(\d+)", head)
        count = re.search(rb"/N\s+(\d+)", head)
        if not first or not count:
            continue
        text = _inflate(raw, head, budget, 64 * 1024 * 1024)[1]
        pairs = re.findall(rb"(\d+)\s+(\d+)", text[:int(first.group(1))])[:int(count.group(1))]
        base = int(first.group(1))
        for k, (num, offset) in enumerate(pairs):
            stop = base + int(pairs[k + 1][1]) if k + 1 < len(pairs) else len(text)
            out.setdefault(int(num), (text[base + int(offset):stop], None))
    return out


def _inflate(raw: bytes, head: bytes, budget: _Budget, keep: int | None) -> tuple[int, bytes]:
    """(bytes the stream inflates to, at most ``budget``'s; its first ``keep`` bytes) of a
    FlateDecode stream; an unfiltered stream as it is; other filters: (0, b"")."""
    filters = re.findall(rb"/(FlateDecode|Fl|[A-Za-z0-9]+Decode)\b", head)
    if not filters:
        return len(raw), raw[:keep] if keep else b""
    if [f for f in filters if f not in (b"FlateDecode", b"Fl")]:
        return 0, b""
    d = zlib.decompressobj()
    total, kept = 0, bytearray()
    pending = raw
    try:
        while budget.left > 0:
            out = d.decompress(pending, _SLICE)
            total += len(out)
            budget.left -= len(out)
            if keep and len(kept) < keep:
                kept += out[:keep - len(kept)]
            pending = d.unconsumed_tail
            if not out or (not pending and d.eof):
                break
    except zlib.error:
        pass
    return total, bytes(kept)


def _contents(page: bytes) -> list[int]:
    m = re.search(rb"/Contents\s*(\[[^\]]*\]|" + _REF + rb")", page)
    if m is None:
        return []
    return [int(x) for x in re.findall(_REF, m.group(1))]


def _xobjects(head: bytes, objects: dict) -> dict[bytes, int]:
    """Name -> object number of the form XObjects an object's resources name."""
    resources = head
    m = re.search(rb"/Resources\s*" + _REF, head)
    if m is not None and int(m.group(1)) in objects:
        resources = objects[int(m.group(1))][0]
    m = re.search(rb"/XObject\s*" + _REF, resources)
    if m is not None and int(m.group(1)) in objects:
        block = objects[int(m.group(1))][0]
    else:
        m = re.search(rb"/XObject\s*<<(.*?)>>", resources, re.S)
        block = m.group(1) if m else b""
    return {name: int(num) for name, num in re.findall(rb"/([^\s/\[\]()<>{}%]+)\s+(\d+)\s+\d+\s+R", block)}
