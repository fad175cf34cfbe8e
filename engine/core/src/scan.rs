//! The words of an ordinary text, found from a table of the BMP's characters, with a hash of
//! each word exactly as written, and the index from those hashes to the canonizer's entries
//! (`sverka.core.scan`, whose module docstring defines what an ordinary text is).
//!
//! A word is a run of letters and combining marks starting with a letter. [`words`] answers
//! `None` for a text that needs the canonizer's regular expression: a character beyond
//! U+FFFF, a run of format characters that may join two words (after a word and before a
//! letter or hyphen, or holding a soft hyphen), a combining mark that follows no letter, or a
//! hyphen after a word with a line break and then a letter, format character or hyphen.
//! Offsets count code points, as Python's `str` does.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// Classes of a BMP character in the table the caller gives (built by Python from
/// `str.isalpha` and `unicodedata`, so that one definition of a letter serves every path).
pub const LETTER: u8 = 1;
pub const MARK: u8 = 2;
pub const HYPHEN: u8 = 4;
pub const FORMAT: u8 = 8;
/// Words longer than this (code points) get hash 0: looked up by their string.
pub const MAX_HASHED: usize = 255;
const SOFT_HYPHEN: u32 = 0xAD;

#[inline]
fn is_line_break(c: u32) -> bool {
    matches!(c, 0x0A | 0x0D | 0x0B | 0x0C | 0x85 | 0x2028)
}

#[inline]
fn is_blank(c: u32) -> bool {
    c == 0x20 || c == 0x09
}

/// The words' `(starts, ends)` in code points, or `None` (see the module docs). `classes`
/// holds the class of every BMP character (65 536 entries).
pub fn bounds(cps: &[u32], classes: &[u8]) -> Option<(Vec<i64>, Vec<i64>)> {
    let classes: &[u8; 0x10000] = classes.try_into().expect("the class table covers the BMP");
    let n = cps.len();
    let class = |i: usize| -> u8 { classes[(cps[i] & 0xFFFF) as usize] }; // (all <= 0xFFFF here)
    if cps.iter().any(|&c| c > 0xFFFF) {
        return None;
    }
    let mut starts = Vec::with_capacity(n / 6 + 1);
    let mut ends = Vec::with_capacity(n / 6 + 1);
    let mut i = 0;
    while i < n {
        let k = class(i);
        if k & (LETTER | MARK) != 0 {
            if k != LETTER {
                return None; // a mark that follows no letter
            }
            let start = i;
            i += 1;
            while i < n && class(i) & (LETTER | MARK) != 0 {
                i += 1;
            }
            starts.push(start as i64);
            ends.push(i as i64);
            continue;
        }
        if k == FORMAT {
            let first = i;
            let mut soft = false;
            while i < n && class(i) == FORMAT {
                soft |= cps[i] == SOFT_HYPHEN;
                i += 1;
            }
            let before = first > 0 && class(first - 1) & (LETTER | MARK) != 0;
            let after = soft || (i < n && class(i) & (LETTER | HYPHEN) != 0);
            if before && after {
                return None;
            }
            continue;
        }
        if k == HYPHEN
            && i > 0
            && class(i - 1) & (LETTER | MARK) != 0
            && (i + 1 == n || is_blank(cps[i + 1]) || is_line_break(cps[i + 1]))
            && joins_across_line_end(cps, i, classes)
        {
            return None;
        }
        i += 1;
    }
    Some((starts, ends))
}

/// Whether the hyphen at `at` (right after a word) is followed by blanks, a line break,
/// blanks and then a letter, a format character or another hyphen.
fn joins_across_line_end(cps: &[u32], at: usize, classes: &[u8; 0x10000]) -> bool {
    let n = cps.len();
    let mut i = at + 1;
    while i < n && is_blank(cps[i]) {
        i += 1;
    }
    if i + 1 < n && cps[i] == 0x0D && cps[i + 1] == 0x0A {
        i += 2;
    } else if i < n && is_line_break(cps[i]) {
        i += 1;
    } else {
        return false;
    }
    while i < n && is_blank(cps[i]) {
        i += 1;
    }
    if i >= n {
        return false;
    }
    cps[i] > 0xFFFF || classes[cps[i] as usize] & (LETTER | FORMAT | HYPHEN) != 0
}

/// The hash of a word (its code points) under `seed`: never 0; 0 for an empty word, one
/// longer than [`MAX_HASHED`] or holding a character beyond U+FFFF (never hashed).
#[inline]
pub fn word_hash(word: &[u32], seed: u64) -> u64 {
    word_hash_with(&mut [0u8; 2 * MAX_HASHED], word, seed)
}

/// [`word_hash`] with a buffer the caller keeps from word to word (xxh3 of the UTF-16 units).
#[inline]
fn word_hash_with(buffer: &mut [u8; 2 * MAX_HASHED], word: &[u32], seed: u64) -> u64 {
    if word.is_empty() || word.len() > MAX_HASHED || word.iter().any(|&c| c > 0xFFFF) {
        return 0;
    }
    for (unit, &c) in buffer.chunks_exact_mut(2).zip(word) {
        unit.copy_from_slice(&(c as u16).to_le_bytes());
    }
    xxhash_rust::xxh3::xxh3_64_with_seed(&buffer[..2 * word.len()], seed) | 1
}

