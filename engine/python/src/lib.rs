//! `sverka._engine`: the thin Python binding of the `sverka-engine` crate.
//!
//! Converts at the boundary (NumPy arrays of fixed dtypes in and out, `str` in), releases
//! the GIL around every computation so threads run in parallel, and maps the engine's
//! errors to `ValueError`. No algorithm lives here: the Python modules of `sverka.core`
//! (`shingles`, `minhash`, `sentences`, `shortdoc`, `scan`) document each function.

use numpy::{IntoPyArray, PyArray1, PyReadonlyArray1};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyString, PyTuple};
use std::sync::RwLock;

use sverka_engine::align::{self, ChainHull, Segment, SegmentInput, Sentences, SortedRef, Taken, Texts};
use sverka_engine::candidates::{self as cand, ClusterRules, Postings};
use sverka_engine::paraphrase::{self, Params, Related, Source, Suspect};
use sverka_engine::{formfile, forms, minhash, scan, sentences, shingles, shortdoc, split, Error};

type U64s<'py> = Bound<'py, PyArray1<u64>>;
type I64s<'py> = Bound<'py, PyArray1<i64>>;
type I32s<'py> = Bound<'py, PyArray1<i32>>;

fn value_error(e: Error) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// A count or size from Python: a negative one is refused here, a zero one by the engine.
fn size(value: i64, what: &str) -> PyResult<usize> {
    usize::try_from(value).map_err(|_| PyValueError::new_err(format!("{what} must be >= 1, got {value}")))
}

fn slice<'a, T: numpy::Element>(a: &'a PyReadonlyArray1<'_, T>) -> PyResult<&'a [T]> {
    a.as_slice().map_err(|_| PyValueError::new_err("the engine needs a C-contiguous, aligned array (sverka.core.engine.u64 and its kin give one)"))
}

/// shingle_hashes(token_hashes: uint64[n], w, step) -> uint64[count]
#[pyfunction]
fn shingle_hashes<'py>(py: Python<'py>, t: PyReadonlyArray1<'py, u64>, w: i64, step: i64) -> PyResult<U64s<'py>> {
    let (t, w, step) = (slice(&t)?, size(w, "shingle length")?, size(step, "shingle step")?);
    let out = py.detach(|| shingles::shingle_hashes(t, w, step)).map_err(value_error)?;
    Ok(out.into_pyarray(py))
}

/// winnow(hashes: uint64[n], k) -> int64 selected positions
#[pyfunction]
fn winnow<'py>(py: Python<'py>, h: PyReadonlyArray1<'py, u64>, k: i64) -> PyResult<I64s<'py>> {
    let (h, k) = (slice(&h)?, size(k, "winnow window")?);
    let out = py.detach(|| shingles::winnow(h, k)).map_err(value_error)?;
    Ok(out.into_pyarray(py))
}

/// mix64(x: uint64[n]) -> uint64[n], the splitmix64 finalizer of every value
#[pyfunction]
fn mix64<'py>(py: Python<'py>, x: PyReadonlyArray1<'py, u64>) -> PyResult<U64s<'py>> {
    let x = slice(&x)?;
    let out: Vec<u64> = py.detach(|| x.iter().map(|&v| shingles::mix64(v)).collect());
    Ok(out.into_pyarray(py))
}

/// anchors(token_hashes: uint64[n], modulus) -> int64 positions
#[pyfunction]
fn anchors<'py>(py: Python<'py>, t: PyReadonlyArray1<'py, u64>, modulus: i64) -> PyResult<I64s<'py>> {
    let (t, modulus) = (slice(&t)?, size(modulus, "modulus")? as u64);
    let out = py.detach(|| shingles::anchors(t, modulus)).map_err(value_error)?;
    Ok(out.into_pyarray(py))
}

/// anchor_shingles(token_hashes: uint64[n], w, modulus) -> (int64 positions, uint64 hashes)
#[pyfunction]
fn anchor_shingles<'py>(
    py: Python<'py>,
    t: PyReadonlyArray1<'py, u64>,
    w: i64,
    modulus: i64,
) -> PyResult<(I64s<'py>, U64s<'py>)> {
    let (t, w, modulus) = (slice(&t)?, size(w, "shingle length")?, size(modulus, "modulus")? as u64);
    let (pos, h) = py.detach(|| shingles::anchor_shingles(t, w, modulus)).map_err(value_error)?;
    Ok((pos.into_pyarray(py), h.into_pyarray(py)))
}

/// minhash_signature(hashes: uint64[m], n, seed) -> uint64[n]
#[pyfunction]
fn minhash_signature<'py>(py: Python<'py>, x: PyReadonlyArray1<'py, u64>, n: i64, seed: u64) -> PyResult<U64s<'py>> {
    let (x, n) = (slice(&x)?, size(n, "min-hash functions")?);
    let out = py.detach(|| minhash::signature(x, n, seed)).map_err(value_error)?;
    Ok(out.into_pyarray(py))
}

/// super_shingles(signature: uint64[n], groups) -> uint64[groups], or [0] for an empty document
#[pyfunction]
fn super_shingles<'py>(py: Python<'py>, sig: PyReadonlyArray1<'py, u64>, groups: i64) -> PyResult<U64s<'py>> {
    let (sig, groups) = (slice(&sig)?, size(groups, "super-shingle groups")?);
    let out = minhash::super_shingles(sig, groups).map_err(value_error)?;
    Ok(out.into_pyarray(py))
}

/// mega_shingles(supers: uint64[g]) -> uint64[g(g-1)/2]
#[pyfunction]
fn mega_shingles<'py>(py: Python<'py>, supers: PyReadonlyArray1<'py, u64>) -> PyResult<U64s<'py>> {
    Ok(minhash::mega_shingles(slice(&supers)?).into_pyarray(py))
}

/// sentence_hashes(word_hashes: uint64[n], sentence_ids: int64[n], n_sentences) -> (uint64 seq1, int64 index)
#[pyfunction]
fn sentence_hashes<'py>(
    py: Python<'py>,
    wh: PyReadonlyArray1<'py, u64>,
    ids: PyReadonlyArray1<'py, i64>,
    n_sentences: i64,
) -> PyResult<(U64s<'py>, I64s<'py>)> {
    let (wh, ids) = (slice(&wh)?, slice(&ids)?);
    let (seq1, index) = py.detach(|| sentences::sentence_hashes(wh, ids, n_sentences)).map_err(value_error)?;
    Ok((seq1.into_pyarray(py), index.into_pyarray(py)))
}

/// seq2(seq1: uint64[n]) -> uint64[n]
#[pyfunction]
fn seq2<'py>(py: Python<'py>, seq1: PyReadonlyArray1<'py, u64>) -> PyResult<U64s<'py>> {
    Ok(sentences::seq2(slice(&seq1)?).into_pyarray(py))
}

/// full_text_hash(text: str) -> int
#[pyfunction]
fn full_text_hash(py: Python<'_>, text: &Bound<'_, PyString>) -> PyResult<u64> {
    match text.to_str() {
        Ok(s) => Ok(py.detach(|| shortdoc::full_text_hash_str(s))),
        Err(_) => {
            // Lone surrogates have no UTF-8: hash their code units, as Python's "surrogatepass".
            let encoded = text.call_method1("encode", ("utf-32-le", "surrogatepass"))?;
            let bytes: &[u8] = encoded.extract()?;
            let codes = bytes.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]));
            Ok(shortdoc::full_text_hash(codes))
        }
    }
}

/// The code points of a Python string (lone surrogates as their code units, as Python counts
/// them), copied once by CPython (`PyUnicode_AsUCS4`, in the stable ABI).
fn code_points(text: &Bound<'_, PyString>) -> PyResult<Vec<u32>> {
    let py = text.py();
    // SAFETY: `text` is a live str; the buffer holds `n` code points, all that CPython writes
    // (copy_null = 0), and its length is set only after CPython reported success.
    unsafe {
        let n = pyo3::ffi::PyUnicode_GetLength(text.as_ptr());
        if n < 0 {
            return Err(PyErr::fetch(py));
        }
        let mut out: Vec<u32> = Vec::with_capacity(n as usize);
        if n > 0 {
            if pyo3::ffi::PyUnicode_AsUCS4(text.as_ptr(), out.as_mut_ptr(), n, 0).is_null() {
                return Err(PyErr::fetch(py));
            }
            out.set_len(n as usize);
        }
        Ok(out)
    }
}

