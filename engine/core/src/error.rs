//! The one error type: a caller's bad argument, with a message saying which and why.

use std::fmt;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Error {
    /// An argument outside its range (the message names it and the range).
    BadArgument(String),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::BadArgument(message) => f.write_str(message),
        }
    }
}

impl std::error::Error for Error {}

pub(crate) fn bad(message: String) -> Error {
    Error::BadArgument(message)
}
