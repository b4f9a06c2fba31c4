//! Proof wrapper integration tests for limits and misbehaving children:
//! timeouts (own and total budget), a solver that ignores SIGTERM, crashes,
//! prints an endless proof (capped), floods stderr, leaves stray descendants,
//! and SIGTERM sent to the wrapper itself. Timing assertions are deliberately
//! loose (seconds, not milliseconds) for loaded CI machines.

use std::io::Read;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::common::*;

/// Watchdog against a hang (a missed timeout or kill), not a speed requirement.
const HANG_GUARD: Duration = Duration::from_secs(60);
use smtcomp_proof_wrapper::{ProofVerdict, interpret};

/// True if process `pid` still exists (and is not a zombie).
fn alive(pid: i32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Ok(stat) => !stat.contains(") Z "),
        Err(_) => false,
    }
}

fn read_pid(w: &Work, rel: &str) -> i32 {
    String::from_utf8(w.read(rel))
        .unwrap()
        .trim()
        .parse()
        .unwrap()
}

/// The report of a run where the solver was stopped by the wrapper's limit.
fn timeout_report(proof_size: u64, signal: i32) -> String {
    format!(
        "proofsize={proof_size}\ncompressedsize=GZ\nsolver_cpu_time=T\nsolver_wall_time=T\n\
         solver_signal={signal}\nsolver_timeout=1\nsolver_stderr_truncated=0\nproof_truncated=0\n\
         compress_wall_time=T\nchecker_timeout=0\nchecker_skipped=1\n"
    )
}

#[test]
fn solver_timeout_stops_group_and_skips_checker() {
    let w = Work::new();
    w.script(
        "smtcomp_solver",
        "echo unsat\necho partial\nsleep 60 &\necho $! > child.pid\nwait\n",
    );
    w.script("smtcomp_checker", "echo valid > checker.ran\necho valid\n");
    let run = w.run(&["--solver-timeout", "1", "bench.smt2"]);
    assert_eq!(run.code, Some(0));
    assert_eq!(
        normalise(&run.stdout),
        format!(
            "; run solver\n; compressing proof\n; proof size: 14 (GZ compressed)\n\
             ; checker skipped: solver timeout\n{}",
            timeout_report(14, 15)
        )
    );
    assert!(!w.path("checker.ran").exists(), "checker must not run");
    assert!(!alive(read_pid(&w, "child.pid")), "solver child killed");
    let outcome = interpret(&run.stdout);
    assert_eq!(outcome.verdict, ProofVerdict::Timeout);
    assert!(outcome.solver_wall_time().unwrap() >= 0.9);
    assert!(run.elapsed < HANG_GUARD, "{:?}", run.elapsed);
}

#[test]
fn solver_ignoring_sigterm_is_killed_after_grace() {
    let w = Work::new();
    w.script(
        "smtcomp_solver",
        "trap '' TERM INT HUP\necho unsat\nsleep 60 &\necho $! > child.pid\nwhile :; do wait; done\n",
    );
    w.script("smtcomp_checker", "echo valid\n");
    let run = w.run(&["--solver-timeout", "1", "--kill-grace", "0.5", "bench.smt2"]);
    assert_eq!(
        normalise(&run.stdout),
        format!(
            "; run solver\n; compressing proof\n; proof size: 6 (GZ compressed)\n\
             ; checker skipped: solver timeout\n{}",
            timeout_report(6, 9)
        )
    );
    assert!(!alive(read_pid(&w, "child.pid")));
    assert!(run.elapsed < HANG_GUARD, "{:?}", run.elapsed);
}

#[test]
fn crashing_solver_is_reported_and_checker_still_runs() {
    let w = Work::new();
    w.script(
        "smtcomp_solver",
        "echo unsat\nprintf '(proof val'\nkill -SEGV $$\n",
    );
    w.script("smtcomp_checker", MOCK_CHECKER);
    let run = w.run(&["bench.smt2"]);
    assert_eq!(run.code, Some(0));
    let expected = format!("{}unknown\n{}", preamble(16, true), normal_report(16, true))
        .replace("solver_exit=0", "solver_signal=11");
    assert_eq!(normalise(&run.stdout), expected);
    assert_eq!(interpret(&run.stdout).verdict, ProofVerdict::Unknown);
    assert_eq!(w.read("proof.txt"), b"unsat\n(proof val");
}

