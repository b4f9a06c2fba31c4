//! The competition's stage sequence, written once. [`drive`] takes every
//! [`Step`] in order ([`Step::ALL`]); a [`Plan`] says, per step, whether it is
//! skipped, cached or always done, and does it. `smtcomp run` (a workspace),
//! `smtcomp demo` and `smtcomp test-solver` are plans: configurations of
//! which stages run, on which backend, with which limits, never another copy
//! of the sequence, its cache, `--until` or its report.
//!
//! ```text
//! inventory -> selection -> preparation -> generation -> runs -> ingestion
//!   -> core validation: tasks -> core validation: generation -> core validation: runs
//!   -> validation (core verdicts, models) -> scoring -> report
//! ```

use super::stage::{Cached, Stages};
use super::step::Step;
use serde::Serialize;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// How a plan treats a step, decided just before it.
#[derive(Debug)]
pub enum Decision {
    /// Not part of this configuration or not needed: the reason.
    Skip(String),
    /// Done unless its inputs (files, trees) did not change since it completed
    /// (the driver's [`Stages`]).
    Cached(Vec<PathBuf>),
    /// Always done (fast, or its own resumption: a BenchExec round).
    Always,
}

/// What a step did.
#[derive(Debug)]
pub enum Outcome {
    /// Done now: its summary.
    Done(String),
    /// Nothing had to be redone (every run already has its result): why.
    Resumed(String),
    /// Not needed after all: why.
    Skipped(String),
    /// Done, and no later step is needed (nothing selected to run): why.
    Finished(String),
}

/// Why a plan stops the sequence.
#[derive(Debug)]
pub enum Stop {
    /// The step waits for an external step (the VerifierCloud): what, and the
    /// commands the organizer runs next.
    Waiting(String, Vec<String>),
    /// The step failed.
    Failed(anyhow::Error),
}

impl<E: Into<anyhow::Error>> From<E> for Stop {
    fn from(e: E) -> Stop {
        Stop::Failed(e.into())
    }
}

/// One configuration of the competition: what each step does.
pub trait Plan {
    /// How `step` is treated; called just before it (earlier steps are done,
    /// their files written). Default: always done.
    fn decide(&mut self, step: Step) -> Result<Decision, Stop> {
        let _ = step;
        Ok(Decision::Always)
    }

    /// Does `step`. A cached step's plan reads what earlier steps wrote, since
    /// a resumed step did not run in this process.
    fn run(&mut self, step: Step) -> Result<Outcome, Stop>;

    /// What the organizer does after every step is done.
    fn next(&self) -> Vec<String> {
        Vec::new()
    }
}

/// How a stage went.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum State {
    /// Done now.
    Done,
    /// Done before; its inputs did not change (nothing redone).
    Resumed,
    /// Not needed (no Unsat Core runs, ...).
    Skipped,
    /// Needs an external step (the VerifierCloud) or missing runs.
    Waiting,
    /// Failed: see the detail.
    Failed,
    /// Not reached.
    Left,
}

impl State {
    /// The word printed.
    pub fn word(self) -> &'static str {
        match self {
            State::Done => "done",
            State::Resumed => "resumed",
            State::Skipped => "skipped",
            State::Waiting => "waiting",
            State::Failed => "failed",
            State::Left => "left",
        }
    }

    /// Done, resumed or skipped: nothing left to do for the stage.
    pub fn complete(self) -> bool {
        matches!(self, State::Done | State::Resumed | State::Skipped)
    }
}

/// One stage's line.
#[derive(Debug, Clone, Serialize)]
pub struct StageLine {
    /// The stage.
    #[serde(serialize_with = "step_name")]
    pub stage: Step,
    /// How it went.
    pub state: State,
    /// Its summary (counts, paths) or why it stopped.
    pub detail: String,
    /// Seconds its work took (0 when resumed, skipped or left).
    #[serde(skip)]
    pub secs: f64,
}

fn step_name<S: serde::Serializer>(step: &Step, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(step.name())
}

impl StageLine {
    /// `stage  state  detail`, aligned.
    pub fn render(&self) -> String {
        format!(
            "{:<28} {:<8} {}",
            self.stage.name(),
            self.state.word(),
            self.detail
        )
        .trim_end()
        .to_string()
    }
}

