//! A compact binary cache of a benchmark inventory, so that the commands that
//! read the 114 MB JSON inventory on every call (`select`, `score`, `report`,
//! `benchmarks stats`) decode it in a fraction of the time.
//!
//! # Where, and when it is trusted
//!
//! The cache of an inventory file lives in the cache directory
//! ([`cache_dir`]: `$SMTCOMP_CACHE_DIR`, else `$XDG_CACHE_HOME/smtcomp`, else
//! `~/.cache/smtcomp`; `SMTCOMP_CACHE_DIR=` (empty) disables caching) under
//! `inventory-<BLAKE3 of the inventory file's bytes>.bin`. It is keyed by the
//! content of the input file, never by its name or modification time: an edited
//! inventory has another hash and gets its own cache entry. The JSON(.gz)
//! inventory stays the source of truth; the cache is written once, after the
//! first successful JSON parse, atomically (temporary file + rename).
//!
//! A cache file is used only if all of these hold, otherwise it is ignored,
//! the JSON is parsed and the cache rewritten:
//! * the magic bytes and the format version ([`FORMAT_VERSION`]) match;
//! * the content hash ([`cache_file::content_hash`], BLAKE3) recorded in its
//!   header is the one of the inventory file;
//! * the payload has exactly the length in the header and its CRC-32 matches
//!   (a truncated or corrupt file is detected);
//! * the payload decodes completely: every index, length and enum code in
//!   range, every string valid UTF-8, no trailing bytes. A filtered read
//!   ([`with_view_of`], [`Keep`]) skips the sections (one per run of entries
//!   of one kind and logic, with their byte length) it does not want: their
//!   headers are checked, their entries are covered by the CRC only.
//!
//! Small inventories (under [`MIN_CACHED_BYTES`] on disk) are not cached.

use crate::formats::cache_file::{
    self, CacheError, CacheKind, DecodeFault, Reader, put_bytes, put_u,
};
use crate::formats::datafile::{self, DataFileError};
use crate::formats::inventory::{
    Category, IncrementalInfo, Inventory, InventoryView, NonIncrementalInfo, ScanError, Smt2File,
    ViewEntry,
};
use crate::model::{Logic, Status};
use crate::util::fxhash::IndexTable;
use std::path::{Path, PathBuf};

/// The first bytes of a cache file.
pub const MAGIC: &[u8; 8] = b"SMTCINV\0";
/// The version of the encoding; bumped whenever it (or [`Inventory`]) changes.
pub const FORMAT_VERSION: u32 = 3;
/// Inventory files smaller than this (on disk) are parsed directly, not cached.
pub const MIN_CACHED_BYTES: u64 = 1 << 20;
/// This cache's kind of [`cache_file`].
const KIND: CacheKind = CacheKind {
    magic: MAGIC,
    version: FORMAT_VERSION,
    prefix: "inventory",
    what: "an inventory cache",
    source: "inventory",
};

/// How an inventory was loaded (for benchmarks and tests).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// Decoded from a valid cache file.
    Cache,
    /// Parsed from JSON; the cache was (re)written.
    JsonCacheWritten,
    /// Parsed from JSON; a cache file existed but was invalid (the reason is
    /// in [`Loaded::rejected`]) and was rewritten.
    JsonCacheRebuilt,
    /// Parsed from JSON without caching (caching disabled, file too small, or
    /// the cache could not be written).
    Json,
}

/// An inventory and how it was obtained.
#[derive(Debug)]
pub struct Loaded {
    /// The inventory.
    pub inventory: Inventory,
    /// Cache or JSON.
    pub source: Source,
    /// Why an existing cache file was not used, if one was rejected.
    pub rejected: Option<String>,
}

pub use crate::formats::cache_file::cache_dir;

/// Reads the inventory `path`, through the cache in [`cache_dir`].
pub fn read(path: &Path) -> Result<Inventory, DataFileError> {
    Ok(load(path, cache_dir().as_deref(), MIN_CACHED_BYTES)?.inventory)
}

/// Which benchmarks a filtered read ([`read_only`]) keeps.
#[derive(Clone, Copy)]
pub struct Keep<'a> {
    /// Whether benchmarks of this kind (`true`: incremental) and logic can be
    /// kept at all: asked at most once per kind and logic; `false` skips them
    /// without building their paths. It must admit the kind and logic of every
    /// path that [`Keep::path`] keeps.
    pub logic: &'a dyn Fn(bool, &str) -> bool,
    /// Whether the benchmark with this library path ([`Smt2File::path`]) is kept.
    pub path: &'a dyn Fn(&str) -> bool,
}

