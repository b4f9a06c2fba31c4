//! `smtcomp run` interrupted mid-BenchExec (SIGINT to `smtcomp` alone, as
//! `kill -INT PID` or a Ctrl-C that reaches only it, and SIGTERM): the
//! BenchExec call it started is stopped too (no orphan), the exit code is
//! 128 + signal, and the resumed run ends with every run exactly once. After
//! SIGKILL the orphaned BenchExec call keeps the workspace locked until it
//! ends, so no resumed run starts beside it. A
//! second owner of the workspace is refused while one holds it; results that
//! do not reconcile with the runs manifest (a run with two results) stop the
//! ingestion instead of being scored twice.
//!
//! The solver is a script that sleeps before answering `unknown`, so that a
//! BenchExec call is surely running when the signal comes.

use crate::support::{require_tool, root, work_dir};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const LIBRARY: &[&str] = &[
    "CVC4-1.8_test_regress_regress0_bug383.smt2",
    "CVC4-1.8_test_regress_regress1_simplification_bug4.smt2",
];

pub fn smtcomp(dir: &Path) -> Command {
    let mut c = Command::new(crate::support::smtcomp_bin());
    c.current_dir(dir)
        .env_remove("SMTCOMP_WORKSPACE")
        .stdin(Stdio::null());
    c
}

pub fn output(c: &mut Command) -> (i32, String, String) {
    let o = c.output().unwrap();
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// PIDs of the processes whose command line mentions `needle`.
pub fn processes_with(needle: &str) -> Vec<u32> {
    let mut pids = Vec::new();
    for e in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(pid) = e.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        if pid == std::process::id() {
            continue;
        }
        let Ok(cmd) = std::fs::read(e.path().join("cmdline")) else {
            continue;
        };
        if String::from_utf8_lossy(&cmd).contains(needle) {
            pids.push(pid);
        }
    }
    pids
}

