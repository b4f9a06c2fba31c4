//! Safe unpacking of zip and tar (plain, gzip, xz, bzip2) archives into a new
//! directory: the rules are listed in the module documentation of
//! [`super`]. Every refusal names the archive (URL) and the member.

use super::manifest::MANIFEST_FILE;
use super::{ArchiveError, Limits};
use std::collections::BTreeSet;
use std::fs::{self, File};
use std::io::{BufReader, Read, Seek, SeekFrom, Write};
use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
use std::path::{Component, Path, PathBuf};

/// What was unpacked.
#[derive(Debug, Clone)]
pub(super) struct Listing {
    /// Regular files and links, relative to the tree, sorted.
    pub files: Vec<String>,
    /// Bytes of regular files written.
    pub bytes: u64,
}

/// The container formats recognised (by their first bytes).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Format {
    Zip,
    Gzip,
    Xz,
    Bzip2,
    Tar,
}

/// Unpacks `file` (downloaded from `url`) into the new directory `tree`.
pub(super) fn unpack(
    url: &str,
    file: &Path,
    tree: &Path,
    limits: &Limits,
) -> Result<Listing, ArchiveError> {
    let mut f = File::open(file).map_err(|e| ArchiveError::io(file, e))?;
    let format = detect(url, &mut f, file)?;
    fs::create_dir(tree).map_err(|e| ArchiveError::io(tree, e))?;
    let mut w = Writer {
        url,
        root: tree,
        limits,
        members: 0,
        bytes: 0,
        files: BTreeSet::new(),
    };
    // A tar stream holds its members plus 512-byte headers and padding.
    let stream_cap = limits
        .max_unpacked_bytes
        .saturating_add(1024u64.saturating_mul(limits.max_members as u64 + 2));
    match format {
        Format::Zip => unzip(&mut w, f)?,
        Format::Tar => untar(&mut w, Capped::new(BufReader::new(f), stream_cap))?,
        Format::Gzip => untar(
            &mut w,
            Capped::new(
                flate2::read::MultiGzDecoder::new(BufReader::new(f)),
                stream_cap,
            ),
        )?,
        Format::Bzip2 => untar(
            &mut w,
            Capped::new(
                bzip2::read::MultiBzDecoder::new(BufReader::new(f)),
                stream_cap,
            ),
        )?,
        Format::Xz => {
            // lzma-rs decompresses into a writer: the tar stream goes to a file
            // beside the tree (in the staging directory), within the cap.
            let tar_path = tree.with_extension("tar");
            let out = File::create(&tar_path).map_err(|e| ArchiveError::io(&tar_path, e))?;
            let mut capped = CappedWriter {
                inner: std::io::BufWriter::new(out),
                left: stream_cap,
            };
            if let Err(e) = lzma_rs::xz_decompress(&mut BufReader::new(f), &mut capped) {
                return Err(if capped.left == 0 {
                    cap_error(url, "(xz stream)", stream_cap)
                } else {
                    ArchiveError::Format {
                        url: url.to_string(),
                        reason: format!("not a valid xz stream: {e}"),
                    }
                });
            }
            capped
                .inner
                .flush()
                .map_err(|e| ArchiveError::io(&tar_path, e))?;
            drop(capped);
            let t = File::open(&tar_path).map_err(|e| ArchiveError::io(&tar_path, e))?;
            untar(&mut w, Capped::new(BufReader::new(t), stream_cap))?;
            let _ = fs::remove_file(&tar_path);
        }
    }
    Ok(Listing {
        files: w.files.into_iter().collect(),
        bytes: w.bytes,
    })
}