/// The scan's class of each of the 65 536 characters of the BMP (`sverka.core.scan`), checked.
fn bmp_classes<'a>(classes: &'a PyReadonlyArray1<'_, u8>) -> PyResult<&'a [u8]> {
    let classes = slice(classes)?;
    if classes.len() != 0x10000 {
        return Err(PyValueError::new_err("the class table must cover the 65536 characters of the BMP"));
    }
    Ok(classes)
}

type Found<'py> = Option<(I64s<'py>, I64s<'py>, Option<U64s<'py>>)>;

/// scan_words(text, classes: uint8[65536], seed, hashes: bool) -> (starts, ends, hashes | None) | None
#[pyfunction]
fn scan_words<'py>(
    py: Python<'py>,
    text: &Bound<'py, PyString>,
    classes: PyReadonlyArray1<'py, u8>,
    seed: u64,
    hashes: bool,
) -> PyResult<Found<'py>> {
    let classes = bmp_classes(&classes)?;
    let cps = code_points(text)?;
    let found = py.detach(|| {
        let (starts, ends) = scan::bounds(&cps, classes)?;
        let h = hashes.then(|| scan::span_hashes(&cps, &starts, &ends, seed));
        Some((starts, ends, h))
    });
    Ok(found.map(|(s, e, h)| (s.into_pyarray(py), e.into_pyarray(py), h.map(|h| h.into_pyarray(py)))))
}

/// hash_strings(code_points: uint32[m], ends: int64[k], seed) -> uint64[k]: the word hash of each
/// string, the strings given one after another
#[pyfunction]
fn hash_strings<'py>(
    py: Python<'py>,
    cps: PyReadonlyArray1<'py, u32>,
    ends: PyReadonlyArray1<'py, i64>,
    seed: u64,
) -> PyResult<U64s<'py>> {
    let (cps, ends) = (slice(&cps)?, slice(&ends)?);
    let mut previous = 0;
    for &e in ends {
        if e < previous || e as usize > cps.len() {
            return Err(PyValueError::new_err("string ends must increase within the code points"));
        }
        previous = e;
    }
    Ok(py.detach(|| scan::hash_strings(cps, ends, seed)).into_pyarray(py))
}

type SortedArrays<'py> = Option<(PyReadonlyArray1<'py, i64>, PyReadonlyArray1<'py, u64>)>;
type SentenceArrays<'py> = (PyReadonlyArray1<'py, u64>, PyReadonlyArray1<'py, i64>, PyReadonlyArray1<'py, i64>);
type Bools<'py> = Bound<'py, PyArray1<bool>>;

fn sorted_ref<'a>(s: &'a SortedArrays<'_>) -> PyResult<Option<SortedRef<'a>>> {
    Ok(match s {
        Some((order, values)) => Some(SortedRef { order: slice(order)?, values: slice(values)? }),
        None => None,
    })
}

fn flat_segments(segs: &[Segment]) -> (Vec<i64>, Vec<bool>) {
    let mut flat = Vec::with_capacity(segs.len() * 4);
    for s in segs {
        flat.extend([s.a0, s.a1, s.b0, s.b1]);
    }
    (flat, segs.iter().map(|s| s.sentence).collect())
}

fn flat_hulls(hulls: &[ChainHull]) -> Vec<i64> {
    hulls.iter().flat_map(|h| [h.a0, h.a1, h.b0, h.b1, h.matched]).collect()
}

/// join_equal(x: uint64[n], y: uint64[m], max_repeats, budget, x_sorted, y_sorted) -> (int64 i, int64 j);
/// a sorted view is (order: int64, values: uint64) or None
#[pyfunction]
#[pyo3(signature = (x, y, max_repeats, budget, x_sorted=None, y_sorted=None))]
fn join_equal<'py>(
    py: Python<'py>,
    x: PyReadonlyArray1<'py, u64>,
    y: PyReadonlyArray1<'py, u64>,
    max_repeats: u64,
    budget: u64,
    x_sorted: SortedArrays<'py>,
    y_sorted: SortedArrays<'py>,
) -> PyResult<(I64s<'py>, I64s<'py>)> {
    let (x, y, xs, ys) = (slice(&x)?, slice(&y)?, sorted_ref(&x_sorted)?, sorted_ref(&y_sorted)?);
    let (i, j) = py.detach(|| align::join_equal(x, xs, y, ys, max_repeats, budget)).map_err(value_error)?;
    Ok((i.into_pyarray(py), j.into_pyarray(py)))
}

/// align_chains(...) -> (segments: int64[4k] (a0, a1, b0, b1 each), sentence: bool[k], chain_of: int64[k],
/// hulls: int64[5c] (a0, a1, b0, b1, matched each)): the seeds of the two texts' shingle hashes joined,
/// their runs and the sentence segments, chained (sverka.core.align.align, steps 1 to 4)
#[pyfunction]
#[allow(clippy::too_many_arguments)]
fn align_chains<'py>(
    py: Python<'py>,
    pairs_a: PyReadonlyArray1<'py, u64>,
    pairs_b: PyReadonlyArray1<'py, u64>,
    sorted_a: SortedArrays<'py>,
    sorted_b: SortedArrays<'py>,
    max_seed_repeats: u64,
    budget: u64,
    w: i64,
    max_gap: i64,
    overlap: i64,
    min_sentence_words: i64,
    sentences_a: SentenceArrays<'py>,
    sentences_b: SentenceArrays<'py>,
    sentences_sorted_a: SortedArrays<'py>,
    sentences_sorted_b: SortedArrays<'py>,
    a_first: i64,
    sid: PyReadonlyArray1<'py, i32>,
    ha: PyReadonlyArray1<'py, u64>,
    hb: PyReadonlyArray1<'py, u64>,
    bsid: PyReadonlyArray1<'py, i32>,
) -> PyResult<(I64s<'py>, Bools<'py>, I64s<'py>, I64s<'py>)> {
    let (pa, pb, xs, ys) = (slice(&pairs_a)?, slice(&pairs_b)?, sorted_ref(&sorted_a)?, sorted_ref(&sorted_b)?);
    let texts = Texts { sid: slice(&sid)?, ha: slice(&ha)?, hb: slice(&hb)?, bsid: slice(&bsid)? };
    let input = SegmentInput {
        n_a: texts.ha.len(),
        n_b: texts.hb.len(),
        w,
        max_gap,
        min_sentence_words,
        a_sentences: Sentences {
            hashes: slice(&sentences_a.0)?,
            sorted: sorted_ref(&sentences_sorted_a)?,
            first: slice(&sentences_a.1)?,
            last: slice(&sentences_a.2)?,
        },
        b_sentences: Sentences {
            hashes: slice(&sentences_b.0)?,
            sorted: sorted_ref(&sentences_sorted_b)?,
            first: slice(&sentences_b.1)?,
            last: slice(&sentences_b.2)?,
        },
        a_first,
    };
    if w < 1 {
        return Err(PyValueError::new_err(format!("seed words must be >= 1, got {w}")));
    }
    let (segs, of, hulls) = py
        .detach(|| -> Result<_, Error> {
            let (i, j) = align::join_equal(pa, xs, pb, ys, max_seed_repeats, budget)?;
            let segs = align::segments(&i, &j, &input)?;
            let (of, hulls) = align::chain(&segs, &texts, max_gap, overlap, None)?;
            Ok((segs, of, hulls))
        })
        .map_err(value_error)?;
    let (flat, sentence) = flat_segments(&segs);
    Ok((flat.into_pyarray(py), sentence.into_pyarray(py), of.into_pyarray(py), flat_hulls(&hulls).into_pyarray(py)))
}

