"""Plain text (.txt, .md): encoding detection and decoding.

Order of decisions, first match wins:

1. a byte-order mark (UTF-8, UTF-16, UTF-32);
2. binary data (many control bytes) is refused; UTF-16 without a BOM is recognised by
   its pattern of zero bytes;
3. valid UTF-8; else, line by line (:func:`_mixed`): every line with a non-ASCII character
   UTF-8 but for a few stray bytes (at most half its non-ASCII characters broken) -> UTF-8, the
   stray bytes U+FFFD with a warning; UTF-8 lines beside lines of a single-byte page (two files
   pasted together) -> each line in its own encoding, with a warning;
4. a CJK code page when charset-normalizer names one that decodes the whole file into
   mostly characters of two bytes (half-width katakana, one byte in Shift-JIS, are what
   KOI8-R's small letters make there); else a single-byte Cyrillic code page when the text
   looks Cyrillic under CP1251: CP1251, KOI8-R, CP866, Mac Cyrillic, ISO-8859-5 (and
   charset-normalizer's guess) are compared by how Russian/Ukrainian the decoded text looks
   (letter frequencies, case pattern of words). Decoding CP1251 bytes as KOI8-R (or the
   reverse) swaps upper and lower case and scrambles the letters, so the right and the wrong
   reading score far apart even for a single short line;
5. otherwise charset-normalizer's best guess, CP1252 when the guess is another Western
   single-byte page that short texts cannot tell apart from it (or when there is no guess).
"""

from __future__ import annotations

import codecs
import math
import re
from collections import Counter
from dataclasses import dataclass

from ..messages import Message, message

#: Bytes looked at to decide whether a file is binary or which encoding it uses.
SNIFF_BYTES = 256 * 1024
#: Bytes decoded under each candidate Cyrillic code page to score it.
SCORE_BYTES = 64 * 1024
#: Share of control bytes (other than tab, newlines, form feed, escape) above which a file is binary.
BINARY_CONTROL_SHARE = 0.05
#: Share of broken sequences among non-ASCII characters below which a file is still taken as UTF-8.
UTF8_MAX_BROKEN_SHARE = 0.05

_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32-le"),
    (codecs.BOM_UTF32_BE, "utf-32-be"),
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)
_CONTROL = bytes(b for b in range(32) if b not in (9, 10, 12, 13, 27)) + b"\x7f"
# Candidates in order of preference when they score the same (KOI8-U reads Russian KOI8-R text identically).
_CYRILLIC_CODECS = ("cp1251", "koi8_r", "koi8_u", "cp866", "mac_cyrillic", "iso8859_5")
_CYRILLIC_FAMILY = {"cp1251", "koi8_r", "koi8_u", "cp866", "mac_cyrillic", "iso8859_5", "kz1048", "ptcp154"}
# Letter frequencies of Russian prose (Ukrainian letters added), per mille; the basis of
# _russian_score. Letters not listed count as rare.
_FREQ = {
    "о": 110, "е": 85, "а": 80, "и": 74, "н": 67, "т": 63, "с": 55, "р": 47, "в": 45, "л": 44,
    "к": 35, "м": 32, "д": 30, "п": 28, "у": 26, "я": 20, "ы": 19, "ь": 17, "г": 17, "з": 16,
    "б": 16, "ч": 14, "й": 12, "х": 10, "ж": 9, "ш": 7, "ю": 6, "ц": 5, "щ": 4, "э": 3, "ф": 3,
    "ё": 3, "ъ": 1, "і": 30, "ї": 6, "є": 4, "ґ": 1,
}
_LOG_FREQ = {ch: math.log(n / 1000) for ch, n in _FREQ.items()}
_LOG_RARE = math.log(0.3 / 1000)
# Non-ASCII punctuation common in Russian text (not a sign of a wrong code page).
_PUNCTUATION = set("«»„“”‘’–—…№\u00a0·•°§©®™")
#: Their log-frequency in _russian_score: below most letters, above a rare one.
_LOG_PUNCTUATION = math.log(5 / 1000)
#: A Cyrillic word of one letter not followed by a full stop (an initial, "г.", "т. е."), and
#: the letters that are such a word in Russian or Ukrainian (particles "б", "ж" included).
_ONE_LETTER = re.compile(r"(?<!\w)[\u0400-\u04ff](?![\w.])")
_ONE_LETTER_WORDS = set("абвжиксоуяєзіїй")
#: A sentence (or line) that starts with a character neither ASCII nor a letter glued to a small
#: Cyrillic letter: its capital read as punctuation ("‘едеральное", "™ука").
_LOST_CAPITAL = re.compile(r"(?:^|[.!?…]\s)\s*[^\x00-\x7f\w\s][а-яёіїєґ]", re.M)
_LATIN_FAMILY = {"cp1252", "latin_1", "iso8859_15", "cp1250", "iso8859_2", "cp1257", "iso8859_4", "iso8859_13",
                 "cp1254", "iso8859_9", "mac_roman", "cp850", "cp437", "mac_latin2", "iso8859_3", "iso8859_10"}
