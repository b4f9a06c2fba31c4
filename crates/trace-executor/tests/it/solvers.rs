//! Real solvers (z3, yices, cvc5, cvc4) run every incremental file of the
//! curated corpus through `smtcomp-trace-executor`; every expected answer
//! must come back. Solvers are looked up on PATH. A missing solver fails the
//! test when `SMTCOMP_REQUIRE_SOLVERS=1`, and is otherwise skipped with a
//! message.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use crate::common::*;

/// One incremental corpus file with its expected answers (from MANIFEST.tsv).
struct Entry {
    path: PathBuf,
    expected: Vec<String>,
    status_from_set_info: bool,
    yices_ok: bool,
}

fn corpus() -> Vec<Entry> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../corpus");
    let manifest = std::fs::read_to_string(root.join("MANIFEST.tsv")).expect("corpus/MANIFEST.tsv");
    let mut lines = manifest.lines();
    let header: Vec<&str> = lines.next().unwrap().split('\t').collect();
    let col = |name: &str| {
        header
            .iter()
            .position(|h| *h == name)
            .unwrap_or_else(|| panic!("column {name}"))
    };
    let (kind, path, logic, expected, source, yices) = (
        col("kind"),
        col("path_in_package"),
        col("logic"),
        col("expected"),
        col("status_source"),
        col("yices_ok"),
    );
    let entries: Vec<Entry> = lines
        .map(|l| l.split('\t').collect::<Vec<_>>())
        .filter(|f| f[kind] == "incremental")
        .map(|f| Entry {
            path: root
                .join("incremental")
                .join(f[logic])
                .join(f[path].replace('/', "_")),
            expected: f[expected].split(',').map(str::to_string).collect(),
            status_from_set_info: f[source] == "set-info",
            yices_ok: f[yices] == "yes",
        })
        .collect();
    assert!(entries.len() >= 10, "corpus has too few incremental files");
    entries
}

fn on_path(name: &str) -> bool {
    std::env::var_os("PATH")
        .is_some_and(|p| std::env::split_paths(&p).any(|d| d.join(name).is_file()))
}

/// Returns false (after printing why) if the solver is missing and allowed to be.
fn available(name: &str) -> bool {
    if on_path(name) {
        return true;
    }
    if std::env::var("SMTCOMP_REQUIRE_SOLVERS").as_deref() == Ok("1") {
        panic!("{name} not on PATH but SMTCOMP_REQUIRE_SOLVERS=1");
    }
    println!("skipped: {name} not on PATH");
    false
}

fn run_solver(solver: &[&str], opts: &[&str], bench: &Path) -> Run {
    let mut cmd = Command::new(exe());
    cmd.args(opts).args(solver).arg(bench);
    run_cmd(cmd, Duration::from_secs(120))
}

fn check_solver(solver: &[&str], yices: bool) {
    if !available(solver[0]) {
        return;
    }
    let dir = tmp();
    let mut checked = 0;
    for entry in corpus().into_iter().filter(|e| !yices || e.yices_ok) {
        let body = std::fs::read_to_string(&entry.path).unwrap();
        let header: Vec<&str> = entry.expected.iter().map(String::as_str).collect();
        let b = bench(dir.path(), &header, &body);
        let want: String = entry.expected.iter().map(|e| format!("{e}\n")).collect();
        let r = run_solver(solver, &[], Path::new(&b));
        assert_eq!(
            (r.stdout.as_str(), r.code),
            (want.as_str(), Some(0)),
            "{solver:?} on {}",
            entry.path.display()
        );
        // Raw files with (set-info :status) run directly too, with times.
        if entry.status_from_set_info {
            let r = run_solver(solver, &["--status-from-body", "--times"], &entry.path);
            let answers: String = r
                .stdout
                .lines()
                .filter(|l| !l.starts_with("time "))
                .map(|l| format!("{l}\n"))
                .collect();
            assert_eq!(
                (answers.as_str(), r.code),
                (want.as_str(), Some(0)),
                "{solver:?} raw {}",
                entry.path.display()
            );
            let times = r.stdout.lines().filter(|l| l.starts_with("time ")).count();
            assert_eq!(times, entry.expected.len());
        }
        checked += 1;
    }
    assert!(checked >= 10);
}

#[test]
fn z3_answers_every_corpus_query() {
    check_solver(&["z3", "-in"], false);
}

#[test]
fn cvc5_answers_every_corpus_query() {
    check_solver(&["cvc5", "--lang", "smt2", "--incremental"], false);
}

#[test]
fn cvc4_answers_every_corpus_query() {
    check_solver(&["cvc4", "--lang", "smt2", "--incremental"], false);
}

#[test]
fn yices_answers_every_corpus_query() {
    check_solver(&["yices-smt2", "--incremental"], true);
}

#[test]
fn z3_wrong_expectation_is_reported() {
    if !available("z3") {
        return;
    }
    let dir = tmp();
    let b = bench(
        dir.path(),
        &["sat", "sat"],
        "(set-logic QF_LIA)\n(declare-fun x () Int)\n(assert (> x 0))\n(check-sat)\n(assert (< x 0))\n(check-sat)\n(exit)\n",
    );
    run_solver(&["z3", "-in"], &[], Path::new(&b))
        .expect("sat\nWRONG solver response: got unsat, expected sat\n", 2);
}
