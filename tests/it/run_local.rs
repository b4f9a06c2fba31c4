//! `smtcomp run-local` accounts for every run of the definitions it ran: a
//! definition whose BenchExec call "succeeded" but whose results lack runs (or
//! hold runs that failed to start) is an error naming the definition, the
//! counts and BenchExec's own reason line, and the exit code is 1. BenchExec is
//! replaced by a stand-in script that copies recorded result files.

use crate::support::{replay, require_tool, smtcomp};
use smtcomp::pipeline::Replay;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

/// An execution directory of the reduced demo (generated, with results).
fn exec_dir(out: &Path) -> PathBuf {
    let opts = replay::demo_options(out);
    let runner = Replay {
        recording: replay::recording(),
    };
    smtcomp::demo::run(&opts, &runner, &mut |_| {}).unwrap();
    out.join("exec")
}

/// A stand-in `benchexec`: copies the recorded single-query results of
/// `$SOURCE` (a definition name) into the `-o` directory, logs one ERROR line
/// and exits 0, as BenchExec does when runs could not start.
fn fake_benchexec(dir: &Path, source_for_yices: &str) -> PathBuf {
    let rec = replay::recording().join("single-query");
    let script = format!(
        r#"#!/bin/sh
out=""; prev=""; def=""
for a in "$@"; do
  [ "$prev" = "-o" ] && out="$a"
  case "$a" in definitions/*.xml) def=$(basename "$a" .xml) ;; esac
  prev="$a"
done
src="$def"
[ "$def" = "Yices_2_QF_LinearIntArith" ] && src="{source_for_yices}"
cp "{rec}/$src/"* "$out"
echo "2025-07-01 12:00:00 - ERROR - stand-in benchexec: tool could not be started"
exit 0
"#,
        rec = rec.display()
    );
    let path = dir.join("benchexec");
    std::fs::write(&path, script).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path
}

#[test]
fn run_local_reports_missing_runs_with_benchexecs_reason_and_exits_1() {
    if require_tool("z3").is_none() {
        return;
    }
    let out = tempfile::tempdir().unwrap();
    let exec = exec_dir(out.path());
    let e = exec.to_str().unwrap();

    // Every definition gets its own recorded results: everything accounted for.
    let good = fake_benchexec(out.path(), "Yices_2_QF_LinearIntArith");
    let (code, stdout, stderr) = smtcomp(&[
        "run-local",
        e,
        "--track",
        "sq",
        "--benchexec",
        good.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(stdout.contains("2 of 2 definitions ran"), "{stdout}");

    // Yices' definition gets z3's results: its 2 runs are missing (and z3's
    // are unexpected there); BenchExec exited 0, so only the accounting sees it.
    let bad = fake_benchexec(out.path(), "z3_QF_LinearIntArith");
    let (code, stdout, stderr) = smtcomp(&[
        "run-local",
        e,
        "--track",
        "single-query",
        "--benchexec",
        bad.to_str().unwrap(),
    ]);
    assert_eq!(code, 1, "{stdout}{stderr}");
    assert!(
        stderr.contains(
            "error: Yices_2_QF_LinearIntArith.xml: of 2 expected run(s), 0 present, 2 missing, 0 failed to start"
        ),
        "{stderr}"
    );
    assert!(
        stderr.contains("BenchExec said: stand-in benchexec: tool could not be started"),
        "{stderr}"
    );
    assert!(!stderr.contains("z3_QF_LinearIntArith.xml:"), "{stderr}");
    assert!(stdout.contains("1 of 2 definitions ran"), "{stdout}");
}
