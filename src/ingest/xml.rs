//! Streaming reader of BenchExec result XML files (`.xml`, `.xml.bz2`, `.xml.gz`).
//!
//! The file is decompressed and parsed as a stream (quick-xml): memory does not
//! grow with the number of runs. Each `<run>` is handed to a callback as soon
//! as its end tag is read. Legacy names (`<test>` root, `<sourcefile>` runs)
//! are accepted (benchexec-formats.md section 9).

use quick_xml::XmlVersion;
use quick_xml::events::{BytesStart, Event};
use std::fs::File;
use std::io::{BufRead, BufReader};
use std::path::Path;

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
    /// `(title, value)` of every `<column>`, in file order.
    pub columns: Vec<(String, String)>,
}

impl XmlRun {
    /// The value of the first column titled `title`.
    pub fn column(&self, title: &str) -> Option<&str> {
        self.columns
            .iter()
            .find(|(t, _)| t == title)
            .map(|(_, v)| v.as_str())
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

/// Opens a result file, decompressing bzip2 or gzip (detected from the content).
pub fn open_results(path: &Path) -> std::io::Result<Box<dyn BufRead + Send>> {
    let file = File::open(path)?;
    let mut reader = BufReader::with_capacity(1 << 16, file);
    let head = reader.fill_buf()?;
    Ok(if head.starts_with(b"BZh") {
        Box::new(BufReader::with_capacity(
            1 << 16,
            bzip2::read::MultiBzDecoder::new(reader),
        ))
    } else if head.starts_with(&[0x1f, 0x8b]) {
        Box::new(BufReader::with_capacity(
            1 << 16,
            flate2::read::MultiGzDecoder::new(reader),
        ))
    } else {
        Box::new(reader)
    })
}

fn attr_value(e: &BytesStart<'_>, key: &str) -> Result<Option<String>, String> {
    for a in e.attributes() {
        let a = a.map_err(|err| format!("bad attribute: {err}"))?;
        if a.key.as_ref() == key {
            let v = a
                .normalized_value(XmlVersion::Implicit1_0)
                .map_err(|err| format!("bad attribute value: {err}"))?;
            return Ok(Some(v.into_owned()));
        }
    }
    Ok(None)
}

fn header_of(e: &BytesStart<'_>) -> Result<ResultHeader, String> {
    let mut h = ResultHeader::default();
    for a in e.attributes() {
        let a = a.map_err(|err| format!("bad attribute on <result>: {err}"))?;
        let slot = match a.key.as_ref() {
            "benchmarkname" => &mut h.benchmarkname,
            "name" => &mut h.name,
            "block" => &mut h.block,
            "tool" => &mut h.tool,
            "error" => &mut h.error,
            _ => continue,
        };
        let v = a
            .normalized_value(XmlVersion::Implicit1_0)
            .map_err(|err| format!("bad attribute value on <result>: {err}"))?;
        *slot = Some(v.into_owned());
    }
    Ok(h)
}

fn run_of(e: &BytesStart<'_>) -> Result<XmlRun, String> {
    let name = attr_value(e, "name")?.unwrap_or_default();
    let expected_verdict = attr_value(e, "expectedVerdict")?;
    Ok(XmlRun {
        name,
        expected_verdict,
        columns: Vec::new(),
    })
}

fn column_of(e: &BytesStart<'_>) -> Result<Option<(String, String)>, String> {
    let mut title = None;
    let mut value = None;
    for a in e.attributes() {
        let a = a.map_err(|err| format!("bad attribute on <column>: {err}"))?;
        let slot = match a.key.as_ref() {
            "title" => &mut title,
            "value" => &mut value,
            _ => continue,
        };
        *slot = Some(
            a.normalized_value(XmlVersion::Implicit1_0)
                .map_err(|err| format!("bad attribute value on <column>: {err}"))?
                .into_owned(),
        );
    }
    Ok(title.zip(value))
}

/// Parses a result document, calling `on_run` for every run (in file order).
/// Returns the root attributes, or the failure and how many runs were
/// delivered before it (a truncated `.bz2` delivers the runs before the cut).
pub fn parse<R: BufRead>(
    input: R,
    mut on_run: impl FnMut(&ResultHeader, XmlRun),
) -> Result<ResultHeader, XmlFailure> {
    let mut reader = quick_xml::Reader::from_reader(input);
    reader.config_mut().trim_text(true);
    let mut buf = Vec::with_capacity(4096);
    let mut header: Option<ResultHeader> = None;
    let mut current: Option<XmlRun> = None;
    let mut runs = 0u64;
    let fail = |reason: String, runs_read: u64| XmlFailure { reason, runs_read };
    loop {
        let event = reader.read_event_into(&mut buf).map_err(|e| {
            fail(
                format!(
                    "malformed or truncated XML at byte {}: {e}",
                    reader.buffer_position()
                ),
                runs,
            )
        })?;
        match event {
            Event::Start(ref e) | Event::Empty(ref e) => {
                let empty = matches!(event, Event::Empty(_));
                match e.name().as_ref() {
                    "result" | "test" if header.is_none() => {
                        header = Some(header_of(e).map_err(|r| fail(r, runs))?);
                    }
                    "run" | "sourcefile" if header.is_some() => {
                        let run = run_of(e).map_err(|r| fail(r, runs))?;
                        if empty {
                            runs += 1;
                            on_run(header.as_ref().expect("checked"), run);
                        } else {
                            current = Some(run);
                        }
                    }
                    "column" => {
                        if let Some(run) = current.as_mut()
                            && let Some(col) = column_of(e).map_err(|r| fail(r, runs))?
                        {
                            run.columns.push(col);
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
                if matches!(e.name().as_ref(), "run" | "sourcefile")
                    && let Some(run) = current.take()
                {
                    runs += 1;
                    on_run(header.as_ref().expect("runs only after the root"), run);
                }
            }
            Event::Eof => break,
            _ => {}
        }
        buf.clear();
    }
    if current.is_some() {
        return Err(fail("truncated XML: file ends inside a <run>".into(), runs));
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
        assert!(runs[1].columns.is_empty());
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
