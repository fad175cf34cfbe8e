//! `sverka._engine`: the thin Python binding of the `sverka-engine` crate.
//!
//! Converts at the boundary (NumPy arrays of fixed dtypes in and out, `str` in), releases
//! the GIL around every computation so threads run in parallel, and maps the engine's
//! errors to `ValueError`. No algorithm lives here: the Python modules of `sverka.core`
//! (`shingles`, `minhash`, `sentences`, `shortdoc`) document each function.

use numpy::{IntoPyArray, PyArray1, PyReadonlyArray1};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyString;
use sverka_engine::{minhash, sentences, shingles, shortdoc, Error};

type U64s<'py> = Bound<'py, PyArray1<u64>>;
type I64s<'py> = Bound<'py, PyArray1<i64>>;

fn value_error(e: Error) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// A count or size from Python: a negative one is refused here, a zero one by the engine.
fn size(value: i64, what: &str) -> PyResult<usize> {
    usize::try_from(value).map_err(|_| PyValueError::new_err(format!("{what} must be >= 1, got {value}")))
}

fn slice<'a, T: numpy::Element>(a: &'a PyReadonlyArray1<'_, T>) -> PyResult<&'a [T]> {
    a.as_slice().map_err(|_| PyValueError::new_err("the engine needs a contiguous array"))
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
    Ok(())
}
