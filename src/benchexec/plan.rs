//! Deciding what to generate: tasks from the prepared sets, one definition per
//! solver x track x division with one rundefinition per participation. The
//! result is the [`Manifest`]; [`super::write`] turns it into files.

use super::BenchexecError;
use super::names::{module_idents, sanitize, solver_slugs};
use super::paths::{pattern_problem, relative, utf8};
use super::store::{NewTask, TaskRef, TaskStore, TrackTasks};
use super::validation::ValidatorSets;
use crate::formats::core_validation::MANIFEST;
use crate::formats::generation::{
    Definition, FORMAT, Manifest, RunDefinition, TaskSelection, ToolModule, VERSION,
};
use crate::formats::prepared::{MANIFEST_NAME, PreparedBenchmark, PreparedSet};
use crate::model::{Competition, Division, Logic, Track, TrackDefinition};
use crate::submission::Submission;
use crate::submission::{SolverLocation, archive_dir, command_for, participation_entries};
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
    /// At most this many tasks per definition (larger ones are split in parts).
    pub max_tasks: usize,
    /// (track, division) pairs not to run (non-competitive divisions, rules 6).
    pub skip_divisions: &'a BTreeSet<(Track, Division)>,
}

/// The default of [`PlanInput::max_tasks`] (`generate --max-tasks`): BenchExec
/// 3.35 loads a definition of this many tasks in a few seconds: 1.2-1.5 ms per
/// run, 3.0 s for 2,031 runs, 66 s for the 53,361 of the largest 2025 definition
/// (`scripts/bench-benchexec-load`, 2-core machine).
pub const DEFAULT_MAX_TASKS: usize = 2000;

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

