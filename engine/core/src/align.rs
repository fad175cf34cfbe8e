//! The array-and-loop heart of alignment (`sverka.core.align`, whose module docstring gives
//! the pipeline): seeds joined, runs, sentence segments, chaining.
//!
//! * [`join_equal`]: every pair of equal values of two arrays, with the repeat limit and the
//!   pair budget (the values making the most pairs dropped first).
//! * [`runs`]: seeds on one diagonal grouped into unbroken runs.
//! * [`segments`]: runs kept near others, the longest runs of a repetitive text, sentence
//!   segments where shingles left a sentence uncovered, the heading cut off.
//! * [`chain`]: greedy chaining under the linker's rules (its cost, the sentences between,
//!   the suspect tokens already taken).
//!
//! Positions are token indices (`i64`, as NumPy gives them); hashes are `u64`. The growth of
//! spans over raw text, the size checks that read words and the passages' kinds stay in
//! Python: they read characters, and cost little beside this.

use std::collections::{HashMap, HashSet};

use crate::error::bad;
use crate::Error;

/// A sorted view of an array: the stable order (`order[k]` is the index of the k-th
/// smallest) and the values in that order.
#[derive(Clone, Copy)]
pub struct SortedRef<'a> {
    pub order: &'a [i64],
    pub values: &'a [u64],
}

fn stable_order(x: &[u64]) -> (Vec<i64>, Vec<u64>) {
    let mut order: Vec<i64> = (0..x.len() as i64).collect();
    order.sort_by_key(|&k| x[k as usize]); // a stable sort: equal values keep their order
    let values = order.iter().map(|&k| x[k as usize]).collect();
    (order, values)
}

/// The first index at or after `from` where `before` stops holding (`before` holds on a prefix
/// of `v[from..]`), by steps doubling then halving: O(log distance).
fn gallop(v: &[u64], from: usize, before: impl Fn(u64) -> bool) -> usize {
    let n = v.len();
    if from >= n || !before(v[from]) {
        return from;
    }
    let (mut lo, mut step) = (from, 1usize); // before(v[lo]) holds
    while lo + step < n && before(v[lo + step]) {
        lo += step;
        step *= 2;
    }
    let hi = (lo + step).min(n); // before(v[hi]) fails, or hi == n
    lo + 1 + v[lo + 1..hi].partition_point(|&z| before(z))
}

fn checked<'a>(s: SortedRef<'a>, n: usize, what: &str) -> Result<SortedRef<'a>, Error> {
    if s.order.len() != n || s.values.len() != n {
        return Err(bad(format!(
            "{what}: the sorted view has {} and {} entries for {n} values",
            s.order.len(),
            s.values.len()
        )));
    }
    if s.order.iter().any(|&k| k < 0 || k as usize >= n) {
        return Err(bad(format!("{what}: an order index out of range")));
    }
    Ok(s)
}

/// The sorted view of `x`: the one given (checked), else one made into `own`.
fn sorted_view<'a>(
    x: &[u64],
    given: Option<SortedRef<'a>>,
    own: &'a mut Option<(Vec<i64>, Vec<u64>)>,
    what: &str,
) -> Result<SortedRef<'a>, Error> {
    match given {
        Some(s) => checked(s, x.len(), what),
        None => {
            let (order, values) = own.insert(stable_order(x));
            Ok(SortedRef { order, values })
        }
    }
}

