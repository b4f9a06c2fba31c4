//! Downloading an archive to a file (http and https with `ureq` and rustls,
//! `file://` for local archives and tests), hashing it on the way, within the
//! download cap and the timeout.

use super::{Archive, ArchiveError, Limits};
use sha2::{Digest, Sha256, Sha512};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The hashes of a downloaded file.
#[derive(Debug, Clone)]
pub(super) struct Downloaded {
    /// Hex SHA-256.
    pub sha256: String,
    /// Hex SHA-512.
    pub sha512: String,
}

/// Copies the archive at `url` into `to` (created), at most
/// `limits.max_download_bytes` bytes.
pub(super) fn fetch(url: &str, to: &Path, limits: &Limits) -> Result<Downloaded, ArchiveError> {
    let failed = |reason: String| ArchiveError::Download {
        url: url.to_string(),
        reason,
    };
    let scheme = url.split_once("://").map(|(s, _)| s.to_ascii_lowercase());
    let reader: Box<dyn Read> = match scheme.as_deref() {
        Some("file") => {
            let path = file_url_path(url).map_err(failed)?;
            let f = std::fs::File::open(&path)
                .map_err(|e| failed(format!("{}: {e}", path.display())))?;
            Box::new(f)
        }
        Some("http" | "https") => {
            let agent: ureq::Agent = ureq::Agent::config_builder()
                .timeout_global(Some(limits.timeout))
                .timeout_connect(Some(limits.timeout.min(Duration::from_secs(60))))
                .http_status_as_error(true)
                .build()
                .into();
            let resp = agent.get(url).call().map_err(|e| failed(e.to_string()))?;
            let declared = resp
                .headers()
                .get("content-length")
                .and_then(|v| v.to_str().ok())
                .and_then(|v| v.trim().parse::<u64>().ok());
            if declared.is_some_and(|n| n > limits.max_download_bytes) {
                return Err(ArchiveError::DownloadTooLarge {
                    url: url.to_string(),
                    cap: limits.max_download_bytes,
                });
            }
            Box::new(resp.into_body().into_reader())
        }
        _ => {
            return Err(failed(
                "only http://, https:// and file:// URLs can be fetched".to_string(),
            ));
        }
    };
    let mut out = std::fs::File::create(to).map_err(|e| ArchiveError::io(to, e))?;
    let mut sha256 = Sha256::new();
    let mut sha512 = Sha512::new();
    let mut total: u64 = 0;
    let mut limited = reader.take(limits.max_download_bytes.saturating_add(1));
    let mut buf = vec![0u8; 1 << 16];
    loop {
        let n = match limited.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(failed(e.to_string())),
        };
        total += n as u64;
        if total > limits.max_download_bytes {
            return Err(ArchiveError::DownloadTooLarge {
                url: url.to_string(),
                cap: limits.max_download_bytes,
            });
        }
        sha256.update(&buf[..n]);
        sha512.update(&buf[..n]);
        out.write_all(&buf[..n])
            .map_err(|e| ArchiveError::io(to, e))?;
    }
    out.flush().map_err(|e| ArchiveError::io(to, e))?;
    Ok(Downloaded {
        sha256: hex(&sha256.finalize()),
        sha512: hex(&sha512.finalize()),
    })
}

/// Fails unless every hash `archive` gives matches the download.
pub(super) fn check_hashes(archive: &Archive, got: &Downloaded) -> Result<(), ArchiveError> {
    let pairs = [
        ("sha256", &archive.sha256, &got.sha256),
        ("sha512", &archive.sha512, &got.sha512),
    ];
    for (algorithm, expected, actual) in pairs {
        if let Some(e) = expected
            && !e.eq_ignore_ascii_case(actual)
        {
            return Err(ArchiveError::Hash {
                url: archive.url.clone(),
                algorithm,
                expected: e.to_ascii_lowercase(),
                actual: actual.clone(),
            });
        }
    }
    Ok(())
}

/// The local path of a `file:` URL: `file:///abs/path` or `file://localhost/abs/path`,
/// with `%XX` escapes decoded.
fn file_url_path(url: &str) -> Result<PathBuf, String> {
    let rest = &url["file://".len()..];
    let rest = rest.strip_prefix("localhost").unwrap_or(rest);
    if !rest.starts_with('/') {
        return Err("a file:// URL needs an absolute path (file:///path)".to_string());
    }
    let bytes = rest.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let h = bytes
                .get(i + 1..i + 3)
                .and_then(|h| std::str::from_utf8(h).ok())
                .and_then(|h| u8::from_str_radix(h, 16).ok())
                .ok_or_else(|| format!("bad %-escape at byte {i}"))?;
            out.push(h);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    use std::os::unix::ffi::OsStringExt;
    Ok(PathBuf::from(std::ffi::OsString::from_vec(out)))
}

/// Lower-case hex.
fn hex(bytes: &[u8]) -> String {
    use std::fmt::Write as _;
    let mut s = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        let _ = write!(s, "{b:02x}");
    }
    s
}

#[cfg(test)]
mod tests {
    use super::file_url_path;
    use std::path::PathBuf;

    #[test]
    fn file_urls() {
        assert_eq!(
            file_url_path("file:///a/b%20c.zip").unwrap(),
            PathBuf::from("/a/b c.zip")
        );
        assert_eq!(
            file_url_path("file://localhost/x").unwrap(),
            PathBuf::from("/x")
        );
        assert!(file_url_path("file://host/x").is_err());
        assert!(file_url_path("file:///x%zz").is_err());
    }
}
