//! Shingle hashes, robust winnowing and content-defined anchors (`sverka.core.shingles`).
//!
//! The shingle of `w` token hashes `t[s..s + w]` is
//! `acc = mix64(t[s] ^ w·GOLDEN); acc = mix64(acc ^ t[s + j])` for `j` in `1..w`,
//! all arithmetic modulo 2**64; `mix64` is the splitmix64 finalizer.

use crate::error::{bad, Error};

pub const GOLDEN: u64 = 0x9E3779B97F4A7C15;

/// splitmix64 finalizer (Stafford's Mix13), a bijection on 64 bits.
#[inline(always)]
pub fn mix64(mut z: u64) -> u64 {
    z ^= z >> 30;
    z = z.wrapping_mul(0xBF58476D1CE4E5B9);
    z ^= z >> 27;
    z = z.wrapping_mul(0x94D049BB133111EB);
    z ^ (z >> 31)
}

fn check_w_step(w: usize, step: usize) -> Result<(), Error> {
    if w < 1 {
        return Err(bad(format!("shingle length must be >= 1, got {w}")));
    }
    if step < 1 {
        return Err(bad(format!("shingle step must be >= 1, got {step}")));
    }
    Ok(())
}

/// How many shingles `n` tokens give: `(n - w) / step + 1`, or 0 if `n < w`.
pub fn shingle_count(n: usize, w: usize, step: usize) -> Result<usize, Error> {
    check_w_step(w, step)?;
    Ok(if n < w { 0 } else { (n - w) / step + 1 })
}

/// The hash of the shingle of the `w` tokens `t[0..w]` (`t.len() >= w >= 1`).
#[inline(always)]
fn shingle_at(t: &[u64], w: usize) -> u64 {
    let mut acc = mix64(t[0] ^ (w as u64).wrapping_mul(GOLDEN));
    for &h in &t[1..w] {
        acc = mix64(acc ^ h);
    }
    acc
}

/// The hash of every w-shingle; shingle `i` covers tokens `[i·step, i·step + w)`.
pub fn shingle_hashes(t: &[u64], w: usize, step: usize) -> Result<Vec<u64>, Error> {
    let count = shingle_count(t.len(), w, step)?;
    Ok((0..count).map(|i| shingle_at(&t[i * step..], w)).collect())
}

/// Robust winnowing (Schleimer, Wilkerson, Aiken 2003): the selected positions, increasing.
///
/// In every window of `k` consecutive hashes the minimum is selected; on ties the position
/// selected for the previous window is kept while it is in the window, otherwise the
/// rightmost minimum. With fewer than `k` hashes (but at least one) the whole input is one
/// window.
pub fn winnow(h: &[u64], k: usize) -> Result<Vec<i64>, Error> {
    if k < 1 {
        return Err(bad(format!("winnow window must be >= 1, got {k}")));
    }
    let n = h.len();
    if n == 0 {
        return Ok(Vec::new());
    }
    if k == 1 {
        return Ok((0..n as i64).collect());
    }
    let k = k.min(n);
    let mut out: Vec<i64> = Vec::with_capacity(2 * n / (k + 1) + 2);
    // Positions of increasing values; among equal values only the rightmost stays, so the
    // front is the rightmost minimum of the window.
    let mut queue: std::collections::VecDeque<usize> = std::collections::VecDeque::with_capacity(k + 1);
    let mut chosen: Option<usize> = None;
    for end in 0..n {
        while let Some(&back) = queue.back() {
            if h[back] >= h[end] {
                queue.pop_back();
            } else {
                break;
            }
        }
        queue.push_back(end);
        if end + 1 < k {
            continue;
        }
        let first = end + 1 - k; // the window is [first, end]
        while queue[0] < first {
            queue.pop_front();
        }
        let rightmost = queue[0];
        let pick = match chosen {
            Some(previous) if previous >= first && h[previous] == h[rightmost] => previous,
            _ => rightmost,
        };
        if chosen != Some(pick) {
            out.push(pick as i64);
            chosen = Some(pick);
        }
    }
    Ok(out)
}

