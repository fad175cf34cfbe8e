//! The canonizer's table of the raw forms this process has seen (`sverka.core.text`): the
//! columns of its entries (lemma hash, word hash, flags, script), the index from a raw form's
//! hash (`scan::word_hash`) to its entry in each reading mode, and the token arrays of a text
//! taken from its words' entries in one pass.

use crate::error::bad;
use crate::scan::HashIndex;
use crate::Error;

/// Reading modes of Cyrillic words ("ru", "uk", "ru-old"): one index each.
pub const MODES: usize = 3;

/// (lemma hashes, word hashes, flags, scripts) of some entries.
pub type Columns = (Vec<u64>, Vec<u64>, Vec<u8>, Vec<u8>);

/// The entries, in the order they were added (an entry's id is its place).
#[derive(Default)]
pub struct Entries {
    pub lemma_hash: Vec<u64>,
    pub word_hash: Vec<u64>,
    pub flags: Vec<u8>,
    pub scripts: Vec<u8>,
    index: [HashIndex; MODES],
}

/// A text's tokens taken from its words' entries ([`Entries::tokens`]).
#[derive(Debug, Default, PartialEq)]
pub struct Tokens {
    /// The words kept (their places among the text's words), rising, and their entries,
    /// starts, ends and sentences.
    pub kept: Vec<usize>,
    pub ids: Vec<i64>,
    pub starts: Vec<i64>,
    pub ends: Vec<i64>,
    pub sentences: Vec<i32>,
    pub lemma_hash: Vec<u64>,
    pub word_hash: Vec<u64>,
    /// How many of all the words (kept or not) are of script 0, 1, 2.
    pub scripts: [i64; 3],
    /// The places of the words whose entry has a flag of `tampered`.
    pub tampered: Vec<usize>,
}

impl Entries {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn len(&self) -> usize {
        self.flags.len()
    }

    pub fn is_empty(&self) -> bool {
        self.flags.is_empty()
    }

    /// Adds entries (ids from [`Entries::len`] on), each found by `raw_hashes[k]` in the modes
    /// whose bit `modes[k]` sets (bit m: mode m); a hash of 0 is not indexed.
    pub fn append(
        &mut self,
        lemma_hash: &[u64],
        word_hash: &[u64],
        flags: &[u8],
        scripts: &[u8],
        raw_hashes: &[u64],
        modes: &[u8],
    ) -> Result<(), Error> {
        let n = lemma_hash.len();
        if [word_hash.len(), flags.len(), scripts.len(), raw_hashes.len(), modes.len()].iter().any(|&m| m != n) {
            return Err(bad("every column of the new entries needs one value per entry".into()));
        }
        let first = self.len() as i64;
        for (m, index) in self.index.iter_mut().enumerate() {
            let (hashes, ids): (Vec<u64>, Vec<i64>) = (0..n)
                .filter(|&k| modes[k] >> m & 1 != 0)
                .map(|k| (raw_hashes[k], first + k as i64))
                .unzip();
            index.add(&hashes, &ids);
        }
        self.lemma_hash.extend_from_slice(lemma_hash);
        self.word_hash.extend_from_slice(word_hash);
        self.flags.extend_from_slice(flags);
        self.scripts.extend_from_slice(scripts);
        Ok(())
    }

    /// The entry of each raw form's hash read in `mode`, -1 where there is none.
    pub fn get(&self, mode: usize, hashes: &[u64]) -> Result<Vec<i64>, Error> {
        let index = self.index.get(mode).ok_or_else(|| bad(format!("no reading mode {mode}")))?;
        Ok(index.get(hashes))
    }

    fn check(&self, ids: &[i64]) -> Result<(), Error> {
        let n = self.len() as i64;
        match ids.iter().find(|&&i| i < 0 || i >= n) {
            Some(i) => Err(bad(format!("entry {i} is not in a table of {n}"))),
            None => Ok(()),
        }
    }

