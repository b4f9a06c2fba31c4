//! Process handling of `smtcomp-trace-executor`: lock-step protocol, no pipe
//! deadlock, process group, shutdown with grace period, signals, watchdog,
//! stderr, descriptor hygiene. Timing bounds are generous (loaded CI).

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::common::*;

/// Watchdog against a hang (a missed kill or timeout), not a speed requirement.
const HANG_GUARD: Duration = Duration::from_secs(60);

fn p(path: &Path) -> String {
    path.to_string_lossy().into_owned()
}

#[test]
fn lock_step_no_bytes_of_the_next_command_before_the_answer() {
    let dir = tmp();
    let mut body = String::from("(set-logic QF_UF)(declare-fun a () Bool)");
    for _ in 0..200 {
        body.push_str("(push 1)(assert a)(check-sat)(pop 1)");
    }
    let header = vec!["sat"; 200];
    let b = bench(dir.path(), &header, &body);
    let log = dir.path().join("log");
    let r = run_mock(dir.path(), &[], &["--log", &p(&log)], &b);
    r.expect(&"sat\n".repeat(200), 0);
    let entries = logged(&log);
    // handshake, 2 declarations, 200 x 4 commands minus the last pop, (exit)
    assert_eq!(entries.len(), 1 + 2 + 799 + 1);
    assert!(
        entries.iter().all(|(early, _)| !early),
        "a command arrived before the previous answer"
    );
}

#[test]
fn huge_command_with_a_solver_that_writes_before_reading_does_not_deadlock() {
    let dir = tmp();
    let big = format!(
        "(assert (and {}true))\n(check-sat)\n",
        "true ".repeat(2_000_000)
    );
    let b = bench(dir.path(), &["sat"], &big);
    // The mock writes 1 MB of blank lines before reading each command: far
    // more than a pipe buffer, so a blocking writer would deadlock.
    let r = run_mock(dir.path(), &[], &["--flood", "1000000"], &b);
    r.expect("sat\n", 0);
}

#[test]
fn solver_ignoring_exit_is_stopped_after_the_grace_period() {
    let dir = tmp();
    let b = bench(dir.path(), &["sat"], crate::common::BODY);
    let pid = dir.path().join("pid");
    let start = Instant::now();
    run_mock(
        dir.path(),
        &["--grace", "0.3"],
        &["--ignore-exit", "--hang-at-eof", "--pid-file", &p(&pid)],
        &b,
    )
    .expect("sat\n", 0);
    assert!(start.elapsed() < HANG_GUARD, "{:?}", start.elapsed());
    assert!(!alive(read_pid(&pid)));
    // Even when it also ignores SIGTERM: SIGKILL one second later.
    let stats = dir.path().join("stats");
    run_mock(
        dir.path(),
        &["--te-grace=0.2", "--stats", &p(&stats)],
        &[
            "--ignore-exit",
            "--hang-at-eof",
            "--ignore-term",
            "--pid-file",
            &p(&pid),
        ],
        &b,
    )
    .expect("sat\n", 0);
    assert!(!alive(read_pid(&pid)));
    let text = std::fs::read_to_string(&stats).unwrap();
    let end: serde_json::Value = serde_json::from_str(text.lines().last().unwrap()).unwrap();
    assert_eq!(end["sent_sigterm"], true);
    assert_eq!(end["sent_sigkill"], true);
    assert_eq!(end["solver_signal"], 9);
}

#[test]
fn solver_is_killed_after_wrong_and_bad() {
    let dir = tmp();
    let b = bench(dir.path(), &["unsat"], crate::common::BODY);
    let pid = dir.path().join("pid");
    let mock_args = ["--hang-at-eof", "--ignore-exit", "--pid-file", &p(&pid)];
    run_mock(dir.path(), &["--grace", "0.2"], &mock_args, &b)
        .expect("WRONG solver response: got sat, expected unsat\n", 2);
    assert!(!alive(read_pid(&pid)));
    let b = bench(dir.path(), &["sat", "sat"], "(check-sat)\n");
    run_mock(dir.path(), &["--grace", "0.2"], &mock_args, &b)
        .expect("sat\nBAD benchmark: unexpected EOF\n", 1);
    assert!(!alive(read_pid(&pid)));
}

#[test]
fn whole_process_group_is_killed() {
    let dir = tmp();
    let b = bench(dir.path(), &["sat"], crate::common::BODY);
    let gc = dir.path().join("gc");
    run_mock(dir.path(), &[], &["--grandchild-pid-file", &p(&gc)], &b).expect("sat\n", 0);
    let gc_pid = read_pid(&gc);
    let deadline = Instant::now() + HANG_GUARD;
    while alive(gc_pid) && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(!alive(gc_pid), "grandchild {gc_pid} survived");
}

