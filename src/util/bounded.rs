//! Reading an input file with a size cap: a device (`/dev/zero`), a FIFO or a
//! huge file given where a small text file belongs is refused after `cap`
//! bytes instead of being read until memory runs out.

use std::io::Read;
use std::path::Path;

/// The whole of `path`, refusing it (an error naming the cap) when it holds
/// more than `cap` bytes. Reads at most `cap + 1` bytes.
pub fn read_capped(path: &Path, cap: u64) -> std::io::Result<Vec<u8>> {
    let f = std::fs::File::open(path)?;
    let mut bytes = Vec::new();
    f.take(cap.saturating_add(1)).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > cap {
        return Err(std::io::Error::other(format!(
            "larger than {cap} bytes: not a file of this kind (a device or the wrong file?)"
        )));
    }
    Ok(bytes)
}

/// The last `max` bytes of `path` (a log a program wrote: untrusted, maybe
/// huge), as text (invalid UTF-8 replaced); `None` when it cannot be read.
pub fn read_tail(path: &Path, max: u64) -> Option<String> {
    use std::io::{Seek, SeekFrom};
    let mut f = std::fs::File::open(path).ok()?;
    let len = f.metadata().ok()?.len();
    f.seek(SeekFrom::Start(len.saturating_sub(max))).ok()?;
    let mut bytes = Vec::new();
    f.take(max).read_to_end(&mut bytes).ok()?;
    Some(String::from_utf8_lossy(&bytes).into_owned())
}

/// [`read_capped`] as UTF-8 text.
pub fn read_text_capped(path: &Path, cap: u64) -> std::io::Result<String> {
    String::from_utf8(read_capped(path, cap)?).map_err(|e| {
        std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!(
                "not UTF-8 text (invalid byte at offset {})",
                e.utf8_error().valid_up_to()
            ),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dev_zero_is_refused_at_the_cap_and_small_files_are_read() {
        let err = read_capped(Path::new("/dev/zero"), 1000).unwrap_err();
        assert!(
            err.to_string().starts_with("larger than 1000 bytes"),
            "{err}"
        );
        let d = tempfile::tempdir().unwrap();
        let f = d.path().join("f");
        std::fs::write(&f, "abc").unwrap();
        assert_eq!(read_text_capped(&f, 3).unwrap(), "abc");
        assert!(read_text_capped(&f, 2).is_err());
        std::fs::write(&f, [0xff, 0xfe]).unwrap();
        assert!(
            read_text_capped(&f, 10)
                .unwrap_err()
                .to_string()
                .contains("not UTF-8")
        );
    }
}
