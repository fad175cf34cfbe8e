//! Candidate retrieval (`sverka.core.candidates`): the postings of the suspect's keys read from
//! sorted arrays, the seeds they make, and the clusters of supported seeds that rank documents.
//!
//! * [`Postings`] / [`lookup`]: the rows `(hash, doc_id, pos)` of the keys asked for, from a
//!   postings file's arrays (`sverka.core.store.postings`): keys sorted as signed 64-bit
//!   integers (the order SQLite walks an `IN` list, so the rows come in the order the store's
//!   query gives them), each key's rows `(doc_id, pos)` in that order too.
//! * [`expand`]: the seeds `(doc, suspect position, document position)` of the rows.
//! * [`clusters`]: the clusters of supported seeds that count (`candidates._clusters`).

use crate::error::{bad, Error};

/// A postings file's arrays: `keys[k]` (strictly increasing as i64) holds the rows
/// `offsets[k] .. offsets[k + 1]` of `docs` and `pos`.
pub struct Postings<'a> {
    pub keys: &'a [i64],
    pub offsets: &'a [u64],
    pub docs: &'a [u32],
    pub pos: &'a [u32],
}

impl<'a> Postings<'a> {
    /// The arrays, checked to be a postings table: a damaged file is refused, never read out
    /// of its bounds.
    pub fn new(keys: &'a [i64], offsets: &'a [u64], docs: &'a [u32], pos: &'a [u32]) -> Result<Self, Error> {
        if offsets.len() != keys.len() + 1 || docs.len() != pos.len() {
            return Err(bad("postings: the arrays' lengths disagree".into()));
        }
        if offsets[0] != 0 || offsets[keys.len()] != docs.len() as u64 {
            return Err(bad("postings: the offsets do not span the rows".into()));
        }
        if offsets.windows(2).any(|w| w[1] <= w[0]) || keys.windows(2).any(|w| w[1] <= w[0]) {
            return Err(bad("postings: keys or offsets out of order".into()));
        }
        Ok(Postings { keys, offsets, docs, pos })
    }

    /// The arrays of a table [`Postings::new`] accepted before (a postings file checked when it
    /// was opened, never written in place): not checked again. [`lookup`] still reads nothing
    /// out of bounds whatever they hold.
    pub fn checked_before(keys: &'a [i64], offsets: &'a [u64], docs: &'a [u32], pos: &'a [u32]) -> Self {
        Postings { keys, offsets, docs, pos }
    }
}

/// The rows `(hash, doc_id, pos)` of the distinct `query` keys held, by key (as i64), each key's
/// rows in stored order; a key with more than `max_posting` rows (0: no limit) is skipped whole.
pub fn lookup(p: &Postings, query: &[i64], max_posting: usize) -> (Vec<i64>, Vec<i64>, Vec<i64>) {
    let mut q = query.to_vec();
    q.sort_unstable();
    q.dedup();
    let (mut h, mut d, mut j) = (Vec::new(), Vec::new(), Vec::new());
    let mut lo = 0usize; // the keys before lo are smaller than every key still asked for
    for &key in &q {
        // galloping from the last place found: the query is sorted too
        let mut step = 1usize;
        let mut hi = lo;
        while hi < p.keys.len() && p.keys[hi] < key {
            lo = hi + 1;
            hi += step;
            step *= 2;
        }
        let hi = hi.min(p.keys.len());
        let at = lo + p.keys[lo..hi].partition_point(|&k| k < key);
        lo = at;
        if at >= p.keys.len() || p.keys[at] != key {
            continue;
        }
        let (Some(&a), Some(&b)) = (p.offsets.get(at), p.offsets.get(at + 1)) else {
            continue; // never met: Postings::new refuses such arrays
        };
        let (a, b) = (a as usize, b as usize);
        if a > b || b > p.docs.len() || b > p.pos.len() {
            continue; // never met: Postings::new refuses such arrays
        }
        if max_posting > 0 && b - a > max_posting {
            continue;
        }
        h.extend(std::iter::repeat_n(key, b - a));
        d.extend(p.docs[a..b].iter().map(|&x| x as i64));
        j.extend(p.pos[a..b].iter().map(|&x| x as i64));
    }
    (h, d, j)
}

