//! Termination signals received by the wrapper (SIGTERM, SIGINT, SIGHUP).
//!
//! The handler only records the signal number; the supervision loops poll
//! [`pending`], forward the signal to the active child group, stop it, flush the
//! report and finally call [`reraise`] so that the harness sees the wrapper die
//! of the same signal.

use std::sync::atomic::{AtomicI32, Ordering};

/// The signals the wrapper intercepts.
pub const HANDLED: [libc::c_int; 3] = [libc::SIGTERM, libc::SIGINT, libc::SIGHUP];

static PENDING: AtomicI32 = AtomicI32::new(0);

extern "C" fn record(sig: libc::c_int) {
    // Keep the first signal: it decides what the wrapper re-raises.
    let _ = PENDING.compare_exchange(0, sig, Ordering::SeqCst, Ordering::SeqCst);
}

/// Installs the recording handler for every signal in [`HANDLED`].
pub fn install() -> std::io::Result<()> {
    for sig in HANDLED {
        // SAFETY: `record` is async-signal-safe (one atomic operation) and the
        // sigaction struct is fully initialised before use.
        let rc = unsafe {
            let mut action: libc::sigaction = std::mem::zeroed();
            action.sa_sigaction = record as *const () as libc::sighandler_t;
            libc::sigemptyset(&mut action.sa_mask);
            action.sa_flags = libc::SA_RESTART;
            libc::sigaction(sig, &action, std::ptr::null_mut())
        };
        if rc != 0 {
            return Err(std::io::Error::last_os_error());
        }
    }
    Ok(())
}

/// The first termination signal received so far, if any.
pub fn pending() -> Option<i32> {
    match PENDING.load(Ordering::SeqCst) {
        0 => None,
        sig => Some(sig),
    }
}

/// Restores the default action for `sig` and raises it, so the wrapper dies of
/// the signal it received. Returns only if the signal does not terminate.
pub fn reraise(sig: i32) {
    raise_with_default_action(sig);
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
