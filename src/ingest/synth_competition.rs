//! Synthetic BenchExec results for every run of a generated competition
//! (`smtcomp generate`'s execution directory): for each benchmark definition,
//! one result XML per rundefinition and one log ZIP, named and placed as
//! BenchExec writes them (`results_dir`, `<bench>.<date>.results.<rundef>.xml.bz2`,
//! `<bench>.<date>.logfiles.zip`). Each run is drawn from [`super::synth`]'s
//! scenarios, deterministically from the seed and the definition; a sat or
//! unsat answer agrees with the benchmark's status (from the generation
//! manifest), except that one solver in [`BUGGY_ONE_IN`] is buggy in a
//! division and answers [`BUGGY_WRONG_PER_MILLE`] of 1000 wrongly there (the
//! others are sound: they validate cores). Used by `scripts/bench-competition`.
//!
//! The [`Tally`] counts what was written per track, solver and answer,
//! independently of ingestion: ingesting the results must count the same.

use super::synth::{Rng, Run, SynthSpec, make_run, write_log_zip, write_result_xml};
use crate::formats::generation::Manifest as Generation;
use crate::formats::runs_manifest::{Manifest, ManifestRun};
use crate::formats::runtable::{IngestRecord, LogRef, RunAnswer};
use crate::model::{Status, Track};
use rayon::prelude::*;
use std::collections::BTreeMap;
use std::io;
use std::path::Path;

/// Runs written per (track, solver, answer).
pub type Tally = BTreeMap<(Track, String, RunAnswer), u64>;

/// One (solver, division) in this many gives wrong answers.
pub const BUGGY_ONE_IN: u64 = 10;

/// Wrong sat/unsat answers per 1000 of a buggy (solver, division).
pub const BUGGY_WRONG_PER_MILLE: u64 = 10;

/// BenchExec's start time in the synthetic file names.
const DATE: &str = "2025-06-01_12-00-00";

/// Writes results for every run of `runs` (the runs manifest of the
/// generation `generation`) below `execdir`; returns what was written.
pub fn generate(
    execdir: &Path,
    generation: &Generation,
    runs: &Manifest,
    spec: &SynthSpec,
) -> io::Result<Tally> {
    let mut by_def: BTreeMap<&str, Vec<&ManifestRun>> = BTreeMap::new();
    for r in &runs.runs {
        by_def.entry(&r.benchmark_definition).or_default().push(r);
    }
    let defs: Vec<(&str, Vec<&ManifestRun>)> = by_def.into_iter().collect();
    let tallies = defs
        .par_iter()
        .map(|(file, runs)| write_definition(execdir, generation, file, runs, spec))
        .collect::<io::Result<Vec<Tally>>>()?;
    let mut tally = Tally::new();
    for t in tallies {
        for (k, n) in t {
            *tally.entry(k).or_default() += n;
        }
    }
    Ok(tally)
}

