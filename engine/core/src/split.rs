//! The sentences of a text and the marks of Ukrainian and Russian in it, for the canonizer
//! (`sverka.core.text`, whose module docstring states the rules; the regular expression this
//! replaced is the oracle of `tests/core/test_engine_split.py`).
//!
//! A sentence ends at `. ! ? …` (with the stops and closing quotes that follow) when white
//! space and then a capital follow (optionally after an opening quote, bracket or dash), at a
//! blank line, and at a paragraph separator (U+2029). A full stop after a listed
//! abbreviation or a one-letter word (but a lower-case "я") is no end. A cut is found by
//! trying every position from the left and, where one is found, going on after it and the
//! white space that follows it, as the regular expression's `split` did.
//!
//! Python keeps the definitions (what `\s`, `\w` and a letter are, which characters a letter
//! of an abbreviation matches regardless of case, the abbreviations, the marks) and hands
//! them to [`Rules::new`] as a table of every code point's classes. Offsets count code points.

use std::collections::HashMap;

/// Classes of a code point in the table of [`Rules`]: Python's `\s`, `\w`, `[^\W\d_]`.
pub const SPACE: u8 = 1;
pub const WORD: u8 = 2;
pub const WORD_LETTER: u8 = 4;
/// A mark of Ukrainian (і ї є ґ), of Russian (ы э ъ ё), a Latin i (i I ï Ï: a mark of
/// Ukrainian beside a Cyrillic letter), a Cyrillic letter a Latin i is written beside.
pub const UK_MARK: u8 = 8;
pub const RU_MARK: u8 = 16;
pub const LATIN_I: u8 = 32;
pub const BESIDE_I: u8 = 64;
/// A character [`Rules::marks`] counts (one of the `counted` of [`Rules::new`]).
pub const COUNTED: u8 = 128;

const TABLE_SIZE: usize = 0x110000;
const LINE_FEED: u32 = 0x0A;
const PARAGRAPH: u32 = 0x2029;
const YA: u32 = 0x044F; // я

#[inline]
fn is_stop(c: u32) -> bool {
    matches!(c, 0x2E | 0x21 | 0x3F | 0x2026) // . ! ? …
}

#[inline]
fn is_closing(c: u32) -> bool {
    matches!(c, 0x22 | 0x27 | 0xBB | 0x201D | 0x2019 | 0x29 | 0x5D) // " ' » ” ’ ) ]
}

#[inline]
fn is_opening(c: u32) -> bool {
    matches!(c, 0x22 | 0x27 | 0xAB | 0x201E | 0x201C | 0x28 | 0x5B | 0x2014 | 0x2013 | 0x2D) // " ' « „ “ ( [ — – -
}

/// A capital that may begin a sentence: A-Z, U+00C0-U+00DE, Greek U+0391-U+03A9, Cyrillic
/// U+0400-U+042F and Ґ.
#[inline]
fn is_capital(c: u32) -> bool {
    matches!(c, 0x41..=0x5A | 0xC0..=0xDE | 0x391..=0x3A9 | 0x400..=0x42F | 0x490)
}

/// Whether a cut may start at `c`: . ! ? … line feed, U+2029 (branch-free, so that a block
/// of characters is tested at once).
#[inline]
fn may_cut(c: u32) -> bool {
    const LOW: u64 = (1 << 0x2E) | (1 << 0x21) | (1 << 0x3F) | (1 << 0x0A);
    ((c < 64) & ((LOW >> (c & 63)) & 1 != 0)) | (c == 0x2026) | (c == PARAGRAPH)
}

/// The first position from `p` where a cut may start.
#[inline]
fn next_candidate(t: &[u32], mut p: usize) -> Option<usize> {
    const BLOCK: usize = 16;
    while p + BLOCK <= t.len() {
        if t[p..p + BLOCK].iter().fold(false, |any, &c| any | may_cut(c)) {
            break;
        }
        p += BLOCK;
    }
    t.get(p..)?.iter().position(|&c| may_cut(c)).map(|k| p + k)
}

/// What the splitter needs to know of characters and abbreviations.
pub struct Rules {
    classes: Vec<u8>,
    /// The letter of an abbreviation (lower case) each BMP character matches regardless of
    /// case, 0 for none; those beyond the BMP in `fold_beyond`.
    fold: Vec<u32>,
    fold_beyond: HashMap<u32, u32>,
    /// The longest abbreviation.
    longest: usize,
    /// The characters [`Rules::marks`] counts.
    counted: Vec<u32>,
    /// Abbreviations by length (two letters or more; lower case), shortest first.
    by_length: Vec<(usize, Vec<Vec<u32>>)>,
}

