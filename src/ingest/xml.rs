//! Streaming reader of BenchExec result XML files (`.xml`, `.xml.bz2`, `.xml.gz`).
//!
//! The file is decompressed and parsed as a stream (quick-xml): memory does not
//! grow with the number of runs. Each `<run>` is handed to a callback as soon
//! as its end tag is read. Legacy names (`<test>` root, `<sourcefile>` runs)
//! are accepted (benchexec-formats.md section 9).

use quick_xml::XmlVersion;
use quick_xml::events::{BytesStart, Event};
use std::borrow::Cow;
use std::cell::Cell;
use std::fs::File;
use std::io::{BufRead, BufReader, Read};
use std::path::Path;
use std::rc::Rc;

/// Largest XML event (a tag with its attributes, or a text between tags) read;
/// a bigger one makes the file unreadable at that point (the runs before it
/// are kept). Bounds the parser's buffer whatever the (decompressed) input.
pub const MAX_ELEMENT_BYTES: u64 = 16 << 20;

/// Longest attribute value kept; longer ones are cut (at a character
/// boundary) and the cut is noted on the run (or the file).
pub const MAX_ATTRIBUTE_BYTES: usize = 64 << 10;

/// Columns kept per run; further ones are ignored and noted.
pub const MAX_COLUMNS_PER_RUN: usize = 1024;

/// Runs read from one result file (BenchExec writes a few thousand); the rest
/// of a bigger file is not read and the file is reported unreadable.
pub const MAX_RUNS_PER_FILE: u64 = 200_000;

/// Attribute bytes kept for the runs of one file (run names and column
/// values); a file holding more is unreadable from that run on. Bounds the
/// memory of one file's runs whatever their number and size.
pub const MAX_FILE_ATTRIBUTE_BYTES: u64 = 256 << 20;

/// The titles of the columns ingestion reads ([`XmlRun::column`]). Other
/// columns are checked (attribute syntax, entities, length) and counted like
/// these, but their values are not kept.
pub const READ_COLUMNS: [&str; 9] = [
    "status",
    "category",
    "cputime",
    "walltime",
    "memory",
    "memUsage",
    "returnvalue",
    "exitsignal",
    "terminationreason",
];

/// Attribute bytes of a run's own attributes (its columns are counted as they
/// are read).
fn run_bytes(r: &XmlRun) -> u64 {
    (r.name.len() + r.expected_verdict.as_ref().map_or(0, String::len)) as u64
}

/// `Read::read` of a [`BufRead`]: a copy out of its buffer.
fn read_through_buffer(r: &mut impl BufRead, out: &mut [u8]) -> std::io::Result<usize> {
    let avail = r.fill_buf()?;
    let n = avail.len().min(out.len());
    out[..n].copy_from_slice(&avail[..n]);
    r.consume(n);
    Ok(n)
}

/// A reader that fails once more than [`MAX_ELEMENT_BYTES`] were consumed
/// since the parser last reset the shared counter (after every event).
struct Capped<R> {
    inner: R,
    used: Rc<Cell<u64>>,
}

impl<R: BufRead> Read for Capped<R> {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        read_through_buffer(self, out)
    }
}

impl<R: BufRead> BufRead for Capped<R> {
    fn fill_buf(&mut self) -> std::io::Result<&[u8]> {
        if self.used.get() > MAX_ELEMENT_BYTES {
            return Err(std::io::Error::other(format!(
                "an element or text longer than {MAX_ELEMENT_BYTES} bytes"
            )));
        }
        self.inner.fill_buf()
    }

    fn consume(&mut self, n: usize) {
        self.used.set(self.used.get() + n as u64);
        self.inner.consume(n);
    }
}

/// Cuts `v` to [`MAX_ATTRIBUTE_BYTES`] (at a character boundary); the note
/// when it was cut, naming the attribute `element@key` (built only then: this
/// runs for every attribute of every run).
fn cap_attribute(element: &str, key: &str, v: &mut String) -> Option<String> {
    if v.len() <= MAX_ATTRIBUTE_BYTES {
        return None;
    }
    let full = v.len();
    let mut end = MAX_ATTRIBUTE_BYTES;
    while !v.is_char_boundary(end) {
        end -= 1;
    }
    v.truncate(end);
    Some(format!(
        "attribute {element}@{key} cut to {MAX_ATTRIBUTE_BYTES} of {full} bytes"
    ))
}