#[test]
fn endless_proof_is_capped_solver_stopped_and_checked() {
    const CAP: u64 = 20_000_000;
    let w = Work::new();
    // An endless proof (it would reach 2 GB and beyond): stopped at the cap.
    w.script(
        "smtcomp_solver",
        "echo $$ > solver.pid\necho unsat\nexec yes '(step proof)'\n",
    );
    w.script(
        "smtcomp_checker",
        "echo invalid\necho \"size=$(wc -c < \"$2\" | tr -d ' ')\"\n",
    );
    let run = w.run(&["--max-proof-bytes", &CAP.to_string(), "bench.smt2"]);
    assert_eq!(run.code, Some(0));
    let expected = format!(
        "{}invalid\nsize={CAP}\n{}",
        preamble(CAP, true),
        normal_report(CAP, true)
    )
    .replace("solver_exit=0", "solver_signal=15")
    .replace("proof_truncated=0", "proof_truncated=1");
    assert_eq!(normalise(&run.stdout), expected);
    // Exactly the first CAP bytes of the stream, in the file and in the gzip.
    let mut stream = b"unsat\n".to_vec();
    while (stream.len() as u64) < CAP {
        stream.extend_from_slice(b"(step proof)\n");
    }
    stream.truncate(CAP as usize);
    assert_eq!(w.size("proof.txt"), CAP);
    assert!(w.read("proof.txt") == stream);
    assert!(gunzip(&w.path("proof.txt.gz")) == stream);
    assert!(!alive(read_pid(&w, "solver.pid")), "solver stopped");
    let outcome = interpret(&run.stdout);
    assert!(outcome.proof_truncated());
    assert_eq!(outcome.verdict, ProofVerdict::Invalid);
    assert!(run.elapsed < HANG_GUARD, "{:?}", run.elapsed);
}

#[test]
fn huge_stderr_is_capped_while_writing_never_padded() {
    let w = Work::new();
    // 10,200,000 bytes: the range where `truncate -s 10M` used to pad with NULs.
    w.script(
        "smtcomp_solver",
        "yes 0123456789abcdef | head -c 10200000 >&2\necho unsat\necho '(proof valid)'\n",
    );
    w.script(
        "smtcomp_checker",
        &format!("yes fedcba9876543210 | head -c 25000000 >&2\n{MOCK_CHECKER}"),
    );
    let run = w.run(&["bench.smt2"]);
    let expected = format!(
        "{}valid\nsteps=3\nholes=0\n{}",
        preamble(20, true),
        normal_report(20, true)
    )
    .replace("solver_stderr_truncated=0", "solver_stderr_truncated=1")
    .replace("checker_stderr_truncated=0", "checker_stderr_truncated=1");
    assert_eq!(normalise(&run.stdout), expected);
    let solver_log = w.read("solver-error.log");
    assert_eq!(solver_log.len(), 10_000_000);
    assert!(
        solver_log
            .chunks(17)
            .all(|c| b"0123456789abcdef\n".starts_with(c))
    );
    let checker_log = w.read("checker-error.log");
    assert_eq!(checker_log.len(), 10_000_000);
    assert!(checker_log.starts_with(b"fedcba9876543210\nfedcba"));
    assert!(!checker_log.contains(&0));

    // Configurable cap; a log below the cap is untouched.
    let run = w.run(&["--max-log-bytes", "30000000", "bench.smt2"]);
    assert!(run.stdout.contains("\nsolver_stderr_truncated=0\n"));
    assert_eq!(w.size("solver-error.log"), 10_200_000);
    let run = w.run(&["--max-log-bytes", "5", "bench.smt2"]);
    assert!(run.stdout.contains("\nsolver_stderr_truncated=1\n"));
    assert_eq!(w.read("solver-error.log"), b"01234");
}

