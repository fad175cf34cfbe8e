"""Automatic list numbers of Word 97-2003 documents (.doc), as Word shows them.

catdoc reads a .doc's text but not its list numbers ("1.", "a)", "1.1.", bullets), which Word
draws from the list tables rather than keeping them in the text. They are computed here from
the document's own structure ([MS-DOC]):

* the lists (``PlfLst`` in the table stream: one ``LSTF`` per list, then its levels, each an
  ``LVLF`` with its start value, number format (``nfc``), what follows the number
  (``ixchFollow``: a tab, a space or nothing) and the number text (``xst``), in which the
  characters 0x00-0x08 stand for the numbers of levels 1-9);
* the list overrides (``PlfLfo``: one ``LFO`` per list instance a paragraph names, with start
  values or whole levels that override its list's);
* each paragraph's list (``sprmPIlfo``) and level (``sprmPIlvl``), from its properties in the
  PAPX pages (``PlcBtePapx``) or from its paragraph style (the style sheet, ``STSH``, with the
  styles each is based on).

Paragraphs are numbered as Word numbers them (and LibreOffice, whose reading of lists follows
Word's): one counter per list and level (:class:`_Counter` says how list instances share
them), the first item of a level at its start value, deeper levels started again when a
higher one counts on (unless the level says otherwise, ``fNoRestart``/``ilvlRestartLim``), and
the label the number text with each placeholder replaced by its level's counter in its
level's format (``fLegal``: decimal). Only the main text is numbered (not headers, footnotes
or text boxes), and each label is written before the line catdoc gives for its paragraph
(:func:`number_lines`). The labels follow the conventions of the DOCX reader (docx_text), so
the same document saved as .docx and as .doc reads alike: the label, then a tab, a space or
nothing; a bullet drawn from a symbol font's private-use character is written "•".

Every count and offset read from the file is checked against the stream it points into; a
damaged table gives no numbers (the text is read all the same), never an error or a long loop.
"""

from __future__ import annotations

import re
import struct
from bisect import bisect_right

from .docx_text import format_number

#: FibRgFcLcb97 pairs (fc, lcb) by index: STSH, PlcBtePapx, PlfLst, PlfLfo.
_STSHF, _BTE_PAPX, _PLF_LST, _PLF_LFO = 1, 13, 73, 74
_SPRM_ILVL, _SPRM_ILFO, _SPRM_CHG_TABS = 0x260A, 0x460B, 0xC615
_SPRM_DEF_TABLE = frozenset((0xD608, 0xD606))
#: MSONFC ([MS-DOC] 2.2.1.3) -> the DOCX number format that writes it.
_FORMATS = {0x00: "decimal", 0x01: "upperRoman", 0x02: "lowerRoman", 0x03: "upperLetter", 0x04: "lowerLetter",
            0x05: "ordinal", 0x16: "decimalZero", 0x17: "bullet", 0x3A: "russianLower", 0x3B: "russianUpper",
            0xFF: "none"}
_FOLLOW = {0: "\t", 1: " ", 2: ""}
_BULLET = "\u2022"
_NOT_WORD = re.compile(r"\W+")
_PARAGRAPH_END = re.compile("[\r\x07]")
_TAB = re.compile("\t")
#: A paragraph of the document is matched with a line (or a cell's part of one) of catdoc's at
#: most this many lines or parts on.
_WINDOW = 128


class _Damaged(Exception):
    """A structure points outside its stream or is cut short."""


def _u16(data: bytes, at: int) -> int:
    if at < 0 or at + 2 > len(data):
        raise _Damaged
    return data[at] | data[at + 1] << 8


def _u32(data: bytes, at: int) -> int:
    if at < 0 or at + 4 > len(data):
        raise _Damaged
    return struct.unpack_from("<I", data, at)[0]


def _i32(data: bytes, at: int) -> int:
    if at < 0 or at + 4 > len(data):
        raise _Damaged
    return struct.unpack_from("<i", data, at)[0]


def _fc_lcb(word: bytes, index: int) -> tuple[int, int]:
    """The (fc, lcb) pair ``index`` of the FIB's FibRgFcLcb, (0, 0) when the FIB is shorter."""
    csw = _u16(word, 32)
    at_cslw = 34 + 2 * csw
    cslw = _u16(word, at_cslw)
    at_count = at_cslw + 2 + 4 * cslw
    count = _u16(word, at_count)
    if index >= count:
        return 0, 0
    at = at_count + 2 + 8 * index
    return _u32(word, at), _u32(word, at + 4)


