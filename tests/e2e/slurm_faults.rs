//! Faults of a competition on Slurm, on a real three-node cluster
//! (`scripts/slurm-local start --nodes 3`, one `slurmd` per network
//! namespace): an organizer's `smtcomp run` (backend `slurm`, one definition
//! per array task) is hit, in turn, by
//!
//! 1. an administrator's `scancel` of the array mid-run: the run says which
//!    tasks were cancelled and exits 1; no BenchExec or `run-local` is left;
//! 2. the loss of a node mid-run (`kill-node`: every process of it killed):
//!    the lost task ends `NODE_FAIL`, the others complete, exit 1;
//! 3. SIGKILL of `smtcomp run` itself while its array works: `status` says the
//!    array runs, a resume is refused until the array ended (instead of
//!    setting aside and re-running what it is writing);
//! 0. (first) SIGINT to `smtcomp run` while its array works: the array is
//!    cancelled, exit 130, nothing of it left;
//!
//! each followed by a resume; then the stages after the runs are stopped at
//! every point (`SMTCOMP_FAULT`, SIGKILL and SIGINT) and resumed. The last
//! resume completes with every run exactly once, with the answers the
//! solvers give, and `status` exits 0.

use crate::interrupt::{output, slow_solver, smtcomp, wait_for, wait_until_gone, workspace_with};
use crate::slurm::{exclusive, required};
use crate::support::benchexec::table_untimed;
use crate::support::{require_tool, root, work_dir};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

