//! Reading and writing JSON data files, gzip-compressed or not.
//!
//! Compression is detected from the content (gzip magic bytes) when reading and
//! chosen from the `.gz` extension when writing. Written gzip streams carry no
//! timestamp, so the same data gives byte-identical files.

use flate2::Compression;
use flate2::read::MultiGzDecoder;
use flate2::write::GzEncoder;
use serde::Serialize;
use serde::de::DeserializeOwned;
use std::fs::File;
use std::io::{BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};

/// A data file that could not be read or written.
#[derive(Debug, thiserror::Error)]
#[error("{path}: {reason}")]
pub struct DataFileError {
    /// The file.
    pub path: PathBuf,
    /// What went wrong.
    pub reason: String,
}

impl DataFileError {
    /// An error about `path`.
    pub fn new(path: &Path, reason: impl Into<String>) -> Self {
        DataFileError {
            path: path.to_path_buf(),
            reason: reason.into(),
        }
    }
}

/// Opens `path` for reading, transparently decompressing gzip.
pub fn open(path: &Path) -> Result<Box<dyn Read>, DataFileError> {
    Ok(match open_sniffed(path)? {
        (reader, true) => Box::new(BufReader::with_capacity(
            1 << 16,
            MultiGzDecoder::new(reader),
        )),
        (reader, false) => Box::new(reader),
    })
}

/// [`open`], with a gzip stream decompressed by a second thread, a few chunks
/// ahead of the reader: the caller parses while the next chunk is inflated
/// (`smtcomp score` of a 500,000-run table: gunzip is a third of the work).
/// Errors of the decompression reach the reader in order, as from [`open`].
pub fn open_prefetched(path: &Path) -> Result<Box<dyn Read + Send>, DataFileError> {
    Ok(match open_sniffed(path)? {
        (reader, true) => Box::new(Prefetched::spawn(MultiGzDecoder::new(reader))),
        (reader, false) => Box::new(reader),
    })
}

/// Opens `path` buffered and tells whether it starts with the gzip magic bytes
/// (nothing is consumed).
fn open_sniffed(path: &Path) -> Result<(BufReader<File>, bool), DataFileError> {
    let file =
        File::open(path).map_err(|e| DataFileError::new(path, format!("cannot open: {e}")))?;
    let mut reader = BufReader::with_capacity(1 << 16, file);
    let mut magic = [0u8; 2];
    let n = peek(&mut reader, &mut magic)
        .map_err(|e| DataFileError::new(path, format!("cannot read: {e}")))?;
    Ok((reader, n == 2 && magic == [0x1f, 0x8b]))
}

/// The decompressed bytes per chunk handed from the decompression thread.
const PREFETCH_CHUNK: usize = 1 << 20;
/// Chunks decompressed ahead of the reader (bounds the memory to a few MB).
const PREFETCH_AHEAD: usize = 4;

/// A reader fed by a thread that reads `inner` ([`open_prefetched`]).
struct Prefetched {
    chunks: std::sync::mpsc::Receiver<std::io::Result<Vec<u8>>>,
    current: Vec<u8>,
    at: usize,
    done: bool,
}

impl Prefetched {
    fn spawn(mut inner: impl Read + Send + 'static) -> Prefetched {
        let (tx, rx) = std::sync::mpsc::sync_channel(PREFETCH_AHEAD);
        std::thread::spawn(move || {
            loop {
                let mut chunk = vec![0u8; PREFETCH_CHUNK];
                let mut len = 0;
                let got = loop {
                    match inner.read(&mut chunk[len..]) {
                        Ok(0) => break Ok(()),
                        Ok(n) => {
                            len += n;
                            if len == chunk.len() {
                                break Ok(());
                            }
                        }
                        Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                        Err(e) => break Err(e),
                    }
                };
                chunk.truncate(len);
                let end = len < PREFETCH_CHUNK;
                // The reader gone (it stopped early): nothing more to do.
                if len > 0 && tx.send(Ok(chunk)).is_err() {
                    return;
                }
                if let Err(e) = got {
                    let _ = tx.send(Err(e));
                    return;
                }
                if end {
                    return;
                }
            }
        });
        Prefetched {
            chunks: rx,
            current: Vec::new(),
            at: 0,
            done: false,
        }
    }
}