/// The format of `f` from its first bytes.
fn detect(url: &str, f: &mut File, path: &Path) -> Result<Format, ArchiveError> {
    let mut head = [0u8; 512];
    let mut n = 0;
    while n < head.len() {
        match f.read(&mut head[n..]) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) => return Err(ArchiveError::io(path, e)),
        }
    }
    f.seek(SeekFrom::Start(0))
        .map_err(|e| ArchiveError::io(path, e))?;
    let h = &head[..n];
    let format = if h.starts_with(b"PK\x03\x04") || h.starts_with(b"PK\x05\x06") {
        Format::Zip
    } else if h.starts_with(&[0x1f, 0x8b]) {
        Format::Gzip
    } else if h.starts_with(&[0xfd, b'7', b'z', b'X', b'Z', 0]) {
        Format::Xz
    } else if h.starts_with(b"BZh") {
        Format::Bzip2
    } else if n >= 262 && &h[257..262] == b"ustar" {
        Format::Tar
    } else {
        let first: Vec<String> = h.iter().take(8).map(|b| format!("{b:02x}")).collect();
        return Err(ArchiveError::Format {
            url: url.to_string(),
            reason: format!(
                "not a zip, tar.gz, tar.xz, tar.bz2 or tar archive (first bytes: {})",
                first.join(" ")
            ),
        });
    };
    Ok(format)
}

fn cap_error(url: &str, member: &str, cap: u64) -> ArchiveError {
    ArchiveError::Cap {
        url: url.to_string(),
        member: member.to_string(),
        reason: format!("the unpacked content exceeds the cap of {cap} bytes"),
    }
}

fn unzip(w: &mut Writer<'_>, f: File) -> Result<(), ArchiveError> {
    let mut zip = zip::ZipArchive::new(BufReader::new(f)).map_err(|e| ArchiveError::Format {
        url: w.url.to_string(),
        reason: format!("not a valid zip archive: {e}"),
    })?;
    for i in 0..zip.len() {
        let mut entry = zip.by_index(i).map_err(|e| ArchiveError::Format {
            url: w.url.to_string(),
            reason: format!("zip member {i}: {e}"),
        })?;
        let raw = entry
            .name()
            .map_err(|e| ArchiveError::Format {
                url: w.url.to_string(),
                reason: format!("zip member {i}: {e}"),
            })?
            .into_owned();
        let Some(rel) = w.member(&raw)? else {
            continue;
        };
        if entry.is_dir() {
            w.dir(&raw, &rel)?;
        } else if entry.is_symlink() {
            let mut target = Vec::new();
            (&mut entry)
                .take(4096)
                .read_to_end(&mut target)
                .map_err(|e| w.format(&raw, e))?;
            let target = String::from_utf8(target)
                .map_err(|_| w.unsafe_member(&raw, "symbolic link target is not UTF-8"))?;
            w.symlink(&raw, &rel, &target)?;
        } else {
            let mode = entry.unix_mode().unwrap_or(0o644);
            w.file(&raw, &rel, &mut entry, mode)?;
        }
    }
    Ok(())
}

fn untar<R: Read>(w: &mut Writer<'_>, reader: Capped<R>) -> Result<(), ArchiveError> {
    let url = w.url.to_string();
    let bad = |e: std::io::Error| match e.get_ref().and_then(|x| x.downcast_ref::<CapHit>()) {
        Some(CapHit(cap)) => cap_error(&url, "(tar stream)", *cap),
        None => ArchiveError::Format {
            url: url.clone(),
            reason: format!("not a valid tar archive: {e}"),
        },
    };
    let mut ar = tar::Archive::new(reader);
    for entry in ar.entries().map_err(bad)? {
        let mut entry = entry.map_err(bad)?;
        let raw = String::from_utf8(entry.path_bytes().into_owned()).map_err(|e| {
            w.unsafe_member(
                &String::from_utf8_lossy(e.as_bytes()),
                "member name is not UTF-8",
            )
        })?;
        let kind = entry.header().entry_type();
        use tar::EntryType as T;
        if matches!(
            kind,
            T::XGlobalHeader | T::XHeader | T::GNULongName | T::GNULongLink
        ) {
            continue;
        }
        let Some(rel) = w.member(&raw)? else {
            continue;
        };
        let link_bytes = entry_link(&entry);
        match kind {
            T::Directory => w.dir(&raw, &rel)?,
            T::Symlink => {
                let target = link_text(w, &raw, link_bytes)?;
                w.symlink(&raw, &rel, &target)?
            }
            T::Link => {
                let target = link_text(w, &raw, link_bytes)?;
                w.hardlink(&raw, &rel, &target)?
            }
            T::Regular | T::Continuous | T::GNUSparse => {
                let mode = entry.header().mode().unwrap_or(0o644);
                match w.file(&raw, &rel, &mut entry, mode) {
                    Err(ArchiveError::Format { reason, .. }) if reason.contains(CAP_HIT) => {
                        return Err(cap_error(&url, &raw, w.limits.max_unpacked_bytes));
                    }
                    r => r?,
                }
            }
            other => {
                return Err(w.unsafe_member(
                    &raw,
                    &format!("member type {other:?} (device, FIFO, ...) is refused"),
                ));
            }
        }
    }
    Ok(())
}

