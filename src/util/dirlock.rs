//! One owner per directory: an advisory lock (`flock`) on a file in it,
//! with the owner's PID, host, start time and command written inside for the
//! message a second owner gets.
//!
//! The lock of a command ([`DirLock::hand_down`]: `smtcomp run`'s) is handed
//! down to the BenchExec calls the command starts
//! ([`crate::util::process::Supervised::inherit_locks`]; no other child gets
//! it), so the lock stays held while any of them runs: a BenchExec
//! call left behind by an owner killed with SIGKILL still holds it, and a
//! resumed run cannot start the same definitions beside it. The kernel
//! releases the lock when the last of them ends: there are no stale locks to
//! clean up (the text inside may be old; the lock decides).

use std::fs::File;
use std::io::Write;
use std::os::fd::{AsRawFd, RawFd};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// The descriptors of the locks this process hands down.
static HELD: Mutex<Vec<RawFd>> = Mutex::new(Vec::new());
/// The lock files this process holds now (live owners).
static LIVE: Mutex<std::collections::BTreeSet<PathBuf>> =
    Mutex::new(std::collections::BTreeSet::new());

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// The descriptors of the locks this process holds now (for the children
/// that inherit them).
pub fn held_fds() -> Vec<RawFd> {
    HELD.lock().unwrap_or_else(|e| e.into_inner()).clone()
}

/// A held lock; released when dropped (and every program started under it ended).
#[derive(Debug)]
pub struct DirLock {
    _file: File,
    path: PathBuf,
}

impl Drop for DirLock {
    fn drop(&mut self) {
        let fd = self._file.as_raw_fd();
        lock(&HELD).retain(|h| *h != fd);
        lock(&LIVE).remove(&self.path);
    }
}

impl DirLock {
    /// Hands this lock down to the BenchExec calls this process starts from
    /// now on, until it is dropped. For the command's own lock: in a process
    /// with several owners at once (tests), every call would hold every lock
    /// handed down.
    pub fn hand_down(&self) {
        HELD.lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(self._file.as_raw_fd());
    }

    /// The lock file.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

/// Why a directory's lock was not taken.
#[derive(Debug, thiserror::Error)]
pub enum LockError {
    /// Another owner holds it.
    #[error(
        "{} is in use: {holder} (lock {}); wait for it to end or stop it (Ctrl-C, kill PID); \
         a BenchExec call it started holds the lock until it ends",
        dir.display(),
        lock.display()
    )]
    InUse {
        /// The directory.
        dir: PathBuf,
        /// Its lock file.
        lock: PathBuf,
        /// The holder, as its lock file says (`held by smtcomp run, PID ...`).
        holder: String,
    },
    /// The directory, or its lock file, cannot be created, opened or locked.
    #[error(transparent)]
    Io(#[from] super::path_error::PathError),
}

/// Takes the lock `dir/name` for `what` (e.g. `smtcomp run`), or says who holds it.
pub fn acquire(dir: &Path, name: &str, what: &str) -> Result<DirLock, LockError> {
    let io = |path: &Path, action| {
        let on = super::path_error::PathError::on(path, action);
        move |source| LockError::Io(on(source))
    };
    std::fs::create_dir_all(dir).map_err(io(dir, "create"))?;
    let path = dir.join(name);
    let file = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(&path)
        .map_err(io(&path, "open"))?;
    let fd = file.as_raw_fd();
    let try_lock = || {
        // SAFETY: flock on a descriptor we own.
        if unsafe { libc::flock(fd, libc::LOCK_EX | libc::LOCK_NB) } == 0 {
            Ok(())
        } else {
            Err(std::io::Error::last_os_error())
        }
    };
    let mut locked = try_lock();
    // Held, per its text, by this very process although no live owner here has
    // it: an earlier owner (dropped) whose descriptor a child forked by another
    // thread still holds between its fork and its exec (close-on-exec), which
    // under load can take a while: wait for that, briefly. A live owner here,
    // or another process, is refused at once.
    let ours = format!("PID {}, ", std::process::id());
    let live = || lock(&LIVE).contains(&path);
    let start = std::time::Instant::now();
    while locked.is_err()
        && start.elapsed() < std::time::Duration::from_secs(10)
        && !live()
        && std::fs::read_to_string(&path).is_ok_and(|t| t.contains(&ours))
    {
        std::thread::sleep(std::time::Duration::from_millis(20));
        locked = try_lock();
    }
    if let Err(err) = locked {
        if err.raw_os_error() == Some(libc::EWOULDBLOCK) {
            return Err(LockError::InUse {
                dir: dir.to_path_buf(),
                holder: holder(&path),
                lock: path,
            });
        }
        return Err(io(&path, "lock")(err));
    }
    let text = format!(
        "{what}, PID {}, host {}, since {}\n",
        std::process::id(),
        hostname(),
        chrono::Utc::now().format("%Y-%m-%d %H:%M:%S UTC")
    );
    let _ = file.set_len(0);
    let _ = (&file).write_all(text.as_bytes());
    lock(&LIVE).insert(path.clone());
    Ok(DirLock { _file: file, path })
}

