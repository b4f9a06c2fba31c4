//! Real solvers called directly (no BenchExec): presence on PATH, runs killed
//! by a hang watchdog.

use super::require_tool;
use std::path::Path;
use std::time::Duration;

/// [`require_tool`] for several tools: whether all are on PATH.
pub fn require_tools(names: &[&str]) -> bool {
    names.iter().all(|n| require_tool(n).is_some())
}

/// Kills a solver that hangs: a guard against a stuck test, not a performance
/// limit (the runs here take well under a second).
pub const HANG_WATCHDOG: Duration = Duration::from_secs(60);

/// Runs a solver command (`"z3 -smt2"`) on a file, killed by [`HANG_WATCHDOG`];
/// returns its stdout and wall time.
pub fn run_solver(cmd: &str, file: &Path) -> (String, f64) {
    use smtcomp::util::process::{Supervised, run};
    let mut argv = smtcomp::validate::split_command(cmd);
    argv.push(file.to_string_lossy().into_owned());
    let f = run(Supervised::new(argv, HANG_WATCHDOG)).unwrap();
    assert!(
        !f.timed_out,
        "{cmd} on {} hung (killed by the watchdog)",
        file.display()
    );
    (
        String::from_utf8_lossy(&f.stdout).into_owned(),
        f.elapsed.as_secs_f64(),
    )
}