/// chain(segments: int64[4k], sentence: bool[k], sid, ha, hb, bsid, max_gap, overlap, taken_starts, taken_ends)
/// -> (chain_of: int64[k], hulls: int64[5c]): segments chained, never across the taken suspect tokens
#[pyfunction]
#[allow(clippy::too_many_arguments)]
fn chain<'py>(
    py: Python<'py>,
    segments: PyReadonlyArray1<'py, i64>,
    sentence: PyReadonlyArray1<'py, bool>,
    sid: PyReadonlyArray1<'py, i32>,
    ha: PyReadonlyArray1<'py, u64>,
    hb: PyReadonlyArray1<'py, u64>,
    bsid: PyReadonlyArray1<'py, i32>,
    max_gap: i64,
    overlap: i64,
    taken_starts: PyReadonlyArray1<'py, i64>,
    taken_ends: PyReadonlyArray1<'py, i64>,
) -> PyResult<(I64s<'py>, I64s<'py>)> {
    let (flat, sentence) = (slice(&segments)?, slice(&sentence)?);
    if flat.len() != 4 * sentence.len() {
        return Err(PyValueError::new_err("segments: four positions for each sentence flag"));
    }
    let segs: Vec<Segment> = flat
        .chunks_exact(4)
        .zip(sentence)
        .map(|(q, &sentence)| Segment { a0: q[0], a1: q[1], b0: q[2], b1: q[3], sentence })
        .collect();
    let texts = Texts { sid: slice(&sid)?, ha: slice(&ha)?, hb: slice(&hb)?, bsid: slice(&bsid)? };
    let taken = Taken::new(slice(&taken_starts)?.to_vec(), slice(&taken_ends)?.to_vec()).map_err(value_error)?;
    let (of, hulls) = py.detach(|| align::chain(&segs, &texts, max_gap, overlap, Some(&taken))).map_err(value_error)?;
    Ok((of.into_pyarray(py), flat_hulls(&hulls).into_pyarray(py)))
}

// The paraphrase layer's matching (sverka.core.paraphrase): the suspect's keys and the
// source's statistics come as the tuples `SuspectKeys.native` and `SourceStats.native` hold.

type RoI64<'py> = PyReadonlyArray1<'py, i64>;
type RoU64<'py> = PyReadonlyArray1<'py, u64>;
/// (token keys: uint64, key start: int64[n + 1], key kind: int8)
type RelatedArrays<'py> = (RoU64<'py>, RoI64<'py>, PyReadonlyArray1<'py, i8>);
/// (sentence ids, first token, one past the last token, sentence id per token, tokens per sentence id)
type SentenceTable<'py> = (RoI64<'py>, RoI64<'py>, RoI64<'py>, RoI64<'py>, RoI64<'py>);
/// (lemma hashes, tokens of the sorted keys, related, distinct keys, their starts, their counts, sentences)
type SuspectArrays<'py> = (RoU64<'py>, RoI64<'py>, RelatedArrays<'py>, RoU64<'py>, RoI64<'py>, RoI64<'py>, SentenceTable<'py>);
/// (sentences, values, counts, df per token, order, sorted hashes, rare, rare start, rare count, sentences,
/// tokens of the whole source or 0, the most sentences a rare lemma is held by)
type SourceArrays<'py> =
    (i64, RoU64<'py>, RoI64<'py>, RoI64<'py>, RoI64<'py>, RoU64<'py>, RoU64<'py>, RoI64<'py>, RoI64<'py>, SentenceTable<'py>, i64, i64);
/// (min_agree, min_rare, min_dice, family_weight, source_kept, min_sentence_tokens, candidates_per_sentence,
/// pairs_per_token, edge_gap, place_crowded)
type ParamsTuple = (i64, i64, f64, f64, f64, i64, i64, i64, i64, bool);

fn related_ref<'a>(r: &'a RelatedArrays<'_>) -> PyResult<Related<'a>> {
    Ok(Related { keys: slice(&r.0)?, start: slice(&r.1)?, kinds: slice(&r.2)? })
}

/// A suspect's keys as the paraphrase layer reads them (`SuspectKeys.native`), checked once.
#[pyclass(frozen)]
struct ParaphraseSuspect {
    hashes: Vec<u64>,
    key_tokens: Vec<i64>,
    keys: Vec<u64>,
    start: Vec<i64>,
    kinds: Vec<i8>,
    distinct: Vec<u64>,
    distinct_start: Vec<i64>,
    distinct_count: Vec<i64>,
    sentences: [Vec<i64>; 5], // ids, first, last, sentence of each token, tokens per sentence id
}

impl ParaphraseSuspect {
    fn view(&self) -> Suspect<'_> {
        let [ids, first, last, sentence_of, sentence_len] = &self.sentences;
        Suspect {
            hashes: &self.hashes,
            key_tokens: &self.key_tokens,
            related: Related { keys: &self.keys, start: &self.start, kinds: &self.kinds },
            sentences: paraphrase::Sentences { ids, first, last },
            distinct: &self.distinct,
            distinct_start: &self.distinct_start,
            distinct_count: &self.distinct_count,
            sentence_of,
            sentence_len,
        }
    }
}

fn table_of<'a>(t: &'a SentenceTable<'_>) -> PyResult<[&'a [i64]; 5]> {
    Ok([slice(&t.0)?, slice(&t.1)?, slice(&t.2)?, slice(&t.3)?, slice(&t.4)?])
}

#[pymethods]
impl ParaphraseSuspect {
    /// ParaphraseSuspect((lemma hashes, tokens of the sorted keys, (keys, key start, key kind), distinct keys,
    /// their starts, their counts, (sentence ids, first, last, sentence of each token, tokens per sentence id)))
    #[new]
    fn new(py: Python<'_>, k: SuspectArrays<'_>) -> PyResult<Self> {
        let (related, table) = (&k.2, table_of(&k.6)?);
        let parts = [slice(&k.1)?, slice(&related.1)?, slice(&k.4)?, slice(&k.5)?];
        let (hashes, keys, kinds, distinct) = (slice(&k.0)?, slice(&related.0)?, slice(&related.2)?, slice(&k.3)?);
        py.detach(|| {
            let out = ParaphraseSuspect {
                hashes: hashes.to_vec(),
                key_tokens: parts[0].to_vec(),
                keys: keys.to_vec(),
                start: parts[1].to_vec(),
                kinds: kinds.to_vec(),
                distinct: distinct.to_vec(),
                distinct_start: parts[2].to_vec(),
                distinct_count: parts[3].to_vec(),
                sentences: table.map(<[i64]>::to_vec),
            };
            out.view().check().map_err(value_error)?;
            Ok(out)
        })
    }
}

/// A source's statistics as the paraphrase layer reads them (`SourceStats.native`), checked
/// once; its token hashes put back from the sort order.
#[pyclass(frozen)]
struct ParaphraseSource {
    hashes: Vec<u64>,
    n_sentences: i64,
    values: Vec<u64>,
    counts: Vec<i64>,
    df_token: Vec<i64>,
    order: Vec<i64>,
    sorted_sentence: Vec<i64>,
    rare: Vec<u64>,
    rare_start: Vec<i64>,
    rare_count: Vec<i64>,
    rare_held: Vec<i64>,
    sentences: [Vec<i64>; 5],
    whole_tokens: i64,
    rare_df: i64,
}

impl ParaphraseSource {
    fn view(&self) -> Source<'_> {
        let [ids, first, last, sentence_of, sentence_len] = &self.sentences;
        Source {
            hashes: &self.hashes,
            n_sentences: self.n_sentences,
            values: &self.values,
            counts: &self.counts,
            df_token: &self.df_token,
            order: &self.order,
            sorted_sentence: &self.sorted_sentence,
            sentences: paraphrase::Sentences { ids, first, last },
            sentence_len,
            sentence_of,
            rare: &self.rare,
            rare_start: &self.rare_start,
            rare_count: &self.rare_count,
            rare_held: &self.rare_held,
            whole_tokens: self.whole_tokens,
            rare_df: self.rare_df,
        }
    }
}

