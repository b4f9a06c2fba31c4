//! Drop-in compatibility of `smtcomp-trace-executor` with the original
//! `smtlib2_trace_executor`: every row of the message table (spec §1.7), the
//! original's own tests, and the protocol example of §1.9.

use std::path::{Path, PathBuf};

use crate::common::*;

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/it/original")
        .join(name)
}

// --- The original's test suite (test/basic, test/crashing), byte for byte ---

fn original_case(bench: &str, solver: &str, flag: bool, expected: &str) {
    let dir = tmp();
    let expected = std::fs::read_to_string(fixture(expected)).unwrap();
    let b = fixture(bench).to_string_lossy().into_owned();
    let s = fixture(solver).to_string_lossy().into_owned();
    for extra in [None, Some("extra-solver-arg")] {
        let mut args = Vec::new();
        if flag {
            args.push("--continue-after-unknown");
        }
        args.push(&s);
        args.extend(extra);
        args.push(&b);
        let code = if expected.starts_with("BAD") { 1 } else { 0 };
        run_in(dir.path(), &args).expect(&expected, code);
    }
}

#[test]
fn original_basic_all_unknown_without_flag_prints_nothing() {
    original_case(
        "all_unknown.smt2",
        "unknown_solver.sh",
        false,
        "all_unknown.expected",
    );
}

#[test]
fn original_basic_mixed_prints_201_unknown() {
    original_case("mixed.smt2", "unknown_solver.sh", false, "mixed.expected");
}

#[test]
fn original_crashing_solver() {
    original_case(
        "crashing.smt2",
        "crashing_solver.sh",
        false,
        "crashing.expected",
    );
    original_case(
        "crashing.smt2",
        "crashing_solver.sh",
        true,
        "crashing.expected",
    );
}

// --- §1.9 protocol example ---

#[test]
fn protocol_example_with_flag() {
    let dir = tmp();
    let b = bench(dir.path(), &["sat", "unknown", "unsat"], BODY);
    let log = dir.path().join("log");
    let logs = log.to_string_lossy().into_owned();
    run_mock(
        dir.path(),
        &["--continue-after-unknown"],
        &["--answers", "sat,unknown,unsat", "--log", &logs],
        &b,
    )
    .expect("sat\nunknown\nunsat\n", 0);
    let sent: Vec<String> = logged(&log).into_iter().map(|(_, t)| t).collect();
    assert_eq!(
        sent,
        [
            "(set-option :print-success true)",
            "(set-logic QF_UF)",
            "(declare-fun a () Bool)",
            "(push 1)",
            "(assert a)",
            "(check-sat)",
            "(pop 1)",
            "(check-sat)",
            "(assert (not a))",
            "(check-sat)",
            "(exit)",
        ]
    );
}

#[test]
fn protocol_example_without_flag_stops_before_unknown() {
    let dir = tmp();
    let b = bench(dir.path(), &["sat", "unknown", "unsat"], BODY);
    let log = dir.path().join("log");
    let logs = log.to_string_lossy().into_owned();
    run_mock(dir.path(), &[], &["--log", &logs], &b).expect("sat\n", 0);
    let sent: Vec<String> = logged(&log).into_iter().map(|(_, t)| t).collect();
    assert_eq!(sent.len(), 7, "{sent:?}");
    assert_eq!(sent[5], "(check-sat)");
    assert_eq!(sent[6], "(exit)");
}

#[test]
fn expected_unknown_accepts_any_answer_and_unknown_answers_never_wrong() {
    let dir = tmp();
    let b = bench(dir.path(), &["sat", "unknown", "unsat"], BODY);
    run_mock(
        dir.path(),
        &["--continue-after-unknown"],
        &["--answers", "unknown,sat,unknown"],
        &b,
    )
    .expect("unknown\nsat\nunknown\n", 0);
}

// --- Message table of §1.7, one test per row ---

#[test]
fn row_usage_with_too_few_arguments() {
    let dir = tmp();
    let usage = format!(
        "Usage: {} [--continue-after-unknown] SOLVER [SOLVER_OPTIONS] BENCHMARK_WITH_SOLUTIONS\n",
        exe().display()
    );
    run_in(dir.path(), &[]).expect(&usage, 1);
    run_in(dir.path(), &["bench"]).expect(&usage, 1);
    // [FIX] flag + benchmark only: usage, not `Cannot execute: (null)`.
    run_in(dir.path(), &["--continue-after-unknown", "bench"]).expect(&usage, 1);
}

