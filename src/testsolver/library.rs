//! The benchmark library of a test run, `OUT/library`: the corpus built into
//! the binary (or `--benchmarks DIR`), merged per logic with small generated
//! benchmarks of known status (`generated.rs`) for the logics it lacks.
//!
//! `OUT/library/{non-incremental,incremental}/<LOGIC>/` are real directories
//! whose entries link to the source's (its families or files), so generated
//! files can sit beside them without touching the source.

use anyhow::Context;
use std::path::{Path, PathBuf};

include!(concat!(env!("OUT_DIR"), "/corpus_files.rs"));

/// Writes the embedded corpus into `dir` (replacing it); returns `dir`.
pub fn write_embedded_corpus(dir: &Path) -> anyhow::Result<PathBuf> {
    if dir.symlink_metadata().is_ok() {
        std::fs::remove_dir_all(dir)
            .with_context(|| format!("{}: cannot remove", dir.display()))?;
    }
    for (rel, bytes) in CORPUS_FILES {
        let path = dir.join(rel);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)
                .with_context(|| format!("{}: cannot create", parent.display()))?;
        }
        std::fs::write(&path, bytes)
            .with_context(|| format!("{}: cannot write", path.display()))?;
    }
    Ok(dir.to_path_buf())
}

/// The kind directories of a source library and where they go: the corpus
/// layout (`single/`, `unsat-core/`, `incremental/`; `slow/` is left out) or an
/// SMT-LIB library (`non-incremental/`, `incremental/`).
const KINDS: [(&str, &str); 4] = [
    ("single", "non-incremental"),
    ("unsat-core", "non-incremental"),
    ("non-incremental", "non-incremental"),
    ("incremental", "incremental"),
];

/// Builds `library` from `source`: per kind and logic, a real directory with
/// one link per entry of the source's logic directory. Returns the number of
/// linked entries.
pub fn build_library(source: &Path, library: &Path) -> anyhow::Result<usize> {
    let source = std::fs::canonicalize(source)
        .with_context(|| format!("{}: benchmark library not found", source.display()))?;
    let mut linked = 0;
    let mut any_kind = false;
    for (from, to) in KINDS {
        let Ok(logics) = std::fs::read_dir(source.join(from)) else {
            continue;
        };
        any_kind = true;
        let mut logics: Vec<_> = logics.flatten().map(|e| e.path()).collect();
        logics.sort();
        for logic_dir in logics.into_iter().filter(|p| p.is_dir()) {
            let Some(logic) = logic_dir.file_name() else {
                continue;
            };
            let target = library.join(to).join(logic);
            std::fs::create_dir_all(&target)
                .with_context(|| format!("{}: cannot create", target.display()))?;
            let mut entries: Vec<_> = std::fs::read_dir(&logic_dir)
                .with_context(|| format!("{}: cannot read", logic_dir.display()))?
                .flatten()
                .map(|e| e.path())
                .collect();
            entries.sort();
            for entry in entries {
                let Some(name) = entry.file_name() else {
                    continue;
                };
                let link = target.join(name);
                if link.symlink_metadata().is_ok() {
                    continue;
                }
                std::os::unix::fs::symlink(&entry, &link)
                    .with_context(|| format!("{}: cannot link", link.display()))?;
                linked += 1;
            }
        }
    }
    if !any_kind {
        anyhow::bail!(
            "{}: not a benchmark library (no single/, non-incremental/ or incremental/ directory)",
            source.display()
        );
    }
    Ok(linked)
}

/// Builds `library` from the listed `files` of the SMT-LIB library `source`
/// (`non-incremental/...`, `incremental/...`): one link per file found.
/// Returns the files not found in `source`, in list order.
pub fn link_listed(
    source: &Path,
    files: &[crate::benchmarks::Smt2File],
    library: &Path,
) -> anyhow::Result<Vec<crate::benchmarks::Smt2File>> {
    let source = std::fs::canonicalize(source)
        .with_context(|| format!("{}: benchmark library not found", source.display()))?;
    let mut missing = Vec::new();
    for f in files {
        let rel = f.path();
        let from = source.join(&rel);
        if !from.is_file() {
            missing.push(f.clone());
            continue;
        }
        let link = library.join(&rel);
        if let Some(parent) = link.parent() {
            std::fs::create_dir_all(parent)
                .with_context(|| format!("{}: cannot create", parent.display()))?;
        }
        if link.symlink_metadata().is_err() {
            std::os::unix::fs::symlink(&from, &link)
                .with_context(|| format!("{}: cannot link", link.display()))?;
        }
    }
    Ok(missing)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_embedded_corpus_has_every_kind_and_no_slow_file() {
        let has = |prefix: &str| CORPUS_FILES.iter().any(|(p, _)| p.starts_with(prefix));
        assert!(has("single/QF_BV/"));
        assert!(has("incremental/QF_BV/"));
        assert!(has("unsat-core/QF_LIA/"));
        assert!(has("MANIFEST.tsv"));
        assert!(!has("slow/"));
    }

    #[test]
    fn a_library_merges_the_kinds_per_logic() {
        let dir = tempfile::tempdir().unwrap();
        let corpus = write_embedded_corpus(&dir.path().join("corpus")).unwrap();
        let lib = dir.path().join("library");
        let n = build_library(&corpus, &lib).unwrap();
        assert_eq!(
            n,
            CORPUS_FILES
                .iter()
                .filter(|(p, _)| p.ends_with(".smt2"))
                .count()
        );
        // corpus/single/QF_LIA and corpus/unsat-core/QF_LIA side by side.
        let names: Vec<String> = std::fs::read_dir(lib.join("non-incremental/QF_LIA"))
            .unwrap()
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        assert!(names.iter().any(|n| n.starts_with("smtcomp_")), "{names:?}");
        assert!(names.iter().any(|n| n.starts_with("CVC4")), "{names:?}");
        let err = build_library(dir.path(), &dir.path().join("l2")).unwrap_err();
        assert!(err.to_string().contains("not a benchmark library"), "{err}");

        // A list: only the listed files, the missing ones returned.
        let listed: Vec<_> = [
            "non-incremental/QF_LIA/x/absent.smt2",
            "non-incremental/QF_BV/absent.smt2",
        ]
        .iter()
        .map(|p| crate::benchmarks::list::parse_path(p).unwrap())
        .chain(
            walkdir::WalkDir::new(lib.join("non-incremental/QF_LIA"))
                .follow_links(true)
                .sort_by_file_name()
                .into_iter()
                .flatten()
                .filter(|e| e.file_type().is_file())
                .take(1)
                .map(|e| {
                    let rel = e
                        .path()
                        .strip_prefix(&lib)
                        .unwrap()
                        .to_string_lossy()
                        .into_owned();
                    crate::benchmarks::list::parse_path(&rel).unwrap()
                }),
        )
        .collect();
        let only = dir.path().join("only");
        let missing = link_listed(&lib, &listed, &only).unwrap();
        assert_eq!(missing, listed[..2].to_vec());
        let linked: Vec<_> = walkdir::WalkDir::new(&only)
            .into_iter()
            .flatten()
            .filter(|e| !e.file_type().is_dir())
            .collect();
        assert_eq!(linked.len(), 1);
        assert!(err.to_string().contains("not a benchmark library"), "{err}");
    }
}