#[test]
fn never_answering_solver_with_watchdog() {
    let dir = tmp();
    let b = bench(dir.path(), &["sat", "sat", "sat"], crate::common::BODY);
    let pid = dir.path().join("pid");
    let r = run_mock(
        dir.path(),
        &["--timeout", "1"],
        &["--on-query", "2=@hang", "--pid-file", &p(&pid)],
        &b,
    );
    r.expect("sat\n", 1);
    assert!(r.elapsed < HANG_GUARD);
    assert!(!alive(read_pid(&pid)));
    run_mock(
        dir.path(),
        &["--te-timeout=0.5", "--report-timeout"],
        &["--on-query", "1=@hang"],
        &b,
    )
    .expect("BAD response: timeout\n", 1);
}

fn signal_during_query(sig: libc::c_int, ours: &[&str]) {
    let dir = tmp();
    let b = bench(dir.path(), &["sat", "sat", "sat"], crate::common::BODY);
    let pid = dir.path().join("pid");
    let mut child = Command::new(exe())
        .args(ours)
        .args([
            &mock_s(),
            "--on-query",
            "2=@hang",
            "--ignore-term",
            "--pid-file",
            &p(&pid),
            &b,
        ])
        .current_dir(dir.path())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let mut first = String::new();
    out.read_line(&mut first).unwrap();
    assert_eq!(first, "sat\n");
    std::thread::sleep(Duration::from_millis(100));
    // SAFETY: signalling our own child.
    unsafe { libc::kill(child.id() as i32, sig) };
    let start = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        assert!(start.elapsed() < HANG_GUARD, "executor did not stop");
        std::thread::sleep(Duration::from_millis(10));
    };
    use std::os::unix::process::ExitStatusExt;
    assert_eq!(status.signal(), Some(sig), "re-raised with default action");
    let mut rest = String::new();
    std::io::Read::read_to_string(&mut out, &mut rest).unwrap();
    assert_eq!(rest, "");
    assert!(
        !alive(read_pid(&pid)),
        "solver survived (it ignores SIGTERM, so SIGKILL was needed)"
    );
}

#[test]
fn sigterm_during_a_query_kills_the_solver_and_is_re_raised() {
    signal_during_query(libc::SIGTERM, &[]);
}

/// With `--solver-stderr` a copier thread runs: the signal must still wake
/// the main thread's blocking read (signals are kept off that thread).
#[test]
fn sigterm_during_a_query_with_stderr_capture() {
    let dir = tmp();
    let file = dir.path().join("stderr");
    signal_during_query(libc::SIGTERM, &["--solver-stderr", &p(&file)]);
}

#[test]
fn sigint_during_a_query_kills_the_solver_and_is_re_raised() {
    signal_during_query(libc::SIGINT, &[]);
}

#[test]
fn solver_stderr_never_reaches_stdout_and_can_be_captured_capped() {
    let dir = tmp();
    let b = bench(dir.path(), &["sat"], crate::common::BODY);
    run_mock(
        dir.path(),
        &[],
        &["--stderr", "noise on stderr: error sat unsat\\n"],
        &b,
    )
    .expect("sat\n", 0);
    let file = dir.path().join("stderr.txt");
    run_mock(
        dir.path(),
        &["--solver-stderr", &p(&file), "--te-solver-stderr-limit=25"],
        &["--stderr", "0123456789\\n"],
        &b,
    )
    .expect("sat\n", 0);
    assert_eq!(
        std::fs::read_to_string(&file).unwrap(),
        "0123456789\n0123456789\n012"
    );
}

#[test]
fn no_descriptor_leaks_into_the_solver() {
    let dir = tmp();
    let b = bench(dir.path(), &["sat"], crate::common::BODY);
    let fds = dir.path().join("fds");
    let stats = dir.path().join("stats");
    run_mock(
        dir.path(),
        &["--stats", &p(&stats)],
        &["--fd-file", &p(&fds)],
        &b,
    )
    .expect("sat\n", 0);
    assert_eq!(std::fs::read_to_string(&fds).unwrap(), "0\n1\n2\n");
}

#[test]
fn solver_cpu_is_sampled_in_stats() {
    let dir = tmp();
    let b = bench(dir.path(), &["sat"], crate::common::BODY);
    let stats = dir.path().join("stats");
    run_mock(dir.path(), &["--stats", &p(&stats)], &[], &b).expect("sat\n", 0);
    let text = std::fs::read_to_string(&stats).unwrap();
    let end: serde_json::Value = serde_json::from_str(text.lines().last().unwrap()).unwrap();
    assert!(end["solver_cpu_s"].as_f64().unwrap() >= 0.0);
    assert!(end["wall_s"].as_f64().unwrap() > 0.0);
    assert!(end["last_answer_s"].as_f64().unwrap() <= end["wall_s"].as_f64().unwrap());
}
