//! Bounded-memory ingestion: an external merge sort of the records.
//!
//! Each input file's records, sorted in canonical order, are written to a
//! *run* file in a temporary directory next to the output. Per record, the
//! run file holds two length-prefixed byte strings (a little-endian `u32`
//! length each): the [`SortKey`] in an order-preserving binary encoding
//! ([`encode_key`]: comparing two encoded keys byte by byte gives the order of
//! the keys), then the record's final JSON line (without its newline). The
//! runs are then merged (k-way, a binary heap on the encoded keys, ties broken
//! by run order) and the record lines copied verbatim to the output: no key
//! is parsed during the merge. With more than `fan_in` runs
//! ([`default_fan_in`]: from the open-file limit), consecutive runs are first
//! merged into bigger runs, the smallest ones last ([`reduce`]), so no more
//! than `fan_in` files are open at once (per merging thread).
//!
//! Breaking ties by run order (= input file order) makes the result the
//! *stable* sort of all records in input order, which is what the in-memory
//! path computes ([`crate::formats::runtable::sort_records`]): both give the same bytes.
//!
//! Run files are written and read by the same process and removed after use;
//! still, a damaged one (truncated, a length beyond the file) is an error
//! naming the file, never a panic or an unbounded allocation.

use crate::formats::jsonl::JsonlWriter;
use crate::formats::runtable::{IngestRecord, SortKey};
use crate::model::Track;
use std::cmp::{Ordering, Reverse};
use std::collections::BinaryHeap;
use std::fs::File;
use std::io::{BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};

/// Runs merged at once (open files): half the soft limit on open files,
/// between 16 and 1024 (a merge pass over everything is saved when all the
/// input files fit; each open run costs a 16 kB read buffer).
pub fn default_fan_in() -> usize {
    let mut lim = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit only writes the given struct.
    let soft = if unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut lim) } == 0 {
        usize::try_from(lim.rlim_cur).unwrap_or(usize::MAX)
    } else {
        0
    };
    (soft / 2).clamp(16, 1024)
}

/// A temporary directory, removed (with everything in it) when dropped.
pub struct SpillDir {
    path: PathBuf,
}

/// Why the temporary files of a streaming ingestion cannot be written or read.
#[derive(Debug, thiserror::Error)]
pub enum SpillError {
    /// The temporary directory cannot be created.
    #[error("{}: cannot create temporary directory{}", path.display(), source.as_ref().map(|e| format!(": {e}")).unwrap_or_default())]
    Directory {
        /// The directory (or, when every name was taken, its parent).
        path: PathBuf,
        /// The system's error (`None`: 1000 names taken).
        source: Option<std::io::Error>,
    },
    /// A temporary file cannot be written, opened or read.
    #[error("{}: cannot {action} temporary file: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// `write`, `open`, `read`.
        action: &'static str,
        /// The system's error.
        source: std::io::Error,
    },
    /// A temporary file that is not as written (truncated, damaged).
    #[error("{}: {what} temporary file", path.display())]
    Damaged {
        /// The file.
        path: PathBuf,
        /// `truncated` or `corrupt`.
        what: &'static str,
    },
    /// A record longer than a spill entry can hold (4 GiB).
    #[error("a record of {0} bytes is too long to spill")]
    TooLong(usize),
    /// A record cannot be serialized (a bug).
    #[error("cannot serialize a record: {0}")]
    Serialize(#[from] serde_json::Error),
    /// The output table cannot be written.
    #[error(transparent)]
    Table(#[from] crate::formats::jsonl::TableError),
}

impl SpillDir {
    /// Creates `.<output name>.spill-<pid>-<n>` in the output's directory (in
    /// the system's temporary directory when the output is a special file such
    /// as `/dev/null`, whose directory is no place for it).
    pub fn create(output: &Path) -> Result<SpillDir, SpillError> {
        let tmp_dir = std::env::temp_dir();
        let parent = match output.parent() {
            _ if crate::formats::datafile::temporary_sibling(output).is_none() => tmp_dir.as_path(),
            Some(p) if !p.as_os_str().is_empty() => p,
            _ => Path::new("."),
        };
        let name = output.file_name().unwrap_or_default().to_string_lossy();
        for n in 0..1000 {
            let path = parent.join(format!(".{name}.spill-{}-{n}", std::process::id()));
            match std::fs::create_dir(&path) {
                Ok(()) => return Ok(SpillDir { path }),
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
                Err(e) => {
                    return Err(SpillError::Directory {
                        path,
                        source: Some(e),
                    });
                }
            }
        }
        Err(SpillError::Directory {
            path: parent.to_path_buf(),
            source: None,
        })
    }

    /// The path of a file in the directory.
    pub fn file(&self, name: &str) -> PathBuf {
        self.path.join(name)
    }
}

impl Drop for SpillDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.path);
    }
}