impl Keep<'_> {
    /// Keeps every benchmark.
    pub const ALL: Keep<'static> = Keep {
        logic: &|_, _| true,
        path: &|_| true,
    };
}

/// The kind (`true`: incremental) and logic of a library path
/// (`(non-)incremental/LOGIC/...`), if it has that shape.
pub fn kind_and_logic(path: &str) -> Option<(bool, &str)> {
    let (kind, rest) = path.split_once('/')?;
    let incremental = match kind {
        "incremental" => true,
        "non-incremental" => false,
        _ => return None,
    };
    Some((incremental, rest.split_once('/')?.0))
}

/// Reads only the benchmarks of the inventory `path` that `keep` keeps (the
/// scan errors are kept), through the cache in [`cache_dir`]. From the cache,
/// the other benchmarks are skipped without allocating anything: scoring
/// needs the facts of the benchmarks that were run, a fraction of the library.
pub fn read_only(path: &Path, keep: &Keep<'_>) -> Result<Inventory, DataFileError> {
    Ok(load_filtered(path, cache_dir().as_deref(), MIN_CACHED_BYTES, keep)?.inventory)
}

/// Reads the inventory `path` through a cache in `dir` (`None`: no cache);
/// files smaller than `min_bytes` are not cached.
pub fn load(path: &Path, dir: Option<&Path>, min_bytes: u64) -> Result<Loaded, DataFileError> {
    load_filtered(path, dir, min_bytes, &Keep::ALL)
}

/// [`load`], keeping only the benchmarks whose path satisfies `keep`.
pub fn load_only(
    path: &Path,
    dir: Option<&Path>,
    min_bytes: u64,
    keep: &dyn Fn(&str) -> bool,
) -> Result<Loaded, DataFileError> {
    let keep = Keep {
        logic: &|_, _| true,
        path: keep,
    };
    load_filtered(path, dir, min_bytes, &keep)
}

/// [`load`], keeping only the benchmarks that `keep` keeps (see [`read_only`]).
pub fn load_filtered(
    path: &Path,
    dir: Option<&Path>,
    min_bytes: u64,
    keep: &Keep<'_>,
) -> Result<Loaded, DataFileError> {
    let raw =
        std::fs::read(path).map_err(|e| DataFileError::new(path, format!("cannot read: {e}")))?;
    let Some(dir) = dir.filter(|_| raw.len() as u64 >= min_bytes) else {
        return Ok(Loaded {
            inventory: retain(parse_raw(path, &raw)?, keep.path),
            source: Source::Json,
            rejected: None,
        });
    };
    let hash = cache_file::content_hash(&raw);
    let cache = cache_path(dir, &hash);
    let mut rejected = None;
    match cache_file::read_bounded(&cache) {
        Ok(bytes) => match decode_filtered(&bytes, &hash, keep) {
            Ok(inventory) => {
                return Ok(Loaded {
                    inventory,
                    source: Source::Cache,
                    rejected: None,
                });
            }
            Err(reason) => rejected = Some(reason.to_string()),
        },
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => rejected = Some(format!("cannot read: {e}")),
    }
    let inventory = parse_raw(path, &raw)?;
    let written = cache_file::write_atomic(dir, &cache, &encode(&inventory, &hash)).is_ok();
    let inventory = retain(inventory, keep.path);
    let source = match (written, &rejected) {
        (false, _) => Source::Json,
        (true, None) => Source::JsonCacheWritten,
        (true, Some(_)) => Source::JsonCacheRebuilt,
    };
    Ok(Loaded {
        inventory,
        source,
        rejected,
    })
}