/// Builds the manifest (without its tasks) and the tasks, or returns every
/// problem found (file, solver, reason).
pub fn plan(input: &PlanInput) -> Result<(Manifest, TaskStore, Vec<String>), Vec<String>> {
    let comp = input.competition;
    let mut problems = Vec::new();
    let mut warnings = Vec::new();
    let mut subs = input.submissions.clone();
    subs.sort_by(|a, b| a.name.cmp(&b.name));
    let slugs =
        solver_slugs(subs.iter().map(|s| s.name.as_str())).map_err(|e| vec![e.to_string()])?;

    // Tasks, by track and path (`by_logic` below indexes them by track and logic).
    let mut store = TaskStore::default();
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
        // Checked in parallel (a file-system lookup each), in order.
        let checked: Vec<Result<NewTask, BenchexecError>> = {
            use rayon::prelude::*;
            set.benchmarks
                .into_par_iter()
                .map(|b| task_of(b, &dir, &input.out, def, track))
                .collect()
        };
        let mut added = Vec::with_capacity(checked.len());
        for c in checked {
            match c {
                Ok(t) => added.push(t),
                Err(p) => problems.push(p.to_string()),
            }
        }
        if let Err(e) = store.add_track(track, added) {
            problems.push(e.to_string());
        }
    }

    // Track -> logic -> its tasks in path order.
    let by_logic: BTreeMap<Track, (&TrackTasks, &BTreeMap<Logic, Vec<u32>>)> = store
        .tracks()
        .iter()
        .map(|t| (t.track(), (t, t.by_logic())))
        .collect();

    // Unsat-core validation: only the validators `validate-cores generate` chose.
    let validators = match ValidatorSets::read(&input.prepared) {
        Ok(v) => v,
        Err(e) => {
            problems.push(e.to_string());
            None
        }
    };
    let mut validating: BTreeSet<(String, Logic)> = BTreeSet::new();

    // (track, division, solver) -> rundefinitions.
    type Key = (Track, Division, String);
    let mut runs: BTreeMap<Key, BTreeMap<String, RunDefinition>> = BTreeMap::new();
    // (solver, track module) -> the binary of its first participation.
    let mut binaries: BTreeMap<(String, &str), String> = BTreeMap::new();
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
                let Some((_, prepared)) = by_logic.get(&track) else {
                    continue;
                };
                for (division, logics) in divisions {
                    if input.skip_divisions.contains(&(track, division.clone())) {
                        continue;
                    }
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
                            problems.push(e.to_string());
                            continue;
                        }
                    };
                    let count = logics.iter().map(|l| prepared[l].len()).sum();
                    let archive = archive_dir(sub, i, &input.location);
                    let binary = solver_binary(sub, i, archive.as_deref(), &command);
                    let name = format!("{slug},{i},{}", track.name());
                    binaries
                        .entry((sub.name.clone(), tool_module(track)))
                        .or_insert(binary);
                    runs.entry((track, division.clone(), sub.name.clone()))
                        .or_default()
                        .insert(
                            name.clone(),
                            RunDefinition {
                                participation: i,
                                command,
                                logics,
                                tasks: count,
                                archive: archive.clone(),
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

    let idents = module_idents(&slugs);
    let mut tools: BTreeMap<String, ToolModule> = BTreeMap::new();
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
        let (track_tasks, logic_tasks) = by_logic[&track];
        // Task basenames must be unique per rundefinition (logs are keyed by them):
        // those of the task paths, `<base of the prepared path without .smt2>.yml`.
        for (name, rd) in &rundefinitions {
            let mut seen = BTreeSet::new();
            for l in &rd.logics {
                for &i in &logic_tasks[l] {
                    let t = track_tasks.get(&store, i).path.trim_end_matches(".smt2");
                    let base = t.rsplit('/').next().unwrap_or(t);
                    if !seen.insert(base) {
                        let base = format!("{base}.yml");
                        problems.push(format!(
                            "{file}: rundefinition '{name}': two tasks named '{base}'; BenchExec would overwrite one log with the other"
                        ));
                    }
                }
            }
        }
        let stem = file.trim_end_matches(".xml").to_string();
        let base = tool_module(track);
        let module = format!("{base}_{}", idents[&solver]);
        let entry = tools.entry(module.clone()).or_insert_with(|| ToolModule {
            base: base.trim_start_matches("tools.").to_string(),
            solver: solver.clone(),
            version: version_of(subs.iter().find(|s| s.name == solver).copied()),
            binary: binaries[&(solver.clone(), base)].clone(),
            program_files: Vec::new(),
            continue_after_unknown: track == Track::Incremental
                && track_def(comp, track).is_some_and(|d| d.continue_after_unknown),
        });
        for rd in rundefinitions.values() {
            if let Some(a) = &rd.archive
                && !entry.program_files.contains(a)
            {
                entry.program_files.push(a.clone());
            }
        }
        entry.program_files.sort();
        // The definition's tasks (logic order, then path order) by heat, in
        // chunks of at most `max_tasks`: one definition each.
        let logics: BTreeSet<&Logic> = rundefinitions.values().flat_map(|r| &r.logics).collect();
        let all_logics: Vec<Logic> = logics.iter().map(|l| (*l).clone()).collect();
        let mut groups: BTreeMap<Option<u32>, Vec<TaskRef>> = BTreeMap::new();
        for l in logics {
            for &i in &logic_tasks[l] {
                let t = track_tasks.get(&store, i);
                groups.entry(t.heat).or_default().push(t);
            }
        }
        let max = input.max_tasks.max(1);
        let whole = groups.len() == 1 && groups.contains_key(&None) && groups[&None].len() <= max;
        let mut parts: Vec<(
            String,
            Option<TaskSelection>,
            BTreeMap<String, RunDefinition>,
        )> = Vec::new();
        if whole {
            parts.push((stem.clone(), None, rundefinitions));
        } else {
            for (heat, list) in &groups {
                let n = list.len().div_ceil(max);
                for (k, chunk) in list.chunks(max).enumerate() {
                    let mut name = stem.clone();
                    if let Some(h) = heat {
                        name.push_str(&format!("_heat{h}"));
                    }
                    if n > 1 {
                        name.push_str(&format!("_part{}", k + 1));
                    }
                    let mut rds = rundefinitions.clone();
                    for rd in rds.values_mut() {
                        rd.tasks = chunk
                            .iter()
                            .filter(|t| rd.logics.iter().any(|l| l.as_str() == t.logic))
                            .count();
                    }
                    rds.retain(|_, rd| rd.tasks > 0);
                    if rds.is_empty() {
                        continue;
                    }
                    let sel = TaskSelection {
                        heat: *heat,
                        logics: all_logics.clone(),
                        offset: k * max,
                        len: chunk.len(),
                    };
                    parts.push((name, Some(sel), rds));
                }
            }
        }
        for (name, selection, rundefinitions) in parts {
            let file = format!("{name}.xml");
            let previous = definitions.insert(
                file.clone(),
                Definition {
                    path: format!("definitions/{file}"),
                    solver: solver.clone(),
                    track,
                    division: division.clone(),
                    tool_module: module.clone(),
                    limits,
                    cpu_model: cpu_model.clone(),
                    results_dir: format!("results/{}/{name}", track.page_suffix()),
                    rundefinitions,
                    selection,
                },
            );
            if previous.is_some() {
                problems.push(format!(
                    "{file}: two divisions of track {track} have the same file name; rename one"
                ));
            }
        }
    }
    if !problems.is_empty() {
        return Err(problems);
    }
    let prepared = utf8(&relative(&input.out, &input.prepared)).map_err(|e| vec![e.to_string()])?;
    let manifest = Manifest {
        format: FORMAT.to_string(),
        prepared,
        version: VERSION,
        year: comp.year,
        competition: comp.name.clone(),
        test: input.test,
        solvers: slugs,
        definitions,
        tasks: BTreeMap::new(),
        tools,
    };
    drop(by_logic);
    Ok((manifest, store, warnings))
}

