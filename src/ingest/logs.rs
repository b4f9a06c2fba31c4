//! Finding and reading run logs (benchexec-formats.md 4.5 and 4.8).
//!
//! A result file `P.results.R[.T].xml.bz2` has its logs in `P.logfiles.zip`
//! (or the directory `P.logfiles/` with `--no-compress-results`), member
//! `<basename(P)>.logfiles/<rundef>.<task basename>.log`. The ZIP is opened
//! once per result file and only the members that are needed are read
//! (random access through the central directory, no extraction).

use std::fs::File;
use std::io::Read;
use std::path::{Path, PathBuf};

use crate::util::seekbuf::SeekBuf;

/// The separator between BenchExec's log header and the tool output.
const HEADER_END: &[u8] =
    b"\n\n\n--------------------------------------------------------------------------------\n\n\n";

/// Largest log member read (bigger ones are an error for their run; BenchExec
/// truncates logs at 20 MB by default).
pub const MAX_LOG_BYTES: u64 = 512 << 20;

/// Largest part of a log that ingestion reads into memory (uncompressed). A
/// longer log is read up to this size only: its record gets a note (and is an
/// `error` where the track needs the whole output: unsat cores, incremental
/// traces). Two per reading thread at most (the log and its compressed bytes).
pub const MAX_LOG_READ_BYTES: u64 = 32 << 20;

/// Whether a log file name stays inside the log directory or archive: no path
/// separator, no NUL, not `.` or `..`. A rundefinition name with `../` would
/// otherwise make ingestion read files outside the results directory.
pub fn confined_name(file_name: &str) -> bool {
    !file_name.is_empty()
        && !file_name.contains(['/', '\\', '\0'])
        && file_name != "."
        && file_name != ".."
}

/// Where the logs of one result file live.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LogLocation {
    /// `P.logfiles.zip`.
    pub zip: PathBuf,
    /// `P.logfiles/` (uncompressed results).
    pub dir: PathBuf,
    /// `<basename(P)>.logfiles/`: the member directory inside the ZIP.
    pub member_dir: String,
}

/// Computes the log location of a result file (table-generator's rule: the
/// path up to the **last** `.results.`). `None` if the name has no `.results.`.
pub fn location(xml: &Path) -> Option<LogLocation> {
    let name = xml.file_name()?.to_str()?;
    let cut = name.rfind(".results.")?;
    let base = &name[..cut];
    let parent = xml.parent().unwrap_or(Path::new(""));
    Some(LogLocation {
        zip: parent.join(format!("{base}.logfiles.zip")),
        dir: parent.join(format!("{base}.logfiles")),
        member_dir: format!("{base}.logfiles/"),
    })
}

/// The log file name of a run: `<rundef>.<basename(task)>.log` (no rundefinition
/// prefix for unnamed rundefinitions).
pub fn log_name(rundefinition: Option<&str>, task: &str) -> String {
    let base = task.rsplit('/').next().unwrap_or(task);
    match rundefinition {
        Some(r) => format!("{r}.{base}.log"),
        None => format!("{base}.log"),
    }
}

/// A log that could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LogError {
    /// The member (or file) does not exist.
    Missing(String),
    /// The archive or member cannot be read.
    Unreadable(String),
}

impl std::fmt::Display for LogError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LogError::Missing(m) | LogError::Unreadable(m) => f.write_str(m),
        }
    }
}

enum Store {
    NotOpened,
    Zip(zip::ZipArchive<SeekBuf<File>>),
    Dir(PathBuf),
    None(LogError),
}

/// Reads the logs of one result file, opening the archive on first use.
pub struct LogReader {
    loc: LogLocation,
    store: Store,
    buf: Vec<u8>,
    raw: Vec<u8>,
    inflater: flate2::Decompress,
    /// The full size of the last log read when it was cut at
    /// [`MAX_LOG_READ_BYTES`].
    cut: Option<u64>,
}