#[test]
fn stray_solver_descendants_are_killed_before_the_checker() {
    let w = Work::new();
    // The solver leaves a background writer that ignores SIGTERM and keeps
    // appending to the proof after the solver itself has exited.
    w.script(
        "smtcomp_solver",
        "echo unsat\necho '(proof valid)'\n\
         ( trap '' TERM; while :; do echo stray; sleep 0.05; done ) &\n\
         echo $! > stray.pid\nexit 0\n",
    );
    w.script(
        "smtcomp_checker",
        "pid=$(cat stray.pid)\ns1=$(wc -c < \"$2\")\nsleep 0.5\ns2=$(wc -c < \"$2\")\n\
         if kill -0 \"$pid\" 2>/dev/null; then echo invalid; echo stray=alive;\n\
         elif [ \"$s1\" != \"$s2\" ]; then echo invalid; echo grew=1; else echo valid; fi\n",
    );
    let run = w.run(&["bench.smt2"]);
    assert_eq!(run.code, Some(0));
    let outcome = interpret(&run.stdout);
    assert_eq!(outcome.verdict, ProofVerdict::Valid, "{}", run.stdout);
    assert!(!alive(read_pid(&w, "stray.pid")));
    assert!(w.read("proof.txt").starts_with(b"unsat\n(proof valid)\n"));
}

#[test]
fn escaped_descendant_holding_the_pipe_does_not_hang_the_wrapper() {
    let w = Work::new();
    // `setsid` leaves the process group: it cannot be killed by group, but the
    // wrapper must still finish instead of waiting for its stdout to close.
    w.script(
        "smtcomp_solver",
        "echo unsat\necho '(proof valid)'\nsetsid sh -c 'echo $$ > escaped.pid; exec sleep 60' &\n\
         while [ ! -s escaped.pid ]; do sleep 0.05; done\nexit 0\n",
    );
    w.script("smtcomp_checker", MOCK_CHECKER);
    let run = w.run(&["bench.smt2"]);
    let escaped = read_pid(&w, "escaped.pid");
    // Before #18 the escapee survived the run (and its CPU time was lost).
    let survived = alive(escaped);
    // SAFETY: kill(2) on the process this test started (through the mock solver).
    unsafe {
        libc::kill(escaped, libc::SIGKILL);
    }
    assert!(!survived, "the setsid escapee {escaped} survived the run");
    assert!(
        run.stdout
            .contains("; solver: killed 1 process(es) that had left its process group\n"),
        "{}",
        run.stdout
    );
    assert_eq!(
        interpret(&run.stdout).verdict,
        ProofVerdict::Valid,
        "{}",
        run.stdout
    );
    assert!(run.elapsed < HANG_GUARD, "{:?}", run.elapsed);
}

#[test]
fn dev_zero_as_proof_file_is_not_compressed_forever() {
    let w = Work::new();
    w.script("smtcomp_solver", "echo unsat\n");
    w.script("smtcomp_checker", "echo valid\n");
    // /dev/zero never ends: before #18 the compression read it forever,
    // even with --total-budget.
    let run = w.run(&[
        "--proof-file",
        "/dev/zero",
        "--total-budget",
        "5",
        "bench.smt2",
    ]);
    assert!(
        run.stdout
            .contains("; proof file '/dev/zero' is not a regular file; not compressed\n"),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains("\ncompressedsize=\n"), "{}", run.stdout);
    assert_eq!(interpret(&run.stdout).verdict, ProofVerdict::Valid);
    assert!(run.elapsed < HANG_GUARD);
}

#[test]
fn checker_timeout_without_answer_is_a_timeout() {
    let w = Work::new();
    w.script("smtcomp_solver", "echo unsat\n");
    w.script("smtcomp_checker", "sleep 60\n");
    let run = w.run(&["--checker-timeout", "1", "bench.smt2"]);
    let expected = format!("{}{}", preamble(6, true), normal_report(6, true))
        .replace("checker_exit=0", "checker_signal=15")
        .replace("checker_timeout=0", "checker_timeout=1");
    assert_eq!(normalise(&run.stdout), expected);
    let outcome = interpret(&run.stdout);
    assert_eq!(outcome.verdict, ProofVerdict::Timeout);
    assert!(outcome.checker_wall_time().unwrap() >= 0.9);
}