#[pymethods]
impl ParaphraseSource {
    /// ParaphraseSource((sentences, values, counts, df per token, order, sorted hashes, rare, rare start,
    /// rare count, (sentence ids, first, last, sentence of each token, tokens per sentence id), tokens of the
    /// whole source or 0, the most sentences a rare lemma is held by))
    #[new]
    fn new(py: Python<'_>, s: SourceArrays<'_>) -> PyResult<Self> {
        let (order, sorted, table) = (slice(&s.4)?, slice(&s.5)?, table_of(&s.9)?);
        let (values, counts, df_token, rare) = (slice(&s.1)?, slice(&s.2)?, slice(&s.3)?, slice(&s.6)?);
        let (rare_start, rare_count) = (slice(&s.7)?, slice(&s.8)?);
        let (n_sentences, whole_tokens, rare_df) = (s.0, s.10, s.11);
        py.detach(|| {
            let n = order.len();
            if sorted.len() != n {
                return Err(PyValueError::new_err("source: a sorted hash per place in the order"));
            }
            let mut hashes = vec![0u64; n];
            let mut seen = vec![false; n];
            for (&u, &h) in order.iter().zip(sorted) {
                match usize::try_from(u) {
                    Ok(u) if u < n && !seen[u] => {
                        seen[u] = true;
                        hashes[u] = h;
                    }
                    _ => return Err(PyValueError::new_err("source: the order must be a permutation of the tokens")),
                }
            }
            let sentence_of = table[3];
            if sentence_of.len() != n {
                return Err(PyValueError::new_err("source: a sentence id per token"));
            }
            if df_token.len() != n
                || rare_start.len() != rare_count.len()
                || rare_start.iter().zip(rare_count).any(|(&a, &c)| a < 0 || c < 1 || (a + c) as usize > n)
            {
                return Err(PyValueError::new_err("source: a count per token, and each rare lemma a run of the order"));
            }
            let out = ParaphraseSource {
                n_sentences,
                values: values.to_vec(),
                counts: counts.to_vec(),
                sorted_sentence: order.iter().map(|&u| sentence_of[u as usize]).collect(),
                rare_held: rare_start.iter().map(|&a| df_token[order[a as usize] as usize]).collect(),
                df_token: df_token.to_vec(),
                order: order.to_vec(),
                hashes,
                rare: rare.to_vec(),
                rare_start: rare_start.to_vec(),
                rare_count: rare_count.to_vec(),
                sentences: table.map(<[i64]>::to_vec),
                whole_tokens,
                rare_df,
            };
            out.view().check().map_err(value_error)?;
            Ok(out)
        })
    }
}

/// A count from Python that may be 0.
fn count(value: i64, what: &str) -> PyResult<usize> {
    usize::try_from(value).map_err(|_| PyValueError::new_err(format!("{what} must be >= 0, got {value}")))
}

fn params_of(p: ParamsTuple) -> PyResult<Params> {
    Ok(Params {
        min_agree: count(p.0, "min_agree")?,
        min_rare: count(p.1, "min_rare")?,
        min_dice: p.2,
        family_weight: p.3,
        source_kept: p.4,
        min_sentence_tokens: p.5,
        candidates_per_sentence: count(p.6, "candidates_per_sentence")?,
        pairs_per_token: p.7,
        edge_gap: p.8,
        place_crowded: p.9,
    })
}

fn flat_pairs(pairs: &[paraphrase::Pair]) -> Vec<i64> {
    pairs.iter().flat_map(|&(i, u, how)| [i, u, i64::from(how)]).collect()
}

/// Suspect token ranges checked against the arrays they index.
fn token_range(r0: i64, r1: i64, n: usize, what: &str) -> PyResult<std::ops::Range<i64>> {
    if r0 < 0 || r1 < r0 || r1 as usize > n {
        return Err(PyValueError::new_err(format!("{what}: tokens {r0}..{r1} outside 0..{n}")));
    }
    Ok(r0..r1)
}

type AcceptedArrays<'py> = (I64s<'py>, I64s<'py>, I64s<'py>, I64s<'py>, Bound<'py, PyArray1<f64>>, I64s<'py>, I64s<'py>);

/// paraphrase_accepted(suspect, source, starts, ends, spans, params) -> (sa, sb, ka, kb: int64[k], dice: float64[k],
/// match_start: int64[k + 1], matched: int64[3m] (suspect token, source token, how)): each suspect sentence
/// the exact passages' pieces (`spans`: [start, end, ...] in characters) left, with its best source sentence
#[pyfunction]
fn paraphrase_accepted<'py>(
    py: Python<'py>,
    suspect: &ParaphraseSuspect,
    source: &ParaphraseSource,
    starts: RoI64<'py>,
    ends: RoI64<'py>,
    spans: RoI64<'py>,
    params: ParamsTuple,
) -> PyResult<AcceptedArrays<'py>> {
    let (keys, src, params) = (suspect.view(), source.view(), params_of(params)?);
    let (starts, ends, spans) = (slice(&starts)?, slice(&ends)?, slice(&spans)?);
    let found = py
        .detach(|| -> Result<_, Error> {
            let covered = paraphrase::covered(starts, ends, spans)?;
            paraphrase::accepted(&keys, &src, &covered, &params)
        })
        .map_err(value_error)?;
    let column = |f: &dyn Fn(&paraphrase::Accepted) -> i64| found.iter().map(f).collect::<Vec<i64>>().into_pyarray(py);
    let mut match_start = vec![0i64];
    let mut matched = Vec::new();
    for a in &found {
        matched.extend(flat_pairs(&a.matched));
        match_start.push((matched.len() / 3) as i64);
    }
    Ok((
        column(&|a| a.sa),
        column(&|a| a.sb),
        column(&|a| a.ka as i64),
        column(&|a| a.kb as i64),
        found.iter().map(|a| a.dice).collect::<Vec<f64>>().into_pyarray(py),
        match_start.into_pyarray(py),
        matched.into_pyarray(py),
    ))
}

/// paraphrase_match(a0, a1, b0, b1, ha, hb, weights: float64[a1 - a0], related, place_crowded) -> int64[3m]:
/// the one-to-one agreeing tokens (suspect token, source token, how) of two sentences, sorted
#[pyfunction]
#[allow(clippy::too_many_arguments)]
fn paraphrase_match<'py>(
    py: Python<'py>,
    a0: i64,
    a1: i64,
    b0: i64,
    b1: i64,
    ha: RoU64<'py>,
    hb: RoU64<'py>,
    weights: PyReadonlyArray1<'py, f64>,
    related: RelatedArrays<'py>,
    place_crowded: bool,
) -> PyResult<I64s<'py>> {
    let (ha, hb, w, related) = (slice(&ha)?, slice(&hb)?, slice(&weights)?, related_ref(&related)?);
    let (ia, ib) = (token_range(a0, a1, ha.len(), "suspect")?, token_range(b0, b1, hb.len(), "source")?);
    if w.len() != ia.clone().count() || related.start.len() != ha.len() + 1 {
        return Err(PyValueError::new_err("a weight per suspect token of the range, the related lemmas of every token"));
    }
    let out = py.detach(|| paraphrase::match_tokens(ia.clone(), ib, ha, hb, |i| w[(i - ia.start) as usize], &related, place_crowded));
    Ok(flat_pairs(&out).into_pyarray(py))
}

/// paraphrase_dense(suspect_tokens: int64[m] rising, edge_gap, min_agree) -> (lo, hi): the matched pairs kept
#[pyfunction]
fn paraphrase_dense(tokens: RoI64<'_>, edge_gap: i64, min_agree: i64) -> PyResult<(usize, usize)> {
    let pairs: Vec<paraphrase::Pair> = slice(&tokens)?.iter().map(|&i| (i, 0, 0)).collect();
    let r = paraphrase::dense(&pairs, edge_gap, count(min_agree, "min_agree")?);
    Ok((r.start, r.end))
}