/// The root attributes of a result file that ingestion uses.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ResultHeader {
    /// `benchmarkname`: the benchmark-definition file name without `.xml`.
    pub benchmarkname: Option<String>,
    /// `name`: the run set (`<rundefinition>[.<tasks>]`).
    pub name: Option<String>,
    /// `block`: the task-set name (per-task-set files).
    pub block: Option<String>,
    /// `tool`: the tool-info's name.
    pub tool: Option<String>,
    /// `error`: set when the file is partial (`incomplete`, `interrupted`, …).
    pub error: Option<String>,
    /// Attributes that were cut ([`MAX_ATTRIBUTE_BYTES`]).
    pub cut: Vec<String>,
}

impl ResultHeader {
    /// The rundefinition name: `name` without the `.<block>` suffix
    /// (table-generator's rule, benchexec-formats.md 4.8). `None` for an
    /// unnamed rundefinition.
    pub fn rundefinition(&self) -> Option<&str> {
        let name = self.name.as_deref()?;
        match self.block.as_deref() {
            None => Some(name),
            Some(block) if block == name => None,
            Some(block) => Some(
                name.strip_suffix(block)
                    .and_then(|n| n.strip_suffix('.'))
                    .unwrap_or(name),
            ),
        }
    }
}

/// One `<run>` element.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct XmlRun {
    /// `name`: the task identifier, relative to the XML file's directory.
    pub name: String,
    /// `expectedVerdict`.
    pub expected_verdict: Option<String>,
    /// How many `<column>`s (with a title and a value) were read, at most
    /// [`MAX_COLUMNS_PER_RUN`]; 0 for a run BenchExec did not execute.
    pub columns: usize,
    /// The values of the [`READ_COLUMNS`] present (the first column of each
    /// title), one after another; `spans` says where each one is.
    values: String,
    /// Per [`READ_COLUMNS`] entry: the byte range of its value in `values`.
    spans: [Option<(usize, usize)>; READ_COLUMNS.len()],
    /// What was cut or ignored while reading the run (long attributes, columns
    /// beyond [`MAX_COLUMNS_PER_RUN`]).
    pub cut: Vec<String>,
}

impl XmlRun {
    /// The value of the first column titled `title` (`None` for a title not
    /// in [`READ_COLUMNS`]: those values are not kept).
    pub fn column(&self, title: &str) -> Option<&str> {
        let i = READ_COLUMNS.iter().position(|t| *t == title)?;
        let (start, end) = self.spans[i]?;
        self.values.get(start..end)
    }

    /// Counts a column and keeps its value if it is the first one of a
    /// [`READ_COLUMNS`] title.
    fn add_column(&mut self, title: &str, value: &str) {
        self.columns += 1;
        if let Some(i) = READ_COLUMNS.iter().position(|t| *t == title)
            && self.spans[i].is_none()
        {
            let start = self.values.len();
            self.values.push_str(value);
            self.spans[i] = Some((start, self.values.len()));
        }
    }
}

/// Why a result file could not be read (completely).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct XmlFailure {
    /// What went wrong.
    pub reason: String,
    /// Runs delivered before the failure.
    pub runs_read: u64,
}

/// Decompressed bytes produced at a time before they are parsed (per thread,
/// one buffer reused from file to file): decoding a few bzip2 blocks in one
/// go and then parsing them, instead of parsing between every 64 KiB of
/// output, took 4.11 s against 4.41 s for 100k runs with libbzip2 (means of
/// 12 runs; docs/performance.md, "Ingest: fewer system calls, decoding in big
/// chunks").
pub const DECODED_CHUNK_BYTES: usize = 4 << 20;

