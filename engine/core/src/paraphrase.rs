//! The paraphrase layer's matching (`sverka.core.paraphrase`, whose module docstring gives
//! the steps): the suspect sentences the exact layer left, the (source token, suspect token)
//! pairs agreeing through a lemma rare in the source, the candidate sentence pairs, the
//! one-to-one matching of their tokens (equal lemmas, then synonyms, then words of one
//! family), the edges cut off, and the weighted Dice that accepts a pair.
//!
//! * [`rare_rows`]: the pairs agreeing through a rare lemma, lemma by lemma.
//! * [`agreeing_bound`]: at most how many tokens [`match_tokens`] can pair in a sentence pair.
//! * [`match_tokens`]: the one-to-one matching of two sentences' tokens.
//! * [`dense`]: small runs of agreeing tokens at the edges cut off.
//! * [`accepted`]: all of it for one pair of texts: the best source sentence of each suspect
//!   sentence, with its matched tokens.
//!
//! What reads characters stays in Python: the pieces (a written word between two agreeing
//! tokens), the kinds, the merge with the exact passages. Weights are `ln((n + 1) / (df + 0.5))`
//! by the platform's `ln`, summed left to right as Python 3.11's `sum` adds floats.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::ops::Range;

use crate::error::bad;
use crate::Error;

/// How two tokens agree: the same lemma, synonyms, words of one family.
pub const SAME: u8 = 0;
pub const SYNONYM: u8 = 1;
pub const FAMILY: u8 = 2;

/// `(suspect token, source token, how)`.
pub type Pair = (i64, i64, u8);

/// Lemma hashes are uniform already: the map uses them as they are.
#[derive(Default)]
struct Identity(u64);

impl Hasher for Identity {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }
    fn write_u64(&mut self, x: u64) {
        self.0 = x;
    }
}

type Map<V> = HashMap<u64, V, BuildHasherDefault<Identity>>;

/// The layer's constants (`sverka.core.paraphrase`'s, read when called).
#[derive(Clone, Copy, Debug)]
pub struct Params {
    pub min_agree: usize,
    pub min_rare: usize,
    pub min_dice: f64,
    pub family_weight: f64,
    pub source_kept: f64,
    pub min_sentence_tokens: i64,
    pub candidates_per_sentence: usize,
    pub pairs_per_token: i64,
    pub edge_gap: i64,
    /// A crowded lemma's source tokens take the suspect tokens nearest where the pairs made
    /// already put them (else the suspect's first ones).
    pub place_crowded: bool,
}

/// The lemmas each suspect token agrees with: token `i`'s own lemma at `keys[start[i]]`, then
/// its related ones (`kinds`: [`SYNONYM`] or [`FAMILY`]) up to `start[i + 1]`.
#[derive(Clone, Copy)]
pub struct Related<'a> {
    pub keys: &'a [u64],
    pub start: &'a [i64],
    pub kinds: &'a [i8],
}

impl Related<'_> {
    fn of(&self, i: i64) -> impl Iterator<Item = (u64, u8)> + '_ {
        let (k0, k1) = (
            self.start[i as usize] as usize + 1,
            self.start[i as usize + 1] as usize,
        );
        self.keys[k0..k1]
            .iter()
            .zip(&self.kinds[k0..k1])
            .map(|(&y, &how)| (y, how as u8))
    }

    fn all(&self, i: i64) -> &[u64] {
        &self.keys[self.start[i as usize] as usize..self.start[i as usize + 1] as usize]
    }

    fn check(&self, n: usize) -> Result<(), Error> {
        if self.start.len() != n + 1 || self.keys.len() != self.kinds.len() {
            return Err(bad(format!(
                "related lemmas: {} starts for {n} tokens, {} keys and {} kinds",
                self.start.len(),
                self.keys.len(),
                self.kinds.len()
            )));
        }
        let mut last = 0i64;
        for &s in self.start {
            if s < last || s as usize > self.keys.len() {
                return Err(bad(
                    "related lemmas: the starts must rise within the keys".into()
                ));
            }
            last = s;
        }
        if self.start.first().is_some_and(|&s| s != 0)
            || (1..=n).any(|i| self.start[i] == self.start[i - 1])
        {
            return Err(bad(
                "related lemmas: every token's own lemma comes first".into()
            ));
        }
        Ok(())
    }
}

/// A lemma's free source tokens, taken from the front.
struct Free {
    tokens: Vec<i64>,
    next: usize,
}

impl Free {
    fn take(&mut self) -> Option<i64> {
        let u = self.tokens.get(self.next).copied();
        self.next += u.is_some() as usize;
        u
    }
    fn left(&self) -> usize {
        self.tokens.len() - self.next
    }
}

