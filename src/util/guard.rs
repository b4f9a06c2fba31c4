//! The guard: a small process between `smtcomp` and a BenchExec call that
//! cleans up after the call even when `smtcomp` is gone.
//!
//! BenchExec 3.35 can exit leaving its tool-info worker (a
//! `multiprocessing.Pool` process of its containerized tool-info) blocked on
//! the pool's lock for ever: 1 in 3 plain `benchexec` calls on this machine
//! (measured: `setsid benchexec DEF ...; wait` leaves the worker in the
//! session after BenchExec exited 0). [`super::process::run`] kills what is
//! left of a child's process group when it ends, which hid this, but after a
//! SIGKILL of `smtcomp` nothing did: the worker stayed, holding the
//! workspace's lock (inherited), so no resumed run could ever start.
//!
//! So a guarded program runs as `smtcomp __guard -- PROGRAM ARGS...` (the
//! guard is our own binary, a fresh small process): the guard is the group
//! leader of the supervised session, starts the program in its group, ignores
//! the interrupts [`super::interrupt`] forwards to the group (the program
//! gets them and stops on its own), waits for it, kills every other process
//! still in its group, and exits with the program's status. A deadline or a
//! second interrupt kills the whole group, guard included, as before.

use std::ffi::OsString;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::process::Command;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// The argument that starts guard mode (`smtcomp __guard -- PROGRAM ...`).
pub const GUARD_ARG: &str = "__guard";

static ENABLED: AtomicBool = AtomicBool::new(false);

/// Declares that this process is the `smtcomp` binary, whose guard mode
/// guarded children run under; without it (a library user, the tests) they
/// run unguarded.
pub fn enable() {
    ENABLED.store(true, Ordering::SeqCst);
}

/// The command that runs `prog args` under the guard, when enabled. The guard
/// is `/proc/self/exe` of the forked child: our own binary, even if its file
/// was replaced or deleted since we started.
pub fn command(prog: &str, args: &[String]) -> Option<Command> {
    if !ENABLED.load(Ordering::SeqCst) {
        return None;
    }
    let mut c = Command::new("/proc/self/exe");
    c.arg0("smtcomp").args([GUARD_ARG, "--", prog]).args(args);
    Some(c)
}

/// Guard mode: `args` is what follows `__guard` (`-- PROGRAM ARGS...`).
/// Returns the exit code to end with (a program killed by a signal ends the
/// guard by the same signal).
pub fn main(args: &[OsString]) -> u8 {
    let args = match args.first().and_then(|a| a.to_str()) {
        Some("--") => &args[1..],
        _ => args,
    };
    let Some((prog, rest)) = args.split_first() else {
        eprintln!("smtcomp {GUARD_ARG}: no program given");
        return 2;
    };
    // The group the guard cleans is its own: started by
    // [`super::process::run`] it already leads a session; started by hand it
    // takes one (and if it cannot, it cleans nothing).
    // Orphans of the program become our children (subreaper), so the ones
    // killed below are reaped here, not left as zombies of init.
    // SAFETY: getpgrp, getpid, setsid and prctl have no memory preconditions.
    unsafe {
        if libc::getpgrp() != libc::getpid() {
            libc::setsid();
        }
        libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
    }
    const FORWARDED: [libc::c_int; 3] = [libc::SIGINT, libc::SIGTERM, libc::SIGHUP];
    // SAFETY: setting signal dispositions of this single-threaded process.
    unsafe {
        for s in FORWARDED {
            libc::signal(s, libc::SIG_IGN);
        }
    }
    let mut cmd = Command::new(prog);
    cmd.args(rest);
    // SAFETY: signal(2) is async-signal-safe; the program gets the default
    // dispositions back (ignored ones would survive its exec).
    unsafe {
        cmd.pre_exec(|| {
            for s in FORWARDED {
                libc::signal(s, libc::SIG_DFL);
            }
            Ok(())
        });
    }
    let status = match cmd.spawn().and_then(|mut c| c.wait()) {
        Ok(s) => s,
        Err(e) => {
            eprintln!(
                "smtcomp {GUARD_ARG}: cannot run {}: {e}",
                prog.to_string_lossy()
            );
            kill_rest_of_group();
            return 127;
        }
    };
    kill_rest_of_group();
    if let Some(sig) = status.signal() {
        // SAFETY: default disposition, then the same signal to ourselves.
        unsafe {
            libc::signal(sig, libc::SIG_DFL);
            libc::raise(sig);
        }
        return 128u8.wrapping_add(sig as u8);
    }
    status.code().map_or(1, |c| c as u8)
}

/// SIGKILLs every other process of our process group until none is left
/// (at most 5 s: a process that cannot be killed is left to the kernel).
/// Only when we lead the group (see [`main`]): never anyone else's group.
fn kill_rest_of_group() {
    // SAFETY: getpgrp and getpid cannot fail.
    let (group, me) = unsafe { (libc::getpgrp(), libc::getpid()) };
    if group != me {
        return;
    }
    for _ in 0..500 {
        // SAFETY: waitpid with a null status pointer reaps exited children.
        while unsafe { libc::waitpid(-1, std::ptr::null_mut(), libc::WNOHANG) } > 0 {}
        let others: Vec<i32> = members(group).into_iter().filter(|p| *p != me).collect();
        if others.is_empty() {
            return;
        }
        for p in others {
            // SAFETY: kill(2) on a process of our own group.
            unsafe { libc::kill(p, libc::SIGKILL) };
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// The living (not zombie) processes whose process group is `group`.
fn members(group: i32) -> Vec<i32> {
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    dir.flatten()
        .filter_map(|e| e.file_name().to_str()?.parse::<i32>().ok())
        .filter(|pid| {
            let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
                return false;
            };
            // After the command name in parentheses: state, ppid, pgrp.
            let Some(rest) = stat.rfind(')').map(|i| &stat[i + 1..]) else {
                return false;
            };
            let mut w = rest.split_whitespace();
            let state = w.next();
            let pgrp = w.nth(1).and_then(|g| g.parse::<i32>().ok());
            state != Some("Z") && pgrp == Some(group)
        })
        .collect()
}
