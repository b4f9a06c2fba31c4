//! The solver process: lookup, spawn in its own process group, non-blocking
//! lock-step I/O, and the shutdown sequence.
//!
//! Writes are non-blocking; when the pipe is full, `poll(2)` waits on the
//! solver's stdout, its stdin, the signal self-pipe and the child pipe, and
//! solver output is read while a command is being written, so a huge command
//! cannot deadlock against a solver that writes before it reads.
//!
//! Reading a response takes one blocking `read(2)` on a second, blocking
//! descriptor of the solver's stdout (opened through `/proc/self/fd`), as the
//! C original does: no `poll(2)` per command. That descriptor is armed in
//! [`signals`](super::signals): a stopping signal or the solver's death makes
//! it read as end of file, after which (and whenever a watchdog deadline is
//! set) the polling path, which tells the cases apart, is used.

use std::ffi::{OsStr, OsString};
use std::fs::File;
use std::io::{self, Read, Write};
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::PermissionsExt;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{ChildStdin, ChildStdout, Command, Stdio};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use super::lines::{Line, LineAssembler};
use super::signals::{self, SignalPipe};

/// More complete lines than this arriving while a command is being written
/// (all of them unsolicited) means the solver floods stdout; the run stops
/// instead of buffering without bound. (While a response is due, output is
/// read only when no line is waiting, so that buffer is bounded by one read.)
pub const MAX_PENDING_LINES: usize = 1024;

/// Reads of 64 KiB taken from a dead solver's stdout (1 MiB, the largest
/// pipe buffer Linux grants by default).
const DEAD_DRAIN_READS: usize = 16;

/// Longest grace period honoured (a larger one cannot be represented).
const MAX_GRACE: Duration = Duration::from_secs(1 << 30);

/// Time between SIGTERM and SIGKILL of the solver group.
pub const TERM_TO_KILL: Duration = Duration::from_secs(1);

/// Why an I/O operation with the solver stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Interrupt {
    /// The solver closed its stdout, or its stdin is gone (EPIPE).
    Eof,
    /// The watchdog deadline passed.
    Timeout,
    /// SIGTERM, SIGINT or SIGHUP arrived.
    Signal(libc::c_int),
    /// Too many unsolicited lines.
    Flooded,
}

/// Deadline and signal source for blocking operations.
pub struct Control<'a> {
    /// The signal self-pipe.
    pub signals: &'a SignalPipe,
    /// The watchdog deadline, if any.
    pub deadline: Option<Instant>,
}

/// How the solver ended.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct ExitInfo {
    /// Exit code if it exited normally.
    pub code: Option<i32>,
    /// Signal number if it was killed.
    pub signal: Option<i32>,
    /// User + system CPU of the solver and its reaped descendants.
    pub cpu_s: f64,
    /// We had to send SIGTERM to the group.
    pub sent_term: bool,
    /// We had to send SIGKILL to the group.
    pub sent_kill: bool,
}

/// Finds the program to execute for `solver`:
/// a name with `/` is a path; otherwise `./NAME` if it is an executable file
/// (what the original's `execv` did); otherwise the first match on `PATH`.
pub fn resolve(solver: &OsStr) -> Option<PathBuf> {
    if solver.is_empty() {
        return None;
    }
    if solver.as_bytes().contains(&b'/') {
        return Some(PathBuf::from(solver));
    }
    let local = Path::new(".").join(solver);
    if is_executable(&local) {
        return Some(local);
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| {
            if dir.as_os_str().is_empty() {
                Path::new(".").join(solver)
            } else {
                dir.join(solver)
            }
        })
        .find(|candidate| is_executable(candidate))
}

/// Marks every inherited descriptor above 2 close-on-exec, so that nothing
/// the harness leaked into us (e.g. a jobserver pipe) reaches the solver.
/// Descriptors we open ourselves are close-on-exec already.
pub fn cloexec_inherited() {
    let Ok(entries) = std::fs::read_dir("/proc/self/fd") else {
        return;
    };
    let fds: Vec<RawFd> = entries
        .flatten()
        .filter_map(|e| e.file_name().to_str().and_then(|n| n.parse().ok()))
        .filter(|&fd| fd > 2)
        .collect();
    for fd in fds {
        // SAFETY: F_GETFD/F_SETFD on a descriptor number; a stale one
        // (the directory handle, already closed) just fails with EBADF.
        unsafe {
            let flags = libc::fcntl(fd, libc::F_GETFD);
            if flags >= 0 {
                libc::fcntl(fd, libc::F_SETFD, flags | libc::FD_CLOEXEC);
            }
        }
    }
}