/// One-to-one agreeing tokens of suspect tokens `ia` and source tokens `ib`: equal lemmas
/// first (heaviest suspect token first; a lemma the suspect holds more often than the
/// source's placed after the others, see `place_crowded`), then synonyms, then words of one
/// family; sorted. `weight(i)` of every suspect token of `ia`.
pub fn match_tokens(
    ia: Range<i64>,
    ib: Range<i64>,
    ha: &[u64],
    hb: &[u64],
    weight: impl Fn(i64) -> f64,
    related: &Related<'_>,
    place_crowded: bool,
) -> Vec<Pair> {
    let mut free: Map<Free> = Map::default();
    for u in ib {
        free.entry(hb[u as usize])
            .or_insert_with(|| Free {
                tokens: Vec::new(),
                next: 0,
            })
            .tokens
            .push(u);
    }
    let mut order: Vec<(i64, f64)> = ia.clone().map(|i| (i, weight(i))).collect();
    order.sort_by(|x, y| y.1.partial_cmp(&x.1).unwrap_or(std::cmp::Ordering::Equal)); // stable
                                                                                      // each lemma's suspect tokens, lemmas in order of first sighting
    let mut lemma_at: Map<usize> = Map::default();
    let mut of_lemma: Vec<(u64, Vec<i64>)> = Vec::new();
    for i in ia.clone() {
        let x = ha[i as usize];
        let k = *lemma_at.entry(x).or_insert_with(|| {
            of_lemma.push((x, Vec::new()));
            of_lemma.len() - 1
        });
        of_lemma[k].1.push(i);
    }
    let crowded: Vec<usize> = (0..of_lemma.len())
        .filter(|&k| of_lemma[k].1.len() > free.get(&of_lemma[k].0).map_or(0, |f| f.tokens.len()))
        .collect();
    let mut crowded_flag = vec![false; of_lemma.len()];
    for &k in &crowded {
        crowded_flag[k] = true;
    }
    let is_crowded = |x: u64| lemma_at.get(&x).is_some_and(|&k| crowded_flag[k]);
    let mut out: Vec<Pair> = Vec::new();
    let n_a = (ia.end - ia.start).max(0) as usize;
    let mut paired = vec![false; n_a];
    for &(i, _) in &order {
        let x = ha[i as usize];
        if let Some(f) = free.get_mut(&x) {
            if f.left() > 0 && !is_crowded(x) {
                out.push((i, f.take().unwrap_or(-1), SAME));
                paired[(i - ia.start) as usize] = true;
            }
        }
    }
    if !crowded.is_empty() {
        let mut by_source: Vec<(i64, i64)> = out.iter().map(|&(i, u, _)| (u, i)).collect();
        by_source.sort_unstable();
        let mut placed = Vec::new();
        for &k in &crowded {
            let (x, tokens) = (&of_lemma[k].0, &of_lemma[k].1);
            let mut left = tokens.clone();
            if let Some(f) = free.get_mut(x) {
                while let Some(u) = f.take() {
                    let at = if place_crowded && !by_source.is_empty() {
                        let k = by_source.partition_point(|p| p.0 < u);
                        let near = by_source[k.saturating_sub(1)..(k + 1).min(by_source.len())]
                            .iter()
                            .min_by_key(|p| (p.0 - u).abs()) // the first of equals, as Python's min
                            .copied()
                            .unwrap_or((u, 0));
                        Some(near.1 + u - near.0)
                    } else {
                        None
                    };
                    let pick = match at {
                        Some(at) => (0..left.len())
                            .min_by_key(|&j| ((left[j] - at).abs(), left[j]))
                            .unwrap_or(0),
                        None => 0,
                    };
                    let i = left.remove(pick);
                    placed.push((i, u, SAME));
                    paired[(i - ia.start) as usize] = true;
                }
            }
        }
        out.extend(placed);
    }
    let mut rest: Vec<i64> = order
        .iter()
        .map(|&(i, _)| i)
        .filter(|&i| !paired[(i - ia.start) as usize])
        .collect();
    for wanted in [SYNONYM, FAMILY] {
        if rest.is_empty() {
            break;
        }
        let mut left = Vec::new();
        for &i in &rest {
            let mut found = false;
            for (y, how) in related.of(i) {
                if how != wanted {
                    continue;
                }
                if let Some(u) = free.get_mut(&y).and_then(Free::take) {
                    out.push((i, u, how));
                    found = true;
                    break;
                }
            }
            if !found {
                left.push(i);
            }
        }
        rest = left;
    }
    out.sort_unstable();
    out
}

/// The range of `matched` (sorted by suspect token) left when the agreeing tokens at either
/// edge that more than `edge_gap` unmatched tokens part from the rest, fewer than `min_agree`
/// together, are cut off, one run after another until both edges hold.
pub fn dense(matched: &[Pair], edge_gap: i64, min_agree: usize) -> Range<usize> {
    let mut bounds = vec![0usize];
    for k in 0..matched.len().saturating_sub(1) {
        if matched[k + 1].0 - matched[k].0 - 1 > edge_gap {
            bounds.push(k + 1);
        }
    }
    bounds.push(matched.len());
    let (mut first, mut last) = (0usize, bounds.len() - 2); // runs bounds[r]..bounds[r + 1]
    let size = |r: usize| bounds[r + 1] - bounds[r];
    while first < last && size(first) < min_agree {
        first += 1;
    }
    while first < last && size(last) < min_agree {
        last -= 1;
    }
    bounds[first]..bounds[last + 1]
}

/// The sentences of a text holding tokens: sentence id, first token, one past the last.
#[derive(Clone, Copy)]
pub struct Sentences<'a> {
    pub ids: &'a [i64],
    pub first: &'a [i64],
    pub last: &'a [i64],
}

impl Sentences<'_> {
    /// The index of sentence id `s` (the ids rise).
    fn index(&self, s: i64) -> usize {
        self.ids.partition_point(|&x| x < s)
    }

    fn check(&self, n: usize, what: &str) -> Result<(), Error> {
        let m = self.ids.len();
        if self.first.len() != m || self.last.len() != m {
            return Err(bad(format!(
                "{what}: {m} sentence ids, {} firsts, {} lasts",
                self.first.len(),
                self.last.len()
            )));
        }
        let mut at = 0i64;
        for k in 0..m {
            if self.first[k] != at
                || self.last[k] <= at
                || (k > 0 && self.ids[k] <= self.ids[k - 1])
                || self.ids[k] < 0
            {
                return Err(bad(format!(
                    "{what}: sentences must follow each other over the tokens, ids rising"
                )));
            }
            at = self.last[k];
        }
        if at as usize != n {
            return Err(bad(format!(
                "{what}: the sentences hold {at} tokens of {n}"
            )));
        }
        Ok(())
    }
}

