//! Child processes in their own process group: spawning, supervision with a
//! wall-clock limit, stopping the whole group, reaping orphans and CPU accounting.
//!
//! Every child is started with `process_group(0)`, so it and all its descendants
//! (unless they call `setsid`) share one process group that can be signalled at
//! once. The wrapper makes itself a child subreaper (Linux), so orphaned
//! descendants are re-parented to it: it reaps them, and their CPU time is then
//! included in `getrusage(RUSAGE_CHILDREN)`, from which phase CPU times are taken.

use std::ffi::OsString;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use super::signals;

/// Interval of the supervision loop.
const POLL: Duration = Duration::from_millis(10);
/// How long to wait for stray group members to disappear after SIGKILL.
const CLEANUP_LIMIT: Duration = Duration::from_secs(3);

/// How a child ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exit {
    /// Normal exit with this status (126/127 when it could not be started, as in a shell).
    Code(i32),
    /// Killed by this signal.
    Signal(i32),
}

/// Why the supervisor stopped a child early.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stop {
    /// It ran to completion.
    Completed,
    /// The wrapper's own time limit fired.
    Timeout,
    /// The caller's stop flag was raised (the proof cap was reached).
    Requested,
    /// The wrapper received this termination signal and forwarded it.
    Interrupted(i32),
}

/// What the supervisor observed about one phase.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Outcome {
    /// Exit status of the phase's main process.
    pub exit: Exit,
    /// Wall time from spawn until the main process was reaped.
    pub wall: Duration,
    /// Why it ended.
    pub stop: Stop,
    /// Descendants that had left the process group (`setsid`) and were
    /// killed and reaped after the phase (their CPU time then counts).
    pub escaped: usize,
}

/// Makes the wrapper a child subreaper so orphaned descendants are re-parented
/// to it (Linux only; elsewhere a no-op). Failure is harmless and ignored.
pub fn become_subreaper() {
    #[cfg(target_os = "linux")]
    // SAFETY: prctl with integer arguments only.
    unsafe {
        libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
    }
}

/// User plus system CPU time of all reaped children (and their reaped descendants).
pub fn children_cpu() -> Duration {
    // SAFETY: getrusage writes into a zeroed struct we own.
    let usage = unsafe {
        let mut usage: libc::rusage = std::mem::zeroed();
        libc::getrusage(libc::RUSAGE_CHILDREN, &mut usage);
        usage
    };
    let tv = |t: libc::timeval| Duration::new(t.tv_sec as u64, (t.tv_usec as u32) * 1000);
    tv(usage.ru_utime) + tv(usage.ru_stime)
}

/// Starts `argv` in a new process group with stdin from `/dev/null` and both
/// output streams piped. A spawn failing with `ETXTBSY` (the executable was
/// just written and is still open somewhere) is retried for up to a second.
pub fn spawn(argv: &[OsString]) -> std::io::Result<Child> {
    use std::os::unix::process::CommandExt;
    let (program, args) = argv
        .split_first()
        .ok_or_else(|| std::io::Error::new(std::io::ErrorKind::InvalidInput, "empty command"))?;
    let mut attempts = 0;
    loop {
        let result = Command::new(program)
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .process_group(0)
            .spawn();
        match result {
            Err(e) if e.raw_os_error() == Some(libc::ETXTBSY) && attempts < 20 => {
                attempts += 1;
                std::thread::sleep(Duration::from_millis(50));
            }
            other => return other,
        }
    }
}

/// The exit code a shell would report for a command that cannot be started.
pub fn spawn_failure_code(err: &std::io::Error) -> i32 {
    if err.kind() == std::io::ErrorKind::NotFound {
        127
    } else {
        126
    }
}

/// Non-blocking `waitpid`; `Some(exit)` once `pid` has ended and was reaped.
fn try_wait(pid: i32) -> Option<Exit> {
    let mut status = 0;
    // SAFETY: waitpid on our own child with a valid status pointer.
    let rc = unsafe { libc::waitpid(pid, &mut status, libc::WNOHANG) };
    if rc == pid {
        Some(decode(status))
    } else if rc < 0 && std::io::Error::last_os_error().raw_os_error() != Some(libc::EINTR) {
        // ECHILD: someone else reaped it (cannot happen here); report a generic failure.
        Some(Exit::Code(-1))
    } else {
        None
    }
}

fn decode(status: i32) -> Exit {
    if libc::WIFSIGNALED(status) {
        Exit::Signal(libc::WTERMSIG(status))
    } else {
        Exit::Code(libc::WEXITSTATUS(status))
    }
}

fn signal_group(pgid: i32, sig: i32) {
    // SAFETY: kill(2) on a negative pid signals a process group; errors (ESRCH) ignored.
    unsafe {
        libc::kill(-pgid, sig);
    }
}