# -- the lists -------------------------------------------------------------------------------

def _level(table: bytes, at: int) -> tuple[dict, int]:
    """(a level of a list as the DOCX reader describes one, the offset after its LVL)."""
    if at + 28 > len(table):
        raise _Damaged
    start = _i32(table, at)
    nfc, flags = table[at + 4], table[at + 5]
    follow = table[at + 15]
    cb_chpx, cb_papx, restart_lim = table[at + 24], table[at + 25], table[at + 26]
    at += 28 + cb_papx + cb_chpx
    cch = _u16(table, at)
    at += 2
    if at + 2 * cch > len(table):
        raise _Damaged
    text = table[at:at + 2 * cch].decode("utf-16-le", "replace")
    no_restart = bool(flags & 0x08)
    return ({"start": start, "fmt": _FORMATS.get(nfc, "decimal"), "text": text, "follow": _FOLLOW.get(follow, "\t"),
             "legal": bool(flags & 0x04), "restart_lim": restart_lim if no_restart else None}, at + 2 * cch)


def _lists(table: bytes, fc: int, lcb: int) -> dict[int, dict[int, dict]]:
    """lsid -> level -> its description, from the PlfLst and the LVLs after it."""
    if lcb < 2 or fc + lcb > len(table):
        return {}
    count = struct.unpack_from("<h", table, fc)[0]
    if count <= 0 or 2 + 28 * count > lcb:
        raise _Damaged
    heads = []
    for k in range(count):
        at = fc + 2 + 28 * k
        heads.append((_i32(table, at), bool(table[at + 26] & 0x01)))
    out: dict[int, dict[int, dict]] = {}
    at = fc + lcb  # the LVLs follow the PlfLst, list by list
    for lsid, simple in heads:
        levels = {}
        for level in range(1 if simple else 9):
            levels[level], at = _level(table, at)
        out.setdefault(lsid, levels)
    return out


def _overrides(table: bytes, fc: int, lcb: int) -> list[tuple[int, dict[int, int], dict[int, dict]]]:
    """[(lsid, level -> start value, level -> level replaced)], one per LFO (ilfo 1 is the
    first), from the PlfLfo."""
    if lcb < 4 or fc + lcb > len(table):
        return []
    count = _u32(table, fc)
    if 4 + 16 * count > lcb:
        raise _Damaged
    heads = [(_i32(table, fc + 4 + 16 * k), table[fc + 4 + 16 * k + 12]) for k in range(count)]
    at = fc + 4 + 16 * count
    out = []
    for lsid, n_levels in heads:  # LFOData: cp, then one LFOLVL per overridden level
        at += 4
        starts: dict[int, int] = {}
        replaced: dict[int, dict] = {}
        for _ in range(n_levels):
            start = _i32(table, at)
            flags = _u32(table, at + 4)
            at += 8
            level = flags & 0x0F
            if flags & 0x20:  # fFormatting: a whole LVL follows; its start counts with fStartAt only
                replaced[level], at = _level(table, at)
                if flags & 0x10:
                    starts[level] = replaced[level]["start"]
                else:
                    replaced[level]["start"] = None  # the list's own start value
            elif flags & 0x10:  # fStartAt
                starts[level] = start
        out.append((lsid, starts, replaced))
    return out


# -- paragraph properties --------------------------------------------------------------------

def _sprm_size(grpprl: bytes, at: int, sprm: int) -> int:
    """Bytes of the operand of ``sprm`` whose operand starts at ``at``."""
    spra = sprm >> 13
    if spra in (0, 1):
        return 1
    if spra in (2, 4, 5):
        return 2
    if spra == 3:
        return 4
    if spra == 7:
        return 3
    if sprm in _SPRM_DEF_TABLE:
        return 2 + _u16(grpprl, at) - 1
    if at >= len(grpprl):
        raise _Damaged
    cb = grpprl[at]
    if sprm == _SPRM_CHG_TABS and cb == 255 and at + 1 < len(grpprl):  # PChgTabsDelClose + PChgTabsAdd
        deleted = grpprl[at + 1]
        add_at = at + 2 + 4 * deleted
        if add_at >= len(grpprl):
            raise _Damaged
        return 2 + 4 * deleted + 1 + 3 * grpprl[add_at]
    return 1 + cb