/// Sorts `items` by `key`, stably: least significant byte first, a pass per byte in which the
/// items differ (the seeds and keys of a check are tens of thousands of 64-bit numbers, which a
/// comparison sort orders several times slower).
fn radix_sort_by_key<T: Copy, F: Fn(&T) -> u64>(items: &mut Vec<T>, key: F) {
    let n = items.len();
    if n < 64 {
        items.sort_by_key(|x| key(x));
        return;
    }
    let mut buffer: Vec<T> = items.clone();
    let (mut from, mut to) = (items, &mut buffer);
    let mut swapped = false;
    for shift in (0..64).step_by(8) {
        let mut counts = [0usize; 256];
        for x in from.iter() {
            counts[((key(x) >> shift) & 0xFF) as usize] += 1;
        }
        if counts.iter().any(|&c| c == n) {
            continue; // every item has this byte: the pass would change nothing
        }
        let mut at = [0usize; 256];
        let mut sum = 0;
        for b in 0..256 {
            at[b] = sum;
            sum += counts[b];
        }
        for x in from.iter() {
            let b = ((key(x) >> shift) & 0xFF) as usize;
            to[at[b]] = *x;
            at[b] += 1;
        }
        std::mem::swap(&mut from, &mut to);
        swapped = !swapped;
    }
    if swapped {
        to.copy_from_slice(from);
    }
}

/// The seeds of `rows` (hash, doc, pos) whose hash is among the suspect's `keys` (at
/// `key_pos`): `(doc, suspect position, document position)`, once per occurrence of the hash in
/// the suspect, by row, then by suspect order of the occurrences (`candidates._expand`).
pub fn expand(keys: &[u64], key_pos: &[i64], row_hash: &[u64], row_doc: &[i64], row_pos: &[i64])
              -> Result<(Vec<i64>, Vec<i64>, Vec<i64>), Error> {
    if keys.len() != key_pos.len() || row_hash.len() != row_doc.len() || row_hash.len() != row_pos.len() {
        return Err(bad("expand: the arrays' lengths disagree".into()));
    }
    // the keys in the order of the rows' hashes as signed numbers (SQLite's and the postings
    // file's), so that sorted rows are met in one walk; rows in any other order are searched
    const SIGN: u64 = 1 << 63;
    let mut order: Vec<u32> = (0..keys.len() as u32).collect();
    radix_sort_by_key(&mut order, |&k| keys[k as usize] ^ SIGN); // stable: equal keys stay in suspect order
    let sorted: Vec<u64> = order.iter().map(|&k| keys[k as usize] ^ SIGN).collect();
    let (mut d, mut i, mut j) = (Vec::new(), Vec::new(), Vec::new());
    let mut a = 0usize;
    let mut previous: Option<u64> = None;
    for (r, &h) in row_hash.iter().enumerate() {
        let h = h ^ SIGN;
        match previous {
            Some(p) if p <= h => {
                while a < sorted.len() && sorted[a] < h {
                    a += 1;
                }
            }
            _ => a = sorted.partition_point(|&x| x < h),
        }
        previous = Some(h);
        let mut b = a;
        while b < sorted.len() && sorted[b] == h {
            d.push(row_doc[r]);
            i.push(key_pos[order[b] as usize]);
            j.push(row_pos[r]);
            b += 1;
        }
    }
    Ok((d, i, j))
}

/// What makes a cluster count (`candidates._clusters`).
#[derive(Clone, Copy, Debug)]
pub struct ClusterRules<'a> {
    pub near_suspect: i64,
    pub near_source: i64,
    /// Tokens a cluster covers to count whatever its sentences (`candidates.MIN_TOKENS`).
    pub min_tokens: i64,
    /// Tokens of a key (`keys.PAIR_WORDS`).
    pub pair_words: i64,
    /// (first token of the sentence of each suspect token, one past its last token).
    pub sentence_bounds: Option<(&'a [i64], &'a [i64])>,
    pub sentence_share: f64,
}

/// Clusters that count: (document, first suspect token, one past the last, tokens covered),
/// by document and suspect position.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Clusters {
    pub docs: Vec<i64>,
    pub first: Vec<i64>,
    pub end: Vec<i64>,
    pub covered: Vec<i64>,
}