#[test]
fn row_exec_failure_missing_file() {
    let dir = tmp();
    let b = bench(dir.path(), &["sat"], BODY);
    run_in(dir.path(), &["./no-such-solver", &b]).expect(
        "BAD response to set-option command: 'Cannot execute: ./no-such-solver'\n",
        1,
    );
    run_in(dir.path(), &["no-such-solver-anywhere", &b]).expect(
        "BAD response to set-option command: 'Cannot execute: no-such-solver-anywhere'\n",
        1,
    );
}

#[test]
fn row_exec_failure_not_executable() {
    let dir = tmp();
    let b = bench(dir.path(), &["sat"], BODY);
    write(dir.path(), "plain", "not a program");
    run_in(dir.path(), &["./plain", &b]).expect(
        "BAD response to set-option command: 'Cannot execute: ./plain'\n",
        1,
    );
    run_in(dir.path(), &["plain", &b]).expect(
        "BAD response to set-option command: 'Cannot execute: plain'\n",
        1,
    );
}

#[test]
fn row_handshake_eof() {
    let dir = tmp();
    let b = bench(dir.path(), &["sat"], BODY);
    run_mock(dir.path(), &[], &["--on-cmd", "0=@exit"], &b)
        .expect("BAD response to set-option command: unexpected EOF\n", 1);
}

#[test]
fn row_handshake_not_success() {
    let dir = tmp();
    let b = bench(dir.path(), &["sat"], BODY);
    run_mock(dir.path(), &[], &["--on-cmd", "0=unsupported\\n"], &b)
        .expect("BAD response to set-option command: 'unsupported'\n", 1);
}

#[test]
fn row_cannot_open_benchmark() {
    let dir = tmp();
    run_mock(dir.path(), &[], &[], "missing.smt2")
        .expect("BAD benchmark (cannot open): 'missing.smt2'\n", 1);
    // A directory cannot be a benchmark either.
    run_mock(dir.path(), &[], &[], ".").expect("BAD benchmark (cannot open): '.'\n", 1);
}

#[test]
fn row_bad_header_line() {
    let dir = tmp();
    let b = write(
        dir.path(),
        "b",
        "sat\nsatisfiable\n--- BENCHMARK BEGINS HERE ---\n(check-sat)\n",
    );
    run_mock(dir.path(), &[], &[], &b).expect("BAD expected result: 'satisfiable'\n", 1);
    let b = write(
        dir.path(),
        "b",
        "sat\n\n--- BENCHMARK BEGINS HERE ---\n(check-sat)\n",
    );
    run_mock(dir.path(), &[], &[], &b).expect("BAD expected result: ''\n", 1);
}

#[test]
fn row_missing_marker_and_empty_file() {
    let dir = tmp();
    let msg = "BAD benchmark: missing '--- BENCHMARK BEGINS HERE ---'\n";
    let b = write(dir.path(), "b", "sat\nunsat\n");
    run_mock(dir.path(), &[], &[], &b).expect(msg, 1);
    let b = write(dir.path(), "b", "");
    run_mock(dir.path(), &[], &[], &b).expect(msg, 1);
}

#[test]
fn row_body_ends_before_n_queries() {
    let dir = tmp();
    let b = bench(
        dir.path(),
        &["sat", "sat", "sat"],
        "(set-logic QF_UF)\n(check-sat)\n",
    );
    run_mock(dir.path(), &[], &[], &b).expect("sat\nBAD benchmark: unexpected EOF\n", 1);
}

#[test]
fn row_solver_stdout_eof_mid_query() {
    let dir = tmp();
    let b = bench(dir.path(), &["sat", "unknown", "unsat"], BODY);
    run_mock(
        dir.path(),
        &["--continue-after-unknown"],
        &["--on-query", "2=@exit"],
        &b,
    )
    .expect("sat\nBAD response: unexpected EOF\n", 1);
    run_mock(dir.path(), &[], &["--on-query", "1=@abort"], &b)
        .expect("BAD response: unexpected EOF\n", 1);
}