/// What the layer needs of the suspect (`sverka.core.paraphrase.SuspectKeys`).
#[derive(Clone, Copy)]
pub struct Suspect<'a> {
    pub hashes: &'a [u64],
    /// its tokens' keys (own lemma and related ones) sorted by hash: the suspect token of each
    pub key_tokens: &'a [i64],
    pub related: Related<'a>,
    pub sentences: Sentences<'a>,
    /// the distinct key hashes, where their run starts among the sorted keys, and its length
    pub distinct: &'a [u64],
    pub distinct_start: &'a [i64],
    pub distinct_count: &'a [i64],
    pub sentence_of: &'a [i64],
    pub sentence_len: &'a [i64],
}

/// What the layer needs of the source (`sverka.core.paraphrase.SourceStats`).
#[derive(Clone, Copy)]
pub struct Source<'a> {
    pub hashes: &'a [u64],
    pub n_sentences: i64,
    /// sorted distinct lemma hashes and the sentences holding each (the whole source's)
    pub values: &'a [u64],
    pub counts: &'a [i64],
    pub df_token: &'a [i64],
    /// the tokens by lemma, and the sentence id of each in that order
    pub order: &'a [i64],
    pub sorted_sentence: &'a [i64],
    pub sentences: Sentences<'a>,
    pub sentence_len: &'a [i64],
    pub sentence_of: &'a [i64],
    /// the rare lemmas, where their tokens start in `order`, how many, the sentences holding each
    pub rare: &'a [u64],
    pub rare_start: &'a [i64],
    pub rare_count: &'a [i64],
    pub rare_held: &'a [i64],
    pub whole_tokens: i64,
    /// a lemma held by at most this many source sentences is rare
    pub rare_df: i64,
}

/// A lemma rare in the source that allowed suspect tokens agree with (their own or a related
/// one): its suspect tokens `ki[ki_lo..ki_lo + ki_n]`, its source tokens
/// `order[src_lo..src_lo + src_n]`, and the sentences holding it in the source.
#[derive(Clone, Copy, Debug)]
struct Lemma {
    ki_lo: usize,
    ki_n: usize,
    src_lo: usize,
    src_n: usize,
    df: i64,
}

/// The rare lemmas both texts hold, by rising hash, and the suspect tokens of each (`ki`).
fn lemma_groups(
    keys: &Suspect<'_>,
    source: &Source<'_>,
    token_ok: &[bool],
) -> (Vec<Lemma>, Vec<i64>) {
    let (mut groups, mut ki) = (Vec::new(), Vec::new());
    for (dk, rk) in intersect(keys.distinct, source.rare) {
        let k0 = ki.len();
        let p0 = keys.distinct_start[dk] as usize;
        for p in p0..p0 + keys.distinct_count[dk] as usize {
            let t = keys.key_tokens[p];
            if token_ok[t as usize] {
                ki.push(t);
            }
        }
        if ki.len() == k0 {
            continue;
        }
        let src_lo = source.rare_start[rk] as usize;
        let src_n = source.rare_count[rk] as usize;
        let df = source.rare_held[rk];
        groups.push(Lemma {
            ki_lo: k0,
            ki_n: ki.len() - k0,
            src_lo,
            src_n,
            df,
        });
    }
    (groups, ki)
}

/// `(at, lo, cnt, ki)`: source token `at[k]` agrees with suspect tokens `ki[lo[k]..lo[k] +
/// cnt[k]]` through a lemma rare in the source (the suspect token's own or a related one), of
/// the suspect tokens `token_ok` allows. Lemma by lemma (rising hash), each lemma's source
/// tokens in token order, and its suspect tokens too.
pub fn rare_rows(
    keys: &Suspect<'_>,
    source: &Source<'_>,
    token_ok: &[bool],
) -> (Vec<i64>, Vec<i64>, Vec<i64>, Vec<i64>) {
    let (groups, ki) = lemma_groups(keys, source, token_ok);
    let (mut at, mut lo, mut cnt) = (Vec::new(), Vec::new(), Vec::new());
    for g in &groups {
        for s in g.src_lo..g.src_lo + g.src_n {
            at.push(source.order[s]);
            lo.push(g.ki_lo as i64);
            cnt.push(g.ki_n as i64);
        }
    }
    (at, lo, cnt, ki)
}

/// The lemmas whose pairs fit in `budget` (source token, suspect token) pairs: when they all
/// make more, those making the most are dropped, as the rows' rule says: with the rows' counts
/// sorted, the first whose running sum reaches the budget gives a position, and the rows'
/// pair counts (suspect tokens times sentences of the lemma) sorted give the limit at that
/// position; the lemmas below it stay.
fn within_budget(groups: Vec<Lemma>, budget: i64) -> Vec<Lemma> {
    let total: i64 = groups.iter().map(|g| (g.ki_n * g.src_n) as i64).sum();
    if total <= budget {
        return groups;
    }
    // the rows sorted by count, counted (a lemma is src_n rows of count ki_n)
    let mut histogram = vec![0i64; groups.iter().map(|g| g.ki_n).max().unwrap_or(0) + 1];
    for g in &groups {
        histogram[g.ki_n] += g.src_n as i64;
    }
    let (mut cum, mut k) = (0i64, 0i64);
    for (c, &times) in histogram.iter().enumerate() {
        let c = c as i64;
        if c > 0 && cum + c * times >= budget {
            k += (budget - cum + c - 1) / c - 1; // rows of this count before the sum reaches it
            break;
        }
        cum += c * times;
        k += times;
    }
    // the k-th smallest of the rows' pair counts
    let mut per: Vec<(i64, i64)> = groups
        .iter()
        .map(|g| (g.ki_n as i64 * g.df, g.src_n as i64))
        .collect();
    per.sort_unstable();
    let mut seen = 0i64;
    let mut limit = per.last().map_or(0, |x| x.0);
    for &(value, rows) in &per {
        seen += rows;
        if seen > k.max(0) {
            limit = value;
            break;
        }
    }
    groups
        .into_iter()
        .filter(|g| (g.ki_n as i64 * g.df) < limit)
        .collect()
}

