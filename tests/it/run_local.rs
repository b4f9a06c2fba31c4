//! `smtcomp run-local` accounts for every run of the definitions it ran: a
//! definition whose BenchExec call "succeeded" but whose results lack runs (or
//! hold runs that failed to start) is an error naming the definition, the
//! counts and BenchExec's own reason line, and the exit code is 1. BenchExec is
//! replaced by a stand-in script that copies recorded result files.

use crate::support::replay::{self, exec_dir};
use crate::support::{require_tool, smtcomp};
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

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

/// `smtcomp run-local EXECDIR --track TRACK [EXTRA...] --benchexec BENCHEXEC`.
fn run_local(exec: &str, track: &str, benchexec: &Path, extra: &[&str]) -> (i32, String, String) {
    let mut args = vec!["run-local", exec, "--track", track];
    args.extend_from_slice(extra);
    args.extend(["--benchexec", benchexec.to_str().unwrap()]);
    smtcomp(&args)
}

#[test]
fn run_local_reports_missing_runs_with_benchexecs_reason_and_exits_1() {
    if require_tool("z3").is_none() {
        return;
    }
    let out = tempfile::tempdir().unwrap();
    let exec = exec_dir(out.path());
    let e = exec.to_str().unwrap();
    // run-local never runs a definition that has results: start without any.
    std::fs::remove_dir_all(exec.join("results")).unwrap();

    // Every definition gets its own recorded results: everything accounted for.
    let good = fake_benchexec(out.path(), "Yices_2_QF_LinearIntArith");
    let (code, stdout, stderr) = run_local(e, "sq", &good, &[]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(
        stdout.contains("2 of 2 definitions ran, 0 skipped"),
        "{stdout}"
    );

    // Yices' definition gets z3's results: its 2 runs are missing (and z3's
    // are unexpected there); BenchExec exited 0, so only the accounting sees it.
    std::fs::remove_dir_all(exec.join("results")).unwrap();
    let bad = fake_benchexec(out.path(), "z3_QF_LinearIntArith");
    let (code, stdout, stderr) = run_local(e, "single-query", &bad, &[]);
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
    assert!(
        stdout.contains("1 of 2 definitions ran, 0 skipped"),
        "{stdout}"
    );
}

/// A stand-in `benchexec` that records its arguments in `DIR/calls` and writes
/// the recorded Yices result file with the runs of lines `keep` of its XML only
/// (under the time stamp `stamp`), z3's as recorded.
fn partial_benchexec(dir: &Path, name: &str, keep_yices: &str, stamp: &str) -> PathBuf {
    let rec = replay::recording().join("single-query");
    let script = format!(
        r#"#!/bin/sh
echo "$*" >> "{calls}"
out=""; prev=""; def=""
for a in "$@"; do
  [ "$prev" = "-o" ] && out="$a"
  case "$a" in definitions/*.xml) def=$(basename "$a" .xml) ;; esac
  prev="$a"
done
for f in "{rec}/$def/"*; do
  n=$(basename "$f" | sed 's/12-00-00/{stamp}/')
  case "$def,$n" in
    Yices_2_*,*.xml.bz2) bzcat "$f" | sed '{keep_yices}' | bzip2 > "$out/$n" ;;
    *) cp "$f" "$out/$n" ;;
  esac
done
exit 0
"#,
        calls = dir.join("calls").display(),
        rec = rec.display()
    );
    let path = dir.join(name);
    std::fs::write(&path, script).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path
}

/// Resumption: a second call deletes nothing and runs nothing; `--only-missing`
/// runs exactly the runs the accounting reports missing, through
/// `definitions/missing/<definition>.xml`, next to the results already there.
#[test]
fn run_local_resumes_without_deleting_and_runs_only_missing_runs() {
    if require_tool("z3").is_none() || require_tool("bzip2").is_none() {
        return;
    }
    let out = tempfile::tempdir().unwrap();
    let exec = exec_dir(out.path());
    let e = exec.to_str().unwrap();
    std::fs::remove_dir_all(exec.join("results")).unwrap();

    // First call: Yices' result file lacks the run of scrambled1 (XML lines 67-80).
    let first = partial_benchexec(out.path(), "be1", "67,80d", "12-00-00");
    let (code, stdout, stderr) = run_local(e, "sq", &first, &[]);
    assert_eq!(code, 1, "{stdout}{stderr}");
    assert!(
        stderr
            .contains("Yices_2_QF_LinearIntArith.xml: of 2 expected run(s), 1 present, 1 missing"),
        "{stderr}"
    );
    let results = crate::support::tree(&exec.join("results"));

    // Second call without --only-missing: both have results, nothing runs or goes.
    let (code, stdout, stderr) = run_local(e, "sq", &first, &[]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(
        stdout.contains("0 of 2 definitions ran, 2 skipped"),
        "{stdout}"
    );
    assert!(stderr.contains("--only-missing completes it"), "{stderr}");
    assert_eq!(crate::support::tree(&exec.join("results")), results);

    // --only-missing: z3 is complete (skipped); Yices runs only scrambled1, from
    // definitions/missing/, into the same directory (a new time stamp).
    let second = partial_benchexec(out.path(), "be2", "53,66d", "13-00-00");
    let (code, stdout, stderr) = run_local(e, "sq", &second, &["--only-missing"]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(
        stdout.contains("1 of 2 definitions ran, 1 skipped"),
        "{stdout}"
    );
    assert!(
        stderr.contains("z3_QF_LinearIntArith.xml: complete, nothing missing"),
        "{stderr}"
    );
    let calls = std::fs::read_to_string(out.path().join("calls")).unwrap();
    let last = calls.lines().last().unwrap();
    assert!(
        last.starts_with("definitions/missing/Yices_2_QF_LinearIntArith.xml "),
        "{calls}"
    );
    let subset =
        std::fs::read_to_string(exec.join("definitions/missing/Yices_2_QF_LinearIntArith.xml"))
            .unwrap();
    assert!(
        subset.contains("<include>../../tasks/single-query/QF_LIA/scrambled1.yml</include>"),
        "{subset}"
    );
    assert!(!subset.contains("scrambled0"), "{subset}");
    assert!(
        subset.contains("<propertyfile>../../tasks/SMT.prp</propertyfile>"),
        "{subset}"
    );
    // Nothing was deleted; the new file came next to the old ones.
    let now = crate::support::tree(&exec.join("results"));
    for (k, v) in &results {
        if !k.ends_with("benchexec.log") {
            assert_eq!(now.get(k), Some(v), "{k}");
        }
    }
    assert!(
        now.keys().any(|k| k.contains("13-00-00.results.")),
        "{now:?}"
    );

    // Now complete: ingestion accounts for every run through the manifest.
    let (code, stdout, stderr) = run_local(e, "sq", &second, &["--only-missing"]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(
        stdout.contains("0 of 2 definitions ran, 2 skipped"),
        "{stdout}"
    );
    // (the accounting, by ingestion against the runs manifest, finds both complete)
    assert!(
        stderr.contains("Yices_2_QF_LinearIntArith.xml: complete, nothing missing"),
        "{stderr}"
    );
}

#[test]
fn run_local_json_gives_every_definitions_status() {
    if require_tool("z3").is_none() {
        return;
    }
    let out = tempfile::tempdir().unwrap();
    let exec = exec_dir(out.path());
    let e = exec.to_str().unwrap();
    std::fs::remove_dir_all(exec.join("results")).unwrap();
    // Yices' definition gets z3's results: its 2 runs are missing (exit 1).
    let bad = fake_benchexec(out.path(), "z3_QF_LinearIntArith");
    let (code, stdout, stderr) = run_local(e, "sq", &bad, &["--json"]);
    assert_eq!(code, 1, "{stdout}{stderr}");
    assert!(
        stderr.contains("error: Yices_2_QF_LinearIntArith.xml: of 2 expected run(s)"),
        "{stderr}"
    );
    let v: serde_json::Value = serde_json::from_str(&stdout).expect(&stdout);
    let keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(
        keys,
        [
            "exec",
            "results",
            "definitions",
            "ran",
            "skipped",
            "failed",
            "per_definition",
            "problems"
        ]
    );
    // 2 definitions: z3's ran, Yices' failed (2 - 1 = 1 ran).
    assert_eq!(
        (&v["definitions"], &v["ran"], &v["skipped"], &v["failed"]),
        (&2.into(), &1.into(), &0.into(), &1.into())
    );
    let status = |v: &serde_json::Value, d: &str| {
        v["per_definition"]
            .as_array()
            .unwrap()
            .iter()
            .find(|x| x["definition"] == d)
            .unwrap_or_else(|| panic!("{d} not in {v}"))
            .clone()
    };
    assert_eq!(status(&v, "z3_QF_LinearIntArith.xml")["status"], "ran");
    let y = status(&v, "Yices_2_QF_LinearIntArith.xml");
    assert_eq!(y["status"], "failed");
    assert!(
        y["reason"]
            .as_str()
            .unwrap()
            .starts_with("of 2 expected run(s)"),
        "{y}"
    );
    // Again: both have results now, both skipped, nothing fails (exit 0).
    let (code, stdout, stderr) = run_local(e, "sq", &bad, &["--json"]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    let v: serde_json::Value = serde_json::from_str(&stdout).expect(&stdout);
    assert_eq!((&v["ran"], &v["skipped"]), (&0.into(), &2.into()));
    assert_eq!(status(&v, "z3_QF_LinearIntArith.xml")["status"], "skipped");
}

/// A definition whose result file lists its runs without any column
/// (BenchExec stopped in it: an interrupt, `scancel`, a lost node) is not
/// done: `pending` names it unfinished and counts its runs as without a
/// result, so a round that ends like that is incomplete, never "all runs
/// have results" (before: a round whose every definition was stopped that
/// way was reported complete).
#[test]
fn a_definition_stopped_mid_way_is_pending_not_done() {
    if require_tool("z3").is_none() || require_tool("bzip2").is_none() {
        return;
    }
    let out = tempfile::tempdir().unwrap();
    let exec = exec_dir(out.path());
    let done = smtcomp::workspace::pending(&exec).unwrap();
    assert!(done.is_empty(), "{done:?}");
    // Every run of every Single Query result file loses its columns.
    let results = exec.join("results/single-query");
    let mut stripped = 0;
    for e in walkdir::WalkDir::new(&results) {
        let p = e.unwrap().into_path();
        if !p.to_string_lossy().ends_with(".xml.bz2") {
            continue;
        }
        let st = std::process::Command::new("sh")
            .arg("-c")
            .arg(format!(
                "bzcat '{0}' | sed '/<run /,/<\\/run>/{{/<column /d}}' | bzip2 > '{0}.new' && mv '{0}.new' '{0}'",
                p.display()
            ))
            .status()
            .unwrap();
        assert!(st.success());
        stripped += 1;
    }
    assert_eq!(stripped, 2);
    let p = smtcomp::workspace::pending(&exec).unwrap();
    assert!(p.whole.is_empty() && p.partial.is_empty(), "{p:?}");
    assert_eq!(p.unfinished.len(), 2, "{p:?}");
    assert!(!p.is_empty());
    assert_eq!(p.without_result(), 4, "2 solvers x 2 benchmarks");
}
