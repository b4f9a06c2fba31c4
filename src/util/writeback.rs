//! Starting the write-back of a large output while it is still being written.
//!
//! A file written in one go and then renamed over an existing one (the
//! atomic replacement of `formats::datafile::write_replacing`) has all its
//! data handed to the disk at the `rename`: ext4 flushes a file renamed over
//! another (`auto_da_alloc`), and the `rename` waits while tens of megabytes
//! are queued (68 MB for a 2025 Single Query selection). [`with_write_behind`]
//! asks the kernel to start writing each finished stretch of the file
//! (`sync_file_range(SYNC_FILE_RANGE_WRITE)`, which neither waits for the disk
//! nor changes what is written) from a helper thread while the rest is still
//! being produced, so that little is left to hand over at the `rename`.

use std::fs::File;
use std::io::{self, Write};
use std::sync::mpsc;

/// The stretch handed to the helper thread at a time.
pub const CHUNK: u64 = 8 << 20;

/// A writer to a file that has the kernel start writing back every
/// [`CHUNK`] written (see [`with_write_behind`]).
pub struct WriteBehind<'f> {
    file: &'f File,
    written: u64,
    started: u64,
    tx: mpsc::Sender<(u64, u64)>,
}

impl Write for WriteBehind<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = self.file.write(buf)?;
        self.written += n as u64;
        if self.written - self.started >= CHUNK {
            // The helper may be gone only if it panicked: then nothing is
            // started early, and the data is written as without it.
            let _ = self.tx.send((self.started, self.written - self.started));
            self.started = self.written;
        }
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.file.flush()
    }
}

/// Calls `f` with a writer to `file` (from its current position, normally
/// its start) that starts the write-back of each [`CHUNK`] written on a
/// helper thread; returns when `f` has returned and the helper has handed
/// its last stretch to the kernel. What is written is exactly what `f`
/// writes; errors of the early write-back are ignored (it is only a hint:
/// the data stays in the page cache and is written back as usual).
pub fn with_write_behind<R>(
    file: &File,
    f: impl FnOnce(&mut WriteBehind<'_>) -> io::Result<R>,
) -> io::Result<R> {
    let (tx, rx) = mpsc::channel::<(u64, u64)>();
    std::thread::scope(|scope| {
        scope.spawn(move || {
            for (offset, len) in rx {
                start_writeback(file, offset, len);
            }
        });
        let mut w = WriteBehind {
            file,
            written: 0,
            started: 0,
            tx,
        };
        f(&mut w)
        // `w` (the sender) is dropped here: the helper ends after its last
        // stretch, and the scope waits for it.
    })
}

/// `sync_file_range(SYNC_FILE_RANGE_WRITE)` of the stretch (Linux; errors,
/// e.g. on a pipe, ignored).
fn start_writeback(file: &File, offset: u64, len: u64) {
    #[cfg(target_os = "linux")]
    {
        use std::os::fd::AsRawFd;
        let (Ok(offset), Ok(len)) = (i64::try_from(offset), i64::try_from(len)) else {
            return;
        };
        // SAFETY: sync_file_range(2) on an open descriptor borrowed for the
        // call; it reads no memory of ours and does not change the file.
        unsafe {
            libc::sync_file_range(file.as_raw_fd(), offset, len, libc::SYNC_FILE_RANGE_WRITE);
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (file, offset, len);
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;

    /// The file holds exactly what was written, across several chunks and
    /// writes of every size, and `f`'s result comes back.
    #[test]
    fn the_file_holds_what_was_written() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out");
        let file = File::create(&path).unwrap();
        let want: Vec<u8> = (0..(2 * CHUNK + 12_345)).map(|i| (i % 253) as u8).collect();
        let got = with_write_behind(&file, |w| {
            let mut at = 0;
            for size in [1usize, 4096, 1 << 20, 3 << 20].iter().cycle() {
                if at == want.len() {
                    break;
                }
                let end = (at + size).min(want.len());
                w.write_all(&want[at..end])?;
                at = end;
            }
            w.flush()?;
            Ok(42)
        })
        .unwrap();
        assert_eq!(got, 42);
        let mut back = Vec::new();
        File::open(&path).unwrap().read_to_end(&mut back).unwrap();
        assert!(back == want, "contents differ");
    }

    /// An error of `f` is returned as is.
    #[test]
    fn errors_of_the_writer_come_back() {
        let dir = tempfile::tempdir().unwrap();
        let file = File::create(dir.path().join("out")).unwrap();
        let err = with_write_behind(&file, |_| -> io::Result<()> {
            Err(io::Error::other("boom"))
        })
        .unwrap_err();
        assert_eq!(err.to_string(), "boom");
    }
}
