//! BenchExec result files (`tests/e2e`).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// One `<run>` of a BenchExec result file: its name and its columns.
#[derive(Debug, Clone)]
pub struct ResultRun {
    /// `run@name` (relative to the result file's directory).
    pub name: String,
    /// Column title -> value.
    pub columns: BTreeMap<String, String>,
}

/// The runs of a `.xml.bz2` result file.
pub fn read_result_runs(path: &Path) -> Vec<ResultRun> {
    use quick_xml::events::Event;
    use std::io::Read;
    let mut text = String::new();
    bzip2::read::BzDecoder::new(std::fs::File::open(path).unwrap())
        .read_to_string(&mut text)
        .unwrap();
    let mut reader = quick_xml::Reader::from_str(&text);
    let mut runs = Vec::new();
    let mut current: Option<ResultRun> = None;
    loop {
        match reader.read_event().unwrap() {
            Event::Eof => break,
            Event::Start(e) | Event::Empty(e) if e.name().0 == "run" => {
                let name = attr(&e, "name").unwrap_or_default();
                if let Some(r) = current.take() {
                    runs.push(r);
                }
                current = Some(ResultRun {
                    name,
                    columns: BTreeMap::new(),
                });
            }
            Event::Start(e) | Event::Empty(e) if e.name().0 == "column" => {
                if let (Some(run), Some(t), Some(v)) =
                    (current.as_mut(), attr(&e, "title"), attr(&e, "value"))
                {
                    run.columns.insert(t, v);
                }
            }
            Event::End(e) if e.name().0 == "run" => {
                if let Some(r) = current.take() {
                    runs.push(r);
                }
            }
            _ => {}
        }
    }
    if let Some(r) = current.take() {
        runs.push(r);
    }
    runs
}

fn attr(e: &quick_xml::events::BytesStart, name: &str) -> Option<String> {
    e.attributes().flatten().find(|a| a.key.0 == name).map(|a| {
        a.normalized_value(quick_xml::XmlVersion::Implicit1_0)
            .unwrap()
            .into_owned()
    })
}

/// `base/rel` with `.` and `..` resolved lexically.
pub fn normalize(base: &Path, rel: &str) -> PathBuf {
    let mut out = PathBuf::new();
    for c in base.join(rel).components() {
        match c {
            std::path::Component::ParentDir => {
                out.pop();
            }
            std::path::Component::CurDir => {}
            c => out.push(c.as_os_str()),
        }
    }
    out
}
