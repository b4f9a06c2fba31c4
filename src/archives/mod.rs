//! Solver archives: download (http, https, `file://`), hash check, safe
//! unpacking (zip, tar.gz, tar.xz, tar.bz2) into `EXECDIR/archives/<solver>/`,
//! and a manifest that lets a second call skip an unchanged archive.
//!
//! The library entry point is [`fetch_one`]; [`fetch_submission`] fetches every
//! archive one submission's participations run with, into the directories
//! `generate` resolves their commands in ([`crate::submission::archive_dir`]).
//!
//! ```no_run
//! use smtcomp::archives::{Archive, Limits, fetch_one};
//! let a = Archive::new("https://example.org/z3.zip", Some("0123...".into()));
//! let got = fetch_one(&a, std::path::Path::new("EXECDIR/archives/z3"), &Limits::default());
//! match got {
//!     Ok(u) if u.skipped => println!("unchanged: {}", u.dir.display()),
//!     Ok(u) => println!("{} files unpacked into {}", u.files.len(), u.dir.display()),
//!     Err(e) => eprintln!("error: {e}"), // names the archive and, where it applies, the member
//! }
//! ```
//!
//! Safety rules of the unpacking (each violation is an [`ArchiveError`] naming
//! the archive and the member; nothing is left in the destination):
//! * member paths are relative, without `..`; `./` prefixes are dropped;
//! * a symbolic link must point inside the unpacked tree (relative target); no
//!   member is written through a symbolic link unpacked before it, nor over one;
//! * hard links (tar) must name an earlier regular file; they are copied;
//! * devices, FIFOs and other special members are refused;
//! * at most [`Limits::max_members`] members and [`Limits::max_unpacked_bytes`]
//!   bytes in all (counted as written, not as declared), at most
//!   [`Limits::max_download_bytes`] downloaded, within [`Limits::timeout`];
//! * file modes keep their permission bits (`rwx`), never set-id or sticky bits.
//!
//! The unpacking happens in a sibling staging directory that replaces the
//! destination only when everything succeeded.

mod download;
mod error;
mod manifest;
mod unpack;

pub use error::ArchiveError;
pub use manifest::{MANIFEST_FILE, Manifest};

use crate::submission::{SolverLocation, Submission, archive_dir};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// One archive to fetch: where it is and the hashes it must have.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Archive {
    /// `http://`, `https://` or `file:///absolute/path` URL.
    pub url: String,
    /// Expected SHA-256 (hex, any case); `None`: not checked (only recorded).
    pub sha256: Option<String>,
    /// Expected SHA-512 (hex, any case); `None`: not checked.
    pub sha512: Option<String>,
}

impl Archive {
    /// An archive checked against a SHA-256 only.
    pub fn new(url: impl Into<String>, sha256: Option<String>) -> Archive {
        Archive {
            url: url.into(),
            sha256,
            sha512: None,
        }
    }

    /// A local archive file as a `file://` URL (made absolute; bytes other than
    /// unreserved ones and `/` percent-encoded), checked against `sha256` if given.
    pub fn local(path: &Path, sha256: Option<String>) -> std::io::Result<Archive> {
        use std::os::unix::ffi::OsStrExt;
        let abs = std::path::absolute(path)?;
        let mut url = String::from("file://");
        for &b in abs.as_os_str().as_bytes() {
            if b.is_ascii_alphanumeric() || b"/-._~".contains(&b) {
                url.push(b as char);
            } else {
                url.push_str(&format!("%{b:02X}"));
            }
        }
        Ok(Archive::new(url, sha256))
    }

    /// The archive a submission's JSON describes (`{"url", "h": {"sha256", "sha512"}}`).
    pub fn from_submission(a: &crate::submission::Archive) -> Archive {
        let h = a.hash.as_ref();
        Archive {
            url: a.url.clone(),
            sha256: h.and_then(|h| h.sha256.clone()),
            sha512: h.and_then(|h| h.sha512.clone()),
        }
    }

    /// Whether at least one hash is given (the download is verified).
    pub fn is_verified(&self) -> bool {
        self.sha256.is_some() || self.sha512.is_some()
    }
}

/// Caps of one fetch.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Limits {
    /// Largest download (the archive file), in bytes.
    pub max_download_bytes: u64,
    /// Largest unpacked content (all regular files together, and for tar the
    /// decompressed tar stream), in bytes.
    pub max_unpacked_bytes: u64,
    /// Most members (files, directories, links) in one archive.
    pub max_members: usize,
    /// Longest download, connection included.
    pub timeout: Duration,
}

impl Default for Limits {
    /// 2 GiB download, 8 GiB unpacked, 200,000 members, 30 minutes.
    fn default() -> Limits {
        Limits {
            max_download_bytes: 2 << 30,
            max_unpacked_bytes: 8 << 30,
            max_members: 200_000,
            timeout: Duration::from_secs(30 * 60),
        }
    }
}

