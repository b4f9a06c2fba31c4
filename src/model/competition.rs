//! A resolved competition definition and its queries.

use super::file::{
    CompetitionFile, RemovedBenchmark, SeedInputs, SelectionParams, TrackFile, TrackSelection,
};
use super::names::is_valid_name;
use super::{Division, Limits, Logic, RulesEdition, Track};
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The competition definitions embedded in the binary: (year, TOML text).
const BUILTIN: &[(u16, &str)] = &[
    (2008, include_str!("../../competitions/2008.toml")),
    (2015, include_str!("../../competitions/2015.toml")),
    (2023, include_str!("../../competitions/2023.toml")),
    (2025, include_str!("../../competitions/2025.toml")),
];

/// The default year (edition) when none is given.
pub const DEFAULT_YEAR: u16 = 2025;

/// Why a competition definition could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum CompetitionError {
    /// The file could not be read.
    /// (The I/O error is part of the message, not a `source`: printed once.)
    #[error("{path}: cannot read competition file: {error}")]
    Read {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        error: std::io::Error,
    },
    /// The file is not valid TOML/JSON for the schema.
    #[error("{origin}: invalid competition definition: {message}")]
    Syntax {
        /// File name or `built-in <year>`.
        origin: String,
        /// The parser's message (with line and column).
        message: String,
    },
    /// The file parses but is inconsistent.
    #[error("{origin}: {path}: {reason}")]
    Invalid {
        /// File name or `built-in <year>`.
        origin: String,
        /// Where in the definition (`tracks.Parallel.divisions_from`).
        path: String,
        /// What is wrong and how to fix it.
        reason: String,
    },
    /// No built-in definition for the year.
    #[error(
        "no built-in competition definition for {0} (built-in: 2008, 2015, 2023, 2025); pass one with --competition FILE"
    )]
    UnknownYear(u16),
}

/// One track of a resolved competition.
#[derive(Debug, Clone, Serialize)]
pub struct TrackDefinition {
    /// The track.
    pub track: Track,
    /// Competition limits.
    pub limits: Limits,
    /// Test-mode limits.
    pub test_limits: Limits,
    /// Limits of validation runs, where the track has them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub validation_limits: Option<Limits>,
    /// Whether the whole track is experimental.
    pub experimental: bool,
    /// Whether the track is held this year.
    pub held: bool,
    /// CPU model the runs require (BenchExec `<require cpuModel>`), if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cpu_model: Option<String>,
    /// CPU model required in test mode, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub test_cpu_model: Option<String>,
    /// This track's own selection size, if it differs from the competition's.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub selection: Option<TrackSelection>,
    /// Division -> logics (sorted).
    pub divisions: BTreeMap<Division, Vec<Logic>>,
    /// Experimental divisions.
    pub experimental_divisions: BTreeSet<Division>,
    /// Incremental: run check-sats after an `unknown` expectation too
    /// (`smtcomp-trace-executor --continue-after-unknown`).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub continue_after_unknown: bool,
    #[serde(skip)]
    division_of: BTreeMap<Logic, Division>,
}

impl TrackDefinition {
    /// The division of this track that contains `logic`, if any.
    pub fn division_of(&self, logic: &str) -> Option<&Division> {
        self.division_of.get(logic)
    }

    /// The logics of `division` in this track, if it exists.
    pub fn logics_of(&self, division: &str) -> Option<&[Logic]> {
        self.divisions.get(division).map(Vec::as_slice)
    }

    /// Every logic of the track, sorted.
    pub fn logics(&self) -> impl Iterator<Item = &Logic> {
        self.division_of.keys()
    }

    /// Whether `division` is experimental in this track (or the track is).
    pub fn is_experimental(&self, division: &str) -> bool {
        self.experimental || self.experimental_divisions.contains(division)
    }
}

/// A resolved, checked competition definition.
#[derive(Debug, Clone, Serialize)]
pub struct Competition {
    /// The competition year.
    pub year: u16,
    /// Display name.
    pub name: String,
    /// Rules edition.
    pub rules: RulesEdition,
    /// Seed inputs.
    pub seed: SeedInputs,
    /// Selection parameters.
    pub selection: SelectionParams,
    /// Benchmarks removed before selection.
    pub removed_benchmarks: Vec<RemovedBenchmark>,
    /// Derived solver -> base solver.
    pub base_solvers: BTreeMap<String, String>,
    /// Solver -> explicit team name (from the definition's `[teams]`), overriding
    /// the teams derived from shared contributors.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub teams: BTreeMap<String, String>,
    /// The tracks, keyed by track.
    pub tracks: BTreeMap<Track, TrackDefinition>,
    /// Where the definition came from (file path or `built-in 2025`).
    #[serde(skip)]
    pub origin: String,
}

