//! `smtcomp status`: the progress of the BenchExec rounds of a workspace (or
//! of one execution directory), from whatever result files are there while
//! BenchExec runs (locally, on Slurm or on the VerifierCloud): per track,
//! division and solver, the runs expected by the runs manifest, done, failed
//! (a result without a status: failed to start, or still running) and
//! missing (no result yet). A truncated, corrupt (CRC) or junk-ended result
//! file counts with the runs that can be read; the file is listed as
//! unreadable, the rest is missing, and the round is not complete. A run
//! with two results is counted once and named as duplicated; the round is
//! not complete either.

use crate::benchexec::Manifest;
use crate::formats::generation::RUNS_FILE;
use crate::formats::runs_manifest::ManifestIndex;
use crate::ingest::{self, IngestOptions};
use crate::model::{Competition, DEFAULT_YEAR};
use serde::Serialize;
use std::path::Path;

/// One track x division x solver.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct GroupStatus {
    /// Track.
    pub track: String,
    /// Division.
    pub division: String,
    /// Solver.
    pub solver: String,
    /// Runs in the runs manifest.
    pub expected: u64,
    /// Runs with a result.
    pub done: u64,
    /// Runs in a result file without a result (failed to start, or stopped).
    pub failed: u64,
    /// Runs in a result file without a result while the round runs (a lock
    /// holder or a Slurm array of ours works in it): still running.
    pub running: u64,
    /// Runs in no result file yet.
    pub missing: u64,
}

impl GroupStatus {
    /// Every run done.
    pub fn complete(&self) -> bool {
        self.done == self.expected
    }
}

/// One BenchExec round (an execution directory).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RoundStatus {
    /// `runs` or `core validation runs`.
    pub round: String,
    /// The execution directory.
    pub execdir: String,
    /// Whether it is generated (else nothing below is known).
    pub generated: bool,
    /// Benchmark definitions.
    pub definitions: usize,
    /// Totals.
    pub expected: u64,
    /// Totals.
    pub done: u64,
    /// Totals.
    pub failed: u64,
    /// Totals.
    pub running: u64,
    /// Totals.
    pub missing: u64,
    /// Results of runs the manifest does not have.
    pub unexpected: u64,
    /// Results beyond the first of a run (two result files hold it).
    pub duplicated: u64,
    /// Per track, division and solver, sorted.
    pub groups: Vec<GroupStatus>,
    /// The first missing runs (`definition: rundefinition: task`).
    pub missing_runs: Vec<String>,
    /// The first runs without a result (`file: task`).
    pub failed_runs: Vec<String>,
    /// The first runs without a result while the round runs (`file: task`).
    pub running_runs: Vec<String>,
    /// Result files that could not be read completely (`file: why`):
    /// corrupt (CRC), truncated, junk after the end, half-written.
    pub unreadable: Vec<String>,
    /// The first runs with a second result (`file: task`).
    pub duplicated_runs: Vec<String>,
}

impl RoundStatus {
    /// Generated, every run done once, and every result file readable.
    pub fn complete(&self) -> bool {
        self.generated
            && self.done == self.expected
            && self.unexpected == 0
            && self.duplicated == 0
            && self.unreadable.is_empty()
    }

    /// The round runs now (its owner holds the lock, or a Slurm array of
    /// ours works in it): its runs without a result are running, not failed.
    pub fn mark_running(&mut self) {
        for g in &mut self.groups {
            g.running += std::mem::take(&mut g.failed);
        }
        self.running += std::mem::take(&mut self.failed);
        self.running_runs.append(&mut self.failed_runs);
    }

    /// A round not generated yet.
    pub fn not_generated(round: &str, execdir: &Path) -> RoundStatus {
        RoundStatus {
            round: round.into(),
            execdir: execdir.display().to_string(),
            generated: false,
            definitions: 0,
            expected: 0,
            done: 0,
            failed: 0,
            running: 0,
            missing: 0,
            unexpected: 0,
            duplicated: 0,
            groups: Vec::new(),
            missing_runs: Vec::new(),
            failed_runs: Vec::new(),
            running_runs: Vec::new(),
            unreadable: Vec::new(),
            duplicated_runs: Vec::new(),
        }
    }
}

