//! `smtcomp test-solver` on real BenchExec: a real run for z3 (restricted
//! tracks and logics), mock solvers whose failures must each get their own
//! plain-words reason, Proof Exhibition entries. The input errors (exit 2) are
//! in `tests/it/test_solver.rs`.
//!
//! The BenchExec runs need `benchexec` (and z3 for the z3 run and as a core
//! validator); without them the tests print "skipped" unless
//! `SMTCOMP_REQUIRE_SOLVERS=1`.

use crate::support::{require_tool, root, smtcomp, work_dir};
use std::path::Path;
use std::process::Command;

/// Runs `smtcomp test-solver ARGS` from the crate root: (exit code, stdout, stderr).
fn test_solver(args: &[&str]) -> (i32, String, String) {
    smtcomp(&[&["test-solver"], args].concat())
}

fn report(out: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(out.join("report.json")).unwrap()).unwrap()
}

/// The runs of `track`/`logic` in a JSON report.
fn runs<'a>(r: &'a serde_json::Value, track: &str, logic: &str) -> Vec<&'a serde_json::Value> {
    r["tracks"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|t| t["track"] == track)
        .flat_map(|t| t["logics"].as_array().unwrap())
        .filter(|l| l["logic"] == logic)
        .flat_map(|l| l["runs"].as_array().unwrap())
        .collect()
}

#[test]
fn z3_passes_on_the_entered_tracks_it_is_asked_for() {
    if require_tool("benchexec").is_none() || require_tool("z3").is_none() {
        return;
    }
    let work = work_dir("z3");
    let out = work.path().join("out");
    let start = std::time::Instant::now();
    let (code, stdout, stderr) = test_solver(&[
        "demo/submissions/z3.json",
        "--logic",
        "QF_BV|QF_UFLIA|QF_UFNIA",
        "--track",
        "SingleQuery",
        "--track",
        "inc",
        "--track",
        "UnsatCore",
        "--jobs",
        "2",
        "--out",
        out.to_str().unwrap(),
    ]);
    println!("z3 run: {:.1} s", start.elapsed().as_secs_f64());
    assert_eq!(code, 0, "{stdout}\n{stderr}");
    assert!(stdout.contains("PASSED: "), "{stdout}");
    let r = report(&out);
    // --track restricts: Model Validation is entered but not asked for.
    let tracks: Vec<&str> = r["tracks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["track"].as_str().unwrap())
        .collect();
    assert_eq!(tracks, ["SingleQuery", "Incremental", "UnsatCore"]);
    // One sat and one unsat in Single Query, both right.
    let sq = runs(&r, "SingleQuery", "QF_BV");
    let mut expected: Vec<&str> = sq.iter().map(|x| x["expected"].as_str().unwrap()).collect();
    expected.sort();
    assert_eq!(expected, ["sat", "unsat"], "{stdout}");
    assert!(sq.iter().all(|x| x["verdict"] == "OK"));
    // Incremental through the trace executor: every check-sat answered.
    let inc = runs(&r, "Incremental", "QF_BV");
    assert_eq!(inc.len(), 2, "{stdout}");
    assert!(inc.iter().all(|x| x["answer"] == "8/8"), "{stdout}");
    // Unsat Core: the core was validated.
    let uc = runs(&r, "UnsatCore", "QF_UFLIA");
    assert_eq!(uc.len(), 1, "{stdout}");
    assert!(
        uc[0]["reason"].as_str().unwrap().contains("validated ("),
        "{stdout}"
    );
    // An entered logic without benchmarks is listed as not tested.
    assert!(
        stdout.contains("not tested (no benchmark): QF_UFNIA"),
        "{stdout}"
    );
}

/// A mock solver: its first argument says how it misbehaves.
const MOCK: &str = r#"#!/bin/sh
case "$1" in
  inc-unsupported)
    while IFS= read -r line; do
      case "$line" in
        *set-logic*) echo unsupported ;;
        *check-sat*) echo sat ;;
        *) echo success ;;
      esac
    done ;;
  always-sat) echo sat ;;
  segv) echo "mock: fatal error in module X" >&2; kill -SEGV $$ ;;
  short-core) echo unsat; echo "(smtcomp1 smtcomp2 smtcomp3)" ;;
esac
"#;

fn participation(track: &str, logic: &str, mode: &str) -> serde_json::Value {
    serde_json::json!({
        "tracks": [track], "logics": logic, "command": ["./mock.sh", mode]
    })
}