/// All pairs `(i, j)` with `x[i] == y[j]`, sorted by `i` then `j`.
///
/// Values occurring more than `max_repeats` times in `x` or in `y` are skipped (0: no
/// limit). With a `budget` (0: none), at most that many pairs are made: the values making
/// the most pairs (count in x times count in y) are dropped first, all values making as many
/// pairs as the one that would pass the budget included. `x_sorted` / `y_sorted`: the sorted
/// views if known (else made here); the result does not depend on them.
pub fn join_equal(
    x: &[u64],
    x_sorted: Option<SortedRef<'_>>,
    y: &[u64],
    y_sorted: Option<SortedRef<'_>>,
    max_repeats: u64,
    budget: u64,
) -> Result<(Vec<i64>, Vec<i64>), Error> {
    if x.is_empty() || y.is_empty() {
        return Ok((Vec::new(), Vec::new()));
    }
    let (mut own_x, mut own_y) = (None, None);
    let xs = sorted_view(x, x_sorted, &mut own_x, "join_equal x")?;
    let ys = sorted_view(y, y_sorted, &mut own_y, "join_equal y")?;
    // Per distinct value of x (in order), its run in y, found by galloping from where the
    // previous value's search ended: the cost follows the smaller side (a suspect's few
    // thousand values against a novel's hundreds of thousands), not the sum of both.
    struct Shared {
        x0: usize,
        x1: usize,
        y0: usize,
        y1: usize,
    }
    let mut shared: Vec<Shared> = Vec::new();
    let (xv, yv) = (xs.values, ys.values);
    let (mut p, mut q) = (0usize, 0usize);
    while p < xv.len() && q < yv.len() {
        let v = xv[p];
        let x0 = p;
        p = gallop(xv, p, |z| z <= v);
        q = gallop(yv, q, |z| z < v);
        if q == yv.len() || yv[q] != v {
            continue;
        }
        let y0 = q;
        q = gallop(yv, q, |z| z <= v);
        let (cx, cy) = ((p - x0) as u64, (q - y0) as u64);
        if max_repeats > 0 && (cx > max_repeats || cy > max_repeats) {
            continue;
        }
        shared.push(Shared {
            x0,
            x1: p,
            y0,
            y1: q,
        });
    }
    let pairs_of = |s: &Shared| ((s.x1 - s.x0) as u64) * ((s.y1 - s.y0) as u64);
    if budget > 0 {
        let total: u64 = shared.iter().map(pairs_of).sum();
        if total > budget {
            let mut by: Vec<u64> = shared.iter().map(pairs_of).collect();
            by.sort_unstable();
            let mut made = 0u64;
            let mut limit = u64::MAX;
            for v in by {
                made += v;
                if made > budget {
                    limit = v;
                    break;
                }
            }
            shared.retain(|s| pairs_of(s) < limit);
        }
    }
    // Per index of x, the run of y it pairs with; then the pairs in x's order.
    let mut run_of: Vec<u32> = vec![u32::MAX; x.len()];
    let mut total = 0usize;
    for (k, s) in shared.iter().enumerate() {
        for &i in &xs.order[s.x0..s.x1] {
            run_of[i as usize] = k as u32;
        }
        total += (s.x1 - s.x0) * (s.y1 - s.y0);
    }
    let mut is = Vec::with_capacity(total);
    let mut js = Vec::with_capacity(total);
    for (i, &k) in run_of.iter().enumerate() {
        if k == u32::MAX {
            continue;
        }
        let s = &shared[k as usize];
        for &j in &ys.order[s.y0..s.y1] {
            is.push(i as i64);
            js.push(j);
        }
    }
    Ok((is, js))
}

/// Matched tokens `a[a0..a1)` ~ `b[b0..b1)`; `sentence` if found by sentence hashes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Segment {
    pub a0: i64,
    pub a1: i64,
    pub b0: i64,
    pub b1: i64,
    pub sentence: bool,
}