/// What [`drive`] did: a line per step, in order.
#[derive(Debug, Serialize)]
pub struct RunReport {
    /// Every stage, in order.
    pub stages: Vec<StageLine>,
    /// What the organizer does next (a command), if anything.
    pub next: Vec<String>,
    /// The last stage asked for (`--until`), if not all.
    #[serde(skip_serializing_if = "Option::is_none", serialize_with = "until_name")]
    pub until: Option<Step>,
    /// The error of the failed stage, with its context chain and types (the
    /// line's detail is its text).
    #[serde(skip)]
    pub error: Option<anyhow::Error>,
}

fn until_name<S: serde::Serializer>(step: &Option<Step>, s: S) -> Result<S::Ok, S::Error> {
    match step {
        Some(step) => s.serialize_str(step.name()),
        None => s.serialize_none(),
    }
}

impl RunReport {
    /// Whether every stage (up to `--until`'s) is done, resumed or skipped.
    pub fn complete(&self) -> bool {
        let asked = match self.until {
            Some(u) => Step::ALL.iter().position(|s| *s == u).map_or(0, |i| i + 1),
            None => Step::ALL.len(),
        };
        self.stages.len() >= asked && self.stages[..asked].iter().all(|s| s.state.complete())
    }

    /// The stages not complete (waiting, failed, left).
    pub fn left(&self) -> Vec<Step> {
        self.stages
            .iter()
            .filter(|s| !s.state.complete())
            .map(|s| s.stage)
            .collect()
    }

    /// The report as a result: the failed stage's error (`stage NAME: ...`),
    /// or an error naming the waiting or left stages when not complete.
    pub fn into_result(mut self) -> anyhow::Result<RunReport> {
        if let Some(e) = self.error.take() {
            let at = self
                .stages
                .iter()
                .find(|s| s.state == State::Failed)
                .map_or("", |s| s.stage.name());
            return Err(e.context(format!("stage {at}")));
        }
        if !self.complete() {
            let left: Vec<&str> = self.left().iter().map(|s| s.name()).collect();
            anyhow::bail!("not complete: {}", left.join(", "));
        }
        Ok(self)
    }
}

/// Where a plan's cached steps remember their inputs: `OUT/.stages/`; `fresh`
/// redoes every step.
pub struct Cache<'a> {
    /// The output directory.
    pub out: &'a Path,
    /// Redo every step.
    pub fresh: bool,
}

/// Takes every step of [`Step::ALL`] in order with `plan`; `log` gets each
/// stage's line as it ends. Stops after `until`'s step (the later ones are
/// `left`), at a failed or waiting step, or when a step finishes the plan
/// (the later ones are `skipped`). Never fails as a whole: a failed stage is
/// a line of the report (and [`RunReport::error`]).
pub fn drive(
    plan: &mut dyn Plan,
    cache: Option<Cache<'_>>,
    until: Option<Step>,
    log: &mut dyn FnMut(&StageLine),
) -> RunReport {
    let mut report = RunReport {
        stages: Vec::new(),
        next: Vec::new(),
        until,
        error: None,
    };
    let mut push = |report: &mut RunReport, stage, state, detail: String, secs| {
        let line = StageLine {
            stage,
            state,
            detail,
            secs,
        };
        log(&line);
        report.stages.push(line);
    };
    let mut stages = match cache.map(|c| Stages::new(c.out, c.fresh)).transpose() {
        Ok(s) => s,
        Err(e) => {
            push(
                &mut report,
                Step::ALL[0],
                State::Failed,
                format!("{e:#}"),
                0.0,
            );
            report.error = Some(e);
            for &s in &Step::ALL[1..] {
                push(&mut report, s, State::Left, String::new(), 0.0);
            }
            return report;
        }
    };
    let mut finished: Option<Step> = None;
    for (i, &step) in Step::ALL.iter().enumerate() {
        if let Some(f) = finished {
            let why = format!("nothing to do after {f}");
            push(&mut report, step, State::Skipped, why, 0.0);
            continue;
        }
        let start = Instant::now();
        crate::util::fault::point("before", step.name());
        let result = plan
            .decide(step)
            .and_then(|d| take(plan, step, d, stages.as_mut()));
        let secs = start.elapsed().as_secs_f64();
        let (state, detail) = match result {
            Ok(Taken::Outcome(Outcome::Done(d))) => (State::Done, d),
            Ok(Taken::Outcome(Outcome::Resumed(d))) => (State::Resumed, d),
            Ok(Taken::Outcome(Outcome::Skipped(d))) => (State::Skipped, d),
            Ok(Taken::Outcome(Outcome::Finished(d))) => {
                finished = Some(step);
                (State::Done, d)
            }
            Ok(Taken::Cached(Cached::Ran { summary, secs })) => {
                push(&mut report, step, State::Done, summary, secs);
                crate::util::fault::point("after", step.name());
                if until == Some(step) {
                    stop_until(&mut report, i, &mut push);
                    return report;
                }
                continue;
            }
            Ok(Taken::Cached(Cached::Reused { summary })) => (State::Resumed, summary),
            Err(stop) => {
                let (state, detail) = match stop {
                    Stop::Waiting(d, next) => {
                        report.next = next;
                        (State::Waiting, d)
                    }
                    Stop::Failed(e) => {
                        let d = format!("{e:#}");
                        report.error = Some(e);
                        (State::Failed, d)
                    }
                };
                push(&mut report, step, state, detail, secs);
                for &s in &Step::ALL[i + 1..] {
                    push(&mut report, s, State::Left, String::new(), 0.0);
                }
                return report;
            }
        };
        let secs = if state == State::Done { secs } else { 0.0 };
        push(&mut report, step, state, detail, secs);
        crate::util::fault::point("after", step.name());
        if until == Some(step) {
            stop_until(&mut report, i, &mut push);
            return report;
        }
    }
    report.next = plan.next();
    report
}

