//! Fault injection for the kill-anywhere tests: with `SMTCOMP_FAULT=SIG@POINT`
//! in the environment, the process sends itself `SIG` (`KILL`, `INT`, `TERM`
//! or `HUP`) the first time it reaches the named point, exactly as if an
//! operator or the machine had chosen that instant. Without the variable,
//! [`point`] costs one load of a cached value.
//!
//! Points (see `docs/reliability.md`):
//! - `before:STAGE`: a stage is about to be decided and done;
//! - `stamp:STAGE`: a cached stage's work is done, its cache stamp not written;
//! - `after:STAGE`: a stage ended (done, resumed or skipped);
//! - `runs:after-definition`: a BenchExec call of the runs round ended, the
//!   next not started;
//! - `write:FILE`: a data file (`runs-ingested.jsonl.gz`, ...) is written to
//!   its temporary name and not yet renamed into place.
//!
//! A signal our handler catches ([`crate::util::interrupt`]) ends the process
//! from the handler's thread; this thread then waits for that, so that
//! nothing after the point happens.

use std::sync::OnceLock;

/// The injected fault: the signal and the point.
fn armed() -> Option<&'static (i32, String)> {
    static FAULT: OnceLock<Option<(i32, String)>> = OnceLock::new();
    FAULT
        .get_or_init(|| {
            let v = std::env::var("SMTCOMP_FAULT").ok()?;
            parse(&v)
        })
        .as_ref()
}

/// `SIG@POINT` as a signal number and a point (`None`: not a fault spec).
pub fn parse(spec: &str) -> Option<(i32, String)> {
    let (sig, point) = spec.split_once('@')?;
    let sig = match sig.trim_start_matches("SIG") {
        "KILL" => libc::SIGKILL,
        "INT" => libc::SIGINT,
        "TERM" => libc::SIGTERM,
        "HUP" => libc::SIGHUP,
        _ => return None,
    };
    (!point.is_empty()).then(|| (sig, point.to_string()))
}

/// The point `kind:name` is reached: the armed fault fires if it names it.
pub fn point(kind: &str, name: &str) {
    let Some((sig, at)) = armed() else { return };
    if at.strip_prefix(kind).and_then(|r| r.strip_prefix(':')) == Some(name) {
        fire(*sig);
    }
}

fn fire(sig: i32) {
    // SAFETY: raise(3) on this process.
    unsafe { libc::raise(sig) };
    // A caught signal: the interrupt watcher stops the children and exits.
    loop {
        std::thread::sleep(std::time::Duration::from_secs(3600));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_name_a_signal_and_a_point() {
        assert_eq!(
            parse("KILL@before:runs"),
            Some((libc::SIGKILL, "before:runs".into()))
        );
        assert_eq!(
            parse("SIGINT@write:runs-ingested.jsonl.gz"),
            Some((libc::SIGINT, "write:runs-ingested.jsonl.gz".into()))
        );
        assert_eq!(parse("STOP@before:runs"), None);
        assert_eq!(parse("KILL@"), None);
        assert_eq!(parse("before:runs"), None);
    }
}
