//! The machine-wide table of analysed word forms as its file lays it out
//! (`sverka.core.formcache`): rows sorted by their key, xxh64 of the form's UTF-8 with the
//! kind of row (its language or reading mode) as the seed, each row's form and lemma being
//! `[start, end)` of a blob of texts. A process looks the forms of a text up in the file as it
//! was mapped, without copying or decoding it.

use crate::error::bad;
use crate::Error;

/// The sorted keys of a file's rows and one of its text columns (the forms or the lemmas).
pub struct Rows<'a> {
    keys: &'a [u64],
    starts: &'a [u32],
    ends: &'a [u32],
    texts: &'a [u8],
}

impl<'a> Rows<'a> {
    /// The rows of a file: `keys` rising (a file whose are not finds fewer forms, never a wrong
    /// one: every form found is compared with the row's text).
    pub fn new(keys: &'a [u64], starts: &'a [u32], ends: &'a [u32], texts: &'a [u8]) -> Result<Self, Error> {
        if starts.len() != keys.len() || ends.len() != keys.len() {
            return Err(bad(format!(
                "{} keys, {} starts and {} ends: one of each per row",
                keys.len(),
                starts.len(),
                ends.len()
            )));
        }
        Ok(Rows { keys, starts, ends, texts })
    }

    /// The key of a form's UTF-8 in a kind of rows (Python's `xxhash.xxh64_intdigest(form, kind)`).
    pub fn key(form: &[u8], kind: u64) -> u64 {
        xxhash_rust::xxh64::xxh64(form, kind)
    }

    /// The text of `row`, or None when the row or its bounds lie outside the file.
    pub fn text(&self, row: usize) -> Option<&'a [u8]> {
        let (a, b) = (*self.starts.get(row)? as usize, *self.ends.get(row)? as usize);
        if a <= b && b <= self.texts.len() {
            Some(&self.texts[a..b])
        } else {
            None
        }
    }

    /// The row of `form` (its UTF-8) among the rows of `kind`, or -1: its key searched among
    /// the sorted keys, then its text compared (two forms sharing a key are told apart).
    pub fn find(&self, form: &[u8], kind: u64) -> i64 {
        let key = Self::key(form, kind);
        let at = self.keys.partition_point(|&k| k < key);
        match self.keys.get(at) {
            Some(&k) if k == key && self.text(at) == Some(form) => at as i64,
            _ => -1,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(forms: &[&str], kind: u64) -> (Vec<u64>, Vec<u32>, Vec<u32>, Vec<u8>) {
        let mut rows: Vec<(u64, &str)> = forms.iter().map(|f| (Rows::key(f.as_bytes(), kind), *f)).collect();
        rows.sort();
        let (mut starts, mut ends, mut texts) = (vec![], vec![], vec![]);
        for (_, f) in &rows {
            starts.push(texts.len() as u32);
            texts.extend_from_slice(f.as_bytes());
            ends.push(texts.len() as u32);
        }
        (rows.iter().map(|r| r.0).collect(), starts, ends, texts)
    }

    #[test]
    fn finds_its_forms_and_no_other() {
        let (keys, starts, ends, texts) = file(&["книга", "дом", "стали", ""], 3);
        let rows = Rows::new(&keys, &starts, &ends, &texts).unwrap();
        for f in ["книга", "дом", "стали", ""] {
            let row = rows.find(f.as_bytes(), 3);
            assert!(row >= 0);
            assert_eq!(rows.text(row as usize), Some(f.as_bytes()));
        }
        assert_eq!(rows.find("книги".as_bytes(), 3), -1);
        assert_eq!(rows.find("дом".as_bytes(), 4), -1, "another kind of rows");
        assert_eq!(Rows::key(b"abc", 0), 0x44bc2cf5ad770999, "xxh64 as Python's xxhash gives it");
    }

    #[test]
    fn a_row_whose_text_is_another_form_or_out_of_bounds_is_not_found() {
        let (keys, starts, mut ends, texts) = file(&["дом", "сад"], 1);
        let (swapped_starts, swapped_ends) = ([starts[1], starts[0]], [ends[1], ends[0]]);
        let other = Rows::new(&keys, &swapped_starts, &swapped_ends, &texts).unwrap();
        assert_eq!(other.find("дом".as_bytes(), 1), -1);
        ends[0] = texts.len() as u32 + 5;
        let out = Rows::new(&keys, &starts, &ends, &texts).unwrap();
        assert_eq!(out.text(0), None);
        assert_eq!(out.text(9), None);
        assert!(Rows::new(&keys, &starts[..1], &ends, &texts).is_err());
    }
}
