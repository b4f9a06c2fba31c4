//! Relative paths between directories (no dependency, no file-system access).

use std::path::{Component, Path, PathBuf};

/// The path of `to` relative to the directory `from`; both must be absolute and
/// normalized (no `.`/`..` components), e.g. from [`std::fs::canonicalize`].
pub fn relative(from: &Path, to: &Path) -> PathBuf {
    let a: Vec<Component> = from.components().collect();
    let b: Vec<Component> = to.components().collect();
    let common = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let mut out = PathBuf::new();
    for _ in common..a.len() {
        out.push("..");
    }
    for c in &b[common..] {
        out.push(c.as_os_str());
    }
    if out.as_os_str().is_empty() {
        out.push(".");
    }
    out
}

/// `path` as a `/`-separated UTF-8 string, or an error naming it.
pub fn utf8(path: &Path) -> Result<String, super::BenchexecError> {
    path.to_str()
        .map(str::to_string)
        .ok_or_else(|| super::BenchexecError::NotUtf8(path.to_path_buf()))
}

/// Why `s` cannot be a path inside a generated file (glob characters would be
/// expanded by BenchExec, control characters cannot be written), or `None`.
pub fn pattern_problem(s: &str) -> Option<String> {
    if let Some(c) = s.chars().find(|c| matches!(c, '*' | '?' | '[' | ']')) {
        return Some(format!(
            "'{s}': contains '{c}', which BenchExec reads as a glob pattern"
        ));
    }
    if s.chars().any(char::is_control) {
        return Some(format!(
            "'{}': contains a control character",
            s.escape_debug()
        ));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relative_paths() {
        let r = |a: &str, b: &str| relative(Path::new(a), Path::new(b)).display().to_string();
        assert_eq!(
            r("/x/tasks/sq/QF_BV", "/x/prep/sq/QF_BV/a.smt2"),
            "../../../prep/sq/QF_BV/a.smt2"
        );
        assert_eq!(r("/x", "/x/a"), "a");
        assert_eq!(r("/x/a", "/x/a"), ".");
        assert_eq!(r("/a/b", "/c"), "../../c");
    }

    #[test]
    fn globs_are_rejected() {
        assert!(pattern_problem("a/b*.smt2").is_some());
        assert!(pattern_problem("a/[x].smt2").is_some());
        assert!(pattern_problem("a b/c.smt2").is_none());
    }
}