_WORD = re.compile(r"[^\W\d_]+")


@dataclass(frozen=True)
class Decoded:
    text: str
    encoding: str
    warnings: tuple[Message, ...] = ()


class BinaryData(ValueError):
    """The bytes are not text in any encoding Sverka knows."""


def decode_bytes(data: bytes) -> Decoded:
    """Decode the bytes of a text file (see the module docstring for the rules)."""
    for bom, enc in _BOMS:
        if data.startswith(bom):
            text = data[len(bom):].decode(enc, errors="replace")
            return _with_replacement_warning(text, enc, bom=True)

    head = data[:SNIFF_BYTES]
    utf16 = _utf16_without_bom(head)
    if utf16:
        return _with_replacement_warning(data.decode(utf16, errors="replace"), utf16)
    if head and len(head) - len(head.translate(None, _CONTROL)) > BINARY_CONTROL_SHARE * len(head):
        raise BinaryData("binary data, not text")

    try:
        return Decoded(data.decode("utf-8"), "utf-8")
    except UnicodeDecodeError:
        pass
    mixed = _mixed(data)
    if mixed is not None:
        return mixed
    sample = head.decode("utf-8", errors="replace")
    broken = sample.count("\ufffd")
    non_ascii = sum(1 for ch in sample if ord(ch) > 127)
    if broken <= UTF8_MAX_BROKEN_SHARE * non_ascii:
        return _with_replacement_warning(data.decode("utf-8", errors="replace"), "utf-8")
    return _single_byte(data, head)


#: Characters of other scripts, in lines valid as UTF-8, that show a file not UTF-8 as a whole
#: holds UTF-8 text (no line of CP1251, KOI8-R or CP866 Cyrillic is valid UTF-8 by chance).
MIXED_MIN_UTF8_CHARS = 8


def _mixed(data: bytes) -> Decoded | None:
    """Text whose lines are partly UTF-8, partly in one single-byte code page (an essay in
    UTF-8 with a part pasted from a CP1251 file, or the reverse, anywhere in the file): each
    line read in its own encoding, with a warning; UTF-8 with its broken sequences replaced when
    every line is UTF-8 but for a few stray bytes; None when no line is UTF-8.

    A line is UTF-8 when at most half of its characters beyond ASCII come out broken (a UTF-8
    essay with guillemets typed in CP1251 stays UTF-8, its stray bytes replaced); Cyrillic in a
    single-byte page comes out all broken."""
    lines = data.splitlines(keepends=True)
    utf8_chars = 0
    kinds = []  # None: ASCII; True: UTF-8; False: a single-byte page
    for line in lines:
        if line.isascii():
            kinds.append(None)
            continue
        decoded = line.decode("utf-8", errors="replace")
        broken = decoded.count("\ufffd")
        beyond = len(decoded) - len(decoded.encode("ascii", "ignore"))  # characters beyond ASCII
        if broken == 0:
            utf8_chars += beyond
        kinds.append(2 * broken <= beyond)
    if False not in kinds:  # every line mostly UTF-8: stray bytes of another page, replaced
        return _with_replacement_warning(data.decode("utf-8", errors="replace"), "utf-8")
    if utf8_chars < MIXED_MIN_UTF8_CHARS:
        return None
    rest = b"".join(line for line, k in zip(lines, kinds) if k is False)
    enc = _single_byte(rest, rest[:SNIFF_BYTES]).encoding
    text = "".join(line.decode("utf-8", errors="replace") if k is not False else line.decode(enc, errors="replace")
                   for line, k in zip(lines, kinds))
    n_utf8 = sum(1 for k in kinds if k)
    return Decoded(text, f"utf-8+{enc}", (message("warning.mixed_encodings", n=n_utf8, count=kinds.count(False),
                                                  encoding=enc),))