/// Waits (at most `limit`) until no process names `needle` on its command
/// line; when one is left, panics with what is left: every such process and
/// its descendants (state, parent, kernel wait channel, command line) and the
/// last lines of the BenchExec logs under `needle`, so that a CI failure says
/// what hung instead of only that something did.
pub fn wait_until_gone(what: &str, needle: &str, limit: Duration) {
    let start = Instant::now();
    while !processes_with(needle).is_empty() {
        if start.elapsed() > limit {
            panic!(
                "{what}: not within {limit:?}; left:\n{}\n{}",
                describe_tree(&processes_with(needle)),
                benchexec_log_tails(Path::new(needle))
            );
        }
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// `pid state ppid wchan cmdline` of `roots` and all their descendants.
pub fn describe_tree(roots: &[u32]) -> String {
    let mut parent = std::collections::BTreeMap::new();
    for e in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(pid) = e.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        if let Some((_, ppid)) = stat_of(pid) {
            parent.insert(pid, ppid);
        }
    }
    let mut todo: Vec<u32> = roots.to_vec();
    let mut seen = std::collections::BTreeSet::new();
    while let Some(p) = todo.pop() {
        if seen.insert(p) {
            todo.extend(parent.iter().filter(|(_, pp)| **pp == p).map(|(c, _)| *c));
        }
    }
    seen.iter()
        .map(|p| {
            let (state, ppid) = stat_of(*p).unwrap_or_default();
            let wchan = std::fs::read_to_string(format!("/proc/{p}/wchan")).unwrap_or_default();
            let cmd = std::fs::read(format!("/proc/{p}/cmdline")).unwrap_or_default();
            let cmd = String::from_utf8_lossy(&cmd).replace('\0', " ");
            format!("  {p} {state} ppid {ppid} wchan {wchan}: {cmd}")
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// (state letter, parent PID) of `pid` from `/proc/PID/stat`.
fn stat_of(pid: u32) -> Option<(String, u32)> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let rest = &stat[stat.rfind(')')? + 2..];
    let mut w = rest.split_whitespace();
    let state = w.next()?.to_string();
    Some((state, w.next()?.parse().ok()?))
}

/// The last 15 lines of every `benchexec.log` under `dir`.
fn benchexec_log_tails(dir: &Path) -> String {
    walkdir::WalkDir::new(dir)
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_name() == "benchexec.log")
        .map(|e| {
            let text = std::fs::read_to_string(e.path()).unwrap_or_default();
            let lines: Vec<&str> = text.lines().collect();
            let tail = lines[lines.len().saturating_sub(15)..].join("\n    ");
            format!("  {}:\n    {tail}", e.path().display())
        })
        .collect::<Vec<_>>()
        .join("\n")
}

pub fn wait_for(what: &str, limit: Duration, mut ok: impl FnMut() -> bool) {
    let start = Instant::now();
    while !ok() {
        assert!(start.elapsed() < limit, "{what}: not within {limit:?}");
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// A solver script that answers `answer` after `secs` seconds, and `--version`
/// at once, as real solvers do (BenchExec's tool-info asks it at each start, within
/// 2 s: a solver slow to say its version would only slow these tests down).
pub fn slow_solver(secs: u32, answer: &str) -> String {
    format!(
        "#!/bin/sh\n[ \"$1\" = --version ] && {{ echo 'Slow 1.0'; exit 0; }}\nsleep {secs}\necho {answer}\n"
    )
}

/// A workspace under `base`: two QF_LIA benchmarks, two slow solvers (two teams).
fn workspace(base: &Path) -> std::path::PathBuf {
    let slow = &slow_solver(6, "unknown");
    workspace_with(base, &[("Slow", "Ann", slow), ("Slower", "Bob", slow)])
}

/// A workspace under `base` with two QF_LIA benchmarks and one solver per
/// `(name, author, shell script)` (Single Query, QF_LIA), initialised by
/// `smtcomp init` with the demo competition.
pub fn workspace_with(base: &Path, solvers: &[(&str, &str, &str)]) -> std::path::PathBuf {
    let lib = base.join("library/non-incremental/QF_LIA");
    std::fs::create_dir_all(&lib).unwrap();
    for f in LIBRARY {
        std::fs::copy(root().join("corpus/single/QF_LIA").join(f), lib.join(f)).unwrap();
    }
    let mut sub: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(root().join("demo/submissions/z3.json")).unwrap(),
    )
    .unwrap();
    sub["participations"] = serde_json::json!([{ "tracks": ["SingleQuery"], "logics": "QF_LIA" }]);
    std::fs::create_dir_all(base.join("submissions")).unwrap();
    for (name, author, script) in solvers {
        let solver = base.join(format!("{}.sh", name.to_lowercase()));
        std::fs::write(&solver, script).unwrap();
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&solver, std::fs::Permissions::from_mode(0o755)).unwrap();
        sub["command"] = serde_json::json!([solver.display().to_string()]);
        sub["name"] = (*name).into();
        sub["contributors"] = serde_json::json!([author]);
        let file = base.join(format!("submissions/{}.json", name.to_lowercase()));
        std::fs::write(file, sub.to_string()).unwrap();
    }
    let init = crate::support::demo_init_args(&["SingleQuery"], 1);
    let (code, _, err) = output(smtcomp(base).args(&init));
    assert_eq!(code, 0, "{err}");
    base.join("ws")
}

/// Starts `smtcomp run` in `ws`, waits until its BenchExec runs, sends
/// `signal` to `smtcomp` alone; returns (exit code, stderr, seconds to exit).
fn interrupt_run(ws: &Path, signal: i32) -> (i32, String, f64) {
    let exec = ws.join("exec").display().to_string();
    let child = smtcomp(ws)
        .arg("run")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let pid = child.id();
    // BenchExec's command line names the execution directory (`-o EXECDIR/results/...`).
    wait_for("a BenchExec call", Duration::from_secs(180), || {
        !processes_with(&exec).is_empty()
    });
    std::thread::sleep(Duration::from_secs(2));
    // SAFETY: kill(2) on our own child.
    unsafe { libc::kill(pid as i32, signal) };
    let start = Instant::now();
    let out = child.wait_with_output().unwrap();
    let secs = start.elapsed().as_secs_f64();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        secs,
    )
}

#[test]
fn an_interrupted_run_leaves_no_benchexec_and_resumes_to_every_run_once() {
    for tool in ["benchexec"] {
        if require_tool(tool).is_none() {
            return;
        }
    }
    let work = work_dir("interrupt");
    let ws = workspace(work.path());
    let exec = ws.join("exec").display().to_string();

    // SIGINT mid-BenchExec: 130, the call stopped, nothing of ours left.
    let (code, err, secs) = interrupt_run(&ws, libc::SIGINT);
    assert_eq!(code, 130, "{err}");
    assert!(
        err.contains("interrupted by SIGINT; stopped: benchexec"),
        "{err}"
    );
    assert!(secs < 30.0, "{secs} s to stop");
    wait_until_gone("no process of the run left", &exec, Duration::from_secs(10));

    // SIGTERM on the resumed run: 143, the same.
    let (code, err, _) = interrupt_run(&ws, libc::SIGTERM);
    assert_eq!(code, 143, "{err}");
    wait_until_gone("no process of the run left", &exec, Duration::from_secs(10));

    // SIGKILL (nothing can be forwarded): the BenchExec call goes on as an
    // orphan, but it holds the workspace's lock, so a resumed run is refused
    // (naming the killed owner) until it ends, instead of running beside it.
    let (code, err, _) = interrupt_run(&ws, libc::SIGKILL);
    assert_eq!(code, -1, "killed: {err}");
    assert!(
        !processes_with(&exec).is_empty(),
        "the orphan BenchExec runs on"
    );
    let (code, out, err) = output(smtcomp(&ws).arg("run"));
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        err.contains("is in use: held by smtcomp run, PID "),
        "{err}"
    );
    // Two 6-second runs, but BenchExec's containers start slowly while the
    // other e2e tests load both cores: a generous bound, and what is still
    // running named when it is exceeded.
    wait_until_gone(
        "the orphan BenchExec to end",
        &exec,
        Duration::from_secs(400),
    );

    // While someone holds the workspace, a second `smtcomp run` is refused and
    // `status` says it runs.
    let lock =
        smtcomp::util::dirlock::acquire(&ws, smtcomp::workspace::LOCK_FILE, "a test").unwrap();
    let (code, out, err) = output(smtcomp(&ws).arg("run"));
    assert_eq!(code, 1, "{out}{err}");
    assert!(err.contains("is in use: held by a test, PID "), "{err}");
    let (code, out, _) = output(smtcomp(&ws).arg("status"));
    assert_eq!(code, 1);
    assert!(out.starts_with("running: held by a test, PID "), "{out}");
    drop(lock);

    // Resumed to the end: every run exactly once (2 benchmarks, 2 solvers).
    let (code, out, err) = output(smtcomp(&ws).arg("run"));
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains("ingestion                    done     4 runs"),
        "{out}"
    );
    // The definitions BenchExec was stopped in ran again whole; their
    // unfinished result sets were kept aside, not ingested.
    let aside = walkdir::WalkDir::new(ws.join("exec/superseded"))
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_name().to_string_lossy().ends_with(".xml.bz2"))
        .count();
    assert!(aside >= 1, "unfinished result sets kept aside: {aside}");
    let runs = smtcomp::ingest::read_jsonl(&ws.join("runs-ingested.jsonl.gz")).unwrap();
    assert_eq!(runs.len(), 4);
    assert!(
        runs.iter().all(|r| r.status.as_deref() == Some("unknown")),
        "every run finished: {:?}",
        runs.iter().map(|r| &r.status).collect::<Vec<_>>()
    );

    // A run with two results (a copy of a result file, as a second BenchExec
    // call on the definition leaves): the ingestion stops and names it.
    let results: Vec<_> = walkdir::WalkDir::new(ws.join("exec/results"))
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_name().to_string_lossy().ends_with(".xml.bz2"))
        .map(|e| e.path().to_path_buf())
        .collect();
    let first = &results[0];
    let copy = first.with_file_name(first.file_name().unwrap().to_string_lossy().replacen(
        ".results.",
        ".results.copy.",
        1,
    ));
    std::fs::copy(first, &copy).unwrap();
    let (code, out, err) = output(smtcomp(&ws).arg("run"));
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.contains("ingestion                    failed"), "{out}");
    assert!(
        out.contains("do not reconcile with the runs manifest"),
        "{out}"
    );
    assert!(
        out.contains("4 present + 2 duplicated + 0 unexpected"),
        "{out}"
    );
    assert!(out.contains("duplicated: "), "{out}");
}
