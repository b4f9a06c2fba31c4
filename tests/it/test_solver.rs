//! `smtcomp test-solver` without real BenchExec: input errors and pre-flight
//! checks (exit 2, before anything runs), a BenchExec that fails as a whole
//! (exit 2, our side, never a solver failure). The real runs are in
//! `tests/e2e/test_solver.rs`.

use crate::support::{root, smtcomp};
use std::path::Path;

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
        stderr.contains(
            "z3 enters none of the requested tracks (Cloud); it enters SingleQuery, Incremental, UnsatCore, ModelValidation"
        ),
        "{stderr}"
    );
    let (code, _, stderr) = test_solver(&["demo/submissions/z3.json", "--logic", "QF_("]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("--logic QF_("), "{stderr}");
}

#[test]
fn a_benchmark_list_needs_a_library_and_benchmarks() {
    let dir = crate::support::work_dir("ts-list-usage");
    let list = dir.path().join("l.txt");
    std::fs::write(&list, "# track: sq\nnon-incremental/QF_BV/x.smt2\n").unwrap();
    let l = list.to_str().unwrap();
    let (code, _, stderr) = test_solver(&["demo/submissions/z3.json", "--benchmarks", l]);
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("give the SMT-LIB copy the listed benchmarks are in as --library DIR"),
        "{stderr}"
    );
    std::fs::write(&list, "# nothing\n").unwrap();
    let d = dir.path().to_str().unwrap();
    let (code, _, stderr) = test_solver(&[
        "demo/submissions/z3.json",
        "--benchmarks",
        l,
        "--library",
        d,
    ]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("lists no benchmark"), "{stderr}");
    std::fs::write(&list, "QF_BV/x.smt2\n").unwrap();
    let (code, _, stderr) = test_solver(&[
        "demo/submissions/z3.json",
        "--benchmarks",
        l,
        "--library",
        d,
    ]);
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains(":1: 'QF_BV/x.smt2' is not a benchmark path"),
        "{stderr}"
    );
    // A list of a logic z3 does not enter (z3's demo submission: QF_ logics).
    std::fs::write(&list, "# track: sq\nnon-incremental/LIA/x.smt2\n").unwrap();
    let (code, _, stderr) = test_solver(&[
        "demo/submissions/z3.json",
        "--benchmarks",
        l,
        "--library",
        d,
    ]);
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("lists no benchmark of a logic z3 enters in the tested tracks"),
        "{stderr}"
    );
}

/// A CI job must not pass having tested nothing.
#[test]
fn filters_that_select_nothing_exit_2() {
    let (code, stdout, stderr) = test_solver(&["demo/submissions/z3.json", "--logic", "LIA"]);
    assert_eq!(code, 2, "{stdout}\n{stderr}");
    assert!(
        stderr.contains("--logic LIA: matches none of the logics z3 enters; nothing to test"),
        "{stderr}"
    );
    assert!(!stdout.contains("PASSED"), "{stdout}");
    let (code, _, stderr) = test_solver(&[
        "demo/submissions/z3.json",
        "--track",
        "inc",
        "--logic",
        "UF|LIA",
    ]);
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("--logic UF|LIA: matches none of the logics z3 enters in Incremental"),
        "{stderr}"
    );
    // Lower case: the logic it meant is named.
    let (code, _, stderr) = test_solver(&["demo/submissions/z3.json", "--logic", "qf_lia"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("--logic qf_lia: matches none of the logics z3 enters (logic names are case-sensitive: QF_LIA is entered; try --logic QF_LIA); nothing to test"),
        "{stderr}"
    );
}

/// A submission of `commands` (one participation each: Single Query, QF_LIA).
fn submission(dir: &Path, commands: &[&[&str]]) -> String {
    let participations: Vec<serde_json::Value> = commands
        .iter()
        .map(|c| serde_json::json!({ "tracks": ["SingleQuery"], "logics": ["QF_LIA"], "command": c }))
        .collect();
    let sub = serde_json::json!({
        "name": "preflight",
        "contributors": ["Test"],
        "contacts": ["Test <test@example.org>"],
        "archive": { "url": "https://example.org/s.tar.gz" },
        "website": "https://example.org",
        "system_description": "https://example.org/s.pdf",
        "solver_type": "Standalone",
        "participations": participations,
        "seed": 7,
        "competitive": false,
        "final": false
    });
    let file = dir.join("sub.json");
    std::fs::write(&file, serde_json::to_string_pretty(&sub).unwrap()).unwrap();
    file.to_str().unwrap().to_string()
}

fn write_script(path: &Path, text: &str, mode: u32) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::write(path, text).unwrap();
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
}