/// The steps after `ALL[i]` are left (`--until`); `smtcomp run` goes on later.
fn stop_until(
    report: &mut RunReport,
    i: usize,
    push: &mut impl FnMut(&mut RunReport, Step, State, String, f64),
) {
    for &s in &Step::ALL[i + 1..] {
        push(report, s, State::Left, "not asked (--until)".into(), 0.0);
    }
    if i + 1 < Step::ALL.len() {
        report.next = vec!["smtcomp run".into()];
    }
}

/// A step's result: the plan's outcome, or the cache's.
enum Taken {
    Outcome(Outcome),
    Cached(Cached),
}

fn take(
    plan: &mut dyn Plan,
    step: Step,
    decision: Decision,
    stages: Option<&mut Stages>,
) -> Result<Taken, Stop> {
    match (decision, stages) {
        (Decision::Skip(why), _) => Ok(Taken::Outcome(Outcome::Skipped(why))),
        (Decision::Cached(inputs), Some(stages)) => {
            let inputs: Vec<&Path> = inputs.iter().map(PathBuf::as_path).collect();
            let mut waiting = None;
            let cached = stages.run(step.name(), &inputs, || match plan.run(step) {
                Ok(Outcome::Done(d) | Outcome::Resumed(d) | Outcome::Skipped(d)) => Ok(d),
                Ok(Outcome::Finished(d)) => Ok(d),
                Err(Stop::Failed(e)) => Err(e),
                Err(Stop::Waiting(d, n)) => {
                    waiting = Some((d, n));
                    Err(anyhow::anyhow!("waiting"))
                }
            });
            match (cached, waiting) {
                (_, Some((d, n))) => Err(Stop::Waiting(d, n)),
                (Ok(c), None) => Ok(Taken::Cached(c)),
                (Err(e), None) => Err(Stop::Failed(e)),
            }
        }
        (Decision::Cached(_) | Decision::Always, _) => plan.run(step).map(Taken::Outcome),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A plan that records the steps it did; `cached` steps are cached on
    /// `input`, `stop` makes one step wait or fail, `finish` ends after one.
    struct Mock {
        did: Vec<Step>,
        input: PathBuf,
        cached: Vec<Step>,
        skip: Vec<Step>,
        stop: Option<(Step, bool)>,
        finish: Option<Step>,
    }

    impl Mock {
        fn new(input: PathBuf) -> Mock {
            Mock {
                did: Vec::new(),
                input,
                cached: vec![Step::Inventory, Step::Generation],
                skip: vec![Step::CoreTasks],
                stop: None,
                finish: None,
            }
        }
    }

    impl Plan for Mock {
        fn decide(&mut self, step: Step) -> Result<Decision, Stop> {
            Ok(if self.skip.contains(&step) {
                Decision::Skip("not here".into())
            } else if self.cached.contains(&step) {
                Decision::Cached(vec![self.input.clone()])
            } else {
                Decision::Always
            })
        }

        fn run(&mut self, step: Step) -> Result<Outcome, Stop> {
            self.did.push(step);
            match self.stop {
                Some((s, true)) if s == step => {
                    return Err(Stop::Waiting("on the cloud".into(), vec!["go".into()]));
                }
                Some((s, false)) if s == step => return Err(anyhow::anyhow!("broke").into()),
                _ => {}
            }
            if self.finish == Some(step) {
                return Ok(Outcome::Finished("nothing more".into()));
            }
            Ok(Outcome::Done(format!("did {step}")))
        }

        fn next(&self) -> Vec<String> {
            vec!["export".into()]
        }
    }

    fn states(r: &RunReport) -> Vec<(&'static str, &'static str)> {
        r.stages
            .iter()
            .map(|l| (l.stage.name(), l.state.word()))
            .collect()
    }

    fn setup() -> (tempfile::TempDir, PathBuf) {
        let d = tempfile::tempdir().unwrap();
        let input = d.path().join("input");
        std::fs::write(&input, "x").unwrap();
        (d, input)
    }

    #[test]
    fn every_step_in_order_and_cached_steps_are_resumed_with_their_summary() {
        let (d, input) = setup();
        let mut plan = Mock::new(input);
        let mut logged = Vec::new();
        let cache = || {
            Some(Cache {
                out: d.path(),
                fresh: false,
            })
        };
        let r = drive(&mut plan, cache(), None, &mut |l| logged.push(l.render()));
        assert_eq!(plan.did.len(), 11, "{:?}", plan.did);
        assert!(!plan.did.contains(&Step::CoreTasks));
        assert!(r.complete());
        assert_eq!(r.next, ["export"]);
        assert_eq!(logged.len(), 12);
        assert_eq!(
            logged[0],
            format!("{:<28} done     did inventory", "inventory")
        );
        assert_eq!(r.stages[6].state, State::Skipped);
        // Again: the cached steps are resumed, with the summary of the first run.
        let mut again = Mock::new(plan.input.clone());
        let r = drive(&mut again, cache(), None, &mut |_| {});
        assert!(!again.did.contains(&Step::Inventory) && !again.did.contains(&Step::Generation));
        assert_eq!(r.stages[0].state, State::Resumed);
        assert_eq!(r.stages[0].detail, "did inventory");
        assert_eq!(r.stages[3].state, State::Resumed);
        assert!(r.complete());
    }

    #[test]
    fn until_leaves_the_later_steps_and_says_how_to_go_on() {
        let (_d, input) = setup();
        let mut plan = Mock::new(input);
        let r = drive(&mut plan, None, Some(Step::Selection), &mut |_| {});
        assert_eq!(plan.did, [Step::Inventory, Step::Selection]);
        assert_eq!(
            &states(&r)[..3],
            [
                ("inventory", "done"),
                ("selection", "done"),
                ("preparation", "left")
            ]
        );
        assert_eq!(r.stages.len(), 12);
        assert!(r.complete());
        assert_eq!(r.next, ["smtcomp run"]);
        assert!(r.into_result().is_ok());
    }

    #[test]
    fn a_waiting_or_failed_step_stops_the_sequence_and_is_not_complete() {
        let (d, input) = setup();
        let mut plan = Mock::new(input.clone());
        plan.stop = Some((Step::Runs, true));
        let r = drive(&mut plan, None, None, &mut |_| {});
        assert_eq!(r.stages[4].state, State::Waiting);
        assert_eq!(r.next, ["go"]);
        assert_eq!(r.left().len(), 8);
        assert!(!r.complete());
        assert_eq!(
            format!("{:#}", r.into_result().unwrap_err()),
            "not complete: runs, ingestion, core validation: tasks, core validation: generation, \
             core validation: runs, validation, scoring, report"
        );

        // A cached step that fails is not stamped: the next drive does it again.
        let mut plan = Mock::new(input.clone());
        plan.stop = Some((Step::Generation, false));
        let cache = Cache {
            out: d.path(),
            fresh: false,
        };
        let r = drive(&mut plan, Some(cache), None, &mut |_| {});
        assert_eq!(r.stages[3].state, State::Failed);
        assert_eq!(r.stages[3].detail, "broke");
        assert!(r.next.is_empty());
        assert_eq!(
            format!("{:#}", r.into_result().unwrap_err()),
            "stage generation: broke"
        );
        let mut plan = Mock::new(input);
        let cache = Cache {
            out: d.path(),
            fresh: false,
        };
        drive(&mut plan, Some(cache), None, &mut |_| {});
        assert!(plan.did.contains(&Step::Generation));
    }

    #[test]
    fn a_finished_plan_skips_the_rest() {
        let (_d, input) = setup();
        let mut plan = Mock::new(input);
        plan.finish = Some(Step::Selection);
        let r = drive(&mut plan, None, None, &mut |_| {});
        assert_eq!(plan.did, [Step::Inventory, Step::Selection]);
        assert_eq!(r.stages[2].state, State::Skipped);
        assert_eq!(r.stages[2].detail, "nothing to do after selection");
        assert!(r.complete());
    }
}