/// Sends `first` to the group, waits up to `grace` for the main process, then
/// SIGKILLs the group and reaps the main process.
fn stop_group(pid: i32, first: i32, grace: Duration) -> Exit {
    signal_group(pid, first);
    let deadline = Instant::now() + grace;
    loop {
        if let Some(exit) = try_wait(pid) {
            return exit;
        }
        if Instant::now() >= deadline {
            break;
        }
        std::thread::sleep(POLL);
    }
    signal_group(pid, libc::SIGKILL);
    loop {
        if let Some(exit) = try_wait(pid) {
            return exit;
        }
        std::thread::sleep(Duration::from_millis(2));
    }
}

/// SIGKILLs whatever is left of group `pgid` and reaps re-parented orphans until
/// the group is empty (bounded by a few seconds).
pub fn kill_group_and_reap(pgid: i32) {
    signal_group(pgid, libc::SIGKILL);
    let deadline = Instant::now() + CLEANUP_LIMIT;
    loop {
        reap_orphans();
        // SAFETY: signal 0 only checks whether the group still has members.
        let alive = unsafe { libc::kill(-pgid, 0) } == 0;
        if !alive || Instant::now() >= deadline {
            break;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    reap_orphans();
}

/// Reaps every already-dead child (re-parented orphans included).
fn reap_orphans() {
    loop {
        let mut status = 0;
        // SAFETY: waitpid(-1, WNOHANG) with a valid status pointer.
        let rc = unsafe { libc::waitpid(-1, &mut status, libc::WNOHANG) };
        if rc <= 0 {
            break;
        }
    }
}

/// Supervises `child` (started by [`spawn`]) until it exits, its time limit
/// passes, `stop_flag` is raised, or the wrapper receives a termination signal.
/// In the last three cases the group gets SIGTERM (or the received signal), then
/// SIGKILL after `grace`. The group is always SIGKILLed at the end, so no
/// descendant survives the phase. `started` is the spawn instant.
pub fn supervise(
    child: &Child,
    started: Instant,
    timeout: Option<Duration>,
    grace: Duration,
    stop_flag: Option<&AtomicBool>,
) -> Outcome {
    let pid = child.id() as i32;
    let deadline = timeout.map(|t| started + t);
    let (exit, stop) = loop {
        if let Some(exit) = try_wait(pid) {
            break (exit, Stop::Completed);
        }
        if let Some(sig) = signals::pending() {
            break (stop_group(pid, sig, grace), Stop::Interrupted(sig));
        }
        if deadline.is_some_and(|d| Instant::now() >= d) {
            break (stop_group(pid, libc::SIGTERM, grace), Stop::Timeout);
        }
        if stop_flag.is_some_and(|f| f.load(Ordering::SeqCst)) {
            break (stop_group(pid, libc::SIGTERM, grace), Stop::Requested);
        }
        std::thread::sleep(POLL);
    };
    let wall = started.elapsed();
    kill_group_and_reap(pid);
    let escaped = kill_escaped_descendants();
    Outcome {
        exit,
        wall,
        stop,
        escaped,
    }
}

/// SIGKILLs every remaining descendant of the wrapper (processes that left
/// the phase's process group with `setsid`, found through the parent links
/// in `/proc`) and reaps them, so that they neither outlive the phase nor
/// escape its CPU accounting (as a subreaper the wrapper inherits them).
/// Bounded by [`CLEANUP_LIMIT`]; returns how many processes were killed.
pub fn kill_escaped_descendants() -> usize {
    // SAFETY: getpid has no preconditions.
    let me = unsafe { libc::getpid() };
    let deadline = Instant::now() + CLEANUP_LIMIT;
    let mut killed = std::collections::BTreeSet::new();
    loop {
        reap_orphans();
        let live = descendants(me);
        if live.is_empty() || Instant::now() >= deadline {
            break;
        }
        for pid in live {
            // SAFETY: kill(2) on a descendant of ours; ESRCH is ignored.
            unsafe {
                libc::kill(pid, libc::SIGKILL);
            }
            killed.insert(pid);
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    reap_orphans();
    killed.len()
}

/// Live (not zombie) descendants of `root`, from `/proc/*/stat`.
fn descendants(root: i32) -> Vec<i32> {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    let mut children: std::collections::HashMap<i32, Vec<(i32, bool)>> =
        std::collections::HashMap::new();
    for entry in entries.flatten() {
        let Some(pid) = entry
            .file_name()
            .to_str()
            .and_then(|n| n.parse::<i32>().ok())
        else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
            continue;
        };
        // After the command name in parentheses: state, ppid.
        let mut rest = stat
            .rsplit_once(')')
            .map_or("", |(_, r)| r)
            .split_whitespace();
        let zombie = rest.next() == Some("Z");
        if let Some(ppid) = rest.next().and_then(|p| p.parse::<i32>().ok()) {
            children.entry(ppid).or_default().push((pid, zombie));
        }
    }
    let mut out = Vec::new();
    let mut todo = vec![root];
    while let Some(parent) = todo.pop() {
        for &(pid, zombie) in children.get(&parent).map_or(&[][..], Vec::as_slice) {
            if pid != root && !out.contains(&pid) {
                todo.push(pid);
                if !zombie {
                    out.push(pid);
                }
            }
        }
    }
    out
}
