//! `smtcomp submissions ...`

use super::{CmdResult, GlobalArgs, Outcome, print, to_json};
use crate::model::Competition;
use crate::submission::{LoadedSubmission, Problem, Severity, load_set};
use clap::Subcommand;
use serde::Serialize;
use std::fmt::Write;
use std::path::PathBuf;

/// Subcommands of `smtcomp submissions`.
#[derive(Debug, Subcommand)]
pub enum SubmissionsCommand {
    /// Check submission files; exit 0 when all are valid, 1 otherwise.
    ///
    /// Prints one line per problem: FILE: JSON-PATH: error|warning: reason.
    /// A directory stands for the *.json files in it. Checks across the files:
    /// duplicate solver names, base solvers of derived solvers.
    Validate {
        /// Submission files or directories.
        #[arg(required = true, value_name = "FILE")]
        files: Vec<PathBuf>,
        /// Machine-readable JSON report.
        #[arg(long)]
        json: bool,
        /// Do not print warnings.
        #[arg(long)]
        no_warnings: bool,
    },
    /// Show what each submission enters: track -> division -> logics.
    Show {
        /// Submission files or directories.
        #[arg(required = true, value_name = "FILE")]
        files: Vec<PathBuf>,
        /// Machine-readable JSON (a list of participants).
        #[arg(long)]
        json: bool,
    },
}

pub(super) fn run(global: &GlobalArgs, cmd: SubmissionsCommand) -> CmdResult {
    let comp = global.competition()?;
    match cmd {
        SubmissionsCommand::Validate {
            files,
            json,
            no_warnings,
        } => validate(&comp, &files, json, no_warnings),
        SubmissionsCommand::Show { files, json } => show(&comp, &files, json),
    }
}

#[derive(Serialize)]
struct FileReport<'a> {
    file: String,
    solver: Option<&'a str>,
    valid: bool,
    problems: Vec<&'a Problem>,
}

/// An error when the paths hold no submission file (an empty directory).
fn require_some(loaded: &[LoadedSubmission], files: &[PathBuf]) -> Result<(), super::Failure> {
    if loaded.is_empty() {
        super::fail!(
            "no submission files found in {}",
            super::score_cmd::paths_list(files)
        );
    }
    Ok(())
}

fn validate(comp: &Competition, files: &[PathBuf], json: bool, no_warnings: bool) -> CmdResult {
    let loaded = load_set(files, comp);
    require_some(&loaded, files)?;
    let keep = |p: &&Problem| !no_warnings || p.severity == Severity::Error;
    let invalid = loaded.iter().filter(|l| l.has_errors()).count();
    if json {
        let reports: Vec<FileReport> = loaded
            .iter()
            .map(|l| FileReport {
                file: l.file.display().to_string(),
                solver: l.submission.as_ref().map(|s| s.name.as_str()),
                valid: !l.has_errors(),
                problems: l.problems.iter().filter(keep).collect(),
            })
            .collect();
        print(&to_json(&reports)?)?;
    } else {
        let mut out = String::new();
        let mut warnings = 0;
        for l in &loaded {
            for p in l.problems.iter().filter(keep) {
                if p.severity == Severity::Warning {
                    warnings += 1;
                }
                let _ = writeln!(out, "{p}");
            }
        }
        let _ = writeln!(
            out,
            "{} file{}: {} valid, {} invalid, {} warning{} ({})",
            loaded.len(),
            plural(loaded.len()),
            loaded.len() - invalid,
            invalid,
            warnings,
            plural(warnings),
            comp.name
        );
        print(&out)?;
    }
    Ok(if invalid == 0 {
        Outcome::Ok
    } else {
        Outcome::Problems
    })
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

#[derive(Serialize)]
struct Participant<'a> {
    name: &'a str,
    file: String,
    contributors: Vec<&'a str>,
    website: &'a str,
    system_description: &'a str,
    archive_url: Option<&'a str>,
    solver_type: crate::submission::SolverType,
    competitive: bool,
    seed: Option<String>,
    tracks: &'a crate::submission::Entries,
}

fn show(comp: &Competition, files: &[PathBuf], json: bool) -> CmdResult {
    let loaded = load_set(files, comp);
    require_some(&loaded, files)?;
    let mut code = Outcome::Ok;
    for l in loaded.iter().filter(|l| l.submission.is_none()) {
        code = Outcome::Problems;
        for p in l.problems.iter().filter(|p| p.severity == Severity::Error) {
            eprintln!("{p}");
        }
    }
    let usable: Vec<&LoadedSubmission> = loaded.iter().filter(|l| l.submission.is_some()).collect();
    if json {
        let list: Vec<Participant> = usable
            .iter()
            .map(|l| {
                let s = l.submission.as_ref().expect("filtered");
                Participant {
                    name: &s.name,
                    file: l.file.display().to_string(),
                    contributors: s.contributors.iter().map(|c| c.name.as_str()).collect(),
                    website: &s.website,
                    system_description: &s.system_description,
                    archive_url: s.archive.as_ref().map(|a| a.url.as_str()),
                    solver_type: s.solver_type,
                    competitive: s.competitive,
                    // A string: seeds may exceed what JSON readers hold exactly.
                    seed: s.seed.map(|x| x.to_string()),
                    tracks: &l.entries,
                }
            })
            .collect();
        print(&to_json(&list)?)?;
    } else {
        print(&render(comp, &usable))?;
    }
    Ok(code)
}

/// The human-readable tree: solver, then track -> division -> logics.
pub fn render(comp: &Competition, loaded: &[&LoadedSubmission]) -> String {
    let mut s = String::new();
    for l in loaded {
        let Some(sub) = &l.submission else { continue };
        let status = if sub.competitive {
            "competitive"
        } else {
            "not competitive"
        };
        let _ = writeln!(
            s,
            "{}  ({}, {status}; {})",
            sub.name,
            sub.solver_type.name(),
            l.file.display()
        );
        if l.entries.is_empty() {
            let _ = writeln!(s, "  enters nothing in {}", comp.name);
        }
        for (track, divisions) in &l.entries {
            let def = comp.track(*track).expect("entries only hold known tracks");
            let n: usize = divisions.values().map(|v| v.len()).sum();
            let _ = writeln!(
                s,
                "  {track}: {} division{}, {n} logic{}",
                divisions.len(),
                plural(divisions.len()),
                plural(n)
            );
            let width = divisions
                .keys()
                .map(|d| d.as_str().len())
                .max()
                .unwrap_or(0);
            for (division, logics) in divisions {
                let all = def.logics_of(division.as_str()).unwrap_or(&[]);
                let missing: Vec<&str> = all
                    .iter()
                    .filter(|x| !logics.contains(*x))
                    .map(|x| x.as_str())
                    .collect();
                let text = if missing.is_empty() {
                    "all".to_string()
                } else if missing.len() <= 3 && missing.len() < logics.len() {
                    format!("all except {}", missing.join(", "))
                } else {
                    join(logics.iter().map(|x| x.as_str()))
                };
                let _ = writeln!(s, "    {:width$}  {text}", division.as_str());
            }
        }
    }
    s
}

fn join<'a>(items: impl Iterator<Item = &'a str>) -> String {
    items.collect::<Vec<_>>().join(", ")
}
