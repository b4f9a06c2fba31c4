//! `smtcomp __guard -- PROGRAM ...` (util::guard): the process between
//! `smtcomp` and a BenchExec call. It ends with the program's status, kills
//! what the program left in its group (BenchExec's stuck tool-info worker),
//! and leaves the interrupts `smtcomp` forwards to the program.

use crate::support::smtcomp_bin;
use std::os::unix::process::ExitStatusExt;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn guard(script: &str) -> Command {
    let mut c = Command::new(smtcomp_bin());
    c.args(["__guard", "--", "sh", "-c", script])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    c
}

/// Whether a process whose command line contains `needle` is alive (not a zombie).
fn alive(needle: &str) -> bool {
    std::fs::read_dir("/proc").unwrap().flatten().any(|e| {
        let cmd = std::fs::read(e.path().join("cmdline")).unwrap_or_default();
        String::from_utf8_lossy(&cmd).contains(needle)
    })
}

#[test]
fn the_programs_status_is_the_guards_and_its_leftovers_are_killed() {
    // A child left running in the group (as BenchExec leaves its worker).
    let start = Instant::now();
    let out = guard("sleep 71.25 & exit 3").output().unwrap();
    assert_eq!(out.status.code(), Some(3));
    assert!(start.elapsed() < Duration::from_secs(30));
    assert!(!alive("sleep 71.25"), "the leftover child was killed");

    // Killed by a signal: the guard ends by the same signal.
    let out = guard("kill -TERM $$").output().unwrap();
    assert_eq!(out.status.signal(), Some(libc::SIGTERM));

    // A program that cannot start: 127 and the reason.
    let out = Command::new(smtcomp_bin())
        .args(["__guard", "--", "/nonexistent/benchexec"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(127));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("cannot run /nonexistent/benchexec"), "{err}");
}

#[test]
fn an_interrupt_to_the_group_reaches_the_program_not_the_guard() {
    // The program stops on SIGINT with its own exit code; the guard, which
    // leads the group, ignores it and reports that code.
    let mut child = guard("trap 'exit 7' INT; echo ready >&2; while :; do sleep 0.05; done")
        .spawn()
        .unwrap();
    let mut err = child.stderr.take().unwrap();
    let mut buf = [0u8; 6];
    std::io::Read::read_exact(&mut err, &mut buf).unwrap();
    let pid = child.id() as i32;
    // SAFETY: kill(2) on the group our child leads (it took its own session).
    assert_eq!(unsafe { libc::kill(-pid, libc::SIGINT) }, 0);
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(7), "{status:?}");
}