/// A link member's target as text.
fn link_text(w: &Writer<'_>, raw: &str, bytes: Option<Vec<u8>>) -> Result<String, ArchiveError> {
    let bytes = bytes.ok_or_else(|| w.unsafe_member(raw, "link without a target"))?;
    String::from_utf8(bytes).map_err(|_| w.unsafe_member(raw, "link target is not UTF-8"))
}

fn entry_link<R: Read>(entry: &tar::Entry<'_, R>) -> Option<Vec<u8>> {
    entry.link_name_bytes().map(|b| b.into_owned())
}

/// The text of the error a [`Capped`] reader returns.
const CAP_HIT: &str = "stream cap reached";

/// The payload of a [`Capped`] reader's error.
#[derive(Debug)]
struct CapHit(u64);

impl std::fmt::Display for CapHit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{CAP_HIT} ({} bytes)", self.0)
    }
}

impl std::error::Error for CapHit {}

/// A reader that fails once more than `cap` bytes were read through it.
struct Capped<R> {
    inner: R,
    cap: u64,
    read: u64,
}

impl<R> Capped<R> {
    fn new(inner: R, cap: u64) -> Capped<R> {
        Capped {
            inner,
            cap,
            read: 0,
        }
    }
}

impl<R: Read> Read for Capped<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.read += n as u64;
        if self.read > self.cap {
            return Err(std::io::Error::other(CapHit(self.cap)));
        }
        Ok(n)
    }
}

/// A writer that fails once `left` bytes are used up.
struct CappedWriter<W> {
    inner: W,
    left: u64,
}

impl<W: Write> Write for CappedWriter<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if buf.len() as u64 > self.left {
            self.left = 0;
            return Err(std::io::Error::other(CapHit(0)));
        }
        self.left -= buf.len() as u64;
        self.inner.write_all(buf)?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

/// Writes members into `root`, enforcing the rules and caps.
struct Writer<'a> {
    url: &'a str,
    root: &'a Path,
    limits: &'a Limits,
    members: usize,
    bytes: u64,
    files: BTreeSet<String>,
}

