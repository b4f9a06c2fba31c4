//! Unsat-core validation on real BenchExec, chained as an organizer runs it,
//! every step through the `smtcomp` binary:
//!
//! library (2 corpus benchmarks) -> `benchmarks scan` -> `select` + `prepare`
//! (Single Query, Unsat Core) -> `generate` + `run-local` (z3, cvc5, Yices 2
//! in SQ; z3, cvc5 and a mock that drops a needed assertion from z3's core in
//! UC) -> `ingest` -> `validate-cores generate` (validators sound in SQ) ->
//! `generate` on its prepared set (track UnsatCoreValidation) -> `run-local`
//! -> `ingest` -> `validate-cores join --validation-runs` -> `score`.
//!
//! The same inputs through the local runner (`validate-cores run --submissions`,
//! `join`) must give the same verdicts. The submissions are in
//! `tests/data/uc-chain/submissions/`; the mock is
//! `tests/data/validate/mock-core-dropper.sh`, found through `--solver-dir`
//! as an unpacked archive would be.

use crate::support::{require_tool, root, work_dir};
use smtcomp::benchexec::Manifest;
use smtcomp::ingest::{IngestRecord, RunAnswer, read_jsonl};
use smtcomp::model::Track;
use smtcomp::prepare::PreparedSet;
use smtcomp::scoring::{RunScore, run_score};
use smtcomp::validate::cores::CoreManifest;
use smtcomp::validate::{CoreStatus, Verdict};
use std::path::Path;
use std::process::{Command, Stdio};

/// (logic, corpus file): unsat, at least two assertions, every assertion needed.
const BENCHMARKS: &[(&str, &str)] = &[
    (
        "QF_AX",
        "CVC4-1.8_test_regress_regress0_arrays_bool-array.smt2",
    ),
    ("QF_UFLIA", "CVC4-1.8_test_regress_regress0_bug303.smt2"),
];
const DROPPER: &str = "core dropper";

/// Runs `smtcomp [--competition demo/competition.toml] ARGS` in `dir`; returns
/// stdout. Commands that take their competition from their inputs get no
/// `--competition` (they reject it).
fn smtcomp(dir: &Path, args: &[&str]) -> String {
    let mut cmd = Command::new(crate::support::smtcomp_bin());
    let takes_definition = match args {
        ["run-local" | "prepare" | "validate-models", ..] => false,
        ["validate-cores", "join", ..] => true,
        ["validate-cores", "generate", ..] => true,
        ["validate-cores", ..] => args.contains(&"--submissions"),
        _ => true,
    };
    if takes_definition {
        cmd.arg("--competition")
            .arg(root().join("demo/competition.toml"));
    }
    let out = cmd
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    );
    assert!(
        out.status.success(),
        "smtcomp {args:?}: {:?}\n{stdout}\n{stderr}",
        out.status
    );
    stdout
}

/// `generate` + `run-local` + `ingest` of one prepared root; returns the records.
fn bench(dir: &Path, prepared: &str, exec: &str, runs: &str) -> Vec<IngestRecord> {
    let subs = root().join("tests/data/uc-chain/submissions");
    let dropper_dir = format!("{DROPPER}={}", root().join("tests/data/validate").display());
    smtcomp(
        dir,
        &[
            "generate",
            "--solvers-on-path",
            // The fixtures' solvers share their authors (one team): every
            // division is non-competitive, which `generate` skips by default.
            "--include-non-competitive",
            "--solver-dir",
            &dropper_dir,
            "--submissions",
            subs.to_str().unwrap(),
            "--prepared",
            prepared,
            "--out",
            exec,
        ],
    );
    let start = std::time::Instant::now();
    smtcomp(
        dir,
        &["run-local", exec, "--start-time", "2025-06-01 12:00:00"],
    );
    println!("run-local {exec}: {:.1} s", start.elapsed().as_secs_f64());
    let manifest = format!("{exec}/runs-manifest.json.gz");
    smtcomp(
        dir,
        &[
            "ingest",
            &format!("{exec}/results"),
            "--manifest",
            &manifest,
            "-o",
            runs,
            "--quiet",
        ],
    );
    read_jsonl(&dir.join(runs)).unwrap()
}