def _list_sprms(grpprl: bytes) -> tuple[int | None, int | None]:
    """(ilfo, ilvl) a grpprl sets, each None when it sets none."""
    ilfo = ilvl = None
    at = 0
    while at + 2 <= len(grpprl):
        sprm = grpprl[at] | grpprl[at + 1] << 8
        at += 2
        size = _sprm_size(grpprl, at, sprm)
        if size < 0 or at + size > len(grpprl):
            break
        if sprm == _SPRM_ILFO and size == 2:
            ilfo = struct.unpack_from("<h", grpprl, at)[0]
        elif sprm == _SPRM_ILVL:
            ilvl = grpprl[at]
        at += size
    return ilfo, ilvl


def _papx_runs(word: bytes, table: bytes, fc: int,
               lcb: int) -> tuple[list[int], list[tuple[int, int, int | None, int | None]]]:
    """Paragraph runs of the PAPX pages: (their start FCs, [(end FC, istd, ilfo, ilvl)])."""
    if lcb < 4 or fc + lcb > len(table):
        return [], []
    n = (lcb - 4) // 8
    starts: list[int] = []
    runs: list[tuple[int, int, int | None, int | None]] = []
    seen: set[int] = set()  # a page named twice is read once: the work stays within the stream's size
    for k in range(n):
        page = (_u32(table, fc + 4 * (n + 1) + 4 * k) & 0x3FFFFF) * 512
        if page + 512 > len(word):
            raise _Damaged
        if page in seen:
            continue
        seen.add(page)
        fkp = word[page:page + 512]
        crun = fkp[511]
        if 4 * (crun + 1) + 13 * crun > 511:
            raise _Damaged
        fcs = struct.unpack_from(f"<{crun + 1}I", fkp, 0)
        read: dict[int, tuple[int, int | None, int | None]] = {}  # paragraphs of a page share PAPXs
        for j in range(crun):
            offset = 2 * fkp[4 * (crun + 1) + 13 * j]
            if offset in read:
                starts.append(fcs[j])
                runs.append((fcs[j + 1], *read[offset]))
                continue
            istd, ilfo, ilvl = 0, None, None
            if offset:
                cb = fkp[offset]
                if cb:
                    body, size = offset + 1, 2 * cb - 1
                else:
                    body, size = offset + 2, 2 * fkp[offset + 1]
                body_end = min(body + size, 511)
                if body + 2 <= body_end:
                    istd = _u16(fkp, body)
                    ilfo, ilvl = _list_sprms(fkp[body + 2:body_end])
            read[offset] = (istd, ilfo, ilvl)
            starts.append(fcs[j])
            runs.append((fcs[j + 1], istd, ilfo, ilvl))
    order = sorted(range(len(starts)), key=starts.__getitem__)
    return [starts[k] for k in order], [runs[k] for k in order]


def _style_lists(table: bytes, fc: int, lcb: int) -> dict[int, tuple[int | None, int | None]]:
    """istd -> (ilfo, ilvl) its paragraph style gives, itself or through the styles it is based
    on (the style sheet: STSHI, then one STD per style)."""
    if lcb < 2 or fc + lcb > len(table):
        return {}
    end = fc + lcb
    cb_stshi = _u16(table, fc)
    if cb_stshi < 4:
        return {}
    count = _u16(table, fc + 2)
    base_size = _u16(table, fc + 4)
    at = fc + 2 + cb_stshi
    own: dict[int, tuple[int, int | None, int | None]] = {}  # istd -> (based on, ilfo, ilvl)
    for istd in range(count):
        if at + 2 > end:
            break
        cb = _u16(table, at)
        std, at = at + 2, at + 2 + cb
        if cb == 0 or at > end or cb < base_size:
            continue
        kind, base = _u16(table, std + 2) & 0x0F, _u16(table, std + 2) >> 4
        if kind != 1:  # not a paragraph style
            continue
        name = std + base_size
        cch = _u16(table, name)
        upx = name + 2 + 2 * cch + 2
        upx += (upx - std) & 1  # each UPX starts at an even offset of the STD
        if upx + 2 > at:
            continue
        cb_upx = _u16(table, upx)
        if upx + 2 + cb_upx > at or cb_upx < 2:
            continue
        ilfo, ilvl = _list_sprms(table[upx + 4:upx + 2 + cb_upx])
        own[istd] = (base, ilfo, ilvl)
    out = {}
    for istd in own:
        ilfo = ilvl = None
        current, depth = istd, 0
        while current in own and depth < 11:
            base, f, v = own[current]
            ilfo = f if ilfo is None else ilfo
            ilvl = v if ilvl is None else ilvl
            if ilfo is not None and ilvl is not None:
                break
            current, depth = base, depth + 1
        if ilfo:
            out[istd] = (ilfo, ilvl)
    return out


