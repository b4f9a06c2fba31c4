//! `smtcomp archives fetch --submissions DIR --exec EXECDIR`: every submission's archive
//! downloaded, checked against its hash and unpacked into
//! `EXECDIR/archives/<solver>/` (see `crate::archives`).

use super::{CmdResult, GlobalArgs, Outcome, print};
use crate::archives::{Limits, fetch_submission};
use crate::submission::load_set;
use clap::Subcommand;
use std::path::PathBuf;
use std::time::Duration;

/// Subcommands of `smtcomp archives`.
#[derive(Debug, Subcommand)]
pub enum ArchivesCommand {
    /// Download, check (sha256/sha512 of the submission) and unpack every
    /// submission's archive into EXECDIR/archives/<solver>[@<i>]/, where
    /// `generate` looks the commands' binaries up. An archive already unpacked
    /// from the same URL and hash (EXECDIR/archives/<solver>/.smtcomp-archive.json)
    /// is skipped. Exit 1 when an archive fails (named with the reason).
    Fetch {
        /// Submission file or directory of submission files. Default in a
        /// workspace: its submissions.
        #[arg(long = "submissions", value_name = "DIR")]
        submissions: Option<PathBuf>,
        /// The execution directory (created if missing). Default in a
        /// workspace: its `execdir`.
        #[arg(long = "exec", value_name = "EXECDIR")]
        execdir: Option<PathBuf>,
        /// The submissions as the first positional argument (the older spelling).
        #[arg(
            value_name = "SUBMISSIONS",
            hide = true,
            conflicts_with = "submissions"
        )]
        submissions_pos: Option<PathBuf>,
        /// The execution directory as the second positional argument (the older spelling).
        #[arg(value_name = "EXECDIR", hide = true, conflicts_with = "execdir")]
        execdir_pos: Option<PathBuf>,
        /// Only this solver (repeatable).
        #[arg(long, value_name = "NAME")]
        solver: Vec<String>,
        /// Largest download, in MiB.
        #[arg(long, value_name = "MIB", default_value_t = 2048)]
        max_download_mib: u64,
        /// Largest unpacked content of one archive, in MiB.
        #[arg(long, value_name = "MIB", default_value_t = 8192)]
        max_unpacked_mib: u64,
        /// Most members of one archive.
        #[arg(long, value_name = "N", default_value_t = 200_000)]
        max_members: usize,
        /// Longest download of one archive, in seconds.
        #[arg(long, value_name = "SECONDS", default_value_t = 1800.0, value_parser = super::seconds)]
        timeout: f64,
        /// One JSON document instead of the text: `{"exec", "archives",
        /// "unpacked", "unchanged", "failed", "results": [{"solver", "dir",
        /// "status", ...}]}` (errors and warnings are printed on stderr too).
        #[arg(long)]
        json: bool,
    },
}

pub(super) fn run(global: &GlobalArgs, cmd: ArchivesCommand) -> CmdResult {
    let ArchivesCommand::Fetch {
        submissions,
        execdir,
        submissions_pos,
        execdir_pos,
        solver,
        max_download_mib,
        max_unpacked_mib,
        max_members,
        timeout,
        json,
    } = cmd;
    use super::workspace_defaults as ws;
    let submissions = ws::submission_dir(submissions.or(submissions_pos), "--submissions <DIR>")?;
    let execdir = ws::execdir(execdir.or(execdir_pos), "--exec <EXECDIR>")?;
    let comp = global.competition()?;
    let limits = Limits {
        max_download_bytes: max_download_mib.saturating_mul(1 << 20),
        max_unpacked_bytes: max_unpacked_mib.saturating_mul(1 << 20),
        max_members,
        timeout: Duration::from_secs_f64(timeout),
    };
    let loaded = load_set(std::slice::from_ref(&submissions), &comp);
    let mut unreadable = false;
    for l in &loaded {
        if l.submission.is_none() {
            for p in &l.problems {
                eprintln!("{p}");
            }
            unreadable = true;
        }
    }
    if unreadable {
        eprintln!(
            "{} some submission files cannot be read; nothing fetched",
            crate::util::colour::error_prefix()
        );
        return Ok(Outcome::Problems);
    }
    let subs: Vec<_> = loaded
        .iter()
        .filter_map(|l| l.submission.as_ref())
        .collect();
    for name in &solver {
        if !subs.iter().any(|s| &s.name == name) {
            eprintln!(
                "{} --solver {name}: no submission named '{name}'",
                crate::util::colour::error_prefix()
            );
            return Ok(Outcome::Problems);
        }
    }
    let (mut unpacked, mut unchanged, mut failed) = (0, 0, 0);
    let mut results = Vec::new();
    // Without --json the text lines, with it nothing until the JSON document.
    let say = |text: String| if json { Ok(()) } else { print(&text) };
    for sub in subs
        .iter()
        .filter(|s| solver.is_empty() || solver.contains(&s.name))
    {
        for (a, result) in fetch_submission(sub, &execdir, &limits) {
            let who = format!("{}: {}", sub.name, a.dir);
            match result {
                Ok(u) if u.skipped => {
                    unchanged += 1;
                    results.push(serde_json::json!({
                        "solver": sub.name, "dir": a.dir, "status": "unchanged",
                        "url": a.archive.url, "files": u.files.len(), "sha256": u.sha256,
                    }));
                    say(format!(
                        "{who}: unchanged ({} files, sha256 {}), skipped\n",
                        u.files.len(),
                        u.sha256
                    ))?;
                }
                Ok(u) => {
                    unpacked += 1;
                    if !u.verified {
                        eprintln!(
                            "{} {who}: {}: the submission gives no hash; not verified (sha256 {})",
                            crate::util::colour::warning_prefix(),
                            a.archive.url,
                            u.sha256
                        );
                    }
                    results.push(serde_json::json!({
                        "solver": sub.name, "dir": a.dir, "status": "unpacked",
                        "url": a.archive.url, "files": u.files.len(), "bytes": u.bytes,
                        "sha256": u.sha256, "verified": u.verified,
                    }));
                    say(format!(
                        "{who}: unpacked {} files, {} bytes from {} (sha256 {}{})\n",
                        u.files.len(),
                        u.bytes,
                        a.archive.url,
                        u.sha256,
                        if u.verified { ", checked" } else { "" }
                    ))?;
                }
                Err(e) => {
                    failed += 1;
                    results.push(serde_json::json!({
                        "solver": sub.name, "dir": a.dir, "status": "failed",
                        "url": a.archive.url, "error": e.to_string(),
                    }));
                    eprintln!("{} {who}: {e}", crate::util::colour::error_prefix());
                }
            }
        }
    }
    if json {
        print(&super::to_json(&serde_json::json!({
            "exec": execdir.display().to_string(),
            "archives": unpacked + unchanged + failed,
            "unpacked": unpacked,
            "unchanged": unchanged,
            "failed": failed,
            "results": results,
        }))?)?;
    } else {
        say(format!(
            "{} archives: {unpacked} unpacked, {unchanged} unchanged, {failed} failed\n",
            unpacked + unchanged + failed
        ))?;
    }
    Ok(if failed > 0 {
        Outcome::Problems
    } else {
        Outcome::Ok
    })
}