/// Seeds `(i, j)` of `w`-token shingles grouped into unbroken diagonal runs, sorted by `a0`,
/// the longer first, then by diagonal. Seeds on one diagonal whose shingles touch or overlap
/// belong to one run.
pub fn runs(i: &[i64], j: &[i64], w: i64) -> Result<Vec<Segment>, Error> {
    if i.len() != j.len() {
        return Err(bad(format!(
            "runs: {} and {} seed positions",
            i.len(),
            j.len()
        )));
    }
    let mut seeds: Vec<(i64, i64)> = Vec::with_capacity(i.len());
    let (lo_i, hi_i) = (
        i.iter().copied().min().unwrap_or(0),
        i.iter().copied().max().unwrap_or(0),
    );
    let lo_d = i.iter().zip(j).map(|(&i, &j)| j - i).min().unwrap_or(0);
    let hi_d = i.iter().zip(j).map(|(&i, &j)| j - i).max().unwrap_or(0);
    if lo_i >= 0 && hi_i < 1 << 32 && hi_d - lo_d < 1 << 31 {
        // (diagonal, position) packed into one integer: one sort of plain integers
        let mut keys: Vec<u64> = i
            .iter()
            .zip(j)
            .map(|(&i, &j)| (((j - i - lo_d) as u64) << 32) | i as u64)
            .collect();
        keys.sort_unstable();
        seeds.extend(
            keys.into_iter()
                .map(|k| ((k >> 32) as i64 + lo_d, (k & 0xffff_ffff) as i64)),
        );
    } else {
        seeds.extend(i.iter().zip(j).map(|(&i, &j)| (j - i, i)));
        seeds.sort_unstable();
    }
    let mut out = Vec::new();
    let mut k = 0;
    while k < seeds.len() {
        let (d, start) = seeds[k];
        let mut last = start;
        k += 1;
        while k < seeds.len() && seeds[k].0 == d && seeds[k].1 - last <= w {
            last = seeds[k].1;
            k += 1;
        }
        out.push(Segment {
            a0: start,
            a1: last + w,
            b0: start + d,
            b1: last + w + d,
            sentence: false,
        });
    }
    out.sort_unstable_by_key(|s| (s.a0, -s.a1, s.b0)); // the key is unique: one run per (start, diagonal)
    Ok(out)
}

/// How far (in multiples of `max_gap`) the next run may lie from a passage in the source.
pub const SOURCE_WINDOW: i64 = 8;
/// Chains still open when a segment arrives that are looked at.
pub const ACTIVE_LIMIT: usize = 16;
/// Runs kept per suspect token (the longest stay).
pub const SEGMENTS_PER_TOKEN: usize = 1;
/// Repeats of a sentence hash on either side beyond which it makes no segment.
pub const SENTENCE_MAX_REPEATS: u64 = 4;

/// The runs that may belong to a passage: those longer than one seed, and the one-seed runs
/// with another run close by in both texts (among the next and previous eight).
pub fn near_others(seg: &[Segment], w: i64, max_gap: i64) -> Vec<Segment> {
    let n = seg.len();
    let mut keep: Vec<bool> = seg.iter().map(|s| s.a1 - s.a0 > w).collect();
    let near_a = max_gap + w;
    let near_b = max_gap * SOURCE_WINDOW + 2 * w;
    for shift in 1..9 {
        if shift >= n {
            break;
        }
        for k in 0..n - shift {
            let (s, t) = (&seg[k], &seg[k + shift]);
            if t.a0 - s.a1 <= near_a && (t.b0 - s.b0).abs() <= near_b {
                keep[k] = true;
                keep[k + shift] = true;
            }
        }
    }
    seg.iter()
        .zip(keep)
        .filter(|(_, k)| *k)
        .map(|(s, _)| *s)
        .collect()
}

/// One side's sentences of at least `min_sentence_words` tokens: their hashes (with a sorted
/// view) and token ranges.
pub struct Sentences<'a> {
    pub hashes: &'a [u64],
    pub sorted: Option<SortedRef<'a>>,
    pub first: &'a [i64],
    pub last: &'a [i64],
}

/// What [`segments`] needs besides the seeds.
pub struct SegmentInput<'a> {
    pub n_a: usize,
    pub n_b: usize,
    pub w: i64,
    pub max_gap: i64,
    /// sentence segments are looked for only when this is > 0
    pub min_sentence_words: i64,
    pub a_sentences: Sentences<'a>,
    pub b_sentences: Sentences<'a>,
    /// the suspect's tokens before this one are never matched
    pub a_first: i64,
}