/// The status of the round in `execdir` (`round` names it). `comp` is the
/// competition the runs belong to (default: the built-in edition of the
/// manifest's year), for runs the manifest does not know.
pub fn round_status(
    round: &str,
    execdir: &Path,
    comp: Option<&Competition>,
) -> anyhow::Result<RoundStatus> {
    if !execdir.join("manifest.json").is_file() {
        return Ok(RoundStatus::not_generated(round, execdir));
    }
    let manifest = Manifest::read(execdir)?;
    let index = ManifestIndex::read(&execdir.join(RUNS_FILE))?;
    let builtin;
    let comp = match comp {
        Some(c) => c,
        None => {
            builtin = Competition::builtin(manifest.year)
                .or_else(|_| Competition::builtin(DEFAULT_YEAR))?;
            &builtin
        }
    };
    let results = crate::pipeline::results_dir(execdir);
    let mut status = RoundStatus::not_generated(round, execdir);
    status.generated = true;
    status.definitions = manifest.definitions.len();
    let acc = if results.is_dir() {
        let got = ingest::ingest(
            std::slice::from_ref(&results),
            &IngestOptions {
                competition: comp,
                manifest: Some(&index),
                progress: false,
            },
        );
        for f in &got.summary.files {
            for u in &f.unreadable {
                status.unreadable.push(format!("{}: {u}", f.source));
            }
        }
        got.summary.manifest
    } else {
        None
    };
    match acc {
        Some(acc) => {
            for g in &acc.groups {
                if g.expected == 0 {
                    status.unexpected += g.unexpected;
                    continue;
                }
                status.groups.push(GroupStatus {
                    track: g.track.clone(),
                    division: g.division.clone(),
                    solver: g.solver.clone(),
                    expected: g.expected,
                    done: g.present - g.failed,
                    failed: g.failed,
                    running: 0,
                    missing: g.missing,
                });
                status.unexpected += g.unexpected;
            }
            status.duplicated = acc.total.duplicated;
            status.duplicated_runs = acc.duplicated_runs;
            status.missing_runs = acc.missing_runs;
            status.failed_runs = acc.failed_runs;
        }
        None => {
            // No results at all: every run of the manifest is missing.
            let mut groups: std::collections::BTreeMap<(String, String, String), u64> =
                Default::default();
            for r in index.runs() {
                *groups
                    .entry((
                        r.track.to_string(),
                        r.division.to_string(),
                        r.solver.to_string(),
                    ))
                    .or_default() += 1;
            }
            for ((track, division, solver), n) in groups {
                status.groups.push(GroupStatus {
                    track,
                    division,
                    solver,
                    expected: n,
                    done: 0,
                    failed: 0,
                    running: 0,
                    missing: n,
                });
            }
            status.missing_runs = index
                .runs()
                .take(ingest::MAX_LISTED_RUNS)
                .map(|r| {
                    format!(
                        "{}: {}: {}",
                        r.benchmark_definition, r.rundefinition, r.task
                    )
                })
                .collect();
        }
    }
    status.groups.sort_by(|a, b| {
        (&a.track, &a.division, &a.solver).cmp(&(&b.track, &b.division, &b.solver))
    });
    for g in &status.groups {
        status.expected += g.expected;
        status.done += g.done;
        status.failed += g.failed;
        status.missing += g.missing;
    }
    Ok(status)
}

/// Colours of the text output (ANSI), or none.
#[derive(Debug, Clone, Copy)]
pub struct Palette {
    /// Whether to colour.
    pub on: bool,
}

impl Palette {
    fn paint(self, style: anstyle::Style, text: &str) -> String {
        if self.on {
            format!("{style}{text}{style:#}")
        } else {
            text.to_string()
        }
    }
    /// Complete.
    pub fn green(self, t: &str) -> String {
        self.paint(anstyle::AnsiColor::Green.on_default(), t)
    }
    /// In progress.
    pub fn yellow(self, t: &str) -> String {
        self.paint(anstyle::AnsiColor::Yellow.on_default(), t)
    }
    /// Failed.
    pub fn red(self, t: &str) -> String {
        self.paint(anstyle::AnsiColor::Red.on_default(), t)
    }
    /// Headers.
    pub fn bold(self, t: &str) -> String {
        self.paint(anstyle::Style::new().bold(), t)
    }
}