/// paraphrase_bound(a_first, a_last, b_first, b_last: int64[k], related, hb) -> int64[k]: at most how many
/// tokens the matcher pairs in each sentence pair
#[pyfunction]
fn paraphrase_bound<'py>(
    py: Python<'py>,
    a_first: RoI64<'py>,
    a_last: RoI64<'py>,
    b_first: RoI64<'py>,
    b_last: RoI64<'py>,
    related: RelatedArrays<'py>,
    hb: RoU64<'py>,
) -> PyResult<I64s<'py>> {
    let (a0, a1, b0, b1) = (slice(&a_first)?, slice(&a_last)?, slice(&b_first)?, slice(&b_last)?);
    let (related, hb) = (related_ref(&related)?, slice(&hb)?);
    let n_a = related.start.len().saturating_sub(1);
    let k = a0.len();
    if a1.len() != k || b0.len() != k || b1.len() != k {
        return Err(PyValueError::new_err("as many sentence bounds on each side"));
    }
    let ranges = (0..k)
        .map(|p| Ok((token_range(a0[p], a1[p], n_a, "suspect")?, token_range(b0[p], b1[p], hb.len(), "source")?)))
        .collect::<PyResult<Vec<_>>>()?;
    let out: Vec<i64> = py.detach(|| ranges.into_iter().map(|(ia, ib)| paraphrase::agreeing_bound(ia, ib, &related, hb) as i64).collect());
    Ok(out.into_pyarray(py))
}

/// paraphrase_rare_rows(suspect, source, token_ok: bool[n]) -> (at, lo, cnt, ki: int64): source token at[k]
/// agrees with suspect tokens ki[lo[k]:lo[k] + cnt[k]] through a lemma rare in the source
#[pyfunction]
fn paraphrase_rare_rows<'py>(
    py: Python<'py>,
    suspect: &ParaphraseSuspect,
    source: &ParaphraseSource,
    token_ok: PyReadonlyArray1<'py, bool>,
) -> PyResult<(I64s<'py>, I64s<'py>, I64s<'py>, I64s<'py>)> {
    let (keys, src, ok) = (suspect.view(), source.view(), slice(&token_ok)?);
    if ok.len() != keys.hashes.len() {
        return Err(PyValueError::new_err("a flag per suspect token"));
    }
    let (at, lo, cnt, ki) = py.detach(|| paraphrase::rare_rows(&keys, &src, ok));
    Ok((at.into_pyarray(py), lo.into_pyarray(py), cnt.into_pyarray(py), ki.into_pyarray(py)))
}

type StatsArrays<'py> = (U64s<'py>, I64s<'py>, I64s<'py>, I64s<'py>, U64s<'py>, (I64s<'py>, I64s<'py>, I64s<'py>), I64s<'py>, U64s<'py>, I64s<'py>, I64s<'py>);

/// paraphrase_source_stats(hashes: uint64[n], sentence_ids: int64[n], order: int64[n] | None, whole_lemmas:
/// uint64 | None, whole_held: int64 | None, rare_df) -> (values, counts, df_token, order, sorted hashes,
/// (sentence ids, first, last), sentence_len, rare, rare_start, rare_count): a source's statistics
#[pyfunction]
#[pyo3(signature = (hashes, sentence_ids, order, whole_lemmas, whole_held, rare_df))]
fn paraphrase_source_stats<'py>(
    py: Python<'py>,
    hashes: RoU64<'py>,
    sentence_ids: RoI64<'py>,
    order: Option<RoI64<'py>>,
    whole_lemmas: Option<RoU64<'py>>,
    whole_held: Option<RoI64<'py>>,
    rare_df: i64,
) -> PyResult<StatsArrays<'py>> {
    let (h, sid) = (slice(&hashes)?, slice(&sentence_ids)?);
    let order = order.as_ref().map(slice).transpose()?;
    let whole = match (&whole_lemmas, &whole_held) {
        (Some(l), Some(c)) => Some((slice(l)?, slice(c)?)),
        (None, None) => None,
        _ => return Err(PyValueError::new_err("the whole source's lemmas and counts come together")),
    };
    let s = py.detach(|| paraphrase::source_stats(h, sid, order, whole, rare_df)).map_err(value_error)?;
    Ok((
        s.values.into_pyarray(py),
        s.counts.into_pyarray(py),
        s.df_token.into_pyarray(py),
        s.order.into_pyarray(py),
        s.sorted.into_pyarray(py),
        (s.sentence_ids.into_pyarray(py), s.first.into_pyarray(py), s.last.into_pyarray(py)),
        s.sentence_len.into_pyarray(py),
        s.rare.into_pyarray(py),
        s.rare_start.into_pyarray(py),
        s.rare_count.into_pyarray(py),
    ))
}

/// paraphrase_intersect(x, y: uint64 sorted distinct) -> (ix, iy: int64): where the values both hold lie
#[pyfunction]
fn paraphrase_intersect<'py>(py: Python<'py>, x: RoU64<'py>, y: RoU64<'py>) -> PyResult<(I64s<'py>, I64s<'py>)> {
    let (x, y) = (slice(&x)?, slice(&y)?);
    let both = py.detach(|| paraphrase::intersect(x, y));
    Ok((
        both.iter().map(|p| p.0 as i64).collect::<Vec<_>>().into_pyarray(py),
        both.iter().map(|p| p.1 as i64).collect::<Vec<_>>().into_pyarray(py),
    ))
}

/// Word hash (never 0) -> entry id, for many hashes at a time; threads may read while one writes.
#[pyclass(frozen)]
struct HashIndex {
    index: RwLock<scan::HashIndex>,
}

#[pymethods]
impl HashIndex {
    #[new]
    fn new() -> Self {
        HashIndex { index: RwLock::new(scan::HashIndex::new()) }
    }

    fn __len__(&self) -> usize {
        self.index.read().unwrap_or_else(|e| e.into_inner()).len()
    }

    /// get(hashes: uint64[n]) -> int64[n], -1 for a hash not in the index (and for 0)
    fn get<'py>(&self, py: Python<'py>, hashes: PyReadonlyArray1<'py, u64>) -> PyResult<I64s<'py>> {
        let hashes = slice(&hashes)?;
        let out = py.detach(|| self.index.read().unwrap_or_else(|e| e.into_inner()).get(hashes));
        Ok(out.into_pyarray(py))
    }

    /// add(hashes: uint64[n], ids: int64[n]): sets the id of each hash (0 skipped), later ones winning
    fn add<'py>(&self, py: Python<'py>, hashes: PyReadonlyArray1<'py, u64>, ids: PyReadonlyArray1<'py, i64>) -> PyResult<()> {
        let (hashes, ids) = (slice(&hashes)?, slice(&ids)?);
        if hashes.len() != ids.len() {
            return Err(PyValueError::new_err(format!("{} hashes but {} ids", hashes.len(), ids.len())));
        }
        py.detach(|| self.index.write().unwrap_or_else(|e| e.into_inner()).add(hashes, ids));
        Ok(())
    }
}

type Read<'py> = (I64s<'py>, I64s<'py>, I64s<'py>, I64s<'py>, Found<'py>, Vec<i64>);

/// The rules of sentence boundaries and the marks of Ukrainian and Russian (`sverka.core.text`).
#[pyclass(frozen)]
struct TextRules {
    rules: split::Rules,
}

#[pymethods]
impl TextRules {
    /// TextRules(classes: uint8[0x110000], fold_from: uint32[k], fold_to: uint32[k], abbreviations: list[str],
    /// counted: str)
    #[new]
    fn new(
        classes: PyReadonlyArray1<'_, u8>,
        fold_from: PyReadonlyArray1<'_, u32>,
        fold_to: PyReadonlyArray1<'_, u32>,
        abbreviations: Vec<String>,
        counted: String,
    ) -> PyResult<Self> {
        let (from, to) = (slice(&fold_from)?, slice(&fold_to)?);
        if from.len() != to.len() {
            return Err(PyValueError::new_err(format!("{} characters but {} letters to fold them to", from.len(), to.len())));
        }
        let fold: Vec<(u32, u32)> = from.iter().copied().zip(to.iter().copied()).collect();
        let words: Vec<Vec<u32>> = abbreviations.iter().map(|w| w.chars().map(u32::from).collect()).collect();
        let counted: Vec<u32> = counted.chars().map(u32::from).collect();
        let rules = split::Rules::new(slice(&classes)?.to_vec(), &fold, &words, &counted).map_err(value_error)?;
        Ok(TextRules { rules })
    }

