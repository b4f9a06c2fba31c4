//! What can go wrong while decoding.

use std::fmt;

/// A decoding failure. Converted to [`std::io::Error`] by the reader (kind
/// `UnexpectedEof` for [`Error::Truncated`], `InvalidData` for the others,
/// `Io` passed through), with this value inside: callers can tell the kinds
/// apart with [`Error::of_io`].
#[derive(Debug)]
pub enum Error {
    /// The input ended inside a stream (or was empty).
    Truncated,
    /// The input does not start with a bzip2 stream header (`BZh1`..`BZh9`),
    /// or bytes after the last stream are not another stream.
    NotBzip2,
    /// A block uses the obsolete "randomised" mode (written by bzip2 0.9.0 and
    /// older only), which this decoder does not implement.
    Randomised,
    /// A block's data or the stream's checksum does not match its CRC.
    Crc,
    /// An inconsistent field in a block (the reason is named).
    Corrupt(&'static str),
    /// The underlying reader failed.
    Io(std::io::Error),
}

impl Error {
    /// The [`Error`] carried by an I/O error returned by the reader, if any.
    pub fn of_io(e: &std::io::Error) -> Option<&Error> {
        e.get_ref().and_then(|inner| inner.downcast_ref::<Error>())
    }

    /// Converts into the I/O error the reader returns.
    pub fn into_io(self) -> std::io::Error {
        use std::io::ErrorKind;
        let kind = match &self {
            Error::Io(e) => return std::io::Error::new(e.kind(), e.to_string()),
            Error::Truncated => ErrorKind::UnexpectedEof,
            _ => ErrorKind::InvalidData,
        };
        std::io::Error::new(kind, self)
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Truncated => write!(f, "bzip2 data truncated"),
            Error::NotBzip2 => write!(f, "not bzip2 data (bad stream header)"),
            Error::Randomised => write!(f, "bzip2 block in the obsolete randomised mode"),
            Error::Crc => write!(f, "bzip2 data corrupt (CRC mismatch)"),
            Error::Corrupt(what) => write!(f, "bzip2 data corrupt ({what})"),
            Error::Io(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for Error {}

/// Shorthand.
pub type Result<T> = std::result::Result<T, Error>;
