//! Escaping for everything we emit: XML text and attributes, POSIX shell words,
//! YAML single-quoted scalars; and the checks that decide whether a command-line
//! argument can be passed through BenchExec exactly.

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

/// A YAML single-quoted scalar.
pub fn yaml(s: &str) -> String {
    format!("'{}'", s.replace('\'', "''"))
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
