//! Locating the command an incremental solver answered badly: the trace
//! executor's protocol line (`BAD response to status command: '...'`) does not
//! say which command it was, so the run is replayed outside BenchExec with the
//! same executor, command and benchmark (under a deadline), and the executor's `--stats` file
//! names the last command sent. Only a diagnosis: the verdict is BenchExec's.

use super::diagnose::{Located, command_text};
use crate::util::process::{self, Sink, Supervised};
use std::path::Path;
use std::time::Duration;

/// Replays `command` (the solver argv) on the incremental `file` with the
/// trace executor of `bin_dir` and a watchdog of `time_s` seconds; the stats go
/// go to `OUT/replay/<file>.stats.jsonl`. `None` when the replay does not end on a bad
/// response (the failure did not reproduce) or cannot run.
pub fn locate(
    bin_dir: &Path,
    command: &[String],
    file: &Path,
    time_s: u32,
    out: &Path,
) -> Option<Located> {
    if command.is_empty() {
        return None;
    }
    let dir = out.join("replay");
    std::fs::create_dir_all(&dir).ok()?;
    let stats = dir.join(format!(
        "{}.stats.jsonl",
        file.file_name()?.to_string_lossy()
    ));
    let _ = std::fs::remove_file(&stats);
    let err_path = dir.join(format!("{}.stderr", file.file_name()?.to_string_lossy()));
    let _ = std::fs::remove_file(&err_path);
    let mut argv = vec![
        bin_dir
            .join("smtcomp-trace-executor")
            .to_string_lossy()
            .into_owned(),
        format!("--te-stats={}", stats.display()),
        format!("--te-timeout={time_s}"),
        format!("--te-solver-stderr={}", err_path.display()),
        "--te-solver-stderr-limit=1000000".to_string(),
        "--".to_string(),
    ];
    argv.extend(command.iter().cloned());
    argv.push(file.to_string_lossy().into_owned());
    let mut call = Supervised::new(argv, Duration::from_secs_f64(time_s as f64 + 30.0));
    call.stdout = Sink::Null;
    call.stderr = Sink::Null;
    process::run(call).ok()?;
    let stderr_tail = stderr_tail(&err_path);
    let text = std::fs::read_to_string(&stats).ok()?;
    let records: Vec<serde_json::Value> = text
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect();
    let end = records.iter().find(|r| r["kind"] == "end")?;
    if end["outcome"] != "bad" {
        return None;
    }
    // No command record: the solver ended before answering the handshake.
    let last = records
        .iter()
        .rev()
        .find(|r| matches!(r["kind"].as_str(), Some("handshake" | "cmd" | "query")));
    let index = match last {
        Some(l) => l["index"].as_u64()? as usize,
        None => 0,
    };
    let command = if last.is_none_or(|l| l["kind"] == "handshake") {
        "(set-option :print-success true)".to_string()
    } else {
        command_text(file, index)?
    };
    Some(Located {
        index,
        command,
        response: last
            .and_then(|l| l["response"].as_str())
            .unwrap_or_default()
            .to_string(),
        solver_exit: end["solver_exit"].as_i64(),
        solver_signal: end["solver_signal"].as_i64(),
        stderr_tail,
    })
}

/// The last three non-blank lines of the solver's standard error in the
/// replay (its last 64 KiB), each indented and cut at 200 characters.
fn stderr_tail(path: &Path) -> String {
    let text = crate::util::bounded::read_tail(path, 64 << 10).unwrap_or_default();
    let lines: Vec<&str> = text
        .lines()
        .map(str::trim_end)
        .filter(|l| !l.trim().is_empty())
        .collect();
    lines[lines.len().saturating_sub(3)..]
        .iter()
        .map(|l| format!("  | {}", l.chars().take(200).collect::<String>()))
        .collect::<Vec<_>>()
        .join("\n")
}