#[test]
fn row_solver_gone_while_writing_is_reported_not_sigpipe() {
    // [FIX] The solver dies right after the handshake; a large body follows.
    let dir = tmp();
    let mut body = String::from("(set-logic QF_UF)\n");
    for i in 0..20_000 {
        body.push_str(&format!("(declare-fun x{i} () Bool)\n"));
    }
    body.push_str("(check-sat)\n");
    let b = bench(dir.path(), &["sat"], &body);
    for _ in 0..5 {
        run_mock(dir.path(), &[], &["--on-cmd", "0=success\\n@exit"], &b)
            .expect("BAD response: unexpected EOF\n", 1);
    }
    // Large header, huge first command: the write itself hits EPIPE.
    let header: Vec<&str> = vec!["sat"; 300_000];
    let big = format!(
        "(assert (and {}))\n(check-sat)\n",
        "true ".repeat(2_000_000)
    );
    let b = bench(dir.path(), &header, &big);
    run_mock(dir.path(), &[], &["--on-cmd", "0=success\\n@exit"], &b)
        .expect("BAD response: unexpected EOF\n", 1);
}

#[test]
fn row_non_success_to_a_command() {
    let dir = tmp();
    let b = bench(dir.path(), &["sat"], BODY);
    run_mock(dir.path(), &[], &["--on-cmd", "1=unsupported\\n"], &b)
        .expect("BAD response to status command: 'unsupported'\n", 1);
    // The solver's own words are kept: an (error ...) reply still says "error".
    run_mock(
        dir.path(),
        &[],
        &["--on-cmd", "2=(error \"no such logic\")\\n"],
        &b,
    )
    .expect(
        "BAD response to status command: '(error \"no such logic\")'\n",
        1,
    );
}

#[test]
fn row_non_answer_to_a_query() {
    let dir = tmp();
    let b = bench(dir.path(), &["sat"], BODY);
    run_mock(dir.path(), &[], &["--on-query", "1=success\\n"], &b)
        .expect("BAD response to check command: 'success'\n", 1);
    run_mock(dir.path(), &[], &["--on-query", "1=satisfiable\\n"], &b)
        .expect("BAD response to check command: 'satisfiable'\n", 1);
}

#[test]
fn row_wrong_answer() {
    let dir = tmp();
    let b = bench(dir.path(), &["sat", "unsat", "unsat"], BODY);
    let log = dir.path().join("log");
    let logs = log.to_string_lossy().into_owned();
    run_mock(
        dir.path(),
        &[],
        &["--answers", "sat,sat,unsat", "--log", &logs],
        &b,
    )
    .expect("sat\nWRONG solver response: got sat, expected unsat\n", 2);
    // Nothing more is sent after a wrong answer, not even (exit).
    let sent = logged(&log);
    assert_eq!(sent.last().unwrap().1, "(check-sat)");
    assert_eq!(sent.len(), 8);
}

#[test]
fn row_normal_end_ignores_solver_exit_status() {
    let dir = tmp();
    let b = bench(dir.path(), &["sat", "unsat", "unsat"], BODY);
    run_mock(
        dir.path(),
        &[],
        &[
            "--answers",
            "sat,unsat,unsat",
            "--on-cmd",
            "10=success\\n@abort",
        ],
        &b,
    )
    .expect("sat\nunsat\nunsat\n", 0);
}

#[test]
fn n_zero_sends_only_exit() {
    let dir = tmp();
    let b = bench(dir.path(), &[], BODY);
    let log = dir.path().join("log");
    let logs = log.to_string_lossy().into_owned();
    run_mock(dir.path(), &[], &["--log", &logs], &b).expect("", 0);
    let sent: Vec<String> = logged(&log).into_iter().map(|(_, t)| t).collect();
    assert_eq!(sent, ["(set-option :print-success true)", "(exit)"]);
}

#[test]
fn header_with_more_and_fewer_entries_than_queries() {
    let dir = tmp();
    // Fewer entries: commands after the last expected query are never sent.
    let b = bench(dir.path(), &["sat"], BODY);
    let log = dir.path().join("log");
    let logs = log.to_string_lossy().into_owned();
    run_mock(dir.path(), &[], &["--log", &logs], &b).expect("sat\n", 0);
    let sent: Vec<String> = logged(&log).into_iter().map(|(_, t)| t).collect();
    assert_eq!(sent.len(), 7);
    assert!(!sent.contains(&"(pop 1)".to_string()));
    // More entries than queries: the file's (exit) ends the run normally.
    let b = bench(dir.path(), &["sat", "unsat", "unsat", "sat", "sat"], BODY);
    run_mock(dir.path(), &[], &["--answers", "sat,unsat,unsat"], &b)
        .expect("sat\nunsat\nunsat\n", 0);
}
