//! SIGTERM/SIGINT/SIGHUP handling through a self-pipe.
//!
//! The handler writes the signal number to a non-blocking pipe and sends
//! SIGTERM to the solver's process group (both async-signal-safe). The main
//! loop either polls the pipe or is woken from a blocking read (by `EINTR`, or
//! by the solver's death closing its stdout, which also covers a signal that
//! lands just before the read starts); it then stops the solver group for
//! good and re-raises the signal with its default action ([`reraise`]), so
//! the harness still sees "killed by signal 15". SIGPIPE is ignored, so a
//! vanished solver shows up as `EPIPE`.
//!
//! Blocking reads without `poll(2)` (the common case, see
//! `process::Solver::recv`) are made interruptible without a race: the
//! descriptor they read is *armed* ([`arm_fast_read`]), and every handler
//! (the stopping signals and SIGCHLD) replaces that descriptor with the read
//! end of an already closed pipe (`dup3`, async-signal-safe). A read that was
//! blocked returns `EINTR` (or restarts and sees end of file); a read that
//! starts after the signal sees end of file at once. The caller then falls
//! back to the polling path, which tells what happened. Only the main thread
//! receives these signals (other threads are spawned with them blocked), so a
//! handler never runs concurrently with the main thread's use of the fd.

use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};

/// Signals that stop a run.
pub const HANDLED: [libc::c_int; 3] = [libc::SIGTERM, libc::SIGINT, libc::SIGHUP];

static WRITE_FD: AtomicI32 = AtomicI32::new(-1);
static SOLVER_GROUP: AtomicI32 = AtomicI32::new(0);
static RECEIVED: AtomicI32 = AtomicI32::new(0);
static CHILD_WRITE_FD: AtomicI32 = AtomicI32::new(-1);
static CHILD_EVENT: AtomicBool = AtomicBool::new(false);
/// The armed descriptor of blocking reads (-1: none).
static FAST_FD: AtomicI32 = AtomicI32::new(-1);
/// A descriptor that reads as end of file (a pipe whose write end is closed).
static EOF_FD: AtomicI32 = AtomicI32::new(-1);

/// Makes the armed descriptor read as end of file (async-signal-safe).
fn trip_fast_read() {
    let fast = FAST_FD.load(Ordering::SeqCst);
    let eof = EOF_FD.load(Ordering::SeqCst);
    if fast >= 0 && eof >= 0 {
        // SAFETY: dup3(2) is a plain system call; it atomically replaces the
        // armed descriptor, which the main thread owns and disarms before
        // closing it.
        unsafe {
            libc::dup3(eof, fast, libc::O_CLOEXEC);
        }
    }
}

/// Arms `fd` for interruptible blocking reads (see the module comment).
/// The caller must [`disarm_fast_read`] before closing it.
pub fn arm_fast_read(fd: RawFd) {
    FAST_FD.store(fd, Ordering::SeqCst);
}

/// Disarms the descriptor of blocking reads.
pub fn disarm_fast_read() {
    FAST_FD.store(-1, Ordering::SeqCst);
}

/// True once SIGCHLD arrived (the solver, our only child, died) or a
/// stopping signal arrived: blocking reads are then no longer used.
pub fn fast_read_over() -> bool {
    CHILD_EVENT.load(Ordering::SeqCst) || RECEIVED.load(Ordering::SeqCst) != 0
}

/// Runs `f` (which spawns a thread) with every signal we handle blocked, so
/// that the new thread inherits a mask that keeps them on the main thread.
pub fn with_signals_blocked<T>(f: impl FnOnce() -> T) -> T {
    // SAFETY: building a signal set and swapping the calling thread's mask.
    unsafe {
        let mut set: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut set);
        for sig in HANDLED.iter().chain(&[libc::SIGCHLD]) {
            libc::sigaddset(&mut set, *sig);
        }
        let mut old: libc::sigset_t = std::mem::zeroed();
        libc::pthread_sigmask(libc::SIG_BLOCK, &set, &mut old);
        let out = f();
        libc::pthread_sigmask(libc::SIG_SETMASK, &old, std::ptr::null_mut());
        out
    }
}

/// SIGCHLD: the solver (our only child) changed state. A byte on the child
/// pipe wakes the I/O loop, which then reaps the solver: a dead solver whose
/// descendants still hold its stdout open must not be waited for.
extern "C" fn on_child(_sig: libc::c_int) {
    CHILD_EVENT.store(true, Ordering::SeqCst);
    trip_fast_read();
    let fd = CHILD_WRITE_FD.load(Ordering::Relaxed);
    if fd >= 0 {
        let byte = 0u8;
        // SAFETY: write(2) is async-signal-safe; the buffer is a local byte.
        unsafe {
            libc::write(fd, (&byte as *const u8).cast(), 1);
        }
    }
}

/// Tells the handler which process group to SIGTERM (0: none).
pub fn set_solver_group(pgid: libc::pid_t) {
    SOLVER_GROUP.store(pgid, Ordering::Relaxed);
}

