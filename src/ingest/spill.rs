//! Bounded-memory ingestion: an external merge sort of the records.
//!
//! Each input file's records, sorted in canonical order, are written to a
//! *run* file in a temporary directory next to the output (per record: the
//! [`SortKey`] as a JSON line, then the record's final JSON line). The runs
//! are then merged (k-way, a binary heap keyed by the sort key, ties broken by
//! run order) and the record lines copied verbatim to the output. With more
//! than `fan_in` runs ([`default_fan_in`]: from the open-file limit),
//! consecutive groups are first merged into bigger runs, so no more than
//! `fan_in` files are open at once (per merging thread).
//!
//! Breaking ties by run order (= input file order) makes the result the
//! *stable* sort of all records in input order, which is what the in-memory
//! path computes ([`crate::formats::runtable::sort_records`]): both give the same bytes.

use crate::formats::jsonl::JsonlWriter;
use crate::formats::runtable::{IngestRecord, SortKey};
use anyhow::Context;
use std::cmp::{Ordering, Reverse};
use std::collections::BinaryHeap;
use std::fs::File;
use std::io::{BufRead, BufReader, BufWriter, Write};
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

impl SpillDir {
    /// Creates `.<output name>.spill-<pid>-<n>` in the output's directory (in
    /// the system's temporary directory when the output is a special file such
    /// as `/dev/null`, whose directory is no place for it).
    pub fn create(output: &Path) -> anyhow::Result<SpillDir> {
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
                    return Err(anyhow::anyhow!(
                        "{}: cannot create temporary directory: {e}",
                        path.display()
                    ));
                }
            }
        }
        anyhow::bail!("{}: cannot create temporary directory", parent.display())
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
}

fn write_err(path: &Path) -> impl FnOnce(std::io::Error) -> anyhow::Error + '_ {
    move |e| anyhow::anyhow!("{}: cannot write temporary file: {e}", path.display())
}

/// Writes records (already in canonical order) to a run file.
pub fn write_run(path: &Path, records: &[IngestRecord]) -> anyhow::Result<Run> {
    let file = File::create(path).map_err(write_err(path))?;
    let mut w = BufWriter::with_capacity(1 << 16, file);
    for r in records {
        serde_json::to_writer(&mut w, &r.sort_key())?;
        w.write_all(b"\n").map_err(write_err(path))?;
        serde_json::to_writer(&mut w, r)?;
        w.write_all(b"\n").map_err(write_err(path))?;
    }
    w.flush().map_err(write_err(path))?;
    Ok(Run {
        path: path.to_path_buf(),
    })
}

impl Run {
    /// The distinct tasks of the run's records (read back from its key lines).
    pub fn tasks(&self) -> anyhow::Result<std::collections::BTreeSet<String>> {
        let mut reader = RunReader::open(self)?;
        let mut tasks = std::collections::BTreeSet::new();
        while let Some(e) = reader.next()? {
            tasks.insert(e.key.task.into_owned());
        }
        Ok(tasks)
    }
}

/// One record read back from a run.
struct Entry {
    key: SortKey<'static>,
    /// The key line and the record line, each with its newline.
    key_line: Vec<u8>,
    line: Vec<u8>,
}

struct RunReader {
    path: PathBuf,
    reader: BufReader<File>,
}

impl RunReader {
    fn open(run: &Run) -> anyhow::Result<RunReader> {
        let file = File::open(&run.path)
            .with_context(|| format!("{}: cannot open temporary file", run.path.display()))?;
        Ok(RunReader {
            path: run.path.clone(),
            reader: BufReader::with_capacity(1 << 14, file),
        })
    }

    fn next(&mut self) -> anyhow::Result<Option<Entry>> {
        let read_err =
            |e: std::io::Error| anyhow::anyhow!("{}: cannot read: {e}", self.path.display());
        let mut key_line = Vec::new();
        if self
            .reader
            .read_until(b'\n', &mut key_line)
            .map_err(read_err)?
            == 0
        {
            return Ok(None);
        }
        let mut line = Vec::new();
        self.reader.read_until(b'\n', &mut line).map_err(read_err)?;
        if !key_line.ends_with(b"\n") || !line.ends_with(b"\n") {
            anyhow::bail!("{}: truncated temporary file", self.path.display());
        }
        let key = serde_json::from_slice(&key_line)
            .with_context(|| format!("{}: corrupt temporary file", self.path.display()))?;
        Ok(Some(Entry {
            key,
            key_line,
            line,
        }))
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
            .key
            .cmp(&other.entry.key)
            .then(self.run.cmp(&other.run))
    }
}

/// Merges runs in canonical order (ties: earlier run first), handing every
/// entry to `sink`. Each run file is removed once read.
fn merge(runs: &[Run], mut sink: impl FnMut(&Entry) -> anyhow::Result<()>) -> anyhow::Result<()> {
    let mut readers = runs
        .iter()
        .map(RunReader::open)
        .collect::<anyhow::Result<Vec<_>>>()?;
    let mut heap = BinaryHeap::with_capacity(readers.len());
    for (run, r) in readers.iter_mut().enumerate() {
        if let Some(entry) = r.next()? {
            heap.push(Reverse(Head { entry, run }));
        }
    }
    while let Some(Reverse(head)) = heap.pop() {
        sink(&head.entry)?;
        if let Some(entry) = readers[head.run].next()? {
            heap.push(Reverse(Head {
                entry,
                run: head.run,
            }));
        }
    }
    drop(readers);
    for r in runs {
        let _ = std::fs::remove_file(&r.path);
    }
    Ok(())
}

/// Merges the runs (in input order) into `out`, first reducing them to at
/// most `fan_in` by merging consecutive groups into runs in `dir`.
pub fn merge_into(
    dir: &SpillDir,
    mut runs: Vec<Run>,
    fan_in: usize,
    out: &mut JsonlWriter,
) -> anyhow::Result<()> {
    use rayon::prelude::*;
    let fan_in = fan_in.max(2);
    let mut pass = 0;
    while runs.len() > fan_in {
        pass += 1;
        runs = runs
            .par_chunks(fan_in)
            .enumerate()
            .map(|(i, group)| -> anyhow::Result<Run> {
                let path = dir.file(&format!("merge-{pass}-{i}"));
                let file = File::create(&path).map_err(write_err(&path))?;
                let mut w = BufWriter::with_capacity(1 << 16, file);
                merge(group, |e| {
                    w.write_all(&e.key_line).map_err(write_err(&path))?;
                    w.write_all(&e.line).map_err(write_err(&path))?;
                    Ok(())
                })?;
                w.flush().map_err(write_err(&path))?;
                Ok(Run { path: path.clone() })
            })
            .collect::<anyhow::Result<Vec<_>>>()?;
    }
    merge(&runs, |e| out.write_line(&e.line[..e.line.len() - 1]))
}