/// `(ix, iy)` of the values two sorted distinct arrays share, rising: the shorter looked up
/// in the longer.
pub fn intersect(x: &[u64], y: &[u64]) -> Vec<(usize, usize)> {
    if x.len() > y.len() {
        return intersect(y, x).into_iter().map(|(j, i)| (i, j)).collect();
    }
    let mut out = Vec::new();
    let mut from = 0usize;
    for (i, &v) in x.iter().enumerate() {
        // galloping: steps doubling from where the last value was found, then halving
        let mut step = 1usize;
        while from + step < y.len() && y[from + step] < v {
            step *= 2;
        }
        let end = (from + step + 1).min(y.len());
        from += y[from..end].partition_point(|&z| z < v);
        if from < y.len() && y[from] == v {
            out.push((i, from));
        }
    }
    out
}

/// At most how many tokens [`match_tokens`] can pair between suspect tokens `ia` and source
/// tokens `ib`: no more than the suspect tokens with a lemma (own or related) some source
/// token holds, nor more than the source tokens whose lemma some suspect token agrees with.
pub fn agreeing_bound(ia: Range<i64>, ib: Range<i64>, related: &Related<'_>, hb: &[u64]) -> usize {
    bound_within(ia, ib, related, hb, &mut Vec::new(), &mut Vec::new())
}

/// [`agreeing_bound`] with its two lists kept by the caller (emptied here), for many pairs.
fn bound_within(
    ia: Range<i64>,
    ib: Range<i64>,
    related: &Related<'_>,
    hb: &[u64],
    lemmas: &mut Vec<u64>,
    keys: &mut Vec<u64>,
) -> usize {
    lemmas.clear();
    lemmas.extend(ib.clone().map(|u| hb[u as usize]));
    lemmas.sort_unstable();
    keys.clear();
    let mut on_a = 0usize;
    for i in ia {
        let ks = related.all(i);
        on_a += ks.iter().any(|k| lemmas.binary_search(k).is_ok()) as usize;
        keys.extend_from_slice(ks);
    }
    keys.sort_unstable();
    let on_b = ib
        .filter(|&u| keys.binary_search(&hb[u as usize]).is_ok())
        .count();
    on_a.min(on_b)
}

/// Per suspect token (`starts`, `ends`: its characters), whether it lies inside one of the
/// character spans `spans` (`[s0, e0, s1, e1, ...]`): from the first token starting at or
/// after a span's start to the last ending at or before its end.
pub fn covered(starts: &[i64], ends: &[i64], spans: &[i64]) -> Result<Vec<bool>, Error> {
    if starts.len() != ends.len() || spans.len() % 2 != 0 {
        return Err(bad(format!(
            "covered: {} starts, {} ends, {} span bounds",
            starts.len(),
            ends.len(),
            spans.len()
        )));
    }
    let n = starts.len();
    let mut diff = vec![0i64; n + 1];
    for q in spans.chunks_exact(2) {
        let i0 = starts.partition_point(|&s| s < q[0]);
        let i1 = ends.partition_point(|&e| e <= q[1]).max(i0);
        diff[i0] += 1;
        diff[i1] -= 1;
    }
    let mut depth = 0i64;
    Ok(diff[..n]
        .iter()
        .map(|&d| {
            depth += d;
            depth > 0
        })
        .collect())
}

/// The weight of a lemma held by `df` of the source's `n` sentences.
fn weight(n: i64, df: i64) -> f64 {
    ((n + 1) as f64 / (df as f64 + 0.5)).ln()
}

/// A suspect sentence's best source sentence.
#[derive(Clone, Debug, PartialEq)]
pub struct Accepted {
    /// the sentence ids, and their indices among the texts' sentences
    pub sa: i64,
    pub sb: i64,
    pub ka: usize,
    pub kb: usize,
    pub dice: f64,
    pub matched: Vec<Pair>,
}