/// Calls `f` with the benchmarks of the inventory `path`, borrowed: from a
/// valid cache file in [`cache_dir`] they are decoded without allocating per
/// benchmark (what `select` needs); otherwise the JSON is parsed (and the cache
/// written) as [`read`] does. The same benchmarks, in the same order, either way.
pub fn with_view<R>(
    path: &Path,
    f: impl FnOnce(&InventoryView<'_>) -> R,
) -> Result<R, DataFileError> {
    with_view_in(
        path,
        cache_dir().as_deref(),
        MIN_CACHED_BYTES,
        &|_, _| true,
        f,
    )
}

/// [`with_view`] with only the benchmarks of the lists and logics that
/// `lists` admits: `lists(incremental_list, logic)` is asked per list
/// (`true`: the incremental one) and logic, and the sections of the cache it
/// rules out are skipped without being decoded (the payload's checksum is
/// still checked). From the JSON, the view is filtered the same way.
pub fn with_view_of<R>(
    path: &Path,
    lists: &dyn Fn(bool, &str) -> bool,
    f: impl FnOnce(&InventoryView<'_>) -> R,
) -> Result<R, DataFileError> {
    with_view_in(path, cache_dir().as_deref(), MIN_CACHED_BYTES, lists, f)
}

/// [`with_view_of`] with a cache in `dir` (`None`: no cache); files smaller
/// than `min_bytes` are not cached.
pub fn with_view_in<R>(
    path: &Path,
    dir: Option<&Path>,
    min_bytes: u64,
    lists: &dyn Fn(bool, &str) -> bool,
    f: impl FnOnce(&InventoryView<'_>) -> R,
) -> Result<R, DataFileError> {
    if let Some(dir) = dir
        && let Ok(Some(hash)) = hash_file(path, min_bytes)
        && let Ok(bytes) = cache_file::read_bounded(&cache_path(dir, &hash))
        && let Ok((tables, r)) = decode_tables(&bytes, &hash)
        && let Ok(view) = decode_view(r, &tables, lists)
    {
        return Ok(f(&view));
    }
    // No cache, or an invalid one: the loader parses, reports and rewrites.
    let loaded = load(path, dir, min_bytes)?;
    let mut view = loaded.inventory.view();
    let logics = &view.logics;
    view.incremental
        .retain(|b| lists(true, logics[b.logic_index()].as_str()));
    view.non_incremental
        .retain(|b| lists(false, logics[b.logic_index()].as_str()));
    Ok(f(&view))
}

/// The content hash of the file `path` ([`cache_file::file_content_hash`]),
/// or `None` if it is shorter than `min_bytes` (not cached).
fn hash_file(path: &Path, min_bytes: u64) -> std::io::Result<Option<[u8; 32]>> {
    let (len, hash) = cache_file::file_content_hash(path)?;
    Ok((len >= min_bytes).then_some(hash))
}

/// The cache file of an inventory whose bytes hash to `hash`.
pub fn cache_path(dir: &Path, hash: &[u8; 32]) -> PathBuf {
    cache_file::path(&KIND, dir, hash)
}

/// `inv` with only the benchmarks whose path satisfies `keep`.
fn retain(mut inv: Inventory, keep: &dyn Fn(&str) -> bool) -> Inventory {
    let mut buf = String::new();
    let mut ok = |f: &Smt2File| {
        buf.clear();
        f.write_path(&mut buf);
        keep(&buf)
    };
    inv.incremental.retain(|b| ok(&b.file));
    inv.non_incremental.retain(|b| ok(&b.file));
    inv
}

fn parse_raw(path: &Path, raw: &[u8]) -> Result<Inventory, DataFileError> {
    if raw.starts_with(&[0x1f, 0x8b]) {
        let mut text = Vec::with_capacity(raw.len() * 8);
        std::io::Read::read_to_end(
            &mut std::io::Read::take(
                flate2::read::MultiGzDecoder::new(raw),
                datafile::MAX_DATA_BYTES + 1,
            ),
            &mut text,
        )
        .map_err(|e| {
            DataFileError::new(
                path,
                format!("cannot read (truncated or corrupt gzip?): {e}"),
            )
        })?;
        if text.len() as u64 > datafile::MAX_DATA_BYTES {
            return Err(DataFileError::new(
                path,
                format!(
                    "larger than {} bytes uncompressed",
                    datafile::MAX_DATA_BYTES
                ),
            ));
        }
        datafile::parse_json(path, &text)
    } else {
        datafile::parse_json(path, raw)
    }
}

/// Encodes `inv` as a cache file for the inventory file hashing to `hash`.
pub fn encode(inv: &Inventory, hash: &[u8; 32]) -> Vec<u8> {
    let mut logics: IndexTable<&str> = IndexTable::default();
    let mut families: IndexTable<&[String]> = IndexTable::default();
    let files = inv
        .incremental
        .iter()
        .map(|b| &b.file)
        .chain(inv.non_incremental.iter().map(|b| &b.file));
    for f in files {
        logics.index_of(f.logic.as_str());
        families.index_of(&f.family);
    }
    let mut p = Vec::with_capacity(inv.non_incremental.len() * 48 + 1024);
    put_u(&mut p, logics.items.len() as u64);
    for l in &logics.items {
        put_str(&mut p, l);
    }
    put_u(&mut p, families.items.len() as u64);
    for fam in &families.items {
        put_u(&mut p, fam.len() as u64);
        for part in fam.iter() {
            put_str(&mut p, part);
        }
    }
    let mut scratch = (Vec::new(), Vec::new());
    put_sections(
        &mut p,
        (&mut scratch.0, &mut scratch.1),
        &inv.incremental,
        |b| &b.file,
        |p, b| {
            put_u(p, b.check_sats);
            match &b.statuses {
                None => put_u(p, 0),
                Some(ss) => {
                    put_u(p, ss.len() as u64 + 1);
                    p.extend(ss.iter().map(|s| status_code(*s)));
                }
            }
        },
        (&mut logics, &mut families),
    );
    put_sections(
        &mut p,
        (&mut scratch.0, &mut scratch.1),
        &inv.non_incremental,
        |b| &b.file,
        |p, b| {
            p.push(status_code(b.status));
            put_u(p, b.asserts);
            p.push(match b.category {
                None => 0,
                Some(Category::Check) => 1,
                Some(Category::Industrial) => 2,
                Some(Category::Crafted) => 3,
                Some(Category::Random) => 4,
            });
        },
        (&mut logics, &mut families),
    );
    put_u(&mut p, inv.errors.len() as u64);
    for e in &inv.errors {
        put_str(&mut p, &e.path);
        put_str(&mut p, &e.reason);
    }
    cache_file::frame(&KIND, hash, &p)
}

/// Writes one list of benchmarks as sections: its length, the number of
/// sections, then per maximal run of entries of one kind (the file's
/// `incremental` flag) and logic: the flag, the logic index, the entry count,
/// the byte length of the section's body, and the body: the entries' names
/// concatenated (prefixed by its length: one UTF-8 check per section when
/// decoding), then the entries (each its family index and name length, then
/// what `entry` writes: the list's own fields). `names` and `body` are reused
/// scratch buffers.
fn put_sections<'a, T>(
    p: &mut Vec<u8>,
    (names, body): (&mut Vec<u8>, &mut Vec<u8>),
    list: &'a [T],
    file: fn(&T) -> &Smt2File,
    entry: impl Fn(&mut Vec<u8>, &T),
    (logics, families): (&mut IndexTable<&'a str>, &mut IndexTable<&'a [String]>),
) {
    let same = |a: &Smt2File, b: &Smt2File| a.incremental == b.incremental && a.logic == b.logic;
    let runs: Vec<&[T]> = list.chunk_by(|a, b| same(file(a), file(b))).collect();
    put_u(p, list.len() as u64);
    put_u(p, runs.len() as u64);
    for run in runs {
        let first = file(&run[0]);
        names.clear();
        body.clear();
        for b in run {
            names.extend_from_slice(file(b).name.as_bytes());
        }
        put_bytes(body, names);
        for b in run {
            // Every logic and family was entered before: these are lookups.
            put_u(
                body,
                u64::from(families.index_of(file(b).family.as_slice())),
            );
            put_u(body, file(b).name.len() as u64);
            entry(body, b);
        }
        put_u(p, first.incremental as u64);
        put_u(p, u64::from(logics.index_of(first.logic.as_str())));
        put_u(p, run.len() as u64);
        put_bytes(p, body);
    }
}

/// Decodes a cache file for the inventory file hashing to `hash`, or says why
/// it cannot be trusted.
pub fn decode(bytes: &[u8], hash: &[u8; 32]) -> Result<Inventory, CacheError> {
    decode_only(bytes, hash, &|_| true)
}

/// [`decode`], keeping only the benchmarks whose path satisfies `keep` (every
/// entry is still decoded and checked).
pub fn decode_only(
    bytes: &[u8],
    hash: &[u8; 32],
    keep: &dyn Fn(&str) -> bool,
) -> Result<Inventory, CacheError> {
    let keep = Keep {
        logic: &|_, _| true,
        path: keep,
    };
    decode_filtered(bytes, hash, &keep)
}

/// Checks a cache file and decodes its logic and family tables; the returned
/// reader is positioned at the benchmarks (decoded by [`decode_entries`]).
fn decode_tables<'b>(bytes: &'b [u8], hash: &[u8; 32]) -> Result<(Tables, Reader<'b>), CacheError> {
    let payload = cache_file::checked_payload(&KIND, bytes, hash)?;
    let mut r = Reader::new(payload);
    let tables = Tables::decode(&mut r).map_err(|e| e.at(&r))?;
    Ok((tables, r))
}

/// Decodes the benchmarks and scan errors after the tables, handing every
/// benchmark to `sink` (nothing is kept per entry unless the sink keeps it),
/// and checks that nothing follows.
fn decode_entries<'b>(
    mut r: Reader<'b>,
    t: &Tables,
    sink: &mut impl Sink<'b>,
) -> Result<Vec<ScanError>, CacheError> {
    let errors = t.decode_lists(&mut r, sink).map_err(|e| e.at(&r))?;
    if !r.at_end() {
        return Err(CacheError::Trailing { at: r.position() });
    }
    Ok(errors)
}

