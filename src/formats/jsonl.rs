//! The JSON Lines files of records (`.jsonl`, `.jsonl.gz`): reading, and a
//! writer that takes records (or already serialized lines) one at a time, so
//! the streaming ingestion never holds the whole table.
//!
//! A `.gz` file is a sequence of gzip members of [`CHUNK`] lines each
//! (compressed in parallel on the rayon pool while the next chunk is filled, at
//! most [`in_flight`] at once); the fixed member size keeps the bytes
//! independent of how the lines were fed in.

use crate::formats::datafile::DataFileError;
use crate::formats::runtable::IngestRecord;
use crate::formats::table_identity::TableIdentity;
use crate::util::path_error::PathError;
use flate2::Compression;
use flate2::write::GzEncoder;
use rayon::prelude::*;
use std::collections::VecDeque;
use std::fs::File;
use std::io::{BufRead, BufReader, BufWriter, Write};
use std::path::{Path, PathBuf};

/// Why a run table cannot be read or written.
#[derive(Debug, thiserror::Error)]
pub enum TableError {
    /// It cannot be opened.
    #[error(transparent)]
    Open(#[from] DataFileError),
    /// A line that cannot be read or is not a record.
    #[error("{}: line {line}: {reason}", path.display())]
    Line {
        /// The table.
        path: PathBuf,
        /// The line (1-based).
        line: usize,
        /// Why.
        reason: String,
    },
    /// It (or its temporary name) cannot be created, written or compressed.
    #[error(transparent)]
    Io(#[from] PathError),
    /// A record cannot be serialized (a bug).
    #[error("{}: cannot serialize a record: {source}", path.display())]
    Serialize {
        /// The table.
        path: PathBuf,
        /// serde_json's error.
        source: serde_json::Error,
    },
    /// The temporary file cannot be renamed to the table's name.
    #[error("{}: cannot rename to {}: {source}", from.display(), to.display())]
    Rename {
        /// The temporary file.
        from: PathBuf,
        /// The table.
        to: PathBuf,
        /// The system's error.
        source: std::io::Error,
    },
}

fn io_error(
    path: &Path,
    action: &'static str,
) -> impl FnOnce(std::io::Error) -> TableError + use<> {
    let on = PathError::on(path, action);
    move |source| TableError::Io(on(source))
}

/// Records (lines) per gzip member.
const CHUNK: usize = 4096;

/// Full chunks serialized together (in parallel) by [`write_jsonl`].
fn batch_chunks() -> usize {
    2 * rayon::current_num_threads().max(1)
}

/// Chunks being compressed at once (each holds [`CHUNK`] lines, about 4.5 MB
/// for ingestion records): one per pool thread. Bounds the writer's memory.
fn in_flight() -> usize {
    rayon::current_num_threads().max(1)
}

fn gzip(text: &[u8]) -> std::io::Result<Vec<u8>> {
    let mut enc = GzEncoder::new(Vec::with_capacity(text.len() / 6), Compression::new(6));
    enc.write_all(text)?;
    enc.finish()
}

/// Writes a JSON Lines file under a temporary name (`.<name>.tmp` next to it)
/// and renames it on [`JsonlWriter::finish`]; dropped unfinished (an error),
/// it removes the temporary file. A special file (`/dev/null`, a FIFO) is
/// written in place ([`crate::formats::datafile::temporary_sibling`]).
pub struct JsonlWriter {
    path: PathBuf,
    /// `None` when writing in place.
    tmp: Option<PathBuf>,
    out: BufWriter<File>,
    gz: bool,
    /// The chunk being filled.
    chunk: Vec<u8>,
    chunk_lines: usize,
    /// Full chunks being compressed (or, uncompressed output, waiting), in
    /// file order.
    pending: VecDeque<Pending>,
    /// Whether any chunk was written.
    wrote: bool,
    done: bool,
}

impl JsonlWriter {
    /// Creates the temporary file; gzip-compressed when `path` ends in `.gz`.
    /// The table's first line is `identity`'s header, when given (a gzip
    /// member of its own, so the record chunks are the same either way).
    pub fn create(
        path: &Path,
        identity: Option<&TableIdentity>,
    ) -> Result<JsonlWriter, TableError> {
        let tmp = crate::formats::datafile::temporary_sibling(path);
        let target = tmp.as_deref().unwrap_or(path);
        let file = match &tmp {
            Some(t) => File::create(t),
            None => std::fs::OpenOptions::new().write(true).open(path),
        }
        .map_err(io_error(target, "create"))?;
        let mut w = JsonlWriter {
            path: path.to_path_buf(),
            tmp,
            out: BufWriter::with_capacity(1 << 20, file),
            gz: path.extension().is_some_and(|e| e == "gz"),
            chunk: Vec::new(),
            chunk_lines: 0,
            pending: VecDeque::new(),
            wrote: false,
            done: false,
        };
        if let Some(id) = identity {
            let mut line = id.header_line();
            line.push(b'\n');
            w.push_chunk(line)?;
        }
        Ok(w)
    }

    /// Appends one record.
    pub fn write_record(&mut self, record: &IngestRecord) -> Result<(), TableError> {
        serde_json::to_writer(&mut self.chunk, record).map_err(|source| TableError::Serialize {
            path: self.path.clone(),
            source,
        })?;
        self.end_line()
    }

    /// Appends one line already serialized by [`serde_json::to_writer`] from a
    /// record (without the newline).
    pub fn write_line(&mut self, line: &[u8]) -> Result<(), TableError> {
        self.chunk.extend_from_slice(line);
        self.end_line()
    }

    fn end_line(&mut self) -> Result<(), TableError> {
        self.chunk.push(b'\n');
        self.chunk_lines += 1;
        if self.chunk_lines == CHUNK {
            self.chunk_lines = 0;
            let text = std::mem::take(&mut self.chunk);
            self.push_chunk(text)?;
        }
        Ok(())
    }

    /// Queues a full chunk of [`CHUNK`] lines (or the last one): compressed
    /// on the pool while the caller goes on, written in order.
    fn push_chunk(&mut self, text: Vec<u8>) -> Result<(), TableError> {
        // Sized like this one: no reallocations while the next chunk fills.
        if self.chunk.capacity() == 0 {
            self.chunk = Vec::with_capacity(text.len() + text.len() / 8);
        }
        let next = if !self.gz {
            Pending::Ready(text)
        } else if rayon::current_thread_index().is_some() {
            // On a pool thread, waiting for a job on the pool could wait
            // forever (a pool of one): compress here.
            Pending::Ready(gzip(&text).map_err(io_error(&self.path, "compress"))?)
        } else {
            let (tx, rx) = std::sync::mpsc::sync_channel(1);
            rayon::spawn(move || {
                // The receiver is gone only when the writer was dropped.
                let _ = tx.send(gzip(&text));
            });
            Pending::Compressing(rx)
        };
        self.pending.push_back(next);
        while self.pending.len() > in_flight() {
            self.write_oldest()?;
        }
        Ok(())
    }

    /// Waits for the oldest pending chunk and writes it.
    fn write_oldest(&mut self) -> Result<(), TableError> {
        let Some(next) = self.pending.pop_front() else {
            return Ok(());
        };
        let bytes = match next {
            Pending::Ready(b) => b,
            Pending::Compressing(rx) => rx
                .recv()
                .unwrap_or_else(|_| Err(std::io::Error::other("the compressing thread ended")))
                .map_err(io_error(&self.path, "compress"))?,
        };
        self.out
            .write_all(&bytes)
            .map_err(io_error(&self.path, "write"))?;
        self.wrote = true;
        Ok(())
    }

    fn flush_chunks(&mut self) -> Result<(), TableError> {
        while !self.pending.is_empty() {
            self.write_oldest()?;
        }
        Ok(())
    }

    /// Writes what is left and renames the file to its final name.
    pub fn finish(mut self) -> Result<(), TableError> {
        if self.chunk_lines > 0 {
            self.chunk_lines = 0;
            let text = std::mem::take(&mut self.chunk);
            self.push_chunk(text)?;
        }
        self.flush_chunks()?;
        if self.gz && !self.wrote {
            // An empty gzip member, so the file is still valid gzip.
            let empty = gzip(&[]).map_err(io_error(&self.path, "compress"))?;
            self.out
                .write_all(&empty)
                .map_err(io_error(&self.path, "write"))?;
        }
        self.out.flush().map_err(io_error(&self.path, "write"))?;
        if let Some(tmp) = &self.tmp {
            let name = self.path.file_name().unwrap_or_default().to_string_lossy();
            crate::util::fault::point("write", &name);
            std::fs::rename(tmp, &self.path).map_err(|source| TableError::Rename {
                from: tmp.clone(),
                to: self.path.clone(),
                source,
            })?;
        }
        self.done = true;
        Ok(())
    }
}

/// A chunk of a [`JsonlWriter`] on its way to the file.
enum Pending {
    /// Its bytes (compressed when the file is).
    Ready(Vec<u8>),
    /// Being compressed on the pool.
    Compressing(std::sync::mpsc::Receiver<std::io::Result<Vec<u8>>>),
}

impl Drop for JsonlWriter {
    fn drop(&mut self) {
        if !self.done
            && let Some(tmp) = &self.tmp
        {
            let _ = std::fs::remove_file(tmp);
        }
    }
}

/// Writes records as JSON Lines; gzip-compressed when `path` ends in `.gz`,
/// after the header line of `identity` when given. The file is written under
/// a temporary name and renamed.
pub fn write_jsonl(
    path: &Path,
    identity: Option<&TableIdentity>,
    records: &[IngestRecord],
) -> Result<(), TableError> {
    let mut w = JsonlWriter::create(path, identity)?;
    // Serialized in parallel, a batch of chunks at a time.
    for batch in records.chunks(CHUNK * batch_chunks()) {
        let texts = batch
            .par_chunks(CHUNK)
            .map(|chunk| -> Result<Vec<u8>, TableError> {
                let mut text = Vec::with_capacity(chunk.len() * 512);
                for r in chunk {
                    serde_json::to_writer(&mut text, r).map_err(|source| {
                        TableError::Serialize {
                            path: path.to_path_buf(),
                            source,
                        }
                    })?;
                    text.push(b'\n');
                }
                Ok(text)
            })
            .collect::<Result<Vec<_>, TableError>>()?;
        for t in texts {
            w.push_chunk(t)?;
        }
    }
    w.finish()
}

/// Reads a JSON Lines file written by [`write_jsonl`] (gzip detected from the
/// content), skipping its header line. Use [`read_table`] to check the
/// competition identity.
pub fn read_jsonl(path: &Path) -> Result<Vec<IngestRecord>, TableError> {
    Ok(read_table(path)?.1)
}

/// Reads a run table: its competition identity (`None` for a table written
/// before identities were recorded) and its records.
pub fn read_table(path: &Path) -> Result<(Option<TableIdentity>, Vec<IngestRecord>), TableError> {
    let (identity, records) = open_table(path)?;
    Ok((identity, records.collect::<Result<Vec<_>, _>>()?))
}

/// Opens a run table for reading one record at a time (a full-size table
/// does not fit in memory as records): its identity and its records.
pub fn open_table(path: &Path) -> Result<(Option<TableIdentity>, TableRecords), TableError> {
    let reader: Box<dyn std::io::Read> = crate::formats::datafile::open(path)?;
    let mut records = TableRecords {
        path: path.to_path_buf(),
        lines: BufReader::with_capacity(1 << 20, reader).lines(),
        line: 0,
        pending: None,
    };
    let mut identity = None;
    if let Some(line) = records.next_line()? {
        match TableIdentity::parse_header(line.as_bytes()) {
            Some(id) => identity = Some(id),
            None => records.pending = Some(line),
        }
    }
    Ok((identity, records))
}

/// The records of a run table, one at a time ([`open_table`]).
pub struct TableRecords {
    path: PathBuf,
    lines: std::io::Lines<BufReader<Box<dyn std::io::Read>>>,
    line: usize,
    /// The first record line, read while looking for the header.
    pending: Option<String>,
}

impl TableRecords {
    /// The next non-empty line.
    fn next_line(&mut self) -> Result<Option<String>, TableError> {
        for line in self.lines.by_ref() {
            self.line += 1;
            let line = line.map_err(|e| TableError::Line {
                path: self.path.clone(),
                line: self.line,
                reason: e.to_string(),
            })?;
            if !line.is_empty() {
                return Ok(Some(line));
            }
        }
        Ok(None)
    }
}

impl Iterator for TableRecords {
    type Item = Result<IngestRecord, TableError>;

    fn next(&mut self) -> Option<Self::Item> {
        let line = match self.pending.take() {
            Some(l) => l,
            None => match self.next_line() {
                Ok(Some(l)) => l,
                Ok(None) => return None,
                Err(e) => return Some(Err(e)),
            },
        };
        Some(serde_json::from_str(&line).map_err(|e| TableError::Line {
            path: self.path.clone(),
            line: self.line,
            reason: e.to_string(),
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn records(n: usize) -> Vec<IngestRecord> {
        (0..n)
            .map(|i| IngestRecord::new("s.xml", format!("t{i}")))
            .collect()
    }

    #[test]
    fn line_by_line_equals_whole_table() {
        let dir = tempfile::tempdir().unwrap();
        let comp = crate::model::Competition::builtin(2025).unwrap();
        let id = TableIdentity::of(&comp);
        for n in [0, 1, CHUNK - 1, CHUNK, CHUNK + 1, CHUNK * 9 + 17] {
            for name in ["a.jsonl.gz", "a.jsonl"] {
                for identity in [None, Some(&id)] {
                    let rs = records(n);
                    let a = dir.path().join(name);
                    let b = dir.path().join(format!("b{name}"));
                    write_jsonl(&a, identity, &rs).unwrap();
                    let mut w = JsonlWriter::create(&b, identity).unwrap();
                    for r in &rs {
                        let line = serde_json::to_vec(r).unwrap();
                        w.write_line(&line).unwrap();
                    }
                    w.finish().unwrap();
                    assert_eq!(std::fs::read(&a).unwrap(), std::fs::read(&b).unwrap());
                    assert_eq!(read_table(&a).unwrap(), (identity.cloned(), rs));
                }
            }
        }
        // No temporary file is left.
        let names: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.starts_with('.'))
            .collect();
        assert!(names.is_empty(), "{names:?}");
    }

    #[test]
    fn unfinished_writer_removes_its_temporary_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x.jsonl.gz");
        let mut w = JsonlWriter::create(&path, None).unwrap();
        w.write_record(&IngestRecord::new("s", "t")).unwrap();
        drop(w);
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    }
}