fn is_executable(path: &Path) -> bool {
    std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

/// Where the solver's stderr goes.
pub enum StderrSink {
    /// `/dev/null` (the original's behaviour).
    Null,
    /// A file, capped at `limit` bytes; the rest is drained and dropped.
    File(File, u64),
}

/// A running solver.
pub struct Solver {
    pid: libc::pid_t,
    stdin: Option<ChildStdin>,
    stdout: Option<ChildStdout>,
    lines: LineAssembler,
    eof: bool,
    rbuf: Box<[u8]>,
    exit: Option<ExitInfo>,
    /// Blocking descriptor of the solver's stdout (None: poll only).
    blocking: Option<BlockingReader>,
    stderr_copier: Option<JoinHandle<()>>,
    /// A signal that arrived during shutdown.
    pub late_signal: Option<libc::c_int>,
}

fn set_nonblocking(fd: RawFd) -> io::Result<()> {
    // SAFETY: fcntl on a descriptor we own.
    unsafe {
        let flags = libc::fcntl(fd, libc::F_GETFL);
        if flags < 0 || libc::fcntl(fd, libc::F_SETFL, flags | libc::O_NONBLOCK) < 0 {
            return Err(io::Error::last_os_error());
        }
    }
    Ok(())
}

impl Solver {
    /// Starts `program` (argv[0] = `arg0`) in a new process group with piped
    /// stdin/stdout. All our other descriptors are close-on-exec.
    pub fn spawn(
        program: &Path,
        arg0: &OsStr,
        args: &[OsString],
        stderr: StderrSink,
    ) -> io::Result<Solver> {
        let mut cmd = Command::new(program);
        cmd.arg0(arg0)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .process_group(0);
        let capture = match stderr {
            StderrSink::Null => {
                cmd.stderr(Stdio::null());
                None
            }
            StderrSink::File(file, limit) => {
                cmd.stderr(Stdio::piped());
                Some((file, limit))
            }
        };
        let mut child = cmd.spawn()?;
        let stdin = child.stdin.take().expect("stdin was piped");
        let stdout = child.stdout.take().expect("stdout was piped");
        // Both pipes are non-blocking: writes interleave with reads under
        // poll, and reads never block once the solver is dead.
        set_nonblocking(stdin.as_raw_fd())?;
        set_nonblocking(stdout.as_raw_fd())?;
        let stderr_copier = match (capture, child.stderr.take()) {
            // Signals stay on the main thread (see `signals`).
            (Some((file, limit)), Some(src)) => Some(signals::with_signals_blocked(|| {
                std::thread::spawn(move || copy_capped(src, file, limit))
            })),
            _ => None,
        };
        let blocking = BlockingReader::open(stdout.as_raw_fd());
        Ok(Solver {
            pid: child.id() as libc::pid_t,
            stdin: Some(stdin),
            stdout: Some(stdout),
            lines: LineAssembler::default(),
            eof: false,
            rbuf: vec![0; 64 * 1024].into_boxed_slice(),
            exit: None,
            blocking,
            stderr_copier,
            late_signal: None,
        })
    }

    /// The solver's pid, which is also its process-group id.
    pub fn pid(&self) -> libc::pid_t {
        self.pid
    }

    /// Writes all of `bytes`, reading solver output meanwhile.
    pub fn send(&mut self, bytes: &[u8], ctl: &Control) -> Result<(), Interrupt> {
        let mut off = 0;
        while off < bytes.len() {
            let Some(fd) = self.stdin.as_ref().map(AsRawFd::as_raw_fd) else {
                return Err(Interrupt::Eof);
            };
            let rest = &bytes[off..];
            // SAFETY: writing from a valid slice to our own descriptor.
            let n = unsafe { libc::write(fd, rest.as_ptr().cast(), rest.len()) };
            if n >= 0 {
                off += n as usize;
                continue;
            }
            match io::Error::last_os_error().raw_os_error() {
                Some(libc::EINTR) => {}
                Some(libc::EAGAIN) => {
                    let (readable, _) = self.wait_io(true, ctl)?;
                    if readable {
                        self.fill();
                        // Lines read while a command is being written are
                        // all unsolicited: buffer a bounded number only.
                        if self.lines.pending() > MAX_PENDING_LINES {
                            return Err(Interrupt::Flooded);
                        }
                    }
                }
                _ => {
                    self.stdin = None;
                    return Err(Interrupt::Eof);
                }
            }
        }
        Ok(())
    }

    /// Reads the next non-blank line: by blocking reads while no watchdog is
    /// set and neither a signal nor the solver's death has been seen, else
    /// waiting in `poll(2)` on the solver's stdout, the signal pipe and the
    /// child pipe (the solver's death), and the watchdog deadline. Lines
    /// already received are taken first, and more output is read only when
    /// none is waiting, so a due answer is never lost to a flood of lines
    /// written with it.
    pub fn recv(&mut self, ctl: &Control) -> Result<Line, Interrupt> {
        loop {
            if let Some(line) = self.lines.pop() {
                return Ok(line);
            }
            if self.eof {
                return Err(Interrupt::Eof);
            }
            if ctl.deadline.is_none() && self.read_blocking() {
                continue;
            }
            let (readable, _) = self.wait_io(false, ctl)?;
            if readable {
                self.fill();
            }
        }
    }

    /// One blocking read into the line assembler. False when nothing was
    /// read: no blocking descriptor (any more), a signal, end of file or a
    /// failure; the polling path then finds out which.
    fn read_blocking(&mut self) -> bool {
        let Some(reader) = self.blocking.as_ref() else {
            return false;
        };
        if signals::fast_read_over() {
            self.blocking = None;
            return false;
        }
        // SAFETY: reading into our own buffer from a descriptor we own.
        let n = unsafe {
            libc::read(
                reader.fd.as_raw_fd(),
                self.rbuf.as_mut_ptr().cast(),
                self.rbuf.len(),
            )
        };
        if n > 0 {
            self.lines.feed(&self.rbuf[..n as usize]);
            return true;
        }
        if n < 0 && io::Error::last_os_error().raw_os_error() == Some(libc::EINTR) {
            return false;
        }
        // End of file (real, or made so by a handler) or a failure.
        self.blocking = None;
        false
    }

    /// Our side of the solver's stdout is closed.
    fn close_stdout(&mut self) {
        self.blocking = None;
        self.stdout = None;
    }

    fn at_eof(&mut self) {
        self.eof = true;
        self.close_stdout();
        self.lines.finish();
    }

    /// One non-blocking read of solver stdout into the line assembler.
    /// Returns false when nothing was available.
    fn fill(&mut self) -> bool {
        let Some(stdout) = self.stdout.as_mut() else {
            return false;
        };
        match stdout.read(&mut self.rbuf) {
            Ok(0) => self.at_eof(),
            Ok(n) => {
                self.lines.feed(&self.rbuf[..n]);
                return true;
            }
            Err(e)
                if matches!(
                    e.kind(),
                    io::ErrorKind::WouldBlock | io::ErrorKind::Interrupted
                ) =>
            {
                return false;
            }
            Err(_) => self.at_eof(),
        }
        false
    }

    /// The solver died (it is reaped): what it wrote before is still in the
    /// pipe and is taken (at most [`DEAD_DRAIN_READS`] reads, the largest
    /// pipe buffer); then its stdout counts as closed, even when a
    /// descendant still holds the pipe open.
    fn solver_died(&mut self) {
        for _ in 0..DEAD_DRAIN_READS {
            if !self.fill() {
                break;
            }
        }
        if !self.eof {
            self.at_eof();
        }
        self.stdin = None;
    }

    /// Waits until stdout is readable (or, with `want_write`, stdin is
    /// writable). Returns `(readable, writable)`. When the solver has died,
    /// its remaining output is taken and the result is `(false, false)`
    /// with end of file recorded.
    fn wait_io(&mut self, want_write: bool, ctl: &Control) -> Result<(bool, bool), Interrupt> {
        loop {
            let out_fd = self.stdout.as_ref().map_or(-1, AsRawFd::as_raw_fd);
            let in_fd = match (&self.stdin, want_write) {
                (Some(s), true) => s.as_raw_fd(),
                _ => -1,
            };
            if out_fd < 0 && in_fd < 0 {
                return Err(Interrupt::Eof);
            }
            let timeout = match ctl.deadline {
                None => -1,
                Some(d) => {
                    let left = d.saturating_duration_since(Instant::now());
                    if left.is_zero() {
                        return Err(Interrupt::Timeout);
                    }
                    left.as_millis().clamp(1, i32::MAX as u128) as i32
                }
            };
            let mut fds = [
                pollfd(out_fd, libc::POLLIN),
                pollfd(ctl.signals.fd(), libc::POLLIN),
                pollfd(in_fd, libc::POLLOUT),
                pollfd(ctl.signals.child_fd(), libc::POLLIN),
            ];
            // SAFETY: fds is a valid array of pollfd.
            let r = unsafe { libc::poll(fds.as_mut_ptr(), fds.len() as libc::nfds_t, timeout) };
            if r < 0 {
                if io::Error::last_os_error().raw_os_error() == Some(libc::EINTR) {
                    continue;
                }
                return Err(Interrupt::Eof);
            }
            if fds[1].revents != 0 {
                if let Some(sig) = ctl.signals.pending() {
                    return Err(Interrupt::Signal(sig));
                }
            }
            if fds[3].revents != 0 {
                ctl.signals.drain_child();
                if self.try_reap(libc::WNOHANG) {
                    self.solver_died();
                    return Ok((false, false));
                }
            }
            let ready =
                |f: &libc::pollfd, what| f.revents & (what | libc::POLLHUP | libc::POLLERR) != 0;
            let readable = ready(&fds[0], libc::POLLIN);
            let writable = ready(&fds[2], libc::POLLOUT);
            if readable || writable {
                return Ok((readable, writable));
            }
        }
    }

    /// Non-blocking reap; records the exit on success.
    fn try_reap(&mut self, flags: libc::c_int) -> bool {
        if self.exit.is_some() {
            return true;
        }
        let mut status = 0;
        // SAFETY: rusage is plain data; wait4 on our own child.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        let r = unsafe { libc::wait4(self.pid, &mut status, flags, &mut usage) };
        if r == self.pid {
            let tv = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
            let mut info = ExitInfo {
                cpu_s: tv(usage.ru_utime) + tv(usage.ru_stime),
                ..ExitInfo::default()
            };
            if libc::WIFEXITED(status) {
                info.code = Some(libc::WEXITSTATUS(status));
            } else if libc::WIFSIGNALED(status) {
                info.signal = Some(libc::WTERMSIG(status));
            }
            self.exit = Some(info);
            true
        } else {
            r < 0 && io::Error::last_os_error().raw_os_error() == Some(libc::ECHILD)
        }
    }

    /// Waits for the solver to exit until `deadline`, draining its stdout.
    /// Returns true once it is reaped; false on deadline or on a signal
    /// (recorded in [`Self::late_signal`]).
    fn wait_until(&mut self, deadline: Instant, signals: &SignalPipe) -> bool {
        loop {
            if self.try_reap(libc::WNOHANG) {
                return true;
            }
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return false;
            }
            let out_fd = self.stdout.as_ref().map_or(-1, AsRawFd::as_raw_fd);
            let step = if out_fd >= 0 {
                left.min(Duration::from_millis(50))
            } else {
                left.min(Duration::from_millis(2))
            };
            let mut fds = [
                pollfd(out_fd, libc::POLLIN),
                pollfd(signals.fd(), libc::POLLIN),
            ];
            // SAFETY: fds is a valid array of pollfd.
            unsafe { libc::poll(fds.as_mut_ptr(), 2, step.as_millis().max(1) as i32) };
            if fds[1].revents != 0 {
                if let Some(sig) = signals.pending() {
                    if self.late_signal.is_none() {
                        // First notice of a signal: cut the wait short.
                        self.late_signal = Some(sig);
                        return false;
                    }
                }
            }
            if fds[0].revents != 0 {
                self.drain();
            }
        }
    }

    /// Reads and discards whatever the solver wrote.
    fn drain(&mut self) {
        if let Some(stdout) = self.stdout.as_mut() {
            match stdout.read(&mut self.rbuf) {
                Ok(0) => self.close_stdout(),
                Ok(_) => {}
                Err(e)
                    if matches!(
                        e.kind(),
                        io::ErrorKind::WouldBlock | io::ErrorKind::Interrupted
                    ) => {}
                Err(_) => self.close_stdout(),
            }
        }
    }

    fn kill_group(&self, sig: libc::c_int) {
        // SAFETY: signalling the solver's own process group.
        unsafe {
            libc::kill(-self.pid, sig);
        }
    }

    /// The shutdown sequence: optionally send `(exit)`, close stdin, wait up
    /// to `grace`, SIGTERM the group, wait [`TERM_TO_KILL`], SIGKILL it, reap,
    /// and finally SIGKILL any stray member of the group.
    pub fn shutdown(&mut self, send_exit: bool, grace: Duration, signals: &SignalPipe) -> ExitInfo {
        let now = Instant::now();
        let deadline = now.checked_add(grace).unwrap_or(now + MAX_GRACE);
        if send_exit {
            let ctl = Control {
                signals,
                deadline: Some(deadline),
            };
            if let Err(Interrupt::Signal(sig)) = self.send(b"(exit)\n", &ctl) {
                self.late_signal.get_or_insert(sig);
            }
        }
        self.stdin = None;
        let grace_deadline = if self.late_signal.is_some() {
            Instant::now()
        } else {
            deadline
        };
        self.stop(grace_deadline, signals)
    }

    /// Stops the solver at once (signal and watchdog paths): SIGTERM, wait
    /// [`TERM_TO_KILL`], SIGKILL, reap.
    pub fn terminate(&mut self, signals: &SignalPipe) -> ExitInfo {
        self.stdin = None;
        self.stop(Instant::now(), signals)
    }

    fn stop(&mut self, grace_deadline: Instant, signals: &SignalPipe) -> ExitInfo {
        let mut sent_term = false;
        let mut sent_kill = false;
        if !self.wait_until(grace_deadline, signals) {
            self.kill_group(libc::SIGTERM);
            sent_term = true;
            if !self.wait_until(Instant::now() + TERM_TO_KILL, signals) {
                self.kill_group(libc::SIGKILL);
                sent_kill = true;
                self.try_reap(0);
            }
        }
        // Descendants left in the group (portfolio scripts) go too.
        self.kill_group(libc::SIGKILL);
        self.close_stdout();
        if let Some(copier) = self.stderr_copier.take() {
            let until = Instant::now() + Duration::from_millis(500);
            while !copier.is_finished() && Instant::now() < until {
                std::thread::sleep(Duration::from_millis(2));
            }
            if copier.is_finished() {
                let _ = copier.join();
            }
        }
        let mut info = self.exit.unwrap_or_default();
        info.sent_term = sent_term;
        info.sent_kill = sent_kill;
        info
    }
}