/// The segments of one pair, in the order chaining reads them (`sverka.core.align.align`,
/// steps 2 and 3): the runs of the seeds `(i, j)` near others; of a repetitive text only the
/// longest, one per suspect token; the sentences whose hashes agree, where the runs cover less
/// than half of the suspect's sentence; each cut to the tokens after the heading.
pub fn segments(i: &[i64], j: &[i64], input: &SegmentInput<'_>) -> Result<Vec<Segment>, Error> {
    let (w, n) = (input.w, input.n_a);
    let mut seg = near_others(&runs(i, j, w)?, w, input.max_gap);
    if seg.len() > SEGMENTS_PER_TOKEN * n.max(1) {
        let mut by_length: Vec<usize> = (0..seg.len()).collect();
        by_length.sort_by_key(|&k| seg[k].a0 - seg[k].a1); // stable: the earlier of equals first
        by_length.truncate(SEGMENTS_PER_TOKEN * n);
        by_length.sort_unstable();
        seg = by_length.into_iter().map(|k| seg[k]).collect();
    }
    if input.min_sentence_words > 0 && n > 0 && input.n_b > 0 {
        let sent = sentence_segments(&seg, input)?;
        if !sent.is_empty() {
            seg.extend(sent);
            seg.sort_by_key(|s| (s.a0, -s.a1)); // stable: runs before sentences of the same range
        }
    }
    if input.a_first > 0 {
        let head = Taken::new(vec![0], vec![input.a_first])?;
        let mut out = Vec::with_capacity(seg.len());
        for s in seg {
            if s.a0 < input.a_first {
                out.extend(clip(&s, &head));
            } else {
                out.push(s);
            }
        }
        seg = out;
    }
    Ok(seg)
}

fn sentence_segments(seg: &[Segment], input: &SegmentInput<'_>) -> Result<Vec<Segment>, Error> {
    let n = input.n_a;
    let (sa, sb) = (&input.a_sentences, &input.b_sentences);
    for (side, s) in [("suspect", sa), ("source", sb)] {
        if s.first.len() != s.hashes.len() || s.last.len() != s.hashes.len() {
            return Err(bad(format!(
                "{side} sentences: hashes and ranges of different lengths"
            )));
        }
    }
    // covered[k]: how many of the suspect's first k tokens some run covers
    let mut cov = vec![0i64; n + 1];
    for s in seg {
        cov[s.a0 as usize] += 1;
        cov[s.a1 as usize] -= 1;
    }
    let mut covered = vec![0i64; n + 1];
    let mut depth = 0i64;
    for k in 0..n {
        depth += cov[k];
        covered[k + 1] = covered[k] + (depth > 0) as i64;
    }
    let (ia, jb) = join_equal(
        sa.hashes,
        sa.sorted,
        sb.hashes,
        sb.sorted,
        SENTENCE_MAX_REPEATS,
        0,
    )?;
    let mut out = Vec::new();
    for (&x, &y) in ia.iter().zip(&jb) {
        let (a0, a1) = (sa.first[x as usize], sa.last[x as usize]);
        if a0 < 0 || a1 < a0 || a1 as usize > n {
            return Err(bad(
                "suspect sentences: a range out of the tokens".to_string()
            ));
        }
        if (covered[a1 as usize] - covered[a0 as usize]) * 2 >= a1 - a0 {
            continue; // shingles found it already
        }
        out.push(Segment {
            a0,
            a1,
            b0: sb.first[y as usize],
            b1: sb.last[y as usize],
            sentence: true,
        });
    }
    Ok(out)
}

/// Disjoint sorted suspect token ranges already given to a passage.
pub struct Taken {
    starts: Vec<i64>,
    ends: Vec<i64>,
}

impl Taken {
    pub fn new(starts: Vec<i64>, ends: Vec<i64>) -> Result<Self, Error> {
        if starts.len() != ends.len() || starts.windows(2).any(|p| p[0] > p[1]) {
            return Err(bad(
                "taken ranges: starts and ends of different lengths, or unsorted".to_string(),
            ));
        }
        Ok(Taken { starts, ends })
    }

    fn upper(&self, x: i64) -> usize {
        self.starts.partition_point(|&s| s <= x) // bisect_right
    }

    pub fn overlaps(&self, a0: i64, a1: i64) -> bool {
        let k = self.upper(a0);
        if k > 0 && self.ends[k - 1] > a0 {
            return true;
        }
        k < self.starts.len() && self.starts[k] < a1
    }

    pub fn free_parts(&self, a0: i64, a1: i64) -> Vec<(i64, i64)> {
        let mut out = Vec::new();
        let mut k = self.upper(a0).saturating_sub(1);
        let mut pos = a0;
        while k < self.starts.len() && self.starts[k] < a1 {
            if self.ends[k] > pos {
                if self.starts[k] > pos {
                    out.push((pos, self.starts[k]));
                }
                pos = self.ends[k];
            }
            k += 1;
        }
        if pos < a1 {
            out.push((pos, a1));
        }
        out
    }
}

