//! The wrapper's trailing `key=value` lines and its `;` comment lines.
//!
//! Keys are constants and values are numbers, so every emitted pair matches the
//! post-processor pattern (see [`super::kv`]); values are still sanitised
//! defensively. Times are seconds with exactly 2 decimals, like the old
//! post-processor's `%.2f`.

use std::time::Duration;

use super::kv;
use super::process::Exit;

/// What is known about one phase (solver or checker) once it has ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PhaseSummary {
    /// CPU time (user + system) of the phase's whole process tree.
    pub cpu: Duration,
    /// Wall time from spawn until the main process ended.
    pub wall: Duration,
    /// Exit status of the main process.
    pub exit: Exit,
    /// True if the wrapper's own time limit stopped it.
    pub timed_out: bool,
    /// True if its stderr log was capped.
    pub stderr_truncated: bool,
}

/// Everything the wrapper reports after the checker output.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Report {
    /// Size of the (possibly capped) proof file in bytes.
    pub proof_size: u64,
    /// Size of `proof.txt.gz`, `None` if the proof was not compressed.
    pub compressed_size: Option<u64>,
    /// The solver phase.
    pub solver: PhaseSummary,
    /// True if `--max-proof-bytes` cut the proof.
    pub proof_truncated: bool,
    /// Wall time spent compressing.
    pub compress_wall: Duration,
    /// The checker phase, `None` if the checker was not run.
    pub checker: Option<PhaseSummary>,
    /// True if the checker got no time at all (the total budget was used up).
    pub checker_out_of_budget: bool,
    /// The termination signal the wrapper received, if any.
    pub wrapper_signal: Option<i32>,
}

/// Formats a duration as seconds with 2 decimals.
pub fn secs(d: Duration) -> String {
    format!("{:.2}", d.as_secs_f64())
}

fn flag(b: bool) -> String {
    if b { "1" } else { "0" }.to_string()
}

fn exit_pair(prefix: &str, exit: Exit) -> (String, String) {
    match exit {
        Exit::Code(c) => (format!("{prefix}_exit"), c.to_string()),
        Exit::Signal(s) => (format!("{prefix}_signal"), s.to_string()),
    }
}

impl Report {
    /// The pairs in their fixed output order.
    pub fn pairs(&self) -> Vec<(String, String)> {
        let mut v: Vec<(String, String)> = vec![
            ("proofsize".into(), self.proof_size.to_string()),
            (
                "compressedsize".into(),
                self.compressed_size
                    .map(|s| s.to_string())
                    .unwrap_or_default(),
            ),
            ("solver_cpu_time".into(), secs(self.solver.cpu)),
            ("solver_wall_time".into(), secs(self.solver.wall)),
            exit_pair("solver", self.solver.exit),
            ("solver_timeout".into(), flag(self.solver.timed_out)),
            (
                "solver_stderr_truncated".into(),
                flag(self.solver.stderr_truncated),
            ),
            ("proof_truncated".into(), flag(self.proof_truncated)),
            ("compress_wall_time".into(), secs(self.compress_wall)),
        ];
        match &self.checker {
            Some(c) => {
                v.push(("checker_cpu_time".into(), secs(c.cpu)));
                v.push(("checker_wall_time".into(), secs(c.wall)));
                v.push(exit_pair("checker", c.exit));
                v.push(("checker_timeout".into(), flag(c.timed_out)));
                v.push(("checker_stderr_truncated".into(), flag(c.stderr_truncated)));
                v.push(("checker_skipped".into(), flag(false)));
            }
            None => {
                v.push(("checker_timeout".into(), flag(self.checker_out_of_budget)));
                v.push(("checker_skipped".into(), flag(true)));
            }
        }
        if let Some(sig) = self.wrapper_signal {
            v.push(("wrapper_signal".into(), sig.to_string()));
        }
        v
    }

    /// The report as text: one `key=value` line per pair, each ending in `\n`.
    pub fn render(&self) -> String {
        self.pairs()
            .into_iter()
            .map(|(k, v)| format!("{k}={}\n", kv::sanitize_value(&v)))
            .collect()
    }
}

/// Formats `text` as one `; ` comment line (with the trailing newline).
/// Control characters (newlines included), `\` and non-ASCII characters are
/// escaped (`\n`, `\t`, `\\`, `\u{..}`), so the line can never be mistaken for a
/// verdict or a pair.
pub fn comment(text: &str) -> String {
    let mut line = String::from("; ");
    for c in text.chars() {
        match c {
            '\n' => line.push_str("\\n"),
            '\r' => line.push_str("\\r"),
            '\t' => line.push_str("\\t"),
            '\\' => line.push_str("\\\\"),
            c if c.is_ascii_graphic() || c == ' ' => line.push(c),
            c => line.push_str(&c.escape_unicode().to_string()),
        }
    }
    line.push('\n');
    line
}

#[cfg(test)]
mod tests {
    use super::*;

    fn phase(exit: Exit) -> PhaseSummary {
        PhaseSummary {
            cpu: Duration::from_millis(1234),
            wall: Duration::from_millis(5),
            exit,
            timed_out: false,
            stderr_truncated: true,
        }
    }

    #[test]
    fn full_report_has_fixed_order_and_format() {
        let report = Report {
            proof_size: 10,
            compressed_size: Some(7),
            solver: phase(Exit::Code(0)),
            proof_truncated: false,
            compress_wall: Duration::from_micros(4999),
            checker: Some(phase(Exit::Signal(9))),
            checker_out_of_budget: false,
            wrapper_signal: None,
        };
        assert_eq!(
            report.render(),
            "proofsize=10\ncompressedsize=7\nsolver_cpu_time=1.23\nsolver_wall_time=0.01\n\
             solver_exit=0\nsolver_timeout=0\nsolver_stderr_truncated=1\nproof_truncated=0\n\
             compress_wall_time=0.00\nchecker_cpu_time=1.23\nchecker_wall_time=0.01\n\
             checker_signal=9\nchecker_timeout=0\nchecker_stderr_truncated=1\nchecker_skipped=0\n"
        );
    }

    #[test]
    fn skipped_checker_and_signal() {
        let report = Report {
            proof_size: 0,
            compressed_size: None,
            solver: phase(Exit::Signal(15)),
            proof_truncated: true,
            compress_wall: Duration::ZERO,
            checker: None,
            checker_out_of_budget: true,
            wrapper_signal: Some(15),
        };
        let text = report.render();
        assert!(text.starts_with("proofsize=0\ncompressedsize=\n"));
        assert!(text.ends_with("checker_timeout=1\nchecker_skipped=1\nwrapper_signal=15\n"));
        assert!(text.lines().all(|l| kv::parse_pair(l).is_some()));
    }

    #[test]
    fn comments_are_single_escaped_lines() {
        assert_eq!(comment("a\nvalid\t\\é"), "; a\\nvalid\\t\\\\\\u{e9}\n");
        assert_eq!(comment("x\u{7}"), "; x\\u{7}\n");
    }
}
