//! A system error on a named file or directory: `PATH: cannot ACTION: REASON`.

use std::path::{Path, PathBuf};

/// What the system refused to do with a file or directory.
#[derive(Debug, thiserror::Error)]
#[error("{}: cannot {action}: {source}", path.display())]
pub struct PathError {
    /// The file or directory.
    pub path: PathBuf,
    /// What was tried (`create`, `write`, `read`, `remove`).
    pub action: &'static str,
    /// The system's error.
    pub source: std::io::Error,
}

impl PathError {
    /// A maker of this error for `path` and `action` (for `map_err`).
    pub fn on(
        path: &Path,
        action: &'static str,
    ) -> impl FnOnce(std::io::Error) -> PathError + use<> {
        let path = path.to_path_buf();
        move |source| PathError {
            path,
            action,
            source,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_the_path_the_action_and_the_reason_once() {
        let e = std::fs::read("/nonexistent/x")
            .map_err(PathError::on(Path::new("/nonexistent/x"), "read"));
        let text = e.unwrap_err().to_string();
        assert_eq!(
            text,
            "/nonexistent/x: cannot read: No such file or directory (os error 2)"
        );
    }
}
