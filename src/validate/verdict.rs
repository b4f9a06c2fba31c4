//! The verdicts written into the run table (`IngestRecord::validation`) and
//! what they mean for scoring (rules 2025 sections 5.4, 5.5, 7.1.4, 7.1.5).

use crate::ingest::{IngestRecord, RunAnswer};
use crate::model::{Answer, Track};
use serde::{Deserialize, Serialize};

/// A validation verdict for one run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum Verdict {
    /// Unsat-Core Track: the majority vote of the validation solvers.
    Core(CoreVerdict),
    /// Model-Validation Track: the model validator's result.
    Model(ModelVerdict),
}

/// The outcome of core validation (rules 5.4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CoreStatus {
    /// More validators said `unsat` than `sat`: the core counts.
    Validated,
    /// At least as many said `sat` as `unsat`, and at least one said `sat`:
    /// the result is erroneous (e = 1).
    Refuted,
    /// No validator said `sat` or `unsat` (0/0): no points (2025), no error.
    NotValidated,
}

/// One validation solver's answer on the core-restricted benchmark.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ValidatorAnswer {
    /// The validation solver.
    pub solver: String,
    /// Its answer (`sat`, `unsat`, `unknown`, `timeout`, `memout`, `error`).
    pub answer: RunAnswer,
}

/// Core validation verdict of one Unsat-Core run.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CoreVerdict {
    /// The majority-rule outcome.
    pub status: CoreStatus,
    /// Validators that answered `unsat`.
    pub unsat: u32,
    /// Validators that answered `sat`.
    pub sat: u32,
    /// Validators with any other outcome (unknown, timeout, error, no run).
    pub other: u32,
    /// Every validator's answer, sorted by solver.
    pub validators: Vec<ValidatorAnswer>,
    /// The core-restricted benchmark (relative to the validation track directory).
    pub file: String,
}

/// The three outcomes of model validation (rules 5.5).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "UPPERCASE")]
pub enum ModelStatus {
    /// `sat` followed by a full satisfying model: n = 1.
    Valid,
    /// `unsat`, or a model that does not satisfy the benchmark: e = 1.
    Invalid,
    /// No model, a malformed or partial model, or a validator failure: 0/0.
    Unknown,
}

/// Model validation verdict of one Model-Validation run.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ModelVerdict {
    /// VALID / INVALID / UNKNOWN.
    pub status: ModelStatus,
    /// The same in the reference tool's vocabulary (`sat` for VALID,
    /// `ModelUnsat`, `ModelParsingError`, `ModelPartialFunctionMissing`,
    /// `ModelValidatorException`, `ModelValidatorTimeout`,
    /// `ModelValidatorBenchmarkStrictTyping`, `ModelNotValidated`).
    pub result: Answer,
    /// Why (the parse error, the missing symbol, Dolmen's last stderr line, …).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// Which validator decided (`builtin:<solver command>` or `dolmen`).
    pub validator: String,
}

impl ModelVerdict {
    /// A verdict from its reference-tool result.
    pub fn new(result: Answer, reason: Option<String>, validator: &str) -> ModelVerdict {
        let status = match result {
            Answer::Sat => ModelStatus::Valid,
            Answer::ModelUnsat | Answer::Unsat => ModelStatus::Invalid,
            _ => ModelStatus::Unknown,
        };
        ModelVerdict {
            status,
            result,
            reason,
            validator: validator.to_string(),
        }
    }
}

/// A run's score contribution before timing: error score e and correctly
/// solved score n (rules 7.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub struct RunScore {
    /// Error score (0 or 1).
    pub error: u64,
    /// Correctly solved score (UC: the reduction; MV: 0 or 1).
    pub correct: u64,
}

/// What scoring must compute for an Unsat-Core or Model-Validation run from
/// the run table (rules 2025 7.1.4, 7.1.5 with the 2025 "no points for an
/// unvalidated core" change). `asserts` is the benchmark's number of
/// assertions (`PreparedBenchmark::count`). `None` for other tracks.
pub fn run_score(rec: &IngestRecord, asserts: u64) -> Option<RunScore> {
    let e = RunScore {
        error: 1,
        correct: 0,
    };
    let zero = RunScore::default();
    match rec.track? {
        Track::UnsatCore => Some(match rec.answer {
            RunAnswer::Sat => e,
            RunAnswer::Unsat => match (&rec.unsat_core, &rec.validation) {
                // unsat without a core: "no reduction" (rules 5.4).
                (None, _) => zero,
                (Some(core), Some(Verdict::Core(v))) => match v.status {
                    CoreStatus::Validated => RunScore {
                        error: 0,
                        correct: asserts.saturating_sub(core.names.len() as u64),
                    },
                    CoreStatus::Refuted => e,
                    CoreStatus::NotValidated => zero,
                },
                // Not (yet) validated: no points.
                (Some(_), _) => zero,
            },
            _ => zero,
        }),
        Track::ModelValidation => Some(match rec.answer {
            RunAnswer::Unsat => e,
            RunAnswer::Sat => match &rec.validation {
                Some(Verdict::Model(v)) => match v.status {
                    ModelStatus::Valid => RunScore {
                        error: 0,
                        correct: 1,
                    },
                    ModelStatus::Invalid => e,
                    ModelStatus::Unknown => zero,
                },
                _ => zero,
            },
            _ => zero,
        }),
        _ => None,
    }
}

/// The run's answer in the reference tool's results-file vocabulary, with the
/// validation applied (`UnsatCoreNotValidated` for a refuted core, `unknown`
/// for an unvalidated one, the model verdict's `result` for sat MV runs).
/// `None` when no validation applies to the run.
pub fn anchor_answer(rec: &IngestRecord) -> Option<Answer> {
    match (rec.track?, rec.answer, &rec.validation) {
        (Track::UnsatCore, RunAnswer::Unsat, Some(Verdict::Core(v))) => Some(match v.status {
            CoreStatus::Validated => Answer::Unsat,
            CoreStatus::Refuted => Answer::UnsatCoreInvalidated,
            CoreStatus::NotValidated => Answer::Unknown,
        }),
        (Track::UnsatCore, RunAnswer::Unsat, _) if rec.unsat_core.is_some() => {
            Some(Answer::Unknown)
        }
        (Track::ModelValidation, RunAnswer::Sat, Some(Verdict::Model(v))) => Some(v.result),
        (Track::ModelValidation, RunAnswer::Sat, _) => Some(Answer::ModelNotValidated),
        _ => None,
    }
}
