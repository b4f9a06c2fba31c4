//! Colour on terminals: one decision for the whole process, clap's own
//! (`anstream`): `auto` (the default) colours a stream that is a terminal
//! unless `NO_COLOR` is set (to anything but the empty string,
//! <https://no-color.org>) or `TERM=dumb`; `CLICOLOR_FORCE` (not `0`) forces
//! colour; `--color always|never` overrides both. Piped output never carries
//! escape codes in `auto` mode. The codes are `anstyle`'s.

use anstream::{AutoStream, ColorChoice};
use anstyle::{AnsiColor, Effects};

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

/// Sets the process-wide choice (the CLI does, from `--color`).
pub fn set_choice(choice: ColourChoice) {
    match choice {
        ColourChoice::Auto => ColorChoice::Auto,
        ColourChoice::Always => ColorChoice::Always,
        ColourChoice::Never => ColorChoice::Never,
    }
    .write_global();
}

/// Whether text written to `stream` is coloured.
pub fn enabled(stream: Stream) -> bool {
    let choice = match stream {
        Stream::Stdout => AutoStream::choice(&std::io::stdout()),
        Stream::Stderr => AutoStream::choice(&std::io::stderr()),
    };
    choice != ColorChoice::Never
}

/// `text` in `style` (ANSI SGR) when `on`, else unchanged.
pub fn styled(text: &str, style: Style, on: bool) -> String {
    if !on {
        return text.to_string();
    }
    let s = match style {
        Style::Error => AnsiColor::Red.on_default().effects(Effects::BOLD),
        Style::Warning => AnsiColor::Yellow.on_default().effects(Effects::BOLD),
        Style::Ok => AnsiColor::Green.on_default(),
    };
    format!("{s}{text}{s:#}")
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
    fn styled_wraps_in_sgr_codes() {
        assert_eq!(
            styled("FAIL", Style::Error, true),
            "\x1b[1m\x1b[31mFAIL\x1b[0m"
        );
        assert_eq!(styled("OK", Style::Ok, false), "OK");
    }
}