/// The view of the benchmarks after the tables, those of the lists and logics
/// that `lists` admits (each list's sections decoded in parallel), the scan
/// errors checked (a view has none), nothing after them.
fn decode_view<'t, 'b: 't>(
    mut r: Reader<'b>,
    t: &'t Tables,
    lists: &dyn Fn(bool, &str) -> bool,
) -> Result<InventoryView<'t>, CacheError> {
    let mut view = InventoryView::with_tables(
        t.logics.iter().collect(),
        t.families.iter().map(Vec::as_slice).collect(),
    );
    view.incremental = t
        .decode_view_list(&mut r, true, lists)
        .map_err(|e| e.at(&r))?;
    view.non_incremental = t
        .decode_view_list(&mut r, false, lists)
        .map_err(|e| e.at(&r))?;
    t.decode_errors(&mut r).map_err(|e| e.at(&r))?;
    if !r.at_end() {
        return Err(CacheError::Trailing { at: r.position() });
    }
    Ok(view)
}

/// Checks a cache file (header, checksum of the whole payload, tables, every
/// section header) and decodes into the owned inventory the entries that
/// `keep` keeps; the sections of a kind and logic that `keep.logic` rules out
/// are skipped without being decoded.
pub fn decode_filtered(
    bytes: &[u8],
    hash: &[u8; 32],
    keep: &Keep<'_>,
) -> Result<Inventory, CacheError> {
    let (tables, r) = decode_tables(bytes, hash)?;
    let mut sink = OwnedSink::new(&tables, keep);
    let errors = decode_entries(r, &tables, &mut sink)?;
    Ok(sink.finish(errors))
}

