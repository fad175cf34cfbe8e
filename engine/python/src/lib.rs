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
use sverka_engine::{forms, minhash, scan, sentences, shingles, shortdoc, split, Error};

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
    let classes = slice(&classes)?;
    if classes.len() != 0x10000 {
        return Err(PyValueError::new_err("the class table must cover the 65536 characters of the BMP"));
    }
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
        let classes = slice(&scan_classes)?;
        if classes.len() != 0x10000 {
            return Err(PyValueError::new_err("the class table must cover the 65536 characters of the BMP"));
        }
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
    m.add_class::<HashIndex>()?;
    m.add_class::<TextRules>()?;
    m.add_class::<FormTable>()?;
    m.add_function(wrap_pyfunction!(sentence_of_words, m)?)?;
    m.add("MAX_HASHED", scan::MAX_HASHED)?;
    m.add("SOURCE_WINDOW", align::SOURCE_WINDOW)?;
    m.add("ACTIVE_LIMIT", align::ACTIVE_LIMIT)?;
    m.add("SEGMENTS_PER_TOKEN", align::SEGMENTS_PER_TOKEN)?;
    Ok(())
}
