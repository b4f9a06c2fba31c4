//! `smtcomp competition ...`

use super::{CmdResult, GlobalArgs, Outcome, fail, print, to_json};
use crate::model::{Competition, Track};
use clap::Subcommand;
use std::fmt::Write;

/// Subcommands of `smtcomp competition`.
#[derive(Debug, Subcommand)]
pub enum CompetitionCommand {
    /// Print tracks, divisions, logics and limits (`--year 2025` or `--competition FILE`).
    Show {
        /// Only this track (name or short name: sq, inc, uc, mv, parallel, cloud, pe).
        #[arg(long, value_name = "TRACK", value_parser = super::values::tracks())]
        track: Option<Track>,
        /// Machine-readable JSON instead of a table.
        #[arg(long)]
        json: bool,
    },
}

pub(super) fn run(global: &GlobalArgs, cmd: CompetitionCommand) -> CmdResult {
    let comp = global.competition()?;
    match cmd {
        CompetitionCommand::Show { track, json } => {
            if let Some(t) = track
                && comp.track(t).is_none()
            {
                fail!("{}: track {t} is not part of {}", comp.origin, comp.name);
            }
            if json {
                let value = match track {
                    Some(t) => serde_json::to_value(comp.track(t))?,
                    None => serde_json::to_value(&comp)?,
                };
                print(&to_json(&value)?)?;
            } else {
                print(&render(&comp, track))?;
            }
        }
    }
    Ok(Outcome::Ok)
}

/// The human-readable listing.
pub fn render(comp: &Competition, only: Option<Track>) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{} (rules edition {}, from {})",
        comp.name, comp.rules, comp.origin
    );
    match (&comp.seed.nyse_value, &comp.seed.nyse_date) {
        (Some(v), Some(d)) => {
            let _ = writeln!(s, "Seed input: NYSE value {v} (opening value on {d})");
        }
        (Some(v), None) => {
            let _ = writeln!(s, "Seed input: NYSE value {v}");
        }
        (None, Some(d)) => {
            let _ = writeln!(s, "Seed input: NYSE value not yet known (date {d})");
        }
        (None, None) => {}
    }
    for (track, def) in &comp.tracks {
        if only.is_some_and(|t| t != *track) {
            continue;
        }
        let mut flags = Vec::new();
        if !def.held {
            flags.push("not held");
        }
        if def.experimental {
            flags.push("experimental");
        }
        let flags = if flags.is_empty() {
            String::new()
        } else {
            format!(" [{}]", flags.join(", "))
        };
        let _ = writeln!(
            s,
            "\n{track}{flags}: {} divisions, {} logics",
            def.divisions.len(),
            def.logics().count()
        );
        let _ = writeln!(s, "  limits:      {}", def.limits);
        let _ = writeln!(s, "  test limits: {}", def.test_limits);
        if let Some(v) = def.validation_limits {
            let _ = writeln!(s, "  validation:  {v}");
        }
        let width = def
            .divisions
            .keys()
            .map(|d| d.as_str().len())
            .max()
            .unwrap_or(0);
        for (division, logics) in &def.divisions {
            let exp = if def.experimental_divisions.contains(division) {
                " (experimental)"
            } else {
                ""
            };
            let list: Vec<&str> = logics.iter().map(|l| l.as_str()).collect();
            let _ = writeln!(
                s,
                "  {:width$}  {}{exp}",
                division.as_str(),
                list.join(", ")
            );
        }
    }
    s
}
