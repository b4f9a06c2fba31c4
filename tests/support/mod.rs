//! Helpers shared by the two integration-test binaries, `tests/it` (fast, no
//! BenchExec) and `tests/e2e` (real BenchExec and solvers). Each includes this
//! module with `#[path = "../support/mod.rs"] mod support;`.
//!
//! * [`golden`]: the one golden-file switch (`UPDATE_GOLDEN=1`);
//! * [`data`]: the big 2025 data sets, parsed at most once per binary;
//! * [`http`]: a small HTTP server on 127.0.0.1 (solver archive downloads);
//! * [`prepared_demo`]: the demo prepared set from the corpus;
//! * [`solvers`]: real solvers called directly (with a hang watchdog);
//! * [`validate`]: prepared sets, run records and logs of the validation tests;
//! * [`benchexec`]: BenchExec result files;
//! * [`replay`]: the replay recording of a reduced demo (`tests/data/replay`);
//! * [`cache_damage`]: damaged binary cache files that pass their checksum.
//!
//! Modules used by only one of the two binaries carry `#[allow(dead_code)]`
//! (the other binary compiles them too, unused).

#[allow(dead_code)] // tests/e2e only
pub mod benchexec;
#[allow(dead_code)] // tests/it only
pub mod cache_damage;
#[allow(dead_code)] // tests/it only
pub mod data;
#[allow(dead_code)] // tests/it only
pub mod golden;
#[allow(dead_code)] // tests/it only
pub mod http;
#[allow(dead_code)] // tests/it only
pub mod prepared_demo;
#[allow(dead_code)] // tests/it only
pub mod replay;
#[allow(dead_code)] // tests/it only
pub mod solvers;
#[allow(dead_code)] // tests/it only
pub mod validate;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Environment variable: a copy of the checkout the tests take their data,
/// fixtures and work directories from instead of the crate root (with
/// [`BIN_DIR_ENV`]: `scripts/test-clone-locations` runs e2e tests from copies
/// under `/home` and `/tmp`, which BenchExec's container hides).
pub const ROOT_ENV: &str = "SMTCOMP_TEST_ROOT";

/// Environment variable: the directory of the `smtcomp` binaries the tests run
/// (default: the build's own).
pub const BIN_DIR_ENV: &str = "SMTCOMP_TEST_BIN_DIR";

/// The crate root (tests run with it as the working directory), or [`ROOT_ENV`].
pub fn root() -> PathBuf {
    std::env::var_os(ROOT_ENV)
        .filter(|v| !v.is_empty())
        .map_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")), PathBuf::from)
}

/// The `smtcomp` binary the tests run: the build's own, or the one in [`BIN_DIR_ENV`].
pub fn smtcomp_bin() -> PathBuf {
    std::env::var_os(BIN_DIR_ENV)
        .filter(|v| !v.is_empty())
        .map_or_else(
            || PathBuf::from(env!("CARGO_BIN_EXE_smtcomp")),
            |d| PathBuf::from(d).join("smtcomp"),
        )
}

/// A scratch directory of the build (`CARGO_TARGET_TMPDIR`), or
/// `<root>/target/tmp` when [`ROOT_ENV`] relocates the tests.
#[allow(dead_code)] // tests/e2e only
pub fn target_tmp() -> PathBuf {
    if std::env::var_os(ROOT_ENV).is_some_and(|v| !v.is_empty()) {
        let d = root().join("target/tmp");
        std::fs::create_dir_all(&d).unwrap();
        d
    } else {
        PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
    }
}

/// Runs the `smtcomp` binary from the crate root (stdin empty); returns
/// (exit code, stdout, stderr).
pub fn smtcomp(args: &[&str]) -> (i32, String, String) {
    let out = std::process::Command::new(smtcomp_bin())
        .args(args)
        .current_dir(root())
        // The inventory cache of the tests stays in the target directory.
        .env("SMTCOMP_CACHE_DIR", root().join("target/test-cache"))
        .stdin(std::process::Stdio::null())
        .output()
        .expect("run smtcomp");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
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

/// A directory for BenchExec runs outside /tmp (hidden in containers): below target/.
pub fn work_dir(name: &str) -> tempfile::TempDir {
    let base = root().join("target/benchexec-tests");
    std::fs::create_dir_all(&base).unwrap();
    tempfile::Builder::new()
        .prefix(name)
        .tempdir_in(base)
        .unwrap()
}

/// Every file below `dir` (relative path -> bytes; empty when `dir` is missing).
pub fn tree(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut out = BTreeMap::new();
    if !dir.exists() {
        return out;
    }
    for e in walkdir::WalkDir::new(dir).sort_by_file_name() {
        let e = e.unwrap();
        if e.file_type().is_file() {
            let rel = e.path().strip_prefix(dir).unwrap().display().to_string();
            out.insert(rel, std::fs::read(e.path()).unwrap());
        }
    }
    out
}

/// Copies a directory tree.
pub fn copy_tree(from: &Path, to: &Path) {
    for (rel, bytes) in tree(from) {
        let p = to.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, bytes).unwrap();
    }
}

/// Cases per property of the fuzz (property) tests: `SMTCOMP_FUZZ_CASES`
/// when set (`scripts/fuzz` sets it high), else `default` (the CI setting).
#[allow(dead_code)] // tests/it only
pub fn fuzz_cases(default: u32) -> u32 {
    std::env::var("SMTCOMP_FUZZ_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// A score as the published pages show it (Python's repr of the value rounded to 6 digits).
#[allow(dead_code)] // tests/it only
pub fn python_fmt6(x: f64) -> String {
    let r = (x * 1e6).round() / 1e6;
    if r != 0.0 && r.abs() < 1e-4 {
        // Python's repr switches to scientific notation: 5e-06.
        let s = format!("{r:e}");
        let (m, e) = s.split_once('e').unwrap();
        let e: i32 = e.parse().unwrap();
        return format!("{m}e{}{:02}", if e < 0 { '-' } else { '+' }, e.abs());
    }
    if r == r.trunc() {
        format!("{}", r as i64)
    } else {
        let s = format!("{r:.6}");
        s.trim_end_matches('0').to_string()
    }
}

/// `smtcomp init ws` arguments for a workspace of the demo competition with
/// `submissions/` and `library/` beside it, the given tracks and jobs.
#[allow(dead_code)] // the e2e tests only
pub fn demo_init_args(tracks: &[&str], jobs: u32) -> Vec<String> {
    let mut args: Vec<String> = vec![
        "init".into(),
        "ws".into(),
        "--competition".into(),
        root().join("demo/competition.toml").display().to_string(),
        "--submissions".into(),
        "submissions".into(),
        "--library".into(),
        "library".into(),
    ];
    for t in tracks {
        args.extend(["--track".into(), t.to_string()]);
    }
    args.extend(["--jobs".into(), jobs.to_string()]);
    args
}