/// A seed of its own per definition (FNV-1a of its file name): the files do
/// not depend on the order or the threads they are written in.
fn seed_of(seed: u64, file: &str) -> u64 {
    file.bytes().fold(0xcbf2_9ce4_8422_2325 ^ seed, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

fn write_definition(
    execdir: &Path,
    generation: &Generation,
    file: &str,
    runs: &[&ManifestRun],
    spec: &SynthSpec,
) -> io::Result<Tally> {
    let def = generation.definitions.get(file).ok_or_else(|| {
        io::Error::other(format!(
            "{file}: in the runs manifest but not in the generation manifest"
        ))
    })?;
    let bench = file.strip_suffix(".xml").unwrap_or(file);
    let prefix = format!("{bench}.{DATE}");
    let zip_name = format!("{prefix}.logfiles.zip");
    let dir = execdir.join(&def.results_dir);
    std::fs::create_dir_all(&dir)?;
    let mut rng = Rng(seed_of(spec.seed, file));
    // A definition is one solver in one division: buggy there or not.
    let buggy =
        seed_of(spec.seed, &format!("{}\0{}", def.solver, def.division)) % BUGGY_ONE_IN == 0;
    let wrong = if buggy { BUGGY_WRONG_PER_MILLE } else { 0 };
    let mut tally = Tally::new();
    let mut groups: BTreeMap<&str, Vec<Run>> = BTreeMap::new();
    for r in runs {
        let status = generation.tasks.get(&r.task).and_then(|t| match t.status {
            Status::Sat => Some((true, wrong)),
            Status::Unsat => Some((false, wrong)),
            _ => None,
        });
        let mut base = IngestRecord::new(String::new(), r.task.clone());
        base.track = Some(r.track);
        base.solver = r.solver.clone();
        base.log = Some(LogRef {
            archive: zip_name.clone(),
            member: String::new(),
        });
        let run = make_run(
            &mut rng,
            spec,
            r.track,
            &r.benchmark,
            &r.task,
            &r.rundefinition,
            &prefix,
            base,
            status,
        );
        *tally
            .entry((r.track, r.solver.clone(), run.expected.answer))
            .or_default() += 1;
        groups.entry(&r.rundefinition).or_default().push(run);
    }
    for (rundef, group) in &groups {
        let xml = dir.join(format!("{prefix}.results.{rundef}.xml.bz2"));
        write_result_xml(&xml, bench, rundef, &def.solver, group, spec)?;
    }
    write_log_zip(&dir.join(&zip_name), groups.values().flatten())?;
    Ok(tally)
}

/// Validation runs for every (task, validator) of a core-validation manifest,
/// as ingesting BenchExec's results of the validation definitions would give:
/// track `UnsatCoreValidation`, the task's file as task, and per 100 runs 85
/// `unsat`, 5 `sat` and 10 `unknown` answers, within the task's time limit.
pub fn validation_runs(
    manifest: &crate::formats::core_validation::CoreManifest,
    seed: u64,
) -> Vec<IngestRecord> {
    let mut rng = Rng(seed ^ 0x5eed_c0de);
    let mut out = Vec::new();
    for t in &manifest.tasks {
        for v in &t.validators {
            let mut r = IngestRecord::new("synthetic-validation", t.file.clone());
            r.track = Some(Track::UnsatCoreValidation);
            r.solver = v.clone();
            r.logic = t.logic.clone();
            r.division = t.division.clone();
            r.benchmark_key = t.file.clone();
            r.answer = match rng.below(100) {
                0..=84 => RunAnswer::Unsat,
                85..=89 => RunAnswer::Sat,
                _ => RunAnswer::Unknown,
            };
            let secs = (rng.below(1000) as f64) / 1000.0 * t.time_limit.min(60.0);
            r.walltime = Some(secs);
            r.cputime = Some(secs);
            out.push(r);
        }
    }
    out
}

/// A [`Tally`] as JSON rows `{"track", "solver", "answer", "runs"}`.
pub fn tally_json(t: &Tally) -> serde_json::Value {
    serde_json::Value::Array(
        t.iter()
            .map(|((track, solver, answer), n)| {
                serde_json::json!({
                    "track": track, "solver": solver, "answer": answer, "runs": n
                })
            })
            .collect(),
    )
}

/// The tally of a run table's records: what ingestion counted.
pub fn tally_of<'r>(records: impl Iterator<Item = &'r IngestRecord>) -> Tally {
    let mut t = Tally::new();
    for r in records {
        if let Some(track) = r.track {
            *t.entry((track, r.solver.clone(), r.answer)).or_default() += 1;
        }
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeds_differ_per_definition_and_repeat() {
        assert_eq!(seed_of(1, "a.xml"), seed_of(1, "a.xml"));
        assert_ne!(seed_of(1, "a.xml"), seed_of(1, "b.xml"));
        assert_ne!(seed_of(1, "a.xml"), seed_of(2, "a.xml"));
    }
}
