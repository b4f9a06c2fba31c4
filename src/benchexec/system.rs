//! What BenchExec needs from the system, checked before anything runs: the
//! cgroups it measures and limits runs with. BenchExec's own checker
//! (`python -m benchexec.check_cgroups`, with the Python of the `benchexec`
//! that will run) says whether this user may use them and prints the exact
//! commands that grant it; a failed check becomes one error with those
//! commands, instead of a failure of every run after the stages before it.

use crate::util::process::{self, Supervised};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// BenchExec's instructions for cgroups (v1 without systemd, v2 with or without).
pub const CGROUP_DOCS: &str =
    "https://github.com/sosy-lab/benchexec/blob/main/doc/INSTALL.md#setting-up-cgroups";

/// The Python interpreter of the `benchexec` script `benchexec` (a path, or a
/// name on PATH): its `#!` line's program when that is a Python (`None`: not
/// found, or not a Python script, such as a wrapper or a test's stand-in).
pub fn python_of(benchexec: &Path) -> Option<PathBuf> {
    let path: Vec<PathBuf> =
        std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default()).collect();
    let script = super::visibility::find_program(&benchexec.to_string_lossy(), &path)?;
    let python = PathBuf::from(super::visibility::interpreter(&script)?);
    python
        .file_name()
        .is_some_and(|n| n.to_string_lossy().starts_with("python"))
        .then_some(python)
}

/// Why BenchExec cannot measure and limit runs for this user, with the exact
/// commands to fix it (BenchExec's own advice and ours), or `None` when the
/// check passes. A `benchexec` that is no Python script, or a checker that
/// cannot start at all (BenchExec not installed for that Python), is left to
/// the caller's own "BenchExec not found" check and to the runs.
pub fn cgroup_problem(benchexec: &Path) -> Option<String> {
    let python = python_of(benchexec)?;
    let argv = vec![
        python.to_string_lossy().into_owned(),
        "-m".into(),
        "benchexec.check_cgroups".into(),
    ];
    let done = process::run(Supervised::new(argv, Duration::from_secs(60))).ok()?;
    if done.timed_out {
        return Some(format!(
            "BenchExec's cgroup check ({} -m benchexec.check_cgroups) did not finish in 60 s",
            python.display()
        ));
    }
    if done.code() == Some(0) {
        return None;
    }
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&done.stdout),
        String::from_utf8_lossy(&done.stderr)
    );
    if text.contains("No module named") {
        return None;
    }
    Some(explain(&text, &python))
}

/// The error text for a failed cgroup check whose output was `text`.
fn explain(text: &str, python: &Path) -> String {
    let said: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .take(40)
        .collect();
    let user = std::env::var("USER").unwrap_or_else(|_| "$USER".into());
    format!(
        "BenchExec cannot use the cgroups it measures and limits runs with, as user {user} \
         (nothing was run). BenchExec's check said:\n  {}\n\
         Fix it once per boot with the command BenchExec names above (as root), or for good as \
         {CGROUP_DOCS} explains; then check with:\n  {} -m benchexec.check_cgroups",
        said.join("\n  "),
        python.display()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_explanation_keeps_benchexecs_commands() {
        let out = "WARNING: Cannot use cgroup /sys/fs/cgroup/cpuacct/ ...\n\
                   As a temporary workaround, you can also run\n\
                   \"sudo chmod o+wt /sys/fs/cgroup/cpuacct/\"\n";
        let e = explain(out, Path::new("/v/bin/python"));
        assert!(
            e.contains("\"sudo chmod o+wt /sys/fs/cgroup/cpuacct/\""),
            "{e}"
        );
        assert!(
            e.contains("/v/bin/python -m benchexec.check_cgroups"),
            "{e}"
        );
        assert!(e.contains(CGROUP_DOCS), "{e}");
    }

    #[test]
    fn the_python_of_a_script() {
        let d = tempfile::tempdir().unwrap();
        let s = d.path().join("benchexec");
        std::fs::write(&s, "#!/opt/venv/bin/python\nimport benchexec\n").unwrap();
        assert_eq!(python_of(&s).unwrap(), Path::new("/opt/venv/bin/python"));
        std::fs::write(&s, "#!/usr/bin/env python3\n").unwrap();
        assert_eq!(python_of(&s).unwrap(), Path::new("python3"));
        // A stand-in shell script is not BenchExec: no check.
        std::fs::write(&s, "#!/bin/sh\nexit 0\n").unwrap();
        assert_eq!(python_of(&s), None);
        assert_eq!(python_of(&d.path().join("missing")), None);
    }
}
