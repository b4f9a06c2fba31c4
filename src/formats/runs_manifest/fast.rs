//! The fast manifest reader, for the layout `generate` writes:
//! `{"format": N, "runs": [{...}, ...]}`, with any whitespace.
//!
//! Three threads share the work (the 2025 manifest: 720 MB of JSON, 1.8
//! million runs, 3.2 s through serde on one thread): one inflates the gzip
//! ([`datafile::open_prefetched`]); one parses the text a run object at a
//! time from the bytes in memory ([`serde_json::Deserializer::from_slice`],
//! strings borrowed, not allocated) and hands batches of runs over, their
//! strings copied into one buffer per batch; the caller's thread adds them to
//! the index. Anything else (another key order, a format it does not read,
//! invalid JSON, a run object over [`MAX_RUN_BYTES`], a read error) makes it
//! give up (`None`), and the streaming reader ([`super::read`]) reads the
//! file from the start and says what is wrong.

use super::{MANIFEST_FORMAT, ManifestIndex, NewBenchmark, NewRun};
use crate::formats::datafile;
use crate::model::Track;
use serde::Deserialize;
use std::borrow::Cow;
use std::io::Read;
use std::path::Path;
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};

/// The longest run object the fast reader takes (the 2025 runs are about 400
/// bytes); a longer one is left to the streaming reader, so the fast reader's
/// buffer stays bounded whatever the file holds.
pub(super) const MAX_RUN_BYTES: usize = 1 << 16;

/// Decompressed bytes read at a time.
pub(super) const READ_CHUNK: usize = 1 << 20;

/// Runs handed over at a time (about 1 MB of strings).
const BATCH_RUNS: usize = 4096;

/// Batches parsed ahead of the thread that adds them (bounds the memory).
const BATCHES_AHEAD: usize = 2;

/// The fast reader: `None` when the file is not in the layout it takes, or
/// cannot be read or parsed (the streaming reader then says why).
pub(super) fn read_fast(path: &Path) -> Option<ManifestIndex> {
    let text = Text {
        src: datafile::open_prefetched(path).ok()?,
        buf: Vec::with_capacity(2 * READ_CHUNK),
        pos: 0,
    };
    let (tx, rx) = sync_channel(BATCHES_AHEAD);
    std::thread::scope(|s| {
        let parser = s.spawn(move || parse(text, tx));
        let index = add_batches(rx);
        // The parser's verdict: the text was complete and well-formed.
        parser.join().ok().flatten().map(|()| index)
    })
}

/// Adds every batch received to a new index.
fn add_batches(rx: Receiver<Batch>) -> ManifestIndex {
    let mut index = ManifestIndex::default();
    for batch in rx {
        let text = |(from, len): (u32, u32)| &batch.text[from as usize..(from + len) as usize];
        let family: Vec<&str> = batch.family.iter().map(|&r| text(r)).collect();
        for r in &batch.runs {
            let [
                definition,
                rundefinition,
                task,
                solver,
                division,
                logic,
                bench_logic,
                name,
            ] = r.strings.map(text);
            let (from, len) = r.family;
            index.push(&NewRun {
                benchmark_definition: definition,
                rundefinition,
                task,
                solver,
                participation: r.participation,
                track: r.track,
                division,
                logic,
                benchmark: NewBenchmark {
                    incremental: r.incremental,
                    logic: bench_logic,
                    family: &family[from as usize..(from + len) as usize],
                    name,
                },
            });
        }
    }
    index
}

/// Parses the whole text, sending the runs in batches; `None` when it is not
/// a manifest in the layout read here (the batches sent are then discarded).
fn parse(mut text: Text, tx: SyncSender<Batch>) -> Option<()> {
    text.expect(b"{")?;
    text.expect(b"\"format\"")?;
    text.expect(b":")?;
    if text.natural()? != MANIFEST_FORMAT {
        return None;
    }
    text.expect(b",")?;
    text.expect(b"\"runs\"")?;
    text.expect(b":")?;
    text.expect(b"[")?;
    let mut batch = Batch::default();
    if text.peek()? == b']' {
        text.pos += 1;
    } else {
        loop {
            if text.peek()? != b'{' {
                return None;
            }
            text.parse_run(&mut batch)?;
            if batch.runs.len() == BATCH_RUNS {
                tx.send(std::mem::take(&mut batch)).ok()?;
            }
            match text.peek()? {
                b',' => text.pos += 1,
                b']' => {
                    text.pos += 1;
                    break;
                }
                _ => return None,
            }
        }
    }
    text.expect(b"}")?;
    // Nothing but whitespace after the object.
    if text.peek().is_some() {
        return None;
    }
    tx.send(batch).ok()
}

/// Runs parsed, their strings in one buffer (as `(start, length)`).
#[derive(Default)]
struct Batch {
    text: String,
    runs: Vec<ParsedRun>,
    /// The family parts of all runs.
    family: Vec<(u32, u32)>,
}

/// A run of a [`Batch`].
struct ParsedRun {
    /// Definition, rundefinition, task, solver, division, logic, benchmark
    /// logic, benchmark name.
    strings: [(u32, u32); 8],
    participation: u32,
    track: Track,
    incremental: bool,
    /// Its family parts: `(first, count)` in [`Batch::family`].
    family: (u32, u32),
}

