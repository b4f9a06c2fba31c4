//! `smtcomp benchmarks used`: the benchmarks a past competition ran in a track
//! (and division or logic), from the organizers' published results.

use super::{CmdResult, Failure, GlobalArgs, Outcome, fail, print};
use crate::benchmarks::list;
use crate::benchmarks::used::{RESULTS_URL, results_file_name, used};
use crate::formats::results::ResultsFile;
use crate::model::{Logic, Track};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

pub(super) fn run(
    global: &GlobalArgs,
    track: Track,
    divisions: &[String],
    logics: &[String],
    results: Option<PathBuf>,
    output: Option<PathBuf>,
) -> CmdResult {
    if !global.given() && crate::workspace::Workspace::discover()?.is_none() {
        return Err(Failure::usage(
            "benchmarks used: give the year (--year Y) or its definition (--competition FILE)",
        ));
    }
    let comp = global.competition()?;
    let Some(def) = comp.track(track) else {
        fail!("{} has no {} track", comp.name, track.name());
    };
    // The logics asked for: the divisions' and the logics given.
    let mut wanted: BTreeSet<Logic> = BTreeSet::new();
    for d in divisions {
        let Some(ls) = def.logics_of(d) else {
            let known: Vec<&str> = def.divisions.keys().map(|d| d.as_str()).collect();
            return Err(Failure::usage(format!(
                "--division {d}: not a division of the {} track of {} (divisions: {})",
                track.name(),
                comp.name,
                known.join(", ")
            )));
        };
        wanted.extend(ls.iter().cloned());
    }
    for l in logics {
        if def.division_of(l).is_none() {
            let hint = def
                .logics()
                .find(|x| x.as_str().eq_ignore_ascii_case(l))
                .map_or(String::new(), |x| {
                    format!(" (logic names are case-sensitive: try --logic {x})")
                });
            return Err(Failure::usage(format!(
                "--logic {l}: not a logic of the {} track of {}{hint}",
                track.name(),
                comp.name
            )));
        }
        wanted.insert(Logic::new(l.as_str()));
    }
    let restrict = !divisions.is_empty() || !logics.is_empty();
    let path = match results {
        Some(p) => p,
        None => find_results(track, comp.year)?,
    };
    let file = ResultsFile::read(&path)?;
    let u = used(&file, track, restrict.then_some(&wanted));
    if u.runs == 0 && u.other_track_runs > 0 {
        fail!(
            "{}: no {} result among its {} rows (is it the results file of another track?)",
            path.display(),
            track.name(),
            u.other_track_runs
        );
    }
    let scope = if restrict {
        let mut parts: Vec<String> = divisions.iter().map(|d| format!("division {d}")).collect();
        parts.extend(logics.iter().map(|l| format!("logic {l}")));
        parts.join(", ")
    } else {
        "every division".to_string()
    };
    let source = path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    let header = vec![format!(
        "{} benchmarks of {} {}, {scope}: {} runs of {} solvers in {source}",
        u.files.len(),
        comp.name,
        track.name(),
        u.runs,
        u.solvers.len()
    )];
    let text = list::render(Some(track), &header, &u.files);
    match &output {
        Some(o) => std::fs::write(o, &text)
            .map_err(|e| anyhow::anyhow!("{}: cannot write: {e}", o.display()))?,
        None => print(&text)?,
    }
    eprintln!(
        "benchmarks used: {} benchmarks ({}){}",
        u.files.len(),
        u.per_logic
            .iter()
            .filter(|(_, n)| **n > 0)
            .map(|(l, n)| format!("{l} {n}"))
            .collect::<Vec<_>>()
            .join(", "),
        output
            .as_ref()
            .map_or(String::new(), |o| format!(", written to {}", o.display()))
    );
    // Every division and logic asked for ran something, or it is named.
    let count = |ls: &[Logic]| -> usize {
        ls.iter()
            .map(|l| u.per_logic.get(l).copied().unwrap_or(0))
            .sum()
    };
    let mut empty: Vec<String> = divisions
        .iter()
        .filter(|d| def.logics_of(d).is_some_and(|ls| count(ls) == 0))
        .map(|d| format!("division {d}"))
        .collect();
    empty.extend(
        logics
            .iter()
            .filter(|l| count(&[Logic::new(l.as_str())]) == 0)
            .map(|l| format!("logic {l}")),
    );
    if u.files.is_empty() && empty.is_empty() {
        empty.push(scope);
    }
    if !empty.is_empty() {
        eprintln!(
            "benchmarks used: no {} benchmark in {} for {}",
            track.name(),
            path.display(),
            empty.join(", ")
        );
        return Ok(Outcome::Problems);
    }
    Ok(Outcome::Ok)
}

/// `results-<track>-<year>.json.gz` in `.` or `./data`, or an error naming
/// where to get it.
fn find_results(track: Track, year: u16) -> anyhow::Result<PathBuf> {
    let name = results_file_name(track, year);
    let candidates = [Path::new(".").join(&name), Path::new("data").join(&name)];
    if let Some(p) = candidates.iter().find(|p| p.is_file()) {
        return Ok(p.clone());
    }
    anyhow::bail!(
        "no results file: looked for {} and {}; download {name} from {RESULTS_URL} (or clone that repository and run this in it), or give --results FILE",
        candidates[0].display(),
        candidates[1].display()
    )
}