/// Every command is checked before BenchExec (which would only say "status
/// FAILED" on every run): each problem in plain words, exit 2, nothing run.
#[test]
fn commands_that_cannot_start_are_named_before_benchexec() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write_script(&d.join("not-exec.sh"), "#!/bin/sh\necho sat\n", 0o644);
    write_script(
        &d.join("bad-interp.sh"),
        "#!/no/such/shell\necho sat\n",
        0o755,
    );
    std::fs::create_dir(d.join("adir")).unwrap();
    let sub = submission(
        d,
        &[
            &["./missing"],
            &["./not-exec.sh"],
            &["./bad-interp.sh"],
            &["./adir"],
        ],
    );
    let out = d.join("out");
    let (code, stdout, stderr) = test_solver(&[
        &sub,
        "--solver-dir",
        d.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        // Never reached: the pre-flight fails first.
        "--benchexec",
        "/no/such/benchexec",
    ]);
    assert_eq!(code, 2, "{stdout}\n{stderr}");
    let dp = d.canonicalize().unwrap();
    let dp = dp.display();
    for want in [
        "the solver cannot be started (nothing was run):".to_string(),
        format!(
            "command './missing' (participation 0): {dp}/./missing does not exist (the command is relative to the solver directory {dp})"
        ),
        format!(
            "command './not-exec.sh' (participation 1): {dp}/./not-exec.sh is not executable (run chmod +x on it; an archive must keep the permission)"
        ),
        format!(
            "command './bad-interp.sh' (participation 2): {dp}/./bad-interp.sh starts with #! but its interpreter /no/such/shell does not exist"
        ),
        format!("command './adir' (participation 3): {dp}/./adir is a directory, not a program"),
    ] {
        assert!(stderr.contains(&want), "missing {want:?} in:\n{stderr}");
    }
    assert!(!out.join("exec").exists(), "nothing generated");

    // A bare name not on PATH.
    let sub = submission(d, &[&["no-such-solver-xyz", "-q"]]);
    let (code, _, stderr) = test_solver(&[&sub, "--out", out.to_str().unwrap()]);
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("command 'no-such-solver-xyz' (participation 0): not found on PATH"),
        "{stderr}"
    );
}

/// BenchExec failing as a whole (here: a stand-in that logs a CRITICAL line
/// and exits 1, as BenchExec does when it cannot assign cores) is our side's
/// problem: NOT RUN, exit 2, BenchExec's own words, never FAIL.
#[test]
fn benchexec_failing_as_a_whole_is_not_a_solver_failure() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let fake = d.join("benchexec");
    write_script(
        &fake,
        "#!/bin/sh\necho '2026-01-01 00:00:00 - CRITICAL - Cannot run benchmarks with 2 CPU cores each in parallel on this machine.'\nexit 1\n",
        0o755,
    );
    let out = d.join("out");
    let (code, stdout, stderr) = test_solver(&[
        "demo/submissions/z3.json",
        "--track",
        "sq",
        "--logic",
        "QF_LIA",
        "--per-logic",
        "1",
        "--benchexec",
        fake.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 2, "{stdout}\n{stderr}");
    assert!(stdout.contains("NOT RUN"), "{stdout}");
    assert!(!stdout.contains("FAIL "), "{stdout}");
    assert!(
        stdout.contains("BenchExec said: Cannot run benchmarks with 2 CPU cores each in parallel on this machine."),
        "{stdout}"
    );
    assert!(
        stdout.contains("INCOMPLETE: 0 OK, 0 FAIL, 1 NOT RUN"),
        "{stdout}"
    );
    assert!(
        stderr.contains("a problem on our side, not the solver's"),
        "{stderr}"
    );
}

/// `--json`: the report on stdout, machine-readable, also when nothing ran.
#[test]
fn json_report_on_stdout() {
    let dir = tempfile::tempdir().unwrap();
    let fake = dir.path().join("benchexec");
    write_script(&fake, "#!/bin/sh\nexit 1\n", 0o755);
    let out = dir.path().join("out");
    let (code, stdout, stderr) = test_solver(&[
        "demo/submissions/z3.json",
        "--track",
        "mv",
        "--logic",
        "QF_UFNIA",
        "--per-logic",
        "1",
        "--benchexec",
        fake.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--json",
    ]);
    assert_eq!(code, 2, "{stderr}");
    let r: serde_json::Value = serde_json::from_str(&stdout).expect("JSON on stdout");
    assert_eq!(r["solver"], "z3");
    assert_eq!(r["not_run"], 1);
    // QF_UFNIA has no benchmark in the corpus: a generated sat one.
    let run = &r["tracks"][0]["logics"][0]["runs"][0];
    assert_eq!(run["generated"], true, "{stdout}");
    assert_eq!(
        run["benchmark"],
        "non-incremental/QF_UFNIA/test-solver-generated/sat.smt2"
    );
    assert_eq!(r["coverage"]["entered"], 1);
    assert!(root().join("demo").exists());
}
