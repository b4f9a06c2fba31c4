//! Model validation end to end: real z3 and cvc5 models of the curated
//! corpus are VALID; mock solvers' wrong, partial, malformed and binary models
//! are INVALID / UNKNOWN with their reasons; scores follow; a second run is
//! served from the cache; the Dolmen path is driven by a mock Dolmen.

use crate::support::solvers::{require_tools, run_solver};
use crate::support::validate::*;
use crate::support::{root, smtcomp};
use smtcomp::ingest::{IngestRecord, RunAnswer, read_jsonl, write_jsonl};
use smtcomp::model::{Answer, Status, Track};
use smtcomp::prepare::PreparedBenchmark;
use smtcomp::scoring::{RunScore, run_score};
use smtcomp::validate::{ModelStatus, Verdict};
use std::path::Path;

const LOGICS: &[&str] = &["QF_UF", "QF_LRA", "QF_BV", "QF_UFLIA", "QF_LIA", "QF_IDL"];

/// The prepared MV set: sat corpus files plus the small fixture benchmark.
fn setup(dir: &Path) -> (Vec<PreparedBenchmark>, PreparedBenchmark) {
    let mut files = corpus_files(LOGICS, Status::Sat);
    files.push((
        "QF_LIA".into(),
        root().join("tests/data/validate/bench/x-gt-10.smt2"),
    ));
    let set = prepare(Track::ModelValidation, &files, &dir.join("prepared"));
    let mut b = set.benchmarks.clone();
    let fixture = b
        .iter()
        .position(|x| x.original.name == "x-gt-10.smt2")
        .unwrap();
    let fx = b.remove(fixture);
    (b, fx)
}

fn verdict(r: &IngestRecord) -> &smtcomp::validate::ModelVerdict {
    match &r.validation {
        Some(Verdict::Model(v)) => v,
        other => panic!("{} on {}: {other:?}", r.solver, r.benchmark_key),
    }
}

/// Mock solver outputs on the fixture (`x > 10`, `0 <= y < x`).
const MOCKS: &[(&str, &str)] = &[
    (
        "mock-good",
        "sat\n(\n  (define-fun x () Int 11)\n  (define-fun |y| () Int 0)\n)\n",
    ),
    (
        "mock-wrong",
        "sat\n((define-fun x () Int 5) (define-fun y () Int 0))\n",
    ),
    ("mock-partial", "sat\n((define-fun x () Int 11))\n"),
    (
        "mock-malformed",
        "sat\n((define-fun x () Int 11) (define-fun y () Int\n",
    ),
    (
        "mock-error",
        "sat\n(error \"model generation is not supported\")\n",
    ),
    ("mock-unsat", "unsat\n"),
];