#[test]
fn total_budget_splits_time_between_phases() {
    // Solver gets total - reserve.
    let w = Work::new();
    w.script("smtcomp_solver", "echo unsat\nsleep 60\n");
    w.script("smtcomp_checker", "echo valid\n");
    let run = w.run(&[
        "--total-budget",
        "2",
        "--checker-reserve",
        "1",
        "bench.smt2",
    ]);
    let outcome = interpret(&run.stdout);
    assert_eq!(outcome.values.flag("solver_timeout"), Some(true));
    assert_eq!(outcome.verdict, ProofVerdict::Timeout);
    let wall = outcome.solver_wall_time().unwrap();
    // Enforced: the solver sleeps 60 s (the upper bound only guards against a missed timeout).
    assert!((0.9..50.0).contains(&wall), "solver wall {wall}");

    // The checker gets the remainder; its early answer stands.
    w.script("smtcomp_solver", "echo unsat\necho '(proof valid)'\n");
    w.script("smtcomp_checker", "echo valid\nsleep 60\n");
    let run = w.run(&["--total-budget", "3", "bench.smt2"]);
    let outcome = interpret(&run.stdout);
    assert_eq!(outcome.values.flag("checker_timeout"), Some(true));
    assert_eq!(outcome.values.get("checker_signal"), Some("15"));
    assert_eq!(outcome.verdict, ProofVerdict::Valid);
    assert!(run.elapsed < HANG_GUARD);
}

/// Starts the wrapper, waits for `marker` to appear, sends SIGTERM, and
/// returns (stdout, exit status).
fn terminate_when(w: &Work, marker: &str) -> (String, std::process::ExitStatus) {
    let mut child = Command::new(WRAPPER)
        .arg("bench.smt2")
        .current_dir(w.dir.path())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let started = Instant::now();
    while !w.path(marker).exists() {
        assert!(started.elapsed() < HANG_GUARD, "marker never appeared");
        std::thread::sleep(Duration::from_millis(20));
    }
    // SAFETY: signalling the wrapper process this test started.
    unsafe {
        libc::kill(child.id() as i32, libc::SIGTERM);
    }
    let mut stdout = String::new();
    child
        .stdout
        .take()
        .unwrap()
        .read_to_string(&mut stdout)
        .unwrap();
    (stdout, child.wait().unwrap())
}

#[test]
fn sigterm_during_solver_is_forwarded_reported_and_reraised() {
    use std::os::unix::process::ExitStatusExt;
    let w = Work::new();
    w.script(
        "smtcomp_solver",
        "trap 'echo got-term > term.marker; exit 3' TERM\necho unsat\n\
         sleep 60 &\necho started > started.marker\nwait\n",
    );
    w.script("smtcomp_checker", "echo valid > checker.ran\n");
    let (stdout, status) = terminate_when(&w, "started.marker");
    assert_eq!(status.signal(), Some(libc::SIGTERM), "re-raised");
    assert_eq!(
        normalise(&stdout),
        "; run solver\n; compressing proof\n; proof size: 6 ( compressed)\n\
         ; checker skipped: wrapper received signal 15\nproofsize=6\ncompressedsize=\n\
         solver_cpu_time=T\nsolver_wall_time=T\nsolver_exit=3\nsolver_timeout=0\n\
         solver_stderr_truncated=0\nproof_truncated=0\ncompress_wall_time=T\n\
         checker_timeout=0\nchecker_skipped=1\nwrapper_signal=15\n"
    );
    assert_eq!(
        w.read("term.marker"),
        b"got-term\n",
        "forwarded to the solver"
    );
    assert!(!w.path("checker.ran").exists());
    assert_eq!(interpret(&stdout).verdict, ProofVerdict::Timeout);
}

#[test]
fn sigterm_during_checker_keeps_its_answer() {
    use std::os::unix::process::ExitStatusExt;
    let w = Work::new();
    w.script("smtcomp_solver", "echo unsat\necho '(proof valid)'\n");
    w.script(
        "smtcomp_checker",
        "echo holey\necho checking > started.marker\nsleep 60\n",
    );
    let (stdout, status) = terminate_when(&w, "started.marker");
    assert_eq!(status.signal(), Some(libc::SIGTERM));
    let outcome = interpret(&stdout);
    assert_eq!(outcome.verdict, ProofVerdict::Holey);
    assert_eq!(outcome.values.get("checker_signal"), Some("15"));
    assert_eq!(outcome.values.get("wrapper_signal"), Some("15"));
    assert!(
        stdout.contains("; checking proof\nholey\nproofsize=20\n"),
        "{stdout}"
    );
}

