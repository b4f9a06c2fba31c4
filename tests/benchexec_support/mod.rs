//! Shared by the BenchExec tests: the demo prepared set (built from the curated
//! corpus until `smtcomp prepare` is available), tree comparison, tool lookup.
#![allow(dead_code)]

use smtcomp::benchmarks::Smt2File;
use smtcomp::model::{Logic, Status, Track};
use smtcomp::prepare::{PreparedBenchmark, PreparedSet};
use smtcomp::smtlib::{CommandKind, CommandReader};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The crate root.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The demo selection: (track, corpus kind, path in package).
pub const SELECTION: &[(Track, &str, &str)] = &[
    (
        Track::SingleQuery,
        "single",
        "CVC4-1.8/test/regress/regress0/bug383.smt2",
    ),
    (
        Track::SingleQuery,
        "single",
        "CVC4-1.8/test/regress/regress0/bv/mult-pow2-negative.smt2",
    ),
    (
        Track::SingleQuery,
        "single",
        "bitwuzla/test/regress/rewrite/bv/rw155.btor.smt2",
    ),
    (
        Track::SingleQuery,
        "single",
        "CVC4-1.8/test/regress/regress0/ite4.smt2",
    ),
    (
        Track::SingleQuery,
        "single",
        "CVC4-1.8/test/regress/regress0/ite.smt2",
    ),
    (
        Track::Incremental,
        "incremental",
        "CVC4-1.8/test/regress/regress0/push-pop/boolean/fuzz_22.smt2",
    ),
    (
        Track::Incremental,
        "incremental",
        "bitwuzla/test/regress/solver/bv/count03inc.smt2",
    ),
    (
        Track::UnsatCore,
        "single",
        "bitwuzla/test/regress/rewrite/bv/rw155.btor.smt2",
    ),
    (
        Track::UnsatCore,
        "single",
        "CVC4-1.8/test/regress/regress0/ite.smt2",
    ),
    (
        Track::ModelValidation,
        "single",
        "CVC4-1.8/test/regress/regress0/bug383.smt2",
    ),
    (
        Track::ModelValidation,
        "single",
        "CVC4-1.8/test/regress/regress0/bv/mult-pow2-negative.smt2",
    ),
    (
        Track::ProofExhibition,
        "single",
        "CVC4-1.8/test/regress/regress0/ite.smt2",
    ),
];

/// One row of `corpus/MANIFEST.tsv`.
struct Row {
    logic: String,
    expected: Vec<Status>,
}

fn manifest() -> BTreeMap<(String, String), Row> {
    let text = std::fs::read_to_string(root().join("corpus/MANIFEST.tsv")).unwrap();
    let mut out = BTreeMap::new();
    for line in text.lines().skip(1) {
        let f: Vec<&str> = line.split('\t').collect();
        let expected = f[5]
            .split(',')
            .map(|s| match s {
                "sat" => Status::Sat,
                "unsat" => Status::Unsat,
                _ => Status::Unknown,
            })
            .collect();
        out.insert(
            (f[0].to_string(), f[2].to_string()),
            Row {
                logic: f[3].to_string(),
                expected,
            },
        );
    }
    out
}

/// The transformation of one track (as the brief specifies it).
fn transform(track: Track, script: &[u8], expected: &[Status]) -> String {
    let mut out = String::new();
    match track {
        Track::Incremental => {
            for s in expected {
                out.push_str(s.name());
                out.push('\n');
            }
            out.push_str("--- BENCHMARK BEGINS HERE ---\n");
        }
        Track::UnsatCore => out.push_str("(set-option :produce-unsat-cores true)\n"),
        Track::ModelValidation => out.push_str("(set-option :produce-models true)\n"),
        Track::ProofExhibition => {
            out.push_str("(set-option :print-success false)\n(set-option :produce-proofs true)\n")
        }
        _ => out.push_str("(set-option :print-success false)\n"),
    }
    let mut reader = CommandReader::new(script);
    let mut named = 0;
    while let Some(c) = reader.next_command().unwrap() {
        let text = String::from_utf8_lossy(c.text).into_owned();
        if matches!(c.kind, CommandKind::SetInfoStatus(_)) {
            continue;
        }
        if track == Track::UnsatCore && c.head() == Some(b"assert") {
            let start = text.find("assert").unwrap() + "assert".len();
            let body = text[start..text.len() - 1].trim();
            out.push_str(&format!("(assert (! {body} :named smtcomp{named}))\n"));
            named += 1;
            continue;
        }
        out.push_str(&text);
        out.push('\n');
        if c.kind == CommandKind::CheckSat {
            match track {
                Track::UnsatCore => out.push_str("(get-unsat-core)\n"),
                Track::ModelValidation => out.push_str("(get-model)\n"),
                Track::ProofExhibition => out.push_str("(get-proof)\n"),
                _ => {}
            }
        }
    }
    out
}