impl Read for Prefetched {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        while self.at == self.current.len() {
            if self.done {
                return Ok(0);
            }
            match self.chunks.recv() {
                Ok(Ok(chunk)) => {
                    self.current = chunk;
                    self.at = 0;
                }
                Ok(Err(e)) => {
                    self.done = true;
                    return Err(e);
                }
                // The thread finished (end of stream).
                Err(_) => {
                    self.done = true;
                    return Ok(0);
                }
            }
        }
        let n = buf.len().min(self.current.len() - self.at);
        buf[..n].copy_from_slice(&self.current[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}

fn peek(reader: &mut BufReader<File>, buf: &mut [u8; 2]) -> std::io::Result<usize> {
    use std::io::BufRead;
    let available = reader.fill_buf()?;
    let n = available.len().min(2);
    buf[..n].copy_from_slice(&available[..n]);
    Ok(n)
}

/// The most bytes a data file may decompress to (a bound on untrusted input:
/// the 2025 inventory is 114 MB of JSON).
pub const MAX_DATA_BYTES: u64 = 4 << 30;

/// The whole (decompressed) content of a data file, gzip or not, at most
/// [`MAX_DATA_BYTES`].
pub fn read_bytes(path: &Path) -> Result<Vec<u8>, DataFileError> {
    let mut out = Vec::new();
    open(path)?
        .take(MAX_DATA_BYTES + 1)
        .read_to_end(&mut out)
        .map_err(|e| {
            DataFileError::new(
                path,
                format!("cannot read (truncated or corrupt gzip?): {e}"),
            )
        })?;
    if out.len() as u64 > MAX_DATA_BYTES {
        return Err(DataFileError::new(
            path,
            format!("larger than {MAX_DATA_BYTES} bytes uncompressed"),
        ));
    }
    Ok(out)
}

/// The rest of `reader`, at most [`MAX_DATA_BYTES`] (an error beyond).
pub fn read_to_end_bounded(reader: &mut impl Read) -> std::io::Result<Vec<u8>> {
    let mut out = Vec::new();
    reader.take(MAX_DATA_BYTES + 1).read_to_end(&mut out)?;
    if out.len() as u64 > MAX_DATA_BYTES {
        return Err(std::io::Error::other(format!(
            "larger than {MAX_DATA_BYTES} bytes uncompressed"
        )));
    }
    Ok(out)
}

/// Reads a JSON(.gz) file into `T`; errors name the file, line and column.
///
/// The file is read (and decompressed) into memory first and parsed with
/// `serde_json::from_slice`: parsing from a reader pulls the stream byte by
/// byte and takes twice as long on large files (the 2025 inventory).
pub fn read_json<T: DeserializeOwned>(path: &Path) -> Result<T, DataFileError> {
    let bytes = read_bytes(path)?;
    parse_json(path, &bytes)
}

/// Parses JSON `bytes` read from `path`; errors name the file, line and column.
pub fn parse_json<T: DeserializeOwned>(path: &Path, bytes: &[u8]) -> Result<T, DataFileError> {
    serde_json::from_slice(bytes)
        .map_err(|e| DataFileError::new(path, format!("invalid content: {e}")))
}

/// The temporary name (`.<name>.tmp` next to it) under which `path` is written
/// before being renamed over it, or `None` when `path` exists and is not a
/// regular file (`/dev/null`, a FIFO): such a target is written in place.
pub fn temporary_sibling(path: &Path) -> Option<PathBuf> {
    if std::fs::metadata(path).is_ok_and(|m| !m.file_type().is_file()) {
        return None;
    }
    Some(path.with_file_name(format!(
        ".{}.tmp",
        path.file_name().unwrap_or_default().to_string_lossy()
    )))
}

/// Writes `path` through `write`, so readers never see half a file: a regular
/// file (or a new one) is written under a temporary sibling name and renamed
/// over `path` once `write` succeeded (the temporary file is removed if it
/// failed). Anything else (`/dev/null`, a FIFO, `/dev/stdout`) is written in
/// place: renaming over it would replace the device node with a plain file.
pub fn write_replacing(
    path: &Path,
    write: impl FnOnce(File) -> std::io::Result<()>,
) -> std::io::Result<()> {
    let Some(tmp) = temporary_sibling(path) else {
        return write(std::fs::OpenOptions::new().write(true).open(path)?);
    };
    let result = File::create(&tmp).and_then(write).and_then(|_| {
        let name = path.file_name().unwrap_or_default().to_string_lossy();
        crate::util::fault::point("write", &name);
        std::fs::rename(&tmp, path)
    });
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

/// Writes `value` as JSON, gzip-compressed when `path` ends in `.gz`, through
/// [`write_replacing`] (readers never see half a file).
pub fn write_json<T: Serialize>(path: &Path, value: &T) -> Result<(), DataFileError> {
    let gz = path.extension().is_some_and(|e| e == "gz");
    write_replacing(path, |file| {
        if gz {
            let mut w = GzEncoder::new(
                BufWriter::with_capacity(1 << 20, file),
                Compression::default(),
            );
            serde_json::to_writer(&mut w, value).map_err(std::io::Error::other)?;
            w.write_all(b"\n")?;
            w.finish()?.flush()
        } else {
            let mut w = BufWriter::with_capacity(1 << 20, file);
            serde_json::to_writer_pretty(&mut w, value).map_err(std::io::Error::other)?;
            w.write_all(b"\n")?;
            w.flush()
        }
    })
    .map_err(|e| DataFileError::new(path, format!("cannot write: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::FileTypeExt;

    #[test]
    fn replaces_regular_files_and_leaves_no_temporary_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.json");
        std::fs::write(&path, "old").unwrap();
        write_json(&path, &vec![1, 2]).unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "[\n  1,\n  2\n]\n");
        let failed = write_replacing(&path, |_| Err(std::io::Error::other("boom")));
        assert!(failed.is_err());
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
        assert!(std::fs::read_to_string(&path).unwrap().starts_with('['));
    }

    /// Output to `/dev/null` or a FIFO must not replace the special file (a
    /// rename over `/dev/null` once turned it into a plain file on a test machine).
    #[test]
    fn writes_special_files_in_place() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("pipe.json.gz");
        let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        let reader = {
            let fifo = fifo.clone();
            std::thread::spawn(move || std::fs::read(&fifo).unwrap())
        };
        write_json(&fifo, &"x").unwrap();
        let got = reader.join().unwrap();
        assert_eq!(&got[..2], &[0x1f, 0x8b], "gzip stream through the FIFO");
        assert!(std::fs::metadata(&fifo).unwrap().file_type().is_fifo());
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }
}