# -- numbering -------------------------------------------------------------------------------

class _Counter:
    """Word's counters, as LibreOffice, whose reading follows Word's, keeps them: one per list
    and level, shared by every list instance (LFO) of the list, and one of its own for an LFO
    that gives a level other formatting. An LFO that only overrides a level's start value
    starts the list's count again at that value at the LFO's first paragraph, if that
    paragraph is of that level."""

    def __init__(self, lists: dict[int, dict[int, dict]], overrides) -> None:
        self.lists = lists
        self.overrides = overrides
        self.counts: dict[tuple[str, int], dict[int, int]] = {}
        self._levels: dict[int, tuple[dict[int, dict], bool]] = {}  # ilfo -> (its levels, counted apart?)
        self._used: set[int] = set()

    def _levels_of(self, ilfo: int, lsid: int, replaced: dict[int, dict]) -> tuple[dict[int, dict], bool]:
        found = self._levels.get(ilfo)
        if found is None:
            own = self.lists.get(lsid, {})
            levels, apart = dict(own), False
            for k, spec in replaced.items():
                base = own.get(k)
                if spec["start"] is None:
                    spec = {**spec, "start": base["start"] if base else 1}
                levels[k] = spec
                apart = apart or base is None or any(spec[f] != base[f] for f in spec if f != "start")
            found = self._levels[ilfo] = (levels, apart)
        return found

    def label(self, ilfo: int, level: int) -> str:
        if not 0 < ilfo <= len(self.overrides):
            return ""
        lsid, starts, replaced = self.overrides[ilfo - 1]
        levels, apart = self._levels_of(ilfo, lsid, replaced)
        spec = levels.get(level)
        if spec is None:
            return ""
        first_use = ilfo not in self._used
        self._used.add(ilfo)
        if apart:
            counts = self.counts.setdefault(("lfo", ilfo), {})
            counts[level] = counts[level] + 1 if level in counts else starts.get(level, spec["start"])
        else:
            counts = self.counts.setdefault(("list", lsid), {})
            if first_use and level in starts:
                counts[level] = starts[level]
            else:
                counts[level] = counts[level] + 1 if level in counts else spec["start"]
        for deeper in [k for k in counts if k > level] if len(counts) > 1 else ():
            limit = levels.get(deeper, {}).get("restart_lim")
            if limit is None or level < limit:
                del counts[deeper]
        if spec["fmt"] == "bullet":
            text = "".join(_BULLET if "\ue000" <= ch <= "\uf8ff" else ch for ch in spec["text"]) or _BULLET
        else:
            out = []
            for ch in spec["text"]:
                k = ord(ch)
                if k < 9:
                    other = levels.get(k, {"start": 1, "fmt": "decimal"})
                    value = counts.get(k, starts.get(k, other["start"]) if apart else other["start"])
                    fmt = "decimal" if spec["legal"] and other["fmt"] != "none" else other["fmt"]
                    out.append(format_number(value, fmt))
                else:
                    out.append(ch)
            text = "".join(out)
        if not text.strip():
            return ""
        return text + spec["follow"]


def _paragraphs(word: bytes, pieces, ccp_text: int):
    """The main text's paragraphs in order: (text, FC of the paragraph's mark). A table cell's
    end (0x07) ends its paragraph as a paragraph mark does."""
    text: list[str] = []
    for cp, start, count, narrow in sorted(pieces, key=lambda p: p[0]):
        if cp >= ccp_text:
            break
        count = min(count, ccp_text - cp)
        width = 1 if narrow else 2
        raw = word[start:start + count * width]
        chunk = raw.decode("cp1252", "replace") if narrow else raw.decode("utf-16-le", "replace")
        pos = 0
        for mark in _PARAGRAPH_END.finditer(chunk):
            end = mark.start()
            text.append(chunk[pos:end])
            yield "".join(text), start + end * width
            text = []
            pos = end + 1
        text.append(chunk[pos:])


