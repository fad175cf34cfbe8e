//! Min-hash signatures, super- and mega-shingles (`sverka.core.minhash`).
//!
//! Function `i` of `n` maps `x` to `(a_i·x + b_i) mod 2**64` with
//! `a_i = mix64(seed + (2i+1)·GOLDEN) | 1` and `b_i = mix64(seed + (2i+2)·GOLDEN)`.
//! Super-shingle `g` is `xxh64(le64(g) ++ le64(values of group g))`; the mega-shingle of
//! the pair `i < j` is `xxh64(le64(i) ++ le64(j) ++ le64(super_i) ++ le64(super_j))`.

use crate::error::{bad, Error};
use crate::hashing::hash_bytes;
use crate::shingles::{mix64, GOLDEN};

/// Every position of the signature of a document with no shingle.
pub const EMPTY: u64 = u64::MAX;

/// The coefficients `(a, b)` of `n` functions seeded by `seed`.
pub fn coefficients(n: usize, seed: u64) -> (Vec<u64>, Vec<u64>) {
    let at = |k: u64| mix64(seed.wrapping_add(k.wrapping_mul(GOLDEN)));
    let a = (0..n as u64).map(|i| at(2 * i + 1) | 1).collect();
    let b = (0..n as u64).map(|i| at(2 * i + 2)).collect();
    (a, b)
}

/// For each of `n` seeded functions, the minimum over `x` (all [`EMPTY`] if `x` is empty).
pub fn signature(x: &[u64], n: usize, seed: u64) -> Result<Vec<u64>, Error> {
    if n < 1 {
        return Err(bad(format!("need at least one min-hash function, got {n}")));
    }
    let (a, b) = coefficients(n, seed);
    let mut sig = vec![EMPTY; n];
    // Blocks of x stay in cache while every function runs over them.
    for block in x.chunks(4096) {
        for ((s, &ai), &bi) in sig.iter_mut().zip(&a).zip(&b) {
            let m = block.iter().fold(u64::MAX, |m, &v| m.min(ai.wrapping_mul(v).wrapping_add(bi)));
            *s = (*s).min(m);
        }
    }
    Ok(sig)
}

/// The super-shingles of `groups` consecutive groups of a signature (the first `n % groups`
/// groups one value longer, as `numpy.array_split`); none for an empty document.
pub fn super_shingles(sig: &[u64], groups: usize) -> Result<Vec<u64>, Error> {
    if groups < 1 || groups > sig.len() {
        return Err(bad(format!("cannot split {} values into {groups} groups", sig.len())));
    }
    if sig.iter().all(|&v| v == EMPTY) {
        return Ok(Vec::new());
    }
    let (size, longer) = (sig.len() / groups, sig.len() % groups);
    let mut out = Vec::with_capacity(groups);
    let mut start = 0;
    let mut bytes = Vec::with_capacity(8 * (size + 2));
    for g in 0..groups {
        let end = start + size + usize::from(g < longer);
        bytes.clear();
        bytes.extend_from_slice(&(g as u64).to_le_bytes());
        for v in &sig[start..end] {
            bytes.extend_from_slice(&v.to_le_bytes());
        }
        out.push(hash_bytes(&bytes));
        start = end;
    }
    Ok(out)
}

/// One hash per pair of super-shingles `(i, j)`, `i < j`, pairs in lexicographic order.
pub fn mega_shingles(supers: &[u64]) -> Vec<u64> {
    let g = supers.len();
    let mut out = Vec::with_capacity(g * g.saturating_sub(1) / 2);
    for i in 0..g {
        for j in i + 1..g {
            let mut bytes = [0u8; 32];
            bytes[0..8].copy_from_slice(&(i as u64).to_le_bytes());
            bytes[8..16].copy_from_slice(&(j as u64).to_le_bytes());
            bytes[16..24].copy_from_slice(&supers[i].to_le_bytes());
            bytes[24..32].copy_from_slice(&supers[j].to_le_bytes());
            out.push(hash_bytes(&bytes));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signature_by_hand() {
        let (a, b) = coefficients(3, 7);
        let x = [10u64, 3, 99, 3];
        let sig = signature(&x, 3, 7).unwrap();
        for i in 0..3 {
            let expect = x.iter().map(|&v| a[i].wrapping_mul(v).wrapping_add(b[i])).min().unwrap();
            assert_eq!(sig[i], expect);
            assert_eq!(a[i] & 1, 1);
        }
        assert_eq!(signature(&[], 4, 7).unwrap(), vec![EMPTY; 4]);
        assert!(signature(&x, 0, 7).is_err());
    }

    #[test]
    fn groups_split_as_numpy() {
        // 7 values in 3 groups: 3, 2, 2.
        let sig: Vec<u64> = (1..=7).collect();
        let supers = super_shingles(&sig, 3).unwrap();
        let group = |g: u64, values: &[u64]| {
            let mut bytes = g.to_le_bytes().to_vec();
            values.iter().for_each(|v| bytes.extend_from_slice(&v.to_le_bytes()));
            hash_bytes(&bytes)
        };
        assert_eq!(supers, vec![group(0, &[1, 2, 3]), group(1, &[4, 5]), group(2, &[6, 7])]);
        assert!(super_shingles(&[EMPTY; 6], 3).unwrap().is_empty());
        assert!(super_shingles(&sig, 8).is_err());
        assert!(super_shingles(&sig, 0).is_err());
        let megas = mega_shingles(&supers);
        assert_eq!(megas.len(), 3);
        assert!(mega_shingles(&[]).is_empty());
    }
}