def _single_byte(data: bytes, head: bytes) -> Decoded:
    """A text in one single-byte code page (or a CJK one): which, and the text."""
    guess = _charset_normalizer_guess(head)
    if guess in _CJK_FAMILY:
        # Two-byte CJK text also "looks Cyrillic" under CP1251 (every byte is high); when
        # charset-normalizer names a CJK code page that decodes the whole file, it wins.
        # A few Russian words also decode as a few CJK characters: ask for enough of them.
        try:
            text = data.decode(guess)
        except UnicodeDecodeError:
            text = ""
        sample = text[:SNIFF_BYTES]
        cjk = len(_TWO_BYTE_CJK.findall(sample))
        if cjk >= CJK_MIN_CHARS and 2 * cjk >= len(sample) - len(sample.encode("ascii", "ignore")):
            return Decoded(text, guess)
    cp1251_sample = head.decode("cp1251", errors="replace")
    if guess in _CYRILLIC_FAMILY or _looks_cyrillic(cp1251_sample):
        candidates = list(_CYRILLIC_CODECS)
        if guess in _CYRILLIC_FAMILY and guess not in candidates:
            candidates.append(guess)
        probe = head[:SCORE_BYTES]
        high = Counter(b for b in probe if b >= 0x80)
        best = max(candidates, key=lambda enc: (_russian_score(probe, high, enc), -candidates.index(enc)))
        return _with_replacement_warning(data.decode(best, errors="replace"), best)
    enc = guess or "cp1252"
    if enc in _LATIN_FAMILY and enc != "cp1252":
        # Western single-byte pages are hard to tell apart on a short text; Sverka's Latin
        # languages are written in CP1252, so prefer it whenever it decodes the bytes.
        try:
            return Decoded(data.decode("cp1252"), "cp1252")
        except UnicodeDecodeError:
            pass
    return _with_replacement_warning(data.decode(enc, errors="replace"), enc)


#: CJK characters a CJK decoding must yield before it beats the Cyrillic code pages.
CJK_MIN_CHARS = 20
#: The multi-byte code pages charset-normalizer may name (it names EUC-JP text "euc_jis_2004").
_CJK_FAMILY = {"gb18030", "gbk", "gb2312", "big5", "big5hkscs", "cp950", "shift_jis", "cp932", "shift_jis_2004",
               "shift_jisx0213", "euc_jp", "euc_jis_2004", "euc_jisx0213", "euc_kr", "cp949", "johab"}
#: A character of a CJK script that a CJK code page makes of two bytes or more: the evidence
#: that bytes are CJK text. Not half-width katakana (U+FF61-FF9F) nor the private use area,
#: which Shift-JIS (cp932) makes of ONE high byte: KOI8-R's small letters 0xC0-0xDF are
#: exactly its half-width katakana, so any KOI8-R text decodes as Shift-JIS.
_TWO_BYTE_CJK = re.compile("[\u2e80-\ud7ff\uf900-\uff60\uffa0-\uffff\U00010000-\U0010ffff]")


def _with_replacement_warning(text: str, encoding: str, bom: bool = False) -> Decoded:
    n = text.count("\ufffd")
    name = f"{encoding} (with BOM)" if bom else encoding
    warnings = (message("warning.bytes_replaced", n=n, encoding=encoding),) if n else ()
    return Decoded(text, name, warnings)