/// The parts of `seg` on suspect tokens not yet taken (the source follows the diagonal; a
/// sentence segment of another length keeps its whole source range).
pub fn clip(seg: &Segment, taken: &Taken) -> Vec<Segment> {
    let same = seg.a1 - seg.a0 == seg.b1 - seg.b0;
    taken
        .free_parts(seg.a0, seg.a1)
        .into_iter()
        .map(|(x0, x1)| {
            let (y0, y1) = if seg.sentence && !same {
                (seg.b0, seg.b1)
            } else {
                (seg.b0 + (x0 - seg.a0), seg.b0 + (x1 - seg.a0))
            };
            Segment {
                a0: x0,
                a1: x1,
                b0: y0,
                b1: y1,
                sentence: seg.sentence,
            }
        })
        .collect()
}

/// Segments linked into one passage: suspect hull `[a0, a1)`, source hull `[b0, b1)`.
struct Chain {
    a0: i64,
    a1: i64,
    b0: i64,
    b1: i64,
    matched: i64,
    bspans: Vec<(i64, i64)>, // the segments' source ranges, sorted
}

impl Chain {
    fn new(s: &Segment) -> Self {
        Chain {
            a0: s.a0,
            a1: s.a1,
            b0: s.b0,
            b1: s.b1,
            matched: s.a1 - s.a0,
            bspans: vec![(s.b0, s.b1)],
        }
    }

    fn add(&mut self, s: &Segment) {
        self.matched += s.a1 - s.a0.max(self.a1);
        self.a1 = self.a1.max(s.a1);
        self.b0 = self.b0.min(s.b0);
        self.b1 = self.b1.max(s.b1);
        let at = self.bspans.partition_point(|&p| p <= (s.b0, s.b1)); // insort: after equals
        self.bspans.insert(at, (s.b0, s.b1));
    }

    /// Source tokens of `[b0, b1)` already matched by a segment of this chain (among the 8
    /// spans on either side of where it would stand).
    fn b_overlap(&self, b0: i64, b1: i64) -> i64 {
        let k = self.bspans.partition_point(|&p| p < (b0, b0));
        let lo = k.saturating_sub(8);
        let hi = (k + 8).min(self.bspans.len());
        self.bspans[lo..hi]
            .iter()
            .map(|&(x0, x1)| (b1.min(x1) - b0.max(x0)).max(0))
            .sum()
    }
}

/// The two texts' arrays the linker reads: suspect sentence ids and token hashes, source
/// token hashes and sentence ids.
pub struct Texts<'a> {
    pub sid: &'a [i32],
    pub ha: &'a [u64],
    pub hb: &'a [u64],
    pub bsid: &'a [i32],
}

/// When may a segment join a chain (`sverka.core.align._Linker` in the oracle, whose
/// docstring gives the rules)? A cost, lower is better, or None.
struct Linker<'a> {
    t: &'a Texts<'a>,
    max_gap: i64,
    overlap: i64,
    taken: Option<&'a Taken>,
}