impl Competition {
    /// The built-in definition of `year`.
    pub fn builtin(year: u16) -> Result<Competition, CompetitionError> {
        let (_, text) = BUILTIN
            .iter()
            .find(|(y, _)| *y == year)
            .ok_or(CompetitionError::UnknownYear(year))?;
        Competition::from_toml(text, &format!("built-in {year}"))
    }

    /// Years with a built-in definition.
    pub fn builtin_years() -> Vec<u16> {
        BUILTIN.iter().map(|(y, _)| *y).collect()
    }

    /// The largest definition file read.
    pub const MAX_DEFINITION_BYTES: u64 = 16 << 20;

    /// Loads a definition file: JSON if it ends in `.json`, TOML otherwise.
    pub fn from_path(path: &Path) -> Result<Competition, CompetitionError> {
        // A definition is a few kilobytes: a device or a huge file is refused, not read.
        let text = read_definition(path).map_err(|error| CompetitionError::Read {
            path: path.to_path_buf(),
            error,
        })?;
        let origin = path.display().to_string();
        if path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("json"))
        {
            let file: CompetitionFile =
                serde_json::from_str(&text).map_err(|e| CompetitionError::Syntax {
                    origin: origin.clone(),
                    message: e.to_string(),
                })?;
            Competition::from_definition(file, &origin)
        } else {
            Competition::from_toml(&text, &origin)
        }
    }

    /// Parses a TOML definition; `origin` names it in errors.
    pub fn from_toml(text: &str, origin: &str) -> Result<Competition, CompetitionError> {
        let file: CompetitionFile = toml::from_str(text).map_err(|e| CompetitionError::Syntax {
            origin: origin.to_string(),
            message: e.to_string().trim_end().to_string(),
        })?;
        Competition::from_definition(file, origin)
    }

    /// Resolves and checks a parsed definition.
    pub fn from_definition(
        file: CompetitionFile,
        origin: &str,
    ) -> Result<Competition, CompetitionError> {
        let invalid = |path: String, reason: String| CompetitionError::Invalid {
            origin: origin.to_string(),
            path,
            reason,
        };
        let sel = &file.selection;
        if !(0.0..=1.0).contains(&sel.ratio_of_used_benchmarks) {
            return Err(invalid(
                "selection.ratio_of_used_benchmarks".into(),
                format!(
                    "must be between 0 and 1, got {}",
                    sel.ratio_of_used_benchmarks
                ),
            ));
        }
        let mut teams: BTreeMap<String, String> = BTreeMap::new();
        for (team, solvers) in &file.teams {
            for solver in solvers {
                if let Some(other) = teams.insert(solver.clone(), team.clone()) {
                    return Err(invalid(
                        format!("teams.{team}"),
                        format!("solver '{solver}' is also in team '{other}'"),
                    ));
                }
            }
        }
        let mut tracks = BTreeMap::new();
        for (&track, def) in &file.tracks {
            let at = |field: &str| format!("tracks.{track}.{field}");
            let divisions = resolve_divisions(&file.tracks, track, def)
                .map_err(|(field, reason)| invalid(at(&field), reason))?;
            let mut division_of = BTreeMap::new();
            for (division, logics) in &divisions {
                if !is_valid_name(division.as_str()) {
                    return Err(invalid(
                        at("divisions"),
                        format!("'{division}' is not a valid division name"),
                    ));
                }
                if logics.is_empty() {
                    return Err(invalid(
                        at(&format!("divisions.\"{division}\"")),
                        "a division needs at least one logic".into(),
                    ));
                }
                for logic in logics {
                    if !is_valid_name(logic.as_str()) {
                        return Err(invalid(
                            at(&format!("divisions.\"{division}\"")),
                            format!("'{logic}' is not a valid logic name"),
                        ));
                    }
                    if let Some(other) = division_of.insert(logic.clone(), division.clone()) {
                        return Err(invalid(
                            at("divisions"),
                            format!(
                                "logic {logic} is in two divisions ({other} and {division}); a logic belongs to one division per track"
                            ),
                        ));
                    }
                }
            }
            for d in &def.experimental_divisions {
                if !divisions.contains_key(d) {
                    return Err(invalid(
                        at("experimental_divisions"),
                        format!("'{d}' is not a division of this track"),
                    ));
                }
            }
            for (field, limits) in [("limits", def.limits), ("test_limits", def.test_limits)] {
                if limits.time_s == 0 || limits.memory_mb == 0 || limits.cores == 0 {
                    return Err(invalid(at(field), "limits must all be positive".into()));
                }
            }
            let divisions = divisions
                .into_iter()
                .map(|(d, mut l)| {
                    l.sort();
                    (d, l)
                })
                .collect();
            tracks.insert(
                track,
                TrackDefinition {
                    track,
                    limits: def.limits,
                    test_limits: def.test_limits,
                    validation_limits: def.validation_limits,
                    experimental: def.experimental,
                    held: def.held,
                    cpu_model: def.cpu_model.clone(),
                    test_cpu_model: def.test_cpu_model.clone(),
                    selection: def.selection,
                    divisions,
                    experimental_divisions: def.experimental_divisions.iter().cloned().collect(),
                    continue_after_unknown: def.continue_after_unknown,
                    division_of,
                },
            );
        }
        let competition = Competition {
            year: file.year,
            name: file.name,
            rules: file.rules,
            seed: file.seed,
            selection: file.selection,
            removed_benchmarks: file.removed_benchmarks,
            base_solvers: file.base_solvers,
            teams,
            tracks,
            origin: origin.to_string(),
        };
        for (i, removed) in competition.removed_benchmarks.iter().enumerate() {
            if !competition.knows_logic(removed.logic.as_str()) {
                return Err(invalid(
                    format!("removed_benchmarks[{i}].logic"),
                    format!("'{}' is not a logic of any track", removed.logic),
                ));
            }
        }
        Ok(competition)
    }

    /// The definition of `track`, if the competition has it.
    pub fn track(&self, track: Track) -> Option<&TrackDefinition> {
        self.tracks.get(&track)
    }

    /// Every logic of every track, sorted and de-duplicated.
    pub fn all_logics(&self) -> BTreeSet<&Logic> {
        self.tracks.values().flat_map(|t| t.logics()).collect()
    }

    /// Whether any track has `logic`.
    pub fn knows_logic(&self, logic: &str) -> bool {
        self.tracks.values().any(|t| t.division_of(logic).is_some())
    }

    /// Whether any track has `division`.
    pub fn knows_division(&self, division: &str) -> bool {
        self.tracks
            .values()
            .any(|t| t.divisions.contains_key(division))
    }
}