    /// read(text, scan_classes: uint8[65536], seed, scan: bool) -> (uk_at, ru_at, piece_starts,
    /// piece_ends, (starts, ends, hashes) | None, counts): the marks, the sentence pieces, when
    /// `scan` the words of an ordinary text (None for one that needs the regular expression),
    /// and how many of each counted character the text holds
    fn read<'py>(
        &self,
        py: Python<'py>,
        text: &Bound<'py, PyString>,
        scan_classes: PyReadonlyArray1<'py, u8>,
        seed: u64,
        scan: bool,
    ) -> PyResult<Read<'py>> {
        let classes = bmp_classes(&scan_classes)?;
        let cps = code_points(text)?;
        let (uk, ru, starts, ends, found, counts) = py.detach(|| {
            let (uk, ru, counts) = self.rules.marks(&cps);
            let (starts, ends) = self.rules.pieces(&cps);
            let found = if scan { scan::words(&cps, classes, seed) } else { None };
            (uk, ru, starts, ends, found, counts)
        });
        Ok((
            uk.into_pyarray(py),
            ru.into_pyarray(py),
            starts.into_pyarray(py),
            ends.into_pyarray(py),
            found.map(|(s, e, h)| (s.into_pyarray(py), e.into_pyarray(py), Some(h.into_pyarray(py)))),
            counts,
        ))
    }
}

/// sentence_of_words(piece_starts: int64[m], piece_ends: int64[m], word_starts: int64[n]) ->
/// (int32[n] sentence of each word, int64[2k] [start, end) of each sentence holding a word)
#[pyfunction]
fn sentence_of_words<'py>(
    py: Python<'py>,
    starts: PyReadonlyArray1<'py, i64>,
    ends: PyReadonlyArray1<'py, i64>,
    word_starts: PyReadonlyArray1<'py, i64>,
) -> PyResult<(I32s<'py>, I64s<'py>)> {
    let (starts, ends, words) = (slice(&starts)?, slice(&ends)?, slice(&word_starts)?);
    if starts.len() != ends.len() || starts.is_empty() {
        return Err(PyValueError::new_err("pieces need as many ends as starts, and at least one"));
    }
    let (ids, spans) = py.detach(|| split::sentence_of_words(starts, ends, words));
    Ok((ids.into_pyarray(py), spans.into_pyarray(py)))
}

type U8s<'py> = Bound<'py, PyArray1<u8>>;
type Columns<'py> = (U64s<'py>, U64s<'py>, U8s<'py>, U8s<'py>);
type TokenArrays<'py> = (I64s<'py>, I64s<'py>, I32s<'py>, Bound<'py, PyTuple>, U64s<'py>, U64s<'py>, (i64, i64, i64), I64s<'py>);

/// The canonizer's table of seen raw forms (`sverka.core.text`): the entries' columns and
/// indexes (the engine's), and their lemmas as Python strings, to give a text's tokens in one
/// call. Threads may read while one adds (a read-write lock, taken without the GIL).
#[pyclass(frozen)]
struct FormTable {
    entries: RwLock<forms::Entries>,
    lemmas: RwLock<Vec<Py<PyString>>>,
}

impl FormTable {
    fn read(&self) -> std::sync::RwLockReadGuard<'_, forms::Entries> {
        self.entries.read().unwrap_or_else(|e| e.into_inner())
    }
}

#[pymethods]
impl FormTable {
    #[new]
    fn new() -> Self {
        FormTable { entries: RwLock::new(forms::Entries::new()), lemmas: RwLock::new(Vec::new()) }
    }

    fn __len__(&self) -> usize {
        self.read().len()
    }

    /// append(lemmas: list[str], lemma_hash: uint64[n], word_hash: uint64[n], flags: uint8[n],
    /// scripts: uint8[n], raw_hashes: uint64[n], modes: uint8[n]): new entries, each indexed by
    /// its raw form's hash in the modes whose bits `modes` sets
    #[allow(clippy::too_many_arguments)]
    fn append<'py>(
        &self,
        py: Python<'py>,
        lemmas: Vec<Bound<'py, PyString>>,
        lemma_hash: PyReadonlyArray1<'py, u64>,
        word_hash: PyReadonlyArray1<'py, u64>,
        flags: PyReadonlyArray1<'py, u8>,
        scripts: PyReadonlyArray1<'py, u8>,
        raw_hashes: PyReadonlyArray1<'py, u64>,
        modes: PyReadonlyArray1<'py, u8>,
    ) -> PyResult<()> {
        let (lh, wh, fl, sc, rh, md) =
            (slice(&lemma_hash)?, slice(&word_hash)?, slice(&flags)?, slice(&scripts)?, slice(&raw_hashes)?, slice(&modes)?);
        if lemmas.len() != lh.len() {
            return Err(PyValueError::new_err(format!("{} lemmas for {} entries", lemmas.len(), lh.len())));
        }
        let owned: Vec<Py<PyString>> = lemmas.into_iter().map(Bound::unbind).collect();
        py.detach(|| {
            // both under the entries' write lock: a reader finds an id only once its lemma is there
            let mut entries = self.entries.write().unwrap_or_else(|e| e.into_inner());
            let mut all = self.lemmas.write().unwrap_or_else(|e| e.into_inner());
            entries.append(lh, wh, fl, sc, rh, md)?;
            all.extend(owned);
            Ok::<(), Error>(())
        })
        .map_err(value_error)
    }

    /// get(mode: int, hashes: uint64[n]) -> int64[n]: the entry of each raw form's hash, -1 for none
    fn get<'py>(&self, py: Python<'py>, mode: usize, hashes: PyReadonlyArray1<'py, u64>) -> PyResult<I64s<'py>> {
        let hashes = slice(&hashes)?;
        let out = py.detach(|| self.read().get(mode, hashes)).map_err(value_error)?;
        Ok(out.into_pyarray(py))
    }

    /// columns(ids: int64[n]) -> (lemma_hash, word_hash, flags, scripts) of those entries
    fn columns<'py>(&self, py: Python<'py>, ids: PyReadonlyArray1<'py, i64>) -> PyResult<Columns<'py>> {
        let ids = slice(&ids)?;
        let (lh, wh, fl, sc) = py.detach(|| self.read().columns(ids)).map_err(value_error)?;
        Ok((lh.into_pyarray(py), wh.into_pyarray(py), fl.into_pyarray(py), sc.into_pyarray(py)))
    }

    /// lemmas(ids: int64[n]) -> tuple[str, ...]
    fn lemmas<'py>(&self, py: Python<'py>, ids: PyReadonlyArray1<'py, i64>) -> PyResult<Bound<'py, PyTuple>> {
        let ids = slice(&ids)?;
        py.detach(|| self.read().columns(ids).map(|_| ())).map_err(value_error)?;
        self.lemma_tuple(py, ids)
    }

    /// tokens(ids: int64[n], starts: int64[n], ends: int64[n], sentences: int32[n], drop, tampered)
    /// -> (starts, ends, sentences, lemmas, lemma_hash, word_hash, (scripts 0, 1, 2), tampered
    /// places): the kept words' (see the engine's `forms::Entries::tokens`)
    #[allow(clippy::too_many_arguments)]
    fn tokens<'py>(
        &self,
        py: Python<'py>,
        ids: PyReadonlyArray1<'py, i64>,
        starts: PyReadonlyArray1<'py, i64>,
        ends: PyReadonlyArray1<'py, i64>,
        sentences: PyReadonlyArray1<'py, i32>,
        drop: u8,
        tampered: u8,
    ) -> PyResult<TokenArrays<'py>> {
        let (ids, starts, ends, sentences) = (slice(&ids)?, slice(&starts)?, slice(&ends)?, slice(&sentences)?);
        let t = py.detach(|| self.read().tokens(ids, starts, ends, sentences, drop, tampered)).map_err(value_error)?;
        let lemmas = self.lemma_tuple(py, &t.ids)?;
        let places: Vec<i64> = t.tampered.iter().map(|&k| k as i64).collect();
        Ok((
            t.starts.into_pyarray(py),
            t.ends.into_pyarray(py),
            t.sentences.into_pyarray(py),
            lemmas,
            t.lemma_hash.into_pyarray(py),
            t.word_hash.into_pyarray(py),
            (t.scripts[0], t.scripts[1], t.scripts[2]),
            places.into_pyarray(py),
        ))
    }
}

