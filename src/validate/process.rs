//! Running a validator process (a trusted solver, Dolmen, a core validator)
//! with a wall-clock limit, bounded output capture and optional stdin.

use crate::util::process::{Finished, Sink, Source, StartError, Supervised};
use std::path::Path;
use std::time::Duration;

/// Splits a command line on whitespace (commands are given as `"z3 -smt2"`).
pub fn split_command(cmd: &str) -> Vec<String> {
    cmd.split_whitespace().map(str::to_string).collect()
}

/// Runs `argv` (program and arguments) with `extra` appended, feeding `stdin`,
/// killing it (and everything it started) after `limit`. An error means it
/// could not be started.
pub fn run(
    argv: &[String],
    extra: &[&Path],
    stdin: Option<&[u8]>,
    limit: Duration,
) -> Result<Finished, StartError> {
    if argv.is_empty() {
        return Err(StartError::Empty);
    }
    let mut full = argv.to_vec();
    full.extend(extra.iter().map(|p| p.to_string_lossy().into_owned()));
    let mut p = Supervised::new(full, limit);
    p.stdin = stdin.map_or(Source::Null, |b| Source::Bytes(b.to_vec()));
    p.stdout = Sink::capture();
    p.stderr = Sink::capture();
    crate::util::process::run(p)
}

/// The first output line that is a check-sat answer (`sat`, `unsat`,
/// `unknown`) by the one answer-line rule; `None` when another line decides.
pub fn first_answer(stdout: &[u8]) -> Option<&'static str> {
    crate::formats::answer_line::check_sat_word(stdout)
}

/// The first `(error "...")` line of the output, trimmed, if any.
pub fn first_error(stdout: &[u8]) -> Option<String> {
    stdout
        .split(|&b| b == b'\n')
        .map(|l| String::from_utf8_lossy(l).trim().to_string())
        .find(|l| l.starts_with("(error"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_and_errors() {
        assert_eq!(first_answer(b"success\nsat\n(model)"), Some("sat"));
        assert_eq!(first_answer(b"(error \"x\")\nsat\n"), None);
        assert_eq!(first_answer(b""), None);
        assert_eq!(
            first_error(b"(error \"line 3: unknown\")\nsat\n").as_deref(),
            Some("(error \"line 3: unknown\")")
        );
    }

    #[test]
    fn time_limit_and_stdin() {
        let sh = split_command("sh -c");
        let f = run(
            &[sh.clone(), vec!["sleep 5".into()]].concat(),
            &[],
            None,
            Duration::from_millis(200),
        )
        .unwrap();
        assert!(f.timed_out && f.code().is_none() && f.elapsed.as_secs_f64() < 4.0);
        let f = run(
            &[sh, vec!["cat; exit 3".into()]].concat(),
            &[],
            Some(b"hello"),
            Duration::from_secs(10),
        )
        .unwrap();
        assert_eq!((f.code(), f.stdout.as_slice()), (Some(3), &b"hello"[..]));
        assert!(
            run(
                &["/nonexistent/x".into()],
                &[],
                None,
                Duration::from_secs(1)
            )
            .is_err()
        );
    }
}