impl Rules {
    /// `classes`: the classes of every code point (0x110000 entries); `fold`: pairs (character,
    /// the abbreviations' letter it matches regardless of case); `abbreviations`: words whose
    /// full stop ends no sentence (any case; one-letter words are all such but "я").
    /// `counted`: characters whose number in a text [`Rules::marks`] gives.
    pub fn new(
        mut classes: Vec<u8>,
        fold: &[(u32, u32)],
        abbreviations: &[Vec<u32>],
        counted: &[u32],
    ) -> Result<Self, crate::Error> {
        if classes.len() != TABLE_SIZE {
            return Err(crate::error::bad(format!("the class table must cover 0x110000 code points, got {}", classes.len())));
        }
        let mut by_length: Vec<(usize, Vec<Vec<u32>>)> = Vec::new();
        for word in abbreviations {
            if word.len() < 2 || word.len() > 16 {
                return Err(crate::error::bad("an abbreviation has 2 to 16 letters".into()));
            }
            match by_length.iter_mut().find(|(n, _)| *n == word.len()) {
                Some((_, words)) => words.push(word.clone()),
                None => by_length.push((word.len(), vec![word.clone()])),
            }
        }
        by_length.sort_by_key(|(n, _)| *n);
        let mut bmp = vec![0u32; 0x10000];
        let mut fold_beyond = HashMap::new();
        for &(c, letter) in fold {
            if c < 0x10000 {
                bmp[c as usize] = letter;
            } else {
                fold_beyond.insert(c, letter);
            }
        }
        let longest = by_length.last().map_or(0, |(n, _)| *n);
        for &c in counted {
            match classes.get_mut(c as usize) {
                Some(k) => *k |= COUNTED,
                None => return Err(crate::error::bad(format!("{c:#x} is no code point"))),
            }
        }
        Ok(Rules { classes, fold: bmp, fold_beyond, by_length, longest, counted: counted.to_vec() })
    }

    #[inline]
    fn class(&self, c: u32) -> u8 {
        self.classes.get(c as usize).copied().unwrap_or(0)
    }

    #[inline]
    fn is_space(&self, c: u32) -> bool {
        self.class(c) & SPACE != 0
    }

    /// Whether a word boundary (`\b`) lies before `t[at]`.
    #[inline]
    fn boundary(&self, t: &[u32], at: usize) -> bool {
        let before = at > 0 && self.class(t[at - 1]) & WORD != 0;
        let after = at < t.len() && self.class(t[at]) & WORD != 0;
        before != after
    }

    /// Whether the full stop at `p` follows an abbreviation or a one-letter word (but "я").
    fn after_abbreviation(&self, t: &[u32], p: usize) -> bool {
        if p >= 1 {
            let c = t[p - 1];
            if c != YA && self.class(c) & WORD_LETTER != 0 && self.boundary(t, p - 1) {
                return true;
            }
        }
        // the letters before the stop as the abbreviations' letters (0: no such letter)
        let mut folded = [0u32; 16];
        let reach = self.longest.min(p).min(folded.len());
        for (k, slot) in folded[..reach].iter_mut().enumerate() {
            let c = t[p - 1 - k];
            *slot = if c < 0x10000 { self.fold[c as usize] } else { self.fold_beyond.get(&c).copied().unwrap_or(0) };
            if *slot == 0 {
                break; // no abbreviation reaches past a character that is none of their letters
            }
        }
        for (n, words) in &self.by_length {
            if *n > reach || folded[n - 1] == 0 {
                break;
            }
            let s = p - n;
            if words.iter().any(|w| w.iter().rev().zip(&folded[..*n]).all(|(&l, &c)| l == c)) && self.boundary(t, s) {
                return true;
            }
        }
        false
    }

    /// Where the closing quotes after `q` end, when white space and then a capital
    /// (optionally after an opening quote, bracket or dash) follow them.
    fn closes_before_capital(&self, t: &[u32], q: usize) -> Option<usize> {
        let n = t.len();
        let mut end = q;
        while end < n && is_closing(t[end]) {
            end += 1;
        }
        let mut r = end;
        while r < n && self.is_space(t[r]) {
            r += 1;
        }
        if r == end {
            return None;
        }
        if r < n && is_opening(t[r]) {
            r += 1;
        }
        while r < n && self.is_space(t[r]) {
            r += 1;
        }
        (r < n && is_capital(t[r])).then_some(end)
    }