#[test]
fn models_are_checked_scored_and_cached() {
    if !require_tools(&["z3", "cvc5"]) {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let (corpus, fixture) = setup(dir);
    let mv_dir =
        smtcomp::prepare::PreparedSet::track_dir(&dir.join("prepared"), Track::ModelValidation);
    let mut runs: Vec<(IngestRecord, Vec<u8>)> = Vec::new();
    for b in &corpus {
        for (s, cmd) in [("z3", "z3 -smt2"), ("cvc5", "cvc5 --lang smt2")] {
            let (out, t) = run_solver(cmd, &mv_dir.join(&b.path));
            let mut r = record(Track::ModelValidation, s, b, answer_of(&out));
            r.walltime = Some(t);
            runs.push((r, out.into_bytes()));
        }
    }
    for (s, out) in MOCKS {
        runs.push((
            record(Track::ModelValidation, s, &fixture, answer_of(out)),
            out.as_bytes().to_vec(),
        ));
    }
    let mut bin = b"sat\n".to_vec();
    bin.extend((0..=255u8).cycle().take(5000));
    runs.push((
        record(
            Track::ModelValidation,
            "mock-binary",
            &fixture,
            RunAnswer::Sat,
        ),
        bin,
    ));
    write_logs(dir, &mut runs);
    let records: Vec<IngestRecord> = runs.into_iter().map(|(r, _)| r).collect();
    let runs_path = dir.join("mv-runs.jsonl.gz");
    write_jsonl(&runs_path, None, &records).unwrap();
    let p = |x: &Path| x.to_str().unwrap().to_string();
    let args = [
        "validate-models",
        "--runs",
        &p(&runs_path),
        "--prepared",
        &p(&dir.join("prepared")),
        "--jobs",
        "2",
        "--json",
    ];
    let (code, out, err) = smtcomp(&args);
    assert_eq!(code, 0, "{out}{err}");
    let first: serde_json::Value = serde_json::from_str(&out).unwrap();
    let validated = read_jsonl(&runs_path).unwrap();
    let n_real = 2 * corpus.len();
    for r in &validated {
        let v = verdict(r);
        let score = run_score(r, 1).unwrap();
        let want = match r.solver.as_str() {
            "z3" | "cvc5" | "mock-good" => (
                ModelStatus::Valid,
                Answer::Sat,
                RunScore {
                    error: 0,
                    correct: 1,
                },
            ),
            "mock-wrong" | "mock-unsat" => (
                ModelStatus::Invalid,
                Answer::ModelUnsat,
                RunScore {
                    error: 1,
                    correct: 0,
                },
            ),
            "mock-partial" => (
                ModelStatus::Unknown,
                Answer::ModelPartialFunctionMissing,
                RunScore::default(),
            ),
            _ => (
                ModelStatus::Unknown,
                Answer::ModelParsingError,
                RunScore::default(),
            ),
        };
        assert_eq!(
            (v.status, v.result, score),
            want,
            "{} on {}: {v:?}",
            r.solver,
            r.benchmark_key
        );
        let reason = v.reason.as_deref().unwrap_or("");
        match r.solver.as_str() {
            "mock-partial" => assert!(
                reason.contains("no definition for 1 declared symbol(s): y"),
                "{reason}"
            ),
            "mock-malformed" => assert!(reason.contains("unbalanced parentheses"), "{reason}"),
            "mock-error" => assert!(reason.contains("error instead of a model"), "{reason}"),
            "mock-wrong" => assert!(reason.contains("does not satisfy"), "{reason}"),
            _ => {}
        }
    }
    assert_eq!(first["cache_hits"], 0);
    // Every sat run with a model was checked (mock-unsat needs no model).
    assert_eq!(first["checked"].as_u64().unwrap() as usize, n_real + 6);
    // Second run: every verdict from the cache, same table.
    let (code, out, err) = smtcomp(&args);
    assert_eq!(code, 0, "{out}{err}");
    let second: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(second["checked"], 0, "{second}");
    assert_eq!(second["cache_hits"].as_u64().unwrap() as usize, n_real + 6);
    assert_eq!(read_jsonl(&runs_path).unwrap(), validated);
}

#[test]
fn dolmen_is_called_as_the_organizers_do() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let prepared = dir.join("prepared");
    let set = prepare_x_gt_10(&prepared);
    let b = &set.benchmarks[0];
    let cases: &[(&str, &str, ModelStatus, Answer)] = &[
        (
            "ok",
            "sat\n((define-fun x () Int 11))\n",
            ModelStatus::Valid,
            Answer::Sat,
        ),
        (
            "wrong",
            "sat\n(WRONG)\n",
            ModelStatus::Invalid,
            Answer::ModelUnsat,
        ),
        (
            "partial",
            "sat\n(PARTIAL)\n",
            ModelStatus::Unknown,
            Answer::ModelPartialFunctionMissing,
        ),
        ("array", "sat\n(ARRAY)\n", ModelStatus::Valid, Answer::Sat),
        (
            "slow",
            "sat\n(SLOW)\n",
            ModelStatus::Unknown,
            Answer::ModelValidatorTimeout,
        ),
        (
            "strange",
            "sat\n(STRANGE)\n",
            ModelStatus::Unknown,
            Answer::ModelValidatorException,
        ),
    ];
    let mut runs: Vec<(IngestRecord, Vec<u8>)> = cases
        .iter()
        .map(|(s, out, ..)| {
            (
                record(Track::ModelValidation, s, b, RunAnswer::Sat),
                out.as_bytes().to_vec(),
            )
        })
        .collect();
    write_logs(dir, &mut runs);
    let records: Vec<IngestRecord> = runs.into_iter().map(|(r, _)| r).collect();
    let runs_path = dir.join("runs.jsonl");
    write_jsonl(&runs_path, None, &records).unwrap();
    let p = |x: &Path| x.to_str().unwrap().to_string();
    let dolmen = root().join("tests/data/validate/mock-dolmen.sh");
    let (code, out, err) = smtcomp(&[
        "validate-models",
        "--runs",
        &p(&runs_path),
        "--prepared",
        &p(&prepared),
        "--dolmen",
        &p(&dolmen),
        "--logs",
        &p(dir),
        "--no-cache",
    ]);
    // The unknown Dolmen outcome is reported as a problem (exit 1), not a crash.
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        out.contains("unknown validator error: exit code 1, last stderr line `E:something-new`"),
        "{out}"
    );
    for (r, (s, _, status, result)) in read_jsonl(&runs_path).unwrap().iter().zip(cases) {
        assert_eq!(&r.solver, s);
        let v = verdict(r);
        assert_eq!((v.status, v.result), (*status, *result), "{s}: {v:?}");
        assert_eq!(v.validator, "dolmen");
    }
}
