//! Kill anywhere: `smtcomp run` is stopped at every point of its stage
//! sequence (before each stage, between a cached stage's work and its stamp,
//! after it, between two BenchExec calls, between writing a data file and
//! renaming it into place), once by SIGKILL and once by SIGINT at each point,
//! each stop followed by the next `smtcomp run` (the resume). The points are
//! the fault-injection points of `SMTCOMP_FAULT` (`src/util/fault.rs`).
//! Afterwards the run table and the scores must equal those of an
//! uninterrupted run of the same workspace (times aside): no run missing,
//! none doubled, no process of the run left after any stop.

use crate::interrupt::{output, slow_solver, smtcomp, wait_until_gone, workspace_with};
use crate::support::benchexec::{table_untimed, untimed};
use crate::support::{require_tool, work_dir};
use std::path::Path;
use std::time::Duration;

/// Every point an uninterrupted `smtcomp run` of the test workspace passes,
/// in order (Single Query only: the core-validation stages are skipped).
const POINTS: &[&str] = &[
    "before:inventory",
    "write:inventory.json",
    "stamp:inventory",
    "after:inventory",
    "before:selection",
    "stamp:selection",
    "after:selection",
    "before:preparation",
    "stamp:preparation",
    "after:preparation",
    "before:generation",
    "stamp:generation",
    "after:generation",
    "before:runs",
    "runs:after-definition",
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
    "write:single-query.json",
    "after:scoring",
    "before:report",
    "after:report",
];

/// Two solvers (two teams): one answers `sat`, one `unknown`, after a second.
fn workspace(base: &Path) -> std::path::PathBuf {
    let (sure, unsure) = (slow_solver(1, "sat"), slow_solver(1, "unknown"));
    workspace_with(base, &[("Sure", "Ann", &sure), ("Unsure", "Bob", &unsure)])
}

/// What must not depend on interruptions: the ingested run table (without
/// the result and log file names, which carry BenchExec's start time) and
/// the score files, untimed.
fn outcome(dir: &Path, table: &str) -> (Vec<String>, Vec<serde_json::Value>) {
    let mut scores = Vec::new();
    for e in std::fs::read_dir(dir.join("scores")).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|x| x == "json") {
            let v: serde_json::Value =
                serde_json::from_str(&std::fs::read_to_string(&p).unwrap()).unwrap();
            scores.push((p, without_time_scores(&untimed(&v))));
        }
    }
    scores.sort_by(|a, b| a.0.cmp(&b.0));
    let mut runs: Vec<String> = table_untimed(&dir.join(table))
        .iter()
        .map(|l| {
            let mut v: serde_json::Value = serde_json::from_str(l).unwrap();
            let m = v.as_object_mut().unwrap();
            assert!(
                m.remove("source").is_some() && m.remove("log").is_some(),
                "{l}"
            );
            v.to_string()
        })
        .collect();
    runs.sort();
    (runs, scores.into_iter().map(|(_, v)| v).collect())
}

/// A score file without what the runs' times decide: the time scores
/// (`CPUScore`, `WallScore`, `tieBreakTimeScore`, `timeScore`), the winners,
/// the order of the rows (ties on the correct score are broken by time), and
/// which of two tied solvers a biggest-lead entry names first (a lead of 1.0:
/// equal correct scores, ordered by time).
fn without_time_scores(v: &serde_json::Value) -> serde_json::Value {
    use serde_json::Value;
    match v {
        Value::Object(m) => {
            let mut out: serde_json::Map<String, Value> = m
                .iter()
                .filter(|(k, _)| {
                    !k.ends_with("TimeScore")
                        && !k.starts_with("winner")
                        && !["CPUScore", "WallScore", "timeScore", "nameTies"].contains(&k.as_str())
                })
                .map(|(k, x)| (k.clone(), without_time_scores(x)))
                .collect();
            let tied = out.get("correctScore").and_then(Value::as_f64) == Some(1.0);
            if let (true, Some(Value::String(a)), Some(Value::String(b))) =
                (tied, out.get("name").cloned(), out.get("second").cloned())
                && a > b
            {
                out.insert("name".into(), Value::String(b));
                out.insert("second".into(), Value::String(a));
            }
            Value::Object(out)
        }
        Value::Array(a) => {
            let mut rows: Vec<Value> = a.iter().map(without_time_scores).collect();
            rows.sort_by_key(|r| r.to_string());
            Value::Array(rows)
        }
        other => other.clone(),
    }
}

