//! Deciding what to generate: tasks from the prepared sets, one definition per
//! solver x track x division with one rundefinition per participation. The
//! result is the [`Manifest`]; [`super::write`] turns it into files.

use super::names::{sanitize, solver_slugs};
use super::paths::{pattern_problem, relative, utf8};
use super::validation::ValidatorSets;
use crate::formats::core_validation::MANIFEST;
use crate::formats::generation::{Definition, FORMAT, Manifest, RunDefinition, TaskEntry, VERSION};
use crate::formats::prepared::{MANIFEST_NAME, PreparedSet};
use crate::model::{Competition, Division, Logic, Track, TrackDefinition};
use crate::submission::Submission;
use crate::submission::{SolverLocation, command_for, participation_entries};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Input of [`plan`].
#[derive(Debug, Clone)]
pub struct PlanInput<'a> {
    /// The competition.
    pub competition: &'a Competition,
    /// Structurally valid submissions, in any order.
    pub submissions: Vec<&'a Submission>,
    /// Prepared root (absolute, canonical).
    pub prepared: PathBuf,
    /// Execution directory (absolute, canonical).
    pub out: PathBuf,
    /// Test-mode limits.
    pub test: bool,
    /// Binary resolution.
    pub location: SolverLocation,
}

/// The tool-info module of a track.
pub fn tool_module(track: Track) -> &'static str {
    match track {
        Track::Incremental => "tools.smtcomp_incremental",
        Track::ProofExhibition => "tools.smtcomp_proof",
        _ => "tools.smtcomp_tool",
    }
}

/// The track definition that gives divisions and limits for `track`
/// (unsat-core validation uses the Unsat Core Track's).
fn track_def(comp: &Competition, track: Track) -> Option<&TrackDefinition> {
    match track {
        Track::UnsatCoreValidation => comp.track(Track::UnsatCore),
        t => comp.track(t),
    }
}

