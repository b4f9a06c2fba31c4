//! The Slurm backend on a real Slurm: `scripts/slurm-local start` (Debian's
//! slurm-wlm and munge, a one-node cluster on localhost; needs root), then the
//! demo competition once on the local BenchExec and once as a Slurm job array
//! (`smtcomp demo --backend slurm`): every run's answer, status, verdict and
//! every score (errors, correct, solved, ... without the times) must be the
//! same. Then the failures: a BenchExec that fails is reported with the Slurm
//! state and BenchExec's reason line; an array that outlives its deadline is
//! cancelled and reported as timed out.
//!
//! Skipped (with a message) when Slurm cannot be started, unless
//! `SMTCOMP_REQUIRE_SOLVERS=1`.

use crate::support::benchexec::table_untimed;
use crate::support::{require_tool, root};
use serde_json::Value;
use std::collections::BTreeSet;
use std::path::Path;
use std::process::Command;

/// One Slurm test at a time: the cluster is shared, and the fault test
/// switches it to three nodes and back.
pub static CLUSTER: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// Holds [`CLUSTER`] (a failed test does not poison it for the others).
pub fn exclusive() -> std::sync::MutexGuard<'static, ()> {
    CLUSTER.lock().unwrap_or_else(|e| e.into_inner())
}

pub fn required() -> bool {
    std::env::var("SMTCOMP_REQUIRE_SOLVERS").is_ok_and(|v| v == "1")
}

/// Starts the local cluster; `false` (after saying why) when it cannot.
fn slurm_up() -> bool {
    let out = Command::new(root().join("scripts/slurm-local"))
        .arg("start")
        .output()
        .expect("run scripts/slurm-local");
    if out.status.success() {
        return true;
    }
    let why = format!(
        "scripts/slurm-local start failed ({:?}): {}",
        out.status.code(),
        String::from_utf8_lossy(&out.stderr)
    );
    if required() {
        panic!("{why} but SMTCOMP_REQUIRE_SOLVERS=1");
    }
    eprintln!("skipped: {why}");
    false
}

