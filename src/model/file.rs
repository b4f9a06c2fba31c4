//! The on-disk form of a competition definition (TOML or JSON).
//!
//! These structs mirror the file one to one; [`super::Competition::from_definition`]
//! resolves and checks them (shared division maps, duplicate logics, ...).

use super::{Division, Limits, Logic, RulesEdition, Track};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// A competition definition as written in a file.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CompetitionFile {
    /// The competition year.
    pub year: u16,
    /// Display name, e.g. `SMT-COMP 2025`.
    pub name: String,
    /// The rules edition whose semantics apply.
    pub rules: RulesEdition,
    /// Inputs of the competition seed.
    #[serde(default)]
    pub seed: SeedInputs,
    /// Benchmark selection parameters.
    pub selection: SelectionParams,
    /// Benchmarks removed before selection.
    #[serde(default)]
    pub removed_benchmarks: Vec<RemovedBenchmark>,
    /// Derived solver name -> base solver name.
    #[serde(default)]
    pub base_solvers: BTreeMap<String, String>,
    /// Explicit teams (team name -> solver names), overriding the teams derived
    /// from shared contributors for the solvers listed (rules section 6).
    #[serde(default)]
    pub teams: BTreeMap<String, Vec<String>>,
    /// Track name -> definition.
    pub tracks: BTreeMap<Track, TrackFile>,
}

/// Inputs of the competition seed besides the submissions' own seeds.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeedInputs {
    /// floor(100 x opening value of the NYSE Composite Index), once known.
    pub nyse_value: Option<u64>,
    /// The date from which the NYSE value is taken (ISO 8601).
    pub nyse_date: Option<String>,
}

/// Benchmark selection parameters (rules section 6).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SelectionParams {
    /// Floor of the per-logic cap.
    pub min_used_benchmarks: u64,
    /// Fraction of a logic's benchmarks used above the floor.
    pub ratio_of_used_benchmarks: f64,
    /// Unsat-core track: minimum number of assertions of a benchmark.
    pub unsat_core_min_num_asserts: u64,
    /// Years of previous results that decide triviality.
    #[serde(default)]
    pub previous_results_years: Vec<u16>,
    /// Families whose first part starts with this are new (SMT-LIB families are
    /// date-prefixed, e.g. `20250412-...`); `None`: no benchmark is new.
    #[serde(default)]
    pub new_family_prefix: Option<String>,
    /// How new benchmarks are preferred when a logic is capped.
    #[serde(default)]
    pub new_benchmark_priority: NewBenchmarkPriority,
    /// A benchmark is trivial when every previous result solved it in less than
    /// this much CPU time (rules: "less than one second").
    #[serde(default = "default_trivial_time")]
    pub trivial_time_s: f64,
    /// Parallel/Cloud: a benchmark is hard when some solver needed more than this.
    #[serde(default)]
    pub parallel_hard_time_s: Option<u32>,
    /// Parallel/Cloud: number of benchmarks selected.
    #[serde(default)]
    pub parallel_num_selected: Option<u32>,
}

fn default_trivial_time() -> f64 {
    1.0
}

/// How a capped logic prefers new benchmarks.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum NewBenchmarkPriority {
    /// Rules 2025 section 6: one random benchmark from each new family first, then
    /// uniformly from all the rest.
    #[default]
    OnePerFamily,
    /// The reference tool's behaviour (named policy): as many new benchmarks as fit
    /// first, then old ones.
    AllNewFirst,
}

/// A benchmark removed from the library before selection.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RemovedBenchmark {
    /// Its logic.
    pub logic: Logic,
    /// Its family path (`a/b`).
    pub family: String,
    /// Its file name.
    pub name: String,
    /// Why it was removed.
    #[serde(default)]
    pub reason: String,
}

/// One track as written in a file.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TrackFile {
    /// Competition limits.
    pub limits: Limits,
    /// Test-mode limits.
    pub test_limits: Limits,
    /// Limits of validation runs (unsat-core track).
    #[serde(default)]
    pub validation_limits: Option<Limits>,
    /// Division -> logics. Exclusive with `divisions_from`.
    #[serde(default)]
    pub divisions: Option<BTreeMap<Division, Vec<Logic>>>,
    /// Reuse the division map of another track.
    #[serde(default)]
    pub divisions_from: Option<Track>,
    /// Experimental divisions of this track.
    #[serde(default)]
    pub experimental_divisions: Vec<Division>,
    /// Whether the whole track is experimental.
    #[serde(default)]
    pub experimental: bool,
    /// Whether the track is held this year (default true).
    #[serde(default = "default_true")]
    pub held: bool,
    /// CPU model the runs require (BenchExec `<require cpuModel>`), if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cpu_model: Option<String>,
    /// CPU model required in test mode, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub test_cpu_model: Option<String>,
    /// This track's own number of benchmarks per logic, if it differs from the
    /// competition-wide `[selection]` (2023 rules 6: the Proof Exhibition Track
    /// runs min(n, max(150, 25n/100))).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub selection: Option<TrackSelection>,
    /// Incremental Track: the trace executor runs every check-sat, also after one
    /// whose expected status is `unknown` (`--continue-after-unknown`; the
    /// organizers' tool-info passes it since mid-2025). Default false: the run
    /// stops at the first `unknown` expectation, as the original executor did.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub continue_after_unknown: bool,
}

/// A track's own selection size: min(n, max(min_used_benchmarks, ratio * n)).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TrackSelection {
    /// Minimum number of benchmarks per logic.
    pub min_used_benchmarks: u64,
    /// Ratio of the benchmarks of a logic.
    pub ratio_of_used_benchmarks: f64,
}

fn default_true() -> bool {
    true
}