impl LogReader {
    /// A reader for the logs at `loc`.
    pub fn new(loc: LogLocation) -> LogReader {
        LogReader {
            loc,
            store: Store::NotOpened,
            buf: Vec::new(),
            raw: Vec::new(),
            inflater: flate2::Decompress::new(false),
            cut: None,
        }
    }

    /// The location.
    pub fn location(&self) -> &LogLocation {
        &self.loc
    }

    /// Whether the archive itself is unreadable (after a first access): the
    /// reason, for the file-level accounting.
    pub fn archive_error(&self) -> Option<&str> {
        match &self.store {
            Store::None(LogError::Unreadable(r)) => Some(r),
            _ => None,
        }
    }

    fn open(&mut self) {
        if !matches!(self.store, Store::NotOpened) {
            return;
        }
        self.store = if self.loc.dir.is_dir() {
            Store::Dir(self.loc.dir.clone())
        } else {
            match File::open(&self.loc.zip) {
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => Store::None(
                    LogError::Missing(format!("log archive {} not found", self.loc.zip.display())),
                ),
                Err(e) => Store::None(LogError::Unreadable(format!(
                    "log archive {}: cannot open: {e}",
                    self.loc.zip.display()
                ))),
                // Buffered across the seeks to each member: reading the
                // members in order costs a system call per 256 KiB, not
                // about four per member.
                Ok(f) => match SeekBuf::new(f) {
                    Err(e) => Store::None(LogError::Unreadable(format!(
                        "log archive {}: cannot read: {e}",
                        self.loc.zip.display()
                    ))),
                    Ok(f) => match zip::ZipArchive::new(f) {
                        Ok(z) => Store::Zip(z),
                        Err(e) => Store::None(LogError::Unreadable(format!(
                            "log archive {} is corrupt: {e}",
                            self.loc.zip.display()
                        ))),
                    },
                },
            }
        };
    }

    /// The logs of the archive (or directory) that belong to no run of the
    /// result file: named `<rundefinition>.<...>.log` (any `.log` without a
    /// rundefinition) and not among `expected` (the file's runs' log names).
    /// A log without its run means the result file lost the run, or the
    /// logs are of another attempt. Returns how many and the first five
    /// names; nothing when the archive was never opened or is unreadable.
    pub fn orphans(
        &self,
        rundefinition: Option<&str>,
        expected: &[String],
    ) -> (usize, Vec<String>) {
        let known: std::collections::HashSet<&str> = expected.iter().map(String::as_str).collect();
        let prefix = rundefinition.map(|r| format!("{r}.")).unwrap_or_default();
        let mut found = 0;
        let mut first = Vec::new();
        let mut see = |name: &str| {
            if name.starts_with(&prefix) && name.ends_with(".log") && !known.contains(name) {
                found += 1;
                if first.len() < 5 {
                    first.push(name.to_string());
                }
            }
        };
        match &self.store {
            Store::Zip(z) => {
                for n in z.file_names().flatten() {
                    if let Some(rest) = n.strip_prefix(&self.loc.member_dir)
                        && !rest.contains('/')
                    {
                        see(rest);
                    }
                }
            }
            Store::Dir(d) => {
                for e in std::fs::read_dir(d).into_iter().flatten().flatten() {
                    see(&e.file_name().to_string_lossy());
                }
            }
            Store::NotOpened | Store::None(_) => {}
        }
        first.sort();
        (found, first)
    }

    /// The archive (or directory) name and member name of a log, as recorded.
    pub fn member(&self, file_name: &str) -> String {
        format!("{}{file_name}", self.loc.member_dir)
    }

    /// When the last log read was longer than [`MAX_LOG_READ_BYTES`]: its
    /// full size (only the first [`MAX_LOG_READ_BYTES`] were read).
    pub fn last_cut(&self) -> Option<u64> {
        self.cut
    }

    /// The bytes of the last successful [`LogReader::read`].
    pub fn read_again(&self) -> &[u8] {
        &self.buf
    }

