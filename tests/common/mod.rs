//! Helpers shared by the integration tests.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

/// The crate root (tests run with it as the working directory).
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Runs the `smtcomp` binary from the crate root; returns (exit code, stdout, stderr).
pub fn smtcomp(args: &[&str]) -> (i32, String, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_smtcomp"))
        .args(args)
        .current_dir(root())
        .output()
        .expect("run smtcomp");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Compares `actual` with the golden file `tests/golden/<name>`; with
/// `UPDATE_GOLDEN=1` in the environment, rewrites the golden file instead.
pub fn assert_golden(name: &str, actual: &str) {
    let path: PathBuf = root().join("tests/golden").join(name);
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::write(&path, actual).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "{}: {e} (run with UPDATE_GOLDEN=1 to create it)",
            path.display()
        )
    });
    if expected != actual {
        let diff_line = expected
            .lines()
            .zip(actual.lines())
            .position(|(a, b)| a != b)
            .unwrap_or(expected.lines().count().min(actual.lines().count()));
        panic!(
            "{} differs from the output at line {}:\n--- expected\n{}\n--- actual\n{}",
            path.display(),
            diff_line + 1,
            expected.lines().nth(diff_line).unwrap_or("<end>"),
            actual.lines().nth(diff_line).unwrap_or("<end>")
        );
    }
}

/// Sorted `*.json` files of a directory, as paths relative to the crate root.
pub fn json_files(dir: &str) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(root().join(dir))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .map(|p| format!("{dir}/{}", p.file_name().unwrap().to_string_lossy()))
        .collect();
    v.sort();
    v
}

/// Whether a path exists below the crate root.
pub fn exists(rel: &str) -> bool {
    Path::new(&root().join(rel)).exists()
}

/// Finds `name` on PATH. When it is missing: panics if `SMTCOMP_REQUIRE_SOLVERS=1`
/// (CI), else prints why the caller skips and returns `None`.
pub fn require_tool(name: &str) -> Option<PathBuf> {
    let found = std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|d| d.join(name))
            .find(|p| p.is_file())
    });
    if found.is_none() {
        if std::env::var("SMTCOMP_REQUIRE_SOLVERS").is_ok_and(|v| v == "1") {
            panic!("{name} is not on PATH but SMTCOMP_REQUIRE_SOLVERS=1");
        }
        eprintln!("skipped: {name} not on PATH");
    }
    found
}

/// Reads the corpus manifest: one map (column -> value) per row.
pub fn corpus_manifest() -> Vec<std::collections::BTreeMap<String, String>> {
    let text = std::fs::read_to_string(root().join("corpus/MANIFEST.tsv")).unwrap();
    let mut lines = text.lines();
    let header: Vec<String> = lines
        .next()
        .unwrap()
        .split('\t')
        .map(String::from)
        .collect();
    lines
        .map(|l| {
            header
                .iter()
                .cloned()
                .zip(l.split('\t').map(String::from))
                .collect()
        })
        .collect()
}
