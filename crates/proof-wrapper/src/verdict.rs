//! Result interpreter: turns the wrapper's output into the track's verdict and
//! its `key=value` table.
//!
//! It reproduces the old post-processor `proof-track/process` (spec §5.3):
//! StarExec's `cpu/wall\t` line prefixes are stripped, blank lines and `;`
//! comments are dropped, and the **first** remaining line decides:
//!
//! | first line | verdict | `starexec-result` | `reason` |
//! |---|---|---|---|
//! | `valid` | [`ProofVerdict::Valid`] | `unsat` | `valid` |
//! | `holey` | [`ProofVerdict::Holey`] | `unsat` | `holey` |
//! | `sat` | [`ProofVerdict::Sat`] | `sat` | — |
//! | `invalid` | [`ProofVerdict::Invalid`] | `starexec-unknown` | `invalid` |
//! | `unknown` | [`ProofVerdict::Unknown`] | `starexec-unknown` | `unknown` |
//! | `EOF`, or none (see below) | [`ProofVerdict::Timeout`] | `starexec-unknown` | `timeout` |
//! | anything else | [`ProofVerdict::Error`] | `starexec-unknown` | `error` |
//!
//! The verdict word may be surrounded by whitespace but must be alone on its line.
//! Under BenchExec there is no `EOF` marker, so when no verdict line exists the
//! interpreter reads the wrapper's keys: `solver_timeout=1`, `checker_timeout=1`
//! or `wrapper_signal=N` mean timeout, and so does output that stops before any
//! non-comment line (the wrapper was killed before the checker said anything).
//! Every line matching `^[-A-Za-z0-9_]+=[-A-Za-z0-9_.]*$` is collected in order.

use std::fmt;
use std::str::FromStr;

use super::kv::{self, KeyValues};

/// Longest verdict line kept in [`ProofOutcome::verdict_line`] (in characters).
pub const MAX_KEPT_LINE: usize = 200;

/// The track's verdict for one run. The string names (see [`ProofVerdict::as_str`])
/// are stable and equal the old post-processor's `reason` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "lowercase")
)]
pub enum ProofVerdict {
    /// The checker certified the proof.
    Valid,
    /// The proof is valid but has unchecked steps (holes).
    Holey,
    /// The checker rejected the proof (an erroneous result).
    Invalid,
    /// The solver claimed `sat` on an unsat benchmark (an erroneous result).
    Sat,
    /// Solver unknown, unsat without proof, or solver error (not erroneous).
    Unknown,
    /// Killed (by the wrapper's limit or the harness) before the checker answered.
    Timeout,
    /// No recognisable verdict (checker silent, crashed, or printed garbage).
    Error,
}

impl ProofVerdict {
    /// All verdicts, in a fixed order.
    pub const ALL: [ProofVerdict; 7] = [
        ProofVerdict::Valid,
        ProofVerdict::Holey,
        ProofVerdict::Invalid,
        ProofVerdict::Sat,
        ProofVerdict::Unknown,
        ProofVerdict::Timeout,
        ProofVerdict::Error,
    ];

    /// Stable lowercase name: `valid`, `holey`, `invalid`, `sat`, `unknown`, `timeout`, `error`.
    pub fn as_str(self) -> &'static str {
        match self {
            ProofVerdict::Valid => "valid",
            ProofVerdict::Holey => "holey",
            ProofVerdict::Invalid => "invalid",
            ProofVerdict::Sat => "sat",
            ProofVerdict::Unknown => "unknown",
            ProofVerdict::Timeout => "timeout",
            ProofVerdict::Error => "error",
        }
    }

    /// True for the results the rules call erroneous: `invalid` and `sat`.
    pub fn is_erroneous(self) -> bool {
        matches!(self, ProofVerdict::Invalid | ProofVerdict::Sat)
    }

    /// True if the checker accepted an unsat proof (`valid` or `holey`).
    pub fn is_accepted(self) -> bool {
        matches!(self, ProofVerdict::Valid | ProofVerdict::Holey)
    }

    /// The old post-processor's `starexec-result` value.
    pub fn starexec_result(self) -> &'static str {
        match self {
            ProofVerdict::Valid | ProofVerdict::Holey => "unsat",
            ProofVerdict::Sat => "sat",
            _ => "starexec-unknown",
        }
    }

    /// The old post-processor's `reason` value (`None` for `sat`, which had none).
    pub fn reason(self) -> Option<&'static str> {
        match self {
            ProofVerdict::Sat => None,
            v => Some(v.as_str()),
        }
    }

    /// Suggested BenchExec result for a tool-info module (spec benchexec-formats §3.7):
    /// `false` (unsat) for valid/holey, `true` for sat (wrong, the benchmarks are
    /// unsat), `ERROR (invalid proof)` for invalid, `unknown`, `TIMEOUT`, `ERROR`.
    pub fn benchexec_result(self) -> &'static str {
        match self {
            ProofVerdict::Valid | ProofVerdict::Holey => "false",
            ProofVerdict::Sat => "true",
            ProofVerdict::Invalid => "ERROR (invalid proof)",
            ProofVerdict::Unknown => "unknown",
            ProofVerdict::Timeout => "TIMEOUT",
            ProofVerdict::Error => "ERROR",
        }
    }
}