    /// Reads the log named `file_name` (see [`log_name`]), at most
    /// [`MAX_LOG_READ_BYTES`] of it ([`LogReader::last_cut`] tells whether it
    /// was cut). The returned bytes are valid until the next call. A name
    /// that is not [`confined_name`] is refused.
    pub fn read(&mut self, file_name: &str) -> Result<&[u8], LogError> {
        self.buf.clear();
        self.cut = None;
        if !confined_name(file_name) {
            return Err(LogError::Unreadable(format!(
                "log name '{}' contains a path separator or is '..'; not read (logs are only read inside the results directory)",
                file_name.escape_debug()
            )));
        }
        self.open();
        match &mut self.store {
            Store::NotOpened => unreachable!("opened above"),
            Store::None(e) => return Err(e.clone()),
            Store::Dir(dir) => {
                let path = dir.join(file_name);
                match File::open(&path) {
                    Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                        return Err(LogError::Missing(format!(
                            "log {} not found",
                            path.display()
                        )));
                    }
                    Err(e) => {
                        return Err(LogError::Unreadable(format!(
                            "log {}: cannot open: {e}",
                            path.display()
                        )));
                    }
                    Ok(f) => {
                        let full = f.metadata().map(|m| m.len()).unwrap_or(0);
                        f.take(MAX_LOG_READ_BYTES)
                            .read_to_end(&mut self.buf)
                            .map_err(|e| {
                                LogError::Unreadable(format!("log {}: {e}", path.display()))
                            })?;
                        if full > MAX_LOG_READ_BYTES {
                            self.cut = Some(full);
                        }
                    }
                }
            }
            Store::Zip(z) => {
                let member = format!("{}{file_name}", self.loc.member_dir);
                let zip_path = &self.loc.zip;
                let unreadable = |why: String| {
                    LogError::Unreadable(format!("log {member} in {}: {why}", zip_path.display()))
                };
                // Raw (still compressed) access: one inflater per archive is
                // reused for every member, instead of a fresh one per member.
                let mut entry = match z.by_name_raw(member.as_bytes()) {
                    Ok(e) => e,
                    Err(zip::result::ZipError::FileNotFound) => {
                        return Err(LogError::Missing(format!(
                            "log {member} not in {}",
                            zip_path.display()
                        )));
                    }
                    Err(e) => return Err(unreadable(e.to_string())),
                };
                let (method, size, crc) = (entry.compression(), entry.size(), entry.crc32());
                // Deflate never needs much more than the data (plus block
                // headers): a bigger compressed member is corrupt or hostile.
                // Saturating: a corrupt header can declare a size near
                // u64::MAX (found by `scripts/fuzz`: `attempt to add with
                // overflow`, a panic in debug builds, a wrong bound in release).
                let plausible = size.saturating_add(size / 16).saturating_add(4096);
                if size > MAX_LOG_READ_BYTES || entry.compressed_size() > plausible {
                    // Only a prefix is read: streamed, never the whole member.
                    let wanted = size.min(MAX_LOG_READ_BYTES);
                    let res = match method {
                        zip::CompressionMethod::Stored => {
                            (&mut entry).take(wanted).read_to_end(&mut self.buf)
                        }
                        zip::CompressionMethod::Deflated => {
                            flate2::read::DeflateDecoder::new((&mut entry).take(plausible))
                                .take(wanted)
                                .read_to_end(&mut self.buf)
                        }
                        other => {
                            return Err(unreadable(format!("unsupported compression {other:?}")));
                        }
                    };
                    res.map_err(|e| unreadable(format!("cannot decompress: {e}")))?;
                    if (self.buf.len() as u64) < wanted {
                        return Err(unreadable("corrupt member (shorter than its size)".into()));
                    }
                    if size > MAX_LOG_READ_BYTES {
                        self.cut = Some(size);
                    }
                    return Ok(&self.buf);
                }
                self.raw.clear();
                entry
                    .read_to_end(&mut self.raw)
                    .map_err(|e| unreadable(format!("cannot read: {e}")))?;
                drop(entry);
                match method {
                    zip::CompressionMethod::Stored => self.buf.extend_from_slice(&self.raw),
                    zip::CompressionMethod::Deflated => {
                        inflate(&mut self.inflater, &self.raw, &mut self.buf, size)
                            .map_err(|e| unreadable(format!("cannot decompress: {e}")))?;
                    }
                    other => return Err(unreadable(format!("unsupported compression {other:?}"))),
                }
                let mut c = flate2::Crc::new();
                c.update(&self.buf);
                if self.buf.len() as u64 != size || c.sum() != crc {
                    return Err(unreadable("corrupt member (size or CRC mismatch)".into()));
                }
            }
        }
        if self.buf.len() as u64 > MAX_LOG_BYTES {
            return Err(LogError::Unreadable(format!(
                "log {file_name} is bigger than {MAX_LOG_BYTES} bytes"
            )));
        }
        Ok(&self.buf)
    }
}