fn verdicts(records: &[IngestRecord]) -> Vec<(String, String, Verdict)> {
    records
        .iter()
        .filter(|r| r.track == Some(Track::UnsatCore))
        .map(|r| {
            let v = r
                .validation
                .clone()
                .unwrap_or_else(|| panic!("no verdict for {} on {}", r.solver, r.benchmark_key));
            (r.solver.clone(), r.benchmark_key.clone(), v)
        })
        .collect()
}

#[test]
fn benchexec_validation_refutes_the_wrong_core_like_the_local_runner() {
    for tool in ["benchexec", "z3", "cvc5", "yices-smt2"] {
        if require_tool(tool).is_none() {
            return;
        }
    }
    let start = std::time::Instant::now();
    let work = work_dir("uc-chain");
    let dir = work.path();
    for (logic, file) in BENCHMARKS {
        let to = dir.join("library/non-incremental").join(logic);
        std::fs::create_dir_all(&to).unwrap();
        std::fs::copy(
            root().join("corpus/single").join(logic).join(file),
            to.join(file),
        )
        .unwrap();
    }
    smtcomp(
        dir,
        &["benchmarks", "scan", "library", "-o", "inventory.json"],
    );
    for track in ["SingleQuery", "UnsatCore"] {
        let sel = format!("selection-{track}.json");
        smtcomp(
            dir,
            &[
                "select",
                track,
                "--inventory",
                "inventory.json",
                "--seed",
                "1",
                "-o",
                &sel,
            ],
        );
        smtcomp(
            dir,
            &[
                "prepare",
                track,
                "--selection",
                &sel,
                "--library",
                "library",
                "--out",
                "prepared",
            ],
        );
    }
    let uc = PreparedSet::read(&dir.join("prepared"), Track::UnsatCore).unwrap();
    assert_eq!(uc.benchmarks.len(), BENCHMARKS.len());

    // 1. The competition runs: Single Query and Unsat Core on BenchExec.
    let runs = bench(dir, "prepared", "exec", "runs.jsonl");
    assert_eq!(runs.len(), 2 * (3 + 3), "{runs:#?}");
    for r in &runs {
        assert_eq!(r.answer, RunAnswer::Unsat, "{r:?}");
        assert_eq!(
            r.unsat_core.is_some(),
            r.track == Some(Track::UnsatCore),
            "{r:?}"
        );
    }

    // 2. Validation tasks: one per distinct core, validators sound in SQ.
    smtcomp(
        dir,
        &[
            "validate-cores",
            "generate",
            "--runs",
            "runs.jsonl",
            "--prepared",
            "prepared",
            "--out",
            "validation",
        ],
    );
    let tasks = CoreManifest::read(&dir.join("validation")).unwrap();
    // z3 and cvc5 return the same (full) core; the dropper one less.
    assert_eq!(tasks.tasks.len(), 2 * BENCHMARKS.len());
    for t in &tasks.tasks {
        assert_eq!(t.validators, ["Yices 2", "cvc5", "z3"], "{}", t.file);
        // The demo's Unsat Core limit (10 s), never below the producing time.
        assert!(t.time_limit >= 10.0 && t.time_limit < 20.0, "{t:?}");
    }

    // 3. The validators on BenchExec: the prepared set `validate-cores generate`
    //    wrote is the input of `generate`, as is; only the validators run.
    let vruns = bench(
        dir,
        "validation",
        "validation-exec",
        "validation-runs.jsonl",
    );
    let m = Manifest::read(&dir.join("validation-exec")).unwrap();
    let mut solvers: Vec<&str> = m.definitions.values().map(|d| d.solver.as_str()).collect();
    solvers.dedup();
    assert_eq!(solvers, ["Yices 2", "cvc5", "z3"]);
    assert!(
        m.definitions
            .values()
            .all(|d| d.track == Track::UnsatCoreValidation)
    );
    assert_eq!(vruns.len(), 3 * tasks.tasks.len());
    assert!(
        vruns
            .iter()
            .all(|r| r.track == Some(Track::UnsatCoreValidation))
    );
    let join_out = smtcomp(
        dir,
        &[
            "validate-cores",
            "join",
            "--runs",
            "runs.jsonl",
            "--exec",
            "validation",
            "--validation-runs",
            "validation-runs.jsonl",
            "-o",
            "joined-benchexec.jsonl",
            "--json",
        ],
    );
    let summary: serde_json::Value = serde_json::from_str(&join_out).unwrap();
    assert_eq!(
        summary["by_status"],
        serde_json::json!({"refuted": 2, "validated": 4})
    );
    assert_eq!(summary["unmatched_validation_runs"], 0);

    // 4. The same inputs through the local runner, commands from the submissions.
    let subs = root().join("tests/data/uc-chain/submissions");
    smtcomp(
        dir,
        &[
            "validate-cores",
            "run",
            "--exec",
            "validation",
            "--submissions",
            subs.to_str().unwrap(),
            "--jobs",
            "2",
        ],
    );
    smtcomp(
        dir,
        &[
            "validate-cores",
            "join",
            "--runs",
            "runs.jsonl",
            "--exec",
            "validation",
            "-o",
            "joined-local.jsonl",
        ],
    );
    let joined = read_jsonl(&dir.join("joined-benchexec.jsonl")).unwrap();
    let by_benchexec = verdicts(&joined);
    let local = verdicts(&read_jsonl(&dir.join("joined-local.jsonl")).unwrap());
    assert_eq!(by_benchexec, local, "BenchExec and local verdicts differ");

    // 5. Verdicts and their scores.
    for r in joined.iter().filter(|r| r.track == Some(Track::UnsatCore)) {
        let Some(Verdict::Core(v)) = &r.validation else {
            unreachable!()
        };
        let b = uc
            .benchmarks
            .iter()
            .find(|b| b.original.path() == r.benchmark_key)
            .unwrap();
        let size = r.unsat_core.as_ref().unwrap().names.len() as u64;
        let score = run_score(r, b.count).unwrap();
        if r.solver == DROPPER {
            assert_eq!(
                (v.status, v.unsat, v.sat),
                (CoreStatus::Refuted, 0, 3),
                "{r:?}"
            );
            assert_eq!(
                score,
                RunScore {
                    error: 1,
                    correct: 0
                }
            );
        } else {
            assert_eq!(
                (v.status, v.unsat, v.sat),
                (CoreStatus::Validated, 3, 0),
                "{r:?}"
            );
            assert_eq!(
                score,
                RunScore {
                    error: 0,
                    correct: b.count - size
                }
            );
        }
    }

    // 6. Scoring the Unsat Core Track from the joined run table.
    let scores = smtcomp(
        dir,
        &[
            "score",
            "--track",
            "UnsatCore",
            "--runs",
            "joined-benchexec.jsonl",
            "--inventory",
            "inventory.json",
            "--submissions",
            subs.to_str().unwrap(),
            "--format",
            "json",
        ],
    );
    let scores: serde_json::Value = serde_json::from_str(&scores).unwrap();
    // Division and logic pages alike.
    let mut pages = Vec::new();
    for page in scores["pages"].as_object().unwrap().values() {
        if page["layout"] != "result" {
            continue;
        }
        pages.push(page["division"].as_str().unwrap().to_string());
        for row in page["sequential"].as_array().unwrap() {
            let error = if row["name"] == DROPPER { 1 } else { 0 };
            assert_eq!(row["errorScore"], error, "{row}");
            assert_eq!(row["correctScore"], 0, "full cores: N - size = 0; {row}");
        }
    }
    pages.sort();
    assert_eq!(
        pages,
        [
            "QF_AX",
            "QF_Equality",
            "QF_Equality_LinearArith",
            "QF_UFLIA"
        ]
    );
    println!("chain: {:.1} s", start.elapsed().as_secs_f64());
}
