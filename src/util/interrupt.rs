//! Interrupts: SIGINT, SIGTERM and SIGHUP reach the programs we started too.
//!
//! Every supervised child ([`crate::util::process::run`]) runs in its own
//! session, so the terminal's Ctrl-C (sent to the foreground process group)
//! never reaches it, and a plain `kill PID` of ours would leave it running as
//! an orphan: a BenchExec call would go on writing results beside the next
//! `smtcomp run`. After [`install`], the first such signal:
//!
//! 1. stops new children from being started ([`interrupted`]);
//! 2. sends the signal on to every running child's process group (SIGHUP as
//!    SIGTERM: BenchExec stops its runs on SIGINT and SIGTERM) and runs the
//!    registered cleanups (e.g. `scancel` of our Slurm jobs);
//! 3. waits for the children to end, at most [`GRACE`], then kills what is
//!    left of their groups (SIGKILL);
//! 4. says what it stopped on standard error and exits `128 + signal`
//!    (130 for SIGINT, 143 for SIGTERM, 129 for SIGHUP).
//!
//! A second signal while waiting kills the remaining groups at once.

use std::collections::BTreeMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicI32, Ordering};
use std::time::{Duration, Instant};

/// How long the children get to stop before their groups are killed.
pub const GRACE: Duration = Duration::from_secs(15);

/// The signal received (0: none).
static SIGNAL: AtomicI32 = AtomicI32::new(0);
/// The write end of the self-pipe the handler wakes the watcher through.
static PIPE: AtomicI32 = AtomicI32::new(-1);
/// Running children: process group -> what it is (for the message).
static GROUPS: Mutex<BTreeMap<i32, String>> = Mutex::new(BTreeMap::new());
/// Cleanups to run on an interrupt (key -> description and action).
type Cleanup = Box<dyn Fn() + Send>;
static CLEANUPS: Mutex<BTreeMap<u64, (String, Cleanup)>> = Mutex::new(BTreeMap::new());

/// The signal that interrupted this process, if any: no child is started after it.
pub fn interrupted() -> Option<i32> {
    match SIGNAL.load(Ordering::SeqCst) {
        0 => None,
        s => Some(s),
    }
}

/// A running child's process group, registered until dropped.
pub struct Group(i32);

/// Registers the process group `pgid` (a child in its own session), `what`
/// naming it in the interrupt message.
pub fn register(pgid: i32, what: &str) -> Group {
    lock(&GROUPS).insert(pgid, what.to_string());
    Group(pgid)
}

impl Drop for Group {
    fn drop(&mut self) {
        lock(&GROUPS).remove(&self.0);
    }
}

/// A cleanup run on an interrupt, registered until dropped.
pub struct CleanupGuard(u64);

/// Registers `action` (described by `what`) to run when an interrupt arrives.
pub fn on_interrupt(what: &str, action: impl Fn() + Send + 'static) -> CleanupGuard {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let id = NEXT.fetch_add(1, Ordering::SeqCst);
    lock(&CLEANUPS).insert(id, (what.to_string(), Box::new(action)));
    CleanupGuard(id)
}

impl Drop for CleanupGuard {
    fn drop(&mut self) {
        lock(&CLEANUPS).remove(&self.0);
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

extern "C" fn on_signal(sig: libc::c_int) {
    // Only async-signal-safe calls: an atomic store and write(2).
    let first = SIGNAL
        .compare_exchange(0, sig, Ordering::SeqCst, Ordering::SeqCst)
        .is_ok();
    let byte: u8 = if first { sig as u8 } else { 0 };
    let fd = PIPE.load(Ordering::SeqCst);
    if fd >= 0 {
        // SAFETY: writing one byte from a valid stack buffer to our pipe.
        unsafe { libc::write(fd, (&byte as *const u8).cast(), 1) };
    }
}

/// Installs the handlers and the watcher thread (once per process; later
/// calls do nothing). Without it, signals keep their default action.
pub fn install() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let mut fds = [0 as libc::c_int; 2];
        // SAFETY: pipe2 writes two descriptors into the array we own.
        if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) } != 0 {
            return;
        }
        PIPE.store(fds[1], Ordering::SeqCst);
        let read_fd = fds[0];
        if std::thread::Builder::new()
            .name("interrupt".into())
            .spawn(move || watch(read_fd))
            .is_err()
        {
            return;
        }
        for sig in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
            // SAFETY: a zeroed sigaction with our handler, SA_RESTART so that
            // interrupted reads are retried; the handler is async-signal-safe.
            unsafe {
                let mut sa: libc::sigaction = std::mem::zeroed();
                sa.sa_sigaction = on_signal as *const () as usize;
                sa.sa_flags = libc::SA_RESTART;
                libc::sigemptyset(&mut sa.sa_mask);
                libc::sigaction(sig, &sa, std::ptr::null_mut());
            }
        }
    });
}

