//! `smtcomp test-solver` input errors (exit 2), without BenchExec; the real
//! runs are in `tests/e2e/test_solver.rs`.

use crate::support::smtcomp;

/// Runs `smtcomp test-solver ARGS` from the crate root: (exit code, stdout, stderr).
fn test_solver(args: &[&str]) -> (i32, String, String) {
    smtcomp(&[&["test-solver"], args].concat())
}

#[test]
fn a_submission_with_errors_exits_2_with_the_checks_message() {
    let (code, stdout, stderr) = test_solver(&["tests/data/submissions-broken/bad-seed.json"]);
    assert_eq!(code, 2, "{stdout}\n{stderr}");
    assert!(stderr.contains("bad-seed.json: $.seed: error:"), "{stderr}");
    assert!(stderr.contains("error(s) in the submission"), "{stderr}");
    assert!(stdout.is_empty(), "{stdout}");
}

#[test]
fn unusable_options_exit_2() {
    let (code, _, stderr) = test_solver(&["demo/submissions/z3.json", "--track", "Cloud"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("z3 enters none of the requested tracks (Cloud)"),
        "{stderr}"
    );
    let (code, _, stderr) = test_solver(&["demo/submissions/z3.json", "--logic", "QF_("]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("--logic QF_("), "{stderr}");
}
