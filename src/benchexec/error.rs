//! Why BenchExec files cannot be generated, or a BenchExec call not made.

use crate::util::path_error::PathError;
use std::path::{Path, PathBuf};

/// Why `generate` (or a BenchExec call of the run stage) failed.
#[derive(Debug, thiserror::Error)]
pub enum BenchexecError {
    /// A file or directory cannot be created, written, removed or read.
    #[error(transparent)]
    Io(#[from] PathError),
    /// A path that generated files cannot name.
    #[error("{}: path is not valid UTF-8", .0.display())]
    NotUtf8(PathBuf),
    /// Two solver names that become the same file name.
    #[error(
        "solver names '{first}' and '{second}' both become '{slug}' in file names; rename one of them"
    )]
    SlugCollision {
        /// The first name.
        first: String,
        /// The second name.
        second: String,
        /// The file name both become.
        slug: String,
    },
    /// More items than the task store's indices hold.
    #[error("generate: too many {what} (at most {limit})")]
    TooMany {
        /// What (`benchmark families`, `logics`).
        what: &'static str,
        /// The most there may be.
        limit: u64,
    },
    /// A writer thread panicked (a bug).
    #[error("the {0} panicked")]
    Panicked(&'static str),
    /// No definition of that name in the generation manifest.
    #[error("{0}: no such definition in the manifest")]
    NoDefinition(String),
    /// A file of the input (a prepared manifest, a validation manifest) is wrong.
    #[error("{}: {reason}", file.display())]
    Input {
        /// The file.
        file: PathBuf,
        /// What is wrong with it.
        reason: String,
    },
    /// A directory of `SMTCOMP_READ_ONLY_DIRS` that is relative or missing.
    #[error(
        "{var}: '{}' is {why} (give absolute paths of existing directories, separated by ':')",
        dir.display()
    )]
    ReadOnlyDir {
        /// The variable.
        var: &'static str,
        /// The entry.
        dir: PathBuf,
        /// `relative` or `missing`.
        why: &'static str,
    },
    /// A helper binary found nowhere.
    #[error(
        "{helper}: not in {} nor in {}: build the whole workspace (`cargo build --release --workspace`), the helper binaries are member crates",
        bin.display(),
        searched.iter().map(|d| d.display().to_string()).collect::<Vec<_>>().join(", ")
    )]
    HelperMissing {
        /// The helper.
        helper: String,
        /// `EXECDIR/bin`.
        bin: PathBuf,
        /// Where it was looked for.
        searched: Vec<PathBuf>,
    },
    /// A helper binary cannot be copied into `EXECDIR/bin`.
    #[error("{}: cannot copy {helper} from {}: {source}", to.display(), from.display())]
    HelperCopy {
        /// The helper.
        helper: String,
        /// Its source.
        from: PathBuf,
        /// The temporary copy.
        to: PathBuf,
        /// The system's error.
        source: std::io::Error,
    },
    /// The PATH or PYTHONPATH of the call cannot be joined.
    #[error("{var}: {source}")]
    Environment {
        /// The variable.
        var: &'static str,
        /// Why (a directory with `:`).
        source: std::env::JoinPathsError,
    },
    /// A data file (the runs manifest) cannot be written.
    #[error(transparent)]
    DataFile(#[from] crate::formats::datafile::DataFileError),
    /// BenchExec could not be started.
    #[error("{source} (benchexec: {})", benchexec.display())]
    Start {
        /// The BenchExec program.
        benchexec: PathBuf,
        /// Why.
        source: crate::util::process::StartError,
    },
}

impl BenchexecError {
    /// A [`BenchexecError::Io`] maker for `path` and `action` (`create`, `write`,
    /// `remove`, `open`, ...).
    pub fn io(
        path: &Path,
        action: &'static str,
    ) -> impl Fn(std::io::Error) -> BenchexecError + use<> {
        let path = path.to_path_buf();
        move |source| {
            BenchexecError::Io(PathError {
                path: path.clone(),
                action,
                source,
            })
        }
    }
}