fn read_byte(fd: i32) -> Option<u8> {
    let mut b = 0u8;
    loop {
        // SAFETY: reading one byte into a valid stack buffer.
        let n = unsafe { libc::read(fd, (&mut b as *mut u8).cast(), 1) };
        if n == 1 {
            return Some(b);
        }
        if n == 0 || std::io::Error::last_os_error().kind() != std::io::ErrorKind::Interrupted {
            return None;
        }
    }
}

fn watch(fd: i32) {
    let Some(_) = read_byte(fd) else { return };
    let sig = SIGNAL.load(Ordering::SeqCst);
    let report = stop_children(sig, GRACE, fd);
    let name = signal_name(sig);
    if report.is_empty() {
        eprintln!("smtcomp: interrupted by {name}");
    } else {
        eprintln!(
            "smtcomp: interrupted by {name}; stopped: {}. What did not finish is redone on resume.",
            report.join("; ")
        );
    }
    std::process::exit(128 + sig);
}

/// Forwards `sig` to every registered group and runs the cleanups, waits
/// for the groups to end (at most `grace`, less when a second signal arrives
/// on `fd`), then kills what is left. Returns what it stopped, one phrase each.
fn stop_children(sig: i32, grace: Duration, fd: i32) -> Vec<String> {
    let forward = if sig == libc::SIGHUP {
        libc::SIGTERM
    } else {
        sig
    };
    let groups: Vec<(i32, String)> = lock(&GROUPS).iter().map(|(g, w)| (*g, w.clone())).collect();
    for (g, _) in &groups {
        // SAFETY: kill(2) on a process group we created.
        unsafe { libc::kill(-g, forward) };
    }
    let mut report = Vec::new();
    for (what, action) in lock(&CLEANUPS).values() {
        action();
        report.push(what.clone());
    }
    // A second signal ends the wait: poll the pipe without blocking.
    // SAFETY: fcntl on our own descriptor.
    unsafe { libc::fcntl(fd, libc::F_SETFL, libc::O_NONBLOCK) };
    let start = Instant::now();
    while start.elapsed() < grace && !lock(&GROUPS).is_empty() {
        let mut b = 0u8;
        // SAFETY: reading one byte into a valid stack buffer.
        if unsafe { libc::read(fd, (&mut b as *mut u8).cast(), 1) } == 1 {
            break;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let left = lock(&GROUPS).clone();
    for (g, what) in &groups {
        if !left.contains_key(g) {
            report.push(what.clone());
        }
    }
    for (g, what) in &left {
        // SAFETY: kill(2) on a process group we created.
        unsafe { libc::kill(-g, libc::SIGKILL) };
        report.push(format!("{what} (killed: still running after the wait)"));
    }
    report
}

/// For the main thread once its command returned after an interrupt: the
/// watcher is stopping the children and will exit the process; wait for it
/// (at most [`GRACE`] and a little more), then return the exit code it would give.
pub fn finish(sig: i32) -> u8 {
    std::thread::sleep(GRACE + Duration::from_secs(5));
    (128 + sig).clamp(0, 255) as u8
}

/// `SIGINT`, `SIGTERM`, `SIGHUP` or `signal N`.
pub fn signal_name(sig: i32) -> String {
    match sig {
        libc::SIGINT => "SIGINT".into(),
        libc::SIGTERM => "SIGTERM".into(),
        libc::SIGHUP => "SIGHUP".into(),
        n => format!("signal {n}"),
    }
}