impl fmt::Display for ProofVerdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Error of [`ProofVerdict::from_str`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownVerdict(pub String);

impl fmt::Display for UnknownVerdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown proof verdict '{}'", self.0)
    }
}

impl std::error::Error for UnknownVerdict {}

impl FromStr for ProofVerdict {
    type Err = UnknownVerdict;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        ProofVerdict::ALL
            .into_iter()
            .find(|v| v.as_str() == s)
            .ok_or_else(|| UnknownVerdict(s.to_string()))
    }
}

/// The interpretation of one wrapper output.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ProofOutcome {
    /// The verdict.
    pub verdict: ProofVerdict,
    /// The first non-comment line (trimmed, cut to [`MAX_KEPT_LINE`] characters),
    /// `None` if there was none.
    pub verdict_line: Option<String>,
    /// Every well-formed `key=value` line, in order (checker's and wrapper's).
    pub values: KeyValues,
}

/// Length of StarExec's `cpu/wall\t` stamp at the start of `line`, if any: the
/// match of the regex `^[0-9]*\.[0-9]*/[0-9]*.[0-9]*\t` (the second `.` is
/// any character but a newline, as in the StarExec-era interpreter).
fn starexec_prefix_len(line: &str) -> Option<usize> {
    let digits = |s: &str| s.bytes().take_while(u8::is_ascii_digit).count();
    let mut at = digits(line);
    if !line[at..].starts_with('.') {
        return None;
    }
    at += 1;
    at += digits(&line[at..]);
    if !line[at..].starts_with('/') {
        return None;
    }
    at += 1;
    // `[0-9]*` is greedy and backtracks: try the longest digit run first.
    let rest = &line[at..];
    (0..=digits(rest)).rev().find_map(|k| {
        let any = rest[k..].chars().next().filter(|&c| c != '\n')?;
        let after = k + any.len_utf8();
        let tab = after + digits(&rest[after..]);
        rest[tab..].starts_with('\t').then_some(at + tab + 1)
    })
}

/// Strips StarExec's `cpu/wall\t` prefix and a trailing `\r`.
fn clean_line(line: &str) -> &str {
    let line = line.strip_suffix('\r').unwrap_or(line);
    match starexec_prefix_len(line) {
        Some(end) => &line[end..],
        None => line,
    }
}

fn is_comment_or_blank(line: &str) -> bool {
    let t = line.trim_start();
    t.is_empty() || t.starts_with(';')
}

/// Interprets raw output bytes (invalid UTF-8 is replaced, never rejected).
pub fn interpret_bytes(output: &[u8]) -> ProofOutcome {
    interpret(&String::from_utf8_lossy(output))
}