impl Batch {
    /// Copies `s` into the buffer.
    fn put(&mut self, s: &str) -> (u32, u32) {
        let from = self.text.len() as u32;
        self.text.push_str(s);
        (from, s.len() as u32)
    }

    fn add(&mut self, r: &RunFields<'_>) {
        let strings = [
            &r.benchmark_definition,
            &r.rundefinition,
            &r.task,
            &r.solver,
            &r.division,
            &r.logic,
            &r.benchmark.logic,
            &r.benchmark.name,
        ]
        .map(|s| self.put(s));
        let first = self.family.len() as u32;
        for part in &r.benchmark.family {
            let at = self.put(part);
            self.family.push(at);
        }
        self.runs.push(ParsedRun {
            strings,
            participation: r.participation,
            track: r.track,
            incremental: r.benchmark.incremental,
            family: (first, r.benchmark.family.len() as u32),
        });
    }
}

/// A run object as written by `generate`, its strings borrowed where they
/// have no escapes (the fields of [`super::ManifestRun`], with the same
/// checks: every field required, no other field).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RunFields<'a> {
    #[serde(borrow)]
    benchmark_definition: Cow<'a, str>,
    #[serde(borrow)]
    rundefinition: Cow<'a, str>,
    #[serde(borrow)]
    task: Cow<'a, str>,
    #[serde(borrow)]
    solver: Cow<'a, str>,
    participation: u32,
    track: Track,
    #[serde(borrow)]
    division: Cow<'a, str>,
    #[serde(borrow)]
    logic: Cow<'a, str>,
    #[serde(borrow)]
    benchmark: BenchmarkFields<'a>,
}

/// The benchmark of a [`RunFields`] (the fields of
/// [`crate::formats::inventory::Smt2File`]).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct BenchmarkFields<'a> {
    incremental: bool,
    #[serde(borrow)]
    logic: Cow<'a, str>,
    #[serde(borrow)]
    family: Vec<Cow<'a, str>>,
    #[serde(borrow)]
    name: Cow<'a, str>,
}

/// The decompressed text, read a chunk at a time: `buf[pos..]` is unread.
struct Text {
    src: Box<dyn Read + Send>,
    buf: Vec<u8>,
    pos: usize,
}

impl Text {
    /// Reads more (keeping `buf[pos..]`); `None` at the end or on an error.
    fn more(&mut self) -> Option<()> {
        if self.pos > 0 {
            self.buf.drain(..self.pos);
            self.pos = 0;
        }
        let len = self.buf.len();
        self.buf.resize(len + READ_CHUNK, 0);
        let got = loop {
            match self.src.read(&mut self.buf[len..]) {
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                other => break other,
            }
        };
        let n = got.ok().filter(|&n| n > 0);
        self.buf.truncate(len + n.unwrap_or(0));
        n.map(|_| ())
    }

    /// The next byte that is not whitespace (not consumed); `None` at the end.
    fn peek(&mut self) -> Option<u8> {
        loop {
            match self.buf[self.pos..]
                .iter()
                .position(|b| !b.is_ascii_whitespace())
            {
                Some(i) => {
                    self.pos += i;
                    return Some(self.buf[self.pos]);
                }
                None => {
                    self.pos = self.buf.len();
                    self.more()?;
                }
            }
        }
    }

    /// Consumes `token` after whitespace.
    fn expect(&mut self, token: &[u8]) -> Option<()> {
        self.peek()?;
        while self.buf.len() - self.pos < token.len() {
            self.more()?;
        }
        (self.buf[self.pos..].starts_with(token)).then(|| self.pos += token.len())
    }

    /// A JSON natural number after whitespace (the format).
    fn natural(&mut self) -> Option<u32> {
        self.peek()?;
        let digits = self.buf[self.pos..]
            .iter()
            .take_while(|b| b.is_ascii_digit())
            .count();
        // The number must end inside the buffer (it is followed by `,`).
        if digits == 0 || self.pos + digits == self.buf.len() {
            return None;
        }
        let text = std::str::from_utf8(&self.buf[self.pos..self.pos + digits]).ok()?;
        if text.len() > 1 && text.starts_with('0') {
            return None;
        }
        self.pos += digits;
        text.parse().ok()
    }

    /// Parses the run object at `pos` (consumed) into `batch`, reading
    /// further as needed; `None` when it is not a run, or is longer than
    /// [`MAX_RUN_BYTES`], or the text ends first.
    fn parse_run(&mut self, batch: &mut Batch) -> Option<()> {
        loop {
            let mut runs = serde_json::Deserializer::from_slice(&self.buf[self.pos..])
                .into_iter::<RunFields<'_>>();
            match runs.next()? {
                Ok(run) => {
                    batch.add(&run);
                    self.pos += runs.byte_offset();
                    return Some(());
                }
                // Cut by the end of the buffer.
                Err(e) if e.is_eof() && self.buf.len() - self.pos <= MAX_RUN_BYTES => {
                    self.more()?
                }
                Err(_) => return None,
            }
        }
    }
}