/// Which seeds (sorted by d, i, j) are supported (`candidates._supported`): the next seed on its
/// diagonal follows it, or one of the next eight seeds of its document in suspect order lies
/// within `near_suspect` / `near_source` tokens, at another position in both texts.
pub fn supported(d: &[i64], i: &[i64], j: &[i64], near_suspect: i64, near_source: i64) -> Vec<bool> {
    let seeds: Vec<(i64, i64, i64)> = (0..d.len()).map(|k| (d[k], i[k], j[k])).collect();
    supported_sorted(&seeds, near_suspect, near_source)
}

/// [`supported`] over seeds sorted as tuples.
///
/// The run on a diagonal: seed `(d, i, j)` and seed `(d, i + 1, j + 1)`, found by one sweep of
/// the sorted seeds (the seeds sought are sorted too; no second sort by diagonal); of equal
/// seeds, the last one and the first one of the next are marked, as neighbours in the order by
/// (d, diagonal, i) are.
fn supported_sorted<T: Ord + Copy>(seeds: &[T], near_suspect: i64, near_source: i64) -> Vec<bool>
where T: Seed {
    let n = seeds.len();
    let mut out = vec![false; n];
    let mut m = 0usize;
    for k in 0..n {
        if k + 1 < n && seeds[k + 1] == seeds[k] {
            continue; // not the last of equal seeds
        }
        let next = seeds[k].next_on_diagonal();
        m = m.max(k + 1);
        while m < n && seeds[m] < next {
            m += 1;
        }
        if m < n && seeds[m] == next {
            out[k] = true;
            out[m] = true;
        }
    }
    for k in 0..n {
        let (dk, ik, jk) = seeds[k].parts();
        for s in 1..=8 {
            let m = k + s;
            if m >= n {
                break;
            }
            let (dm, im, jm) = seeds[m].parts();
            if dm != dk || im - ik > near_suspect {
                break;
            }
            let jump = jm - jk;
            if jump.abs() <= near_source && im != ik && jump != 0 {
                out[k] = true;
                out[m] = true;
            }
        }
    }
    out
}

/// A seed `(d, i, j)` as a sortable value.
trait Seed: Sized {
    fn parts(&self) -> (i64, i64, i64);
    fn next_on_diagonal(&self) -> Self;
}

impl Seed for (i64, i64, i64) {
    fn parts(&self) -> (i64, i64, i64) {
        *self
    }
    fn next_on_diagonal(&self) -> Self {
        (self.0, self.1 + 1, self.2 + 1)
    }
}

/// `d << 64 | i << 32 | j`: positions below 2^32 - 1.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct Packed(u128);

const MASK: u128 = (1 << 32) - 1;

impl Seed for Packed {
    fn parts(&self) -> (i64, i64, i64) {
        ((self.0 >> 64) as i64, ((self.0 >> 32) & MASK) as i64, (self.0 & MASK) as i64)
    }
    fn next_on_diagonal(&self) -> Self {
        Packed(self.0 + (1 << 32) + 1)
    }
}

/// Whether a cluster of keys from suspect token `first` to the key at `last`, covering `covered`
/// tokens, counts ([`clusters`], [`places`]): `min_tokens` or more; 3 or more when it is a whole
/// suspect sentence, or (`sentence_share` < 1) that share of the one sentence it lies in; any 3
/// without sentence bounds.
fn counts(first: i64, last: i64, covered: i64, rules: &ClusterRules) -> Result<bool, Error> {
    let Some((starts, ends)) = rules.sentence_bounds else {
        return Ok(covered >= rules.min_tokens || covered >= 3);
    };
    let pw = rules.pair_words;
    let tail = (last + pw - 1) as usize;
    if first < 0 || first as usize >= starts.len() || tail >= starts.len() || starts.len() != ends.len() {
        return Err(bad("clusters: a seed beyond the suspect's sentence bounds".into()));
    }
    if covered >= rules.min_tokens || covered < 3 {
        return Ok(covered >= rules.min_tokens);
    }
    let f = first as usize;
    let mut whole = starts[f] >= first && ends[tail] <= last + pw;
    if rules.sentence_share < 1.0 {
        let one = starts[f] == starts[tail];
        whole |= one && (covered as f64) >= rules.sentence_share * ((ends[f] - starts[f]) as f64);
    }
    Ok(whole)
}