/// A sorted run on disk.
#[derive(Debug)]
pub struct Run {
    path: PathBuf,
    /// The file's size (which runs are cheapest to merge first).
    bytes: u64,
}

fn write_err(path: &Path) -> impl FnOnce(std::io::Error) -> SpillError + use<> {
    io_err(path, "write")
}

fn io_err(path: &Path, action: &'static str) -> impl FnOnce(std::io::Error) -> SpillError + use<> {
    let path = path.to_path_buf();
    move |source| SpillError::Io {
        path,
        action,
        source,
    }
}

fn damaged(path: &Path, what: &'static str) -> SpillError {
    SpillError::Damaged {
        path: path.to_path_buf(),
        what,
    }
}

/// The rank of a track in the derived order of [`Track`] (an exhaustive
/// match: a new track must be given its place here; a unit test checks the
/// ranks against `Ord`).
fn track_rank(t: Track) -> u8 {
    match t {
        Track::SingleQuery => 0,
        Track::Incremental => 1,
        Track::UnsatCore => 2,
        Track::ModelValidation => 3,
        Track::Parallel => 4,
        Track::Cloud => 5,
        Track::ProofExhibition => 6,
        Track::UnsatCoreValidation => 7,
    }
}

/// Appends a string so that encodings compare like the strings and end
/// unambiguously: every NUL byte is written as `00 01`, and `00 00` ends it.
fn encode_str(out: &mut Vec<u8>, s: &str) {
    let mut rest = s.as_bytes();
    while let Some(i) = memchr::memchr(0, rest) {
        out.extend_from_slice(&rest[..i]);
        out.extend_from_slice(&[0, 1]);
        rest = &rest[i + 1..];
    }
    out.extend_from_slice(rest);
    out.extend_from_slice(&[0, 0]);
}

/// Appends the order-preserving encoding of a sort key: its fields in
/// declaration order, `None` as `00` and `Some(x)` as `01` then `x` (the
/// track as its rank + 1 in one byte), numbers big-endian, strings by
/// [`encode_str`]. For two keys `a`, `b`: `a.cmp(b)` equals the byte-wise
/// comparison of their encodings.
pub fn encode_key(out: &mut Vec<u8>, k: &SortKey<'_>) {
    out.push(k.track.map_or(0, |t| 1 + track_rank(t)));
    encode_str(out, &k.solver);
    match k.participation {
        None => out.push(0),
        Some(p) => {
            out.push(1);
            out.extend_from_slice(&p.to_be_bytes());
        }
    }
    encode_str(out, &k.benchmark_key);
    match &k.rundefinition {
        None => out.push(0),
        Some(r) => {
            out.push(1);
            encode_str(out, r);
        }
    }
    encode_str(out, &k.source);
    encode_str(out, &k.task);
}

/// Splits an [`encode_str`] string off the front of `b`: the string's bytes
/// and the rest; `None` if `b` does not hold one.
fn decode_str(b: &[u8]) -> Option<(Vec<u8>, &[u8])> {
    let mut out = Vec::new();
    let mut rest = b;
    loop {
        let i = memchr::memchr(0, rest)?;
        out.extend_from_slice(&rest[..i]);
        match rest.get(i + 1)? {
            0 => return Some((out, &rest[i + 2..])),
            1 => out.push(0),
            _ => return None,
        }
        rest = &rest[i + 2..];
    }
}

