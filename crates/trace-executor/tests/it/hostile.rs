//! Hostile solvers and inputs of issue #18, each from a minimal input:
//! a flood written together with a due answer, our own messages without the
//! word "error", header lines beyond the 4 KiB cap, absurd time options, a
//! dead solver whose descendant keeps its stdout open, and no grace period
//! after WRONG/BAD.

use std::path::Path;
use std::time::{Duration, Instant};

use crate::common::*;

fn p(path: &Path) -> String {
    path.to_string_lossy().into_owned()
}

fn wait_dead(pid: i32) -> bool {
    let deadline = Instant::now() + Duration::from_secs(30);
    while alive(pid) && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    !alive(pid)
}

#[test]
fn due_answer_written_with_2000_extra_lines_is_taken() {
    let dir = tmp();
    let b = bench(dir.path(), &["sat"], "(check-sat)\n");
    // One write: the answer followed by 2,000 unsolicited `success` lines.
    let raw = format!("1=sat\\n{}", "success\\n".repeat(2000));
    run_mock(dir.path(), &[], &["--on-query", &raw], &b).expect("sat\n", 0);
    // With a second query, the next response is the first unsolicited line:
    // the first answer stays printed, the second is BAD.
    let b = bench(dir.path(), &["sat", "sat"], "(check-sat)\n(check-sat)\n");
    run_mock(dir.path(), &[], &["--on-query", &raw], &b)
        .expect("sat\nBAD response to check command: 'success'\n", 1);
}

#[test]
fn unreadable_benchmark_message_does_not_say_error() {
    let dir = tmp();
    // Reading /proc/self/mem at offset 0 fails with EIO ("Input/output error").
    let r = run_mock(dir.path(), &[], &[], "/proc/self/mem");
    assert_eq!(r.code, Some(1), "{r:#?}");
    assert!(
        r.stdout.starts_with("BAD benchmark") && r.stdout.contains("Input/output failure"),
        "{r:#?}"
    );
    assert!(!r.stdout.to_ascii_lowercase().contains("error"), "{r:#?}");
}

#[test]
fn header_line_longer_than_4_kib_is_a_bad_expected_result() {
    let dir = tmp();
    let header = format!("sat{}x", " ".repeat(5000));
    let b = bench(dir.path(), &[&header], "(check-sat)\n");
    let r = run_mock(dir.path(), &[], &[], &b);
    assert_eq!(r.code, Some(1), "{r:#?}");
    assert!(r.stdout.starts_with("BAD expected result: 'sat "), "{r:#?}");
    assert!(r.stdout.ends_with("...'\n"), "{r:#?}");
}

#[test]
fn absurd_timeout_is_a_bad_option_not_a_panic() {
    let dir = tmp();
    let b = bench(dir.path(), &["sat"], "(check-sat)\n");
    for opt in ["--te-timeout=1e19", "--te-grace=1e300", "--te-timeout=inf"] {
        let r = run_mock(dir.path(), &[opt], &[], &b);
        assert_eq!(r.code, Some(1), "{opt}: {r:#?}");
        assert!(r.stdout.starts_with("BAD option: invalid value"), "{r:#?}");
        assert_eq!(r.stderr, "");
    }
    // The largest accepted value runs normally.
    run_mock(dir.path(), &["--te-timeout=1e9"], &[], &b).expect("sat\n", 0);
}

#[test]
fn dead_solver_whose_child_keeps_stdout_open_is_not_waited_for() {
    let dir = tmp();
    let gc = dir.path().join("gc");
    // The solver dies without answering; its `sleep 1000` child keeps the
    // pipe open. Before: the executor waited for the child (1000 s).
    let b = bench(dir.path(), &["sat"], "(check-sat)\n");
    run_mock(
        dir.path(),
        &[],
        &["--grandchild-pid-file", &p(&gc), "--on-query", "1=@exit"],
        &b,
    )
    .expect("BAD response: unexpected EOF\n", 1);
    assert!(wait_dead(read_pid(&gc)), "grandchild survived");
    // An answer written just before dying still counts.
    std::fs::remove_file(&gc).unwrap();
    let b = bench(dir.path(), &["unsat", "sat"], "(check-sat)\n(check-sat)\n");
    run_mock(
        dir.path(),
        &[],
        &[
            "--grandchild-pid-file",
            &p(&gc),
            "--on-query",
            "1=unsat\\n@exit",
        ],
        &b,
    )
    .expect("unsat\nBAD response: unexpected EOF\n", 1);
    assert!(wait_dead(read_pid(&gc)), "grandchild survived");
}

#[test]
fn no_grace_period_after_bad_or_wrong() {
    let dir = tmp();
    let b = bench(dir.path(), &["sat"], "(check-sat)\n");
    // A grace of 1000 s would exceed the 60 s guard of `run_in`: after BAD
    // or WRONG the solver is stopped at once (no (exit) is owed).
    let hang = ["--hang-at-eof", "--ignore-exit"];
    let mut args = hang.to_vec();
    args.extend(["--on-query", "1=garbage\\n"]);
    run_mock(dir.path(), &["--te-grace=1000"], &args, &b)
        .expect("BAD response to check command: 'garbage'\n", 1);
    let mut args = hang.to_vec();
    args.extend(["--answers", "unsat"]);
    run_mock(dir.path(), &["--te-grace=1000"], &args, &b)
        .expect("WRONG solver response: got unsat, expected sat\n", 2);
}
