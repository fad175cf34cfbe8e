"""A minimal Word 97-2003 (.doc) file, written from the published formats, for tests.

No office suite is available to make real ones, so this builds the smallest file the
readers accept: an OLE2 compound file ([MS-CFB], version 3, 512-byte sectors, every stream
at least 4096 bytes so no mini stream is needed) holding a ``WordDocument`` stream (the FIB
of [MS-DOC] 2.5, nFib 0x00C1, and the text as UTF-16) and a ``1Table`` stream (the piece
table, one piece covering the whole text).
"""

from __future__ import annotations

import struct

SECTOR = 512
END, FREE, FATSECT = 0xFFFFFFFE, 0xFFFFFFFF, 0xFFFFFFFD
NOSTREAM = 0xFFFFFFFF


def _fib(ccp_text: int, fc_clx: int, lcb_clx: int) -> bytearray:
    fib = bytearray(0x800)
    struct.pack_into("<HHHHH", fib, 0, 0xA5EC, 0x00C1, 0x6A62, 0x0419, 0)
    struct.pack_into("<H", fib, 10, 0x0200 | 0x1000 | 0x0004)  # fWhichTblStm (1Table), fExtChar, fComplex
    struct.pack_into("<H", fib, 12, 0x00BF)  # nFibBack
    struct.pack_into("<II", fib, 24, 0x800, 0x800 + 2 * ccp_text)  # fcMin, fcMac (older readers look here)
    struct.pack_into("<H", fib, 32, 14)  # csw, fibRgW
    struct.pack_into("<H", fib, 62, 22)  # cslw, fibRgLw
    struct.pack_into("<I", fib, 64, 0x800 + 2 * ccp_text)  # cbMac
    struct.pack_into("<I", fib, 76, ccp_text)  # ccpText
    struct.pack_into("<H", fib, 152, 0x5D)  # cbRgFcLcb (Word 97)
    struct.pack_into("<II", fib, 154 + 33 * 8, fc_clx, lcb_clx)  # fcClx, lcbClx
    return fib


def word97(text: str) -> bytes:
    """A .doc holding ``text`` (paragraphs separated by newlines)."""
    body = text.replace("\r\n", "\n").replace("\n", "\r")
    if not body.endswith("\r"):
        body += "\r"
    ccp = len(body)
    pieces = struct.pack("<II", 0, ccp) + struct.pack("<HIH", 0, 0x800, 0)  # CPs, one Pcd (fc: UTF-16 at 0x800)
    clx = bytes([0x02]) + struct.pack("<I", len(pieces)) + pieces
    table = bytearray(clx) + bytearray(max(0, 4096 - len(clx)))
    word = _fib(ccp, 0, len(clx)) + body.encode("utf-16-le")
    word += bytearray(max(0, 4096 - len(word)))
    return _compound({"WordDocument": bytes(word), "1Table": bytes(table)})


#: FibRgFcLcb97 pairs written by :func:`word97_lists`: PlcBtePapx, PlfLst, PlfLfo.
_BTE_PAPX, _PLF_LST, _PLF_LFO = 13, 73, 74


def lvl(text: str, nfc: int = 0, start: int = 1, follow: int = 0, legal: bool = False,
        restart_lim: int | None = None) -> bytes:
    """One LVL of [MS-DOC]: an LVLF (start value, number format ``nfc``, where the numbers stand
    in the number text, what follows the number: 0 tab, 1 space, 2 nothing; fLegal; fNoRestart
    with ilvlRestartLim), no properties, and the number text ``text`` (characters 0x00-0x08
    stand for the levels' numbers)."""
    flags = (0x04 if legal else 0) | (0x08 if restart_lim is not None else 0)
    places = bytes(k + 1 for k, ch in enumerate(text) if ord(ch) < 9)[:9]  # rgbxchNums
    lvlf = struct.pack("<iBB9sBiiBBBB", start, nfc, flags, places, follow, 0, 0, 0, 0, restart_lim or 0, 0)
    assert len(lvlf) == 28
    return lvlf + struct.pack("<H", len(text)) + text.encode("utf-16-le")