impl FormTable {
    /// The lemmas of `ids` (checked to be entries) as a tuple, taken under the GIL.
    fn lemma_tuple<'py>(&self, py: Python<'py>, ids: &[i64]) -> PyResult<Bound<'py, PyTuple>> {
        let all = self.lemmas.read().unwrap_or_else(|e| e.into_inner());
        PyTuple::new(py, ids.iter().map(|&i| all[i as usize].bind(py)))
    }
}

/// form_rows(forms: list[str], kind, keys: uint64[n], starts: uint32[n], ends: uint32[n],
/// texts: uint8[m]) -> int64[len(forms)]: the row of each form (its UTF-8) among a form table
/// file's rows of `kind`, -1 for none, -2 for a form holding a lone surrogate (not UTF-8: the
/// caller encodes it as the file does)
#[pyfunction]
fn form_rows<'py>(
    py: Python<'py>,
    forms: Vec<Bound<'py, PyString>>,
    kind: u64,
    keys: PyReadonlyArray1<'py, u64>,
    starts: PyReadonlyArray1<'py, u32>,
    ends: PyReadonlyArray1<'py, u32>,
    texts: PyReadonlyArray1<'py, u8>,
) -> PyResult<I64s<'py>> {
    let rows = formfile::Rows::new(slice(&keys)?, slice(&starts)?, slice(&ends)?, slice(&texts)?).map_err(value_error)?;
    let encoded: Vec<Option<&str>> = forms.iter().map(|f| f.to_str().ok()).collect();
    let out: Vec<i64> = py.detach(|| encoded.iter().map(|f| f.map_or(-2, |f| rows.find(f.as_bytes(), kind))).collect());
    Ok(out.into_pyarray(py))
}

/// form_texts(rows: int64[k], starts: uint32[n], ends: uint32[n], texts: uint8[m]) -> list[str | None]:
/// the text of each row of a form table file, None where it is not UTF-8 or out of the file
#[pyfunction]
fn form_texts<'py>(
    py: Python<'py>,
    rows: PyReadonlyArray1<'py, i64>,
    starts: PyReadonlyArray1<'py, u32>,
    ends: PyReadonlyArray1<'py, u32>,
    texts: PyReadonlyArray1<'py, u8>,
) -> PyResult<Vec<Option<Bound<'py, PyString>>>> {
    let (starts, ends) = (slice(&starts)?, slice(&ends)?);
    let (texts, at) = (slice(&texts)?, slice(&rows)?);
    Ok(at
        .iter()
        .map(|&row| {
            let row = usize::try_from(row).ok()?;
            let (a, b) = (*starts.get(row)? as usize, *ends.get(row)? as usize);
            let text = texts.get(a..b)?;
            std::str::from_utf8(text).ok().map(|s| PyString::new(py, s))
        })
        .collect())
}

type Seeds<'py> = (I64s<'py>, I64s<'py>, I64s<'py>);
type ClusterArrays<'py> = (I64s<'py>, I64s<'py>, I64s<'py>, I64s<'py>);

/// postings_check(keys: int64[k], offsets: uint64[k + 1], docs: uint32[n], pos: uint32[n]):
/// ValueError unless the arrays are a postings table (sverka.core.store.postings)
#[pyfunction]
fn postings_check<'py>(py: Python<'py>, keys: PyReadonlyArray1<'py, i64>, offsets: PyReadonlyArray1<'py, u64>,
                       docs: PyReadonlyArray1<'py, u32>, pos: PyReadonlyArray1<'py, u32>) -> PyResult<()> {
    let (k, o, d, p) = (slice(&keys)?, slice(&offsets)?, slice(&docs)?, slice(&pos)?);
    py.detach(|| Postings::new(k, o, d, p).map(|_| ())).map_err(value_error)
}

/// postings_lookup(keys, offsets, docs, pos, query: int64[q], max_posting) -> (hash, doc_id, pos) int64 rows
/// (the arrays as postings_check accepted them)
#[pyfunction]
fn postings_lookup<'py>(py: Python<'py>, keys: PyReadonlyArray1<'py, i64>, offsets: PyReadonlyArray1<'py, u64>,
                        docs: PyReadonlyArray1<'py, u32>, pos: PyReadonlyArray1<'py, u32>,
                        query: PyReadonlyArray1<'py, i64>, max_posting: i64) -> PyResult<Seeds<'py>> {
    let (k, o, d, p, q) = (slice(&keys)?, slice(&offsets)?, slice(&docs)?, slice(&pos)?, slice(&query)?);
    let cap = usize::try_from(max_posting).map_err(|_| PyValueError::new_err("max_posting must be >= 0"))?;
    let (h, d, j) = py.detach(|| cand::lookup(&Postings::checked_before(k, o, d, p), q, cap));
    Ok((h.into_pyarray(py), d.into_pyarray(py), j.into_pyarray(py)))
}

/// expand_seeds(keys: uint64, key_pos: int64, row_hash: uint64, row_doc: int64, row_pos: int64) -> (d, i, j)
#[pyfunction]
fn expand_seeds<'py>(py: Python<'py>, keys: PyReadonlyArray1<'py, u64>, key_pos: PyReadonlyArray1<'py, i64>,
                     row_hash: PyReadonlyArray1<'py, u64>, row_doc: PyReadonlyArray1<'py, i64>,
                     row_pos: PyReadonlyArray1<'py, i64>) -> PyResult<Seeds<'py>> {
    let (k, kp, rh, rd, rp) = (slice(&keys)?, slice(&key_pos)?, slice(&row_hash)?, slice(&row_doc)?, slice(&row_pos)?);
    let (d, i, j) = py.detach(|| cand::expand(k, kp, rh, rd, rp)).map_err(value_error)?;
    Ok((d.into_pyarray(py), i.into_pyarray(py), j.into_pyarray(py)))
}

/// seed_support(d, i, j: int64 sorted by (d, i, j), near_suspect, near_source) -> bool per seed
#[pyfunction]
fn seed_support<'py>(py: Python<'py>, d: PyReadonlyArray1<'py, i64>, i: PyReadonlyArray1<'py, i64>,
                     j: PyReadonlyArray1<'py, i64>, near_suspect: i64, near_source: i64)
                     -> PyResult<Bound<'py, PyArray1<bool>>> {
    let (d, i, j) = (slice(&d)?, slice(&i)?, slice(&j)?);
    if d.len() != i.len() || d.len() != j.len() {
        return Err(PyValueError::new_err("seed_support: the arrays' lengths disagree"));
    }
    let out = py.detach(|| cand::supported(d, i, j, near_suspect, near_source));
    Ok(out.into_pyarray(py))
}

fn cluster_rules<'a>(near_suspect: i64, near_source: i64, min_tokens: i64, pair_words: i64,
                     bounds: Option<(&'a [i64], &'a [i64])>, sentence_share: f64) -> ClusterRules<'a> {
    ClusterRules { near_suspect, near_source, min_tokens, pair_words, sentence_bounds: bounds, sentence_share }
}

fn cluster_arrays<'py>(py: Python<'py>, c: cand::Clusters) -> ClusterArrays<'py> {
    (c.docs.into_pyarray(py), c.first.into_pyarray(py), c.end.into_pyarray(py), c.covered.into_pyarray(py))
}