/// For one pair of texts: each suspect sentence the exact layer matched less than 80 % of
/// (`covered`: per suspect token, inside a piece of an exact passage) with its best source
/// sentence, by rising suspect sentence. Both sides as their `check` accepts them (else an
/// index out of range panics).
pub fn accepted(
    keys: &Suspect<'_>,
    source: &Source<'_>,
    covered: &[bool],
    p: &Params,
) -> Result<Vec<Accepted>, Error> {
    let (n_a, n_b) = (keys.hashes.len(), source.hashes.len());
    if covered.len() != n_a {
        return Err(bad(format!(
            "covered: {} flags for {n_a} suspect tokens",
            covered.len()
        )));
    }
    if n_a == 0 || n_b == 0 {
        return Ok(Vec::new());
    }
    // the sentences left to this layer
    let sents = &keys.sentences;
    let mut token_ok = vec![false; n_a];
    let mut any = false;
    for k in 0..sents.ids.len() {
        let (a0, a1) = (sents.first[k] as usize, sents.last[k] as usize);
        let size = (a1 - a0) as i64;
        let inside = covered[a0..a1].iter().filter(|&&c| c).count();
        if size >= p.min_sentence_tokens && (inside as f64) < 0.8 * size as f64 {
            token_ok[a0..a1].fill(true);
            any = true;
        }
    }
    if !any {
        return Ok(Vec::new());
    }
    let rare_df = source.rare_df;
    let (groups, ki) = lemma_groups(keys, source, &token_ok);
    if groups.iter().map(|g| g.src_n).sum::<usize>() < p.min_rare {
        return Ok(Vec::new());
    }
    // bounded by the texts' lengths, the lemmas making the most pairs dropped first
    let whole = if source.whole_tokens != 0 {
        source.whole_tokens
    } else {
        n_b as i64
    };
    let groups = within_budget(groups, p.pairs_per_token * (n_a as i64 + whole));
    // sentence pairs with at least min_rare distinct suspect tokens agreeing
    let mut pairs = agreeing_pairs(keys, source, &groups, &ki, p.min_rare as i64);
    if pairs.is_empty() {
        return Ok(Vec::new());
    }
    pairs.retain(|&(sa, sb, n)| {
        n >= p.min_rare as i64
            && 4 * n >= keys.sentence_len[sa as usize].min(source.sentence_len[sb as usize])
    });
    // per suspect sentence, the candidates_per_sentence sharing the most
    pairs.sort_by_key(|&(sa, sb, n)| (sa, -n, sb));
    let mut candidates: Vec<(i64, i64)> = Vec::new();
    let mut rank = 0usize;
    for k in 0..pairs.len() {
        rank = if k > 0 && pairs[k].0 == pairs[k - 1].0 {
            rank + 1
        } else {
            0
        };
        if rank < p.candidates_per_sentence {
            candidates.push((pairs[k].0, pairs[k].1));
        }
    }
    let bsents = &source.sentences;
    let (mut lemmas, mut sentence_keys) = (Vec::new(), Vec::new());
    let (mut weighed, mut wa): (i64, Vec<f64>) = (-1, Vec::new());
    let mut best: Vec<Accepted> = Vec::new(); // by rising sa: candidates come so
    for (sa, sb) in candidates {
        let (ka, kb) = (sents.index(sa), bsents.index(sb));
        let (a0, a1, b0, b1) = (
            sents.first[ka],
            sents.last[ka],
            bsents.first[kb],
            bsents.last[kb],
        );
        if bound_within(
            a0..a1,
            b0..b1,
            &keys.related,
            source.hashes,
            &mut lemmas,
            &mut sentence_keys,
        ) < p.min_agree
        {
            continue;
        }
        if weighed != sa {
            // the suspect sentence's weights, kept for its next candidates (they come together)
            weighed = sa;
            wa.clear();
            wa.extend((a0..a1).map(|i| {
                weight(
                    source.n_sentences,
                    lookup(source.values, source.counts, keys.hashes[i as usize]),
                )
            }));
        }
        let wa = &wa;
        let wb: Vec<f64> = (b0..b1)
            .map(|u| weight(source.n_sentences, source.df_token[u as usize]))
            .collect();
        let wa_of = |i: i64| wa[(i - a0) as usize];
        let mut matched = match_tokens(
            a0..a1,
            b0..b1,
            keys.hashes,
            source.hashes,
            wa_of,
            &keys.related,
            p.place_crowded,
        );
        let mut kept = dense(&matched, p.edge_gap, p.min_agree);
        matched = matched[kept.clone()].to_vec();
        if !matched.is_empty() && (matched[0].0 > a0 || matched[matched.len() - 1].0 < a1 - 1) {
            // an agreeing word was cut off an edge: matched again inside what is left
            let inner = matched[0].0..matched[matched.len() - 1].0 + 1;
            let again = match_tokens(
                inner,
                b0..b1,
                keys.hashes,
                source.hashes,
                wa_of,
                &keys.related,
                p.place_crowded,
            );
            kept = dense(&again, p.edge_gap, p.min_agree);
            matched = again[kept].to_vec();
        }
        if matched.iter().filter(|m| m.2 != FAMILY).count() < p.min_agree {
            continue; // a family supports, never makes, a pair
        }
        if matched
            .iter()
            .filter(|m| source.df_token[m.1 as usize] <= rare_df)
            .count()
            < p.min_rare
        {
            continue;
        }
        let factor = |how: u8| if how == FAMILY { p.family_weight } else { 1.0 };
        let wa_sum: f64 = wa.iter().fold(0.0, |s, &x| s + x);
        let wb_sum: f64 = wb.iter().fold(0.0, |s, &x| s + x);
        let wm_b = matched.iter().fold(0.0, |s, &(_, u, how)| {
            s + wb[(u - b0) as usize] * factor(how)
        });
        let wm = matched
            .iter()
            .fold(0.0, |s, &(i, _, how)| s + wa_of(i) * factor(how))
            + wm_b;
        let mut dice = if wa_sum + wb_sum != 0.0 {
            wm / (wa_sum + wb_sum)
        } else {
            0.0
        };
        if dice < p.min_dice && wm_b >= p.source_kept * wb_sum {
            // the source sentence kept nearly whole inside a longer suspect sentence: weighed
            // from the first agreeing token to the last
            let (first_i, last_i) = (matched[0].0, matched[matched.len() - 1].0);
            let wa_part = (first_i..=last_i).fold(0.0, |s, i| s + wa_of(i));
            dice = if wa_part + wb_sum != 0.0 {
                wm / (wa_part + wb_sum)
            } else {
                0.0
            };
        }
        if dice >= p.min_dice {
            let pair = Accepted {
                sa,
                sb,
                ka,
                kb,
                dice,
                matched,
            };
            match best.last_mut() {
                Some(last) if last.sa == sa => {
                    if dice > last.dice {
                        *last = pair;
                    }
                }
                _ => best.push(pair),
            }
        }
    }
    Ok(best)
}