/// Who holds the lock `dir/name`, if anyone (its text, or `unknown`).
pub fn held_by(dir: &Path, name: &str) -> Option<String> {
    let path = dir.join(name);
    let file = File::open(&path).ok()?;
    // SAFETY: flock on a descriptor we own (a shared probe, released at once).
    let free = unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_SH | libc::LOCK_NB) } == 0;
    if free {
        // SAFETY: as above.
        unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_UN) };
        return None;
    }
    Some(holder(&path))
}

fn holder(path: &Path) -> String {
    let text = std::fs::read(path).unwrap_or_default();
    let text = String::from_utf8_lossy(&text[..text.len().min(500)]);
    match text.trim() {
        "" => "held by a process that wrote nothing".into(),
        t => format!("held by {t}"),
    }
}

fn hostname() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .map(|h| h.trim().to_string())
        .unwrap_or_else(|_| "unknown".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Whether the lock is free within 10 s (a child another test started
    /// while the lock was held inherits it, briefly).
    fn freed(d: &Path) -> bool {
        let start = std::time::Instant::now();
        while start.elapsed() < std::time::Duration::from_secs(10) {
            if held_by(d, ".lock").is_none() {
                return true;
            }
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
        false
    }

    #[test]
    fn a_second_owner_is_refused_with_the_holder_and_the_lock_frees_on_drop() {
        let d = tempfile::tempdir().unwrap();
        let lock = acquire(d.path(), ".lock", "smtcomp run").unwrap();
        let held = held_by(d.path(), ".lock").unwrap();
        assert!(held.starts_with("held by smtcomp run, PID "), "{held}");
        // flock locks belong to open files: a second open in this process conflicts too.
        let err = acquire(d.path(), ".lock", "smtcomp demo").unwrap_err();
        assert!(
            matches!(&err, LockError::InUse { holder, .. } if holder.starts_with("held by smtcomp run, PID ")),
            "{err}"
        );
        assert!(
            err.to_string()
                .contains("is in use: held by smtcomp run, PID "),
            "{err}"
        );
        assert!(lock.path().ends_with(".lock"));
        drop(lock);
        assert!(freed(d.path()));
        let again = acquire(d.path(), ".lock", "smtcomp demo").unwrap();
        drop(again);
        assert_eq!(held_by(d.path(), "none"), None);
    }

    #[test]
    fn a_former_owner_here_whose_descriptor_a_child_still_holds_is_waited_for() {
        let d = tempfile::tempdir().unwrap();
        let first = acquire(d.path(), ".lock", "smtcomp demo").unwrap();
        // A copy of the descriptor, as a child forked by another thread holds
        // it until its exec; closed a little later.
        // SAFETY: dup of a descriptor we own.
        let copy = unsafe { libc::dup(first._file.as_raw_fd()) };
        assert!(copy >= 0);
        drop(first);
        let closer = std::thread::spawn(move || {
            std::thread::sleep(std::time::Duration::from_millis(300));
            // SAFETY: closing the descriptor dup'd above.
            unsafe { libc::close(copy) };
        });
        let again = acquire(d.path(), ".lock", "smtcomp demo");
        closer.join().unwrap();
        assert!(again.is_ok(), "{again:?}");
    }
}
