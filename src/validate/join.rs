//! The majority rule (rules 5.4): a core is validated iff more validation
//! solvers answer `unsat` than `sat` on its restricted benchmark; with at
//! least one `sat` and no `unsat` majority it is refuted (an error); 0/0 is
//! not validated (no points in 2025). Verdicts go into the Unsat-Core runs.
//! [`CoreRule::Refutation2023`] is the 2023 rule (refuted iff more `sat` than
//! `unsat`; `validate-cores join --edition 2023`).

use super::cores::CoreManifest;
use crate::formats::runtable::{IngestRecord, RunAnswer};
use crate::formats::verdict::{CoreStatus, CoreVerdict, ValidatorAnswer, Verdict};
use crate::model::Track;
use serde::Serialize;
use std::collections::{BTreeMap, HashMap};

/// The majority rule on the counts.
pub fn majority(unsat: u32, sat: u32) -> CoreStatus {
    if unsat > sat {
        CoreStatus::Validated
    } else if sat > 0 {
        CoreStatus::Refuted
    } else {
        CoreStatus::NotValidated
    }
}

/// Which edition's rule turns the validators' counts into a verdict.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum CoreRule {
    /// 2025 rules 5.4 with the change list ("no points for a core that cannot be
    /// validated"): [`majority`].
    #[default]
    Majority2025,
    /// 2023 rules 5.4: "the unsatisfiability of an unsat core is refuted if the
    /// number of validation solvers whose result is sat exceeds the number of
    /// checking solvers whose result is unsat": [`refutation_2023`].
    Refutation2023,
}

/// The 2023 rule on the counts: refuted iff more `sat` than `unsat`; every
/// other core (a 1:1 tie, 0/0: no validator answered) is not refuted and
/// scores its reduction (2023 7.1.4 has no "unverified core" case), so its
/// status is `validated`; the verdict keeps the counts.
pub fn refutation_2023(unsat: u32, sat: u32) -> CoreStatus {
    if sat > unsat {
        CoreStatus::Refuted
    } else {
        CoreStatus::Validated
    }
}

impl CoreRule {
    /// The verdict of this rule on the counts.
    pub fn status(self, unsat: u32, sat: u32) -> CoreStatus {
        match self {
            CoreRule::Majority2025 => majority(unsat, sat),
            CoreRule::Refutation2023 => refutation_2023(unsat, sat),
        }
    }
}

/// What a join did.
#[derive(Debug, Clone, Default, Serialize)]
pub struct JoinSummary {
    /// Unsat-Core runs given a verdict, by status.
    pub by_status: BTreeMap<String, usize>,
    /// Validation runs read, and those matching no task (ignored).
    pub validation_runs: usize,
    /// Validation runs that match no task of the manifest.
    pub unmatched_validation_runs: usize,
    /// Problems: Unsat-Core runs with a core but no task (`run: reason`).
    pub problems: Vec<String>,
}

/// The answer of a validation run under its task's time limit: a `sat` or
/// `unsat` given after `limit` seconds (wall time, CPU time when unknown)
/// counts as a timeout. BenchExec runs every task of a definition with the
/// track's `validation_limits`; the 2025 per-task limit (the producing run's
/// time) is applied here, so its verdicts equal the local runner's.
pub fn within_limit(r: &IngestRecord, limit: f64) -> RunAnswer {
    let late = r.walltime.or(r.cputime).is_some_and(|t| t > limit);
    match r.answer {
        RunAnswer::Sat | RunAnswer::Unsat if late => RunAnswer::Timeout,
        a => a,
    }
}

/// The validation file a validation run ran on: its `task` or
/// `benchmark_key` if that is a task file, else the last two components of
/// the task path (`<LOGIC>/<file>`, `.yml` read as `.smt2`; an ingested
/// BenchExec run's `benchmark_key` is the original benchmark, shared by all
/// its cores, so the task path is tried first).
fn task_file(r: &IngestRecord, files: &HashMap<&str, usize>) -> Option<usize> {
    for cand in [r.task.as_str(), r.benchmark_key.as_str()] {
        if let Some(&i) = files.get(cand) {
            return Some(i);
        }
        let parts: Vec<&str> = cand.rsplitn(3, '/').collect();
        if parts.len() >= 2 {
            let name = parts[0]
                .strip_suffix(".yml")
                .map_or(parts[0].to_string(), |s| {
                    if s.ends_with(".smt2") {
                        s.to_string()
                    } else {
                        format!("{s}.smt2")
                    }
                });
            if let Some(&i) = files.get(format!("{}/{name}", parts[1]).as_str()) {
                return Some(i);
            }
        }
    }
    None
}