impl Writer<'_> {
    fn unsafe_member(&self, member: &str, reason: &str) -> ArchiveError {
        ArchiveError::Unsafe {
            url: self.url.to_string(),
            member: member.to_string(),
            reason: reason.to_string(),
        }
    }

    fn format(&self, member: &str, e: std::io::Error) -> ArchiveError {
        ArchiveError::Format {
            url: self.url.to_string(),
            reason: format!("member '{member}': {e}"),
        }
    }

    /// Counts the member and returns its safe relative path (`None`: the root).
    fn member(&mut self, raw: &str) -> Result<Option<PathBuf>, ArchiveError> {
        self.members += 1;
        if self.members > self.limits.max_members {
            return Err(ArchiveError::Cap {
                url: self.url.to_string(),
                member: raw.to_string(),
                reason: format!("more than {} members", self.limits.max_members),
            });
        }
        let rel = safe_relative(raw).map_err(|r| self.unsafe_member(raw, &r))?;
        if rel.as_ref().is_some_and(|r| r == Path::new(MANIFEST_FILE)) {
            return Err(self.unsafe_member(raw, "name reserved for the fetch manifest"));
        }
        Ok(rel)
    }

    /// Creates the parents of `rel` as real directories: none may be a link
    /// unpacked before (or a file).
    fn parents(&self, raw: &str, rel: &Path) -> Result<(), ArchiveError> {
        let mut at = self.root.to_path_buf();
        let mut shown = PathBuf::new();
        let parent = rel.parent().unwrap_or(Path::new(""));
        for c in parent.components() {
            at.push(c);
            shown.push(c);
            match fs::symlink_metadata(&at) {
                Ok(m) if m.file_type().is_symlink() => {
                    return Err(self.unsafe_member(
                        raw,
                        &format!(
                            "would be written through the symbolic link '{}' unpacked before it",
                            shown.display()
                        ),
                    ));
                }
                Ok(m) if m.is_dir() => {}
                Ok(_) => {
                    return Err(self.unsafe_member(
                        raw,
                        &format!("its parent '{}' is a file", shown.display()),
                    ));
                }
                Err(_) => {
                    fs::create_dir(&at).map_err(|e| ArchiveError::io(&at, e))?;
                }
            }
        }
        Ok(())
    }

    /// Fails when `rel` exists as a link (never written through) or a directory.
    fn not_there(&self, raw: &str, rel: &Path) -> Result<(), ArchiveError> {
        match fs::symlink_metadata(self.root.join(rel)) {
            Ok(m) if m.file_type().is_symlink() => {
                Err(self.unsafe_member(raw, "would overwrite the symbolic link unpacked before it"))
            }
            Ok(m) if m.is_dir() => Err(self.unsafe_member(raw, "a directory of that name exists")),
            _ => Ok(()),
        }
    }

    fn dir(&mut self, raw: &str, rel: &Path) -> Result<(), ArchiveError> {
        self.parents(raw, rel)?;
        let at = self.root.join(rel);
        match fs::symlink_metadata(&at) {
            Ok(m) if m.is_dir() => Ok(()),
            Ok(_) => Err(self.unsafe_member(raw, "a file or link of that name exists")),
            Err(_) => fs::create_dir(&at).map_err(|e| ArchiveError::io(&at, e)),
        }
    }

    fn file(
        &mut self,
        raw: &str,
        rel: &Path,
        data: &mut dyn Read,
        mode: u32,
    ) -> Result<(), ArchiveError> {
        self.parents(raw, rel)?;
        self.not_there(raw, rel)?;
        let at = self.root.join(rel);
        let mut out = fs::OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(true)
            .custom_flags(libc::O_NOFOLLOW)
            .mode(0o600)
            .open(&at)
            .map_err(|e| ArchiveError::io(&at, e))?;
        let mut buf = vec![0u8; 1 << 16];
        loop {
            let n = match data.read(&mut buf) {
                Ok(0) => break,
                Ok(n) => n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(self.format(raw, e)),
            };
            self.bytes += n as u64;
            if self.bytes > self.limits.max_unpacked_bytes {
                return Err(cap_error(self.url, raw, self.limits.max_unpacked_bytes));
            }
            out.write_all(&buf[..n])
                .map_err(|e| ArchiveError::io(&at, e))?;
        }
        drop(out);
        fs::set_permissions(&at, fs::Permissions::from_mode(mode & 0o777))
            .map_err(|e| ArchiveError::io(&at, e))?;
        self.files.insert(slash(rel));
        Ok(())
    }

    fn symlink(&mut self, raw: &str, rel: &Path, target: &str) -> Result<(), ArchiveError> {
        let depth = rel.components().count() - 1;
        link_target_ok(target, depth)
            .map_err(|r| self.unsafe_member(raw, &format!("symbolic link to '{target}' {r}")))?;
        self.parents(raw, rel)?;
        self.not_there(raw, rel)?;
        let at = self.root.join(rel);
        if at.symlink_metadata().is_ok() {
            fs::remove_file(&at).map_err(|e| ArchiveError::io(&at, e))?;
        }
        std::os::unix::fs::symlink(target, &at).map_err(|e| ArchiveError::io(&at, e))?;
        self.files.insert(slash(rel));
        Ok(())
    }

    fn hardlink(&mut self, raw: &str, rel: &Path, target: &str) -> Result<(), ArchiveError> {
        let to = safe_relative(target)
            .map_err(|r| self.unsafe_member(raw, &format!("hard link to '{target}': {r}")))?
            .ok_or_else(|| self.unsafe_member(raw, "hard link to the archive's root"))?;
        let shown = slash(&to);
        self.parents(raw, &to)?;
        let from = self.root.join(&to);
        match fs::symlink_metadata(&from) {
            Ok(m) if m.is_file() => {}
            _ => {
                return Err(self.unsafe_member(
                    raw,
                    &format!(
                        "hard link to '{shown}', which is not a regular file unpacked before it"
                    ),
                ));
            }
        }
        let mode = fs::metadata(&from)
            .map_err(|e| ArchiveError::io(&from, e))?
            .permissions()
            .mode();
        let mut src = File::open(&from).map_err(|e| ArchiveError::io(&from, e))?;
        self.file(raw, rel, &mut src, mode)
    }
}

