//! Shared helpers for the proof wrapper integration tests: a scratch working
//! directory with mock `smtcomp_solver` / `smtcomp_checker` shell scripts, a
//! runner, and output normalisation.
#![allow(dead_code)]

use std::io::Read;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

use regex::Regex;

/// The wrapper binary under test.
pub const WRAPPER: &str = env!("CARGO_BIN_EXE_smtcomp-proof-wrapper");

/// A scratch working directory (the wrapper's cwd) holding a benchmark.
pub struct Work {
    pub dir: tempfile::TempDir,
}

/// One finished wrapper run.
pub struct Run {
    pub stdout: String,
    pub stderr: String,
    pub code: Option<i32>,
    pub elapsed: Duration,
}

impl Work {
    /// A fresh directory with an (irrelevant) benchmark `bench.smt2`.
    pub fn new() -> Work {
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::write(dir.path().join("bench.smt2"), "(check-sat)\n(get-proof)\n").unwrap();
        Work { dir }
    }

    /// Path inside the working directory.
    pub fn path(&self, rel: &str) -> PathBuf {
        self.dir.path().join(rel)
    }

    /// Writes an executable `/bin/sh` script `name` with `body`.
    pub fn script(&self, name: &str, body: &str) {
        let path = self.path(name);
        std::fs::write(&path, format!("#!/bin/sh\n{body}")).unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    }

    /// Runs the wrapper in the working directory with `args`.
    pub fn run(&self, args: &[&str]) -> Run {
        let started = Instant::now();
        let out: Output = Command::new(WRAPPER)
            .args(args)
            .current_dir(self.dir.path())
            .output()
            .expect("run wrapper");
        Run {
            stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
            code: out.status.code(),
            elapsed: started.elapsed(),
        }
    }

    /// Reads a file of the working directory as bytes.
    pub fn read(&self, rel: &str) -> Vec<u8> {
        std::fs::read(self.path(rel)).unwrap_or_else(|e| panic!("read {rel}: {e}"))
    }

    /// Size of a file of the working directory.
    pub fn size(&self, rel: &str) -> u64 {
        std::fs::metadata(self.path(rel))
            .unwrap_or_else(|e| panic!("stat {rel}: {e}"))
            .len()
    }
}

/// Replaces time values (`*_time=1.23`) by `T` and compressed sizes by `GZ`,
/// so that stdout can be compared exactly.
pub fn normalise(stdout: &str) -> String {
    let times = Regex::new(r"(?m)^([a-z_]+_time)=[0-9]+\.[0-9]{2}$").unwrap();
    let gz = Regex::new(r"(?m)^compressedsize=[0-9]+$").unwrap();
    let gz_comment = Regex::new(r"(?m)^; proof size: ([0-9]+) \([0-9]+ compressed\)$").unwrap();
    let s = times.replace_all(stdout, "${1}=T");
    let s = gz.replace_all(&s, "compressedsize=GZ");
    gz_comment
        .replace_all(&s, "; proof size: ${1} (GZ compressed)")
        .into_owned()
}

/// Decompresses a gzip file.
pub fn gunzip(path: &Path) -> Vec<u8> {
    let mut data = Vec::new();
    flate2::read::GzDecoder::new(std::fs::File::open(path).unwrap())
        .read_to_end(&mut data)
        .unwrap();
    data
}

/// The report lines the wrapper prints after a normal checker run, with
/// normalised times, for `proofsize` and whether the proof was compressed.
pub fn normal_report(proof_size: u64, compressed: bool) -> String {
    format!(
        "proofsize={proof_size}\ncompressedsize={}\nsolver_cpu_time=T\nsolver_wall_time=T\n\
         solver_exit=0\nsolver_timeout=0\nsolver_stderr_truncated=0\nproof_truncated=0\n\
         compress_wall_time=T\nchecker_cpu_time=T\nchecker_wall_time=T\nchecker_exit=0\n\
         checker_timeout=0\nchecker_stderr_truncated=0\nchecker_skipped=0\n",
        if compressed { "GZ" } else { "" }
    )
}

/// The comment lines before the checker output.
pub fn preamble(proof_size: u64, compressed: bool) -> String {
    format!(
        "; run solver\n; compressing proof\n; proof size: {proof_size} ({} compressed)\n; checking proof\n",
        if compressed { "GZ" } else { "" }
    )
}

/// A checker that checks its arguments, then answers from the solver output:
/// first line `unsat` → the word inside `(proof WORD)` on the last line (or
/// `unknown` without a proof); `sat` → `sat`; anything else → `unknown`.
pub const MOCK_CHECKER: &str = r#"
[ "$#" -eq 2 ] || { echo "wrong argument count $#"; exit 1; }
[ -f "$1" ] || { echo "benchmark '$1' missing"; exit 1; }
echo "checker stderr line" >&2
first=$(head -n 1 "$2")
case "$first" in
  unsat)
    word=$(sed -n 's/^(proof \([a-z]*\))$/\1/p' "$2")
    if [ -n "$word" ]; then echo "$word"; echo "steps=3"; echo "holes=0"; else echo unknown; fi ;;
  sat) echo sat ;;
  *) echo unknown ;;
esac
"#;