#[test]
fn mock_failures_get_their_own_reasons() {
    if require_tool("benchexec").is_none() || require_tool("z3").is_none() {
        return;
    }
    let work = work_dir("mock");
    let dir = work.path();
    let mock = dir.join("mock.sh");
    std::fs::write(&mock, MOCK).unwrap();
    Command::new("chmod")
        .arg("755")
        .arg(&mock)
        .status()
        .unwrap();
    let sub = serde_json::json!({
        "name": "mock",
        "contributors": ["Test"],
        "contacts": ["Test <test@example.org>"],
        "archive": { "url": "https://example.org/mock.tar.gz" },
        "website": "https://example.org",
        "system_description": "https://example.org/mock.pdf",
        "solver_type": "Standalone",
        "participations": [
            participation("Incremental", "QF_BV", "inc-unsupported"),
            participation("SingleQuery", "QF_BV", "always-sat"),
            participation("SingleQuery", "QF_LIA", "segv"),
            participation("UnsatCore", "QF_UFLIA", "short-core"),
        ],
        "seed": 7,
        "competitive": false,
        "final": false
    });
    let file = dir.join("mock.json");
    std::fs::write(&file, serde_json::to_string_pretty(&sub).unwrap()).unwrap();
    let out = dir.join("out");
    let (code, stdout, stderr) = test_solver(&[
        file.to_str().unwrap(),
        "--solver-dir",
        dir.to_str().unwrap(),
        "--jobs",
        "2",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 1, "{stdout}\n{stderr}");
    assert!(stdout.contains("FAILED: "), "{stdout}");
    for want in [
        // (a) incremental: the command the bad response answered.
        "solver answered 'unsupported' to (set-logic QF_BV) (command 1 of the benchmark, after 0 of 8 check-sat answers)",
        // (b) wrong answer.
        "wrong answer: answered sat, expected unsat",
        // (c) crash by a signal, with the last output line.
        "crash: killed by signal 11 (SIGSEGV)",
        "| mock: fatal error in module X",
        // (d) a core without a needed assertion.
        "unsat core refuted: the benchmark restricted to the core (smtcomp1 smtcomp2 smtcomp3) is sat",
    ] {
        assert!(stdout.contains(want), "missing {want:?} in:\n{stdout}");
    }
    let r = report(&out);
    // 2 incremental, 1 wrong, 1 crash (QF_LIA has one benchmark of known status), 1 core.
    assert_eq!(r["failed"], 2 + 1 + 1 + 1, "{stdout}");
    let sq = runs(&r, "SingleQuery", "QF_BV");
    let verdict_of = |status: &str| {
        sq.iter()
            .find(|x| x["expected"] == status)
            .map(|x| x["verdict"].clone())
    };
    assert_eq!(
        verdict_of("sat"),
        Some("OK".into()),
        "the sat benchmark is right"
    );
    assert_eq!(verdict_of("unsat"), Some("FAIL".into()));
}

/// A Proof Exhibition entry: `smtcomp_solver` and `smtcomp_checker` from the
/// submission's archive directory run through `smtcomp-proof-wrapper` on real
/// BenchExec. cvc5's proofs (the demo's archive) are checked valid; a mock
/// whose checker rejects the proof fails with the checker's verdict.
#[test]
fn proof_exhibition_entries_run_solver_and_checker() {
    if require_tool("benchexec").is_none() || require_tool("cvc5").is_none() {
        return;
    }
    let work = work_dir("proof");
    let dir = work.path();
    let submission = |name: &str| {
        let sub = serde_json::json!({
            "name": name,
            "contributors": ["Test"],
            "contacts": ["Test <test@example.org>"],
            "archive": { "url": "https://example.org/proof.tar.gz" },
            "website": "https://example.org",
            "system_description": "https://example.org/proof.pdf",
            "solver_type": "Standalone",
            "participations": [
                { "tracks": ["ProofExhibition"], "logics": "QF_UF", "command": ["./smtcomp_solver"] }
            ],
            "seed": 7,
            "competitive": false,
            "final": false
        });
        let file = dir.join(format!("{name}.json"));
        std::fs::write(&file, serde_json::to_string_pretty(&sub).unwrap()).unwrap();
        file
    };
    let run = |file: &Path, solver_dir: &Path, out: &Path| {
        test_solver(&[
            file.to_str().unwrap(),
            "--solver-dir",
            solver_dir.to_str().unwrap(),
            "--per-logic",
            "1",
            "--out",
            out.to_str().unwrap(),
        ])
    };
    let cvc5_out = dir.join("cvc5-out");
    let (code, stdout, stderr) = run(
        &submission("cvc5-proofs"),
        &root().join("demo/archives/cvc5"),
        &cvc5_out,
    );
    assert_eq!(code, 0, "{stdout}\n{stderr}");
    assert!(
        stdout.contains("proof checked valid, proof of "),
        "{stdout}"
    );
    let r = report(&cvc5_out);
    assert_eq!(
        (r["passed"].as_u64(), r["failed"].as_u64()),
        (Some(1), Some(0)),
        "{stdout}"
    );

    let mock = dir.join("mock-archive");
    std::fs::create_dir_all(&mock).unwrap();
    for (name, text) in [
        (
            "smtcomp_solver",
            "#!/bin/sh\necho unsat\necho '(not a proof)'\n",
        ),
        ("smtcomp_checker", "#!/bin/sh\necho invalid\n"),
    ] {
        std::fs::write(mock.join(name), text).unwrap();
        Command::new("chmod")
            .arg("755")
            .arg(mock.join(name))
            .status()
            .unwrap();
    }
    let mock_out = dir.join("mock-out");
    let (code, stdout, stderr) = run(&submission("bad-proofs"), &mock, &mock_out);
    assert_eq!(code, 1, "{stdout}\n{stderr}");
    assert!(
        stdout.contains("proof checker said invalid, proof of 20 bytes"),
        "{stdout}"
    );
}
