//! Sentence hashes and Seq2 (`sverka.core.sentences`): SH of a sentence is the sum modulo
//! 2**64 of the WH of its tokens; Seq2 sums neighbours, the last one plus 0.

use crate::error::{bad, Error};

/// `(seq1, sentence_index)`: SH of every sentence holding a token, sentences increasing.
pub fn sentence_hashes(wh: &[u64], ids: &[i64], n_sentences: i64) -> Result<(Vec<u64>, Vec<i64>), Error> {
    if wh.len() != ids.len() {
        return Err(bad(format!("{} word hashes but {} sentence ids", wh.len(), ids.len())));
    }
    if ids.is_empty() {
        return Ok((Vec::new(), Vec::new()));
    }
    if ids.iter().any(|&s| s < 0 || s >= n_sentences) {
        return Err(bad(format!("sentence ids outside 0..{}", n_sentences - 1)));
    }
    let mut seq1 = Vec::new();
    let mut index = Vec::new();
    let mut push = |id: i64, h: u64| match index.last() {
        Some(&last) if last == id => {
            let sum: &mut u64 = seq1.last_mut().unwrap();
            *sum = sum.wrapping_add(h);
        }
        _ => {
            index.push(id);
            seq1.push(h);
        }
    };
    if ids.windows(2).all(|p| p[0] <= p[1]) {
        ids.iter().zip(wh).for_each(|(&id, &h)| push(id, h));
    } else {
        let mut order: Vec<usize> = (0..ids.len()).collect();
        order.sort_by_key(|&i| ids[i]); // stable
        order.into_iter().for_each(|i| push(ids[i], wh[i]));
    }
    Ok((seq1, index))
}

/// Sums of adjacent sentence hashes, the last one plus 0 (same length as `seq1`).
pub fn seq2(seq1: &[u64]) -> Vec<u64> {
    let mut out = seq1.to_vec();
    for i in 0..seq1.len().saturating_sub(1) {
        out[i] = seq1[i].wrapping_add(seq1[i + 1]);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sums_by_hand() {
        let (seq1, index) = sentence_hashes(&[1, 2, u64::MAX, 5], &[0, 0, 2, 2], 4).unwrap();
        assert_eq!(seq1, vec![3, 4]); // u64::MAX + 5 wraps to 4
        assert_eq!(index, vec![0, 2]);
        let (seq1, index) = sentence_hashes(&[1, 2, 4], &[1, 0, 1], 2).unwrap();
        assert_eq!((seq1, index), (vec![2, 5], vec![0, 1]));
        assert!(sentence_hashes(&[1], &[3], 3).is_err());
        assert!(sentence_hashes(&[1], &[], 3).is_err());
        assert_eq!(seq2(&[1, 2, 3]), vec![3, 5, 3]);
        assert!(seq2(&[]).is_empty());
    }
}