/// `(sa, sb, n)`: the suspect sentence `sa` and source sentence `sb` that `n >= at_least`
/// distinct suspect tokens agree between through the rows (`rare_rows`' arrays, the rows of
/// one lemma together), by rising `sa` then `sb`. Without sorting the pairs: each lemma's
/// source sentences are read once, each suspect token's gathered in its own bucket, and each
/// suspect sentence's buckets counted in an array over the source's sentence ids.
fn agreeing_pairs(
    keys: &Suspect<'_>,
    source: &Source<'_>,
    groups: &[Lemma],
    ki: &[i64],
    at_least: i64,
) -> Vec<(i64, i64, i64)> {
    let n_a = keys.hashes.len();
    // per lemma: its distinct source sentences, in order, their ids as u32 (half the memory
    // traffic of i64; `Source::check` keeps the ids below 2^32)
    let mut spans: Vec<(usize, usize, usize, usize)> = Vec::with_capacity(groups.len()); // (ki lo, ki count, sentences lo, count)
    let mut sentences: Vec<u32> = Vec::with_capacity(groups.iter().map(|g| g.src_n).sum());
    for g in groups {
        let s0 = sentences.len();
        for s in g.src_lo..g.src_lo + g.src_n {
            let sb = source.sorted_sentence[s] as u32;
            if sentences.len() == s0 || sentences[sentences.len() - 1] != sb {
                sentences.push(sb);
            }
        }
        spans.push((g.ki_lo, g.ki_n, s0, sentences.len() - s0));
    }
    let groups = spans;
    let mut size = vec![0usize; n_a + 1];
    for &(l, c, _, m) in &groups {
        for &i in &ki[l..l + c] {
            size[i as usize + 1] += m;
        }
    }
    for i in 0..n_a {
        size[i + 1] += size[i];
    }
    let mut fill = size.clone();
    let mut bucket = vec![0u32; size[n_a]];
    for &(l, c, s0, m) in &groups {
        for &i in &ki[l..l + c] {
            let f = &mut fill[i as usize];
            bucket[*f..*f + m].copy_from_slice(&sentences[s0..s0 + m]);
            *f += m;
        }
    }
    let n_sb = source.sentence_len.len();
    let mut count = vec![0u32; n_sb];
    let mut last_token = vec![0u32; n_sb]; // a token (plus one) counts once per source sentence
    let mut touched: Vec<u32> = Vec::new();
    let mut out = Vec::new();
    let sents = &keys.sentences;
    for s in 0..sents.ids.len() {
        for i in sents.first[s]..sents.last[s] {
            for &sb in &bucket[size[i as usize]..size[i as usize + 1]] {
                let b = sb as usize;
                if last_token[b] != i as u32 + 1 {
                    last_token[b] = i as u32 + 1;
                    if count[b] == 0 {
                        touched.push(sb);
                    }
                    count[b] += 1;
                }
            }
        }
        let first = out.len();
        for &sb in &touched {
            if i64::from(count[sb as usize]) >= at_least {
                out.push((sents.ids[s], i64::from(sb), i64::from(count[sb as usize])));
            }
            count[sb as usize] = 0;
        }
        touched.clear();
        out[first..].sort_unstable();
    }
    out
}

/// What the layer needs of a source alone (`sverka.core.paraphrase.SourceStats`).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Stats {
    /// the source's distinct lemma hashes, sorted, and the sentences holding each (of the
    /// whole source, looked up, when the source is a window of one)
    pub values: Vec<u64>,
    pub counts: Vec<i64>,
    /// per token: the sentences holding its lemma
    pub df_token: Vec<i64>,
    /// the tokens by lemma hash (then sentence id), stably, and their hashes in that order
    pub order: Vec<i64>,
    pub sorted: Vec<u64>,
    /// the runs of one sentence id over the tokens: id, first token, one past the last
    pub sentence_ids: Vec<i64>,
    pub first: Vec<i64>,
    pub last: Vec<i64>,
    /// per sentence id up to the largest: its tokens
    pub sentence_len: Vec<i64>,
    /// the lemmas held by at most `rare_df` sentences, where their tokens start in `sorted`, how many
    pub rare: Vec<u64>,
    pub rare_start: Vec<i64>,
    pub rare_count: Vec<i64>,
}

/// Whether `order` is the stable order of `h` by value: every index in range, the values
/// rising, equal values in rising positions (which makes it a permutation).
fn is_stable_order(h: &[u64], order: &[i64]) -> bool {
    let n = h.len();
    if order.len() != n || order.iter().any(|&k| k < 0 || k as usize >= n) {
        return false;
    }
    order.windows(2).all(|w| {
        let (x, y) = (h[w[0] as usize], h[w[1] as usize]);
        x < y || (x == y && w[0] < w[1])
    })
}

