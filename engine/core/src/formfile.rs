//! Looking forms up in the machine-wide table's file (`sverka.core.formcache`): the rows are
//! sorted by their row key, xxh64 of the form's UTF-8 bytes with the row's language code as
//! the seed; a form is found by its key and then its bytes compared (two forms sharing a key
//! are told apart). Every process meets each form once and asks the file for it: a worker
//! indexing a collection asks for hundreds of thousands.

/// The UTF-8 bytes of `cps` as Python's `str.encode("utf-8", "surrogatepass")` gives them: a
/// lone surrogate is written as the three bytes of its code point. `None` for a value beyond
/// U+10FFFF (no Python string holds one).
pub fn encode_utf8(cps: &[u32], out: &mut Vec<u8>) -> Option<()> {
    out.clear();
    for &c in cps {
        match c {
            0..=0x7F => out.push(c as u8),
            0x80..=0x7FF => out.extend_from_slice(&[0xC0 | (c >> 6) as u8, 0x80 | (c & 0x3F) as u8]),
            0x800..=0xFFFF => out.extend_from_slice(&[
                0xE0 | (c >> 12) as u8,
                0x80 | ((c >> 6) & 0x3F) as u8,
                0x80 | (c & 0x3F) as u8,
            ]),
            0x10000..=0x10FFFF => out.extend_from_slice(&[
                0xF0 | (c >> 18) as u8,
                0x80 | ((c >> 12) & 0x3F) as u8,
                0x80 | ((c >> 6) & 0x3F) as u8,
                0x80 | (c & 0x3F) as u8,
            ]),
            _ => return None,
        }
    }
    Some(())
}

/// The file's rows of forms of one language, as read: `keys` sorted, the form of row `r` at
/// `blob[starts[r]..ends[r]]`.
pub struct Rows<'a> {
    pub keys: &'a [u64],
    pub blob: &'a [u8],
    pub starts: &'a [u32],
    pub ends: &'a [u32],
}

impl Rows<'_> {
    /// The row of each form (the code points `cps`, form `k` ending at `form_ends[k]`) in the
    /// language of `code`, -1 where the file has none. A row whose bounds lie outside the blob
    /// (a file made to pass its checksum) matches nothing. `form_ends` must rise within `cps`.
    pub fn find(&self, cps: &[u32], form_ends: &[i64], code: u64) -> Vec<i64> {
        let n = self.keys.len().min(self.starts.len()).min(self.ends.len());
        let mut out = vec![-1i64; form_ends.len()];
        if n == 0 {
            return out;
        }
        let keys = &self.keys[..n];
        let mut bytes = Vec::with_capacity(64);
        let mut start = 0usize;
        for (k, &end) in form_ends.iter().enumerate() {
            let end = end as usize;
            let form = &cps[start..end];
            start = end;
            if encode_utf8(form, &mut bytes).is_none() {
                continue;
            }
            let key = xxhash_rust::xxh64::xxh64(&bytes, code);
            let at = keys.partition_point(|&x| x < key).min(n - 1);
            if keys[at] != key {
                continue;
            }
            let (a, b) = (self.starts[at] as usize, self.ends[at] as usize);
            if a <= b && b <= self.blob.len() && self.blob[a..b] == bytes[..] {
                out[k] = at as i64;
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cps(s: &str) -> Vec<u32> {
        s.chars().map(|c| c as u32).collect()
    }

    #[test]
    fn utf8_as_python_writes_it_surrogates_too() {
        let mut out = Vec::new();
        encode_utf8(&cps("жёлтый ёж a€𝄞"), &mut out).unwrap();
        assert_eq!(out, "жёлтый ёж a€𝄞".as_bytes());
        encode_utf8(&[0xDCFF], &mut out).unwrap();
        assert_eq!(out, [0xED, 0xB3, 0xBF]); // "\udcff".encode("utf-8", "surrogatepass")
        assert!(encode_utf8(&[0x110000], &mut out).is_none());
    }

    #[test]
    fn found_by_key_then_bytes() {
        let forms = ["дом", "кот", "лес"];
        let code = 3u64;
        let mut rows: Vec<(u64, &str)> =
            forms.iter().map(|f| (xxhash_rust::xxh64::xxh64(f.as_bytes(), code), *f)).collect();
        rows.sort();
        let mut blob = Vec::new();
        let (mut starts, mut ends, mut keys) = (vec![], vec![], vec![]);
        for (k, f) in &rows {
            starts.push(blob.len() as u32);
            blob.extend_from_slice(f.as_bytes());
            ends.push(blob.len() as u32);
            keys.push(*k);
        }
        let table = Rows { keys: &keys, blob: &blob, starts: &starts, ends: &ends };
        let words = ["кот", "пёс", "дом", "", "лес"];
        let all: Vec<u32> = words.iter().flat_map(|w| cps(w)).collect();
        let mut e = 0i64;
        let form_ends: Vec<i64> = words.iter().map(|w| { e += w.chars().count() as i64; e }).collect();
        let found = table.find(&all, &form_ends, code);
        let want: Vec<i64> = words
            .iter()
            .map(|w| rows.iter().position(|(_, f)| f == w).map_or(-1, |p| p as i64))
            .collect();
        assert_eq!(found, want);
        assert_eq!(table.find(&all, &form_ends, code + 1), vec![-1; 5], "another language: other keys");
        // a key shared by another form: its bytes differ, so it is not that row
        let fake = Rows { keys: &keys, blob: b"xxxxxxxxxxxxxxxxxx", starts: &starts, ends: &ends };
        assert_eq!(fake.find(&all, &form_ends, code), vec![-1; 5]);
        // bounds outside the blob match nothing
        let short = Rows { keys: &keys, blob: &blob[..3], starts: &starts, ends: &ends };
        assert!(short.find(&all, &form_ends, code).iter().filter(|&&r| r >= 0).count() <= 1);
        let empty = Rows { keys: &[], blob: &[], starts: &[], ends: &[] };
        assert_eq!(empty.find(&all, &form_ends, code), vec![-1; 5]);
    }
}
