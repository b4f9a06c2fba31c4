//! A real proof run: Debian cvc5 produces a proof for unsat corpus benchmarks
//! (prepared like `scrambler -gen-proof`), checked by our small checker script
//! `demo/archives/cvc5/smtcomp_checker`, which accepts the proof iff cvc5
//! re-checks it with `--check-proofs`. A tampered proof is `invalid`, a sat
//! benchmark gives `sat`.
//!
//! The organizer side (these outputs ingested and scored by `smtcomp`) is the
//! root test `tests/proof_wrapper_cvc5.rs`.
//!
//! cvc5 is looked up on PATH. If it is missing the test fails when
//! `SMTCOMP_REQUIRE_SOLVERS=1`, otherwise it prints "skipped: cvc5 not on PATH".

use std::path::{Path, PathBuf};

use crate::common::*;
use smtcomp_proof_wrapper::{ProofVerdict, interpret};

fn find_on_path(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(name))
        .find(|p| p.is_file())
}

/// The solver's absolute path, or `None` (after printing why) when the test must be skipped.
fn require_solver(name: &str) -> Option<PathBuf> {
    match find_on_path(name) {
        Some(p) => Some(p),
        None if std::env::var("SMTCOMP_REQUIRE_SOLVERS").as_deref() == Ok("1") => {
            panic!("{name} not on PATH but SMTCOMP_REQUIRE_SOLVERS=1")
        }
        None => {
            println!("skipped: {name} not on PATH");
            None
        }
    }
}

/// Copies a corpus benchmark into `w` as `bench.smt2`, prepared for the proof
/// track: proofs enabled, `(get-proof)` after the `(check-sat)`.
fn prepare(w: &Work, corpus_file: &str) {
    let src = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../corpus")
        .join(corpus_file);
    let text = std::fs::read_to_string(&src).unwrap_or_else(|e| panic!("{}: {e}", src.display()));
    assert_eq!(
        text.matches("(check-sat)").count(),
        1,
        "single query expected"
    );
    let body = text.replace("(check-sat)", "(check-sat)\n(get-proof)");
    std::fs::write(
        w.path("bench.smt2"),
        format!("(set-option :print-success false)\n(set-option :produce-proofs true)\n{body}"),
    )
    .unwrap();
}

fn setup(cvc5: &Path, solver_filter: &str, corpus_file: &str) -> Work {
    let w = Work::new();
    prepare(&w, corpus_file);
    let cvc5 = cvc5.display();
    w.script(
        "smtcomp_solver",
        &format!("'{cvc5}' --lang smt2 \"$1\"{solver_filter}\n"),
    );
    let checker = include_str!("../../../../demo/archives/cvc5/smtcomp_checker");
    let checker = checker.strip_prefix("#!/bin/sh\n").unwrap();
    w.script("smtcomp_checker", &format!("CVC5='{cvc5}'\n{checker}"));
    w
}

const UNSAT_BENCHMARKS: [&str; 2] = [
    "single/QF_LRA/CVC4-1.8_test_regress_regress0_simple-lra.smt2",
    "single/QF_UF/CVC4-1.8_test_regress_regress0_ite.smt2",
];

#[test]
fn cvc5_proof_is_valid() {
    let Some(cvc5) = require_solver("cvc5") else {
        return;
    };
    for bench in UNSAT_BENCHMARKS {
        let w = setup(&cvc5, "", bench);
        let run = w.run(&["--total-budget", "120", "bench.smt2"]);
        assert_eq!(run.code, Some(0), "{bench}: {}", run.stderr);
        let outcome = interpret(&run.stdout);
        assert_eq!(
            outcome.verdict,
            ProofVerdict::Valid,
            "{bench}: {}",
            run.stdout
        );
        let proof = w.read("proof.txt");
        assert!(proof.starts_with(b"unsat\n("), "{bench}");
        assert_eq!(outcome.proof_size(), Some(proof.len() as u64));
        assert_eq!(gunzip(&w.path("proof.txt.gz")), proof);
        let lines = proof.iter().filter(|&&b| b == b'\n').count() as u64 - 1;
        assert_eq!(outcome.values.get_u64("proof_lines"), Some(lines));
        assert_eq!(outcome.values.get("checked_by"), Some("cvc5-check-proofs"));
        assert_eq!(outcome.values.get("solver_exit"), Some("0"));
        assert!(run.stdout.contains("; checking proof\nvalid\nproof_lines="));
    }
}

#[test]
fn tampered_cvc5_proof_is_invalid() {
    let Some(cvc5) = require_solver("cvc5") else {
        return;
    };
    // Drop the third line (inside the proof).
    let w = setup(&cvc5, " | sed 3d", UNSAT_BENCHMARKS[0]);
    let run = w.run(&["bench.smt2"]);
    let outcome = interpret(&run.stdout);
    assert_eq!(outcome.verdict, ProofVerdict::Invalid, "{}", run.stdout);
    assert!(outcome.verdict.is_erroneous());
}

#[test]
fn cvc5_on_a_sat_benchmark_gives_sat() {
    let Some(cvc5) = require_solver("cvc5") else {
        return;
    };
    let w = setup(
        &cvc5,
        "",
        "single/QF_UF/CVC4-1.8_test_regress_regress0_ite4.smt2",
    );
    let run = w.run(&["bench.smt2"]);
    let outcome = interpret(&run.stdout);
    assert_eq!(outcome.verdict, ProofVerdict::Sat, "{}", run.stdout);
    assert!(w.read("proof.txt").starts_with(b"sat\n"));
}