/// Stops `invoke` (one `smtcomp` call with `SMTCOMP_FAULT` set to its
/// argument) at every point, by SIGKILL then by SIGINT; after each stop no
/// process whose command line names `needle` may be left. Returns the stops.
pub fn stop_everywhere(
    points: &[&str],
    needle: &str,
    mut invoke: impl FnMut(&str) -> (i32, String, String),
) -> usize {
    let mut stops = 0;
    for point in points {
        for (signal, want) in [("KILL", -1), ("INT", 130)] {
            let (code, out, err) = invoke(&format!("{signal}@{point}"));
            assert_eq!(
                code, want,
                "SIG{signal} at {point}: the point is passed and stops the run\n{out}{err}"
            );
            if signal == "INT" {
                assert!(err.contains("interrupted by SIGINT"), "{point}: {err}");
            }
            // A stop between BenchExec calls may leave the other call (two
            // side by side) running after SIGKILL: it ends by itself.
            wait_until_gone(
                &format!("no process of the run left after SIG{signal} at {point}"),
                needle,
                Duration::from_secs(300),
            );
            stops += 1;
        }
    }
    stops
}

#[test]
fn a_run_stopped_at_every_point_and_resumed_equals_an_uninterrupted_run() {
    if require_tool("benchexec").is_none() {
        return;
    }
    let work = work_dir("kill-anywhere");
    let reference = workspace(&work.path().join("reference"));
    // Piped, the runs stage says how far it is (every 0.5 s here, 30 s by default).
    let (code, out, err) = output(
        smtcomp(&reference)
            .arg("run")
            .env("SMTCOMP_PROGRESS_INTERVAL", "0.5"),
    );
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        err.lines()
            .any(|l| l.starts_with("benchexec definitions: ") && l.contains(" of 2 done (")),
        "no progress line when piped: {err}"
    );
    let expected = outcome(&reference, "runs-ingested.jsonl.gz");
    assert_eq!(expected.0.len(), 4, "2 benchmarks x 2 solvers");

    let ws = workspace(&work.path().join("stopped"));
    let exec = ws.join("exec").display().to_string();
    let stops = stop_everywhere(POINTS, &exec, |fault| {
        let stopped = output(smtcomp(&ws).arg("run").env("SMTCOMP_FAULT", fault));
        // Before a BenchExec call ended, `status` must not say done.
        let (code, out, err) = output(smtcomp(&ws).arg("status"));
        if POINTS
            .iter()
            .take_while(|p| **p != "runs:after-definition")
            .any(|p| fault.ends_with(&format!("@{p}")))
        {
            assert_ne!(code, 0, "status after {fault}: {out}{err}");
        }
        stopped
    });
    assert_eq!(stops, 2 * POINTS.len());

    // The last resume completes, and `status` agrees.
    let (code, out, err) = output(smtcomp(&ws).arg("run"));
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("every stage done"), "{out}");
    let (code, out, err) = output(smtcomp(&ws).arg("status"));
    assert_eq!(code, 0, "{out}{err}");
    let got = outcome(&ws, "runs-ingested.jsonl.gz");
    assert_eq!(got.0, expected.0, "the run table");
    assert_eq!(got.1, expected.1, "the scores");
}

/// The points of the reduced demo: those of `smtcomp run` without the data
/// files' renames (the demo writes other files).
fn demo_points() -> Vec<&'static str> {
    POINTS
        .iter()
        .copied()
        .filter(|p| !p.starts_with("write:"))
        .collect()
}

#[test]
fn the_demo_stopped_at_every_point_and_resumed_equals_an_uninterrupted_demo() {
    for tool in ["benchexec", "z3", "yices-smt2"] {
        if require_tool(tool).is_none() {
            return;
        }
    }
    // The reduced demo (z3 and Yices 2, 12 runs); not under /tmp: BenchExec's
    // container hides /tmp.
    let base = crate::support::target_tmp().join("kill-anywhere-demo");
    let _ = std::fs::remove_dir_all(&base);
    let demo = |out: &Path, fault: Option<&str>| {
        let mut c = smtcomp(&crate::support::root());
        c.args([
            "demo",
            "--jobs",
            "2",
            "--corpus",
            "tests/data/replay/corpus",
            "--submissions",
            "tests/data/replay/submissions",
            "-o",
        ])
        .arg(out);
        if let Some(f) = fault {
            c.env("SMTCOMP_FAULT", f);
        }
        output(&mut c)
    };
    let reference = base.join("reference");
    let (code, out, err) = demo(&reference, None);
    assert_eq!(code, 0, "{out}{err}");
    let expected = outcome(&reference, "runs-validated.jsonl.gz");
    assert_eq!(expected.0.len(), 12);

    let stopped = base.join("stopped");
    let needle = stopped.join("exec").display().to_string();
    let points = demo_points();
    assert_eq!(points.len(), 25);
    let stops = stop_everywhere(&points, &needle, |fault| demo(&stopped, Some(fault)));
    assert_eq!(stops, 2 * points.len());
    let (code, out, err) = demo(&stopped, None);
    assert_eq!(code, 0, "{out}{err}");
    let got = outcome(&stopped, "runs-validated.jsonl.gz");
    assert_eq!(got.0, expected.0, "the run table");
    assert_eq!(got.1, expected.1, "the scores");
    let _ = std::fs::remove_dir_all(&base);
}