/// The [`word_hash`] of every span `cps[starts[k]..ends[k]]`.
pub fn span_hashes(cps: &[u32], starts: &[i64], ends: &[i64], seed: u64) -> Vec<u64> {
    let mut buffer = [0u8; 2 * MAX_HASHED];
    starts.iter().zip(ends).map(|(&s, &e)| word_hash_with(&mut buffer, &cps[s as usize..e as usize], seed)).collect()
}

/// [`bounds`] and the [`word_hash`] of every word.
pub fn words(cps: &[u32], classes: &[u8], seed: u64) -> Option<(Vec<i64>, Vec<i64>, Vec<u64>)> {
    let (starts, ends) = bounds(cps, classes)?;
    let hashes = span_hashes(cps, &starts, &ends, seed);
    Some((starts, ends, hashes))
}

/// The [`word_hash`] of each span `cps[ends[k-1]..ends[k]]` (the first from 0): strings
/// given one after another.
pub fn hash_strings(cps: &[u32], ends: &[i64], seed: u64) -> Vec<u64> {
    let starts: Vec<i64> = std::iter::once(0).chain(ends.iter().copied()).take(ends.len()).collect();
    span_hashes(cps, &starts, ends, seed)
}

/// Keys that are already random 64-bit hashes need no hashing again.
#[derive(Default)]
pub struct KeyIsHash(u64);

impl Hasher for KeyIsHash {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 << 8) | u64::from(b);
        }
    }
    fn write_u64(&mut self, v: u64) {
        self.0 = v;
    }
}

/// Word hash (never 0) -> entry id of the canonizer's table of raw forms.
#[derive(Default)]
pub struct HashIndex {
    map: HashMap<u64, i64, BuildHasherDefault<KeyIsHash>>,
}

impl HashIndex {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn len(&self) -> usize {
        self.map.len()
    }

    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }

    /// The id of each hash, -1 for one not in the index (and for 0).
    pub fn get(&self, hashes: &[u64]) -> Vec<i64> {
        hashes.iter().map(|h| self.map.get(h).copied().unwrap_or(-1)).collect()
    }

    /// Sets the id of each hash (0 skipped); a hash given again gets the later id, as a dict.
    pub fn add(&mut self, hashes: &[u64], ids: &[i64]) {
        self.map.reserve(hashes.len());
        for (&h, &id) in hashes.iter().zip(ids) {
            if h != 0 {
                self.map.insert(h, id);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A tiny class table: Latin and Cyrillic letters, the stress mark, the format
    /// characters U+200B and U+00AD, the hyphens.
    fn classes() -> Vec<u8> {
        let mut t = vec![0u8; 0x10000];
        for c in ('a'..='z').chain('а'..='я').chain('А'..='Я') {
            t[c as usize] = LETTER;
        }
        t[0x301] = MARK;
        t[0x200B] = FORMAT;
        t[0xAD] = FORMAT;
        t[0x2D] = HYPHEN;
        t[0x2010] = HYPHEN;
        t
    }

    fn cps(s: &str) -> Vec<u32> {
        s.chars().map(u32::from).collect()
    }

    #[test]
    fn words_by_hand() {
        let t = classes();
        let (s, e) = bounds(&cps("Кни\u{301}га на столе, кто-то."), &t).unwrap();
        assert_eq!(s, vec![0, 7, 10, 17, 21]); // "Кни́га" holds its stress mark: 6 code points
        assert_eq!(e, vec![6, 9, 15, 20, 23]);
        assert!(bounds(&cps(""), &t).unwrap().0.is_empty());
    }

    #[test]
    fn declines_what_needs_the_regular_expression() {
        let t = classes();
        for text in ["кни-\nга", "кни- \r\n га", "сло\u{200b}во", "сло\u{ad}во", "a \u{301}b", "ok 😀", "слово-\n-\nслово"] {
            assert!(bounds(&cps(text), &t).is_none(), "{text:?}");
        }
        for text in ["кни-  ", "конец-\n\nНовый", "дом-\n1", "\u{200b}слово", "слово\u{200b} слово"] {
            assert!(bounds(&cps(text), &t).is_some(), "{text:?}");
        }
    }

    #[test]
    fn hashes_of_words_and_strings_agree() {
        let t = classes();
        let text = cps("слово за словом и за");
        let (s, e, h) = words(&text, &t, 77).unwrap();
        assert_eq!(h[1], h[4]); // "за" twice
        assert_ne!(h[0], h[2]);
        let joined = cps("словоза");
        assert_eq!(hash_strings(&joined, &[5, 7], 77), vec![h[0], h[1]]);
        assert_ne!(words(&text, &t, 78).unwrap().2[0], h[0]); // another seed, another hash
        assert_eq!((s[1], e[1]), (6, 8));
        assert_eq!(word_hash(&vec![0x44f; MAX_HASHED + 1], 1), 0);
        assert_eq!(word_hash(&[], 1), 0);
    }

    #[test]
    fn index_is_a_dict() {
        let mut index = HashIndex::new();
        index.add(&[5, 7, 0, 5], &[1, 2, 3, 4]);
        assert_eq!(index.get(&[5, 7, 0, 9]), vec![4, 2, -1, -1]);
        assert_eq!(index.len(), 2);
    }
}
