//! The demo prepared set `tests/data/prepared-demo`, built from the curated
//! corpus with the transformation of each track as the brief specifies it
//! (checked against the committed copy by `tests/it/benchexec_demo.rs`).

use super::root;
use smtcomp::benchmarks::Smt2File;
use smtcomp::model::{Logic, Status, Track};
use smtcomp::prepare::{PreparedBenchmark, PreparedSet};
use smtcomp::smtlib::{CommandKind, CommandReader};
use std::collections::BTreeMap;
use std::path::Path;

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
            method: "tests/support/prepared_demo.rs (corpus transformation for the demo)".into(),
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
