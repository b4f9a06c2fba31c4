//! Streaming child output without holding it in memory: to a file with an
//! optional byte cap (the rest is drained and discarded, never padded), or
//! straight to the wrapper's stdout. Also the gzip compression of the proof.

use std::fs::File;
use std::io::{Read, Write};
use std::os::fd::{AsRawFd, OwnedFd};
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

const CHUNK: usize = 64 * 1024;
/// How long a reader waits for data in one `poll` call.
const POLL_MS: i32 = 50;
/// After [`Pump::finish`] is called, the longest a reader keeps draining a pipe
/// that some escaped process still writes to.
const LINGER: Duration = Duration::from_secs(1);

/// Where a stream goes.
pub enum Sink {
    /// A file holding at most `cap` bytes (all bytes if `None`). When the cap is
    /// reached, `on_cap` (if any) is raised so the supervisor can stop the writer.
    File {
        /// The destination, opened for writing.
        file: File,
        /// Maximum number of bytes kept.
        cap: Option<u64>,
        /// Raised once the cap is exceeded.
        on_cap: Option<Arc<AtomicBool>>,
    },
    /// The wrapper's stdout, flushed after every chunk, unchanged.
    Stdout,
}

/// What a finished pump observed.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PumpResult {
    /// Bytes stored in the sink.
    pub written: u64,
    /// True if more bytes arrived than the cap allowed.
    pub truncated: bool,
    /// The last byte stored, to know whether the output ended with a newline.
    pub last_byte: Option<u8>,
    /// The first write error, if the sink failed (the pipe is still drained).
    pub error: Option<String>,
}

/// A background thread copying one child stream into a [`Sink`].
pub struct Pump {
    handle: JoinHandle<PumpResult>,
    stop: Arc<AtomicBool>,
}

impl Pump {
    /// Starts copying `source` (a pipe read end) into `sink`.
    pub fn start(source: impl Into<OwnedFd>, sink: Sink) -> Pump {
        let source: OwnedFd = source.into();
        let stop = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&stop);
        let handle = std::thread::spawn(move || pump(source, sink, &flag));
        Pump { handle, stop }
    }

    /// Call once the writer's process group is dead: reads what is left in the
    /// pipe (until EOF, or until no data came for a moment, or for at most about
    /// a second if an escaped process keeps writing) and returns the result.
    pub fn finish(self) -> PumpResult {
        self.stop.store(true, Ordering::SeqCst);
        self.handle.join().unwrap_or_else(|_| PumpResult {
            error: Some("output reader thread panicked".into()),
            ..PumpResult::default()
        })
    }
}

fn pump(source: OwnedFd, mut sink: Sink, stop: &AtomicBool) -> PumpResult {
    let mut reader = File::from(source);
    let fd = reader.as_raw_fd();
    let mut result = PumpResult::default();
    let mut buf = vec![0u8; CHUNK];
    let mut stop_seen: Option<Instant> = None;
    loop {
        if stop.load(Ordering::SeqCst) {
            let since = *stop_seen.get_or_insert_with(Instant::now);
            if since.elapsed() >= LINGER {
                break;
            }
        }
        let mut pfd = libc::pollfd {
            fd,
            events: libc::POLLIN,
            revents: 0,
        };
        // SAFETY: one valid pollfd for a descriptor we own.
        let ready = unsafe { libc::poll(&mut pfd, 1, POLL_MS) };
        if ready == 0 {
            if stop_seen.is_some() {
                break; // writer gone and nothing more came
            }
            continue;
        }
        if ready < 0 {
            continue; // EINTR
        }
        let n = match reader.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => {
                result.error.get_or_insert(e.to_string());
                break;
            }
        };
        store(&mut sink, &buf[..n], &mut result);
    }
    if let Sink::File { file, .. } = &mut sink {
        if let Err(e) = file.flush() {
            result.error.get_or_insert(e.to_string());
        }
    }
    result
}

fn store(sink: &mut Sink, data: &[u8], result: &mut PumpResult) {
    let keep = match sink {
        Sink::File { cap: Some(cap), .. } => {
            let room = cap.saturating_sub(result.written);
            data.len().min(usize::try_from(room).unwrap_or(usize::MAX))
        }
        _ => data.len(),
    };
    if keep < data.len() && !result.truncated {
        result.truncated = true;
        if let Sink::File {
            on_cap: Some(flag), ..
        } = sink
        {
            flag.store(true, Ordering::SeqCst);
        }
    }
    let data = &data[..keep];
    if data.is_empty() || result.error.is_some() {
        return; // capped or broken sink: drain and discard
    }
    let outcome = match sink {
        Sink::File { file, .. } => file.write_all(data),
        Sink::Stdout => {
            let mut out = std::io::stdout().lock();
            out.write_all(data).and_then(|()| out.flush())
        }
    };
    match outcome {
        Ok(()) => {
            result.written += data.len() as u64;
            result.last_byte = data.last().copied();
        }
        Err(e) => result.error = Some(e.to_string()),
    }
}