/// The task of an encoded key ([`encode_key`]); `None` if it is malformed.
fn decode_task(key: &[u8]) -> Option<String> {
    let (_, rest) = key.split_first()?; // track
    let (_, rest) = decode_str(rest)?; // solver
    let rest = match rest.split_first()? {
        (0, r) => r,
        (1, r) => r.get(4..)?,
        _ => return None,
    };
    let (_, rest) = decode_str(rest)?; // benchmark key
    let rest = match rest.split_first()? {
        (0, r) => r,
        (1, r) => decode_str(r)?.1,
        _ => return None,
    };
    let (_, rest) = decode_str(rest)?; // source
    let (task, rest) = decode_str(rest)?;
    if !rest.is_empty() {
        return None;
    }
    String::from_utf8(task).ok()
}

/// Appends a byte string with its `u32` little-endian length.
fn put_bytes(out: &mut Vec<u8>, bytes: &[u8]) -> Result<(), SpillError> {
    let len = u32::try_from(bytes.len()).map_err(|_| SpillError::TooLong(bytes.len()))?;
    out.extend_from_slice(&len.to_le_bytes());
    out.extend_from_slice(bytes);
    Ok(())
}

/// Writes records (already in canonical order) to a run file.
pub fn write_run(path: &Path, records: &[IngestRecord]) -> Result<Run, SpillError> {
    let file = File::create(path).map_err(write_err(path))?;
    let mut w = BufWriter::with_capacity(1 << 16, file);
    let mut key = Vec::with_capacity(256);
    let mut line = Vec::with_capacity(2048);
    let mut entry = Vec::with_capacity(2048);
    for r in records {
        key.clear();
        line.clear();
        entry.clear();
        encode_key(&mut key, &r.sort_key());
        serde_json::to_writer(&mut line, r)?;
        put_bytes(&mut entry, &key)?;
        put_bytes(&mut entry, &line)?;
        w.write_all(&entry).map_err(write_err(path))?;
    }
    w.flush().map_err(write_err(path))?;
    Ok(Run {
        path: path.to_path_buf(),
        bytes: w.get_ref().metadata().map_err(write_err(path))?.len(),
    })
}

impl Run {
    /// The distinct tasks of the run's records (read back from its keys).
    pub fn tasks(&self) -> Result<std::collections::BTreeSet<String>, SpillError> {
        let mut reader = RunReader::open(self)?;
        let mut tasks = std::collections::BTreeSet::new();
        let mut entry = Entry::default();
        while reader.next(&mut entry)? {
            let task = decode_task(entry.key()).ok_or_else(|| damaged(&reader.path, "corrupt"))?;
            tasks.insert(task);
        }
        Ok(tasks)
    }
}

/// One record read back from a run: the entry as stored (both lengths
/// included), and where its key ends.
#[derive(Default)]
struct Entry {
    raw: Vec<u8>,
    key_end: usize,
}

impl Entry {
    /// The encoded sort key.
    fn key(&self) -> &[u8] {
        &self.raw[4..self.key_end]
    }

    /// The record's JSON line (without newline).
    fn line(&self) -> &[u8] {
        &self.raw[self.key_end + 4..]
    }
}

struct RunReader {
    path: PathBuf,
    reader: BufReader<File>,
}

impl RunReader {
    fn open(run: &Run) -> Result<RunReader, SpillError> {
        let file = File::open(&run.path).map_err(io_err(&run.path, "open"))?;
        Ok(RunReader {
            path: run.path.clone(),
            reader: BufReader::with_capacity(1 << 14, file),
        })
    }

    /// Appends one length-prefixed byte string to `out`; `false` at the end
    /// of the file (only allowed when `at_start`).
    fn read_bytes(&mut self, out: &mut Vec<u8>, at_start: bool) -> Result<bool, SpillError> {
        let mut len = [0u8; 4];
        let mut got = 0;
        while got < 4 {
            match self.reader.read(&mut len[got..]) {
                Ok(0) => break,
                Ok(n) => got += n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => return Err(io_err(&self.path, "read")(e)),
            }
        }
        if got == 0 && at_start {
            return Ok(false);
        }
        if got < 4 {
            return Err(damaged(&self.path, "truncated"));
        }
        out.extend_from_slice(&len);
        let len = u64::from(u32::from_le_bytes(len));
        // Bounded by the bytes actually present: a damaged length cannot make
        // this allocate more than the file holds.
        let n = (&mut self.reader)
            .take(len)
            .read_to_end(out)
            .map_err(io_err(&self.path, "read"))?;
        if n as u64 != len {
            return Err(damaged(&self.path, "truncated"));
        }
        Ok(true)
    }