/// The logic and family tables of a cache file.
struct Tables {
    logics: Vec<Logic>,
    families: Vec<Vec<String>>,
}

/// One benchmark as decoded (every index and code already checked), its name
/// borrowed from the file's bytes.
struct Entry<'b> {
    /// In the incremental list (else the non-incremental one).
    in_incremental_list: bool,
    incremental: bool,
    logic: usize,
    family: usize,
    name: &'b str,
    /// Assertions or check-sats.
    count: u64,
    /// `incremental` for incremental benchmarks.
    status: Status,
    /// Incremental: the statuses of the check-sats (valid codes), if recorded.
    statuses: Option<&'b [u8]>,
    category: Option<Category>,
}

/// What the decoder hands the benchmarks to.
trait Sink<'b> {
    /// A list (incremental or not) of `n` benchmarks begins.
    fn begin(&mut self, incremental_list: bool, n: usize);
    /// Whether the entries of a section (list, kind, logic) are wanted; the
    /// others are skipped without being decoded.
    /// `logic` is an index into the logic table.
    fn wants(&mut self, incremental_list: bool, incremental: bool, logic: usize) -> bool;
    /// One benchmark.
    fn entry(&mut self, e: Entry<'b>);
}

impl Tables {
    fn decode(r: &mut Reader<'_>) -> Result<Tables, DecodeFault> {
        let n = r.count(1)?;
        let logics = (0..n)
            .map(|_| r.string().map(Logic::new))
            .collect::<Result<Vec<_>, _>>()?;
        let n = r.count(1)?;
        let mut families = Vec::with_capacity(n);
        for _ in 0..n {
            let k = r.count(1)?;
            families.push((0..k).map(|_| r.string()).collect::<Result<Vec<_>, _>>()?);
        }
        Ok(Tables { logics, families })
    }