    /// (lemma hashes, word hashes, flags, scripts) of the entries `ids`.
    pub fn columns(&self, ids: &[i64]) -> Result<Columns, Error> {
        self.check(ids)?;
        let at = |i: &i64| *i as usize;
        Ok((
            ids.iter().map(|i| self.lemma_hash[at(i)]).collect(),
            ids.iter().map(|i| self.word_hash[at(i)]).collect(),
            ids.iter().map(|i| self.flags[at(i)]).collect(),
            ids.iter().map(|i| self.scripts[at(i)]).collect(),
        ))
    }

    /// The tokens of a text whose words have the entries `ids` (and `starts`, `ends`,
    /// `sentences`): the words whose entry has no flag of `drop` are kept, with their lemma and
    /// word hashes; the scripts of all words are counted and those with a flag of `tampered`
    /// listed.
    pub fn tokens(
        &self,
        ids: &[i64],
        starts: &[i64],
        ends: &[i64],
        sentences: &[i32],
        drop: u8,
        tampered: u8,
    ) -> Result<Tokens, Error> {
        self.check(ids)?;
        if starts.len() != ids.len() || ends.len() != ids.len() || sentences.len() != ids.len() {
            return Err(bad("a text's words need a start, an end and a sentence each".into()));
        }
        let mut out = Tokens { kept: Vec::with_capacity(ids.len()), ..Tokens::default() };
        out.lemma_hash.reserve(ids.len());
        out.word_hash.reserve(ids.len());
        for (k, &id) in ids.iter().enumerate() {
            let id = id as usize;
            let flags = self.flags[id];
            if let Some(count) = out.scripts.get_mut(self.scripts[id] as usize) {
                *count += 1;
            }
            if flags & tampered != 0 {
                out.tampered.push(k);
            }
            if flags & drop == 0 {
                out.kept.push(k);
                out.ids.push(id as i64);
                out.starts.push(starts[k]);
                out.ends.push(ends[k]);
                out.sentences.push(sentences[k]);
                out.lemma_hash.push(self.lemma_hash[id]);
                out.word_hash.push(self.word_hash[id]);
            }
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_by_hand() {
        let mut e = Entries::new();
        e.append(&[10, 20, 30], &[11, 21, 31], &[0, 1, 4], &[1, 1, 2], &[7, 8, 9], &[0b001, 0b111, 0b010]).unwrap();
        assert_eq!(e.get(0, &[7, 8, 9, 5]).unwrap(), vec![0, 1, -1, -1]);
        assert_eq!(e.get(1, &[7, 8, 9]).unwrap(), vec![-1, 1, 2]);
        assert_eq!(e.get(2, &[8]).unwrap(), vec![1]);
        assert!(e.get(3, &[8]).is_err());
        let t = e.tokens(&[0, 1, 2, 1], &[0, 5, 9, 14], &[4, 8, 13, 17], &[0, 0, 1, 1], 1, 4).unwrap();
        assert_eq!(t.kept, vec![0, 2]);
        assert_eq!((t.ids, t.starts, t.ends, t.sentences), (vec![0, 2], vec![0, 9], vec![4, 13], vec![0, 1]));
        assert_eq!(t.lemma_hash, vec![10, 30]);
        assert_eq!(t.word_hash, vec![11, 31]);
        assert_eq!(t.scripts, [0, 3, 1]);
        assert_eq!(t.tampered, vec![2]);
        assert_eq!(e.columns(&[2, 0]).unwrap(), (vec![30, 10], vec![31, 11], vec![4, 0], vec![2, 1]));
        assert!(e.tokens(&[3], &[0], &[1], &[0], 0, 0).is_err());
        assert!(e.tokens(&[0], &[], &[], &[], 0, 0).is_err());
        assert!(e.columns(&[-1]).is_err());
        assert!(e.append(&[1], &[], &[], &[], &[], &[]).is_err());
    }
}