    /// Reads the next entry into `entry` (its buffer reused); `false` at the end.
    fn next(&mut self, entry: &mut Entry) -> Result<bool, SpillError> {
        entry.raw.clear();
        if !self.read_bytes(&mut entry.raw, true)? {
            return Ok(false);
        }
        entry.key_end = entry.raw.len();
        self.read_bytes(&mut entry.raw, false)?;
        Ok(true)
    }
}

/// A run's current entry in the merge heap: ordered by key, then run index.
struct Head {
    entry: Entry,
    run: usize,
}

impl PartialEq for Head {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}
impl Eq for Head {}
impl PartialOrd for Head {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Head {
    fn cmp(&self, other: &Self) -> Ordering {
        self.entry
            .key()
            .cmp(other.entry.key())
            .then(self.run.cmp(&other.run))
    }
}

/// Merges runs in canonical order (ties: earlier run first), handing every
/// entry to `sink`. Each run file is removed once read.
fn merge(
    runs: &[Run],
    mut sink: impl FnMut(&Entry) -> Result<(), SpillError>,
) -> Result<(), SpillError> {
    let mut readers = runs
        .iter()
        .map(RunReader::open)
        .collect::<Result<Vec<_>, SpillError>>()?;
    let mut heap = BinaryHeap::with_capacity(readers.len());
    for (run, r) in readers.iter_mut().enumerate() {
        let mut entry = Entry::default();
        if r.next(&mut entry)? {
            heap.push(Reverse(Head { entry, run }));
        }
    }
    while let Some(mut top) = heap.peek_mut() {
        let Reverse(head) = &mut *top;
        sink(&head.entry)?;
        // The entry's buffer is reused for the run's next one.
        if !readers[head.run].next(&mut head.entry)? {
            std::collections::binary_heap::PeekMut::pop(top);
        }
    }
    drop(readers);
    for r in runs {
        let _ = std::fs::remove_file(&r.path);
    }
    Ok(())
}

/// Merges the runs (in input order) into `out`, first reducing them to at
/// most `fan_in` ([`reduce`]).
pub fn merge_into(
    dir: &SpillDir,
    runs: Vec<Run>,
    fan_in: usize,
    out: &mut JsonlWriter,
) -> Result<(), SpillError> {
    let runs = reduce(dir, runs, fan_in.max(2))?;
    merge(&runs, |e| Ok(out.write_line(e.line())?))
}

/// Merges runs into bigger ones until at most `fan_in` are left. While more
/// than `fan_in` runs would be merged anyway, consecutive groups of `fan_in`
/// are merged (in parallel); the last step merges only the consecutive runs
/// with the fewest bytes that bring the count down to `fan_in`. (Merging
/// consecutive runs keeps ties in input order; merging the smallest ones keeps
/// the rewrite small: the 2025 competition's 1,111 runs with a fan-in of 1,024
/// rewrite 88 small runs, not 1,024 runs holding nearly all of its 2 GB.)
fn reduce(dir: &SpillDir, mut runs: Vec<Run>, fan_in: usize) -> Result<Vec<Run>, SpillError> {
    use rayon::prelude::*;
    let mut pass = 0;
    while runs.len() > fan_in {
        pass += 1;
        let merge_to = |group: &[Run], name: String| -> Result<Run, SpillError> {
            let path = dir.file(&name);
            let file = File::create(&path).map_err(write_err(&path))?;
            let mut w = BufWriter::with_capacity(1 << 16, file);
            merge(group, |e| w.write_all(&e.raw).map_err(write_err(&path)))?;
            w.flush().map_err(write_err(&path))?;
            let bytes = group.iter().map(|r| r.bytes).sum();
            Ok(Run { path, bytes })
        };
        // Merging `excess` runs into one leaves exactly `fan_in`.
        let excess = runs.len() - fan_in + 1;
        if excess > fan_in {
            runs = runs
                .par_chunks(fan_in)
                .enumerate()
                .map(|(i, group)| merge_to(group, format!("merge-{pass}-{i}")))
                .collect::<Result<Vec<_>, SpillError>>()?;
        } else {
            let from = cheapest_window(&runs, excess);
            let merged = merge_to(&runs[from..from + excess], format!("merge-{pass}"))?;
            runs.splice(from..from + excess, [merged]);
        }
    }
    Ok(runs)
}

/// The start of the `len` consecutive runs with the fewest bytes (the first
/// such window).
fn cheapest_window(runs: &[Run], len: usize) -> usize {
    let mut sum: u64 = runs[..len].iter().map(|r| r.bytes).sum();
    let (mut best, mut best_sum) = (0, sum);
    for i in len..runs.len() {
        sum = sum + runs[i].bytes - runs[i - len].bytes;
        if sum < best_sum {
            (best, best_sum) = (i + 1 - len, sum);
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::borrow::Cow;

    fn sized(bytes: &[u64]) -> Vec<Run> {
        bytes
            .iter()
            .map(|&bytes| Run {
                path: PathBuf::new(),
                bytes,
            })
            .collect()
    }

    #[test]
    fn the_cheapest_window_is_the_first_with_the_fewest_bytes() {
        let runs = sized(&[9, 1, 1, 5, 0, 2, 9]);
        // Windows of 2: 10, 2, 6, 5, 2, 11: the first 2 starts at 1.
        assert_eq!(cheapest_window(&runs, 2), 1);
        // Windows of 3: 11, 7, 6, 7, 11.
        assert_eq!(cheapest_window(&runs, 3), 2);
        assert_eq!(cheapest_window(&runs, 7), 0);
        assert_eq!(cheapest_window(&runs, 1), 4);
    }

    fn key<'a>(
        track: Option<Track>,
        solver: &'a str,
        part: Option<u32>,
        rundef: Option<&'a str>,
        task: &'a str,
    ) -> SortKey<'a> {
        SortKey {
            track,
            solver: Cow::Borrowed(solver),
            participation: part,
            benchmark_key: Cow::Borrowed("QF_BV/x.smt2"),
            rundefinition: rundef.map(Cow::Borrowed),
            source: Cow::Borrowed("a.xml"),
            task: Cow::Borrowed(task),
        }
    }

    #[test]
    fn track_ranks_follow_the_track_order() {
        for a in Track::ALL {
            for b in Track::ALL {
                assert_eq!(track_rank(a).cmp(&track_rank(b)), a.cmp(&b), "{a:?} {b:?}");
            }
        }
    }

    #[test]
    fn encoded_keys_compare_like_the_keys() {
        // Prefixes, NUL bytes (escaped as 00 01, end 00 00), None before Some,
        // big-endian numbers (256 > 1 although its low byte is smaller).
        let keys = [
            key(None, "", None, None, ""),
            key(None, "", None, None, "\0"),
            key(Some(Track::SingleQuery), "a", None, None, "t"),
            key(Some(Track::SingleQuery), "a", Some(1), None, "t"),
            key(Some(Track::SingleQuery), "a", Some(256), None, "t"),
            key(Some(Track::SingleQuery), "a", Some(256), Some(""), "t"),
            key(Some(Track::SingleQuery), "a", Some(256), Some("r"), "t"),
            key(Some(Track::SingleQuery), "a\0", None, None, "t"),
            key(Some(Track::SingleQuery), "a\0\0", None, None, "t"),
            key(Some(Track::SingleQuery), "a\u{1}", None, None, "t"),
            key(Some(Track::SingleQuery), "ab", None, None, "t"),
            key(Some(Track::Incremental), "", None, None, "t"),
            key(Some(Track::UnsatCoreValidation), "", None, None, "t\0x"),
        ];
        for a in &keys {
            let mut ea = Vec::new();
            encode_key(&mut ea, a);
            assert_eq!(decode_task(&ea).as_deref(), Some(&*a.task));
            for b in &keys {
                let mut eb = Vec::new();
                encode_key(&mut eb, b);
                assert_eq!(ea.cmp(&eb), a.cmp(b), "{a:?} {b:?}");
            }
        }
        assert_eq!(decode_task(b""), None);
        assert_eq!(decode_task(&[0, b'a', 0]), None);
        assert_eq!(decode_task(&[0, 0, 2]), None);
    }
}
