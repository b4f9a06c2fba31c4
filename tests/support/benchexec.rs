//! BenchExec result files (`tests/e2e`).

use serde_json::Value;
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

/// A value without what depends on timing: keys ending in `time`, `memory`,
/// and `[key, value]` pairs whose key ends in `_time` (proof statistics).
pub fn untimed(v: &Value) -> Value {
    match v {
        Value::Object(m) => Value::Object(
            m.iter()
                .filter(|(k, _)| !k.ends_with("time") && k.as_str() != "memory")
                .map(|(k, x)| (k.clone(), untimed(x)))
                .collect(),
        ),
        Value::Array(a) => Value::Array(
            a.iter()
                .filter(|x| {
                    !matches!(x.as_array().map(Vec::as_slice),
                        Some([Value::String(k), _]) if k.ends_with("_time"))
                })
                .map(untimed)
                .collect(),
        ),
        other => other.clone(),
    }
}

/// The records of a JSON Lines table (`runs-ingested.jsonl.gz`, every gzip
/// member), untimed, without the header line, sorted.
pub fn table_untimed(path: &Path) -> Vec<String> {
    use std::io::Read;
    let mut text = String::new();
    flate2::read::MultiGzDecoder::new(std::fs::File::open(path).unwrap())
        .read_to_string(&mut text)
        .unwrap();
    let mut v: Vec<String> = text
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .filter(|v| v.get("run_table").is_none())
        .map(|v| untimed(&v).to_string())
        .collect();
    v.sort();
    v
}