/// The clusters that count among seeds `(d, i, j)` in any order (`candidates._clusters`);
/// documents and positions must be >= 0, positions below 2^32.
pub fn clusters(d: &[i64], i: &[i64], j: &[i64], rules: &ClusterRules) -> Result<Clusters, Error> {
    if d.len() != i.len() || d.len() != j.len() {
        return Err(bad("clusters: the arrays' lengths disagree".into()));
    }
    const POS: i64 = (1 << 32) - 1;
    for k in 0..d.len() {
        if d[k] < 0 || !(0..POS).contains(&i[k]) || !(0..POS).contains(&j[k]) {
            return Err(bad("clusters: a negative document or a position out of range".into()));
        }
    }
    let bits = |x: &[i64]| 64 - x.iter().copied().max().unwrap_or(0).leading_zeros();
    let (bd, bi, bj) = (bits(d), bits(i), bits(j));
    let kept: Vec<(i64, i64)> = if bd + bi + bj <= 64 {
        // the seeds as one 64-bit number each (the usual case), sorted by bytes
        let mut seeds: Vec<u64> = (0..d.len())
            .map(|k| ((d[k] as u64) << (bi + bj)) | ((i[k] as u64) << bj) | j[k] as u64)
            .collect();
        radix_sort_by_key(&mut seeds, |&x| x);
        let (mi, mj) = ((1u64 << bi) - 1, (1u64 << bj) - 1);
        let unpack = |s: u64| ((s >> (bi + bj)) as i64, ((s >> bj) & mi) as i64, (s & mj) as i64);
        let tuples: Vec<(i64, i64, i64)> = seeds.iter().map(|&s| unpack(s)).collect();
        let ok = supported_sorted(&tuples, rules.near_suspect, rules.near_source);
        (0..tuples.len()).filter(|&k| ok[k]).map(|k| (tuples[k].0, tuples[k].1)).collect()
    } else {
        let mut seeds: Vec<Packed> = (0..d.len())
            .map(|k| Packed(((d[k] as u128) << 64) | ((i[k] as u128) << 32) | j[k] as u128))
            .collect();
        seeds.sort_unstable(); // by (d, i, j): one number per seed
        let ok = supported_sorted(&seeds, rules.near_suspect, rules.near_source);
        (0..seeds.len()).filter(|&k| ok[k]).map(|k| {
            let (d, i, _) = seeds[k].parts();
            (d, i)
        }).collect()
    };
    let mut out = Clusters::default();
    let pw = rules.pair_words;
    let mut k = 0;
    while k < kept.len() {
        let (doc, first) = kept[k];
        let mut covered = 0i64;
        let mut m = k;
        loop {
            let next = m + 1;
            if next < kept.len() && kept[next].0 == doc && kept[next].1 - kept[m].1 <= rules.near_suspect {
                covered += (kept[next].1 - kept[m].1).min(pw);
                m = next;
            } else {
                covered += pw; // the last seed of a cluster covers its two tokens
                break;
            }
        }
        let last = kept[m].1;
        if counts(first, last, covered, rules)? {
            out.docs.push(doc);
            out.first.push(first);
            out.end.push(last + pw);
            out.covered.push(covered);
        }
        k = m + 1;
    }
    Ok(out)
}