def _utf16_without_bom(head: bytes) -> str | None:
    """'utf-16-le'/'utf-16-be' when every other byte comes from a tiny set (the high bytes of one script)."""
    if len(head) < 16 or b"\x00" not in head:
        return None
    n = len(head) - len(head) % 2
    for enc, high in (("utf-16-le", head[1:n:2]), ("utf-16-be", head[0:n:2])):
        top2 = sorted((high.count(bytes([b])) for b in set(high)), reverse=True)[:2]
        # Prose in a non-Latin script (Russian: high bytes 0x04) still has spaces and
        # punctuation, whose high byte is 0x00; 5 % of them is far below any real text.
        if sum(top2) >= 0.95 * len(high) and high.count(b"\x00") >= 0.05 * len(high):
            text = head[:n].decode(enc, errors="replace")
            printable = sum(ch.isprintable() or ch in "\t\n\r\f" for ch in text)
            letters = sum(ch.isalpha() for ch in text)
            if printable >= 0.95 * len(text) and letters >= 0.5 * len(text):
                return enc
    return None


def _charset_normalizer_guess(head: bytes) -> str | None:
    from charset_normalizer import from_bytes

    best = from_bytes(head).best()
    if best is None:
        return None
    return codecs.lookup(best.encoding).name.replace("-", "_")


def _looks_cyrillic(text: str) -> bool:
    """Most words that contain non-ASCII letters are wholly Cyrillic (not Latin words with accents)."""
    words = [w for w in _WORD.findall(text[:SNIFF_BYTES]) if not w.isascii()]
    if not words:
        return False
    cyrillic = sum(1 for w in words if all("\u0400" <= ch <= "\u04ff" for ch in w))
    return cyrillic >= 0.5 * len(words)


def _russian_score(probe: bytes, high: Counter, encoding: str) -> float:
    """How Russian/Ukrainian ``probe`` (whose bytes beyond ASCII ``high`` counts) looks read in
    the single-byte ``encoding``; higher is better.

    The mean log-frequency of its characters beyond ASCII (one of each high byte, so every
    candidate's mean is over the same bytes; summed from the count of each byte): a Cyrillic
    letter by its frequency, common punctuation as a letter of middle frequency, anything else
    as a rare letter. A mean over the letters alone would favour a reading that turns some
    letters into punctuation: CP1251 and Mac Cyrillic share their small letters and make
    quotation marks, dashes or "ƒ" of each other's capitals. Minus penalties for words in a
    broken case pattern ("пРИВЕТ": what the wrong code page makes of "Привет") or of one letter
    that no Russian or Ukrainian word is (the "Ч" Mac Cyrillic makes of CP1251's dash), for
    sentences whose capital came out as punctuation ("–ель работы"), and for non-ASCII
    characters that are neither letters nor punctuation (box drawing: what CP866 makes of CP1251
    letters).
    """
    non_ascii = other = letters = 0
    logp = 0.0
    for byte, n in high.items():
        ch = bytes((byte,)).decode(encoding, errors="replace")
        non_ascii += n
        if "\u0400" <= ch <= "\u04ff" and ch.isalpha():
            letters += n
            logp += n * _LOG_FREQ.get(ch.lower(), _LOG_RARE)
        elif ch in _PUNCTUATION:
            logp += n * _LOG_PUNCTUATION
        else:
            logp += n * _LOG_RARE
            other += n * (not ch.isalpha())
    if not letters:
        return float("-inf")
    text = probe.decode(encoding, errors="replace")
    words = [w for w in _WORD.findall(text) if not w.isascii()]
    broken = sum(1 for w in words if not (w.islower() or w.isupper() or w.istitle()))
    broken += sum(1 for w in _ONE_LETTER.findall(text) if w.lower() not in _ONE_LETTER_WORDS)
    broken += len(_LOST_CAPITAL.findall(text))
    return logp / non_ascii - 3.0 * broken / max(len(words), 1) - 5.0 * other / non_ascii
