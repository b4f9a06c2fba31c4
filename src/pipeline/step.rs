//! The typed error of a pipeline step: which step failed, and why.

/// A step of the pipeline (see the table in [`crate::pipeline`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Step {
    /// The benchmark library scanned into an inventory.
    Inventory,
    /// Benchmarks selected per track.
    Selection,
    /// Selected benchmarks prepared (scrambled, per track).
    Preparation,
    /// BenchExec definitions, tasks and tool-info modules written.
    Generation,
    /// The definitions executed by a runner backend, and their runs accounted for.
    Runs,
    /// Result files read into the run table.
    Ingestion,
    /// The unsat-core validation tasks written (distinct cores of the Unsat Core runs).
    CoreTasks,
    /// BenchExec definitions of the core-validation runs written.
    CoreGeneration,
    /// The core-validation definitions executed by the runner backend.
    CoreRuns,
    /// Unsat cores and models validated.
    Validation,
    /// Scores and rankings computed.
    Scoring,
    /// Pages and files rendered.
    Report,
}

/// A stage name that names no stage (`--until`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown stage `{0}` (one of: {names})", names = Step::ALL.map(Step::name).join(", "))]
pub struct UnknownStage(pub String);

impl Step {
    /// Every step, in the order the driver ([`crate::pipeline::drive`]) takes them.
    pub const ALL: [Step; 12] = [
        Step::Inventory,
        Step::Selection,
        Step::Preparation,
        Step::Generation,
        Step::Runs,
        Step::Ingestion,
        Step::CoreTasks,
        Step::CoreGeneration,
        Step::CoreRuns,
        Step::Validation,
        Step::Scoring,
        Step::Report,
    ];

    /// The step named `name` (case-insensitive), or an error listing them.
    pub fn named(name: &str) -> Result<Step, UnknownStage> {
        Step::ALL
            .into_iter()
            .find(|s| s.name().eq_ignore_ascii_case(name.trim()))
            .ok_or_else(|| UnknownStage(name.to_string()))
    }

    /// The step's name in messages.
    pub fn name(self) -> &'static str {
        match self {
            Step::Inventory => "inventory",
            Step::Selection => "selection",
            Step::Preparation => "preparation",
            Step::Generation => "generation",
            Step::Runs => "runs",
            Step::Ingestion => "ingestion",
            Step::CoreTasks => "core validation: tasks",
            Step::CoreGeneration => "core validation: generation",
            Step::CoreRuns => "core validation: runs",
            Step::Validation => "validation",
            Step::Scoring => "scoring",
            Step::Report => "report",
        }
    }

    /// Runs `work` as this step: its error becomes a [`StageError`] of it.
    pub fn scope<T>(self, work: impl FnOnce() -> anyhow::Result<T>) -> StageResult<T> {
        work().map_err(|error| StageError { step: self, error })
    }
}

impl std::fmt::Display for Step {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// Why a pipeline step failed. Its message is the underlying error's (with
/// its context chain), unchanged; [`StageError::step`] says which step it was,
/// for callers that react per step (the demo's stage log, exit codes).
#[derive(Debug, thiserror::Error)]
#[error("{error:#}")]
pub struct StageError {
    /// The step that failed.
    pub step: Step,
    /// What went wrong, with context.
    pub error: anyhow::Error,
}

/// The result of a pipeline step.
pub type StageResult<T> = Result<T, StageError>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_failed_step_names_itself_and_keeps_the_message() {
        let e = Step::Generation
            .scope(|| -> anyhow::Result<()> {
                Err(anyhow::anyhow!("inner")).map_err(|e| e.context("outer"))
            })
            .unwrap_err();
        assert_eq!(e.step, Step::Generation);
        assert_eq!(e.to_string(), "outer: inner");
        assert_eq!(Step::Runs.to_string(), "runs");
        assert_eq!(Step::Scoring.scope(|| Ok(3)).unwrap(), 3);
        assert_eq!(Step::named(" Core Validation: Runs"), Ok(Step::CoreRuns));
        let e = Step::named("scores").unwrap_err();
        assert_eq!(e, UnknownStage("scores".into()));
        assert!(
            e.to_string()
                .starts_with("unknown stage `scores` (one of: inventory, selection,"),
            "{e}"
        );
    }
}
