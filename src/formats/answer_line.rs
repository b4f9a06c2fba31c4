//! The answer-line rule, in one place: the first output line that is not
//! blank, `success` or a `;` comment decides a single-query answer (rules;
//! anchor spec 9.3 #52), and only `sat`/`unsat` alone on that line are
//! answers. Ingestion, test-solver and the validators use these functions; the
//! tool-info modules' `common.first_answer` implements the same rule in
//! Python, and both are checked on the shared fixtures
//! `tool-info/tests/answer-lines/cases.json`.

use crate::formats::runtable::RunAnswer;

/// Longest deciding line kept (characters).
pub const MAX_LINE_CHARS: usize = 200;

/// The deciding line, trimmed and cut to [`MAX_LINE_CHARS`], and the byte
/// offset just after it in `output` (where an unsat core or model starts).
pub fn deciding_line(output: &[u8]) -> Option<(String, usize)> {
    let mut pos = 0;
    for line in output.split_inclusive(|&b| b == b'\n') {
        pos += line.len();
        let text = String::from_utf8_lossy(line);
        let t = text.trim();
        if t.is_empty() || t == "success" || t.starts_with(';') {
            continue;
        }
        return Some((t.chars().take(MAX_LINE_CHARS).collect(), pos));
    }
    None
}

/// The answer a deciding line gives: `sat`/`unsat` alone on the line, anything
/// else is no answer.
pub fn line_answer(line: &str) -> RunAnswer {
    match line {
        "sat" => RunAnswer::Sat,
        "unsat" => RunAnswer::Unsat,
        _ => RunAnswer::Unknown,
    }
}

/// `sat`, `unsat` or `unknown` when the deciding line is exactly one of them.
pub fn check_sat_word(output: &[u8]) -> Option<&'static str> {
    match deciding_line(output)?.0.as_str() {
        "sat" => Some("sat"),
        "unsat" => Some("unsat"),
        "unknown" => Some("unknown"),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shared_fixtures_with_the_tool_info_modules() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tool-info/tests/answer-lines/cases.json"
        );
        let v: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        let cases = v["cases"].as_array().unwrap();
        assert!(cases.len() >= 10);
        for c in cases {
            let out = c["output"].as_str().unwrap().as_bytes();
            let line = deciding_line(out).map(|(l, _)| l);
            assert_eq!(line.as_deref(), c["line"].as_str(), "{c}");
            let want = match c["answer"].as_str() {
                Some("sat") => RunAnswer::Sat,
                Some("unsat") => RunAnswer::Unsat,
                _ => RunAnswer::Unknown,
            };
            assert_eq!(
                line.as_deref().map_or(RunAnswer::Unknown, line_answer),
                want,
                "{c}"
            );
            let word = c["answer"]
                .as_str()
                .filter(|a| ["sat", "unsat", "unknown"].contains(a));
            assert_eq!(check_sat_word(out), word, "{c}");
        }
    }

    #[test]
    fn offset_points_after_the_line_and_long_lines_are_cut() {
        assert_eq!(
            deciding_line(b"success\nunsat\n(a)"),
            Some(("unsat".into(), 14))
        );
        let long = "x".repeat(1000);
        assert_eq!(
            deciding_line(long.as_bytes()).unwrap().0.len(),
            MAX_LINE_CHARS
        );
    }
}