thread_local! {
    /// The chunk buffer of this thread's last finished reader.
    static SPARE_CHUNK: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// A [`BufRead`] over a decompressor that fills its whole buffer
/// ([`DECODED_CHUNK_BYTES`]) before handing it out; the buffer goes back to
/// the thread's spare slot when the reader is dropped.
struct ChunkReader<R> {
    inner: R,
    buf: Vec<u8>,
    pos: usize,
    filled: usize,
    /// An error of the decompressor met after some bytes of a chunk: given
    /// once those bytes are consumed.
    pending: Option<std::io::Error>,
}

impl<R: Read> ChunkReader<R> {
    fn new(inner: R) -> Self {
        let mut buf = SPARE_CHUNK.with(|s| std::mem::take(&mut *s.borrow_mut()));
        // Initialised once per thread, not per file.
        buf.resize(DECODED_CHUNK_BYTES, 0);
        ChunkReader {
            inner,
            buf,
            pos: 0,
            filled: 0,
            pending: None,
        }
    }
}

impl<R> Drop for ChunkReader<R> {
    fn drop(&mut self) {
        let buf = std::mem::take(&mut self.buf);
        SPARE_CHUNK.with(|s| *s.borrow_mut() = buf);
    }
}

impl<R: Read> Read for ChunkReader<R> {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        read_through_buffer(self, out)
    }
}

impl<R: Read> BufRead for ChunkReader<R> {
    fn fill_buf(&mut self) -> std::io::Result<&[u8]> {
        if self.pos == self.filled {
            if let Some(e) = self.pending.take() {
                return Err(e);
            }
            self.pos = 0;
            self.filled = 0;
            while self.filled < self.buf.len() {
                match self.inner.read(&mut self.buf[self.filled..]) {
                    Ok(0) => break,
                    Ok(n) => self.filled += n,
                    Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                    Err(e) if self.filled == 0 => return Err(e),
                    // The bytes decoded before the error first.
                    Err(e) => {
                        self.pending = Some(e);
                        break;
                    }
                }
            }
        }
        Ok(&self.buf[self.pos..self.filled])
    }

    fn consume(&mut self, n: usize) {
        self.pos = (self.pos + n).min(self.filled);
    }
}

/// Opens a result file, decompressing bzip2 or gzip (detected from the content).
///
/// bzip2 is decoded by our own decoder (`smtcomp_bunzip`); a file with a
/// block in the obsolete randomised mode (bzip2 0.9.0 and older) is decoded
/// again by the `bzip2` crate from the start, skipping the bytes already
/// delivered ([`Bunzip`]). Errors and trailing bytes after the last stream
/// are treated as by the `bzip2` crate's `MultiBzDecoder` (an error).
pub fn open_results(path: &Path) -> std::io::Result<Box<dyn BufRead + Send>> {
    let file = File::open(path)?;
    let mut reader = BufReader::with_capacity(1 << 16, file);
    let head = reader.fill_buf()?;
    Ok(if head.starts_with(b"BZh") {
        Box::new(ChunkReader::new(Bunzip {
            path: path.to_path_buf(),
            ours: Some(smtcomp_bunzip::Decoder::new(reader)),
            fallback: None,
            delivered: 0,
        }))
    } else if head.starts_with(&[0x1f, 0x8b]) {
        Box::new(ChunkReader::new(flate2::read::MultiGzDecoder::new(reader)))
    } else {
        Box::new(reader)
    })
}

/// Our bzip2 decoder, replaced by the `bzip2` crate's on a randomised block.
struct Bunzip {
    path: std::path::PathBuf,
    ours: Option<smtcomp_bunzip::Decoder<BufReader<File>>>,
    fallback: Option<bzip2::read::MultiBzDecoder<BufReader<File>>>,
    /// Bytes returned so far.
    delivered: u64,
}

impl Read for Bunzip {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        if let Some(d) = &mut self.ours {
            match d.read(out) {
                Ok(n) => {
                    self.delivered += n as u64;
                    return Ok(n);
                }
                Err(e) => {
                    let randomised = matches!(
                        smtcomp_bunzip::Error::of_io(&e),
                        Some(smtcomp_bunzip::Error::Randomised)
                    );
                    if !randomised {
                        return Err(e);
                    }
                    self.ours = None;
                    let file = BufReader::with_capacity(1 << 16, File::open(&self.path)?);
                    let mut d = bzip2::read::MultiBzDecoder::new(file);
                    // The bytes before the randomised block are the same
                    // whichever decoder produced them.
                    let skipped =
                        std::io::copy(&mut (&mut d).take(self.delivered), &mut std::io::sink())?;
                    if skipped != self.delivered {
                        return Err(std::io::Error::new(
                            std::io::ErrorKind::UnexpectedEof,
                            "bzip2 data shorter on the second reading",
                        ));
                    }
                    self.fallback = Some(d);
                }
            }
        }
        match &mut self.fallback {
            Some(d) => d.read(out),
            None => Ok(0),
        }
    }
}