/// Writes the demo prepared set below `root` (one directory per track).
pub fn write_prepared_demo(dest: &Path) {
    let rows = manifest();
    let mut sets: BTreeMap<Track, PreparedSet> = BTreeMap::new();
    for (track, kind, path) in SELECTION {
        let row = &rows[&(kind.to_string(), path.to_string())];
        let parts: Vec<&str> = path.split('/').collect();
        let file = root()
            .join("corpus")
            .join(kind)
            .join(&row.logic)
            .join(path.replace('/', "_"));
        let script = std::fs::read(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        let set = sets.entry(*track).or_insert_with(|| PreparedSet {
            track: *track,
            year: 2025,
            seed: 0,
            method: "tests/benchexec_support (corpus transformation for the demo)".into(),
            benchmarks: Vec::new(),
            failures: Vec::new(),
        });
        let id = set.benchmarks.len() + 1;
        let rel = format!("{}/scrambled{id}.smt2", row.logic);
        let target = PreparedSet::track_dir(dest, *track).join(&rel);
        std::fs::create_dir_all(target.parent().unwrap()).unwrap();
        std::fs::write(&target, transform(*track, &script, &row.expected)).unwrap();
        let incremental = *track == Track::Incremental;
        set.benchmarks.push(PreparedBenchmark {
            path: rel,
            original: Smt2File {
                incremental,
                logic: Logic::new(row.logic.clone()),
                family: parts[..parts.len() - 1]
                    .iter()
                    .map(|s| s.to_string())
                    .collect(),
                name: parts[parts.len() - 1].to_string(),
            },
            status: if incremental {
                Status::Incremental
            } else {
                row.expected[0]
            },
            expected: incremental.then(|| row.expected.clone()),
            count: row.expected.len() as u64,
            heat: None,
        });
    }
    for set in sets.values_mut() {
        set.benchmarks.sort_by(|a, b| a.path.cmp(&b.path));
        set.write(dest).unwrap();
    }
}

/// Every file below `dir` (relative path -> bytes).
pub fn tree(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut out = BTreeMap::new();
    for e in walkdir::WalkDir::new(dir).sort_by_file_name() {
        let e = e.unwrap();
        if e.file_type().is_file() {
            let rel = e.path().strip_prefix(dir).unwrap().display().to_string();
            out.insert(rel, std::fs::read(e.path()).unwrap());
        }
    }
    out
}

/// Asserts two trees are byte-identical, naming the first difference.
pub fn assert_same_tree(expected: &Path, actual: &Path, hint: &str) {
    let (a, b) = (tree(expected), tree(actual));
    let ka: Vec<_> = a.keys().collect();
    let kb: Vec<_> = b.keys().collect();
    assert_eq!(ka, kb, "{}: file lists differ ({hint})", expected.display());
    for (k, v) in &a {
        assert!(v == &b[k], "{}/{k} differs ({hint})", expected.display());
    }
}

/// Copies a directory tree.
pub fn copy_tree(from: &Path, to: &Path) {
    for (rel, bytes) in tree(from) {
        let p = to.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, bytes).unwrap();
    }
}

/// A directory for BenchExec runs outside /tmp (hidden in containers): below target/.
pub fn work_dir(name: &str) -> tempfile::TempDir {
    let base = root().join("target/benchexec-tests");
    std::fs::create_dir_all(&base).unwrap();
    tempfile::Builder::new()
        .prefix(name)
        .tempdir_in(base)
        .unwrap()
}

/// A tool on PATH, or `None` after printing "skipped"; panics instead when
/// `SMTCOMP_REQUIRE_SOLVERS=1`.
pub fn require_tool(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    if let Some(p) = std::env::split_paths(&path)
        .map(|d| d.join(name))
        .find(|p| p.is_file())
    {
        return Some(p);
    }
    if std::env::var("SMTCOMP_REQUIRE_SOLVERS").as_deref() == Ok("1") {
        panic!("{name} not on PATH but SMTCOMP_REQUIRE_SOLVERS=1");
    }
    println!("skipped: {name} not on PATH");
    None
}

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