fn slurm_local(args: &[&str]) -> (bool, String) {
    let o = Command::new(root().join("scripts/slurm-local"))
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("run scripts/slurm-local");
    (
        o.status.success(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// Puts the one-node cluster back (the other Slurm tests expect it).
struct OneNodeAgain;

impl Drop for OneNodeAgain {
    fn drop(&mut self) {
        let (ok, err) = slurm_local(&["start"]);
        if !ok {
            eprintln!("scripts/slurm-local start (one node again) failed: {err}");
        }
    }
}

/// `squeue` lines of our arrays: `JOBID STATE NODE`.
fn our_tasks() -> Vec<String> {
    let o = Command::new("squeue")
        .args(["-h", "-n", "smtcomp-benchexec", "-o", "%i %T %N"])
        .output()
        .unwrap();
    String::from_utf8_lossy(&o.stdout)
        .lines()
        .map(str::to_string)
        .collect()
}

/// The node of a running task of ours (waits for one, at most 3 minutes).
fn a_running_node() -> String {
    let mut node = String::new();
    wait_for("a running array task", Duration::from_secs(180), || {
        node = our_tasks()
            .iter()
            .find_map(|l| {
                let w: Vec<&str> = l.split_whitespace().collect();
                (w.get(1) == Some(&"RUNNING")).then(|| w.get(2).unwrap_or(&"").to_string())
            })
            .unwrap_or_default();
        !node.is_empty()
    });
    node
}

fn no_process_of(exec: &str, after: &str) {
    wait_until_gone(
        &format!("no BenchExec or run-local left after {after}"),
        exec,
        Duration::from_secs(180),
    );
}

fn set_backend_slurm(ws: &Path) {
    let toml = ws.join("smtcomp.toml");
    let text = std::fs::read_to_string(&toml)
        .unwrap()
        .replace("kind = \"local\"", "kind = \"slurm\"")
        .replace("# definitions_per_job = 8", "definitions_per_job = 1");
    assert!(text.contains("kind = \"slurm\"") && text.contains("\ndefinitions_per_job = 1"));
    std::fs::write(toml, text).unwrap();
}

#[test]
fn cancelled_arrays_lost_nodes_and_a_killed_driver_end_with_every_run_once() {
    let _cluster = exclusive();
    if require_tool("benchexec").is_none() || require_tool("sbatch").is_none() {
        return;
    }
    let _restore = OneNodeAgain;
    let (ok, err) = slurm_local(&["start", "--nodes", "3"]);
    if !ok {
        assert!(!required(), "scripts/slurm-local start --nodes 3: {err}");
        eprintln!("skipped: scripts/slurm-local start --nodes 3: {err}");
        return;
    }
    let work = work_dir("slurm-faults");
    let slow = |answer: &str| slow_solver(5, answer);
    let (a, b, c, d) = (slow("sat"), slow("unknown"), slow("unsat"), slow("unknown"));
    let ws = workspace_with(
        work.path(),
        &[
            ("A", "Ann", &a),
            ("B", "Bob", &b),
            ("C", "Cid", &c),
            ("D", "Dan", &d),
        ],
    );
    set_backend_slurm(&ws);
    let exec = ws.join("exec").display().to_string();
    let start_run = || {
        smtcomp(&ws)
            .arg("run")
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap()
    };
    let finish = |child: std::process::Child| {
        let o = child.wait_with_output().unwrap();
        (
            o.status.code().unwrap_or(-1),
            String::from_utf8_lossy(&o.stdout).into_owned() + &String::from_utf8_lossy(&o.stderr),
        )
    };

    // 0. Ctrl-C (SIGINT to smtcomp alone) while the array works.
    let run = start_run();
    a_running_node();
    std::thread::sleep(Duration::from_secs(2));
    // SAFETY: kill(2) on our own child.
    unsafe { libc::kill(run.id() as i32, libc::SIGINT) };
    let (code, out) = finish(run);
    assert_eq!(code, 130, "{out}");
    assert!(
        out.contains("interrupted by SIGINT; stopped: Slurm job array "),
        "{out}"
    );
    wait_for(
        "the cancelled array to leave the queue",
        Duration::from_secs(180),
        || our_tasks().is_empty(),
    );
    no_process_of(&exec, "SIGINT");

    // 1. An administrator cancels the array mid-run.
    let run = start_run();
    a_running_node();
    std::thread::sleep(Duration::from_secs(3));
    let jobs: Vec<String> = our_tasks()
        .iter()
        .filter_map(|l| l.split('_').next().map(str::to_string))
        .collect();
    assert!(!jobs.is_empty());
    let st = Command::new("scancel").arg(&jobs[0]).status().unwrap();
    assert!(st.success());
    let (code, out) = finish(run);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("runs ") && out.contains("failed"), "{out}");
    assert!(out.contains("CANCELLED"), "{out}");
    no_process_of(&exec, "scancel");

    // 2. A node is lost while its task runs.
    let run = start_run();
    let node = a_running_node();
    std::thread::sleep(Duration::from_secs(3));
    let (ok, err) = slurm_local(&["kill-node", &node, "--wait"]);
    assert!(ok, "kill-node {node}: {err}");
    let (code, out) = finish(run);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("NODE_FAIL"), "{out}");
    no_process_of(&exec, &format!("the loss of {node}"));
    let (ok, err) = slurm_local(&["revive-node", &node]);
    assert!(ok, "revive-node {node}: {err}");

    // 3. `smtcomp run` is killed while its array works.
    let mut run = start_run();
    a_running_node();
    run.kill().unwrap();
    let _ = run.wait();
    let (code, out, err) = output(smtcomp(&ws).arg("status"));
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.contains("running: Slurm job array "), "{out}");
    let (code, out, err) = output(smtcomp(&ws).arg("run"));
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.contains("of an earlier run still works in"), "{out}");
    wait_for("the orphan array to end", Duration::from_secs(300), || {
        our_tasks().is_empty()
    });

    // The stages after the runs, stopped at every point and resumed.
    let points = [
        "before:runs",
        "after:runs",
        "before:ingestion",
        "write:runs-ingested.jsonl.gz",
        "stamp:ingestion",
        "after:ingestion",
        "before:validation",
        "write:runs.jsonl.gz",
        "stamp:validation",
        "after:validation",
        "before:scoring",
        "after:scoring",
        "before:report",
        "after:report",
    ];
    let stops = crate::kill_anywhere::stop_everywhere(&points, &exec, |fault| {
        output(smtcomp(&ws).arg("run").env("SMTCOMP_FAULT", fault))
    });
    assert_eq!(stops, 2 * points.len());

    // The resume completes: every run once, with the solvers' answers.
    let (code, out, err) = output(smtcomp(&ws).arg("run"));
    assert_eq!(code, 0, "{out}{err}");
    let (code, out, err) = output(smtcomp(&ws).arg("status"));
    assert_eq!(code, 0, "{out}{err}");
    let runs = table_untimed(&ws.join("runs-ingested.jsonl.gz"));
    assert_eq!(runs.len(), 8, "{runs:#?}");
    let mut pairs = std::collections::BTreeSet::new();
    for r in &runs {
        let v: serde_json::Value = serde_json::from_str(r).unwrap();
        let solver = v["solver"].as_str().unwrap();
        let want = match solver {
            "A" => "sat",
            "C" => "unsat",
            _ => "unknown",
        };
        assert_eq!(v["answer"], want, "{r}");
        assert!(pairs.insert((solver.to_string(), v["benchmark_key"].to_string())));
    }
    let aside = walkdir::WalkDir::new(ws.join("exec/superseded"))
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_name().to_string_lossy().ends_with(".xml.bz2"))
        .count();
    assert!(aside >= 1, "unfinished result sets kept aside: {aside}");
}