def word97_lists(paragraphs: list[tuple[str, int, int]], lists: list[tuple[int, list[bytes]]],
                 overrides: list[tuple[int, dict[int, int | bytes]]]) -> bytes:
    """A .doc of ``paragraphs`` [(text, ilfo, ilvl)] (ilfo 0: not in a list), with ``lists``
    [(lsid, its 9 LVLs, or 1 for a simple list)] and list overrides ``overrides``
    [(lsid, {level: start value, or an LVL that replaces the level, or (that LVL,) whose start
    value counts too})], ilfo 1 the first: the
    PlfLst and its LVLs, the PlfLfo and one PAPX page per twelve paragraphs holding each
    paragraph's sprmPIlfo and sprmPIlvl."""
    body = "".join(text + "\r" for text, _, _ in paragraphs)
    ccp = len(body)
    pieces = struct.pack("<II", 0, ccp) + struct.pack("<HIH", 0, 0x800, 0)
    clx = bytes([0x02]) + struct.pack("<I", len(pieces)) + pieces
    plf_lst = struct.pack("<h", len(lists)) + b"".join(
        struct.pack("<ii18sBB", lsid, 0, b"\xff" * 18, 1 if len(levels) == 1 else 0, 0) for lsid, levels in lists)
    lvls = b"".join(b"".join(levels) for _, levels in lists)
    lfo = struct.pack("<I", len(overrides)) + b"".join(
        struct.pack("<iiiBBBB", lsid, 0, 0, len(starts), 0, 0, 0) for lsid, starts in overrides)
    lfo += b"".join(struct.pack("<I", 0xFFFFFFFF) + b"".join(  # LFOData: cp (none), the LFOLVLs
        struct.pack("<iI", start, level | 0x10) if isinstance(start, int)  # fStartAt
        else struct.pack("<iI", 0, level | 0x30) + start[0] if isinstance(start, tuple)  # fFormatting, fStartAt
        else struct.pack("<iI", 0, level | 0x20) + start  # fFormatting: a whole LVL
        for level, start in starts.items()) for _, starts in overrides)
    text_end = 0x800 + 2 * ccp
    first_page = -(-text_end // SECTOR)
    marks, cp = [], 0
    for text, ilfo, ilvl in paragraphs:
        cp += len(text) + 1
        marks.append((0x800 + 2 * cp, ilfo, ilvl))
    pages, fcs, pns = [], [0x800], []
    for k in range(0, len(marks), 12):
        chunk = marks[k:k + 12]
        fkp = bytearray(SECTOR)
        crun = len(chunk)
        start = fcs[-1]
        struct.pack_into(f"<{crun + 1}I", fkp, 0, start, *(end for end, _, _ in chunk))
        at = 510
        for j, (end, ilfo, ilvl) in enumerate(chunk):
            # sprmPIlvl, then sprmPIlfo (the order Word and LibreOffice write them in)
            grpprl = struct.pack("<HB", 0x260A, ilvl) + struct.pack("<Hh", 0x460B, ilfo) + b"\0" if ilfo else b""
            papx = struct.pack("<H", 0) + grpprl  # istd 0, then the sprms
            at -= 2 + len(papx)
            at -= at % 2
            fkp[at:at + 2 + len(papx)] = bytes([0, len(papx) // 2]) + papx
            fkp[4 * (crun + 1) + 13 * j] = at // 2
        fkp[511] = crun
        pages.append(bytes(fkp))
        pns.append(first_page + len(pages) - 1)
        fcs.append(chunk[-1][0])
    bte = struct.pack(f"<{len(fcs)}I", *fcs) + struct.pack(f"<{len(pns)}I", *pns)
    table = bytearray(clx)
    places = {}
    for index, blob in ((_PLF_LST, plf_lst), (None, lvls), (_PLF_LFO, lfo), (_BTE_PAPX, bte)):
        if index is not None:
            places[index] = (len(table), len(blob))
        table += blob
    table += bytearray(max(0, 4096 - len(table)))
    fib = _fib(ccp, 0, len(clx))
    for index, (fc, lcb) in places.items():
        struct.pack_into("<II", fib, 154 + 8 * index, fc, lcb)
    word = fib + body.encode("utf-16-le")
    word += bytearray(first_page * SECTOR - len(word))
    word += b"".join(pages)
    word += bytearray(max(0, 4096 - len(word)))
    return _compound({"WordDocument": bytes(word), "1Table": bytes(table)})


def word95(text: str, *, lid: int = 0x0419, codepage: str = "cp1251") -> bytes:
    """A Word 6/95 .doc (nFib 104) holding ``text`` in the 8-bit ``codepage``, its FIB naming
    language ``lid``: a FIB of Word 6's layout (fcMin, fcMac, ccpText; no piece table, the file
    saved in full) and the text right after it."""
    body = text.replace("\r\n", "\n").replace("\n", "\r")
    if not body.endswith("\r"):
        body += "\r"
    raw = body.encode(codepage)
    fib = bytearray(0x400)
    struct.pack_into("<HHHHH", fib, 0, 0xA5EC, 104, 0x6585, lid, 0)
    struct.pack_into("<H", fib, 10, 0)  # not complex, no extended (Unicode) characters
    struct.pack_into("<H", fib, 12, 104)  # nFibBack
    struct.pack_into("<II", fib, 0x18, 0x400, 0x400 + len(raw))  # fcMin, fcMac
    struct.pack_into("<I", fib, 0x20, 0x400 + len(raw))  # cbMac
    struct.pack_into("<I", fib, 0x34, len(raw))  # ccpText
    word = fib + raw
    word += bytearray(max(0, 4096 - len(word)))
    return _compound({"WordDocument": bytes(word)})


def _compound(streams: dict[str, bytes]) -> bytes:
    """An OLE2 file with these streams (each >= 4096 bytes) in the root storage."""
    names = list(streams)
    data_sectors = []  # (name, first sector, count)
    next_sector = 2  # 0: FAT, 1: directory
    for name in names:
        n = -(-len(streams[name]) // SECTOR)
        data_sectors.append((name, next_sector, n))
        next_sector += n
    assert next_sector <= SECTOR // 4, "one FAT sector is enough for a test file"
    fat = [FREE] * (SECTOR // 4)
    fat[0], fat[1] = FATSECT, END
    for _, first, n in data_sectors:
        for k in range(n):
            fat[first + k] = first + k + 1 if k < n - 1 else END

    def entry(name: str, kind: int, start: int, size: int, left=NOSTREAM, right=NOSTREAM, child=NOSTREAM) -> bytes:
        raw = name.encode("utf-16-le") + b"\0\0"
        e = bytearray(128)
        e[: len(raw)] = raw
        struct.pack_into("<HBBIII", e, 64, len(raw), kind, 1, left, right, child)
        struct.pack_into("<II", e, 116, start, size)
        return bytes(e)

    # The names form a binary search tree ordered by length, then upper-case text.
    order = sorted(range(len(names)), key=lambda i: (len(names[i]), names[i].upper()))
    ids = {name: i + 1 for i, name in enumerate(names)}
    # a chain of left children: the largest name at the root of the tree, each smaller one to its left
    directory = [entry("Root Entry", 5, END, 0, child=ids[names[order[-1]]])] + [
        entry(name, 2, data_sectors[i][1], len(streams[name]),
              left=ids[names[order[order.index(i) - 1]]] if order.index(i) > 0 else NOSTREAM)
        for i, name in enumerate(names)]
    dir_bytes = b"".join(directory)
    dir_bytes += entry("", 0, 0, 0) * ((SECTOR - len(dir_bytes) % SECTOR) % SECTOR // 128)
    assert len(dir_bytes) == SECTOR

    header = bytearray(SECTOR)
    header[:8] = bytes.fromhex("D0CF11E0A1B11AE1")
    struct.pack_into("<HHHHH", header, 24, 0x003E, 0x0003, 0xFFFE, 9, 6)
    struct.pack_into("<IIIIIIIII", header, 40, 0, 1, 1, 0, 4096, END, 0, END, 0)
    difat = [0] + [FREE] * 108
    struct.pack_into("<109I", header, 76, *difat)
    out = bytes(header) + struct.pack(f"<{len(fat)}I", *fat) + dir_bytes
    for name in names:
        data = streams[name]
        out += data + b"\0" * ((SECTOR - len(data) % SECTOR) % SECTOR)
    return out