    /// The end of a sentence's last characters when a cut starts at `p`.
    fn cut_at(&self, t: &[u32], p: usize) -> Option<usize> {
        let n = t.len();
        match t[p] {
            0x21 | 0x3F | 0x2026 => {
                let mut q = p + 1;
                while q < n && is_stop(t[q]) {
                    q += 1;
                }
                self.closes_before_capital(t, q)
            }
            0x2E => {
                if p + 1 < n && is_stop(t[p + 1]) {
                    let mut q = p + 1;
                    while q < n && is_stop(t[q]) {
                        q += 1;
                    }
                    self.closes_before_capital(t, q)
                } else if self.after_abbreviation(t, p) {
                    None
                } else {
                    self.closes_before_capital(t, p + 1)
                }
            }
            LINE_FEED => {
                // a blank line: white space but line ends, then another line feed
                let mut i = p + 1;
                while i < n && t[i] != LINE_FEED && t[i] != PARAGRAPH && self.is_space(t[i]) {
                    i += 1;
                }
                (i < n && t[i] == LINE_FEED).then_some(p + 1)
            }
            PARAGRAPH => Some(p + 1),
            _ => None,
        }
    }

    /// `(starts, ends)` of every piece of `t` between cuts (the sentences, before those
    /// without a word are left out): no white space at either end; a piece ended by a blank
    /// line or a paragraph separator ends at its last character that is not white space.
    pub fn pieces(&self, t: &[u32]) -> (Vec<i64>, Vec<i64>) {
        let n = t.len();
        let mut starts = Vec::with_capacity(n / 80 + 1);
        let mut ends = Vec::with_capacity(n / 80 + 1);
        let mut first = 0;
        while first < n && self.is_space(t[first]) {
            first += 1;
        }
        starts.push(first as i64);
        let mut piece_start = 0; // where the piece began in the regular expression's split
        let mut p = 0;
        while let Some(at) = next_candidate(t, p) {
            p = at;
            let c = t[p];
            let Some(last) = self.cut_at(t, p) else {
                p += 1;
                continue;
            };
            let mut next = last;
            while next < n && self.is_space(t[next]) {
                next += 1;
            }
            let end = if c == LINE_FEED || c == PARAGRAPH {
                let mut e = p;
                while e > piece_start && self.is_space(t[e - 1]) {
                    e -= 1;
                }
                e
            } else {
                last
            };
            ends.push(end as i64);
            starts.push(next as i64);
            piece_start = next;
            p = next;
        }
        let mut e = n;
        while e > 0 && self.is_space(t[e - 1]) {
            e -= 1;
        }
        ends.push(e as i64);
        (starts, ends)
    }

    /// (positions of the marks of Ukrainian: і ї є ґ, and a Latin i beside a Cyrillic letter
    /// of [`BESIDE_I`]; positions of the marks of Russian), each rising, and how many of each
    /// of the `counted` characters of [`Rules::new`] the text holds.
    pub fn marks(&self, t: &[u32]) -> (Vec<i64>, Vec<i64>, Vec<i64>) {
        let (mut uk, mut ru) = (Vec::new(), Vec::new());
        let mut counts = vec![0i64; self.counted.len()];
        let beside = |i: usize| self.class(t[i]) & BESIDE_I != 0;
        for (i, &c) in t.iter().enumerate() {
            let k = self.class(c);
            if k & (UK_MARK | RU_MARK | LATIN_I | COUNTED) == 0 {
                continue;
            }
            if k & COUNTED != 0 {
                if let Some(at) = self.counted.iter().position(|&x| x == c) {
                    counts[at] += 1;
                }
            }
            if k & UK_MARK != 0 || (k & LATIN_I != 0 && ((i > 0 && beside(i - 1)) || (i + 1 < t.len() && beside(i + 1)))) {
                uk.push(i as i64);
            } else if k & RU_MARK != 0 {
                ru.push(i as i64);
            }
        }
        (uk, ru, counts)
    }
}