fn smtcomp(args: &[&str]) -> (Option<i32>, String, String) {
    let o = Command::new(crate::support::smtcomp_bin())
        .current_dir(root())
        .args(args)
        .output()
        .unwrap();
    (
        o.status.code(),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// The validated run table, each record untimed, as sorted JSON lines.
fn runs(out: &Path) -> Vec<String> {
    table_untimed(&out.join("runs-validated.jsonl.gz"))
}

/// The rows of a score table (`scores/*.md`) with their section, without the
/// rank, the CPU and wall columns and the winner line (times break ties).
fn score_rows(file: &Path) -> BTreeSet<String> {
    let mut section = String::new();
    let mut rows = BTreeSet::new();
    for line in std::fs::read_to_string(file).unwrap().lines() {
        if line.starts_with('#') {
            section = line.split(" (winner").next().unwrap().to_string();
            continue;
        }
        if !line.starts_with("| ") || line.starts_with("| # ") {
            continue;
        }
        let cells: Vec<&str> = line.trim_matches('|').split('|').map(str::trim).collect();
        let kept: Vec<&str> = if cells.len() == 11 {
            // # solver error correct CPU wall solved unsolved abstained timeout memout
            [&cells[1..4], &cells[6..]].concat()
        } else {
            cells
        };
        rows.insert(format!("{section} | {}", kept.join(" | ")));
    }
    rows
}

#[test]
fn the_demo_through_slurm_gives_the_answers_and_scores_of_the_local_run() {
    let _cluster = exclusive();
    for tool in ["benchexec", "runexec", "z3", "yices-smt2", "cvc5", "cvc4"] {
        if require_tool(tool).is_none() {
            return;
        }
    }
    if !slurm_up() {
        return;
    }
    // Not under /tmp: BenchExec's container hides /tmp.
    let base = crate::support::target_tmp();
    let local = base.join("slurm-test-local");
    let slurm = base.join("slurm-test-slurm");
    let (code, stdout, stderr) = smtcomp(&[
        "demo",
        "--jobs",
        "2",
        "--fresh",
        "--out",
        local.to_str().unwrap(),
    ]);
    assert_eq!(code, Some(0), "local demo:\n{stdout}\n{stderr}");
    let (code, stdout, stderr) = smtcomp(&[
        "demo",
        "--jobs",
        "2",
        "--fresh",
        "--backend",
        "slurm",
        "--definitions-per-job",
        "8",
        "--out",
        slurm.to_str().unwrap(),
    ]);
    assert_eq!(code, Some(0), "slurm demo:\n{stdout}\n{stderr}");
    assert!(
        stderr.contains("demo: runs: 154 definitions run"),
        "{stderr}"
    );
    // 154 definitions in chunks of 8: 20 array tasks, each recorded its definitions.
    let batch = slurm.join("exec/slurm/batch-1");
    let mut statuses = 0;
    for k in 0..20 {
        let s = std::fs::read_to_string(batch.join(format!("status-{k}.txt"))).unwrap();
        assert!(s.lines().all(|l| l.starts_with("0 ")), "task {k}: {s}");
        statuses += s.lines().count();
    }
    assert_eq!(statuses, 154);
    assert!(!batch.join("chunk-20.txt").exists());

    let (a, b) = (runs(&local), runs(&slurm));
    assert_eq!(a.len(), 300);
    assert!(
        a == b,
        "run tables differ:\nlocal only: {:?}\nslurm only: {:?}",
        a.iter()
            .filter(|x| !b.contains(x))
            .take(3)
            .collect::<Vec<_>>(),
        b.iter()
            .filter(|x| !a.contains(x))
            .take(3)
            .collect::<Vec<_>>()
    );
    for t in [
        "single-query",
        "incremental",
        "unsat-core",
        "model-validation",
        "proof-exhibition",
    ] {
        let file = format!("scores/{t}.md");
        let (x, y) = (
            score_rows(&local.join(&file)),
            score_rows(&slurm.join(&file)),
        );
        assert!(!x.is_empty(), "{t}: no score rows");
        assert_eq!(x, y, "{t}: scores differ");
    }

    // A BenchExec that fails: reported per definition with the Slurm state of
    // its task and BenchExec's own reason line, exit 1.
    let execdir = slurm.join("exec");
    // Runs are resumable (a definition with results is kept and skipped):
    // these calls start from no results.
    std::fs::remove_dir_all(execdir.join("results")).unwrap();
    let work = tempfile::tempdir().unwrap();
    let failing = work.path().join("benchexec");
    std::fs::write(
        &failing,
        "#!/bin/sh\necho '2025-07-01 12:00:00,000 - CRITICAL - stand-in BenchExec refuses'\nexit 1\n",
    )
    .unwrap();
    let sleeping = work.path().join("benchexec-sleeps");
    let pidfile = work.path().join("sleeper.pid");
    std::fs::write(
        &sleeping,
        format!(
            "#!/bin/sh\necho $$ > {}\nexec sleep 300\n",
            pidfile.display()
        ),
    )
    .unwrap();
    for f in [&failing, &sleeping] {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(f, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let (code, stdout, stderr) = smtcomp(&[
        "run-slurm",
        execdir.to_str().unwrap(),
        "--track",
        "SingleQuery",
        "--division",
        "QF_Bitvec",
        "--definitions-per-job",
        "2",
        "--benchexec",
        failing.to_str().unwrap(),
    ]);
    assert_eq!(code, Some(1), "{stdout}\n{stderr}");
    assert!(
        stdout.contains("0 of 4 definitions ran through Slurm"),
        "{stdout}"
    );
    let errors: Vec<&str> = stderr
        .lines()
        .filter(|l| l.starts_with("error: "))
        .collect();
    assert_eq!(errors.len(), 4, "{stderr}");
    for e in &errors {
        assert!(e.contains("run-local exit 1 in Slurm job "), "{e}");
        assert!(
            e.contains(" FAILED (reason NonZeroExitCode, exit code 1:0)"),
            "{e}"
        );
        assert!(
            e.contains("BenchExec said: stand-in BenchExec refuses"),
            "{e}"
        );
        assert!(e.contains("/exec/slurm/batch-"), "{e}");
    }

    // An array that outlives its deadline: cancelled (the stand-in killed with
    // it), its definitions timed out, exit 1.
    let (code, stdout, stderr) = smtcomp(&[
        "run-slurm",
        execdir.to_str().unwrap(),
        "--track",
        "SingleQuery",
        "--division",
        "QF_Bitvec",
        "--definitions-per-job",
        "4",
        "--slurm-timeout",
        "5",
        "--benchexec",
        sleeping.to_str().unwrap(),
    ]);
    assert_eq!(code, Some(1), "{stdout}\n{stderr}");
    assert!(
        stderr.contains("deadline passed, array cancelled; not run: Slurm job "),
        "{stderr}"
    );
    assert!(stderr.contains(" CANCELLED"), "{stderr}");
    let pid: i32 = std::fs::read_to_string(&pidfile)
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    // Slurm kills the job's processes (KillWait=30 s at most, then SIGKILL).
    let gone = (0..80).any(|_| {
        std::thread::sleep(std::time::Duration::from_millis(500));
        // SAFETY: signal 0 only checks that the process exists.
        let alive = unsafe { libc::kill(pid, 0) } == 0;
        !alive
    });
    assert!(
        gone,
        "the cancelled job's BenchExec stand-in ({pid}) still runs"
    );
}

/// The keys of `run-slurm --json`, in their documented order.
const RUN_SLURM_JSON_KEYS: [&str; 7] = [
    "exec",
    "results",
    "logs",
    "definitions",
    "ran",
    "failed",
    "per_definition",
];

#[test]
fn run_slurm_json_names_every_definition_as_its_result_files_say() {
    let _cluster = exclusive();
    for tool in ["benchexec", "runexec", "z3", "yices-smt2"] {
        if require_tool(tool).is_none() {
            return;
        }
    }
    if !slurm_up() {
        return;
    }
    // The reduced demo (z3 and Yices 2 on five QF_LIA files) through Slurm,
    // its summary as JSON; not under /tmp: BenchExec's container hides /tmp.
    let out = crate::support::target_tmp().join("slurm-json-test");
    let out_s = out.to_str().unwrap();
    let (code, stdout, stderr) = smtcomp(&[
        "demo",
        "--jobs",
        "2",
        "--fresh",
        "--backend",
        "slurm",
        "--definitions-per-job",
        "4",
        "--corpus",
        "tests/data/replay/corpus",
        "--submissions",
        "tests/data/replay/submissions",
        "--json",
        "-o",
        out_s,
    ]);
    assert_eq!(code, Some(0), "{stdout}\n{stderr}");
    let demo: Value = serde_json::from_str(&stdout).unwrap();
    crate::demo::check_demo_json(&demo, &out);

    // run-slurm --json on the same definitions, their results removed: every
    // definition ran, each with its result files (one per rundefinition).
    let exec = std::fs::canonicalize(out.join("exec")).unwrap();
    std::fs::remove_dir_all(exec.join("results")).unwrap();
    let manifest: Value =
        serde_json::from_slice(&std::fs::read(exec.join("manifest.json")).unwrap()).unwrap();
    let definitions = manifest["definitions"].as_object().unwrap();
    let exec_s = exec.to_str().unwrap();
    let (code, stdout, stderr) = smtcomp(&[
        "run-slurm",
        "--exec",
        exec_s,
        "--definitions-per-job",
        "4",
        "--json",
    ]);
    assert_eq!(code, Some(0), "{stdout}\n{stderr}");
    let v: Value = serde_json::from_str(&stdout).unwrap();
    let keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(keys, RUN_SLURM_JSON_KEYS);
    assert_eq!(v["exec"], exec_s);
    assert_eq!(v["results"], exec.join("results").display().to_string());
    assert_eq!(v["logs"], exec.join("slurm").display().to_string());
    assert_eq!(v["definitions"], definitions.len());
    assert_eq!(v["ran"], definitions.len());
    assert_eq!(v["failed"], 0);
    let per: Vec<&Value> = v["per_definition"].as_array().unwrap().iter().collect();
    assert_eq!(per.len(), definitions.len());
    let mut named = BTreeSet::new();
    for p in &per {
        assert_eq!(
            p.as_object().unwrap().keys().collect::<Vec<_>>(),
            ["definition", "status"]
        );
        assert_eq!(p["status"], "ran");
        let name = p["definition"].as_str().unwrap();
        named.insert(name.to_string());
        let d = &definitions[name];
        let results = exec.join(d["results_dir"].as_str().unwrap());
        let xmls = std::fs::read_dir(&results)
            .unwrap()
            .filter(|e| {
                let n = e.as_ref().unwrap().file_name();
                n.to_string_lossy().ends_with(".xml.bz2")
            })
            .count();
        assert_eq!(
            xmls,
            d["rundefinitions"].as_object().unwrap().len(),
            "{name}: {}",
            results.display()
        );
    }
    assert_eq!(named.len(), definitions.len());

    // A BenchExec that fails: every definition failed with its reason, exit 1.
    std::fs::remove_dir_all(exec.join("results")).unwrap();
    let work = tempfile::tempdir().unwrap();
    let failing = work.path().join("benchexec");
    std::fs::write(
        &failing,
        "#!/bin/sh\necho '2025-07-01 12:00:00,000 - CRITICAL - stand-in BenchExec refuses'\nexit 1\n",
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&failing, std::fs::Permissions::from_mode(0o755)).unwrap();
    let (code, stdout, stderr) = smtcomp(&[
        "run-slurm",
        "--exec",
        exec_s,
        "--track",
        "SingleQuery",
        "--definitions-per-job",
        "4",
        "--benchexec",
        failing.to_str().unwrap(),
        "--json",
    ]);
    assert_eq!(code, Some(1), "{stdout}\n{stderr}");
    let v: Value = serde_json::from_str(&stdout).unwrap();
    let sq = definitions
        .values()
        .filter(|d| d["track"] == "SingleQuery")
        .count();
    assert_eq!(sq, 2, "z3 and Yices 2 in QF_LinearIntArith");
    assert_eq!(
        (
            v["definitions"].clone(),
            v["ran"].clone(),
            v["failed"].clone()
        ),
        (sq.into(), 0.into(), sq.into())
    );
    for p in v["per_definition"].as_array().unwrap() {
        assert_eq!(
            p.as_object().unwrap().keys().collect::<Vec<_>>(),
            ["definition", "status", "reason"]
        );
        assert_eq!(p["status"], "failed");
        let reason = p["reason"].as_str().unwrap();
        assert!(
            reason.contains("BenchExec said: stand-in BenchExec refuses"),
            "{reason}"
        );
    }
}