/// The member name as a relative path of normal components (`./` dropped);
/// `None` for the root itself; an error for absolute names and `..`.
fn safe_relative(raw: &str) -> Result<Option<PathBuf>, String> {
    if raw.contains('\0') {
        return Err("name contains a NUL byte".to_string());
    }
    if raw.starts_with('/') {
        return Err("absolute path".to_string());
    }
    let mut out = PathBuf::new();
    for c in Path::new(raw).components() {
        match c {
            Component::Normal(n) => out.push(n),
            Component::CurDir => {}
            Component::ParentDir => return Err("path contains '..'".to_string()),
            Component::RootDir | Component::Prefix(_) => {
                return Err("absolute path".to_string());
            }
        }
    }
    Ok((!out.as_os_str().is_empty()).then_some(out))
}

/// Whether a link at depth `depth` (components of its parent below the root)
/// may point at `target`: relative, and of the form `../../name/name`, with no
/// more `..` than `depth` and none after a name (a name may itself be a link,
/// whose `..` would not be lexical).
fn link_target_ok(target: &str, depth: usize) -> Result<(), &'static str> {
    if target.is_empty() {
        return Err("is empty");
    }
    if target.starts_with('/') {
        return Err("is absolute (links must stay inside the archive)");
    }
    let mut up = 0;
    let mut named = false;
    for c in Path::new(target).components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir if named => {
                return Err("has '..' after a name (links must stay inside the archive)");
            }
            Component::ParentDir => {
                up += 1;
                if up > depth {
                    return Err("leaves the archive");
                }
            }
            Component::Normal(_) => named = true,
            Component::RootDir | Component::Prefix(_) => return Err("is absolute"),
        }
    }
    Ok(())
}

/// `rel` with `/` separators.
fn slash(rel: &Path) -> String {
    rel.components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join("/")
}

#[cfg(test)]
mod tests {
    use super::{link_target_ok, safe_relative};
    use std::path::PathBuf;

    #[test]
    fn member_paths() {
        assert_eq!(safe_relative("./a/b").unwrap(), Some(PathBuf::from("a/b")));
        assert_eq!(safe_relative("a//b/").unwrap(), Some(PathBuf::from("a/b")));
        assert_eq!(safe_relative("./").unwrap(), None);
        assert!(safe_relative("/etc/passwd").is_err());
        assert!(safe_relative("a/../../b").is_err());
        assert!(safe_relative("a/../b").is_err(), "any '..' is refused");
    }

    #[test]
    fn link_targets() {
        assert!(link_target_ok("bin/z3", 0).is_ok());
        assert!(link_target_ok("../lib/x.so", 1).is_ok());
        assert!(link_target_ok("..", 0).is_err(), "a link in the root to ..");
        assert!(link_target_ok("../../x", 1).is_err());
        assert!(link_target_ok("/usr/bin/z3", 3).is_err());
        assert!(link_target_ok("d/..", 2).is_err(), "'..' after a name");
        assert!(link_target_ok("", 0).is_err());
    }
}
