//! Colour on terminals: one decision for the whole process. `auto` (the
//! default) colours a stream that is a terminal unless `NO_COLOR` is set (to
//! anything but the empty string, <https://no-color.org>); `CLICOLOR_FORCE`
//! (not `0`) forces colour; `--color always|never` overrides both. Piped output
//! never carries escape codes in `auto` mode.

use std::io::IsTerminal;
use std::sync::atomic::{AtomicU8, Ordering};

/// When to colour (`--color`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ColourChoice {
    /// On terminals, unless `NO_COLOR` (or forced by `CLICOLOR_FORCE`).
    #[default]
    Auto,
    /// Always, even when piped.
    Always,
    /// Never.
    Never,
}

/// The output stream a text goes to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stream {
    /// Standard output.
    Stdout,
    /// Standard error.
    Stderr,
}

/// A style of the few things we colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Style {
    /// `error:` and FAIL: bold red.
    Error,
    /// `warning:`: bold yellow.
    Warning,
    /// OK / PASSED: green.
    Ok,
}

static CHOICE: AtomicU8 = AtomicU8::new(0);

/// Sets the process-wide choice (the CLI does, from `--color`).
pub fn set_choice(choice: ColourChoice) {
    CHOICE.store(
        match choice {
            ColourChoice::Auto => 0,
            ColourChoice::Always => 1,
            ColourChoice::Never => 2,
        },
        Ordering::Relaxed,
    );
}

/// The decision for `choice` given the environment and whether the stream is
/// a terminal (pure: the tests call it with every combination).
pub fn decide(
    choice: ColourChoice,
    no_color: Option<&str>,
    force: Option<&str>,
    terminal: bool,
) -> bool {
    match choice {
        ColourChoice::Always => true,
        ColourChoice::Never => false,
        ColourChoice::Auto => {
            if force.is_some_and(|v| !v.is_empty() && v != "0") {
                return true;
            }
            if no_color.is_some_and(|v| !v.is_empty()) {
                return false;
            }
            terminal
        }
    }
}

/// Whether text written to `stream` is coloured.
pub fn enabled(stream: Stream) -> bool {
    let choice = match CHOICE.load(Ordering::Relaxed) {
        1 => ColourChoice::Always,
        2 => ColourChoice::Never,
        _ => ColourChoice::Auto,
    };
    let terminal = match stream {
        Stream::Stdout => std::io::stdout().is_terminal(),
        Stream::Stderr => std::io::stderr().is_terminal(),
    };
    decide(
        choice,
        std::env::var("NO_COLOR").ok().as_deref(),
        std::env::var("CLICOLOR_FORCE").ok().as_deref(),
        terminal,
    )
}

/// `text` in `style` (ANSI SGR) when `on`, else unchanged.
pub fn styled(text: &str, style: Style, on: bool) -> String {
    if !on {
        return text.to_string();
    }
    let code = match style {
        Style::Error => "1;31",
        Style::Warning => "1;33",
        Style::Ok => "32",
    };
    format!("\x1b[{code}m{text}\x1b[0m")
}

/// `text` in `style` if `stream` is coloured.
pub fn paint(stream: Stream, style: Style, text: &str) -> String {
    styled(text, style, enabled(stream))
}

/// The `error:` prefix of a message on standard error.
pub fn error_prefix() -> String {
    paint(Stream::Stderr, Style::Error, "error:")
}

/// The `warning:` prefix of a message on standard error.
pub fn warning_prefix() -> String {
    paint(Stream::Stderr, Style::Warning, "warning:")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn auto_colours_terminals_only_and_respects_no_color() {
        use ColourChoice::*;
        assert!(decide(Auto, None, None, true));
        assert!(!decide(Auto, None, None, false), "piped: no colour");
        assert!(!decide(Auto, Some("1"), None, true), "NO_COLOR");
        assert!(
            decide(Auto, Some(""), None, true),
            "empty NO_COLOR is unset"
        );
        assert!(decide(Auto, None, Some("1"), false), "CLICOLOR_FORCE");
        assert!(!decide(Auto, None, Some("0"), false));
        assert!(decide(Always, Some("1"), None, false));
        assert!(!decide(Never, None, Some("1"), true));
    }

    #[test]
    fn styled_wraps_in_sgr_codes() {
        assert_eq!(styled("FAIL", Style::Error, true), "\x1b[1;31mFAIL\x1b[0m");
        assert_eq!(styled("OK", Style::Ok, false), "OK");
    }
}