/// Gzips at most `limit` bytes of `src` into `dst` in a streaming fashion and
/// returns the compressed size. `cancelled` is polled between chunks; when it returns true the
/// partial `dst` is removed and an `Interrupted` error returned. On any error
/// `dst` is removed.
pub fn gzip_file(
    src: &Path,
    dst: &Path,
    limit: u64,
    cancelled: &dyn Fn() -> bool,
) -> std::io::Result<u64> {
    let result = (|| {
        use std::os::unix::fs::OpenOptionsExt;
        // Never through a symbolic link: neither the proof read nor the `.gz` written.
        let mut input = std::fs::OpenOptions::new()
            .read(true)
            .custom_flags(libc::O_NOFOLLOW)
            .open(src)?
            .take(limit);
        match std::fs::symlink_metadata(dst) {
            Ok(m) if !m.is_dir() => std::fs::remove_file(dst)?,
            _ => {}
        }
        let out = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .custom_flags(libc::O_NOFOLLOW)
            .open(dst)?;
        let mut encoder = flate2::write::GzEncoder::new(out, flate2::Compression::default());
        let mut buf = vec![0u8; CHUNK];
        loop {
            if cancelled() {
                return Err(std::io::Error::new(
                    std::io::ErrorKind::Interrupted,
                    "compression interrupted by a signal",
                ));
            }
            let n = match input.read(&mut buf) {
                Ok(0) => break,
                Ok(n) => n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            encoder.write_all(&buf[..n])?;
        }
        let out = encoder.finish()?;
        out.sync_all().ok();
        Ok(out.metadata()?.len())
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(dst);
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pipe_with(data: &[u8]) -> OwnedFd {
        use std::os::fd::FromRawFd;
        let mut fds = [0; 2];
        // SAFETY: pipe(2) fills two fresh descriptors that we then own.
        assert_eq!(unsafe { libc::pipe(fds.as_mut_ptr()) }, 0);
        let reader = unsafe { OwnedFd::from_raw_fd(fds[0]) };
        let mut writer = File::from(unsafe { OwnedFd::from_raw_fd(fds[1]) });
        let data = data.to_vec();
        std::thread::spawn(move || {
            let _ = writer.write_all(&data);
        });
        reader
    }

    #[test]
    fn capped_file_keeps_prefix_raises_flag_and_drains() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("log");
        let flag = Arc::new(AtomicBool::new(false));
        let data: Vec<u8> = (0..300_000u32).map(|i| (i % 251) as u8).collect();
        let pump = Pump::start(
            pipe_with(&data),
            Sink::File {
                file: File::create(&path).unwrap(),
                cap: Some(100_000),
                on_cap: Some(Arc::clone(&flag)),
            },
        );
        // The writer finishes on its own (the rest is drained), so EOF comes.
        std::thread::sleep(Duration::from_millis(200));
        let result = pump.finish();
        assert!(result.truncated);
        assert_eq!(result.written, 100_000);
        assert!(flag.load(Ordering::SeqCst));
        assert_eq!(std::fs::read(&path).unwrap(), &data[..100_000]);
    }

    #[test]
    fn uncapped_file_gets_everything() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out");
        let pump = Pump::start(
            pipe_with(b"unsat\n(proof)"),
            Sink::File {
                file: File::create(&path).unwrap(),
                cap: None,
                on_cap: None,
            },
        );
        let result = pump.finish();
        assert!(!result.truncated);
        assert_eq!(result.last_byte, Some(b')'));
        assert_eq!(std::fs::read(&path).unwrap(), b"unsat\n(proof)");
    }

    #[test]
    fn gzip_round_trips_and_cancels() {
        let dir = tempfile::tempdir().unwrap();
        let src = dir.path().join("p");
        let dst = dir.path().join("p.gz");
        std::fs::write(&src, "step\n".repeat(10_000)).unwrap();
        let size = gzip_file(&src, &dst, u64::MAX, &|| false).unwrap();
        assert_eq!(size, std::fs::metadata(&dst).unwrap().len());
        let mut text = String::new();
        flate2::read::GzDecoder::new(File::open(&dst).unwrap())
            .read_to_string(&mut text)
            .unwrap();
        assert_eq!(text, "step\n".repeat(10_000));
        let err = gzip_file(&src, &dst, u64::MAX, &|| true).unwrap_err();
        assert_eq!(err.kind(), std::io::ErrorKind::Interrupted);
        assert!(!dst.exists());
        let err = gzip_file(&dir.path().join("missing"), &dst, u64::MAX, &|| false).unwrap_err();
        assert_eq!(err.kind(), std::io::ErrorKind::NotFound);
    }

    #[test]
    fn gzip_of_an_endless_file_stops_at_the_limit() {
        let dir = tempfile::tempdir().unwrap();
        let dst = dir.path().join("z.gz");
        gzip_file(Path::new("/dev/zero"), &dst, 1000, &|| false).unwrap();
        let mut bytes = Vec::new();
        flate2::read::GzDecoder::new(File::open(&dst).unwrap())
            .read_to_end(&mut bytes)
            .unwrap();
        assert_eq!(bytes, vec![0u8; 1000]);
    }

    /// The compressed size is a reported statistic (`compressedsize`): it must
    /// not depend on which build of the wrapper ran (a standalone static build
    /// and the workspace build once differed: 157 vs 158 bytes for this proof).
    #[test]
    fn the_compressed_size_of_a_proof_is_the_same_in_every_build() {
        // cvc5's whole output on a small QF_UF benchmark (the demo's proof run).
        let proof = "unsat\n(\n(let ((_let_1 (not (= x (ite true x y))))) (let ((_let_2 (_let_1))) \
(SCOPE (EQ_RESOLVE (ASSUME :args _let_2) (MACRO_SR_EQ_INTRO :args (_let_1 SB_DEFAULT \
SBA_FIXPOINT))) :args _let_2)))\n)\n";
        assert_eq!(proof.len(), 195);
        let dir = tempfile::tempdir().unwrap();
        let (src, dst) = (
            dir.path().join("proof.txt"),
            dir.path().join("proof.txt.gz"),
        );
        std::fs::write(&src, proof).unwrap();
        let size = gzip_file(&src, &dst, u64::MAX, &|| false).unwrap();
        assert_eq!(size, 158);
    }
}