/// What [`fetch_one`] left in the destination.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unpacked {
    /// The destination directory.
    pub dir: PathBuf,
    /// The archive's SHA-256 (hex, lower case), checked or just computed.
    pub sha256: String,
    /// The regular files and links unpacked, relative to `dir`, sorted.
    pub files: Vec<String>,
    /// Bytes of the regular files unpacked.
    pub bytes: u64,
    /// `true` when the destination already held this archive (same URL and
    /// hash in its manifest, every file present): nothing was downloaded.
    pub skipped: bool,
    /// Whether the download was checked against a hash the caller gave.
    pub verified: bool,
}

/// Downloads `archive`, checks its hashes, and unpacks it into `dest`
/// (replacing what was there), writing `dest/.smtcomp-archive.json`
/// ([`Manifest`]). A `dest` whose manifest records the same URL and expected
/// hash, with every recorded file still present, is left alone (`skipped`).
/// On any error `dest` is unchanged and no staging files are left behind.
pub fn fetch_one(
    archive: &Archive,
    dest: &Path,
    limits: &Limits,
) -> Result<Unpacked, ArchiveError> {
    if let Some(done) = manifest::unchanged(archive, dest) {
        return Ok(done);
    }
    let parent = dest.parent().filter(|p| !p.as_os_str().is_empty());
    let parent = parent.unwrap_or(Path::new("."));
    std::fs::create_dir_all(parent).map_err(|e| ArchiveError::io(parent, e))?;
    let name = dest
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "archive".to_string());
    let staging = Staging::new(parent, &name)?;
    let file = staging.path.join("download");
    let got = download::fetch(&archive.url, &file, limits)?;
    download::check_hashes(archive, &got)?;
    let tree = staging.path.join("tree");
    let listing = unpack::unpack(&archive.url, &file, &tree, limits)?;
    let m = Manifest {
        url: archive.url.clone(),
        sha256: got.sha256.clone(),
        sha512: got.sha512.clone(),
        expected_sha256: archive.sha256.as_ref().map(|s| s.to_ascii_lowercase()),
        expected_sha512: archive.sha512.as_ref().map(|s| s.to_ascii_lowercase()),
        bytes: listing.bytes,
        files: listing.files.clone(),
    };
    m.write(&tree)?;
    if dest.symlink_metadata().is_ok() {
        let remove = if dest.is_dir() && !dest.is_symlink() {
            std::fs::remove_dir_all(dest)
        } else {
            std::fs::remove_file(dest)
        };
        remove.map_err(|e| ArchiveError::io(dest, e))?;
    }
    std::fs::rename(&tree, dest).map_err(|e| ArchiveError::io(dest, e))?;
    Ok(Unpacked {
        dir: dest.to_path_buf(),
        sha256: got.sha256,
        files: listing.files,
        bytes: listing.bytes,
        skipped: false,
        verified: archive.is_verified(),
    })
}

/// One archive of a submission: which participations run with it and where
/// it goes (relative to the execution directory, `archives/<solver>[@<i>]`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SubmissionArchive {
    /// The archive.
    pub archive: Archive,
    /// Its directory relative to `EXECDIR` (as the generated commands expect).
    pub dir: String,
    /// Indices of the participations that run with it.
    pub participations: Vec<usize>,
}

/// The archives `sub`'s participations run with (each directory once, in
/// participation order), where `generate` looks their binaries up.
pub fn submission_archives(sub: &Submission) -> Vec<SubmissionArchive> {
    let loc = SolverLocation::default();
    let mut out: Vec<SubmissionArchive> = Vec::new();
    for (i, p) in sub.participations.iter().enumerate() {
        let (Some(a), Some(dir)) = (sub.archive_of(p), archive_dir(sub, i, &loc)) else {
            continue;
        };
        match out.iter_mut().find(|x| x.dir == dir) {
            Some(x) => x.participations.push(i),
            None => out.push(SubmissionArchive {
                archive: Archive::from_submission(a),
                dir,
                participations: vec![i],
            }),
        }
    }
    out
}

/// Fetches every archive of `sub` into `execdir` ([`submission_archives`],
/// [`fetch_one`]): one result per archive, in order.
pub fn fetch_submission(
    sub: &Submission,
    execdir: &Path,
    limits: &Limits,
) -> Vec<(SubmissionArchive, Result<Unpacked, ArchiveError>)> {
    submission_archives(sub)
        .into_iter()
        .map(|a| {
            let r = fetch_one(&a.archive, &execdir.join(&a.dir), limits);
            (a, r)
        })
        .collect()
}

/// A directory `.NAME.fetch-PID-N` next to the destination, removed on drop.
struct Staging {
    path: PathBuf,
}

impl Staging {
    fn new(parent: &Path, name: &str) -> Result<Staging, ArchiveError> {
        for n in 0..1000 {
            let path = parent.join(format!(".{name}.fetch-{}-{n}", std::process::id()));
            match std::fs::create_dir(&path) {
                Ok(()) => return Ok(Staging { path }),
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
                Err(e) => return Err(ArchiveError::io(&path, e)),
            }
        }
        Err(ArchiveError::io(
            parent,
            std::io::Error::other("no free staging directory name"),
        ))
    }
}

impl Drop for Staging {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.path);
    }
}