/// Interprets the wrapper's stdout (or a StarExec job output with stamps).
pub fn interpret(output: &str) -> ProofOutcome {
    let mut first: Option<&str> = None;
    let mut values = KeyValues::new();
    for raw in output.split('\n') {
        let line = clean_line(raw);
        if first.is_none() && !is_comment_or_blank(line) {
            first = Some(line.trim());
        }
        if let Some((k, v)) = kv::parse_pair(line) {
            values.push(k, v);
        }
    }
    let word_verdict = first.and_then(|l| match l {
        "EOF" => Some(ProofVerdict::Timeout),
        "unsat" | "error" | "timeout" => None, // not checker answers
        other => other.parse().ok(),
    });
    let killed = values.flag("solver_timeout") == Some(true)
        || values.flag("checker_timeout") == Some(true)
        || values.get("wrapper_signal").is_some();
    let verdict = match (word_verdict, first) {
        (Some(v), _) => v,
        (None, None) => ProofVerdict::Timeout,
        (None, Some(_)) if killed => ProofVerdict::Timeout,
        (None, Some(_)) => ProofVerdict::Error,
    };
    ProofOutcome {
        verdict,
        verdict_line: first.map(|l| l.chars().take(MAX_KEPT_LINE).collect()),
        values,
    }
}

impl ProofOutcome {
    /// Proof size in bytes (`proofsize`).
    pub fn proof_size(&self) -> Option<u64> {
        self.values.get_u64("proofsize")
    }

    /// Compressed proof size (`compressedsize`; `None` when empty or absent).
    pub fn compressed_size(&self) -> Option<u64> {
        self.values.get_u64("compressedsize")
    }

    /// Solver CPU time in seconds.
    pub fn solver_cpu_time(&self) -> Option<f64> {
        self.values.get_f64("solver_cpu_time")
    }

    /// Solver wall time in seconds.
    pub fn solver_wall_time(&self) -> Option<f64> {
        self.values.get_f64("solver_wall_time")
    }

    /// Checker CPU time in seconds.
    pub fn checker_cpu_time(&self) -> Option<f64> {
        self.values.get_f64("checker_cpu_time")
    }

    /// Checker wall time in seconds.
    pub fn checker_wall_time(&self) -> Option<f64> {
        self.values.get_f64("checker_wall_time")
    }

    /// True if `--max-proof-bytes` cut the proof.
    pub fn proof_truncated(&self) -> bool {
        self.values.flag("proof_truncated") == Some(true)
    }

    /// True if the wrapper's report (its `proofsize=` line) is present, i.e. the
    /// wrapper was not killed before the end.
    pub fn has_wrapper_report(&self) -> bool {
        self.values.get("proofsize").is_some() && self.values.get("checker_skipped").is_some()
    }

    /// The old post-processor's output: `starexec-result=...`, `reason=...`
    /// (absent for sat), then every collected pair, one per line.
    pub fn postprocessor_lines(&self) -> String {
        let mut out = format!("starexec-result={}\n", self.verdict.starexec_result());
        if let Some(reason) = self.verdict.reason() {
            out.push_str(&format!("reason={reason}\n"));
        }
        for (k, v) in self.values.pairs() {
            out.push_str(&format!("{k}={v}\n"));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for v in ProofVerdict::ALL {
            assert_eq!(v.as_str().parse::<ProofVerdict>(), Ok(v));
            assert_eq!(v.to_string(), v.as_str());
            #[cfg(feature = "serde")]
            assert_eq!(serde_json::to_string(&v).unwrap(), format!("\"{v}\""));
        }
        assert!("Valid".parse::<ProofVerdict>().is_err());
    }

    #[test]
    fn starexec_stamps() {
        for (line, clean) in [
            ("0.01/0.02\tvalid", "valid"),
            ("./\tvalid", "./\tvalid"),
            ("./x\tvalid", "valid"),
            ("1.5/23\tx", "x"),
            ("1.5/2x3\ty", "y"),
            ("1.5/2\t\ty", "y"),
            ("1.5/2é\ty", "y"),
            ("1.5/2\r", "1.5/2"),
            ("1.5/2xy\tz", "1.5/2xy\tz"),
            ("1/2\tz", "1/2\tz"),
            ("valid\r", "valid"),
            ("", ""),
        ] {
            assert_eq!(clean_line(line), clean, "{line:?}");
        }
    }

    #[test]
    fn classification() {
        use ProofVerdict::*;
        let erroneous: Vec<_> = ProofVerdict::ALL
            .into_iter()
            .filter(|v| v.is_erroneous())
            .collect();
        assert_eq!(erroneous, [Invalid, Sat]);
        assert!(Valid.is_accepted() && Holey.is_accepted() && !Unknown.is_accepted());
        assert_eq!(Sat.reason(), None);
        assert_eq!(Timeout.reason(), Some("timeout"));
    }
}
