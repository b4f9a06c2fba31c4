//! Real Proof Exhibition runs scored by the organizer: Debian cvc5 produces a
//! proof for unsat corpus benchmarks, `smtcomp-proof-wrapper` runs it and our
//! checker script `demo/archives/cvc5/smtcomp_checker` (which accepts the proof
//! iff cvc5 re-checks it with `--check-proofs`), and the outputs go through
//! `smtcomp ingest`'s interpreter and `smtcomp score`. The wrapper's own tests
//! are in `crates/proof-wrapper/tests/it/`.
//!
//! The wrapper binary is another workspace package: it is taken from the
//! directory of the `smtcomp` binary (`target/debug/`), where `cargo test
//! --workspace` (or `cargo build --workspace`) puts it.
//!
//! cvc5 is looked up on PATH. If it is missing the test fails when
//! `SMTCOMP_REQUIRE_SOLVERS=1`, otherwise it prints "skipped: cvc5 not on PATH".

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Command;

/// `smtcomp-proof-wrapper` next to the `smtcomp` binary.
fn wrapper() -> PathBuf {
    let path = Path::new(env!("CARGO_BIN_EXE_smtcomp")).with_file_name("smtcomp-proof-wrapper");
    assert!(
        path.is_file(),
        "{} missing: run `cargo test --workspace` (or `cargo build --workspace` first)",
        path.display()
    );
    path
}

const UNSAT_BENCHMARKS: [&str; 2] = [
    "single/QF_LRA/CVC4-1.8_test_regress_regress0_simple-lra.smt2",
    "single/QF_UF/CVC4-1.8_test_regress_regress0_ite.smt2",
];

/// A working directory with `bench.smt2` (the corpus file prepared for the proof
/// track: proofs enabled, `(get-proof)` after the `(check-sat)`), the solver
/// script (cvc5 piped through `solver_filter`) and the checker script.
fn setup(cvc5: &Path, solver_filter: &str, corpus_file: &str) -> tempfile::TempDir {
    let w = tempfile::tempdir().unwrap();
    let src = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("corpus")
        .join(corpus_file);
    let text = std::fs::read_to_string(&src).unwrap_or_else(|e| panic!("{}: {e}", src.display()));
    let body = text.replace("(check-sat)", "(check-sat)\n(get-proof)");
    std::fs::write(
        w.path().join("bench.smt2"),
        format!("(set-option :print-success false)\n(set-option :produce-proofs true)\n{body}"),
    )
    .unwrap();
    let cvc5 = cvc5.display();
    let checker = include_str!("../../demo/archives/cvc5/smtcomp_checker");
    let checker = checker.strip_prefix("#!/bin/sh\n").unwrap();
    for (name, script) in [
        (
            "smtcomp_solver",
            format!("'{cvc5}' --lang smt2 \"$1\"{solver_filter}\n"),
        ),
        ("smtcomp_checker", format!("CVC5='{cvc5}'\n{checker}")),
    ] {
        let path = w.path().join(name);
        std::fs::write(&path, format!("#!/bin/sh\n{script}")).unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    w
}

/// Real wrapper outputs (two valid proofs, a tampered proof, a sat benchmark),
/// interpreted by the ingestion (`ingest::interpret`, as `smtcomp ingest` does for
/// a Proof Exhibition log), written as a run table and summarized by
/// `smtcomp score --edition 2023 --track ProofExhibition`.
#[test]
fn cvc5_proof_runs_summarized_by_score() {
    use smtcomp::benchmarks::{Inventory, NonIncrementalInfo, Smt2File};
    use smtcomp::formats::runtable::{IngestRecord, LogRef};
    use smtcomp::ingest::write_jsonl;
    use smtcomp::ingest::{LogText, interpret as ingest_interpret};
    use smtcomp::model::{Logic, Status, Track};
    let Some(cvc5) = crate::support::require_tool("cvc5") else {
        return;
    };
    let wrapper = wrapper();
    let sat_bench = "single/QF_UF/CVC4-1.8_test_regress_regress0_ite4.smt2";
    let cases = [
        ("cvc5", "", UNSAT_BENCHMARKS[0], Status::Unsat),
        ("cvc5", "", UNSAT_BENCHMARKS[1], Status::Unsat),
        ("cvc5", "", sat_bench, Status::Sat),
        (
            "cvc5-tampered",
            " | sed 3d",
            UNSAT_BENCHMARKS[0],
            Status::Unsat,
        ),
    ];
    let mut records = Vec::new();
    let mut inv = Inventory::default();
    for (solver, filter, bench, status) in cases {
        let w = setup(&cvc5, filter, bench);
        let out = Command::new(&wrapper)
            .args(["--total-budget", "120", "bench.smt2"])
            .current_dir(w.path())
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        let parts: Vec<&str> = bench.split('/').collect();
        let file = Smt2File {
            incremental: false,
            logic: Logic::new(parts[1].to_string()),
            family: vec!["corpus".into()],
            name: parts[2].to_string(),
        };
        let log = LogRef {
            archive: "logs".into(),
            member: format!("{solver}.{}.log", parts[2]),
        };
        // The summary reads only the proof data; the BenchExec status is not needed.
        let it = ingest_interpret(
            Track::ProofExhibition,
            Some("unknown"),
            &LogText::Read {
                log: stdout.as_bytes(),
                start: 0,
                at: log,
            },
        );
        let mut r = IngestRecord::new("pe.xml", file.path());
        r.solver = solver.into();
        r.track = Some(Track::ProofExhibition);
        r.logic = Some(file.logic.clone());
        r.benchmark = Some(file.clone());
        r.benchmark_key = file.path();
        r.proof = it.proof;
        assert!(r.proof.is_some(), "{bench}: {stdout}");
        records.push(r);
        if !inv.non_incremental.iter().any(|b| b.file == file) {
            inv.non_incremental.push(NonIncrementalInfo {
                file,
                status,
                asserts: 1,
                category: None,
            });
        }
    }
    let dir = tempfile::tempdir().unwrap();
    let runs = dir.path().join("pe.jsonl.gz");
    write_jsonl(&runs, None, &records).unwrap();
    let inv_path = dir.path().join("inv.json");
    inv.write(&inv_path).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_smtcomp"))
        .args([
            "--year",
            "2023",
            "score",
            "--edition",
            "2023",
            "--track",
            "ProofExhibition",
        ])
        .arg("--runs")
        .arg(&runs)
        .arg("--inventory")
        .arg(&inv_path)
        .args(["--format", "csv"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let csv = String::from_utf8(out.stdout).unwrap();
    // solver,division,valid,holey,invalid,sat,unknown,timeout,error,errors,...
    let row = |solver: &str, division: &str| -> Vec<String> {
        csv.lines()
            .find(|l| l.starts_with(&format!("{solver},{division},")))
            .unwrap_or_else(|| panic!("no {solver}/{division} in\n{csv}"))
            .split(',')
            .skip(2)
            .take(8)
            .map(String::from)
            .collect()
    };
    assert_eq!(
        row("cvc5", "QF_LinearRealArith"),
        ["1", "0", "0", "0", "0", "0", "0", "0"]
    );
    assert_eq!(
        row("cvc5", "QF_Equality"),
        ["1", "0", "0", "1", "0", "0", "0", "1"]
    );
    assert_eq!(
        row("cvc5-tampered", "QF_LinearRealArith"),
        ["0", "0", "1", "0", "0", "0", "0", "1"]
    );
    assert_eq!(csv.lines().count(), 4, "{csv}");
}
