//! Escaping for everything we emit: XML text and attributes, HTML, POSIX shell
//! words, YAML single-quoted scalars, file names from solver names; and the
//! checks that decide whether a command-line argument can be passed through
//! BenchExec exactly.

use std::sync::LazyLock;

/// Escapes XML character data and attribute values (`&<>"'`; tab, newline and
/// carriage return as character references so attributes keep them).
pub fn xml(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\t' => out.push_str("&#9;"),
            '\n' => out.push_str("&#10;"),
            '\r' => out.push_str("&#13;"),
            c => out.push(c),
        }
    }
    out
}

/// Escapes HTML text and attribute values (`& < > " '`); control characters
/// other than tab and newline (which HTML cannot carry) become U+FFFD.
pub fn html(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c if c.is_control() && c != '\n' && c != '\t' => out.push('\u{FFFD}'),
            c => out.push(c),
        }
    }
    out
}

/// Quotes a word for POSIX shells: unchanged if it only has safe characters,
/// otherwise single-quoted with `'\''` for embedded quotes.
pub fn shell(s: &str) -> String {
    if !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./+=:,@%".contains(c))
    {
        return s.to_string();
    }
    format!("'{}'", s.replace('\'', "'\\''"))
}

/// A YAML scalar holding exactly `s`: single-quoted (`'it''s'`) when `s` has
/// no character YAML treats specially inside quotes, otherwise double-quoted
/// with escapes. Line breaks of any kind (LF, CR, NEL U+0085, LS U+2028,
/// PS U+2029), other control characters and BOM/non-characters are escaped,
/// so a hostile file name can never start a second key in a task file.
pub fn yaml(s: &str) -> String {
    let special = |c: char| {
        c.is_control()
            || matches!(
                c,
                '\u{85}' | '\u{2028}' | '\u{2029}' | '\u{feff}' | '\u{fffe}' | '\u{ffff}'
            )
    };
    if !s.chars().any(special) {
        return format!("'{}'", s.replace('\'', "''"));
    }
    let mut out = String::with_capacity(s.len() + 8);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if special(c) && (c as u32) <= 0xff => out.push_str(&format!("\\x{:02X}", c as u32)),
            c if special(c) => out.push_str(&format!("\\u{:04X}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

static ENV_VAR: LazyLock<regex::Regex> =
    LazyLock::new(|| regex::Regex::new(r"\$(\w+|\{[^}]*\})").expect("valid regex"));

/// Why `arg` cannot be passed to a solver exactly through a BenchExec `<option>`,
/// or `None` if it can. BenchExec rejects empty arguments, runs every argument
/// through `os.path.expandvars`/`expanduser`, and XML 1.0 cannot carry most
/// control characters (and normalizes carriage returns).
pub fn argument_problem(arg: &str) -> Option<String> {
    if arg.is_empty() {
        return Some("empty argument (BenchExec aborts the run)".to_string());
    }
    if let Some(c) = arg
        .chars()
        .find(|c| c.is_control() && *c != '\t' && *c != '\n')
    {
        return Some(format!(
            "control character U+{:04X} cannot be written to the XML definition",
            c as u32
        ));
    }
    if ENV_VAR.is_match(arg) {
        return Some(
            "contains $NAME or ${...}, which BenchExec replaces from its environment".to_string(),
        );
    }
    if arg.starts_with('~') {
        return Some("starts with '~', which BenchExec expands to a home directory".to_string());
    }
    None
}

/// A file-name-safe form of `name`: ASCII letters, digits, `-`, `_`, `.` and `+`
/// are kept, every other run of characters becomes one `_`; leading and trailing
/// `_`/`.` are removed (no hidden files, no `..`). Never empty (`solver`).
pub fn sanitize(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    for c in name.chars() {
        if c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | '+') {
            out.push(c);
        } else if !out.ends_with('_') {
            out.push('_');
        }
    }
    let trimmed = out.trim_matches(|c| c == '_' || c == '.');
    if trimmed.is_empty() {
        "solver".to_string()
    } else {
        trimmed.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn xml_escapes_markup_and_quotes() {
        assert_eq!(xml(r#"a<&"' /b"#), "a&lt;&amp;&quot;&apos; /b");
        assert_eq!(xml("x\ny"), "x&#10;y");
    }

    #[test]
    fn shell_quotes_only_when_needed() {
        assert_eq!(
            shell("definitions/z3_QF_BV.xml"),
            "definitions/z3_QF_BV.xml"
        );
        assert_eq!(shell("a b"), "'a b'");
        assert_eq!(shell("it's"), "'it'\\''s'");
        assert_eq!(shell(""), "''");
        assert_eq!(shell("$HOME"), "'$HOME'");
    }

    #[test]
    fn yaml_doubles_single_quotes() {
        assert_eq!(yaml("it's"), "'it''s'");
    }

    #[test]
    fn yaml_escapes_every_line_break() {
        // The task-file injection: a CR (or NEL, LS, PS) must not end the scalar.
        assert_eq!(yaml("a\rinput_files: x"), "\"a\\rinput_files: x\"");
        assert_eq!(yaml("a\u{85}b"), "\"a\\x85b\"");
        assert_eq!(yaml("a\u{2028}b\u{2029}"), "\"a\\u2028b\\u2029\"");
        assert_eq!(yaml("q\"\\\n\u{1}"), "\"q\\\"\\\\\\n\\x01\"");
    }

    #[test]
    fn arguments_that_benchexec_would_change_are_rejected() {
        assert!(argument_problem("").is_some());
        assert!(argument_problem("$HOME/x").is_some());
        assert!(argument_problem("${X}").is_some());
        assert!(argument_problem("~/x").is_some());
        assert!(argument_problem("a\u{1}b").is_some());
        assert!(argument_problem("a\rb").is_some());
        assert_eq!(argument_problem("--opt=1 $"), None);
        assert_eq!(argument_problem("it's \"q\" <&>"), None);
    }
}