/// Builds the manifest, or returns every problem found (file, solver, reason).
pub fn plan(input: &PlanInput) -> Result<(Manifest, Vec<String>), Vec<String>> {
    let comp = input.competition;
    let mut problems = Vec::new();
    let mut warnings = Vec::new();
    let mut subs = input.submissions.clone();
    subs.sort_by(|a, b| a.name.cmp(&b.name));
    let slugs = solver_slugs(subs.iter().map(|s| s.name.as_str())).map_err(|e| vec![e])?;

    // Tasks: track -> logic -> task paths.
    let mut tasks = BTreeMap::new();
    let mut by_logic: BTreeMap<Track, BTreeMap<Logic, Vec<String>>> = BTreeMap::new();
    for track in Track::ALL {
        let dir = PreparedSet::track_dir(&input.prepared, track);
        if !dir.join(MANIFEST_NAME).is_file() {
            continue;
        }
        let set = match PreparedSet::read(&input.prepared, track) {
            Ok(s) => s,
            Err(e) => {
                problems.push(e.to_string());
                continue;
            }
        };
        let Some(def) = track_def(comp, track) else {
            warnings.push(format!(
                "{}: track {track} is not part of {}; its benchmarks are ignored",
                dir.display(),
                comp.name
            ));
            continue;
        };
        for b in &set.benchmarks {
            let src = dir.join(&b.path);
            let bad_path = Path::new(&b.path)
                .components()
                .any(|c| !matches!(c, std::path::Component::Normal(_)));
            if bad_path || !b.path.ends_with(".smt2") {
                problems.push(format!(
                    "{}: prepared path '{}' must be a relative .smt2 path without '..'",
                    dir.join(MANIFEST_NAME).display(),
                    b.path
                ));
                continue;
            }
            if let Some(p) = pattern_problem(&b.path) {
                problems.push(format!("{}: {p}", dir.join(MANIFEST_NAME).display()));
                continue;
            }
            if !src.is_file() {
                problems.push(format!("{}: prepared file missing", src.display()));
                continue;
            }
            let logic = b.original.logic.clone();
            let Some(division) = def.division_of(logic.as_str()) else {
                problems.push(format!(
                    "{}: logic {logic} is not in any division of track {track}",
                    src.display()
                ));
                continue;
            };
            let task = format!(
                "tasks/{}/{}.yml",
                track.page_suffix(),
                b.path.trim_end_matches(".smt2")
            );
            let yml_dir = input.out.join(&task);
            let yml_dir = yml_dir.parent().unwrap_or(&input.out);
            let input_file = match utf8(&relative(yml_dir, &src)) {
                Ok(s) => s,
                Err(e) => {
                    problems.push(e);
                    continue;
                }
            };
            if let Some(p) = pattern_problem(&input_file) {
                problems.push(format!("{}: {p}", src.display()));
                continue;
            }
            let expected_verdict = match (track.is_incremental(), b.status) {
                (false, crate::model::Status::Sat) => Some(true),
                (false, crate::model::Status::Unsat) => Some(false),
                _ => None,
            };
            by_logic
                .entry(track)
                .or_default()
                .entry(logic.clone())
                .or_default()
                .push(task.clone());
            tasks.insert(
                task,
                TaskEntry {
                    track,
                    logic,
                    division: division.clone(),
                    input_file,
                    prepared: format!("{}/{}", track.page_suffix(), b.path),
                    original: b.original.clone(),
                    status: b.status,
                    expected: b.expected.clone(),
                    expected_verdict,
                },
            );
        }
    }

    // Unsat-core validation: only the validators `validate-cores generate` chose.
    let validators = match ValidatorSets::read(&input.prepared) {
        Ok(v) => v,
        Err(e) => {
            problems.push(e);
            None
        }
    };
    let mut validating: BTreeSet<(String, Logic)> = BTreeSet::new();

    // (track, division, solver) -> rundefinitions.
    type Key = (Track, Division, String);
    let mut runs: BTreeMap<Key, BTreeMap<String, RunDefinition>> = BTreeMap::new();
    for sub in &subs {
        let slug = &slugs[&sub.name];
        for i in 0..sub.participations.len() {
            let mut entered = participation_entries(sub, i, comp);
            if let Some(ucv) = entered.get_mut(&Track::UnsatCoreValidation) {
                for logics in ucv.values_mut() {
                    validating.extend(logics.iter().map(|l| (sub.name.clone(), l.clone())));
                    if let Some(v) = &validators {
                        logics.retain(|l| v.allows(&sub.name, l));
                    }
                }
            }
            for (track, divisions) in entered {
                let Some(prepared) = by_logic.get(&track) else {
                    continue;
                };
                for (division, logics) in divisions {
                    let logics: Vec<Logic> = logics
                        .into_iter()
                        .filter(|l| prepared.contains_key(l))
                        .collect();
                    if logics.is_empty() {
                        continue;
                    }
                    let command = match command_for(sub, i, &input.location) {
                        Ok(c) => c,
                        Err(e) => {
                            problems.push(e);
                            continue;
                        }
                    };
                    let count = logics.iter().map(|l| prepared[l].len()).sum();
                    let name = format!("{slug},{i},{}", track.name());
                    runs.entry((track, division.clone(), sub.name.clone()))
                        .or_default()
                        .insert(
                            name,
                            RunDefinition {
                                participation: i,
                                command,
                                logics,
                                tasks: count,
                            },
                        );
                }
            }
        }
    }

    if let Some(v) = &validators {
        let dir = PreparedSet::track_dir(&input.prepared, Track::UnsatCoreValidation);
        problems.extend(v.unmatched(&validating, &dir.join(MANIFEST)));
        let limit = track_def(comp, Track::UnsatCoreValidation)
            .map(|d| d.validation_limits.unwrap_or(d.limits).time_s);
        if let (Some((longest, file)), Some(limit)) = (&v.longest, limit)
            && *longest > f64::from(limit)
        {
            warnings.push(format!(
                "{}: {file} has a validation time limit of {longest} s, above the {limit} s of the \
                 Unsat Core track's validation_limits: BenchExec stops its validators earlier",
                dir.join(MANIFEST).display()
            ));
        }
    }

    let mut definitions = BTreeMap::new();
    for ((track, division, solver), rundefinitions) in runs {
        let Some(def) = track_def(comp, track) else {
            continue;
        };
        let (limits, cpu_model) = match (track, input.test) {
            (Track::UnsatCoreValidation, _) => (
                def.validation_limits.unwrap_or(def.limits),
                def.cpu_model.clone(),
            ),
            (_, true) => (def.test_limits, def.test_cpu_model.clone()),
            (_, false) => (def.limits, def.cpu_model.clone()),
        };
        let slug = &slugs[&solver];
        let file = format!(
            "{slug}{}_{}.xml",
            track.benchexec_suffix(),
            sanitize(division.as_str())
        );
        // Task basenames must be unique per rundefinition (logs are keyed by them).
        for (name, rd) in &rundefinitions {
            let mut seen = BTreeSet::new();
            for l in &rd.logics {
                for t in &by_logic[&track][l] {
                    let base = t.rsplit('/').next().unwrap_or(t);
                    if !seen.insert(base) {
                        problems.push(format!(
                            "{file}: rundefinition '{name}': two tasks named '{base}'; BenchExec would overwrite one log with the other"
                        ));
                    }
                }
            }
        }
        let stem = file.trim_end_matches(".xml").to_string();
        let previous = definitions.insert(
            file.clone(),
            Definition {
                path: format!("definitions/{file}"),
                solver: solver.clone(),
                track,
                division: division.clone(),
                tool_module: tool_module(track).to_string(),
                limits,
                cpu_model,
                results_dir: format!("results/{}/{stem}", track.page_suffix()),
                rundefinitions,
            },
        );
        if previous.is_some() {
            problems.push(format!(
                "{file}: two divisions of track {track} have the same file name; rename one"
            ));
        }
    }
    if !problems.is_empty() {
        return Err(problems);
    }
    let prepared = utf8(&relative(&input.out, &input.prepared)).map_err(|e| vec![e])?;
    let manifest = Manifest {
        format: FORMAT.to_string(),
        prepared,
        version: VERSION,
        year: comp.year,
        competition: comp.name.clone(),
        test: input.test,
        solvers: slugs,
        definitions,
        tasks,
    };
    Ok((manifest, warnings))
}