/// The sentence of every word (by its start, rising) among the pieces of [`Rules::pieces`],
/// numbered over the pieces that hold a word, and `[start, end)` of each of those.
pub fn sentence_of_words(starts: &[i64], ends: &[i64], word_starts: &[i64]) -> (Vec<i32>, Vec<i64>) {
    let mut ids = Vec::with_capacity(word_starts.len());
    let mut spans = Vec::new();
    let mut j = 0usize; // how many pieces start at or before the word
    let mut previous = i64::MIN;
    let mut last = usize::MAX - 1;
    for &w in word_starts {
        if w < previous {
            j = starts.partition_point(|&s| s <= w);
        } else {
            while j < starts.len() && starts[j] <= w {
                j += 1;
            }
        }
        previous = w;
        // (before the first piece: the last one, as a NumPy index of -1; never for a word,
        // which starts at a letter, after the text's leading white space)
        let piece = if j == 0 { usize::MAX } else { j - 1 };
        if piece != last {
            let at = if j == 0 { starts.len() - 1 } else { piece };
            spans.push(starts[at]);
            spans.push(ends[at]);
            last = piece;
        }
        ids.push((spans.len() / 2 - 1) as i32);
    }
    (ids, spans)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules() -> Rules {
        let mut classes = vec![0u8; TABLE_SIZE];
        for c in [0x20u32, 0x0A, 0x0D, 0x09, 0xA0, 0x2029] {
            classes[c as usize] |= SPACE;
        }
        for c in ('a'..='z').chain('A'..='Z').chain('а'..='я').chain('А'..='Я').chain(['ё', 'і']) {
            classes[c as usize] |= WORD | WORD_LETTER;
        }
        for c in '0'..='9' {
            classes[c as usize] |= WORD;
        }
        classes['і' as usize] |= UK_MARK;
        classes['ы' as usize] |= RU_MARK;
        classes['i' as usize] |= LATIN_I;
        for c in 'а'..='я' {
            classes[c as usize] |= BESIDE_I;
        }
        let fold: Vec<(u32, u32)> = ('а'..='я').map(|c| (c as u32, c as u32))
            .chain(('А'..='Я').map(|c| (c as u32, c as u32 + 0x20)))
            .chain(('a'..='z').map(|c| (c as u32, c as u32)))
            .chain(('A'..='Z').map(|c| (c as u32, c as u32 + 0x20)))
            .collect();
        let words: Vec<Vec<u32>> = ["гг", "т", "mr"].iter().filter(|w| w.chars().count() > 1)
            .map(|w| w.chars().map(u32::from).collect()).collect();
        Rules::new(classes, &fold, &words, &['ъ' as u32, 'ѣ' as u32]).unwrap()
    }

    fn cps(s: &str) -> Vec<u32> {
        s.chars().map(u32::from).collect()
    }

    fn sentences(text: &str) -> Vec<String> {
        let t = cps(text);
        let (s, e) = rules().pieces(&t);
        s.iter().zip(&e).map(|(&a, &b)| t[a as usize..b.max(a) as usize].iter().map(|&c| char::from_u32(c).unwrap()).collect()).collect()
    }

    #[test]
    fn ends_by_hand() {
        assert_eq!(sentences("  Он ушёл. Она осталась!  "), vec!["Он ушёл.", "Она осталась!"]);
        assert_eq!(sentences("Мир... «Да?» — Нет."), vec!["Мир...", "«Да?»", "— Нет."]);
        assert_eq!(sentences("А. С. Пушкин. Он"), vec!["А. С. Пушкин.", "Он"]);
        assert_eq!(sentences("сказал я. Потом"), vec!["сказал я.", "Потом"]);
        assert_eq!(sentences("сказал Я. Потом"), vec!["сказал Я. Потом"]);
        assert_eq!(sentences("В 1990 гг. Было"), vec!["В 1990 гг. Было"]);
        assert_eq!(sentences("В 1990 ГГ. Было; Mr. Smith"), vec!["В 1990 ГГ. Было; Mr. Smith"]);
        assert_eq!(sentences("раз\n  \nдва\u{2029}три"), vec!["раз", "два", "три"]);
        assert_eq!(sentences("раз.\nдва"), vec!["раз.\nдва"]);
        assert_eq!(sentences("раз. два"), vec!["раз. два"]);
        assert_eq!(sentences(""), vec![""]);
    }

    #[test]
    fn words_to_sentences() {
        let (ids, spans) = sentence_of_words(&[0, 5, 9], &[4, 8, 12], &[0, 2, 9, 10]);
        assert_eq!(ids, vec![0, 0, 1, 1]);
        assert_eq!(spans, vec![0, 4, 9, 12]);
        assert_eq!(sentence_of_words(&[0], &[0], &[]), (vec![], vec![]));
    }

    #[test]
    fn marks_by_hand() {
        let (uk, ru, counts) = rules().marks(&cps("із ы i xi аi ъ ѣѣ"));
        assert_eq!(uk, vec![0, 11]);
        assert_eq!(ru, vec![3]);
        assert_eq!(counts, vec![1, 2]);
    }
}