    /// The benchmarks of both lists, section by section, then the scan errors.
    fn decode_lists<'b>(
        &self,
        r: &mut Reader<'b>,
        sink: &mut impl Sink<'b>,
    ) -> Result<Vec<ScanError>, DecodeFault> {
        for incremental_list in [true, false] {
            self.decode_list(r, incremental_list, sink)?;
        }
        self.decode_errors(r)
    }

    /// The scan errors (after both lists).
    fn decode_errors(&self, r: &mut Reader<'_>) -> Result<Vec<ScanError>, DecodeFault> {
        let n = r.count(1)?;
        let mut errors = Vec::with_capacity(n);
        for _ in 0..n {
            errors.push(ScanError {
                path: r.string()?,
                reason: r.string()?,
            });
        }
        Ok(errors)
    }

    /// One list (see [`put_sections`]): every section header is checked
    /// ([`Tables::list_sections`]); the entries of a section that the sink
    /// does not want ([`Sink::wants`]) are skipped unread, the others decoded
    /// and checked, and must fill their section exactly.
    fn decode_list<'b>(
        &self,
        r: &mut Reader<'b>,
        incremental_list: bool,
        sink: &mut impl Sink<'b>,
    ) -> Result<(), DecodeFault> {
        let (n, sections) =
            self.list_sections(r, incremental_list, &mut |incremental, logic| {
                sink.wants(incremental_list, incremental, logic)
            })?;
        sink.begin(incremental_list, n);
        for body in &sections {
            self.decode_body(body, sink)?;
        }
        Ok(())
    }

    /// The section headers of one list (see [`put_sections`]), each checked
    /// (kind flag, logic index, entry count, byte length within the payload,
    /// the counts adding up to the list's length): the list's length and the
    /// sections that `wants(incremental, logic)` admits, not decoded yet.
    fn list_sections<'b>(
        &self,
        r: &mut Reader<'b>,
        incremental_list: bool,
        wants: &mut dyn FnMut(bool, usize) -> bool,
    ) -> Result<(usize, Vec<SectionBody<'b>>), DecodeFault> {
        let n = r.count(1)?;
        let sections = r.count(1)?;
        let mut kept = Vec::new();
        let mut seen = 0usize;
        for _ in 0..sections {
            let incremental = match r.u()? {
                0 => false,
                1 => true,
                x => return Err(format!("bad flag {x}").into()),
            };
            let logic = usize::try_from(r.u()?)
                .ok()
                .filter(|i| *i < self.logics.len())
                .ok_or("logic index")?;
            let k = usize::try_from(r.u()?).map_err(|_| "section count too large")?;
            let start = r.position();
            let body = r.bytes_prefixed()?;
            // Every entry takes at least 4 bytes (family, name length, two fields).
            if k == 0 || k > body.len() / 4 {
                return Err(format!("section of {k} entries in {} bytes", body.len()).into());
            }
            seen = seen
                .checked_add(k)
                .filter(|s| *s <= n)
                .ok_or("more entries in the sections than in the list")?;
            if wants(incremental, logic) {
                kept.push(SectionBody {
                    section: Section {
                        incremental_list,
                        incremental,
                        logic,
                    },
                    k,
                    start,
                    body,
                });
            }
        }
        if seen != n {
            return Err(format!("sections hold {seen} entries, the list {n}").into());
        }
        Ok((n, kept))
    }

    /// Decodes the entries of one section into `sink`; they must fill it exactly.
    fn decode_body<'b>(
        &self,
        b: &SectionBody<'b>,
        sink: &mut impl Sink<'b>,
    ) -> Result<(), DecodeFault> {
        let mut s = Reader::new(b.body);
        self.decode_section(&mut s, &b.section, b.k, sink)
            .map_err(|e| {
                format!(
                    "in the section at byte {}, at its byte {}: {e}",
                    b.start,
                    s.position()
                )
            })?;
        if !s.at_end() {
            return Err(format!(
                "section at byte {}: bytes after its {} entries",
                b.start, b.k
            )
            .into());
        }
        Ok(())
    }

    /// The view entries of one list, those of the logics that `lists`
    /// admits: the headers are checked in order, then the kept sections are
    /// decoded on the rayon pool, each into its own part of the list (the
    /// same entries, checks and order as one decoder would give; the first
    /// failing section in list order is the error).
    fn decode_view_list<'b>(
        &self,
        r: &mut Reader<'b>,
        incremental_list: bool,
        lists: &dyn Fn(bool, &str) -> bool,
    ) -> Result<Vec<ViewEntry<'b>>, DecodeFault> {
        use rayon::prelude::*;
        let (_, sections) = self.list_sections(r, incremental_list, &mut |_, logic| {
            lists(incremental_list, self.logics[logic].as_str())
        })?;
        // At most the list's length (checked by `list_sections`).
        let total = sections.iter().map(|b| b.k).sum();
        let mut out = Vec::with_capacity(total);
        // 18 MB for the 2025 library, written once: huge pages save most of
        // its page faults.
        crate::util::hugepages::advise_spare(&mut out);
        out.resize(total, ViewEntry::PLACEHOLDER);
        let mut parts = Vec::with_capacity(sections.len());
        let mut rest = out.as_mut_slice();
        for b in &sections {
            let (part, tail) = std::mem::take(&mut rest).split_at_mut(b.k);
            parts.push((b, part));
            rest = tail;
        }
        let results: Vec<Result<(), DecodeFault>> = parts
            .into_par_iter()
            .map(|(b, part)| self.decode_body(b, &mut SliceSink { out: part, at: 0 }))
            .collect();
        results.into_iter().collect::<Result<(), DecodeFault>>()?;
        Ok(out)
    }

    /// The `k` entries of one section: its names (checked to be UTF-8 as a
    /// whole), then per entry its family, the length of its name (the next
    /// bytes of the names, ending on a character boundary), its fields. The
    /// names must be used up exactly.
    fn decode_section<'b>(
        &self,
        r: &mut Reader<'b>,
        sec: &Section,
        k: usize,
        sink: &mut impl Sink<'b>,
    ) -> Result<(), DecodeFault> {
        let names = r.str()?;
        let mut at = 0usize;
        for _ in 0..k {
            let family = usize::try_from(r.u()?)
                .ok()
                .filter(|i| *i < self.families.len())
                .ok_or("family index")?;
            let len = usize::try_from(r.u()?).map_err(|_| "name length too large")?;
            let name = at
                .checked_add(len)
                .and_then(|end| names.get(at..end))
                .ok_or("name past the section's names or not on a character boundary")?;
            at += len;
            let mut e = Entry {
                in_incremental_list: sec.incremental_list,
                incremental: sec.incremental,
                logic: sec.logic,
                family,
                name,
                count: 0,
                status: Status::Incremental,
                statuses: None,
                category: None,
            };
            if sec.incremental_list {
                e.count = r.u()?;
                e.statuses = match r.u()? {
                    0 => None,
                    k => {
                        let n = usize::try_from(k - 1).map_err(|_| "length too large")?;
                        let codes = r.bytes(n)?;
                        for c in codes {
                            status(*c)?;
                        }
                        Some(codes)
                    }
                };
            } else {
                e.status = status(r.byte()?)?;
                e.count = r.u()?;
                e.category = match r.byte()? {
                    0 => None,
                    1 => Some(Category::Check),
                    2 => Some(Category::Industrial),
                    3 => Some(Category::Crafted),
                    4 => Some(Category::Random),
                    x => return Err(format!("bad category {x}").into()),
                };
            }
            sink.entry(e);
        }
        if at != names.len() {
            return Err(format!("{} bytes of names, the entries use {at}", names.len()).into());
        }
        Ok(())
    }
}

