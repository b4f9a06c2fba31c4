//! The one golden-file switch: `UPDATE_GOLDEN=1 cargo test ...` rewrites every
//! golden file (or tree) whose content differs and prints `rewrote <path>`;
//! without it a difference fails the test with the first differing line.

use super::{copy_tree, root, tree};
use std::path::{Path, PathBuf};

/// Whether `UPDATE_GOLDEN` is set (to anything but empty or `0`).
pub fn updating() -> bool {
    std::env::var("UPDATE_GOLDEN").is_ok_and(|v| !v.is_empty() && v != "0")
}

/// A path relative to the crate root, or an absolute one.
fn resolve(path: &Path) -> PathBuf {
    if path.is_absolute() {
        path.to_path_buf()
    } else {
        root().join(path)
    }
}

/// Compares `actual` with the golden file `path` (relative to the crate root);
/// with `UPDATE_GOLDEN=1`, rewrites the file instead when it differs.
pub fn check(path: impl AsRef<Path>, actual: &str) {
    let path = resolve(path.as_ref());
    let expected = std::fs::read_to_string(&path);
    if updating() {
        if expected.as_deref().ok() != Some(actual) {
            if let Some(dir) = path.parent() {
                std::fs::create_dir_all(dir).unwrap();
            }
            std::fs::write(&path, actual).unwrap();
            println!("rewrote {}", path.display());
        }
        return;
    }
    let expected = expected.unwrap_or_else(|e| {
        panic!(
            "{}: {e} (run with UPDATE_GOLDEN=1 to create it)",
            path.display()
        )
    });
    if expected != actual {
        let (e, a): (Vec<&str>, Vec<&str>) = (expected.lines().collect(), actual.lines().collect());
        let line = e
            .iter()
            .zip(&a)
            .position(|(x, y)| x != y)
            .unwrap_or(e.len().min(a.len()));
        panic!(
            "{} differs from the output at line {} (expected {} lines, got {}; \
             run with UPDATE_GOLDEN=1 to rewrite it, then review `git diff`):\n\
             --- expected\n{}\n--- actual\n{}",
            path.display(),
            line + 1,
            e.len(),
            a.len(),
            e.get(line).unwrap_or(&"<end>"),
            a.get(line).unwrap_or(&"<end>"),
        );
    }
}

/// [`check`] for a directory: the golden tree `path` (relative to the crate
/// root) must hold exactly the files of `actual`, byte for byte; with
/// `UPDATE_GOLDEN=1`, it is replaced by `actual` when it differs.
pub fn check_tree(path: impl AsRef<Path>, actual: &Path) {
    let path = resolve(path.as_ref());
    let (want, got) = (tree(&path), tree(actual));
    if updating() {
        if want != got {
            let _ = std::fs::remove_dir_all(&path);
            copy_tree(actual, &path);
            println!("rewrote {}", path.display());
        }
        return;
    }
    let hint = "run with UPDATE_GOLDEN=1 to rewrite it, then review `git diff`";
    let (kw, kg): (Vec<_>, Vec<_>) = (want.keys().collect(), got.keys().collect());
    assert_eq!(kw, kg, "{}: file lists differ ({hint})", path.display());
    for (k, v) in &want {
        assert!(v == &got[k], "{}/{k} differs ({hint})", path.display());
    }
}