/// The task of prepared benchmark `b` of `track` (in `dir`), or the problem with it.
fn task_of(
    b: PreparedBenchmark,
    dir: &Path,
    out: &Path,
    def: &TrackDefinition,
    track: Track,
) -> Result<NewTask, BenchexecError> {
    let input = |file: &Path, reason: String| BenchexecError::Input {
        file: file.to_path_buf(),
        reason,
    };
    let src = dir.join(&b.path);
    let bad_path = Path::new(&b.path)
        .components()
        .any(|c| !matches!(c, std::path::Component::Normal(_)));
    if bad_path || !b.path.ends_with(".smt2") {
        return Err(input(
            &dir.join(MANIFEST_NAME),
            format!(
                "prepared path '{}' must be a relative .smt2 path without '..'",
                b.path
            ),
        ));
    }
    if let Some(p) = pattern_problem(&b.path) {
        return Err(input(&dir.join(MANIFEST_NAME), p));
    }
    if !src.is_file() {
        return Err(input(&src, "prepared file missing".into()));
    }
    let logic = &b.original.logic;
    let Some(division) = def.division_of(logic.as_str()) else {
        return Err(input(
            &src,
            format!("logic {logic} is not in any division of track {track}"),
        ));
    };
    let yml_dir = out.join(super::store::task_path(track, &b.path));
    let yml_dir = yml_dir.parent().unwrap_or(out);
    let input_file = utf8(&relative(yml_dir, &src))?;
    if let Some(p) = pattern_problem(&input_file) {
        return Err(input(&src, p));
    }
    Ok(NewTask {
        path: b.path,
        original: b.original,
        input_file,
        division: division.clone(),
        status: b.status,
        expected: b.expected,
        heat: b.heat,
    })
}

/// The solver binary participation `i` runs (what `executable()` of the file-based
/// tool-info module returns): the command's first word, or for a `compa_starexec`
/// command (run through `bash -c`) the script in the archive.
pub(super) fn solver_binary(
    sub: &Submission,
    i: usize,
    archive: Option<&str>,
    command: &[String],
) -> String {
    let p = &sub.participations[i];
    match (sub.command_of(p), archive) {
        (Some(c), Some(dir)) if c.compa_starexec => {
            format!("{dir}/{}", c.binary.trim_start_matches("./"))
        }
        _ => command.first().cloned().unwrap_or_default(),
    }
}

/// The `version()` of a solver's tool-info modules: the submission names no
/// version, so its archive identifies the build: `sha256:<first 16 hex digits>`
/// when the submission gives the hash, else the archive's file name, else empty.
fn version_of(sub: Option<&Submission>) -> String {
    let Some(archive) = sub.and_then(|s| {
        s.archive
            .as_ref()
            .or_else(|| s.participations.iter().find_map(|p| p.archive.as_ref()))
    }) else {
        return String::new();
    };
    if let Some(h) = archive.hash.as_ref().and_then(|h| h.sha256.as_ref()) {
        return format!("sha256:{}", h.chars().take(16).collect::<String>());
    }
    let path = archive.url.split(['?', '#']).next().unwrap_or_default();
    path.trim_end_matches('/')
        .rsplit('/')
        .next()
        .unwrap_or_default()
        .to_string()
}