/// What all entries of a section share.
struct Section {
    incremental_list: bool,
    incremental: bool,
    logic: usize,
}

/// A section whose header was checked, its entries not decoded yet.
struct SectionBody<'b> {
    section: Section,
    /// Its entry count.
    k: usize,
    /// Where its body starts in the payload (for error messages).
    start: usize,
    body: &'b [u8],
}

/// Writes the entries of one section into its part of a view's list
/// ([`Tables::decode_view_list`]).
struct SliceSink<'s, 'b> {
    out: &'s mut [ViewEntry<'b>],
    /// The next slot.
    at: usize,
}

impl<'b> Sink<'b> for SliceSink<'_, 'b> {
    fn wants(&mut self, _: bool, _: bool, _: usize) -> bool {
        true
    }

    fn begin(&mut self, _: bool, _: usize) {}

    fn entry(&mut self, e: Entry<'b>) {
        // The decoder hands a section exactly as many entries as its part
        // holds (its count); `get_mut` only guards the indexing.
        if let Some(slot) = self.out.get_mut(self.at) {
            // The table indices were checked against the tables, whose
            // lengths are bounded by the payload's (under 4 GiB).
            *slot = ViewEntry {
                name: e.name,
                count: e.count,
                family: e.family as u32,
                logic: e.logic as u32,
                status: e.status,
                incremental: e.incremental,
            };
        }
        self.at += 1;
    }
}

/// Builds the owned entries that a [`Keep`] keeps; the others are skipped
/// without allocating, those of a logic it rules out without building their path.
struct OwnedSink<'t, 'k> {
    tables: &'t Tables,
    keep: &'k Keep<'k>,
    /// Each family as the path fragment `part/part/` (empty for no parts).
    fragments: Vec<String>,
    /// Per kind (0: non-incremental, 1: incremental) and logic index: whether
    /// `keep.logic` admits it (asked once, when first needed).
    logic_ok: [Vec<Option<bool>>; 2],
    path: String,
    incremental: Vec<IncrementalInfo>,
    non_incremental: Vec<NonIncrementalInfo>,
}

