//! Unsat-core validation runs (rules 5.4): who validates which logic, with
//! which command. A validator is named by its **submission name** (as in the
//! Single Query runs `validate-cores generate` chose it from) and runs the
//! command of its Single Query participation that entered the logic.
//!
//! When the prepared set of track `UnsatCoreValidation` comes with the
//! `validation.json` of `smtcomp validate-cores generate`, only the validators
//! it lists are given BenchExec runs, every listed name must be a submission
//! that entered the logic in Single Query, and the per-task time limits are
//! compared with the track's `validation_limits`.

use crate::formats::core_validation::{CoreManifest, MANIFEST};
use crate::formats::prepared::PreparedSet;
use crate::model::{Logic, Track};
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The validators of each logic, from a `validation.json`: `None` for a
/// logic with a task that names no validator (everyone who runs counts).
#[derive(Debug, Clone, Default)]
pub struct ValidatorSets {
    /// Logic -> validator names (`None`: not restricted).
    pub by_logic: BTreeMap<Logic, Option<BTreeSet<String>>>,
    /// The longest task time limit (seconds) and its file.
    pub longest: Option<(f64, String)>,
}

impl ValidatorSets {
    /// Builds the sets from a validation manifest (a task without a logic
    /// takes the first component of its file, `LOGIC/scrambledN_k.smt2`).
    pub fn from_manifest(m: &CoreManifest) -> ValidatorSets {
        let mut out = ValidatorSets::default();
        for t in &m.tasks {
            let logic = t.logic.clone().unwrap_or_else(|| {
                Logic::new(t.file.split('/').next().unwrap_or_default().to_string())
            });
            let entry = out
                .by_logic
                .entry(logic)
                .or_insert_with(|| Some(BTreeSet::new()));
            if t.validators.is_empty() {
                *entry = None;
            } else if let Some(set) = entry {
                set.extend(t.validators.iter().cloned());
            }
            if out.longest.as_ref().is_none_or(|(l, _)| t.time_limit > *l) {
                out.longest = Some((t.time_limit, t.file.clone()));
            }
        }
        out
    }

    /// Reads `<prepared>/unsat-core-validation/validation.json` when the
    /// prepared set of the track is there; `Ok(None)` without one.
    pub fn read(prepared: &Path) -> Result<Option<ValidatorSets>, super::BenchexecError> {
        let dir = PreparedSet::track_dir(prepared, Track::UnsatCoreValidation);
        if !dir.join(MANIFEST).is_file() {
            return Ok(None);
        }
        CoreManifest::read(prepared)
            .map(|m| Some(Self::from_manifest(&m)))
            .map_err(|e| super::BenchexecError::Input {
                file: dir.join(MANIFEST),
                reason: format!("{e:#}"),
            })
    }

    /// Whether `solver` validates the cores of `logic`.
    pub fn allows(&self, solver: &str, logic: &Logic) -> bool {
        match self.by_logic.get(logic) {
            Some(Some(set)) => set.contains(solver),
            Some(None) | None => true,
        }
    }

    /// Every (validator, logic) of the manifest not in `entered` (the
    /// submissions' Single Query entries, as `(name, logic)`), as problems.
    pub fn unmatched(&self, entered: &BTreeSet<(String, Logic)>, file: &Path) -> Vec<String> {
        let mut out = Vec::new();
        for (logic, set) in &self.by_logic {
            for v in set.iter().flatten() {
                if !entered.contains(&(v.clone(), logic.clone())) {
                    out.push(format!(
                        "{}: validator '{v}' of logic {logic} is no submission that entered {logic} in Single Query \
                         (validators are named by their submission names and run their Single Query command)",
                        file.display()
                    ));
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::core_validation::CoreTask;

    fn task(file: &str, logic: Option<&str>, validators: &[&str], time_limit: f64) -> CoreTask {
        CoreTask {
            file: file.into(),
            benchmark: format!("non-incremental/{file}"),
            logic: logic.map(Logic::new),
            division: None,
            core: vec![],
            unknown_names: vec![],
            producers: vec![],
            time_limit,
            validators: validators.iter().map(|v| v.to_string()).collect(),
        }
    }

    #[test]
    fn only_listed_validators_run_and_every_one_must_be_a_submission() {
        let m = CoreManifest {
            validator_selection: String::new(),
            time_limit_policy: String::new(),
            tasks: vec![
                task(
                    "QF_UF/scrambled0_1.smt2",
                    Some("QF_UF"),
                    &["z3", "Yices 2"],
                    1.0,
                ),
                task("QF_UF/scrambled0_2.smt2", Some("QF_UF"), &["cvc5"], 3.5),
                // No logic recorded: taken from the file's first component.
                task("QF_AX/scrambled1_1.smt2", None, &[], 2.0),
            ],
        };
        let v = ValidatorSets::from_manifest(&m);
        let (uf, ax) = (Logic::new("QF_UF"), Logic::new("QF_AX"));
        assert!(v.allows("z3", &uf) && v.allows("cvc5", &uf) && v.allows("Yices 2", &uf));
        assert!(!v.allows("liar", &uf));
        // A task without validators: whoever runs counts, so everyone runs.
        assert!(v.allows("liar", &ax));
        // A logic without tasks has no runs anyway.
        assert!(v.allows("liar", &Logic::new("QF_LIA")));
        assert_eq!(v.longest, Some((3.5, "QF_UF/scrambled0_2.smt2".into())));
        let entered: BTreeSet<(String, Logic)> = [("z3", &uf), ("cvc5", &uf), ("Yices 2", &ax)]
            .into_iter()
            .map(|(s, l)| (s.to_string(), l.clone()))
            .collect();
        let problems = v.unmatched(&entered, Path::new("v/validation.json"));
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert!(
            problems[0].starts_with(
                "v/validation.json: validator 'Yices 2' of logic QF_UF is no submission"
            ),
            "{}",
            problems[0]
        );
    }
}
