//! A compact binary cache of the runs `score` reads (a run table of
//! `smtcomp ingest`, JSON lines of results records, or a results file), so that
//! a second `score` (or `report`, `select --runs`) of the same file decodes the
//! columns scoring needs instead of parsing the JSON text again.
//!
//! # Where, and when it is trusted
//!
//! The same rules as the inventory cache
//! ([`crate::formats::inventory_cache`]): the cache directory
//! ([`inventory_cache::cache_dir`]), a file named `runs-<BLAKE3 of the
//! input file's bytes>.bin`, keyed by content only (never by name or time);
//! the JSON input stays the source of truth and is parsed whenever the cache
//! is missing or not valid, then the cache is written atomically (a
//! per-process temporary file renamed into place). A cache file is used only
//! if its magic bytes, format version ([`codec::FORMAT_VERSION`]), recorded
//! content hash, payload length and CRC-32 match and its payload decodes
//! completely (every index, code and string checked, no trailing bytes).
//! Input files under [`MIN_CACHED_BYTES`] on disk are not cached. A file that
//! fails to parse is reported as without the cache and nothing is written.
//!
//! The cache holds what the reader produced: every [`ScoredRun`] (solver and
//! benchmark as indices into tables of the distinct solvers and benchmarks),
//! the number of runs skipped, the table's competition identity and whether
//! it is an ingested run table; so the warnings and checks `score` prints are
//! the same either way.

pub mod codec;

use crate::formats;
use crate::formats::datafile::DataFileError;
use crate::formats::inventory_cache::{self, Source};
use crate::formats::table_identity::TableIdentity;
use crate::scoring::ScoredRun;
use std::path::{Path, PathBuf};

/// Input files smaller than this (on disk) are parsed directly, not cached.
pub const MIN_CACHED_BYTES: u64 = 1 << 20;

/// The runs read from one file.
#[derive(Debug, Clone, PartialEq)]
pub struct RunsFile {
    /// The runs, in file order.
    pub runs: Vec<ScoredRun>,
    /// Ingested runs skipped for lack of track or benchmark identity.
    pub skipped: usize,
    /// The competition identity of an ingested run table (its header line).
    pub identity: Option<TableIdentity>,
    /// Whether the file is an ingested run table (not a results file).
    pub ingested: bool,
}

/// Runs and how they were obtained.
#[derive(Debug)]
pub struct Loaded {
    /// The runs.
    pub runs: RunsFile,
    /// Cache or JSON.
    pub source: Source,
    /// Why an existing cache file was not used, if one was rejected.
    pub rejected: Option<String>,
}

/// Reads the runs of `path` through the cache in
/// [`inventory_cache::cache_dir`]; `parse` reads the JSON when needed.
pub fn read<E>(
    path: &Path,
    parse: impl FnOnce(&Path) -> Result<RunsFile, E>,
) -> Result<RunsFile, E> {
    let dir = inventory_cache::cache_dir();
    Ok(load(path, dir.as_deref(), MIN_CACHED_BYTES, parse)?.runs)
}

/// Reads the runs of `path` through a cache in `dir` (`None`: no cache);
/// files smaller than `min_bytes` are parsed by `parse` and not cached.
pub fn load<E>(
    path: &Path,
    dir: Option<&Path>,
    min_bytes: u64,
    parse: impl FnOnce(&Path) -> Result<RunsFile, E>,
) -> Result<Loaded, E> {
    let size = std::fs::metadata(path).map(|m| m.len()).unwrap_or(0);
    let Some(dir) = dir.filter(|_| size >= min_bytes) else {
        return Ok(json(parse(path)?));
    };
    let before = stamp(path);
    let hash = match file_hash(path) {
        Ok(h) => h,
        // The parser reports an unreadable file in its own words.
        Err(_) => return Ok(json(parse(path)?)),
    };
    let cache = cache_file(dir, &hash);
    let mut rejected = None;
    match formats::cache_file::read_bounded(&cache) {
        Ok(bytes) => match codec::decode(&bytes, &hash) {
            Ok(runs) => {
                return Ok(Loaded {
                    runs,
                    source: Source::Cache,
                    rejected: None,
                });
            }
            Err(reason) => rejected = Some(reason.to_string()),
        },
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => rejected = Some(format!("cannot read: {e}")),
    }
    let runs = parse(path)?;
    // A file changed while it was read is not cached under the hash of its
    // earlier content.
    let unchanged = before.is_some() && before == stamp(path);
    let written = unchanged
        && formats::cache_file::write_atomic(dir, &cache, &codec::encode(&runs, &hash)).is_ok();
    let source = match (written, &rejected) {
        (false, _) => Source::Json,
        (true, None) => Source::JsonCacheWritten,
        (true, Some(_)) => Source::JsonCacheRebuilt,
    };
    Ok(Loaded {
        runs,
        source,
        rejected,
    })
}

/// The length and modification time of `path`.
fn stamp(path: &Path) -> Option<(u64, std::time::SystemTime)> {
    let m = std::fs::metadata(path).ok()?;
    Some((m.len(), m.modified().ok()?))
}

fn json(runs: RunsFile) -> Loaded {
    Loaded {
        runs,
        source: Source::Json,
        rejected: None,
    }
}

/// The content hash of the file's bytes ([`formats::cache_file::file_content_hash`]).
pub fn file_hash(path: &Path) -> Result<[u8; 32], DataFileError> {
    formats::cache_file::file_content_hash(path)
        .map(|(_, hash)| hash)
        .map_err(|e| DataFileError::new(path, format!("cannot read: {e}")))
}

/// The cache file of an input file whose bytes hash to `hash`.
pub fn cache_file(dir: &Path, hash: &[u8; 32]) -> PathBuf {
    formats::cache_file::path(&codec::KIND, dir, hash)
}