impl<'t, 'k> OwnedSink<'t, 'k> {
    fn new(tables: &'t Tables, keep: &'k Keep<'k>) -> Self {
        OwnedSink {
            tables,
            keep,
            fragments: tables
                .families
                .iter()
                .map(|parts| parts.iter().flat_map(|p| [p.as_str(), "/"]).collect())
                .collect(),
            logic_ok: [
                vec![None; tables.logics.len()],
                vec![None; tables.logics.len()],
            ],
            path: String::new(),
            incremental: Vec::new(),
            non_incremental: Vec::new(),
        }
    }

    /// The owned identity of `e` when it is kept (its section's kind and logic
    /// were admitted by [`Sink::wants`]).
    fn kept(&mut self, e: &Entry<'_>) -> Option<Smt2File> {
        let logic = &self.tables.logics[e.logic];
        let path = &mut self.path;
        path.clear();
        path.push_str(if e.incremental {
            "incremental/"
        } else {
            "non-incremental/"
        });
        path.push_str(logic.as_str());
        path.push('/');
        path.push_str(&self.fragments[e.family]);
        path.push_str(e.name);
        (self.keep.path)(path).then(|| Smt2File {
            incremental: e.incremental,
            logic: logic.clone(),
            family: self.tables.families[e.family].clone(),
            name: e.name.to_owned(),
        })
    }

    fn finish(mut self, errors: Vec<ScanError>) -> Inventory {
        self.incremental.shrink_to_fit();
        self.non_incremental.shrink_to_fit();
        Inventory {
            incremental: self.incremental,
            non_incremental: self.non_incremental,
            errors,
        }
    }
}

impl<'b> Sink<'b> for OwnedSink<'_, '_> {
    fn wants(&mut self, _: bool, incremental: bool, logic: usize) -> bool {
        // Several sections may have the same kind and logic: asked once.
        let name = self.tables.logics[logic].as_str();
        *self.logic_ok[usize::from(incremental)][logic]
            .get_or_insert_with(|| (self.keep.logic)(incremental, name))
    }

    fn begin(&mut self, incremental_list: bool, n: usize) {
        // As many as the list holds (a filtered read shrinks them at the end;
        // the pages of an unused capacity are never touched).
        if incremental_list {
            self.incremental.reserve_exact(n);
        } else {
            self.non_incremental.reserve_exact(n);
        }
    }

    fn entry(&mut self, e: Entry<'b>) {
        let Some(file) = self.kept(&e) else {
            return;
        };
        if e.in_incremental_list {
            self.incremental.push(IncrementalInfo {
                file,
                check_sats: e.count,
                statuses: e.statuses.map(|codes| {
                    codes
                        .iter()
                        .map(|c| status(*c).unwrap_or(Status::Unknown))
                        .collect()
                }),
            });
        } else {
            self.non_incremental.push(NonIncrementalInfo {
                file,
                status: e.status,
                asserts: e.count,
                category: e.category,
            });
        }
    }
}

fn status_code(s: Status) -> u8 {
    match s {
        Status::Unsat => 0,
        Status::Sat => 1,
        Status::Unknown => 2,
        Status::Incremental => 3,
    }
}

fn status(c: u8) -> Result<Status, DecodeFault> {
    Ok(match c {
        0 => Status::Unsat,
        1 => Status::Sat,
        2 => Status::Unknown,
        3 => Status::Incremental,
        x => return Err(format!("bad status {x}").into()),
    })
}

fn put_str(out: &mut Vec<u8>, s: &str) {
    put_bytes(out, s.as_bytes());
}

// The cached readers of the inventory live here, beside the cache they read
// (the inventory's own file does not import its cache).
impl Inventory {
    /// Reads an inventory file (JSON or JSON.gz) through the binary cache of
    /// this module (written on first use, validated by the file's content
    /// hash; same result as [`Inventory::read`]).
    pub fn read_cached(path: &Path) -> Result<Inventory, DataFileError> {
        read(path)
    }

    /// [`Inventory::read_cached`], keeping only the benchmarks that `keep`
    /// keeps (see [`read_only`]).
    pub fn read_cached_only(path: &Path, keep: &Keep<'_>) -> Result<Inventory, DataFileError> {
        read_only(path, keep)
    }
}