/// A malformed attribute of an element of a result file (`element`: `<result>`
/// or `<column>`; `None` for a `<run>`).
#[derive(Debug, thiserror::Error)]
pub enum AttributeError {
    /// The attribute's syntax.
    #[error("bad attribute{}: {reason}", on(element))]
    Syntax {
        /// The element.
        element: Option<&'static str>,
        /// quick-xml's reason.
        reason: String,
    },
    /// The attribute's value (an unknown entity, ...).
    #[error("bad attribute value{}: {reason}", on(element))]
    Value {
        /// The element.
        element: Option<&'static str>,
        /// quick-xml's reason.
        reason: String,
    },
}

fn on(element: &Option<&'static str>) -> String {
    element.map(|e| format!(" on <{e}>")).unwrap_or_default()
}

fn syntax(
    element: Option<&'static str>,
) -> impl Fn(quick_xml::events::attributes::AttrError) -> AttributeError {
    move |err| AttributeError::Syntax {
        element,
        reason: err.to_string(),
    }
}

fn bad_value(element: Option<&'static str>) -> impl Fn(quick_xml::Error) -> AttributeError {
    move |err| AttributeError::Value {
        element,
        reason: err.to_string(),
    }
}

fn attr_value(
    e: &BytesStart<'_>,
    key: &str,
    cut: &mut Vec<String>,
) -> Result<Option<String>, AttributeError> {
    for a in e.attributes() {
        let a = a.map_err(syntax(None))?;
        if a.key.as_ref() == key {
            let mut v = a
                .normalized_value(XmlVersion::Implicit1_0)
                .map_err(bad_value(None))?
                .into_owned();
            cut.extend(cap_attribute("run", key, &mut v));
            return Ok(Some(v));
        }
    }
    Ok(None)
}

fn header_of(e: &BytesStart<'_>) -> Result<ResultHeader, AttributeError> {
    let mut h = ResultHeader::default();
    for a in e.attributes() {
        let a = a.map_err(syntax(Some("result")))?;
        let slot = match a.key.as_ref() {
            "benchmarkname" => &mut h.benchmarkname,
            "name" => &mut h.name,
            "block" => &mut h.block,
            "tool" => &mut h.tool,
            "error" => &mut h.error,
            _ => continue,
        };
        let mut v = a
            .normalized_value(XmlVersion::Implicit1_0)
            .map_err(bad_value(Some("result")))?
            .into_owned();
        if let Some(c) = cap_attribute("result", a.key.as_ref(), &mut v) {
            h.cut.push(c);
        }
        *slot = Some(v);
    }
    Ok(h)
}

fn run_of(e: &BytesStart<'_>) -> Result<XmlRun, AttributeError> {
    let mut cut = Vec::new();
    let name = attr_value(e, "name", &mut cut)?.unwrap_or_default();
    let expected_verdict = attr_value(e, "expectedVerdict", &mut cut)?;
    Ok(XmlRun {
        name,
        expected_verdict,
        cut,
        ..XmlRun::default()
    })
}