/// The text of `rounds`: per round its totals, then one row per track x
/// division x solver (colour: green complete, yellow in progress, red failed).
pub fn render(rounds: &[RoundStatus], p: Palette) -> String {
    let mut out = String::new();
    for r in rounds {
        if !r.generated {
            out.push_str(&format!(
                "{}: not generated yet ({})\n",
                p.bold(&r.round),
                r.execdir
            ));
            continue;
        }
        let pct = if r.expected == 0 {
            100.0
        } else {
            100.0 * r.done as f64 / r.expected as f64
        };
        let totals = format!(
            "{} of {} runs done ({pct:.0} %), {}{} failed, {} missing{}",
            r.done,
            r.expected,
            if r.running > 0 {
                format!("{} running, ", r.running)
            } else {
                String::new()
            },
            r.failed,
            r.missing,
            if r.unexpected > 0 {
                format!(", {} unexpected", r.unexpected)
            } else {
                String::new()
            }
        );
        let totals = match (r.duplicated, r.unreadable.len()) {
            (0, 0) => totals,
            (d, u) => format!("{totals}; {d} duplicated, {u} unreadable result file(s)"),
        };
        let totals = if r.complete() {
            p.green(&totals)
        } else if r.failed > 0 || r.unexpected > 0 || r.duplicated > 0 || !r.unreadable.is_empty() {
            p.red(&totals)
        } else {
            p.yellow(&totals)
        };
        out.push_str(&format!(
            "{}: {} definitions in {}\n  {totals}\n",
            p.bold(&r.round),
            r.definitions,
            r.execdir
        ));
        let w = |f: &dyn Fn(&GroupStatus) -> usize, min: usize| {
            r.groups.iter().map(f).max().unwrap_or(0).max(min)
        };
        let (wt, wd, ws) = (
            w(&|g| g.track.len(), 5),
            w(&|g| g.division.len(), 8),
            w(&|g| g.solver.len(), 6),
        );
        // The running column only while runs run.
        let running = |n: u64| {
            if r.running > 0 {
                format!("  {n:>7}")
            } else {
                String::new()
            }
        };
        out.push_str(&format!(
            "  {:<wt$}  {:<wd$}  {:<ws$}  {:>8}  {:>6}{}  {:>6}  {:>7}\n",
            "track",
            "division",
            "solver",
            "expected",
            "done",
            if r.running > 0 { "  running" } else { "" },
            "failed",
            "missing"
        ));
        for g in &r.groups {
            let row = format!(
                "  {:<wt$}  {:<wd$}  {:<ws$}  {:>8}  {:>6}{}  {:>6}  {:>7}",
                g.track,
                g.division,
                g.solver,
                g.expected,
                g.done,
                running(g.running),
                g.failed,
                g.missing
            );
            let row = if g.complete() {
                p.green(&row)
            } else if g.failed > 0 {
                p.red(&row)
            } else {
                p.yellow(&row)
            };
            out.push_str(&row);
            out.push('\n');
        }
        for u in &r.unreadable {
            out.push_str(&format!("  {}\n", p.red(&format!("unreadable: {u}"))));
        }
        let listed = 5;
        for m in r.duplicated_runs.iter().take(listed) {
            out.push_str(&format!("  {}\n", p.red(&format!("duplicated: {m}"))));
        }
        for m in r.failed_runs.iter().take(listed) {
            out.push_str(&format!("  failed: {m}\n"));
        }
        for m in r.running_runs.iter().take(listed) {
            out.push_str(&format!("  running: {m}\n"));
        }
        for m in r.missing_runs.iter().take(listed) {
            out.push_str(&format!("  missing: {m}\n"));
        }
        let shown = r.missing_runs.len().min(listed);
        if r.missing as usize > shown {
            out.push_str(&format!(
                "  ... {} more missing (--json lists the first {})\n",
                r.missing as usize - shown,
                r.missing_runs.len()
            ));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_without_a_result_are_running_while_the_round_runs() {
        let mut r = RoundStatus::not_generated("runs", Path::new("/x/exec"));
        r.generated = true;
        r.definitions = 1;
        r.groups.push(GroupStatus {
            track: "SingleQuery".into(),
            division: "QF_LIA".into(),
            solver: "S".into(),
            expected: 4,
            done: 1,
            failed: 2,
            running: 0,
            missing: 1,
        });
        (r.expected, r.done, r.failed, r.missing) = (4, 1, 2, 1);
        r.failed_runs = vec!["f.xml.bz2: t1".into(), "f.xml.bz2: t2".into()];
        let stopped = render(std::slice::from_ref(&r), Palette { on: false });
        assert!(
            stopped.contains("1 of 4 runs done (25 %), 2 failed, 1 missing"),
            "{stopped}"
        );
        assert!(stopped.contains("  failed: f.xml.bz2: t1"), "{stopped}");
        assert!(!stopped.contains("running"), "{stopped}");
        r.mark_running();
        assert_eq!(
            (r.failed, r.running, r.groups[0].failed, r.groups[0].running),
            (0, 2, 0, 2)
        );
        let running = render(std::slice::from_ref(&r), Palette { on: false });
        assert!(
            running.contains("1 of 4 runs done (25 %), 2 running, 0 failed, 1 missing"),
            "{running}"
        );
        assert!(running.contains("done  running  failed"), "{running}");
        assert!(running.contains("  running: f.xml.bz2: t2"), "{running}");
        assert!(!r.complete());
    }
}