#[test]
fn cpu_time_is_attributed_to_the_right_phase() {
    let w = Work::new();
    // The CPU burner is a grandchild of the wrapper (child of the solver script).
    w.script(
        "smtcomp_solver",
        "sh -c 'i=0; while [ $i -lt 300000 ]; do i=$((i+1)); done'\necho unsat\n",
    );
    w.script("smtcomp_checker", "sleep 1\necho unknown\n");
    let run = w.run(&["bench.smt2"]);
    let o = interpret(&run.stdout);
    let (solver_cpu, checker_cpu) = (o.solver_cpu_time().unwrap(), o.checker_cpu_time().unwrap());
    assert!(solver_cpu > 0.0, "solver cpu {solver_cpu}");
    assert!(checker_cpu < solver_cpu, "checker cpu {checker_cpu}");
    assert!(o.checker_wall_time().unwrap() >= 0.9);
}

#[test]
fn checker_output_is_streamed_while_it_runs() {
    use std::io::BufRead;
    let w = Work::new();
    w.script("smtcomp_solver", "echo unsat\n");
    // The checker only finishes after the test has seen its first line.
    w.script(
        "smtcomp_checker",
        "echo valid\nwhile [ ! -f go ]; do sleep 0.05; done\necho steps=1\n",
    );
    let mut child = Command::new(WRAPPER)
        .args(["--checker-timeout", "60", "bench.smt2"])
        .current_dir(w.dir.path())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut reader = std::io::BufReader::new(child.stdout.take().unwrap());
    let mut seen = String::new();
    loop {
        let mut line = String::new();
        assert!(
            reader.read_line(&mut line).unwrap() > 0,
            "EOF before valid: {seen}"
        );
        seen.push_str(&line);
        if line == "valid\n" {
            break;
        }
    }
    std::fs::write(w.path("go"), "").unwrap();
    let mut rest = String::new();
    reader.read_to_string(&mut rest).unwrap();
    assert!(child.wait().unwrap().success());
    assert!(rest.starts_with("steps=1\nproofsize=6\n"), "{rest}");
    assert!(rest.contains("\nchecker_exit=0\n"), "{rest}");
}

#[test]
fn checker_skipped_when_the_total_budget_is_used_up() {
    let w = Work::new();
    // The proof cap stops the solver at once, but it ignores SIGTERM, so it
    // only dies after the 3.5 s grace: by then the 2 s budget is gone.
    w.script(
        "smtcomp_solver",
        "trap '' TERM\necho unsat\necho 0123456789\nsleep 60\n",
    );
    w.script("smtcomp_checker", "echo valid > checker.ran\necho valid\n");
    let run = w.run(&[
        "--total-budget",
        "2",
        "--max-proof-bytes",
        "5",
        "--kill-grace",
        "3.5",
        "bench.smt2",
    ]);
    assert_eq!(
        normalise(&run.stdout),
        "; run solver\n; compressing proof\n; proof size: 5 (GZ compressed)\n\
         ; checker skipped: total budget used up\nproofsize=5\ncompressedsize=GZ\n\
         solver_cpu_time=T\nsolver_wall_time=T\nsolver_signal=9\nsolver_timeout=0\n\
         solver_stderr_truncated=0\nproof_truncated=1\ncompress_wall_time=T\n\
         checker_timeout=1\nchecker_skipped=1\n"
    );
    assert!(!w.path("checker.ran").exists());
    assert_eq!(w.read("proof.txt"), b"unsat");
    assert_eq!(interpret(&run.stdout).verdict, ProofVerdict::Timeout);
}

/// A solver that replaces `proof.txt` by a symbolic link to another file (a
/// secret, another solver's proof): that file is never compressed (published)
/// nor checked; the wrapper says so and the checker is skipped.
#[test]
fn a_proof_file_replaced_by_a_symbolic_link_is_neither_published_nor_checked() {
    let w = Work::new();
    std::fs::write(
        w.path("secret.txt"),
        "a secret that must not be published\n",
    )
    .unwrap();
    w.script(
        "smtcomp_solver",
        "echo unsat\nrm -f proof.txt\nln -s secret.txt proof.txt\n",
    );
    w.script("smtcomp_checker", "echo valid\n");
    let run = w.run(&["bench.smt2"]);
    assert!(
        run.stdout.contains(
            "; proof file 'proof.txt' was replaced during the solver run (not the file the wrapper created); not compressed, not checked\n"
        ),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains(
            "checker skipped: the proof file is not the regular file the wrapper created"
        ),
        "{}",
        run.stdout
    );
    assert!(!w.path("proof.txt.gz").exists(), "nothing published");
    assert_ne!(interpret(&run.stdout).verdict, ProofVerdict::Valid);
}