/// A second, blocking open file description of the solver's stdout pipe,
/// armed in [`signals`] while it exists (disarmed before it is closed).
struct BlockingReader {
    fd: OwnedFd,
}

impl BlockingReader {
    /// Opens `/proc/self/fd/STDOUT` (non-blocking, so that the open never
    /// waits for a writer, then switched to blocking) and checks that it is
    /// the same pipe. None if `/proc` is not available: polling only.
    fn open(stdout: RawFd) -> Option<BlockingReader> {
        let path = std::ffi::CString::new(format!("/proc/self/fd/{stdout}")).ok()?;
        // SAFETY: open(2) of a NUL-terminated path; the result is ours.
        let raw = unsafe {
            libc::open(
                path.as_ptr(),
                libc::O_RDONLY | libc::O_NONBLOCK | libc::O_CLOEXEC,
            )
        };
        if raw < 0 {
            return None;
        }
        // SAFETY: a fresh descriptor we now own.
        let fd = unsafe { OwnedFd::from_raw_fd(raw) };
        let same_pipe = |a: RawFd, b: RawFd| {
            // SAFETY: fstat into plain data on our own descriptors.
            unsafe {
                let mut x: libc::stat = std::mem::zeroed();
                let mut y: libc::stat = std::mem::zeroed();
                libc::fstat(a, &mut x) == 0
                    && libc::fstat(b, &mut y) == 0
                    && (x.st_dev, x.st_ino) == (y.st_dev, y.st_ino)
                    && x.st_mode & libc::S_IFMT == libc::S_IFIFO
            }
        };
        // SAFETY: fcntl on our own descriptor.
        let blocking = unsafe {
            let flags = libc::fcntl(raw, libc::F_GETFL);
            flags >= 0 && libc::fcntl(raw, libc::F_SETFL, flags & !libc::O_NONBLOCK) == 0
        };
        if !blocking || !same_pipe(raw, stdout) {
            return None;
        }
        signals::arm_fast_read(raw);
        Some(BlockingReader { fd })
    }
}

impl Drop for BlockingReader {
    fn drop(&mut self) {
        // Disarm first: a handler must never touch a reused number.
        signals::disarm_fast_read();
    }
}

fn pollfd(fd: RawFd, events: libc::c_short) -> libc::pollfd {
    libc::pollfd {
        fd,
        events,
        revents: 0,
    }
}

/// Copies `src` to `dst` up to `limit` bytes, then drains the rest.
fn copy_capped(mut src: impl Read, mut dst: File, limit: u64) {
    let mut buf = vec![0u8; 64 * 1024];
    let mut written = 0u64;
    loop {
        match src.read(&mut buf) {
            Ok(0) => return,
            Ok(n) => {
                let room = limit.saturating_sub(written).min(n as u64) as usize;
                if room > 0 && dst.write_all(&buf[..room]).is_ok() {
                    written += room as u64;
                }
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(_) => return,
        }
    }
}