extern "C" fn on_signal(sig: libc::c_int) {
    let _ = RECEIVED.compare_exchange(0, sig, Ordering::SeqCst, Ordering::SeqCst);
    let fd = WRITE_FD.load(Ordering::Relaxed);
    if fd >= 0 {
        let byte = sig as u8;
        // SAFETY: write(2) is async-signal-safe; the buffer is a local byte.
        unsafe {
            libc::write(fd, (&byte as *const u8).cast(), 1);
        }
    }
    let group = SOLVER_GROUP.load(Ordering::Relaxed);
    if group > 0 {
        // SAFETY: kill(2) is async-signal-safe.
        unsafe {
            libc::kill(-group, libc::SIGTERM);
        }
    }
    trip_fast_read();
}

/// The read end of the signal self-pipe.
pub struct SignalPipe {
    read: OwnedFd,
    _write: OwnedFd,
    child_read: OwnedFd,
    _child_write: OwnedFd,
    _eof: Option<OwnedFd>,
}

fn pipe() -> io::Result<(OwnedFd, OwnedFd)> {
    let mut fds = [0 as RawFd; 2];
    // SAFETY: fds is a valid two-element array.
    if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC | libc::O_NONBLOCK) } != 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: pipe2 returned two fresh descriptors that we now own.
    Ok(unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) })
}

impl SignalPipe {
    /// Installs the handlers (once per process) and returns the pipe.
    pub fn install() -> io::Result<SignalPipe> {
        let (read, write) = pipe()?;
        WRITE_FD.store(write.as_raw_fd(), Ordering::Relaxed);
        let (child_read, child_write) = pipe()?;
        CHILD_WRITE_FD.store(child_write.as_raw_fd(), Ordering::Relaxed);
        CHILD_EVENT.store(false, Ordering::SeqCst);
        // A pipe without writer: reads see end of file at once.
        let eof = pipe().ok().map(|(read, _write)| read);
        EOF_FD.store(
            eof.as_ref().map_or(-1, AsRawFd::as_raw_fd),
            Ordering::SeqCst,
        );
        // SAFETY: as above; SA_RESTART so that SIGCHLD never interrupts
        // other calls, SA_NOCLDSTOP so that only a death wakes the loop.
        unsafe {
            let mut action: libc::sigaction = std::mem::zeroed();
            action.sa_sigaction = on_child as *const () as usize;
            libc::sigemptyset(&mut action.sa_mask);
            action.sa_flags = libc::SA_RESTART | libc::SA_NOCLDSTOP;
            if libc::sigaction(libc::SIGCHLD, &action, std::ptr::null_mut()) != 0 {
                return Err(io::Error::last_os_error());
            }
        }
        for sig in HANDLED {
            // SAFETY: a zeroed sigaction with a valid handler is well formed.
            unsafe {
                let mut action: libc::sigaction = std::mem::zeroed();
                action.sa_sigaction = on_signal as *const () as usize;
                libc::sigemptyset(&mut action.sa_mask);
                // No SA_RESTART: a blocking read must return EINTR.
                action.sa_flags = 0;
                if libc::sigaction(sig, &action, std::ptr::null_mut()) != 0 {
                    return Err(io::Error::last_os_error());
                }
            }
        }
        // SAFETY: ignoring SIGPIPE is always allowed.
        unsafe {
            libc::signal(libc::SIGPIPE, libc::SIG_IGN);
        }
        Ok(SignalPipe {
            read,
            _write: write,
            child_read,
            _child_write: child_write,
            _eof: eof,
        })
    }

    /// The descriptor that becomes readable when the solver dies.
    pub fn child_fd(&self) -> RawFd {
        self.child_read.as_raw_fd()
    }

    /// Empties the child pipe (after a wake-up).
    pub fn drain_child(&self) {
        let mut bytes = [0u8; 64];
        // SAFETY: reading the non-blocking pipe into a local buffer.
        while unsafe {
            libc::read(
                self.child_read.as_raw_fd(),
                bytes.as_mut_ptr().cast(),
                bytes.len(),
            )
        } > 0
        {}
    }

    /// The descriptor to poll for readability.
    pub fn fd(&self) -> RawFd {
        self.read.as_raw_fd()
    }

    /// The first signal received, if any (no syscall unless one arrived).
    /// Once a signal arrived it stays pending: the run is over.
    pub fn pending(&self) -> Option<libc::c_int> {
        let sig = RECEIVED.load(Ordering::SeqCst);
        if sig == 0 {
            return None;
        }
        let mut bytes = [0u8; 16];
        // SAFETY: draining the non-blocking pipe into a local buffer, so
        // that later polls do not spin on it.
        unsafe {
            libc::read(
                self.read.as_raw_fd(),
                bytes.as_mut_ptr().cast(),
                bytes.len(),
            )
        };
        Some(sig)
    }
}

/// Restores the default action of `sig` and raises it; falls back to
/// exiting with `128 + sig` if the signal does not terminate the process.
pub fn reraise(sig: libc::c_int) -> ! {
    raise_with_default_action(sig);
    std::process::exit(128 + sig)
}

/// Restores the default disposition of `sig`, unblocks it and raises it: the
/// process then dies of the signal it received (if its default action is to
/// terminate). Returns only if the signal does not terminate the process.
fn raise_with_default_action(sig: libc::c_int) {
    // SAFETY: plain signal-disposition, mask and raise calls with a valid signal number.
    unsafe {
        libc::signal(sig, libc::SIG_DFL);
        let mut set: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut set);
        libc::sigaddset(&mut set, sig);
        libc::sigprocmask(libc::SIG_UNBLOCK, &set, std::ptr::null_mut());
        libc::raise(sig);
    }
}
