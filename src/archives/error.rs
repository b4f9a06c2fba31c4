//! Why fetching an archive failed; every message names the archive (its URL)
//! and, for a problem inside it, the member.

use std::path::{Path, PathBuf};

/// A failed fetch. Nothing was left in the destination.
#[derive(Debug, thiserror::Error)]
pub enum ArchiveError {
    /// The URL cannot be fetched (scheme, connection, HTTP status, timeout).
    #[error("{url}: cannot download: {reason}")]
    Download {
        /// The archive's URL.
        url: String,
        /// What went wrong.
        reason: String,
    },
    /// The download is larger than [`super::Limits::max_download_bytes`].
    #[error("{url}: download larger than the cap of {cap} bytes")]
    DownloadTooLarge {
        /// The archive's URL.
        url: String,
        /// The cap.
        cap: u64,
    },
    /// The archive's hash is not the one the submission gives.
    #[error(
        "{url}: {algorithm} mismatch: the submission gives {expected}, the download has {actual}; nothing unpacked"
    )]
    Hash {
        /// The archive's URL.
        url: String,
        /// `sha256` or `sha512`.
        algorithm: &'static str,
        /// The hash given.
        expected: String,
        /// The hash of the bytes downloaded.
        actual: String,
    },
    /// A member would land outside the destination, or is of a refused kind.
    #[error("{url}: member '{member}': {reason}; nothing unpacked")]
    Unsafe {
        /// The archive's URL.
        url: String,
        /// The member's name as stored in the archive.
        member: String,
        /// Why it is refused.
        reason: String,
    },
    /// A size or count cap was exceeded while unpacking.
    #[error("{url}: member '{member}': {reason}; nothing unpacked")]
    Cap {
        /// The archive's URL.
        url: String,
        /// The member being unpacked when the cap was reached.
        member: String,
        /// Which cap.
        reason: String,
    },
    /// The archive cannot be read (unknown format, corrupt data).
    #[error("{url}: {reason}; nothing unpacked")]
    Format {
        /// The archive's URL.
        url: String,
        /// What is wrong with it.
        reason: String,
    },
    /// A local file system error (the I/O error is part of the message,
    /// not a `source`: printed once).
    #[error("{}: {error}", path.display())]
    Io {
        /// The path concerned.
        path: PathBuf,
        /// The error.
        error: std::io::Error,
    },
}

impl ArchiveError {
    /// An I/O error on `path`.
    pub fn io(path: &Path, error: std::io::Error) -> ArchiveError {
        ArchiveError::Io {
            path: path.to_path_buf(),
            error,
        }
    }
}