def _key(text: str) -> str:
    """What a paragraph and catdoc's line of it share: their letters and digits, run together
    (catdoc leaves out soft hyphens and writes some signs otherwise)."""
    return _NOT_WORD.sub("", text)


def labelled_paragraphs(word: bytes, table: bytes, pieces) -> list[tuple[str, str]]:
    """[(the letters and digits of a paragraph of the main text, its list label or "")], in
    document order, for a Word 97-2003 WordDocument stream ``word`` (its field codes already
    blanked), its table stream and its pieces [(cp, byte offset, characters, 8-bit?)]; [] when
    the document has no list. Raises nothing but what a damaged structure does (caller: numbers
    left out)."""
    lst_fc, lst_lcb = _fc_lcb(word, _PLF_LST)
    lfo_fc, lfo_lcb = _fc_lcb(word, _PLF_LFO)
    lists = _lists(table, lst_fc, lst_lcb)
    overrides = _overrides(table, lfo_fc, lfo_lcb)
    if not lists or not overrides:
        return []
    fc_starts, runs = _papx_runs(word, table, *_fc_lcb(word, _BTE_PAPX))
    if not runs:
        return []
    styles = _style_lists(table, *_fc_lcb(word, _STSHF))
    counter = _Counter(lists, overrides)
    ccp_text = _u32(word, 34 + 2 * _u16(word, 32) + 2 + 12)  # FibRgLw97.ccpText, after csw words
    out = []
    for text, fc in _paragraphs(word, pieces, ccp_text):
        k = bisect_right(fc_starts, fc) - 1
        label = ""
        if k >= 0 and fc < runs[k][0]:
            _, istd, ilfo, ilvl = runs[k]
            style_lfo, style_lvl = styles.get(istd, (None, None))
            if ilfo is None:
                ilfo = style_lfo
            if ilvl is None:
                ilvl = style_lvl
            if ilfo and ilfo > 0 and (ilvl or 0) <= 8:  # level 9 or more: body text, no number
                label = counter.label(ilfo, ilvl or 0)
        out.append((_key(text.split("\x0b", 1)[0]), label))
    return out


def number_lines(text: str, paragraphs: list[tuple[str, str]]) -> str:
    """catdoc's ``text`` with each label written before the paragraph it belongs to. Paragraphs
    are matched in order, by their letters and digits, with catdoc's lines or, in a table
    (where catdoc ends a cell with a tab and the cell's last paragraph shares a line with the
    next cell), with the tab-separated parts of a line. A paragraph catdoc wrote otherwise, or
    one with no words, keeps its number unwritten; the text is otherwise as catdoc gave it."""
    if not any(label for _, label in paragraphs):
        return text
    lines = text.split("\n")
    units: list[tuple[int, int]] = []  # (line, offset in it) of each line and each part of a line
    whole: set[int] = set()  # the units that are a whole line with parts: matched, the parts are done
    line_end: list[int] = []  # line -> the first unit of the next line
    where: dict[str, list[int]] = {}
    for k, line in enumerate(lines):
        if "\t" not in line:
            key = _key(line)
            if key:
                where.setdefault(key, []).append(len(units))
                units.append((k, 0))
            line_end.append(len(units))
            continue
        starts = [0] + [m.end() for m in _TAB.finditer(line)]
        ends = [s - 1 for s in starts[1:]] + [len(line)]
        spans = [(0, len(line))] + list(zip(starts, ends))
        for n, (begin, end) in enumerate(spans):
            key = _key(line[begin:end])
            if key:
                if n == 0 and len(spans) > 1:
                    whole.add(len(units))
                where.setdefault(key, []).append(len(units))
                units.append((k, begin))
        line_end.append(len(units))
    inserts: dict[int, list[tuple[int, str]]] = {}
    at = 0
    for key, label in paragraphs:
        if not key:
            continue
        found = where.get(key)
        if not found:
            continue
        j = bisect_right(found, at - 1)
        if j == len(found) or found[j] >= at + _WINDOW:
            continue
        unit = found[j]
        if label:
            line, offset = units[unit]
            inserts.setdefault(line, []).append((offset, label))
        at = line_end[units[unit][0]] if unit in whole else unit + 1
    for k, labels in inserts.items():
        line, parts, done = lines[k], [], 0
        for offset, label in sorted(labels):
            parts += [line[done:offset], label]
            done = offset
        lines[k] = "".join(parts) + line[done:]
    return "\n".join(lines)