/// seed_clusters(d, i, j: int64, near_suspect, near_source, min_tokens, pair_words, starts=None, ends=None,
/// sentence_share=1.0) -> (docs, first, end, covered) of the clusters that count
#[pyfunction]
#[pyo3(signature = (d, i, j, near_suspect, near_source, min_tokens, pair_words, starts=None, ends=None, sentence_share=1.0))]
#[allow(clippy::too_many_arguments)]
fn seed_clusters<'py>(py: Python<'py>, d: PyReadonlyArray1<'py, i64>, i: PyReadonlyArray1<'py, i64>,
                      j: PyReadonlyArray1<'py, i64>, near_suspect: i64, near_source: i64, min_tokens: i64,
                      pair_words: i64, starts: Option<PyReadonlyArray1<'py, i64>>,
                      ends: Option<PyReadonlyArray1<'py, i64>>, sentence_share: f64) -> PyResult<ClusterArrays<'py>> {
    let (d, i, j) = (slice(&d)?, slice(&i)?, slice(&j)?);
    let bounds = match (&starts, &ends) {
        (Some(s), Some(e)) => Some((slice(s)?, slice(e)?)),
        _ => None,
    };
    let rules = cluster_rules(near_suspect, near_source, min_tokens, pair_words, bounds, sentence_share);
    let c = py.detach(|| cand::clusters(d, i, j, &rules)).map_err(value_error)?;
    Ok(cluster_arrays(py, c))
}

/// seed_places(i, j: int64, near_suspect, near_source, min_tokens, pair_words, run, starts=None, ends=None,
/// sentence_share=1.0) -> int64: the source positions of the keys in places that count
#[pyfunction]
#[pyo3(signature = (i, j, near_suspect, near_source, min_tokens, pair_words, run, starts=None, ends=None, sentence_share=1.0))]
#[allow(clippy::too_many_arguments)]
fn seed_places<'py>(py: Python<'py>, i: PyReadonlyArray1<'py, i64>, j: PyReadonlyArray1<'py, i64>,
                    near_suspect: i64, near_source: i64, min_tokens: i64, pair_words: i64, run: i64,
                    starts: Option<PyReadonlyArray1<'py, i64>>, ends: Option<PyReadonlyArray1<'py, i64>>,
                    sentence_share: f64) -> PyResult<I64s<'py>> {
    let (i, j) = (slice(&i)?, slice(&j)?);
    let bounds = match (&starts, &ends) {
        (Some(s), Some(e)) => Some((slice(s)?, slice(e)?)),
        _ => None,
    };
    let rules = cluster_rules(near_suspect, near_source, min_tokens, pair_words, bounds, sentence_share);
    let out = py.detach(|| cand::places(i, j, &rules, run)).map_err(value_error)?;
    Ok(out.into_pyarray(py))
}

/// pair_clusters(keys: uint64, key_pos: int64, row_hash: uint64, row_doc: int64, row_pos: int64, near_suspect,
/// near_source, min_tokens, pair_words, starts=None, ends=None, sentence_share=1.0): the seeds of the rows
/// (expand_seeds) and their clusters (seed_clusters) in one call
#[pyfunction]
#[pyo3(signature = (keys, key_pos, row_hash, row_doc, row_pos, near_suspect, near_source, min_tokens, pair_words,
                    starts=None, ends=None, sentence_share=1.0))]
#[allow(clippy::too_many_arguments)]
fn pair_clusters<'py>(py: Python<'py>, keys: PyReadonlyArray1<'py, u64>, key_pos: PyReadonlyArray1<'py, i64>,
                      row_hash: PyReadonlyArray1<'py, u64>, row_doc: PyReadonlyArray1<'py, i64>,
                      row_pos: PyReadonlyArray1<'py, i64>, near_suspect: i64, near_source: i64, min_tokens: i64,
                      pair_words: i64, starts: Option<PyReadonlyArray1<'py, i64>>,
                      ends: Option<PyReadonlyArray1<'py, i64>>, sentence_share: f64) -> PyResult<ClusterArrays<'py>> {
    let (k, kp, rh, rd, rp) = (slice(&keys)?, slice(&key_pos)?, slice(&row_hash)?, slice(&row_doc)?, slice(&row_pos)?);
    let bounds = match (&starts, &ends) {
        (Some(s), Some(e)) => Some((slice(s)?, slice(e)?)),
        _ => None,
    };
    let rules = cluster_rules(near_suspect, near_source, min_tokens, pair_words, bounds, sentence_share);
    let c = py.detach(|| {
        let (d, i, j) = cand::expand(k, kp, rh, rd, rp)?;
        cand::clusters(&d, &i, &j, &rules)
    }).map_err(value_error)?;
    Ok(cluster_arrays(py, c))
}

#[pymodule]
fn _engine(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_function(wrap_pyfunction!(shingle_hashes, m)?)?;
    m.add_function(wrap_pyfunction!(winnow, m)?)?;
    m.add_function(wrap_pyfunction!(mix64, m)?)?;
    m.add_function(wrap_pyfunction!(anchors, m)?)?;
    m.add_function(wrap_pyfunction!(anchor_shingles, m)?)?;
    m.add_function(wrap_pyfunction!(minhash_signature, m)?)?;
    m.add_function(wrap_pyfunction!(super_shingles, m)?)?;
    m.add_function(wrap_pyfunction!(mega_shingles, m)?)?;
    m.add_function(wrap_pyfunction!(sentence_hashes, m)?)?;
    m.add_function(wrap_pyfunction!(seq2, m)?)?;
    m.add_function(wrap_pyfunction!(full_text_hash, m)?)?;
    m.add_function(wrap_pyfunction!(scan_words, m)?)?;
    m.add_function(wrap_pyfunction!(hash_strings, m)?)?;
    m.add_function(wrap_pyfunction!(join_equal, m)?)?;
    m.add_function(wrap_pyfunction!(align_chains, m)?)?;
    m.add_function(wrap_pyfunction!(chain, m)?)?;
    m.add_function(wrap_pyfunction!(paraphrase_accepted, m)?)?;
    m.add_function(wrap_pyfunction!(paraphrase_match, m)?)?;
    m.add_function(wrap_pyfunction!(paraphrase_dense, m)?)?;
    m.add_function(wrap_pyfunction!(paraphrase_bound, m)?)?;
    m.add_function(wrap_pyfunction!(paraphrase_rare_rows, m)?)?;
    m.add_function(wrap_pyfunction!(paraphrase_intersect, m)?)?;
    m.add_function(wrap_pyfunction!(paraphrase_source_stats, m)?)?;
    m.add_function(wrap_pyfunction!(postings_check, m)?)?;
    m.add_function(wrap_pyfunction!(postings_lookup, m)?)?;
    m.add_function(wrap_pyfunction!(expand_seeds, m)?)?;
    m.add_function(wrap_pyfunction!(seed_support, m)?)?;
    m.add_function(wrap_pyfunction!(seed_clusters, m)?)?;
    m.add_function(wrap_pyfunction!(pair_clusters, m)?)?;
    m.add_function(wrap_pyfunction!(seed_places, m)?)?;
    m.add_class::<HashIndex>()?;
    m.add_class::<ParaphraseSuspect>()?;
    m.add_class::<ParaphraseSource>()?;
    m.add_class::<TextRules>()?;
    m.add_class::<FormTable>()?;
    m.add_function(wrap_pyfunction!(form_rows, m)?)?;
    m.add_function(wrap_pyfunction!(form_texts, m)?)?;
    m.add_function(wrap_pyfunction!(sentence_of_words, m)?)?;
    m.add("MAX_HASHED", scan::MAX_HASHED)?;
    m.add("SOURCE_WINDOW", align::SOURCE_WINDOW)?;
    m.add("ACTIVE_LIMIT", align::ACTIVE_LIMIT)?;
    m.add("SEGMENTS_PER_TOKEN", align::SEGMENTS_PER_TOKEN)?;
    Ok(())
}