/// Applies the validation runs to the Unsat-Core runs in `records`: every
/// `unsat` run with a core gets a [`CoreVerdict`] (2025 majority rule).
pub fn join(
    records: &mut [IngestRecord],
    manifest: &CoreManifest,
    validation: &[IngestRecord],
) -> JoinSummary {
    join_with(records, manifest, validation, CoreRule::Majority2025)
}

/// [`join`] under the given edition's rule.
pub fn join_with(
    records: &mut [IngestRecord],
    manifest: &CoreManifest,
    validation: &[IngestRecord],
    rule: CoreRule,
) -> JoinSummary {
    let mut joiner = CoreJoiner::new(manifest, validation, rule);
    for r in records.iter_mut() {
        joiner.apply(r);
    }
    joiner.finish()
}

/// [`join_with`] one run at a time (a run table read and written as a
/// stream): the verdicts of every task, then each run's.
pub struct CoreJoiner<'m> {
    verdicts: Vec<CoreVerdict>,
    by_core: HashMap<(&'m str, &'m [String]), usize>,
    summary: JoinSummary,
}

impl<'m> CoreJoiner<'m> {
    /// The verdicts of `manifest`'s tasks from the `validation` runs under `rule`.
    pub fn new(manifest: &'m CoreManifest, validation: &[IngestRecord], rule: CoreRule) -> Self {
        let mut summary = JoinSummary::default();
        let files: HashMap<&str, usize> = manifest
            .tasks
            .iter()
            .enumerate()
            .map(|(i, t)| (t.file.as_str(), i))
            .collect();
        // task -> validator -> answers
        let mut answers: Vec<BTreeMap<&str, Vec<RunAnswer>>> =
            vec![BTreeMap::new(); manifest.tasks.len()];
        for v in validation
            .iter()
            .filter(|r| r.track == Some(Track::UnsatCoreValidation) || r.source == "local")
        {
            summary.validation_runs += 1;
            match task_file(v, &files) {
                Some(i) => answers[i]
                    .entry(&v.solver)
                    .or_default()
                    .push(within_limit(v, manifest.tasks[i].time_limit)),
                None => summary.unmatched_validation_runs += 1,
            }
        }
        let verdicts: Vec<CoreVerdict> = manifest
            .tasks
            .iter()
            .zip(&answers)
            .map(|(t, got)| {
                // The task's validators (all who ran when none were chosen).
                let names: Vec<&str> = if t.validators.is_empty() {
                    got.keys().copied().collect()
                } else {
                    let mut v: Vec<&str> = t.validators.iter().map(String::as_str).collect();
                    v.sort();
                    v.dedup();
                    v
                };
                let mut out = CoreVerdict {
                    status: CoreStatus::NotValidated,
                    unsat: 0,
                    sat: 0,
                    other: 0,
                    validators: Vec::new(),
                    file: t.file.clone(),
                };
                for n in names {
                    // Several runs of one validator: a definite answer wins, unsat before sat.
                    let a = got.get(n).and_then(|v| {
                        v.iter().copied().min_by_key(|a| match a {
                            RunAnswer::Unsat => 0,
                            RunAnswer::Sat => 1,
                            _ => 2,
                        })
                    });
                    match a {
                        Some(RunAnswer::Unsat) => out.unsat += 1,
                        Some(RunAnswer::Sat) => out.sat += 1,
                        _ => out.other += 1,
                    }
                    out.validators.push(ValidatorAnswer {
                        solver: n.to_string(),
                        answer: a.unwrap_or(RunAnswer::Error),
                    });
                }
                out.status = if t.unknown_names.is_empty() {
                    rule.status(out.unsat, out.sat)
                } else {
                    // Names no assertion of the benchmark has: not well-formed (7.1.4).
                    CoreStatus::Malformed
                };
                out
            })
            .collect();
        let by_core: HashMap<(&str, &[String]), usize> = manifest
            .tasks
            .iter()
            .enumerate()
            .map(|(i, t)| ((t.benchmark.as_str(), t.core.as_slice()), i))
            .collect();
        CoreJoiner {
            verdicts,
            by_core,
            summary,
        }
    }