/// The [`Stats`] of a source of lemma hashes `h` and sentence ids `sid` (one per token).
/// `order`: its stable order by lemma if known (checked, else made). `whole`: the source is a
/// window of a longer one, whose sorted distinct lemmas and the sentences holding each these
/// are: rarity and each token's count are the whole source's.
pub fn source_stats(
    h: &[u64],
    sid: &[i64],
    order: Option<&[i64]>,
    whole: Option<(&[u64], &[i64])>,
    rare_df: i64,
) -> Result<Stats, Error> {
    let n = h.len();
    if sid.len() != n {
        return Err(bad(format!(
            "source statistics: {} sentence ids for {n} tokens",
            sid.len()
        )));
    }
    if sid.iter().any(|&s| s < 0) {
        return Err(bad("source statistics: a negative sentence id".into()));
    }
    if let Some((lemmas, held)) = whole {
        if lemmas.len() != held.len() || lemmas.windows(2).any(|w| w[0] >= w[1]) {
            return Err(bad(
                "source statistics: the whole source's lemmas must rise, one count each".into(),
            ));
        }
    }
    if n == 0 {
        return Ok(Stats::default());
    }
    let rising = sid.windows(2).all(|w| w[0] <= w[1]);
    let order: Vec<i64> = match order {
        Some(o) if rising && is_stable_order(h, o) => o.to_vec(),
        _ if rising => {
            let mut keyed: Vec<(u64, u32)> = (0..n).map(|k| (h[k], k as u32)).collect();
            keyed.sort_unstable(); // positions are distinct: the stable order
            keyed.into_iter().map(|(_, k)| k as i64).collect()
        }
        _ => {
            let mut keyed: Vec<(u64, i64, u32)> =
                (0..n).map(|k| (h[k], sid[k], k as u32)).collect();
            keyed.sort_unstable();
            keyed.into_iter().map(|(_, _, k)| k as i64).collect()
        }
    };
    let sorted: Vec<u64> = order.iter().map(|&k| h[k as usize]).collect();
    // runs of one lemma in the sorted tokens; per run, its distinct sentences
    let (mut values, mut counts, mut run_start) = (Vec::new(), Vec::new(), Vec::new());
    let mut run_of = vec![0usize; n];
    for k in 0..n {
        let other = k == 0 || sorted[k] != sorted[k - 1];
        if other {
            values.push(sorted[k]);
            counts.push(0i64);
            run_start.push(k as i64);
        }
        if other || sid[order[k] as usize] != sid[order[k - 1] as usize] {
            *counts.last_mut().unwrap_or(&mut 0) += 1;
        }
        run_of[k] = values.len() - 1;
    }
    let run_count: Vec<i64> = (0..values.len())
        .map(|r| run_start.get(r + 1).copied().unwrap_or(n as i64) - run_start[r])
        .collect();
    let mut df_token = vec![0i64; n];
    let (mut sentence_ids, mut first, mut last) = (Vec::new(), Vec::new(), Vec::new());
    for k in 0..n {
        if k == 0 || sid[k] != sid[k - 1] {
            sentence_ids.push(sid[k]);
            first.push(k as i64);
            if k > 0 {
                last.push(k as i64);
            }
        }
    }
    last.push(n as i64);
    let mut sentence_len = vec![0i64; sid.iter().copied().max().unwrap_or(0) as usize + 1];
    for r in 0..sentence_ids.len() {
        sentence_len[sentence_ids[r] as usize] = last[r] - first[r];
    }
    let rarity: Vec<i64> = match whole {
        Some((lemmas, held)) => {
            for (u, d) in df_token.iter_mut().enumerate() {
                *d = lookup(lemmas, held, h[u]);
            }
            values.iter().map(|&v| lookup(lemmas, held, v)).collect()
        }
        None => {
            for k in 0..n {
                df_token[order[k] as usize] = counts[run_of[k]];
            }
            counts.clone()
        }
    };
    let (mut rare, mut rare_start, mut rare_count) = (Vec::new(), Vec::new(), Vec::new());
    for r in 0..values.len() {
        if rarity[r] <= rare_df {
            rare.push(values[r]);
            rare_start.push(run_start[r]);
            rare_count.push(run_count[r]);
        }
    }
    Ok(Stats {
        values,
        counts,
        df_token,
        order,
        sorted,
        sentence_ids,
        first,
        last,
        sentence_len,
        rare,
        rare_start,
        rare_count,
    })
}

/// counts[k] where values[k] == h, else 0 (values sorted).
/// Every run `[start, start + count)` lies within `0..n`.
fn runs_within(starts: &[i64], counts: &[i64], n: usize) -> bool {
    starts
        .iter()
        .zip(counts)
        .all(|(&s, &c)| s >= 0 && c >= 0 && (s + c) as usize <= n)
}

fn lookup(values: &[u64], counts: &[i64], h: u64) -> i64 {
    match values.binary_search(&h) {
        Ok(k) => counts[k],
        Err(_) => 0,
    }
}

impl Suspect<'_> {
    /// Its arrays agree with each other: lengths, and every index within what it indexes
    /// ([`accepted`] and [`rare_rows`] index without asking again).
    pub fn check(&self) -> Result<(), Error> {
        let n_a = self.hashes.len();
        self.related.check(n_a)?;
        self.sentences.check(n_a, "suspect sentences")?;
        let n_keys = self.key_tokens.len();
        if self.distinct_start.len() != self.distinct.len()
            || self.distinct_count.len() != self.distinct.len()
        {
            return Err(bad(
                "suspect keys: the distinct values, starts and counts differ in length".into(),
            ));
        }
        if self.key_tokens.iter().any(|&t| t < 0 || t as usize >= n_a)
            || !runs_within(self.distinct_start, self.distinct_count, n_keys)
        {
            return Err(bad("suspect keys: a token or a run out of range".into()));
        }
        if self.sentence_of.len() != n_a
            || (self.sentence_len.len() as i64) <= self.sentences.ids.last().copied().unwrap_or(-1)
        {
            return Err(bad(
                "suspect: a sentence id per token and a length per sentence id".into(),
            ));
        }
        if self
            .sentence_of
            .iter()
            .any(|&s| s < 0 || s as usize >= self.sentence_len.len())
        {
            return Err(bad("suspect: a token's sentence id out of range".into()));
        }
        Ok(())
    }
}

