//! The verdicts written into the run table (`IngestRecord::validation`) by
//! unsat-core and model validation (rules 2025 sections 5.4, 5.5); what they
//! mean for scoring is `scoring::runtable`.

use crate::formats::run_answer::RunAnswer;
use crate::model::Answer;
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
    /// The core names an assertion the benchmark does not have: the result of
    /// `get-unsat-core` is not well-formed (rules 7.1.4, 2023 and 2025):
    /// e = 0, n = 0, whatever the validators say.
    Malformed,
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