/// Inflates raw deflate data `input` (expected `size` bytes) into `out`,
/// reusing `d`.
fn inflate(
    d: &mut flate2::Decompress,
    input: &[u8],
    out: &mut Vec<u8>,
    size: u64,
) -> Result<(), String> {
    d.reset(false);
    out.reserve(size.min(MAX_LOG_READ_BYTES) as usize + 1);
    loop {
        let before_in = d.total_in();
        let before_out = d.total_out();
        let consumed = d.total_in() as usize;
        let status = d
            .decompress_vec(&input[consumed..], out, flate2::FlushDecompress::Finish)
            .map_err(|e| e.to_string())?;
        match status {
            flate2::Status::StreamEnd => return Ok(()),
            // The member says how big it is: inflating past that is a lie (a
            // bomb); stop there instead of at the global limit.
            _ if out.len() as u64 > size.min(MAX_LOG_BYTES) => {
                return Err(format!("inflates to more than its declared {size} bytes"));
            }
            _ if d.total_in() == before_in && d.total_out() == before_out => {
                if out.len() == out.capacity() {
                    out.reserve(out.capacity().max(4096));
                } else {
                    return Err("truncated deflate stream".into());
                }
            }
            _ => {
                if out.len() == out.capacity() {
                    out.reserve(out.capacity().max(4096));
                }
            }
        }
    }
}

/// Offset where the tool output starts: after the first header separator
/// (`\n\n\n` + 80 dashes + `\n\n\n`); 0 if there is none.
pub fn output_start(log: &[u8]) -> usize {
    // Built once: building a searcher for the 86-byte separator cost more than
    // the search in a typical log.
    static FINDER: std::sync::LazyLock<memchr::memmem::Finder<'static>> =
        std::sync::LazyLock::new(|| memchr::memmem::Finder::new(HEADER_END));
    FINDER.find(log).map_or(0, |i| i + HEADER_END.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn location_uses_the_last_results() {
        let loc = location(Path::new("/r/x.results.y.2025.results.s,0,SQ.task.xml.bz2")).unwrap();
        assert_eq!(loc.zip, Path::new("/r/x.results.y.2025.logfiles.zip"));
        assert_eq!(loc.member_dir, "x.results.y.2025.logfiles/");
        assert!(location(Path::new("/r/plain.xml")).is_none());
        assert_eq!(
            log_name(Some("s,0,SQ"), "../t/QF_BV/1_x.yml"),
            "s,0,SQ.1_x.yml.log"
        );
        assert_eq!(log_name(None, "a.smt2"), "a.smt2.log");
    }

    #[test]
    fn output_starts_after_the_header() {
        let log = format!("cmd 'a\n\n\nb'\n\n\n{}\n\n\nsat\n", "-".repeat(80));
        assert_eq!(&log.as_bytes()[output_start(log.as_bytes())..], b"sat\n");
        assert_eq!(output_start(b"no header"), 0);
    }
}