impl Linker<'_> {
    fn copied_sentences(&self, c: &Chain, s: &Segment) -> bool {
        let (sid, ha, hb, bsid) = (self.t.sid, self.t.ha, self.t.hb, self.t.bsid);
        let lo = (c.b0.min(s.b0) - self.max_gap).max(0);
        let hi = (c.b1.max(s.b1) + self.max_gap).min(hb.len() as i64);
        if hi - lo > 2000 {
            return false;
        }
        let mut source_sentences: HashMap<i32, HashSet<u64>> = HashMap::new();
        if lo < hi {
            for k in lo as usize..hi as usize {
                source_sentences.entry(bsid[k]).or_default().insert(hb[k]);
            }
        }
        let (first, last) = (sid[(c.a1 - 1) as usize], sid[s.a0 as usize]);
        let mut gap: HashMap<i32, HashSet<u64>> = HashMap::new();
        for k in c.a1..s.a0 {
            let id = sid[k as usize];
            if first < id && id < last {
                gap.entry(id).or_default().insert(ha[k as usize]);
            }
        }
        let between: HashSet<i32> = if c.b1 < s.b0 {
            bsid[c.b1 as usize..s.b0 as usize].iter().copied().collect()
        } else {
            HashSet::new()
        };
        gap.values().all(|words| {
            source_sentences
                .iter()
                .any(|(k, held)| words.is_subset(held) && (words.len() >= 2 || between.contains(k)))
        })
    }

    fn cost(&self, c: &Chain, s: &Segment) -> Option<i64> {
        let ga = s.a0 - c.a1;
        if ga > self.max_gap || ga < -self.overlap || s.a1 <= c.a1 {
            return None;
        }
        let lone = s.a1 - s.a0 <= self.overlap || c.matched <= self.overlap;
        let window = if lone {
            self.max_gap
        } else {
            self.max_gap * SOURCE_WINDOW
        };
        let cost = if s.b0 >= c.b1 - self.overlap {
            // after the source range: the usual continuation
            let gb = s.b0 - c.b1;
            if gb > window || s.b1 <= c.b1 {
                return None;
            }
            ga.max(0) + gb.max(0) + (ga - gb).abs()
        } else {
            // before the source range, or inside it
            let dist = (c.b0 - s.b1).max(0);
            if dist > window {
                return None;
            }
            if (s.b1 - s.b0) - c.b_overlap(s.b0, s.b1) <= 0 {
                return None; // nothing new on the source side: a repeat, not a reordering
            }
            ga.max(0) + dist + self.max_gap + 1
        };
        if ga > 0 {
            let sid = self.t.sid;
            if sid[s.a0 as usize] as i64 - sid[(c.a1 - 1) as usize] as i64 >= 2
                && !self.copied_sentences(c, s)
            {
                return None;
            }
            if let Some(taken) = self.taken {
                if taken.overlaps(c.a1, s.a0) {
                    return None;
                }
            }
        }
        Some(cost)
    }
}

/// A chain as [`chain`] returns it: its hulls and matched suspect tokens.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChainHull {
    pub a0: i64,
    pub a1: i64,
    pub b0: i64,
    pub b1: i64,
    pub matched: i64,
}

fn check_segments(segments: &[Segment], t: &Texts<'_>) -> Result<(), Error> {
    if t.sid.len() != t.ha.len() || t.bsid.len() != t.hb.len() {
        return Err(bad(
            "chain: token hashes and sentence ids of different lengths".to_string(),
        ));
    }
    let (na, nb) = (t.sid.len() as i64, t.hb.len() as i64);
    if segments
        .iter()
        .any(|s| s.a0 < 0 || s.a1 <= s.a0 || s.a1 > na || s.b0 < 0 || s.b1 <= s.b0 || s.b1 > nb)
    {
        return Err(bad(
            "chain: a segment out of the tokens or empty".to_string()
        ));
    }
    Ok(())
}