/// The source positions of the pair keys `(i, j)` of one document that lie in places that count
/// (`windows.kept_hits`): a place is a group of keys each within `near_suspect` / `near_source`
/// tokens of another of the group (at another source position; linked one to the next, among
/// the 16 keys that follow each in `(i, j)` order), and it counts as a cluster counts
/// ([`clusters`]: the suspect tokens its keys cover, or a whole sentence or share of one when
/// small), or when `run` or more of its keys lie one token apart in both texts (a shingle of
/// `run + 1` tokens both texts hold). Equal keys count once. Sorted, positions >= 0.
pub fn places(i: &[i64], j: &[i64], rules: &ClusterRules, run: i64) -> Result<Vec<i64>, Error> {
    if i.len() != j.len() {
        return Err(bad("places: the arrays' lengths disagree".into()));
    }
    if i.iter().chain(j.iter()).any(|&x| x < 0) {
        return Err(bad("places: a negative position".into()));
    }
    let mut keys: Vec<(i64, i64)> = i.iter().copied().zip(j.iter().copied()).collect();
    keys.sort_unstable();
    keys.dedup();
    let n = keys.len();
    let mut group: Vec<usize> = (0..n).collect();
    fn root(group: &mut [usize], mut x: usize) -> usize {
        while group[x] != x {
            group[x] = group[group[x]]; // paths halved
            x = group[x];
        }
        x
    }
    let mut linked = vec![false; n];
    for k in 0..n {
        let (ik, jk) = keys[k];
        for m in k + 1..(k + 17).min(n) {
            let (im, jm) = keys[m];
            if im - ik > rules.near_suspect {
                break;
            }
            if (jm - jk).abs() <= rules.near_source && jm != jk {
                linked[k] = true;
                linked[m] = true;
                let (a, b) = (root(&mut group, k), root(&mut group, m));
                if a != b {
                    group[a.max(b)] = a.min(b);
                }
            }
        }
    }
    // the linked keys by place, then suspect position
    let mut by: Vec<(usize, i64, i64)> =
        (0..n).filter(|&k| linked[k]).map(|k| (root(&mut group, k), keys[k].0, keys[k].1)).collect();
    by.sort_unstable();
    let mut place_counts = vec![false; n]; // by a place's root
    // runs on a diagonal: (diagonal, suspect position) in order
    let mut diagonal: Vec<(i64, i64, usize)> = by.iter().map(|&(g, x, y)| (y - x, x, g)).collect();
    diagonal.sort_unstable();
    let mut start = 0;
    for k in 1..=diagonal.len() {
        let goes_on =
            k < diagonal.len() && diagonal[k].0 == diagonal[k - 1].0 && diagonal[k].1 == diagonal[k - 1].1 + 1;
        if !goes_on {
            if (k - start) as i64 >= run.max(1) {
                for d in &diagonal[start..k] {
                    place_counts[d.2] = true;
                }
            }
            start = k;
        }
    }
    let pw = rules.pair_words;
    let mut k = 0;
    while k < by.len() {
        let g = by[k].0;
        let mut m = k;
        let mut covered = 0i64;
        while m + 1 < by.len() && by[m + 1].0 == g {
            covered += (by[m + 1].1 - by[m].1).min(pw);
            m += 1;
        }
        covered += pw;
        place_counts[g] |= counts(by[k].1, by[m].1, covered, rules)?;
        k = m + 1;
    }
    let mut out: Vec<i64> = by.iter().filter(|e| place_counts[e.0]).map(|e| e.2).collect();
    out.sort_unstable();
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules() -> ClusterRules<'static> {
        ClusterRules { near_suspect: 9, near_source: 30, min_tokens: 5, pair_words: 2, sentence_bounds: None,
                       sentence_share: 1.0 }
    }

    #[test]
    fn places_keep_what_can_be_a_passage() {
        let r = ClusterRules { near_suspect: 10, near_source: 52, min_tokens: 5, pair_words: 2, sentence_bounds: None,
                               sentence_share: 0.5 };
        // two keys a few tokens apart: 4 tokens, no whole sentence known: counted as 3 or more
        assert_eq!(places(&[10, 13], &[1000, 1003], &r, 3).unwrap(), vec![1000, 1003]);
        let starts = vec![0i64; 200];
        let ends = vec![200i64; 200];
        let r = ClusterRules { sentence_bounds: Some((&starts, &ends)), ..r };
        assert!(places(&[10, 13], &[1000, 1003], &r, 3).unwrap().is_empty());
        assert_eq!(places(&[40, 41, 42], &[7000, 7001, 7002], &r, 3).unwrap(), vec![7000, 7001, 7002]);
        assert_eq!(places(&[72, 60, 66], &[9080, 9000, 9040], &r, 3).unwrap(), vec![9000, 9040, 9080]);
        // equal keys count once; a lone key is no place
        assert!(places(&[10, 10, 13, 90], &[1000, 1000, 1003, 5000], &r, 3).unwrap().is_empty());
        assert!(places(&[1], &[2, 3], &r, 3).is_err());
    }

    #[test]
    fn radix_sort_is_stable_and_sorts() {
        let mut x: Vec<(u64, usize)> = (0..5000).map(|k| ((k as u64 * 2_654_435_761) % 977 << 40 | (k as u64 % 3), k)).collect();
        let mut want = x.clone();
        want.sort_by_key(|p| p.0); // stable
        radix_sort_by_key(&mut x, |p| p.0);
        assert_eq!(x, want);
        let mut big: Vec<u64> = (0..300).map(|k| u64::MAX - k * 7919).collect();
        radix_sort_by_key(&mut big, |&v| v);
        assert!(big.windows(2).all(|w| w[0] <= w[1]));
    }

    #[test]
    fn wide_seeds_sort_as_128_bit_numbers() {
        let d = [1i64 << 40, 3, 1 << 40];
        let c = clusters(&d, &[5, 4, 4], &[(1 << 31) + 1, 20, 1 << 31], &rules()).unwrap();
        assert_eq!(c.docs, vec![1 << 40]);
        assert_eq!(c.first, vec![4]);
    }

    #[test]
    fn lookup_skips_missing_and_long_keys() {
        let keys = [-5i64, 3, 9];
        let offsets = [0u64, 2, 3, 6];
        let docs = [1u32, 2, 1, 1, 2, 3];
        let pos = [10u32, 4, 7, 1, 2, 3];
        let p = Postings::new(&keys, &offsets, &docs, &pos).unwrap();
        let (h, d, j) = lookup(&p, &[9, -5, 4, 9, 100, -7], 2);
        assert_eq!(h, vec![-5, -5]); // 9 has 3 rows: over the limit
        assert_eq!(d, vec![1, 2]);
        assert_eq!(j, vec![10, 4]);
        let (h, _, _) = lookup(&p, &[9, 3, -5], 0);
        assert_eq!(h, vec![-5, -5, 3, 9, 9, 9]);
    }

    #[test]
    fn damaged_postings_are_refused() {
        assert!(Postings::new(&[1, 1], &[0, 1, 2], &[0, 0], &[0, 0]).is_err());
        assert!(Postings::new(&[1, 2], &[0, 1, 3], &[0, 0], &[0, 0]).is_err());
        assert!(Postings::new(&[1, 2], &[0, 2, 1], &[0, 0], &[0, 0]).is_err());
        assert!(Postings::new(&[1], &[0, 1], &[0, 0], &[0]).is_err());
    }

    #[test]
    fn expand_repeats_rows_per_occurrence() {
        let (d, i, j) = expand(&[7, 5, 7], &[0, 1, 2], &[7, 6, 5], &[1, 1, 2], &[10, 11, 12]).unwrap();
        assert_eq!(d, vec![1, 1, 2]);
        assert_eq!(i, vec![0, 2, 1]);
        assert_eq!(j, vec![10, 10, 12]);
    }

    #[test]
    fn a_run_of_three_tokens_is_a_small_cluster() {
        // two seeds on one diagonal: tokens 4..7 of the suspect, covered 3
        let c = clusters(&[1, 1], &[5, 4], &[21, 20], &rules()).unwrap();
        assert_eq!(c, Clusters { docs: vec![1], first: vec![4], end: vec![7], covered: vec![3] });
        // a lone seed is never supported
        assert_eq!(clusters(&[1], &[4], &[20], &rules()).unwrap(), Clusters::default());
    }

    #[test]
    fn seeds_at_one_suspect_position_are_no_support() {
        assert_eq!(clusters(&[1, 1], &[4, 4], &[20, 25], &rules()).unwrap(), Clusters::default());
        let near = clusters(&[1, 1], &[4, 8], &[20, 40], &rules()).unwrap();
        assert_eq!(near.covered, vec![4]); // 2 for the gap (at most a key's tokens), 2 for the last key
        assert_eq!(clusters(&[1, 1], &[4, 8], &[20, 51], &rules()).unwrap(), Clusters::default());
    }

    #[test]
    fn small_clusters_need_their_whole_sentence() {
        let starts = [0i64, 0, 0, 3, 3, 3, 3, 3, 3, 3];
        let ends = [3i64, 3, 3, 10, 10, 10, 10, 10, 10, 10];
        let mut r = rules();
        r.sentence_bounds = Some((&starts, &ends));
        let whole = clusters(&[1, 1], &[0, 1], &[5, 6], &r).unwrap();
        assert_eq!(whole.covered, vec![3]);
        assert_eq!(clusters(&[1, 1], &[3, 4], &[5, 6], &r).unwrap(), Clusters::default());
        r.sentence_share = 0.4; // 3 of 7 tokens
        assert_eq!(clusters(&[1, 1], &[3, 4], &[5, 6], &r).unwrap().covered, vec![3]);
        assert!(clusters(&[1, 1], &[30, 31], &[5, 6], &r).is_err());
    }
}