/// Reads the attributes of a `<column>` of `run`: when it has a title and a
/// value, counts it ([`XmlRun::add_column`]) and returns the bytes of both
/// (after normalization and the [`MAX_ATTRIBUTE_BYTES`] cut, as if kept).
/// Values are borrowed from the parser's buffer: only those kept are copied.
fn column_of(e: &BytesStart<'_>, run: &mut XmlRun) -> Result<Option<u64>, AttributeError> {
    if let Some((title, value)) = simple_column(e.attributes_raw()) {
        let (Some(title), Some(value)) = (title, value) else {
            return Ok(None);
        };
        run.add_column(title, value);
        return Ok(Some((title.len() + value.len()) as u64));
    }
    let mut title: Option<Cow<'_, str>> = None;
    let mut value: Option<Cow<'_, str>> = None;
    for a in e.attributes() {
        let a = a.map_err(syntax(Some("column")))?;
        let slot = match a.key.as_ref() {
            "title" => &mut title,
            "value" => &mut value,
            _ => continue,
        };
        let mut v = a
            .normalized_value(XmlVersion::Implicit1_0)
            .map_err(bad_value(Some("column")))?;
        if v.len() > MAX_ATTRIBUTE_BYTES {
            let mut owned = v.into_owned();
            run.cut
                .extend(cap_attribute("column", a.key.as_ref(), &mut owned));
            v = Cow::Owned(owned);
        }
        *slot = Some(v);
    }
    let (Some(title), Some(value)) = (title, value) else {
        return Ok(None);
    };
    run.add_column(&title, &value);
    Ok(Some((title.len() + value.len()) as u64))
}

/// The fast path of [`column_of`]: the `title` and `value` of a `<column>`
/// whose attributes (`raw`: the text after the element name) are all of the
/// plain form `key="value"`, separated by white space, with distinct simple
/// keys and values holding no `&`, `<`, tab or line break and not longer than
/// [`MAX_ATTRIBUTE_BYTES`], which is what BenchExec writes. For those, quick-xml's
/// attribute iterator and normalization return exactly these slices (nothing
/// to replace, nothing to cut, no error). Anything else: `None`, and the
/// caller takes the general path (errors, entities, cuts as before).
fn simple_column(raw: &str) -> Option<(Option<&str>, Option<&str>)> {
    const MAX_KEYS: usize = 8;
    let b = raw.as_bytes();
    let ws = |c: u8| matches!(c, b' ' | b'\t' | b'\r' | b'\n');
    let mut keys: [&[u8]; MAX_KEYS] = [&[]; MAX_KEYS];
    let mut n = 0;
    let (mut title, mut value) = (None, None);
    let mut i = 0;
    loop {
        let at_separator = i == 0 || b.get(i).is_some_and(|c| ws(*c));
        while b.get(i).is_some_and(|c| ws(*c)) {
            i += 1;
        }
        if i == b.len() {
            return Some((title, value));
        }
        if !at_separator || n == MAX_KEYS {
            return None;
        }
        let key_start = i;
        while b
            .get(i)
            .is_some_and(|c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'-' | b'.' | b':'))
        {
            i += 1;
        }
        let key = &b[key_start..i];
        if key.is_empty() || b.get(i) != Some(&b'=') || b.get(i + 1) != Some(&b'"') {
            return None;
        }
        let v_start = i + 2;
        let v_len = memchr::memchr(b'"', &b[v_start..])?;
        let v = &raw[v_start..v_start + v_len];
        if v_len > MAX_ATTRIBUTE_BYTES
            || v.bytes()
                .any(|c| matches!(c, b'&' | b'<' | b'\t' | b'\r' | b'\n'))
            || keys[..n].contains(&key)
        {
            return None;
        }
        keys[n] = key;
        n += 1;
        match key {
            b"title" => title = Some(v),
            b"value" => value = Some(v),
            _ => {}
        }
        i = v_start + v_len + 1;
    }
}