impl Source<'_> {
    /// Its arrays agree with each other: lengths, and every index within what it indexes
    /// ([`accepted`] and [`rare_rows`] index without asking again).
    pub fn check(&self) -> Result<(), Error> {
        let n_b = self.hashes.len();
        self.sentences.check(n_b, "source sentences")?;
        if self.df_token.len() != n_b
            || self.sentence_of.len() != n_b
            || self.order.len() != n_b
            || self.sorted_sentence.len() != n_b
            || self.values.len() != self.counts.len()
        {
            return Err(bad("source: a count, a sentence id and a place in the order per token, a count per lemma".into()));
        }
        if (self.sentence_len.len() as i64) <= self.sentences.ids.last().copied().unwrap_or(-1)
            || self.sentence_len.len() > u32::MAX as usize
            || self
                .sentence_of
                .iter()
                .chain(self.sorted_sentence)
                .any(|&s| s < 0 || s as usize >= self.sentence_len.len())
        {
            return Err(bad("source: a token's sentence id out of range".into()));
        }
        let m = self.rare.len();
        if self.rare_start.len() != m || self.rare_count.len() != m || self.rare_held.len() != m {
            return Err(bad(
                "source: the rare lemmas, starts, counts and sentences differ in length".into(),
            ));
        }
        if self.order.iter().any(|&u| u < 0 || u as usize >= n_b)
            || !runs_within(self.rare_start, self.rare_count, n_b)
        {
            return Err(bad(
                "source: the order or a rare lemma's run out of range".into()
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn related(own: &[u64], extra: &[(usize, u64, u8)]) -> (Vec<u64>, Vec<i64>, Vec<i8>) {
        let (mut keys, mut start, mut kinds) = (Vec::new(), vec![], Vec::new());
        for (i, &h) in own.iter().enumerate() {
            start.push(keys.len() as i64);
            keys.push(h);
            kinds.push(0);
            for &(j, y, how) in extra {
                if j == i {
                    keys.push(y);
                    kinds.push(how as i8);
                }
            }
        }
        start.push(keys.len() as i64);
        (keys, start, kinds)
    }

    #[test]
    fn dense_cuts_small_runs_at_the_edges_only() {
        let m = |v: &[i64]| v.iter().map(|&i| (i, i, SAME)).collect::<Vec<_>>();
        let body = m(&[20, 21, 22, 23, 24, 25]);
        assert_eq!(dense(&body, 4, 4), 0..6);
        let mut one_far = m(&[0]);
        one_far.extend(&body);
        assert_eq!(dense(&one_far, 4, 4), 1..7);
        let mut near = m(&[15]);
        near.extend(&body);
        assert_eq!(dense(&near, 4, 4), 0..7);
        assert_eq!(dense(&[], 4, 4), 0..0);
        assert_eq!(dense(&m(&[3, 40]), 4, 4), 1..2); // the last run left stays
    }

    #[test]
    fn equal_lemmas_then_synonyms_then_family() {
        // suspect: 1 2 3 4, source: 4 9 1 8; 2 ~ 9 synonyms, 3 ~ 8 family
        let ha = [1u64, 2, 3, 4];
        let hb = [4u64, 9, 1, 8];
        let (keys, start, kinds) =
            related(&ha, &[(1, 9, SYNONYM), (2, 8, FAMILY), (2, 9, SYNONYM)]);
        let r = Related {
            keys: &keys,
            start: &start,
            kinds: &kinds,
        };
        let got = match_tokens(0..4, 0..4, &ha, &hb, |_| 1.0, &r, true);
        // token 1 comes first (equal weights: in order) and takes 9; token 2 then takes family 8
        assert_eq!(
            got,
            vec![(0, 2, SAME), (1, 1, SYNONYM), (2, 3, FAMILY), (3, 0, SAME)]
        );
        assert_eq!(agreeing_bound(0..4, 0..4, &r, &hb), 4);
    }

    #[test]
    fn a_crowded_lemma_is_placed_near_the_pairs_made() {
        // suspect: 5 _ _ _ 5 1 2 (the second 5 beside 1 2), source: 5 1 2
        let ha = [5u64, 7, 7, 7, 5, 1, 2];
        let hb = [5u64, 1, 2];
        let (keys, start, kinds) = related(&ha, &[]);
        let r = Related {
            keys: &keys,
            start: &start,
            kinds: &kinds,
        };
        let got = match_tokens(0..7, 0..3, &ha, &hb, |_| 1.0, &r, true);
        assert_eq!(got, vec![(4, 0, SAME), (5, 1, SAME), (6, 2, SAME)]);
        let first = match_tokens(0..7, 0..3, &ha, &hb, |_| 1.0, &r, false);
        assert_eq!(first, vec![(0, 0, SAME), (5, 1, SAME), (6, 2, SAME)]);
    }

    #[test]
    fn heavier_tokens_pair_first() {
        let ha = [3u64, 3];
        let hb = [3u64, 3];
        let (keys, start, kinds) = related(&ha, &[]);
        let r = Related {
            keys: &keys,
            start: &start,
            kinds: &kinds,
        };
        let got = match_tokens(
            0..2,
            0..2,
            &ha,
            &hb,
            |i| if i == 1 { 2.0 } else { 1.0 },
            &r,
            true,
        );
        assert_eq!(got, vec![(0, 1, SAME), (1, 0, SAME)]);
    }

    #[test]
    fn source_stats_count_sentences_per_lemma() {
        // sentences 0: [5 7 5], 1: [7 9]; 7 is held by two sentences, 5 and 9 by one
        let h = [5u64, 7, 5, 7, 9];
        let sid = [0i64, 0, 0, 1, 1];
        let s = source_stats(&h, &sid, None, None, 1).unwrap();
        assert_eq!(s.values, vec![5, 7, 9]);
        assert_eq!(s.counts, vec![1, 2, 1]);
        assert_eq!(s.df_token, vec![1, 2, 1, 2, 1]);
        assert_eq!(s.order, vec![0, 2, 1, 3, 4]);
        assert_eq!(
            (s.sentence_ids.clone(), s.first.clone(), s.last.clone()),
            (vec![0, 1], vec![0, 3], vec![3, 5])
        );
        assert_eq!(s.sentence_len, vec![3, 2]);
        assert_eq!(
            (s.rare.clone(), s.rare_start.clone(), s.rare_count.clone()),
            (vec![5, 9], vec![0, 4], vec![2, 1])
        );
        // a known order is taken, a wrong one replaced
        assert_eq!(
            source_stats(&h, &sid, Some(&[0, 2, 1, 3, 4]), None, 1).unwrap(),
            s
        );
        assert_eq!(
            source_stats(&h, &sid, Some(&[2, 0, 1, 3, 4]), None, 1).unwrap(),
            s
        );
        // a window of a whole source where 5 is held by 30 sentences, 9 by none of those given
        let w = source_stats(&h, &sid, None, Some((&[5, 7], &[30, 2])), 20).unwrap();
        assert_eq!(w.df_token, vec![30, 2, 30, 2, 0]);
        assert_eq!(w.rare, vec![7, 9]);
    }

    #[test]
    fn intersect_finds_shared_values_either_way() {
        assert_eq!(intersect(&[1, 3, 5, 7], &[3, 4, 7]), vec![(1, 0), (3, 2)]);
        assert_eq!(intersect(&[3, 4, 7], &[1, 3, 5, 7]), vec![(0, 1), (2, 3)]);
        assert!(intersect(&[], &[1]).is_empty());
    }
}
