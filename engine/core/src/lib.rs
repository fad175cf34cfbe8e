//! Sverka's hot paths as pure functions over slices: no Python, no I/O, no SQL.
//!
//! The Python front (`sverka.core`) calls them through the thin binding crate
//! `sverka-engine-python` (module `sverka._engine`). Every function here gives exactly what
//! the Python implementation it replaced gave (kept as the oracle of the differential tests
//! in `tests/core/oracles/`); the formulas are in the docstrings of the Python modules named
//! below, and any change of output must raise `FINGERPRINT_VERSION` there.
//!
//! * [`hashing`]: xxh64 with Sverka's seed (`sverka.core.hashing`).
//! * [`shingles`]: shingle hashes, winnowing, anchors (`sverka.core.shingles`).
//! * [`minhash`]: min-hash signatures, super- and mega-shingles (`sverka.core.minhash`).
//! * [`sentences`]: sentence hashes, Seq2 (`sverka.core.sentences`).
//! * [`shortdoc`]: the white-space-blind hash of a whole text (`sverka.core.shortdoc`).
//! * [`scan`]: the words of an ordinary text and the index of seen forms (`sverka.core.scan`).
//! * [`split`]: sentence boundaries and the marks of Ukrainian and Russian (`sverka.core.text`).
//! * [`forms`]: the canonizer's table of seen forms and the token arrays of a text (`sverka.core.text`).
//! * [`align`]: seeds joined, runs, sentence segments and chaining (`sverka.core.align`).

pub mod align;
pub mod error;
pub mod forms;
pub mod hashing;
pub mod minhash;
pub mod scan;
pub mod sentences;
pub mod shingles;
pub mod shortdoc;
pub mod split;

pub use error::Error;