fn check_modulus(modulus: u64) -> Result<(), Error> {
    if modulus < 1 {
        return Err(bad(format!("modulus must be >= 1, got {modulus}")));
    }
    Ok(())
}

/// Positions of the content-defined anchor tokens: `mix64(hash) % modulus == 0`.
pub fn anchors(t: &[u64], modulus: u64) -> Result<Vec<i64>, Error> {
    check_modulus(modulus)?;
    Ok((0..t.len()).filter(|&i| mix64(t[i]) % modulus == 0).map(|i| i as i64).collect())
}

/// `(positions, hashes)` of the w-shingles starting at an anchor token (a subset of
/// [`shingle_hashes`]); anchors closer than `w` tokens to the end start none.
pub fn anchor_shingles(t: &[u64], w: usize, modulus: u64) -> Result<(Vec<i64>, Vec<u64>), Error> {
    check_w_step(w, 1)?;
    let positions: Vec<i64> = anchors(t, modulus)?.into_iter().filter(|&p| p as usize + w <= t.len()).collect();
    let hashes = positions.iter().map(|&p| shingle_at(&t[p as usize..], w)).collect();
    Ok((positions, hashes))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hashing::hash_text;

    fn hashes(words: &str) -> Vec<u64> {
        words.split_whitespace().map(hash_text).collect()
    }

    #[test]
    fn rose_is_a_rose_pinned() {
        // The golden values of tests/core/test_shingles.py: stored collections depend on them.
        let h = shingle_hashes(&hashes("a rose is a rose is a rose"), 4, 1).unwrap();
        assert_eq!(h.len(), 5);
        assert_eq!(h[0], 0x8CB35C8B7DE68D5F);
        assert_eq!(h[1], 0x35FE32BE23F814DA);
        assert_eq!(h[0], h[3]);
        assert_eq!(h[1], h[4]);
        assert_ne!(h[2], h[0]);
    }

    #[test]
    fn counts_and_steps() {
        assert_eq!(shingle_count(8, 4, 1), Ok(5));
        assert_eq!(shingle_count(8, 4, 4), Ok(2));
        assert_eq!(shingle_count(9, 3, 2), Ok(4));
        assert_eq!(shingle_count(3, 4, 1), Ok(0));
        assert!(shingle_count(3, 0, 1).is_err());
        assert!(shingle_count(3, 1, 0).is_err());
        let t = hashes("один два три четыре пять шесть");
        let adjacent = shingle_hashes(&t, 2, 2).unwrap();
        let overlapping = shingle_hashes(&t, 2, 1).unwrap();
        assert_eq!(adjacent, vec![overlapping[0], overlapping[2], overlapping[4]]);
    }

    #[test]
    fn winnow_by_hand() {
        // Windows of 3: [5 1 4] -> 1; [1 4 1] -> keeps 1 (tie, previous still inside);
        // [4 1 9] -> 3 (previous left); [1 9 1] -> keeps 3; [9 1 7] -> 5.
        let h = [5, 1, 4, 1, 9, 1, 7];
        assert_eq!(winnow(&h, 3).unwrap(), vec![1, 3, 5]);
        // The first window takes its rightmost minimum, the next keeps it while inside.
        assert_eq!(winnow(&[2, 2, 2], 2).unwrap(), vec![1]);
        assert_eq!(winnow(&[2, 2, 3, 2, 2], 2).unwrap(), vec![1, 3]);
        assert_eq!(winnow(&[3, 2], 5).unwrap(), vec![1]);
        assert_eq!(winnow(&[3, 2], 1).unwrap(), vec![0, 1]);
        assert!(winnow(&[], 4).unwrap().is_empty());
        assert!(winnow(&[1], 0).is_err());
    }

    #[test]
    fn anchor_shingles_are_shingles() {
        let t: Vec<u64> = (0..500).map(|i| hash_text(&i.to_string())).collect();
        let all = shingle_hashes(&t, 3, 1).unwrap();
        let (pos, h) = anchor_shingles(&t, 3, 7).unwrap();
        assert!(!pos.is_empty());
        for (p, x) in pos.iter().zip(&h) {
            assert_eq!(all[*p as usize], *x);
            assert_eq!(mix64(t[*p as usize]) % 7, 0);
        }
    }
}
