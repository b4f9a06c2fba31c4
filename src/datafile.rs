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
    let file =
        File::open(path).map_err(|e| DataFileError::new(path, format!("cannot open: {e}")))?;
    let mut reader = BufReader::with_capacity(1 << 16, file);
    let mut magic = [0u8; 2];
    let n = peek(&mut reader, &mut magic)
        .map_err(|e| DataFileError::new(path, format!("cannot read: {e}")))?;
    if n == 2 && magic == [0x1f, 0x8b] {
        Ok(Box::new(BufReader::with_capacity(
            1 << 16,
            MultiGzDecoder::new(reader),
        )))
    } else {
        Ok(Box::new(reader))
    }
}

fn peek(reader: &mut BufReader<File>, buf: &mut [u8; 2]) -> std::io::Result<usize> {
    use std::io::BufRead;
    let available = reader.fill_buf()?;
    let n = available.len().min(2);
    buf[..n].copy_from_slice(&available[..n]);
    Ok(n)
}

/// Reads a JSON(.gz) file into `T`; errors name the file, line and column.
pub fn read_json<T: DeserializeOwned>(path: &Path) -> Result<T, DataFileError> {
    let reader = open(path)?;
    serde_json::from_reader(reader).map_err(|e| {
        let what = if e.is_io() {
            "cannot read (truncated or corrupt gzip?)"
        } else {
            "invalid content"
        };
        DataFileError::new(path, format!("{what}: {e}"))
    })
}

/// Writes `value` as JSON, gzip-compressed when `path` ends in `.gz`.
/// The file is written to a temporary name first and renamed, so readers never
/// see half a file.
pub fn write_json<T: Serialize>(path: &Path, value: &T) -> Result<(), DataFileError> {
    let tmp = path.with_extension(format!(
        "{}.tmp",
        path.extension().and_then(|e| e.to_str()).unwrap_or("")
    ));
    let err = |e: std::io::Error| DataFileError::new(path, format!("cannot write: {e}"));
    let file = File::create(&tmp).map_err(err)?;
    let gz = path.extension().is_some_and(|e| e == "gz");
    let result = if gz {
        let mut w = GzEncoder::new(BufWriter::new(file), Compression::default());
        serde_json::to_writer(&mut w, value)
            .map_err(std::io::Error::other)
            .and_then(|_| w.write_all(b"\n"))
            .and_then(|_| w.finish())
            .and_then(|mut b| b.flush())
    } else {
        let mut w = BufWriter::new(file);
        serde_json::to_writer_pretty(&mut w, value)
            .map_err(std::io::Error::other)
            .and_then(|_| w.write_all(b"\n"))
            .and_then(|_| w.flush())
    };
    result.map_err(err)?;
    std::fs::rename(&tmp, path).map_err(err)
}