/// Greedy chaining of segments in the order given (by suspect start): each joins the
/// cheapest of the chains still open (the last [`ACTIVE_LIMIT`] whose end lies within
/// `max_gap` of it) that the linker allows, or begins a chain. Returns the chain of each
/// segment (chains numbered in the order they begin; a chain's segments are in the order
/// they joined it) and each chain's hull.
pub fn chain(
    segments: &[Segment],
    texts: &Texts<'_>,
    max_gap: i64,
    overlap: i64,
    taken: Option<&Taken>,
) -> Result<(Vec<i64>, Vec<ChainHull>), Error> {
    check_segments(segments, texts)?;
    let linker = Linker {
        t: texts,
        max_gap,
        overlap,
        taken,
    };
    let mut chains: Vec<Chain> = Vec::new();
    let mut active: Vec<usize> = Vec::new();
    let mut of = Vec::with_capacity(segments.len());
    for s in segments {
        if !active.is_empty() {
            active.retain(|&c| chains[c].a1 + max_gap >= s.a0);
            if active.len() > ACTIVE_LIMIT {
                active.drain(..active.len() - ACTIVE_LIMIT);
            }
        }
        let mut best: Option<(usize, i64)> = None;
        for &c in &active {
            if let Some(cost) = linker.cost(&chains[c], s) {
                if best.is_none_or(|(_, b)| cost < b) {
                    best = Some((c, cost));
                }
            }
        }
        match best {
            None => {
                chains.push(Chain::new(s));
                active.push(chains.len() - 1);
                of.push((chains.len() - 1) as i64);
            }
            Some((c, _)) => {
                chains[c].add(s);
                of.push(c as i64);
            }
        }
    }
    let hulls = chains
        .iter()
        .map(|c| ChainHull {
            a0: c.a0,
            a1: c.a1,
            b0: c.b0,
            b1: c.b1,
            matched: c.matched,
        })
        .collect();
    Ok((of, hulls))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn brute_join(x: &[u64], y: &[u64], max_repeats: u64) -> Vec<(i64, i64)> {
        let count = |v: &[u64], h: u64| v.iter().filter(|&&z| z == h).count() as u64;
        let mut out = Vec::new();
        for (i, &h) in x.iter().enumerate() {
            if max_repeats > 0 && (count(x, h) > max_repeats || count(y, h) > max_repeats) {
                continue;
            }
            for (j, &g) in y.iter().enumerate() {
                if g == h {
                    out.push((i as i64, j as i64));
                }
            }
        }
        out
    }

    fn pseudo(seed: &mut u64, n: usize, range: u64) -> Vec<u64> {
        (0..n)
            .map(|_| {
                *seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                (*seed >> 33) % range
            })
            .collect()
    }

    #[test]
    fn join_equal_is_every_pair_of_equals_in_order() {
        let mut seed = 7;
        for trial in 0..200 {
            let x = pseudo(&mut seed, trial % 40, 12);
            let y = pseudo(&mut seed, (trial * 7) % 50, 12);
            for mr in [0, 1, 3] {
                let (i, j) = join_equal(&x, None, &y, None, mr, 0).unwrap();
                let got: Vec<(i64, i64)> = i.into_iter().zip(j).collect();
                assert_eq!(
                    got,
                    brute_join(&x, &y, mr),
                    "trial {trial} max_repeats {mr}"
                );
            }
        }
    }

    #[test]
    fn join_equal_gallops_over_a_long_side() {
        let mut seed = 11;
        for trial in 0..50 {
            let x = pseudo(&mut seed, 1 + trial % 7, 3000);
            let y = pseudo(&mut seed, 2000 + trial * 13, 3000);
            for (a, b) in [(&x, &y), (&y, &x)] {
                let (i, j) = join_equal(a, None, b, None, 0, 0).unwrap();
                let got: Vec<(i64, i64)> = i.into_iter().zip(j).collect();
                assert_eq!(got, brute_join(a, b, 0), "trial {trial}");
            }
        }
        let v: Vec<u64> = (0..100).collect();
        for from in 0..100 {
            for t in 0..102u64 {
                assert_eq!(gallop(&v, from, |z| z < t), (t as usize).clamp(from, 100));
            }
        }
    }

    #[test]
    fn the_budget_drops_the_values_making_most_pairs_first() {
        // value 1: 3 x 3 = 9 pairs; value 2: 1 x 2 = 2 pairs; value 3: 1 x 1
        let x = [1, 1, 1, 2, 3];
        let y = [3, 1, 2, 1, 2, 1];
        let (i, j) = join_equal(&x, None, &y, None, 0, 5).unwrap();
        assert_eq!(i, vec![3, 3, 4]);
        assert_eq!(j, vec![2, 4, 0]);
        let (i, _) = join_equal(&x, None, &y, None, 0, 12).unwrap();
        assert_eq!(i.len(), 12); // within the budget: all
        let (i, _) = join_equal(&x, None, &y, None, 0, 2).unwrap();
        assert_eq!(i, vec![4]); // the two-pair value would pass it
    }

    #[test]
    fn runs_join_seeds_of_one_diagonal() {
        // seeds (0,10) (1,11) (2,12) one run; (5,3) alone; (4,14) joins the first only with w >= 2
        let (i, j) = (vec![0, 1, 2, 4, 5], vec![10, 11, 12, 14, 3]);
        let r = runs(&i, &j, 2).unwrap();
        assert_eq!(
            r,
            vec![
                Segment {
                    a0: 0,
                    a1: 6,
                    b0: 10,
                    b1: 16,
                    sentence: false
                },
                Segment {
                    a0: 5,
                    a1: 7,
                    b0: 3,
                    b1: 5,
                    sentence: false
                },
            ]
        );
        let r = runs(&i, &j, 1).unwrap();
        assert_eq!(r.len(), 3);
    }

    #[test]
    fn taken_parts_and_clips() {
        let t = Taken::new(vec![2, 8], vec![4, 10]).unwrap();
        assert!(t.overlaps(3, 5) && t.overlaps(0, 3) && !t.overlaps(4, 8) && t.overlaps(9, 20));
        assert_eq!(t.free_parts(0, 12), vec![(0, 2), (4, 8), (10, 12)]);
        let s = Segment {
            a0: 1,
            a1: 9,
            b0: 101,
            b1: 109,
            sentence: false,
        };
        assert_eq!(
            clip(&s, &t),
            vec![
                Segment {
                    a0: 1,
                    a1: 2,
                    b0: 101,
                    b1: 102,
                    sentence: false
                },
                Segment {
                    a0: 4,
                    a1: 8,
                    b0: 104,
                    b1: 108,
                    sentence: false
                },
            ]
        );
        let s = Segment {
            a0: 1,
            a1: 9,
            b0: 100,
            b1: 103,
            sentence: true,
        }; // another length: whole source
        assert_eq!(
            clip(&s, &t)[1],
            Segment {
                a0: 4,
                a1: 8,
                b0: 100,
                b1: 103,
                sentence: true
            }
        );
    }

    #[test]
    fn a_gap_in_the_suspect_is_bridged_and_an_original_sentence_is_not() {
        let ha: Vec<u64> = (0..30).collect();
        let hb: Vec<u64> = (0..30).collect();
        let bsid = vec![0i32; 30];
        // one sentence: two runs 3 tokens apart chain into one passage
        let sid = vec![0i32; 30];
        let texts = Texts {
            sid: &sid,
            ha: &ha,
            hb: &hb,
            bsid: &bsid,
        };
        let segs = [
            Segment {
                a0: 0,
                a1: 5,
                b0: 0,
                b1: 5,
                sentence: false,
            },
            Segment {
                a0: 8,
                a1: 14,
                b0: 8,
                b1: 14,
                sentence: false,
            },
        ];
        let (of, hulls) = chain(&segs, &texts, 6, 2, None).unwrap();
        assert_eq!(of, vec![0, 0]);
        assert_eq!(
            hulls[0],
            ChainHull {
                a0: 0,
                a1: 14,
                b0: 0,
                b1: 14,
                matched: 11
            }
        );
        // a whole suspect sentence of words the source lacks between them: two passages
        let sid: Vec<i32> = (0..30)
            .map(|k| {
                if k < 5 {
                    0
                } else if k < 8 {
                    1
                } else {
                    2
                }
            })
            .collect();
        let ha: Vec<u64> = (0..30)
            .map(|k| if (5..8).contains(&k) { 1000 + k } else { k })
            .collect();
        let texts = Texts {
            sid: &sid,
            ha: &ha,
            hb: &hb,
            bsid: &bsid,
        };
        let (of, _) = chain(&segs, &texts, 6, 2, None).unwrap();
        assert_eq!(of, vec![0, 1]);
        // taken tokens between them: two passages
        let sid = vec![0i32; 30];
        let texts = Texts {
            sid: &sid,
            ha: &ha,
            hb: &hb,
            bsid: &bsid,
        };
        let taken = Taken::new(vec![6], vec![7]).unwrap();
        let (of, _) = chain(&segs, &texts, 6, 2, Some(&taken)).unwrap();
        assert_eq!(of, vec![0, 1]);
        // out-of-range segments are refused
        let bad = [Segment {
            a0: 0,
            a1: 40,
            b0: 0,
            b1: 5,
            sentence: false,
        }];
        assert!(chain(&bad, &texts, 6, 2, None).is_err());
    }
}