    /// Writes its verdict into `r` when it is an Unsat-Core run with a core.
    pub fn apply(&mut self, r: &mut IngestRecord) {
        if r.track != Some(Track::UnsatCore) || r.answer != RunAnswer::Unsat {
            return;
        }
        let Some(core) = &r.unsat_core else { return };
        match self
            .by_core
            .get(&(r.benchmark_key.as_str(), core.names.as_slice()))
        {
            Some(&i) => {
                let v = self.verdicts[i].clone();
                let s = serde_json::to_value(v.status)
                    .ok()
                    .and_then(|s| s.as_str().map(str::to_string))
                    .unwrap_or_default();
                *self.summary.by_status.entry(s).or_default() += 1;
                r.validation = Some(Verdict::Core(v));
            }
            None => self.summary.problems.push(format!(
                "{} {} ({}: {}): no validation task for its core (run `validate-cores generate` on these runs)",
                r.solver, r.benchmark_key, r.source, r.task
            )),
        }
    }

    /// What was joined.
    pub fn finish(self) -> JoinSummary {
        self.summary
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn majority_rule() {
        assert_eq!(majority(1, 0), CoreStatus::Validated);
        assert_eq!(majority(2, 1), CoreStatus::Validated);
        assert_eq!(majority(1, 1), CoreStatus::Refuted);
        assert_eq!(majority(0, 1), CoreStatus::Refuted);
        assert_eq!(majority(0, 0), CoreStatus::NotValidated);
    }

    /// 2023 rules 5.4: refuted iff #sat > #unsat. 1 unsat : 1 sat is a tie, not
    /// an error (2025: refuted); 0/0 is not refuted and scores (2025: no points).
    #[test]
    fn refutation_rule_of_2023() {
        let r = CoreRule::Refutation2023;
        assert_eq!(r.status(1, 1), CoreStatus::Validated);
        assert_eq!(r.status(0, 0), CoreStatus::Validated);
        assert_eq!(r.status(2, 1), CoreStatus::Validated);
        assert_eq!(r.status(1, 2), CoreStatus::Refuted);
        assert_eq!(r.status(0, 1), CoreStatus::Refuted);
        assert_eq!(CoreRule::Majority2025.status(1, 1), CoreStatus::Refuted);
    }

    fn run(track: Track, solver: &str, task: &str, answer: RunAnswer) -> IngestRecord {
        let mut r = IngestRecord::new("x.xml", task);
        r.track = Some(track);
        r.solver = solver.into();
        r.answer = answer;
        r.benchmark_key = "non-incremental/QF_UF/a.smt2".into();
        r
    }

    #[test]
    fn answers_after_the_task_time_limit_are_timeouts() {
        let mut r = run(Track::UnsatCoreValidation, "a", "t", RunAnswer::Sat);
        assert_eq!(within_limit(&r, 1.0), RunAnswer::Sat);
        r.cputime = Some(1.5);
        assert_eq!(within_limit(&r, 1.0), RunAnswer::Timeout);
        // Wall time is the limit's clock when known.
        r.walltime = Some(0.9);
        assert_eq!(within_limit(&r, 1.0), RunAnswer::Sat);
        r.walltime = Some(2.0);
        r.answer = RunAnswer::Unsat;
        assert_eq!(within_limit(&r, 1.0), RunAnswer::Timeout);
        assert_eq!(within_limit(&r, 2.0), RunAnswer::Unsat);
        r.answer = RunAnswer::Unknown;
        assert_eq!(within_limit(&r, 1.0), RunAnswer::Unknown);
    }

    /// The manifest of one validation task.
    fn one_task(task: super::super::cores::CoreTask) -> CoreManifest {
        CoreManifest {
            validator_selection: String::new(),
            time_limit_policy: String::new(),
            tasks: vec![task],
        }
    }

    #[test]
    fn timeouts_only_leave_the_core_unvalidated_and_unscored() {
        use super::super::cores::CoreTask;
        let task = CoreTask {
            file: "QF_UF/scrambled0_1.smt2".into(),
            benchmark: "non-incremental/QF_UF/a.smt2".into(),
            logic: None,
            division: None,
            core: vec!["smtcomp1".into()],
            unknown_names: vec![],
            producers: vec![],
            time_limit: 1.0,
            validators: vec!["a".into(), "b".into(), "c".into()],
        };
        let manifest = one_task(task);
        let mut uc = run(Track::UnsatCore, "p", "t", RunAnswer::Unsat);
        uc.unsat_core = Some(crate::formats::runtable::UnsatCore {
            names: vec!["smtcomp1".into()],
        });
        let mut other = uc.clone();
        other.unsat_core = Some(crate::formats::runtable::UnsatCore { names: vec![] });
        let mut records = vec![uc, other];
        // BenchExec-style task paths; "c" never ran; "z" is not a validator of the task.
        let v = [
            run(
                Track::UnsatCoreValidation,
                "a",
                "../files/QF_UF/scrambled0_1.yml",
                RunAnswer::Timeout,
            ),
            run(
                Track::UnsatCoreValidation,
                "b",
                "../files/QF_UF/scrambled0_1.smt2",
                RunAnswer::Unknown,
            ),
            run(
                Track::UnsatCoreValidation,
                "z",
                "QF_UF/scrambled0_1.smt2",
                RunAnswer::Sat,
            ),
            run(
                Track::UnsatCoreValidation,
                "a",
                "QF_UF/other.smt2",
                RunAnswer::Sat,
            ),
        ];
        let s = join(&mut records, &manifest, &v);
        assert_eq!((s.validation_runs, s.unmatched_validation_runs), (4, 1));
        let Some(Verdict::Core(c)) = &records[0].validation else {
            panic!("{:?}", records[0].validation)
        };
        assert_eq!(
            (c.status, c.unsat, c.sat, c.other),
            (CoreStatus::NotValidated, 0, 0, 3)
        );
        assert_eq!(c.validators[2].answer, RunAnswer::Error);
        // The run with another core has no task: reported, no verdict.
        assert!(records[1].validation.is_none());
        assert_eq!(s.problems.len(), 1);
    }

    /// 2025 rules 7.1.4: a core naming an assertion the benchmark does not
    /// have (`nope`) is not well-formed: 0/0, even when every validator says
    /// unsat on the assertions it does name.
    #[test]
    fn a_core_naming_an_unknown_assertion_is_malformed_and_scores_nothing() {
        use super::super::cores::CoreTask;
        let task = CoreTask {
            file: "QF_UF/scrambled0_1.smt2".into(),
            benchmark: "non-incremental/QF_UF/a.smt2".into(),
            logic: None,
            division: None,
            core: vec!["nope".into(), "smtcomp1".into()],
            unknown_names: vec!["nope".into()],
            producers: vec![],
            time_limit: 10.0,
            validators: vec!["a".into()],
        };
        let manifest = one_task(task);
        let mut uc = run(Track::UnsatCore, "p", "t", RunAnswer::Unsat);
        uc.unsat_core = Some(crate::formats::runtable::UnsatCore {
            names: vec!["nope".into(), "smtcomp1".into()],
        });
        let mut records = vec![uc];
        let v = [run(
            Track::UnsatCoreValidation,
            "a",
            "QF_UF/scrambled0_1.smt2",
            RunAnswer::Unsat,
        )];
        let s = join(&mut records, &manifest, &v);
        assert_eq!(s.by_status.get("malformed"), Some(&1));
        let Some(Verdict::Core(c)) = &records[0].validation else {
            panic!("{:?}", records[0].validation)
        };
        assert_eq!((c.status, c.unsat), (CoreStatus::Malformed, 1));
        // Its score (0/0): `scoring::runtable`'s tests.
    }
}
