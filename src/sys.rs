//! Small POSIX helpers shared by the binaries (trace executor, proof wrapper).

/// Restores the default disposition of `sig`, unblocks it and raises it: the
/// process then dies of the signal it received (if its default action is to
/// terminate). Returns only if the signal does not terminate the process.
pub fn raise_with_default_action(sig: libc::c_int) {
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
