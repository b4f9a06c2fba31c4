//! What BenchExec needs from the system is checked before any stage: a
//! `benchexec` whose cgroup check fails (as for a non-root user on a machine
//! without delegated cgroups) stops `smtcomp demo` at once, with BenchExec's
//! own explanation and the exact command it names, and nothing written.

use crate::support::smtcomp_bin;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;

fn executable(path: &Path, text: &str) {
    std::fs::write(path, text).unwrap();
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
}

#[test]
fn a_failed_cgroup_check_stops_the_demo_before_any_stage() {
    let dir = tempfile::tempdir().unwrap();
    // BenchExec's interpreter: answers `-m benchexec.check_cgroups` as BenchExec 3.35
    // does for a user without cgroup access (recorded on this machine as user `tester`).
    let python = dir.path().join("python");
    executable(
        &python,
        "#!/bin/sh\n\
         [ \"$1 $2\" = \"-m benchexec.check_cgroups\" ] || exit 9\n\
         echo 'WARNING: Cannot use cgroup /sys/fs/cgroup/cpuacct/ for subsystem cpuacct, reason: Permission denied (13).' >&2\n\
         echo 'Required cgroups are not available because of missing permissions.' >&2\n\
         echo 'As a temporary workaround, you can also run' >&2\n\
         echo '\"sudo chmod o+wt /sys/fs/cgroup/cpuacct/ /sys/fs/cgroup/freezer/\"' >&2\n\
         exit 1\n",
    );
    let benchexec = dir.path().join("benchexec");
    executable(
        &benchexec,
        &format!("#!{}\nimport benchexec\n", python.display()),
    );
    let out = dir.path().join("demo-out");
    let o = std::process::Command::new(smtcomp_bin())
        .current_dir(crate::support::root())
        .args(["demo", "--jobs", "1", "--benchexec"])
        .arg(&benchexec)
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_ne!(o.status.code(), Some(0), "{stderr}");
    assert!(
        stderr.contains("BenchExec cannot use the cgroups it measures and limits runs with"),
        "{stderr}"
    );
    assert!(
        stderr.contains("\"sudo chmod o+wt /sys/fs/cgroup/cpuacct/ /sys/fs/cgroup/freezer/\""),
        "{stderr}"
    );
    assert!(
        stderr.contains(&format!("{} -m benchexec.check_cgroups", python.display())),
        "{stderr}"
    );
    // Before any stage: no stage line, nothing written.
    assert!(!stderr.contains("demo: inventory"), "{stderr}");
    assert!(!out.exists(), "{stderr}");
}
