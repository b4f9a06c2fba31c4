//! The record of an unpacked archive, `DEST/.smtcomp-archive.json`: where it
//! came from, its hashes, what it unpacked. A later fetch of the same URL with
//! the same expected hash skips the download when every file is still there.

use super::{Archive, ArchiveError, Unpacked};
use serde::{Deserialize, Serialize};
use std::path::Path;

/// The manifest's file name inside the destination directory (an archive
/// member of that name is refused).
pub const MANIFEST_FILE: &str = ".smtcomp-archive.json";

/// What one fetch unpacked.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Manifest {
    /// The URL fetched.
    pub url: String,
    /// SHA-256 of the bytes downloaded (hex, lower case).
    pub sha256: String,
    /// SHA-512 of the bytes downloaded (hex, lower case).
    pub sha512: String,
    /// The SHA-256 the caller required, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expected_sha256: Option<String>,
    /// The SHA-512 the caller required, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expected_sha512: Option<String>,
    /// Bytes of the regular files unpacked.
    pub bytes: u64,
    /// Regular files and links unpacked, relative to the directory, sorted.
    pub files: Vec<String>,
}

impl Manifest {
    /// Reads `dir/.smtcomp-archive.json`; `None` when absent or unreadable.
    pub fn read(dir: &Path) -> Option<Manifest> {
        let text = std::fs::read_to_string(dir.join(MANIFEST_FILE)).ok()?;
        serde_json::from_str(&text).ok()
    }

    /// Writes `dir/.smtcomp-archive.json`.
    pub fn write(&self, dir: &Path) -> Result<(), ArchiveError> {
        let path = dir.join(MANIFEST_FILE);
        let mut text = serde_json::to_string_pretty(self)
            .map_err(|e| ArchiveError::io(&path, std::io::Error::other(e)))?;
        text.push('\n');
        std::fs::write(&path, text).map_err(|e| ArchiveError::io(&path, e))
    }
}

/// `dest` as it is, when it already holds `archive`: its manifest has the same
/// URL, the hashes `archive` requires (at least one must be given) match the
/// recorded ones, and every recorded file exists.
pub(super) fn unchanged(archive: &Archive, dest: &Path) -> Option<Unpacked> {
    if !archive.is_verified() {
        return None;
    }
    let m = Manifest::read(dest)?;
    let same = |want: &Option<String>, have: &str| {
        want.as_ref().is_none_or(|w| w.eq_ignore_ascii_case(have))
    };
    if m.url != archive.url
        || !same(&archive.sha256, &m.sha256)
        || !same(&archive.sha512, &m.sha512)
    {
        return None;
    }
    if m.files
        .iter()
        .any(|f| dest.join(f).symlink_metadata().is_err())
    {
        return None;
    }
    Some(Unpacked {
        dir: dest.to_path_buf(),
        sha256: m.sha256,
        files: m.files,
        bytes: m.bytes,
        skipped: true,
        verified: true,
    })
}
