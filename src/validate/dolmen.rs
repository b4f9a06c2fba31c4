//! Dolmen, called as the organizers do (anchor spec 8.2): the whole solver
//! output on stdin, the scrambled benchmark as argument, and the verdict from
//! the exit code or the last stderr line.

use super::process;
use crate::model::Answer;
use std::path::Path;
use std::time::Duration;

/// Dolmen's arguments (before the benchmark), for a time limit in seconds.
pub fn args(timeout_secs: u64, force_all: bool) -> Vec<String> {
    let mut a = vec![
        format!("--time={timeout_secs}s"),
        "--size=40G".into(),
        "--strict=false".into(),
        "--check-model=true".into(),
        "--report-style=minimal".into(),
        "--warn=-all".into(),
    ];
    if force_all {
        a.push("--force-smtlib2-logic=ALL".into());
    }
    a
}

/// An outcome of Dolmen that its table of results does not know.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "unknown validator error: exit code {}, last stderr line `{last_line}`",
    code.map_or("none (killed)".to_string(), |c| c.to_string())
)]
pub struct UnknownOutcome {
    /// Its exit code (`None`: killed by a signal).
    pub code: Option<i32>,
    /// Its last non-blank stderr line, shown safely.
    pub last_line: String,
}

/// Maps Dolmen's exit code and last stderr line to a result and reason
/// (anchor spec 8.2). `Err` for an outcome the table does not know (the
/// reference tool raises "Unknown validator error"; we report it).
pub fn interpret(
    code: Option<i32>,
    stderr: &[u8],
) -> Result<(Answer, Option<String>), UnknownOutcome> {
    let text = String::from_utf8_lossy(stderr);
    let last = text
        .lines()
        .rev()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .unwrap_or("")
        .to_string();
    match code {
        Some(0) => return Ok((Answer::Sat, None)),
        Some(2) => {
            return Ok((
                Answer::ModelValidatorTimeout,
                Some("dolmen: exit code 2".into()),
            ));
        }
        _ => {}
    }
    let table: [(&str, Answer); 11] = [
        ("E:bad-model", Answer::ModelUnsat),
        ("E:timeout", Answer::ModelValidatorTimeout),
        ("E:uncaught-exn", Answer::ModelValidatorException),
        (
            "E:forbidden-array-sort",
            Answer::ModelValidatorBenchmarkStrictTyping,
        ),
        (
            "E:non-linear-expr",
            Answer::ModelValidatorBenchmarkStrictTyping,
        ),
        ("E:id-def-conflict", Answer::ModelParsingError),
        ("E:parsing-error", Answer::ModelParsingError),
        ("E:lexing-error", Answer::ModelParsingError),
        ("E:unbound-id", Answer::ModelParsingError),
        ("E:undefined-constant", Answer::ModelParsingError),
        ("E:partial-dstr", Answer::ModelPartialFunctionMissing),
    ];
    for (suffix, answer) in table {
        if last.ends_with(suffix) {
            return Ok((answer, Some(format!("dolmen: {last}"))));
        }
    }
    Err(UnknownOutcome {
        code,
        last_line: super::model_text::shown(last.as_bytes()),
    })
}

/// Runs Dolmen on one model; returns the result, reason and whether the
/// verdict may be cached. A cached `E:forbidden-array-sort` is never stored:
/// that outcome is retried at once with `--force-smtlib2-logic=ALL` (what the
/// reference tool does on its next run).
pub fn check(
    dolmen: &Path,
    benchmark: &Path,
    output: &[u8],
    timeout_secs: u64,
) -> (Answer, Option<String>, bool) {
    let mut force_all = false;
    loop {
        let argv: Vec<String> = std::iter::once(dolmen.display().to_string())
            .chain(args(timeout_secs, force_all))
            .collect();
        // Dolmen enforces --time itself; our limit is a safety net.
        let limit = Duration::from_secs(timeout_secs.saturating_add(60));
        let f = match process::run(&argv, &[benchmark], Some(output), limit) {
            Ok(f) => f,
            Err(e) => return (Answer::ModelValidatorException, Some(e.to_string()), false),
        };
        if f.timed_out {
            return (
                Answer::ModelValidatorTimeout,
                Some(format!("dolmen killed after {timeout_secs}+60 s")),
                true,
            );
        }
        match interpret(f.code(), &f.stderr) {
            Ok((Answer::ModelValidatorBenchmarkStrictTyping, r))
                if !force_all
                    && r.as_deref()
                        .is_some_and(|r| r.ends_with("E:forbidden-array-sort")) =>
            {
                force_all = true;
            }
            Ok((a, r)) => return (a, r, true),
            Err(e) => return (Answer::ModelValidatorException, Some(e.to_string()), false),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exit_codes_and_last_lines() {
        assert_eq!(interpret(Some(0), b"").unwrap().0, Answer::Sat);
        assert_eq!(
            interpret(Some(2), b"").unwrap().0,
            Answer::ModelValidatorTimeout
        );
        let (a, r) = interpret(Some(5), b"noise\nF:x E:bad-model\n\n").unwrap();
        assert_eq!(a, Answer::ModelUnsat);
        assert_eq!(r.as_deref(), Some("dolmen: F:x E:bad-model"));
        assert_eq!(
            interpret(Some(1), b"E:unbound-id").unwrap().0,
            Answer::ModelParsingError
        );
        assert_eq!(
            interpret(Some(1), b"E:partial-dstr").unwrap().0,
            Answer::ModelPartialFunctionMissing
        );
        assert_eq!(
            interpret(Some(1), b"E:new-thing").unwrap_err(),
            UnknownOutcome {
                code: Some(1),
                last_line: "E:new-thing".into()
            }
        );
        assert!(
            interpret(None, b"")
                .unwrap_err()
                .to_string()
                .contains("none (killed)")
        );
    }
}