/// Parses a result document, calling `on_run` for every run (in file order).
/// Returns the root attributes, or the failure and how many runs were
/// delivered before it (a truncated `.bz2` delivers the runs before the cut).
///
/// Bounded: no event longer than [`MAX_ELEMENT_BYTES`], no more than
/// [`MAX_RUNS_PER_FILE`] runs; attribute values and columns are capped per run
/// (noted in [`XmlRun::cut`]). Malformed structure is a failure, never a
/// silent loss: a `<run>` inside a `<run>`, or a second root element.
pub fn parse<R: BufRead>(
    input: R,
    mut on_run: impl FnMut(&ResultHeader, XmlRun),
) -> Result<ResultHeader, XmlFailure> {
    let used = Rc::new(Cell::new(0u64));
    let mut reader = quick_xml::Reader::from_reader(Capped {
        inner: input,
        used: used.clone(),
    });
    reader.config_mut().trim_text(true);
    let mut buf = Vec::with_capacity(4096);
    let mut header: Option<ResultHeader> = None;
    let mut current: Option<XmlRun> = None;
    let mut extra_columns = 0u64;
    let mut runs = 0u64;
    let mut kept_bytes = 0u64;
    // Open elements; `root_closed` once the root's end tag was read.
    let mut depth = 0usize;
    let mut root_closed = false;
    let fail = |reason: String, runs_read: u64| XmlFailure { reason, runs_read };
    loop {
        used.set(0);
        let event = reader.read_event_into(&mut buf).map_err(|e| {
            fail(
                format!(
                    "malformed or truncated XML at byte {}: {e}",
                    reader.buffer_position()
                ),
                runs,
            )
        })?;
        let at = reader.buffer_position();
        match event {
            Event::Start(ref e) | Event::Empty(ref e) => {
                let empty = matches!(event, Event::Empty(_));
                if root_closed {
                    return Err(fail(
                        format!(
                            "malformed result file: a second root element <{}> at byte {at} (after the end of <result>)",
                            e.name().as_ref()
                        ),
                        runs,
                    ));
                }
                if !empty {
                    depth += 1;
                }
                match e.name().as_ref() {
                    "result" | "test" if header.is_none() => {
                        header = Some(header_of(e).map_err(|r| fail(r.to_string(), runs))?);
                        if empty {
                            root_closed = true;
                        }
                    }
                    "run" | "sourcefile" if header.is_some() => {
                        if let Some(outer) = &current {
                            return Err(fail(
                                format!(
                                    "malformed result file: a <run> inside the <run> '{}' at byte {at}; that run and the rest of the file are not read",
                                    outer.name.chars().take(200).collect::<String>()
                                ),
                                runs,
                            ));
                        }
                        if runs >= MAX_RUNS_PER_FILE {
                            return Err(fail(
                                format!(
                                    "more than {MAX_RUNS_PER_FILE} runs in one file; the rest is not read"
                                ),
                                runs,
                            ));
                        }
                        let run = run_of(e).map_err(|r| fail(r.to_string(), runs))?;
                        kept_bytes += run_bytes(&run);
                        if kept_bytes > MAX_FILE_ATTRIBUTE_BYTES {
                            return Err(fail(
                                format!(
                                    "the runs hold more than {MAX_FILE_ATTRIBUTE_BYTES} bytes of attributes; the rest of the file is not read"
                                ),
                                runs,
                            ));
                        }
                        if empty {
                            runs += 1;
                            on_run(header.as_ref().expect("checked"), run);
                        } else {
                            extra_columns = 0;
                            current = Some(run);
                        }
                    }
                    "column" => {
                        if let Some(run) = current.as_mut() {
                            if run.columns >= MAX_COLUMNS_PER_RUN {
                                extra_columns += 1;
                            } else if let Some(col_bytes) =
                                column_of(e, run).map_err(|r| fail(r.to_string(), runs))?
                            {
                                kept_bytes += col_bytes;
                                if kept_bytes > MAX_FILE_ATTRIBUTE_BYTES {
                                    return Err(fail(
                                        format!(
                                            "the runs hold more than {MAX_FILE_ATTRIBUTE_BYTES} bytes of attributes; the rest of the file is not read"
                                        ),
                                        runs,
                                    ));
                                }
                            }
                        }
                    }
                    _ if header.is_none() => {
                        return Err(fail(
                            format!(
                                "not a BenchExec result file: root element <{}>",
                                e.name().as_ref()
                            ),
                            runs,
                        ));
                    }
                    _ => {}
                }
            }
            Event::End(ref e) => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    root_closed = true;
                }
                if matches!(e.name().as_ref(), "run" | "sourcefile")
                    && let Some(mut run) = current.take()
                {
                    if extra_columns > 0 {
                        run.cut.push(format!(
                            "{extra_columns} columns beyond the first {MAX_COLUMNS_PER_RUN} ignored"
                        ));
                    }
                    runs += 1;
                    on_run(header.as_ref().expect("runs only after the root"), run);
                }
            }
            Event::Eof => break,
            _ => {}
        }
        buf.clear();
        if buf.capacity() > 1 << 20 {
            // One big element does not keep its buffer for the whole file.
            buf = Vec::with_capacity(4096);
        }
    }
    if current.is_some() {
        return Err(fail("truncated XML: file ends inside a <run>".into(), runs));
    }
    if header.is_some() && !root_closed {
        return Err(fail(
            "truncated XML: file ends before the end of <result>".into(),
            runs,
        ));
    }
    header.ok_or_else(|| {
        fail(
            "not a BenchExec result file: no <result> element".into(),
            runs,
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bz2(data: &[u8], level: u32) -> Vec<u8> {
        use std::io::Write;
        let mut e = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::new(level));
        e.write_all(data).unwrap();
        e.finish().unwrap()
    }

    /// A stream whose first block has the randomised bit set (bit 0 of byte
    /// 14) and is shorter than 619 bytes: the derandomisation leaves it
    /// unchanged (the first entry of its table is 619), so it is a valid
    /// randomised stream the `bzip2` crate decodes. Our decoder reports it;
    /// `open_results` then decodes the file again with the `bzip2` crate,
    /// skipping the bytes of the first (normal, several-block) stream.
    #[test]
    fn a_randomised_block_falls_back_to_the_bzip2_crate() {
        let first: Vec<u8> = (0..250_000u32)
            .flat_map(|i| format!("<run n=\"{i}\"/>\n").into_bytes())
            .collect();
        let second = b"<result>randomised but valid</result>\n";
        let mut r = bz2(second, 9);
        assert_eq!(r[14] & 0x80, 0);
        r[14] |= 0x80;
        let mut file = bz2(&first, 1);
        assert!(file.len() > 20_000, "several blocks");
        file.extend_from_slice(&r);
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("r.xml.bz2");
        std::fs::write(&path, &file).unwrap();
        // Our decoder alone stops at the randomised block.
        let mut ours = smtcomp_bunzip::Decoder::new(&file[..]);
        let err = std::io::copy(&mut ours, &mut std::io::sink()).unwrap_err();
        assert!(matches!(
            smtcomp_bunzip::Error::of_io(&err),
            Some(smtcomp_bunzip::Error::Randomised)
        ));
        let mut got = Vec::new();
        open_results(&path).unwrap().read_to_end(&mut got).unwrap();
        let mut want = first.clone();
        want.extend_from_slice(second);
        assert!(got == want, "{} bytes, want {}", got.len(), want.len());
    }

    /// Bytes after the last stream are an error, as with `MultiBzDecoder`,
    /// after the whole stream's data was delivered.
    #[test]
    fn trailing_bytes_after_the_last_stream_are_an_error() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("r.xml.bz2");
        let mut file = bz2(b"<result/>", 9);
        file.extend_from_slice(b"junk");
        std::fs::write(&path, &file).unwrap();
        let mut got = Vec::new();
        let mut input = open_results(&path).unwrap();
        assert!(input.read_to_end(&mut got).is_err());
        assert_eq!(got, b"<result/>");
    }

    /// Gives `data` in pieces of `piece` bytes, then fails (once `fail`).
    struct Failing {
        data: Vec<u8>,
        at: usize,
        piece: usize,
        fail: bool,
    }

    impl Read for Failing {
        fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
            if self.at == self.data.len() {
                return if self.fail {
                    Err(std::io::Error::other("broken stream"))
                } else {
                    Ok(0)
                };
            }
            let n = self.piece.min(out.len()).min(self.data.len() - self.at);
            out[..n].copy_from_slice(&self.data[self.at..self.at + n]);
            self.at += n;
            Ok(n)
        }
    }

    #[test]
    fn chunk_reader_gives_the_bytes_before_an_error_then_the_error() {
        let data: Vec<u8> = (0..10_000u32).map(|i| (i % 251) as u8).collect();
        let mut r = ChunkReader::new(Failing {
            data: data.clone(),
            at: 0,
            piece: 777,
            fail: true,
        });
        let mut got = Vec::new();
        let err = r.read_to_end(&mut got).unwrap_err();
        assert_eq!(got, data);
        assert_eq!(err.to_string(), "broken stream");
        // A fresh reader on the same thread reuses the buffer, from the start.
        let mut r = ChunkReader::new(Failing {
            data: b"<result/>".to_vec(),
            at: 0,
            piece: 3,
            fail: false,
        });
        let mut s = String::new();
        r.read_to_string(&mut s).unwrap();
        assert_eq!(s, "<result/>");
    }

    #[test]
    fn rundefinition_follows_table_generator() {
        let h = |name: &str, block: Option<&str>| ResultHeader {
            name: Some(name.into()),
            block: block.map(Into::into),
            ..Default::default()
        };
        assert_eq!(
            h("cvc5,0,SingleQuery.task", Some("task")).rundefinition(),
            Some("cvc5,0,SingleQuery")
        );
        assert_eq!(h("r", None).rundefinition(), Some("r"));
        assert_eq!(h("t", Some("t")).rundefinition(), None);
    }

    #[test]
    fn simple_columns_take_the_fast_path_only_when_plain() {
        let plain = simple_column(r#" title="status" value="true" hidden="x""#);
        assert_eq!(plain, Some((Some("status"), Some("true"))));
        assert_eq!(simple_column(""), Some((None, None)));
        assert_eq!(simple_column(r#" value="1""#), Some((None, Some("1"))));
        // Entities, line breaks, single quotes, duplicates, missing white
        // space, spaces around '=': the general path.
        for raw in [
            r#" title="a&amp;b" value="1""#,
            " title=\"a\nb\" value=\"1\"",
            r#" title='status' value="1""#,
            r#" title="a" title="b""#,
            r#" title="a"value="1""#,
            r#" title = "a""#,
            r#" title="a"#,
            r#" ti&tle="a""#,
        ] {
            assert_eq!(simple_column(raw), None, "{raw}");
        }
    }

    #[test]
    fn fast_and_general_column_paths_agree() {
        // The same columns through the fast path (plain) and the general
        // one (a character reference forces it): same values, same counts.
        let doc = |v: &str| {
            format!(
                r#"<result name="r"><run name="a"><column title="status" value="{v}"/><column title="cputime" value="2s" hidden="true"/><column title="status" value="no"/></run></result>"#
            )
        };
        let mut runs = Vec::new();
        parse(doc("sat").as_bytes(), |_, r| runs.push(r)).unwrap();
        parse(doc("s&#97;t").as_bytes(), |_, r| runs.push(r)).unwrap();
        assert_eq!(runs[0], runs[1]);
        assert_eq!(runs[0].column("status"), Some("sat"));
        assert_eq!(runs[0].column("cputime"), Some("2s"));
        assert_eq!(runs[0].columns, 3);
    }

    #[test]
    fn parses_runs_and_reports_truncation() {
        let xml = r#"<?xml version="1.0"?><result name="s,0,SingleQuery.task" block="task">
<run name="../a.yml" expectedVerdict="true"><column title="status" value="true"/><column title="cputime" value="1.5s"/></run>
<run name="../b.yml"/>
<column title="cputime" value="9s"/></result>"#;
        let mut runs = Vec::new();
        let h = parse(xml.as_bytes(), |_, r| runs.push(r)).unwrap();
        assert_eq!(h.rundefinition(), Some("s,0,SingleQuery"));
        assert_eq!(runs.len(), 2);
        assert_eq!(runs[0].column("cputime"), Some("1.5s"));
        assert_eq!(runs[0].expected_verdict.as_deref(), Some("true"));
        assert_eq!(runs[0].columns, 2);
        assert_eq!(runs[1].columns, 0);
        let cut = &xml[..xml.find("<run name=\"../b").unwrap() + 5];
        let mut n = 0;
        let err = parse(cut.as_bytes(), |_, _| n += 1).unwrap_err();
        assert_eq!(err.runs_read, 1);
        assert_eq!(n, 1);
        assert!(err.reason.contains("truncated"), "{}", err.reason);
        let err = parse(&b"<html/>"[..], |_, _| ()).unwrap_err();
        assert!(err.reason.contains("root element <html>"), "{}", err.reason);
    }
}