/// The division map of `track`: its own, or the one of its `divisions_from` track.
fn resolve_divisions(
    all: &BTreeMap<Track, TrackFile>,
    track: Track,
    def: &TrackFile,
) -> Result<BTreeMap<Division, Vec<Logic>>, (String, String)> {
    match (&def.divisions, def.divisions_from) {
        (Some(_), Some(_)) => Err((
            "divisions_from".into(),
            "give either `divisions` or `divisions_from`, not both".into(),
        )),
        (None, None) => Err((
            "divisions".into(),
            "missing: give the division -> logics map or `divisions_from = \"<Track>\"`".into(),
        )),
        (Some(d), None) => Ok(d.clone()),
        (None, Some(from)) => match all.get(&from) {
            Some(TrackFile {
                divisions: Some(d), ..
            }) => Ok(d.clone()),
            Some(_) => Err((
                "divisions_from".into(),
                format!("track {from} has no own `divisions` map (chains are not followed)"),
            )),
            None if from == track => Err((
                "divisions_from".into(),
                "a track cannot take its divisions from itself".into(),
            )),
            None => Err((
                "divisions_from".into(),
                format!("track {from} is not defined in this file"),
            )),
        },
    }
}

/// The text of a definition file, at most [`Competition::MAX_DEFINITION_BYTES`].
fn read_definition(path: &Path) -> std::io::Result<String> {
    use std::io::Read;
    let cap = Competition::MAX_DEFINITION_BYTES;
    let mut text = String::new();
    std::fs::File::open(path)?
        .take(cap + 1)
        .read_to_string(&mut text)?;
    if text.len() as u64 > cap {
        return Err(std::io::Error::other(format!(
            "larger than {cap} bytes: not a competition definition (a device or the wrong file?)"
        )));
    }
    Ok(text)
}
